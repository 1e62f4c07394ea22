"""Results published with a copy that never overwrites: the published folder keeps an earlier run's files.

Teams copy a run's results to a shared place for the dashboards and the people who read them, and a careful
script copies "without overwriting anybody's files": `cp -n`, `cp --no-clobber`, `cp --update=none`, `rsync
--ignore-existing`. Once an earlier run was published there, every later copy skips the files that already exist,
exits 0, and the shared rollouts and profile stay the earlier run's. The folder shows it: the source and the
published copy hold files of one name with different contents.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from gym_pipeline.diagnose.artifacts import locate_named_file
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME

# a copy that skips files the destination has: cp's -n (alone or among other short options), --no-clobber,
# --update=none; rsync's --ignore-existing
_NO_CLOBBER = re.compile(r"^\s*(?:(?P<cp>cp)\b(?=[^\n#]*\s(?:-[a-zA-Z]*n[a-zA-Z]*|--no-clobber|--update=none)\b)"
                         r"|(?P<rsync>rsync)\b(?=[^\n#]*\s--ignore-existing\b))")
# the run's files whose contents say which run they are
_RUN_FILES = ("rollouts.jsonl", "rollouts_materialized_inputs.jsonl", "rollouts_reward_profiling.jsonl")
MAX_COMPARED_BYTES = 64 << 20  # of one file: past it, only sizes are compared


def rule_results_published_without_overwriting(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None or not ev.run_dir.is_dir():
        return []
    for file, number, line, _ in lines_matching(ev.user_files, _NO_CLOBBER):
        source, destination = _operands(line)
        if source is None or destination is None:
            continue
        source_dir = locate_named_file(source.rstrip("/").removesuffix("/."), ev.run_dir, folder=True)
        published = locate_named_file(destination.rstrip("/"), ev.run_dir, folder=True)
        differing = [name for name in _RUN_FILES
                     if (source_dir / name).is_file() and (published / name).is_file()
                     and not _same_content(source_dir / name, published / name)]
        if not differing:
            continue
        shown_source, shown_published = ev.rel(source_dir), ev.rel(published)
        return [Finding(
            category=CACHE_RESUME,
            title=f"{file.name} publishes with a copy that never overwrites: {shown_published} keeps an earlier run's "
                  f"{', '.join(differing)}",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                      EvidenceLine(file=f"{shown_published}/{differing[0]}", text=f"differs from "
                                   f"{shown_source}/{differing[0]}, the run's own")],
            cause=f"{file.name} copies the results without overwriting files that exist (`cp -n`, `--no-clobber`, "
                  "`rsync --ignore-existing`). An earlier run was published there first, so this run's files were "
                  f"skipped without a word and the copy exited 0: what is read from {shown_published} (its rollouts "
                  "and profile) is the earlier run's.",
            fix=f"Publish each run into a folder of its own (named by checkpoint and date), or let the copy replace "
                f"the files (`cp -r`, `rsync` without --ignore-existing) in {file.name}; copy {shown_source} again, "
                "then profile the published copy and check its mean reward against the run's own.",
        )]
    return []


def _operands(line: str) -> tuple[str | None, str | None]:
    """The last two non-option words of a copy command: its (last) source and its destination."""
    try:
        words = shlex.split(line.split("#", 1)[0])
    except ValueError:
        return None, None
    paths = [word for word in words[1:] if not word.startswith("-")]
    return (paths[-2], paths[-1]) if len(paths) >= 2 else (None, None)


def _same_content(first: Path, second: Path) -> bool:
    if first.stat().st_size != second.stat().st_size:
        return False
    if first.stat().st_size > MAX_COMPARED_BYTES:
        return True
    return first.read_bytes() == second.read_bytes()
