"""NeMo Gym 0.7.0 file formats: row models and streaming JSONL readers/writers.

Every reader yields rows one at a time and reports a malformed line as a
`JsonlFormatError` naming the file, the 1-based line number and the field, so a
bad row in a million-line file is found without loading the file.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import orjson
from pydantic import BaseModel, ConfigDict, Field, ValidationError

TASK_INDEX = "_ng_task_index"
ROLLOUT_INDEX = "_ng_rollout_index"
AGENT_REF = "agent_ref"
ATTEMPT_INDEX = "_ng_attempt_index"
RESPONSES_CREATE_PARAMS = "responses_create_params"

# Gym derives every file of a run from the `--output` stem (`rollouts.jsonl`).
MATERIALIZED_INPUTS_FILE = "rollouts_materialized_inputs.jsonl"
ROLLOUTS_FILE = "rollouts.jsonl"
FAILURES_FILE = "rollouts_failures.jsonl"
REWARD_PROFILE_FILE = "rollouts_reward_profiling.jsonl"
AGENT_METRICS_FILE = "rollouts_agent_metrics.json"
REPEAT_LEVEL_METRICS_FILE = "rollouts_repeat_level_metrics.json"
DIAGNOSIS_FILE = "diagnosis.json"  # ours: the diagnosis of a run folder

_SCAN_CHUNK_BYTES = 1 << 20
log = logging.getLogger(__name__)


def attempt_stamp(attempt: int) -> dict[str, int]:
    """The attempt index as Gym stamps it: on retries only; the first attempt (0) is left unstamped."""
    return {ATTEMPT_INDEX: attempt} if attempt else {}


def sibling_path(rollouts_path: Path, suffix: str) -> Path:
    """The file Gym names from a rollouts path: `out/rollouts.jsonl` + `_failures.jsonl`."""
    return rollouts_path.with_name(rollouts_path.stem + suffix)


class JsonlFormatError(ValueError):
    """A JSONL line that is not a valid row; names file, line and field."""

    def __init__(self, path: Path | str, line: int, field: str | None, message: str):
        self.path = Path(path)
        self.line = line
        self.field = field
        self.message = message
        where = f"{self.path}:{line}"
        what = f"field '{field}': {message}" if field else message
        super().__init__(f"{where}: {what}")


class AgentRef(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: str


class _GymRow(BaseModel):
    """Gym rows carry arbitrary dataset fields beside the ones we read: keep them all."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)


class InputRow(_GymRow):
    """A raw dataset row: the Responses API request plus verifier fields."""

    responses_create_params: dict[str, Any]


class MaterializedInputRow(InputRow):
    """One (task, repeat) row of `*_materialized_inputs.jsonl`."""

    agent_ref: AgentRef
    task_index: int = Field(alias=TASK_INDEX, ge=0)
    rollout_index: int = Field(alias=ROLLOUT_INDEX, ge=0)


class Usage(_GymRow):
    input_tokens: int = Field(ge=0)
    output_tokens: int = Field(ge=0)
    total_tokens: int = Field(ge=0)


class ResponseObject(_GymRow):
    """The OpenAI Responses object a rollout carries; we rely on `usage` and `output`."""

    output: list[dict[str, Any]] = Field(default_factory=list)
    usage: Usage | None = None


class RolloutRow(_GymRow):
    """One completed rollout of `rollouts.jsonl`: the verifier's response."""

    reward: float
    response: ResponseObject
    task_index: int = Field(alias=TASK_INDEX, ge=0)
    rollout_index: int = Field(alias=ROLLOUT_INDEX, ge=0)
    agent_ref: AgentRef | None = None
    mask_sample: bool | None = None
    failure_kind: str | None = None
    failure_reason: str | None = None


class FailureRow(_GymRow):
    """One failed attempt in the `rollouts_failures.jsonl` sidecar."""

    failure_class: str = Field(alias="_ng_failure_class")
    failure_type: str | None = Field(default=None, alias="_ng_failure_type")
    failure_message: str | None = Field(default=None, alias="_ng_failure_message")
    failure_http_status: int | None = Field(default=None, alias="_ng_failure_http_status")
    failure_response_body: str | None = Field(default=None, alias="_ng_failure_response_body")
    failure_terminal: bool | None = Field(default=None, alias="_ng_failure_terminal")
    task_index: int = Field(alias=TASK_INDEX, ge=0)
    rollout_index: int = Field(alias=ROLLOUT_INDEX, ge=0)


class RolloutInfo(_GymRow):
    rollout_id: str
    task_index: int = Field(alias=TASK_INDEX)
    rollout_index: int = Field(alias=ROLLOUT_INDEX)
    reward: float


class RewardProfileRow(_GymRow):
    """One task of `*_reward_profiling.jsonl`; `mean/<f>`... stats are extra fields."""

    task_index: int = Field(alias=TASK_INDEX, ge=0)
    sample: dict[str, Any]
    num_rollouts: int
    expected_num_rollouts: int
    missing_num_rollouts: int
    reward_profile_completion_pct: float
    rollout_infos: list[RolloutInfo]


