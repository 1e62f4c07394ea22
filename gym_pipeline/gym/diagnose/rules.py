"""Rules: read `Evidence` in the debug order of the NeMo Gym debugging guide and name findings.

Each rule is a plain function `rule(evidence) -> list[Finding]`, registered in `RULES` with the
guide's debug step it belongs to:

  1. Slurm/Ray job state and logs      5. materialized inputs (and the files' integrity)
  2. model serving readiness           6. rollout output and profile counts
  3. Gym server readiness              7. the first real verifier exception
  4. tool routing                      8. failing row schema vs the request model

Findings keep the order of `RULES`, so the first finding is the first thing to fix and names the
report's category. A log error no rule explains still becomes a finding (`unexplained_log_errors`),
so a run is never called healthy while its logs show a real error.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, get_args

from pydantic import BaseModel, field_validator

from gym_pipeline.gym.diagnose.evidence import (
    Evidence,
    EvidenceLine,
    FailureGroup,
    FileStats,
    Key,
    LogHit,
    excerpt,
    redact,
)

# The seven categories of the debugging guide, in its order, and the verdict when nothing failed.
INFRA = "infra"
MODEL_SERVING = "model_serving"
CONFIG = "config"
DATA_SCHEMA = "data_schema"
VERIFIER_RUNTIME = "verifier_runtime"
CACHE_RESUME = "cache_resume"
THROUGHPUT_RESOURCES = "throughput_resources"
CATEGORIES: tuple[str, ...] = (
    INFRA,
    MODEL_SERVING,
    CONFIG,
    DATA_SCHEMA,
    VERIFIER_RUNTIME,
    CACHE_RESUME,
    THROUGHPUT_RESOURCES,
)
HEALTHY = "healthy"

Category = Literal[
    "infra", "model_serving", "config", "data_schema", "verifier_runtime", "cache_resume", "throughput_resources"
]

assert get_args(Category) == CATEGORIES, "Category and CATEGORIES must list the same names"

CATEGORY_MEANINGS: dict[str, str] = {
    INFRA: "Slurm, Ray, container, filesystem, network, ports",
    MODEL_SERVING: "vLLM startup, readiness, errors, throughput",
    CONFIG: "wrong config bundle, missing agent, wrong extra args",
    DATA_SCHEMA: "JSONL fields do not match what the verifier or resources server expects",
    VERIFIER_RUNTIME: "resources server exception or malformed verify response",
    CACHE_RESUME: "stale materialized inputs or partial rollout output",
    THROUGHPUT_RESOURCES: "concurrency too high, judge bottleneck, tool/sandbox latency",
}

DEBUG_STEPS: dict[int, str] = {
    1: "Slurm/Ray job state and logs",
    2: "model serving readiness",
    3: "Gym server readiness",
    4: "tool routing",
    5: "materialized inputs",
    6: "rollout output and profile counts",
    7: "first real verifier exception",
    8: "failing row schema vs the request model",
}

# How a rollout row's `failure_kind` is treated (seeds/004 for task-folder runs, Gym's shared list).
FAILURE_KIND_TREATMENT: dict[str, tuple[str, str]] = {
    "harbor:missing_reward": ("scored as 0", "test.sh wrote neither reward.txt nor reward.json (a raising Python verifier lands here)"),
    "harbor:invalid_reward": ("scored as 0", "the reward file could not be read as a finite number"),
    "harbor:verifier_timeout": ("scored as 0", "test.sh ran past [verifier].timeout_sec without a reward"),
    "harbor:task_deadline": ("retried", "the episode ran past its task's time budget"),
    "harbor:trajectory_export_failed": ("masked", "the transcript could not be written for the verifier"),
    "harbor:entrypoint_failed": ("masked", "the image's entrypoint exited non-zero after the seed"),
    "harbor:overlay_failed": ("masked", "an overlay-mode RUN line failed in the verifier's sandbox"),
    "harbor:step_setup_failed": ("the step scores 0", "a step's workdir/setup.sh failed"),
    "harbor:step_workdir_failed": ("the step scores 0", "a step's workdir/ could not be unpacked"),
    "harbor:step_healthcheck_failed": ("the step scores 0", "a step's [steps.healthcheck] never passed"),
    "provider_unavailable": ("masked", "a sandbox operation failed during verification"),
    "verifier_error": ("masked", "the verifier (test.sh) could not run"),
    "persistence_failed": ("masked", "Gym could not create the verifier log folder"),
}

DEBUG_FLAG = "++global_aiohttp_client_request_debug=True"
PARTIAL_FLAG = "++allow_partial_rollouts=True"


class Finding(BaseModel):
    """One diagnosed problem: what, the lines that show it, why, and the next commands."""

    category: Category
    title: str
    evidence: list[EvidenceLine] = []
    cause: str
    fix: str

    @field_validator("title", mode="before")
    @classmethod
    def _short_title(cls, value: str) -> str:
        return excerpt(str(value), 240)

    @field_validator("cause", "fix", mode="before")
    @classmethod
    def _no_secrets(cls, value: str) -> str:
        return redact(str(value))


@dataclass(frozen=True)
class Rule:
    step: int  # the debug step of DEBUG_STEPS this rule checks
    name: str
    check: Callable[[Evidence], list[Finding]]


# ---------------------------------------------------------------------------------------------
# Helpers shared by the rules.


def _fmt_keys(keys: Iterable[Key], limit: int = 8) -> str:
    keys = list(keys)
    shown = ", ".join(f"({t}, {r})" for t, r in keys[:limit])
    more = f", ... ({len(keys)} in all)" if len(keys) > limit else ""
    return f"[{shown}{more}]"


def _path(ev: Evidence, stats: FileStats) -> str:
    """A path for a command: the real one when the file exists, else Gym's name for it."""
    path = stats.path or Path(stats.role)
    return str(path) if stats.exists else path.name


