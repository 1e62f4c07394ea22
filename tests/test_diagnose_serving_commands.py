"""Serving scripts whose command line the model server refuses, run for real: the server never starts, and the
collection finds nothing to answer it (model serving).

- A checkpoint named with an unquoted glob (`--checkpoint $1/step_02*`): once the training run has written a second
  folder the glob matches (step_0250 beside step_0200), the shell passes both and the server refuses the second
  (`unrecognized arguments`). With one match, the server starts and the run is healthy.
- A team wrapper that passes the user's options and then its own baseline (`"$@" --checkpoint $BASELINE`): given a
  checkpoint, the server gets `--checkpoint` twice and refuses it. A wrapper that adds the baseline only when none is
  given serves the user's.
- A serving script that takes the first checkpoint `find` lists (`find ckpts -name 'step_*' | head -n 1`), written when
  the trainer kept one: with two, find's directory order (no order of steps) picks the older. It still starts; the
  rollouts are the older checkpoint's. With one checkpoint in the folder, it is healthy.
- A serving script taking the newest checkpoint as the last of a text sort (`ls ckpts | sort | tail -1`) of names
  without zero padding: `step_900` sorts after `step_1000`, and the older one is served. With `sort -V`, healthy.
- A serving script padding the step it is given with `printf 'step_%04d'`: given `0200` as the trainer writes it,
  printf reads it as octal and the server is pointed at step_0128. Read as decimal (`$((10#$2))`), healthy.
- A checkpoint chosen from a training run that is still saving (`ls` kept in logs/choose_checkpoint.log), deleted by
  the trainer's rotation (keep the last two) before the eval served it: the server exits at start. Served from a copy
  made when it was chosen, healthy.
- A serving script taking the step to serve from the first `"step"` of the trainer's trainer_state.json (`grep ... |
  head -1`): that is the oldest entry of its log history, and an early checkpoint is served. Reading `global_step`,
  healthy.
- A run script that waits for the URL file its serve.sh writes (`until [ -s policy.url ]`) while last week's server,
  still running, keeps its own URL in that file: the wait ends at once and the collection asks the step 100 server,
  not the step 200 one the script started. Removing the file before starting the server, healthy."""

import itertools
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment
from gym_pipeline.host import free_loopback_port
from gym_pipeline.serving.checkpoints import create_checkpoint, demo_checkpoints, knowledge_from

CLI = f"{sys.executable} -m gym_pipeline.cli"


