"""Reading run folders NeMo Gym 0.7.0 wrote in shapes our row models refuse, without Gym installed.

The profiler takes what `gym eval profile` takes (the values below are what real Gym 0.7.0 writes for them,
checked by tests/test_gym_parity_profile.py) and warns, naming file, line and field, about each deviation it
tolerated; with `strict=True` (files our own pipeline writes) it refuses them as before.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import orjson
import pytest

from gym_pipeline.cli import main
from gym_pipeline.core.formats import JsonlFormatError
from gym_pipeline.core.profile import output_paths, profile_run, write_profile


def _write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_bytes(b"".join(orjson.dumps(row) + b"\n" for row in rows))
    return path


def _run(folder: Path, inputs: list[dict[str, Any]], rollouts: list[dict[str, Any]]) -> tuple[Path, Path]:
    return (_write(folder / "rollouts_materialized_inputs.jsonl", inputs), _write(folder / "rollouts.jsonl", rollouts))


def _profile(folder: Path, inputs, rollouts, **options):
    paths = _run(folder, inputs, rollouts)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Gym's statistics warnings
        result = profile_run(*paths, **options)
    written = write_profile(result, paths[1])
    return result, [orjson.loads(line) for line in written["reward_profiling"].read_bytes().splitlines()]


def _input(task: int, repeat: int) -> dict[str, Any]:
    return {"responses_create_params": {"input": "q"}, "agent_ref": {"name": "agent"}, "_ng_task_index": task,
            "_ng_rollout_index": repeat}


def _rollout(task: int, repeat: int, reward: Any = 1.0, **extra: Any) -> dict[str, Any]:
    return {"reward": reward, "response": {"output": [], "usage": {"input_tokens": 3, "output_tokens": 2,
                                                                  "total_tokens": 5}},
            "_ng_task_index": task, "_ng_rollout_index": repeat, **extra}


def _episode_input(task: int, repeat: int) -> dict[str, Any]:
    return {"task_id": {"taskset": "math", "id": str(task)}, "task_input": {"q": task},
            "_ng_environment_server": "math_env", "_ng_task_index": task, "_ng_rollout_index": repeat}


def _episode_result(task: int, repeat: int, reward: float) -> dict[str, Any]:
    return {"reward": reward, "answer": "4", "_ng_task_id": {"taskset": "math", "id": str(task)},
            "_ng_task_index": task, "_ng_rollout_index": repeat}


EPISODE_INPUTS = [_episode_input(t, r) for t in range(2) for r in range(2)]
EPISODE_RESULTS = [_episode_result(0, 0, 1.0), _episode_result(0, 1, 0.0), _episode_result(1, 0, 1.0),
                   _episode_result(1, 1, 1.0)]


def test_an_episode_run_gets_its_profile_pass_at_k_and_warnings_naming_file_line_and_field(tmp_path):
    result, rows = _profile(tmp_path, EPISODE_INPUTS, EPISODE_RESULTS)
    assert [row["mean/reward"] for row in rows] == [0.5, 1.0]
    assert rows[0]["sample"] == {"task_id": {"taskset": "math", "id": "0"}, "task_input": {"q": 0},
                                 "_ng_environment_server": "math_env"}
    assert rows[0]["rollout_infos"][0] == {"rollout_id": "0:0", "_ng_task_index": 0, "_ng_rollout_index": 0,
                                           "reward": 1.0}
    assert result.agent_metrics[0]["agent_ref"] == {"name": "math_env"}  # Gym labels it by its server
    assert result.analysis.summary["pass_at_k"]["2"]["mean"] == 1.0
    assert result.analysis.summary["pass_at_k"]["1"]["mean"] == 0.75
    inputs = tmp_path / "rollouts_materialized_inputs.jsonl"
    rollouts = tmp_path / "rollouts.jsonl"
    assert any(w.startswith(f"{inputs}:1: field 'responses_create_params'") and "(4 rows like it)" in w
               for w in result.tolerated)
    assert any(w.startswith(f"{inputs}:1: field 'agent_ref'") for w in result.tolerated)
    assert any(w.startswith(f"{rollouts}:1: field 'response'") for w in result.tolerated)


def test_strict_reading_refuses_what_it_would_tolerate(tmp_path):
    paths = _run(tmp_path, EPISODE_INPUTS, EPISODE_RESULTS)
    with pytest.raises(JsonlFormatError) as caught:
        profile_run(*paths, strict=True)
    assert (caught.value.line, caught.value.field) == (1, "responses_create_params")


def test_the_profile_command_prints_what_it_tolerated(tmp_path, capsys):
    inputs, rollouts = _run(tmp_path, EPISODE_INPUTS, EPISODE_RESULTS)
    assert main(["profile", "--inputs", str(inputs), "--rollouts", str(rollouts)]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert f"warning: {rollouts}:1: field 'response': Field required; read as NeMo Gym 0.7.0 reads it (4 rows like it)" in err


def test_the_two_files_given_the_wrong_way_round_are_profiled_as_gym_does_with_a_warning_saying_so(tmp_path, capsys):
    inputs = [_input(0, 0), _input(0, 1)]
    materialized, rollouts = _run(tmp_path, inputs, [_rollout(0, r, agent_ref={"name": "agent"}) for r in range(2)])
    assert main(["profile", "--inputs", str(rollouts), "--rollouts", str(materialized)]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert f"warning: {materialized}: no row has a 'reward': it reads like materialized inputs" in err
    assert "are --inputs and --rollouts swapped?" in err


def test_partial_or_empty_usage_and_null_response_profile_what_is_there(tmp_path):
    rollouts = [_rollout(0, 0), _rollout(0, 1)]
    rollouts[0]["response"]["usage"] = {"total_tokens": 7}
    rollouts[1]["response"] = None
    result, rows = _profile(tmp_path, [_input(0, 0), _input(0, 1)], rollouts)
    assert rows[0]["mean/total_tokens"] == 7.0 and "mean/input_tokens" not in rows[0]
    assert rows[0]["rollout_infos"][0] == {"rollout_id": "0:0", "_ng_task_index": 0, "_ng_rollout_index": 0,
                                           "reward": 1.0, "total_tokens": 7}
    fields = {w.split("field '")[1].split("'")[0] for w in result.tolerated}
    assert fields == {"response.usage.input_tokens", "response.usage.output_tokens", "response"}


def test_reward_missing_or_null_is_unscored(tmp_path):
    rollouts = [_rollout(0, 0), _rollout(0, 1, reward=None), _rollout(1, 0, reward=0.0), _rollout(1, 1)]
    del rollouts[3]["reward"]
    result, rows = _profile(tmp_path, [_input(t, r) for t in range(2) for r in range(2)], rollouts)
    assert rows[0]["rollout_infos"][1]["reward"] is None  # Gym keeps a null reward in the info
    assert "reward" not in rows[1]["rollout_infos"][1]  # and leaves out a missing one
    assert rows[0]["mean/reward"] == 1.0 and rows[1]["mean/reward"] == 0.0
    summary = result.analysis.summary
    assert summary["rollouts"] == {"completed": 4, "masked": 0, "unscored": 2, "measured": 2}
    assert summary["pass_at_k"]["1"]["mean"] == 0.5


@pytest.mark.parametrize(("flag", "masked"), [(2, True), ("yes", True), ([0], True), ("", False), ([], False),
                                              (0, False), ({}, False)])
def test_mask_sample_is_read_by_truthiness(tmp_path, flag, masked):
    result, _ = _profile(tmp_path, [_input(0, 0), _input(0, 1)], [_rollout(0, 0, mask_sample=flag), _rollout(0, 1)])
    assert result.masked_rollouts == int(masked)
    # "yes" and 0 are booleans to our row model (pydantic's reading agrees with truthiness there): no warning
    assert any("field 'mask_sample'" in w for w in result.tolerated) == (flag not in ("yes", 0))


def test_mask_sample_inside_usage_is_a_usage_field(tmp_path):
    rollouts = [_rollout(0, 0), _rollout(0, 1)]
    rollouts[0]["response"]["usage"]["mask_sample"] = True
    result, rows = _profile(tmp_path, [_input(0, 0), _input(0, 1)], rollouts)
    assert result.masked_rollouts == 0
    assert rows[0]["mean/mask_sample"] == 1.0


def test_an_integer_max_is_written_as_an_integer_when_every_value_is_one(tmp_path):
    inputs = [_input(0, 0), _input(0, 1)]
    _, rows = _profile(tmp_path, inputs, [_rollout(0, 0, reward=1), _rollout(0, 1, reward=0)])
    assert (rows[0]["max/reward"], rows[0]["min/output_tokens"], rows[0]["mean/reward"]) == (1, 2, 0.5)
    assert type(rows[0]["max/reward"]) is int and type(rows[0]["median/reward"]) is float
    _, rows = _profile(tmp_path, inputs, [_rollout(0, 0, reward=1), _rollout(0, 1, reward=0.5)])
    assert type(rows[0]["max/reward"]) is float and type(rows[0]["max/output_tokens"]) is float


@pytest.mark.parametrize(("rollout", "field", "message"), [
    ({"response": "text"}, "response", "expected an object or null"),
    ({"response": {"usage": [1]}}, "response.usage", "expected an object or null"),
    ({"_ng_task_index": "0"}, "_ng_task_index", "must be a non-negative 64-bit integer"),
])
def test_what_gym_fails_on_too_is_refused_naming_the_field(tmp_path, rollout, field, message):
    paths = _run(tmp_path, [_input(0, 0)], [_rollout(0, 0) | rollout])
    with pytest.raises(JsonlFormatError, match=message) as caught:
        profile_run(*paths)
    assert (caught.value.path, caught.value.line, caught.value.field) == (paths[1], 1, field)


def test_an_input_row_naming_neither_agent_nor_server_is_refused(tmp_path):
    row = _input(0, 0)
    del row["agent_ref"]
    paths = _run(tmp_path, [row], [_rollout(0, 0)])
    with pytest.raises(JsonlFormatError, match="no _ng_environment_server either") as caught:
        profile_run(*paths)
    assert (caught.value.path, caught.value.line, caught.value.field) == (paths[0], 1, "agent_ref")


def test_outputs_are_the_usual_five_files(tmp_path):
    _profile(tmp_path, EPISODE_INPUTS, EPISODE_RESULTS)
    assert all(path.exists() for path in output_paths(tmp_path / "rollouts.jsonl").values())


def test_an_episode_run_with_unscored_and_truthy_masked_results_diagnoses_healthy(tmp_path):
    from gym_pipeline.diagnose import diagnose

    results = [*EPISODE_RESULTS[:2], _episode_result(1, 0, 1.0) | {"mask_sample": 2}, EPISODE_RESULTS[3]]
    del results[1]["reward"]
    _profile(tmp_path, EPISODE_INPUTS, results)
    report = diagnose(tmp_path)
    assert report.healthy, report.to_json_dict()
