"""A Slurm job that never started: squeue, printed by the user's submit script, shows it PENDING and says why.

A submit script that waits for its job a while and then gives up (a CI step's budget, a deadline) leaves a run with
nothing collected and no error of the job's own: the job never ran a line. squeue's reason column says what held it,
and the reason says whose it is to change (seed 000, debug step 1: Slurm job state):
- `BeginTime`, `Dependency`, `DependencyNeverSatisfied`, `JobHeldUser`: the job's own options (`#SBATCH --begin=02:00`
  kept from a nightly template, a `--dependency` on a job that failed): config;
- `PartitionDown`, `PartitionInactive`, `ReqNodeNotAvail`, `Reservation`, `JobHeldAdmin`: the cluster (a maintenance
  window, nodes drained): infra;
- `Resources`, `Priority`, `QOSMax...`, `AssocMax...`: the node is busy with other jobs, often the user's own (an array
  without a throttle, a job asking for `--exclusive`): throughput/resources;
- `JobArrayTaskLimit`: the array's own `%N` throttle holds its tasks back, N at a time: throughput/resources.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import (
    SHELL_LOOP,
    SHELL_LOOP_END,
    UserFile,
    joined_commands,
    lines_matching,
    unthrottled_arrays,
)
from gym_pipeline.diagnose.vocabulary import CONFIG, DATA_SCHEMA, INFRA, THROUGHPUT_RESOURCES

# a squeue line of a pending job: its id first, PENDING, then the reason (in parentheses in the default format)
# (`PD` in squeue's default and `%t` formats, where the reason may come before the time the job has run: `0:00`)
# (a format may add columns after the reason: the time run `0:00`, the memory asked for `12G`)
_PENDING = re.compile(r"^\s*(?P<job>\d+(?:_\[?[\d,\-%]+\]?)?)\s+(?P<middle>.*?)\b(?:PENDING|PD)\b.*?\(?(?P<reason>[A-Za-z]+)"
                      r"(?:,[^)\s]*|, [^)\n]*(?=\)))?\)?(?:\s+[\d:-]+|\s+\d+(?:\.\d+)?[KMGT]i?B?)*\s*$", re.M)
_OWN_OPTIONS = {"BeginTime": r"--begin\b", "Dependency": r"--dependency\b|-d\s",
                "DependencyNeverSatisfied": r"--dependency\b|-d\s", "JobHeldUser": r"--hold\b|-H\b"}
_CLUSTER = {"PartitionDown", "PartitionInactive", "ReqNodeNotAvail", "Reservation", "JobHeldAdmin", "NodeDown"}
_BUSY = re.compile(r"^(?:Resources|Priority|QOSMax\w*|AssocMax\w*|AssocGrp\w*|QOSGrp\w*)$")
_EXCLUSIVE = re.compile(r"^\s*#SBATCH\s+--exclusive\b")
# `scontrol show job` (or a grep of its fields): JobState=PENDING and, within the next lines, Reason=...
_SHOWN_PENDING = re.compile(r"JobState=PENDING\b(?:[^\n]*\n?){0,4}?[^\n]*?\bReason=(?P<reason>[A-Za-z]+)"
                            r"(?:(?:[^\n]*\n?){0,3}?[^\n]*?\bDependency=\S+)?")
_SHOWN_JOB_ID = re.compile(r"\bJobId=(\d+)")
_SHOWN_NAME = re.compile(r"\bJobName=(\S+)")
_SHOWN_DEPENDENCY = re.compile(r"\bDependency=\S+")
_SAID_JOB = re.compile(r"\bjob (\d+)\b")
_NAME_BEFORE = 200  # characters before JobState= where `grep -o` put JobName=


def _pending_lines(ev: Evidence) -> list[tuple[EvidenceLine, str, str]]:
    """(the squeue line, the job's words before PENDING, the reason) of each pending job the run's logs show; for
    `scontrol show job`'s fields, the line is the job's id, state and reason put together."""
    found = []
    for log, text in ev.log_heads:
        for match in _PENDING.finditer(text):
            number = text.count("\n", 0, match.start()) + 1
            found.append((EvidenceLine(file=ev.rel(log), line=number, text=match[0].strip()), match["middle"],
                          match["reason"]))
        for match in _SHOWN_PENDING.finditer(text):
            said = list(_SAID_JOB.finditer(text, 0, match.start()))
            job = _SHOWN_JOB_ID.search(match[0]) or (said[-1] if said else None)
            if job is None:
                continue
            name = _SHOWN_NAME.search(text, max(0, match.start() - _NAME_BEFORE), match.end())
            dependency = _SHOWN_DEPENDENCY.search(match[0])
            shown = " ".join(filter(None, (job[1], name and name[1], "PENDING", f"({match['reason']})",
                                           dependency and dependency[0])))
            found.append((EvidenceLine(file=ev.rel(log), line=text.count("\n", 0, match.start()) + 1, text=shown),
                          name[1] if name else "", match["reason"]))
    return found


_CPUS_PER_TASK = re.compile(r"^\s*#SBATCH\s+(?:--cpus-per-task[= ]\s*|-c\s*)(?P<cpus>\d+)\b")
# `#SBATCH --mem=12G` (MB without a unit), `--mem-per-cpu=8G`
_MEMORY = re.compile(r"^\s*#SBATCH\s+--mem(?P<per_cpu>-per-cpu)?[= ]\s*(?P<amount>\d+(?:\.\d+)?)(?P<unit>[KMGT]?)B?\b", re.I)
_LARGE_MEMORY_MB = 4096  # a job asking for less is rarely what keeps another off a node


def _submitted_more_than_once(file: UserFile, script: str) -> bool:
    """Whether `file` runs `sbatch ... script` on every pass of a shell loop (on the loop's line, or in its body), or
    on two lines or more (one job per shard, written out): its jobs are meant to run side by side."""
    submits = re.compile(rf"\bsbatch\b[^\n#]*\b{re.escape(script)}\b")
    depth = 0
    submissions = 0
    for _, command in joined_commands(file):
        opens = bool(SHELL_LOOP.match(command))
        if submits.search(command):
            submissions += 1
            if depth or opens or submissions > 1:
                return True
        depth += opens - (bool(SHELL_LOOP_END.match(command)) or bool(re.search(r";\s*done\b", command)))
        depth = max(depth, 0)
    return False


def _jobs_each_asking_for_cpus(ev: Evidence) -> tuple[UserFile, int, int] | None:
    """(batch script, line, CPUs) of the `--cpus-per-task` of a script submitted more than once: its jobs are meant to
    run side by side, and each asks for that many of the node's CPUs."""
    for file, number, _, match in lines_matching(ev.user_files, _CPUS_PER_TASK):
        if int(match["cpus"]) > 1 and any(_submitted_more_than_once(other, file.name) for other in ev.user_files):
            return file, number, int(match["cpus"])
    return None


def _jobs_each_asking_for_memory(ev: Evidence) -> tuple[UserFile, int, str] | None:
    """(batch script, line, the amount as written) of a large `--mem` of a script submitted more than once."""
    for file, number, _, match in lines_matching(ev.user_files, _MEMORY):
        megabytes = float(match["amount"]) * {"": 1, "K": 1 / 1024, "M": 1, "G": 1024, "T": 1024 ** 2}[
            match["unit"].upper()]
        if megabytes >= _LARGE_MEMORY_MB and any(_submitted_more_than_once(other, file.name) for other in ev.user_files):
            return file, number, match["amount"] + match["unit"] + (" per CPU" if match["per_cpu"] else "")
    return None


_TIME_DIRECTIVE = re.compile(r"^\s*#SBATCH\s+(?:--time[= ]|-t\s*)")
_THROTTLED_ARRAY = re.compile(r"^\s*#SBATCH\s+(?:--array[= ]|-a\s*)(?P<range>[^%\s]+)%(?P<limit>\d+)")


def _throttled_array(line: EvidenceLine, throttle: tuple[UserFile, int, str, re.Match[str]]) -> Finding:
    """The array's own `%N` held its tasks back (squeue's `JobArrayTaskLimit`): N at a time, the rest waiting."""
    file, number, text, match = throttle
    limit = int(match["limit"])
    return Finding(
        category=THROUGHPUT_RESOURCES,
        title=f"{file.name}:{number} `{text.strip()}` lets {limit} task{'s' if limit > 1 else ''} of the array run at a "
              "time: the others waited PENDING (JobArrayTaskLimit), and the run ran out of time",
        evidence=[line, EvidenceLine(file=file.name, line=number, text=text.strip())],
        cause=f"The `%{limit}` of the job array's range is a throttle: Slurm starts at most {limit} of its tasks at "
              "once and holds the others with the reason `JobArrayTaskLimit`, so the shards meant to run side by "
              "side ran one after another (a limit kept from another job's template, where a license or a "
              "shared resource allowed one at a time), and whatever waited for them gave up first.",
        fix=f"In {file.name}, raise or drop the throttle `%{limit}`: `#SBATCH --array={match['range']}` (or "
            f"`--array={match['range']}%<shards>`), or change it for the jobs already queued (`scontrol update "
            "JobId=<array id> ArrayTaskThrottle=<n>`); then submit again.",
    )


def _job_names(ev: Evidence) -> set[str]:
    return {m["name"] for _, _, _, m in lines_matching(ev.user_files, re.compile(r"--job-name[= ](?P<name>\S+)"))}


def _line_text(file: UserFile, number: int) -> str:
    return file.text.splitlines()[number - 1].strip()


_DEPENDS_ON = re.compile(r"\bafter(?:ok)?:(?P<job>\d+)")
_DATA_FILE = re.compile(r"\b[\w.-]+\.(?:csv|tsv|jsonl|json|parquet|xlsx)\b")


def _failed_dependency(ev: Evidence, pending: EvidenceLine) -> Finding | None:
    """`DependencyNeverSatisfied`: the job this one waits for (`afterok:<id>`) ended in failure. Its own log's last
    line says why; that is the cause to fix, placed as data when it names a data file and its line."""
    job = pending.text.split()[0]
    for _, text in ev.log_heads:
        if (depends := _DEPENDS_ON.search(text)) is None:
            continue
        other = depends["job"]
        log = next((path for path, _ in ev.log_heads if re.search(rf"(?:^|[_.-]){other}\.(?:log|out|err)$", path.name)),
                   None)
        if log is None:
            return None
        lines = [(n, t.strip()) for n, t in enumerate(log.read_text(errors="replace").splitlines(), 1) if t.strip()]
        if not lines:
            return None
        number, last = lines[-1]
        data = _DATA_FILE.search(last) and re.search(r"\bline \d+|\brow \d+", last)
        return Finding(
            category=DATA_SCHEMA if data else CONFIG,
            title=f"Slurm job {job} never started: the job it waits for, {other}, failed ({last[:120]})",
            evidence=[pending, EvidenceLine(file=ev.rel(log), line=number, text=last)],
            cause=f"squeue shows job {job} pending for `DependencyNeverSatisfied`: it may start only after job {other} "
                  f"succeeds (`afterok:{other}`), and {other} ended in failure; its log ends with `{last}`. Slurm "
                  f"keeps {job} queued for good, whatever waited for it gave up, and nothing was collected."
                  + (" What ended it is the data it read." if data else ""),
            fix=f"Fix what ended job {other} (`{last[:160]}`"
                + (f": complete or drop those rows in {data_file[0]}" if (data_file := _DATA_FILE.search(last)) and data
                   else "")
                + f"), then cancel {job} (`scancel {job}`) and submit both again; `sacct -j {other}` shows its exit "
                "code.",
        )
    return None


def _wrote_its_own_log(ev: Evidence, job: str) -> bool:
    """Whether a log named after the job (`merge_1489.log`, `slurm-1489.out`) holds anything: the job ran."""
    own = re.compile(rf"(?<!\d){re.escape(job)}(?!\d)")
    return any(own.search(path.name) and head.strip() for path, head in ev.log_heads)


def rule_job_never_started(ev: Evidence) -> list[Finding]:
    a = ev.artifacts
    if a.rollouts.valid_rows and not a.missing_keys:
        return []  # the run finished: a job that waited a while is no fault
    shown = _pending_lines(ev)
    held_by_throttle = [entry for entry in shown if entry[2] == "JobArrayTaskLimit"]
    if held_by_throttle and (throttle := next(lines_matching(ev.user_files, _THROTTLED_ARRAY), None)):
        return [_throttled_array(held_by_throttle[-1][0], throttle)]
    pending = [entry for entry in shown if "_" not in entry[0].text.split()[0]]  # the run's job, not an array's
    names = _job_names(ev)
    # a squeue of every job lists others' too: the run's own job (named in its scripts) first
    pending = [entry for entry in pending if names & set(entry[1].split())] or pending
    if not pending:
        return []
    line, middle, reason = pending[-1]
    job = line.text.split()[0]
    if reason in _OWN_OPTIONS and _wrote_its_own_log(ev, job):
        return []  # its dependency or start time came, and it ran: whatever went wrong, it is not that it never ran
    if reason == "DependencyNeverSatisfied" and (failed := _failed_dependency(ev, line)):
        return [failed]
    if reason in _OWN_OPTIONS:
        option = next(lines_matching(ev.user_files, re.compile(rf"^\s*#SBATCH\s+(?:{_OWN_OPTIONS[reason]})")), None)
        where = [EvidenceLine(file=option[0].name, line=option[1], text=option[2].strip())] if option else []
        singleton = option is not None and "singleton" in option[2]
        name = sorted(names)[0] if names else "<name>"
        return [Finding(
            category=CONFIG,
            title=f"Slurm job {job} never started: it was held PENDING ({reason}) by an option of its own",
            evidence=[line, *where],
            cause=f"squeue shows the job pending for `{reason}`: "
                  + (f"{option[0].name}:{option[1]} (`{option[2].strip()}`) starts it only once no other job of the "
                     f"same name and user (--job-name={name}) is running or queued, and another of yours was"
                     if singleton else
                     f"{option[0].name}:{option[1]} (`{option[2].strip()}`) tells Slurm not to start it before then"
                     if option else "an option of the job holds it (a start time, a dependency, a hold)")
                  + "; whatever waited for it gave up first, and nothing was collected.",
            fix=(f"In {option[0].name}, remove `{option[2].strip()}` (kept from another job's template), or give "
                 f"the job a --job-name of its own (`squeue -u $USER -n {name}` shows the job it waited for)"
                 if singleton else
                 f"In {option[0].name}, remove `{option[2].strip()}` (kept from another job's template), or set "
                 "it to what this job needs" if option else f"See what holds it: `scontrol show job {job}`; remove "
                 "the option (`--begin`, `--dependency`, `--hold`) or release it (`scontrol release`)")
                + "; then submit again and check it starts (`squeue -j <job>` shows RUNNING).",
        )]
    if reason in _CLUSTER and ("Reserved for maintenance" in line.text or reason == "Reservation"):
        asked = next(lines_matching(ev.user_files, _TIME_DIRECTIVE), None)
        limit = asked[2].strip().removeprefix("#SBATCH").strip() if asked else "its --time"
        return [Finding(
            category=INFRA,
            title=f"Slurm job {job} never started: PENDING ({reason}), held by a maintenance reservation on its node",
            evidence=[line, *([EvidenceLine(file=asked[0].name, line=asked[1], text=asked[2].strip())] if asked else [])],
            cause=f"squeue shows the job pending for `{reason}`, reserved for maintenance: the admins reserved the node "
                  f"from a time before the job's time limit ({limit}) would end, and Slurm starts no job that would "
                  "run into a reservation it is not part of. The job never ran a line; whatever waited for it gave up, "
                  "and nothing was collected.",
            fix=f"See the maintenance reservation that holds the job ({reason}: `scontrol show reservation`, its StartTime "
                "and nodes); submit the "
                f"job with a time limit that ends before it starts (a shorter `{limit}`, if the eval fits), or "
                "after the reservation ends (`sbatch --begin=<its EndTime>`), or to a partition outside it; then run "
                "again.",
        )]
    if reason in _CLUSTER:
        partition = next((word for word in middle.split() if word not in names and not re.match(r"^[\d:]+$", word)),
                         None)
        return [Finding(
            category=INFRA,
            title=f"Slurm job {job} never started: PENDING ({reason})"
                  + (f", partition {partition}" if partition else ""),
            evidence=[line],
            cause=f"squeue shows the job pending for `{reason}`: the cluster cannot run it now (a partition set DOWN "
                  "or inactive for maintenance, its nodes drained or reserved). The job never ran a line; whatever "
                  "waited for it gave up, and nothing was collected.",
            fix=f"See the partition's state: `sinfo -p {partition or '<partition>'}` and `scontrol show partition "
                f"{partition or '<partition>'}` ({reason}); wait for the admins to bring it back, or submit to a "
                "partition that is up (`sbatch -p <partition>`); then run again.",
        )]
    if reason == "PartitionTimeLimit":
        asked = next(lines_matching(ev.user_files, _TIME_DIRECTIVE), None)
        where = [EvidenceLine(file=asked[0].name, line=asked[1], text=asked[2].strip())] if asked else []
        return [Finding(
            category=INFRA,
            title=f"Slurm job {job} never started: PENDING (PartitionTimeLimit), its time limit is longer than the "
                  "partition's MaxTime",
            evidence=[line, *where],
            cause="squeue shows the job pending for `PartitionTimeLimit`: the partition's MaxTime is now shorter than "
                  "the job's --time"
                  + (f" ({asked[0].name}:{asked[1]} `{asked[2].strip()}`)" if asked else "")
                  + ", and Slurm keeps such a job queued instead of refusing it (the admins lower MaxTime ahead of a "
                  "maintenance, or a job moved to a shorter partition). It never ran a line, and whatever waited for "
                  "it gave up.",
            fix="The job waits for PartitionTimeLimit. See the partition's limit: `scontrol show partition` (MaxTime) or "
                "`sinfo -o '%P %l'`; lower the job's "
                "--time to fit it"
                + (f" (in {asked[0].name}:{asked[1]})" if asked else "")
                + f" (`scontrol update JobId={job} TimeLimit=<that>` for the queued job), ask the admins when the "
                "partition's MaxTime comes back, or submit to a partition that allows the time; then run again.",
        )]
    if _BUSY.match(reason):
        arrays = unthrottled_arrays(ev.user_files)
        exclusive = next(lines_matching(ev.user_files, _EXCLUSIVE), None)
        per_job = _jobs_each_asking_for_cpus(ev)
        memory = _jobs_each_asking_for_memory(ev)
        # (file, line, what it does, what to change) of the user's own jobs that hold the node
        own = ([(arrays[0][0], arrays[0][1], f"submits an array of {arrays[0][3]} tasks with no `%` throttle",
                 "add a throttle (`--array=<range>%2`) or submit the array after the eval")] if arrays else []) \
            + ([(exclusive[0], exclusive[1], "asks for the whole node (`--exclusive`)",
                 "drop `--exclusive` (ask for the CPUs it needs)")] if exclusive else []) \
            + ([(per_job[0], per_job[1], f"asks for {per_job[2]} CPUs for each of the jobs a loop submits, so they "
                 "queue behind each other instead of running side by side",
                 f"ask for fewer (`#SBATCH --cpus-per-task=1`; `sinfo -o '%n %c'` shows the node's CPUs: the jobs "
                 f"that run at once are its CPUs divided by {per_job[2]})")] if per_job else []) \
            + ([(memory[0], memory[1], f"asks for {memory[2]} of memory for each of the jobs it is submitted as, so "
                 "the shards queue behind each other instead of running side by side",
                 f"ask for the memory one shard needs (`#SBATCH --mem=2G`; `sinfo -o '%n %m'` shows the node's memory "
                 f"in MB: the jobs that run at once are its memory divided by {memory[2].split()[0]}), so the shards "
                 "fit on the node together")] if memory else [])
        shown = [(file.name, number, f"`{_line_text(file, number)}`", does, change) for file, number, does, change in own]
        return [Finding(
            category=THROUGHPUT_RESOURCES,
            title=f"Slurm job {job} waited PENDING ({reason}) for the node's resources and did not run in time",
            evidence=[line],
            cause=f"squeue shows the job pending for `{reason}`: the node's CPUs (or memory) were held by other jobs"
                  + (", the user's own: " + "; ".join(f"{name}:{number} {does}" for name, number, _, does, _ in shown)
                     if shown else "")
                  + ". The job waited its turn, and whatever waited for it gave up (or found the server it needed "
                  "gone by then).",
            fix=("Let the run's jobs fit on the node together: "
                 + ("; ".join(f"in {name} line {number} ({text}), {change}" for name, number, text, _, change in shown)
                    if shown else "ask for fewer CPUs or less memory, or run when the node is free")
                 + f"; `squeue` shows what holds the node (reason `{reason}`). Then submit {job}'s script again."),
        )]
    return []
