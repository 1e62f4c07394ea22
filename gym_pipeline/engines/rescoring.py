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
import shutil
import tempfile
import time
from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

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
from gym_pipeline.core.manifest import REVERIFY_STAGE, ROLLOUTS_STAGE, annotate_stage, read_manifest, record_stage
from gym_pipeline.core.profile import worker_context
from gym_pipeline.core.profile_scan import line_batches, line_ranges
from gym_pipeline.core.run_lock import run_directory_lock
from gym_pipeline.engines.builtin import verdict_or_error
from gym_pipeline.engines.responses import output_text
from gym_pipeline.environments import Environment

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
    error: tuple[int, str | None, str] | None = None  # the first bad row: (line within the part, field, message)


def before_reverify_path(rollouts_path: Path) -> Path:
    """`rollouts.jsonl` -> `rollouts.before_reverify.jsonl`."""
    return rollouts_path.with_name(rollouts_path.stem + BEFORE_REVERIFY_SUFFIX)


def rescored_row(row: dict[str, Any], verdict: dict[str, Any]) -> dict[str, Any]:
    """`row` with the verifier's fields replaced where they stand; fields the row lacks go after the last of the
    verifier's fields it has (or at the end)."""
    if verdict.keys() <= row.keys():  # the usual case: the same fields, values replaced in place
        return row | verdict
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


def _scan_input_keys(path: Path, start: int, end: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple | None]:
    """Keys (task << 32 | rollout), byte offsets and lengths of the materialized rows in [start, end), and the
    first bad line's (line within the range, field, message)."""
    keys, offsets, lengths = array("q"), array("q"), array("q")
    number, offset, error = 0, start, None
    for batch in line_batches(path, start, end):
        for raw in batch:
            number += 1
            offset += len(raw)
            if not raw.strip():
                continue
            try:
                row = orjson.loads(raw)
                task, rollout = row[TASK_INDEX], row[ROLLOUT_INDEX]
            except (orjson.JSONDecodeError, KeyError, TypeError):
                error = (number, TASK_INDEX, "not a materialized row with integer _ng_task_index and _ng_rollout_index")
                break
            if type(task) is not int or type(rollout) is not int or not (0 <= task < 1 << 31 and 0 <= rollout < 1 << 31):
                error = (number, TASK_INDEX, f"indices ({task!r}, {rollout!r}) are not integers in [0, 2^31)")
                break
            keys.append((task << _KEY_BITS) | rollout)
            offsets.append(offset - len(raw))
            lengths.append(len(raw))
        if error:
            break
    return np.frombuffer(keys, np.int64), np.frombuffer(offsets, np.int64), np.frombuffer(lengths, np.int64), error


def _input_index(inputs_path: Path, workers: int) -> tuple[list[int], list[int], list[int]]:
    """The materialized rows' keys, sorted, with each row's byte offset and length (plain lists: a lookup is one
    `bisect`)."""
    ranges = line_ranges(inputs_path, workers)
    jobs = [(inputs_path, start, end) for start, end in ranges]
    if workers > 1 and len(ranges) > 1:
        with ProcessPoolExecutor(workers, mp_context=worker_context(__name__)) as pool:
            chunks = list(pool.map(_scan_input_keys, *zip(*jobs, strict=True)))
    else:
        chunks = [_scan_input_keys(*job) for job in jobs]
    for index, (*_, error) in enumerate(chunks):
        if error:
            line, field_name, message = error
            raise JsonlFormatError(inputs_path, _lines_before(inputs_path, ranges[index][0]) + line, field_name,
                                   message)
    keys, offsets, lengths = (np.concatenate([chunk[i] for chunk in chunks]) for i in range(3))
    order = np.argsort(keys, kind="stable")
    keys = keys[order]
    duplicate = np.flatnonzero(keys[1:] == keys[:-1])
    if len(duplicate):
        key = int(keys[duplicate[0]])
        raise JsonlFormatError(inputs_path, 0, TASK_INDEX, f"(task, rollout) ({key >> _KEY_BITS}, "
                               f"{key & ((1 << _KEY_BITS) - 1)}) appears twice")
    return keys.tolist(), offsets[order].tolist(), lengths[order].tolist()


# Set in each worker (by the pool's initializer, or directly when re-scoring in this process).
_job: dict[str, Any] = {}


