"""A batch job whose `--output` (or `--error`) file is in a folder that does not exist.

Slurm opens the job's output file before the script runs, and does not create its folder: with
`#SBATCH --output=slurm_logs/eval_%j.out` and no slurm_logs/ in the submit folder, the job fails at once, runs not a
line of the script, and leaves no log at all. `sbatch` itself succeeded, so a script that submits, waits and goes on
meets only what the job never made (no rollouts to profile).
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import CONFIG

_OUTPUT_OPTION = re.compile(r"^\s*#SBATCH\s+(?P<option>--output|--error|-o|-e)[= ]\s*(?P<path>\S+)")
_CHDIR_OPTION = re.compile(r"^\s*#SBATCH\s+(?:--chdir|-D)[= ]")


def rule_job_output_in_a_missing_folder(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None:
        return []
    for file, number, line, match in lines_matching(ev.user_files, _OUTPUT_OPTION):
        path = PurePosixPath(match["path"].strip("\"'"))
        # an absolute path or a job that changes folder: where it points cannot be told from the run folder
        if path.is_absolute() or "%" in str(path.parent) or any(_CHDIR_OPTION.match(text) for text in file.text.splitlines()):
            continue
        folder = path.parent
        submit_dir = ev.run_dir / PurePosixPath(file.name).parent
        if str(folder) == "." or (submit_dir / folder).is_dir():
            continue
        option = match["option"]
        return [Finding(
            category=CONFIG,
            title=f"{file.name} sends the job's output to {path}, in a folder {folder}/ that does not exist: the job "
                  "failed before running a line",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip())],
            cause=f"Slurm opens the job's `{option}` file before the script starts and does not create its folder: "
                  f"{folder}/ is not in the submit folder, so the job could not open {path}, ended at once and left "
                  "no log. sbatch had accepted it, so whatever came after met only what the job never made.",
            fix=f"Create the folder before submitting (`mkdir -p {folder}` in the script that calls sbatch), or point "
                f"`#SBATCH {option}=` at a folder that exists (`{option}=%x_%j.out` writes beside the submit folder); "
                "then submit again.",
        )]
    return []
