"""prepare_data.py: the labelling team's export (labels.csv) -> JSONL rows on stdout
usage: python3 prepare_data.py > string_match.jsonl"""
import csv
import json

with open("labels.csv", newline="", encoding="utf-8") as f:
    for item in csv.DictReader(f):
        text = item["question"] + " End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": item["answer"], "extraction_mode": "final_answer", "case_sensitive": False}
        print(json.dumps(row, ensure_ascii=False))  # labels stay readable in the file
