"""Shell mistakes in the user's own scripts that run without an error and change what the run does.

- `... | while read key value; do VAR=...; done`: each part of a pipeline runs in a subshell of its own, so what the
  loop sets is gone after it, and the script goes on with the values from before.
- Options parsed from the command line, then a settings file sourced that sets the same variables unconditionally
  (`REPEATS=1`, not `: "${REPEATS:=1}"`): the file's values replace what the caller asked for.

- A settings file of plain assignments (`REPEATS=3`, no `export`) sourced by a script that then runs its steps as
  child scripts (`bash steps/materialize.sh`): a child shell gets only exported variables, so its `${REPEATS:-1}`
  takes the default.

- `REPEATS = 5` in a file the shell reads (`.env`, `.sh`): with spaces around `=` it is no assignment but a command
  named REPEATS (`REPEATS: command not found`), so the variable keeps its default.

- `[[ $REPEATS < 4 ]]`: inside [[ ]], `<` compares text, so 10 < 4 holds and a floor of 4 repeats cuts 10 to 4.
- A settings file that ends with `exit 0` (a standalone script turned into one), sourced: exit in a sourced file
  ends the shell that sources it, so nothing after the `source` line runs, and the script exits 0.

- `#SBATCH` lines after the first command of a batch script: sbatch reads directives only up to the first line that
  is not a comment, so the job runs without them (no `--array`: one task; no `--time`, `--mem`: the defaults).

- A bash array named without an index (`for split in $SPLITS` for `SPLITS=(dev test)`): it expands to its first
  element only, so the loop runs once.
- A table of values by key (`DATA[dev]=...`, `DATA[test]=...`) without `declare -A DATA`: an indexed array, whose
  word subscripts are arithmetic and all 0, so the last assignment is every key's value.
- An array passed as `"${ARGS[*]}"`: quoted with `*` it is one word, so the options in it reach the command as a
  single argument (`unrecognized arguments: --num-repeats 3 --concurrency 4`).
- A script called with an argument its `case` matches only in other letter case (`run_eval.sh Test` for a `test)`
  branch): it falls to the `*)` default branch, and the run does what the default does.
- `getopts "rc:"` with a branch `r) REPEATS=$OPTARG`: without its colon, `-r` takes no value, OPTARG is empty, and
  the value given after `-r` ends the options (it becomes the first positional argument).
- `set -o noclobber` (often in a sourced settings file) and then `> file` onto a file that exists: bash refuses the
  redirect and goes on, so the file keeps last run's content (a cache_resume cause: the run used stale data).
- A count taken with `$(wc -l file)` (no `<`): wc prints the count and the file's name, so `--limit $N` passes two
  words, the name becoming an argument of its own (an override Hydra cannot parse, a file where a number belongs).
- A `--limit` taken from `wc -l < data.jsonl` of a file whose last row has no newline after it (many export tools
  write none): wc counts newlines, so the limit is one short and the last task is never evaluated.
- A shell function called with two arguments in each other's place: `eval_split tasks.jsonl $CONCURRENCY $REPEATS`
  for `eval_split() { local input=$1 repeats=$2 concurrency=$3; ... }`. Nothing checks a function's arguments.
- `exec gym-pipeline collect ...` before the script's other lines (copied from a container entrypoint): exec replaces
  the shell with the command, so nothing after it runs (the profile is never made) and the script exits 0.

Tests that are always true are in `shell_tests.py`. Each but the last is a config cause: the script's settings are not the ones that reached the run. All of them exit 0.
"""

from __future__ import annotations

import re
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import (
    MODEL_SERVER_COMMAND,
    PRINTS,
    UserFile,
    assignment_of,
    joined_commands,
    lines_matching,
    loop_body,
)
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME, CONFIG, MODEL_SERVING

_SHELL = {".sh", ".bash", ".sbatch"}
_SOURCED = _SHELL | {".env"}


def shell_files(ev: Evidence, suffixes: set[str] = _SHELL) -> list[UserFile]:
    """The user's shell scripts: by suffix, or without one when a `#!` line names a shell (not a Makefile)."""
    return [file for file in ev.user_files if file.suffix in suffixes
            or (file.suffix == "" and re.match(r"#!\S*(?:ba|z|da)?sh\b|#!/usr/bin/env (?:ba|z)?sh\b", file.text))]
# `NAME = value`, `NAME= value`, `NAME =value`: a command named NAME, not an assignment
_SPACED_ASSIGNMENT = re.compile(r"^\s*(?:export\s+)?(?P<name>[A-Z_][A-Z0-9_]*)(?:\s+=\s*|=\s+)\S")
_PIPED_LOOP = re.compile(r"\|\s*while\s+(?:IFS=\S*\s+)?read\b")
_SETS_VARIABLE = re.compile(r"^\s*(?:declare|export|eval|typeset|readonly|local)\b|^\s*[A-Za-z_]\w*=|\bprintf\s+-v\b")
_CASE_ASSIGNMENT = re.compile(r"^\s*--?[\w-]+\)\s*(?P<name>[A-Za-z_]\w*)=")
_SOURCE = re.compile(r"^\s*(?:source|\.)\s+(?P<path>\S+)")
_UNCONDITIONAL = r"^\s*(?:export\s+)?{name}=(?!\$\{{{name}:?[-=])"
_FUNCTION = re.compile(r"^\s*(?:function\s+)?(?P<name>[A-Za-z_][\w-]*)\s*\(\)\s*\{?\s*$")
_PARAMETER = re.compile(r"\b(?P<name>[A-Za-z_]\w*)=[\"']?\$\{?(?P<position>[1-9])\}?[\"']?(?=\s|;|$)")
_VARIABLE_ARGUMENT = re.compile(r"[\"']?\$\{?(?P<name>[A-Za-z_]\w*)\}?[\"']?")
_ARRAY = re.compile(r"^\s*(?:(?:declare|typeset|local|readonly)\s+(?:-\w+\s+)*)?(?P<name>[A-Za-z_]\w*)=\((?P<items>[^)]*)\)")
_JOINED_ARRAY = re.compile(r"\"\$\{(?P<name>[A-Za-z_]\w*)\[\*\]\}\"")
_CASE_OF_ARGUMENT = re.compile(r"^\s*case\s+\"?\$\{?(?P<name>\w+)\}?\"?\s+in\b")
_CASE_BRANCH = re.compile(r"^\s*\(?(?P<patterns>[^()#\n]+?)\)")
_CASE_END = re.compile(r"^\s*esac\b")
_GETOPTS = re.compile(r"\bgetopts\s+[\"']?(?P<letters>:?[A-Za-z0-9:]+)[\"']?\s+\w+")
_OPTION_BRANCH = re.compile(r"^\s*\(?(?P<letter>[A-Za-z0-9])\)[^\n]*\$\{?OPTARG\b")
_PARAMETERS_WITHIN = 6  # lines after `name() {` where its `local a=$1 b=$2` are


