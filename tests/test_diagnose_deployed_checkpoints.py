"""A checkpoint deployed to the serving folder by the user's script, last week step_0100 and this week step_0200, the
model server started on the serving folder each week, run for real:
- `cp -r SRC serving/current` onto the folder last week's copy made: cp copies SRC into it, and the server loads
  step_0100 again;
- `cp -rn SRC/. serving/current/` (no-clobber): every file exists under the same name, nothing is copied;
- a serving script taking its checkpoint from `$1` with a default, given it as an exported variable: the default wins.
The diagnosis names the deploy's log line, the server's, and the script line (model serving). Replacing the folder
(`rm -rf` then `cp -r`) serves step_0200: healthy."""

import subprocess
from pathlib import Path

import pytest
from launcher_support import wait_for
from script_support import CLI, MATERIALIZE, SERVERS_START_WAIT_S

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment
from gym_pipeline.host import free_loopback_port
from gym_pipeline.serving.checkpoints import demo_checkpoints

DEPLOYS = {
    "nest": "cp -r {checkpoints}/$1 {serving}",
    "no_clobber": "mkdir -p {serving}\ncp -rn {checkpoints}/$1/. {serving}/",
    "replace": "rm -rf {serving} && cp -r {checkpoints}/$1 {serving}",
}
EVAL = (MATERIALIZE + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url "
        "$1 --env string_match --concurrency 4\n"
        f"{CLI} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")


def _served_week(run: Path, week: str, serve: list[str], environment: dict[str, str] | None = None) -> None:
    """One week's serving: the server started by `serve` (logs/model_server[_last_week].log), then the eval."""
    port = free_loopback_port()
    suffix = "" if week == "this" else "_last_week"
    with (run / "logs" / f"model_server{suffix}.log").open("w") as log:
        server = subprocess.Popen([*serve, str(port)], cwd=run, stdout=log, stderr=subprocess.STDOUT,
                                  env=environment)
    try:
        assert wait_for(lambda: "READY" in (run / "logs" / f"model_server{suffix}.log").read_text(),
                        SERVERS_START_WAIT_S)
        with (run / "logs" / f"run_eval{suffix}.log").open("w") as log:
            subprocess.run(["bash", "run_eval.sh", f"http://127.0.0.1:{port}/v1"], cwd=run, stdout=log,
                           stderr=subprocess.STDOUT, timeout=300, check=True)
    finally:
        server.terminate()
        server.wait(10)


def _run(tmp_path: Path) -> tuple[Path, Path]:
    demo_checkpoints(tmp_path / "checkpoints", 2, ["string_match"])
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    rows = get_environment("string_match").dataset_path.read_text().splitlines(keepends=True)[:8]
    (run / "data.jsonl").write_text("".join(rows))
    (run / "run_eval.sh").write_text("#!/bin/bash\n# weekly eval against the served model (its URL is $1)\n" + EVAL)
    return run, tmp_path / "checkpoints"


@pytest.mark.parametrize("deploy", list(DEPLOYS))
def test_a_deploy_copy_that_leaves_last_weeks_checkpoint_served_is_named(tmp_path: Path, deploy: str) -> None:
    run, checkpoints = _run(tmp_path)
    serving = tmp_path / "serving" / "current"
    serving.parent.mkdir()
    (run / "deploy.sh").write_text("#!/bin/bash\n# deploy.sh STEP: the checkpoint onto the serving disk\n"
                                   + DEPLOYS[deploy].format(checkpoints=checkpoints, serving=serving)
                                   + f'\necho "deployed $1 to {serving}"\nls {serving}\n')
    serve = [*CLI.split(), "serve-policy", "--checkpoint", str(serving), "--port"]
    for week, step in (("last", "step_0100"), ("this", "step_0200")):
        with (run / "logs" / f"deploy{'' if week == 'this' else '_last_week'}.log").open("w") as log:
            subprocess.run(["bash", "deploy.sh", step], cwd=run, stdout=log, stderr=subprocess.STDOUT, check=True)
        _served_week(run, week, serve)
    served = (run / "logs" / "model_server.log").read_text()
    assert ("checkpoint step 200" in served) == (deploy == "replace"), served  # the copy really left step 100

    report = diagnose(run)

    if deploy == "replace":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "deployed_checkpoint_not_the_one_served"), top.title
    assert [line.where for line in top.evidence] == ["logs/deploy.log:1", "logs/model_server.log:1",
                                                     f"deploy.sh:{3 if deploy == 'nest' else 4}"]
    assert ("replace the folder rather than copy into it" if deploy == "nest" else "drop `-n` (`cp -n`") in top.fix


def test_a_serving_script_taking_its_checkpoint_from_its_first_argument_overwrites_an_exported_one(tmp_path: Path):
    run, checkpoints = _run(tmp_path)
    (run / "serve.sh").write_text(f"#!/bin/bash\n# serve.sh [CHECKPOINT]: the team's serving script, on $PORT\n"
                                  f"CKPT=${{1:-{checkpoints}/step_0100}}\n"
                                  f"exec {CLI} serve-policy --checkpoint $CKPT --port $PORT\n")
    (run / "submit.sh").write_text(f"#!/bin/bash\nexport CKPT={checkpoints}/step_0200\n"
                                   'echo "model server for $CKPT"\n')
    with (run / "logs" / "submit.log").open("w") as log:
        subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, check=True)
    _served_week(run, "this", ["bash", "-c", "PORT=$0 exec bash serve.sh"], environment={"CKPT": str(checkpoints / "step_0200"),
                                                                  "PATH": "/usr/bin:/bin"})
    assert "checkpoint step 100" in (run / "logs" / "model_server.log").read_text()  # the default won

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("model_serving", "deployed_checkpoint_not_the_one_served"), top.title
    assert [line.where for line in top.evidence] == ["logs/submit.log:1", "logs/model_server.log:1", "serve.sh:3"]
    assert "`$1`" in top.fix and "`--export` or `export` is overwritten" in top.fix


@pytest.mark.parametrize("reads_its_argument", [False, True])
def test_a_serving_script_taking_its_checkpoint_from_a_variable_ignores_one_given_as_its_argument(
        tmp_path: Path, reads_its_argument: bool) -> None:
    run, checkpoints = _run(tmp_path)
    chosen = "${1:-${CKPT:-%s/step_0100}}" if reads_its_argument else "${CKPT:-%s/step_0100}"
    (run / "serve.sh").write_text("#!/bin/bash\n# serve.sh: the team's serving script, on $PORT. Which checkpoint: "
                                  "CKPT=/path (default: the released one)\n"
                                  f"CKPT={chosen % checkpoints}\n"
                                  f"exec {CLI} serve-policy --checkpoint $CKPT --port $PORT\n")
    (run / "submit.sh").write_text(f"#!/bin/bash\necho \"model server for {checkpoints}/step_0200\" | tee logs/submit.log\n"
                                   f"PORT=$1 exec bash serve.sh {checkpoints}/step_0200\n")
    _served_week(run, "this", ["bash", "submit.sh"])
    served = (run / "logs" / "model_server.log").read_text()
    assert ("checkpoint step 200" in served) == reads_its_argument, served  # without $1, the default won

    report = diagnose(run)

    if reads_its_argument:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "deployed_checkpoint_not_the_one_served"), top.title
    assert [line.where for line in top.evidence][-1] == "serve.sh:3"
    assert "serve.sh ignores its arguments: give it the checkpoint as CKPT" in top.fix and "submit.sh (line 3)" in top.fix
