"""Reading Gym's two JSONL files into compact arrays, one byte range at a time.

`line_ranges` splits a file on line boundaries; `scan_inputs` / `scan_rollouts` parse one range
(in a worker process for large files) into flat arrays: per row its key, line and a few flags, and
for a rollout its profiled numbers. Rows with the same keys and value types share a layout worked
out once; a row off that fast path is validated by pydantic and follows Gym's rules for one row
(`profiled_values`, `rollout_info`). `merge_inputs` / `merge_rollouts` join the ranges back in file
order and raise the error a line-by-line reader would meet first, as `file:line: field ...`.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from operator import itemgetter
from pathlib import Path
from typing import Any

import numpy as np
import orjson
from pydantic import BaseModel, ValidationError

from gym_pipeline.core.formats import (
    AGENT_REF,
    RESPONSES_CREATE_PARAMS,
    ROLLOUT_INDEX,
    TASK_INDEX,
    JsonlFormatError,
    MaterializedInputRow,
    RolloutRow,
)

RolloutKey = tuple[int, int]

MASK_SAMPLE = "mask_sample"
ENVIRONMENT_SERVER = "_ng_environment_server"


class DuplicateRolloutKeyError(JsonlFormatError):
    """The same (task, rollout) key appears twice in one file."""

    def __init__(self, path: Path | str, line: int, key: RolloutKey, first_line: int, what: str):
        self.key = key
        self.first_line = first_line
        path = Path(path)
        # the failures sidecar holds a row per failed attempt: repeated keys are its nature, not a fault
        sidecar = path.name.endswith("_failures.jsonl")
        hint = (f": this is the failures sidecar (a row per failed attempt), not rollouts; give --rollouts "
                f"{path.with_name(path.name.removesuffix('_failures.jsonl') + '.jsonl')}") if sidecar else ""
        super().__init__(
            path, line, None, f"Duplicate {what} row for rollout key {key} (first seen at line {first_line}){hint}"
        )


# --------------------------------------------------------------------------------------------------
# Gym's rules for one measured result (a rollout row without `mask_sample`). The fast path below
# reproduces them per row layout; rows off the fast path go through these functions directly.


def _number(value: Any) -> int | float | None:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)):
        return value
    return None


def _usage_of(result: dict[str, Any]) -> dict[str, Any]:
    return (result.get("response") or {}).get("usage") or {}


def profiled_values(result: dict[str, Any]) -> dict[str, int | float]:
    """The fields Gym profiles: numeric values of `result | response.usage`, private fields left out. The
    top-level `mask_sample` is a flag Gym strips before profiling; one inside `usage` is profiled like any
    usage field."""
    values: dict[str, int | float] = {}
    measured = {name: value for name, value in result.items() if name != MASK_SAMPLE}
    for name, value in (measured | _usage_of(result)).items():
        number = _number(value)
        if number is not None and not name.startswith("_"):
            values[name] = number
    return values


def rollout_info(result: dict[str, Any]) -> dict[str, Any]:
    """The `rollout_infos` entry: id, indices, reward, numeric usage fields, then other numeric fields."""
    task, repeat = result[TASK_INDEX], result[ROLLOUT_INDEX]
    info: dict[str, Any] = {"rollout_id": f"{task}:{repeat}", TASK_INDEX: task, ROLLOUT_INDEX: repeat}
    if "reward" in result:
        info["reward"] = result.get("reward")
    for name, value in _usage_of(result).items():
        number = _number(value)
        if number is not None:
            info[name] = number
    for name, value in result.items():
        if name.startswith("_") or name in ("reward", "response", MASK_SAMPLE):
            continue
        number = _number(value)
        if number is not None:
            info[name] = number
    return info


def _cut_off(response: dict[str, Any]) -> bool:
    """Whether the length limit stopped the response (for the reward analysis)."""
    details = response.get("incomplete_details")
    return response.get("status") == "incomplete" or (
        type(details) is dict and details.get("reason") == "max_output_tokens"
    )


# --------------------------------------------------------------------------------------------------
# Scanning one byte range of a file into compact arrays (runs in worker processes for large files).
# This is the per-row hot loop: a few microseconds per row besides JSON parsing.

BATCH_BYTES = 1 << 20  # lines are read in batches of about this size
_EXACT_INT = 2**53  # every integer up to this magnitude is exact in a float64
_INDEX_LIMIT = 2**63
_NUMBER_TYPES = frozenset((int, float, bool))
_NONE = type(None)
_TOKEN_FIELDS = ("input_tokens", "output_tokens", "total_tokens")
_tokens = itemgetter(*_TOKEN_FIELDS)
_NO_OUTPUT: list[Any] = []  # `response.output` defaults to an empty list


def line_ranges(path: Path, parts: int) -> list[tuple[int, int]]:
    """Up to `parts` byte ranges covering the file, each starting at a line start."""
    size = path.stat().st_size
    bounds = [0]
    with path.open("rb") as handle:
        for part in range(1, parts):
            handle.seek(max(size * part // parts, bounds[-1]))
            handle.readline()
            if handle.tell() >= size:
                break
            if handle.tell() > bounds[-1]:
                bounds.append(handle.tell())
    bounds.append(size)
    return list(zip(bounds, bounds[1:], strict=False))


def line_batches(path: Path, start: int, end: int) -> Iterator[list[bytes]]:
    """The lines starting in [start, end) (`start` at a line start), in batches."""
    with path.open("rb", buffering=BATCH_BYTES) as handle:  # a large buffer: far fewer, larger reads
        handle.seek(start)
        remaining = end - start
        while remaining > 0:
            batch = handle.readlines(min(BATCH_BYTES, remaining))
            if not batch:
                return
            size = sum(map(len, batch))
            while size - len(batch[-1]) >= remaining:  # lines starting at or after `end`
                size -= len(batch.pop())
            remaining -= size
            yield batch


def _not_an_object(path: Path, number: int, raw: bytes) -> JsonlFormatError | None:
    """Why a line that is not a JSON object is an error; None for a blank line."""
    if not raw.strip():
        return None
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError as error:
        return JsonlFormatError(path, number, None, f"not valid JSON ({error})")
    return JsonlFormatError(path, number, None, f"expected a JSON object, got {type(value).__name__}")


def _load(path: Path, number: int, raw: bytes) -> dict[str, Any] | None:
    """The JSON object on a line; None for a blank line."""
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        value = None
    if type(value) is dict:
        return value
    if error := _not_an_object(path, number, raw):
        raise error
    return None


# --------------------------------------------------------------------------------------------------
# Foreign folders: what Gym requires of a row is required; anything else our row models would refuse is
# read as Gym reads it and reported (file:line, field). Files our own pipeline writes are strict.


@dataclass
class Tolerated:
    """Deviations from our row models read as Gym does: per (field, message) the first line and a count."""

    found: dict[tuple[str, str], list[int]] = field(default_factory=dict)

    def add(self, line: int, field_name: str, message: str) -> None:
        entry = self.found.setdefault((field_name, message), [line, 0])
        entry[1] += 1

    def shifted(self, base: int) -> dict[tuple[str, str], list[int]]:
        return {key: [line + base, count] for key, (line, count) in self.found.items()}


def _deviations(row: dict[str, Any], model: type[BaseModel]) -> list[tuple[str, str]]:
    """(field, message) of everything `model` refuses in `row`; empty when it is valid."""
    try:
        model.model_validate(row)
    except ValidationError as error:
        return [(".".join(str(part) for part in item["loc"]) or "(row)", item["msg"]) for item in error.errors()]
    return []


def _tolerate(path: Path, number: int, row: dict[str, Any], model: type[BaseModel],
              tolerated: Tolerated | None) -> None:
    """Raise our models' first objection to `row` when strict (`tolerated` is None), else note them all."""
    deviations = _deviations(row, model)
    if deviations and tolerated is None:
        raise JsonlFormatError(path, number, *deviations[0])
    for field_name, message in deviations:
        tolerated.add(number, field_name, message)