def _agent(ev: Evidence) -> str:
    return ev.agents.most_common(1)[0][0] if ev.agents else "<agent>"


def _profile_command(ev: Evidence, partial: bool = False) -> str:
    command = f"gym eval profile --inputs {_path(ev, ev.materialized)} --rollouts {_path(ev, ev.rollouts)}"
    return f"`{command} {PARTIAL_FLAG}`" if partial else f"`{command}`"


def _resume_commands(ev: Evidence) -> str:
    return (
        "`gym-pipeline collect ... --resume` (by hand: "
        f"`gym eval run --no-serve --agent {_agent(ev)} --input <data.jsonl> --output {_path(ev, ev.rollouts)} --resume`, "
        "which runs only the keys without a rollout: resume only with unchanged data, --num-repeats, agent and config)"
    )


def _debug_rerun(ev: Evidence, group: FailureGroup) -> str:
    """Commands that re-run the smallest failing case with Gym's request-boundary debug output."""
    key = group.keys[0] if group.keys else None
    line = ev.materialized_lines.get(key) if key else None
    agent = group.agents.most_common(1)[0][0] if group.agents else _agent(ev)
    if line and ev.materialized.exists:
        row = f"`sed -n '{line}p' {_path(ev, ev.materialized)} > /tmp/gym_debug_row.jsonl` (task {key[0]}, rollout {key[1]}), then "
        data = "/tmp/gym_debug_row.jsonl"
    else:
        row, data = "", "<one failing row>.jsonl"
    return (
        f"restart the servers with request-boundary debug output, `gym env start ... {DEBUG_FLAG}`; re-run the smallest "
        f"failing case: {row}`gym eval run --no-serve --agent {agent} --input {data} --output /tmp/gym_debug/rollouts.jsonl "
        f"{DEBUG_FLAG}`; and search that output for `Request info:|Response content:|Request kwargs:|Hit an exception in`"
    )


def _server_role(name: str) -> str:
    """'model', 'verifier' or 'agent' for a Gym server name such as `VLLMModel___policy_model`."""
    if re.search(r"resources?_?server|environment_?server|verif|judge_?resources", name, re.I):
        return "verifier"
    if re.search(r"model|vllm|openai|llm", name, re.I):
        return "model"
    if re.search(r"agent", name, re.I):
        return "agent"
    return "unknown"


_CONNECTION = re.compile(
    r"Connection refused|ConnectionRefused|ClientConnectorError|Cannot connect to host|ServerDisconnected"
    r"|ClientOSError|Connection reset|RemoteProtocolError|unreachable|Name or service not known",
    re.I,
)
_TIMEOUT = re.compile(r"timeout|timed out", re.I)
_FASTAPI_422 = re.compile(r"[\"']loc[\"']\s*:|Field required|validation error", re.I)
_OPENAI_ERROR = re.compile(r"[\"']error[\"']\s*:|BadRequest|RateLimit|APIError|APIConnection|InternalServerError", re.I)


def failure_route(group: FailureGroup) -> str:
    """Which rule owns a group of failed attempts (one name per group; see `_ROUTE_CATEGORY`)."""
    nested = group.nested
    if nested is not None:
        role = _server_role(nested.innermost)
        if _FASTAPI_422.search(nested.inner_text) or nested.inner_code == 422:
            return "nested_schema"
        if role == "model":
            return "nested_model"
        if role == "verifier":
            return "nested_verifier"
        return "nested_model" if _OPENAI_ERROR.search(nested.inner_text) else "nested_verifier"
    status = group.http_status
    text = group.text
    if group.failure_class == "environment_server_failed" or status == 422:
        return "verifier_422" if status == 422 else "verifier_500"
    if group.failure_class == "timeout_exceeded" or _TIMEOUT.search(group.failure_type or "") or (
        _TIMEOUT.search(text) and status is None
    ):
        return "timeout"
    if _CONNECTION.search(text) or status == 429 or (status is not None and status >= 500):
        return "endpoint"
    if status in (401, 403, 404):
        return "auth_config"
    return "other"


def _groups(ev: Evidence, *routes: str) -> list[FailureGroup]:
    return [g for g in ev.failure_groups if failure_route(g) in routes]


def _affected(ev: Evidence, groups: list[FailureGroup]) -> str:
    attempts = sum(g.count for g in groups)
    all_keys = set().union(*(g.all_keys for g in groups))
    keys = sorted(all_keys)
    still_missing = len(all_keys & set(ev.missing_keys))
    text = f"{attempts} failed attempt{'s' if attempts != 1 else ''} in {ev.rel(ev.failures.path)}, keys {_fmt_keys(keys)}"
    if ev.rollouts.exists:
        text += f"; {still_missing} of these {len(keys)} keys still have no rollout"
        if len(keys) - still_missing:
            text += f" ({len(keys) - still_missing} recovered on retry)"
    return text


