"""Intervals a statistician would sign: the task-level bootstrap in bounds, at the extremes and against SciPy;
Gym's Student-t interval and McNemar's test against SciPy."""

import math

import numpy as np
import orjson
import pytest
import scipy.stats
from hypothesis import given
from hypothesis import strategies as st

from gym_pipeline.core import intervals
from gym_pipeline.core.compare import compare_checkpoints, mcnemar_exact
from gym_pipeline.core.intervals import task_interval
from gym_pipeline.core.profile_stats import t_interval, t_quantile
from gym_pipeline.core.reward_analysis import analyze

# Rewards in [0, 1]: binary, on a grid (partial credit), or anything in between.
REWARD = st.one_of(st.sampled_from([0.0, 1.0]), st.sampled_from([0.0, 0.25, 0.5, 1.0]),
                   st.floats(0.0, 1.0, allow_nan=False))


def _tasks():
    """Lists of per-task reward lists, including the extremes (all 0, all 1, one task, one repeat)."""
    rewards = st.one_of(st.just(0.0), st.just(1.0), REWARD)
    repeats, tasks = st.integers(1, 6), st.integers(1, 30)
    return st.one_of(
        st.lists(st.lists(REWARD, min_size=1, max_size=6), min_size=1, max_size=30),
        st.builds(lambda n, r, value: [[value] * r] * n, tasks, repeats, rewards),  # every reward equal
        st.builds(lambda n, values: [[v] for v in values[:n]], tasks,
                  st.lists(REWARD, min_size=30, max_size=30)),  # one repeat
        st.lists(st.lists(REWARD, min_size=1, max_size=6), min_size=1, max_size=1),  # one task
    )


def _analysis(rewards_by_task):
    task = np.array([t for t, rewards in enumerate(rewards_by_task) for _ in rewards], dtype=np.int64)
    n = len(task)
    return analyze(
        task=task, rollout=np.array([r for rewards in rewards_by_task for r in range(len(rewards))], dtype=np.int64),
        agent=np.zeros(n, dtype=np.int64), agents=["agent"], per_agent=False,
        reward=np.array([x for rewards in rewards_by_task for x in rewards], dtype=np.float64),
        output_tokens=np.arange(n, dtype=np.float64), cut_off=np.zeros(n, dtype=bool), masked=np.zeros(n, dtype=bool),
        num_repeats=max(map(len, rewards_by_task)),
    )


def _profile(path, rewards_by_task):
    rows = [{"_ng_task_index": task, "rollout_infos": [{"reward": float(reward)} for reward in rewards]}
            for task, rewards in enumerate(rewards_by_task)]
    path.write_bytes(b"".join(orjson.dumps(row) + b"\n" for row in rows))
    return path


# --------------------------------------------------------------------------------------- the method


@given(st.lists(REWARD, min_size=1, max_size=60), st.data())
def test_interval_stays_within_the_values(values, data):
    weights = data.draw(st.one_of(st.none(), st.lists(st.integers(1, 16), min_size=len(values),
                                                      max_size=len(values))))
    low, high = task_interval(values, weights)
    assert min(values) <= low <= high <= max(values)


@pytest.mark.parametrize("value", [0.0, 1.0, 0.5])
@pytest.mark.parametrize("tasks", [1, 2, 50])
def test_no_spread_between_tasks_gives_the_point(value, tasks):
    assert task_interval([value] * tasks) == (value, value)


def test_no_task_gives_no_interval():
    assert task_interval([]) is None
    assert task_interval([math.nan, math.nan]) is None
    assert task_interval([math.nan, 1.0, 0.0]) == task_interval([1.0, 0.0])  # undefined tasks are left out


def test_bad_weights_are_refused():
    with pytest.raises(ValueError, match="weights"):
        task_interval([0.5, 1.0], [1, 0])
    with pytest.raises(ValueError, match="2 values but 1 weights"):
        task_interval([0.5, 1.0], [1])


