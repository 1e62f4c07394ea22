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

import dagster as dg
from dagster._core.definitions.data_version import DATA_VERSION_TAG

from gym_pipeline.assets.partitions import CHECKPOINTS
from gym_pipeline.assets.sources import (
    MATERIALIZATION_SETTINGS,
    MODEL_CHECKPOINT,
    SOURCE_DATASET,
    checkpoint_versions,
    dataset_versions,
    recorded_versions,
    settings_versions,
)
from gym_pipeline.checks import inputs_check_evaluation
from gym_pipeline.config import SweepConfig
from gym_pipeline.core.formats import MATERIALIZED_INPUTS_FILE
from gym_pipeline.resources.digest_cache import DigestCacheResource
from gym_pipeline.resources.model_server import ModelServerResource

OBSERVE_SOURCES_SENSOR = "observe_sources"


def build_source_sensor(config: SweepConfig) -> dg.SensorDefinition:
    @dg.sensor(
        name=OBSERVE_SOURCES_SENSOR,
        minimum_interval_seconds=config.observe_interval_s,
        default_status=dg.DefaultSensorStatus.RUNNING if config.observe_sources else dg.DefaultSensorStatus.STOPPED,
        description="Observes datasets, settings and checkpoints; records only changed versions, and checks the "
                    "inputs of environments whose data or settings changed.",
    )
    def observe_sources(context: dg.SensorEvaluationContext, digest_cache: DigestCacheResource,
                        model_server: ModelServerResource) -> dg.SensorResult | dg.SkipReason:
        cache = digest_cache.cache(context.log)
        checkpoints = context.instance.get_dynamic_partitions(CHECKPOINTS.name)
        current = {
            SOURCE_DATASET: dataset_versions(config, cache, context.log),
            MATERIALIZATION_SETTINGS: settings_versions(config),
            MODEL_CHECKPOINT: checkpoint_versions(config, model_server.settings(), checkpoints, cache, context.log),
        }
        events, changed_environments = [], set()
        for key, versions in current.items():
            recorded = recorded_versions(context.instance, key, list(versions))
            for partition, version in versions.items():
                if recorded.get(partition) == version:
                    continue
                events.append(dg.AssetObservation(asset_key=key, partition=partition, tags={DATA_VERSION_TAG: version}))
                if key != MODEL_CHECKPOINT and partition in recorded:  # a change, not a first observation
                    changed_environments.add(partition)
        if not events:
            return dg.SkipReason("no source changed")
        context.log.info("new data versions: " + ", ".join(f"{e.asset_key.to_user_string()}[{e.partition}]"
                                                           for e in events))
        # the blocking check's verdict on every partition of a changed environment that has inputs
        checks = [inputs_check_evaluation(config, checkpoint, env)
                  for env in sorted(changed_environments) for checkpoint in checkpoints
                  if (config.run_dir(checkpoint, env) / MATERIALIZED_INPUTS_FILE).exists()]
        return dg.SensorResult(asset_events=events + checks)

    return observe_sources
