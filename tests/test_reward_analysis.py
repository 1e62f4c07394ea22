"""The reward analysis beyond Gym: pass@k, difficulty, cut-offs, reward against length, its files and plots."""

import itertools
import math
import warnings
from fractions import Fraction

import numpy as np
import orjson
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from gym_pipeline.core import plots
from gym_pipeline.core.compare import CheckpointSummary, Comparison, Estimate
from gym_pipeline.core.profile import profile_run, write_profile
from gym_pipeline.core.reward_analysis import DIFFICULTY, analyze, k_values, pass_at_k, summary_lines
from gym_pipeline.stages import profile_metadata, summary_markdown


def _analysis(rewards_by_task, *, masked=None, tokens=None, cut_off=None, num_repeats=None, threshold=1.0):
    """An analysis of tasks given as lists of rewards (rollout indices in order)."""
    task = np.array([t for t, rewards in enumerate(rewards_by_task) for _ in rewards], dtype=np.int64)
    rollout = np.array([r for rewards in rewards_by_task for r in range(len(rewards))], dtype=np.int64)
    n = len(task)
    return analyze(
        task=task, rollout=rollout, agent=np.zeros(n, dtype=np.int64), agents=["agent"], per_agent=False,
        reward=np.array([x for rewards in rewards_by_task for x in rewards], dtype=np.float64),
        output_tokens=np.asarray(tokens if tokens is not None else np.arange(n) + 1, dtype=np.float64),
        cut_off=np.asarray(cut_off if cut_off is not None else np.zeros(n), dtype=bool),
        masked=np.asarray(masked if masked is not None else np.zeros(n), dtype=bool),
        num_repeats=num_repeats or max(map(len, rewards_by_task)), threshold=threshold,
    )


# ------------------------------------------------------------------------------------------- pass@k


def _brute_force_pass_at_k(n: int, c: int, k: int) -> float:
    """The share of k-subsets of n rollouts (c of them passing) with at least one pass, by enumeration."""
    outcomes = [True] * c + [False] * (n - c)
    subsets = list(itertools.combinations(outcomes, k))
    return float(Fraction(sum(any(subset) for subset in subsets), len(subsets)))


@pytest.mark.parametrize("n", range(1, 9))
def test_pass_at_k_equals_brute_force_enumeration(n):
    for c in range(n + 1):
        for k in range(1, n + 1):
            assert pass_at_k(n, c, k) == _brute_force_pass_at_k(n, c, k), (n, c, k)


def test_k_runs_in_powers_of_two_up_to_the_repeats():
    assert k_values(16) == [1, 2, 4, 8, 16]
    assert k_values(10) == [1, 2, 4, 8, 10]
    assert k_values(1) == [1]
    assert k_values(0) == []


