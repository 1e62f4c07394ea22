"""Step 2: the run's requests spread over replicas that serve different checkpoints.

A log of the user's (a gateway, a balancer) names the addresses of model servers whose own logs say they serve
different checkpoints: the rollouts mix two models, and the profile averages them as one. A driver that names each
checkpoint's server in turn, collecting after each, evaluates them one after another and is not this.
"""

from __future__ import annotations

import re
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.checkpoint_choice import started_model_servers
from gym_pipeline.diagnose.rules.uncollected_checkpoints import evaluated_in_turn
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, lines_matching
from gym_pipeline.diagnose.vocabulary import MODEL_SERVING

_STEP_OF_NAME = re.compile(r"\d+")

# a user's list of replicas behind a balancer or gateway, or its round-robin choice among them
_REPLICA_LIST = re.compile(r"^\s*\w*(?:upstream|replica|backend)s\s*=|itertools\.cycle\(", re.I)


def _forwarding_log(ev: Evidence, servers: list[tuple[str, int, EvidenceLine]]) -> tuple[Path, dict[int, int]] | None:
    """The log (not a server's own) whose lines name the addresses of servers of at least two checkpoints, with how
    many of its lines name each checkpoint's server."""
    own_logs = {line.file for _, _, line in servers}
    steps_at: dict[str, set[int]] = {}
    for address, step, _ in servers:
        steps_at.setdefault(address, set()).add(step)
    # an address servers of two checkpoints had in turn (last week's and this week's, one port) tells no replicas apart
    replicas = [(address, step) for address, (step, *others) in steps_at.items() if not others]
    for log, head in ev.log_heads:
        if ev.rel(log) in own_logs:
            continue
        named: dict[int, int] = {}
        for address, step in replicas:
            if count := len(re.findall(rf"{re.escape(address)}(?!\d)", head)):
                named[step] = named.get(step, 0) + count
        if len(named) >= 2:
            return log, named
    return None


def rule_replicas_of_other_checkpoints(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None or not ev.run_dir.is_dir():
        return []
    servers = started_model_servers(ev)
    if len({step for _, step, _ in servers}) < 2 or (forwarding := _forwarding_log(ev, servers)) is None \
            or evaluated_in_turn(ev):  # servers named in turn by a driver, not replicas
        return []
    log, named = forwarding
    wanted = _STEP_OF_NAME.findall(ev.manifest.checkpoint[0]) if ev.manifest.checkpoint else []
    meant = int(wanted[-1]) if wanted and int(wanted[-1]) in named else max(named)
    others = sorted(step for step in named if step != meant)
    started_on_other = [(file, number, line) for file, number, line, _ in lines_matching(
        ev.user_files, re.compile("|".join(rf"step_?0*{step}\b" for step in others)), SCRIPT_SUFFIXES)]
    replica_list = next(lines_matching(ev.user_files, _REPLICA_LIST), None)
    named_lines = [*started_on_other[:1], *([replica_list[:3]] if replica_list else [])]
    where = "; ".join(f"{file.name}:{number} `{line.strip()}`" for file, number, line in named_lines)
    servers_of = {step: line for _, step, line in servers}
    return [Finding(
        category=MODEL_SERVING,
        title=f"The requests went to model servers of {len(named)} checkpoints: step {meant} and step "
              f"{', '.join(map(str, others))}, through the replicas {ev.rel(log)} forwards to",
        evidence=[*(servers_of[step] for step in (meant, *others)),
                  *(EvidenceLine(file=file.name, line=number, text=line.strip()) for file, number, line in
                    named_lines)],
        cause=f"{ev.rel(log)} forwards the run's requests to {len(named)} model servers ("
              + ", ".join(f"{named[step]} lines to the step {step} server" for step in (meant, *others))
              + f"), and their own logs say they serve different checkpoints: every rollout answered by step "
              f"{', '.join(map(str, others))} is another model's, and the profile averages the two as step {meant}. "
              "Nothing fails.",
        fix=(f"The run's files that point there: {where}. " if where else "")
            + f"Give every replica the checkpoint meant (step {meant}), or take the other ones out of the balancer's "
              "list of upstreams; check each replica (`curl -s <replica>/v1/models`, and its log's checkpoint), then "
              "collect again on a clean output path and profile.",
    )]
