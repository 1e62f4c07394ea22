"""Checkpoint comparison: estimates with intervals, paired per-task changes and McNemar's test."""

import math

import orjson
import pytest

from gym_pipeline.core.compare import compare_checkpoints, mcnemar_exact


def _profile(path, rewards_by_task):
    rows = []
    for task, rewards in rewards_by_task.items():
        infos = [{"rollout_id": f"{task}:{i}", "_ng_task_index": task, "_ng_rollout_index": i, "reward": reward}
                 for i, reward in enumerate(rewards)]
        rows.append({"_ng_task_index": task, "rollout_infos": infos})
    path.write_bytes(b"".join(orjson.dumps(row) + b"\n" for row in rows))
    return path


def test_mcnemar_exact_matches_the_binomial_tail():
    assert mcnemar_exact(0, 0) == 1.0
    assert mcnemar_exact(5, 5) == 1.0
    # 0 improved, 6 regressed: 2 * (1/2)^6
    assert mcnemar_exact(0, 6) == pytest.approx(2 / 64)
    # 1 vs 9: 2 * (C(10,0) + C(10,1)) / 2^10
    assert mcnemar_exact(1, 9) == pytest.approx(2 * 11 / 1024)


def test_estimates_and_pass_at_k(tmp_path):
    profile = _profile(tmp_path / "a.jsonl", {0: [1.0, 1.0, 0.0, 0.0], 1: [0.0] * 4, 2: [1.0] * 4})
    summary = compare_checkpoints("env", [("c1", profile)]).checkpoints[0]
    assert (summary.tasks, summary.rollouts) == (3, 12)
    assert summary.mean_reward.value == pytest.approx(0.5)
    assert summary.mean_reward.ci_low < 0.5 < summary.mean_reward.ci_high
    assert sorted(summary.pass_at_k) == [1, 2, 4]
    # task 0: 2 of 4 pass -> pass@2 = 1 - C(2,2)/C(4,2) = 5/6
    assert summary.pass_at_k[2].value == pytest.approx((5 / 6 + 0 + 1) / 3)
    assert summary.pass_at_k[4].value == pytest.approx(2 / 3)


def test_a_significant_regression_is_flagged_with_its_tasks(tmp_path):
    solved, unsolved = [1.0] * 4, [0.0] * 4
    before = _profile(tmp_path / "b.jsonl", {task: solved for task in range(12)})
    after = _profile(tmp_path / "c.jsonl", {task: (unsolved if task < 8 else solved) for task in range(12)})
    recovered = _profile(tmp_path / "d.jsonl", {task: solved for task in range(12)})
    comparison = compare_checkpoints("env", [("s1", before), ("s2", after), ("s3", recovered)])
    drop, rise = comparison.changes
    assert (drop.before, drop.after, drop.regressed, drop.improved) == ("s1", "s2", list(range(8)), [])
    assert drop.mcnemar_p == pytest.approx(2 / 256) and drop.significant_regression
    assert drop.mean_reward_delta.value == pytest.approx(-8 / 12)
    assert rise.improved == list(range(8)) and not rise.significant_regression
    assert comparison.regressions == [drop]


def test_noise_is_not_a_regression(tmp_path):
    before = _profile(tmp_path / "b.jsonl", {0: [1.0, 1.0], 1: [0.0, 0.0], 2: [1.0, 0.0]})
    after = _profile(tmp_path / "c.jsonl", {0: [0.0, 0.0], 1: [1.0, 1.0], 2: [1.0, 0.0]})
    change = compare_checkpoints("env", [("a", before), ("b", after)]).changes[0]
    assert change.regressed == [0] and change.improved == [1]
    assert not change.significant_regression and change.mcnemar_p == 1.0
    assert not math.isnan(change.mean_reward_delta.value)


def test_tasks_missing_from_one_checkpoint_are_not_paired(tmp_path):
    before = _profile(tmp_path / "b.jsonl", {0: [1.0], 1: [1.0]})
    after = _profile(tmp_path / "c.jsonl", {1: [0.0], 2: [1.0]})
    change = compare_checkpoints("env", [("a", before), ("b", after)]).changes[0]
    assert change.tasks_compared == 1 and change.regressed == [1]


def test_comparison_serializes_to_json(tmp_path):
    profile = _profile(tmp_path / "a.jsonl", {0: [1.0, 0.0]})
    value = orjson.loads(orjson.dumps(compare_checkpoints("env", [("c1", profile)]).as_dict()))
    assert set(value["checkpoints"][0]["pass_at_k"]) == {"1", "2"}


def test_trend_plot_of_tasks_that_all_score_the_same(tmp_path):
    """Every task at 0.1: the interval is [0.1, 0.1] and the mean 0.10000000000000002; the plot still draws."""
    from gym_pipeline.core.plots import checkpoint_trend

    profile = _profile(tmp_path / "a.jsonl", {task: [0.1] for task in range(3)})
    comparison = compare_checkpoints("env", [("c1", profile)])
    estimate = comparison.checkpoints[0].mean_reward
    assert (estimate.ci_low, estimate.ci_high) == (0.1, 0.1) and estimate.value == pytest.approx(0.1)
    assert checkpoint_trend(comparison).startswith(b"\x89PNG")


def _run_with_flaky_tasks(run_dir, rewards_by_task, flaky_tasks):
    """A run folder: its profile, a rollouts file, and the flakiness record `reverify --repeat 4` would leave."""
    from gym_pipeline.core.fingerprint import file_digest
    from gym_pipeline.core.flakiness import Flakiness, write_flakiness

    run_dir.mkdir()
    rollouts = run_dir / "rollouts.jsonl"
    rollouts.write_bytes(b'{"reward": 1.0}\n')
    write_flakiness(rollouts, Flakiness(
        repeats=4, verifier={"name": "judge", "version": "1"}, rollouts_digest=file_digest(rollouts),
        rollouts_checked=sum(map(len, rewards_by_task.values())),
        task_rollouts={task: len(rewards) for task, rewards in rewards_by_task.items()},
        flaky=[{"_ng_task_index": task, "_ng_rollout_index": 0, "rewards": [0.0, 1.0, 1.0, 0.0]}
               for task in flaky_tasks]))
    return _profile(run_dir / "rollouts_reward_profiling.jsonl", rewards_by_task)


@pytest.mark.parametrize(("flaky", "warned"), [(range(10), True), (range(2), False), ((), False)])
def test_a_regression_within_verifier_flakiness_is_flagged_with_a_warning(tmp_path, flaky, warned):
    """12 tasks solved before and not after: significant. When 10 of them have a flaky verifier, the 2 left are not."""
    before = {task: [1.0] * 4 for task in range(20)}
    after = {task: [0.0] * 4 if task < 12 else [1.0] * 4 for task in range(20)}
    comparison = compare_checkpoints("env", [("c1", _run_with_flaky_tasks(tmp_path / "c1", before, [])),
                                             ("c2", _run_with_flaky_tasks(tmp_path / "c2", after, flaky))])
    [change] = comparison.changes
    assert change.significant_regression and change.flaky_tasks == list(flaky)
    assert (change.flakiness_warning is not None) == warned
    if warned:
        assert "10 of the 12 regressed tasks have a flaky verifier" in change.flakiness_warning
        assert "flakiness alone may explain" in change.flakiness_warning
