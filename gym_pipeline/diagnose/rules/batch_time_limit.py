"""Step 1: a batch job given another time limit than its `#SBATCH --time` says.

sbatch takes its options in this order of precedence: the command line, then `SBATCH_*` input environment variables,
then the script's `#SBATCH` lines. An `export SBATCH_TIMELIMIT=1` left in the submitting shell (a test of the
partition's short queue, a profile line) silently gives every job one minute, whatever the script asks: the job is
cancelled "DUE TO TIME LIMIT" and the script looks right. Named when the job's own time limit, as `scontrol show job`
printed it, differs from the directive and the sbatch call does not pass `--time` itself.

A directive of one colon is minutes:seconds: `#SBATCH --time=1:00`, meant as an hour, gives the job one minute.

And a job cancelled "DUE TO TIME LIMIT" long before its `--time` ran out, with nothing of the user's setting another:
the limit was cut while the job ran (the admins' `scontrol update JobId=... TimeLimit=...` ahead of a maintenance
window): infra. How long it ran is told by the manifest's record of the first stage the job script runs.

A model server run as a batch job of its own (`serve.sbatch` with `--time=1`, "it only has to outlive the eval"),
cancelled at its limit while the eval job still sends it requests: the rest of the eval finds no server. The server
job's time limit is the cause (model serving), told from the job log the time limit line is in, which the job's
`--output` pattern names.

A job cancelled at its limit whose script sleeps a good part of that limit before its work (`sleep 50` in a job of
one minute, a warm-up kept from a GPU template where a model server loads its weights): the wait took the time the
work needed, throughput/resources.

`#SBATCH --signal=B:USR1@170` kept from a training template, where the script traps USR1 to save a checkpoint before
the time limit: a script that does not trap it is ended by it (USR1's default action), minutes before its limit.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import UserFile
from gym_pipeline.diagnose.vocabulary import CONFIG, INFRA, MODEL_SERVING, THROUGHPUT_RESOURCES

_DIRECTIVE_TIME = re.compile(r"^\s*#SBATCH\s+(?:--time[= ]|-t\s*)(?P<time>\S+)")
_SHOWN_LIMIT = re.compile(r"\bTimeLimit=(?P<time>[\d:-]+)")
_SBATCH_CALL = re.compile(r"\bsbatch\b(?P<options>[^\n|;&]*)")


def _minutes(time: str) -> float | None:
    """A Slurm time (`10`, `MM:SS`, `HH:MM:SS`, `D-HH[:MM[:SS]]`) in minutes."""
    days, _, clock = time.rpartition("-")
    try:
        parts = [int(part) for part in clock.split(":")]
        day_minutes = int(days) * 24 * 60 if days else 0
    except ValueError:
        return None
    if days:  # D-HH, D-HH:MM, D-HH:MM:SS
        hours, minutes, seconds = (parts + [0, 0])[:3]
        return day_minutes + hours * 60 + minutes + seconds / 60
    if len(parts) == 1:
        return parts[0]
    if len(parts) == 2:
        return parts[0] + parts[1] / 60
    return parts[0] * 60 + parts[1] + parts[2] / 60


def rule_time_limit_other_than_the_directive(ev: Evidence) -> list[Finding]:
    limits = ev.hits("slurm_time_limit")
    if not limits:
        return []
    shown = next(((log, text, match) for log, text in ev.log_heads if (match := _SHOWN_LIMIT.search(text))), None)
    if shown is None:
        return []
    log, text, limit = shown
    for script in ev.user_files:
        lines = script.text.splitlines()
        directive = next(((n, m["time"], line.strip()) for n, line in enumerate(lines, 1)
                          if (m := _DIRECTIVE_TIME.match(line))), None)
        if directive is None or _minutes(directive[1]) in (None, _minutes(limit["time"])) \
                or re.search(r"^\s*#SBATCH\s+--(?:time-min|deadline)\b", script.text, re.M):
            continue  # the same limit, or one Slurm may shorten itself (`--time-min` with `--deadline`)
        name = script.name.rsplit("/", 1)[-1]
        calls = [m["options"] for file in ev.user_files for m in _SBATCH_CALL.finditer(file.text) if name in m["options"]]
        if any(re.search(r"(?:^|\s)(?:--time\b|-t\b)", options) for options in calls):
            continue  # the submitting command sets the limit itself
        number, asked, line = directive
        return [Finding(
            category=CONFIG,
            title=f"The job ran with a time limit of {limit['time']}, not the `--time={asked}` of {name}:{number}: "
                  "something overrode the directive, and Slurm cancelled the job at that limit",
            evidence=[limits[0].evidence(), EvidenceLine(file=script.name, line=number, text=line),
                      EvidenceLine(file=ev.rel(log), line=text.count("\n", 0, limit.start()) + 1,
                                   text=limit.group(0))],
            cause=f"{name} asks for `--time={asked}`, yet the job's own record says TimeLimit={limit['time']}, and the "
                  "sbatch call passes no `--time`: an input environment variable of the submitting shell "
                  "(`SBATCH_TIMELIMIT`, which sbatch takes before the script's #SBATCH lines) set it, most often an "
                  "`export` left in a profile or a session. The job was cancelled at that limit with its work "
                  "undone.",
            fix=f"In the shell that submits, `env | grep ^SBATCH_` and `unset SBATCH_TIMELIMIT` (and remove its export "
                f"from the profile it came from), or pass the limit meant on the command line (`sbatch --time={asked} "
                f"{name}`); check with `scontrol show job <id> | grep TimeLimit`; then submit again.",
        )]
    return []


# `--time=1:00`: one colon is minutes:seconds to Slurm, a few whole "hours" to whoever wrote it
_MINUTES_SECONDS = re.compile(r"^(?P<hours>[1-9]|1\d|2[0-4]):00$")


def rule_time_given_as_minutes_and_seconds(ev: Evidence) -> list[Finding]:
    """A job cancelled at its time limit whose `#SBATCH --time` is `H:00` (one colon): Slurm reads minutes:seconds,
    so `1:00` is one minute, where an eval of hours was meant (`1:00:00`)."""
    limits = ev.hits("slurm_time_limit")
    if not limits:
        return []
    for script in ev.user_files:
        for number, line in enumerate(script.text.splitlines(), 1):
            if not (directive := _DIRECTIVE_TIME.match(line)) or not (clock := _MINUTES_SECONDS.match(directive["time"])):
                continue
            asked, hours = directive["time"], int(clock["hours"])
            name = script.name.rsplit("/", 1)[-1]
            return [Finding(
                category=CONFIG,
                title=f"{name}:{number} asks for `--time={asked}`, which Slurm reads as {hours} minute"
                      f"{'s' if hours > 1 else ''} (minutes:seconds), and it cancelled the job at that limit",
                evidence=[EvidenceLine(file=script.name, line=number, text=line.strip()), limits[0].evidence()],
                cause=f"Slurm reads a time with one colon as minutes:seconds: `--time={asked}` gives the job {hours} "
                      f"minute{'s' if hours > 1 else ''}, not {hours} hour{'s' if hours > 1 else ''}. The job was "
                      "cancelled \"DUE TO TIME LIMIT\" with its work undone: what the run lacks follows from it.",
                fix=f"Write the hours with three fields in {name} line {number}: `#SBATCH --time={hours}:00:00` (or "
                    f"`--time={hours * 60}`, in minutes); check with `scontrol show job <id> | grep TimeLimit`, then "
                    "submit again (a collection that had started resumes with --resume).",
                explains=frozenset({"slurm_time_limit"}),
            )]
    return []


_CANCELLED_AT = re.compile(r"CANCELLED AT (?P<when>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)")
_SETS_LIMIT_ELSEWHERE = re.compile(r"\bSBATCH_TIMELIMIT\b|\b(?:sbatch|srun)\b[^\n|;&]*\s(?:--time\b|-t\s)|--time-min\b|"
                                   r"--deadline\b")
SHORTENED_SHARE = 0.5  # ended before half of its own limit: not the limit it was given


def _recorded_at(text: str) -> datetime | None:
    try:
        return datetime.fromisoformat(text.rsplit(": ", 1)[1].replace("Z", "+00:00"))
    except (IndexError, ValueError):
        return None


# what a job script may do before its first stage without taking time: a folder, a word, a setting
_QUICK_COMMAND = re.compile(r"^\s*(?:#|$|cd\b|echo\b|printf\b|export\b|source\b|\.\s|module\b|set\b|"
                            r"[A-Za-z_]\w*=[^$(`]*$)")


def _first_stage_starts_the_job(script: str) -> bool:
    """Whether the job script's first real command is the materialization (nothing before it that takes time, such
    as a `sleep` or a download): then the manifest's record of it tells when the job started."""
    for line in script.splitlines():
        if "materialize" in line:
            return True
        if not _QUICK_COMMAND.match(line):
            return False
    return False


