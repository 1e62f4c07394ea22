"""A JSON settings file that gives `model_url` twice, run for real: this week's server added as a new line, last
week's left below it. `json.load` keeps the last without a word, so the eval runs against the other server and every
command exits 0. The diagnosis names both lines (config). With the key once, the run is healthy."""

from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose

EVAL = f'''"""eval.py SETTINGS: materialize and collect from a JSON settings file."""
import json
import subprocess
import sys

cfg = json.load(open(sys.argv[1]))
subprocess.run({CLI.split()!r} + ["materialize", "--input", cfg["dataset"], "--num-repeats", str(cfg["repeats"]),
               "--agent", "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
subprocess.run({CLI.split()!r} + ["collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
               "--model-url", cfg["model_url"], "--env", "string_match", "--concurrency", "4"], check=True)
'''
SCRIPT = """NEW=URL
OLD=${NEW/127.0.0.1/localhost}
cat > settings.json <<EOF
{
  "model_url": "$NEW",
  "dataset": "data.jsonl",
  "repeats": 2SECOND
}
EOF
python3 eval.py settings.json
"""


@pytest.mark.parametrize("twice", [True, False])
def test_a_settings_key_given_twice_keeps_its_last_value(tmp_path: Path, twice: bool) -> None:
    script = SCRIPT.replace("SECOND", ',\n  "model_url": "$OLD"' if twice else "")
    run = run_scripts(tmp_path, [script], files={"eval.py": EVAL})
    assert (run / "rollouts.jsonl").is_file()

    report = diagnose(run)

    if not twice:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "settings_key_given_twice"), [f.title for f in report.causes]
    assert top.title.startswith("settings.json gives `model_url` twice (2, 5): eval.py reads the last, "
                                '"http://localhost:'), top.title
    assert top.fix.startswith("In settings.json, keep one `model_url` line"), top.fix
