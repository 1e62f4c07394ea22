"""A reward profile taken of an older run than the one meant: the user asked for "the newest run" through a pointer
that named another one.

A folder holding several collections (one per checkpoint, one per day) is often profiled through something that
picks "the latest": a `latest` symlink (moved by hand, or by a script that did not run), or a script that takes the
last of `ls` (names sort as text: `run_9` comes after `run_10`). When the pointer names an older collection, the
profile is complete and healthy-looking, and describes the wrong run, while the newest one was never profiled.

The profile is matched to the collection it describes by where it sits (beside its rollouts) or by its numbers (the
tasks and each task's mean reward); the newest collection is the latest recorded in our manifests, or else the one
whose name numbers the highest (`step_0200`, `run_10`).

A user's own summary of the profile (a report script's cache, `summary.json`) can go stale the same way: a mean
reward that is neither the profile's nor the rollouts' is a summary of an earlier run.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import orjson

from gym_pipeline.core.formats import ROLLOUTS_FILE, TASK_INDEX
from gym_pipeline.core.manifest import ROLLOUTS_STAGE, read_manifest
from gym_pipeline.diagnose.artifacts import MATERIALIZED_SUFFIX, PROFILE_SUFFIX, walk_glob
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.jsonl_rows import readable_rows
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME

MAX_COLLECTIONS = 50  # compared, at most: a folder of a sweep's runs, not a whole results tree
MAX_ROWS_READ = 200_000  # of one collection's rollouts, for its per-task mean rewards
_LATEST_NAME = re.compile(r"^(?:latest|newest|current|last)(?:[_-]\w+)?$", re.I)
# a script taking the last name `ls` or `sort` gives: `ls -d results/run_* | tail -1`
_PICKS_BY_SORT = re.compile(r"\b(?:ls|sort)\b[^|\n]*\|\s*tail\s+-(?:n\s*)?1\b")
_BY_TIME_OR_NUMBER = re.compile(r"\bls\s+-\w*t|\bsort\s+-\w*[Vn]")
# a script taking the most recently modified: `ls -td runs/*/ | head -1`
_PICKS_BY_TIME = re.compile(r"\bls\s+-\w*t\w*\b[^|\n]*\|\s*head\s+-(?:n\s*)?1\b")
# a log line that changed something inside a folder: `removed 'runs/2026-12-02/collect.tmp'`, `touch ...`
_TOUCHED = re.compile(r"\b(?:removed|deleted|created|touch|rm|mv|renamed|wrote|copied)\b", re.I)
_NUMBER = re.compile(r"(\d+)")


@dataclass(frozen=True)
class Collection:
    directory: Path
    rollouts: Path
    means: dict[int, float]  # task -> mean reward
    recorded_at: str | None  # when our manifest says the rollouts were written


@dataclass(frozen=True)
class Pointer:
    """What picked the profiled run: a symlink named like `latest`, or a script taking the last name of a sort."""

    evidence: EvidenceLine
    says: str  # "`latest` points at step_0100", "profile_latest.sh takes the last name `ls` gives"
    fix: str


def rewards_of_tasks(rollouts: Path) -> dict[int, list[float]]:
    """Each task's rewards in a rollouts file (its first MAX_ROWS_READ rows; rows without both skipped)."""
    rewards: dict[int, list[float]] = defaultdict(list)
    for _, row in readable_rows(rollouts, MAX_ROWS_READ):
        if isinstance(row.get("reward"), int | float) and isinstance(row.get(TASK_INDEX), int):
            rewards[row[TASK_INDEX]].append(float(row["reward"]))
    return rewards


def _means(rollouts: Path) -> dict[int, float]:
    return {task: sum(values) / len(values) for task, values in rewards_of_tasks(rollouts).items()}


def _profile_means(profile: Path) -> dict[int, float]:
    means = {}
    for _, row in readable_rows(profile):
        if isinstance(row.get(TASK_INDEX), int) and isinstance(row.get("mean/reward"), int | float):
            means[row[TASK_INDEX]] = float(row["mean/reward"])
    return means


def _collections(run_dir: Path) -> list[Collection]:
    found = []
    for materialized in walk_glob(run_dir, MATERIALIZED_SUFFIX)[:MAX_COLLECTIONS]:
        stem = materialized.name.removesuffix(MATERIALIZED_SUFFIX)
        rollouts = materialized.parent / f"{stem}.jsonl"
        if not rollouts.is_file():
            continue
        try:
            record = read_manifest(materialized.parent).get(ROLLOUTS_STAGE, {}) if rollouts.name == ROLLOUTS_FILE else {}
        except (OSError, orjson.JSONDecodeError, AttributeError):  # a manifest torn or of another shape: no time
            record = {}
        found.append(Collection(materialized.parent, rollouts, _means(rollouts),
                                record.get("recorded_at") if isinstance(record, dict) else None))
    return found


