"""Model servers: simulated policy checkpoints and the OpenAI-compatible server that serves them."""

from gym_pipeline.serving.checkpoints import (
    Checkpoint,
    CheckpointError,
    checkpoint_digest,
    create_checkpoint,
    demo_checkpoints,
    load_checkpoint,
)
from gym_pipeline.serving.simulated_policy import create_app, run_server

__all__ = [
    "Checkpoint",
    "CheckpointError",
    "checkpoint_digest",
    "create_app",
    "create_checkpoint",
    "demo_checkpoints",
    "load_checkpoint",
    "run_server",
]
