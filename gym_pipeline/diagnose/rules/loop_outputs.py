"""Step 1: a user's loop over several inputs (splits, shards, environments) that writes every pass to the same output.

`for SPLIT in dev test; do materialize --input data/$SPLIT.jsonl --output inputs.jsonl; collect ... --output
rollouts.jsonl; done`: each pass starts the output afresh, so after the loop it holds the last item's rows only, and
the profile after it covers one split where the script means all of them. Nothing fails. Read from the script: the
loop variable is in the command's input and not in its output, and nothing in the loop moves to a folder of its own.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.command_lines import gym_commands
from gym_pipeline.diagnose.user_scripts import FOR_ITEMS, SCRIPT_SUFFIXES, UserFile, loop_body
from gym_pipeline.diagnose.vocabulary import CONFIG

_WRITES = re.compile(r"\b(?:materialize|collect)\b|\bgym\s+eval\s+run\b")
_INPUT = re.compile(r"(?:--input[s]?[ =]|input_jsonl_fpath=)(?P<path>\S+)")
_OUTPUT = re.compile(r"(?:--output[ =]|output_jsonl_fpath=)(?P<path>\S+)")
_ASSIGNED = re.compile(r"^\s*(?:export\s+|local\s+)?(?P<name>[A-Za-z_]\w*)=")  # `OUT=results/$SPLIT` in the loop
_MOVES_AWAY = re.compile(r"^\s*(?:cd|pushd|mv|cp)\b")  # a pass that changes folder, or moves its output away


def _uses(text: str, name: str) -> bool:
    return re.search(rf"\$\{{?{name}\b", text) is not None


def _loop_over_one_output(file: UserFile) -> tuple[int, str, str, list[str], list[tuple[int, str, str]]] | None:
    """(loop line, its text, the variable, its items, [(line, command, output)]) of a `for` loop over two items or
    more whose commands read an input named by the variable and write an output that is not."""
    lines = file.text.splitlines()
    commands = list(gym_commands([file]))
    for number, line in enumerate(lines, 1):
        loop = FOR_ITEMS.match(line)
        if loop is None or len(items := loop["items"].split()) < 2:
            continue
        body = [text for _, text in loop_body(lines, number)]
        end = number + len(body) + 1  # the line of its `done`
        name = loop["name"]
        if any(_MOVES_AWAY.match(text) and _uses(text, name) or _MOVES_AWAY.match(text) and "rollouts" in text
               for text in body):
            continue
        derived = [name, *(assigned["name"] for text in body
                           if (assigned := _ASSIGNED.match(text)) is not None and _uses(text, name))]
        fixed = [(at, command, output["path"]) for _, at, command in commands if number < at < end
                 and _WRITES.search(command) and (output := _OUTPUT.search(command)) is not None
                 and not any(_uses(output["path"], each) for each in derived)
                 and (given := _INPUT.search(command)) is not None
                 and (_uses(given["path"], name) or any(_uses(text, name) for text in body if "materialize" in text))]
        if fixed:
            return number, line.strip(), name, items, fixed
    return None


def rule_loop_writes_every_item_to_one_output(ev: Evidence) -> list[Finding]:
    for file in ev.user_files:
        if file.suffix not in SCRIPT_SUFFIXES or (found := _loop_over_one_output(file)) is None:
            continue
        number, line, name, items, fixed = found
        outputs = ", ".join(dict.fromkeys(output for _, _, output in fixed))
        return [Finding(
            category=CONFIG,
            title=f"{file.name}:{number} runs once per {name} ({', '.join(items)}) but writes every pass to the same "
                  f"{outputs}: only the last ({items[-1]}) is left",
            evidence=[EvidenceLine(file=file.name, line=number, text=line),
                      *(EvidenceLine(file=file.name, line=at, text=command.strip()) for at, command, _ in fixed[:2])],
            cause=f"Each pass of the loop reads its own input (${name} is in it) and writes {outputs}, which the "
                  f"${name} is not in: every pass starts those files afresh, so after the loop they hold the "
                  f"{items[-1]} rows only, and what follows (the profile) covers {items[-1]} where the script means "
                  f"{' and '.join(items)}. Nothing fails.",
            fix=f"In {file.name}, put ${name} in every output the loop writes (`--output rollouts_${name}.jsonl`, "
                f"the materialized inputs too, or a folder per {name}: `--output results/${name}/rollouts.jsonl`), "
                f"and profile each {name}'s files (or join them after the loop); then run again.",
        )]
    return []
