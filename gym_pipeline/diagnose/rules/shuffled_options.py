"""Step 6: the options of multiple-choice rows shuffled by the user's script, the expected letters left as they were.

A script that reorders each row's options (to undo a position bias: the model picked `A` too often) and rewrites the
prompt's option lines, but never touches `expected_answer`: the letter now points at another option, so right
answers score 0 and the reward collapses. Every command exits 0.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, excerpt
from gym_pipeline.diagnose.findings import Finding, path_of
from gym_pipeline.diagnose.vocabulary import DATA_SCHEMA

_SHUFFLES = re.compile(r"\b(?:shuffle|permutation|sample)\(")
_OPTIONS = re.compile(r"[\"'](?:options|choices)[\"']")
_SETS_THE_ANSWER = re.compile(r"[\"'](?:expected_answer|answer|label)[\"']\]\s*=(?!=)|\b(?:expected_answer|answer)\s*=(?!=)")
_NEAR = 3  # lines before a shuffle where the options it shuffles are taken
ZERO_SHARE = 0.5  # of the scored rollouts: the reward collapsed


def rule_options_shuffled_without_their_answers(ev: Evidence) -> list[Finding]:
    quality = ev.artifacts.quality
    if not quality.scored_rows or quality.zero_rewards < ZERO_SHARE * quality.scored_rows:
        return []
    for file in ev.user_files:
        if file.suffix != ".py" or not _OPTIONS.search(file.text) or _SETS_THE_ANSWER.search(file.text):
            continue
        lines = file.text.splitlines()
        # the shuffle of the options themselves (on its line or the few before), not of the rows
        shuffled = next(((number, line.strip()) for number, line in enumerate(lines, 1)
                         if _SHUFFLES.search(line) and not line.lstrip().startswith("#")
                         and _OPTIONS.search("\n".join(lines[max(number - 1 - _NEAR, 0):number]))), None)
        if shuffled is None:
            continue
        number, line = shuffled
        return [Finding(
            category=DATA_SCHEMA,
            title=f"{file.name}:{number} shuffles the rows' options and leaves their `expected_answer`: "
                  f"{quality.zero_rewards} of {quality.scored_rows} scored rollouts got 0",
            evidence=[EvidenceLine(file=file.name, line=number, text=excerpt(line))],
            cause=f"{file.name} reorders each row's options (`{excerpt(line, 80)}`) but never sets `expected_answer`: "
                  "the expected letter still names the position the right option had before, which now holds "
                  "another, so the model's right answers are scored wrong and the reward collapses.",
            fix=f"In {file.name}, move `expected_answer` with its option: find the letter the right option's text "
                "was given after the shuffle and write that letter; then prepare the data again, materialize and "
                f"collect (the materialized rows: {path_of(ev.artifacts.materialized)}).",
        )]
    return []
