"""Step 1: the Ray cluster `gym env start` started for itself, unreachable on this machine's own loopback.

Ray's workers wait for its GCS (`Failed to connect to GCS at address 127.0.0.1:...`). When the shell told Ray
which cluster to join (`Using address ... set in the environment variable RAY_ADDRESS`), a head that is gone
explains it (the known problem `ray_gcs_unreachable`). Without that line Gym started the cluster itself, on
127.0.0.1: a GCS it cannot reach there says the machine's loopback or local network is broken (the interface
down in a container or job's network namespace, a firewall on 127.0.0.1), not Ray's settings. A GCS at the IPv6
loopback ([::1]) says the machine's name resolved there: a hosts file without `127.0.0.1 localhost`.
"""

from __future__ import annotations

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.findings import Finding, unique
from gym_pipeline.diagnose.vocabulary import INFRA


def rule_own_ray_unreachable(ev: Evidence) -> list[Finding]:
    unreachable = ev.hits("ray_gcs_unreachable")
    if not unreachable or ev.hits("ray_address_from_env"):
        return []
    address = unreachable[0].group("address") or "127.0.0.1"
    down = ev.hits("loopback_down")
    if address.startswith("[") and not down:  # Ray took the node's IPv6 loopback: what `localhost` resolved to
        return [_node_name_resolved_to_ipv6(address, unreachable)]
    return [Finding(
        category=INFRA,
        title=f"Ray cannot reach the cluster it started on this machine (GCS at {address})"
              + (": the loopback interface is down" if down else ""),
        evidence=unique([*(h.evidence() for h in down[:1]), *(h.evidence() for h in unreachable)], limit=4),
        cause="No RAY_ADDRESS sent Ray elsewhere: `gym env start` started its own Ray cluster and its workers could "
              f"not connect to its GCS at {address}, on this machine's own loopback. Connections to 127.0.0.1 "
              "fail when the loopback interface is down (a container or job network namespace set up half way) or "
              "a firewall drops them; every server on 127.0.0.1 (Gym's head server, the model server) is cut off "
              "the same way.",
        fix="Check the loopback where the job runs: `ip -brief addr show lo` must say UP with 127.0.0.1/8 (bring it "
            "up with `ip link set lo up`, or fix the container's or job's network setup), and `curl -s "
            "http://127.0.0.1:<port>/` to a server there must connect (no firewall rule on lo); then `gym env start` "
            "again.",
        explains=frozenset({"ray_gcs_unreachable", "loopback_down"}),
    )]


def _node_name_resolved_to_ipv6(address: str, unreachable: list) -> Finding:
    return Finding(
        category=INFRA,
        title=f"Ray cannot reach the cluster it started on this machine (GCS at {address}): its node name resolved "
              "to the IPv6 loopback",
        evidence=unique([h.evidence() for h in unreachable], limit=4),
        cause="No RAY_ADDRESS sent Ray elsewhere: `gym env start` started its own Ray cluster, and Ray took its node "
              f"address from what the machine's name resolves to, the IPv6 loopback {address}, where its GCS does "
              "not answer. That happens when /etc/hosts maps `localhost` (or the host's name) to ::1 only, with no "
              "`127.0.0.1 localhost` line (a hosts file rendered from an IPv6-only template).",
        fix="Check what the names resolve to: `getent hosts localhost $(hostname)`; give /etc/hosts a "
            "`127.0.0.1 localhost` line (and the host's name on an IPv4 address) where the job runs, or fix the "
            "template that renders it; then `gym env start` again.",
        explains=frozenset({"ray_gcs_unreachable"}),
    )