def rule_shell_pitfalls(ev: Evidence) -> list[Finding]:
    for finding in (_directives_after_a_command(ev), _exec_before_later_commands(ev), _sourced_file_exits(ev),
                    _numbers_compared_as_strings(ev),
                    _spaced_assignment(ev), _loop_in_a_pipeline(ev),
                    _defaults_sourced_after_options(ev), _settings_not_exported(ev), _function_arguments_swapped(ev),
                    _array_without_index(ev), _table_without_declare_a(ev), _array_joined_into_one_word(ev),
                    _argument_in_other_case(ev),
                    _getopts_value_without_colon(ev), _redirect_refused_by_noclobber(ev),
                    _count_with_the_file_name(ev), _count_short_of_an_unterminated_last_row(ev),
                    _prefix_assignment_read_by_its_own_command(ev)):
        if finding is not None:
            return [finding]
    return []


def _directives_after_a_command(ev: Evidence) -> Finding | None:
    for file in shell_files(ev):
        lines = file.text.splitlines()
        first = next((n for n, text in enumerate(lines, 1) if text.strip() and not text.lstrip().startswith("#")), None)
        ignored = [(n, text.strip()) for n, text in enumerate(lines, 1) if first and n > first
                   and text.lstrip().startswith("#SBATCH")]
        if not ignored:
            continue
        return Finding(
            category=CONFIG,
            title=f"{file.name} has {len(ignored)} #SBATCH lines after its first command (line {first}): Slurm ignores "
                  "them",
            evidence=[EvidenceLine(file=file.name, line=first, text=lines[first - 1].strip()),
                      *(EvidenceLine(file=file.name, line=n, text=text) for n, text in ignored[:2])],
            cause="sbatch reads `#SBATCH` directives only up to the first line that is not a comment; after it they "
                  f"are plain comments, so the job ran without {', '.join(text.split()[1] for _, text in ignored[:4])} "
                  "(an array of one task, the partition's default time and memory), and nothing said so.",
            fix=f"Move every `#SBATCH` line of {file.name} above its first command (line {first}: "
                f"`{lines[first - 1].strip()[:60]}`), submit again, and check the job's settings with `scontrol show "
                "job <id>` (the array, time and memory it got).",
        )
    return None


# `exec CMD` at the script's top level (not `exec > log 2>&1`, `exec 3< file`: redirections of the shell itself)
_EXEC_COMMAND = re.compile(r"^exec\s+(?![<>&]|\d+[<>])(?:-\w+\s+)*(?P<command>\S+)(?:\s+(?P<subcommand>[a-z][\w-]*))?")
_BLOCK_END = re.compile(r"^\s*(?:fi|done|esac|\}|\))\b")


def _exec_before_later_commands(ev: Evidence) -> Finding | None:
    for file in shell_files(ev):
        commands = list(joined_commands(file))
        for index, (number, line) in enumerate(commands):
            if not (executed := _EXEC_COMMAND.match(line)):
                continue
            later = next(((n, text.strip()) for n, text in commands[index + 1:]
                          if text.strip() and not text.lstrip().startswith("#") and not _BLOCK_END.match(text)), None)
            if later is None:
                continue  # the script's last command: exec is what it is for
            command = " ".join(filter(None, (Path(executed["command"]).name, executed["subcommand"])))
            # a model server exec'd serves until it is stopped: nothing the eval needs after it ever starts
            serves = bool(MODEL_SERVER_COMMAND.search(line))
            return Finding(
                category=MODEL_SERVING if serves else CONFIG,
                title=f"{file.name}:{number} `exec`s {command}: the shell is replaced by it, so "
                      f"line {later[0]} (`{later[1][:60]}`) and every line after it never ran",
                evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                          EvidenceLine(file=file.name, line=later[0], text=later[1])],
                cause="`exec CMD` does not run CMD and come back: it replaces the script's shell with CMD, so the script "
                      f"ends when CMD does, with CMD's exit status. {file.name} goes on after line {number}, and none of "
                      "it ran (a line copied from a container's entrypoint, where exec belongs on the last command); "
                      "nothing said so."
                      + (" The model server runs until it is stopped (a job's time limit), so the eval that was to "
                         "use it never started." if serves else ""),
                fix=f"Remove `exec` from {file.name}:{number} so the script goes on after that command"
                    + (f" (start the model server in the background, `{command} ... &`, and wait for it to be ready)"
                       if serves else "")
                    + f", then run the lines that never ran (from line {later[0]}: `{later[1][:60]}`).",
            )
    return None


_SOURCES = re.compile(r"^(?:source|\.)\s+[\"']?(?P<path>[^\s\"';&|]+)")
_TOP_LEVEL_EXIT = re.compile(r"^exit(?:\s+(?P<status>\d+))?\s*(?:#.*)?$")


