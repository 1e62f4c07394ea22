"""A script's default model URL overridden by a variable left in the user's environment.

`MODEL_URL=${MODEL_URL:-http://host:8001/v1}` keeps whatever the shell already exported: a variable set for
another day's debugging (in `~/.bashrc`, a sourced env file) silently points the collection at another server,
often one still serving an older checkpoint. Nothing fails; the rollouts are that server's.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding, model_url_of
from gym_pipeline.diagnose.rules.checkpoint_choice import started_model_servers
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import CONFIG

_DEFAULTED_URL = re.compile(r"\$\{(?P<name>\w+):?-(?P<default>https?://[^}\s]+)\}")
def _same_address(a: str, b: str) -> bool:
    return a.rstrip("/").removesuffix("/v1") == b.rstrip("/").removesuffix("/v1")


def _server_log_of(servers: list[tuple[str, int, EvidenceLine]], url: str) -> EvidenceLine | None:
    """The line of a model server's log (of `started_model_servers`) that says it serves at `url`, with its
    checkpoint."""
    return next((line.model_copy(update={"text": f"{line.text} (checkpoint step {step})"})
                 for address, step, line in servers if _same_address(address, url)), None)


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
