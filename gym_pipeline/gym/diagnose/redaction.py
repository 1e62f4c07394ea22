"""Everything a report shows passes through here: secrets hidden first, then the line cut to size.

`EvidenceLine` redacts and truncates at construction, so no collector or rule can put an API key,
a password or a token into a finding, whatever text it quotes.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator

MAX_TEXT_CHARS = 300  # one evidence line

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
    # user:password@host in any URL
    (re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://[^\s:/@]+:)[^\s@/]+@"), r"\1***@"),
    # well-known token shapes anywhere in a line
    (re.compile(r"\b(sk|rk|pk)-[A-Za-z0-9_-]{8,}"), r"\1-***"),
    (re.compile(r"\bnvapi-[A-Za-z0-9_-]{8,}"), "nvapi-***"),
    (re.compile(r"\bhf_[A-Za-z0-9]{8,}"), "hf_***"),
    (re.compile(r"\bgh[pousr]_[A-Za-z0-9]{16,}"), "gh_***"),
    (re.compile(r"\bdckr_pat_[A-Za-z0-9_-]{8,}"), "dckr_pat_***"),
)


def redact(text: str) -> str:
    """Hide API keys, passwords, tokens and URL credentials in any text a report may show."""
    for pattern, replacement in _SECRET_PATTERNS:
        text = pattern.sub(replacement, text)
    return text


def excerpt(text: str, limit: int = MAX_TEXT_CHARS) -> str:
    """One redacted line of at most `limit` characters (redaction first: a cut never reveals a key)."""
    one_line = " ".join(redact(text).split())
    if len(one_line) <= limit:
        return one_line
    return one_line[: limit - 1].rstrip() + "…"


class EvidenceLine(BaseModel):
    """A pointer into the run: `file` (relative to the run folder, or a probe), 1-based `line`, `text`."""

    model_config = ConfigDict(frozen=True)

    file: str
    line: int | None = None
    text: str

    @field_validator("text", mode="before")
    @classmethod
    def _redact_and_truncate(cls, value: Any) -> str:
        return excerpt(str(value))

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file
