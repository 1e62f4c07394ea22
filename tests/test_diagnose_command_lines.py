"""An option given twice on a command line of the user's scripts: refused by us, kept last by argparse elsewhere."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from conftest import FIXTURES

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment

GYM_PIPELINE = Path(sys.executable).parent / "gym-pipeline"


def test_a_script_giving_input_twice_is_named_with_the_refusal_it_met(tmp_path):
    run = tmp_path / "run"
    (run / "data").mkdir(parents=True)
    rows = get_environment("string_match").dataset_path.read_text().splitlines(keepends=True)
    (run / "data" / "trivia.jsonl").write_text("".join(rows[:3]))
    (run / "data" / "arithmetic.jsonl").write_text("".join(rows[3:6]))
    (run / "prepare.sh").write_text(
        f"#!/bin/bash\n{GYM_PIPELINE} materialize --input data/trivia.jsonl \\\n  --input data/arithmetic.jsonl "
        "--num-repeats 2 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl\n")
    with (run / "prepare.log").open("w") as log:
        done = subprocess.run(["bash", "prepare.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, check=False)
    assert done.returncode == 2 and not (run / "rollouts_materialized_inputs.jsonl").exists()

    report = diagnose(run)

    [cause] = report.causes
    assert (cause.category, cause.id) == ("config", "option_given_twice"), [f.title for f in report.causes]
    assert cause.title == "prepare.sh gives `--input` 2 times to `gym-pipeline materialize`: the command refused it"
    assert [line.where for line in cause.evidence] == ["prepare.sh:2", "prepare.log:1"]
    assert "cat data/trivia.jsonl data/arithmetic.jsonl > all.jsonl" in cause.fix


def test_options_that_add_a_value_each_time_are_no_fault(tmp_path):
    run = tmp_path / "run"
    shutil.copytree(FIXTURES / "clean_run", run)
    (run / "backfill.sh").write_text("gym-pipeline backfill --checkpoint step_0100 --checkpoint step_0200 --env mcqa\n")
    assert diagnose(run).healthy
