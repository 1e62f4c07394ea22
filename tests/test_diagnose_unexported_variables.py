"""A run script that sets `NUM_REPEATS=3` as a plain shell variable and runs a Python driver reading
`os.environ.get("NUM_REPEATS", "1")`, run for real: without `export` the driver never sees it and runs one repeat,
and every command exits 0 (config, both lines named). With `export`, three repeats: healthy."""

import sys
from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose

DRIVER = f'''"""eval.py MODEL_URL: the eval driver; settings come from the environment (NUM_REPEATS)."""
import os
import subprocess
import sys

repeats = int(os.environ.get("NUM_REPEATS", "1"))
CLI = {CLI.split()!r}
subprocess.run(CLI + ["materialize", "--input", "data.jsonl", "--num-repeats", str(repeats), "--agent",
                      "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
subprocess.run(CLI + ["collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                      "--model-url", sys.argv[1], "--env", "string_match", "--concurrency", "4"], check=True)
'''


@pytest.mark.parametrize("assignment", ["NUM_REPEATS=3", "export NUM_REPEATS=3"], ids=["plain", "exported"])
def test_a_setting_assigned_without_export_never_reaches_the_driver(tmp_path: Path, assignment: str) -> None:
    run = run_scripts(tmp_path, [f"# weekly eval: 3 repeats per task\n{assignment}\n{sys.executable} eval.py URL\n"],
                      files={"eval.py": DRIVER})
    rollouts = len((run / "rollouts.jsonl").read_text().splitlines())

    report = diagnose(run)

    if assignment.startswith("export"):
        assert rollouts == 30
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert rollouts == 10
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "variable_set_without_export"), [f.title for f in report.causes]
    assert [line.where for line in top.evidence] == ["run_eval.sh:3", "eval.py:6"]
    assert top.fix.startswith("In run_eval.sh:3, `export NUM_REPEATS=3`")