def _start_worker(environment: Environment, inputs_path: Path, index: tuple[list[int], list[int], list[int]],
                  repeats: int) -> None:
    keys, offsets, lengths = index
    _job.update(environment=environment, inputs=open(inputs_path, "rb"), keys=keys, offsets=offsets,  # noqa: SIM115
                lengths=lengths, repeats=repeats, inputs_path=inputs_path)


def _input_row(task: int, rollout: int) -> dict[str, Any] | None:
    key = (task << _KEY_BITS) | rollout
    keys = _job["keys"]
    at = bisect_left(keys, key)
    if at >= len(keys) or keys[at] != key:
        return None
    return orjson.loads(os.pread(_job["inputs"].fileno(), _job["lengths"][at], _job["offsets"][at]))


def _rescore_part(rollouts_path: Path, start: int, end: int, part_path: Path) -> _PartResult:
    """Re-score the rows in [start, end) of the rollouts into `part_path`. A bad row stops the part: its line
    (within the range), field and message are in the result's `error`."""
    environment, repeats, input_row = _job["environment"], _job["repeats"], _input_row
    result = _PartResult()
    changed_tasks, task_rollouts, flaky = result.changed_tasks, result.task_rollouts, result.flaky
    rows = rescored = changed = number = 0
    with open(part_path, "wb") as out:
        for batch in line_batches(rollouts_path, start, end):
            written = []
            for raw in batch:
                number += 1
                try:
                    row = orjson.loads(raw)
                except orjson.JSONDecodeError as error:
                    if raw.strip():
                        result.error = (number, None, f"not valid JSON ({error})")
                        break
                    written.append(raw)  # a blank line stays where it is
                    continue
                rows += 1
                response = row.get("response") if type(row) is dict else None
                if type(response) is not dict:  # nothing to re-score: kept as it is
                    written.append(raw)
                    continue
                task, rollout = row.get(TASK_INDEX), row.get(ROLLOUT_INDEX)
                source = input_row(task, rollout) if type(task) is int and type(rollout) is int else None
                if source is None:
                    result.error = (number, TASK_INDEX, f"no row ({task}, {rollout}) in {_job['inputs_path'].name}: "
                                                        "cannot give the verifier its row")
                    break
                text = output_text(response)
                verdict = verdict_or_error(environment, source, text)
                new = rescored_row(row, verdict)
                rescored += 1
                task_rollouts[task] += 1
                if row.get("reward") != new["reward"] or row.get("mask_sample") != new["mask_sample"]:
                    changed += 1
                    changed_tasks.add(task)
                if repeats > 1:
                    rewards = [verdict["reward"], *(verdict_or_error(environment, source, text)["reward"]
                                                    for _ in range(repeats - 1))]
                    if len(set(rewards)) > 1:
                        flaky.append({TASK_INDEX: task, ROLLOUT_INDEX: rollout, "rewards": rewards})
                written.append(orjson.dumps(new, option=orjson.OPT_APPEND_NEWLINE))
            out.write(b"".join(written))  # one call: writelines copies row by row into a small buffer
            if result.error:
                break
    result.rows, result.rescored, result.changed = rows, rescored, changed
    return result


