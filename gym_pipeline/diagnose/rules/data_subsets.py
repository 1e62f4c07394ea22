"""Step 3: a run script that still evaluates a part of the data, left from a quick try.

A smoke test limits the rows (`--limit 3`, `++limit=3`) or filters the data into the file the run reads (`jq -c
'select(.difficulty <= 2)' data.jsonl > tasks.jsonl`, `head -n 20 data.jsonl > tasks.jsonl`); kept in the script
that runs the real eval, every later run covers that part only and reports its reward as the dataset's. Nothing
fails. Named as a cause when the script says the limit was meant to be temporary (a comment: smoke test, quick try,
for now), or says the run is of the whole set (full, nightly, weekly), or keeps the whole-set line commented out
beside it; otherwise the rows left out are a note.
"""

from __future__ import annotations

import re
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, excerpt
from gym_pipeline.diagnose.findings import CAUSE, NOTE, Finding
from gym_pipeline.diagnose.rules.command_lines import gym_commands
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, UserFile
from gym_pipeline.diagnose.vocabulary import CONFIG

_LIMIT = re.compile(r"(?:--limit[ =]|\+\+limit=)(?P<rows>\d+)")
# a command writing a part of one JSONL file into another: a jq select, the first lines, a sample, a line range
_SUBSET = re.compile(r"^\s*(?P<command>(?:jq\b[^>\n]*\bselect\(|head\s+-(?:n\s*)?\d+|tail\s+-(?:n\s*)?\d+|shuf\s+-n\s*\d+|sed\s+-n\s+['\"]?"
                     r"\d+,\d+p|awk\s+['\"]?NR\s*<=?\s*\d+)[^>\n]*?(?P<source>[\w./-]+\.jsonl)[^>\n]*)>\s*"
                     r"(?P<target>[\w./-]+\.jsonl)")
_LAST_LINES = re.compile(r"\btail\s+-(?:n\s*)?(?P<count>\d+)\b")
_HEADER = re.compile(r"\bheader|\bfirst line|\bskip\w* the first|\bdrop\w* the first", re.I)
_TEMPORARY = re.compile(r"\b(?:smoke|quick|try|trial|debug|for now|temporar\w*|first\b|just\b|sanity)", re.I)
_WHOLE_SET = re.compile(r"\b(?:full|nightly|weekly|whole|every task|all tasks|complete)\b", re.I)
MAX_ROWS_COUNTED = 1 << 20


def _rows(path: Path) -> int | None:
    try:
        with path.open("rb") as data:
            return sum(1 for _, line in zip(range(MAX_ROWS_COUNTED), data, strict=False) if line.strip())
    except OSError:
        return None


def _said_temporary_or_whole(file: UserFile, number: int, source: str | None) -> str | None:
    """Why the script shows the subset is a leftover: its comment, the script's own description, or the whole-set
    line left commented out."""
    lines = file.text.splitlines()
    line = lines[number - 1]
    comment = line.split("#", 1)[1] if "#" in line else ""
    above = [text for text in lines[max(0, number - 3):number - 1] if text.lstrip().startswith("#")]
    if (last := _LAST_LINES.search(line)) and _HEADER.search(" ".join([comment, *above])):
        return (f"its comment says it drops a header (`{(comment or above[-1]).strip(' #')}`), which is `tail -n "
                f"+{int(last['count'])}` (from line {last['count']} on); `tail -n {last['count']}` keeps the last "
                f"{last['count']} lines")
    if _TEMPORARY.search(" ".join([comment, *above])):
        return f"its comment says so (`{(comment or above[-1]).strip(' #')}`)"
    if source and (whole := next((text for text in lines if text.lstrip().startswith("#")
                                  and re.search(rf"\b(?:cp|cat|ln)\b[^\n]*{re.escape(source)}", text)), None)):
        return f"the line that takes the whole file is commented out (`{whole.strip()}`)"
    if description := next((text for text in lines[:5] if text.lstrip().startswith("#")
                            and not text.startswith("#!") and _WHOLE_SET.search(text)), None):
        return f"the script says it runs the whole set (`{description.strip()}`)"
    return None


def _subsets(ev: Evidence):
    """(file, line, text, what it keeps, the data file it cuts from or None, why it is a leftover) of each limit or
    filter of the run's data in a script."""
    for file in ev.user_files:
        if file.suffix not in SCRIPT_SUFFIXES:
            continue
        for number, command in ((n, c) for _, n, c in gym_commands([file]) if not c.lstrip().startswith("#")):
            if limit := _LIMIT.search(command):
                yield file, number, command.strip(), f"the first {limit['rows']} rows", None, \
                    _said_temporary_or_whole(file, number, None)
        for number, line in enumerate(file.text.splitlines(), 1):
            if subset := _SUBSET.match(line):
                yield file, number, line.strip(), f"the rows `{subset['command'].strip()}` keeps", subset["source"], \
                    _said_temporary_or_whole(file, number, subset["source"])


def _fix(name: str, number: int, line: str, source: str | None, leftover: str | None) -> str:
    again = "then materialize again, collect on a clean output path and profile."
    if leftover and "drops a header" in leftover and (last := _LAST_LINES.search(line)):
        return (f"In {name}:{number}, write `tail -n +{last['count']}` (everything from line {last['count']}: the "
                f"header dropped) instead of `tail -n {last['count']}`; {again}")
    taken_out = (f"`{limit.group(0)}`" if (limit := _LIMIT.search(line))
                 else f"run on {source} itself instead of `{line.split('>')[0].strip()}`")
    return (f"In {name}:{number}, take the limit out ({taken_out}) for the real eval, or keep it in a smoke-test "
            f"script of its own; {again}")


def rule_data_subset_left_in_the_script(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None or not ev.run_dir.is_dir():
        return []
    tasks = ev.artifacts.materialized_tasks
    for file, number, line, kept, source, leftover in _subsets(ev):
        whole = _rows(ev.run_dir / Path(file.name).parent / source) if source else None
        if source and (whole is None or not tasks or whole <= tasks):
            continue  # the filter kept everything, or the data it cuts from is not here to tell
        covered = f"{tasks} of the {whole} rows of {source}" if whole else f"{tasks} tasks"
        return [Finding(
            category=CONFIG,
            role=CAUSE if leftover else NOTE,
            title=f"{file.name}:{number} evaluates {kept} only: the run covers {covered}"
                  + (", and the script shows it is a leftover" if leftover else ""),
            evidence=[EvidenceLine(file=file.name, line=number, text=line)],
            cause=f"{file.name}:{number} (`{excerpt(line, 160)}`) keeps {kept} of the data, so the rollouts and the profile "
                  f"describe that part, not the dataset, and the reward reported is that part's. "
                  + (f"It is not what the script means: {leftover}. " if leftover and "drops a header" in leftover
                     else f"It is a leftover of a quick try: {leftover}. " if leftover else "")
                  + "Nothing fails.",
            fix=_fix(file.name, number, line, source, leftover),
        )]
    return []