def _status_words(group: FailureGroup) -> str:
    status = f"HTTP {group.http_status}" if group.http_status is not None else "no HTTP status"
    return f"{group.failure_class}, {status}" + (f", {group.failure_type}" if group.failure_type else "")


def _said(group: FailureGroup) -> str:
    """What the failure says: its message, and the body's own error when it has one."""
    said = excerpt(group.message or "", 160)
    if group.body_detail:
        said += f"; body: {excerpt(group.body_detail, 200)}"
    return said


def _attempts(count: int) -> str:
    return f"{count} failed attempt{'s' if count != 1 else ''}"


# ---------------------------------------------------------------------------------------------
# Step 1: Slurm/Ray job state and logs.


def rule_nothing_to_diagnose(ev: Evidence) -> list[Finding]:
    if ev.has_run_files or ev.log_files:
        return []
    return [
        Finding(
            category=CONFIG,
            title=f"No NeMo Gym output or log in {ev.run_dir}",
            evidence=[
                EvidenceLine(
                    file=".",
                    text=f"no *_materialized_inputs.jsonl, {ev.files.stem}.jsonl, *_failures.jsonl or *.log in the folder",
                )
            ],
            cause="The folder is not the --output folder of a run, or the run never started writing.",
            fix="Point the diagnosis at the folder holding `<stem>.jsonl` (Gym's --output) and its logs: "
            "`gym-pipeline diagnose <run_dir>`. If the run never started, read the launcher's output first "
            "(Slurm stdout/stderr, `docker logs <container>`).",
        )
    ]


def rule_python_version(ev: Evidence) -> list[Finding]:
    findings = []
    seen_files: set[str] = set()
    for hit in ev.hits("python_version_unsatisfiable"):
        if hit.file in seen_files:
            continue
        seen_files.add(hit.file)
        current, required = hit.groups[0], (hit.groups[1] or "").replace(" ", "")
        version = re.sub(r"^[<>=!~]+", "", required)
        interpreters, venvs, failed = (
            [h for h in ev.hits(name) if h.file == hit.file]
            for name in ("uv_interpreter", "venv_created", "prefetch_failed")
        )
        evidence = [i.evidence() for i in ev.incidents_near(hit.file, hit.line)]
        evidence.append(hit.evidence())
        evidence += [h.evidence() for h in failed[:1]]
        evidence = sorted({(e.file, e.line): e for e in evidence}.values(), key=lambda e: e.line or 0)
        server = re.match(r"^\((?P<s>[\w.-]+)\)", hit.text)
        interpreter = f"CPython {interpreters[0].groups[0]} at {interpreters[0].groups[1]}" if interpreters else f"Python {current}"
        venv = venvs[0].groups[0] if venvs else "<server dir>/.venv"
        findings.append(
            Finding(
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
            )
        )
    return findings


_INFRA_SIGNATURES: dict[str, tuple[str, str, str]] = {
    "address_in_use": (
        "A server could not bind its port: address already in use",
        "Another process holds the port: often a server of an earlier run that was never stopped, or a second job "
        "on the same node.",
        "Find the holder with `ss -ltnp | grep <port>` and stop that process by its pid, or run on free ports / "
        "another node; then start the servers again.",
    ),
    "no_space": (
        "The file system is full",
        "A write failed with no space left (output folder, Ray's session folder under /tmp, or the venv cache).",
        "Check `df -h <output folder> /tmp`; free space or point outputs and Ray's temp folder elsewhere, then "
        "resume the collection.",
    ),
    "slurm_killed": (
        "Slurm ended the job",
        "The job hit its time or memory limit, or was cancelled; whatever ran was cut off mid-write.",
        "Read `sacct -j <jobid> --format=JobID,State,ExitCode,Elapsed,MaxRSS`; raise `--time`/`--mem` and resume "
        "the collection with --resume.",
    ),
}


def rule_infra_log_signatures(ev: Evidence) -> list[Finding]:
    findings = []
    for name, (title, cause, fix) in _INFRA_SIGNATURES.items():
        hits = ev.hits(name)
        if hits:
            findings.append(
                Finding(category=INFRA, title=title, evidence=[h.evidence() for h in hits[:3]], cause=cause, fix=fix)
            )
    return findings


# ---------------------------------------------------------------------------------------------
# Step 2: model serving.


def _nested_finding(ev: Evidence, groups: list[FailureGroup], category: str, who: str, reading: str, fix_next: str) -> Finding:
    lead = groups[0]
    nested = lead.nested
    assert nested is not None
    chain = " -> ".join(f"`{server}`" for server in nested.chain)
    headlines = sorted({g.nested.headline for g in groups if g.nested})
    return Finding(
        category=category,
        title=f'{who} error hidden behind nested "inner server" 500s: {"; ".join(headlines)} '
        f"({_attempts(sum(g.count for g in groups))})",
        evidence=[g.first for g in groups[:3]],
        cause=(
            f"Each /run failed ({_status_words(lead)}) with a body nested {len(nested.chain)} levels deep: {chain}. "
            f"The innermost layer, `{nested.innermost}`, got `{nested.headline}` from the server it called"
            + (f" (HTTP {nested.inner_code})" if nested.inner_code else "")
            + f". {reading} Affected: {_affected(ev, groups)}."
        ),
        fix=f"1. See the real request and response at every boundary: {_debug_rerun(ev, lead)}. 2. {fix_next} "
        f"3. Once fixed, collect the missing rollouts: {_resume_commands(ev)}.",
    )


