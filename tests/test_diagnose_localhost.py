"""A model URL naming `localhost` on a node where last week's server still listens on the IPv6 loopback, run for real.

`localhost` names both 127.0.0.1 and ::1 (the usual /etc/hosts, bound here in a private mount namespace). This week's
server listens on 127.0.0.1:PORT; another run's, on a checkpoint that knows none of these tasks, was left on
[::1]:PORT. The collection's connections go to both, and the old model's one reply to tasks it does not know scores
0. The diagnosis's fix names the two loopback addresses and the one to use; with the URL naming 127.0.0.1, healthy.
"""

import os
import subprocess
from pathlib import Path

import pytest
from script_support import CLI, WAIT_FOR_PORT, materialize_line, string_match_run

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment
from gym_pipeline.host import free_loopback_port
from gym_pipeline.serving.checkpoints import demo_checkpoints

HOSTS = "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n"


@pytest.mark.skipif(os.geteuid() != 0, reason="binds /etc/hosts in a private mount namespace (unshare needs root)")
@pytest.mark.parametrize("host", ["localhost", "127.0.0.1"])
def test_a_localhost_url_also_reaches_another_runs_server_on_the_ipv6_loopback(tmp_path: Path, host: str) -> None:
    this_week = demo_checkpoints(tmp_path / "checkpoints", 2, ["string_match"])[1]  # the better of two
    other_run = demo_checkpoints(tmp_path / "other_run", 1, ["mcqa"])[0]
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    rows = get_environment("string_match").dataset_path.read_text().splitlines(keepends=True)
    (run / "data.jsonl").write_text("".join(rows[:8]))
    (tmp_path / "hosts").write_text(HOSTS)
    port = free_loopback_port()
    (run / "run_eval.sh").write_text(
        "#!/bin/bash\n# weekly eval\n" + materialize_line(5)
        + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
        f"--model-url http://{host}:{port}/v1 --env string_match --concurrency 4\n"
        f"{CLI} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    node = (f"mount --bind {tmp_path / 'hosts'} /etc/hosts\n"
            f"{CLI} serve-policy --checkpoint {other_run} --host ::1 --port {port} > {tmp_path}/other_run.log 2>&1 &\n"
            f"{CLI} serve-policy --checkpoint {this_week} --host 127.0.0.1 --port {port} > logs/model_server.log 2>&1 &\n"
            "sleep 3\nbash run_eval.sh > logs/run_eval.log 2>&1\nkill %1 %2\nwait\n")
    subprocess.run(["unshare", "--mount", "--propagation", "private", "bash", "-c", node], cwd=run, timeout=300,
                   check=True)
    replies = (run / "rollouts.jsonl").read_text()

    report = diagnose(run)

    if host == "127.0.0.1":
        assert "do not recognise this problem" not in replies
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "do not recognise this problem" in replies  # the old server answered a share of the requests
    top = report.causes[0]
    # the old model's one reply to several tasks, or its one answer in some repeats of tasks answered right in others
    assert top.category == "model_serving"
    assert top.id in ("one_reply_to_different_prompts", "answers_from_a_second_server"), top.title
    assert top.fix.startswith(f"The model URL names localhost, which resolves to both ::1 and 127.0.0.1, while the "
                              f"model server listens on 127.0.0.1:{port} only: a server left on [::1]:{port}")
    assert f"`--model-url http://127.0.0.1:{port}/v1`" in top.fix


@pytest.mark.skipif(os.geteuid() != 0, reason="binds /etc/hosts in a private mount namespace (unshare needs root)")
@pytest.mark.parametrize("localhost", ["127.0.1.1", "127.0.0.1"])
def test_localhost_rewritten_to_another_loopback_address_finds_nothing_listening(tmp_path: Path,
                                                                                 localhost: str) -> None:
    """An image build's `sed` meant for Debian's `127.0.1.1 <hostname>` line also rewrote `127.0.0.1 localhost`:
    `localhost` resolves to 127.0.1.1 (and ::1), where nothing listens, so every request to the model server (up on
    127.0.0.1) is refused. The diagnosis names the name's address (infra). With /etc/hosts as it was, healthy."""
    run, checkpoint = string_match_run(tmp_path, rows=6)
    (tmp_path / "hosts").write_text(f"{localhost}\tlocalhost eval-node\n::1\tlocalhost ip6-localhost ip6-loopback\n")
    port = free_loopback_port()
    (run / "run_eval.sh").write_text(
        "#!/bin/bash\n# weekly eval\n" + materialize_line(2)
        + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
        f"--model-url http://localhost:{port}/v1 --env string_match --concurrency 4\n")
    node = (f"mount --bind {tmp_path / 'hosts'} /etc/hosts\n"
            f"{CLI} serve-policy --checkpoint {checkpoint} --host 127.0.0.1 --port {port} > logs/model_server.log 2>&1 &\n"
            + WAIT_FOR_PORT.format(port=port) + "bash run_eval.sh > logs/run_eval.log 2>&1\nkill %1\nwait\n")
    subprocess.run(["unshare", "--mount", "--propagation", "private", "bash", "-c", node], cwd=run, timeout=300,
                   check=True)

    report = diagnose(run)

    if localhost == "127.0.0.1":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "host_name_resolves_where_nothing_listens"), [
        f.title for f in report.causes]
    assert top.title == (f"localhost resolves to 127.0.1.1 and ::1 on this node, where nothing listens: the model server "
                         f"listens on 127.0.0.1:{port}, and every connection was refused")
    assert "restore `127.0.0.1 localhost` in /etc/hosts" in top.fix
