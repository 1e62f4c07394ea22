"""Model servers per checkpoint: the simulated policy, `vllm serve`, or an existing endpoint.

`serve_checkpoint` is a context manager: it yields an `Endpoint` once the server
answers `/v1/models`, and stops whatever it started on the way out. A server we start (the simulated
policy, vLLM) runs through a launcher: a local process unless told otherwise, a Docker container or
a Slurm job.
"""

from __future__ import annotations

import base64
import http.client
import shutil
import sys
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

import orjson

from gym_pipeline.config import ModelServerConfig, api_key_from_env, check_safe_name
from gym_pipeline.core.fingerprint import folder_digest
from gym_pipeline.core.redaction import redact
from gym_pipeline.host import LOOPBACK, NotReadyInTime, free_loopback_port, wait_until_ready
from gym_pipeline.launchers.settings import LauncherSettings, LocalLauncherSettings

SERVER_STAGE = "model_server"  # the launcher's stage name: logs/model_server.log, logs/launcher_model_server.json
VLLM_API_KEY_VAR = "VLLM_API_KEY"  # vLLM reads its key from here when --api-key is not given
_PROBE_TIMEOUT_S = 5.0
_SERVER_LABELS = {"simulated": "simulated policy", "vllm": "vLLM server"}


class ModelServerError(RuntimeError):
    pass


@dataclass
class Endpoint:
    url: str  # base URL ending in /v1
    model_name: str
    checkpoint_digest: str | None = None
    pid: int | None = None
    api_key: str | None = field(default=None, repr=False)
    # Where a server started through a launcher runs: `launcher` and `pid`, `container_id` or `slurm_job_id`.
    launcher: dict = field(default_factory=dict)


def _list_models(url: str, api_key: str | None, timeout_s: float = 5.0) -> dict:
    # urllib does not read credentials from a URL (http://user:pass@host): send them as Basic auth,
    # as aiohttp does for the collector's requests.
    parts = urlsplit(url.rstrip("/") + "/models")
    request = urllib.request.Request(urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2])))
    if parts.username is not None:
        credentials = f"{unquote(parts.username)}:{unquote(parts.password or '')}".encode()
        request.add_header("Authorization", f"Basic {base64.b64encode(credentials).decode()}")
    if api_key:
        request.add_header("Authorization", f"Bearer {api_key}")
    with urllib.request.urlopen(request, timeout=timeout_s) as answer:  # noqa: S310 (loopback or configured URL)
        return orjson.loads(answer.read())


def _endpoint_url_and_key(settings: ModelServerConfig, checkpoint: str) -> tuple[str, str | None]:
    if not settings.url_template:
        raise ModelServerError("model_server.kind 'endpoint' needs model_server.url_template")
    api_key = api_key_from_env(settings.api_key_env, "model_server.api_key_env")
    return settings.url_template.format(checkpoint=check_safe_name(checkpoint, "checkpoint name")), api_key


def endpoint_identity(settings: ModelServerConfig, checkpoint: str) -> dict:
    """What identifies the model an endpoint serves: its id, root and revision as `/models` lists them."""
    url, api_key = _endpoint_url_and_key(settings, checkpoint)
    models = _list_models(url, api_key)["data"]
    wanted = settings.model_name or models[0]["id"]
    model = next((m for m in models if m["id"] == wanted), {"id": wanted})
    return {"url": url, **{key: model.get(key) for key in ("id", "root", "parent", "revision", "checkpoint_digest")}}


@contextmanager
def _existing_endpoint(settings: ModelServerConfig, checkpoint: str) -> Iterator[Endpoint]:
    url, api_key = _endpoint_url_and_key(settings, checkpoint)
    last_error: list[Exception] = []

    def answer() -> dict | None:
        try:
            return {"models": _list_models(url, api_key)["data"]}
        except (urllib.error.URLError, OSError, ValueError, KeyError) as error:
            last_error[:] = [error]
            return None

    try:
        models = wait_until_ready(answer, settings.startup_timeout_s, 1.0)["models"]
    except NotReadyInTime:
        raise ModelServerError(f"model endpoint {redact(url)}/models did not answer: {last_error[0]}") from None
    if not models:
        raise ModelServerError(f"model endpoint {redact(url)} lists no model")
    yield Endpoint(url=url, model_name=settings.model_name or models[0]["id"], api_key=api_key)


class _ReadinessProbe:
    """`ready()` for `Launcher.serve`: GET /v1/models lists a model. Keeps that list, or why it did not."""

    def __init__(self, url: str, api_key: str | None):
        self.url = url
        self.api_key = api_key
        self.models: list[dict] = []
        self.last_error = "no answer yet"

    def __call__(self) -> bool:
        try:
            self.models = _list_models(self.url, self.api_key, timeout_s=_PROBE_TIMEOUT_S)["data"]
        except (urllib.error.URLError, OSError, http.client.HTTPException, ValueError, KeyError, TypeError) as error:
            self.last_error = f"{type(error).__name__}: {error}"  # e.g. 503 while a vLLM loads, 401 on a wrong key
            return False
        if not self.models:
            self.last_error = "it lists no model"
        return bool(self.models)


def _server_command(settings: ModelServerConfig, checkpoint: str, checkpoint_dir: Path, port: int) -> list[str]:
    if settings.kind == "simulated":
        return [sys.executable, "-m", "gym_pipeline.cli", "serve-policy", "--checkpoint", str(checkpoint_dir),
                "--host", LOOPBACK, "--port", str(port), "--latency-ms", str(settings.latency_ms)]
    values = {"checkpoint_dir": str(checkpoint_dir), "checkpoint": checkpoint, "port": str(port)}
    return [argument.format(**values) for argument in settings.command] + list(settings.extra_args)


