"""The materialize stage of a task-folder environment's partition (called by `stages.py`). Returns the
partition's metadata (paths as plain strings; `stages.py` types them for Dagster) and the digest it wrote."""

from __future__ import annotations

from typing import Any, Protocol

from gym_pipeline.config import SweepConfig
from gym_pipeline.core.formats import MATERIALIZED_INPUTS_FILE
from gym_pipeline.core.materialize import MATERIALIZED_INPUTS_STAGE
from gym_pipeline.core.run_lock import run_directory_lock
from gym_pipeline.taskfolders.materialize import SKIPPED_FILE, materialize_taskset_and_record


class StageLog(Protocol):
    def info(self, msg: str) -> Any: ...


def materialize_taskset_partition(config: SweepConfig, checkpoint: str, env: str, code: str, log: StageLog,
                                  dagster_run_id: str | None = None) -> tuple[dict[str, Any], str]:
    environment = config.environment(env)
    settings = config.materialization_settings(env)
    run_dir = config.run_dir(checkpoint, env)
    output = run_dir / MATERIALIZED_INPUTS_FILE
    with run_directory_lock(run_dir, MATERIALIZED_INPUTS_STAGE, dagster_run_id=dagster_run_id):
        record = materialize_taskset_and_record(environment.tasks, output, settings, environment.skip_unloadable,
                                                code)
    source = record["source"]
    log.info(f"{output}: {record['output']['rows']} rows from {len(source['tasks'])} task folders "
             f"({settings.num_repeats} repeats; {len(source['skipped'])} skipped, see {run_dir / SKIPPED_FILE})")
    return {
        "path": str(output),
        "rows": record["output"]["rows"],
        "tasks": len(source["tasks"]),
        "tasks_skipped": len(source["skipped"]),
        "num_repeats": settings.num_repeats,
        "agent": settings.agent,
        "source_digest": source["digest"],
        "settings_digest": record["settings_digest"],
    }, record["output"]["digest"]
