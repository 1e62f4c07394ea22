"""Shared by the launcher tests: stage commands, interrupting a run from outside, finding leftovers."""

import _thread
import ctypes
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from dagster import AssetExecutionContext, DagsterInstance, asset, materialize

from gym_pipeline.host import NotReadyInTime, wait_until_ready
from gym_pipeline.launchers.base import Launcher, StageLaunch
from gym_pipeline.launchers.pipes import PipesLauncherClient

SKIP_INTEGRATION = "GYM_PIPELINE_SKIP_INTEGRATION"
EXAMPLE_DATA = Path(__file__).resolve().parents[1] / "gym_pipeline" / "examples" / "data" / "string_match.jsonl"

# A stage that starts a child and sleeps; both carry the marker in their argv so a test can find them.
SLEEPER_CHILD = "import time; time.sleep(120)"
SLEEPER = f"""
import subprocess, sys, time
subprocess.Popen([sys.executable, "-c", "{SLEEPER_CHILD}", sys.argv[1]])
time.sleep(120)
"""
# The same, deaf to SIGINT: only the launcher's SIGKILL after the grace period ends it.
DEAF_SLEEPER = "import signal; signal.signal(signal.SIGINT, signal.SIG_IGN)\n" + SLEEPER
# Allocates 20 MiB every 50 ms, up to 2 GiB: any memory limit of a few hundred MiB stops it.
MEMORY_HOG = """
import time
hoard = []
for _ in range(100):
    hoard.append(bytearray(20 * 1024 * 1024))
    time.sleep(0.05)
print("allocated 2 GiB, no limit stopped me")
"""


# A stage that reports to Dagster through Pipes.
PIPES_STAGE = """
from dagster_pipes import open_dagster_pipes
with open_dagster_pipes() as pipes:
    pipes.log.info("profiling 3 rows")
    pipes.report_asset_materialization(metadata={"rows": 3})
"""


def service_missing(service: str, why: str) -> None:
    """Integration tests fail without their service (scripts/test.sh starts it), unless told to skip."""
    if os.environ.get(SKIP_INTEGRATION) == "1":
        pytest.skip(f"{service} not available ({why}); {SKIP_INTEGRATION}=1")
    pytest.fail(f"{service} is not available: {why}. Run `bash scripts/dev-services.sh up {service}` and export "
                f"what it prints (scripts/test.sh does); {SKIP_INTEGRATION}=1 skips these tests.", pytrace=False)


def docker_engine():
    """The Docker engine with our base image, or the test fails (skips with GYM_PIPELINE_SKIP_INTEGRATION=1)."""
    import docker
    from docker.errors import DockerException

    from gym_pipeline.launchers.settings import DEFAULT_IMAGE

    try:
        client = docker.from_env()
        client.ping()
    except DockerException as error:
        service_missing("docker", f"no Docker engine answers ({error})")
    try:
        client.images.get(DEFAULT_IMAGE)
    except DockerException:
        service_missing("docker", f"the image {DEFAULT_IMAGE} is not built")
    return client


SLURM_COMPLETING_WAIT_S = 90  # a node still "completing" an earlier test's cancelled job takes new ones after it


def slurm_cluster() -> None:
    """A Slurm node that accepts jobs, or the test fails (skips with GYM_PIPELINE_SKIP_INTEGRATION=1). A node that is
    only completing an earlier job (a test's `scancel`, a time limit) is waited for."""
    deadline = time.monotonic() + SLURM_COMPLETING_WAIT_S
    while True:
        try:
            states = subprocess.run(["sinfo", "-h", "-o", "%T"], capture_output=True, text=True, timeout=30)
        except FileNotFoundError:
            service_missing("slurm", "sinfo is not installed")
        if states.returncode != 0:
            service_missing("slurm", f"sinfo failed ({states.stderr.strip().splitlines()[-1:]})")
        # `planned` (`mixed-`): the backfill scheduler holds the node for a job waiting for it (another test's): it
        # takes this test's jobs after that one
        found = {state.removesuffix("-") for state in states.stdout.split()}
        if {"idle", "mixed", "allocated", "planned"} & found:
            return
        if not any(state.startswith("completing") for state in found) or time.monotonic() > deadline:
            service_missing("slurm", f"no node accepts jobs (sinfo: {states.stdout.strip()})")
        time.sleep(1)


