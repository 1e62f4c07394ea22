"""Faults from the model server: the simulated policy injects them over HTTP on loopback, the built-in
collector retries them and routes what still fails to the sidecar with Gym's failure classes.

Every collection here must settle each (task, rollout) exactly once: collected, or given up in the
sidecar after one row per attempt (none stamped terminal: as Gym, a resume may retry it), and never both. Timing is asserted only as order (a retry after a
429 arrives no sooner than its Retry-After, on the server's clock), never as a duration of the test.
"""

from __future__ import annotations

import asyncio
import math
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path

import orjson
import pytest
from aiohttp import web

from gym_pipeline.cli import main
from gym_pipeline.core.materialize import MaterializationSettings, materialize_file
from gym_pipeline.diagnose import diagnose
from gym_pipeline.engines.builtin import CollectionError, CollectorSettings, collect, failures_path_for
from gym_pipeline.engines.pacing import RampUp
from gym_pipeline.engines.responses import chat_request
from gym_pipeline.engines.retry import MAX_DELAY_S, parse_retry_after, retry_delay
from gym_pipeline.environments import get_environment
from gym_pipeline.host import EndedBeforeReady, stop_process_tree, wait_until_ready
from gym_pipeline.serving.checkpoints import demo_checkpoints
from gym_pipeline.serving.faults import FAULT_KINDS, FaultConfigError, FaultInjector, FaultSettings
from gym_pipeline.serving.simulated_policy import create_app

ENV = "string_match"
MODEL = "sim-policy"  # a demo checkpoint's model id: giving it skips discovery through /v1/models
Key = tuple[int, int]


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return demo_checkpoints(tmp_path_factory.mktemp("checkpoints"), 1, [ENV])[0]


# --- an in-process policy server that records what reached it -------------------------------------


@dataclass
class Arrival:
    at: float  # time.monotonic() when the request arrived
    request: tuple[str, int]  # (prompt, seed): which (task, rollout) asked
    status: int  # what the server answered (444: it closed the connection instead)


@contextmanager
def serving(app: web.Application) -> Iterator[tuple[str, list[Arrival]]]:
    """Serve `app` on 127.0.0.1 from a background event loop; yields its base URL and its chat arrivals."""
    arrivals: list[Arrival] = []

    @web.middleware
    async def record(request: web.Request, handler):
        if request.path != "/v1/chat/completions":
            return await handler(request)
        at = time.monotonic()
        body = orjson.loads(await request.read())
        response = await handler(request)
        arrivals.append(Arrival(at, (body["messages"][-1]["content"], body["seed"]), response.status))
        return response

    app.middlewares.insert(0, record)  # outermost: it sees the injected faults too
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()

    async def start() -> web.AppRunner:
        runner = web.AppRunner(app)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        return runner

    runner = asyncio.run_coroutine_threadsafe(start(), loop).result(10)
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}/v1", arrivals
    finally:
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


@contextmanager
def serve_policy_process(checkpoint: Path, tmp_path: Path, *flags: str) -> Iterator[str]:
    """`gym-pipeline serve-policy ... FLAGS` as a subprocess; yields its base URL."""
    ready = tmp_path / "policy.url"
    command = [sys.executable, "-m", "gym_pipeline.cli", "serve-policy", "--checkpoint", str(checkpoint),
               "--port", "0", "--ready-file", str(ready), *flags]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, start_new_session=True)
    try:
        try:
            wait_until_ready(ready.exists, 120, 0.05, ended=lambda: process.poll() is not None)
        except EndedBeforeReady:
            raise AssertionError("serve-policy exited before it was ready") from None
        yield ready.read_text().strip()
    finally:
        stop_process_tree(process, signal.SIGTERM)


# --- collecting, and what must hold afterwards -----------------------------------------------------


def run_dir_with_inputs(tmp_path: Path, tasks: int, repeats: int = 1) -> Path:
    """A run folder whose materialized inputs hold the first `tasks` tasks of the environment."""
    run = tmp_path / "run"
    run.mkdir()
    inputs = run / "rollouts_materialized_inputs.jsonl"
    environment = get_environment(ENV)
    materialize_file(environment.dataset_path, inputs, MaterializationSettings(repeats, environment.agent_name))
    lines = inputs.read_bytes().splitlines(keepends=True)
    inputs.write_bytes(b"".join(lines[: tasks * repeats]))
    return run


