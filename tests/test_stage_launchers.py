"""A sweep's stages through each launcher, end to end through Dagster (`gym-pipeline demo --launcher`).

Docker and Slurm are the real services started by `scripts/dev-services.sh` (CI starts them).
"""

import os
import subprocess
import sys
from pathlib import Path

import dagster as dg
import orjson
import pytest
import yaml
from launcher_support import docker_engine, slurm_cluster
from ui_server import running_ui, wait_until

from gym_pipeline.assets.partitions import CHECKPOINTS, sweep_partition_key
from gym_pipeline.backfill import PartitionRange, WebserverBackfill
from gym_pipeline.config import StageLaunchersConfig, load_sweep_config
from gym_pipeline.demo import create_workspace, run_demo
from gym_pipeline.launchers.docker import LABEL_RUN_DIR
from gym_pipeline.launchers.settings import DockerLauncherSettings, LocalLauncherSettings, SlurmLauncherSettings
from gym_pipeline.observation import observe_sources
from gym_pipeline.sweep import EVAL_SWEEP_JOB, build_definitions

STAGES = ("materialized_inputs", "rollouts", "reward_profile")
WHERE = {"local": "pid", "docker": "container_id", "slurm": "slurm_job_id"}


SETTINGS = {
    "local": (LocalLauncherSettings, lambda: None),
    "docker": (DockerLauncherSettings, docker_engine),
    "slurm": (SlurmLauncherSettings, slurm_cluster),
}


def _leftovers(kind: str, home: Path) -> list[str]:
    if kind == "docker":
        import docker

        return [c.name for c in docker.from_env().containers.list(all=True) if str(home) in str(c.labels)]
    if kind == "slurm":
        listed = subprocess.run(["squeue", "-h", "-o", "%i %j"], capture_output=True, text=True, timeout=30)
        return [line for line in listed.stdout.splitlines() if "gym-pipeline" in line]
    # Stages name their run directory, model servers their checkpoint folder (the UI's own processes neither).
    listed = subprocess.run(["pgrep", "-af", f"{home}/(runs|checkpoints)/"], capture_output=True, text=True)
    return [line for line in listed.stdout.splitlines() if "pgrep" not in line]


@pytest.mark.parametrize("kind", ["local", pytest.param("docker", marks=pytest.mark.integration),
                                  pytest.param("slurm", marks=pytest.mark.integration)])
def test_every_stage_of_a_sweep_runs_through_the_launcher_and_says_where(tmp_path, kind):
    settings_class, ready = SETTINGS[kind]
    ready()
    home = tmp_path / "home"
    result = run_demo(home, checkpoint_count=1, quiet=True, launcher=settings_class())

    assert [p["dagster_run_ok"] for p in result["partitions"]] == [True, True]
    assert {p["diagnosis"] for p in result["partitions"]} == {"healthy"}
    for partition in result["partitions"]:
        run_dir = Path(partition["run_dir"])
        manifest = orjson.loads((run_dir / "manifest.json").read_bytes())
        for stage in STAGES:
            ran_on = manifest[stage]["ran_on"]
            assert ran_on["launcher"] == kind and ran_on[WHERE[kind]], (stage, ran_on)
            assert (run_dir / "logs" / f"{stage}.log").exists()
        assert manifest["materialized_inputs"]["ran_on"].get("pid") != os.getpid()
        assert partition["rollouts"] == len((run_dir / "rollouts_materialized_inputs.jsonl").read_bytes().splitlines())
    with dg.DagsterInstance.from_config(str(home / "dagster")) as instance:
        event = instance.get_latest_materialization_event(dg.AssetKey("rollouts"))
        logs = instance.all_logs(event.run_id)
    assert event.asset_materialization.metadata["launcher/launcher"].value == kind
    # The launched stage's own log lines reached the Dagster run's log through Pipes.
    assert any("collected" in (entry.user_message or "") for entry in logs)
    assert _leftovers(kind, home) == []


def test_a_launched_stage_that_fails_fails_the_step_with_its_log(tmp_path):
    home = tmp_path / "home"
    config = create_workspace(home, checkpoint_count=1)
    config = config.model_copy(update={"launchers": StageLaunchersConfig(materialize=LocalLauncherSettings())})
    (home / "data" / "mcqa.jsonl").write_text('{"responses_create_params": {"input": "no closing brace"\n')
    defs = build_definitions(config)
    with dg.DagsterInstance.ephemeral() as instance:
        instance.add_dynamic_partitions(CHECKPOINTS.name, ["step_0100"])
        observe_sources(config, instance)
        result = defs.resolve_job_def(EVAL_SWEEP_JOB).execute_in_process(
            instance=instance, partition_key=sweep_partition_key("step_0100", "mcqa"), raise_on_error=False)
    assert not result.success
    (failure,) = [event for event in result.get_step_failure_events()]
    message = failure.step_failure_data.error.message
    assert "stage 'materialized_inputs' failed on the local launcher" in message
    assert "mcqa.jsonl:1" in message  # the stage's own error, from its log
    state = orjson.loads((home / "runs" / "step_0100" / "mcqa" / "logs" / "launcher.json").read_bytes())
    assert state["launcher"] == "local" and state["exit_code"] == 2


