"""prepare_data.py: labels.csv (question,answer) -> string_match.jsonl"""
import csv
import json

with open("labels.csv", newline="") as f, open("string_match.jsonl", "w") as out:
    for item in csv.DictReader(f):
        text = item["question"] + " End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": item["answer"], "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row, ensure_ascii=False) + "\n")
