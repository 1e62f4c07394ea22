"""Build the EIGHTY-SIXTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/eighty_sixth_held_out.py --out tests/data/diagnosis_corpus/eighty_sixth_held_out [--only CASE ...]

This set was written after the eighty-five earlier sets (first_held_out.py ... eighty_fifth_held_out.py), from the
guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
the real NeMo Gym 0.7.0 (`gym env start`, `gym eval run`, `gym eval profile`) with the users' own resources servers,
Slurm jobs (sbatch, job arrays, dependencies), and the user's own shell and Python
tooling, settings, data-preparation scripts and verifiers. The output of every command is captured as a user would
(`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data, scripts,
settings, verifier code). Each case injects one cause, different in mechanism from those of the eighty-five earlier
sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not
written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), and PYTHONPATH set to this checkout. Run it from a
foreground shell. Containers it makes are named `h86-...` and removed at the end of their recipe.
"""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import failed, stop_gym  # noqa: E402
from eightieth_held_out import everything_in  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_first_held_out import keys_of  # noqa: E402
from fifty_ninth_held_out import gym_own_server, own_eval_script  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from recipes import BIN, GYM, Ctx, case, main, replace_verify, rows_of, text_of  # noqa: E402
from sixty_fourth_held_out import pipeline_lines  # noqa: E402
from sixty_third_held_out import gym_script, gym_up, mean_of, scancel_ids  # noqa: E402
from thirtieth_held_out import gym_rows  # noqa: E402
from twenty_fourth_held_out import gym_eval_line, gym_profile_line  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_sixth_held_out import slurm_script  # noqa: E402
from twenty_third_held_out import write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def user_file(ctx: Ctx, name: str, template: str, **values: str) -> Path:
    """RUN/<name> from `template` (RUN_DIR, GP_BIN and `values` filled in); RUN/logs made for job output."""
    (ctx.run / "logs").mkdir(exist_ok=True)
    path = ctx.run / name
    path.write_text(slurm_script(template, ctx, **values))
    return path


def all_jobs(ctx: Ctx) -> list[str]:
    done = subprocess.run(["squeue", "-h", "-o", "%i"], env=ctx.env, capture_output=True, text=True, check=False)
    return done.stdout.split()


def job_ids(ctx: Ctx) -> list[str]:
    return [j.split("_")[0] for j in all_jobs(ctx)]


def job_logs(ctx: Ctx, pattern: str) -> str:
    return "".join(text_of(p) for p in sorted((ctx.run / "logs").glob(pattern)))


def by_label(rows: list[dict], *labels: str) -> list[dict]:
    return [r for r in rows if str(r.get("expected_answer")) in labels]


def slurm_week(ctx: Ctx, pairs: list[tuple[str, str]], files: dict[str, tuple[str, dict]], flags: str = "--latency-ms 20",
               timeout: float = 300) -> tuple[int, str]:
    """The user's dataset, the policy serving the better checkpoint, the user's Slurm files, `bash submit.sh`."""
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in pairs])
    _, better = truth_checkpoints(ctx, pairs)
    url, _ = ctx.policy(better, flags)
    for name, (template, values) in files.items():
        user_file(ctx, name, template, MODEL_URL_VALUE=url, **values)
    before = set(job_ids(ctx))
    try:
        code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=timeout)
    finally:
        scancel_ids(ctx, *(set(job_ids(ctx)) - before))
    return code, url


# =====================================================================================================
# the merge job chained to the shard array (a healthy and a config case)
# =====================================================================================================

SHARD_ARRAY_SBATCH = """#!/bin/bash
#SBATCH --job-name=eval-shard
#SBATCH --output=RUN_DIR/logs/shard_%A_%a.log
#SBATCH --array=0-2
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --time=10
# one shard of the weekly eval
cd RUN_DIR
SHARD=$(printf '%02d' $SLURM_ARRAY_TASK_ID)
echo "shard $SHARD (job ${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}) start $(date +%T)"
mkdir -p out_$SHARD   # one folder a shard: collect locks its output folder
GP_BIN collect --inputs shard_$SHARD.jsonl --output out_$SHARD/rollouts.jsonl --model-url $MODEL_URL \\
  --env string_match --concurrency 2
echo "shard $SHARD done $(date +%T)"
"""

MERGE_SBATCH = """#!/bin/bash
#SBATCH --job-name=eval-merge
#SBATCH --output=RUN_DIR/logs/merge_%j.log
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --time=10
# merge the shards' rollouts and profile them
cd RUN_DIR
echo "merge start $(date +%T)"
wc -l out_0*/rollouts.jsonl
cat out_0*/rollouts.jsonl > rollouts.jsonl
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
echo "merge done $(date +%T)"
"""

