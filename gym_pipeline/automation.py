"""Automation of a sweep: freshness of reward profiles and the opt-in rebuild of stale inputs."""

from datetime import timedelta

import dagster as dg

from gym_pipeline.assets.partitions import CHECKPOINTS, sweep_partition_key
from gym_pipeline.config import SweepConfig
from gym_pipeline.discovery import discover_checkpoints

AUTOMATION_SENSOR = "gym_pipeline_automation"
NIGHTLY_SCHEDULE = "nightly_sweep"

# Rebuild inputs that exist when a source they read (data, settings) has a new data version.
# Missing partitions are left to sweeps and backfills: this only keeps built inputs current.
REBUILD_WHEN_SOURCES_CHANGE = (
    dg.AutomationCondition.any_deps_updated().since_last_handled()
    & ~dg.AutomationCondition.missing()
    & ~dg.AutomationCondition.any_deps_in_progress()
    & ~dg.AutomationCondition.in_progress()
).with_label("rebuild when the source data or settings change")


# A comparison follows its profiles: computed when missing, recomputed when any checkpoint's profile changes.
COMPARE_WHEN_PROFILES_CHANGE = (
    (dg.AutomationCondition.newly_missing() | dg.AutomationCondition.any_deps_updated()).since_last_handled()
    & ~dg.AutomationCondition.any_deps_in_progress()
    & ~dg.AutomationCondition.in_progress()
).with_label("compare again when a checkpoint's reward profile changes")


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


def automation_sensor(config: SweepConfig) -> dg.AutomationConditionSensorDefinition:
    """Declared explicitly and running: the implicit one is created stopped."""
    return dg.AutomationConditionSensorDefinition(
        AUTOMATION_SENSOR,
        target=dg.AssetSelection.all(),
        default_status=dg.DefaultSensorStatus.RUNNING,
        minimum_interval_seconds=30,
        description="Evaluates the sweep's automation conditions: checkpoint comparisons follow their profiles; "
        "with auto_rebuild_inputs, inputs whose source changed are rebuilt.",
    )


def nightly_schedule(config: SweepConfig, sweep_job) -> dg.ScheduleDefinition | None:
    """The latest checkpoint, swept on every environment on `nightly_cron`."""
    if config.nightly_cron is None:
        return None

    def latest_checkpoint_on_every_environment(context: dg.ScheduleEvaluationContext):
        checkpoints = [c for c in discover_checkpoints(config)
                       if c in set(context.instance.get_dynamic_partitions(CHECKPOINTS.name))]
        if not checkpoints:
            yield dg.SkipReason("no checkpoint registered yet")
            return
        latest, tick = checkpoints[-1], context.scheduled_execution_time.isoformat()
        for environment in config.environments:
            yield dg.RunRequest(run_key=f"{tick}|{latest}|{environment.name}",
                                partition_key=sweep_partition_key(latest, environment.name))

    return dg.ScheduleDefinition(
        name=NIGHTLY_SCHEDULE,
        cron_schedule=config.nightly_cron,
        job=sweep_job,
        execution_fn=latest_checkpoint_on_every_environment,
        default_status=dg.DefaultScheduleStatus.RUNNING,
        description="Sweeps the latest registered checkpoint on every environment.",
    )
