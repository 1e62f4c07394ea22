"""Many partitions in one run: how a backfill avoids paying a run's start-up per partition.

The sweep assets take a backfill policy that hands a run up to `backfill_batch_size`
partitions. Each asset does its work per partition, attaches that partition's metadata
to it, and returns one result. Dagster gives every partition of a run the result's data
version, so a batch's version is a digest of all its partitions' outputs: when any of
them changes, all are marked as possibly changed (never the other way round).
"""

from collections.abc import Iterable
from dataclasses import dataclass, field

import dagster as dg

from gym_pipeline.assets.partitions import CHECKPOINT_DIMENSION, ENV_DIMENSION, sweep_partition_key
from gym_pipeline.config import SweepConfig
from gym_pipeline.gym.fingerprint import value_digest


@dataclass
class PartitionOutcome:
    metadata: dict = field(default_factory=dict)
    digest: str | None = None  # content fingerprint of the partition's output


@dataclass
class SweepPartition:
    key: dg.MultiPartitionKey
    checkpoint: str
    env: str


def backfill_policy(config: SweepConfig) -> dg.BackfillPolicy:
    return dg.BackfillPolicy.multi_run(max_partitions_per_run=config.backfill_batch_size)


def partitions_of(context: dg.AssetExecutionContext | dg.AssetCheckExecutionContext) -> list[SweepPartition]:
    """The (checkpoint, env) partitions this run materializes, checkpoint by checkpoint."""
    partitions = []
    for key in context.partition_keys:
        if not isinstance(key, dg.MultiPartitionKey):
            # A multi-partition key reads "checkpoint|env": Dagster orders dimensions by name.
            checkpoint, env = str(key).split("|")
            key = sweep_partition_key(checkpoint, env)
        dims = key.keys_by_dimension
        partitions.append(SweepPartition(key, dims[CHECKPOINT_DIMENSION], dims[ENV_DIMENSION]))
    return sorted(partitions, key=lambda p: (p.checkpoint, p.env))


def batch_result(context: dg.AssetExecutionContext, config: SweepConfig,
                 outcomes: Iterable[tuple[SweepPartition, PartitionOutcome]],
                 check_results: list[dg.AssetCheckResult] | None = None) -> dg.MaterializeResult:
    """Attach each partition's metadata (and a link to its run directory) to it; return the run's one result."""
    digests = []
    outcomes = list(outcomes)
    for partition, outcome in outcomes:
        run_dir = config.run_dir(partition.checkpoint, partition.env)
        context.add_asset_metadata({"run_dir": dg.MetadataValue.path(str(run_dir)), **outcome.metadata},
                                   partition_key=partition.key)
        digests.append(outcome.digest)
    version = None
    if all(digests):
        version = dg.DataVersion(digests[0] if len(digests) == 1 else value_digest(digests))
    return dg.MaterializeResult(data_version=version, check_results=check_results or None)
