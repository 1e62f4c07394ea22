"""A serving script that keeps a `PORT` the shell already has (`PORT=${PORT:-$MODEL_PORT}`), run for real from a shell
whose profile exports PORT for a notebook server: the model server comes up on the notebook's port, the run asks for
MODEL_PORT, where nothing listens, and nothing is collected. The diagnosis names the line that inherits the port.
From a shell without PORT, the server is on MODEL_PORT and the run is healthy. And a new checkpoint's server on the
team's fixed port that last week's server still holds: the eval measures last week's checkpoint."""

import os
import subprocess
from pathlib import Path

import pytest
from script_support import CLI, listening, materialize_line, run_eval_script, string_match_run

from gym_pipeline.diagnose import diagnose
from gym_pipeline.host import free_loopback_port, wait_until_ready
from gym_pipeline.serving.checkpoints import demo_checkpoints


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


@pytest.mark.parametrize("port", ["held", "free"])
def test_a_new_checkpoints_server_on_a_port_last_weeks_server_holds_is_named_with_its_checkpoint(tmp_path: Path,
                                                                                                 port: str) -> None:
    """Last week's server (step_0100), started by hand, still holds the team's fixed port: this week's (step_0200)
    cannot bind it, and the eval collects from last week's (model serving; the fix names step_0200). On a free port,
    the new server answers and the run is healthy."""
    run, _ = string_match_run(tmp_path, rows=6)
    old, new = demo_checkpoints(tmp_path / "weekly", 2, ["string_match"])
    fixed = free_loopback_port()
    with (tmp_path / "last_week.log").open("w") as log:  # outside the run folder: nobody kept its log
        last_week = subprocess.Popen([*CLI.split(), "serve-policy", "--port", str(fixed), "--checkpoint", str(old)],
                                     stdout=log, stderr=subprocess.STDOUT)
    try:
        # last week's server holds the port before this week's starts (under load it could lose the race to bind)
        wait_until_ready(lambda: listening(fixed), timeout_s=60, ended=lambda: last_week.poll() is not None)
        serving = fixed if port == "held" else free_loopback_port()
        (run / "run_eval.sh").write_text(
            f"#!/bin/bash\n{CLI} serve-policy --port {serving} --checkpoint {new} > logs/model_server.log 2>&1 &\n"
            f"for i in $(seq 30); do (echo > /dev/tcp/127.0.0.1/{serving}) 2>/dev/null && sleep 2 && break; sleep 1; "
            "done\n" + materialize_line(2)
            + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
            f"--model-url http://127.0.0.1:{serving}/v1 --env string_match --concurrency 4\nkill %1\n")
        run_eval_script(run)
    finally:
        last_week.terminate()
        last_week.wait(10)

    report = diagnose(run)

    if port == "free":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "address already in use" in (run / "logs" / "model_server.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "model_port_held_by_another_server"), [
        f.title for f in report.causes]
    assert "start step_0200's server" in top.fix and "`address already in use`" in top.fix


@pytest.mark.parametrize("removed_first", [False, True])
def test_a_ready_file_left_by_last_weeks_killed_server_sends_the_run_to_its_dead_port(tmp_path: Path,
                                                                                     removed_first: bool) -> None:
    """The weekly script waits for the server's ready file and ends with `kill -9`, which leaves the file behind: next
    week the wait ends at once on last week's address, and collect is refused (model serving; the fix removes the
    file first). With `rm -f` before the server starts, both weeks are healthy."""
    run, checkpoint = string_match_run(tmp_path, rows=6)
    (run / "run_eval.sh").write_text(
        "#!/bin/bash\n" + ("rm -f policy_url.txt\n" if removed_first else "")
        + f"{CLI} serve-policy --port 0 --ready-file policy_url.txt --checkpoint {checkpoint} "
        ">> logs/model_server.log 2>&1 &\nSERVER=$!\n"
        "until [ -s policy_url.txt ]; do sleep 0.5; done\nURL=$(cat policy_url.txt)\n" + materialize_line(2)
        + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $URL "
        "--env string_match --concurrency 4\nkill -9 $SERVER\n")
    run_eval_script(run)  # last week's
    (run / "last_week").mkdir()
    for kept in run.glob("rollouts*.jsonl"):
        kept.rename(run / "last_week" / kept.name)
    (run / "logs" / "run_eval.log").rename(run / "logs" / "run_eval_last_week.log")  # it says where it wrote
    run_eval_script(run)

    report = diagnose(run)

    if removed_first:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "endpoint_not_where_server_listens"), [
        f.title for f in report.causes]
    assert top.title.startswith("The run took the model URL") and "from policy_url.txt" in top.title
    assert "`rm -f policy_url.txt`" in top.fix
