"""Re-scoring through NeMo Gym's own resources server (`gym env start`, then its /verify), on the real Gym 0.7.0.

Like test_nemo_gym_engine.py, Gym runs in a loopback-only network namespace (tests/nemo_gym_driver.py under
`unshare`); a re-scoring runs `gym-pipeline reverify` there with no model server anywhere in the namespace.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import orjson
import pytest

from gym_pipeline.core.materialize import MaterializationSettings, materialize_file
from gym_pipeline.environments import get_environment
from gym_pipeline.serving.checkpoints import demo_checkpoints
from tests.test_nemo_gym_engine import (  # noqa: F401  (the fixtures)
    _processes_in_netns,
    _rows,
    _run_in_namespace,
    gym_executable,
    loopback_namespace,
)

pytestmark = [pytest.mark.integration, pytest.mark.timeout(600)]
HAND_RUN = Path("/work/shared/fixtures/nemo_gym_0.7.0/clean_run")  # a folder the real Gym 0.7.0 wrote by hand
_ORIGINAL_SCORING = "reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)"
# The edit: any answer that is a whole number is right.
_EDITED_SCORING = ("reward = 1.0 if extracted.strip().isdigit() else "
                   "_answers_match(extracted, body.expected_answer, body.case_sensitive)")


def _rewards(path: Path) -> dict[tuple[int, int], float]:
    return {(row["_ng_task_index"], row["_ng_rollout_index"]): row["reward"] for row in _rows(path)}


def _reverify(namespace: list[str], tmp_path: Path, *argv: str) -> dict:
    """`gym-pipeline reverify ARGV --json` in a fresh loopback-only namespace; its summary, checked to have ended
    every process it started."""
    result = _run_in_namespace(namespace, {"reverify": [*argv, "--home", str(tmp_path / "home"), "--json"]},
                               tmp_path)
    assert result["exit_code"] == 0, result
    assert _processes_in_netns(result["netns"]) == set()  # Gym's servers and Ray stopped
    return orjson.loads(result["stdout"])


def _edited_string_match(gym: Path, search_dir: Path) -> Path:
    """A user's own copy of Gym's string_match under `search_dir` (Gym's --search-dir), its scoring edited."""
    site_packages = next((gym.parent.parent / "lib").glob("python3*/site-packages"))
    server = search_dir / "resources_servers" / "string_match"
    shutil.copytree(site_packages / "resources_servers" / "string_match", server,
                    ignore=shutil.ignore_patterns("__pycache__", "tests", ".venv"))
    app = (server / "app.py").read_text()
    assert _ORIGINAL_SCORING in app
    (server / "app.py").write_text(app.replace(_ORIGINAL_SCORING, _EDITED_SCORING))
    return search_dir


def test_a_run_gym_collected_re_scored_through_gyms_verify_keeps_gyms_rewards(
        gym_executable, loopback_namespace, tmp_path, monkeypatch):  # noqa: F811
    monkeypatch.setenv("GYM_PIPELINE_NEMO_GYM", str(gym_executable))
    environment = get_environment("string_match")
    source = tmp_path / "source.jsonl"
    source.write_bytes(b"".join(environment.dataset_path.read_bytes().splitlines(keepends=True)[:4]))
    run_dir = tmp_path / "runs" / "ckpt" / "string_match"
    run_dir.mkdir(parents=True)
    materialized = run_dir / "rollouts_materialized_inputs.jsonl"
    materialize_file(source, materialized, MaterializationSettings(2, "string_match_simple_agent"))
    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 1, [environment])[0]
    _run_in_namespace(loopback_namespace, {
        "materialized": str(materialized), "rollouts": str(run_dir / "rollouts.jsonl"),
        "environment": environment.name, "checkpoint": str(checkpoint), "gym": str(gym_executable), "concurrency": 4,
    }, tmp_path)
    collected = (run_dir / "rollouts.jsonl").read_bytes()
    gyms_rewards = _rewards(run_dir / "rollouts.jsonl")
    assert gyms_rewards and len(set(gyms_rewards.values())) == 2  # right and wrong answers both

    # Collected by the nemo_gym engine: re-scored through Gym's own server, no option needed, no model server.
    summary = _reverify(loopback_namespace, tmp_path, str(run_dir), "--env", "string_match", "--repeat", "2")

    assert summary == {"rows": len(gyms_rewards), "rescored": len(gyms_rewards), "changed": 0, "changed_tasks": [],
                       "flaky": []}
    assert _rewards(run_dir / "rollouts.jsonl") == gyms_rewards
    assert _rows(run_dir / "rollouts.jsonl") == _rows(run_dir / "rollouts.before_reverify.jsonl")
    assert (run_dir / "rollouts.before_reverify.jsonl").read_bytes() == collected
    manifest = orjson.loads((run_dir / "manifest.json").read_bytes())
    verifier = manifest["reverify"]["verifier"]
    assert verifier["name"] == "string_match (NeMo Gym resources server)"
    assert verifier["path"].endswith("site-packages/resources_servers/string_match")
    assert manifest["rollouts"]["verifier"] == verifier and manifest["rollouts"]["engine"] == "nemo_gym"
    assert orjson.loads((run_dir / "rollouts_verifier_flakiness.json").read_bytes())["repeats"] == 2
    assert "servers ready" in (run_dir / "logs" / "gym_reverify_env_start.log").read_text()


def test_a_hand_run_gym_folder_re_scored_through_gyms_verify_then_an_edited_server(
        gym_executable, loopback_namespace, tmp_path, monkeypatch):  # noqa: F811
    monkeypatch.setenv("GYM_PIPELINE_NEMO_GYM", str(gym_executable))
    folder = tmp_path / "results"
    shutil.copytree(HAND_RUN, folder)
    original = _rows(folder / "rollouts.jsonl")
    gyms_rewards = _rewards(folder / "rollouts.jsonl")

    # No manifest of ours: --gym says the folder is Gym's.
    summary = _reverify(loopback_namespace, tmp_path, str(folder), "--env", "string_match", "--gym")
    assert summary["rows"] == summary["rescored"] == len(original) and summary["changed"] == 0
    assert _rows(folder / "rollouts.jsonl") == original  # every field as Gym wrote it, in Gym's order

    search_dir = _edited_string_match(gym_executable, tmp_path / "my_gym")
    summary = _reverify(loopback_namespace, tmp_path, str(folder), "--env", "string_match", "--gym",
                        "--search-dir", str(search_dir))

    expected = {key: 1.0 if row["extracted_answer"].isdigit() else row["reward"]
                for key, row in (((r["_ng_task_index"], r["_ng_rollout_index"]), r) for r in original)}
    changed = {key for key in expected if expected[key] != gyms_rewards[key]}
    assert changed  # the edit changes some rewards (the wrong numeric answers), and only those
    assert _rewards(folder / "rollouts.jsonl") == expected
    assert summary["changed"] == len(changed) and summary["changed_tasks"] == sorted({task for task, _ in changed})
    rescored = _rows(folder / "rollouts.jsonl")
    assert [list(row) for row in rescored] == [list(row) for row in original]  # same fields, same order
    assert [{**row, "reward": None} for row in rescored] == [{**row, "reward": None} for row in original]
    verifier = orjson.loads((folder / "manifest.json").read_bytes())["reverify"]["verifier"]
    assert verifier["path"] == str(search_dir / "resources_servers" / "string_match")
