"""Property-based tests: whatever bytes or YAML a user hands gym_pipeline, it either works or says what is wrong.

Every reader, the materializer, the profiler, the diagnosis, the sweep config and the command line are fed
random and half-broken input. The property each time: success, or the project's own error naming the file
(and for JSONL the line, and the field at fault), never another exception type, and nothing half written.
Hypothesis profiles are set in conftest.py (the CI one is derandomized: every run replays the same examples).
"""

from __future__ import annotations

import contextlib
import io
import tempfile
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
import yaml
from hypothesis import example, given
from hypothesis import strategies as st

from gym_pipeline.cli import main
from gym_pipeline.config import ConfigError, load_sweep_config
from gym_pipeline.core.formats import (
    AGENT_REF,
    ROLLOUT_INDEX,
    TASK_INDEX,
    FailureRow,
    InputRow,
    JsonlFormatError,
    MaterializedInputRow,
    RewardProfileRow,
    RolloutRow,
    iter_jsonl_dicts,
    read_rows,
    validate_row,
)
from gym_pipeline.core.materialize import MaterializationError, MaterializationSettings, materialize_and_record
from gym_pipeline.core.profile import MissingRolloutsError, output_paths, profile_run, write_profile
from gym_pipeline.core.profile_scan import line_ranges, merge_inputs, merge_rollouts, scan_inputs, scan_rollouts
from gym_pipeline.core.run_lock import LOCK_FILE
from gym_pipeline.diagnose import diagnose, render_text
from gym_pipeline.sweep import build_definitions

# --------------------------------------------------------------------------------------------------
# Strategies: JSON values, rows that are nearly valid, and JSONL files with broken lines among good ones

_JSON_INT = st.integers(min_value=-(2**63), max_value=2**64 - 1)  # what orjson reads back as an int
_SCALARS = st.none() | st.booleans() | _JSON_INT | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=6)
JSON_VALUES = st.recursive(
    _SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)


def _field(valid: st.SearchStrategy) -> st.SearchStrategy:
    """A field's value: usually of the right shape, sometimes anything JSON holds."""
    return st.one_of(valid, valid, JSON_VALUES)


_INDEX = st.integers(min_value=-2, max_value=4) | st.integers(min_value=2**62, max_value=2**64 - 1)
_TOKENS = st.integers(min_value=-1, max_value=50)
_RESPONSE = st.fixed_dictionaries({}, optional={
    "output": _field(st.lists(st.dictionaries(st.sampled_from(["type", "content"]), st.text(max_size=4)), max_size=2)),
    "usage": _field(st.fixed_dictionaries(
        {"input_tokens": _TOKENS, "output_tokens": _TOKENS, "total_tokens": _TOKENS},
        optional={"reasoning_tokens": _field(_TOKENS)})),
    "status": st.sampled_from(["completed", "incomplete"]),
})
_COMMON = {
    TASK_INDEX: _field(_INDEX),
    ROLLOUT_INDEX: _field(_INDEX),
    AGENT_REF: _field(st.fixed_dictionaries({"name": st.sampled_from(["a", "b"])})),
    "extra": JSON_VALUES,
}
INPUT_ROWS = st.fixed_dictionaries({}, optional={
    **_COMMON,
    "responses_create_params": _field(st.fixed_dictionaries({"input": st.text(max_size=8)})),
    "_ng_environment_server": _field(st.sampled_from(["srv1", "srv2"])),
})
ROLLOUT_ROWS = st.fixed_dictionaries({}, optional={
    **_COMMON,
    "reward": _field(st.floats(0, 1) | st.integers(0, 1)),
    "response": _field(_RESPONSE),
    "mask_sample": _field(st.booleans()),
    "failure_kind": _field(st.sampled_from(["verifier_exception", "timeout"])),
    "latency_s": _field(st.floats(0, 10, allow_nan=False)),
    "_ng_private": JSON_VALUES,
})
# Rollouts that mostly match `valid_input_rows` keys, so the profiler's join and statistics are reached too.
MATCHING_ROLLOUT_ROWS = st.fixed_dictionaries(
    {TASK_INDEX: st.integers(0, 3), ROLLOUT_INDEX: st.integers(0, 1), "reward": _field(st.floats(0, 1)),
     "response": _RESPONSE},
    optional={"mask_sample": _field(st.booleans()), "latency_s": _field(st.floats(0, 10)), "flag": st.booleans()},
)
FAILURE_ROWS = st.fixed_dictionaries({}, optional={
    **_COMMON,
    "_ng_failure_class": _field(st.sampled_from(["model_server", "verifier"])),
    "_ng_failure_http_status": _field(st.integers(100, 599)),
    "_ng_failure_terminal": _field(st.booleans()),
})
PROFILE_ROWS = st.fixed_dictionaries({}, optional={
    TASK_INDEX: _field(_INDEX),
    "sample": _field(st.dictionaries(st.text(max_size=3), JSON_VALUES, max_size=2)),
    "num_rollouts": _field(_TOKENS),
    "expected_num_rollouts": _field(_TOKENS),
    "missing_num_rollouts": _field(_TOKENS),
    "reward_profile_completion_pct": _field(st.floats(0, 100)),
    "rollout_infos": _field(st.lists(st.fixed_dictionaries(
        {"rollout_id": st.text(max_size=3), TASK_INDEX: _INDEX, ROLLOUT_INDEX: _INDEX, "reward": st.floats(0, 1)}),
        max_size=2)),
})


