"""Many partitions in one run: how a backfill avoids paying a run's start-up per partition.

The sweep assets take a backfill policy that hands a run up to `backfill_batch_size`
partitions. Each asset does its work per partition, attaches that partition's metadata
to it, and returns one result. Dagster gives every partition of a run the result's data
version, so a batch's version is a digest of all its partitions' outputs: when any of
them changes, all are marked as possibly changed (never the other way round).
"""

from collections.abc import Iterable
from dataclasses import dataclass

import dagster as dg

from gym_pipeline.assets.partitions import CHECKPOINT_DIMENSION, ENV_DIMENSION, sweep_partition_key
from gym_pipeline.config import SweepConfig
from gym_pipeline.core.fingerprint import value_digest
from gym_pipeline.core.redaction import redact, redact_value
from gym_pipeline.stages import PartitionOutcome


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


_TYPED_VALUES = {"path": dg.MetadataValue.path, "md": dg.MetadataValue.md, "text": dg.MetadataValue.text}


def dagster_metadata(metadata: dict) -> dict:
    """A stage's metadata (plain values, or Pipes' typed `{"raw_value", "type"}`) as Dagster's values."""
    return {key: _TYPED_VALUES[value["type"]](value["raw_value"])
            if isinstance(value, dict) and value.keys() == {"raw_value", "type"} else value
            for key, value in metadata.items()}


def redacted(metadata: dict) -> dict:
    """Metadata with secrets hidden (an error text quoting a key, a URL with credentials): the UI shows it to all."""
    return {key: _redact_metadata_value(value) for key, value in metadata.items()}


def _redact_metadata_value(value: object) -> object:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dg.TextMetadataValue):
        return dg.MetadataValue.text(redact(value.value))
    if isinstance(value, dg.MarkdownMetadataValue):
        return dg.MetadataValue.md(redact(value.value))
    if isinstance(value, dg.JsonMetadataValue):
        return dg.MetadataValue.json(redact_value(value.value))
    return value  # numbers, paths, tables of numbers


def batch_result(context: dg.AssetExecutionContext, config: SweepConfig,
                 outcomes: Iterable[tuple[SweepPartition, PartitionOutcome]],
                 check_results: list[dg.AssetCheckResult] | None = None) -> dg.MaterializeResult:
    """Attach each partition's metadata (and a link to its run directory) to it; return the run's one result."""
    digests = []
    outcomes = list(outcomes)
    for partition, outcome in outcomes:
        run_dir = config.run_dir(partition.checkpoint, partition.env)
        context.add_asset_metadata({"run_dir": dg.MetadataValue.path(str(run_dir)), **redacted(dagster_metadata(outcome.metadata))},
                                   partition_key=partition.key)
        digests.append(outcome.digest)
    version = None
    if all(digests):
        version = dg.DataVersion(digests[0] if len(digests) == 1 else value_digest(digests))
    return dg.MaterializeResult(data_version=version, check_results=check_results or None)
