"""Step 1: a job chained on another by its id, where the script kept sbatch's sentence instead of the id.

`JOB=$(sbatch collect.sbatch)` holds "Submitted batch job 425" unless sbatch is given `--parsable`; then
`sbatch --dependency=afterok:$JOB profile.sbatch` splits into `--dependency=afterok:Submitted batch job 425
profile.sbatch`, and sbatch refuses it ("Unable to open file batch"): the first job runs, the second never does.

A job chained on one task of an array (`--dependency=afterok:${ARRAY}_0`, written the way squeue shows the array)
waits for that task only: the merge job runs while the other shards are still collecting, and merges what is there.
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


# `afterok:${ARRAY}_0`, `afterany:1488_2`: one task of an array, not the array (`afterok:$ARRAY` waits for every task)
_ONE_ARRAY_TASK = re.compile(r"\bafter(?:ok|any|notok|corr)?:(?P<array>\$\{?[A-Za-z_]\w*\}?|\d+)_(?P<task>\d+)\b")
_ARRAY_SUBMITTED = re.compile(r"^\s*#SBATCH\s+(?:--array[= ]|-a\s)|\bsbatch\b[^\n#]*\s(?:--array[= ]|-a\s)", re.M)


def rule_dependency_on_one_array_task(ev: Evidence) -> list[Finding]:
    a = ev.artifacts
    if not a.missing_keys or not any(_ARRAY_SUBMITTED.search(file.text) for file in ev.user_files):
        return []  # every rollout is there: the merge waited long enough
    for file in shell_files(ev):
        for number, line in enumerate(file.text.splitlines(), 1):
            if line.lstrip().startswith("#") or (chained := _ONE_ARRAY_TASK.search(line)) is None:
                continue
            array, task = chained["array"], chained["task"]
            return [Finding(
                category=CONFIG,
                title=f"{file.name}:{number} chains the next job on task {task} of the array only (`{chained[0]}`): "
                      f"it ran before the other tasks had finished, and {len(a.missing_keys)} rollouts were not "
                      "there yet",
                evidence=[EvidenceLine(file=file.name, line=number, text=line.strip())],
                cause=f"`{chained[0]}` names one task of the array job ({array}_{task}, as squeue shows it), so "
                      "Slurm starts the next job as soon as that task succeeds, while the other tasks are still "
                      "running: it merged and profiled the shards finished by then, and every job exited 0.",
                fix=f"In {file.name}:{number}, chain on the whole array: `--dependency=afterok:{array}` instead of "
                    f"`{chained[0]}` (the array's id alone waits for every task, `_{task}` for one); then run the merge (and profile) again once every task has "
                    "finished.",
            )]
    return []
