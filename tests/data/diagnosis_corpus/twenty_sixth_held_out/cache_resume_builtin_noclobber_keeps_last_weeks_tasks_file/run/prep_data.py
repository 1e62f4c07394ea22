#!/usr/bin/env python3
"""this week's questions (export.jsonl from the review tool) -> the eval rows, on stdout"""
import json
import sys

rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
sys.stdout.writelines(json.dumps(row) + "\n" for row in rows)
print(f"prep_data.py: {len(rows)} rows", file=sys.stderr)