def valid_input_rows(task: int, repeats: int, agent: str = "a") -> list[dict]:
    return [{"responses_create_params": {"input": f"q{task}"}, AGENT_REF: {"name": agent}, TASK_INDEX: task,
             ROLLOUT_INDEX: repeat} for repeat in range(repeats)]


def _line(rows: st.SearchStrategy) -> st.SearchStrategy[bytes]:
    """One line's bytes: a row, a JSON value that is not an object, a cut-off row, blank, or random bytes."""
    encoded = rows.map(orjson.dumps)
    return st.one_of(
        encoded, encoded, encoded,
        JSON_VALUES.map(orjson.dumps),
        encoded.flatmap(lambda raw: st.integers(0, len(raw)).map(lambda cut: raw[:cut])),
        st.sampled_from([b"", b"   ", b"\r", b"\xff\xfe", b"{\"a\": 1e999}", b"[1, 2", b"\x00"]),
        st.binary(max_size=12),
    )


def jsonl_files(rows: st.SearchStrategy, max_lines: int = 6) -> st.SearchStrategy[bytes]:
    """A file's bytes: lines joined by newlines, with or without a final one."""
    return st.tuples(st.lists(_line(rows), max_size=max_lines), st.booleans()).map(
        lambda parts: b"\n".join(parts[0]) + (b"\n" if parts[1] and parts[0] else b""))


# --------------------------------------------------------------------------------------------------
# Helpers: a scratch folder per example, the first bad line by an independent reading, clear errors


@contextlib.contextmanager
def scratch() -> Iterator[Path]:
    """A fresh folder per example (pytest's tmp_path is shared by all examples of a test)."""
    with tempfile.TemporaryDirectory(prefix="gym-fuzz-") as folder:
        yield Path(folder)


def first_bad_line(content: bytes) -> int | None:
    """The line a streaming reader must stop at: not blank and not a JSON object (None: every line is fine)."""
    for number, raw in enumerate(content.split(b"\n"), start=1):
        if not raw.strip():
            continue
        try:
            value = orjson.loads(raw)
        except orjson.JSONDecodeError:
            return number
        if not isinstance(value, dict):
            return number
    return None


def line_count(content: bytes) -> int:
    return len(content.split(b"\n"))


