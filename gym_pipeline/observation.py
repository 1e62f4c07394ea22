"""Sources observed on their own, so the UI's lineage tells the truth without anyone running a job.

The `observe_sources` sensor runs every `observe_interval_s` (60 s by default; `observe_sources: false` in
sweep.yaml starts it stopped). Each tick computes every source's data version the way the observable
assets do (digests reused while a file's identity holds, so a tick costs a few `stat` calls), records an
observation only for the partitions whose version changed or was never recorded (runless events: no run
per tick), and, when a dataset or an environment's settings changed, evaluates the blocking
`inputs_match_source` check on that environment's partitions that have inputs and records its verdicts
(also without a run), so the graph shows them failing instead of green.
"""

from __future__ import annotations

import logging

import dagster as dg
from dagster._core.definitions.data_version import DATA_VERSION_TAG

from gym_pipeline.assets.partitions import CHECKPOINTS
from gym_pipeline.assets.sources import (
    MATERIALIZATION_SETTINGS,
    MODEL_CHECKPOINT,
    SOURCE_DATASET,
    VERIFIER,
    checkpoint_versions,
    dataset_versions,
    recorded_versions,
    settings_versions,
)
from gym_pipeline.checks import inputs_check_evaluation
from gym_pipeline.config import ModelServerConfig, SweepConfig
from gym_pipeline.core.digest_cache import DigestCache
from gym_pipeline.core.formats import MATERIALIZED_INPUTS_FILE
from gym_pipeline.resources.digest_cache import DigestCacheResource
from gym_pipeline.resources.model_server import ModelServerResource
from gym_pipeline.verifiers import verifier_versions

OBSERVE_SOURCES_SENSOR = "observe_sources"
_LOG = logging.getLogger(__name__)


def changed_sources(config: SweepConfig, instance: dg.DagsterInstance, cache: DigestCache,
                    server: ModelServerConfig, log: logging.Logger) -> tuple[list[dg.AssetObservation], set[str]]:
    """Observations of the sources (datasets, settings, checkpoints, verifiers) whose version changed or was never
    recorded, and the environments whose data or settings changed (not merely first seen)."""
    checkpoints = instance.get_dynamic_partitions(CHECKPOINTS.name)
    current = {
        SOURCE_DATASET: dataset_versions(config, cache, log),
        MATERIALIZATION_SETTINGS: settings_versions(config),
        MODEL_CHECKPOINT: checkpoint_versions(config, server, checkpoints, cache, log),
        VERIFIER: verifier_versions(config),
    }
    events, changed_environments = [], set()
    for key, versions in current.items():
        recorded = recorded_versions(instance, key, list(versions))
        for partition, version in versions.items():
            if recorded.get(partition) == version:
                continue
            events.append(dg.AssetObservation(asset_key=key, partition=partition, tags={DATA_VERSION_TAG: version}))
            # what the inputs are built from changed, not merely first seen
            if key in (SOURCE_DATASET, MATERIALIZATION_SETTINGS) and partition in recorded:
                changed_environments.add(partition)
    return events, changed_environments


def observe_sources(config: SweepConfig, instance: dg.DagsterInstance, rehash: bool = False,
                    log: logging.Logger | None = None) -> None:
    """Record what changed in the sources now, without a run, so staleness reflects the files as they are."""
    cache = DigestCache(config.digest_cache, rehash=rehash or config.rehash_sources,
                        progress=log.info if log is not None else None)
    events, _ = changed_sources(config, instance, cache, config.model_server, log or _LOG)
    for event in events:
        instance.report_runless_asset_event(event)


def build_source_sensor(config: SweepConfig) -> dg.SensorDefinition:
    @dg.sensor(
        name=OBSERVE_SOURCES_SENSOR,
        minimum_interval_seconds=config.observe_interval_s,
        default_status=dg.DefaultSensorStatus.RUNNING if config.observe_sources else dg.DefaultSensorStatus.STOPPED,
        description="Observes datasets, settings, checkpoints and verifiers; records only changed versions, and checks the "
                    "inputs of environments whose data or settings changed.",
    )
    def observe_sources(context: dg.SensorEvaluationContext, digest_cache: DigestCacheResource,
                        model_server: ModelServerResource) -> dg.SensorResult | dg.SkipReason:
        events, changed_environments = changed_sources(config, context.instance, digest_cache.cache(context.log),
                                                       model_server.settings(), context.log)
        if not events:
            return dg.SkipReason("no source changed")
        context.log.info("new data versions: " + ", ".join(f"{e.asset_key.to_user_string()}[{e.partition}]"
                                                           for e in events))
        # the blocking check's verdict on every partition of a changed environment that has inputs
        checks = [inputs_check_evaluation(config, checkpoint, env)
                  for env in sorted(changed_environments)
                  for checkpoint in context.instance.get_dynamic_partitions(CHECKPOINTS.name)
                  if (config.run_dir(checkpoint, env) / MATERIALIZED_INPUTS_FILE).exists()]
        return dg.SensorResult(asset_events=events + checks)

    return observe_sources
