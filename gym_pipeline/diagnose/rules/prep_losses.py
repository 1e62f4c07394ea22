"""Step 5: a data-preparation script that silently loses questions of its source export, or cuts their text.

A user's script turns an export (a CSV or TSV of questions and answers kept beside the run) into the rows the run
evaluates. Two of its faults leave every command at exit 0 and a profile that looks like any other: distinct
questions collapsed as duplicates (a de-duplication key on the question's start, `question[:20]`), and questions
shortened to a length (`textwrap.shorten(text, WIDTH)`, `text[:80]`), which loses their end and the answer format
asked after them. The export says what the run should have asked: each of its questions, whole, in one prompt.
Rows a script leaves out on purpose (a split or difficulty column that parts the kept rows from the others, exact
duplicates, rows without an answer) are not read as lost.
"""

from __future__ import annotations

import re
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, excerpt
from gym_pipeline.diagnose.export_questions import START_CHARS, AskedExport, asked_exports, export_line, loose
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import UserFile, lines_matching
from gym_pipeline.diagnose.vocabulary import DATA_SCHEMA

END_CHARS = 12  # a question's end, which a cut prompt lacks
SHARED_START = 10  # characters a dropped question shares with the kept one it was taken for a duplicate of
MAX_FILTER_VALUES = 6  # a column with few values that parts kept from lost rows is a deliberate filter
_SHORTENS = re.compile(r"\btextwrap\.shorten\(|\bshorten\(|\btruncate\w*\(|\[\s*:\s*[A-Z_\d]+\s*\]")
_DEDUPLICATES = re.compile(r"\bdrop_duplicates\(|\bkey\s*=|\bin\s+seen\b|\bseen\.add\(|\bdedup\w*")
PrepLine = tuple[UserFile, int, str]  # a line of the prep script: its file, number and text


def _shared_start(text: str, other: str) -> int:
    return next((i for i, (a, b) in enumerate(zip(text, other, strict=False)) if a != b), min(len(text), len(other)))


def _cut_to(question: str, asked: AskedExport) -> int | None:
    """How much of `question` the prompt that begins it holds, when that prompt lacks the question's end (cut, not
    rewritten: an escaped character inside a question leaves its end in the prompt)."""
    prompt = asked.prompt_of(question)
    if prompt is None or question[-END_CHARS:] in prompt:
        return None
    return _shared_start(question, prompt[prompt.index(question[:START_CHARS]):])


