"""Evidence collectors: stream a NeMo Gym run folder once and record facts, not verdicts.

`collect_evidence(run_dir)` reads every file of one run (Gym's names, any `--output` stem) and the
`*.log` files beside it, one line at a time, and returns an `Evidence` that the rules interpret.
Nothing here decides a category: a collector only counts, groups and points at file:line.

A malformed line is recorded (file, line, field, message) and reading goes on, so a torn last
line or one bad row is evidence for a `data_schema` finding instead of a crash.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from pydantic import BaseModel, ConfigDict, field_validator

from gym_pipeline.gym.formats import (
    FAILURES_FILE,
    MATERIALIZED_INPUTS_FILE,
    REWARD_PROFILE_FILE,
    ROLLOUT_INDEX,
    ROLLOUTS_FILE,
    TASK_INDEX,
    JsonlFormatError,
)

# File names of one run, derived from the shared constants: `<stem>.jsonl`, `<stem>_failures.jsonl`...
DEFAULT_STEM = ROLLOUTS_FILE.removesuffix(".jsonl")
MATERIALIZED_SUFFIX = MATERIALIZED_INPUTS_FILE.removeprefix(DEFAULT_STEM)
FAILURES_SUFFIX = FAILURES_FILE.removeprefix(DEFAULT_STEM)
PROFILE_SUFFIX = REWARD_PROFILE_FILE.removeprefix(DEFAULT_STEM)

LOG_GLOBS = ("*.log",)
LOG_SUBDIRS = (".", "logs")

MAX_TEXT_CHARS = 300  # one evidence line
MAX_BODY_CHARS = 200_000  # a failure body is unwrapped from at most this many characters
MAX_EXAMPLES = 20  # example lines kept per kind of fact
MAX_FAILURE_GROUPS = 50

Key = tuple[int, int]


# ---------------------------------------------------------------------------------------------
# Evidence lines: redacted and truncated at construction, so no secret can reach a report.

_SECRET_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    # Authorization: Bearer <token> (and any other "Bearer <token>")
    (re.compile(r"(?i)\b(bearer\s+)[A-Za-z0-9._~+/=:-]+"), r"\1***"),
    # --model-api-key X, --api-key=X, --openai-api-key "X"
    (re.compile(r"(?i)(--[\w-]*api[-_]?key(?:\s*=\s*|\s+))(\"[^\"]*\"|'[^']*'|\S+)"), r"\1***"),
    # api_key=X, "api_key": "X", policy_api_key: X, x-api-key: X, OPENAI_API_KEY=X, ++model_api_key=X
    (
        re.compile(r"(?i)([\w.-]*api[-_]?key[\"']?\s*[=:]\s*[\"']?)([^\s\"',;}&)\]]+)"),
        r"\1***",
    ),
    # well-known token shapes anywhere in a line
    (re.compile(r"\b(sk|rk|pk)-[A-Za-z0-9_-]{8,}"), r"\1-***"),
    (re.compile(r"\bnvapi-[A-Za-z0-9_-]{8,}"), "nvapi-***"),
    (re.compile(r"\bhf_[A-Za-z0-9]{8,}"), "hf_***"),
)


def redact(text: str) -> str:
    """Hide API keys and bearer tokens in any text a report may show."""
    for pattern, replacement in _SECRET_PATTERNS:
        text = pattern.sub(replacement, text)
    return text


def excerpt(text: str, limit: int = MAX_TEXT_CHARS) -> str:
    """One redacted line of at most `limit` characters (redaction first: a cut never reveals a key)."""
    one_line = " ".join(redact(text).split())
    if len(one_line) <= limit:
        return one_line
    return one_line[: limit - 1].rstrip() + "…"


class EvidenceLine(BaseModel):
    """A pointer into the run folder: `file` (relative to the run folder), 1-based `line`, `text`."""

    model_config = ConfigDict(frozen=True)

    file: str
    line: int | None = None
    text: str

    @field_validator("text", mode="before")
    @classmethod
    def _redact_and_truncate(cls, value: Any) -> str:
        return excerpt(str(value))

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file


# ---------------------------------------------------------------------------------------------
# Facts about the JSONL files.


@dataclass
class MalformedLine:
    """A line that is not a usable row: the shared `JsonlFormatError` plus what we show of it."""

    error: JsonlFormatError
    text: str
    torn: bool  # the file's last line, without its newline: a write cut short by a kill

    @property
    def line(self) -> int:
        return self.error.line

    @property
    def field(self) -> str | None:
        return self.error.field


@dataclass
class FileStats:
    """Rows and malformed lines of one JSONL file of the run."""

    role: str
    path: Path | None
    exists: bool = False
    rows: int = 0  # non-blank lines, as `formats.count_lines` counts them
    malformed: list[MalformedLine] = field(default_factory=list)  # the first MAX_EXAMPLES
    malformed_count: int = 0

    @property
    def empty(self) -> bool:
        return self.exists and self.rows == 0

    @property
    def valid_rows(self) -> int:
        return self.rows - self.malformed_count


@dataclass(frozen=True)
class NestedError:
    """What a body of nested "Hit an exception in X calling an inner server: ..." hides."""

    chain: tuple[str, ...]  # outermost first: the server whose exception wraps the next one
    inner_text: str  # the innermost body, unescaped
    inner_type: str | None = None  # e.g. "BadRequestError"
    inner_message: str | None = None  # e.g. "injected failure"
    inner_code: int | None = None  # a status code the innermost body names, if any

    @property
    def innermost(self) -> str:
        return self.chain[-1]

    @property
    def headline(self) -> str:
        if self.inner_type and self.inner_message:
            return f"{self.inner_type}: {self.inner_message}"
        return self.inner_message or self.inner_type or excerpt(self.inner_text, 160) or "(empty body)"


@dataclass
class FailureGroup:
    """Failed attempts of the sidecar that share class, status, type and innermost error."""

    failure_class: str
    http_status: int | None
    failure_type: str | None
    message: str | None
    nested: NestedError | None
    first: EvidenceLine
    count: int = 0
    terminal: int = 0
    keys: list[Key] = field(default_factory=list)  # the first MAX_EXAMPLES
    all_keys: set[Key] = field(default_factory=set)
    body_detail: str | None = None  # what a body that is not nested says (FastAPI detail, OpenAI error)
    agents: Counter[str] = field(default_factory=Counter)
    environment_servers: Counter[str] = field(default_factory=Counter)

    @property
    def text(self) -> str:
        """All we know of the error, for keyword matching."""
        parts = [self.failure_class, self.failure_type or "", self.message or "", self.body_detail or ""]
        if self.nested:
            parts.append(self.nested.inner_text)
        return " ".join(parts)


@dataclass
class FailureKindStats:
    """Rollout rows that carry one `failure_kind`."""

    kind: str
    count: int = 0
    masked: int = 0
    first: EvidenceLine | None = None


# ---------------------------------------------------------------------------------------------
# Facts about the logs.


@dataclass
class LogIncident:
    """One real error in a log: a traceback (headline = its exception line) or an error line."""

    file: str
    start: int
    end: int
    line: int  # the headline's line
    text: str
    kind: str  # "traceback" | "error"
    after_shutdown: bool = False

    def covers(self, file: str, line: int | None, slack: int = 2) -> bool:
        return file == self.file and line is not None and self.start - slack <= line <= self.end + slack

    def evidence(self) -> EvidenceLine:
        return EvidenceLine(file=self.file, line=self.line, text=self.text)


@dataclass
class LogHit:
    file: str
    line: int
    text: str
    groups: tuple[str | None, ...]

    def evidence(self) -> EvidenceLine:
        return EvidenceLine(file=self.file, line=self.line, text=self.text)


# Lines rules look for by name. Extend this table to teach the collector a new signature.
LOG_SIGNATURES: dict[str, re.Pattern[str]] = {
    "missing_rollout_keys": re.compile(r"Missing rollout keys: (\[[^\]]*\]?)"),
    "python_version_unsatisfiable": re.compile(
        r"current Python version \(([\d.]+)\) does not satisfy Python\s*([<>=!~]{1,2}\s*[\d.]+)"
    ),
    "prefetch_failed": re.compile(r"prefetch failed for (\S+)"),
    "venv_created": re.compile(r"Creating virtual environment (?:with seed packages )?at: (\S+)"),
    "servers_ready": re.compile(r"(\d+) / (\d+) servers ready"),
    "uv_interpreter": re.compile(r"Using CPython ([\d.]+) interpreter at: (\S+)"),
    "profile_dropped": re.compile(
        r"Input rows: (\d+) total; (\d+) complete; (\d+) partial; (\d+) without rollouts dropped"
    ),
    "run_failed": re.compile(r"\[rollout_collection\] /run failed status=(\d+)"),
    "address_in_use": re.compile(r"address already in use", re.I),
    "no_space": re.compile(r"No space left on device|Disk quota exceeded", re.I),
    "slurm_killed": re.compile(r"slurmstepd: error|CANCELLED AT \S+|DUE TO TIME LIMIT|oom-kill event"),
}

# "(server_name) " from Ray/Gym, then an optional timestamp in one of the shapes Gym's logs show.
_LINE_PREFIX = re.compile(
    r"^(?:\((?P<server>[\w.-]+)\) )?"
    r"(?:\[\d{4}-\d\d-\d\d[ T][\d:,.]+\]|\d{4}-\d\d-\d\d[ T][\d:,.]+\s+)?"
)
_TRACEBACK_START = re.compile(r"^Traceback \(most recent call last\):")
_TRACEBACK_CONTINUE = re.compile(
    r"^(?:\s|$|During handling of the above exception|The above exception was the direct cause)"
)
_EXCEPTION_LINE = re.compile(r"^(?:[A-Za-z_][\w]*\.)*[A-Z]\w*(?:Error|Exception|Exit|Interrupt)\b(?::|$)")
_ERROR_LINE = re.compile(
    r"^(?:error|fatal):"
    r"|^(?:ERROR|FATAL|CRITICAL)\b[:\s]"
    r"|^(?:\[[^\]]*\])*\[(?:ERROR|CRITICAL|FATAL)\]"
    r"|^\[[\d-]+ [\d:,.]+ [EF] \d+ \d+\]"
    r"|^[\w.]+:\d+:\s*(?:error|ERROR)\b"
    r"|\s(?:ERROR|CRITICAL|FATAL)\s+[\w.]+\.py:\d+"
)
# Shutdown noise: a Ctrl-C or a cancelled task at the end of a run is not its error.
_NOISE = re.compile(
    r"KeyboardInterrupt|CancelledError|Shutting down|Waiting for application shutdown"
    r"|Application shutdown complete|Finished server process|SystemExit: 0\b|^Aborted!?$"
)
_SHUTDOWN = re.compile(r"KeyboardInterrupt|Shutting down|received signal|SIGTERM|SIGINT")


def _split_prefix(line: str) -> tuple[str | None, str]:
    match = _LINE_PREFIX.match(line)
    if not match:
        return None, line
    return match.group("server"), line[match.end() :]


# ---------------------------------------------------------------------------------------------
# The whole picture.


@dataclass
class RunFiles:
    """Where one run's files are (each may not exist)."""

    directory: Path
    stem: str
    materialized: Path
    rollouts: Path
    failures: Path
    profile: Path
    other_stems: list[str] = field(default_factory=list)


