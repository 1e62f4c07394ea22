"""Which rule owns a group of failed attempts: exactly one, so no failure is reported twice."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from gym_pipeline.core.failure_kinds import ENVIRONMENT_SERVER_FAILED, TIMEOUT_EXCEEDED
from gym_pipeline.diagnose.artifacts import FailureGroup
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.logs import LogHit
from gym_pipeline.diagnose.origin import VERIFY_RESPONSE_INVALID, host_limit, server_role
from gym_pipeline.diagnose.vocabulary import AGENT_STAGE

# A connection that never opened (nothing listens, wrong host) and one the server closed before answering.
_REFUSED = (r"Connection refused|ConnectionRefused|ClientConnectorError|Cannot connect to host|ConnectError"
            r"|unreachable|Name or service not known")
_DROPPED = (r"ServerDisconnected|Server disconnected|ClientOSError|Connection reset|RemoteProtocolError"
            r"|ClientPayloadError|Response payload is not completed")
REFUSED = re.compile(_REFUSED, re.I)
DROPPED = re.compile(_DROPPED, re.I)
CONNECTION = re.compile(f"{_REFUSED}|{_DROPPED}", re.I)
_TIMEOUT = re.compile(r"timeout|timed out", re.I)
# A request to the model server itself (an OpenAI-style path), not to a Gym server's /run or /verify.
_AGENT_RUN = re.compile(r"url='[^']*/run'")
_MODEL_CALL = re.compile(r"/(?:chat/completions|completions|responses)\b")
_FASTAPI_422 = re.compile(r"[\"']loc[\"']\s*:|Field required|validation error", re.I)
_VERIFY_RESPONSE = re.compile(VERIFY_RESPONSE_INVALID)
_OPENAI_ERROR = re.compile(r"[\"']error[\"']\s*:|BadRequest|RateLimit|APIError|APIConnection|InternalServerError", re.I)


OVERLOADED_REPLY = re.compile(r"overloaded|too many concurrent requests|queue (?:is )?full|already waiting", re.I)
_PARAM = re.compile(r"[\"']param[\"']\s*:\s*[\"'](?P<param>[\w.\[\]]+)|(?:^|[\"'\s:])(?P<field>[a-z_]+(?:\.\d+)?(?:\.\w+)*)"
                    r": (?:Input should|List should|String should|Value error|Field required|Extra inputs|value is not|must be"
                    r"|should be|no )")
_UNKNOWN_MODEL = re.compile(r"model_not_found|model [`'\"]?\S+[`'\"]? does not exist|The model .* does not exist", re.I)
_BAD_REQUEST = re.compile(r"invalid_request_error|BadRequest", re.I)  # what a 400 says when its status is not kept
_NOT_FOUND = re.compile(r"\b404\b|Not Found", re.I)
# A request URL without http:// or https:// (aiohttp, requests, httpx each say so their way): a base URL given
# without its scheme, wherever the request was going.
URL_WITHOUT_SCHEME = re.compile(r"NonHttpUrlClientError\W*(?:URL\W*)?(?P<url>\w[^\s'()<>\\\"]*)"
                                r"|MissingSchema: Invalid URL '(?P<url2>[^'/][^']*)'"
                                r"|Request URL is missing an 'http://' or 'https://' protocol")
# Request settings a run chooses (Gym's CLI flags, `responses_create_params` of a sweep), not the rows' content.
SETTINGS = frozenset({
    "temperature", "top_p", "top_k", "min_p", "max_tokens", "max_completion_tokens", "max_output_tokens", "n",
    "stop", "seed", "presence_penalty", "frequency_penalty", "repetition_penalty", "logprobs", "top_logprobs",
    "logit_bias", "response_format", "stream", "reasoning", "reasoning_effort", "parallel_tool_calls",
})
# What a row carries into the request.
ROW_FIELDS = frozenset({"messages", "input", "tools", "role", "content", "instructions", "prompt"})

OVERLOAD, SETTING, ROW, ROUTE = "model_overload", "model_setting", "model_row", "model_route"
MODEL_REPLY = "model_reply"
# the collectors' words for a 200 whose body is no chat completion (engines/builtin.py, taskfolders/agents.py)
NOT_A_COMPLETION = re.compile(r"the answer is not a chat completion")
SHORT_TIMEOUT_ROUTE = "short_client_timeout"
# A timeout no model answer fits in (a few tokens take seconds under load): under this, a timed-out request is the
# setting's fault.
SHORT_CLIENT_TIMEOUT_S = 2.0
_CLIENT_TIMEOUT = re.compile(r"(?P<name>\w*timeout\w*)\s*=\s*(?P<seconds>\d+(?:\.\d+)?)\b(?!\s*(?:ms|m\b|min))",
                             re.I)


def client_timeout(text: str) -> tuple[str, float] | None:
    """(the setting, its seconds) of the timeout a failure's text says the client gave itself
    (`request_timeout_s=0.5`)."""
    match = _CLIENT_TIMEOUT.search(text)
    return (match["name"], float(match["seconds"])) if match else None


_LOOPBACK = re.compile(r"\b(?:127\.\d+\.\d+\.\d+|localhost)\b|\[::1\]")


def model_refusal(group: FailureGroup) -> str | None:
    """How a model server's refusal in this group reads (one of the routes above), or None when it is not one."""
    nested = group.nested
    from_model = (server_role(nested.innermost) == "model") if nested else bool(_MODEL_CALL.search(group.text))
    if not from_model:
        return None
    text = nested.inner_text if nested else group.text
    if OVERLOADED_REPLY.search(text) and (nested or group.http_status == 429):
        return OVERLOAD  # (a 5xx that says "overloaded" is the server failing, whatever it thinks)
    if _UNKNOWN_MODEL.search(text):
        return None  # a model name the server does not serve: the unknown-model finding
    status = (nested.inner.code if nested else group.http_status) or _status_in(text)
    if status == 404:
        return ROUTE if _NOT_FOUND.search(text) else None
    if status not in (400, 422) and not (status is None and _BAD_REQUEST.search(text)):
        return None
    name = refused_field(text)
    if name is None:
        return None
    root = name.split(".")[0]
    if root in SETTINGS:
        return SETTING
    if root in ROW_FIELDS:
        return ROW
    return None


