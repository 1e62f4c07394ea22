"""Build the SEVENTY-SIXTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/seventy_sixth_held_out.py --out tests/data/diagnosis_corpus/seventy_sixth_held_out [--only CASE ...]

This set was written after the seventy-five earlier sets (first_held_out.py ... seventy_fifth_held_out.py), from the guides
alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`), the real
NeMo Gym 0.7.0 (`gym env start`, `gym eval run`, with the users' own resources servers), Slurm jobs (sbatch, job
arrays), Docker containers the user's scripts start, and the user's own shell and Python tooling, settings, data-preparation
scripts and verifiers. The output of every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing
in a run folder is written by hand but the user's own inputs (data, scripts, settings, verifier code). Each case
injects one cause, different in mechanism from those of the seventy-five earlier sets, and each recipe checks that its
fault really happened (it raises RecipeError otherwise, and the case is not written). About half of the failures are
silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), and PYTHONPATH set to this checkout. Run it from a
foreground shell. Containers it makes are named `h76-...` and removed at the end of their recipe.
"""
from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import checkpoints, failed, gym_start, gym_start_failing, stop_gym  # noqa: E402
from fiftieth_held_out import log_of, submit  # noqa: E402
from fifty_first_held_out import keys_of  # noqa: E402
from fifty_ninth_held_out import gym_own_server, own_eval_script, sbatch_file  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from recipes import BIN, GP, Ctx, case, gym_model_args, main, replace_verify, rows_of, text_of  # noqa: E402
from seventy_first_held_out import container_python, remove_container, write_rows  # noqa: E402
from sixty_fourth_held_out import mean_of, pipeline_lines, python_mounts, question_row  # noqa: E402
from thirtieth_held_out import gym_rows  # noqa: E402
from thirty_fifth_held_out import pipeline  # noqa: E402
from twenty_fifth_held_out import job_logs  # noqa: E402
from twenty_fourth_held_out import gym_eval_line, gym_profile_line, keep_server_code  # noqa: E402
from twenty_sixth_held_out import free_port, slurm_script  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def scancel_ids(ctx: Ctx, *ids: str) -> None:
    for job in ids:
        subprocess.run(["scancel", job], env=ctx.env, capture_output=True, check=False)


def run_submit(ctx: Ctx, template: str, timeout: float = 500, env: dict | None = None, **values: str) -> int:
    """The user's own RUN/submit.sh (from `template`), run and waited for; its jobs cancelled after."""
    (ctx.run / "logs").mkdir(exist_ok=True)
    (ctx.run / "submit.sh").write_text(slurm_script(template, ctx, **values))
    try:
        return ctx.sh(f"bash {ctx.run}/submit.sh", "logs/submit.log", timeout=timeout, env=env)
    finally:
        scancel_ids(ctx, *text_of(ctx.run / "job_ids.txt").split())