@dataclass
class Evidence:
    run_dir: Path
    files: RunFiles
    materialized: FileStats
    rollouts: FileStats
    failures: FileStats
    profile: FileStats

    # identity of (task, rollout) keys
    materialized_tasks: int = 0
    agents: Counter[str] = field(default_factory=Counter)
    missing_keys: list[Key] = field(default_factory=list)  # materialized keys without a rollout
    missing_without_failure: list[Key] = field(default_factory=list)  # ... and no failed attempt
    missing_examples: list[EvidenceLine] = field(default_factory=list)  # materialized lines of those
    materialized_lines: dict[Key, int] = field(default_factory=dict)  # of failed or missing keys
    duplicate_rollout_keys: int = 0
    duplicate_examples: list[EvidenceLine] = field(default_factory=list)
    extra_rollout_keys: list[Key] = field(default_factory=list)  # rollouts nobody materialized
    extra_examples: list[EvidenceLine] = field(default_factory=list)

    # the failures sidecar
    failure_classes: Counter[str] = field(default_factory=Counter)
    http_statuses: Counter[int] = field(default_factory=Counter)
    failure_groups: list[FailureGroup] = field(default_factory=list)
    failed_keys: set[Key] = field(default_factory=set)
    recovered_keys: int = 0  # failed at least once, then a rollout

    # rollout rows
    failure_kinds: dict[str, FailureKindStats] = field(default_factory=dict)
    masked_rollouts: int = 0

    # the reward profile
    profile_rollouts: int = 0  # sum of num_rollouts
    profile_missing_rollouts: int = 0  # sum of missing_num_rollouts

    # logs
    log_files: list[str] = field(default_factory=list)
    log_incidents: list[LogIncident] = field(default_factory=list)
    log_hits: dict[str, list[LogHit]] = field(default_factory=dict)

    def rel(self, path: Path | None) -> str:
        if path is None:
            return "(none)"
        try:
            return str(path.relative_to(self.run_dir))
        except ValueError:
            return str(path)

    def hits(self, name: str) -> list[LogHit]:
        return self.log_hits.get(name, [])

    def incidents_near(self, file: str, line: int, window: int = 5) -> list[LogIncident]:
        return [i for i in self.log_incidents if i.file == file and i.start - window <= line <= i.end + window]

    @property
    def has_run_files(self) -> bool:
        return any(s.exists for s in (self.materialized, self.rollouts, self.failures, self.profile))

    @property
    def malformed_files(self) -> list[FileStats]:
        return [s for s in (self.materialized, self.rollouts, self.failures, self.profile) if s.malformed_count]


