"""The source dataset of each environment, observed by content fingerprint."""

import dagster as dg

from gym_pipeline.assets.partitions import env_partitions
from gym_pipeline.config import SweepConfig
from gym_pipeline.gym.fingerprint import file_digest

MISSING = "missing"


def build_source_dataset(config: SweepConfig) -> dg.AssetsDefinition:
    @dg.observable_source_asset(
        name="source_dataset",
        partitions_def=env_partitions(config),
        group_name="sources",
        description="The task JSONL of each environment; its data version is a digest of the file's content.",
        tags={"dagster/kind/jsonl": ""},
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