def _sourced_file_exits(ev: Evidence) -> Finding | None:
    """A script that sources a file ending with a top-level `exit` (a standalone script turned into a settings
    file): exit in a sourced file ends the shell that sources it, so nothing after the `source` line runs."""
    files = {Path(file.name).name: file for file in shell_files(ev, _SOURCED)}
    for script in shell_files(ev):
        commands = list(joined_commands(script))
        for index, (number, line) in enumerate(commands):
            sourced = files.get(Path(match["path"]).name) if (match := _SOURCES.match(line)) else None
            if sourced is None or sourced is script:
                continue
            exit_line = next(((n, text.strip()) for n, text in enumerate(sourced.text.splitlines(), 1)
                              if _TOP_LEVEL_EXIT.match(text)), None)
            later = next(((n, text.strip()) for n, text in commands[index + 1:]
                          if text.strip() and not text.lstrip().startswith("#") and not _BLOCK_END.match(text)), None)
            if exit_line is None or later is None:
                continue
            return Finding(
                category=CONFIG,
                title=f"{script.name}:{number} sources {sourced.name}, which ends with `{exit_line[1]}` (line "
                      f"{exit_line[0]}): the script stopped there, and line {later[0]} (`{later[1][:60]}`) and every "
                      "line after it never ran",
                evidence=[EvidenceLine(file=script.name, line=number, text=line.strip()),
                          EvidenceLine(file=sourced.name, line=exit_line[0], text=exit_line[1]),
                          EvidenceLine(file=script.name, line=later[0], text=later[1])],
                cause=f"`source` runs a file in the shell that sources it, so an `exit` in {sourced.name} (a standalone "
                      f"script's last line, kept when it became a settings file) ends {script.name} itself, with that "
                      f"exit's status: none of {script.name} after line {number} ran, and nothing said so.",
                fix=f"Take `{exit_line[1]}` out of {sourced.name} (line {exit_line[0]}; a sourced file ends by reaching "
                    "its end, or with `return`), then run the lines that never ran (from "
                    f"{script.name} line {later[0]}: `{later[1][:60]}`).",
            )
    return None


# `[[ $REPEATS < 4 ]]`: inside [[ ]], `<` and `>` compare strings (in sort order), not numbers
_STRING_ORDER = re.compile(r"\[\[\s*\"?\$\{?(?P<name>[A-Za-z_]\w*)\}?\"?\s*(?P<op>[<>])\s*(?P<number>\d+)\s*\]\]")
_EXPANSION = re.compile(r"\$\{?[A-Za-z_]\w*\}?|\$\([^)]*\)")


def _printed_as(echoed: str, name: str) -> re.Pattern[str]:
    """What `echo "<echoed>"` prints, as a pattern: `name`'s value captured as `value`, other expansions anything."""
    parts, at = [], 0
    for expansion in _EXPANSION.finditer(echoed):
        parts.append(re.escape(echoed[at:expansion.start()]))
        own = re.fullmatch(rf"\$\{{?{name}\}}?", expansion[0]) and "(?P<value>" not in "".join(parts)
        parts.append(r"(?P<value>\d+)" if own else ".*?")
        at = expansion.end()
    return re.compile("".join(parts) + re.escape(echoed[at:]))


def _numbers_compared_as_strings(ev: Evidence) -> Finding | None:
    """A branch taken because `[[ $N < 4 ]]` compared as strings: its own echo, in a log, shows the value it ran on,
    for which the numbers say otherwise (10 < 4 as text, not as a number)."""
    for file in shell_files(ev):
        lines = file.text.splitlines()
        for number, line in enumerate(lines, 1):
            if (test := _STRING_ORDER.search(line)) is None:
                continue
            name, op, bound = test["name"], test["op"], test["number"]
            echo = next((text for text in lines[number:number + 6] if re.search(rf"\becho\b.*\${{?{name}\b", text)),
                        None)
            said = re.search(r"\becho\s+[\"']?(?P<text>[^\"'\n]+)", echo) if echo else None
            if said is None:
                continue
            pattern = _printed_as(said["text"], name)
            ran = next((found for _, head in ev.log_heads if (found := pattern.search(head))
                        and found.groupdict().get("value")), None)
            if ran is None:
                continue
            value = ran["value"]
            as_text = value < bound if op == "<" else value > bound
            as_number = int(value) < int(bound) if op == "<" else int(value) > int(bound)
            if as_text == as_number:
                continue
            numeric = "-lt" if op == "<" else "-gt"
            return Finding(
                category=CONFIG,
                title=f"{file.name}:{number} compares {name} with `{op} {bound}` inside [[ ]], which compares text: "
                      f"{value} {op} {bound} held as text, so the branch ran with {name}={value}",
                evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                          EvidenceLine(file=file.name, line=lines.index(echo) + 1, text=echo.strip())],
                cause=f"Inside `[[ ]]`, `{op}` orders strings, character by character: {value!r} sorts "
                      f"{'before' if op == '<' else 'after'} {bound!r}, so `[[ ${name} {op} {bound} ]]` was true for "
                      f"{name}={value} though the number is not {'below' if op == '<' else 'above'} {bound}, and the "
                      "branch overrode what was asked. Every command exits 0.",
                fix=f"In {file.name}:{number}, compare numbers instead of `{test[0]}`: `[[ ${name} {numeric} {bound} ]]` or "
                    f"`(( {name} {op} {bound} ))`; then run again.",
            )
    return None


def _spaced_assignment(ev: Evidence) -> Finding | None:
    spaced = list(lines_matching(shell_files(ev, _SOURCED), _SPACED_ASSIGNMENT))
    if not spaced:
        return None
    file, number, line, match = spaced[0]
    names = list(dict.fromkeys(m["name"] for _, _, _, m in spaced))
    said = [h.evidence() for h in ev.hits("command_not_found") if h.groups["command"] in names]
    return Finding(
        category=CONFIG,
        title=f"{file.name}:{number} writes `{line.strip()}`: with spaces around `=` the shell runs a command named "
              f"{match['name']} instead of setting it",
        evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()), *said[:1]],
        cause=f"In the shell, `NAME=value` sets a variable only without spaces around `=`; `{line.strip()}` runs a "
              f"command `{match['name']}` with arguments (`{match['name']}: command not found`), so "
              f"{', '.join(names)} kept {'its' if len(names) == 1 else 'their'} earlier or default value and the run "
              "used that, without an error that stopped it.",
        fix=f"Remove the spaces around `=` in {file.name} (`{match['name']}=...`), print the values the script uses, then "
            "run again.",
        explains=frozenset({"command_not_found"}),
    )


