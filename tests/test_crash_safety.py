"""Crash safety and one writer per run directory, with the real `gym-pipeline` command and simulated policy.

Collections are SIGKILLed at random (seeded) points and resumed; two runs race for one run directory.
Nothing asserts on timing: a kill that lands early or late is a different trial, equally valid.
"""

import asyncio
import os
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import orjson
import pytest

from gym_pipeline.config import ModelServerConfig
from gym_pipeline.core.formats import MATERIALIZED_INPUTS_FILE, ROLLOUTS_FILE, TornLine, drop_torn_last_line
from gym_pipeline.core.materialize import MaterializationSettings, materialize_and_record
from gym_pipeline.core.run_lock import LOCK_FILE
from gym_pipeline.engines.builtin import CollectorSettings, collect, failures_path_for
from gym_pipeline.environments import get_environment
from gym_pipeline.host import EndedBeforeReady, NotReadyInTime, wait_until_ready
from gym_pipeline.serving.checkpoints import demo_checkpoints
from gym_pipeline.serving.servers import serve_checkpoint

GYM_PIPELINE = Path(sys.executable).with_name("gym-pipeline")
ENV = "string_match"
REPEATS = 2
TRIALS = 6
LATENCY_MS = 50  # 174 rows at concurrency 8: about a second of collecting to land kills in
WAIT_S = 120  # a safety net against a hung subprocess, not a timing assertion


@pytest.fixture(scope="module")
def slow_policy(tmp_path_factory):
    """The simulated policy with latency on every request, so that a collection can be killed midway."""
    root = tmp_path_factory.mktemp("slow_checkpoints")
    checkpoint = demo_checkpoints(root, 1, [ENV])[0]
    with serve_checkpoint(ModelServerConfig(latency_ms=LATENCY_MS), checkpoint.name, checkpoint, root) as endpoint:
        yield endpoint


class _Command:
    """A `gym-pipeline` subprocess; its stderr goes to a file, so no pipe fills up."""

    def __init__(self, log_dir: Path, *args: str):
        self.stderr_path = log_dir / f"gym-pipeline.{time.monotonic_ns()}.stderr"
        with self.stderr_path.open("wb") as stderr:
            # COLUMNS: rich would wrap long messages at 80 columns on a pipe.
            self.process = subprocess.Popen([GYM_PIPELINE, *args], stdout=subprocess.DEVNULL, stderr=stderr,
                                            env=os.environ | {"COLUMNS": "1000"})

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def stderr(self) -> str:
        return self.stderr_path.read_text()

    def wait(self) -> int:
        return self.process.wait(timeout=WAIT_S)

    def kill(self) -> None:
        self.process.kill()  # SIGKILL: no handler, no cleanup
        self.process.wait(timeout=WAIT_S)


def _materialize(run_dir: Path) -> Path:
    environment = get_environment(ENV)
    inputs = run_dir / MATERIALIZED_INPUTS_FILE
    materialize_and_record(environment.dataset_path, inputs, MaterializationSettings(REPEATS, environment.agent_name))
    return inputs


def _collect(run_dir: Path, endpoint, concurrency: int, resume: bool = False) -> _Command:
    return _Command(run_dir.parent, "collect", "--inputs", str(run_dir / MATERIALIZED_INPUTS_FILE),
                    "--output", str(run_dir / ROLLOUTS_FILE), "--model-url", endpoint.url, "--env", ENV,
                    "--concurrency", str(concurrency), *(["--resume"] if resume else []))


def _lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def _is_torn(path: Path) -> bool:
    return path.exists() and path.stat().st_size > 0 and not path.read_bytes().endswith(b"\n")


def _holder_pid(run_dir: Path) -> int | None:
    """The pid recorded in the run directory's lock file (a dead holder's too), if any."""
    try:
        return orjson.loads((run_dir / LOCK_FILE).read_bytes())["pid"]
    except (FileNotFoundError, orjson.JSONDecodeError):
        return None


def _wait_for_holder(run_dir: Path, command: _Command) -> None:
    try:
        wait_until_ready(lambda: _holder_pid(run_dir) == command.pid, WAIT_S, 0.01,
                         ended=lambda: command.process.poll() is not None)
    except (EndedBeforeReady, NotReadyInTime):
        raise AssertionError(command.stderr) from None


