"""Artifact evidence: the files one run wrote, streamed once, reduced to counts, keys and groups.

Gym names every file of a run from the `--output` stem: `<stem>_materialized_inputs.jsonl`,
`<stem>.jsonl`, `<stem>_failures.jsonl`, `<stem>_reward_profiling.jsonl`, and for task-folder
runs `<stem>_run_summary.json` and `skipped.json` beside them. Nothing here decides a category:
a collector only counts, groups and points at file:line.

A malformed line is recorded (file, line, field, message) and reading goes on, so a torn last
line or one bad row is evidence for a finding instead of a crash. Texts that carry an error
(a failure's message and body, a row's failure_reason, a task's failure message, a skip reason)
are matched against the signature table like log lines.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from gym_pipeline.core.formats import (
    FAILURES_FILE,
    MATERIALIZED_INPUTS_FILE,
    REWARD_PROFILE_FILE,
    ROLLOUT_INDEX,
    ROLLOUTS_FILE,
    TASK_INDEX,
    JsonlFormatError,
)
from gym_pipeline.diagnose.evidence_line import MAX_TEXT_CHARS, EvidenceLine, excerpt, line_holding
from gym_pipeline.diagnose.logs import SKIPPED_DIRS, LogHit
from gym_pipeline.diagnose.nested import ErrorBody, NestedError, parse_error_body, unwrap_inner_server_error
from gym_pipeline.diagnose.row_quality import RowQuality, note_materialized_row, note_profile_row, note_rollout_row
from gym_pipeline.diagnose.signatures import PROBLEM_OF_SIGNATURE, match_text

# File names of one run, derived from the shared constants: `<stem>.jsonl`, `<stem>_failures.jsonl`...
DEFAULT_STEM = ROLLOUTS_FILE.removesuffix(".jsonl")
MATERIALIZED_SUFFIX = MATERIALIZED_INPUTS_FILE.removeprefix(DEFAULT_STEM)
FAILURES_SUFFIX = FAILURES_FILE.removeprefix(DEFAULT_STEM)
PROFILE_SUFFIX = REWARD_PROFILE_FILE.removeprefix(DEFAULT_STEM)
RUN_SUMMARY_SUFFIX = "_run_summary.json"
SKIPPED_FILE = "skipped.json"

MAX_EXAMPLES = 20  # example lines kept per kind of fact
MAX_FAILURE_GROUPS = 50
MAX_REMEMBERED_LINES = 1000  # materialized line numbers kept for failed or missing keys

Key = tuple[int, int]


# The files a run writes beside its rollouts (`<stem>_failures.jsonl`...), never a user's data.
OUTPUT_SUFFIXES = ("_failures.jsonl", "_reward_profiling.jsonl", "_materialized_inputs.jsonl", "verdicts.jsonl")


def data_files_in(folder: Path, files: RunFiles) -> list[Path]:
    """The JSON Lines files in `folder` that are not the run's outputs: the data a user keeps beside the run."""
    outputs = {files.materialized, files.rollouts, files.failures, files.profile}
    return [path for path in sorted(folder.glob("*.jsonl"))
            if path not in outputs and not path.name.endswith(OUTPUT_SUFFIXES)]


def locate_named_file(named: str | Path, run_dir: Path, folder: bool = False) -> Path:
    """The file a manifest or log names, found again. A relative path (as given on a command line) is tried
    from the current folder, the run folder's parent and the run folder, since the folder it was given in is
    not recorded. An absolute path that is gone is usually a run folder copied or moved (off a cluster, into
    a bug report): the longest tail of the path found under the run folder or its parent is that file.
    Returns `named` itself when nothing is found. `folder=True` looks for a folder instead of a file."""
    path = Path(named)
    if path.exists():
        return path
    found = Path.is_dir if folder else Path.is_file
    bases = (run_dir.parent, run_dir)
    if not path.is_absolute():
        return next((base / path for base in bases if (base / path).exists()), path)
    parts = path.parts[1:]
    for start in range(len(parts)):
        tail = Path(*parts[start:])
        for base in bases:
            if found(base / tail):
                return base / tail
    return path


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
    def valid_rows(self) -> int:
        return self.rows - self.malformed_count


