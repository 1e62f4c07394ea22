"""A Python driver that merges the team's defaults after this run's settings file, run for real: `{**json.load(f),
**DEFAULTS}` keeps the defaults' single repeat over the file's three, and the run is a one-repeat check that exits
0 (config, the merge named). With the defaults first, the file's settings win: healthy.

The same order the other way: settings.yaml merged after the command line's arguments, so its baseline model_url
replaces the `--model-url` of this week's server (config). With the arguments last: healthy."""

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


OVERRIDING_DRIVER = f'''"""drive_eval.py [--model-url URL]: settings.yaml, overridden by the command line."""
import argparse
import subprocess

import yaml

CLI = {CLI.split()!r}
parser = argparse.ArgumentParser()
parser.add_argument("--model-url", dest="model_url")
args = parser.parse_args()
with open("settings.yaml") as f:
    settings = yaml.safe_load(f)
cfg = MERGE  # the command line wins
print(f"== evaluating {{cfg['model_url']}}", flush=True)
subprocess.run(CLI + ["materialize", "--input", "data.jsonl", "--num-repeats", "2", "--agent",
                      "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
subprocess.run(CLI + ["collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                      "--model-url", cfg["model_url"], "--env", "string_match", "--concurrency", "4"], check=True)
'''
GIVEN = "{k: v for k, v in vars(args).items() if v is not None}"


@pytest.mark.parametrize("merge", [f"{{**{GIVEN}, **settings}}", f"{{**settings, **{GIVEN}}}"],
                         ids=["settings_last", "arguments_last"])
def test_a_settings_file_merged_after_the_command_line_replaces_its_model_url(tmp_path: Path, merge: str) -> None:
    """settings.yaml names last week's baseline server (written when it was deployed); this week's run gives the
    candidate's with `--model-url`, and `{**args, **settings}` lets the file win: the baseline is evaluated as the
    candidate (config, the merge named). With the arguments last, the candidate is asked: healthy."""
    python = CLI.split()[0]
    run = run_scripts(tmp_path, ["printf '# team defaults; the CLI overrides them\\nmodel_url: URL\\n' > settings.yaml\n",
                                 f"{python} drive_eval.py --model-url URL\n"],
                      checkpoint_of_script=[0, 1], files={"drive_eval.py": OVERRIDING_DRIVER.replace("MERGE", merge)})

    report = diagnose(run)

    if merge.endswith(f"{GIVEN}}}"):
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "settings_file_merged_over_the_command_line"), [
        f.title for f in report.causes]
    assert top.title.startswith("drive_eval.py:13 merges settings.yaml after the command line's arguments")
    assert f"`{{**settings, **{GIVEN}}}`" in top.fix