ARRAY_SUBMIT = """#!/bin/bash
# submit.sh: the weekly eval as a three-shard job array, then a merge job that profiles the merged rollouts
cd RUN_DIR
export MODEL_URL=MODEL_URL_VALUE
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
split -n l/3 -d --additional-suffix=.jsonl rollouts_materialized_inputs.jsonl shard_
ARRAY=$(sbatch --parsable shard.sbatch)
echo "shard array job $ARRAY"
DEPENDENCY_LINE
MERGE=$(sbatch --parsable --dependency=$DEP merge.sbatch)
echo "merge job $MERGE (dependency $DEP)"
sleep 3
squeue -o "%i %j %T %r"
timeout 200 bash -c "while squeue -h -j $ARRAY,$MERGE 2>/dev/null | grep -q .; do sleep 2; done"
echo "all jobs left the queue"
wc -l out_0*/rollouts.jsonl rollouts.jsonl
"""

ARRAY_PAIRS = [(f"What is {n} plus 12?", str(n + 12)) for n in (5, 13, 21, 29, 37, 45, 53, 61, 77)]


def array_week(ctx: Ctx, dependency_line: str) -> tuple[int, str]:
    return slurm_week(ctx, ARRAY_PAIRS, {"shard.sbatch": (SHARD_ARRAY_SBATCH, {}), "merge.sbatch": (MERGE_SBATCH, {}),
                                         "submit.sh": (ARRAY_SUBMIT, {"DEPENDENCY_LINE": dependency_line})},
                      "--latency-ms 2500")


@case(
    "healthy_slurm_merge_job_chained_afterok_to_whole_shard_array_sits_pending_on_dependency_until_the_last_shard",
    "healthy",
    [],
    "nothing is wrong: submit.sh runs the weekly eval as a three-shard job array on a two-CPU node, so the third "
    "shard waits for a CPU (PENDING, Resources) and the merge job sits PENDING on its Dependency for most of the "
    "run; the merge job is chained with `afterok:<array job id>`, which waits for every task of the array, so it "
    "started after the last shard, merged all 27 rollouts and profiled them",
)
def healthy_slurm_merge_job_chained_afterok_to_whole_shard_array_sits_pending_on_dependency_until_the_last_shard(
        ctx: Ctx) -> str:
    code, url = array_week(ctx, 'DEP=afterok:$ARRAY   # every task of the array')
    log = log_of(ctx, "submit.log")
    if code or complete(ctx) != 27 or "Dependency" not in log or "merge done" not in job_logs(ctx, "merge_*.log") \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]} {job_logs(ctx, 'merge_*.log')[-800:]}")
    return (f"RUN/shard.sbatch (--array=0-2, collect of shard_NN into out_NN/ at concurrency 2 against {url}, 2.5 s a completion); "
            f"RUN/merge.sbatch (cat out_0*/rollouts.jsonl, profile); RUN/submit.sh (materialize 9 x 3, split in three, "
            f"sbatch the array, sbatch --dependency=afterok:$ARRAY merge.sbatch) exit {code}; {complete(ctx)} of 27 "
            f"rollouts merged and profiled.")


@case(
    "config_slurm_merge_job_chained_afterok_to_array_task_zero_only_so_it_merges_while_the_last_shard_still_runs",
    "config",
    ["dependency", "afterok", "array", "_0"],
    "submit.sh chains the merge job to the shard array with `--dependency=afterok:${ARRAY}_0` (the id squeue shows "
    "for the first task), which waits for array task 0 only; on the two-CPU node the third shard started only when "
    "the first two finished, and the merge job started at the same moment, so it merged before shard 02 had "
    "collected anything: rollouts.jsonl lacks the third shard's rollouts (written afterwards) and the merge job's "
    "profile refused the partial file, while every job ended with exit code 0",
)
def config_slurm_merge_job_chained_afterok_to_array_task_zero_only_so_it_merges_while_the_last_shard_still_runs(
        ctx: Ctx) -> str:
    code, url = array_week(ctx, 'DEP=afterok:${ARRAY}_0   # the array job (squeue shows it as <id>_0)')
    merged = complete(ctx)
    late = len(rows_of(ctx.run / "out_02" / "rollouts.jsonl"))
    if merged >= 27 or late < len(rows_of(ctx.run / "shard_02.jsonl")) or "merge start" not in job_logs(ctx, "merge_*.log"):
        raise failed(ctx, f"exit {code}, {merged}, {late}: {log_of(ctx, 'submit.log')[-1500:]} "
                          f"{job_logs(ctx, 'merge_*.log')[-800:]}")
    return (f"RUN/shard.sbatch (--array=0-2, collect of shard_NN into out_NN/ at concurrency 2 against {url}, 2.5 s a completion); "
            f"RUN/merge.sbatch (cat out_0*/rollouts.jsonl, profile); RUN/submit.sh (materialize 9 x 3, split in three, "
            f"sbatch the array, sbatch --dependency=afterok:${{ARRAY}}_0 merge.sbatch) exit {code}; {merged} of 27 "
            f"rollouts merged; shard 02 wrote its {late} rollouts after the merge.")


