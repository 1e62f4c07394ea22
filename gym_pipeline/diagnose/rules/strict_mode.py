"""Step 1: a script in "strict mode" (`set -euo pipefail`) that stopped part way.

- `set -u`: an optional setting (`$EXTRA_FLAGS`, set only when resuming) passed without a default: on a run where
  nobody set it, bash stops the script there (`EXTRA_FLAGS: unbound variable`), and every command after that line
  never runs.
- `set -e`: `read -r URL < model_url.txt` over a file written without a final newline (`printf '%s' "$URL"`): read
  sets the variable but returns 1 at the end of the file, and `set -e` ends the script there without a word.

- `set -e`: `((step++))` with step at 0: the arithmetic command's value is 0 (the value before the increment), so it
  returns 1, and `set -e` ends the script at its first counter line.

What the run lacks (rollouts, a profile) follows from it. And the other way round:
- `set -e` inside a function called as `prepare || { ...; exit 1; }` (or `if prepare`, `prepare && ...`): bash
  ignores -e in a command whose status is tested, so a failed step of the function (a `cp` of a file not there yet)
  stops nothing, and the run goes on with what the step was meant to replace.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, excerpt
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import UserFile
from gym_pipeline.diagnose.vocabulary import CONFIG, VERIFIER_RUNTIME

_STRICT = re.compile(r"^\s*set\s+(?:-\w*u\w*\b|-o\s+nounset\b)")


def rule_unset_variable_stopped_a_strict_script(ev: Evidence) -> list[Finding]:
    hits = ev.hits("unbound_variable")
    if not hits:
        return []
    hit = hits[0]
    name, number, script = hit.groups["name"], int(hit.groups["line"]), Path(hit.groups["script"]).name
    file = next((file for file in ev.user_files if Path(file.name).name == script), None)
    lines = file.text.splitlines() if file else []
    strict = next(((at, text.strip()) for at, text in enumerate(lines, 1) if _STRICT.match(text)), None)
    read = lines[number - 1].strip() if 0 < number <= len(lines) else None
    # the line reading it may be a continuation of the command bash names
    reading = next(((at, text.strip()) for at, text in enumerate(lines[number - 1:number + 5], number)
                    if re.search(rf"\$\{{?{re.escape(name)}\b(?![:}}]?[-=?+])", text)), None) if lines else None
    # a task's test.sh (its output kept under verifier/) is the verifier: it stopped before it wrote a reward
    verifier = script == "test.sh" or "/verifier/" in f"/{hit.evidence().file}"
    return [Finding(
        category=VERIFIER_RUNTIME if verifier else CONFIG,
        title=f"{script} stopped at line {number}: {name} is unset, and the script runs with `set -u`"
              + (f" ({strict[1]})" if strict else ""),
        evidence=[hit.evidence(),
                  *([EvidenceLine(file=file.name, line=reading[0], text=reading[1])] if file and reading else
                    [EvidenceLine(file=file.name, line=number, text=read)] if file and read else []),
                  *([EvidenceLine(file=file.name, line=strict[0], text=strict[1])] if file and strict else [])],
        cause=f"Under `set -u` bash stops a script that reads a variable nobody set; {script} reads ${name} at line "
              f"{number} without a default, so on this run (where it was not set) bash stopped there, and nothing "
              "after that line ran: what the run lacks past that point follows from it."
              + (f" {script} is the task's verifier: it runs in the sandbox, which has none of the variables a CI "
                 "machine or a login shell sets, and it stopped before it wrote a reward." if verifier else ""),
        fix=f"In {file.name if file else script}, give {name} a default where it is read (`${{{name}:-}}`, or "
            f"`{name}=\"${{{name}:-}}\"` near the top), or set it before the script runs (`set -u` stops at the "
            "first variable nobody set); then "
            + ("check the task with its oracle (`gym-pipeline tasks validate <task folder>`) and collect again." if verifier
               else "run the script again (a collection that had started resumes with --resume)."),
        explains=frozenset({"unbound_variable"}),
    )]


_ERREXIT = re.compile(r"^\s*set\s+(?:-\w*e\w*\b|-o\s+errexit\b)")
_READ_FROM_FILE = re.compile(r"^\s*read\s+(?:-\w+\s+)*(?P<names>[A-Za-z_]\w*(?:\s+[A-Za-z_]\w*)*)\s*<\s*[\"']?"
                             r"(?P<file>[^\s\"'|;&]+)[\"']?\s*(?:#.*)?$")
_ECHOED_TEXT = re.compile(r"\becho\s+[\"'](?P<text>[^\"']+)")
_EXPANDED = re.compile(r"\$(?:\{[^}]*\}|\([^)]*\)|\w+)")


def _errexit_scripts(ev: Evidence) -> Iterator[tuple[UserFile, list[str], tuple[int, str]]]:
    """(file, its lines, (line, text) of its `set -e`) of the user's scripts that set -e, in a run that collected
    nothing: where a silent stop under -e is worth looking for."""
    if ev.run_dir is None or not ev.run_dir.is_dir() or ev.artifacts.rollouts.valid_rows:
        return
    for file in ev.user_files:
        lines = file.text.splitlines()
        strict = next(((at, text.strip()) for at, text in enumerate(lines, 1) if _ERREXIT.match(text)), None)
        if strict is not None:
            yield file, lines, strict


def rule_read_at_the_end_of_a_file_stopped_a_strict_script(ev: Evidence) -> list[Finding]:
    for file, lines, strict in _errexit_scripts(ev):
        for number, line in enumerate(lines[strict[0]:], strict[0] + 1):
            if (read := _READ_FROM_FILE.match(line)) is None:
                continue
            source = ev.run_dir / Path(file.name).parent / read["file"]
            try:
                content = source.read_bytes()[-4096:] if source.is_file() else b""
            except OSError:
                content = b""
            if not content or content.endswith(b"\n"):
                continue
            if _said_after(ev, lines[number:number + 3]):
                continue  # the script went on: the read did not stop it
            return [Finding(
                category=CONFIG,
                title=f"{file.name}:{number} reads {read['file']}, which has no final newline: `read` returned 1 at "
                      f"its end and `set -e` ({strict[1]}) stopped the script there",
                evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                          EvidenceLine(file=ev.rel(source), text="no newline at the end of the file"),
                          EvidenceLine(file=file.name, line=strict[0], text=strict[1])],
                cause=f"`read` sets {read['names'].split()[0]} from the last line but returns 1 when it meets the end "
                      f"of the file before a newline, and {read['file']} was written without one (`printf '%s'`, `echo "
                      "-n`); under `set -e` a failing command ends the script, so nothing after that line ran, and "
                      "no error was printed.",
                fix=f"In {file.name}:{number}, read it so a missing newline does not fail (`"
                    f"{read['names'].split()[0]}=$(cat {read['file']})`, or `read -r ... < {read['file']} || true`), "
                    f"or write {read['file']} with a final newline (`printf '%s\\n' ...`); then run again.",
            )]
    return []


# `((step++))` or `let step++` alone on a line: the command's status is that of the value before the increment
_POST_INCREMENT = re.compile(r"^\s*(?:\(\(\s*(?P<a>[A-Za-z_]\w*)\s*\+\+\s*\)\)|let\s+[\"']?(?P<b>[A-Za-z_]\w*)\+\+[\"']?)"
                             r"\s*(?:#.*)?$")


def rule_arithmetic_zero_stopped_a_strict_script(ev: Evidence) -> list[Finding]:
    """`((step++))` under `set -e` with step at 0: an arithmetic command whose value is 0 returns 1, and a
    post-increment's value is the old one, so the first counter line ends the script without a word."""
    for file, lines, strict in _errexit_scripts(ev):
        for number, line in enumerate(lines[strict[0]:], strict[0] + 1):
            if (counter := _POST_INCREMENT.match(line)) is None:
                continue
            name = counter["a"] or counter["b"]
            assigned = next((text.strip() for text in reversed(lines[:number - 1])
                             if re.match(rf"^\s*(?:local\s+|declare\s+(?:-i\s+)?)?{name}=", text)), None)
            if assigned is None or not re.search(r"=[\"']?0[\"']?\s*(?:#.*)?$", assigned) \
                    or _said_after(ev, lines[number:number + 3]):
                continue
            return [Finding(
                category=CONFIG,
                title=f"{file.name}:{number} `{line.strip()}` counts from {name}=0: its value is 0, so it returned 1 "
                      "and `set -e`" + (f" ({strict[1]})" if strict[1] != "set -e" else "") + " stopped the script there",
                evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                          EvidenceLine(file=file.name, line=strict[0], text=strict[1])],
                cause=f"A bash arithmetic command returns 1 when its value is 0, and `{name}++` has the value {name} had "
                      f"before the increment: from `{assigned}` that is 0, so the line failed; under `set -e` a failing "
                      f"command ends the script, so nothing after line {number} ran, and no error was printed.",
                fix=f"In {file.name}:{number}, count so the command cannot fail under `set -e` (an arithmetic command whose "
                    f"value is 0 has exit status 1): `{name}=$(({name} + 1))` (or "
                    f"`(({name}++)) || true`, or the pre-increment `((++{name}))`); then run again.",
            )]
    return []


