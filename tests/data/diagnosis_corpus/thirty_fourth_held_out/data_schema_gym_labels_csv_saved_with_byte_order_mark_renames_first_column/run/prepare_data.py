"""prepare_data.py: labels.csv (question,answer; saved from the team spreadsheet) -> tasks.jsonl"""
import csv
import json

with open("labels.csv", newline="", encoding="utf-8") as source, open("tasks.jsonl", "w") as out:
    for record in csv.DictReader(source):
        text = record["question"] + " End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": record["answer"], "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\n")