def test_same_data_same_interval_and_the_seed_is_the_only_randomness():
    values = np.random.default_rng(5).random(200)
    assert task_interval(values) == task_interval(values.copy())
    assert task_interval(values, seed=intervals.SEED + 1) != task_interval(values)


def test_the_pass_at_4_that_reached_1_015_now_ends_at_1():
    """65 of 66 tasks solved at pass@4: the normal interval reached 1.015, the bootstrap stops at 1."""
    low, high = task_interval([1.0] * 65 + [0.0])
    assert high == 1.0 and 0.9 < low < 65 / 66


def test_agrees_with_scipys_percentile_bootstrap():
    rng = np.random.default_rng(7)
    values = np.clip(rng.beta(2, 1, 300) + rng.normal(0, 0.05, 300), 0, 1)
    ours = task_interval(values)
    theirs = scipy.stats.bootstrap((values,), np.mean, method="percentile", n_resamples=20_000,
                                   random_state=np.random.default_rng(1)).confidence_interval
    standard_error = values.std(ddof=1) / math.sqrt(len(values))
    assert ours[0] == pytest.approx(theirs.low, abs=0.25 * standard_error)  # Monte Carlo error: ~0.06 SE
    assert ours[1] == pytest.approx(theirs.high, abs=0.25 * standard_error)


def test_resampling_by_distinct_values_draws_like_resampling_tasks(monkeypatch):
    values = np.repeat([0.0, 0.25, 0.5, 1.0], [300, 100, 100, 500])
    grouped = task_interval(values)
    monkeypatch.setattr(intervals, "_MULTINOMIAL_COST", 10**9)  # force drawing task indices
    drawn = task_interval(values)
    standard_error = values.std(ddof=1) / math.sqrt(len(values))
    # Two independent sets of 2,000 resamples: each bound carries a Monte Carlo error of about 0.06 standard errors.
    assert grouped[0] == pytest.approx(drawn[0], abs=0.3 * standard_error)
    assert grouped[1] == pytest.approx(drawn[1], abs=0.3 * standard_error)


def test_repeats_are_not_counted_as_independent():
    """Tasks that are either always or never solved: 4 repeats carry no more information than 1."""
    solved = np.random.default_rng(2).random(100) < 0.6
    per_task = solved.astype(float)
    one_repeat = task_interval(per_task, np.ones(100))
    four_repeats = task_interval(per_task, np.full(100, 4))
    assert one_repeat == pytest.approx(four_repeats)
    p = per_task.mean()
    naive_half_width = 1.96 * math.sqrt(p * (1 - p) / 400)  # as if all 400 rollouts were independent
    assert (four_repeats[1] - four_repeats[0]) / 2 > 1.5 * naive_half_width


def test_coverage_of_the_true_mean_with_clustered_repeats():
    """Simulated runs: task difficulty ~ Beta(2, 2), 4 binary repeats per task, 80 tasks; the interval
    should hold the true mean reward (0.5) in about 95% of runs."""
    rng = np.random.default_rng(11)
    held = 0
    runs = 300
    for _ in range(runs):
        difficulty = rng.beta(2, 2, 80)
        rewards = rng.binomial(4, difficulty) / 4
        low, high = task_interval(rewards, np.full(80, 4))
        held += low <= 0.5 <= high
    assert 0.90 <= held / runs <= 0.99


# ------------------------------------------------------------------- in the analysis and the comparison


def _in(low, high, bound_low=0.0, bound_high=1.0):
    return bound_low <= low <= high <= bound_high


@given(_tasks())
def test_reward_analysis_intervals_stay_in_0_1(rewards_by_task):
    summary = _analysis(rewards_by_task).summary
    assert _in(summary["mean_reward_ci_low"], summary["mean_reward_ci_high"])
    for entry in summary["pass_at_k"].values():
        assert _in(entry["ci_low"], entry["ci_high"])