# a job step given a time limit of its own: `srun --time=1 ...`
_STEP_TIME = re.compile(r"\bsrun\b[^\n|;&#]*?\s(?:--time[= ]|-t\s*)(?P<time>[\d:-]+)")


def rule_step_ended_at_its_own_srun_time_limit(ev: Evidence) -> list[Finding]:
    """A job step (`STEP 1043.0`) cancelled at a time limit that its `srun --time=...` gave it, shorter than the
    work: kept from a smoke-test template, it ends the collection however long the job may run."""
    limits = [hit for hit in ev.hits("slurm_time_limit") if "." in hit.groups.get("job", "")]
    if not limits:
        return []
    for script in ev.user_files:
        lines = script.text.splitlines()
        for number, line in enumerate(lines, 1):
            if (step := _STEP_TIME.search(line)) is None or line.lstrip().startswith("#"):
                continue
            job_limit = next((m["time"] for text in lines if (m := _DIRECTIVE_TIME.match(text))), None)
            name = script.name.rsplit("/", 1)[-1]
            return [Finding(
                category=THROUGHPUT_RESOURCES,
                title=f"{name}:{number} gives its step `srun --time={step['time']}`: Slurm cancelled step "
                      f"{limits[0].groups['job']} at that limit"
                      + (f", though the job's `--time={job_limit}` had time left" if job_limit else ""),
                evidence=[limits[0].evidence(), EvidenceLine(file=script.name, line=number, text=line.strip())],
                cause=f"`srun --time={step['time']}` gives the step a time limit of its own ({_minutes(step['time']) or 0:g} "
                      "min), shorter than the work it runs needs: Slurm cancelled the step \"DUE TO TIME LIMIT\" and "
                      "the collection stopped part way, whatever the job's own limit. A per-step limit kept from a "
                      "smoke-test template.",
                fix=f"In {name}:{number}, drop `--time={step['time']}` from srun (a step then has the job's limit) or "
                    "give it room for the whole collection; then submit again and continue with `gym-pipeline collect "
                    "... --resume`.",
                explains=frozenset({"slurm_time_limit"}),
            )]
    return []