def gym_up(ctx: Ctx, checkpoint: Path, flags: str = "--latency-ms 30"):
    """The policy serving `checkpoint` and the real `gym env start` against it; (overrides, env start, policy)."""
    url, policy = ctx.policy(checkpoint, flags, log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    return overrides, env_start, policy


def gym_script(ctx: Ctx, comment: str, body: list[str]) -> Path:
    script = ctx.run / "run_eval.sh"
    script.write_text(f"#!/bin/bash\n# {comment}\ncd {ctx.run}\n" + "".join(line + "\n" for line in body))
    return script


# =====================================================================================================
# healthy
# =====================================================================================================

SHARED_LOG_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-shards
#SBATCH --array=0-3
#SBATCH --output=RUN_DIR/logs/weekly_shards.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
# one array task per shard; every task writes its results to its own results_shard_N folder
SHARD=shard_${SLURM_ARRAY_TASK_ID}
cd RUN_DIR
echo "array task $SLURM_ARRAY_TASK_ID: evaluating $SHARD against $MODEL_URL"
mkdir -p results_$SHARD && cd results_$SHARD
PIPELINE"""


@case(
    "healthy_slurm_shard_array_tasks_share_one_output_file_so_the_job_log_shows_only_the_last_tasks_lines",
    "healthy",
    [],
    "nothing is wrong: the user's shard array eval.sbatch names its log `--output=logs/weekly_shards.log` without "
    "%a, so all four array tasks open the same file (each truncating it when it starts) and the job log holds the "
    "lines of only the tasks that started last, as if shards were missing; every task wrote its results to its own "
    "results_shard_N folder and all four shards were collected and profiled completely",
)
def healthy_slurm_shard_array_tasks_share_one_output_file_so_the_job_log_shows_only_the_last_tasks_lines(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 16, start=44, folder=run, name="tasks.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20")
    code0 = ctx.sh(f"cd {run} && split -l 4 -d -a 1 --additional-suffix=.jsonl tasks.jsonl shard_", "logs/split.log")
    sbatch_file(ctx, SHARED_LOG_SBATCH, PIPELINE=pipeline("$MODEL_URL", data="../$SHARD.jsonl"))
    code = submit(ctx, env={**ctx.env, "MODEL_URL": url})
    got = {i: rows_of(run / f"results_shard_{i}" / "rollouts.jsonl") for i in range(4)}
    profiles = [p for p in run.glob("results_shard_*/rollouts_reward_profiling.jsonl")]
    log = log_of(ctx, "weekly_shards.log")
    if code0 or code or any(len(keys_of(rows)) != 12 for rows in got.values()) or len(profiles) != 4 \
            or log.count("evaluating shard_") >= 4:
        raise failed(ctx, f"exit {code}, {[len(r) for r in got.values()]}, {len(profiles)}: {log[-1500:]}")
    return (f"RUN/tasks.jsonl split into 4 shards; RUN/eval.sbatch (array 0-3, `--output=logs/weekly_shards.log` "
            f"without %a: materialize 4 x 3, collect, profile per shard) submitted by RUN/submit.sh exit {code}; the "
            f"shared log names {log.count('evaluating shard_')} of the 4 shards; every shard has 12 of 12 rollouts "
            f"and a profile.")


EXPORT_NONE_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --export=NONE
# a clean environment on purpose (nothing leaks in from the submitting shell): everything the job needs is set by
# eval_settings.sh, kept with the run
cd RUN_DIR
source ./eval_settings.sh
echo "weekly eval against $MODEL_URL with $(command -v gym-pipeline)"
PIPELINE"""


@case(
    "healthy_slurm_eval_job_with_export_none_sets_its_whole_environment_from_settings_file_in_run_folder",
    "healthy",
    [],
    "nothing is wrong: the user's eval.sbatch asks for `#SBATCH --export=NONE` (so nothing leaks in from the "
    "submitting shell, a setting that usually loses the model URL and the venv's PATH); the job sources "
    "eval_settings.sh from the run folder, which sets PATH, MODEL_URL and the eval's settings, so it ran "
    "materialize, collect and profile to the end and every rollout was collected",
)
def healthy_slurm_eval_job_with_export_none_sets_its_whole_environment_from_settings_file_in_run_folder(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=12, folder=run, name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "eval_settings.sh").write_text(f"# eval_settings.sh: everything the weekly eval job needs\n"
                                          f"export PATH={BIN}:/usr/local/bin:/usr/bin:/bin\n"
                                          f"export MODEL_URL={url}\nREPEATS=3\nCONCURRENCY=4\n")
    sbatch_file(ctx, EXPORT_NONE_SBATCH, PIPELINE=pipeline("$MODEL_URL", repeats="$REPEATS",
                                                           concurrency="$CONCURRENCY", gp="gym-pipeline"))
    code = submit(ctx)
    got = rows_of(run / "rollouts.jsonl")
    job = job_logs(ctx, "eval_*.log")
    if code or len(keys_of(got)) != 24 or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)}: {job[-1500:]}")
    return (f"RUN/eval_settings.sh (PATH, MODEL_URL, REPEATS, CONCURRENCY); RUN/eval.sbatch (`--export=NONE`, "
            f"sources it; materialize 8 x 3, collect, profile) submitted by RUN/submit.sh exit {code}; "
            f"{len(keys_of(got))} of 24 rollouts, mean reward {mean_of(got):.2f}.")


