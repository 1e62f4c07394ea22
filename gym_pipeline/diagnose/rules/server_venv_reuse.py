"""Step 6: a Gym server started from a venv built before its requirements gained a package.

`gym env start ++skip_venv_if_present=true` (prebuilt venvs, a cluster's image) starts each server from the venv it
finds, as it is: it installs nothing. A user's resources server whose requirements.txt gained a package this week
(`rapidfuzz`) then imports it from last week's venv, `ModuleNotFoundError` ends the server, and `gym env start` never
gets ready. The venv is a cache the requirements no longer match.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME

_NO_MODULE = re.compile(r"ModuleNotFoundError: No module named '(?P<module>[\w]+)")
_INSTALLING = re.compile(r"\buv pip install\b|\bInstalled \d+ packages?\b|\bResolved \d+ packages?\b")
_MAX_REQUIREMENTS = 50


def rule_server_venv_older_than_its_requirements(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None or not ev.run_dir.is_dir():
        return []
    found = ev.first_in_log_heads(_NO_MODULE)
    if found is None:
        return []
    said, match = found
    if any(_INSTALLING.search(text) for _, text in ev.log_heads):
        return []  # Gym installed the servers' requirements: no venv was reused as it was
    module = match["module"]
    venv_of = {hit.groups["server"]: hit for hit in reversed(ev.hits("gym_server_starting"))}  # the first start of each
    for requirements in sorted(ev.run_dir.rglob("requirements.txt"))[:_MAX_REQUIREMENTS]:
        listed = next(((n, line.strip()) for n, line in enumerate(requirements.read_text(errors="replace").splitlines(), 1)
                       if re.match(rf"\s*{re.escape(module)}\b", line, re.I)), None)
        server = requirements.parent.name
        started = venv_of.get(server)
        if listed is None or started is None:
            continue
        venv = started.groups["venv"]
        return [Finding(
            category=CACHE_RESUME,
            title=f"{server} was started from a venv built before its requirements.txt listed {module}: "
                  f"`No module named '{module}'`",
            evidence=[said, EvidenceLine(file=ev.rel(requirements), line=listed[0], text=listed[1]),
                      started.evidence()],
            cause=f"{ev.rel(requirements)} lists {module} (line {listed[0]}), and `gym env start` started {server} "
                  f"from the venv it found at {venv} without installing anything (prebuilt venvs reused as they are, "
                  "`++skip_venv_if_present=true`): that venv was built before the package was added, so the "
                  f"server's import of {module} failed and the servers never got ready.",
            fix=f"Rebuild {server}'s venv from its requirements.txt: remove {venv} (or install into it: `{venv}/bin/"
                f"python -m pip install {module}`), or start once without `++skip_venv_if_present=true` so Gym "
                "installs the requirements; then start the servers again.",
        )]
    return []
