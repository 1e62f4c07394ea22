"""A NAT redirect left from a server migration, run for real in a private network namespace: port_forward.sh sent
the new model server's port to the old server while the new one loaded (`iptables -t nat -A OUTPUT ... -j REDIRECT`),
and nothing removed it, so this week's eval against the new server's URL is answered by the old checkpoint. The
diagnosis names the rule (infra). With the forward deleted after the migration, the run is healthy."""

import sys
from pathlib import Path

import pytest
from network_namespace_support import needs_root_and, run_in_private_network

from gym_pipeline.diagnose import diagnose

CLI = f"{sys.executable} -m gym_pipeline.cli"
OLD_PORT, NEW_PORT = 18741, 18742  # inside the test's own network namespace: no other server can hold them


@needs_root_and("iptables")
@pytest.mark.parametrize("removed", [False, True])
def test_a_nat_redirect_left_from_a_migration_sends_the_run_to_the_old_server(tmp_path: Path, removed: bool) -> None:
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "port_forward.sh").write_text(
        "#!/bin/bash\n# usage: port_forward.sh NEW_PORT OLD_PORT: the new port's clients to the old server meanwhile\n"
        "iptables -t nat -A OUTPUT -p tcp -d 127.0.0.1 --dport $1 -j REDIRECT --to-ports $2\n"
        'echo "forwarding 127.0.0.1:$1 -> 127.0.0.1:$2"\n')
    run = run_in_private_network(tmp_path, (
        f"{CLI} serve-policy --port {OLD_PORT} --checkpoint CKPT0 --latency-ms 30 > logs/old_server.log 2>&1 &\n"
        f"bash port_forward.sh {NEW_PORT} {OLD_PORT} > logs/port_forward.log\n"
        + (f"iptables -t nat -D OUTPUT -p tcp -d 127.0.0.1 --dport {NEW_PORT} -j REDIRECT --to-ports {OLD_PORT}\n"
           if removed else "")
        + f"{CLI} serve-policy --port {NEW_PORT} --checkpoint CKPT1 --latency-ms 30 > logs/model_server.log 2>&1 &\n"
        f"for port in {OLD_PORT} {NEW_PORT}; do\n"
        "  for i in $(seq 60); do (echo > /dev/tcp/127.0.0.1/$port) 2>/dev/null && break; sleep 1; done\ndone\n"
        "sleep 2  # the new server's own start, past the redirect's\n"
        f"{CLI} materialize --input data.jsonl --num-repeats 3 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
        f"--model-url http://127.0.0.1:{NEW_PORT}/v1 --env string_match --concurrency 4\n"
        f"{CLI} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\nkill %1 %2\n"),
        checkpoints=2, rows=8)

    report = diagnose(run)

    if removed:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "model_port_redirected_elsewhere"), [f.title for f in report.causes]
    assert top.title == (f"A NAT rule port_forward.sh:3 added redirects the run's model port {NEW_PORT} to {OLD_PORT}: "
                         "the requests were answered by the server there, not by the one at the run's URL")
    assert [line.where for line in top.evidence] == ["port_forward.sh:3", "logs/port_forward.log:1"]
    assert top.fix.startswith("Delete the rule: the same command as port_forward.sh:3 with `-D` for `-A`")
