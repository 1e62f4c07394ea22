"""An environment whose verifier the sweep config names (`verifier: "MODULE:FUNCTION"`).

The verifier is called as `FUNCTION(row, response_text)` on the materialized row and the model's answer; its
float or dict becomes Gym's verifier fields (`workspace_verifiers.verdict_of`). The simulated policy answers
these environments from each row's `expected_answer` (and `distractors`, if any) without knowing the verifier:
rewards then come from whatever the verifier says of its answers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gym_pipeline.environments.base import Environment
from gym_pipeline.environments.string_match import derived_distractors
from gym_pipeline.environments.workspace_verifiers import VerifierReference, load_verifier, verdict_of


class CustomVerifierEnvironment(Environment):
    def __init__(self, name: str, dataset_path: Path, reference: VerifierReference, verifiers_dir: Path | None):
        self.name = name
        super().__init__(dataset_path)
        self.reference = reference
        self.verifiers_dir = verifiers_dir
        self._function = load_verifier(reference, verifiers_dir)

    def __reduce__(self) -> tuple[Any, ...]:
        # A worker process loads the verifier again by its reference: a function object does not travel.
        return CustomVerifierEnvironment, (self.name, self.dataset_path, self.reference, self.verifiers_dir)

    def verify(self, row: dict[str, Any], response_text: str) -> dict[str, Any]:
        return verdict_of(self._function(row, response_text))

    def knowledge_entry(self, row: dict[str, Any]) -> dict[str, Any] | None:
        """From the row's `expected_answer` when it is text; None otherwise (the policy then answers that it
        does not know)."""
        answer = row.get("expected_answer")
        if not isinstance(answer, str) or not answer.strip():
            return None
        distractors = row.get("distractors")
        if not (isinstance(distractors, list) and distractors and all(isinstance(d, str) for d in distractors)):
            distractors = derived_distractors(answer) or [answer + "?"]
        return {"prompt": self.prompt_text(row), "answer": answer, "distractors": distractors}