# =====================================================================================================
# the licence directive of the old cluster's template (a healthy and a config case)
# =====================================================================================================

LICENSE_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --ntasks=1
#SBATCH --time=10
LICENSE_LINE
# the weekly eval (from the old cluster's template, where eval jobs held a slot of the shared judge licence)
cd RUN_DIR
echo "weekly eval against $MODEL_URL"
PIPELINE"""

LICENSE_SUBMIT = """#!/bin/bash
# submit.sh: the weekly eval, submitted and waited for
cd RUN_DIR
export MODEL_URL=MODEL_URL_VALUE
sbatch --wait eval.sbatch
echo "sbatch --wait returned $?"
ls -l rollouts.jsonl rollouts_reward_profiling.jsonl 2>&1
"""

LICENSE_PAIRS = [(f"What is {n} times 4?", str(n * 4)) for n in (3, 8, 11, 17, 23, 26)]


def license_week(ctx: Ctx, line: str) -> tuple[int, str]:
    return slurm_week(ctx, LICENSE_PAIRS, {
        "eval.sbatch": (LICENSE_SBATCH, {"LICENSE_LINE": line, "PIPELINE": pipeline_lines("$MODEL_URL")}),
        "submit.sh": (LICENSE_SUBMIT, {})})


@case(
    "healthy_slurm_eval_sbatch_keeps_licence_directive_of_old_cluster_commented_out_with_double_hash",
    "healthy",
    [],
    "nothing is wrong: the user's eval.sbatch, copied from the old cluster's template, still carries "
    "`##SBATCH --licenses=judge_slots:1`; with two hashes sbatch treats it as a plain comment (this cluster defines "
    "no licences), the job ran, and every rollout was collected and profiled",
)
def healthy_slurm_eval_sbatch_keeps_licence_directive_of_old_cluster_commented_out_with_double_hash(ctx: Ctx) -> str:
    code, _ = license_week(ctx, "##SBATCH --licenses=judge_slots:1")
    log = log_of(ctx, "submit.log")
    if code or complete(ctx) != 18 or "returned 0" not in log \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.sbatch (`##SBATCH --licenses=judge_slots:1`, materialize 6 x 3, collect, profile); "
            f"RUN/submit.sh (`sbatch --wait eval.sbatch`) exit {code}; {complete(ctx)} of 18 rollouts.")


@case(
    "config_slurm_eval_sbatch_requests_judge_licence_of_old_cluster_that_this_cluster_does_not_define",
    "config",
    ["--licenses", "licence", "eval.sbatch", "Invalid license"],
    "the user's eval.sbatch, copied from the old cluster's template, asks for `#SBATCH --licenses=judge_slots:1` "
    "(eval jobs there held a slot of the shared judge licence); this cluster defines no licences, so sbatch refused "
    "the job at submission ('Invalid license specification'), no job ran and nothing was collected, although the "
    "node was idle and the model server was up",
)
def config_slurm_eval_sbatch_requests_judge_licence_of_old_cluster_that_this_cluster_does_not_define(ctx: Ctx) -> str:
    code, _ = license_week(ctx, "#SBATCH --licenses=judge_slots:1")
    log = log_of(ctx, "submit.log")
    if "Invalid license" not in log or complete(ctx) or "Submitted batch job" in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.sbatch (`#SBATCH --licenses=judge_slots:1`); RUN/submit.sh (`sbatch --wait eval.sbatch`) exit "
            f"{code}: sbatch refused the job; {complete(ctx)} rollouts.")


# =====================================================================================================
# infra: the admins allow submissions to the partition only from the login nodes
# =====================================================================================================

ALLOC_SUBMIT = """#!/bin/bash
# submit.sh: the weekly eval, submitted from the eval node (where the model server runs) and waited for
cd RUN_DIR
export MODEL_URL=MODEL_URL_VALUE
echo "submitting from $(hostname)"
sbatch --wait eval.sbatch
echo "sbatch --wait returned $?"
ls -l rollouts.jsonl 2>&1
"""


@case(
    "infra_slurm_admins_limit_partition_allocnodes_to_login_nodes_so_submission_from_the_eval_node_is_refused",
    "infra",
    ["AllocNodes", "partition", "login", "permission denied"],
    "the cluster admins restricted the debug partition to submissions from the login nodes (`scontrol update "
    "PartitionName=debug AllocNodes=login[01-02]`); the user's submit.sh runs on the eval node vm, so sbatch was "
    "refused ('Access/permission denied'), no job ran and nothing was collected although the node was idle and the "
    "model server was up",
)
def infra_slurm_admins_limit_partition_allocnodes_to_login_nodes_so_submission_from_the_eval_node_is_refused(
        ctx: Ctx) -> str:
    ctx.note("(the cluster admins: `scontrol update PartitionName=debug AllocNodes=login[01-02]`)")
    subprocess.run(["scontrol", "update", "PartitionName=debug", "AllocNodes=login[01-02]"], env=ctx.env, check=True)
    try:
        code, _ = slurm_week(ctx, LICENSE_PAIRS, {
            "eval.sbatch": (LICENSE_SBATCH, {"LICENSE_LINE": "", "PIPELINE": pipeline_lines("$MODEL_URL")}),
            "submit.sh": (ALLOC_SUBMIT, {})})
    finally:
        subprocess.run(["scontrol", "update", "PartitionName=debug", "AllocNodes=ALL"], env=ctx.env, check=False)
    log = log_of(ctx, "submit.log")
    if "permission denied" not in log.lower() or complete(ctx) or "Submitted batch job" in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"the debug partition's AllocNodes set to login[01-02] by the admins; RUN/submit.sh (`sbatch --wait "
            f"eval.sbatch` from vm) exit {code}: sbatch refused; {complete(ctx)} rollouts; AllocNodes=ALL restored "
            f"afterwards.")


# =====================================================================================================
# cache_resume: the CI wrapper waits for a completion line in a job log opened in append mode
# =====================================================================================================

APPEND_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/weekly_eval.log
#SBATCH --open-mode=append
#SBATCH --ntasks=1
#SBATCH --time=10
# the weekly eval; one log for the whole history of the job (append mode)
cd RUN_DIR
echo "== weekly eval, job $SLURM_JOB_ID, $(date +%F' '%T), model $MODEL_URL"
PIPELINE
echo "EVAL COMPLETE job $SLURM_JOB_ID"
"""

