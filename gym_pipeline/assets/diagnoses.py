"""Diagnostic report: the run directory classified the way the debugging guide says."""

import dagster as dg

from gym_pipeline.assets.batching import SweepPartition, backfill_policy, batch_result, partitions_of
from gym_pipeline.assets.partitions import sweep_partitions
from gym_pipeline.code_versions import code_version_of
from gym_pipeline.config import SweepConfig
from gym_pipeline.gym import diagnose as diagnosis
from gym_pipeline.gym.diagnose.report import DIAGNOSIS_STAGE
from gym_pipeline.gym.fingerprint import file_digest
from gym_pipeline.gym.formats import (
    DIAGNOSIS_FILE,
    FAILURES_FILE,
    MATERIALIZED_INPUTS_FILE,
    REWARD_PROFILE_FILE,
    ROLLOUTS_FILE,
)
from gym_pipeline.gym.manifest import record_stage
from gym_pipeline.gym.run_lock import run_directory_lock
from gym_pipeline.stages import PartitionOutcome

DIAGNOSIS_HEALTHY = "diagnosis_healthy"
DIAGNOSED_FILES = (MATERIALIZED_INPUTS_FILE, ROLLOUTS_FILE, FAILURES_FILE, REWARD_PROFILE_FILE)


def build_diagnostic_report(config: SweepConfig) -> dg.AssetsDefinition:
    @dg.asset(
        name="diagnostic_report",
        partitions_def=sweep_partitions(config),
        deps=["rollouts", "reward_profile"],
        code_version=code_version_of(diagnosis),
        backfill_policy=backfill_policy(config),
        group_name="eval",
        kinds={"python", "json"},
        description="`diagnosis.json`: category (`healthy` or the top cause's) and findings (cause, consequence or note) with evidence and fix.",
        check_specs=[
            dg.AssetCheckSpec(
                DIAGNOSIS_HEALTHY,
                asset="diagnostic_report",
                partitions_def=sweep_partitions(config),
                description="Fails with the top cause's title when the diagnosis is not `healthy`.",
            )
        ],
    )
    def diagnostic_report(context: dg.AssetExecutionContext) -> dg.MaterializeResult:
        code = context.assets_def.code_versions_by_key[context.asset_key]
        unhealthy = []

        def diagnose_one(partition: SweepPartition) -> PartitionOutcome:
            run_dir = config.run_dir(partition.checkpoint, partition.env)
            # Held from reading the run to recording the diagnosis, so it describes one state of the folder.
            with run_directory_lock(run_dir, DIAGNOSIS_STAGE, dagster_run_id=context.run.run_id):
                result = diagnosis.diagnose(run_dir)
                diagnosis.write_diagnosis(result, run_dir / DIAGNOSIS_FILE)
                record_stage(run_dir, DIAGNOSIS_STAGE, {
                    "inputs": {name: file_digest(run_dir / name) for name in DIAGNOSED_FILES
                               if (run_dir / name).exists()},
                    "code_version": code,
                    "category": result.category,
                })
            context.log.info(diagnosis.render_text(result))
            titles = [finding.title for finding in result.findings]
            if not result.healthy:
                unhealthy.append(f"{partition.checkpoint} x {partition.env}: {result.headline}")
            return PartitionOutcome(
                metadata={
                    "path": dg.MetadataValue.path(str(run_dir / DIAGNOSIS_FILE)),
                    "category": result.category,
                    "findings": len(titles),
                    "titles": dg.MetadataValue.md("\n".join(f"- {title}" for title in titles) or "none"),
                },
                digest=file_digest(run_dir / DIAGNOSIS_FILE),
            )

        outcomes = [(p, diagnose_one(p)) for p in partitions_of(context)]
        check = dg.AssetCheckResult(
            check_name=DIAGNOSIS_HEALTHY,
            passed=not unhealthy,
            description="; ".join(unhealthy) if unhealthy else "healthy",
            metadata={"unhealthy_partitions": len(unhealthy)},
        )
        return batch_result(context, config, outcomes, check_results=[check])

    return diagnostic_report
