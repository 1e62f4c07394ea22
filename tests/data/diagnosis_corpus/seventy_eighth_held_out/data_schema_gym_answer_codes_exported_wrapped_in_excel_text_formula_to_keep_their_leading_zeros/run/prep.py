"""prep.py: answers.csv (question,answer, the reviewers' sheet export) -> tasks.jsonl."""
import csv
import json

n = 0
with open("answers.csv", newline="", encoding="utf-8") as sheet, open("tasks.jsonl", "w") as out:
    for row in csv.DictReader(sheet):
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": row["answer"].strip(), "extraction_mode": "final_answer", "case_sensitive": False}) + "\n")
        n += 1
print(f"prep: {n} rows written")
