"""Step 1: shared memory (/dev/shm) full, met by a process that creates a semaphore or a shared buffer.

`multiprocessing.Pool`, a DataLoader's workers or any `SemLock` allocate in /dev/shm, a small tmpfs (often 64 MB in a
container, half the RAM on a node). Segments a crashed job never unlinked (`torch_*` of a training run, `psm_*`,
`sem.*`) stay there until removed, and the next process fails with `OSError: [Errno 28] No space left on device`
while the disks have room. The traceback through SemLock or shared_memory says which filesystem it was.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.vocabulary import INFRA

_NO_SPACE = re.compile(r"^OSError: \[Errno 28\] No space left on device.*$", re.M)
_SHARED_MEMORY = re.compile(r"SemLock|shared_memory|/dev/shm|multiprocessing/(?:synchronize|heap)\.py")
_TRACEBACK_LINES = 40  # above the error, where its frames are


def rule_shared_memory_full(ev: Evidence) -> list[Finding]:
    for log, text in ev.log_heads:
        for full in _NO_SPACE.finditer(text):
            frames = text[:full.start()].splitlines()[-_TRACEBACK_LINES:]
            if not any(_SHARED_MEMORY.search(frame) for frame in frames):
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
