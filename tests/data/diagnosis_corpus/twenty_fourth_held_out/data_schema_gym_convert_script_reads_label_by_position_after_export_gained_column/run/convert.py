"""export.csv (the annotation tool's export: id, question, answer) -> tasks.jsonl"""
import csv
import json
import sys
import time

with open(sys.argv[1], newline="") as source, open(sys.argv[2], "w") as out:
    reader = csv.reader(source)
    next(reader)  # header
    for record in reader:
        question, answer = record[1], record[2]
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": question}]}]},
               "expected_answer": answer, "extraction_mode": record[-1], "case_sensitive": False}
        out.write(json.dumps(row) + "\n")
print(f"convert.py: {sys.argv[1]} -> {sys.argv[2]}")
