"""Step 1: a value a command refused, traced back to the line of the user's script that made it.

- `read -r REPEATS CONCURRENCY < eval_settings.txt`, written for a line `3 4`, over a file a teammate rewrote as
  `num_repeats=3 concurrency=4`: read splits the line at blanks, so REPEATS holds `num_repeats=3`, and the command it
  is given to refuses it (`--num-repeats: must be an integer >= 1, got 'num_repeats=3'`).
- `REPEATS=$(expr $BASE * 2)`: the unquoted `*` is a shell glob, expanded to the folder's file names before expr runs
  (`expr: syntax error: unexpected argument 'logs'`), so REPEATS is empty and the option after `--num-repeats` is
  taken for its value.
- `SPLITS=data/{easy,hard}.jsonl`, then `cat $SPLITS`: bash expands braces in words of a command, not in an
  assignment nor in a variable's value, so the command looks for a file literally named `data/{easy,hard}.jsonl`
  (`cat: data/{easy,hard}.jsonl: No such file or directory`) and what it builds is empty.

- `REPEATS=$(jq -r .repeats eval_settings.json)` over a file whose key is `num_repeats`: jq prints `null` for a key
  that is not there and exits 0, and the command given `--num-repeats null` takes it as unset (its default).

All are the script's settings not reaching the run (config).
"""

from __future__ import annotations

import json
import re
from difflib import get_close_matches
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.vocabulary import CONFIG

# argparse's words for a refused value: `argument --num-repeats: must be an integer >= 1, got 'num_repeats=3'`
REFUSED_VALUE = re.compile(r"argument (?P<option>--[\w-]+): [^\n]*?got '(?P<value>[^']*)'")
_READ_FROM = re.compile(r"^\s*read\s+(?:-\w+\s+)*(?P<names>[A-Za-z_]\w*(?:\s+[A-Za-z_]\w*)*)\s*<\s*[\"']?"
                        r"(?P<file>[^\s\"'|;&]+)")
_EXPR_STAR = re.compile(r"\bexpr\b[^)\n]*?\s\*\s")
_EXPR_FAILED = re.compile(r"^expr: syntax error.*$", re.M)
# `NAME=$(jq -r .key file)`, `NAME=$(jq -r '.a.b' < file)`
_JQ_READ = re.compile(r"^\s*(?:export\s+|local\s+)?(?P<name>[A-Za-z_]\w*)=[\"']?\$\(\s*(?P<jq>jq\s+(?:-\w+\s+)*)[\"']?"
                      r"(?P<path>(?:\.[A-Za-z_]\w*)+)[\"']?\s+<?\s*[\"']?(?P<file>[^\s\"')]+\.json)")
# a path with a brace pattern a command did not find: `cat: data/{easy,hard}.jsonl: No such file or directory`
_BRACES_NOT_FOUND = re.compile(r"^(?:[\w.-]+: )+(?:cannot (?:access|open|stat) )?['\"]?(?P<path>[^\s'\"]*\{[^{}\s]*,"
                               r"[^{}\s]*\}[^\s'\":]*)['\"]?: No such file or directory", re.M)


def rule_read_split_a_settings_line_of_another_form(ev: Evidence) -> list[Finding]:
    for log, text in ev.log_heads:
        for refused in REFUSED_VALUE.finditer(text):
            if "=" not in refused["value"]:
                continue
            for script in ev.user_files:
                lines = script.text.splitlines()
                passed = re.search(rf"{re.escape(refused['option'])}[= ]\"?\$\{{?(?P<name>[A-Za-z_]\w*)", script.text)
                if passed is None:
                    continue
                read = next(((number, line.split("#", 1)[0].strip(), match) for number, line in enumerate(lines, 1)
                             if (match := _READ_FROM.match(line)) and passed["name"] in match["names"].split()), None)
                if read is None:
                    continue
                number, line, match = read
                source = Path(match["file"]).name
                return [Finding(
                    category=CONFIG,
                    title=f"{script.name}:{number} reads {passed['name']} with `read` from {source}, whose line is now "
                          f"`key=value` pairs: {refused['option']} got {refused['value']!r}",
                    evidence=[EvidenceLine(file=script.name, line=number, text=line),
                              EvidenceLine(file=ev.rel(log), line=text.count("\n", 0, refused.start()) + 1,
                                           text=text[text.rfind("\n", 0, refused.start()) + 1:refused.end()].strip())],
                    cause=f"`{line}` splits the first line of {source} at blanks into {match['names']}: written for "
                          f"bare values (`3 4`), it now meets `{refused['value']} ...` (the file was rewritten as "
                          f"key=value settings), so {passed['name']} holds the text {refused['value']!r} and the "
                          f"command given `{refused['option']} ${passed['name']}` refused it.",
                    fix=f"Make {source} and {script.name} agree: write {source} back as the bare values `read` "
                        f"expects (not `{refused['value']} ...`), or read it as settings (NAME=value lines, `source {source}`, with the script's "
                        f"variable names), and check each value before use (`: \"${{{passed['name']}:?}}\"`); then run "
                        "again.",
                )]
    return []


