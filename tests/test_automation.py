"""Sweeps without anyone asking: new checkpoints are discovered, the latest is swept nightly."""

import datetime

import dagster as dg
import pytest
import yaml

from gym_pipeline.assets.partitions import CHECKPOINTS, sweep_partition_key
from gym_pipeline.automation import NIGHTLY_SCHEDULE
from gym_pipeline.backfill import RANGE_END_TAG, RANGE_START_TAG
from gym_pipeline.discovery import discover_checkpoints, natural_key
from gym_pipeline.sensors import NEW_CHECKPOINTS_SENSOR
from gym_pipeline.serving.checkpoints import demo_checkpoints
from gym_pipeline.sweep import build_definitions, workspace_config

ENVS = ("string_match", "mcqa")


@pytest.fixture
def workspace(tmp_path):
    home = tmp_path / "home"
    demo_checkpoints(home / "checkpoints", 1, list(ENVS))
    (tmp_path / "dagster").mkdir()
    instance = dg.DagsterInstance.local_temp(str(tmp_path / "dagster"))
    instance.add_dynamic_partitions(CHECKPOINTS.name, ["step_0100"])
    yield home, instance
    instance.dispose()


def _defs(home):
    return build_definitions(workspace_config(home))


def _sensor(home, instance):
    return _defs(home).resolve_sensor_def(NEW_CHECKPOINTS_SENSOR)(dg.build_sensor_context(instance=instance))


def test_natural_order_puts_step_900_before_step_1000():
    assert sorted(["step_1000", "step_900", "step_0100"], key=natural_key) == ["step_0100", "step_900", "step_1000"]


def test_sensor_skips_when_nothing_is_new(workspace):
    home, instance = workspace
    assert isinstance(_sensor(home, instance), dg.SkipReason)


def test_sensor_adds_a_new_checkpoint_and_sweeps_every_environment(workspace):
    home, instance = workspace
    demo_checkpoints(home / "checkpoints", 2, list(ENVS))
    (home / "checkpoints" / "step_0300").mkdir()  # still being copied: no config.json yet
    result = _sensor(home, instance)
    [request] = result.run_requests  # one ranged run over the new checkpoint's partitions
    keys = [str(sweep_partition_key("step_0200", env)) for env in ENVS]
    assert (request.tags[RANGE_START_TAG], request.tags[RANGE_END_TAG]) == (keys[0], keys[-1])
    assert [request.partition_keys for request in result.dynamic_partitions_requests] == [["step_0200"]]


def test_many_new_checkpoints_are_swept_in_runs_of_the_backfill_batch_size(workspace):
    home, instance = workspace
    demo_checkpoints(home / "checkpoints", 201, list(ENVS))  # 200 new folders at once
    result = _sensor(home, instance)
    assert len(result.dynamic_partitions_requests[0].partition_keys) == 200
    batch = workspace_config(home).backfill_batch_size
    assert len(result.run_requests) == -(-200 * len(ENVS) // batch)  # 400 partitions in runs of 20
    starts = [request.tags[RANGE_START_TAG] for request in result.run_requests]
    assert starts[0] == str(sweep_partition_key("step_0200", ENVS[0])) and len(set(starts)) == len(starts)


def test_registry_names_checkpoints_served_by_endpoints(workspace):
    home, instance = workspace
    (home / "registry.txt").write_text("# served by vLLM\nckpt-a\nckpt-b  # latest\n")
    config = workspace_config(home).model_copy(update={"checkpoint_registry": home / "registry.txt"})
    assert discover_checkpoints(config) == ["ckpt-a", "ckpt-b", "step_0100"]
    (home / "registry.txt").write_text("../etc\n")
    with pytest.raises(ValueError, match="registry.txt:1"):
        discover_checkpoints(config)


def test_nightly_schedule_sweeps_the_latest_checkpoint(workspace):
    home, instance = workspace
    demo_checkpoints(home / "checkpoints", 3, list(ENVS))
    instance.add_dynamic_partitions(CHECKPOINTS.name, ["step_0200", "step_0300"])
    defs = _defs(home)
    schedule = defs.resolve_schedule_def(NIGHTLY_SCHEDULE)
    assert schedule.cron_schedule == "0 2 * * *"
    assert schedule.default_status == dg.DefaultScheduleStatus.RUNNING
    tick = datetime.datetime(2026, 12, 1, 2, 0, tzinfo=datetime.UTC)
    context = dg.build_schedule_context(instance=instance, scheduled_execution_time=tick,
                                        repository_def=defs.get_repository_def())
    requests = schedule.evaluate_tick(context)
    assert {request.partition_key for request in requests.run_requests} == {
        sweep_partition_key("step_0300", env) for env in ENVS}


def test_nightly_schedule_can_be_turned_off(workspace):
    home, _ = workspace
    (home / "sweep.yaml").write_text(yaml.safe_dump({
        "environments": [{"name": "mcqa", "dataset": "data/mcqa.jsonl"}], "nightly_cron": None}))
    assert not list(_defs(home).schedules or [])
