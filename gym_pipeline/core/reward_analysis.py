"""Beyond Gym's reward profile: pass@k, task difficulty, reward against output length, length cut-offs.

Computed by `profile.profile_run` in its single pass over the rollouts and written per run as
`<stem>_reward_analysis.parquet` (one row per completed rollout, keyed by `_ng_task_index` and
`_ng_rollout_index`, with its task's numbers alongside) and `<stem>_reward_analysis.json` (the
run-level summary).

Definitions:

* A rollout *passes* when its reward is at least the threshold (1.0 by default: a full-credit answer).
* pass@k is the unbiased estimator of Chen et al. (2021, "Evaluating Large Language Models Trained on
  Code"): for a task with n measured rollouts of which c pass, pass@k = 1 - C(n-c, k) / C(n, k), the
  chance that k rollouts drawn without replacement from the n include a pass. It is computed exactly
  from integers, defined for k <= n (null otherwise), and averaged over the tasks where it is defined.
  k runs 1, 2, 4, ... up to the number of repeats, plus the number of repeats itself.
* Intervals: the mean reward and each pass@k carry a 95% interval (`ci_low`, `ci_high`), the task-level
  percentile bootstrap of `intervals.py` (the checkpoint comparison's method too): tasks are resampled
  with all their rollouts, so repeats of a task are not counted as independent, and no bound leaves the
  range of the values ([0, 1] for rewards in [0, 1]). The mean reward is over rollouts, so its resamples
  weigh each task by its number of measured rollouts; pass@k weighs every task once.
* Difficulty: `never` (c = 0), `sometimes`, or `always` (c = n) solved.
* Cut off: the length limit stopped the response (`response.incomplete_details.reason ==
  "max_output_tokens"` or `response.status == "incomplete"`).
* Reward against output length (`response.usage.output_tokens`): Pearson and Spearman (average ranks
  for ties) correlation, and quantile buckets (deciles) of output tokens with their mean reward.
* Masked rollouts (`mask_sample`) are in the table, flagged, but left out of every statistic, as Gym
  leaves them out of its quality metrics; so are unscored ones (no numeric `reward`, e.g. an episode
  result without one), whose reward is null in the table.
* Verifier flakiness (`verifier_flakiness`, only after `reverify --repeat N` on these very rollouts): the rollouts
  whose N verifications gave different rewards, overall and as a share of each task's rollouts.
* A "task" is a row of the reward profile: a task, or a (task, agent) pair when a task ran under
  several agents (Gym's fan-out).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from gym_pipeline.core import intervals
from gym_pipeline.core.formats import ROLLOUT_INDEX, TASK_INDEX, atomic_file, write_json_atomic

PASS_THRESHOLD = 1.0
DIFFICULTY = ("never", "sometimes", "always")
LENGTH_BUCKETS = 10


def k_values(num_repeats: int) -> list[int]:
    """1, 2, 4, ... up to `num_repeats`, and `num_repeats` itself."""
    ks = [1 << i for i in range(num_repeats.bit_length())]
    return ks + [num_repeats] if ks and ks[-1] != num_repeats else ks


def pass_at_k(n: int, c: int, k: int) -> float:
    """1 - C(n-c, k) / C(n, k), as one correctly rounded division of exact integers."""
    total = math.comb(n, k)
    return (total - math.comb(n - c, k)) / total


@dataclass
class RewardAnalysis:
    threshold: float
    ks: list[int]
    agents: list[str]  # agent labels by id
    # Per completed rollout, in (task, rollout) order.
    task: np.ndarray
    rollout: np.ndarray
    agent: np.ndarray  # label id
    reward: np.ndarray
    output_tokens: np.ndarray  # NaN: the response had no usage
    cut_off: np.ndarray
    masked: np.ndarray
    task_row: np.ndarray  # index into the per-task arrays; -1 when every rollout of its task was masked
    # Per task with a measured rollout, in profile row order.
    task_num_rollouts: np.ndarray
    task_num_passed: np.ndarray
    task_mean_reward: np.ndarray
    task_difficulty: np.ndarray  # index into DIFFICULTY
    task_pass_at_k: np.ndarray  # tasks x ks; NaN where k > n
    summary: dict[str, Any]

    @property
    def passed(self) -> np.ndarray:
        return self.reward >= self.threshold

    @property
    def measured(self) -> np.ndarray:
        return ~self.masked

    def record_batches(self, rows: int = 1 << 16) -> Iterator[Any]:
        """The per-rollout Parquet table as Arrow record batches of `rows` rows: never all of it at once."""
        import pyarrow as pa  # only needed to write; keeps the profiler's worker processes light

        for start in range(0, max(len(self.task), 1), rows):
            part = slice(start, start + rows)
            task_row = self.task_row[part]
            has_task = task_row >= 0
            at = np.where(has_task, task_row, 0)

            def per_task(values: np.ndarray, at: np.ndarray = at, has_task: np.ndarray = has_task) -> Any:
                picked = values[at] if len(values) else np.zeros(len(at), dtype=values.dtype)
                return _arrow(picked, has_task & ~np.isnan(picked) if picked.dtype.kind == "f" else has_task)

            tokens = self.output_tokens[part]
            columns = {
                TASK_INDEX: _arrow(self.task[part]),
                ROLLOUT_INDEX: _arrow(self.rollout[part]),
                "agent": _dictionary(self.agent[part], self.agents),
                "reward": _arrow(self.reward[part], ~np.isnan(self.reward[part])),  # null: unscored
                "output_tokens": _arrow(np.nan_to_num(tokens).astype(np.int64), ~np.isnan(tokens)),
                "cut_off": _arrow(self.cut_off[part]),
                "masked": _arrow(self.masked[part]),
                "passed": _arrow(self.passed[part], ~np.isnan(self.reward[part])),
                "task_num_rollouts": per_task(self.task_num_rollouts),
                "task_num_passed": per_task(self.task_num_passed),
                "task_mean_reward": per_task(self.task_mean_reward),
                "task_difficulty": _dictionary(self.task_difficulty[at] if len(self.task_difficulty) else at,
                                               DIFFICULTY, has_task),
            }
            for i, k in enumerate(self.ks):
                columns[f"task_pass_at_{k}"] = per_task(self.task_pass_at_k[:, i])
            yield pa.RecordBatch.from_arrays(list(columns.values()), names=list(columns))


def _bits(flags: np.ndarray) -> Any:
    import pyarrow as pa

    return pa.py_buffer(np.packbits(flags, bitorder="little"))


def _arrow(values: np.ndarray, valid: np.ndarray | None = None) -> Any:
    """A numeric or bool numpy column as an Arrow array, from its buffers (`pa.array` would import pandas)."""
    import pyarrow as pa

    data = _bits(values) if values.dtype == bool else pa.py_buffer(np.ascontiguousarray(values))
    kind = pa.bool_() if values.dtype == bool else pa.from_numpy_dtype(values.dtype)
    return pa.Array.from_buffers(kind, len(values), [None if valid is None else _bits(valid), data])


def _dictionary(codes: np.ndarray, names: Sequence[str], valid: np.ndarray | None = None) -> Any:
    """A dictionary-encoded string column: `names[codes]`, null where not `valid`."""
    import pyarrow as pa

    encoded = [name.encode() for name in names]
    offsets = np.cumsum([0, *map(len, encoded)], dtype=np.int32)
    dictionary = pa.Array.from_buffers(pa.string(), len(names), [None, pa.py_buffer(offsets),
                                                                   pa.py_buffer(b"".join(encoded))])
    return pa.DictionaryArray.from_arrays(_arrow(codes.astype(np.int32), valid), dictionary)


def _average_ranks(ordered: np.ndarray, order: np.ndarray) -> np.ndarray:
    """1-based ranks of the values `ordered[i] = values[order[i]]`, ties sharing their average rank."""
    starts_run = np.append(True, ordered[1:] != ordered[:-1])  # each run of equal values
    first = np.flatnonzero(starts_run)
    last = np.append(first[1:], len(ordered)) - 1
    ranks = np.empty(len(ordered))
    ranks[order] = ((first + last) / 2 + 1)[np.cumsum(starts_run) - 1]
    return ranks


def _pearson(x: np.ndarray, y: np.ndarray) -> float | None:
    """Pearson's r; None when undefined (fewer than two values, or one side constant)."""
    if len(x) < 2:
        return None
    dx, dy = x - x.mean(), y - y.mean()
    denominator = math.sqrt(float(dx @ dx) * float(dy @ dy))
    return float(dx @ dy) / denominator if denominator else None


