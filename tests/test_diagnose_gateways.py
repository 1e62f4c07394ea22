"""Users' gateways, balancers and serving scripts in front of the simulated policy, run for real.

A round-robin balancer over two replicas of the simulated policy, run for real, one of them left on last
week's checkpoint: every command succeeds, and half the rollouts are the older model's. The diagnosis names the two
checkpoints the balancer's log forwards to, and the line of the replicas' script that starts the old one. The same
balancer over two replicas of one checkpoint is no finding. Likewise a gateway whose A/B canary sends a share of the
requests to the previous deployment's server, or all of them to staging's when the variable naming its upstream is
unset. A gateway that lets an interactive API key have one request in flight, given a batch run's eight. And a gateway that splits every reply into reasoning_content and
content at `</think>`, in front of a model that never writes it: every reply reaches the run empty. Split only when
the tag is there, the replies pass whole. A serving script left on last month's experiment folder, while the eval
says it is of this month's. A gateway that moves the question into a system turn behind a safety template: the model
answers the gateway's fixed user turn, and every rollout scores 0; forwarding the messages as they are is healthy.
A gateway that pins one sampling seed on every request: each task's repeats are one reply; without it, healthy. A
gateway adding a disclaimer footer to every reply: the answers ending the reply take it along and score 0. A gateway
whose answer cache gives identical requests (a task's repeats) one reply; without the cache, healthy. A gateway
whose answer cache, kept on disk, answers this week's eval with last week's replies (made before this week's inputs
were written); with the file moved aside first, only the repeats are one sample. A gateway
localizing decimal points to commas in every reply: the decimal answers score 0. A serving wrapper restarting the
server on the newest checkpoint when the trainer saves one during the eval. A candidate and a baseline server given
one --ready-file: the run reads the URL of the one ready last; with a ready file each, healthy.
"""

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from gym_pipeline.core.materialize import MaterializationSettings, materialize_file
from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment
from gym_pipeline.host import free_loopback_port
from gym_pipeline.serving.checkpoints import demo_checkpoints

CLI = [sys.executable, "-m", "gym_pipeline.cli"]
RULE = "replicas_of_other_checkpoints"
BALANCER = '''"""balancer.py: one address for every tool, the load spread round robin over the replicas."""
import itertools
import sys
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROTATION = itertools.cycle(sys.argv[2:])
LOCK = threading.Lock()


class Balancer(BaseHTTPRequestHandler):
    def _forward(self, body):
        with LOCK:
            upstream = next(ROTATION)
        request = urllib.request.Request(upstream + self.path, data=body, method=self.command,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=120) as answer:
            status, data = answer.status, answer.read()
        print(f"{self.command} {self.path} -> {upstream} {status}", flush=True)
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self._forward(None)

    def do_POST(self):
        self._forward(self.rfile.read(int(self.headers["Content-Length"])))

    def log_message(self, *args):
        pass


ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Balancer).serve_forever()
'''


CANARY_GATEWAY = '''"""gateway.py: the team's one URL for every tool. A/B canary: CANARY_SHARE of the completions go to
the previous deployment."""
import random
import sys
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

UPSTREAM = sys.argv[2]
CANARY = "{canary}"  # the previous deployment, kept for the A/B comparison
CANARY_SHARE = {share}


class Gateway(BaseHTTPRequestHandler):
    def _forward(self, body):
        canary = self.path.endswith("/chat/completions") and random.random() < CANARY_SHARE
        request = urllib.request.Request((CANARY if canary else UPSTREAM) + self.path, data=body,
                                         method=self.command, headers={{"Content-Type": "application/json"}})
        with urllib.request.urlopen(request, timeout=120) as answer:
            status, data = answer.status, answer.read()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self._forward(None)

    def do_POST(self):
        self._forward(self.rfile.read(int(self.headers["Content-Length"])))


print(f"gateway.py on 127.0.0.1:{{sys.argv[1]}} -> {{UPSTREAM}}", flush=True)
ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Gateway).serve_forever()
'''


