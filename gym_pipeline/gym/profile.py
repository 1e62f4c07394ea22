"""Reward profiler: what `gym eval profile` (NeMo Gym 0.7.0) computes, without Gym installed.

Inputs are a run's `rollouts_materialized_inputs.jsonl` and `rollouts.jsonl`; outputs are the three
files Gym writes beside the rollouts: `<stem>_reward_profiling.jsonl` (one row per task),
`<stem>_agent_metrics.json` and `<stem>_repeat_level_metrics.json`.

Semantics reproduced from Gym (`nemo_gym/reward_profile.py`, `nemo_gym/cli/eval.py:reward_profile`)
and checked against real 0.7.0 output:

* Rows are joined on the rollout key `(_ng_task_index, _ng_rollout_index)`. A duplicate key in either
  file is an error; a rollout whose key is not in the materialized inputs is an error even with
  `allow_partial`; a materialized row without a rollout is an error unless `allow_partial`.
* Rows with `mask_sample` true are dropped, together with their materialized row, before any quality
  statistic is computed. They still count as collected in the completion summary. `mask_sample` itself
  is never profiled. Agents that had something masked get `coverage/*` counts in the agent metrics.
* Profiled fields: every top-level numeric field of a rollout plus every numeric field of
  `response.usage` (usage wins on a name clash). Bools count as 0/1. Nested objects (for example
  `input_tokens_details`), strings and None are skipped; None counts as missing. The two indices and
  other underscore-prefixed (private) fields are not profiled.
* Per task and per agent: `mean/`, `max/`, `min/`, `median/`, `std/` (sample std, ddof=1) for each
  field, in first-seen field order. A std that cannot be computed (a single value) is left out, except
  that when every std of the group is undefined, fully-present fields get 0.0 (Gym: "std is more
  interpretable as 0 than NaN").
* Repeat level (agents with more than one repeat): per (agent, repeat) and per field (sorted by name)
  mean/median/std/sem/min/max/p25/p75 (linear interpolation) and a Student-t 95% CI when n > 1.
  Across repeats, the per-repeat `mean/<f>` values are summarised into the agent metrics as
  `<stat>_across_repeats/mean/<f>` (mean, median, std, min, max, se, Student-t 95% CI).
  A standard error of exactly 0 collapses the CI to (mean, mean) and emits a UserWarning, as Gym does.

Memory: both files are streamed. Per rollout only its numbers are kept (the `rollout_infos` entry and
the profiled values), plus one materialized row per task for `sample`; full rows are never held.
All per-rollout accumulation happens in `_RunAccumulator.add_rollout`.
"""

from __future__ import annotations

import math
import warnings
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from gym_pipeline.gym.formats import (
    AGENT_REF,
    ROLLOUT_INDEX,
    TASK_INDEX,
    JsonlFormatError,
    MaterializedInputRow,
    RolloutRow,
    iter_jsonl_dicts,
    validate_row,
    write_json_atomic,
    write_jsonl_atomic,
)

RolloutKey = tuple[int, int]

MASK_SAMPLE = "mask_sample"
STAT_NAMES = ("mean", "max", "min", "median", "std")
CONFIDENCE = 0.95
# Gym shows at most this many keys in its mismatch messages.
_KEYS_SHOWN = 10


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
# Result


@dataclass
class ProfileResult:
    task_rows: list[dict[str, Any]]
    agent_metrics: list[dict[str, Any]]
    repeat_level_metrics: list[dict[str, Any]]
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
# Per-rollout extraction


def _is_profiled_name(name: str) -> bool:
    # The two indices are grouping keys, mask_sample is stripped before profiling, and
    # underscore-prefixed fields are private metadata (retry attempt counters and the like).
    return not name.startswith("_") and name != MASK_SAMPLE


def _as_number(value: Any) -> int | float | None:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)):
        return value
    return None


def _usage_of(rollout: dict[str, Any]) -> dict[str, Any]:
    response = rollout.get("response") or {}
    usage = response.get("usage") if isinstance(response, dict) else None
    return usage if isinstance(usage, dict) else {}


def profiled_values(rollout: dict[str, Any]) -> dict[str, int | float]:
    """The fields Gym profiles for one rollout, in Gym's column order.

    Gym merges `rollout | response.usage` (usage wins on a clash, the key keeps its first position)
    and keeps the numeric values.
    """
    usage = _usage_of(rollout)
    values: dict[str, int | float] = {}
    for name, value in rollout.items():
        if name in usage:
            value = usage[name]
        number = _as_number(value)
        if number is not None and _is_profiled_name(name):
            values[name] = number
    for name, value in usage.items():
        if name in rollout:
            continue
        number = _as_number(value)
        if number is not None and _is_profiled_name(name):
            values[name] = number
    return values


