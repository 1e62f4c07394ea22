"""Model servers per checkpoint started through the launchers: the simulated policy on a local process, a
Docker container and a Slurm job (integration: the real services, as in test_launchers_docker.py and
test_launchers_slurm.py), and the vllm kind, exercised with command templates that run stand-in servers
(vLLM itself needs a GPU).

Every server started here has the checkpoint folder (a unique temporary path) among its arguments, so a
test can tell that nothing of it is left running once the `with` block is over.
"""

import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import docker
import orjson
import pytest
from launcher_support import docker_engine, processes_with, record, slurm_cluster, wait_for

from gym_pipeline.config import ConfigError, ModelServerConfig
from gym_pipeline.core.fingerprint import folder_digest
from gym_pipeline.launchers.settings import (
    DockerLauncherSettings,
    LocalLauncherSettings,
    SlurmLauncherSettings,
)
from gym_pipeline.serving.checkpoints import demo_checkpoints
from gym_pipeline.serving.servers import Endpoint, ModelServerError, serve_checkpoint

SIMULATED_POLICY_COMMAND = [sys.executable, "-m", "gym_pipeline.cli", "serve-policy",
                            "--checkpoint", "{checkpoint_dir}", "--port", "{port}"]
# A stand-in for `vllm serve --api-key`: lists the checkpoint only to a request bearing VLLM_API_KEY.
KEYED_SERVER = """
import http.server, json, os, sys
class Models(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.headers.get("Authorization") != "Bearer " + os.environ["VLLM_API_KEY"]:
            self.send_error(401)
            return
        body = json.dumps(dict(object="list", data=[dict(id=sys.argv[2])])).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), Models).serve_forever()
"""
API_KEY = "sk-test-model-server-key-0123456789"


@pytest.fixture
def checkpoint_dir(tmp_path) -> Path:
    return demo_checkpoints(tmp_path / "checkpoints", 1, ["string_match"])[0]


@pytest.fixture
def run_dir(tmp_path) -> Path:
    return tmp_path / "runs" / "step_0100" / "string_match"


def serve(settings: ModelServerConfig, checkpoint_dir: Path, run_dir: Path, launcher_settings=None):
    return serve_checkpoint(settings, checkpoint_dir.name, checkpoint_dir, run_dir, launcher_settings=launcher_settings)


