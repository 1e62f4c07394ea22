#!/usr/bin/env python3
"""review_export.jsonl (the review tool's export) -> tasks.jsonl: only the reviewed questions, with their answers"""
import json
import sys

kept = 0
with open(sys.argv[1]) as export, open(sys.argv[2], "w") as out:
    for line in export:
        item = json.loads(line)
        if not item.get("reviewed"):
            continue  # drafts are not evaluated
        text = f"{item['question']} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": item["answer"], "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\n")
        kept += 1
print(f"prep_data.py: {kept} reviewed questions -> {sys.argv[2]}")
