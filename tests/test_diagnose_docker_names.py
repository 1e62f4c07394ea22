"""A weekly eval that collects in a container under a fixed `--name`, run for real two weeks in a row: without `--rm`,
last week's stopped container keeps the name, this week's `docker run` is refused, and the script's fallback `docker
start -a NAME` re-runs last week's container (its frozen command: last week's inputs and folder). The diagnosis names
the refusal and the restart (cache/resume). With `--rm`, both weeks collect and nothing is found. Without the
fallback, the run stops on the container the node still holds (infra)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from launcher_support import docker_engine
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose
from gym_pipeline.launchers.settings import DEFAULT_IMAGE

pytestmark = pytest.mark.integration
PROJECT = Path(__file__).resolve().parents[1]


def weekly_eval(week: str, run_dir: Path, name: str, remove: str, fallback: bool = True) -> str:
    mounts = " ".join(f"-v {path}:{path}:ro" for path in dict.fromkeys(
        [Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve(), PROJECT]))
    return (f"WEEK={week}\nmkdir -p $WEEK && cp data.jsonl $WEEK/tasks.jsonl\n"
            f"{CLI} materialize --input $WEEK/tasks.jsonl --num-repeats 2 --agent string_match_simple_agent "
            "--output $WEEK/rollouts_materialized_inputs.jsonl\n"
            "# collect in the eval container, named so that it can be looked at afterwards\n"
            f"docker run {remove}--name {name} --network host {mounts} -v {run_dir}:{run_dir} -w {run_dir} "
            f"-e PYTHONPATH={PROJECT} {DEFAULT_IMAGE} \\\n"
            f"  {CLI} collect --inputs $WEEK/rollouts_materialized_inputs.jsonl --output $WEEK/rollouts.jsonl "
            "--model-url URL --env string_match --concurrency 4"
            + (f" \\\n  || docker start -a {name}   # already there (a re-run): start it again\n" if fallback else "\n")
            + f"{CLI} profile --inputs $WEEK/rollouts_materialized_inputs.jsonl --rollouts $WEEK/rollouts.jsonl\n")


@pytest.mark.parametrize("remove", ["", "--rm "], ids=["kept", "removed"])
def test_a_container_name_kept_from_last_week_restarts_last_weeks_collection(tmp_path: Path, remove: str) -> None:
    docker_engine()
    name = f"weekly-collect-{os.getpid()}-{len(remove)}"  # the engine's names are shared by every test worker
    run_dir = tmp_path / "run"
    try:
        run = run_scripts(tmp_path, [weekly_eval(week, run_dir, name, remove) for week in ("week1", "week2")])
    finally:
        subprocess.run(["docker", "rm", "-f", name], capture_output=True, timeout=60)
    assert (run / "week2" / "rollouts.jsonl").exists() == bool(remove)  # the name really blocked week 2's container

    report = diagnose(run)

    if remove:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "container_name_held_by_an_earlier_run"), top.title
    assert [line.where for line in top.evidence] == ["logs/run_eval_1.log:2", "run_eval.sh:6", "run_eval.sh:8"]
    assert f"`docker rm -f {name}` before the `docker run`" in top.fix and "drop the `docker start` fallback" in top.fix


def test_a_container_name_kept_from_last_week_refuses_this_weeks_container(tmp_path: Path) -> None:
    docker_engine()
    name = f"weekly-collect-{os.getpid()}-plain"
    run_dir = tmp_path / "run"
    try:
        run = run_scripts(tmp_path, [weekly_eval(week, run_dir, name, "", fallback=False) for week in ("week1", "week2")])
    finally:
        subprocess.run(["docker", "rm", "-f", name], capture_output=True, timeout=60)

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("infra", "container_name_held_by_an_earlier_run"), top.title
    assert [line.where for line in top.evidence] == ["logs/run_eval_1.log:2", "run_eval.sh:6"]
    assert top.fix.startswith(f"Remove the leftover container (`docker rm {name}`")
    assert "in run_eval.sh, run the container with `--rm`" in top.fix
