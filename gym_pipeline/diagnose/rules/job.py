"""Steps 1-4 of the debug order: the job and its launcher, model serving, Gym servers, tools and sandboxes."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

from gym_pipeline.diagnose.artifacts import FailureGroup
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import (
    Finding,
    affected,
    debug_rerun,
    diagnose_command,
    keys_of,
    model_server_log,
    models_url,
    path_of,
    plural,
    resume_command,
    said,
    served_models,
    status_words,
    unique,
)
from gym_pipeline.diagnose.launcher import MODEL_SERVER_STAGE, LauncherState, outcome, slurm_reason_name
from gym_pipeline.diagnose.logs import LogHit
from gym_pipeline.diagnose.open_files import SizedLimit, limit_below_concurrency
from gym_pipeline.diagnose.origin import host_limit, layer_of_frame
from gym_pipeline.diagnose.probes import HEAD_SERVER, MODEL, PORT, PORT_IN_USE, ProbeResult
from gym_pipeline.diagnose.rules.nesting import nested_finding, nested_log_findings
from gym_pipeline.diagnose.rules.overload import overload_finding, rate_limited_at_lowest_load, read_overload
from gym_pipeline.diagnose.rules.routing import all_servers_ready, describe_endpoint_failures, groups_routed
from gym_pipeline.diagnose.rules.user_proxies import one_at_a_time_proxy
from gym_pipeline.diagnose.vocabulary import (
    CACHE_RESUME,
    CONFIG,
    INFRA,
    MODEL_SERVING,
    REQUEST_DEBUG_FLAG,
    SIDECAR_FLAG,
    SLURM_REQUEST_REASONS,
    THROUGHPUT_RESOURCES,
    exit_signal,
    signal_name,
)

# an answer that is a web page (`<!DOCTYPE HTML>`, `<html lang="en">`) rather than an API's JSON
_HTML_PAGE = re.compile(r"\s*<(?:!doctype\s+html|html)\b", re.IGNORECASE)
_NOT_FOUND_PAGE = re.compile(r"\s*(?:\{\s*\"detail\"\s*:\s*)?\"?Not Found\"?\s*\}?\s*$")  # a web framework's 404 body

# ---------------------------------------------------------------------------------------------
# Step 1: the job, and what stops it before anything runs.


def rule_nothing_to_diagnose(ev: Evidence) -> list[Finding]:
    if ev.has_anything:
        return []
    stem = ev.artifacts.files.stem
    return [
        Finding(
            category=CONFIG,
            title=f"No NeMo Gym output or log in {ev.run_dir}",
            evidence=[EvidenceLine(file=".", text=f"no *_materialized_inputs.jsonl, {stem}.jsonl, *_failures.jsonl, "
                                                  "*.log, launcher state or manifest in the folder")],
            cause="The folder is not the --output folder of a run, or the run never started writing.",
            fix="Point the diagnosis at the folder holding `<stem>.jsonl` (Gym's --output) and its logs: "
            "`gym-pipeline diagnose <run_dir>`. If the run never started, read the launcher's output first "
            "(Slurm's slurm-<job>.out, `docker logs <container>`).",
        )
    ]


_JOB_LOG_SIGNATURES = ("slurm_time_limit", "slurm_oom", "slurm_cancelled", "slurm_preempted", "slurm_node_failure",
                       "kernel_oom_kill")


def _sweep_setting(state: LauncherState, key: str, value: object) -> str:
    """Where a launcher's limit is set in sweep.yaml, with its value in this run."""
    now = f" (it was {value})" if value is not None else " (none was set)"
    return f"`launchers: {state.stage or '<stage>'}: {{kind: {state.launcher}, {key}: ...}}` in sweep.yaml{now}"


# what an sbatch refusal names -> the Slurm launcher's setting in sweep.yaml
_SLURM_SETTINGS = {r"--time\b|time limit": "`time_limit`", r"\bgres\b|generic resource": "`gres`",
                   r"--mem-per-\w+": "`memory_mb` (sbatch `--mem`), which another `--mem-per-...` in `extra_options` "
                                     "contradicts: keep one of them",
                   r"--mem\b|memory": "`memory_mb`", r"cpus.per.task": "`cpus_per_task`", r"partition": "`partition`",
                   r"account": "`account`", r"\bqos\b|reservation": "`extra_options`",
                   # a node feature no node has (`sinfo -o '%N %f'` lists them)
                   r"feature|constraint": "`extra_options`: its `--constraint`"}


# sbatch without a readable slurm.conf (SLURM_CONF naming a file that is not there, or no config at all)
_SLURM_CONFIG_UNREADABLE = re.compile(r"cannot stat file (?P<path>\S*slurm\.conf)|Unable to process configuration "
                                      r"file|Could not establish a configuration source")


