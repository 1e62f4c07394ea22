import orjson
import pytest

from gym_pipeline.cli import main
from gym_pipeline.core.formats import JsonlFormatError
from gym_pipeline.core.materialize import (
    MaterializationError,
    MaterializationSettings,
    materialize_file,
    materialize_rows,
    read_raw_rows,
)


def _rows(path):
    return [orjson.loads(line) for line in path.read_bytes().splitlines()]


def test_golden_materialization_matches_gym(fixtures_dir, tmp_path):
    output = tmp_path / "rollouts_materialized_inputs.jsonl"
    count = materialize_file(fixtures_dir / "clean_run/input_example.jsonl", output,
                             MaterializationSettings(4, "string_match_simple_agent"))
    expected = fixtures_dir / "clean_run/rollouts_materialized_inputs.jsonl"
    assert count == 20
    assert _rows(output) == _rows(expected)
    assert output.read_bytes() == expected.read_bytes()  # byte for byte, key order included


def test_cli_materialize_writes_the_same_rows(fixtures_dir, tmp_path):
    output = tmp_path / "m.jsonl"
    code = main(["materialize", "--input", str(fixtures_dir / "clean_run/input_example.jsonl"), "--num-repeats", "4",
                 "--agent", "string_match_simple_agent", "--output", str(output)])
    assert code == 0
    assert _rows(output) == _rows(fixtures_dir / "clean_run/rollouts_materialized_inputs.jsonl")


def _write(path, rows):
    path.write_bytes(b"".join(orjson.dumps(row) + b"\n" for row in rows))
    return path


PARAMS = {"input": [{"role": "user", "content": "q"}]}


def test_interleaved_repeats(tmp_path):
    source = _write(tmp_path / "in.jsonl", [{"responses_create_params": PARAMS, "id": "a"},
                                            {"responses_create_params": PARAMS, "id": "b"}])
    rows = materialize_rows(read_raw_rows(source), MaterializationSettings(2, "agent", interleave_repeats=True))
    assert [(r["id"], r["_ng_task_index"], r["_ng_rollout_index"]) for r in rows] == [
        ("a", 0, 0), ("b", 1, 0), ("a", 0, 1), ("b", 1, 1)]


def test_identical_lines_share_a_task_and_keep_counting_rollouts(tmp_path):
    row = {"responses_create_params": PARAMS, "id": "same"}
    source = _write(tmp_path / "in.jsonl", [row, {"responses_create_params": PARAMS, "id": "other"}, row])
    rows = materialize_rows(read_raw_rows(source), MaterializationSettings(2, "agent"))
    assert [(r["_ng_task_index"], r["_ng_rollout_index"]) for r in rows] == [
        (0, 0), (0, 1), (1, 0), (1, 1), (0, 2), (0, 3)]


def test_existing_task_index_is_kept_and_agent_replaces_every_agent_ref(tmp_path):
    """NeMo Gym 0.7.0: `--agent` re-routes every row (earlier releases only filled rows without one)."""
    source = _write(tmp_path / "in.jsonl", [
        {"responses_create_params": PARAMS, "_ng_task_index": 41, "agent_ref": {"name": "mine", "type": "x"}},
        {"responses_create_params": PARAMS, "agent_ref": None}])
    rows = materialize_rows(read_raw_rows(source), MaterializationSettings(2, "default_agent"))
    assert [(r["_ng_task_index"], r["_ng_rollout_index"], r["agent_ref"]) for r in rows] == [
        (41, 0, {"name": "default_agent"}), (41, 1, {"name": "default_agent"}),
        (0, 0, {"name": "default_agent"}), (0, 1, {"name": "default_agent"})]


def test_rows_keep_their_agent_ref_without_an_agent(tmp_path):
    source = _write(tmp_path / "in.jsonl", [{"responses_create_params": PARAMS, "agent_ref": {"name": "mine"}}])
    rows = materialize_rows(read_raw_rows(source), MaterializationSettings(1, None))
    assert rows[0]["agent_ref"] == {"name": "mine"}


def test_row_without_agent_is_refused(tmp_path):
    source = _write(tmp_path / "in.jsonl", [{"responses_create_params": PARAMS}])
    with pytest.raises(JsonlFormatError, match="no agent was given") as caught:
        materialize_rows(read_raw_rows(source), MaterializationSettings(1, None), source)
    assert (caught.value.line, caught.value.field) == (1, "agent_ref")


def test_bad_input_names_file_line_and_field(tmp_path):
    source = tmp_path / "in.jsonl"
    source.write_bytes(orjson.dumps({"responses_create_params": PARAMS}) + b"\n" + b'{"expected_answer": "x"}\n')
    with pytest.raises(JsonlFormatError) as caught:
        materialize_rows(read_raw_rows(source), MaterializationSettings(1, "agent"), source)
    assert (caught.value.line, caught.value.field) == (2, "responses_create_params")


def test_failed_materialization_keeps_the_previous_output(tmp_path, capsys):
    source = tmp_path / "in.jsonl"
    source.write_text("{not json}\n")
    output = tmp_path / "out.jsonl"
    output.write_text("previous\n")
    code = main(["materialize", "--input", str(source), "--num-repeats", "2", "--agent", "a", "--output", str(output)])
    assert code == 2
    assert f"{source}:1" in capsys.readouterr().err
    assert output.read_text() == "previous\n"


def test_zero_repeats_is_refused():
    with pytest.raises(MaterializationError, match="num_repeats"):
        MaterializationSettings(0, "agent")
