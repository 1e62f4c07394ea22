"""Step 6: a verifier normalizing answers with `str.rstrip("s")` (or `strip`, `lstrip`) given letters.

The other way round: a verifier taking the marker off the answer with `.strip("Final answer: ")` eats the letters of
the answer that are in it (`Paris` becomes `P`): right answers score 0.


The argument of `rstrip` is a set of characters, not a suffix: `"mars".rstrip("s")` is `"mar"`, and so is
`"marss".rstrip("s")`. A verify that makes its comparison "plural-insensitive" that way credits wrong answers
(`Marss`, `Mar` for `Mars`): the rewards are above what the model earned, and nothing fails.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.verifier_source import verify_lines
from gym_pipeline.diagnose.vocabulary import VERIFIER_RUNTIME

STRIPS_LETTERS = re.compile(r"\.(?P<side>r|l)?strip\(\s*[\"'](?P<chars>[^\"']*[A-Za-z][^\"']*)[\"']\s*\)")


def stripped(text: str, side: str, chars: str) -> str:
    """`text` without the characters `chars` on `side` (r, l, or both), as `rstrip`, `lstrip` or `strip` takes them."""
    return text.rstrip(chars) if side == "r" else text.lstrip(chars) if side == "l" else text.strip(chars)


def _credited_by_stripping(ev: Evidence, side: str, chars: str) -> list[tuple[int, str, str]]:
    """(line, expected, extracted) of rollouts scored full whose answer differs from the label until both lose the
    characters `chars` on `side` (r, l, or both)."""
    return [(answer.line, answer.expected, answer.extracted) for answer in ev.graded_answers
            if answer.reward >= 1 and answer.expected.strip().lower() != answer.extracted.strip().lower()
            and stripped(answer.expected.strip().lower(), side, chars)
            == stripped(answer.extracted.strip().lower(), side, chars)]


def _cut_by_stripping(ev: Evidence, side: str, chars: str) -> list[tuple[int, str, str]]:
    """(line, expected, extracted) of rollouts scored 0 whose extracted answer is their label with the characters
    `chars` taken off `side` (r, l, or both): the verifier ate the end of right answers."""
    return [(answer.line, answer.expected, answer.extracted) for answer in ev.graded_answers
            if answer.reward < 1 and answer.extracted and answer.expected.strip() != answer.extracted.strip()
            and stripped(answer.expected.strip(), side, chars) == answer.extracted.strip()]


def rule_letters_stripped_as_a_set(ev: Evidence) -> list[Finding]:
    for file, number, line in verify_lines(ev.verifier_sources, ev.run_dir, STRIPS_LETTERS):
        match = STRIPS_LETTERS.search(line)
        if cut := _cut_by_stripping(ev, match["side"] or "", match["chars"]):
            return [_right_answers_cut(ev, file, number, line, match, cut)]
        credited = _credited_by_stripping(ev, match["side"] or "", match["chars"].lower())
        if not credited:
            continue
        row, expected, extracted = credited[0]
        call = match[0].lstrip(".")
        return [Finding(
            category=VERIFIER_RUNTIME,
            title=f"{file}:{number} compares answers after `{call}`, which strips every one of those characters: "
                  f"{len(credited)} wrong answers scored full ({extracted!r} for {expected!r})",
            evidence=[EvidenceLine(file=file, line=number, text=line),
                      EvidenceLine(file=ev.rel(ev.artifacts.files.rollouts), line=row,
                                   text=f"reward=1 expected_answer={expected!r} extracted_answer={extracted!r}")],
            cause=f"`{call}` takes a set of characters, not a suffix: it removes all of {match['chars']!r} from the "
                  f"end (or start) however many there are, so {extracted!r} and {expected!r} become the same text and "
                  "the wrong answer is credited. The rewards are higher than what the model earned, and nothing "
                  "fails.",
            fix=f"In {file}:{number}, remove one suffix, not a set of characters: for a singular form, "
                f"`word[:-1] if word.endswith(\"s\") else word` (or `word.removesuffix(\"s\")`, Python 3.9+) instead of "
                f"`{call}`; then score the stored responses again, no model needed (`gym-pipeline reverify "
                f"{ev.run_dir} --env <env>`, `--gym` for a Gym resources server), and profile.",
        )]
    return []


def _right_answers_cut(ev: Evidence, file: str, number: int, line: str, match: re.Match[str],
                       cut: list[tuple[int, str, str]]) -> Finding:
    row, expected, extracted = cut[0]
    call = match[0].lstrip(".")
    return Finding(
        category=VERIFIER_RUNTIME,
        title=f"{file}:{number} takes the answer with `{call}`, which strips every one of those characters, not that "
              f"text: {len(cut)} right answers scored 0 ({expected!r} became {extracted!r})",
        evidence=[EvidenceLine(file=file, line=number, text=line),
                  EvidenceLine(file=ev.rel(ev.artifacts.files.rollouts), line=row,
                               text=f"reward=0 expected_answer={expected!r} extracted_answer={extracted!r}")],
        cause=f"`{call}` takes a set of characters, not a prefix or suffix: it removes any of {match['chars']!r} "
              f"from the ends of the answer, as many as there are, so a right answer ending (or starting) in one of "
              f"them loses letters ({expected!r} became {extracted!r}) and scores 0. The rewards are lower than what "
              "the model earned, and nothing fails.",
        fix=f"In {file}:{number}, remove the text itself, not its characters: `.removeprefix({match['chars']!r})` "
            f"(or `.removesuffix`, Python 3.9+; or slice it off after checking `startswith`) instead of `{call}`; then "
            f"score the stored responses again, no model needed (`gym-pipeline reverify {ev.run_dir} --env <env>`, "
            "`--gym` for a Gym resources server), and profile.",
    )
