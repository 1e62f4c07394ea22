"""Step 5: a job that stages its data on the node's local disk with `sbcast`, which will not replace last week's copy.

`sbcast tasks.jsonl $LOCAL/tasks.jsonl` copies a file to the job's node; without `--force` it refuses to overwrite a
file already there (`sbcast: error: REQUEST_FILE_BCAST(node): File exists`), and a script that goes on reads the copy
an earlier job left: last week's rows, with the labels fixed since missing. Named when a job's log holds that refusal
and a script of the run calls `sbcast` without `-f`/`--force`.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME

_REFUSED = re.compile(r"^sbcast: error: \S*: File exists\s*$", re.M)
_SBCAST = re.compile(r"^\s*sbcast\s+(?![^#\n]*\s(?:-\w*f\w*|--force)\b)(?P<args>[^#\n]+)")


def rule_stage_copy_not_replaced_by_sbcast(ev: Evidence) -> list[Finding]:
    refused = ev.first_in_log_heads(_REFUSED)
    if refused is None:
        return []
    call = next(lines_matching(ev.user_files, _SBCAST), None)
    if call is None:
        return []
    said = refused[0]
    file, number, line, sbcast = call
    target = sbcast["args"].split()[-1]
    return [Finding(
        category=CACHE_RESUME,
        title=f"{file.name}:{number} stages the data with `sbcast` without --force: it refused to replace {target}, "
              "which an earlier job left on the node, and the job read that copy",
        evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()), said],
        cause=f"sbcast copies a file to the job's node but will not overwrite one already there ({said.file}: `File "
              f"exists`); the script went on, so the run read the copy of {target} that an earlier job staged, not "
              "today's file: whatever changed since (labels fixed, rows added) is missing, and nothing else fails.",
        fix=f"In {file.name}, stage with `sbcast --force {sbcast['args'].strip()}` (or remove the node-local copy "
            "first, and stop the script when the copy fails: `set -e`), then run again from materialize.",
    )]
