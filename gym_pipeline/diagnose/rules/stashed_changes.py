"""Step 1: a script that puts the user's local edits away with `git stash` (to pull cleanly) and never takes them back.

`git stash && git pull` keeps the checkout clean for the pull, and without `git stash pop` the edits stay in the
stash: a label fix made in the checkout, a setting changed there, is not in the files the run then reads. git says so
in the log ("Saved working directory and index state WIP on main: ..."); the run goes on with the committed files.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME

_STASHES = re.compile(r"\bgit\s+stash(?:\s+(?:push|save)\b[^;&|)]*)?\s*(?:[;&|)]|$)")
_TAKES_BACK = re.compile(r"\bgit\s+stash\s+(?:pop|apply)\b")
_SAVED = re.compile(r"^Saved working directory and index state .+$", re.M)
_CD = re.compile(r"\bcd\s+[\"']?(?P<folder>[^\s\"';&)]+)")


def rule_edits_left_in_the_stash(ev: Evidence) -> list[Finding]:
    said = next(((log, text, match) for log, text in ev.log_heads if (match := _SAVED.search(text))), None)
    if said is None:
        return []
    log, text, saved = said
    for script in ev.user_files:
        if _TAKES_BACK.search(script.text):
            continue
        lines = script.text.splitlines()
        stash = next(((number, line.strip()) for number, line in enumerate(lines, 1)
                      if _STASHES.search(line) and not line.lstrip().startswith("#")), None)
        if stash is None:
            continue
        number, line = stash
        checkout = _CD.search(line)
        # the file of that checkout the run read after the stash: what the edits were meant for
        read = next((word.strip("\"'") for later in lines[number:] for word in later.split()
                     if checkout and word.strip("\"'").startswith(checkout["folder"].rstrip("/") + "/")), None)
        name = read.rsplit("/", 1)[-1] if read else None
        return [Finding(
            category=CACHE_RESUME,
            title=f"{script.name}:{number} puts the checkout's local edits away with `git stash` and never takes them "
                  "back: the run read the committed files" + (f" ({name})" if name else ""),
            evidence=[EvidenceLine(file=script.name, line=number, text=line),
                      EvidenceLine(file=ev.rel(log), line=text.count("\n", 0, saved.start()) + 1,
                                   text=saved[0].strip())],
            cause="`git stash` saved the uncommitted changes of "
                  + (f"{checkout['folder']} " if checkout else "the checkout ")
                  + "(git's line in the log says it did) to keep the tree clean for the pull, and the script never "
                  "runs `git stash pop`: the edits made there (a label fix, a changed setting) stayed in the stash, "
                  + (f"and {name} was read as last committed" if name else "and the run read the files as last "
                     "committed") + ". Every command exits 0; the results are those of the old files.",
            fix=f"In {script.name}, take the edits back after the pull: `git stash && git pull && git stash pop` (or "
                "commit the fix and pull with `git pull --rebase --autostash`); get them back now with `git stash pop` "
                + (f"in {checkout['folder']} " if checkout else "in the checkout ")
                + "(`git stash list` shows them), then materialize again"
                + (f" from {name}" if name else "") + " and collect on a clean output path.",
        )]
    return []