def _served_by_script(tmp_path: Path, serve_script: str, serve_arguments: str, preamble: str = "") -> Path:
    """A run folder whose run_eval.sh (after its `preamble` lines) starts the model server with `bash serve.sh
    <serve_arguments>` (PORT in either text is the server's port), waits for it (or for it to die), then materializes
    and collects against it."""
    port = free_loopback_port()
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True, exist_ok=True)  # a log the user kept before may be there
    rows = get_environment("string_match").dataset_path.read_text().splitlines(keepends=True)
    (run / "data.jsonl").write_text("".join(rows[:6]))
    (run / "serve.sh").write_text(serve_script.replace("PORT", str(port)))
    (run / "run_eval.sh").write_text(
        f"#!/bin/bash\n{preamble}bash serve.sh {serve_arguments.replace('PORT', str(port))} > logs/model_server.log 2>&1 &\n"
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
    assert (top.category, top.id) == ("model_serving", "wrapper_adds_an_option_its_caller_gave"), [
        f.title for f in report.causes]
    assert top.title == ("serve.sh:4 passes its caller's options (`\"$@\"`) and then `--checkpoint $BASELINE` of its "
                         "own: given `--checkpoint`, the command got it twice and refused to start")
    assert [line.where for line in top.evidence] == ["logs/model_server.log:1", "serve.sh:4"]
    assert top.fix.startswith("In serve.sh, add `--checkpoint $BASELINE` only when the caller gives none")


def _checkpoints_listed_older_first(tmp_path: Path, keep: int) -> tuple[Path, list[int]]:
    """A training run's checkpoints folder and its steps: two checkpoints, the older of which the file system lists
    first (`keep=2`; hash order of the names on ext4, order of creation on tmpfs: pairs and orders of moves are tried
    until it is), or one (`keep=1`)."""
    made = demo_checkpoints(tmp_path / "made", 6, ["string_match"])
    training = tmp_path / "training" / "checkpoints"
    training.mkdir(parents=True)
    if keep == 1:
        shutil.move(made[1], training / made[1].name)
        return training, [200]
    for older, newer in itertools.combinations(made, 2):
        for order in ((older, newer), (newer, older)):
            for path in order:
                shutil.move(path, training / path.name)
            if os.listdir(training)[0] == older.name:
                return training, [int(older.name[5:]), int(newer.name[5:])]
            for path in order:
                shutil.move(training / path.name, path)
    raise AssertionError(f"this file system lists no older checkpoint before a newer one in {training}")


@pytest.mark.parametrize("checkpoints_kept", [2, 1])
def test_a_serving_script_taking_the_first_checkpoint_find_lists_serves_an_older_one(tmp_path: Path,
                                                                                   checkpoints_kept: int) -> None:
    training, steps = _checkpoints_listed_older_first(tmp_path, keep=checkpoints_kept)
    run = _served_by_script(tmp_path, "#!/bin/bash\n# serve.sh PORT: the trainer keeps one checkpoint\n"
                                      f"CKPT=$(find {training} -mindepth 1 -maxdepth 1 -name 'step_*' | head -n 1)\n"
                                      f'echo "serve.sh: serving $CKPT"\n'
                                      f'exec {CLI} serve-policy --port $1 --checkpoint "$CKPT" --latency-ms 30\n',
                            "PORT")

    report = diagnose(run)

    if checkpoints_kept == 1:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert f"serving {training}/step_{steps[0]:04d}" in (run / "logs" / "model_server.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "checkpoint_taken_in_directory_order"), [
        f.title for f in report.causes]
    assert top.title == ("serve.sh:3 serves the first checkpoint `find` lists, in the folder's own order, not by step: "
                         f"the server loaded step {steps[0]}; the folder holds steps {steps[0]}, {steps[1]}")
    assert [line.where for line in top.evidence][0] == "serve.sh:3"
    assert top.fix.startswith("In serve.sh, sort before taking one: `find <checkpoints> -maxdepth 1 -name 'step_*' | "
                              "sort -V | tail -n 1`")


@pytest.mark.parametrize("copied_when_chosen", [False, True])
def test_a_checkpoint_rotated_away_by_the_trainer_after_it_was_chosen_is_named(tmp_path: Path,
                                                                               copied_when_chosen: bool) -> None:
    checkpoints = tmp_path / "training_run" / "checkpoints"
    demo_checkpoints(checkpoints, 2, ["string_match"])
    (tmp_path / "run" / "logs").mkdir(parents=True)
    with (tmp_path / "run" / "logs" / "choose_checkpoint.log").open("w") as log:  # the user picks step_0100
        subprocess.run(["ls", str(checkpoints)], stdout=log, check=True)
    chosen = checkpoints / "step_0100"
    if copied_when_chosen:
        chosen = Path(shutil.copytree(chosen, tmp_path / "evals" / "step_0100"))
    demo_checkpoints(checkpoints, 3, ["string_match"])  # the trainer saves step_0300, keeps the last two
    subprocess.run(f"ls -d {checkpoints}/step_* | sort -V | head -n -2 | xargs rm -rf", shell=True, check=True)
    run = _served_by_script(tmp_path, "#!/bin/bash\n# serve.sh CHECKPOINT PORT\n"
                                      f"exec {CLI} serve-policy --port $2 --checkpoint $1 --latency-ms 30\n",
                            f"{chosen} PORT")

    report = diagnose(run)

    if copied_when_chosen:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "checkpoint folder not found" in (run / "logs" / "model_server.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "checkpoint_deleted_after_it_was_chosen"), [
        f.title for f in report.causes]
    assert top.title == ("step_0100 was there when it was chosen (logs/choose_checkpoint.log:1 lists it) and gone when "
                         "the model server started: deleted in between; checkpoints now holds step_0200, step_0300")
    assert len(report.causes) == 1, [f.title for f in report.causes]
    assert "raise the trainer's `keep_last`" in top.fix


@pytest.mark.parametrize("sort", ["sort", "sort -V"])
def test_a_serving_script_taking_the_last_of_a_text_sort_of_unpadded_steps_serves_an_older_one(tmp_path: Path,
                                                                                             sort: str) -> None:
    checkpoints = tmp_path / "training_run" / "checkpoints"
    knowledge = knowledge_from(["string_match"])
    for step, skill in ((900, 0.3), (1000, 0.6)):  # the trainer names its checkpoints without zero padding
        create_checkpoint(checkpoints / f"step_{step}", step, skill, knowledge)
    run = _served_by_script(tmp_path, "#!/bin/bash\n# serve.sh PORT: the newest checkpoint of the training run\n"
                                      f"CKPT={checkpoints}/$(ls {checkpoints} | {sort} | tail -1)\n"
                                      'echo "serving $CKPT"\n'
                                      f"exec {CLI} serve-policy --port $1 --checkpoint $CKPT --latency-ms 30\n",
                            "PORT")

    report = diagnose(run)

    if sort == "sort -V":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert f"serving {checkpoints}/step_900" in (run / "logs" / "model_server.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "newest_checkpoint_by_text_sort"), [
        f.title for f in report.causes]
    assert top.title == ("serve.sh:3 takes the last checkpoint name of a text sort (`ls ... | sort | tail -1`), and "
                         "the names have no zero padding: the server loaded step 900; the folder holds steps up to "
                         "1000")
    assert top.fix.startswith("In serve.sh, sort by number: `ls <checkpoints> | sort -V | tail -1`")


@pytest.mark.parametrize("step", ['"$2"', '"$((10#$2))"'])
def test_a_step_given_zero_padded_to_printf_is_read_as_octal(tmp_path: Path, step: str) -> None:
    training = tmp_path / "training_run"
    demo_checkpoints(training, 2, ["string_match"])
    run = _served_by_script(tmp_path, "#!/bin/bash\n# serve.sh CHECKPOINTS STEP PORT: the step zero-padded to four\n"
                                      f"CKPT=$1/$(printf 'step_%04d' {step})\n"
                                      f"exec {CLI} serve-policy --port $3 --checkpoint $CKPT --latency-ms 30\n",
                            f"{training} 0200 PORT")

    report = diagnose(run)

    if "10#" in step:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "step_0128: checkpoint folder not found" in (run / "logs" / "model_server.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "step_padded_as_octal"), [f.title for f in report.causes]
    assert top.title == ("serve.sh:3 formats the step with printf, which read 0200 as octal: the server was pointed "
                         "at step_0128, not step_0200, and never started")
    assert top.fix.startswith("In serve.sh:3, read the step as decimal before padding it")


@pytest.mark.parametrize("take", ["grep -m1 'saved checkpoint' $1", "grep 'saved checkpoint' $1 | tail -n 1"])
def test_a_serving_script_taking_the_first_checkpoint_its_training_log_names_serves_the_oldest(tmp_path: Path,
                                                                                              take: str) -> None:
    """serve.sh reads the checkpoint to serve from the training log: `grep -m1` takes the first `saved checkpoint`
    line, the oldest checkpoint (model serving, the later one named). Taking the last line, the run is healthy."""
    checkpoints = demo_checkpoints(tmp_path / "training_run", 2, ["string_match"])
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "train.log").write_text("".join(
        f"[2024-06-10 1{index}:31:02] step {checkpoint.name[-3:].lstrip('0')} loss 1.{6 - index}04\n"
        f"[2024-06-10 1{index}:31:40] saved checkpoint {checkpoint}\n" for index, checkpoint in enumerate(checkpoints))
        + "[2024-06-10 13:08:32] training finished\n")
    run = _served_by_script(tmp_path, "#!/bin/bash\n# serve.sh TRAIN_LOG PORT: the checkpoint the training run saved\n"
                                      f"CKPT=$({take} | awk '{{print $NF}}')\necho \"serving $CKPT\"\n"
                                      f"exec {CLI} serve-policy --port $2 --checkpoint \"$CKPT\" --latency-ms 30\n",
                            "train.log PORT")

    report = diagnose(run)

    served = (run / "logs" / "model_server.log").read_text()
    if "tail" in take:
        assert f"serving {checkpoints[1]}" in served
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert f"serving {checkpoints[0]}" in served
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "checkpoint_taken_from_the_first_log_line"), [
        f.title for f in report.causes]
    assert top.title == ("serve.sh:3 serves the first checkpoint train.log names (step 100), the oldest: training "
                         "saved step 200 after it")
    assert "`grep 'saved checkpoint' $1 | tail -n 1`, which here gives step_0200" in top.fix