def rule_expr_star_expanded_by_the_shell(ev: Evidence) -> list[Finding]:
    said = next(((log, text, match) for log, text in ev.log_heads if (match := _EXPR_FAILED.search(text))), None)
    if said is None:
        return []
    log, text, failed = said
    for script in ev.user_files:
        for number, line in enumerate(script.text.splitlines(), 1):
            if line.lstrip().startswith("#") or not _EXPR_STAR.search(line):
                continue
            return [Finding(
                category=CONFIG,
                title=f"{script.name}:{number} multiplies with an unquoted `*` in expr: the shell expanded it to the "
                      "folder's file names, expr failed, and the value is empty",
                evidence=[EvidenceLine(file=script.name, line=number, text=line.strip()),
                          EvidenceLine(file=ev.rel(log), line=text.count("\n", 0, failed.start()) + 1,
                                       text=failed[0].strip())],
                cause="An unquoted `*` is a glob: before expr runs, the shell replaces it with the names of the files "
                      "in the current folder, so expr meets a file name where it expects an operator (`syntax error`) "
                      "and prints nothing. The variable set from it is empty, and the command given it next takes "
                      "its following option for the value.",
                fix=f"In {script.name}:{number}, escape the star for expr (`expr $A \\* 2`) or use the shell's own "
                    "arithmetic (`$((A * 2))`); then run again.",
            )]
    return []


def rule_brace_pattern_kept_in_a_variable(ev: Evidence) -> list[Finding]:
    said = next(((log, text, match) for log, text in ev.log_heads if (match := _BRACES_NOT_FOUND.search(text))), None)
    if said is None:
        return []
    log, text, missing = said
    for script in ev.user_files:
        for number, line in enumerate(script.text.splitlines(), 1):
            assigned = re.match(r"^\s*(?:export\s+|local\s+)?(?P<name>[A-Za-z_]\w*)=[\"']?(?P<value>[^\s\"'(]+)", line)
            if assigned is None or assigned["value"] != missing["path"]:
                continue
            name, pattern = assigned["name"], missing["path"]
            return [Finding(
                category=CONFIG,
                title=f"{script.name}:{number} keeps the brace pattern {pattern} in {name}: the shell never expanded "
                      f"it, and the command given ${name} found no such file",
                evidence=[EvidenceLine(file=script.name, line=number, text=line.strip()),
                          EvidenceLine(file=ev.rel(log), line=text.count("\n", 0, missing.start()) + 1,
                                       text=missing[0].strip())],
                cause=f"bash expands braces (`{{easy,hard}}`) only in the words of a command, never in an assignment "
                      f"nor in a variable's value: {name} holds the text `{pattern}`, and the command given ${name} "
                      "looked for one file of that literal name. It did not exist, so what the command was to build "
                      "is empty or partial, and the run went on with it.",
                fix=f"In {script.name}:{number}, let the shell expand the pattern into an array "
                    f"(`{name}=({pattern})`, used as `\"${{{name}[@]}}\"`), or list the files, or use a glob the "
                    "command line expands; stop on a missing file (`set -euo pipefail`); then build the data again "
                    "and run.",
            )]
    return []


def rule_jq_key_not_in_the_settings(ev: Evidence) -> list[Finding]:
    for script in ev.user_files:
        for number, line in enumerate(script.text.splitlines(), 1):
            read = _JQ_READ.match(line)
            if read is None or (settings := _json_object(ev.run_dir / read["file"])) is None:
                continue
            keys = read["path"].strip(".").split(".")
            if (missing := _first_missing_key(settings, keys)) is None:
                continue
            depth, level = missing
            key = keys[depth]
            close = get_close_matches(key, level, n=1, cutoff=0.5) or [k for k in level if key in k][:1]
            meant = f"; its key is `{close[0]}`" if close else ""
            name, file, path = read["name"], Path(read["file"]).name, read["path"]
            used = re.search(rf"(?P<option>--[\w-]+)[= ]\"?\${{?{name}\b", script.text)
            given = f" `{used['option']} null`" if used else " null"
            return [Finding(
                category=CONFIG,
                title=f"{script.name}:{number} reads {name} with `jq {path}` from {file}, which has no such key"
                      f"{meant}: {name} is `null`",
                evidence=[EvidenceLine(file=script.name, line=number, text=line.strip())],
                cause=f"jq prints `null` for a key that is not there, and exits 0: {name} holds the text `null`, and "
                      f"the command was given{given}, which it took as unset (its default) or refused. {file} "
                      f"has no `{'.'.join(keys[:depth + 1])}`{meant}.",
                fix=f"In {script.name}:{number}, read the key {file} has (`{read['jq'].strip()} "
                    f".{close[0] if close else key}`, not `{read['jq'].strip()} {path}`), "
                    f"and make a missing key fail instead of printing null (`jq -re ...`, or "
                    f"`: \"${{{name}:?}}\"` with `set -e`); then run again.",
            )]
    return []


def _first_missing_key(settings: dict, keys: list[str]) -> tuple[int, dict] | None:
    """(index in `keys`, the object that lacks it) of the first key of the path not there; None when all are."""
    found: object = settings
    for depth, key in enumerate(keys):
        if not isinstance(found, dict) or key not in found:
            return depth, found if isinstance(found, dict) else {}
        found = found[key]
    return None


def _json_object(path: Path) -> dict | None:
    try:
        loaded = json.loads(path.read_text()) if path.is_file() and path.stat().st_size < 1 << 20 else None
    except (OSError, ValueError):
        return None
    return loaded if isinstance(loaded, dict) else None
