"""A serving script that keeps a `PORT` the shell already has (`PORT=${PORT:-$MODEL_PORT}`), run for real from a shell
whose profile exports PORT for a notebook server: the model server comes up on the notebook's port, the run asks for
MODEL_PORT, where nothing listens, and nothing is collected. The diagnosis names the line that inherits the port.
From a shell without PORT, the server is on MODEL_PORT and the run is healthy."""

import os
from pathlib import Path

import pytest
from script_support import CLI, materialize_line, run_eval_script, string_match_run

from gym_pipeline.diagnose import diagnose
from gym_pipeline.host import free_loopback_port


@pytest.mark.parametrize("notebook_port", [True, False])
def test_a_server_port_inherited_from_the_environment_is_named_with_its_line(tmp_path: Path, notebook_port: bool) -> None:
    run, checkpoint = string_match_run(tmp_path, rows=6)
    (run / "serve.sh").write_text("#!/bin/bash\n# serve.sh CHECKPOINT: on $PORT when set (a second server by hand), "
                                  "else the eval's MODEL_PORT\nPORT=${PORT:-$MODEL_PORT}\necho \"serving on $PORT\"\n"
                                  f"exec {CLI} serve-policy --port $PORT --checkpoint \"$1\" --latency-ms 30\n")
    (run / "run_eval.sh").write_text(
        f"#!/bin/bash\nexport MODEL_PORT={free_loopback_port()}\n"
        f"bash serve.sh {checkpoint} > logs/serve.log 2>&1 &\n"
        "for i in $(seq 20); do (echo > /dev/tcp/127.0.0.1/$MODEL_PORT) 2>/dev/null && break; sleep 1; done\n"
        + materialize_line(2)
        + f"timeout 30 {CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
        "--model-url http://127.0.0.1:$MODEL_PORT/v1 --env string_match --concurrency 4\nkill %1\n")
    shell = {key: value for key, value in os.environ.items() if key != "PORT"}
    if notebook_port:  # the login profile's export for the team's notebook server
        shell["PORT"] = str(free_loopback_port())
    run_eval_script(run, env=shell)

    report = diagnose(run)

    if not notebook_port:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "endpoint_not_where_server_listens"), [
        f.title for f in report.causes]
    assert top.title.endswith(f"and the model server listens on port {shell['PORT']}: serve.sh:3 takes its port from "
                              "$PORT when the environment sets it")
    assert top.evidence[-1].where == "serve.sh:3"
    assert top.fix.startswith("In serve.sh, give the server's port a name of its own and do not inherit it (`PORT=<the "
                              "run's port>` instead of `PORT=${PORT:-$MODEL_PORT}`")
