"""A run refused by the run directory's lock, told apart by whose the writer holding it is.

Last week's CI job hung on a model server that accepted connections and never answered; the runner cancelled it by
killing its shell alone, so its `gym-pipeline collect` lived on as an orphan holding the run directory. This week's
run_eval.sh, against this week's server, is refused at once: the holder collects against a URL nothing of this run
names, so the diagnosis names a leftover process (infra) and its pid to kill. Its twin: the holder is a second start
of this run's own collect, against the same server: two writers on one folder (cache/resume)."""

import socket
import subprocess
from pathlib import Path

import pytest
from launcher_support import wait_for
from script_support import CLI, MATERIALIZE, WAIT_FOR_PORT, string_match_run

from gym_pipeline.diagnose import diagnose
from gym_pipeline.host import free_loopback_port

COLLECT = f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --env string_match "


@pytest.mark.parametrize("holder", ["last_weeks_orphan", "second_start"])
def test_a_collect_left_running_by_a_cancelled_job_holds_the_run_directory(tmp_path: Path, holder: str) -> None:
    run, checkpoint = string_match_run(tmp_path, 6)
    port = free_loopback_port()
    hung = socket.create_server(("127.0.0.1", 0))  # last week's server: accepts connections, never answers
    hung_url = f"http://127.0.0.1:{hung.getsockname()[1]}/v1"
    with (run / "logs" / "model_server.log").open("w") as log:
        policy = subprocess.Popen([*CLI.split(), "serve-policy", "--checkpoint", str(checkpoint), "--port", str(port),
                                   "--latency-ms", "3000"], stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/v1"
    (run / "run_eval.sh").write_text("#!/bin/bash\n# weekly eval\n" + WAIT_FOR_PORT.format(port=port) + MATERIALIZE
                                     + COLLECT + f"--model-url {url} --concurrency 1\n")
    left = None
    try:
        subprocess.run(["bash", "-c", MATERIALIZE], cwd=run, check=True, capture_output=True, timeout=120)
        with (run / "logs" / "last_week_run_eval.log").open("w") as log:  # its shell is gone: only the collect lives
            left = subprocess.Popen(["bash", "-c", COLLECT + "--model-url "
                                     + (hung_url if holder == "last_weeks_orphan" else url) + " --concurrency 1"],
                                    cwd=run, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        assert wait_for(lambda: "collecting" in (run / "manifest.json").read_text(), 120)  # it holds the lock
        with (run / "logs" / "run_eval.log").open("w") as log:
            subprocess.run(["bash", "run_eval.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=300)
    finally:
        if left is not None:
            left.kill()
            left.wait()
        policy.terminate()
        policy.wait(10)
        hung.close()
    assert "is in use by pid" in (run / "logs" / "run_eval.log").read_text()

    report = diagnose(run)

    if holder == "second_start":  # what stopped it is the test's kill; the refusal is two writers, not a leftover
        [refused] = [f for f in report.findings if f.id == "run_directory_in_use"]
        assert refused.category == "cache_resume", refused.title
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "run_directory_in_use"), [f.title for f in report.causes]
    assert top.title == (f"An earlier run's collect (pid {left.pid}, against {hung_url}, which nothing of this run "
                         "uses) still holds the run directory: this run's collect was refused")
    assert top.fix.startswith(f"Stop the leftover collect: `kill {left.pid}`")
    assert "process group" in top.fix
