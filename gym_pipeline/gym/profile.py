"""Reward profiler: what `gym eval profile` (NeMo Gym 0.7.0) computes, fast and in bounded memory.

Inputs are a run's `rollouts_materialized_inputs.jsonl` and `rollouts.jsonl`; outputs are the three
files Gym writes beside the rollouts: `<stem>_reward_profiling.jsonl` (one row per task),
`<stem>_agent_metrics.json` and `<stem>_repeat_level_metrics.json`, plus our reward analysis
(`reward_analysis.py`), computed in the same pass.

Gym's semantics (`nemo_gym/reward_profile.py`, `nemo_gym/cli/eval.py:reward_profile`, 0.7.0 source),
checked against real 0.7.0 output:

* Rows are joined on the rollout key `(_ng_task_index, _ng_rollout_index)`. A duplicate key in either
  file is an error; a rollout whose key is not in the materialized inputs is an error even with
  `allow_partial`; a materialized row without a rollout is an error unless `allow_partial`.
* Rollouts with a truthy `mask_sample` leave the quality statistics together with their materialized
  row. They still count as collected in the completion summary, `mask_sample` itself is never
  profiled, and agents that had something masked get `coverage/*` counts in the agent metrics.
* Agents: a materialized row runs on its `_ng_environment_server` stamp, else on its agent. Runs are
  labelled by agent name, or by run when one agent fronts several (Gym's `label_runs`). Agent and
  repeat-level metrics are per label; coverage is per `agent_ref.name`.
* One profile row per task; when a task ran under more than one label (Gym's fan-out), one row per
  (task, label), carrying `agent_ref`. Completion is counted per (task, run).
* Profiled fields: every top-level numeric field of a rollout plus every numeric field of
  `response.usage` (usage wins on a name clash, the key keeps its first position). Bools count as
  0/1; nested objects, strings and None are skipped (None counts as missing); underscore-prefixed
  fields are not profiled.
* `rollout_infos`: id, both indices, `reward`, every numeric usage field, then every other numeric
  top-level field (a top-level field overwrites a usage field of the same name in place).
* Per task and per agent: `mean/`, `max/`, `min/`, `median/`, `std/` (sample std, ddof=1) for each
  field, in first-seen field order over the rollouts sorted by key. A std that cannot be computed (a
  single value) is left out, except that when every std of the group is undefined, fully-present
  fields get 0.0 (Gym: "std is more interpretable as 0 than NaN").
* Repeat level (agents with more than one repeat): per (agent, repeat) and per field (sorted by name)
  mean/median/std/sem/min/max/p25/p75 (linear interpolation) and a Student-t 95% CI when n > 1.
  Across repeats, each per-repeat `mean/<f>` (Gym's primary metrics) is summarised into the agent
  metrics as `<stat>_across_repeats/mean/<f>` (mean, median, std, min, max, se, 95% CI).
  A standard error of exactly 0 collapses the CI to (mean, mean) and emits a UserWarning, as Gym does.

How: each file is split into byte ranges on line boundaries, parsed (orjson) in worker processes
when it is large, and every range comes back as compact arrays: per row its key, line, a few flags
and its profiled numbers; no parsed row outlives its line. Rows with the same keys and value types
share a layout worked out once; a row whose values need pydantic's verdict takes the exact (slow)
path, which also validates it. Agent and repeat statistics are vectorised over the rows sorted by
key. Profile rows are built in blocks while they are written (in parallel for large runs), each
task's statistics from its rollouts' columns and its `sample` re-read from its line in the
materialized inputs. Memory grows with the number of rollouts (a few hundred bytes each at the
peak), not with the size of the rows.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import shutil
import threading
import warnings
from array import array
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache, partial
from operator import itemgetter
from pathlib import Path
from typing import Any

import numpy as np
import orjson

from gym_pipeline.gym import reward_analysis
from gym_pipeline.gym.formats import (
    AGENT_REF,
    RESPONSES_CREATE_PARAMS,
    ROLLOUT_INDEX,
    TASK_INDEX,
    JsonlFormatError,
    MaterializedInputRow,
    RolloutRow,
    validate_row,
    write_json_atomic,
    write_jsonl_atomic,
)

RolloutKey = tuple[int, int]

MASK_SAMPLE = "mask_sample"
ENVIRONMENT_SERVER = "_ng_environment_server"
STAT_NAMES = ("mean", "max", "min", "median", "std")
CONFIDENCE = 0.95
# Gym shows at most this many keys in its mismatch messages.
_KEYS_SHOWN = 10
# Gym's non-primary metric suffixes (`metrics_config.METRIC_EXCLUDED_SUFFIXES`): never aggregated across repeats.
_NOT_PRIMARY_SUFFIXES = (
    "/max", "/min", "/median", "/p5", "/p25", "/p75", "/p95", "/ci_low_95", "/ci_high_95", "/ci_lower",
    "/ci_upper", "_ci_lower", "_ci_upper", "_ci95_lower", "_ci95_upper", "/_ng_attempt_index",
    "/std_dev_across_runs", "/std_err_across_runs", "/avg_sample_std_dev",
)


# --------------------------------------------------------------------------------------------------
# Errors


class MissingRolloutsError(ValueError):
    """Strict profiling found materialized rows without a rollout result."""

    def __init__(self, missing_keys: Sequence[RolloutKey]):
        self.missing_keys: list[RolloutKey] = sorted(missing_keys)
        super().__init__(
            "Materialized input rows and rollout results do not have matching rollout keys. "
            f"Missing rollout results for {len(self.missing_keys)} materialized input rows. "
            f"Missing rollout keys: {self.missing_keys[:_KEYS_SHOWN]}.\n\n"
            "Use --allow-partial (Gym: ++allow_partial_rollouts=True) to profile completed rollouts "
            "from a partial collection."
        )


class UnmatchedRolloutsError(JsonlFormatError):
    """Rollout results whose key has no materialized input row (Gym rejects these even when partial).

    A `JsonlFormatError` (so a `ValueError`) pointing at the first such line of the rollouts file.
    """

    def __init__(self, path: Path | str, extra: Sequence[tuple[RolloutKey, int]]):
        by_key = sorted(extra)
        self.extra_keys: list[RolloutKey] = [key for key, _ in by_key]
        self.lines: list[int] = sorted(line for _, line in extra)
        shown = ", ".join(f"line {line} {key}" for key, line in sorted(extra, key=lambda e: e[1])[:_KEYS_SHOWN])
        super().__init__(
            path,
            self.lines[0],
            None,
            "Rollout results contain rows with no matching materialized input rows. "
            f"Found {len(by_key)} extra rollout rows. Extra rollout keys: {self.extra_keys[:_KEYS_SHOWN]} ({shown}).",
        )


class DuplicateRolloutKeyError(JsonlFormatError):
    """The same (task, rollout) key appears twice in one file."""

    def __init__(self, path: Path | str, line: int, key: RolloutKey, first_line: int, what: str):
        self.key = key
        self.first_line = first_line
        super().__init__(
            path, line, None, f"Duplicate {what} row for rollout key {key} (first seen at line {first_line})"
        )


# --------------------------------------------------------------------------------------------------
# Student t quantile (SciPy is not a dependency; `stats.t.interval` is what Gym calls)


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the regularized incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    d = tiny if abs(d) < tiny else d
    d = 1.0 / d
    h = d
    for m in range(1, 100_000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = tiny if abs(d) < tiny else d
        c = 1.0 + aa / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = tiny if abs(d) < tiny else d
        c = 1.0 + aa / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _betacf(a, b, x) / a
    return 1.0 - math.exp(log_front) * _betacf(b, a, 1.0 - x) / b


def _t_upper_tail(t: float, dof: float) -> float:
    """P(T > t) for t >= 0."""
    return 0.5 * _betainc(dof / 2.0, 0.5, dof / (dof + t * t))


@cache
def t_quantile(p: float, dof: float) -> float:
    """Quantile of Student's t with `dof` degrees of freedom (the value `scipy.stats.t.ppf` gives)."""
    if not 0.0 < p < 1.0 or dof <= 0:
        raise ValueError(f"t_quantile needs 0 < p < 1 and dof > 0, got p={p}, dof={dof}")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1.0 - p, dof)
    if dof == 1:
        return math.tan(math.pi * (p - 0.5))
    if dof == 2:
        return (2.0 * p - 1.0) / math.sqrt(2.0 * p * (1.0 - p))
    tail = 1.0 - p
    low, high = 0.0, 1.0
    while _t_upper_tail(high, dof) > tail:
        low, high = high, high * 2.0
    # Bisection down to adjacent floats: the tail probability is monotone in t.
    for _ in range(200):
        mid = 0.5 * (low + high)
        if mid in (low, high):
            break
        if _t_upper_tail(mid, dof) > tail:
            low = mid
        else:
            high = mid
    return 0.5 * (low + high)


