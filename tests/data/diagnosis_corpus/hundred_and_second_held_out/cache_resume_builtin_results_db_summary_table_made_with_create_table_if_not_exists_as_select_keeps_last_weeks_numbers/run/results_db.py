"""results_db.py: load rollouts.jsonl into the team's results.db and print the weekly summary.

usage: results_db.py ROLLOUTS CHECKPOINT
"""
import json
import sqlite3
import sys

path, checkpoint = sys.argv[1], sys.argv[2]
db = sqlite3.connect("results.db")
db.execute("CREATE TABLE IF NOT EXISTS rollouts (checkpoint TEXT, question TEXT, reward REAL)")
db.execute("DELETE FROM rollouts WHERE checkpoint = ?", (checkpoint,))  # re-loading a run replaces it
rows = [json.loads(line) for line in open(path) if line.strip()]
db.executemany("INSERT INTO rollouts VALUES (?, ?, ?)", [
    (checkpoint, r["responses_create_params"]["input"][0]["content"][0]["text"], float(r.get("reward") or 0))
    for r in rows])
print(f"results.db: loaded {len(rows)} rollouts of {checkpoint}")
# the dashboard reads this small table, not the rollouts: the newest checkpoint's summary
db.execute("CREATE TABLE IF NOT EXISTS summary AS SELECT checkpoint, COUNT(*) AS n, AVG(reward) AS mean "
           "FROM rollouts WHERE checkpoint = (SELECT MAX(checkpoint) FROM rollouts) GROUP BY checkpoint")
db.commit()
name, n, mean = db.execute("SELECT checkpoint, n, mean FROM summary").fetchone()
print(f"weekly summary: {name}: mean reward {mean:.2f} over {n} rollouts")