_OUTPUT_PATTERN = re.compile(r"^\s*#SBATCH\s+(?:--output|-o)[= ]\s*(?P<path>\S+)", re.M)
_FILENAME_FIELD = re.compile(r"%[AajJxNu]")  # what sbatch fills in an --output file name


def batch_script_of_log(ev: Evidence, log: str) -> UserFile | None:
    """The batch script whose `#SBATCH --output` file name pattern (`logs/serve_%j.log`) names `log`, when one
    does: which job wrote that log."""
    name = log.rsplit("/", 1)[-1]
    for file in ev.user_files:
        for match in _OUTPUT_PATTERN.finditer(file.text):
            parts = _FILENAME_FIELD.split(match["path"].rsplit("/", 1)[-1])
            if re.fullmatch(r"[^/]*?".join(map(re.escape, parts)), name):
                return file
    return None


# a batch script that runs a model server (the simulated policy, vLLM, SGLang, TGI, TensorRT-LLM)
_STARTS_MODEL_SERVER = re.compile(r"\bserve-policy\b|\bvllm\s+serve\b|\bvllm\.entrypoints\b|\bsglang\.launch_server\b|"
                                  r"\btext-generation-launcher\b|\btrtllm-serve\b")


_COLLECTS = re.compile(r"\bcollect\b|\bgym\s+eval\s+run\b|\bng_collect_rollouts\b")


