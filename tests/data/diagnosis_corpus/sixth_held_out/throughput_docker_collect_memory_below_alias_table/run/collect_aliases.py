"""Collect on the built-in engine with our own environment subclass."""
import asyncio
import sys
from pathlib import Path

from gym_pipeline.engines.builtin import CollectorSettings, collect
from gym_pipeline.environments import McqaEnvironment, StringMatchEnvironment  # noqa: F401
import os

# the alias table of every answer we accept (built once per process: about 300 MB of strings)
ALIASES = {f"alias-{i:09d}": f"canonical-{i % 1000}" for i in range(int(os.environ.get("ALIAS_ROWS", "3000000")))}


class AliasMatch(StringMatchEnvironment):
    def verify(self, row, response_text):
        verdict = super().verify(row, response_text)
        verdict["alias_hit"] = response_text.strip() in ALIASES
        return verdict


inputs, output, url = sys.argv[1:4]
settings = CollectorSettings(model_url=url, concurrency=4)
summary = asyncio.run(collect(Path(inputs), Path(output), AliasMatch(), settings, resume="--resume" in sys.argv))
print(f"{summary.collected} collected, {len(summary.failed_keys)} failed of {summary.total} in {summary.elapsed_s:.1f}s",
      flush=True)
