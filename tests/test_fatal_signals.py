"""A signal that ends a gym-pipeline command leaves one line saying which, and the process still ends by it."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gym_pipeline.fatal_signals import WHO_SENDS
from gym_pipeline.serving.checkpoints import create_checkpoint


def start_policy(tmp_path: Path, **popen) -> tuple[subprocess.Popen, Path]:
    checkpoint = create_checkpoint(tmp_path / "step_0100", 100, 0.5, [])
    ready = tmp_path / "ready"
    log = tmp_path / "serve.log"
    process = subprocess.Popen(
        [sys.executable, "-m", "gym_pipeline.cli", "serve-policy", "--checkpoint", str(checkpoint), "--port", "0",
         "--ready-file", str(ready)],
        stdout=log.open("wb"), stderr=subprocess.STDOUT, **popen)
    deadline = time.monotonic() + 60
    while not ready.exists():
        assert process.poll() is None, log.read_text()
        assert time.monotonic() < deadline, "serve-policy never got ready"
        time.sleep(0.1)
    return process, log


@pytest.mark.parametrize("name", ["SIGHUP", "SIGALRM", "SIGXCPU"])
def test_the_signal_that_ends_a_command_is_named_with_who_sends_it(tmp_path, name):
    process, log = start_policy(tmp_path)
    process.send_signal(signal.Signals[name])
    assert process.wait(timeout=30) == -signal.Signals[name]  # still ended by the signal: launchers record it
    assert f"gym-pipeline serve-policy: ended by {name}: {WHO_SENDS[name]}" in log.read_text()


def test_a_signal_ignored_on_purpose_stays_ignored(tmp_path):
    # nohup's way: SIGHUP ignored before the command starts
    process, log = start_policy(tmp_path, preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN))
    try:
        process.send_signal(signal.SIGHUP)
        time.sleep(1)
        assert process.poll() is None and "ended by" not in log.read_text()
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)
