"""The helpers every layer shares: writing a file atomically, waiting until ready, stopping a process tree."""

import signal
import subprocess
import sys
import time

import docker
import pytest

from gym_pipeline.core.formats import atomic_file
from gym_pipeline.host import (
    EndedBeforeReady,
    NotReadyInTime,
    docker_unreachable,
    process_tree,
    stop_process_tree,
    wait_until_ready,
)


def test_an_atomic_file_appears_whole_or_not_at_all(tmp_path):
    target = tmp_path / "out" / "data.bin"
    with atomic_file(target) as temporary:
        temporary.write_bytes(b"first")
        assert not target.exists()
    assert target.read_bytes() == b"first"
    with pytest.raises(RuntimeError), atomic_file(target) as temporary:
        temporary.write_bytes(b"half")
        raise RuntimeError("killed mid-write")
    assert target.read_bytes() == b"first" and sorted(p.name for p in target.parent.iterdir()) == ["data.bin"]


def test_waiting_returns_the_answer_or_says_why_it_stopped():
    answers = iter([None, 0, "ready"])
    assert wait_until_ready(lambda: next(answers), timeout_s=5, interval_s=0.01) == "ready"
    with pytest.raises(EndedBeforeReady):
        wait_until_ready(lambda: False, timeout_s=5, interval_s=0.01, ended=lambda: True)
    began = time.monotonic()
    with pytest.raises(NotReadyInTime):
        wait_until_ready(lambda: False, timeout_s=0.2, interval_s=0.01)
    assert time.monotonic() - began < 2


DAEMONIZING = """
import subprocess, sys
# A helper that outlives its parent: re-parented to init, it leaves the tree, not the session.
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
print("started", flush=True)
"""
DEAF = "import signal, time; signal.signal(signal.SIGINT, signal.SIG_IGN); print('started', flush=True); time.sleep(120)"


@pytest.mark.parametrize("script", [DAEMONIZING, DEAF], ids=["with a helper", "deaf to SIGINT"])
def test_stopping_a_tree_reaches_everything_it_started(script):
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, start_new_session=True)
    assert process.stdout.readline() == b"started\n"
    if script is DAEMONIZING:
        process.wait()
        assert len(process_tree(process.pid)) == 1  # the helper, found by its session
    assert stop_process_tree(process, signal.SIGINT, grace_s=0.5, kill_wait_s=10) == []
    assert process_tree(process.pid, zombies=True) == []
    assert process.returncode == (0 if script is DAEMONIZING else -signal.SIGKILL)


def test_a_docker_socket_that_refuses_the_user_is_not_called_a_missing_engine(monkeypatch):
    monkeypatch.setenv("DOCKER_HOST", "unix:///var/run/docker.sock")
    refused = docker.errors.DockerException(
        "Error while fetching server API version: ('Connection aborted.', PermissionError(13, 'Permission denied'))")
    assert "refuses this user" in docker_unreachable(refused) and "docker group" in docker_unreachable(refused)
    down = docker.errors.DockerException("Error while fetching server API version: Connection refused")
    assert docker_unreachable(down).startswith("no Docker engine answers at unix:///var/run/docker.sock")
