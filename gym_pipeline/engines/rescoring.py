"""Re-scoring stored answers: the environment's current verifier on every response of `rollouts.jsonl`.

A rollout row holds the model's answer (expensive) and the verifier's fields (cheap). Re-scoring keeps the
first and recomputes the second, with no model server: each row's materialized input (the `row` the verifier
reads, found by its keys in `rollouts_materialized_inputs.jsonl`) and its response's text go to the verifier,
whose fields replace the row's own in place (new fields go after them). Row order, indices and every other field
are kept.

Workers re-score byte ranges of the rollouts file in parallel, each into a part file; the parts are joined into
the new file, which replaces `rollouts.jsonl` atomically, the previous one kept as
`rollouts.before_reverify.jsonl`. With `repeats` > 1, each response is verified that many times: rows whose
rewards differ are flaky (listed, and recorded in `rollouts_verifier_flakiness.json`); the first verdict is the
one written.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import orjson

from gym_pipeline.core.fingerprint import file_digest
from gym_pipeline.core.flakiness import Flakiness, flakiness_path, write_flakiness
from gym_pipeline.core.formats import (
    MATERIALIZED_INPUTS_FILE,
    ROLLOUT_INDEX,
    ROLLOUTS_FILE,
    TASK_INDEX,
    JsonlFormatError,
    atomic_file,
    require_file,
    sibling_path,
)
from gym_pipeline.core.manifest import ROLLOUTS_STAGE, annotate_stage, read_manifest, record_stage
from gym_pipeline.core.profile import worker_context
from gym_pipeline.core.profile_scan import line_batches, line_ranges, merge_inputs, scan_inputs
from gym_pipeline.core.run_lock import run_directory_lock
from gym_pipeline.engines.builtin import verdict_or_error
from gym_pipeline.engines.responses import output_text
from gym_pipeline.environments import Environment

REVERIFY_STAGE = "reverify"
BEFORE_REVERIFY_SUFFIX = ".before_reverify.jsonl"
_VERIFIER_FIELDS = ("reward", "mask_sample", "failure_kind", "failure_reason")
_PARALLEL_MIN_BYTES = 4 << 20  # below this, one process is faster than starting workers
_RANGE_BYTES = 64 << 20  # at most this much of the rollouts per job, so parts stay small and work stays balanced
_KEY_BITS = 32


class RescoringError(ValueError):
    """A run whose answers cannot be re-scored here (says why and what to do instead)."""


@dataclass
class RescoringSummary:
    rows: int = 0
    rescored: int = 0
    changed: int = 0
    changed_tasks: list[int] = field(default_factory=list)
    flaky: list[dict[str, Any]] = field(default_factory=list)
    repeats: int = 1
    verifier: dict[str, Any] = field(default_factory=dict)
    elapsed_s: float = 0.0

    def as_json(self) -> dict[str, Any]:
        """What `reverify --json` prints."""
        return {"rows": self.rows, "rescored": self.rescored, "changed": self.changed,
                "changed_tasks": self.changed_tasks, "flaky": self.flaky}


@dataclass
class _PartResult:
    rows: int = 0
    rescored: int = 0
    changed: int = 0
    changed_tasks: set[int] = field(default_factory=set)
    task_rollouts: Counter[int] = field(default_factory=Counter)
    flaky: list[dict[str, Any]] = field(default_factory=list)


def before_reverify_path(rollouts_path: Path) -> Path:
    """`rollouts.jsonl` -> `rollouts.before_reverify.jsonl`."""
    return rollouts_path.with_name(rollouts_path.stem + BEFORE_REVERIFY_SUFFIX)


def rescored_row(row: dict[str, Any], verdict: dict[str, Any]) -> dict[str, Any]:
    """`row` with the verifier's fields replaced where they stand; fields the row lacks go after the last of the
    verifier's fields it has (or at the end)."""
    new_fields = [key for key in verdict if key not in row]
    last = next((key for key in reversed(row) if key in verdict), None)
    result: dict[str, Any] = {}
    for key, value in row.items():
        result[key] = verdict[key] if key in verdict else value
        if key == last:
            result.update((name, verdict[name]) for name in new_fields)
    if last is None:
        result.update(verdict)
    return result