def assert_names_line(error: JsonlFormatError, path: Path, content: bytes) -> None:
    assert error.path == path
    assert 1 <= error.line <= line_count(content)
    assert str(error).startswith(f"{path}:{error.line}: ")
    if error.field is not None:
        assert f"field '{error.field}'" in str(error)
    assert "\n" not in str(error)


def files_in(folder: Path) -> dict[str, bytes]:
    """Every file below `folder` but run-directory locks (a lock file stays, empty, once released)."""
    if not folder.exists():
        return {}
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*"))
            if path.is_file() and path.name != LOCK_FILE}


def assert_no_leftovers(folder: Path) -> None:
    """No temporary or partial file of an atomic write is left behind."""
    leftovers = [name for name in files_in(folder) if name.endswith(".tmp") or ".part" in name]
    assert not leftovers


# --------------------------------------------------------------------------------------------------
# JSONL readers and row models


@given(content=jsonl_files(INPUT_ROWS | ROLLOUT_ROWS))
@example(content=b'{"a": 1}\n\xff\n')
@example(content=b'{"a": 1}\r\n\r\n[1]\n')
def test_jsonl_reader_stops_at_the_first_bad_line_and_names_it(content):
    with scratch() as folder:
        path = folder / "rows.jsonl"
        path.write_bytes(content)
        bad = first_bad_line(content)
        if bad is None:
            rows = list(iter_jsonl_dicts(path))
            assert all(isinstance(row, dict) for _, row in rows)
            assert [number for number, _ in rows] == sorted({number for number, _ in rows})
            return
        with pytest.raises(JsonlFormatError) as caught:
            list(iter_jsonl_dicts(path))
        assert caught.value.line == bad
        assert_names_line(caught.value, path, content)


@pytest.mark.parametrize(("model", "rows"), [
    (InputRow, INPUT_ROWS), (MaterializedInputRow, INPUT_ROWS), (RolloutRow, ROLLOUT_ROWS),
    (FailureRow, FAILURE_ROWS), (RewardProfileRow, PROFILE_ROWS),
], ids=lambda value: getattr(value, "__name__", ""))
@given(data=st.data())
def test_row_models_accept_or_name_the_field(model, rows, data):
    row = data.draw(rows)
    path = Path("data/rows.jsonl")
    try:
        validated = validate_row(path, 7, row, model)
    except JsonlFormatError as error:
        assert error.line == 7 and error.field, "a row error names its field"
        top = error.field.split(".")[0]
        aliases = {field.alias for field in model.model_fields.values()} | set(model.model_fields)
        assert top in aliases, f"{error.field!r} is not a field of {model.__name__}"
        assert_names_line(error, path, b"\n" * 7)
    else:
        assert isinstance(validated, model)


@given(content=jsonl_files(ROLLOUT_ROWS))
def test_typed_reader_reports_a_bad_row_as_a_format_error(content):
    with scratch() as folder:
        path = folder / "rollouts.jsonl"
        path.write_bytes(content)
        try:
            rows = list(read_rows(path, RolloutRow))
        except JsonlFormatError as error:
            assert_names_line(error, path, content)
        else:
            assert all(isinstance(row, RolloutRow) for row in rows)


# --------------------------------------------------------------------------------------------------
# The materializer: all of the output, or none of it


