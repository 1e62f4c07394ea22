"""The demo workspace: example data, simulated checkpoints, and the whole sweep run through Dagster.

The workspace folder holds everything: `sweep.yaml`, `data/`, `checkpoints/`,
`runs/<checkpoint>/<env>/` (Gym's file names) and `dagster/` (a persistent
Dagster instance), so `gym-pipeline ui --home DIR` shows the same runs.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import dagster as dg
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from gym_pipeline.assets.partitions import CHECKPOINTS, sweep_partition_key
from gym_pipeline.config import HOME_ENV_VAR, SWEEP_CONFIG_FILE, StageLaunchersConfig, SweepConfig, home_dir
from gym_pipeline.core.formats import write_bytes_atomic
from gym_pipeline.core.run_summary import summarize_run
from gym_pipeline.discovery import discover_checkpoints, natural_key
from gym_pipeline.launchers.settings import LauncherSettings
from gym_pipeline.observation import observe_sources
from gym_pipeline.serving.checkpoints import demo_checkpoints
from gym_pipeline.sweep import (
    COMPARE_JOB,
    EVAL_SWEEP_JOB,
    EXAMPLES_DIR,
    build_definitions,
    diagnose_failed_run,
    workspace_config,
)
from gym_pipeline.taskfolders.demo_taskset import enable_bundled_taskset, sandbox_engine_problem
from gym_pipeline.taskfolders.knowledge import taskset_knowledge

DAGSTER_DIR = "dagster"
# The run queue is checked every second (Dagster's default is 5 s): a run submitted from the UI or by
# `gym-pipeline backfill --ui-url` starts about as soon as it is queued.
_DAGSTER_YAML = """\
telemetry:
  enabled: false
run_coordinator:
  module: dagster.core.run_coordinator
  class: QueuedRunCoordinator
  config:
    dequeue_interval_seconds: 1
"""
# Dagster's own console logs would drown the progress display; the UI keeps them all.
QUIET_RUN_CONFIG = {"loggers": {"console": {"config": {"log_level": "WARNING"}}}}


def prepare_dagster_home(home: Path) -> Path:
    """The workspace's persistent Dagster instance folder, created on first use."""
    dagster_home = home / DAGSTER_DIR
    dagster_home.mkdir(parents=True, exist_ok=True)
    if not (dagster_home / "dagster.yaml").exists():
        write_bytes_atomic(dagster_home / "dagster.yaml", _DAGSTER_YAML.encode())
    return dagster_home


def ui_environment(home: Path | None) -> dict[str, str]:
    home = home_dir(home)
    return os.environ | {HOME_ENV_VAR: str(home), "DAGSTER_HOME": str(prepare_dagster_home(home))}


def ui_command(port: int) -> list[str]:
    return [sys.executable, "-m", "dagster", "dev", "-m", "gym_pipeline.definitions", "-h", "127.0.0.1",
            "-p", str(port)]


def create_workspace(home: Path, checkpoint_count: int, taskset: bool = False) -> SweepConfig:
    """Lay out the workspace; files already there (an edited dataset, say) are kept as they are. `taskset`: add
    the bundled task folders as an environment when a Docker engine answers (say how to start one otherwise)."""
    home.mkdir(parents=True, exist_ok=True)
    config_path = home / SWEEP_CONFIG_FILE
    if not config_path.exists():
        write_bytes_atomic(config_path, (EXAMPLES_DIR / SWEEP_CONFIG_FILE).read_bytes())
    if taskset and (problem := sandbox_engine_problem()) is None:
        enable_bundled_taskset(config_path)
    elif taskset:
        Console(stderr=True).print(f"demo: {problem}", highlight=False)
    config = workspace_config(home)
    for environment in config.environments:
        if environment.dataset is None:
            continue
        bundled = EXAMPLES_DIR / "data" / environment.dataset.name
        if not environment.dataset.exists() and bundled.exists():
            write_bytes_atomic(environment.dataset, bundled.read_bytes())
    if len(discover_checkpoints(config)) < checkpoint_count:
        environments = [config.runnable_environment(environment.name) for environment in config.environments
                        if environment.dataset]
        tasks = [entry for environment in config.environments if environment.tasks
                 for entry in taskset_knowledge(environment.tasks)]
        demo_checkpoints(config.checkpoints_dir, checkpoint_count, environments, extra_knowledge=tasks)
    prepare_dagster_home(home)
    return config


