"""Step 6: a data script that drops each line's newline with `[:-1]`, over a file whose last line has none.

`answer[:-1]` takes off the last character, whatever it is. Every line read with `readlines()` ends in a newline but
the last one of a file written without a final newline (many export and review tools write it so): there the slice
cuts a real character, and the last task's label is another word (`Ottawa` becomes `Ottaw`). Nothing fails; that
task scores 0 whatever the model answers. Read from the script, the file it opens and the data it wrote: the label
cut short is in the data.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from gym_pipeline.diagnose.artifacts import data_files_in
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import DATA_SCHEMA

_SLICED = re.compile(r"\b(?P<name>\w+)\[:-1\]")
_OPENED = re.compile(r"\bopen\(\s*[\"'](?P<path>[^\"']+)[\"']")
MAX_SOURCE_BYTES = 1 << 20  # a text file a data script reads, not a dataset


def _last_line_without_newline(path: Path) -> str | None:
    """The last line of a small text file that does not end in a newline; None otherwise."""
    try:
        if not path.is_file() or path.stat().st_size > MAX_SOURCE_BYTES:
            return None
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    return text.rsplit("\n", 1)[-1] if text and not text.endswith("\n") else None


def _data_holding(ev: Evidence, value: str) -> tuple[Path, int, str] | None:
    """(file, line number, line) of the run's data (the user's beside it, else the materialized rows) that holds
    `value` as a whole JSON string."""
    quoted = json.dumps(value)
    for path in [*data_files_in(ev.run_dir, ev.artifacts.files), ev.artifacts.files.materialized]:
        try:
            with path.open(encoding="utf-8", errors="replace") as data:
                for number, line in enumerate(data, 1):
                    if quoted in line:
                        return path, number, line.strip()
        except OSError:
            continue
    return None


def _slice_of(slices: list[tuple[int, str, re.Match[str]]], source: str) -> tuple[int, str, re.Match[str]]:
    """The slice most likely applied to the lines of `source`: of the variable named like it (`answer` for
    answers.txt), else the first."""
    stem = Path(source).stem.lower().rstrip("s")
    return next((found for found in slices if stem and stem in found[2]["name"].lower()), slices[0])


def rule_last_line_cut_by_a_newline_slice(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None or not ev.run_dir.is_dir():
        return []
    for file in ev.user_files:
        slices = [(number, line, sliced) for _, number, line, sliced in lines_matching([file], _SLICED, {".py"})]
        if not slices:
            continue
        folder = ev.run_dir / Path(file.name).parent
        for opened in _OPENED.finditer(file.text):
            last = _last_line_without_newline(folder / opened["path"])
            if not last or len(last) < 2 or (held := _data_holding(ev, last[:-1])) is None:
                continue
            number, line, sliced = _slice_of(slices, opened["path"])
            data, data_line, _ = held
            source = opened["path"]
            return [Finding(
                category=DATA_SCHEMA,
                title=f"{file.name}:{number} drops each line's last character (`{sliced.group(0)}`) for its newline; "
                      f"{source} has none after its last line, so `{last}` became `{last[:-1]}`",
                evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                          EvidenceLine(file=ev.rel(data), line=data_line, text=f"holds {json.dumps(last[:-1])}")],
                cause=f"`{sliced.group(0)}` takes off the last character of each line, meant to be its newline. "
                      f"{source} ends without one, so its last line lost a real character: the data holds "
                      f"`{last[:-1]}` where {source} says `{last}`, and a right answer never equals it. Nothing "
                      "fails.",
                fix=f"In {file.name}:{number}, strip the newline instead of the last character: "
                    f"`{sliced['name']}.rstrip(\"\\n\")` (or `.strip()`) instead of `{sliced.group(0)}`, since "
                    f"{source}'s last line has no newline; run it again, then materialize again and collect on a "
                    "clean output path.",
            )]
    return []
