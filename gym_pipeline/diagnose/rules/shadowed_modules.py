"""A folder on PYTHONPATH holding a file named like a module of Python's standard library (`team_tools/json.py`).

A team's settings file puts its tools folder first on PYTHONPATH; one of the tools is named `json.py` (or `logging.py`,
`queue.py`...). Every Python process of the run then imports it instead of the standard module, and fails far from
the cause: a library that imports `json` raises in its own code (`SystemError: execution of module orjson.orjson
raised unreported exception`, `AttributeError: module 'json' has no attribute 'loads'`). The error reads as the
verifier's or the library's; the cause is the machine's Python environment, and the line that set it is the user's.
"""

from __future__ import annotations

import re
import sys

from gym_pipeline.diagnose.artifacts import locate_named_file
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, excerpt
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import SHELL_VARIABLE, assignment_of, lines_matching
from gym_pipeline.diagnose.vocabulary import INFRA

_PYTHONPATH_SET = re.compile(r"^\s*(?:export\s+)?PYTHONPATH=(?P<value>\S+)")
# what the path held before (`:$PYTHONPATH`, `${PYTHONPATH:+:$PYTHONPATH}`): not a folder the user's line adds
_EARLIER_PATH = re.compile(r"\$\{PYTHONPATH(?:[:]?[-+=?][^}]*)?\}|\$PYTHONPATH\b")
_OWN_NAMES = frozenset({"__init__", "__main__", "this", "antigravity"})
MAX_FILES_LISTED = 500  # of one folder on the path


def _expanded(value: str, ev: Evidence) -> str:
    """`$TEAM_TOOLS` replaced by the value the user's files assign it (two levels; `$PWD` by the run folder), quotes
    taken off."""
    def value_of(match: re.Match[str]) -> str:
        if match["name"] == "PWD":  # the folder the run's scripts work in
            return str(ev.run_dir)
        assigned = assignment_of(ev.user_files, match["name"])
        return assigned[2].split("=", 1)[1].strip("\"'") if assigned else match[0]
    once = SHELL_VARIABLE.sub(value_of, value.strip("\"'"))
    return SHELL_VARIABLE.sub(value_of, once)  # a value that names another variable (`$PWD/team_tools`)


def _shadowing_files(ev: Evidence, value: str) -> list[str]:
    """The files of the folders a PYTHONPATH value names that have a standard module's name, as `folder/json.py`."""
    found = []
    for part in _expanded(_EARLIER_PATH.sub("", value), ev).split(":"):
        if not part or "$" in part:
            continue
        folder = locate_named_file(part, ev.run_dir, folder=True)
        if not folder.is_dir():
            continue
        for path in sorted(folder.iterdir())[:MAX_FILES_LISTED]:
            name = path.stem if path.suffix == ".py" else path.name if (path / "__init__.py").is_file() else None
            if name and name in sys.stdlib_module_names and name not in _OWN_NAMES:
                found.append(ev.rel(path))
    return found


def rule_standard_module_shadowed(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None or not ev.logs.incidents:
        return []
    for file, number, line, match in lines_matching(ev.user_files, _PYTHONPATH_SET):
        shadowing = _shadowing_files(ev, match["value"])
        if not shadowing:
            continue
        module = shadowing[0].rsplit("/", 1)[-1].removesuffix(".py")
        first = min(ev.logs.incidents, key=lambda incident: (incident.file, incident.start))
        return [Finding(
            category=INFRA,
            title=f"{shadowing[0]}, on PYTHONPATH ({file.name}:{number}), shadows Python's own `{module}` module",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()), first.evidence()],
            cause=f"`{line.strip()}` puts a folder first on PYTHONPATH that holds {shadowing[0]}: every Python process "
                  f"of the run imports it for `import {module}` instead of the standard library's, so code that "
                  f"needs the real one fails in its own lines (the first error: {excerpt(first.text, 160)}). The "
                  "error names a library; the cause is the environment the run's Python started with.",
            fix=f"Rename {shadowing[0]} (e.g. `team_{module}.py`, and its imports), or take its folder off PYTHONPATH "
                f"in {file.name} (add it only for the tools that need it); `python -c 'import {module}; "
                f"print({module}.__file__)'` must name the standard library; then run again.",
        )]
    return []
