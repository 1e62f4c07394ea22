"""Step 1: a collection run in a container, asking for the model at 127.0.0.1, without the host's network.

In a container of its own network (Docker's default bridge, or none where the engine has no bridge), 127.0.0.1 and
localhost are the container's own loopback, not the node's: a model server listening on the node is refused there,
however well it answers a `curl` on the node. Named from the `docker run` line without `--network host` whose command
asks for a loopback model URL, and a refused connection to it.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.shell_pitfalls import shell_files
from gym_pipeline.diagnose.user_scripts import CONTAINER_RUN, joined_commands
from gym_pipeline.diagnose.vocabulary import INFRA

_HOST_NETWORK = re.compile(r"--net(?:work)?[= ]host\b")
_LOOPBACK_URL = re.compile(r"https?://(?P<host>127\.0\.0\.1|localhost|\[::1\]):(?P<port>\d+)")


def rule_client_container_on_its_own_loopback(ev: Evidence) -> list[Finding]:
    for file in shell_files(ev):
        lines = file.text.splitlines()
        for number, command in joined_commands(file):
            if command.lstrip().startswith("#") or not CONTAINER_RUN.search(command) or _HOST_NETWORK.search(command):
                continue
            after_image = CONTAINER_RUN.split(command, 1)[1]
            if (url := _LOOPBACK_URL.search(after_image)) is None:
                continue
            refused = ev.first_in_log_heads(re.compile(
                rf"Connect call failed \('(?:127\.0\.0\.1|::1)', {url['port']}\)|Connection refused[^\n]*:{url['port']}\b"))
            if refused is None:
                continue
            network = re.search(r"--net(?:work)?[= ](?P<name>\S+)", command)
            on = f"the network `{network['name']}`" if network else "Docker's default network"
            return [Finding(
                category=INFRA,
                title=f"{file.name}:{number} runs the collection in a container on {on}, asking for the model at "
                      f"{url['host']}:{url['port']}: that is the container's own loopback, where nothing listens",
                evidence=[refused[0], EvidenceLine(file=file.name, line=number, text=lines[number - 1].strip())],
                cause=f"Inside a container with a network of its own, {url['host']} is the container itself, not the "
                      f"node the model server listens on: every connection to port {url['port']} was refused there "
                      f"({refused[0].where}), though the server answers on the node. Nothing was collected.",
                fix=f"Run the container with `--network host` in {file.name} (line {number}), so that 127.0.0.1 is the "
                    "node's (the only way where the engine runs without a bridge network), or give the model URL by "
                    "an address the container reaches (the node's IP, or `host.docker.internal` with `--add-host="
                    "host.docker.internal:host-gateway`); then collect again.",
            )]
    return []
