"""Partitions of a sweep: checkpoints (dynamic, added as they appear) x environments (from the config)."""

import warnings

import dagster as dg

from gym_pipeline.config import SweepConfig

# Partitioned observable sources (DataVersionsByPartition), the multi-to-single dimension
# mapping and partitioned asset checks are beta/preview in Dagster 1.13; we rely on them on purpose.
warnings.filterwarnings("ignore", category=dg.BetaWarning)
warnings.filterwarnings("ignore", category=dg.PreviewWarning)

CHECKPOINT_DIMENSION = "checkpoint"
ENV_DIMENSION = "env"
CHECKPOINTS = dg.DynamicPartitionsDefinition(name="checkpoints")


def env_partitions(config: SweepConfig) -> dg.StaticPartitionsDefinition:
    return dg.StaticPartitionsDefinition([environment.name for environment in config.environments])


def sweep_partitions(config: SweepConfig) -> dg.MultiPartitionsDefinition:
    return dg.MultiPartitionsDefinition({CHECKPOINT_DIMENSION: CHECKPOINTS, ENV_DIMENSION: env_partitions(config)})


def sweep_partition_key(checkpoint: str, env: str) -> dg.MultiPartitionKey:
    return dg.MultiPartitionKey({CHECKPOINT_DIMENSION: checkpoint, ENV_DIMENSION: env})


# A run directory reads only its own environment's sources and its own checkpoint.
ENV_OF_PARTITION = dg.MultiToSingleDimensionPartitionMapping(partition_dimension_name=ENV_DIMENSION)
CHECKPOINT_OF_PARTITION = dg.MultiToSingleDimensionPartitionMapping(partition_dimension_name=CHECKPOINT_DIMENSION)
