"""A model server that refuses a request says why, and the why names who must change.

vLLM (and any OpenAI-compatible server) answers a request it will not run with a 4xx and a body
naming the parameter: `{"error": {"message": "temperature: Input should be ...", "param":
"temperature"}}`. A sampling setting out of range is the run's config; a message, role or tool
schema it refuses comes from the rows (data/schema); a route it does not serve (404 Not Found, not
an unknown model) means the policy's model type is wrong (config), or its base URL lacks `/v1` when Gym's
model proxy logged the route it called (model serving); an "overloaded"
refusal is throughput. The refusal may reach us directly (the built-in collector calls the model)
or nested in Gym's "inner server" 500s.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.artifacts import FailureGroup
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import (
    Finding,
    affected,
    keys_of,
    plural,
    resume_command,
    said,
    status_words,
    unique,
)
from gym_pipeline.diagnose.logs import LogHit
from gym_pipeline.diagnose.rules.gym_settings import setting_lines
from gym_pipeline.diagnose.rules.routing import ROUTE, ROW, SETTING, groups_routed, refused_field
from gym_pipeline.diagnose.vocabulary import CONFIG, DATA_SCHEMA, MODEL_SERVING


def _what(groups: list[FailureGroup]) -> tuple[str, str]:
    """(the field refused, what the server said) of the first group."""
    lead = groups[0]
    text = lead.nested.inner_text if lead.nested else lead.text
    body = lead.error_body
    message = (body.message if body and body.message else None) or said(lead)
    return refused_field(text) or "?", message


_API_ROUTE = re.compile(r"/(?:chat/completions|completions|responses)$")
_USES_COMPLETIONS = re.compile(r"\buse_completions_api\s*[:=]\s*(?:true|True|1|yes)\b")


def _called_off_base(ev: Evidence) -> LogHit | None:
    """A model call that got 404 on a route not right under `/v1`: the URL given to Gym is not the API's base URL
    (it lacks `/v1`, or goes past it: a full endpoint such as `.../v1/chat/completions` copied from a curl example)."""
    return next((h for h in ev.hits("gym_model_retry")
                 if h.group("status") == "404" and _API_ROUTE.search(url := h.group("url") or "")
                 and not _API_ROUTE.sub("", url).endswith("/v1")), None)


def _base_url(given: str) -> str:
    """The API's base URL for a URL given in its place: up to `/v1` when it holds one, else with `/v1` added."""
    return given[: given.index("/v1") + 3] if "/v1" in given else f"{given.rstrip('/')}/v1"


def rule_model_refusals(ev: Evidence) -> list[Finding]:
    findings = []
    for route in (SETTING, ROW, ROUTE):
        groups = groups_routed(ev, route)
        if not groups:
            continue
        lead = groups[0]
        attempts = plural(sum(g.count for g in groups), "failed attempt")
        field, message = _what(groups)
        then = f" Then collect again: {resume_command(ev)}."
        if route == SETTING:
            findings.append(Finding(
                category=CONFIG, failed_keys=keys_of(groups),
                title=f"The model server refuses the run's `{field}` setting: {message} ({attempts})",
                evidence=[g.first for g in groups[:3]],
                cause=f"{status_words(lead)}: the endpoint validated the request and refused `{field}`, a sampling "
                      "setting the run chose (a CLI flag or `responses_create_params`), before generating anything: "
                      f"not the model, not the data. Affected: {affected(ev, groups)}.",
                fix=f"Set `{field}` within what the server accepts ({message}): `gym eval run ... --{field.replace('_', '-')} "
                    f"<value>` or `responses_create_params: {{{field}: <value>}}` of the sweep's environment (or of the "
                    f"rows, if they carry it).{then}",
            ))
        elif route == ROW:
            findings.append(Finding(
                category=DATA_SCHEMA, failed_keys=keys_of(groups),
                title=f"The model server refuses what the rows send in `{field}`: {message} ({attempts})",
                evidence=[g.first for g in groups[:3]],
                cause=f"{status_words(lead)}: the endpoint refused the request's `{field}`, which comes from the rows' "
                      "`responses_create_params` (their messages, roles, content or tool schemas): the data does not "
                      f"match what an OpenAI-compatible server accepts. Affected: {affected(ev, groups)}.",
                fix=f"Fix `responses_create_params.input` of the rows ({field}: {message}): each message needs a role "
                    "the server knows (`system`, `user`, `assistant`, `tool`; not ShareGPT's `human`/`gpt`) and its "
                    "content as text or content parts, with at least one user message; then materialize again and "
                    f"collect on a clean output path.",
            ))
        elif (called := _called_off_base(ev)) is not None:
            given = _API_ROUTE.sub("", called.group("url"))
            base = _base_url(given)
            what = "lacks `/v1`" if "/v1" not in given else "goes past `/v1` (a full endpoint, not the base URL)"
            findings.append(Finding(
                category=MODEL_SERVING, failed_keys=keys_of(groups),
                title=f"The model URL {what}: Gym called {called.group('url')}, 404 Not Found ({attempts})",
                evidence=unique([called.evidence(), *(g.first for g in groups[:2])]),
                cause=f"{status_words(lead)}: Gym's model server class appends the API route (`/chat/completions`, "
                      "`/responses`) to the model URL it was given; an OpenAI-compatible server (vLLM, the simulated "
                      f"policy) serves them right under `/v1`, so the URL given, `{given}`, finds nothing. Affected: "
                      f"{affected(ev, groups)}.",
                fix=f"Give the servers the API's base URL, ending in `/v1`: `gym env start ... --model-url {base}` "
                    f"(Gym's `policy_base_url`); check it with `curl -s {base}/models`.{then}",
            ))
        elif (completions := next(setting_lines(ev, _USES_COMPLETIONS), None)) is not None:
            file, number, line, _ = completions
            findings.append(Finding(
                category=CONFIG, failed_keys=keys_of(groups),
                title=f"{file}:{number} turns on `use_completions_api`: Gym's vllm_model calls /v1/completions, which "
                      f"the policy server does not serve: 404 Not Found ({attempts})",
                evidence=[EvidenceLine(file=file, line=number, text=line), *(g.first for g in groups[:2])],
                cause=f"{status_words(lead)}: with `use_completions_api=true` (a base-model eval's setting: raw "
                      "prompts, no chat template) Gym's vllm_model sends every request to the text completions route "
                      "(`/v1/completions`) instead of chat completions, and this server serves chat only. Affected: "
                      f"{affected(ev, groups)}.",
                fix=f"Remove `use_completions_api=true` from {file} (line {number}) for a chat model (keep it for "
                    f"base-model evals against a server that serves /v1/completions).{then}",
            ))
        else:
            findings.append(Finding(
                category=CONFIG, failed_keys=keys_of(groups),
                title=f"The policy server does not serve the route the model type calls: 404 Not Found ({attempts})",
                evidence=[g.first for g in groups[:3]],
                cause=f"{status_words(lead)}: the server answered, but not on the path Gym's model server class "
                      "calls: `openai_model` calls the Responses API (`/v1/responses`), `vllm_model` the chat "
                      "completions API (`/v1/chat/completions`), so a model type that does not match the server (or a "
                      f"base URL with a wrong path) finds nothing there. Affected: {affected(ev, groups)}.",
                fix="Start `gym env start` with the model type the server speaks (`--model-type vllm_model` for "
                    "vLLM and other chat-completions servers, `openai_model` for a Responses API) and its base URL "
                    f"ending in `/v1`; check with `curl -s <base_url>/models`.{then}",
            ))
    return findings
