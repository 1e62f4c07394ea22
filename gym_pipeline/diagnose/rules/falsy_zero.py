"""Step 6: a verifier that skips an answer with `if not answer:` after parsing it as a number, so 0 counts as none.

A verify that parses the final answer as a number (`float(...)`) and then treats a missing one with `if not answer:`
treats the number 0 the same way: 0.0 is false in Python. The tasks whose right answer is 0 never score (their answer
is recorded as not extracted), while every other task scores normally. Nothing fails.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, excerpt
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.jsonl_rows import readable_rows
from gym_pipeline.diagnose.verifier_source import verify_lines
from gym_pipeline.diagnose.vocabulary import VERIFIER_RUNTIME

_NOT_NAME = re.compile(r"^\s*(?:el)?if\s+not\s+(?P<name>[A-Za-z_]\w*)\s*:")
_ZERO = re.compile(r"^[+-]?0+(?:\.0*)?$")
_LAST_NUMBER_ZERO = re.compile(r"(?<![\d.])[+-]?0+(?:\.0*)?\s*\.?\s*$")
ROWS_READ = 2000
MIN_ROWS = 2


def _numeric_assignment(lines: list[tuple[str, int, str]], name: str) -> bool:
    """Whether a line of the verify assigns `name` from a number's parse (`float(`, `int(`, `_number(`...)."""
    parse = re.compile(rf"^\s*{name}\s*=\s*[^\n]*\b(?:float|int|Decimal|\w*num\w*|\w*parse\w*)\(", re.I)
    return any(parse.search(text) for _, _, text in lines)


def _zero_answers_taken_for_none(ev: Evidence) -> list[tuple[int, str]]:
    """(line, the reply's last line) of rollouts scored 0, labelled 0, with no extracted answer while their reply
    ends with a 0."""
    texts = {answer.line: answer.text for answer in ev.answer_texts}
    found = []
    for number, row in readable_rows(ev.artifacts.files.rollouts, ROWS_READ):
        label, reply = row.get("expected_answer"), texts.get(number, "")
        if row.get("reward") == 0 and not row.get("extracted_answer") and _ZERO.match(str(label).strip()) \
                and reply.strip() and _LAST_NUMBER_ZERO.search(reply.strip().splitlines()[-1]):
            found.append((number, reply.strip().splitlines()[-1].strip()))
    return found


def rule_zero_answer_taken_for_none(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None:
        return []
    lines = verify_lines(ev.verifier_sources, ev.run_dir, re.compile(r"."))
    check = next(((file, number, text, match["name"]) for file, number, text in lines
                  if (match := _NOT_NAME.match(text)) and _numeric_assignment(lines, match["name"])), None)
    if check is None or len(zeros := _zero_answers_taken_for_none(ev)) < MIN_ROWS:
        return []
    file, number, text, name = check
    row, reply = zeros[0]
    return [Finding(
        category=VERIFIER_RUNTIME,
        title=f"{file}:{number} `{excerpt(text, 60)}` takes the number 0 for no answer: {len(zeros)} replies "
              "answering 0 to tasks labelled 0 scored 0",
        evidence=[EvidenceLine(file=file, line=number, text=text),
                  EvidenceLine(file=ev.rel(ev.artifacts.files.rollouts), line=row,
                               text=f"expected_answer 0, no extracted answer, reward 0; the reply ends {reply!r}")],
        cause=f"The verify parses the answer as a number into `{name}` and then skips a missing one with `if not "
              f"{name}:`; 0 (and 0.0) is false in Python, so a right answer of 0 is taken for no answer and scored 0. "
              "The tasks whose label is 0 never score, whatever the model answers; the others score normally.",
        fix=f"In {file}:{number}, test for a missing answer explicitly: `if {name} is None:` instead of `if not "
            f"{name}:`; then score the stored responses again, no model needed (`gym-pipeline reverify "
            f"{ev.run_dir} --env <env>`), and profile.",
    )]