def _launcher_fix(ev: Evidence, state: LauncherState) -> str:
    then = f" Then continue where it stopped: {resume_command(ev)}."
    if state.launch_error:
        settings = f"`launchers: {state.stage or '<stage>'}: {{kind: {state.launcher}, ...}}` in sweep.yaml"
        check = {"slurm": "`sinfo -s` lists the partitions and their state, `sacctmgr show assoc user=$USER format="
                          "account,partition,qos` the accounts and QOS you may submit with",
                 "docker": "`echo $DOCKER_HOST; docker info` shows which engine the launcher talks to and whether it "
                           "answers (set DOCKER_HOST to the engine's socket), `docker image ls` the images it has",
                 }.get(state.launcher, "run the stage's command by hand to see it start")
        if conf := _SLURM_CONFIG_UNREADABLE.search(state.launch_error):
            return (f"sbatch could not read the cluster's configuration ({conf.group('path') or 'slurm.conf'}): check "
                    "`echo $SLURM_CONF` where the pipeline runs (sbatch reads the file it names, else "
                    "/etc/slurm/slurm.conf) and point SLURM_CONF at this cluster's slurm.conf, or unset it; `sinfo` "
                    "must answer. Then run the stage again.")
        refused = [setting for option, setting in _SLURM_SETTINGS.items() if re.search(option, state.launch_error, re.I)]
        named = f" (sbatch's refusal is about {refused[0]})" if refused else ""
        return (f"Correct what the launcher refused ({state.launch_error.splitlines()[0]}): {check}; then fix the "
                f"stage's settings{named}, {settings}, and run the stage again.")
    memory = _sweep_setting(state, "memory_mb", f"{state.memory_mb} MiB" if state.memory_mb else None)
    if state.launcher == "slurm":
        job = state.slurm_job_id or "<jobid>"
        base = (state.slurm_state or "").split()[0].upper()
        check = f"`sacct -j {job} --format=JobID,State,ExitCode,Elapsed,Timelimit,MaxRSS,ReqMem,NodeList`"
        remedy = {
            "OUT_OF_MEMORY": f"raise `memory_mb` (sbatch `--mem`), {memory}, or lower `--concurrency`",
            "TIMEOUT": f"raise `time_limit` (sbatch `--time`), {_sweep_setting(state, 'time_limit', state.time_limit)}, "
                       "or split the sweep into smaller jobs",
            "NODE_FAIL": "resubmit (`sbatch --requeue` lets Slurm do it), and exclude the node if it repeats "
                         "(`--exclude=<node>`)",
            "PREEMPTED": "resubmit with `--requeue`, or on a partition/QOS that is not preempted",
            "CANCELLED": "find out who cancelled it (the state names the user id) and resubmit",
            "PENDING": f"read why it waits: `squeue -j {job} -o '%i %T %r'`; lower the request or pick another "
                       "partition",
            "BOOT_FAIL": "resubmit, excluding the node (`--exclude=<node>`)",
            "DEADLINE": "raise or drop `--deadline`",
        }.get(base, f"raise `memory_mb` (sbatch `--mem`), {memory}, or lower `--concurrency`" if state.oom_killed
              else f"read the job's output (slurm-{job}.out) for the failing command")
        if asked := SLURM_REQUEST_REASONS.get(slurm_reason_name(state)):
            return (f"`sinfo -o '%P %D %c %m %G %l %f'` lists each partition's nodes, CPUs, memory, GPUs, time limit and "
                    f"features; ask for no more than it has: change {asked[1]} in the stage's launcher settings "
                    "(sweep.yaml `launchers`), then run the stage again.")
        return f"{check}; {remedy}." + ("" if base == "PENDING" else then)
    if state.launcher == "docker":
        container = state.container_id or "<container>"
        check = (f"`docker inspect {container} --format '{{{{.State.OOMKilled}}}} {{{{.State.ExitCode}}}} "
                 f"{{{{.State.Error}}}}'` and `docker logs --tail 100 {container}`")
        if state.oom_killed:
            remedy = (f"raise the container's memory limit, `memory_mb` (docker `--memory`), {memory}, or lower "
                      "`--concurrency` so fewer rollouts run at once")
        elif state.exit_code in (126, 127):
            remedy = "check the image's command and entrypoint (`docker run --rm <image> <command> --help`)"
        else:
            remedy = ("find what stopped it (a `docker stop` timeout, a supervisor) in the runtime's events: "
                      f"`docker events --since 1h --filter container={container}`")
        return f"{check}; {remedy}.{then}"
    check = "Read the stage's log under logs/"
    if (signal_name(state.signal) or exit_signal(state.exit_code)) == "SIGKILL":
        check += "; for a SIGKILL look for the OOM killer: `dmesg -T | grep -i -E 'killed process|out of memory'`"
    return f"{check}.{then}"


def rule_launcher_state(ev: Evidence) -> list[Finding]:
    findings = []
    for record in ev.launchers:
        if record.state is None:
            findings.append(Finding(
                category=INFRA,
                title=f"The launcher's state {record.file} cannot be read",
                evidence=[EvidenceLine(file=record.file, text=record.error or "unreadable")],
                cause="The launcher wrote a record this diagnosis cannot read (another format, or a write cut short), "
                      "so how the stage ended is unknown.",
                fix=f"`cat {ev.run_dir / record.file}`; check the launcher's own output (Slurm's slurm-<job>.out, "
                    "`docker logs <container>`) for how the stage ended.",
            ))
            continue
        result = outcome(record.state)
        if not result.failed:
            continue
        job_lines = [h.evidence() for name in _JOB_LOG_SIGNATURES for h in ev.hits(name)]
        category, title = result.category, result.summary
        missing = ev.artifacts.missing_without_failure
        too_short = _startup_timeout_too_short(ev) if record.state.stopped_by_launcher else None
        if too_short is not None and record.state.stage == MODEL_SERVER_STAGE:
            findings.append(Finding(
                category=CONFIG,
                title=f"The model server was given {too_short:g} s to start: less than any server needs",
                evidence=unique([record.evidence("stopped_by_launcher"),
                                 *(h.evidence() for h in ev.hits("server_not_ready_after")[:1])]),
                cause=f"The launcher stopped the server when `startup_timeout_s` ({too_short:g} s) ran out, before it "
                      "could answer `/v1/models` (the simulated policy needs a second or two, vLLM minutes to load "
                      "weights): the setting, not the server, failed the stage.",
                fix="Raise `startup_timeout_s` in the model server's settings (sweep.yaml `model_server`, or "
                    "ModelServerConfig) to what the server needs (60 s is the default; minutes for vLLM), then run "
                    "the stage again.",
            ))
            continue
        if result.unexplained_kill and record.state.stage == MODEL_SERVER_STAGE:
            # the model server went away under the collection: whoever killed it, serving stopped
            category = MODEL_SERVING
            title += ": the model server went away"
            if missing:
                title += f", leaving {len(missing)} of {ev.artifacts.materialized.valid_rows} rollouts without a result"
        elif result.unexplained_kill and missing and not any(
                ev.hits(name) for name in _JOB_LOG_SIGNATURES if name != "slurm_cancelled"):  # nothing says why
            # Nothing says who killed it; what is left to act on is the partial output (the guide's cache/resume).
            category = CACHE_RESUME
            title += (f" mid-collection, leaving {len(missing)} of {ev.artifacts.materialized.valid_rows} materialized "
                      "rollouts without a result")
        findings.append(Finding(
            category=category,
            title=title,
            evidence=unique([record.evidence("slurm_state", "slurm_reason", "exit_code", "signal", "oom_killed",
                                             "launch_error"), *job_lines]),
            cause=f"The launcher's record says: {result.summary}; {result.cause}."
                  + ("" if record.state.launch_error else " Whatever the stage was writing stopped there."),
            fix=_launcher_fix(ev, record.state),
            explains=frozenset(_JOB_LOG_SIGNATURES),
            effect=result.own_failure,
        ))
    return findings


