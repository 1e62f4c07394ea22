"""Collect on the built-in engine with our own environment subclass."""
import asyncio
import sys
import threading
from pathlib import Path

from gym_pipeline.engines.builtin import CollectorSettings, collect
from gym_pipeline.environments import McqaEnvironment, StringMatchEnvironment  # noqa: F401
import subprocess
import threading

SANDBOX = threading.Lock()  # the team's code sandbox has a single slot


class SandboxedMatch(McqaEnvironment):
    def verify(self, row, response_text):
        with SANDBOX:  # run the answer through the sandbox's checker before grading (about 1.5 s a call)
            subprocess.run([sys.executable, "-c", "import time; time.sleep(1.5)"], check=True)
        return super().verify(row, response_text)


inputs, output, url = sys.argv[1:4]
settings = CollectorSettings(model_url=url, concurrency=16)
summary = asyncio.run(collect(Path(inputs), Path(output), SandboxedMatch(), settings, resume="--resume" in sys.argv))
print(f"{summary.collected} collected, {len(summary.failed_keys)} failed of {summary.total} in {summary.elapsed_s:.1f}s",
      flush=True)
