"""Step 1: a firewall rule, printed into a log, that refuses or drops connections to a port the run uses.

A site's hardening script may reject a port range on every node; a model server started on a port inside it is up
and answers on its own (`curl` from the same network namespace the rule exempts, or before the rule), while every
client of it sees connections refused or timed out: the model server looks down, and it is not the server's fault.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, excerpt
from gym_pipeline.diagnose.findings import Finding, unique
from gym_pipeline.diagnose.logs import LogHit
from gym_pipeline.diagnose.rules.fallback import listeners
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, lines_matching
from gym_pipeline.diagnose.vocabulary import INFRA

# what a refused or dropped connection to the model or a Gym server shows in the logs
_CONNECTION_FAILURES = ("gym_request_retry", "model_endpoint_down")


# a user's script adding a rule that refuses traffic (`iptables -A INPUT ... -j REJECT`)
_ADDS_RULE = re.compile(r"\biptables\s+(?:-\w+\s+\S+\s+)*-[AI]\s+\w+[^#\n]*(?:-j\s+(?:REJECT|DROP)|\\$)"
                        r"|\bnft\s+(?:add|insert)\s+rule\b[^#\n]*\b(?:reject|drop)\b")


def rule_firewall_blocks_run_port(ev: Evidence) -> list[Finding]:
    ports = listeners(ev)
    for hit in ev.hits("firewall_rule"):
        low = int(hit.group("low", "low2", "low3"))
        high = int(hit.group("high", "high2", "high3") or low)
        blocked = sorted(port for port in ports if low <= port <= high)
        if not blocked:
            continue
        port, listener = blocked[0], ports[blocked[0]]
        action = (hit.group("action", "action2", "action3") or "").upper()
        if hit.group("length"):
            return [_large_packets_dropped(ev, hit, port, listener.who, int(hit.group("length")))]
        added = next(lines_matching(ev.user_files, _ADDS_RULE, SCRIPT_SUFFIXES), None)
        by_script = f" {added[0].name}:{added[1]} added it." if added else ""
        return [Finding(
            category=INFRA,
            title=f"A firewall rule {'rejects' if action == 'REJECT' else 'drops'} connections to ports {low}-{high}, "
                  f"where {listener.who} listens (port {port})",
            evidence=unique([hit.evidence(), *(h.evidence() for name in _CONNECTION_FAILURES
                                               for h in ev.hits(name)[:1]),
                             *([EvidenceLine(file=added[0].name, line=added[1], text=added[2].strip())]
                               if added else [])]),
            cause=f"{hit.file} shows the node's firewall (iptables or nftables) refusing TCP to ports {low}-{high}, and "
                  f"{listener.who} listens on {port} ({listener.source}): every connection to it fails although the "
                  "server is up, so requests are refused or time out and are retried until the run gives up."
                  + by_script,
            fix=(f"Delete the rule {added[0].name}:{added[1]} added, `{excerpt(added[2].strip().rstrip(chr(92)), 200)}` "
                 "(the same command with `-D` for `-A`/`-I`, by whoever manages the node's firewall), or "
                 f"{_move(low, high)}" if added
                 else _move(low, high)[0].upper() + _move(low, high)[1:]),
            explains=frozenset({"firewall_rule", *_CONNECTION_FAILURES}),
        )]
    return []


def _large_packets_dropped(ev: Evidence, hit: LogHit, port: int, who: str, length: int) -> Finding:
    """A rule dropping only the packets of a port over a length (a path-MTU test's): connections open, small packets
    pass, and every reply larger than the length is lost, so requests hang until a timeout."""
    side = "from" if hit.group("side") == "s" else "to"
    added = next(lines_matching(ev.user_files, _ADDS_RULE, SCRIPT_SUFFIXES), None)
    return Finding(
        category=INFRA,
        title=f"A firewall rule drops every TCP packet over {length - 1} bytes {side} port {port}, where {who} "
              "listens: connections open and small packets pass, larger replies never arrive",
        evidence=unique([hit.evidence(), *(h.evidence() for name in (*_CONNECTION_FAILURES, "ended_by_terminate")
                                           for h in ev.hits(name)[:1]),
                         *([EvidenceLine(file=added[0].name, line=added[1], text=added[2].strip())] if added else [])]),
        cause=f"{hit.file} shows the node's firewall dropping TCP packets {side} port {port} of length {length} and "
              "up (`-m length --length`, a path-MTU black-hole test's rule left in place): the connection opens and "
              "headers and short answers get through, but a chat completion's reply is larger, so it is dropped and "
              "retransmitted until the client's timeout or the run's budget ends the request. The model server and "
              "the scripts are fine.",
        fix=f"Delete the rule: `iptables -D {'OUTPUT' if side == 'from' else 'INPUT'} ... -m length --length "
            f"{length}:65535 -j DROP` (the same options as it was added with; `iptables -S` prints them), by whoever "
            f"manages the node's firewall; check with `curl -s http://127.0.0.1:{port}/v1/models` (a reply over "
            f"{length - 1} bytes), then collect again (`--resume`) and profile.",
        explains=frozenset({"firewall_rule", "ended_by_terminate", *_CONNECTION_FAILURES}),
    )


def _move(low: int, high: int) -> str:
    return (f"start the server on a port outside {low}-{high} (`--port`, or the model server's port setting), or have "
            "the rule allow loopback (`iptables -I INPUT -i lo -j ACCEPT`, by whoever manages the node's firewall); "
            "check with `curl -s http://127.0.0.1:<port>/v1/models`, then start the run again.")
