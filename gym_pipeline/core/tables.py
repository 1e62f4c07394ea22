"""A run folder's files as tables: their column schemas, and pandas DataFrames for notebooks.

The tabular files of a run (ours or any NeMo Gym output folder):

| file | one row per |
|---|---|
| `rollouts_materialized_inputs.jsonl` | (task, repeat) to collect |
| `rollouts.jsonl` | completed rollout (Gym's verify response) |
| `rollouts_failures.jsonl` | failed attempt |
| `rollouts_reward_profiling.jsonl` | task (Gym's reward profile) |
| `rollouts_agent_metrics.json` | agent (a JSON list) |
| `rollouts_repeat_level_metrics.json` | (agent, repeat) (a JSON list) |
| `rollouts_reward_analysis.parquet` | completed rollout, with its task's numbers (ours) |

`columns(path)` says what a file holds: each top-level field in the order it first appears, its type
(`int`, `float` — ints and floats mixed —, `bool`, `string`, `object`, `list`, `null` when never set,
`mixed` when the rows disagree; Arrow's type for Parquet), whether some row lacks it or holds null, and a
description for the fields Gym and gym_pipeline define. `read_run(run_dir)` loads them as DataFrames:
numbers, flags and strings as pyarrow-backed columns (nullable, so an integer column with a missing value
stays integer), nested objects (`response`, `sample`, `rollout_infos`) as Python objects. Files are read
whole: a run of a few hundred thousand rollouts needs a few GB.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from gym_pipeline.core.formats import (
    AGENT_METRICS_FILE,
    FAILURES_FILE,
    MATERIALIZED_INPUTS_FILE,
    REPEAT_LEVEL_METRICS_FILE,
    REWARD_PROFILE_FILE,
    ROLLOUT_INDEX,
    ROLLOUTS_FILE,
    TASK_INDEX,
    iter_jsonl_dicts,
)
from gym_pipeline.core.profile import output_paths

if TYPE_CHECKING:
    import pandas as pd

_PROFILE_FILES = {key: path.name for key, path in output_paths(Path(ROLLOUTS_FILE)).items()}
REWARD_ANALYSIS_FILE = _PROFILE_FILES["reward_analysis"]
REWARD_ANALYSIS_SUMMARY_FILE = _PROFILE_FILES["reward_analysis_summary"]

_DESCRIPTIONS = {
    TASK_INDEX: "original task (input row) id",
    ROLLOUT_INDEX: "repeat id within the task",
    "agent_ref": "the agent that ran the rollout ({name})",
    "reward": "the verifier's reward",
    "response": "the OpenAI Responses object (output, usage with input/output/total tokens)",
    "responses_create_params": "the request's parameters (input, sampling)",
    "mask_sample": "true: left out of the quality statistics, counted for completion",
    "failure_kind": "the verifier's failure class (Gym's shared vocabulary)",
    "failure_reason": "why the verifier failed",
    "_ng_attempt_index": "which attempt produced the row",
    "_ng_failure_class": "Gym's failure class (agent_run_error, agent_request_failed, environment_server_failed, ...)",
    "_ng_failure_type": "the exception type",
    "_ng_failure_message": "the error message",
    "_ng_failure_http_status": "HTTP status of the failed request",
    "_ng_failure_response_body": "body of the failed response",
    "_ng_failure_terminal": "true: not retried",
    "sample": "the materialized input row, without the two indices",
    "num_rollouts": "rollouts profiled for the task",
    "expected_num_rollouts": "rollouts materialized for the task",
    "missing_num_rollouts": "rollouts materialized but not collected",
    "reward_profile_completion_pct": "collected share of the task's rollouts, in %",
    "rollout_infos": "per rollout: id, both indices, reward, token counts",
    "sample_count": "tasks in the repeat",
    "missing_count": "tasks without a rollout in the repeat",
    # The reward analysis (reward_analysis.py)
    "agent": "the agent's label",
    "output_tokens": "response.usage.output_tokens (null: no usage)",
    "cut_off": "the length limit stopped the response",
    "masked": "mask_sample: in the table, left out of every statistic",
    "passed": "reward >= the pass threshold",
    "task_num_rollouts": "the task's measured rollouts",
    "task_num_passed": "the task's passing rollouts",
    "task_mean_reward": "the task's mean reward",
    "task_difficulty": "never, sometimes or always solved",
}
_STATISTICS = {
    "mean": "mean", "max": "maximum", "min": "minimum", "median": "median", "std": "sample standard deviation",
    "sem": "standard error of the mean", "p25": "25th percentile", "p75": "75th percentile",
    "ci_low_95": "Student-t 95% interval, low", "ci_high_95": "Student-t 95% interval, high",
    "mean_across_repeats": "mean across repeats", "median_across_repeats": "median across repeats",
    "std_across_repeats": "standard deviation across repeats", "min_across_repeats": "minimum across repeats",
    "max_across_repeats": "maximum across repeats", "se_across_repeats": "standard error across repeats",
    "ci_low_95_across_repeats": "Student-t 95% interval across repeats, low",
    "ci_high_95_across_repeats": "Student-t 95% interval across repeats, high",
    "coverage": "coverage count",
}


@dataclass(frozen=True)
class Column:
    name: str
    type: str
    nullable: bool  # some row lacks the field or holds null
    description: str | None = None


def describe_column(name: str) -> str | None:
    """What a column of Gym's or our files holds, when we know."""
    if name in _DESCRIPTIONS:
        return _DESCRIPTIONS[name]
    if name.startswith("task_pass_at_"):
        return f"the task's unbiased pass@{name.removeprefix('task_pass_at_')} (null: fewer rollouts than k)"
    statistic, _, field = name.partition("/")
    if field and statistic in _STATISTICS:
        return f"{_STATISTICS[statistic]} of {field}"
    return None


