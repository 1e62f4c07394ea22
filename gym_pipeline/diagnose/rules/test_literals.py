"""Step 7: a task's test that compares with a text no answer can equal, read where every episode of the task scored 0.

- A backslash kept inside double quotes. In a script, bash keeps a backslash inside double quotes unless it comes
  before `$`, a backquote, `"`, `\\` or a newline: `"Hello, Gym\\!"` is the text `Hello, Gym\\!`, since history
  expansion, which the backslash guards against at a prompt, is off in scripts. Named when the task's instruction or
  solution has the text without the backslash.
- A list compared in the order `sort` gives under the author's locale (en_US: `apple`, `Banana`, `cherry`), where
  the sandbox's `sort` has no locale and sorts by bytes (`Banana` before `apple`). Named when the solution sorts
  with `sort`.
- A line compared byte for byte without its newline. `printf 'Hello, Gym!' | cmp -s - FILE` compares with text that
  has no final newline, while a file written as a line (`echo`, what the solution does) ends with one. Named when the
  solution writes the text with `echo`.
- A total written into the test (`= "435"`) that is the sum of the first rows of the task's table only: rows were
  added to the data file (this quarter's sales) and the test kept the old total. Named from the table.
- A text in capitals (`"The"`, copied from a sample output) compared case by case, while the instruction asks for
  the answer in lower case (or one in lower case where it asks for upper case). Named from the instruction's words.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.taskfolders import TaskFolderRun, task_folder_run, tests_of_unscored_tasks
from gym_pipeline.diagnose.vocabulary import VERIFIER_RUNTIME

_COMPARISON = re.compile(r"\s(?:==?|!=)\s")
_DOUBLE_QUOTED = re.compile(r"\"(?P<text>(?:[^\"\\]|\\.)*)\"")
_EXPANDED = re.compile(r"(?<!\\)[$`]")
_KEPT_BACKSLASH = re.compile(r"\\(?P<char>[^$`\"\\\n])")
_PRINTF_COMPARED = re.compile(r"\bprintf\s+(?P<quote>['\"])(?P<text>(?:(?!(?P=quote)).)*)(?P=quote)\s*\|\s*"
                              r"(?P<tool>cmp|diff)\b")
_SOLUTION = "solution/solve.sh"


def _line_holding(path: Path, pattern: re.Pattern[str]) -> tuple[int, str] | None:
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    return next(((number, line) for number, line in enumerate(lines, 1) if pattern.search(line)), None)


class _Reading(NamedTuple):
    """What one comparison of the test gets wrong: the finding's words, and the line of the task that shows it."""

    title: str
    cause: str
    change: str
    shown_in: str  # the task's file that has the text as meant
    shown: tuple[int, str]  # its line


def _kept_backslash(folder: Path, line: str) -> _Reading | None:
    if not _COMPARISON.search(line):
        return None
    for match in _DOUBLE_QUOTED.finditer(line):
        expected = match["text"]
        if not _KEPT_BACKSLASH.search(expected) or _EXPANDED.search(expected):
            continue
        meant = _KEPT_BACKSLASH.sub(r"\g<char>", expected)
        for name in ("instruction.md", _SOLUTION):
            if shown := _line_holding(folder / name, re.compile(re.escape(meant))):
                kept = ", ".join(sorted({f"`\\{m['char']}`" for m in _KEPT_BACKSLASH.finditer(expected)}))
                return _Reading(
                    title=f"compares with \"{expected}\", whose backslash a script keeps inside double quotes",
                    cause=f"expects \"{expected}\": inside double quotes a script keeps the backslash of {kept} "
                          "(history expansion, which `\\!` guards against at a prompt, is off in scripts), so the "
                          f"text it compares with is `{expected}` while {name} has `{meant}`",
                    change=f"write the text without the backslash, in single quotes: '{meant}'",
                    shown_in=name, shown=shown)
    return None


