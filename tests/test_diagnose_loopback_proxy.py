"""A proxy exported for the node's outbound traffic (`export https_proxy=...` in a login profile) without a `no_proxy`
for loopback, run for real: the user's smoke check of the model server, with requests, sends its loopback call to the
proxy, which is not there, and the script stops before collecting. The diagnosis names the proxy (infra), read from requests' own
error, which names the proxy's host and port beside the loopback URL. With `no_proxy=127.0.0.1,localhost`, healthy."""

import sys
from pathlib import Path

import pytest
from script_support import CLI, MATERIALIZE, run_scripts

from gym_pipeline.diagnose import diagnose
from gym_pipeline.host import free_loopback_port

SMOKE_CHECK = '''"""ask_model.py URL: one question to the model server before the eval."""
import sys

import requests

reply = requests.post(sys.argv[1] + "/chat/completions", timeout=30, json={
    "model": "sim-policy", "messages": [{"role": "user", "content": "What is 2 + 2?"}]})
print("model server answered:", reply.status_code)
'''


@pytest.mark.parametrize("no_proxy", [False, True])
def test_a_proxy_without_no_proxy_catches_the_calls_to_the_model_server_on_loopback(tmp_path: Path,
                                                                                    no_proxy: bool) -> None:
    proxy = f"http://127.0.0.1:{free_loopback_port()}"  # nothing listens: the proxy of another network
    script = (f"export https_proxy={proxy} http_proxy={proxy}  # the node's login profile\n"
              + ("export no_proxy=127.0.0.1,localhost\n" if no_proxy else "")
              + "env | grep -i _proxy | sort\n"
              + f"{sys.executable} ask_model.py URL || {{ echo 'smoke check failed: not collecting'; exit 1; }}\n"
              + MATERIALIZE
              + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
                "--env string_match --concurrency 4\n")
    run = run_scripts(tmp_path, [script], files={"ask_model.py": SMOKE_CHECK})

    report = diagnose(run)

    if no_proxy:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "Max retries exceeded with url: http://127.0.0.1:" in (run / "logs" / "run_eval_0.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "proxy_intercepts_loopback"), [f.title for f in report.causes]
    assert top.title == f"An HTTP proxy ({proxy}) catches the calls to the servers on loopback"
    assert "`export no_proxy=127.0.0.1,localhost" in top.fix