def _gym_index(path: Path, number: int, row: dict[str, Any], name: str) -> int:
    """A rollout key part, which Gym needs in every row; we also need it a non-negative 64-bit integer."""
    if name not in row:
        raise JsonlFormatError(path, number, name, "missing (Gym needs it in every row too)")
    value = row[name]
    if type(value) is not int or not 0 <= value < _INDEX_LIMIT:
        raise JsonlFormatError(path, number, name, f"must be a non-negative 64-bit integer, got "
                               f"{orjson.dumps(value).decode()}")
    return value


def _object_or_empty(path: Path, number: int, value: Any, field_name: str) -> dict[str, Any]:
    """Gym's `value or {}`: a falsy value is empty; anything else must be an object (Gym fails on it)."""
    if not value:
        return {}
    if type(value) is not dict:
        raise JsonlFormatError(path, number, field_name, f"expected an object or null, got {type(value).__name__} "
                               "(Gym fails on it too)")
    return value


@dataclass
class _InputsChunk:
    """The materialized rows of one byte range."""

    lines: int = 0
    rows: array = field(default_factory=partial(array, "q"))  # per row: the fields of _INPUT_COLUMNS
    runs: dict[tuple[str, str | None], int] = field(default_factory=dict)  # (run key, agent name) -> id
    error: tuple[int, str | None, str] | None = None  # (line, field, message) of the first bad line
    tolerated: Tolerated | None = None  # None: strict

    def add(self, path: Path, number: int, row: dict[str, Any], offset: int, length: int) -> None:
        task, repeat, agent = _input_identity(path, number, row, self.tolerated)
        server = row.get(ENVIRONMENT_SERVER)
        if server is not None and type(server) is not str:
            raise JsonlFormatError(path, number, ENVIRONMENT_SERVER, "expected a string or null")
        run_id = self.runs.setdefault((agent if server is None else server, agent), len(self.runs))
        self.rows.extend((task, repeat, number, offset, length, run_id))


