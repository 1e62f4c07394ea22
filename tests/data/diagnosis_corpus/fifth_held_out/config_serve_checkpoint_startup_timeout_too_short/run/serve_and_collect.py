"""Serve a checkpoint the way our sweep does (serve_checkpoint + a launcher) and collect against it."""
import asyncio
import sys
from pathlib import Path

from gym_pipeline.config import ModelServerConfig
from gym_pipeline.engines.builtin import CollectorSettings, collect
from gym_pipeline.environments import get_environment
from gym_pipeline.launchers.settings import DockerLauncherSettings, LocalLauncherSettings, SlurmLauncherSettings  # noqa: F401
from gym_pipeline.serving.servers import serve_checkpoint

run, checkpoint = Path(sys.argv[1]), Path(sys.argv[2])
server = ModelServerConfig(kind='simulated', startup_timeout_s=0.5)
with serve_checkpoint(server, checkpoint.name, checkpoint, run, LocalLauncherSettings()) as endpoint:
    print(f"model server ready at {endpoint.url} ({endpoint.launcher})", flush=True)
    settings = CollectorSettings(model_url=endpoint.url, model_name=endpoint.model_name, concurrency=2,
                                 request_timeout_s=120.0)
    summary = asyncio.run(collect(run / "rollouts_materialized_inputs.jsonl", run / "rollouts.jsonl",
                                  get_environment("string_match"), settings))
    print(f"{summary.collected} collected, {summary.failed} failed of {summary.total} in {summary.elapsed_s:.1f}s",
          flush=True)
