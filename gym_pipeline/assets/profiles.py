"""Reward profile: Gym's `rollouts_reward_profiling.jsonl`, agent / repeat-level metrics, and our reward analysis."""

import dagster as dg

from gym_pipeline.assets.batching import SweepPartition, backfill_policy, batch_result, partitions_of
from gym_pipeline.assets.column_schemas import column_schemas
from gym_pipeline.assets.launching import run_stage
from gym_pipeline.assets.partitions import sweep_partitions
from gym_pipeline.automation import reward_profile_freshness
from gym_pipeline.code_versions import code_version_of
from gym_pipeline.config import SweepConfig
from gym_pipeline.core.formats import AGENT_METRICS_FILE, REPEAT_LEVEL_METRICS_FILE, REWARD_PROFILE_FILE
from gym_pipeline.core.tables import REWARD_ANALYSIS_FILE
from gym_pipeline.resources.launchers import StageLauncherResource
from gym_pipeline.stages import PartitionOutcome, profile_partition

# Besides the profile rows (the asset's `dagster/column_schema`), the tables whose columns its metadata lists.
PROFILE_TABLES = (REWARD_ANALYSIS_FILE, AGENT_METRICS_FILE, REPEAT_LEVEL_METRICS_FILE)


def build_reward_profile(config: SweepConfig) -> dg.AssetsDefinition:
    @dg.asset(
        name="reward_profile",
        partitions_def=sweep_partitions(config),
        deps=["materialized_inputs", "rollouts"],
        code_version=code_version_of(profile_partition),
        freshness_policy=reward_profile_freshness(config),
        backfill_policy=backfill_policy(config),
        group_name="eval",
        kinds={"python", "jsonl", "parquet"},
        description="Per-task reward statistics exactly as `gym eval profile` writes them, plus pass@k, task "
                    "difficulty, length cut-offs and reward against output length (`*_reward_analysis.parquet`).",
    )
    def reward_profile(context: dg.AssetExecutionContext, profile_launcher: StageLauncherResource) -> dg.MaterializeResult:
        code = context.assets_def.code_versions_by_key[context.asset_key]

        def profile_one(partition: SweepPartition) -> PartitionOutcome:
            outcome = run_stage(
                context, profile_launcher, config, "profile", partition.checkpoint, partition.env, code,
                in_step=lambda: profile_partition(config, partition.checkpoint, partition.env, code, context.log,
                                                  dagster_run_id=context.run.run_id),
            )
            outcome.metadata |= column_schemas(config.run_dir(partition.checkpoint, partition.env),
                                               REWARD_PROFILE_FILE, PROFILE_TABLES)
            return outcome

        return batch_result(context, config, [(p, profile_one(p)) for p in partitions_of(context)])

    return reward_profile