def test_the_stage_command_refuses_a_file_that_is_not_a_sweep_config(tmp_path):
    bad = tmp_path / "sweep.json"
    bad.write_text("{}")
    done = subprocess.run([sys.executable, "-m", "gym_pipeline.cli", "stage", "materialize", "--sweep-config", str(bad),
                           "--checkpoint", "step_0100", "--env", "mcqa", "--code-version", "x"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and f"{bad}: not a valid sweep config: field 'environments': Field required" in \
        " ".join(done.stderr.split())
    assert "Traceback" not in done.stderr


def test_the_stage_command_reads_a_sweep_yaml_given_by_hand(tmp_path):
    home = tmp_path / "home"
    create_workspace(home, checkpoint_count=1)
    done = subprocess.run([sys.executable, "-m", "gym_pipeline.cli", "stage", "materialize", "--sweep-config",
                           str(home / "sweep.yaml"), "--checkpoint", "step_0100", "--env", "mcqa", "--code-version", "x"],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert list(home.glob("runs/step_0100/mcqa/rollouts_materialized_inputs.jsonl"))

    done = subprocess.run([sys.executable, "-m", "gym_pipeline.cli", "stage", "materialize", "--sweep-config",
                           str(home / "sweep.yaml"), "--checkpoint", "step_100", "--env", "mcqa", "--code-version", "x"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "checkpoint 'step_100' is not in the sweep" in done.stderr
    assert "known: ['step_0100']" in done.stderr and not (home / "runs" / "step_100").exists()
    assert "did you mean 'step_0100'?" in done.stderr  # the same number, other zero padding

    # a step's config given by hand is checked too, where the checkpoints folder is visible
    step_config = tmp_path / "sweep.json"
    step_config.write_bytes(load_sweep_config(home / "sweep.yaml").model_dump_json().encode())
    done = subprocess.run([sys.executable, "-m", "gym_pipeline.cli", "stage", "materialize", "--sweep-config",
                           str(step_config), "--checkpoint", "step_100", "--env", "mcqa", "--code-version", "x"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "checkpoint 'step_100' is not in the sweep" in done.stderr
    assert not (home / "runs" / "step_100").exists()

    (home / "sweep.yaml").write_text("environments:\n\t- name: mcqa\n")  # indented with a tab
    done = subprocess.run([sys.executable, "-m", "gym_pipeline.cli", "stage", "materialize", "--sweep-config",
                           str(home / "sweep.yaml"), "--checkpoint", "step_0100", "--env", "mcqa", "--code-version", "x"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and f"{home / 'sweep.yaml'}:2:1: not valid YAML" in done.stderr


@pytest.mark.integration
def test_terminating_a_run_from_the_ui_stops_its_launched_stage_and_server(tmp_path):
    """A run terminated mid-collection through Dagster (as the UI's Terminate button does) leaves no container,
    no model server and no stage process behind."""
    engine = docker_engine()
    home = tmp_path / "home"
    run_demo(home, checkpoint_count=1, quiet=True)
    config = yaml.safe_load((home / "sweep.yaml").read_text())
    # A slow collection in a container: one request at a time, 300 ms each (about 100 s for 348 rows).
    config |= {"concurrency": 1, "launchers": {"collect": {"kind": "docker", "grace_period_s": 5}}}
    config["model_server"] = {"kind": "simulated", "latency_ms": 300}
    (home / "sweep.yaml").write_text(yaml.safe_dump(config))
    run_dir = home / "runs" / "step_0100" / "string_match"

    with running_ui(home, tmp_path) as ui:
        submitted = WebserverBackfill(ui.url, "recollect", [PartitionRange(("step_0100|string_match",))], "gp-test")
        (run_id,) = submitted.pending

        def collecting_in_a_container():
            running = engine.containers.list(filters={"label": f"{LABEL_RUN_DIR}={run_dir}"})
            return running and b"collected" in (run_dir / "logs" / "rollouts.log").read_bytes()

        wait_until(collecting_in_a_container, 180, "the collect stage running in its container")
        assert _leftovers("local", home), "the model server and the stage should be running now"
        submitted.client.terminate_run(run_id)
        wait_until(lambda: submitted.client.get_run_status(run_id) == dg.DagsterRunStatus.CANCELED, 120,
                   "the run to be canceled")

        assert engine.containers.list(all=True, filters={"label": f"{LABEL_RUN_DIR}={run_dir}"}) == []
        assert _leftovers("local", home) == []  # neither the model server nor a stage process
        state = orjson.loads((run_dir / "logs" / "launcher_rollouts.json").read_bytes())
        assert state["launcher"] == "docker" and state["stopped_by_launcher"]