def test_pass_at_k_per_task_and_run_level():
    analysis = _analysis([[1.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0], [0.5, 1.0]])
    assert analysis.ks == [1, 2, 4]
    expected = np.array([[0.5, 5 / 6, 1.0], [0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [0.5, 1.0, np.nan]])
    np.testing.assert_array_equal(analysis.task_pass_at_k, expected)
    pass_at = analysis.summary["pass_at_k"]
    assert (pass_at["1"]["mean"], pass_at["1"]["tasks"]) == (0.5, 4)
    assert (pass_at["4"]["mean"], pass_at["4"]["tasks"]) == (pytest.approx(2 / 3), 3)  # task 3 has 2 rollouts
    for entry in pass_at.values():  # the task-level bootstrap interval, over the tasks where pass@k is defined
        assert 0.0 <= entry["ci_low"] <= entry["mean"] <= entry["ci_high"] <= 1.0
    assert (pass_at["4"]["ci_low"], pass_at["4"]["ci_high"]) == (0.0, 1.0)  # 3 tasks: 1, 0, 1
    summary = analysis.summary
    assert summary["mean_reward"] == pytest.approx(7.5 / 14)  # over rollouts
    assert 0.0 <= summary["mean_reward_ci_low"] < summary["mean_reward"] < summary["mean_reward_ci_high"] <= 1.0
    assert summary["intervals"]["method"] == "task_bootstrap_percentile"
    assert analysis.summary["difficulty"] == {"never": 1, "sometimes": 2, "always": 1}
    assert [DIFFICULTY[d] for d in analysis.task_difficulty] == ["sometimes", "never", "always", "sometimes"]


def test_threshold_decides_what_passes():
    analysis = _analysis([[0.5, 0.0], [0.7, 0.9]], threshold=0.6)
    assert analysis.task_num_passed.tolist() == [0, 2]
    assert analysis.summary["pass_threshold"] == 0.6


def test_masked_rollouts_are_left_out_of_every_statistic():
    analysis = _analysis([[1.0, 0.0, 0.0], [0.0, 1.0]], masked=[False, True, True, True, True],
                         cut_off=[False, True, False, True, True])
    assert analysis.task_num_rollouts.tolist() == [1]  # task 1 was masked whole
    assert analysis.task_row.tolist() == [0, 0, 0, -1, -1]
    assert analysis.summary["difficulty"] == {"never": 0, "sometimes": 0, "always": 1}
    assert analysis.summary["rollouts"] == {"completed": 5, "masked": 4, "unscored": 0, "measured": 1}
    assert analysis.summary["cut_off"] == {"rollouts": 0, "share": 0.0}
    assert analysis.summary["reward_vs_output_tokens"]["rollouts"] == 1


# --------------------------------------------------------------------------------- reward vs length


def test_reward_against_output_length():
    rng = np.random.default_rng(3)
    tokens = rng.integers(1, 500, 400).astype(float)
    tokens[:40] = 250.0  # ties
    rewards = (rng.random(400) < 1 - tokens / 600).astype(float)
    analysis = _analysis([rewards.tolist()], tokens=tokens)
    length = analysis.summary["reward_vs_output_tokens"]
    frame = pd.DataFrame({"tokens": tokens, "reward": rewards})
    assert length["pearson"] == pytest.approx(frame.corr().loc["tokens", "reward"], rel=1e-12)
    assert length["spearman"] == pytest.approx(frame.rank().corr().loc["tokens", "reward"], rel=1e-12)
    buckets = length["buckets"]
    assert sum(b["rollouts"] for b in buckets) == 400 and 5 <= len(buckets) <= 10
    for low, high in itertools.pairwise(buckets):
        assert low["output_tokens_max"] < high["output_tokens_min"]
    first = tokens <= buckets[0]["output_tokens_max"]
    assert buckets[0]["mean_reward"] == pytest.approx(rewards[first].mean())
    assert buckets[0]["output_tokens_mean"] == pytest.approx(tokens[first].mean())


def test_undefined_correlations_are_none():
    analysis = _analysis([[1.0, 1.0, 1.0]])  # rewards constant
    assert analysis.summary["reward_vs_output_tokens"]["pearson"] is None
    assert analysis.summary["reward_vs_output_tokens"]["spearman"] is None
    assert "Pearson n/a" in summary_lines(analysis)[-1]


# ------------------------------------------------------------------------------ through the profiler


def _rollout(task, repeat, reward, *, masked=False, status="completed", reason=None, usage=True):
    return {
        "responses_create_params": {"input": []},
        "response": {"id": "r", "output": [], "status": status,
                     "incomplete_details": {"reason": reason} if reason else None,
                     "usage": {"input_tokens": 9, "output_tokens": 10 + 5 * repeat, "total_tokens": 19 + 5 * repeat}
                     if usage else None},
        "reward": reward,
        "mask_sample": masked,
        "_ng_task_index": task,
        "_ng_rollout_index": repeat,
    }


def _write_run(tmp_path, rollouts, repeats):
    inputs = [{"responses_create_params": {"input": []}, "agent_ref": {"name": "a"}, "_ng_task_index": t,
               "_ng_rollout_index": r} for t in sorted({row["_ng_task_index"] for row in rollouts}) for r in range(repeats)]
    materialized, rollout_path = tmp_path / "rollouts_materialized_inputs.jsonl", tmp_path / "rollouts.jsonl"
    materialized.write_bytes(b"".join(orjson.dumps(row) + b"\n" for row in inputs))
    rollout_path.write_bytes(b"".join(orjson.dumps(row) + b"\n" for row in rollouts))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return profile_run(materialized, rollout_path), rollout_path


def test_cut_off_by_the_length_limit(tmp_path):
    rollouts = [
        _rollout(0, 0, 1.0),
        _rollout(0, 1, 0.0, status="incomplete"),
        _rollout(0, 2, 0.0, status="incomplete", reason="max_output_tokens"),
        _rollout(0, 3, 0.0, reason="max_output_tokens"),
        _rollout(1, 0, 0.0, reason="content_filter"),  # incomplete for another reason, but still completed
        _rollout(1, 1, 0.0, status="incomplete", masked=True),
        _rollout(1, 2, 1.0, usage=False),
        _rollout(1, 3, 1.0),
    ]
    result, _ = _write_run(tmp_path, rollouts, repeats=4)
    analysis = result.analysis
    assert analysis.cut_off.tolist() == [False, True, True, True, False, True, False, False]
    assert analysis.summary["cut_off"] == {"rollouts": 3, "share": 3 / 7}
    assert np.isnan(analysis.output_tokens[6]) and analysis.summary["reward_vs_output_tokens"]["rollouts"] == 6


def test_parquet_table_and_json_summary(tmp_path):
    rollouts = [_rollout(t, r, float((t + r) % 3 == 0), masked=(t, r) == (2, 1)) for t in range(4) for r in range(3)]
    rollouts += [_rollout(4, r, 1.0, masked=True) for r in range(3)]
    result, rollout_path = _write_run(tmp_path, rollouts[::-1], repeats=3)  # completion order reversed
    paths = write_profile(result, rollout_path)
    table = pq.read_table(paths["reward_analysis"])
    assert table.schema.names == [
        "_ng_task_index", "_ng_rollout_index", "agent", "reward", "output_tokens", "cut_off", "masked", "passed",
        "task_num_rollouts", "task_num_passed", "task_mean_reward", "task_difficulty", "task_pass_at_1",
        "task_pass_at_2", "task_pass_at_3",
    ]
    assert table.schema.field("agent").type == pa.dictionary(pa.int32(), pa.string())
    assert table.schema.field("task_difficulty").type == pa.dictionary(pa.int32(), pa.string())
    assert table.schema.field("output_tokens").type == pa.int64()
    rows = table.to_pylist()
    keys = [(row["_ng_task_index"], row["_ng_rollout_index"]) for row in rows]
    assert keys == sorted(set(keys)) and len(keys) == 15  # every completed rollout, keyed by both indices
    by_task = {row["_ng_task_index"]: row for row in rows}
    profile_rows = {row["_ng_task_index"]: row for row in result.task_rows}
    for task, row in profile_rows.items():
        assert by_task[task]["task_mean_reward"] == row["mean/reward"]
        assert by_task[task]["task_num_rollouts"] == row["num_rollouts"]
    assert by_task[4]["task_difficulty"] is None and by_task[4]["task_pass_at_1"] is None  # masked whole
    assert by_task[2]["task_num_rollouts"] == 2 and by_task[2]["task_pass_at_3"] is None
    assert rows[0]["task_difficulty"] == "sometimes" and rows[0]["passed"] is True
    summary = orjson.loads(paths["reward_analysis_summary"].read_bytes())
    assert summary == result.analysis.summary
    assert summary["rollouts"] == {"completed": 15, "masked": 4, "unscored": 0, "measured": 11}
    assert summary["tasks"] == 4 and sum(summary["difficulty"].values()) == 4
    assert summary["pass_at_k"]["1"]["mean"] == pytest.approx(np.mean([r["mean/reward"] for r in profile_rows.values()]))


# ------------------------------------------------------------------------------ plots and metadata


def test_plots_are_pngs_that_embed_in_markdown(fixtures_dir):
    folder = fixtures_dir / "partial_run_with_failures"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = profile_run(folder / "rollouts_materialized_inputs.jsonl", folder / "rollouts.jsonl",
                             allow_partial=True)
    estimate = Estimate(0.5, 0.4, 0.6)
    trend = Comparison("env", [CheckpointSummary("step_1", 4, 16, estimate, {1: estimate, 4: estimate})], [])
    for png in (plots.task_reward_histogram(result.analysis), plots.reward_vs_output_length(result.analysis),
                plots.checkpoint_trend(trend)):
        assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert plots.markdown_image(b"\x89PNG", "x") == "![x](data:image/png;base64,iVBORw==)"

    markdown = summary_markdown(result)
    assert "| completion | 16 / 20 rollouts (80.00%) |" in markdown
    assert "| pass@4 (reward >= 1) | 1.000 [1.000, 1.000] over 4 tasks |" in markdown
    assert "| mean reward [95% interval] | 0.625 [0.500, 0.875] |" in markdown
    metadata = profile_metadata(result, {
        "reward_profiling": folder / "rollouts_reward_profiling.jsonl",
        "reward_analysis": folder / "rollouts_reward_analysis.parquet",
    })
    assert {"summary", "task_reward_histogram", "reward_vs_output_length", "reward_analysis", "path"} <= set(metadata)
    assert metadata["task_reward_histogram"]["raw_value"].startswith("![per-task mean reward](data:image/png;base64,")
    assert metadata["pass@1"] == 0.625 and not math.isnan(metadata["cut_off_share"])