def t_interval(mean: float, scale: float, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """`scipy.stats.t.interval(confidence, df=n - 1, loc=mean, scale=scale)`."""
    q_low = (1.0 - confidence) / 2.0
    q_high = (1.0 + confidence) / 2.0
    return (
        t_quantile(q_low, float(n - 1)) * scale + mean,
        t_quantile(q_high, float(n - 1)) * scale + mean,
    )


# --------------------------------------------------------------------------------------------------
# Gym's rules for one measured result (a rollout row without `mask_sample`). The fast path below
# reproduces them per row layout; rows off the fast path go through these functions directly.


def _number(value: Any) -> int | float | None:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)):
        return value
    return None


def _usage_of(result: dict[str, Any]) -> dict[str, Any]:
    return (result.get("response") or {}).get("usage") or {}


def profiled_values(result: dict[str, Any]) -> dict[str, int | float]:
    """The fields Gym profiles: numeric values of `result | response.usage`, private fields left out."""
    values: dict[str, int | float] = {}
    for name, value in (result | _usage_of(result)).items():
        number = _number(value)
        if number is not None and not name.startswith("_") and name != MASK_SAMPLE:
            values[name] = number
    return values


def rollout_info(result: dict[str, Any]) -> dict[str, Any]:
    """The `rollout_infos` entry: id, indices, reward, numeric usage fields, then other numeric fields."""
    task, repeat = result[TASK_INDEX], result[ROLLOUT_INDEX]
    info: dict[str, Any] = {"rollout_id": f"{task}:{repeat}", TASK_INDEX: task, ROLLOUT_INDEX: repeat}
    if "reward" in result:
        info["reward"] = result.get("reward")
    for name, value in _usage_of(result).items():
        number = _number(value)
        if number is not None:
            info[name] = number
    for name, value in result.items():
        if name.startswith("_") or name in ("reward", "response", MASK_SAMPLE):
            continue
        number = _number(value)
        if number is not None:
            info[name] = number
    return info


def _cut_off(response: dict[str, Any]) -> bool:
    """Whether the length limit stopped the response (for the reward analysis)."""
    details = response.get("incomplete_details")
    return response.get("status") == "incomplete" or (
        type(details) is dict and details.get("reason") == "max_output_tokens"
    )


# --------------------------------------------------------------------------------------------------
# Scanning one byte range of a file into compact arrays (runs in worker processes for large files).
# This is the per-row hot loop: a few microseconds per row besides JSON parsing.

_BATCH_BYTES = 1 << 20  # lines are read in batches of about this size
_RANGE_BYTES = 16 << 20  # one unit of work for a worker process: small enough to keep both busy to the end
_PARALLEL_MIN_BYTES = 32 << 20  # smaller runs are scanned in this process: starting workers costs more
_MAX_WORKERS = 4  # beyond this, merging and writing dominate
_EXACT_INT = 2**53  # every integer up to this magnitude is exact in a float64
_INDEX_LIMIT = 2**63
_NUMBER_TYPES = frozenset((int, float, bool))
_NONE = type(None)
_TOKEN_FIELDS = ("input_tokens", "output_tokens", "total_tokens")
_tokens = itemgetter(*_TOKEN_FIELDS)
_NO_OUTPUT: list[Any] = []  # `response.output` defaults to an empty list


def _batches(path: Path, start: int, end: int) -> Iterator[list[bytes]]:
    """The lines starting in [start, end) (`start` at a line start), in batches."""
    with path.open("rb", buffering=_BATCH_BYTES) as handle:  # a large buffer: far fewer, larger reads
        handle.seek(start)
        remaining = end - start
        while remaining > 0:
            batch = handle.readlines(min(_BATCH_BYTES, remaining))
            if not batch:
                return
            size = sum(map(len, batch))
            while size - len(batch[-1]) >= remaining:  # lines starting at or after `end`
                size -= len(batch.pop())
            remaining -= size
            yield batch


def _not_an_object(path: Path, number: int, raw: bytes) -> JsonlFormatError | None:
    """Why a line that is not a JSON object is an error; None for a blank line."""
    if not raw.strip():
        return None
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError as error:
        return JsonlFormatError(path, number, None, f"not valid JSON ({error})")
    return JsonlFormatError(path, number, None, f"expected a JSON object, got {type(value).__name__}")


def _load(path: Path, number: int, raw: bytes) -> dict[str, Any] | None:
    """The JSON object on a line; None for a blank line."""
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        value = None
    if type(value) is dict:
        return value
    if error := _not_an_object(path, number, raw):
        raise error
    return None


def _check_index_limit(path: Path, number: int, task: int, repeat: int) -> None:
    for name, value in ((TASK_INDEX, task), (ROLLOUT_INDEX, repeat)):
        if value >= _INDEX_LIMIT:
            raise JsonlFormatError(path, number, name, "too large: indices must fit in 64 bits")


@dataclass
class _InputsChunk:
    """The materialized rows of one byte range."""

    lines: int = 0
    rows: array = field(default_factory=partial(array, "q"))  # per row: the fields of _INPUT_COLUMNS
    runs: dict[tuple[str, str], int] = field(default_factory=dict)  # (run key, agent name) -> id, in id order
    error: tuple[int, str | None, str] | None = None  # (line, field, message) of the first bad line

    def add(self, path: Path, number: int, row: dict[str, Any], offset: int, length: int) -> None:
        task, repeat, agent = _input_identity(path, number, row)
        server = row.get(ENVIRONMENT_SERVER)
        if server is not None and type(server) is not str:
            raise JsonlFormatError(path, number, ENVIRONMENT_SERVER, "expected a string or null")
        run_id = self.runs.setdefault((agent if server is None else server, agent), len(self.runs))
        self.rows.extend((task, repeat, number, offset, length, run_id))


def _input_identity(path: Path, number: int, row: dict[str, Any]) -> tuple[int, int, str]:
    """(task, rollout, agent name) of a valid materialized row; pydantic judges anything unusual."""
    task, repeat, ref = row.get(TASK_INDEX), row.get(ROLLOUT_INDEX), row.get(AGENT_REF)
    if (
        type(task) is int
        and type(repeat) is int
        and 0 <= task < _INDEX_LIMIT
        and 0 <= repeat < _INDEX_LIMIT
        and type(row.get(RESPONSES_CREATE_PARAMS)) is dict
        and type(ref) is dict
        and type(ref.get("name")) is str
    ):
        return task, repeat, ref["name"]
    model = validate_row(path, number, row, MaterializedInputRow)
    _check_index_limit(path, number, model.task_index, model.rollout_index)
    return model.task_index, model.rollout_index, model.agent_ref.name


def _scan_inputs(path: Path, start: int, end: int) -> _InputsChunk:
    chunk = _InputsChunk()
    number, offset = 0, start
    try:
        for batch in _batches(path, start, end):
            for raw in batch:
                number += 1
                offset += len(raw)
                row = _load(path, number, raw)
                if row is not None:
                    chunk.add(path, number, row, offset - len(raw), len(raw))
        chunk.lines = number
    except JsonlFormatError as error:
        chunk.error = (error.line, error.field, error.message)
    return chunk


