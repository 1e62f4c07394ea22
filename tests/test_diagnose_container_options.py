"""A collection in a container started from a team template written for other nodes, run for real: `--runtime nvidia`
(GPU nodes), `--platform linux/arm64` (ARM nodes), `--device /dev/nvidia0` (GPU nodes), `--log-driver fluentd` (nodes
with a log agent), `--entrypoint` a script the team's own images ship, `--cpu-rt-runtime` (nodes tuned for realtime
scheduling), `--env-file` a settings file the CI runners keep. This node's Docker refuses each, in its own
words, and nothing is collected. The diagnosis names the option (infra), not the engine. Without the option, or with an
env file this node has, the same script collects. A policy container hardened with `--read-only` and no writable
/tmp stops at start."""

import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from launcher_support import docker_engine
from script_support import CLI, run_eval_script, run_scripts, string_match_run

from gym_pipeline.diagnose import diagnose
from gym_pipeline.host import free_loopback_port
from gym_pipeline.launchers.settings import DEFAULT_IMAGE

pytestmark = pytest.mark.integration
PROJECT = Path(__file__).resolve().parents[1]
OPTIONS = ["--runtime nvidia", "--platform linux/arm64", "--device /dev/nvidia0", "--log-driver fluentd",
           "--entrypoint /usr/local/bin/team-init.sh", "--cpu-rt-runtime 950000", "--env-file /etc/ci/eval.env"]


def collect_in_container(run_dir: Path, option: str) -> str:
    mounts = " ".join(f"-v {path}:{path}:ro" for path in dict.fromkeys(
        [Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve(), PROJECT]))
    return (f"{CLI} materialize --input data.jsonl --num-repeats 2 --agent string_match_simple_agent "
            "--output rollouts_materialized_inputs.jsonl\n"
            "# the team's collect container template\n"
            f"docker run --rm --pull never {option} --network host {mounts} -v {run_dir}:{run_dir} -w {run_dir} "
            f"-e PYTHONPATH={PROJECT} {DEFAULT_IMAGE} {CLI} collect --inputs rollouts_materialized_inputs.jsonl "
            "--output rollouts.jsonl --model-url URL --env string_match --concurrency 4\n"
            f"{CLI} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")


def test_without_a_template_option_the_container_collects(tmp_path: Path) -> None:
    docker_engine()
    run = run_scripts(tmp_path, [collect_in_container(tmp_path / "run", "")])
    assert (run / "rollouts.jsonl").exists()
    assert diagnose(run).category == "healthy"


def test_an_env_file_this_node_has_is_read_and_the_container_collects(tmp_path: Path) -> None:
    docker_engine()
    run = run_scripts(tmp_path, [collect_in_container(tmp_path / "run", f"--env-file {tmp_path / 'run' / 'eval.env'}")],
                      files={"eval.env": "EVAL_SUITE=weekly\n"})
    assert (run / "rollouts.jsonl").exists()
    assert diagnose(run).category == "healthy"


@pytest.mark.parametrize("option", OPTIONS, ids=[option.split()[0].strip("-") for option in OPTIONS])
def test_a_template_option_this_nodes_docker_refuses(tmp_path: Path, option: str) -> None:
    docker_engine()
    run = run_scripts(tmp_path, [collect_in_container(tmp_path / "run", option)])
    log = (run / "logs" / "run_eval_0.log").read_text()
    refused = "Error response from daemon" in log or "docker: open /etc/ci/eval.env" in log
    assert not (run / "rollouts.jsonl").exists() and refused, log[-2000:]

    report = diagnose(run)

    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "container_option_this_node_cannot_honour"), [
        f.title for f in report.causes]
    assert top.title == (f"run_eval.sh:4 starts its container with `{option}`, which this node's Docker cannot "
                         "honour: the engine refused to start it")
    assert f"drop `{option}`" in top.fix and "Check the Docker engine" not in top.fix


