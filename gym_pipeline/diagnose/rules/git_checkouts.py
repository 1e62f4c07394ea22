"""Step 1: a script that updates a git checkout the run reads, in a way that leaves the files it reads behind.

- `git stash && git pull` (to pull cleanly) without `git stash pop`: the user's local edits (a label fix) stay in the
  stash, and the run reads the committed files. git says so in the log ("Saved working directory and index state
  WIP on main: ...").
- `git fetch` alone to "update" the checkout: the new commits are downloaded (`abc..def  main -> origin/main`) and
  never merged into the working tree, so the run reads the files as they were.
- `git pull` in a repository whose data is a submodule: the pull moves the submodule's pointer (`data | 2 +-`,
  `git status` then says ` M data`), but only `git submodule update` checks the new commit out, so the run reads
  the data as it was.
- `git pull` refused by an uncommitted edit to a file the pull changes ("Your local changes to the following files
  would be overwritten by merge ... Aborting"): a script that goes on anyway (no `set -e`, the pull in a subshell)
  reads the files as they were, the hand edit included, not the new commits.

Every command exits 0 (but a refused pull); the results are those of the old files (cache/resume: a stale input).
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME

_STASHES = re.compile(r"\bgit\s+stash(?:\s+(?:push|save)\b[^;&|)]*)?\s*(?:[;&|)]|$)")
_TAKES_BACK = re.compile(r"\bgit\s+stash\s+(?:pop|apply)\b")
_SAVED = re.compile(r"^Saved working directory and index state .+$", re.M)
_CD = re.compile(r"\bcd\s+[\"']?(?P<folder>[^\s\"';&)]+)")


def _first_command(lines: list[str], pattern: re.Pattern[str]) -> tuple[int, str] | None:
    """(number, line) of the first line of a script, not a comment, that runs `pattern`."""
    return next(((number, line.strip()) for number, line in enumerate(lines, 1)
                 if pattern.search(line) and not line.lstrip().startswith("#")), None)


def _file_read_from(script: str, line: str) -> str | None:
    """The name of a file the script names inside the checkout that `line` goes to (`cd <checkout> && git ...`):
    what the run read from it."""
    checkout = _CD.search(line)
    read = re.search(rf"{re.escape(checkout['folder'].rstrip('/'))}/[^\s\"';]+", script) if checkout else None
    return PurePosixPath(read[0]).name if read else None


def rule_edits_left_in_the_stash(ev: Evidence) -> list[Finding]:
    said = next(((log, text, match) for log, text in ev.log_heads if (match := _SAVED.search(text))), None)
    if said is None:
        return []
    log, text, saved = said
    for script in ev.user_files:
        if _TAKES_BACK.search(script.text):
            continue
        stash = _first_command(script.text.splitlines(), _STASHES)
        if stash is None:
            continue
        number, line = stash
        checkout = _CD.search(line)
        name = _file_read_from(script.text, line)  # what the edits were meant for
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


_FETCHING_SUBMODULE = re.compile(r"^Fetching submodule (?P<name>\S+)$", re.M)
_UPDATES_SUBMODULES = re.compile(r"\bgit\s+submodule\s+update\b|--recurse-submodules|submodule\.recurse")
_PULLS = re.compile(r"\bgit\s+pull\b")


def rule_submodule_left_behind_by_a_pull(ev: Evidence) -> list[Finding]:
    for log, text in ev.log_heads:
        for fetched in _FETCHING_SUBMODULE.finditer(text):
            name = fetched["name"]
            # the pull moved the pointer, and the checkout still holds the old commit (`git status --short`: ` M data`)
            moved = re.search(rf"^ {re.escape(name)} \| \d+ [+-]+$|^ ?M {re.escape(name)}$"
                              rf"|modified:\s+{re.escape(name)} \(new commits\)", text, re.M)
            if moved is None:
                continue
            for script in ev.user_files:
                if _UPDATES_SUBMODULES.search(script.text):
                    continue
                pull = _first_command(script.text.splitlines(), _PULLS)
                if pull is None:
                    continue
                read = re.search(rf"[^\s\"'=]*/{re.escape(name)}/[^\s\"';]+\.(?:jsonl|json|csv|parquet|txt)\b",
                                 script.text)
                shown = PurePosixPath(read[0]).name if read else None
                return [Finding(
                    category=CACHE_RESUME,
                    title=f"{script.name}:{pull[0]} updates the checkout with `git pull`, which moved the `{name}` "
                          "submodule's pointer but left its files at the old commit: the run read the old "
                          + (shown or f"{name}/"),
                    evidence=[EvidenceLine(file=script.name, line=pull[0], text=pull[1]),
                              EvidenceLine(file=ev.rel(log), line=text.count("\n", 0, fetched.start()) + 1,
                                           text=fetched[0].strip()),
                              EvidenceLine(file=ev.rel(log), line=text.count("\n", 0, moved.start()) + 1,
                                           text=moved[0].strip())],
                    cause=f"`{name}` is a git submodule of the checkout. `git pull` fetched its new commits and moved "
                          "the pointer the repository records (the log shows the pointer changed and the submodule "
                          f"modified), but a pull does not check a submodule's new commit out: {name}/ kept the files "
                          "of the old one, and the run read them"
                          + (f" ({shown})" if shown else "") + ". Every command exits 0.",
                    fix=f"In {script.name}, check the submodule out after the pull: `git pull && git submodule update "
                        f"--init --recursive` (or `git pull --recurse-submodules`, or `git config submodule.recurse "
                        f"true` once); run `git submodule update --init` in the checkout now, then materialize again "
                        f"from {name}/" + (shown or "") + " and collect on a clean output path.",
                )]
    return []


# git's line for a branch a fetch moved: `   b179301..d6c2df0  main       -> origin/main`
_FETCHED = re.compile(r"^\s+(?P<old>[0-9a-f]{7,})\.\.(?P<new>[0-9a-f]{7,})\s+(?P<branch>\S+)\s+->\s+(?P<remote>\S+/\S+)$",
                      re.M)
_FETCH_ONLY = re.compile(r"\bgit\s+fetch\b")
_BRINGS_IN = re.compile(r"\bgit\s+(?:pull|merge|rebase|reset|checkout|switch)\b")


def rule_fetch_never_merged(ev: Evidence) -> list[Finding]:
    said = next(((log, text, match) for log, text in ev.log_heads if (match := _FETCHED.search(text))), None)
    if said is None:
        return []
    log, text, fetched = said
    for script in ev.user_files:
        if _BRINGS_IN.search(script.text):
            continue
        fetch = _first_command(script.text.splitlines(), _FETCH_ONLY)
        if fetch is None:
            continue
        number, line = fetch
        name = _file_read_from(script.text, line)
        return [Finding(
            category=CACHE_RESUME,
            title=f"{script.name}:{number} updates the checkout with `git fetch` alone: {fetched['remote']} moved to "
                  f"{fetched['new']}, the working tree stayed at {fetched['old']}, and the run read the old "
                  + (name or "files"),
            evidence=[EvidenceLine(file=script.name, line=number, text=line),
                      EvidenceLine(file=ev.rel(log), line=text.count("\n", 0, fetched.start()) + 1,
                                   text=fetched[0].strip())],
            cause=f"`git fetch` downloads the new commits into {fetched['remote']} and changes no file of the working "
                  f"tree: the checkout's {fetched['branch']} is still at {fetched['old']}, so what the run read"
                  + (f" ({name})" if name else "") + " is the old version, without the commits the fetch brought. "
                  "Every command exits 0.",
            fix=f"In {script.name}, bring the commits into the checkout: `git pull` instead of `git fetch` (or `git "
                f"fetch && git merge --ff-only {fetched['remote']}`); run it in the checkout now, then materialize "
                "again" + (f" from {name}" if name else "") + " and collect on a clean output path.",
        )]
    return []


_PULL_REFUSED = re.compile(r"^error: Your local changes to the following files would be overwritten by (?:merge|checkout)"
                           r":\n(?P<files>(?:\s+\S+\n)+)", re.M)


def rule_pull_refused_by_local_changes(ev: Evidence) -> list[Finding]:
    said = next(((log, text, match) for log, text in ev.log_heads if (match := _PULL_REFUSED.search(text))), None)
    if said is None:
        return []
    log, text, refused = said
    if re.search(r"^Fast-forward$|^\s*\d+ files? changed", text[refused.end():], re.M):
        return []  # a later pull (after a stash or a reset) went through
    files = refused["files"].split()
    for script in ev.user_files:
        pull = _first_command(script.text.splitlines(), _PULLS)
        if pull is None:
            continue
        number, line = pull
        return [Finding(
            category=CACHE_RESUME,
            title=f"{script.name}:{number} updates the checkout with `git pull`, which git refused over an uncommitted "
                  f"change to {', '.join(files[:3])}: the script went on and the run read the files as they were",
            evidence=[EvidenceLine(file=ev.rel(log), line=text.count("\n", 0, refused.start()) + 1,
                                   text=refused[0].splitlines()[0].strip()),
                      EvidenceLine(file=script.name, line=number, text=line)],
            cause=f"The checkout holds an uncommitted edit to {', '.join(files[:3])} (a hand fix on that machine), and "
                  "the pull would change the same file, so git aborted the merge and left the working tree as it "
                  "was. The script did not stop on the failed pull, so the run read the old files (with the hand "
                  "edit), not the new commits; every later command exited 0.",
            fix=f"In the checkout, see the local changes that refused the pull (`git diff {files[0]}`): commit it "
                "upstream or drop it (`git checkout -- "
                f"{files[0]}`, or `git stash`), then pull again; and make {script.name} stop when the pull fails "
                "(`set -e`, or `git pull --ff-only || exit 1`) so a stale checkout never reaches the eval; then "
                "materialize again and collect on a clean output path.",
        )]
    return []
