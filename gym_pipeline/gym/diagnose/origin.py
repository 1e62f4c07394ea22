"""Where a log error comes from and what it is: the class of an error no rule knows.

An error is placed by what it is when that is unambiguous whatever process met it (an errno class:
a full disk, a stale handle, a taken port, a failed DNS lookup), then by the process that raised it
(the server whose `(name)` prefixes the line, the log it is in, the frames of its traceback, the
package its exception comes from), and only then, marked as a guess, by words in its text.

    placement = place(incident, addresses)   # Placement(category, basis, guess)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from gym_pipeline.gym.diagnose.logs import LogIncident
from gym_pipeline.gym.diagnose.vocabulary import (
    CONFIG,
    DATA_SCHEMA,
    INFRA,
    MODEL_SERVING,
    THROUGHPUT_RESOURCES,
    VERIFIER_RUNTIME,
)


@dataclass(frozen=True)
class Placement:
    category: str
    basis: str  # why it is placed there, for the finding's cause
    guess: bool = False  # only words of the error placed it


# What it is, whoever met it: errno classes and network failures.
_WHAT: tuple[tuple[re.Pattern[str], str, str], ...] = tuple(
    (re.compile(pattern, re.I), category, basis) for pattern, category, basis in (
        (r"Errno 28\b|No space left on device|ENOSPC|Disk quota exceeded|EDQUOT", INFRA,
         "ENOSPC: the filesystem it writes to is full"),
        (r"Errno 116\b|Stale file handle|ESTALE", INFRA, "ESTALE: a network filesystem's file handle went stale"),
        (r"Errno 30\b|Read-only file system|EROFS", INFRA, "EROFS: the filesystem is mounted read-only"),
        (r"Errno 24\b|Too many open files|EMFILE", INFRA, "EMFILE: the process ran out of file descriptors"),
        (r"Errno 98\b|Errno 48\b|address already in use|EADDRINUSE", INFRA,
         "EADDRINUSE: another process holds the port"),
        (r"Errno 13\b|Permission denied|EACCES", INFRA, "EACCES: a file or folder it needs is not accessible"),
        (r"Temporary failure in name resolution|Name or service not known|nodename nor servname|gaierror"
         r"|Could not resolve host|dns error|failed to lookup address", INFRA,
         "DNS resolution failed: no network, or a wrong host name"),
        (r"Network is unreachable|Errno 101\b|No route to host|Errno 113\b", INFRA, "the network is unreachable"),
        # our commands name the data file, line and field of a bad row: `data.jsonl:3: not valid JSON`
        (r"\.jsonl:\d+\b", DATA_SCHEMA, "a row of a JSONL data file is malformed or lacks a field (file:line named)"),
    )
)
# A connection that did not open, and the address it was for.
_REFUSED = re.compile(r"Connection refused|Errno 111\b|Connect call failed|Cannot connect to host|ConnectError"
                      r"|ECONNREFUSED", re.I)
_ADDRESS = re.compile(r"Connect call failed \('(?P<h1>[^']+)', (?P<p1>\d+)\)|(?:https?://)?(?P<h2>[\w.-]+|\[[\w:]+\])"
                      r":(?P<p2>\d{2,5})\b")
# The package an exception's class comes from says which layer raised it.
_EXCEPTION_PACKAGES: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (re.compile(r"\b(?:omegaconf|hydra)\.errors\.|\bhydra\.|ConfigAttributeError|ConfigKeyError|MissingMandatoryValue"
                r"|InterpolationResolutionError|Could not override|unrecognized arguments|error: argument"), CONFIG,
     "the config loader (Hydra/OmegaConf) or the command's arguments"),
    (re.compile(r"\bray\.exceptions\.|RaySystemError|RayActorError|GCS"), INFRA, "Ray"),
    (re.compile(r"\bdocker\.errors\.|Error response from daemon|docker: "), INFRA, "the Docker engine"),
    (re.compile(r"\bslurmstepd\b|\bsrun: error|\bsbatch: error"), INFRA, "Slurm"),
    (re.compile(r"\bopenai\.(?:\w+Error)|\bvllm\b", re.I), MODEL_SERVING, "the model server or its client"),
)
# Frames of a traceback: the innermost one in a known layer places the error.
_FRAME = re.compile(r'File "(?P<path>[^"]+)", line (?P<line>\d+)(?:, in (?P<func>\S+))?')
_FRAME_LAYERS: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (re.compile(r"resources_servers/|/verifiers?/|/verif\w*\.py|gym_pipeline/environments/|judge"), VERIFIER_RUNTIME,
     "the verifier (resources server)"),
    (re.compile(r"responses_api_models/|/vllm/|gym_pipeline/models/"), MODEL_SERVING, "the model server"),
    (re.compile(r"/hydra/|/omegaconf/|nemo_gym/config|gym_pipeline/config\.py"), CONFIG, "loading the config"),
    (re.compile(r"/ray/"), INFRA, "Ray"),
    (re.compile(r"/pip/_internal/|/uv/|/docker/|/slurm"), INFRA, "setting up the environment"),
)
# The log a line is in: a model server's own log, a verifier's test output.
_LOG_LAYERS: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (re.compile(r"model_server|vllm|policy", re.I), MODEL_SERVING, "the model server's log"),
    (re.compile(r"test-stdout|verifier", re.I), VERIFIER_RUNTIME, "the verifier's output"),
)
_MISSING_CONFIG_FILE = re.compile(r"(?:Errno 2\]|FileNotFoundError|No such file or directory|not found|does not exist)"
                                  r".*\.(?:ya?ml|json|toml)\b|Cannot find primary config|config_paths", re.I)
_MISSING_MODULE = re.compile(r"ModuleNotFoundError|ImportError|No module named")
_MEMORY = re.compile(r"\bMemoryError\b|Cannot allocate memory|Errno 12\b|ENOMEM", re.I)
# The last resort: words of the error, reported as a guess.
_WORDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (MODEL_SERVING, re.compile(r"/v1/|chat/completions|model server|APIConnectionError|RateLimitError", re.I)),
    (CONFIG, re.compile(r"No such file or directory|FileNotFoundError|agent_ref|not defined|unknown (?:agent|server)"
                        r"|config", re.I)),
    (DATA_SCHEMA, re.compile(r"ValidationError|JSONDecodeError|Unprocessable|\b422\b|validation error", re.I)),
    (THROUGHPUT_RESOURCES, re.compile(r"TimeoutError|timed out|Timeout", re.I)),
)


@dataclass(frozen=True)
class Listener:
    """Who listens at an address the run's files name: the model server, or a Gym server by name."""

    category: str  # MODEL_SERVING for the model server; INFRA for a Gym server (it was not up)
    who: str
    source: str


