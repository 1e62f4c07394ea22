"""A collection in a container started from the team's template, which joins a sidecar's network (`--network
container:NAME`) or takes its volumes (`--volumes-from NAME`), run for real: on a node where the sidecar does not run,
Docker refuses the container and nothing is collected. The diagnosis names the option and the missing container
(infra), not the engine. With the sidecar running (on the host's network), the same script collects."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from launcher_support import docker_engine
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose
from gym_pipeline.launchers.settings import DEFAULT_IMAGE

pytestmark = pytest.mark.integration
PROJECT = Path(__file__).resolve().parents[1]


def collect_in_container(run_dir: Path, borrow: str) -> str:
    mounts = " ".join(f"-v {path}:{path}:ro" for path in dict.fromkeys(
        [Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve(), PROJECT]))
    return (f"{CLI} materialize --input data.jsonl --num-repeats 2 --agent string_match_simple_agent "
            "--output rollouts_materialized_inputs.jsonl\n"
            "# the team's collect container template\n"
            f"docker run --rm {borrow} {mounts} -v {run_dir}:{run_dir} -w {run_dir} -e PYTHONPATH={PROJECT} "
            f"{DEFAULT_IMAGE} {CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
            "--model-url URL --env string_match --concurrency 4\n"
            f"{CLI} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")


@pytest.mark.parametrize("sidecar_running", [False, True], ids=["absent", "running"])
@pytest.mark.parametrize("option", ["--network container:", "--volumes-from "], ids=["network", "volumes"])
def test_a_container_that_borrows_from_a_sidecar_this_node_does_not_run(tmp_path: Path, option: str,
                                                                        sidecar_running: bool) -> None:
    docker_engine()
    sidecar = f"egress-proxy-{os.getpid()}-{len(option)}-{int(sidecar_running)}"  # names are shared by all workers
    # --volumes-from keeps the container's own network: give it the host's, as the template's other lines do
    borrow = option + sidecar + ("" if option.startswith("--network") else " --network host")
    try:
        if sidecar_running:
            subprocess.run(["docker", "run", "-d", "--rm", "--name", sidecar, "--network", "host", DEFAULT_IMAGE,
                            "sleep", "300"], check=True, capture_output=True, timeout=60)
        run = run_scripts(tmp_path, [collect_in_container(tmp_path / "run", borrow)])
    finally:
        subprocess.run(["docker", "rm", "-f", sidecar], capture_output=True, timeout=60)
    assert (run / "rollouts.jsonl").exists() is sidecar_running

    report = diagnose(run)

    if sidecar_running:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "container_borrowing_from_one_not_running"), [
        f.title for f in report.causes]
    assert top.title == (f"run_eval.sh:4 starts its container with `{option}{sidecar}`, and no container {sidecar} "
                         "runs on this node: Docker refused to start it")
    assert f"drop `{option}{sidecar}`" in top.fix and "Check the Docker engine" not in top.fix
