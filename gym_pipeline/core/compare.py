"""Checkpoint comparison within one environment: how reward moves from checkpoint to checkpoint.

Input: each checkpoint's reward profile (`rollouts_reward_profiling.jsonl`), in checkpoint order.
Per checkpoint: mean reward and pass@k with 95% confidence intervals over tasks (each task is one
unit: its repeats are not independent samples). Between consecutive checkpoints: the paired change
per task, with its 95% interval. Every interval is the task-level percentile bootstrap of
`intervals.py`, the reward analysis's method too, so it never leaves the range of the values (rewards
and pass@k in [0, 1], changes in [-1, 1]). A task counts as solved when its mean reward is at least
`SOLVED_AT`; tasks that flip are listed as improved or regressed, and McNemar's exact test on the
flips (the two-sided binomial test of the flips against a fair coin, `scipy.stats.binomtest`'s value)
says whether the change is more than noise. A checkpoint regresses significantly when more tasks
regressed than improved and the test's p-value is below `alpha`.

When `reverify --repeat N` measured a run's verifier flakiness (`core/flakiness.py`), a flagged regression is
checked against it: if the test, left without the tasks a flaky verifier scored in either checkpoint, no longer
finds a significant regression, the change carries a warning that flakiness alone may explain it.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from gym_pipeline.core import intervals
from gym_pipeline.core.flakiness import read_flakiness
from gym_pipeline.core.formats import ROLLOUTS_FILE, TASK_INDEX, iter_jsonl_dicts
from gym_pipeline.core.reward_analysis import k_values, pass_at_k

SOLVED_AT = 0.5
PASS_REWARD = 1.0  # a rollout passes when its reward reaches this (as in the reward analysis)


@dataclass
class Estimate:
    value: float
    ci_low: float
    ci_high: float


@dataclass
class CheckpointSummary:
    checkpoint: str
    tasks: int
    rollouts: int
    mean_reward: Estimate
    pass_at_k: dict[int, Estimate]


@dataclass
class PairedChange:
    before: str
    after: str
    tasks_compared: int
    mean_reward_delta: Estimate
    improved: list[int] = field(default_factory=list)  # task indices solved only after
    regressed: list[int] = field(default_factory=list)  # task indices solved only before
    mcnemar_p: float = 1.0
    significant_regression: bool = False
    flaky_tasks: list[int] = field(default_factory=list)  # compared tasks with a flaky rollout in either checkpoint
    flakiness_warning: str | None = None  # set when flakiness alone may explain a flagged regression


@dataclass
class Comparison:
    env: str
    checkpoints: list[CheckpointSummary]
    changes: list[PairedChange]

    def as_dict(self) -> dict:
        """JSON-ready: pass@k keyed by the string of k, and how the intervals were computed."""
        value = asdict(self)
        for summary in value["checkpoints"]:
            summary["pass_at_k"] = {str(k): estimate for k, estimate in summary["pass_at_k"].items()}
        value["intervals"] = intervals.describe()
        return value

    @property
    def regressions(self) -> list[PairedChange]:
        return [change for change in self.changes if change.significant_regression]


def _task_rewards(profile: Path) -> dict[int, list[float]]:
    """Each task's rollout rewards, from the profile's `rollout_infos`."""
    return {
        row[TASK_INDEX]: [float(info["reward"]) for info in row.get("rollout_infos") or []]
        for _, row in iter_jsonl_dicts(profile)
    }


def _estimate(values: np.ndarray) -> Estimate:
    """The mean of the values (one per task) with its task-level bootstrap 95% interval."""
    interval = intervals.task_interval(values)
    if interval is None:
        return Estimate(math.nan, math.nan, math.nan)
    return Estimate(float(values.mean()), *interval)


def mcnemar_exact(improved: int, regressed: int) -> float:
    """Two-sided exact McNemar p-value: the discordant pairs against a fair coin."""
    flips = improved + regressed
    if flips == 0:
        return 1.0
    tail = sum(math.comb(flips, i) for i in range(min(improved, regressed) + 1)) / 2**flips
    return min(1.0, 2 * tail)


def summarize_checkpoint(checkpoint: str, rewards: dict[int, list[float]]) -> CheckpointSummary:
    rewards = {task: values for task, values in rewards.items() if values}
    means = np.array([np.mean(values) for values in rewards.values()], dtype=float)
    repeats = min((len(values) for values in rewards.values()), default=0)
    pass_estimates = {}
    for k in k_values(repeats) if repeats else []:
        per_task = np.array([
            pass_at_k(len(values), sum(value >= PASS_REWARD for value in values), k) for values in rewards.values()
        ])
        pass_estimates[k] = _estimate(per_task)
    return CheckpointSummary(
        checkpoint=checkpoint,
        tasks=len(rewards),
        rollouts=sum(len(values) for values in rewards.values()),
        mean_reward=_estimate(means),
        pass_at_k=pass_estimates,
    )


def paired_change(before: str, after: str, old: dict[int, list[float]], new: dict[int, list[float]],
                  alpha: float, flaky: set[int] | None = None) -> PairedChange:
    """`flaky`: tasks whose verifier gave one of these checkpoints' answers different rewards on repetition."""
    common = sorted(task for task in old.keys() & new.keys() if old[task] and new[task])
    old_means = np.array([np.mean(old[task]) for task in common], dtype=float)
    new_means = np.array([np.mean(new[task]) for task in common], dtype=float)
    solved_before, solved_after = old_means >= SOLVED_AT, new_means >= SOLVED_AT
    improved = [task for task, was, now in zip(common, solved_before, solved_after, strict=True) if now and not was]
    regressed = [task for task, was, now in zip(common, solved_before, solved_after, strict=True) if was and not now]
    p_value = mcnemar_exact(len(improved), len(regressed))
    change = PairedChange(
        before=before,
        after=after,
        tasks_compared=len(common),
        mean_reward_delta=_estimate(new_means - old_means),
        improved=improved,
        regressed=regressed,
        mcnemar_p=p_value,
        significant_regression=len(regressed) > len(improved) and p_value < alpha,
        flaky_tasks=sorted(set(common) & (flaky or set())),
    )
    if change.significant_regression and change.flaky_tasks:
        change.flakiness_warning = _flakiness_warning(change, alpha)
    return change


