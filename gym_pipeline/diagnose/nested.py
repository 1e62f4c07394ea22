"""Error bodies: what a failed request's body says, and what Gym's nested "inner server" 500s hide.

Each Gym server wraps an upstream failure as the JSON string
`"Hit an exception in <Class>___<name> calling an inner server: b'<upstream body>'"`, so the
layers alternate a JSON string and a Python bytes literal, and the real error (the model's or
the verifier's own body) sits at the bottom.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Any

import orjson

from gym_pipeline.diagnose.evidence_line import excerpt

MAX_BODY_CHARS = 200_000  # a body is read from at most this many characters

_WRAPPER = re.compile(r"Hit an exception in (?P<server>\S+) calling an inner server: (?P<rest>.*)\Z", re.S)
_WRAPPER_LOOSE = re.compile(r"Hit an exception in (\S+?) calling an inner server")
_MESSAGE_LOOSE = re.compile(r"[\"']message[\"']\s*:\s*[\"']([^\"']*)")
_DETAIL_LOOSE = re.compile(r'"detail":\[\{"type":"(?P<type>[^"]+)","loc":\["(?P<loc>[^\]]+?)"\],"msg":"(?P<msg>[^"]*)"')
_TYPE_LOOSE = re.compile(r"[\"']type[\"']\s*:\s*[\"']([^\"']*)")


@dataclass(frozen=True)
class ErrorBody:
    """What an error body says: OpenAI-style `{"error": {...}}`, FastAPI's `{"detail": ...}`, or a string."""

    kind: str | None = None  # e.g. "BadRequestError"
    message: str | None = None  # e.g. "injected failure", or "missing: body.expected_answer"
    code: int | None = None  # a status code the body names
    fields: tuple[str, ...] = ()  # the request fields a FastAPI validation error names (`loc` without "body")
    wants: tuple[str, ...] = ()  # per field, what the request model wants: "`x`: Input should be a valid integer (got 'a')"

    @property
    def said(self) -> str | None:
        return ": ".join(part for part in (self.kind, self.message) if part) or None


@dataclass(frozen=True)
class NestedError:
    """What a body of nested "Hit an exception in X calling an inner server: ..." hides."""

    chain: tuple[str, ...]  # outermost first: the server whose exception wraps the next one
    inner_text: str  # the innermost body, unescaped
    inner: ErrorBody

    @property
    def innermost(self) -> str:
        return self.chain[-1]

    @property
    def headline(self) -> str:
        if self.inner.kind and self.inner.message:
            return f"{self.inner.kind}: {self.inner.message}"
        return self.inner.message or self.inner.kind or excerpt(self.inner_text, 160) or "(empty body)"

    @property
    def hidden(self) -> bool:
        """The innermost layer says nothing beyond a generic status: the real body was not kept."""
        said = (self.inner.message or self.inner_text).strip().strip("'\"")
        return not said or bool(re.fullmatch(r"(?i)(?:\d{3},? ?)?(?:message=)?'?internal server error'?", said))


def parse_error_body(text: str) -> ErrorBody:
    """Read an error body as the servers Gym talks to write them; a cut body falls back to a loose scan."""
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError:
        value = None
    if isinstance(value, dict):
        error = value.get("error", value)
        if isinstance(error, str):
            return ErrorBody(message=error)
        if isinstance(error, dict):
            message = error.get("message", error.get("detail"))
            fields: tuple[str, ...] = ()
            wants: tuple[str, ...] = ()
            if isinstance(message, list) and all(isinstance(d, dict) for d in message):
                fields = tuple(_field(d) for d in message if _field(d))
                wants = tuple(_wanted(d) for d in message if _field(d))
                message = "; ".join(_fastapi_error(d) for d in message)
            if message is not None and not isinstance(message, str):
                message = orjson.dumps(message).decode()
            kind = error.get("type")
            return ErrorBody(kind if isinstance(kind, str) else None, message, _int(error.get("code")), fields, wants)
    if isinstance(value, str):
        return ErrorBody(message=value)
    flat = text.replace("\\", "")
    message = _MESSAGE_LOOSE.search(flat)
    kind = _TYPE_LOOSE.search(flat)
    # a FastAPI validation error cut short still names its first field and what is wrong with it
    detail = _DETAIL_LOOSE.search(flat)
    if detail:
        loose = {"type": detail["type"], "loc": detail["loc"].split('","'), "msg": detail["msg"]}
        return ErrorBody(None, _fastapi_error(loose), 422, (_field(loose),), (_wanted(loose),))
    return ErrorBody(kind.group(1) if kind else None, message.group(1) if message else None)


def _int(value: Any) -> int | None:
    try:
        return int(value) if value is not None else None
    except (TypeError, ValueError):
        return None


def _field(detail: dict[str, Any]) -> str:
    """FastAPI's `loc` of one validation error, without its leading "body": `expected_answer`, `a.b`."""
    loc = [str(part) for part in detail.get("loc", [])]
    return ".".join(loc[1:] if loc[:1] == ["body"] else loc)


def _wanted(detail: dict[str, Any]) -> str:
    """What one validation error says the field must be, and what it got: "`x`: Field required"."""
    said = detail.get("msg") or detail.get("type") or "invalid"
    got = "" if detail.get("type") == "missing" or "input" not in detail else f" (got {excerpt(repr(detail['input']), 60)})"
    return f"`{_field(detail)}`: {said}{got}"


def _fastapi_error(detail: dict[str, Any]) -> str:
    """`{"type": "missing", "loc": ["body", "x"], "msg": ...}` -> `missing: body.x`."""
    loc = ".".join(str(part) for part in detail.get("loc", []))
    kind = detail.get("type") or detail.get("msg") or "invalid"
    return f"{kind}: {loc}" if loc else str(kind)


def _bytes_literal(text: str) -> str | None:
    if text[:2] not in ("b'", 'b"'):
        return None
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    return value.decode("utf-8", errors="replace") if isinstance(value, bytes) else None


def unwrap_inner_server_error(body: str, max_depth: int = 32) -> NestedError | None:
    """Peel Gym's nested "inner server" 500 bodies down to the innermost server and its error."""
    text = body[:MAX_BODY_CHARS]
    chain: list[str] = []
    for _ in range(max_depth):
        stripped = text.strip()
        if stripped[:1] == '"':
            try:
                value = orjson.loads(stripped)
            except orjson.JSONDecodeError:
                value = None
            if isinstance(value, str):
                text = value
                continue
            if value is None:
                return _unwrap_loose(body)  # a JSON string cut short (Gym truncates long bodies)
        match = _WRAPPER.match(stripped)
        if not match:
            break
        chain.append(match.group("server"))
        rest = match.group("rest").strip()
        decoded = _bytes_literal(rest)
        if decoded is None and rest[:2] in ("b'", 'b"'):
            return _unwrap_loose(body)  # a cut or odd literal
        text = decoded if decoded is not None else rest
    if not chain:
        return None
    inner = text.strip()
    return NestedError(tuple(chain), inner, parse_error_body(inner))


def _unwrap_loose(body: str) -> NestedError | None:
    flat = re.sub(r"\\+", "", body[:MAX_BODY_CHARS])
    chain = _WRAPPER_LOOSE.findall(flat)
    if not chain:
        return None
    inner = flat.rsplit("calling an inner server: ", 1)[-1].lstrip("b'\"").rstrip("'\"")
    return NestedError(tuple(chain), inner, parse_error_body(inner))
