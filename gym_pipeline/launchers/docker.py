"""A stage in a Docker container on a real engine, through the Docker SDK for Python.

Our stages run unchanged inside: the run directory is mounted read-write and, read-only at the same
paths, the project folder, the venv and the Python installation the venv points to, so an argv like
`[sys.executable, "-m", "gym_pipeline.cli", ...]` works in any image with a C library (the default
image is Debian's, built by `scripts/dev-services.sh up docker`). The container runs as our uid:gid, so
the files it writes are ours, and under docker-init, which forwards the stop signal and reaps.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import docker
import requests
from docker.errors import APIError, DockerException, ImageNotFound, NotFound
from docker.models.containers import Container
from docker.types import DeviceRequest, Mount

import gym_pipeline
from gym_pipeline.diagnose.vocabulary import exit_signal
from gym_pipeline.host import docker_unreachable
from gym_pipeline.launchers.base import Launcher, LauncherUnavailableError, RunningStage, StageLaunch
from gym_pipeline.launchers.settings import DEFAULT_IMAGE
from gym_pipeline.launchers.state import LauncherState

LABEL_STAGE = "gym_pipeline.stage"
LABEL_RUN_DIR = "gym_pipeline.run_dir"
_LOG_THREAD_JOIN_S = 10.0
_PROJECT_DIR = Path(gym_pipeline.__file__).resolve().parents[1]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class BindMount:
    """A host path mounted into every container, at `target` (default: the same path)."""

    source: Path
    target: Path | None = None
    read_only: bool = True


class DockerLauncher(Launcher):
    """Runs the argv in a container of `image`; the container gets only `launch.env`, not our environment.

    Teardown: `docker stop` with SIGINT and `grace_period_s`, then Docker's SIGKILL; the container is
    removed afterwards in every case. Reaches the engine at DOCKER_HOST (or the default socket).
    """

    kind = "docker"

    def __init__(
        self,
        image: str = DEFAULT_IMAGE,
        network: Literal["host", "none"] = "host",
        cpus: float | None = None,
        memory_mb: int | None = None,
        gpus: int | None = None,
        mounts: Sequence[BindMount] = (),
        grace_period_s: float = 10.0,
        poll_interval_s: float = 0.5,
        client: docker.DockerClient | None = None,
    ):
        super().__init__(grace_period_s=grace_period_s, poll_interval_s=poll_interval_s)
        self.image = image
        self.network = network
        self.cpus = cpus
        self.memory_mb = memory_mb
        self.gpus = gpus
        self.mounts = tuple(mounts)
        self._client = client

    def client(self) -> docker.DockerClient:
        if self._client is None:
            try:
                client = docker.from_env()
                client.ping()
            except DockerException as error:
                raise LauncherUnavailableError(
                    f"{docker_unreachable(error)}; for development start one with "
                    "`bash scripts/dev-services.sh up docker` and export what it prints"
                ) from error
            self._client = client
        return self._client

    def prepare(self, launch: StageLaunch, state: LauncherState) -> RunningStage:
        state.memory_mb = self.memory_limit(launch)  # what an OOM kill is measured against, for the diagnosis
        return _Container(launch, state, self)

    def memory_limit(self, launch: StageLaunch) -> int | None:
        resources = launch.resources
        return resources.memory_mb if resources and resources.memory_mb is not None else self.memory_mb

    def container_options(self, launch: StageLaunch) -> dict:
        """The SDK's `containers.create` keyword arguments for the stage (except the name)."""
        resources = launch.resources
        cpus = resources.cpus if resources and resources.cpus is not None else self.cpus
        memory_mb = self.memory_limit(launch)
        gpus = resources.gpus if resources and resources.gpus is not None else self.gpus
        options: dict = dict(
            image=self.image, command=list(launch.argv), environment=dict(launch.env),
            working_dir=str(launch.workdir), user=f"{os.getuid()}:{os.getgid()}",
            network_mode=self.network, mounts=self._mounts(launch), init=True, stop_signal="SIGINT",
            labels={LABEL_STAGE: launch.stage, LABEL_RUN_DIR: str(launch.run_dir)},
        )
        if cpus is not None:
            options["nano_cpus"] = int(cpus * 1e9)
        if memory_mb is not None:
            # Swap as large as memory, i.e. none: over the limit the kernel OOM-kills instead of swapping.
            options["mem_limit"] = options["memswap_limit"] = f"{memory_mb}m"
        if gpus:
            options["device_requests"] = [DeviceRequest(count=gpus, capabilities=[["gpu"]])]
        return options

    def _mounts(self, launch: StageLaunch) -> list[Mount]:
        read_write = [launch.run_dir]
        read_only = [_PROJECT_DIR, Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve(),
                     *launch.read_only_paths, launch.workdir]
        # a run directory reached through a symlink (a runs folder linked to scratch) is mounted at both paths: the
        # stage inside names it the way the sweep config does, resolved or not
        read_write = list(dict.fromkeys(p for path in read_write for p in (path, path.resolve())))
        read_only = [p for path in read_only for p in (path, path.resolve())]
        mounts = [Mount(str(path), str(path.resolve()), type="bind") for path in read_write]
        covered = list(read_write)
        for path in sorted(set(read_only), key=lambda p: len(p.parts)):
            if not any(path.is_relative_to(parent) for parent in covered):
                mounts.append(Mount(str(path), str(path.resolve()), type="bind", read_only=True))
                covered.append(path)
        for extra in self.mounts:
            target = extra.target or extra.source
            mounts.append(Mount(str(target), str(Path(extra.source).resolve()), type="bind", read_only=extra.read_only))
        return mounts


