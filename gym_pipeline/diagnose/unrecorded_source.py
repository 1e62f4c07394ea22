"""Stale inputs in a folder whose manifest does not record them (Gym's, or inputs a script copied in): find the source data and compare what it gives now.

Gym records neither the source's digest nor the settings, and `--resume` reuses
`<stem>_materialized_inputs.jsonl` whatever the data became. The folder and its logs still tell:
the data file a log names (`--input data.jsonl`, `input_jsonl_fpath=...`) or a data file kept
beside the run; the repeats and agent the materialized rows show; row counts; and file times (a
source edited after its inputs were built, rollouts written after that). With those, the inputs
are materialized again in memory exactly as Gym does and compared row by row.
"""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

from gym_pipeline.core.formats import ROLLOUT_INDEX, TASK_INDEX, JsonlFormatError, iter_jsonl_dicts
from gym_pipeline.core.materialize import MaterializationSettings
from gym_pipeline.core.staleness import StaleReport, compare_materialized
from gym_pipeline.diagnose.artifacts import RunFiles, data_files_in, locate_named_file
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.logs import LogFacts
from gym_pipeline.diagnose.manifests import RESUMED_OVER_OTHER_DATA, SOURCE_CHANGED, ManifestFacts, Staleness

MAX_CANDIDATES = 3
DATA_FOLDERS = ("data", "datasets")  # where users keep a run's data, inside its folder
# A data file beside the run (not named by a log) is taken for the source only if most of the inputs' tasks
# are found in it: another dataset kept in the folder must not read as "the source changed".
MIN_SHARED_TASKS = 0.5


