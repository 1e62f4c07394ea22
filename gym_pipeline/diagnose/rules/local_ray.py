"""Step 1: the Ray cluster `gym env start` started for itself, unreachable on this machine's own loopback.

Ray's workers wait for its GCS (`Failed to connect to GCS at address 127.0.0.1:...`). When the shell told Ray
which cluster to join (`Using address ... set in the environment variable RAY_ADDRESS`), a head that is gone
explains it (the known problem `ray_gcs_unreachable`). Without that line Gym started the cluster itself, on
127.0.0.1: a GCS it cannot reach there says the machine's loopback or local network is broken (the interface
down in a container or job's network namespace, a firewall on 127.0.0.1), not Ray's settings.
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
