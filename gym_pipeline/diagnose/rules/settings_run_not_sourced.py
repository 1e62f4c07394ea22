"""Step 1: a settings file run as a script (`bash setup_env.sh`) where it was meant to be sourced.

A file of `export MODEL_URL=...` lines sets its variables in the shell that reads it. Run with `bash setup_env.sh`
(or `sh`, or `./setup_env.sh`) it is read by a child shell, whose variables end with it: the script that ran it goes
on without them, and what reads them later gets an empty value or its default (`${MODEL_URL:-http://localhost:8000}`).
Named when a script runs a file whose every command is an assignment, an export or an echo, and a later line of the
run's scripts reads one of those variables.
"""

from __future__ import annotations

import re
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.shell_pitfalls import shell_files
from gym_pipeline.diagnose.user_scripts import UserFile
from gym_pipeline.diagnose.vocabulary import CONFIG

_RUN_AS_SCRIPT = re.compile(r"^\s*(?:(?:bash|sh|zsh|dash)\s+|\./)(?P<name>[\w./-]+\.(?:sh|env|bash))\s*(?:#.*)?$")
_SETTING = re.compile(r"^\s*(?:export\s+)?(?P<name>[A-Za-z_]\w*)=")
_HARMLESS = re.compile(r"^\s*(?:#|$|echo\b|printf\b|set\b)")


def _settings_only(file: UserFile) -> list[str] | None:
    """The variables a file sets, when setting (and saying so) is all it does."""
    names = []
    for line in file.text.splitlines():
        if setting := _SETTING.match(line):
            names.append(setting["name"])
        elif not _HARMLESS.match(line):
            return None
    return names or None


def rule_settings_file_run_instead_of_sourced(ev: Evidence) -> list[Finding]:
    files = {Path(file.name).name: file for file in ev.user_files}
    for script in shell_files(ev):
        lines = script.text.splitlines()
        for number, line in enumerate(lines, 1):
            if (run := _RUN_AS_SCRIPT.match(line)) is None or (settings := files.get(Path(run["name"]).name)) is None:
                continue
            names = _settings_only(settings)
            if names is None:
                continue
            # a later line of this script, or a script it runs after, reads one of them
            later = [(script, at, text) for at, text in enumerate(lines[number:], number + 1)]
            for after in lines[number:]:
                if (other := _RUN_AS_SCRIPT.match(after)) and (called := files.get(Path(other["name"]).name)):
                    later += [(called, at, text) for at, text in enumerate(called.text.splitlines(), 1)]
            reader = next(((file, at, text.strip(), name) for file, at, text in later for name in names
                           if re.search(rf"\$\{{?{name}\b", text) and not text.lstrip().startswith("#")), None)
            if reader is None:
                continue
            file, at, text, name = reader
            return [Finding(
                category=CONFIG,
                title=f"{script.name}:{number} runs `{line.strip()}`, a file of settings, in a shell of its own: "
                      f"its {name} never reached {file.name}:{at}",
                evidence=[EvidenceLine(file=script.name, line=number, text=line.strip()),
                          EvidenceLine(file=file.name, line=at, text=text)],
                cause=f"{settings.name} only sets variables ({', '.join(names)}), and a variable lives in the shell that "
                      f"sets it: run with `{line.strip()}`, a child shell set them and ended, so {file.name} read "
                      f"${name} empty (or took its default) and the run went on with other settings than "
                      f"{settings.name}'s.",
                fix=f"In {script.name}:{number}, source the file instead: `source {run['name']}` (or `. "
                    f"{run['name']}`), so its exports reach the commands after it; then run again.",
            )]
    return []
