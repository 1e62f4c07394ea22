"""The reward profiler against real NeMo Gym 0.7.0 `gym eval profile` output."""

import math
import random
import warnings
from pathlib import Path

import orjson
import pandas as pd
import pytest

from gym_pipeline.core import profile
from gym_pipeline.core.formats import JsonlFormatError
from gym_pipeline.core.profile import (
    STAT_NAMES,
    DuplicateRolloutKeyError,
    MissingRolloutsError,
    UnmatchedRolloutsError,
    profile_run,
    profiled_values,
    rollout_info,
    summary_lines,
    t_quantile,
    write_profile,
)
from gym_pipeline.core.run_lock import LOCK_FILE

RUNS = {"clean_run": False, "partial_run_with_failures": True}
LOGS = {"clean_run": "eval_profile_ok.log", "partial_run_with_failures": "eval_profile_partial.log"}


def assert_same(ours, gyms, where="$"):
    """Equal structure, keys in the same order, numbers within 1e-9 relative."""
    if isinstance(gyms, dict):
        assert isinstance(ours, dict), where
        assert list(ours) == list(gyms), f"{where}: keys differ\nours: {list(ours)}\ngym:  {list(gyms)}"
        for key in gyms:
            assert_same(ours[key], gyms[key], f"{where}.{key}")
    elif isinstance(gyms, list):
        assert isinstance(ours, list) and len(ours) == len(gyms), where
        for i, (a, b) in enumerate(zip(ours, gyms, strict=False)):
            assert_same(a, b, f"{where}[{i}]")
    elif isinstance(gyms, float) or isinstance(ours, float):
        assert type(ours) is type(gyms), f"{where}: {ours!r} vs {gyms!r}"
        assert math.isclose(ours, gyms, rel_tol=1e-9, abs_tol=1e-12), f"{where}: {ours!r} vs {gyms!r}"
    else:
        assert type(ours) is type(gyms) and ours == gyms, f"{where}: {ours!r} vs {gyms!r}"


def _profile_fixture(fixtures_dir, run):
    folder = fixtures_dir / run
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return profile_run(
            folder / "rollouts_materialized_inputs.jsonl", folder / "rollouts.jsonl", allow_partial=RUNS[run]
        )


# ----------------------------------------------------------------------------------------------- golden


@pytest.mark.parametrize("run", RUNS)
def test_outputs_equal_gyms_files(fixtures_dir, run):
    folder = fixtures_dir / run
    result = _profile_fixture(fixtures_dir, run)
    gym_rows = [orjson.loads(line) for line in (folder / "rollouts_reward_profiling.jsonl").read_bytes().splitlines()]
    assert_same(list(result.task_rows), gym_rows, "reward_profiling")
    assert_same(result.agent_metrics, orjson.loads((folder / "rollouts_agent_metrics.json").read_bytes()), "agent")
    assert_same(
        result.repeat_level_metrics,
        orjson.loads((folder / "rollouts_repeat_level_metrics.json").read_bytes()),
        "repeat_level",
    )


@pytest.mark.parametrize("run", RUNS)
def test_written_files_equal_gyms_files_and_style(fixtures_dir, run, tmp_path):
    folder = fixtures_dir / run
    result = _profile_fixture(fixtures_dir, run)
    paths = write_profile(result, folder / "rollouts.jsonl", output_dir=tmp_path)
    assert paths == {
        "reward_profiling": tmp_path / "rollouts_reward_profiling.jsonl",
        "agent_metrics": tmp_path / "rollouts_agent_metrics.json",
        "repeat_level_metrics": tmp_path / "rollouts_repeat_level_metrics.json",
        "reward_analysis": tmp_path / "rollouts_reward_analysis.parquet",
        "reward_analysis_summary": tmp_path / "rollouts_reward_analysis.json",
    }
    assert paths["reward_analysis"].exists() and paths["reward_analysis_summary"].exists()
    for path in (paths["reward_profiling"], paths["agent_metrics"], paths["repeat_level_metrics"]):
        ours, gyms = path.read_bytes(), (folder / path.name).read_bytes()
        # Same serialization: compact orjson, JSONL rows newline-terminated, JSON files on one line.
        assert ours.count(b"\n") == gyms.count(b"\n")
        assert ours[:3] == gyms[:3] and ours[-2:] == gyms[-2:]
        if path.suffix == ".jsonl":
            assert_same([orjson.loads(x) for x in ours.splitlines()], [orjson.loads(x) for x in gyms.splitlines()])
        else:
            assert_same(orjson.loads(ours), orjson.loads(gyms))
    assert not [p for p in tmp_path.glob(".*") if p.name != LOCK_FILE]  # no temporary files left behind


