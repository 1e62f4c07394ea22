"""The local launcher for real (processes, process groups, signals), the launcher API and its settings."""

import json
import os
import signal
import subprocess
import sys
from contextlib import nullcontext
from pathlib import Path

import pytest
from dagster import DagsterExecutionInterruptedError
from launcher_support import (
    DEAF_SLEEPER,
    SLEEPER,
    interrupt_main_when,
    materialize_launch,
    materialize_through_pipes,
    new_marker,
    processes_with,
    python_launch,
    record,
    sleeper_child_runs,
    wait_for,
)
from pydantic import ValidationError

from gym_pipeline.launchers.base import (
    LauncherUnavailableError,
    StageFailedError,
    StageLaunch,
    StageNotReadyError,
    StageResources,
)
from gym_pipeline.launchers.docker import DockerLauncher
from gym_pipeline.launchers.factory import launcher_from_settings
from gym_pipeline.launchers.local import LocalLauncher
from gym_pipeline.launchers.settings import DockerLauncherSettings, LocalLauncherSettings, SlurmLauncherSettings
from gym_pipeline.launchers.slurm import SlurmLauncher, batch_script

SECRET = "sk-test-Z9x8C7v6B5n4M3"


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_stage_runs_and_its_state_is_recorded(tmp_path):
    state = LocalLauncher().run(materialize_launch(tmp_path))

    assert state.exit_code == 0 and state.pid and state.ended_at
    assert (tmp_path / "rollouts_materialized_inputs.jsonl").stat().st_size > 0
    assert "wrote 174 rows" in (tmp_path / "logs" / "materialize.log").read_text()
    for recorded in (record(tmp_path), record(tmp_path, "materialize")):
        assert recorded["launcher"] == "local" and recorded["exit_code"] == 0 and recorded["pid"] == state.pid
        assert recorded["log"] == "logs/materialize.log" and "materialize" in recorded["command"]
    assert not group_alive(state.pid)


def test_a_failing_stage_raises_naming_stage_launcher_exit_code_and_log(tmp_path):
    launch = python_launch("profile", "print('reading rollouts'); raise SystemExit('no rollouts.jsonl')", tmp_path)
    with pytest.raises(StageFailedError) as failure:
        LocalLauncher().run(launch)

    message = str(failure.value)
    assert "stage 'profile' failed on the local launcher" in message
    assert "exited with code 1" in message and "no rollouts.jsonl" in message
    assert failure.value.state.exit_code == 1
    assert record(tmp_path)["exit_code"] == 1


def test_an_interrupted_run_stops_the_whole_process_group(tmp_path):
    marker = new_marker()
    interrupt_main_when(lambda: sleeper_child_runs(marker))
    with pytest.raises(KeyboardInterrupt):
        LocalLauncher(grace_period_s=5).run(python_launch("rollouts", SLEEPER, tmp_path, marker))

    recorded = record(tmp_path)
    assert processes_with(marker) == []
    assert not group_alive(recorded["pid"])
    assert recorded["signal"] == "SIGINT" and recorded["exit_code"] == -signal.SIGINT
    assert recorded["stopped_by_launcher"] == "KeyboardInterrupt" and recorded["ended_at"]


def test_a_stage_deaf_to_sigint_is_killed_after_the_grace_period(tmp_path):
    marker = new_marker()
    interrupt_main_when(lambda: sleeper_child_runs(marker), DagsterExecutionInterruptedError)
    with pytest.raises(DagsterExecutionInterruptedError):
        LocalLauncher(grace_period_s=0.5).run(python_launch("rollouts", DEAF_SLEEPER, tmp_path, marker))

    recorded = record(tmp_path)
    assert processes_with(marker) == []
    assert not group_alive(recorded["pid"])
    assert recorded["signal"] == "SIGKILL"
    assert recorded["stopped_by_launcher"] == "DagsterExecutionInterruptedError"


# A run worker the way Dagster sets one up: SIGTERM handled as SIGINT, raised as DagsterExecutionInterruptedError.
WORKER = """
import sys
from pathlib import Path
from dagster import DagsterExecutionInterruptedError
from dagster._utils.interrupts import raise_interrupts_as, setup_interrupt_handlers
from gym_pipeline.launchers.base import StageLaunch
from gym_pipeline.launchers.local import LocalLauncher

setup_interrupt_handlers()
with raise_interrupts_as(DagsterExecutionInterruptedError):
    try:
        LocalLauncher(grace_period_s=5).run(StageLaunch("rollouts", [sys.executable, "-c", sys.argv[1], sys.argv[2]],
                                                        Path(sys.argv[3])))
    except DagsterExecutionInterruptedError:
        print("interrupted, stage stopped")
        raise SystemExit(3)
"""


