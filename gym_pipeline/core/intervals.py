"""Confidence intervals for means over tasks: the one method of the reward analysis and the checkpoint comparison.

Method: the task-level (cluster) percentile bootstrap. A run's rollouts are not independent samples: the
repeats of one task share its difficulty, so the unit that is resampled is the task, with all its
repeats. Each of `RESAMPLES` resamples draws as many tasks as there are, with replacement, and computes
the statistic on them (a mean of per-task values, or, with weights, the rollout-level mean
sum(w x) / sum(w) where w is a task's number of rollouts); the interval is the 2.5% and 97.5% quantiles
of those resampled statistics. The generator is seeded with `SEED`: the same data always gives the same
interval.

Why this one: a resampled mean can never leave the range of the per-task values, so an interval on
rewards or pass@k in [0, 1] stays in [0, 1] and a paired change in [-1, 1] stays in [-1, 1], without
clipping; it needs no assumption of normality or of binary rewards; and it counts each task once,
however many repeats it has. A normal-approximation interval (mean +- 1.96 standard errors) has no such
bound: over 66 tasks with a pass@4 of 0.985 it reaches 1.015.

What it cannot do: when every task has the same value (all 0, all 1) or there is a single task, the
bootstrap sees no spread between tasks and the interval is the point; and like every percentile bootstrap
it is somewhat too narrow with few tasks (a few dozen or fewer). Read such intervals as "over these tasks".

Tasks with equal (weight, value) are interchangeable in a resample. When there are few distinct pairs
(binary rewards, a few repeats), a resample is drawn as counts per distinct pair (one multinomial draw):
the same distribution as drawing tasks, at a cost that grows with the distinct pairs, not the tasks.
"""

from __future__ import annotations

from typing import Any

import numpy as np

CONFIDENCE = 0.95
RESAMPLES = 2000
SEED = 14
METHOD = "task_bootstrap_percentile"


def describe() -> dict[str, Any]:
    """How the intervals of a file were computed, for the file itself."""
    return {"method": METHOD, "unit": "task", "confidence": CONFIDENCE, "resamples": RESAMPLES, "seed": SEED}


def task_interval(values: np.ndarray | list[float], weights: np.ndarray | list[float] | None = None, *,
                  confidence: float = CONFIDENCE, resamples: int = RESAMPLES,
                  seed: int = SEED) -> tuple[float, float] | None:
    """The task-level percentile bootstrap interval of a mean over tasks (see the module docstring).

    `values`: one value per task (NaN: the statistic is undefined for that task, which is left out).
    `weights`: one positive weight per task (its number of rollouts, for a rollout-level mean); None
    weighs every task once. Returns (low, high), or None when no task has a value.
    """
    values = np.asarray(values, dtype=np.float64).reshape(-1)
    weights = np.ones(len(values)) if weights is None else np.asarray(weights, dtype=np.float64).reshape(-1)
    if len(weights) != len(values):
        raise ValueError(f"task_interval: {len(values)} values but {len(weights)} weights")
    defined = ~np.isnan(values)
    values, weights = values[defined], weights[defined]
    if not len(values):
        return None
    if not np.all(weights > 0):
        raise ValueError("task_interval: weights must be positive")
    lowest, highest = float(values.min()), float(values.max())
    if lowest == highest:
        return lowest, highest
    means = _resampled_means(values, weights, resamples, np.random.default_rng(seed))
    # A mean lies within its values; clipping only undoes the last bit of floating-point rounding.
    means = np.clip(means, lowest, highest)
    low, high = np.quantile(means, [(1.0 - confidence) / 2.0, (1.0 + confidence) / 2.0])
    return float(low), float(high)


# A multinomial draw costs about this many times more per category than drawing one task index.
_MULTINOMIAL_COST = 24
_DRAWS_PER_CHUNK = 1 << 22


def _resampled_means(values: np.ndarray, weights: np.ndarray, resamples: int,
                     rng: np.random.Generator) -> np.ndarray:
    """`resamples` bootstrap means sum(w x) / sum(w) over tasks drawn with replacement."""
    tasks = len(values)
    pairs, of_task = np.unique(np.stack([weights, values], axis=1), axis=0, return_inverse=True)
    if len(pairs) * _MULTINOMIAL_COST < tasks:
        share = np.bincount(of_task.reshape(-1), minlength=len(pairs)) / tasks
        counts = rng.multinomial(tasks, share, size=resamples).astype(np.float64)
        return (counts @ (pairs[:, 0] * pairs[:, 1])) / (counts @ pairs[:, 0])
    weighted = weights * values
    means = np.empty(resamples)
    chunk = max(1, _DRAWS_PER_CHUNK // tasks)
    for start in range(0, resamples, chunk):
        drawn = rng.integers(0, tasks, size=(min(chunk, resamples - start), tasks))
        means[start:start + len(drawn)] = weighted[drawn].sum(axis=1) / weights[drawn].sum(axis=1)
    return means
