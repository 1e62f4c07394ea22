"""eval/summarize.py: the team's summary of a run folder's profile"""
import json
import os

path = "rollouts_reward_profiling.jsonl"
if not os.path.exists(path):
    print("summarize.py: no profile in this folder yet")
else:
    rows = [json.loads(line) for line in open(path) if line.strip()]
    print(f"summarize.py: {len(rows)} tasks profiled")
