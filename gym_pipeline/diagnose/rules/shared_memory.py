"""Step 1: shared memory (/dev/shm) full, met by a process that creates a semaphore or a shared buffer.

`multiprocessing.Pool`, a DataLoader's workers or any `SemLock` allocate in /dev/shm, a small tmpfs (often 64 MB in a
container, half the RAM on a node). Segments a crashed job never unlinked (`torch_*` of a training run, `psm_*`,
`sem.*`) stay there until removed, and the next process fails with `OSError: [Errno 28] No space left on device`
while the disks have room. The traceback through SemLock or shared_memory says which filesystem it was.

A container started with `--ipc none` (a hardening template's flag) has no /dev/shm at all: the first semaphore
fails with `FileNotFoundError: [Errno 2] No such file or directory`, whatever is free.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import container_run_option, lines_matching
from gym_pipeline.diagnose.vocabulary import INFRA

_NO_SPACE = re.compile(r"^OSError: \[Errno 28\] No space left on device.*$", re.M)
_SHARED_MEMORY = re.compile(r"SemLock|shared_memory|/dev/shm|multiprocessing/(?:synchronize|heap)\.py")
_TRACEBACK_LINES = 40  # above the error, where its frames are


_NOT_FOUND = re.compile(r"^FileNotFoundError: \[Errno 2\] No such file or directory\s*$", re.M)
_NO_IPC = container_run_option("--ipc", r"none\b")


def _through_shared_memory(text: str, end: int) -> bool:
    return any(_SHARED_MEMORY.search(frame) for frame in text[:end].splitlines()[-_TRACEBACK_LINES:])


def _container_without_shared_memory(ev: Evidence) -> list[Finding]:
    """A semaphore that found no /dev/shm in a container the run's script starts with `--ipc none`."""
    started = next(lines_matching(ev.user_files, _NO_IPC), None)
    if started is None:
        return []
    file, number, line, _ = started
    for log, text in ev.log_heads:
        for missing in _NOT_FOUND.finditer(text):
            if not _through_shared_memory(text, missing.start()):
                continue
            flag = re.search(r"--ipc[= ]\w+", line)[0]
            what = "prep container" if re.search(r"\bprep", line) else "container"
            return [Finding(
                category=INFRA,
                title=f"{file.name}:{number} starts its {what} with `{flag}`: it has no /dev/shm, and a process in it "
                      "could not create a semaphore (multiprocessing)",
                evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()[:300]),
                          EvidenceLine(file=ev.rel(log), line=text.count("\n", 0, missing.start()) + 1,
                                       text=missing[0].strip())],
                cause=f"`{flag}` gives the container no IPC namespace of its own with shared memory: /dev/shm is not "
                      "mounted in it, and multiprocessing's SemLock (a `Pool`, a `Lock`, a `Queue`) creates its "
                      "semaphores there, so the first one failed with `No such file or directory` and the step "
                      "stopped before writing its output.",
                fix=f"In {file.name}:{number}, drop `{flag}` from the {what}'s `docker run` (or use `--ipc shareable`, "
                    "or `--shm-size` with the default private IPC) so it has a /dev/shm for the multiprocessing Pool; "
                    "then run the step again.",
            )]
    return []


def rule_shared_memory_full(ev: Evidence) -> list[Finding]:
    if found := _container_without_shared_memory(ev):
        return found
    for log, text in ev.log_heads:
        for full in _NO_SPACE.finditer(text):
            if not _through_shared_memory(text, full.start()):
                continue
            number = text.count("\n", 0, full.start()) + 1
            return [Finding(
                category=INFRA,
                title="Shared memory (/dev/shm) is full: a process could not create a semaphore or shared buffer "
                      "there",
                evidence=[EvidenceLine(file=ev.rel(log), line=number, text=full.group(0).strip())],
                cause="The traceback goes through multiprocessing's SemLock (or shared_memory), which allocates in "
                      "/dev/shm, a small in-memory filesystem: it is full, while the disks may have room. Most "
                      "often a crashed job left its segments there (`torch_*` of a training run's DataLoader, "
                      "`psm_*`, `sem.*`), which nothing removes until the node restarts.",
                fix="`df -h /dev/shm` and `ls -la /dev/shm`: remove the leftover segments of jobs no longer running "
                    "(`rm /dev/shm/torch_*` once `fuser` shows no process holds them), or give the container more "
                    "(`docker run --shm-size=1g`); then run the step again.",
                explains=frozenset({"disk_full"}),
            )]
    return []
