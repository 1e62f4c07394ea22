"""prep.py: the review tool's export (review_export.csv: question,answer) -> string_match.jsonl."""
import csv
import json

rows = []
with open("review_export.csv", newline="", encoding="utf-8") as f:
    for rec in csv.DictReader(f):
        text = f"{rec['question']} End your response with 'Final answer: <answer>'."
        rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                            "content": [{"type": "input_text", "text": text}]}]},
                     "expected_answer": rec["answer"].strip(), "extraction_mode": "final_answer"})
with open("string_match.jsonl", "w") as out:
    out.writelines(json.dumps(row) + "\n" for row in rows)
print(f"prep: {len(rows)} rows written")
