"""Automation of a sweep: freshness of reward profiles and the opt-in rebuild of stale inputs."""

from datetime import timedelta

import dagster as dg

from gym_pipeline.config import SweepConfig

AUTOMATION_SENSOR = "gym_pipeline_automation"

# Rebuild inputs that exist when a source they read (data, settings) has a new data version.
# Missing partitions are left to sweeps and backfills: this only keeps built inputs current.
REBUILD_WHEN_SOURCES_CHANGE = (
    dg.AutomationCondition.any_deps_updated().since_last_handled()
    & ~dg.AutomationCondition.missing()
    & ~dg.AutomationCondition.any_deps_in_progress()
    & ~dg.AutomationCondition.in_progress()
).with_label("rebuild when the source data or settings change")


def reward_profile_freshness(config: SweepConfig) -> dg.FreshnessPolicy | None:
    policy = config.reward_profile_freshness
    if policy is None:
        return None
    return dg.FreshnessPolicy.time_window(
        fail_window=timedelta(hours=policy.fail_hours),
        warn_window=timedelta(hours=policy.warn_hours) if policy.warn_hours else None,
    )


def inputs_automation(config: SweepConfig) -> dg.AutomationCondition | None:
    return REBUILD_WHEN_SOURCES_CHANGE if config.auto_rebuild_inputs else None


def source_observation(config: SweepConfig) -> dg.AutomationCondition | None:
    """With the opt-in rebuild, the sources are observed on a cron so their changes are noticed."""
    if not config.auto_rebuild_inputs:
        return None
    return dg.AutomationCondition.cron_tick_passed(config.observe_cron) & ~dg.AutomationCondition.in_progress()


def automation_sensor(config: SweepConfig) -> dg.AutomationConditionSensorDefinition:
    """Declared explicitly: the implicit one is created stopped."""
    return dg.AutomationConditionSensorDefinition(
        AUTOMATION_SENSOR,
        target=dg.AssetSelection.all(),
        default_status=(
            dg.DefaultSensorStatus.RUNNING if config.auto_rebuild_inputs else dg.DefaultSensorStatus.STOPPED
        ),
        minimum_interval_seconds=30,
        description="Evaluates the sweep's automation conditions (source observation and input rebuilds).",
    )
