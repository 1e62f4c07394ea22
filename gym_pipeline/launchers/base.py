"""What every launcher shares: the stage to launch, the blocking run, the served stage, the records.

A launcher starts a stage's command (an argv list, never a shell string) somewhere — a local process,
a Docker container, a Slurm job — and
- captures its stdout/stderr into `<run_dir>/logs/<stage>.log`;
- records where it runs and how it ended in `logs/launcher.json` and `logs/launcher_<stage>.json`
  (the `LauncherState` format the diagnosis reads), when it starts and when it ends;
- raises `StageFailedError` naming the stage, the launcher, how it ended and the log's last lines;
- always tears down what it started when interrupted: Dagster terminates a run by signalling the run
  worker, which surfaces in the step as KeyboardInterrupt or DagsterExecutionInterruptedError (both
  BaseException), so teardown sits in `finally` blocks.

Secrets: the values of `StageLaunch.env` may be API keys. They reach the stage through its environment
only; records hold the variables' names (`env_names`), and every text we write or raise (the command,
errors, log tails) has those values masked. The stage's own output is its own: a stage that prints
its key puts it in its log.
"""

from __future__ import annotations

import logging
import os
import re
import shlex
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import ClassVar, Literal

from gym_pipeline.diagnose.evidence_line import redact
from gym_pipeline.host import EndedBeforeReady, NotReadyInTime, read_log_tail, wait_until_ready
from gym_pipeline.launchers.state import LAUNCHER_FILE, STOPPED_AFTER_SERVING, LauncherState, write_launcher_state

LauncherKind = Literal["local", "docker", "slurm"]

_STAGE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
_MIN_MASKED_CHARS = 4  # shorter values ("1", "on") are flags, not secrets, and masking them garbles text

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class StageResources:
    """What one stage asks for; a field left None falls back to the launcher's settings."""

    cpus: float | None = None
    memory_mb: int | None = None
    gpus: int | None = None
    time_limit: str | None = None  # Slurm's --time, e.g. "30" (minutes) or "02:00:00"


@dataclass(frozen=True)
class StageLaunch:
    """One stage to launch: its command and where it writes.

    `argv` is the command as a list (no shell parses it, except the Slurm batch script, which quotes
    every argument). `env` is added to the stage's environment (values may be secrets). `read_only_paths`
    are host paths the stage reads outside `run_dir` (a dataset, a checkpoint): containers mount them.
    """

    stage: str
    argv: Sequence[str]
    run_dir: Path
    env: Mapping[str, str] = field(default_factory=dict)
    resources: StageResources | None = None
    cwd: Path | None = None  # default: run_dir
    read_only_paths: Sequence[Path] = ()

    def __post_init__(self) -> None:
        if isinstance(self.argv, str | bytes) or not self.argv or not all(isinstance(a, str) for a in self.argv):
            raise ValueError(f"stage {self.stage!r}: argv must be a non-empty list of strings, not {self.argv!r}")
        if not _STAGE_NAME.match(self.stage):
            raise ValueError(f"stage name {self.stage!r} must be letters, digits, '_', '.' or '-' (it names files)")
        object.__setattr__(self, "argv", tuple(self.argv))
        # absolute, but symlinks kept: the stage names its paths the way the sweep config does (a runs folder linked
        # to scratch space), and a container mounts both that path and where it leads
        object.__setattr__(self, "run_dir", Path(os.path.abspath(self.run_dir)))
        object.__setattr__(self, "env", dict(self.env))
        object.__setattr__(self, "read_only_paths", tuple(Path(os.path.abspath(p)) for p in self.read_only_paths))

    @property
    def workdir(self) -> Path:
        return Path(self.cwd).resolve() if self.cwd else self.run_dir

    @property
    def log_path(self) -> Path:
        return self.run_dir / "logs" / f"{self.stage}.log"

    @property
    def state_file(self) -> str:
        return f"logs/launcher_{self.stage}.json"

    def with_env(self, extra: Mapping[str, str]) -> StageLaunch:
        return replace(self, env={**self.env, **extra})

    def mask(self, text: str) -> str:
        """`text` with every env value (and anything shaped like a key or token) hidden."""
        for value in sorted(self.env.values(), key=len, reverse=True):
            if len(value) >= _MIN_MASKED_CHARS:
                text = text.replace(value, "***")
        return redact(text)


