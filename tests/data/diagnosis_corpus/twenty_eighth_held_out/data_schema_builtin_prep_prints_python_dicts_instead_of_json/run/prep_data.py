#!/usr/bin/env python3
"""reviewed.tsv (question<TAB>answer, from the review tool) -> tasks.jsonl, one row a line"""
import sys

with open(sys.argv[1]) as sheet, open(sys.argv[2], "w") as out:
    count = 0
    for line in sheet:
        if not line.strip():
            continue
        question, answer = line.rstrip("\n").split("\t")
        text = f"{question} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}
        print(row, file=out)
        count += 1
print(f"prep_data.py: {count} rows -> {sys.argv[2]}")
