"""A time budget written in minutes (or hours) and given to `timeout`, which reads a bare number as seconds.

`TIME_BUDGET=5   # minutes` and `timeout $TIME_BUDGET gym-pipeline collect ...`: the collection is ended after 5
seconds, with most rollouts still to do, though nothing was slow. Read when a budget ended the collection: the
setting's own comment or name says the unit, and the number has no suffix (`5m`).
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.logs import LogHit
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, lines_matching
from gym_pipeline.diagnose.vocabulary import CONFIG

_TIMEOUT = re.compile(r"\btimeout\s+(?:-\S+\s+)*(?P<duration>\$\{?(?P<name>[A-Za-z_]\w*)\}?|\d+)\s")
_OTHER_UNIT = re.compile(r"\b(?P<unit>minutes?|mins?|hours?|hrs?)\b", re.I)
_SUFFIX = {"m": "minutes", "h": "hours"}


def _unit_of(name: str, text: str) -> str | None:
    """`minutes` or `hours` when the setting's comment or its name says so."""
    comment = text.split("#", 1)[1] if "#" in text else ""
    said = _OTHER_UNIT.search(comment) or _OTHER_UNIT.search(name.replace("_", " "))
    if said is None:
        return None
    return "hours" if said["unit"].lower().startswith("h") else "minutes"


def budget_in_other_units(ev: Evidence, interrupt: LogHit) -> Finding | None:
    for file, number, line, match in lines_matching(ev.user_files, _TIMEOUT, SCRIPT_SUFFIXES):
        if line.lstrip().startswith("#"):
            continue
        name = match["name"]
        if name is None:
            setting, value, unit = (file, number, line.strip()), match["duration"], _unit_of("", line)
        else:
            assigned = next(((f, n, text.strip()) for f, n, text, _ in lines_matching(
                ev.user_files, re.compile(rf"^\s*(?:export\s+)?{name}=[\"']?(?:\$\{{{name}:?-)?(?P<value>\d+)\}}?[\"']?"
                                          r"\s*(?:#|$)"))), None)
            if assigned is None:
                continue
            setting, value = assigned, re.search(r"=[\"']?(?:\$\{\w+:?-)?(\d+)", assigned[2])[1]
            unit = _unit_of(name, assigned[2])
        if unit is None:
            continue
        letter = unit[0]
        where = f"{setting[0].name}:{setting[1]}"
        return Finding(
            category=CONFIG,
            title=f"{file.name}:{number} gives `timeout` {value} meaning {unit} ({where}): timeout read {value} "
                  "seconds and ended the collection",
            evidence=[interrupt.evidence(), EvidenceLine(file=file.name, line=number, text=line.strip()),
                      *([EvidenceLine(file=setting[0].name, line=setting[1], text=setting[2])] if name else [])],
            cause=f"`timeout` reads a number without a unit as seconds; the budget is meant in {unit} ({where}: "
                  f"`{setting[2]}`), so the collection was ended after {value} seconds with rollouts still to do. "
                  "Nothing was slow.",
            fix=f"Give timeout the unit: `timeout {f'${{{name}}}' if name else value}{letter}` in {file.name}:{number}"
                + (f" (here `timeout {value}{letter}`)" if name else "") + " (or write "
                f"{name or 'the budget'} in seconds{f' in {setting[0].name}' if name else ''}); then resume the "
                "collection (--resume) and profile.",
        )
    return None