def _flakiness_warning(change: PairedChange, alpha: float) -> str | None:
    """A warning when the regression is no longer significant without the tasks a flaky verifier scored."""
    flaky = set(change.flaky_tasks)
    improved = [task for task in change.improved if task not in flaky]
    regressed = [task for task in change.regressed if task not in flaky]
    p_value = mcnemar_exact(len(improved), len(regressed))
    if len(regressed) > len(improved) and p_value < alpha:
        return None
    return (f"{len(change.regressed) - len(regressed)} of the {len(change.regressed)} regressed tasks have a flaky "
            f"verifier; without the {len(flaky)} flaky tasks, {len(regressed)} regressed and {len(improved)} improved "
            f"(McNemar p={p_value:.3g}): verifier flakiness alone may explain this regression")


def compare_checkpoints(env: str, profiles: list[tuple[str, Path]], alpha: float = 0.05) -> Comparison:
    """Compare the checkpoints of one environment, given (checkpoint, reward profile path) in order."""
    rewards = [(checkpoint, _task_rewards(path)) for checkpoint, path in profiles]
    flaky = [_flaky_tasks(path) for _, path in profiles]
    return Comparison(
        env=env,
        checkpoints=[summarize_checkpoint(checkpoint, per_task) for checkpoint, per_task in rewards],
        changes=[
            paired_change(before, after, old, new, alpha, flaky=flaky_before | flaky_after)
            for (before, old), (after, new), flaky_before, flaky_after
            in zip(rewards, rewards[1:], flaky, flaky[1:], strict=False)
        ],
    )


def _flaky_tasks(profile: Path) -> set[int]:
    """Tasks of the profiled run whose verifier was measured flaky (none when no flakiness was measured)."""
    flakiness = read_flakiness(Path(profile).parent / ROLLOUTS_FILE)
    return set(flakiness.flaky_per_task) if flakiness is not None else set()