@dataclass
class FailureGroup:
    """Failed attempts of the sidecar that share class, status, type, stage and what their error says."""

    failure_class: str
    http_status: int | None
    failure_type: str | None
    message: str | None
    nested: NestedError | None
    first: EvidenceLine
    stage: str | None = None  # `_ng_failure_stage` (admission, seed, agent, verification, cleanup)
    body: ErrorBody | None = None  # what a body that is not nested says
    count: int = 0
    keys: list[Key] = field(default_factory=list)  # the first MAX_EXAMPLES
    all_keys: set[Key] = field(default_factory=set)
    agents: Counter[str] = field(default_factory=Counter)
    environment_servers: Counter[str] = field(default_factory=Counter)
    problems: set[str] = field(default_factory=set)  # known problems its text proves

    @property
    def text(self) -> str:
        """All we know of the error, for keyword matching."""
        parts = [self.failure_class, self.failure_type or "", self.message or ""]
        if self.body and self.body.said:
            parts.append(self.body.said)
        if self.nested:
            parts += [self.nested.inner.said or "", self.nested.inner_text]
        return " ".join(parts)

    @property
    def error_body(self) -> ErrorBody | None:
        return self.nested.inner if self.nested else self.body


@dataclass
class FailureKindStats:
    """Rows that carry one `failure_kind` (rollouts, their turns, or the failures sidecar)."""

    kind: str
    count: int = 0
    masked: int = 0
    in_failures: int = 0  # of `count`, rows of the failures sidecar (a first step failed: no result row)
    first: EvidenceLine | None = None
    tasks: Counter[int] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)  # the rows' failure_reason (first line), up to MAX_EXAMPLES

    def note_reason(self, reason: object) -> None:
        if isinstance(reason, str) and reason.strip():
            text = excerpt(reason.strip().splitlines()[0], 200)
            if text in self.reasons or len(self.reasons) < MAX_EXAMPLES:
                self.reasons[text] += 1


@dataclass
class SkippedTask:
    task: str
    reason: str
    line: EvidenceLine


@dataclass
class RunFiles:
    """Where one run's files are (each may not exist)."""

    directory: Path
    stem: str
    materialized: Path
    rollouts: Path
    failures: Path
    profile: Path
    summary: Path
    skipped: Path
    other_stems: list[str] = field(default_factory=list)