_LOOP_ASSIGNMENT = re.compile(r"^\s*(?:export\s+|local\s+)?(?P<name>[A-Za-z_]\w*)=")


def _used_only_inside(body: list[str], after: list[str]) -> bool:
    """Whether every variable the loop's body sets by a plain `NAME=...` is one no line after the loop reads (an
    escaped value used by the next command of the body, say): losing them at the loop's end loses nothing."""
    names = {match["name"] for text in body if (match := _LOOP_ASSIGNMENT.match(text))}
    if not names or any(_SETS_VARIABLE.search(text) and not _LOOP_ASSIGNMENT.match(text) for text in body):
        return False
    return not any(re.search(rf"\$\{{?{name}\b", text) for name in names for text in after)


def _loop_in_a_pipeline(ev: Evidence) -> Finding | None:
    for file in shell_files(ev):
        lines = file.text.splitlines()
        for index, line in enumerate(lines):
            if not _PIPED_LOOP.search(line):
                continue
            numbered = loop_body(lines, index + 1)
            body = [text for _, text in numbered]
            setting = next((text for text in body if _SETS_VARIABLE.search(text)), None)
            if setting is None or _used_only_inside(body, lines[numbered[-1][0] + 1:] if numbered else []):
                continue
            names = {Path(f.name).name for f in ev.user_files}
            read = next((word for word in line.split("|", 1)[0].split() if word.strip("'\"") in names), "settings")
            return Finding(
                category=CONFIG,
                title=f"{file.name}:{index + 1} sets variables in a `while read` loop fed by a pipe: they are lost when "
                      "the loop ends",
                evidence=[EvidenceLine(file=file.name, line=index + 1, text=line.strip()),
                          EvidenceLine(file=file.name, line=index + 2 + body.index(setting), text=setting.strip())],
                cause="Every part of a pipeline runs in a subshell of its own, the `while` loop too: what it sets "
                      f"(`{setting.strip()}`) lives only in that subshell, so after `done` the script goes on with the "
                      "values from before the loop. The settings read were never used, and nothing said so.",
                fix=f"Feed the loop without a pipe in {file.name}: `while read key value; do ...; done < <(grep -v "
                    f"'^#' {read})` (or `< {read}`), or `shopt -s lastpipe`; print the values after the loop to "
                    "check them, then run again.",
            )
    return None


def _defaults_sourced_after_options(ev: Evidence) -> Finding | None:
    for file in shell_files(ev):
        lines = file.text.splitlines()
        parsed = {m["name"]: n for n, text in enumerate(lines, 1) if (m := _CASE_ASSIGNMENT.search(text))}
        if not parsed:
            continue
        for number, text in enumerate(lines, 1):
            source = _SOURCE.match(text)
            if source is None or number < max(parsed.values()):
                continue
            sourced = next((f for f in ev.user_files if Path(f.name).name == Path(source["path"]).name), None)
            overridden = _unconditional(sourced, parsed) if sourced else []
            if overridden:
                name, at, assignment = overridden[0]
                return Finding(
                    category=CONFIG,
                    title=f"{file.name} sources {sourced.name} after reading its options: {sourced.name} sets "
                          f"{', '.join(n for n, _, _ in overridden)} again, over what the caller gave",
                    evidence=[EvidenceLine(file=file.name, line=parsed[name], text=lines[parsed[name] - 1].strip()),
                              EvidenceLine(file=file.name, line=number, text=text.strip()),
                              EvidenceLine(file=sourced.name, line=at, text=assignment)],
                    cause=f"{file.name} takes `--{name.lower()}`-style options into variables, then sources "
                          f"{sourced.name}, whose plain assignments (`{assignment}`) replace them: whatever the caller "
                          "asked for, the run used the file's defaults, and nothing said so.",
                    fix=f"Source {sourced.name} before parsing the options in {file.name}, or write its defaults so "
                        f"they yield to a value already set (`: \"${{{name}:={assignment.split('=', 1)[1]}}}\"`); "
                        "print the values used, then run again.",
                )
    return None


_PLAIN_ASSIGNMENT = re.compile(r"^\s*(?P<name>[A-Z_][A-Z0-9_]*)=")
_EXPORTS_ALL = re.compile(r"^\s*set\s+(?:-a\b|-o\s+allexport\b)")
_RUNS_SCRIPT = re.compile(r"^\s*(?:(?:ba|da)?sh\s+|\./)(?P<script>[\w./-]+\.sh)\b")
_DEFAULTED = r"\$\{{{name}:?-(?P<default>[^}}]*)\}}"


def _settings_not_exported(ev: Evidence) -> Finding | None:
    """A settings file sourced with plain assignments, then a child script run that reads one with a default: the
    child's shell never got it, and used its default."""
    for file in shell_files(ev):
        lines = file.text.splitlines()
        if any(_EXPORTS_ALL.match(text) for text in lines):
            continue
        for number, text in enumerate(lines, 1):
            source = _SOURCE.match(text)
            sourced = source and next((f for f in ev.user_files if Path(f.name).name == Path(source["path"]).name),
                                      None)
            if not sourced or any(_EXPORTS_ALL.match(line) for line in sourced.text.splitlines()):
                continue
            plain = {m["name"]: (at, line.strip()) for at, line in enumerate(sourced.text.splitlines(), 1)
                     if (m := _PLAIN_ASSIGNMENT.match(line))}
            exported = set(re.findall(r"\bexport\s+([A-Z_][A-Z0-9_]*)", sourced.text + file.text))
            for run_line in lines[number:]:
                child_name = (ran := _RUNS_SCRIPT.match(run_line)) and Path(ran["script"]).name
                child = next((f for f in shell_files(ev) if Path(f.name).name == child_name), None)
                for name, (at, assignment) in ((n, v) for n, v in plain.items() if n not in exported and child):
                    used = next(((n, line.strip(), m["default"]) for n, line in enumerate(child.text.splitlines(), 1)
                                 if (m := re.search(_DEFAULTED.format(name=name), line))), None)
                    if used is None:
                        continue
                    used_line, used_text, default = used
                    if default.strip("\"'") == assignment.split("=", 1)[1].strip("\"'"):
                        continue  # the default is the setting: nothing changed
                    return Finding(
                        category=CONFIG,
                        title=f"{child.name}:{used_line} reads {name} with a default, and {sourced.name}:{at} sets it "
                              f"without `export`: the child script {file.name} runs used its default ({default})",
                        evidence=[EvidenceLine(file=sourced.name, line=at, text=assignment),
                                  EvidenceLine(file=file.name, line=number, text=text.strip()),
                                  EvidenceLine(file=child.name, line=used_line, text=used_text)],
                        cause=f"{file.name} sources {sourced.name}, whose plain assignments (`{assignment}`) set shell "
                              f"variables of {file.name} only; the script it then runs ({child.name}) is a new shell "
                              f"that gets only exported variables, so its `${{{name}:-{default}}}` found nothing and "
                              f"took {default}. {file.name}'s own lines see the setting, so what it prints looks "
                              "right, and nothing fails.",
                        fix=f"Export the settings the step scripts read: `export {assignment}` in {sourced.name} (or "
                            f"`set -a` before `source {sourced.name}` in {file.name}, `set +a` after); then run "
                            "again.",
                    )
    return None


