"""Step 1: a test in the user's script that is always true, so the branch meant for one case runs every time.

- `[ $N > 100 ]`: inside single brackets `>` and `<` are redirections, not comparisons. The test becomes `[ $N ]`,
  and an empty file named `100` appears beside the script.
- `[ $SPLIT="dev" ]`: without spaces around `=` the test holds one word, `test="dev"` once expanded, and a test of
  one non-empty word is true.
- `[ -n "$SMOKE_TEST" ]` for a switch the run's files turn off with `SMOKE_TEST=0` (or false, no, off): `-n` asks
  whether the value is empty, and `0` is not.
- A `case` branch whose patterns include `*` before other branches (`smoke|*)` meant as "anything else"): bash takes
  the first pattern that matches, so the branches after it never run.

All run without an error; each is a config cause: the branch decided what data or settings reached the run.
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
_CASE = re.compile(r"^\s*case\s+\S+\s+in\b")
_OFF_VALUE = re.compile(r"=[\"']?(?P<value>0|false|no|off)[\"']?\s*(?:#.*)?$", re.I)


def rule_always_true_tests(ev: Evidence) -> list[Finding]:
    for reading in (_redirect_in_test, _one_word_comparison, _switch_tested_for_emptiness, _catch_all_before_branches):
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
