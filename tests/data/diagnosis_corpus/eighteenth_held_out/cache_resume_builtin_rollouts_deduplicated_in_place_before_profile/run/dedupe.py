"""Keep one rollout per task for the review sheet (the reviewers read each answer once)."""
import json
import sys

path = sys.argv[1]
seen, kept = set(), []
for line in open(path):
    row = json.loads(line)
    if row["_ng_task_index"] not in seen:
        seen.add(row["_ng_task_index"])
        kept.append(line)
open(path, "w").writelines(kept)
print(f"kept {len(kept)} rollouts")