@dataclass(frozen=True)
class _Layout:
    """How rollout rows of one kind carry their profiled numbers.

    `names` in Gym's column order within the row, which of them are floats (the others are ints, for
    `rollout_infos`), and the `rollout_infos` order as positions into `names` (None: each row's info is
    kept whole, for rows off the fast path).
    """

    names: tuple[str, ...]
    floats: tuple[bool, ...]
    info: tuple[int, ...] | None


_MASKED_LAYOUT = _Layout((), (), ())  # masked rows carry no numbers into the statistics


def _getter(names: tuple[str, ...]) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    if len(names) > 1:
        return itemgetter(*names)
    if names:
        name = names[0]
        return lambda row: (row[name],)
    return lambda row: ()


def _shape_key(row: dict[str, Any], usage: Any) -> tuple[Any, ...]:
    """Top-level and usage keys with their value types: rows with equal keys are handled alike."""
    if type(usage) is dict:
        return (*row, *map(type, row.values()), *usage, *map(type, usage.values()))
    return (*row, *map(type, row.values()), usage is None)


class _Shape:
    """What all rollout rows of one `_shape_key` share, worked out once.

    `fast`: the types alone satisfy `RolloutRow` (only a few values remain to check per row), no usage
    field clashes with a top-level one and no usage number is private, so Gym's rules reduce to picking
    the numbers by name: `top`, then `usage`.
    """

    def __init__(self, row: dict[str, Any], usage: Any, layout_id: Callable[[_Layout], int]):
        usage_fits = usage is None or (
            type(usage) is dict
            and all(type(usage.get(name)) is int for name in _TOKEN_FIELDS)
            and not usage.keys() & row.keys()
            and not any(name.startswith("_") and type(value) in _NUMBER_TYPES for name, value in usage.items())
        )
        self.fast = (
            usage_fits
            and type(row.get("reward")) in (int, float)
            and type(row.get("response")) is dict
            and type(row.get(TASK_INDEX)) is int
            and type(row.get(ROLLOUT_INDEX)) is int
            and type(row.get(AGENT_REF)) in (dict, _NONE)
            and type(row.get(MASK_SAMPLE)) in (bool, _NONE)
            and type(row.get("failure_kind")) in (str, _NONE)
            and type(row.get("failure_reason")) in (str, _NONE)
        )
        self.agent_ref_is_dict = type(row.get(AGENT_REF)) is dict
        if not self.fast:
            return
        top = tuple(
            name for name, value in row.items()
            if type(value) in _NUMBER_TYPES and not name.startswith("_") and name != MASK_SAMPLE
        )
        used = tuple(name for name, value in (usage or {}).items() if type(value) in _NUMBER_TYPES)
        floats = tuple(type(row[name]) is float for name in top) + tuple(type(usage[name]) is float for name in used)
        reward_at = top.index("reward")
        info = (reward_at, *range(len(top), len(top) + len(used)), *(i for i in range(len(top)) if i != reward_at))
        self.layout_id = layout_id(_Layout(top + used, floats, info))
        self.top = _getter(top)
        self.usage = _getter(used)
        self.has_ints = not all(floats)


