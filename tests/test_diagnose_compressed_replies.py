"""A user's gateway in front of the simulated policy, run for real, that gzips every completion to save bandwidth: without
a `Content-Encoding` header the client reads gzip bytes as JSON, and every model call fails with status 200. The
diagnosis names the gateway's line. Sending the header, the same gateway is no finding: the client decompresses.
"""

import subprocess
import sys
import time
from pathlib import Path

import pytest

from gym_pipeline.core.materialize import MaterializationSettings, materialize_file
from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment
from gym_pipeline.host import free_loopback_port
from gym_pipeline.serving.checkpoints import demo_checkpoints

CLI = [sys.executable, "-m", "gym_pipeline.cli"]
GATEWAY = '''"""gateway.py: the team's gateway; completions are gzip-compressed to save bandwidth on the site link."""
import gzip
import sys
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

UPSTREAM = sys.argv[2]
SAY_SO = {say_so}


class Gateway(BaseHTTPRequestHandler):
    def _forward(self, body):
        request = urllib.request.Request(UPSTREAM + self.path, data=body, method=self.command,
                                         headers={{"Content-Type": "application/json"}})
        with urllib.request.urlopen(request, timeout=120) as answer:
            status, data = answer.status, answer.read()
        if body is not None:  # the completions: the large replies
            data = gzip.compress(data)
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        if SAY_SO and body is not None:
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self._forward(None)

    def do_POST(self):
        self._forward(self.rfile.read(int(self.headers["Content-Length"])))

    def log_message(self, *args):
        pass


ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Gateway).serve_forever()
'''


@pytest.mark.parametrize("say_so", [False, True])
def test_replies_gzipped_by_a_gateway_without_the_header_fail_every_call(tmp_path: Path, say_so: bool) -> None:
    environment = get_environment("string_match")
    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 1, ["string_match"])[0]
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (run / "gateway.py").write_text(GATEWAY.format(say_so=say_so))
    inputs = run / "rollouts_materialized_inputs.jsonl"
    materialize_file(environment.dataset_path, inputs, MaterializationSettings(2, environment.agent_name))
    port, gateway_port = free_loopback_port(), free_loopback_port()
    with (run / "logs" / "model_server.log").open("w") as log:
        server = subprocess.Popen([*CLI, "serve-policy", "--checkpoint", str(checkpoint), "--port", str(port)],
                                  stdout=log, stderr=subprocess.STDOUT)
    gateway = subprocess.Popen([sys.executable, str(run / "gateway.py"), str(gateway_port), f"http://127.0.0.1:{port}"])
    try:
        time.sleep(2.5)
        with (run / "logs" / "collect.log").open("w") as log:
            subprocess.run([*CLI, "collect", "--inputs", str(inputs), "--output", str(run / "rollouts.jsonl"),
                            "--model-url", f"http://127.0.0.1:{gateway_port}/v1", "--env", "string_match"],
                           stdout=log, stderr=subprocess.STDOUT, timeout=180)
    finally:
        for process in (gateway, server):
            process.terminate()
            process.wait(10)

    report = diagnose(run)

    if say_so:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "compressed_replies"), [f.title for f in report.causes]
    assert top.fix.startswith("gateway.py:18 (`data = gzip.compress(data)`) compresses what it sends back")