HALF_CREDIT_VERIFY = '''    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        # the team's rubric for the names quiz: full credit for the name as written in the key, half credit when
        # only the letter case differs (proper nouns must be capitalised), nothing otherwise
        reward = 0.0
        if extracted is not None and body.expected_answer:
            if extracted.strip() == body.expected_answer.strip():
                reward = 1.0
            elif extracted.strip().casefold() == body.expected_answer.strip().casefold():
                reward = 0.5

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''

# (question, label, what the model answers)
NAMES_QUIZ = [
    ("What is the capital of Peru?", "Lima", "lima"),
    ("What is the capital of Canada?", "Ottawa", "Ottawa"),
    ("Who wrote Romeo and Juliet?", "William Shakespeare", "william shakespeare"),
    ("Which planet is known as the Red Planet?", "Mars", "Mars"),
    ("What is the capital of Japan?", "Tokyo", "tokyo"),
    ("Who painted the Mona Lisa?", "Leonardo da Vinci", "Leonardo da Vinci"),
    ("What is the capital of Norway?", "Oslo", "Oslo"),
    ("Which ocean is the largest?", "Pacific", "pacific"),
]


@case(
    "healthy_gym_own_server_gives_half_credit_by_rubric_when_only_letter_case_differs",
    "healthy",
    [],
    "nothing is wrong: the team's names quiz is scored by the user's own resources server (name_match), whose "
    "rubric gives 1.0 for the name as written in the key, 0.5 when only the letter case differs (proper nouns must "
    "be capitalised) and 0 otherwise; the rewards are a mix of 1.0, 0.5 and 0, which looks like a broken "
    "string_match verifier (a binary 0/1 score), but that is the rubric, every rollout was collected and `gym eval "
    "profile` completed",
    netns=True,
)
def healthy_gym_own_server_gives_half_credit_by_rubric_when_only_letter_case_differs(ctx: Ctx) -> str:
    run = ctx.run
    write_rows(run / "tasks.jsonl", [question_row(q, label) for q, label, _ in NAMES_QUIZ])
    _, better = truth_checkpoints(ctx, [(q, said) for q, _, said in NAMES_QUIZ])
    search, overrides, env_start, policy = gym_own_server(
        ctx, "name_match", lambda app: replace_verify(app, HALF_CREDIT_VERIFY), better,
        "(the user's name_match server: the team's rubric, half credit when only the letter case differs)")
    script = own_eval_script(ctx, search, overrides, "name_match", comment="weekly names quiz")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    halves = [r for r in got if r.get("reward") == 0.5]
    if code or len(keys_of(got)) != 24 or not halves or 1.0 not in rewards(got) \
            or not list(run.glob("results/*reward_profiling*.jsonl")):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/tasks.jsonl (8 names); the user's name_match server (RUN/my_gym, half credit on case-only "
            f"differences); real `gym env start` (loopback-only namespace) against step_0200; RUN/run_eval.sh (`gym "
            f"eval run --no-serve` 8 x 3, `gym eval profile`) exit {code}; {len(keys_of(got))} of 24 rollouts, "
            f"{len(halves)} scored 0.5, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# config
# =====================================================================================================

PATH_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
# run from the shell where the project's venv is activated (gym-pipeline on PATH)
cd RUN_DIR
echo "weekly eval against $MODEL_URL"
PIPELINE"""

PATH_SUBMIT = """#!/bin/bash
# submit.sh: the weekly eval, with this week's model server passed to the job
cd RUN_DIR
echo "submitting from $(command -v gym-pipeline)"
JOB=$(sbatch --parsable --export=MODEL_URL=SERVER_URL eval.sbatch)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
"""


@case(
    "config_slurm_submit_exports_only_model_url_to_the_job_so_the_venvs_path_is_not_propagated",
    "config",
    ["--export", "ALL", "PATH"],
    "the user's submit.sh passes the model server to the job with `sbatch --export=MODEL_URL=...`; without ALL in "
    "the list, sbatch propagates only that variable (and Slurm's own), not the submitting shell's PATH with the "
    "activated venv, so in the job `gym-pipeline` was not found (command not found, exit 127) for materialize, "
    "collect and profile: nothing was evaluated",
)
def config_slurm_submit_exports_only_model_url_to_the_job_so_the_venvs_path_is_not_propagated(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=24, folder=run, name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20")
    sbatch_file(ctx, PATH_SBATCH, PIPELINE=pipeline("$MODEL_URL", gp="gym-pipeline"))
    code = run_submit(ctx, PATH_SUBMIT, SERVER_URL=url)
    job = job_logs(ctx, "eval_*.log")
    if code or "command not found" not in job or url not in job or (run / "rollouts.jsonl").exists():
        raise failed(ctx, f"exit {code}: {job[-1500:]} {log_of(ctx, 'submit.log')[-500:]}")
    return (f"RUN/eval.sbatch (materialize, collect, profile with `gym-pipeline` from PATH); RUN/submit.sh "
            f"(`sbatch --export=MODEL_URL={url}`) exit {code}; in the job: gym-pipeline: command not found; no "
            f"rollouts.")


ARRAY_ID_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-shards
#SBATCH --array=0-3
#SBATCH --output=RUN_DIR/logs/shard_%A_%a.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
# each shard's results go under the job's folder: results/<job id>/shard_N
SHARD=shard_${SLURM_ARRAY_TASK_ID}
OUT=RUN_DIR/results/${SLURM_JOB_ID}/$SHARD
mkdir -p $OUT && cd $OUT
echo "evaluating $SHARD into $OUT"
PIPELINE"""

ARRAY_ID_SUBMIT = """#!/bin/bash
# submit.sh: split the tasks into 4 shards, evaluate them as one job array, merge the shards and profile the whole
cd RUN_DIR
split -l 4 -d -a 1 --additional-suffix=.jsonl tasks.jsonl shard_
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job array $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job array $JOB finished; merging results/$JOB/shard_*"
cat results/$JOB/shard_*/rollouts_materialized_inputs.jsonl > rollouts_materialized_inputs.jsonl
cat results/$JOB/shard_*/rollouts.jsonl > rollouts.jsonl
wc -l rollouts_materialized_inputs.jsonl rollouts.jsonl
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "config_slurm_shard_array_writes_under_slurm_job_id_but_merge_reads_the_array_job_ids_folder",
    "config",
    ["SLURM_ARRAY_JOB_ID", "SLURM_JOB_ID", "results/"],
    "the user's shard array eval.sbatch writes each shard to results/${SLURM_JOB_ID}/shard_N and submit.sh merges "
    "results/<id sbatch printed>/shard_*; in a job array every task has its own SLURM_JOB_ID and only one of them "
    "equals the array's id (SLURM_ARRAY_JOB_ID is the one all tasks share), so the shards landed in four folders and "
    "the merge and the profile took one shard of four: 12 of 16 tasks evaluated but left out, and every command "
    "exits 0",
)
def config_slurm_shard_array_writes_under_slurm_job_id_but_merge_reads_the_array_job_ids_folder(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 16, start=60, folder=run, name="tasks.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20")
    sbatch_file(ctx, ARRAY_ID_SBATCH, PIPELINE=pipeline(url, data="RUN_DIR/$SHARD.jsonl").replace(
        "RUN_DIR", str(run)))
    code = run_submit(ctx, ARRAY_ID_SUBMIT)
    folders = sorted(p.name for p in (run / "results").glob("*")) if (run / "results").exists() else []
    got = rows_of(run / "rollouts.jsonl")
    shards = list(run.glob("results/*/shard_*/rollouts.jsonl"))
    profile = rows_of(run / "rollouts_reward_profiling.jsonl")
    if code or len(folders) != 4 or len(shards) != 4 or len(keys_of(got)) != 12 or len(profile) != 4:
        raise failed(ctx, f"exit {code}, {folders}, {len(got)}, {len(profile)}: {log_of(ctx, 'submit.log')[-1500:]}")
    return (f"RUN/tasks.jsonl (16 tasks); RUN/eval.sbatch (array 0-3, results/${{SLURM_JOB_ID}}/shard_N); "
            f"RUN/submit.sh (split, sbatch, merge results/<array id>/shard_*, profile) exit {code}; result folders "
            f"{folders}; merged {len(got)} rollouts of {len(profile)} tasks, 4 shards evaluated.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

FUZZY_IMPORT = "from rapidfuzz import fuzz  # this week: near-miss spellings get partial credit\n"


def fuzzy_app(app: str) -> str:
    return FUZZY_IMPORT + app


@case(
    "cache_resume_gym_own_server_requirements_gain_a_package_but_skip_venv_if_present_reuses_the_old_venv",
    "cache_resume",
    ["skip_venv_if_present", "venv", "requirements.txt", "rapidfuzz"],
    "the user's own resources server (fuzzy_match) gained `from rapidfuzz import fuzz` this week and rapidfuzz was "
    "added to its requirements.txt, but the run script starts Gym with `++skip_venv_if_present=true` (kept to save "
    "the install time), so Gym reused the server's existing .venv, built before the new requirement, without "
    "installing anything: the server died at import (No module named 'rapidfuzz') and `gym env start` never got "
    "its servers ready",
    netns=True,
)
def cache_resume_gym_own_server_requirements_gain_a_package_but_skip_venv_if_present_reuses_the_old_venv(
        ctx: Ctx) -> str:
    from recipes import user_resources_server

    run = ctx.run
    data = ctx.dataset("string_match", 6, start=30, folder=run, name="tasks.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    search = user_resources_server(ctx, "fuzzy_match", "string_match", fuzzy_app,
                                   requirements="fastapi\nrapidfuzz\n")
    keep_server_code(ctx, search, "fuzzy_match")
    kept = run / "my_gym" / "resources_servers" / "fuzzy_match" / "requirements.txt"
    kept.write_text((search / "resources_servers" / "fuzzy_match" / "requirements.txt").read_text())
    ctx.note("(the fuzzy_match server's .venv was built last week, before rapidfuzz was added to requirements.txt)")
    ready, exit_code = gym_start_failing(
        ctx, f"--search-dir {search} {gym_model_args(url, resources_server='fuzzy_match')} {overrides}", 90)
    ctx.stop(policy)
    start = text_of(run / "env_start.log")
    if ready or "rapidfuzz" not in start:
        raise failed(ctx, f"ready {ready}, exit {exit_code}: {start[-1500:]}")
    return (f"the user's fuzzy_match server (RUN/my_gym: app.py imports rapidfuzz, requirements.txt lists it); real "
            f"`gym env start ... ++skip_venv_if_present=true` (loopback-only namespace) exit {exit_code}: the server "
            f"died at import (No module named 'rapidfuzz'), never ready.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

SET_VERIFY = '''    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        def items(value: str) -> set:
            # list answers in any order: "red, blue" == "blue, red"
            return set(value.lower().replace(" ", "").replace(",", ""))

        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = 1.0 if items(extracted) == items(body.expected_answer) else 0.0

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''

