"""A user's proxy in front of the simulated policy, run for real, that changes what passes through it.

A gateway with a playground's cost guard caps max_tokens, and a logging proxy writes its log preview back into the
response: the collection through either scores 0 where the model answered right, and the diagnosis names the
proxy's line. A gateway answering the model server's errors with a fixed fallback reply, and a CI mock server the
model URL still names, give many tasks one reply. A gateway whose switch (`PLAIN_TEXT = True`) turns on an edit of
every answer fails the rollouts; with the switch off it is no finding. A gateway pacing each request to its quota
(`RATE_PER_S`), or letting one request through at a time (`UPSTREAM_CONNECTIONS = 1`), is what a time budget then
ends; at a rate or a number far above the run's it is no finding. A gateway refusing bodies over a size limit
(`MAX_BODY_BYTES`) with 413, or converting every reply to the legacy completions shape (`LEGACY_FORMAT = True`),
fails the model calls it answers, and the finding names its setting; with the limit above every request or the
switch off it is no finding. The same proxy forwarding unchanged is no finding. A gateway pinning every request to
its default model (`DEFAULT_MODEL`), or serving one request at a time (`HTTPServer`), is named with that setting in the
model-serving or throughput finding it causes; forwarding the run's model, or on a `ThreadingHTTPServer`, it is not.
A gateway deriving a PBKDF2 hash of each request's API key is named with its iterations when the budget ends the run.
A gateway sending the length of a reply's text as its Content-Length cuts the replies holding non-ASCII characters.
"""

import subprocess
import sys
import time
from pathlib import Path

import pytest
from launcher_support import wait_for
from script_support import SERVERS_START_WAIT_S, listening

from gym_pipeline.core.materialize import MaterializationSettings, materialize_file
from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment
from gym_pipeline.host import free_loopback_port
from gym_pipeline.serving.checkpoints import demo_checkpoints

CLI = [sys.executable, "-m", "gym_pipeline.cli"]
RULE = "proxy_rewrites_the_exchange"
PROXY = '''"""The team's gateway: forwards to the model server."""
import json
import sys
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, HTTPServer, ThreadingHTTPServer

UPSTREAM = sys.argv[2]
MAX_TOKENS_CAP = 32  # playground: keep the demo answers short and cheap
PREVIEW_CHARS = 60
FALLBACK_REPLY = "Sorry, I can't answer that right now. Please try again in a moment."
PLAIN_TEXT = {plain_text}  # the chat UI shows one paragraph: the last line (a sign-off) is dropped
RATE_PER_S = {rate}  # the shared server's fair-use quota per client
PACE = threading.Lock()
{setup}


class Gateway(BaseHTTPRequestHandler):
    def do_GET(self):
        self._forward(None)

    def do_POST(self):
        request_json = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        {request_edit}
        self._forward(request_json)

    def _forward(self, request_json):
        data = None if request_json is None else json.dumps(request_json).encode()
        request = urllib.request.Request(UPSTREAM + self.path, data=data, headers={{"Content-Type": "application/json"}})
        try:
            with urllib.request.urlopen(request) as answer:
                body = json.loads(answer.read())
        except urllib.error.HTTPError as error:
            {on_error}
        for choice in body.get("choices", []):
            message = choice["message"]
            {response_edit}
        payload = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


{server}(("127.0.0.1", int(sys.argv[1])), Gateway).serve_forever()
'''


def _where(run: Path, start: str) -> str:
    """`gateway.py:<line>` of the gateway's first line that starts with `start`."""
    lines = (run / "gateway.py").read_text().splitlines()
    return f"gateway.py:{next(n for n, line in enumerate(lines, 1) if line.strip().startswith(start))}"


FALLBACK = ('body = {"id": "fallback", "object": "chat.completion", "created": 0, "model": "sim-policy", '
            '"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", '
            '"content": FALLBACK_REPLY}}], "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}}')