@pytest.mark.parametrize("choose", ["ls -td $1/step_* | head -1", "ls -d $1/step_* | sort -V | tail -n 1"])
def test_a_serving_script_choosing_the_checkpoint_changed_last_serves_a_resynced_older_step(tmp_path: Path,
                                                                                            choose: str) -> None:
    """serve.sh serves the checkpoint folder changed last (`ls -td ... | head -1`); a mirror's resync touched the
    older step after the newer one was written, so the older is served (model serving). By step, healthy."""
    training = tmp_path / "training_run"
    older, newer = demo_checkpoints(training, 2, ["string_match"])
    os.utime(older, (time.time() + 5, time.time() + 5))  # the resync copied step_0100 again, after step_0200
    run = _served_by_script(tmp_path, "#!/bin/bash\n# serve.sh CHECKPOINTS PORT: the newest checkpoint of the run\n"
                                      f"CKPT=$({choose})\necho \"serving $CKPT\"\n"
                                      f"exec {CLI} serve-policy --port $2 --checkpoint \"$CKPT\" --latency-ms 30\n",
                            f"{training} PORT")

    report = diagnose(run)

    served = (run / "logs" / "model_server.log").read_text()
    if "sort -V" in choose:
        assert f"serving {newer}" in served
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert f"serving {older}" in served
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "newest_checkpoint_by_modification_time"), [
        f.title for f in report.causes]
    assert top.title == ("serve.sh:3 serves the checkpoint folder changed last (`ls -t ... | head -1`), not the newest "
                         "step: the server loaded step 100, and step 200 exists")