def _reward_vs_length(tokens: np.ndarray, reward: np.ndarray) -> dict[str, Any]:
    """Correlations of reward with output tokens, and quantile buckets of output tokens with each
    bucket's token range, rollout count and mean reward."""
    if not len(tokens):
        return {"rollouts": 0, "pearson": None, "spearman": None, "buckets": []}
    by_tokens, by_reward = np.argsort(tokens), np.argsort(reward)
    ordered, reward_ordered = tokens[by_tokens], reward[by_tokens]
    spearman = _pearson(_average_ranks(ordered, by_tokens), _average_ranks(reward[by_reward], by_reward))
    edges = np.unique(np.quantile(ordered, np.linspace(0.0, 1.0, LENGTH_BUCKETS + 1)))
    # Bucket b holds the tokens in [edges[b], edges[b + 1]), the last one its upper edge too; none is empty.
    starts = np.unique(np.searchsorted(ordered, edges[:-1] if len(edges) > 1 else edges))
    ends = np.append(starts[1:], len(ordered))
    sizes = ends - starts
    mean_tokens = np.add.reduceat(ordered, starts) / sizes
    mean_reward = np.add.reduceat(reward_ordered, starts) / sizes
    return {
        "rollouts": len(tokens),
        "pearson": _pearson(tokens, reward),
        "spearman": spearman,
        "buckets": [
            {"output_tokens_min": int(ordered[start]), "output_tokens_max": int(ordered[end - 1]),
             "output_tokens_mean": float(tokens_mean), "rollouts": int(end - start),
             "mean_reward": float(reward_mean)}
            for start, end, tokens_mean, reward_mean in zip(starts.tolist(), ends.tolist(), mean_tokens.tolist(),
                                                             mean_reward.tolist(), strict=True)
        ],
    }


