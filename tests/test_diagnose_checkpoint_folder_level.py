"""A serving script taking "the latest checkpoint" with a glob one level deep, run for real after the trainer began to
nest its steps in a folder per training run: the glob picks the run's folder, the model server refuses it
(`config.json: missing`), and nothing is collected (model serving, the script's line named). A glob reaching the steps
serves the latest one, and the run is healthy."""

from pathlib import Path

import pytest
from script_support import CLI, materialize_line, run_eval_script, string_match_run

from gym_pipeline.diagnose import diagnose
from gym_pipeline.host import free_loopback_port
from gym_pipeline.serving.checkpoints import demo_checkpoints


@pytest.mark.parametrize("glob", ["checkpoints/*/", "checkpoints/*/step_*/"])
def test_a_glob_one_level_short_of_the_nested_steps_serves_the_runs_folder(tmp_path: Path, glob: str) -> None:
    run, _ = string_match_run(tmp_path, rows=6)
    demo_checkpoints(run / "checkpoints" / "sft-run-1201", 2, ["string_match"])
    port = free_loopback_port()
    (run / "serve.sh").write_text(f"#!/bin/bash\n# serve the latest checkpoint of the training run\n"
                                  f"CKPT=$(ls -d {glob} | sort | tail -1)\necho \"serving $CKPT\"\n"
                                  f"exec {CLI} serve-policy --port {port} --checkpoint \"$CKPT\"\n")
    (run / "run_eval.sh").write_text(
        "#!/bin/bash\nbash serve.sh > logs/model_server.log 2>&1 &\n"
        f"for i in $(seq 20); do (echo > /dev/tcp/127.0.0.1/{port}) 2>/dev/null && break; sleep 1; done\n"
        + materialize_line(2)
        + f"timeout 60 {CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
        f"--model-url http://127.0.0.1:{port}/v1 --env string_match --concurrency 4\nkill %1\n")
    run_eval_script(run)

    report = diagnose(run)

    if glob.endswith("step_*/"):
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "config.json: missing" in (run / "logs" / "model_server.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "checkpoint_folder_one_level_up"), [
        f.title for f in report.causes]
    assert top.title.startswith("The model server was given checkpoints/sft-run-1201, a folder of checkpoints")
    assert [line.where for line in top.evidence][1:] == ["serve.sh:3"]
    assert "`checkpoints/sft-run-1201/step_0200`" in top.fix
