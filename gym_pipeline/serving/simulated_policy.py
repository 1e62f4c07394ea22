"""A simulated policy behind an OpenAI-compatible HTTP API: `vllm serve CHECKPOINT` without a GPU.

It serves one checkpoint folder (see `checkpoints.py`). For the last user message it
looks up the knowledge entry with exactly that prompt and answers correctly with
probability `correct_probability(skill, difficulty)`: a logistic function of the
checkpoint's skill minus the task's difficulty scaled to [0, 1]. Every random choice
is a hash of (checkpoint seed, prompt, draw), where the draw is the request's `seed`,
or a per-prompt counter when there is none, so the same request with the same seed
gets byte-identical content while repeats without a seed differ. `temperature: 0`
is greedy: always the likelier outcome. On request it also fails like a real model server
(5xx, 429, timeouts, dropped connections, a slow start: see `faults.py`).
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import re
import signal
import time
import uuid
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from gym_pipeline.core.formats import atomic_file
from gym_pipeline.environments.base import content_text
from gym_pipeline.fatal_signals import WHO_SENDS
from gym_pipeline.serving.capacity import Capacity, CapacitySettings, Overloaded, install_capacity
from gym_pipeline.serving.checkpoints import Checkpoint, load_checkpoint
from gym_pipeline.serving.faults import FaultSettings, install_faults, openai_error
from gym_pipeline.serving.terminal_play import instruction_of, is_terminal_agent, terminal_reply

READY_PREFIX = "SIMULATED_POLICY_READY"
SERVED_MODEL_KEY: web.AppKey[_PolicyServer] = web.AppKey("served_model")
OWNER = "gym-pipeline"

# How sharply accuracy falls as difficulty passes skill: at 6, a task one difficulty
# level (0.25) above the skill is solved about 18% of the time, one level below 82%.
SKILL_SHARPNESS = 6.0
# Chance of ignoring the requested answer format, at skill 0 (it falls linearly to 0 at skill 1).
MAX_FORMAT_SLIP = 0.25
TOKENS_PER_WORD = 1.3

_REASONING = (
    "Let me work through this step by step.",
    "First I restate what the question is asking so I do not misread it.",
    "I recall the relevant facts before committing to anything.",
    "A quick sanity check helps rule out the obvious traps.",
    "Going over the details once more gives the same result.",
    "I compare the candidates against what I know.",
    "The wording is precise, so I keep to exactly what is asked.",
    "Nothing in the question suggests a trick.",
)
_CONFUSED = (
    "I am not sure what this question is asking.",
    "I do not recognise this problem, so I will have to guess.",
)
_CONFUSED_ANSWER = "unknown"

# The answer format a prompt asks for, checked in this order ("Final answer: <answer>" also
# contains "answer: <").
_FORMATS = (
    ("boxed", re.compile(r"\\boxed")),
    ("final_answer", re.compile(r"final answer\s*:", re.IGNORECASE)),
    ("answer_colon", re.compile(r"answer\s*:\s*<", re.IGNORECASE)),
    ("last_line", re.compile(r"last line", re.IGNORECASE)),
)
_RENDER: dict[str, Callable[[str, str], str]] = {
    "boxed": lambda reasoning, answer: f"{reasoning}\n\nSo the answer is \\boxed{{{answer}}}.",
    "final_answer": lambda reasoning, answer: f"{reasoning}\n\nFinal answer: {answer}",
    "answer_colon": lambda reasoning, answer: f"{reasoning}\n\nAnswer: {answer}",
    "last_line": lambda reasoning, answer: f"{reasoning}\n\n{answer}",
    "prose": lambda reasoning, answer: f"{reasoning} I think it is {answer}.",
}


def correct_probability(skill: float, difficulty: int) -> float:
    """Chance that a checkpoint of `skill` (0-1) answers a task of `difficulty` (1-5) correctly."""
    scaled = (difficulty - 1) / 4
    return 1.0 / (1.0 + math.exp(-SKILL_SHARPNESS * (skill - scaled)))


def format_slip_probability(skill: float) -> float:
    """Chance of answering in prose instead of the requested format."""
    return MAX_FORMAT_SLIP * (1.0 - skill)


def approx_tokens(text: str) -> int:
    return round(len(text.split()) * TOKENS_PER_WORD)


def _answer_format(prompt: str) -> str:
    return next((name for name, pattern in _FORMATS if pattern.search(prompt)), "prose")


def _unit(*parts: object) -> float:
    """A deterministic number in [0, 1) from the parts."""
    digest = hashlib.sha256("\x1f".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def generate(checkpoint: Checkpoint, prompt: str, draw: str | None) -> str:
    """The policy's reply to `prompt`. `draw` names this sample; None means greedy decoding."""
    config = checkpoint.config

    def unit(purpose: str) -> float:
        return _unit(config.seed, prompt, "greedy" if draw is None else draw, purpose)

    def happens(probability: float, purpose: str) -> bool:
        return probability > 0.5 if draw is None else unit(purpose) < probability

    entry = checkpoint.entry_for(prompt)
    if entry is None:
        sentences, answer = _CONFUSED, _CONFUSED_ANSWER
        count = 1 + int(unit("length") * len(_CONFUSED))
    else:
        correct = happens(correct_probability(config.skill, entry.difficulty), "correct")
        answer = entry.answer if correct else entry.distractors[int(unit("distractor") * len(entry.distractors))]
        # Half of the correct answers get one more sentence: length correlates a little with reward.
        elaborate = correct and unit("elaborate") < 0.5
        sentences, count = _REASONING, 1 + int(unit("length") * 4) + int(elaborate)
    start = int(unit("opening") * len(sentences))
    reasoning = " ".join(sentences[(start + offset) % len(sentences)] for offset in range(count))
    answer_format = _answer_format(prompt)
    if happens(format_slip_probability(config.skill), "format"):
        answer_format = "prose"
    return _RENDER[answer_format](reasoning, answer)