def _collect_through_front(run: Path, served: list[Path], front: str, front_arguments,
                           front_environment=lambda addresses: {}, collect_options=(), collect_environment=None,
                           collect_must_succeed=True, recorded: bool = False) -> None:
    """The simulated policy serving each of `served` (logs/replica_<i>.log), `front` (a script in `run`) started with
    `front_arguments(the replicas' addresses)` and the variables `front_environment(the replicas' addresses)`
    (logs/<front>.log), and a collection through it (with `collect_options` and `collect_environment`). `recorded`:
    the inputs are materialized by the CLI, which records them in the run's manifest."""
    environment = get_environment("string_match")
    inputs = run / "rollouts_materialized_inputs.jsonl"
    if recorded:
        subprocess.run([*CLI, "materialize", "--input", str(environment.dataset_path), "--output", str(inputs),
                        "--num-repeats", "2", "--agent", environment.agent_name], check=True, capture_output=True)
    else:
        materialize_file(environment.dataset_path, inputs, MaterializationSettings(2, environment.agent_name))
    ports, front_port = [free_loopback_port() for _ in served], free_loopback_port()
    processes = []
    for index, (checkpoint, port) in enumerate(zip(served, ports, strict=True)):
        with (run / "logs" / f"replica_{index}.log").open("w") as log:
            processes.append(subprocess.Popen([*CLI, "serve-policy", "--checkpoint", str(checkpoint), "--port",
                                               str(port)], stdout=log, stderr=subprocess.STDOUT))
    with (run / "logs" / f"{Path(front).stem}.log").open("w") as log:
        addresses = [f"http://127.0.0.1:{port}" for port in ports]
        processes.append(subprocess.Popen([sys.executable, str(run / front), str(front_port), *front_arguments(addresses)],
                                          stdout=log, stderr=subprocess.STDOUT,
                                          env={**os.environ, **front_environment(addresses)}))
    try:
        time.sleep(2.5)
        with (run / "logs" / "collect.log").open("w") as log:
            subprocess.run([*CLI, "collect", "--inputs", str(inputs), "--output", str(run / "rollouts.jsonl"),
                            "--model-url", f"http://127.0.0.1:{front_port}/v1", "--env", "string_match",
                            *collect_options], env={**os.environ, **(collect_environment or {})},
                           stdout=log, stderr=subprocess.STDOUT, timeout=180, check=collect_must_succeed)
    finally:
        for process in processes:
            process.terminate()
            process.wait(10)


def _collect_through_balancer(tmp_path: Path, second_replica: str) -> Path:
    checkpoints = {path.name: path for path in demo_checkpoints(tmp_path / "checkpoints", 2, ["string_match"])}
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (run / "balancer.py").write_text(BALANCER)
    (run / "serve_replicas.sh").write_text(
        "#!/bin/bash\n# two replicas of this week's model behind balancer.py\n"
        f"CKPTS=({checkpoints['step_0200']} {checkpoints[second_replica]})\n"
        'for i in 0 1; do serve-policy --checkpoint ${CKPTS[$i]} > logs/replica_$i.log 2>&1 & done\n')
    _collect_through_front(run, [checkpoints["step_0200"], checkpoints[second_replica]], "balancer.py",
                           lambda addresses: addresses)
    return run


@pytest.mark.parametrize("second_replica", ["step_0100", "step_0200"])
def test_a_balancer_over_a_replica_left_on_last_weeks_checkpoint_is_named(tmp_path: Path, second_replica: str):
    run = _collect_through_balancer(tmp_path, second_replica)
    forwarded = (run / "logs" / "balancer.log").read_text()
    assert forwarded.count("POST /v1/chat/completions") > 2  # the requests went through it, to both replicas

    report = diagnose(run)

    if second_replica == "step_0200":
        assert all(f.id != RULE for f in report.findings)
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", RULE), [f.title for f in report.causes]
    assert top.title.startswith("The requests went to model servers of 2 checkpoints: step 200 and step 100")
    assert "serve_replicas.sh:3 `CKPTS=(" in top.fix and "balancer.py:8 `ROTATION = itertools.cycle(" in top.fix


@pytest.mark.parametrize("share", [0.5, 0])
def test_a_gateways_canary_share_sent_to_the_previous_checkpoint_is_named(tmp_path: Path, share: float):
    """The team's gateway sends CANARY_SHARE of the completions to the previous deployment (step 100), an address it
    names; its log names only its upstream (step 200). With the share at 0 every answer is step 200's: no finding."""
    checkpoints = {path.name: path for path in demo_checkpoints(tmp_path / "checkpoints", 2, ["string_match"])}
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    previous_port = free_loopback_port()
    gateway = CANARY_GATEWAY.format(canary=f"http://127.0.0.1:{previous_port}", share=share)
    (run / "gateway.py").write_text(gateway)
    with (run / "logs" / "previous_deployment.log").open("w") as log:
        previous = subprocess.Popen([*CLI, "serve-policy", "--checkpoint", str(checkpoints["step_0100"]), "--port",
                                     str(previous_port)], stdout=log, stderr=subprocess.STDOUT)
    try:
        _collect_through_front(run, [checkpoints["step_0200"]], "gateway.py", lambda addresses: addresses)
    finally:
        previous.terminate()
        previous.wait(10)

    report = diagnose(run)

    if not share:
        assert all(f.id != "share_sent_to_a_server_of_another_checkpoint" for f in report.findings)
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "share_sent_to_a_server_of_another_checkpoint")
    assert top.title == ("gateway.py sends a share of the requests (CANARY_SHARE = 0.5) to CANARY, the step 100 "
                         "server, while the run is of step 200")
    assert top.fix.startswith("Turn the split off in gateway.py for evals (CANARY_SHARE = 0,")


