"""prep.py: the team's answer sheet (answers.csv: question,answer; alternatives allowed, 'A|B') -> tasks.jsonl."""
import csv
import json

with open("answers.csv", newline="", encoding="utf-8") as sheet, open("tasks.jsonl", "w") as out:
    rows = list(csv.DictReader(sheet))
    for row in rows:
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": row["answer"], "extraction_mode": "final_answer", "case_sensitive": False}) + "\n")
print(f"prep: {len(rows)} tasks written")
