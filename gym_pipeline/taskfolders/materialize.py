"""A taskset's materialized inputs: one row per task and repeat, with Gym's task and rollout indices.

Each task becomes one raw row (`task_id`, `task_path`, `task_digest`, and the instruction as the user message
of `responses_create_params`), expanded by Gym's own materialization (`core.materialize.materialize_rows`:
repeats, interleaving, agent routing, sampling overrides). `task_digest` covers the task folder and the
dataset settings that apply to it, so a row says exactly which version of its task it was made from: the
stale check compares it with the folder as it is now and names the task that changed, and an episode on a
row whose task changed refuses at seed with the seed's words.

Tasks that do not load are listed in `skipped.json` beside the inputs; materialization refuses them unless
`skip_unloadable` is set, as `gym eval run` refuses without `--skip-unloadable`.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import orjson

from gym_pipeline.core.fingerprint import file_digest
from gym_pipeline.core.formats import RESPONSES_CREATE_PARAMS, iter_jsonl_dicts, write_json_atomic, write_jsonl_atomic
from gym_pipeline.core.manifest import record_stage
from gym_pipeline.core.materialize import MATERIALIZED_INPUTS_STAGE, MaterializationSettings, materialize_rows
from gym_pipeline.core.staleness import StaleReport, TaskChanges
from gym_pipeline.taskfolders.loader import Taskset, load_taskset, taskset_digest

TASK_AGENT = "harbor_terminal_agent"  # the agent_ref of a task row: the terminal agent of `agents.py`
ENVIRONMENT_SERVER = "harbor_environment_server"  # as Gym names the server that runs task folders
SKIPPED_FILE = "skipped.json"
TASKSET_SOURCE_KIND = "taskset"  # `materialized_inputs.source.kind` in the manifest
TASK_ID, TASK_PATH, TASK_DIGEST = "task_id", "task_path", "task_digest"

log = logging.getLogger(__name__)


class TasksNotLoadable(ValueError):
    """Some tasks do not load and the environment does not allow running the rest."""


def refuse_unloadable(taskset: Taskset, skipped_path: Path, skip_unloadable: bool) -> None:
    """Write `skipped.json` (always) and refuse as Gym does when a task is missing from the run."""
    write_json_atomic(skipped_path, taskset.skipped, indent=True)
    if not taskset.tasks:
        raise TasksNotLoadable(f"No task under {taskset.root} loads; see {skipped_path}")
    if taskset.skipped and not skip_unloadable:
        raise TasksNotLoadable(
            f"{len(taskset.skipped)} task(s) could not load (see {skipped_path}). Use skip_unloadable: true (the "
            "environment's setting, like --skip-unloadable) to explicitly run only the loadable subset")


def raw_task_rows(taskset: Taskset) -> list[tuple[str, dict[str, Any]]]:
    """One raw row per loadable task, with the text Gym de-duplicates task indices by."""
    rows = []
    for task in taskset.tasks:
        row = {TASK_ID: task.task_id, TASK_PATH: str(task.path), TASK_DIGEST: task.digest,
               RESPONSES_CREATE_PARAMS: {"input": [{"role": "user", "content": task.instruction}]}}
        rows.append((orjson.dumps(row).decode(), row))
    return rows


def materialize_taskset(taskset: Taskset, settings: MaterializationSettings) -> list[dict[str, Any]]:
    raw = raw_task_rows(taskset)
    if settings.limit is not None:
        raw = raw[: settings.limit]
    return materialize_rows(raw, settings, taskset.root)


def materialize_taskset_and_record(tasks_dir: Path, output: Path, settings: MaterializationSettings,
                                   skip_unloadable: bool, code_version: str | None = None) -> dict[str, Any]:
    """Write the inputs (and `skipped.json`) and record the taskset's digest and its tasks' in the manifest.
    The caller holds the run directory's lock."""
    run_dir = Path(output).parent
    source_digest = taskset_digest(tasks_dir)
    taskset = load_taskset(tasks_dir)
    for warning in taskset.warnings:  # fields Harbor does not know, overrides of no task: said once, when materialized
        log.warning(warning)
    refuse_unloadable(taskset, run_dir / SKIPPED_FILE, skip_unloadable)
    rows = write_jsonl_atomic(output, materialize_taskset(taskset, settings))
    return record_stage(run_dir, MATERIALIZED_INPUTS_STAGE, {
        "source": {"path": str(taskset.root), "digest": source_digest, "kind": TASKSET_SOURCE_KIND,
                   "tasks": {task.task_id: task.digest for task in taskset.tasks}, "skipped": sorted(taskset.skipped)},
        "settings": settings.as_dict(),
        "settings_digest": settings.digest(),
        "code_version": code_version,
        "output": {"path": str(Path(output).resolve()), "digest": file_digest(output), "rows": rows},
    })


def taskset_report(materialized: Path, tasks_dir: Path, settings: MaterializationSettings,
                   recorded_source_digest: str | None, rebuild_command: str, moved: bool = False) -> StaleReport:
    """Do the inputs still match the task folders? Each changed task is named with the seed's words. `moved`: the
    taskset was found elsewhere than the rows say (a run folder copied off a machine), so `task_path` is not compared."""
    materialized = Path(materialized)
    taskset = load_taskset(tasks_dir)
    expected = materialize_taskset(taskset, settings)
    found = [row for _, row in iter_jsonl_dicts(materialized)] if materialized.exists() else []
    found_digests = {row.get(TASK_ID): row.get(TASK_DIGEST) for row in found}
    current = {task.task_id: task for task in taskset.tasks}
    changed = sorted(task_id for task_id, digest in found_digests.items()
                     if task_id in current and current[task_id].digest != digest)
    removed = sorted(task_id for task_id in found_digests if task_id not in current)
    added = sorted(task_id for task_id in current if task_id not in found_digests)
    reasons = [f"task {task_id}: Task folder {current[task_id].path} changed since materialization; "
               "re-materialize the taskset" for task_id in changed]
    reasons += [f"task {task_id} is gone or no longer loads" + (f" ({taskset.skipped[task_id]})"
                if task_id in taskset.skipped else "") for task_id in removed]
    reasons += [f"task {task_id} was added to the taskset" for task_id in added]
    if not materialized.exists():
        reasons = [f"{materialized} not found"]
    elif not reasons and _without_paths(found, moved) != _without_paths(expected, moved):
        reasons.append("the materialization settings (repeats, agent, sampling overrides...) changed")
    current_digest = taskset_digest(tasks_dir)
    return StaleReport(
        materialized=str(materialized), source=str(taskset.root), stale=bool(reasons), reasons=reasons, notes=[],
        current_source_digest=current_digest, recorded_source_digest=recorded_source_digest,
        rows_expected=len(expected), rows_found=len(found),
        tasks=TaskChanges(added=len(added), removed=len(removed), changed=len(changed)),
        settings_differences={}, differing_rows=[], rebuild_command=rebuild_command)



def _without_paths(rows: list[dict], drop: bool) -> list[dict]:
    return [{key: value for key, value in row.items() if key != TASK_PATH} for row in rows] if drop else rows
