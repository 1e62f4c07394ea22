"""A run script that waits for its model server with `until curl -s .../v1/models`, run for real by bash against the
simulated policy started with `--slow-start-s` (it answers 503 while it "loads its weights"): curl without `-f` exits
0 on the 503, the wait ends at once, and the collection meets a server that is not ready. With `curl -sf`, the loop
waits until the server is ready and the run is healthy."""

import shutil
from pathlib import Path

import pytest
from script_support import CLI, materialize_line, run_eval_script, string_match_run

from gym_pipeline.diagnose import diagnose
from gym_pipeline.host import free_loopback_port


@pytest.mark.skipif(shutil.which("curl") is None, reason="needs curl")
@pytest.mark.parametrize("curl", ["curl -s", "curl -sf"])
def test_a_readiness_wait_with_curl_without_fail_counts_a_loading_servers_503_as_ready(tmp_path: Path,
                                                                                       curl: str) -> None:
    slow_start = 10 if curl == "curl -sf" else 120  # the twin's loop waits the load out: keep it short
    run, checkpoint = string_match_run(tmp_path, rows=6)
    port = free_loopback_port()
    (run / "run_eval.sh").write_text(
        f"#!/bin/bash\n{CLI} serve-policy --port {port} --checkpoint {checkpoint} --latency-ms 20 "
        f"--slow-start-s {slow_start} > logs/model_server.log 2>&1 &\nSERVER=$!\n"
        "# wait for the model server (vLLM takes a while to load the weights)\n"
        f"until {curl} http://127.0.0.1:{port}/v1/models > /dev/null; do sleep 1; done\n"
        + materialize_line(2)
        + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
        f"--model-url http://127.0.0.1:{port}/v1 --env string_match --concurrency 4\nkill $SERVER\n")
    run_eval_script(run)

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
