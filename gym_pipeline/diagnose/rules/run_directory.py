"""Two runs on one run directory (seed 004: "Two runs on one checkout overwrite each other").

Gym lets both write and they overwrite each other; every stage of this pipeline holds the run directory's lock
(`core/run_lock.py`), so the second writer stops at once, before writing anything, with `run directory X is in
use by pid N (...; stage S) on host H since T`. The folder holds the first run's files alone; the second run
did not happen. When the writer holding it talks to a model server nothing of this run uses, it is an earlier job's
collect left running (its job cancelled by killing its shell only), not a second job of this one.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.logs import LogHit
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME, INFRA

_MODEL_URL = re.compile(r"--model-url[= ](?P<url>[^\s'\"]+)")
_SINCE = re.compile(r" since (?P<since>\S+);")


def rule_run_directory_in_use(ev: Evidence) -> list[Finding]:
    hits = ev.hits("run_directory_in_use")
    if not hits:
        return []
    first = hits[0]
    pid, stage, command = first.groups["pid"], first.groups["stage"], first.groups["command"]
    leftover = _leftover_of_an_earlier_run(ev, first)
    if leftover:
        return [leftover]
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


def _leftover_of_an_earlier_run(ev: Evidence, refusal: LogHit) -> Finding | None:
    """The writer holding the run directory, when it collects against a model server that none of this run's
    scripts name: an earlier job's collect that outlived its job."""
    held = _MODEL_URL.search(refusal.groups["command"])
    # the run's own commands: a pipeline that starts a server per run (two sweeps at once) names none here
    current = {match["url"].rstrip("/") for _, _, _, match in lines_matching(ev.user_files, _MODEL_URL)}
    if held is None or not current or held["url"].rstrip("/") in current:
        return None
    pid, command = refusal.groups["pid"], refusal.groups["command"]
    since = _SINCE.search(refusal.text)
    return Finding(
        category=INFRA,
        title=f"An earlier run's collect (pid {pid}, against {held['url']}, which nothing of this run uses) still "
              "holds the run directory: this run's collect was refused",
        evidence=[refusal.evidence()],
        cause=f"pid {pid} (`{command}`) has held {refusal.groups['run_dir']}"
              f"{' since ' + since['since'] if since else ''}. Its model URL is not this run's "
              f"({', '.join(sorted(current))}), so it is not a second job of this run but an earlier one's collect "
              "left running: a CI runner or scheduler that cancels a job by killing its shell alone leaves the "
              "shell's children alive as orphans. The lock refused this run's collect before it wrote anything.",
        fix=f"Stop the leftover collect: `kill {pid}` (see what it is first: `ps -o pid,pgid,lstart,args -p {pid}`), "
            "then run again. So that no collect outlives its job, cancel jobs by their process group (`kill -- "
            "-PGID`; start the eval under `setsid` and kill that group, or bound the collect with `timeout`).",
        explains=frozenset({"run_directory_in_use"}),
    )
