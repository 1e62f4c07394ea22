"""Stale inputs are caught: in the comparison itself, in Dagster's data versions, in the blocking check,
in the rollouts asset and in resume; and an untouched or merely touched file raises no alarm."""

import os
import shutil
from pathlib import Path

import dagster as dg
import orjson
import pytest
import yaml

from gym_pipeline.assets.partitions import sweep_partition_key
from gym_pipeline.core.materialize import MaterializationSettings, materialize_file
from gym_pipeline.core.staleness import compare_materialized
from gym_pipeline.demo import run_demo
from gym_pipeline.status import sweep_status
from gym_pipeline.sweep import RECOLLECT_JOB, build_definitions, workspace_config

AGENT = "mcqa_simple_agent"
QUIET = {"loggers": {"console": {"config": {"log_level": "ERROR"}}}}


def _edit_value(lines):
    row = orjson.loads(lines[3])
    row["expected_answer"] = "D" if row["expected_answer"] != "D" else "A"
    return lines[:3] + [orjson.dumps(row).decode() + "\n"] + lines[4:]


MUTATIONS = {
    "value": _edit_value,
    "added": lambda lines: lines + [lines[0].replace('"difficulty"', '"note": "new", "difficulty"', 1)],
    "removed": lambda lines: lines[:7] + lines[8:],
    "reordered": lambda lines: lines[:2] + [lines[5], lines[3], lines[4], lines[2]] + lines[6:],
}
EXPECTED_TASK_CHANGES = {
    "value": {"changed": 1, "added": 0, "removed": 0},
    "added": {"changed": 0, "added": 1, "removed": 0},
    "removed": {"changed": 0, "added": 0, "removed": 1},
    "reordered": {"changed": 0, "added": 0, "removed": 0, "moved": 2},
}


def _mutate(path: Path, mutation: str) -> None:
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(MUTATIONS[mutation](lines)))


# --- the comparison on its own -------------------------------------------------------------------

@pytest.fixture
def gym_run(tmp_path):
    source = tmp_path / "data.jsonl"
    shutil.copyfile(Path(__file__).parents[1] / "gym_pipeline/examples/data/mcqa.jsonl", source)
    materialized = tmp_path / "rollouts_materialized_inputs.jsonl"
    materialize_file(source, materialized, MaterializationSettings(4, AGENT))
    return source, materialized


def test_untouched_source_matches(gym_run):
    source, materialized = gym_run
    report = compare_materialized(materialized, source, MaterializationSettings(4, AGENT))
    assert not report.stale and report.rows_found == report.rows_expected


@pytest.mark.parametrize("mutation", MUTATIONS)
def test_each_data_change_is_named(gym_run, mutation):
    source, materialized = gym_run
    _mutate(source, mutation)
    report = compare_materialized(materialized, source, MaterializationSettings(4, AGENT))
    assert report.stale
    changes = {name: getattr(report.tasks, name) for name in EXPECTED_TASK_CHANGES[mutation]}
    assert changes == EXPECTED_TASK_CHANGES[mutation]
    assert report.differing_rows and report.rebuild_command.startswith("gym-pipeline materialize")


@pytest.mark.parametrize(("settings", "field"), [
    (MaterializationSettings(2, AGENT), "num_repeats"),
    (MaterializationSettings(4, "other_agent"), "agent"),
    (MaterializationSettings(4, AGENT, interleave_repeats=True), "interleave_repeats"),
])
def test_each_settings_change_is_named(gym_run, settings, field):
    source, materialized = gym_run
    report = compare_materialized(materialized, source, settings)
    assert report.stale and field in report.settings_differences
    assert any(reason.startswith(field) for reason in report.reasons)


def test_reformatted_json_with_the_same_rows_is_not_stale(gym_run):
    source, materialized = gym_run
    source.write_text("".join(orjson.dumps(orjson.loads(line)).decode() + "\n"
                              for line in source.read_text().splitlines()))
    report = compare_materialized(materialized, source, MaterializationSettings(4, AGENT),
                                  recorded_source_digest="sha256:before")
    assert not report.stale and report.notes


# --- the Dagster workspace -----------------------------------------------------------------------

