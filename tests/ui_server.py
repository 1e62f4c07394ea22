"""`gym-pipeline ui` started for a test: the real Dagster webserver and daemon on a free loopback port."""

import json
import signal
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from gym_pipeline.host import NotReadyInTime, free_loopback_port, stop_process_tree, wait_until_ready

REPO = Path(__file__).resolve().parents[1]


class UI:
    def __init__(self, port: int, home: Path):
        self.port, self.home = port, home
        self.url = f"http://127.0.0.1:{port}"

    def graphql(self, query: str, variables: dict | None = None) -> dict:
        request = urllib.request.Request(f"{self.url}/graphql", headers={"Content-Type": "application/json"},
                                         data=json.dumps({"query": query, "variables": variables or {}}).encode())
        with urllib.request.urlopen(request, timeout=60) as answer:
            return json.loads(answer.read())["data"]


def wait_until(predicate, timeout_s: float, what: str, interval_s: float = 1.0):
    try:
        return wait_until_ready(predicate, timeout_s, interval_s)
    except NotReadyInTime:
        pytest.fail(f"timed out after {timeout_s:.0f}s waiting for {what}")


@contextmanager
def running_ui(home: Path, log_dir: Path) -> Iterator[UI]:
    """Start the UI on `home`, wait until its code location serves assets, and stop it (process group) after."""
    port = free_loopback_port()
    log_path = log_dir / "ui.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "gym_pipeline.cli", "ui", "--home", str(home), "--port", str(port)],
            cwd=REPO, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
        ui = UI(port, home)
        try:
            def loaded():
                try:
                    return ui.graphql("{ assetNodes { assetKey { path } } }")["assetNodes"]
                except OSError:
                    assert process.poll() is None, f"the UI exited:\n{log_path.read_text()[-3000:]}"
                    return None

            wait_until(loaded, 180, "the Dagster UI and its code location")
            yield ui
        finally:
            stop_process_tree(process, signal.SIGTERM, grace_s=60)
