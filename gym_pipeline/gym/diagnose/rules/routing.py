"""Which rule owns a group of failed attempts: exactly one, so no failure is reported twice."""

from __future__ import annotations

import re

from gym_pipeline.gym.diagnose.artifacts import FailureGroup
from gym_pipeline.gym.diagnose.evidence import Evidence
from gym_pipeline.gym.diagnose.logs import LogHit
from gym_pipeline.gym.diagnose.vocabulary import AGENT_STAGE
from gym_pipeline.gym.failure_kinds import ENVIRONMENT_SERVER_FAILED, TIMEOUT_EXCEEDED

CONNECTION = re.compile(
    r"Connection refused|ConnectionRefused|ClientConnectorError|Cannot connect to host|ServerDisconnected"
    r"|ClientOSError|Connection reset|RemoteProtocolError|ConnectError|unreachable|Name or service not known",
    re.I,
)
_TIMEOUT = re.compile(r"timeout|timed out", re.I)
_FASTAPI_422 = re.compile(r"[\"']loc[\"']\s*:|Field required|validation error", re.I)
_OPENAI_ERROR = re.compile(r"[\"']error[\"']\s*:|BadRequest|RateLimit|APIError|APIConnection|InternalServerError", re.I)


def server_role(name: str) -> str:
    """'model', 'verifier' or 'agent' for a Gym server name such as `VLLMModel___policy_model`."""
    if re.search(r"resources?_?server|environment_?server|verif|judge_?resources", name, re.I):
        return "verifier"
    if re.search(r"model|vllm|openai|llm", name, re.I):
        return "model"
    if re.search(r"agent", name, re.I):
        return "agent"
    return "unknown"


def failure_route(ev: Evidence, group: FailureGroup) -> str:
    """The one rule that reports a group of failed attempts."""
    if group.problems:
        return "known"  # its text is a known problem's exact message
    text = group.text
    if group.stage == AGENT_STAGE and (CONNECTION.search(text) or _TIMEOUT.search(text)):
        return "sandbox_network"
    nested = group.nested
    if nested is not None:
        if nested.inner.fields or _FASTAPI_422.search(nested.inner_text) or nested.inner.code == 422:
            return "schema"
        role = server_role(nested.innermost)
        if role in ("model", "verifier"):
            return f"nested_{role}"
        return "nested_model" if _OPENAI_ERROR.search(nested.inner_text) else "nested_verifier"
    status = group.http_status
    if status == 422:
        return "schema"
    if group.failure_class == ENVIRONMENT_SERVER_FAILED:
        return "verifier_500"
    if group.failure_class == TIMEOUT_EXCEEDED or _TIMEOUT.search(group.failure_type or "") or (
        _TIMEOUT.search(text) and status is None
    ):
        return "tool_hang" if ev.artifacts.rows_with_tools else "timeout"
    if CONNECTION.search(text) or status == 429 or (status is not None and status >= 500):
        return "endpoint"
    if status in (401, 403, 404):
        return "auth_config"
    return "other"


def groups_routed(ev: Evidence, *routes: str) -> list[FailureGroup]:
    return [g for g in ev.artifacts.failure_groups if failure_route(ev, g) in routes]


def all_servers_ready(ev: Evidence) -> LogHit | None:
    return next((h for h in ev.hits("servers_ready") if h.groups["ready"] == h.groups["total"]), None)