def rule_nested_model_errors(ev: Evidence) -> list[Finding]:
    groups = _groups(ev, "nested_model")
    if not groups:
        return []
    return [
        _nested_finding(
            ev,
            groups,
            MODEL_SERVING,
            "Model server",
            "The model endpoint refused or failed the request: a BadRequestError (400) usually means the request "
            "itself was rejected (context length, tool or grammar schema, sampling parameters); 429 and 5xx mean the "
            "endpoint shed load or failed.",
            "Read the model server's log at the time of the failures (vLLM: `VLLM_LOGGING_LEVEL=INFO vllm serve ... "
            "--enable-log-requests`) and check it answers: `curl -s <model-url>/v1/models`.",
        )
    ]


def rule_model_endpoint_failures(ev: Evidence) -> list[Finding]:
    findings = []
    groups = _groups(ev, "endpoint")
    if groups:
        lead = groups[0]
        text = " ".join(g.text for g in groups)
        if _CONNECTION.search(text):
            what, reading = "unreachable", (
                "Nothing answered at the address the servers call: the model server is not started, crashed, or the "
                "model URL points at the wrong host or port."
            )
        elif any(g.http_status == 429 for g in groups):
            what, reading = "rate limited (HTTP 429)", (
                "The endpoint sheds load: more concurrent requests than it serves."
            )
        else:
            statuses = sorted({g.http_status for g in groups if g.http_status})
            what, reading = f"failing (HTTP {', '.join(map(str, statuses))})", (
                "The endpoint, or the Gym server in front of it, failed while answering; the body does not say more."
            )
        findings.append(
            Finding(
                category=MODEL_SERVING,
                title=f"Model endpoint {what}: {_attempts(sum(g.count for g in groups))}",
                evidence=[g.first for g in groups[:3]],
                cause=f"{_status_words(lead)}: {_said(lead)}. {reading} Affected: {_affected(ev, groups)}.",
                fix=(
                    "1. Check the endpoint answers: `curl -s <model-url>/v1/models` (`gym env start` probes "
                    "`<base_url>/models`) and read the model server's log. 2. For 429 or overload, lower "
                    f"`--concurrency` of `gym eval run`. 3. If the error body stays generic, {_debug_rerun(ev, lead)}. "
                    f"4. Then collect the missing rollouts: {_resume_commands(ev)}."
                ),
            )
        )
    auth = _groups(ev, "auth_config")
    if auth:
        statuses = sorted({g.http_status for g in auth if g.http_status})
        findings.append(
            Finding(
                category=CONFIG,
                title=f"Requests refused with HTTP {', '.join(map(str, statuses))}: wrong model name, URL or API key",
                evidence=[g.first for g in auth[:3]],
                cause=f"401/403 mean the key is refused, 404 a wrong model name or path. Affected: {_affected(ev, auth)}.",
                fix=(
                    "Compare `--model`, `--model-url` and the API key given to `gym env start` with what the endpoint "
                    "serves: `curl -s -H \"Authorization: Bearer $KEY\" <model-url>/v1/models` (keep the key in an "
                    "environment variable, never in logs); then restart the servers and resume the collection."
                ),
            )
        )
    return findings


def rule_run_failures_without_sidecar(ev: Evidence) -> list[Finding]:
    """The eval log shows /run failures but the folder holds no failure rows to explain them."""
    hits = ev.hits("run_failed")
    if not hits or ev.failures.valid_rows:
        return []
    statuses = sorted({h.groups[0] for h in hits if h.groups and h.groups[0]})
    return [
        Finding(
            category=MODEL_SERVING,
            title=f"Rollout /run calls failed (HTTP {', '.join(statuses)}) and no failure body was kept",
            evidence=[h.evidence() for h in hits[:3]],
            cause=(
                "The eval log shows failed /run calls but the folder has no failures sidecar rows, so the failing layer "
                "(model, agent or verifier) is not known yet. Gym's nested 500s hide the inner body; the model "
                "server is the first suspect in the debug order."
            ),
            fix=(
                f"Restart the servers with `gym env start ... {DEBUG_FLAG}` and re-run the failing rows with "
                f"`gym eval run ... ++route_failures_to_sidecar=true {DEBUG_FLAG}`, so each failure lands in "
                f"{Path(_path(ev, ev.failures)).name} with its body; then diagnose again."
            ),
        )
    ]


# ---------------------------------------------------------------------------------------------
# Step 3: Gym server readiness.


def rule_servers_not_ready(ev: Evidence) -> list[Finding]:
    findings = []
    by_file: dict[str, list[LogHit]] = {}
    for hit in ev.hits("servers_ready"):
        by_file.setdefault(hit.file, []).append(hit)
    for file, hits in by_file.items():
        if any(h.text.lstrip().startswith("All ") or h.groups[0] == h.groups[1] for h in hits):
            continue
        last = hits[-1]
        waiting = re.search(r"\[(.*)\]", last.text)
        findings.append(
            Finding(
                category=INFRA,
                title=f"Only {last.groups[0]} / {last.groups[1]} Gym servers became ready",
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
            )
        )
    return findings


