"""The NeMo Gym engine: the real `gym env start` + `gym eval run --no-serve` on our materialized inputs.

One collection is one short-lived Gym deployment:

1. `gym env start --resources-server ENV --model-type vllm_model --model NAME --model-url URL` in its own
   session (process group), with its own Gym head-server port (`++head_server.port`) and its own Ray temp
   folder (`RAY_TMPDIR`), so runs side by side never share a head server or a Ray session. The servers run
   from the CLI's own venv: every server folder gets a `.venv` symlink to it (under `uv_venv_dir`) and
   `++skip_venv_if_present=true`, so Gym builds no per-server venvs (which needs Python >= 3.13.14 and
   network, see ../shared/docs/nemo_gym.md). Output: `<run_dir>/logs/gym_env_start.log`.
2. Once it prints `All N / N servers ready`, `gym eval run --no-serve --input <our materialized inputs>
   --output <run_dir>/nemo_gym/rollouts.jsonl ++route_failures_to_sidecar=true` collects against it.
   Output: `<run_dir>/logs/gym_eval_run.log`. Gym's own files (its re-materialized inputs, aggregate
   metrics, quality summary, verdicts) stay in `<run_dir>/nemo_gym/`, so it never overwrites our
   `rollouts_materialized_inputs.jsonl`.
3. Keys. Gym 0.7.0 keeps an input row's `_ng_task_index` but renumbers `_ng_rollout_index` per task from 0
   in file order (rollout_collection.py, "Resolve rollout index"). Gym's materialized file is line for line
   our input, so each (task, Gym's rollout) maps back to (task, our rollout); `rollouts.jsonl` and
   `rollouts_failures.jsonl` are written to the run directory with our keys.
4. Teardown, always: SIGINT to each started process group, a grace period, then SIGKILL to every process
   still in the session (Ray's workers have process groups of their own but stay in the session), until
   none is left; the Ray temp folder is removed.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import orjson

from gym_pipeline.core.fingerprint import file_digest
from gym_pipeline.core.formats import ROLLOUT_INDEX, TASK_INDEX, atomic_file
from gym_pipeline.core.manifest import COLLECTING, COMPLETE, ROLLOUTS_STAGE, record_stage
from gym_pipeline.core.run_lock import run_directory_lock
from gym_pipeline.engines.builtin import failures_path_for
from gym_pipeline.environments import Environment
from gym_pipeline.host import (
    EndedBeforeReady,
    NotReadyInTime,
    free_loopback_port,
    read_log_tail,
    stop_process_tree,
    wait_until_ready,
)

Key = tuple[int, int]
ENGINE = "nemo_gym"
ENV_VAR = "GYM_PIPELINE_NEMO_GYM"  # the `gym` executable scripts/install-nemo-gym.sh prints
SERVER_KINDS = ("resources_servers", "responses_api_agents", "environment_servers", "responses_api_models")
STAGING_DIR = "nemo_gym"
ENV_START_LOG, EVAL_RUN_LOG = "gym_env_start.log", "gym_eval_run.log"
_READY = re.compile(rb"All (\d+) / (\d+) servers ready")
_KILL_WAIT_S = 15.0  # after SIGKILL, how long a session (Ray's daemons included) may take to vanish
_API_KEY_VAR = "GYM_PIPELINE_NEMO_GYM_MODEL_API_KEY"  # read by Gym through OmegaConf's oc.env, kept off argv


class NemoGymError(RuntimeError):
    """Gym did not start, did not collect, or its output could not be mapped back to our keys."""


@dataclass
class NemoGymSummary:
    total: int  # materialized rows given to Gym
    collected: int  # rows in rollouts.jsonl
    failed_keys: list[Key]  # keys with a failure row and no success
    failure_rows: int  # rows in rollouts_failures.jsonl (one per failed attempt)
    model_name: str
    servers_ready: str  # "4 / 4"
    head_port: int
    env_start_s: float  # `gym env start` until all servers answered
    eval_s: float
    teardown_s: float
    elapsed_s: float
    logs: dict[str, str] = field(default_factory=dict)
    eval_exit_code: int = 0  # `gym eval run` exits 1 when no rollout produced a result (all in the sidecar)
    output_digest: str = ""  # of our rollouts file as the run left it (what the manifest records)

    @property
    def failed(self) -> int:
        return len(self.failed_keys)


# --- logs ---------------------------------------------------------------------------------------------


def _tail(path: Path) -> str:
    return read_log_tail(path, lines=40) or "(no log)"


# --- the Gym install ----------------------------------------------------------------------------------


def resolve_gym_executable(gym_executable: str | os.PathLike | None = None) -> Path:
    """The `gym` program: the argument, else $GYM_PIPELINE_NEMO_GYM, else `gym` on PATH."""
    name = str(gym_executable or os.environ.get(ENV_VAR) or "gym")
    found = shutil.which(name)
    if not found:
        raise NemoGymError(f"NeMo Gym's `gym` program not found ({name!r}); run scripts/install-nemo-gym.sh "
                           f"and export {ENV_VAR}=<the path it prints>")
    return Path(found).absolute()


def gym_venv_of(gym_executable: Path) -> Path:
    """The venv holding `gym` (bin/gym -> the folder with pyvenv.cfg)."""
    venv = gym_executable.parent.parent
    if not (venv / "pyvenv.cfg").exists() or not (venv / "bin" / "python").exists():
        raise NemoGymError(f"{gym_executable} is not inside a venv (no {venv / 'pyvenv.cfg'}); install NeMo Gym "
                           "with scripts/install-nemo-gym.sh")
    return venv


def link_server_venvs(gym_venv: Path, into: Path, search_dirs: Sequence[Path] = ()) -> Path:
    """`into/<kind>/<server>/.venv -> gym_venv` for every server Gym ships and every server under `search_dirs`
    (a user's own, found by Gym's `--search-dir`); returns `into` (for uv_venv_dir)."""
    site_packages = sorted(gym_venv.glob("lib/python3*/site-packages"))
    if not site_packages:
        raise NemoGymError(f"no site-packages in {gym_venv}")
    for root in [site_packages[0], *search_dirs]:
        for kind in SERVER_KINDS:
            for server in sorted((Path(root) / kind).glob("*/")):
                if server.name.startswith(("_", ".")):
                    continue
                link = into / kind / server.name / ".venv"
                if link.is_symlink() or link.exists():
                    continue
                link.parent.mkdir(parents=True, exist_ok=True)
                link.symlink_to(gym_venv, target_is_directory=True)
    return into


# --- keys ---------------------------------------------------------------------------------------------


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]


def key_map(ours: list[dict[str, Any]], gyms: list[dict[str, Any]]) -> dict[Key, Key]:
    """(task, Gym's rollout index) -> (task, our rollout index), matching the materialized files line by line."""
    if len(ours) != len(gyms):
        raise NemoGymError(f"Gym materialized {len(gyms)} rows from our {len(ours)}: cannot map its keys back")
    mapping: dict[Key, Key] = {}
    for line, (our, gym) in enumerate(zip(ours, gyms, strict=True), 1):
        if our[TASK_INDEX] != gym[TASK_INDEX]:
            raise NemoGymError(f"line {line}: Gym's task index {gym[TASK_INDEX]} is not ours ({our[TASK_INDEX]})")
        gym_key = (gym[TASK_INDEX], gym[ROLLOUT_INDEX])
        if gym_key in mapping:
            raise NemoGymError(f"line {line}: Gym's key {gym_key} appears twice")
        mapping[gym_key] = (our[TASK_INDEX], our[ROLLOUT_INDEX])
    return mapping


def _rekey_into(source: Path, target: Path, mapping: dict[Key, Key]) -> list[dict[str, Any]]:
    rows = _read_jsonl(source)
    for row in rows:
        gym_key = (row.get(TASK_INDEX), row.get(ROLLOUT_INDEX))
        if gym_key not in mapping:
            raise NemoGymError(f"{source}: row with key {gym_key} that Gym never materialized")
        row[TASK_INDEX], row[ROLLOUT_INDEX] = mapping[gym_key]
    with atomic_file(target) as partial:
        partial.write_bytes(b"".join(orjson.dumps(row) + b"\n" for row in rows))
    return rows


# --- the engine ---------------------------------------------------------------------------------------


def _start(command: Sequence[str], log: IO[bytes], cwd: Path, env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen(list(command), stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                            cwd=cwd, env=env, start_new_session=True)


def _wait_ready(process: subprocess.Popen, log_path: Path, timeout_s: float) -> str:
    def servers_ready() -> re.Match[bytes] | None:
        return _READY.search(log_path.read_bytes()) if log_path.exists() else None

    try:
        match = wait_until_ready(servers_ready, timeout_s, 0.5, ended=lambda: process.poll() is not None)
    except EndedBeforeReady:
        raise NemoGymError(f"`gym env start` exited ({process.returncode}) before its servers were ready; "
                           f"last lines of {log_path}:\n{_tail(log_path)}") from None
    except NotReadyInTime:
        raise NemoGymError(f"`gym env start` not ready after {timeout_s:.0f}s; last lines of {log_path}:\n"
                           f"{_tail(log_path)}") from None
    return f"{int(match[1])} / {int(match[2])}"


@dataclass
class GymDeployment:
    """A running `gym env start`: what Gym's other commands need to reach it, and how its teardown went."""

    gym: Path
    env: dict[str, str]  # the environment Gym's commands run with
    arguments: list[str]  # search dirs and Hydra overrides, for every command against this deployment
    head_port: int
    ready: str = ""  # "4 / 4"
    leftovers: list[int] = field(default_factory=list)  # processes still alive after teardown
    teardown_s: float = 0.0

    @property
    def head_url(self) -> str:
        return f"http://127.0.0.1:{self.head_port}"


@contextmanager
def gym_env_started(gym: Path, resources_server: str, model_url: str, model_name: str, staging: Path,
                    log_path: Path, head_port: int, *, api_key: str | None = None, model_type: str = "vllm_model",
                    link_venvs: bool = True, search_dirs: Sequence[Path] = (), extra_overrides: Sequence[str] = (),
                    startup_timeout_s: float = 900.0, grace_s: float = 20.0) -> Iterator[GymDeployment]:
    """`gym env start` for `resources_server` (run from `staging`, logging to `log_path`), yielded once all its
    servers are ready; on leaving, every process it started is stopped and its Ray folder removed."""
    with ExitStack() as stack:
        # Short, private Ray folder: Ray's socket paths must stay under the AF_UNIX length limit.
        ray_tmp = Path(tempfile.mkdtemp(prefix="gp-ray-"))
        stack.callback(shutil.rmtree, ray_tmp, True)
        env = {**os.environ, "RAY_TMPDIR": str(ray_tmp), "RAY_USAGE_STATS_ENABLED": "0", "PYTHONUNBUFFERED": "1",
               "PATH": f"{gym.parent}{os.pathsep}{os.environ.get('PATH', '')}"}
        arguments = [argument for folder in search_dirs for argument in ("--search-dir", str(folder))]
        arguments += [f"++head_server.port={head_port}", *extra_overrides]
        if link_venvs:
            venvs = link_server_venvs(gym_venv_of(gym), staging / "server_venvs", search_dirs)
            arguments += [f"++uv_venv_dir={venvs}", "++skip_venv_if_present=true"]
        key_argument = "dummy"
        if api_key:
            env[_API_KEY_VAR] = api_key
            key_argument = "${oc.env:" + _API_KEY_VAR + "}"
        deployment = GymDeployment(gym, env, arguments, head_port)

        command = [str(gym), "env", "start", "--resources-server", resources_server, "--model-type", model_type,
                   "--model", model_name, "--model-url", model_url, "--model-api-key", key_argument, *arguments]
        log_file = stack.enter_context(log_path.open("wb"))
        process = _start(command, log_file, staging, env)

        def stop() -> None:
            began = time.monotonic()
            deployment.leftovers.extend(stop_process_tree(process, signal.SIGINT, grace_s, _KILL_WAIT_S))
            deployment.teardown_s = time.monotonic() - began

        stack.callback(stop)
        deployment.ready = _wait_ready(process, log_path, startup_timeout_s)
        yield deployment


def collect_with_nemo_gym(
    materialized_path: Path,
    rollouts_path: Path,
    environment: Environment | str,
    model_url: str,
    model_name: str,
    gym_executable: str | os.PathLike | None = None,
    *,
    api_key: str | None = None,
    concurrency: int = 16,
    resources_server: str | None = None,
    model_type: str = "vllm_model",
    link_venvs: bool = True,
    search_dirs: Sequence[Path] = (),
    extra_overrides: Sequence[str] = (),
    startup_timeout_s: float = 900.0,
    eval_timeout_s: float | None = None,
    grace_s: float = 20.0,
    on_ready: Callable[[str], None] | None = None,
    manifest_extra: dict[str, Any] | None = None,
) -> NemoGymSummary:
    """Collect `materialized_path` with the real NeMo Gym against `model_url`; write `rollouts_path` + sidecar.

    `environment` (or `resources_server`) names Gym's resources server (`string_match`, `mcqa`). The rows'
    `agent_ref` picks Gym's agent (`string_match_simple_agent`). `link_venvs=False` lets Gym build its own
    server venvs (a Python >= 3.13.14 machine with network). `search_dirs` are Gym's `--search-dir` folders
    (a user's own resources servers). `extra_overrides` are Hydra overrides
    (`++key=value`) passed to both commands. Raises NemoGymError when Gym does not start or collects nothing
    (the logs are in `<run_dir>/logs/`); a run whose every rollout failed returns normally, with the failures
    in the sidecar and Gym's exit code in `eval_exit_code`. Nothing Gym started outlives the call.
    """
    started = time.monotonic()
    materialized_path, rollouts_path = Path(materialized_path).absolute(), Path(rollouts_path).absolute()
    run_dir = rollouts_path.parent
    failures_path = failures_path_for(rollouts_path)
    gym = resolve_gym_executable(gym_executable)
    server = resources_server or (environment if isinstance(environment, str) else environment.name)
    logs_dir, staging = run_dir / "logs", run_dir / STAGING_DIR
    env_log, eval_log = logs_dir / ENV_START_LOG, logs_dir / EVAL_RUN_LOG
    head_port = free_loopback_port()

    with run_directory_lock(run_dir, ROLLOUTS_STAGE), ExitStack() as stack:
        ours = _read_jsonl(materialized_path)
        if not ours:
            raise NemoGymError(f"{materialized_path} has no rows")
        record = {"engine": ENGINE, "gym": str(gym), "resources_server": server, "head_port": head_port,
                  "concurrency": concurrency,
                  "inputs": {"path": str(materialized_path), "digest": file_digest(materialized_path)},
                  **(manifest_extra or {})}
        record_stage(run_dir, ROLLOUTS_STAGE, record | {"status": COLLECTING})
        logs_dir.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        rollouts_path.unlink(missing_ok=True)
        failures_path.unlink(missing_ok=True)

        servers = stack.enter_context(gym_env_started(
            gym, server, model_url, model_name, staging, env_log, head_port, api_key=api_key, model_type=model_type,
            link_venvs=link_venvs, search_dirs=search_dirs, extra_overrides=extra_overrides,
            startup_timeout_s=startup_timeout_s, grace_s=grace_s))
        env_start_s = time.monotonic() - started
        if on_ready:
            on_ready(servers.ready)

        eval_began = time.monotonic()
        gym_rollouts = staging / "rollouts.jsonl"
        eval_command = [str(gym), "eval", "run", "--no-serve", "--input", str(materialized_path),
                        "--output", str(gym_rollouts), "--concurrency", str(concurrency),
                        "++route_failures_to_sidecar=true", *servers.arguments]
        with eval_log.open("wb") as eval_log_file:
            eval_process = _start(eval_command, eval_log_file, staging, servers.env)
            try:
                eval_process.wait(timeout=eval_timeout_s)
            except subprocess.TimeoutExpired:
                raise NemoGymError(f"`gym eval run` still running after {eval_timeout_s}s; last lines of "
                                   f"{eval_log}:\n{_tail(eval_log)}") from None
            finally:
                servers.leftovers.extend(stop_process_tree(eval_process, signal.SIGINT, grace_s, _KILL_WAIT_S))
        eval_s = time.monotonic() - eval_began
        gym_materialized = staging / "rollouts_materialized_inputs.jsonl"
        gym_failures = failures_path_for(gym_rollouts)
        if eval_process.returncode != 0 and not (gym_materialized.exists() and (
                _read_jsonl(gym_rollouts) or _read_jsonl(gym_failures))):
            raise NemoGymError(f"`gym eval run` exited {eval_process.returncode} without collecting; last lines "
                               f"of {eval_log}:\n{_tail(eval_log)}")
        # A non-zero exit with rows written is Gym's "no rollout produced a result": the sidecar says why.
        mapping = key_map(ours, _read_jsonl(gym_materialized))
        successes = _rekey_into(gym_rollouts, rollouts_path, mapping)
        failures = _rekey_into(gym_failures, failures_path, mapping)
        done = {(row[TASK_INDEX], row[ROLLOUT_INDEX]) for row in successes}
        failed_keys = sorted({(row[TASK_INDEX], row[ROLLOUT_INDEX]) for row in failures} - done)
        stack.close()  # teardown now, so the summary and the manifest can say how it went

        if servers.leftovers:
            raise NemoGymError(f"processes left running after teardown: {sorted(set(servers.leftovers))}")
        summary = NemoGymSummary(
            total=len(ours), collected=len(successes), failed_keys=failed_keys, failure_rows=len(failures),
            model_name=model_name, servers_ready=servers.ready, head_port=head_port, env_start_s=env_start_s,
            eval_s=eval_s, teardown_s=servers.teardown_s, elapsed_s=time.monotonic() - started,
            logs={"env_start": str(env_log), "eval_run": str(eval_log)}, eval_exit_code=eval_process.returncode,
            output_digest=file_digest(rollouts_path),
        )
        record_stage(run_dir, ROLLOUTS_STAGE, record | {
            "status": COMPLETE, "model": model_name, "servers_ready": servers.ready,
            "eval_exit_code": eval_process.returncode,
            "output": {"path": str(rollouts_path), "rows": len(successes), "failed_keys": len(failed_keys),
                       "digest": summary.output_digest},
            "timings_s": {"env_start": round(env_start_s, 1), "eval": round(eval_s, 1),
                          "teardown": round(servers.teardown_s, 1)},
        })
    return summary
