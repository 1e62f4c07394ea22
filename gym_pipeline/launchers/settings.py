"""The launcher settings a sweep config embeds, one model per kind (`factory` builds a launcher from them).

Light to import (pydantic only): every stage command loads the sweep config, which embeds these.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

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

    @model_validator(mode="after")
    def _one_memory_request(self) -> SlurmLauncherSettings:
        """sbatch refuses `--mem` beside `--mem-per-cpu` or `--mem-per-gpu` (they are mutually exclusive)."""
        other = next((option for option in self.extra_options if option.startswith(("--mem=", "--mem-per-"))), None)
        if self.memory_mb is not None and other is not None:
            raise ValueError(f"memory_mb ({self.memory_mb}, sbatch --mem) and extra_options' {other} both set the "
                             "job's memory, and sbatch takes only one of --mem, --mem-per-cpu and --mem-per-gpu: keep one")
        return self


LauncherSettings = Annotated[
    LocalLauncherSettings | DockerLauncherSettings | SlurmLauncherSettings, Field(discriminator="kind")
]