# ---------------------------------------------------------------------------------------------
# Step 5: materialized inputs and the integrity of the run's files.


def rule_malformed_jsonl(ev: Evidence) -> list[Finding]:
    findings = []
    for stats in ev.malformed_files:
        first = stats.malformed[0]
        file = ev.rel(stats.path)
        where = f"{file}:{first.line}" + (f" field '{first.field}'" if first.field else "")
        torn = first.torn and stats.malformed_count == 1
        cause = (
            f"{stats.malformed_count} line(s) of the {stats.role} ({stats.rows} in all) cannot be read as rows; "
            f"the first: {first.error.message}."
        )
        if torn:
            cause += " It is the file's last line and has no newline: a write cut short when the run was killed."
        else:
            cause += " Counts and (task, rollout) keys of this file leave those lines out."
        findings.append(
            Finding(
                category=DATA_SCHEMA,
                title=f"Malformed JSONL at {where}",
                evidence=[EvidenceLine(file=file, line=m.line, text=m.text) for m in stats.malformed[:3]],
                cause=cause,
                fix=(
                    f"Look at the line: `sed -n '{first.line}p' {stats.path}`. "
                    + (
                        f"Drop the torn line (`cp {stats.path} {stats.path}.bak && sed -i '{first.line}d' {stats.path}`) "
                        f"and resume: {_resume_commands(ev)}."
                        if torn
                        else "Find what wrote it (a second writer, an edited file, a different Gym version); fix or "
                        "remove the bad rows, or re-run on a clean output path."
                    )
                ),
            )
        )
    return findings


def rule_rollouts_without_inputs(ev: Evidence) -> list[Finding]:
    findings = []
    if ev.rollouts.valid_rows and not ev.materialized.exists:
        findings.append(
            Finding(
                category=CACHE_RESUME,
                title=f"{ev.rollouts.valid_rows} rollouts but no materialized inputs beside them",
                evidence=[EvidenceLine(file=ev.rel(ev.materialized.path), text="file missing")],
                cause=(
                    "`gym eval run` writes the materialized inputs before any rollout; without them nothing says which "
                    "(task, rollout) keys were expected, the profile cannot run, and --resume would materialize anew "
                    "from whatever the data is now."
                ),
                fix="Re-run the collection on a clean output path (`gym eval run ... --output <new>/rollouts.jsonl`), "
                "or restore the materialized inputs of this run.",
            )
        )
    if ev.extra_rollout_keys:
        findings.append(
            Finding(
                category=CACHE_RESUME,
                title=f"{len(ev.extra_rollout_keys)} rollouts have keys the materialized inputs do not list",
                evidence=ev.extra_examples[:3],
                cause=(
                    "The rollouts and the materialized inputs come from different runs: inputs re-materialized after the "
                    "data or --num-repeats changed, or two runs writing one folder. Keys: "
                    f"{_fmt_keys(ev.extra_rollout_keys)}."
                ),
                fix="Re-run on a clean output path; never resume after the data, repeats, agent or config changed.",
            )
        )
    if ev.duplicate_rollout_keys:
        findings.append(
            Finding(
                category=CACHE_RESUME,
                title=f"{ev.duplicate_rollout_keys} duplicate (task, rollout) keys in {ev.rel(ev.rollouts.path)}",
                evidence=ev.duplicate_examples[:3],
                cause="One key has several rollouts: two runs appended to one file, or a resume re-ran finished keys.",
                fix="Run one job per output folder; re-collect on a clean output path (or keep one row per key) and "
                "profile again.",
            )
        )
    return findings


# ---------------------------------------------------------------------------------------------
# Step 6: rollout output and profile counts.


def rule_missing_rollouts(ev: Evidence) -> list[Finding]:
    strict = ev.hits("missing_rollout_keys")
    keys = ev.missing_without_failure
    if not keys and not strict:
        return []
    evidence = list(ev.missing_examples[:3]) + [h.evidence() for h in strict[:2]]
    if keys:
        title = (
            f"{len(keys)} of {ev.materialized.valid_rows} materialized rollouts have no result and no recorded failure "
            "(partial output)"
        )
        cause = (
            "The collection stopped (killed, timed out, or a resume that never ran) before these (task, rollout) keys "
            f"finished, and no failed attempt explains them. Missing: {_fmt_keys(keys)}."
        )
        if not ev.failures.exists:
            cause += (
                " The folder has no failures sidecar: without `++route_failures_to_sidecar=true` a failed /run aborts "
                "the run and leaves no row, so read the eval log too."
            )
        if ev.rollouts.malformed_count:
            cause += f" {ev.rollouts.malformed_count} unreadable line(s) of the rollouts may hold some of them."
    else:
        listed = strict[0].groups[0] if strict[0].groups else ""
        count = re.search(r"Missing rollout results for (\d+)", strict[0].text)
        title = (
            "`gym eval profile` refused a partial run"
            + (f": {count.group(1)} materialized rows have no rollout" if count else "")
        )
        cause = (
            "Strict profiling requires a rollout for every materialized (task, rollout) key, and the collection is "
            f"partial. Missing rollout keys: {listed}."
        )
        if ev.missing_keys and not ev.missing_without_failure:
            cause += " Every one of them has failed attempts in the sidecar: fix those first (findings above)."
        if strict[0].file and not ev.materialized.exists:
            cause += " Only the log is in this folder; check the run's rollouts_failures.jsonl for their failures."
    if strict and keys:
        cause += " `gym eval profile` refused this folder for the same reason (see the log line)."
    return [
        Finding(
            category=CACHE_RESUME,
            title=title,
            evidence=evidence,
            cause=cause,
            fix=(
                f"Finish the collection, then profile: {_resume_commands(ev)}, then {_profile_command(ev)}. "
                f"To profile only what completed now: {_profile_command(ev, partial=True)} (tasks without any rollout "
                "are dropped from the profile)."
            ),
        )
    ]


