from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[2] / "shared" / "fixtures" / "nemo_gym_0.7.0"


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    if not FIXTURES.exists():
        pytest.fail(f"NeMo Gym fixtures not found at {FIXTURES} (the repo expects ../shared beside it)")
    return FIXTURES


@pytest.fixture(scope="session")
def policy_endpoint(tmp_path_factory):
    """The simulated policy, serving one demo checkpoint that knows both bundled environments, over HTTP."""
    from gym_pipeline.config import ModelServerConfig
    from gym_pipeline.models.checkpoints import demo_checkpoints
    from gym_pipeline.models.servers import serve_checkpoint

    root = tmp_path_factory.mktemp("checkpoints")
    checkpoint = demo_checkpoints(root, 1, ["string_match", "mcqa"])[0]
    with serve_checkpoint(ModelServerConfig(), checkpoint.name, checkpoint, root / "server.log") as endpoint:
        yield endpoint