REASONING_GATEWAY = '''"""gateway.py: splits the thinking off the replies, as vLLM's --reasoning-parser does."""
import json
import sys
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

UPSTREAM = sys.argv[2]
ONLY_WITH_TAG = {only_with_tag}


class Gateway(BaseHTTPRequestHandler):
    def _forward(self, body):
        request = urllib.request.Request(UPSTREAM + self.path, data=body, method=self.command,
                                         headers={{"Content-Type": "application/json"}})
        with urllib.request.urlopen(request, timeout=120) as answer:
            status, data = answer.status, answer.read()
        if self.path.endswith("/chat/completions"):
            reply = json.loads(data)
            for choice in reply["choices"]:
                text = choice["message"].get("content") or ""
                if "</think>" in text or not ONLY_WITH_TAG:
                    thinking, _, answer = text.rpartition("</think>") if "</think>" in text else (text, "", "")
                    choice["message"]["reasoning_content"] = thinking.replace("<think>", "").strip()
                    choice["message"]["content"] = answer.strip()
            data = json.dumps(reply).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self._forward(None)

    def do_POST(self):
        self._forward(self.rfile.read(int(self.headers["Content-Length"])))


ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Gateway).serve_forever()
'''


@pytest.mark.parametrize("only_with_tag", [False, True])
def test_a_reasoning_split_in_front_of_a_model_without_think_tags_empties_every_reply(tmp_path: Path,
                                                                                      only_with_tag: bool):
    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 2, ["string_match"])[-1]  # step 200: mostly right
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (run / "gateway.py").write_text(REASONING_GATEWAY.format(only_with_tag=only_with_tag))
    _collect_through_front(run, [checkpoint], "gateway.py", lambda addresses: addresses)

    report = diagnose(run)

    if only_with_tag:
        assert all(f.id != "replies_emptied_on_the_way" for f in report.findings)
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "replies_emptied_on_the_way")
    assert top.title.endswith("replies have no text although the model produced output tokens: gateway.py moves the "
                              "text into reasoning_content")
    assert [line.where for line in top.evidence[1:]] == ["gateway.py:21", "gateway.py:23"]
    assert top.fix.startswith("Turn the reasoning split off in gateway.py for this model")


STAGING_GATEWAY = '''"""gateway.py: one URL for every tool. Upstream: $MODEL_BACKEND (default: the staging deployment)."""
import os
import signal
import sys
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

UPSTREAM = os.environ.get("MODEL_BACKEND", "{staging}")  # staging deployment by default


class Gateway(BaseHTTPRequestHandler):
    def _forward(self, body):
        request = urllib.request.Request(UPSTREAM + self.path, data=body, method=self.command,
                                         headers={{"Content-Type": "application/json"}})
        with urllib.request.urlopen(request, timeout=120) as answer:
            status, data = answer.status, answer.read()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self._forward(None)

    def do_POST(self):
        self._forward(self.rfile.read(int(self.headers["Content-Length"])))


print(f"gateway.py on 127.0.0.1:{{sys.argv[1]}} -> {{UPSTREAM}}", flush=True)
ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Gateway).serve_forever()
'''


@pytest.mark.parametrize("backend_set", [False, True])
def test_a_gateway_started_without_its_upstream_variable_falls_back_to_staging_and_is_named(tmp_path: Path,
                                                                                              backend_set: bool):
    """Staging serves last week's step 100; this week's step 200 is served beside it. The gateway started without
    MODEL_BACKEND sends everything to staging. Started with it, every answer is step 200's: no finding."""
    checkpoints = {path.name: path for path in demo_checkpoints(tmp_path / "checkpoints", 2, ["string_match"])}
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    staging_port = free_loopback_port()
    (run / "gateway.py").write_text(STAGING_GATEWAY.format(staging=f"http://127.0.0.1:{staging_port}"))
    with (run / "logs" / "staging.log").open("w") as log:
        staging = subprocess.Popen([*CLI, "serve-policy", "--checkpoint", str(checkpoints["step_0100"]), "--port",
                                    str(staging_port)], stdout=log, stderr=subprocess.STDOUT)
    try:
        _collect_through_front(run, [checkpoints["step_0200"]], "gateway.py", lambda addresses: [],
                               lambda addresses: {"MODEL_BACKEND": addresses[0]} if backend_set else {})
    finally:
        staging.terminate()
        staging.wait(10)

    report = diagnose(run)

    if backend_set:
        assert all(f.id != "gateway_forwards_to_an_older_checkpoint" for f in report.findings)
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "gateway_forwards_to_an_older_checkpoint")
    assert top.title.startswith(f"gateway.py (logs/gateway.log) forwards the requests to http://127.0.0.1:{staging_port}, "
                                "the step 100 server, while the step 200 server started for this run gets none: "
                                "MODEL_BACKEND unset, gateway.py fell back to its default")
    assert top.fix.startswith("Start gateway.py with MODEL_BACKEND set to the step 200 server")


