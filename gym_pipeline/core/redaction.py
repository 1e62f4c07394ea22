"""Secrets hidden before anything is written, logged or shown: API keys, passwords, tokens, URL credentials.

`redact` hides them in text (log lines, error messages, failure rows, command lines), `redact_value`
in structured records (manifests, Dagster metadata, the diagnosis summary). Every sink applies one of
them; the diagnosis applies `redact` again to each line it quotes (see `diagnose/redaction.py`).
"""

from __future__ import annotations

import re
from typing import Any

# The value a secret-bearing key or flag is given: quoted, or up to a separator.
_VALUE = r"(\"[^\"]*\"|'[^']*'|[^\s\"',;}&)\]]+)"

_SECRET_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    # Authorization: Bearer <token> (and any other "Bearer <token>"), Authorization: Basic <base64>
    (re.compile(r"(?i)\b(bearer\s+)[A-Za-z0-9._~+/=:-]+"), r"\1***"),
    (re.compile(r"(?i)\b(authorization[\"']?\s*[=:]\s*[\"']?basic\s+)[A-Za-z0-9+/=]+"), r"\1***"),
    # docker/podman/buildah login -p X / --password X / --password=X
    (re.compile(r"(?i)(\b(?:docker|podman|buildah|helm|oras|skopeo)\s+login\b[^\n]*?\s(?:-p|--password)(?:\s*=\s*|\s+))" + _VALUE),
     r"\1***"),
    # --model-api-key X, --api-key=X, --hf-token X, --password X, --secret X
    (re.compile(r"(?i)(--[\w-]*(?:api[-_]?key|token|password|passwd|secret)(?:\s*=\s*|\s+))" + _VALUE), r"\1***"),
    # api_key=X, "api_key": "X", OPENAI_API_KEY=X, ++policy_api_key=X, password: X, HF_TOKEN=X, "secret": "X"
    (re.compile(r"(?i)([\w.-]*(?:api[-_]?key|password|passwd|secret|token)[\"']?\s*[=:]\s*[\"']?)([^\s\"',;}&)\]]+)"),
     r"\1***"),
    # user:password@host in any URL, and a lone token as the user (https://<token>@host)
    (re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://[^\s:/@]+:)[^\s@/]+@"), r"\1***@"),
    (re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^\s:/@]+@"), r"\1***@"),
    # well-known token shapes anywhere in a line
    (re.compile(r"\b(sk|rk|pk)-[A-Za-z0-9_-]{8,}"), r"\1-***"),
    (re.compile(r"\bnvapi-[A-Za-z0-9_-]{8,}"), "nvapi-***"),
    (re.compile(r"\bhf_[A-Za-z0-9]{8,}"), "hf_***"),
    (re.compile(r"\bgh[pousr]_[A-Za-z0-9]{16,}"), "gh_***"),
    (re.compile(r"\bdckr_pat_[A-Za-z0-9_-]{8,}"), "dckr_pat_***"),
)


def redact(text: str) -> str:
    """Hide API keys, passwords, tokens and URL credentials in any text."""
    for pattern, replacement in _SECRET_PATTERNS:
        text = pattern.sub(replacement, text)
    return text


# In structured records, a key whose whole string value is a secret: `api_key`, `OPENAI_API_KEY`, `password`,
# `hf_token`, `client_secret`, `Authorization`. Not `api_key_env` (a variable's name) nor `max_tokens`.
_SECRET_KEY = re.compile(r"(?i)(?:api[-_]?key|password|passwd|secret|token|authorization)$")


def redact_value(value: Any) -> Any:
    """A JSON-like value with its secrets hidden: every string as `redact` does, and the whole string
    under a secret-named key. Other values (numbers, digests' structure, key order) are kept."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {key: "***" if _is_secret_entry(key, item) else redact_value(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [redact_value(item) for item in value]
    return value


def _is_secret_entry(key: Any, item: Any) -> bool:
    return isinstance(key, str) and isinstance(item, str) and bool(item) and bool(_SECRET_KEY.search(key))
