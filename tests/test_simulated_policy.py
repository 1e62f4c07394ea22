"""The simulated policy: checkpoints, and the real HTTP server on loopback."""

from __future__ import annotations

import asyncio
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import aiohttp
import orjson
import pytest
from aiohttp import web

from gym_pipeline.environments import ENVIRONMENTS, get_environment
from gym_pipeline.serving.checkpoints import (
    CheckpointError,
    checkpoint_digest,
    create_checkpoint,
    demo_checkpoints,
    load_checkpoint,
)
from gym_pipeline.serving.simulated_policy import create_app

MIXED_PROMPT_ROW = 0  # a difficulty-3 string_match row: both outcomes are likely at low skill
ENTRY = {"prompt": "p", "answer": "a", "distractors": ["b"], "difficulty": 2}


@contextmanager
def serving(*apps: web.Application) -> Iterator[list[str]]:
    """Serve the apps on 127.0.0.1 (free ports) from an event loop in a background thread."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()

    async def start(app: web.Application) -> web.AppRunner:
        runner = web.AppRunner(app)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        return runner

    runners = [asyncio.run_coroutine_threadsafe(start(app), loop).result(10) for app in apps]
    try:
        yield [f"http://127.0.0.1:{runner.addresses[0][1]}/v1" for runner in runners]
    finally:
        for runner in runners:
            asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


def call(url: str, body: object | None = None, raw: bytes | None = None) -> tuple[int, dict]:
    """GET (no body) or POST JSON; returns (status, parsed body), also for error statuses."""
    data = raw if raw is not None else (orjson.dumps(body) if body is not None else None)
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, orjson.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, orjson.loads(error.read())


def chat(url: str, prompt: str, **fields) -> tuple[int, dict]:
    body = {"model": "sim-policy", "messages": [{"role": "user", "content": prompt}], **fields}
    return call(url + "/chat/completions", body)


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return demo_checkpoints(tmp_path_factory.mktemp("checkpoints"), 2, ["string_match", "mcqa"])


@pytest.fixture(scope="module")
def urls(checkpoints: list[Path]) -> Iterator[list[str]]:
    with serving(*(create_app(path) for path in checkpoints)) as urls:
        yield urls


@pytest.fixture(scope="module")
def prompt() -> str:
    environment = get_environment("string_match")
    return environment.prompt_text(list(environment.rows())[MIXED_PROMPT_ROW])


# --- checkpoints ------------------------------------------------------------------------------------


def test_demo_checkpoints_rise_in_skill_and_hold_every_task(checkpoints: list[Path]) -> None:
    assert [path.name for path in checkpoints] == ["step_0100", "step_0200"]
    early, late = (load_checkpoint(path) for path in checkpoints)
    assert (early.config.step, late.config.step) == (100, 200)
    assert early.config.skill == pytest.approx(0.3) and late.config.skill == pytest.approx(0.575)
    rows = sum(len(list(environment.rows())) for environment in ENVIRONMENTS.values())
    assert len(early.knowledge) == rows
    assert early.digest == checkpoint_digest(checkpoints[0]) != late.digest


def test_more_demo_checkpoints_keep_the_existing_ones(tmp_path: Path) -> None:
    first = demo_checkpoints(tmp_path, 2, ["mcqa"])
    digests = [checkpoint_digest(path) for path in first]
    more = demo_checkpoints(tmp_path, 3, ["mcqa"])
    assert [checkpoint_digest(path) for path in more[:2]] == digests
    assert load_checkpoint(more[2]).config.skill == pytest.approx(0.85)


def test_checkpoint_digest_changes_with_any_file(tmp_path: Path) -> None:
    path = create_checkpoint(tmp_path / "ckpt", step=1, skill=0.5, knowledge=[ENTRY])
    before = checkpoint_digest(path)
    assert checkpoint_digest(path) == before
    (path / "notes.txt").write_text("x")
    assert checkpoint_digest(path) != before


@pytest.mark.parametrize(
    ("breakage", "message"),
    [
        (lambda path: (path / "config.json").unlink(), r"config\.json: missing"),
        (lambda path: (path / "config.json").write_text("{"), r"config\.json: not valid JSON"),
        (lambda path: (path / "config.json").write_text('{"step": 1, "skill": 1.5}'), r"config\.json: field 'skill'"),
        (lambda path: (path / "knowledge.jsonl").unlink(), r"knowledge\.jsonl: missing"),
        (
            lambda path: (path / "knowledge.jsonl").write_text(
                '{"prompt": "p", "answer": "a", "distractors": ["b"], "difficulty": 2}\n{"prompt": "q"}\n'
            ),
            r"knowledge\.jsonl:2: field 'answer'",
        ),
    ],
)
def test_load_checkpoint_names_file_and_field(tmp_path: Path, breakage, message: str) -> None:
    path = create_checkpoint(tmp_path / "ckpt", step=1, skill=0.5, knowledge=[ENTRY])
    breakage(path)
    with pytest.raises(CheckpointError, match=message):
        load_checkpoint(path)
    with pytest.raises(CheckpointError):
        create_app(path)


def test_create_checkpoint_validates_knowledge(tmp_path: Path) -> None:
    with pytest.raises(CheckpointError, match=r"knowledge\.jsonl:1: field 'difficulty'"):
        create_checkpoint(tmp_path / "c", 1, 0.5, [ENTRY | {"difficulty": 9}])
    with pytest.raises(CheckpointError, match="duplicate prompt"):
        create_checkpoint(tmp_path / "c", 1, 0.5, [ENTRY, ENTRY])


# --- the HTTP API -----------------------------------------------------------------------------------


def test_models_and_health(urls: list[str], checkpoints: list[Path]) -> None:
    status, models = call(urls[0] + "/models")
    assert status == 200 and models["object"] == "list"
    (model,) = models["data"]
    assert model["id"] == "sim-policy" and model["object"] == "model" and model["owned_by"] == "gym-pipeline"
    assert model["root"] == str(checkpoints[0].resolve())
    assert model["checkpoint_step"] == 100
    assert model["checkpoint_digest"] == checkpoint_digest(checkpoints[0])
    assert isinstance(model["created"], int)
    assert call(urls[0].removesuffix("/v1") + "/health")[0] == 200


def test_completion_shape_and_usage(urls: list[str], prompt: str, checkpoints: list[Path]) -> None:
    status, completion = chat(urls[0], prompt, seed=1)
    assert status == 200
    assert completion["object"] == "chat.completion" and completion["id"].startswith("chatcmpl-")
    assert completion["model"] == "sim-policy" and isinstance(completion["created"], int)
    (choice,) = completion["choices"]
    assert choice["message"]["role"] == "assistant" and choice["finish_reason"] == "stop"
    assert "\\boxed{" in choice["message"]["content"] or "I think it is" in choice["message"]["content"]
    usage = completion["usage"]
    assert usage["prompt_tokens"] > 0 and usage["completion_tokens"] > 0
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]
    # `vllm serve PATH` names the model by its path: accepted too.
    assert chat(urls[0], prompt, model=str(checkpoints[0].resolve()))[0] == 200


def test_same_seed_same_bytes_other_seeds_vary(urls: list[str], prompt: str) -> None:
    contents = [chat(urls[0], prompt, seed=seed)[1]["choices"][0]["message"]["content"] for seed in range(12)]
    assert len(set(contents)) > 1
    assert chat(urls[0], prompt, seed=5)[1]["choices"][0]["message"]["content"] == contents[5]
    unseeded = {chat(urls[0], prompt)[1]["choices"][0]["message"]["content"] for _ in range(8)}
    assert len(unseeded) > 1
    greedy = {
        chat(urls[0], prompt, seed=seed, temperature=0)[1]["choices"][0]["message"]["content"] for seed in range(4)
    }
    assert len(greedy) == 1


def test_max_tokens_cuts_the_answer(urls: list[str], prompt: str) -> None:
    full = chat(urls[0], prompt, seed=2)[1]
    cut = chat(urls[0], prompt, seed=2, max_tokens=5)[1]
    assert cut["choices"][0]["finish_reason"] == "length"
    assert cut["usage"]["completion_tokens"] == 5
    assert full["choices"][0]["message"]["content"].startswith(cut["choices"][0]["message"]["content"])
    assert len(cut["choices"][0]["message"]["content"].split()) < len(full["choices"][0]["message"]["content"].split())


@pytest.mark.parametrize(
    ("body", "status", "param"),
    [
        (b"{not json", 400, None),
        (b"[1, 2]", 400, None),
        (orjson.dumps({"model": "sim-policy"}), 400, "messages"),
        (orjson.dumps({"model": "sim-policy", "messages": []}), 400, "messages"),
        (orjson.dumps({"messages": [{"role": "user", "content": "hi"}]}), 400, "model"),
        (orjson.dumps({"model": "sim-policy", "messages": [{"role": "user", "content": "hi"}], "temperature": -1}),
         400, "temperature"),
        (orjson.dumps({"model": "sim-policy", "messages": [{"role": "user", "content": "hi"}], "stream": True}),
         400, "stream"),
        (orjson.dumps({"model": "sim-policy", "messages": [{"role": "system", "content": "hi"}]}), 400, "messages"),
        (orjson.dumps({"model": "gpt-9", "messages": [{"role": "user", "content": "hi"}]}), 404, "model"),
    ],
)
def test_malformed_requests_get_openai_errors(urls: list[str], body: bytes, status: int, param: str | None) -> None:
    got_status, answer = call(urls[0] + "/chat/completions", raw=body)
    assert got_status == status
    assert answer["error"]["message"] and answer["error"]["type"] == "invalid_request_error"
    assert answer["error"]["param"] == param


def test_unknown_prompt_gets_a_wrong_answer(urls: list[str]) -> None:
    prompt = "What is the airspeed of an unladen swallow? Put your final answer in \\boxed{}."
    row = {"responses_create_params": {"input": [{"role": "user", "content": prompt}]},
           "expected_answer": "11", "extraction_mode": "boxed"}
    for seed in range(5):
        content = chat(urls[1], prompt, seed=seed)[1]["choices"][0]["message"]["content"]
        assert get_environment("string_match").verify(row, content)["reward"] == 0.0


async def _rewards(url: str, seeds: range) -> list[float]:
    """Verified reward of every bundled task, for each seed, in a fixed order."""
    jobs = [
        (environment, row, seed)
        for environment in ENVIRONMENTS.values()
        for row in environment.rows()
        for seed in seeds
    ]
    async with aiohttp.ClientSession() as session:

        async def one(environment, row, seed) -> float:
            body = {"model": "sim-policy", "seed": seed,
                    "messages": [{"role": "user", "content": environment.prompt_text(row)}]}
            async with session.post(url + "/chat/completions", json=body) as answer:
                completion = await answer.json()
            return environment.verify(row, completion["choices"][0]["message"]["content"])["reward"]

        return await asyncio.gather(*(one(*job) for job in jobs))


def test_later_checkpoint_scores_higher(urls: list[str]) -> None:
    early, late = (asyncio.run(_rewards(url, range(2))) for url in urls)
    early_mean, late_mean = sum(early) / len(early), sum(late) / len(late)
    assert 0.15 < early_mean < 0.45 and 0.45 < late_mean < 0.75 and late_mean > early_mean + 0.15
    # Same seed: the later checkpoint solves every request the earlier one solved.
    assert all(later >= earlier for earlier, later in zip(early, late, strict=False))


def test_latency_is_added_per_request(checkpoints: list[Path], prompt: str) -> None:
    with serving(create_app(checkpoints[0], latency_ms=150)) as (url,):
        started = time.monotonic()
        assert chat(url, prompt, seed=0)[0] == 200
        assert time.monotonic() - started >= 0.15


@pytest.mark.timeout(30)
def test_run_server_announces_itself_and_stops_on_sigterm(checkpoints: list[Path], tmp_path: Path) -> None:
    ready_file = tmp_path / "policy.url"
    code = (
        "import sys; from gym_pipeline.serving.simulated_policy import run_server; "
        "run_server(sys.argv[1], ready_file=sys.argv[2])"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", code, str(checkpoints[1]), str(ready_file)], stdout=subprocess.PIPE, text=True
    )
    try:
        line = process.stdout.readline().rstrip("\n")
        match = re.fullmatch(r"SIMULATED_POLICY_READY (http://127\.0\.0\.1:\d+/v1)", line)
        assert match, line
        url = match.group(1)
        assert ready_file.read_text().strip() == url
        assert call(url + "/models")[1]["data"][0]["checkpoint_step"] == 200
        # then what it serves, in vLLM's words, for a diagnosis of requests that name another model
        served = process.stdout.readline()
        assert "checkpoint step 200, served_model_name=['sim-policy']" in served
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0
        assert process.stdout.read().startswith("INFO simulated policy: stopped by SIGTERM (another process asked it "
                                                "to stop")  # what stopped it, for a stage that then finds nothing
        assert not ready_file.exists()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


# --- capacity: a bounded batch and queue, like a real server under load ------------------------------


def test_a_bounded_server_queues_then_refuses_and_logs_its_load(checkpoints: list[Path], prompt: str,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from gym_pipeline.serving.capacity import CapacitySettings

    app = create_app(checkpoints[0], latency_ms=2500, capacity=CapacitySettings(max_running=1, max_waiting=2))
    with serving(app) as [url], ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(lambda _: chat(url, prompt), range(6)))
    statuses = sorted(status for status, _ in answers)
    assert statuses == [200, 200, 200, 429, 429, 429]  # one running, two waiting, the rest refused
    refused = next(body for status, body in answers if status == 429)
    assert refused["error"]["code"] == "overloaded" and "2 waiting" in refused["error"]["message"]
    load = re.findall(r"Engine 000: .*Running: (\d+) reqs, Waiting: (\d+) reqs", capsys.readouterr().out)
    assert ("1", "2") in load or ("1", "1") in load  # the queue behind the running request, as vLLM logs it
