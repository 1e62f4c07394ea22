"""Step 6: a verify that throws away answers longer than a limit, and labels longer than it.

A "short-answer guard" copied from another benchmark (`if len(extracted) > MAX_ANSWER_CHARS: extracted = None`)
makes every answer longer than the limit count as no answer. On a split whose labels are longer (`Vincent van
Gogh`), the right answers to those tasks all score 0 with no extracted answer, while the short ones score: every
command exits 0.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.answer_texts import MAX_ROWS_READ
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.jsonl_rows import readable_rows
from gym_pipeline.diagnose.verifier_source import verify_lines
from gym_pipeline.diagnose.vocabulary import VERIFIER_RUNTIME

_LENGTH_GUARD = re.compile(r"\blen\((?P<what>[^()]*(?:\([^()]*\))?[^()]*)\)\s*(?P<op>>=?)\s*(?P<limit>\d+|[A-Z][A-Z0-9_]*)")
MIN_ROWS = 3


def _limit(value: str, lines: list[tuple[str, int, str]], file: str) -> int | None:
    if value.isdigit():
        return int(value)
    for shown, _, text in lines:
        if shown == file and (found := re.match(rf"^{value}\s*(?::\s*\w+\s*)?=\s*(?P<n>\d+)\b", text)):
            return int(found["n"])
    return None


def rule_long_answers_dropped_by_a_length_guard(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None:
        return []
    for file, number, text in verify_lines(ev.verifier_sources, ev.run_dir, _LENGTH_GUARD):
        guard = _LENGTH_GUARD.search(text)
        limit = _limit(guard["limit"], ev.verifier_lines, file)
        if limit is None:
            continue
        longest = limit if guard["op"] == ">" else limit - 1  # the longest answer the guard keeps
        long_rows, short_scored = [], False
        for line, row in readable_rows(ev.artifacts.files.rollouts, MAX_ROWS_READ):
            expected, reward = row.get("expected_answer"), row.get("reward")
            if not isinstance(expected, str) or not isinstance(reward, int | float):
                continue
            if len(expected.strip()) > longest:
                long_rows.append((line, expected, reward, row.get("extracted_answer")))
            elif reward > 0:
                short_scored = True
        if len(long_rows) < MIN_ROWS or not short_scored or any(reward > 0 for _, _, reward, _ in long_rows):
            continue
        labels = sorted({expected for _, expected, _, _ in long_rows})
        first = long_rows[0]
        return [Finding(
            category=VERIFIER_RUNTIME,
            title=f"{file}:{number} drops answers longer than {longest} characters (`{text}`): the "
                  f"{len(labels)} tasks whose expected answer is longer ({', '.join(repr(x) for x in labels[:3])}) "
                  "score 0 on every rollout",
            evidence=[EvidenceLine(file=file, line=number, text=text),
                      EvidenceLine(file=ev.rel(ev.artifacts.files.rollouts), line=first[0],
                                   text=f"reward={first[2]:g} expected_answer={first[1]!r} "
                                        f"extracted_answer={first[3]!r}")],
            cause=f"The verify keeps no answer longer than {longest} characters (a guard against rambling answers, "
                  f"from a short-answer benchmark). This split's labels {', '.join(repr(x) for x in labels[:3])} are "
                  "longer, so a right answer to those tasks is thrown away before it is compared and every rollout "
                  "of them scores 0, while the shorter answers score.",
            fix=f"In {file}:{number}, drop the length guard from verify or raise its limit ({guard['limit']}) above the length "
                f"of the longest expected answer ({max(len(x) for x in labels)} characters), or apply it only to the "
                "benchmark it came from; then restart the servers, score the stored responses again and profile.",
        )]
    return []
