"""Step 1: connections to the model refused by the client's own system, before any packet left: `connect()` failing
with EPERM ("Operation not permitted"), which no server ever answers. A seccomp profile denying `connect` (a
sandbox's or an offline batch template's, given with `docker run --security-opt seccomp=...`) or a firewall rule on
the OUTPUT chain does it; the model server looks down, and it is not the server's fault."""

from __future__ import annotations

import json
import re
from pathlib import Path

from gym_pipeline.diagnose.artifacts import locate_named_file
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import INFRA

_CONNECTION_FAILURES = ("model_endpoint_down", "gym_request_retry")
_NOT_PERMITTED = re.compile(r"\[Operation not permitted\]|\[Errno 1\]|EPERM")
_SECCOMP_PROFILE = re.compile(r"--security-opt[ =]seccomp[=:](?P<profile>[^\s\"']+)")
_DENYING = ("SCMP_ACT_ERRNO", "SCMP_ACT_KILL", "SCMP_ACT_KILL_PROCESS", "SCMP_ACT_KILL_THREAD", "SCMP_ACT_TRAP")


def _denies_connect(profile: Path) -> bool:
    """Whether a seccomp profile (Docker's JSON) refuses `connect`: named under a denying action, or not allowed by a
    profile whose default denies."""
    try:
        rules = json.loads(profile.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if not isinstance(rules, dict):
        return False
    for entry in rules.get("syscalls") or []:
        if isinstance(entry, dict) and "connect" in (entry.get("names") or [entry.get("name")]):
            return entry.get("action") in _DENYING
    return rules.get("defaultAction") in _DENYING


def rule_connect_refused_by_the_clients_system(ev: Evidence) -> list[Finding]:
    refused = next((hit for name in _CONNECTION_FAILURES for hit in ev.hits(name) if _NOT_PERMITTED.search(hit.text)),
                   None)
    if refused is None:
        return []
    profile = next(((file, number, line, match["profile"]) for file, number, line, match
                    in lines_matching(ev.user_files, _SECCOMP_PROFILE)
                    if _denies_connect(locate_named_file(match["profile"], ev.run_dir))), None)
    evidence = [refused.evidence()]
    if profile is not None:
        file, number, line, path = profile
        evidence.append(EvidenceLine(file=file.name, line=number, text=line.strip()))
        return [Finding(
            category=INFRA,
            title=f"The seccomp profile {Path(path).name} ({file.name}:{number}) denies `connect`: every connection to "
                  "the model is refused inside the container (Operation not permitted)",
            evidence=evidence,
            cause=f"{file.name}:{number} runs the stage under the seccomp profile {path}, which refuses the `connect` "
                  "system call (a sandbox's or an offline job's profile): the stage cannot open any connection, so "
                  "the model server, up and answering, looks down. EPERM on connect comes from the client's own "
                  "system, never from the server.",
            fix=f"Run the stage that calls the model without that profile (drop `--security-opt seccomp={path}`, or "
                "use Docker's default profile), or allow `connect` in it (`SCMP_ACT_ALLOW`); keep the denying "
                "profile for the sandboxes it was written for; then run again.",
        )]
    return [Finding(
        category=INFRA,
        title="Every connection to the model was refused by this machine itself (Operation not permitted)",
        evidence=evidence,
        cause="`connect` failed with EPERM: the client's own system refused the connection before a packet left (a "
              "firewall rule on the OUTPUT chain, a seccomp profile denying `connect`, a sandbox's network policy), "
              "so the model server, whether up or not, was never reached.",
        fix="Find what refuses the stage's connections where it runs (`iptables -S OUTPUT`, the container's "
            "`--security-opt seccomp=...` or the sandbox's policy) and allow the model server's address and port; "
            "then run again.",
    )]
