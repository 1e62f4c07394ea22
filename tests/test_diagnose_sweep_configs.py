"""The stages run with another sweep config than the one the user edits: run_stages.sh passes `--sweep-config
sweep.json`, an export of last month (2 repeats), while the user set 3 repeats in sweep.yaml beside it. Run for real
by bash (`gym-pipeline stage materialize|collect|profile`) against the simulated policy, the run folder linked as
the partition's run directory; its twin passes sweep.yaml and is whole."""

import json
import os
from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose


@pytest.mark.parametrize("passed", ["sweep.json", "sweep.yaml"])
def test_stages_run_with_an_older_sweep_config_than_the_one_edited(tmp_path: Path, passed: str) -> None:
    run = tmp_path / "run"
    run.mkdir()
    common = {"name": "nightly", "environments": [{"name": "string_match", "dataset": str(run / "data.jsonl")}],
              "checkpoints_dir": str(tmp_path / "checkpoints"), "runs_dir": str(tmp_path / "runs"), "concurrency": 4}
    (run / "sweep.json").write_text(json.dumps(common | {"num_repeats": 2}, indent=2) + "\n")
    os.utime(run / "sweep.json", (1_700_000_000, 1_700_000_000))  # exported last month
    (run / "sweep.yaml").write_text("# nightly sweep (edit this one)\n" + json.dumps(common | {"num_repeats": 3}) + "\n")
    stage = f"{CLI} stage {{}} --sweep-config {passed} --checkpoint CKPT --env string_match --code-version v1"
    script = (f"mkdir -p {tmp_path}/runs/CKPT && ln -sfn $PWD {tmp_path}/runs/CKPT/string_match\n"
              + stage.format("materialize") + "\n"
              + stage.format("collect") + " --model-url URL --model-name sim-policy\n"
              + stage.format("profile") + "\n")
    run = run_scripts(tmp_path, [script])

    report = diagnose(run)

    if passed == "sweep.yaml":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "stale_inputs")
    assert top.title == ("run_eval.sh:3 runs the stages with --sweep-config sweep.json, not sweep.yaml: the settings "
                         "edited in sweep.yaml never reached the run")
    assert "sweep.yaml asks for num_repeats 2 -> 3 (environment string_match)" in top.cause
    assert "(`--sweep-config sweep.yaml`), or remove the copy sweep.json" in top.fix
