"""A flag a user's Python driver never reads, because it parses with argparse's `parse_known_args`. Run for real:
the CI step passes the shared flag set (`--model_url`, and a `--shard` the driver does not use) to eval.py, which
declares `--model-url` and ignores what it does not know; the collection runs against the driver's default, the
team's standing server of an older checkpoint, and every command exits 0 (config). Spelt as declared, the run is
against the server the step names: healthy."""

from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose

DRIVER = f'''"""eval.py: the weekly eval; CI passes one shared flag set to every tool, each takes what it knows."""
import argparse
import subprocess

CLI = {CLI.split()!r}
STANDING = open("standing_server.url").read().strip()  # the team's standing eval server
parser = argparse.ArgumentParser()
parser.add_argument("--repeats", type=int, default=3)
parser.add_argument("--model-url", default=STANDING)
args, _ = parser.parse_known_args()
print(f"eval against {{args.model_url}}", flush=True)
for step in (["materialize", "--input", "data.jsonl", "--num-repeats", str(args.repeats), "--agent",
              "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"],
             ["collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
              "--model-url", args.model_url, "--env", "string_match", "--concurrency", "4"],
             ["profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"]):
    subprocess.run(CLI + step, check=True)
'''


@pytest.mark.parametrize("flag", ["--model_url", "--model-url"])
def test_a_flag_spelt_otherwise_than_declared_is_ignored_by_parse_known_args(tmp_path: Path, flag: str) -> None:
    python = CLI.split()[0]
    run = run_scripts(tmp_path, ["echo URL > standing_server.url\n",  # the team's standing server (an older step)
                                 f"{python} eval.py {flag} URL --repeats 3 --shard 0\n"],
                      checkpoint_of_script=[0, 1], files={"eval.py": DRIVER})
    assert (run / "rollouts.jsonl").exists(), (run / "logs" / "run_eval_1.log").read_text()

    report = diagnose(run)

    if flag == "--model-url":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "flag_ignored_by_parse_known_args"), [f.title for f in report.causes]
    line = next(n for n, text in enumerate(DRIVER.splitlines(), start=1) if '"--model-url"' in text)
    assert top.title == (f"run_eval.sh:2 passes `--model_url`, which eval.py does not declare (it declares "
                         f"`--model-url`, line {line}) and `parse_known_args` ignores: --model-url kept its default "
                         "STANDING")
    assert "`parse_args()` instead of `parse_known_args()`" in top.fix
