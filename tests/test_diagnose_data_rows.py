"""Data rows that give a field twice (diagnose/rules/data_rows.py): readers keep the last value without a word. And
rows a prep appends to last week's data file (diagnose/rules/quality.py): both weeks' questions asked twice."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from conftest import FIXTURES

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment


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


@pytest.mark.parametrize("mode", ["a", "w"])
def test_a_prep_appending_this_weeks_rows_to_last_weeks_data_file_is_named(tmp_path, mode):
    """The prep copies this week's export into data.jsonl, opened in append mode: last week's rows stay, the questions
    of both weeks are asked twice (cache/resume, the open line named). Opened to write, the data is this week's."""
    import sys

    from script_support import CLI, MATERIALIZE, run_scripts

    export = "".join(get_environment("string_match").dataset_path.read_text().splitlines(keepends=True)[:5])
    prep = ("import sys\n\n# prep.py EXPORT: this week's rows into the eval's data file\n"
            f"with open(sys.argv[1]) as rows, open(\"data.jsonl\", \"{mode}\") as out:\n"
            "    out.writelines(rows)\n")
    run = run_scripts(tmp_path, [f"{sys.executable} prep.py export.jsonl\n" + MATERIALIZE
                                 + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
                                 "--model-url URL --env string_match\n"],
                      files={"prep.py": prep, "export.jsonl": export})

    report = diagnose(run)

    if mode == "w":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "repeated_tasks"), [f.title for f in report.causes]
    assert top.title.startswith("prep.py:4 opens data.jsonl to append: 5 tasks appear more than once")
    assert "write data.jsonl anew" in top.fix
