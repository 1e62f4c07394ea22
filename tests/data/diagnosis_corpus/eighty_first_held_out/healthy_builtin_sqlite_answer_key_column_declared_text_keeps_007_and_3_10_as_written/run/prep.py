"""prep.py: the quiz's answer key (quiz.db, table answer_key) -> string_match.jsonl."""
import json
import sqlite3

db = sqlite3.connect("quiz.db")
rows = db.execute("SELECT question, answer FROM answer_key ORDER BY rowid").fetchall()
with open("string_match.jsonl", "w") as out:
    for question, answer in rows:
        text = f"{question} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": str(answer), "extraction_mode": "final_answer", "case_sensitive": False}) + "\n")
print(f"prep: {len(rows)} rows written")