def analyze(*, task: np.ndarray, rollout: np.ndarray, agent: np.ndarray, agents: list[str], per_agent: bool,
            reward: np.ndarray, output_tokens: np.ndarray, cut_off: np.ndarray, masked: np.ndarray,
            num_repeats: int, threshold: float = PASS_THRESHOLD) -> RewardAnalysis:
    """The analysis of one run's completed rollouts, given in (task, rollout) order. A rollout without a
    numeric reward (NaN: an unscored episode result) is left out of the statistics, like a masked one."""
    measured = ~masked & ~np.isnan(reward)
    passed = reward >= threshold
    # Task rows: by task, or by (task, agent) under fan-out; codes sort like the rows.
    task_rank = np.unique(task, return_inverse=True)[1].reshape(-1)
    code = task_rank * max(len(agents), 1) + agent if per_agent else task_rank
    rows, measured_row = np.unique(code[measured], return_inverse=True)
    at = np.searchsorted(rows, code).clip(max=max(len(rows) - 1, 0))
    task_row = np.where(rows[at] == code, at, -1) if len(rows) else np.full(len(code), -1)

    n = np.bincount(measured_row, minlength=len(rows))
    c = np.bincount(measured_row, weights=passed[measured], minlength=len(rows)).astype(np.int64)
    mean_reward = np.bincount(measured_row, weights=reward[measured], minlength=len(rows)) / np.maximum(n, 1)
    difficulty = np.where(c == 0, 0, np.where(c == n, 2, 1)).astype(np.int8)
    ks = k_values(num_repeats)
    pairs, pair_of_row = np.unique(np.stack([n, c], axis=1), axis=0, return_inverse=True)
    exact = np.array([[pass_at_k(pn, pc, k) if k <= pn else np.nan for k in ks] for pn, pc in pairs.tolist()])
    task_pass_at_k = exact.reshape(len(pairs), len(ks))[pair_of_row.reshape(-1)]

    with_tokens = measured & ~np.isnan(output_tokens)
    n_measured = int(np.count_nonzero(measured))
    cut = int(np.count_nonzero(cut_off & measured))
    reward_low, reward_high = intervals.task_interval(mean_reward, n) or (None, None)

    def pass_entry(i: int, k: int) -> dict[str, Any]:
        low, high = intervals.task_interval(task_pass_at_k[:, i]) or (None, None)
        return {"mean": float(np.nanmean(task_pass_at_k[:, i])) if np.any(n >= k) else None,
                "ci_low": low, "ci_high": high, "tasks": int(np.count_nonzero(n >= k))}

    summary = {
        "pass_threshold": threshold,
        "rollouts": {"completed": len(task), "masked": int(np.count_nonzero(masked)),
                     "unscored": int(np.count_nonzero(~masked & np.isnan(reward))), "measured": n_measured},
        "tasks": len(rows),
        "mean_reward": float(reward[measured].mean()) if n_measured else None,
        "mean_reward_ci_low": reward_low,
        "mean_reward_ci_high": reward_high,
        "pass_at_k": {str(k): pass_entry(i, k) for i, k in enumerate(ks)},
        "difficulty": {name: int(np.count_nonzero(difficulty == i)) for i, name in enumerate(DIFFICULTY)},
        "cut_off": {"rollouts": cut, "share": cut / n_measured if n_measured else None},
        "reward_vs_output_tokens": _reward_vs_length(output_tokens[with_tokens], reward[with_tokens]),
        "intervals": intervals.describe(),
    }
    return RewardAnalysis(
        threshold=threshold, ks=ks, agents=agents, task=task, rollout=rollout, agent=agent, reward=reward,
        output_tokens=output_tokens, cut_off=cut_off, masked=masked, task_row=task_row, task_num_rollouts=n,
        task_num_passed=c, task_mean_reward=mean_reward, task_difficulty=difficulty, task_pass_at_k=task_pass_at_k,
        summary=summary,
    )


