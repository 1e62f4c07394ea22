"""`gym-pipeline tasks validate DIR`: each task's `solution/solve.sh` in place of the agent, like
`gym dataset validate`: a task passes when its own tests give the oracle's work a reward of 1.

Tasks that do not load are reported as skipped with their reason and the rest still run (Gym's validate does
not need `--skip-unloadable`). The run's files (`rollouts.jsonl`, the sidecar, `skipped.json`,
`rollouts_run_summary.json` and each episode's verifier output) go to the output folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gym_pipeline.core.formats import MATERIALIZED_INPUTS_FILE, ROLLOUTS_FILE, write_jsonl_atomic
from gym_pipeline.core.materialize import MaterializationSettings
from gym_pipeline.core.run_lock import run_directory_lock
from gym_pipeline.taskfolders import collect
from gym_pipeline.taskfolders.agents import ORACLE_AGENT, run_oracle
from gym_pipeline.taskfolders.episode import EpisodeSettings
from gym_pipeline.taskfolders.loader import load_taskset
from gym_pipeline.taskfolders.materialize import TasksNotLoadable, materialize_taskset

VALIDATION_STAGE = "tasks_validate"
_REPORTED_STATUS = {collect.PASSED: "passed", collect.SKIPPED: "skipped"}  # anything else is a failure


def validate_taskset(tasks_dir: Path, output_dir: Path, concurrency: int = 2,
                     host_allows_internet: bool = False) -> dict[str, Any]:
    """The report `--json` prints: `{"tasks": [{"task", "status", "reward", "failure_kind", "reason"}]}`.
    Raises `TaskLoadError` for a folder that is not a taskset (or a single task that does not load)."""
    taskset = load_taskset(tasks_dir)
    output_dir = Path(output_dir).resolve()
    output_dir.mkdir(parents=True, exist_ok=True)
    rows = materialize_taskset(taskset, MaterializationSettings(num_repeats=1, agent=ORACLE_AGENT))
    settings = collect.TaskRunSettings(concurrency=concurrency, skip_unloadable=True,
                                       episode=EpisodeSettings(host_allows_internet=host_allows_internet,
                                                               run_dir=output_dir))
    rollouts = output_dir / ROLLOUTS_FILE
    write_jsonl_atomic(output_dir / MATERIALIZED_INPUTS_FILE, rows)  # the folder reads as any run's
    with run_directory_lock(output_dir, VALIDATION_STAGE):
        try:
            collect.run_tasks(rows, taskset, lambda row: run_oracle, rollouts, settings, agent_name=ORACLE_AGENT)
        except (collect.NoResultError, TasksNotLoadable):
            pass  # every task is in the summary with its reason
    summary = collect.read_summary(collect.run_summary_path(rollouts))
    reported = [_reported(entry) for entry in summary["tasks"]]
    listed = {entry["task"] for entry in reported}
    # a task that does not load has no row at all: it is reported from skipped.json
    reported += [{"task": task_id, "status": "skipped", "reward": None, "failure_kind": None, "reason": reason}
                 for task_id, reason in sorted(summary["skipped"].items()) if task_id not in listed]
    return {"taskset": str(taskset.root), "output_dir": str(output_dir),
            "tasks": sorted(reported, key=lambda entry: entry["task"])}


def _reported(entry: dict[str, Any]) -> dict[str, Any]:
    status = _REPORTED_STATUS.get(entry["status"], "failed")
    reason = entry["failure_reason"] or (entry["failure"] or {}).get("message")
    if status == "failed" and reason is None:
        reason = f"the oracle's reward is {entry['reward']}, not 1 (see {entry['verifier_log_dir']}/test-stdout.txt)"
    return {"task": entry["task"], "status": status, "reward": entry["reward"], "failure_kind": entry["failure_kind"],
            "reason": reason}


def all_passed(report: dict[str, Any]) -> bool:
    return bool(report["tasks"]) and all(entry["status"] == "passed" for entry in report["tasks"])
