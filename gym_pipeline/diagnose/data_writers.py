"""The user's data script that was to write a data file, and the error it stopped on.

An empty source data file is most often a writer that failed after opening it for writing: the script's traceback
is in a log of the run, raised in the script's own lines. A `KeyError` on the first column of a CSV file the script
reads, whose header starts with a UTF-8 byte-order mark (a spreadsheet's "CSV UTF-8" export), is the BOM: Python's
`utf-8` codec keeps it, so the first column is named `\\ufeffquestion`, not `question`. One whose first line is the
`sep=,` hint a spreadsheet writes for Excel is read with that line as its header: no column is named `question`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.logs import LogIncident
from gym_pipeline.diagnose.origin import innermost_frame
from gym_pipeline.diagnose.user_scripts import UserFile

_BOM = b"\xef\xbb\xbf"
_MISSING_KEY = re.compile(r"KeyError: ['\"](?P<key>[^'\"]+)['\"]")
_OPENS_CSV = re.compile(r"\bopen\(\s*[\"'](?P<path>[^\"']+\.(?:csv|tsv))[\"'](?P<rest>[^)]*)\)")


BOM, SEPARATOR_HINT = "bom", "sep= line"  # what is wrong with a CSV's header, when that made the lookup fail
_SEPARATOR_HINT = re.compile(rb"^sep=.\r?\n?$")


@dataclass(frozen=True)
class FailedWriter:
    script: UserFile
    incident: LogIncident
    csv: str | None = None  # the CSV whose header hid the column the script looked up, if that is why
    column: str | None = None  # that column's name
    header_fault: str | None = None  # BOM or SEPARATOR_HINT


def failed_writer(ev: Evidence, data: Path) -> FailedWriter | None:
    """The user's script that opens `data` for writing and whose traceback, raised in its own lines, a log holds."""
    writes = re.compile(rf"\bopen\(\s*[\"'][^\"']*{re.escape(data.name)}[\"']\s*,\s*[\"'][wa]")
    scripts = {Path(file.name).name: file for file in ev.user_files if file.suffix == ".py" and writes.search(file.text)}
    for incident in ev.logs.incidents:
        raised = innermost_frame(incident)
        script = scripts.get(Path(raised.split(":")[0]).name) if raised else None
        if script is not None:
            return FailedWriter(script, incident, *_column_hidden_by_the_header(ev, script, incident))
    return None


def _column_hidden_by_the_header(ev: Evidence, script: UserFile, incident: LogIncident
                                 ) -> tuple[str | None, str | None, str | None]:
    """(CSV, column, BOM or SEPARATOR_HINT) when the script looked up a column a CSV it reads has, hidden by the
    header line: a BOM before the header's first name (read without `utf-8-sig`), or Excel's `sep=,` line read as the
    header; (None, None, None) otherwise."""
    missing = _MISSING_KEY.search(incident.text)
    if missing is None:
        return None, None, None
    for opened in _OPENS_CSV.finditer(script.text):
        path = ev.run_dir / Path(script.name).parent / opened["path"]
        try:
            with path.open("rb") as csv_file:
                head, second = csv_file.readline(), csv_file.readline()
        except OSError:
            continue
        if "utf-8-sig" not in opened["rest"] and head.startswith(_BOM) \
                and head[len(_BOM):].decode(errors="replace").lstrip('"').startswith(missing["key"]):
            return opened["path"], missing["key"], BOM
        if _SEPARATOR_HINT.match(head.lstrip(_BOM)) and missing["key"] in second.decode(errors="replace"):
            return opened["path"], missing["key"], SEPARATOR_HINT
    return None, None, None
