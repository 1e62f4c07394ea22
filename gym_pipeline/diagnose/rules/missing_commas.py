"""Step 3: two items of a Python list joined into one by a missing comma (implicit string concatenation).

`SPLITS = ["splits/geography.jsonl", "splits/science.jsonl" "splits/arithmetic.jsonl"]`, written one item a line
with the comma forgotten after a new line was added: Python joins adjacent string literals, so the list has one item
`splits/science.jsonlsplits/arithmetic.jsonl`, which names no file. A driver that skips what it cannot find skips
both, and every command exits 0. Named when a log of the run shows the joined value (a long message split over two
lines on purpose never appears as a name the run looked for).
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.vocabulary import CONFIG

# a line holding one string literal and no comma after it (a comment may follow)
_LONE_LITERAL = re.compile(r"""^\s*(?P<quote>["'])(?P<text>[^"'\\]*)(?P=quote)\s*(?:#.*)?$""")
# a line starting with a string literal (the next item, with or without its own comma)
_LITERAL_ITEM = re.compile(r"""^\s*(?P<quote>["'])(?P<text>[^"'\\]*)(?P=quote)\s*,?\s*(?:#.*)?$""")
_LIST_START = re.compile(r"^\s*(?P<name>[A-Za-z_]\w*)\s*(?::[^=]+)?=\s*[\[(]")


def _joined_literals(text: str) -> list[tuple[int, str, str, str | None]]:
    """(line, first literal, the literal after it, the list's name) of each literal line missing its comma before
    another literal line."""
    lines = text.splitlines()
    found = []
    for index, line in enumerate(lines[:-1]):
        first, second = _LONE_LITERAL.match(line), _LITERAL_ITEM.match(lines[index + 1])
        if first is None or second is None:
            continue
        name = next((match["name"] for earlier in reversed(lines[:index]) if (match := _LIST_START.match(earlier))),
                    None)
        found.append((index + 1, first["text"], second["text"], name))
    return found


def rule_list_items_joined_by_a_missing_comma(ev: Evidence) -> list[Finding]:
    for file in ev.user_files:
        if not file.name.endswith(".py"):
            continue
        for number, first, second, name in _joined_literals(file.text):
            joined = first + second
            shown = ev.first_in_log_heads(re.compile(re.escape(joined)))
            if not first or not second or shown is None:
                continue
            where = f"{name} in {file.name}" if name else file.name
            return [Finding(
                category=CONFIG,
                title=f"{file.name}:{number} lacks a comma after {first!r}: Python joined it with the next item into "
                      f"{joined!r}, which the run looked for and skipped",
                evidence=[EvidenceLine(file=file.name, line=number, text=file.text.splitlines()[number - 1].strip()),
                          EvidenceLine(file=file.name, line=number + 1,
                                       text=file.text.splitlines()[number].strip()), shown[0]],
                cause=f"Adjacent string literals are one string in Python (implicit string concatenation): without "
                      f"a comma after {first!r}, {where} holds one item, {joined!r}, instead of two. No such file "
                      f"exists, so the run skipped it ({shown[0].where}: `{shown[0].text[:120]}`), and neither "
                      f"{first!r} nor {second!r} was evaluated; nothing failed.",
                fix=f"Add the comma after {first!r} in {file.name} line {number}"
                    + (f" ({name})" if name else "")
                    + " (Python's implicit string concatenation joins adjacent literals; a trailing comma on every "
                    "item keeps the next added line from joining it), make the "
                    "script stop on an item it cannot find instead of skipping it, then run the skipped items.",
            )]
    return []

