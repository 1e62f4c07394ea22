"""A task-folder run: prepare the images, run every (task, repeat) as episodes, write Gym's files and the summary.

Prepare builds each task's image (cached) and lists the tasks that do not load in `skipped.json`; with some
listed, the run refuses unless `skip_unloadable`. Episodes run `concurrency` at a time in threads (the Docker
SDK is synchronous). A result goes to `rollouts.jsonl`; a failed attempt to `rollouts_failures.jsonl` with
its `_ng_failure_stage`, and is retried up to `max_attempts` unless it is terminal (a task folder changed since
materialization). `rollouts_run_summary.json` lists every (task, rollout): its status (passed, failed, masked,
error, skipped), reward, failure_kind and the folder holding its verifier output and the agent's transcript
(`rollouts_episodes/<task>/<task index>.<rollout index>/attempt_<n>/`).
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gym_pipeline.core import failure_kinds as kinds
from gym_pipeline.core.formats import (
    AGENT_REF,
    RESPONSES_CREATE_PARAMS,
    ROLLOUT_INDEX,
    TASK_INDEX,
    JsonlAppender,
    attempt_stamp,
    sibling_path,
    write_json_atomic,
)
from gym_pipeline.engines.responses import expanded_request
from gym_pipeline.taskfolders.episode import Agent, EpisodeOutcome, EpisodeSettings, rollout_fields, run_episode
from gym_pipeline.taskfolders.loader import Task, Taskset
from gym_pipeline.taskfolders.materialize import (
    ENVIRONMENT_SERVER,
    SKIPPED_FILE,
    TASK_DIGEST,
    TASK_ID,
    TasksNotLoadable,
)
from gym_pipeline.taskfolders.sandbox import (
    ImageBuildError,
    SandboxUnavailable,
    docker_client,
    ensure_image,
)

RUN_SUMMARY_SUFFIX = "_run_summary.json"
EPISODES_DIR = "rollouts_episodes"
PASSED, FAILED, MASKED, ERROR, SKIPPED = "passed", "failed", "masked", "error", "skipped"

AgentForRow = Callable[[dict[str, Any]], Agent]


@dataclass
class TaskRunSettings:
    concurrency: int = 4
    max_attempts: int = field(default_factory=kinds.max_rollout_attempts)
    skip_unloadable: bool = False
    episode: EpisodeSettings = field(default_factory=EpisodeSettings)


@dataclass
class TaskRunSummary:
    total: int
    results: int
    failed_keys: list[tuple[int, int]]
    skipped: dict[str, str]
    statuses: Counter
    elapsed_s: float
    images_built: int
    summary_path: Path


class NoResultError(RuntimeError):
    """Every dispatched episode failed before a result existed (most often: no sandbox could be made)."""


def default_sandbox_concurrency(sweep_concurrency: int) -> int:
    """One episode per core, at most the sweep's concurrency: an episode's time is mostly starting, running and
    removing its container, CPU work on the engine's host, so more at once only slows each one down."""
    return max(1, min(sweep_concurrency, os.cpu_count() or 1))


def run_summary_path(rollouts_path: Path) -> Path:
    return sibling_path(rollouts_path, RUN_SUMMARY_SUFFIX)


def prepare_images(taskset: Taskset, task_ids: set[str]) -> tuple[dict[str, str], dict[str, str], int, Any]:
    """Each task's image, the tasks whose image cannot be had (with why), how many were built, and the client
    (None when no engine answers: then every episode fails at seed, as Gym's do)."""
    try:
        client = docker_client()
    except SandboxUnavailable:
        return {}, {}, 0, None
    images, unbuildable, built = {}, {}, 0
    for task in taskset.tasks:
        if task.task_id not in task_ids:
            continue
        try:
            images[task.task_id], fresh = ensure_image(client, task)
            built += fresh
        except ImageBuildError as error:
            unbuildable[task.task_id] = f"{task.path}/environment: {error}"
    return images, unbuildable, built, client


def _status(outcome: EpisodeOutcome | None) -> str:
    if outcome is None or not outcome.has_result:
        return ERROR
    if outcome.mask_sample:
        return MASKED
    return PASSED if (outcome.reward or 0) >= 1.0 and outcome.failure_kind is None else FAILED


