"""Step 1: a test in the user's script that is always true, so the branch meant for one case runs every time.

- `[ $N > 100 ]`: inside single brackets `>` and `<` are redirections, not comparisons. The test becomes `[ $N ]`,
  and an empty file named `100` appears beside the script.
- `[ $SPLIT="dev" ]`: without spaces around `=` the test holds one word, `test="dev"` once expanded, and a test of
  one non-empty word is true.
- `[ -n "$SMOKE_TEST" ]` for a switch the run's files turn off with `SMOKE_TEST=0` (or false, no, off): `-n` asks
  whether the value is empty, and `0` is not.
- `[ -n $SMOKE ]` with the variable unquoted: unset, it expands to nothing, the test is `[ -n ]`, one non-empty
  word, and true: the smoke branch ran on a full run.
- A `case` branch whose patterns include `*` before other branches (`smoke|*)` meant as "anything else"): bash takes
  the first pattern that matches, so the branches after it never run.
- `$?` tested right after an `echo` (a debugging line put between a `grep` and the `if [ $? -eq 0 ]` that reads its
  status): `$?` is the echo's status, always 0.

All run without an error; each is a config cause: the branch decided what data or settings reached the run. (In a
task's own test script the `$?` reading is the verifier's: rules/test_status.py.)
"""

from __future__ import annotations

import re
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.shell_pitfalls import case_branches, shell_files
from gym_pipeline.diagnose.user_scripts import assignment_of, lines_matching
from gym_pipeline.diagnose.vocabulary import CONFIG

# `[ ... > word ]` / `[ ... < word ]` (single brackets; `[[ ]]` compares strings, `(( ))` numbers)
_REDIRECT_IN_TEST = re.compile(r"(?<!\[)\[\s+[^\]\n]*?\s(?P<op>[<>])\s*(?P<word>[\w.-]+)\s*\](?!\])")
# `[ $X="dev" ]`, `[[ "$X"==dev ]]`: one word holding the comparison
_ONE_WORD_COMPARISON = re.compile(r"\[\[?\s+(?P<word>\"?\$\{?(?P<name>[A-Za-z_]\w*)\}?\"?(?:==?|!=)(?P<value>[^\s\]]+))"
                                  r"\s+\]\]?")
# `[ -n "$FLAG" ]`, `[ "$FLAG" ]`: whether the value is empty
_NOT_EMPTY_TEST = re.compile(r"\[\[?\s+(?:-n\s+)?\"\$\{?(?P<name>[A-Za-z_]\w*)\}?\"\s+\]\]?")
# `[ -n $FLAG ]`, `test -n ${FLAG}`: unquoted, an unset or empty FLAG leaves `[ -n ]`, which is true
_UNQUOTED_NOT_EMPTY_TEST = re.compile(r"(?:\[\s+|\btest\s+)-n\s+\$\{?(?P<name>[A-Za-z_]\w*)\}?(?=\s|\])")
_CASE = re.compile(r"^\s*case\s+\S+\s+in\b")
_OFF_VALUE = re.compile(r"=[\"']?(?P<value>0|false|no|off)[\"']?\s*(?:#.*)?$", re.I)


def rule_always_true_tests(ev: Evidence) -> list[Finding]:
    for reading in (_redirect_in_test, _one_word_comparison, _switch_tested_for_emptiness, _unquoted_not_empty_test,
                    _catch_all_before_branches, _status_of_a_print):
        if (finding := reading(ev)) is not None:
            return [finding]
    return []