def test_default_output_dir_is_beside_the_rollouts(fixtures_dir, tmp_path):
    result = _profile_fixture(fixtures_dir, "clean_run")
    rollouts = tmp_path / "run" / "my_rollouts.jsonl"
    paths = write_profile(result, rollouts)
    assert paths["reward_profiling"] == tmp_path / "run" / "my_rollouts_reward_profiling.jsonl"
    assert all(p.exists() for p in paths.values())


@pytest.mark.parametrize("run", RUNS)
def test_summary_lines_equal_gyms_printout(fixtures_dir, run):
    log = (fixtures_dir / "logs" / LOGS[run]).read_text().splitlines()
    start = log.index("Profiling outputs:") + 1
    assert summary_lines(_profile_fixture(fixtures_dir, run)) == log[start : start + 3]


@pytest.mark.parametrize("run", RUNS)
def test_summary_counts(fixtures_dir, run):
    result = _profile_fixture(fixtures_dir, run)
    partial = RUNS[run]
    assert (result.expected_rollouts, result.completed_rollouts) == (20, 16 if partial else 20)
    assert (result.tasks_total, result.tasks_complete, result.tasks_partial, result.tasks_dropped) == (
        (5, 4, 0, 1) if partial else (5, 5, 0, 0)
    )
    assert result.masked_rollouts == 0


def test_zero_standard_error_warns_and_collapses_the_interval(fixtures_dir):
    folder = fixtures_dir / "clean_run"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = profile_run(folder / "rollouts_materialized_inputs.jsonl", folder / "rollouts.jsonl")
    # Gym's log shows the same three: repeats 0 and 2 (every reward 1.0) and the across-repeat
    # mean input_tokens (37.2 in all 4 repeats).
    messages = [str(w.message) for w in caught if issubclass(w.category, UserWarning)]
    assert messages == result.warnings
    assert [m.split(" -- ")[0] for m in messages] == [
        "Standard error is 0 (all 5 values are identical)",
        "Standard error is 0 (all 5 values are identical)",
        "Standard error is 0 (all 4 values are identical)",
    ]
    first = result.repeat_level_metrics[0]
    assert first["sem/reward"] == 0.0
    assert first["ci_low_95/reward"] == first["ci_high_95/reward"] == first["mean/reward"] == 1.0
    agent = result.agent_metrics[0]
    assert agent["ci_low_95_across_repeats/mean/input_tokens"] == agent["ci_high_95_across_repeats/mean/input_tokens"]


def test_strict_profile_of_a_partial_run_names_the_missing_keys(fixtures_dir):
    folder = fixtures_dir / "partial_run_with_failures"
    with pytest.raises(MissingRolloutsError) as caught:
        profile_run(folder / "rollouts_materialized_inputs.jsonl", folder / "rollouts.jsonl")
    error = caught.value
    assert isinstance(error, ValueError)
    assert error.missing_keys == [(2, 0), (2, 1), (2, 2), (2, 3)]
    gym_error = (fixtures_dir / "logs" / "eval_profile_strict_missing_rollouts.log").read_text()
    gym_first_line = next(line for line in gym_error.splitlines() if line.startswith("ValueError: "))
    assert str(error).splitlines()[0] == gym_first_line.removeprefix("ValueError: ")
    assert "--allow-partial" in str(error)


