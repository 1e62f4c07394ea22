"""A task's sandbox on the Docker engine, through the Docker SDK (the launchers' client).

Harbor itself needs Python >= 3.12 and drives Docker through Compose; this project runs on 3.11, so a sandbox
is one container made here with the same rules: the image is built from `environment/` (cached under a tag
made of the folder's digest, built again when the image it is FROM was rebuilt since, built with no network and
never pulled, so builds work offline from images the engine has), the container gets the task's `cpus` and `memory_mb`, and no network unless the task allows the
internet and the host does too (then the host's network: the engine runs without a bridge, see
docs/real_components). Commands run through `timeout` inside the container, so a timeout holds even when the
engine's exec call has no deadline of its own.
"""

from __future__ import annotations

import io
import re
import tarfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import docker
import requests
import urllib3
from docker.credentials import StoreError
from docker.errors import APIError, BuildError, DockerException, ImageNotFound, NotFound
from docker.utils.config import find_config_file

from gym_pipeline.host import docker_unreachable
from gym_pipeline.launchers.docker import LABEL_RUN_DIR
from gym_pipeline.taskfolders.loader import Task

IMAGE_REPOSITORY = "gym-pipeline-task"
LABEL_TASK = "gym_pipeline.task"
# `timeout` exits 124 when it stopped the command, 137 when the command ignored SIGTERM and was killed.
_TIMED_OUT_CODES = (124, 137)
_KILL_AFTER_S = 2


class SandboxUnavailable(RuntimeError):
    """No sandbox could be made or used: the engine is down, or a sandbox operation failed."""


class ImageBuildError(RuntimeError):
    """The task's image cannot be had: its build failed or ran too long, or its image is not on the engine."""


def docker_client() -> docker.DockerClient:
    try:
        client = docker.from_env()
        client.ping()
    except (DockerException, requests.RequestException) as error:
        raise SandboxUnavailable(f"Could not set up sandbox: {docker_unreachable(error)}; for development start one "
                                 "with `bash scripts/dev-services.sh up docker`") from None
    return client


def image_tag(task: Task) -> str:
    """The image of a task's environment: the same `environment/` content always gives the same tag."""
    name = "".join(c if c.isalnum() or c in "._-" else "-" for c in task.task_id.lower()).strip(".-_") or "task"
    return f"{IMAGE_REPOSITORY}/{name}:{task.environment_digest.removeprefix('sha256:')[:20]}"


_FROM = re.compile(r"^\s*FROM\s+(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?", re.IGNORECASE | re.MULTILINE)


def base_images(dockerfile: Path) -> list[str]:
    """The images a Dockerfile starts FROM (not its own earlier stages, not `scratch`)."""
    stages, bases = set(), []
    for image, stage in _FROM.findall(dockerfile.read_text(encoding="utf-8", errors="replace")):
        if image.lower() not in stages and image != "scratch" and "$" not in image:
            bases.append(image)
        if stage:
            stages.add(stage.lower())
    return bases


