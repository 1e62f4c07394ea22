"""Asset checks: materialized inputs must still be what their source data and settings produce.

The check is blocking: in a run that materializes inputs, a failure stops the
rollouts of that partition, and the rollouts asset refuses stale inputs on its own
too, so no rollout is ever collected against rows that no longer match the data.
"""

import dagster as dg

from gym_pipeline.assets.batching import partitions_of
from gym_pipeline.assets.partitions import sweep_partition_key, sweep_partitions
from gym_pipeline.code_versions import code_version_of
from gym_pipeline.config import SweepConfig
from gym_pipeline.core.formats import MATERIALIZED_INPUTS_FILE
from gym_pipeline.core.manifest import read_manifest
from gym_pipeline.core.materialize import MATERIALIZED_INPUTS_STAGE
from gym_pipeline.core.staleness import StaleReport, compare_materialized, unchanged_since_recorded
from gym_pipeline.stages import materialize_partition
from gym_pipeline.taskfolders.materialize import taskset_report

INPUTS_MATCH_SOURCE = "inputs_match_source"
# The materialized_inputs asset's code version: inputs written by other code are compared row by row.
MATERIALIZE_CODE_VERSION = code_version_of(materialize_partition)


def inputs_report(config: SweepConfig, checkpoint: str, env: str) -> StaleReport:
    """Compare a partition's materialized inputs with its environment's current data and settings."""
    run_dir = config.run_dir(checkpoint, env)
    record = read_manifest(run_dir).get(MATERIALIZED_INPUTS_STAGE, {})
    if config.environment(env).tasks:  # rows stamped with their task folder's digest: compared task by task
        return taskset_report(run_dir / MATERIALIZED_INPUTS_FILE, config.environment(env).tasks,
                              config.materialization_settings(env), record.get("source", {}).get("digest"),
                              f"gym-pipeline backfill --env {env} --checkpoint {checkpoint}")
    inputs, source = run_dir / MATERIALIZED_INPUTS_FILE, config.environment(env).dataset
    settings = config.materialization_settings(env)
    # Right after a materialization (the usual case in a sweep) the digests settle it without re-materializing.
    unchanged = unchanged_since_recorded(inputs, source, settings, record, MATERIALIZE_CODE_VERSION)
    return unchanged or compare_materialized(
        inputs, source, settings, recorded_source_digest=record.get("source", {}).get("digest"))


def report_metadata(report: StaleReport) -> dict:
    return {
        "source": dg.MetadataValue.path(report.source),
        "recorded_source_digest": report.recorded_source_digest or "(not recorded)",
        "current_source_digest": report.current_source_digest,
        "tasks_added": report.tasks.added,
        "tasks_removed": report.tasks.removed,
        "tasks_changed": report.tasks.changed,
        "tasks_moved": report.tasks.moved,
        "rows_found": report.rows_found,
        "rows_expected": report.rows_expected,
        "settings_differences": dg.MetadataValue.json(report.settings_differences),
        "rebuild": dg.MetadataValue.md(f"`{report.rebuild_command}`"),
    }


def inputs_check_evaluation(config: SweepConfig, checkpoint: str, env: str) -> dg.AssetCheckEvaluation:
    """The check's verdict on one partition, as an event a sensor records without a run."""
    report = inputs_report(config, checkpoint, env)
    return dg.AssetCheckEvaluation(
        asset_key=dg.AssetKey("materialized_inputs"), check_name=INPUTS_MATCH_SOURCE, passed=not report.stale,
        description=report.summary(), metadata=report_metadata(report), blocking=True,
        partition=str(sweep_partition_key(checkpoint, env)),
    )


def build_checks(config: SweepConfig) -> list[dg.AssetChecksDefinition]:
    @dg.asset_check(
        asset="materialized_inputs",
        name=INPUTS_MATCH_SOURCE,
        blocking=True,
        partitions_def=sweep_partitions(config),
        description="Fails when the source data or materialization settings changed since the inputs were built.",
    )
    def inputs_match_source(context: dg.AssetCheckExecutionContext) -> dg.AssetCheckResult:
        reports = [inputs_report(config, p.checkpoint, p.env) for p in partitions_of(context)]
        stale = [report for report in reports if report.stale]
        # The metadata details the first stale partition (or the only one checked).
        shown = stale[0] if stale else reports[0]
        return dg.AssetCheckResult(
            passed=not stale,
            description="; ".join(report.summary() for report in stale) if stale else shown.summary(),
            metadata=report_metadata(shown) | {"partitions_checked": len(reports), "partitions_stale": len(stale)},
        )

    return [inputs_match_source]
