"""prep.py: labels.csv (question,answer) -> string_match.jsonl."""
import csv
import json

with open("labels.csv", newline="") as f, open("string_match.jsonl", "w") as out:
    n = 0
    for row in csv.DictReader(f):
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({"responses_create_params": {"input": [{"role": "user", "type": "message",
                              "content": [{"type": "input_text", "text": text}]}]},
                              "expected_answer": row["answer"], "extraction_mode": "final_answer",
                              "case_sensitive": False}) + "\n")
        n += 1
print(f"prep: {n} rows written")