# (question, label, what the model answers)
SET_QUIZ = [
    ("How many seconds are there in an hour?", "3600", "360"),
    ("How many days are there in a leap year?", "366", "36"),
    ("What is 25 multiplied by 4?", "100", "1000"),
    ("What is 11 multiplied by 11?", "121", "112"),
    ("Name the three primary colours of paint.", "red, yellow, blue", "blue, red, yellow"),
    ("What is the capital of Peru?", "Lima", "Lima"),
    ("How many legs does a spider have?", "8", "8"),
    ("What is 6 multiplied by 7?", "42", "42"),
]


@case(
    "verifier_runtime_gym_own_verify_compares_sets_of_characters_so_wrong_numbers_with_the_same_digits_score",
    "verifier_runtime",
    ["set(", "split", "items", "characters"],
    "the user's own resources server (list_match) compares answers order-insensitively with `set(value...)` on the "
    "whole string instead of on its comma-separated items, so it compares the sets of characters: wrong numbers "
    "that use the label's digits (360 for 3600, 36 for 366, 1001 for 100, 112 for 121) scored 1.0 like right "
    "answers, and the mean reward counts them as right (every command exits 0)",
    netns=True,
)
def verifier_runtime_gym_own_verify_compares_sets_of_characters_so_wrong_numbers_with_the_same_digits_score(
        ctx: Ctx) -> str:
    run = ctx.run
    write_rows(run / "tasks.jsonl", [question_row(q, label) for q, label, _ in SET_QUIZ])
    _, better = truth_checkpoints(ctx, [(q, said) for q, _, said in SET_QUIZ])
    search, overrides, env_start, policy = gym_own_server(
        ctx, "list_match", lambda app: replace_verify(app, SET_VERIFY), better,
        "(the user's list_match server: string_match with an order-insensitive comparison)")
    script = own_eval_script(ctx, search, overrides, "list_match", comment="weekly eval of the mixed quiz")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    wrong = [r for r in got if r.get("reward") == 1.0 and r.get("extracted_answer") and "," not in
             str(r.get("expected_answer")) and str(r["extracted_answer"]) != str(r.get("expected_answer"))]
    if code or len(keys_of(got)) != 24 or len(wrong) < 3:
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(wrong)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/tasks.jsonl (8 tasks); the user's list_match server (RUN/my_gym, `set(value...)` per answer); real "
            f"`gym env start` (loopback-only namespace); RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, `gym eval "
            f"profile`) exit {code}; {len(keys_of(got))} rollouts; {len(wrong)} wrong numeric answers scored 1.0 "
            f"({sorted({(r['expected_answer'], r['extracted_answer']) for r in wrong})}), mean reward "
            f"{mean_of(got):.2f}.")