def ensure_image(client: docker.DockerClient, task: Task) -> tuple[str, bool]:
    """The task's image (built when not cached yet, or cached on an older build of its base image) and whether it was
    built now."""
    prebuilt = task.config.environment.docker_image
    if prebuilt:
        try:
            client.images.get(prebuilt)
        except ImageNotFound:
            raise ImageBuildError(f"image {prebuilt!r} ([environment].docker_image) is not on the engine, and "
                                  "images are never pulled here") from None
        return prebuilt, False
    tag = image_tag(task)
    try:
        cached = client.images.get(tag)
    except ImageNotFound:
        cached = None
    if cached is not None and _built_on_the_current_base(client, cached, task.environment_dir / "Dockerfile"):
        return tag, False
    for base in base_images(task.environment_dir / "Dockerfile"):
        try:
            client.images.get(base)
        except ImageNotFound:
            raise ImageBuildError(f"the Dockerfile's FROM names {base}, which the engine does not have (images are "
                                  "never pulled here: build or load it first)") from None
    timeout_s = task.config.environment.build_timeout_sec
    started = time.monotonic()
    try:
        # The low-level API streams the build: its log is kept for the reason, the time limit checked per line.
        stream = client.api.build(path=str(task.environment_dir), tag=tag, rm=True, forcerm=True, pull=False,
                                  network_mode="none", decode=True, timeout=timeout_s,
                                  labels={LABEL_TASK: task.task_id})
        lines = []
        for chunk in stream:
            if "error" in chunk:
                raise BuildError(chunk["error"].strip(), lines)
            lines.append(chunk.get("stream", ""))
            if time.monotonic() - started > timeout_s:
                raise ImageBuildError(f"the image build ran past [environment].build_timeout_sec={timeout_s:g}")
    except BuildError as error:
        raise ImageBuildError(f"image build failed: {_one_line(error.msg)}") from None
    except (requests.exceptions.ReadTimeout, urllib3.exceptions.ReadTimeoutError):
        # the engine sent nothing for build_timeout_sec (a long build step): urllib3 raises its own error mid-stream
        raise ImageBuildError(f"the image build ran past [environment].build_timeout_sec={timeout_s:g}") from None
    except APIError as error:
        raise ImageBuildError(f"image build failed: {_one_line(error.explanation or error)}") from None
    except StoreError as error:
        # before a build the client asks the config's credential helper for every registry login
        raise ImageBuildError(f"image build failed before it started: the Docker client config "
                              f"{find_config_file() or '~/.docker/config.json'} names a credential helper (credsStore "
                              f"or credHelpers) that failed: {_one_line(error)}") from None
    return tag, True


def _final_base(dockerfile: Path) -> str | None:
    """The image the Dockerfile's last stage starts FROM, when it is an image and not one of its own earlier stages."""
    text = dockerfile.read_text(encoding="utf-8", errors="replace")
    stages = {stage.lower() for _, stage in _FROM.findall(text) if stage}
    found = _FROM.findall(text)
    if not found:
        return None
    image = found[-1][0]
    return None if image.lower() in stages or image == "scratch" or "$" in image else image


def _built_on_the_current_base(client: docker.DockerClient, cached: docker.models.images.Image,
                               dockerfile: Path) -> bool:
    """Whether a cached task image still starts with the layers of the image its Dockerfile is FROM. The tag is made
    of environment/ alone: a base image rebuilt under the same name (a team's `eval-base:latest` with fixed data)
    changes nothing there, and the cached image would keep the old base's files."""
    base = _final_base(dockerfile)
    if base is None:
        return True
    try:
        base_layers = client.images.get(base).attrs["RootFS"]["Layers"]
    except (ImageNotFound, KeyError):
        return True  # a missing base is reported when the build needs it
    return cached.attrs.get("RootFS", {}).get("Layers", [])[:len(base_layers)] == base_layers


def _one_line(message: object) -> str:
    return " ".join(str(message).split())


@dataclass(frozen=True)
class ExecResult:
    exit_code: int
    output: str
    timed_out: bool
    elapsed_s: float