def collect_run(run: Path, url: str, **settings) -> None:
    defaults = {"model_name": MODEL, "concurrency": 16, "request_timeout_s": 5.0, "backoff_base_s": 0.001}
    asyncio.run(collect(run / "rollouts_materialized_inputs.jsonl", run / "rollouts.jsonl", get_environment(ENV),
                        CollectorSettings(model_url=url, **(defaults | settings))))


def jsonl(path: Path) -> list[dict]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines()]


def key(row: dict) -> Key:
    return row["_ng_task_index"], row["_ng_rollout_index"]


@dataclass
class Outcome:
    collected: set[Key]
    given_up: set[Key]  # every attempt failed
    attempts: dict[Key, list[dict]]  # the sidecar rows of each key, in file order
    failures: list[dict]


def settled(run: Path, max_attempts: int = 3) -> Outcome:
    """Check that every materialized key settled exactly once, with one sidecar row per failed attempt."""
    expected = {key(row) for row in jsonl(run / "rollouts_materialized_inputs.jsonl")}
    collected_rows = [key(row) for row in jsonl(run / "rollouts.jsonl")]
    failures = jsonl(failures_path_for(run / "rollouts.jsonl"))
    collected = set(collected_rows)
    assert len(collected_rows) == len(collected), "a (task, rollout) was collected twice"
    attempts: dict[Key, list[dict]] = defaultdict(list)
    for row in failures:
        attempts[key(row)].append(row)
    given_up = {k for k, rows in attempts.items() if len(rows) == max_attempts}
    assert collected | given_up == expected, "a (task, rollout) was lost"
    assert not collected & given_up, "a (task, rollout) both collected and given up"
    for rows in attempts.values():
        assert [row.get("_ng_attempt_index", 0) for row in rows] == list(range(len(rows)))
        assert "_ng_attempt_index" not in rows[0], "the first attempt stamped (Gym leaves it unstamped)"
        assert not any("_ng_failure_terminal" in row for row in rows), "a model failure stamped terminal"
    return Outcome(collected, given_up, dict(attempts), failures)


def requests_of(run: Path) -> dict[tuple[str, int], Key]:
    """(prompt, seed) as the server sees it -> (task, rollout)."""
    return {
        (chat_request(row["responses_create_params"], MODEL, row["_ng_rollout_index"])["messages"][-1]["content"],
         row["_ng_rollout_index"]): key(row)
        for row in jsonl(run / "rollouts_materialized_inputs.jsonl")
    }


def arrivals_by_key(run: Path, arrivals: list[Arrival]) -> dict[Key, list[Arrival]]:
    keys = requests_of(run)
    by_key: dict[Key, list[Arrival]] = defaultdict(list)
    for arrival in sorted(arrivals, key=lambda a: a.at):
        by_key[keys[arrival.request]].append(arrival)
    return by_key


# --- the settings and the draw ---------------------------------------------------------------------