APPEND_PUBLISH = """#!/bin/bash
# publish.sh: submit the weekly eval, wait until its log says it is complete, then publish the profile
cd RUN_DIR
export MODEL_URL=MODEL_URL_VALUE
sbatch eval.sbatch
until grep -q "EVAL COMPLETE" logs/weekly_eval.log 2>/dev/null; do sleep 5; done
echo "eval complete at $(date +%T): publishing"
mkdir -p published
cp rollouts_reward_profiling.jsonl published/weekly_profile.jsonl
wc -l published/weekly_profile.jsonl
"""

APPEND_PAIRS = [(f"What is {n} minus 9?", str(n - 9)) for n in (14, 22, 31, 40, 57, 63)]


@case(
    "cache_resume_slurm_publish_script_waits_for_completion_line_in_append_mode_job_log_that_last_weeks_job_wrote",
    "cache_resume",
    ["open-mode=append", "EVAL COMPLETE", "log", "publish"],
    "the user's publish.sh submits the weekly eval and waits with `grep -q \"EVAL COMPLETE\" logs/weekly_eval.log` "
    "before publishing the profile; eval.sbatch writes that log with --open-mode=append, so it still held last "
    "week's 'EVAL COMPLETE' line: the wait ended at once and publish.sh copied last week's "
    "rollouts_reward_profiling.jsonl (the older checkpoint's) before this week's job had run; the job finished "
    "later, but the published profile is last week's (every command exits 0)",
)
def cache_resume_slurm_publish_script_waits_for_completion_line_in_append_mode_job_log_that_last_weeks_job_wrote(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in APPEND_PAIRS])
    older, better = truth_checkpoints(ctx, APPEND_PAIRS)
    before = set(job_ids(ctx))
    try:
        last_url, last_policy = ctx.policy(older, "--latency-ms 20", log="logs/model_server_last_week.log")
        user_file(ctx, "eval.sbatch", APPEND_SBATCH, PIPELINE=pipeline_lines("$MODEL_URL"))
        ctx.note(f"(last week: the same eval.sbatch, run with `MODEL_URL={last_url} sbatch --wait eval.sbatch`, "
                 f"serving {older.name})")
        ctx.sh(f"MODEL_URL={last_url} sbatch --wait {run}/eval.sbatch", "logs/submit_last_week.log", cwd=run,
               timeout=200)
        ctx.stop(last_policy)
        last_profile = text_of(run / "rollouts_reward_profiling.jsonl")
        url, _ = ctx.policy(better, "--latency-ms 1500", log="logs/model_server.log")
        user_file(ctx, "publish.sh", APPEND_PUBLISH, MODEL_URL_VALUE=url)
        code = ctx.sh(f"bash {run}/publish.sh", "logs/publish.log", timeout=200)
        deadline = time.monotonic() + 150
        while set(job_ids(ctx)) - before and time.monotonic() < deadline:
            time.sleep(2)
    finally:
        scancel_ids(ctx, *(set(job_ids(ctx)) - before))
    published = text_of(run / "published" / "weekly_profile.jsonl")
    joblog = log_of(ctx, "weekly_eval.log")
    if code or not last_profile or published != last_profile or joblog.count("EVAL COMPLETE") != 2 \
            or text_of(run / "rollouts_reward_profiling.jsonl") == last_profile:
        raise failed(ctx, f"exit {code}, {len(published)} {len(last_profile)}: {log_of(ctx, 'publish.log')[-800:]} "
                          f"{joblog[-1500:]}")
    return (f"last week's job (same eval.sbatch, {older.name}) left 'EVAL COMPLETE' in RUN/logs/weekly_eval.log "
            f"(--open-mode=append); RUN/publish.sh (sbatch eval.sbatch, wait for 'EVAL COMPLETE' in the log, copy the "
            f"profile) exit {code}; it published last week's profile; this week's job ({better.name}) finished after.")


