"""Is a task-folder run's taskset still what its inputs were materialized from? (seed 004: "A task folder
changed".) The inputs' rows carry each task folder's digest, so the answer names the tasks that changed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gym_pipeline.core.materialize import MaterializationSettings
from gym_pipeline.core.staleness import StaleReport
from gym_pipeline.diagnose.artifacts import locate_named_file
from gym_pipeline.taskfolders.loader import TaskLoadError
from gym_pipeline.taskfolders.materialize import TASKSET_SOURCE_KIND, taskset_report


def is_taskset_record(record: dict[str, Any]) -> bool:
    return record.get("source", {}).get("kind") == TASKSET_SOURCE_KIND


def taskset_staleness(record: dict[str, Any], materialized: Path) -> tuple[str, StaleReport | None] | None:
    """(what changed, the report) when the taskset no longer matches the inputs, else None."""
    # a run folder copied or moved keeps the taskset's old absolute path: look for it below the run folder too
    source = locate_named_file(record["source"]["path"], materialized.parent, folder=True)
    if not source.is_dir():
        return f"the taskset {source} the inputs were materialized from is gone", None
    try:
        report = taskset_report(materialized, source, MaterializationSettings(**record["settings"]),
                                record["source"]["digest"], "re-materialize the taskset",
                                moved=str(source) != record["source"]["path"])
    except TaskLoadError as error:
        return f"the taskset no longer loads: {error}", None
    return (report.summary(), report) if report.stale else None