def _input_keys(inputs_path: Path, workers: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The materialized rows' keys (task << 32 | rollout), sorted, with each row's byte offset and length."""
    ranges = line_ranges(inputs_path, workers)
    if workers > 1 and len(ranges) > 1:
        with ProcessPoolExecutor(workers, mp_context=worker_context(__name__)) as pool:
            chunks = list(pool.map(scan_inputs, *zip(*[(inputs_path, start, end) for start, end in ranges],
                                                    strict=True)))
    else:
        chunks = [scan_inputs(inputs_path, start, end) for start, end in ranges]
    inputs = merge_inputs(inputs_path, chunks)
    keys = (inputs.task << _KEY_BITS) | inputs.rollout
    order = np.argsort(keys, kind="stable")
    return keys[order], inputs.offset[order], inputs.length[order]


# Set in each worker (by the pool's initializer, or directly when re-scoring in this process).
_job: dict[str, Any] = {}


def _start_worker(environment: Environment, inputs_path: Path, keys: np.ndarray, offsets: np.ndarray,
                  lengths: np.ndarray, repeats: int) -> None:
    _job.update(environment=environment, inputs=open(inputs_path, "rb"), keys=keys, offsets=offsets,  # noqa: SIM115
                lengths=lengths, repeats=repeats, inputs_path=inputs_path)


def _input_row(task: int, rollout: int) -> dict[str, Any] | None:
    key = (task << _KEY_BITS) | rollout
    keys = _job["keys"]
    at = int(np.searchsorted(keys, key))
    if at >= len(keys) or keys[at] != key:
        return None
    handle = _job["inputs"]
    return orjson.loads(os.pread(handle.fileno(), int(_job["lengths"][at]), int(_job["offsets"][at])))


def _rescore_part(rollouts_path: Path, start: int, end: int, first_line: int, part_path: Path) -> _PartResult:
    """Re-score the rows in [start, end) of the rollouts into `part_path`; `first_line` numbers errors."""
    environment, repeats = _job["environment"], _job["repeats"]
    result = _PartResult()
    number = first_line - 1
    with open(part_path, "wb", buffering=1 << 20) as out:
        for batch in line_batches(rollouts_path, start, end):
            for raw in batch:
                number += 1
                if not raw.strip():
                    out.write(raw)
                    continue
                try:
                    row = orjson.loads(raw)
                except orjson.JSONDecodeError as error:
                    raise JsonlFormatError(rollouts_path, number, None, f"not valid JSON ({error})") from None
                result.rows += 1
                response = row.get("response")
                if not isinstance(response, dict):  # nothing to re-score: kept as it is
                    out.write(raw)
                    continue
                task, rollout = row.get(TASK_INDEX), row.get(ROLLOUT_INDEX)
                source = _input_row(task, rollout) if type(task) is int and type(rollout) is int else None
                if source is None:
                    raise JsonlFormatError(rollouts_path, number, TASK_INDEX, f"no row ({task}, {rollout}) in "
                                           f"{_job['inputs_path'].name}: cannot give the verifier its row")
                text = output_text(response)
                verdicts = [verdict_or_error(environment, source, text) for _ in range(repeats)]
                verdict = verdicts[0]
                new = rescored_row(row, verdict)
                result.rescored += 1
                result.task_rollouts[task] += 1
                if any(row.get(name) != new.get(name) for name in ("reward", "mask_sample")):
                    result.changed += 1
                    result.changed_tasks.add(task)
                rewards = [v["reward"] for v in verdicts]
                if len(set(rewards)) > 1:
                    result.flaky.append({TASK_INDEX: task, ROLLOUT_INDEX: rollout, "rewards": rewards})
                out.write(orjson.dumps(new) + b"\n")
    return result


def _line_counts(path: Path, ranges: list[tuple[int, int]]) -> list[int]:
    """The line number each range starts at (1-based), for errors that name the file's line."""
    starts, count = [], 1
    with open(path, "rb") as handle:
        for start, end in ranges:
            starts.append(count)
            handle.seek(start)
            count += handle.read(end - start).count(b"\n")
    return starts


def refuse_task_folder_runs(rollouts_path: Path) -> None:
    """A taskset / episode run keeps no answer to re-score: its verifier ran inside a sandbox that is gone."""
    with open(rollouts_path, "rb") as handle:
        for raw in handle:
            if raw.strip():
                row = orjson.loads(raw)
                if isinstance(row, dict) and "response" not in row:
                    raise RescoringError(
                        f"{rollouts_path}: a task-folder (episode) run: its rows keep no response, and its verifier "
                        "ran inside the task's sandbox, which is gone; re-scoring it means running the episodes again "
                        "(collect again)")
                return


def rescore_run(run_dir: Path, environment: Environment, verifier: dict[str, Any], repeats: int = 1,
                workers: int | None = None, dagster_run_id: str | None = None) -> RescoringSummary:
    """Re-score every stored response of `run_dir` with `environment`'s verifier (`verifier`: its name and
    version, for the records); returns what changed and what was flaky."""
    started = time.monotonic()
    run_dir = Path(run_dir)
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, got {repeats}")
    rollouts_path, inputs_path = run_dir / ROLLOUTS_FILE, run_dir / MATERIALIZED_INPUTS_FILE
    with run_directory_lock(run_dir, REVERIFY_STAGE, dagster_run_id=dagster_run_id):
        require_file(rollouts_path, "rollouts")
        require_file(inputs_path, "materialized inputs")
        refuse_task_folder_runs(rollouts_path)
        size = rollouts_path.stat().st_size + inputs_path.stat().st_size
        if workers is None:
            workers = 1 if size < _PARALLEL_MIN_BYTES else max(1, os.cpu_count() or 1)
        keys, offsets, lengths = _input_keys(inputs_path, workers)
        parts = max(workers, -(-rollouts_path.stat().st_size // _RANGE_BYTES))
        ranges = line_ranges(rollouts_path, parts if workers > 1 else 1)
        first_lines = _line_counts(rollouts_path, ranges) if len(ranges) > 1 else [1]
        setup = (environment, inputs_path, keys, offsets, lengths, repeats)
        with tempfile.TemporaryDirectory(dir=run_dir, prefix=".reverify-") as scratch:
            part_paths = [Path(scratch) / f"part-{index:05d}.jsonl" for index in range(len(ranges))]
            jobs = [(rollouts_path, start, end, line, part)
                    for (start, end), line, part in zip(ranges, first_lines, part_paths, strict=True)]
            if workers > 1 and len(jobs) > 1:
                with ProcessPoolExecutor(workers, mp_context=worker_context(__name__), initializer=_start_worker,
                                         initargs=setup) as pool:
                    results = list(pool.map(_rescore_part, *zip(*jobs, strict=True)))
            else:
                _start_worker(*setup)
                try:
                    results = [_rescore_part(*job) for job in jobs]
                finally:
                    _job.pop("inputs").close()
            before = before_reverify_path(rollouts_path)
            with atomic_file(rollouts_path) as temporary:
                with open(temporary, "wb") as out:
                    for part in part_paths:
                        with open(part, "rb") as source:
                            while chunk := source.read(1 << 22):
                                out.write(chunk)
                    out.flush()
                    os.fsync(out.fileno())
                # the previous file, kept under its new name before the new one takes its place
                linked = sibling_path(before, ".tmp")
                linked.unlink(missing_ok=True)
                os.link(rollouts_path, linked)
                os.replace(linked, before)
        summary = _summary(results, repeats, verifier, time.monotonic() - started)
        _record(run_dir, rollouts_path, summary, results)
        return summary


def _summary(results: list[_PartResult], repeats: int, verifier: dict[str, Any], elapsed_s: float) -> RescoringSummary:
    return RescoringSummary(
        rows=sum(r.rows for r in results), rescored=sum(r.rescored for r in results),
        changed=sum(r.changed for r in results),
        changed_tasks=sorted(set().union(*(r.changed_tasks for r in results))),
        flaky=[row for r in results for row in r.flaky], repeats=repeats, verifier=verifier, elapsed_s=elapsed_s,
    )


def _record(run_dir: Path, rollouts_path: Path, summary: RescoringSummary, results: list[_PartResult]) -> None:
    """The manifest says which verifier scored the rows now; a repeated verification leaves its flakiness record
    (and a single one removes an older record, which described rows that are no longer there)."""
    digest = file_digest(rollouts_path)
    if summary.repeats > 1:
        task_rollouts: Counter[int] = Counter()
        for result in results:
            task_rollouts.update(result.task_rollouts)
        write_flakiness(rollouts_path, Flakiness(
            repeats=summary.repeats, verifier=summary.verifier, rollouts_digest=digest,
            rollouts_checked=summary.rescored, task_rollouts=dict(task_rollouts), flaky=summary.flaky))
    else:
        flakiness_path(rollouts_path).unlink(missing_ok=True)
    record_stage(run_dir, REVERIFY_STAGE, {
        "verifier": summary.verifier, "repeats": summary.repeats,
        "output": {"path": str(rollouts_path), "digest": digest, "rows": summary.rows, "rescored": summary.rescored,
                   "changed": summary.changed, "flaky": len(summary.flaky)},
        "previous": str(before_reverify_path(rollouts_path)),
    })
    if ROLLOUTS_STAGE in read_manifest(run_dir):
        annotate_stage(run_dir, ROLLOUTS_STAGE, {"verifier": summary.verifier})
