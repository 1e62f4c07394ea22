"""The demo sweep end to end through Dagster, with a real persistent instance."""

import os
import subprocess
import sys
from pathlib import Path

import dagster as dg
import orjson
import pytest

from gym_pipeline.core.formats import FAILURES_FILE, MATERIALIZED_INPUTS_FILE, REWARD_PROFILE_FILE, ROLLOUTS_FILE
from gym_pipeline.demo import run_demo

REPO = Path(__file__).resolve().parents[1]
GYM_FILES = (MATERIALIZED_INPUTS_FILE, ROLLOUTS_FILE, FAILURES_FILE, REWARD_PROFILE_FILE,
             "rollouts_agent_metrics.json", "rollouts_repeat_level_metrics.json", "diagnosis.json", "manifest.json")
CHECKPOINTS = ("step_0100", "step_0200", "step_0300")


@pytest.fixture(scope="module")
def sweep(tmp_path_factory):
    home = tmp_path_factory.mktemp("home")
    # The demo's default 3 checkpoints: the last solves nearly every task (pass@4 near 1, where unbounded
    # intervals used to pass 1).
    return home, run_demo(home, checkpoint_count=3, quiet=True)


def test_every_partition_runs_healthy_with_gym_files(sweep):
    home, result = sweep
    partitions = result["partitions"]
    assert {(p["checkpoint"], p["env"]) for p in partitions} == {
        (c, e) for c in CHECKPOINTS for e in ("string_match", "mcqa")}
    for partition in partitions:
        run_dir = Path(partition["run_dir"])
        assert run_dir == home / "runs" / partition["checkpoint"] / partition["env"]
        assert all((run_dir / name).exists() for name in GYM_FILES), sorted(p.name for p in run_dir.iterdir())
        materialized = len((run_dir / MATERIALIZED_INPUTS_FILE).read_bytes().splitlines())
        assert partition["rollouts"] == materialized >= 200
        assert partition["failures"] == 0
        assert partition["diagnosis"] == "healthy"
        assert 0.0 < partition["mean_reward"] < 1.0
        assert partition["dagster_run_ok"]


def test_later_checkpoint_scores_higher(sweep):
    _, result = sweep
    reward = {(p["checkpoint"], p["env"]): p["mean_reward"] for p in result["partitions"]}
    for env in ("string_match", "mcqa"):
        assert reward[("step_0200", env)] > reward[("step_0100", env)]


def test_dagster_instance_records_every_partition(sweep):
    home, _ = sweep
    with dg.DagsterInstance.from_config(str(home / "dagster")) as instance:
        for asset in ("materialized_inputs", "rollouts", "reward_profile", "diagnostic_report"):
            assert len(instance.get_materialized_partitions(dg.AssetKey(asset))) == 6, asset
        assert set(instance.get_dynamic_partitions("checkpoints")) == set(CHECKPOINTS)
        observation = instance.fetch_observations(dg.AssetKey("source_dataset"), limit=10).records
        assert {record.partition_key for record in observation} == {"string_match", "mcqa"}


def test_manifest_records_what_each_stage_read(sweep):
    _, result = sweep
    manifest = orjson.loads((Path(result["partitions"][0]["run_dir"]) / "manifest.json").read_bytes())
    assert set(manifest) == {"materialized_inputs", "rollouts", "reward_profile", "diagnostic_report"}
    assert manifest["materialized_inputs"]["source"]["digest"].startswith("sha256:")
    assert manifest["materialized_inputs"]["settings"]["num_repeats"] == 4
    assert manifest["rollouts"]["checkpoint"]["digest"].startswith("sha256:")
    assert manifest["rollouts"]["inputs"]["digest"] == manifest["materialized_inputs"]["output"]["digest"]
    assert manifest["rollouts"]["status"] == "complete"
    assert all(len(manifest[stage]["code_version"]) == 16 for stage in manifest)


def _cli(*args, env=None):
    return subprocess.run([sys.executable, "-m", "gym_pipeline.cli", *args], capture_output=True, text=True,
                          env=env, cwd=REPO, timeout=600)


def test_demo_command_prints_json_summary(tmp_path):
    done = _cli("demo", "--home", str(tmp_path / "ws"), "--checkpoints", "1", "--json", "--no-tasks")
    assert done.returncode == 0, done.stderr
    summary = orjson.loads(done.stdout)
    assert len(summary["partitions"]) == 2
    for partition in summary["partitions"]:
        assert {"checkpoint", "env", "run_dir", "rollouts", "failures", "mean_reward", "diagnosis"} <= set(partition)
    assert summary["ui_command"].startswith("gym-pipeline ui --home")


