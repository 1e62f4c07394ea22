"""Per-partition status of a workspace's sweep: FRESH, STALE or MISSING, with the stale causes.

Sources are observed first, so the answer reflects the files as they are now.
Dagster reports a stale cause on the asset that directly reads a changed input;
here everything downstream of a stale asset in the same partition is STALE too,
since its numbers were computed from the stale one.
"""

from dataclasses import asdict, dataclass
from pathlib import Path

import dagster as dg

# Staleness is computed by Dagster's own resolver (what the UI shows); it is internal API,
# which the pinned dagster version and tests/test_staleness.py keep honest.
from dagster._core.definitions.data_version import CachingStaleStatusResolver, StaleCause, StaleStatus
from dagster._core.loader import LoadingContext

from gym_pipeline.assets import SWEEP_ASSET_NAMES
from gym_pipeline.assets.partitions import CHECKPOINTS, sweep_partition_key
from gym_pipeline.assets.sources import VERIFIER
from gym_pipeline.config import SweepConfig
from gym_pipeline.observation import observe_sources
from gym_pipeline.sweep import build_definitions, workspace_config
from gym_pipeline.verifiers import verifier_name


@dataclass
class PartitionStatus:
    checkpoint: str
    env: str
    assets: dict[str, str]
    stale_causes: list[str]

    def as_dict(self) -> dict:
        return asdict(self)


class _InstanceLoadingContext(LoadingContext):
    """The loading context the stale-status resolver needs outside a webserver request."""

    def __init__(self, instance: dg.DagsterInstance):
        self._instance = instance
        self._loaders = {}

    @property
    def instance(self) -> dg.DagsterInstance:
        return self._instance

    @property
    def loaders(self) -> dict:
        return self._loaders


def _name(key) -> str:
    return key.asset_key.to_user_string() + (f"[{key.partition_key}]" if key.partition_key else "")


def _describe(cause: StaleCause, config: SweepConfig) -> str:
    text = f"{_name(cause.key)} {cause.reason}"
    if cause.dependency:
        text += f" ({_name(cause.dependency)})"
    if cause.key.asset_key == VERIFIER and cause.key.partition_key:  # say which code: the verifier's name
        text += f": verifier {verifier_name(config, cause.key.partition_key)} changed"
    return text


def sweep_status(home: Path, rehash: bool = False) -> list[PartitionStatus]:
    """`rehash`: hash every source file, not only those whose (device, inode, size, mtime) changed."""
    config = workspace_config(home)
    defs = build_definitions(config)
    with dg.DagsterInstance.from_config(str(home / "dagster")) as instance:
        observe_sources(config, instance, rehash=rehash)
        resolver = CachingStaleStatusResolver(instance, defs.resolve_asset_graph(), _InstanceLoadingContext(instance))
        # One query per asset says which partitions were ever materialized: Dagster's resolver (about 0.15 ms per
        # asset partition) is asked only about those; the others are MISSING.
        materialized = {name: instance.get_materialized_partitions(dg.AssetKey(name)) for name in SWEEP_ASSET_NAMES}
        statuses = []
        for checkpoint in sorted(instance.get_dynamic_partitions(CHECKPOINTS.name)):
            for environment in config.environments:
                key = sweep_partition_key(checkpoint, environment.name)
                assets, causes, stale_upstream = {}, [], None
                for name in SWEEP_ASSET_NAMES:  # in lineage order
                    asset_key = dg.AssetKey(name)
                    status = resolver.get_status(asset_key, key) if str(key) in materialized[name] else StaleStatus.MISSING
                    if status == StaleStatus.STALE:
                        causes += [f"{name}: {_describe(cause, config)}"
                                   for cause in resolver.get_stale_root_causes(asset_key, key)]
                    elif status == StaleStatus.FRESH and stale_upstream:
                        status = StaleStatus.STALE
                        causes.append(f"{name}: computed from stale {stale_upstream}")
                    if status == StaleStatus.STALE and stale_upstream is None:
                        stale_upstream = name
                    assets[name] = status.value
                statuses.append(PartitionStatus(checkpoint, environment.name, assets, list(dict.fromkeys(causes))))
        return statuses
