"""Two runs on one run directory (seed 004: "Two runs on one checkout overwrite each other").

Gym lets both write and they overwrite each other; every stage of this pipeline holds the run directory's lock
(`core/run_lock.py`), so the second writer stops at once, before writing anything, with `run directory X is in
use by pid N (...; stage S) on host H since T`. The folder holds the first run's files alone; the second run
did not happen.
"""

from __future__ import annotations

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME


def rule_run_directory_in_use(ev: Evidence) -> list[Finding]:
    hits = ev.hits("run_directory_in_use")
    if not hits:
        return []
    first = hits[0]
    pid, stage, command = first.groups["pid"], first.groups["stage"], first.groups["command"]
    return [Finding(
        category=CACHE_RESUME,
        title=f"Two runs on one run directory: a second writer was refused while pid {pid} held it (stage {stage})",
        evidence=[hit.evidence() for hit in hits[:4]],
        cause=f"A second run was started on {first.groups['run_dir']} while pid {pid} (`{command}`) was writing its "
              f"{stage} stage. The run directory's lock stopped the second one before it wrote anything, so the files "
              "are the first run's alone and the second run's work was not done.",
        fix=f"Run one job per partition at a time: wait for pid {pid} to finish (or stop it), then run the refused "
            f"job again (the one whose output is {first.file}). Two jobs at once on one taskset need their own run directories: give each concurrent job "
            "its own checkout (its own workspace and runs_dir), or, with `gym-pipeline collect`, its own --output.",
        explains=frozenset({"run_directory_in_use"}),
    )]