@dataclass
class _RolloutsChunk:
    """The rollout rows of one byte range."""

    lines: int = 0
    rows: array = field(default_factory=partial(array, "q"))  # per row: the fields of _ROLLOUT_COLUMNS
    scores: array = field(default_factory=partial(array, "d"))  # per row: reward, output tokens (NaN: no usage)
    values: array = field(default_factory=partial(array, "d"))  # per row: its numbers, in its layout's order
    layouts: dict[_Layout, int] = field(default_factory=dict)  # layout -> id, in id order
    infos: dict[int, bytes] = field(default_factory=dict)  # row -> its rollout_infos entry, off the fast path
    error: tuple[int, str | None, str] | None = None

    def layout_id(self, layout: _Layout) -> int:
        return self.layouts.setdefault(layout, len(self.layouts))

    def add_fast(self, shape: _Shape, number: int, row: dict[str, Any], response: dict[str, Any],
                 usage: dict[str, Any] | None) -> bool:
        """Record a row of a fast shape; False when one of its values needs pydantic's verdict."""
        task, repeat = row[TASK_INDEX], row[ROLLOUT_INDEX]
        if not (0 <= task < _INDEX_LIMIT and 0 <= repeat < _INDEX_LIMIT):
            return False
        if shape.agent_ref_is_dict and type(row[AGENT_REF].get("name")) is not str:
            return False
        output = response.get("output", _NO_OUTPUT)
        if type(output) is not list:
            return False
        for item in output:
            if type(item) is not dict:
                return False
        if usage is not None and min(_tokens(usage)) < 0:
            return False
        masked = row.get(MASK_SAMPLE) is True
        if masked:
            layout_id, values = self.layout_id(_MASKED_LAYOUT), ()
        else:
            layout_id, values = shape.layout_id, shape.top(row) + shape.usage(usage)
            if shape.has_ints and (max(values) > _EXACT_INT or min(values) < -_EXACT_INT):
                return False
        details = response.get("incomplete_details")
        cut_off = response.get("status") == "incomplete" or (
            type(details) is dict and details.get("reason") == "max_output_tokens"
        )
        self.rows.extend((task, repeat, number, masked, cut_off, layout_id))
        self.scores.extend((row["reward"], math.nan if usage is None else usage["output_tokens"]))
        self.values.extend(values)
        return True

    def add_exact(self, path: Path, number: int, row: dict[str, Any]) -> None:
        """Validate a row with pydantic and record it by Gym's rules applied to the row itself."""
        model = validate_row(path, number, row, RolloutRow)
        task, repeat = model.task_index, model.rollout_index
        _check_index_limit(path, number, task, repeat)
        usage = model.response.usage
        masked = bool(row.get(MASK_SAMPLE))  # Gym tests the raw value's truth
        layout_id, values = self.layout_id(_MASKED_LAYOUT), ()
        if not masked:
            result = {k: v for k, v in row.items() if k != MASK_SAMPLE} | {TASK_INDEX: task, ROLLOUT_INDEX: repeat}
            numbers = profiled_values(result)
            values = tuple(numbers.values())
            layout_id = self.layout_id(_Layout(tuple(numbers), tuple(type(v) is float for v in values), None))
            self.infos[len(self.scores) // 2] = orjson.dumps(rollout_info(result))
        self.rows.extend((task, repeat, number, masked, _cut_off(row["response"]), layout_id))
        self.scores.extend((model.reward, math.nan if usage is None else usage.output_tokens))
        self.values.extend(values)


def _scan_rollouts(path: Path, start: int, end: int) -> _RolloutsChunk:
    chunk = _RolloutsChunk()
    shapes: dict[tuple[Any, ...], _Shape] = {}
    last_key: tuple[Any, ...] = ()
    shape: _Shape | None = None
    number = 0
    try:
        for batch in _batches(path, start, end):
            for raw in batch:
                number += 1
                row = _load(path, number, raw)
                if row is None:
                    continue
                response = row.get("response")
                usage = response.get("usage") if type(response) is dict else None
                key = _shape_key(row, usage)
                if key != last_key:  # consecutive rows mostly share a shape: skip hashing the key
                    shape = shapes.get(key)
                    if shape is None:
                        shape = shapes[key] = _Shape(row, usage, chunk.layout_id)
                    last_key = key
                if not (shape.fast and chunk.add_fast(shape, number, row, response, usage)):
                    chunk.add_exact(path, number, row)
        chunk.lines = number
    except JsonlFormatError as error:
        chunk.error = (error.line, error.field, error.message)
    return chunk


# --------------------------------------------------------------------------------------------------
# Reading a run: ranges, workers, and merging the ranges back in file order


def _line_ranges(path: Path, parts: int) -> list[tuple[int, int]]:
    """Up to `parts` byte ranges covering the file, each starting at a line start."""
    size = path.stat().st_size
    bounds = [0]
    with path.open("rb") as handle:
        for part in range(1, parts):
            handle.seek(max(size * part // parts, bounds[-1]))
            handle.readline()
            if handle.tell() >= size:
                break
            if handle.tell() > bounds[-1]:
                bounds.append(handle.tell())
    bounds.append(size)
    return list(zip(bounds, bounds[1:], strict=False))


def _default_workers() -> int:
    return min(os.cpu_count() or 1, _MAX_WORKERS)


def _worker_context() -> multiprocessing.context.BaseContext:
    """Fork while this process runs a single thread (fast, nothing re-imported). A process with several
    threads (a Dagster run) is unsafe to fork: workers then come from a fork server, which imports this
    module once and, like spawn, re-imports the main module in each worker."""
    if threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__])
    return context


def _run_scans(jobs: list[tuple[Callable[..., Any], Path, int, int]], workers: int) -> list[Any]:
    if workers <= 1:
        return [scan(path, start, end) for scan, path, start, end in jobs]
    with ProcessPoolExecutor(workers, mp_context=_worker_context()) as pool:
        futures = [pool.submit(scan, path, start, end) for scan, path, start, end in jobs]
        return [future.result() for future in futures]


def _concat(parts: Sequence[array], dtype: type, width: int = 1) -> np.ndarray:
    """Arrays of `width` values per row as one (rows, width) array, or flat when width is 1."""
    flat = np.concatenate([np.frombuffer(part, dtype=dtype) for part in parts] or [np.empty(0, dtype)])
    return flat if width == 1 else flat.reshape(-1, width)


def _valid_prefix(path: Path, chunks: Sequence[Any]) -> tuple[list[Any], list[int], JsonlFormatError | None]:
    """The chunks up to the first bad line, their first line numbers in the file, and that line's error."""
    used, bases, base = [], [], 0
    for chunk in chunks:
        used.append(chunk)
        bases.append(base)
        if chunk.error is not None:
            line, field_name, message = chunk.error
            return used, bases, JsonlFormatError(path, base + line, field_name, message)
        base += chunk.lines
    return used, bases, None


def _columns_of(chunks: Sequence[Any], bases: Sequence[int], fields: dict[str, Any], id_field: str,
                table: str) -> tuple[dict[str, np.ndarray], list[Any]]:
    """The chunks' rows as one compact column per field, with line numbers counted from the start of the
    file and each chunk's ids (`id_field`, into `chunk.<table>`) renumbered into one merged table.
    Each chunk's rows are dropped once copied."""
    width, id_at = len(fields), list(fields).index(id_field)
    columns = {name: np.empty(sum(len(c.rows) for c in chunks) // width, dtype) for name, dtype in fields.items()}
    merged: dict[Any, int] = {}
    at = 0
    for chunk, base in zip(chunks, bases, strict=True):
        rows = np.frombuffer(chunk.rows, dtype=np.int64).reshape(-1, width)
        end = at + len(rows)
        for i, column in enumerate(columns.values()):
            column[at:end] = rows[:, i]
        columns["line"][at:end] += base
        remap = np.array([merged.setdefault(entry, len(merged)) for entry in getattr(chunk, table)], dtype=np.int64)
        columns[id_field][at:end] = remap[rows[:, id_at]]
        del rows
        chunk.rows = array("q")
        at = end
    return columns, list(merged)


def _key_order(path: Path, what: str, columns: dict[str, np.ndarray], error: JsonlFormatError | None) -> np.ndarray:
    """The rows sorted by key, after raising what a line-by-line reader meets first: a bad line or a
    repeated key."""
    order = np.lexsort((columns["rollout"], columns["task"]))
    duplicate = _first_duplicate(columns["task"], columns["rollout"], columns["line"], order)
    if duplicate is not None and (error is None or duplicate[0] < error.line):
        raise DuplicateRolloutKeyError(path, duplicate[0], duplicate[1], duplicate[2], what)
    if error is not None:
        raise error
    return order


def _first_duplicate(task: np.ndarray, rollout: np.ndarray, line: np.ndarray,
                     order: np.ndarray) -> tuple[int, RolloutKey, int] | None:
    """(line, key, first line) of the earliest line repeating a key; `order` sorts by key, stably."""
    t, r = task[order], rollout[order]
    repeats = np.flatnonzero((t[1:] == t[:-1]) & (r[1:] == r[:-1])) + 1
    if not len(repeats):
        return None
    lines = line[order]
    firsts = np.ones(len(order), dtype=bool)
    firsts[repeats] = False
    first_of = np.maximum.accumulate(np.where(firsts, np.arange(len(order)), 0))
    at = repeats[np.argmin(lines[repeats])]
    return int(lines[at]), (int(t[at]), int(r[at])), int(lines[first_of[at]])


_INPUT_COLUMNS = {"task": np.int64, "rollout": np.int64, "line": np.int64, "offset": np.int64, "length": np.int64,
                  "run": np.int32}


@dataclass
class _Inputs:
    """All materialized rows, in file order."""

    task: np.ndarray
    rollout: np.ndarray
    offset: np.ndarray
    length: np.ndarray
    run: np.ndarray
    runs: list[tuple[str, str]]  # (run key, agent name) by run id
    order: np.ndarray  # rows sorted by key


def _merge_inputs(path: Path, chunks: Sequence[_InputsChunk]) -> _Inputs:
    used, bases, error = _valid_prefix(path, chunks)
    columns, runs = _columns_of(used, bases, _INPUT_COLUMNS, "run", "runs")
    order = _key_order(path, "materialized input", columns, error)
    return _Inputs(columns["task"], columns["rollout"], columns["offset"], columns["length"], columns["run"], runs,
                   order)


_ROLLOUT_COLUMNS = {"task": np.int64, "rollout": np.int64, "line": np.int64, "masked": np.bool_,
                    "cut_off": np.bool_, "layout": np.int32}


@dataclass
class _Results:
    """All rollout rows, sorted by key; each row's profiled numbers are `values[value_start:...]`."""

    task: np.ndarray
    rollout: np.ndarray
    line: np.ndarray
    masked: np.ndarray
    cut_off: np.ndarray
    reward: np.ndarray
    output_tokens: np.ndarray
    layout: np.ndarray
    value_start: np.ndarray
    values: np.ndarray
    layouts: list[_Layout]
    infos: dict[int, bytes]  # row -> rollout_infos entry, for rows off the fast path


def _merge_rollouts(path: Path, chunks: Sequence[_RolloutsChunk]) -> _Results:
    used, bases, error = _valid_prefix(path, chunks)
    scores = _concat([chunk.scores for chunk in used], np.float64, 2)
    values = _concat([chunk.values for chunk in used], np.float64)
    infos, first_row = {}, 0
    for chunk in used:
        infos.update((first_row + row, info) for row, info in chunk.infos.items())
        first_row += len(chunk.scores) // 2
        chunk.scores, chunk.values = array("d"), array("d")
    columns, layouts = _columns_of(used, bases, _ROLLOUT_COLUMNS, "layout", "layouts")
    order = _key_order(path, "rollout result", columns, error)
    lengths = np.array([len(layout.names) for layout in layouts], dtype=np.int64)[columns["layout"]]
    columns["value_start"] = np.cumsum(lengths) - lengths
    del lengths
    for name in columns:  # into key order, one column at a time
        columns[name] = columns[name][order]
    position = np.empty(len(order), dtype=np.int64)
    position[order] = np.arange(len(order))
    return _Results(
        **columns, reward=scores[order, 0], output_tokens=scores[order, 1], values=values, layouts=layouts,
        infos={int(position[row]): info for row, info in infos.items()},
    )


def _read_run(inputs_path: Path, rollouts_path: Path, workers: int | None) -> tuple[_Inputs, _Results]:
    """Both files as arrays; errors are raised in the order a line-by-line reader meets them."""
    if not inputs_path.exists():
        raise FileNotFoundError(f"{inputs_path}: no such file")
    rollouts_exist = rollouts_path.exists()
    sizes = (inputs_path.stat().st_size, rollouts_path.stat().st_size if rollouts_exist else 0)
    if workers is None:
        workers = 1 if sum(sizes) < _PARALLEL_MIN_BYTES else _default_workers()

    def ranges(path: Path, size: int) -> list[tuple[int, int]]:
        return _line_ranges(path, 1 if workers <= 1 else max(workers, math.ceil(size / _RANGE_BYTES)))

    jobs: list[tuple[Callable[..., Any], Path, int, int]] = [
        (_scan_inputs, inputs_path, start, end) for start, end in ranges(inputs_path, sizes[0])
    ]
    input_jobs = len(jobs)
    if rollouts_exist:
        jobs += [(_scan_rollouts, rollouts_path, start, end) for start, end in ranges(rollouts_path, sizes[1])]
    chunks = _run_scans(jobs, workers)
    input_chunks, rollout_chunks = chunks[:input_jobs], chunks[input_jobs:]
    del chunks  # each file's chunks go as soon as they are merged
    inputs = _merge_inputs(inputs_path, input_chunks)
    del input_chunks
    if not rollouts_exist:
        raise FileNotFoundError(f"{rollouts_path}: no such file")
    return inputs, _merge_rollouts(rollouts_path, rollout_chunks)


# --------------------------------------------------------------------------------------------------
# Statistics (pandas semantics: NaN-skipping, ddof=1, linear quantiles)


def _with_none(values: np.ndarray) -> list[float | None]:
    boxed = values.astype(object)
    boxed[np.isnan(values)] = None
    return boxed.tolist()


def describe_groups(names: Sequence[str], columns: Sequence[np.ndarray],
                    starts: np.ndarray) -> list[tuple[str, list[float | None]]]:
    """Gym's `describe_dataframe` for each group of consecutive rows (group i starts at row `starts[i]`).

    `columns` hold one value per row, NaN where the row lacks the field. Returns `(<stat>/<field>,
    value per group)` in Gym's key order, None where Gym leaves the key out.
    """
    if not columns:
        return []
    sizes = np.diff(np.append(starts, len(columns[0])))
    group = np.repeat(np.arange(len(starts)), sizes)
    stats: dict[str, list[np.ndarray]] = {stat: [] for stat in STAT_NAMES}
    counts = []
    for values in columns:
        present = ~np.isnan(values)
        n = np.add.reduceat(present.astype(np.int64), starts)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = np.add.reduceat(np.where(present, values, 0.0), starts) / n
            deviation = np.where(present, values - mean[group], 0.0)
            std = np.sqrt(np.add.reduceat(deviation * deviation, starts) / (n - 1))
        ordered = values[np.lexsort((values, group))]  # within each group ascending, NaN last
        median = (ordered[starts + (n - 1) // 2] + ordered[starts + n // 2]) / 2
        stats["mean"].append(mean)
        stats["max"].append(np.fmax.reduceat(values, starts))
        stats["min"].append(np.fmin.reduceat(values, starts))
        stats["median"].append(np.where(n > 0, median, np.nan))
        stats["std"].append(np.where(n > 1, std, np.nan))
        counts.append(n)
    every_std_undefined = ~np.any([n > 1 for n in counts], axis=0)
    stats["std"] = [np.where(every_std_undefined & (n == sizes), 0.0, std) for std, n in zip(stats["std"], counts,
                                                                                            strict=True)]
    return [(f"{stat}/{name}", _with_none(stats[stat][i])) for stat in STAT_NAMES for i, name in enumerate(names)]


def _sample_std(values: np.ndarray) -> float:
    return float(np.std(values, ddof=1)) if len(values) > 1 else 0.0


class _Warnings:
    def __init__(self) -> None:
        self.messages: list[str] = []

    def warn(self, message: str) -> None:
        self.messages.append(message)
        warnings.warn(message, UserWarning, stacklevel=3)


def _confidence_interval(mean: float, sem: float, n: int, log: _Warnings) -> tuple[float, float] | None:
    if n <= 1:
        return None
    if sem == 0:
        log.warn(
            f"Standard error is 0 (all {n} values are identical) -- confidence interval collapses to a "
            "single point rather than being computed."
        )
        return mean, mean
    return t_interval(mean, sem, n)


def _split_by(keys: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """(key, positions) for each distinct key, keys ascending, positions in their original order."""
    order = np.argsort(keys, kind="stable")
    distinct, starts = np.unique(keys[order], return_index=True)
    return [(int(k), part) for k, part in zip(distinct, np.split(order, starts[1:]), strict=False)]


def _repeat_level_metrics(columns: dict[str, np.ndarray], label: np.ndarray, labels: Sequence[str],
                          task: np.ndarray, repeat: np.ndarray, log: _Warnings) -> list[dict[str, Any]]:
    """Per (agent, repeat) summaries over the measured rows (in key order); single-repeat agents are skipped."""
    entries: list[dict[str, Any]] = []
    for label_id, rows in _split_by(label):
        by_repeat = _split_by(repeat[rows])
        if len(by_repeat) <= 1:
            continue
        total_tasks = len(np.unique(task[rows]))
        for repeat_index, positions in by_repeat:
            group = rows[positions]
            entry: dict[str, Any] = {
                AGENT_REF: {"name": labels[label_id]},
                ROLLOUT_INDEX: repeat_index,
                "sample_count": len(group),  # keys are unique: one row per task
                "missing_count": total_tasks - len(group),
            }
            for name in sorted(columns):
                values = columns[name][group]
                values = values[~np.isnan(values)]
                n = len(values)
                if n == 0:
                    continue
                mean = float(values.sum() / n)
                std = _sample_std(values)
                sem = std / n**0.5
                entry[f"mean/{name}"] = mean
                entry[f"median/{name}"] = float(np.median(values))
                entry[f"std/{name}"] = std
                entry[f"sem/{name}"] = sem
                entry[f"min/{name}"] = float(values.min())
                entry[f"max/{name}"] = float(values.max())
                entry[f"p25/{name}"] = float(np.quantile(values, 0.25))
                entry[f"p75/{name}"] = float(np.quantile(values, 0.75))
                if ci := _confidence_interval(mean, sem, n, log):
                    entry[f"ci_low_95/{name}"], entry[f"ci_high_95/{name}"] = float(ci[0]), float(ci[1])
            entries.append(entry)

    incomplete = [entry for entry in entries if entry["missing_count"] > 0]
    if incomplete:
        first = incomplete[0]
        log.warn(
            f"{len(incomplete)} repeat(s) are missing rollouts for some tasks "
            f"(e.g. agent={first[AGENT_REF]['name']!r}, {ROLLOUT_INDEX}={first[ROLLOUT_INDEX]}, "
            f"missing_count={first['missing_count']}). repeat_level_metrics statistics were computed from "
            "unequal sample sizes across repeats and may not be directly comparable, and agent_level_metrics "
            "may be biased toward whichever tasks happened to complete. Consider obtaining the missing "
            "rollouts before drawing conclusions from these metrics."
        )
    return entries


def _is_primary(name: str) -> bool:
    """Gym's `is_primary_metric` for the keys of a repeat-level entry: a `mean/<f>` point estimate."""
    return name.startswith("mean/") and not name.endswith(_NOT_PRIMARY_SUFFIXES) and "_across_repeats/" not in name


def _across_repeats(repeat_entries: Sequence[dict[str, Any]], log: _Warnings) -> dict[str, dict[str, float]]:
    """Per agent: each per-repeat `mean/<f>` treated as one observation, summarised across repeats."""
    columns = list(dict.fromkeys(key for entry in repeat_entries for key in entry if _is_primary(key)))
    by_agent: dict[str, list[dict[str, Any]]] = {}
    for entry in repeat_entries:
        by_agent.setdefault(entry[AGENT_REF]["name"], []).append(entry)
    aggregated: dict[str, dict[str, float]] = {}
    for agent in sorted(by_agent):
        entries = by_agent[agent]
        out: dict[str, float] = {}
        for name in columns:
            values = np.asarray([e[name] for e in entries if name in e], dtype=np.float64)
            n = len(values)
            if n == 0:
                continue
            mean = float(values.sum() / n)
            std = _sample_std(values)
            se = std / n**0.5
            out[f"mean_across_repeats/{name}"] = mean
            out[f"median_across_repeats/{name}"] = float(np.median(values))
            out[f"std_across_repeats/{name}"] = std
            out[f"min_across_repeats/{name}"] = float(values.min())
            out[f"max_across_repeats/{name}"] = float(values.max())
            out[f"se_across_repeats/{name}"] = se
            if ci := _confidence_interval(mean, se, n, log):
                out[f"ci_low_95_across_repeats/{name}"] = float(ci[0])
                out[f"ci_high_95_across_repeats/{name}"] = float(ci[1])
        aggregated[agent] = out
    return aggregated


def _coverage_by_agent(agent: np.ndarray, agents: Sequence[str], task: np.ndarray,
                       masked: np.ndarray) -> dict[str, dict[str, int]]:
    """`coverage/*` counts for each agent that had a masked rollout, over all results in key order
    (agents in order of their first result, as Gym's dict fills)."""
    coverage: dict[str, dict[str, int]] = {}
    distinct, first = np.unique(agent, return_index=True)
    for agent_id in distinct[np.argsort(first)]:
        mine = agent == agent_id
        masked_here = int(np.count_nonzero(mine & masked))
        if not masked_here:
            continue
        measured_tasks = np.unique(task[mine & ~masked])
        coverage[agents[agent_id]] = {
            "coverage/measured_rollouts": int(np.count_nonzero(mine & ~masked)),
            "coverage/masked_rollouts": masked_here,
            "coverage/measured_tasks": len(measured_tasks),
            "coverage/fully_masked_tasks": len(np.setdiff1d(np.unique(task[mine]), measured_tasks)),
        }
    return coverage


def _label_runs(agent_by_key: dict[str, str]) -> dict[str, str]:
    """Gym's `label_runs`: a run keeps its agent's name when that agent has one run, else its own key;
    labels that would still repeat fall back to the key."""
    runs_of = Counter(agent_by_key.values())
    labels = {key: agent if runs_of[agent] == 1 else key for key, agent in agent_by_key.items()}
    while True:
        counts = Counter(labels.values())
        clashing = [key for key, label in labels.items() if counts[label] > 1 and label != key]
        if not clashing:
            return labels
        for key in clashing:
            labels[key] = key


def _ids(values: Sequence[Any]) -> tuple[np.ndarray, list[Any]]:
    """Ids that sort like the values, and the distinct values by id."""
    distinct = sorted(set(values))
    position = {value: i for i, value in enumerate(distinct)}
    return np.array([position[value] for value in values], dtype=np.int64), distinct


# --------------------------------------------------------------------------------------------------
# Profile rows, built one at a time

_ROWS_PER_BLOCK = 1024  # profile rows whose rollout_infos are built together
_PARALLEL_MIN_ROLLOUTS = 50_000  # the profile rows of smaller runs are written by this process


@dataclass
class TaskRows:
    """The rows of `<stem>_reward_profiling.jsonl`, built on demand from compact arrays.

    Iterate to stream them (each pass re-reads the `sample` lines from the materialized inputs);
    `len()` is the number of rows.
    """

    inputs_path: Path
    task: np.ndarray  # per row (group)
    agent: list[str] | None  # per row: the agent label, when rows are per (task, agent)
    names: list[str]  # the profiled fields, in Gym's column order
    expected: np.ndarray  # per row
    sample_offset: np.ndarray  # per row: its sample's line in the materialized inputs
    sample_length: np.ndarray
    starts: np.ndarray  # per row: its first measured rollout; rollouts are in row order
    repeat: np.ndarray  # per measured rollout
    layout: np.ndarray
    infos: dict[int, bytes]  # measured rollout -> rollout_infos entry, for rollouts off the fast path
    info_specs: list[list[tuple[str, int, bool]] | None]  # by layout: (name, column, is float) in info order
    columns: list[np.ndarray]  # per measured rollout, each profiled field (NaN: no value)

    def __len__(self) -> int:
        return len(self.task)

    def part(self, first: int, last: int) -> TaskRows:
        """Rows [first, last) on their own (what a writer process is sent)."""
        start, end = np.append(self.starts, len(self.repeat))[[first, last]].tolist()
        return TaskRows(
            inputs_path=self.inputs_path,
            task=self.task[first:last],
            agent=None if self.agent is None else self.agent[first:last],
            names=self.names,
            expected=self.expected[first:last],
            sample_offset=self.sample_offset[first:last],
            sample_length=self.sample_length[first:last],
            starts=self.starts[first:last] - start,
            repeat=self.repeat[start:end],
            layout=self.layout[start:end],
            infos={j - start: info for j, info in self.infos.items() if start <= j < end},
            info_specs=self.info_specs,
            columns=[column[start:end] for column in self.columns],
        )

    def __iter__(self) -> Iterator[dict[str, Any]]:
        bounds = np.append(self.starts, len(self.repeat))
        with self.inputs_path.open("rb") as handle:
            for first in range(0, len(self.task), _ROWS_PER_BLOCK):
                last = min(first + _ROWS_PER_BLOCK, len(self.task))
                yield from self._block(handle, first, last, bounds)

    def _block(self, handle: Any, first: int, last: int, bounds: np.ndarray) -> Iterator[dict[str, Any]]:
        """Rows [first, last): their rollout_infos are built together, which is much cheaper per rollout."""
        start, stop = int(bounds[first]), int(bounds[last])
        infos = self._rollout_infos(np.repeat(self.task[first:last], np.diff(bounds[first:last + 1])), start, stop)
        stats = describe_groups(self.names, [column[start:stop] for column in self.columns],
                                self.starts[first:last] - start)
        offsets = (bounds[first:last + 1] - start).tolist()  # each row's rollouts within the block
        for i, (task, expected) in enumerate(zip(self.task[first:last].tolist(), self.expected[first:last].tolist(),
                                                 strict=True)):
            begin, end = offsets[i], offsets[i + 1]
            row: dict[str, Any] = {TASK_INDEX: task}
            for key, values in stats:
                if values[i] is not None:
                    row[key] = values[i]
            if self.agent is not None:
                row[AGENT_REF] = {"name": self.agent[first + i]}
            row["sample"] = self._sample(handle, first + i, task)
            num = end - begin
            row["num_rollouts"] = num
            row["expected_num_rollouts"] = expected
            row["missing_num_rollouts"] = expected - num
            row["reward_profile_completion_pct"] = 100.0 if expected == 0 else 100.0 * num / expected
            row["rollout_infos"] = infos[begin:end]
            yield row

    def _sample(self, handle: Any, i: int, task: int) -> dict[str, Any]:
        handle.seek(int(self.sample_offset[i]))
        sample = orjson.loads(handle.read(int(self.sample_length[i])))
        if sample.get(TASK_INDEX) != task:
            raise RuntimeError(f"{self.inputs_path} changed while it was being profiled")
        sample.pop(TASK_INDEX, None)
        sample.pop(ROLLOUT_INDEX, None)
        return sample

    def _rollout_infos(self, tasks: np.ndarray, start: int, end: int) -> list[dict[str, Any]]:
        """The rollout_infos entries of measured rollouts [start, end), whose tasks are `tasks`."""
        infos: list[Any] = [None] * (end - start)
        layouts = self.layout[start:end]
        for layout in np.unique(layouts).tolist():
            at = np.flatnonzero(layouts == layout)
            spec = self.info_specs[layout]
            if spec is None:
                for j in at.tolist():
                    infos[j] = orjson.loads(self.infos[start + j])
                continue
            task, repeat = tasks[at].tolist(), self.repeat[start:end][at].tolist()
            columns = [self.columns[column][start:end][at] for _, column, _ in spec]
            columns = [(c if is_float else c.astype(np.int64)).tolist() for c, (_, _, is_float) in zip(
                columns, spec, strict=True)]
            keys = ("rollout_id", TASK_INDEX, ROLLOUT_INDEX, *(name for name, _, _ in spec))
            ids = [f"{t}:{r}" for t, r in zip(task, repeat, strict=True)]
            # dict(zip(...)) keeps Gym's overwrite-in-place for a field that repeats a key (say `rollout_id`).
            for j, values in zip(at.tolist(), zip(ids, task, repeat, *columns, strict=True), strict=True):
                infos[j] = dict(zip(keys, values, strict=True))
        return infos


# --------------------------------------------------------------------------------------------------
# Result and entry points


@dataclass
class ProfileResult:
    task_rows: TaskRows
    agent_metrics: list[dict[str, Any]]
    repeat_level_metrics: list[dict[str, Any]]
    analysis: reward_analysis.RewardAnalysis
    expected_rollouts: int
    completed_rollouts: int
    tasks_total: int
    tasks_complete: int
    tasks_partial: int
    tasks_dropped: int
    masked_rollouts: int
    missing_keys: list[RolloutKey] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def completion_pct(self) -> float:
        if self.expected_rollouts == 0:
            return 100.0
        return 100.0 * self.completed_rollouts / self.expected_rollouts


def _join(inputs: _Inputs, results: _Results, rollouts_path: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per rollout row its materialized row; per materialized row whether it has a result, and its
    task's rank (which sorts like the task). Rollouts without a materialized row are an error."""
    tasks = np.unique(np.concatenate([inputs.task, results.task]))
    repeats = np.unique(np.concatenate([inputs.rollout, results.rollout]))
    input_task = np.searchsorted(tasks, inputs.task)
    # Codes number the keys in sorted order: code order is key order.
    input_codes = (input_task * len(repeats) + np.searchsorted(repeats, inputs.rollout))[inputs.order]
    result_codes = np.searchsorted(tasks, results.task) * len(repeats) + np.searchsorted(repeats, results.rollout)
    del tasks, repeats
    at = np.searchsorted(input_codes, result_codes).clip(max=max(len(input_codes) - 1, 0))
    matched = input_codes[at] == result_codes if len(input_codes) else np.zeros(len(result_codes), dtype=bool)
    if not matched.all():
        raise UnmatchedRolloutsError(rollouts_path, [
            ((int(results.task[i]), int(results.rollout[i])), int(results.line[i])) for i in np.flatnonzero(~matched)
        ])
    input_of = inputs.order[at]
    has_result = np.zeros(len(inputs.task), dtype=bool)
    has_result[input_of] = True
    return input_of, has_result, input_task


@dataclass
class _Agents:
    """Gym's agents: run labels, and the profile groups they imply."""

    labels: list[str]  # sorted
    label: np.ndarray  # per materialized row: its label id
    per_agent: bool  # some task ran under several labels: a profile row per (task, label)
    group: np.ndarray  # per materialized row: its profile row's code (codes sort like the rows)


def _agents(inputs: _Inputs, input_task: np.ndarray, unmasked: np.ndarray) -> _Agents:
    """Labels as Gym gives them from the materialized rows that are not masked, in file order."""
    agent_by_key: dict[str, str] = {}
    runs, first_row = np.unique(inputs.run[unmasked], return_index=True)
    for run in runs[np.argsort(first_row)]:
        agent_by_key.setdefault(*inputs.runs[run])
    run_labels = _label_runs(agent_by_key)
    # A run seen only on masked rows profiles nothing; its agent name labels it in the analysis.
    label_of_run, labels = _ids([run_labels.get(key, agent) for key, agent in inputs.runs])
    label = label_of_run[inputs.run]
    with_label = input_task * max(len(labels), 1) + label
    per_agent = len(np.unique(with_label[unmasked])) > len(np.unique(input_task[unmasked]))
    return _Agents(labels, label, per_agent, with_label if per_agent else input_task)


def _columns(results: _Results, rows: np.ndarray) -> tuple[list[str], list[np.ndarray]]:
    """The profiled fields over `rows`: names in first-seen order, one column each (NaN: no value)."""
    layout, start = results.layout[rows], results.value_start[rows]
    distinct, first = np.unique(layout, return_index=True)
    index: dict[str, int] = {}
    for layout_id in distinct[np.argsort(first)]:
        for name in results.layouts[layout_id].names:
            index.setdefault(name, len(index))
    columns = [np.full(len(rows), np.nan) for _ in index]
    for layout_id in distinct:
        at = np.flatnonzero(layout == layout_id)
        for position, name in enumerate(results.layouts[layout_id].names):
            columns[index[name]][at] = results.values[start[at] + position]
    return list(index), columns


def _task_rows(inputs_path: Path, inputs: _Inputs, results: _Results, agents: _Agents, input_of: np.ndarray,
               unmasked: np.ndarray, measured: np.ndarray, names: list[str], columns: list[np.ndarray]) -> TaskRows:
    measured_input = input_of[measured]
    group = agents.group[measured_input]
    starts = np.flatnonzero(np.diff(group, prepend=-1))
    expected_groups, expected_counts = np.unique(agents.group[unmasked], return_counts=True)
    first_input = measured_input[starts]

    # How the rollout_infos entries of each layout in use read the columns.
    index = {name: i for i, name in enumerate(names)}
    specs: list[list[tuple[str, int, bool]] | None] = [None] * len(results.layouts)
    for layout_id in np.unique(results.layout[measured]).tolist():
        layout = results.layouts[layout_id]
        if layout.info is not None:
            specs[layout_id] = [(layout.names[p], index[layout.names[p]], layout.floats[p]) for p in layout.info]
    irregular = np.flatnonzero(np.isin(measured, np.fromiter(results.infos, dtype=np.int64)))
    return TaskRows(
        inputs_path=inputs_path,
        task=results.task[measured[starts]],
        agent=[agents.labels[i] for i in agents.label[first_input].tolist()] if agents.per_agent else None,
        names=names,
        expected=expected_counts[np.searchsorted(expected_groups, group[starts])],
        sample_offset=inputs.offset[first_input],
        sample_length=inputs.length[first_input],
        starts=starts,
        repeat=results.rollout[measured],
        layout=results.layout[measured],
        infos={int(j): results.infos[int(measured[j])] for j in irregular},
        info_specs=specs,
        columns=columns,
    )


def _agent_metrics(names: list[str], columns: list[np.ndarray], label: np.ndarray, labels: list[str],
                   across: dict[str, dict[str, float]], coverage: dict[str, dict[str, int]]) -> list[dict[str, Any]]:
    """Per agent label (sorted): its describe statistics, across-repeat summaries and coverage counts;
    then coverage-only entries for agents whose every rollout was masked."""
    coverage = dict(coverage)
    entries: list[dict[str, Any]] = []
    order = np.argsort(label, kind="stable")
    label_ids, starts = np.unique(label[order], return_index=True)
    stats = describe_groups(names, [column[order] for column in columns], starts)
    for i, label_id in enumerate(label_ids.tolist()):
        name = labels[label_id]
        entry: dict[str, Any] = {key: values[i] for key, values in stats if values[i] is not None}
        entry[AGENT_REF] = {"name": name}
        entry.update(across.get(name, {}))
        entry.update(coverage.pop(name, {}))
        entries.append(entry)
    entries += [{AGENT_REF: {"name": agent}, **counts} for agent, counts in coverage.items()]
    return entries


def _completion(inputs: _Inputs, input_task: np.ndarray, has_result: np.ndarray) -> tuple[int, int, int, int]:
    """(total, complete, partial, dropped) over Gym's completion groups: the (task, run) of every
    materialized row, masked or not."""
    key_of_run, _ = _ids([key for key, _ in inputs.runs])
    code = input_task * max(len(inputs.runs), 1) + key_of_run[inputs.run]
    groups, expected = np.unique(code, return_counts=True)
    completed = np.bincount(np.searchsorted(groups, code[has_result]), minlength=len(groups))
    return (len(groups), int(np.count_nonzero(completed == expected)),
            int(np.count_nonzero((completed > 0) & (completed < expected))), int(np.count_nonzero(completed == 0)))


def profile_run(materialized_inputs: Path, rollouts: Path, allow_partial: bool = False, *,
                workers: int | None = None) -> ProfileResult:
    """Profile one run the way `gym eval profile` does; see the module docstring for the rules.

    `workers`: processes scanning the files (default: this process for small runs, else one per CPU,
    at most 4). The outputs do not depend on it.
    """
    inputs_path, rollouts_path = Path(materialized_inputs), Path(rollouts)
    inputs, results = _read_run(inputs_path, rollouts_path, workers)
    input_of, has_result, input_task = _join(inputs, results, rollouts_path)
    missing_rows = inputs.order[~has_result[inputs.order]]
    missing = list(zip(inputs.task[missing_rows].tolist(), inputs.rollout[missing_rows].tolist(), strict=True))
    if missing and not allow_partial:
        raise MissingRolloutsError(missing)

    masked = results.masked  # rollouts are in key order from here on
    unmasked = np.ones(len(inputs.task), dtype=bool)
    unmasked[input_of[masked]] = False
    agents = _agents(inputs, input_task, unmasked)
    measured = np.flatnonzero(~masked)
    if agents.per_agent:  # rows per (task, label), rollouts in key order within each
        measured = measured[np.argsort(agents.group[input_of[measured]], kind="stable")]
    names, columns = _columns(results, measured)
    measured_label = agents.label[input_of[measured]]

    log = _Warnings()
    repeat_level = _repeat_level_metrics(dict(zip(names, columns, strict=True)), measured_label, agents.labels,
                                         results.task[measured], results.rollout[measured], log)
    agent_of_run, agent_names = _ids([agent for _, agent in inputs.runs])
    coverage = _coverage_by_agent(agent_of_run[inputs.run[input_of]], agent_names, results.task, masked)
    agent_metrics = _agent_metrics(names, columns, measured_label, agents.labels, _across_repeats(repeat_level, log),
                                   coverage)
    total, complete, partial, dropped = _completion(inputs, input_task, has_result)
    analysis = reward_analysis.analyze(
        task=results.task,
        rollout=results.rollout,
        agent=agents.label[input_of],
        agents=agents.labels,
        per_agent=agents.per_agent,
        reward=results.reward,
        output_tokens=results.output_tokens,
        cut_off=results.cut_off,
        masked=masked,
        num_repeats=int(np.unique(agents.group, return_counts=True)[1].max(initial=0)),
    )
    return ProfileResult(
        task_rows=_task_rows(inputs_path, inputs, results, agents, input_of, unmasked, measured, names, columns),
        agent_metrics=agent_metrics,
        repeat_level_metrics=repeat_level,
        analysis=analysis,
        expected_rollouts=len(inputs.task),
        completed_rollouts=len(results.task),
        tasks_total=total,
        tasks_complete=complete,
        tasks_partial=partial,
        tasks_dropped=dropped,
        masked_rollouts=int(np.count_nonzero(masked)),
        missing_keys=missing,
        warnings=log.messages,
    )


def output_paths(rollouts_path: Path, output_dir: Path | None = None) -> dict[str, Path]:
    rollouts_path = Path(rollouts_path)
    folder = Path(output_dir) if output_dir is not None else rollouts_path.parent
    stem = rollouts_path.stem
    return {
        "reward_profiling": folder / f"{stem}_reward_profiling.jsonl",
        "agent_metrics": folder / f"{stem}_agent_metrics.json",
        "repeat_level_metrics": folder / f"{stem}_repeat_level_metrics.json",
        "reward_analysis": folder / f"{stem}_reward_analysis.parquet",
        "reward_analysis_summary": folder / f"{stem}_reward_analysis.json",
    }


@contextmanager
def _rows_written(path: Path, rows: TaskRows, workers: int) -> Iterator[None]:
    """The profile rows as JSONL, written atomically by the end of the `with` block. With workers, each
    writes a contiguous part of the rows to a file of its own while the block runs in this process;
    the parts are then joined in order."""
    if workers <= 1:
        yield
        write_jsonl_atomic(path, rows)
        return
    cuts = np.linspace(0, len(rows), workers + 1).astype(int).tolist()
    parts = [path.with_name(f".{path.name}.{os.getpid()}.part{i}") for i in range(workers)]
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with ProcessPoolExecutor(workers, mp_context=_worker_context()) as pool:
            futures = [pool.submit(write_jsonl_atomic, part, rows.part(first, last))
                       for part, first, last in zip(parts, cuts, cuts[1:], strict=False)]
            yield
            for future in futures:
                future.result()
        with temporary.open("wb") as joined:
            for part in parts:
                with part.open("rb") as handle:
                    shutil.copyfileobj(handle, joined, _BATCH_BYTES)
            joined.flush()
            os.fsync(joined.fileno())
        os.replace(temporary, path)
    finally:
        for leftover in (*parts, temporary):
            leftover.unlink(missing_ok=True)


def write_profile(result: ProfileResult, rollouts_path: Path, output_dir: Path | None = None, *,
                  workers: int | None = None) -> dict[str, Path]:
    """Write Gym's three profile files (compact orjson, like Gym) and the reward analysis (Parquet + JSON
    summary), each atomically; return their paths.

    `workers`: processes building the profile rows (default: this process for small runs, else one per
    CPU, at most 4). The files do not depend on it.
    """
    paths = output_paths(rollouts_path, output_dir)
    if workers is None:
        workers = 1 if len(result.task_rows.repeat) < _PARALLEL_MIN_ROLLOUTS else _default_workers()
    with _rows_written(paths["reward_profiling"], result.task_rows, workers):
        write_json_atomic(paths["agent_metrics"], result.agent_metrics)
        write_json_atomic(paths["repeat_level_metrics"], result.repeat_level_metrics)
        reward_analysis.write_analysis(result.analysis, paths["reward_analysis"], paths["reward_analysis_summary"])
    return paths


def summary_lines(result: ProfileResult, paths: dict[str, Path] | None = None) -> list[str]:
    """Gym's printed completion summary; with `paths`, also its output lines and ours."""
    lines = [
        f"Reward profile completion: {result.completed_rollouts}/{result.expected_rollouts} rollout rows "
        f"({result.completion_pct:.2f}%)",
        f"Input rows: {result.tasks_total} total; {result.tasks_complete} complete; {result.tasks_partial} "
        f"partial; {result.tasks_dropped} without rollouts dropped from output.",
        f"Masked from quality metrics: {result.masked_rollouts} rollout rows (kept in completion accounting above).",
    ]
    if paths:
        lines += [
            f"Reward profiling outputs: {paths['reward_profiling']}",
            f"Agent-level metrics: {paths['agent_metrics']}",
            f"Repeat-level metrics: {paths['repeat_level_metrics']}",
        ]
        if "reward_analysis" in paths:
            lines += [
                f"Reward analysis: {paths['reward_analysis']}",
                f"Reward analysis summary: {paths['reward_analysis_summary']}",
            ]
    return lines


__all__ = [
    "DuplicateRolloutKeyError",
    "MissingRolloutsError",
    "ProfileResult",
    "TaskRows",
    "UnmatchedRolloutsError",
    "describe_groups",
    "output_paths",
    "profile_run",
    "profiled_values",
    "rollout_info",
    "summary_lines",
    "t_interval",
    "t_quantile",
    "write_profile",
]
