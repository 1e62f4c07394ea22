"""prep.py: the review sheet (sheet.csv: question,answer,case_sensitive) -> string_match.jsonl."""
import csv
import json

with open("sheet.csv", newline="", encoding="utf-8") as f:
    records = list(csv.DictReader(f))
with open("string_match.jsonl", "w") as out:
    for record in records:
        text = f"{record['question']} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": record["answer"], "extraction_mode": "final_answer",
               "case_sensitive": record["case_sensitive"]}
        out.write(json.dumps(row) + "\n")
print(f"prep: {len(records)} rows written")
