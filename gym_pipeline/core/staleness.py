"""Is a materialized-inputs file still what its source data and settings would produce?

NeMo Gym's `--resume` reuses `*_materialized_inputs.jsonl` whenever it exists. This
module answers the question Gym never asks: it re-materializes the source with the
given settings (in memory, with the same code as `materialize`) and compares row for
row, then explains the difference in terms a person can act on: which tasks were
added, removed, changed or moved, and which settings no longer match.
"""

from __future__ import annotations

import shlex
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import orjson

from gym_pipeline.core.fingerprint import file_digest
from gym_pipeline.core.formats import AGENT_REF, ROLLOUT_INDEX, TASK_INDEX, iter_jsonl_dicts
from gym_pipeline.core.materialize import MaterializationSettings, materialize_source

MAX_LISTED_ROWS = 20


@dataclass
class TaskChanges:
    added: int = 0
    removed: int = 0
    changed: int = 0
    moved: int = 0  # same content under another task index (reordered data)

    def describe(self) -> str:
        parts = [f"{count} task{'s' if count > 1 else ''} {what}" for what, count in asdict(self).items() if count]
        return ", ".join(parts) if parts else "no task content changed"


@dataclass
class StaleReport:
    materialized: str
    source: str
    stale: bool
    reasons: list[str]
    notes: list[str]
    current_source_digest: str
    recorded_source_digest: str | None
    rows_expected: int
    rows_found: int
    tasks: TaskChanges
    settings_differences: dict[str, dict[str, Any]]
    differing_rows: list[dict[str, Any]]  # the first MAX_LISTED_ROWS
    rebuild_command: str

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def summary(self) -> str:
        if not self.stale:
            return f"{self.materialized} matches {self.source} and its settings"
        return f"{self.materialized} is stale: " + "; ".join(self.reasons)


def rebuild_command(source: Path, output: Path, settings: MaterializationSettings) -> str:
    return shlex.join(["gym-pipeline", "materialize", "--input", str(source), *settings_arguments(settings),
                       "--output", str(output)])


def settings_arguments(settings: MaterializationSettings) -> list[str]:
    """The `materialize` / `check-stale` options that give these settings."""
    repeats = settings.num_repeats
    words = ["--num-repeats", str(repeats) if isinstance(repeats, int) else orjson.dumps(repeats).decode()]
    if settings.agent or not settings.agent_map:
        words += ["--agent", settings.agent or "AGENT"]
    if settings.interleave_repeats:
        words.append("--interleave-repeats")
    if settings.limit:
        words += ["--limit", str(settings.limit)]
    if settings.num_repeats_add_seed:
        words.append("--num-repeats-add-seed")
    if settings.prompt_config:
        words += ["--prompt-config", str(settings.prompt_config)]
    if settings.agent_map:
        words += ["--agent-map", orjson.dumps(settings.agent_map).decode()]
    if settings.fan_out:
        words += ["--fan-out", orjson.dumps(settings.fan_out).decode()]
    if settings.responses_create_params:
        words += ["--responses-create-params", orjson.dumps(settings.responses_create_params).decode()]
    return words


def _task_contents(rows: list[dict[str, Any]]) -> dict[int, bytes]:
    """Each task's row content without its indices, keyed by task index (first repeat seen)."""
    contents: dict[int, bytes] = {}
    for row in rows:
        task = row.get(TASK_INDEX)
        if isinstance(task, int) and task not in contents:
            stripped = {k: v for k, v in row.items() if k not in (TASK_INDEX, ROLLOUT_INDEX, AGENT_REF)}
            contents[task] = orjson.dumps(stripped, option=orjson.OPT_SORT_KEYS)
    return contents


def _task_changes(found: list[dict[str, Any]], expected: list[dict[str, Any]]) -> TaskChanges:
    old, new = _task_contents(found), _task_contents(expected)
    gone = Counter(old.values()) - Counter(new.values())
    arrived = Counter(new.values()) - Counter(old.values())
    changes = TaskChanges()
    # A task index whose old content left and new content arrived was edited in place.
    for task in sorted(old.keys() & new.keys()):
        if old[task] != new[task] and gone[old[task]] and arrived[new[task]]:
            gone[old[task]] -= 1
            arrived[new[task]] -= 1
            changes.changed += 1
    changes.added = sum(arrived.values())
    changes.removed = sum(gone.values())
    unchanged_content = set(old.values()) & set(new.values())
    changes.moved = sum(1 for task, content in new.items() if content in unchanged_content and old.get(task) != content)
    return changes


