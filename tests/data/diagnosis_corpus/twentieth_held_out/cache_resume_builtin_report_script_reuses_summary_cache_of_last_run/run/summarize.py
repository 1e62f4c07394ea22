"""Print the run's mean reward for the weekly report (cached: profiles of big runs take a while)."""
import json
import os
import sys

run = sys.argv[1]
cache = os.path.join(run, "summary_cache.json")
if os.path.exists(cache):
    with open(cache) as handle:
        summary = json.load(handle)
else:
    with open(os.path.join(run, "rollouts_reward_profiling.jsonl")) as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    summary = {"tasks": len(rows), "mean_reward": round(sum(row["mean/reward"] for row in rows) / len(rows), 4)}
    with open(cache, "w") as handle:
        json.dump(summary, handle)
print(json.dumps(summary))
