"""A report that reads "the" profile as the first of a sorted glob, run for real: the weekly script keeps last week's
profile beside the new one as rollouts_reward_profiling.<date>.jsonl, and `sorted(glob(...))[0]` is that dated copy
(a digit sorts before a letter), so the report shows last week's checkpoint (cache/resume, the pick named). Reading
the file by its name, the report is this week's: healthy."""

from pathlib import Path

import pytest
from script_support import CLI, MATERIALIZE, run_scripts

from gym_pipeline.diagnose import diagnose

REPORT = '''"""report.py: the weekly number for the dashboard."""
import glob
import json

path = PICK
rows = [json.loads(line) for line in open(path) if line.strip()]
print(f"report: {path}: mean reward {sum(r['mean/reward'] for r in rows) / len(rows):.2f}")
'''
WEEKLY = ("# keep last week's profile next to the new one\n[ -f rollouts_reward_profiling.jsonl ] && mv "
          "rollouts_reward_profiling.jsonl rollouts_reward_profiling.$(date -r rollouts_reward_profiling.jsonl "
          "+%F).jsonl\n" + MATERIALIZE
          + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
            "--env string_match --concurrency 4\n"
          + f"{CLI} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n"
          + f"{CLI.split()[0]} report.py\n")


@pytest.mark.parametrize("pick", ['sorted(glob.glob("rollouts_reward_profiling*.jsonl"))[0]',
                                  '"rollouts_reward_profiling.jsonl"'], ids=["sorted_glob", "by_name"])
def test_a_report_taking_the_first_of_a_sorted_glob_reads_last_weeks_dated_copy(tmp_path: Path, pick: str) -> None:
    run = run_scripts(tmp_path, [WEEKLY, "rm -f rollouts.jsonl rollouts_failures.jsonl\n" + WEEKLY],
                      checkpoint_of_script=[0, 1], files={"report.py": REPORT.replace("PICK", pick)})
    assert len(list(run.glob("rollouts_reward_profiling.*-*.jsonl"))) == 1

    report = diagnose(run)

    if not pick.startswith("sorted"):
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "dated_archive_picked_by_a_sorted_glob"), [
        f.title for f in report.causes]
    assert top.title.startswith("report.py:5 reads the first name of `rollouts_reward_profiling*.jsonl` in text order, "
                                "which is rollouts_reward_profiling.20")
    assert "read the current file by its name (rollouts_reward_profiling.jsonl)" in top.fix
