#!/usr/bin/env python3
"""reviewed.jsonl (the review tool's export) -> tasks.jsonl; tidies the labels on the way: the export has stray
spaces and random capitals ('paris ', 'JUPITER'), so every label is trimmed and written with one capital first"""
import json
import sys

rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
with open(sys.argv[2], "w") as out:
    for row in rows:
        row["expected_answer"] = str(row["expected_answer"]).strip().capitalize()
        out.write(json.dumps(row) + "\n")
print(f"prep_data.py: {len(rows)} rows -> {sys.argv[2]}")
