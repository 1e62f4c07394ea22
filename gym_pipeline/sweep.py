"""Build the Dagster Definitions of a sweep from its config (the code location's wiring)."""

from __future__ import annotations

import dagster as dg

from gym_pipeline.assets import SWEEP_ASSET_NAMES, build_assets
from gym_pipeline.assets.partitions import sweep_partition_key
from gym_pipeline.assets.rollouts import REVERIFY, REVERIFY_REPEATS_TAG, ROLLOUTS_MODE_TAG
from gym_pipeline.automation import automation_sensor, nightly_schedule
from gym_pipeline.checks import build_checks
from gym_pipeline.config import EXAMPLES_DIR, SweepConfig, workspace_config  # noqa: F401 (re-exported)
from gym_pipeline.observation import build_source_sensor
from gym_pipeline.resources.digest_cache import DigestCacheResource
from gym_pipeline.resources.launchers import launcher_resources
from gym_pipeline.resources.model_server import ModelServerResource
from gym_pipeline.sensors import (
    DIAGNOSE_FAILED_JOB,
    build_checkpoint_sensor,
    build_failure_sensor,
    failed_partition,
    failure_texts,
    write_failure_log,
)

EVAL_SWEEP_JOB = "eval_sweep"
RECOLLECT_JOB = "recollect"
REVERIFY_JOB = "reverify"
COMPARE_JOB = "compare_checkpoints"
OBSERVE_ENVIRONMENTS_JOB = "observe_environments"
OBSERVE_CHECKPOINTS_JOB = "observe_checkpoints"


def build_definitions(config: SweepConfig) -> dg.Definitions:
    eval_sweep = dg.define_asset_job(
        EVAL_SWEEP_JOB,
        selection=dg.AssetSelection.assets(*SWEEP_ASSET_NAMES),
        description="Materialize, collect, profile and diagnose one (checkpoint, environment) partition.",
    )
    recollect = dg.define_asset_job(
        RECOLLECT_JOB,
        selection=dg.AssetSelection.checks_for_assets("materialized_inputs")
        | dg.AssetSelection.assets("rollouts", "reward_profile", "diagnostic_report"),
        description="Collect again on the existing inputs; the blocking inputs check runs first.",
    )
    reverify = dg.define_asset_job(
        REVERIFY_JOB,
        selection=dg.AssetSelection.assets("rollouts", "reward_profile", "diagnostic_report"),
        tags={ROLLOUTS_MODE_TAG: REVERIFY},
        description="Re-score the stored answers with each environment's current verifier (no model server, no "
                    f"collection), then profile and diagnose; the run tag {REVERIFY_REPEATS_TAG}=N verifies each "
                    "answer N times and records the flaky rows.",
    )
    diagnose_failed = dg.define_asset_job(
        DIAGNOSE_FAILED_JOB,
        selection=dg.AssetSelection.assets("diagnostic_report"),
        description="Diagnose a partition whose sweep run failed (requested by the run-failure sensor).",
    )
    return dg.Definitions(
        assets=build_assets(config),
        jobs=[
            eval_sweep,
            recollect,
            reverify,
            diagnose_failed,
            dg.define_asset_job(
                COMPARE_JOB,
                selection=dg.AssetSelection.assets("checkpoint_comparison"),
                description="Compare an environment's checkpoints.",
            ),
            # One observation job per partitioning: a job cannot mix partitions definitions.
            dg.define_asset_job(
                OBSERVE_ENVIRONMENTS_JOB,
                selection=dg.AssetSelection.assets("source_dataset", "materialization_settings", "verifier"),
                description="Fingerprint every environment's dataset, materialization settings and verifier code.",
            ),
            dg.define_asset_job(
                OBSERVE_CHECKPOINTS_JOB,
                selection=dg.AssetSelection.assets("model_checkpoint"),
                description="Fingerprint every checkpoint served.",
            ),
        ],
        asset_checks=build_checks(config),
        sensors=[
            automation_sensor(config),
            build_failure_sensor(config, [eval_sweep, recollect, reverify], diagnose_failed),
            build_checkpoint_sensor(config, eval_sweep),
            build_source_sensor(config),
        ],
        schedules=[schedule] if (schedule := nightly_schedule(config, eval_sweep)) else [],
        # Where each stage runs (sweep.yaml's `launchers`, one resource per stage) and what serves the model.
        resources={"model_server": ModelServerResource.from_config(config.model_server),
                   "digest_cache": DigestCacheResource(store=str(config.digest_cache), rehash=config.rehash_sources),
                   **launcher_resources(config.launchers)},
        # A sweep partition's stages run one after the other: a process per step would only add start-up.
        executor=dg.in_process_executor,
    )


def diagnose_failed_run(defs: dg.Definitions, instance: dg.DagsterInstance, config: SweepConfig,
                        failed: dg.ExecuteInProcessResult, run_config: dict | None = None) -> None:
    """What the run-failure sensor does, for a run executed in this process (the demo, tests)."""
    partition = failed_partition(failed.dagster_run)
    if partition is None:
        return
    write_failure_log(config.run_dir(*partition), failed.run_id, failure_texts(failed.get_step_failure_events()))
    defs.resolve_job_def(DIAGNOSE_FAILED_JOB).execute_in_process(
        instance=instance, partition_key=sweep_partition_key(*partition), run_config=run_config or {}
    )
