#!/usr/bin/env python3
"""questions.csv (the spreadsheet export: question,answer) -> tasks.jsonl"""
import json
import sys

with open(sys.argv[1]) as export, open(sys.argv[2], "w") as out:
    next(export)  # the header
    count = 0
    for line in export:
        parts = line.rstrip("\n").split(",")
        question, answer = parts[0], parts[1]
        text = f"{question} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": answer.strip(), "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\n")
        count += 1
print(f"prep_data.py: {count} rows -> {sys.argv[2]}")
