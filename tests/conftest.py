from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[2] / "shared" / "fixtures" / "nemo_gym_0.7.0"


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    if not FIXTURES.exists():
        pytest.fail(f"NeMo Gym fixtures not found at {FIXTURES} (the repo expects ../shared beside it)")
    return FIXTURES