def _newest(collections: list[Collection]) -> Collection | None:
    """The latest recorded (every one has a manifest), or the one whose name numbers the highest, where the names
    differ only in their numbers; None when neither says."""
    if all(c.recorded_at for c in collections):
        return max(collections, key=lambda c: c.recorded_at or "")
    names = [str(c.directory) for c in collections]
    templates = {_NUMBER.sub("#", name) for name in names}
    if len(templates) != 1:
        return None
    return max(collections, key=lambda c: [int(n) for n in _NUMBER.findall(str(c.directory))])


def _profiled(profile: Path, collections: list[Collection]) -> Collection | None:
    """The collection a profile describes: the one it sits beside, or the only one with its tasks' mean rewards."""
    stem = profile.name.removesuffix(PROFILE_SUFFIX)
    beside = [c for c in collections if c.directory == profile.parent and c.rollouts.name == f"{stem}.jsonl"]
    if beside:
        return beside[0]
    means = _profile_means(profile)
    same = [c for c in collections if means and c.means.keys() == means.keys()
            and all(abs(c.means[task] - mean) < 1e-9 for task, mean in means.items())]
    return same[0] if len(same) == 1 else None


def _pointers(ev: Evidence, collections: list[Collection], older: Collection, newest: Collection) -> list[Pointer]:
    run_dir = ev.run_dir
    found = []
    older_parts = older.directory.relative_to(run_dir).parts
    newest_parts = newest.directory.relative_to(run_dir).parts
    for link in (p for p in [*run_dir.iterdir(), *(p for d in run_dir.iterdir() if d.is_dir() and not d.is_symlink()
                                                    for p in d.iterdir())] if p.is_symlink()):
        # by name: the link may be absolute, into where the folder was before it moved
        target = os.readlink(link)
        if not _LATEST_NAME.match(link.name) or Path(target).name not in older_parts:
            continue
        depth = older_parts.index(Path(target).name)
        meant = run_dir.joinpath(*newest_parts[:depth + 1])
        found.append(Pointer(
            EvidenceLine(file=ev.rel(link), line=None, text=f"{link.name} -> {target}"),
            f"`{ev.rel(link)}` points at {older_parts[depth]}, not at the newest run {meant.name}",
            f"Point it at the newest run (`ln -sfn {os.path.relpath(meant, link.parent)} {ev.rel(link)}`) and move "
            "it whenever a run is added (in the script that collects)"))
    found += _picked_by_time(ev, older, newest)
    last_as_text = max((c.directory for c in collections), key=str)
    if last_as_text != older.directory:  # a sort of the names as text would not have picked it
        return found
    for file, number, line, _ in lines_matching(ev.user_files, _PICKS_BY_SORT):
        if not _BY_TIME_OR_NUMBER.search(line):
            found.append(Pointer(
                EvidenceLine(file=file.name, line=number, text=line.strip()),
                f"{file.name} takes the last name `ls` gives, and names sort as text ({older.directory.name} after "
                f"{newest.directory.name})",
                f"In {file.name}, pick the run by number (`ls -d ... | sort -V | tail -1`) or by time (`ls -td ... "
                "| head -1`)"))
    return found


def _picked_by_time(ev: Evidence, older: Collection, newest: Collection) -> list[Pointer]:
    """A script that profiles the most recently modified run folder, when the older run's folder was changed after the
    newest was written: a file removed or added in it (a cleanup) makes it the most recent by time."""
    picks = next(iter(lines_matching(ev.user_files, _PICKS_BY_TIME)), None)
    if picks is None:
        return []
    file, number, line, _ = picks
    older_rel = ev.rel(older.directory)
    touched = next((EvidenceLine(file=ev.rel(log), line=n, text=text.strip()) for log, head in ev.log_heads
                    for n, text in enumerate(head.splitlines(), 1)
                    if f"{older_rel}/" in text and _TOUCHED.search(text)), None)
    changed = f" ({touched.file}: {touched.text})" if touched else ""
    return [Pointer(
        EvidenceLine(file=file.name, line=number, text=line.strip()),
        f"{file.name} takes the most recently modified run folder (`ls -t`), and {older.directory.name} was changed "
        f"after {newest.directory.name} was written{changed}: a folder's time moves whenever a file in it is added "
        "or removed",
        f"In {file.name}, pick the run by its name or its record, not by modification time (`ls -td ... | head -1`): "
        f"`ls -d ... | sort -V | tail -1`, or a path the collecting script writes down")]