_LOOPBACK = re.compile(r"https?://(?:127\.\d+\.\d+\.\d+|localhost|\[::1\])(?::(?P<port>\d+))?")
_REFUSED_ON_LOOPBACK = re.compile(r"https?://(?:127\.\d+\.\d+\.\d+|localhost|\[::1\])[^\n]*?(?:Connection refused"
                                  r"|Errno 111|NewConnectionError|Connect call failed)")


STARTUP_TOO_SHORT_S = 10.0  # no model server answers within this; a timeout below it is a setting's mistake


def _startup_timeout_too_short(ev: Evidence) -> float | None:
    timeouts = [float(h.groups["seconds"]) for h in ev.hits("server_not_ready_after")]
    return min(timeouts) if timeouts and min(timeouts) < STARTUP_TOO_SHORT_S else None


def rule_container_cannot_reach_host(ev: Evidence) -> list[Finding]:
    """A stage in a container found nothing at a loopback address where the model server says it listens: inside
    the container, 127.0.0.1 is the container itself (its own network namespace), not the host."""
    in_container = [r for r in ev.launchers if r.state is not None and r.state.launcher == "docker"
                    and r.state.stage != MODEL_SERVER_STAGE and r.state.exit_code not in (0, None)]
    if not in_container:
        return []
    served = {h.groups["url"].rstrip("/") for h in ev.hits("model_url") if "READY" in h.text or "Starting" in h.text}
    down = [h for h in ev.hits("model_endpoint_down")
            if (url := h.group("url", "url2", "url3")) and _LOOPBACK.match(url)
            and any(url.startswith(s) for s in served)]
    if not down:
        return []
    record = in_container[0]
    return [Finding(
        category=INFRA,
        title=f"The {record.state.stage} container cannot reach the model server on the host's loopback",
        evidence=unique([down[0].evidence(), record.evidence("exit_code"),
                         *(h.evidence() for h in ev.hits("model_url") if "READY" in h.text)]),
        cause=f"The model server was up at {down[0].group('url', 'url2', 'url3')} (its log says so), but the stage ran "
              "in a Docker container, where 127.0.0.1 is the container's own network namespace: without the host's "
              "network the request reaches nothing. A container network problem, not the model server.",
        fix=f"Run the stage's container on the host network: `launchers: {record.state.stage}: {{kind: docker, "
            "network: host}}` in sweep.yaml (`docker run --network host`), or give the stage a model URL the "
            "container can reach (the host's address on the Docker bridge); then rerun the stage.",
        explains=frozenset({"model_endpoint_down"}),
    )]


_FAULTHANDLER_FRAME = re.compile(r'^\s*File "(?P<path>[^"]+)", line (?P<line>\d+) in (?P<func>\S+)')
FAULTHANDLER_LINES = 40  # how far below "Fatal Python error" its stack is read


def rule_native_crash(ev: Evidence) -> list[Finding]:
    """A server that died in native code (a segfault in an extension, a C library, ctypes): faulthandler prints the
    Python stack, innermost frame first, and that frame says whose code it was."""
    findings = []
    for hit in ev.hits("native_crash")[:1]:
        frames = _frames_below(ev.run_dir / hit.file, hit.line)
        placed = next((p for f in frames if (p := layer_of_frame(f)) is not None), None)
        where = f" in {frames[0]}" if frames else ""
        whose = (f"Its innermost frame in a known layer places it: {placed.basis}." if placed else
                 "Its stack does not say whose code it was.")
        if hit.groups["what"] == "Aborted":  # SIGABRT: sent to stop a process, typically one that hung
            findings.append(Finding(
                category=placed.category if placed else INFRA,
                title=f"A process was aborted (SIGABRT) while it was{where}",
                evidence=[hit.evidence()],
                cause="Python's faulthandler reported an abort: the process was stopped with SIGABRT, as one stops a "
                      "process that hangs, and printed where it was, innermost frame first. " + whose,
                fix=f"Read that frame ({frames[0] if frames else 'the stack in ' + hit.file}) for what waits forever: "
                    "a lock taken twice, a call without a timeout, a queue nobody feeds; fix it (a timeout, a "
                    "re-entrant lock), then run again.",
            ))
            continue
        findings.append(Finding(
            category=placed.category if placed else INFRA,
            title=f"A process crashed in native code ({hit.groups['what']}){where}",
            evidence=[hit.evidence()],
            cause=f"Python's faulthandler reported a {hit.groups['what'].lower()}: the process died at once, without a "
                  "traceback, and every request to it failed after (a 500 or a refused connection upstream). " + whose,
            fix=f"Reproduce it on that input outside the server ({frames[0] if frames else 'the stack in ' + hit.file}): "
                "a native call with a bad argument (ctypes, a C extension given None or a wrong type) or a broken "
                "wheel; guard or fix the call, or reinstall the extension; then restart the servers and resume.",
        ))
    return findings


# the signals that end a command with no error of its own, what each says of the process, and where the guide places it
_FATAL_SIGNALS = {
    "SIGSEGV": (INFRA, "it crashed in native code (a broken build or wheel, a stack or memory limit, a C extension "
                       "given a bad argument)"),
    "SIGBUS": (INFRA, "it touched memory that is not there (a file mapped in memory that shrank, a full /dev/shm)"),
    "SIGILL": (INFRA, "it ran an instruction this CPU does not have (a build for another CPU)"),
    "SIGABRT": (INFRA, "it aborted itself (a failed assertion in native code) or was stopped as a hung process"),
    "SIGFPE": (INFRA, "native code divided by zero"),
    "SIGKILL": (THROUGHPUT_RESOURCES, "the kernel's OOM killer, a scheduler's limit or a `kill -9` ended it"),
    "SIGXFSZ": (INFRA, "it wrote past the file size limit (`ulimit -f`)"),
    "SIGXCPU": (THROUGHPUT_RESOURCES, "it used up its CPU-time limit (`ulimit -t`)"),
}
# bash's words for them
_SHELL_WORDS = {"Segmentation fault": "SIGSEGV", "Bus error": "SIGBUS", "Illegal instruction": "SIGILL",
                "Aborted": "SIGABRT", "Floating point exception": "SIGFPE", "Killed": "SIGKILL",
                "File size limit exceeded": "SIGXFSZ", "CPU time limit exceeded": "SIGXCPU"}


