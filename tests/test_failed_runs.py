"""A partition whose run failed still gets its diagnosis: by the run-failure sensor in Dagster, and in the demo."""

import dagster as dg
import orjson
import pytest

from gym_pipeline.assets.partitions import CHECKPOINTS, sweep_partition_key
from gym_pipeline.demo import run_demo
from gym_pipeline.sensors import DIAGNOSE_FAILED_JOB, FAILURE_LOG, FAILURE_SENSOR
from gym_pipeline.sweep import EVAL_SWEEP_JOB, build_definitions, workspace_config

QUIET = {"loggers": {"console": {"config": {"log_level": "ERROR"}}}}
BROKEN = "step_9999"  # registered as a partition, but its checkpoint folder does not exist


@pytest.fixture
def failed_run(tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("GYM_PIPELINE_HOME", str(home))
    run_demo(home, checkpoint_count=1, quiet=True)
    config = workspace_config(home)
    defs = build_definitions(config)
    instance = dg.DagsterInstance.from_config(str(home / "dagster"))
    instance.add_dynamic_partitions(CHECKPOINTS.name, [BROKEN])
    result = defs.resolve_job_def(EVAL_SWEEP_JOB).execute_in_process(
        instance=instance, partition_key=sweep_partition_key(BROKEN, "mcqa"), run_config=QUIET, raise_on_error=False)
    assert not result.success
    yield home, config, defs, instance, result
    instance.dispose()


def _diagnosis(home):
    return orjson.loads((home / "runs" / BROKEN / "mcqa" / "diagnosis.json").read_bytes())


def test_failure_sensor_requests_a_diagnosis_of_the_failed_partition(failed_run):
    home, config, defs, instance, result = failed_run
    failure = instance.get_records_for_run(result.run_id, of_type=dg.DagsterEventType.RUN_FAILURE).records[0]
    failure = failure.event_log_entry.dagster_event
    context = dg.build_run_status_sensor_context(
        sensor_name=FAILURE_SENSOR, dagster_event=failure, dagster_instance=instance,
        dagster_run=result.dagster_run,
    ).for_run_failure()
    request = defs.resolve_sensor_def(FAILURE_SENSOR)(context)
    assert isinstance(request, dg.RunRequest)
    assert request.partition_key == sweep_partition_key(BROKEN, "mcqa")
    log = (home / "runs" / BROKEN / "mcqa" / FAILURE_LOG).read_text()
    assert "checkpoint folder not found" in log and "step rollouts failed" in log

    diagnosis_run = defs.resolve_job_def(DIAGNOSE_FAILED_JOB).execute_in_process(
        instance=instance, partition_key=request.partition_key, run_config=QUIET)
    report = _diagnosis(home)
    assert report["category"] == "config" and "checkpoint" in report["findings"][0]["title"].lower()
    assert any(item["file"].endswith("dagster_failure.log") for f in report["findings"] for item in f["evidence"])
    check = diagnosis_run.get_asset_check_evaluations()[0]
    assert not check.passed and report["findings"][0]["title"] in check.description


def test_the_demo_diagnoses_a_partition_whose_run_failed(tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("GYM_PIPELINE_HOME", str(home))
    run_demo(home, checkpoint_count=2, quiet=True)
    (home / "checkpoints" / "step_0200" / "knowledge.jsonl").unlink()  # the server cannot load it any more
    result = run_demo(home, checkpoint_count=2, quiet=True)
    broken = [p for p in result["partitions"] if p["checkpoint"] == "step_0200"]
    assert broken and all(not p["dagster_run_ok"] for p in broken)
    assert all(p["diagnosis"] not in (None, "healthy") for p in broken)
    assert all(p["diagnosis"] == "healthy" for p in result["partitions"] if p["checkpoint"] == "step_0100")
