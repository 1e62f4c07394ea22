#!/usr/bin/env python3
"""answers.csv (the review sheet, exported from the spreadsheet) -> tasks.jsonl, the eval rows"""
import csv
import json
import sys

with open(sys.argv[1], newline="", encoding="utf-8") as sheet, open(sys.argv[2], "w") as out:
    count = 0
    for record in csv.DictReader(sheet):
        text = f"{record['question']} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": record["answer"].strip(), "extraction_mode": "final_answer",
               "case_sensitive": False}
        out.write(json.dumps(row) + "\n")
        count += 1
print(f"prep_data.py: {count} rows -> {sys.argv[2]}")
