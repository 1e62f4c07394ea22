"""eval_set.csv (export of the annotation tool's eval_items table) -> string_match.jsonl"""
import csv
import json
import sys

with open(sys.argv[1], newline="") as source, open(sys.argv[2], "w") as out:
    for record in csv.DictReader(source):
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": record["prompt"]}]}]},
               "expected_answer": record["expected_answer"], "extraction_mode": record["extraction_mode"],
               "case_sensitive": record["case_sensitive"] == "true"}
        out.write(json.dumps(row) + "\n")
