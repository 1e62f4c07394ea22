"""A serving script that starts the model server in a detached tmux session named `policy`, run for real while last
week's session of that name (serving an older checkpoint on the same port) is still open: tmux refuses the new
session ("duplicate session: policy"), and the eval is collected from last week's server. The diagnosis names the
script's tmux line and the session to close. With the old session closed first, healthy."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from script_support import CLI, WAIT_FOR_PORT, materialize_line, run_eval_script

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment
from gym_pipeline.host import free_loopback_port
from gym_pipeline.serving.checkpoints import demo_checkpoints


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")
@pytest.mark.parametrize("closes_the_old_session", [False, True])
def test_a_model_server_session_name_still_held_by_last_weeks_server(tmp_path: Path,
                                                                    closes_the_old_session: bool) -> None:
    last_week, this_week = demo_checkpoints(tmp_path / "checkpoints", 2, ["string_match"])
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    rows = get_environment("string_match").dataset_path.read_text().splitlines(keepends=True)
    (run / "data.jsonl").write_text("".join(rows[:8]))
    port = free_loopback_port()
    socket = f"eval-{os.getpid()}-{port}"  # a tmux server of the test's own
    serve = f'{CLI} serve-policy --port {port} --checkpoint CKPT --latency-ms 20'
    subprocess.run(["tmux", "-L", socket, "new-session", "-d", "-s", "policy", serve.replace("CKPT", str(last_week))],
                   check=True, timeout=30)
    try:
        (run / "serve.sh").write_text(
            "#!/bin/bash\n# the model server in a detached tmux session (attach: tmux -L SOCKET a -t policy)\n"
            + (f"tmux -L {socket} kill-session -t policy 2>/dev/null\n"  # and wait for the old server to let go
               f"while (echo > /dev/tcp/127.0.0.1/{port}) 2>/dev/null; do sleep 1; done\n" if closes_the_old_session
               else "")
            + f'tmux -L {socket} new-session -d -s policy "{serve.replace("CKPT", str(this_week))}"\n'
            + "sleep 2\n" + WAIT_FOR_PORT.format(port=port))
        (run / "run_eval.sh").write_text(
            "#!/bin/bash\nbash serve.sh > logs/serve.log 2>&1\n" + materialize_line(3)
            + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
            f"--model-url http://127.0.0.1:{port}/v1 --env string_match --concurrency 4\n"
            f"{CLI} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
        run_eval_script(run)
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], check=False, timeout=30)

    report = diagnose(run)

    if closes_the_old_session:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "duplicate session: policy" in (run / "logs" / "serve.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "server_session_name_taken"), [f.title for f in report.causes]
    number = 3  # serve.sh's tmux line
    assert top.title.startswith(f"tmux refused to start the model server: a session named `policy` already exists "
                                f"(serve.sh:{number})")
    assert top.fix.startswith(f"In serve.sh, close the old session before starting the new one: `tmux -L {socket} "
                              "kill-session -t policy 2>/dev/null`")
