import orjson
import pytest

from gym_pipeline.cli import main
from gym_pipeline.core.formats import JsonlFormatError
from gym_pipeline.core.materialize import (
    MaterializationError,
    MaterializationSettings,
    first_row_fault,
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
    assert "spelled another way" not in str(caught.value)
    source.write_bytes(orjson.dumps({"responsesCreateParams": PARAMS, "expectedAnswer": "x"}) + b"\n")
    with pytest.raises(JsonlFormatError, match="the row has `responsesCreateParams`: its keys are spelled another way"):
        materialize_rows(read_raw_rows(source), MaterializationSettings(1, "agent"), source)
    message = {"role": "user", "content": "What is 2 + 2?"}
    source.write_bytes(orjson.dumps({"responses_create_params": {"input": message}}) + b"\n")
    with pytest.raises(JsonlFormatError, match="a single message object, where the Responses API takes a string or a "
                                               "list of messages") as caught:
        materialize_rows(read_raw_rows(source), MaterializationSettings(1, "agent"), source)
    assert caught.value.field == "responses_create_params.input"


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


# NeMo Gym 0.7.0's other settings; tests/test_gym_parity.py checks each against the real Gym, byte for byte.


def _keys(rows):
    return [(r["agent_ref"]["name"], r["_ng_task_index"], r["_ng_rollout_index"]) for r in rows]


def test_interleaving_numbers_repeats_first_then_orders_by_rollout_index(tmp_path):
    a, b = {"responses_create_params": PARAMS, "id": "a"}, {"responses_create_params": PARAMS, "id": "b"}
    source = _write(tmp_path / "in.jsonl", [a, b, a])
    rows = materialize_rows(read_raw_rows(source), MaterializationSettings(2, "x", interleave_repeats=True))
    assert [(r["_ng_task_index"], r["_ng_rollout_index"]) for r in rows] == [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2),
                                                                             (0, 3)]


def test_limit_seeds_and_request_overrides(tmp_path):
    rows = [{"responses_create_params": {**PARAMS, "metadata": {"extra_body": '{"top_k": 5}'}}, "id": i}
            for i in range(3)]
    source = _write(tmp_path / "in.jsonl", rows)
    settings = MaterializationSettings(2, "x", limit=2, num_repeats_add_seed=True,
                                       responses_create_params={"temperature": 0.5})
    out = materialize_rows(read_raw_rows(source, settings.limit), settings)
    assert [r["id"] for r in out] == [0, 0, 1, 1]
    assert [r["responses_create_params"]["metadata"]["extra_body"] for r in out[:2]] == [
        '{"top_k": 5, "seed": 0}', '{"top_k": 5, "seed": 1}']
    assert out[0]["responses_create_params"]["temperature"] == 0.5
    assert rows[0]["responses_create_params"]["metadata"]["extra_body"] == '{"top_k": 5}'  # the source row is kept


def test_prompt_config_builds_the_input_from_the_row(tmp_path):
    (tmp_path / "prompt.yaml").write_text("system: Be terse.\nuser: 'Q: {question}'\n")
    source = _write(tmp_path / "in.jsonl", [{"question": "2+2?", "responses_create_params": {"temperature": 0}}])
    settings = MaterializationSettings(1, "x", prompt_config=str(tmp_path / "prompt.yaml"))
    [row] = materialize_rows(read_raw_rows(source), settings, source)
    assert row["responses_create_params"] == {"temperature": 0, "input": [
        {"role": "system", "content": "Be terse."}, {"role": "user", "content": "Q: 2+2?"}]}


def test_prompt_config_and_an_input_are_exclusive(tmp_path):
    (tmp_path / "prompt.yaml").write_text("user: '{id}'\n")
    source = _write(tmp_path / "in.jsonl", [{"responses_create_params": PARAMS, "id": 1}])
    with pytest.raises(JsonlFormatError, match="already set") as caught:
        materialize_rows(read_raw_rows(source), MaterializationSettings(1, "x", prompt_config=str(
            tmp_path / "prompt.yaml")), source)
    assert (caught.value.line, caught.value.field) == (1, "responses_create_params.input")


