"""Reward profile: Gym's `rollouts_reward_profiling.jsonl` and agent / repeat-level metrics."""

import warnings

import dagster as dg

from gym_pipeline.assets.partitions import checkpoint_and_env, sweep_partitions
from gym_pipeline.automation import reward_profile_freshness
from gym_pipeline.config import SweepConfig
from gym_pipeline.gym import profile
from gym_pipeline.gym.fingerprint import code_version, file_digest
from gym_pipeline.gym.formats import MATERIALIZED_INPUTS_FILE, REWARD_PROFILE_FILE, ROLLOUTS_FILE
from gym_pipeline.gym.manifest import record_stage


def build_reward_profile(config: SweepConfig) -> dg.AssetsDefinition:
    @dg.asset(
        name="reward_profile",
        partitions_def=sweep_partitions(config),
        deps=["materialized_inputs", "rollouts"],
        code_version=code_version(profile),
        freshness_policy=reward_profile_freshness(config),
        group_name="eval",
        kinds={"python", "jsonl"},
        description="Per-task reward statistics exactly as `gym eval profile` writes them.",
    )
    def reward_profile(context: dg.AssetExecutionContext) -> dg.MaterializeResult:
        checkpoint, env_name = checkpoint_and_env(context)
        run_dir = config.run_dir(checkpoint, env_name)
        inputs_path, rollouts_path = run_dir / MATERIALIZED_INPUTS_FILE, run_dir / ROLLOUTS_FILE
        # Failed rollouts are reported by the diagnosis; the profile covers what completed.
        with warnings.catch_warnings():  # Gym's statistics warnings go to the run log instead of stderr
            warnings.simplefilter("ignore")
            result = profile.profile_run(inputs_path, rollouts_path, allow_partial=config.allow_partial_profiles)
        paths = profile.write_profile(result, rollouts_path)
        for line in [*result.warnings, *profile.summary_lines(result)]:
            context.log.info(line)
        profile_path = run_dir / REWARD_PROFILE_FILE
        record_stage(
            run_dir,
            "reward_profile",
            {
                "inputs": {"materialized": file_digest(inputs_path), "rollouts": file_digest(rollouts_path)},
                "allow_partial": config.allow_partial_profiles,
                "code_version": context.assets_def.code_versions_by_key[context.asset_key],
                "outputs": {name: str(path) for name, path in paths.items()},
            },
        )
        agent = result.agent_metrics[0] if result.agent_metrics else {}
        return dg.MaterializeResult(
            metadata={
                "path": dg.MetadataValue.path(str(profile_path)),
                "tasks": len(result.task_rows),
                "tasks_dropped": result.tasks_dropped,
                "completed_rollouts": result.completed_rollouts,
                "expected_rollouts": result.expected_rollouts,
                "masked_rollouts": result.masked_rollouts,
                "mean_reward": agent.get("mean/reward"),
            },
            data_version=dg.DataVersion(file_digest(profile_path)),
        )

    return reward_profile
