"""The open-files limit a user's script sets or prints, against the concurrency it collects with.

Each request in flight holds a socket, and Python holds its own files besides: a collection with `--concurrency 96`
under `ulimit -n 32` runs out of descriptors (EMFILE) on its first wave. When the script itself sets the limit
(`ulimit -n 32`, a node's hardening line) or prints it (`echo "open files: $(ulimit -n)"`) beside the concurrency it
asks for, the two are the run's sizing to reconcile (throughput/resources), not a fault of the machine.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, lines_matching

_SET_LIMIT = re.compile(r"^\s*ulimit\s+(?:-S\s+|-H\s+)?-(?:S|H)?n\s+(?P<limit>\d+)\b")
_PRINTED_LIMIT = re.compile(r"\b(?:echo|printf)\b[^\n]*?(?P<before>[\w (:=-]*?)\$\(\s*ulimit\s+(?:-S\s+)?-n\s*\)")
# Python, the event loop and the logs hold a few descriptors of their own before the first request
_OWN_DESCRIPTORS = 8


@dataclass(frozen=True)
class SizedLimit:
    limit: int
    concurrency: int
    where: EvidenceLine  # the line that sets the limit, or the log line that printed it
    script: str  # the script that sets or prints it


def limit_below_concurrency(ev: Evidence) -> SizedLimit | None:
    """The open-files limit the run's scripts set or printed, when the collection's concurrency needs more."""
    concurrency = max((n for n, _ in ev.manifest.concurrency), default=None)
    if concurrency is None:
        return None
    found = _limit_set(ev) or _limit_printed(ev)
    if found is None or concurrency + _OWN_DESCRIPTORS <= found[0]:
        return None
    return SizedLimit(found[0], concurrency, *found[1:])


def _limit_set(ev: Evidence) -> tuple[int, EvidenceLine, str] | None:
    for file, number, line, match in lines_matching(ev.user_files, _SET_LIMIT, SCRIPT_SUFFIXES):
        return int(match["limit"]), EvidenceLine(file=file.name, line=number, text=line.strip()), file.name
    return None


def _limit_printed(ev: Evidence) -> tuple[int, EvidenceLine, str] | None:
    for file, _, _, match in lines_matching(ev.user_files, _PRINTED_LIMIT, SCRIPT_SUFFIXES):
        before = match["before"].strip()
        if len(before) < 3:
            continue
        if found := ev.first_in_log_heads(re.compile(rf"{re.escape(before)}\s*(?P<limit>\d+)")):
            line, printed = found
            return int(printed["limit"]), line, file.name
    return None
