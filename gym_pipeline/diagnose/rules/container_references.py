"""Step 1: a container started to share another container's network, volumes or namespaces, which is not there.

A team's container template joins a sidecar (`--network container:egress-proxy`, `--volumes-from eval-cache`,
`--ipc container:...`, `--pid container:...`) that the nodes it was written for always run. On a node without that
container, Docker refuses to start the new one: `Error response from daemon: No such container: egress-proxy`, and
the stage never runs. The engine is fine; the container the template names is missing.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.shell_pitfalls import shell_files
from gym_pipeline.diagnose.user_scripts import container_run_option, joined_commands
from gym_pipeline.diagnose.vocabulary import INFRA

_NO_SUCH_CONTAINER = re.compile(r"Error response from daemon: No such container: (?P<name>[\w.-]+)")
# per option: what the new container takes from the one it names
_BORROWS = {"--network": ("its network namespace", "container:"), "--net": ("its network namespace", "container:"),
            "--volumes-from": ("its volumes", ""), "--ipc": ("its IPC namespace", "container:"),
            "--pid": ("its process namespace", "container:")}


def rule_container_borrowing_from_one_not_running(ev: Evidence) -> list[Finding]:
    refused = ev.first_in_log_heads(_NO_SUCH_CONTAINER)
    if refused is None:
        return []
    said, match = refused
    name = match["name"]
    for file in shell_files(ev):
        for number, command in joined_commands(file):
            if command.lstrip().startswith("#"):
                continue
            for option, (what, prefix) in _BORROWS.items():
                if (given := container_run_option(option, rf"{prefix}{re.escape(name)}\b").search(command)) is None:
                    continue
                flag = f"{option} {given['value']}"
                return [Finding(
                    category=INFRA,
                    title=f"{file.name}:{number} starts its container with `{flag}`, and no container {name} runs "
                          "on this node: Docker refused to start it",
                    evidence=[said, EvidenceLine(file=file.name, line=number, text=command.strip()[:300])],
                    cause=f"`{flag}` makes the new container take {what} from the container {name} (a sidecar the "
                          "nodes the template was written for run), so Docker can only start it beside a running "
                          f"{name}. None runs here, so the engine answered `No such container: {name}` and the "
                          "stage never started. The Docker engine itself is fine.",
                    fix=f"Start {name} on this node first (as the template's nodes do: `docker ps -a --filter "
                        f"name={name}` shows whether it exists), or drop `{flag}` from {file.name} (the template) "
                        "where the sidecar is not needed"
                        + (" (`--network host` reaches a model server on the node's loopback)" if "net" in option
                           else "") + "; then run the stage again.",
                )]
    return []