# ---------------------------------------------------------------------------------------------
# Collection.


def find_run_files(run_dir: Path) -> RunFiles:
    """Locate `<stem>_materialized_inputs.jsonl` and the files Gym names beside it.

    The newest stem wins when a folder holds several; without any materialized file, the default
    stem (`rollouts`), or a subfolder's materialized file when the run folder has none.
    """
    candidates = sorted(run_dir.glob(f"*{MATERIALIZED_SUFFIX}"))
    if not candidates and not (run_dir / ROLLOUTS_FILE).exists():
        candidates = sorted(p for p in run_dir.glob(f"*/**/*{MATERIALIZED_SUFFIX}") if p.is_file())
    if candidates:
        chosen = max(candidates, key=lambda p: (p.stat().st_mtime, p.name == MATERIALIZED_INPUTS_FILE))
        directory = chosen.parent
        stem = chosen.name.removesuffix(MATERIALIZED_SUFFIX)
        others = [p.name.removesuffix(MATERIALIZED_SUFFIX) for p in candidates if p != chosen]
    else:
        directory, stem, others = run_dir, DEFAULT_STEM, []
    return RunFiles(
        directory=directory,
        stem=stem,
        materialized=directory / f"{stem}{MATERIALIZED_SUFFIX}",
        rollouts=directory / f"{stem}.jsonl",
        failures=directory / f"{stem}{FAILURES_SUFFIX}",
        profile=directory / f"{stem}{PROFILE_SUFFIX}",
        other_stems=others,
    )