def _through_proxy(tmp_path: Path, request_edit: str = "pass", response_edit: str = "pass", on_error: str = "raise",
                   *policy_options: str, plain_text: bool = False, rate: int = 4, budget_s: int | None = None,
                   setup: str = "", server: str = "ThreadingHTTPServer") -> Path:
    environment = get_environment("string_match")
    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 1, ["string_match"])[0]
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (run / "gateway.py").write_text(PROXY.format(request_edit=request_edit, response_edit=response_edit,
                                                 on_error=on_error, plain_text=plain_text, rate=rate,
                                                 setup=setup, server=server))
    inputs = run / "rollouts_materialized_inputs.jsonl"
    materialize_file(environment.dataset_path, inputs, MaterializationSettings(2, environment.agent_name))
    port, proxy_port = free_loopback_port(), free_loopback_port()
    with (run / "logs" / "model_server.log").open("w") as log:
        server = subprocess.Popen([*CLI, "serve-policy", "--checkpoint", str(checkpoint), "--port", str(port),
                                   *policy_options], stdout=log, stderr=subprocess.STDOUT)
    proxy = subprocess.Popen([sys.executable, str(run / "gateway.py"), str(proxy_port), f"http://127.0.0.1:{port}"])
    try:
        # both listening before the collection starts (a loaded machine starts Python slowly), not a fixed sleep
        assert wait_for(lambda: listening(port) and listening(proxy_port), SERVERS_START_WAIT_S)
        with (run / "logs" / "collect.log").open("w") as log:
            budget = ["timeout", str(budget_s)] if budget_s else []
            subprocess.run([*budget, *CLI, "collect", "--inputs", str(inputs), "--output", str(run / "rollouts.jsonl"),
                            "--model-url", f"http://127.0.0.1:{proxy_port}/v1", "--env", "string_match"],
                           stdout=log, stderr=subprocess.STDOUT, timeout=180)
    finally:
        for process in (proxy, server):
            process.terminate()
            process.wait(10)
    return run


def test_a_gateway_capping_max_tokens_cuts_every_answer(tmp_path: Path) -> None:
    run = _through_proxy(tmp_path, request_edit='request_json["max_tokens"] = MAX_TOKENS_CAP')

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("model_serving", RULE)
    assert top.title.startswith("gateway.py, the proxy before the model server, caps max_tokens (MAX_TOKENS_CAP = 32")
    assert "Take the cap out of gateway.py (`MAX_TOKENS_CAP`" in top.fix


def test_a_proxy_writing_its_log_preview_into_the_response_cuts_every_answer(tmp_path: Path) -> None:
    run = _through_proxy(tmp_path, response_edit='message["content"] = message["content"][:PREVIEW_CHARS]')

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("model_serving", RULE)
    assert "cuts each answer to 60 characters" in top.title
    assert "shorten a copy for the log line and forward the response unchanged" in top.fix


def test_a_proxy_forwarding_unchanged_is_no_finding(tmp_path: Path) -> None:
    run = _through_proxy(tmp_path)

    assert all(f.id != RULE for f in diagnose(run).findings)


def test_a_gateway_answering_backend_errors_with_a_fallback_reply_gives_many_tasks_one_reply(tmp_path: Path) -> None:
    run = _through_proxy(tmp_path, "pass", "pass", FALLBACK, "--fault-rate", "0.5", "--fault-kinds", "5xx",
                         "--fault-seed", "7")

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("model_serving", "one_reply_to_different_prompts")
    assert top.evidence[1].where == _where(run, "FALLBACK_REPLY =")
    assert "instead of sending `FALLBACK_REPLY` as an answer" in top.fix


def test_a_gateway_passing_backend_errors_on_gives_no_one_reply(tmp_path: Path) -> None:
    run = _through_proxy(tmp_path, "pass", "pass", "raise", "--fault-rate", "0.5", "--fault-kinds", "5xx",
                         "--fault-seed", "7")

    assert all(f.id != "one_reply_to_different_prompts" for f in diagnose(run).findings)


MOCK = '''"""CI stand-in for the model server: one fixed answer, so pipeline tests need no model."""
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ANSWER = "I am the CI mock. Final answer: 42"


class Mock(BaseHTTPRequestHandler):
    def do_GET(self):
        self._send({"object": "list", "data": [{"id": "sim-policy", "object": "model"}]})

    def do_POST(self):
        self.rfile.read(int(self.headers["Content-Length"]))
        self._send({"id": "mock", "object": "chat.completion", "created": 0, "model": "sim-policy",
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": ANSWER}}],
                    "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}})

    def _send(self, body):
        payload = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Mock).serve_forever()
'''


