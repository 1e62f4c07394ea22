"""Rollouts: the built-in engine collects one rollout per materialized row against the checkpoint's server."""

import asyncio
import itertools

import dagster as dg

from gym_pipeline.assets.batching import PartitionOutcome, SweepPartition, backfill_policy, batch_result, partitions_of
from gym_pipeline.assets.partitions import CHECKPOINT_OF_PARTITION, sweep_partitions
from gym_pipeline.checks import inputs_report, report_metadata
from gym_pipeline.config import SweepConfig
from gym_pipeline.engines import builtin
from gym_pipeline.engines.builtin import COLLECTING, ROLLOUTS_STAGE, CollectionProgress, CollectorSettings, collect
from gym_pipeline.environments import get_environment
from gym_pipeline.gym.fingerprint import code_version, file_digest
from gym_pipeline.gym.formats import MATERIALIZED_INPUTS_FILE, ROLLOUTS_FILE
from gym_pipeline.gym.manifest import read_manifest
from gym_pipeline.models.servers import Endpoint
from gym_pipeline.resources.model_server import ModelServerResource


def _progress_logger(context: dg.AssetExecutionContext, partition: SweepPartition):
    """Log every tenth of the way, so the UI shows a long collection moving."""
    next_tenth = [1]

    def on_progress(progress: CollectionProgress) -> None:
        if progress.total and progress.done * 10 >= next_tenth[0] * progress.total:
            next_tenth[0] = progress.done * 10 // progress.total + 1
            context.log.info(f"{partition.checkpoint} x {partition.env}: collected {progress.done}/{progress.total} "
                             f"rows ({progress.failed} failed)")

    return on_progress


def _interrupted_on_same_inputs(previous: dict, inputs_digest: str, checkpoint_digest: str | None) -> bool:
    """Resume only a collection that was cut short, on the very same inputs and checkpoint."""
    return (
        previous.get("status") == COLLECTING
        and previous.get("inputs", {}).get("digest") == inputs_digest
        and previous.get("checkpoint", {}).get("digest") == checkpoint_digest
    )


def _collect_one(context: dg.AssetExecutionContext, config: SweepConfig, partition: SweepPartition,
                 endpoint: Endpoint, code: str) -> PartitionOutcome:
    run_dir = config.run_dir(partition.checkpoint, partition.env)
    inputs_path, rollouts_path = run_dir / MATERIALIZED_INPUTS_FILE, run_dir / ROLLOUTS_FILE
    resume = _interrupted_on_same_inputs(
        read_manifest(run_dir).get(ROLLOUTS_STAGE, {}), file_digest(inputs_path), endpoint.checkpoint_digest
    )
    if resume:
        context.log.info(f"{partition.env}: resuming a collection cut short on these same inputs and checkpoint")
    settings = CollectorSettings(
        model_url=endpoint.url,
        model_name=endpoint.model_name,
        concurrency=config.concurrency,
        request_timeout_s=config.request_timeout_s,
        api_key=endpoint.api_key,
    )
    summary = asyncio.run(
        collect(
            inputs_path, rollouts_path, get_environment(partition.env), settings, resume=resume,
            on_progress=_progress_logger(context, partition),
            manifest_extra={
                "checkpoint": {"name": partition.checkpoint, "path": str(config.checkpoint_dir(partition.checkpoint)),
                               "digest": endpoint.checkpoint_digest, "server_pid": endpoint.pid},
                "model_url": endpoint.url,  # what `gym-pipeline diagnose --probe` checks later
                "code_version": code,
            },
        )
    )
    return PartitionOutcome(
        metadata={
            "path": dg.MetadataValue.path(str(rollouts_path)),
            "rollouts": summary.resumed + summary.collected,
            "resumed": summary.resumed,
            "failed": summary.failed,
            "expected": summary.total,
            "elapsed_s": round(summary.elapsed_s, 2),
            "model": endpoint.model_name,
            "checkpoint_digest": endpoint.checkpoint_digest or "",
        },
        digest=file_digest(rollouts_path),
    )


def build_rollouts(config: SweepConfig) -> dg.AssetsDefinition:
    @dg.asset(
        name="rollouts",
        partitions_def=sweep_partitions(config),
        deps=["materialized_inputs", dg.AssetDep("model_checkpoint", partition_mapping=CHECKPOINT_OF_PARTITION)],
        code_version=code_version(builtin),
        backfill_policy=backfill_policy(config),
        group_name="eval",
        kinds={"python", "jsonl"},
        description="`rollouts.jsonl` and the `rollouts_failures.jsonl` sidecar, in NeMo Gym 0.7.0's formats.",
    )
    def rollouts(context: dg.AssetExecutionContext, model_server: ModelServerResource) -> dg.MaterializeResult:
        partitions = partitions_of(context)
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
            log_path = config.run_dir(checkpoint, group[0].env) / "logs" / "model_server.log"
            with model_server.serve(checkpoint, config.checkpoint_dir(checkpoint), log_path) as endpoint:
                context.log.info(f"serving {checkpoint} at {endpoint.url} (model {endpoint.model_name})")
                outcomes += [(p, _collect_one(context, config, p, endpoint, code)) for p in group]
        return batch_result(context, config, outcomes)

    return rollouts
