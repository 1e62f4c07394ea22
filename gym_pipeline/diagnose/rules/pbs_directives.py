"""Step 1: a batch script ported from a PBS cluster whose `#PBS -l walltime=` line sbatch still honours.

sbatch reads a script's `#PBS` directives too (unless it is given `--ignore-pbs`): a `#PBS -l walltime=00:01:00` kept
"for the record" when the script moved to Slurm becomes the job's time limit, and Slurm cancels the job when it runs
out, part way through the eval.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import CONFIG

_PBS_WALLTIME = re.compile(r"^\s*#PBS\s+-l\s+[^#\n]*\bwalltime=(?P<walltime>[\d:]+)")
_SBATCH_TIME = re.compile(r"^\s*#SBATCH\s+(?:--time[= ]|-t\s*)")
_IGNORES_PBS = re.compile(r"--ignore-pbs\b")


def rule_pbs_walltime_kept_in_a_batch_script(ev: Evidence) -> list[Finding]:
    limited = ev.hits("slurm_time_limit")
    if not limited or any(_IGNORES_PBS.search(file.text) for file in ev.user_files):
        return []
    for file, number, line, match in lines_matching(ev.user_files, _PBS_WALLTIME):
        if any(_SBATCH_TIME.match(other) for other in file.text.splitlines()):
            continue  # the script gives Slurm its own time limit
        walltime = match["walltime"]
        return [Finding(
            category=CONFIG,
            title=f"{file.name}:{number} keeps `#PBS -l walltime={walltime}` from a PBS cluster, and sbatch honours it: "
                  f"the job's time limit was {walltime}, and Slurm cancelled it",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()), limited[0].evidence()],
            cause=f"sbatch reads `#PBS` directives as well as `#SBATCH` ones (unless given `--ignore-pbs`), so the "
                  f"walltime kept from the old cluster became the job's `--time` ({walltime}), and {file.name} gives "
                  "no `#SBATCH --time` of its own: Slurm ended the job when that ran out, whatever the partition "
                  "allows.",
            fix=f"In {file.name}, delete the `#PBS` lines (line {number}: `{line.strip()}`) or submit with `sbatch "
                "--ignore-pbs`, and give the job the time the eval needs (`#SBATCH --time=...`); then submit again "
                "and resume the collection.",
            explains=frozenset({"slurm_time_limit"}),
        )]
    return []