@dataclass
class ArtifactFacts:
    run_dir: Path
    files: RunFiles
    materialized: FileStats
    rollouts: FileStats
    failures: FileStats
    profile: FileStats

    # identity of (task, rollout) keys
    materialized_tasks: int = 0
    agents: Counter[str] = field(default_factory=Counter)
    rows_with_tools: int = 0  # materialized rows that offer the model tools
    missing_keys: list[Key] = field(default_factory=list)  # materialized keys without a rollout
    missing_without_failure: list[Key] = field(default_factory=list)  # ... and no failed attempt
    missing_examples: list[EvidenceLine] = field(default_factory=list)  # materialized lines of those
    materialized_lines: dict[Key, int] = field(default_factory=dict)  # of failed or missing keys
    failing_rows: dict[Key, dict[str, Any]] = field(default_factory=dict)  # the first row of each failure group
    duplicate_rollout_keys: int = 0
    duplicate_examples: list[EvidenceLine] = field(default_factory=list)
    extra_rollout_keys: list[Key] = field(default_factory=list)  # rollouts nobody materialized
    extra_examples: list[EvidenceLine] = field(default_factory=list)
    rollouts_per_task: Counter[int] = field(default_factory=Counter)

    # the failures sidecar
    failure_classes: Counter[str] = field(default_factory=Counter)
    http_statuses: Counter[int] = field(default_factory=Counter)
    failure_groups: list[FailureGroup] = field(default_factory=list)
    failed_keys: set[Key] = field(default_factory=set)
    recovered_keys: int = 0  # failed at least once, then a rollout

    # verdicts carried by rows
    failure_kinds: dict[str, FailureKindStats] = field(default_factory=dict)
    masked_rollouts: int = 0
    # What sets the rows with a failure_kind apart: per top-level field, rows where it has a value
    failed_rollouts: int = 0
    fields_set_when_failed: Counter[str] = field(default_factory=Counter)
    fields_set_when_ok: Counter[str] = field(default_factory=Counter)
    input_fields: Counter[str] = field(default_factory=Counter)  # materialized rows having each top-level field
    input_fields_empty: Counter[str] = field(default_factory=Counter)  # ... with an empty value ("", [], {}, null)
    stopped_after_turn: list[EvidenceLine] = field(default_factory=list)
    # answers the model server cut at the output token limit (Responses `incomplete_details.reason`)
    truncated_rollouts: int = 0
    truncation_limit: int | None = None
    truncated_example: EvidenceLine | None = None
    quality: RowQuality = field(default_factory=RowQuality)  # quiet data faults only the rows show

    # the reward profile
    profile_rollouts: int = 0  # sum of num_rollouts
    profile_missing_rollouts: int = 0  # sum of missing_num_rollouts

    # task-folder runs
    stale_files: list[str] = field(default_factory=list)
    stale_files_line: EvidenceLine | None = None
    skipped: list[SkippedTask] = field(default_factory=list)

    # signature hits in the artifacts' error texts
    hits: list[tuple[str, LogHit]] = field(default_factory=list)

    def rel(self, path: Path | None) -> str:
        if path is None:
            return "(none)"
        for base in (self.run_dir, self.run_dir.resolve()):  # a path found again is often resolved
            try:
                return str(path.relative_to(base))
            except ValueError:
                continue
        return str(path)

    @property
    def has_run_files(self) -> bool:
        return any(s.exists for s in (self.materialized, self.rollouts, self.failures, self.profile)) or bool(
            self.skipped or self.files.summary.exists()
        )

    def null_only_when_failed(self) -> list[str]:
        """Fields without a value in every rollout with a failure_kind, and with one in (nearly) every other:
        what the verifier could not handle."""
        ok = self.rollouts.valid_rows - self.failed_rollouts
        if not self.failed_rollouts or ok <= 0:
            return []
        return sorted(name for name, count in self.fields_set_when_ok.items()
                      if not self.fields_set_when_failed[name] and count >= 0.9 * ok)

    @property
    def malformed_files(self) -> list[FileStats]:
        return [s for s in (self.materialized, self.rollouts, self.failures, self.profile) if s.malformed_count]

    def match_errors(self, file: str, line: int | None, text: str) -> set[str]:
        """Record the signatures an artifact's error text shows; returns the known problems they prove."""
        problems = set()
        for signature, match in match_text(text):
            shown = text if match.start() <= 80 else "…" + text[match.start():]
            self.hits.append((signature.name, LogHit(file, line or 0, shown, match.groupdict())))
            if signature.name in PROBLEM_OF_SIGNATURE:
                problems.add(PROBLEM_OF_SIGNATURE[signature.name])
        return problems


# ---------------------------------------------------------------------------------------------
# Locating the files.


def walk_glob(run_dir: Path, suffix: str) -> list[Path]:
    """Files ending in `suffix` below `run_dir`, outside virtual environments and caches."""
    return sorted(
        p for p in run_dir.rglob(f"*{suffix}")
        if p.is_file() and not (set(p.relative_to(run_dir).parts[:-1]) & SKIPPED_DIRS)
    )


