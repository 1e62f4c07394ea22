"""Step 5: labels cut by `str.strip` given a word (`answer.strip("Answer: ")`), which strips characters, not a prefix.

A prep script removes a sheet's `Answer: ` prefix with `strip("Answer: ")`. `strip` takes its argument as a set of
characters and removes any of them from both ends, so labels that begin or end with one of those letters lose it
too: `Lisbon` becomes `Lisbo`, `Athens` becomes `th`. The model's right answers to those questions score 0 and
every command exits 0. Read when the answers scored 0, stripped the same way, are their labels.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding, plural
from gym_pipeline.diagnose.rules.stripped_characters import STRIPS_LETTERS, stripped
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import DATA_SCHEMA

MIN_CHARS = 3  # a word such as `Answer: `, not one character stripped on purpose
MIN_ANSWERS = 2


def rule_labels_cut_by_strip_with_a_word(ev: Evidence) -> list[Finding]:
    for file, number, line, match in lines_matching(ev.user_files, STRIPS_LETTERS, {".py"}):
        chars, side = match["chars"], match["side"] or ""
        if line.lstrip().startswith("#") or len(chars) < MIN_CHARS:
            continue
        cut = [answer for answer in ev.graded_answers if answer.reward == 0 and answer.extracted
               and answer.extracted != answer.expected and stripped(answer.extracted, side, chars) == answer.expected]
        if len({answer.expected for answer in cut}) < MIN_ANSWERS:
            continue
        example = cut[0]
        prefix = chars.strip() or chars
        return [Finding(
            category=DATA_SCHEMA,
            title=f"{file.name}:{number} strips labels with `{side}strip({chars!r})`, which removes characters, not "
                  f"the prefix: {example.extracted!r} became the label {example.expected!r}, and "
                  f"{plural(len(cut), 'right answer')} scored 0",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                      EvidenceLine(file=ev.rel(ev.artifacts.files.rollouts), line=example.line,
                                   text=f"expected_answer={example.expected!r} extracted_answer={example.extracted!r} "
                                        "reward=0.0")],
            cause=f"`{side}strip({chars!r})` takes its argument as a set of characters and removes any of them from "
                  f"the {'start' if side == 'l' else 'end' if side == 'r' else 'both ends'} of the text, so labels "
                  f"that begin or end with one of those letters lose it too ({example.extracted!r} -> "
                  f"{example.expected!r}): the model's right answers are graded against the cut labels and score 0. "
                  "Every command exits 0.",
            fix=f"In {file.name} line {number}, remove the prefix itself: `.removeprefix({prefix!r}).strip()` (or "
                f"`re.sub(r'^{re.escape(prefix)}\\s*', '', text)`) instead of `{side}strip({chars!r})`; then write the "
                "rows again, materialize again and collect on a clean output path.",
        )]
    return []