def refused_field(text: str) -> str | None:
    match = _PARAM.search(text)
    return (match["param"] or match["field"]) if match else None


def _status_in(text: str) -> int | None:
    match = re.match(r"\s*(\d{3})\b", text)
    return int(match[1]) if match else None


def _verifier_calls_refused(ev: Evidence) -> bool:
    """A Gym server other than the model's logged 429s from a service it calls (its judge, sandbox or helper)."""
    return any(server_role(hit.group("server") or "") != "model" for hit in ev.hits("server_call_rate_limited"))


# a failed attempt's body, as the sidecar keeps it: gzip's first byte, then its second (0x8b) read as text
GZIP_BODY = re.compile(r"\"_ng_failure_response_body\"\s*:\s*\"\\u001f(?:\ufffd|\\u008b|\x8b)")


def failure_route(ev: Evidence, group: FailureGroup) -> str:
    """The one rule that reports a group of failed attempts."""
    if group.problems:
        return "known"  # its text is a known problem's exact message
    text = group.text
    if host_limit(text) is not None:
        return "host_limit"  # the collecting machine's limit, whichever server the request was for
    if URL_WITHOUT_SCHEME.search(text):
        return "url_without_scheme"  # however deep it is nested: the URL the caller was given
    if _VERIFY_RESPONSE.search(text):
        return "verify_response"  # however deep it is nested: the verifier's own answer was malformed
    refusal = model_refusal(group)
    if refusal == OVERLOAD:
        return "endpoint"  # read as overload by the endpoint rule
    if refusal is not None:
        return refusal
    if group.stage == AGENT_STAGE and (CONNECTION.search(text) or _TIMEOUT.search(text)):
        # a call to loopback comes from the host, not from inside a sandbox (Gym gives sandboxed harnesses the
        # machine's network address); refused there after other episodes got results: the model server went away
        if REFUSED.search(text) and _LOOPBACK.search(text) and ev.artifacts.rollouts.valid_rows:
            return "endpoint"
        return "sandbox_network"
    if group.http_status == 200 and GZIP_BODY.search(group.first.text):
        return "compressed"  # gzip bytes where JSON was expected: what forwarded the replies compressed them
    nested = group.nested
    if nested is not None:
        if nested.inner.fields or _FASTAPI_422.search(nested.inner_text) or nested.inner.code == 422:
            return "schema"
        role = server_role(nested.innermost)
        waited = _TIMEOUT.search(nested.inner_text) or _verifier_calls_refused(ev)
        if role in ("verifier", "agent") and waited and not _MODEL_CALL.search(text):
            return "verifier_timeout"  # a judge or sandbox behind the verifier too slow under the run's load
        if role in ("model", "verifier"):
            return f"nested_{role}"
        return "nested_model" if _OPENAI_ERROR.search(nested.inner_text) else "nested_verifier"
    status = group.http_status
    if status == 422:
        return "schema"
    if group.failure_class == ENVIRONMENT_SERVER_FAILED:
        return "verifier_500"
    timed_out = _TIMEOUT.search(group.failure_type or "") or (_TIMEOUT.search(text) and status is None)
    short = (timeout := client_timeout(text)) is not None and timeout[1] < SHORT_CLIENT_TIMEOUT_S
    if timed_out and short and _MODEL_CALL.search(text) and not ev.artifacts.rollouts.valid_rows:
        return SHORT_TIMEOUT_ROUTE  # the client's timeout is shorter than any answer took: none came back in it
    if timed_out and group.failure_class != TIMEOUT_EXCEEDED and _MODEL_CALL.search(text):
        return "endpoint"  # the model server did not answer in time (the built-in collector calls it directly)
    if group.failure_class == TIMEOUT_EXCEEDED or timed_out:
        return "tool_hang" if ev.artifacts.rows_with_tools else "timeout"
    if status is not None and status >= 500 and _AGENT_RUN.search(text) and not _MODEL_CALL.search(text) \
            and not CONNECTION.search(text):
        return "other"  # the agent's /run failed, and nothing says the model server was the one that did
    if CONNECTION.search(text) or status == 429 or (status is not None and status >= 500):
        return "endpoint"
    if status in (401, 403, 404):
        return "auth_config"
    if _MODEL_CALL.search(text) or NOT_A_COMPLETION.search(text):
        return MODEL_REPLY  # what answers at the model URL refused the request, or its answer is not a completion
    return "other"