RowCheck = Callable[[dict[str, Any]], "tuple[str, str] | None"]


def _index_problem(row: dict[str, Any], name: str) -> tuple[str, str] | None:
    if name not in row:
        return name, "field required"
    value = row[name]
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        return name, f"expected a non-negative integer, got {value!r}"
    return None


def _check_keys(row: dict[str, Any]) -> tuple[str, str] | None:
    return _index_problem(row, TASK_INDEX) or _index_problem(row, ROLLOUT_INDEX)


def _check_materialized(row: dict[str, Any]) -> tuple[str, str] | None:
    if not isinstance(row.get("responses_create_params"), dict):
        return "responses_create_params", "field required (an object)"
    return _check_keys(row)


def _check_rollout(row: dict[str, Any]) -> tuple[str, str] | None:
    problem = _check_keys(row)
    if problem:
        return problem
    reward = row.get("reward")
    if "reward" not in row:
        return "reward", "field required"
    if not isinstance(reward, (int, float)) or isinstance(reward, bool):
        return "reward", f"expected a number, got {reward!r}"
    return None


def _check_failure(row: dict[str, Any]) -> tuple[str, str] | None:
    if not isinstance(row.get("_ng_failure_class"), str):
        return "_ng_failure_class", "field required (a string)"
    return _check_keys(row)


