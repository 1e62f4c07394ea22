"""The Docker launcher against the real engine started by `scripts/dev-services.sh up docker`.

Each test ends with no container of its run directory and no process of its stage left.
"""

import os

import docker
import pytest
from launcher_support import (
    DEAF_SLEEPER,
    MEMORY_HOG,
    answers,
    docker_engine,
    http_server_launch,
    interrupt_main_when,
    materialize_launch,
    materialize_through_pipes,
    new_marker,
    processes_with,
    python_launch,
    record,
    sleeper_child_runs,
)

from gym_pipeline.launchers.base import LauncherUnavailableError, StageFailedError, StageResources
from gym_pipeline.launchers.docker import LABEL_RUN_DIR, BindMount, DockerLauncher

pytestmark = pytest.mark.integration  # needs the real Docker engine


@pytest.fixture(scope="module")
def engine() -> docker.DockerClient:
    return docker_engine()


@pytest.fixture
def run_dir(tmp_path, engine):
    yield tmp_path
    left = engine.containers.list(all=True, filters={"label": f"{LABEL_RUN_DIR}={tmp_path}"})
    assert left == [], f"containers left behind: {[c.name for c in left]}"


def test_a_stage_runs_in_a_container_and_writes_into_the_run_directory(run_dir):
    state = DockerLauncher(network="none", cpus=1, memory_mb=512).run(materialize_launch(run_dir))

    assert state.exit_code == 0 and state.oom_killed is False and len(state.container_id) == 64
    output = run_dir / "rollouts_materialized_inputs.jsonl"
    assert output.stat().st_size > 0 and output.stat().st_uid == os.getuid()
    assert "wrote 174 rows" in (run_dir / "logs" / "materialize.log").read_text()
    assert record(run_dir)["container_id"] == state.container_id


def test_a_failing_container_raises_with_its_exit_code_and_log(run_dir):
    launch = python_launch("collect", "print('connecting to the policy'); raise SystemExit(3)", run_dir)
    with pytest.raises(StageFailedError) as failure:
        DockerLauncher(network="none").run(launch)

    message = str(failure.value)
    assert "stage 'collect' failed on the docker launcher: container" in message
    assert "exited with code 3" in message and "connecting to the policy" in message
    assert record(run_dir)["exit_code"] == 3


def test_a_container_over_its_memory_limit_is_reported_oom_killed(run_dir):
    launch = python_launch("profile", MEMORY_HOG, run_dir, resources=StageResources(memory_mb=128))
    with pytest.raises(StageFailedError, match=r"ran out of memory \(OOM killed\)"):
        DockerLauncher(network="none").run(launch)

    recorded = record(run_dir)
    assert recorded["oom_killed"] is True and recorded["exit_code"] == 137 and recorded["signal"] == "SIGKILL"


def test_an_interrupted_run_stops_and_removes_its_container(run_dir):
    marker = new_marker()
    interrupt_main_when(lambda: sleeper_child_runs(marker))
    with pytest.raises(KeyboardInterrupt):
        # Deaf to SIGINT (docker stop's signal here): Docker's SIGKILL after the grace period ends it.
        DockerLauncher(network="none", grace_period_s=1).run(python_launch("rollouts", DEAF_SLEEPER, run_dir, marker))

    assert processes_with(marker) == []
    recorded = record(run_dir)
    assert recorded["stopped_by_launcher"] == "KeyboardInterrupt" and recorded["exit_code"] == 137


def test_a_stage_in_a_container_reports_to_dagster_through_pipes(run_dir):
    metadata = materialize_through_pipes(DockerLauncher(network="none"), run_dir)

    assert metadata["rows"].value == 3
    assert metadata["launcher"].value == "docker" and len(metadata["container_id"].value) == 64


def test_a_missing_image_is_reported_before_anything_runs(run_dir):
    launch = python_launch("collect", "print(1)", run_dir)
    with pytest.raises(LauncherUnavailableError, match="image 'gym-pipeline/missing:1' is not on the engine"):
        DockerLauncher(image="gym-pipeline/missing:1").run(launch)

    assert record(run_dir)["launch_error"].startswith("LauncherUnavailableError: image 'gym-pipeline/missing:1'")


def test_a_container_the_engine_refuses_is_named_with_the_engines_reason(run_dir):
    launch = python_launch("collect", "print(1)", run_dir)
    missing = run_dir / "not-on-this-node"
    with pytest.raises(LauncherUnavailableError, match=f"refused stage 'collect' .*bind source path does not exist: "
                                                       f"{missing}"):
        DockerLauncher(mounts=[BindMount(missing)]).run(launch)

    assert "bind source path does not exist" in record(run_dir)["launch_error"]


def test_a_served_model_server_answers_until_the_block_ends(run_dir, engine):
    launch, url = http_server_launch(run_dir)
    with DockerLauncher(network="host", grace_period_s=2).serve(launch, ready=lambda: answers(url), timeout_s=60) as state:
        assert answers(url)

    assert not answers(url)
    assert engine.containers.list(all=True, filters={"id": state.container_id}) == []
    recorded = record(run_dir, "model_server")
    assert recorded["stopped_by_launcher"] == "after serving" and "exit_code" not in recorded


def test_a_run_directory_reached_through_a_symlink_is_the_same_folder_at_both_paths(run_dir):
    scratch = run_dir / "scratch"
    scratch.mkdir()
    linked = run_dir / "runs"
    linked.symlink_to(scratch)  # a runs folder linked to scratch space, as clusters do
    script = ("import sys; from pathlib import Path; "
              "[Path(p, name).write_text('x') for p, name in ((sys.argv[1], 'a'), (sys.argv[2], 'b'))]")
    launch = python_launch("collect", script, linked, str(linked), str(scratch))
    state = DockerLauncher(network="none").run(launch)
    assert state.exit_code == 0
    assert (scratch / "a").read_text() == (scratch / "b").read_text() == "x"
