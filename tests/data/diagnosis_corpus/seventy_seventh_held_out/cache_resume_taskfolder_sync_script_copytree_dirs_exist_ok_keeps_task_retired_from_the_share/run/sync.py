"""sync.py SHARE: bring the team's taskset (on the share) into ./tasks before a run."""
import shutil
import sys

shutil.copytree(sys.argv[1], "tasks", dirs_exist_ok=True)   # update in place: new and changed files
print(f"sync: tasks updated from {sys.argv[1]}")
