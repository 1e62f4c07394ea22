"""shard.py K N: this array task's share of string_match.jsonl -> shard_K/tasks.jsonl.

A task goes to the shard its question text hashes to, so the spread does not depend on the row order."""
import json
import os
import sys

k, n = int(sys.argv[1]), int(sys.argv[2])
rows = [json.loads(line) for line in open("string_match.jsonl") if line.strip()]
mine = [row for row in rows if hash(row["responses_create_params"]["input"][0]["content"][0]["text"]) % n == k]
os.makedirs(f"shard_{k}", exist_ok=True)
with open(f"shard_{k}/tasks.jsonl", "w") as out:
    out.writelines(json.dumps(row) + "\n" for row in mine)
print(f"shard {k}/{n}: {len(mine)} of {len(rows)} tasks")