def rule_model_server_job_ended_at_its_time_limit(ev: Evidence) -> list[Finding]:
    for limit in ev.hits("slurm_time_limit"):
        script = batch_script_of_log(ev, limit.file)
        if script is None or not _STARTS_MODEL_SERVER.search(script.text) or _COLLECTS.search(script.text):
            continue  # not a server's own job: a job that also collects ran out of its own time
        lines = script.text.splitlines()
        directive = next(((n, m["time"], line.strip()) for n, line in enumerate(lines, 1)
                          if (m := _DIRECTIVE_TIME.match(line))), None)
        if directive is None or not (ev.artifacts.missing_keys or ev.artifacts.failure_kinds):
            continue
        job, name = limit.groups.get("job") or "<job>", script.name.rsplit("/", 1)[-1]
        return [Finding(
            category=MODEL_SERVING,
            title=f"Slurm ended the model server's job {job} at its own time limit (`--time={directive[1]}`, "
                  f"{name}:{directive[0]}) while the eval still sent it requests",
            evidence=[limit.evidence(), EvidenceLine(file=script.name, line=directive[0], text=directive[2])],
            cause=f"{name} runs the model server as a job of its own, with `--time={directive[1]}` "
                  f"({_minutes(directive[1]) or 0:g} min). Slurm cancelled it \"DUE TO TIME LIMIT\" before the eval "
                  "was done, so every request after that found no server: the rollouts after it failed or are "
                  "missing. The server's limit, not the eval job's, ended the run.",
            fix=f"Give the server job a `--time` longer than the whole eval in {name} (line {directive[0]}), with room "
                "for slower generations, and stop it when the eval is done (`scancel` of the server's job at the end "
                "of the submit script) rather than by its limit; then start the server again and resume the "
                "collection (`gym-pipeline collect ... --resume`).",
            explains=frozenset({"slurm_time_limit"}),
        )]
    return []


def rule_time_limit_shortened_while_it_ran(ev: Evidence) -> list[Finding]:
    limits = ev.hits("slurm_time_limit")
    started = ev.manifest.inputs_recorded
    if not limits or started is None or (ended := _CANCELLED_AT.search(limits[0].text)) is None \
            or (began := _recorded_at(started.text)) is None \
            or any(_SETS_LIMIT_ELSEWHERE.search(file.text) for file in ev.user_files) \
            or any(_SHOWN_LIMIT.search(text) for _, text in ev.log_heads):
        return []  # a limit set by the run's own means, or shown at submission: the readings above
    # Slurm prints the cluster's local time; the manifest records UTC: read both as this machine's clock does
    ran_minutes = (datetime.fromisoformat(ended["when"]).astimezone(UTC) - began).total_seconds() / 60
    of_log = batch_script_of_log(ev, limits[0].file)  # the job that wrote the log, when its --output says
    for script in [of_log] if of_log else ev.user_files:
        lines = script.text.splitlines()
        directive = next(((n, m["time"], line.strip()) for n, line in enumerate(lines, 1)
                          if (m := _DIRECTIVE_TIME.match(line))), None)
        asked = _minutes(directive[1]) if directive else None
        if directive is None or asked is None or not _first_stage_starts_the_job(script.text) \
                or not 0 <= ran_minutes < SHORTENED_SHARE * asked:
            continue
        job, name = limits[0].groups.get("job", "<job>"), script.name.rsplit("/", 1)[-1]
        return [Finding(
            category=INFRA,
            title=f"Slurm ended job {job} at a time limit after about {max(1, round(ran_minutes))} min, though "
                  f"{name}:{directive[0]} gives it `--time={directive[1]}`: the limit was cut while it ran",
            evidence=[limits[0].evidence(), EvidenceLine(file=script.name, line=directive[0], text=directive[2]),
                      started],
            cause=f"The job's first stage was recorded at {started.text.rsplit(': ', 1)[1]} and Slurm cancelled it "
                  f"\"DUE TO TIME LIMIT\" at {ended['when']}, well inside the {asked:g} minutes {name} asks for, and "
                  "nothing of the run sets another limit (no `sbatch --time`, no SBATCH_TIMELIMIT, no --time-min): "
                  "the job's TimeLimit was changed while it ran, as admins do ahead of a maintenance window "
                  "(`scontrol update JobId=... TimeLimit=...`) or a reservation that starts soon. Nothing in the "
                  "run failed.",
            fix=f"See the limit it ended with and why: `sacct -j {job} --format=JobID,Timelimit,Elapsed,State` and "
                "`scontrol show reservation` (a maintenance window); once the cluster is back, submit again (`sbatch "
                f"{name}`) and continue where it stopped (`gym-pipeline collect ... --resume`), or ask for a "
                "`--time` that ends before the maintenance starts.",
            explains=frozenset({"slurm_time_limit"}),
        )]
    return []


