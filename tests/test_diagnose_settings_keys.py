"""A Python driver that reads `cfg.get("num_repeats", 1)` from an eval.toml whose reviewed settings spell the key
`num-repeats` (as the CLI option is written), run for real: the key is never found, the run is of one repeat where the
settings say three, and every command exits 0 (config: the read and the settings line named). Spelt `num_repeats` in
the file, the run is of three repeats: healthy."""

from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose

DRIVER = f'''"""eval.py MODEL_URL: the weekly eval, settings from eval.toml ([eval] table)."""
import subprocess
import sys
import tomllib

with open("eval.toml", "rb") as f:
    cfg = tomllib.load(f)["eval"]
repeats = cfg.get("num_repeats", 1)
CLI = {CLI.split()!r}
subprocess.run(CLI + ["materialize", "--input", cfg["data"], "--num-repeats", str(repeats), "--agent",
                      "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
subprocess.run(CLI + ["collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                      "--model-url", sys.argv[1], "--env", "string_match", "--concurrency", "4"], check=True)
'''


@pytest.mark.parametrize("key", ["num-repeats", "num_repeats"])
def test_a_setting_read_under_another_spelling_runs_the_fallback(tmp_path: Path, key: str) -> None:
    settings = f'# the weekly eval settings (reviewed: 3 repeats for a stable pass@k)\n[eval]\ndata = "data.jsonl"\n{key} = 3\n'
    run = run_scripts(tmp_path, [f"{CLI.split()[0]} eval.py URL\n"], files={"eval.toml": settings, "eval.py": DRIVER})
    rollouts = len((run / "rollouts.jsonl").read_text().splitlines())

    report = diagnose(run)

    if key == "num_repeats":
        assert rollouts == 30
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert rollouts == 10  # the fallback's one repeat of the ten rows
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "setting_read_under_another_spelling"), [f.title for f in report.causes]
    assert [line.where for line in top.evidence] == ["eval.py:8", "eval.toml:4"]
    assert top.fix.startswith("Spell the key one way: `num_repeats = 3` in eval.toml (not `num-repeats`)")
