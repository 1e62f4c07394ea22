"""Step 3: a flag a user's Python script never sees, because it parses with argparse's `parse_known_args`.

A driver that takes "what it knows and ignores the rest" (so that one shared flag set can be passed to every tool)
parses with `parser.parse_known_args()`: a flag it does not declare is handed back unread, with no error. A flag
spelt otherwise than the one declared (`--model_url` for `--model-url`) is then dropped, the option keeps its
default (another server, another dataset) and the run exits 0. Named from the declaration and the line passing it.
"""

from __future__ import annotations

import difflib
import re
from pathlib import PurePosixPath

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import CONFIG

_KNOWN_ARGS = re.compile(r"\.parse_known_args\(")
_DECLARED = re.compile(r"add_argument\(\s*[\"'](?P<flag>--[\w-]+)[\"'](?P<rest>[^\n]*)")
_DEFAULT = re.compile(r"\bdefault\s*=\s*(?P<value>\"[^\"]*\"|'[^']*'|[^,)\s]+)")
_GIVEN = re.compile(r"(?<![\w-])(--[A-Za-z][\w-]*)")
CLOSE_SPELLING = 0.85  # difflib's ratio between a flag given and one declared: `--modelurl` for `--model-url`


def _meant(given: str, declared: dict[str, tuple[int, str]]) -> str | None:
    """The declared flag `given` was meant to be, when it is that flag spelt otherwise."""
    if any(flag.startswith(given) for flag in declared):
        return None  # argparse takes an unambiguous prefix as the flag it begins
    for flag in declared:
        if given.replace("_", "-").lower() == flag.replace("_", "-").lower() \
                or difflib.SequenceMatcher(None, given, flag).ratio() >= CLOSE_SPELLING:
            return flag
    return None


def rule_flag_ignored_by_parse_known_args(ev: Evidence) -> list[Finding]:
    for script in (file for file in ev.user_files if file.name.endswith(".py") and _KNOWN_ARGS.search(file.text)):
        declared = {match["flag"]: (number, line.strip())
                    for number, line in enumerate(script.text.splitlines(), start=1)
                    if (match := _DECLARED.search(line))}
        called = re.compile(rf"\b{re.escape(PurePosixPath(script.name).name)}\b(?P<arguments>[^\n#]*)")
        for file, number, line, match in lines_matching(ev.user_files, called):
            if file is script:
                continue
            for given in _GIVEN.findall(match["arguments"]):
                if given in declared or (meant := _meant(given, declared)) is None:
                    continue
                declared_at, declaration = declared[meant]
                default = _DEFAULT.search(declaration)
                kept = f" its default {default['value']}" if default else " its default"
                known_args = next(n for n, text in enumerate(script.text.splitlines(), start=1)
                                  if _KNOWN_ARGS.search(text))
                return [Finding(
                    category=CONFIG,
                    title=f"{file.name}:{number} passes `{given}`, which {script.name} does not declare (it declares "
                          f"`{meant}`, line {declared_at}) and `parse_known_args` ignores: {meant} kept{kept}",
                    evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                              EvidenceLine(file=script.name, line=declared_at, text=declaration),
                              EvidenceLine(file=script.name, line=known_args,
                                           text=script.text.splitlines()[known_args - 1].strip())],
                    cause=f"{script.name} parses its flags with `parse_known_args`, which hands back the flags it "
                          f"does not declare instead of refusing them. `{given}` is not `{meant}`, so its value went "
                          f"unread and {meant} kept{kept}: the run used that, with no error, and exited 0.",
                    fix=f"Pass `{meant}` in {file.name}:{number} (the flag {script.name} declares) instead of "
                        f"`{given}`, and make "
                        f"{script.name} refuse what it does not know: `parse_args()` instead of `parse_known_args()` "
                        "(or fail when the list of unknown flags it returns is not empty); then run again.",
                )]
    return []
