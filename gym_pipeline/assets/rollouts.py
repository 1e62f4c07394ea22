"""Rollouts: the built-in engine collects one rollout per materialized row against the checkpoint's server."""

import asyncio

import dagster as dg

from gym_pipeline.assets.partitions import checkpoint_and_env, sweep_partitions
from gym_pipeline.config import SweepConfig
from gym_pipeline.engines import builtin
from gym_pipeline.engines.builtin import CollectionProgress, CollectorSettings, collect
from gym_pipeline.environments import get_environment
from gym_pipeline.gym.formats import MATERIALIZED_INPUTS_FILE, ROLLOUTS_FILE
from gym_pipeline.gym.fingerprint import code_version, file_digest
from gym_pipeline.gym.manifest import record_stage
from gym_pipeline.resources.model_server import ModelServerResource


def _progress_logger(context: dg.AssetExecutionContext):
    """Log every tenth of the way, so the UI shows a long collection moving."""
    next_tenth = [1]

    def on_progress(progress: CollectionProgress) -> None:
        if progress.total and progress.done * 10 >= next_tenth[0] * progress.total:
            next_tenth[0] = progress.done * 10 // progress.total + 1
            context.log.info(f"collected {progress.done}/{progress.total} rows ({progress.failed} failed)")

    return on_progress


def build_rollouts(config: SweepConfig) -> dg.AssetsDefinition:
    @dg.asset(
        name="rollouts",
        partitions_def=sweep_partitions(config),
        deps=["materialized_inputs"],
        code_version=code_version(builtin),
        group_name="eval",
        kinds={"python", "jsonl"},
        description="`rollouts.jsonl` and the `rollouts_failures.jsonl` sidecar, in NeMo Gym 0.7.0's formats.",
    )
    def rollouts(context: dg.AssetExecutionContext, model_server: ModelServerResource) -> dg.MaterializeResult:
        checkpoint, env_name = checkpoint_and_env(context)
        run_dir = config.run_dir(checkpoint, env_name)
        inputs_path, rollouts_path = run_dir / MATERIALIZED_INPUTS_FILE, run_dir / ROLLOUTS_FILE
        checkpoint_dir = config.checkpoint_dir(checkpoint)
        with model_server.serve(checkpoint, checkpoint_dir, run_dir / "logs" / "model_server.log") as endpoint:
            context.log.info(f"serving {checkpoint} at {endpoint.url} (model {endpoint.model_name})")
            settings = CollectorSettings(
                model_url=endpoint.url,
                model_name=endpoint.model_name,
                concurrency=config.concurrency,
                request_timeout_s=config.request_timeout_s,
                api_key=endpoint.api_key,
            )
            summary = asyncio.run(
                collect(inputs_path, rollouts_path, get_environment(env_name), settings,
                        on_progress=_progress_logger(context))
            )
        record_stage(
            run_dir,
            "rollouts",
            {
                "inputs": {"path": str(inputs_path), "digest": file_digest(inputs_path)},
                "checkpoint": {"name": checkpoint, "path": str(checkpoint_dir), "digest": endpoint.checkpoint_digest,
                               "model": endpoint.model_name, "server_pid": endpoint.pid},
                "engine": "builtin",
                "code_version": context.assets_def.code_versions_by_key[context.asset_key],
                "output": {"path": str(rollouts_path), "rows": summary.collected, "failed": summary.failed},
            },
        )
        return dg.MaterializeResult(
            metadata={
                "path": dg.MetadataValue.path(str(rollouts_path)),
                "rollouts": summary.collected,
                "failed": summary.failed,
                "expected": summary.total,
                "elapsed_s": round(summary.elapsed_s, 2),
                "model": endpoint.model_name,
                "checkpoint_digest": endpoint.checkpoint_digest or "",
            },
            data_version=dg.DataVersion(file_digest(rollouts_path)),
        )

    return rollouts
