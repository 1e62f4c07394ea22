"""Reward profile: Gym's `rollouts_reward_profiling.jsonl`, agent / repeat-level metrics, and our reward analysis."""

import warnings
from pathlib import Path
from typing import Any

import dagster as dg

from gym_pipeline.assets.batching import PartitionOutcome, SweepPartition, backfill_policy, batch_result, partitions_of
from gym_pipeline.assets.partitions import sweep_partitions
from gym_pipeline.automation import reward_profile_freshness
from gym_pipeline.config import SweepConfig
from gym_pipeline.gym import plots, profile, reward_analysis
from gym_pipeline.gym.fingerprint import code_version, file_digest
from gym_pipeline.gym.formats import MATERIALIZED_INPUTS_FILE, REWARD_PROFILE_FILE, ROLLOUTS_FILE
from gym_pipeline.gym.manifest import record_stage


def _number(value: float | None, digits: int = 3) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def summary_markdown(result: profile.ProfileResult) -> str:
    """The run at a glance: completion, reward, pass@k, difficulty, cut-offs, reward against length."""
    summary = result.analysis.summary
    difficulty = summary["difficulty"]
    cut = summary["cut_off"]
    length = summary["reward_vs_output_tokens"]
    rows = [
        ("completion", f"{result.completed_rollouts:,} / {result.expected_rollouts:,} rollouts "
                       f"({result.completion_pct:.2f}%)"),
        ("tasks profiled", f"{summary['tasks']:,} ({result.tasks_dropped:,} without rollouts dropped)"),
        ("masked rollouts", f"{result.masked_rollouts:,} (left out of every statistic)"),
        ("mean reward", _number(summary["mean_reward"])),
        *((f"pass@{k} (reward >= {result.analysis.threshold:g})",
           f"{_number(entry['mean'])} over {entry['tasks']:,} tasks") for k, entry in summary["pass_at_k"].items()),
        ("tasks never / sometimes / always solved",
         f"{difficulty['never']:,} / {difficulty['sometimes']:,} / {difficulty['always']:,}"),
        ("cut off by the length limit",
         "n/a" if cut["share"] is None else f"{100 * cut['share']:.2f}% ({cut['rollouts']:,} rollouts)"),
        ("reward vs output tokens", f"Pearson {_number(length['pearson'])}, Spearman {_number(length['spearman'])} "
                                    f"({length['rollouts']:,} rollouts)"),
    ]
    return "\n".join(["| | |", "|---|---|", *(f"| {name} | {value} |" for name, value in rows)])


def profile_metadata(result: profile.ProfileResult, paths: dict[str, Path]) -> dict[str, Any]:
    """The asset's metadata: counts, the summary table, two plots, and where the outputs are."""
    analysis = result.analysis
    agent = result.agent_metrics[0] if result.agent_metrics else {}
    return {
        "path": dg.MetadataValue.path(str(paths["reward_profiling"])),
        "reward_analysis": dg.MetadataValue.path(str(paths["reward_analysis"])),
        "summary": dg.MetadataValue.md(summary_markdown(result)),
        "task_reward_histogram": dg.MetadataValue.md(
            plots.markdown_image(plots.task_reward_histogram(analysis), "per-task mean reward")),
        "reward_vs_output_length": dg.MetadataValue.md(
            plots.markdown_image(plots.reward_vs_output_length(analysis), "reward against output length")),
        "tasks": len(result.task_rows),
        "tasks_dropped": result.tasks_dropped,
        "completed_rollouts": result.completed_rollouts,
        "expected_rollouts": result.expected_rollouts,
        "masked_rollouts": result.masked_rollouts,
        "mean_reward": agent.get("mean/reward"),
        "pass@1": analysis.summary["pass_at_k"].get("1", {}).get("mean"),
        "cut_off_share": analysis.summary["cut_off"]["share"],
    }


def build_reward_profile(config: SweepConfig) -> dg.AssetsDefinition:
    @dg.asset(
        name="reward_profile",
        partitions_def=sweep_partitions(config),
        deps=["materialized_inputs", "rollouts"],
        code_version=code_version(profile, reward_analysis),
        freshness_policy=reward_profile_freshness(config),
        backfill_policy=backfill_policy(config),
        group_name="eval",
        kinds={"python", "jsonl", "parquet"},
        description="Per-task reward statistics exactly as `gym eval profile` writes them, plus pass@k, task "
                    "difficulty, length cut-offs and reward against output length (`*_reward_analysis.parquet`).",
    )
    def reward_profile(context: dg.AssetExecutionContext) -> dg.MaterializeResult:
        code = context.assets_def.code_versions_by_key[context.asset_key]

        def profile_one(partition: SweepPartition) -> PartitionOutcome:
            run_dir = config.run_dir(partition.checkpoint, partition.env)
            inputs_path, rollouts_path = run_dir / MATERIALIZED_INPUTS_FILE, run_dir / ROLLOUTS_FILE
            # Failed rollouts are reported by the diagnosis; the profile covers what completed.
            with warnings.catch_warnings():  # Gym's statistics warnings go to the run log instead of stderr
                warnings.simplefilter("ignore")
                result = profile.profile_run(inputs_path, rollouts_path, allow_partial=config.allow_partial_profiles)
            paths = profile.write_profile(result, rollouts_path)
            for line in [*result.warnings, *profile.summary_lines(result),
                         *reward_analysis.summary_lines(result.analysis)]:
                context.log.info(f"{partition.checkpoint} x {partition.env}: {line}")
            record_stage(
                run_dir,
                "reward_profile",
                {
                    "inputs": {"materialized": file_digest(inputs_path), "rollouts": file_digest(rollouts_path)},
                    "allow_partial": config.allow_partial_profiles,
                    "code_version": code,
                    "outputs": {name: str(path) for name, path in paths.items()},
                },
            )
            return PartitionOutcome(profile_metadata(result, paths), file_digest(run_dir / REWARD_PROFILE_FILE))

        return batch_result(context, config, [(p, profile_one(p)) for p in partitions_of(context)])

    return reward_profile
