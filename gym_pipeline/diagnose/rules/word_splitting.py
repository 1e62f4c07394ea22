"""Step 1: an unquoted variable split into words otherwise than the script means.

- `IFS=,` on a line of its own (meant for a CSV line read further down) changes how every later unquoted expansion is
  split: `OPTS="--num-repeats 3 --agent x"` then reaches the command as one argument, `--num-repeats 3 --agent x`,
  which it refuses or misreads.
- A path with a space (`DATA="weekly data/tasks.jsonl"`) passed unquoted (`--input $DATA`): the shell splits it in
  two, and the command gets `weekly` as the path and `data/tasks.jsonl` as a stray argument.

- An unquoted glob meant to name one folder (`--checkpoint $RUN/step_02*`) that matches two (step_0200 and
  step_0250): the command gets the second as a stray argument and refuses it (`unrecognized arguments`). In the
  script that starts the model server, the server never comes up: model serving; elsewhere a config cause.

- `set -f` (or `set -o noglob`, often from a team's script template) turns globbing off for the rest of the script:
  `cat data/part_*.jsonl` then looks for a file named `part_*.jsonl`, finds none, and the run goes on with no data.

Each is named when a log shows the command's complaint about those words.
"""

from __future__ import annotations

import re
from fnmatch import fnmatchcase
from pathlib import PurePosixPath

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.shell_pitfalls import shell_files
from gym_pipeline.diagnose.user_scripts import assignment_of, joined_commands
from gym_pipeline.diagnose.vocabulary import CONFIG, MODEL_SERVING

# `IFS=,` as a command of its own (not `IFS=, read ...`, which sets it for that command only)
_WHOLE_SCRIPT_IFS = re.compile(r"^\s*(?:export\s+)?IFS=(?P<value>'[^']*'|\"[^\"]*\"|\S+?)\s*(?:;\s*)?(?:#.*)?$")
_UNQUOTED = re.compile(r"(?<![\"'\w])\$\{?(?P<name>[A-Za-z_]\w*)\}?(?![\w\"'])")
_COMMAND_ERROR = re.compile(r"error|unrecognized|invalid|required|usage:", re.I)
_LOG_BYTES = 1 << 20


def rule_field_separator_set_for_the_whole_script(ev: Evidence) -> list[Finding]:
    for file in shell_files(ev):
        lines = file.text.splitlines()
        setting = next(((n, m) for n, text in enumerate(lines, 1) if (m := _WHOLE_SCRIPT_IFS.match(text))
                        and " " not in m["value"].strip("'\"") and m["value"].strip("'\"")), None)
        if setting is None:
            continue
        at, ifs = setting
        for number, line in enumerate(lines[at:], at + 1):
            if re.match(r"^\s*(?:unset\s+IFS|IFS=)", line):
                break
            for match in _UNQUOTED.finditer(line.split("#", 1)[0]):
                assigned = assignment_of([file], match["name"])
                value = _literal_value(assigned[2]) if assigned else ""
                if " " not in value.strip():
                    continue
                complaint = _complaint(ev, value.split()[0])
                if complaint is None:
                    continue
                return [Finding(
                    category=CONFIG,
                    title=f"{file.name}:{at} sets IFS={ifs['value']} for the rest of the script: ${match['name']} "
                          f"(`{value}`) reached the command at line {number} as one word",
                    evidence=[complaint, EvidenceLine(file=file.name, line=at, text=lines[at - 1].strip()),
                              EvidenceLine(file=file.name, line=assigned[1], text=assigned[2]),
                              EvidenceLine(file=file.name, line=number, text=line.strip()[:300])],
                    cause=f"An unquoted ${match['name']} is split into words at the characters in IFS, and "
                          f"{file.name}:{at} made IFS `{ifs['value'].strip(chr(39) + chr(34))}` for every line after "
                          f"it: `{value}` has none of them, so the command got one argument holding all its options "
                          "and refused or misread it.",
                    fix=f"In {file.name}, set IFS only for the command that needs it (`IFS=, read -r ...`), or restore "
                        f"it after (`unset IFS`); pass the options as an array (`{match['name']}=({value})`, then "
                        f"`\"${{{match['name']}[@]}}\"`); then run again.",
                )]
    return []


