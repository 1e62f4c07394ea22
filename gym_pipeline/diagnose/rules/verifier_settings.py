"""Step 6: a verifier that reads a yes/no setting from the environment with `bool()`, given "false".

`bool(os.environ.get("VERIFIER_CASE_SENSITIVE", ""))` is True for every non-empty text, `"false"`, `"0"` and `"no"`
included: a settings file that turns the option off (`VERIFIER_CASE_SENSITIVE=false`) turns it on, and the verifier
scores otherwise than the team meant (case by case, strictly) while every command exits 0. Named when a verifier of
the folder converts an environment variable with `bool()` and a settings file or script of the folder sets that
variable to a text meaning no.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import VERIFIER_RUNTIME

_BOOL_OF_VARIABLE = re.compile(r"\bbool\(\s*os\.(?:environ\.get|getenv)\(\s*[\"'](?P<name>\w+)[\"']"
                               r"|\bbool\(\s*os\.environ\[\s*[\"'](?P<indexed>\w+)[\"']\s*\]")
_MEANS_NO = r"(?:false|False|FALSE|0|no|No|NO|off|Off|OFF)"


def rule_yes_no_setting_read_with_bool(ev: Evidence) -> list[Finding]:
    if not ev.artifacts.quality.zero_rewards:
        return []  # every answer passed: the setting, however read, cost nothing
    for verifier, number, line in ev.verifier_lines:
        if not (read := _BOOL_OF_VARIABLE.search(line)):
            continue
        name = read["name"] or read["indexed"]
        setting = re.compile(rf"^\s*(?:export\s+)?{name}\s*=\s*[\"']?{_MEANS_NO}[\"']?\s*(?:#.*)?$")
        given = next(lines_matching(ev.user_files, setting), None)
        if given is None:
            continue
        file, given_number, given_line, _ = given
        value = given_line.split("=", 1)[1].split("#", 1)[0].strip().strip("\"'")
        return [Finding(
            category=VERIFIER_RUNTIME,
            title=f"{verifier}:{number} reads {name} with `bool()`, so the `{name}={value}` of "
                  f"{file.name}:{given_number} turns the option on",
            evidence=[EvidenceLine(file=verifier, line=number, text=line.strip()),
                      EvidenceLine(file=file.name, line=given_number, text=given_line.strip())],
            cause=f"`bool()` of a text is True for every non-empty text: `bool(\"{value}\")` is True. The "
                  f"setting meant to turn {name} off turned it on, and the verifier scored with it on (every "
                  "answer it should have accepted otherwise scored 0), while every command exited 0.",
            fix=f"In {verifier}:{number}, parse the text instead of `bool(`: `os.environ.get(\"{name}\", \"\")"
                ".strip().lower() in (\"1\", \"true\", \"yes\", \"on\")`; then score the stored answers again "
                "(`gym-pipeline reverify`) and profile.",
        )]
    return []
