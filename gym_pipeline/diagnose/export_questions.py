"""A spreadsheet export of questions kept beside the run, read against the prompts the run evaluated.

Users build their rows from an export (a CSV or TSV of questions and answers) with a script of their own. The
export says what the run should have asked: its question column is the one whose cells start prompts of the
materialized inputs. The readings of lost, cut and stale questions compare the two.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

from gym_pipeline.core.formats import JsonlFormatError, iter_jsonl_dicts
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.row_quality import message_texts

MAX_EXPORT_BYTES = 8 << 20  # a spreadsheet export beside the run, not a dataset dump
_EXPORT_SUFFIXES = {".csv", ".tsv"}
MAX_PROMPTS_READ = 20_000
MIN_QUESTION_CHARS = 12  # shorter cells are answers, ids or categories, not questions
START_CHARS = 24  # a question's start that identifies its prompt when its end was cut
MOSTLY_FOUND = 0.5  # of a column's cells whose start is in some prompt: the question column


def exports_beside(run_dir: Path) -> list[Path]:
    """The CSV and TSV files of the run folder and its subfolders (not deeper)."""
    candidates = [*run_dir.iterdir(), *(p for d in run_dir.iterdir() if d.is_dir() for p in d.iterdir())]
    return sorted(p for p in candidates if p.suffix in _EXPORT_SUFFIXES and p.is_file()
                  and p.stat().st_size <= MAX_EXPORT_BYTES)


def export_table(export: Path) -> tuple[list[str], list[list[str]]] | None:
    text = export.read_text(encoding="utf-8", errors="replace")
    rows = list(csv.reader(io.StringIO(text), delimiter="\t" if export.suffix == ".tsv" else ","))
    if len(rows) < 2:
        return None
    return rows[0], rows[1:]


def normalized(text: str) -> str:
    return " ".join(text.split())


def loose(text: str) -> str:
    """A text as a true duplicate of it reads: case, spacing and punctuation aside."""
    return re.sub(r"[\W_]+", " ", text).strip().lower()


@dataclass(frozen=True)
class AskedExport:
    """An export beside the run and the prompts the run evaluated (with each one's expected answer)."""

    export: Path
    header: list[str]
    rows: list[list[str]]  # the rows with every cell filled
    question_column: int
    answers: dict[str, str | None]  # normalized prompt text -> the expected_answer of its row
    joined: str  # every prompt, one per line: what `in` searches

    def question(self, row: list[str]) -> str:
        return normalized(row[self.question_column])

    def prompt_of(self, question: str) -> str | None:
        """The prompt that holds `question` whole, or else the first that holds its start."""
        start = question[:START_CHARS]
        if start not in self.joined:
            return None
        return next((prompt for prompt in self.answers if question in prompt), None) \
            or next((prompt for prompt in self.answers if start in prompt), None)


def _prompt_answers(path: Path) -> dict[str, str | None]:
    answers: dict[str, str | None] = {}
    try:
        for _, row in islice(iter_jsonl_dicts(path), MAX_PROMPTS_READ):
            params = row.get("responses_create_params")
            if isinstance(params, dict):
                expected = row.get("expected_answer")
                answers[normalized(" ".join(message_texts(params.get("input"))))] = \
                    None if expected is None else str(expected)
    except (JsonlFormatError, OSError, ValueError):
        return {}
    return answers


def _question_column(header: list[str], rows: list[list[str]], joined: str) -> int | None:
    best, best_found = None, 0
    for column in range(len(header)):
        cells = [normalized(row[column]) for row in rows if column < len(row)]
        long = [cell for cell in cells if len(cell) >= MIN_QUESTION_CHARS]
        found = sum(1 for cell in long if cell[:START_CHARS] in joined)
        if long and found >= MOSTLY_FOUND * len(rows) and found > best_found:
            best, best_found = column, found
    return best


def asked_exports(ev: Evidence) -> Iterator[AskedExport]:
    """Each export beside the run whose questions start the prompts the run evaluated."""
    materialized = ev.artifacts.materialized.path
    if ev.run_dir is None or not ev.run_dir.is_dir() or not materialized.is_file():
        return
    answers = _prompt_answers(materialized)
    joined = "\n".join(sorted(answers))
    if not joined:
        return
    for export in exports_beside(ev.run_dir):
        table = export_table(export)
        if table is None:
            continue
        header, rows = table
        question_column = _question_column(header, rows, joined)
        if question_column is not None:
            complete = [row for row in rows if len(row) == len(header) and all(cell.strip() for cell in row)]
            yield AskedExport(export, header, complete, question_column, answers, joined)


def export_line(export: Path, question: str) -> int:
    """The line of `export` that holds `question` (its first, where a cell spans lines)."""
    with export.open(encoding="utf-8", errors="replace") as lines:
        return next((number for number, line in enumerate(lines, 1) if question[:START_CHARS] in normalized(line)), 1)
