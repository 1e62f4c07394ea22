"""A one-line summary of a run directory: what the demo table and `status` print."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

import orjson

from gym_pipeline.core.formats import (
    DIAGNOSIS_FILE,
    FAILURES_FILE,
    MATERIALIZED_INPUTS_FILE,
    ROLLOUTS_FILE,
    count_lines,
    iter_jsonl_dicts,
)


@dataclass
class RunSummary:
    run_dir: str
    materialized: int
    rollouts: int
    failures: int  # (task, rollout) keys with a failed attempt and no rollout
    mean_reward: float | None  # over rollouts not masked from quality metrics
    diagnosis: str | None

    def as_dict(self) -> dict:
        return asdict(self)


def summarize_run(run_dir: Path) -> RunSummary:
    run_dir = Path(run_dir)
    rewards, succeeded = [], set()
    rollouts_path = run_dir / ROLLOUTS_FILE
    if rollouts_path.exists():
        for _, row in iter_jsonl_dicts(rollouts_path):
            succeeded.add((row.get("_ng_task_index"), row.get("_ng_rollout_index")))
            if not row.get("mask_sample") and isinstance(row.get("reward"), (int, float)):
                rewards.append(float(row["reward"]))
    failed = set()
    failures_path = run_dir / FAILURES_FILE
    if failures_path.exists():
        failed = {(row.get("_ng_task_index"), row.get("_ng_rollout_index")) for _, row in iter_jsonl_dicts(failures_path)}
    diagnosis_path = run_dir / DIAGNOSIS_FILE
    diagnosis = orjson.loads(diagnosis_path.read_bytes()).get("category") if diagnosis_path.exists() else None
    return RunSummary(
        run_dir=str(run_dir),
        materialized=count_lines(run_dir / MATERIALIZED_INPUTS_FILE),
        rollouts=len(succeeded),
        failures=len(failed - succeeded),
        mean_reward=sum(rewards) / len(rewards) if rewards else None,
        diagnosis=diagnosis,
    )
