"""A script's model URL that is not the one the user meant: overridden by the environment, or built from a host name.

- `MODEL_URL=${MODEL_URL:-http://host:8001/v1}` keeps whatever the shell already exported: a variable set for
  another day's debugging (in `~/.bashrc`, a sourced env file) silently points the collection at another server,
  often one still serving an older checkpoint. Nothing fails; the rollouts are that server's.
- `MODEL_URL=http://$(hostname):8001/v1` names the machine by its host name, which its own name service may not know
  (a node renamed without its /etc/hosts entry): no request ever leaves.
"""

from __future__ import annotations

import re
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding, model_url_of
from gym_pipeline.diagnose.rules.checkpoint_choice import started_model_servers
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import CONFIG, INFRA

_DEFAULTED_URL = re.compile(r"\$\{(?P<name>\w+):?-(?P<default>https?://[^}\s]+)\}")
def _same_address(a: str, b: str) -> bool:
    return a.rstrip("/").removesuffix("/v1") == b.rstrip("/").removesuffix("/v1")


def _server_log_of(servers: list[tuple[str, int, EvidenceLine]], url: str) -> EvidenceLine | None:
    """The line of a model server's log (of `started_model_servers`) that says it serves at `url`, with its
    checkpoint."""
    return next((line.model_copy(update={"text": f"{line.text} (checkpoint step {step})"})
                 for address, step, line in servers if _same_address(address, url)), None)


_SOURCES = re.compile(r"^\s*(?:source|\.)\s+[\"']?([\w./-]+)", re.M)


def rule_model_url_from_the_environment(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None or not ev.run_dir.is_dir():
        return []
    used = model_url_of(ev)
    if used == "<model-url>":
        return []
    for file, number, line, defaulted in lines_matching(ev.user_files, _DEFAULTED_URL):
        if _same_address(defaulted["default"], used):
            continue
        variable = defaulted["name"]
        setter = re.compile(rf"^\s*(?:export\s+)?{variable}=", re.M)
        setters = [other.name for other in ev.user_files if other is not file and setter.search(other.text)]
        sourced = {Path(m[1]).name for m in _SOURCES.finditer("\n".join(file.text.splitlines()[:number - 1]))}
        if sourced & {Path(name).name for name in setters}:
            continue  # the script sources the run's own settings file that sets it: the value meant
        servers = started_model_servers(ev)
        other_server = _server_log_of(servers, used)
        meant_server = _server_log_of(servers, defaulted["default"])
        return [Finding(
            category=CONFIG,
            title=f"The run used {variable}={used} from the environment, not {file.name}'s default "
                  f"{defaulted['default']}",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                      *(server for server in (other_server, meant_server) if server is not None)],
            cause=f"{file.name} takes the model URL from {variable} when the shell has it set, and it was: the "
                  f"collection went to {used}"
                  + (f" ({other_server.file}: {other_server.text})" if other_server else "")
                  + (f" instead of {defaulted['default']} ({meant_server.text})" if meant_server else "")
                  + ". A variable exported for another day's work (" + (", ".join(setters) or "~/.bashrc, a "
                  "sourced env file") + ") points the run at another server; nothing fails, and every rollout "
                  "is that server's answer.",
            fix=f"`unset {variable}` (and take its export out of {', '.join(setters) or 'where it is set'}), or "
                f"pass the URL meant explicitly; then collect again on a clean output path and profile.",
        )]
    return []


_URL_FROM_HOST_NAME = re.compile(r"^\s*(?:export\s+)?(?P<name>\w+)=[\"']?https?://(?:\$\(hostname[^)]*\)|`hostname`"
                                 r"|\$\{?HOSTNAME\}?)")


def rule_url_built_from_the_host_name(ev: Evidence) -> list[Finding]:
    unresolved = next(iter(ev.hits("host_unresolved")), None)
    if unresolved is None:
        return []
    built = next(iter(lines_matching(ev.user_files, _URL_FROM_HOST_NAME)), None)
    if built is None:
        return []
    file, number, line, match = built
    host = unresolved.group("host")
    return [Finding(
        category=INFRA,
        title=f"{file.name} builds {match['name']} from the machine's host name, and {host} does not resolve on this "
              "machine",
        evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()), unresolved.evidence()],
        cause=f"{file.name} line {number} puts `$(hostname)` ({host}) in {match['name']}, and this machine's name "
              "service has no address for its own name (a node renamed, or an image without its /etc/hosts entry): "
              "every request failed before it left, while the server may be up.",
        fix=f"In {file.name}, use 127.0.0.1 for a server on this machine ({match['name']}=http://127.0.0.1:<port>/v1 "
            f"instead of `$(hostname)`), or add `127.0.1.1 {host}` to /etc/hosts; check with `getent hosts {host}`, "
            "then run the stage again (`--resume` collects only what is missing).",
        explains=frozenset({"host_unresolved"}),
    )]
