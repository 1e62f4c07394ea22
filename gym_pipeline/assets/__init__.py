"""Dagster assets of a sweep, one module per stage; `build_assets` wires them for a config."""

import dagster as dg

from gym_pipeline.assets.comparisons import build_checkpoint_comparison
from gym_pipeline.assets.diagnoses import build_diagnostic_report
from gym_pipeline.assets.inputs import build_materialized_inputs
from gym_pipeline.assets.profiles import build_reward_profile
from gym_pipeline.assets.rollouts import build_rollouts
from gym_pipeline.assets.sources import (
    build_materialization_settings,
    build_model_checkpoint,
    build_source_dataset,
    build_verifier,
)
from gym_pipeline.config import SweepConfig

SWEEP_ASSET_NAMES = ("materialized_inputs", "rollouts", "reward_profile", "diagnostic_report")


def build_assets(config: SweepConfig) -> list[dg.AssetsDefinition]:
    return [
        build_source_dataset(config),
        build_materialization_settings(config),
        build_model_checkpoint(config),
        build_verifier(config),
        build_materialized_inputs(config),
        build_rollouts(config),
        build_reward_profile(config),
        build_diagnostic_report(config),
        build_checkpoint_comparison(config),
    ]
