"""Dagster Pipes through any launcher: a stage that calls `dagster_pipes.open_dagster_pipes()` reports
logs, metadata and checks to the Dagster UI wherever it runs.

The channel is two files in the run directory (`logs/pipes/<stage>_context.json`, read by the stage, and
`logs/pipes/<stage>_messages.jsonl`, tailed by us), which every launcher shares with its stage: the
local process sees it directly, a container through the run directory's mount, a Slurm job through the
shared file system.
"""

from __future__ import annotations

from dagster import (
    AssetExecutionContext,
    OpExecutionContext,
    PipesClient,
    PipesClientCompletedInvocation,
    PipesFileContextInjector,
    PipesFileMessageReader,
    open_pipes_session,
)

# Not exported by dagster: what every Pipes client of dagster's own inherits so that it can be passed
# to an asset as a resource.
from dagster._core.definitions.resource_annotation import TreatAsResourceParam
from dagster_pipes import PipesExtras

from gym_pipeline.launchers.base import Launcher, StageLaunch
from gym_pipeline.launchers.state import launcher_metadata


class PipesLauncherClient(PipesClient, TreatAsResourceParam):
    """Runs a stage through `launcher` inside a Pipes session.

        @asset
        def rollouts(context, pipes: PipesLauncherClient):
            return pipes.run(context=context, launch=StageLaunch(...)).get_materialize_result()

    The results carry where the stage ran (`launcher_metadata`). A failed stage raises StageFailedError
    after the messages it sent have been delivered.
    """

    def __init__(self, launcher: Launcher):
        self.launcher = launcher

    def run(
        self,
        *,
        context: OpExecutionContext | AssetExecutionContext,
        launch: StageLaunch,
        extras: PipesExtras | None = None,
    ) -> PipesClientCompletedInvocation:
        channel = launch.run_dir / "logs" / "pipes"
        channel.mkdir(parents=True, exist_ok=True)
        with open_pipes_session(
            context=context,
            context_injector=PipesFileContextInjector(str(channel / f"{launch.stage}_context.json")),
            message_reader=PipesFileMessageReader(str(channel / f"{launch.stage}_messages.jsonl")),
            extras=extras,
        ) as session:
            state = self.launcher.run(launch.with_env(session.get_bootstrap_env_vars()))
        return PipesClientCompletedInvocation(session, metadata=launcher_metadata(state))