class LauncherError(RuntimeError):
    """A stage could not be launched, failed, or never became ready."""


class LauncherUnavailableError(LauncherError):
    """The launcher cannot launch at all: no engine, no Slurm, a missing image, a refused submission."""


class StageFailedError(LauncherError):
    """The stage ended unsuccessfully; `state` says how, `log_tail` shows its last lines."""

    def __init__(self, launch: StageLaunch, state: LauncherState, headline: str | None = None):
        self.stage = launch.stage
        self.state = state
        self.log_path = launch.log_path
        self.headline = headline or f"stage {launch.stage!r} failed on the {state.launcher} launcher: " \
                                    f"{describe_end(state)}"
        self._mask = launch.mask
        super().__init__(self.headline)

    @property
    def log_tail(self) -> str:
        # Read when shown, not when raised: until teardown a launcher may still be copying a container's last lines.
        return self._mask(read_log_tail(self.log_path))

    def __str__(self) -> str:
        tail = self.log_tail
        return f"{self.headline}. Last lines of {self.log_path}:" + (f"\n{tail}" if tail else " (empty)")


class StageNotReadyError(StageFailedError):
    """A served stage did not become ready in time (it has been stopped)."""


class RunningStage(ABC):
    """A stage a launcher has prepared: started, polled, stopped and released by `Launcher`.

    Implementations record what they learn (pid, container id, job id, exit code ...) into `state`.
    `start` must leave the handle able to `stop`/`release` whatever it created, even when interrupted.
    """

    def __init__(self, launch: StageLaunch, state: LauncherState):
        self.launch = launch
        self.state = state
        self.ended = False

    @abstractmethod
    def start(self) -> None: ...

    @abstractmethod
    def poll(self) -> bool:
        """True once the stage has ended (and its outcome is recorded in `state`)."""

    @abstractmethod
    def stop(self) -> None:
        """Stop it (politely, then by force after the grace period); returns once it is gone (bounded)."""

    @abstractmethod
    def release(self) -> None:
        """Free what is left once it ended or was stopped (a container); always called."""