# =====================================================================================================
# the user's own resources server compares words in any order (a healthy and a verifier_runtime case)
# =====================================================================================================

WORDS_VERIFY = '''    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        reward = 0.0
        if extracted is not None and body.expected_answer:
            # names may come in any order ("da Vinci, Leonardo"): compare the words, order-insensitive
            got_words = GOT_WORDS
            want_words = sorted(body.expected_answer.lower().replace(",", " ").split())
            print(f"word_match: {got_words} vs {want_words}", flush=True)
            reward = 1.0 if got_words == want_words else 0.0

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''

WORDS_QUIZ = [
    ("Who painted the Mona Lisa?", "Leonardo da Vinci"),
    ("What is the highest mountain on Earth?", "Mount Everest"),
    ("Who was the first president of the United States?", "George Washington"),
    ("What is the largest ocean on Earth?", "Pacific Ocean"),
    ("What is the capital of France?", "Paris"),
    ("What is the largest planet of the Solar System?", "Jupiter"),
]
UNSORTED = ("Leonardo da Vinci", "Mount Everest")


def words_week(ctx: Ctx, got_words: str) -> tuple[int, list[dict]]:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in WORDS_QUIZ])
    _, better = truth_checkpoints(ctx, WORDS_QUIZ)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "word_match", lambda app: replace_verify(app, WORDS_VERIFY.replace("GOT_WORDS", got_words)), better,
        "(the user's word_match server: Gym's string_match whose verify compares the words in any order)")
    script = own_eval_script(ctx, search, overrides, "word_match", comment="weekly names quiz eval")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    return code, gym_rows(ctx)


@case(
    "healthy_gym_own_server_compares_sorted_words_and_prints_every_comparison_into_the_env_start_log",
    "healthy",
    [],
    "nothing is wrong: the user's own resources server word_match accepts names in any word order by comparing "
    "the sorted words of the answer with the sorted words of the label, and prints every comparison "
    "('word_match: [...] vs [...]') into the `gym env start` log; both sides are sorted, so multi-word answers like "
    "Leonardo da Vinci scored, every rollout was verified, and `gym eval profile` completed",
    netns=True,
)
def healthy_gym_own_server_compares_sorted_words_and_prints_every_comparison_into_the_env_start_log(ctx: Ctx) -> str:
    code, got = words_week(ctx, 'sorted(extracted.lower().replace(",", " ").split())')
    multi = by_label(got, *UNSORTED)
    if code or len(keys_of(got)) != 18 or not any(rewards(multi)) or mean_of(got) < 0.5 \
            or "word_match:" not in everything_in(ctx.run):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(multi)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/my_gym/resources_servers/word_match/app.py (verify: sorted words of answer and label, printed); real "
            f"`gym env start` (loopback-only namespace) with it; RUN/run_eval.sh (`gym eval run --no-serve` 6 x 3, "
            f"`gym eval profile`) exit {code}; {len(keys_of(got))} of 18 rollouts, rewards of the multi-word labels "
            f"{rewards(multi)}, mean reward {mean_of(got):.2f}.")


@case(
    "verifier_runtime_gym_own_verify_sorts_the_label_words_but_not_the_answer_words_so_unsorted_names_never_match",
    "verifier_runtime",
    ["sorted", "words", "verify", "answer"],
    "the user's own resources server word_match means to accept names in any word order, but its verify sorts only "
    "the label's words (`sorted(expected_answer.lower().split())`) and compares them with the answer's words in "
    "their given order; labels whose words are already in alphabetical order (George Washington, Pacific Ocean) "
    "still match, but right answers to Leonardo da Vinci and Mount Everest never do and scored 0 (every command "
    "exits 0)",
    netns=True,
)
def verifier_runtime_gym_own_verify_sorts_the_label_words_but_not_the_answer_words_so_unsorted_names_never_match(
        ctx: Ctx) -> str:
    code, got = words_week(ctx, 'extracted.lower().replace(",", " ").split()')
    multi = by_label(got, *UNSORTED)
    right = [r for r in multi if str(r.get("extracted_answer", "")).lower() == str(r["expected_answer"]).lower()]
    others = [r for r in got if r not in multi]
    if code or len(keys_of(got)) != 18 or len(right) < 2 or any(rewards(multi)) or not any(rewards(others)):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(multi)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/my_gym/resources_servers/word_match/app.py (verify: sorted label words vs unsorted answer words); "
            f"real `gym env start` (loopback-only namespace) with it; RUN/run_eval.sh (`gym eval run --no-serve` 6 x 3, "
            f"`gym eval profile`) exit {code}; rewards of Leonardo da Vinci / Mount Everest {rewards(multi)} "
            f"({len(right)} right answers), others mean {mean_of(others):.2f}.")


# =====================================================================================================
# data_schema: alphabet-position labels exported with the spreadsheet's ordinal number format
# =====================================================================================================

ORDINAL_QUIZ = [
    ("What is the position of the letter C in the English alphabet? Answer with the number only.", "3rd", "3"),
    ("What is the position of the letter J in the English alphabet? Answer with the number only.", "10th", "10"),
    ("What is the position of the letter B in the English alphabet? Answer with the number only.", "2nd", "2"),
    ("How many legs does a spider have? Answer with the number only.", "8", "8"),
    ("How many days are there in a week? Answer with the number only.", "7", "7"),
    ("How many minutes are there in an hour? Answer with the number only.", "60", "60"),
]


@case(
    "data_schema_gym_alphabet_position_labels_exported_from_spreadsheet_column_with_ordinal_format_carry_suffixes",
    "data_schema",
    ["ordinal", "labels", "3rd", "number only"],
    "this week's quiz merged the alphabet-position questions from the curriculum team's sheet, whose position column "
    "is formatted as ordinals, so their labels were exported as '3rd', '10th' and '2nd' while the prompts ask for "
    "the number only; the model answered 3, 10 and 2, which never match the suffixed labels, so those three tasks "
    "scored 0 on every rollout while the counting questions scored (every command exits 0)",
    netns=True,
)
def data_schema_gym_alphabet_position_labels_exported_from_spreadsheet_column_with_ordinal_format_carry_suffixes(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, label) for q, label, _ in ORDINAL_QUIZ])
    _, better = truth_checkpoints(ctx, [(q, truth) for q, _, truth in ORDINAL_QUIZ])
    overrides, env_start, policy = gym_up(ctx, better)
    script = gym_script(ctx, "weekly quiz eval (alphabet positions merged from the curriculum sheet)", [
        gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 4), gym_profile_line("results")])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    suffixed = by_label(got, "3rd", "10th", "2nd")
    plain = [r for r in got if r not in suffixed]
    right = [r for r in suffixed if str(r.get("extracted_answer")) in ("3", "10", "2")]
    if code or len(keys_of(got)) != 18 or len(right) < 3 or any(rewards(suffixed)) or not any(rewards(plain)):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(suffixed)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/tasks.jsonl (labels '3rd', '10th', '2nd' for the alphabet positions); real `gym env start` "
            f"(loopback-only namespace); RUN/run_eval.sh (`gym eval run --no-serve` 6 x 3, `gym eval profile`) exit "
            f"{code}; rewards of the suffixed labels {rewards(suffixed)} ({len(right)} right numbers), others mean "
            f"{mean_of(plain):.2f}.")


# =====================================================================================================
# model_serving: the serve-and-eval job picks the trainer's in-progress save as the newest step
# =====================================================================================================

SERVE_EVAL_SBATCH = """#!/bin/bash
#SBATCH --job-name=serve-eval
#SBATCH --output=RUN_DIR/logs/serve_eval_%j.log
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=2
#SBATCH --time=10
# serve the trainer's newest step on this node, then the weekly eval against it
cd RUN_DIR
CKPT=$(ls -d CKPTS/step_* | tail -1)   # the newest step
echo "serving $CKPT"
rm -f ready.url
GP_BIN serve-policy --port 0 --ready-file ready.url --checkpoint $CKPT --latency-ms 20 > logs/model_server.log 2>&1 &
for i in $(seq 1 40); do test -s ready.url && break; sleep 0.5; done
URL=$(cat ready.url 2>/dev/null)
echo "model server at $URL"
PIPELINE
kill %1 2>/dev/null
"""

SERVE_EVAL_SUBMIT = """#!/bin/bash
# submit.sh: the nightly serve-and-eval job, while the training job keeps saving checkpoints
cd RUN_DIR
ls -l CKPTS
sbatch --wait serve_eval.sbatch
echo "sbatch --wait returned $?"
"""

SERVE_PAIRS = [(f"What is {n} divided by 2?", str(n // 2)) for n in (18, 26, 34, 48, 66, 90)]


@case(
    "model_serving_slurm_serve_job_takes_newest_step_by_glob_that_matches_the_trainers_in_progress_step_tmp_save",
    "model_serving",
    ["step_0300.tmp", "checkpoint", "in-progress", "serve"],
    "the user's serve_eval.sbatch picks the checkpoint to serve with `ls -d checkpoints/step_* | tail -1`; the "
    "training job was saving step 300 at that moment into step_0300.tmp (renamed to step_0300 when complete, its "
    "knowledge.jsonl not yet written), which the glob matches and sorts last, so the model server was started on "
    "the half-written folder and refused it; no server came up, the eval got an empty model URL and nothing was "
    "collected although step_0200 was complete",
)
def model_serving_slurm_serve_job_takes_newest_step_by_glob_that_matches_the_trainers_in_progress_step_tmp_save(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in SERVE_PAIRS])
    _, better = truth_checkpoints(ctx, SERVE_PAIRS)
    ckpts = better.parent
    saving = ckpts / "step_0300.tmp"
    saving.mkdir()
    (saving / "config.json").write_text((better / "config.json").read_text().replace('"step": 200', '"step": 300'))
    ctx.note("(the training job, mid-save: WORK/checkpoints/step_0300.tmp with config.json only)")
    user_file(ctx, "serve_eval.sbatch", SERVE_EVAL_SBATCH, CKPTS=str(ckpts), PIPELINE=pipeline_lines("$URL"))
    user_file(ctx, "submit.sh", SERVE_EVAL_SUBMIT, CKPTS=str(ckpts))
    before = set(job_ids(ctx))
    try:
        code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=300)
    finally:
        scancel_ids(ctx, *(set(job_ids(ctx)) - before))
    joblog = job_logs(ctx, "serve_eval_*.log")
    if complete(ctx) or "step_0300.tmp" not in joblog or "returned" not in log_of(ctx, "submit.log"):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {joblog[-1500:]} {log_of(ctx, 'model_server.log')[-800:]}")
    return (f"WORK/checkpoints: step_0100, step_0200, step_0300.tmp (the trainer's in-progress save, config.json "
            f"only); RUN/serve_eval.sbatch (`ls -d step_* | tail -1`, serve-policy, materialize 6 x 3, collect, "
            f"profile); RUN/submit.sh (`sbatch --wait`) exit {code}; served step_0300.tmp; {complete(ctx)} rollouts.")


# =====================================================================================================
# data_schema: the prep job's own stdout is the dataset, with the job's banner line in it
# =====================================================================================================

PREP_ROWS_PY = '''"""prep.py: labels.csv (question,answer) -> JSONL rows on stdout (the job's --output is the dataset)."""
import csv
import json
import sys

