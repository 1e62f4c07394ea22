"""Observable sources: everything a run directory depends on that Dagster does not produce.

Each one's data version is a content fingerprint, so a changed dataset, changed
materialization settings or a changed checkpoint marks exactly the partitions
that read it stale, and a file whose mtime alone changed marks nothing.
"""

import urllib.error

import dagster as dg

from gym_pipeline.assets.partitions import CHECKPOINTS, env_partitions
from gym_pipeline.automation import source_observation
from gym_pipeline.config import SweepConfig
from gym_pipeline.core.fingerprint import file_digest, folder_digest, value_digest
from gym_pipeline.resources.model_server import ModelServerResource
from gym_pipeline.serving.servers import endpoint_identity

MISSING = "missing"


def build_source_dataset(config: SweepConfig) -> dg.AssetsDefinition:
    @dg.observable_source_asset(
        name="source_dataset",
        partitions_def=env_partitions(config),
        group_name="sources",
        description="The task JSONL of each environment; its data version is a digest of the file's content.",
        tags={"dagster/kind/jsonl": ""},
        automation_condition=source_observation(config),
    )
    def source_dataset(context: dg.AssetExecutionContext) -> dg.DataVersionsByPartition:
        versions = {}
        for environment in config.environments:
            if environment.dataset.exists():
                versions[environment.name] = dg.DataVersion(file_digest(environment.dataset))
            else:
                context.log.warning(f"{environment.name}: dataset {environment.dataset} not found")
                versions[environment.name] = dg.DataVersion(MISSING)
        return dg.DataVersionsByPartition(versions)

    return source_dataset


def build_materialization_settings(config: SweepConfig) -> dg.AssetsDefinition:
    @dg.observable_source_asset(
        name="materialization_settings",
        partitions_def=env_partitions(config),
        group_name="sources",
        description="Repeats, interleaving, limit, seeds, agent routing (agent_map, fan_out), prompt config (with its "
                    "content) and sampling overrides of each environment, from sweep.yaml.",
        tags={"dagster/kind/yaml": ""},
        automation_condition=source_observation(config),
    )
    def materialization_settings() -> dg.DataVersionsByPartition:
        return dg.DataVersionsByPartition({
            environment.name: dg.DataVersion(config.materialization_settings(environment.name).digest())
            for environment in config.environments
        })

    return materialization_settings


def build_model_checkpoint(config: SweepConfig) -> dg.AssetsDefinition:
    @dg.observable_source_asset(
        name="model_checkpoint",
        partitions_def=CHECKPOINTS,
        group_name="sources",
        description="Each checkpoint served: a digest of its folder's files, or an endpoint's model id and revision.",
        tags={"dagster/kind/model": ""},
        automation_condition=source_observation(config),
    )
    def model_checkpoint(context: dg.AssetExecutionContext,
                         model_server: ModelServerResource) -> dg.DataVersionsByPartition:
        # The server the runs use (the resource, which the launchpad may switch), not the file's default.
        server = model_server.settings()
        versions = {}
        for checkpoint in context.instance.get_dynamic_partitions(CHECKPOINTS.name):
            if server.kind in ("simulated", "vllm"):  # a folder we serve ourselves
                folder = config.checkpoint_dir(checkpoint)
                versions[checkpoint] = dg.DataVersion(folder_digest(folder) if folder.is_dir() else MISSING)
                continue
            try:
                versions[checkpoint] = dg.DataVersion(value_digest(endpoint_identity(server, checkpoint)))
            except (urllib.error.URLError, OSError, ValueError) as error:
                # An endpoint that is down tells nothing about its model: keep the last observation.
                context.log.warning(f"{checkpoint}: endpoint not observed ({error})")
        return dg.DataVersionsByPartition(versions)

    return model_checkpoint
