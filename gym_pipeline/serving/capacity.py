"""A model server's capacity, for the simulated policy: how many requests it runs at once, how many wait.

A real server generates for a bounded batch (vLLM's `--max-num-seqs`) and queues the rest; a
server with a bounded queue (TGI's `--max-concurrent-requests`, a gateway) refuses what does not
fit with 429. With `max_running` set, the simulated policy does the same, and logs its load the way
vLLM's engine does every few seconds while busy:

    INFO 12-01 18:40:02 [loggers.py:123] Engine 000: Avg prompt throughput: 30.0 tokens/s, Avg generation
    throughput: 120.0 tokens/s, Running: 8 reqs, Waiting: 56 reqs, GPU KV cache usage: 0.0%, Prefix cache
    hit rate: 0.0%

so that overload (far more requests in flight than it runs) shows in its log as it does in vLLM's.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from aiohttp import web

LOAD_LOG_INTERVAL_S = 2.0


class Overloaded(Exception):
    """The queue is full: the request is refused (429), as a bounded server does."""


@dataclass(frozen=True)
class CapacitySettings:
    max_running: int = 0  # requests generated at once; 0: unbounded (no queue, no load log)
    max_waiting: int = 0  # requests queued behind them before 429; 0: an unbounded queue

    def __post_init__(self) -> None:
        if self.max_running < 0 or self.max_waiting < 0:
            raise ValueError(f"max_running and max_waiting must be >= 0, got {self.max_running}, {self.max_waiting}")

    @property
    def bounded(self) -> bool:
        return self.max_running > 0


class Capacity:
    """Running slots and a waiting queue, with counts for the load log."""

    def __init__(self, settings: CapacitySettings):
        self.settings = settings
        self.slots = asyncio.Semaphore(settings.max_running) if settings.bounded else None
        self.running = 0
        self.waiting = 0
        self.prompt_tokens = 0
        self.generated_tokens = 0

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        if self.slots is None:
            yield
            return
        if self.settings.max_waiting and self.running >= self.settings.max_running \
                and self.waiting >= self.settings.max_waiting:
            raise Overloaded(f"The server is overloaded: {self.running} requests running and {self.waiting} "
                             f"waiting (at most {self.settings.max_waiting} may wait); retry later")
        self.waiting += 1
        try:
            await self.slots.acquire()
        finally:
            self.waiting -= 1
        self.running += 1
        try:
            yield
        finally:
            self.running -= 1
            self.slots.release()

    def count_tokens(self, prompt: int, generated: int) -> None:
        self.prompt_tokens += prompt
        self.generated_tokens += generated

    async def log_load(self, interval_s: float = LOAD_LOG_INTERVAL_S) -> None:
        """Print vLLM's engine line while requests run or wait (and once when it goes idle)."""
        busy = False
        while True:
            started = time.monotonic()
            prompt, generated = self.prompt_tokens, self.generated_tokens
            await asyncio.sleep(interval_s)
            elapsed = time.monotonic() - started
            now_busy = bool(self.running or self.waiting)
            if now_busy or busy:
                stamp = time.strftime("%m-%d %H:%M:%S")
                print(f"INFO {stamp} [loggers.py:123] Engine 000: Avg prompt throughput: "
                      f"{(self.prompt_tokens - prompt) / elapsed:.1f} tokens/s, Avg generation throughput: "
                      f"{(self.generated_tokens - generated) / elapsed:.1f} tokens/s, Running: {self.running} reqs, "
                      f"Waiting: {self.waiting} reqs, GPU KV cache usage: 0.0%, Prefix cache hit rate: 0.0%",
                      flush=True)
            busy = now_busy


def install_capacity(app: web.Application, capacity: Capacity) -> None:
    """Run the load log for the app's lifetime (only for a bounded server)."""
    if not capacity.settings.bounded:
        return

    async def load_log(app: web.Application) -> AsyncIterator[None]:
        task = asyncio.create_task(capacity.log_load())
        yield
        task.cancel()

    app.cleanup_ctx.append(load_log)
