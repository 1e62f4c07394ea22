"""Step 2: a model server started in the background inside a command substitution, which never returns.

`URL=$(start_policy step_0200)`, where `start_policy` runs `serve-policy ... &` and prints the address: the server
inherits the substitution's stdout, a pipe, and keeps it open as long as it runs. Bash reads that pipe until every
writer closes it, so the assignment waits for the server to exit: the server comes up, but the script never gets
past the line, nothing is collected, and a time limit ends it (or it hangs). The server's output must go elsewhere.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.logs import TIMED_OUT
from gym_pipeline.diagnose.user_scripts import MODEL_SERVER_COMMAND, SCRIPT_SUFFIXES, UserFile
from gym_pipeline.diagnose.vocabulary import CONFIG, MODEL_SERVING

_FUNCTION = re.compile(r"^\s*(?:function\s+)?(?P<name>[A-Za-z_][\w-]*)\s*\(\s*\)\s*\{?\s*$")
# a command put in the background whose stdout is not redirected (`> file`, `>/dev/null`, `&>`; `>&2` sends it to
# stderr, which the substitution does not read)
_BACKGROUND = re.compile(r"^(?P<command>[^#\n]*[^&\s>])\s*&\s*(?:#.*)?$")
_STDOUT_REDIRECTED = re.compile(r"(?:^|\s)(?:1?>|&>)\s*(?!&1)\S")


def _functions(file: UserFile) -> dict[str, tuple[int, list[tuple[int, str]]]]:
    """name -> (line of its header, [(line, text)] of its body) of each shell function of `file`."""
    found, lines = {}, file.text.splitlines()
    for number, line in enumerate(lines, 1):
        if header := _FUNCTION.match(line):
            body = []
            for offset, text in enumerate(lines[number:], number + 1):
                if re.match(r"^\s*}\s*$", text):
                    break
                body.append((offset, text))
            found[header["name"]] = (number, body)
    return found


def _servers_in_substitutions(file: UserFile):
    """(call line, call text, background line, background text) of each function started in `$(...)` whose body puts
    a command in the background with its stdout left on the substitution's pipe."""
    functions = _functions(file)
    for number, line in enumerate(file.text.splitlines(), 1):
        for call in re.finditer(r"\$\(\s*(?P<name>[A-Za-z_][\w-]*)\b", line):
            if call["name"] not in functions or line.lstrip().startswith("#"):
                continue
            for inner, text in functions[call["name"]][1]:
                background = _BACKGROUND.match(text)
                if background and not _STDOUT_REDIRECTED.search(background["command"]):
                    yield number, line.strip(), inner, text.strip(), call["name"]


def rule_server_started_in_a_command_substitution(ev: Evidence) -> list[Finding]:
    if ev.artifacts.files.rollouts.is_file():
        return []  # the script got past the substitution
    timed_out = ev.first_in_log_heads(TIMED_OUT)
    for file in ev.user_files:
        if file.suffix not in SCRIPT_SUFFIXES:
            continue
        for number, line, inner, text, name in _servers_in_substitutions(file):
            server = bool(MODEL_SERVER_COMMAND.search(text))
            return [Finding(
                category=MODEL_SERVING if server else CONFIG,
                title=f"{file.name}:{number} runs `{name}` in a command substitution, and {name} leaves "
                      f"{'the model server' if server else 'a background command'} ({file.name}:{inner}) on its "
                      "output pipe: the assignment waits for it to exit, so the script never went on"
                      + (" before its time limit" if timed_out else ""),
                evidence=[EvidenceLine(file=file.name, line=number, text=line),
                          EvidenceLine(file=file.name, line=inner, text=text),
                          *([timed_out[0]] if timed_out else [])],
                cause=f"`{line}` reads {name}'s output until every process holding the pipe closes it; {name} starts "
                      f"`{text}` in the background with its stdout still on that pipe, so the command substitution "
                      "ends only when that process does. The server came up, but nothing after the line ran: no "
                      "inputs were materialized and no rollout collected.",
                fix=f"In {file.name} line {inner}, redirect the background command's stdout away from the command "
                    f"substitution (`{text.rstrip('&').rstrip()} > logs/model_server.log 2>&1 &`), so that "
                    f"`$({name} ...)` returns as soon as {name} has printed the address; then run again.",
            )]
    return []
