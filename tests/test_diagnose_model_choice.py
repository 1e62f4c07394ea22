"""A collection without `--model` against a server of a base model and its LoRA adapter, run for real.

The team serves its SFT adapter the way vLLM does with `--enable-lora`: one address, /v1/models listing the base
model first and the adapter after it (here a small router over two simulated policies, the base on step 100 and the
adapter on step 200). The eval script of the adapter runs `gym-pipeline collect` without `--model`, which takes the
first name listed: every rollout is the base model's, and every command exits 0. The diagnosis names the script's
collect line, the names served and the model meant; with `--model sft-agent`, the run is healthy.
"""

import subprocess
import sys
import time
from pathlib import Path

import pytest

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment
from gym_pipeline.host import free_loopback_port
from gym_pipeline.serving.checkpoints import demo_checkpoints

CLI = " ".join([sys.executable, "-m", "gym_pipeline.cli"])
RULE = "collection_took_the_first_listed_model"
LORA_ROUTER = '''"""serve_lora.py: the base model and its adapters at one address, as vLLM's --enable-lora lists them."""
import json
import sys
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

BASE, BASE_URL = sys.argv[2].split("=", 1)
ADAPTERS = dict(module.split("=", 1) for module in sys.argv[3:])  # --lora-modules NAME=URL ...
UPSTREAMS = {BASE: BASE_URL, **ADAPTERS}


class Router(BaseHTTPRequestHandler):
    def _answer(self, status, data):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        listing = {"object": "list", "data": [{"id": name, "object": "model"} for name in UPSTREAMS]}
        self._answer(200, json.dumps(listing).encode())

    def do_POST(self):
        request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        upstream = UPSTREAMS[request["model"]]
        with urllib.request.urlopen(upstream + "/models", timeout=30) as answer:
            request["model"] = json.loads(answer.read())["data"][0]["id"]
        forwarded = urllib.request.Request(upstream + "/chat/completions", data=json.dumps(request).encode(),
                                           headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(forwarded, timeout=120) as answer:
            self._answer(answer.status, answer.read())
        print(f"POST /v1/chat/completions model={list(UPSTREAMS)[list(UPSTREAMS.values()).index(upstream)]}",
              flush=True)

    def log_message(self, *args):
        pass


print(f"serving {BASE} with adapters {', '.join(ADAPTERS)} on 127.0.0.1:{sys.argv[1]}", flush=True)
ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Router).serve_forever()
'''


def _eval_of_the_adapter(tmp_path: Path, model_option: str) -> Path:
    """run_eval.sh of the adapter sft-agent, run by bash against serve_lora.py (base-7b first, sft-agent second)."""
    environment = get_environment("string_match")
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (run / "data.jsonl").write_text(environment.dataset_path.read_text())
    (run / "serve_lora.py").write_text(LORA_ROUTER)
    base, adapter = demo_checkpoints(tmp_path / "checkpoints", 2, ["string_match"])
    ports = [free_loopback_port() for _ in range(3)]
    processes = []
    for name, checkpoint, port in (("base", base, ports[0]), ("adapter", adapter, ports[1])):
        with (run / "logs" / f"{name}_policy.log").open("w") as log:
            processes.append(subprocess.Popen([*CLI.split(), "serve-policy", "--checkpoint", str(checkpoint),
                                               "--port", str(port)], stdout=log, stderr=subprocess.STDOUT))
    with (run / "logs" / "model_server.log").open("w") as log:
        processes.append(subprocess.Popen([sys.executable, "serve_lora.py", str(ports[2]),
                                           f"base-7b=http://127.0.0.1:{ports[0]}/v1",
                                           f"sft-agent=http://127.0.0.1:{ports[1]}/v1"],
                                          cwd=run, stdout=log, stderr=subprocess.STDOUT))
    (run / "run_eval.sh").write_text(
        "#!/bin/bash\n# weekly eval of the SFT adapter sft-agent\n"
        f"{CLI} materialize --input data.jsonl --num-repeats 2 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
        f"--model-url http://127.0.0.1:{ports[2]}/v1 --env string_match{model_option}\n"
        f"{CLI} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    try:
        time.sleep(2.5)
        with (run / "logs" / "run_eval.log").open("w") as log:
            subprocess.run(["bash", "run_eval.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=180,
                           check=True)
    finally:
        for process in processes:
            process.terminate()
            process.wait(10)
    return run


@pytest.mark.parametrize("model_option", ["", " --model sft-agent"])
def test_a_collection_without_model_evaluates_the_base_model_listed_before_the_adapter(tmp_path: Path,
                                                                                        model_option: str) -> None:
    run = _eval_of_the_adapter(tmp_path, model_option)
    served = (run / "logs" / "model_server.log").read_text()

    report = diagnose(run)

    if model_option:
        assert "model=sft-agent" in served and "model=base-7b" not in served
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "model=base-7b" in served and "model=sft-agent" not in served
    top = report.causes[0]
    assert (top.category, top.id) == ("config", RULE), [f.title for f in report.causes]
    assert top.title == ("The collection ran base-7b, the first model the endpoint lists, while the run is of "
                         "sft-agent: run_eval.sh:4 gives no --model")
    assert "lists 2 models (base-7b, sft-agent)" in top.evidence[1].text
    assert top.fix.startswith("In run_eval.sh, pass the model meant: `gym-pipeline collect ... --model sft-agent`")
