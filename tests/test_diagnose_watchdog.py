"""A user's watchdog script, run for real: it restarts the simulated policy whenever its health check fails.

Checking `$MODEL_URL/health` with MODEL_URL ending in /v1 asks /v1/health, which no model server answers: the
watchdog kills a serving server again and again, and the diagnosis names the script, the route and the restarts.
The same watchdog checking the server's root /health starts it once and is no finding.
"""

import subprocess
import sys
import time
from pathlib import Path

import pytest

from gym_pipeline.core.materialize import MaterializationSettings, materialize_file
from gym_pipeline.diagnose import diagnose
from gym_pipeline.diagnose.vocabulary import MODEL_SERVING
from gym_pipeline.environments import get_environment
from gym_pipeline.host import free_loopback_port
from gym_pipeline.serving.checkpoints import demo_checkpoints

CLI = [sys.executable, "-m", "gym_pipeline.cli"]
WATCHDOG = """#!/bin/bash
# keep the model server up: restart it whenever its health check fails
PORT=$1
CKPT=$2
MODEL_URL=http://127.0.0.1:$PORT/v1
start() {
  {cli} serve-policy --port $PORT --checkpoint $CKPT &
  PID=$!
}
start
sleep 3
while true; do
  if ! curl -sf --max-time 2 {checked} > /dev/null; then
    echo "$(date +%T) health check failed: restarting the model server (pid $PID)"
    kill $PID; wait $PID
    start
    sleep 3
  fi
  sleep 0.5
done
"""


def _watched_run(tmp_path: Path, checked: str, seconds: float) -> Path:
    """A run folder whose model server ran under the watchdog for `seconds`, with a collection against it."""
    environment = get_environment("string_match")
    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 1, ["string_match"])[0]
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    script = run / "serve_with_watchdog.sh"
    script.write_text(WATCHDOG.replace("{cli}", " ".join(CLI)).replace("{checked}", checked))
    port = free_loopback_port()
    inputs = run / "rollouts_materialized_inputs.jsonl"
    materialize_file(environment.dataset_path, inputs, MaterializationSettings(2, environment.agent_name))
    with (run / "logs" / "model_server.log").open("w") as log:
        watchdog = subprocess.Popen(["bash", str(script), str(port), str(checkpoint)], stdout=log,
                                    stderr=subprocess.STDOUT, start_new_session=True)
    try:
        time.sleep(seconds)
        with (run / "logs" / "run_eval.log").open("w") as log:
            subprocess.run([*CLI, "collect", "--inputs", str(inputs), "--output", str(run / "rollouts.jsonl"),
                            "--model-url", f"http://127.0.0.1:{port}/v1", "--env", "string_match"],
                           stdout=log, stderr=subprocess.STDOUT, timeout=120)
    finally:
        subprocess.run(["pkill", "-TERM", "-s", str(watchdog.pid)], check=False)
        watchdog.wait(timeout=30)
    return run


@pytest.mark.skipif(subprocess.run(["which", "curl"], capture_output=True).returncode != 0, reason="needs curl")
def test_a_watchdog_checking_v1_health_restarts_a_serving_server(tmp_path: Path) -> None:
    run = _watched_run(tmp_path, "$MODEL_URL/health", seconds=12)
    starts = (run / "logs" / "model_server.log").read_text().count("SIMULATED_POLICY_READY")
    assert starts >= 2, "the watchdog did not restart the server"

    report = diagnose(run)

    top = report.causes[0]
    assert top.category == MODEL_SERVING
    assert top.id == "watchdog_checks_a_route_the_server_lacks"
    assert "/v1/health" in top.cause and "serve_with_watchdog.sh" in top.fix and "/health`" in top.fix
    assert top.evidence[0].file == "serve_with_watchdog.sh"


@pytest.mark.skipif(subprocess.run(["which", "curl"], capture_output=True).returncode != 0, reason="needs curl")
def test_a_watchdog_checking_the_root_health_route_is_no_finding(tmp_path: Path) -> None:
    run = _watched_run(tmp_path, "http://127.0.0.1:$PORT/health", seconds=6)
    assert (run / "logs" / "model_server.log").read_text().count("SIMULATED_POLICY_READY") == 1

    report = diagnose(run)

    assert all(f.id != "watchdog_checks_a_route_the_server_lacks" for f in report.findings)
