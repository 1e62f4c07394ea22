"""Collect string_match on the built-in engine with our verifier ported from the trainer's loss code."""
import asyncio
import sys
from pathlib import Path

from gym_pipeline.engines.builtin import CollectorSettings, collect
from gym_pipeline.environments import StringMatchEnvironment


class PortedMatch(StringMatchEnvironment):
    def verify(self, row, response_text):
        verdict = super().verify(row, response_text)
        # the trainer minimises the mismatch: 0 when the answer is right
        verdict["reward"] = 1.0 - float(verdict["reward"])
        return verdict


inputs, output, url = sys.argv[1:4]
summary = asyncio.run(collect(Path(inputs), Path(output), PortedMatch(), CollectorSettings(model_url=url, concurrency=4)))
print(f"{summary.collected} collected, {summary.failed} failed of {summary.total} in {summary.elapsed_s:.1f}s")