def rollout_info(rollout: dict[str, Any]) -> dict[str, Any]:
    """The compact `rollout_infos` entry: id, indices, reward, usage numbers, then other numbers.

    Unlike the profiled values, a top-level field here overwrites a usage field of the same name.
    """
    task, repeat = rollout[TASK_INDEX], rollout[ROLLOUT_INDEX]
    info: dict[str, Any] = {"rollout_id": f"{task}:{repeat}", TASK_INDEX: task, ROLLOUT_INDEX: repeat}
    if "reward" in rollout:
        info["reward"] = rollout.get("reward")
    for name, value in _usage_of(rollout).items():
        number = _as_number(value)
        if number is not None and _is_profiled_name(name):
            info[name] = number
    for name, value in rollout.items():
        if name in ("reward", "response") or not _is_profiled_name(name):
            continue
        number = _as_number(value)
        if number is not None:
            info[name] = number
    return info


# --------------------------------------------------------------------------------------------------
# Accumulation


@dataclass
class _Rollout:
    rollout_index: int
    agent: str
    values: dict[str, int | float]
    info: dict[str, Any]


@dataclass
class _Task:
    expected: int = 0  # materialized rows of this task
    completed: int = 0  # rows with a rollout result, masked or not
    measured: list[_Rollout] = field(default_factory=list)
    masked_by_agent: Counter = field(default_factory=Counter)


class _RunAccumulator:
    """Everything kept in memory while streaming: per-task counts and per-rollout numbers."""

    def __init__(self) -> None:
        self.agent_of_key: dict[RolloutKey, str] = {}
        self.input_line_of_key: dict[RolloutKey, int] = {}
        self.tasks: dict[int, _Task] = defaultdict(_Task)
        self.sample_rows: dict[int, tuple[int, dict[str, Any]]] = {}  # task -> (rollout index, row)
        self.rollout_line_of_key: dict[RolloutKey, int] = {}
        self.extra: list[tuple[RolloutKey, int]] = []
        self.masked = 0
        self._names: dict[str, str] = {}

    def _intern(self, values: dict[str, Any]) -> dict[str, Any]:
        names = self._names
        return {names.setdefault(name, name): value for name, value in values.items()}

    def add_input(self, path: Path, line: int, row: dict[str, Any]) -> None:
        key = (row[TASK_INDEX], row[ROLLOUT_INDEX])
        first = self.input_line_of_key.get(key)
        if first is not None:
            raise DuplicateRolloutKeyError(path, line, key, first, "materialized input")
        self.input_line_of_key[key] = line
        agent = row[AGENT_REF]["name"]
        self.agent_of_key[key] = self._names.setdefault(agent, agent)
        self.tasks[key[0]].expected += 1
        kept = self.sample_rows.get(key[0])
        if kept is None or key[1] < kept[0]:
            self.sample_rows[key[0]] = (key[1], row)

    def add_rollout(self, path: Path, line: int, rollout: dict[str, Any]) -> None:
        """The one place where a rollout row becomes per-task numbers."""
        key = (rollout[TASK_INDEX], rollout[ROLLOUT_INDEX])
        first = self.rollout_line_of_key.get(key)
        if first is not None:
            raise DuplicateRolloutKeyError(path, line, key, first, "rollout result")
        self.rollout_line_of_key[key] = line
        agent = self.agent_of_key.get(key)
        if agent is None:
            self.extra.append((key, line))
            return
        task = self.tasks[key[0]]
        task.completed += 1
        if rollout.get(MASK_SAMPLE):
            self.masked += 1
            task.masked_by_agent[agent] += 1
            return
        task.measured.append(
            _Rollout(key[1], agent, self._intern(profiled_values(rollout)), self._intern(rollout_info(rollout)))
        )


# --------------------------------------------------------------------------------------------------
# Statistics (pandas semantics: NaN-skipping, ddof=1, linear quantiles)


def _column(rollouts: Sequence[_Rollout], name: str) -> np.ndarray:
    return np.asarray([r.values[name] for r in rollouts if name in r.values], dtype=np.float64)


def describe(rollouts: Sequence[_Rollout], columns: Sequence[str]) -> dict[str, float]:
    """Gym's `describe_dataframe` for one group, flattened to `<stat>/<field>` keys in Gym's order."""
    stats: dict[str, dict[str, float]] = {name: {} for name in STAT_NAMES}
    fully_present: list[str] = []
    every_std_undefined = True
    for name in columns:
        values = _column(rollouts, name)
        n = len(values)
        if n == len(rollouts):
            fully_present.append(name)
        if n == 0:
            continue
        stats["mean"][name] = float(values.sum() / n)
        stats["max"][name] = float(values.max())
        stats["min"][name] = float(values.min())
        stats["median"][name] = float(np.median(values))
        if n > 1:
            stats["std"][name] = float(np.std(values, ddof=1))
            every_std_undefined = False
    if every_std_undefined:
        for name in fully_present:
            stats["std"][name] = 0.0
    return {f"{stat}/{name}": stats[stat][name] for stat in STAT_NAMES for name in columns if name in stats[stat]}


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