def test_definitions_validate_on_workspace_yaml(tmp_path):
    env = os.environ | {"GYM_PIPELINE_HOME": str(tmp_path / "empty-home"), "DAGSTER_HOME": str(tmp_path)}
    done = subprocess.run([str(Path(sys.executable).with_name("dagster")), "definitions", "validate", "-w",
                           "workspace.yaml"], capture_output=True, text=True, cwd=REPO, env=env, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_checkpoint_comparison_per_environment(sweep):
    home, _ = sweep
    for env in ("string_match", "mcqa"):
        comparison = orjson.loads((home / "comparisons" / env / "comparison.json").read_bytes())
        assert [c["checkpoint"] for c in comparison["checkpoints"]] == list(CHECKPOINTS)
        change = comparison["changes"][0]
        assert change["mean_reward_delta"]["ci_low"] > 0  # the later checkpoint is better, beyond noise
        assert len(change["improved"]) > len(change["regressed"]) and not change["significant_regression"]
    with dg.DagsterInstance.from_config(str(home / "dagster")) as instance:
        evaluation = instance.event_log_storage.get_latest_asset_check_execution_by_key(
            [dg.AssetCheckKey(dg.AssetKey("checkpoint_comparison"), "no_significant_regression")])
        assert evaluation


def _intervals(value, where=""):
    """(where, low, high) for every interval in a file's JSON: our `ci_low`/`ci_high` pairs (the comparison's
    estimates, the reward analysis's pass@k), `mean_reward_ci_low`/`_high`, and Gym's `ci_low_95...` keys."""
    if isinstance(value, list):
        for i, item in enumerate(value):
            yield from _intervals(item, f"{where}[{i}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            if "ci_low" in key:
                yield f"{where}.{key}", item, value[key.replace("ci_low", "ci_high")]
            elif "ci_high" not in key:
                yield from _intervals(item, f"{where}.{key}")


def test_no_interval_on_rewards_leaves_0_1(sweep):
    """Every interval the demo writes on a reward or pass@k stays in [0, 1] (a change in reward in [-1, 1]),
    in our files (the reward analysis, the comparison) and in Gym's agent and repeat-level metrics."""
    home, _ = sweep
    files = [*home.glob("runs/*/*/rollouts_reward_analysis.json"), *home.glob("runs/*/*/rollouts_agent_metrics.json"),
             *home.glob("runs/*/*/rollouts_repeat_level_metrics.json"), *home.glob("comparisons/*/comparison.json")]
    assert len(files) == 6 * 3 + 2
    checked = 0
    for path in files:
        for where, low, high in _intervals(orjson.loads(path.read_bytes())):
            if path.name.startswith("rollouts_") and "reward" not in where.rsplit(".", 1)[-1] \
                    and path.name != "rollouts_reward_analysis.json":
                continue  # Gym's intervals on token counts are not bounded by [0, 1]
            bounds = (-1.0, 1.0) if "delta" in where else (0.0, 1.0)
            assert bounds[0] <= low <= high <= bounds[1], f"{path}{where}: [{low}, {high}]"
            checked += 1
    assert checked > 40


def test_load_partition_gives_the_partitions_files_as_frames(sweep):
    import gym_pipeline

    home, _ = sweep
    run = gym_pipeline.load_partition(home, "step_0300", "mcqa")
    assert run.run_dir == home / "runs" / "step_0300" / "mcqa"
    rollouts = len((run.run_dir / ROLLOUTS_FILE).read_bytes().splitlines())
    assert len(run.materialized_inputs) == len(run.rollouts) == len(run.reward_analysis) == rollouts
    assert len(run.reward_profile) == len((run.run_dir / REWARD_PROFILE_FILE).read_bytes().splitlines())
    assert run.reward_analysis["reward"].mean() == pytest.approx(run.reward_analysis_summary["mean_reward"])
    assert run.failures.empty


def test_materializations_carry_the_column_schema_of_their_files(sweep):
    from gym_pipeline.assets.partitions import sweep_partition_key
    from gym_pipeline.core import tables

    home, _ = sweep
    run_dir = home / "runs" / "step_0100" / "string_match"
    expected = {"materialized_inputs": {"dagster/column_schema": MATERIALIZED_INPUTS_FILE},
                "rollouts": {"dagster/column_schema": ROLLOUTS_FILE},
                "reward_profile": {"dagster/column_schema": REWARD_PROFILE_FILE,
                                   "columns/rollouts_reward_analysis.parquet": "rollouts_reward_analysis.parquet",
                                   "columns/rollouts_agent_metrics.json": "rollouts_agent_metrics.json",
                                   "columns/rollouts_repeat_level_metrics.json": "rollouts_repeat_level_metrics.json"}}
    with dg.DagsterInstance.from_config(str(home / "dagster")) as instance:
        for asset, files in expected.items():
            partition = sweep_partition_key("step_0100", "string_match")
            records = instance.fetch_materializations(
                dg.AssetRecordsFilter(asset_key=dg.AssetKey(asset), asset_partitions=[partition]), limit=1).records
            metadata = records[0].asset_materialization.metadata
            for key, name in files.items():
                schema = metadata[key].value
                assert [(c.name, c.type) for c in schema.columns] == [
                    (c.name, c.type) for c in tables.columns(run_dir / name)], (asset, key)
            assert metadata["dagster/column_schema"].value.columns[0].description
