"""Materialized inputs: the environment's tasks expanded into (task, repeat) rows, as Gym writes them."""

import dagster as dg

from gym_pipeline.assets.batching import PartitionOutcome, SweepPartition, backfill_policy, batch_result, partitions_of
from gym_pipeline.assets.partitions import ENV_OF_PARTITION, sweep_partitions
from gym_pipeline.automation import inputs_automation
from gym_pipeline.checks import MATERIALIZE_CODE_VERSION
from gym_pipeline.config import SweepConfig
from gym_pipeline.gym import materialize
from gym_pipeline.gym.formats import MATERIALIZED_INPUTS_FILE


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
    def materialized_inputs(context: dg.AssetExecutionContext) -> dg.MaterializeResult:
        code = context.assets_def.code_versions_by_key[context.asset_key]

        def materialize_one(partition: SweepPartition) -> PartitionOutcome:
            settings = config.materialization_settings(partition.env)
            output = config.run_dir(partition.checkpoint, partition.env) / MATERIALIZED_INPUTS_FILE
            record = materialize.materialize_and_record(config.environment(partition.env).dataset, output, settings,
                                                        code)
            rows = record["output"]["rows"]
            context.log.info(f"{output}: {rows} rows ({settings.num_repeats} repeats)")
            return PartitionOutcome(
                metadata={
                    "path": dg.MetadataValue.path(str(output)),
                    "rows": rows,
                    "num_repeats": settings.num_repeats,
                    "agent": settings.agent,
                    "source_digest": record["source"]["digest"],
                    "settings_digest": record["settings_digest"],
                },
                digest=record["output"]["digest"],
            )

        return batch_result(context, config, [(p, materialize_one(p)) for p in partitions_of(context)])

    return materialized_inputs
