"""The collect stage of a task-folder environment's partition (called by `stages.py`): every row an episode
of the terminal agent. Returns the partition's metadata (paths as plain strings; `stages.py` types them for
Dagster) and the digest of what it wrote."""

from __future__ import annotations

from functools import partial
from typing import Any, Protocol

from gym_pipeline.config import SweepConfig
from gym_pipeline.core.fingerprint import file_digest
from gym_pipeline.core.formats import MATERIALIZED_INPUTS_FILE, ROLLOUT_INDEX, ROLLOUTS_FILE, iter_jsonl_dicts
from gym_pipeline.core.manifest import COLLECTING, COMPLETE, ROLLOUTS_STAGE, record_stage
from gym_pipeline.core.run_lock import run_directory_lock
from gym_pipeline.taskfolders.agents import ModelEndpoint, run_terminal_agent
from gym_pipeline.taskfolders.collect import TaskRunSettings, default_sandbox_concurrency, run_tasks
from gym_pipeline.taskfolders.episode import EpisodeSettings
from gym_pipeline.taskfolders.loader import load_taskset
from gym_pipeline.taskfolders.stage_materialize import StageLog


class _Endpoint(Protocol):
    url: str
    model_name: str | None
    api_key: str | None
    checkpoint_digest: str | None
    pid: int | None


def collect_taskset_partition(config: SweepConfig, checkpoint: str, env: str, endpoint: _Endpoint, code: str,
                              log: StageLog, dagster_run_id: str | None = None) -> tuple[dict[str, Any], str]:
    """Every row as an episode of the terminal agent against the checkpoint's server; always a fresh run."""
    environment = config.environment(env)
    run_dir = config.run_dir(checkpoint, env)
    inputs_path, rollouts_path = run_dir / MATERIALIZED_INPUTS_FILE, run_dir / ROLLOUTS_FILE
    model = ModelEndpoint(endpoint.url, endpoint.model_name or checkpoint, endpoint.api_key, config.request_timeout_s)
    concurrency = environment.sandbox_concurrency or default_sandbox_concurrency(config.concurrency)
    settings = TaskRunSettings(concurrency=concurrency, skip_unloadable=environment.skip_unloadable,
                               episode=EpisodeSettings(host_allows_internet=environment.allow_internet,
                                                       grace_s=environment.episode_grace_sec, run_dir=run_dir))

    def on_progress(done: int, total: int, failed: int) -> None:
        if done == total or done % max(1, total // 10) == 0:
            log.info(f"{checkpoint} x {env}: {done}/{total} episodes ({failed} without a result)")

    with run_directory_lock(run_dir, ROLLOUTS_STAGE, dagster_run_id=dagster_run_id):
        rows = [row for _, row in iter_jsonl_dicts(inputs_path)]
        record = {"engine": "taskfolders", "agent": "terminal_agent", "model_url": endpoint.url,
                  "concurrency": concurrency, "code_version": code,
                  "inputs": {"path": str(inputs_path), "digest": file_digest(inputs_path)},
                  "checkpoint": {"name": checkpoint, "path": str(config.checkpoint_dir(checkpoint)),
                                 "digest": endpoint.checkpoint_digest, "server_pid": endpoint.pid}}
        record_stage(run_dir, ROLLOUTS_STAGE, record | {"status": COLLECTING})
        summary = run_tasks(rows, load_taskset(environment.tasks),
                            lambda row: partial(run_terminal_agent, endpoint=model, seed=row[ROLLOUT_INDEX]),
                            rollouts_path, settings, on_progress)
        output_digest = file_digest(rollouts_path)
        record_stage(run_dir, ROLLOUTS_STAGE, record | {
            "status": COMPLETE, "model": model.model,
            "output": {"path": str(rollouts_path), "rows": summary.results, "failed_keys": len(summary.failed_keys),
                       "digest": output_digest},
            "run_summary": str(summary.summary_path)})
    log.info(f"{checkpoint} x {env}: {summary.results} of {summary.total} episodes gave a result in "
             f"{summary.elapsed_s:.1f} s ({dict(summary.statuses)}; {summary.images_built} images built)")
    return {
        "path": str(rollouts_path),
        "run_summary": str(summary.summary_path),
        "rollouts": summary.results,
        "failed": len(summary.failed_keys),
        "expected": summary.total,
        "skipped_tasks": len(summary.skipped),
        "statuses": ", ".join(f"{status}: {count}" for status, count in sorted(summary.statuses.items())),
        "elapsed_s": round(summary.elapsed_s, 2),
        "images_built": summary.images_built,
        "model": model.model,
        "checkpoint_digest": endpoint.checkpoint_digest or "",
    }, output_digest