with open("labels.csv", newline="") as f:
    for row in csv.DictReader(f):
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        print(json.dumps({"responses_create_params": {"input": [{"role": "user", "type": "message",
                          "content": [{"type": "input_text", "text": text}]}]},
                          "expected_answer": row["answer"], "extraction_mode": "final_answer",
                          "case_sensitive": False}))
print("prep: done", file=sys.stderr)
'''

PREP_SBATCH = """#!/bin/bash
#SBATCH --job-name=prep
#SBATCH --ntasks=1
#SBATCH --time=5
# the data step: prep.py writes the rows on stdout; submit.sh points --output at the dataset
cd RUN_DIR
echo "prep job $SLURM_JOB_ID on $(hostname), $(date +%F)"
PY_BIN prep.py
"""

PREP_SUBMIT = """#!/bin/bash
# submit.sh: the data step as a Slurm job (its stdout is the dataset), then the weekly eval
cd RUN_DIR
sbatch --wait --output=RUN_DIR/string_match.jsonl --error=RUN_DIR/logs/prep_%j.err prep.sbatch
echo "prep job returned $?"
head -2 string_match.jsonl | cut -c1-120
PIPELINE"""

PREP_PAIRS = [(f"What is {n} plus 30?", str(n + 30)) for n in (6, 15, 24, 33, 42, 51)]


@case(
    "data_schema_slurm_prep_job_output_file_is_the_dataset_so_the_jobs_banner_echo_becomes_its_first_line",
    "data_schema",
    ["string_match.jsonl", "first line", "echo", "--output"],
    "the user's data step runs prep.py as a Slurm job whose stdout is the dataset (`sbatch --output=string_match.jsonl "
    "prep.sbatch`); prep.sbatch also echoes a banner ('prep job N on vm, date') before running prep.py, so the "
    "dataset's first line is that banner, not a JSON row: materialize refused the file and nothing was collected or "
    "profiled although every prep row was right and the model server was up",
)
def data_schema_slurm_prep_job_output_file_is_the_dataset_so_the_jobs_banner_echo_becomes_its_first_line(
        ctx: Ctx) -> str:
    run = ctx.run
    buffer = "question,answer\n" + "".join(f"{q},{a}\n" for q, a in PREP_PAIRS)
    (run / "labels.csv").write_text(buffer)
    (run / "prep.py").write_text(PREP_ROWS_PY)
    _, better = truth_checkpoints(ctx, PREP_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    user_file(ctx, "prep.sbatch", PREP_SBATCH, PY_BIN=str(BIN / "python"))
    user_file(ctx, "submit.sh", PREP_SUBMIT, PIPELINE=pipeline_lines(url))
    before = set(job_ids(ctx))
    try:
        code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=300)
    finally:
        scancel_ids(ctx, *(set(job_ids(ctx)) - before))
    first = text_of(run / "string_match.jsonl").splitlines()[:1]
    if complete(ctx) or not first or not first[0].startswith("prep job") \
            or len(text_of(run / "string_match.jsonl").splitlines()) != 7:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {first}: {log_of(ctx, 'submit.log')[-1500:]}")
    return (f"RUN/labels.csv (6 rows), RUN/prep.py (rows on stdout); RUN/prep.sbatch (echo banner, prep.py); "
            f"RUN/submit.sh (`sbatch --wait --output=string_match.jsonl prep.sbatch`, materialize 6 x 3, collect, "
            f"profile) exit {code}; first line of the dataset {first[0][:40]!r}; {complete(ctx)} rollouts.")


# =====================================================================================================
# config: a commented-out option inside the backslash-continued `gym eval run` command
# =====================================================================================================

COMMENT_CUT_SH = """#!/bin/bash
# weekly eval: 4 repeats a task for the pass@k and variance columns of the profile
cd RUN_DIR
GYM_BIN eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl \\
  --concurrency 4 ++route_failures_to_sidecar=true OVERRIDES \\
  # ++limit=2 \\
  --num-repeats 4
GYM_BIN eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
"""

COMMENT_PAIRS = [(f"What is {n} times 5?", str(n * 5)) for n in (3, 7, 12, 14, 19, 22)]


@case(
    "config_gym_run_script_comment_line_inside_backslash_continued_eval_command_cuts_off_num_repeats",
    "config",
    ["comment", "backslash", "--num-repeats", "run_eval.sh"],
    "the user's run_eval.sh keeps the smoke test's `# ++limit=2 \\` as a commented-out line in the middle of the "
    "backslash-continued `gym eval run` command; bash ends the command at the comment, so `--num-repeats 4` on the "
    "next line ran as a command of its own ('command not found') and the eval ran with Gym's default of one repeat: "
    "6 rollouts instead of 24, and the profile has no spread across repeats (the eval and the profile exit 0)",
    netns=True,
)
def config_gym_run_script_comment_line_inside_backslash_continued_eval_command_cuts_off_num_repeats(ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in COMMENT_PAIRS])
    _, better = truth_checkpoints(ctx, COMMENT_PAIRS)
    overrides, env_start, policy = gym_up(ctx, better)
    script = run / "run_eval.sh"
    script.write_text(COMMENT_CUT_SH.replace("RUN_DIR", str(run)).replace("GYM_BIN", str(GYM))
                      .replace("OVERRIDES", overrides))
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    log = log_of(ctx, "run_eval.log")
    if len(keys_of(got)) != 6 or "command not found" not in log:
        raise failed(ctx, f"exit {code}, {len(got)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (`gym eval run --no-serve ... \\`, `# ++limit=2 \\`, `--num-repeats 4`; `gym eval "
            f"profile`) against a real `gym env start` (loopback-only namespace) exit {code}; `--num-repeats: command "
            f"not found`; {len(keys_of(got))} rollouts (one repeat of 6 tasks), mean reward {mean_of(got):.2f}.")


if __name__ == "__main__":
    sys.exit(main("eighty_sixth_held_out", __file__, __doc__))
