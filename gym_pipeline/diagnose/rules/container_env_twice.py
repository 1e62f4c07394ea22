"""Step 1: a container given one environment variable twice (`-e PYTHONPATH=<checkout> ... -e PYTHONPATH=<tools>`).

A run script builds its `docker run` from its own flags and a team template's (`$TEAM_DOCKER_FLAGS`, pasted options):
Docker keeps the last value of a variable given twice, so the template's `PYTHONPATH` replaces the one that gives the
container the eval code, and the command in it cannot import its own package ("No module named gym_pipeline"): the
container exits 1 and nothing is collected. Named from the `docker run` line and the import error in the logs.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, joined_commands
from gym_pipeline.diagnose.vocabulary import INFRA

_DOCKER_RUN = re.compile(r"\bdocker\s+(?:container\s+)?(?:run|create)\b")
_ENV_OPTION = re.compile(r"(?:\s-e|--env)[ =][\"']?(?P<name>[A-Za-z_]\w*)=(?P<value>[^\s\"']*)")
# what a variable of the search paths, replaced, leaves the command unable to find
_NOT_FOUND = re.compile(r"No module named '?(?P<module>[\w.]+)'?|command not found|executable file not found")


def rule_container_variable_given_twice(ev: Evidence) -> list[Finding]:
    missing = ev.first_in_log_heads(_NOT_FOUND)
    if missing is None:
        return []
    said, match = missing
    for file in ev.user_files:
        if file.suffix not in SCRIPT_SUFFIXES:
            continue
        for number, command in joined_commands(file):
            if not _DOCKER_RUN.search(command):
                continue
            given: dict[str, list[str]] = {}
            for option in _ENV_OPTION.finditer(command):
                given.setdefault(option["name"], []).append(option["value"])
            twice = next(((name, values) for name, values in given.items()
                          if len(values) > 1 and len(set(values)) > 1 and "PATH" in name), None)
            if twice is None:
                continue
            name, values = twice
            return [Finding(
                category=INFRA,
                title=f"{file.name}:{number} gives the container `{name}` twice; Docker keeps the last, {values[-1]}, "
                      f"and the command in it could not find {match['module'] or 'its program'}",
                evidence=[said, EvidenceLine(file=file.name, line=number,
                                             text=" ".join(f"-e {name}={value}" for value in values))],
                cause=f"`docker run` takes the last `-e {name}=...` of the command line: `-e {name}={values[-1]}` (a "
                      f"template's flag pasted after the run's own) replaced `-e {name}={values[0]}`, so inside the "
                      f"container {name} no longer names where the eval code is, and the command failed at start "
                      f"({said.where}: `{said.text}`). Nothing was collected.",
                fix=f"In {file.name} (line {number}), give `{name}` once, with both folders: `-e {name}={values[0]}:"
                    f"{values[-1]}` (drop the template's separate `-e {name}=...`), so the container finds "
                    f"{match['module'] or 'its program'} again; then run the container again and collect.",
            )]
    return []
