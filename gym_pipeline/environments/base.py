"""What every bundled environment provides: a verifier, a dataset, and the knowledge a policy needs.

An environment stands in for one of Gym's resources servers: `verify` returns the
fields that server adds to a rollout row (`reward`, `mask_sample`, `failure_kind`,
`failure_reason`, then its own), in the order Gym 0.7.0 writes them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from gym_pipeline.core.formats import RESPONSES_CREATE_PARAMS, iter_jsonl_dicts

EXAMPLES_DATA_DIR = Path(__file__).resolve().parent.parent / "examples" / "data"


class VerifierInputError(ValueError):
    """A row lacks (or has a malformed) field the verifier needs: a data bug, never a reward of 0."""

    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message
        super().__init__(f"field '{field}': {message}")


def content_text(content: Any) -> str:
    """The text of a message's content: a string, or a list of text parts (`input_text`, `text`...)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        # Joined without a separator, as the chat-completions translation in engines/responses.py does,
        # so a prompt read from a dataset row equals the message the policy receives.
        return "".join(part["text"] for part in content if isinstance(part, dict) and isinstance(part.get("text"), str))
    return ""


def require(row: dict[str, Any], field: str, kind: type | tuple[type, ...]) -> Any:
    """`row[field]`, checked to be of `kind`; raises `VerifierInputError` otherwise."""
    if field not in row or row[field] is None:
        raise VerifierInputError(field, "missing from the row")
    value = row[field]
    if not isinstance(value, kind):
        expected = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise VerifierInputError(field, f"expected {expected}, got {type(value).__name__}")
    return value


class Environment(ABC):
    """One bundled environment. Subclasses set `name` and implement `verify` and `knowledge_entry`."""

    name: str

    def __init__(self, dataset_path: Path | None = None):
        self.dataset_path = Path(dataset_path) if dataset_path else EXAMPLES_DATA_DIR / f"{self.name}.jsonl"

    @property
    def agent_name(self) -> str:
        return self.agent_name_for(self.name)

    @staticmethod
    def agent_name_for(environment_name: str) -> str:
        return f"{environment_name}_simple_agent"

    @property
    def environment_server_name(self) -> str:
        return f"{self.name}_environment_server"

    @abstractmethod
    def verify(self, row: dict[str, Any], response_text: str) -> dict[str, Any]:
        """The verifier's fields for one rollout: `reward`, `mask_sample`, `failure_kind`,
        `failure_reason`, then the environment's own fields."""

    @abstractmethod
    def knowledge_entry(self, row: dict[str, Any]) -> dict[str, Any] | None:
        """What a policy must know to answer `row`: `{"prompt", "answer", "distractors"}`; None when the row
        gives no answer to know."""

    def rows(self) -> Iterator[dict[str, Any]]:
        """The dataset's rows, streamed; a malformed line raises `JsonlFormatError` (file:line)."""
        for _, row in iter_jsonl_dicts(self.dataset_path):
            yield row

    @staticmethod
    def prompt_text(row: dict[str, Any]) -> str:
        """The text of the last user message of `responses_create_params.input`."""
        field = f"{RESPONSES_CREATE_PARAMS}.input"
        params = require(row, RESPONSES_CREATE_PARAMS, dict)
        messages = params.get("input")
        if isinstance(messages, str):
            return messages
        if not isinstance(messages, list):
            raise VerifierInputError(field, "missing or not a list of messages")
        for message in reversed(messages):
            if isinstance(message, dict) and message.get("role") == "user":
                return content_text(message.get("content"))
        raise VerifierInputError(field, "has no user message")

    @staticmethod
    def verdict(reward: float, **fields: Any) -> dict[str, Any]:
        """A verifier result in Gym's key order."""
        return {"reward": reward, "mask_sample": False, "failure_kind": None, "failure_reason": None, **fields}
