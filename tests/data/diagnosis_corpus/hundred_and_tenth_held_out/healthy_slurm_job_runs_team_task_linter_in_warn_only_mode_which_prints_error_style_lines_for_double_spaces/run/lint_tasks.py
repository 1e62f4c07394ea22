"""lint_tasks.py: style checks of a task file (the CI gate uses --strict; the weekly eval only reports)."""
import json
import sys

strict = "--strict" in sys.argv
path = [a for a in sys.argv[1:] if not a.startswith("--")][0]
problems = 0
for n, line in enumerate(open(path), 1):
    row = json.loads(line)
    text = row["responses_create_params"]["input"][0]["content"][0]["text"]
    if "  " in text:
        print(f"ERROR style: {path}:{n}: prompt has a double space", flush=True)
        problems += 1
print(f"lint: {problems} style problem(s) in {path}" + ("" if strict else " (--warn-only: not failing)"), flush=True)
sys.exit(1 if strict and problems else 0)
