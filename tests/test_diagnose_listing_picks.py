"""A run script that picks its dataset from a listing, meaning the newest version, run for real by bash.

`ls data/trivia_v*.jsonl | head -1` takes the first name, the oldest version; `| tail -1` of unpadded numbers takes
v9 over v10. The run evaluates the older version and nothing fails: the finding names the line, the file taken and the
newest. Sorted by version (`sort -V | tail -1`), the newest is taken and there is no finding.

A serving script that takes the last of `ls -d checkpoints/step_*` as the newest step gets a name that is no step
when the trainer left one beside them: `step_best` (a copy of an early step, served with nothing failing) or
`step_0300.tmp` (a save still being written: the server refuses it and the stages get no model URL). Model serving,
named from the script's line and the path the log shows it picked. With numbered steps only, the newest is served.
"""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from script_support import CLI, materialize_line, run_eval_script, string_match_run

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment
from gym_pipeline.serving.checkpoints import demo_checkpoints

CASES = [("ls data/trivia_v*.jsonl | head -1", ("trivia_v1.jsonl", "trivia_v2.jsonl"), "trivia_v1.jsonl"),
         ("ls data/trivia_v*.jsonl | tail -1", ("trivia_v9.jsonl", "trivia_v10.jsonl"), "trivia_v9.jsonl"),
         ("ls data/trivia_v*.jsonl | sort -V | tail -1", ("trivia_v9.jsonl", "trivia_v10.jsonl"), None)]


@pytest.mark.parametrize(("pick", "versions", "taken"), CASES, ids=["head", "tail_unpadded", "sorted_by_version"])
def test_a_dataset_picked_from_a_listing_names_the_older_version_taken(tmp_path: Path, policy_endpoint, pick: str,
                                                                       versions: tuple[str, str], taken: str | None):
    run = tmp_path / "run"
    (run / "data").mkdir(parents=True)
    rows = get_environment("string_match").dataset_path.read_text().splitlines(keepends=True)
    for count, name in zip((4, 8), versions, strict=True):  # the newer version has more tasks
        (run / "data" / name).write_text("".join(rows[:count]))
    cli = f"{sys.executable} -m gym_pipeline.cli"
    (run / "run_eval.sh").write_text(
        f"#!/bin/bash\ncd \"$(dirname \"$0\")\"\nDATA=$({pick})  # this week's version\n"
        f"{cli} materialize --input $DATA --num-repeats 2 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"{cli} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
        f"--model-url {policy_endpoint.url} --env string_match\n"
        f"{cli} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    with (run / "run_eval.log").open("w") as log:
        subprocess.run(["bash", str(run / "run_eval.sh")], stdout=log, stderr=subprocess.STDOUT, check=True,
                       timeout=120)

    findings = {finding.id: finding for finding in diagnose(run).causes}

    if taken is None:
        assert "older_version_picked_from_a_listing" not in findings
        return
    top = next(iter(findings.values()))
    assert (top.category, top.id) == ("config", "older_version_picked_from_a_listing")
    assert top.title == (f"run_eval.sh:3 picks {taken} with `ls ... | {pick.split('| ')[-1]}`, not the newest "
                         f"{versions[1]}")
    assert "`ls data/trivia_v*.jsonl | sort -V | tail -1`" in top.fix


@pytest.mark.parametrize("left_beside", [None, "step_best", "step_0300.tmp"])
def test_a_checkpoint_picked_as_the_last_name_of_a_listing_names_a_folder_that_is_no_step(
        tmp_path: Path, left_beside: str | None) -> None:
    run, _ = string_match_run(tmp_path, rows=6)
    folder = tmp_path / "trainer" / "checkpoints"
    first, _ = demo_checkpoints(folder, 2, ["string_match"])
    if left_beside == "step_best":
        shutil.copytree(first, folder / left_beside)  # the trainer's copy of its best step so far
    elif left_beside:
        (folder / left_beside).mkdir()  # a save still being written
    # the trainer's folder given literally, or (for step_best) in a variable
    listed = "$CKPTS" if left_beside == "step_best" else str(folder)
    (run / "run_eval.sh").write_text(
        f"#!/bin/bash\nCKPTS={folder}\nCKPT=$(ls -d {listed}/step_* | tail -1)  # the newest step\n"
        "echo \"serving $CKPT\"\n"
        f"rm -f policy_url.txt\n{CLI} serve-policy --port 0 --ready-file policy_url.txt --checkpoint $CKPT "
        ">> logs/model_server.log 2>&1 &\nSERVER=$!\n"
        "for i in $(seq 60); do [ -s policy_url.txt ] && break; sleep 0.5; done\nURL=$(cat policy_url.txt 2>/dev/null)\n"
        + materialize_line(2)
        + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url \"$URL\" "
        "--env string_match --concurrency 4\nkill $SERVER\n")
    run_eval_script(run)
    assert f"serving {folder / (left_beside or 'step_0200')}" in (run / "logs" / "run_eval.log").read_text()

    report = diagnose(run)

    if left_beside is None:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "non_version_picked_from_a_listing"), [
        f.title for f in report.causes]
    assert top.title == (f"run_eval.sh:3 takes the last name of `ls {listed}/step_*` as the newest checkpoint, and got "
                         f"{left_beside}, which is no step_<number>")
    assert "grep -E '/step_[0-9]+$' | sort -V | tail -1" in top.fix
    assert len(report.causes) == 1  # the refused save and the empty model URL followed from it