def _redirect_in_test(ev: Evidence) -> Finding | None:
    for file, number, line, match in lines_matching(shell_files(ev), _REDIRECT_IN_TEST):
        word, op = match["word"], match["op"]
        made = ev.run_dir is not None and (ev.run_dir / Path(file.name).parent / word).is_file() and op == ">"
        return Finding(
            category=CONFIG,
            title=f"{file.name}:{number} tests `{match.group(0).strip()}`: inside [ ] `{op}` is a redirection, so the "
                  "test is always true",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                      *([EvidenceLine(file=str(Path(file.name).parent / word), text="an empty file the test made")]
                        if made else [])],
            cause=f"In `[ ... {op} {word} ]` the shell reads `{op} {word}` as a redirection (it "
                  f"{'creates an empty file named ' + word if op == '>' else 'reads from a file named ' + word}), and "
                  "what is left tests only that the value is not empty: always true. The branch meant for one case "
                  "ran every time, without an error.",
            fix=f"Compare numbers in {file.name} with `-gt`/`-lt` (`[ \"$N\" -gt {word} ]`) or `(( N > {word} ))`; "
                f"delete the stray file `{word}`; then run again.",
        )
    return None


def _one_word_comparison(ev: Evidence) -> Finding | None:
    for file, number, line, match in lines_matching(shell_files(ev), _ONE_WORD_COMPARISON):
        name, value = match["name"], match["value"].strip("\"'")
        operator = "!=" if "!=" in match["word"] else "="
        return Finding(
            category=CONFIG,
            title=f"{file.name}:{number} tests `{match.group(0).strip()}`: without spaces around `{operator}` it is one "
                  "word, and the test is always true",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip())],
            cause=f"`{match['word']}` has no spaces, so the shell sees one word (`{name}`'s value joined to "
                  f"`{operator}{value}`), and a test of one non-empty word is true whatever {name} is: the branch meant "
                  f"for {name}={value} ran every time, and the other one never, without an error.",
            fix=f"In {file.name}:{number}, put spaces around the operator: `[ \"${name}\" {operator} \"{value}\" ]`; then "
                f"run again, and check what the run read (its log, the materialized inputs' source) for {name} other "
                f"than {value}.",
        )
    return None


def _switch_tested_for_emptiness(ev: Evidence) -> Finding | None:
    for file, number, line, match in lines_matching(shell_files(ev), _NOT_EMPTY_TEST):
        name = match["name"]
        assigned = assignment_of(ev.user_files, name)
        if assigned is None or (off := _OFF_VALUE.search(assigned[2])) is None:
            continue
        settings, setting_line, setting = assigned
        return Finding(
            category=CONFIG,
            title=f"{file.name}:{number} tests `{match.group(0).strip()}`, which is true for {name}={off['value']} "
                  f"({settings.name}:{setting_line}): the branch meant to be off ran",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                      EvidenceLine(file=settings.name, line=setting_line, text=setting)],
            cause=f"`-n` (and a bare `[ \"${name}\" ]`) asks whether {name} is empty, not what it says: "
                  f"{settings.name}:{setting_line} turns the switch off with `{setting}`, a value that is not empty, "
                  "so the branch ran as if it were on, without an error.",
            fix=f"In {file.name}:{number}, replace `{match.group(0).strip()}` with a test of the value: "
                f"`[ \"${name}\" = 1 ]` (or `(( {name} ))`), or turn the switch off by leaving {name} empty "
                f"(`{name}=`); then run again.",
        )
    return None


def _unquoted_not_empty_test(ev: Evidence) -> Finding | None:
    for file, number, line, match in lines_matching(shell_files(ev), _UNQUOTED_NOT_EMPTY_TEST):
        name = match["name"]
        if assignment_of(ev.user_files, name) is not None:
            continue  # set by the run's files: the test may well be what was meant
        return Finding(
            category=CONFIG,
            title=f"{file.name}:{number} tests `[ -n ${name} ]` with {name} unquoted: when {name} is not set "
                  "the test is `[ -n ]`, which is true, so the branch meant for it ran",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip())],
            cause=f"Nothing in the run's files sets {name}, so `${name}` expands to nothing and, unquoted, leaves no "
                  "word: the shell tests `[ -n ]`, a test of the one non-empty word `-n`, which is true. The branch "
                  f"meant for runs with {name} set ran on this one, without an error.",
            fix=f"In {file.name}:{number}, quote the variable: `[ -n \"${name}\" ]` (or test its value, `[ \"${{{name}:-0}}\" "
                "= 1 ]`); then run again.",
        )
    return None


