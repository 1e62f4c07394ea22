"""Materialized inputs: the environment's tasks expanded into (task, repeat) rows, as Gym writes them."""

import dagster as dg

from gym_pipeline.assets.partitions import ENV_OF_PARTITION, checkpoint_and_env, sweep_partitions
from gym_pipeline.automation import inputs_automation
from gym_pipeline.config import SweepConfig
from gym_pipeline.gym import materialize
from gym_pipeline.gym.fingerprint import code_version
from gym_pipeline.gym.formats import MATERIALIZED_INPUTS_FILE


def build_materialized_inputs(config: SweepConfig) -> dg.AssetsDefinition:
    @dg.asset(
        name="materialized_inputs",
        partitions_def=sweep_partitions(config),
        deps=[
            dg.AssetDep("source_dataset", partition_mapping=ENV_OF_PARTITION),
            dg.AssetDep("materialization_settings", partition_mapping=ENV_OF_PARTITION),
        ],
        code_version=code_version(materialize),
        automation_condition=inputs_automation(config),
        group_name="eval",
        kinds={"python", "jsonl"},
        description="`rollouts_materialized_inputs.jsonl`: repeat expansion, task and rollout indices, agent_ref.",
    )
    def materialized_inputs(context: dg.AssetExecutionContext) -> dg.MaterializeResult:
        checkpoint, env_name = checkpoint_and_env(context)
        environment_config = config.environment(env_name)
        settings = config.materialization_settings(env_name)
        run_dir = config.run_dir(checkpoint, env_name)
        output = run_dir / MATERIALIZED_INPUTS_FILE
        record = materialize.materialize_and_record(
            environment_config.dataset, output, settings, context.assets_def.code_versions_by_key[context.asset_key]
        )
        rows = record["output"]["rows"]
        context.log.info(f"{output}: {rows} rows ({settings.num_repeats} repeats)")
        return dg.MaterializeResult(
            metadata={
                "path": dg.MetadataValue.path(str(output)),
                "rows": rows,
                "num_repeats": settings.num_repeats,
                "agent": settings.agent,
                "source_digest": record["source"]["digest"],
                "settings_digest": record["settings_digest"],
            },
            data_version=dg.DataVersion(record["output"]["digest"]),
        )

    return materialized_inputs
