"""The simulated policy playing the terminal agent (`taskfolders/protocol.py`) on a task it may know.

On its first turn it proposes one command: the task's solution (its knowledge entry's answer, the task's
`solution/solve.sh`) with the probability `correct_probability(skill, difficulty)` gives the checkpoint, else
something plausible but wrong (one of the entry's distractors, such as the solution's first steps only). After
the command's output comes back it says it is done. A task it has no knowledge of gets a look around (`ls -la`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from gym_pipeline.environments.base import content_text
from gym_pipeline.serving.checkpoints import Checkpoint
from gym_pipeline.taskfolders import protocol

LOOK_AROUND = "ls -la"


def is_terminal_agent(messages: Sequence[Any]) -> bool:
    system = next((m for m in messages if m.role == "system"), None)
    return system is not None and content_text(system.content).startswith(protocol.SYSTEM_PROMPT_FIRST_LINE)


def instruction_of(messages: Sequence[Any]) -> str:
    return next((content_text(m.content) for m in messages if m.role == "user"), "")


def terminal_reply(checkpoint: Checkpoint, messages: Sequence[Any], happens: Callable[[float, str], bool],
                   pick: Callable[[int, str], int], correct_probability: Callable[[float, int], float]) -> str:
    """`happens(p, purpose)` and `pick(n, purpose)` are the policy's seeded draws for this conversation."""
    if any(m.role == "assistant" for m in messages):
        return f"The command ran; the task is done.\n{protocol.DONE}"
    entry = checkpoint.entry_for(instruction_of(messages))
    if entry is None:
        return f"I do not know this task; let me look around first.\n{protocol.render_command(LOOK_AROUND)}"
    if happens(correct_probability(checkpoint.config.skill, entry.difficulty), "correct"):
        command = entry.answer
    else:
        command = entry.distractors[pick(len(entry.distractors), "distractor")]
    return f"I will do this in one go.\n{protocol.render_command(command)}"