class Launcher(ABC):
    """Runs stages somewhere. Subclasses provide `kind` and `prepare`."""

    kind: ClassVar[LauncherKind]

    def __init__(self, grace_period_s: float = 10.0, poll_interval_s: float = 0.5):
        self.grace_period_s = grace_period_s
        self.poll_interval_s = poll_interval_s

    @abstractmethod
    def prepare(self, launch: StageLaunch, state: LauncherState) -> RunningStage:
        """A handle for the stage, not started yet (no side effects)."""

    def run(self, launch: StageLaunch) -> LauncherState:
        """Run the stage to its end; its state, or StageFailedError. Interrupts stop it before propagating."""
        with self._launched(launch, (LAUNCHER_FILE, launch.state_file)) as (stage, state):
            while not stage.poll():
                time.sleep(self.poll_interval_s)
        if stage_failed(state):
            raise StageFailedError(launch, state)
        return state

    @contextmanager
    def serve(self, launch: StageLaunch, ready: Callable[[], bool], timeout_s: float) -> Iterator[LauncherState]:
        """Start a long-running stage (a model server), wait until `ready()`, yield, stop it on exit.

        Raises StageNotReadyError when `ready()` is still false after `timeout_s`, StageFailedError when
        the stage ends before it is ready; the server is stopped in every case. Records go to
        `logs/launcher_<stage>.json` only (a server runs beside the stages that own `logs/launcher.json`).
        """
        with self._launched(launch, (launch.state_file,)) as (stage, state):
            try:
                wait_until_ready(ready, timeout_s, self.poll_interval_s, ended=stage.poll)
            except EndedBeforeReady:
                raise StageFailedError(launch, state, f"stage {launch.stage!r} on the {self.kind} launcher "
                                                      f"ended before it was ready: {describe_end(state)}") from None
            except NotReadyInTime:
                raise StageNotReadyError(launch, state, f"stage {launch.stage!r} on the {self.kind} launcher "
                                                        f"was not ready after {timeout_s:g} s") from None
            try:
                yield state
            except Exception as error:
                if stage.poll():  # the server ended on its own while in use: most likely why the block failed
                    error.add_note(f"stage {launch.stage!r} on the {self.kind} launcher ended while in use: "
                                   f"{describe_end(state)}; its log: {launch.log_path}")
                raise
            if stage.poll():
                log.warning("stage %r on the %s launcher ended while in use: %s; its log: %s", launch.stage, self.kind,
                            describe_end(state), launch.log_path)
            else:
                stage.stop()
                # Stopped on purpose once no longer needed: how it ended (a signal, CANCELLED) would read as a failure.
                state.exit_code = state.signal = state.slurm_state = state.slurm_reason = None
                state.stopped_by_launcher = STOPPED_AFTER_SERVING

    @contextmanager
    def _launched(self, launch: StageLaunch, files: tuple[str, ...]) -> Iterator[tuple[RunningStage, LauncherState]]:
        """Start the stage and record it; on the way out stop it if still running, release it, record its end."""
        launch.log_path.parent.mkdir(parents=True, exist_ok=True)
        launch.log_path.write_bytes(b"")  # a relaunch starts a fresh log: old errors would mislead the diagnosis
        state = LauncherState(
            launcher=self.kind, stage=launch.stage, started_at=_now(),
            command=launch.mask(shlex.join(launch.argv)), env_names=sorted(launch.env),
            log=str(launch.log_path.relative_to(launch.run_dir)),
        )
        stage = self.prepare(launch, state)
        _record(launch, state, files)
        started = refused = False
        in_flight: BaseException | None = None
        try:
            try:
                stage.start()
            except OSError as error:  # no such program or workdir; the batch script or log not writable (EACCES, ENOSPC)
                raise LauncherUnavailableError(f"cannot start stage {launch.stage!r} on the {self.kind} launcher: "
                                               f"{error}") from error
            started = True
            _record(launch, state, files)
            yield stage, state
        except BaseException as error:
            in_flight = error
            # An error (not an interrupt) before the stage started: the launch itself was refused.
            refused = not started and isinstance(error, Exception)
            if refused:
                state.launch_error = launch.mask(f"{type(error).__name__}: {error}")
            raise
        finally:
            try:
                if not stage.ended:
                    if in_flight is not None and not refused:
                        # KeyboardInterrupt, DagsterExecutionInterruptedError, StageNotReadyError ...
                        state.stopped_by_launcher = type(in_flight).__name__
                    stage.stop()
                stage.release()
            except Exception:
                if in_flight is None:
                    raise
                # Keep the interrupt (or the stage's error) as what propagates; the teardown error is logged.
                log.exception("tearing down stage %r on the %s launcher failed", launch.stage, self.kind)
            finally:
                state.ended_at = _now()
                _record(launch, state, files)


def stage_failed(state: LauncherState) -> bool:
    if state.oom_killed or state.signal is not None:
        return True
    if state.slurm_state is not None and state.slurm_state.split()[0] != "COMPLETED":
        return True
    return state.exit_code != 0


def describe_end(state: LauncherState) -> str:
    """'container 3f2a9c01d2e4 ran out of memory (OOM killed), exited with code 137', for errors."""
    parts = []
    if state.slurm_state:
        reason = f" (reason: {state.slurm_reason})" if state.slurm_reason not in (None, "None") else ""
        parts.append(f"ended in state {state.slurm_state}{reason}")
    elif state.slurm_reason:
        parts.append(state.slurm_reason)
    if state.oom_killed:
        parts.append("ran out of memory (OOM killed)")
    if state.signal is not None:
        parts.append(f"was killed by {state.signal}")
    if state.exit_code is not None:
        parts.append(f"exited with code {state.exit_code}")
    elif not parts:
        parts.append("ended without an exit code")
    return f"{_where(state)} {', '.join(parts)}"


def _where(state: LauncherState) -> str:
    if state.launcher == "slurm":
        return f"Slurm job {state.slurm_job_id or '(not submitted)'}"
    if state.launcher == "docker":
        return f"container {(state.container_id or '(not created)')[:12]}"
    return f"process {state.pid or '(not started)'}"


def _record(launch: StageLaunch, state: LauncherState, files: tuple[str, ...]) -> None:
    for name in files:
        write_launcher_state(launch.run_dir, state, name)


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
