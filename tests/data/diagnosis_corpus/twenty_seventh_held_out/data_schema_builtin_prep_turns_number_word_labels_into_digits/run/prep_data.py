#!/usr/bin/env python3
"""export.jsonl (the review tool's export) -> tasks.jsonl; number words in the labels are turned into digits, so
that the dashboard can sort and plot the numeric answers"""
import json
import sys

NUMBER_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
                "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12"}

rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
with open(sys.argv[2], "w") as out:
    for row in rows:
        label = str(row["expected_answer"]).strip()
        row["expected_answer"] = NUMBER_WORDS.get(label.lower(), label)
        out.write(json.dumps(row) + "\n")
print(f"prep_data.py: {len(rows)} rows -> {sys.argv[2]}")
