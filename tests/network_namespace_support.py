"""Users' run scripts run for real by bash in a private network namespace (`unshare --net`, as root): the firewall
rules, NAT redirects and traffic shaping they set stay inside it, and so do the ports their servers take."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from gym_pipeline.environments import get_environment
from gym_pipeline.serving.checkpoints import demo_checkpoints


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
