"""Step 5: a download saved beside the file the run reads, not over it.

`wget URL` into a folder that still holds last week's `tasks.jsonl` does not overwrite it: it saves the new download
as `tasks.jsonl.1` (then `.2`...). The run, reading `tasks.jsonl`, evaluates last week's data, and every command exits
0. Named from wget's own line (`-> "tasks.jsonl.1"` with -nv, `Saving to: 'tasks.jsonl.1'` without) when a script of
the run reads the name without the number.

A browser does the same with `labels (1).csv`: the new export, downloaded into a folder that holds last week's
`labels.csv`, gets a number in parentheses. Named from a listing in the run's logs (`ls -l ~/Downloads`) that shows
both, when a script of the run copies or reads the name without the number.
"""

from __future__ import annotations

import re
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, line_of_match
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.replaced_links import lines_differing
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME

# wget -nv: `2026-12-05 11:24:16 URL:http://... [2341/2341] -> "tasks.jsonl.1" [1]`; wget: `Saving to: 'tasks.jsonl.1'`
_SAVED_NUMBERED = re.compile(r"(?:->\s*|Saving to:\s*)[\"'‘“](?P<path>[^\"'’”\s]+?)\.(?P<number>\d+)[\"'’”]")


# a browser's second download of one name, in a listing: `-rw-r--r-- 1 root root 250 Dec  6 23:58 labels (1).csv`
_BROWSER_COPY = re.compile(r"(?P<stem>[\w.-]+) \((?P<number>\d+)\)(?P<suffix>\.\w+)\s*$", re.M)


def _reader_of(ev: Evidence, name: str, *, from_a_folder: bool = False) -> tuple | None:
    """(script, line, text) of the first line of the user's scripts reading `name` (not fetching or listing it); with
    `from_a_folder`, reading it by a path from another folder (`cp ~/Downloads/labels.csv .`), not the local copy."""
    reads = re.compile((r"/" if from_a_folder else r"(?<![\w.-])") + rf"{re.escape(name)}(?![\w.-])")
    return next(((file, number, line.strip()) for file, number, line, _ in lines_matching(ev.user_files, reads)
                 if not re.search(r"\b(?:wget|curl|ls)\b", line) and not line.lstrip().startswith("#")), None)


def rule_browser_download_saved_beside_the_file_read(ev: Evidence) -> list[Finding]:
    for log, head in ev.log_heads:
        for saved in _BROWSER_COPY.finditer(head):
            name = saved["stem"] + saved["suffix"]
            downloaded = f"{saved['stem']} ({saved['number']}){saved['suffix']}"
            if re.search(rf"(?<![\w.-]){re.escape(name)}\s*$", head, re.M) is None:
                continue  # the listing shows no file of the plain name beside it
            if (reader := _reader_of(ev, name, from_a_folder=True)) is None:
                continue
            file, number, line = reader
            return [Finding(
                category=CACHE_RESUME,
                title=f"The new download was saved as '{downloaded}', beside last week's {name}, and {file.name}:"
                      f"{number} takes {name}: the run used the old file",
                evidence=[line_of_match(ev.rel(log), head, saved), EvidenceLine(file=file.name, line=number, text=line)],
                cause=f"A browser never overwrites a download of the same name: finding {name} in the folder from an "
                      f"earlier download, it saved the new one as '{downloaded}' ({ev.rel(log)} lists both). "
                      f"{file.name}:{number} (`{line}`) takes {name}, the old one, so the run evaluated last week's "
                      "data; nothing failed.",
                fix=f"Move '{downloaded}' over {name} in the Downloads folder (or remove the old {name} before "
                    f"downloading, or read the newest file there), then run {file.name} again from the data (prep, "
                    "materialize, collect, profile).",
            )]
    return []


def rule_download_saved_beside_the_file_read(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None:
        return []
    for log, head in ev.log_heads:
        for saved in _SAVED_NUMBERED.finditer(head):
            meant = saved["path"]
            name = Path(meant).name
            reader = _reader_of(ev, name)
            fetch = next(((file, number, line.strip()) for file, number, line, _ in
                          lines_matching(ev.user_files, re.compile(r"^\s*wget\b"))), None)
            if reader is None:
                continue
            downloaded = f"{meant}.{saved['number']}"
            folder = ev.run_dir / Path(fetch[0].name).parent if fetch else ev.run_dir
            differing = lines_differing(folder / meant, folder / downloaded)
            return [Finding(
                category=CACHE_RESUME,
                title=f"wget saved the download as {Path(downloaded).name}, beside the {name} already there: the run "
                      f"read the old {name}" + (f" ({differing} lines differ from the download)" if differing else ""),
                evidence=[line_of_match(ev.rel(log), head, saved),
                          *([EvidenceLine(file=fetch[0].name, line=fetch[1], text=fetch[2])] if fetch else []),
                          EvidenceLine(file=reader[0].name, line=reader[1], text=reader[2])],
                cause=f"wget never overwrites a file of the same name: finding {name} from an earlier run, it saved "
                      f"the new download as {Path(downloaded).name}, and {reader[0].name}:{reader[1]} reads {name}, "
                      "the old one. The run evaluated the earlier data; nothing failed.",
                fix=f"Download to the name the run reads: `wget -O {name} <url>` (or remove {name} first, or `wget "
                    f"-N` to replace it when the server's copy is newer), delete {Path(downloaded).name}; then run "
                    "again from the data (materialize, collect, profile).",
            )]
    return []
