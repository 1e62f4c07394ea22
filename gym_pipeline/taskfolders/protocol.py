"""What the terminal agent and the model say to each other: plain chat, one shell command per turn.

The agent sends the task's instruction as the first user message after a system prompt that explains the
protocol; the model answers with one command in a fenced ```bash block, or with `TASK_COMPLETE` when it is
done; the agent runs the command in the sandbox and sends back its exit code and output. Any
OpenAI-compatible chat endpoint can play; the simulated policy recognises the system prompt by its first line.
"""

from __future__ import annotations

import re

SYSTEM_PROMPT_FIRST_LINE = "You are a terminal agent working in a Linux container (gym-pipeline terminal agent)."
SYSTEM_PROMPT = f"""{SYSTEM_PROMPT_FIRST_LINE}
Each of your replies holds exactly one shell command in a fenced block:
```bash
<command>
```
It runs with bash in the container's working directory; you then see its exit code and output.
When the task is done, reply with {"TASK_COMPLETE"} alone."""
DONE = "TASK_COMPLETE"
MAX_OUTPUT_CHARS = 8000  # of a command's output, sent back to the model

_FENCED = re.compile(r"```(?:bash|sh|shell)?[ \t]*\n(.*?)```", re.DOTALL)


def command_of(reply: str) -> str | None:
    """The command in a reply (its first fenced block), or None."""
    match = _FENCED.search(reply)
    command = match[1].strip() if match else None
    return command or None


def is_done(reply: str) -> bool:
    return command_of(reply) is None and DONE in reply


def render_command(command: str) -> str:
    return f"```bash\n{command.strip()}\n```"


def observation(exit_code: int, output: str, timed_out: bool) -> str:
    """What the model sees after a command."""
    if len(output) > MAX_OUTPUT_CHARS:
        output = output[:MAX_OUTPUT_CHARS] + f"\n[... {len(output) - MAX_OUTPUT_CHARS} more characters cut]"
    status = "timed out (the agent's time is up)" if timed_out else f"exit code {exit_code}"
    return f"Command finished: {status}\nOutput:\n{output}"
