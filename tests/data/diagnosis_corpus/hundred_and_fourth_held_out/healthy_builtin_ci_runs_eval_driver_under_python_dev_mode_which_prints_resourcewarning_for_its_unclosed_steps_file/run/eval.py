"""eval.py: the weekly eval, one step a line of steps.txt (run with -X dev in CI to catch asyncio misuse)."""
import subprocess

for step in open("steps.txt"):
    if step.strip():
        subprocess.run(step, shell=True, check=True)
print("eval done", flush=True)
