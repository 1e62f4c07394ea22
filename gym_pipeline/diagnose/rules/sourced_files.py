"""Step 5: a settings file sourced by a bare name, which bash found on PATH instead of the run's own.

`source settings.env` (or `. settings.env`) with no slash in the name makes bash look the file up on PATH first and
only then in the current folder: a script that put a tools folder on PATH (`export PATH=/opt/team-tools/bin:$PATH`)
reads the tools' own settings.env, if they have one, and the run takes its values (another split, one repeat) while
the folder's settings.env looks right. Every command exits 0. Named when the run's inputs were materialized from
another file or with another repeat count than the folder's settings file gives the variables the script passes,
and the script changed PATH before sourcing it.
"""

from __future__ import annotations

import re
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, UserFile, assignment_of
from gym_pipeline.diagnose.vocabulary import CONFIG

_SOURCED_BY_BARE_NAME = re.compile(r"^\s*(?:source|\.)\s+[\"']?(?P<name>[\w.-]+)[\"']?\s*(?:#.*)?$")
_PATH_SET = re.compile(r"^\s*(?:export\s+)?PATH=")
_OPTION_FROM = re.compile(r"--(?P<option>input|num-repeats)[= ]\"?\$\{?(?P<name>[A-Za-z_]\w*)")
_VALUE = re.compile(r"=[\"']?(?P<value>[^\s\"'#]+)")


def _value_the_run_used(ev: Evidence, option: str) -> str | None:
    if option == "input":
        return Path(ev.manifest.source).name if ev.manifest.source else None
    repeats = ev.manifest.settings.num_repeats if ev.manifest.settings else None
    return str(repeats) if isinstance(repeats, int) else None


def _differs(option: str, given: str, used: str) -> bool:
    return Path(given).name != used if option == "input" else given != used


def _first_difference(ev: Evidence, script: UserFile, settings: UserFile) -> tuple[str, int, str, str] | None:
    """(variable, line of the settings file, the value it gives, the value the run used) of the first variable the
    script passes as --input or --num-repeats whose value in `settings` is not what the run used."""
    for match in _OPTION_FROM.finditer(script.text):
        assigned = assignment_of([settings], match["name"])
        value = _VALUE.search(assigned[2]) if assigned else None
        used = _value_the_run_used(ev, match["option"])
        if assigned and value and used is not None and _differs(match["option"], value["value"], used):
            return match["name"], assigned[1], value["value"], used
    return None


def rule_settings_sourced_from_path(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None or not (ev.manifest.source or ev.manifest.settings):
        return []
    by_name = {file.name: file for file in ev.user_files}
    for script in ev.user_files:
        if script.suffix not in SCRIPT_SUFFIXES:
            continue
        lines = script.text.splitlines()
        for number, line in enumerate(lines, start=1):
            if not (sourced := _SOURCED_BY_BARE_NAME.match(line)):
                continue
            folder = str(Path(script.name).parent)
            settings = by_name.get(sourced["name"] if folder == "." else f"{folder}/{sourced['name']}")
            path_line = next(((n, text.strip()) for n, text in enumerate(lines[:number - 1], start=1)
                              if _PATH_SET.match(text)), None)
            difference = _first_difference(ev, script, settings) if settings and path_line else None
            if difference is None:
                continue  # without a folder put on PATH, a value changed since the run is likelier
            variable, setting_line, given, used = difference
            evidence = [EvidenceLine(file=script.name, line=path_line[0], text=path_line[1]),
                        EvidenceLine(file=script.name, line=number, text=line.strip()),
                        EvidenceLine(file=settings.name, line=setting_line, text=f"{variable}={given}")]
            return [Finding(
                category=CONFIG,
                title=f"{script.name}:{number} sources {sourced['name']} by a bare name, and the run used {variable}="
                      f"{used}, not the {given} of the folder's {settings.name}: bash read another {sourced['name']} "
                      "found on PATH",
                evidence=evidence,
                cause=f"`{line.strip()}` names no folder, so bash looks {sourced['name']} up on PATH before the current "
                      f"folder, and line {path_line[0]} put another folder first on PATH; a folder on PATH holds a file of that name, whose settings the run took: "
                      f"{variable} was {used} where {settings.name} says {given}. Every command exited 0.",
                fix=f"In {script.name}, source the run's own file by its path: `source ./{sourced['name']}` (or "
                    f"`source \"$(dirname \"$0\")/{sourced['name']}\"`); `for d in ${{PATH//:/ }}; do ls \"$d/{sourced['name']}\"; "
                    "done 2>/dev/null` shows the copies on PATH; then run again.",
            )]
    return []
