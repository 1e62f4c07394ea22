"""Run a partition's stage where its launcher resource says: in this step's process, or launched.

A stage's launcher is a resource (`<stage>_launcher`, see gym_pipeline/resources/launchers.py), bound from
sweep.yaml. A launched stage is `gym-pipeline stage KEY ...` started by the launcher (a local process, a
Docker container, a Slurm job) inside a Dagster Pipes session whose channel is a pair of files in the run
directory. It reads the sweep config the step wrote beside it and runs the same function the step would
have run; its log lines reach the run's log as they happen and its `PartitionOutcome` comes back as a
Pipes message. Where it ran (pid, container id, Slurm job id) is added to the stage's record in the run's
manifest and to the metadata.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import dagster as dg

from gym_pipeline.config import SweepConfig
from gym_pipeline.core.formats import write_bytes_atomic
from gym_pipeline.core.manifest import annotate_stage
from gym_pipeline.launchers.base import StageFailedError, StageLaunch
from gym_pipeline.resources.launchers import StageLauncherResource
from gym_pipeline.stages import STAGE_OF_LAUNCHER_KEY, PartitionOutcome, deserialize_outcome


def run_stage(context: dg.AssetExecutionContext, launcher: StageLauncherResource, config: SweepConfig, key: str,
              checkpoint: str, env: str, code: str, in_step: Callable[[], PartitionOutcome],
              extra_args: Sequence[str] = (), env_vars: dict[str, str] | None = None,
              read_only_paths: Sequence[Path] = ()) -> PartitionOutcome:
    """`in_step()` when stage `key`'s launcher is the step itself, else the same work through the launcher."""
    if launcher.in_step:
        return in_step()
    stage = STAGE_OF_LAUNCHER_KEY[key]
    run_dir = config.run_dir(checkpoint, env)
    logs = run_dir / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    config_file = logs / f"{stage}.sweep.json"
    write_bytes_atomic(config_file, config.model_dump_json().encode())
    argv = [sys.executable, "-m", "gym_pipeline.cli", "stage", key, "--sweep-config", str(config_file),
            "--checkpoint", checkpoint, "--env", env, "--code-version", code,
            "--dagster-run-id", context.run.run_id, *extra_args]
    launch = StageLaunch(stage, argv, run_dir, env=env_vars or {}, cwd=run_dir, read_only_paths=read_only_paths)
    context.log.info(f"{checkpoint} x {env}: {stage} through the {launcher.settings().kind} launcher")
    try:
        invocation = launcher.run(context=context, launch=launch)
    except StageFailedError as error:
        raise dg.Failure(description=str(error), metadata={"log": dg.MetadataValue.path(str(launch.log_path))}) from None
    outcomes = invocation.get_custom_messages()
    if not outcomes:
        raise dg.Failure(description=f"stage {stage} ended without reporting its outcome; see {launch.log_path}")
    where = {name: value.value for name, value in invocation.metadata.items()}
    annotate_stage(run_dir, stage, {"ran_on": where})
    outcome = deserialize_outcome(outcomes[-1])
    outcome.metadata |= {f"launcher/{name}": value for name, value in where.items()}
    return outcome
