"""prep.py: labels.csv (question,answer) -> string_match.jsonl."""
import csv
import json

rows = []
with open("labels.csv", newline="") as f:
    for row in csv.DictReader(f):
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                              "content": [{"type": "input_text", "text": text}]}]},
                     "expected_answer": row["answer"], "extraction_mode": "final_answer", "case_sensitive": False})
with open("string_match.jsonl", "w") as out:
    out.writelines(json.dumps(r) + "\n" for r in rows)
print(f"prep: {len(rows)} rows written")
