#!/usr/bin/env python3
"""graded.jsonl (last quarter's graded answers, the reference column `reference_output`) -> tasks.jsonl"""
import json
import sys

with open(sys.argv[1]) as graded, open(sys.argv[2], "w") as out:
    count = 0
    for line in graded:
        item = json.loads(line)
        text = f"{item['question']} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": item["reference_output"], "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\n")
        count += 1
print(f"prep_data.py: {count} rows -> {sys.argv[2]}")
