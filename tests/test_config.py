import dagster as dg
import pytest

from gym_pipeline.config import ConfigError, load_sweep_config
from gym_pipeline.sweep import EXAMPLES_DIR, build_definitions, workspace_config


def _write(tmp_path, text):
    path = tmp_path / "sweep.yaml"
    path.write_text(text)
    return path


def test_bundled_example_loads_and_resolves_paths():
    config = load_sweep_config(EXAMPLES_DIR / "sweep.yaml")
    assert [e.name for e in config.environments] == ["string_match", "mcqa"]
    assert all(e.dataset.is_absolute() and e.dataset.exists() for e in config.environments)
    with pytest.raises(ConfigError, match=r"'string-match' is not in the sweep .*; did you mean 'string_match'\?"):
        config.environment("string-match")


def test_workspace_without_config_uses_example_with_runs_in_the_workspace(tmp_path):
    config = workspace_config(tmp_path)
    assert config.runs_dir == tmp_path / "runs"
    assert config.run_dir("step_0100", "mcqa") == tmp_path / "runs" / "step_0100" / "mcqa"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("environments: [\n", "not valid YAML"),
        ("- a\n- b\n", "mapping at the top level"),
        ("environments: []\n", "field 'environments'"),
        ("environments:\n  - {name: x, dataset: d.jsonl}\nnum_repeats: 0\n", "field 'num_repeats'"),
        ("environments:\n  - {name: x, dataset: d.jsonl}\nconcurency: 3\n", "field 'concurency'"),
        ("environments:\n  - {name: ../etc, dataset: d.jsonl}\n", "field 'environments.0.name'"),
        ("environments:\n  - {name: a, dataset: d.jsonl}\n  - {name: a, dataset: e.jsonl}\n", "unique"),
        ("environments:\n  - {name: a, dataset: d.jsonl}\nmodel_server: {kind: triton}\n", "field 'model_server.kind'"),
        ("environments:\n  - {name: a, dataset: d.jsonl, fan_out: {x: []}}\n", "field 'environments.0': Value error, "
                                                                             "fan_out['x'] is an empty list"),
        ("environments:\n  - {name: a, dataset: d.jsonl, limit: -1}\n", "field 'environments.0.limit'"),
        # zero-padded, YAML would read it as octal 8
        ("environments:\n  - {name: a, dataset: d.jsonl}\nnum_repeats: 010\n", "sweep.yaml:3: field 'num_repeats': "
                                                                               "`num_repeats: 010` reads as 8, not 10"),
        ("num_repeats: 8\nenvironments:\n  - {name: a, dataset: d.jsonl}\nnum_repeats: 1\n",
         "sweep.yaml:4: field 'num_repeats': `num_repeats` is given 2 times (lines 1, 4): YAML keeps the last, `1`"),
    ],
)
def test_bad_config_names_file_and_field(tmp_path, text, expected):
    path = _write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_sweep_config(path)
    assert str(path) in str(caught.value)
    assert expected in str(caught.value)


def test_unsafe_partition_names_never_become_paths(tmp_path):
    config = workspace_config(tmp_path)
    for name in ("..", "a/b", "/abs", ".hidden"):
        with pytest.raises(ValueError, match="must start with a letter or digit"):
            config.run_dir(name, "mcqa")


