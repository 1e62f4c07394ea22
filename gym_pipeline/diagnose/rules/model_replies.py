"""Step 2: what answers at the model URL refused the requests, or answered with no chat completion.

A 4xx that no other rule reads (413 for a body over a size limit, 415, 400 without a field named), or a 200 whose
body is not a chat completion (an event stream's `data: ...` to a request that did not ask to stream, the legacy
`choices[0].text` shape): the run reached something at the model URL, and it did not answer as a model server does.
A model server answers OpenAI's shape; what changes it is most often a user's own gateway between the run and the
server (a limit copied from another service, a reply converted for an old tool). When that gateway is in the run
folder, the finding names the line that answers so and the setting it goes by.
"""

from __future__ import annotations

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.findings import Finding, affected, keys_of, plural, resume_command, said, status_words
from gym_pipeline.diagnose.rules.routing import MODEL_REPLY, groups_routed
from gym_pipeline.diagnose.rules.user_proxies import proxy_behind_reply
from gym_pipeline.diagnose.vocabulary import MODEL_SERVING


def rule_model_replies_unusable(ev: Evidence) -> list[Finding]:
    groups = groups_routed(ev, MODEL_REPLY)
    if not groups:
        return []
    lead = groups[0]
    status = lead.http_status if lead.http_status is not None and lead.http_status >= 400 else None
    what = f"refused the requests with HTTP {status}" if status else "answered with no chat completion"
    attempts = plural(sum(g.count for g in groups), "failed attempt")
    gateway = proxy_behind_reply(ev, status)
    if gateway is None:
        return [Finding(
            category=MODEL_SERVING, failed_keys=keys_of(groups),
            title=f"What answers at the model URL {what}: {attempts}",
            evidence=[g.first for g in groups[:3]],
            cause=f"{status_words(lead)}: {said(lead)}. The request went to the model URL, and the answer was not a "
                  "model server's: a gateway or proxy in between, or another service on that port, answered it. "
                  f"Affected: {affected(ev, groups)}.",
            fix="Find what listens at the model URL (`ss -ltnp`, the address in the failure above) and send the run "
                "straight to the model server, or make what is in between pass requests and replies through "
                f"unchanged; then collect the missing rollouts: {resume_command(ev)}.",
        )]
    name, answers, setting = gateway
    by = setting or answers
    code = by.text.split(" #")[0]  # the setting without its comment
    return [Finding(
        category=MODEL_SERVING, failed_keys=keys_of(groups),
        title=f"{name}, the gateway before the model server, {what} ({code}): {attempts}",
        evidence=[*(g.first for g in groups[:2]), *([setting] if setting else []), answers][:4],
        cause=f"{status_words(lead)}: {said(lead)}. The run reaches the model through {name}, and "
              + (f"{name}:{answers.line} (`{answers.text}`) answers so itself" if status else
                 f"{name} changes every reply while `{code}`")
              + (f", going by `{code}` ({name}:{setting.line})" if setting else "")
              + f": the model never got, or never sent, what failed. Affected: {affected(ev, groups)}.",
        fix=f"Change {code.split('=')[0].strip()} in {name} ({name}:{by.line}) so that eval traffic passes "
            "through unchanged" + (" (a limit that fits the run's largest request)" if status else
                                   " (`= False`, or a route of its own for the old tools)")
            + f", or send the run straight to the model server; then collect the missing rollouts: "
            f"{resume_command(ev)}.",
    )]
