"""A PYTHON* variable a sourced settings file sets to a value Python refuses, run for real by bash.

`PYTHONHASHSEED=reproducible` stops every Python process at startup (`Fatal Python error`); the script goes on and
nothing is made. An integer seed is taken, and the run goes through.
"""

import subprocess
import sys
from pathlib import Path

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment


def _run_with_seed(tmp_path: Path, seed: str) -> Path:
    run = tmp_path / "run"
    run.mkdir()
    (run / "data.jsonl").write_text(get_environment("string_match").dataset_path.read_text())
    (run / "eval_env.sh").write_text(f"# the team's settings for reproducible runs\nexport PYTHONHASHSEED={seed}\n")
    (run / "run_eval.sh").write_text(
        "#!/bin/bash\nsource ./eval_env.sh\n"
        f"{sys.executable} -m gym_pipeline.cli materialize --input data.jsonl --num-repeats 1 "
        "--agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl\n")
    with (run / "run_eval.log").open("w") as log:
        subprocess.run(["bash", "run_eval.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=120)
    return run


def test_a_hash_seed_python_refuses_stops_every_python_process(tmp_path: Path) -> None:
    run = _run_with_seed(tmp_path, "reproducible")
    assert "Fatal Python error" in (run / "run_eval.log").read_text()

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("infra", "python_startup_variable")
    assert [line.where for line in top.evidence] == ["run_eval.log:1", "eval_env.sh:2"]
    assert "In eval_env.sh, set PYTHONHASHSEED to a value Python takes" in top.fix


def test_an_integer_hash_seed_is_no_finding(tmp_path: Path) -> None:
    run = _run_with_seed(tmp_path, "1234")
    assert (run / "rollouts_materialized_inputs.jsonl").is_file()

    assert all(f.id != "python_startup_variable" for f in diagnose(run).findings)