@given(
    content=jsonl_files(INPUT_ROWS),
    num_repeats=st.integers(min_value=1, max_value=3),
    agent=st.sampled_from([None, "agent_x"]),
    previous=st.sampled_from([None, b'{"previous": true}\n']),
)
@example(content=b'{"responses_create_params": {}, "agent_ref": "x"}\n', num_repeats=1, agent=None, previous=None)
@example(content=b'{"responses_create_params": {}}\n', num_repeats=1, agent=None, previous=b"old\n")
@example(content=b'{"responses_create_params": {}}\n\xff\n', num_repeats=1, agent="a", previous=None)
def test_materialize_writes_everything_or_nothing(content, num_repeats, agent, previous):
    with scratch() as folder:
        source, output = folder / "data.jsonl", folder / "run" / "rollouts_materialized_inputs.jsonl"
        source.write_bytes(content)
        if previous is not None:
            output.parent.mkdir()
            output.write_bytes(previous)
        before = files_in(folder / "run")
        settings = MaterializationSettings(num_repeats, agent)
        try:
            record = materialize_and_record(source, output, settings)
        except (JsonlFormatError, MaterializationError) as error:
            assert isinstance(error, JsonlFormatError), f"not located in the file: {error}"
            assert_names_line(error, source, content)
            assert files_in(folder / "run") == before
        else:
            rows = output.read_bytes().splitlines()
            assert record["output"]["rows"] == len(rows)
            assert len(rows) == num_repeats * sum(1 for line in content.split(b"\n") if line.strip())
            assert all(isinstance(orjson.loads(row), dict) for row in rows)
        assert_no_leftovers(folder)


# --------------------------------------------------------------------------------------------------
# The profiler's readers (the fast scan and pydantic's exact path)

_PROFILE_OUTPUTS = output_paths(Path("rollouts.jsonl"))


@given(
    inputs=st.one_of(
        st.lists(st.integers(0, 3), max_size=3).map(
            lambda tasks: b"".join(orjson.dumps(row) + b"\n" for task in tasks for row in valid_input_rows(task, 2))),
        jsonl_files(INPUT_ROWS),
    ),
    rollouts=jsonl_files(MATCHING_ROLLOUT_ROWS | ROLLOUT_ROWS, max_lines=8),
    allow_partial=st.booleans(),
)
@example(inputs=b"".join(orjson.dumps(row) + b"\n" for row in valid_input_rows(0, 1)),
         rollouts=b'{"_ng_task_index": 0, "_ng_rollout_index": 0, "reward": 1, "response": {"usage": 3}}\n',
         allow_partial=True)
def test_profile_reads_or_names_the_bad_line(inputs, rollouts, allow_partial):
    with scratch() as folder:
        inputs_path, rollouts_path, out = folder / "m.jsonl", folder / "rollouts.jsonl", folder / "out"
        inputs_path.write_bytes(inputs)
        rollouts_path.write_bytes(rollouts)
        try:
            result = profile_run(inputs_path, rollouts_path, allow_partial=allow_partial, workers=1)
            write_profile(result, rollouts_path, out, workers=1)
        except JsonlFormatError as error:
            content = inputs if error.path == inputs_path else rollouts
            assert error.path in (inputs_path, rollouts_path)
            assert_names_line(error, error.path, content)
            assert not files_in(out)
        except MissingRolloutsError as error:
            assert not allow_partial and str(rollouts_path) in str(error)
            assert not files_in(out)
        else:
            assert sorted(files_in(out)) == sorted(path.name for path in _PROFILE_OUTPUTS.values())
            profile_rows = (out / _PROFILE_OUTPUTS["reward_profiling"].name).read_bytes().splitlines()
            assert all(isinstance(orjson.loads(row), dict) for row in profile_rows)
        assert_no_leftovers(folder)


def _read_in_ranges(scan, merge, path: Path, parts: int):
    """What the profiler reads from `path` in up to `parts` byte ranges (as its worker processes do), as plain
    values: an error's text, or per row its key, line, flags, scores and profiled numbers."""
    try:
        read = merge(path, [scan(path, start, end) for start, end in line_ranges(path, parts)])
    except JsonlFormatError as error:
        return str(error)
    if scan is scan_inputs:
        return [(int(t), int(r), int(o), int(n), read.runs[run]) for t, r, o, n, run in
                zip(read.task, read.rollout, read.offset, read.length, read.run, strict=True)]
    rows = []
    for i in range(len(read.task)):
        names = read.layouts[read.layout[i]].names
        start = int(read.value_start[i])
        numbers = [float(read.reward[i]), float(read.output_tokens[i]), *read.values[start:start + len(names)].tolist()]
        rows.append((int(read.task[i]), int(read.rollout[i]), int(read.line[i]), bool(read.masked[i]),
                     bool(read.cut_off[i]), names, repr(numbers)))  # repr: nan equals nan
    return rows, sorted(read.infos.items())


