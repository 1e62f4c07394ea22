"""Overload, made for real: a slow policy with a bounded queue, collected at far more concurrency than it serves.

Its 429s and the queue in its log are throughput/resources (seed 000: concurrency too high), not a
model fault, and the fix names the concurrency the run used and what the server runs.
"""

import subprocess
import sys
import time
from pathlib import Path

from gym_pipeline.core.materialize import MaterializationSettings, materialize_file
from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment
from gym_pipeline.host import free_loopback_port
from gym_pipeline.serving.checkpoints import demo_checkpoints

CLI = [sys.executable, "-m", "gym_pipeline.cli"]


def test_a_queue_deeper_than_the_batch_is_overload_not_a_model_fault(tmp_path: Path) -> None:
    environment = get_environment("string_match")
    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 1, ["string_match"])[0]
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    inputs = run / "rollouts_materialized_inputs.jsonl"
    materialize_file(environment.dataset_path, inputs, MaterializationSettings(3, environment.agent_name))
    port = free_loopback_port()
    with (run / "logs" / "model_server.log").open("w") as log:
        server = subprocess.Popen([*CLI, "serve-policy", "--checkpoint", str(checkpoint), "--port", str(port),
                                   "--latency-ms", "2500", "--max-running", "2", "--max-waiting", "4"],
                                  stdout=log, stderr=subprocess.STDOUT)
        try:
            time.sleep(2.5)
            collected = subprocess.run([*CLI, "collect", "--inputs", str(inputs), "--output", str(run / "rollouts.jsonl"),
                                        "--model-url", f"http://127.0.0.1:{port}/v1", "--env", "string_match",
                                        "--concurrency", "32"], capture_output=True, text=True, timeout=240)
            time.sleep(2.5)  # one more load line
        finally:
            server.terminate()
            server.wait(10)
    assert "failed" in collected.stderr, collected.stderr
    report = diagnose(run)
    assert report.category == "throughput_resources", [(f.category, f.title) for f in report.findings]
    top = report.causes[0]
    assert "32 requests in flight" in top.title
    assert "Lower the concurrency from 32 to about 2" in top.fix and "--concurrency 2" in top.fix
    assert any("Waiting:" in line.text for line in top.evidence)
