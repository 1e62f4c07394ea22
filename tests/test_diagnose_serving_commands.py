"""Serving scripts whose command line the model server refuses, run for real: the server never starts, and the
collection finds nothing to answer it (model serving).

- A checkpoint named with an unquoted glob (`--checkpoint $1/step_02*`): once the training run has written a second
  folder the glob matches (step_0250 beside step_0200), the shell passes both and the server refuses the second
  (`unrecognized arguments`). With one match, the server starts and the run is healthy.
- A team wrapper that passes the user's options and then its own baseline (`"$@" --checkpoint $BASELINE`): given a
  checkpoint, the server gets `--checkpoint` twice and refuses it. A wrapper that adds the baseline only when none is
  given serves the user's."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment
from gym_pipeline.host import free_loopback_port
from gym_pipeline.serving.checkpoints import demo_checkpoints

CLI = f"{sys.executable} -m gym_pipeline.cli"


def _served_by_script(tmp_path: Path, serve_script: str, serve_arguments: str) -> Path:
    """A run folder whose run_eval.sh starts the model server with `bash serve.sh <serve_arguments>` (PORT in either
    text is the server's port), waits for it (or for it to die), then materializes and collects against it."""
    port = free_loopback_port()
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    rows = get_environment("string_match").dataset_path.read_text().splitlines(keepends=True)
    (run / "data.jsonl").write_text("".join(rows[:6]))
    (run / "serve.sh").write_text(serve_script.replace("PORT", str(port)))
    (run / "run_eval.sh").write_text(
        f"#!/bin/bash\nbash serve.sh {serve_arguments.replace('PORT', str(port))} > logs/model_server.log 2>&1 &\n"
        "SERVER=$!\nfor i in $(seq 60); do\n  kill -0 $SERVER 2>/dev/null || break\n"
        f"  (echo > /dev/tcp/127.0.0.1/{port}) 2>/dev/null && break\n  sleep 1\ndone\n"
        f"{CLI} materialize --input data.jsonl --num-repeats 2 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
        f"--model-url http://127.0.0.1:{port}/v1 --env string_match --concurrency 4\n"
        "kill $SERVER 2>/dev/null\n")
    with (run / "logs" / "run_eval.log").open("w") as log:
        subprocess.run(["bash", "run_eval.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=300)
    return run


@pytest.mark.parametrize("second_match", [True, False])
def test_a_checkpoint_glob_matching_two_folders_keeps_the_model_server_from_starting(tmp_path: Path,
                                                                                   second_match: bool) -> None:
    training = tmp_path / "training_run"
    step_0200 = demo_checkpoints(training, 2, ["string_match"])[1]
    if second_match:
        shutil.copytree(step_0200, training / "step_0250")
    run = _served_by_script(tmp_path, "#!/bin/bash\n# serve.sh CHECKPOINTS PORT: the step-2xx checkpoint of the run\n"
                                      f"exec {CLI} serve-policy --port $2 --checkpoint $1/step_02* --latency-ms 30\n",
                            f"{training} PORT")

    report = diagnose(run)

    if not second_match:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "unrecognized arguments" in (run / "logs" / "model_server.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "glob_matched_more_than_one"), [f.title for f in report.causes]
    assert top.title == ("serve.sh:3 names one folder with the glob `--checkpoint $1/step_02*`, which matched more "
                         "than one: the command refused `step_0250` and the model server never started")
    assert [line.where for line in top.evidence] == ["logs/model_server.log:1", "serve.sh:3"]
    assert top.fix.startswith("In serve.sh:3, name the one folder meant instead of the glob `$1/step_02*` (it now "
                              "matches step_0250 too)")


@pytest.mark.parametrize("wrapper", ['"$@" --checkpoint $BASELINE', '"${@:---checkpoint $BASELINE}"'])
def test_a_serving_wrapper_adding_its_own_checkpoint_after_the_users_keeps_the_server_from_starting(
        tmp_path: Path, wrapper: str) -> None:
    baseline, mine = demo_checkpoints(tmp_path / "training_run", 2, ["string_match"])
    run = _served_by_script(tmp_path, "#!/bin/bash\n# serve.sh [serve-policy options]: the team's server, on the "
                                      f"baseline unless told otherwise\nBASELINE={baseline}\n"
                                      f"exec {CLI} serve-policy --port PORT --latency-ms 30 {wrapper}\n",
                            f"--checkpoint {mine}")

    report = diagnose(run)

    if ":-" in wrapper:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "--checkpoint given twice" in (run / "logs" / "model_server.log").read_text()
    top = report.causes[0]
    assert top.category == "model_serving", [f.title for f in report.causes]
    assert top.evidence[0].where == "logs/model_server.log:1"
    assert "Fix the command that starts the model server" in top.fix