@given(_tasks(), _tasks())
def test_comparison_intervals_stay_in_bounds(tmp_path_factory, before, after):
    folder = tmp_path_factory.mktemp("profiles")
    comparison = compare_checkpoints("env", [("a", _profile(folder / "a.jsonl", before)),
                                             ("b", _profile(folder / "b.jsonl", after))])
    for summary in comparison.checkpoints:
        for estimate in (summary.mean_reward, *summary.pass_at_k.values()):
            assert _in(estimate.ci_low, estimate.ci_high) and estimate.ci_low <= estimate.value + 1e-12
    delta = comparison.changes[0].mean_reward_delta
    assert _in(delta.ci_low, delta.ci_high, -1.0, 1.0)


def test_analysis_and_comparison_give_the_same_interval(tmp_path):
    rng = np.random.default_rng(4)
    rewards_by_task = [list(rng.binomial(1, p, 4).astype(float)) for p in rng.beta(2, 2, 40)]
    summary = _analysis(rewards_by_task).summary
    checkpoint = compare_checkpoints("env", [("a", _profile(tmp_path / "a.jsonl", rewards_by_task))]).checkpoints[0]
    # Every task has 4 rollouts: the rollout-level mean weighs tasks equally, as the comparison does.
    assert (summary["mean_reward_ci_low"], summary["mean_reward_ci_high"]) == pytest.approx(
        (checkpoint.mean_reward.ci_low, checkpoint.mean_reward.ci_high), rel=1e-12)
    for k, estimate in checkpoint.pass_at_k.items():
        assert (summary["pass_at_k"][str(k)]["ci_low"], summary["pass_at_k"][str(k)]["ci_high"]) == (
            estimate.ci_low, estimate.ci_high)


def test_files_say_how_their_intervals_were_computed(tmp_path):
    comparison = compare_checkpoints("env", [("a", _profile(tmp_path / "a.jsonl", [[1.0, 0.0]]))]).as_dict()
    assert comparison["intervals"] == _analysis([[1.0, 0.0]]).summary["intervals"] == {
        "method": "task_bootstrap_percentile", "unit": "task", "confidence": 0.95, "resamples": 2000, "seed": 14}


# ------------------------------------------------------- Gym's Student-t interval, McNemar: against SciPy


@given(st.sampled_from([0.025, 0.975]), st.integers(1, 100_000))
def test_t_quantile_equals_scipys_where_gym_uses_it(p, dof):
    # Within 5e-12 up to a few thousand degrees of freedom, 2e-11 at 100,000 (Gym's files are matched to 1e-9).
    assert t_quantile(p, float(dof)) == pytest.approx(scipy.stats.t.ppf(p, dof), rel=1e-11 if dof < 5000 else 1e-10)


@given(st.floats(0.0005, 0.9995), st.integers(1, 2000))
def test_t_quantile_equals_scipys(p, dof):
    # Near p = 0.5 (t near 0, many degrees of freedom) the bisection is good to about 1e-11 absolute.
    assert t_quantile(p, float(dof)) == pytest.approx(scipy.stats.t.ppf(p, dof), rel=1e-11, abs=1e-10)


@given(st.floats(-10, 10), st.floats(1e-6, 5.0), st.integers(2, 500))  # Gym never calls it with scale 0
def test_t_interval_equals_scipys_as_gym_calls_it(mean, scale, n):
    ours = t_interval(mean, scale, n)
    theirs = scipy.stats.t.interval(0.95, df=n - 1, loc=mean, scale=scale)
    assert ours == pytest.approx(theirs, rel=1e-11, abs=1e-12)


@given(st.integers(0, 200), st.integers(0, 200))
def test_mcnemar_exact_equals_scipys_binomial_test(improved, regressed):
    expected = 1.0 if improved + regressed == 0 else scipy.stats.binomtest(improved, improved + regressed).pvalue
    assert mcnemar_exact(improved, regressed) == pytest.approx(expected, rel=1e-12)