def truncate_to_tokens(text: str, max_tokens: int) -> str | None:
    """`text` cut after the last whole word that fits in `max_tokens`, or None when it all fits."""
    if approx_tokens(text) <= max_tokens:
        return None
    end = 0
    for words, match in enumerate(re.finditer(r"\S+", text), start=1):
        if round(words * TOKENS_PER_WORD) > max_tokens:
            break
        end = match.end()
    return text[:end]


class _Message(BaseModel):
    model_config = ConfigDict(extra="allow")

    role: str
    content: str | list[dict[str, Any]] | None = None


class ChatCompletionRequest(BaseModel):
    """The fields of an OpenAI chat-completions request the policy reads; others are ignored."""

    model_config = ConfigDict(extra="allow")

    model: str
    messages: list[_Message] = Field(min_length=1)
    temperature: float | None = Field(default=None, ge=0.0, le=2.0)
    max_tokens: int | None = Field(default=None, ge=1)
    seed: int | None = None
    stream: bool | None = None


class _RequestError(Exception):
    def __init__(self, status: int, message: str, param: str | None = None, code: str | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.param = param
        self.code = code

    def response(self) -> web.Response:
        error_type = "invalid_request_error" if self.status < 500 else "server_error"
        return openai_error(self.status, self.message, error_type=error_type, param=self.param, code=self.code)


def _json(value: Any) -> web.Response:
    return web.Response(body=orjson.dumps(value), content_type="application/json")


class _PolicyServer:
    def __init__(self, checkpoint: Checkpoint, served_path: Path, latency_ms: int, capacity: Capacity):
        self.checkpoint = checkpoint
        self.latency_s = latency_ms / 1000
        self.capacity = capacity
        self.created = int(time.time())
        # Like `vllm serve PATH`, the folder path names the model too, as given or resolved.
        self.model_names = {checkpoint.config.model_id, str(served_path), str(checkpoint.path)}
        self.unseeded_draws: Counter[str] = Counter()

    async def health(self, request: web.Request) -> web.Response:
        return _json({"status": "ok"})

    async def models(self, request: web.Request) -> web.Response:
        config = self.checkpoint.config
        model = {
            "id": config.model_id,
            "object": "model",
            "created": self.created,
            "owned_by": OWNER,
            "root": str(self.checkpoint.path),
            "checkpoint_step": config.step,
            "checkpoint_digest": self.checkpoint.digest,
        }
        return _json({"object": "list", "data": [model]})

    async def chat_completions(self, request: web.Request) -> web.Response:
        try:
            body = self._parse(await request.read())
            prompt = self._prompt(body)
        except _RequestError as error:
            return error.response()
        try:
            async with self.capacity.slot():
                if self.latency_s:
                    await asyncio.sleep(self.latency_s)
                completion = self._complete(body, prompt)
        except Overloaded as error:
            return _RequestError(429, str(error), code="overloaded").response()
        usage = completion["usage"]
        self.capacity.count_tokens(usage["prompt_tokens"], usage["completion_tokens"])
        return _json(completion)

    def _parse(self, raw: bytes) -> ChatCompletionRequest:
        try:
            value = orjson.loads(raw)
        except orjson.JSONDecodeError as error:
            raise _RequestError(400, f"request body is not valid JSON ({error})") from None
        if not isinstance(value, dict):
            raise _RequestError(400, "request body must be a JSON object")
        try:
            body = ChatCompletionRequest.model_validate(value)
        except ValidationError as error:
            first = error.errors()[0]
            param = ".".join(str(part) for part in first["loc"])
            raise _RequestError(400, f"{param}: {first['msg']}", param=param) from None
        if body.stream:
            raise _RequestError(400, "streaming is not supported by the simulated policy", param="stream")
        if body.model not in self.model_names:
            raise _RequestError(404, f"The model `{body.model}` does not exist.", param="model", code="model_not_found")
        return body

    @staticmethod
    def _prompt(body: ChatCompletionRequest) -> str:
        for message in reversed(body.messages):
            if message.role == "user":
                return content_text(message.content)
        raise _RequestError(400, "messages: no user message", param="messages")

    def _draw(self, body: ChatCompletionRequest, prompt: str) -> str | None:
        if body.temperature == 0:
            return None
        if body.seed is not None:
            return f"seed:{body.seed}"
        self.unseeded_draws[prompt] += 1
        return f"draw:{self.unseeded_draws[prompt]}"

    def _complete(self, body: ChatCompletionRequest, prompt: str) -> dict[str, Any]:
        if is_terminal_agent(body.messages):  # a task-folder episode: the decision is drawn on the instruction
            instruction = instruction_of(body.messages)
            draw = self._draw(body, instruction)
            happens = lambda p, purpose: p > 0.5 if draw is None else _unit(  # noqa: E731
                self.checkpoint.config.seed, instruction, draw, purpose) < p
            pick = lambda n, purpose: int(_unit(self.checkpoint.config.seed, instruction, draw, purpose) * n)  # noqa: E731
            content = terminal_reply(self.checkpoint, body.messages, happens, pick, correct_probability)
        else:
            content = generate(self.checkpoint, prompt, self._draw(body, prompt))
        completion_tokens = approx_tokens(content)
        finish_reason = "stop"
        if body.max_tokens is not None:
            truncated = truncate_to_tokens(content, body.max_tokens)
            if truncated is not None:
                content, completion_tokens, finish_reason = truncated, body.max_tokens, "length"
        prompt_tokens = sum(approx_tokens(content_text(message.content)) for message in body.messages)
        return {
            "id": f"chatcmpl-{uuid.uuid4().hex}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": self.checkpoint.config.model_id,
            "system_fingerprint": f"fp_{self.checkpoint.digest[:12]}",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "logprobs": None,
                    "finish_reason": finish_reason,
                }
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }


def create_app(checkpoint_dir: Path, *, latency_ms: int = 0, faults: FaultSettings | None = None,
               capacity: CapacitySettings | None = None) -> web.Application:
    """The policy's web application; loading the checkpoint here makes a bad folder fail at startup.

    `faults` makes it misbehave like a loaded or starting model server (see `faults.py`); `capacity`
    bounds what it runs at once and queues, like a real server's batch (see `capacity.py`).
    """
    if latency_ms < 0:
        raise ValueError(f"latency_ms must be >= 0, got {latency_ms}")
    load = Capacity(capacity or CapacitySettings())
    server = _PolicyServer(load_checkpoint(checkpoint_dir), Path(checkpoint_dir), latency_ms, load)
    app = web.Application()
    app[SERVED_MODEL_KEY] = server
    install_capacity(app, load)
    if faults is not None and faults.active:
        install_faults(app, faults)
    app.router.add_get("/health", server.health)
    app.router.add_get("/v1/models", server.models)
    app.router.add_post("/v1/chat/completions", server.chat_completions)
    return app


def run_server(
    checkpoint_dir: Path,
    host: str = "127.0.0.1",
    port: int = 0,
    ready_file: Path | None = None,
    *,
    latency_ms: int = 0,
    faults: FaultSettings | None = None,
    capacity: CapacitySettings | None = None,
) -> None:
    """Serve until SIGINT or SIGTERM (call from a process's main thread).

    Once listening, prints `SIMULATED_POLICY_READY http://HOST:PORT/v1` and writes that
    URL to `ready_file` (atomically, so a poller never reads half of it); the file is
    removed again on shutdown so that it never points at a stopped server. With a slow start
    (`faults.slow_start_s`) it is listening but answers 503 until the slow start is over.
    """
    app = create_app(checkpoint_dir, latency_ms=latency_ms, faults=faults, capacity=capacity)
    asyncio.run(_serve(app, host, port, ready_file, faults.describe() if faults and faults.active else None))


