"""Observable sources: everything a run directory depends on that Dagster does not produce.

Each one's data version is a content fingerprint, so a changed dataset, changed
materialization settings or a changed checkpoint marks exactly the partitions
that read it stale, and a file whose mtime alone changed marks nothing.

Looking stays cheap: files are hashed again only when their identity (device, inode,
size, mtime) changed (`DigestCacheResource`), and an observation records a data version
only for the partitions whose version changed or was never recorded, so observing often
does not grow the instance. The `observe_sources` sensor (observation.py) computes the same
versions every minute; the observe jobs and `gym-pipeline status` run these assets.
"""

import logging
import urllib.error
from collections.abc import Iterable

import dagster as dg
from dagster._core.definitions.data_version import DATA_VERSION_TAG
from dagster._core.events import DagsterEventType

from gym_pipeline.assets.partitions import CHECKPOINTS, env_partitions
from gym_pipeline.config import ModelServerConfig, SweepConfig
from gym_pipeline.core.digest_cache import DigestCache
from gym_pipeline.core.fingerprint import value_digest
from gym_pipeline.resources.digest_cache import DigestCacheResource
from gym_pipeline.resources.model_server import ModelServerResource
from gym_pipeline.serving.servers import endpoint_identity
from gym_pipeline.verifiers import verifier_name, verifier_versions

MISSING = "missing"
SOURCE_DATASET = dg.AssetKey("source_dataset")
MATERIALIZATION_SETTINGS = dg.AssetKey("materialization_settings")
MODEL_CHECKPOINT = dg.AssetKey("model_checkpoint")
VERIFIER = dg.AssetKey("verifier")


def dataset_versions(config: SweepConfig, cache: DigestCache, log: logging.Logger) -> dict[str, str]:
    versions = {}
    for environment in config.environments:
        if environment.tasks and environment.tasks.is_dir():  # every file of the taskset, dataset.toml included
            versions[environment.name] = cache.folder_digest(environment.tasks)
        elif environment.dataset and environment.dataset.exists():
            versions[environment.name] = cache.file_digest(environment.dataset)
        else:
            log.warning(f"{environment.name}: {'taskset' if environment.tasks else 'dataset'} "
                        f"{environment.source} not found")
            versions[environment.name] = MISSING
    return versions


def settings_versions(config: SweepConfig) -> dict[str, str]:
    return {environment.name: config.materialization_settings(environment.name).digest()
            for environment in config.environments}


def checkpoint_versions(config: SweepConfig, server: ModelServerConfig, checkpoints: Iterable[str],
                        cache: DigestCache, log: logging.Logger) -> dict[str, str]:
    """A folder we serve: its digest; an endpoint: the model it lists (unreachable: left out, nothing learned)."""
    versions = {}
    for checkpoint in checkpoints:
        if server.kind in ("simulated", "vllm"):
            folder = config.checkpoint_dir(checkpoint)
            versions[checkpoint] = cache.folder_digest(folder) if folder.is_dir() else MISSING
            continue
        try:
            versions[checkpoint] = value_digest(endpoint_identity(server, checkpoint))
        except (urllib.error.URLError, OSError, ValueError) as error:
            log.warning(f"{checkpoint}: endpoint not observed ({error})")
    return versions


def recorded_versions(instance: dg.DagsterInstance, key: dg.AssetKey, partitions: list[str]) -> dict[str, str]:
    """The latest data version recorded for each partition, in one query (the tag is indexed)."""
    tags = instance.event_log_storage.get_latest_tags_by_partition(
        key, DagsterEventType.ASSET_OBSERVATION, [DATA_VERSION_TAG], asset_partitions=partitions)
    return {partition: values[DATA_VERSION_TAG] for partition, values in tags.items() if DATA_VERSION_TAG in values}


def changed_versions(context: dg.AssetExecutionContext, versions: dict[str, str]) -> dg.DataVersionsByPartition:
    """The partitions whose version differs from the last one recorded (or that have none yet)."""
    recorded = recorded_versions(context.instance, context.asset_key, list(versions))
    changed = {partition: dg.DataVersion(version) for partition, version in versions.items()
               if recorded.get(partition) != version}
    if len(changed) < len(versions):
        context.log.info(f"{len(versions) - len(changed)} of {len(versions)} partitions unchanged: not recorded again")
    return dg.DataVersionsByPartition(changed)


def build_source_dataset(config: SweepConfig) -> dg.AssetsDefinition:
    @dg.observable_source_asset(
        key=SOURCE_DATASET,
        partitions_def=env_partitions(config),
        group_name="sources",
        description="The task JSONL (or the taskset folder) of each environment; its data version is a digest of its "
                    "content.",
        tags={"dagster/kind/jsonl": ""},
    )
    def source_dataset(context: dg.AssetExecutionContext,
                       digest_cache: DigestCacheResource) -> dg.DataVersionsByPartition:
        return changed_versions(context, dataset_versions(config, digest_cache.cache(context.log), context.log))

    return source_dataset


def build_materialization_settings(config: SweepConfig) -> dg.AssetsDefinition:
    @dg.observable_source_asset(
        key=MATERIALIZATION_SETTINGS,
        partitions_def=env_partitions(config),
        group_name="sources",
        description="Repeats, interleaving, limit, seeds, agent routing (agent_map, fan_out), prompt config (with its "
                    "content) and sampling overrides of each environment, from sweep.yaml.",
        tags={"dagster/kind/yaml": ""},
    )
    def materialization_settings(context: dg.AssetExecutionContext) -> dg.DataVersionsByPartition:
        return changed_versions(context, settings_versions(config))

    return materialization_settings


def build_model_checkpoint(config: SweepConfig) -> dg.AssetsDefinition:
    @dg.observable_source_asset(
        key=MODEL_CHECKPOINT,
        partitions_def=CHECKPOINTS,
        group_name="sources",
        description="Each checkpoint served: a digest of its folder's files, or an endpoint's model id and revision.",
        tags={"dagster/kind/model": ""},
    )
    def model_checkpoint(context: dg.AssetExecutionContext, model_server: ModelServerResource,
                         digest_cache: DigestCacheResource) -> dg.DataVersionsByPartition:
        # The server the runs use (the resource, which the launchpad may switch), not the file's default.
        checkpoints = context.instance.get_dynamic_partitions(CHECKPOINTS.name)
        return changed_versions(context, checkpoint_versions(config, model_server.settings(), checkpoints,
                                                             digest_cache.cache(context.log), context.log))

    return model_checkpoint


def build_verifier(config: SweepConfig) -> dg.AssetsDefinition:
    names = ", ".join(f"{environment.name}: {verifier_name(config, environment.name)}"
                      for environment in config.environments)
    @dg.observable_source_asset(
        key=VERIFIER,
        partitions_def=env_partitions(config),
        group_name="sources",
        description="The code that scores each environment's answers (its module and the project or workspace "
                    f"modules it imports, as parsed code); a new version marks only that environment's rollouts "
                    f"stale, and `reverify` re-scores them without collecting again. Verifiers: {names}.",
        tags={"dagster/kind/python": ""},
    )
    def verifier(context: dg.AssetExecutionContext) -> dg.DataVersionsByPartition:
        return changed_versions(context, verifier_versions(config))

    return verifier
