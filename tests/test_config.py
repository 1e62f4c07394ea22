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
        ("environments:\n  - {name: a, dataset: d.jsonl}\nmodel_server: {kind: vllm}\n", "field 'model_server.kind'"),
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


def test_definitions_build_for_the_example_sweep(tmp_path):
    defs = build_definitions(workspace_config(tmp_path))
    keys = {key.to_user_string() for key in defs.resolve_all_asset_keys()}
    assert keys == {"source_dataset", "materialized_inputs", "rollouts", "reward_profile", "diagnostic_report"}
    assert defs.resolve_job_def("eval_sweep").partitions_def is not None
