"""report.py: the weekly summary of the newest results folder (results/DD-MM-YYYY/)."""
import glob
import json
import os

latest = sorted(glob.glob("results/*/rollouts.jsonl"))[-1]
rows = [json.loads(line) for line in open(latest) if line.strip()]
mean = sum(float(r.get("reward") or 0) for r in rows) / len(rows)
print(f"latest results: {os.path.dirname(latest)}: mean reward {mean:.2f} over {len(rows)} rollouts")