def _collect(run: Path, url: str, *options: str) -> None:
    with (run / "logs" / "collect.log").open("a") as log:
        subprocess.run([*CLI, "collect", "--inputs", str(run / "rollouts_materialized_inputs.jsonl"), "--output",
                        str(run / "rollouts.jsonl"), "--model-url", url, "--env", "string_match", *options],
                       stdout=log, stderr=subprocess.STDOUT, timeout=180, check=True)


def _with_mock(tmp_path: Path, then_policy: str | None = None) -> Path:
    """A run folder collected against the CI mock (its URL in eval.env); then, if asked, again against the simulated
    policy with `then_policy`'s options."""
    environment = get_environment("string_match")
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (run / "mock_policy.py").write_text(MOCK)
    materialize_file(environment.dataset_path, run / "rollouts_materialized_inputs.jsonl",
                     MaterializationSettings(2, environment.agent_name))
    port = free_loopback_port()
    (run / "eval.env").write_text(f"# from the CI config\nMODEL_URL=http://127.0.0.1:{port}/v1\n")
    mock = subprocess.Popen([sys.executable, str(run / "mock_policy.py"), str(port)])
    try:
        time.sleep(1.5)
        _collect(run, f"http://127.0.0.1:{port}/v1", "--resume")
    finally:
        mock.terminate()
        mock.wait(10)
    if then_policy is not None:
        checkpoint = demo_checkpoints(tmp_path / "checkpoints", 1, ["string_match"])[0]
        policy_port = free_loopback_port()
        with (run / "logs" / "model_server.log").open("w") as log:
            server = subprocess.Popen([*CLI, "serve-policy", "--checkpoint", str(checkpoint), "--port",
                                       str(policy_port)], stdout=log, stderr=subprocess.STDOUT)
        try:
            time.sleep(2.5)
            _collect(run, f"http://127.0.0.1:{policy_port}/v1", *then_policy.split())
        finally:
            server.terminate()
            server.wait(10)
    return run


def test_a_model_url_left_on_the_ci_mock_gives_every_task_its_one_reply(tmp_path: Path) -> None:
    run = _with_mock(tmp_path)

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("model_serving", "one_reply_to_different_prompts")
    assert [line.where for line in top.evidence][1:] == ["mock_policy.py:6", "eval.env:2"]
    assert "(eval.env:2) names the server of mock_policy.py, a stand-in" in top.fix


def test_a_dry_run_against_the_mock_kept_by_the_real_runs_resume(tmp_path: Path) -> None:
    run = _with_mock(tmp_path, then_policy="--resume")
    assert "0 collected, 174 already done" in (run / "logs" / "collect.log").read_text()

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("cache_resume", "one_reply_to_different_prompts")
    assert top.evidence[0].text.startswith("0 collected, 174 already done")
    assert "keep dry runs against a stand-in (mock_policy.py) in their own run folder" in top.fix


def test_the_real_run_over_the_dry_run_without_resume_is_not_blamed(tmp_path: Path) -> None:
    run = _with_mock(tmp_path, then_policy="--concurrency 4")

    assert all(f.id != "one_reply_to_different_prompts" for f in diagnose(run).findings)


PLAIN_TEXT_EDIT = 'if PLAIN_TEXT: message["content"] = "\\n".join(message["content"].splitlines()[:-1])'


def test_a_gateway_switch_that_edits_every_answer_fails_the_rollouts(tmp_path: Path) -> None:
    run = _through_proxy(tmp_path, "pass", PLAIN_TEXT_EDIT, plain_text=True)

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("model_serving", RULE)
    assert [line.where for line in top.evidence] == [_where(run, "PLAIN_TEXT ="), _where(run, "if PLAIN_TEXT")]
    assert "Set `PLAIN_TEXT = False` in gateway.py" in top.fix


def test_the_same_gateway_with_its_switch_off_is_no_finding(tmp_path: Path) -> None:
    run = _through_proxy(tmp_path, "pass", PLAIN_TEXT_EDIT, plain_text=False)

    assert all(f.id != RULE for f in diagnose(run).findings)


PACED = "with PACE:\n            time.sleep(1.0 / RATE_PER_S)"


def test_a_gateway_pacing_requests_to_a_quota_is_named_when_the_budget_ends_the_run(tmp_path: Path) -> None:
    run = _through_proxy(tmp_path, PACED, rate=2, budget_s=20)
    assert "ended by SIGTERM" in (run / "logs" / "collect.log").read_text()

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("throughput_resources", "interrupted_collection")
    assert [line.where for line in top.evidence][1:] == [_where(run, "time.sleep"), _where(run, "RATE_PER_S =")]
    assert f"raise the proxy's limit for it (RATE_PER_S = 2, {_where(run, 'RATE_PER_S =')})" in top.fix


