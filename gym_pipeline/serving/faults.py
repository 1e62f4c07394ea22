"""Faults of a real model server, injected into the simulated policy on purpose.

Kinds, on `/v1/chat/completions`:
- `5xx`: 500, 502 or 503 with an OpenAI-style error body;
- `429`: rate limited, with a `Retry-After` header;
- `timeout`: the request is held for `hold_s` (longer than any client waits) before it is answered;
- `drop`: the connection is closed without a response, as when a server process dies mid-request.
Besides, a slow start answers 503 on every route (`/health`, `/v1/models` too) for the first
`slow_start_s` seconds, as vLLM does while it loads the weights.

Which request meets which fault is a hash of (fault seed, request body, how many times that body
was seen), not of arrival order: the same collection against the same seed meets the same faults
however its requests interleave, and a retry of a request draws anew.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import orjson
from aiohttp import web

from gym_pipeline.config import ConfigError

SERVER_ERROR, RATE_LIMITED, TIMEOUT, DROP = "5xx", "429", "timeout", "drop"
FAULT_KINDS = (SERVER_ERROR, RATE_LIMITED, TIMEOUT, DROP)
FAULTY_PATH = "/v1/chat/completions"
_SERVER_ERRORS = {
    500: "Internal server error (injected fault)",
    502: "Bad gateway: the model worker did not answer (injected fault)",
    503: "Service unavailable: the server is overloaded (injected fault)",
}
_NO_RESPONSE = 444  # only for the access log: the client never sees it (nginx's "connection closed")
_HOLD_POLL_S = 0.05


class FaultConfigError(ConfigError):
    pass


def parse_fault_kinds(text: str) -> tuple[str, ...]:
    """`"5xx,429"` -> `("5xx", "429")`; an unknown or missing kind is an error naming the known ones."""
    kinds = tuple(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    unknown = [kind for kind in kinds if kind not in FAULT_KINDS]
    if unknown or not kinds:
        what = f"unknown fault kind {unknown[0]!r}" if unknown else "no fault kind given"
        raise FaultConfigError(f"--fault-kinds: {what} (known: {', '.join(FAULT_KINDS)})")
    return kinds


@dataclass(frozen=True)
class FaultSettings:
    rate: float = 0.0  # probability that a chat completion meets a fault
    kinds: tuple[str, ...] = FAULT_KINDS  # drawn uniformly
    seed: int = 0
    slow_start_s: float = 0.0  # every route answers 503 this long after start
    retry_after_s: int = 1  # the 429's Retry-After (whole seconds, as HTTP has it)
    hold_s: float = 300.0  # how long a `timeout` fault holds the request; the client gives up first

    def __post_init__(self) -> None:
        if not 0.0 <= self.rate <= 1.0:  # also refuses NaN
            raise FaultConfigError(f"--fault-rate must be between 0 and 1, got {self.rate}")
        parse_fault_kinds(",".join(self.kinds))
        # the messages name the `serve-policy` flags that set these fields
        for flag, value in (("--slow-start-s", self.slow_start_s), ("--retry-after-s", self.retry_after_s)):
            if not value >= 0:
                raise FaultConfigError(f"{flag} must be >= 0, got {value}")
        if not self.hold_s > 0:
            raise FaultConfigError(f"--timeout-hold-s must be > 0, got {self.hold_s}")

    @property
    def active(self) -> bool:
        return self.rate > 0 or self.slow_start_s > 0

    def describe(self) -> str:
        """What the server will do wrong on purpose, in the `serve-policy` flags that set it."""
        parts = []
        if self.rate > 0:
            parts.append(f"--fault-rate {self.rate:g} of chat completions fail on purpose (--fault-kinds "
                         f"{','.join(self.kinds)})")
        if self.slow_start_s > 0:
            parts.append(f"every route answers 503 for the first {self.slow_start_s:g} s (--slow-start-s)")
        return "; ".join(parts)


@dataclass(frozen=True)
class Fault:
    kind: str
    status: int | None = None  # the HTTP status of `5xx` and `429`


def openai_error(status: int, message: str, *, error_type: str, param: str | None = None, code: str | None = None,
                 headers: dict[str, str] | None = None) -> web.Response:
    body = {"error": {"message": message, "type": error_type, "param": param, "code": code}}
    return web.Response(body=orjson.dumps(body), status=status, content_type="application/json", headers=headers)


class FaultInjector:
    """Draws the fault of each request (or none) and plays it out; see the module docstring."""

    def __init__(self, settings: FaultSettings):
        self.settings = settings
        self.started = time.monotonic()
        self._seen: Counter[bytes] = Counter()

    def restart_clock(self) -> None:
        self.started = time.monotonic()

    def loading_for(self) -> float:
        """Seconds of slow start still ahead (0 once the server is ready)."""
        return max(0.0, self.started + self.settings.slow_start_s - time.monotonic())

    def draw(self, body: bytes) -> Fault | None:
        settings = self.settings
        if settings.rate == 0:
            return None
        request = hashlib.sha256(body).digest()
        self._seen[request] += 1
        digest = hashlib.sha256(b"%d\x1f%s\x1f%d" % (settings.seed, request, self._seen[request])).digest()
        if _unit(digest[0:8]) >= settings.rate:
            return None
        kind = settings.kinds[int(_unit(digest[8:16]) * len(settings.kinds))]
        if kind == SERVER_ERROR:
            statuses = sorted(_SERVER_ERRORS)
            return Fault(kind, statuses[int(_unit(digest[16:24]) * len(statuses))])
        return Fault(kind, 429 if kind == RATE_LIMITED else None)

    def not_ready(self, seconds_left: float) -> web.Response:
        retry_after = max(1, math.ceil(seconds_left))
        return openai_error(503, f"The model is still loading; ready in about {retry_after} s (slow start)",
                            error_type="server_error", code="model_not_ready",
                            headers={"Retry-After": str(retry_after)})

    async def play(self, fault: Fault, request: web.Request,
                   answer: Callable[[], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        """The response of `request` under `fault`; `answer()` produces the normal one."""
        if fault.kind == SERVER_ERROR and fault.status is not None:
            return openai_error(fault.status, _SERVER_ERRORS[fault.status], error_type="server_error")
        if fault.kind == RATE_LIMITED:
            seconds = self.settings.retry_after_s
            return openai_error(429, f"Rate limit reached: too many requests; retry after {seconds} s (injected fault)",
                                error_type="rate_limit_error", code="rate_limit_exceeded",
                                headers={"Retry-After": str(seconds)})
        if fault.kind == DROP:
            if request.transport is not None:
                request.transport.close()
            return web.Response(status=_NO_RESPONSE)
        await self._hold(request)
        return await answer()

    async def _hold(self, request: web.Request) -> None:
        """Sleep `hold_s`, or less once the client hung up (so a stopped server is not kept waiting)."""
        deadline = time.monotonic() + self.settings.hold_s
        while (left := deadline - time.monotonic()) > 0:
            transport = request.transport
            if transport is None or transport.is_closing():
                return
            await asyncio.sleep(min(_HOLD_POLL_S, left))


def _unit(eight_bytes: bytes) -> float:
    return int.from_bytes(eight_bytes, "big") / 2**64


def install_faults(app: web.Application, settings: FaultSettings) -> FaultInjector:
    """Add fault injection to the policy's app: slow start on every route, drawn faults on chat completions."""
    injector = FaultInjector(settings)

    async def start_clock(app: web.Application) -> None:
        injector.restart_clock()  # the slow start counts from listening, not from building the app

    @web.middleware
    async def inject(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                     ) -> web.StreamResponse:
        seconds_left = injector.loading_for()
        if seconds_left > 0:
            return injector.not_ready(seconds_left)
        if request.path != FAULTY_PATH:
            return await handler(request)
        fault = injector.draw(await request.read())  # read() caches the body for the handler
        if fault is None:
            return await handler(request)
        return await injector.play(fault, request, lambda: handler(request))

    app.on_startup.append(start_clock)
    app.middlewares.append(inject)
    return injector