KEYED_GATEWAY = '''"""gateway.py: one URL for every tool; requests in flight are limited per API key."""
import sys
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

UPSTREAM = sys.argv[2]
LIMITS = {{"batch": 16, "interactive": 1}}
ACTIVE = {{}}
LOCK = threading.Lock()


class Gateway(BaseHTTPRequestHandler):
    def _send(self, status, data):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _forward(self, body):
        request = urllib.request.Request(UPSTREAM + self.path, data=body, method=self.command,
                                         headers={{"Content-Type": "application/json"}})
        with urllib.request.urlopen(request, timeout=120) as answer:
            return answer.status, answer.read()

    def do_GET(self):
        self._send(*self._forward(None))

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        key = self.headers.get("Authorization", "").removeprefix("Bearer ")
        kind = "batch" if key.startswith("batch-") else "interactive"
        with LOCK:
            if ACTIVE.get(key, 0) >= LIMITS[kind]:
                return self._send(429, b'{{"error": {{"message": "too many requests in flight for this key (1 allowed '
                                       b'for interactive keys)", "type": "rate_limit_exceeded"}}}}')
            ACTIVE[key] = ACTIVE.get(key, 0) + 1
        try:
            time_to_answer = self._forward(body)
        finally:
            with LOCK:
                ACTIVE[key] -= 1
        self._send(*time_to_answer)


ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Gateway).serve_forever()
'''


@pytest.mark.parametrize("key", ["sk-personal-1234", "batch-5678"])
def test_a_per_key_limit_on_requests_in_flight_names_the_variable_the_run_takes_its_key_from(tmp_path: Path, key: str):
    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 2, ["string_match"])[-1]
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (run / "gateway.py").write_text(KEYED_GATEWAY.format())
    (run / "run_eval.sh").write_text("#!/bin/bash\nsource ./keys.env\ngym-pipeline collect --inputs "
                                     "rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL --env "
                                     "string_match --concurrency 8 --api-key-env EVAL_API_KEY\n")
    _collect_through_front(run, [checkpoint], "gateway.py", lambda addresses: addresses,
                           collect_options=("--concurrency", "8", "--api-key-env", "EVAL_API_KEY"),
                           collect_environment={"EVAL_API_KEY": key}, collect_must_succeed=False)

    report = diagnose(run)
    text = report.model_dump_json()

    assert key not in text  # the secret never reaches the report
    if key.startswith("batch-"):
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert top.category == "throughput_resources"
    assert ("The 429s say the limit is the key's ('for this key (1 allowed for interactive keys)'): the run sends the "
            "key in EVAL_API_KEY (run_eval.sh:3)") in top.fix


@pytest.mark.parametrize("served", ["exp-0311-baseline", "exp-0402-rl"])
def test_a_serve_script_left_on_last_months_experiment_is_named_against_the_experiment_evaluated(tmp_path: Path,
                                                                                                  served: str):
    """serve.sh serves the newest checkpoint of CKPT_DIR, still last month's experiment; the weekly eval says it is of
    exp-0402-rl. Pointed at exp-0402-rl, no finding."""
    for experiment in ("exp-0311-baseline", "exp-0402-rl"):
        demo_checkpoints(tmp_path / "ckpts" / experiment, 1, ["string_match"])
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    port = free_loopback_port()
    (run / "serve.sh").write_text(f"#!/bin/bash\nCKPT_DIR={tmp_path}/ckpts/{served}\nSTEP=$(ls $CKPT_DIR | sort | tail -1)\n"
                                  f'echo "serving $CKPT_DIR/$STEP"\nexec {" ".join(CLI)} serve-policy --checkpoint '
                                  f"$CKPT_DIR/$STEP --port {port}\n")
    (run / "run_eval.sh").write_text("#!/bin/bash\necho '== weekly eval of exp-0402-rl (newest checkpoint)'\n")
    environment = get_environment("string_match")
    inputs = run / "rollouts_materialized_inputs.jsonl"
    materialize_file(environment.dataset_path, inputs, MaterializationSettings(2, environment.agent_name))
    with (run / "logs" / "model_server.log").open("w") as log:
        server = subprocess.Popen(["bash", str(run / "serve.sh")], stdout=log, stderr=subprocess.STDOUT)
    try:
        time.sleep(2.5)
        with (run / "logs" / "run_eval.log").open("w") as log:
            subprocess.run(["bash", str(run / "run_eval.sh")], stdout=log, stderr=subprocess.STDOUT, check=True)
            subprocess.run([*CLI, "collect", "--inputs", str(inputs), "--output", str(run / "rollouts.jsonl"),
                            "--model-url", f"http://127.0.0.1:{port}/v1", "--env", "string_match"],
                           stdout=log, stderr=subprocess.STDOUT, timeout=180, check=True)
    finally:
        server.terminate()
        server.wait(10)

    report = diagnose(run)

    if served == "exp-0402-rl":
        assert all(f.id != "checkpoint_of_another_experiment_served" for f in report.findings)
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "checkpoint_of_another_experiment_served")
    assert top.title == "The model server serves a checkpoint of exp-0311-baseline, while run_eval.sh evaluates exp-0402-rl"
    assert top.fix.startswith("Point serve.sh at exp-0402-rl")