def _input_identity(path: Path, number: int, row: dict[str, Any],
                    tolerated: Tolerated | None) -> tuple[int, int, str | None]:
    """(task, rollout, agent name) of a materialized row; anything unusual is judged by Gym's needs (the
    indices, and an agent or an environment server to group by) and reported, or refused when strict."""
    task, repeat, ref = row.get(TASK_INDEX), row.get(ROLLOUT_INDEX), row.get(AGENT_REF)
    if (
        type(task) is int
        and type(repeat) is int
        and 0 <= task < _INDEX_LIMIT
        and 0 <= repeat < _INDEX_LIMIT
        and type(row.get(RESPONSES_CREATE_PARAMS)) is dict
        and type(ref) is dict
        and type(ref.get("name")) is str
    ):
        return task, repeat, ref["name"]
    task, repeat = _gym_index(path, number, row, TASK_INDEX), _gym_index(path, number, row, ROLLOUT_INDEX)
    name = _object_or_empty(path, number, ref, AGENT_REF).get("name")
    if name is not None and type(name) is not str:
        raise JsonlFormatError(path, number, f"{AGENT_REF}.name", "must be a string")
    if name is None and row.get(ENVIRONMENT_SERVER) is None:
        raise JsonlFormatError(path, number, AGENT_REF, "missing, and no _ng_environment_server either: nothing "
                               "names what ran the row (Gym leaves such rows out of its agent metrics)")
    _tolerate(path, number, row, MaterializedInputRow, tolerated)
    return task, repeat, name


def scan_inputs(path: Path, start: int, end: int, strict: bool = False) -> _InputsChunk:
    chunk = _InputsChunk(tolerated=None if strict else Tolerated())
    number, offset = 0, start
    try:
        for batch in line_batches(path, start, end):
            for raw in batch:
                number += 1
                offset += len(raw)
                row = _load(path, number, raw)
                if row is not None:
                    chunk.add(path, number, row, offset - len(raw), len(raw))
        chunk.lines = number
    except JsonlFormatError as error:
        chunk.error = (error.line, error.field, error.message)
    return chunk


