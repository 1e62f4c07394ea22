"""Users' scripts around an interrupted collection, run for real by bash against a slow simulated policy.

- A loop that retries the collection under `timeout` without --resume: each attempt starts over, and the last leaves
  a partial file. With --resume the attempts add up and finish.
- A done check that compares the rollouts file's lines with the number of tasks: a file cut short already passes it,
  and the rerun skips the collection.
- A "collect once" marker an earlier run left: the next run skips its collection. Removed between runs, it is no
  finding. A lock folder (`mkdir eval.lock || exit 0`, removed by an EXIT trap) left by a run killed outright: every
  later run skips; after a run that ended normally, the next one runs.
- A time budget spent by a loop that runs one collection per `split` chunk, one after another (or per row, each into
  a part merged only at the end the budget never reaches); and by a collection
  at a concurrency of 1 whose output nobody kept, where only the manifest tells.
- An output folder named after the eval code's version but not the checkpoint, skipped when it holds rollouts: the
  new checkpoint's run profiles the last one's. Named after the checkpoint too, it is collected afresh.
- An export that filters the rollouts file in place (`jq ... > tmp && mv tmp rollouts.jsonl`): the run is no longer the
  collection's. Exported into a file of its own, no finding.
- A `git pull` of the team's eval repo, where a teammate committed their results, before a collection with --resume
  into it: the resume finds everything done and asks the model nothing. A repo that ignores its results is no finding.
"""

from pathlib import Path

import pytest
from script_support import CLI, MATERIALIZE, run_scripts

from gym_pipeline.diagnose import diagnose


def _retrying(resume: str) -> str:
    return (MATERIALIZE + "for attempt in 1 2 3 4 5 6; do\n"
            f"  timeout 3 {CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
            f"--model-url URL --env string_match --concurrency 1{resume} && break\n"
            "done\n")


def test_a_retry_loop_without_resume_starts_over_at_each_attempt(tmp_path: Path) -> None:
    run = run_scripts(tmp_path, [_retrying("")])
    # no attempt finished (on a loaded machine an attempt may be stopped before it can say so)
    assert "ended by SIGTERM" in (run / "logs" / "run_eval_0.log").read_text()
    assert len((run / "rollouts.jsonl").read_text().splitlines()) < 30

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("cache_resume", "retries_that_start_over")
    assert [line.where for line in top.evidence] == ["run_eval.sh:3", "run_eval.sh:4"]
    assert "add `--resume` to the collection the loop retries" in top.fix


def test_a_retry_loop_with_resume_adds_up_and_is_not_blamed(tmp_path: Path) -> None:
    run = run_scripts(tmp_path, [_retrying(" --resume")])

    assert all(f.id != "retries_that_start_over" for f in diagnose(run).findings)


def test_a_done_check_that_counts_tasks_takes_a_partial_file_as_complete(tmp_path: Path) -> None:
    collect = (f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
               "--env string_match --concurrency 1")
    interrupted = MATERIALIZE + f"timeout 5 {collect}\n"
    guarded = (MATERIALIZE + "TASKS=$(wc -l < data.jsonl)\n"
               "if [ -f rollouts.jsonl ] && [ $(wc -l < rollouts.jsonl) -ge $TASKS ]; then\n"
               '  echo "rollouts.jsonl complete, skipping the collection"\nelse\n'
               f"  {collect}\nfi\n")
    run = run_scripts(tmp_path, [interrupted, guarded])
    assert "skipping the collection" in (run / "logs" / "run_eval_1.log").read_text()  # bash really skipped it

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("cache_resume", "done_check_counts_tasks")
    assert [line.where for line in top.evidence] == ["run_eval.sh:4", "run_eval.sh:3"]
    assert "compare with the materialized rows" in top.fix and "not TASKS" in top.fix


def _one_collection_per_chunk(budget_s: int, pause: str = "") -> str:
    return (MATERIALIZE + "rm -rf chunks && mkdir chunks\nsplit -l 3 -d rollouts_materialized_inputs.jsonl chunks/task_\n"
            f"timeout {budget_s} bash -c '\nPAUSE_S=2\nfor chunk in chunks/task_??; do\n"
            f"  {CLI} collect --inputs $chunk --output $chunk.rollouts.jsonl --model-url URL --env string_match "
            f"--concurrency 3\n{pause}done'\n"
            'echo "collect loop exited $?"\ncat chunks/task_*.rollouts.jsonl > rollouts.jsonl\n')


