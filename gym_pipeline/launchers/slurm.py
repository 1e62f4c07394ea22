"""A stage as a Slurm batch job: `sbatch`, polled with `squeue`, `scancel` on teardown.

We generate a small batch script (`logs/<stage>.sbatch`) that runs the argv and writes its exit code to
`logs/<stage>.exit_code`; the job's stdout/stderr go to the stage log. Without accounting, a finished
job vanishes from `squeue` after MinJobAge: the poller then takes the result from the exit-code file,
waiting a bounded grace for it (a shared file system may show it late), never forever. The job gets our
environment plus `launch.env` (sbatch --export=ALL), so the stage runs with the same venv on the nodes.
"""

from __future__ import annotations

import logging
import os
import re
import shlex
import subprocess
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from gym_pipeline.diagnose.vocabulary import signal_name
from gym_pipeline.host import read_log_tail
from gym_pipeline.launchers.base import Launcher, LauncherUnavailableError, RunningStage, StageLaunch
from gym_pipeline.launchers.state import LauncherState

log = logging.getLogger(__name__)

_COMMAND_TIMEOUT_S = 60  # sbatch/squeue/scancel against a busy controller
# squeue -t all shows these while the job may still run; any other state is final.
_ACTIVE_STATES = {"PENDING", "CONFIGURING", "RUNNING", "COMPLETING", "SUSPENDED", "REQUEUED", "RESIZING",
                  "REQUEUE_FED", "REQUEUE_HOLD", "SIGNALING", "STAGE_OUT", "STOPPED", "RESV_DEL_HOLD"}
# What slurmstepd writes into the job's output when it kills a step over its memory limit
# (jobacct_gather's OverMemoryKill, or the cgroup OOM killer).
_OOM_LOG_LINES = re.compile(r"^slurmstepd.*(exceeded (job )?memory limit|oom[-_ ]kill)", re.IGNORECASE | re.MULTILINE)


@dataclass(frozen=True)
class _QueueView:
    state: str | None  # None: the job has left the queue
    reason: str | None = None
    nodes: str | None = None


class SlurmLauncher(Launcher):
    """Submits the stage with `sbatch --parsable` and the settings' options; needs the Slurm clients on
    PATH and SLURM_CONF (or the default config) pointing at the cluster.

    Teardown: `scancel` (Slurm sends SIGTERM, then SIGKILL after its KillWait), then wait until the job
    has left the running states, at most `cancel_timeout_s`.
    """

    kind = "slurm"

    def __init__(
        self,
        partition: str | None = None,
        time_limit: str | None = None,
        cpus_per_task: int | None = None,
        memory_mb: int | None = None,
        gres: str | None = None,
        account: str | None = None,
        extra_options: Sequence[str] = (),
        poll_interval_s: float = 1.0,
        exit_file_grace_s: float = 30.0,
        cancel_timeout_s: float = 60.0,
    ):
        # The grace period between scancel's SIGTERM and SIGKILL is the cluster's KillWait, not ours.
        super().__init__(poll_interval_s=poll_interval_s)
        self.partition = partition
        self.time_limit = time_limit
        self.cpus_per_task = cpus_per_task
        self.memory_mb = memory_mb
        self.gres = gres
        self.account = account
        self.extra_options = tuple(extra_options)
        self.exit_file_grace_s = exit_file_grace_s
        self.cancel_timeout_s = cancel_timeout_s

    def prepare(self, launch: StageLaunch, state: LauncherState) -> RunningStage:
        # the limits an OUT_OF_MEMORY or TIMEOUT is measured against, for the diagnosis
        state.memory_mb, state.time_limit = self.memory_limit(launch), self.time_limit_of(launch)
        return _SlurmJob(launch, state, self)

    def memory_limit(self, launch: StageLaunch) -> int | None:
        resources = launch.resources
        return resources.memory_mb if resources and resources.memory_mb is not None else self.memory_mb

    def time_limit_of(self, launch: StageLaunch) -> str | None:
        resources = launch.resources
        return resources.time_limit if resources and resources.time_limit else self.time_limit

    def sbatch_options(self, launch: StageLaunch) -> list[str]:
        """The resource and placement options for the stage (its per-stage resources win)."""
        resources = launch.resources
        cpus = resources.cpus if resources and resources.cpus is not None else self.cpus_per_task
        memory_mb = self.memory_limit(launch)
        time_limit = self.time_limit_of(launch)
        gres = self.gres
        if resources and resources.gpus:
            gres = f"gpu:{resources.gpus}"
        options = []
        for flag, value in (("--partition", self.partition), ("--time", time_limit), ("--account", self.account),
                            ("--cpus-per-task", None if cpus is None else max(1, round(cpus))),
                            ("--mem", None if memory_mb is None else f"{memory_mb}M"), ("--gres", gres)):
            if value is not None:
                options.append(f"{flag}={value}")
        return [*options, *self.extra_options]


def batch_script(launch: StageLaunch, exit_file: Path) -> str:
    """The job's script. The only place a shell sees the stage's data: every argument is shlex-quoted."""
    partial = exit_file.with_name(exit_file.name + ".partial")
    return "\n".join([
        "#!/bin/bash",
        f"# Generated by gym_pipeline's Slurm launcher for stage {launch.stage}:",
        "# run the stage's command, then record its exit code (written, then renamed: never read half-written).",
        f"cd {shlex.quote(str(launch.workdir))} || exit 1",
        shlex.join(launch.argv),
        "code=$?",
        f'echo "$code" > {shlex.quote(str(partial))} && mv {shlex.quote(str(partial))} {shlex.quote(str(exit_file))}',
        'exit "$code"',
        "",
    ])


