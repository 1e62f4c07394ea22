"""Containers the Docker engine refuses to start, run for real by the user's script before its collection (`set -e`):
a `--cpuset-cpus` copied from a bigger node's template, a `--user` from a hardening template that may not read the
program mounted in, and a `--gpus all` on an engine without a GPU runtime; and a collection in a container whose seccomp
profile denies `connect`. Each is placed in infra with the flag to change; each twin starts its container and
collects. And a collect container given `--cpus 0.01` that a budget ends before it collects (throughput), and a prep
container started with `--ipc none`, without the /dev/shm its multiprocessing pool needs (infra)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from launcher_support import docker_engine
from script_support import CLI, MATERIALIZE, run_scripts

from gym_pipeline.diagnose import diagnose
from gym_pipeline.launchers.settings import DEFAULT_IMAGE

pytestmark = pytest.mark.integration
PROJECT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _docker() -> None:
    docker_engine()  # the engine and its base image, or a clear failure

COLLECT = (f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
           "--env string_match --concurrency 4\n")


@pytest.mark.parametrize("cpus", ["4-7", "0"])
def test_a_container_pinned_to_cpus_the_host_lacks_is_refused_and_named(tmp_path: Path, cpus: str) -> None:
    run = run_scripts(tmp_path, ["set -e\n" + MATERIALIZE
                                 + f"# the GPU node template's pinning\ndocker run --rm --cpuset-cpus {cpus} "
                                 f"{DEFAULT_IMAGE} true\n" + COLLECT])

    report = diagnose(run)

    if cpus == "0":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert top.category == "infra", [f.title for f in report.causes]
    assert "drop `--cpuset-cpus 4-7` (from another node's template)" in top.fix, top.fix


@pytest.mark.parametrize("user", ["--user 65534 ", ""], ids=["nobody", "owner"])
def test_a_container_run_as_a_user_that_may_not_read_its_mounted_program_is_named(tmp_path: Path, user: str) -> None:
    tools = tmp_path / "tools"  # a folder only its owner may enter, as /root is
    tools.mkdir(mode=0o700)
    (tools / "check.sh").write_text("#!/bin/sh\necho inputs checked\n")
    (tools / "check.sh").chmod(0o755)
    run = run_scripts(tmp_path, ["set -e\n" + MATERIALIZE
                                 + f"# the hardening template's user\ndocker run --rm {user}-v {tools}:{tools}:ro "
                                 f"{DEFAULT_IMAGE} {tools}/check.sh\n" + COLLECT])

    report = diagnose(run)

    if not user:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert top.category == "infra", [f.title for f in report.causes]
    assert f"may not read {tools}/check.sh" in top.fix and "drop `--user`" in top.fix, top.fix


@pytest.mark.parametrize("gpus", ["--gpus all ", ""], ids=["gpus", "none"])
def test_a_container_asking_for_gpus_on_an_engine_without_a_gpu_runtime_is_named(tmp_path: Path, gpus: str) -> None:
    run = run_scripts(tmp_path, ["set -e\n" + MATERIALIZE
                                 + f"# the GPU eval template\ndocker run --rm {gpus}{DEFAULT_IMAGE} true\n" + COLLECT])

    report = diagnose(run)

    if not gpus:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert top.category == "infra", [f.title for f in report.causes]
    assert "Drop `--gpus all` from the `docker run` line" in top.fix, top.fix


@pytest.mark.parametrize("denied", ["connect", "ptrace"])
def test_a_collection_in_a_container_whose_seccomp_profile_denies_connect_is_named(tmp_path: Path,
                                                                                   denied: str) -> None:
    """The collection runs in a container under the offline batch template's seccomp profile, which denies `connect`:
    every call to the model fails with EPERM inside the container. A profile denying another call collects."""
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    (run_dir / "seccomp-offline.json").write_text(json.dumps({
        "defaultAction": "SCMP_ACT_ALLOW",
        "syscalls": [{"names": [denied], "action": "SCMP_ACT_ERRNO", "errnoRet": 1}]}))
    mounts = " ".join(f"-v {path}:{path}:ro" for path in dict.fromkeys(
        [Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve(), PROJECT]))
    run = run_scripts(tmp_path, ["set -e\n" + MATERIALIZE + "# the offline batch template's container\n"
                                 f"docker run --rm --security-opt seccomp={run_dir}/seccomp-offline.json --network host "
                                 f"{mounts} -v {run_dir}:{run_dir} -w {run_dir} -e PYTHONPATH={PROJECT} {DEFAULT_IMAGE} "
                                 f"\\\n  {COLLECT}"])

    report = diagnose(run)

    if denied != "connect":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "connect_refused_by_the_clients_system"), top.title
    assert top.title.startswith("The seccomp profile seccomp-offline.json (run_eval.sh:5) denies `connect`")
    assert f"drop `--security-opt seccomp={run_dir}/seccomp-offline.json`" in top.fix


@pytest.mark.parametrize("source", ["named", "path"])
def test_a_folder_mounted_by_a_bare_name_becomes_a_named_volume_and_is_named(tmp_path: Path, source: str) -> None:
    """The container materializes into /results, mounted `-v eval-out:/results` for the folder ./eval-out: Docker
    makes `eval-out` a volume of its own, and the collection after it finds no inputs in eval-out/. Mounted by its
    path, the folder gets them."""
    volume = f"eval-out-{os.getpid()}"  # one per test process: volumes are the engine's, shared by every worker
    run_dir = tmp_path / "run"
    mounts = " ".join(f"-v {path}:{path}:ro" for path in dict.fromkeys(
        [Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve(), PROJECT]))
    mount = f"{volume}:/results" if source == "named" else f"$PWD/{volume}:/results"
    try:
        run = run_scripts(tmp_path, [
            f"mkdir -p {volume}\ndocker run --rm --network host {mounts} -v {run_dir}:{run_dir} -w {run_dir} \\\n"
            f"  -v {mount} -e PYTHONPATH={PROJECT} {DEFAULT_IMAGE} \\\n  "
            + MATERIALIZE.replace("--output rollouts_materialized_inputs.jsonl",
                                  "--output /results/rollouts_materialized_inputs.jsonl")
            + COLLECT.replace("rollouts_materialized_inputs.jsonl", f"{volume}/rollouts_materialized_inputs.jsonl")
            .replace("--output rollouts.jsonl", f"--output {volume}/rollouts.jsonl")])
    finally:
        subprocess.run(["docker", "volume", "rm", "-f", volume], capture_output=True, timeout=60)

    report = diagnose(run / volume if source == "path" else run)

    if source == "path":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "folder_mounted_as_a_named_volume"), top.title
    assert top.title == (f"run_eval.sh:3 mounts `{volume}:/results`: Docker made `{volume}` a named volume, not the "
                         f"folder {volume}/ that run_eval.sh:6 reads")
    assert f'`-v "$PWD/{volume}:/results"`' in top.fix


@pytest.mark.parametrize("cpus", ["0.01", "2"])
def test_a_collect_container_given_a_sliver_of_a_cpu_is_named_when_the_budget_ends_the_run(tmp_path: Path,
                                                                                            cpus: str) -> None:
    """The collection runs in a container with the sidecar template's `--cpus 0.01`: at 1% of a CPU, the CI step's
    `timeout 45` ends it before it is done (throughput). With two CPUs it collects in time."""
    run_dir = tmp_path / "run"
    name = f"collect-{os.getpid()}-{cpus.replace('.', '')}"  # the engine's containers are shared by every worker
    mounts = " ".join(f"-v {path}:{path}:ro" for path in dict.fromkeys(
        [Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve(), PROJECT]))
    try:
        run = run_scripts(tmp_path, [MATERIALIZE + "# the collection, in a container of the sidecar template\n"
                                     f"timeout 45 docker run --rm --name {name} --cpus {cpus} --network host {mounts} "
                                     f"-v {run_dir}:{run_dir} -w {run_dir} -e PYTHONPATH={PROJECT} {DEFAULT_IMAGE} \\\n"
                                     f"  {COLLECT}" + 'echo "collect exit: $?"\n'])
    finally:  # `timeout` ends the client; the container is the engine's to remove
        subprocess.run(["docker", "rm", "-f", name], capture_output=True, timeout=60)

    report = diagnose(run)

    if cpus == "2":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "collect exit: 124" in (run / "logs" / "run_eval_0.log").read_text()  # the budget ended it
    top = report.causes[0]
    assert (top.category, top.id) == ("throughput_resources", "process_limits"), [f.title for f in report.causes]
    assert top.title.startswith("run_eval.sh:4 runs its collect container with `--cpus 0.01`, 1% of one CPU")
    assert "give the collect container whole CPUs instead of `--cpus 0.01`" in top.fix


@pytest.mark.parametrize("ipc", ["--ipc none ", ""], ids=["no_ipc", "default"])
def test_a_prep_container_without_shared_memory_stops_at_its_pool_and_is_named(tmp_path: Path, ipc: str) -> None:
    """The data prep runs in a container of the hardening template (`--ipc none`): it has no /dev/shm, and the prep's
    `multiprocessing.Pool` fails at its first semaphore (infra, the flag named). With the default IPC it runs."""
    prep = "import multiprocessing; print(sum(multiprocessing.Pool(2).map(abs, range(10))), 'rows checked')"
    python = Path(sys.base_prefix).resolve()  # the interpreter itself, without the project's venv
    run = run_scripts(tmp_path, ["set -e\n# the prep, in the hardening template's container\n"
                                 f"docker run --rm {ipc}-v {python}:{python}:ro {DEFAULT_IMAGE} {python}/bin/python3 "
                                 f"-c \"{prep}\"\n"
                                 + MATERIALIZE + COLLECT])

    report = diagnose(run)

    if not ipc:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "shared_memory_full"), [f.title for f in report.causes]
    assert top.title.startswith("run_eval.sh:4 starts its container with `--ipc none`: it has no /dev/shm")
    assert "drop `--ipc none`" in top.fix
