"""The model server as a Dagster resource, so a run can switch servers from the launchpad."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import dagster as dg

from gym_pipeline.config import ModelServerConfig
from gym_pipeline.launchers.settings import LauncherSettings
from gym_pipeline.models.servers import Endpoint, serve_checkpoint


class ModelServerResource(dg.ConfigurableResource):
    """Serves one checkpoint for the length of a stage: the simulated policy, `vllm serve` or an existing endpoint."""

    kind: str = "simulated"
    url_template: str | None = None
    model_name: str | None = None
    api_key_env: str | None = None  # the variable's name only: the key itself never enters run config
    latency_ms: int = 0
    startup_timeout_s: float = 60.0
    command: list[str] = ModelServerConfig.model_fields["command"].default  # vllm kind, with placeholders
    extra_args: list[str] = []

    @classmethod
    def from_config(cls, settings: ModelServerConfig) -> ModelServerResource:
        return cls(**settings.model_dump())

    @contextmanager
    def serve(
        self,
        checkpoint: str,
        checkpoint_dir: Path,
        run_dir: Path,
        launcher_settings: LauncherSettings | None = None,
    ) -> Iterator[Endpoint]:
        """See `serve_checkpoint`: `launcher_settings` (the sweep's `launchers.model_server`) say where it runs."""
        settings = ModelServerConfig.model_validate(self.model_dump())
        with serve_checkpoint(settings, checkpoint, checkpoint_dir, run_dir, launcher_settings) as endpoint:
            yield endpoint
