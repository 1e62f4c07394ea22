"""Launcher state, read the way an engineer would: where a stage ran and how it ended.

The format (`LauncherState`, `logs/launcher.json` and `logs/launcher_<stage>.json`) belongs to the
launchers, which write it: see gym_pipeline/launchers/state.py. Here it is found, read and judged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import orjson
from pydantic import ValidationError

from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.vocabulary import (
    CONFIG,
    CONTAINER_EXIT_CODES,
    INFRA,
    MODEL_SERVING,
    SIGNAL_MEANINGS,
    SLURM_REQUEST_REASONS,
    SLURM_STATES,
    THROUGHPUT_RESOURCES,
    exit_signal,
    signal_name,
)
from gym_pipeline.launchers.state import LAUNCHER_FILE, STOPPED_AFTER_SERVING, LauncherState

LAUNCHER_GLOB = "launcher*.json"


MODEL_SERVER_STAGE = "model_server"  # the stage name launchers give a model server (logs/launcher_model_server.json)
NOT_READY = "StageNotReadyError"  # `stopped_by_launcher` of a server stopped at its startup timeout


def slurm_reason_name(state: LauncherState) -> str:
    """The reason's first word (`PartitionConfig`), or ""."""
    return (state.slurm_reason or "").split(" ", 1)[0]


@dataclass(frozen=True)
class Outcome:
    """What a launcher state says happened to the stage."""

    failed: bool
    summary: str  # "Slurm job 81234 ran out of memory"
    cause: str
    category: str = INFRA
    # The stage's process exited non-zero by itself: its own error (in its log) is the cause, this only the effect.
    own_failure: bool = False
    # Killed by a signal that nothing on record explains (no OOM flag, no Slurm verdict): who sent it is unknown.
    unexplained_kill: bool = False


@dataclass
class LauncherRecord:
    file: str
    state: LauncherState | None
    error: str | None  # why the file could not be read as a launcher state
    lines: dict[str, int]  # the line of each key, for evidence

    def evidence(self, *keys: str) -> EvidenceLine:
        """The file's line of the first key present, quoting the keys that explain the outcome."""
        assert self.state is not None
        values = {k: getattr(self.state, k) for k in keys if getattr(self.state, k) is not None}
        line = next((self.lines[k] for k in values if k in self.lines), None)
        text = ", ".join(f"{k}={v}" for k, v in values.items()) or f"launcher={self.state.launcher}"
        return EvidenceLine(file=self.file, line=line, text=text)


def find_launcher_files(run_dir: Path) -> list[Path]:
    folders = [run_dir, run_dir / "logs"]
    return sorted({p for folder in folders if folder.is_dir() for p in folder.glob(LAUNCHER_GLOB) if p.is_file()})


def read_launcher_states(run_dir: Path | None) -> list[LauncherRecord]:
    """Every launcher file's state, once per stage run: `logs/launcher.json` repeats the latest stage's own file."""
    if run_dir is None or not run_dir.is_dir():
        return []
    records: list[LauncherRecord] = []
    for path in find_launcher_files(run_dir):
        text = path.read_text(encoding="utf-8", errors="replace")
        lines = {}
        for number, line in enumerate(text.splitlines(), start=1):
            key = line.strip().split(":", 1)[0].strip('"{ ')
            lines.setdefault(key, number)
        rel = str(path.relative_to(run_dir))
        try:
            records.append(LauncherRecord(rel, LauncherState.model_validate(orjson.loads(text)), None, lines))
        except (orjson.JSONDecodeError, ValidationError) as error:
            records.append(LauncherRecord(rel, None, str(error).splitlines()[0], lines))
    stage_files = {r.state.model_dump_json() for r in records if r.state and Path(r.file).name != Path(LAUNCHER_FILE).name}
    return [r for r in records
            if not (r.state and Path(r.file).name == Path(LAUNCHER_FILE).name and r.state.model_dump_json() in stage_files)]


def stopped_after_serving(state: LauncherState) -> bool:
    return state.stopped_by_launcher == STOPPED_AFTER_SERVING


def served_and_stopped(records: list[LauncherRecord]) -> tuple[set[str], set[str]]:
    """The Slurm job ids and the log files of servers the launcher stopped on purpose: their cancellation is
    the launcher's doing, not the run's problem."""
    states = [r.state for r in records if r.state and stopped_after_serving(r.state)]
    return {str(s.slurm_job_id) for s in states if s.slurm_job_id}, {s.log for s in states if s.log}


