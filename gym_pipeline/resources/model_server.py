"""The model server as a Dagster resource, so a run can switch servers from the launchpad."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import dagster as dg

from gym_pipeline.config import ModelServerConfig
from gym_pipeline.core.digest_cache import DigestCache
from gym_pipeline.core.fingerprint import folder_digest
from gym_pipeline.resources.launchers import StageLauncherResource
from gym_pipeline.serving.servers import Endpoint, serve_checkpoint


class ModelServerResource(dg.ConfigurableResource, ModelServerConfig):
    """Serves one checkpoint for the length of a stage: the simulated policy, `vllm serve` or an existing endpoint.

    It *is* the sweep config's `model_server` (a `ModelServerConfig`: one definition of the fields and their
    checks); where a server it starts runs is the `model_server_launcher` resource the asset passes in.
    """

    @classmethod
    def from_config(cls, settings: ModelServerConfig) -> ModelServerResource:
        return cls(**settings.model_dump())

    def settings(self) -> ModelServerConfig:
        return ModelServerConfig.model_validate(self.model_dump(include=set(ModelServerConfig.model_fields)))

    @contextmanager
    def serve(self, checkpoint: str, checkpoint_dir: Path, run_dir: Path,
              launcher: StageLauncherResource | None = None, digests: DigestCache | None = None) -> Iterator[Endpoint]:
        """See `serve_checkpoint`; `launcher` (default: a local process) says where a server we start runs,
        `digests` keeps the digests of a checkpoint's files between runs."""
        launcher_settings = launcher.settings() if launcher is not None else None
        digest_of_folder = digests.folder_digest if digests is not None else folder_digest
        with serve_checkpoint(self.settings(), checkpoint, checkpoint_dir, run_dir, launcher_settings,
                              digest_of_folder) as endpoint:
            yield endpoint
