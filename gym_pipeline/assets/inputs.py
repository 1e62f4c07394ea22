"""Materialized inputs: the environment's tasks expanded into (task, repeat) rows, as Gym writes them."""

import dagster as dg

from gym_pipeline.assets.partitions import SOURCE_FOR_PARTITION, checkpoint_and_env, sweep_partitions
from gym_pipeline.config import SweepConfig
from gym_pipeline.environments import get_environment
from gym_pipeline.gym import materialize
from gym_pipeline.gym.formats import MATERIALIZED_INPUTS_FILE
from gym_pipeline.gym.fingerprint import code_version, file_digest, value_digest
from gym_pipeline.gym.manifest import record_stage


def build_materialized_inputs(config: SweepConfig) -> dg.AssetsDefinition:
    @dg.asset(
        name="materialized_inputs",
        partitions_def=sweep_partitions(config),
        deps=[dg.AssetDep("source_dataset", partition_mapping=SOURCE_FOR_PARTITION)],
        code_version=code_version(materialize),
        group_name="eval",
        kinds={"python", "jsonl"},
        description="`rollouts_materialized_inputs.jsonl`: repeat expansion, task and rollout indices, agent_ref.",
    )
    def materialized_inputs(context: dg.AssetExecutionContext) -> dg.MaterializeResult:
        checkpoint, env_name = checkpoint_and_env(context)
        environment_config = config.environment(env_name)
        agent = environment_config.agent or get_environment(env_name).agent_name
        run_dir = config.run_dir(checkpoint, env_name)
        output = run_dir / MATERIALIZED_INPUTS_FILE
        settings = {"num_repeats": config.num_repeats, "interleave_repeats": config.interleave_repeats, "agent": agent}
        rows = materialize.materialize_file(
            environment_config.dataset, output, config.num_repeats, agent, config.interleave_repeats
        )
        output_digest = file_digest(output)
        source_digest = file_digest(environment_config.dataset)
        record_stage(
            run_dir,
            "materialized_inputs",
            {
                "source": {"path": str(environment_config.dataset), "digest": source_digest},
                "settings": settings,
                "settings_digest": value_digest(settings),
                "code_version": context.assets_def.code_versions_by_key[context.asset_key],
                "output": {"path": str(output), "digest": output_digest, "rows": rows},
            },
        )
        context.log.info(f"{output}: {rows} rows ({config.num_repeats} repeats)")
        return dg.MaterializeResult(
            metadata={
                "path": dg.MetadataValue.path(str(output)),
                "rows": rows,
                "num_repeats": config.num_repeats,
                "agent": agent,
                "source_digest": source_digest,
            },
            data_version=dg.DataVersion(output_digest),
        )

    return materialized_inputs
