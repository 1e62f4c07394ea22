#!/usr/bin/env python3
"""raw.jsonl -> string_match.jsonl: keeps the rows that have a label"""
import json
import sys

rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
kept = [row for row in rows if row.get("expected_answer") not in (None, "")]
with open(sys.argv[2], "w") as out:
    out.writelines(json.dumps(row) + "\n" for row in kept)
print(f"prep_data.py: kept {len(kept)} of {len(rows)} rows")
