"""Step 2: a checkpoint name built with `printf '%04d'` from a step given zero-padded: printf reads it as octal.

`printf 'step_%04d' "$1"` pads a step to four digits; given the step as the trainer writes it, `0200`, printf reads
the leading zero as octal and prints `step_0128`. The model server is pointed at a folder that does not exist and
never starts. Named when the checkpoint the server did not find has a step that is the octal value of a zero-padded
number the run's scripts or logs name (0200 -> 128), and a script of the run formats a number with printf.
"""

from __future__ import annotations

import re
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, line_of_match
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, lines_matching
from gym_pipeline.diagnose.vocabulary import MODEL_SERVING

_PRINTF_NUMBER = re.compile(r"\bprintf\b[^\n]*%0?\d*d")
_ZERO_PADDED = re.compile(r"(?<![\w.])0[0-7]+(?![\w.])|(?<=step_)0[0-7]+\b")


def _read_as_octal(ev: Evidence, step: int) -> EvidenceLine | None:
    """The first line of a log or script naming a zero-padded number whose octal value is `step`."""
    texts = [(ev.rel(log), head) for log, head in ev.log_heads] + [(file.name, file.text) for file in ev.user_files]
    for name, text in texts:
        for match in _ZERO_PADDED.finditer(text):
            if len(match[0]) > 1 and int(match[0], 8) == step and int(match[0]) != step:
                return line_of_match(name, text, match)
    return None


def rule_step_padded_as_octal(ev: Evidence) -> list[Finding]:
    for hit in ev.hits("checkpoint_missing"):
        name = Path(hit.groups["path"]).name
        if not (digits := re.search(r"(\d+)$", name)):
            continue
        formats = next(lines_matching(ev.user_files, _PRINTF_NUMBER, SCRIPT_SUFFIXES), None)
        given = _read_as_octal(ev, int(digits[1]))
        if formats is None or given is None:
            continue
        file, number, line, _ = formats
        padded = re.search(r"0[0-7]+", given.text.split("step_")[-1]) or re.search(r"0[0-7]+", given.text)
        meant = f"{int(padded[0]):0{len(digits[1])}d}" if padded else "?"
        return [Finding(
            category=MODEL_SERVING,
            title=f"{file.name}:{number} formats the step with printf, which read {padded[0] if padded else 'it'} as "
                  f"octal: the server was pointed at {name}, not step_{meant}, and never started",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()), given,
                      *(missing.evidence() for missing in ev.hits("checkpoint_missing")[:2])],
            cause=f"printf's `%d` reads a number with a leading zero as octal: the step given zero-padded, as the "
                  f"trainer names its folders, became {int(digits[1])}, so the checkpoint path named {name}, which "
                  "does not exist; the model server refused it and everything after found nothing listening.",
            fix=f"In {file.name}:{number}, read the step as decimal before padding it: `printf 'step_%04d' "
                f"\"$((10#$1))\"`, so that {padded[0] if padded else 'the step'} gives step_{meant} (or pass the step "
                "without its zeros, or take the folder name as given); check the path it prints exists, then start "
                "the server and collect again.",
            explains=frozenset({"checkpoint_missing"}),
        )]
    return []
