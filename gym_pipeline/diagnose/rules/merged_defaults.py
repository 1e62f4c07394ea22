"""Step 3: a Python driver that merges its defaults after the user's settings, so the defaults win.

`settings = {**json.load(f), **DEFAULTS}` (or `json.load(f) | DEFAULTS`) keeps, for every key both give, the value of
the dict written last: the team's defaults replace what this run's settings file says (another server, one repeat),
and every command exits 0. Named when the settings file the driver opens gives a key of the defaults another value.

The same order the other way: `cfg = {**vars(args), **settings}`, meant as "the command line overrides the settings
file", lets the file win; a `--model-url` given for this week's server is replaced by the baseline the file names.
Named when the run asked the URL the settings file gives, an older checkpoint's server than one started beside it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.checkpoint_choice import recorded_model_url, rollouts_of_an_older_server
from gym_pipeline.diagnose.rules.settings_tables import parsed_settings, settings_opened_before
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import CONFIG

# `{**json.load(f), **DEFAULTS}` or `json.load(f) | DEFAULTS`: the defaults, a module constant, written last
_DEFAULTS_LAST = re.compile(r"\{\s*\*\*(?P<first>[^{},]*load[^{},]*)\s*,\s*\*\*(?P<defaults>[A-Z][A-Z0-9_]*)\s*\}"
                            r"|(?P<first2>\w+\.(?:safe_)?load\([^)]*\))\s*\|\s*(?P<defaults2>[A-Z][A-Z0-9_]*)\b")


# `{**vars(args), **settings}`: the command line's values first, a dict loaded from a settings file last
_ARGUMENTS_FIRST = re.compile(r"\{\s*\*\*(?P<first>[^\n]*?\b(?:args|argv|cli\w*|options|flags)\b[^\n]*?)\s*,\s*"
                              r"\*\*(?P<settings>[a-z_]\w*)\s*\}")


def _constant_dict(source: str, name: str) -> dict[str, Any] | None:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name
                                                     for t in statement.targets):
            try:
                value = ast.literal_eval(statement.value)
            except ValueError:
                return None
            return value if isinstance(value, dict) else None
    return None


def rule_defaults_merged_over_the_settings(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None:
        return []
    for file, number, line, match in lines_matching(ev.user_files, _DEFAULTS_LAST, {".py"}):
        name = match["defaults"] or match["defaults2"]
        defaults = _constant_dict(file.text, name)
        opened = settings_opened_before(file.text, number)
        if defaults is None or opened is None:
            continue
        settings = parsed_settings(ev.run_dir / Path(file.name).parent / opened["file"])
        overridden = {key: (settings[key], defaults[key]) for key in settings or {} if key in defaults
                      and settings[key] != defaults[key]}
        if not overridden:
            continue
        shown = "; ".join(f"`{key}`: {given!r} -> {kept!r}" for key, (given, kept) in list(overridden.items())[:3])
        return [Finding(
            category=CONFIG,
            title=f"{file.name}:{number} merges {name} after {opened['file']}, so the defaults win: "
                  f"{', '.join(f'`{key}`' for key in overridden)} of {opened['file']} were replaced",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip())],
            cause=f"In `{line.strip()}` the dict written last wins for every key both give, and {name} comes last: "
                  f"the values {opened['file']} gives were replaced by the defaults ({shown}). The run used the "
                  "defaults, with no error, and every command exited 0.",
            fix=f"Put the defaults first and the run's settings last in {file.name}:{number} (the merge order: "
                f"`{{**{name}, **json.load(f)}}`, or `{name} | json.load(f)`), so {opened['file']} overrides "
                f"{name}; then run again.",
        )]
    return []


def rule_settings_file_merged_over_the_command_line(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None or (servers := rollouts_of_an_older_server(ev)) is None:
        return []
    (step, used_line), (_, newest_step, newest_line) = servers
    used = recorded_model_url(ev).rstrip("/").removesuffix("/v1")
    for file, number, line, match in lines_matching(ev.user_files, _ARGUMENTS_FIRST, {".py"}):
        name = match["settings"]
        if not re.search(rf"^\s*{name}\s*=\s*[^\n]*load\(", file.text, re.M):
            continue  # not a dict read from a settings file
        opened = settings_opened_before(file.text, number)
        settings = parsed_settings(ev.run_dir / Path(file.name).parent / opened["file"]) if opened else None
        key = next((key for key, value in (settings or {}).items()
                    if isinstance(value, str) and value.rstrip("/").removesuffix("/v1") == used), None)
        if key is None:
            continue
        return [Finding(
            category=CONFIG,
            title=f"{file.name}:{number} merges {opened['file']} after the command line's arguments, so the file "
                  f"wins: the run asked its `{key}`, the step {step} server, not the step {newest_step} one",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()), used_line, newest_line],
            cause=f"In `{line.strip()}` the dict written last wins for every key both give, and `{name}` (read from "
                  f"{opened['file']}) comes last: a `--{key.replace('_', '-')}` given on the command line is replaced "
                  f"by the file's `{key}` ({settings[key]}), the server of step {step}. The step {newest_step} server "
                  "got no request; every command exits 0, and the rewards are the other checkpoint's.",
            fix=f"Put the command line last in {file.name}:{number}: `{{**{name}, **{match['first'].strip()}}}`, so "
                f"its arguments override {opened['file']} (only those given: drop the `None`s first); then collect "
                "again against the server meant, on a clean output path, and profile.",
        )]
    return []
