"""A Python driver that reads the team's eval.ini and then a git-ignored eval.local.ini of personal overrides, run for
real: the local file still holds last week's debugging override (`repeats = 1`), which the later read makes win, so
the weekly eval is of one repeat where eval.ini says three, and every command exits 0 (config: the override's line, the
shared line and the read named). An override of the concurrency only (fewer requests at once on a laptop) leaves the
results as they are: healthy."""

from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose

SHARED = "[weekly]\n# the weekly eval: every task, 3 repeats\ndata = data.jsonl\nrepeats = 3\nconcurrency = 8\n"
DRIVER = f'''"""eval.py MODEL_URL: the weekly eval; settings from eval.ini, personal overrides from eval.local.ini."""
import configparser
import subprocess
import sys

cfg = configparser.ConfigParser()
print("settings read from", cfg.read(["eval.ini", "eval.local.ini"]), flush=True)
s = cfg["weekly"]
CLI = {CLI.split()!r}
subprocess.run(CLI + ["materialize", "--input", s["data"], "--num-repeats", s["repeats"], "--agent",
                      "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
subprocess.run(CLI + ["collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                      "--model-url", sys.argv[1], "--env", "string_match", "--concurrency", s["concurrency"]],
               check=True)
'''
OVERRIDES = {
    "debugging": "[weekly]\n# debugging the flaky collect: one repeat, one request at a time\nrepeats = 1\nconcurrency = 1\n",
    "laptop": "[weekly]\n# my laptop: fewer requests at once\nconcurrency = 2\n",
}


@pytest.mark.parametrize("override", list(OVERRIDES))
def test_a_local_override_file_left_from_debugging_cuts_the_eval_down(tmp_path: Path, override: str) -> None:
    run = run_scripts(tmp_path, [f"{CLI.split()[0]} eval.py URL\n"],
                      files={"eval.ini": SHARED, "eval.local.ini": OVERRIDES[override], "eval.py": DRIVER})

    report = diagnose(run)

    if override == "laptop":
        assert len((run / "rollouts.jsonl").read_text().splitlines()) == 30
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert len((run / "rollouts.jsonl").read_text().splitlines()) == 10  # one repeat of the ten rows
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "override_file_still_cuts_the_eval_down"), [
        f.title for f in report.causes]
    assert [line.where for line in top.evidence] == ["eval.py:7", "eval.local.ini:3", "eval.ini:4"]
    assert "also `concurrency` 1 (not 8)" in top.cause
    assert top.fix.startswith("Remove `repeats = 1` from eval.local.ini")