@pytest.mark.parametrize("tmp", ["", "--tmpfs /tmp "], ids=["no_tmpfs", "tmpfs"])
def test_a_model_server_container_started_read_only_without_a_writable_tmp_stops_at_start(tmp_path: Path,
                                                                                          tmp: str) -> None:
    """The serving template hardens the policy container with `--read-only`: with no tmpfs on /tmp, the server cannot
    write its ready file there and stops at start, and nothing is collected (model serving, the option named). With
    `--tmpfs /tmp`, the read-only container serves and the run is healthy."""
    docker_engine()
    run, checkpoint = string_match_run(tmp_path, 6)
    port, name = free_loopback_port(), f"gp-test-ro-{uuid.uuid4().hex[:12]}"  # both twins may run at once
    mounts = " ".join(f"-v {path}:{path}:ro" for path in dict.fromkeys(
        [Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve(), PROJECT, checkpoint]))
    (run / "serve_policy.sh").write_text(
        "#!/bin/bash\n# the serving team's hardened container template\n"
        f"docker run -d --name {name} --read-only {tmp}--cap-drop ALL --network host {mounts} -e PYTHONPATH={PROJECT} "
        f"{DEFAULT_IMAGE} {CLI} serve-policy --checkpoint {checkpoint} --port {port} --ready-file /tmp/policy.ready\n")
    (run / "run_eval.sh").write_text(
        "#!/bin/bash\nbash serve_policy.sh\n"
        f"for i in $(seq 90); do (echo > /dev/tcp/127.0.0.1/{port}) 2>/dev/null && break; "
        f"[ \"$(docker inspect -f '{{{{.State.Running}}}}' {name})\" = true ] || break; sleep 1; done\n"
        f"docker logs {name} > logs/serve_policy.log 2>&1\n"
        f"{CLI} materialize --input data.jsonl --num-repeats 2 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
        f"--model-url http://127.0.0.1:{port}/v1 --env string_match --concurrency 4\n")
    try:
        run_eval_script(run)
    finally:
        subprocess.run(["docker", "rm", "-f", name], capture_output=True, timeout=60)

    report = diagnose(run)

    if tmp:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "read_only_container_without_a_writable_tmp"), [
        f.title for f in report.causes]
    assert top.title.startswith("serve_policy.sh:3 starts its container with `--read-only` and no writable /tmp")
    assert "`--tmpfs /tmp`" in top.fix


@pytest.mark.parametrize("link", ["absolute", "relative"])
def test_a_model_server_container_serving_an_absolute_link_to_a_host_path_stops_at_start(tmp_path: Path,
                                                                                         link: str) -> None:
    """The trainer keeps `latest` as an absolute symlink to its newest checkpoint; the serving script mounts the
    checkpoints folder at /ckpt and serves /ckpt/latest. In the container the link points at a host path that is not
    mounted: the server stops at start and nothing is collected (model serving, the link and the mount named). A
    relative link resolves inside the mount: healthy."""
    docker_engine()
    run, checkpoint = string_match_run(tmp_path, 6)
    (checkpoint.parent / "latest").symlink_to(checkpoint if link == "absolute" else Path(checkpoint.name))
    port, name = free_loopback_port(), f"gp-test-link-{uuid.uuid4().hex[:12]}"  # both twins may run at once
    mounts = " ".join(f"-v {path}:{path}:ro" for path in dict.fromkeys(
        [Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve(), PROJECT]))
    (run / "serve_policy.sh").write_text(
        "#!/bin/bash\n# serve the newest exported checkpoint in the policy container\n"
        f"echo '== exported checkpoints:'; ls -l {checkpoint.parent}\n"
        f"docker run -d --name {name} --network host {mounts} -e PYTHONPATH={PROJECT} \\\n"
        f"  -v {checkpoint.parent}:/ckpt:ro {DEFAULT_IMAGE} {CLI} serve-policy --checkpoint /ckpt/latest --port {port}\n")
    (run / "run_eval.sh").write_text(
        "#!/bin/bash\nbash serve_policy.sh > logs/serve_policy.log 2>&1\n"
        f"for i in $(seq 90); do (echo > /dev/tcp/127.0.0.1/{port}) 2>/dev/null && break; "
        f"[ \"$(docker inspect -f '{{{{.State.Running}}}}' {name})\" = true ] || break; sleep 1; done\n"
        f"docker logs {name} >> logs/serve_policy.log 2>&1\n"
        f"{CLI} materialize --input data.jsonl --num-repeats 2 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
        f"--model-url http://127.0.0.1:{port}/v1 --env string_match --concurrency 4\n")
    try:
        run_eval_script(run)
    finally:
        subprocess.run(["docker", "rm", "-f", name], capture_output=True, timeout=60)

    report = diagnose(run)

    if link == "relative":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "container_serves_a_link_to_a_host_path"), [
        f.title for f in report.causes]
    assert top.evidence[1].where == "serve_policy.sh:5"  # the mount, on the continued line
    assert f"`ln -sfn {checkpoint.name} latest`" in top.fix


