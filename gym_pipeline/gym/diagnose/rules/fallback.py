"""Whatever real error the logs show and no finding explains: a run is never called healthy over it."""

from __future__ import annotations

import re

from gym_pipeline.gym.diagnose.evidence import Evidence
from gym_pipeline.gym.diagnose.findings import Finding
from gym_pipeline.gym.diagnose.launcher import served_and_stopped
from gym_pipeline.gym.diagnose.vocabulary import (
    CACHE_RESUME,
    CATEGORY_MEANINGS,
    CONFIG,
    DATA_SCHEMA,
    INFRA,
    MODEL_SERVING,
    REQUEST_DEBUG_FLAG,
    THROUGHPUT_RESOURCES,
    VERIFIER_RUNTIME,
)

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
    f"`{REQUEST_DEBUG_FLAG}` to see inner request and response bodies.",
    CONFIG: "Reduce to a minimal `gym env start` / `gym eval run` command, add the overrides back one at a time, and "
    "compare with the command's `--help`.",
    DATA_SCHEMA: "Validate the failing row against the resources server's request model; fix the data and re-run on "
    "a clean output path.",
    THROUGHPUT_RESOURCES: "Lower `--concurrency` and compare model, verifier and tool latency.",
    VERIFIER_RUNTIME: "Read the whole traceback; run the verifier on that row alone (for task folders: `gym dataset "
    f"validate <target>`), with `{REQUEST_DEBUG_FLAG}` when the error comes through nested 500s.",
}


# The debug step that checks each category: where an unexplained error of it belongs in the report.
STEP_OF_CATEGORY: dict[str, int] = {
    INFRA: 1,
    CONFIG: 1,
    MODEL_SERVING: 2,
    CACHE_RESUME: 5,
    VERIFIER_RUNTIME: 7,
    THROUGHPUT_RESOURCES: 7,
    DATA_SCHEMA: 8,
}


def _explained(incident, findings: list[Finding]) -> bool:
    explained = set().union(*(f.explains for f in findings)) if findings else set()
    if incident.signatures & explained:
        return True
    return any(
        line.file == incident.file and line.line is not None and incident.start - 2 <= line.line <= incident.end + 2
        for finding in findings
        for line in finding.evidence
    )


def unexplained_log_errors(ev: Evidence, findings: list[Finding]) -> list[Finding]:
    """The first real error of each log that no finding explains: never call a run healthy over it."""
    result = []
    seen_files: set[str] = set()
    _, served_logs = served_and_stopped(ev.launchers)
    for incident in ev.logs.incidents:
        stopped_on_purpose = incident.file in served_logs and "slurm_cancelled" in incident.signatures
        if incident.after_shutdown or stopped_on_purpose or incident.file in seen_files or _explained(incident, findings):
            continue
        seen_files.add(incident.file)
        noise = sum(1 for i in ev.logs.incidents if i.file == incident.file and i.after_shutdown)
        others = ev.logs.incident_counts[incident.file] - noise - 1
        category = next((c for c, pattern in _FALLBACK_CATEGORIES if pattern.search(incident.text)), VERIFIER_RUNTIME)
        span = f"{incident.start}-{incident.end}" if incident.end > incident.start else str(incident.start)
        result.append(Finding(
            category=category,
            title=f"First unexplained error in {incident.file}: {incident.text}",
            evidence=[incident.evidence()],
            cause=(
                f"The first real {'traceback' if incident.kind == 'traceback' else 'error line'} of this log "
                f"({incident.file}:{span}; shutdown noise skipped) matches no known pattern; its text points at "
                f"{category} ({CATEGORY_MEANINGS[category]})."
                + (f" {others} more error(s) follow in the same log." if others > 0 else "")
            ),
            fix=f"Read {incident.file} around line {incident.start}. {_FALLBACK_FIX[category]}",
        ))
    return result