@pytest.mark.parametrize(
    ("p", "dof", "scipy"),
    [
        (0.975, 1, 12.706204736174698),
        (0.975, 2, 4.302652729749464),
        (0.975, 3, 3.182446305284263),
        (0.975, 4, 2.7764451051977987),
        (0.975, 30, 2.0422724563012373),
        (0.025, 9, -2.262157162798205),
    ],
)
def test_t_quantile_matches_scipy(p, dof, scipy):
    assert math.isclose(t_quantile(p, float(dof)), scipy, rel_tol=1e-12)


# ----------------------------------------------------------------------------------- built runs


def _input(task, repeat, agent="agent_a"):
    return {
        "responses_create_params": {"input": [{"role": "user", "content": f"q{task}"}]},
        "expected_answer": str(task),
        "agent_ref": {"name": agent},
        "_ng_task_index": task,
        "_ng_rollout_index": repeat,
    }


def _rollout(task, repeat, reward, masked=False, tokens=(10, 5), **extra):
    usage = {
        "input_tokens": tokens[0],
        "input_tokens_details": {"cached_tokens": 1},
        "output_tokens": tokens[1],
        "total_tokens": tokens[0] + tokens[1],
    }
    row = {
        "responses_create_params": {"input": []},
        "response": {"id": "r", "output": [], "usage": usage, "created_at": 123.0},
        "reward": reward,
        "mask_sample": masked,
        "failure_kind": "judge_failed" if masked else None,
        "_ng_task_index": task,
        "_ng_rollout_index": repeat,
        "agent_ref": {"name": "agent_a"},
    }
    row.update(extra)
    return row


def _write(path: Path, rows) -> Path:
    path.write_bytes(b"".join(orjson.dumps(row) + b"\n" for row in rows))
    return path


def _run(tmp_path, inputs, rollouts):
    return _write(tmp_path / "rollouts_materialized_inputs.jsonl", inputs), _write(tmp_path / "rollouts.jsonl", rollouts)


def test_masked_rollouts_leave_quality_metrics_but_count_as_collected(tmp_path):
    inputs = [_input(t, r) for t in range(3) for r in range(2)]
    rollouts = [
        _rollout(1, 1, 1.0, tokens=(20, 8)),  # completion order, not sorted
        _rollout(0, 0, 1.0),
        _rollout(0, 1, 0.0, masked=True),
        _rollout(1, 0, 0.5, tokens=(20, 6)),
        _rollout(2, 0, 0.0, masked=True),
        _rollout(2, 1, 0.0, masked=True),
    ]
    with pytest.warns(UserWarning, match="repeat\\(s\\) are missing rollouts"):
        result = profile_run(*_run(tmp_path, inputs, rollouts))

    assert summary_lines(result) == [
        "Reward profile completion: 6/6 rollout rows (100.00%)",
        "Input rows: 3 total; 3 complete; 0 partial; 0 without rollouts dropped from output.",
        "Masked from quality metrics: 3 rollout rows (kept in completion accounting above).",
    ]
    # Task 2 was masked in every repeat: nothing measured, no profile row.
    assert [row["_ng_task_index"] for row in result.task_rows] == [0, 1]
    task0, task1 = result.task_rows
    assert task0["mean/reward"] == 1.0 and task0["std/reward"] == 0.0  # one value: Gym fills std with 0
    assert (task0["num_rollouts"], task0["expected_num_rollouts"], task0["missing_num_rollouts"]) == (1, 1, 0)
    assert [info["rollout_id"] for info in task0["rollout_infos"]] == ["0:0"]
    assert task0["sample"] == {k: v for k, v in _input(0, 0).items() if not k.startswith("_ng_")}
    assert task1["mean/reward"] == 0.75 and task1["std/reward"] == pytest.approx(math.sqrt(0.125))
    for record in [*result.task_rows, *result.agent_metrics, *result.repeat_level_metrics, *task0["rollout_infos"]]:
        assert not any("mask_sample" in key for key in record)

    (agent,) = result.agent_metrics
    assert agent["mean/reward"] == pytest.approx(2.5 / 3)
    assert agent["agent_ref"] == {"name": "agent_a"}
    assert {k: v for k, v in agent.items() if k.startswith("coverage/")} == {
        "coverage/measured_rollouts": 3,
        "coverage/masked_rollouts": 3,
        "coverage/measured_tasks": 2,
        "coverage/fully_masked_tasks": 1,
    }
    assert [(e["_ng_rollout_index"], e["sample_count"], e["missing_count"]) for e in result.repeat_level_metrics] == [
        (0, 2, 0),
        (1, 1, 1),
    ]
    # One value in repeat 1: std 0, no confidence interval.
    assert result.repeat_level_metrics[1]["std/reward"] == 0.0
    assert "ci_low_95/reward" not in result.repeat_level_metrics[1]