def test_asset_graph_of_the_example_sweep(tmp_path):
    """A snapshot of the wiring: a change to keys, deps, partitions or checks shows up here in review."""
    defs = build_definitions(workspace_config(tmp_path))
    graph = defs.resolve_asset_graph()
    deps = {key.to_user_string(): sorted(p.to_user_string() for p in graph.get(key).parent_keys)
            for key in graph.get_all_asset_keys()}
    assert deps == {
        "source_dataset": [],
        "materialization_settings": [],
        "model_checkpoint": [],
        "verifier": [],
        "materialized_inputs": ["materialization_settings", "source_dataset"],
        "rollouts": ["materialized_inputs", "model_checkpoint", "verifier"],
        "reward_profile": ["materialized_inputs", "rollouts"],
        "diagnostic_report": ["reward_profile", "rollouts"],
        "checkpoint_comparison": ["reward_profile"],
    }
    partitions = {key.to_user_string(): type(graph.get(key).partitions_def).__name__
                  for key in graph.get_all_asset_keys()}
    assert partitions["source_dataset"] == partitions["materialization_settings"] == partitions["verifier"] \
        == "StaticPartitionsDefinition"
    assert partitions["checkpoint_comparison"] == "StaticPartitionsDefinition"
    assert partitions["model_checkpoint"] == "DynamicPartitionsDefinition"
    assert {partitions[name] for name in ("materialized_inputs", "rollouts", "reward_profile",
                                          "diagnostic_report")} == {"MultiPartitionsDefinition"}
    checks = {(key.asset_key.to_user_string(), key.name) for key in graph.asset_check_keys}
    assert checks == {("materialized_inputs", "inputs_match_source"), ("diagnostic_report", "diagnosis_healthy"),
                      ("checkpoint_comparison", "no_significant_regression")}
    for name in ("materialized_inputs", "rollouts", "reward_profile", "diagnostic_report"):
        assert graph.get(dg.AssetKey(name)).backfill_policy.max_partitions_per_run == 20
    assert graph.get(dg.AssetKey("checkpoint_comparison")).automation_condition is not None
    assert graph.get(dg.AssetKey("reward_profile")).freshness_policy is not None
    assert graph.get(dg.AssetKey("materialized_inputs")).automation_condition is None  # rebuild is opt-in
    assert {job.name for job in defs.resolve_all_job_defs()} >= {
        "eval_sweep", "recollect", "diagnose_failed", "compare_checkpoints", "observe_environments",
        "observe_checkpoints"}
    sensors = {sensor.name: sensor.default_status.value for sensor in defs.sensors}
    assert sensors == {"gym_pipeline_automation": "RUNNING", "diagnose_failed_runs": "RUNNING",
                       "new_checkpoints": "RUNNING", "observe_sources": "RUNNING"}
    assert [schedule.name for schedule in defs.schedules] == ["nightly_sweep"]


def test_opt_in_rebuild_sets_the_automation_condition(tmp_path):
    config = workspace_config(tmp_path).model_copy(update={"auto_rebuild_inputs": True})
    graph = build_definitions(config).resolve_asset_graph()
    assert graph.get(dg.AssetKey("materialized_inputs")).automation_condition is not None


def test_sources_are_observed_unless_asked_not_to(tmp_path):
    config = workspace_config(tmp_path).model_copy(update={"observe_sources": False, "observe_interval_s": 300})
    [sensor] = [s for s in build_definitions(config).sensors if s.name == "observe_sources"]
    assert sensor.default_status == dg.DefaultSensorStatus.STOPPED and sensor.minimum_interval_seconds == 300


def test_an_environment_takes_gyms_materialization_settings(tmp_path):
    path = _write(tmp_path, "num_repeats: 4\nenvironments:\n  - name: mcqa\n    dataset: d.jsonl\n"
                            "    num_repeats: {a: 2, _default: 1}\n    limit: 10\n    num_repeats_add_seed: true\n"
                            "    prompt_config: prompts/p.yaml\n    agent_map: {old: new, _default: a}\n"
                            "    fan_out: {src: [a, b]}\n")
    settings = load_sweep_config(path).materialization_settings("mcqa")
    assert settings.num_repeats == {"a": 2, "_default": 1} and settings.limit == 10 and settings.num_repeats_add_seed
    assert settings.prompt_config == str(tmp_path / "prompts/p.yaml")  # relative to the config's folder
    assert settings.agent is None  # agent_map's _default routes the rows, not the environment's agent
    assert settings.agent_map == {"old": "new", "_default": "a"} and settings.fan_out == {"src": ["a", "b"]}
