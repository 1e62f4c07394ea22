"""Step 2 (beside the other stale reports): a summary table made once with `CREATE TABLE IF NOT EXISTS ... AS SELECT` and never made again.

A results script loads each run's rollouts into a database and builds the table a dashboard reads with
`CREATE TABLE IF NOT EXISTS summary AS SELECT ...`: the statement does nothing once the table exists, so the table
keeps the rows of the run that first made it. The run's own log then reports an older checkpoint right after
loading a newer one, and every command exits 0.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME

_MADE_ONCE = re.compile(r"CREATE\s+TABLE\s+IF\s+NOT\s+EXISTS\s+(?P<table>\w+)\s+AS\s+SELECT", re.I)
_STEP = re.compile(r"\bstep[_-]?0*(?P<step>\d+)\b")


def _older_step_reported(text: str) -> tuple[int, str, int, str] | None:
    """(line, text) of a step named and of an older one named on a later line of the same log: the newest loaded,
    then an older one reported."""
    newest: tuple[int, int, str] | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        for found in _STEP.finditer(line):
            step = int(found["step"])
            if newest is not None and step < newest[0]:
                return newest[1], newest[2], number, line.strip()
            if newest is None or step > newest[0]:
                newest = (step, number, line.strip())
    return None


def rule_summary_table_made_once(ev: Evidence) -> list[Finding]:
    made = next(lines_matching(ev.user_files, _MADE_ONCE), None)
    if made is None:
        return []
    file, number, line, match = made
    reported = next(((log, found) for log, head in ev.log_heads if (found := _older_step_reported(head))), None)
    if reported is None:
        return []
    log, (loaded_at, loaded, said_at, said) = reported
    table = match["table"]
    return [Finding(
        category=CACHE_RESUME,
        title=f"{file.name}:{number} makes `{table}` with `CREATE TABLE IF NOT EXISTS ... AS SELECT`, which never "
              f"makes it again: the run reported an older checkpoint than it loaded",
        evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                  EvidenceLine(file=ev.rel(log), line=loaded_at, text=loaded),
                  EvidenceLine(file=ev.rel(log), line=said_at, text=said)],
        cause=f"`CREATE TABLE IF NOT EXISTS {table} AS SELECT ...` does nothing once `{table}` exists, so the table "
              f"still holds the rows of the run that first made it. This run loaded its own results "
              f"(`{loaded}`), then read `{table}` and reported `{said}`: an earlier run's numbers, with every command "
              "exiting 0.",
        fix=f"In {file.name}:{number}, make the table again on every run: `DROP TABLE IF EXISTS {table}` before "
            f"`CREATE TABLE {table} AS SELECT ...` instead of `CREATE TABLE IF NOT EXISTS {table}` (or make it a view, "
            f"computed when read: `CREATE VIEW IF NOT EXISTS {table} AS SELECT ...`); then run the report again, "
            f"which now reports `{_STEP.search(said)[0]}` from the old table.",
    )]