def _literal_value(assignment: str) -> str:
    """The text `NAME=value` assigns, quotes off; empty when a command computes it (`NAME=$(ls ... | tail -1)  # x`):
    the words of what it prints are not in the script."""
    value = assignment.split("=", 1)[1]
    return "" if value.lstrip().startswith(("$(", "`")) else value.strip("'\"")


def _complaint(ev: Evidence, word: str) -> EvidenceLine | None:
    """The first log line with an error that names `word` (the first of the options that stayed one word)."""
    for log, head in ev.log_heads:
        for number, text in enumerate(head.splitlines(), 1):
            if word in text and _COMMAND_ERROR.search(text) and not text.lstrip().startswith(("+", "#")):
                return EvidenceLine(file=ev.rel(log), line=number, text=text.strip()[:300])
    return None


_PATH_LIKE = re.compile(r"/|\.\w{2,5}$")


def rule_path_with_a_space_split_in_two(ev: Evidence) -> list[Finding]:
    for file in shell_files(ev):
        lines = file.text.splitlines()
        if any(_WHOLE_SCRIPT_IFS.match(text) for text in lines):
            continue  # the other reading's
        for number, line in enumerate(lines, 1):
            for match in _UNQUOTED.finditer(line.split("#", 1)[0]):
                assigned = assignment_of([file], match["name"])
                value = _literal_value(assigned[2]).strip() if assigned else ""
                words = value.split()
                if len(words) < 2 or not _PATH_LIKE.search(value) or words[0].startswith("-"):
                    continue
                complaint = _complaint(ev, words[-1])
                if complaint is None:
                    continue
                return [Finding(
                    category=CONFIG,
                    title=f"{file.name}:{number} passes ${match['name']} unquoted: its path `{value}` has a space, so "
                          f"the command got `{words[0]}` and a stray `{' '.join(words[1:])}`",
                    evidence=[complaint, EvidenceLine(file=file.name, line=assigned[1], text=assigned[2]),
                              EvidenceLine(file=file.name, line=number, text=line.strip()[:300])],
                    cause=f"Unquoted, ${match['name']} is split at its space: the command read `{words[0]}` where the "
                          f"path was meant and `{' '.join(words[1:])}` as an argument of its own, and refused it.",
                    fix=f"In {file.name}:{number}, quote the variable: `\"${match['name']}\"` (and every other use of "
                        f"it), or name the folder without a space; then run again.",
                )]
    return []


_STRAY_ARGUMENTS = re.compile(r"unrecognized arguments: (?P<words>[^\n]+?)(?:\s+\(see [^)]*\))?\s*$", re.M)
# an option's value with a glob character, unquoted: `--checkpoint $1/step_02*`
_GLOB_VALUE = re.compile(r"(?P<option>--?[\w-]+)[ =](?P<glob>[^\s\"';|&]*[*?][^\s\"';|&]*)")
_STARTS_A_SERVER = re.compile(r"\bserve(?:-policy)?\b|\bvllm\b|\bsglang\b|text-generation-launcher|--served-model-name")