def _server_api_key(settings: ModelServerConfig) -> str | None:
    if settings.kind != "vllm":
        return None  # the simulated policy checks no key
    return api_key_from_env(settings.api_key_env, "model_server.api_key_env")


@contextmanager
def _launched_server(
    settings: ModelServerConfig,
    checkpoint: str,
    checkpoint_dir: Path,
    run_dir: Path,
    launcher_settings: LauncherSettings,
    digest_of_folder: Callable[[Path], str],
) -> Iterator[Endpoint]:
    """The simulated policy or vLLM started through a launcher, on a free loopback port of this host.

    The URL's host is 127.0.0.1 for every launcher: a local process, a container on the host's network,
    and a job of this single-node Slurm all listen on this host's loopback. A job on another node would
    need the server to listen on an address reachable from here and the readiness probe to know the
    node before the job is ready (`Launcher.serve` tells it only afterwards, in `slurm_nodes`); not
    supported yet.
    """
    # Imported here: the launchers (the Docker SDK among them) are heavy for the CLI's other commands.
    from gym_pipeline.launchers.base import (
        LauncherError,
        StageFailedError,
        StageLaunch,
        StageNotReadyError,
        describe_end,
    )
    from gym_pipeline.launchers.factory import launcher_from_settings
    from gym_pipeline.launchers.state import launcher_metadata

    label = _SERVER_LABELS[settings.kind]
    check_safe_name(checkpoint, "checkpoint name")
    if not checkpoint_dir.is_dir():
        raise ModelServerError(f"{checkpoint_dir}: checkpoint folder not found")
    if launcher_settings.kind == "docker" and launcher_settings.network != "host":
        raise ModelServerError(f"a {label} in a container is reachable only on the host's network: set "
                               "launchers.model_server.network to host")
    port = free_loopback_port()
    argv = _server_command(settings, checkpoint, checkpoint_dir, port)
    if launcher_settings.kind == "local" and shutil.which(argv[0]) is None:
        raise ModelServerError(f"{label} for {checkpoint}: {argv[0]!r} is not an executable on PATH; install it "
                               "(vLLM: `pip install vllm`) or set model_server.command")
    api_key = _server_api_key(settings)
    launch = StageLaunch(SERVER_STAGE, argv, run_dir, read_only_paths=[checkpoint_dir],
                         env={VLLM_API_KEY_VAR: api_key} if api_key else {})
    url = f"http://{LOOPBACK}:{port}/v1"
    probe = _ReadinessProbe(url, api_key)
    launcher = launcher_from_settings(launcher_settings)
    where = f"checkpoint {checkpoint}, {launcher.kind} launcher"
    with ExitStack() as running:
        try:
            state = running.enter_context(launcher.serve(launch, ready=probe, timeout_s=settings.startup_timeout_s))
        except StageFailedError as error:
            log = f"log {launch.log_path}:\n{error.log_tail or '(empty)'}"
            if isinstance(error, StageNotReadyError):
                raise ModelServerError(f"{label} not ready after {settings.startup_timeout_s:g}s ({where}; "
                                       f"{url}/models: {probe.last_error}); stopped it; {log}") from error
            code = error.state.exit_code
            headline = f"{label} exited with code {code}" if code is not None else f"{label} ended"
            # 127: the shell of a Slurm job or the container's init found no such program.
            hint = f"; is {argv[0]!r} installed where the server runs?" if code == 127 else ""
            raise ModelServerError(
                f"{headline} before it was ready ({where}: {describe_end(error.state)}){hint}; {log}"
            ) from error
        except LauncherError as error:
            raise ModelServerError(f"{label} could not be started ({where}): {error}") from error
        model = next((m for m in probe.models if m.get("id") == settings.model_name), probe.models[0])
        yield Endpoint(
            url=url, model_name=settings.model_name or model["id"],
            # vLLM does not list a digest: the folder's, as the simulated policy computes it.
            checkpoint_digest=model.get("checkpoint_digest") or digest_of_folder(checkpoint_dir),
            pid=state.pid, api_key=api_key, launcher=launcher_metadata(state),
        )


@contextmanager
def serve_checkpoint(
    settings: ModelServerConfig,
    checkpoint: str,
    checkpoint_dir: Path,
    run_dir: Path,
    launcher_settings: LauncherSettings | None = None,
    digest_of_folder: Callable[[Path], str] = folder_digest,
) -> Iterator[Endpoint]:
    """An answering endpoint for one checkpoint, for the duration of the `with` block.

    `launcher_settings` say where a server we start runs (the simulated or vllm kind; an existing
    endpoint is not started and ignores them); without them, a local process. `digest_of_folder` identifies
    a checkpoint whose server lists no digest (vLLM): a `DigestCache`'s hashes only files that changed. The launcher writes the
    server's log to `<run_dir>/logs/model_server.log` and its record to `logs/launcher_model_server.json`.
    """
    if settings.kind == "endpoint":
        with _existing_endpoint(settings, checkpoint) as endpoint:
            yield endpoint
    else:
        with _launched_server(settings, checkpoint, checkpoint_dir, Path(run_dir),
                              launcher_settings or LocalLauncherSettings(), digest_of_folder) as endpoint:
            yield endpoint