def test_profiled_fields_nested_none_bool_and_private(tmp_path):
    inputs = [_input(0, r) for r in range(2)]
    rollouts = [
        _rollout(0, 0, 1.0, verifier_score=None, is_correct=True, _ng_attempt_index=2, label="x"),
        _rollout(0, 1, 0.0, verifier_score=3.0, is_correct=False, _ng_attempt_index=1, label="y"),
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = profile_run(*_run(tmp_path, inputs, rollouts))
    (row,) = result.task_rows
    means = [key for key in row if key.startswith("mean/")]
    # Fields in first-seen order over rollouts sorted by key: top-level numbers (bool as 0/1), then usage
    # numbers; verifier_score is None in the first rollout, so it is first seen in the second one.
    # Nested objects, strings and private fields are not profiled.
    assert means == ["mean/reward", "mean/is_correct", "mean/input_tokens", "mean/output_tokens",
                     "mean/total_tokens", "mean/verifier_score"]
    assert row["mean/is_correct"] == 0.5
    # None is missing: one value left, so its std is undefined and omitted (other fields have two values).
    assert row["mean/verifier_score"] == 3.0 and "std/verifier_score" not in row
    assert row["rollout_infos"][0] == {
        "rollout_id": "0:0", "_ng_task_index": 0, "_ng_rollout_index": 0, "reward": 1.0,
        "input_tokens": 10, "output_tokens": 5, "total_tokens": 15, "is_correct": 1,
    }


def test_extra_rollout_key_is_rejected_even_when_partial(tmp_path):
    inputs = [_input(0, 0)]
    rollouts = [_rollout(0, 0, 1.0), _rollout(9, 9, 1.0)]
    materialized, rollout_path = _run(tmp_path, inputs, rollouts)
    with pytest.raises(UnmatchedRolloutsError) as caught:
        profile_run(materialized, rollout_path, allow_partial=True)
    error = caught.value
    assert isinstance(error, JsonlFormatError) and isinstance(error, ValueError)
    assert error.extra_keys == [(9, 9)]
    assert (error.path, error.line) == (rollout_path, 2)
    assert str(error).startswith(f"{rollout_path}:2: Rollout results contain rows with no matching")


@pytest.mark.parametrize("which", ["inputs", "rollouts"])
def test_duplicate_keys_are_rejected_with_file_and_line(tmp_path, which):
    inputs = [_input(0, 0), _input(0, 1)]
    rollouts = [_rollout(0, 0, 1.0), _rollout(0, 1, 1.0)]
    if which == "inputs":
        inputs.append(_input(0, 1))
    else:
        rollouts.append(_rollout(0, 0, 0.0))
    materialized, rollout_path = _run(tmp_path, inputs, rollouts)
    with pytest.raises(DuplicateRolloutKeyError) as caught:
        profile_run(materialized, rollout_path)
    error = caught.value
    assert error.line == 3
    assert error.path == (materialized if which == "inputs" else rollout_path)
    assert str(error).startswith(f"{error.path}:3: Duplicate")


def test_bad_json_line_names_file_and_line(tmp_path):
    materialized, rollout_path = _run(tmp_path, [_input(0, 0), _input(0, 1)], [_rollout(0, 0, 1.0)])
    with rollout_path.open("ab") as handle:
        handle.write(b'{"reward": 1.0, "_ng_task_index": 0,\n')
    with pytest.raises(JsonlFormatError) as caught:
        profile_run(materialized, rollout_path)
    assert (caught.value.path, caught.value.line) == (rollout_path, 2)
    assert str(caught.value).startswith(f"{rollout_path}:2: not valid JSON")


def test_strict_profiling_of_our_own_files_names_file_line_and_field(tmp_path):
    """Files our pipeline writes are read strictly (foreign folders: tests/test_foreign_folders.py)."""
    broken = _rollout(0, 1, 1.0)
    del broken["reward"]
    materialized, rollout_path = _run(tmp_path, [_input(0, 0), _input(0, 1)], [_rollout(0, 0, 1.0), broken])
    with pytest.raises(JsonlFormatError) as caught:
        profile_run(materialized, rollout_path, strict=True)
    assert (caught.value.path, caught.value.line, caught.value.field) == (rollout_path, 2, "reward")
    assert f"{rollout_path}:2: field 'reward'" in str(caught.value)


def test_malformed_materialized_row_names_file_line_and_field(tmp_path):
    bad = _input(0, 1)
    del bad["agent_ref"]
    materialized, rollout_path = _run(tmp_path, [_input(0, 0), bad], [_rollout(0, 0, 1.0)])
    with pytest.raises(JsonlFormatError) as caught:
        profile_run(materialized, rollout_path, strict=True)
    assert (caught.value.path, caught.value.line, caught.value.field) == (materialized, 2, "agent_ref")


def test_missing_reward_names_file_line_and_field_on_the_fast_path_too(tmp_path):
    rows = [_rollout(0, 0, 1.0), _rollout(0, 1, 1.0)]
    rows[1]["response"]["usage"]["output_tokens"] = -3  # right types, wrong value: pydantic has the last word
    materialized, rollout_path = _run(tmp_path, [_input(0, 0), _input(0, 1)], rows)
    with pytest.raises(JsonlFormatError) as caught:
        profile_run(materialized, rollout_path, strict=True)
    assert (caught.value.line, caught.value.field) == (2, "response.usage.output_tokens")


def test_not_an_object_and_blank_lines(tmp_path):
    materialized, rollout_path = _run(tmp_path, [_input(0, 0)], [_rollout(0, 0, 1.0)])
    rollout_path.write_bytes(rollout_path.read_bytes() + b"\n   \n[1, 2]\n")
    with pytest.raises(JsonlFormatError) as caught:
        profile_run(materialized, rollout_path)
    assert caught.value.line == 4 and "expected a JSON object, got list" in str(caught.value)


def test_partial_profile_drops_tasks_without_rollouts_and_says_how_many(tmp_path):
    inputs = [_input(t, r) for t in range(3) for r in range(2)]
    rollouts = [_rollout(0, 1, 1.0), _rollout(0, 0, 0.0), _rollout(2, 1, 1.0)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = profile_run(*_run(tmp_path, inputs, rollouts), allow_partial=True)
    assert result.missing_keys == [(1, 0), (1, 1), (2, 0)]
    assert summary_lines(result)[:2] == [
        "Reward profile completion: 3/6 rollout rows (50.00%)",
        "Input rows: 3 total; 1 complete; 1 partial; 1 without rollouts dropped from output.",
    ]
    rows = list(result.task_rows)
    assert [(r["_ng_task_index"], r["num_rollouts"], r["missing_num_rollouts"]) for r in rows] == [(0, 2, 0), (2, 1, 1)]
    # Task 2's sample is its first measured repeat's materialized row.
    assert rows[1]["sample"] == {k: v for k, v in _input(2, 1).items() if not k.startswith("_ng_")}


def test_fan_out_profiles_each_task_per_agent(tmp_path):
    inputs = [_input(t, r, "agent_a" if r < 2 else "agent_b") for t in range(2) for r in range(4)]
    rollouts = [_rollout(t, r, float(r % 2), tokens=(10, 4 + r)) for t in range(2) for r in range(4)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = profile_run(*_run(tmp_path, inputs, rollouts))
    rows = list(result.task_rows)
    assert [(r["_ng_task_index"], r["agent_ref"]["name"]) for r in rows] == [
        (0, "agent_a"), (0, "agent_b"), (1, "agent_a"), (1, "agent_b"),
    ]
    keys = list(rows[1])
    assert keys.index("std/total_tokens") + 1 == keys.index("agent_ref") == keys.index("sample") - 1
    assert [info["_ng_rollout_index"] for info in rows[1]["rollout_infos"]] == [2, 3]
    assert rows[1]["mean/output_tokens"] == 6.5 and rows[1]["expected_num_rollouts"] == 2
    assert [m["agent_ref"]["name"] for m in result.agent_metrics] == ["agent_a", "agent_b"]
    assert result.tasks_total == 4  # completion is counted per (task, agent)


def test_agents_fronted_by_several_environment_servers_are_labelled_by_server(tmp_path):
    inputs = [_input(t, r) | {"_ng_environment_server": f"server_{t % 2}"} for t in range(4) for r in range(2)]
    rollouts = [_rollout(t, r, float(t % 2)) for t in range(4) for r in range(2)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = profile_run(*_run(tmp_path, inputs, rollouts))
    assert [m["agent_ref"]["name"] for m in result.agent_metrics] == ["server_0", "server_1"]
    assert [m["mean/reward"] for m in result.agent_metrics] == [0.0, 1.0]
    assert "agent_ref" not in next(iter(result.task_rows))  # each task still ran under one label


# ----------------------------------------------------------------------- against Gym's own method


def _varied_run(tmp_path: Path, tasks: int, repeats: int, seed: int = 7, pad: int = 0) -> tuple[Path, Path]:
    """Rollouts whose fields vary the way real ones do: optional and None numbers, bools, ints and floats,
    extra usage fields, masked and cut-off rows, and a few rows only pydantic can judge."""
    rng = random.Random(seed)
    inputs, rollouts = [], []
    for task in range(tasks):
        for repeat in range(repeats):
            inputs.append(_input(task, repeat) | {"padding": "p" * pad})
            row = _rollout(task, repeat, rng.choice([0.0, 1.0, 1.0, 0.5, 1]), masked=rng.random() < 0.05,
                           tokens=(rng.randrange(5, 50), rng.randrange(1, 400)))
            row["response"]["output"] = [{"type": "message", "content": [{"text": "x" * rng.randrange(pad + 1)}]}]
            kind = rng.random()
            if kind < 0.3:
                row["verifier_score"] = rng.choice([None, rng.random(), rng.randrange(5)])
            if kind < 0.1:
                row["is_correct"] = rng.random() < 0.5
            if kind > 0.9:
                row["response"]["usage"]["reasoning_steps"] = rng.randrange(9)
            if rng.random() < 0.03:
                row["response"]["status"] = "incomplete"
            if rng.random() < 0.02:  # only pydantic accepts these: the exact path
                name, value = rng.choice([("reward", True), ("mask_sample", 0), ("big", 2**60 + 3)])
                row[name] = value
            rollouts.append(row)
    rng.shuffle(rollouts)
    return _run(tmp_path, inputs, rollouts)


def _gym_task_stats(results: list[dict]) -> dict[int, dict[str, float]]:
    """Gym's per-task describe_dataframe, with pandas as Gym does it, from the rules in `profiled_values`."""
    frame = pd.DataFrame.from_records([{"_ng_task_index": r["_ng_task_index"], **profiled_values(r)} for r in results])
    stats = {}
    for task, group in frame.groupby("_ng_task_index"):
        group = group.drop(columns=["_ng_task_index"])
        described = [group.mean(), group.max(), group.min(), group.median(), group.std()]
        if described[4].isna().all():
            full = group.columns[group.notna().all()]
            described[4][full] = described[4][full].fillna(0)
        stats[task] = {f"{name}/{column}": float(value) for name, series in zip(STAT_NAMES, described, strict=True)
                       for column, value in series.items() if pd.notna(value)}
    return stats


def test_rows_equal_gyms_method_applied_to_the_parsed_rows(tmp_path):
    materialized, rollout_path = _varied_run(tmp_path, tasks=60, repeats=6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = profile_run(materialized, rollout_path)
    measured = sorted(
        ({k: v for k, v in row.items() if k != "mask_sample"} for row in map(orjson.loads, rollout_path.read_bytes()
                                                                            .splitlines()) if not row["mask_sample"]),
        key=lambda row: (row["_ng_task_index"], row["_ng_rollout_index"]),
    )
    expected = _gym_task_stats(measured)
    rows = list(result.task_rows)
    assert len(rows) == len(expected) == len(result.task_rows)
    for row in rows:
        task = row["_ng_task_index"]
        assert_same({k: v for k, v in row.items() if "/" in k}, expected[task], f"task {task}")
        infos = [rollout_info(r) for r in measured if r["_ng_task_index"] == task]
        assert_same(row["rollout_infos"], infos, f"task {task} rollout_infos")


# ------------------------------------------------------------------ parallel and single process


@pytest.fixture()
def many_ranges(monkeypatch):
    """Ranges of 256 KiB: each worker scans several, and rows of a task land in different ranges."""
    monkeypatch.setattr(profile, "_RANGE_BYTES", 256 << 10)


@pytest.mark.parametrize("threads", [1, 2], ids=["fork", "forkserver"])
def test_parallel_path_writes_byte_identical_files(tmp_path, many_ranges, monkeypatch, threads):
    materialized, rollout_path = _varied_run(tmp_path, tasks=400, repeats=8, pad=1200)
    assert rollout_path.stat().st_size > 3_000_000
    # A process with threads gets its workers from a fork server instead of forking itself.
    monkeypatch.setattr(profile.threading, "active_count", lambda: threads)
    outputs = {}
    for workers in (1, 2):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = profile_run(materialized, rollout_path, workers=workers)
        paths = write_profile(result, rollout_path, tmp_path / f"workers_{workers}", workers=workers)
        outputs[workers] = ({name: path.read_bytes() for name, path in paths.items()}, summary_lines(result),
                            result.warnings)
    assert outputs[1] == outputs[2]
    assert not [p for p in tmp_path.rglob(".*") if p.name != LOCK_FILE]


@pytest.mark.parametrize("workers", [1, 2])
def test_errors_name_the_same_line_whatever_the_workers(tmp_path, many_ranges, workers):
    materialized, rollout_path = _varied_run(tmp_path, tasks=200, repeats=8, pad=600)
    lines = rollout_path.read_bytes().splitlines(keepends=True)
    late = len(lines) - 10
    # A duplicate late in the file beats a bad line after it, and its first occurrence is far earlier.
    duplicate = lines[3]
    rollout_path.write_bytes(b"".join(lines[:late] + [duplicate] + lines[late:-1] + [b"{oops\n"]))
    with pytest.raises(DuplicateRolloutKeyError) as caught:
        profile_run(materialized, rollout_path, workers=workers)
    assert (caught.value.line, caught.value.first_line) == (late + 1, 4)
    rollout_path.write_bytes(b"".join(lines[:late] + [b"{oops\n"] + lines[late:] + [duplicate]))
    with pytest.raises(JsonlFormatError) as caught:
        profile_run(materialized, rollout_path, workers=workers)
    assert caught.value.line == late + 1 and "not valid JSON" in str(caught.value)