@given(content=jsonl_files(INPUT_ROWS | MATCHING_ROLLOUT_ROWS | ROLLOUT_ROWS, max_lines=10),
       parts=st.integers(min_value=2, max_value=5))
def test_profile_reads_a_file_in_ranges_exactly_as_in_one_pass(content, parts):
    """Large runs are scanned in ranges by worker processes: the rows, and the first error with its line, must
    not depend on where the file was cut."""
    with scratch() as folder:
        path = folder / "rows.jsonl"
        path.write_bytes(content)
        for scan, merge in ((scan_inputs, merge_inputs), (scan_rollouts, merge_rollouts)):
            assert _read_in_ranges(scan, merge, path, parts) == _read_in_ranges(scan, merge, path, 1)


# --------------------------------------------------------------------------------------------------
# The diagnosis: a run folder full of garbage is still diagnosed, never a crash

_RUN_FILES = [
    "rollouts_materialized_inputs.jsonl", "rollouts.jsonl", "rollouts_failures.jsonl",
    "rollouts_reward_profiling.jsonl", "rollouts_agent_metrics.json", "rollouts_run_summary.json", "manifest.json",
    "diagnosis.json", "skipped.json", "logs/launcher.json", "logs/model_server.log", "logs/dagster_failure.log",
]
_LOG_TEXT = st.lists(st.sampled_from([
    b"Traceback (most recent call last):", b'  File "x.py", line 1, in <module>', b"ValueError: boom",
    b"ERROR: 500 Internal Server Error", b"CUDA out of memory", b"Killed", b"Connection refused",
    b"429 Too Many Requests", b"api_key=sk-abcdefghijklmnop",
]) | st.binary(max_size=20), max_size=5).map(b"\n".join)


@given(files=st.dictionaries(
    st.sampled_from(_RUN_FILES),
    st.one_of(st.binary(max_size=40), _LOG_TEXT, jsonl_files(INPUT_ROWS | ROLLOUT_ROWS | FAILURE_ROWS, 4),
              JSON_VALUES.map(orjson.dumps)),
    max_size=6,
))
def test_diagnosis_of_a_folder_of_random_bytes_never_crashes(files):
    with scratch() as run:
        for name, data in files.items():
            (run / name).parent.mkdir(parents=True, exist_ok=True)
            (run / name).write_bytes(data)
        report = diagnose(run)
        orjson.dumps(report.to_json_dict())
        assert render_text(report)
        assert "sk-abcdefghijklmnop" not in orjson.dumps(report.to_json_dict()).decode()


# --------------------------------------------------------------------------------------------------
# The sweep config

_CONFIG_VALUES = st.one_of(
    JSON_VALUES, st.dates(), st.binary(max_size=3), st.just(float("inf")), st.just(float("nan")),
    st.sampled_from(["../etc", "/abs", "a/b", "ok_name", "x\x00y", "{other}", "*/5 * * * *", "99 * * * *",
                     "http://user:pw@host:99999/v1", "http://127.0.0.1:8000/{checkpoint}/v1", ""]),
)
_CONFIG_KEYS = [
    "name", "checkpoints_dir", "checkpoint_registry", "runs_dir", "comparisons_dir", "num_repeats",
    "interleave_repeats", "responses_create_params", "concurrency", "request_timeout_s", "allow_partial_profiles",
    "nightly_cron", "observe_interval_s", "observe_sources", "backfill_batch_size", "regression_alpha",
    "auto_rebuild_inputs", "digest_cache", "rehash_sources",
]
_ENVIRONMENT = st.fixed_dictionaries(
    {"name": _field(st.sampled_from(["string_match", "mcqa"])), "dataset": _field(st.just("data/a.jsonl"))},
    optional={"agent": _field(st.just("my_agent")), "extra": JSON_VALUES},
)
CONFIGS = st.fixed_dictionaries(
    {"environments": _field(st.lists(_ENVIRONMENT, min_size=1, max_size=2))},
    optional={
        **{key: _CONFIG_VALUES for key in _CONFIG_KEYS},
        "model_server": _field(st.fixed_dictionaries({}, optional={
            "kind": _field(st.sampled_from(["simulated", "endpoint"])), "url_template": _CONFIG_VALUES,
            "api_key_env": _field(st.sampled_from(["MY_KEY", "sk-not-a-name"])), "latency_ms": _CONFIG_VALUES,
            "startup_timeout_s": _CONFIG_VALUES})),
        "reward_profile_freshness": _field(st.fixed_dictionaries({}, optional={
            "warn_hours": _CONFIG_VALUES | st.floats(0, 30), "fail_hours": _CONFIG_VALUES | st.floats(0, 1e12)})),
    },
)