def rule_glob_matched_more_than_one(ev: Evidence) -> list[Finding]:
    for log, head in ev.log_heads:
        for stray in _STRAY_ARGUMENTS.finditer(head):
            names = [PurePosixPath(word).name for word in stray["words"].split()]
            for file in shell_files(ev):
                for number, command in joined_commands(file):
                    for glob in _GLOB_VALUE.finditer(command.split(" #", 1)[0]):
                        pattern = PurePosixPath(glob["glob"]).name
                        if not names or not all(fnmatchcase(name, pattern) for name in names):
                            continue
                        serving = bool(_STARTS_A_SERVER.search(command))
                        said = EvidenceLine(file=ev.rel(log), line=head.count("\n", 0, stray.start()) + 1,
                                            text=head[head.rfind("\n", 0, stray.start()) + 1:stray.end()].strip()[:300])
                        return [Finding(
                            category=MODEL_SERVING if serving else CONFIG,
                            title=f"{file.name}:{number} names one folder with the glob `{glob['option']} "
                                  f"{glob['glob']}`, which matched more than one: the command refused "
                                  f"`{' '.join(names)}`" + (" and the model server never started" if serving else ""),
                            evidence=[said, EvidenceLine(file=file.name, line=number, text=command.strip()[:300])],
                            cause=f"The shell expands an unquoted `{pattern}` to every name it matches, in order: "
                                  f"{glob['option']} took the first, and the next ({', '.join(names)}) reached the "
                                  "command as arguments of their own, which it refused (`unrecognized arguments`). "
                                  "The glob matched one folder until another was written beside it"
                                  + ("; the model server never started, and everything that needed it failed to "
                                     "reach it." if serving else "."),
                            fix=f"In {file.name}:{number}, name the one folder meant instead of the glob "
                                f"`{glob['glob']}` (it now matches {', '.join(names)} too), or pick one on purpose "
                                f"(`{glob['option']} \"$(ls -d {glob['glob']} | sort | tail -n 1)\"`, the last); then "
                                + ("start the server again and check it answers (`curl <url>/v1/models`) before the "
                                   "run." if serving else "run again."),
                        )]
    return []


_NO_GLOB = re.compile(r"^\s*set\s+(?:-[a-zA-Z]*f[a-zA-Z]*\b|-o\s+noglob\b)")
# a command's complaint about a path that still holds a glob character: the shell passed the pattern as it is
_LITERAL_GLOB = re.compile(r"^(?P<command>[\w.-]+): (?:cannot access )?['\"]?(?P<pattern>[^'\"\s]*[*?\[][^'\"\s]*)['\"]?: "
                           r"No such file or directory", re.M)


def rule_globbing_turned_off(ev: Evidence) -> list[Finding]:
    for log, head in ev.log_heads:
        for complaint in _LITERAL_GLOB.finditer(head):
            for file in shell_files(ev):
                lines = file.text.splitlines()
                off = next((n for n, text in enumerate(lines, 1) if _NO_GLOB.match(text)), None)
                used = next((n for n, text in enumerate(lines, 1) if off and n > off
                             and complaint["pattern"] in text and not text.lstrip().startswith("#")), None)
                if off is None or used is None:
                    continue
                number = head.count("\n", 0, complaint.start()) + 1
                return [Finding(
                    category=CONFIG,
                    title=f"{file.name}:{off} turns globbing off (`{lines[off - 1].split('#')[0].strip()}`), so "
                          f"{file.name}:{used} passed `{complaint['pattern']}` as a file name, which does not exist",
                    evidence=[EvidenceLine(file=file.name, line=off, text=lines[off - 1].strip()),
                              EvidenceLine(file=file.name, line=used, text=lines[used - 1].strip()),
                              EvidenceLine(file=ev.rel(log), line=number, text=complaint[0])],
                    cause=f"After `set -f` (`set -o noglob`) bash expands no `*`, `?` or `[...]`: "
                          f"`{complaint['pattern']}` reached `{complaint['command']}` as it is written, no file has "
                          "that name, and the script went on without the files it meant (no data, or a part).",
                    fix=f"In {file.name}, turn globbing back on before line {used} (`set +f`), so that "
                        f"`{complaint['pattern']}` expands, or take the `set -f` of line {off} out (quote the names "
                        "that hold `*` or `?` instead); then run again from materialize.",
                )]
    return []
