"""Diagnostic report: the run directory classified the way the debugging guide says."""

import dagster as dg

from gym_pipeline.assets.batching import SweepPartition, backfill_policy, batch_result, partitions_of
from gym_pipeline.assets.partitions import sweep_partitions
from gym_pipeline.code_versions import code_version_of
from gym_pipeline.config import SweepConfig
from gym_pipeline.stages import DiagnosedPartition, diagnose_partition

DIAGNOSIS_HEALTHY = "diagnosis_healthy"


def build_diagnostic_report(config: SweepConfig) -> dg.AssetsDefinition:
    @dg.asset(
        name="diagnostic_report",
        partitions_def=sweep_partitions(config),
        deps=["rollouts", "reward_profile"],
        code_version=code_version_of(diagnose_partition),
        backfill_policy=backfill_policy(config),
        group_name="eval",
        kinds={"python", "json"},
        description="`diagnosis.json`: category (`healthy` or the top cause's) and findings (cause, consequence or note) with evidence and fix.",
        check_specs=[
            dg.AssetCheckSpec(
                DIAGNOSIS_HEALTHY,
                asset="diagnostic_report",
                partitions_def=sweep_partitions(config),
                description="Fails with the top cause's title when the diagnosis is not `healthy`, or when a rule of "
                            "the diagnosis failed on a partition's folder (the verdict is then incomplete).",
            )
        ],
    )
    def diagnostic_report(context: dg.AssetExecutionContext) -> dg.MaterializeResult:
        code = context.assets_def.code_versions_by_key[context.asset_key]

        def diagnose_one(partition: SweepPartition) -> DiagnosedPartition:
            return diagnose_partition(config, partition.checkpoint, partition.env, code, context.log,
                                      dagster_run_id=context.run.run_id)

        outcomes = [(p, diagnose_one(p)) for p in partitions_of(context)]
        unhealthy = [f"{p.checkpoint} x {p.env}: {outcome.headline}" for p, outcome in outcomes if not outcome.healthy]
        check = dg.AssetCheckResult(
            check_name=DIAGNOSIS_HEALTHY,
            passed=not unhealthy,
            description="; ".join(unhealthy) if unhealthy else "healthy",
            metadata={"unhealthy_partitions": len(unhealthy)},
        )
        return batch_result(context, config, outcomes, check_results=[check])

    return diagnostic_report