def find_run_files(run_dir: Path) -> RunFiles:
    """Locate `<stem>_materialized_inputs.jsonl` and the files Gym names beside it.

    The newest stem wins when a folder holds several; without any materialized file, the default
    stem (`rollouts`), or a subfolder's materialized file when the run folder has none.
    """
    candidates = sorted(run_dir.glob(f"*{MATERIALIZED_SUFFIX}"))
    if not candidates and not (run_dir / ROLLOUTS_FILE).exists():
        candidates = walk_glob(run_dir, MATERIALIZED_SUFFIX) or walk_glob(run_dir, RUN_SUMMARY_SUFFIX)
    if candidates:
        chosen = max(candidates, key=lambda p: (p.stat().st_mtime, p.name == MATERIALIZED_INPUTS_FILE))
        directory = chosen.parent
        suffix = MATERIALIZED_SUFFIX if chosen.name.endswith(MATERIALIZED_SUFFIX) else RUN_SUMMARY_SUFFIX
        stem = chosen.name.removesuffix(suffix)
        others = [p.name.removesuffix(suffix) for p in candidates if p != chosen]
    else:
        directory, stem, others = run_dir, DEFAULT_STEM, []
    return run_files_at(directory, stem, others)


def run_files_at(directory: Path, stem: str, other_stems: list[str] | None = None) -> RunFiles:
    """The files of the collection `<stem>` in `directory`, named as Gym names them."""
    return RunFiles(
        directory=directory,
        stem=stem,
        materialized=directory / f"{stem}{MATERIALIZED_SUFFIX}",
        rollouts=directory / f"{stem}.jsonl",
        failures=directory / f"{stem}{FAILURES_SUFFIX}",
        profile=directory / f"{stem}{PROFILE_SUFFIX}",
        summary=directory / f"{stem}{RUN_SUMMARY_SUFFIX}",
        skipped=directory / SKIPPED_FILE,
        other_stems=other_stems or [],
    )


# ---------------------------------------------------------------------------------------------
# Reading JSONL rows.

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


def _is_taskset_row(row: dict[str, Any]) -> bool:
    """A materialized task of an episode run (Gym 0.7.0): `task_id` and `task_input`, no request of its own."""
    return isinstance(row.get("task_id"), dict) and "task_input" in row


def _check_materialized(row: dict[str, Any]) -> tuple[str, str] | None:
    if not isinstance(row.get("responses_create_params"), dict) and not _is_taskset_row(row):
        return "responses_create_params", "field required (an object)"
    return _check_keys(row)


def _check_rollout(row: dict[str, Any]) -> tuple[str, str] | None:
    problem = _check_keys(row)
    if problem:
        return problem
    reward = row.get("reward")
    if reward is None and "_ng_task_id" in row:  # an episode result without a reward is unscored, not malformed
        return None
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


def _nested_failure_kinds(value: Any) -> Iterator[str]:
    """`failure_kind`s below the top level of a row: a multi-step row's turns carry their own."""
    stack = [v for k, v in value.items() if k != "failure_kind"] if isinstance(value, dict) else []
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            kind = item.get("failure_kind")
            if isinstance(kind, str):
                yield kind
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


# ---------------------------------------------------------------------------------------------
# Collection, file by file.


def _note_failure_kind(facts: ArtifactFacts, kind: str, where: EvidenceLine, key: Key, masked: bool,
                       in_failures: bool, reason: object = None) -> None:
    stats = facts.failure_kinds.setdefault(kind, FailureKindStats(kind))
    stats.note_reason(reason)
    stats.count += 1
    stats.masked += masked
    stats.in_failures += in_failures
    stats.tasks[key[0]] += 1
    if stats.first is None:
        stats.first = where


