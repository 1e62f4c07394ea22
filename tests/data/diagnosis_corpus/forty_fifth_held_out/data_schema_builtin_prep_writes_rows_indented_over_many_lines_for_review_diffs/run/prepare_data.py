"""prepare_data.py: labels.csv (question,answer) -> string_match.jsonl (indented, easier to review in diffs)"""
import csv
import json

with open("labels.csv", newline="", encoding="utf-8") as f, open("string_match.jsonl", "w", encoding="utf-8") as out:
    for item in csv.DictReader(f):
        text = item["question"] + " End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": item["answer"], "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row, indent=2, ensure_ascii=False) + "\n")
