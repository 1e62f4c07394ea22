"""Multiple-choice QA, like Gym's `mcqa` resources server in its `Answer: <LETTER>` grading mode.

Dataset fields: `options`, a list of one-entry dicts `[{"A": "text"}, {"B": "text"}, ...]`
(Gym's format, the letters in order), and `expected_answer`, the correct letter. The
prompt lists the options and asks the model to end with `Answer: <LETTER>`. The
bundled dataset adds `difficulty` (1-5).
"""

from __future__ import annotations

import re
from typing import Any

from gym_pipeline.environments.base import Environment, VerifierInputError, require

_ANSWER_LETTER = re.compile(r"answer\s*:\s*\(?([A-Za-z])\)?(?![A-Za-z])", re.IGNORECASE)
_LONE_LETTER = re.compile(r"\(?([A-Za-z])\)?\.?")


def option_letters(row: dict[str, Any]) -> list[str]:
    """The option letters of a row, validating the `options` field."""
    options = require(row, "options", list)
    letters = []
    for option in options:
        if not (isinstance(option, dict) and len(option) == 1):
            raise VerifierInputError(
                "options", f"each option must be a one-entry dict like {{'A': 'text'}}, got {option!r}"
            )
        (letter, text), = option.items()
        if not (len(letter) == 1 and letter.isalpha() and letter.isupper() and isinstance(text, str)):
            raise VerifierInputError("options", f"option {option!r} needs an uppercase letter key and a text value")
        letters.append(letter)
    if len(set(letters)) != len(letters) or len(letters) < 2:
        raise VerifierInputError("options", f"needs at least two options with distinct letters, got {letters}")
    return letters


def extract_letter(text: str, letters: list[str]) -> str | None:
    """The letter of the last `Answer: X`; failing that, a lone letter on the last non-empty line."""
    matches = _ANSWER_LETTER.findall(text)
    candidate = matches[-1] if matches else None
    if candidate is None:
        last_line = next((line.strip() for line in reversed(text.splitlines()) if line.strip()), "")
        lone = _LONE_LETTER.fullmatch(last_line)
        candidate = lone.group(1) if lone else None
    if candidate is None or candidate.upper() not in letters:
        return None
    return candidate.upper()


class McqaEnvironment(Environment):
    name = "mcqa"

    def _expected(self, row: dict[str, Any], letters: list[str]) -> str:
        expected = require(row, "expected_answer", str).strip().upper()
        if expected not in letters:
            raise VerifierInputError("expected_answer", f"{expected!r} is not one of the option letters {letters}")
        return expected

    def verify(self, row: dict[str, Any], response_text: str) -> dict[str, Any]:
        letters = option_letters(row)
        expected = self._expected(row, letters)
        extracted = extract_letter(response_text, letters)
        return self.verdict(1.0 if extracted == expected else 0.0, expected_answer=expected, extracted_answer=extracted)

    def knowledge_entry(self, row: dict[str, Any]) -> dict[str, Any]:
        letters = option_letters(row)
        expected = self._expected(row, letters)
        return {
            "prompt": self.prompt_text(row),
            "answer": expected,
            "distractors": [letter for letter in letters if letter != expected],
        }