@pytest.mark.parametrize("address", ["127.0.0.2", "127.0.0.1"])
def test_a_collect_container_mapping_the_servers_name_to_an_address_it_does_not_listen_on(tmp_path: Path,
                                                                                         address: str) -> None:
    """The CI template's `--add-host policy-server:<address>` (written where the server listens on every address)
    sends the container's requests to an address the loopback-bound server does not listen on: every request is
    refused (infra: the mapping named, not the server's `--host`). Mapped to 127.0.0.1, the container collects."""
    docker_engine()
    script = ("MODEL=URL\nMODEL=${MODEL/127.0.0.1/policy-server}   # the server's name, as in the CI template\n"
              + collect_in_container(tmp_path / "run", f"--add-host policy-server:{address}")
              .replace("--model-url URL", "--model-url $MODEL"))
    run = run_scripts(tmp_path, [script])

    report = diagnose(run)

    if address == "127.0.0.1":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "endpoint_not_where_server_listens"), [f.title for f in report.causes]
    assert top.title.startswith("run_eval.sh:6 maps policy-server to 127.0.0.2 in the container (`--add-host`)")
    assert "`--add-host policy-server:127.0.0.1` with `--network host`" in top.fix


@pytest.mark.parametrize("template", ["-e PYTHONPATH=/opt/team-tools/lib", "-e TEAM_TOOLS=/opt/team-tools/lib"],
                         ids=["pythonpath_again", "own_variable"])
def test_a_template_giving_the_container_its_pythonpath_again_replaces_the_checkouts(tmp_path: Path,
                                                                                    template: str) -> None:
    """The team tools template's `-e PYTHONPATH=/opt/team-tools/lib`, pasted after the run's own `-e PYTHONPATH=
    <tools>`: Docker keeps the last, and the container cannot import the run's collect wrapper (infra, both options
    named). The template's own variable name leaves the run's PYTHONPATH: the container collects."""
    docker_engine()
    tools = tmp_path / "run" / "tools"  # the team's wrapper around collect, found through PYTHONPATH
    script = (collect_in_container(tmp_path / "run", "")
              .replace(f"-e PYTHONPATH={PROJECT} ", f"-e PYTHONPATH={tools} {template} ")
              .replace(f"{DEFAULT_IMAGE} {CLI} collect", f"{DEFAULT_IMAGE} {sys.executable} -m eval_wrapper collect"))
    run = run_scripts(tmp_path, [script], files={
        "tools/eval_wrapper.py": "from gym_pipeline.cli import main\n\nraise SystemExit(main())\n"})

    report = diagnose(run)

    if "TEAM_TOOLS" in template:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "container_variable_given_twice"), [f.title for f in report.causes]
    assert top.fix.startswith(f"In run_eval.sh (line 4), give `PYTHONPATH` once, with both folders: "
                              f"`-e PYTHONPATH={tools}:/opt/team-tools/lib`")