def _yaml_text(config: dict) -> str:
    return yaml.safe_dump(config, allow_unicode=True)


@given(document=st.one_of(
    CONFIGS.map(_yaml_text),
    CONFIGS.map(_yaml_text).flatmap(lambda text: st.integers(0, len(text)).map(lambda cut: text[:cut])),
    st.text(max_size=40),
    st.sampled_from(["a: 2001-13-45\n", "[" * 3000, "a: &x [*x]\n", "? [a]\n: 1\n", "a: !!python/object:os.system x\n",
                     "environments: [{name: mcqa, dataset: d}]\nnightly_cron: 'every day'\n"]),
).map(str.encode) | st.binary(max_size=30))
def test_sweep_config_loads_or_names_file_and_field(document):
    with scratch() as folder:
        path = folder / "sweep.yaml"
        path.write_bytes(document)
        try:
            config = load_sweep_config(path)
        except ConfigError as error:
            assert str(error).startswith(str(path))
            assert "\n" not in str(error)
            return
        # A config that loads is usable: its paths are absolute and Dagster accepts what it defines.
        assert config.runs_dir.is_absolute() and all(e.dataset.is_absolute() for e in config.environments)
        for environment in config.environments:
            assert config.run_dir("step_1", environment.name).parent.parent == config.runs_dir
        build_definitions(config).resolve_asset_graph()


# --------------------------------------------------------------------------------------------------
# The command line: bad arguments and bad files


