"""Step 1: a process limit the shell set (`ulimit -f`, `-v`, `-d`, `-t`, `-s`) that the run did not fit in.

A run that stops without an error of its own (servers that never get ready, a profile that exits at once)
may show why in a `ulimit -a` printed into its log, or in a `ulimit` of the user's own job script: a file size limit of a few blocks stops every log and
output file (SIGXFSZ), an address-space cap below what Python, Ray or a BLAS library maps stops them at
start, a CPU-time cap of minutes kills a long collection part way (SIGXCPU, then SIGKILL), a stack of a few KB
(`ulimit -s 16` meant as MB: ulimit counts in KB) makes every program segfault at start. Only a run that did not
finish is blamed on them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.job import signal_of
from gym_pipeline.diagnose.user_scripts import container_run_option, lines_matching
from gym_pipeline.diagnose.vocabulary import INFRA, THROUGHPUT_RESOURCES

_FILE_TOO_LARGE = re.compile(r"File too large|Errno 27\b|EFBIG|SIGXFSZ")
SMALL_FILE_SIZE_BLOCKS = 1 << 20  # 512 MB in 512-byte blocks: below this, a run's logs and outputs can reach it
SMALL_ADDRESS_SPACE_KB = 4 << 20  # 4 GB: Python with numpy, Ray or a model client maps more than a few hundred MB
SMALL_CPU_TIME_S = 24 * 3600  # a collection, its verifiers included, can use a day of CPU
SMALL_STACK_KB = 1024  # Python, its threads and native libraries need more than 1 MB of stack (the default is 8 MB)
SMALL_MEMORY_BYTES = 2 << 30  # Ray, Gym's servers and a verifier's tables together want more than 2 GB
SMALL_CPU_SHARE = 0.5  # of one CPU
DEFAULT_CFS_PERIOD_US = 100_000  # the kernel's default cpu.cfs_period_us
SMALL_PORT_RANGE = 1000  # ephemeral ports: every connection a run opens takes one


_LIMIT_OF_FLAG = {"f": "file size", "v": "virtual memory", "d": "data seg size", "t": "cpu time", "s": "stack size"}
# a `ulimit` a user's script runs, with a number (not `unlimited`)
_SCRIPT_ULIMIT = re.compile(r"^\s*ulimit\s+(?:-[HS]\s+)?-(?P<flag>[fvdts])\s+(?P<value>\d+)\s*(?:#.*)?$")
# what a stack too small ends a program with
_STACK_SIGNALS = frozenset({"SIGSEGV", "SIGBUS", "SIGILL", "SIGABRT"})
# the limits a batch job inherits from where it was submitted, by the signal their excess sends:
# (ulimit's flag, what the limit is, Slurm's name of it)
_PROPAGATED_LIMITS = {"SIGXCPU": ("t", "CPU time", "CPU"), "SIGXFSZ": ("f", "file size", "FSIZE")}
_BATCH_JOB_SCRIPT = re.compile(r"/job0*(?P<job>\d+)/slurm_script$")  # the copy slurmd runs: spool/job<ID>/slurm_script
_SBATCH_CALL = re.compile(r"^[^#]*\bsbatch\b")
_MEMORY_LIMITS = {"virtual memory": ("v", "address space"), "data seg size": ("d", "data segment (heap)")}


def rule_process_limits(ev: Evidence) -> list[Finding]:
    a = ev.artifacts
    finished = a.materialized.valid_rows > 0 and not a.missing_keys and a.profile.exists
    if finished:
        return []
    findings = []
    limits = [(hit.groups["what"] or _LIMIT_OF_FLAG[hit.groups["flag"]], int(hit.group("value", "value2")), hit)
              for hit in ev.hits("process_limit")]
    limits += [(_LIMIT_OF_FLAG[match["flag"]], int(match["value"]), _ScriptLimit(file.name, number, line.strip()))
               for file, number, line, match in lines_matching(ev.user_files, _SCRIPT_ULIMIT)]
    for what, value, hit in limits:
        if what == "stack size" and value < SMALL_STACK_KB:
            crashed = [h.evidence() for name in ("shell_reported_signal", "native_crash", "exit_code_report")
                       for h in ev.hits(name) if signal_of(h) in _STACK_SIGNALS]
            findings.append(Finding(
                category=INFRA,
                title=f"{hit.file} limits the stack to {value} KB (`ulimit -s {value}`): programs of the job crash at "
                      "start",
                evidence=[hit.evidence(), *crashed[:1]],
                cause=f"`ulimit -s` counts in kilobytes: {value} is {value} KB, not {value} MB. Python, its threads and "
                      "native libraries need more stack than that, so every program the job starts after it dies of a "
                      "segmentation fault (SIGSEGV) before doing any work, without an error of its own.",
                fix=f"In {hit.file}, give the stack in kilobytes (`ulimit -s {value * 1024}` for {value} MB) or leave "
                    "the default (8192); then run again.",
                explains=frozenset({"process_limit", "shell_reported_signal", "native_crash", "exit_code_report"}),
            ))
        elif what == "file size" and value < SMALL_FILE_SIZE_BLOCKS:
            too_large = [i.evidence() for i in ev.logs.incidents if _FILE_TOO_LARGE.search(i.full_text)]
            findings.append(Finding(
                category=INFRA,
                title=f"The shell limits files to {value} blocks ({value * 512 // 1024} KB): the run's logs and outputs "
                      "cannot grow past it",
                evidence=[hit.evidence(), *too_large[:1]],
                cause=f"`ulimit -a` in {hit.file} shows a file size limit of {value} blocks. A process writing past it "
                      "is killed (SIGXFSZ) or gets EFBIG (`File too large`): Ray's and the servers' logs, the rollouts "
                      "and the profile all hit it, and servers die or never get ready without an error of their own.",
                fix="Lift the file size limit in the shell or job script that starts the run (`ulimit -f unlimited`; a "
                    "batch profile or Slurm job inherits it from where it was submitted), then start again.",
                explains=frozenset({"process_limit"}),
            ))
        elif what in _MEMORY_LIMITS and value < SMALL_ADDRESS_SPACE_KB:
            failed = ev.hits("memory_allocation_failed")
            flag, name = _MEMORY_LIMITS[what]
            findings.append(Finding(
                category=THROUGHPUT_RESOURCES,
                title=f"The shell caps each process's {name} at {value // 1024} MB (ulimit -{flag})",
                evidence=[hit.evidence(), *(h.evidence() for h in failed[:1])],
                cause=f"{hit.file} shows a {what} limit of {value} kB (`ulimit -{flag}`). Python with numpy, Ray, or a "
                      "BLAS library needs more memory than that at start, so allocations fail (`MemoryError`, "
                      "`Memory allocation failed`, `failed to map segment`) and the command stops before doing its "
                      "work.",
                fix=f"Raise or lift the memory limit where the command runs (`ulimit -{flag} unlimited` in the shell or "
                    "job script, or the batch profile that sets it; ask for memory with the job's `--mem` instead), "
                    "then run the command again.",
                explains=frozenset({"process_limit", "memory_allocation_failed"}),
            ))
        elif what == "cpu time" and value < SMALL_CPU_TIME_S:
            findings.append(Finding(
                category=THROUGHPUT_RESOURCES,
                title=f"The shell caps each process at {value} s of CPU time (ulimit -t): the run stopped part way",
                evidence=[hit.evidence()],
                cause=f"`ulimit -a` in {hit.file} shows a CPU time limit of {value} s (a login node's per-process "
                      "cap, or a job script's). The kernel stops a process that has used it (SIGXCPU, then SIGKILL), "
                      "with no error of its own: a collection whose verifier or client spends CPU on every rollout "
                      "reaches it long before its work is done.",
                fix="Lift the CPU-time limit where the stage runs (`ulimit -t unlimited` in the shell or job script; "
                    "run long collections as batch jobs rather than on a login node whose cap is fixed), or make the "
                    "verifier cheaper; then resume the collection.",
                explains=frozenset({"process_limit"}),
            ))
    if not findings:
        findings += _limit_inherited_by_a_batch_job(ev, {what for what, _, _ in limits})
    findings += _cgroup_findings(ev) or _container_cpu_quota(ev)
    findings += [_port_range_finding(hit) for hit in ev.hits("port_range")
                 if int(hit.groups["high"]) - int(hit.groups["low"]) < SMALL_PORT_RANGE][:1]
    return findings


@dataclass(frozen=True)
class _ScriptLimit:
    """A `ulimit` line of a user's script, read as a log's `ulimit -a` line is."""

    file: str
    line: int
    text: str

    def evidence(self) -> EvidenceLine:
        return EvidenceLine(file=self.file, line=self.line, text=self.text)


def _limit_inherited_by_a_batch_job(ev: Evidence, limits_seen: set[str]) -> list[Finding]:
    """Commands of a Slurm batch job ended by a limit (SIGXCPU, SIGXFSZ) that nothing of the run sets: Slurm gave
    the job the limits of the shell that submitted it (PropagateResourceLimits=ALL, its default), such as a CI
    runner's or a login node's per-process cap."""
    for hit in ev.hits("shell_reported_signal"):
        job = _BATCH_JOB_SCRIPT.search(hit.groups["script"])
        signal = signal_of(hit)
        if job is None or signal not in _PROPAGATED_LIMITS:
            continue
        flag, what, rlimit = _PROPAGATED_LIMITS[signal]
        if what.lower() in limits_seen:
            return []  # a `ulimit` of the run's own files, or printed into its logs, is read above
        submitter = next((file.name for file, _, _, _ in lines_matching(ev.user_files, _SBATCH_CALL)), None)
        where = f"the shell that runs {submitter}" if submitter else "the shell that ran sbatch"
        return [Finding(
            category=INFRA,
            title=f"Job {job['job']}'s commands died of {signal} ({what} limit), which neither its script nor the "
                  "run sets: the job inherited the limit of the shell that submitted it",
            evidence=[hit.evidence(), *(h.evidence() for h in ev.hits("ended_by_cpu_limit") if signal == "SIGXCPU")],
            cause=f"Slurm copies the submitting shell's resource limits into a batch job (PropagateResourceLimits=ALL "
                  f"is its default). A `ulimit -{flag}` of {where} (a CI runner's hook, a login node's per-process "
                  f"cap) applies to every command of the job, and the kernel ended each once it reached the {what} "
                  f"limit ({signal}), with no error of its own.",
            fix=f"Submit with `sbatch --propagate=NONE` (or lift the {what} limit before sbatch: `ulimit -{flag} unlimited` "
                f"in {where}); a cluster admin keeps it out of every job with `PropagateResourceLimitsExcept={rlimit}` "
                "in slurm.conf. Then submit the job again.",
            explains=frozenset({"shell_reported_signal", "ended_by_cpu_limit", "exit_code_report"}),
        )]
    return []


def _cgroup_findings(ev: Evidence) -> list[Finding]:
    """A job's cgroup memory limit or CPU quota, printed into a log, that the run did not fit in."""
    findings = []
    for hit in ev.hits("cgroup_limit"):
        what, value, period = hit.groups["what"], int(hit.groups["value"]), hit.groups.get("period")
        if what == "cpu.cfs_quota_us" and not period:  # printed alone: cpu.cfs_period_us is almost never changed
            period = str(DEFAULT_CFS_PERIOD_US)
        if what.startswith("memory") and value < SMALL_MEMORY_BYTES:
            findings.append(Finding(
                category=THROUGHPUT_RESOURCES,
                title=f"The job's cgroup limits its memory to {value >> 20} MB ({what}): the run did not fit",
                evidence=[hit.evidence()],
                cause=f"{hit.file} shows the cgroup memory limit of the job ({what} = {value} bytes). Past it the "
                      "kernel's OOM killer ends a process (often with no error of its own in the log, only a log "
                      "that stops): Ray, each Gym server and a verifier's tables all count against it.",
                fix="Give the job more memory (the container's `--memory`, the job's `--mem`, or `memory_mb` of the "
                    "stage's launcher in sweep.yaml), or lower `--concurrency` and what the verifier keeps in memory; "
                    "then run again.",
                explains=frozenset({"cgroup_limit"}),
            ))
        elif what.startswith("cpu") and period and value / int(period) < SMALL_CPU_SHARE:
            share = value / int(period)
            findings.append(Finding(
                category=THROUGHPUT_RESOURCES,
                title=f"The job's cgroup gives it {share:.0%} of one CPU ({what}): the run was starved",
                evidence=[hit.evidence()],
                cause=f"{hit.file} shows a CPU quota of {value} per {period} µs: Ray's processes, Gym's servers, the "
                      "client and the verifier share that sliver, so start-up steps time out, components fail to start "
                      "and a collection crawls (one whose verifier needs CPU for every rollout most of all).",
                fix="Give the job whole CPUs (the container's `--cpus`, the job's `--cpus-per-task`, or `cpus` of the "
                    "stage's launcher in sweep.yaml); then run again.",
                explains=frozenset({"cgroup_limit"}),
            ))
    return findings[:1]


