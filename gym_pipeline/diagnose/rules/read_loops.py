"""Step 5: a shell `while read` loop over a file of the run, which loses part of what it reads.

Two of `read`'s rules bite scripts that walk a list or a data file line by line. Without `-r`, `read` takes a
backslash as an escape and drops it: a JSONL line's `\\n` (a line break inside a prompt) becomes a plain `n`, and the
rows the loop writes hold other text than the data (data/schema). And `read` returns non-zero on a last line without
its newline, so a file saved without a final newline (an editor's choice) never has its last line read: the last
checkpoint of a list is never evaluated (config). Every command exits 0 in both.
"""

from __future__ import annotations

import re
from pathlib import Path

from gym_pipeline.diagnose.artifacts import locate_named_file
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, excerpt
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, UserFile
from gym_pipeline.diagnose.vocabulary import CONFIG, DATA_SCHEMA

_READ = re.compile(r"^\s*while\s+(?:IFS=\S*\s+)?read\b(?P<options>(?:\s+-\w+)*)\s+(?P<names>[A-Za-z_]\w*(?:\s+[A-Za-z_]\w*)*)"
                   r"\s*(?P<guard>\|\|[^;]*)?;?\s*(?:do\b.*)?$")
_DONE_FROM = re.compile(r"^\s*done\s*<\s*[\"']?(?P<file>[^\s\"'>|;]+)")
MAX_BYTES = 64 << 20


def _read_loops(file: UserFile):
    """(line, text, options, names, guard, the file the loop reads) of each `while read ... done < FILE` of `file`."""
    lines = file.text.splitlines()
    for number, line in enumerate(lines, 1):
        loop = _READ.match(line)
        if loop is None:
            continue
        source = next((done["file"] for text in lines[number:] if (done := _DONE_FROM.match(text))), None)
        if source is not None:
            yield number, line.strip(), loop["options"], loop["names"].split(), loop["guard"], source


def _last_line(path: Path) -> str | None:
    """The file's last line when the file does not end with a newline, else None."""
    try:
        size = path.stat().st_size
        if not 0 < size <= MAX_BYTES:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    if data.endswith(b"\n"):
        return None
    return data.rsplit(b"\n", 1)[-1].decode("utf-8", "replace")


def rule_read_loops_that_lose_what_they_read(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None or not ev.run_dir.is_dir():
        return []
    for file in ev.user_files:
        if file.suffix not in SCRIPT_SUFFIXES:
            continue
        for number, line, options, names, guard, source in _read_loops(file):
            beside = ev.run_dir / Path(file.name).parent / source  # a relative name: beside the script that reads it
            path = beside if beside.is_file() else locate_named_file(source, ev.run_dir)
            if not path.is_file():
                continue
            last = _last_line(path)
            if last and last.strip() and not guard:
                return [_last_line_skipped(file, number, line, names, ev.rel(path), last)]
            if "r" not in options.replace("-", "") and _escapes(path):
                return [_backslashes_dropped(file, number, line, ev.rel(path))]
    return []


def _escapes(path: Path) -> bool:
    try:
        with path.open("rb") as data:
            return b"\\" in data.read(MAX_BYTES)
    except OSError:
        return False


def _last_line_skipped(file: UserFile, number: int, line: str, names: list[str], source: str, last: str) -> Finding:
    return Finding(
        category=CONFIG,
        title=f"{source} has no final newline, so {file.name}:{number} (`{line}`) never reads its last line "
              f"({excerpt(last, 60)!r})",
        evidence=[EvidenceLine(file=file.name, line=number, text=line),
                  EvidenceLine(file=source, line=1, text=f"last line, without its newline: {excerpt(last, 120)}")],
        cause=f"`read` returns non-zero when it reaches the end of the file before a newline, even though it filled "
              f"`{names[0]}`: the `while read` loop ends there, and its body never runs for `{excerpt(last, 80)}`, the "
              f"last line of {source} (saved without a final newline). Nothing fails; that line is simply skipped.",
        fix=f"End {source} with a newline (`echo >> {source}`; editors may drop it), or let the loop read a last line "
            f"without one: `while read -r {' '.join(names)} || [ -n \"${names[0]}\" ]; do` in {file.name} line {number}"
            "; then run the skipped part.",
    )


def _backslashes_dropped(file: UserFile, number: int, line: str, source: str) -> Finding:
    return Finding(
        category=DATA_SCHEMA,
        title=f"{file.name}:{number} (`{line}`) reads {source} without `read -r`: every backslash of its lines is "
              "dropped, so escaped characters (`\\n` in a prompt) become plain letters",
        evidence=[EvidenceLine(file=file.name, line=number, text=line)],
        cause=f"Without `-r`, `read` takes a backslash as an escape and removes it: the lines of {source} that carry "
              "escapes (a JSON line's `\\n`, `\\\"`, `\\\\`) reach the loop's output with the backslash gone (`\\n` "
              "becomes `n`), so the rows it writes hold other text than the data, or no valid JSON.",
        fix=f"In {file.name} line {number}, read with `read -r` (`while IFS= read -r ...`), which keeps every backslash "
            "(a backslash-escaped line break stays `\\n`); then write the rows again, materialize again and collect.",
    )
