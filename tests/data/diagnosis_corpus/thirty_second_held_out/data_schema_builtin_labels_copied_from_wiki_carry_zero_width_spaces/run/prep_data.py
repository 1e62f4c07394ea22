#!/usr/bin/env python3
"""question_bank.json (copied from the wiki page of the question bank) -> tasks.jsonl"""
import json
import sys

items = json.load(open(sys.argv[1]))
with open(sys.argv[2], "w") as out:
    for item in items:
        text = f"{item['question']} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": item["answer"].strip(), "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\n")
print(f"prep_data.py: {len(items)} rows -> {sys.argv[2]}")
