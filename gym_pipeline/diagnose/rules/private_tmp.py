"""Step 1: an eval run as a systemd service with `PrivateTmp=yes`, whose results another step reads from /tmp.

A unit's `PrivateTmp=yes` (common in hardening templates) gives the service a /tmp and /var/tmp of its own, emptied
when it ends. A run script that works in /var/tmp/... leaves nothing there for a later step outside the service (a
cron job that publishes the results): that step reads the real /var/tmp, where an earlier run made by hand may still
lie, and publishes it. Every command exits 0. Named from the unit's line, the script's path and the reader's line.
"""

from __future__ import annotations

import re
from pathlib import PurePath

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import INFRA

_PRIVATE_TMP = re.compile(r"^\s*PrivateTmp\s*=\s*(?:yes|true|on|1)\s*$", re.I | re.M)
_EXEC_START = re.compile(r"^\s*ExecStart\s*=\s*[-@+!:]*(?P<command>.+)$", re.M)
_TMP_PATH = re.compile(r"(?<![\w.-])(?P<path>/(?:var/)?tmp/[\w.-]+)")


def rule_results_left_in_a_services_private_tmp(ev: Evidence) -> list[Finding]:
    for unit in ev.user_files:
        if unit.suffix != ".service" or (private := _PRIVATE_TMP.search(unit.text)) is None:
            continue
        started = _EXEC_START.search(unit.text)
        scripts = {PurePath(word).name for word in started["command"].split()} if started else set()
        inside = [file for file in ev.user_files if PurePath(file.name).name in scripts]
        paths = {match["path"]: file for file in inside for match in _TMP_PATH.finditer(file.text)}
        for path, script in paths.items():
            outside = [file for file in ev.user_files if file not in inside and file is not unit]
            read = next(lines_matching(outside, re.compile(rf"{re.escape(path)}(?![\w.-])")), None)
            if read is None:
                continue
            number = unit.text.count("\n", 0, private.start()) + 1
            return [Finding(
                category=INFRA,
                title=f"{unit.name}:{number} gives the eval a private /tmp and /var/tmp (`PrivateTmp=yes`): what "
                      f"{script.name} wrote in {path} ended with the service, and {read[0].name}:{read[1]} read the "
                      f"real {path}, an earlier run's",
                evidence=[EvidenceLine(file=unit.name, line=number, text=private.group(0).strip()),
                          EvidenceLine(file=read[0].name, line=read[1], text=read[2].strip())],
                cause=f"systemd runs {unit.name} with a /tmp and /var/tmp of its own when `PrivateTmp=yes`, and removes "
                      f"them when the service ends: the results {script.name} left in {path} were never in the "
                      f"{path} that {read[0].name} (run outside the service) reads, which still held what an "
                      "earlier run outside the service left there. Every command exits 0.",
                fix=f"Have {script.name} write its results outside /tmp and /var/tmp (a folder of the service's own, "
                    f"`StateDirectory=` in {unit.name}, or the shared results folder), or remove `PrivateTmp=yes` "
                    f"from {unit.name}; clear the stale {path}, then run the eval again and publish its results.",
            )]
    return []