@dataclass(frozen=True)
class _Layout:
    """How rollout rows of one kind carry their profiled numbers.

    `names` in Gym's column order within the row, which of them are floats (the others are ints, for
    `rollout_infos`), and the `rollout_infos` order as positions into `names` (None: each row's info is
    kept whole, for rows off the fast path).
    """

    names: tuple[str, ...]
    floats: tuple[bool, ...]
    info: tuple[int, ...] | None


_MASKED_LAYOUT = _Layout((), (), ())  # masked rows carry no numbers into the statistics


def _getter(names: tuple[str, ...]) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    if len(names) > 1:
        return itemgetter(*names)
    if names:
        name = names[0]
        return lambda row: (row[name],)
    return lambda row: ()


def _shape_key(row: dict[str, Any], usage: Any) -> tuple[Any, ...]:
    """Top-level and usage keys with their value types: rows with equal keys are handled alike."""
    if type(usage) is dict:
        return (*row, *map(type, row.values()), *usage, *map(type, usage.values()))
    return (*row, *map(type, row.values()), usage is None)


class _Shape:
    """What all rollout rows of one `_shape_key` share, worked out once.

    `fast`: the types alone satisfy `RolloutRow` (only a few values remain to check per row), no usage
    field clashes with a top-level one and no usage number is private, so Gym's rules reduce to picking
    the numbers by name: `top`, then `usage`.
    """

    def __init__(self, row: dict[str, Any], usage: Any, layout_id: Callable[[_Layout], int]):
        usage_fits = usage is None or (
            type(usage) is dict
            and all(type(usage.get(name)) is int for name in _TOKEN_FIELDS)
            and not usage.keys() & row.keys()
            and not any(name.startswith("_") and type(value) in _NUMBER_TYPES for name, value in usage.items())
        )
        self.fast = (
            usage_fits
            and type(row.get("reward")) in (int, float)
            and type(row.get("response")) is dict
            and type(row.get(TASK_INDEX)) is int
            and type(row.get(ROLLOUT_INDEX)) is int
            and type(row.get(AGENT_REF)) in (dict, _NONE)
            and type(row.get(MASK_SAMPLE)) in (bool, _NONE)
            and type(row.get("failure_kind")) in (str, _NONE)
            and type(row.get("failure_reason")) in (str, _NONE)
        )
        self.agent_ref_is_dict = type(row.get(AGENT_REF)) is dict
        if not self.fast:
            return
        top = tuple(
            name for name, value in row.items()
            if type(value) in _NUMBER_TYPES and not name.startswith("_") and name != MASK_SAMPLE
        )
        used = tuple(name for name, value in (usage or {}).items() if type(value) in _NUMBER_TYPES)
        floats = tuple(type(row[name]) is float for name in top) + tuple(type(usage[name]) is float for name in used)
        reward_at = top.index("reward")
        info = (reward_at, *range(len(top), len(top) + len(used)), *(i for i in range(len(top)) if i != reward_at))
        self.layout_id = layout_id(_Layout(top + used, floats, info))
        self.top = _getter(top)
        self.usage = _getter(used)
        self.has_ints = not all(floats)