def signal_of(hit: LogHit) -> str | None:
    """The signal a crash line reports: bash's or faulthandler's words for it, or 128 + N in a script's exit code."""
    if "code" in hit.groups:
        return exit_signal(int(hit.groups["code"]))
    return _SHELL_WORDS.get(hit.groups.get("what") or "")


def rule_shell_reported_signal(ev: Evidence) -> list[Finding]:
    """A command of a user's script that a signal ended, as bash reports it (`run.sh: line 5: 542 Segmentation fault
    gym eval run ...`) or as the script echoes its exit code (`exit code 139`, 128 + the signal): the command printed
    nothing of its own. An effect: a limit that explains it is the cause."""
    for hit in ev.hits("shell_reported_signal")[:1]:
        if _killed_its_own_background_job(ev, Path(hit.groups["script"]).name, int(hit.groups["line"])):
            return []
        program, *words = hit.groups["command"].split()
        subcommands = list(itertools.takewhile(lambda word: re.fullmatch(r"[a-z][\w-]*", word), words[:2]))
        name = " ".join([Path(program).name, *subcommands])  # `gym eval run`, `python3`
        script = Path(hit.groups["script"]).name
        return [_ended_by_signal(hit, signal_of(hit),
                                 f"`{name}` was ended by a signal ({hit.groups['what']}) at line {hit.groups['line']} "
                                 f"of {script}", script)]
    for hit in ev.hits("exit_code_report"):
        if (signal := signal_of(hit)) in _FATAL_SIGNALS:
            return [_ended_by_signal(hit, signal, f"A command of the job was ended by {signal} (exit code "
                                                  f"{hit.groups['code']}, as {hit.file} reports)", "the job script")]
    return []


def _killed_its_own_background_job(ev: Evidence, script: str, line: int) -> bool:
    """Whether bash reports, at `line` of `script` (its `kill` or `wait`), a background job the script started and
    killed itself (`( while sleep 2; ... ) & HB=$!` ... `kill -9 $HB`): the script's own doing, not a fault."""
    file = next((file for file in ev.user_files if file.name == script), None)
    lines = file.text.splitlines() if file else []
    if not 0 < line <= len(lines) or not re.match(r"^\s*(?:kill|wait)\b", lines[line - 1]):
        return False
    started = {found[1] for text in lines if (found := re.match(r"^\s*(\w+)=\$!\s*$", text))}
    return any(re.match(rf"^\s*kill\b[^\n#]*\$\{{?{name}\b", text) for text in lines[:line] for name in started)


def _ended_by_signal(hit: LogHit, signal: str, title: str, script: str) -> Finding:
    category, what = _FATAL_SIGNALS[signal]
    return Finding(
        category=category,
        title=title,
        evidence=[hit.evidence()],
        cause=f"The command died of {signal}: {what}. It wrote no error of its own, and nothing it should have written "
              "was written after that point.",
        fix=f"Run the command alone in the same environment (the limits and variables {script} sets: `ulimit -a`, "
            "`env`) to see it fail again; lift the limit or fix the install the signal points to, then run again.",
        explains=frozenset({"shell_reported_signal", "exit_code_report"}),
        effect=True,
    )


def _frames_below(path: Path, line: int) -> list[str]:
    """faulthandler's frames under its "Fatal Python error" line, innermost first."""
    try:
        with path.open(encoding="utf-8", errors="replace") as handle:
            lines = list(itertools.islice(handle, line, line + FAULTHANDLER_LINES))
    except OSError:
        return []
    return [f'File "{m["path"]}", line {m["line"]}, in {m["func"]}' for text in lines
            if (m := _FAULTHANDLER_FRAME.match(text))]


_LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "127.0.0.0/8", "::1", "*")


def rule_proxy_intercepts_loopback(ev: Evidence) -> list[Finding]:
    """An HTTP proxy in the environment without a no_proxy for loopback: Gym's calls to its own servers on 127.0.0.1
    go to the proxy, and the head server or the servers look unreachable."""
    proxies = ev.hits("proxy_env")
    skipped = ",".join(h.groups["hosts"] or "" for h in ev.hits("no_proxy_env"))
    # a request to a loopback server that went to a proxy (requests names the proxy, and the URL it asked it for)
    through_proxy = [h for h in ev.hits("request_through_proxy")
                     if any(f"//{host}" in h.groups["url"] for host in _LOOPBACK_HOSTS)]
    unreachable = ev.hits("head_server_waiting") + ev.hits("model_endpoint_down") + through_proxy
    if not (proxies or through_proxy) or not unreachable or any(host in skipped.split(",") for host in _LOOPBACK_HOSTS):
        return []
    proxy = proxies[0].groups["proxy"] if proxies else f"{through_proxy[0].groups['host']}:{through_proxy[0].groups['port']}"
    return [Finding(
        category=INFRA,
        title=f"An HTTP proxy ({proxy}) catches the calls to the servers on loopback",
        evidence=unique([*(hit.evidence() for hit in proxies[:1]), unreachable[0].evidence(), unreachable[-1].evidence()]),
        cause="The environment sets an HTTP proxy and no `no_proxy` entry for 127.0.0.1 or localhost, so the HTTP "
              "clients of Gym (and of the model calls) send even their loopback requests to the proxy, which cannot "
              "reach the servers on this node: they look down while they run.",
        fix="Exempt loopback from the proxy before starting: `export no_proxy=127.0.0.1,localhost NO_PROXY=127.0.0.1,"
            "localhost` (or unset http_proxy/https_proxy for the job); then start the servers again.",
        explains=frozenset({"head_server_waiting", "model_endpoint_down", "request_through_proxy"}),
    )]


