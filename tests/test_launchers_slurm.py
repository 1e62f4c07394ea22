"""The Slurm launcher against the real single-node Slurm started by `scripts/dev-services.sh up slurm`.

That Slurm has no cgroups: `--mem` is enforced by jobacct_gather's OverMemoryKill, which kills the step
and leaves the job FAILED (signal 9) with slurmstepd's "exceeded memory limit" in the job's output;
the launcher reports that as OOM. Each test ends with no job in the queue and no process of its stage.
"""

import subprocess

import pytest
from launcher_support import (
    MEMORY_HOG,
    SLEEPER,
    answers,
    http_server_launch,
    interrupt_main_when,
    materialize_launch,
    materialize_through_pipes,
    new_marker,
    processes_with,
    python_launch,
    record,
    sleeper_child_runs,
    slurm_cluster,
    wait_for,
)

from gym_pipeline.launchers.base import LauncherUnavailableError, StageFailedError, StageResources
from gym_pipeline.launchers.slurm import SlurmLauncher

pytestmark = pytest.mark.integration  # needs the real one-node Slurm


def squeue(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["squeue", "-h", *args], capture_output=True, text=True, timeout=30)


@pytest.fixture(scope="module")
def cluster() -> None:
    slurm_cluster()


@pytest.fixture
def launcher(cluster) -> SlurmLauncher:
    return SlurmLauncher(poll_interval_s=0.3, exit_file_grace_s=10, cancel_timeout_s=60)


def assert_job_gone(job_id: str) -> None:
    listed = squeue("-j", job_id, "-o", "%i %T")  # pending, running or completing; an unknown id fails
    assert listed.stdout.strip() == "", f"job {job_id} still queued: {listed.stdout}"


def test_a_stage_runs_as_a_job_and_writes_into_the_run_directory(tmp_path, launcher):
    state = launcher.run(materialize_launch(tmp_path))

    assert state.exit_code == 0 and state.slurm_state == "COMPLETED" and state.slurm_job_id
    assert (tmp_path / "rollouts_materialized_inputs.jsonl").stat().st_size > 0
    assert "wrote 174 rows" in (tmp_path / "logs" / "materialize.log").read_text()
    assert record(tmp_path)["slurm_job_id"] == state.slurm_job_id
    assert_job_gone(state.slurm_job_id)


def test_a_failing_job_raises_with_its_state_exit_code_and_log(tmp_path, launcher):
    launch = python_launch("collect", "print('connecting to the policy'); raise SystemExit(3)", tmp_path)
    with pytest.raises(StageFailedError) as failure:
        launcher.run(launch)

    message = str(failure.value)
    assert "stage 'collect' failed on the slurm launcher: Slurm job" in message
    assert "ended in state FAILED" in message and "exited with code 3" in message
    assert "connecting to the policy" in message
    recorded = record(tmp_path)
    assert recorded["slurm_state"] == "FAILED" and recorded["exit_code"] == 3
    assert_job_gone(recorded["slurm_job_id"])


def test_a_job_over_its_memory_limit_is_reported_oom_killed(tmp_path, launcher):
    launch = python_launch("profile", MEMORY_HOG, tmp_path, resources=StageResources(memory_mb=150))
    with pytest.raises(StageFailedError, match=r"ran out of memory \(OOM killed\)"):
        launcher.run(launch)

    recorded = record(tmp_path)
    assert recorded["oom_killed"] is True and recorded["signal"] == "SIGKILL"
    assert recorded["exit_code"] == 137  # Slurm's `0:9` read as a shell would, not "killed by SIGKILL, exit 0"
    assert "no limit stopped me" not in (tmp_path / "logs" / "profile.log").read_text()
    assert_job_gone(recorded["slurm_job_id"])


def test_an_interrupted_run_cancels_its_job(tmp_path, launcher):
    marker = new_marker()
    interrupt_main_when(lambda: sleeper_child_runs(marker))
    with pytest.raises(KeyboardInterrupt):
        launcher.run(python_launch("rollouts", SLEEPER, tmp_path, marker))

    recorded = record(tmp_path)
    assert recorded["slurm_state"].startswith("CANCELLED")
    assert recorded["stopped_by_launcher"] == "KeyboardInterrupt"
    assert_job_gone(recorded["slurm_job_id"])
    assert processes_with(marker) == []


def test_a_job_reports_to_dagster_through_pipes(tmp_path, launcher):
    metadata = materialize_through_pipes(launcher, tmp_path)

    assert metadata["rows"].value == 3
    assert metadata["launcher"].value == "slurm" and metadata["slurm_state"].value == "COMPLETED"


def test_a_refused_submission_names_sbatch_and_its_error(tmp_path, cluster):
    launch = python_launch("collect", "print(1)", tmp_path)
    with pytest.raises(LauncherUnavailableError, match="sbatch refused stage 'collect'.*partition"):
        SlurmLauncher(partition="no_such_partition").run(launch)

    assert record(tmp_path)["launch_error"].startswith("LauncherUnavailableError: sbatch refused")


def test_a_batch_script_that_cannot_be_written_is_a_clear_launch_error(tmp_path, launcher):
    (tmp_path / "logs" / "collect.sbatch").mkdir(parents=True)  # in the way, as a full or read-only disk would be
    with pytest.raises(LauncherUnavailableError,
                       match=r"cannot start stage 'collect' on the slurm launcher: \[Errno 21\] Is a directory: .*collect\.sbatch"):
        launcher.run(python_launch("collect", "print(1)", tmp_path))

    assert record(tmp_path)["launch_error"].startswith("LauncherUnavailableError: cannot start stage 'collect'")


class PollingAfterPurgeLauncher(SlurmLauncher):
    """Polls its job only once Slurm has forgotten it (MinJobAge after it ended), like a poller that slept."""

    def prepare(self, launch, state):
        job = super().prepare(launch, state)
        first_poll = job.poll

        def purged() -> bool:
            return "Invalid job id" in squeue("-t", "all", "-j", str(job.job_id)).stderr

        def poll_once_purged() -> bool:
            assert job.job_id and wait_for(purged, 120), "Slurm kept the job for 2 minutes"
            return first_poll()

        job.poll = poll_once_purged
        return job


def test_a_job_that_left_the_queue_is_read_from_its_exit_file(tmp_path, cluster):
    state = PollingAfterPurgeLauncher(exit_file_grace_s=10).run(python_launch("quick", "print('done')", tmp_path))

    assert state.exit_code == 0 and state.slurm_state is None
    assert state.slurm_reason == "left the queue before its final state was read"
    assert record(tmp_path)["exit_code"] == 0


def test_a_served_model_server_answers_until_the_block_ends(tmp_path, launcher):
    launch, url = http_server_launch(tmp_path)
    with launcher.serve(launch, ready=lambda: answers(url), timeout_s=60) as state:
        assert answers(url)

    assert not answers(url)
    assert_job_gone(state.slurm_job_id)
    recorded = record(tmp_path, "model_server")
    assert recorded["stopped_by_launcher"] == "after serving" and "exit_code" not in recorded
