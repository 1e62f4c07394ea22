"""Step 1: a job chained on another by its id, where the script kept sbatch's sentence instead of the id.

`JOB=$(sbatch collect.sbatch)` holds "Submitted batch job 425" unless sbatch is given `--parsable`; then
`sbatch --dependency=afterok:$JOB profile.sbatch` splits into `--dependency=afterok:Submitted batch job 425
profile.sbatch`, and sbatch refuses it ("Unable to open file batch"): the first job runs, the second never does.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.shell_pitfalls import shell_files
from gym_pipeline.diagnose.vocabulary import CONFIG

_SENTENCE_KEPT = re.compile(r"^\s*(?:export\s+|local\s+)?(?P<name>[A-Za-z_]\w*)=[\"']?\$\(\s*sbatch\b(?![^)]*--parsable)"
                            r"[^)]*\)")
_REFUSED = re.compile(r"sbatch: error: (?:Unable to open file|Batch job submission failed)[^\n]*")


def rule_dependency_on_sbatchs_sentence(ev: Evidence) -> list[Finding]:
    refused = next(((log, head, match) for log, head in ev.log_heads if (match := _REFUSED.search(head))), None)
    if refused is None:
        return []
    for file in shell_files(ev):
        lines = file.text.splitlines()
        for number, line in enumerate(lines, 1):
            if (kept := _SENTENCE_KEPT.match(line)) is None:
                continue
            name = kept["name"]
            used = next(((at, text.strip()) for at, text in enumerate(lines[number:], number + 1)
                         if re.search(rf"--dependency[= ]\S*\$\{{?{name}\b", text)), None)
            if used is None:
                continue
            log, head, match = refused
            said = head.count("\n", 0, match.start()) + 1
            return [Finding(
                category=CONFIG,
                title=f"{file.name}:{number} keeps sbatch's whole sentence in {name} (no --parsable), so the "
                      f"dependency at line {used[0]} is not a job id and sbatch refused that job",
                evidence=[EvidenceLine(file=ev.rel(log), line=said, text=match.group(0)),
                          EvidenceLine(file=file.name, line=number, text=line.strip()),
                          EvidenceLine(file=file.name, line=used[0], text=used[1])],
                cause=f"Without --parsable, sbatch prints \"Submitted batch job <id>\", and {name} holds that "
                      f"sentence: `--dependency=...:${name}` became `...:Submitted batch job <id>`, whose other words "
                      "sbatch took for the script to submit, and it refused the job. The first job ran; the one "
                      "chained on it was never queued.",
                fix=f"In {file.name}:{number}, take the id only: `{name}=$(sbatch --parsable ...)` (it prints "
                    "`<id>` or `<id>;<cluster>`); then submit the chained job again.",
            )]
    return []