@pytest.fixture(scope="module")
def built_workspace(tmp_path_factory):
    home = tmp_path_factory.mktemp("base") / "home"
    run_demo(home, checkpoint_count=2, quiet=True)
    return home


@pytest.fixture
def home(built_workspace, tmp_path):
    copy = tmp_path / "home"
    shutil.copytree(built_workspace, copy)
    return copy


def _stale_partitions(home):
    return {(p.checkpoint, p.env): p for p in sweep_status(home) if set(p.assets.values()) != {"FRESH"}}


ALL = {(c, e) for c in ("step_0100", "step_0200") for e in ("string_match", "mcqa")}
MCQA = {("step_0100", "mcqa"), ("step_0200", "mcqa")}


def test_nothing_is_stale_after_a_sweep(home):
    assert _stale_partitions(home) == {}


def test_a_touched_file_raises_no_alarm(home):
    dataset = home / "data" / "mcqa.jsonl"
    os.utime(dataset, (1, 1))
    (home / "checkpoints" / "step_0100" / "config.json").touch()
    assert _stale_partitions(home) == {}


@pytest.mark.parametrize("mutation", MUTATIONS)
def test_a_data_change_marks_only_that_environments_partitions(home, mutation):
    _mutate(home / "data" / "mcqa.jsonl", mutation)
    stale = _stale_partitions(home)
    assert set(stale) == MCQA
    for partition in stale.values():
        assert set(partition.assets.values()) == {"STALE"}
        assert "materialized_inputs: source_dataset[mcqa] has a new data version" in partition.stale_causes


def _observation_count(home) -> dict[str, int]:
    with dg.DagsterInstance.from_config(str(home / "dagster")) as instance:
        return {name: len(instance.fetch_observations(dg.AssetKey(name), limit=10_000).records)
                for name in ("source_dataset", "materialization_settings", "model_checkpoint")}


def test_observations_record_only_the_partitions_that_changed(home):
    sweep_status(home)
    before = _observation_count(home)
    sweep_status(home)  # nothing changed: nothing new recorded
    assert _observation_count(home) == before
    _mutate(home / "data" / "mcqa.jsonl", "value")
    sweep_status(home)
    after = _observation_count(home)
    assert after == before | {"source_dataset": before["source_dataset"] + 1}
    with dg.DagsterInstance.from_config(str(home / "dagster")) as instance:
        latest = instance.fetch_observations(dg.AssetKey("source_dataset"), limit=1).records[0]
        assert latest.partition_key == "mcqa"


