"""A serving script that picks "the best checkpoint" from the trainer's metrics, run for real: with `max` of the
validation loss it serves the worst step, and the eval measures it without an error (model serving, the line named).
With `min`, it serves the best step and the run is healthy."""

import json
import sys
from pathlib import Path

import pytest
from script_support import CLI, materialize_line, run_eval_script, string_match_run

from gym_pipeline.diagnose import diagnose
from gym_pipeline.host import free_loopback_port
from gym_pipeline.serving.checkpoints import demo_checkpoints


@pytest.mark.parametrize("pick", ["max", "min"])
def test_the_best_checkpoint_picked_by_the_highest_loss_is_the_worst_and_is_named(tmp_path: Path, pick: str) -> None:
    run, _ = string_match_run(tmp_path, rows=6)
    demo_checkpoints(run / "checkpoints", 2, ["string_match"])  # step_0100, step_0200
    (run / "checkpoints" / "metrics.jsonl").write_text(
        "".join(json.dumps(row) + "\n" for row in ({"step": 100, "val_loss": 1.92}, {"step": 200, "val_loss": 0.71})))
    port = free_loopback_port()
    (run / "serve_best.py").write_text(
        '"""Serve the run\'s best checkpoint by validation loss."""\nimport json\nimport os\n\n'
        'rows = [json.loads(line) for line in open("checkpoints/metrics.jsonl")]\n'
        f'best = {pick}(rows, key=lambda row: row["val_loss"])\n'
        "step = f\"step_{best['step']:04d}\"\n"
        'print(f"best checkpoint by validation loss: {step}", flush=True)\n'
        f"os.execv({sys.executable!r}, [{sys.executable!r}, '-m', 'gym_pipeline.cli', 'serve-policy', '--port', "
        f"'{port}', '--checkpoint', f'checkpoints/{{step}}'])\n")
    (run / "run_eval.sh").write_text(
        f"#!/bin/bash\n{sys.executable} serve_best.py > logs/model_server.log 2>&1 &\n"
        f"for i in $(seq 30); do (echo > /dev/tcp/127.0.0.1/{port}) 2>/dev/null && break; sleep 1; done\n"
        + materialize_line(2)
        + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
        f"--model-url http://127.0.0.1:{port}/v1 --env string_match --concurrency 4\nkill %1\n")
    run_eval_script(run)

    report = diagnose(run)

    if pick == "min":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "step_0100" in (run / "logs" / "model_server.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "best_checkpoint_by_the_highest_loss")
    assert top.title.startswith("serve_best.py:6 picks the checkpoint with the highest val_loss, the worst: step 100")
    assert "pick with `min`" in top.fix and "step_0200" in top.fix
