"""What stages, model servers and engines share about this host: a free loopback port, the end of a log,
waiting until a server is ready, stopping a process and everything it started."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import psutil

LOOPBACK = "127.0.0.1"
LOG_TAIL_LINES = 20
T = TypeVar("T")


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


class EndedBeforeReady(RuntimeError):
    """What `wait_until_ready` waited for ended (`ended()` turned true) before it was ready."""


class NotReadyInTime(TimeoutError):
    """`wait_until_ready` gave up: not ready after its timeout."""


def wait_until_ready(ready: Callable[[], T], timeout_s: float, interval_s: float = 0.5,
                     ended: Callable[[], bool] | None = None) -> T:
    """Call `ready()` every `interval_s` until it returns something true, and return that.

    Raises EndedBeforeReady as soon as `ended()` is true (a server that exited), NotReadyInTime after
    `timeout_s`; callers turn them into their own errors, with the log that says why.
    """
    deadline = time.monotonic() + timeout_s
    while not (answer := ready()):
        if ended is not None and ended():
            raise EndedBeforeReady()
        if time.monotonic() > deadline:
            raise NotReadyInTime()
        time.sleep(interval_s)
    return answer


def process_tree(root: int, zombies: bool = False) -> list[psutil.Process]:
    """The live processes of `root`'s tree: `root`, its descendants, and every process of its session
    (a helper that daemonized has left the tree, not the session). `root` was started with
    `start_new_session=True`, so it leads its session and process group. Zombies only when asked."""
    found: dict[int, psutil.Process] = {}
    try:
        leader = psutil.Process(root)
        if os.getsid(root) == root:  # still the session leader we started, not a pid reused since
            found = {p.pid: p for p in (leader, *leader.children(recursive=True))}
    except (OSError, psutil.Error):
        pass
    for process in psutil.process_iter():
        try:
            if process.pid not in found and os.getsid(process.pid) == root:
                found[process.pid] = process
        except (OSError, psutil.Error):  # gone meanwhile
            continue
    return [p for p in found.values() if _alive(p, zombies)]


def stop_process_tree(process: subprocess.Popen | int, first_signal: signal.Signals = signal.SIGINT,
                      grace_s: float = 10.0, kill_wait_s: float = 10.0) -> list[int]:
    """Stop a process started in its own session and everything it started; returns the pids still alive.

    `first_signal` goes to its process group (as a terminal's Ctrl-C would), then up to `grace_s` for the
    whole tree (`process_tree`) to exit; what is left gets SIGKILL, again until it is gone or `kill_wait_s`
    have passed. Pass the `Popen` of a child of ours so that it is reaped here (its exit code stays readable
    through it).
    """
    popen = process if isinstance(process, subprocess.Popen) else None
    root = process.pid if isinstance(process, subprocess.Popen) else process

    def gone_within(timeout_s: float) -> list[psutil.Process]:
        """Wait until the tree has gone, zombies too (reaped by us or by init); what still runs."""
        deadline = time.monotonic() + timeout_s
        while True:
            if popen is not None:
                popen.poll()  # reap our child, else it lingers as a zombie
            left = process_tree(root, zombies=True)
            if not left or time.monotonic() >= deadline:
                return [p for p in left if _alive(p, zombies=False)]
            time.sleep(0.05)

    _signal([p for p in process_tree(root) if _process_group(p) == root], first_signal)
    left = gone_within(grace_s)
    deadline = time.monotonic() + kill_wait_s
    while left and time.monotonic() < deadline:
        _signal(left, signal.SIGKILL)  # again each round: a process may have started another meanwhile
        left = gone_within(min(0.5, max(0.0, deadline - time.monotonic())))
    gone_within(max(0.0, deadline - time.monotonic()))  # the last zombies, while init reaps them
    return sorted(p.pid for p in left)


def _alive(process: psutil.Process, zombies: bool) -> bool:
    try:
        return process.is_running() and (zombies or process.status() != psutil.STATUS_ZOMBIE)
    except psutil.Error:
        return False


def _process_group(process: psutil.Process) -> int | None:
    try:
        return os.getpgid(process.pid)
    except OSError:
        return None


def _signal(processes: list[psutil.Process], signum: signal.Signals) -> None:
    for process in processes:
        try:
            process.send_signal(signum)  # psutil checks the pid still names the same process
        except psutil.Error:
            pass


def docker_unreachable(error: BaseException) -> str:
    """Why the Docker engine of DOCKER_HOST (or the default socket) cannot be used, for an error message: a socket
    that refuses this user is not an engine that is down."""
    where = os.environ.get("DOCKER_HOST", "the default socket")
    if "Permission denied" in str(error) or "PermissionError" in str(error):
        return (f"the Docker engine at {where} refuses this user (permission denied on its socket): add the user to "
                "the docker group (`sudo usermod -aG docker $USER`, then log in again) or point DOCKER_HOST at an "
                "engine it may use")
    return f"no Docker engine answers at {where} ({error})"
