"""The Python a user's script runs under, not the one it was written for.

- A PYTHON* variable of the job's environment that Python refuses at startup, set by a file the user sources.
  Python reads PYTHONHASHSEED, PYTHONIOENCODING and the like before it runs a line. A team's settings file that sets
  one to a value Python does not take (`PYTHONHASHSEED=reproducible`) stops every Python process the script starts,
  `gym-pipeline` and Gym included, with `Fatal Python error`; the script goes on, and nothing is made.
- A debugging switch of Python's left exported (`PYTHONTRACEMALLOC=25` from a leak hunt, `PYTHONMALLOC=debug`,
  `PYTHONDEVMODE=1`): every Python process of the run, the collection included, runs many times slower, and a run
  with a time budget ends before its rollouts are in.
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
from gym_pipeline.diagnose.vocabulary import INFRA, THROUGHPUT_RESOURCES


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


# Python's debugging switches that slow every process (a value of 0 or empty leaves them off)
_SLOWING = {"PYTHONTRACEMALLOC": "records a traceback of every memory allocation",
            "PYTHONMALLOC": "checks every memory allocation (`debug`)",
            "PYTHONDEVMODE": "turns on the development mode's checks",
            "PYTHONASYNCIODEBUG": "checks every asyncio callback and slow step",
            "PYTHONPROFILEIMPORTTIME": "times every import"}
_OFF = re.compile(r"^[\"']?(?:0|)[\"']?$")


def rule_python_debugging_switch_left_on(ev: Evidence) -> list[Finding]:
    missing = len(ev.artifacts.missing_keys)
    if not missing:
        return []
    for variable, what in _SLOWING.items():
        assigned = assignment_of(ev.user_files, variable)
        if assigned is None:
            continue
        value = assigned[2].split("=", 1)[1].split("#", 1)[0].strip()
        if _OFF.match(value) or (variable == "PYTHONMALLOC" and "debug" not in value) \
                or not assigned[2].startswith("export"):
            continue  # off, or a shell variable the processes the script starts never see
        file, number, line = assigned
        return [Finding(
            category=THROUGHPUT_RESOURCES,
            title=f"{missing} rollouts never came, and every Python process of the run ran with {variable}={value} "
                  f"({file.name}:{number}), a debugging switch that slows it many times",
            evidence=[EvidenceLine(file=file.name, line=number, text=line), *ev.artifacts.missing_examples[:1]],
            cause=f"{file.name} exports {variable}={value}: with it Python {what}, in every process the run starts "
                  "(the collection, its verifier, the profile), which then runs many times slower than it should. "
                  "The collection did not finish in the time it had (a CI budget, a job's time limit, a `timeout`), "
                  "and the keys without a rollout are what it did not reach.",
            fix=f"Remove `{line.strip()}` from {file.name} (or `unset {variable}` before the run; keep it for a leak "
                "hunt's own runs), then collect the missing keys again (`--resume`) and profile.",
        )]
    return []


_NO_MODULE = re.compile(r"ModuleNotFoundError: No module named '(?P<module>[\w.]+)'")


_RUN_COMMAND = re.compile(r"\b(?:gym-pipeline|gym_pipeline\.cli)\s+(?:stage\s+)?(?:materialize|collect)\b"
                          r"|\bgym\s+eval\s+run\b|\bng_collect_rollouts\b")


def _before_the_run(file: UserFile, line: int) -> bool:
    """Whether the script runs a materialization or collection after `line`: the script at `line` prepares the run
    (one that runs after it, a chart of the results, is not the run's)."""
    return any(_RUN_COMMAND.search(text) for text in file.text.splitlines()[line:])


# Python's safe-path mode: the script's own folder is not put on sys.path (`PYTHONSAFEPATH=1`, `python -P`)
_SAFE_PATH = re.compile(r"^\s*(?:export\s+)?PYTHONSAFEPATH=[\"']?[^\s\"'#]+|\bpython[\d.]*\s+(?:-\w*\s+)*-\w*P\b")


def _sibling_hidden_by_safe_path(ev: Evidence, log: Path, said: int, error: str, name: str, module: str,
                                 safe_path: tuple[UserFile, int, str, re.Match[str]]) -> Finding:
    """The module missing is a file beside the script, which safe-path mode keeps off sys.path."""
    file, number, line, _ = safe_path
    return Finding(
        category=INFRA,
        title=f"{name} cannot import {module}, the {module}.py beside it: {file.name}:{number} turns on Python's "
              "safe-path mode",
        evidence=[EvidenceLine(file=ev.rel(log), line=said, text=error),
                  EvidenceLine(file=file.name, line=number, text=line.strip())],
        cause=f"With PYTHONSAFEPATH set (or `python -P`), Python no longer puts a script's own folder first on "
              f"sys.path, so {name} cannot import {module}.py, the module beside it: it stopped at the import, what "
              f"it should have written was not, and what came after found nothing. `{line.strip()}` in {file.name} "
              "(a node's security baseline) set it for every Python the run started.",
        fix=f"Keep the baseline and let {name} find its module: run it with the folder on the path "
            f"(`PYTHONPATH=$PWD python3 {name}`), or make "
            f"{module} an installed package; or `unset PYTHONSAFEPATH` for this step (it comes from {file.name}); "
            "then run again.",
    )


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
            sibling = ev.run_dir is not None and ((ev.run_dir / script.name).parent / f"{module}.py").is_file()
            safe_path = next(lines_matching(ev.user_files, _SAFE_PATH), None) if sibling else None
            if safe_path is not None:
                return [_sibling_hidden_by_safe_path(ev, log, said, missing.group(0), name, module, safe_path)]
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
