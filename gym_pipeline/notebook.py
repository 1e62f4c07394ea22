"""For notebooks: any partition's files as pandas DataFrames.

    import gym_pipeline
    run = gym_pipeline.load_partition("gym-pipeline-home", "step_0300", "mcqa")
    run.reward_analysis.groupby("task_difficulty", observed=True)["output_tokens"].mean()

`load_partition` finds the run folder from the workspace's sweep config; `gym_pipeline.core.tables.read_run`
reads any run folder (a NeMo Gym output folder too). See `gym_pipeline.core.tables.RunTables` for what each
frame holds.
"""

from __future__ import annotations

from pathlib import Path

from gym_pipeline.config import home_dir, workspace_config
from gym_pipeline.core.tables import RunTables, read_run


def load_partition(home: Path | str | None, checkpoint: str, env: str) -> RunTables:
    """The (checkpoint, env) partition of the workspace `home` (None: $GYM_PIPELINE_HOME, else
    ./gym-pipeline-home) as DataFrames: `materialized_inputs`, `rollouts`, `failures`, `reward_profile`, `agent_metrics`,
    `repeat_level_metrics`, `reward_analysis` (None where a stage has not written its file yet) and the
    `reward_analysis_summary` dict. Raises FileNotFoundError when the partition has no run folder."""
    return read_run(workspace_config(home_dir(home)).run_dir(checkpoint, env))
