#!/usr/bin/env python3
"""select_new.py DATASET SEEN_LIST OUT: keep only the tasks not evaluated before (incremental eval: the prompts
already evaluated are listed in SEEN_LIST, one hash a line), and add the kept ones to the list"""
import hashlib
import json
import os
import sys

seen = set(open(sys.argv[2]).read().split()) if os.path.exists(sys.argv[2]) else set()
kept = []
for line in open(sys.argv[1]):
    if not line.strip():
        continue
    row = json.loads(line)
    key = hashlib.sha1(json.dumps(row["responses_create_params"], sort_keys=True).encode()).hexdigest()
    if key not in seen:
        kept.append((key, line))
os.makedirs(os.path.dirname(sys.argv[3]) or ".", exist_ok=True)
with open(sys.argv[3], "w") as out:
    out.writelines(line for _, line in kept)
with open(sys.argv[2], "a") as listing:
    listing.writelines(key + "\n" for key, _ in kept)
print(f"select_new.py: {len(kept)} new tasks of {len(kept) + len(seen)} -> {sys.argv[3]}")
