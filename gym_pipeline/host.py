"""What stages, model servers and engines share about this host: a free loopback port, the end of a log."""

from __future__ import annotations

import socket
from pathlib import Path

LOOPBACK = "127.0.0.1"
LOG_TAIL_LINES = 20


def free_loopback_port() -> int:
    # The port is free now; a server binds it a moment later (another process could take it in between,
    # which shows as a server that exits before it is ready).
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return probe.getsockname()[1]


def read_log_tail(path: Path, lines: int = LOG_TAIL_LINES, max_bytes: int = 64 * 1024) -> str:
    """The last `lines` lines of a log (read from its last `max_bytes`), or "" when it cannot be read:
    a tail only illustrates an error and must never replace it."""
    try:
        with path.open("rb") as handle:
            handle.seek(0, 2)
            size = handle.tell()
            handle.seek(max(0, size - max_bytes))
            data = handle.read()
    except OSError:
        return ""
    return "\n".join(data.decode("utf-8", errors="replace").splitlines()[-lines:])
