"""A settings key appended to the end of a TOML file, run for real: below a `[notify]` table, `model_url` belongs to
it, the user's run_eval.py reads [eval] and takes its default URL, where nothing serves (config: the file's line and
the table above it named). In a file whose last table is [eval], the appended key is read and the run is healthy."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose

RUN_EVAL = f"""import subprocess
import tomllib

settings = tomllib.load(open("eval.toml", "rb"))
cfg = settings["eval"]
url = cfg.get("model_url", "http://127.0.0.1:9/v1")  # the usual local server
cli = {CLI.split()!r}
subprocess.run([*cli, "materialize", "--input", "data.jsonl", "--num-repeats", str(cfg["repeats"]), "--agent",
                "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"])
subprocess.run([*cli, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                "--model-url", url, "--env", "string_match"])
"""
EVAL = "[eval]\nrepeats = 2\n"
NOTIFY = "[notify]\nchannel = \"#eval-results\"\n"


@pytest.mark.parametrize("last_table", ["notify", "eval"])
def test_a_key_appended_below_another_table_is_never_read(tmp_path, last_table: str) -> None:
    settings = NOTIFY + EVAL if last_table == "eval" else EVAL + NOTIFY
    run = run_scripts(tmp_path, ["echo 'model_url = \"URL\"' >> eval.toml  # this week's server\n"
                                 f"{sys.executable} run_eval.py\n"],
                      files={"run_eval.py": RUN_EVAL, "eval.toml": settings})

    report = diagnose(run)

    if last_table == "eval":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "setting_under_another_toml_table"), [f.title for f in report.causes]
    assert top.title == ("eval.toml:5 sets `model_url` under [notify] (the table above it), and run_eval.py:6 reads it "
                         "from [eval]: the setting was never used")
    assert "into the [eval] table (above `[notify]`)" in top.fix


TABLE_DRIVER = f'''"""drive_eval.py: the weekly eval, settings from settings.toml [eval]."""
import subprocess
import tomllib

BASELINE_URL = "@PRODUCTION@"  # the production baseline, when no candidate is given
with open("settings.toml", "rb") as f:
    cfg = tomllib.load(f)["eval"]
url = cfg.get("model_url", BASELINE_URL)
CLI = {CLI.split()!r}
subprocess.run(CLI + ["materialize", "--input", cfg["data"], "--num-repeats", "2", "--agent",
                      "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
subprocess.run(CLI + ["collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                      "--model-url", url, "--env", "string_match", "--concurrency", "4"], check=True)
'''


@pytest.mark.parametrize("appended", [True, False], ids=["below_the_smoke_table", "in_the_eval_table"])
def test_a_table_bound_from_the_loaded_file_is_read_too(tmp_path: Path, appended: bool) -> None:
    """The same, with the table bound straight from the loaded file (`cfg = tomllib.load(f)["eval"]`) and the
    fallback the baseline server of last week (a running server: nothing is refused). Written inside [eval]:
    healthy."""
    candidate = 'model_url = "URL"\n'
    settings = ('[eval]\ndata = "data.jsonl"\n' + ("" if appended else candidate)
                + '\n[smoke]\ndata = "smoke.jsonl"\n' + ("\n# candidate of this week\n" + candidate if appended else ""))
    run = run_scripts(tmp_path, ['sed -i "s|@PRODUCTION@|URL|" drive_eval.py   # the production server\n',
                                 f"cat > settings.toml <<'EOF'\n{settings}EOF\n{CLI.split()[0]} drive_eval.py\n"],
                      checkpoint_of_script=[0, 1], files={"drive_eval.py": TABLE_DRIVER})

    report = diagnose(run)

    if not appended:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "setting_under_another_toml_table"), [f.title for f in report.causes]
    assert top.title.startswith("settings.toml:8 sets `model_url` under [smoke] (the table above it), and "
                                "drive_eval.py:8 reads it from [eval]")