def _said_after(ev: Evidence, following: list[str]) -> bool:
    """Whether a log holds what the lines after a command print (their echo's words): the script went on."""
    for text in following:
        if (echoed := _ECHOED_TEXT.search(text)) is None:
            continue
        words = max(_EXPANDED.split(echoed["text"]), key=len).strip()
        if len(words) >= 8:
            return any(words in head for _, head in ev.log_heads)
    return False


_FUNCTION = re.compile(r"^\s*(?:function\s+(?P<a>[A-Za-z_][\w-]*)\s*(?:\(\s*\))?|(?P<b>[A-Za-z_][\w-]*)\s*\(\s*\))\s*\{?\s*$")
_FUNCTION_END = re.compile(r"^\s*\}\s*(?:#.*)?$")
_NOT_COMMANDS = {"set", "echo", "printf", "local", "export", "declare", "return", "cd", "true", ":"}


def _tested_call(lines: list[str], name: str) -> tuple[int, str] | None:
    """(line, text) of a call of function `name` whose status is tested: `name ||`, `name &&`, `if name`, `! name`."""
    tested = re.compile(rf"^\s*(?:(?:if|while|until)\s+!?\s*|!\s*){re.escape(name)}\b"
                        rf"|^\s*{re.escape(name)}\b[^\n#|&;]*(?:\|\||&&)")
    return next(((at, text.strip()) for at, text in enumerate(lines, 1) if tested.search(text)), None)


