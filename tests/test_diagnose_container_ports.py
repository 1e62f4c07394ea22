"""A model server run in a container by the user's serve script, its port published on the node's loopback
(`docker run -p 127.0.0.1:<port>:8000`). Inside, the server listens on the container's own loopback, which Docker's
forward never reaches: every request is refused, and the fix is the server's `--host 0.0.0.0`. (This machine's engine
has no bridge network, so `-p` publishes nothing whatever the server listens on: the twin is the container on the
node's network, `--network host`, with the server on the run's port, where the run is whole.)"""

import subprocess
import sys
from pathlib import Path

import pytest
from launcher_support import docker_engine
from script_support import CLI, MATERIALIZE, run_eval_script, run_scripts, string_match_run

from gym_pipeline.diagnose import diagnose
from gym_pipeline.host import free_loopback_port
from gym_pipeline.launchers.settings import DEFAULT_IMAGE

pytestmark = pytest.mark.integration
PROJECT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("published", [True, False], ids=["published_port", "host_network"])
def test_a_server_on_its_containers_loopback_behind_a_published_port_is_named(tmp_path: Path, published: bool) -> None:
    docker_engine()
    run, checkpoint = string_match_run(tmp_path, 6)
    port = free_loopback_port()
    name = f"gym-pipeline-test-policy-{port}"  # xdist workers give their tmp_paths the same names
    # the container sees this Python, the project and the checkpoint where the node has them
    mounts = " ".join(f"-v {path}:{path}:ro" for path in dict.fromkeys(
        [Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve(), PROJECT, checkpoint.parent]))
    (run / "serve.sh").write_text(
        f"#!/bin/bash\n# the model server in a container, as on the GPU nodes\ndocker run -d --rm --name {name} "
        + (f"-p 127.0.0.1:{port}:8000" if published else "--network host")
        + f" {mounts} -e PYTHONPATH={PROJECT} {DEFAULT_IMAGE} \\\n  {sys.executable} -m gym_pipeline.cli serve-policy "
        f"--checkpoint {checkpoint} --port {8000 if published else port}\n")
    (run / "run_eval.sh").write_text(
        f"bash serve.sh\nfor i in $(seq 30); do curl -sf http://127.0.0.1:{port}/v1/models > /dev/null && break; "
        "sleep 1; done\n"
        f"docker logs {name} > logs/model_server.log 2>&1\n" + MATERIALIZE
        + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url "
        f"http://127.0.0.1:{port}/v1 --env string_match --concurrency 4\n"
        f"docker logs {name} > logs/model_server.log 2>&1\ndocker rm -f {name}\n")
    try:
        run_eval_script(run)
    finally:  # the script's own `docker rm -f` may not have run
        subprocess.run(["docker", "rm", "-f", name], capture_output=True, timeout=60)

    report = diagnose(run)

    if not published:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "endpoint_not_where_server_listens"), top.title
    assert top.title == (f"The model server listens on its container's own loopback (http://127.0.0.1:8000/v1): the "
                         f"port serve.sh:3 publishes, {port}, reaches nothing")
    assert "`--host 0.0.0.0`" in top.fix and f"`-p 127.0.0.1:{port}:8000`" in top.fix


@pytest.mark.parametrize("network", ["", "--network host "], ids=["own_network", "host_network"])
def test_a_collection_in_a_container_asking_for_the_model_at_its_own_loopback_is_named(tmp_path: Path,
                                                                                      network: str) -> None:
    """The collection moved into a container by the platform's run template, which sets no network: 127.0.0.1 there
    is the container's own loopback, and the model server on the node is refused. On the node's network, healthy."""
    docker_engine()
    run_dir = tmp_path / "run"
    mounts = " ".join(f"-v {path}:{path}:ro" for path in dict.fromkeys(
        [Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve(), PROJECT]))
    run = run_scripts(tmp_path, [
        MATERIALIZE + "# the collection in the eval container (platform run template)\n"
        f"docker run --rm {network}{mounts} -v {run_dir}:{run_dir} -w {run_dir} -e PYTHONPATH={PROJECT} "
        f"{DEFAULT_IMAGE} \\\n  {CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
        "--model-url URL --env string_match --concurrency 4\n"])
    assert (run / "rollouts.jsonl").is_file() == bool(network)  # the container really could not reach the server

    report = diagnose(run)

    if network:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "client_container_on_its_own_loopback"), top.title
    assert top.evidence[1].where == "run_eval.sh:4"
    assert top.fix.startswith("Run the container with `--network host` in run_eval.sh (line 4)")
