"""A path-MTU test's firewall rule left on the node, run for real in a private network namespace: it drops every TCP
packet of 577 bytes and more sent from the model server's port (`iptables -A OUTPUT -o lo -p tcp --sport PORT -m length
--length 577:65535 -j DROP`). Connections open and small packets pass, but every chat completion's reply is larger:
the requests hang until the run's budget ends the collection. The diagnosis names the rule from the user's
`iptables -L -v -n` (infra); a rule on another port is no finding, and the run is healthy."""

from pathlib import Path

import pytest
from network_namespace_support import needs_root_and, run_in_private_network, serve_and_collect_within

from gym_pipeline.diagnose import diagnose

PORT = 18733  # inside the test's own network namespace: no other server can hold it


@needs_root_and("iptables")
@pytest.mark.parametrize("dropped_port", [PORT, PORT + 1])
def test_a_firewall_rule_dropping_large_packets_from_the_model_port_hangs_the_requests(tmp_path: Path,
                                                                                      dropped_port: int) -> None:
    run = run_in_private_network(tmp_path, (
        "# the path-MTU black-hole test's rule, still on the node\n"
        f"iptables -A OUTPUT -o lo -p tcp --sport {dropped_port} -m length --length 577:65535 -j DROP\n"
        + serve_and_collect_within(PORT, 20)
        + "iptables -L OUTPUT -v -n > logs/iptables.log\nkill %1\n"))

    report = diagnose(run)

    if dropped_port != PORT:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "ended by SIGTERM" in (run / "logs" / "run_eval.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "firewall_blocks_run_port"), [f.title for f in report.causes]
    assert top.title == (f"A firewall rule drops every TCP packet over 576 bytes from port {PORT}, where the model "
                         "server listens: connections open and small packets pass, larger replies never arrive")
    assert top.evidence[0].where == "logs/iptables.log:3"
    assert top.fix.startswith("Delete the rule: `iptables -D OUTPUT ... -m length --length 577:65535 -j DROP`")