def rule_profile_of_an_older_run(ev: Evidence) -> list[Finding]:
    run_dir = ev.run_dir
    if run_dir is None or not run_dir.is_dir():
        return []
    profiles = walk_glob(run_dir, PROFILE_SUFFIX)
    collections = _collections(run_dir) if profiles else []
    newest = _newest(collections) if len(collections) > 1 else None
    if newest is None:
        return []
    profiled = {id(c): c for profile in profiles if (c := _profiled(profile, collections)) is not None}
    if id(newest) in profiled:
        return []
    for older in profiled.values():
        pointers = _pointers(ev, collections, older, newest)
        if not pointers:
            continue
        first = pointers[0]
        newest_rel, older_rel = ev.rel(newest.directory), ev.rel(older.directory)
        return [Finding(
            category=CACHE_RESUME,
            title=f"The reward profile is of {older_rel}, an older run, not of the newest one ({newest_rel}): "
                  f"{first.says}",
            evidence=[p.evidence for p in pointers[:2]],
            cause=f"What picked the run to profile named {older_rel}: {first.says}. So the profile is complete and "
                  f"describes the previous run's rollouts, while {newest_rel} ({len(newest.means)} tasks) has no "
                  "profile: its numbers were never looked at.",
            fix=f"{first.fix}; then profile the newest run: `gym eval profile --inputs "
                f"{newest.directory}/{newest.rollouts.stem}{MATERIALIZED_SUFFIX} --rollouts {newest.rollouts}`.",
        )]
    return []


# the files ours and Gym's commands write beside a run: not a user's summary
_OWN_JSON = re.compile(r"^(?:rollouts\w*|manifest|sweep|skipped|quality_summary|diagnosis)\.json$")
_MEAN_REWARD_KEY = re.compile(r"^(?:mean|avg|average)[_/ -]?reward$", re.I)
MAX_SUMMARY_BYTES = 64 << 10


def _summaries(run_dir: Path) -> list[tuple[Path, str, float]]:
    """(file, key, value) of the mean rewards the user's small JSON files in the run folder hold at their top."""
    found = []
    for path in sorted(run_dir.glob("*.json")):
        if _OWN_JSON.match(path.name) or path.stat().st_size > MAX_SUMMARY_BYTES:
            continue
        try:
            data = orjson.loads(path.read_bytes())
        except (OSError, orjson.JSONDecodeError):
            continue
        if isinstance(data, dict):
            found += [(path, key, float(value)) for key, value in data.items()
                      if _MEAN_REWARD_KEY.match(key) and isinstance(value, int | float) and not isinstance(value, bool)]
    return found


def rule_summary_of_an_older_run(ev: Evidence) -> list[Finding]:
    run_dir = ev.run_dir
    if run_dir is None or not run_dir.is_dir() or not ev.artifacts.files.profile.is_file():
        return []
    summaries = _summaries(run_dir)
    if not summaries:
        return []
    per_task = _profile_means(ev.artifacts.files.profile)
    rollouts = _means(ev.artifacts.files.rollouts) if ev.artifacts.files.rollouts.is_file() else {}
    if not per_task:
        return []
    now = {sum(per_task.values()) / len(per_task)}
    if rollouts:
        now.add(sum(rollouts.values()) / len(rollouts))
    for path, key, value in summaries:
        if any(abs(value - mean) < 5e-4 for mean in now):
            continue
        shown = min(now, key=lambda mean: abs(mean - value))
        return [Finding(
            category=CACHE_RESUME,
            title=f"{path.name} says {key} {value:g}, but the profile beside it gives {shown:.4f}: a summary of an "
                  "earlier run",
            evidence=[EvidenceLine(file=ev.rel(path), line=1, text=f"{key}: {value:g}")],
            cause=f"{path.name} holds a mean reward that is neither the profile's nor the rollouts' now in the "
                  "folder: it was written for an earlier run (a report script that keeps its numbers in a cache and "
                  "reads the cache whenever it exists) and was not made again after this run was collected and "
                  "profiled. Whatever reads it (the weekly report) shows the earlier run's numbers.",
            fix=f"Delete {ev.rel(path)} and make the summary again from the profile; make the script that writes it "
                "check its cache against the profile it summarizes (its digest or time), or not cache at all.",
        )]
    return []
