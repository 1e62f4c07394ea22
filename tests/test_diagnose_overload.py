"""Overload, made for real: a slow policy with a bounded queue, collected at far more concurrency than it serves.

Its 429s and the queue in its log are throughput/resources (seed 000: concurrency too high), not a
model fault, and the fix names the concurrency the run used and what the server runs.

A server started by the user's script with one request at a time (a low-memory profile) sets the pace of a
collection that a time budget then ends: the fix names the script's line that sets the capacity.
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


def test_an_overload_fix_names_the_settings_the_scripts_concurrency_is_computed_from(tmp_path: Path) -> None:
    """run_eval.sh sizes the concurrency as REPLICAS x PER_REPLICA from serving.env, which still describes a retired
    deployment of 8 replicas: 32 requests at once against one small server."""
    environment = get_environment("string_match")
    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 1, ["string_match"])[0]
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    materialize_file(environment.dataset_path, run / "rollouts_materialized_inputs.jsonl",
                     MaterializationSettings(3, environment.agent_name))
    port = free_loopback_port()
    (run / "serving.env").write_text("# the serving deployment\nREPLICAS=8\nPER_REPLICA=4\n")
    (run / "run_eval.sh").write_text(
        "#!/bin/bash\nsource serving.env\nCONCURRENCY=$((REPLICAS * PER_REPLICA))\n"
        f"{' '.join(CLI)} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
        f"--model-url http://127.0.0.1:{port}/v1 --env string_match --concurrency $CONCURRENCY\n")
    with (run / "logs" / "model_server.log").open("w") as log:
        server = subprocess.Popen([*CLI, "serve-policy", "--checkpoint", str(checkpoint), "--port", str(port),
                                   "--latency-ms", "1500", "--max-running", "2", "--max-waiting", "2"],
                                  stdout=log, stderr=subprocess.STDOUT)
        try:
            time.sleep(2.5)
            with (run / "logs" / "run_eval.log").open("w") as eval_log:
                subprocess.run(["bash", "run_eval.sh"], cwd=run, stdout=eval_log, stderr=subprocess.STDOUT,
                               timeout=240)
        finally:
            server.terminate()
            server.wait(10)

    top = diagnose(run).causes[0]

    assert top.category == "throughput_resources" and "32 requests in flight" in top.title
    assert ("run_eval.sh:4 passes `--concurrency $CONCURRENCY`; run_eval.sh:3 `CONCURRENCY=$((REPLICAS * "
            "PER_REPLICA))`; serving.env:2 `REPLICAS=8`; serving.env:3 `PER_REPLICA=4`") in top.fix


def _served_by_script(tmp_path: Path, profile: str) -> Path:
    environment = get_environment("string_match")
    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 1, ["string_match"])[0]
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (run / "data.jsonl").write_text("".join(environment.dataset_path.read_text().splitlines(keepends=True)[:8]))
    materialize_file(run / "data.jsonl", run / "rollouts_materialized_inputs.jsonl",
                     MaterializationSettings(3, environment.agent_name))
    port = free_loopback_port()
    (run / "serve_policy.sh").write_text(
        f"#!/bin/bash\nPROFILE={profile}\ncase $PROFILE in\n  lowmem) EXTRA=\"--max-running 1\" ;;\n"
        f"  *) EXTRA=\"\" ;;\nesac\nexec {' '.join(CLI)} serve-policy --port {port} --checkpoint {checkpoint} "
        "--latency-ms 800 $EXTRA\n")
    with (run / "logs" / "model_server.log").open("w") as log:
        server = subprocess.Popen(["bash", "serve_policy.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT)
    try:
        time.sleep(2.5)
        (run / "run_eval.sh").write_text(
            f"timeout 15 {' '.join(CLI)} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
            f"--model-url http://127.0.0.1:{port}/v1 --env string_match --concurrency 8\n"
            'echo "collect exited $?"\n')
        with (run / "logs" / "run_eval.log").open("w") as log:
            subprocess.run(["bash", "run_eval.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=120)
    finally:
        server.terminate()
        server.wait(10)
    return run


def test_a_server_script_running_one_request_at_a_time_is_named_when_a_budget_ends_the_run(tmp_path: Path) -> None:
    run = _served_by_script(tmp_path, "lowmem")
    assert "collect exited 124" in (run / "logs" / "run_eval.log").read_text()

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("throughput_resources", "interrupted_collection")
    assert "ran 1 request(s) at a time" in top.title
    assert 'serve_policy.sh:4: lowmem) EXTRA="--max-running 1" ;;' in top.fix


def test_the_same_server_with_its_full_capacity_finishes_in_the_budget(tmp_path: Path) -> None:
    run = _served_by_script(tmp_path, "full")
    assert "collect exited 0" in (run / "logs" / "run_eval.log").read_text()

    assert all(f.id != "interrupted_collection" for f in diagnose(run).findings)