def test_a_rewrite_keeping_size_and_mtime_is_found_only_by_rehash(home):
    """The digest cache's known blind spot (README), and the way out of it."""
    sweep_status(home)
    dataset = home / "data" / "mcqa.jsonl"
    stat = dataset.stat()
    text = dataset.read_text()
    assert '"expected_answer": "A"' in text
    dataset.write_text(text.replace('"expected_answer": "A"', '"expected_answer": "B"', 1))
    assert dataset.stat().st_size == stat.st_size and dataset.read_text() != text
    os.utime(dataset, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert _stale_partitions(home) == {}
    stale = {(p.checkpoint, p.env) for p in sweep_status(home, rehash=True) if set(p.assets.values()) != {"FRESH"}}
    assert stale == MCQA


def test_the_source_sensor_records_only_changes_and_checks_the_changed_environment(home):
    from gym_pipeline.checks import INPUTS_MATCH_SOURCE
    from gym_pipeline.observation import OBSERVE_SOURCES_SENSOR
    from gym_pipeline.resources.digest_cache import DigestCacheResource
    from gym_pipeline.resources.model_server import ModelServerResource

    config = workspace_config(home)
    resources = {"digest_cache": DigestCacheResource(store=str(config.digest_cache)),
                 "model_server": ModelServerResource.from_config(config.model_server)}
    instance, defs = _instance_and_defs(home)
    sensor = defs.resolve_sensor_def(OBSERVE_SOURCES_SENSOR)

    def tick():
        """What the daemon does: evaluate the tick, record the events it returns."""
        result = sensor.evaluate_tick(dg.build_sensor_context(instance=instance, resources=resources,
                                                              repository_def=defs.get_repository_def()))
        for event in result.asset_events:
            instance.report_runless_asset_event(event)
        return result

    with instance:
        assert tick().skip_message  # the demo observed everything; nothing changed since
        _mutate(home / "data" / "mcqa.jsonl", "value")
        result = tick()
        observed = [(e.asset_key.to_user_string(), e.partition) for e in result.asset_events
                    if isinstance(e, dg.AssetObservation)]
        assert observed == [("source_dataset", "mcqa")]
        checked = {e.partition: e.passed for e in result.asset_events if isinstance(e, dg.AssetCheckEvaluation)}
        assert checked == {"step_0100|mcqa": False, "step_0200|mcqa": False}
        assert tick().skip_message
        failed = instance.event_log_storage.get_asset_check_execution_history(
            dg.AssetCheckKey(dg.AssetKey("materialized_inputs"), INPUTS_MATCH_SOURCE), limit=10)
        assert {(record.partition, record.status.value) for record in failed} >= {
            ("step_0100|mcqa", "FAILED"), ("step_0200|mcqa", "FAILED")}


def _edit_config(home, edit):
    path = home / "sweep.yaml"
    config = yaml.safe_load(path.read_text())
    edit(config)
    path.write_text(yaml.safe_dump(config))


def test_a_repeats_change_marks_every_partition(home):
    _edit_config(home, lambda config: config.update(num_repeats=2))
    stale = _stale_partitions(home)
    assert set(stale) == ALL
    assert any("materialization_settings[mcqa] has a new data version" in cause
               for cause in stale[("step_0100", "mcqa")].stale_causes)


def test_an_agent_change_marks_only_that_environment(home):
    _edit_config(home, lambda config: config["environments"][1].update(agent="another_agent"))
    assert set(_stale_partitions(home)) == MCQA


def test_a_changed_checkpoint_marks_its_rollouts_not_its_inputs(home):
    config_path = home / "checkpoints" / "step_0100" / "config.json"
    config_path.write_bytes(config_path.read_bytes().replace(b'"seed"', b'"revision": 2, "seed"'))
    stale = _stale_partitions(home)
    assert set(stale) == {("step_0100", "string_match"), ("step_0100", "mcqa")}
    for partition in stale.values():
        assert partition.assets["materialized_inputs"] == "FRESH"
        assert partition.assets["rollouts"] == "STALE"
        assert "rollouts: model_checkpoint[step_0100] has a new data version" in partition.stale_causes


def _instance_and_defs(home):
    return dg.DagsterInstance.from_config(str(home / "dagster")), build_definitions(workspace_config(home))


def test_blocking_check_fails_and_rollouts_do_not_run(home, monkeypatch):
    monkeypatch.setenv("GYM_PIPELINE_HOME", str(home))
    _mutate(home / "data" / "mcqa.jsonl", "removed")
    rollouts_before = (home / "runs/step_0100/mcqa/rollouts.jsonl").read_bytes()
    instance, defs = _instance_and_defs(home)
    with instance:
        result = defs.resolve_job_def(RECOLLECT_JOB).execute_in_process(
            instance=instance, partition_key=sweep_partition_key("step_0100", "mcqa"), run_config=QUIET,
            raise_on_error=False,
        )
    evaluation = result.get_asset_check_evaluations()[0]
    assert not evaluation.passed
    metadata = {key: value.value for key, value in evaluation.metadata.items()}
    assert metadata["tasks_removed"] == 1 and metadata["tasks_added"] == metadata["tasks_changed"] == 0
    assert metadata["recorded_source_digest"] != metadata["current_source_digest"]
    assert str(home / "data" / "mcqa.jsonl") in metadata["source"]
    assert "is stale" in evaluation.description
    assert not [e for e in result.get_asset_materialization_events() if e.asset_key == dg.AssetKey("rollouts")]
    started = {event.step_key for event in result.all_events if event.event_type_value == "STEP_START"}
    assert started == {"materialized_inputs_inputs_match_source"}  # the failed check blocked the rest
    assert (home / "runs/step_0100/mcqa/rollouts.jsonl").read_bytes() == rollouts_before


def test_rollouts_alone_refuse_stale_inputs(home, monkeypatch):
    monkeypatch.setenv("GYM_PIPELINE_HOME", str(home))
    _mutate(home / "data" / "mcqa.jsonl", "value")
    instance, defs = _instance_and_defs(home)
    with instance:
        result = defs.resolve_implicit_global_asset_job_def().execute_in_process(
            instance=instance, asset_selection=[dg.AssetKey("rollouts")], run_config=QUIET,
            partition_key=sweep_partition_key("step_0200", "mcqa"), raise_on_error=False,
        )
    assert not result.success
    failure = result.get_step_failure_events()[0].step_failure_data.user_failure_data
    assert "refusing to collect on stale inputs" in failure.description
    assert "1 task changed" in failure.description


# --- resume --------------------------------------------------------------------------------------



def _cli_collect_then_cut(gym_run, policy_endpoint, keep=30):
    from gym_pipeline.cli import main

    source, materialized = gym_run
    assert main(["materialize", "--input", str(source), "--num-repeats", "4", "--agent", AGENT,
                 "--output", str(materialized)]) == 0
    rollouts = materialized.with_name("rollouts.jsonl")
    collect = ["collect", "--inputs", str(materialized), "--output", str(rollouts), "--model-url", policy_endpoint.url,
               "--env", "mcqa"]
    assert main(collect) == 0
    lines = rollouts.read_bytes().splitlines(keepends=True)
    rollouts.write_bytes(b"".join(lines[:keep]))  # the collection was killed here
    return main, collect + ["--resume"], rollouts, len(lines)


def test_resume_with_nothing_changed_continues(gym_run, policy_endpoint):
    main, resume, rollouts, total = _cli_collect_then_cut(gym_run, policy_endpoint)
    assert main(resume) == 0
    keys = [(r["_ng_task_index"], r["_ng_rollout_index"]) for r in map(orjson.loads, rollouts.read_bytes().splitlines())]
    assert len(keys) == len(set(keys)) == total


def test_resume_refuses_a_changed_source(gym_run, policy_endpoint, capsys):
    main, resume, rollouts, _ = _cli_collect_then_cut(gym_run, policy_endpoint)
    before = rollouts.read_bytes()
    _mutate(gym_run[0], "value")
    assert main(resume) == 2
    err = capsys.readouterr().err
    assert "cannot resume" in err and "gym-pipeline materialize --input" in err and "Traceback" not in err
    assert rollouts.read_bytes() == before


def test_resume_refuses_inputs_rebuilt_since_collection(gym_run, policy_endpoint, capsys):
    main, resume, rollouts, _ = _cli_collect_then_cut(gym_run, policy_endpoint)
    source, materialized = gym_run
    _mutate(source, "added")
    assert main(["materialize", "--input", str(source), "--num-repeats", "4", "--agent", AGENT,
                 "--output", str(materialized)]) == 0
    assert main(resume) == 2
    assert "changed since these rollouts were collected" in capsys.readouterr().err


def _run_recollect(home, checkpoint, env):
    instance, defs = _instance_and_defs(home)
    with instance:
        result = defs.resolve_job_def(RECOLLECT_JOB).execute_in_process(
            instance=instance, partition_key=sweep_partition_key(checkpoint, env), run_config=QUIET)
        return result.asset_materializations_for_node("rollouts")[0].metadata


def test_the_asset_resumes_only_an_interrupted_collection(home, monkeypatch):
    monkeypatch.setenv("GYM_PIPELINE_HOME", str(home))
    run_dir = home / "runs/step_0100/string_match"
    manifest_path = run_dir / "manifest.json"
    manifest = orjson.loads(manifest_path.read_bytes())
    manifest["rollouts"]["status"] = "collecting"  # as a killed run leaves it
    manifest_path.write_bytes(orjson.dumps(manifest))
    lines = (run_dir / "rollouts.jsonl").read_bytes().splitlines(keepends=True)
    (run_dir / "rollouts.jsonl").write_bytes(b"".join(lines[:100]))
    metadata = _run_recollect(home, "step_0100", "string_match")
    assert metadata["resumed"].value == 100 and metadata["rollouts"].value == len(lines)
    # A finished collection is collected afresh when asked again.
    assert _run_recollect(home, "step_0100", "string_match")["resumed"].value == 0


# --- the commands ----------------------------------------------------------------------------------

def test_check_stale_exit_codes_and_json(gym_run, capsys, tmp_path):
    from gym_pipeline.cli import main

    source, materialized = gym_run
    command = ["check-stale", "--inputs", str(materialized), "--source", str(source), "--num-repeats", "4",
               "--agent", AGENT]
    assert main(command) == 0
    _mutate(source, "added")
    capsys.readouterr()
    assert main(command + ["--json"]) == 1
    report = orjson.loads(capsys.readouterr().out)
    assert report["stale"] and report["tasks"]["added"] == 1
    assert report["differing_rows"][0]["change"] == "missing"
    bad = tmp_path / "broken.jsonl"
    bad.write_text('{"responses_create_params": {}}\n{oops\n')
    assert main(["check-stale", "--inputs", str(bad), "--source", str(source), "--num-repeats", "4",
                 "--agent", AGENT]) == 2
    assert f"{bad}:2" in capsys.readouterr().err


def test_status_json(home, capsys):
    from gym_pipeline.cli import main

    _mutate(home / "data" / "string_match.jsonl", "removed")
    assert main(["status", "--home", str(home), "--json"]) == 0
    partitions = orjson.loads(capsys.readouterr().out)["partitions"]
    assert {(p["checkpoint"], p["env"]) for p in partitions} == ALL
    for partition in partitions:
        assert set(partition) == {"checkpoint", "env", "assets", "stale_causes"}
        expected = "STALE" if partition["env"] == "string_match" else "FRESH"
        assert set(partition["assets"].values()) == {expected}
        assert bool(partition["stale_causes"]) == (expected == "STALE")


def test_status_of_a_missing_workspace_is_a_clear_error(tmp_path, capsys):
    from gym_pipeline.cli import main

    assert main(["status", "--home", str(tmp_path / "nowhere")]) == 2
    assert "no workspace here" in capsys.readouterr().err


def test_opt_in_automation_requests_rebuilds_of_changed_inputs_only(home, monkeypatch):
    monkeypatch.setenv("GYM_PIPELINE_HOME", str(home))
    _edit_config(home, lambda config: config.update(auto_rebuild_inputs=True))
    instance, defs = _instance_and_defs(home)
    with instance:
        first = dg.evaluate_automation_conditions(defs=defs, instance=instance)
        _mutate(home / "data" / "mcqa.jsonl", "value")
        from gym_pipeline.observation import observe_sources
        observe_sources(workspace_config(home), instance)
        second = dg.evaluate_automation_conditions(defs=defs, instance=instance, cursor=first.cursor)
    requested = {
        (key.keys_by_dimension["checkpoint"], key.keys_by_dimension["env"])
        for key in second.get_requested_partitions(dg.AssetKey("materialized_inputs"))
    }
    assert requested == MCQA


def test_recorded_digests_settle_freshness_without_rematerializing(gym_run):
    from gym_pipeline.core.materialize import materialize_and_record
    from gym_pipeline.core.staleness import unchanged_since_recorded

    source, materialized = gym_run
    settings = MaterializationSettings(4, AGENT)
    record = materialize_and_record(source, materialized, settings, code_version="v1")
    fresh = unchanged_since_recorded(materialized, source, settings, record, "v1")
    assert fresh is not None and not fresh.stale and fresh.rows_found == record["output"]["rows"]
    assert unchanged_since_recorded(materialized, source, settings, record, "v2") is None  # other code
    assert unchanged_since_recorded(materialized, source, MaterializationSettings(2, AGENT), record, "v1") is None
    lines = materialized.read_text().splitlines(keepends=True)
    materialized.write_text("".join(lines[:-1]))  # edited by hand since
    assert unchanged_since_recorded(materialized, source, settings, record, "v1") is None
    assert compare_materialized(materialized, source, settings).stale
