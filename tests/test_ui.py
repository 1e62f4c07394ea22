"""`gym-pipeline ui` starts the real Dagster webserver on loopback with the sweep's assets."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _graphql(port: int, query: str) -> dict:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/graphql", data=json.dumps({"query": query}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


@pytest.fixture
def ui_server(tmp_path):
    port = _free_port()
    log = (tmp_path / "ui.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "gym_pipeline.cli", "ui", "--home", str(tmp_path / "home"), "--port", str(port)],
        cwd=REPO, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env=os.environ.copy(),
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/server_info", timeout=2):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"Dagster UI did not come up:\n{(tmp_path / 'ui.log').read_text()[-3000:]}")
                time.sleep(0.5)
        yield port
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()


def test_ui_serves_the_sweep_assets(ui_server):
    deadline = time.monotonic() + 60
    while True:  # the code location loads a moment after the server answers
        nodes = _graphql(ui_server, "{ assetNodes { assetKey { path } } }").get("data", {}).get("assetNodes") or []
        if nodes or time.monotonic() > deadline:
            break
        time.sleep(1)
    keys = {node["assetKey"]["path"][-1] for node in nodes}
    assert {"source_dataset", "materialized_inputs", "rollouts", "reward_profile", "diagnostic_report"} <= keys