def rule_python_version(ev: Evidence) -> list[Finding]:
    findings = []
    seen_files: set[str] = set()
    for hit in ev.hits("python_version_unsatisfiable"):
        if hit.file in seen_files:
            continue
        seen_files.add(hit.file)
        current, required = hit.groups["current"], (hit.groups["required"] or "").replace(" ", "")
        version = re.sub(r"^[<>=!~]+", "", required)
        interpreters, venvs, failed = (
            [h for h in ev.hits(name) if h.file == hit.file] for name in ("uv_interpreter", "venv_created", "prefetch_failed")
        )
        evidence = [i.evidence() for i in ev.incidents_near(hit.file, hit.line)] + [hit.evidence()]
        evidence += [h.evidence() for h in failed[:1]]
        evidence = sorted({(e.file, e.line): e for e in evidence}.values(), key=lambda e: e.line or 0)
        server = re.match(r"^\((?P<s>[\w.-]+)\)", hit.text)
        interpreter = (f"CPython {interpreters[0].groups['version']} at {interpreters[0].groups['path']}"
                       if interpreters else f"Python {current}")
        venv = venvs[0].groups["path"] if venvs else "<server dir>/.venv"
        findings.append(Finding(
            category=INFRA,
            title=f"Server venv build failed: Python {current} does not satisfy nemo-gym's Python{required}",
            evidence=evidence,
            cause=(
                "`gym env start` builds one venv per server with uv"
                + (f" (here for `{server.group('s')}`)" if server else "")
                + f", and the interpreter uv found, {interpreter}, is older than nemo-gym 0.7.0 requires "
                f"(Python{required}). Dependency resolution fails before any server starts. Installing the CLI "
                "with `pip install --ignore-requires-python` does not carry over to the per-server venvs."
            ),
            fix=(
                f"Give uv a new enough Python and start again: `uv python install {version}`, then rerun "
                f"`gym env start ...` (or pin it for this shell: `export UV_PYTHON={version}`), or use an image "
                f"with Python {required}. Without a newer Python on this host: pre-create each server's venv "
                f"(here {venv}) and start with `++skip_venv_if_present=true`."
            ),
            explains=frozenset({"python_version_unsatisfiable", "prefetch_failed", "venv_created", "uv_interpreter"}),
        ))
    return findings


def _probes(ev: Evidence, kind: str) -> list[ProbeResult]:
    return [p for p in ev.probes or [] if p.target.kind == kind]


def rule_ports_in_use(ev: Evidence) -> list[Finding]:
    """The run's servers are down, yet something holds their ports: the next start will fail to bind."""
    held = [p for p in _probes(ev, PORT) if p.detail == PORT_IN_USE]
    if not held or ev.servers_expected_live:
        return []
    ports = ", ".join(f"{p.target.address} ({p.target.server})" for p in held)
    return [Finding(
        category=INFRA,
        title=f"{plural(len(held), 'port')} of this run's servers still held by another process: {ports}",
        evidence=[p.evidence() for p in held[:3]],
        cause="The run's logs say its servers shut down (or never reached ready), yet something listens on the ports "
              "they used: a server of this or an earlier run that was never stopped. The next `gym env start` on "
              "these ports fails with `address already in use`.",
        fix="Find the holders: " + "; ".join(f"`ss -ltnp 'sport = :{p.target.address.rpartition(':')[2]}'`"
                                               for p in held[:3])
            + "; stop them by their pid (`kill <pid>`), or start on free ports, then `gym env start ...`.",
    )]


# ---------------------------------------------------------------------------------------------
# Step 2: model serving.


def _run_incomplete(ev: Evidence) -> bool:
    a = ev.artifacts
    return bool(a.missing_keys or a.failure_groups or ev.manifest.collection_cut_short or not a.rollouts.valid_rows)


def rule_model_probe(ev: Evidence) -> list[Finding]:
    down = [p for p in _probes(ev, MODEL) if not p.ok]
    if not down or not (ev.servers_expected_live or _run_incomplete(ev)):
        return []
    return [Finding(
        category=MODEL_SERVING,
        title=f"The model endpoint does not answer now: {down[0].detail}",
        evidence=[p.evidence() for p in down[:3]],
        cause="The run is not finished (or its servers should be up), and the model endpoint it used does not answer "
              "`/models`: the model server is down, still loading, or listening elsewhere.",
        fix=f"Read {model_server_log(ev)}; start or fix it, check `curl -s {models_url(ev)}`, then "
            + resume_command(ev) + ".",
    )]


def rule_nested_model_errors(ev: Evidence) -> list[Finding]:
    groups = groups_routed(ev, "nested_model")
    if not groups:
        return []
    if any(g.nested and (_HTML_PAGE.match(g.nested.headline) or _NOT_FOUND_PAGE.match(g.nested.headline))
           for g in groups):
        return [nested_finding(
            ev, groups, MODEL_SERVING, "Model server",
            "That body is an HTML page or a bare `Not Found`, not the JSON error every OpenAI-compatible server "
            "answers with: the model URL points at another web server (a docs preview, a dashboard, Gym's own head "
            "server, a proxy's login page) or at a path of it that is not the API.",
            "Point the model URL (`gym env start --model-url`, `policy_base_url`) at the model server's API base, "
            f"`http://HOST:PORT/v1`: the port the model server printed when it started, checked with `curl -s "
            f"{models_url(ev)}` (it must list the model).",
        )]
    return [nested_finding(
        ev, groups, MODEL_SERVING, "Model server",
        "The model endpoint refused or failed the request: a BadRequestError (400) usually means the request "
        "itself was rejected (context length, tool or grammar schema, sampling parameters); 429 and 5xx mean the "
        "endpoint shed load or failed.",
        f"Read {model_server_log(ev)} at the time of the failures (vLLM: `vllm serve ... --enable-log-requests`) and "
        f"check it answers: `curl -s {models_url(ev)}`." + _served_hint(ev, groups),
    )]



