"""Step 5: labels that are a missing value written out as text (`None`, `nan`, `null`).

A prep script that writes `str(label)` after a lookup that came back empty gives the row the label `'None'` (pandas'
empty cell: `'nan'`; JavaScript's: `'undefined'`). The commonest way there: a fallback written with `or`
(`rec.get("answer") or rec.get("legacy_answer")`), which takes a real answer of 0 (or `""`, `False`) for missing.
The rows are valid and every command exits 0; those tasks can never be answered right.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.data_preparation import label_line
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding, plural
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import DATA_SCHEMA

_MISSING_TEXTS = {"None", "nan", "NaN", "null", "undefined"}
MAX_SHARE = 0.5  # of the tasks: more is a column that is empty or misnamed, read elsewhere
# a label's fallback with `or`: `rec.get("answer") or rec.get("legacy_answer")`, `row["answer"] or default`
_OR_FALLBACK = re.compile(r"=\s*(?P<first>[^=\n#]*?(?:\.get\([^)]*\)|\[[^\]]+\]))\s+or\s+(?P<second>[^\n#]+)")


def rule_labels_that_are_a_missing_value(ev: Evidence) -> list[Finding]:
    quality = ev.artifacts.quality
    expected = quality.expected_of_task
    # a quiz whose right answer is the word None is answered right now and then: only labels nothing matched count
    missing = sorted(task for task, label in expected.items()
                     if label in _MISSING_TEXTS and not quality.reward_sum_of_task.get(task))
    if not missing or len(missing) > MAX_SHARE * len(expected):
        return []
    label = expected[missing[0]]
    fallback = next(lines_matching(ev.user_files, _OR_FALLBACK, {".py"}), None)
    written = label_line(ev.user_files)
    _, line, prompt = quality.prompt_of_task.get(missing[0], (0, 1, ""))
    evidence = [EvidenceLine(file=ev.rel(ev.artifacts.materialized.path), line=line,
                             text=f"task {missing[0]}: expected_answer={label!r} ({prompt})")]
    if fallback:
        file, number, text, match = fallback
        evidence.append(EvidenceLine(file=file.name, line=number, text=text.strip()))
        where = f"{file.name} line {number} (`{text.strip()}`)"
        cause = (f" {where} falls back with `or`, which takes every false value for missing: an answer of 0 (or "
                 "an empty string, False) is replaced by the fallback, here empty, and written as text.")
        fix = (f"In {where}, fall back only when the value is missing: `{match['first'].strip()} if "
               f"{match['first'].strip()} is not None else {match['second'].strip()}` (test `is None`, not "
               "truth)")
    else:
        where = f"{written.named()}" if written else "the script that writes the rows"
        cause = f" {where} writes a value its lookup did not find as text."
        fix = f"In {where}, take the label from the field that holds it and fail on a missing one instead of writing it"
    if written and not fallback:
        evidence.append(EvidenceLine(file=written.file.name, line=written.number, text=written.text.strip()))
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{plural(len(missing), 'task')} of {len(expected)} have the label {label!r}: a missing value "
              "written out as text, which no answer can match",
        evidence=evidence,
        cause=f"The expected answer of {plural(len(missing), 'task')} is {label!r}, the text of a missing "
              f"value, not an answer.{cause} The model's answers to those tasks all score 0 while every command "
              "exits 0.",
        fix=fix + "; write the rows again, materialize again and collect on a clean output path.",
    )]
