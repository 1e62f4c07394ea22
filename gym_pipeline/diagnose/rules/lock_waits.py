"""Step 1: a step that spent its time waiting for a lock its script takes (`flock` without a timeout).

A team's rule of one eval at a time on a shared model server, kept with `flock <lock> bash eval.sh`: while another
eval holds the lock, the step waits, and the time it was given (a batch job's `--time`, a `timeout` around the
command, both sized for the eval alone) runs out before the eval starts. Slurm's "CANCELLED ... DUE TO TIME LIMIT",
or a collection that wrote nothing, is what followed; the wait is what to change.

The same lock taken by each shard a script starts in the background (`flock LOCK collect ... &` in a loop, meant to
keep other evals off the node): the shards wait for each other and run one after another, and the job's time, sized
for the shards at once, runs out after a few of them.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding, resume_command
from gym_pipeline.diagnose.vocabulary import THROUGHPUT_RESOURCES

# `flock LOCK command` that waits for as long as it takes (no -w/--timeout, no -n/--nonblock)
_WAITING_FLOCK = re.compile(r"^\s*(?:exec\s+)?flock\s+(?!(?:\S+\s+)*?(?:-\w*[wn]\b|--timeout|--wait|--nonblock))"
                            r"(?P<rest>.+)$")
# the same under a time budget: `timeout 20 flock LOCK gym-pipeline collect ...`
_BUDGETED_FLOCK = re.compile(r"^\s*timeout\s+(?:-\S+\s+)*(?P<budget>\d+\w?)\s+flock\s+"
                             r"(?!(?:\S+\s+)*?(?:-\w*[wn]\b|--timeout|--wait|--nonblock))(?P<lock>\S+)\s+(?P<rest>.+)$")
_COLLECTION = re.compile(r"\bcollect\b|\beval\s+run\b|\bstage\b")
_WORK_STARTED = re.compile(r"wrote \d+ rows|collecting rollouts|\d+ collected|Reward profile|Reading rows")
_TIME = re.compile(r"^#SBATCH\s+(?:--time[= ]|-t\s*)(?P<time>\S+)")


def rule_job_spent_its_time_waiting_for_a_lock(ev: Evidence) -> list[Finding]:
    limits = ev.hits("slurm_time_limit")
    if not limits:
        return []
    job_log = next((head for log, head in ev.log_heads if ev.rel(log) == limits[0].file), "")
    if _WORK_STARTED.search(job_log):
        return []  # the job got to its work: the time went there
    for file in ev.user_files:
        if "#SBATCH" not in file.text:
            continue
        lines = file.text.splitlines()
        waits = next(((n, line.strip()) for n, line in enumerate(lines, 1) if _WAITING_FLOCK.match(line)), None)
        if waits is None:
            continue
        number, line = waits
        time = next(((n, m["time"]) for n, text in enumerate(lines, 1) if (m := _TIME.match(text))), None)
        return [Finding(
            category=THROUGHPUT_RESOURCES,
            title=f"{file.name}:{number} waits for a lock (`{line}`), and the job's time ran out before it got it",
            evidence=[limits[0].evidence(), EvidenceLine(file=file.name, line=number, text=line),
                      *([EvidenceLine(file=file.name, line=time[0], text=f"#SBATCH --time={time[1]}")] if time else [])],
            cause="`flock` without a timeout waits for as long as another holder keeps the lock (another eval on the "
                  "shared server); the job's log shows nothing of its work before Slurm ended it at its time limit"
                  + (f" (--time={time[1]})" if time else "") + ": the whole limit went to the wait.",
            fix=f"In {file.name}, bound the wait (`flock -w <seconds> ...`, then requeue or fail clearly when it "
                "times out), or wait outside the job's time: submit with a dependency on the lock's holder "
                "(`--dependency=singleton` and one shared `--job-name`, or a Slurm licence, `-L modelserver`) so the "
                "job starts when the server is free; or give `--time` room for the wait. Then submit again.",
            explains=frozenset({"slurm_time_limit"}),
        )]
    return []


def rule_collection_timed_out_waiting_for_a_lock(ev: Evidence) -> list[Finding]:
    """`timeout N flock LOCK <collection>`: N seconds spent waiting for the lock, and the collection never ran."""
    a = ev.artifacts
    if a.rollouts.valid_rows or not a.missing_without_failure:
        return []  # the collection got to run: its time went to work
    for file in ev.user_files:
        lines = file.text.splitlines()
        for number, line in enumerate(lines, 1):
            waits = _BUDGETED_FLOCK.match(line)
            if waits is None or not _COLLECTION.search(waits["rest"]):
                continue
            budget, lock = waits["budget"], waits["lock"]
            return [Finding(
                category=THROUGHPUT_RESOURCES,
                title=f"{file.name}:{number} gives the collection {budget} s including its wait for {lock}, and it "
                      "wrote no rollout: the lock was held the whole time",
                evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()), *a.missing_examples[:1]],
                cause=f"`timeout {budget} flock {lock} ...` counts the wait for the lock in the collection's budget. "
                      f"`flock` without `-w` waits for as long as another holder keeps {lock} (another eval on the "
                      f"shared server); the collection never sent a request and not one of the "
                      f"{a.materialized.valid_rows} materialized rollouts has a result or a failure: the whole "
                      f"{budget} s went to the wait.",
                fix=f"In {file.name}, take the lock outside the budget (`flock {lock} timeout {budget} ...`, so the "
                    f"clock starts when the collection does), or bound the wait on its own (`flock -w <seconds> {lock}` "
                    "and fail clearly when it times out); find who holds it with `fuser` or `lsof` on the lock file. "
                    f"Then run the collection again: {resume_command(ev)}.",
            )]
    return []


# a background command under a lock, in a loop or more than once: `flock LOCK gym-pipeline collect ... &`
_LOCKED_IN_BACKGROUND = re.compile(r"^\s*flock\s+(?!-)(?P<lock>\S+)\s+(?P<command>[^#\n]*\bcollect\b[^#\n]*?)&\s*(?:#.*)?$")


def rule_shards_wait_for_each_others_lock(ev: Evidence) -> list[Finding]:
    limits = ev.hits("slurm_time_limit")
    if not limits:
        return []
    for file in ev.user_files:
        lines = file.text.splitlines()
        locked = [(n, line.strip(), m) for n, line in enumerate(lines, 1) if (m := _LOCKED_IN_BACKGROUND.match(line))]
        in_loop = any(re.match(r"\s*(?:for|while)\b", text) for text in lines[:locked[0][0] - 1]) if locked else False
        if not locked or not (in_loop or len({m["lock"] for _, _, m in locked}) < len(locked)):
            continue
        number, line, match = locked[0]
        time = next(((n, m["time"]) for n, text in enumerate(lines, 1) if (m := _TIME.match(text))), None)
        return [Finding(
            category=THROUGHPUT_RESOURCES,
            title=f"{file.name}:{number} starts each shard's collect under the same lock, `flock {match['lock']}`: "
                  f"the shards ran one after another, and the job's time ran out",
            evidence=[limits[0].evidence(), EvidenceLine(file=file.name, line=number, text=line),
                      *([EvidenceLine(file=file.name, line=time[0], text=f"#SBATCH --time={time[1]}")] if time else [])],
            cause=f"Every shard started in the background takes `flock {match['lock']}` before it runs, so only one "
                  "holds it at a time: the shards meant to run at once wait for each other, and the job needs their "
                  "sum, not the longest of them"
                  + (f", which its `--time={time[1]}` does not give" if time else "") + ".",
            fix=f"In {file.name}, take the lock once around the whole step, not per shard: drop `flock "
                f"{match['lock']}` from line {number} (`{line}`) and wrap the loop and its `wait` (`flock "
                f"{match['lock']} bash -c '...'`), so the shards run at once"
                + (f"; or give the job room for them in turn (more than `--time={time[1]}`)" if time else "")
                + ". Then submit again and profile.",
            explains=frozenset({"slurm_time_limit"}),
        )]
    return []