def test_agent_map_fan_out_and_repeats_per_agent(tmp_path):
    source = _write(tmp_path / "in.jsonl", [
        {"responses_create_params": PARAMS, "agent_ref": {"name": "old"}},
        {"responses_create_params": PARAMS, "agent_ref": {"name": "src"}},
        {"responses_create_params": PARAMS, "agent_ref": {"name": "kept"}}])
    settings = MaterializationSettings({"new": 2, "b": 3, "_default": 1}, None, agent_map={"old": "new"},
                                       fan_out={"src": ["a", "b"]})
    assert _keys(materialize_rows(read_raw_rows(source), settings)) == [
        ("new", 0, 0), ("new", 0, 1), ("a", 1, 0), ("b", 1, 1), ("b", 1, 2), ("b", 1, 3), ("kept", 2, 0)]


def test_repeats_per_agent_need_an_entry_or_a_default(tmp_path):
    source = _write(tmp_path / "in.jsonl", [{"responses_create_params": PARAMS, "agent_ref": {"name": "a"}}])
    with pytest.raises(MaterializationError, match="no entry"):
        materialize_rows(read_raw_rows(source), MaterializationSettings({"b": 2}, None))


@pytest.mark.parametrize(("settings", "message"), [
    ({"num_repeats": {"a": 0}}, "num_repeats must be >= 1"),
    ({"num_repeats": 1, "agent": "a", "agent_map": {"_default": "b"}}, "conflicts with agent_map._default"),
    ({"num_repeats": 1, "fan_out": {"src": []}}, "empty list"),
    ({"num_repeats": 1, "fan_out": {"src": ["a", "a"]}}, "more than once"),
])
def test_gyms_checks_of_the_settings(settings, message):
    with pytest.raises(MaterializationError, match=message):
        MaterializationSettings(**{"agent": None, **settings})


@pytest.mark.parametrize(("index", "gym_writes"), [(3.0, '"_ng_task_index": 3.0'), ("7", '"_ng_task_index": "7"'),
                                                   (-1, '"_ng_task_index": -1')])
def test_task_indices_gym_keeps_and_we_cannot_use_are_refused_saying_what_gym_writes(tmp_path, index, gym_writes):
    source = _write(tmp_path / "in.jsonl", [{"responses_create_params": PARAMS, "_ng_task_index": index}])
    with pytest.raises(JsonlFormatError, match="Gym 0.7.0 would write") as caught:
        read_raw_rows(source)
    assert gym_writes in str(caught.value) and caught.value.field == "_ng_task_index"


def test_the_prompt_configs_content_is_part_of_the_settings_data_version(tmp_path):
    prompt = tmp_path / "prompt.yaml"
    prompt.write_text("user: '{q}'\n")
    settings = MaterializationSettings(1, "x", prompt_config=str(prompt))
    before = settings.digest()
    prompt.write_text("user: 'Question: {q}'\n")
    assert settings.digest() != before
    assert MaterializationSettings(1, "x", limit=3).digest() != MaterializationSettings(1, "x").digest()


def test_cli_takes_gyms_settings(tmp_path):
    source = _write(tmp_path / "in.jsonl", [{"responses_create_params": PARAMS, "agent_ref": {"name": "src"}}])
    output = tmp_path / "m.jsonl"
    arguments = ["--num-repeats", '{"a": 1, "b": 2}', "--fan-out", '{"src": ["a", "b"]}', "--num-repeats-add-seed"]
    assert main(["materialize", "--input", str(source), "--output", str(output), *arguments]) == 0
    assert _keys(_rows(output)) == [("a", 0, 0), ("b", 0, 1), ("b", 0, 2)]
    assert main(["check-stale", "--inputs", str(output), "--source", str(source), *arguments]) == 0
    assert main(["check-stale", "--inputs", str(output), "--source", str(source), *arguments[:4]]) == 1


def test_the_first_row_gym_cannot_use_is_named_with_its_field(tmp_path):
    data = tmp_path / "data.jsonl"
    good = {"responses_create_params": {"input": "q"}, "expected_answer": "a"}
    encoded = {"responses_create_params": orjson.dumps({"input": "q"}).decode(), "expected_answer": "a"}
    data.write_bytes(b"".join(orjson.dumps(row) + b"\n" for row in (good, {"prompt": "built later"}, encoded)))
    fault = first_row_fault(data, max_rows=10)
    assert (fault.line, fault.field) == (3, "responses_create_params") and "must be an object" in fault.message
    assert first_row_fault(data, max_rows=2) is None  # a row without the field passes: a prompt config builds it
