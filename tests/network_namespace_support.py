"""Users' run scripts run for real by bash in a private network namespace (`unshare --net`, as root): the firewall
rules, NAT redirects and traffic shaping they set stay inside it, and so do the ports their servers take."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gym_pipeline.environments import get_environment
from gym_pipeline.serving.checkpoints import demo_checkpoints

CLI = f"{sys.executable} -m gym_pipeline.cli"


def serve_and_collect_within(port: int, budget_s: int) -> str:
    """Script lines: the policy on `port` (CKPT0) in the background, waited for; the inputs materialized; then one
    collection against it under the CI step's budget of `budget_s` seconds. The caller's next lines may `kill %1`."""
    return (f"{CLI} serve-policy --port {port} --checkpoint CKPT0 --latency-ms 30 > logs/model_server.log 2>&1 &\n"
            f"for i in $(seq 60); do (echo > /dev/tcp/127.0.0.1/{port}) 2>/dev/null && break; sleep 1; done\n"
            f"{CLI} materialize --input data.jsonl --num-repeats 2 --agent string_match_simple_agent "
            "--output rollouts_materialized_inputs.jsonl\n"
            "# the CI step's budget\n"
            f"timeout {budget_s} {CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
            f"--model-url http://127.0.0.1:{port}/v1 --env string_match --concurrency 4\n")


def needs_root_and(tool: str) -> pytest.MarkDecorator:
    """Skip unless the tests run as root (for `unshare --net`) on a machine that has `tool`."""
    return pytest.mark.skipif(os.geteuid() != 0 or shutil.which(tool) is None,
                              reason=f"needs root (unshare --net) and {tool}")


def run_in_private_network(tmp_path: Path, script: str, checkpoints: int = 1, rows: int = 6) -> Path:
    """A run folder (data.jsonl: the first `rows` string_match rows, logs/) whose run_eval.sh, `script` after the
    loopback is brought up, ran in a network namespace of its own; CKPT0, CKPT1... in `script` are demo checkpoints."""
    made = demo_checkpoints(tmp_path / "checkpoints", checkpoints, ["string_match"])
    run = tmp_path / "run"  # it may hold the user's other scripts already
    (run / "logs").mkdir(parents=True, exist_ok=True)
    data = get_environment("string_match").dataset_path.read_text().splitlines(keepends=True)
    (run / "data.jsonl").write_text("".join(data[:rows]))
    for index, checkpoint in enumerate(made):
        script = script.replace(f"CKPT{index}", str(checkpoint))
    (run / "run_eval.sh").write_text("#!/bin/bash\nip link set lo up\n" + script)
    with (run / "logs" / "run_eval.log").open("w") as log:
        subprocess.run(["unshare", "--net", "bash", "run_eval.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT,
                       timeout=300)
    return run