def _settings_seen(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """What settings a materialized file shows: repeats per task, agents, repeat order."""
    repeats = Counter(row.get(TASK_INDEX) for row in rows)
    agents = sorted({(row.get(AGENT_REF) or {}).get("name") for row in rows} - {None})
    interleaved = len(rows) > 1 and rows[0].get(TASK_INDEX) != rows[1].get(TASK_INDEX) and len(repeats) < len(rows)
    return {
        "num_repeats": sorted(set(repeats.values())),
        "agent": agents,
        "interleave_repeats": interleaved,
    }


def _settings_differences(found: list[dict[str, Any]], settings: MaterializationSettings) -> dict[str, dict]:
    seen = _settings_seen(found)
    differences = {}
    if found and isinstance(settings.num_repeats, int) and seen["num_repeats"] != [settings.num_repeats]:
        differences["num_repeats"] = {"found": seen["num_repeats"], "expected": settings.num_repeats}
    if found and settings.agent and settings.agent not in seen["agent"]:
        differences["agent"] = {"found": seen["agent"], "expected": settings.agent}
    if found and settings.num_repeats != 1 and seen["interleave_repeats"] != settings.interleave_repeats:
        differences["interleave_repeats"] = {"found": seen["interleave_repeats"],
                                             "expected": settings.interleave_repeats}
    return differences


def _same_row(old: dict[str, Any] | None, new: dict[str, Any] | None) -> bool:
    """Equal as Gym writes them: type-exact (Python's `1 == 1.0 == True` is not) and in key order, both of which
    change the file Gym writes."""
    if old is None or new is None:
        return old is new
    return orjson.dumps(old) == orjson.dumps(new)


def _differing_rows(found: list[dict[str, Any]], expected: list[dict[str, Any]]) -> tuple[int, list[dict[str, Any]]]:
    differing, listed = 0, []
    for index in range(max(len(found), len(expected))):
        old = found[index] if index < len(found) else None
        new = expected[index] if index < len(expected) else None
        if _same_row(old, new):
            continue
        differing += 1
        if len(listed) < MAX_LISTED_ROWS:
            row = new or old
            listed.append({
                "line": index + 1,
                TASK_INDEX: row.get(TASK_INDEX),
                ROLLOUT_INDEX: row.get(ROLLOUT_INDEX),
                "change": "missing" if old is None else "extra" if new is None else "different",
            })
    return differing, listed


def unchanged_since_recorded(materialized: Path, source: Path, settings: MaterializationSettings,
                             record: dict[str, Any], code_version: str) -> StaleReport | None:
    """A fresh report without re-materializing, when the file is the very one materialization recorded
    writing from this source, these settings and this code; None when anything differs (compare rows then)."""
    if not record or record.get("code_version") != code_version:
        return None
    if record.get("settings_digest") != settings.digest():
        return None
    source_digest, materialized = file_digest(source), Path(materialized)
    if record["source"]["digest"] != source_digest or not materialized.exists():
        return None
    if record["output"]["digest"] != file_digest(materialized):
        return None
    rows = record["output"]["rows"]
    return StaleReport(
        materialized=str(materialized), source=str(source), stale=False, reasons=[], notes=[],
        current_source_digest=source_digest, recorded_source_digest=source_digest, rows_expected=rows,
        rows_found=rows, tasks=TaskChanges(), settings_differences={}, differing_rows=[],
        rebuild_command=rebuild_command(Path(source), materialized, settings),
    )


def compare_materialized(
    materialized: Path,
    source: Path,
    settings: MaterializationSettings,
    recorded_source_digest: str | None = None,
) -> StaleReport:
    """Compare a materialized-inputs file with what `source` and `settings` produce now."""
    materialized, source = Path(materialized), Path(source)
    expected = materialize_source(source, settings)
    found = [row for _, row in iter_jsonl_dicts(materialized)]
    current_digest = file_digest(source)
    tasks = _task_changes(found, expected)
    differences = _settings_differences(found, settings)
    differing, listed = _differing_rows(found, expected)
    source_changed = bool(recorded_source_digest) and recorded_source_digest != current_digest
    reasons, notes = [], []
    if source_changed and not differing:
        notes.append(f"{source} changed ({recorded_source_digest} -> {current_digest}) but still materializes "
                     "to the same rows")
    if differing:
        if source_changed:
            reasons.append(f"{source} changed since materialization ({recorded_source_digest} -> {current_digest})")
        if any(asdict(tasks).values()):
            reasons.append(f"source data: {tasks.describe()}")
        for name, values in differences.items():
            reasons.append(f"{name}: the file has {values['found']}, the settings ask for {values['expected']}")
        if not reasons:
            reasons.append(f"{differing} rows differ from a fresh materialization")
    return StaleReport(
        materialized=str(materialized),
        source=str(source),
        stale=bool(differing),
        reasons=reasons,
        notes=notes,
        current_source_digest=current_digest,
        recorded_source_digest=recorded_source_digest,
        rows_expected=len(expected),
        rows_found=len(found),
        tasks=tasks,
        settings_differences=differences,
        differing_rows=listed,
        rebuild_command=rebuild_command(source, materialized, settings),
    )


class StaleInputsError(RuntimeError):
    """Resuming would mix rows of old and new inputs."""


def ensure_resume_is_safe(materialized: Path, rollouts_record: dict[str, Any] | None,
                          inputs_record: dict[str, Any] | None) -> None:
    """Refuse to resume a collection whose inputs no longer match what they were built from.

    `inputs_record` is the manifest's materialization record (source digest and settings),
    `rollouts_record` the collection's own (the digest of the inputs it started on).
    """
    materialized = Path(materialized)
    if inputs_record:
        source = Path(inputs_record["source"]["path"])
        settings = MaterializationSettings(**inputs_record["settings"])
        rebuild = rebuild_command(source, materialized, settings)
        if not source.exists():
            raise StaleInputsError(f"cannot resume: the source of {materialized}, {source}, is gone")
        current = file_digest(source)
        if current != inputs_record["source"]["digest"]:
            raise StaleInputsError(
                f"cannot resume: {source} changed since {materialized} was built "
                f"({inputs_record['source']['digest']} -> {current}). Rebuild the inputs with `{rebuild}` "
                "and collect again without --resume."
            )
    if rollouts_record and rollouts_record.get("inputs", {}).get("digest"):
        current = file_digest(materialized)
        if current != rollouts_record["inputs"]["digest"]:
            raise StaleInputsError(
                f"cannot resume: {materialized} changed since these rollouts were collected "
                f"({rollouts_record['inputs']['digest']} -> {current}); collect again without --resume."
            )