def _unconditional(sourced: UserFile, parsed: dict[str, int]) -> list[tuple[str, int, str]]:
    """(name, line, text) of the plain assignments in `sourced` of the variables the options set."""
    found = []
    for name in parsed:
        pattern = re.compile(_UNCONDITIONAL.format(name=name))
        found += [(name, number, line.strip()) for _, number, line, _ in lines_matching([sourced], pattern)][:1]
    return found


def _named_like(variable: str, parameter: str) -> bool:
    """`$REPEATS` for `repeats`, `$NUM_REPEATS` for `repeats`: the caller's variable names the parameter."""
    variable, parameter = variable.lower(), parameter.lower()
    return variable == parameter or variable.endswith("_" + parameter) or parameter.endswith("_" + variable)


def _function_parameters(file: UserFile) -> dict[str, tuple[int, dict[int, str]]]:
    """name -> (line of its parameters, {position: parameter name}) of each shell function that names its `$1`..."""
    lines, found = file.text.splitlines(), {}
    for number, line in enumerate(lines, 1):
        if (function := _FUNCTION.match(line)) is None:
            continue
        for offset, body in enumerate(lines[number:number + _PARAMETERS_WITHIN], number + 1):
            if parameters := {int(m["position"]): m["name"] for m in _PARAMETER.finditer(body)}:
                found[function["name"]] = (offset, parameters)
                break
    return found


def _function_arguments_swapped(ev: Evidence) -> Finding | None:
    for file in shell_files(ev):
        for function, (defined, parameters) in _function_parameters(file).items():
            call = re.compile(rf"^\s*{re.escape(function)}\s+(?P<arguments>[^#\n|;&]+)")
            for number, line, match in ((n, t, m) for n, t in enumerate(file.text.splitlines(), 1)
                                        if (m := call.match(t))):
                passed = {position: argument["name"] for position, word in enumerate(match["arguments"].split(), 1)
                          if (argument := _VARIABLE_ARGUMENT.fullmatch(word))}
                crossed = next(((a, b) for a in passed for b in passed if a < b and a in parameters and b in parameters
                                and _named_like(passed[a], parameters[b]) and _named_like(passed[b], parameters[a])),
                               None)
                if crossed is None:
                    continue
                first, second = crossed
                meant = match["arguments"].split()
                meant[first - 1], meant[second - 1] = meant[second - 1], meant[first - 1]
                order = " ".join(parameters[position] for position in sorted(parameters))
                return Finding(
                    category=CONFIG,
                    title=f"{file.name}:{number} calls {function} with ${passed[first]} and ${passed[second]} in each "
                          f"other's place",
                    evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                              EvidenceLine(file=file.name, line=defined, text=file.text.splitlines()[defined - 1].strip())],
                    cause=f"{function} takes its arguments in the order {order}, and the call passes ${passed[first]} "
                          f"as {parameters[first]} and ${passed[second]} as {parameters[second]}: each value went to "
                          "the other's parameter. Nothing checks a shell function's arguments, so the run went on with "
                          "them swapped and exited 0.",
                    fix=f"In {file.name}, call `{function} {' '.join(meant)}` (the order {function} reads: {order}); "
                        "then run again on a clean output path and profile.",
                )
    return None


def _array_without_index(ev: Evidence) -> Finding | None:
    for file in shell_files(ev):
        lines = file.text.splitlines()
        for number, line in enumerate(lines, 1):
            array = _ARRAY.match(line)
            if array is None or len(items := array["items"].split()) < 2:
                continue
            name = array["name"]
            bare = re.compile(rf"\$(?:{name}\b|\{{{name}\}})(?!\[)")
            used = next(((n, text) for n, text in enumerate(lines[number:], number + 1)
                         if bare.search(text) and not text.lstrip().startswith("#")), None)
            if used is None:
                continue
            return Finding(
                category=CONFIG,
                title=f"{file.name}:{used[0]} uses the array {name} without an index: it is only its first element, "
                      f"{items[0]}",
                evidence=[EvidenceLine(file=file.name, line=used[0], text=used[1].strip()),
                          EvidenceLine(file=file.name, line=number, text=line.strip())],
                cause=f"In bash, `${name}` of an array is its first element: `{used[1].strip()}` saw {items[0]} and "
                      f"never {', '.join(items[1:])}. Nothing fails: the script did the first one and stopped, and "
                      "the rest were never run.",
                fix=f"In {file.name}, write `\"${{{name}[@]}}\"` for every element of the array {name} (`${name}` alone "
                    f"is its first element; `for x in "
                    f"\"${{{name}[@]}}\"`); then run the ones that were skipped ({', '.join(items[1:])}) and profile "
                    "them.",
            )
    return None


_KEYED_ASSIGNMENT = re.compile(r"^\s*(?P<name>[A-Za-z_]\w*)\[(?P<key>[A-Za-z_][\w.-]*)\]=(?P<value>\S*)")