def rule_host_limits(ev: Evidence) -> list[Finding]:
    """Requests that failed on the collecting machine itself: out of file descriptors, a full or read-only disk."""
    groups = groups_routed(ev, "host_limit")
    if not groups:
        return []
    placement = host_limit(groups[0].text)
    if placement.basis.startswith("EMFILE") and (sized := limit_below_concurrency(ev)):
        return [_concurrency_above_the_open_files_limit(ev, groups, sized)]
    return [Finding(
        category=INFRA,
        failed_keys=keys_of(groups),
        title=f"{placement.basis}: {plural(sum(g.count for g in groups), 'failed attempt')}",
        evidence=[g.first for g in groups[:3]],
        cause=f"{status_words(groups[0])}: {said(groups[0])}. The error is the machine's, not the server's the request "
              f"was for: the collecting process could not open a connection or write ({placement.basis}). "
              f"Affected: {affected(ev, groups)}.",
        fix=f"{placement.fix} Then collect the missing rollouts: {resume_command(ev)}.",
    )]


def _concurrency_above_the_open_files_limit(ev: Evidence, groups: list[FailureGroup], sized: SizedLimit) -> Finding:
    """Requests out of descriptors in a run whose own script set or printed an open-files limit below what its
    concurrency needs: the run's sizing (throughput), not the machine."""
    return Finding(
        category=THROUGHPUT_RESOURCES,
        failed_keys=keys_of(groups),
        title=f"The collection ran {sized.concurrency} requests at once under an open-files limit of {sized.limit} "
              f"({sized.where.where}): {plural(sum(g.count for g in groups), 'failed attempt')} out of file "
              "descriptors",
        evidence=[sized.where, *(g.first for g in groups[:2])],
        cause=f"Each request in flight holds a socket, and the process holds its own files besides: "
              f"--concurrency {sized.concurrency} needs more than the {sized.limit} descriptors `ulimit -n` allows "
              f"({sized.where.where}), so the requests past the limit failed with EMFILE ({said(groups[0])}). "
              f"Affected: {affected(ev, groups)}.",
        fix=f"Size the two together: lower `--concurrency` below the limit (at most {max(1, sized.limit - 8)} here), "
            f"or raise the limit for the job (`ulimit -n {max(1024, sized.concurrency * 4)}` where {sized.script} "
            f"sets or reads it, or the node's `nofile` in limits.conf). Then collect the missing rollouts: "
            f"{resume_command(ev)}.",
    )


def _proxy_queueing_the_calls(ev: Evidence, groups: list[FailureGroup]) -> Finding | None:
    """Requests that timed out or were reset, none answered with an error, through the user's proxy serving one
    request at a time: they waited in its queue, and past its listen backlog (5 for `socketserver`) it resets them.
    The proxy's capacity is the cause, not the model server."""
    serial = one_at_a_time_proxy(ev)
    described = describe_endpoint_failures(groups)
    if serial is None or not described.only_unanswered():
        return None
    return Finding(
        category=THROUGHPUT_RESOURCES,
        failed_keys=keys_of(groups),
        title=f"{serial.file} serves one model call at a time: requests {described.what} "
              f"({plural(sum(g.count for g in groups), 'failed attempt')})",
        evidence=[serial, *(g.first for g in described.examples)],
        cause=f"{status_words(groups[0])}: {said(groups[0])}. Every model call goes through {serial.file}, whose "
              f"server handles one request at a time (line {serial.line}): the collection's concurrent requests "
              "queue behind each other, and those past its listen backlog are reset or time out, while the model "
              f"server behind it stays idle. Affected: {affected(ev, groups)}.",
        fix=f"Serve {serial.file} with `ThreadingHTTPServer` (or an async server) instead of line {serial.line} "
            f"`{serial.text}`, so it forwards the collection's requests side by side; then collect the missing "
            f"rollouts: {resume_command(ev)}.",
    )


def rule_model_endpoint_failures(ev: Evidence) -> list[Finding]:
    findings = []
    groups = groups_routed(ev, "endpoint")
    limited = rate_limited_at_lowest_load(ev, groups) if groups else None
    overload = read_overload(ev, groups) if groups and limited is None else None
    if limited is not None:
        findings.append(limited)
    elif overload is not None:
        findings.append(overload_finding(ev, groups, overload))
    elif groups and (serving := _proxy_queueing_the_calls(ev, groups)):
        findings.append(serving)
    elif groups:
        lead = groups[0]
        described = describe_endpoint_failures(groups)
        findings.append(Finding(
            category=MODEL_SERVING,
            failed_keys=keys_of(groups),
            title=f"Model endpoint {described.what}: {plural(sum(g.count for g in groups), 'failed attempt')}",
            evidence=[g.first for g in described.examples],
            cause=f"{status_words(lead)}: {said(lead)}. {described.reading} Affected: {affected(ev, groups)}.",
            fix=_injected_faults(ev, groups) + (
                f"1. Check the endpoint answers: `curl -s {models_url(ev)}` (`gym env start` probes "
                f"`<base_url>/models`; {diagnose_command(ev, probe=True)} does it for you) and read "
                f"{model_server_log(ev)}. 2. For 429 or overload, lower `--concurrency` of `gym eval run`. 3. If the error body stays "
                f"generic, {debug_rerun(ev, lead)}. 4. Then collect the missing rollouts: {resume_command(ev)}."
            ),
        ))
    auth = groups_routed(ev, "auth_config")
    unknown_model = [g for g in auth if _MODEL_NOT_FOUND.search(g.text)]
    if unknown_model:
        findings.append(_unknown_model_finding(ev, unknown_model))
    refused = [g for g in auth if g not in unknown_model]
    if refused:
        statuses = sorted({g.http_status for g in refused if g.http_status})
        findings.append(Finding(
            category=CONFIG,
            failed_keys=keys_of(refused),
            title=f"Requests refused with HTTP {', '.join(map(str, statuses))}: wrong model name, URL or API key",
            evidence=[g.first for g in refused[:3]],
            cause=f"401/403 mean the key is refused, 404 a wrong model name or path. Affected: {affected(ev, refused)}.",
            fix=(
                "Compare `--model`, `--model-url` and the API key given to `gym env start` with what the endpoint "
                f"serves: `curl -s -H \"Authorization: Bearer $OPENAI_API_KEY\" {models_url(ev)}` (keep the key "
                "in an environment variable, never in logs); then restart the servers and resume the collection."
            ),
        ))
    return findings


_MODEL_NOT_FOUND = re.compile(r"model_not_found|The model `?(?P<model>[^`'\s]+)`? does not exist", re.I)
_INJECTED = "injected fault"  # what our simulated policy's failures say (serving/faults.py)


