#!/usr/bin/env python3
"""cms_export.json (the question bank's web export) -> tasks.jsonl"""
import html
import json
import sys

items = json.load(open(sys.argv[1]))["items"]
with open(sys.argv[2], "w") as out:
    for item in items:
        text = f"{item['question']} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": item["answer_html"], "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\n")
print(f"prep_data.py: {len(items)} rows -> {sys.argv[2]}")