def _kill_at_random_point(command: _Command, rollouts: Path, rng: random.Random, total: int) -> None:
    """SIGKILL a few milliseconds after `command` has written a random number of rows (none: just after its start)."""
    target = rng.randrange(_lines(rollouts), total + 1)  # total: killed as it finishes
    while command.process.poll() is None and _lines(rollouts) < target:
        time.sleep(0.002)
    time.sleep(rng.uniform(0, 0.03))
    command.kill()


def _key(row: dict) -> tuple[int, int]:
    return row["_ng_task_index"], row["_ng_rollout_index"]


def _assert_every_row_exactly_once(run_dir: Path) -> None:
    """Each materialized key is in rollouts.jsonl exactly once, or given up (terminal) in the sidecar."""
    expected = {_key(orjson.loads(line)) for line in (run_dir / MATERIALIZED_INPUTS_FILE).read_bytes().splitlines()}
    data = (run_dir / ROLLOUTS_FILE).read_bytes()
    assert data.endswith(b"\n")
    collected = Counter(_key(orjson.loads(line)) for line in data.splitlines())  # every line valid JSON
    assert [key for key, count in collected.items() if count > 1] == []
    failures = failures_path_for(run_dir / ROLLOUTS_FILE)
    sidecar = [orjson.loads(line) for line in failures.read_bytes().splitlines()] if failures.exists() else []
    given_up = {key for key, attempts in Counter(map(_key, sidecar)).items() if attempts >= 3}
    assert not given_up & set(collected)
    assert set(collected) | given_up == expected


def test_collection_killed_at_random_points_resumes_with_every_row_once(slow_policy, tmp_path):
    rng = random.Random(8)
    for trial in range(TRIALS):
        run_dir = tmp_path / f"trial{trial}"
        total = _lines(_materialize(run_dir))
        rollouts = run_dir / ROLLOUTS_FILE
        for kill in range(1 + rng.randrange(2)):  # killed once, or killed again while resuming
            _kill_at_random_point(_collect(run_dir, slow_policy, 8, resume=kill > 0), rollouts, rng, total)
        torn = [path for path in (rollouts, failures_path_for(rollouts)) if _is_torn(path)]
        dead_holder = _holder_pid(run_dir)

        resumed = _collect(run_dir, slow_policy, 8, resume=True)
        assert resumed.wait() == 0, resumed.stderr
        _assert_every_row_exactly_once(run_dir)
        for path in torn:
            assert f"{path}:" in resumed.stderr and "removed a torn last line" in resumed.stderr
        if dead_holder is not None:
            assert f"taking over the lock of pid {dead_holder} (gym-pipeline collect" in resumed.stderr
        assert (run_dir / LOCK_FILE).read_bytes() == b""  # released cleanly this time


def _tear(rollouts: Path, kept: int, torn_bytes: int) -> None:
    """Leave `rollouts` as a run killed while writing row `kept + 1` would."""
    lines = rollouts.read_bytes().splitlines(keepends=True)
    rollouts.write_bytes(b"".join(lines[:kept]) + lines[kept][:torn_bytes])


def test_torn_last_lines_are_cut_and_reported_by_collect_resume(policy_endpoint, tmp_path):
    run_dir = tmp_path / "run"
    inputs = _materialize(run_dir)
    rollouts, failures = run_dir / ROLLOUTS_FILE, failures_path_for(run_dir / ROLLOUTS_FILE)
    asyncio.run(collect(inputs, rollouts, get_environment(ENV), CollectorSettings(model_url=policy_endpoint.url)))
    _tear(rollouts, kept=40, torn_bytes=30)
    failures.write_bytes(b'{"_ng_failure_class": "agent_req')  # a sidecar row cut mid-write

    resumed = _collect(run_dir, policy_endpoint, 8, resume=True)
    assert resumed.wait() == 0, resumed.stderr
    assert f"{rollouts}:41: removed a torn last line (30 bytes without a newline" in resumed.stderr
    assert f"{failures}:1: removed a torn last line (32 bytes without a newline" in resumed.stderr
    assert f"{_lines(inputs) - 40} collected, 40 already done, 0 failed" in resumed.stderr
    assert failures.read_bytes() == b""
    _assert_every_row_exactly_once(run_dir)