def _lines_before(path: Path, offset: int) -> int:
    """How many lines start before byte `offset` (read only when an error needs its file line)."""
    count = 0
    with open(path, "rb") as handle:
        while offset > 0 and (chunk := handle.read(min(1 << 22, offset))):
            count += chunk.count(b"\n")
            offset -= len(chunk)
    return count


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
        index = _input_index(inputs_path, workers)
        # Whole rounds of parts, so that no worker is left with the last one alone.
        parts = -(-max(workers, -(-rollouts_path.stat().st_size // _RANGE_BYTES)) // workers) * workers
        ranges = line_ranges(rollouts_path, parts if workers > 1 else 1)
        setup = (environment, inputs_path, index, repeats)
        results: list[_PartResult] = []
        with tempfile.TemporaryDirectory(dir=run_dir, prefix=".reverify-") as scratch:
            part_paths = [Path(scratch) / f"part-{number:05d}.jsonl" for number in range(len(ranges))]
            jobs = [(rollouts_path, start, end, part) for (start, end), part in zip(ranges, part_paths, strict=True)]
            if workers > 1 and len(jobs) > 1:
                with ProcessPoolExecutor(workers, mp_context=worker_context(__name__), initializer=_start_worker,
                                         initargs=setup) as pool:
                    made = pool.map(_rescore_part, *zip(*jobs, strict=True))
                    replace_keeping_previous(rollouts_path, _checked_parts(made, jobs, results))
            else:
                _start_worker(*setup)
                try:
                    made = (_rescore_part(*job) for job in jobs)
                    replace_keeping_previous(rollouts_path, _checked_parts(made, jobs, results))
                finally:
                    _job.pop("inputs").close()
        summary = _summary(results, repeats, verifier, time.monotonic() - started)
        task_rollouts: Counter[int] = Counter()
        for result in results:
            task_rollouts.update(result.task_rollouts)
        record_rescoring(run_dir, rollouts_path, summary, task_rollouts)
        return summary


def _checked_parts(results: Iterable[_PartResult], jobs: list[tuple[Path, int, int, Path]],
                   collected: list[_PartResult]) -> Iterator[Path]:
    """Each part file as soon as it is made, in order (collecting its result), removed once joined; the first bad
    row of the file stops the join, named by its line in the file."""
    for (rollouts_path, start, _, part_path), result in zip(jobs, results, strict=True):
        if result.error:
            line, field_name, message = result.error
            raise JsonlFormatError(rollouts_path, _lines_before(rollouts_path, start) + line, field_name, message)
        collected.append(result)
        yield part_path
        part_path.unlink()  # its pages need not stay cached


def replace_keeping_previous(rollouts_path: Path, part_paths: Iterable[Path]) -> None:
    """The parts joined into the new rollouts file, which takes the old one's place atomically; the old one is kept
    as `rollouts.before_reverify.jsonl` (a hard link made before the rename: nothing is copied). Each part is
    appended and written to disk as it comes, so with a lazy `part_paths` the join overlaps making the next parts."""
    before = before_reverify_path(rollouts_path)
    with atomic_file(rollouts_path) as temporary:
        with open(temporary, "wb") as out:
            for part in part_paths:
                with open(part, "rb") as source:
                    _append(source, out)
                out.flush()
                os.fdatasync(out.fileno())
            os.fsync(out.fileno())
        linked = sibling_path(before, ".tmp")
        linked.unlink(missing_ok=True)
        os.link(rollouts_path, linked)
        os.replace(linked, before)


def _append(source: BinaryIO, out: BinaryIO) -> None:
    """Copy a whole file in the kernel where it can (no trip through Python), else by blocks."""
    out.flush()
    try:
        while os.copy_file_range(source.fileno(), out.fileno(), 1 << 30):
            pass
    except OSError:  # a file system or kernel without copy_file_range
        shutil.copyfileobj(source, out, 1 << 22)


def _summary(results: list[_PartResult], repeats: int, verifier: dict[str, Any], elapsed_s: float) -> RescoringSummary:
    return RescoringSummary(
        rows=sum(r.rows for r in results), rescored=sum(r.rescored for r in results),
        changed=sum(r.changed for r in results),
        changed_tasks=sorted(set().union(*(r.changed_tasks for r in results))),
        flaky=[row for r in results for row in r.flaky], repeats=repeats, verifier=verifier, elapsed_s=elapsed_s,
    )


def record_rescoring(run_dir: Path, rollouts_path: Path, summary: RescoringSummary,
                     task_rollouts: Counter[int]) -> None:
    """The manifest says which verifier scored the rows now; a repeated verification leaves its flakiness record
    (`task_rollouts`: the rows re-scored in each task), naming the digest of the rollouts it measured (a single one
    removes an older record, which described rows that are no longer there)."""
    digest = file_digest(rollouts_path)
    if summary.repeats > 1:
        write_flakiness(rollouts_path, Flakiness(
            repeats=summary.repeats, verifier=summary.verifier, rollouts_digest=digest,
            rollouts_checked=summary.rescored, task_rollouts=dict(task_rollouts), flaky=summary.flaky))
    else:
        flakiness_path(rollouts_path).unlink(missing_ok=True)
    record_stage(run_dir, REVERIFY_STAGE, {
        "verifier": summary.verifier, "repeats": summary.repeats,
        "output": {"path": str(rollouts_path), "rows": summary.rows, "rescored": summary.rescored,
                   "changed": summary.changed, "flaky": len(summary.flaky), "digest": digest},
        "previous": str(before_reverify_path(rollouts_path)),
    })
    if ROLLOUTS_STAGE in read_manifest(run_dir):
        annotate_stage(run_dir, ROLLOUTS_STAGE, {"verifier": summary.verifier})
