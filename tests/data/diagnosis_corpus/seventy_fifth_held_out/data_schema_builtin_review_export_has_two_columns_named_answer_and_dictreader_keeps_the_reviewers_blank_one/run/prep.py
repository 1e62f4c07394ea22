"""prep.py: review.csv (the labelling tool's review export) -> string_match.jsonl."""
import csv
import json

written = 0
with open("review.csv", newline="", encoding="utf-8") as sheet, open("string_match.jsonl", "w") as out:
    for row in csv.DictReader(sheet):
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": row["answer"].strip(), "extraction_mode": "final_answer",
            "case_sensitive": False}) + "\n")
        written += 1
print(f"prep: {written} rows written")