def test_a_budget_spent_by_one_collection_per_chunk_in_turn_blames_the_loop(tmp_path: Path) -> None:
    run = run_scripts(tmp_path, [_one_collection_per_chunk(8)])
    assert "collect loop exited 124" in (run / "logs" / "run_eval_0.log").read_text()

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("throughput_resources", "interrupted_collection")
    assert [line.where for line in top.evidence][1] == "run_eval.sh:7"
    assert "instead of `split` and `for chunk in chunks/task_??; do`" in top.fix


@pytest.mark.parametrize("budget_s", [8, 120])
def test_collections_sent_to_the_background_and_waited_for_in_the_loop_run_one_after_another(tmp_path: Path,
                                                                                            budget_s: int) -> None:
    """The chunks were meant to be collected side by side (`... &`), but the loop's `wait` sits inside it: each pass
    waits for its own collection, they run in turn, and the budget ends them. Given the time, they finish and the
    run is healthy."""
    run = run_scripts(tmp_path, [
        MATERIALIZE + "rm -rf chunks && mkdir chunks\nsplit -l 3 -d rollouts_materialized_inputs.jsonl chunks/task_\n"
        f"timeout {budget_s} bash -c '\nfor chunk in chunks/task_??; do\n"
        f"  {CLI} collect --inputs $chunk --output $chunk.rollouts.jsonl --model-url URL --env string_match "
        "--concurrency 3 &\n  wait\ndone'\n"
        'echo "collect loop exited $?"\ncat chunks/task_*.rollouts.jsonl > rollouts.jsonl\n'])

    report = diagnose(run)

    if budget_s > 8:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "collect loop exited 124" in (run / "logs" / "run_eval_0.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("throughput_resources", "interrupted_collection"), [f.title for f in report.causes]
    assert [line.where for line in top.evidence][1:] == ["run_eval.sh:6", "run_eval.sh:8"]
    assert "move the `wait` of line 8 after the loop's `done`" in top.fix


@pytest.mark.parametrize("budget_s", [8, 170])
def test_a_budget_spent_by_one_collection_per_row_before_the_merge_blames_the_loop(tmp_path: Path,
                                                                                  budget_s: int) -> None:
    """One collection per input row, each into a part of its own, merged at the end of the budgeted script: the budget
    runs out first, so the run folder has parts and no rollouts file. Given its time, the merge runs and it is
    healthy."""
    run = run_scripts(tmp_path, [MATERIALIZE + f"timeout {budget_s} bash -c '\nrm -rf shards && mkdir shards\n"
                                 "split -l 1 -d -a 3 rollouts_materialized_inputs.jsonl shards/row_\n"
                                 "for shard in shards/row_???; do\n"
                                 f"  {CLI} collect --inputs $shard --output $shard.rollouts.jsonl --model-url URL "
                                 "--env string_match --concurrency 1\ndone\n"
                                 "cat shards/*.rollouts.jsonl > rollouts.jsonl'\n"
                                 'echo "eval exited $?"\n'])

    report = diagnose(run)

    if budget_s > 100:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert not (run / "rollouts.jsonl").exists() and any((run / "shards").glob("*.rollouts.jsonl"))
    top = report.causes[0]
    assert (top.category, top.id) == ("throughput_resources", "interrupted_collection"), [f.title for f in report.causes]
    assert "each writing a part the script merges only at its end" in top.cause
    assert "instead of `split` and `for shard in shards/row_???; do`" in top.fix


def test_a_pause_between_the_chunks_is_named_in_the_fix(tmp_path: Path) -> None:
    run = run_scripts(tmp_path, [_one_collection_per_chunk(8, pause="  sleep $PAUSE_S\n")])

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("throughput_resources", "interrupted_collection")
    assert [line.where for line in top.evidence][1:] == ["run_eval.sh:7", "run_eval.sh:9"]
    assert "take out the pause (`sleep $PAUSE_S`; PAUSE_S=2 at run_eval.sh:6)" in top.fix


def test_the_same_loop_given_its_time_is_not_blamed(tmp_path: Path) -> None:
    run = run_scripts(tmp_path, [_one_collection_per_chunk(170)])
    assert "collect loop exited 0" in (run / "logs" / "run_eval_0.log").read_text()

    assert all(f.id != "interrupted_collection" for f in diagnose(run).findings)


def _unlogged_collection(concurrency: int) -> str:
    return (MATERIALIZE + f"timeout 4 {CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
            f"--model-url URL --env string_match --concurrency {concurrency} > /dev/null 2>&1\n")


def test_a_collection_one_request_at_a_time_cut_short_without_a_log_is_read_from_the_manifest(tmp_path: Path) -> None:
    run = run_scripts(tmp_path, [_unlogged_collection(1)])

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("throughput_resources", "interrupted_collection")
    assert [line.text for line in top.evidence][1] == "rollouts.concurrency: 1"
    assert "Raise the concurrency" in top.fix and "--time" not in top.fix  # no Slurm limit ended it


def test_a_collection_with_requests_in_parallel_cut_short_is_not_called_slow(tmp_path: Path) -> None:
    run = run_scripts(tmp_path, [_unlogged_collection(2)])

    assert all(f.id != "interrupted_collection" for f in diagnose(run).findings)


def _collect_once(cleanup: str) -> str:
    return (cleanup + "if [ -f .collect_done ]; then\n  echo \"rollouts already collected (.collect_done): skipping\"\n"
            f"else\n  {MATERIALIZE}  {CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
            "--model-url URL --env string_match --concurrency 8 && touch .collect_done\nfi\n")


def test_a_collect_once_marker_left_by_an_earlier_run_skips_the_next_collection(tmp_path: Path) -> None:
    run = run_scripts(tmp_path, [_collect_once(""), _collect_once("")])
    assert "skipping" in (run / "logs" / "run_eval_1.log").read_text()

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("cache_resume", "done_marker_left_by_an_earlier_run")
    assert [line.where for line in top.evidence] == ["logs/run_eval_1.log:1", "run_eval.sh:2"]
    assert "Remove .collect_done before a new run" in top.fix


def test_a_marker_removed_before_each_run_is_no_finding(tmp_path: Path) -> None:
    run = run_scripts(tmp_path, [_collect_once("rm -f .collect_done\n"), _collect_once("rm -f .collect_done\n")])
    assert "skipping" not in (run / "logs" / "run_eval_1.log").read_text()

    assert all(f.id != "done_marker_left_by_an_earlier_run" for f in diagnose(run).findings)


def _locked(kill: str) -> str:
    return ("if ! mkdir eval.lock 2>/dev/null; then\n  echo \"another eval is running here (eval.lock exists): "
            "skipping this run\"\n  exit 0\nfi\ntrap 'rmdir eval.lock' EXIT\n" + MATERIALIZE
            + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
            f"--env string_match --concurrency 1 &\nCOLLECT=$!\n{kill}wait $COLLECT\n")


def test_a_lock_folder_left_by_a_killed_run_skips_every_later_run(tmp_path: Path) -> None:
    run = run_scripts(tmp_path, [_locked("sleep 3\nkill -9 $COLLECT $$\n"), _locked("")])
    assert (run / "eval.lock").is_dir() and "skipping" in (run / "logs" / "run_eval_1.log").read_text()

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("cache_resume", "done_marker_left_by_an_earlier_run")
    assert [line.where for line in top.evidence] == ["logs/run_eval_1.log:1", "run_eval.sh:2"]
    assert top.fix.startswith("Remove the stale lock (`rmdir eval.lock`) once no run is going, and in run_eval.sh")


def test_a_lock_folder_its_run_removed_on_exit_is_no_finding(tmp_path: Path) -> None:
    run = run_scripts(tmp_path, [_locked(""), _locked("")])
    assert "skipping" not in (run / "logs" / "run_eval_1.log").read_text()

    assert all(f.id != "done_marker_left_by_an_earlier_run" for f in diagnose(run).findings)


def _flocked() -> str:
    return ("if [ -e eval.lock ]; then echo \"note: eval.lock is there (written by pid $(cat eval.lock)); flock "
            "decides\"; fi\nexec 9>>eval.lock\nflock -n 9 || { echo 'another eval holds eval.lock'; exit 1; }\n"
            f"echo $$ > eval.lock\n{MATERIALIZE}{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output "
            "rollouts.jsonl --model-url URL --env string_match --concurrency 8\n")


def test_a_lock_file_an_earlier_run_left_only_noted_before_flock_is_no_finding(tmp_path: Path) -> None:
    """The script notes the lock file last week's run left, then takes an flock on it, which a dead run does not hold:
    the note's `if` skips nothing, and the collection ran."""
    run = run_scripts(tmp_path, [_flocked(), _flocked()])
    assert "note: eval.lock is there" in (run / "logs" / "run_eval_1.log").read_text()

    assert all(f.id != "done_marker_left_by_an_earlier_run" for f in diagnose(run).findings)


def _skip_when_rollouts_exist(kill: str) -> str:
    """One line, as a nightly script has it: collect unless rollouts.jsonl is there and not empty."""
    return (MATERIALIZE + "if [ -s rollouts.jsonl ]; then echo 'rollouts.jsonl already there: collect skipped'; "
            f"else {CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
            f"--env string_match --concurrency 1 & COLLECT=$!; {kill}wait $COLLECT; fi\n")


def test_a_rollouts_file_left_by_a_killed_run_passes_a_non_empty_check(tmp_path: Path) -> None:
    run = run_scripts(tmp_path, [_skip_when_rollouts_exist("sleep 3; kill -9 $COLLECT $$; "),
                                  _skip_when_rollouts_exist("")])
    assert "collect skipped" in (run / "logs" / "run_eval_1.log").read_text()

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("cache_resume", "done_marker_left_by_an_earlier_run")
    assert top.title.startswith("run_eval.sh:3 skipped the collection because rollouts.jsonl was there: the partial "
                                "file of a run that did not finish")
    assert top.fix.startswith("In run_eval.sh, replace `[ -s rollouts.jsonl ]` with a check that the collection is "
                              "complete")


def test_the_same_check_after_a_run_that_finished_is_no_finding(tmp_path: Path) -> None:
    run = run_scripts(tmp_path, [_skip_when_rollouts_exist(""), _skip_when_rollouts_exist("")])
    assert "collect skipped" in (run / "logs" / "run_eval_1.log").read_text()

    assert all(f.id != "done_marker_left_by_an_earlier_run" for f in diagnose(run).findings)
    assert diagnose(run).category == "healthy"


def _materialize_once(test: str) -> str:
    """Last week's outputs emptied (kept as files for the sync tool), then materialize only if `test` fails."""
    return ('for f in rollouts*.jsonl; do : > "$f"; done\n'
            f"{test} || {MATERIALIZE}{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
            "--model-url URL --env string_match --concurrency 8\n")


def test_an_existence_guard_takes_inputs_a_cleanup_emptied_for_materialized(tmp_path: Path) -> None:
    run = run_scripts(tmp_path, [_materialize_once("[ -e rollouts_materialized_inputs.jsonl ]")] * 2)
    assert (run / "rollouts_materialized_inputs.jsonl").stat().st_size == 0

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("cache_resume", "empty_inputs")
    assert top.title.startswith("run_eval.sh:3 materializes only when rollouts_materialized_inputs.jsonl does not "
                                "exist (`[ -e rollouts_materialized_inputs.jsonl ]`)")
    assert top.fix.startswith("In run_eval.sh, test for rows (`[ -s rollouts_materialized_inputs.jsonl ]`)")
    assert "run_eval.sh:2 empties the outputs instead of removing them" in top.cause


def test_a_guard_that_tests_for_rows_materializes_again(tmp_path: Path) -> None:
    run = run_scripts(tmp_path, [_materialize_once("[ -s rollouts_materialized_inputs.jsonl ]")] * 2)
    assert (run / "rollouts_materialized_inputs.jsonl").stat().st_size > 0

    assert diagnose(run).category == "healthy"


def _shared_repo_runs(ignored: str) -> list[str]:
    """A teammate collects into results/ of the team's eval repo and pushes; then the user's run_eval.sh pulls that
    repo and collects into its results/ with --resume. `ignored`: the repo's .gitignore."""
    git = ("export GIT_AUTHOR_NAME=eval GIT_AUTHOR_EMAIL=eval@example.com GIT_COMMITTER_NAME=eval "
           "GIT_COMMITTER_EMAIL=eval@example.com\n")
    in_results = MATERIALIZE.replace("--output ", "--output results/")
    collect = (f"{CLI} collect --inputs results/rollouts_materialized_inputs.jsonl --output results/rollouts.jsonl "
               "--model-url URL --env string_match --concurrency 4")
    teammate = (git + "git init -q --bare -b main ../origin.git && git clone -q ../origin.git ../teammate\n"
                f"cp data.jsonl ../teammate/ && cd ../teammate && printf '{ignored}' > .gitignore\n" + in_results + collect + "\n"
                "git add -A && git commit -qm 'step results' && git push -q origin main\n")
    user = (git + "[ -d eval-repo ] || git clone -q ../origin.git eval-repo\ncd eval-repo\ngit pull -q origin main\n"
            + in_results + collect + " --resume\n")
    return [teammate, user]


def test_a_resume_after_a_pull_that_brought_a_teammates_committed_rollouts_asks_the_model_nothing(
        tmp_path: Path) -> None:
    run = run_scripts(tmp_path, _shared_repo_runs(""))
    assert "0 collected, 30 already done" in (run / "logs" / "run_eval_1.log").read_text()

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("cache_resume", "resume_over_rows_a_fetch_brought")
    assert [line.where for line in top.evidence] == ["logs/run_eval_1.log:3", "run_eval.sh:5", "run_eval.sh:7"]
    assert top.title.endswith("right after run_eval.sh:5 `git pull -q origin main` brought the folder up to date")
    assert "`results/` in .gitignore" in top.fix


def test_the_same_pull_of_a_repo_that_ignores_its_results_is_no_finding(tmp_path: Path) -> None:
    run = run_scripts(tmp_path, _shared_repo_runs("results/\\n"))
    assert "30 collected, 0 already done" in (run / "logs" / "run_eval_1.log").read_text()

    report = diagnose(run)

    assert all(f.id != "resume_over_rows_a_fetch_brought" for f in report.findings)
    assert report.category == "healthy", [f.title for f in report.causes]


def _weekly_eval(folder: str) -> str:
    """Evaluate into results/<folder>/ unless its rollouts are there ("evaluate once")."""
    return (f"OUT=results/{folder}\nmkdir -p $OUT\nif [ -s $OUT/rollouts.jsonl ]; then\n"
            '  echo "== $OUT already evaluated, reusing it"\nelse\n'
            + MATERIALIZE.replace("--output ", "  --output $OUT/")
            + f"  {CLI} collect --inputs $OUT/rollouts_materialized_inputs.jsonl --output $OUT/rollouts.jsonl "
              "--model-url URL --env string_match --concurrency 4\nfi\n")


def test_an_output_folder_keyed_without_the_checkpoint_hands_last_weeks_rollouts_to_the_new_one(tmp_path: Path) -> None:
    """The output folder is named after the eval code's version only: last week's step 100 run left its rollouts
    there, and this week's step 200 run skipped its collection."""
    script = "VERSION=v3\n" + _weekly_eval("$VERSION")
    run = run_scripts(tmp_path, [script, script], checkpoint_of_script=[0, 1])
    assert "already evaluated, reusing it" in (run / "logs" / "run_eval_1.log").read_text()

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("cache_resume", "done_marker_left_by_an_earlier_run")
    assert top.title == ("run_eval.sh:5 skipped the collection because $OUT/rollouts.jsonl was there: the rollouts "
                         "profiled are the step 100 server's, while the step 200 server started for this run was "
                         "asked nothing")
    assert [line.where for line in top.evidence] == ["logs/run_eval_1.log:1", "run_eval.sh:5", "logs/model_server.log:1",
                                                     "logs/model_server_1.log:1", "run_eval.sh:3"]
    assert "It names the output by run_eval.sh:3 `OUT=results/$VERSION`, from run_eval.sh:2 `VERSION=v3`" in top.cause
    assert "put the checkpoint (and the data's digest) in $OUT (`VERSION=v3` -> a key that tells checkpoints" in top.fix


def test_an_output_folder_keyed_by_the_checkpoint_is_collected_afresh(tmp_path: Path) -> None:
    script = "VERSION=v3\n" + _weekly_eval("$VERSION-CKPT")
    run = run_scripts(tmp_path, [script, script], checkpoint_of_script=[0, 1])
    assert "30 collected, 0 already done" in (run / "logs" / "run_eval_1.log").read_text()

    report = diagnose(run)

    assert all(f.id != "done_marker_left_by_an_earlier_run" for f in report.findings)
    assert report.category == "healthy", [f.title for f in report.causes]


def _exporting(target: str) -> list[str]:
    """A collection, then an export of the good rollouts for SFT (into `target`), then a report of the run."""
    collect = MATERIALIZE + (f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
                             "--model-url URL --env string_match --concurrency 4\n")
    export = f"mkdir -p sft\njq -c 'select(.reward == 1)' rollouts.jsonl > rollouts.tmp && mv rollouts.tmp {target}\n"
    report = f"{CLI} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl --allow-partial\n"
    return [collect + export + report]


def test_an_export_that_filters_the_rollouts_in_place_is_named_with_its_line(tmp_path: Path) -> None:
    run = run_scripts(tmp_path, _exporting("rollouts.jsonl"))

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("cache_resume", "stale_inputs")
    assert top.title == "run_eval.sh:5 rewrote rollouts.jsonl after the run wrote it: the rows profiled are what that " \
                        "line left"
    assert top.fix.startswith("In run_eval.sh, write what `jq` keeps to a file of its own")


def test_an_export_into_a_file_of_its_own_is_no_finding(tmp_path: Path) -> None:
    run = run_scripts(tmp_path, _exporting("sft/step_0100.jsonl"))

    report = diagnose(run)

    assert report.category == "healthy", [f.title for f in report.causes]


CACHED_PER_CHECKPOINT = """# rollouts cached per checkpoint, under a cheap fingerprint of its folder (no hashing of weights)
KEY=KEYED
OUT=cache/$KEY
if [ -e $OUT/.done ]; then
  echo "rollouts for this checkpoint already in $OUT, reusing them"
else
  mkdir -p $OUT
  CLI materialize --input data.jsonl --num-repeats 3 --agent string_match_simple_agent --output $OUT/rollouts_materialized_inputs.jsonl
  CLI collect --inputs $OUT/rollouts_materialized_inputs.jsonl --output $OUT/rollouts.jsonl --model-url URL --env string_match --concurrency 4
  touch $OUT/.done
fi
cp $OUT/rollouts*.jsonl .
CLI profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@pytest.mark.parametrize("keyed", ['$(ls "../checkpoints/CKPT" | md5sum | cut -c1-12)', "CKPT"])
def test_a_cache_keyed_on_the_checkpoint_folders_file_names_reuses_another_checkpoints_rollouts(tmp_path: Path,
                                                                                                keyed: str) -> None:
    """Two checkpoints' runs of a script that caches rollouts under `ls $CKPT | md5sum`: every step holds the same
    file names, so the second checkpoint's run reuses the first's rollouts. Keyed on the checkpoint's name, each
    collects its own and the run is healthy."""
    script = CACHED_PER_CHECKPOINT.replace("KEYED", keyed).replace("CLI", CLI)
    run = run_scripts(tmp_path, [script, script], checkpoint_of_script=[0, 1])

    report = diagnose(run)

    if keyed == "CKPT":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "reusing them" in (run / "logs" / "run_eval_1.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "done_marker_left_by_an_earlier_run"), [
        f.title for f in report.causes]
    assert top.title == ("run_eval.sh:5 reused cached rollouts under a cache key made from file names (run_eval.sh:3): "
                         "another checkpoint with the same files got the same key")
    assert top.fix.startswith("In run_eval.sh:3, key the cache on what differs between checkpoints")