EDITING_GATEWAY = '''"""gateway.py: one URL for every tool. {purpose}"""
import json
import sys
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

UPSTREAM = sys.argv[2]
{settings}


class Gateway(BaseHTTPRequestHandler):
    def _forward(self, body):
        completion = self.path.endswith("/chat/completions")
        if completion:
            request = json.loads(body)
{request_edit}
            body = json.dumps(request).encode()
        forwarded = urllib.request.Request(UPSTREAM + self.path, data=body, method=self.command,
                                           headers={{"Content-Type": "application/json"}})
        with urllib.request.urlopen(forwarded, timeout=120) as answer:
            status, data = answer.status, answer.read()
        if completion:
            reply = json.loads(data)
{reply_edit}
            data = json.dumps(reply).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self._forward(None)

    def do_POST(self):
        self._forward(self.rfile.read(int(self.headers["Content-Length"])))


ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Gateway).serve_forever()
'''


def _editing_gateway_run(tmp_path: Path, purpose: str, settings: str, request_edit: str = "pass",
                         reply_edit: str = "pass") -> Path:
    """A run collected through a gateway whose chat completions go through `request_edit` (lines acting on
    `request`, the request's JSON) and `reply_edit` (on `reply`), in front of the policy at step 200 (mostly right)."""
    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 2, ["string_match"])[-1]
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (run / "gateway.py").write_text(EDITING_GATEWAY.format(
        purpose=purpose, settings=settings, request_edit=textwrap.indent(request_edit, " " * 12),
        reply_edit=textwrap.indent(reply_edit, " " * 12)))
    _collect_through_front(run, [checkpoint], "gateway.py", lambda addresses: addresses)
    return run


def _line_of(run: Path, start: str) -> str:
    """`gateway.py:<line>` of the gateway's first line that starts with `start`."""
    lines = (run / "gateway.py").read_text().splitlines()
    return f"gateway.py:{next(n for n, line in enumerate(lines, 1) if line.strip().startswith(start))}"


@pytest.mark.parametrize("wrap", [True, False])
def test_a_gateway_moving_the_question_into_a_system_template_is_named_with_its_template(tmp_path: Path, wrap: bool):
    """The gateway moves the user's question into the system turn behind a safety template and sends a fixed user
    turn: the model answers that turn, and every rollout scores 0. Forwarding the messages as they are is healthy."""
    run = _editing_gateway_run(
        tmp_path, "Safety template: the request goes into the system turn.",
        f'SAFETY_TEMPLATE = "Follow the safety policy. The user\'s request is below.\\n\\n"\nWRAP = {wrap}',
        request_edit='if WRAP:\n    asked = "\\n".join(str(m.get("content")) for m in request["messages"] if m.get("role") == "user")\n'
                     '    request["messages"] = [{"role": "system", "content": SAFETY_TEMPLATE + asked},\n'
                     '                           {"role": "user", "content": "Please answer the request above."}]')

    report = diagnose(run)

    if not wrap:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    rewrite = _line_of(run, 'request["messages"] =')
    assert (top.category, top.id) == ("model_serving", "proxy_rewrites_the_exchange")
    assert top.title.startswith("gateway.py, the proxy before the model server, rewrites every request's messages "
                                f"(line {rewrite.split(':')[1]}, with SAFETY_TEMPLATE)")
    assert [line.where for line in top.evidence] == [_line_of(run, "SAFETY_TEMPLATE ="), rewrite]
    assert "keep SAFETY_TEMPLATE from touching the task's own turns" in top.fix


