"""Step 1: a submit script that cancels jobs by name (or all of the user's jobs) after it has submitted its own.

`scancel --name=weekly-eval`, meant for last week's leftover job, placed after the `sbatch` of this week's job of the
same name, cancels the new job too, most often before it ran a line: the run folder has no job log, no rollouts and
no error, and the submit script, which waits for the job to leave the queue, exits 0. `scancel -u $USER` does the same
to every job of the user. Named from the order of the two lines in the script and the job name of the batch script it
submits.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.shell_pitfalls import shell_files
from gym_pipeline.diagnose.user_scripts import joined_commands, lines_matching
from gym_pipeline.diagnose.vocabulary import CONFIG

_JOB_NAME = re.compile(r"^\s*#SBATCH\s+(?:--job-name[= ]|-J\s*)[\"']?(?P<name>[\w.-]+)")
_SBATCH = re.compile(r"\bsbatch\b[^\n#;|&]*?(?P<script>[\w./-]+\.(?:sbatch|sh|slurm|batch))\b")
_SCANCEL_BY_NAME = re.compile(r"\bscancel\b[^\n#;|&]*?(?:--name[= ]|--jobname[= ]|-n\s*)[\"']?(?P<name>[\w.-]+)")
_SCANCEL_ALL_MINE = re.compile(r"\bscancel\b(?:\s+(?:--user[= ]|-u\s*)\S+)(?:\s+-\S+)*\s*(?:$|[;|&#])")


def rule_submit_script_cancels_its_own_job(ev: Evidence) -> list[Finding]:
    if ev.artifacts.rollouts.valid_rows:
        return []
    names = {match["name"]: (file.name, number, line.strip())
             for file, number, line, match in lines_matching(ev.user_files, _JOB_NAME)}
    for file in shell_files(ev):
        submitted: tuple[int, str, str] | None = None  # (line, command, job name) of the last sbatch seen
        for number, command in joined_commands(file):
            if command.lstrip().startswith("#"):
                continue
            if (sbatch := _SBATCH.search(command)) and (name := _name_of(names, sbatch["script"])):
                submitted = (number, command.strip(), name)
                continue
            if submitted is None:
                continue
            by_name = _SCANCEL_BY_NAME.search(command)
            if not (by_name and by_name["name"] == submitted[2]) and not _SCANCEL_ALL_MINE.search(command):
                continue
            job_name = names[submitted[2]]
            return [Finding(
                category=CONFIG,
                title=f"{file.name}:{number} cancels "
                      + (f"every job named {submitted[2]}" if by_name else "every job of the user")
                      + f" after line {submitted[0]} submitted this run's job ({submitted[2]}): it cancelled its own job",
                evidence=[EvidenceLine(file=file.name, line=number, text=command.strip()),
                          EvidenceLine(file=file.name, line=submitted[0], text=submitted[1]),
                          EvidenceLine(file=job_name[0], line=job_name[1], text=job_name[2])],
                cause=f"`{command.strip()}` is meant for a leftover job of an earlier run, but it runs after the "
                      f"`sbatch` of line {submitted[0]}, and the job just submitted "
                      + (f"has the same name ({job_name[0]}:{job_name[1]})" if by_name else "is the user's too")
                      + ": Slurm cancelled it, most often before it ran a line, so the run has no job log, no "
                        "rollouts and no error, and the script that waited for the job exited 0.",
                fix=f"In {file.name}, cancel the leftover job before submitting (move line {number}, "
                    f"`{command.strip()}`, above line {submitted[0]}), or cancel it by its id and never the new one "
                    f"(`squeue -h -n {submitted[2]} -o %i | grep -vx \"$JOB\" | xargs -r scancel`); then submit again.",
            )]
    return []


def _name_of(names: dict[str, tuple[str, int, str]], script: str) -> str | None:
    """The job name the batch script `script` (as the sbatch line names it) gives its job."""
    leaf = script.rsplit("/", 1)[-1]
    return next((name for name, (file, _, _) in names.items() if file.rsplit("/", 1)[-1] == leaf), None)
