"""Gym's statistics over profiled columns (NumPy; pandas and SciPy semantics, neither needed at run time).

Per task and per agent: `describe_groups` (Gym's `describe_dataframe`). Per (agent, repeat) and across
repeats: mean/median/std/sem/quantiles with Student-t 95% intervals (`t_interval`, what Gym's
`scipy.stats.t.interval` gives; tests/test_intervals.py checks it against SciPy). Columns hold one value
per rollout, NaN where it lacks the field.

These are Gym's numbers in Gym's files (`rollouts_agent_metrics.json`, `rollouts_repeat_level_metrics.json`),
kept exactly as `gym eval profile` computes them: a Student-t interval is not bounded, so on rewards in
[0, 1] it can leave [0, 1]. Our own intervals (the reward analysis, the checkpoint comparison) use the
bounded task-level bootstrap of `intervals.py`.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np

from gym_pipeline.core.formats import AGENT_REF, ROLLOUT_INDEX

STAT_NAMES = ("mean", "max", "min", "median", "std")
CONFIDENCE = 0.95
# Gym's non-primary metric suffixes (`metrics_config.METRIC_EXCLUDED_SUFFIXES`): never aggregated across repeats.
_NOT_PRIMARY_SUFFIXES = (
    "/max", "/min", "/median", "/p5", "/p25", "/p75", "/p95", "/ci_low_95", "/ci_high_95", "/ci_lower",
    "/ci_upper", "_ci_lower", "_ci_upper", "_ci95_lower", "_ci95_upper", "/_ng_attempt_index",
    "/std_dev_across_runs", "/std_err_across_runs", "/avg_sample_std_dev",
)


# --------------------------------------------------------------------------------------------------
# Student t quantile (SciPy is not needed at run time; `stats.t.interval` is what Gym calls)


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
# Statistics (pandas semantics: NaN-skipping, ddof=1, linear quantiles)


def _with_none(values: np.ndarray) -> list[float | None]:
    boxed = values.astype(object)
    boxed[np.isnan(values)] = None
    return boxed.tolist()


def describe_groups(names: Sequence[str], columns: Sequence[np.ndarray], starts: np.ndarray,
                    all_integer: bool = False) -> list[tuple[str, list[float | None]]]:
    """Gym's `describe_dataframe` for each group of consecutive rows (group i starts at row `starts[i]`).

    `columns` hold one value per row, NaN where the row lacks the field. Returns `(<stat>/<field>,
    value per group)` in Gym's key order, None where Gym leaves the key out. `all_integer`: every row holds
    an integer in every column, so pandas keeps Gym's max and min integers (`1`, not `1.0`); a single float
    or missing value anywhere makes them all floats.
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
    integer_stats = ("max", "min") if all_integer else ()
    return [(f"{stat}/{name}", stats[stat][i].astype(np.int64).tolist() if stat in integer_stats
             else _with_none(stats[stat][i])) for stat in STAT_NAMES for i, name in enumerate(names)]


def _sample_std(values: np.ndarray) -> float:
    return float(np.std(values, ddof=1)) if len(values) > 1 else 0.0


class WarningLog:
    """Gym's warnings: emitted as UserWarnings and kept for `ProfileResult.warnings`."""

    def __init__(self) -> None:
        self.messages: list[str] = []

    def warn(self, message: str) -> None:
        self.messages.append(message)
        warnings.warn(message, UserWarning, stacklevel=3)


def _confidence_interval(mean: float, sem: float, n: int, log: WarningLog) -> tuple[float, float] | None:
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


def repeat_level_metrics(columns: dict[str, np.ndarray], label: np.ndarray, labels: Sequence[str],
                         task: np.ndarray, repeat: np.ndarray, log: WarningLog) -> list[dict[str, Any]]:
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


def across_repeats(repeat_entries: Sequence[dict[str, Any]], log: WarningLog) -> dict[str, dict[str, float]]:
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


def coverage_by_agent(agent: np.ndarray, agents: Sequence[str], task: np.ndarray,
                      masked: np.ndarray) -> dict[str, dict[str, int]]:
    """`coverage/*` counts for each agent that had a masked rollout, over all results in key order
    (agents in order of their first result, as Gym's dict fills)."""
    coverage: dict[str, dict[str, int]] = {}
    distinct, first = np.unique(agent, return_index=True)
    for agent_id in distinct[np.argsort(first)]:
        mine = agent == agent_id
        masked_here = int(np.count_nonzero(mine & masked))
        if not masked_here or agents[agent_id] is None:  # Gym counts coverage per agent_ref.name
            continue
        measured_tasks = np.unique(task[mine & ~masked])
        coverage[agents[agent_id]] = {
            "coverage/measured_rollouts": int(np.count_nonzero(mine & ~masked)),
            "coverage/masked_rollouts": masked_here,
            "coverage/measured_tasks": len(measured_tasks),
            "coverage/fully_masked_tasks": len(np.setdiff1d(np.unique(task[mine]), measured_tasks)),
        }
    return coverage


def agent_metrics(names: list[str], columns: list[np.ndarray], label: np.ndarray, labels: list[str],
                  across: dict[str, dict[str, float]], coverage: dict[str, dict[str, int]],
                  all_integer: bool = False) -> list[dict[str, Any]]:
    """Per agent label (sorted): its describe statistics, across-repeat summaries and coverage counts;
    then coverage-only entries for agents whose every rollout was masked."""
    coverage = dict(coverage)
    entries: list[dict[str, Any]] = []
    order = np.argsort(label, kind="stable")
    label_ids, starts = np.unique(label[order], return_index=True)
    stats = describe_groups(names, [column[order] for column in columns], starts, all_integer)
    for i, label_id in enumerate(label_ids.tolist()):
        name = labels[label_id]
        entry: dict[str, Any] = {key: values[i] for key, values in stats if values[i] is not None}
        entry[AGENT_REF] = {"name": name}
        entry.update(across.get(name, {}))
        entry.update(coverage.pop(name, {}))
        entries.append(entry)
    entries += [{AGENT_REF: {"name": agent}, **counts} for agent, counts in coverage.items()]
    return entries
