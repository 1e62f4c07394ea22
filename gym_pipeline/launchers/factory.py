"""A launcher built from its settings (the sweep config's `launchers`, or a launcher resource)."""

from __future__ import annotations

from gym_pipeline.launchers.base import Launcher
from gym_pipeline.launchers.docker import BindMount, DockerLauncher
from gym_pipeline.launchers.local import LocalLauncher
from gym_pipeline.launchers.settings import (
    DockerLauncherSettings,
    LauncherSettings,
    LocalLauncherSettings,
)
from gym_pipeline.launchers.slurm import SlurmLauncher


def launcher_from_settings(settings: LauncherSettings) -> Launcher:
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
