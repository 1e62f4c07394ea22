"""The NeMo Gym engine against a real NeMo Gym install and the simulated policy.

Needs GYM_PIPELINE_NEMO_GYM (the `gym` path scripts/install-nemo-gym.sh prints); skips without it, or when the
install cannot run here. A real `gym env start` (Ray + 4 servers) takes 20-60 s on a loaded 2-core machine.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import orjson
import pytest

from gym_pipeline.engines import nemo_gym
from gym_pipeline.engines.nemo_gym import NemoGymError, collect_with_nemo_gym, key_map
from gym_pipeline.environments import get_environment
from gym_pipeline.gym.materialize import materialize_file

pytestmark = pytest.mark.timeout(900)


def _rows(path: Path) -> list[dict]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()] if path.exists() else []


def _ray_and_gym_processes() -> set[int]:
    """Processes running Ray's daemons or a Gym server/CLI (for the nothing-left-running check)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z" and any(word in cmdline for word in (b"raylet", b"gcs_server", b"gym env start",
                                                             b"gym eval run", b"ray::")):
            found.add(int(entry.name))
    return found


@pytest.fixture(scope="module")
def gym_executable() -> Path:
    if not os.environ.get(nemo_gym.ENV_VAR):
        pytest.skip(f"{nemo_gym.ENV_VAR} is unset: run scripts/install-nemo-gym.sh and export what it prints")
    try:
        gym = nemo_gym.resolve_gym_executable()
        nemo_gym.gym_venv_of(gym)
        probe = subprocess.run([str(gym), "env", "start", "--help"], capture_output=True, timeout=120)
    except (NemoGymError, OSError, subprocess.TimeoutExpired) as error:
        pytest.skip(f"the NeMo Gym install at {os.environ[nemo_gym.ENV_VAR]} does not work here: {error}")
    if probe.returncode != 0:
        pytest.skip(f"`gym env start --help` fails here: {probe.stderr.decode(errors='replace')[-500:]}")
    return gym


def test_key_map_restores_our_rollout_indices():
    ours = [{"_ng_task_index": 0, "_ng_rollout_index": 0}, {"_ng_task_index": 1, "_ng_rollout_index": 2},
            {"_ng_task_index": 1, "_ng_rollout_index": 3}]
    gyms = [{"_ng_task_index": 0, "_ng_rollout_index": 0}, {"_ng_task_index": 1, "_ng_rollout_index": 0},
            {"_ng_task_index": 1, "_ng_rollout_index": 1}]
    assert key_map(ours, gyms) == {(0, 0): (0, 0), (1, 0): (1, 2), (1, 1): (1, 3)}
    with pytest.raises(NemoGymError, match="materialized 2 rows"):
        key_map(ours, gyms[:2])


def test_missing_gym_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.delenv(nemo_gym.ENV_VAR, raising=False)
    with pytest.raises(NemoGymError, match="install-nemo-gym.sh"):
        nemo_gym.resolve_gym_executable(tmp_path / "no-such-gym")


def test_real_gym_collects_our_keys_and_leaves_nothing_running(gym_executable, policy_endpoint, tmp_path):
    environment = get_environment("string_match")
    source = tmp_path / "source.jsonl"
    source.write_bytes(b"".join(environment.dataset_path.read_bytes().splitlines(keepends=True)[:3]))
    run_dir = tmp_path / "runs" / "ckpt" / "string_match"
    run_dir.mkdir(parents=True)
    materialized = run_dir / "rollouts_materialized_inputs.jsonl"
    materialize_file(source, materialized, 2, "string_match_simple_agent")
    # Keep a non-contiguous subset (task 1 only its rollout 1), as a partial re-collection would send:
    # Gym renumbers rollout indices from 0 per task, the engine must map them back.
    rows = [row for row in _rows(materialized) if (row["_ng_task_index"], row["_ng_rollout_index"]) != (1, 0)]
    materialized.write_bytes(b"".join(orjson.dumps(row) + b"\n" for row in rows))
    before = _ray_and_gym_processes()

    summary = collect_with_nemo_gym(materialized, run_dir / "rollouts.jsonl", environment, policy_endpoint.url,
                                    policy_endpoint.model_name, gym_executable, concurrency=4)

    expected = {(row["_ng_task_index"], row["_ng_rollout_index"]) for row in rows}
    successes = _rows(run_dir / "rollouts.jsonl")
    failures = _rows(run_dir / "rollouts_failures.jsonl")
    got = {(row["_ng_task_index"], row["_ng_rollout_index"]) for row in successes}
    assert got | set(summary.failed_keys) == expected, (got, summary.failed_keys)
    assert (1, 1) in got | set(summary.failed_keys) and (1, 0) not in got
    assert summary.total == len(rows) and summary.collected == len(successes) == len(got)
    assert summary.servers_ready.split(" / ")[0] == summary.servers_ready.split(" / ")[1]
    for row in successes:
        assert row["reward"] in (0.0, 1.0)
        assert row["agent_ref"] == {"name": "string_match_simple_agent"}
        assert row["response"]["usage"]["output_tokens"] > 0
    assert summary.failure_rows == len(failures)
    assert (run_dir / "logs" / "gym_env_start.log").read_text().count("servers ready") >= 1
    assert "Finished rollout collection" in (run_dir / "logs" / "gym_eval_run.log").read_text()
    # Gym's own files stay apart: our materialized inputs are untouched.
    assert _rows(materialized) == rows
    assert (run_dir / "nemo_gym" / "rollouts_materialized_inputs.jsonl").exists()
    assert summary.eval_exit_code == 0
    assert _ray_and_gym_processes() - before == set()
