"""Step 2: a report that picks its file by sorting names and takes an earlier run's dated copy.

A run script keeps last week's profile beside the new one under a dated name (`rollouts_reward_profiling.2026-11-30
.jsonl`), and the report picks "the" profile as the first (or last) of a sorted glob
(`sorted(glob("rollouts_reward_profiling*.jsonl"))[0]`). Names sort as text: `.2` comes before `.j`, so the pick is
the dated archive and the report shows the earlier run's numbers, every command exiting 0. Told from the pick, the
files it chooses among, and the log line naming the one it read.
"""

from __future__ import annotations

import re
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME

_SORTED_PICK = re.compile(r"sorted\(\s*(?:glob\.)?glob\(\s*[\"'](?P<pattern>[^\"']+)[\"']\s*\)\s*\)\s*\[(?P<end>0|-1)\]")
_DATE_STAMP = re.compile(r"\d{4}-?\d\d-?\d\d|\d\d-\d\d-\d{4}")


def rule_dated_archive_picked_by_a_sorted_glob(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None or not ev.run_dir.is_dir():
        return []
    for file, number, line, match in lines_matching(ev.user_files, _SORTED_PICK, {".py"}):
        folder = ev.run_dir / Path(file.name).parent
        pattern = match["pattern"]
        candidates = sorted(path.name for path in folder.glob(pattern) if path.is_file()) \
            if "/" not in pattern else []
        current = [name for name in candidates if not _DATE_STAMP.search(name)]
        picked = candidates[0 if match["end"] == "0" else -1] if candidates else None
        if picked is None or not _DATE_STAMP.search(picked) or len(current) != 1:
            continue
        said = ev.first_in_log_heads(re.compile(rf"[^\n]*\b{re.escape(picked)}\b[^\n]*"))
        which = "first" if match["end"] == "0" else "last"
        return [Finding(
            category=CACHE_RESUME,
            title=f"{file.name}:{number} reads the {which} name of `{pattern}` in text order, which is {picked}, an "
                  f"earlier run's dated copy, not {current[0]}",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()), *([said[0]] if said else [])],
            cause=f"`{line.strip()}` sorts the names the pattern matches as text and takes the {which}: "
                  f"{', '.join(candidates)}. The dated copy kept beside the current file sorts "
                  f"{'before' if which == 'first' else 'after'} it (a digit before a letter), so what was read is "
                  "an earlier run's, and every command exited 0.",
            fix=f"In {file.name}:{number}, read the current file by its name ({current[0]}) instead of the "
                f"{which} of the sorted glob, or keep dated copies out of the pattern (an archive folder, or a "
                f"pattern that excludes them); then make the report again.",
        )]
    return []