RowModel = TypeVar("RowModel", bound=BaseModel)


def _field_of(error: ValidationError) -> str:
    first = error.errors()[0]
    return ".".join(str(part) for part in first["loc"]) or "(row)"


def require_file(path: Path | str, what: str = "file") -> Path:
    """`path` if it is a file to read; else a FileNotFoundError naming it (a folder given for a file, too)."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: {what} not found" if not path.exists() else f"{path}: a folder, not a {what}")
    return path


def iter_jsonl_dicts(path: Path | str) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield (line number, parsed object) for each non-blank line, streaming."""
    path = require_file(path)
    with path.open("rb") as handle:
        for line_number, raw in enumerate(handle, start=1):
            if not raw.strip():
                continue
            try:
                value = orjson.loads(raw)
            except orjson.JSONDecodeError as error:
                raise JsonlFormatError(path, line_number, None, f"not valid JSON ({error})") from None
            if not isinstance(value, dict):
                raise JsonlFormatError(path, line_number, None, f"expected a JSON object, got {type(value).__name__}")
            yield line_number, value


def validate_row(path: Path | str, line_number: int, value: dict[str, Any], model: type[RowModel]) -> RowModel:
    try:
        return model.model_validate(value)
    except ValidationError as error:
        message = error.errors()[0]["msg"]
        raise JsonlFormatError(path, line_number, _field_of(error), message) from None


def read_rows(path: Path | str, model: type[RowModel]) -> Iterator[RowModel]:
    """Stream typed rows of `model` from a JSONL file."""
    for line_number, value in iter_jsonl_dicts(path):
        yield validate_row(path, line_number, value, model)


def dumps_row(row: dict[str, Any]) -> bytes:
    """Serialize a row the way Gym does (orjson, compact, one line)."""
    return orjson.dumps(row) + b"\n"


@contextmanager
def atomic_file(path: Path | str) -> Iterator[Path]:
    """A temporary name in `path`'s folder to write the whole file to: renamed onto `path` when the block
    ends, removed when it raises. Readers never see half a file, and a failed write leaves the old one.

        with atomic_file(target) as temporary:
            pq.write_table(table, temporary)
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        yield temporary
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def write_jsonl_atomic(path: Path | str, rows: Iterable[dict[str, Any]]) -> int:
    """Write rows to a temporary file and rename it into place: readers never see half a file."""
    count = 0
    with atomic_file(path) as temporary, temporary.open("wb") as handle:
        for row in rows:
            handle.write(dumps_row(row))
            count += 1
        handle.flush()
        os.fsync(handle.fileno())
    return count


def write_bytes_atomic(path: Path | str, data: bytes) -> None:
    """Write a whole file through a temporary file in the same folder, renamed into place."""
    with atomic_file(path) as temporary, temporary.open("wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def write_json_atomic(path: Path | str, value: Any, indent: bool = False) -> None:
    write_bytes_atomic(path, orjson.dumps(value, option=orjson.OPT_INDENT_2 if indent else 0))


class JsonlAppender:
    """Append-only JSONL writer that flushes each row, so a killed run loses at most the row in flight."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        drop_torn_last_line(self.path)
        self._handle = self.path.open("ab")

    def append(self, row: dict[str, Any]) -> None:
        self._handle.write(dumps_row(row))
        self._handle.flush()

    def close(self) -> None:
        self._handle.close()

    def __enter__(self) -> JsonlAppender:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


@dataclass(frozen=True)
class TornLine:
    """An unterminated last line cut off a JSONL file: which line it was and how many bytes it had."""

    path: Path
    line: int
    bytes_removed: int

    def __str__(self) -> str:
        return (f"{self.path}:{self.line}: removed a torn last line ({self.bytes_removed} bytes without a newline, "
                "left by an interrupted write)")


def drop_torn_last_line(path: Path | str) -> TornLine | None:
    """A run killed mid-write can leave a last line without its newline: cut it off before appending.

    Returns what was cut (None when the file ends cleanly) and logs it as a warning, so a repair is
    never silent. The file is scanned in chunks, not loaded whole.
    """
    path = Path(path)
    if not path.exists() or path.stat().st_size == 0:
        return None
    with path.open("rb+") as handle:
        size = handle.seek(0, os.SEEK_END)
        handle.seek(-1, os.SEEK_END)
        if handle.read(1) == b"\n":
            return None
        handle.seek(0)
        complete_lines = kept_bytes = offset = 0
        while chunk := handle.read(_SCAN_CHUNK_BYTES):
            if newlines := chunk.count(b"\n"):
                complete_lines += newlines
                kept_bytes = offset + chunk.rfind(b"\n") + 1
            offset += len(chunk)
        handle.truncate(kept_bytes)
    torn = TornLine(path, complete_lines + 1, size - kept_bytes)
    log.warning("%s", torn)
    return torn


def count_lines(path: Path | str) -> int:
    """Non-blank lines of a file, or 0 when it does not exist."""
    path = Path(path)
    if not path.exists():
        return 0
    with path.open("rb") as handle:
        return sum(1 for line in handle if line.strip())