def _table_without_declare_a(ev: Evidence) -> Finding | None:
    """`DATA[dev]=...; DATA[test]=...` without `declare -A DATA`: an indexed array, whose subscripts are arithmetic, so
    every word key is 0 (an unset variable's value) and each assignment overwrites the one before."""
    for file in shell_files(ev):
        lines = file.text.splitlines()
        keyed: dict[str, list[tuple[int, str, str]]] = {}
        for number, line in enumerate(lines, 1):
            if (match := _KEYED_ASSIGNMENT.match(line)) is not None:
                keyed.setdefault(match["name"], []).append((number, match["key"], match["value"]))
        for name, assignments in keyed.items():
            if len({key for _, key, _ in assignments}) < 2 or re.search(
                    rf"\b(?:declare|typeset|local)\s+-\w*A\w*\s+(?:\w+\s+)*{name}\b", file.text) or any(
                    re.search(rf"^\s*(?:export\s+|local\s+)?{key}=|\bfor\s+{key}\b", file.text, re.M)
                    for _, key, _ in assignments):
                continue  # a table declared as one, or keys that are variables holding indices
            last = assignments[-1]
            keys = [key for _, key, _ in assignments]
            return Finding(
                category=CONFIG,
                title=f"{file.name} fills {name}[{keys[0]}], {name}[{keys[1]}]... without `declare -A {name}`: every "
                      f"key is the same slot, and all of them read {last[2]}",
                evidence=[EvidenceLine(file=file.name, line=number, text=lines[number - 1].strip())
                          for number, _, _ in assignments[:3]],
                cause=f"Without `declare -A {name}`, bash makes {name} an indexed array, whose subscripts are "
                      f"arithmetic: the words {', '.join(keys)} are variable names there, unset, so each is 0. Every "
                      f"assignment wrote {name}[0], the last one ({file.name}:{last[0]}) won, and whatever the script "
                      f"did per key it did with {last[2]}. Nothing fails.",
                fix=f"In {file.name}, add `declare -A {name}` before the first `{name}[{keys[0]}]=` line (bash 4 or "
                    "later); then run again the keys that got the wrong value"
                    f" ({', '.join(key for key in keys if key != last[1])}) and profile them.",
            )
    return None


def _array_joined_into_one_word(ev: Evidence) -> Finding | None:
    """`"${ARGS[*]}"` on a command line: quoted with `*`, an array is one word, its elements joined by spaces."""
    for file in shell_files(ev):
        lines = file.text.splitlines()
        arrays = {m["name"]: n for n, line in enumerate(lines, 1) if (m := _ARRAY.match(line))}
        for number, line in enumerate(lines, 1):
            joined = next((m for m in _JOINED_ARRAY.finditer(line) if m["name"] in arrays), None)
            if joined is None or PRINTS.match(line) or line.lstrip().startswith("#"):
                continue
            name = joined["name"]
            return Finding(
                category=CONFIG,
                title=f"{file.name}:{number} passes the array {name} as `\"${{{name}[*]}}\"`: all its options reach "
                      "the command as one argument",
                evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                          EvidenceLine(file=file.name, line=arrays[name], text=lines[arrays[name] - 1].strip())],
                cause=f"Quoted with `*`, an array expands to a single word, its elements joined by spaces: the "
                      f"command got `{' '.join(lines[arrays[name] - 1].split('(', 1)[1].rsplit(')', 1)[0].split())}` "
                      "as one argument, which no option matches (`unrecognized arguments`), or read it as one value.",
                fix=f"In {file.name}, write `\"${{{name}[@]}}\"` (each element its own word) instead of "
                    f"`\"${{{name}[*]}}\"`; then run again.",
            )
    return None


def _first_argument_cases(file: UserFile) -> tuple[int, dict[str, int], int | None] | None:
    """(line of `case`, {pattern: line}, line of the `*)` branch) of a script's `case` on its first argument."""
    lines = file.text.splitlines()
    for number, line in enumerate(lines, 1):
        if (case := _CASE_OF_ARGUMENT.match(line)) is None:
            continue
        name = case["name"]
        if name != "1" and not re.search(rf"^\s*(?:local\s+)?{name}=\"?\$\{{?1\b", file.text, re.M):
            continue
        patterns: dict[str, int] = {}
        default = None
        for offset, _, branch_patterns in case_branches(lines, number):
            for pattern in branch_patterns:
                if pattern == "*":
                    default = offset
                elif pattern:
                    patterns.setdefault(pattern, offset)
        return number, patterns, default
    return None


def case_branches(lines: list[str], start: int) -> list[tuple[int, str, list[str]]]:
    """(line number, line, patterns without their quotes) of each branch of the `case` opened at line `start`, up to
    its `esac`."""
    branches = []
    for number, line in enumerate(lines[start:], start + 1):
        if _CASE_END.match(line):
            break
        if branch := _CASE_BRANCH.match(line):  # a comment line is none: `#` is not in a pattern
            branches.append((number, line.strip(), [p.strip().strip("\"'") for p in branch["patterns"].split("|")]))
    return branches


def _argument_in_other_case(ev: Evidence) -> Finding | None:
    files = shell_files(ev)
    for called in files:
        cases = _first_argument_cases(called)
        if cases is None or cases[2] is None:
            continue
        _, patterns, default = cases
        by_lower = {pattern.lower(): pattern for pattern in patterns}
        name = Path(called.name).name
        call = re.compile(rf"(?:^|[\s;&|(])(?:\S*/)?{re.escape(name)}\s+[\"']?(?P<argument>[\w.-]+)")
        for caller in files:
            for number, line, match in ((n, t, m) for n, t in enumerate(caller.text.splitlines(), 1)
                                        if not t.lstrip().startswith("#") and (m := call.search(t))):
                argument = match["argument"]
                meant = by_lower.get(argument.lower())
                if argument in patterns or meant is None:
                    continue
                default_line = called.text.splitlines()[default - 1].strip()
                return Finding(
                    category=CONFIG,
                    title=f"{caller.name}:{number} passes {argument!r} to {name}, whose `case` matches only "
                          f"{meant!r}: it took the default branch",
                    evidence=[EvidenceLine(file=caller.name, line=number, text=line.strip()),
                              EvidenceLine(file=called.name, line=patterns[meant],
                                           text=called.text.splitlines()[patterns[meant] - 1].strip()),
                              EvidenceLine(file=called.name, line=default, text=default_line)],
                    cause=f"A shell `case` compares letter for letter: {argument!r} is not {meant!r}, so {name} "
                          f"went to its `*)` branch (`{default_line}`) and did what the default does, without an "
                          "error. The run is of the default, not of what the caller asked for.",
                    fix=f"In {caller.name}, pass `{meant}`, not `{argument}`; make {name}'s `*)` branch refuse a value "
                        "it does not know (`echo \"unknown: $1\" >&2; exit 2`) instead of taking a default; then run "
                        "again and profile.",
                )
    return None


