"""Materialization exactly as `gym eval run` does it (NeMo Gym 0.7.0).

Each raw input line becomes `num_repeats` rows. Identical raw lines share one
`_ng_task_index` (first-seen order) and their rollout indices keep counting, an
`_ng_task_index` already in the row is kept, and `agent_ref` defaults to the
given agent. Repeats come out `aabbcc`, or `abcabc` when interleaved.
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import orjson

from gym_pipeline.core.fingerprint import file_digest, value_digest
from gym_pipeline.core.formats import (
    AGENT_REF,
    RESPONSES_CREATE_PARAMS,
    ROLLOUT_INDEX,
    TASK_INDEX,
    InputRow,
    JsonlFormatError,
    require_file,
    validate_row,
    write_jsonl_atomic,
)
from gym_pipeline.core.manifest import record_stage
from gym_pipeline.core.run_lock import run_directory_lock

MATERIALIZED_INPUTS_STAGE = "materialized_inputs"


class MaterializationError(ValueError):
    pass


@dataclass
class MaterializationSettings:
    num_repeats: int
    agent: str | None
    interleave_repeats: bool = False
    responses_create_params: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def read_raw_rows(input_path: Path, require_agent_ref: bool = False) -> list[tuple[str, dict[str, Any]]]:
    """(raw line text, parsed row) per line; the raw text is what Gym de-duplicates tasks on.

    `require_agent_ref` (no default agent was given): a row without its own `agent_ref` is an error.
    """
    input_path = require_file(input_path, "input file")
    rows = []
    # Text lines as Gym reads them; bytes that are not UTF-8 are kept as surrogates, which orjson
    # then refuses, so the error names their line instead of a position in a decoding buffer.
    with input_path.open(encoding="utf-8", errors="surrogateescape") as handle:
        for line_number, line in enumerate(handle, start=1):
            if not line.strip():
                raise JsonlFormatError(input_path, line_number, None, "blank line")
            try:
                row = orjson.loads(line)
            except orjson.JSONDecodeError as error:
                raise JsonlFormatError(input_path, line_number, None, f"not valid JSON ({error})") from None
            if not isinstance(row, dict):
                raise JsonlFormatError(input_path, line_number, None, "expected a JSON object")
            validate_row(input_path, line_number, row, InputRow)
            if TASK_INDEX in row and (not isinstance(row[TASK_INDEX], int) or row[TASK_INDEX] < 0):
                raise JsonlFormatError(input_path, line_number, TASK_INDEX, "must be a non-negative integer")
            agent_ref = row.get(AGENT_REF)
            if AGENT_REF in row and not (isinstance(agent_ref, dict) and isinstance(agent_ref.get("name"), str)):
                raise JsonlFormatError(input_path, line_number, f"{AGENT_REF}.name", "must be a string")
            if require_agent_ref and AGENT_REF not in row:
                raise JsonlFormatError(input_path, line_number, AGENT_REF, "missing, and no agent was given (--agent)")
            rows.append((line, row))
    return rows


def materialize_rows(
    raw_rows: list[tuple[str, dict[str, Any]]],
    num_repeats: int,
    agent_name: str | None,
    interleave: bool = False,
    responses_create_params_overrides: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    if num_repeats < 1:
        raise MaterializationError(f"num_repeats must be >= 1, got {num_repeats}")
    overrides = responses_create_params_overrides or {}
    task_index_of_line: dict[str, int] = {}
    prepared = []
    for line_text, row in raw_rows:
        row = copy.deepcopy(row)
        if agent_name:
            row.setdefault(AGENT_REF, {"name": agent_name})
        if AGENT_REF not in row:
            raise MaterializationError("a row has no agent_ref and no agent was given (--agent)")
        row[RESPONSES_CREATE_PARAMS] = row[RESPONSES_CREATE_PARAMS] | overrides
        if TASK_INDEX not in row:
            row[TASK_INDEX] = task_index_of_line.setdefault(line_text, len(task_index_of_line))
        prepared.append(row)

    next_rollout_index: Counter[int] = Counter()

    def repeat(row: dict[str, Any]) -> dict[str, Any]:
        copy_ = copy.deepcopy(row)
        copy_[ROLLOUT_INDEX] = next_rollout_index[row[TASK_INDEX]]
        next_rollout_index[row[TASK_INDEX]] += 1
        return copy_

    if interleave:
        return [repeat(row) for _ in range(num_repeats) for row in prepared]
    return [repeat(row) for row in prepared for _ in range(num_repeats)]


def materialize_and_record(source: Path, output: Path, settings: MaterializationSettings,
                           code_version: str | None = None) -> dict[str, Any]:
    """Materialize and record in the output folder's manifest what was read: the source's digest and the settings.

    `gym-pipeline collect --resume` and the stale-inputs check compare against this record. The output
    folder is locked meanwhile: inputs must not change under a collection.
    """
    source_digest = file_digest(require_file(source, "input file"))  # before locking: a missing source leaves no folder behind
    run_dir = Path(output).parent
    with run_directory_lock(run_dir, MATERIALIZED_INPUTS_STAGE):
        rows = materialize_file(source, output, settings.num_repeats, settings.agent, settings.interleave_repeats,
                                settings.responses_create_params)
        return record_stage(
            run_dir,
            MATERIALIZED_INPUTS_STAGE,
            {
                "source": {"path": str(Path(source).resolve()), "digest": source_digest},
                "settings": settings.as_dict(),
                "settings_digest": value_digest(settings.as_dict()),
                "code_version": code_version,
                "output": {"path": str(Path(output).resolve()), "digest": file_digest(output), "rows": rows},
            },
        )


def materialize_file(
    input_path: Path,
    output_path: Path,
    num_repeats: int,
    agent_name: str | None,
    interleave: bool = False,
    responses_create_params_overrides: dict[str, Any] | None = None,
) -> int:
    """Write Gym-compatible materialized inputs atomically; returns the row count."""
    rows = materialize_rows(read_raw_rows(input_path, require_agent_ref=not agent_name), num_repeats, agent_name,
                            interleave, responses_create_params_overrides)
    return write_jsonl_atomic(output_path, rows)