class _SlurmJob(RunningStage):
    def __init__(self, launch: StageLaunch, state: LauncherState, launcher: SlurmLauncher):
        super().__init__(launch, state)
        self.launcher = launcher
        # Named before submission: an interrupt while sbatch runs can still cancel the job by name.
        self.job_name = f"gym-pipeline-{launch.stage}-{uuid.uuid4().hex[:12]}"
        self.job_id: str | None = None
        logs = launch.run_dir / "logs"
        self.script = logs / f"{launch.stage}.sbatch"
        self.exit_file = logs / f"{launch.stage}.exit_code"
        self._left_queue_at: float | None = None

    def start(self) -> None:
        self.exit_file.unlink(missing_ok=True)
        self.script.write_text(batch_script(self.launch, self.exit_file), encoding="utf-8")
        log_file = str(self.launch.log_path)
        argv = ["sbatch", "--parsable", f"--job-name={self.job_name}", f"--output={log_file}", f"--error={log_file}",
                "--open-mode=append", f"--chdir={self.launch.workdir}", "--export=ALL",
                *self.launcher.sbatch_options(self.launch), str(self.script)]
        result = _slurm_command(argv, env={**os.environ, **self.launch.env})
        if result.returncode != 0:
            raise LauncherUnavailableError(
                f"sbatch refused stage {self.launch.stage!r} (exit {result.returncode}): "
                f"{self.launch.mask(result.stderr.strip())}")
        self.job_id = result.stdout.strip().split(";")[0]
        self.state.slurm_job_id = self.job_id

    def poll(self) -> bool:
        if self.job_id is None:
            return False
        view = self._queue_view()
        if view.nodes:
            self.state.slurm_nodes = view.nodes
        if view.state is not None:
            self.state.slurm_state, self.state.slurm_reason = view.state, view.reason
            if view.state.split()[0] in _ACTIVE_STATES:
                return False
            self._record_final()
            return True
        # Gone from the queue before we saw its final state (MinJobAge passed between two polls).
        self._left_queue_at = self._left_queue_at or time.monotonic()
        if self.exit_file.exists() or time.monotonic() - self._left_queue_at > self.launcher.exit_file_grace_s:
            # Slurm's verdict is lost (the state last seen was not final): the exit-code file decides.
            self.state.slurm_state = None
            self.state.slurm_reason = "left the queue before its final state was read"
            if not self.exit_file.exists():
                self.state.slurm_reason += f", and no exit code was written in {self.launcher.exit_file_grace_s:g} s"
            self._record_final()
            return True
        return False

    def stop(self) -> None:
        argv = ["scancel", self.job_id] if self.job_id else ["scancel", f"--name={self.job_name}"]
        _slurm_command(argv)
        deadline = time.monotonic() + self.launcher.cancel_timeout_s
        while self.job_id and not self.poll():
            if time.monotonic() > deadline:
                log.warning("Slurm job %s is still %s %g s after scancel", self.job_id, self.state.slurm_state,
                            self.launcher.cancel_timeout_s)
                break
            time.sleep(self.launcher.poll_interval_s)
        self.ended = True

    def release(self) -> None:
        """Nothing to free: Slurm purges a finished job itself (the script and exit file stay as evidence)."""

    def _queue_view(self) -> _QueueView:
        result = _slurm_command(["squeue", "-h", "-t", "all", "-j", str(self.job_id), "-o", "%T|%r|%N"])
        if result.returncode != 0:
            if "Invalid job id" in result.stderr:
                return _QueueView(None)
            raise LauncherUnavailableError(f"squeue failed (exit {result.returncode}): {result.stderr.strip()}")
        line = result.stdout.strip()
        if not line:
            return _QueueView(None)
        state, reason, nodes = (line.splitlines()[0].split("|") + ["", ""])[:3]
        return _QueueView(state, reason if reason not in ("", "None") else None, nodes or None)

    def _record_final(self) -> None:
        """Exit code and signal from `scontrol show job` while Slurm still knows the job, else from our file."""
        self.ended = True
        details = self._scontrol_details()
        if "ExitCode" in details:
            code, _, signum = details["ExitCode"].partition(":")
            self.state.exit_code = int(code)
            if signum.isdigit() and int(signum) > 0:
                self.state.signal = signal_name(int(signum))
                if self.state.exit_code == 0:  # Slurm's `0:9`: no exit of its own; a shell would say 128 + 9
                    self.state.exit_code = 128 + int(signum)
        if details.get("Reason") not in (None, "None"):
            self.state.slurm_reason = details["Reason"]
        code_from_file = self._exit_code_from_file()
        if code_from_file is not None:  # the script's own record of the command's exit
            self.state.exit_code = code_from_file
        oom_in_log = bool(_OOM_LOG_LINES.search(read_log_tail(self.launch.log_path, lines=50)))
        if self.state.slurm_state == "OUT_OF_MEMORY" or oom_in_log:
            self.state.oom_killed = True

    def _exit_code_from_file(self) -> int | None:
        try:
            return int(self.exit_file.read_text(encoding="utf-8").strip())
        except (FileNotFoundError, ValueError):  # killed before the script could write it
            return None

    def _scontrol_details(self) -> dict[str, str]:
        result = _slurm_command(["scontrol", "show", "job", "-o", str(self.job_id)])
        if result.returncode != 0:
            return {}
        return dict(re.findall(r"(\w+)=(\S*)", result.stdout))


def _slurm_command(argv: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(argv, env=env, capture_output=True, text=True, timeout=_COMMAND_TIMEOUT_S,
                              stdin=subprocess.DEVNULL)
    except FileNotFoundError as error:
        raise LauncherUnavailableError(
            f"{argv[0]} not found: install Slurm's clients, or for development run "
            "`bash scripts/dev-services.sh up slurm` and export what it prints") from error