@pytest.mark.parametrize("settings, message", [
    ({"rate": 1.5}, "--fault-rate must be between 0 and 1, got 1.5"),
    ({"rate": -0.1}, "--fault-rate must be between 0 and 1"),
    ({"rate": math.nan}, "--fault-rate must be between 0 and 1"),
    ({"kinds": ("5xx", "teapot")}, "unknown fault kind 'teapot' (known: 5xx, 429, timeout, drop)"),
    ({"kinds": ()}, "no fault kind given"),
    ({"slow_start_s": -1}, "--slow-start-s must be >= 0"),
    ({"retry_after_s": -1}, "--retry-after-s must be >= 0"),
    ({"hold_s": 0}, "--timeout-hold-s must be > 0"),
])
def test_bad_fault_settings_are_refused(settings, message):
    with pytest.raises(FaultConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        FaultSettings(**settings)


@pytest.mark.parametrize("flags, message", [
    (["--fault-rate", "2"], "--fault-rate must be between 0 and 1, got 2.0"),
    (["--fault-kinds", "5xx,teapot"], "unknown fault kind 'teapot'"),
])
def test_serve_policy_refuses_bad_fault_flags_with_exit_2(checkpoint, capsys, flags, message):
    assert main(["serve-policy", "--checkpoint", str(checkpoint), "--port", "0", *flags]) == 2
    error = capsys.readouterr().err
    assert message in error and "Traceback" not in error


def test_faults_are_drawn_per_request_not_per_arrival_order():
    settings = FaultSettings(rate=0.2, seed=11)
    bodies = [orjson.dumps({"prompt": n, "seed": n % 4}) for n in range(2000)]

    def draws(order: list[bytes]) -> dict[bytes, list]:
        injector = FaultInjector(settings)
        drawn = defaultdict(list)
        for _ in range(3):  # a first attempt and two retries of every request
            for body in order:
                drawn[body].append(injector.draw(body))
        return drawn

    forward = draws(bodies)
    assert draws(bodies[::-1]) == forward
    faults = [fault for drawn in forward.values() for fault in drawn if fault is not None]
    assert 0.17 < len(faults) / (3 * len(bodies)) < 0.23
    assert {fault.kind for fault in faults} == set(FAULT_KINDS)
    assert {fault.status for fault in faults if fault.kind == "5xx"} == {500, 502, 503}
    assert any(drawn[0] != drawn[1] for drawn in forward.values()), "a retry draws anew"
    other_seed = FaultInjector(FaultSettings(rate=0.2, seed=12))
    assert [other_seed.draw(body) for body in bodies] != [drawn[0] for drawn in forward.values()]
    no_faults = FaultInjector(FaultSettings(rate=0.0))
    assert all(no_faults.draw(body) is None for body in bodies[:100])


def test_retry_after_is_read_as_seconds_or_a_date():
    assert parse_retry_after("3") == 3.0
    assert parse_retry_after(None) is None
    assert parse_retry_after("soon") is None
    assert parse_retry_after("nan") is None
    assert parse_retry_after("-4") == 0.0
    in_a_minute = format_datetime(datetime.now(UTC) + timedelta(seconds=60), usegmt=True)
    assert 50 < parse_retry_after(in_a_minute) <= 60


def test_retry_delay_is_jittered_backoff_stretched_to_retry_after_and_capped():
    for attempt in range(3):
        backoffs = [retry_delay(attempt, 0.2) for _ in range(200)]
        assert 0.1 * 2**attempt <= min(backoffs) < max(backoffs) <= 0.3 * 2**attempt
    assert all(retry_delay(1, 0.2, retry_after_s=5) == 5 for _ in range(20))
    assert all(retry_delay(2, 1.0, retry_after_s=0.5) >= 2.0 for _ in range(20)), "never below the backoff"
    assert retry_delay(0, 0.2, retry_after_s=86400) == MAX_DELAY_S


# --- each fault alone, over HTTP --------------------------------------------------------------------

# What an attempt that met the fault looks like in the sidecar: class, statuses, `_ng_failure_type`.
SIDECAR_ROW = {
    "5xx": ("agent_run_error", {500, 502, 503}, "ClientResponseError"),
    "429": ("agent_run_error", {429}, "ClientResponseError"),
    "timeout": ("agent_request_failed", {None}, "TimeoutError"),
    "drop": ("agent_request_failed", {None}, "ServerDisconnectedError"),
}
# How the diagnosis names it.
DIAGNOSIS_NAMES = {
    "5xx": "Model endpoint failing (HTTP",
    "429": "Model endpoint rate limited (HTTP 429)",
    "timeout": "Model endpoint timing out",
    "drop": "Model endpoint dropping connections",
}


@pytest.mark.parametrize("kind", FAULT_KINDS)
def test_each_fault_is_retried_and_what_still_fails_is_in_the_sidecar(checkpoint, tmp_path, kind):
    # At rate 0.5 and this seed, some keys recover on a retry and some fail all three attempts.
    faults = FaultSettings(rate=0.5, kinds=(kind,), seed=3, hold_s=60)
    run = run_dir_with_inputs(tmp_path, tasks=16)
    with serving(create_app(checkpoint, faults=faults)) as (url, arrivals):
        collect_run(run, url, request_timeout_s=0.25)
    outcome = settled(run)
    assert outcome.given_up, "some key failed every attempt"
    assert outcome.collected & set(outcome.attempts), "some key was collected on a retry"
    failure_class, statuses, failure_type = SIDECAR_ROW[kind]
    for row in outcome.failures:
        assert (row["_ng_failure_class"], row["_ng_failure_type"]) == (failure_class, failure_type)
        assert row["_ng_failure_http_status"] in statuses
        if row["_ng_failure_http_status"] is not None:  # the server's OpenAI-style error body is kept
            assert orjson.loads(row["_ng_failure_response_body"])["error"]["type"]
    if kind == "timeout":  # cut off by request_timeout_s, long before the server would have answered
        assert all("request_timeout_s=0.25" in row["_ng_failure_message"] for row in outcome.failures)
    # Every request that reached the server is one row: a success or a failed attempt, none retried unseen.
    assert len(arrivals) == len(outcome.collected) + len(outcome.failures)
    first = diagnose(run).findings[0]
    # a rate limit asks for fewer requests: throughput (seed 000: concurrency too high), not a model fault
    category = "throughput_resources" if kind == "429" else "model_serving"
    assert first.category == category and first.title.startswith(DIAGNOSIS_NAMES[kind]), first


def test_429_is_retried_no_sooner_than_its_retry_after(checkpoint, tmp_path):
    faults = FaultSettings(rate=1.0, kinds=("429",), retry_after_s=1)
    run = run_dir_with_inputs(tmp_path, tasks=4)
    with serving(create_app(checkpoint, faults=faults)) as (url, arrivals):
        collect_run(run, url, backoff_base_s=0.001)  # the backoff alone would retry after about a millisecond
    outcome = settled(run)
    assert outcome.given_up == {(task, 0) for task in range(4)}
    assert {row["_ng_failure_http_status"] for row in outcome.failures} == {429}
    gaps = [later.at - earlier.at
            for seen in arrivals_by_key(run, arrivals).values()
            for earlier, later in zip(seen, seen[1:], strict=False)]
    assert len(gaps) == 4 * 2 and min(gaps) >= 1.0


def test_slow_start_answers_503_everywhere_until_ready(checkpoint):
    with serving(create_app(checkpoint, faults=FaultSettings(slow_start_s=3600))) as (url, _):
        chat = orjson.dumps({"model": MODEL, "messages": [{"role": "user", "content": "2+2?"}], "seed": 0})
        for path in ("/health", "/v1/models", "/v1/chat/completions"):
            request = urllib.request.Request(url.removesuffix("/v1") + path,
                                             data=chat if path.endswith("completions") else None)
            with pytest.raises(urllib.error.HTTPError) as raised:
                urllib.request.urlopen(request, timeout=10)
            assert raised.value.code == 503, path
            assert int(raised.value.headers["Retry-After"]) > 3000
            assert orjson.loads(raised.value.read())["error"]["code"] == "model_not_ready"


def test_a_slow_start_is_waited_out(checkpoint, tmp_path):
    run = run_dir_with_inputs(tmp_path, tasks=8)
    with serving(create_app(checkpoint, faults=FaultSettings(slow_start_s=2.0))) as (url, arrivals):
        collect_run(run, url, backoff_base_s=0.001)
    outcome = settled(run)
    assert outcome.collected == {(task, 0) for task in range(8)} and not outcome.given_up
    assert {row["_ng_failure_http_status"] for row in outcome.failures} == {503}
    # The 503's Retry-After covers what is left of the start: each key needed one retry at most.
    assert all(len(rows) == 1 for rows in outcome.attempts.values())
    assert [a.status for seen in arrivals_by_key(run, arrivals).values() for a in seen[1:]] == [200] * len(
        outcome.failures)


# --- a whole run at a 20% fault rate, against `gym-pipeline serve-policy` ---------------------------


def test_a_run_at_20_percent_mixed_faults_loses_nothing_and_is_diagnosed(checkpoint, tmp_path):
    run = run_dir_with_inputs(tmp_path, tasks=87, repeats=2)
    flags = ["--fault-rate", "0.2", "--fault-kinds", "5xx,429,timeout,drop", "--fault-seed", "7",
             "--timeout-hold-s", "30", "--latency-ms", "5"]
    with serve_policy_process(checkpoint, tmp_path, *flags) as url:
        collect_run(run, url, concurrency=32, request_timeout_s=0.5, backoff_base_s=0.01)
    outcome = settled(run)
    assert len(outcome.collected) + len(outcome.given_up) == 174
    assert outcome.given_up, "at this seed a key failed all three attempts"
    kinds = {(row["_ng_failure_class"], row["_ng_failure_type"], row["_ng_failure_http_status"])
             for row in outcome.failures}
    assert {("agent_run_error", "ClientResponseError", status) for status in (429, 500, 502, 503)} <= kinds
    assert {("agent_request_failed", "TimeoutError", None),
            ("agent_request_failed", "ServerDisconnectedError", None)} <= kinds
    report = diagnose(run)
    first = report.findings[0]
    assert report.category == first.category == "model_serving"
    for name in ("failing (HTTP 500, 502, 503)", "rate limited (HTTP 429)", "timing out", "dropping connections"):
        assert name in first.title
    assert len(first.evidence) == 4, "a sidecar line of each fault"
    assert "--fault-rate" in first.fix, "the server said its faults were injected: the fix says to turn them off"


def test_serve_policy_warns_that_fault_injection_is_on(checkpoint, tmp_path):
    command = [sys.executable, "-m", "gym_pipeline.cli", "serve-policy", "--checkpoint", str(checkpoint), "--port",
               "0", "--fault-rate", "0.3", "--fault-kinds", "5xx,drop"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        lines = [process.stdout.readline() for _ in range(3)]
    finally:
        stop_process_tree(process, signal.SIGTERM)
    assert lines[2].rstrip("\n") == ("WARNING simulated policy: fault injection is on: --fault-rate 0.3 of chat "
                                      "completions fail on purpose (--fault-kinds 5xx,drop)")


# --- answers that are not chat completions, and the first wave's ramp ------------------------------


def test_an_answer_that_is_not_a_chat_completion_is_a_failed_attempt_not_a_crash(tmp_path):
    # not a completion, cut JSON, no choices, a choice without its message
    answers = [b"[]", b'{"choices": [', b'{"error": "no"}', b'{"choices": [{"finish_reason": "stop"}]}']
    served = []

    async def broken(request: web.Request) -> web.Response:
        served.append(answers[len(served) % len(answers)])
        return web.Response(body=served[-1], content_type="application/json")

    app = web.Application()
    app.router.add_post("/v1/chat/completions", broken)
    run = run_dir_with_inputs(tmp_path, tasks=2)
    with serving(app) as (url, _):
        collect_run(run, url, max_attempts=4)
    outcome = settled(run, max_attempts=4)
    assert outcome.given_up == {(0, 0), (1, 0)}
    assert {(row["_ng_failure_class"], row["_ng_failure_http_status"]) for row in outcome.failures} == {
        ("agent_run_error", 200)}
    assert {row["_ng_failure_response_body"].encode() for row in outcome.failures} == set(answers)


def test_the_model_name_is_found_once_a_slow_start_ends(checkpoint, tmp_path):
    run = run_dir_with_inputs(tmp_path, tasks=2)
    with serving(create_app(checkpoint, faults=FaultSettings(slow_start_s=1.0))) as (url, _):
        collect_run(run, url, model_name=None)  # asks /v1/models, which answers 503 for the first second
    assert settled(run).collected == {(0, 0), (1, 0)}
    assert {row["response"]["model"] for row in jsonl(run / "rollouts.jsonl")} == {MODEL}


def test_a_refused_model_listing_fails_at_once_naming_the_status(tmp_path):
    asked = []

    async def unauthorized(request: web.Request) -> web.Response:
        asked.append(request.path)
        return web.Response(status=401, text="invalid api key")

    app = web.Application()
    app.router.add_get("/v1/models", unauthorized)
    run = run_dir_with_inputs(tmp_path, tasks=1)
    with serving(app) as (url, _), pytest.raises(CollectionError, match="answered HTTP 401 Unauthorized"):
        collect_run(run, url, model_name=None)
    assert asked == ["/v1/models"]  # a wrong key is not retried


def test_the_first_wave_starts_spread_out():
    async def starts() -> list[float]:
        ramp, loop = RampUp(3, interval_s=0.02), asyncio.get_running_loop()
        began = loop.time()

        async def start() -> float:
            await ramp.wait()
            return loop.time() - began

        return await asyncio.gather(*(start() for _ in range(5)))

    _, second, third, fourth, fifth = asyncio.run(starts())
    assert second >= 0.02 and third >= 0.04
    assert max(fourth, fifth) < third, "callers after the first wave do not wait"