def _json_type(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "string"
    return "list" if isinstance(value, list) else "object"


def record_columns(records: Iterable[dict[str, Any]]) -> list[Column]:
    """The columns of JSON records: every top-level field in first-seen order, with the types its values have."""
    types: dict[str, set[str]] = {}
    present: dict[str, int] = {}
    rows = 0
    for record in records:
        rows += 1
        for name, value in record.items():
            seen = types.setdefault(name, set())
            kind = _json_type(value)
            if kind is not None:
                seen.add(kind)
                present[name] = present.get(name, 0) + 1
    return [Column(name, _merged(seen), present.get(name, 0) < rows, describe_column(name))
            for name, seen in types.items()]


def _merged(types: set[str]) -> str:
    if types == {"int", "float"}:
        return "float"
    if len(types) == 1:
        return next(iter(types))
    return "mixed" if types else "null"


def _read_records(path: Path) -> list[dict[str, Any]]:
    """A JSONL file's objects, or a JSON file's list of objects."""
    if path.suffix == ".jsonl":
        return [row for _, row in iter_jsonl_dicts(path)]
    value = orjson.loads(path.read_bytes())
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise ValueError(f"{path}: expected a JSON list of objects")
    return value


def parquet_columns(path: Path | str) -> list[Column]:
    """A Parquet file's columns, with Arrow's type names (a dictionary-encoded column: its values' type)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    return [Column(field.name, f"{field.type.value_type} (dictionary)" if pa.types.is_dictionary(field.type)
                   else str(field.type), field.nullable, describe_column(field.name))
            for field in pq.read_schema(path)]


def columns(path: Path | str) -> list[Column]:
    """The columns of one of a run's tabular files (see the module docstring); JSON files are read whole,
    JSONL files streamed."""
    path = Path(path)
    if path.suffix == ".parquet":
        return parquet_columns(path)
    if path.suffix == ".jsonl":
        return record_columns(row for _, row in iter_jsonl_dicts(path))
    return record_columns(_read_records(path))


# --------------------------------------------------------------------------------------------------
# DataFrames


def _arrow_type(kind: str) -> Any:
    import pyarrow as pa

    return {"int": pa.int64(), "float": pa.float64(), "bool": pa.bool_(), "string": pa.string()}.get(kind)


def records_frame(records: list[dict[str, Any]]) -> pd.DataFrame:
    """JSON records as a DataFrame: one column per field (`record_columns`), typed columns pyarrow-backed."""
    import pandas as pd
    import pyarrow as pa

    data = {}
    for column in record_columns(records):
        values = [record.get(column.name) for record in records]
        arrow = _arrow_type(column.type)
        try:
            data[column.name] = pd.Series(pa.array(values, type=arrow), dtype=pd.ArrowDtype(arrow)) if arrow \
                else pd.Series(values, dtype=object)
        except (pa.ArrowInvalid, OverflowError):  # an integer beyond 64 bits: kept as Python ints
            data[column.name] = pd.Series(values, dtype=object)
    return pd.DataFrame(data, index=pd.RangeIndex(len(records)))


def _sorted_by_key(frame: pd.DataFrame) -> pd.DataFrame:
    if TASK_INDEX in frame and ROLLOUT_INDEX in frame:
        return frame.sort_values([TASK_INDEX, ROLLOUT_INDEX], kind="stable", ignore_index=True)
    return frame


def parquet_frame(path: Path | str) -> pd.DataFrame:
    """A Parquet file as a DataFrame: pyarrow-backed columns, dictionary-encoded strings as categories."""
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq

    return pq.read_table(path).to_pandas(
        types_mapper=lambda kind: None if pa.types.is_dictionary(kind) else pd.ArrowDtype(kind))


@dataclass
class RunTables:
    """A run folder's files as DataFrames (None: the file is not there yet)."""

    run_dir: Path
    materialized_inputs: pd.DataFrame | None  # rollouts_materialized_inputs.jsonl, one row per (task, repeat)
    rollouts: pd.DataFrame | None  # rollouts.jsonl, one row per completed rollout, sorted by (task, rollout)
    failures: pd.DataFrame | None  # rollouts_failures.jsonl, one row per failed attempt, in file order
    reward_profile: pd.DataFrame | None  # rollouts_reward_profiling.jsonl, one row per task (Gym's)
    agent_metrics: pd.DataFrame | None  # rollouts_agent_metrics.json, one row per agent (Gym's)
    repeat_level_metrics: pd.DataFrame | None  # rollouts_repeat_level_metrics.json, per (agent, repeat) (Gym's)
    reward_analysis: pd.DataFrame | None  # rollouts_reward_analysis.parquet, one row per completed rollout
    reward_analysis_summary: dict[str, Any] | None  # rollouts_reward_analysis.json: pass@k, intervals, ...


def read_run(run_dir: Path | str) -> RunTables:
    """Every tabular file of a run folder (ours or NeMo Gym's) as a DataFrame; see `RunTables`."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise FileNotFoundError(f"{run_dir}: run folder not found")

    def frame(name: str, by_key: bool = False) -> pd.DataFrame | None:
        path = run_dir / name
        if not path.exists():
            return None
        if path.suffix == ".parquet":
            return parquet_frame(path)
        loaded = records_frame(_read_records(path))
        return _sorted_by_key(loaded) if by_key else loaded

    summary = run_dir / REWARD_ANALYSIS_SUMMARY_FILE
    return RunTables(
        run_dir=run_dir,
        materialized_inputs=frame(MATERIALIZED_INPUTS_FILE),
        rollouts=frame(ROLLOUTS_FILE, by_key=True),
        failures=frame(FAILURES_FILE),
        reward_profile=frame(REWARD_PROFILE_FILE),
        agent_metrics=frame(AGENT_METRICS_FILE),
        repeat_level_metrics=frame(REPEAT_LEVEL_METRICS_FILE),
        reward_analysis=frame(REWARD_ANALYSIS_FILE),
        reward_analysis_summary=orjson.loads(summary.read_bytes()) if summary.exists() else None,
    )
