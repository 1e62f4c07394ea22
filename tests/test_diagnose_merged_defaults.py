"""A Python driver that merges the team's defaults after this run's settings file, run for real: `{**json.load(f),
**DEFAULTS}` keeps the defaults' single repeat over the file's three, and the run is a one-repeat check that exits
0 (config, the merge named). With the defaults first, the file's settings win: healthy."""

from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose

DRIVER = f'''"""run_eval.py: the weekly eval with this week's settings (eval_settings.json) over the team's defaults."""
import json
import subprocess

CLI = {CLI.split()!r}
DEFAULTS = {{"num_repeats": 1, "concurrency": 4}}  # the team's quick single-repeat check

with open("eval_settings.json") as f:
    settings = MERGE
print(f"settings: {{settings}}", flush=True)
subprocess.run(CLI + ["materialize", "--input", "data.jsonl", "--num-repeats", str(settings["num_repeats"]), "--agent",
                      "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
subprocess.run(CLI + ["collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                      "--model-url", settings["model_url"], "--env", "string_match",
                      "--concurrency", str(settings["concurrency"])], check=True)
'''


@pytest.mark.parametrize("merge", ["{**json.load(f), **DEFAULTS}", "{**DEFAULTS, **json.load(f)}"],
                         ids=["defaults_last", "defaults_first"])
def test_defaults_merged_after_the_settings_file_replace_its_values(tmp_path: Path, merge: str) -> None:
    run = run_scripts(tmp_path, ["echo '{\"model_url\": \"URL\", \"num_repeats\": 3}' > eval_settings.json\n"
                                 f"{CLI.split()[0]} run_eval.py\n"], files={"run_eval.py": DRIVER.replace("MERGE", merge)})

    report = diagnose(run)

    if merge.startswith("{**DEFAULTS"):
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "defaults_merged_over_the_settings"), [f.title for f in report.causes]
    assert top.title == ("run_eval.py:9 merges DEFAULTS after eval_settings.json, so the defaults win: `num_repeats` of "
                         "eval_settings.json were replaced")
    assert "`{**DEFAULTS, **json.load(f)}`" in top.fix
