"""Step 5: a data file that was a symlink to a shared dataset and is now a file of its own.

`ln -s /shared/datasets/capitals_v3.jsonl tasks.jsonl` keeps the run on the team's dataset as it is fixed. An edit
of the link with `sed -i` (or an editor that saves by writing a new file and renaming it) replaces the link with a
regular file holding that day's content: from then on the run reads a private, frozen copy, and fixes made to the
shared dataset never reach it. Every command exits 0. Named when a log kept by the user (`ls -l`) shows the name as a
link, the folder now holds a regular file of that name, and a script of the run reads it; the shared file, when it is
still there, tells how far the copy has fallen behind.
"""

from __future__ import annotations

import re
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, line_of_match
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME

# `ls -l`'s line of a symlink: `lrwxrwxrwx 1 root root 71 Dec  5 07:48 tasks.jsonl -> /shared/capitals_v3.jsonl`
_LISTED_LINK = re.compile(r"^l[rwxsStT-]{9}\S*\s+\d+\s+\S+\s+\S+\s+\d+\s+\S+\s+\d+\s+[\d:]+\s+(?P<name>\S+) -> "
                          r"(?P<target>\S+)\s*$", re.M)


def lines_differing(copy: Path, shared: Path) -> int | None:
    """How many lines of `copy` differ from `shared`'s, line by line (None: either cannot be read)."""
    try:
        ours, theirs = copy.read_bytes().splitlines(), shared.read_bytes().splitlines()
    except OSError:
        return None
    return sum(a != b for a, b in zip(ours, theirs, strict=False)) + abs(len(ours) - len(theirs))


def lines_differ(differing: int) -> str:
    return "1 line differs" if differing == 1 else f"{differing} lines differ"


def rule_linked_data_replaced_by_a_copy(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None:
        return []
    for log, head in ev.log_heads:
        for listed in _LISTED_LINK.finditer(head):
            name, target = listed["name"], Path(listed["target"])
            path = ev.run_dir / name
            if path.is_symlink() or not path.is_file():
                continue
            reader = next(((file.name, number, line.strip()) for file in ev.user_files
                           for number, line in enumerate(file.text.splitlines(), 1)
                           if re.search(rf"(?<![\w./-]){re.escape(name)}(?![\w.-])", line)
                           and not line.lstrip().startswith("#") and not re.search(r"\bls\b", line)), None)
            if reader is None:
                continue
            shared = target if target.is_absolute() else path.parent / target
            differing = lines_differing(path, shared)
            if differing == 0:
                continue  # still the same bytes: nothing was missed yet
            return [Finding(
                category=CACHE_RESUME,
                title=f"{name} was a symlink to {target.name} ({ev.rel(log)}) and is now a file of its own: the run "
                      "read a frozen copy, not the shared dataset"
                      + (f" ({lines_differ(differing)} from it now)" if differing else ""),
                evidence=[line_of_match(ev.rel(log), head, listed),
                          EvidenceLine(file=name, text="a regular file now, not a symlink"),
                          EvidenceLine(file=reader[0], line=reader[1], text=reader[2])],
                cause=f"{name} was made a link to the shared {target} so that the run follows its fixes; an edit of "
                      f"the link in place (`sed -i`, or an editor saving by rename) wrote a new file over it, so {name} "
                      "kept the content of that day, and every fix to the shared dataset since never reached the run"
                      + (f" ({lines_differ(differing)})" if differing else " (the shared file is not there to compare)")
                      + ". Nothing fails: the rewards are scored against the old rows.",
                fix=f"Link it again: `ln -sf {target} {name}`, and make edits in the shared file (or with `sed -i "
                    f"--follow-symlinks`, which edits the target, not the link); check with `ls -l {name}` (it shows "
                    "`->`), then run again from materialize (the inputs are of the old rows).",
            )]
    return []
