"""Step 1: a batch script that keeps `#SBATCH --test-only`: sbatch estimates a start time and submits nothing.

`--test-only`, added to see when a job would start on a busy partition, makes sbatch print `sbatch: Job 718 to start
at ...` and exit 0 without queueing anything. A submit script that goes on waits for no job and ends: no job log, no
rollouts, no profile, and every command exits 0. Named when a log holds that estimate and a script of the run asks
for `--test-only` (a directive, or on the sbatch line).
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import CONFIG

_ESTIMATE = re.compile(r"^sbatch: Job \d+ to start at \S+", re.M)
_TEST_ONLY = re.compile(r"^\s*#SBATCH\s+[^#\n]*--test-only\b|^\s*[^#\n]*\bsbatch\b[^#\n]*\s--test-only\b")


def _submitted_for_real_after(later: list[str], checked: str) -> bool:
    """Whether a later line submits the script that the `sbatch --test-only` line `checked` only checked."""
    script = checked.split("#", 1)[0].split()[-1] if "sbatch" in checked else None
    return script is not None and any(re.search(rf"\bsbatch\b(?![^#\n]*--test-only)[^#\n]*{re.escape(script)}", line)
                                      for line in later)


def rule_submission_only_tested(ev: Evidence) -> list[Finding]:
    estimate = ev.first_in_log_heads(_ESTIMATE)
    asked = next(lines_matching(ev.user_files, _TEST_ONLY), None)
    if estimate is None or asked is None:
        return []
    file, number, line, _ = asked
    if _submitted_for_real_after(file.text.splitlines()[number:], line):
        return []  # a start-time check on the command line, then the same script submitted
    return [Finding(
        category=CONFIG,
        title=f"{file.name}:{number} asks sbatch for `--test-only`: it printed an estimated start time and submitted "
              "nothing, so no job ran",
        evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()), estimate[0]],
        cause="With `--test-only` sbatch only validates the script and estimates when it would start; it queues no "
              "job and exits 0 (`--parsable` then gives an empty job id). Whatever waited for the job found none, "
              "and the run has no job log, rollouts or profile, though every command succeeded.",
        fix=f"Remove `--test-only` from {file.name}:{number} (keep it for a one-off `sbatch --test-only "
            f"{file.name}` from the command line), then submit again and check `squeue` lists the job.",
    )]
