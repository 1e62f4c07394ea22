"""Running the real NeMo Gym 0.7.0 CLI on generated files, for the differential tests (test_gym_parity.py).

`gym eval run --no-serve` materializes its inputs and writes them before it needs a server; it then fails to
reach the head server, which is expected here. It runs under `unshare --net` (no network but a down `lo`), so
that it can never reach a server another process runs on this host. `gym eval profile` needs no server.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from gym_pipeline.engines import nemo_gym

GYM_TIMEOUT_S = 180
_PLAIN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def gym_executable() -> Path:
    """The installed `gym` (GYM_PIPELINE_NEMO_GYM, else the default install path), or a skip."""
    try:
        gym = nemo_gym.resolve_gym_executable(os.environ.get(nemo_gym.ENV_VAR)
                                              or "/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym")
    except nemo_gym.NemoGymError as error:
        pytest.skip(f"NeMo Gym 0.7.0 is not installed (scripts/install-nemo-gym.sh): {error}")
    if not shutil.which("unshare") or subprocess.run(["unshare", "--net", "true"], capture_output=True).returncode:
        pytest.skip("`unshare --net` cannot make a network namespace here (root needed)")
    return gym


def hydra_value(value: Any) -> str:
    """A Python value as a Hydra override value: `{a:1,b:[x,y]}`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{" + ",".join(f"{key}:{hydra_value(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(hydra_value(item) for item in value) + "]"
    if isinstance(value, str) and not _PLAIN.match(value):
        return "'" + value.replace("'", "\\'") + "'"
    return str(value)


def gym_materialize_arguments(settings: dict[str, Any]) -> list[str]:
    """`gym eval run` options for MaterializationSettings keyword arguments."""
    words = []
    for name, value in settings.items():
        if value is None or value is False or value == {}:
            continue
        if name == "agent":
            words += ["--agent", value]
        elif name == "num_repeats" and isinstance(value, int):
            words += ["--num-repeats", str(value)]
        elif name == "limit":
            words += ["--limit", str(value)]
        elif name == "interleave_repeats":
            words.append("--interleave-repeats")
        elif name == "prompt_config":
            words += ["--prompt-config", str(value)]
        else:  # num_repeats as a mapping, num_repeats_add_seed, agent_map, fan_out, responses_create_params
            words.append(f"++{name}={hydra_value(value)}")
    return words


@dataclass
class GymOutcome:
    output: bytes | None  # the file Gym wrote, None when it wrote none
    log: str


def run_gym_materialize(gym: Path, folder: Path, dataset: Path, settings: dict[str, Any]) -> GymOutcome:
    output = folder / "gym" / "rollouts.jsonl"
    command = ["unshare", "--net", str(gym), "eval", "run", "--no-serve", "--input", str(dataset),
               "--output", str(output), *gym_materialize_arguments(settings)]
    done = subprocess.run(command, capture_output=True, cwd=folder, timeout=GYM_TIMEOUT_S)
    materialized = output.with_name("rollouts_materialized_inputs.jsonl")
    log = (done.stdout + done.stderr).decode(errors="replace")
    return GymOutcome(materialized.read_bytes() if materialized.exists() else None, log)


def run_gym_profile(gym: Path, inputs: Path, rollouts: Path, allow_partial: bool = False) -> GymOutcome:
    """`gym eval profile`; the outcome holds the profile rows (the other files are beside `rollouts`)."""
    command = [str(gym), "eval", "profile", "--inputs", str(inputs), "--rollouts", str(rollouts)]
    if allow_partial:
        command.append("++allow_partial_rollouts=true")
    done = subprocess.run(["unshare", "--net", *command], capture_output=True, cwd=rollouts.parent,
                          timeout=GYM_TIMEOUT_S)
    profile = rollouts.with_name(rollouts.stem + "_reward_profiling.jsonl")
    log = (done.stdout + done.stderr).decode(errors="replace")
    return GymOutcome(profile.read_bytes() if done.returncode == 0 and profile.exists() else None, log)


def run_all(jobs: list, workers: int = 2) -> list:
    """Call each zero-argument job, two at a time (the machine has two cores)."""
    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(lambda job: job(), jobs))