def _no_final_newline(folder: Path, line: str) -> _Reading | None:
    match = _PRINTF_COMPARED.search(line)
    if match is None or match["text"].endswith("\\n"):
        return None
    text, tool = match["text"], match["tool"]
    written_as_line = re.compile(rf"\becho\s+(?:-e\s+)?['\"]?{re.escape(text)}['\"]?\s*>")
    if (shown := _line_holding(folder / _SOLUTION, written_as_line)) is None:
        return None
    return _Reading(
        title=f"compares byte for byte (`{tool}`) with `printf '{text}'`, which has no final newline",
        cause=f"compares the file byte for byte with `printf '{text}'`: printf writes no newline unless told, while "
              f"a file written as a line ends with one ({_SOLUTION} writes it with `echo`), so a right answer "
              f"differs from it by that newline",
        change=f"compare with a line: `printf '{text}\\n' | {tool} ...` (or compare `\"$(cat FILE)\"` with the text, "
               "which drops final newlines on both sides)",
        shown_in=_SOLUTION, shown=shown)


_PRINTF_LIST = re.compile(r"\bprintf\s+(?P<quote>['\"])(?P<text>(?:(?!(?P=quote)).)*\\n(?:(?!(?P=quote)).)*)(?P=quote)")
_SORTS = re.compile(r"\bsort\b(?![^|\n]*-f\b)")


def _locale_order(folder: Path, line: str) -> _Reading | None:
    match = _PRINTF_LIST.search(line)
    if match is None or not _COMPARISON.search(line) or "LC_ALL" in line:
        return None
    items = [item for item in match["text"].replace("\\n", "\n").split("\n") if item]
    if len(items) < 2 or items != sorted(items, key=str.casefold) or items == sorted(items):
        return None  # not in a locale's order, or the same in byte order
    if (shown := _line_holding(folder / _SOLUTION, _SORTS)) is None:
        return None
    in_bytes = ", ".join(sorted(items))
    return _Reading(
        title=f"expects the order `sort` gives under a locale ({', '.join(items)}), not the sandbox's byte order",
        cause=f"expects `{', '.join(items)}`: the order of an en_US-like locale, which sorts letters without regard to "
              f"case; the sandbox has no locale set, so `sort` there (what the solution uses) compares bytes and "
              f"gives `{in_bytes}`",
        change="compare with the byte order, or pin the locale for both: `export LC_ALL=C` at the top of test.sh and "
               f"the expected list in that order ({in_bytes}), or sort both sides the same way in the test",
        shown_in=_SOLUTION, shown=shown)


_ASKS_FOR_CASE = re.compile(r"\b(?P<case>lower|upper)[\s-]?case\b", re.IGNORECASE)
# a quoted text on one side of the comparison: `= "The"`, `"The" ==`
_COMPARED_TEXT = re.compile(r"(?:==?|!=)\s*(?P<quote>[\"'])(?P<text>[A-Za-z][\w .,!?-]*)(?P=quote)"
                            r"|(?P<quote2>[\"'])(?P<text2>[A-Za-z][\w .,!?-]*)(?P=quote2)\s*(?:==?|!=)")


def _case_the_instruction_rules_out(folder: Path, line: str) -> _Reading | None:
    if not _COMPARISON.search(line) or re.search(r"\s-i\b|--ignore-case|tolower|toupper|,,|\^\^", line):
        return None
    if (shown := _line_holding(folder / "instruction.md", _ASKS_FOR_CASE)) is None:
        return None
    case = _ASKS_FOR_CASE.search(shown[1])["case"].lower()
    for match in _COMPARED_TEXT.finditer(line):
        text, quote = match["text"] or match["text2"], match["quote"] or match["quote2"]
        wanted = text.lower() if case == "lower" else text.upper()
        if text == wanted:
            continue  # the text is in the case asked for
        return _Reading(
            title=f"compares with \"{text}\" case by case, while the instruction asks for {case} case",
            cause=f"expects `{text}`, while instruction.md asks for the answer in {case} case: an answer written as "
                  f"asked (`{wanted}`) differs from it in case, and the test compares case by case",
            change=f"compare with the text in the case the instruction asks for ({quote}{wanted}{quote}), or ignore "
                   "case on both sides",
            shown_in="instruction.md", shown=shown)
    return None


