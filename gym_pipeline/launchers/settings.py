"""The launcher settings a sweep config embeds, one model per kind, and the factory that builds a launcher."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

if TYPE_CHECKING:
    from gym_pipeline.launchers.base import Launcher

DEFAULT_IMAGE = "gym-pipeline/base:bookworm"  # built by `scripts/dev-services.sh up docker`


class _Settings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class LocalLauncherSettings(_Settings):
    kind: Literal["local"] = Field("local", description="Run each stage as a local process in its own process group.")
    grace_period_s: float = Field(10.0, gt=0, description="Seconds between SIGINT and SIGKILL when a stage is stopped.")


class DockerMountSettings(_Settings):
    source: Path = Field(description="Host path to mount into every container.")
    target: Path | None = Field(None, description="Path inside the container; default: the same as `source`.")
    read_only: bool = Field(True, description="Mount read-only (the run directory is always mounted read-write).")


class DockerLauncherSettings(_Settings):
    kind: Literal["docker"] = Field("docker", description="Run each stage in a container on a Docker engine "
                                                          "(DOCKER_HOST, or the default socket).")
    image: str = Field(DEFAULT_IMAGE, description="Image to run; needs a C library. The project folder, its venv "
                                                  "and Python are mounted read-only at their host paths.")
    network: Literal["host", "none"] = Field("host", description="`host` to reach model servers on loopback; "
                                                                 "`none` for stages that need no network.")
    cpus: float | None = Field(None, gt=0, description="CPU limit per container (docker --cpus); none by default.")
    memory_mb: int | None = Field(None, gt=0, description="Memory limit per container in MiB (no swap beyond it); "
                                                          "over it the stage is OOM-killed.")
    gpus: int | None = Field(None, ge=0, description="GPUs per container (needs the NVIDIA container runtime).")
    mounts: list[DockerMountSettings] = Field(default_factory=list, description="Extra bind mounts, e.g. a "
                                                                                "checkpoint store.")
    grace_period_s: float = Field(10.0, gt=0, description="Seconds between SIGINT (docker stop) and SIGKILL.")


class SlurmLauncherSettings(_Settings):
    kind: Literal["slurm"] = Field("slurm", description="Submit each stage as a Slurm batch job (sbatch), using "
                                                        "SLURM_CONF or the default config.")
    partition: str | None = Field(None, description="sbatch --partition; the cluster's default when unset.")
    time_limit: str | None = Field(None, description="sbatch --time, e.g. `30` (minutes) or `02:00:00`.")
    cpus_per_task: int | None = Field(None, gt=0, description="sbatch --cpus-per-task.")
    memory_mb: int | None = Field(None, gt=0, description="sbatch --mem in MiB.")
    gres: str | None = Field(None, description="sbatch --gres, e.g. `gpu:1` (a stage asking for GPUs sets gpu:N).")
    account: str | None = Field(None, description="sbatch --account.")
    extra_options: list[str] = Field(default_factory=list, description="Further sbatch options, each one "
                                                                        "argument, e.g. `--qos=high`.")
    poll_interval_s: float = Field(1.0, gt=0, description="Seconds between two `squeue` polls of a job.")
    exit_file_grace_s: float = Field(30.0, ge=0, description="How long to wait for a job's exit-code file once "
                                                            "the job has left the queue (shared file systems lag).")
    cancel_timeout_s: float = Field(60.0, gt=0, description="How long to wait, after scancel, for the job to end.")


LauncherSettings = Annotated[
    LocalLauncherSettings | DockerLauncherSettings | SlurmLauncherSettings, Field(discriminator="kind")
]


def launcher_from_settings(settings: LauncherSettings) -> Launcher:
    # Imported here: the sweep config embeds the models above and every stage command loads the config,
    # which must stay quick to import (no Docker SDK, no diagnosis modules).
    from gym_pipeline.launchers.docker import BindMount, DockerLauncher
    from gym_pipeline.launchers.local import LocalLauncher
    from gym_pipeline.launchers.slurm import SlurmLauncher

    if isinstance(settings, LocalLauncherSettings):
        return LocalLauncher(grace_period_s=settings.grace_period_s)
    if isinstance(settings, DockerLauncherSettings):
        return DockerLauncher(
            image=settings.image, network=settings.network, cpus=settings.cpus, memory_mb=settings.memory_mb,
            gpus=settings.gpus, grace_period_s=settings.grace_period_s,
            mounts=[BindMount(m.source, m.target, m.read_only) for m in settings.mounts],
        )
    return SlurmLauncher(
        partition=settings.partition, time_limit=settings.time_limit, cpus_per_task=settings.cpus_per_task,
        memory_mb=settings.memory_mb, gres=settings.gres, account=settings.account,
        extra_options=settings.extra_options, poll_interval_s=settings.poll_interval_s,
        exit_file_grace_s=settings.exit_file_grace_s, cancel_timeout_s=settings.cancel_timeout_s,
    )
