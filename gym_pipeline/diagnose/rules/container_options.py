"""Step 1: a `docker run` option from a team's container template that this node's Docker cannot honour.

Templates are written for the nodes a team usually runs on: `--runtime nvidia` (GPU nodes), `--platform linux/arm64`
(Grace Hopper nodes), `--device /dev/nvidia0` (GPU nodes), `--log-driver fluentd` (nodes running a log agent),
`--cpu-rt-runtime 950000` (nodes tuned for realtime scheduling),
`--entrypoint /usr/local/bin/team-init.sh` (an image that ships the script), `--env-file /etc/ci/eval.env` (a file
the CI runners keep). On another node the engine refuses to start the container, in its own words (`Unknown runtime
specified nvidia`, `does not match the specified platform`, `failed to initialize logging driver`, `exec: ... no such
file or directory`, `open /etc/ci/eval.env: no such file or directory`), and the stage never runs. The engine
is fine; the option is not for this node.

A template that joins a sidecar the nodes it was written for always run (`--network container:egress-proxy`,
`--volumes-from eval-cache`, `--ipc container:...`, `--pid container:...`) is refused the same way on a node without
it: `No such container: egress-proxy`.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.shell_pitfalls import shell_files
from gym_pipeline.diagnose.user_scripts import container_run_option, joined_commands
from gym_pipeline.diagnose.vocabulary import INFRA, MODEL_SERVING


class _Refusal(NamedTuple):
    said: re.Pattern[str]  # the engine's words
    option: str  # the `docker run` option they are about
    lacks: str  # what this node lacks, with {value} (the option's value) and the refusal's groups
    instead: str  # how to run here instead


_REFUSALS = (
    _Refusal(re.compile(r"Error response from daemon: Unknown runtime specified (?P<runtime>\S+)"), "--runtime",
             "this node's Docker has no `{value}` runtime (`docker info --format '{{{{json .Runtimes}}}}'` lists "
             "the ones it has; GPU nodes add nvidia's)",
             "drop `--runtime {value}` on nodes without it (a CPU node runs the collection without it), or run the "
             "stage on a node whose Docker has the runtime"),
    _Refusal(re.compile(r"does not match the specified platform: wanted (?P<wanted>\S+), actual: (?P<actual>\S+)"),
             "--platform", "the image here is built for {actual}, this node's own platform, not {wanted}",
             "drop `--platform {value}` (Docker then runs the image built for this node), or build the image for "
             "{wanted} as well (`docker buildx build --platform {wanted},{actual}`) where both kinds of node run it"),
    _Refusal(re.compile(r"failed to initialize logging driver: (?P<reason>[^\n]+)"), "--log-driver",
             "the `{value}` logging driver needs its agent, which does not run on this node ({reason})",
             "drop `--log-driver {value}` and its `--log-opt`s on nodes without the agent (the logging driver could "
             "not reach it: {reason}; Docker then keeps the container's log itself: `docker logs`), or start the "
             "{value} agent here first"),
    _Refusal(re.compile(r'error gathering device information while adding custom device "(?P<device>[^"]+)"'),
             "--device", "this node has no {device} (a GPU node's device, passed by the template)",
             "drop `--device {value}` (and the other GPU devices) on nodes without them, or run the stage on a node "
             "that has the device"),
    _Refusal(re.compile(r'failed to write "(?P<budget>\d+)": write \S*/cpu\.rt_runtime_us: invalid argument'),
             "--cpu-rt-runtime", "this node's kernel gives Docker's cgroups no realtime CPU budget to hand out "
             "(cpu.rt_runtime_us refused {budget} µs: realtime scheduling is a tuned node's setting)",
             "drop `--cpu-rt-runtime {value}` (and `--ulimit rtprio=...`, `--cap-add SYS_NICE`) on nodes without a "
             "realtime budget (an eval does not need realtime scheduling; this kernel refused cpu.rt_runtime_us), or run "
             "the stage on the nodes tuned for it"),
    _Refusal(re.compile(r"^(?:docker: )?open (?P<path>/\S+): no such file or directory", re.M), "--env-file",
             "{path} is not on this node (a file the template's nodes keep, such as a CI runner's settings), so the "
             "docker client could not read it",
             "give docker run an env file that is on this node (`--env-file` with a path the run keeps beside it, or "
             "the variables it needs as `-e NAME=value`), or drop `--env-file {value}` where the container needs none "
             "of its variables"),
    _Refusal(re.compile(r'exec: "(?P<program>[^"]+)": stat [^\n]*no such file or directory'), "--entrypoint",
             "the image has no {program}, the entrypoint the template names (a script the team's own images ship)",
             "drop `--entrypoint {value}` for this image (its own entrypoint runs the command), or use the team "
             "image that ships {program}"),
)


def _container_started_with(ev: Evidence, option: str, value: str) -> tuple[str, int, str, str] | None:
    """(script, line, the command, the value given) of the first container-making command of the user's scripts
    that gives `option` a value matching `value`."""
    given = container_run_option(option, value)
    for file in shell_files(ev):
        for number, command in joined_commands(file):
            if not command.lstrip().startswith("#") and (match := given.search(command)) is not None:
                return file.name, number, command.strip(), match["value"]
    return None


def rule_container_option_this_node_cannot_honour(ev: Evidence) -> list[Finding]:
    for refusal in _REFUSALS:
        refused = ev.first_in_log_heads(refusal.said)
        if refused is None or (started := _container_started_with(ev, refusal.option, r"[^\s\"']+")) is None:
            continue
        (said, match), (script, number, command, value) = refused, started
        words = {**match.groupdict(), "value": value}
        flag = f"{refusal.option} {value}"
        return [Finding(
            category=INFRA,
            title=f"{script}:{number} starts its container with `{flag}`, which this node's Docker cannot honour: "
                  "the engine refused to start it",
            evidence=[said, EvidenceLine(file=script, line=number, text=command[:300])],
            cause=f"The container template asks for `{flag}`, and {refusal.lacks.format(**words)}: the engine refused "
                  "the container and the stage never ran. The Docker engine itself works; the option was written for "
                  "other nodes.",
            fix=f"In {script} (the template), {refusal.instead.format(**words)}; then run the stage again.",
        )]
    return []


_NO_SUCH_CONTAINER = re.compile(r"Error response from daemon: No such container: (?P<name>[\w.-]+)")
# per option: what the new container takes from the one it names, and how the option names it
_BORROWS = {"--network": ("its network namespace", "container:"), "--net": ("its network namespace", "container:"),
            "--volumes-from": ("its volumes", ""), "--ipc": ("its IPC namespace", "container:"),
            "--pid": ("its process namespace", "container:")}


def rule_container_borrowing_from_one_not_running(ev: Evidence) -> list[Finding]:
    refused = ev.first_in_log_heads(_NO_SUCH_CONTAINER)
    if refused is None:
        return []
    said, match = refused
    name = match["name"]
    for option, (what, prefix) in _BORROWS.items():
        if (started := _container_started_with(ev, option, rf"{prefix}{re.escape(name)}\b")) is None:
            continue
        script, number, command, value = started
        flag = f"{option} {value}"
        return [Finding(
            category=INFRA,
            title=f"{script}:{number} starts its container with `{flag}`, and no container {name} runs on this node: "
                  "Docker refused to start it",
            evidence=[said, EvidenceLine(file=script, line=number, text=command[:300])],
            cause=f"`{flag}` makes the new container take {what} from the container {name} (a sidecar the nodes the "
                  f"template was written for run), so Docker can only start it beside a running {name}. None runs "
                  f"here, so the engine answered `No such container: {name}` and the stage never started. The Docker "
                  "engine itself is fine.",
            fix=f"Start the {name} container on this node first (as the template's nodes do: `docker ps -a --filter name={name}` "
                f"shows whether it exists), or drop `{flag}` from {script} (the template) where the sidecar is not "
                "needed" + (" (`--network host` reaches a model server on the node's loopback)" if "net" in option
                            else "") + "; then run the stage again.",
        )]
    return []


# a program finding no writable folder: Python's tempfile, matplotlib's cache, any write to the root file system
_NO_WRITABLE_FOLDER = re.compile(r"No usable temporary directory found|a temporary directory could not be created"
                                 r"|requires access to a writable cache directory|\[Errno 30\] Read-only file system")
_READ_ONLY_ROOT = re.compile(r"\bdocker\s+(?:container\s+)?(?:run|create)\b[^\n]*\s--read-only(?:=true)?(?=\s)")
_WRITABLE_TMP = re.compile(r"--tmpfs[= ]/tmp\b|--mount[= ]\S*type=tmpfs\S*dst(?:ination)?=/tmp\b|-v[= ]\S+:/tmp(?::rw)?\s")
_MODEL_SERVER = re.compile(r"\bserve-policy\b|\bvllm\b|\bsglang\b|\btext-generation-launcher\b")


def rule_read_only_container_without_a_writable_tmp(ev: Evidence) -> list[Finding]:
    """A container started `--read-only` (a hardened template) with no tmpfs on /tmp: the program in it finds no
    folder to write its temporary or cache files in, and stops at start."""
    refused = ev.first_in_log_heads(_NO_WRITABLE_FOLDER)
    if refused is None:
        return []
    said, _ = refused
    for file in shell_files(ev):
        for number, command in joined_commands(file):
            if command.lstrip().startswith("#") or not _READ_ONLY_ROOT.search(command) or _WRITABLE_TMP.search(command):
                continue
            serves = bool(_MODEL_SERVER.search(command))
            return [Finding(
                category=MODEL_SERVING if serves else INFRA,
                title=f"{file.name}:{number} starts its container with `--read-only` and no writable /tmp: "
                      f"{'the model server' if serves else 'the program in it'} found no folder to write in and "
                      "stopped",
                evidence=[said, EvidenceLine(file=file.name, line=number, text=command.strip()[:300])],
                cause="`--read-only` mounts the container's root file system read-only, and the command gives it no "
                      "writable /tmp (`--tmpfs /tmp`) or home: Python's temporary files and the libraries' caches "
                      f"(matplotlib's, Triton's, Hugging Face's) have nowhere to go, so {said.text.strip()[:160]!r} "
                      "stopped it at start.",
                fix=f"Keep `--read-only` in {file.name} (the template's hardening) and give the container the "
                    "folders it writes: `--tmpfs /tmp` (and `-e HOME=/tmp` or `-e MPLCONFIGDIR=/tmp` for caches "
                    "under the home folder), or drop `--read-only`; then start it again.",
            )]
    return []
