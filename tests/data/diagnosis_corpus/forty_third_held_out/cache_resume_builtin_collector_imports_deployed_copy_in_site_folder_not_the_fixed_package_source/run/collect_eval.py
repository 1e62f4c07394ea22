"""Collect on the built-in engine with our own environment subclass."""
import asyncio
import sys
from pathlib import Path

from gym_pipeline.engines.builtin import CollectorSettings, collect
from gym_pipeline.environments import McqaEnvironment, StringMatchEnvironment  # noqa: F401
from mymatch import Match


inputs, output, url = sys.argv[1:4]
settings = CollectorSettings(model_url=url, concurrency=4)
summary = asyncio.run(collect(Path(inputs), Path(output), Match(), settings, resume="--resume" in sys.argv))
print(f"{summary.collected} collected, {len(summary.failed_keys)} failed of {summary.total} in {summary.elapsed_s:.1f}s",
      flush=True)