def _catch_all_before_branches(ev: Evidence) -> Finding | None:
    for file in shell_files(ev):
        lines = file.text.splitlines()
        for start, line in enumerate(lines, 1):
            if not _CASE.match(line):
                continue
            branches = case_branches(lines, start)
            first = next((index for index, (_, _, patterns) in enumerate(branches) if "*" in patterns), None)
            if first is None or first == len(branches) - 1:
                continue
            number, text, patterns = branches[first]
            never = [branch[1].split(")")[0].strip() + ")" for branch in branches[first + 1:]]
            catching, runs = "|".join(patterns), "run" if len(never) > 1 else "runs"
            return Finding(
                category=CONFIG,
                title=f"{file.name}:{number}: the case pattern `{catching}` matches everything, and bash takes the "
                      f"first match: {', '.join(f'`{b}`' for b in never)} after it never {runs}",
                evidence=[EvidenceLine(file=file.name, line=number, text=text)],
                cause=f"In a `case`, bash runs the first branch whose pattern matches and stops; `*` matches any "
                      f"value, so `{catching})` takes every value, and the branch{'es' if len(never) > 1 else ''} "
                      f"{', '.join(f'`{b}`' for b in never)} below it never {runs}: the run got that branch's settings "
                      "whatever it was asked for, without an error.",
                fix=f"In {file.name}, make the catch-all the last branch of the case: take `*` out of `{catching})` "
                    f"and put `*)` after `{never[-1]}`; then run again with the settings meant.",
            )
    return None


_STATUS_TESTED = re.compile(r"\[\[?\s+\"?\$\?\"?\s|\(\(\s*\$\?|^\s*(?:local\s+)?\w+=\"?\$\?\"?\s*(?:#.*)?$")
_PRINTS_ONLY = re.compile(r"^\s*(?:echo|printf|:|true)\b")


def status_of_a_print(lines: list[str]) -> tuple[int, int, tuple[int, str] | None] | None:
    """(the line testing `$?`, the print line just before it, (line, text) of the command before the prints) of the
    first `$?` read right after an `echo` or `printf`: the status of the print, always 0."""
    for number, line in enumerate(lines, 1):
        if not _STATUS_TESTED.search(line) or line.lstrip().startswith("#"):
            continue
        before = [(at, text) for at, text in enumerate(lines[:number - 1], 1)
                  if text.strip() and not text.lstrip().startswith("#")]
        if before and _PRINTS_ONLY.match(before[-1][1]):
            return number, before[-1][0], next(((at, text) for at, text in reversed(before)
                                                if not _PRINTS_ONLY.match(text)), None)
    return None


def status_of_a_print_finding(file: str, lines: list[str], found: tuple[int, int, tuple[int, str] | None],
                              category: str, outcome: str, again: str) -> Finding:
    number, printed_at, meant = found
    printed = lines[printed_at - 1].strip()
    command = meant[1].split()[0] if meant else "the command before it"
    return Finding(
        category=category,
        title=f"{file}:{number} tests `$?` right after the `{printed.split()[0]}` on line {printed_at}: it is that "
              f"print's status, always 0, not {command}'s",
        evidence=[EvidenceLine(file=file, line=number, text=lines[number - 1].strip()),
                  EvidenceLine(file=file, line=printed_at, text=printed),
                  *([EvidenceLine(file=file, line=meant[0], text=meant[1].strip())] if meant else [])],
        cause=f"`$?` holds the status of the last command run, and the line before the test is a print (`{printed}`), "
              f"which succeeds: the test takes the success branch whatever {command} found. {outcome}",
        fix=f"In {file}, test {command} itself (`if {meant[1].strip() if meant else command}; then`), or keep its "
            f"status right after it (`status=$?`) and print after that; then {again}",
    )


def _status_of_a_print(ev: Evidence) -> Finding | None:
    for file in shell_files(ev):
        lines = file.text.splitlines()
        if (found := status_of_a_print(lines)) is not None:
            return status_of_a_print_finding(file.name, lines, found, CONFIG, "The branch meant for success ran every "
                                             "time, without an error.", "run again.")
    return None
