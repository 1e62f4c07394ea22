"""Step 1: a script run with `set -u` (`set -euo pipefail`, "strict mode") that stopped on a variable it reads unset.

An optional setting (`$EXTRA_FLAGS`, set only when resuming) passed without a default: on a run where nobody set it,
bash stops the script there (`EXTRA_FLAGS: unbound variable`), and every command after that line never runs. What
the run lacks (rollouts, a profile) follows from it.
"""

from __future__ import annotations

import re
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.vocabulary import CONFIG

_STRICT = re.compile(r"^\s*set\s+(?:-\w*u\w*\b|-o\s+nounset\b)")


def rule_unset_variable_stopped_a_strict_script(ev: Evidence) -> list[Finding]:
    hits = ev.hits("unbound_variable")
    if not hits:
        return []
    hit = hits[0]
    name, number, script = hit.groups["name"], int(hit.groups["line"]), Path(hit.groups["script"]).name
    file = next((file for file in ev.user_files if Path(file.name).name == script), None)
    lines = file.text.splitlines() if file else []
    strict = next(((at, text.strip()) for at, text in enumerate(lines, 1) if _STRICT.match(text)), None)
    read = lines[number - 1].strip() if 0 < number <= len(lines) else None
    # the line reading it may be a continuation of the command bash names
    reading = next(((at, text.strip()) for at, text in enumerate(lines[number - 1:number + 5], number)
                    if re.search(rf"\$\{{?{re.escape(name)}\b(?![:}}]?[-=?+])", text)), None) if lines else None
    return [Finding(
        category=CONFIG,
        title=f"{script} stopped at line {number}: {name} is unset, and the script runs with `set -u`"
              + (f" ({strict[1]})" if strict else ""),
        evidence=[hit.evidence(),
                  *([EvidenceLine(file=file.name, line=reading[0], text=reading[1])] if file and reading else
                    [EvidenceLine(file=file.name, line=number, text=read)] if file and read else []),
                  *([EvidenceLine(file=file.name, line=strict[0], text=strict[1])] if file and strict else [])],
        cause=f"Under `set -u` bash stops a script that reads a variable nobody set; {script} reads ${name} at line "
              f"{number} without a default, so on this run (where it was not set) bash stopped there, and nothing "
              "after that line ran: what the run lacks past that point follows from it.",
        fix=f"In {file.name if file else script}, give {name} a default where it is read (`${{{name}:-}}`, or "
            f"`{name}=\"${{{name}:-}}\"` near the top), or set it before the script runs; then run the script again "
            "(a collection that had started resumes with --resume).",
        explains=frozenset({"unbound_variable"}),
    )]
