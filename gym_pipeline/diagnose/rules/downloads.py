"""Step 5: a download saved beside the file the run reads, not over it.

`wget URL` into a folder that still holds last week's `tasks.jsonl` does not overwrite it: it saves the new download
as `tasks.jsonl.1` (then `.2`...). The run, reading `tasks.jsonl`, evaluates last week's data, and every command exits
0. Named from wget's own line (`-> "tasks.jsonl.1"` with -nv, `Saving to: 'tasks.jsonl.1'` without) when a script of
the run reads the name without the number.
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


def rule_download_saved_beside_the_file_read(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None:
        return []
    for log, head in ev.log_heads:
        for saved in _SAVED_NUMBERED.finditer(head):
            meant = saved["path"]
            name = Path(meant).name
            reads = re.compile(rf"(?<![\w.-]){re.escape(name)}(?![\w.-])")
            reader = next(((file, number, line.strip()) for file, number, line, _ in lines_matching(ev.user_files, reads)
                           if not re.search(r"\b(?:wget|curl|ls)\b", line) and not line.lstrip().startswith("#")),
                          None)
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