def run_cli(argv: list[str]) -> tuple[int, str]:
    """`gym-pipeline argv`: its exit code (argparse's SystemExit included) and its stderr."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = main(argv)
        except SystemExit as exit_:
            code = exit_.code
    return code, err.getvalue()


def assert_one_clear_error(code: int, err: str) -> None:
    assert code == 2, err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "error" in lines[0], err


_NAMES = st.sampled_from(["..", "../x", "/etc", "a/b", ".hidden", "", "a b", "x" * 200, "mcqa/../../etc"])
_BAD_INTS = st.sampled_from(["0", "-1", "abc", "1.5", "", "99999999999999999999", "0x10"])


@given(data=st.data())
def test_cli_refuses_bad_arguments_in_one_line(data):
    with scratch() as folder:
        existing = folder / "file.jsonl"
        existing.write_text("{}\n")
        ok_url = "http://127.0.0.1:9/v1"
        argv = data.draw(st.one_of(
            _BAD_INTS.map(lambda n: ["collect", "--inputs", str(existing), "--output", str(folder / "r.jsonl"),
                                     "--model-url", ok_url, "--env", "mcqa", "--concurrency", n]),
            _NAMES.map(lambda name: ["collect", "--inputs", str(existing), "--output", str(folder / "r.jsonl"),
                                     "--model-url", ok_url, "--env", name]),
            st.sampled_from(["ftp://h/v1", "127.0.0.1:8000", "http://", "http://h:99999/v1", "", "not a url"]).map(
                lambda url: ["collect", "--inputs", str(existing), "--output", str(folder / "r.jsonl"),
                             "--model-url", url, "--env", "mcqa"]),
            st.sampled_from(["sk-secret", "1ABC", "A-B", ""]).map(
                lambda var: ["collect", "--inputs", str(existing), "--output", str(folder / "r.jsonl"),
                             "--model-url", ok_url, "--env", "mcqa", "--api-key-env", var]),
            _BAD_INTS.map(lambda n: ["materialize", "--input", str(existing), "--num-repeats", n, "--agent", "a",
                                     "--output", str(folder / "o.jsonl")]),
            st.just(["materialize", "--input", str(existing), "--num-repeats", "1", "--agent", "a",
                     "--output", str(folder)]),
            _BAD_INTS.map(lambda n: ["check-stale", "--inputs", str(existing), "--source", str(existing),
                                     "--num-repeats", n, "--agent", "a"]),
            st.sampled_from(["0", "-1", "65536", "99999", "http"]).map(lambda port: ["ui", "--port", port]),
            _BAD_INTS.map(lambda n: ["demo", "--checkpoints", n, "--home", str(folder / "ws")]),
            st.just(["demo", "--checkpoints", "5000", "--home", str(folder / "ws")]),
            st.just(["status", "--home", str(existing)]),
            st.just(["profile", "--inputs", str(existing), "--rollouts", str(existing), "--output-dir", str(existing)]),
            st.sampled_from([[], ["no-such-command"], ["collect"], ["materialize", "--input"], ["diagnose"],
                             ["profile", "--inputs", "x", "--bogus", "y"]]),
        ))
        code, err = run_cli(argv)
        assert_one_clear_error(code, err)
        assert files_in(folder) == {"file.jsonl": b"{}\n"}, "nothing is written for a refused command"


@given(data=st.data(), content=jsonl_files(INPUT_ROWS | ROLLOUT_ROWS, 4))
def test_cli_with_bad_files_exits_2_naming_the_file(data, content):
    with scratch() as folder:
        bad = folder / "bad.jsonl"
        bad.write_bytes(content)
        good_inputs = folder / "inputs.jsonl"
        good_inputs.write_bytes(b"".join(orjson.dumps(row) + b"\n" for row in valid_input_rows(0, 2)))
        argv = data.draw(st.sampled_from([
            ["materialize", "--input", str(bad), "--num-repeats", "2", "--agent", "a",
             "--output", str(folder / "out" / "m.jsonl")],
            ["profile", "--inputs", str(bad), "--rollouts", str(bad), "--output-dir", str(folder / "out")],
            ["profile", "--inputs", str(good_inputs), "--rollouts", str(bad), "--output-dir", str(folder / "out")],
            ["check-stale", "--inputs", str(bad), "--source", str(bad), "--num-repeats", "2", "--agent", "a"],
            ["diagnose", str(folder / "missing")],
            ["materialize", "--input", str(folder), "--num-repeats", "1", "--agent", "a",
             "--output", str(folder / "out" / "m.jsonl")],
            ["profile", "--inputs", str(folder), "--rollouts", str(bad)],
        ]))
        code, err = run_cli(argv)
        assert "Traceback" not in err
        if code == 2:
            lines = [line for line in err.splitlines() if line.strip()]
            # One error, naming the file; a Gym-compatible message (missing rollouts) keeps Gym's own first line.
            assert lines and lines[0].startswith("error: ") and str(folder) in err, err
            assert not files_in(folder / "out")
        else:
            assert code in (0, 1), err
        assert_no_leftovers(folder)


def test_fuzz_helpers_agree_with_the_reader_on_blank_lines():
    """The independent reading above treats blank lines as the readers do (a guard on the test itself)."""
    assert first_bad_line(b"\n \n\t\n{}\n") is None
    assert first_bad_line(b"{}\n[]\n") == 2
