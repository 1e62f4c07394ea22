"""The built-in rollout engine: an async collector against any OpenAI-compatible endpoint.

It plays the part of Gym's simple agent plus `gym eval run`: each materialized
row is sent as a chat completion with bounded concurrency, the answer is
verified by the environment's verifier, and the result is appended to
`rollouts.jsonl` (successes) or `rollouts_failures.jsonl` (one row per failed
attempt) as soon as it is done, in Gym 0.7.0's formats.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import orjson

from gym_pipeline.core import failure_kinds
from gym_pipeline.core.fingerprint import file_digest
from gym_pipeline.core.formats import (
    AGENT_REF,
    RESPONSES_CREATE_PARAMS,
    ROLLOUT_INDEX,
    TASK_INDEX,
    FailureRow,
    JsonlAppender,
    MaterializedInputRow,
    RolloutRow,
    TornLine,
    attempt_stamp,
    drop_torn_last_line,
    iter_jsonl_dicts,
    sibling_path,
    validate_row,
)
from gym_pipeline.core.manifest import COLLECTING, COMPLETE, ROLLOUTS_STAGE, read_manifest, record_stage
from gym_pipeline.core.materialize import MATERIALIZED_INPUTS_STAGE
from gym_pipeline.core.redaction import redact
from gym_pipeline.core.run_lock import run_directory_lock
from gym_pipeline.core.staleness import ensure_resume_is_safe
from gym_pipeline.engines.pacing import RampUp
from gym_pipeline.engines.responses import chat_request, expanded_request, output_text, response_object
from gym_pipeline.engines.retry import RETRY_AFTER_STATUSES, parse_retry_after, retry_delay
from gym_pipeline.environments import Environment

log = logging.getLogger(__name__)

Key = tuple[int, int]
_JSON_CONTENT = {"Content-Type": "application/json"}


@dataclass
class CollectorSettings:
    model_url: str  # base URL ending in /v1
    model_name: str | None = None  # None: the first model the endpoint lists
    concurrency: int = 32
    max_attempts: int = field(default_factory=failure_kinds.max_rollout_attempts)
    request_timeout_s: float = 120.0
    backoff_base_s: float = 0.2
    # a warning when nothing settled for this long: a server that accepts connections and never answers (stopped,
    # hung) otherwise leaves the run silent for the request timeout times the attempts
    silence_warning_s: float = 60.0
    api_key: str | None = field(default=None, repr=False)


@dataclass
class CollectionProgress:
    total: int
    done: int
    failed: int


@dataclass
class CollectionSummary:
    total: int
    resumed: int  # keys already done before this run
    collected: int  # successes written by this run
    failed_keys: list[Key]
    elapsed_s: float
    model_name: str
    torn_lines_repaired: list[TornLine] = field(default_factory=list)  # cut off on resume, see drop_torn_last_line
    given_up_before: int = 0  # of failed_keys: given up by an earlier run (attempts used up), not retried on resume
    output_digest: str = ""  # of the rollouts file as this run left it (what the manifest records)

    @property
    def failed(self) -> int:
        return len(self.failed_keys)


class CollectionError(RuntimeError):
    pass


class _AttemptFailed(Exception):
    def __init__(self, failure: dict[str, Any], retryable: bool, retry_after_s: float | None = None):
        super().__init__(failure["_ng_failure_message"])
        self.failure = failure
        self.retryable = retryable
        self.retry_after_s = retry_after_s  # what the server asked for (Retry-After), if anything


def failures_path_for(rollouts_path: Path) -> Path:
    """`out/rollouts.jsonl` -> `out/rollouts_failures.jsonl`, as Gym names its sidecar."""
    return sibling_path(rollouts_path, "_failures.jsonl")


def _key(row: dict[str, Any]) -> Key:
    return row[TASK_INDEX], row[ROLLOUT_INDEX]


def _read_materialized(path: Path) -> list[dict[str, Any]]:
    rows = []
    for line_number, value in iter_jsonl_dicts(path):
        validate_row(path, line_number, value, MaterializedInputRow)
        rows.append(value)
    return rows


def _already_settled(rollouts_path: Path, failures_path: Path, max_attempts: int) -> tuple[set[Key], set[Key]]:
    """Keys that resume must not run again: done (in rollouts) and given up (terminal or out of attempts)."""
    done: set[Key] = set()
    if rollouts_path.exists():
        for line_number, value in iter_jsonl_dicts(rollouts_path):
            done.add(_key(validate_row(rollouts_path, line_number, value, RolloutRow).model_dump(by_alias=True)))
    attempts: Counter[Key] = Counter()
    given_up: set[Key] = set()
    if failures_path.exists():
        for line_number, value in iter_jsonl_dicts(failures_path):
            failure = validate_row(failures_path, line_number, value, FailureRow)
            key = (failure.task_index, failure.rollout_index)
            attempts[key] += 1
            if failure.failure_terminal:
                given_up.add(key)
    given_up |= {key for key, count in attempts.items() if count >= max_attempts}
    return done, given_up - done


def _failure_row(row: dict[str, Any], failure_class: str, error: BaseException, status: int | None,
                 body: str | None, environment: Environment) -> dict[str, Any]:
    return {
        "_ng_failure_class": failure_class,
        "_ng_failure_type": type(error).__name__,
        # A message may quote the model URL with its credentials, a body may echo the API key: hidden first.
        "_ng_failure_message": redact(str(error) or repr(error)),
        "_ng_failure_http_status": status,
        "_ng_failure_response_body": redact(body) if body else body,
        TASK_INDEX: row[TASK_INDEX],
        ROLLOUT_INDEX: row[ROLLOUT_INDEX],
        AGENT_REF: row[AGENT_REF],
        "_ng_environment_server": environment.environment_server_name,
        "_ng_result_type": "legacy_agent",
    }


def _chat_completion(raw: bytes) -> dict[str, Any]:
    """The answer as a chat completion, or ValueError when it is not one (a proxy's page, a half answer)."""
    completion = orjson.loads(raw)
    choices = completion.get("choices") if isinstance(completion, dict) else None
    if not isinstance(choices, list) or not choices:
        raise ValueError("the answer is not a chat completion: it has no choices")
    if not isinstance(choices[0], dict) or not isinstance(choices[0].get("message"), dict):
        raise ValueError("the answer is not a chat completion: its first choice has no message")
    return completion


def verifier_error(reason: str) -> dict[str, Any]:
    """Gym's masked `verifier_error` fields: the verifier could not score this answer (`reason`, redacted)."""
    return {"reward": 0.0, "failure_kind": failure_kinds.VERIFIER_ERROR, "mask_sample": True,
            "failure_reason": redact(reason)}


def verdict_or_error(environment: Environment, row: dict[str, Any], response_text: str) -> dict[str, Any]:
    """The verifier's fields for one answer; a verifier that raises gives Gym's masked `verifier_error` fields."""
    try:
        return environment.verify(row, response_text)
    except Exception as error:
        return verifier_error(f"{type(error).__name__}: {error}")


class _Collector:
    def __init__(self, environment: Environment, settings: CollectorSettings, session: aiohttp.ClientSession,
                 model_name: str):
        self.environment = environment
        self.settings = settings
        self.session = session
        self.model_name = model_name
        self.ramp = RampUp(settings.concurrency)
        self.slots = asyncio.Semaphore(settings.concurrency)  # requests in flight

    async def _complete(self, row: dict[str, Any]) -> dict[str, Any]:
        """One chat completion. An HTTP error is an agent run error (status and body kept); no answer
        at all (refused, dropped, cut off, timed out) is a failed request."""
        params = row[RESPONSES_CREATE_PARAMS]
        body = orjson.dumps(chat_request(params, self.model_name, seed=row[ROLLOUT_INDEX]))
        url = self.settings.model_url.rstrip("/") + "/chat/completions"
        timeout_s = self.settings.request_timeout_s
        try:
            async with self.session.post(url, data=body, headers=_JSON_CONTENT,
                                         timeout=aiohttp.ClientTimeout(total=timeout_s)) as answer:
                raw = await answer.read()
                if answer.status >= 400:
                    error = aiohttp.ClientResponseError(
                        answer.request_info, (), status=answer.status, message=answer.reason or "", headers=answer.headers
                    )
                    retryable = answer.status == 429 or answer.status >= 500
                    retry_after = (parse_retry_after(answer.headers.get("Retry-After"))
                                   if answer.status in RETRY_AFTER_STATUSES else None)
                    failure = _failure_row(row, failure_kinds.AGENT_RUN_ERROR, error, answer.status,
                                           raw.decode(errors="replace"), self.environment)
                    raise _AttemptFailed(failure, retryable, retry_after)
                try:
                    completion = _chat_completion(raw)
                except ValueError as error:  # orjson.JSONDecodeError is one too
                    failure = _failure_row(row, failure_kinds.AGENT_RUN_ERROR, error, answer.status,
                                           raw.decode(errors="replace"), self.environment)
                    raise _AttemptFailed(failure, retryable=True) from None
                return completion
        except TimeoutError:  # aiohttp raises it bare; the row should say which limit was hit
            error = TimeoutError(f"no answer from {url} within request_timeout_s={timeout_s:g}")
            failure = _failure_row(row, failure_kinds.AGENT_REQUEST_FAILED, error, None, None, self.environment)
            raise _AttemptFailed(failure, retryable=True) from None
        except aiohttp.ClientError as error:
            failure = _failure_row(row, failure_kinds.AGENT_REQUEST_FAILED, error, None, None, self.environment)
            raise _AttemptFailed(failure, retryable=True) from None

    def _verify(self, row: dict[str, Any], completion: dict[str, Any]) -> dict[str, Any]:
        """The rollout row. A verifier that raises gives Gym's masked `verifier_error` row: the answer is kept,
        the rollout counts for completion but stays out of every reward statistic (never a silent 0, never a crash)."""
        params = row[RESPONSES_CREATE_PARAMS]
        response = response_object(completion, params)
        return {
            RESPONSES_CREATE_PARAMS: expanded_request(params),
            "response": response,
            **verdict_or_error(self.environment, row, output_text(response)),
            TASK_INDEX: row[TASK_INDEX],
            ROLLOUT_INDEX: row[ROLLOUT_INDEX],
            AGENT_REF: row[AGENT_REF],
            "_ng_environment_server": self.environment.environment_server_name,
            "_ng_result_type": "legacy_agent",
        }

    async def run_row(self, row: dict[str, Any], prior_attempts: int, failures: JsonlAppender) -> dict[str, Any] | None:
        """One (task, rollout): retried with backoff and jitter; every failed attempt goes to the sidecar.

        A row waiting to retry gives its slot back, so backoff and Retry-After waits do not idle the endpoint.
        As Gym, no model failure is stamped `_ng_failure_terminal` (only an environment calls its failures
        terminal): a resume retries the row until its sidecar rows reach the attempts allowed, so a fixed server
        or a raised NEMO_GYM_MAX_ROLLOUT_ATTEMPTS gives it another try.
        """
        for attempt in range(prior_attempts, self.settings.max_attempts):
            async with self.slots:
                await self.ramp.wait()  # only the first wave waits: see pacing.py
                try:
                    return self._verify(row, await self._complete(row))
                except _AttemptFailed as failed:
                    failures.append(failed.failure | attempt_stamp(attempt))
                    if attempt + 1 >= self.settings.max_attempts or not failed.retryable:
                        return None
                    delay = retry_delay(attempt, self.settings.backoff_base_s, failed.retry_after_s)
            await asyncio.sleep(delay)
        return None


async def _warn_while_silent(settings: CollectorSettings, settled: Callable[[], int]) -> None:
    """Warn, every `silence_warning_s`, while no rollout settles: the endpoint takes requests and answers none."""
    silent_s, last = 0.0, settled()
    while True:
        await asyncio.sleep(settings.silence_warning_s)
        now = settled()
        silent_s = silent_s + settings.silence_warning_s if now == last else 0.0
        last = now
        if silent_s:
            log.warning("no answer from the model endpoint %s for %d s: a server that takes connections and answers "
                        "none is stopped (Ctrl-Z, SIGSTOP), hung or overloaded; check it: `curl -m 5 %s/models`, "
                        "`ps -o pid,stat,cmd -p <pid>` (state T: stopped)", redact(settings.model_url), silent_s,
                        redact(settings.model_url.rstrip("/")))


async def discover_model_name(session: aiohttp.ClientSession, settings: CollectorSettings) -> str:
    """The first model the endpoint lists; a server still starting (503, refused) is retried like a row."""
    url = settings.model_url.rstrip("/") + "/models"
    for attempt in range(settings.max_attempts):
        retry_after = None
        try:
            async with session.get(url) as answer:
                if answer.status < 400:
                    return _first_model_id(url, await answer.read())
                problem = f"HTTP {answer.status} {answer.reason or ''}".strip()
                if answer.status != 429 and answer.status < 500:  # a wrong URL or key: retrying will not help
                    raise CollectionError(f"model endpoint {redact(url)} answered {problem}")
                retry_after = parse_retry_after(answer.headers.get("Retry-After"))
        except (TimeoutError, aiohttp.ClientError) as error:
            problem = str(error) or type(error).__name__
        if attempt + 1 < settings.max_attempts:
            await asyncio.sleep(retry_delay(attempt, settings.backoff_base_s, retry_after))
    raise CollectionError(f"model endpoint {redact(url)} did not answer after {settings.max_attempts} attempts: "
                          f"{redact(problem)}")


def _first_model_id(url: str, raw: bytes) -> str:
    try:
        listing = orjson.loads(raw)
        models = listing.get("data") if isinstance(listing, dict) else None
        model_id = models[0].get("id") if isinstance(models, list) and models and isinstance(models[0], dict) else None
    except orjson.JSONDecodeError:
        model_id = None
    if not isinstance(model_id, str) or not model_id:
        raise CollectionError(f"model endpoint {redact(url)} lists no model (expected {{\"data\": [{{\"id\": ...}}]}})")
    names = [m["id"] for m in models if isinstance(m, dict) and isinstance(m.get("id"), str)]
    if len(names) > 1:  # a base model and its LoRA adapters, or several served names: the first may not be the one meant
        log.warning("model endpoint %s lists %d models (%s): collecting with the first, %s; pass --model to choose",
                    redact(url), len(names), ", ".join(names), model_id)
    return model_id


async def collect(
    materialized_path: Path,
    rollouts_path: Path,
    environment: Environment,
    settings: CollectorSettings,
    resume: bool = False,
    on_progress: Callable[[CollectionProgress], None] | None = None,
    manifest_extra: dict[str, Any] | None = None,
) -> CollectionSummary:
    """Collect a rollout for every materialized row not yet settled; returns what happened.

    The run's manifest records the inputs' digest when collection starts, so a later
    `resume` can refuse inputs that changed in between. The run directory is locked for the whole
    collection; a torn last line left by a killed run is cut off on resume and listed in the summary.
    """
    started = time.monotonic()
    materialized_path, rollouts_path = Path(materialized_path), Path(rollouts_path)
    failures_path = failures_path_for(rollouts_path)
    if materialized_path.resolve() in (rollouts_path.resolve(), failures_path.resolve()):
        raise CollectionError(f"--output {rollouts_path} would overwrite the inputs it collects on "
                              f"({materialized_path}): give the rollouts their own path, e.g. "
                              f"{materialized_path.parent / 'rollouts.jsonl'}")
    run_dir = rollouts_path.parent
    with run_directory_lock(run_dir, ROLLOUTS_STAGE):  # one writer per run directory
        manifest = read_manifest(run_dir)
        if resume:
            ensure_resume_is_safe(materialized_path, manifest.get(ROLLOUTS_STAGE),
                                  manifest.get(MATERIALIZED_INPUTS_STAGE))
        rows = _read_materialized(materialized_path)
        inputs = {"path": str(materialized_path), "digest": file_digest(materialized_path)}
        # the model URL and concurrency let a diagnosis tell an overloaded server from a failing one
        record = {"engine": "builtin", "model_url": settings.model_url, "concurrency": settings.concurrency,
                  "inputs": inputs, **(manifest_extra or {})}
        record_stage(run_dir, ROLLOUTS_STAGE, record | {"status": COLLECTING})
        torn_lines: list[TornLine] = []
        if resume:
            # A killed run's half-written row is not a row: cut it off, and report the repair.
            torn_lines = [torn for path in (rollouts_path, failures_path) if (torn := drop_torn_last_line(path))]
            done, given_up = _already_settled(rollouts_path, failures_path, settings.max_attempts)
        else:
            # A fresh run starts clean: stale rows from an earlier run would be counted as this run's.
            rollouts_path.unlink(missing_ok=True)
            failures_path.unlink(missing_ok=True)
            done, given_up = set(), set()
        prior_attempts: Counter[Key] = Counter()
        if resume and failures_path.exists():
            prior_attempts.update(_key(value) for _, value in iter_jsonl_dicts(failures_path))
        pending = [row for row in rows if _key(row) not in done and _key(row) not in given_up]

        headers = {"Authorization": f"Bearer {settings.api_key}"} if settings.api_key else None
        timeout = aiohttp.ClientTimeout(total=settings.request_timeout_s)
        connector = aiohttp.TCPConnector(limit=settings.concurrency)
        failed_keys: list[Key] = sorted(given_up)
        collected = 0
        # the closure reads `collected` and `failed_keys` as they grow
        watchdog = asyncio.ensure_future(_warn_while_silent(settings, lambda: collected + len(failed_keys)))
        try:
            async with aiohttp.ClientSession(timeout=timeout, connector=connector, headers=headers) as session:
                model_name = settings.model_name or await discover_model_name(session, settings)
                collector = _Collector(environment, settings, session, model_name)

                async def run_one(row: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any] | None]:
                    return row, await collector.run_row(row, prior_attempts[_key(row)], failures)

                with JsonlAppender(rollouts_path) as successes, JsonlAppender(failures_path) as failures:
                    def report() -> None:
                        if on_progress:
                            settled = len(done) + collected + len(failed_keys)
                            on_progress(CollectionProgress(len(rows), settled, len(failed_keys)))

                    report()
                    tasks = [asyncio.ensure_future(run_one(row)) for row in pending]
                    try:
                        for finished in asyncio.as_completed(tasks):
                            row, result = await finished
                            if result is None:
                                failed_keys.append(_key(row))
                            else:
                                successes.append(result)
                                collected += 1
                            report()
                    finally:
                        # interrupted (Ctrl-C, a cancelled run): stop every row before the files close, so none
                        # writes to a closed file or dies with an unretrieved exception
                        for task in tasks:
                            task.cancel()
                        await asyncio.gather(*tasks, return_exceptions=True)
        finally:
            watchdog.cancel()
        output_digest = file_digest(rollouts_path)
        record_stage(run_dir, ROLLOUTS_STAGE, record | {
            "status": COMPLETE, "model": model_name,
            "output": {"path": str(rollouts_path), "rows": len(done) + collected, "failed_keys": len(failed_keys),
                       "digest": output_digest},
        })
        return CollectionSummary(
            total=len(rows),
            resumed=len(done),
            collected=collected,
            failed_keys=sorted(failed_keys),
            elapsed_s=time.monotonic() - started,
            model_name=model_name,
            torn_lines_repaired=torn_lines,
            given_up_before=len(given_up),
            output_digest=output_digest,
        )
