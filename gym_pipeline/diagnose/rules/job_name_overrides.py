"""Step 3: a job named on sbatch's command line (`-J smoke-eval`) whose script picks its settings by its name.

An option on sbatch's command line beats the script's `#SBATCH` line: a submit script copied from another pipeline
that keeps `sbatch -J smoke-eval` renames a job whose script says `#SBATCH --job-name=weekly-eval`. When the script
reads its settings by `$SLURM_JOB_NAME` (one script for every pipeline), the job runs the other pipeline's settings
(a smoke subset) and every command exits 0.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import CONFIG

_NAMED_ON_THE_COMMAND_LINE = re.compile(r"\bsbatch\b[^\n#]*?(?:\s-J\s*|\s--job-name[= ])[\"']?(?P<name>[\w.-]+)[\"']?"
                                        r"[^\n#]*?\s(?P<script>[\w./-]+\.(?:sbatch|slurm|sh))\b")
_NAME_DIRECTIVE = re.compile(r"^\s*#SBATCH\s+(?:--job-name[= ]|-J\s*)[\"']?(?P<name>[\w.-]+)", re.M)


def rule_job_renamed_on_the_command_line(ev: Evidence) -> list[Finding]:
    for file, number, line, match in lines_matching(ev.user_files, _NAMED_ON_THE_COMMAND_LINE):
        script = next((other for other in ev.user_files
                       if PurePosixPath(other.name).name == PurePosixPath(match["script"]).name), None)
        directive = _NAME_DIRECTIVE.search(script.text) if script else None
        if script is None or directive is None or directive["name"] == match["name"] \
                or "SLURM_JOB_NAME" not in script.text:
            continue
        given, meant = match["name"], directive["name"]
        directive_line = script.text.count("\n", 0, directive.start()) + 1
        return [Finding(
            category=CONFIG,
            title=f"{file.name}:{number} submits {script.name} with `-J {given}`, which overrides its "
                  f"`#SBATCH --job-name={meant}`: the job, which picks its settings by $SLURM_JOB_NAME, ran as {given}",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                      EvidenceLine(file=script.name, line=directive_line, text=directive[0].strip())],
            cause=f"sbatch's command-line options beat the script's `#SBATCH` lines, so the job was named {given}, not "
                  f"{meant}, and {script.name} chose its settings by $SLURM_JOB_NAME: it ran the {given} entry (another "
                  "pipeline's settings, such as a smoke test's) and every command exited 0.",
            fix=f"Drop `-J {given}` from {file.name}:{number} (the directive names the job {meant}, and {script.name} "
                f"picks its settings by $SLURM_JOB_NAME), or pass the name the settings mean (`-J {meant}`); then submit "
                "again.",
        )]
    return []
