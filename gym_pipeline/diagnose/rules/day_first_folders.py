"""Step 2 (before a model URL pinned to an older server, which the older folder's script is): results folders named by day-first dates, the newest taken as the last by name.

A script names each week's folder `results/$(date +%d-%m-%Y)`, and the report takes the newest as the last name in
text order (`sorted(glob("results/*/..."))[-1]`, `ls results | tail -1`). Day-first names do not sort by date:
`30-11-2026` comes after `07-12-2026`, so the report reads last week's results (or older) and every command exits 0.
Told from the folders in the run, the script's date format, the pick and the folder a log says it took.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME

_DAY_FIRST_FORMAT = re.compile(r"\bdate\s+(?:-\w\s+\S+\s+|--[\w-]+(?:=\S+)?\s+)*[\"']?\+(?P<format>%d(?P<sep>[-._]?)%m(?P=sep)%[Yy])")
_DAY_FIRST_NAME = re.compile(r"(?P<day>\d\d)[-._]?(?P<month>\d\d)[-._]?(?P<year>\d{4}|\d\d)")
# the last name in text order: `sorted(glob(...))[-1]`, `max(glob(...))`, `ls DIR | tail -1`, `| sort | tail -n 1`
_LAST_BY_NAME = re.compile(r"sorted\([^)\n]*\)\)?\s*\[-1\]|\bmax\(\s*(?:glob|os\.listdir|\w+\.glob)"
                           r"|\bls\s+[^|\n]*\|\s*(?:sort\s*\|\s*)?tail\s+-(?:n\s*)?1\b")


def _as_date(name: str) -> date | None:
    found = _DAY_FIRST_NAME.fullmatch(name)
    if found is None:
        return None
    year = int(found["year"]) + (2000 if len(found["year"]) == 2 else 0)
    try:
        return date(year, int(found["month"]), int(found["day"]))
    except ValueError:
        return None


def rule_newest_day_first_folder_taken_by_name(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None or not ev.run_dir.is_dir():
        return []
    named = next(lines_matching(ev.user_files, _DAY_FIRST_FORMAT), None)
    pick = next(lines_matching(ev.user_files, _LAST_BY_NAME), None)
    if named is None or pick is None:
        return []
    by_parent: dict[Path, dict[Path, date]] = {}
    for pattern in ("*", "*/*", "*/*/*"):  # results/<date>/, or under the run's own folder
        for folder in ev.run_dir.glob(pattern):
            if folder.is_dir() and (day := _as_date(folder.name)):
                by_parent.setdefault(folder.parent, {})[folder] = day
    dated = max(by_parent.values(), key=len, default={})
    if len(dated) < 2:
        return []
    newest = max(dated, key=dated.get)
    last_by_name = max(dated, key=lambda folder: folder.name)
    if last_by_name == newest:
        return []
    taken = ev.first_in_log_heads(re.compile(rf"[^\n]*\b{re.escape(last_by_name.parent.name)}/"
                                             rf"{re.escape(last_by_name.name)}\b[^\n]*"))
    picked, shown_newest = (f"{folder.parent.name}/{folder.name}" for folder in (last_by_name, newest))
    return [Finding(
        category=CACHE_RESUME,
        title=f"{pick[0].name}:{pick[1]} takes the newest results folder as the last name in text order, and "
              f"day-first names do not sort by date: it took {picked}, older than {shown_newest}",
        evidence=[EvidenceLine(file=pick[0].name, line=pick[1], text=pick[2].strip()),
                  EvidenceLine(file=named[0].name, line=named[1], text=named[2].strip()),
                  *([taken[0]] if taken else [])],
        cause=f"{named[0].name} names each run's folder by `date +{named[3]['format']}` (day first), and "
              f"`{pick[2].strip()}` takes the last name in text order as the newest. Text order compares the day "
              f"first: {picked} ({dated[last_by_name]:%d %b %Y}) sorts after {shown_newest} "
              f"({dated[newest]:%d %b %Y}), so what was read is an older run's results, and every command exited 0.",
        fix=f"Name the folders year first (`date +%Y-%m-%d` in {named[0].name}:{named[1]}: text order is then date "
            f"order, and rename the existing ones), or pick by the parsed date in {pick[0].name}:{pick[1]} "
            f"(`max(folders, key=lambda p: datetime.strptime(p.name, '{named[3]['format']}'))` instead of "
            f"`{pick[2].strip()}`); then read the newest ({shown_newest}) instead of {picked}.",
    )]
