"""One writer per run directory: an OS lock on `<run_dir>/.gym_pipeline.lock` plus a record of its holder.

The lock is `fcntl.flock` on a file that is never deleted, so the kernel releases it when its holder
exits, however it exits. A second writer is refused at once with a `RunDirectoryLockedError` naming
the holder from the record it keeps in the lock file (pid, host, command, stage, Dagster run, start
time). A holder that dies leaves its record behind but not the lock: the next writer takes the lock
over, says so in a warning, and writes its own record.

Within one process the lock is re-entrant for the thread that holds it, so a Dagster step that locks
a partition's folder can call `collect()` or `write_profile()`, which lock it again, without waiting
on itself. Another thread of the same process is refused like any other writer.
"""

from __future__ import annotations

import fcntl
import logging
import os
import shlex
import socket
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

import orjson

from gym_pipeline.core.redaction import redact

LOCK_FILE = ".gym_pipeline.lock"
_MAX_COMMAND_CHARS = 200
_MAX_RECORD_BYTES = 4096
_RECORD_READS = 20  # 10 ms apart

log = logging.getLogger(__name__)


class RunDirectoryError(RuntimeError):
    """A run directory that this process cannot write."""


class RunDirectoryLockedError(RunDirectoryError):
    """Another writer holds the run directory's lock."""

    def __init__(self, run_dir: Path, holder: LockHolder | None):
        self.run_dir = run_dir
        self.holder = holder
        who = holder.describe() if holder else "another process (it has not recorded itself yet)"
        super().__init__(f"run directory {run_dir} is in use by {who}; wait for it or stop it")


@dataclass(frozen=True)
class LockHolder:
    pid: int
    host: str
    command: str
    stage: str
    started_at: str
    dagster_run_id: str | None = None

    def describe(self) -> str:
        run = f", Dagster run {self.dagster_run_id}" if self.dagster_run_id else ""
        return (f"pid {self.pid} ({self.command}; stage {self.stage}{run}) on host {self.host} "
                f"since {self.started_at}")


@dataclass
class _HeldLock:
    fd: int
    holder: LockHolder
    thread: int
    depth: int = 0


_held: dict[Path, _HeldLock] = {}
_held_guard = threading.Lock()


def _command() -> str:
    words = [Path(sys.argv[0]).name, *sys.argv[1:]] if sys.argv and sys.argv[0] else ["python"]
    command = redact(shlex.join(words))
    return command if len(command) <= _MAX_COMMAND_CHARS else command[: _MAX_COMMAND_CHARS - 3] + "..."


def _read_holder(fd: int) -> LockHolder | None:
    """The record in the lock file, or None when there is none (or it is half written)."""
    try:
        return LockHolder(**orjson.loads(os.pread(fd, _MAX_RECORD_BYTES, 0)))
    except (orjson.JSONDecodeError, TypeError):
        return None


def _recorded_holder(fd: int) -> LockHolder | None:
    """A refused writer's view of the holder, which writes its record just after taking the lock."""
    for _ in range(_RECORD_READS):
        if (holder := _read_holder(fd)) is not None:
            return holder
        time.sleep(0.01)
    return None


def _file_in_the_way(run_dir: Path) -> Path | None:
    """The run directory, or the nearest of its parents, when it exists as something other than a directory."""
    for path in (run_dir, *run_dir.parents):
        if path.exists():
            return None if path.is_dir() else path
    return None


def dangling_link(path: Path) -> str | None:
    """What is wrong when `path`, or one of its parents, is a symlink to nothing (a scratch filesystem not mounted):
    writing there would create the target's folders wherever it points, on whatever disk holds the mount point."""
    link = next((part for part in (path, *path.parents) if part.is_symlink() and not part.exists()), None)
    if link is None:
        return None
    try:
        link.resolve(strict=True)
    except RuntimeError:  # Python's word for a loop (ELOOP): the links lead back to one another
        return f"{link} is a symlink loop ({link} -> {os.readlink(link)} -> ...): too many levels of symbolic links"
    except OSError:
        pass
    return f"{link} is a symlink to {os.readlink(link)}, which does not exist (a filesystem not mounted?)"


def _acquire(run_dir: Path, stage: str, dagster_run_id: str | None) -> _HeldLock:
    # The record is ready before the lock is taken, so that it is written a moment after.
    holder = LockHolder(
        pid=os.getpid(), host=socket.gethostname(), command=_command(), stage=stage,
        started_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), dagster_run_id=dagster_run_id,
    )
    try:
        run_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(run_dir / LOCK_FILE, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as error:
        reason = error.strerror
        if blocker := _file_in_the_way(run_dir):  # mkdir says only EEXIST or ENOTDIR
            reason = f"{blocker} is a file, not a directory: move it away, or write the run elsewhere"
        raise RunDirectoryError(f"cannot lock run directory {run_dir}: {reason}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        current = _recorded_holder(fd)
        os.close(fd)
        raise RunDirectoryLockedError(run_dir, current) from None
    # A record left under a free lock belongs to a holder that died without releasing it.
    previous = _read_holder(fd)
    if previous is not None:
        log.warning("run directory %s: taking over the lock of %s, which ended without releasing it",
                    run_dir, previous.describe())
    os.ftruncate(fd, 0)
    os.pwrite(fd, orjson.dumps(asdict(holder)), 0)
    return _HeldLock(fd, holder, threading.get_ident())


def _release(held: _HeldLock) -> None:
    os.ftruncate(held.fd, 0)  # an empty record: released cleanly, nothing to take over
    os.close(held.fd)  # closing the last descriptor releases the flock


@contextmanager
def run_directory_lock(run_dir: Path | str, stage: str, dagster_run_id: str | None = None) -> Iterator[LockHolder]:
    """Hold the run directory's lock for the `with` block; refuse at once if another writer holds it.

    Nested use by the thread that holds it is allowed and keeps the outer holder's record.
    """
    if problem := dangling_link(Path(run_dir)):
        raise RunDirectoryError(f"cannot lock run directory {run_dir}: {problem}")
    key = Path(run_dir).resolve()
    with _held_guard:
        held = _held.get(key)
        if held is None:
            held = _held[key] = _acquire(key, stage, dagster_run_id)
        elif held.thread != threading.get_ident():
            raise RunDirectoryLockedError(key, held.holder)
        held.depth += 1
    try:
        yield held.holder
    finally:
        with _held_guard:
            held.depth -= 1
            if held.depth == 0:
                del _held[key]
                _release(held)

