"""Weekly results folders named by day-first dates, the newest read as the last name in text order. Run for real:
last week's eval (step 100) wrote results/30-11-2026, this week's (step 200, report date 2026-12-07) writes
results/07-12-2026, and report.py reads `sorted(glob(...))[-1]`, which is last week's: every command exits 0
(cache/resume, the pick and the date format named). Named year first, the last name is the newest: healthy."""

from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose

REPORT = '''"""report.py: the weekly summary of the newest results folder."""
import glob
import json
import os

latest = sorted(glob.glob("results/*/rollouts.jsonl"))[-1]
rows = [json.loads(line) for line in open(latest) if line.strip()]
print(f"latest results: {os.path.dirname(latest)}: mean reward {sum(r['reward'] for r in rows) / len(rows):.2f}")
'''


def weekly_eval(report_date: str, date_format: str) -> str:
    return (f"OUT=results/$(date -d {report_date} +{date_format})\nmkdir -p $OUT && cd $OUT\n"
            f"{CLI} materialize --input ../../data.jsonl --num-repeats 3 --agent string_match_simple_agent --output "
            "rollouts_materialized_inputs.jsonl\n"
            f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL --env "
            "string_match --concurrency 4\n"
            f"{CLI} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n"
            f"cd ../..\n{CLI.split()[0]} report.py\n")


@pytest.mark.parametrize("date_format", ["%d-%m-%Y", "%Y-%m-%d"])
def test_the_newest_of_day_first_results_folders_taken_by_name_is_an_older_one(tmp_path: Path, date_format: str) -> None:
    run = run_scripts(tmp_path, [weekly_eval("2026-11-30", date_format), weekly_eval("2026-12-07", date_format)],
                      checkpoint_of_script=[0, 1], files={"report.py": REPORT})
    report_line = (run / "logs" / "run_eval_1.log").read_text().splitlines()[-1]

    report = diagnose(run)

    if date_format.startswith("%Y"):
        assert report_line.startswith("latest results: results/2026-12-07")
        assert all(f.id != "newest_day_first_folder_taken_by_name" for f in report.findings), [
            f.title for f in report.findings]
        return
    assert report_line.startswith("latest results: results/30-11-2026")
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "newest_day_first_folder_taken_by_name"), [
        f.title for f in report.causes]
    assert top.title == ("report.py:6 takes the newest results folder as the last name in text order, and day-first "
                         "names do not sort by date: it took results/30-11-2026, older than results/07-12-2026")
    assert "`date +%Y-%m-%d` in run_eval.sh:2" in top.fix  # line 1 is `#!/bin/bash`