def test_a_gateway_pacing_far_above_the_runs_rate_is_no_finding(tmp_path: Path) -> None:
    run = _through_proxy(tmp_path, PACED, rate=10000, budget_s=60)
    assert "ended by SIGTERM" not in (run / "logs" / "collect.log").read_text()

    assert all(f.id != "interrupted_collection" for f in diagnose(run).findings)


def _one_slot(connections: int) -> str:
    return f"UPSTREAM_CONNECTIONS = {connections}\nSLOTS = threading.BoundedSemaphore(UPSTREAM_CONNECTIONS)"


def test_a_gateway_forwarding_one_request_at_a_time_is_named_when_the_budget_ends_the_run(tmp_path: Path) -> None:
    run = _through_proxy(tmp_path, "SLOTS.acquire()", "SLOTS.release()", "raise", "--latency-ms", "300",
                         budget_s=20, setup=_one_slot(1))
    assert "ended by SIGTERM" in (run / "logs" / "collect.log").read_text()

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("throughput_resources", "interrupted_collection")
    assert [line.where for line in top.evidence][1:] == [_where(run, "SLOTS ="), _where(run, "UPSTREAM_CONNECTIONS =")]
    assert "raise the proxy's limit for it (UPSTREAM_CONNECTIONS = 1," in top.fix


def test_a_gateway_forwarding_many_at_a_time_is_no_finding(tmp_path: Path) -> None:
    run = _through_proxy(tmp_path, "SLOTS.acquire()", "SLOTS.release()", "raise", "--latency-ms", "300",
                         budget_s=90, setup=_one_slot(64))
    assert "ended by SIGTERM" not in (run / "logs" / "collect.log").read_text()

    assert all(f.id != "interrupted_collection" for f in diagnose(run).findings)


REPLIES_RULE = "model_replies_unusable"
SIZE_LIMIT = 'if len(json.dumps(request_json)) > MAX_BODY_BYTES: return self.send_error(413, "request body too large")'
LEGACY = 'if LEGACY_FORMAT: choice["text"] = choice.pop("message")["content"]'


def test_a_gateway_refusing_bodies_over_its_size_limit_is_named_with_the_limit(tmp_path: Path) -> None:
    run = _through_proxy(tmp_path, SIZE_LIMIT, setup="MAX_BODY_BYTES = 200  # copied from the tokenizer service")
    assert '"_ng_failure_http_status":413' in (run / "rollouts_failures.jsonl").read_text()

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("model_serving", REPLIES_RULE)
    assert "refused the requests with HTTP 413 (MAX_BODY_BYTES = 200)" in top.title
    assert [line.where for line in top.evidence][-2:] == [_where(run, "MAX_BODY_BYTES ="), _where(run, "if len(")]
    assert f"Change MAX_BODY_BYTES in gateway.py ({_where(run, 'MAX_BODY_BYTES =')})" in top.fix


def test_a_gateway_with_a_size_limit_above_every_request_is_no_finding(tmp_path: Path) -> None:
    run = _through_proxy(tmp_path, SIZE_LIMIT, setup="MAX_BODY_BYTES = 100000")

    assert all(f.id != REPLIES_RULE for f in diagnose(run).findings)


def test_a_gateway_converting_replies_to_the_legacy_shape_is_named_by_its_switch(tmp_path: Path) -> None:
    run = _through_proxy(tmp_path, "pass", LEGACY, setup="LEGACY_FORMAT = True  # the old report tools read .text")

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("model_serving", REPLIES_RULE)
    assert top.title.startswith("gateway.py, the gateway before the model server, answered with no chat completion "
                                "(LEGACY_FORMAT = True)")
    assert f"Change LEGACY_FORMAT in gateway.py ({_where(run, 'LEGACY_FORMAT =')})" in top.fix


def test_a_reply_of_the_legacy_shape_from_a_gateway_kept_elsewhere_still_points_at_the_model_url(tmp_path) -> None:
    run = _through_proxy(tmp_path, "pass", LEGACY, setup="LEGACY_FORMAT = True")
    (run / "gateway.py").rename(tmp_path / "gateway.py")  # the team's gateway is not part of the run folder

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("model_serving", REPLIES_RULE)
    assert top.title.startswith("What answers at the model URL answered with no chat completion")
    assert "send the run straight to the model server" in top.fix


