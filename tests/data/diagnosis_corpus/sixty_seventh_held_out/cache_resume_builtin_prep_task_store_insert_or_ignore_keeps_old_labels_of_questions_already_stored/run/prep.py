"""prep.py: merge this week's labelling sheet (questions.csv) into the team's task store tasks.db, export tasks.jsonl."""
import csv
import json
import sqlite3

db = sqlite3.connect("tasks.db")
db.execute("CREATE TABLE IF NOT EXISTS tasks (question TEXT PRIMARY KEY, answer TEXT)")
with open("questions.csv", newline="") as handle:
    rows = list(csv.DictReader(handle))
before = db.execute("SELECT COUNT(*) FROM tasks").fetchone()[0]
# a question asked again must not become a second task
db.executemany("INSERT OR IGNORE INTO tasks VALUES (?, ?)", [(r["question"], r["answer"]) for r in rows])
db.commit()
after = db.execute("SELECT COUNT(*) FROM tasks").fetchone()[0]
print(f"prep: {len(rows)} sheet rows, {after - before} new tasks, {after} tasks in tasks.db")
with open("tasks.jsonl", "w") as out:
    for question, answer in db.execute("SELECT question, answer FROM tasks ORDER BY rowid"):
        text = f"{question} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}) + "\n")