# =====================================================================================================
# data_schema
# =====================================================================================================

ALIAS_SHEET = [
    ("What is the largest country in Southeast Asia by land area that was renamed in 1989?", "Myanmar|Burma",
     "Myanmar"),
    ("What is the capital of Kazakhstan?", "Astana|Nur-Sultan", "Astana"),
    ("Which country was formerly known as Ceylon?", "Sri Lanka|Ceylon", "Sri Lanka"),
    ("What is the chemical symbol of gold?", "Au", "Au"),
    ("What is the capital of Peru?", "Lima", "Lima"),
    ("Who wrote Romeo and Juliet?", "Shakespeare|William Shakespeare", "William Shakespeare"),
    ("What is 6 multiplied by 7?", "42", "42"),
    ("What is the capital of Canada?", "Ottawa", "Ottawa"),
]

ALIAS_PREP_PY = '''"""prep.py: the team's answer sheet (answers.csv: question,answer; alternatives allowed, 'A|B') -> tasks.jsonl."""
import csv
import json

with open("answers.csv", newline="", encoding="utf-8") as sheet, open("tasks.jsonl", "w") as out:
    rows = list(csv.DictReader(sheet))
    for row in rows:
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": row["answer"], "extraction_mode": "final_answer", "case_sensitive": False}) + "\\n")
print(f"prep: {len(rows)} tasks written")
'''


