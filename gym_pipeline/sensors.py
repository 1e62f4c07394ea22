"""Sensors: a diagnosis for every failed run, and a sweep for every new checkpoint.

When an `eval_sweep` or `recollect` run fails, the error Dagster recorded for each failed
step is written into the partition's run directory as a log (`logs/dagster_failure.log`,
secrets redacted), and a `diagnose_failed` run materializes `diagnostic_report` for that
partition: the diagnosis reads that log like any other, beside whatever artifacts exist.
"""

from collections.abc import Iterable
from pathlib import Path

import dagster as dg

from gym_pipeline.assets.partitions import (
    CHECKPOINT_DIMENSION,
    CHECKPOINTS,
    ENV_DIMENSION,
    env_partitions,
    sweep_partition_key,
)
from gym_pipeline.backfill import RANGE_END_TAG, RANGE_START_TAG, plan_ranges
from gym_pipeline.config import SweepConfig
from gym_pipeline.core.formats import write_bytes_atomic
from gym_pipeline.diagnose import redact
from gym_pipeline.diagnose.evidence import FAILED_RUN_LOG
from gym_pipeline.discovery import discover_checkpoints

DIAGNOSE_FAILED_JOB = "diagnose_failed"
FAILURE_SENSOR = "diagnose_failed_runs"
FAILURE_LOG = Path(FAILED_RUN_LOG)
_PARTITION_TAG = "dagster/partition/{}"


def failure_texts(step_failures: Iterable[dg.DagsterEvent]) -> list[str]:
    """Each failed step's error as Dagster recorded it: the step, the message and the traceback."""
    texts = []
    for event in step_failures:
        error = event.step_failure_data.error if event.step_failure_data else None
        texts.append(f"step {event.step_key} failed:\n" + (error.to_string() if error else event.message or ""))
    return texts


def write_failure_log(run_dir: Path, run_id: str, texts: list[str]) -> Path:
    path = run_dir / FAILURE_LOG
    body = f"Dagster run {run_id} failed.\n" + "\n".join(texts)
    write_bytes_atomic(path, ("\n".join(redact(line) for line in body.splitlines()) + "\n").encode())
    return path


def failed_partition(run: dg.DagsterRun) -> tuple[str, str] | None:
    checkpoint = run.tags.get(_PARTITION_TAG.format(CHECKPOINT_DIMENSION))
    env = run.tags.get(_PARTITION_TAG.format(ENV_DIMENSION))
    return (checkpoint, env) if checkpoint and env else None


def build_failure_sensor(config: SweepConfig, monitored_jobs: list, diagnose_job) -> dg.SensorDefinition:
    @dg.run_failure_sensor(
        name=FAILURE_SENSOR,
        monitored_jobs=monitored_jobs,
        request_job=diagnose_job,
        default_status=dg.DefaultSensorStatus.RUNNING,
        description="Writes a diagnosis for every partition whose sweep run failed.",
    )
    def diagnose_failed_runs(context: dg.RunFailureSensorContext):
        partition = failed_partition(context.dagster_run)
        if partition is None:
            return dg.SkipReason(f"run {context.dagster_run.run_id} has no (checkpoint, env) partition")
        checkpoint, env = partition
        texts = failure_texts(context.get_step_failure_events()) or [context.failure_event.message or "run failed"]
        write_failure_log(config.run_dir(checkpoint, env), context.dagster_run.run_id, texts)
        return dg.RunRequest(
            run_key=f"diagnose-{context.dagster_run.run_id}",
            partition_key=sweep_partition_key(checkpoint, env),
            tags={"gym_pipeline/diagnoses_run": context.dagster_run.run_id},
        )

    return diagnose_failed_runs


NEW_CHECKPOINTS_SENSOR = "new_checkpoints"


def build_checkpoint_sensor(config: SweepConfig, sweep_job) -> dg.SensorDefinition:
    @dg.sensor(
        name=NEW_CHECKPOINTS_SENSOR,
        job=sweep_job,
        minimum_interval_seconds=30,
        default_status=dg.DefaultSensorStatus.RUNNING,
        description="Adds each new checkpoint (folder or registry line) as a partition and sweeps it on every "
        "environment, in ranged runs of backfill_batch_size partitions.",
    )
    def new_checkpoints(context: dg.SensorEvaluationContext):
        known = set(context.instance.get_dynamic_partitions(CHECKPOINTS.name))
        new = [name for name in discover_checkpoints(config) if name not in known]
        if not new:
            return dg.SkipReason(f"no new checkpoint in {config.checkpoints_dir}")
        # The new checkpoints join the end of the partition order (checkpoint, then environment): their partitions
        # are one contiguous stretch, swept in ranged runs of backfill_batch_size partitions, as a backfill would.
        keys = [str(sweep_partition_key(checkpoint, env))
                for checkpoint in new for env in env_partitions(config).get_partition_keys()]
        ranges = plan_ranges(keys, keys, config.backfill_batch_size)
        return dg.SensorResult(
            run_requests=[
                dg.RunRequest(run_key=f"{part.keys[0]}..{part.keys[-1]}",
                              tags={RANGE_START_TAG: part.keys[0], RANGE_END_TAG: part.keys[-1]})
                for part in ranges
            ],
            dynamic_partitions_requests=[CHECKPOINTS.build_add_request(new)],
        )

    return new_checkpoints
