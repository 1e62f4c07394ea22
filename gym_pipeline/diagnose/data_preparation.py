"""The user's data-preparation script in a run folder (`prep_data.py questions.csv tasks.jsonl`), named in the fixes
of data faults it made: the line that sets each row's `expected_answer`, a line that splits a table's lines by hand,
and the files the run's shell scripts hand it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, UserFile, lines_matching

LABEL_ASSIGNMENT = re.compile(r"""["']expected_answer["']\s*[:\]]|\bexpected_answer\s*=[^=]""")
# `line.split(",")`: a table's line cut at every comma (or tab, semicolon), quoted fields or not
HAND_SPLIT = re.compile(r"""\.split\(\s*(['"])(?:,|;|\\t|\|)\1\s*\)""")
_RUNS_SCRIPT = r"""(?:^|[\s/;&|(])(?:\S*python3?\s+)?(?:\./)?{name}\s+(?P<arguments>[^#;&|>]*)"""


@dataclass(frozen=True)
class ScriptLine:
    """One line of the user's data-preparation script."""

    file: UserFile
    number: int
    text: str

    def named(self) -> str:
        return f"{self.file.name} line {self.number} (`{self.text.strip()}`)"


def _first(files: list[UserFile], pattern: re.Pattern[str]) -> ScriptLine | None:
    found = next(lines_matching(files, pattern, {".py"}), None)
    return None if found is None else ScriptLine(found[0], found[1], found[2])


def label_line(files: list[UserFile]) -> ScriptLine | None:
    """The Python line that sets the rows' `expected_answer` (`"expected_answer": item["answer_html"]`)."""
    return _first(files, LABEL_ASSIGNMENT)


def hand_split_line(files: list[UserFile]) -> ScriptLine | None:
    """The Python line that splits a table's lines on a separator by hand (`line.split(",")`)."""
    return _first(files, HAND_SPLIT)


def files_handed_to(files: list[UserFile], script: UserFile) -> list[str]:
    """The file arguments a shell script of the run folder runs `script` with (`python3 prep_data.py questions.csv
    tasks.jsonl` -> questions.csv, tasks.jsonl)."""
    runs = re.compile(_RUNS_SCRIPT.format(name=re.escape(script.name)))
    for _, _, _, match in lines_matching(files, runs, SCRIPT_SUFFIXES):
        return [word for word in match["arguments"].split() if "." in word and not word.startswith("-")]
    return []


def label_source(files: list[UserFile]) -> tuple[ScriptLine, list[str]] | None:
    """The line that sets the rows' `expected_answer`, and the files (not the rows it writes) its script is run on."""
    label = label_line(files)
    if label is None:
        return None
    return label, [name for name in files_handed_to(files, label.file) if not name.endswith(".jsonl")]
