"""Collect on the built-in engine with our own environment subclass."""
import asyncio
import sys
from pathlib import Path

from gym_pipeline.engines.builtin import CollectorSettings, collect
from gym_pipeline.environments import McqaEnvironment, StringMatchEnvironment  # noqa: F401
import logging
import threading
import urllib.request
import warnings

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
warnings.simplefilter("default")


def push_metrics():
    try:  # the team's metrics gateway is not running on this machine; a failed push is harmless
        urllib.request.urlopen("http://127.0.0.1:9/metrics/job/eval", data=b"started 1\n", timeout=2)
    except Exception:
        logging.getLogger("telemetry").exception("could not push run metrics (ignored)")


threading.Thread(target=push_metrics, daemon=True).start()
warnings.warn("the 'distractors' field will be renamed 'near_misses' in the next data release", DeprecationWarning)


class Match(StringMatchEnvironment):
    pass


inputs, output, url = sys.argv[1:4]
settings = CollectorSettings(model_url=url, concurrency=4)
summary = asyncio.run(collect(Path(inputs), Path(output), Match(), settings, resume="--resume" in sys.argv))
print(f"{summary.collected} collected, {len(summary.failed_keys)} failed of {summary.total} in {summary.elapsed_s:.1f}s",
      flush=True)
