"""A serving script that starts the model server in the background and returns, run for real: with `trap 'kill 0'
EXIT` kept from a development script, its end stops the server it just started, and the collection that follows is
refused (model serving: the trap's line named). Without the trap, the server outlives the script and the run is
healthy."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from script_support import CLI, materialize_line, string_match_run

from gym_pipeline.diagnose import diagnose


@pytest.mark.parametrize("trap", [True, False])
def test_an_exit_trap_of_the_serving_script_stops_the_server_it_started(tmp_path: Path, trap: bool) -> None:
    run, checkpoint = string_match_run(tmp_path, rows=6)
    (run / "serve.sh").write_text(
        "#!/bin/bash\n# serve.sh: start the policy server and write its URL to model.env\n"
        + ("trap 'kill 0' EXIT  # from dev_serve.sh: never leave child processes behind\n" if trap else "")
        + f"rm -f policy_url.txt\n{CLI} serve-policy --port 0 --ready-file policy_url.txt --checkpoint {checkpoint} "
        ">> logs/model_server.log 2>&1 &\necho $! > server.pid\nfor i in $(seq 60); do [ -s policy_url.txt ] && break; sleep 0.5; done\n"
        "echo \"MODEL_URL=$(cat policy_url.txt)\" > model.env\n")
    (run / "run_eval.sh").write_text(
        "#!/bin/bash\nset -m  # each command in a process group of its own, as at the user's prompt\nbash serve.sh\n"
        "source model.env\n" + materialize_line(2)
        + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $MODEL_URL "
        "--env string_match --concurrency 4\nkill $(cat server.pid) 2>/dev/null\n")
    with (run / "logs" / "run_eval.log").open("w") as log:  # in a session of its own: `kill 0` never reaches the tests
        subprocess.run(["bash", "run_eval.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=300,
                       start_new_session=True)

    report = diagnose(run)

    if not trap:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "stopped by SIGTERM" in (run / "logs" / "model_server.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "endpoint_not_where_server_listens"), [
        f.title for f in report.causes]
    assert top.title.startswith("serve.sh:3 `trap 'kill 0' EXIT` stops the model server it started when serve.sh ends")
    assert "drop `trap 'kill 0' EXIT`" in top.fix and "nohup" in top.fix