_FAILING, _RATE_LIMITED, _TIMING_OUT, _DROPPING, _UNREACHABLE = (
    "failing", "rate limited (HTTP 429)", "timing out", "dropping connections", "unreachable")
_ENDPOINT_READINGS = {
    _FAILING: "The endpoint, or the Gym server in front of it, failed while answering (a 503 also while a vLLM "
              "server still loads the weights).",
    _RATE_LIMITED: "The endpoint sheds load: more concurrent requests than it serves (Retry-After says when to "
                   "come back).",
    _TIMING_OUT: "Requests got no answer within the client's timeout: the model server is overloaded (more "
                 "requests in flight than it serves in time), generates very long answers, or hangs.",
    _DROPPING: "The model server closed connections without an answer: it crashed or restarted mid-request, or a "
               "proxy or load balancer in between cut them.",
    _UNREACHABLE: "Nothing answered at the address the servers call: the model server is not started, crashed, or "
                  "the model URL points at the wrong host or port.",
}


def _endpoint_fault(group: FailureGroup) -> str:
    status = group.http_status
    if status == 429:
        return _RATE_LIMITED
    if status is not None and status >= 500:
        return _FAILING
    if _TIMEOUT.search(group.text):
        return _TIMING_OUT
    if DROPPED.search(group.text) and not REFUSED.search(group.text):
        return _DROPPING
    return _UNREACHABLE


@dataclass(frozen=True)
class EndpointFailures:
    what: str  # for a title: "failing (HTTP 502, 503), rate limited (HTTP 429), dropping connections"
    reading: str  # what each of those means
    examples: list[FailureGroup]  # the first group of each, as evidence
    faults: list[str]  # the faults, the one with the most attempts first

    def only_unanswered(self) -> bool:
        """Every failure a request that waited unanswered (timed out, or its connection reset), none an answer."""
        return set(self.faults) <= {_TIMING_OUT, _DROPPING}


def describe_endpoint_failures(groups: list[FailureGroup]) -> EndpointFailures:
    """What the model endpoint did in the `endpoint` groups, the fault with the most attempts first."""
    attempts: Counter[str] = Counter()
    examples: dict[str, FailureGroup] = {}
    for group in groups:
        fault = _endpoint_fault(group)
        attempts[fault] += group.count
        examples.setdefault(fault, group)
    statuses = sorted({g.http_status for g in groups if _endpoint_fault(g) == _FAILING})
    faults = [fault for fault, _ in attempts.most_common()]
    named = [f"{_FAILING} (HTTP {', '.join(map(str, statuses))})" if f == _FAILING else f for f in faults]
    return EndpointFailures(", ".join(named), " ".join(_ENDPOINT_READINGS[f] for f in faults),
                            [examples[f] for f in faults], faults)


def groups_routed(ev: Evidence, *routes: str) -> list[FailureGroup]:
    return [g for g in ev.artifacts.failure_groups if failure_route(ev, g) in routes]


def all_servers_ready(ev: Evidence) -> LogHit | None:
    return next((h for h in ev.hits("servers_ready") if h.groups["ready"] == h.groups["total"]), None)


