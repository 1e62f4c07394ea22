"""Launcher state: where a stage ran and how it ended, as its launcher records it for the diagnosis.

Written by every launcher (local process, Docker container, Slurm job) with `write_launcher_state`,
read by the diagnosis (gym_pipeline/diagnose/launcher.py): one JSON object per stage, in
`logs/launcher.json`, or in `launcher*.json` (e.g. `logs/launcher_rollouts.json`) in the run folder or
its `logs/`:

    {"launcher": "local" | "docker" | "slurm", "stage": "rollouts",
     "pid": 4242, "exit_code": 137, "signal": "SIGKILL", "oom_killed": true,
     "container_id": "3f2a...", "slurm_job_id": "81234", "slurm_state": "OUT_OF_MEMORY",
     "slurm_reason": "...", "started_at": "2026-11-30T09:00:00Z", "ended_at": "2026-11-30T09:41:07Z"}

Only `launcher` is required; a stage still running has no `exit_code` and no `ended_at`.
`exit_code` is the process's (negative for a signal, as Python's subprocess reports it),
the container's (128+N for signal N), or the Slurm job's.

A leaf module: it imports nothing of the launchers' (no Docker SDK, no Dagster), so the diagnosis can
read the format without loading them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from gym_pipeline.core.formats import write_json_atomic

LAUNCHER_FILE = "logs/launcher.json"
# `stopped_by_launcher` of a server stopped on purpose once its stage no longer needed it: not a failure.
STOPPED_AFTER_SERVING = "after serving"


class LauncherState(BaseModel):
    model_config = ConfigDict(extra="allow")

    launcher: Literal["local", "docker", "slurm"]
    stage: str | None = None
    pid: int | None = None
    exit_code: int | None = None
    signal: int | str | None = None
    oom_killed: bool | None = None
    container_id: str | None = None
    slurm_job_id: str | int | None = None
    slurm_state: str | None = None
    slurm_reason: str | None = None
    started_at: str | None = None
    ended_at: str | None = None
    stopped_by_launcher: str | None = None  # why the launcher stopped it, e.g. STOPPED_AFTER_SERVING or an interrupt
    log: str | None = None  # the stage's output, relative to the run folder
    memory_mb: int | None = None  # the container's or job's memory limit, when the launcher set one
    time_limit: str | None = None  # the Slurm job's --time
    launch_error: str | None = None  # why the launcher refused to start the stage (sbatch, the Docker engine)


def write_launcher_state(run_dir: Path, state: LauncherState, name: str = LAUNCHER_FILE) -> Path:
    """Record a stage's launcher state in the run folder (atomically), for the diagnosis to read."""
    path = Path(run_dir) / name
    write_json_atomic(path, state.model_dump(mode="json", exclude_none=True), indent=True)
    return path


def launcher_metadata(state: LauncherState) -> dict[str, str | int]:
    """Where and how a stage ran, as metadata: `launcher` and `pid`, `container_id` or `slurm_job_id`."""
    keys = {"launcher", "pid", "container_id", "slurm_job_id", "slurm_state", "exit_code"}
    return state.model_dump(include=keys, exclude_none=True)