def _getopts_value_without_colon(ev: Evidence) -> Finding | None:
    for file in shell_files(ev):
        lines = file.text.splitlines()
        for number, line in enumerate(lines, 1):
            if (getopts := _GETOPTS.search(line)) is None:
                continue
            letters = getopts["letters"]
            takes_value = {letter for letter, after in zip(letters, letters[1:] + " ", strict=True) if after == ":"}
            for branch_number, branch in enumerate(lines[number:number + 30], number + 1):
                option = _OPTION_BRANCH.match(branch)
                if option is None or option["letter"] in takes_value or option["letter"] not in letters:
                    continue
                letter = option["letter"]
                fixed = letters.replace(letter, f"{letter}:", 1)
                refused = next((EvidenceLine(file=i.file, line=i.line, text=i.text.strip()) for i in ev.logs.incidents
                                if "expected one argument" in i.text), None)
                return Finding(
                    category=CONFIG,
                    title=f"{file.name}:{number} declares `getopts \"{letters}\"`: -{letter} takes no value there, "
                          f"but its branch reads $OPTARG",
                    evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                              EvidenceLine(file=file.name, line=branch_number, text=branch.strip()),
                              *([refused] if refused else [])],
                    cause=f"In a getopts string a letter takes a value only when a colon follows it; `{letters}` has "
                          f"none after {letter}. So `-{letter} VALUE` sets $OPTARG to nothing, and VALUE ends the "
                          "options: it becomes the first positional argument, and the options after it are never "
                          "read. The script went on with an empty setting and a wrong argument.",
                    fix=f"In {file.name}, write `getopts \"{fixed}\"` (a colon after every option that takes a value); "
                        "then run again.",
                )
    return None


_COUNT_WITH_NAME = re.compile(r"(?:^\s*(?:export\s+)?(?P<name>[A-Za-z_]\w*)=|--[\w-]+[= ])\"?\$\(\s*wc\s+-l\s+(?!<)"
                              r"(?P<file>[^\s)|<]+)\s*\)")
_NOCLOBBER = re.compile(r"^\s*set\s+(?:-o\s+noclobber|-\w*C\w*)\b")


def _redirect_refused_by_noclobber(ev: Evidence) -> Finding | None:
    refused = next(iter(ev.hits("noclobber_refused")), None)
    if refused is None:
        return None
    target = refused.group("file").strip()
    setting = next(iter(lines_matching(ev.user_files, _NOCLOBBER)), None)
    script = Path(refused.group("script") or "").name
    number = int(refused.group("line") or 0)
    redirect = next((file for file in ev.user_files if Path(file.name).name == script), None)
    redirect_line = redirect.text.splitlines()[number - 1].strip() if redirect and 0 < number <= len(
        redirect.text.splitlines()) else None
    return Finding(
        category=CACHE_RESUME,
        title=f"bash refused to overwrite {target} (noclobber), and the run went on with the {target} left from "
              "before",
        evidence=[refused.evidence(),
                  *([EvidenceLine(file=redirect.name, line=number, text=redirect_line)] if redirect_line else []),
                  *([EvidenceLine(file=setting[0].name, line=setting[1], text=setting[2].strip())] if setting else [])],
        cause="With `set -o noclobber`"
              + (f" ({setting[0].name}:{setting[1]})" if setting else "")
              + f" a `>` onto a file that exists fails, and a script without `set -e` goes on: {target} was not "
              "written, so everything after it read the previous run's file. Nothing else failed.",
        fix=f"Overwrite on purpose with `>|` ({script or 'the script'}" + (f" line {number}" if number else "")
            + f": `... >| {target}`), or remove {target} first, or keep noclobber out of the settings the run's "
            "scripts source; add `set -e` so a refused step stops the script; then run again from that step.",
        explains=frozenset({"noclobber_refused"}),
    )


def _count_with_the_file_name(ev: Evidence) -> Finding | None:
    for file, number, line, counted in lines_matching(shell_files(ev), _COUNT_WITH_NAME):
        name, target = counted["name"], counted["file"]
        used = (next(((n, text) for n, text in enumerate(file.text.splitlines(), 1)
                      if n > number and re.search(rf"--[\w-]+[= ]\"?\${{?{name}\b", text)), None) if name else None)
        if name and used is None:
            continue  # a count kept for a message, not passed as an option's value
        given = re.search(r"(--[\w-]+)[= ]\"?\$", used[1] if used else line)
        option = f"`{given.group(1)}`" if given else "the option"
        return Finding(
            category=CONFIG,
            title=f"{file.name}:{number} counts lines with `wc -l {target}`, which prints the count and the file's "
                  "name: the option gets two words",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                      *([EvidenceLine(file=file.name, line=used[0], text=used[1].strip())] if used else [])],
            cause=f"`wc -l {target}` prints `<count> {target}`; unquoted, that is two arguments, so the option took "
                  f"the count and {target} became an argument of its own (an override or input the command cannot "
                  "read), or, quoted, the option's value is not a number.",
            fix=f"In {file.name}, count with `wc -l < {target}` (the count alone) for {option}; then run again.",
        )
    return None


# `--limit $(wc -l < FILE)`, `--limit ${LIMIT:-$(wc -l < FILE)}`, or a count kept in a variable and passed to --limit
_COUNT_FROM_STDIN = re.compile(r"\$\(\s*wc\s+-l\s*<\s*\"?(?P<file>[^\s)\"]+)\"?\s*\)")
_LIMIT_OF = r"--limit[= ]\"?\$\{{?(?:\w+:-)?{value}"


