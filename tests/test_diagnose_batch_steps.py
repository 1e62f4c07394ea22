"""A model server started with `srun ... &` by a batch script that ends without `wait`, on the real Slurm.

Slurm cancels the job's steps when the batch script ends: the server printed its URL and was gone, and the
collection against it found nothing. The diagnosis names the script's line, not a cancelled job; the same script
ending with `wait` is no finding of that kind.
"""

import subprocess
import sys
import time
from pathlib import Path

import pytest
from launcher_support import slurm_cluster, wait_for

from gym_pipeline.core.materialize import MaterializationSettings, materialize_file
from gym_pipeline.diagnose import diagnose
from gym_pipeline.diagnose.vocabulary import MODEL_SERVING
from gym_pipeline.environments import get_environment
from gym_pipeline.serving.checkpoints import demo_checkpoints

pytestmark = pytest.mark.integration  # needs the real one-node Slurm

CLI = [sys.executable, "-m", "gym_pipeline.cli"]
RULE = "step_ended_with_its_batch_script"


def _batch_served_run(tmp_path: Path, ending: str) -> Path:
    """A run folder whose model server a batch job started in the background; `ending` is the script's last line."""
    slurm_cluster()
    environment = get_environment("string_match")
    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 1, ["string_match"])[0]
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    ready = run / "server_url"
    script = run / "serve.sbatch"
    script.write_text(
        "#!/bin/bash\n#SBATCH --job-name=serve-policy\n"
        f"#SBATCH --output={run}/logs/serve_%j.log\n#SBATCH --time=2\n"
        f"srun --ntasks=1 {' '.join(CLI)} serve-policy --port 0 --ready-file {ready} --checkpoint {checkpoint} &\n"
        f"for i in $(seq 60); do [ -s {ready} ] && break; sleep 1; done\n"
        'echo "model server up"\n' + ending)
    job = subprocess.run(["sbatch", "--parsable", str(script)], capture_output=True, text=True, check=True,
                         timeout=30).stdout.strip()
    try:
        assert wait_for(lambda: ready.exists() and bool(ready.read_text().strip()), 60), "the server never started"
        url = ready.read_text().strip()  # the server removes its ready file when it stops
        time.sleep(10)  # the script's end, and Slurm's cancel of its step when nothing waits
        inputs = run / "rollouts_materialized_inputs.jsonl"
        materialize_file(environment.dataset_path, inputs, MaterializationSettings(2, environment.agent_name))
        with (run / "logs" / "run_eval.log").open("w") as log:
            subprocess.run([*CLI, "collect", "--inputs", str(inputs), "--output", str(run / "rollouts.jsonl"),
                            "--model-url", url, "--env", "string_match"],
                           stdout=log, stderr=subprocess.STDOUT, timeout=120)
    finally:
        subprocess.run(["scancel", job], check=False, timeout=30)
        wait_for(lambda: not subprocess.run(["squeue", "-h", "-j", job], capture_output=True, text=True,
                                            timeout=30).stdout.strip(), 60)
    return run


def test_a_server_step_the_batch_script_does_not_wait_for_is_cancelled_with_the_job(tmp_path: Path) -> None:
    run = _batch_served_run(tmp_path, ending="")

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == (MODEL_SERVING, RULE)
    assert top.evidence[0].where == "serve.sbatch:5"
    assert "CANCELLED" in top.evidence[-1].text
    assert "add `wait` after the `srun ... &` line" in top.fix


def test_a_batch_script_that_waits_for_its_server_step_is_not_blamed(tmp_path: Path) -> None:
    run = _batch_served_run(tmp_path, ending="wait\n")

    assert all(finding.id != RULE for finding in diagnose(run).findings)