def check_unrecorded_source(facts: ManifestFacts, run_dir: Path, files: RunFiles, logs: LogFacts) -> None:
    """Add a SOURCE_CHANGED staleness to `facts` when the run's source data no longer gives its inputs."""
    materialized = files.materialized
    if facts.source is not None or facts.unreadable or not materialized.is_file():
        return  # the manifest records the inputs' source (or cannot be read): nothing to find
    settings = _settings_of(materialized)
    if settings is None:
        return
    others = []  # data files beside the run whose tasks are not the inputs' tasks
    versions: list[tuple[Path, StaleReport]] = []  # other versions of the source: most tasks shared, some changed
    found_source: Path | None = None
    for source, named_by in source_candidates(run_dir, files, logs):
        try:
            report = compare_materialized(materialized, source, settings)
        except (JsonlFormatError, OSError, ValueError):
            continue  # not a dataset Gym could have read
        tasks = max(report.rows_found // max(settings.num_repeats, 1), 1)
        shared = 1 - (report.tasks.changed + report.tasks.removed) / tasks
        if named_by is None and shared < MIN_SHARED_TASKS:
            others.append(source)
            continue
        if found_source:  # the first source found is the one compared; the rest count as other data or versions
            if report.stale and named_by is None:
                versions.append((source, report))
            continue
        found_source = source
        facts.source, facts.settings = str(source), settings
        if not report.stale or _first_rows_only(report, settings, logs):
            continue
        edited = _times(source, materialized, files.rollouts)
        where = named_by or f"a data file beside the run ({source.name})"
        message = (f"{materialized.name} no longer matches its source data {source} ({where}): "
                   f"{'; '.join(report.reasons)}; {report.rows_found} materialized rows, {report.rows_expected} "
                   f"from the data now{edited}")
        evidence = EvidenceLine(file=_rel(source, run_dir), text=f"{report.rows_expected // settings.num_repeats} "
                                f"tasks now x {settings.num_repeats} repeats; modified {_stamp(source)}")
        facts.stale.append(Staleness(SOURCE_CHANGED, message, evidence, report))
        return
    if found_source and versions:
        _resumed_beside_a_newer_version(facts, found_source, versions, materialized, run_dir, logs, settings)
    _resumed_over_other_data(facts, others, materialized, run_dir, logs)


def _resumed_beside_a_newer_version(facts: ManifestFacts, source: Path, versions: list[tuple[Path, StaleReport]],
                                    materialized: Path, run_dir: Path, logs: LogFacts,
                                    settings: MaterializationSettings) -> None:
    """A resumed run whose inputs match one data file while a newer version of it (most tasks shared, some changed)
    lies beside it: `--resume` never re-reads the data, so the newer version was not used, whatever `--input` said."""
    resumed = logs.hits.get("gym_resumed", []) + logs.hits.get("builtin_resumed", [])
    newer = [(path, report) for path, report in versions if _newer_than(path, source)]
    if not resumed or not newer:
        return
    version, report = newer[-1]
    message = (f"{materialized.name} was built from {source.name}, and the run was resumed "
               f"({resumed[-1].file}:{resumed[-1].line}) beside {version.name}, a newer version of that data: "
               f"{'; '.join(report.reasons)}; a resume reuses the materialized inputs, so {version.name} was never read")
    evidence = EvidenceLine(file=_rel(version, run_dir), text=f"{report.rows_expected // settings.num_repeats} tasks "
                            f"x {settings.num_repeats} repeats; {report.tasks.changed} changed, {report.tasks.added} "
                            f"added against {materialized.name}")
    facts.source, facts.settings = str(version), settings
    facts.stale.append(Staleness(SOURCE_CHANGED, message, evidence, report))


# File times within this of each other say nothing (a checkout writes every file at once): names decide then.
_SAME_TIME_S = 2.0


def _newer_than(version: Path, source: Path) -> bool:
    """Whether `version` is the later of two versions of one dataset: by file time, or by name (v1 < v2) when the
    times are a checkout's."""
    version_time, source_time = version.stat().st_mtime, source.stat().st_mtime
    if abs(version_time - source_time) > _SAME_TIME_S:
        return version_time > source_time
    return version.name > source.name


def _resumed_over_other_data(facts: ManifestFacts, others: list[Path], materialized: Path, run_dir: Path,
                             logs: LogFacts) -> None:
    """A `--resume` that found every row done, in a folder holding data none of whose tasks are in the inputs: the
    user most likely meant to run that data, and Gym reused the old inputs instead."""
    nothing_run = logs.hits.get("gym_resume_nothing_to_run", [])
    if not nothing_run or not others:
        return
    hit = nothing_run[-1]
    names = ", ".join(_rel(other, run_dir) for other in others)
    facts.stale.append(Staleness(
        RESUMED_OVER_OTHER_DATA,
        f"a resume ({hit.file}:{hit.line}) found every row of {materialized.name} done and collected nothing, while "
        f"the folder holds data whose tasks are not in those inputs ({names})",
        hit.evidence()))


def _first_rows_only(report: StaleReport, settings: MaterializationSettings, logs: LogFacts) -> bool:
    """Inputs of a run told to read only the first N rows (`--limit N`, Gym's "Limiting the number of rows to N"):
    every task they hold matches, and the data's later tasks are simply not in them."""
    limits = {int(hit.groups["limit"]) for hit in logs.hits.get("gym_row_limit", [])}
    tasks = report.rows_found // max(settings.num_repeats, 1)
    unchanged = not (report.tasks.changed or report.tasks.removed or report.tasks.moved)
    # a resume reuses the inputs whatever limit it was given, and Gym does not print that limit: after a resume
    # the missing tasks may be ones the user asked for
    resumed = bool(logs.hits.get("gym_resumed"))
    return unchanged and report.tasks.added > 0 and bool(limits) and tasks == max(limits) and not resumed


def _settings_of(materialized: Path) -> MaterializationSettings | None:
    """The repeats, agent and order the materialized rows show."""
    rows = []
    try:
        for _, row in iter_jsonl_dicts(materialized):
            rows.append((row.get(TASK_INDEX), row.get(ROLLOUT_INDEX), (row.get("agent_ref") or {}).get("name")))
    except (JsonlFormatError, OSError, AttributeError):
        return None
    if not rows:
        return None
    # the fewest rows of a task: Gym gives a task that appears k times in the data k times the repeats
    repeats = min(Counter(task for task, _, _ in rows).values())
    agents = Counter(agent for _, _, agent in rows if agent)
    interleaved = len(rows) > 1 and rows[0][0] != rows[1][0] and repeats > 1
    return MaterializationSettings(repeats, agents.most_common(1)[0][0] if agents else None, interleaved)


def source_candidates(run_dir: Path, files: RunFiles, logs: LogFacts) -> list[tuple[Path, str | None]]:
    """Source data files: those a log names first (with the line), then JSONL files beside the run's output,
    in the run folder or its data folder."""
    found: dict[Path, str | None] = {}
    for hit in logs.hits.get("input_path", []):
        path = locate_named_file(hit.groups["path"] or "", run_dir)
        if path.is_file():
            found.setdefault(path.resolve(), f"named at {hit.file}:{hit.line}")
    for folder in dict.fromkeys((files.materialized.parent, run_dir, *(run_dir / name for name in DATA_FOLDERS))):
        for path in data_files_in(folder, files):
            found.setdefault(path.resolve(), None)
    return list(found.items())[:MAX_CANDIDATES]


def _times(source: Path, materialized: Path, rollouts: Path) -> str:
    """What the file times say: the data edited after its inputs were built, rollouts written after that."""
    if source.stat().st_mtime <= materialized.stat().st_mtime:
        return ""
    text = f"; the data was modified after the inputs were built ({_stamp(source)} > {_stamp(materialized)})"
    if rollouts.is_file() and rollouts.stat().st_mtime > source.stat().st_mtime:
        text += (f", and rollouts were written after that ({_stamp(rollouts)}): a resume (`--resume`, "
                 "resume_from_cache) kept collecting against the old rows")
    return text


def _stamp(path: Path) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(path.stat().st_mtime))


def _rel(path: Path, run_dir: Path) -> str:
    try:
        return str(path.relative_to(run_dir.resolve()))
    except ValueError:
        return str(path)

