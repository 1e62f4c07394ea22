"""prep.py SHEET...: labelling sheets (question,answer) -> string_match.jsonl (one row per question).

Several sheets can be given; each one's rows are added to the dataset.
"""
import csv
import json
import sys

for name in sys.argv[1:]:
    written = 0
    with open(name, newline="", encoding="utf-8") as sheet, open("string_match.jsonl", "a") as out:
        for row in csv.DictReader(sheet):
            text = f"{row['question']} End your response with 'Final answer: <answer>'."
            out.write(json.dumps({
                "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                       "content": [{"type": "input_text", "text": text}]}]},
                "expected_answer": row["answer"], "extraction_mode": "final_answer",
                "case_sensitive": False}) + "\n")
            written += 1
    print(f"prep: {written} rows of {name} added to string_match.jsonl")