def _check_profile(row: dict[str, Any]) -> tuple[str, str] | None:
    problem = _index_problem(row, TASK_INDEX)
    if problem:
        return problem
    if not isinstance(row.get("num_rollouts"), int):
        return "num_rollouts", "field required (an integer)"
    return None


def _iter_rows(stats: FileStats, check: RowCheck) -> Iterator[tuple[int, bytes, dict[str, Any]]]:
    """Yield (line number, raw line, row) of valid rows; record malformed ones in `stats` and go on."""
    path = stats.path
    if path is None or not path.is_file():
        return
    stats.exists = True
    with path.open("rb") as handle:
        for line_number, raw in enumerate(handle, start=1):
            if not raw.strip():
                continue
            stats.rows += 1
            error: JsonlFormatError | None = None
            value: Any = None
            try:
                value = orjson.loads(raw)
            except orjson.JSONDecodeError as decode_error:
                error = JsonlFormatError(path, line_number, None, f"not valid JSON ({decode_error})")
            if error is None and not isinstance(value, dict):
                error = JsonlFormatError(path, line_number, None, f"expected a JSON object, got {type(value).__name__}")
            if error is None:
                problem = check(value)
                if problem:
                    error = JsonlFormatError(path, line_number, problem[0], problem[1])
            if error is not None:
                stats.malformed_count += 1
                if len(stats.malformed) < MAX_EXAMPLES:
                    text = raw.decode("utf-8", errors="replace")
                    stats.malformed.append(MalformedLine(error=error, text=text, torn=not raw.endswith(b"\n")))
                continue
            yield line_number, raw, value


def _key(row: dict[str, Any]) -> Key:
    return row[TASK_INDEX], row[ROLLOUT_INDEX]


def _agent_name(row: dict[str, Any]) -> str | None:
    ref = row.get("agent_ref")
    if isinstance(ref, dict) and isinstance(ref.get("name"), str):
        return ref["name"]
    return None


def _raw_text(raw: bytes) -> str:
    return raw[: MAX_TEXT_CHARS * 4].decode("utf-8", errors="replace")


_WRAPPER = re.compile(r"Hit an exception in (?P<server>\S+) calling an inner server: (?P<rest>.*)\Z", re.S)
_WRAPPER_LOOSE = re.compile(r"Hit an exception in (\S+?) calling an inner server")
_MESSAGE_LOOSE = re.compile(r"[\"']message[\"']\s*:\s*[\"']([^\"']*)")
_TYPE_LOOSE = re.compile(r"[\"']type[\"']\s*:\s*[\"']([^\"']*)")


def _bytes_literal(text: str) -> str | None:
    if text[:2] not in ("b'", 'b"'):
        return None
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    return value.decode("utf-8", errors="replace") if isinstance(value, bytes) else None


def _parse_inner(text: str) -> tuple[str | None, str | None, int | None]:
    """(type, message, code) of an innermost body: OpenAI-style `{"error": {...}}`, FastAPI `{"detail"}`..."""
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError:
        value = None
    if isinstance(value, dict):
        error = value.get("error", value)
        if isinstance(error, str):
            return None, error, None
        if isinstance(error, dict):
            message = error.get("message", error.get("detail"))
            if isinstance(message, list) and all(isinstance(d, dict) for d in message):
                message = "; ".join(_fastapi_error(d) for d in message)
            if message is not None and not isinstance(message, str):
                message = orjson.dumps(message).decode()
            kind = error.get("type")
            code = error.get("code")
            try:
                code = int(code) if code is not None else None
            except (TypeError, ValueError):
                code = None
            return (kind if isinstance(kind, str) else None), message, code
    if isinstance(value, str):
        return None, value, None
    flat = text.replace("\\", "")
    message = _MESSAGE_LOOSE.search(flat)
    kind = _TYPE_LOOSE.search(flat)
    return (kind.group(1) if kind else None), (message.group(1) if message else None), None


