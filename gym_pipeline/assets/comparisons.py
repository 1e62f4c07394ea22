"""Checkpoint comparison per environment: reward and pass@k by checkpoint, and what changed between them."""

import dagster as dg

from gym_pipeline.assets.partitions import CHECKPOINTS, ENV_OF_PARTITION, env_partitions
from gym_pipeline.automation import COMPARE_WHEN_PROFILES_CHANGE
from gym_pipeline.code_versions import code_version_of
from gym_pipeline.config import SweepConfig
from gym_pipeline.core import compare
from gym_pipeline.core.compare import Comparison
from gym_pipeline.core.fingerprint import file_digest
from gym_pipeline.core.formats import REWARD_PROFILE_FILE, write_json_atomic
from gym_pipeline.core.plots import checkpoint_trend, markdown_image
from gym_pipeline.discovery import natural_key

NO_SIGNIFICANT_REGRESSION = "no_significant_regression"
COMPARISON_FILE = "comparison.json"


def _interval(estimate: compare.Estimate) -> str:
    return f"{estimate.value:.3f} [{estimate.ci_low:.3f}, {estimate.ci_high:.3f}]"


def checkpoints_table(comparison: Comparison) -> str:
    ks = sorted({k for summary in comparison.checkpoints for k in summary.pass_at_k})
    lines = [
        "| checkpoint | tasks | rollouts | mean reward [95% CI] | " + " | ".join(f"pass@{k}" for k in ks) + " |",
        "|---|---|---|---|" + "---|" * len(ks),
    ]
    for summary in comparison.checkpoints:
        passes = " | ".join(_interval(summary.pass_at_k[k]) if k in summary.pass_at_k else "-" for k in ks)
        lines.append(f"| {summary.checkpoint} | {summary.tasks} | {summary.rollouts} | "
                     f"{_interval(summary.mean_reward)} | {passes} |")
    return "\n".join(lines)


def changes_table(comparison: Comparison) -> str:
    lines = ["| from | to | tasks | mean reward change [95% CI] | improved | regressed | McNemar p | regression |",
             "|---|---|---|---|---|---|---|---|"]
    for change in comparison.changes:
        flag = "**significant**" if change.significant_regression else "no"
        lines.append(f"| {change.before} | {change.after} | {change.tasks_compared} | "
                     f"{_interval(change.mean_reward_delta)} | {len(change.improved)} | {len(change.regressed)} | "
                     f"{change.mcnemar_p:.3g} | {flag} |")
    return "\n".join(lines)


def build_checkpoint_comparison(config: SweepConfig) -> dg.AssetsDefinition:
    @dg.asset(
        name="checkpoint_comparison",
        partitions_def=env_partitions(config),
        deps=[dg.AssetDep("reward_profile", partition_mapping=ENV_OF_PARTITION)],
        code_version=code_version_of(compare),
        group_name="comparisons",
        automation_condition=COMPARE_WHEN_PROFILES_CHANGE,
        kinds={"python", "json"},
        description="Per environment: mean reward and pass@k per checkpoint with 95% intervals, per-task paired "
        "changes between consecutive checkpoints (McNemar's exact test), and significant regressions.",
        check_specs=[dg.AssetCheckSpec(NO_SIGNIFICANT_REGRESSION, asset="checkpoint_comparison",
                                       partitions_def=env_partitions(config),
                                       description="Fails when a checkpoint regresses significantly on its "
                                       "predecessor.")],
    )
    def checkpoint_comparison(context: dg.AssetExecutionContext) -> dg.MaterializeResult:
        env = context.partition_key
        checkpoints = sorted(context.instance.get_dynamic_partitions(CHECKPOINTS.name), key=natural_key)
        profiles = [(checkpoint, config.run_dir(checkpoint, env) / REWARD_PROFILE_FILE) for checkpoint in checkpoints]
        profiles = [(checkpoint, path) for checkpoint, path in profiles if path.exists()]
        comparison = compare.compare_checkpoints(env, profiles, alpha=config.regression_alpha)
        output = config.comparison_dir(env) / COMPARISON_FILE
        write_json_atomic(output, comparison.as_dict(), indent=True)
        regressions = [f"{change.before} -> {change.after}: {len(change.regressed)} tasks regressed, "
                       f"{len(change.improved)} improved (McNemar p={change.mcnemar_p:.3g})"
                       + (f"; warning: {change.flakiness_warning}" if change.flakiness_warning else "")
                       for change in comparison.regressions]
        for change in comparison.regressions:
            if change.flakiness_warning:
                context.log.warning(f"{env} {change.before} -> {change.after}: {change.flakiness_warning}")
        return dg.MaterializeResult(
            metadata={
                "path": dg.MetadataValue.path(str(output)),
                "checkpoints": len(comparison.checkpoints),
                "checkpoints_table": dg.MetadataValue.md(checkpoints_table(comparison)),
                "changes_table": dg.MetadataValue.md(changes_table(comparison)),
                "trend": dg.MetadataValue.md(markdown_image(checkpoint_trend(comparison), f"{env} by checkpoint")),
                "significant_regressions": len(regressions),
                "flakiness_warnings": sum(1 for change in comparison.changes if change.flakiness_warning),
            },
            data_version=dg.DataVersion(file_digest(output)),
            check_results=[dg.AssetCheckResult(
                check_name=NO_SIGNIFICANT_REGRESSION,
                passed=not regressions,
                description="; ".join(regressions) if regressions else "no checkpoint regressed significantly",
            )],
        )

    return checkpoint_comparison
