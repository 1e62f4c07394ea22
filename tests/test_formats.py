import orjson
import pytest

from gym_pipeline.core.formats import (
    FailureRow,
    JsonlAppender,
    JsonlFormatError,
    MaterializedInputRow,
    RewardProfileRow,
    RolloutRow,
    count_lines,
    iter_jsonl_dicts,
    read_rows,
    write_jsonl_atomic,
)

RUNS = ("clean_run", "partial_run_with_failures")


@pytest.mark.parametrize("run", RUNS)
def test_fixture_files_read_as_typed_rows(fixtures_dir, run):
    folder = fixtures_dir / run
    inputs = list(read_rows(folder / "rollouts_materialized_inputs.jsonl", MaterializedInputRow))
    rollouts = list(read_rows(folder / "rollouts.jsonl", RolloutRow))
    failures = list(read_rows(folder / "rollouts_failures.jsonl", FailureRow))
    profile = list(read_rows(folder / "rollouts_reward_profiling.jsonl", RewardProfileRow))
    assert len(inputs) == 20
    assert {row.agent_ref.name for row in inputs} == {"string_match_simple_agent"}
    assert all(row.response.usage.total_tokens > 0 for row in rollouts)
    assert len(rollouts) + len(failures) == 20
    assert all(row.num_rollouts == len(row.rollout_infos) for row in profile)


def test_failure_rows_keep_gym_fields(fixtures_dir):
    failure = next(read_rows(fixtures_dir / "partial_run_with_failures/rollouts_failures.jsonl", FailureRow))
    assert failure.failure_class == "agent_run_error"
    assert failure.failure_http_status == 500
    assert (failure.task_index, failure.rollout_index) == (2, 0)


def test_round_trip_keeps_every_field_and_order(fixtures_dir, tmp_path):
    source = fixtures_dir / "clean_run/rollouts.jsonl"
    rows = [row.model_dump(by_alias=True, exclude_unset=True) for row in read_rows(source, RolloutRow)]
    write_jsonl_atomic(tmp_path / "copy.jsonl", rows)
    assert [orjson.loads(line) for line in (tmp_path / "copy.jsonl").read_bytes().splitlines()] == [
        orjson.loads(line) for line in source.read_bytes().splitlines()
    ]


def _first_error(path, model):
    with pytest.raises(JsonlFormatError) as caught:
        list(read_rows(path, model))
    return caught.value


def test_malformed_json_names_file_and_line(tmp_path):
    path = tmp_path / "rollouts.jsonl"
    path.write_text('{"reward": 1.0}\n{"reward": 1.0,\n')
    with pytest.raises(JsonlFormatError) as caught:
        list(iter_jsonl_dicts(path))
    error = caught.value
    assert (error.path, error.line) == (path, 2)
    assert f"{path}:2" in str(error)


def test_missing_field_names_the_field(tmp_path, fixtures_dir):
    lines = (fixtures_dir / "clean_run/rollouts.jsonl").read_bytes().splitlines()
    broken = orjson.loads(lines[3])
    del broken["reward"]
    path = tmp_path / "rollouts.jsonl"
    path.write_bytes(b"\n".join([lines[0], lines[1], lines[2], orjson.dumps(broken)]) + b"\n")
    error = _first_error(path, RolloutRow)
    assert (error.line, error.field) == (4, "reward")
    assert "field 'reward'" in str(error)


def test_wrong_type_names_nested_field(tmp_path):
    path = tmp_path / "inputs.jsonl"
    row = {"responses_create_params": {"input": []}, "agent_ref": {"name": 3}, "_ng_task_index": 0,
           "_ng_rollout_index": 0}
    path.write_bytes(orjson.dumps(row) + b"\n")
    assert _first_error(path, MaterializedInputRow).field == "agent_ref.name"


def test_non_object_line_is_an_error(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_text("[1, 2]\n")
    assert "expected a JSON object" in str(_first_error(path, RolloutRow))


def test_appender_cuts_a_torn_last_line(tmp_path):
    path = tmp_path / "rollouts.jsonl"
    path.write_bytes(b'{"a": 1}\n{"a": 2')  # a run killed mid-write
    with JsonlAppender(path) as appender:
        appender.append({"a": 3})
    assert path.read_bytes() == b'{"a": 1}\n{"a":3}\n'
    assert count_lines(path) == 2


def test_atomic_write_leaves_old_file_on_failure(tmp_path):
    path = tmp_path / "out.jsonl"
    path.write_text("old\n")

    def rows():
        yield {"a": 1}
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        write_jsonl_atomic(path, rows())
    assert path.read_text() == "old\n"
    assert list(tmp_path.iterdir()) == [path]
