"""The Python a user's script runs under, not the one it was written for.

- A PYTHON* variable of the job's environment that Python refuses at startup, set by a file the user sources.
  Python reads PYTHONHASHSEED, PYTHONIOENCODING and the like before it runs a line. A team's settings file that sets
  one to a value Python does not take (`PYTHONHASHSEED=reproducible`) stops every Python process the script starts,
  `gym-pipeline` and Gym included, with `Fatal Python error`; the script goes on, and nothing is made.
- A data script of the user's (`python3 prepare_data.py`) run by an interpreter that lacks a package it imports (the
  node's /usr/bin/python3, without the pandas of the workstation it was written on): `No module named 'pandas'`, the
  data is not written, and what reads it finds nothing.
"""

from __future__ import annotations

import re
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, UserFile, assignment_of, lines_matching
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


_NO_MODULE = re.compile(r"ModuleNotFoundError: No module named '(?P<module>[\w.]+)'")


_RUN_COMMAND = re.compile(r"\b(?:gym-pipeline|gym_pipeline\.cli)\s+(?:stage\s+)?(?:materialize|collect)\b"
                          r"|\bgym\s+eval\s+run\b|\bng_collect_rollouts\b")


def _before_the_run(file: UserFile, line: int) -> bool:
    """Whether the script runs a materialization or collection after `line`: the script at `line` prepares the run
    (one that runs after it, a chart of the results, is not the run's)."""
    return any(_RUN_COMMAND.search(text) for text in file.text.splitlines()[line:])


def rule_script_run_by_a_python_without_its_package(ev: Evidence) -> list[Finding]:
    for log, head in ev.log_heads:
        if (missing := _NO_MODULE.search(head)) is None:
            continue
        module = missing["module"].split(".")[0]
        imports = re.compile(rf"^\s*(?:import\s+{module}\b|from\s+{module}(?:\.\w+)*\s+import\b)")
        for script, number, _, _ in lines_matching(ev.user_files, imports, {".py"}):
            name = Path(script.name).name
            runner = re.compile(rf"(?P<python>\S*python[\d.]*)\s+(?:-\S+\s+)*\S*\b{re.escape(name)}\b")
            run = next(((file, at, line.strip(), match["python"]) for file, at, line, match in
                        lines_matching(ev.user_files, runner, SCRIPT_SUFFIXES)
                        if not line.lstrip().startswith("#") and _before_the_run(file, at)), None)
            if run is None:
                continue
            file, at, line, python = run
            said = head.count("\n", 0, missing.start()) + 1
            return [Finding(
                category=INFRA,
                title=f"{name} imports {module}, which the Python that runs it ({python}, {file.name}:{at}) does not "
                      "have",
                evidence=[EvidenceLine(file=ev.rel(log), line=said, text=missing.group(0)),
                          EvidenceLine(file=file.name, line=at, text=line),
                          EvidenceLine(file=script.name, line=number, text=script.text.splitlines()[number - 1].strip())],
                cause=f"{file.name}:{at} runs {name} with `{python}`, and that interpreter has no {module} (a package "
                      "installed where the script was written, not on this node): it stopped at the import, so what "
                      f"{name} should have written was not, and what came after it found nothing.",
                fix=f"Run {name} with the Python that has {module} (the project's environment: `.venv/bin/python "
                    f"{name}`, or `uv run {name}`) instead of `{python}` in {file.name}:{at}, or install it for that "
                    f"interpreter (`{python} -m pip install {module}`); then run again.",
            )]
    return []