def write_analysis(analysis: RewardAnalysis, parquet_path: Path, json_path: Path) -> None:
    """The per-rollout Parquet table and the JSON summary, each written atomically."""
    import pyarrow.parquet as pq

    with atomic_file(parquet_path) as temporary:
        batches = analysis.record_batches()
        first = next(batches)
        with pq.ParquetWriter(temporary, first.schema) as writer:
            writer.write_batch(first)
            for batch in batches:
                writer.write_batch(batch)
    write_json_atomic(json_path, analysis.summary, indent=True)


def summary_lines(analysis: RewardAnalysis) -> list[str]:
    """A few lines for a terminal: pass@k, difficulty, cut-offs, reward against length."""
    summary = analysis.summary
    pass_at = ", ".join(
        f"pass@{k} {entry['mean']:.3f}" for k, entry in summary["pass_at_k"].items() if entry["mean"] is not None
    )
    difficulty = summary["difficulty"]
    cut = summary["cut_off"]
    length = summary["reward_vs_output_tokens"]

    def number(value: float | None) -> str:
        return "n/a" if value is None else f"{value:+.3f}"

    lines = [
        f"Pass@k (reward >= {analysis.threshold:g}) over {summary['tasks']} tasks: {pass_at or 'n/a'}",
        f"Tasks never / sometimes / always solved: {difficulty['never']} / {difficulty['sometimes']} / "
        f"{difficulty['always']}",
    ]
    if cut["share"] is not None:
        lines.append(f"Cut off by the length limit: {cut['rollouts']} of {summary['rollouts']['measured']} measured "
                     f"rollouts ({100 * cut['share']:.2f}%)")
    lines.append(f"Reward vs output tokens over {length['rollouts']} rollouts: Pearson {number(length['pearson'])}, "
                 f"Spearman {number(length['spearman'])}")
    flaky = summary.get("verifier_flakiness")
    if flaky is not None:
        lines.append(f"Verifier flakiness over {flaky['repeats']} verifications: {flaky['flaky_rollouts']} of "
                     f"{flaky['rollouts_checked']} rollouts got different rewards, in {len(flaky['flaky_tasks'])} tasks")
    return lines