def new_marker() -> str:
    return f"gym-pipeline-test-{uuid.uuid4().hex}"


def materialize_launch(run_dir: Path) -> StageLaunch:
    """The real `gym-pipeline materialize` on a bundled dataset, writing into the run directory."""
    return StageLaunch(
        "materialize",
        [sys.executable, "-m", "gym_pipeline.cli", "materialize", "--input", str(EXAMPLE_DATA), "--num-repeats", "2",
         "--agent", "string_match_agent", "--output", str(run_dir / "rollouts_materialized_inputs.jsonl")],
        run_dir, read_only_paths=[EXAMPLE_DATA.parent],
    )


def http_server_launch(run_dir: Path) -> tuple[StageLaunch, str]:
    """A stand-in model server on a free loopback port (Python's http.server), and its URL."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    argv = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(run_dir)]
    return StageLaunch("model_server", argv, run_dir), f"http://127.0.0.1:{port}/"


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


def python_launch(stage: str, script: str, run_dir: Path, *args: str, **kwargs) -> StageLaunch:
    return StageLaunch(stage, [sys.executable, "-c", script, *args], run_dir, **kwargs)


def processes_with(marker: str, *args: str) -> list[int]:
    """Live processes (any owner, any container) with `marker`, and all of `args`, among their arguments."""
    wanted = {marker.encode(), *(arg.encode() for arg in args)}
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = set((entry / "cmdline").read_bytes().split(b"\0"))
        except OSError:
            continue
        if wanted <= cmdline:
            found.append(int(entry.name))
    return found


def sleeper_child_runs(marker: str) -> bool:
    """The SLEEPER stage is running and has started its child (a container's init carries the marker too)."""
    return bool(processes_with(marker, SLEEPER_CHILD))


def wait_for(condition: Callable[[], bool], timeout_s: float = 60.0) -> bool:
    try:
        return bool(wait_until_ready(condition, timeout_s, 0.05))
    except NotReadyInTime:
        return False


def interrupt_main_when(condition: Callable[[], bool], error: type[BaseException] = KeyboardInterrupt) -> None:
    """Once `condition()` holds, interrupt the main thread as Dagster's run worker would be: KeyboardInterrupt
    arrives as a real SIGINT would; other errors (DagsterExecutionInterruptedError) are raised into it."""
    main_thread = threading.main_thread().ident
    assert main_thread is not None

    def fire() -> None:
        if not wait_for(condition):
            return
        if error is KeyboardInterrupt:
            _thread.interrupt_main()
        else:
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(main_thread), ctypes.py_object(error))

    threading.Thread(target=fire, daemon=True).start()


def record(run_dir: Path, stage: str | None = None) -> dict:
    """The launcher state recorded in the run directory (`logs/launcher.json`, or the stage's own)."""
    name = f"launcher_{stage}.json" if stage else "launcher.json"
    return json.loads((run_dir / "logs" / name).read_text())


def materialize_through_pipes(launcher: Launcher, run_dir: Path) -> dict:
    """Materialize an asset whose stage runs PIPES_STAGE through `launcher`; the materialization's metadata."""

    @asset
    def profiled(context: AssetExecutionContext, pipes: PipesLauncherClient):
        launch = python_launch("profile", PIPES_STAGE, run_dir)
        return pipes.run(context=context, launch=launch).get_materialize_result()

    result = materialize([profiled], resources={"pipes": PipesLauncherClient(launcher)},
                         instance=DagsterInstance.ephemeral())
    return result.asset_materializations_for_node("profiled")[0].metadata