# a container started with a fraction of one CPU: `docker run --cpus 0.01 ...`, `--cpus=.25`
_CONTAINER_CPUS = container_run_option("--cpus", r"\d*\.?\d+\b")


def _container_cpu_quota(ev: Evidence) -> list[Finding]:
    """A container of the run's script given a sliver of a CPU (`--cpus 0.01`, kept from a sidecar's template), in a
    run that did not finish: its command crawled until a budget or the user stopped it."""
    for file, number, line, match in lines_matching(ev.user_files, _CONTAINER_CPUS):
        cpus = float(match["value"])
        if cpus >= SMALL_CPU_SHARE or line.lstrip().startswith("#"):
            continue
        container = "collect container" if re.search(r"\bcollect\b", line) else "container"
        return [Finding(
            category=THROUGHPUT_RESOURCES,
            title=f"{file.name}:{number} runs its {container} with `--cpus {match['value']}`, {cpus:.0%} of one CPU: the "
                  "command in it crawled, and the run did not finish",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()[:300])],
            cause=f"`--cpus {match['value']}` lets the container use {cpus:.0%} of one CPU's time (a CFS quota): Python's "
                  "start-up alone takes many seconds under it, and the collection (its client, the verifier on every "
                  "rollout) proceeds at that pace, so the budget or the user stopped it before it wrote its results. "
                  "Nothing failed: the container was starved.",
            fix=f"In {file.name}:{number}, give the {container} whole CPUs instead of `--cpus {match['value']}` "
                "(`--cpus 2`, or drop `--cpus`; a sidecar's "
                "template sizes a helper, not a collection); then run again (a collection that had started resumes with "
                "--resume).",
        )]
    return []


def _port_range_finding(hit) -> Finding:
    low, high = int(hit.groups["low"]), int(hit.groups["high"])
    return Finding(
        category=INFRA,
        title=f"The node's ephemeral port range is {low}-{high}: {high - low + 1} ports for every connection it opens",
        evidence=[hit.evidence()],
        cause="Every outgoing connection (Ray's workers to their GCS, Gym's servers to each other and to the model) "
              "takes a local port from net.ipv4.ip_local_port_range; a range this narrow runs out at once and "
              "connections fail (`Cannot assign requested address`) or hang.",
        fix="Restore the range (`sysctl -w net.ipv4.ip_local_port_range=\"32768 60999\"`, and the file in "
            "/etc/sysctl.d/ that narrowed it), then start again.",
        explains=frozenset({"port_range"}),
    )
