"""A run script that names its output after everything that was run, run for real by bash.

The name, built from a variable holding the checkpoint's path, a note and the settings, is over the 255 bytes a file
name may hold: collect cannot create its output (`File name too long`). The finding names the script line that built
the name and the line that set the variable. A short tag runs.
"""

import subprocess
import sys
from pathlib import Path

import pytest

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment

LONG_TAG = ('TAG=$(echo "/lustre/projects/post-training/string-match/runs/2026-11-27_lr3e-6_kl0.02_warmup200/checkpoints/'
            'step_0200 weekly eval of the string match tasks with the sampling settings of the November sweep '
            'repeats=2 concurrency=4 temperature=0.7 top_p=0.95 max_tokens=1024 seed=1234" | tr " /=" "___")')
SHORT_TAG = "TAG=step_0200"


@pytest.mark.parametrize("tag", [LONG_TAG, SHORT_TAG], ids=["long", "short"])
def test_an_output_name_built_past_the_file_name_limit_names_the_variable(tmp_path: Path, policy_endpoint, tag: str):
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (run / "data.jsonl").write_text("".join(get_environment("string_match").dataset_path.read_text()
                                            .splitlines(keepends=True)[:6]))
    cli = f"{sys.executable} -m gym_pipeline.cli"
    (run / "run_eval.sh").write_text(
        f"#!/bin/bash\ncd \"$(dirname \"$0\")\"\n{tag}\n"
        f"{cli} materialize --input data.jsonl --num-repeats 2 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"{cli} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts_$TAG.jsonl "
        f"--model-url {policy_endpoint.url} --env string_match\n")
    with (run / "logs" / "run_eval.log").open("w") as log:
        subprocess.run(["bash", str(run / "run_eval.sh")], stdout=log, stderr=subprocess.STDOUT, timeout=120)

    report = diagnose(run)

    if tag == SHORT_TAG:
        assert (run / "rollouts_step_0200.jsonl").is_file()
        assert all("File name too long" not in f.title for f in report.findings)
        return
    top = report.causes[0]
    assert top.category == "config" and "File name too long" in top.title, top.title
    assert "run_eval.sh:5 builds the name from $TAG (`" in top.fix
    assert "which run_eval.sh:3 sets (`TAG=$(echo " in top.fix
