"""Step 5: a taskset refreshed from the team's share with a copy that never overwrites (`cp -rn share/. tasks/`).

A run script brings the local taskset up to date before each run, and keeps local edits with `cp -n`
(`--no-clobber`, `rsync --ignore-existing`): every file already in the local copy stays as it was. A task fixed on
the share (a test.sh that expected the wrong answer) keeps last week's test here, the right answers score 0, and
every command exits 0. Named when the copy's destination is the taskset the run read and either the share is there
to compare (a file of it differs from the local one) or, the share out of reach, a task failed every episode and a
verbose copy (`-v`) listed nothing copied.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

from gym_pipeline.diagnose.artifacts import locate_named_file
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.published_copy import NO_CLOBBER, copy_operands, same_content
from gym_pipeline.diagnose.rules.taskfolders import task_folder_run
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME

_VERBOSE = re.compile(r"\s(?:-[a-zA-Z]*v[a-zA-Z]*|--verbose)\b")
_MAX_COMPARED_FILES = 2000


def _folder(path: str, run_dir: Path) -> Path:
    return locate_named_file(path.rstrip("/").removesuffix("/.").rstrip("/"), run_dir, folder=True)


def _first_kept_file(share: Path, taskset: Path) -> Path | None:
    """A file of the share whose copy in the taskset differs (the copy kept the local one), relative to the share."""
    for number, path in enumerate(sorted(share.rglob("*"))):
        if number >= _MAX_COMPARED_FILES:
            return None
        local = taskset / path.relative_to(share)
        if path.is_file() and local.is_file() and not same_content(path, local):
            return path.relative_to(share)
    return None


def _never_passed(summary: dict) -> list[str]:
    """Tasks whose every episode was verified and scored 0 (none failed to run)."""
    rewards: dict[str, list[float | None]] = defaultdict(list)
    for episode in summary.get("tasks", []):
        if isinstance(episode, dict) and isinstance(episode.get("task"), str):
            ran = episode.get("failure_kind") is None and isinstance(episode.get("reward"), int | float)
            rewards[episode["task"]].append(float(episode["reward"]) if ran else None)
    return sorted(task for task, values in rewards.items() if values and all(value == 0 for value in values))


def _listed_nothing(ev: Evidence, line: str) -> bool:
    """Whether a verbose copy printed no `'a' -> 'b'` line in any log: it copied nothing."""
    return bool(_VERBOSE.search(line)) and not any(" -> " in text for _, text in ev.log_heads)


def rule_taskset_refreshed_without_overwriting(ev: Evidence) -> list[Finding]:
    run = task_folder_run(ev)
    if run is None or ev.run_dir is None or "taskset" not in run.summary:
        return []
    taskset = _folder(str(run.summary["taskset"]), ev.run_dir)
    for file, number, line, _ in lines_matching(ev.user_files, NO_CLOBBER):
        source, destination = copy_operands(line)
        if source is None or destination is None or not taskset.is_dir():
            continue
        if _folder(destination, ev.run_dir).resolve() != taskset.resolve():
            continue
        share = _folder(source, ev.run_dir)
        never_passed = _never_passed(run.summary)
        # a share out of reach is looked for below the run folder by its name, which finds the local copy itself
        reachable = share.is_dir() and share.resolve() != taskset.resolve()
        if reachable:
            kept = _first_kept_file(share, taskset)
            if kept is None:
                continue  # the share holds nothing the local copy lacks: the copy kept nothing that changed
            shown = f"{ev.rel(taskset)}/{kept}"
            proof = EvidenceLine(file=shown, text=f"differs from {source.rstrip('/').removesuffix('/.')}/{kept}, the "
                                                  "share's copy")
        elif never_passed and _listed_nothing(ev, line):
            task_tests = taskset / never_passed[0] / "tests" / "test.sh"
            shown = f"{ev.rel(taskset)}/{never_passed[0]}/tests/test.sh" if task_tests.is_file() else \
                f"{ev.rel(taskset)}/{never_passed[0]}"
            proof = EvidenceLine(file=shown, text=f"{never_passed[0]} scored 0 in every episode, graded by this "
                                                  "local copy")
        else:
            continue
        copy = EvidenceLine(file=file.name, line=number, text=line.strip())
        return [Finding(
            category=CACHE_RESUME,
            title=f"{file.name}:{number} refreshes the taskset with a copy that never overwrites: {shown} is the "
                  "local copy from before, not the share's",
            evidence=[copy, proof],
            cause=f"`{line.strip()}` copies without overwriting (no-clobber: `cp -n`, `--no-clobber`, "
                  "`rsync --ignore-existing`), so every file the local taskset already had stayed as it was and only "
                  f"new files came over. A fix made on the share since (a task's tests/test.sh, its data) never "
                  f"reached {ev.rel(taskset)}: the run was graded by the old files, and the copy exited 0 without a "
                  "word"
                  + (f" (with -v it listed nothing copied; {', '.join(never_passed)} scored 0 in every episode)."
                     if not reachable else "."),
            fix=f"In {file.name} line {number}, sync the taskset so that it matches the share: `rsync -a --delete "
                f"{source} {destination}` (or remove {destination} and copy it afresh with `cp -r`) instead of "
                f"`{line.strip().split()[0]} {line.strip().split()[1]}` (no-clobber, which keeps {shown}); keep "
                "local edits in a folder of their own. Then materialize and run again (the taskset's digest "
                "changes, so the inputs are made anew).",
        )]
    return []