def _repeat_level_metrics(measured: Sequence[_Rollout], task_of: dict[int, int], columns: Sequence[str],
                          log: _Warnings) -> list[dict[str, Any]]:
    """Per (agent, repeat) summaries; agents with a single repeat are skipped."""
    by_agent: dict[str, list[int]] = defaultdict(list)
    for position, rollout in enumerate(measured):
        by_agent[rollout.agent].append(position)
    numeric = sorted(columns)
    entries: list[dict[str, Any]] = []
    for agent in sorted(by_agent):
        positions = by_agent[agent]
        repeats: dict[int, list[_Rollout]] = defaultdict(list)
        for position in positions:
            repeats[measured[position].rollout_index].append(measured[position])
        if len(repeats) <= 1:
            continue
        total_tasks = len({task_of[position] for position in positions})
        present_by_repeat: dict[int, set[int]] = defaultdict(set)
        for position in positions:
            present_by_repeat[measured[position].rollout_index].add(task_of[position])
        for repeat in sorted(repeats):
            group = repeats[repeat]
            present = len(present_by_repeat[repeat])
            entry: dict[str, Any] = {
                AGENT_REF: {"name": agent},
                ROLLOUT_INDEX: int(repeat),
                "sample_count": present,
                "missing_count": total_tasks - present,
            }
            for name in numeric:
                values = _column(group, name)
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


def _across_repeats(repeat_entries: Sequence[dict[str, Any]], log: _Warnings) -> dict[str, dict[str, float]]:
    """Per agent: each per-repeat `mean/<f>` treated as one observation, summarised across repeats."""
    columns = sorted({key for entry in repeat_entries for key in entry if key.startswith("mean/")})
    by_agent: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for entry in repeat_entries:
        by_agent[entry[AGENT_REF]["name"]].append(entry)
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


def _coverage_by_agent(tasks: dict[int, _Task]) -> dict[str, dict[str, int]]:
    """`coverage/*` counts for each agent that had at least one masked rollout."""
    measured_rollouts: Counter = Counter()
    masked_rollouts: Counter = Counter()
    measured_tasks: Counter = Counter()
    fully_masked_tasks: Counter = Counter()
    for task in tasks.values():
        measured_here = Counter(r.agent for r in task.measured)
        measured_rollouts.update(measured_here)
        masked_rollouts.update(task.masked_by_agent)
        for agent in measured_here:
            measured_tasks[agent] += 1
        for agent in task.masked_by_agent:
            if agent not in measured_here:
                fully_masked_tasks[agent] += 1
    return {
        agent: {
            "coverage/measured_rollouts": measured_rollouts[agent],
            "coverage/masked_rollouts": masked_rollouts[agent],
            "coverage/measured_tasks": measured_tasks[agent],
            "coverage/fully_masked_tasks": fully_masked_tasks[agent],
        }
        for agent in sorted(masked_rollouts)
    }


# --------------------------------------------------------------------------------------------------
# Entry points


def _read_inputs(path: Path, acc: _RunAccumulator) -> None:
    for line, row in iter_jsonl_dicts(path):
        validate_row(path, line, row, MaterializedInputRow)
        acc.add_input(path, line, row)


def _read_rollouts(path: Path, acc: _RunAccumulator) -> None:
    for line, rollout in iter_jsonl_dicts(path):
        validate_row(path, line, rollout, RolloutRow)
        acc.add_rollout(path, line, rollout)


def _samples(path: Path, acc: _RunAccumulator, wanted: dict[int, int]) -> dict[int, dict[str, Any]]:
    """The materialized row of each task's lowest measured repeat, minus the two indices."""
    rows: dict[int, dict[str, Any]] = {}
    rescan: dict[RolloutKey, int] = {}
    for task, repeat in wanted.items():
        kept_repeat, kept_row = acc.sample_rows[task]
        if kept_repeat == repeat:
            rows[task] = kept_row
        else:
            rescan[(task, repeat)] = task
    if rescan:
        for _, row in iter_jsonl_dicts(path):
            task = rescan.get((row.get(TASK_INDEX), row.get(ROLLOUT_INDEX)))
            if task is not None:
                rows[task] = row
    return {
        task: {k: v for k, v in row.items() if k not in (TASK_INDEX, ROLLOUT_INDEX)} for task, row in rows.items()
    }


