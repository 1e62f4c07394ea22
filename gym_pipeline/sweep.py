"""Build the Dagster Definitions of a sweep from its config (the code location's wiring)."""

from __future__ import annotations

from pathlib import Path

import dagster as dg

from gym_pipeline.assets import SWEEP_ASSET_NAMES, build_assets
from gym_pipeline.config import SWEEP_CONFIG_FILE, SweepConfig, load_sweep_config
from gym_pipeline.resources.model_server import ModelServerResource

EXAMPLES_DIR = Path(__file__).parent / "examples"
EVAL_SWEEP_JOB = "eval_sweep"
OBSERVE_SOURCES_JOB = "observe_sources"


def workspace_config(home: Path) -> SweepConfig:
    """The workspace's `sweep.yaml`, or the bundled example sweep with its runs kept in the workspace."""
    path = home / SWEEP_CONFIG_FILE
    if path.exists():
        return load_sweep_config(path)
    example = load_sweep_config(EXAMPLES_DIR / SWEEP_CONFIG_FILE)
    return example.model_copy(update={"checkpoints_dir": home / "checkpoints", "runs_dir": home / "runs"})


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
                OBSERVE_SOURCES_JOB,
                selection=dg.AssetSelection.assets("source_dataset"),
                description="Fingerprint every environment's source dataset.",
            ),
        ],
        resources={"model_server": ModelServerResource.from_config(config.model_server)},
    )
