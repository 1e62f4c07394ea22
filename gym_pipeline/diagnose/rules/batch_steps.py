"""A job step started in the background by a batch script that ended without waiting for it.

`srun server ... &` in an sbatch script returns at once; when the script's last line runs, the batch job ends and
Slurm cancels the job's steps that still run (`srun: Job step aborted`, `*** STEP 271.0 ... CANCELLED ***`).
A model server started that way printed its URL, then was gone: whatever was meant to use it met nothing. Nobody
cancelled the job; the script lacks a `wait` (or the server belongs in the foreground).
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import UserFile
from gym_pipeline.diagnose.vocabulary import INFRA, MODEL_SERVING

_BACKGROUNDED_STEP = re.compile(r"^\s*srun\b[^#\n]*[^&]&\s*(?:#.*)?$")
_WAIT = re.compile(r"^\s*wait\b")
_SERVER = re.compile(r"\bserve-policy\b|\bvllm\b|\bsglang\b|\bserve\b|\bserver\b|\bgym\s+env\s+start\b|uvicorn")


def _is_batch_script(file: UserFile) -> bool:
    return file.suffix == ".sbatch" or "#SBATCH" in file.text


def _unwaited_step(file: UserFile) -> tuple[int, str] | None:
    """(line number, line) of the last `srun ... &` of a batch script that no `wait` follows."""
    lines = file.text.splitlines()
    for number in range(len(lines), 0, -1):
        if _WAIT.match(lines[number - 1]):
            return None
        if _BACKGROUNDED_STEP.match(lines[number - 1]):
            return number, lines[number - 1].strip()
    return None


def rule_step_ended_with_its_batch_script(ev: Evidence) -> list[Finding]:
    cancelled = [hit for hit in ev.hits("slurm_cancelled") if "." in (hit.group("job") or "")]
    if not cancelled:
        return []
    for file in ev.user_files:
        if not _is_batch_script(file) or (step := _unwaited_step(file)) is None:
            continue
        number, line = step
        hit = cancelled[0]
        job = hit.group("job").split(".")[0]
        aborted = next((h for h in ev.hits("slurm_step_aborted") if h.file == hit.file), None)
        server = bool(_SERVER.search(line))
        what = "the model server" if server else "the step"
        return [Finding(
            category=MODEL_SERVING if server else INFRA,
            title=f"{file.name} starts {what} with `srun ... &` and ends without waiting for it: Slurm cancelled "
                  f"step {hit.group('job')} when the batch script finished",
            evidence=[EvidenceLine(file=file.name, line=number, text=line),
                      *([aborted.evidence()] if aborted else []), hit.evidence()],
            cause=f"{file.name} line {number} runs {what} as a background job step, and no `wait` follows it: the "
                  f"script reached its end, so job {job} ended and Slurm cancelled its running steps. Nobody "
                  f"cancelled the job; {what} was gone moments after it started"
                  + (", and whatever called its URL found nothing listening." if server else "."),
            fix=f"In {file.name}, add `wait` after the `srun ... &` line (the job then lasts as long as {what}; "
                f"end it with `scancel {job}` when done), or run {what} in the foreground without `&`; give the job "
                f"a `--time` that covers the whole collection, then collect again (`--resume`) and profile.",
            explains=frozenset({"slurm_cancelled", "slurm_step_aborted"}),
        )]
    return []
