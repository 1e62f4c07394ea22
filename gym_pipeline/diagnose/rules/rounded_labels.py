"""Step 6: labels computed with Python's `round`, which rounds halves to the even neighbour.

A drill generator writes `str(round(a / b))` for "rounded to the nearest whole number (halves round up)": `round(2.5)`
is 2 and `round(4.5)` is 4 (banker's rounding), so every question whose quotient ends in .5 below an odd number gets
a label one short of the answer the question asks for. The model's right answers score 0, one off the label, and
every command exits 0. Named from the generator's line and the answers scored 0 that are their whole-number label
plus or minus one.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import DATA_SCHEMA

# a label written through Python's round to a whole number: `"expected_answer": str(round(a / b))`
_ROUNDED_LABEL = re.compile(r"\bround\((?P<value>[^,()]*(?:\([^()]*\)[^,()]*)*)\)(?!\s*,)")
_WHOLE = re.compile(r"-?\d+")
_MIN_ONE_OFF = 2


def rule_labels_rounded_half_to_even(ev: Evidence) -> list[Finding]:
    whole = [answer for answer in ev.graded_answers if answer.reward == 0
             and _WHOLE.fullmatch(answer.expected.strip()) and _WHOLE.fullmatch(answer.extracted.strip())]
    one_off = [answer for answer in whole if abs(int(answer.expected) - int(answer.extracted)) == 1]
    # a model's near misses are some of its wrong answers; labels rounded the other way make most of them
    if len(one_off) < _MIN_ONE_OFF or len(one_off) * 3 < len(whole):
        return []
    writing = [file for file in ev.user_files if file.suffix == ".py" and "expected_answer" in file.text]
    found = next(lines_matching(writing, _ROUNDED_LABEL), None)
    if found is None:
        return []
    file, number, line, match = found
    first = one_off[0]
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{len(one_off)} answers scored 0 are one off their whole-number label, which {file.name}:{number} "
              f"computes with Python's `round`, rounding halves to even ({first.extracted.strip()!r} for "
              f"{first.expected.strip()!r})",
        evidence=[EvidenceLine(file=ev.rel(ev.artifacts.files.rollouts), line=first.line,
                               text=f"reward=0 expected_answer={first.expected!r} extracted_answer={first.extracted!r}"),
                  EvidenceLine(file=file.name, line=number, text=line.strip())],
        cause=f"`round({match['value']})` rounds a value ending in .5 to the even whole number (`round(2.5)` is 2, "
              "`round(4.5)` is 4: banker's rounding), not up, so the labels of those questions are one short of the "
              "answer the questions ask for, and the model's right answers score 0. Every command exits 0.",
        fix=f"In {file.name} (line {number}), round as the questions say (halves round up): "
            f"`math.floor({match['value']} + 0.5)` instead of `round({match['value']})` (or `Decimal(...).quantize("
            "Decimal(1), rounding=ROUND_HALF_UP)`), so `expected_answer` is the number asked for; then build the "
            "tasks again, materialize and collect.",
    )]
