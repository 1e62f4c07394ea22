"""A user's watchdog that restarts a healthy model server because its health check asks a route the server lacks.

Scripts keep a model server up with a loop: `curl -sf $URL/health || { kill $PID; start; }`. When the URL it
checks is not one a model server answers (`$MODEL_URL/health` with `MODEL_URL=http://host:port/v1` asks
`/v1/health`; vLLM, SGLang and the simulated policy answer `/health` at the root and `/v1/models` under `/v1`),
every check fails with 404: the watchdog kills a server that was serving, again and again, and the collection
meets refused and dropped connections. The server's log shows it started several times.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.checkpoint_choice import READY_LINE
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, SHELL_VARIABLE, UserFile, assignment_of, lines_matching
from gym_pipeline.diagnose.vocabulary import MODEL_SERVING

_HEALTH_CHECK = re.compile(r"\b(?:curl|wget)\b[^\n#]*?(?P<url>(?:https?://|\$\{?[A-Za-z_])[^\s\"'|;&)]*)")
_RESTART = re.compile(r"\bkill\b|\brestart|\bpkill\b|\bdocker\s+(?:restart|rm\s+-f)\b")
# The GET routes model servers answer (vLLM, SGLang, the simulated policy): a health check of any other path fails.
_SERVER_ROUTES = frozenset({"", "/", "/health", "/health_generate", "/ping", "/version", "/metrics", "/v1/models",
                            "/get_model_info"})
_LINES_TO_RESTART = 8  # a health check's restart follows it within its `if` or `||` block


def _expanded(file: UserFile, text: str) -> str:
    """`text` with the shell variables the script assigns replaced by their values, two levels down; positional
    and unassigned variables become `0` (a port, a path part: only the URL's path is read)."""
    for _ in range(3):
        def value(match: re.Match[str]) -> str:
            found = assignment_of([file], match["name"])
            return found[2].split("=", 1)[1].strip("\"'") if found else "0"
        text = SHELL_VARIABLE.sub(value, text)
    return text


def _restarts(ev: Evidence) -> tuple[int, EvidenceLine | None]:
    """How many times a model server's log says it became ready, and the last such line."""
    most, last = 0, None
    for log, head in ev.log_heads:
        lines = [(n, line) for n, line in enumerate(head.splitlines(), 1) if READY_LINE.search(line)]
        if len(lines) > most:
            most, (number, text) = len(lines), lines[-1]
            last = EvidenceLine(file=ev.rel(log), line=number, text=text.strip())
    return most, last


def rule_watchdog_checks_a_route_the_server_lacks(ev: Evidence) -> list[Finding]:
    starts, last_start = _restarts(ev)
    if starts < 2:
        return []
    for file, number, line, match in lines_matching(ev.user_files, _HEALTH_CHECK, SCRIPT_SUFFIXES):
        following = file.text.splitlines()[number - 1:number - 1 + _LINES_TO_RESTART]
        if not any(_RESTART.search(later) for later in following):
            continue
        checked = _expanded(file, match["url"])
        path = urlsplit(checked if "://" in checked else f"http://{checked}").path.rstrip("/")
        if path in _SERVER_ROUTES:
            continue
        root = checked.split(path, 1)[0] if path else checked
        return [Finding(
            category=MODEL_SERVING,
            title=f"{file.name} restarts the model server whenever {path} fails, a route the server does not "
                  f"answer: it was started {starts} times",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                      *([last_start] if last_start else [])],
            cause=f"{file.name} line {number} checks `{match['url']}` ({checked}) and kills and restarts the "
                  f"server when the check fails. Model servers answer /health at their root and /v1/models under "
                  f"/v1, so {path} always gets 404: the watchdog restarted a server that was serving "
                  f"({starts} starts in its log), and the collection's requests met refused and dropped connections.",
            fix=f"In {file.name}, check the server's root health route, `curl -sf {root}/health` (or "
                f"`{root}/v1/models`), not {path}; start the server once, then collect the missing rollouts again "
                f"(`--resume`) and profile.",
        )]
    return []