def _fastapi_error(detail: dict[str, Any]) -> str:
    """`{"type": "missing", "loc": ["body", "x"], "msg": ...}` -> `missing: body.x`."""
    loc = ".".join(str(part) for part in detail.get("loc", []))
    kind = detail.get("type") or detail.get("msg") or "invalid"
    return f"{kind}: {loc}" if loc else str(kind)


def unwrap_inner_server_error(body: str, max_depth: int = 32) -> NestedError | None:
    """Peel Gym's nested "inner server" 500 bodies down to the innermost server and its error.

    Each Gym server wraps an upstream failure as the JSON string
    `"Hit an exception in <Class>___<name> calling an inner server: b'<upstream body>'"`, so the
    layers alternate a JSON string and a Python bytes literal. A cut body falls back to a loose scan.
    """
    text = body[:MAX_BODY_CHARS]
    chain: list[str] = []
    for _ in range(max_depth):
        stripped = text.strip()
        if stripped[:1] == '"':
            try:
                value = orjson.loads(stripped)
            except orjson.JSONDecodeError:
                value = None
            if isinstance(value, str):
                text = value
                continue
        match = _WRAPPER.match(stripped)
        if not match:
            break
        chain.append(match.group("server"))
        rest = match.group("rest").strip()
        decoded = _bytes_literal(rest)
        if decoded is None and rest[:2] in ("b'", 'b"'):
            return _unwrap_loose(body)  # a cut or odd literal
        text = decoded if decoded is not None else rest
    if not chain:
        return None
    inner = text.strip()
    kind, message, code = _parse_inner(inner)
    return NestedError(tuple(chain), inner, kind, message, code)


def _unwrap_loose(body: str) -> NestedError | None:
    flat = re.sub(r"\\+", "", body[:MAX_BODY_CHARS])
    chain = _WRAPPER_LOOSE.findall(flat)
    if not chain:
        return None
    inner = flat.rsplit("calling an inner server: ", 1)[-1].lstrip("b'\"").rstrip("'\"")
    kind, message, code = _parse_inner(inner)
    return NestedError(tuple(chain), inner, kind, message, code)


def _group_key(failure_class: str, status: int | None, failure_type: str | None, nested: NestedError | None) -> tuple:
    inner = (nested.innermost, nested.inner_type, re.sub(r"\d+", "#", nested.headline)[:120]) if nested else None
    return failure_class, status, failure_type, inner


def _collect_rollouts(ev: Evidence) -> dict[Key, int]:
    done: dict[Key, int] = {}
    for line_number, _raw, row in _iter_rows(ev.rollouts, _check_rollout):
        key = _key(row)
        if key in done:
            ev.duplicate_rollout_keys += 1
            if len(ev.duplicate_examples) < MAX_EXAMPLES:
                ev.duplicate_examples.append(
                    EvidenceLine(file=ev.rel(ev.rollouts.path), line=line_number, text=f"key {key} again (first on line {done[key]})")
                )
        else:
            done[key] = line_number
        masked = row.get("mask_sample") is True
        ev.masked_rollouts += masked
        kind = row.get("failure_kind")
        if kind is not None:
            kind = str(kind)
            stats = ev.failure_kinds.setdefault(kind, FailureKindStats(kind))
            stats.count += 1
            stats.masked += masked
            if stats.first is None:
                reason = row.get("failure_reason")
                stats.first = EvidenceLine(
                    file=ev.rel(ev.rollouts.path),
                    line=line_number,
                    text=f"task {key[0]} rollout {key[1]}: failure_kind={kind} reward={row.get('reward')} "
                    f"mask_sample={row.get('mask_sample')} failure_reason={reason!r}",
                )
    return done