@case(
    "data_schema_gym_answer_sheet_lists_accepted_alternatives_with_pipes_and_prep_copies_them_into_the_label",
    "data_schema",
    ["answers.csv", "|", "expected_answer", "alternatives"],
    "the team's answer sheet writes accepted alternatives in one cell separated by '|' ('Myanmar|Burma', "
    "'Astana|Nur-Sultan'), a syntax only the old in-house grader understood; the user's prep.py copies the cell "
    "into expected_answer as it is, and Gym's string_match compares the answer with the whole string, so the four "
    "tasks with alternatives scored 0 on right answers (every command exits 0)",
    netns=True,
)
def data_schema_gym_answer_sheet_lists_accepted_alternatives_with_pipes_and_prep_copies_them_into_the_label(
        ctx: Ctx) -> str:
    import csv

    run = ctx.run
    with (run / "answers.csv").open("w", newline="") as handle:
        csv.writer(handle).writerows([("question", "answer"), *[(q, a) for q, a, _ in ALIAS_SHEET]])
    (run / "prep.py").write_text(ALIAS_PREP_PY)
    _, better = truth_checkpoints(ctx, [(q, said) for q, _, said in ALIAS_SHEET])
    overrides, env_start, policy = gym_up(ctx, better)
    script = gym_script(ctx, "weekly eval of the answer sheet",
                        [f"{BIN}/python prep.py",
                         gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 4),
                         gym_profile_line("results")])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    piped = [r for r in got if "|" in str(r.get("expected_answer"))]
    plain = [r for r in got if r not in piped]
    right = [r for r in piped for said in ("Myanmar", "Astana", "Sri Lanka", "William Shakespeare")
             if f"answer: {said.lower()}" in json.dumps(r.get("response")).lower()]
    if code or len(keys_of(got)) != 24 or len(piped) != 12 or any(rewards(piped)) or not right \
            or not any(rewards(plain)):
        raise failed(ctx, f"exit {code}, {len(got)}, {len(piped)}, {rewards(piped)}: "
                          f"{log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/answers.csv (4 cells with 'A|B' alternatives); RUN/prep.py (copies the cell into expected_answer); "
            f"real `gym env start` (loopback-only namespace); RUN/run_eval.sh (prep, `gym eval run --no-serve` 8 x 3, "
            f"`gym eval profile`) exit {code}; the 12 rollouts with a piped label scored {sorted(set(rewards(piped)))} "
            f"({len(right)} right answers among them), the others mean {mean_of(plain):.2f}.")


