"""Step 5: a package installed with `pip install --target DIR` over last week's copy: pip keeps the old one.

`pip install --target vendor team_grading-1.0.1.whl` installs into a plain folder; when the package's folder is
already there, pip does not replace it without `--upgrade` and only warns (`Target directory .../team_grading already
exists. Specify --upgrade to force replacement.`). Whatever imports from that folder (a verifier, a data script)
runs last week's code, and every command exits 0. Named from pip's warning and the script line that installs.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, lines_matching
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME

_KEPT = re.compile(r"^WARNING: Target directory (?P<path>\S+) already exists\. Specify --upgrade to force replacement\.",
                   re.M)
_INSTALL_TO_TARGET = re.compile(r"\bpip3?\s+install\b(?![^#\n]*(?:\s-U\b|--upgrade\b))[^#\n]*(?:--target[ =]|\s-t\s)"
                                r"(?P<target>\S+)")


def rule_package_kept_by_pip_target(ev: Evidence) -> list[Finding]:
    kept = ev.first_in_log_heads(_KEPT)
    install = next(lines_matching(ev.user_files, _INSTALL_TO_TARGET, SCRIPT_SUFFIXES), None)
    if kept is None or install is None:
        return []
    said, match = kept
    file, number, line, installed = install
    package = match["path"].rstrip("/").rsplit("/", 1)[-1]
    return [Finding(
        category=CACHE_RESUME,
        title=f"{file.name}:{number} installs with `pip install --target {installed['target']}` without --upgrade: "
              f"pip kept the {package} already there, so the run used last time's code",
        evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()), said],
        cause=f"`pip install --target` does not replace a package folder that exists unless given `--upgrade`; it "
              f"warned and left {match['path']} as it was ({said.file}), so whatever imports {package} from "
              f"{installed['target']} ran the version installed before, not the one this script installs. Nothing "
              "fails.",
        fix=f"In {file.name}:{number}, install with `pip install --upgrade --target {installed['target']} ...` (or "
            f"empty {installed['target']} first); check the version it imports (`python -c 'import {package}; "
            f"print({package}.__version__)'`), then score the run again (`gym-pipeline reverify`) or run it again "
            "from collect.",
    )]
