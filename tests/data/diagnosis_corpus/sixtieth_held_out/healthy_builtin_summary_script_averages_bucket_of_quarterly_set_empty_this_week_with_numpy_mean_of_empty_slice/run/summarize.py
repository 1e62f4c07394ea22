"""summarize.py: the weekly eval's mean reward per difficulty bucket (the buckets of the team's buckets.json)."""
import json

import numpy as np

buckets = json.load(open("buckets.json"))
rows = [json.loads(line) for line in open("rollouts.jsonl")]
for name, (low, high) in buckets.items():
    got = np.array([r["reward"] for r in rows if low <= r["_ng_task_index"] < high], dtype=float)
    print(f"{name:10} rollouts {got.size:3d}  mean reward {got.mean():.3f}")
print(f"{'all':10} rollouts {len(rows):3d}  mean reward {np.mean([r['reward'] for r in rows]):.3f}")
