"""Settings a user's script reads out of a settings file with text tools (grep, cut, awk), which read otherwise.

- `grep KEY file | head -1` on a file whose first line with KEY is a comment (`# num_repeats: 1  <- smoke test`),
  or `| tail -1` where the last one is (`# for a quick smoke test use: num_repeats = 1`): the script takes the
  commented value.
- `grep '^concurrency' eval.conf | cut -d: -f2` on a line with a comment after its value (`concurrency: 4  # the
  server has 4 slots`): the value keeps the comment, and `--concurrency $CONC` passes its words as arguments of
  their own (`#` then reaches Gym's config loader, which cannot parse it).

- A script reading `${NUM_REPEATS:-1}` after sourcing a settings file that sets `num_repeats=4`: shell names are
  case-sensitive, so the setting is never read and the default runs.

All are config causes: the settings the file holds are not the ones that reached the run.
"""

from __future__ import annotations

import re
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import PRINTS, SCRIPT_SUFFIXES, UserFile, lines_matching
from gym_pipeline.diagnose.vocabulary import CONFIG

# `grep num_repeats eval.cfg | head -1` (or `| tail -1`): a first (last) match that may be a comment (no `^` anchor,
# no `-v '^#'`); the key may be a shell function's argument (`setting() { grep "$1" eval.ini | tail -1 ...; }`)
_GREPPED_SETTING = re.compile(r"\bgrep\s+(?:-\w+\s+)*[\"']?(?P<key>\$\d|[\w.-]+)[\"']?\s+(?P<file>[\w./-]+)\s*\|\s*"
                              r"(?P<end>head|tail)\s+-(?:n\s*)?1\b")
_FUNCTION = re.compile(r"^\s*(?:function\s+)?(?P<name>[A-Za-z_]\w*)\s*\(\)\s*\{")


def _keys_grepped(file: UserFile, number: int, key: str) -> list[str]:
    """The setting names a grep looks for: its own word, or, for a function's argument (`$1`), the first words the
    function is called with (`$(setting num_repeats)`)."""
    if not key.startswith("$"):
        return [key]
    lines = file.text.splitlines()
    function = next((m["name"] for text in reversed(lines[:number]) if (m := _FUNCTION.match(text))), None)
    if function is None:
        return []
    return list(dict.fromkeys(re.findall(rf"\b{function}\s+[\"']?([\w.-]+)", file.text)))


def _setting_grepped_from_a_comment(ev: Evidence) -> Finding | None:
    by_name = {Path(file.name).name: file for file in ev.user_files}
    for file, number, line, grep in lines_matching(ev.user_files, _GREPPED_SETTING, SCRIPT_SUFFIXES):
        settings = by_name.get(Path(grep["file"]).name)
        if settings is None:
            continue
        for key in _keys_grepped(file, number, grep["key"]):
            matches = [(n, text) for n, text in enumerate(settings.text.splitlines(), 1) if key in text]
            if len(matches) < 2:
                continue
            taken = matches[0] if grep["end"] == "head" else matches[-1]
            if not taken[1].lstrip().startswith("#"):
                continue
            meant = next(((n, text) for n, text in matches if not text.lstrip().startswith("#")), None)
            if meant is None:
                continue
            which = "first" if grep["end"] == "head" else "last"
            return Finding(
                category=CONFIG,
                title=f"{file.name}:{number} reads {key} with `grep ... | {grep['end']} -1`, and the {which} line of "
                      f"{settings.name} with it is a comment",
                evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                          EvidenceLine(file=settings.name, line=taken[0], text=taken[1].strip()),
                          EvidenceLine(file=settings.name, line=meant[0], text=meant[1].strip())],
                cause=f"grep matches {key} inside comments too, and `{grep['end']} -1` keeps the {which} match: line "
                      f"{taken[0]} of {settings.name}, `{taken[1].strip()}`, a comment, not line {meant[0]} "
                      f"(`{meant[1].strip()}`). The run used the commented value, without an error.",
                fix=f"In {file.name}, skip comments when reading {settings.name}: `grep '^{key}' {grep['file']}` "
                    f"(or `grep -v '^\\s*#' {grep['file']} | grep {key}`), or read it with a parser of that format; "
                    "print the values used, then run again.",
            )
    return None


# `CONC=$(grep '^concurrency' eval.conf | cut -d: -f2)`: a value cut out of its line with whatever follows it
_CUT_SETTING = re.compile(r"^\s*(?:export\s+)?(?P<name>[A-Za-z_]\w*)=\$\(\s*grep\s+(?:-\w+\s+)*[\"']?\^?(?P<key>[\w.-]+)"
                          r"[\"']?\s+(?P<file>[\w./-]+)\s*\|(?P<rest>[^)]*)\)")