def test_the_same_gateway_with_the_legacy_switch_off_is_no_finding(tmp_path: Path) -> None:
    run = _through_proxy(tmp_path, "pass", LEGACY, setup="LEGACY_FORMAT = False")

    assert all(f.id != REPLIES_RULE for f in diagnose(run).findings)
    assert diagnose(run).category == "healthy"


PINNED = 'DEFAULT_MODEL = "llama-3-8b-instruct"  # the gateway\'s default deployment'


def test_a_gateway_pinning_every_request_to_its_default_model_is_named_with_its_setting(tmp_path: Path) -> None:
    """The gateway routes every request to its default deployment, a model the server does not serve: every call
    gets 404, and the model-serving finding names the gateway and the setting."""
    run = _through_proxy(tmp_path, 'request_json["model"] = DEFAULT_MODEL', setup=PINNED)

    top = diagnose(run).causes[0]

    assert top.category == "model_serving", top.title
    line = _where(run, "DEFAULT_MODEL =").split(":")[1]
    assert ("The run's model calls go through gateway.py, the proxy before the model server; its settings: "
            f'`DEFAULT_MODEL = "llama-3-8b-instruct"` (line {line}).') in top.fix


def test_the_same_gateway_forwarding_the_runs_model_is_healthy(tmp_path: Path) -> None:
    run = _through_proxy(tmp_path, "pass", setup=PINNED)

    report = diagnose(run)

    assert report.category == "healthy", [f.title for f in report.causes]


def test_a_gateway_serving_one_request_at_a_time_is_named_when_the_budget_ends_the_run(tmp_path: Path) -> None:
    run = _through_proxy(tmp_path, "pass", "pass", "raise", "--latency-ms", "300", budget_s=20, server="HTTPServer")
    assert "ended by SIGTERM" in (run / "logs" / "collect.log").read_text()

    top = diagnose(run).causes[0]

    # on a loaded machine some callers overflow the gateway's listen backlog and are reset before the budget ends:
    # then the reset requests lead, and the gateway is named there
    assert top.category == "throughput_resources"
    assert top.id in ("interrupted_collection", "model_endpoint_failures")
    line = _where(run, 'HTTPServer((').split(':')[1]
    assert (f"gateway.py serves one request at a time (line {line}: `HTTPServer((" in top.fix
            or f"Serve gateway.py with `ThreadingHTTPServer` (or an async server) instead of line {line}" in top.fix)


AUDIT_SERVICE = '''
class _Audit(BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers["Content-Length"]))
        time.sleep(0.5)  # the compliance service writes each record to its database, one at a time
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


class _AuditServer(HTTPServer):
    request_queue_size = 128  # the service queues its callers (socketserver's backlog of 5 resets them under load)


_AUDIT = _AuditServer(("127.0.0.1", 0), _Audit)
threading.Thread(target=_AUDIT.serve_forever, daemon=True).start()
AUDIT_URL = f"http://127.0.0.1:{_AUDIT.server_address[1]}/records"  # every model call is recorded first
'''
AUDITED = 'urllib.request.urlopen(urllib.request.Request(AUDIT_URL, data=b"{}", method="POST"), timeout=60).read()'


def test_a_gateway_waiting_on_a_one_at_a_time_audit_service_is_named_when_the_budget_ends_the_run(
        tmp_path: Path) -> None:
    run = _through_proxy(tmp_path, AUDITED, "pass", "raise", budget_s=20, setup=AUDIT_SERVICE)
    assert "ended by SIGTERM" in (run / "logs" / "collect.log").read_text()

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("throughput_resources", "interrupted_collection")
    assert (f"On every request gateway.py also calls AUDIT_URL (line {_where(run, AUDITED).split(':')[1]}: "
            "`urllib.request.urlopen(urllib.request.Request(AUDIT_URL") in top.fix


def test_the_same_gateway_on_a_threading_server_ends_within_the_budget(tmp_path: Path) -> None:
    run = _through_proxy(tmp_path, "pass", "pass", "raise", "--latency-ms", "300", budget_s=20)
    assert "ended by SIGTERM" not in (run / "logs" / "collect.log").read_text()

    assert all(f.id != "interrupted_collection" for f in diagnose(run).findings)


