"""Step 3: a command-line flag a user's Python script declares with argparse `type=bool`, given `False` by a script.

`parser.add_argument("--smoke", type=bool)` converts the text it is given with `bool()`, and every non-empty text is
true: `--smoke False` (written to be explicit) turns the option on. The eval then runs what the option selects (a
smoke subset, a debug mode) and exits 0. Named from the declaration and the line that passes the false-looking value.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import CONFIG

_DECLARED_AS_BOOL = re.compile(r"add_argument\(\s*[\"'](?P<flag>--[\w-]+)[\"'][^\n]*\btype\s*=\s*bool\b")
_FALSE_WORDS = r"(?:False|false|FALSE|0|no|No|off|Off)"


def rule_false_given_to_an_option_read_with_bool(ev: Evidence) -> list[Finding]:
    for declared_in, declared_at, declaration, match in lines_matching(ev.user_files, _DECLARED_AS_BOOL, {".py"}):
        flag = match["flag"]
        given = re.compile(rf"{re.escape(flag)}(?:=|\s+)[\"']?(?:(?P<value>{_FALSE_WORDS})\b|\$\{{?(?P<variable>\w+)\}}?)")
        for file, number, line, found in lines_matching(ev.user_files, given):
            if file is declared_in:
                continue
            value = {"value": found["value"] or _false_assigned(file.text, found["variable"])}
            if value["value"] is None:
                continue  # a variable that is not set false in the script
            return [Finding(
                category=CONFIG,
                title=f"{file.name}:{number} passes `{flag} {value['value']}`, which {declared_in.name}:{declared_at} "
                      f"reads with argparse `type=bool`: bool('{value['value']}') is True, so {flag} was on",
                evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                          EvidenceLine(file=declared_in.name, line=declared_at, text=declaration.strip())],
                cause=f"argparse converts an option's text with its `type`, and `bool()` of any non-empty text is "
                      f"True: `{flag} {value['value']}` turns the option on. The run did what {flag} selects and "
                      "exited 0 as if nothing were wrong.",
                fix=f"Declare {flag} in {declared_in.name}:{declared_at} as a switch, `action=\"store_true\"` instead of "
                    f"`type=bool` (or "
                    f"`argparse.BooleanOptionalAction` for `--no-{flag[2:]}`), and in {file.name}:{number} leave the "
                    f"flag out to keep it off (`{flag} {value['value']}` turns it on); then run the eval again.",
            )]
    return []


def _false_assigned(text: str, variable: str | None) -> str | None:
    """The false-looking value a script assigns to `variable` (`SMOKE_ONLY=false`), if it does."""
    if variable is None:
        return None
    assigned = re.search(rf"^\s*(?:export\s+)?{variable}=[\"']?(?P<value>{_FALSE_WORDS})[\"']?\s*(?:#.*)?$", text, re.M)
    return assigned["value"] if assigned else None


# `add_argument("--data", action="append", default=["smoke.jsonl"])`: a list the given values are appended to
_APPENDED_TO_A_DEFAULT = re.compile(r"add_argument\(\s*[\"'](?P<flag>--[\w-]+)[\"'][^\n]*\baction\s*=\s*[\"']append[\"']"
                                    r"[^\n]*\bdefault\s*=\s*(?P<default>\[[^\]\n]+\])"
                                    r"|add_argument\(\s*[\"'](?P<flag2>--[\w-]+)[\"'][^\n]*\bdefault\s*=\s*"
                                    r"(?P<default2>\[[^\]\n]+\])[^\n]*\baction\s*=\s*[\"']append[\"']")


def rule_option_appended_to_its_default(ev: Evidence) -> list[Finding]:
    for declared_in, declared_at, declaration, match in lines_matching(ev.user_files, _APPENDED_TO_A_DEFAULT, {".py"}):
        flag, default = match["flag"] or match["flag2"], match["default"] or match["default2"]
        given = re.compile(rf"{re.escape(flag)}(?:=|\s+)(?P<value>[^\s;|&]+)")
        for file, number, line, value in lines_matching(ev.user_files, given):
            if file is declared_in:
                continue
            return [Finding(
                category=CONFIG,
                title=f"{file.name}:{number} gives `{flag} {value['value']}`, which {declared_in.name}:{declared_at} "
                      f"appends to its default {default} (`action=\"append\"`): the run took both",
                evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                          EvidenceLine(file=declared_in.name, line=declared_at, text=declaration.strip())],
                cause=f"argparse's `action=\"append\"` adds each value given to the option's default list instead of "
                      f"replacing it: `{flag} {value['value']}` made the list {default[:-1]}, '{value['value']}'], so the "
                      f"run covered the default's entries as well as {value['value']}, and every command exited 0.",
                fix=f"In {declared_in.name}:{declared_at}, give `{flag}` no list default (`default=None`, then use "
                    f"{default} only when nothing was given: `args.{flag[2:].replace('-', '_')} or {default}`), or "
                    f"drop `default={default}` with `action=\"append\"`; then run the eval again.",
            )]
    return []


# `add_argument("--smoke", action="store_true", default=True)`: a switch that can never be off
_ALWAYS_ON = re.compile(r"add_argument\(\s*[\"'](?P<flag>--[\w-]+)[\"'][^\n]*(?:\baction\s*=\s*[\"']store_true[\"'][^\n]*"
                        r"\bdefault\s*=\s*True\b|\bdefault\s*=\s*True\b[^\n]*\baction\s*=\s*[\"']store_true[\"'])")


def rule_switch_that_is_always_on(ev: Evidence) -> list[Finding]:
    for file, number, line, match in lines_matching(ev.user_files, _ALWAYS_ON, {".py"}):
        flag = match["flag"]
        return [Finding(
            category=CONFIG,
            title=f"{file.name}:{number} declares {flag} with `action=\"store_true\"` and `default=True`: the switch "
                  "is on whether it is given or not",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip())],
            cause=f"`store_true` sets the option to True when it is given and leaves its default otherwise; with "
                  f"`default=True` (left from debugging) {flag} is True in every run, so every run does what {flag} "
                  "selects (a smoke subset, a debug mode) and exits 0.",
            fix=f"In {file.name}:{number}, drop `default=True` from {flag} (a `store_true` switch defaults to False), "
                f"or declare it with `argparse.BooleanOptionalAction` to have `--no-{flag[2:]}`; then run the eval "
                "again.",
        )]
    return []
