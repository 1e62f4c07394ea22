"""A user's eval script whose output folder is named by the day (`runs/$(date +%F)`) and that always resumes, run for
real against two checkpoints' servers in turn: the second checkpoint of the day resumes into the first one's folder,
keeps its rollouts, and the profile is the first model's. The diagnosis names the script's dated folder. The same
script run twice on one checkpoint resumes onto the same weights: no finding of mixed models.

The same with a fixed work folder (`OUT=/scratch/nightly-eval`, a node-local scratch path not made per job): the
second job resumes into what the first left there, and the fix names the fixed folder. And with a weekly cleanup
that removes `rollout.jsonl` (a typo) instead of rollouts.jsonl: the resume keeps last week's rows.
"""

import subprocess
import sys
import time
from pathlib import Path

import pytest

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment
from gym_pipeline.host import free_loopback_port
from gym_pipeline.serving.checkpoints import demo_checkpoints

CLI = " ".join([sys.executable, "-m", "gym_pipeline.cli"])
SCRIPT = f'''#!/bin/bash
# eval of one checkpoint: bash run_eval.sh MODEL_URL; results in runs/<date> (resumes an interrupted run)
OUT=runs/$(date +%F)
mkdir -p $OUT && cd $OUT
[ -f rollouts_materialized_inputs.jsonl ] || {CLI} materialize --input DATA --num-repeats 2 \\
  --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $1 --env string_match \\
  --concurrency 4 --resume
'''


def _run_twice(tmp_path: Path, script: str, second: str) -> Path:
    """The script run against step_0100's server, then against `second`'s."""
    checkpoints = {path.name: path for path in demo_checkpoints(tmp_path / "checkpoints", 2, ["string_match"])}
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (run / "data.jsonl").write_text(get_environment("string_match").dataset_path.read_text())
    (run / "run_eval.sh").write_text(script.replace("DATA", str(run / "data.jsonl")))
    for number, name in enumerate(("step_0100", second)):
        port = free_loopback_port()
        with (run / "logs" / f"model_server_{number}.log").open("w") as log:
            server = subprocess.Popen([*CLI.split(), "serve-policy", "--checkpoint", str(checkpoints[name]), "--port",
                                       str(port)], stdout=log, stderr=subprocess.STDOUT)
        try:
            time.sleep(2.5)
            with (run / "logs" / f"run_eval_{number}.log").open("w") as log:
                subprocess.run(["bash", "run_eval.sh", f"http://127.0.0.1:{port}/v1"], cwd=run, stdout=log,
                               stderr=subprocess.STDOUT, timeout=180, check=True)
        finally:
            server.terminate()
            server.wait(10)
    return run


@pytest.mark.parametrize("second", ["step_0200", "step_0100"])
def test_a_second_checkpoint_of_the_day_resumes_into_the_first_ones_dated_folder(tmp_path: Path, second: str):
    report = diagnose(_run_twice(tmp_path, SCRIPT, second))

    if second == "step_0100":
        assert all("names the output folder by the day" not in f.fix for f in report.findings)
        return
    top = report.causes[0]
    assert top.category == "cache_resume" and top.title.startswith("A resumed collection mixes rollouts of 2 models")
    assert top.fix.startswith("run_eval.sh:3 names the output folder by the day (`OUT=runs/$(date +%F)`)")


@pytest.mark.parametrize("folder", ["SCRATCH/nightly-eval", "SCRATCH/nightly-eval-$$"])
def test_a_second_job_resumes_into_a_fixed_scratch_folder_the_first_left(tmp_path: Path, folder: str):
    """A fixed node-local folder keeps the first job's rollouts for the next; one per process (`$$`) does not."""
    scratch = folder.replace("SCRATCH", str(tmp_path / "scratch"))
    report = diagnose(_run_twice(tmp_path, SCRIPT.replace("OUT=runs/$(date +%F)", f"OUT={scratch}"), "step_0200"))

    if "$$" in folder:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert top.category == "cache_resume" and top.title.startswith("A resumed collection mixes rollouts of 2 models")
    assert top.fix.startswith(f"run_eval.sh:3 works in a fixed folder (`OUT={scratch}`) that outlives the job")


@pytest.mark.parametrize("removed", ["rollout.jsonl", "rollouts.jsonl"])
def test_a_cleanup_that_misses_the_rollouts_by_a_typo_lets_the_resume_keep_them(tmp_path: Path, removed: str):
    script = SCRIPT.replace("OUT=runs/$(date +%F)\n", f"OUT=results\nrm -f $OUT/{removed}   # a fresh start every week\n")
    report = diagnose(_run_twice(tmp_path, script, "step_0200"))

    if removed == "rollouts.jsonl":
        assert all("removes `" not in f.fix for f in report.findings), [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert top.category == "cache_resume" and top.title.startswith("A resumed collection mixes rollouts of 2 models")
    assert top.fix.startswith("run_eval.sh:4 means to start afresh but removes `$OUT/rollout.jsonl`, a file that is "
                              "not there: the rollouts are in `$OUT/rollouts.jsonl`")
