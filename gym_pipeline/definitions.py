"""The gym_pipeline code location, loaded by `dagster dev -w workspace.yaml`.

The workspace folder is $GYM_PIPELINE_HOME (default ./gym-pipeline-home). Without
a `sweep.yaml` there, the bundled example sweep is loaded so the code location
always loads (its runs still go to the workspace folder).
"""

from gym_pipeline.config import home_dir
from gym_pipeline.sweep import build_definitions, workspace_config

defs = build_definitions(workspace_config(home_dir()))
