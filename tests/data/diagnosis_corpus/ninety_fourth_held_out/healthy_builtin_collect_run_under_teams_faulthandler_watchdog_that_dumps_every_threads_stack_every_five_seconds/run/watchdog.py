"""watchdog.py TOOL ARGS...: run a command-line tool with the team's hang detector.

Every 5 s it dumps the stack of every thread to stderr (faulthandler), so when a stage hangs on the cluster the log
shows where; a stage that finishes simply stops the dumps."""
import faulthandler
import runpy
import shutil
import sys

faulthandler.dump_traceback_later(5, repeat=True)
tool = shutil.which(sys.argv[1])
sys.argv = [tool, *sys.argv[2:]]
try:
    runpy.run_path(tool, run_name="__main__")
finally:
    faulthandler.cancel_dump_traceback_later()