async def _serve(app: web.Application, host: str, port: int, ready_file: Path | None,
                 injected_faults: str | None = None) -> None:
    stop = asyncio.Event()
    stopped_by: list[signal.Signals] = []
    loop = asyncio.get_running_loop()
    for signal_number in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signal_number, lambda number=signal_number: (stopped_by.append(number), stop.set()))
    runner = web.AppRunner(app)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
        bound_port = runner.addresses[0][1]
        url = f"http://{f'[{host}]' if ':' in host else host}:{bound_port}/v1"  # an IPv6 address in brackets
        if ready_file is not None:
            ready_file = Path(ready_file)
            with atomic_file(ready_file) as temporary:
                temporary.write_text(url + "\n")
        print(f"{READY_PREFIX} {url}", flush=True)
        served = app[SERVED_MODEL_KEY]  # what it answers to, in vLLM's words (a diagnosis reads it)
        print(f"INFO simulated policy: checkpoint step {served.checkpoint.config.step}, "
              f"served_model_name=['{served.checkpoint.config.model_id}']", flush=True)
        if injected_faults:  # a drill's flags left in a launch script must not pass for a failing model
            print(f"WARNING simulated policy: fault injection is on: {injected_faults}", flush=True)
        await stop.wait()
        # a server that stops says why, as our commands do (fatal_signals.py): a stage that finds nothing at its
        # URL later is then explained by this line
        name = stopped_by[0].name
        print(f"INFO simulated policy: stopped by {name} ({WHO_SENDS.get(name, 'Ctrl-C')}); no longer serving {url}",
              flush=True)
    finally:
        await runner.cleanup()
        if ready_file is not None:
            ready_file.unlink(missing_ok=True)
