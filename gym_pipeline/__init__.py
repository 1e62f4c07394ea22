"""gym_pipeline: NeMo Gym evaluation sweeps as a Dagster code location.

`gym_pipeline.load_partition(home, checkpoint, env)` loads a partition's files as pandas DataFrames
(`gym_pipeline/notebook.py`); it is imported on first use, so importing the package stays light.
"""

from typing import Any

__all__ = ["load_partition"]


def __getattr__(name: str) -> Any:
    if name == "load_partition":
        from gym_pipeline.notebook import load_partition

        return load_partition
    raise AttributeError(f"module 'gym_pipeline' has no attribute {name!r}")