def _deliberate_filter(header: list[str], kept: list[list[str]], lost: list[list[str]], skip: set[int]) -> bool:
    for column in set(range(len(header))) - skip:
        kept_values = {row[column].strip() for row in kept if column < len(row)}
        lost_values = {row[column].strip() for row in lost if column < len(row)}
        values = kept_values | lost_values  # a category: few values, each on several rows
        if kept_values and lost_values and not kept_values & lost_values \
                and len(values) <= min(MAX_FILTER_VALUES, (len(kept) + len(lost)) // 2):
            return True
    return False


def _script_line(ev: Evidence, export: Path, pattern: re.Pattern[str]) -> PrepLine | None:
    """The first line matching `pattern` in a Python script of the run that reads `export`: the step that lost or
    cut the questions, without which the rule does not speak (a misread export can look like a cut one)."""
    readers = [file for file in ev.user_files if export.name in file.text]
    return next(((file, number, line.strip()) for file, number, line, _ in lines_matching(readers, pattern, {".py"})
                 if not line.lstrip().startswith("#")), None)


def _collapsed_into(question: str, kept: list[str]) -> tuple[str, int]:
    """The kept question `question` shares the longest start with, and how many characters."""
    other = max(kept, key=lambda k: _shared_start(question.lower(), k.lower()))
    return other, _shared_start(question.lower(), other.lower())


def rule_questions_lost_or_cut_by_the_prep_script(ev: Evidence) -> list[Finding]:
    finding = questions_lost_or_cut(ev)
    return [] if finding is None else [finding]


def questions_lost_or_cut(ev: Evidence) -> Finding | None:
    """The finding of a prep script that dropped or cut the export's questions, if it did: also what makes the
    model's odd replies to those prompts the data's fault (`quality.prompts_at_fault`)."""
    for asked in asked_exports(ev):
        questions = [asked.question(row) for row in asked.rows]
        cut = [(q, kept) for q in questions if q not in asked.joined and (kept := _cut_to(q, asked)) is not None]
        if cut and (line := _script_line(ev, asked.export, _SHORTENS)):
            return _shortened(ev, asked.export, line, cut, len(questions))
        kept_rows = [row for row, q in zip(asked.rows, questions, strict=True) if q[:START_CHARS] in asked.joined]
        lost_rows = [row for row in asked.rows if row not in kept_rows]
        kept_questions = [asked.question(row) for row in kept_rows]
        duplicates = {loose(k) for k in kept_questions}
        lost = [q for q in map(asked.question, lost_rows)
                if loose(q) not in duplicates and _collapsed_into(q, kept_questions)[1] >= SHARED_START] \
            if kept_questions else []
        if lost and (line := _script_line(ev, asked.export, _DEDUPLICATES)) \
                and not _deliberate_filter(asked.header, kept_rows, lost_rows, {asked.question_column}):
            return _collapsed(ev, asked.export, line, lost, kept_questions, len(questions))
    return None


def _evidence(ev: Evidence, export: Path, line: PrepLine, question: str) -> list[EvidenceLine]:
    """The script's line that lost or cut the questions, and the export's line of the first question it did it to."""
    return [EvidenceLine(file=line[0].name, line=line[1], text=line[2]),
            EvidenceLine(file=ev.rel(export), line=export_line(export, question), text=excerpt(question, 160))]


def _shortened(ev: Evidence, export: Path, line: PrepLine, cut: list[tuple[str, int]], total: int) -> Finding:
    question, kept = cut[0]
    where = f"{line[0].name}:{line[1]} (`{line[2]}`)"
    return Finding(
        category=DATA_SCHEMA,
        title=f"{len(cut)} of the {total} questions of {ev.rel(export)} reach the model cut short: the prompts hold "
              f"their first characters only ({question[:kept]!r}...)",
        evidence=_evidence(ev, export, line, question),
        cause=f"The export asks {question!r}; the prompt the run evaluated holds {kept} of its {len(question)} "
              f"characters. {where} shortens the text it builds, so the long questions lose their end (and whatever "
              "is asked after them, such as the answer format): the model is graded on questions it was never asked "
              "whole. Nothing fails.",
        fix=f"In {where}, stop shortening the prompt (or raise the width above the longest question); write the rows "
            "again from the export, materialize again and collect on a clean output path.",
    )


def _collapsed(ev: Evidence, export: Path, line: PrepLine, lost: list[str], kept: list[str], total: int) -> Finding:
    other, shared = _collapsed_into(lost[0], kept)
    where = f"{line[0].name}:{line[1]} (`{line[2]}`)"
    return Finding(
        category=DATA_SCHEMA,
        title=f"{len(lost)} of the {total} questions of {ev.rel(export)} are in no prompt the run evaluated, though "
              f"no kept question repeats them (first: {lost[0]!r})",
        evidence=_evidence(ev, export, line, lost[0]),
        cause=f"{lost[0]!r} is not asked by any prompt; it shares its first {shared} characters with the kept "
              f"{other!r}. {where} drops questions it takes for duplicates, and its de-duplication key is coarser "
              f"than the question: {len(lost)} distinct questions were dropped. Every command exits 0 and the "
              "profile covers the questions left.",
        fix=f"In {where}, key the de-duplication on the whole question (normalized for case and spacing), not on "
            "a part of it; write the rows again from the export, materialize again and collect on a clean output "
            "path.",
    )
