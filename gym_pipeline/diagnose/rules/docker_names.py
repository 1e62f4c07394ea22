"""Step 2: a container run under a fixed `--name` (no `--rm`) that an earlier run's container still holds.

Docker keeps a stopped container, and its name, until it is removed; `docker run --name weekly-collect ...` of the
next run is refused ("Conflict. The container name ... is already in use"). A script that then falls back to
`docker start -a weekly-collect` restarts the OLD container: it runs the command line it was created with, so it
collects the earlier run's inputs into the earlier run's folder, and this run's folder gets nothing (cache/resume:
the run re-used what an earlier run left). Without the fallback, the run stops there on what the node still holds
(infra): remove the leftover container, and let the script remove its container after use or name it per run.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.shell_pitfalls import shell_files
from gym_pipeline.diagnose.user_scripts import container_run_option, joined_commands
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME, INFRA

_NAME_TAKEN = re.compile(r"Conflict\. The container name \"/(?P<name>[^\"]+)\" is already in use")
_NAMED_RUN = container_run_option("--name", r"\S+")
_RESTART = re.compile(r"\b(?:docker|podman)\s+(?:container\s+)?(?:start|restart)\b(?:\s+-\w+)*\s+(?P<name>[^\s;|&)]+)")


def rule_container_name_held_by_an_earlier_run(ev: Evidence) -> list[Finding]:
    found = ev.first_in_log_heads(_NAME_TAKEN)
    if found is None:
        return []
    refused, taken = found
    name = taken["name"]
    named_run = restart = None
    for file in shell_files(ev):
        for number, command in joined_commands(file):
            if command.lstrip().startswith("#"):
                continue
            line = EvidenceLine(file=file.name, line=number, text=file.text.splitlines()[number - 1].strip())
            if (run := _NAMED_RUN.search(command)) and _same_name(run["value"], name):
                named_run = named_run or line
            if (start := _RESTART.search(command)) and _same_name(start["name"], name):
                at = next((n for n, text in enumerate(file.text.splitlines()[number - 1:], number)
                           if _RESTART.search(text)), number)  # the line of a command continued with `\`
                restart = restart or EvidenceLine(file=file.name, line=at, text=start.group(0).strip())
    evidence = [refused, *([named_run] if named_run else []), *([restart] if restart else [])]
    script = named_run.file if named_run else "the script"
    fix = (f"In {script}, run the container with `--rm` (or `docker rm -f {name}` before the `docker run`), or give it "
           "a container name of this run's own (`--name` with its date or checkpoint)")
    if restart is None:
        return [Finding(
            category=INFRA,
            title=f"`docker run --name {name}` was refused: a container of an earlier run still holds the name",
            evidence=evidence,
            cause=f"Docker keeps a container that has stopped, and its name, until it is removed. {script} names its "
                  f"container {name} and does not remove it (no `--rm`), so the earlier run's container still holds "
                  "the name, and this run's container was never created.",
            fix=f"Remove the leftover container (`docker rm {name}`; `docker ps -a --filter name={name}` shows it), and "
                + fix[0].lower() + fix[1:] + "; then run again.",
        )]
    return [Finding(
        category=CACHE_RESUME,
        title=f"`docker run --name {name}` was refused (an earlier run's container holds the name), and {restart.where} "
              "restarted that old container: it re-ran the earlier run's command, not this run's",
        evidence=evidence,
        cause=f"{script} names its container {name} without `--rm`, so the earlier run's stopped container kept the "
              f"name and this `docker run` was refused. The fallback `{restart.text}` ({restart.where}) starts the "
              "existing container, which runs the command line it was created with: the earlier run's inputs and "
              "output paths. That run's folder was written again, and this run's got nothing.",
        fix=fix + f", and drop the `docker start` fallback ({restart.where}): a container's command never changes. "
                  "Check the earlier run's folder (it was collected again), then collect this run on a clean output "
                  "path and profile.",
    )]


def _same_name(word: str, name: str) -> bool:
    """Whether a script's container name (`weekly-collect-$PORT`, quoted or not) is the refused one."""
    word = word.strip("\"'")
    pattern = re.escape(word).replace(r"\$", "$")
    return bool(re.fullmatch(re.sub(r"\$\{?\w+\}?", r"\\S+", pattern), name))
