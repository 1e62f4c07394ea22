"""Re-scoring through NeMo Gym's own resources server: `gym env start`, then its `/verify` on every stored answer.

What a Gym user does by hand, done for them, on a run the nemo_gym engine collected or on a folder Gym wrote:

1. `gym env start` for the environment's resources server with the engine's own settings (venv links, search
   dirs, Hydra overrides: `nemo_gym.gym_env_started`), from a scratch folder of the run directory, its log in
   `logs/gym_reverify_env_start.log`. No model server is needed: /verify never calls the policy, so the model
   URL is a loopback port nothing listens on, and Gym's wait for the model endpoint is off.
2. The resources server's URL comes from the head server's `/server_instances`.
3. Each row's request is what `gym eval reverify` sends: its materialized input row plus the stored `response`
   (and the rollout's `deliverables_dir` / `reference_ids`, verifier inputs some servers read), at most
   `concurrency` requests at a time. Gym's verdict (`reward`, `mask_sample`, `failure_kind`, `failure_reason`,
   then every field /verify adds to the request, such as `extracted_answer`) replaces the row's own fields
   where they stand (`rescored_row`); a /verify that fails (an HTTP error, no answer, no reward) gives Gym's
   masked `verifier_error` fields, as a failing verifier does in collection.
4. The new rollouts replace the old atomically (the previous kept as `rollouts.before_reverify.jsonl`); the
   manifest records the resources server that scored them, with a digest of the folder Gym ran it from.
5. Gym's servers are stopped on the way out, whatever happened (an error, Ctrl-C).
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import orjson

from gym_pipeline.core.fingerprint import file_digest, folder_digest_of
from gym_pipeline.core.formats import (
    MATERIALIZED_INPUTS_FILE,
    ROLLOUT_INDEX,
    ROLLOUTS_FILE,
    TASK_INDEX,
    JsonlFormatError,
    iter_jsonl_dicts,
    require_file,
)
from gym_pipeline.core.run_lock import run_directory_lock
from gym_pipeline.engines.builtin import verifier_error
from gym_pipeline.engines.nemo_gym import NemoGymError, gym_env_started, resolve_gym_executable
from gym_pipeline.engines.rescoring import (
    REVERIFY_STAGE,
    RescoringSummary,
    record_rescoring,
    refuse_task_folder_runs,
    replace_keeping_previous,
    rescored_row,
)
from gym_pipeline.host import free_loopback_port

REVERIFY_ENV_START_LOG = "gym_reverify_env_start.log"
VERDICT_FIELDS = ("reward", "mask_sample", "failure_kind", "failure_reason")
# Rollout fields that are verifier inputs, sent with the request as `gym eval reverify` does.
_ROLLOUT_VERIFIER_INPUTS = ("deliverables_dir", "reference_ids")
_NO_MODEL_NAME = "none-needed-to-verify"
_NO_MODEL_WAIT = "++model_endpoint_readiness_timeout_seconds=0"
_NOT_SERVER_CODE = {"__pycache__", ".venv", "tests", "data"}  # left out of a resources server's version
_JSON = {"Content-Type": "application/json"}


@dataclass(frozen=True)
class GymRescoringSettings:
    """How to run Gym for a re-scoring: the engine's settings (the sweep's `nemo_gym`) and the request limits."""

    gym_executable: str | os.PathLike | None = None
    link_venvs: bool = True
    search_dirs: Sequence[Path] = ()
    extra_overrides: Sequence[str] = ()
    startup_timeout_s: float = 900.0
    concurrency: int = 16
    request_timeout_s: float = 120.0


@dataclass
class _Row:
    """A rollouts line to re-score: its line number, the row, and the /verify request built for it."""

    line: int
    row: dict[str, Any]
    request: dict[str, Any]


def verify_request(input_row: dict[str, Any], rollout: dict[str, Any]) -> dict[str, Any]:
    """The /verify body for one stored answer, as `gym eval reverify` builds it: the materialized input row plus
    the rollout's `response` (and its verifier inputs)."""
    request = input_row | {"response": rollout["response"]}
    request.update((key, rollout[key]) for key in _ROLLOUT_VERIFIER_INPUTS if key in rollout)
    return request


