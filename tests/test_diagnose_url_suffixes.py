"""A driver that normalises the policy URL with `.rstrip("/v1")`, run for real against a server on a port ending in 1:
rstrip removes characters, not the suffix, so port 18001 loses its last digit and the collection asks a port where
nothing listens (config, the line named, not the server). With `.removesuffix("/v1")`, the run is healthy."""

import random
import socket
import subprocess
from pathlib import Path

import pytest
from launcher_support import wait_for
from script_support import CLI, materialize_line, run_eval_script, string_match_run

from gym_pipeline.diagnose import diagnose

DRIVER = f'''"""eval.py: the weekly eval against the policy URL of eval.json, with or without its /v1."""
import json
import subprocess

cfg = json.load(open("eval.json"))
url = cfg["policy_url"].NORMALISE + "/v1"
print(f"== evaluating {{url}}", flush=True)
subprocess.run({CLI.split()!r} + ["collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output",
                "rollouts.jsonl", "--model-url", url, "--env", "string_match", "--concurrency", "4"], check=True)
'''


def _free_port_ending_in_1() -> int:
    """A free loopback port whose last digit is 1 (the digit `.rstrip("/v1")` eats), from a random start: twins run at
    once."""
    start = random.randrange(20001, 60000, 10)
    for port in [*range(start, 60000, 10), *range(20001, start, 10)]:
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise AssertionError("no free port ending in 1")


@pytest.mark.parametrize("normalise", ['rstrip("/v1")', 'removesuffix("/v1")'])
def test_a_url_normalised_with_rstrip_of_its_path_loses_the_ports_last_digit(tmp_path: Path, normalise: str) -> None:
    run, checkpoint = string_match_run(tmp_path, 6)
    port = _free_port_ending_in_1()
    (run / "eval.json").write_text(f'{{"policy_url": "http://127.0.0.1:{port}/v1"}}\n')
    (run / "eval.py").write_text(DRIVER.replace("NORMALISE", normalise))
    (run / "run_eval.sh").write_text("#!/bin/bash\n" + materialize_line(2) + f"{CLI.split()[0]} eval.py\n")
    with (run / "logs" / "model_server.log").open("w") as log:
        server = subprocess.Popen([*CLI.split(), "serve-policy", "--checkpoint", str(checkpoint), "--port", str(port)],
                                  stdout=log, stderr=subprocess.STDOUT)
    try:
        assert wait_for(lambda: "READY" in (run / "logs" / "model_server.log").read_text(), 120)
        run_eval_script(run)
    finally:
        server.terminate()
        server.wait(10)

    report = diagnose(run)

    if normalise.startswith("removesuffix"):
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "endpoint_not_where_server_listens"), [f.title for f in report.causes]
    assert top.title == (f"eval.py:6 strips the characters of `/v1` from the URL's end, not the suffix: port {port} "
                         f"became {str(port).rstrip('1')}")
    assert '`url.removesuffix("/v1")`' in top.fix
