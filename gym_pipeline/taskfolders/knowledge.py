"""What the simulated policy knows of a taskset: per task, its solution and plausible wrong attempts.

The entry's prompt is the instruction (the first user message of the terminal agent), its answer the
task's `solution/solve.sh`, its difficulty Harbor's `[metadata].difficulty`. The wrong attempts look like
work: the solution's first steps only (when it has several), or a look at the files without changing them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gym_pipeline.taskfolders.loader import Task, load_taskset

LOOK_WITHOUT_CHANGING = "ls -la && head -n 5 ./* 2>/dev/null"


def _commands(script: str) -> list[str]:
    return [line for line in script.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def knowledge_entry(task: Task) -> dict[str, Any] | None:
    if task.solution_script is None:
        return None
    commands = _commands(task.solution_script.read_text(encoding="utf-8", errors="replace"))
    if not commands:
        return None
    distractors = [LOOK_WITHOUT_CHANGING]
    if len(commands) > 1:
        distractors.insert(0, "\n".join(commands[: len(commands) // 2]))
    return {"prompt": task.instruction, "answer": "\n".join(commands), "distractors": distractors,
            "difficulty": task.difficulty}


def taskset_knowledge(tasks_dir: Path) -> list[dict[str, Any]]:
    return [entry for task in load_taskset(tasks_dir).tasks if (entry := knowledge_entry(task)) is not None]
