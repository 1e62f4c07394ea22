"""Step 1: an assignment bash refused, so the variable kept its old value (or none) and a default took its place.

Bash reports these on the script's log and goes on with the next line:
- `local DATA=capitals_v2.jsonl` outside a function (a line moved out of `main()` when a script was flattened):
  `local: can only be used in a function`;
- `export 2ND_SPLIT=test` or `declare EVAL-SET=...`: `not a valid identifier`;
- an assignment to a name made `readonly` earlier (often by a sourced settings file): `readonly variable`.
What follows (`${DATA:-capitals.jsonl}`, a command given `$DATA`) runs with the value the line meant to replace, and
every command exits 0. A config cause: the script's settings are not the ones that reached the run.
"""

from __future__ import annotations

import re
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, line_of_match
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.vocabulary import CONFIG

# `/path/run_eval.sh: line 5: local: can only be used in a function`
_REFUSED = re.compile(r"^(?P<script>\S+?): line (?P<line>\d+): (?P<builtin>local|export|declare|typeset|readonly)?:?\s*"
                      r"(?:`?(?P<name>[^`':\s]+)'?: )?(?P<why>can only be used in a function|not a valid identifier"
                      r"|readonly variable)\s*$", re.M)
_HOW_TO = {
    "can only be used in a function": "drop `local` (outside a function a plain `NAME=value` sets it), or put the line "
                                      "back inside the function",
    "not a valid identifier": "name the variable with letters, digits and underscores only, not starting with a digit",
    "readonly variable": "assign it before it is made readonly, or use another name (`readonly` holds for the whole "
                         "shell, sourced files too)",
}


def rule_assignment_refused_by_bash(ev: Evidence) -> list[Finding]:
    for log, head in ev.log_heads:
        for refused in _REFUSED.finditer(head):
            script, number = Path(refused["script"]).name, int(refused["line"])
            file = next((file for file in ev.user_files if Path(file.name).name == script), None)
            lines = file.text.splitlines() if file else []
            line = lines[number - 1].split(" #", 1)[0].strip() if 0 < number <= len(lines) else None
            assigned = re.search(r"(?P<name>[A-Za-z_][\w-]*)=", line or "")
            name = refused["name"] or (assigned["name"] if assigned else None)
            if file is None or line is None or name is None \
                    or not re.search(rf"(?<![\w-]){re.escape(name)}=", line):
                continue  # a name the line makes at run time (`export $(grep ... settings.env)`): another reading's
            later = next(((at, text.strip()) for at, text in enumerate(lines[number:], number + 1)
                          if re.search(rf"\$\{{?{re.escape(name)}\b", text)), None)
            return [Finding(
                category=CONFIG,
                title=f"{file.name}:{number} `{line}` never set {name}: bash refused it ({refused['why']}) and the "
                      "script went on without it",
                evidence=[line_of_match(ev.rel(log), head, refused),
                          EvidenceLine(file=file.name, line=number, text=line),
                          *([EvidenceLine(file=file.name, line=later[0], text=later[1])] if later else [])],
                cause=f"Bash prints `{refused['why']}` for that line and runs the next one: {name} kept the value it "
                      "had before (none, in a fresh shell)"
                      + (f", so {file.name}:{later[0]} (`{later[1]}`) used its default or an empty value" if later else "")
                      + ". The run went on with settings other than the script's, and no command failed.",
                fix=f"In {file.name}:{number}, {_HOW_TO[refused['why']].replace('NAME', name)}; then run again from that "
                    "step.",
            )]
    return []
