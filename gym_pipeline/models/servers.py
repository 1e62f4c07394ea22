"""Model servers per checkpoint: the simulated policy in its own process, or an existing endpoint.

`serve_checkpoint` is a context manager: it yields an `Endpoint` once the server
answers `/v1/models`, and stops whatever it started on the way out.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import orjson

from gym_pipeline.config import ModelServerConfig


class ModelServerError(RuntimeError):
    pass


@dataclass
class Endpoint:
    url: str  # base URL ending in /v1
    model_name: str
    checkpoint_digest: str | None = None
    pid: int | None = None
    api_key: str | None = field(default=None, repr=False)


def _list_models(url: str, api_key: str | None, timeout_s: float = 5.0) -> dict:
    request = urllib.request.Request(url.rstrip("/") + "/models")
    if api_key:
        request.add_header("Authorization", f"Bearer {api_key}")
    with urllib.request.urlopen(request, timeout=timeout_s) as answer:  # noqa: S310 (loopback or configured URL)
        return orjson.loads(answer.read())


def _log_tail(log_path: Path, lines: int = 20) -> str:
    if not log_path.exists():
        return "(no log)"
    return "\n".join(log_path.read_text(errors="replace").splitlines()[-lines:])


def stop_process_group(process: subprocess.Popen, grace_s: float = 10.0) -> None:
    """SIGTERM the process group, wait out the grace period, then SIGKILL."""
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    except ProcessLookupError:
        pass


@contextmanager
def _simulated_policy(settings: ModelServerConfig, checkpoint_dir: Path, log_path: Path) -> Iterator[Endpoint]:
    if not checkpoint_dir.is_dir():
        raise ModelServerError(f"{checkpoint_dir}: checkpoint folder not found")
    log_path.parent.mkdir(parents=True, exist_ok=True)
    ready_file = log_path.with_suffix(".url")
    ready_file.unlink(missing_ok=True)
    command = [
        sys.executable, "-m", "gym_pipeline.cli", "serve-policy",
        "--checkpoint", str(checkpoint_dir), "--port", "0",
        "--ready-file", str(ready_file), "--latency-ms", str(settings.latency_ms),
    ]
    with log_path.open("ab") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + settings.startup_timeout_s
        while not ready_file.exists():
            if process.poll() is not None:
                raise ModelServerError(
                    f"simulated policy exited with code {process.returncode} before it was ready; "
                    f"log {log_path}:\n{_log_tail(log_path)}"
                )
            if time.monotonic() > deadline:
                raise ModelServerError(
                    f"simulated policy not ready after {settings.startup_timeout_s:.0f}s; log {log_path}:\n"
                    f"{_log_tail(log_path)}"
                )
            time.sleep(0.05)
        url = ready_file.read_text().strip()
        model = _list_models(url, None)["data"][0]
        yield Endpoint(url=url, model_name=model["id"], checkpoint_digest=model.get("checkpoint_digest"),
                       pid=process.pid)
    finally:
        stop_process_group(process)
        ready_file.unlink(missing_ok=True)


def _endpoint_url_and_key(settings: ModelServerConfig, checkpoint: str) -> tuple[str, str | None]:
    if not settings.url_template:
        raise ModelServerError("model_server.kind 'endpoint' needs model_server.url_template")
    api_key = os.environ.get(settings.api_key_env) if settings.api_key_env else None
    return settings.url_template.format(checkpoint=checkpoint), api_key


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
    deadline = time.monotonic() + settings.startup_timeout_s
    while True:
        try:
            models = _list_models(url, api_key)["data"]
            break
        except (urllib.error.URLError, OSError, ValueError, KeyError) as error:
            if time.monotonic() > deadline:
                raise ModelServerError(f"model endpoint {url}/models did not answer: {error}") from None
            time.sleep(1.0)
    if not models:
        raise ModelServerError(f"model endpoint {url} lists no model")
    yield Endpoint(url=url, model_name=settings.model_name or models[0]["id"], api_key=api_key)


@contextmanager
def serve_checkpoint(
    settings: ModelServerConfig, checkpoint: str, checkpoint_dir: Path, log_path: Path
) -> Iterator[Endpoint]:
    """An answering endpoint for one checkpoint, for the duration of the `with` block."""
    if settings.kind == "simulated":
        with _simulated_policy(settings, checkpoint_dir, log_path) as endpoint:
            yield endpoint
    else:
        with _existing_endpoint(settings, checkpoint) as endpoint:
            yield endpoint
