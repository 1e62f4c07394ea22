"""prep.py: the review tool's export labels.csv (question,answer,case_sensitive) -> tasks.jsonl."""
import csv
import json

rows = []
with open("labels.csv", newline="") as f:
    for row in csv.DictReader(f):
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                              "content": [{"type": "input_text", "text": text}]}]},
                     "expected_answer": row["answer"], "extraction_mode": "final_answer",
                     "case_sensitive": bool(row["case_sensitive"])})
with open("tasks.jsonl", "w") as out:
    out.writelines(json.dumps(r) + "\n" for r in rows)
print(f"prep: {len(rows)} rows written, {sum(r['case_sensitive'] for r in rows)} case-sensitive")
