"""Data rows that give a field twice (diagnose/rules/data_rows.py): readers keep the last value without a word."""

from __future__ import annotations

import json
import shutil
import subprocess

from conftest import FIXTURES

from gym_pipeline.diagnose import diagnose


def test_a_label_correction_written_in_front_of_the_old_label_by_sed_never_reaches_the_run(tmp_path):
    run = tmp_path / "run"
    shutil.copytree(FIXTURES / "clean_run", run)
    rows = [{"responses_create_params": {"input": f"question {n}"}, "expected_answer": f"old {n}"} for n in range(4)]
    (run / "tasks.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    (run / "fix_labels.sh").write_text("#!/bin/bash\nsed -i '2s/^{/{\"expected_answer\": \"new 1\", /' tasks.jsonl\n")
    subprocess.run(["bash", "fix_labels.sh"], cwd=run, check=True)
    assert json.loads((run / "tasks.jsonl").read_text().splitlines()[1])["expected_answer"] == "old 1"  # the last wins

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("data_schema", "data_rows_give_a_field_twice")
    assert top.title == "tasks.jsonl gives `expected_answer` twice in 1 row: readers keep the last value ('old 1'), not 'new 1'"
    assert top.evidence[0].where == "tasks.jsonl:2" and "fix_labels.sh" in top.fix