@pytest.mark.parametrize("seed", [1234, None])
def test_a_gateway_pinning_one_sampling_seed_makes_every_repeat_one_sample(tmp_path: Path, seed: int | None):
    """The gateway sets one seed on every request: each task's two repeats get the same reply, and the run measures
    one sample twice. Without it, the repeats are samples of their own and the run is healthy."""
    run = _editing_gateway_run(tmp_path, "Reproducible answers for the chat UI demo.",
                               f"FIXED_SEED = {seed}  # same question, same reply",
                               request_edit='if FIXED_SEED is not None:\n    request["seed"] = FIXED_SEED')

    report = diagnose(run)

    if seed is None:
        assert all(f.id != "repeats_sampled_alike" for f in report.findings)
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    sets = _line_of(run, 'request["seed"] =')
    assert (top.category, top.id) == ("model_serving", "repeats_sampled_alike")
    assert top.title.endswith(f"the repeats are one sample: {sets} sets the same `seed` on every request")
    assert [line.where for line in top.evidence[1:]] == [_line_of(run, "FIXED_SEED ="), sets]
    assert f"Stop gateway.py from setting `seed` on the run's requests (line {sets.split(':')[1]}, FIXED_SEED;" in top.fix


@pytest.mark.parametrize("add", [True, False])
def test_a_gateway_adding_a_disclaimer_footer_to_every_reply_is_named_with_its_footer(tmp_path: Path, add: bool):
    """The chat UI's disclaimer appended to every reply: the answers that end the reply take it along, and score 0.
    Without the footer, the run is healthy."""
    run = _editing_gateway_run(
        tmp_path, "Adds the usage disclaimer to every reply of the chat UI.",
        f'FOOTER = "\\n\\n-- Generated by TeamGPT. Check important facts before use."\nADD_FOOTER = {add}',
        reply_edit='for choice in reply["choices"]:\n    if ADD_FOOTER:\n'
                   '        choice["message"]["content"] = (choice["message"].get("content") or "") + FOOTER')

    report = diagnose(run)

    if not add:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    added = _line_of(run, 'choice["message"]["content"] =')
    assert (top.category, top.id) == ("model_serving", "proxy_rewrites_the_exchange")
    assert top.title.startswith("gateway.py, the proxy before the model server, adds FOOTER to every answer:")
    assert [line.where for line in top.evidence[:2]] == [_line_of(run, "FOOTER ="), added]
    assert top.fix.startswith(f"Forward the replies unchanged in gateway.py (line {added.split(':')[1]}:")


@pytest.mark.parametrize("cache", [True, False])
def test_a_gateway_answering_identical_requests_with_one_reply_is_named_with_its_table(tmp_path: Path, cache: bool):
    """The chat UI's answer cache in the gateway gives identical requests the first reply: a task's repeats are
    identical requests, so they are one sample. Without the cache, healthy."""
    run = _editing_gateway_run(
        tmp_path, "Answer cache for the chat UI: the same question gets the same answer.",
        f"REPLIES = {{}}\nCACHE = {cache}",
        reply_edit='if CACHE:\n    reply = REPLIES.setdefault(json.dumps(request["messages"], sort_keys=True), reply)')

    report = diagnose(run)

    if not cache:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "repeats_sampled_alike")
    assert top.title.endswith("the repeats are one sample: gateway.py gives identical requests one reply (REPLIES)")
    assert [line.where for line in top.evidence[1:]] == [_line_of(run, "REPLIES ="), _line_of(run, "reply = REPLIES")]
    assert top.fix.startswith("Forward every completion request to the model server in gateway.py: do not coalesce or "
                              "cache them through REPLIES")


REPLY_CACHE_KEPT_ON_DISK = """import os
CACHE_FILE = "{cache}"  # the chat UI's answers, kept across restarts: a repeated question costs nothing
REPLIES = {{}}
if os.path.exists(CACHE_FILE):
    for line in open(CACHE_FILE):
        entry = json.loads(line)
        REPLIES[entry["key"]] = entry["reply"]"""
ANSWER_FROM_THE_CACHE = """key = json.dumps(request["messages"], sort_keys=True)
if key in REPLIES:
    reply = REPLIES[key]
else:
    REPLIES[key] = reply
    with open(CACHE_FILE, "a") as cache:
        cache.write(json.dumps({"key": key, "reply": reply}) + "\\n")"""