def _collect_failures(ev: Evidence) -> None:
    groups: dict[tuple, FailureGroup] = {}
    for line_number, raw, row in _iter_rows(ev.failures, _check_failure):
        key = _key(row)
        ev.failed_keys.add(key)
        failure_class = row["_ng_failure_class"]
        status = row.get("_ng_failure_http_status")
        status = status if isinstance(status, int) and not isinstance(status, bool) else None
        failure_type = row.get("_ng_failure_type") if isinstance(row.get("_ng_failure_type"), str) else None
        message = row.get("_ng_failure_message")
        message = message if isinstance(message, str) or message is None else orjson.dumps(message).decode()
        body = row.get("_ng_failure_response_body")
        if body is not None and not isinstance(body, str):
            body = orjson.dumps(body).decode()
        nested = unwrap_inner_server_error(body) if body else None
        if nested is None and message:
            nested = unwrap_inner_server_error(message)
        ev.failure_classes[failure_class] += 1
        if status is not None:
            ev.http_statuses[status] += 1
        group_key = _group_key(failure_class, status, failure_type, nested)
        group = groups.get(group_key)
        if group is None:
            if len(groups) >= MAX_FAILURE_GROUPS:
                group_key = ("(other)", None, None, None)
                group = groups.get(group_key)
            if group is None:
                group = FailureGroup(
                    failure_class=failure_class if group_key[0] != "(other)" else "(other)",
                    http_status=status,
                    failure_type=failure_type,
                    message=message,
                    nested=nested,
                    first=EvidenceLine(file=ev.rel(ev.failures.path), line=line_number, text=_raw_text(raw)),
                )
                if nested is None and body:
                    kind, detail, _code = _parse_inner(body.strip())
                    group.body_detail = ": ".join(part for part in (kind, detail) if part) or None
                groups[group_key] = group
        group.count += 1
        group.terminal += row.get("_ng_failure_terminal") is True
        if len(group.keys) < MAX_EXAMPLES and key not in group.all_keys:
            group.keys.append(key)
        group.all_keys.add(key)
        agent = _agent_name(row)
        if agent:
            group.agents[agent] += 1
        server = row.get("_ng_environment_server")
        if isinstance(server, str):
            group.environment_servers[server] += 1
    ev.failure_groups = sorted(groups.values(), key=lambda g: -g.count)


def _collect_materialized(ev: Evidence, done: dict[Key, int]) -> None:
    pending = dict(done)  # rollout keys not (yet) seen in the materialized inputs
    tasks: set[int] = set()
    for line_number, _raw, row in _iter_rows(ev.materialized, _check_materialized):
        key = _key(row)
        tasks.add(key[0])
        agent = _agent_name(row)
        if agent:
            ev.agents[agent] += 1
        pending.pop(key, None)
        failed = key in ev.failed_keys
        if key in done:
            ev.recovered_keys += failed
            continue
        ev.missing_keys.append(key)
        if len(ev.materialized_lines) < 1000:
            ev.materialized_lines[key] = line_number
        if not failed:
            ev.missing_without_failure.append(key)
            if len(ev.missing_examples) < MAX_EXAMPLES:
                ev.missing_examples.append(
                    EvidenceLine(
                        file=ev.rel(ev.materialized.path),
                        line=line_number,
                        text=f"task {key[0]} rollout {key[1]} materialized; no row in {ev.rel(ev.rollouts.path)} "
                        f"and none in {ev.rel(ev.failures.path)}",
                    )
                )
    ev.materialized_tasks = len(tasks)
    if ev.materialized.exists and ev.materialized.valid_rows:
        ev.extra_rollout_keys = sorted(pending)
        for key in ev.extra_rollout_keys[:MAX_EXAMPLES]:
            ev.extra_examples.append(
                EvidenceLine(
                    file=ev.rel(ev.rollouts.path),
                    line=pending[key],
                    text=f"task {key[0]} rollout {key[1]} has a rollout but no row in {ev.rel(ev.materialized.path)}",
                )
            )


def _collect_profile(ev: Evidence) -> None:
    for _line_number, _raw, row in _iter_rows(ev.profile, _check_profile):
        ev.profile_rollouts += row["num_rollouts"]
        missing = row.get("missing_num_rollouts")
        if isinstance(missing, int):
            ev.profile_missing_rollouts += missing