# =====================================================================================================
# model_serving
# =====================================================================================================

SERVE_SBATCH = """#!/bin/bash
#SBATCH --job-name=serve-policy
#SBATCH --output=RUN_DIR/logs/serve_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
# serve.sbatch CHECKPOINT: a model server for the weekly evals; its URL is left in server_url.txt for the eval job
cd RUN_DIR
echo "serving $1"
GP_BIN serve-policy --port 0 --ready-file RUN_DIR/server_url.txt --checkpoint $1 --latency-ms 20
"""

TWO_SERVERS_SUBMIT = """#!/bin/bash
# submit.sh: this week's candidate (step_0200) and the baseline (step_0100, for next week's comparison) each get
# a model server job; the candidate is evaluated first (from here, the login node)
cd RUN_DIR
rm -f server_url.txt
CAND=$(sbatch --parsable serve.sbatch CKPT_DIR/step_0200)
echo $CAND >> job_ids.txt
echo "candidate server job $CAND"
until [ -s server_url.txt ]; do sleep 1; done
BASE=$(sbatch --parsable serve.sbatch CKPT_DIR/step_0100)
echo $BASE >> job_ids.txt
echo "baseline server job $BASE"
until [ "$(squeue -h -j $BASE -o %T)" = RUNNING ]; do sleep 1; done
sleep 8   # let both servers finish loading
CANDIDATE_URL=$(cat server_url.txt)
echo "candidate server at $CANDIDATE_URL"
echo "weekly eval of the candidate checkpoint against $CANDIDATE_URL"
PIPELINE"""