def _note_truncation(facts: ArtifactFacts, row: dict[str, Any], file: str, line_number: int) -> None:
    response = row.get("response")
    if not isinstance(response, dict) or response.get("status") != "incomplete":
        return
    reason = (response.get("incomplete_details") or {}).get("reason")
    if not isinstance(reason, str) or "token" not in reason and reason != "length":
        return
    facts.truncated_rollouts += 1
    limit = response.get("max_output_tokens") or (row.get("responses_create_params") or {}).get("max_output_tokens")
    if isinstance(limit, int):
        facts.truncation_limit = limit
    if facts.truncated_example is None:
        facts.truncated_example = EvidenceLine(file=file, line=line_number, text=f"response.status=incomplete, "
                                               f"incomplete_details.reason={reason}, max_output_tokens={limit}")


def _collect_rollouts(facts: ArtifactFacts) -> dict[Key, int]:
    done: dict[Key, int] = {}
    file = facts.rel(facts.rollouts.path)
    for line_number, raw, row in _iter_rows(facts.rollouts, _check_rollout):
        key = _key(row)
        facts.rollouts_per_task[key[0]] += 1
        if key in done:
            facts.duplicate_rollout_keys += 1
            if len(facts.duplicate_examples) < MAX_EXAMPLES:
                facts.duplicate_examples.append(
                    EvidenceLine(file=file, line=line_number, text=f"key {key} again (first on line {done[key]})")
                )
        else:
            done[key] = line_number
        _note_truncation(facts, row, file, line_number)
        note_rollout_row(facts.quality, row, key, file, line_number)
        masked = bool(row.get("mask_sample"))  # Gym masks by truthiness
        facts.masked_rollouts += masked
        kinds = [str(row["failure_kind"])] if row.get("failure_kind") is not None else []
        facts.failed_rollouts += bool(kinds)
        (facts.fields_set_when_failed if kinds else facts.fields_set_when_ok).update(
            name for name, value in row.items() if value is not None)
        if raw.count(b'"failure_kind"') > len(kinds):
            kinds += _nested_failure_kinds(row)
        for kind in kinds:
            first = kind not in facts.failure_kinds
            reason = row.get("failure_reason")
            where = EvidenceLine(
                file=file,
                line=line_number,
                text=f"task {key[0]} rollout {key[1]}: failure_kind={kind} reward={row.get('reward')} "
                f"mask_sample={row.get('mask_sample')} failure_reason={reason!r}"
                + (f" stopped_after_turn={row['stopped_after_turn']}" if row.get("stopped_after_turn") is not None else ""),
            )
            _note_failure_kind(facts, kind, where, key, masked, in_failures=False, reason=reason)
            if first and isinstance(reason, str):
                facts.match_errors(file, line_number, reason)
        if row.get("stopped_after_turn") is not None and len(facts.stopped_after_turn) < MAX_EXAMPLES:
            facts.stopped_after_turn.append(
                EvidenceLine(file=file, line=line_number,
                             text=f"task {key[0]} rollout {key[1]}: stopped_after_turn={row['stopped_after_turn']}")
            )
    return done


def _group_key(row_class: str, status: int | None, failure_type: str | None, stage: str | None,
               nested: NestedError | None, message: str | None) -> tuple:
    inner = (nested.innermost, nested.inner.kind, re.sub(r"\d+", "#", nested.headline)[:120]) if nested else None
    said = None if nested else re.sub(r"\d+", "#", message or "")[:120]
    return row_class, status, failure_type, stage, inner, said