_SLEEP = re.compile(r"^\s*sleep\s+(?P<amount>\d+(?:\.\d+)?)(?P<unit>[smh]?)\s*(?:#.*)?$")
SLEEP_SHARE = 0.25  # of the job's limit, slept before its work: the wait is what used the time


def rule_sleep_takes_the_time_limit(ev: Evidence) -> list[Finding]:
    limits = ev.hits("slurm_time_limit")
    if not limits:
        return []
    for script in ev.user_files:
        lines = script.text.splitlines()
        directive = next(((n, m["time"], line.strip()) for n, line in enumerate(lines, 1)
                          if (m := _DIRECTIVE_TIME.match(line))), None)
        asked = _minutes(directive[1]) if directive else None
        if directive is None or not asked:
            continue
        for number, line in enumerate(lines, 1):
            if (sleep := _SLEEP.match(line)) is None:
                continue
            minutes = float(sleep["amount"]) * {"": 1 / 60, "s": 1 / 60, "m": 1, "h": 60}[sleep["unit"]]
            if minutes < SLEEP_SHARE * asked:
                continue
            name = script.name.rsplit("/", 1)[-1]
            return [Finding(
                category=THROUGHPUT_RESOURCES,
                title=f"{name}:{number} `{line.strip()}` sleeps {minutes * 60:g} s of the job's {asked:g} min "
                      f"(`--time={directive[1]}`), and Slurm cancelled it at the limit with its work undone",
                evidence=[limits[0].evidence(), EvidenceLine(file=script.name, line=number, text=line.strip()),
                          EvidenceLine(file=script.name, line=directive[0], text=directive[2])],
                cause=f"The job waits {minutes * 60:g} s before its work (a warm-up kept from another template, where "
                      "a model server loads its weights first), {:.0%} of its time limit: what was left was too "
                      "short for the collection, and Slurm cancelled the job at its limit.".format(minutes / asked),
                fix=f"In {name}, drop the `{line.strip()}` (or wait for the server's readiness instead: `until curl "
                    "-sf <url>/v1/models; do sleep 2; done`), or raise `--time` to cover the wait and the work; then "
                    "submit again (the collection continues with --resume).",
                explains=frozenset({"slurm_time_limit"}),
            )]
    return []


_SIGNAL_DIRECTIVE = re.compile(r"^\s*#SBATCH\s+--signal[= ](?P<batch>R?B?:)?(?P<signal>(?:SIG)?[A-Z0-9]+)(?:@(?P<seconds>\d+))?")
_ENDS_BY_DEFAULT = {"USR1", "USR2", "TERM", "INT", "HUP", "ALRM", "10", "12", "15"}


def rule_signal_before_the_limit_without_a_trap(ev: Evidence) -> list[Finding]:
    a = ev.artifacts
    if not a.missing_keys and not a.failures.valid_rows:
        return []  # the run finished: the signal came too late to matter, or never
    for script in ev.user_files:
        directive = next(((n, m, line.strip()) for n, line in enumerate(script.text.splitlines(), 1)
                          if (m := _SIGNAL_DIRECTIVE.match(line))), None)
        if directive is None:
            continue
        number, match, line = directive
        signal = match["signal"].removeprefix("SIG")
        if signal not in _ENDS_BY_DEFAULT or re.search(rf"^\s*trap\b[^\n]*\b(?:SIG)?{signal}\b", script.text, re.M):
            continue
        name = script.name.rsplit("/", 1)[-1]
        early = f"{match['seconds']} s before its time limit" if match["seconds"] else "before its time limit"
        return [Finding(
            category=CONFIG,
            title=f"{name}:{number} `{line}` has Slurm send SIG{signal} {early}, and nothing in {name} traps it: "
                  f"the signal ended the job",
            evidence=[EvidenceLine(file=script.name, line=number, text=line)],
            cause=f"`--signal` asks Slurm to warn the job {early} (a training template's cue to save a checkpoint; "
                  f"`B:` sends it to the batch shell). Without a `trap ... {signal}`, SIG{signal}'s default action "
                  "ends the shell and the commands it waits for, so the job stopped with its work undone; what the "
                  "run lacks follows from it (and the requests cut off read as the model server's).",
            fix=f"In {name}, remove `{line}` (an eval saves nothing), or trap it where it is meant (`trap 'echo "
                f"\"warned\"' {signal}`); then submit again (a collection that had started continues with --resume).",
        )]
    return []