def _key_check(iterations: str) -> str:
    return f"import hashlib\nKEY_ITERATIONS = {iterations}  # the password baseline, applied to API keys"


@pytest.mark.parametrize("iterations", ["3_000_000", "1"])
def test_a_gateway_deriving_a_key_hash_on_every_request_is_named_when_the_budget_ends_the_run(tmp_path: Path,
                                                                                            iterations: str) -> None:
    """The gateway checks each request's API key against a PBKDF2 hash of the password baseline's iterations: seconds
    of CPU per request, and the budget ends the run. With one iteration, the run finishes in time."""
    run = _through_proxy(tmp_path, "hashlib.pbkdf2_hmac('sha256', b'api-key', b'salt', KEY_ITERATIONS)",
                         budget_s=20, setup=_key_check(iterations))

    report = diagnose(run)

    if iterations == "1":
        assert "ended by SIGTERM" not in (run / "logs" / "collect.log").read_text()
        assert all(f.id != "interrupted_collection" for f in report.findings)
        return
    assert "ended by SIGTERM" in (run / "logs" / "collect.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("throughput_resources", "interrupted_collection")
    assert top.title.startswith(f"The time budget ran out before the end: {_where(run, 'hashlib.pbkdf2_hmac(')} derives a "
                                "password hash")
    assert top.fix.startswith("In gateway.py, stop calling `hashlib.pbkdf2_hmac` on every call: check it once per key")
    assert "(or lower KEY_ITERATIONS)" in top.fix


TEXT_GATEWAY = '''"""gateway.py: the team's gateway; replies re-serialized as readable UTF-8 for its log."""
import json
import sys
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

UPSTREAM = sys.argv[2].removesuffix("/v1")  # the model server's base URL; requests keep their /v1 path


class Gateway(BaseHTTPRequestHandler):
    def _send(self, status, data):
        if isinstance(data, str):
            length, data = {length}, data.encode("utf-8")
        else:
            length = len(data)
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(length))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        with urllib.request.urlopen(UPSTREAM + self.path, timeout=60) as answer:
            self._send(answer.status, answer.read())

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        request = urllib.request.Request(UPSTREAM + self.path, data=body, headers={{"Content-Type": "application/json"}})
        with urllib.request.urlopen(request, timeout=60) as answer:
            reply = json.loads(answer.read())
        self._send(200, json.dumps(reply, ensure_ascii=False))  # readable in the log

    def log_message(self, *args):
        pass


ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Gateway).serve_forever()
'''
CAPITALS = {"What is the capital of Costa Rica?": "San José", "What is the capital of Cameroon?": "Yaoundé",
            "What is the capital of Togo?": "Lomé", "What is the capital of the Maldives?": "Malé",
            "What is the capital of Peru?": "Lima", "What is the capital of Kenya?": "Nairobi"}


@pytest.mark.parametrize("length", ['len(data)', 'len(data.encode("utf-8"))'])
def test_a_gateway_counting_content_length_in_characters_cuts_non_ascii_replies(tmp_path: Path, length: str) -> None:
    """The gateway sends Content-Length as the length of the reply's text: replies with `é` are longer in bytes, and
    the collection reads them cut short. Counting the encoded bytes, the run is healthy."""
    from script_support import CLI, run_scripts

    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "gateway.py").write_text(TEXT_GATEWAY.format(length=length))
    port = free_loopback_port()
    rows = [{"responses_create_params": {"input": [{"role": "user", "content": f"{question} End your response with "
                                                                             "'Final answer: <answer>'."}]},
             "expected_answer": answer} for question, answer in CAPITALS.items()]
    run = run_scripts(tmp_path, [
        f"{sys.executable} gateway.py {port} URL > logs/gateway.log 2>&1 &\nGATEWAY=$!\nsleep 1.5\n"
        f"{CLI} materialize --input data.jsonl --num-repeats 2 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
        f"--model-url http://127.0.0.1:{port}/v1 --env string_match --concurrency 4\n"
        "kill $GATEWAY\n"], checkpoint_of_script=[1], rows=rows)

    report = diagnose(run)

    if "encode" in length:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "proxy_counts_content_length_in_characters"), top.title
    assert top.fix.startswith(f"In gateway.py:{_where(run, 'length, data =').split(':')[1]}, encode first and count "
                              "the bytes")
