"""questions.csv (the reviewed sheet, exported from the spreadsheet) -> tasks.jsonl"""
import csv
import json
import sys

with open(sys.argv[1], newline="") as source, open(sys.argv[2], "w") as out:
    for record in csv.DictReader(source):
        text = f"{record['question']} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": record["answer"], "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\n")
