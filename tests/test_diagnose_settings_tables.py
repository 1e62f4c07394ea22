"""A Python driver that reads its settings table at the top of pyproject.toml, run for real: the repo clean-up moved
the eval settings under `[tool.eval]`, and `tomllib.load(f).get("eval", {})` finds nothing there, so the driver runs
its smoke defaults (two rows, one repeat) and every command exits 0 (config, the line and the table named). Reading
`["tool"]["eval"]`, the run is of the settings: healthy."""

from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose

PYPROJECT = '''[project]
name = "weekly-eval"
version = "0.4.0"

# eval settings moved here from eval.toml in the repo clean-up
[tool.eval]
dataset = "data.jsonl"
num_repeats = 3
'''
DRIVER = f'''"""drive_eval.py MODEL_URL: the weekly eval; settings from pyproject.toml (defaults: the smoke test)."""
import subprocess
import sys
import tomllib

CLI = {CLI.split()!r}
with open("pyproject.toml", "rb") as f:
    settings = READ
dataset, repeats = settings.get("dataset", "smoke.jsonl"), settings.get("num_repeats", 1)
print(f"== eval of {{dataset}}, {{repeats}} repeats", flush=True)
subprocess.run(CLI + ["materialize", "--input", dataset, "--num-repeats", str(repeats), "--agent",
                      "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
subprocess.run(CLI + ["collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                      "--model-url", sys.argv[1], "--env", "string_match", "--concurrency", "4"], check=True)
'''


@pytest.mark.parametrize("read", ['tomllib.load(f).get("eval", {})', 'tomllib.load(f)["tool"]["eval"]'],
                         ids=["top_level", "tool_table"])
def test_a_settings_table_read_at_the_top_of_pyproject_gives_the_smoke_defaults(tmp_path: Path, read: str) -> None:
    run = run_scripts(tmp_path, [f"head -2 data.jsonl > smoke.jsonl\n{CLI.split()[0]} drive_eval.py URL\n"],
                      files={"pyproject.toml": PYPROJECT, "drive_eval.py": DRIVER.replace("READ", read)})
    log = (run / "logs" / "run_eval_0.log").read_text()

    report = diagnose(run)

    if "tool" in read:
        assert "== eval of data.jsonl, 3 repeats" in log, log
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "== eval of smoke.jsonl, 1 repeats" in log, log
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "settings_table_read_at_the_wrong_level"), [
        f.title for f in report.causes]
    assert top.title == ("drive_eval.py:8 reads `eval` at the top of pyproject.toml, which keeps it under [tool.eval]: "
                         "the driver ran on its defaults")
    assert '`...load(f)["tool"]["eval"]`' in top.fix
