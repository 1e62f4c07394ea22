"""Accepted answers joined into one label: `Paris|City of Paris` as a row's `expected_answer`.

A data script that keeps every accepted answer of a question often joins them into the one label field, believing the
grader takes any of them. A verifier that compares the answer with the whole expected answer (string_match does)
never finds `Paris` equal to `Paris|City of Paris`: every task with more than one accepted answer scores 0, while the
others score as usual.
"""

from __future__ import annotations

from gym_pipeline.diagnose.data_preparation import label_line
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding, path_of
from gym_pipeline.diagnose.vocabulary import DATA_SCHEMA

MIN_ANSWERS = 2


def rule_accepted_answers_joined_into_one_label(ev: Evidence) -> list[Finding]:
    a = ev.artifacts
    quality = a.quality
    if quality.joined_labels < MIN_ANSWERS or quality.joined_label_example is None:
        return []
    separator = quality.joined_separator
    label = label_line(ev.user_files)
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{quality.joined_labels} answers scored 0 are one of the answers their `expected_answer` joins with "
              f"'{separator}': several accepted answers were written into one label",
        evidence=[quality.joined_label_example,
                  *([EvidenceLine(file=label.file.name, line=label.number, text=label.text.strip())] if label else [])],
        cause=f"The rows keep every accepted answer of a question in one string joined by '{separator}', but the "
              "verifier compares the answer with the whole `expected_answer`: a correct answer is one of the "
              "alternatives, never all of them, so these tasks score 0 whatever the model answers."
              + (f" {label.named()} builds the label." if label else ""),
        fix=(f"In {label.file.name} line {label.number}, write one answer per `expected_answer` (the canonical one) "
             f"instead of joining them with '{separator}'" if label else
             f"Write one answer per `expected_answer` (the canonical one) instead of joining them with '{separator}'")
            + ", or score with a verifier that takes a list of accepted answers; then materialize again and collect "
            f"(or score the stored responses again). The materialized rows: {path_of(a.materialized)}.",
    )]
