"""A model URL read from an INI file whose line ends in a comment, run for real: the CI step renders eval.ini with
`model_url = <url>    ; step_0200 candidate`, and the team's driver reads it with Python's configparser, which keeps
an inline comment in the value. collect asks the server for `<url>    ; step_0200 candidate/models`, gets a 404 and
collects nothing (config, the INI line named). With the comment on a line of its own, the run is healthy."""

from pathlib import Path

import pytest
from script_support import CLI, MATERIALIZE, run_scripts

from gym_pipeline.diagnose import diagnose

DRIVER = f'''"""drive_eval.py: collect and profile with the settings of eval.ini."""
import configparser
import subprocess

CLI = {CLI.split()!r}
settings = configparser.ConfigParser()
settings.read("eval.ini")
url = settings["eval"]["model_url"]
print(f"== model at {{url}}", flush=True)
subprocess.run(CLI + ["collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                      "--model-url", url, "--env", "string_match", "--concurrency", "4"])
subprocess.run(CLI + ["profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"])
'''


@pytest.mark.parametrize("comment", ["inline", "own_line"])
def test_a_model_url_whose_ini_line_ends_in_a_comment_keeps_it(tmp_path: Path, comment: str) -> None:
    setting = ("model_url = URL    ; step_0200 candidate, served on the eval node\n" if comment == "inline" else
               "; step_0200 candidate, served on the eval node\nmodel_url = URL\n")
    script = (f"cat > eval.ini <<'EOF'\n[eval]\nconcurrency = 4\n{setting}EOF\n" + MATERIALIZE
              + f"{CLI.split()[0]} drive_eval.py\n")
    run = run_scripts(tmp_path, [script], files={"drive_eval.py": DRIVER})

    report = diagnose(run)

    if comment == "own_line":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "answered HTTP 404" in (run / "logs" / "run_eval_0.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "model_url_carries_an_inline_comment"), [f.title for f in report.causes]
    assert top.title.startswith("eval.ini:3 gives `model_url` an inline comment (`; step_0200 candidate")
    assert "`configparser.ConfigParser(inline_comment_prefixes=(';', '#'))`" in top.fix