def _injected_faults(ev: Evidence, groups: list) -> str:
    """When the server says it failed on purpose: a fault drill's flags left on, and where they are set."""
    if not any(_INJECTED in g.text for g in groups) and not ev.hits("policy_fault_injection"):
        return ""
    scripts = [file.name for file in ev.user_files if b"--fault-rate" in file.content]
    where = f" (set in {', '.join(scripts[:3])})" if scripts else ""
    return ("0. The server fails these on purpose: its errors say 'injected fault', so it runs with fault injection "
            f"on (`gym-pipeline serve-policy --fault-rate ... --fault-kinds ...`{where}, flags of a resilience "
            "drill). Start it again without `--fault-rate` and `--fault-kinds`, then collect the missing rollouts; "
            "the checks below are for a server that fails by itself. ")


def _served_hint(ev: Evidence, groups: list) -> str:
    """For requests naming a model the server does not serve: what it serves, and where to say so."""
    asked = next((m["model"] for g in groups if (m := _MODEL_NOT_FOUND.search(g.text)) and m["model"]), None)
    if asked is None:
        return ""
    served = served_models(ev)
    serves = (f"it serves {', '.join(f'`{name}`' for name in served)}" if served
              else f"see what it serves: `curl -s {models_url(ev)}`")
    name = served[0] if len(served) == 1 else "<served name>"
    return (f" The run asked for `{asked}`; {serves}. Ask for that name: `gym-pipeline collect --model {name}`, "
            f"`gym env start ... --model {name}` (Gym's `policy_model_name`), or serve the checkpoint under "
            f"`{asked}` (vLLM `--served-model-name {asked}`).")


def _unknown_model_finding(ev: Evidence, groups: list) -> Finding:
    return Finding(
        category=MODEL_SERVING,
        failed_keys=keys_of(groups),
        title=f"The model server does not serve the model the run asks for: "
              f"{plural(sum(g.count for g in groups), 'failed attempt')} (HTTP 404 model_not_found)",
        evidence=[g.first for g in groups[:3]],
        cause=f"{status_words(groups[0])}: {said(groups[0])}. The server answers, under another name than the one "
              f"the requests carry. Affected: {affected(ev, groups)}.",
        fix=(f"Check what the endpoint serves: `curl -s {models_url(ev)}`." + _served_hint(ev, groups)
             + f" Then collect the missing rollouts: {resume_command(ev)}."),
    )


def rule_model_request_retries(ev: Evidence) -> list[Finding]:
    """Gym's servers kept retrying requests to the model endpoint: it stopped answering mid-run."""
    hits = [h for h in ev.hits("gym_request_retry") if re.search(r"/(?:chat/)?completions|/responses", h.groups["url"])]
    if not hits:
        return []
    last = max(hits, key=lambda h: int(h.groups["retry"]))
    errors = sorted({h.groups["error"] for h in hits})
    return [Finding(
        category=MODEL_SERVING,
        title=f"The model endpoint stopped answering: Gym retried {last.groups['url']} {last.groups['retry']} times "
              f"over {last.groups['elapsed']} s ({', '.join(errors)})",
        evidence=unique([hits[0].evidence(), last.evidence()]),
        cause="Gym's model proxy retries a request it cannot complete, for as long as the run lasts; "
              f"{', '.join(errors)} on every retry means the model server is gone (crashed, killed, or restarted "
              "elsewhere) or drops every connection, not a slow answer.",
        fix=f"Read {model_server_log(ev)} (does it end without a shutdown line? then the process died: `dmesg -T | "
            "grep -i killed` for the OOM killer); check it answers: "
            f"`curl -s {last.groups['url'].rsplit('/chat/completions', 1)[0]}/models`; restart it (if it was restarted "
            "on another host or port, point `--model-url` at its new address and start Gym's servers again), then "
            "resume: "
            f"{resume_command(ev)}.",
        explains=frozenset({"gym_request_retry"}),
    )]


def rule_run_failures_without_sidecar(ev: Evidence) -> list[Finding]:
    """The eval log shows /run failures but the folder holds no failure rows to explain them."""
    hits = ev.hits("run_failed")
    if not hits or ev.artifacts.failures.valid_rows:
        return []
    statuses = sorted({h.groups["status"] for h in hits if h.groups.get("status")})
    return [Finding(
        category=MODEL_SERVING,
        title=f"Rollout /run calls failed (HTTP {', '.join(statuses)}) and no failure body was kept",
        evidence=[h.evidence() for h in hits[:3]],
        cause=(
            "The eval log shows failed /run calls but the folder has no failures sidecar rows, so the failing layer "
            "(model, agent or verifier) is not known yet. Gym's nested 500s hide the inner body; the model "
            "server is the first suspect in the debug order."
        ),
        fix=(
            f"Restart the servers with `gym env start ... {REQUEST_DEBUG_FLAG}` and re-run the failing rows with "
            f"`gym eval run ... {SIDECAR_FLAG} {REQUEST_DEBUG_FLAG}`, so each failure lands in "
            f"{ev.artifacts.files.failures.name} with its body; then diagnose again: {diagnose_command(ev)}."
        ),
        explains=frozenset({"run_failed"}),
        effect=True,  # the failing layer's own error, when a log shows it, is the cause
    )]


def rule_nested_model_log_errors(ev: Evidence) -> list[Finding]:
    return nested_log_findings(ev, "model")


# ---------------------------------------------------------------------------------------------
# Step 3: Gym server readiness.


