"""Step 3: a setting a script assigns as a plain shell variable, which the program it runs reads from the environment.

`NUM_REPEATS=3` on a line of its own sets a variable of the shell only; without `export` the Python driver the
script runs next never sees it, and its `os.environ.get("NUM_REPEATS", "1")` takes the fallback: the eval runs one
repeat and every command exits 0. Named when a script assigns the name (never exporting it, nor giving it as the
prefix of a command, nor under `set -a`) and runs a program of the run folder that reads it from the environment
with a fallback other than the value assigned.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, lines_matching
from gym_pipeline.diagnose.vocabulary import CONFIG

# `os.environ.get("NUM_REPEATS", "1")`, `os.getenv("NUM_REPEATS", 1)`: read from the environment, with a fallback
_READ_FROM_ENVIRONMENT = re.compile(r"\b(?:os\.environ\.get|os\.getenv|getenv)\(\s*[\"'](?P<name>[A-Z_][A-Z0-9_]*)[\"']\s*,"
                                    r"\s*[\"']?(?P<fallback>[^\"')]+)[\"']?\s*\)")
_ALL_EXPORTED = re.compile(r"^\s*set\s+(?:-\w*a\w*|-o\s+allexport)\b", re.M)


def rule_variable_set_without_export(ev: Evidence) -> list[Finding]:
    programs = {file.name: file for file in ev.user_files if file.suffix == ".py"}
    for program in programs.values():
        for _, at, read_line, read in lines_matching([program], _READ_FROM_ENVIRONMENT):
            name, fallback = read["name"], read["fallback"].strip()
            assigned = re.compile(rf"^\s*{name}=[\"']?(?P<value>[^\s\"';]+)[\"']?\s*(?:#.*)?$")
            for script, number, line, value in lines_matching(ev.user_files, assigned, SCRIPT_SUFFIXES):
                text = script.text
                if value["value"] == fallback or re.search(rf"\bexport\s+(?:\w+=\S*\s+)*{name}\b", text) \
                        or _ALL_EXPORTED.search(text) or re.search(rf"\b{name}=\S+[ \t]+\S*python", text):
                    continue
                runs = re.search(rf"^[^#\n]*\b{re.escape(program.name)}\b", "\n".join(text.splitlines()[number:]), re.M)
                if runs is None:
                    continue
                return [Finding(
                    category=CONFIG,
                    title=f"{script.name}:{number} sets {name}={value['value']} without `export`, and {program.name}:"
                          f"{at} reads it from the environment: the run used its fallback {fallback}",
                    evidence=[EvidenceLine(file=script.name, line=number, text=line.strip()),
                              EvidenceLine(file=program.name, line=at, text=read_line.strip())],
                    cause=f"A shell variable assigned on a line of its own stays in the shell: the programs it starts "
                          f"get only the exported ones, so {program.name} found no {name} in its environment and took "
                          f"`{fallback}` instead of {value['value']}. Every command exits 0.",
                    fix=f"In {script.name}:{number}, `export {name}={value['value']}` (or give it to the command: "
                        f"`{name}={value['value']} python {program.name} ...`); then run the eval again.",
                )]
    return []