def rule_partial_profile_log(ev: Evidence) -> list[Finding]:
    """Only a log of `gym eval profile ++allow_partial_rollouts=True` is here: it says what it dropped."""
    if ev.materialized.exists:
        return []  # the run's own files are better evidence than the log's counts
    findings = []
    for hit in ev.hits("profile_dropped"):
        total, complete, partial, dropped = (int(g) for g in hit.groups)
        if not (partial or dropped):
            continue
        findings.append(
            Finding(
                category=CACHE_RESUME,
                title=f"The profile covers a partial collection: {complete} of {total} tasks complete, "
                f"{partial} partial, {dropped} dropped without any rollout",
                evidence=[hit.evidence()],
                cause=(
                    "`gym eval profile` ran with ++allow_partial_rollouts=True over a collection that stopped short "
                    "or whose failed attempts were routed to the failures sidecar; dropped tasks are absent from every "
                    "statistic."
                ),
                fix=(
                    "Check the run's rollouts_failures.jsonl for why those keys failed (diagnose the run folder itself), "
                    f"then resume the collection, {_resume_commands(ev)}, and profile again in strict mode."
                ),
            )
        )
        break
    return findings


def rule_profile_counts(ev: Evidence) -> list[Finding]:
    rollouts = ev.rollouts.valid_rows - ev.duplicate_rollout_keys
    if rollouts <= 0 or ev.profile.malformed_count:
        return []
    profile_file = ev.rel(ev.profile.path)
    partial = bool(ev.missing_keys)
    verifier_errors = bool(ev.failure_kinds or _groups(ev, "verifier_500", "verifier_422", "nested_verifier"))
    if not ev.profile.exists:
        title = f"{rollouts} rollouts but no reward profile"
        text = "file missing"
        cause = (
            "`gym eval run` does not profile: `gym eval profile` was not run on this folder, or it failed (in strict "
            "mode it fails while any materialized key lacks a rollout)."
        )
    elif ev.profile.rows == 0:
        title = f"The reward profile is empty while {rollouts} rollouts exist"
        text = "0 rows"
        cause = (
            "Rollouts with rows but an empty profile point at verifier errors and partial-output cache: a profile run "
            "cut short, or one that read another (empty or partial) rollouts file."
        )
    elif ev.profile_rollouts != rollouts and not ev.rollouts.malformed_count:
        title = f"Stale reward profile: it counts {ev.profile_rollouts} rollouts, {ev.rel(ev.rollouts.path)} holds {rollouts}"
        text = f"{ev.profile.rows} rows, num_rollouts summing to {ev.profile_rollouts}"
        cause = (
            "The profile describes another set of rollouts: a fresh run to the same output path leaves older profile "
            "files in place, and a resumed collection adds rollouts after the profile was written."
        )
    else:
        return []
    if verifier_errors:
        cause += " This run also has verifier errors (see their finding): rows they hit carry no usable reward."
    return [
        Finding(
            category=CACHE_RESUME,
            title=title,
            evidence=[
                EvidenceLine(file=profile_file, text=text),
                EvidenceLine(file=ev.rel(ev.rollouts.path), text=f"{rollouts} rollouts"),
            ],
            cause=cause,
            fix=(
                f"Profile this folder again: {_profile_command(ev, partial=partial)}"
                + (" (some materialized keys have no rollout; resume the collection first for a full profile)" if partial else "")
                + ". In the pipeline: `gym-pipeline profile ...`."
            ),
        )
    ]


# ---------------------------------------------------------------------------------------------
# Step 7: the first real verifier exception.


def rule_nested_verifier_errors(ev: Evidence) -> list[Finding]:
    groups = _groups(ev, "nested_verifier")
    if not groups:
        return []
    return [
        _nested_finding(
            ev,
            groups,
            VERIFIER_RUNTIME,
            "Verifier (resources/environment server)",
            "A Gym server below the agent raised: the resources server's verify, or the environment server around it.",
            "Read that server's first traceback in the `gym env start` log (its lines are prefixed with its name); "
            "if the body shows a field error, compare the row with the verifier's request model.",
        )
    ]


def rule_verifier_failures(ev: Evidence) -> list[Finding]:
    groups = _groups(ev, "verifier_500")
    if not groups:
        return []
    lead = groups[0]
    return [
        Finding(
            category=VERIFIER_RUNTIME,
            title=f"The verifier failed: {_attempts(sum(g.count for g in groups))} of {lead.failure_class} "
            f"(HTTP {lead.http_status or '?'})",
            evidence=[g.first for g in groups[:3]],
            cause=(
                f"{_status_words(lead)}: {_said(lead)}. The model answered, then the environment "
                f"or resources server raised while verifying. Affected: {_affected(ev, groups)}."
            ),
            fix=(
                "Inspect the request body schema before infra: compare the failing row with the resources server's "
                "request model. Read the server's first traceback in the `gym env start` log (not shutdown noise), "
                f"or {_debug_rerun(ev, lead)}. Then resume: {_resume_commands(ev)}."
            ),
        )
    ]


