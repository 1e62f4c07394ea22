"""A results database whose summary table is made with `CREATE TABLE IF NOT EXISTS ... AS SELECT`, run for real over
two weekly runs (step 100, then step 200): the table keeps last week's rows, and this week's run loads step 200 and
reports step 100 (cache/resume, the statement named). Dropped and made again on every run, the report is this week's:
healthy."""

from pathlib import Path

import pytest
from script_support import CLI, MATERIALIZE, run_scripts

from gym_pipeline.diagnose import diagnose

RESULTS_DB = '''"""results_db.py ROLLOUTS CHECKPOINT: load the rollouts into results.db and print the weekly summary."""
import json
import sqlite3
import sys

path, checkpoint = sys.argv[1], sys.argv[2]
db = sqlite3.connect("results.db")
db.execute("CREATE TABLE IF NOT EXISTS rollouts (checkpoint TEXT, reward REAL)")
db.execute("DELETE FROM rollouts WHERE checkpoint = ?", (checkpoint,))
rows = [json.loads(line) for line in open(path) if line.strip()]
db.executemany("INSERT INTO rollouts VALUES (?, ?)", [(checkpoint, float(r.get("reward") or 0)) for r in rows])
print(f"results.db: loaded {len(rows)} rollouts of {checkpoint}")
REBUILD
db.execute("CREATE TABLE IF NOT EXISTS summary AS SELECT checkpoint, COUNT(*) AS n, AVG(reward) AS mean "
           "FROM rollouts WHERE checkpoint = (SELECT MAX(checkpoint) FROM rollouts) GROUP BY checkpoint")
db.commit()
name, n, mean = db.execute("SELECT checkpoint, n, mean FROM summary").fetchone()
print(f"weekly summary: {name}: mean reward {mean:.2f} over {n} rollouts")
'''
WEEKLY = ("rm -f rollouts.jsonl rollouts_failures.jsonl\n" + MATERIALIZE
          + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
            "--env string_match --concurrency 4\n"
          + f"{CLI.split()[0]} results_db.py rollouts.jsonl CKPT\n")


@pytest.mark.parametrize("rebuild", ["", 'db.execute("DROP TABLE IF EXISTS summary")'], ids=["made_once", "rebuilt"])
def test_a_summary_table_made_if_not_exists_keeps_last_weeks_checkpoint(tmp_path: Path, rebuild: str) -> None:
    run = run_scripts(tmp_path, [WEEKLY, WEEKLY], checkpoint_of_script=[0, 1],
                      files={"results_db.py": RESULTS_DB.replace("REBUILD", rebuild)})
    summary = (run / "logs" / "run_eval_1.log").read_text().splitlines()[-1]

    report = diagnose(run)

    if rebuild:
        assert summary.startswith("weekly summary: step_0200"), summary
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert summary.startswith("weekly summary: step_0100"), summary
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "summary_table_made_once"), [f.title for f in report.causes]
    line = next(n for n, text in enumerate(RESULTS_DB.splitlines(), start=1) if "IF NOT EXISTS summary" in text)
    assert top.title.startswith(f"results_db.py:{line} makes `summary` with `CREATE TABLE IF NOT EXISTS ... AS SELECT`")
    assert "`DROP TABLE IF EXISTS summary`" in top.fix
