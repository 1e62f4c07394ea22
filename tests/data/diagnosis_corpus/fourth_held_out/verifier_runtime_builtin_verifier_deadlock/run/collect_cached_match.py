"""Collect string_match with our cached verifier on the built-in engine."""
import asyncio
import sys
import threading
from pathlib import Path

from gym_pipeline.engines.builtin import CollectorSettings, collect
from gym_pipeline.environments import StringMatchEnvironment

_CACHE: dict = {}
_LOCK = threading.Lock()


class CachedMatch(StringMatchEnvironment):
    """Caches verdicts per (row, answer): repeats of a task often give the same answer."""

    def _remember(self, key, verdict):
        with _LOCK:
            _CACHE[key] = verdict
        return verdict

    def verify(self, row, response_text):
        key = (row["expected_answer"], response_text)
        with _LOCK:
            if key in _CACHE:
                return _CACHE[key]
            return self._remember(key, super().verify(row, response_text))


inputs, output, url = sys.argv[1:4]
summary = asyncio.run(collect(Path(inputs), Path(output), CachedMatch(), CollectorSettings(model_url=url, concurrency=4)))
print(f"{summary.collected} collected, {summary.failed} failed of {summary.total} in {summary.elapsed_s:.1f}s")