def outcome(state: LauncherState) -> Outcome:
    """Read a state the way an engineer would: Slurm's verdict first, then OOM, a signal, the exit code."""
    who = _who(state)
    if stopped_after_serving(state):
        return Outcome(False, f"{who} served its stage and was stopped", "the launcher stopped it once it was not needed")
    if state.stopped_by_launcher == NOT_READY:
        serving = state.stage == MODEL_SERVER_STAGE
        return Outcome(True, f"{who} never became ready, and the launcher stopped it at its startup timeout",
                       "the server did not answer as ready in time (still loading, or failing at start: its log says "
                       "which)", MODEL_SERVING if serving else INFRA)
    if state.launch_error:
        refusal = state.launch_error.split(": ", 1)[-1].splitlines()[0]
        # a request written wrong (an option's value or format) is the settings'; a host or cluster that cannot
        # take it (no client, no controller, no such partition or image) is infrastructure
        wrong_request = _INVALID_REQUEST.search(state.launch_error)
        return Outcome(True, f"{who} was never started: the {state.launcher} launcher refused it ({refusal})",
                       f"the launch itself failed ({state.launch_error}); nothing of the stage ran"
                       + ("; the launcher's settings ask for something in a form it does not accept"
                          if wrong_request else ""),
                       CONFIG if wrong_request else INFRA)
    if state.oom_killed:  # before Slurm's verdict: without cgroups Slurm calls an over-memory kill only FAILED
        return Outcome(True, f"{who} was killed for running out of memory",
                       "the kernel's OOM killer ended it: the stage used more memory than the container or host allows",
                       THROUGHPUT_RESOURCES)
    if state.launcher == "slurm" and state.slurm_state:
        base = state.slurm_state.split()[0].rstrip("+").upper()
        known = SLURM_STATES.get(base)
        reason = f" (reason: {state.slurm_reason})" if state.slurm_reason else ""
        if known is None:
            return Outcome(True, f"{who} ended in state {state.slurm_state}{reason}", "Slurm reports a state this "
                           "diagnosis does not know; read `sacct` for its meaning")
        if asked := SLURM_REQUEST_REASONS.get(slurm_reason_name(state)):
            return Outcome(True, f"{who} {known.summary}{reason}: it asked for more than it may have",
                           f"{asked[0]}, so it could never start", CONFIG)
        # a cancel that neither Slurm nor the launcher explains: someone's scancel
        unexplained = base == "CANCELLED" and not state.slurm_reason and not state.stopped_by_launcher
        return Outcome(known.failed, f"{who} {known.summary}{reason}", known.cause + reason, known.category,
                       known.own_failure, unexplained_kill=unexplained)
    killed_by = signal_name(state.signal) or exit_signal(state.exit_code)
    if killed_by:
        meaning = SIGNAL_MEANINGS.get(killed_by, "ended by a signal")
        return Outcome(True, f"{who} was killed by {killed_by}", meaning, unexplained_kill=True)
    if state.exit_code is None:
        running = state.ended_at is None
        return Outcome(False, f"{who} {'is still running' if running else 'ended without an exit code'}",
                       "no exit recorded")
    if state.exit_code == 0:
        return Outcome(False, f"{who} exited with code 0", "the stage ended normally")
    if state.launcher == "docker" and state.exit_code in CONTAINER_EXIT_CODES:
        category = CONFIG if state.exit_code in (126, 127) else INFRA
        return Outcome(True, f"{who} exited with code {state.exit_code}", CONTAINER_EXIT_CODES[state.exit_code],
                       category)
    return Outcome(True, f"{who} exited with code {state.exit_code}",
                   "the stage's own process failed; its log says why", own_failure=True)


_INVALID_REQUEST = re.compile(
    r"invalid (?:--[\w-]+|generic resource(?: \(gres\))?|gres|time|mem\w*|cpus?\w*|nodes?|ntasks\w*|"
    r"tres\w*|constraint|feature)\s+specification|unrecognized option|invalid option|unknown option"
    r"|requested reservation is invalid|invalid reservation|invalid qos|invalid account"
    # options that cannot go together (`--mem`, `--mem-per-cpu` and `--mem-per-gpu`; `--ntasks` with `--ntasks-per-node`)
    r"|mutually exclusive|cannot be used together|conflicting options?", re.IGNORECASE)


def _who(state: LauncherState) -> str:
    stage = f" ({state.stage})" if state.stage else ""
    if state.launcher == "slurm":
        return f"Slurm job{_id(state.slurm_job_id)}{stage}"
    if state.launcher == "docker":
        return f"Container{_id(state.container_id and str(state.container_id)[:12])}{stage}"
    return f"Process{_id(state.pid)}{stage}"


def _id(value: object) -> str:
    return f" {value}" if value else ""