class Sandbox:
    """One episode's container. `start` it, run commands in it, copy files in and out, `remove` it."""

    def __init__(self, client: docker.DockerClient, image: str, task: Task, host_allows_internet: bool,
                 run_dir: Path | None = None):
        self.client = client
        self.image = image
        self.task = task
        environment = task.config.environment
        self.network = "host" if environment.allow_internet and host_allows_internet else "none"
        self.name = f"gym-pipeline-sandbox-{uuid.uuid4().hex[:12]}"
        self.labels = {LABEL_TASK: task.task_id, **({LABEL_RUN_DIR: str(run_dir)} if run_dir else {})}
        self.container = None

    def start(self) -> None:
        """Start the container; raises `SandboxUnavailable` when the engine refuses, or when the image's
        entrypoint has already exited (the seed failed)."""
        environment = self.task.config.environment
        memory = f"{environment.memory_mb}m"
        try:
            self.container = self.client.containers.run(
                self.image, command=["sleep", "infinity"], name=self.name, detach=True, network_mode=self.network,
                nano_cpus=int(environment.cpus * 1e9), mem_limit=memory, memswap_limit=memory, labels=self.labels,
                init=True)
            self.container.reload()
        except (DockerException, requests.RequestException) as error:
            raise SandboxUnavailable(f"Could not set up sandbox for {self.task.task_id}: {_one_line(error)}") from None
        if self.container.status != "running":
            code = self.container.attrs["State"].get("ExitCode")
            raise SandboxUnavailable(f"the image's entrypoint exited with code {code} before the sandbox was ready")
        self.run("mkdir -p /logs/verifier", timeout_s=30)

    def exit_code(self) -> int | None:
        """The container's exit code once its main process (the image's entrypoint) ended, else None."""
        try:
            self.container.reload()
        except (DockerException, requests.RequestException):
            return None
        state = self.container.attrs["State"]
        return None if state.get("Running") else state.get("ExitCode")

    def run(self, command: str, timeout_s: float, workdir: str | None = None,
            environment: dict[str, str] | None = None) -> ExecResult:
        """`bash -c command` in the sandbox, stopped after `timeout_s`; output is stdout and stderr together."""
        started = time.monotonic()
        argv = ["timeout", "-k", str(_KILL_AFTER_S), f"{max(timeout_s, 0.01):.3f}", "bash", "-c", command]
        try:
            code, output = self.container.exec_run(argv, workdir=workdir, environment=environment)
        except (DockerException, requests.RequestException) as error:
            raise SandboxUnavailable(f"a command could not run in the sandbox: {_one_line(error)}") from None
        elapsed = time.monotonic() - started
        timed_out = code in _TIMED_OUT_CODES and elapsed >= timeout_s * 0.95
        return ExecResult(code, (output or b"").decode(errors="replace"), timed_out, elapsed)

    def put_folder(self, source: Path, destination: str) -> None:
        """Copy a host folder to `destination` (a path in the container, created if needed)."""
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w") as archive:
            archive.add(str(source), arcname=destination.strip("/").rsplit("/", 1)[-1])
        parent = "/" + destination.strip("/").rsplit("/", 1)[0] if "/" in destination.strip("/") else "/"
        self.run(f"mkdir -p {parent}", timeout_s=30)
        self._put(parent, buffer.getvalue())

    def put_file(self, directory: str, name: str, data: bytes) -> None:
        """Write one file into `directory` (which must be a folder in the container)."""
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w") as archive:
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(data), int(time.time()), 0o644
            archive.addfile(info, io.BytesIO(data))
        self._put(directory, buffer.getvalue())

    def _put(self, directory: str, archive: bytes) -> None:
        try:
            if not self.container.put_archive(directory, archive):
                raise SandboxUnavailable(f"the engine refused to copy files into {directory}")
        except (DockerException, requests.RequestException) as error:
            raise SandboxUnavailable(f"could not copy files into {directory}: {_one_line(error)}") from None

    def get_folder(self, source: str, destination: Path) -> None:
        """Copy a folder out of the container into `destination` (its content, not the folder itself)."""
        try:
            chunks, _ = self.container.get_archive(source)
            data = b"".join(chunks)
        except (DockerException, requests.RequestException) as error:
            raise SandboxUnavailable(f"could not copy {source} out of the sandbox: {_one_line(error)}") from None
        destination.mkdir(parents=True, exist_ok=True)
        prefix = source.rstrip("/").rsplit("/", 1)[-1] + "/"
        with tarfile.open(fileobj=io.BytesIO(data)) as archive:
            for member in archive.getmembers():
                if not member.isfile() or not member.name.startswith(prefix):
                    continue  # links and devices stay in the sandbox: only plain files are evidence
                relative = Path(member.name[len(prefix):])
                if relative.is_absolute() or ".." in relative.parts:
                    continue
                target = destination / relative
                target.parent.mkdir(parents=True, exist_ok=True)
                extracted = archive.extractfile(member)
                target.write_bytes(extracted.read() if extracted else b"")

    def remove(self) -> None:
        if self.container is None:
            try:
                self.container = self.client.containers.get(self.name)
            except (NotFound, DockerException, requests.RequestException):
                return
        try:
            self.container.remove(force=True)
        except NotFound:
            pass
        except (DockerException, requests.RequestException) as error:
            raise SandboxUnavailable(f"could not remove sandbox {self.name}: {_one_line(error)}") from None