def rule_failure_kinds(ev: Evidence) -> list[Finding]:
    if not ev.failure_kinds:
        return []
    kinds = sorted(ev.failure_kinds.values(), key=lambda k: -k.count)
    total = sum(k.count for k in kinds)
    parts = []
    for stats in kinds:
        treatment, meaning = FAILURE_KIND_TREATMENT.get(stats.kind, ("", ""))
        observed = f"{stats.masked} of {stats.count} masked in this file"
        described = f"{meaning}; {treatment}" if treatment else "not in Gym's table"
        parts.append(f"{stats.kind} x{stats.count} ({described}; {observed})")
    return [
        Finding(
            category=VERIFIER_RUNTIME,
            title=f"{total} of {ev.rollouts.valid_rows} rollouts carry a failure_kind: "
            + ", ".join(f"{k.kind} x{k.count}" for k in kinds),
            evidence=[k.first for k in kinds[:4] if k.first is not None],
            cause=(
                "The verifier gave these rows no normal reward. "
                + "; ".join(parts)
                + ". Scored kinds count as 0 in the mean, masked ones leave the quality statistics but count for "
                "completion, retried ones are collected again."
            ),
            fix=(
                "Read each row's reason: `jq -c 'select(.failure_kind != null) | {_ng_task_index, _ng_rollout_index, "
                f"failure_kind, failure_reason}}' {_path(ev, ev.rollouts)} | head`. For task-folder runs open the "
                "task's test-stdout.txt (the run summary names its verifier log folder) and check the verifier "
                "without a model: `gym dataset validate <target>`. For timeouts and deadlines raise the budgets in "
                "dataset.toml (`timeout_multiplier` in [gym.defaults])."
            ),
        )
    ]


def rule_timeouts(ev: Evidence) -> list[Finding]:
    groups = _groups(ev, "timeout")
    if not groups:
        return []
    lead = groups[0]
    return [
        Finding(
            category=THROUGHPUT_RESOURCES,
            title=f"{sum(g.count for g in groups)} attempts timed out ({lead.failure_class})",
            evidence=[g.first for g in groups[:3]],
            cause=(
                f"{_status_words(lead)}: {_said(lead)}. More requests in flight than the model, "
                f"judge or tools serve in time, or very long generations. Affected: {_affected(ev, groups)}."
            ),
            fix=(
                "Lower `--concurrency` of `gym eval run` and compare model, verifier and tool latency (the eval log's "
                f"per-task latency line); then resume: {_resume_commands(ev)}."
            ),
        )
    ]


def rule_other_failures(ev: Evidence) -> list[Finding]:
    groups = _groups(ev, "other")
    if not groups:
        return []
    classes = sorted({g.failure_class for g in groups})
    lead = groups[0]
    return [
        Finding(
            category=VERIFIER_RUNTIME,
            title=f"{_attempts(sum(g.count for g in groups))} of class {', '.join(classes)}",
            evidence=[g.first for g in groups[:3]],
            cause=f"{_status_words(lead)}: {_said(lead)}. Affected: {_affected(ev, groups)}.",
            fix=(
                "Read `_ng_failure_message` and `_ng_failure_response_body` of the first row; if the layer is unclear, "
                f"{_debug_rerun(ev, lead)}. Then resume: {_resume_commands(ev)}."
            ),
        )
    ]


# ---------------------------------------------------------------------------------------------
# Step 8: failing row schema vs the request model.


def rule_request_schema(ev: Evidence) -> list[Finding]:
    groups = _groups(ev, "verifier_422", "nested_schema")
    if not groups:
        return []
    lead = groups[0]
    detail = lead.nested.headline if lead.nested else (lead.body_detail or excerpt(lead.message or "", 160))
    key = lead.keys[0] if lead.keys else None
    line = ev.materialized_lines.get(key) if key else None
    row = f"{ev.rel(ev.materialized.path)}:{line}" if line else "the failing row"
    return [
        Finding(
            category=DATA_SCHEMA,
            title=f"The request body does not match the server's request model (HTTP 422): {detail}",
            evidence=[g.first for g in groups[:3]],
            cause=(
                "422 is FastAPI's request validation error: a field the resources server's request model needs is "
                "missing or has the wrong type in the row, or stale materialized inputs still carry an old schema. "
                f"Affected: {_affected(ev, groups)}."
            ),
            fix=(
                f"Compare {row} with the resources server's verify request model (the body names the field: "
                f"{detail}). Fix the data, then re-materialize on a clean output path (--resume keeps the stale rows)."
            ),
        )
    ]


# ---------------------------------------------------------------------------------------------
# Whatever error the logs show and no rule explained.