def test_collect_summary_lists_the_repaired_lines(policy_endpoint, tmp_path):
    inputs = _materialize(tmp_path)
    rollouts = tmp_path / ROLLOUTS_FILE
    settings = CollectorSettings(model_url=policy_endpoint.url)
    assert asyncio.run(collect(inputs, rollouts, get_environment(ENV), settings)).torn_lines_repaired == []
    _tear(rollouts, kept=7, torn_bytes=12)
    summary = asyncio.run(collect(inputs, rollouts, get_environment(ENV), settings, resume=True))
    assert summary.torn_lines_repaired == [TornLine(rollouts, 8, 12)]
    assert summary.resumed == 7 and drop_torn_last_line(rollouts) is None
    _assert_every_row_exactly_once(tmp_path)


def _first_to_exit(*commands: _Command) -> _Command:
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        for command in commands:
            if command.process.poll() is not None:
                return command
        time.sleep(0.01)
    raise AssertionError("no command exited")


def test_two_collections_racing_for_one_run_directory(slow_policy, tmp_path):
    run_dir = tmp_path / "run"
    _materialize(run_dir)
    # Started together at concurrency 1 (seconds of work): one takes the lock, the other must be refused.
    racers = [_collect(run_dir, slow_policy, 1) for _ in range(2)]
    refused = _first_to_exit(*racers)
    [winner] = [racer for racer in racers if racer is not refused]
    assert refused.wait() == 2, refused.stderr
    assert (f"error: run directory {run_dir.resolve()} is in use by pid {winner.pid} (gym-pipeline collect"
            in refused.stderr)
    assert "wait for it or stop it" in refused.stderr and "Traceback" not in refused.stderr
    winner.kill()
    resumed = _collect(run_dir, slow_policy, 16, resume=True)
    assert resumed.wait() == 0, resumed.stderr
    _assert_every_row_exactly_once(run_dir)


def test_materialize_is_refused_while_a_collection_holds_the_run_directory(slow_policy, tmp_path):
    run_dir = tmp_path / "run"
    inputs = _materialize(run_dir)
    before = inputs.read_bytes()
    collecting = _collect(run_dir, slow_policy, 1)
    _wait_for_holder(run_dir, collecting)
    environment = get_environment(ENV)
    rebuild = _Command(tmp_path, "materialize", "--input", str(environment.dataset_path), "--num-repeats", "3",
                       "--agent", environment.agent_name, "--output", str(inputs))
    assert rebuild.wait() == 2
    assert f"run directory {run_dir.resolve()} is in use by pid {collecting.pid} (gym-pipeline collect" in rebuild.stderr
    collecting.kill()
    assert inputs.read_bytes() == before  # the inputs under the collection were left alone


def test_the_lock_of_a_killed_collection_is_taken_over(slow_policy, tmp_path):
    run_dir = tmp_path / "run"
    _materialize(run_dir)
    killed = _collect(run_dir, slow_policy, 1)
    _wait_for_holder(run_dir, killed)
    killed.kill()
    assert _holder_pid(run_dir) == killed.pid  # its record outlives it; its flock does not
    resumed = _collect(run_dir, slow_policy, 16, resume=True)
    assert resumed.wait() == 0, resumed.stderr
    assert f"taking over the lock of pid {killed.pid} (gym-pipeline collect" in resumed.stderr
    _assert_every_row_exactly_once(run_dir)


@pytest.mark.parametrize(("recorded", "now", "resumed"), [
    ("sha256:a", "sha256:a", True),  # the same weights: finish the collection cut short
    ("sha256:a", "sha256:b", False),  # another checkpoint in the folder: start afresh
    (None, None, False),  # unknown on both sides is not the same: a folder overwritten in place looks like this
])
def test_a_cut_short_collection_is_resumed_only_on_a_checkpoint_known_to_be_the_same(recorded, now, resumed):
    from gym_pipeline.core.manifest import COLLECTING
    from gym_pipeline.stages import _interrupted_on_same_inputs

    previous = {"status": COLLECTING, "inputs": {"digest": "sha256:inputs"}, "checkpoint": {"digest": recorded}}
    assert _interrupted_on_same_inputs(previous, "sha256:inputs", now) is resumed
