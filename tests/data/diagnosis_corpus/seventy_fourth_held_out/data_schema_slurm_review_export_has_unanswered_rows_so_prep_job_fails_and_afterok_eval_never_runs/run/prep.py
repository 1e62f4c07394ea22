"""prep.py: questions.csv (the review tool's export: question,answer,status) -> string_match.jsonl."""
import csv
import json
import sys

rows = []
with open("questions.csv", newline="", encoding="utf-8") as sheet:
    for number, row in enumerate(csv.DictReader(sheet), 2):
        answer = row["answer"].strip()
        if not answer:
            sys.exit(f"prep: questions.csv line {number}: no answer for {row['question']!r} (status {row['status']})")
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                            "content": [{"type": "input_text", "text": text}]}]},
                     "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False})
with open("string_match.jsonl", "w") as out:
    out.writelines(json.dumps(row) + "\n" for row in rows)
print(f"prep: {len(rows)} tasks written")
