"""A node's hourly log rotation, copied from nginx's logrotate config, run for real beside a collection: it moves the
model server's log aside and sends the server SIGHUP to reopen it; the server ends instead, and the collection's
requests meet nothing (model serving, the rotation's `kill -HUP` named, its rotated log read). Rotating with a copy
and truncate, without HUP, the run is healthy."""

from pathlib import Path

import pytest
from script_support import CLI, MATERIALIZE, WAIT_FOR_PORT, run_eval_script, string_match_run

from gym_pipeline.diagnose import diagnose
from gym_pipeline.host import free_loopback_port

ROTATIONS = {"hangup": "mv logs/model_server.log logs/model_server.log.1\nkill -HUP $(cat model_server.pid)\n",
             "copytruncate": "cp logs/model_server.log logs/model_server.log.1\n: > logs/model_server.log\n"}


@pytest.mark.parametrize(("rotation", "script_kept"), [("hangup", True), ("hangup", False), ("copytruncate", True)])
def test_a_log_rotation_sending_sighup_ends_the_model_server(tmp_path: Path, rotation: str, script_kept: bool) -> None:
    """With the rotation's script in the run folder, its `kill -HUP` is named; with the node's own (not in the folder),
    the server's log moved aside (`model_server.log.1`) tells that a rotation sent the hangup."""
    run, checkpoint = string_match_run(tmp_path, rows=8)
    port = free_loopback_port()
    rotate = run / "rotate_logs.sh" if script_kept else tmp_path / "etc" / "rotate_logs.sh"
    rotate.parent.mkdir(exist_ok=True)
    rotate.write_text("#!/bin/bash\n# hourly (cron): rotate the services' logs and have them reopen"
                                        f" them\n{ROTATIONS[rotation]}")
    (run / "run_eval.sh").write_text(
        f"#!/bin/bash\n{CLI} serve-policy --port {port} --checkpoint {checkpoint} --latency-ms 300 "
        ">> logs/model_server.log 2>&1 &\necho $! > model_server.pid\n"
        + WAIT_FOR_PORT.format(port=port) + MATERIALIZE
        + f"(sleep 3; bash {rotate} > logs/rotate.log 2>&1) &  # the hour strikes during the collection\n"
        f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
        f"--model-url http://127.0.0.1:{port}/v1 --env string_match --concurrency 2\n"
        "kill $(cat model_server.pid) 2>/dev/null\n")
    run_eval_script(run)

    report = diagnose(run)

    if rotation == "copytruncate":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "ended by SIGHUP" in (run / "logs" / "model_server.log.1").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "model_server_ended_by_a_scripts_hangup"), [
        f.title for f in report.causes]
    if not script_kept:
        assert top.title.startswith("A log rotation sent SIGHUP (logs/model_server.log.1 is the copy it moved aside), "
                                    "and the model server ended by it"), top.title
        return
    assert top.title == ("rotate_logs.sh:4 sends SIGHUP (`kill -HUP`), and the model server ended by it: it does not "
                         "reopen its log on HUP, it stops")
    assert top.fix.startswith("In rotate_logs.sh, do not send HUP to the model server")