_INLINE_COMMENT = re.compile(r"\S\s+#")


def rule_settings_read_with_text_tools(ev: Evidence) -> list[Finding]:
    for finding in (_setting_grepped_from_a_comment(ev), _inline_comment_kept(ev), _setting_in_other_case(ev)):
        if finding is not None:
            return [finding]
    return []


def _inline_comment_kept(ev: Evidence) -> Finding | None:
    by_name = {Path(file.name).name: file for file in ev.user_files}
    for file, number, line, cut in lines_matching(ev.user_files, _CUT_SETTING, SCRIPT_SUFFIXES):
        settings = by_name.get(Path(cut["file"]).name)
        if settings is None or "#" in cut["rest"]:  # no file to read, or the pipeline takes comments off
            continue
        setting = next(((n, text) for n, text in enumerate(settings.text.splitlines(), 1)
                        if text.startswith(cut["key"]) and _INLINE_COMMENT.search(text)), None)
        name = cut["name"]
        used = next(lines_matching([file], re.compile(rf"--[\w-]+[= ]\$\{{?{name}\b")), None)
        if setting is None or used is None:
            continue
        return Finding(
            category=CONFIG,
            title=f"{file.name}:{number} reads {cut['key']} with `{cut['rest'].strip()}`, which keeps the comment "
                  f"after the value in {settings.name}:{setting[0]}",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                      EvidenceLine(file=settings.name, line=setting[0], text=setting[1].strip()),
                      EvidenceLine(file=file.name, line=used[1], text=used[2].strip())],
            cause=f"`{cut['rest'].strip()}` keeps everything after the separator, the comment too, so ${name} is "
                  f"`{setting[1].split(':', 1)[-1].strip()}`; unquoted in `{used[3].group(0)}` its words are "
                  "arguments of their own, and the command (Gym's config loader for `#`) refused them or read them "
                  "as something else.",
            fix=f"In {file.name}, take the comment off when reading {settings.name}: `grep '^{cut['key']}' "
                f"{cut['file']} | cut -d: -f2 | sed 's/#.*//' | tr -d ' '` (or read it with a parser of that format: "
                f"`yq .{cut['key']} {cut['file']}`), or move the comment to a line of its own; then run again.",
        )
    return None


_SOURCED = re.compile(r"^\s*(?:source|\.)\s+(?P<path>[\w./-]+)")
_DEFAULTED = re.compile(r"\$\{(?P<name>[A-Za-z_]\w*):?-(?P<default>[^}]*)\}")
_ASSIGNS = re.compile(r"^\s*(?:export\s+)?(?P<name>[A-Za-z_]\w*)=(?P<value>\S*)")


def _setting_in_other_case(ev: Evidence) -> Finding | None:
    by_name = {Path(file.name).name: file for file in ev.user_files}
    for file, number, _, sourced in lines_matching(ev.user_files, _SOURCED, SCRIPT_SUFFIXES):
        settings = by_name.get(Path(sourced["path"]).name)
        if settings is None:
            continue
        assigned = {m["name"]: (n, text.strip(), m["value"]) for n, text in enumerate(settings.text.splitlines(), 1)
                    if (m := _ASSIGNS.match(text))}
        uses = [(n, text, m) for n, text in enumerate(file.text.splitlines(), 1) if n > number
                for m in _DEFAULTED.finditer(text)]
        # a command's use before an `echo` of the value
        for used_at, used_line, used in sorted(uses, key=lambda use: bool(PRINTS.match(use[1]))):
            name = used["name"]
            other = next((key for key in assigned if key != name and key.lower() == name.lower()), None)
            if name in assigned or other is None:
                continue
            at, text, value = assigned[other]
            return Finding(
                category=CONFIG,
                title=f"{settings.name} sets {other}, and {file.name} reads {name}: the run used the default, "
                      f"{used['default']}, not {value}",
                evidence=[EvidenceLine(file=settings.name, line=at, text=text),
                          EvidenceLine(file=file.name, line=used_at, text=used_line.strip())],
                cause=f"Shell variable names are case-sensitive: `{text}` in {settings.name} sets {other}, a variable "
                      f"{file.name} never reads, and `{used.group(0)}` found {name} unset and took its default, "
                      f"{used['default']}. Nothing failed; the run had other settings than the file says.",
                fix=f"Write the name as the script reads it, `{name}={value}`, in {settings.name} (not `{text}`), or "
                    f"read `${other}` in {file.name}; then run again.",
            )
    return None
