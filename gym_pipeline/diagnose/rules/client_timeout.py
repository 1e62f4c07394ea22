"""A client timeout shorter than any model answer takes: the run's setting, not the model server.

Timeouts from a model server read as overload or a hang, unless the timeout the client gave itself is
so short that no generation fits in it (a connect timeout taken for the request's, seconds for minutes).
The failure text names that timeout (`within request_timeout_s=0.5`, `read timeout=2`).
"""

from __future__ import annotations

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.findings import Finding, affected, keys_of, plural, resume_command
from gym_pipeline.diagnose.rules.routing import SHORT_TIMEOUT_ROUTE, client_timeout, groups_routed
from gym_pipeline.diagnose.vocabulary import CONFIG


def rule_client_timeout_too_short(ev: Evidence) -> list[Finding]:
    groups = groups_routed(ev, SHORT_TIMEOUT_ROUTE)
    if not groups:
        return []
    lead = groups[0]
    name, seconds = client_timeout(lead.text)  # routed here because its text names one
    return [Finding(
        category=CONFIG,
        failed_keys=keys_of(groups),
        title=f"Requests gave up after {seconds:g} s ({name}): shorter than a model answer takes, "
              f"{plural(sum(g.count for g in groups), 'failed attempt')}",
        evidence=[g.first for g in groups[:2]],
        cause=f"The client's timeout is {seconds:g} s, and a completion takes longer than that whenever the model "
              f"writes more than a few tokens: every slow answer is cut off, whatever the server does. Affected: "
              f"{affected(ev, groups)}.",
        fix=f"Raise `{name}` (sweep.yaml `request_timeout_s`, Gym's client timeout) to minutes, not seconds (the "
            f"default is 120), and collect the missing rollouts: {resume_command(ev)}.",
    )]