class _Container(RunningStage):
    def __init__(self, launch: StageLaunch, state: LauncherState, launcher: DockerLauncher):
        super().__init__(launch, state)
        self.launcher = launcher
        # Named before it exists: an interrupt between create and our reference to it still finds it.
        self.name = f"gym-pipeline-{launch.stage}-{uuid.uuid4().hex[:12]}"
        self.container: Container | None = None
        self._log_thread: threading.Thread | None = None

    def start(self) -> None:
        client = self.launcher.client()
        try:
            self.container = client.containers.create(name=self.name, **self.launcher.container_options(self.launch))
        except ImageNotFound as error:
            raise LauncherUnavailableError(
                f"image {self.launcher.image!r} is not on the engine; build it (`bash scripts/dev-services.sh "
                f"up docker` builds {DEFAULT_IMAGE}) or pull it: {error}"
            ) from error
        except APIError as error:
            raise self._refused(error) from error
        self.state.container_id = self.container.id
        try:
            self.container.start()
        except APIError as error:
            raise self._refused(error) from error
        self._log_thread = threading.Thread(target=self._copy_logs, name=f"logs-{self.name}", daemon=True)
        self._log_thread.start()

    def _refused(self, error: APIError) -> LauncherUnavailableError:
        # e.g. a mount source that is not there, a memory limit the engine rejects, an OCI runtime failure
        return LauncherUnavailableError(f"the Docker engine refused stage {self.launch.stage!r} "
                                        f"({error.status_code}): {self.launch.mask(str(error.explanation or error))}")

    def poll(self) -> bool:
        if self.container is None:
            return False
        self.container.reload()
        container_state = self.container.attrs["State"]
        if container_state["Status"] not in ("exited", "dead"):
            return False
        self.ended = True
        self.state.exit_code = container_state["ExitCode"]
        self.state.oom_killed = bool(container_state.get("OOMKilled"))
        self.state.signal = exit_signal(self.state.exit_code) if self.state.exit_code > 128 else None
        return True

    def stop(self) -> None:
        if self.container is not None:
            self.container.stop(timeout=max(1, round(self.launcher.grace_period_s)))
            self.poll()
        self.ended = True

    def release(self) -> None:
        if self._log_thread is not None:
            self._log_thread.join(_LOG_THREAD_JOIN_S)
        container = self.container
        if container is None:
            try:
                container = self.launcher.client().containers.get(self.name)
            except NotFound:
                return
        try:
            container.remove(force=True)
        except NotFound:
            pass

    def _copy_logs(self) -> None:
        assert self.container is not None
        try:
            with self.launch.log_path.open("ab") as out:
                for chunk in self.container.logs(stream=True, follow=True):
                    out.write(chunk)
                    out.flush()
        except (DockerException, requests.RequestException) as error:
            log.warning("stopped copying the logs of container %s: %s", self.name, error)
