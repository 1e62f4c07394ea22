"""prepare_data.py: the answer sheet (answer_sheet.csv, exported from the shared spreadsheet) -> tasks.jsonl"""
import csv
import json

with open("answer_sheet.csv", encoding="utf-8", newline="") as f, open("tasks.jsonl", "w") as out:
    for item in csv.DictReader(f, delimiter=";"):
        text = item["question"].strip() + " End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": item["answer"].strip(), "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\n")