def _result_row(row: dict[str, Any], outcome: EpisodeOutcome, attempt: int, log_dir: Path) -> dict[str, Any]:
    transcript = outcome.transcript
    output = [{"type": "message", "role": "assistant", "status": "completed",
               "content": [{"type": "output_text", "text": message["content"], "annotations": []}]}
              for message in (transcript.messages if transcript else []) if message["role"] == "assistant"]
    fields = {key: value for key, value in row.items()
              if key not in (RESPONSES_CREATE_PARAMS, TASK_INDEX, ROLLOUT_INDEX, AGENT_REF)}
    return {
        RESPONSES_CREATE_PARAMS: expanded_request(row[RESPONSES_CREATE_PARAMS]),
        "response": {"object": "response", "status": "completed", "output": output,
                     "model": transcript.model if transcript else None,
                     "usage": transcript.usage if transcript else {"input_tokens": 0, "output_tokens": 0,
                                                                   "total_tokens": 0}},
        **rollout_fields(outcome),
        **fields,
        "agent_stop_reason": transcript.stop_reason if transcript else None,
        "episode_log_dir": str(log_dir),
        TASK_INDEX: row[TASK_INDEX],
        ROLLOUT_INDEX: row[ROLLOUT_INDEX],
        AGENT_REF: row[AGENT_REF],
        **attempt_stamp(attempt),
        "_ng_environment_server": ENVIRONMENT_SERVER,
        "_ng_result_type": "harbor_episode",
    }


def _failure_row(row: dict[str, Any], outcome: EpisodeOutcome, attempt: int, terminal: bool) -> dict[str, Any]:
    return {
        "_ng_failure_class": outcome.failure_class,
        "_ng_failure_type": outcome.failure_kind or outcome.failure_class,
        "_ng_failure_message": outcome.failure_message,
        "_ng_failure_http_status": outcome.http_status,
        "_ng_failure_response_body": outcome.response_body,
        "_ng_failure_stage": outcome.failed_stage,
        "failure_kind": outcome.failure_kind,
        TASK_ID: row.get(TASK_ID),
        "episode_log_dir": str(outcome.log_dir),
        TASK_INDEX: row[TASK_INDEX],
        ROLLOUT_INDEX: row[ROLLOUT_INDEX],
        AGENT_REF: row[AGENT_REF],
        **attempt_stamp(attempt),
        "_ng_failure_terminal": terminal,
        "_ng_environment_server": ENVIRONMENT_SERVER,
    }