def _collect_failures(facts: ArtifactFacts) -> None:
    groups: dict[tuple, FailureGroup] = {}
    file = facts.rel(facts.failures.path)
    for line_number, raw, row in _iter_rows(facts.failures, _check_failure):
        key = _key(row)
        facts.failed_keys.add(key)
        failure_class = row["_ng_failure_class"]
        status = row.get("_ng_failure_http_status")
        status = status if isinstance(status, int) and not isinstance(status, bool) else None
        failure_type = row.get("_ng_failure_type") if isinstance(row.get("_ng_failure_type"), str) else None
        stage = row.get("_ng_failure_stage") if isinstance(row.get("_ng_failure_stage"), str) else None
        message = row.get("_ng_failure_message")
        message = message if isinstance(message, str) or message is None else orjson.dumps(message).decode()
        body = row.get("_ng_failure_response_body")
        if body is not None and not isinstance(body, str):
            body = orjson.dumps(body).decode()
        nested = unwrap_inner_server_error(body) if body else None
        if nested is None and message:
            nested = unwrap_inner_server_error(message)
        facts.failure_classes[failure_class] += 1
        if status is not None:
            facts.http_statuses[status] += 1
        if isinstance(row.get("failure_kind"), str):
            where = EvidenceLine(file=file, line=line_number, text=_raw_text(raw))
            _note_failure_kind(facts, row["failure_kind"], where, key, masked=False, in_failures=True,
                               reason=row.get("failure_reason"))
        group_key = _group_key(failure_class, status, failure_type, stage, nested, message)
        group = groups.get(group_key)
        if group is None:
            if len(groups) >= MAX_FAILURE_GROUPS:
                group_key = ("(other)", None, None, None, None, None)
                group = groups.get(group_key)
            if group is None:
                group = FailureGroup(
                    failure_class=failure_class if group_key[0] != "(other)" else "(other)",
                    http_status=status,
                    failure_type=failure_type,
                    message=message,
                    nested=nested,
                    stage=stage,
                    first=EvidenceLine(file=file, line=line_number, text=_raw_text(raw)),
                    body=parse_error_body(body.strip()) if body and nested is None else None,
                )
                group.problems = facts.match_errors(file, line_number, group.text)
                groups[group_key] = group
        group.count += 1
        if len(group.keys) < MAX_EXAMPLES and key not in group.all_keys:
            group.keys.append(key)
        group.all_keys.add(key)
        agent = _agent_name(row)
        if agent:
            group.agents[agent] += 1
        server = row.get("_ng_environment_server")
        if isinstance(server, str):
            group.environment_servers[server] += 1
    facts.failure_groups = sorted(groups.values(), key=lambda g: -g.count)


def _uses_tools(row: dict[str, Any]) -> bool:
    tools = row.get("responses_create_params", {}).get("tools")
    return isinstance(tools, list) and bool(tools)


def _collect_materialized(facts: ArtifactFacts, done: dict[Key, int]) -> None:
    pending = dict(done)  # rollout keys not (yet) seen in the materialized inputs
    tasks: set[int] = set()
    first_failing = {g.keys[0] for g in facts.failure_groups if g.keys}
    file = facts.rel(facts.materialized.path)
    for line_number, _raw, row in _iter_rows(facts.materialized, _check_materialized):
        key = _key(row)
        tasks.add(key[0])
        note_materialized_row(facts.quality, row, key, line_number, MAX_EXAMPLES)
        facts.rows_with_tools += _uses_tools(row)
        facts.input_fields.update(row.keys())
        facts.input_fields_empty.update(name for name, value in row.items() if value in ("", None) or value == [] or value == {})
        agent = _agent_name(row)
        if agent:
            facts.agents[agent] += 1
        pending.pop(key, None)
        failed = key in facts.failed_keys
        if key in first_failing:
            facts.failing_rows[key] = row
        if failed and len(facts.materialized_lines) < MAX_REMEMBERED_LINES:
            facts.materialized_lines[key] = line_number
        if key in done:
            facts.recovered_keys += failed
            continue
        facts.missing_keys.append(key)
        if len(facts.materialized_lines) < MAX_REMEMBERED_LINES:
            facts.materialized_lines[key] = line_number
        if not failed:
            facts.missing_without_failure.append(key)
            if len(facts.missing_examples) < MAX_EXAMPLES:
                facts.missing_examples.append(
                    EvidenceLine(
                        file=file,
                        line=line_number,
                        text=f"task {key[0]} rollout {key[1]} materialized; no row in "
                        f"{facts.rel(facts.rollouts.path)} and none in {facts.rel(facts.failures.path)}",
                    )
                )
    facts.materialized_tasks = len(tasks)
    if facts.materialized.exists and facts.materialized.valid_rows:
        facts.extra_rollout_keys = sorted(pending)
        for key in facts.extra_rollout_keys[:MAX_EXAMPLES]:
            facts.extra_examples.append(
                EvidenceLine(
                    file=facts.rel(facts.rollouts.path),
                    line=pending[key],
                    text=f"task {key[0]} rollout {key[1]} has a rollout but no row in {file}",
                )
            )


