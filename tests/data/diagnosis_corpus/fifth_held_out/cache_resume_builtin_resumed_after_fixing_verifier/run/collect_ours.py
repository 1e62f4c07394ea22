"""Collect on the built-in engine with our own environment subclass."""
import asyncio
import sys
import threading
from pathlib import Path

from gym_pipeline.engines.builtin import CollectorSettings, collect
from gym_pipeline.environments import McqaEnvironment, StringMatchEnvironment  # noqa: F401
class OurMatch(StringMatchEnvironment):
    def verify(self, row, response_text):
        return super().verify(row, response_text)


inputs, output, url = sys.argv[1:4]
settings = CollectorSettings(model_url=url, concurrency=2)
summary = asyncio.run(collect(Path(inputs), Path(output), OurMatch(), settings, resume="--resume" in sys.argv))
print(f"{summary.collected} collected, {len(summary.failed_keys)} failed of {summary.total} in {summary.elapsed_s:.1f}s",
      flush=True)
