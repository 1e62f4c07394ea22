"""Build the Dagster Definitions of a sweep from its config (the code location's wiring)."""

from __future__ import annotations

from pathlib import Path

import dagster as dg

from gym_pipeline.assets import SWEEP_ASSET_NAMES, build_assets
from gym_pipeline.automation import automation_sensor
from gym_pipeline.checks import build_checks
from gym_pipeline.config import SWEEP_CONFIG_FILE, SweepConfig, load_sweep_config
from gym_pipeline.resources.model_server import ModelServerResource

EXAMPLES_DIR = Path(__file__).parent / "examples"
EVAL_SWEEP_JOB = "eval_sweep"
RECOLLECT_JOB = "recollect"
OBSERVE_ENVIRONMENTS_JOB = "observe_environments"
OBSERVE_CHECKPOINTS_JOB = "observe_checkpoints"
OBSERVE_JOBS = (OBSERVE_ENVIRONMENTS_JOB, OBSERVE_CHECKPOINTS_JOB)


def workspace_config(home: Path) -> SweepConfig:
    """The workspace's `sweep.yaml`, or the bundled example sweep with its runs kept in the workspace."""
    path = home / SWEEP_CONFIG_FILE
    if path.exists():
        return load_sweep_config(path)
    example = load_sweep_config(EXAMPLES_DIR / SWEEP_CONFIG_FILE)
    return example.model_copy(update={"checkpoints_dir": home / "checkpoints", "runs_dir": home / "runs"})


def observe_sources(defs: dg.Definitions, instance: dg.DagsterInstance, run_config: dict | None = None) -> None:
    """Record a fresh observation of every source, so staleness reflects the files as they are now."""
    for job in OBSERVE_JOBS:
        defs.resolve_job_def(job).execute_in_process(instance=instance, run_config=run_config or {})


def build_definitions(config: SweepConfig) -> dg.Definitions:
    return dg.Definitions(
        assets=build_assets(config),
        jobs=[
            dg.define_asset_job(
                EVAL_SWEEP_JOB,
                selection=dg.AssetSelection.assets(*SWEEP_ASSET_NAMES),
                description="Materialize, collect, profile and diagnose one (checkpoint, environment) partition.",
            ),
            dg.define_asset_job(
                RECOLLECT_JOB,
                selection=dg.AssetSelection.checks_for_assets("materialized_inputs")
                | dg.AssetSelection.assets("rollouts", "reward_profile", "diagnostic_report"),
                description="Collect again on the existing inputs; the blocking inputs check runs first.",
            ),
            # One observation job per partitioning: a job cannot mix partitions definitions.
            dg.define_asset_job(
                OBSERVE_ENVIRONMENTS_JOB,
                selection=dg.AssetSelection.assets("source_dataset", "materialization_settings"),
                description="Fingerprint every environment's dataset and materialization settings.",
            ),
            dg.define_asset_job(
                OBSERVE_CHECKPOINTS_JOB,
                selection=dg.AssetSelection.assets("model_checkpoint"),
                description="Fingerprint every checkpoint served.",
            ),
        ],
        asset_checks=build_checks(config),
        sensors=[automation_sensor(config)],
        resources={"model_server": ModelServerResource.from_config(config.model_server)},
    )
