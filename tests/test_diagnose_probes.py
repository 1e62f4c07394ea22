"""Live probes against a real HTTP server on loopback (aiohttp) and a closed port."""

from __future__ import annotations

import asyncio
import shutil
import socket
import threading

import pytest
from aiohttp import web
from conftest import FIXTURES

from gym_pipeline.diagnose import diagnose, render_text
from gym_pipeline.diagnose.probes import DEFAULT_SOURCE, MODEL, PORT, ProbeTarget, allowed, probe


@pytest.fixture(scope="module")
def server():
    """A loopback server answering like a model endpoint and Gym's head server; 401 under /secure."""

    async def models(request: web.Request) -> web.Response:
        return web.json_response({"object": "list", "data": [{"id": "sim-policy", "object": "model"}]})

    async def instances(request: web.Request) -> web.Response:
        return web.json_response([{"name": "policy_model", "port": 14690}, {"name": "string_match", "port": 16591}])

    async def secure(request: web.Request) -> web.Response:
        return web.json_response({"error": "missing key"}, status=401)

    app = web.Application()
    app.router.add_get("/v1/models", models)
    app.router.add_get("/server_instances", instances)
    app.router.add_get("/secure/v1/models", secure)
    loop = asyncio.new_event_loop()
    runner = web.AppRunner(app)
    loop.run_until_complete(runner.setup())
    site = web.TCPSite(runner, "127.0.0.1", 0)
    loop.run_until_complete(site.start())
    port = runner.addresses[0][1]
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}"
    loop.call_soon_threadsafe(loop.stop)
    thread.join()
    loop.run_until_complete(runner.cleanup())
    loop.close()


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def env_log(head_url: str, server_url: str, shut_down: bool) -> str:
    """The fixture's `gym env start` log with the head server and policy_model on the given addresses,
    and its other servers on ports nothing listens on (this machine's own servers must not matter)."""
    text = (FIXTURES / "logs" / "env_start_ok.log").read_text()
    text = text.replace("http://127.0.0.1:11000", head_url).replace("http://127.0.0.1:14690", server_url)
    for port in ("11812", "16591", "18041"):
        text = text.replace(f"127.0.0.1:{port}", f"127.0.0.1:{closed_port()}")
    if not shut_down:
        text = text[: text.index("(string_match_environment_server) INFO:     Shutting down")]
    return text


def test_probe_a_live_model_head_server_and_ports(server):
    closed = closed_port()
    host_port = server.removeprefix("http://")
    results = probe([
        ProbeTarget(MODEL, f"{server}/v1", "logs/model_server.log:1"),
        ProbeTarget(MODEL, f"{server}/secure/v1", "given"),
        ProbeTarget(MODEL, f"http://127.0.0.1:{closed}/v1", "given"),
        ProbeTarget("head_server", server, DEFAULT_SOURCE),
        ProbeTarget(PORT, host_port, "env.log:16", "head server"),
        ProbeTarget(PORT, f"127.0.0.1:{closed}", "env.log:39", "policy_model"),
    ])
    assert [(r.ok, r.detail) for r in results] == [
        (True, "HTTP 200, serves sim-policy"),
        (True, "HTTP 401 Unauthorized"),
        (False, "connection refused: nothing listens there"),
        (True, "HTTP 200, 2 server instance(s) registered"),
        (False, "in use: a process is listening on it"),
        (True, "free"),
    ]
    assert results[0].evidence().file == f"probe: GET {server}/v1/models"


def test_only_loopback_or_the_runs_own_addresses_are_probed():
    assert allowed(ProbeTarget(MODEL, "http://127.0.0.1:8000/v1", DEFAULT_SOURCE))
    assert allowed(ProbeTarget(MODEL, "http://0.0.0.0:8000", "vllm.log:3"))  # listening everywhere: loopback
    assert allowed(ProbeTarget(MODEL, "http://gpu-node-07:8000/v1", "logs/env.log:2"))  # named by the run's files
    assert not allowed(ProbeTarget(MODEL, "http://gpu-node-07:8000/v1", DEFAULT_SOURCE))
    assert not allowed(ProbeTarget(PORT, "192.0.2.1:8000", "logs/env.log:2"))
    assert probe([ProbeTarget(PORT, "192.0.2.1:8000", "logs/env.log:2")]) == []


def test_live_servers_whose_head_server_is_gone(tmp_path, server):
    dead = f"http://127.0.0.1:{closed_port()}"
    (tmp_path / "env_start.log").write_text(env_log(dead, server, shut_down=False))
    report = diagnose(tmp_path, probe=True)
    assert report.category == "infra", [f.title for f in report.findings]
    [finding] = report.findings
    assert finding.title.startswith("The head server does not answer, though the log says the servers are up")
    assert finding.evidence[0].file == f"probe: GET {dead}/server_instances"
    assert "address from env_start.log:16" in finding.evidence[0].text
    probes = {p["kind"]: p for p in report.summary["probes"]}
    assert probes["head_server"]["ok"] is False
    assert "Probes: " in render_text(report)


def test_model_endpoint_down_while_the_run_is_incomplete(tmp_path, server):
    shutil.copytree(FIXTURES / "partial_run_with_failures", tmp_path / "run")
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    dead = f"http://127.0.0.1:{closed_port()}/v1"
    (run / "logs" / "model_server.log").write_text(f"SIMULATED_POLICY_READY {dead}\n")
    report = diagnose(run, probe=True)
    assert report.findings[0].title == "The model endpoint does not answer now: connection refused: nothing listens there"
    assert report.findings[0].category == "model_serving"
    # the caller's URL is probed too, and answers
    report = diagnose(run, probe=True, model_url=f"{server}/v1")
    assert [p["ok"] for p in report.summary["probes"] if p["kind"] == "model"] == [True, False]


def test_a_finished_run_whose_ports_are_still_held(tmp_path, server):
    (tmp_path / "env_start.log").write_text(env_log(f"http://127.0.0.1:{closed_port()}", server, shut_down=True))
    report = diagnose(tmp_path, probe=True)
    [finding] = report.findings
    assert finding.category == "infra"
    assert finding.title.startswith("1 port of this run's servers still held by another process")
    assert "(policy_model)" in finding.title
    assert f"ss -ltnp 'sport = :{server.rpartition(':')[2]}'" in finding.fix


def test_a_healthy_finished_run_stays_healthy_when_probed(tmp_path):
    shutil.copytree(FIXTURES / "clean_run", tmp_path / "run")
    run = tmp_path / "run"
    (run / "env_start.log").write_text(env_log(f"http://127.0.0.1:{closed_port()}",
                                               f"http://127.0.0.1:{closed_port()}", shut_down=True))
    report = diagnose(run, probe=True)
    assert report.category == "healthy"
    # the servers shut down as they should: nothing answers, and nothing holds their ports
    assert {p["kind"] for p in report.summary["probes"]} == {"head_server", "port"}
    assert not any(p["ok"] for p in report.summary["probes"] if p["kind"] == "head_server")
