"""What the first rollouts of a run answered: the reply texts, and the answers their verifier graded, for the
readings of what the model (or what stood before it) replied. Evidence reads each once (`ev.answer_texts`,
`ev.graded_answers`)."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from gym_pipeline.diagnose.jsonl_rows import readable_rows

MAX_ROWS_READ = 5000  # of the rollouts: enough to see a pattern, cheap on a run of millions


class AnswerText(NamedTuple):
    line: int  # of rollouts.jsonl
    task: int | None  # the row's _ng_task_index
    text: str  # the last output message's text
    reward: float | None


class GradedAnswer(NamedTuple):
    line: int  # of rollouts.jsonl
    expected: str  # the row's expected_answer
    extracted: str  # what the verifier took as the answer
    reward: float


def read_answer_texts(rollouts: Path) -> list[AnswerText]:
    """The last output message's text of each of the first rollouts (rows without one are left out)."""
    texts = []
    for number, row in readable_rows(rollouts, MAX_ROWS_READ):
        try:
            text = row["response"]["output"][-1]["content"][0]["text"]
        except (KeyError, IndexError, TypeError):
            continue
        if isinstance(text, str):
            reward, task = row.get("reward"), row.get("_ng_task_index")
            texts.append(AnswerText(number, task if isinstance(task, int) else None, text,
                                    reward if isinstance(reward, int | float) else None))
    return texts


def read_graded_answers(rollouts: Path) -> list[GradedAnswer]:
    """The expected and extracted answers, with the reward, of the first rollouts whose verifier keeps both."""
    found = []
    for number, row in readable_rows(rollouts, MAX_ROWS_READ):
        expected, extracted, reward = row.get("expected_answer"), row.get("extracted_answer"), row.get("reward")
        if isinstance(expected, str) and isinstance(extracted, str) and isinstance(reward, int | float):
            found.append(GradedAnswer(number, expected, extracted, reward))
    return found
