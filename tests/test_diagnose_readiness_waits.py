"""A run script that waits for its model server with `until curl -s .../v1/models`, run for real by bash against the
simulated policy started with `--slow-start-s` (it answers 503 while it "loads its weights"): curl without `-f` exits
0 on the 503, the wait ends at once, and the collection meets a server that is not ready. With `curl -sf`, the loop
waits until the server is ready and the run is healthy."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment
from gym_pipeline.host import free_loopback_port
from gym_pipeline.serving.checkpoints import demo_checkpoints

CLI = f"{sys.executable} -m gym_pipeline.cli"


@pytest.mark.skipif(shutil.which("curl") is None, reason="needs curl")
@pytest.mark.parametrize("curl", ["curl -s", "curl -sf"])
def test_a_readiness_wait_with_curl_without_fail_counts_a_loading_servers_503_as_ready(tmp_path: Path,
                                                                                       curl: str) -> None:
    slow_start = 10 if curl == "curl -sf" else 120  # the twin's loop waits the load out: keep it short
    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 1, ["string_match"])[0]
    port = free_loopback_port()
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    rows = get_environment("string_match").dataset_path.read_text().splitlines(keepends=True)
    (run / "data.jsonl").write_text("".join(rows[:6]))
    (run / "run_eval.sh").write_text(
        f"#!/bin/bash\n{CLI} serve-policy --port {port} --checkpoint {checkpoint} --latency-ms 20 "
        f"--slow-start-s {slow_start} > logs/model_server.log 2>&1 &\nSERVER=$!\n"
        "# wait for the model server (vLLM takes a while to load the weights)\n"
        f"until {curl} http://127.0.0.1:{port}/v1/models > /dev/null; do sleep 1; done\n"
        f"{CLI} materialize --input data.jsonl --num-repeats 2 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
        f"--model-url http://127.0.0.1:{port}/v1 --env string_match --concurrency 4\nkill $SERVER\n")
    with (run / "logs" / "run_eval.log").open("w") as log:
        subprocess.run(["bash", "run_eval.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=300)

    report = diagnose(run)

    if curl == "curl -sf":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "503" in (run / "logs" / "run_eval.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "readiness_wait_counts_an_error_as_ready"), [
        f.title for f in report.causes]
    assert top.title == ("run_eval.sh:5 waits for the model server with `curl` without `-f`: a 503 of a server still "
                         "loading counted as ready, and the collection started before it could answer")
    assert top.fix.startswith("In run_eval.sh:5, wait with `curl -f`")