@dataclass
class _RolloutsChunk:
    """The rollout rows of one byte range."""

    lines: int = 0
    rows: array = field(default_factory=partial(array, "q"))  # per row: the fields of _ROLLOUT_COLUMNS
    scores: array = field(default_factory=partial(array, "d"))  # per row: reward, output tokens (NaN: no usage)
    values: array = field(default_factory=partial(array, "d"))  # per row: its numbers, in its layout's order
    layouts: dict[_Layout, int] = field(default_factory=dict)  # layout -> id, in id order
    infos: dict[int, bytes] = field(default_factory=dict)  # row -> its rollout_infos entry, off the fast path
    error: tuple[int, str | None, str] | None = None
    tolerated: Tolerated | None = None  # None: strict

    def layout_id(self, layout: _Layout) -> int:
        return self.layouts.setdefault(layout, len(self.layouts))

    def add_fast(self, shape: _Shape, number: int, row: dict[str, Any], response: dict[str, Any],
                 usage: dict[str, Any] | None) -> bool:
        """Record a row of a fast shape; False when one of its values needs pydantic's verdict."""
        task, repeat = row[TASK_INDEX], row[ROLLOUT_INDEX]
        if not (0 <= task < _INDEX_LIMIT and 0 <= repeat < _INDEX_LIMIT):
            return False
        if shape.agent_ref_is_dict and type(row[AGENT_REF].get("name")) is not str:
            return False
        output = response.get("output", _NO_OUTPUT)
        if type(output) is not list:
            return False
        for item in output:
            if type(item) is not dict:
                return False
        if usage is not None and min(_tokens(usage)) < 0:
            return False
        masked = row.get(MASK_SAMPLE) is True
        if masked:
            layout_id, values = self.layout_id(_MASKED_LAYOUT), ()
        else:
            layout_id, values = shape.layout_id, shape.top(row) + shape.usage(usage)
            if shape.has_ints and (max(values) > _EXACT_INT or min(values) < -_EXACT_INT):
                return False
        details = response.get("incomplete_details")
        cut_off = response.get("status") == "incomplete" or (
            type(details) is dict and details.get("reason") == "max_output_tokens"
        )
        self.rows.extend((task, repeat, number, masked, cut_off, layout_id))
        self.scores.extend((row["reward"], math.nan if usage is None else usage["output_tokens"]))
        self.values.extend(values)
        return True

    def add_exact(self, path: Path, number: int, row: dict[str, Any]) -> None:
        """Record a row by Gym's rules applied to the row itself, after checking what Gym needs of it (the
        indices; `response` and its `usage` objects or empty) and what our row model would refuse (reported,
        or refused when strict). A row without a numeric reward is unscored: its reward is NaN here."""
        task, repeat = _gym_index(path, number, row, TASK_INDEX), _gym_index(path, number, row, ROLLOUT_INDEX)
        response = _object_or_empty(path, number, row.get("response"), "response")
        usage = _object_or_empty(path, number, response.get("usage"), "response.usage")
        _tolerate(path, number, row, RolloutRow, self.tolerated)
        masked = bool(row.get(MASK_SAMPLE))  # Gym tests the raw value's truth
        layout_id, values = self.layout_id(_MASKED_LAYOUT), ()
        if not masked:
            numbers = profiled_values(row)
            values = tuple(numbers.values())
            layout_id = self.layout_id(_Layout(tuple(numbers), tuple(type(v) is float for v in values), None))
            self.infos[len(self.scores) // 2] = orjson.dumps(rollout_info(row))
        reward, output_tokens = _number(row.get("reward")), _number(usage.get("output_tokens"))
        self.rows.extend((task, repeat, number, masked, _cut_off(response), layout_id))
        self.scores.extend((math.nan if reward is None else reward,
                            math.nan if output_tokens is None else output_tokens))
        self.values.extend(values)


def scan_rollouts(path: Path, start: int, end: int, strict: bool = False) -> _RolloutsChunk:
    chunk = _RolloutsChunk(tolerated=None if strict else Tolerated())
    shapes: dict[tuple[Any, ...], _Shape] = {}
    last_key: tuple[Any, ...] = ()
    shape: _Shape | None = None
    number = 0
    try:
        for batch in line_batches(path, start, end):
            for raw in batch:
                number += 1
                row = _load(path, number, raw)
                if row is None:
                    continue
                response = row.get("response")
                usage = response.get("usage") if type(response) is dict else None
                key = _shape_key(row, usage)
                if key != last_key:  # consecutive rows mostly share a shape: skip hashing the key
                    shape = shapes.get(key)
                    if shape is None:
                        shape = shapes[key] = _Shape(row, usage, chunk.layout_id)
                    last_key = key
                if not (shape.fast and chunk.add_fast(shape, number, row, response, usage)):
                    chunk.add_exact(path, number, row)
        chunk.lines = number
    except JsonlFormatError as error:
        chunk.error = (error.line, error.field, error.message)
    return chunk


# --------------------------------------------------------------------------------------------------
# Merging the ranges back in file order


def _concat(parts: Sequence[array], dtype: type, width: int = 1) -> np.ndarray:
    """Arrays of `width` values per row as one (rows, width) array, or flat when width is 1."""
    flat = np.concatenate([np.frombuffer(part, dtype=dtype) for part in parts] or [np.empty(0, dtype)])
    return flat if width == 1 else flat.reshape(-1, width)


def _valid_prefix(path: Path, chunks: Sequence[Any]) -> tuple[list[Any], list[int], JsonlFormatError | None]:
    """The chunks up to the first bad line, their first line numbers in the file, and that line's error."""
    used, bases, base = [], [], 0
    for chunk in chunks:
        used.append(chunk)
        bases.append(base)
        if chunk.error is not None:
            line, field_name, message = chunk.error
            return used, bases, JsonlFormatError(path, base + line, field_name, message)
        base += chunk.lines
    return used, bases, None


def _tolerated_kinds(chunks: Sequence[Any], bases: Sequence[int]) -> dict[tuple[str, str], list[int]]:
    """Each kind of deviation read as Gym does, (field, message), with its first line and how many rows have it."""
    merged: dict[tuple[str, str], list[int]] = {}
    for chunk, base in zip(chunks, bases, strict=True):
        for key, (line, count) in (chunk.tolerated.shifted(base) if chunk.tolerated else {}).items():
            entry = merged.setdefault(key, [line, 0])
            entry[0], entry[1] = min(entry[0], line), entry[1] + count
    return merged


def _tolerance_warnings(path: Path, merged: dict[tuple[str, str], list[int]]) -> list[str]:
    """One warning per kind of deviation read as Gym does, naming its first line and how many rows have it."""
    return [f"{path}:{line}: field '{field_name}': {message}; read as NeMo Gym 0.7.0 reads it"
            + (f" ({count} rows like it)" if count > 1 else "")
            for (field_name, message), (line, count) in sorted(merged.items(), key=lambda item: item[1][0])]


def _columns_of(chunks: Sequence[Any], bases: Sequence[int], fields: dict[str, Any], id_field: str,
                table: str) -> tuple[dict[str, np.ndarray], list[Any]]:
    """The chunks' rows as one compact column per field, with line numbers counted from the start of the
    file and each chunk's ids (`id_field`, into `chunk.<table>`) renumbered into one merged table.
    Each chunk's rows are dropped once copied."""
    width, id_at = len(fields), list(fields).index(id_field)
    columns = {name: np.empty(sum(len(c.rows) for c in chunks) // width, dtype) for name, dtype in fields.items()}
    merged: dict[Any, int] = {}
    at = 0
    for chunk, base in zip(chunks, bases, strict=True):
        rows = np.frombuffer(chunk.rows, dtype=np.int64).reshape(-1, width)
        end = at + len(rows)
        for i, column in enumerate(columns.values()):
            column[at:end] = rows[:, i]
        columns["line"][at:end] += base
        remap = np.array([merged.setdefault(entry, len(merged)) for entry in getattr(chunk, table)], dtype=np.int64)
        columns[id_field][at:end] = remap[rows[:, id_at]]
        del rows
        chunk.rows = array("q")
        at = end
    return columns, list(merged)


def _key_order(path: Path, what: str, columns: dict[str, np.ndarray], error: JsonlFormatError | None) -> np.ndarray:
    """The rows sorted by key, after raising what a line-by-line reader meets first: a bad line or a
    repeated key."""
    order = np.lexsort((columns["rollout"], columns["task"]))
    duplicate = _first_duplicate(columns["task"], columns["rollout"], columns["line"], order)
    if duplicate is not None and (error is None or duplicate[0] < error.line):
        raise DuplicateRolloutKeyError(path, duplicate[0], duplicate[1], duplicate[2], what)
    if error is not None:
        raise error
    return order


def _first_duplicate(task: np.ndarray, rollout: np.ndarray, line: np.ndarray,
                     order: np.ndarray) -> tuple[int, RolloutKey, int] | None:
    """(line, key, first line) of the earliest line repeating a key; `order` sorts by key, stably."""
    t, r = task[order], rollout[order]
    repeats = np.flatnonzero((t[1:] == t[:-1]) & (r[1:] == r[:-1])) + 1
    if not len(repeats):
        return None
    lines = line[order]
    firsts = np.ones(len(order), dtype=bool)
    firsts[repeats] = False
    first_of = np.maximum.accumulate(np.where(firsts, np.arange(len(order)), 0))
    at = repeats[np.argmin(lines[repeats])]
    return int(lines[at]), (int(t[at]), int(r[at])), int(lines[first_of[at]])


_INPUT_COLUMNS = {"task": np.int64, "rollout": np.int64, "line": np.int64, "offset": np.int64, "length": np.int64,
                  "run": np.int32}


@dataclass
class Inputs:
    """All materialized rows, in file order."""

    task: np.ndarray
    rollout: np.ndarray
    offset: np.ndarray
    length: np.ndarray
    run: np.ndarray
    runs: list[tuple[str, str | None]]  # (run key, agent name) by run id
    order: np.ndarray  # rows sorted by key
    tolerated: list[str]  # warnings: deviations read as Gym reads them


def merge_inputs(path: Path, chunks: Sequence[_InputsChunk]) -> Inputs:
    used, bases, error = _valid_prefix(path, chunks)
    tolerated = _tolerance_warnings(path, _tolerated_kinds(used, bases))
    columns, runs = _columns_of(used, bases, _INPUT_COLUMNS, "run", "runs")
    order = _key_order(path, "materialized input", columns, error)
    return Inputs(columns["task"], columns["rollout"], columns["offset"], columns["length"], columns["run"], runs,
                  order, tolerated)


_ROLLOUT_COLUMNS = {"task": np.int64, "rollout": np.int64, "line": np.int64, "masked": np.bool_,
                    "cut_off": np.bool_, "layout": np.int32}


@dataclass
class Results:
    """All rollout rows, sorted by key; each row's profiled numbers are `values[value_start:...]`."""

    task: np.ndarray
    rollout: np.ndarray
    line: np.ndarray
    masked: np.ndarray
    cut_off: np.ndarray
    reward: np.ndarray
    output_tokens: np.ndarray
    layout: np.ndarray
    value_start: np.ndarray
    values: np.ndarray
    layouts: list[_Layout]
    infos: dict[int, bytes]  # row -> rollout_infos entry, for rows off the fast path
    tolerated: list[str]  # warnings: deviations read as Gym reads them


def merge_rollouts(path: Path, chunks: Sequence[_RolloutsChunk]) -> Results:
    used, bases, error = _valid_prefix(path, chunks)
    kinds = _tolerated_kinds(used, bases)
    tolerated = _tolerance_warnings(path, kinds)
    scores = _concat([chunk.scores for chunk in used], np.float64, 2)
    values = _concat([chunk.values for chunk in used], np.float64)
    infos, first_row = {}, 0
    for chunk in used:
        infos.update((first_row + row, info) for row, info in chunk.infos.items())
        first_row += len(chunk.scores) // 2
        chunk.scores, chunk.values = array("d"), array("d")
    columns, layouts = _columns_of(used, bases, _ROLLOUT_COLUMNS, "layout", "layouts")
    order = _key_order(path, "rollout result", columns, error)
    without_reward = sum(count for (field_name, _), (_, count) in kinds.items() if field_name == "reward")
    if len(order) and without_reward == len(order):  # Gym profiles such a file too, every reward read as 0
        tolerated.append(f"{path}: no row has a 'reward': it reads like materialized inputs, not rollouts "
                         "(are --inputs and --rollouts swapped?)")
    lengths = np.array([len(layout.names) for layout in layouts], dtype=np.int64)[columns["layout"]]
    columns["value_start"] = np.cumsum(lengths) - lengths
    del lengths
    for name in columns:  # into key order, one column at a time
        columns[name] = columns[name][order]
    position = np.empty(len(order), dtype=np.int64)
    position[order] = np.arange(len(order))
    return Results(
        **columns, reward=scores[order, 0], output_tokens=scores[order, 1], values=values, layouts=layouts,
        infos={int(position[row]): info for row, info in infos.items()}, tolerated=tolerated,
    )
