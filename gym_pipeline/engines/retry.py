"""How long the collector waits before it tries a failed request again."""

from __future__ import annotations

import math
import random
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

# A server's Retry-After is honoured up to this long: a misconfigured "Retry-After: 86400" must not
# park a collection slot for a day (the attempt fails again and ends in the sidecar instead).
MAX_DELAY_S = 30.0
# Statuses whose Retry-After means "come back later"; on other errors it is ignored.
RETRY_AFTER_STATUSES = (429, 503)


def parse_retry_after(value: str | None) -> float | None:
    """Seconds to wait from a Retry-After header (delay-seconds or an HTTP date), or None when absent or unreadable."""
    if value is None:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        seconds = (when - datetime.now(UTC)).total_seconds()
    return max(0.0, seconds) if math.isfinite(seconds) else None


def retry_delay(attempt: int, base_s: float, retry_after_s: float | None = None) -> float:
    """Exponential backoff with jitter after failed attempt number `attempt` (0-based).

    The jitter (0.5x to 1.5x) spreads the retries of requests that failed together, so they do not
    hit a recovering server at the same moment. A Retry-After longer than the backoff is waited out,
    up to `MAX_DELAY_S`.
    """
    backoff = base_s * 2**attempt * (0.5 + random.random())
    return min(MAX_DELAY_S, max(backoff, retry_after_s or 0.0))
