"""PNG plots for Dagster metadata (embedded as markdown images): a run's reward analysis, checkpoint trends.

Figures are drawn on matplotlib's Agg canvas directly (no pyplot, no global backend state), so this
is safe in any process and thread.
"""

from __future__ import annotations

import base64
import io
from typing import TYPE_CHECKING

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

if TYPE_CHECKING:
    from gym_pipeline.core.compare import Comparison
    from gym_pipeline.core.reward_analysis import RewardAnalysis

_SIZE = (6.4, 3.6)  # inches
_DPI = 100


def _png(figure: Figure) -> bytes:
    buffer = io.BytesIO()
    FigureCanvasAgg(figure).print_png(buffer)
    return buffer.getvalue()


def task_reward_histogram(analysis: RewardAnalysis) -> bytes:
    """Histogram of per-task mean reward (tasks with a measured rollout)."""
    figure = Figure(figsize=_SIZE, dpi=_DPI, layout="constrained")
    axes = figure.add_subplot()
    values = analysis.task_mean_reward
    if len(values):
        low, high = float(values.min()), float(values.max())
        axes.hist(values, bins=20, range=(low, high) if high > low else (low - 0.5, high + 0.5), color="C0",
                  edgecolor="white")
    axes.set_xlabel("mean reward of the task's rollouts")
    axes.set_ylabel("tasks")
    axes.set_title(f"Per-task mean reward ({len(values)} tasks)")
    return _png(figure)


def reward_vs_output_length(analysis: RewardAnalysis) -> bytes:
    """Rollouts binned by output tokens and reward (shaded by count), with the mean reward per quantile
    bucket of output length on top."""
    figure = Figure(figsize=_SIZE, dpi=_DPI, layout="constrained")
    axes = figure.add_subplot()
    length = analysis.summary["reward_vs_output_tokens"]
    measured = analysis.measured & ~np.isnan(analysis.output_tokens)
    tokens, reward = analysis.output_tokens[measured], analysis.reward[measured]
    if len(tokens):
        axes.hexbin(tokens, reward, gridsize=(40, 12), bins="log", cmap="Greys", mincnt=1, linewidths=0)
        buckets = length["buckets"]
        axes.plot([b["output_tokens_mean"] for b in buckets], [b["mean_reward"] for b in buckets], "o-", color="C1",
                  label="mean reward per output-length decile")
        axes.legend(loc="best", fontsize="small")

    def show(value: float | None) -> str:
        return "n/a" if value is None else f"{value:+.2f}"

    axes.set_xlabel("output tokens")
    axes.set_ylabel("reward")
    axes.set_title(f"Reward vs output length (Pearson {show(length['pearson'])}, "
                   f"Spearman {show(length['spearman'])})")
    return _png(figure)


def checkpoint_trend(comparison: Comparison) -> bytes:
    """Mean reward and pass@k by checkpoint, each with its 95% interval."""
    figure = Figure(figsize=_SIZE, dpi=_DPI, layout="constrained")
    axes = figure.add_subplot()
    names = [summary.checkpoint for summary in comparison.checkpoints]
    series = {"mean reward": [summary.mean_reward for summary in comparison.checkpoints]}
    for k in sorted({k for summary in comparison.checkpoints for k in summary.pass_at_k}):
        series[f"pass@{k}"] = [summary.pass_at_k.get(k) for summary in comparison.checkpoints]
    for label, estimates in series.items():
        shown = [(x, e) for x, e in enumerate(estimates) if e is not None]
        # A percentile interval need not hold its point to the last bit (the mean of 0.1, 0.1, 0.1 is
        # 0.10000000000000002): error bars never go below zero length.
        axes.errorbar([x for x, _ in shown], [e.value for _, e in shown], capsize=3, marker="o", label=label,
                      yerr=[[max(0.0, e.value - e.ci_low) for _, e in shown],
                            [max(0.0, e.ci_high - e.value) for _, e in shown]])
    axes.set_xticks(range(len(names)), names, rotation=30, ha="right")
    axes.set_ylabel("over tasks, with 95% interval")
    axes.set_title(f"{comparison.env} by checkpoint")
    if series["mean reward"]:
        axes.legend(loc="best", fontsize="small")
    return _png(figure)


def markdown_image(png: bytes, alt: str) -> str:
    """A markdown image with the PNG inline, as a data URI."""
    return f"![{alt}](data:image/png;base64,{base64.b64encode(png).decode('ascii')})"
