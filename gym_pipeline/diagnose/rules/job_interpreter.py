"""A job script whose `#!` line names a shell the compute node does not have (`#!/bin/zsh` from a laptop's template).

slurmstepd runs the batch script through the interpreter its first line names; where that program is missing it
cannot start the job at all (`execve(): bad interpreter(/bin/zsh): No such file or directory`), and not a line of
the script runs. The machine is as it should be: the user's line names what it does not have.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.vocabulary import CONFIG

_BAD_INTERPRETER = re.compile(r"execve\(\): bad interpreter\((?P<path>[^)]+)\): (?P<reason>[^\n]+)")


def rule_job_script_interpreter_missing(ev: Evidence) -> list[Finding]:
    for log, text in ev.log_heads:
        match = _BAD_INTERPRETER.search(text)
        if match is None:
            continue
        interpreter = match["path"]
        script = next((file for file in ev.user_files if file.text.startswith(f"#!{interpreter}")), None)
        if script is None:
            continue
        number = text.count("\n", 0, match.start()) + 1
        first_line = script.text.splitlines()[0]
        return [Finding(
            category=CONFIG,
            title=f"{script.name} names {interpreter} in its `#!` line, which the compute node does not have: the "
                  "job never ran a line",
            evidence=[EvidenceLine(file=script.name, line=1, text=first_line),
                      EvidenceLine(file=ev.rel(log), line=number, text=text.splitlines()[number - 1].strip())],
            cause=f"slurmstepd starts the batch script with the program its first line names, `{first_line}`; the "
                  f"node has no {interpreter} ({match['reason']}), so the job ended before its first line and made "
                  "nothing. The script was written for another machine's shell.",
            fix=f"In {script.name}, make the first line `#!/bin/bash` (instead of `{first_line}`; check the script "
                "runs under bash: `bash -n` for its syntax), or install that shell on the nodes; then submit again.",
        )]
    return []