def _collect_profile(facts: ArtifactFacts) -> None:
    file = facts.rel(facts.profile.path)
    for line_number, _raw, row in _iter_rows(facts.profile, _check_profile):
        note_profile_row(facts.quality, row, file, line_number)
        facts.profile_rollouts += row["num_rollouts"]
        missing = row.get("missing_num_rollouts")
        if isinstance(missing, int):
            facts.profile_missing_rollouts += missing


def _read_json(path: Path) -> tuple[Any, list[str]] | None:
    if not path.is_file():
        return None
    text = path.read_text(encoding="utf-8", errors="replace")
    try:
        return orjson.loads(text), text.splitlines()
    except orjson.JSONDecodeError:
        return None


def _collect_run_summary(facts: ArtifactFacts) -> None:
    """A task-folder run's summary: stale files it lists, and each task's failure message."""
    read = _read_json(facts.files.summary)
    if read is None:
        return
    value, lines = read
    file = facts.rel(facts.files.summary)
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
            continue
        if not isinstance(item, dict):
            continue
        stale = item.get("stale_files")
        if isinstance(stale, list) and stale:
            facts.stale_files += [str(s) for s in stale]
            line = line_holding(lines, '"stale_files"')
            facts.stale_files_line = EvidenceLine(file=file, line=line, text=f"stale_files: {stale}")
        failure = item.get("failure")
        message = failure.get("message") if isinstance(failure, dict) else None
        if isinstance(message, str):
            facts.match_errors(file, line_holding(lines, orjson.dumps(message).decode()[1:-1][:80]), message)
        stack.extend(item.values())


def _collect_skipped(facts: ArtifactFacts) -> None:
    """skipped.json: each task ID the loader refused, with its reason."""
    read = _read_json(facts.files.skipped)
    if read is None:
        return
    value, lines = read
    if isinstance(value, dict):
        entries = list(value.items())
    elif isinstance(value, list):
        entries = [(e.get("task") or e.get("task_id") or e.get("id"), e) for e in value if isinstance(e, dict)]
    else:
        return
    file = facts.rel(facts.files.skipped)
    for task, reason in entries:
        if isinstance(reason, dict):
            reason = reason.get("reason") or reason.get("message") or orjson.dumps(reason).decode()
        task, reason = str(task), str(reason)
        line = line_holding(lines, orjson.dumps(task).decode())
        where = EvidenceLine(file=file, line=line, text=f"{task}: {excerpt(reason)}")
        facts.skipped.append(SkippedTask(task, reason, where))
        facts.hits.append(("skipped_task", LogHit(file, line or 0, f"{task}: {reason}", {"task": task})))
        facts.match_errors(file, line, reason)


def collect_artifacts(run_dir: Path) -> ArtifactFacts:
    """Stream the run's files once and return what they show."""
    files = find_run_files(run_dir)
    facts = ArtifactFacts(
        run_dir=run_dir,
        files=files,
        materialized=FileStats("materialized inputs", files.materialized),
        rollouts=FileStats("rollouts", files.rollouts),
        failures=FileStats("failures sidecar", files.failures),
        profile=FileStats("reward profile", files.profile),
    )
    done = _collect_rollouts(facts)
    _collect_failures(facts)
    _collect_materialized(facts, done)
    _collect_profile(facts)
    _collect_run_summary(facts)
    _collect_skipped(facts)
    return facts