def gym_verdict(request: dict[str, Any], answer: Any) -> dict[str, Any]:
    """Gym's verifier fields in a /verify answer: the four Gym defines, and every field it added to the request,
    in the answer's order. Raises ValueError when the answer holds no numeric reward."""
    reward = answer.get("reward") if isinstance(answer, dict) else None
    if isinstance(reward, bool) or not isinstance(reward, int | float):
        raise ValueError(f"/verify answered without a numeric reward: {str(answer)[:200]}")
    return {key: value for key, value in answer.items() if key in VERDICT_FIELDS or key not in request}


def resources_server_version(folder: Path) -> str:
    """A digest of the resources server's code and config (its tests, data, venv and caches left out)."""
    files = [path for path in folder.rglob("*")
             if path.is_file() and not _NOT_SERVER_CODE & set(path.relative_to(folder).parts)]
    return folder_digest_of(folder, {path: file_digest(path) for path in files})


def _rows_to_rescore(rollouts_path: Path, inputs_path: Path) -> tuple[list[bytes], dict[int, _Row], int]:
    """Every line of the rollouts (kept byte for byte unless re-scored), the rows with a response to re-score by
    line index, and how many rows the file has. A bad line is an error naming its file, line and field."""
    inputs: dict[tuple[int, int], dict[str, Any]] = {}
    for line, row in iter_jsonl_dicts(inputs_path):
        key = (row.get(TASK_INDEX), row.get(ROLLOUT_INDEX))
        if isinstance(row.get("task_input"), dict):
            raise JsonlFormatError(inputs_path, line, "task_input", "an environment-server task row: re-score it "
                                                                    "with `gym eval reverify`")
        if key in inputs:
            raise JsonlFormatError(inputs_path, line, TASK_INDEX, f"(task, rollout) {key} appears twice")
        inputs[key] = row
    lines = rollouts_path.read_bytes().splitlines(keepends=True)
    to_rescore: dict[int, _Row] = {}
    rows = 0
    for index, raw in enumerate(lines):
        if not raw.strip():
            continue
        try:
            row = orjson.loads(raw)
        except orjson.JSONDecodeError as error:
            raise JsonlFormatError(rollouts_path, index + 1, None, f"not valid JSON ({error})") from None
        rows += 1
        if not isinstance(row, dict) or not isinstance(row.get("response"), dict):
            continue  # nothing to re-score: kept as it is
        key = (row.get(TASK_INDEX), row.get(ROLLOUT_INDEX))
        if key not in inputs:
            raise JsonlFormatError(rollouts_path, index + 1, TASK_INDEX, f"no row {key} in {inputs_path.name}: "
                                                                         "cannot give /verify its request")
        to_rescore[index] = _Row(index + 1, row, verify_request(inputs[key], row))
    return lines, to_rescore, rows


def _resources_server_instance(instances: Any, name: str) -> dict[str, Any]:
    """The resources server `name` among the servers Gym's head server lists."""
    listed = instances if isinstance(instances, list) else []
    resources = [item for item in listed if isinstance(item, dict) and item.get("server_type") == "resources_servers"]
    named = [item for item in resources if item.get("process_name") == name] or resources
    if len(named) != 1 or not named[0].get("url"):
        raise NemoGymError(f"Gym's head server lists resources servers {[i.get('process_name') for i in resources]}"
                           f": cannot tell which one is {name!r}")
    return named[0]


async def _verify_everything(head_url: str, server_name: str, requests: list[dict[str, Any]], repeats: int,
                             settings: GymRescoringSettings) -> tuple[dict[str, Any], list[list[dict[str, Any]]]]:
    """The resources server's instance, and for each request its `repeats` verdicts."""
    slots = asyncio.Semaphore(settings.concurrency)
    timeout = aiohttp.ClientTimeout(total=settings.request_timeout_s)
    connector = aiohttp.TCPConnector(limit=settings.concurrency)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        async with session.get(f"{head_url}/server_instances") as listing:
            listing.raise_for_status()
            instance = _resources_server_instance(await listing.json(), server_name)
        url = instance["url"].rstrip("/") + "/verify"

        async def verify(request: dict[str, Any], body: bytes) -> dict[str, Any]:
            async with slots:
                try:
                    async with session.post(url, data=body, headers=_JSON) as answer:
                        raw = await answer.read()
                        if answer.status >= 400:
                            return verifier_error(f"/verify answered HTTP {answer.status}: "
                                                  f"{raw[:300].decode(errors='replace')}")
                    return gym_verdict(request, orjson.loads(raw))
                except (aiohttp.ClientError, TimeoutError, ValueError) as error:  # JSONDecodeError is a ValueError
                    return verifier_error(f"/verify failed: {type(error).__name__}: {error}")

        async def verify_repeatedly(request: dict[str, Any]) -> list[dict[str, Any]]:
            body = orjson.dumps(request)
            return list(await asyncio.gather(*(verify(request, body) for _ in range(repeats))))

        return instance, list(await asyncio.gather(*map(verify_repeatedly, requests)))


