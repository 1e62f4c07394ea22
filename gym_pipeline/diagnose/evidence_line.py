"""Everything a report shows passes through here: secrets hidden first, then the line cut to size.

`EvidenceLine` redacts and truncates at construction, so no collector or rule can put an API key,
a password or a token into a finding, whatever text it quotes. The rules themselves are in
`gym_pipeline/core/redaction.py`, shared with everything else that writes or logs.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator

from gym_pipeline.core.redaction import redact

MAX_TEXT_CHARS = 300  # one evidence line


def line_holding(lines: list[str], needle: str) -> int | None:
    """The number (from 1) of the first of `lines` that holds `needle`; None when none does."""
    return next((number for number, line in enumerate(lines, start=1) if needle in line), None)


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
