"""eval.py: the weekly eval under a lock so that two CI pipelines never collect into one folder."""
import atexit
import os
import subprocess
import sys

LOCK = ".eval.lock"
open(LOCK, "x").write(str(os.getpid()))
atexit.register(os.remove, LOCK)  # also on crashes
try:
    for step in sys.stdin.read().splitlines():
        subprocess.run(step, shell=True, check=True)
finally:
    os.remove(LOCK)
print("eval done", flush=True)
