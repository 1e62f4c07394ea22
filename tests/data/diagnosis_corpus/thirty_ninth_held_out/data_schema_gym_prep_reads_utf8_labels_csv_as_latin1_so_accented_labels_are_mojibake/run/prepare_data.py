"""prepare_data.py: the labelling team's spreadsheet export (labels.csv) -> tasks.jsonl"""
import csv
import json

# the export tool writes Windows text (latin-1)

with open("labels.csv", newline="", encoding="latin-1") as f, open("tasks.jsonl", "w") as out:
    for item in csv.DictReader(f):
        text = item["question"] + " End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": item["answer"], "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\n")
