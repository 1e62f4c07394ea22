"""The user's data script that was to write a data file, and the error it stopped on.

An empty source data file is most often a writer that failed after opening it for writing: the script's traceback
is in a log of the run, raised in the script's own lines. A `KeyError` on the first column of a CSV file the script
reads, whose header starts with a UTF-8 byte-order mark (a spreadsheet's "CSV UTF-8" export), is the BOM: Python's
`utf-8` codec keeps it, so the first column is named `\\ufeffquestion`, not `question`.
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


@dataclass(frozen=True)
class FailedWriter:
    script: UserFile
    incident: LogIncident
    bom_csv: str | None = None  # the CSV whose byte-order mark renamed the column the script looked up, if that is why
    column: str | None = None  # that column's name


def failed_writer(ev: Evidence, data: Path) -> FailedWriter | None:
    """The user's script that opens `data` for writing and whose traceback, raised in its own lines, a log holds."""
    writes = re.compile(rf"\bopen\(\s*[\"'][^\"']*{re.escape(data.name)}[\"']\s*,\s*[\"'][wa]")
    scripts = {Path(file.name).name: file for file in ev.user_files if file.suffix == ".py" and writes.search(file.text)}
    for incident in ev.logs.incidents:
        raised = innermost_frame(incident)
        script = scripts.get(Path(raised.split(":")[0]).name) if raised else None
        if script is not None:
            return FailedWriter(script, incident, *_bom_renamed_column(ev, script, incident))
    return None


def _bom_renamed_column(ev: Evidence, script: UserFile, incident: LogIncident) -> tuple[str | None, str | None]:
    """(CSV, column) when the script reads a CSV without `utf-8-sig` whose BOM sits before the header's first name,
    the key that was missing; (None, None) otherwise."""
    missing = _MISSING_KEY.search(incident.text)
    if missing is None:
        return None, None
    for opened in _OPENS_CSV.finditer(script.text):
        if "utf-8-sig" in opened["rest"]:
            continue
        path = ev.run_dir / Path(script.name).parent / opened["path"]
        try:
            with path.open("rb") as csv_file:
                head = csv_file.readline()
        except OSError:
            continue
        if head.startswith(_BOM) and head[len(_BOM):].decode(errors="replace").lstrip('"').startswith(missing["key"]):
            return opened["path"], missing["key"]
    return None, None