def find_log_files(run_dir: Path, also: Path | None = None) -> list[Path]:
    folders = [run_dir / sub for sub in LOG_SUBDIRS]
    if also is not None and also != run_dir:
        folders += [also / sub for sub in LOG_SUBDIRS]
    found: list[Path] = []
    for folder in folders:
        if not folder.is_dir():
            continue
        for pattern in LOG_GLOBS:
            for path in sorted(folder.glob(pattern)):
                if path.is_file() and path not in found:
                    found.append(path)
    return found


def scan_log(path: Path, rel: str, incidents: list[LogIncident], hits: dict[str, list[LogHit]]) -> None:
    """Record the real errors of one log (tracebacks, error lines; not shutdown noise) and signature hits."""
    traceback: dict[str, Any] | None = None  # {"start", "server"} while inside a traceback
    shutdown = False

    def add(incident: LogIncident) -> None:
        if _NOISE.search(incident.text):
            return
        previous = incidents[-1] if incidents else None
        if (
            incident.kind == "traceback"
            and previous is not None
            and previous.file == incident.file
            and previous.kind == "error"
            and incident.start - previous.end <= 2
        ):
            # "ERROR: Exception in ASGI application" + its traceback: one incident, headed by the exception
            previous.end, previous.line, previous.text, previous.kind = incident.end, incident.line, incident.text, "traceback"
            return
        if (
            incident.kind == "error"
            and previous is not None
            and previous.file == incident.file
            and previous.kind == "error"
            and incident.start - previous.end <= 3
        ):
            previous.end = incident.end  # one burst of error lines is one incident
            return
        incidents.append(incident)

    with path.open("r", encoding="utf-8", errors="replace") as handle:
        for line_number, raw in enumerate(handle, start=1):
            line = raw.rstrip("\r\n")
            # progress bars rewrite a line with \r: the text after the last one is what shows
            shown = line.rsplit("\r", 1)[-1] if "\r" in line else line
            for name, pattern in LOG_SIGNATURES.items():
                match = pattern.search(line)
                if match:
                    bucket = hits.setdefault(name, [])
                    # a long progress-bar prefix is not the evidence: start the text near the match
                    text = line if match.start() <= 80 else "…" + line[match.start() :]
                    hit = LogHit(rel, line_number, text, match.groups())
                    if len(bucket) < MAX_EXAMPLES:
                        bucket.append(hit)
                    else:
                        bucket[-1] = hit  # keep the first ones and the last one
            server, body = _split_prefix(shown)
            if _SHUTDOWN.search(body):
                shutdown = True
            if traceback is not None:
                if server != traceback["server"] and server is not None:
                    continue  # another server's line interleaved with this traceback
                if _TRACEBACK_CONTINUE.match(body):
                    continue
                start = traceback["start"]
                traceback = None
                if _EXCEPTION_LINE.match(body):
                    add(LogIncident(rel, start, line_number, line_number, shown, "traceback", shutdown))
                    continue
                add(LogIncident(rel, start, line_number - 1, start, "Traceback (most recent call last): (no exception line)", "traceback", shutdown))
            if _TRACEBACK_START.match(body):
                traceback = {"start": line_number, "server": server}
                continue
            if _ERROR_LINE.search(body) or _EXCEPTION_LINE.match(body):
                add(LogIncident(rel, line_number, line_number, line_number, shown, "error", shutdown))
    if traceback is not None:
        add(LogIncident(rel, traceback["start"], line_number, traceback["start"], "Traceback (most recent call last): (log ends inside it)", "traceback", shutdown))


def collect_evidence(run_dir: Path | str) -> Evidence:
    """Stream the run folder once and return what it shows."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise FileNotFoundError(f"{run_dir}: not a folder")
    files = find_run_files(run_dir)
    ev = Evidence(
        run_dir=run_dir,
        files=files,
        materialized=FileStats("materialized inputs", files.materialized),
        rollouts=FileStats("rollouts", files.rollouts),
        failures=FileStats("failures sidecar", files.failures),
        profile=FileStats("reward profile", files.profile),
    )
    done = _collect_rollouts(ev)
    _collect_failures(ev)
    _collect_materialized(ev, done)
    _collect_profile(ev)
    for path in find_log_files(run_dir, files.directory):
        rel = ev.rel(path)
        ev.log_files.append(rel)
        scan_log(path, rel, ev.log_incidents, ev.log_hits)
    return ev