_FALLBACK_CATEGORIES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (INFRA, re.compile(r"address already in use|No space left|Permission denied|slurm|ray\.exceptions|RaySystemError"
                       r"|Read-only file system|Too many open files|Errno 24|Errno 28|docker|container", re.I)),
    (MODEL_SERVING, re.compile(r"Connection refused|ClientConnectorError|Cannot connect to host|vllm|/v1/|openai"
                               r"|APIConnectionError|RateLimitError|CUDA out of memory|OutOfMemoryError", re.I)),
    (CONFIG, re.compile(r"hydra|omegaconf|ConfigAttributeError|ConfigKeyError|MissingMandatoryValue|Interpolation"
                        r"|Could not override|not in struct|unrecognized arguments|No such option|FileNotFoundError"
                        r"|No such file or directory|agent_ref|ModuleNotFoundError|ImportError", re.I)),
    (DATA_SCHEMA, re.compile(r"ValidationError|JSONDecodeError|Unprocessable|\b422\b|KeyError|validation error", re.I)),
    (THROUGHPUT_RESOURCES, re.compile(r"TimeoutError|timed out|Timeout", re.I)),
)

_FALLBACK_FIX: dict[str, str] = {
    INFRA: "Check the job and machine first: `sacct -j <jobid>` / `ray status`, `df -h`, `ss -ltnp`; fix that before "
    "touching Gym config.",
    MODEL_SERVING: f"Check the endpoint: `curl -s <model-url>/v1/models` and its log; restart the servers with "
    f"`{DEBUG_FLAG}` to see inner request and response bodies.",
    CONFIG: "Reduce to a minimal `gym env start` / `gym eval run` command, add the overrides back one at a time, and "
    "compare with the command's `--help`.",
    DATA_SCHEMA: "Validate the failing row against the resources server's request model; fix the data and re-run on "
    "a clean output path.",
    THROUGHPUT_RESOURCES: "Lower `--concurrency` and compare model, verifier and tool latency.",
    VERIFIER_RUNTIME: "Read the whole traceback; run the verifier on that row alone (for task folders: `gym dataset "
    f"validate <target>`), with `{DEBUG_FLAG}` when the error comes through nested 500s.",
}


def _explained(file: str, incident_start: int, incident_end: int, findings: list[Finding]) -> bool:
    for finding in findings:
        for line in finding.evidence:
            if line.file == file and line.line is not None and incident_start - 2 <= line.line <= incident_end + 2:
                return True
    return False


def unexplained_log_errors(ev: Evidence, findings: list[Finding]) -> list[Finding]:
    """The first real error of each log that no finding cites: never call a run healthy over it."""
    result = []
    seen_files: set[str] = set()
    for incident in ev.log_incidents:
        if incident.after_shutdown or incident.file in seen_files:
            continue
        if _explained(incident.file, incident.start, incident.end, findings):
            continue
        seen_files.add(incident.file)
        others = sum(
            1
            for i in ev.log_incidents
            if i.file == incident.file and i is not incident and not i.after_shutdown
        )
        category = next((c for c, pattern in _FALLBACK_CATEGORIES if pattern.search(incident.text)), VERIFIER_RUNTIME)
        span = f"{incident.start}-{incident.end}" if incident.end > incident.start else str(incident.start)
        result.append(
            Finding(
                category=category,
                title=f"First unexplained error in {incident.file}: {incident.text}",
                evidence=[incident.evidence()],
                cause=(
                    f"The first real {'traceback' if incident.kind == 'traceback' else 'error line'} of this log "
                    f"({incident.file}:{span}; shutdown noise skipped) matches no known pattern; its text points at "
                    f"{category} ({CATEGORY_MEANINGS[category]})."
                    + (f" {others} more error(s) follow in the same log." if others else "")
                ),
                fix=f"Read {incident.file} around line {incident.start}. {_FALLBACK_FIX[category]}",
            )
        )
    return result


# ---------------------------------------------------------------------------------------------
# The rules in the guide's debug order.

RULES: tuple[Rule, ...] = (
    Rule(1, "nothing_to_diagnose", rule_nothing_to_diagnose),
    Rule(1, "python_version", rule_python_version),
    Rule(1, "infra_log_signatures", rule_infra_log_signatures),
    Rule(2, "nested_model_errors", rule_nested_model_errors),
    Rule(2, "model_endpoint_failures", rule_model_endpoint_failures),
    Rule(2, "run_failures_without_sidecar", rule_run_failures_without_sidecar),
    Rule(3, "servers_not_ready", rule_servers_not_ready),
    # Step 4 (tool routing) has no rule yet: it needs the env's tool config, a later evidence source.
    Rule(5, "malformed_jsonl", rule_malformed_jsonl),
    Rule(5, "rollouts_without_inputs", rule_rollouts_without_inputs),
    Rule(6, "missing_rollouts", rule_missing_rollouts),
    Rule(6, "partial_profile_log", rule_partial_profile_log),
    Rule(6, "profile_counts", rule_profile_counts),
    Rule(7, "nested_verifier_errors", rule_nested_verifier_errors),
    Rule(7, "verifier_failures", rule_verifier_failures),
    Rule(7, "failure_kinds", rule_failure_kinds),
    Rule(7, "timeouts", rule_timeouts),
    Rule(7, "other_failures", rule_other_failures),
    Rule(8, "request_schema", rule_request_schema),
)
assert [r.step for r in RULES] == sorted(r.step for r in RULES), "RULES must follow the debug order"


def run_rules(ev: Evidence, rules: Iterable[Rule] = RULES) -> list[Finding]:
    findings: list[Finding] = []
    for rule in rules:
        findings.extend(rule.check(ev))
    findings.extend(unexplained_log_errors(ev, findings))
    return findings