@pytest.mark.parametrize("variable", ["CKPT", "BASELINE_CKPT"])
def test_a_checkpoint_variable_the_eval_script_exports_for_its_report_reaches_the_serving_script(tmp_path: Path,
                                                                                               variable: str) -> None:
    """run_eval.sh exports CKPT=step_0100 (the baseline its report compares with) before it starts serve.sh, which
    serves `${CKPT:-step_0200}`: the server loads the baseline (model serving). Named BASELINE_CKPT, healthy."""
    training = tmp_path / "training_run"
    demo_checkpoints(training, 2, ["string_match"])
    run = _served_by_script(tmp_path, "#!/bin/bash\n# serve.sh PORT: the release step unless told otherwise\n"
                                      "CKPT=${CKPT:-step_0200}\necho \"serving $CKPT\"\n"
                                      f"exec {CLI} serve-policy --port $1 --checkpoint {training}/$CKPT --latency-ms 30\n",
                            "PORT", preamble=f"export {variable}=step_0100  # the baseline of the report\n"
                                             "echo \"== weekly eval of step_0200\"\n")

    report = diagnose(run)

    if variable == "BASELINE_CKPT":
        assert "serving step_0200" in (run / "logs" / "model_server.log").read_text()
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "serving step_0100" in (run / "logs" / "model_server.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "checkpoint_variable_exported_to_the_serving_script"), [
        f.title for f in report.causes]
    assert top.title == ("run_eval.sh:2 exports CKPT=step_0100, and serve.sh serves ${CKPT}: the server loaded "
                         "step_0100, not its default step_0200")
    assert [line.where for line in top.evidence][:2] == ["run_eval.sh:2", "serve.sh:3"]


@pytest.mark.parametrize("field", ['"step"', '"global_step"'])
def test_a_serving_script_taking_the_first_step_of_the_trainer_state_serves_an_early_checkpoint(tmp_path: Path,
                                                                                                field: str) -> None:
    training = tmp_path / "training"
    demo_checkpoints(training, 2, ["string_match"])  # step_0100, step_0200
    # as a Hugging Face trainer writes it: its log history oldest first, the step it ended on in global_step
    (training / "trainer_state.json").write_text(json.dumps(
        {"global_step": 200, "log_history": [{"loss": 0.9, "step": 100}, {"loss": 0.4, "step": 200}]}, indent=2))
    run = _served_by_script(tmp_path, "#!/bin/bash\n# serve.sh PORT: serve the trainer's last step\n"
                                      f"STEP=$(grep -o '{field}: [0-9]*' {training}/trainer_state.json | head -1 | "
                                      "grep -o '[0-9]*$')\n"
                                      f"CKPT={training}/$(printf 'step_%04d' \"$STEP\")\n"
                                      'echo "serve.sh: serving $CKPT"\n'
                                      f'exec {CLI} serve-policy --port $1 --checkpoint "$CKPT" --latency-ms 30\n',
                            "PORT")

    report = diagnose(run)

    if field == '"global_step"':
        assert f"serving {training}/step_0200" in (run / "logs" / "model_server.log").read_text()
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "step_taken_from_the_trainer_states_first_entry"), [
        f.title for f in report.causes]
    assert top.title == ("serve.sh:3 takes the step to serve from the first \"step\" of trainer_state.json, the oldest "
                         "entry of the trainer's log history, not the step training ended on (the server loaded step "
                         "100)")
    assert [line.text for line in top.evidence[1:3]] == ['"step": 100', '"global_step": 200']
    assert "`jq .global_step trainer_state.json`" in top.fix