def run_tasks(rows: list[dict[str, Any]], taskset: Taskset, agent_for_row: AgentForRow, rollouts_path: Path,
              settings: TaskRunSettings, on_progress: Callable[[int, int, int], None] | None = None,
              agent_name: str = "terminal_agent") -> TaskRunSummary:
    """Run every row; the caller holds the run directory's lock. Raises `TasksNotLoadable` (from prepare) or
    `NoResultError` (no episode produced a result) after writing the summary."""
    started = time.monotonic()
    rollouts_path = Path(rollouts_path)
    run_dir = rollouts_path.parent
    failures_path = sibling_path(rollouts_path, "_failures.jsonl")
    episodes_dir = run_dir / EPISODES_DIR
    needed = {row.get(TASK_ID) for row in rows}
    images, unbuildable, built, client = prepare_images(taskset, needed)
    skipped = {**taskset.skipped, **unbuildable}
    skipped_path = run_dir / SKIPPED_FILE
    write_json_atomic(skipped_path, skipped, indent=True)
    rollouts_path.unlink(missing_ok=True)
    failures_path.unlink(missing_ok=True)
    entries: dict[tuple[int, int], dict[str, Any]] = {}
    lock = threading.Lock()
    done = [0]

    def write_summary() -> Path:
        ordered = [entries[key] for key in sorted(entries)]
        counts = Counter(entry["status"] for entry in ordered)
        path = run_summary_path(rollouts_path)
        write_json_atomic(path, {"taskset": str(taskset.root), "agent": agent_name, "counts": dict(counts),
                                 "skipped": skipped, "tasks": ordered}, indent=True)
        return path

    for row in rows:
        if row.get(TASK_ID) in skipped:
            entries[(row[TASK_INDEX], row[ROLLOUT_INDEX])] = _entry(row, SKIPPED, None, 0, reason=skipped[row[TASK_ID]])
    if unbuildable and not settings.skip_unloadable:
        write_summary()
        raise TasksNotLoadable(
            f"{len(unbuildable)} task(s) could not load (see {skipped_path}). Use skip_unloadable: true (the "
            "environment's setting, like --skip-unloadable) to explicitly run only the loadable subset")
    runnable = [row for row in rows if row.get(TASK_ID) not in skipped]
    if rows and not runnable:
        write_summary()
        raise TasksNotLoadable(f"No runnable task left in {taskset.root}; see {skipped_path}")

    with JsonlAppender(rollouts_path) as results, JsonlAppender(failures_path) as failures:
        def run_row(row: dict[str, Any]) -> None:
            key = (row[TASK_INDEX], row[ROLLOUT_INDEX])
            task = taskset.task(row[TASK_ID])
            outcome, attempt = None, 0
            for attempt in range(settings.max_attempts):
                log_dir = episodes_dir / str(row[TASK_ID]) / f"{key[0]}.{key[1]}" / f"attempt_{attempt}"
                outcome = _attempt(client, task, images.get(row[TASK_ID]), agent_for_row(row), row, log_dir,
                                   settings.episode)
                if outcome.has_result:
                    with lock:
                        results.append(_result_row(row, outcome, attempt, log_dir))
                    break
                # Terminal is the environment's word (this failure cannot pass on a retry), not "out of attempts".
                with lock:
                    failures.append(_failure_row(row, outcome, attempt, terminal=not outcome.retryable))
                if not outcome.retryable:
                    break
            with lock:
                entries[key] = _entry(row, _status(outcome), outcome, attempt + 1)
                done[0] += 1
                if on_progress:
                    on_progress(done[0], len(runnable), sum(e["status"] == ERROR for e in entries.values()))

        with ThreadPoolExecutor(max_workers=settings.concurrency, thread_name_prefix="episode") as pool:
            for future in [pool.submit(run_row, row) for row in runnable]:
                future.result()
    path = write_summary()
    statuses = Counter(entry["status"] for entry in entries.values())
    failed_keys = sorted(key for key, entry in entries.items() if entry["status"] == ERROR)
    if runnable and len(failed_keys) == len(runnable):
        first = next(entries[key] for key in failed_keys)
        raise NoResultError(f"None of the {len(runnable)} dispatched rollouts produced a result "
                            f"{first['failure']}. Inspect {failures_path}")
    return TaskRunSummary(total=len(rows), results=len(runnable) - len(failed_keys), failed_keys=failed_keys,
                          skipped=skipped, statuses=statuses, elapsed_s=time.monotonic() - started,
                          images_built=built, summary_path=path)


def _attempt(client: Any, task: Task | None, image: str | None, agent: Agent, row: dict[str, Any], log_dir: Path,
             settings: EpisodeSettings) -> EpisodeOutcome:
    outcome = EpisodeOutcome(log_dir=log_dir)
    if task is None:
        return outcome.fail(kinds.STAGE_SEED, kinds.ENVIRONMENT_SERVER_FAILED,
                            f"Task folder {row.get('task_path')} changed since materialization; re-materialize the "
                            "taskset.", retryable=False)
    if client is None or image is None:
        try:
            client = docker_client()
        except SandboxUnavailable as error:
            return outcome.fail(kinds.STAGE_SEED, kinds.ENVIRONMENT_SERVER_FAILED, str(error))
        try:
            image, _ = ensure_image(client, task)
        except ImageBuildError as error:
            return outcome.fail(kinds.STAGE_SEED, kinds.ENVIRONMENT_SERVER_FAILED, str(error))
    return run_episode(client, task, image, agent, log_dir, settings, expected_digest=row.get(TASK_DIGEST))


def _entry(row: dict[str, Any], status: str, outcome: EpisodeOutcome | None, attempts: int,
           reason: str | None = None) -> dict[str, Any]:
    failure = None
    if outcome is not None and not outcome.has_result:
        failure = {"stage": outcome.failed_stage, "class": outcome.failure_class, "message": outcome.failure_message}
    return {
        "task": row.get(TASK_ID),
        TASK_INDEX: row[TASK_INDEX],
        ROLLOUT_INDEX: row[ROLLOUT_INDEX],
        "status": status,
        "reward": outcome.reward if outcome is not None else None,
        "failure_kind": outcome.failure_kind if outcome is not None else None,
        "failure_reason": (outcome.failure_reason if outcome is not None else None) or reason,
        "failure": failure,
        "attempts": attempts,
        "verifier_log_dir": str(outcome.log_dir / "verifier") if outcome is not None else None,
        "agent_transcript": str(outcome.log_dir / "agent" / "transcript.json") if outcome is not None else None,
    }


def read_summary(path: Path) -> dict[str, Any]:
    return json.loads(Path(path).read_text(encoding="utf-8"))
