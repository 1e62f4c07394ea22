"""Step 1: a Slurm job suspended while it ran: its processes stopped, and the run made no progress after that.

A cluster that preempts by suspending (`PreemptMode=SUSPEND` on a partition) stops a running job's processes with
SIGSTOP when a job of higher priority needs the node (an admin's `scontrol suspend` does the same). Nothing in the job
fails or logs a word: its progress simply stops, and whatever waits for it (a CI step's budget, a deadline) gives up
with the run incomplete. `scontrol show job` says JobState=SUSPENDED (with its SuspendTime); squeue shows SUSPENDED (S).
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import line_of_match
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.vocabulary import INFRA

_SUSPENDED = re.compile(r"\bJobState=SUSPENDED\b|^\s*\d+\s+\S+.*\bSUSPENDED\b", re.M)
_JOB_ID = re.compile(r"\bJobId=(?P<job>\d+)|\bjob (?P<job2>\d+)\b")
_PARTITION = re.compile(r"\bPartition=(?P<name>[\w-]+)|--partition[= ](?P<name2>[\w-]+)|\bpartition (?P<name3>[\w-]+)")


def rule_job_suspended_while_it_ran(ev: Evidence) -> list[Finding]:
    if not ev.artifacts.missing_without_failure:
        return []  # the run is whole: a suspension, if any, only delayed it
    for log, head in ev.log_heads:
        if (suspended := _SUSPENDED.search(head)) is None:
            continue
        shown = line_of_match(ev.rel(log), head, suspended)
        job = next((m["job"] or m["job2"] for m in _JOB_ID.finditer(head[:suspended.start()])), None)
        partition = next((m["name"] or m["name2"] or m["name3"] for _, text in ev.log_heads
                          for m in _PARTITION.finditer(text)), None)
        which = f"job {job}" if job else "the job"
        where = f"partition {partition}" if partition else "its partition"
        return [Finding(
            category=INFRA,
            title=f"Slurm suspended {which} while it ran (JobState=SUSPENDED): its processes were stopped and the run "
                  "made no progress after that",
            evidence=[shown],
            cause=f"Slurm stopped {which}'s processes (SIGSTOP) while it collected: {where} preempts by suspending "
                  "(`PreemptMode=SUSPEND`) when a job of higher priority needs the node, or an admin suspended it. "
                  "Nothing in the job failed or said so; it stopped making progress until whatever waited for it gave "
                  f"up, with {len(ev.artifacts.missing_without_failure)} rollouts still to do.",
            fix=f"See why: `scontrol show job {job or '<id>'}` (JobState=SUSPENDED, SuspendTime) and `scontrol show partition "
                f"{partition or '<partition>'}` (PreemptMode, PriorityTier), `squeue -p {partition or '<partition>'}` "
                "for the job that took the node. Submit to a partition (or a QOS) whose jobs are not preempted, or give "
                "the step the time a resume after the suspension takes; then collect again with --resume.",
        )]
    return []
