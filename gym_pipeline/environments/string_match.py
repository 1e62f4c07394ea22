"""Gym's `string_match` environment: extract an answer from the response and compare it as a string.

Dataset fields: `expected_answer` (required), `extraction_mode` ("boxed",
"final_answer" or "last_line"; Gym's default "final_answer"), `case_sensitive`
(Gym's default false). The bundled dataset adds `difficulty` (1-5) and
`distractors` (plausible wrong answers, read only by the simulated policy).
"""

from __future__ import annotations

import re
from typing import Any

from gym_pipeline.environments.base import Environment, VerifierInputError, require

EXTRACTION_MODES = ("boxed", "final_answer", "last_line")
DEFAULT_EXTRACTION_MODE = "final_answer"

_BOXED_START = re.compile(r"\\boxed\{")
_FINAL_ANSWER = re.compile(r"final answer\s*:", re.IGNORECASE)


def extract_boxed(text: str) -> str | None:
    r"""The content of the last `\boxed{...}` whose braces balance (nested braces allowed)."""
    for match in reversed(list(_BOXED_START.finditer(text))):
        depth = 1
        for index in range(match.end(), len(text)):
            depth += {"{": 1, "}": -1}.get(text[index], 0)
            if depth == 0:
                return text[match.end() : index].strip()
    return None


def extract_final_answer(text: str) -> str | None:
    """The rest of the line after the last `Final answer:` (any case), without a trailing period."""
    matches = list(_FINAL_ANSWER.finditer(text))
    if not matches:
        return None
    answer = text[matches[-1].end() :].split("\n", 1)[0].strip().rstrip(".").strip()
    return answer or None


def extract_last_line(text: str) -> str | None:
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()
    return None


_EXTRACTORS = {"boxed": extract_boxed, "final_answer": extract_final_answer, "last_line": extract_last_line}


def extract_answer(text: str, mode: str) -> str | None:
    return _EXTRACTORS[mode](text)


def normalize(text: str, case_sensitive: bool) -> str:
    collapsed = " ".join(text.split())
    return collapsed if case_sensitive else collapsed.casefold()


class StringMatchEnvironment(Environment):
    name = "string_match"

    def verify(self, row: dict[str, Any], response_text: str) -> dict[str, Any]:
        expected = require(row, "expected_answer", str)
        if not expected.strip():
            raise VerifierInputError("expected_answer", "is empty")
        mode = row.get("extraction_mode", DEFAULT_EXTRACTION_MODE)
        if mode not in EXTRACTION_MODES:
            raise VerifierInputError("extraction_mode", f"{mode!r} is not one of {list(EXTRACTION_MODES)}")
        case_sensitive = row.get("case_sensitive", False)
        if not isinstance(case_sensitive, bool):
            raise VerifierInputError("case_sensitive", f"expected bool, got {type(case_sensitive).__name__}")

        extracted = extract_answer(response_text, mode)
        correct = extracted is not None and normalize(extracted, case_sensitive) == normalize(expected, case_sensitive)
        return self.verdict(1.0 if correct else 0.0, expected_answer=expected, extracted_answer=extracted)

    def knowledge_entry(self, row: dict[str, Any]) -> dict[str, Any]:
        answer = require(row, "expected_answer", str)
        distractors = row.get("distractors") or derived_distractors(answer)
        if not isinstance(distractors, list) or not all(isinstance(d, str) for d in distractors):
            raise VerifierInputError("distractors", "expected a list of strings")
        return {"prompt": self.prompt_text(row), "answer": answer, "distractors": distractors}


def derived_distractors(answer: str) -> list[str]:
    """Near misses for a row without `distractors`: neighbouring integers, or misspellings."""
    try:
        number = int(answer)
    except ValueError:
        middle = len(answer) // 2
        candidates = [answer[:middle] + answer[middle + 1 :], answer[:-1], answer + answer[-1], answer + "s"]
    else:
        candidates = [str(number + 1), str(number - 1), str(number + 10)]
    # A dropped letter can coincide with another candidate ("Apple" -> "Aple") or be empty ("K" -> "").
    unique = [c for c in dict.fromkeys(candidates) if c.strip() and normalize(c, False) != normalize(answer, False)]
    return unique[:3]