def _failed_step_said(ev: Evidence, body: list[str]) -> EvidenceLine | None:
    """The log line where a command of the function's body said it failed (`cp: cannot stat ...`)."""
    commands = {word for text in body if (word := text.split(maxsplit=1)[0] if text.split() else "")
                and re.fullmatch(r"[\w.+-]+", word) and word not in _NOT_COMMANDS}
    if not commands:
        return None
    said = re.compile(rf"^(?:{'|'.join(map(re.escape, sorted(commands)))}): \S[^\n]*$", re.M)
    for log, head in ev.log_heads:
        if match := said.search(head):
            return EvidenceLine(file=ev.rel(log), line=head.count("\n", 0, match.start()) + 1, text=match[0])
    return None


def rule_errexit_ignored_in_a_tested_function(ev: Evidence) -> list[Finding]:
    for file in ev.user_files:
        lines = file.text.splitlines()
        for number, line in enumerate(lines, 1):
            if (function := _FUNCTION.match(line)) is None:
                continue
            name = function["a"] or function["b"]
            end = next((at for at, text in enumerate(lines[number:], number + 1) if _FUNCTION_END.match(text)),
                       len(lines))
            body = lines[number:end - 1]
            strict = next(((at, text.split("#", 1)[0].strip()) for at, text in enumerate(body, number + 1)
                           if _ERREXIT.match(text)), None)
            call = _tested_call(lines[end:], name) if strict else None
            failed = _failed_step_said(ev, body) if call else None
            if strict is None or call is None or failed is None:
                continue
            call_line = (end + call[0], call[1])
            return [Finding(
                category=CONFIG,
                title=f"{file.name}:{strict[0]} relies on `{strict[1]}` inside {name}(), but {file.name}:{call_line[0]} "
                      f"calls it as `{excerpt(call_line[1], 40)}`: bash ignores -e there, so a failed step went on",
                evidence=[failed, EvidenceLine(file=file.name, line=strict[0], text=strict[1]),
                          EvidenceLine(file=file.name, line=call_line[0], text=call_line[1])],
                cause=f"`set -e` does not apply inside a command whose status is tested (`{name} ||`, `{name} &&`, "
                      f"`if {name}`), whatever the function sets: so when a step of {name}() failed (`{failed.text}`), "
                      f"the function went on and returned the status of its last command, the `||` never ran, and the "
                      "run used what that step was meant to replace (an old file left from a previous run).",
                fix=f"In {file.name}, make {name}() stop by itself: end each step with `|| return 1` (e.g. "
                    f"`{failed.text.split(':', 1)[0]} ... || return 1`), or call it on a line of its own under "
                    f"`set -e` and check `$?` (not `{call_line[1]}`); then run again from that step.",
            )]
    return []
