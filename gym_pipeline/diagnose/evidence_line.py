"""Everything a report shows passes through here: secrets hidden first, then the line cut to size.

`EvidenceLine` redacts and truncates at construction, so no collector or rule can put an API key,
a password or a token into a finding, whatever text it quotes. The rules themselves are in
`gym_pipeline/core/redaction.py`, shared with everything else that writes or logs.
"""

from __future__ import annotations

import re
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


def line_of_match(file: str, text: str, match: re.Match[str]) -> EvidenceLine:
    """The whole line of `text` (a file's or a log's head, named `file`) that holds `match` (the lines, for a match
    over several), numbered from 1 by the line it starts on."""
    start = text.rfind("\n", 0, match.start()) + 1
    end = text.find("\n", match.end())
    return EvidenceLine(file=file, line=text.count("\n", 0, match.start()) + 1,
                        text=text[start:end if end >= 0 else None].strip())