@pytest.mark.parametrize("kept", [True, False])
def test_a_gateway_answering_from_replies_it_kept_on_disk_last_week_is_a_cache_of_an_earlier_run(tmp_path: Path,
                                                                                                  kept: bool):
    """The gateway keeps every reply in a file and loads it when it starts. Last week's eval (step 100) went through
    it; this week's (step 200) gets last week's replies: their responses were made before this week's inputs were
    written. With the file moved aside before this week's eval, the cache only answers a task's repeats with its
    first reply: the repeats are one sample (model serving), and no earlier run's reply is in the rows."""
    last_week, this_week = demo_checkpoints(tmp_path / "checkpoints", 2, ["string_match"])
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (run / "last_week" / "logs").mkdir(parents=True)
    cache = run / "answers_cache.jsonl"
    (run / "gateway.py").write_text(EDITING_GATEWAY.format(
        purpose="Answers cached on disk for the chat UI.", settings=REPLY_CACHE_KEPT_ON_DISK.format(cache=cache),
        request_edit=" " * 12 + "pass", reply_edit=textwrap.indent(ANSWER_FROM_THE_CACHE, " " * 12)))
    _collect_through_front(run / "last_week", [last_week], "../gateway.py", lambda addresses: addresses,
                           recorded=True)
    assert cache.stat().st_size > 0
    if not kept:
        cache.rename(run / "last_week" / cache.name)
    _collect_through_front(run, [this_week], "gateway.py", lambda addresses: addresses, recorded=True)

    report = diagnose(run)

    top = report.causes[0]
    if not kept:
        assert all(f.id != "replies_from_an_earlier_run" for f in report.findings)
        assert (top.category, top.id) == ("model_serving", "repeats_sampled_alike"), [f.title for f in report.causes]
        return
    assert (top.category, top.id) == ("cache_resume", "replies_from_an_earlier_run"), [f.title for f in report.causes]
    assert top.title.endswith(f"gateway.py answered them from the replies it keeps in {cache}")
    assert [line.where for line in top.evidence[2:]] == [_line_of(run, "CACHE_FILE ="), _line_of(run, "REPLIES =")]
    assert top.fix.startswith(f"Move {cache} aside (or delete it) and restart gateway.py")
    assert [f.id for f in report.consequences_of(top)] == ["repeats_sampled_alike"]


@pytest.mark.parametrize("localize", [True, False])
def test_a_gateway_localizing_decimal_points_in_replies_is_named_with_its_substitution(tmp_path: Path,
                                                                                        localize: bool):
    """The gateway, set up for a German chat UI, writes every decimal point of a reply as a comma: the decimal
    answers reach the verifier as `3,5` and score 0. Without the substitution, healthy."""
    run = _editing_gateway_run(
        tmp_path, "Localized replies for the German chat UI.",
        f'import re\nDECIMAL_POINT = re.compile(r"(\\d)\\.(\\d)")  # the chat UI shows 3,5 for 3.5\nLOCALIZE = {localize}',
        reply_edit='for choice in reply["choices"]:\n    if LOCALIZE:\n'
                   '        choice["message"]["content"] = DECIMAL_POINT.sub(r"\\1,\\2", choice["message"]["content"])')

    report = diagnose(run)

    if not localize:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "proxy_rewrites_the_exchange")
    assert top.title.startswith("gateway.py, the proxy before the model server, rewrites every reply with "
                                "DECIMAL_POINT:")
    assert [line.where for line in top.evidence[:2]] == [_line_of(run, "DECIMAL_POINT ="),
                                                         _line_of(run, 'choice["message"]["content"] =')]


SERVE_NEWEST = f"""#!/bin/bash
# serve.sh CHECKPOINTS PORT: serve the newest checkpoint of the training run; restart on a newer one
CKPTS=$1
PORT=$2
current=""
while true; do
  latest=$(ls -d "$CKPTS"/step_* 2>/dev/null | sort | tail -1)
  if [ -n "$latest" ] && [ "$latest" != "$current" ]; then
    if [ -n "$pid" ]; then echo "serve.sh: new checkpoint $latest, restarting the server"; kill $pid; wait $pid; fi
    {' '.join(CLI)} serve-policy --port $PORT --checkpoint "$latest" --latency-ms 300 &
    pid=$!
    current=$latest
  fi
  sleep 0.5
done
"""


