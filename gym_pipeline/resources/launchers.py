"""Where each stage runs, as Dagster resources: one class per launcher kind, bound per stage from sweep.yaml.

    @dg.asset
    def rollouts(context, collect_launcher: StageLauncherResource):
        invocation = collect_launcher.run(context=context, launch=StageLaunch(...))   # a Pipes session

Like dagster's `PipesSubprocessClient` or dagster-docker's `PipesDockerClient`, a launcher resource runs a
command inside a Dagster Pipes session (`run`, through `PipesLauncherClient`), and it is what an asset
receives: the UI's Resources tab lists each stage's launcher, the launchpad can change its settings for a
run, and a test passes one to `dg.materialize(resources=...)`. Each resource *is* its launcher's settings
(`LocalLauncherSettings`, ...: one definition of the fields, which the sweep config embeds too), plus the
behaviour. `InStepLauncherResource` is the unset launcher: the stage runs in the step's own process.

`sweep.yaml`'s `launchers` stays the one place a user says where stages run: `launcher_resources(config.launchers)`
binds, per stage, the resource of the kind it names, under `<stage>_launcher` (`materialize_launcher`,
`collect_launcher`, `profile_launcher`, `model_server_launcher`).
"""

from __future__ import annotations

from typing import ClassVar, Literal

import dagster as dg
from dagster_pipes import PipesExtras
from pydantic import BaseModel, Field

from gym_pipeline.config import StageLaunchersConfig
from gym_pipeline.launchers.base import Launcher, StageLaunch
from gym_pipeline.launchers.pipes import PipesLauncherClient
from gym_pipeline.launchers.settings import (
    DockerLauncherSettings,
    DockerMountSettings,
    LauncherSettings,
    LocalLauncherSettings,
    SlurmLauncherSettings,
)

STAGE_KEYS = tuple(StageLaunchersConfig.model_fields)  # materialize, collect, profile, model_server


def resource_key(stage_key: str) -> str:
    """`collect` -> `collect_launcher`: the resource key, and the name of the asset parameter receiving it."""
    return f"{stage_key}_launcher"


class StageLauncherResource(dg.ConfigurableResource):
    """Runs a stage's command somewhere, inside a Dagster Pipes session."""

    settings_model: ClassVar[type[BaseModel] | None] = None  # the sweep config's model of this kind

    @property
    def in_step(self) -> bool:
        """True when the stage runs in the Dagster step's own process, launched nowhere."""
        return False

    def launcher(self) -> Launcher:
        from gym_pipeline.launchers.factory import launcher_from_settings  # the Docker SDK: loaded when used

        return launcher_from_settings(self.settings())

    def settings(self) -> LauncherSettings:
        """The sweep config's settings model this resource is (its fields, without Dagster's)."""
        model = self.settings_model
        if model is None:
            raise ValueError("this stage runs in the Dagster step's process: set a launcher for it in sweep.yaml")
        return model.model_validate(self.model_dump(include=set(model.model_fields)))

    def get_pipes_client(self) -> PipesLauncherClient:
        return PipesLauncherClient(self.launcher())

    def run(self, *, context: dg.AssetExecutionContext | dg.OpExecutionContext, launch: StageLaunch,
            extras: PipesExtras | None = None) -> dg.PipesClientCompletedInvocation:
        """`launch` through this launcher in a Pipes session (see `PipesLauncherClient.run`)."""
        return self.get_pipes_client().run(context=context, launch=launch, extras=extras)


class InStepLauncherResource(StageLauncherResource):
    """No launcher: the stage runs inside the Dagster step's own process (the fastest; sweep.yaml sets none)."""

    kind: Literal["in_step"] = Field("in_step", description="No launcher: the stage runs in the Dagster step.")

    @property
    def in_step(self) -> bool:
        return True


class LocalLauncherResource(StageLauncherResource, LocalLauncherSettings):
    """Each stage as a local process in its own session (stopped with SIGINT, then SIGKILL)."""

    settings_model = LocalLauncherSettings


class DockerMountConfig(dg.Config, DockerMountSettings):
    """A host path mounted into every container (as in sweep.yaml; Dagster's config knows no Path type)."""

    source: str
    target: str | None = None


class DockerLauncherResource(StageLauncherResource, DockerLauncherSettings):
    """Each stage in a container on a Docker engine (DOCKER_HOST); the container is removed afterwards."""

    mounts: list[DockerMountConfig] = []

    settings_model = DockerLauncherSettings


class SlurmLauncherResource(StageLauncherResource, SlurmLauncherSettings):
    """Each stage as a Slurm batch job (sbatch, polled with squeue, scancel on teardown)."""

    settings_model = SlurmLauncherSettings


_RESOURCE_OF_KIND: dict[str, type[StageLauncherResource]] = {
    "local": LocalLauncherResource, "docker": DockerLauncherResource, "slurm": SlurmLauncherResource,
}


def launcher_resource(settings: LauncherSettings | None, unset: type[StageLauncherResource] = InStepLauncherResource,
                      ) -> StageLauncherResource:
    """The resource for a stage's launcher settings from sweep.yaml (`unset` when it names none)."""
    if settings is None:
        return unset()
    return _RESOURCE_OF_KIND[settings.kind](**settings.model_dump(mode="json"))


def launcher_resources(launchers: StageLaunchersConfig) -> dict[str, StageLauncherResource]:
    """One launcher resource per stage, as sweep.yaml says; an unset model server is a local process."""
    return {
        resource_key(key): launcher_resource(getattr(launchers, key),
                                             LocalLauncherResource if key == "model_server" else InStepLauncherResource)
        for key in STAGE_KEYS
    }


