"""report.py: the weekly number for the dashboard, from the reward profile of the run folder."""
import glob
import json

path = sorted(glob.glob("rollouts_reward_profiling*.jsonl"))[0]
rows = [json.loads(line) for line in open(path) if line.strip()]
mean = sum(r["mean/reward"] for r in rows) / len(rows)
print(f"report: {path}: {len(rows)} tasks, mean reward {mean:.2f}")