def run_demo(home: Path | None, checkpoint_count: int = 3, quiet: bool = False,
             launcher: LauncherSettings | None = None, taskset: bool = False) -> dict:
    """Create the workspace and materialize every asset of every (checkpoint, env) partition.

    `launcher` sends every stage (and the model servers) through that launcher for this sweep,
    whatever the workspace's `sweep.yaml` says.
    """
    if checkpoint_count < 1:
        raise ValueError("--checkpoints must be at least 1")
    home = home_dir(home)
    config = create_workspace(home, checkpoint_count, taskset=taskset)
    if launcher is not None:
        config = config.model_copy(update={"launchers": StageLaunchersConfig.everywhere(launcher)})
    with dg.DagsterInstance.from_config(str(prepare_dagster_home(home))) as instance:
        rows = _run_sweep(instance, config, checkpoint_count, quiet)
    return {
        "home": str(home),
        "partitions": rows,
        "ui_command": f"gym-pipeline ui --home {home}",
    }


def _run_sweep(instance: dg.DagsterInstance, config: SweepConfig, checkpoint_count: int, quiet: bool) -> list[dict]:
    """Register the checkpoints, observe the sources, run every partition, then compare checkpoints."""
    defs = build_definitions(config)
    registered = set(instance.get_dynamic_partitions(CHECKPOINTS.name))
    new = [name for name in discover_checkpoints(config)[:checkpoint_count] if name not in registered]
    instance.add_dynamic_partitions(CHECKPOINTS.name, new)
    checkpoints = sorted(registered | set(new), key=natural_key)
    observe_sources(config, instance)

    console = Console(stderr=True, quiet=quiet)
    sweep = defs.resolve_job_def(EVAL_SWEEP_JOB)
    partitions = [(checkpoint, environment.name) for checkpoint in checkpoints for environment in config.environments]
    rows = []
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console) as progress:
        bar = progress.add_task("eval sweep", total=len(partitions))
        for checkpoint, env in partitions:
            progress.update(bar, description=f"eval sweep: {checkpoint} x {env}")
            result = sweep.execute_in_process(
                instance=instance, partition_key=sweep_partition_key(checkpoint, env),
                run_config=QUIET_RUN_CONFIG, raise_on_error=False,
            )
            if not result.success:
                diagnose_failed_run(defs, instance, config, result, QUIET_RUN_CONFIG)
            summary = summarize_run(config.run_dir(checkpoint, env))
            rows.append({
                "checkpoint": checkpoint,
                "env": env,
                "run_dir": summary.run_dir,
                "rollouts": summary.rollouts,
                "failures": summary.failures,
                "mean_reward": summary.mean_reward,
                "diagnosis": summary.diagnosis,
                "dagster_run_id": result.run_id,
                "dagster_run_ok": result.success,
            })
            progress.advance(bar)
        progress.update(bar, description="comparing checkpoints")
        for environment in config.environments:
            defs.resolve_job_def(COMPARE_JOB).execute_in_process(
                instance=instance, partition_key=environment.name, run_config=QUIET_RUN_CONFIG, raise_on_error=False)
    return rows


def print_summary(result: dict) -> None:
    table = Table(title=f"eval sweep in {result['home']}")
    for column in ("checkpoint", "env"):
        table.add_column(column, no_wrap=True)
    for column in ("rollouts", "failures", "mean reward"):
        table.add_column(column, justify="right")
    table.add_column("diagnosis")
    for row in result["partitions"]:
        reward = "-" if row["mean_reward"] is None else f"{row['mean_reward']:.3f}"
        table.add_row(row["checkpoint"], row["env"], str(row["rollouts"]), str(row["failures"]), reward,
                      row["diagnosis"] or "[red]no report[/red]")
    console = Console()
    console.print(table)
    console.print(f"Run directories: {result['home']}/runs/<checkpoint>/<env>/", highlight=False)
    console.print(f"Open the Dagster UI on this workspace: [bold]{result['ui_command']}[/bold]", highlight=False)