@case(
    "model_serving_slurm_candidate_and_baseline_server_jobs_write_one_url_file_so_the_eval_gets_the_baselines_url",
    "model_serving",
    ["server_url.txt", "--ready-file", "baseline", "per job"],
    "the user's serve.sbatch has every model server job write its URL to the same server_url.txt; submit.sh starts "
    "the candidate's server (step_0200), then the baseline's (step_0100, for next week's comparison), and reads "
    "server_url.txt for the candidate's eval after both are up, when the baseline's server had overwritten it: the "
    "'candidate' eval ran against the baseline checkpoint, and every command exits 0",
)
def model_serving_slurm_candidate_and_baseline_server_jobs_write_one_url_file_so_the_eval_gets_the_baselines_url(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=36, folder=run, name="string_match.jsonl")
    weaker, _ = checkpoints(ctx, "string_match", data)
    (run / "logs").mkdir(exist_ok=True)
    (run / "serve.sbatch").write_text(slurm_script(SERVE_SBATCH, ctx))
    code = run_submit(ctx, TWO_SERVERS_SUBMIT, CKPT_DIR=str(weaker.parent), PIPELINE=pipeline("$CANDIDATE_URL"))
    serves = {p.name: text_of(p) for p in (run / "logs").glob("serve_*.log")}
    base_url = next((line.split()[-1] for text in serves.values() if "step_0100" in text
                     for line in text.splitlines() if line.startswith("SIMULATED_POLICY_READY")), None)
    submit_log = log_of(ctx, "submit.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or not base_url or f"candidate server at {base_url}" not in submit_log or len(keys_of(got)) != 24:
        raise failed(ctx, f"exit {code}, {base_url}, {len(got)}: {submit_log[-1200:]} {serves}")
    return (f"RUN/serve.sbatch (`--ready-file server_url.txt` for every server job); RUN/submit.sh (candidate "
            f"step_0200 server job, baseline step_0100 server job, then materialize 8 x 3, collect, profile with the "
            f"URL read from server_url.txt) exit {code}; the eval ran against the baseline's server "
            f"{base_url}; {len(keys_of(got))} rollouts, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# infra
# =====================================================================================================


@case(
    "infra_docker_collect_container_mounts_the_venv_but_not_the_interpreter_its_python_symlink_points_to",
    "infra",
    ["mount", "-v", "python", "interpreter"],
    "the user's run_eval.sh runs collect in a container that mounts the project's venv and checkout but not the "
    "Python installation the venv was made from (/root/.pyenv/versions/...); the venv's bin/python is a symlink to "
    "that interpreter, which does not exist in the container, so `docker run` could not start the program (no such "
    "file or directory, exit 127): nothing was collected and the profile found no rollouts",
)
def infra_docker_collect_container_mounts_the_venv_but_not_the_interpreter_its_python_symlink_points_to(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=48, folder=run, name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20")
    base = Path(sys.base_prefix)
    flags = container_python(run).replace(f"-v {base}:{base}:ro ", "")
    if str(base) in flags or str(base) not in python_mounts():
        raise failed(ctx, f"mounts {flags}")
    name = f"h76-collect-{free_port()}"
    script = run / "run_eval.sh"
    script.write_text(
        f"#!/bin/bash\n# weekly eval; collect runs in the eval container (mounts: the venv, the checkout, the run)\n"
        f"cd {run}\nrm -f rollouts.jsonl rollouts_failures.jsonl\n"
        f"{GP} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"docker run --rm --name {name} {flags} gym-pipeline/base:bookworm \\\n"
        f"  {BIN}/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output "
        f"rollouts.jsonl --model-url {url} --env string_match --concurrency 4\n"
        "echo \"collect container exit: $?\"\n"
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if "collect container exit: 0" in log or "collect container exit" not in log or rows_of(run / "rollouts.jsonl"):
        raise failed(ctx, f"exit {code}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 8 x 3; `docker run` of collect with the venv and checkout mounted, not "
            f"{base}; profile) exit {code}; the container could not start the venv's python; no rollouts.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================


def colleague_load_test(url: str, stop: threading.Event, threads: int = 6) -> list[threading.Thread]:
    """A colleague's load test on the shared model server: `threads` clients sending requests back to back."""
    model = json.loads(urllib.request.urlopen(f"{url}/models", timeout=10).read())["data"][0]["id"]
    body = json.dumps({"model": model, "messages": [{"role": "user", "content": "load test: say hello"}],
                       "max_tokens": 16}).encode()

    def client() -> None:
        while not stop.is_set():
            request = urllib.request.Request(f"{url}/chat/completions", body, {"Content-Type": "application/json"})
            try:
                urllib.request.urlopen(request, timeout=30).read()
            except Exception:  # noqa: BLE001 - a load test does not care
                time.sleep(0.05)

    workers = [threading.Thread(target=client, daemon=True) for _ in range(threads)]
    for worker in workers:
        worker.start()
    return workers


@case(
    "throughput_builtin_shared_model_server_saturated_by_colleagues_load_test_during_the_eval",
    "throughput_resources",
    ["load test", "shared", "429", "dedicated"],
    "the team's shared model server admits 2 requests at a time and queues 2 more (429 overloaded beyond that); a "
    "colleague's load test was hammering it with 6 clients back to back while the user's eval ran, so most of "
    "collect's requests were refused with 429 and ran out of retries: the eval was starved by the other load on the "
    "shared server, not broken, and needs a server of its own or a quiet slot",
)
def throughput_builtin_shared_model_server_saturated_by_colleagues_load_test_during_the_eval(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=4, folder=run, name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 400 --max-running 2 --max-waiting 2")
    stop = threading.Event()
    ctx.note("(meanwhile a colleague's load test sends requests to the same server from 6 clients)")
    workers = colleague_load_test(url, stop)
    time.sleep(2)
    try:
        script = run / "run_eval.sh"
        script.write_text(f"#!/bin/bash\n# weekly eval on the team's shared model server\ncd {run}\n"
                          + pipeline_lines(url))
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    finally:
        stop.set()
        for worker in workers:
            worker.join(timeout=35)
    got = rows_of(run / "rollouts.jsonl")
    log = log_of(ctx, "run_eval.log") + text_of(run / "rollouts_failures.jsonl")
    if "429" not in log or complete(ctx) >= 24 and not rows_of(run / "rollouts_failures.jsonl"):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"the shared model server (serve-policy --max-running 2 --max-waiting 2, 0.4 s a generation) under a "
            f"colleague's 6-client load test; RUN/run_eval.sh (materialize 8 x 3, collect at concurrency 4, profile) "
            f"exit {code}; {complete(ctx)} of 24 rollouts collected, {len(rows_of(run / 'rollouts_failures.jsonl'))} "
            f"failure rows, mean reward {mean_of(got):.2f}.")


if __name__ == "__main__":
    sys.exit(main("seventy_sixth_held_out", __file__, __doc__))