def _file_of(ev: Evidence, word: str) -> Path | None:
    """The run folder's file a script word names (`data.jsonl`, `$DATA` assigned in a script), if it exists."""
    if variable := re.fullmatch(r"\$\{?(?P<name>[A-Za-z_]\w*)\}?", word):
        assigned = assignment_of(ev.user_files, variable["name"])
        if assigned is None:
            return None
        word = assigned[2].split("=", 1)[1].strip("\"' ")
    path = ev.run_dir / word
    return path if "$" not in word and path.is_file() else None


def _count_short_of_an_unterminated_last_row(ev: Evidence) -> Finding | None:
    for file, number, line, counted in lines_matching(shell_files(ev), _COUNT_FROM_STDIN):
        name = re.match(r"^\s*(?:export\s+)?(?P<name>[A-Za-z_]\w*)=", line)
        limits = re.search(_LIMIT_OF.format(value=r"\$\(\s*wc\b"), line) or (
            name and any(re.search(_LIMIT_OF.format(value=re.escape(name["name"])), text)
                         for text in file.text.splitlines()[number:]))
        data = _file_of(ev, counted["file"])
        if not limits or data is None:
            continue
        with data.open("rb") as read:
            content = read.read()
        if not content.strip() or content.endswith(b"\n"):
            continue
        rows, counted_rows = sum(1 for row in content.splitlines() if row.strip()), content.count(b"\n")
        return Finding(
            category=CONFIG,
            title=f"{file.name}:{number} limits the run to `wc -l < {counted['file']}` rows, but {data.name}'s last "
                  f"row has no newline after it: wc counts {counted_rows} of its {rows} rows, and the last "
                  "task was never evaluated",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip())],
            cause=f"wc -l counts newline characters, not rows. {data.name} ends without one (the tool that wrote it "
                  f"puts none after the last row), so the count is one short and `--limit` cut the run to the first "
                  f"{counted_rows} rows: every command exits 0 and the reward is of the rows before the last.",
            fix=f"In {file.name}, drop the `--limit` for the whole set, or count rows with `grep -c '' {counted['file']}` "
                f"(which counts an unterminated last line) instead of `wc -l`; or end {data.name} with a newline. "
                "Then run again.",
        )
    return None


# `REPEATS=8 gym-pipeline materialize --num-repeats $REPEATS`: assignments before a command's name, then the command
# (a plain value: a command substitution or a quoted value with spaces is another shape)
_PLAIN_VALUE = r"(?:[\w./:@%+,-]|\$\{?\w+\}?)*"
_PREFIXED_COMMAND = re.compile(rf"^\s*(?P<prefix>(?:[A-Za-z_]\w*={_PLAIN_VALUE}\s+)+)(?P<command>[\w./-]+)(?P<arguments>.*)$")
_PREFIX_ASSIGNMENT = re.compile(rf"(?P<name>[A-Za-z_]\w*)=(?P<value>{_PLAIN_VALUE})")


def _value_before(ev: Evidence, name: str, file: UserFile, number: int) -> tuple[str, int, str] | None:
    """(file name, line, value) of the plain assignment of `name` the shell had before `file`'s line `number`: the last
    one above it in `file`, else one in a file it sources (a defaults file)."""
    plain = re.compile(rf"^\s*(?:export\s+)?{name}=(?P<value>[^\s;&|#]*)\s*(?:#.*)?$")
    above = [(n, m["value"]) for n, line in enumerate(file.text.splitlines()[:number - 1], 1) if (m := plain.match(line))]
    if above:
        return file.name, above[-1][0], above[-1][1]
    for other in shell_files(ev, _SOURCED):
        if other is not file and re.search(rf"^\s*(?:source|\.)\s+\S*{re.escape(other.name)}\b", file.text, re.M):
            found = [(n, m["value"]) for n, line in enumerate(other.text.splitlines(), 1) if (m := plain.match(line))]
            if found:
                return other.name, found[-1][0], found[-1][1]
    return None


def _prefix_assignment_read_by_its_own_command(ev: Evidence) -> Finding | None:
    """`NAME=value command ... $NAME`: the assignment before a command reaches only that command's environment; the
    shell expands the command's own `$NAME` first, with the value NAME had before the line (or none). The command got
    the old value, without an error."""
    for file in shell_files(ev):
        for number, command in joined_commands(file):
            if (match := _PREFIXED_COMMAND.match(command)) is None or match["command"].startswith("#"):
                continue
            for assignment in _PREFIX_ASSIGNMENT.finditer(match["prefix"]):
                name, value = assignment["name"], assignment["value"].strip("\"'")
                if not re.search(rf"\$\{{?{name}\b", match["arguments"]):
                    continue
                before = _value_before(ev, name, file, number)
                if before is not None and before[2].strip("\"'") == value:
                    continue  # the same value either way
                option = re.search(rf"(?P<option>--?[\w-]+)[= ]\s*[\"']?\$\{{?{name}\b", match["arguments"])
                reads = option["option"] if option else f"${name}"
                used = f"`{before[2]}` (set at {before[0]}:{before[1]})" if before else "nothing (it was not set)"
                return Finding(
                    category=CONFIG,
                    title=f"{file.name}:{number} sets {name}={value} as a prefix of the command that reads ${name}: "
                          f"the shell expanded ${name} first, so the command got {before[2] if before else 'nothing'}",
                    evidence=[EvidenceLine(file=file.name, line=number, text=command.strip()),
                              *([EvidenceLine(file=before[0], line=before[1], text=f"{name}={before[2]}")]
                                if before else [])],
                    cause=f"An assignment written before a command's name (`{name}={value} {match['command']} ...`) "
                          "goes into that command's environment only, and the shell expands the command's own "
                          f"arguments before it applies: ${name} on the same line was {used}, not {value}. The "
                          "command ran with that without a word, and the run used it.",
                    fix=f"In {file.name}:{number}, set {name} on a line of its own before the command (`{name}={value}`)"
                        f" instead of as a prefix of it, or write the value into the argument (`{reads} {value}`); "
                        "print the values the script uses, then run again.",
                )
    return None
