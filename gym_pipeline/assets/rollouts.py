"""Rollouts: the built-in engine collects one rollout per materialized row against the checkpoint's server; in a
`reverify` run (tagged `gym_pipeline/rollouts: reverify`), the stored answers are re-scored instead, with no server."""

import itertools

import dagster as dg

from gym_pipeline.assets.batching import SweepPartition, backfill_policy, batch_result, partitions_of
from gym_pipeline.assets.column_schemas import column_schemas
from gym_pipeline.assets.launching import run_stage
from gym_pipeline.assets.partitions import CHECKPOINT_OF_PARTITION, ENV_OF_PARTITION, sweep_partitions
from gym_pipeline.checks import inputs_report, report_metadata
from gym_pipeline.code_versions import code_version_of
from gym_pipeline.config import SweepConfig
from gym_pipeline.core.formats import FAILURES_FILE, ROLLOUTS_FILE
from gym_pipeline.core.manifest import ROLLOUTS_STAGE, annotate_stage
from gym_pipeline.core.redaction import redact
from gym_pipeline.resources.digest_cache import DigestCacheResource
from gym_pipeline.resources.launchers import StageLauncherResource
from gym_pipeline.resources.model_server import ModelServerResource
from gym_pipeline.serving.servers import Endpoint
from gym_pipeline.stages import PartitionOutcome, collect_partition, reverify_partition

ROLLOUTS_MODE_TAG = "gym_pipeline/rollouts"
REVERIFY = "reverify"
REVERIFY_REPEATS_TAG = "gym_pipeline/reverify_repeats"


def _collect_one(context: dg.AssetExecutionContext, launcher: StageLauncherResource, config: SweepConfig,
                 partition: SweepPartition, endpoint: Endpoint, key_variable: str | None, code: str) -> PartitionOutcome:
    server = ["--model-url", endpoint.url, "--model-name", endpoint.model_name]
    server += ["--checkpoint-digest", endpoint.checkpoint_digest] if endpoint.checkpoint_digest else []
    server += ["--server-pid", str(endpoint.pid)] if endpoint.pid else []
    outcome = run_stage(
        context, launcher, config, "collect", partition.checkpoint, partition.env, code,
        in_step=lambda: collect_partition(config, partition.checkpoint, partition.env, endpoint, code, context.log,
                                          dagster_run_id=context.run.run_id),
        extra_args=server,
        # The key travels in the stage's environment only, never on its command line.
        env_vars={key_variable: endpoint.api_key} if key_variable and endpoint.api_key else None,
    )
    outcome.metadata |= column_schemas(config.run_dir(partition.checkpoint, partition.env), ROLLOUTS_FILE,
                                       [FAILURES_FILE])
    return outcome


def build_rollouts(config: SweepConfig) -> dg.AssetsDefinition:
    @dg.asset(
        name="rollouts",
        partitions_def=sweep_partitions(config),
        deps=["materialized_inputs", dg.AssetDep("model_checkpoint", partition_mapping=CHECKPOINT_OF_PARTITION),
              dg.AssetDep("verifier", partition_mapping=ENV_OF_PARTITION)],
        code_version=code_version_of(collect_partition),
        backfill_policy=backfill_policy(config),
        group_name="eval",
        kinds={"python", "jsonl"},
        description="`rollouts.jsonl` and the `rollouts_failures.jsonl` sidecar, in NeMo Gym 0.7.0's formats, "
                    f"collected by the {config.engine} engine.",
    )
    def rollouts(context: dg.AssetExecutionContext, model_server: ModelServerResource,
                 model_server_launcher: StageLauncherResource, collect_launcher: StageLauncherResource,
                 digest_cache: DigestCacheResource) -> dg.MaterializeResult:
        partitions = partitions_of(context)
        if context.run.tags.get(ROLLOUTS_MODE_TAG) == REVERIFY:
            repeats = int(context.run.tags.get(REVERIFY_REPEATS_TAG, "1"))
            return batch_result(context, config, [
                (partition, reverify_partition(config, partition.checkpoint, partition.env, context.log, repeats,
                                               dagster_run_id=context.run.run_id))
                for partition in partitions])
        for partition in partitions:  # refuse before anything is served or written
            report = inputs_report(config, partition.checkpoint, partition.env)
            if report.stale:
                raise dg.Failure(
                    description=f"refusing to collect on stale inputs ({partition.checkpoint} x {partition.env}): "
                    f"{report.summary()}",
                    metadata=report_metadata(report),
                )
        code = context.assets_def.code_versions_by_key[context.asset_key]
        outcomes = []
        # One model server per checkpoint, shared by that checkpoint's environments in this run.
        for checkpoint, group in itertools.groupby(partitions, key=lambda p: p.checkpoint):
            group = list(group)
            run_dir = config.run_dir(checkpoint, group[0].env)
            with model_server.serve(checkpoint, config.checkpoint_dir(checkpoint), run_dir,
                                    launcher=model_server_launcher, digests=digest_cache.cache(context.log)) as endpoint:
                context.log.info(f"serving {checkpoint} at {redact(endpoint.url)} (model {endpoint.model_name})")
                for partition in group:
                    outcomes.append((partition, _collect_one(context, collect_launcher, config, partition, endpoint,
                                                             model_server.api_key_env, code)))
                    if endpoint.launcher:  # where the server ran: a pid alone says nothing of a container or a job
                        annotate_stage(config.run_dir(checkpoint, partition.env), ROLLOUTS_STAGE,
                                       {"model_server_ran_on": endpoint.launcher})
        return batch_result(context, config, outcomes)

    return rollouts
