"""Materialized inputs: the environment's tasks expanded into (task, repeat) rows, as Gym writes them."""

import dagster as dg

from gym_pipeline.assets.batching import SweepPartition, backfill_policy, batch_result, partitions_of
from gym_pipeline.assets.column_schemas import column_schemas
from gym_pipeline.assets.launching import run_stage
from gym_pipeline.assets.partitions import ENV_OF_PARTITION, sweep_partitions
from gym_pipeline.automation import inputs_automation
from gym_pipeline.checks import MATERIALIZE_CODE_VERSION
from gym_pipeline.config import SweepConfig
from gym_pipeline.core.formats import MATERIALIZED_INPUTS_FILE
from gym_pipeline.resources.launchers import StageLauncherResource
from gym_pipeline.stages import PartitionOutcome, materialize_partition


def build_materialized_inputs(config: SweepConfig) -> dg.AssetsDefinition:
    @dg.asset(
        name="materialized_inputs",
        partitions_def=sweep_partitions(config),
        deps=[
            dg.AssetDep("source_dataset", partition_mapping=ENV_OF_PARTITION),
            dg.AssetDep("materialization_settings", partition_mapping=ENV_OF_PARTITION),
        ],
        code_version=MATERIALIZE_CODE_VERSION,
        automation_condition=inputs_automation(config),
        backfill_policy=backfill_policy(config),
        group_name="eval",
        kinds={"python", "jsonl"},
        description="`rollouts_materialized_inputs.jsonl`: repeat expansion, task and rollout indices, agent_ref.",
    )
    def materialized_inputs(context: dg.AssetExecutionContext,
                            materialize_launcher: StageLauncherResource) -> dg.MaterializeResult:
        code = context.assets_def.code_versions_by_key[context.asset_key]

        def materialize_one(partition: SweepPartition) -> PartitionOutcome:
            source = config.environment(partition.env).source
            outcome = run_stage(
                context, materialize_launcher, config, "materialize", partition.checkpoint, partition.env, code,
                in_step=lambda: materialize_partition(config, partition.checkpoint, partition.env, code, context.log,
                                                      dagster_run_id=context.run.run_id),
                read_only_paths=[source.parent],
            )
            outcome.metadata |= column_schemas(config.run_dir(partition.checkpoint, partition.env),
                                               MATERIALIZED_INPUTS_FILE)
            return outcome

        return batch_result(context, config, [(p, materialize_one(p)) for p in partitions_of(context)])

    return materialized_inputs
