"""sheet_to_jsonl.py SHEET.csv: the labelling sheet (question,answer) as string_match rows on stdout."""
import csv
import json
import sys

with open(sys.argv[1], newline="", encoding="utf-8") as handle:
    for row in csv.DictReader(handle):
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        print(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": row["answer"], "extraction_mode": "final_answer", "case_sensitive": False}))