@pytest.mark.parametrize("trainer_saves", [True, False])
def test_a_serving_wrapper_restarting_on_the_newest_checkpoint_mid_eval_is_named(tmp_path: Path, trainer_saves: bool):
    """The team's serve.sh serves the newest checkpoint and restarts the server when the trainer saves one: a save
    during the eval fails the requests in flight and changes the weights. Without a save, the run is healthy."""
    environment = get_environment("string_match")
    step_100, step_200 = demo_checkpoints(tmp_path / "saved", 2, ["string_match"])
    checkpoints = tmp_path / "training_run" / "checkpoints"
    checkpoints.mkdir(parents=True)
    step_100.rename(checkpoints / step_100.name)
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (run / "serve.sh").write_text(SERVE_NEWEST)
    inputs = run / "rollouts_materialized_inputs.jsonl"
    materialize_file(environment.dataset_path, inputs, MaterializationSettings(1, environment.agent_name))
    port = free_loopback_port()
    with (run / "logs" / "serve.log").open("w") as log:
        wrapper = subprocess.Popen(["bash", "serve.sh", str(checkpoints), str(port)], cwd=run, stdout=log,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    try:
        _wait_for_line(run / "logs" / "serve.log", "SIMULATED_POLICY_READY", 120)
        with (run / "logs" / "collect.log").open("w") as log:
            collect = subprocess.Popen([*CLI, "collect", "--inputs", str(inputs), "--output", str(run / "rollouts.jsonl"),
                                        "--model-url", f"http://127.0.0.1:{port}/v1", "--env", "string_match",
                                        "--concurrency", "4"], stdout=log, stderr=subprocess.STDOUT)
            if trainer_saves:  # the trainer saves while the eval runs, once it has collected a few rollouts
                _wait_for_line(run / "rollouts.jsonl", '"reward"', 120)
                time.sleep(1)
                step_200.rename(checkpoints / step_200.name)
            collect.wait(240)
        if trainer_saves:  # the restarted server comes up, as it would before anyone reads its log
            _wait_for_line(run / "logs" / "serve.log", "checkpoint step 200", 120)
    finally:
        os.killpg(wrapper.pid, signal.SIGTERM)
        wrapper.wait(10)

    report = diagnose(run)

    if not trainer_saves:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "server_restarted_on_other_weights")
    assert top.title == ("The model server was restarted during the collection, from step 100 to step 200 (by "
                         "serve.sh:7, which serves the newest checkpoint)")


def _wait_for_line(log: Path, text: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while text not in (log.read_text() if log.exists() else ""):
        if time.monotonic() > deadline:
            raise AssertionError(f"{log} never said {text!r}")
        time.sleep(0.2)


@pytest.mark.parametrize("shared", [True, False])
def test_two_servers_given_one_ready_file_leave_the_run_on_the_one_ready_last(tmp_path: Path, shared: bool):
    """The candidate (step 200) and, for a side-by-side comparison, the baseline (step 100) are served from two
    scripts; collect.sh reads the candidate's URL from its ready file. Given one --ready-file, the baseline, ready
    last, overwrote it, and every rollout is the baseline's. With a ready file each, the run is healthy."""
    baseline, candidate = demo_checkpoints(tmp_path / "checkpoints", 2, ["string_match"])
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    ready = {"candidate": tmp_path / "model_url", "baseline": tmp_path / ("model_url" if shared else "baseline_url")}
    shell_cli = " ".join(CLI)
    for name, checkpoint in (("candidate", candidate), ("baseline", baseline)):
        (run / f"serve_{name}.sh").write_text(f"#!/bin/bash\n# {name}: {checkpoint.name}\nexec {shell_cli} serve-policy "
                                              f"--port 0 --ready-file {ready[name]} --checkpoint {checkpoint}\n")
    (run / "collect.sh").write_text(
        f"#!/bin/bash\n# collect the candidate checkpoint\nMODEL_URL=$(cat {ready['candidate']})\n"
        f"{shell_cli} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
        "--model-url $MODEL_URL --env string_match --concurrency 4\n")
    environment = get_environment("string_match")
    subprocess.run([*CLI, "materialize", "--input", str(environment.dataset_path), "--output",
                    str(run / "rollouts_materialized_inputs.jsonl"), "--num-repeats", "2", "--agent",
                    environment.agent_name], cwd=run, check=True, capture_output=True)
    servers = []
    try:
        for name in ("candidate", "baseline"):  # the baseline started once the candidate is up
            log_path = run / "logs" / f"model_server_{name}.log"
            with log_path.open("w") as log:
                servers.append(subprocess.Popen(["bash", f"serve_{name}.sh"], cwd=run, stdout=log,
                                                stderr=subprocess.STDOUT))
            _wait_for_line(log_path, "SIMULATED_POLICY_READY")
        with (run / "logs" / "collect.log").open("w") as log:
            subprocess.run(["bash", "collect.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=180,
                           check=True)
    finally:
        for server in servers:
            server.terminate()
            server.wait(10)

    report = diagnose(run)

    if not shared:
        assert all(f.id != "servers_given_one_ready_file" for f in report.findings)
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "servers_given_one_ready_file"), [f.title for f in report.causes]
    assert top.title.startswith("The rollouts came from the step 100 server: it and the step 200 server were started "
                                f"with one --ready-file ({ready['candidate']})")
    assert [line.file for line in top.evidence] == ["serve_baseline.sh", "serve_candidate.sh", "collect.sh",
                                                    "logs/model_server_baseline.log", "logs/model_server_candidate.log"]
    assert top.fix.startswith("Give each server a --ready-file of its own")
