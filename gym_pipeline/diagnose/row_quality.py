"""Quiet data faults that only the rows show: a run can complete, profile and still measure nothing.

Collected while `artifacts` streams the files, one row at a time, in bounded memory:
- one task index holding different prompts (datasets concatenated with their own `_ng_task_index`), so
  Gym's per-task statistics and pass@k mix unrelated tasks;
- a verifier refusing a row's own value (its failure_reason names the field and quotes the row's value):
  the row, not the verifier, is wrong;
- answers scored 0 whose extracted text holds the expected answer and more (`extracted_answer` =
  "Final answer: 1024" against "1024"): the extraction does not fit how the prompts ask for answers.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import orjson

from gym_pipeline.diagnose.evidence_line import EvidenceLine, excerpt

MAX_SHOWN_VALUE = 80  # a quoted row value, in an evidence line


@dataclass
class SharedTaskIndex:
    task: int
    first_line: int
    line: int
    first_prompt: str
    prompt: str


@dataclass
class RowQuality:
    prompt_of_task: dict[int, tuple[int, int, str]] = field(default_factory=dict)  # task -> (digest, line, text)
    shared_task_indices: set[int] = field(default_factory=set)
    shared_examples: list[SharedTaskIndex] = field(default_factory=list)
    refused_fields: Counter[str] = field(default_factory=Counter)  # field -> rows whose verifier refused its value
    refused_examples: dict[str, EvidenceLine] = field(default_factory=dict)
    scored_rows: int = 0  # rollouts with a reward and no failure_kind
    unextracted_answers: int = 0  # ... scored 0 while the extracted text holds the expected answer
    unextracted_example: EvidenceLine | None = None
    # (field, value) of the materialized rows' extraction settings (`extraction_mode`...), where they have any
    extraction_settings: Counter[tuple[str, str]] = field(default_factory=Counter)
    # failure reasons of rollouts whose row holds no field they name: checked against the materialized row
    reasons_to_check: dict[tuple[int, int], tuple[str, EvidenceLine]] = field(default_factory=dict)

MAX_REASONS_TO_CHECK = 1000


def _prompt(row: dict[str, Any]) -> Any:
    """What makes a task that task: the request's input messages, or a taskset row's task."""
    params = row.get("responses_create_params")
    if isinstance(params, dict) and "input" in params:
        return params["input"]
    return row.get("task_input", row.get("task_id"))


def _prompt_text(prompt: Any) -> str:
    text = prompt if isinstance(prompt, str) else orjson.dumps(prompt).decode()
    found = re.findall(r'"(?:text|content)":"((?:[^"\\]|\\.)*)"', text)  # the message text, where there is one
    return excerpt(found[0] if found else text, 60)


def note_materialized_row(quality: RowQuality, row: dict[str, Any], key: tuple[int, int], line: int,
                          max_examples: int) -> None:
    quality.extraction_settings.update((name, value) for name, value in row.items()
                                       if "extract" in name and isinstance(value, str))
    pending = quality.reasons_to_check.pop(key, None)
    if pending is not None:
        _note_refused_value(quality, row, *pending)
    task = key[0]
    prompt = _prompt(row)
    if prompt is None:
        return
    digest = hash(orjson.dumps(prompt, option=orjson.OPT_SORT_KEYS))
    seen = quality.prompt_of_task.get(task)
    if seen is None:  # the first row of a task: its text kept short, for the evidence
        quality.prompt_of_task[task] = (digest, line, _prompt_text(prompt))
    elif seen[0] != digest and task not in quality.shared_task_indices:
        quality.shared_task_indices.add(task)
        if len(quality.shared_examples) < max_examples:
            quality.shared_examples.append(SharedTaskIndex(task, seen[1], line, seen[2], _prompt_text(prompt)))


def _quoted(value: str, text: str, flags: int = 0) -> bool:
    """`value` as a whole word or phrase of `text`; one character is too short to tell."""
    return len(value) >= 2 and re.search(rf"(?<!\w){re.escape(value)}(?!\w)", text, flags) is not None


def note_rollout_row(quality: RowQuality, row: dict[str, Any], key: tuple[int, int], file: str, line: int) -> None:
    reason = row.get("failure_reason")
    if row.get("failure_kind") is not None:
        if isinstance(reason, str) and reason.strip():
            first_line = reason.strip().splitlines()[0]
            where = EvidenceLine(file=file, line=line, text=f"task {key[0]} rollout {key[1]}: "
                                                            f"failure_reason={excerpt(first_line)!r}")
            if not _note_refused_value(quality, row, first_line, where) and \
                    len(quality.reasons_to_check) < MAX_REASONS_TO_CHECK:
                quality.reasons_to_check[key] = (first_line, where)
        return
    if not isinstance(row.get("reward"), (int, float)):
        return
    quality.scored_rows += 1
    expected, extracted = row.get("expected_answer"), row.get("extracted_answer")
    if row["reward"] != 0 or not isinstance(expected, str) or not isinstance(extracted, str):
        return
    if extracted.strip() == expected.strip() or not _quoted(expected.strip(), extracted):
        return
    quality.unextracted_answers += 1
    if quality.unextracted_example is None:
        quality.unextracted_example = EvidenceLine(
            file=file, line=line, text=f"task {key[0]} rollout {key[1]}: reward=0 expected_answer={expected!r} "
                                       f"extracted_answer={excerpt(extracted, MAX_SHOWN_VALUE)!r}")


def _note_refused_value(quality: RowQuality, row: dict[str, Any], reason: str, where: EvidenceLine) -> bool:
    """A failure reason naming one of the row's own fields and quoting that field's value."""
    for name, value in row.items():
        if name.startswith("_ng_") or name in ("failure_reason", "failure_kind") or not isinstance(value, str):
            continue
        # the value quoted in any case: verifiers normalize it ("FRANCE" for France)
        if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", reason) and _quoted(value.strip(), reason, re.IGNORECASE):
            quality.refused_fields[name] += 1
            quality.refused_examples.setdefault(name, where.model_copy(update={
                "text": f"{where.text}; the row's {name}={excerpt(value, MAX_SHOWN_VALUE)!r}"}))
            return True
    return False
