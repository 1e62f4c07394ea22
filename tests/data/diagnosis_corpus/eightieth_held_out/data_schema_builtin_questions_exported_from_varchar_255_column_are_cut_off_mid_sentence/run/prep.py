"""prep.py: the question bank export (questions_export.csv, from the quiz database) -> string_match.jsonl."""
import csv
import json

with open("questions_export.csv", newline="", encoding="utf-8") as handle, open("string_match.jsonl", "w") as out:
    count = 0
    for record in csv.DictReader(handle):
        text = f"{record['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": record["answer"], "extraction_mode": "final_answer", "case_sensitive": False}) + "\n")
        count += 1
print(f"prep: {count} rows written")