def chat_answer(endpoint: Endpoint) -> str:
    body = {"model": endpoint.model_name, "messages": [{"role": "user", "content": "What is 2 + 2?"}]}
    request = urllib.request.Request(endpoint.url + "/chat/completions", data=orjson.dumps(body),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return orjson.loads(answer.read())["choices"][0]["message"]["content"]


def answers(endpoint: Endpoint) -> bool:
    try:
        with urllib.request.urlopen(endpoint.url + "/models", timeout=5):
            return True
    except (urllib.error.URLError, OSError):
        return False


def assert_served_and_gone(endpoint: Endpoint, checkpoint_dir: Path, run_dir: Path) -> None:
    """After the block: the URL is dead, no process of the server is left, the launcher says it stopped it."""
    assert not answers(endpoint)
    # a Slurm job leaves the queue once its step is signalled; on a loaded node its process may take a moment to exit
    assert wait_for(lambda: processes_with(str(checkpoint_dir)) == [], timeout_s=30), processes_with(str(checkpoint_dir))
    recorded = record(run_dir, "model_server")
    assert recorded["stopped_by_launcher"] == "after serving" and "exit_code" not in recorded


# --- the simulated policy through each launcher ------------------------------------------------------


def test_the_simulated_policy_runs_on_the_local_launcher(checkpoint_dir, run_dir):
    with serve(ModelServerConfig(), checkpoint_dir, run_dir, LocalLauncherSettings(grace_period_s=5)) as endpoint:
        assert chat_answer(endpoint)
        assert endpoint.launcher == {"launcher": "local", "pid": endpoint.pid}
        assert processes_with(str(checkpoint_dir)) == [endpoint.pid]
        assert endpoint.model_name and endpoint.checkpoint_digest == folder_digest(checkpoint_dir)
        assert endpoint.url.startswith("http://127.0.0.1:")

    assert_served_and_gone(endpoint, checkpoint_dir, run_dir)
    assert "SIMULATED_POLICY_READY" in (run_dir / "logs" / "model_server.log").read_text()


@pytest.fixture(scope="module")
def engine() -> docker.DockerClient:
    return docker_engine()


@pytest.mark.integration
def test_the_simulated_policy_runs_in_a_container_on_the_host_network(checkpoint_dir, run_dir, engine):
    settings = DockerLauncherSettings(network="host", grace_period_s=2)
    with serve(ModelServerConfig(), checkpoint_dir, run_dir, settings) as endpoint:
        assert chat_answer(endpoint)
        container_id = endpoint.launcher["container_id"]
        assert endpoint.launcher["launcher"] == "docker" and engine.containers.get(container_id).status == "running"

    assert_served_and_gone(endpoint, checkpoint_dir, run_dir)
    assert engine.containers.list(all=True, filters={"id": container_id}) == []


def test_a_container_without_the_host_network_is_refused_before_it_starts(checkpoint_dir, run_dir):
    with pytest.raises(ModelServerError, match="network to host"), \
            serve(ModelServerConfig(), checkpoint_dir, run_dir, DockerLauncherSettings(network="none")):
        pass


@pytest.fixture(scope="module")
def cluster() -> None:
    slurm_cluster()


@pytest.mark.integration
def test_the_simulated_policy_runs_as_a_slurm_job(checkpoint_dir, run_dir, cluster):
    settings = SlurmLauncherSettings(poll_interval_s=0.3, exit_file_grace_s=10, cancel_timeout_s=60)
    with serve(ModelServerConfig(), checkpoint_dir, run_dir, settings) as endpoint:
        assert chat_answer(endpoint)
        job_id = endpoint.launcher["slurm_job_id"]
        assert endpoint.launcher["launcher"] == "slurm" and job_id

    assert_served_and_gone(endpoint, checkpoint_dir, run_dir)
    queued = subprocess.run(["squeue", "-h", "-j", job_id], capture_output=True, text=True, timeout=30)
    assert queued.stdout.strip() == ""


# --- the vllm kind ---------------------------------------------------------------------------------------


def test_the_vllm_kind_runs_its_command_template_on_a_local_process_by_default(checkpoint_dir, run_dir):
    settings = ModelServerConfig(kind="vllm", command=SIMULATED_POLICY_COMMAND, extra_args=["--latency-ms", "1"])
    with serve(settings, checkpoint_dir, run_dir) as endpoint:
        assert chat_answer(endpoint)
        assert endpoint.launcher == {"launcher": "local", "pid": endpoint.pid}
        assert endpoint.checkpoint_digest == folder_digest(checkpoint_dir)
        command = record(run_dir, "model_server")["command"]
        assert f"--checkpoint {checkpoint_dir} --port {urlsplit(endpoint.url).port}" in command
        assert command.endswith("--latency-ms 1")

    assert_served_and_gone(endpoint, checkpoint_dir, run_dir)


def test_the_vllm_kind_gets_its_api_key_through_the_environment_and_probes_with_it(
        checkpoint_dir, run_dir, monkeypatch):
    monkeypatch.setenv("SERVED_MODEL_KEY", API_KEY)
    settings = ModelServerConfig(kind="vllm", api_key_env="SERVED_MODEL_KEY",
                                 command=[sys.executable, "-c", KEYED_SERVER, "{port}", "{checkpoint}"])
    with serve(settings, checkpoint_dir, run_dir) as endpoint:
        # The stand-in answered the readiness probe only because it got the bearer its environment holds.
        assert endpoint.model_name == checkpoint_dir.name and endpoint.api_key == API_KEY
        server = Path("/proc") / str(endpoint.pid)
        assert f"VLLM_API_KEY={API_KEY}".encode() in (server / "environ").read_bytes().split(b"\0")
        assert API_KEY.encode() not in (server / "cmdline").read_bytes()

    recorded = (run_dir / "logs" / "launcher_model_server.json").read_text()
    assert API_KEY not in recorded and record(run_dir, "model_server")["env_names"] == ["VLLM_API_KEY"]
    assert_served_and_gone(endpoint, checkpoint_dir, run_dir)


def test_the_vllm_kind_refuses_an_api_key_variable_that_is_not_set(checkpoint_dir, run_dir, monkeypatch):
    monkeypatch.delenv("SERVED_MODEL_KEY", raising=False)
    settings = ModelServerConfig(kind="vllm", api_key_env="SERVED_MODEL_KEY", command=SIMULATED_POLICY_COMMAND)
    with pytest.raises(ConfigError, match="SERVED_MODEL_KEY, which is not set"), \
            serve(settings, checkpoint_dir, run_dir):
        pass


def test_a_missing_vllm_executable_is_reported_before_anything_starts(checkpoint_dir, run_dir, monkeypatch):
    monkeypatch.setenv("PATH", str(run_dir.parent))  # no `vllm` there (nor anywhere here: no GPU)
    with pytest.raises(ModelServerError, match=r"'vllm' is not an executable on PATH.*pip install vllm"), \
            serve(ModelServerConfig(kind="vllm"), checkpoint_dir, run_dir):
        pass
    assert not (run_dir / "logs" / "launcher_model_server.json").exists()


@pytest.mark.parametrize(("service", "launcher_settings", "not_found"), [
    pytest.param("engine", DockerLauncherSettings(grace_period_s=2), "exec vllm failed: No such file or directory",
                 marks=pytest.mark.integration),
    pytest.param("cluster", SlurmLauncherSettings(poll_interval_s=0.3, exit_file_grace_s=10), "vllm: command not found",
                 marks=pytest.mark.integration),
])
def test_a_vllm_missing_where_the_server_runs_is_named_with_the_log(
        service, launcher_settings, not_found, checkpoint_dir, run_dir, request):
    request.getfixturevalue(service)
    with pytest.raises(ModelServerError) as failure, \
            serve(ModelServerConfig(kind="vllm"), checkpoint_dir, run_dir, launcher_settings):
        pass

    message = str(failure.value)
    assert "vLLM server exited with code 127 before it was ready" in message
    assert "is 'vllm' installed where the server runs?" in message and not_found in message


def test_a_server_that_exits_before_it_is_ready_fails_with_its_log(checkpoint_dir, run_dir):
    crashing = [sys.executable, "-c", "import sys; print('loading weights'); sys.exit('CUDA out of memory')",
                "--port", "{port}"]
    with pytest.raises(ModelServerError) as failure, \
            serve(ModelServerConfig(kind="vllm", command=crashing), checkpoint_dir, run_dir):
        pass

    message = str(failure.value)
    assert message.startswith("vLLM server exited with code 1 before it was ready (checkpoint step_0100, local")
    assert "loading weights\nCUDA out of memory" in message and str(run_dir / "logs" / "model_server.log") in message
    assert record(run_dir, "model_server")["exit_code"] == 1


def test_a_server_that_never_gets_ready_is_stopped_at_the_timeout(checkpoint_dir, run_dir):
    loading_forever = [*SIMULATED_POLICY_COMMAND, "--slow-start-s", "600"]  # answers 503, like a loading vLLM
    settings = ModelServerConfig(kind="vllm", command=loading_forever, startup_timeout_s=3)
    with pytest.raises(ModelServerError, match=r"^vLLM server not ready after 3s \(checkpoint step_0100, local "
                                               r"launcher; http://127\.0\.0\.1:\d+/v1/models: .+\); stopped it"), \
            serve(settings, checkpoint_dir, run_dir, LocalLauncherSettings(grace_period_s=5)):
        pass

    assert processes_with(str(checkpoint_dir)) == []
    assert record(run_dir, "model_server")["stopped_by_launcher"] == "StageNotReadyError"


@pytest.mark.parametrize(("command", "error"), [
    (["vllm", "serve", "{checkpoint_dir}"], "must pass {port}"),
    (["vllm", "serve", "{model}", "--port", "{port}"], "found ['model']"),
    (["vllm", "serve", "--port", "{port", "{checkpoint_dir}"], "expected '}'"),
    (["vllm", "--override-generation-config", '{"temperature": 0}', "--port", "{port}"], "literal braces"),
])
def test_command_templates_are_checked_when_the_config_loads(command, error):
    with pytest.raises(ValueError, match="command") as invalid:
        ModelServerConfig(kind="vllm", command=command)
    assert error in str(invalid.value)

