"""A PYTHON* variable of the job's environment that Python refuses at startup, set by a file the user sources.

Python reads PYTHONHASHSEED, PYTHONIOENCODING and the like before it runs a line. A team's settings file that sets
one to a value Python does not take (`PYTHONHASHSEED=reproducible`) stops every Python process the script starts,
`gym-pipeline` and Gym included, with `Fatal Python error`; the script goes on, and nothing is made.
"""

from __future__ import annotations

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import assignment_of
from gym_pipeline.diagnose.vocabulary import INFRA


def rule_python_startup_variable(ev: Evidence) -> list[Finding]:
    hits = ev.hits("python_startup_variable")
    if not hits:
        return []
    variable = hits[0].groups["variable"]
    assigned = assignment_of(ev.user_files, variable)
    where = f"{assigned[0].name}:{assigned[1]}" if assigned else None
    return [Finding(
        category=INFRA,
        title=f"Python refused to start: {variable} has a value it does not take"
              + (f" ({where}: `{assigned[2]}`)" if assigned else ""),
        evidence=[hits[0].evidence()]
                 + ([EvidenceLine(file=assigned[0].name, line=assigned[1], text=assigned[2])] if assigned else []),
        cause=f"Python reads {variable} from its environment before it runs a line, and stops with `Fatal Python "
              f"error` when the value is not one it takes ({hits[0].text.split(': ', 2)[-1]}). Every Python "
              "process of the run (the pipeline's commands, Gym) ended at once; the script went on without them."
              + (f" {where} sets it." if assigned else ""),
        fix=(f"In {assigned[0].name}, set {variable} to a value Python takes, or remove the line `{assigned[2]}`"
             if assigned else f"Unset {variable} (`unset {variable}`) where the job's environment is set (a sourced "
             "settings file, ~/.bashrc, a module), or give it a value Python takes")
            + " (`python -c pass` must run with it); then run again.",
        explains=frozenset({"python_startup_variable"}),
    )]