def rescore_run_with_gym(run_dir: Path, resources_server: str, settings: GymRescoringSettings, repeats: int = 1,
                         dagster_run_id: str | None = None) -> RescoringSummary:
    """Re-score every stored response of `run_dir` through Gym's resources server `resources_server`; returns what
    changed and what was flaky (the same summary as the built-in re-scoring). Raises NemoGymError when Gym does
    not start (its log is in `<run_dir>/logs/`)."""
    started = time.monotonic()
    run_dir = Path(run_dir).absolute()
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, got {repeats}")
    rollouts_path, inputs_path = run_dir / ROLLOUTS_FILE, run_dir / MATERIALIZED_INPUTS_FILE
    with run_directory_lock(run_dir, REVERIFY_STAGE, dagster_run_id=dagster_run_id):
        require_file(rollouts_path, "rollouts")
        require_file(inputs_path, "materialized inputs")
        refuse_task_folder_runs(rollouts_path)
        lines, to_rescore, rows = _rows_to_rescore(rollouts_path, inputs_path)
        gym = resolve_gym_executable(settings.gym_executable)
        logs = run_dir / "logs"
        logs.mkdir(exist_ok=True)
        with ExitStack() as stack:
            scratch = Path(stack.enter_context(tempfile.TemporaryDirectory(dir=run_dir, prefix=".reverify-gym-")))
            servers = stack.enter_context(gym_env_started(
                gym, resources_server, f"http://127.0.0.1:{free_loopback_port()}/v1", _NO_MODEL_NAME, scratch,
                logs / REVERIFY_ENV_START_LOG, free_loopback_port(), link_venvs=settings.link_venvs,
                search_dirs=settings.search_dirs, extra_overrides=[*settings.extra_overrides, _NO_MODEL_WAIT],
                startup_timeout_s=settings.startup_timeout_s))
            instance, verdicts = asyncio.run(_verify_everything(
                servers.head_url, resources_server, [item.request for item in to_rescore.values()], repeats, settings))
        if servers.leftovers:
            raise NemoGymError(f"processes left running after Gym's teardown: {sorted(set(servers.leftovers))}")
        server_dir = Path(instance.get("dir_path") or "")
        verifier = {"name": f"{resources_server} (NeMo Gym resources server)",
                    "version": resources_server_version(server_dir) if server_dir.is_dir() else "unknown",
                    "path": str(server_dir)}

        summary = RescoringSummary(rows=rows, rescored=len(to_rescore), repeats=repeats, verifier=verifier)
        changed_tasks: set[int] = set()
        task_rollouts: Counter[int] = Counter()
        for (index, item), repeated in zip(to_rescore.items(), verdicts, strict=True):
            new = rescored_row(item.row, repeated[0])
            lines[index] = orjson.dumps(new, option=orjson.OPT_APPEND_NEWLINE)
            task = item.row.get(TASK_INDEX)
            task_rollouts[task] += 1
            if item.row.get("reward") != new["reward"] or item.row.get("mask_sample") != new.get("mask_sample"):
                summary.changed += 1
                changed_tasks.add(task)
            rewards = [verdict["reward"] for verdict in repeated]
            if len(set(rewards)) > 1:
                summary.flaky.append({TASK_INDEX: task, ROLLOUT_INDEX: item.row.get(ROLLOUT_INDEX), "rewards": rewards})
        summary.changed_tasks = sorted(changed_tasks)

        with tempfile.TemporaryDirectory(dir=run_dir, prefix=".reverify-") as scratch:
            part = Path(scratch) / "rescored.jsonl"
            part.write_bytes(b"".join(lines))
            replace_keeping_previous(rollouts_path, [part])
        summary.elapsed_s = time.monotonic() - started
        record_rescoring(run_dir, rollouts_path, summary, task_rollouts)
        return summary
