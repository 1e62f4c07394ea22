"""An htb class of 1 kbit/s on the loopback with a filter on the model server's port (left from a bandwidth test), run
for real in a private network namespace: every request crawls though the server answers in 30 ms, and the run's budget
ends the collection part way. The diagnosis names the shaping from the user's `tc -s class show` (infra); a class of
100 Mbit/s that holds nothing back is no finding, and the run is healthy."""

from pathlib import Path

import pytest
from network_namespace_support import needs_root_and, run_in_private_network, serve_and_collect_within

from gym_pipeline.diagnose import diagnose

PORT = 18731  # inside the test's own network namespace: no other server can hold it


@needs_root_and("tc")
@pytest.mark.parametrize("rate", ["1kbit", "100mbit"])
def test_a_bandwidth_cap_left_on_the_loopback_throttles_the_run(tmp_path: Path, rate: str) -> None:
    run = run_in_private_network(tmp_path, (
        "# the bandwidth test's shaping, still on the node\n"
        f"tc qdisc add dev lo root handle 1: htb default 20\ntc class add dev lo parent 1: classid 1:10 htb rate {rate}\n"
        "tc class add dev lo parent 1: classid 1:20 htb rate 10gbit\n"
        f"tc filter add dev lo parent 1: protocol ip prio 1 u32 match ip dport {PORT} 0xffff flowid 1:10\n"
        + serve_and_collect_within(PORT, 20)
        + "tc -s class show dev lo > logs/tc_show.log\nkill %1\n"))

    report = diagnose(run)

    if rate == "100mbit":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "traffic_shaping_throttles_the_run"), [f.title for f in report.causes]
    assert top.title.startswith("Traffic shaping on the node (htb rate 1Kbit) throttled the run's requests")
    assert top.evidence[0].where == "logs/tc_show.log:1"
    assert top.fix.startswith("Remove it: `tc qdisc del dev lo root`")