def rule_servers_not_ready(ev: Evidence) -> list[Finding]:
    findings = []
    by_file: dict[str, list[LogHit]] = {}
    for hit in ev.hits("servers_ready"):
        by_file.setdefault(hit.file, []).append(hit)
    for file, hits in by_file.items():
        if any(h.groups["ready"] == h.groups["total"] for h in hits):
            continue
        last = hits[-1]
        waiting = re.search(r"\[(.*)\]", last.text)
        awaited = set(re.findall(r"'([^']+)'", waiting.group(1))) if waiting else set()
        listening = {h.groups["server"] for h in ev.hits("server_listening") if h.file == file}
        if awaited and awaited <= listening:
            continue  # every server it waited for logged `Uvicorn running` after: the ready line was just not printed
        findings.append(Finding(
            category=INFRA,
            title=f"Only {last.groups['ready']} / {last.groups['total']} Gym servers became ready",
            evidence=[last.evidence()],
            cause=(
                "`gym env start` waits until every server answers; this log stops before all did"
                + (f" (still waiting for {waiting.group(1)})" if waiting else "")
                + ". A server crashed at start, could not bind its port, or the job ended first."
            ),
            fix=(
                f"Read the lines of the missing servers (prefixed `(<name>)`) in {file}; start again with `-v` "
                "for DEBUG logs, and check the head server: `curl -s http://127.0.0.1:11000/server_instances`."
            ),
            explains=frozenset({"servers_ready"}),
            effect=True,  # of the error that stopped a server, or of the start being interrupted, when a log shows it
        ))
    listening = {h.file for h in ev.hits("head_server_listening")}
    waiting = [h for h in ev.hits("head_server_waiting") if h.file not in listening and h.file not in by_file]
    if waiting:
        findings.append(Finding(
            category=INFRA,
            title="The head server never came up",
            evidence=unique([waiting[0].evidence(), waiting[-1].evidence()]),
            cause=f"`gym env start` kept waiting for its head server (status `{waiting[-1].groups['status']}`) and the "
                  "log never shows it listening: it could not start or bind 127.0.0.1:11000, or the job ended first.",
            fix="Check the port: `ss -ltnp 'sport = :11000'` (a leftover head server holds it?), then start again with "
                "`-v`: `gym env start -v ...`.",
            explains=frozenset({"head_server_waiting"}),
        ))
    return findings


def rule_head_probe(ev: Evidence) -> list[Finding]:
    down = [p for p in _probes(ev, HEAD_SERVER) if not p.ok]
    if not down or not ev.servers_expected_live:
        return []
    ready = all_servers_ready(ev)
    return [Finding(
        category=INFRA,
        title=f"The head server does not answer, though the log says the servers are up: {down[0].detail}",
        evidence=[p.evidence() for p in down[:1]] + ([ready.evidence()] if ready else []),
        cause="`gym env start` reported every server ready and never shut down, but its head server does not answer "
              "`/server_instances` now: the process was killed (SIGKILL leaves no shutdown lines) or the node went "
              "away.",
        fix="Check the process and the node (`ps -ef | grep 'gym env start'`, `ray status`), then start the servers "
            "again: `gym env start ...`, and resume: " + resume_command(ev) + ".",
    )]


# ---------------------------------------------------------------------------------------------
# Step 4: tool routing and sandbox readiness.


def rule_sandbox_cannot_reach_model(ev: Evidence) -> list[Finding]:
    groups = groups_routed(ev, "sandbox_network")
    if not groups:
        return []
    lead = groups[0]
    agents = sorted({a for g in groups for a in g.agents})
    if _REFUSED_ON_LOOPBACK.search(lead.text):
        # the agent's calls to a loopback address were refused: nothing listens there, the server is not running
        url = _LOOPBACK.search(lead.text).group(0)
        return [Finding(
            category=MODEL_SERVING,
            failed_keys=keys_of(groups),
            title=f"Nothing listens at the model server's address {url}: "
                  f"{plural(sum(g.count for g in groups), 'episode')} failed at the agent stage, connection refused",
            evidence=[g.first for g in groups[:3]],
            cause=f"{status_words(lead)}: {said(lead)}. The agent's requests went to a loopback address on this host "
                  "and were refused: no process listens on that port, so the model server was not running (stopped, "
                  "or crashed, before or during the collection), not a network between the sandbox and the host. "
                  f"Affected: {affected(ev, groups)}.",
            fix=f"Start the model server again and check it answers (`curl -s {url}/v1/models`; "
                f"{model_server_log(ev)} says how it ended), keep it running for the whole collection (in the "
                f"background or under a launcher, not a terminal that closes), then collect again: "
                f"{resume_command(ev)}.",
        )]
    return [Finding(
        category=INFRA,
        failed_keys=keys_of(groups),
        title=f"The sandbox cannot reach the Model Server: {plural(sum(g.count for g in groups), 'episode')} "
              "failed at the agent stage with a connection error or timeout",
        evidence=[g.first for g in groups[:3]],
        cause=f"{status_words(lead)}: {said(lead)}. Harnesses such as hermes_agent and codex_agent call the Model "
              "Server from inside the sandbox; `gym eval run` then makes it advertise the machine's network address "
              "instead of loopback, which a sandbox reaches only when the network routes to it and no firewall blocks "
              f"the port. Agents: {', '.join(agents) or 'unknown'}. Affected: {affected(ev, groups)}.",
        fix="Run gym on a host the sandboxes can reach (a node inside the cluster network); a deployment that needs "
            "other servers reachable sets `absolute_ip_server_types` or `default_host` (see Multi-Node "
            f"Configuration). Then `gym eval run ... --resume` ({resume_command(ev)}).",
    )]


def rule_tool_env_hangs(ev: Evidence) -> list[Finding]:
    groups = groups_routed(ev, "tool_hang")
    if not groups:
        return []
    lead = groups[0]
    return [Finding(
        category=CONFIG,
        failed_keys=keys_of(groups),
        title=f"A tool environment hangs: {plural(sum(g.count for g in groups), 'attempt')} timed out on rows that "
              f"offer tools ({ev.artifacts.rows_with_tools} such rows)",
        evidence=[g.first for g in groups[:3]],
        cause=f"{status_words(lead)}: {said(lead)}. When a tool env hangs or partly works, the usual cause is a tool "
              "no server owns or loads (the call waits for an answer that never comes), not the model's settings. "
              f"Affected: {affected(ev, groups)}.",
        fix="Check tool ownership and loading before changing model settings: list the servers that are up, `curl -s "
            "http://127.0.0.1:11000/server_instances`, and check that the resources server owning each tool the rows "
            "name (`jq -c '[.responses_create_params.tools[].name]' "
            f"{path_of(ev.artifacts.materialized)} | sort -u`) is among them and loads it (its `gym env start` lines); "
            "check sandbox readiness only if the env configures a sandbox. Then resume: " + resume_command(ev) + ".",
    )]


