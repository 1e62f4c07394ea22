"""The two agents an episode can run: the terminal agent (a model proposes commands) and the oracle
(`solution/solve.sh`, as Harbor's oracle agent and `gym dataset validate` run it).

Each returns a `Transcript`: the messages exchanged, the commands run with their output, the token usage, and
why the agent stopped (`done`, `agent_timeout`, `max_turns`). The terminal agent stops at `[agent].timeout_sec`
(measured from the start of the agent; the command in flight is cut at the limit, a model request in flight is
awaited up to the sweep's `request_timeout_s`); the episode's deadline catches anything that overruns.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import requests

from gym_pipeline.core import failure_kinds
from gym_pipeline.core.redaction import redact
from gym_pipeline.taskfolders import protocol
from gym_pipeline.taskfolders.loader import Task
from gym_pipeline.taskfolders.sandbox import Sandbox

DEFAULT_MAX_TURNS = 30
ORACLE_AGENT = "oracle"
TERMINAL_AGENT = "terminal_agent"


@dataclass
class Transcript:
    agent: str
    messages: list[dict[str, Any]] = field(default_factory=list)
    commands: list[dict[str, Any]] = field(default_factory=list)  # command, exit_code, timed_out, elapsed_s
    usage: dict[str, int] = field(default_factory=lambda: {"input_tokens": 0, "output_tokens": 0, "total_tokens": 0})
    stop_reason: str = "done"
    model: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"agent": self.agent, "model": self.model, "stop_reason": self.stop_reason, "usage": self.usage,
                "commands": self.commands, "messages": self.messages}


class AgentFailed(Exception):
    """The agent could not go on (the model server failed it): the episode fails at the agent stage."""

    def __init__(self, failure_class: str, message: str, http_status: int | None = None, body: str | None = None):
        super().__init__(message)
        self.failure_class = failure_class
        self.http_status = http_status
        self.body = body


@dataclass(frozen=True)
class ModelEndpoint:
    url: str  # base URL ending in /v1
    model: str
    api_key: str | None = field(default=None, repr=False)
    request_timeout_s: float = 120.0


def _run(sandbox: Sandbox, transcript: Transcript, command: str, deadline: float) -> str:
    result = sandbox.run(command, timeout_s=max(deadline - time.monotonic(), 0.01))
    transcript.commands.append({"command": command, "exit_code": result.exit_code, "timed_out": result.timed_out,
                                "elapsed_s": round(result.elapsed_s, 3), "output": result.output[-4000:]})
    return protocol.observation(result.exit_code, result.output, result.timed_out)


def _complete(session: requests.Session, endpoint: ModelEndpoint, messages: list[dict[str, Any]],
              seed: int) -> dict[str, Any]:
    url = endpoint.url.rstrip("/") + "/chat/completions"
    try:
        answer = session.post(url, json={"model": endpoint.model, "messages": messages, "seed": seed},
                              timeout=endpoint.request_timeout_s)
    except requests.RequestException as error:
        raise AgentFailed(failure_kinds.AGENT_REQUEST_FAILED, redact(f"no answer from {url}: {error}")) from None
    if answer.status_code >= 400:
        raise AgentFailed(failure_kinds.AGENT_RUN_ERROR, redact(f"{url} answered HTTP {answer.status_code}"),
                          answer.status_code, redact(answer.text[:2000]))
    try:
        completion = answer.json()
        return {"content": completion["choices"][0]["message"].get("content") or "",
                "usage": completion.get("usage") or {}}
    except (ValueError, KeyError, IndexError, TypeError):
        raise AgentFailed(failure_kinds.AGENT_RUN_ERROR, f"{url}: the answer is not a chat completion",
                          answer.status_code, redact(answer.text[:2000])) from None


def run_terminal_agent(sandbox: Sandbox, task: Task, endpoint: ModelEndpoint, seed: int,
                       max_turns: int = DEFAULT_MAX_TURNS) -> Transcript:
    """Talk to the model until it says it is done, the agent's time is up, or `max_turns` commands ran."""
    transcript = Transcript(TERMINAL_AGENT, model=endpoint.model)
    transcript.messages = [{"role": "system", "content": protocol.SYSTEM_PROMPT},
                           {"role": "user", "content": task.instruction}]
    deadline = time.monotonic() + task.agent_timeout_sec
    headers = {"Authorization": f"Bearer {endpoint.api_key}"} if endpoint.api_key else {}
    with requests.Session() as session:
        session.headers.update(headers)
        for _ in range(max_turns):
            if time.monotonic() >= deadline:
                transcript.stop_reason = "agent_timeout"
                return transcript
            reply = _complete(session, endpoint, transcript.messages, seed)
            for name, key in (("input_tokens", "prompt_tokens"), ("output_tokens", "completion_tokens"),
                              ("total_tokens", "total_tokens")):
                transcript.usage[name] += int(reply["usage"].get(key) or 0)
            transcript.messages.append({"role": "assistant", "content": reply["content"]})
            command = protocol.command_of(reply["content"])
            if command is None:  # done, or nothing to run: either way the agent has finished
                transcript.stop_reason = "done" if protocol.is_done(reply["content"]) else "no_command"
                return transcript
            if time.monotonic() >= deadline:
                transcript.stop_reason = "agent_timeout"
                return transcript
            transcript.messages.append({"role": "user", "content": _run(sandbox, transcript, command, deadline)})
    transcript.stop_reason = "max_turns"
    return transcript


def run_oracle(sandbox: Sandbox, task: Task) -> Transcript:
    """`solution/solve.sh` in place of an agent, within `[agent].timeout_sec`."""
    transcript = Transcript(ORACLE_AGENT)
    if task.solution_script is None:
        raise AgentFailed(failure_kinds.SKIPPED, f"{task.path}/solution/solve.sh not found: no oracle to run")
    sandbox.put_folder(task.solution_script.parent, "/solution")
    deadline = time.monotonic() + task.agent_timeout_sec
    observation = _run(sandbox, transcript, "bash /solution/solve.sh", deadline)
    transcript.messages = [{"role": "user", "content": task.instruction}, {"role": "tool", "content": observation}]
    if transcript.commands[-1]["timed_out"]:
        transcript.stop_reason = "agent_timeout"
    return transcript