_COMPARED_NUMBER = re.compile(r"(?:==?|!=|-eq|-ne)\s*[\"']?(?P<number>-?\d+(?:\.\d+)?)(?![\w.])")
MIN_ROWS_SUMMED = 2


def _total_of_fewer_rows(folder: Path, line: str) -> _Reading | None:
    if (compared := _COMPARED_NUMBER.search(line)) is None:
        return None
    expected = float(compared["number"])
    for table in sorted((folder / "environment").glob("*.csv")):
        try:
            rows = [row for row in csv.reader(io.StringIO(table.read_text(encoding="utf-8", errors="replace"))) if row]
        except (OSError, csv.Error):
            continue
        if len(rows) < MIN_ROWS_SUMMED + 2:
            continue
        header, values = rows[0], rows[1:]
        for index, name in enumerate(header):
            try:
                column = [float(row[index]) for row in values]
            except (ValueError, IndexError):
                continue
            if abs(sum(column) - expected) < 1e-9:
                break  # the test's total is the table's: not this
            summed = next((count for count in range(MIN_ROWS_SUMMED, len(column))
                           if abs(sum(column[:count]) - expected) < 1e-9), None)
            if summed is None or abs(column[summed] - expected) < 1e-9:
                continue  # no prefix sums to it, or the row after it is their total (a summary row), not new data
            total = f"{sum(column):g}"
            return _Reading(
                title=f"compares with {compared['number']}, the total of the first {summed} rows of "
                      f"{table.name}, which has {len(column)} now",
                cause=f"expects {compared['number']}: the total of the {name} column over the first {summed} rows of "
                      f"environment/{table.name}, which has {len(column)} rows now (rows were added after the test was "
                      f"written), so a right answer ({total}) differs from it",
                change=f"compare with the total of the table as it is now ({total}), or compute it in the test from "
                       f"/app/{table.name} instead of writing it in",
                shown_in=f"environment/{table.name}", shown=(summed + 2, ",".join(rows[summed + 1])))
    return None


_READINGS: tuple[Callable[[Path, str], _Reading | None], ...] = (_kept_backslash, _no_final_newline, _locale_order,
                                                                 _case_the_instruction_rules_out, _total_of_fewer_rows)


def _finding(ev: Evidence, run: TaskFolderRun, task: str, test: Path, number: int, line: str,
             reading: _Reading) -> Finding:
    folder = test.parent.parent
    return Finding(
        category=VERIFIER_RUNTIME,
        title=f"The test of {task} {reading.title}; every episode of it scored 0",
        evidence=[EvidenceLine(file=ev.rel(test), line=number, text=line.strip()),
                  EvidenceLine(file=ev.rel(folder / reading.shown_in), line=reading.shown[0],
                               text=reading.shown[1].strip())],
        cause=f"tests/test.sh line {number} {reading.cause}: no answer can pass it. The model is not at fault: the "
              "verifier is.",
        fix=f"In {run.task_path(task)}/tests/test.sh line {number} (`{line.strip()}`), {reading.change}; check it "
            f"with the oracle (`gym-pipeline tasks validate {run.task_path(task)}`, which must score 1), then "
            f"{run.rerun()}.",
    )


def rule_test_expects_unreachable_text(ev: Evidence) -> list[Finding]:
    run = task_folder_run(ev)
    if run is None:
        return []
    findings = []
    for task, test, lines in tests_of_unscored_tasks(ev, run):
        found = next(((number, line, reading) for number, line in enumerate(lines, 1)
                      if not line.lstrip().startswith("#")
                      for read in _READINGS if (reading := read(test.parent.parent, line))), None)
        if found is not None:
            findings.append(_finding(ev, run, task, test, *found))
    return findings
