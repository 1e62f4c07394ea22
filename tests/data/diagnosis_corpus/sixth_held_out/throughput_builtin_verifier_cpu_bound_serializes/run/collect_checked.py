"""Collect on the built-in engine with our own environment subclass."""
import asyncio
import sys
from pathlib import Path

from gym_pipeline.engines.builtin import CollectorSettings, collect
from gym_pipeline.environments import McqaEnvironment, StringMatchEnvironment  # noqa: F401
import time


class CheckedMatch(StringMatchEnvironment):
    def verify(self, row, response_text):
        verdict = super().verify(row, response_text)
        # consistency check of the answer (pure Python, about 1.5 s of CPU per rollout)
        deadline = time.process_time() + 1.5
        while time.process_time() < deadline:
            sum(i * i for i in range(1000))
        return verdict


inputs, output, url = sys.argv[1:4]
settings = CollectorSettings(model_url=url, concurrency=16)
summary = asyncio.run(collect(Path(inputs), Path(output), CheckedMatch(), settings, resume="--resume" in sys.argv))
print(f"{summary.collected} collected, {len(summary.failed_keys)} failed of {summary.total} in {summary.elapsed_s:.1f}s",
      flush=True)