def server_role(name: str) -> str:
    """'model', 'verifier' or 'agent' for a Gym server name such as `VLLMModel___policy_model`."""
    if re.search(r"resources?_?server|environment_?server|verif|judge_?resources", name, re.I):
        return "verifier"
    if re.search(r"model|vllm|openai|llm", name, re.I):
        return "model"
    if re.search(r"agent", name, re.I):
        return "agent"
    return "unknown"


def address_of(url: str) -> tuple[str, int] | None:
    parts = urlsplit(url if "://" in url else f"http://{url}")
    return (parts.hostname or "", parts.port) if parts.port else None


def place(incident: LogIncident, listeners: dict[int, Listener]) -> Placement:
    """The category of one log error; `listeners` maps the ports the run's files name to who listens there."""
    text = incident.full_text
    for pattern, category, basis in _WHAT:
        if pattern.search(text):
            return Placement(category, basis)
    if _REFUSED.search(text):
        return _refused(text, listeners)
    if _MEMORY.search(text):
        return Placement(THROUGHPUT_RESOURCES, "the process ran out of memory")
    layer = _layer(incident)
    if layer is not None:
        return layer
    if _MISSING_CONFIG_FILE.search(text):
        return Placement(CONFIG, "a config file (or a path the command was given) does not exist")
    if _MISSING_MODULE.search(text):
        return Placement(INFRA, "a Python package is not installed in the environment that ran it")
    for category, pattern in _WORDS:
        if pattern.search(text):
            return Placement(category, f"a guess from the words of the error ({pattern.search(text).group(0)!r})",
                             guess=True)
    return Placement(VERIFIER_RUNTIME, "a guess: nothing places it, and runtime errors are most often the verifier's",
                     guess=True)


def innermost_frame(incident: LogIncident) -> str | None:
    """`path:line (in func)` of the frame where a traceback was raised."""
    for frame in reversed(incident.frames):
        match = _FRAME.search(frame)
        if match:
            return f"{match['path']}:{match['line']}" + (f" in {match['func']}" if match["func"] else "")
    return None


def _refused(text: str, listeners: dict[int, Listener]) -> Placement:
    match = _ADDRESS.search(text)
    port = int(match["p1"] or match["p2"]) if match else None
    listener = listeners.get(port) if port else None
    if listener is not None:
        return Placement(listener.category, f"connection refused by {listener.who} at port {port} (named in "
                                            f"{listener.source}): it was not running")
    where = f"port {port}" if port else "an address the error does not name"
    if re.search(r"/v1/|completions|model", text, re.I):
        return Placement(MODEL_SERVING, f"connection refused at {where}, on a model request: the model server was "
                                        "not running (a guess: the run's files do not say who listens there)",
                         guess=True)
    return Placement(INFRA, f"connection refused at {where}: nothing listened there (a guess: the run's files do not "
                            "say which server should)", guess=True)


def _layer(incident: LogIncident) -> Placement | None:
    """The layer of the process that raised it: its package, its server prefix, its frames, its log."""
    for pattern, category, basis in _EXCEPTION_PACKAGES:
        if pattern.search(incident.text):
            return Placement(category, f"raised by {basis}")
    if incident.server:
        role = server_role(incident.server)
        if role == "verifier":
            return Placement(VERIFIER_RUNTIME, f"raised in the resources server `{incident.server}` (its log prefix)")
        if role == "model":
            return Placement(MODEL_SERVING, f"raised in the model server `{incident.server}` (its log prefix)")
    for frame in reversed(incident.frames):
        for pattern, category, basis in _FRAME_LAYERS:
            if pattern.search(frame):
                return Placement(category, f"raised in {basis}: {frame}")
    for pattern, category, basis in _LOG_LAYERS:
        if pattern.search(incident.file):
            return Placement(category, f"written to {basis} ({incident.file})")
    return None
