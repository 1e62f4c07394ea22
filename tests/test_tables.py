"""A run's files as tables: column schemas and pandas DataFrames, on real NeMo Gym 0.7.0 output and ours."""

import shutil
import warnings

import orjson
import pandas as pd
import pyarrow as pa
import pytest

from gym_pipeline.core import tables
from gym_pipeline.core.profile import profile_run, write_profile
from gym_pipeline.core.tables import Column, columns, read_run, record_columns


def _lines(path):
    return [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]


def test_a_gym_output_folder_reads_as_frames(fixtures_dir):
    folder = fixtures_dir / "partial_run_with_failures"
    run = read_run(folder)
    rows = _lines(folder / "rollouts.jsonl")
    assert len(run.rollouts) == len(rows) == 16
    keys = list(zip(run.rollouts["_ng_task_index"], run.rollouts["_ng_rollout_index"], strict=True))
    assert keys == sorted((row["_ng_task_index"], row["_ng_rollout_index"]) for row in rows)  # sorted by key
    assert list(run.rollouts.columns) == list(dict.fromkeys(key for row in rows for key in row))
    assert run.rollouts["_ng_task_index"].dtype == pd.ArrowDtype(pa.int64())
    assert run.rollouts["reward"].dtype == pd.ArrowDtype(pa.float64())
    assert run.rollouts["response"].dtype == object and isinstance(run.rollouts["response"].iloc[0], dict)
    assert len(run.failures) == 4 and "_ng_failure_class" in run.failures
    assert len(run.reward_profile) == 4 and run.reward_profile["mean/reward"].dtype == pd.ArrowDtype(pa.float64())
    assert run.reward_profile["rollout_infos"].map(len).sum() == 16
    assert run.agent_metrics["mean/reward"].iloc[0] == pytest.approx(
        orjson.loads((folder / "rollouts_agent_metrics.json").read_bytes())[0]["mean/reward"])
    assert len(run.repeat_level_metrics) == len(orjson.loads((folder / "rollouts_repeat_level_metrics.json").read_bytes()))
    assert len(run.materialized_inputs) == 20 and "agent_ref" in run.materialized_inputs
    assert run.reward_analysis is None and run.reward_analysis_summary is None  # Gym writes no reward analysis


def test_our_reward_analysis_reads_with_nullable_integers_and_categories(fixtures_dir, tmp_path):
    source = fixtures_dir / "partial_run_with_failures"
    for name in ("rollouts.jsonl", "rollouts_materialized_inputs.jsonl"):
        shutil.copy(source / name, tmp_path / name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = profile_run(tmp_path / "rollouts_materialized_inputs.jsonl", tmp_path / "rollouts.jsonl",
                             allow_partial=True)
    write_profile(result, tmp_path / "rollouts.jsonl")
    run = read_run(tmp_path)
    analysis = run.reward_analysis
    assert len(analysis) == 16
    assert isinstance(analysis["task_difficulty"].dtype, pd.CategoricalDtype)
    assert analysis["task_num_rollouts"].dtype == pd.ArrowDtype(pa.int64())
    assert analysis["task_pass_at_4"].dtype == pd.ArrowDtype(pa.float64())
    assert run.reward_analysis_summary == result.analysis.summary
    by_task = analysis.groupby("_ng_task_index")["reward"].mean()
    assert by_task.to_dict() == pytest.approx(
        {row["_ng_task_index"]: row["mean/reward"] for row in _lines(tmp_path / "rollouts_reward_profiling.jsonl")})
    assert run.failures is None  # not copied


def test_missing_run_folder_is_named(tmp_path):
    with pytest.raises(FileNotFoundError, match="run folder not found"):
        read_run(tmp_path / "nope")


def test_column_types_nullability_and_descriptions():
    records = [{"reward": 1, "x": "a", "nested": {"k": 1}, "flag": True},
               {"reward": 0.5, "x": 3, "nested": None, "flag": False, "late": [1]}]
    assert record_columns(records) == [
        Column("reward", "float", False, "the verifier's reward"),
        Column("x", "mixed", False, None),
        Column("nested", "object", True, None),
        Column("flag", "bool", False, None),
        Column("late", "list", True, None),
    ]
    assert record_columns([{"failure_kind": None}])[0].type == "null"
    assert tables.describe_column("std/output_tokens") == "sample standard deviation of output_tokens"
    assert tables.describe_column("ci_low_95_across_repeats/mean/reward") == (
        "Student-t 95% interval across repeats, low of mean/reward")
    assert tables.describe_column("task_pass_at_8").startswith("the task's unbiased pass@8")


def test_mixed_column_reads_as_objects():
    frame = tables.records_frame([{"x": 1, "n": 1, "big": 2**70}, {"x": "a"}])
    assert frame["x"].dtype == object and frame["x"].tolist() == [1, "a"]
    assert frame["big"].dtype == object and frame["big"].iloc[0] == 2**70
    assert frame["n"].dtype == pd.ArrowDtype(pa.int64()) and frame["n"].isna().tolist() == [False, True]


def test_columns_of_every_table_file(fixtures_dir):
    folder = fixtures_dir / "clean_run"
    profile_columns = columns(folder / "rollouts_reward_profiling.jsonl")
    first_row = _lines(folder / "rollouts_reward_profiling.jsonl")[0]
    assert [column.name for column in profile_columns] == list(first_row)
    assert {column.name: column.type for column in profile_columns}["sample"] == "object"
    assert columns(folder / "rollouts_agent_metrics.json")[0].name == "mean/reward"


def test_column_schema_metadata_skips_what_it_cannot_read(fixtures_dir, tmp_path):
    from gym_pipeline.assets.column_schemas import COLUMN_SCHEMA, column_schemas

    shutil.copy(fixtures_dir / "clean_run" / "rollouts.jsonl", tmp_path / "rollouts.jsonl")
    (tmp_path / "rollouts_failures.jsonl").write_bytes(b'{"_ng_task_index": 0}\n{oops\n')
    metadata = column_schemas(tmp_path, "rollouts.jsonl", ["rollouts_failures.jsonl", "absent.jsonl"])
    assert list(metadata) == [COLUMN_SCHEMA]
    assert [c.name for c in metadata[COLUMN_SCHEMA].schema.columns] == [c.name for c in columns(
        tmp_path / "rollouts.jsonl")]
    assert column_schemas(tmp_path, "absent.jsonl") == {}
