"""A serving script that points a `latest` link at this week's checkpoint, run for real: written with its target
relative to where `ln` runs (`ln -sfn checkpoints/step_0100 checkpoints/latest`), the link resolves it from its own
folder and dangles; the model server finds no checkpoint, and the stages get an empty URL. The diagnosis names the
`ln` line (model serving). Written relative to the link's folder, the link serves the checkpoint and the run is
healthy."""

from __future__ import annotations

from pathlib import Path

import pytest
from script_support import CLI, materialize_line, run_eval_script, string_match_run

from gym_pipeline.diagnose import diagnose


@pytest.mark.parametrize("target", ["checkpoints/step_0100", "step_0100"])
def test_a_latest_link_whose_target_is_relative_to_the_wrong_folder_leaves_no_checkpoint_to_serve(
        tmp_path: Path, target: str) -> None:
    run, checkpoint = string_match_run(tmp_path, rows=6)
    trainer = checkpoint.parent.parent  # .../checkpoints/step_0100: the training run's folder holds checkpoints/
    (run / "run_eval.sh").write_text(
        f"#!/bin/bash\n(cd {trainer} && ln -sfn {target} checkpoints/latest)\nrm -f policy_url.txt\n"
        f"{CLI} serve-policy --port 0 --ready-file policy_url.txt --checkpoint {trainer}/checkpoints/latest "
        ">> logs/model_server.log 2>&1 &\nSERVER=$!\n"
        "for i in $(seq 60); do [ -s policy_url.txt ] && break; sleep 0.5; done\nURL=$(cat policy_url.txt 2>/dev/null)\n"
        + materialize_line(2)
        + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url \"$URL\" "
        "--env string_match --concurrency 4\nkill $SERVER\n")
    run_eval_script(run)

    report = diagnose(run)

    if target == "step_0100":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "checkpoint folder not found" in (run / "logs" / "model_server.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "checkpoint_link_resolved_from_its_own_folder"), [
        f.title for f in report.causes]
    assert top.title.startswith("run_eval.sh:2 links checkpoints/latest to `checkpoints/step_0100`")
    assert "`ln -sfn step_0100 checkpoints/latest`" in top.fix
    assert len(report.causes) == 1  # the empty URL the collection refused followed from it