@pytest.mark.parametrize("file_removed_first", [False, True])
def test_a_url_file_still_written_by_last_weeks_server_sends_the_run_to_it(tmp_path: Path,
                                                                          file_removed_first: bool) -> None:
    checkpoints = tmp_path / "checkpoints"
    demo_checkpoints(checkpoints, 2, ["string_match"])  # step_0100, step_0200
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    rows = get_environment("string_match").dataset_path.read_text().splitlines(keepends=True)
    (run / "data.jsonl").write_text("".join(rows[:6]))
    url_file = tmp_path / "home" / "policy.url"
    url_file.parent.mkdir()
    serve = f"{CLI} serve-policy --port 0 --ready-file {url_file} --checkpoint {checkpoints}/$1 --latency-ms 20"
    (run / "serve.sh").write_text(f"#!/bin/bash\n# serve.sh CHECKPOINT: its URL goes to ~/policy.url\nexec {serve}\n")
    # last week's server, never stopped, logged beside this week's run
    with (run / "logs" / "last_week_server.log").open("w") as log:
        last_week = subprocess.Popen(["bash", str(run / "serve.sh"), "step_0100"], stdout=log, stderr=subprocess.STDOUT)
    try:
        for _ in range(120):
            if url_file.exists() and url_file.read_text().strip():
                break
            time.sleep(0.5)
        (run / "run_eval.sh").write_text(
            "#!/bin/bash\n" + (f"rm -f {url_file}\n" if file_removed_first else "")
            + "bash serve.sh step_0200 > logs/model_server.log 2>&1 &\nSERVER=$!\n"
            f"until [ -s {url_file} ]; do sleep 1; done   # the server writes its URL once listening\n"
            f"URL=$(cat {url_file})\necho \"== model server at $URL\"\n"
            f"{CLI} materialize --input data.jsonl --num-repeats 2 --agent string_match_simple_agent "
            "--output rollouts_materialized_inputs.jsonl\n"
            f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $URL "
            "--env string_match --concurrency 4\nkill $SERVER\n")
        with (run / "logs" / "run_eval.log").open("w") as log:
            subprocess.run(["bash", "run_eval.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=300)
    finally:
        last_week.terminate()
        last_week.wait(10)

    report = diagnose(run)

    if file_removed_first:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "rollouts_from_a_server_the_run_did_not_start"), [
        f.title for f in report.causes]
    assert top.title == ("The rollouts came from the step 100 server (logs/last_week_server.log), not the step 200 "
                         "server run_eval.sh started (logs/model_server.log)")
    assert f"(line 5 `URL=$(cat {url_file})`)" in top.fix and "$SERVER" in top.fix


@pytest.mark.parametrize("listed", ["checkpoints/*/", "checkpoints/step_*/"], ids=["every_folder", "step_folders"])
def test_the_last_folder_of_a_listing_that_is_an_exporters_staging_copy_is_served(tmp_path: Path, listed: str) -> None:
    """The trainer's exporter leaves `checkpoints/tmp_export/` (a copy of step_0100) beside step_0100 and step_0200;
    `ls -d checkpoints/*/ | tail -1` ends with it, and the server loads step 100 (model serving, the listing named).
    Listing `step_*/` only, the newest step is served: healthy."""
    run = tmp_path / "run"
    made = demo_checkpoints(run / "checkpoints", 2, ["string_match"])
    shutil.copytree(made[0], run / "checkpoints" / "tmp_export")
    run = _served_by_script(tmp_path, "#!/bin/bash\n# serve.sh PORT: the newest checkpoint of this training run\n"
                                      f"CKPT=$(ls -d {listed} | tail -1)\n"
                                      'echo "serve.sh: serving $CKPT"\n'
                                      f'exec {CLI} serve-policy --port $1 --checkpoint "$CKPT" --latency-ms 30\n',
                            "PORT")

    report = diagnose(run)

    if "step_" in listed:
        assert "checkpoint step 200" in (run / "logs" / "model_server.log").read_text()
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "newest_checkpoint_by_text_sort"), [
        f.title for f in report.causes]
    assert top.title == ("serve.sh:3 takes the last name of its listing, tmp_export, which is no checkpoint of a step: "
                         "the server loaded step 100, not the newest, step_0200")
