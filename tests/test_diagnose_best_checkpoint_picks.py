"""A serving script that picks "the best checkpoint" from the trainer's metrics, run for real: with `max` of the
validation loss it serves the worst step, and the eval measures it without an error (model serving, the line named).
With `min`, it serves the best step and the run is healthy. The same with a text sort of percentages in a shell
(`sort -t, -k2 -r | head -1`): with `-rn`, healthy."""

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


@pytest.mark.parametrize("options", ["-t, -k2 -r", "-t, -k2 -rn"], ids=["text", "numeric"])
def test_the_best_checkpoint_picked_by_a_text_sort_of_accuracies_is_named(tmp_path: Path, options: str) -> None:
    """The same choice in a shell, from the trainer's val_summary.csv of percentages: `sort -t, -k2 -r | head -1`
    sorts them as text, `9.8` before `57.5`, and serves step_0100 (model serving, the sort named). With `-rn`, the
    best step is served: healthy."""
    run, _ = string_match_run(tmp_path, rows=6)
    demo_checkpoints(run / "checkpoints", 2, ["string_match"])  # step_0100, step_0200
    (run / "checkpoints" / "val_summary.csv").write_text("checkpoint,val_accuracy_pct\nstep_0100,9.8\nstep_0200,57.5\n")
    port = free_loopback_port()
    (run / "serve_best.sh").write_text(
        "#!/bin/bash\n# serve the checkpoint with the best validation accuracy\n"
        f"BEST=$(tail -n +2 checkpoints/val_summary.csv | sort {options} | head -1 | cut -d, -f1)\n"
        'echo "best checkpoint by val accuracy: $BEST"\n'
        f"exec {CLI} serve-policy --port {port} --checkpoint checkpoints/$BEST\n")
    (run / "run_eval.sh").write_text(
        "#!/bin/bash\nbash serve_best.sh > logs/model_server.log 2>&1 &\n"
        f"for i in $(seq 30); do (echo > /dev/tcp/127.0.0.1/{port}) 2>/dev/null && break; sleep 1; done\n"
        + materialize_line(2)
        + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
        f"--model-url http://127.0.0.1:{port}/v1 --env string_match --concurrency 4\nkill %1\n")
    run_eval_script(run)

    report = diagnose(run)

    if options.endswith("n"):
        assert "step_0200" in (run / "logs" / "model_server.log").read_text()
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "step_0100" in (run / "logs" / "model_server.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "best_checkpoint_by_a_text_sort"), [f.title for f in report.causes]
    assert top.title.startswith("serve_best.sh:3 picks step_0100 from val_summary.csv with a text sort of column 2")
    assert "`sort -t, -k2 -rn`" in top.fix and "step_0200" in top.fix