def profile_run(materialized_inputs: Path, rollouts: Path, allow_partial: bool = False) -> ProfileResult:
    """Profile one run the way `gym eval profile` does; see the module docstring for the rules."""
    materialized_inputs, rollouts = Path(materialized_inputs), Path(rollouts)
    acc = _RunAccumulator()
    _read_inputs(materialized_inputs, acc)
    _read_rollouts(rollouts, acc)

    if acc.extra:
        raise UnmatchedRolloutsError(rollouts, acc.extra)
    missing = sorted(set(acc.agent_of_key) - set(acc.rollout_line_of_key))
    if missing and not allow_partial:
        raise MissingRolloutsError(missing)

    log = _Warnings()
    measured_tasks = sorted(t for t, task in acc.tasks.items() if task.measured)
    for t in measured_tasks:
        acc.tasks[t].measured.sort(key=lambda r: r.rollout_index)

    # Gym's frame: measured rollouts in (task, repeat) order; columns in first-seen order.
    measured: list[_Rollout] = []
    task_of: dict[int, int] = {}
    columns: dict[str, None] = {}
    for t in measured_tasks:
        for rollout in acc.tasks[t].measured:
            task_of[len(measured)] = t
            measured.append(rollout)
            columns.update(dict.fromkeys(rollout.values))
    column_names = list(columns)

    samples = _samples(materialized_inputs, acc, {t: acc.tasks[t].measured[0].rollout_index for t in measured_tasks})
    task_rows: list[dict[str, Any]] = []
    for t in measured_tasks:
        task = acc.tasks[t]
        expected = task.expected - sum(task.masked_by_agent.values())
        num = len(task.measured)
        row: dict[str, Any] = {TASK_INDEX: t}
        row.update(describe(task.measured, column_names))
        row["sample"] = samples[t]
        row["num_rollouts"] = num
        row["expected_num_rollouts"] = expected
        row["missing_num_rollouts"] = expected - num
        row["reward_profile_completion_pct"] = 100.0 if expected == 0 else 100.0 * num / expected
        row["rollout_infos"] = [r.info for r in task.measured]
        task_rows.append(row)

    repeat_level = _repeat_level_metrics(measured, task_of, column_names, log)
    across = _across_repeats(repeat_level, log)
    coverage = _coverage_by_agent(acc.tasks)

    by_agent: dict[str, list[_Rollout]] = defaultdict(list)
    for rollout in measured:
        by_agent[rollout.agent].append(rollout)
    agent_metrics: list[dict[str, Any]] = []
    for agent in sorted(by_agent):
        entry: dict[str, Any] = describe(by_agent[agent], column_names)
        entry[AGENT_REF] = {"name": agent}
        entry.update(across.get(agent, {}))
        entry.update(coverage.pop(agent, {}))
        agent_metrics.append(entry)
    for agent, counts in coverage.items():  # every rollout of these agents was masked
        agent_metrics.append({AGENT_REF: {"name": agent}, **counts})

    complete = partial = dropped = 0
    for task in acc.tasks.values():
        if task.completed == task.expected:
            complete += 1
        elif task.completed > 0:
            partial += 1
        else:
            dropped += 1

    return ProfileResult(
        task_rows=task_rows,
        agent_metrics=agent_metrics,
        repeat_level_metrics=repeat_level,
        expected_rollouts=len(acc.agent_of_key),
        completed_rollouts=len(acc.rollout_line_of_key),
        tasks_total=len(acc.tasks),
        tasks_complete=complete,
        tasks_partial=partial,
        tasks_dropped=dropped,
        masked_rollouts=acc.masked,
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
    }


def write_profile(result: ProfileResult, rollouts_path: Path, output_dir: Path | None = None) -> dict[str, Path]:
    """Write Gym's three profile files (compact orjson, like Gym), each atomically; return their paths."""
    paths = output_paths(rollouts_path, output_dir)
    write_jsonl_atomic(paths["reward_profiling"], result.task_rows)
    write_json_atomic(paths["agent_metrics"], result.agent_metrics)
    write_json_atomic(paths["repeat_level_metrics"], result.repeat_level_metrics)
    return paths


def summary_lines(result: ProfileResult, paths: dict[str, Path] | None = None) -> list[str]:
    """Gym's printed completion summary; with `paths`, also its three output lines."""
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
    return lines


__all__ = [
    "DuplicateRolloutKeyError",
    "MissingRolloutsError",
    "ProfileResult",
    "UnmatchedRolloutsError",
    "describe",
    "output_paths",
    "profile_run",
    "profiled_values",
    "rollout_info",
    "summary_lines",
    "t_interval",
    "t_quantile",
    "write_profile",
]
