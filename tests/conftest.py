import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "nemo_gym_0.7.0"  # a copy of ../shared/fixtures

# Property tests: the default "ci" profile replays the same examples on every run (derandomized), so a
# failure in CI reproduces locally; HYPOTHESIS_PROFILE=explore searches wider with fresh randomness.
# No deadline: examples write files and a loaded 2-core machine makes timings meaningless.
settings.register_profile("ci", derandomize=True, max_examples=60, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("explore", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# With `-n 3 --dist loadgroup` (scripts/test.sh), the tests of one shared service run one after another on one
# worker: the real NeMo Gym runs prepare and start the servers of one shared install, and the task-folder diagnosis
# tests share one module fixture that collects every scenario in Docker (made once, not once per worker).
SERVICE_OF_TEST_FILE = {
    **dict.fromkeys(["test_gym_parity.py", "test_gym_parity_profile.py", "test_nemo_gym_engine.py",
                     "test_nemo_gym_reverify.py"], "nemo_gym"),
    "test_taskfolders_diagnosis.py": "taskfolder_runs",
}
# The tests that submit to the single-node Slurm: its node has the machine's CPUs, so one test's jobs would queue
# behind another's and run out of their wait. scripts/test.sh starts a cluster per worker
# (GYM_PIPELINE_SLURM_CONFS), and each worker's tests use their own; with fewer clusters than workers, they share
# cluster 1 and run one after another on one worker.
SLURM_TEST_FILES = {"test_diagnose_slurm_scripts.py", "test_launchers_slurm.py", "test_model_servers.py",
                    "test_stage_launchers.py"}


def _slurm_clusters() -> list[str]:
    return [conf for conf in os.environ.get("GYM_PIPELINE_SLURM_CONFS", "").split(":") if conf]


def _a_cluster_per_worker() -> bool:
    return int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")) <= len(_slurm_clusters())


def pytest_configure(config: pytest.Config) -> None:
    worker = os.environ.get("PYTEST_XDIST_WORKER")  # gw0, gw1... in an xdist worker
    if worker and _a_cluster_per_worker():
        os.environ["SLURM_CONF"] = _slurm_clusters()[int(worker.removeprefix("gw"))]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if service := SERVICE_OF_TEST_FILE.get(item.path.name):
            item.add_marker(pytest.mark.xdist_group(service))
        elif item.path.name in SLURM_TEST_FILES and not _a_cluster_per_worker():
            item.add_marker(pytest.mark.xdist_group("slurm"))


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    if not FIXTURES.exists():
        pytest.fail(f"NeMo Gym fixtures not found at {FIXTURES} (tests/fixtures is part of the repository)")
    return FIXTURES


@pytest.fixture(scope="session")
def policy_endpoint(tmp_path_factory):
    """The simulated policy, serving one demo checkpoint that knows both bundled environments, over HTTP."""
    from gym_pipeline.config import ModelServerConfig
    from gym_pipeline.serving.checkpoints import demo_checkpoints
    from gym_pipeline.serving.servers import serve_checkpoint

    root = tmp_path_factory.mktemp("checkpoints")
    checkpoint = demo_checkpoints(root, 1, ["string_match", "mcqa"])[0]
    with serve_checkpoint(ModelServerConfig(), checkpoint.name, checkpoint, root) as endpoint:
        yield endpoint
