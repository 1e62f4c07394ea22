"""Differential tests of profiling: `gym eval profile` (the real NeMo Gym 0.7.0) and `gym-pipeline profile` on the same
generated run folders, their three files compared byte for byte.

PROFILE_CASES are the shapes of Gym's reward-profile tests and of issue 17: taskset / episode runs (input rows with
`task_id`, `task_input` and `_ng_environment_server`, result rows without `response`), partial, empty or null
usage, `response: null`, inputs without `responses_create_params`, a missing or null reward, `mask_sample` as a
non-boolean and inside `usage`, and all-integer runs (Gym writes an integer max as `1`). The cases named
`held_out_*` were written after the fixes. Needs NeMo Gym 0.7.0 and `unshare --net` (see gym_parity_support).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import pytest

from gym_pipeline.cli import main
from tests.gym_parity_support import gym_executable, run_all, run_gym_profile

pytestmark = [pytest.mark.integration, pytest.mark.timeout(900)]

GYM_FILES = ("rollouts_reward_profiling.jsonl", "rollouts_agent_metrics.json", "rollouts_repeat_level_metrics.json")


def _lines(rows: list[dict[str, Any]]) -> bytes:
    return b"".join(orjson.dumps(row) + b"\n" for row in rows)


def _input(task: int, repeat: int, agent: str = "agent", **extra: Any) -> dict[str, Any]:
    return {"responses_create_params": {"input": [{"role": "user", "content": f"task {task}"}]},
            "agent_ref": {"name": agent}, "_ng_task_index": task, "_ng_rollout_index": repeat, **extra}


def _usage(task: int, repeat: int) -> dict[str, Any]:
    return {"input_tokens": 10 + task, "output_tokens": 5 + repeat, "total_tokens": 15 + task + repeat}


def _rollout(task: int, repeat: int, reward: Any = None, **extra: Any) -> dict[str, Any]:
    reward = float((task + repeat) % 2) if reward is None else reward
    return {"reward": reward, "response": {"output": [], "usage": _usage(task, repeat)},
            "_ng_task_index": task, "_ng_rollout_index": repeat, **extra}


def _episode_input(task: int, repeat: int, server: str = "math_env") -> dict[str, Any]:
    return {"task_id": {"taskset": "math", "id": f"t{task}"}, "task_input": {"question": f"{task}+{task}?"},
            "_ng_environment_server": server, "_ng_task_index": task, "_ng_rollout_index": repeat}


def _episode_result(task: int, repeat: int, **extra: Any) -> dict[str, Any]:
    return {"reward": float(repeat % 2), "answer": str(2 * task), "reward_components": {"format": 1.0},
            "num_turns": 1 + repeat, "_ng_task_id": {"taskset": "math", "id": f"t{task}"},
            "_ng_task_index": task, "_ng_rollout_index": repeat, **extra}


def _grid(make: Any, tasks: int = 3, repeats: int = 2, **extra: Any) -> list[dict[str, Any]]:
    return [make(task, repeat, **extra) for task in range(tasks) for repeat in range(repeats)]


def _changed(rows: list[dict[str, Any]], changes: dict[int, Any]) -> list[dict[str, Any]]:
    """Rows with some replaced by `changes[i](row)`."""
    return [changes[i](dict(row)) if i in changes else row for i, row in enumerate(rows)]


def _set(**values: Any):
    return lambda row: row | values


def _without(*names: str):
    return lambda row: {key: value for key, value in row.items() if key not in names}


def _usage_of(usage: Any):
    return lambda row: row | {"response": {**row["response"], "usage": usage}}


@dataclass
class Case:
    name: str
    inputs: list[dict[str, Any]]
    rollouts: list[dict[str, Any]]
    allow_partial: bool = False
    rollouts_tail: bytes = b""  # raw bytes appended to the rollouts file
    gym_fails: bool = False  # Gym fails where we profile (README, differences from Gym)


PLAIN_INPUTS = _grid(_input)
PLAIN_ROLLOUTS = _grid(_rollout)

PROFILE_CASES = [
    Case("baseline", PLAIN_INPUTS, PLAIN_ROLLOUTS),
    Case("episode_run", _grid(_episode_input), _grid(_episode_result)),
    Case("episode_run_two_servers", _grid(_episode_input) + [_episode_input(3, r, "other_env") for r in range(2)],
         _grid(_episode_result) + [_episode_result(3, r) for r in range(2)]),
    Case("usage_partial_empty_null", PLAIN_INPUTS, _changed(PLAIN_ROLLOUTS, {
        0: _usage_of({"total_tokens": 7}), 1: _usage_of({}), 2: _usage_of(None), 3: _usage_of({"output_tokens": 4})})),
    Case("response_null_or_missing", PLAIN_INPUTS, _changed(PLAIN_ROLLOUTS, {
        1: _set(response=None), 2: _without("response"), 4: _set(response={})})),
    Case("inputs_without_request", _changed(PLAIN_INPUTS, {0: _without("responses_create_params"),
                                                           1: _without("responses_create_params")}), PLAIN_ROLLOUTS),
    Case("reward_missing_or_null", PLAIN_INPUTS, _changed(PLAIN_ROLLOUTS, {
        0: _without("reward"), 3: _set(reward=None)})),
    Case("reward_missing_everywhere", PLAIN_INPUTS, [_without("reward")(row) for row in PLAIN_ROLLOUTS]),
    Case("mask_sample_by_truthiness", _grid(_input, 4, 2), _changed(_grid(_rollout, 4, 2), {
        0: _set(mask_sample=2), 1: _set(mask_sample=""), 2: _set(mask_sample=[]), 3: _set(mask_sample="yes"),
        4: _set(mask_sample=0), 5: _set(mask_sample={}), 6: _set(mask_sample=[0])})),
    Case("mask_sample_inside_usage", PLAIN_INPUTS, _changed(PLAIN_ROLLOUTS, {
        0: _usage_of({**_usage(0, 0), "mask_sample": True}), 1: _usage_of({**_usage(0, 1), "mask_sample": False})})),
    Case("all_integer", PLAIN_INPUTS, [row | {"reward": int(row["reward"])} for row in PLAIN_ROLLOUTS]),
    Case("boolean_rewards", PLAIN_INPUTS, [row | {"reward": bool(row["reward"])} for row in PLAIN_ROLLOUTS]),
    Case("integers_and_one_float", PLAIN_INPUTS,
         _changed([row | {"reward": int(row["reward"])} for row in PLAIN_ROLLOUTS], {5: _set(reward=0.5)})),
    Case("fan_out_groups", [_input(0, 0, "a"), _input(0, 1, "b"), _input(1, 2, "a"), _input(1, 3, "b")],
         [_rollout(0, 0), _rollout(0, 1), _rollout(1, 2), _rollout(1, 3)]),
    Case("partial_episode_run", _grid(_episode_input), _grid(_episode_result)[:-2], allow_partial=True),
    # Gym fails, we profile.
    Case("blank_line", PLAIN_INPUTS, PLAIN_ROLLOUTS[:-1], rollouts_tail=b"\n" + _lines(PLAIN_ROLLOUTS[-1:]),
         gym_fails=True),
    Case("values_a_few_ulps_apart", PLAIN_INPUTS, [row | {"reward": 0.1 + (row["_ng_rollout_index"] % 2) * 2.8e-17}
                                                   for row in PLAIN_ROLLOUTS], gym_fails=True),
    # Held out: written after the fixes.
    Case("held_out_episode_masked_and_unscored", _grid(_episode_input, 3, 3), _changed(_grid(_episode_result, 3, 3), {
        0: _set(mask_sample=True), 4: _without("reward"), 8: _set(reward=None)})),
    Case("held_out_usage_with_text_and_nested", PLAIN_INPUTS, _changed(PLAIN_ROLLOUTS, {
        0: _usage_of({"total_tokens": "7", "details": {"cached": 1}, "cost": 0.25}),
        2: _usage_of({"input_tokens": True, "output_tokens": 3})})),
    Case("held_out_integer_run_with_masking", _grid(_input, 2, 3),
         _changed([row | {"reward": int(row["reward"])} for row in _grid(_rollout, 2, 3)], {1: _set(mask_sample=1)})),
    Case("held_out_agent_ref_null_with_server", _changed(PLAIN_INPUTS, {
        i: (lambda row: row | {"agent_ref": None, "_ng_environment_server": "env_a"}) for i in range(6)}),
         PLAIN_ROLLOUTS),
]


# How far apart a float statistic may be: a few ulps of its terms (a t bound is mean + quantile * scale, whose
# terms may cancel). README, differences from Gym.
CLOSE = 1e-13


def _assert_same_value(ours: Any, gyms: Any, where: str) -> None:
    """Same JSON structure, key order and types (so `1` is not `1.0`); floats equal, or within a few ulps."""
    assert type(ours) is type(gyms), f"{where}: {ours!r} vs {gyms!r}"
    if isinstance(ours, dict):
        assert list(ours) == list(gyms), where
        for key in ours:
            _assert_same_value(ours[key], gyms[key], f"{where}.{key}")
    elif isinstance(ours, list):
        assert len(ours) == len(gyms), where
        for i, (mine, theirs) in enumerate(zip(ours, gyms, strict=True)):
            _assert_same_value(mine, theirs, f"{where}[{i}]")
    elif isinstance(ours, float):
        assert math.isclose(ours, gyms, rel_tol=CLOSE, abs_tol=CLOSE), f"{where}: {ours!r} vs {gyms!r}"
    else:
        assert ours == gyms, f"{where}: {ours!r} vs {gyms!r}"


def assert_same_file(ours: Path, gyms: Path) -> None:
    """Byte for byte; where the bytes differ, only in floats a few ulps apart: a standard deviation or mean summed
    in another order (numpy's summation changed between versions) or a t quantile (ours, not scipy's)."""
    if ours.read_bytes() == gyms.read_bytes():
        return
    if ours.suffix == ".jsonl":
        _assert_same_value([orjson.loads(line) for line in ours.read_bytes().splitlines()],
                           [orjson.loads(line) for line in gyms.read_bytes().splitlines()], ours.name)
    else:
        _assert_same_value(orjson.loads(ours.read_bytes()), orjson.loads(gyms.read_bytes()), ours.name)


def _write(folder: Path, case: Case) -> tuple[Path, Path]:
    folder.mkdir(parents=True)
    inputs, rollouts = folder / "rollouts_materialized_inputs.jsonl", folder / "rollouts.jsonl"
    inputs.write_bytes(_lines(case.inputs))
    rollouts.write_bytes(_lines(case.rollouts) + case.rollouts_tail)
    return inputs, rollouts


@pytest.fixture(scope="module")
def gym_profiles(tmp_path_factory):
    gym = gym_executable()
    root = tmp_path_factory.mktemp("profile_parity")
    paths = {case.name: _write(root / case.name / "gym", case) for case in PROFILE_CASES}
    outcomes = run_all([(lambda case=case: run_gym_profile(gym, *paths[case.name], case.allow_partial))
                        for case in PROFILE_CASES])
    return {case.name: (paths[case.name][1].parent, outcome) for case, outcome in zip(PROFILE_CASES, outcomes,
                                                                                        strict=True)}


@pytest.mark.parametrize("case", PROFILE_CASES, ids=lambda case: case.name)
def test_profile_matches_gym(case, gym_profiles, tmp_path, capsys):
    gym_folder, gym = gym_profiles[case.name]
    assert (gym.output is None) == case.gym_fails, gym.log[-1500:]
    inputs, rollouts = _write(tmp_path / "ours", case)
    code = main(["profile", "--inputs", str(inputs), "--rollouts", str(rollouts),
                 *(["--allow-partial"] if case.allow_partial else [])])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    if case.gym_fails:
        return
    for name in GYM_FILES:
        assert_same_file(rollouts.parent / name, gym_folder / name)
    summary = orjson.loads((rollouts.parent / "rollouts_reward_analysis.json").read_bytes())
    assert summary["tasks"] >= 1 or case.name == "reward_missing_everywhere"
