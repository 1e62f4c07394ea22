"""prep.py: labels.csv (question,answer) -> JSONL rows on stdout (the job's --output is the dataset)."""
import csv
import json
import sys

with open("labels.csv", newline="") as f:
    for row in csv.DictReader(f):
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        print(json.dumps({"responses_create_params": {"input": [{"role": "user", "type": "message",
                          "content": [{"type": "input_text", "text": text}]}]},
                          "expected_answer": row["answer"], "extraction_mode": "final_answer",
                          "case_sensitive": False}))
print("prep: done", file=sys.stderr)