def test_sigterm_to_a_dagster_run_worker_tears_its_stage_down(tmp_path):
    marker = new_marker()
    worker = subprocess.Popen([sys.executable, "-c", WORKER, SLEEPER, marker, str(tmp_path)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert wait_for(lambda: sleeper_child_runs(marker)), "the stage did not start"
        worker.send_signal(signal.SIGTERM)  # what `dagster` sends a run worker it terminates
        output, _ = worker.communicate(timeout=60)
    finally:
        worker.kill()

    assert worker.returncode == 3 and "interrupted, stage stopped" in output
    assert processes_with(marker) == []
    assert record(tmp_path)["stopped_by_launcher"] == "DagsterExecutionInterruptedError"


def test_secrets_pass_through_the_environment_only(tmp_path):
    quiet = python_launch("collect", "import os; assert os.environ['POLICY_API_KEY']", tmp_path,
                          env={"POLICY_API_KEY": SECRET})
    LocalLauncher().run(quiet)
    leaky = python_launch("collect_leaky", "import os; print('key is', os.environ['POLICY_API_KEY']); raise SystemExit(2)",
                          tmp_path, "--api-key", SECRET, env={"POLICY_API_KEY": SECRET})
    with pytest.raises(StageFailedError) as failure:
        LocalLauncher().run(leaky)

    assert SECRET not in str(failure.value) and "key is ***" in str(failure.value)
    assert SECRET not in (tmp_path / "logs" / "collect.log").read_text()
    for name in ("launcher.json", "launcher_collect.json", "launcher_collect_leaky.json"):
        text = (tmp_path / "logs" / name).read_text()
        assert SECRET not in text and "POLICY_API_KEY" in text


SERVER = """
import pathlib, sys, time
print("loading weights", flush=True)
time.sleep(0.5)
pathlib.Path(sys.argv[1]).write_text("ready")
time.sleep(120)
"""


def test_serve_waits_until_ready_and_stops_the_server_afterwards(tmp_path):
    ready_file = tmp_path / "ready"
    launch = python_launch("model_server", SERVER, tmp_path, str(ready_file))
    with LocalLauncher(grace_period_s=5).serve(launch, ready=ready_file.exists, timeout_s=60) as state:
        assert ready_file.exists() and group_alive(state.pid)
        assert record(tmp_path, "model_server")["pid"] == state.pid

    assert not group_alive(state.pid)
    recorded = record(tmp_path, "model_server")
    assert recorded["stopped_by_launcher"] == "after serving" and "exit_code" not in recorded
    assert not (tmp_path / "logs" / "launcher.json").exists()  # left to the stages using the server


def _dead(pid: int) -> bool:
    """Gone or a zombie: killed, not yet reaped by the launcher."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def test_a_server_that_dies_in_use_is_named_on_the_error_of_the_block(tmp_path, caplog):
    """A block that fails after its server died says so; one that ends well after it died logs a warning."""
    for failing in (True, False):
        run_dir = tmp_path / str(failing)
        ready_file = run_dir / "ready"
        launch = python_launch("model_server", SERVER, run_dir, str(ready_file))
        with pytest.raises(ConnectionError) if failing else nullcontext() as failure:
            with LocalLauncher(grace_period_s=5).serve(launch, ready=ready_file.exists, timeout_s=60) as state:
                os.killpg(state.pid, signal.SIGKILL)  # as the kernel's OOM killer or a neighbour's cleanup would
                assert wait_for(lambda: _dead(state.pid), 30)
                if failing:
                    raise ConnectionError("Cannot connect to host 127.0.0.1")
        if failing:
            assert any("stage 'model_server' on the local launcher ended while in use: " in note and "SIGKILL" in note
                       for note in failure.value.__notes__)
        else:
            assert "stage 'model_server' on the local launcher ended while in use" in caplog.text
        assert record(run_dir, "model_server")["signal"] == "SIGKILL"


def test_serve_gives_up_after_the_timeout_with_the_server_log(tmp_path):
    launch = python_launch("model_server", SERVER, tmp_path, str(tmp_path / "ready"))
    with pytest.raises(StageNotReadyError) as failure:
        with LocalLauncher(grace_period_s=5).serve(launch, ready=lambda: False, timeout_s=1):
            pass

    assert "was not ready after 1 s" in str(failure.value) and "loading weights" in str(failure.value)
    assert not group_alive(failure.value.state.pid)


def test_serve_reports_a_server_that_exits_before_it_is_ready(tmp_path):
    launch = python_launch("model_server", "raise SystemExit('CUDA out of memory')", tmp_path)
    with pytest.raises(StageFailedError, match="ended before it was ready: process .* exited with code 1"):
        with LocalLauncher().serve(launch, ready=lambda: False, timeout_s=60):
            pass


def test_a_stage_reports_to_dagster_through_pipes(tmp_path):
    metadata = materialize_through_pipes(LocalLauncher(), tmp_path)

    assert metadata["rows"].value == 3
    assert metadata["launcher"].value == "local" and metadata["exit_code"].value == 0
    assert record(tmp_path, "profile")["env_names"] == ["DAGSTER_PIPES_CONTEXT", "DAGSTER_PIPES_MESSAGES"]


def test_a_program_that_cannot_start_is_reported_as_such(tmp_path):
    with pytest.raises(LauncherUnavailableError, match="cannot start stage 'serve'.*No such file"):
        LocalLauncher().run(StageLaunch("serve", ["/nonexistent/vllm", "serve", "ckpt"], tmp_path))

    recorded = record(tmp_path)
    assert "No such file" in recorded["launch_error"] and recorded["ended_at"] and "pid" not in recorded


def test_the_slurm_batch_script_passes_every_argument_verbatim(tmp_path):
    nasty = ["$(touch pwned)", "it's", 'a "quoted" arg', "semi;colon && echo no", "*", "new\nline"]
    launch = StageLaunch("stage", [sys.executable, "-c", "import json, sys; print(json.dumps(sys.argv[1:]))", *nasty],
                         tmp_path)
    script = tmp_path / "stage.sbatch"
    script.write_text(batch_script(launch, tmp_path / "stage.exit_code"))
    output = subprocess.run(["bash", str(script)], capture_output=True, text=True, check=True).stdout

    assert json.loads(output) == nasty
    assert (tmp_path / "stage.exit_code").read_text().strip() == "0"
    assert not (tmp_path / "pwned").exists()


def test_launchers_are_built_from_settings():
    assert isinstance(launcher_from_settings(LocalLauncherSettings(grace_period_s=3)), LocalLauncher)
    docker = launcher_from_settings(DockerLauncherSettings(network="none", memory_mb=512, cpus=1.5,
                                                           mounts=[{"source": "/data"}]))
    assert isinstance(docker, DockerLauncher) and docker.mounts[0].source == Path("/data")
    slurm = launcher_from_settings(SlurmLauncherSettings(partition="gpu", time_limit="02:00:00", cpus_per_task=8,
                                                         memory_mb=32000, gres="gpu:1", account="nemo",
                                                         extra_options=["--qos=high"]))
    assert isinstance(slurm, SlurmLauncher)
    launch = StageLaunch("rollouts", ["true"], Path("/tmp"), resources=StageResources(memory_mb=64000, gpus=2))
    assert slurm.sbatch_options(launch) == ["--partition=gpu", "--time=02:00:00", "--account=nemo",
                                            "--cpus-per-task=8", "--mem=64000M", "--gres=gpu:2", "--qos=high"]
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        SlurmLauncherSettings(partion="gpu")
    with pytest.raises(ValidationError, match="memory_mb .* and extra_options' --mem-per-cpu=2G both set the job's "
                                              "memory"):
        SlurmLauncherSettings(memory_mb=4096, extra_options=["--mem-per-cpu=2G"])


def test_a_stage_command_is_an_argument_list_never_a_shell_string(tmp_path):
    with pytest.raises(ValueError, match="argv must be a non-empty list of strings"):
        StageLaunch("rollouts", "python -m gym_pipeline.cli collect", tmp_path)
    with pytest.raises(ValueError, match="stage name"):
        StageLaunch("../escape", ["true"], tmp_path)
