"""Build the EIGHTY-SECOND HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/eighty_second_held_out.py --out tests/data/diagnosis_corpus/eighty_second_held_out [--only CASE ...]

This set was written after the eighty-one earlier sets (first_held_out.py ... eighty_first_held_out.py), from the
guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`), the real NeMo
Gym 0.7.0 in a loopback-only network namespace (with a user's own resources server and settings), Slurm batch jobs
and job arrays on the single-node cluster, Docker containers the user's scripts start, and the user's own shell and
Python tooling, submit wrappers, settings, data-preparation scripts and verifiers. The output of every command is
captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's
own inputs (data, scripts, settings, verifier code). Each case injects one cause, different in mechanism from those
of the eighty-one earlier sets, and each recipe checks that its fault really happened (it raises RecipeError
otherwise, and the case is not written). About half of the failures are silent: every command exits 0 and only the
result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare,
mount), Slurm (SLURM_CONF), Docker (with the local base image gym-pipeline/base:bookworm), NeMo Gym 0.7.0
(GYM_PIPELINE_NEMO_GYM), and PYTHONPATH set to this checkout. Run it from a foreground shell. Containers it makes
are named `h82-...` and removed at the end of their recipe.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import failed, gym_start, stop_gym  # noqa: E402
from eighty_first_held_out import kill_pids, labelled, listening_pids  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_first_held_out import keys_of  # noqa: E402
from fifty_ninth_held_out import gym_own_server, own_eval_script  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from recipes import GP, Ctx, case, main, rows_of, text_of  # noqa: E402
from seventy_first_held_out import docker_collect_script, remove_container  # noqa: E402
from seventy_ninth_held_out import run_eval  # noqa: E402
from sixty_fourth_held_out import pipeline_lines  # noqa: E402
from sixty_third_held_out import gym_script, gym_up, mean_of, scancel_ids  # noqa: E402
from thirtieth_held_out import gym_rows  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_fourth_held_out import gym_eval_line, gym_profile_line  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_sixth_held_out import free_port, slurm_script  # noqa: E402
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


def submitted_ids(ctx: Ctx, *logs: str) -> list[str]:
    text = "".join(log_of(ctx, log) for log in logs) + text_of(ctx.run / "job_ids.txt")
    return re.findall(r"(?:Submitted batch job |job )(\d+)", text) + text_of(ctx.run / "job_ids.txt").split()


def job_log_text(ctx: Ctx, pattern: str = "eval_*.log") -> str:
    return "".join(text_of(p) for p in sorted((ctx.run / "logs").glob(pattern)))


# =====================================================================================================
# healthy
# =====================================================================================================

CI_ENV = """# ci.env: settings every CI job of the team sources first (written on the Munich runners)
export LANG=de_DE.UTF-8
export LC_ALL=de_DE.UTF-8
export EVAL_REPEATS=3
"""


@case(
    "healthy_builtin_ci_env_exports_lc_all_for_a_locale_the_node_never_generated_so_every_bash_warns_setlocale",
    "healthy",
    [],
    "nothing is wrong: the team's ci.env, which run_eval.sh sources first, exports LANG and LC_ALL=de_DE.UTF-8, a "
    "locale this node never generated (only C and C.UTF-8 exist), so bash prints 'warning: setlocale: LC_ALL: cannot "
    "change locale (de_DE.UTF-8)' and every step falls back to the C locale; the eval handles only ASCII labels and "
    "no number formatting, so materialize, collect and profile ran to the end with every rollout collected",
)
def healthy_builtin_ci_env_exports_lc_all_for_a_locale_the_node_never_generated_so_every_bash_warns_setlocale(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 8, 12)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "ci.env").write_text(CI_ENV)
    (run / "steps.sh").write_text("#!/bin/bash\n# the eval's steps (run in a fresh bash, as the CI runner does)\n"
                                  "echo \"steps: locale $LC_ALL, repeats $EVAL_REPEATS\"\n"
                                  + pipeline_lines(url, repeats="$EVAL_REPEATS"))
    code = run_eval(ctx, "source ci.env\nlocale\nbash steps.sh\n", "weekly eval in CI (team settings in ci.env)")
    log = log_of(ctx, "run_eval.log")
    if code or complete(ctx) != 24 or "setlocale" not in log or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/ci.env (LANG, LC_ALL=de_DE.UTF-8, not generated here); RUN/run_eval.sh (source ci.env, locale, "
            f"bash steps.sh: materialize 8 x 3, collect, profile) exit {code}; setlocale warnings in the log; "
            f"{complete(ctx)} of 24 rollouts, mean reward {mean_of(rows_of(run / 'rollouts.jsonl')):.2f}.")


ARRAY_ONE_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --array=0
#SBATCH --output=RUN_DIR/logs/eval_%A_%a.log
#SBATCH --time=10
#SBATCH --ntasks=1
# from the team's sharded template: one array task per shard (this week's set fits in one shard, shard_0)
cd RUN_DIR
SHARD=shards/shard_${SLURM_ARRAY_TASK_ID}.jsonl
echo "array task ${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID} of ${SLURM_ARRAY_TASK_COUNT}: $SHARD against $MODEL_URL"
PIPELINE"""

ARRAY_SUBMIT = """#!/bin/bash
# submit.sh: split the set into shards of 16 rows, submit one array task per shard, wait for the array
cd RUN_DIR
mkdir -p shards && rm -f shards/*
split -l 16 -d -a 1 --additional-suffix=.jsonl string_match.jsonl shards/shard_
ls shards
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted array job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do squeue -h -j $JOB -o '%i %j %T %M %r' 2>/dev/null; sleep 3; done
echo "array job $JOB finished"
ls logs
"""


@case(
    "healthy_slurm_eval_submitted_as_array_of_a_single_task_so_job_and_log_names_carry_underscore_zero",
    "healthy",
    [],
    "nothing is wrong: the user's eval.sbatch comes from the team's sharded template and is still an array job "
    "(`#SBATCH --array=0`); this week's set fits in one shard, so the array has a single task, its id is shown as "
    "<id>_0, its log is eval_<id>_0.log and SLURM_ARRAY_TASK_COUNT is 1, which looks like a partial or broken array, "
    "but the one task evaluated the whole set (shard_0 holds all 12 rows) and every rollout was collected and "
    "profiled",
)
def healthy_slurm_eval_submitted_as_array_of_a_single_task_so_job_and_log_names_carry_underscore_zero(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 12, 30)
    url, _ = ctx.policy(better, "--latency-ms 20")
    user_file(ctx, "eval.sbatch", ARRAY_ONE_SBATCH, PIPELINE=pipeline_lines("$MODEL_URL", data="$SHARD"))
    user_file(ctx, "submit.sh", ARRAY_SUBMIT)
    try:
        code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=400, env={**ctx.env, "MODEL_URL": url})
    finally:
        scancel_ids(ctx, *submitted_ids(ctx, "submit.log"))
    logs = sorted(p.name for p in (run / "logs").glob("eval_*_0.log"))
    if code or complete(ctx) != 36 or len(logs) != 1 or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {logs}: {log_of(ctx, 'submit.log')[-800:]} "
                          f"{job_log_text(ctx)[-1200:]}")
    return (f"RUN/submit.sh (split into shards of 16: shard_0 only; sbatch, squeue polling) exit {code}; RUN/eval.sbatch "
            f"(--array=0, materialize 3 repeats, collect, profile) logged to {logs[0]}; {complete(ctx)} of 36 rollouts, "
            f"mean reward {mean_of(rows_of(run / 'rollouts.jsonl')):.2f}.")


def optional_fast_normaliser(app: str) -> str:
    anchor = "from fastapi import FastAPI\n"
    block = ('import logging\n\n_log = logging.getLogger("string_match.fast")\ntry:\n'
             "    import fastnorm  # optional speed-up, only in the cluster image\n"
             "except ImportError:\n"
             '    _log.exception("optional fast normaliser fastnorm not installed; using the built-in matching")\n'
             "    fastnorm = None\n")
    if anchor not in app:
        raise recipes.RecipeError("Gym's string_match app.py changed: no FastAPI import")
    return app.replace(anchor, anchor + block, 1)


SMALL_QUIZ = [
    ("What is the capital of Canada?", "Ottawa"),
    ("How many legs does a spider have?", "8"),
    ("Which gas do plants absorb from the air?", "Carbon dioxide"),
    ("What is the largest ocean on Earth?", "Pacific"),
    ("Who wrote 'Hamlet'?", "Shakespeare"),
    ("What is the boiling point of water in Celsius?", "100"),
]


@case(
    "healthy_gym_own_server_logs_import_traceback_for_missing_optional_fast_normaliser_then_uses_builtin_matching",
    "healthy",
    [],
    "nothing is wrong: the user's own resources server quiz_match tries to import an optional speed-up module "
    "(fastnorm, installed only in the cluster image) and, when it is missing, logs the ImportError with its full "
    "traceback ('ModuleNotFoundError: No module named fastnorm') at start-up before falling back to Gym's built-in "
    "matching; that looks like a server crash in env_start.log, but the server came up, every rollout was verified "
    "and `gym eval profile` completed",
    netns=True,
)
def healthy_gym_own_server_logs_import_traceback_for_missing_optional_fast_normaliser_then_uses_builtin_matching(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in SMALL_QUIZ])
    _, better = truth_checkpoints(ctx, SMALL_QUIZ)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "quiz_match", optional_fast_normaliser, better,
        "(the user's quiz_match server: Gym's string_match with an optional `import fastnorm` that logs its "
        "ImportError with traceback)")
    script = own_eval_script(ctx, search, overrides, "quiz_match", comment="weekly quiz eval")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    started = text_of(run / "env_start.log")
    if code or len(keys_of(got)) != 18 or "No module named 'fastnorm'" not in started or mean_of(got) < 0.5:
        raise failed(ctx, f"exit {code}, {len(got)}, {mean_of(got)}: {started[-1000:]} "
                          f"{log_of(ctx, 'run_eval.log')[-1000:]}")
    return (f"RUN/my_gym/resources_servers/quiz_match/app.py (optional `import fastnorm`, ImportError logged with "
            f"_log.exception); real `gym env start` (loopback-only namespace) with it; RUN/run_eval.sh (`gym eval run "
            f"--no-serve` 6 x 3, `gym eval profile`) exit {code}; traceback in env_start.log; {len(keys_of(got))} of 18 "
            f"rollouts, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# infra
# =====================================================================================================


@case(
    "infra_docker_collect_container_template_asks_for_nvidia_runtime_that_this_cpu_node_does_not_have",
    "infra",
    ["--runtime", "nvidia", "template", "node"],
    "the user's run_eval.sh runs collect in a container from the team's `docker run` template for the GPU nodes, "
    "which adds `--runtime nvidia`; this CPU node's Docker daemon has no nvidia runtime registered, so Docker refused "
    "to create the container ('unknown or invalid runtime name: nvidia'), collect never ran and profile found no "
    "rollouts",
)
def infra_docker_collect_container_template_asks_for_nvidia_runtime_that_this_cpu_node_does_not_have(
        ctx: Ctx) -> str:
    _, (_, better) = builtin_rows(ctx, 6, 40)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h82-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, "--runtime nvidia -e NVIDIA_VISIBLE_DEVICES=all",
                                   "collect runs in the eval container (GPU-node template flags)")
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if "runtime" not in log.lower() or "nvidia" not in log or "collect container exit: 0" in log or complete(ctx):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run --runtime nvidia ... gym-pipeline/base:bookworm python -m "
            f"gym_pipeline.cli collect`, profile) exit {code}; Docker has no nvidia runtime here; {complete(ctx)} "
            f"rollouts.")


# =====================================================================================================
# config
# =====================================================================================================

EXPORT_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
# the weekly eval (gym-pipeline comes from the eval venv the submit shell has activated)
cd RUN_DIR
echo "weekly eval against $MODEL_URL (PATH=$PATH)"
PIPELINE"""

EXPORT_SUBMIT = """#!/bin/bash
# submit.sh: hand this week's model server to the eval job and wait for the job
cd RUN_DIR
echo "eval venv: $(command -v gym-pipeline)"
sbatch --wait --export=MODEL_URL=MODEL_URL_VALUE eval.sbatch
echo "sbatch --wait returned $?"
"""


@case(
    "config_slurm_sbatch_export_names_only_model_url_without_all_so_job_loses_the_venv_path_and_its_commands",
    "config",
    ["--export", "ALL", "PATH"],
    "the user's submit.sh passes the model server to the job with `sbatch --export=MODEL_URL=...`; without ALL in "
    "the list, Slurm propagates only that variable, so the job did not get the submit shell's PATH with the "
    "activated eval venv, bash fell back to its default PATH and every `gym-pipeline` step of the job failed with "
    "'command not found': no rollouts were collected although the model server was up",
)
def config_slurm_sbatch_export_names_only_model_url_without_all_so_job_loses_the_venv_path_and_its_commands(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 50)
    url, _ = ctx.policy(better, "--latency-ms 20")
    user_file(ctx, "eval.sbatch", EXPORT_SBATCH, PIPELINE=pipeline_lines("$MODEL_URL").replace(str(GP), "gym-pipeline"))
    user_file(ctx, "submit.sh", EXPORT_SUBMIT, MODEL_URL_VALUE=url)
    try:
        code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=300)
    finally:
        scancel_ids(ctx, *submitted_ids(ctx, "submit.log"))
    jobs = job_log_text(ctx)
    if "command not found" not in jobs or url not in jobs or complete(ctx):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log_of(ctx, 'submit.log')[-600:]} {jobs[-1200:]}")
    return (f"RUN/submit.sh (`sbatch --wait --export=MODEL_URL={url} eval.sbatch`) exit {code}; RUN/eval.sbatch "
            f"(gym-pipeline materialize, collect, profile by name); the job's PATH lacked the venv: gym-pipeline: "
            f"command not found; {complete(ctx)} rollouts.")


REPEATS_SBATCH = """#!/bin/bash
#SBATCH --job-name=variance-study
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
# the pass@k variance study: REPEATS samples per task (set by submit.sh; 1 for a plain eval)
cd RUN_DIR
echo "variance study against $MODEL_URL, ${REPEATS:-1} repeats per task"
PIPELINE"""

REPEATS_SUBMIT = """#!/bin/bash
# submit.sh: the monthly pass@k variance study, 8 samples per task
cd RUN_DIR
REPEATS=8
export MODEL_URL=MODEL_URL_VALUE
echo "submitting the variance study: $REPEATS repeats per task against $MODEL_URL"
sbatch --wait eval.sbatch
echo "sbatch --wait returned $?"
"""


@case(
    "config_slurm_submit_sets_repeats_as_plain_shell_variable_without_export_so_the_job_runs_one_repeat_per_task",
    "config",
    ["export", "REPEATS", "sbatch", "num-repeats"],
    "the user's submit.sh sets `REPEATS=8` for the pass@k variance study as a plain shell variable, without export; "
    "sbatch propagates only the environment, so the job never saw it and fell back to its default `${REPEATS:-1}`: "
    "materialize made one rollout per task instead of eight and the study's per-task variance and pass@k were "
    "computed from single samples (every command exits 0)",
)
def config_slurm_submit_sets_repeats_as_plain_shell_variable_without_export_so_the_job_runs_one_repeat_per_task(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 8, 60)
    url, _ = ctx.policy(better, "--latency-ms 20")
    user_file(ctx, "eval.sbatch", REPEATS_SBATCH, PIPELINE=pipeline_lines("$MODEL_URL", repeats="${REPEATS:-1}"))
    user_file(ctx, "submit.sh", REPEATS_SUBMIT, MODEL_URL_VALUE=url)
    try:
        code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=300)
    finally:
        scancel_ids(ctx, *submitted_ids(ctx, "submit.log"))
    inputs = rows_of(run / "rollouts_materialized_inputs.jsonl")
    if code or "8 repeats" not in log_of(ctx, "submit.log") or "1 repeats per task" not in job_log_text(ctx) \
            or len(inputs) != 8 or complete(ctx) != 8:
        raise failed(ctx, f"exit {code}, {len(inputs)}: {log_of(ctx, 'submit.log')[-600:]} {job_log_text(ctx)[-1200:]}")
    return (f"RUN/submit.sh (`REPEATS=8` without export, `export MODEL_URL`, sbatch --wait) exit {code}; RUN/eval.sbatch "
            f"(materialize --num-repeats ${{REPEATS:-1}}, collect, profile): {len(inputs)} materialized rows for 8 tasks, "
            f"{complete(ctx)} rollouts.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

URL_CACHE_SUBMIT = """#!/bin/bash
# submit.sh CHECKPOINT: serve the checkpoint (once: the server stays up and its URL is cached for the next
# runs), then submit the eval job and wait for it
cd RUN_DIR
CKPT=$1
CACHE=$HOME/.cache/weekly_eval/model_url
mkdir -p $(dirname $CACHE)
if [ -s $CACHE ] && curl -sf $(cat $CACHE)/models > /dev/null; then
  echo "reusing the model server at $(cat $CACHE)"
else
  rm -f server_url.txt
  nohup GP_BIN serve-policy --port 0 --ready-file RUN_DIR/server_url.txt --checkpoint $CKPT --latency-ms 20 \\
    >> logs/model_server.log 2>&1 &
  for i in $(seq 60); do [ -s server_url.txt ] && break; sleep 0.5; done
  cat server_url.txt > $CACHE
  echo "started a model server for $CKPT at $(cat $CACHE)"
fi
export MODEL_URL=$(cat $CACHE)
sbatch --wait eval.sbatch
echo "sbatch --wait returned $?"
"""

PLAIN_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
cd RUN_DIR
echo "weekly eval against $MODEL_URL"
PIPELINE"""


@case(
    "cache_resume_slurm_submit_reuses_cached_model_server_url_while_last_weeks_server_is_alive_so_new_checkpoint_never_served",
    "cache_resume",
    ["cache", "model_url", "server", "checkpoint"],
    "the user's submit.sh caches the model server's URL in ~/.cache/weekly_eval/model_url and reuses it whenever "
    "that server still answers, without checking which checkpoint it serves; last week's server (step_0100) was "
    "still up, so this week's run with step_0200 reused it, never started a server for step_0200, and the eval job "
    "scored last week's checkpoint again (every command exits 0)",
)
def cache_resume_slurm_submit_reuses_cached_model_server_url_while_last_weeks_server_is_alive_so_new_checkpoint_never_served(
        ctx: Ctx) -> str:
    run = ctx.run
    home = ctx.work / "home"
    home.mkdir()
    env = {**ctx.env, "HOME": str(home)}
    _, (older, better) = builtin_rows(ctx, 8, 20)
    user_file(ctx, "eval.sbatch", PLAIN_SBATCH, PIPELINE=pipeline_lines("$MODEL_URL"))
    user_file(ctx, "submit.sh", URL_CACHE_SUBMIT)
    try:
        code1 = ctx.sh(f"bash {run}/submit.sh {older}", "logs/submit_last_week.log", timeout=300, env=env)
        last = rows_of(run / "rollouts.jsonl")
        code = ctx.sh(f"bash {run}/submit.sh {better}", "logs/submit.log", timeout=300, env=env)
    finally:
        scancel_ids(ctx, *submitted_ids(ctx, "submit.log", "submit_last_week.log"))
        port = re.search(r":(\d+)", text_of(run / "server_url.txt").replace("http://", ""))
        if port:
            kill_pids(listening_pids(int(port.group(1))))
    log = log_of(ctx, "submit.log")
    server = log_of(ctx, "model_server.log")
    got = rows_of(run / "rollouts.jsonl")
    if code1 or code or "reusing the model server" not in log or "step_0200" in server or "step_0200" in log \
            or len(keys_of(got)) != 24 or not last:
        raise failed(ctx, f"exit {code1}/{code}, {len(got)}: {log[-1000:]} {server[-600:]}")
    return (f"RUN/submit.sh (server URL cached in ~/.cache/weekly_eval/model_url, reused while it answers); last week's "
            f"`submit.sh step_0100` exit {code1} (server started and left up, mean reward {mean_of(last):.2f}); this "
            f"week's `submit.sh step_0200` exit {code}: reused the step_0100 server; {len(keys_of(got))} of 24 rollouts, "
            f"mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# model_serving
# =====================================================================================================

SERVE_QUIZ = [
    ("What is the capital of Spain?", "Madrid"),
    ("What is the capital of Egypt?", "Cairo"),
    ("How many minutes are in an hour?", "60"),
    ("What color do you get by mixing blue and yellow?", "Green"),
    ("Which planet is closest to the Sun?", "Mercury"),
    ("What is the square root of 81?", "9"),
    ("What is the freezing point of water in Fahrenheit?", "32"),
    ("Which animal is known as the king of the jungle?", "Lion"),
]


@case(
    "model_serving_gym_serve_script_ready_file_at_fixed_node_tmp_path_overwritten_by_colleagues_server_on_same_node",
    "model_serving",
    ["ready-file", "policy_url", "model-url", "TMPDIR"],
    "the user's serve step writes the policy server's URL to the fixed path $TMPDIR/policy_url (from the team's "
    "serve.sh) and `gym env start` takes its --model-url from that file; a colleague's job on the same node started "
    "its own server (step_0100) with the same serve.sh a moment later and overwrote the file, so Gym was pointed at "
    "the colleague's server and the weekly eval scored step_0100 instead of the user's step_0200 (every command "
    "exits 0)",
    netns=True,
)
def model_serving_gym_serve_script_ready_file_at_fixed_node_tmp_path_overwritten_by_colleagues_server_on_same_node(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in SERVE_QUIZ])
    older, better = truth_checkpoints(ctx, SERVE_QUIZ)
    node_tmp = ctx.work / "node_tmp"
    node_tmp.mkdir()
    shared = node_tmp / "policy_url"
    mine = ctx.bg(f"{GP} serve-policy --port 0 --ready-file {shared} --checkpoint {better} --latency-ms 30",
                  "policy_server.log")
    recipes.wait_for(lambda: shared.exists() and shared.read_text().strip() != "", 30, "the user's policy server")
    my_url = shared.read_text().strip()
    ctx.note("(a colleague's job on the same node starts its own server with the team's serve.sh: the same "
             "--ready-file $TMPDIR/policy_url)")
    theirs = ctx.bg(f"{GP} serve-policy --port 0 --ready-file {shared} --checkpoint {older} --latency-ms 30", None)
    recipes.wait_for(lambda: shared.read_text().strip() not in ("", my_url), 30, "the colleague's policy server")
    url = shared.read_text().strip()
    overrides = ctx.gym_overrides()
    ctx.note(f"(MODEL_URL=$(cat $TMPDIR/policy_url) -> {url})")
    env_start = gym_start(ctx, f"{recipes.gym_model_args(url)} {overrides}")
    script = gym_script(ctx, "weekly eval against the policy server in $TMPDIR/policy_url",
                        [gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 4),
                         gym_profile_line("results")])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, theirs, mine)
    got = gym_rows(ctx)
    if code or url == my_url or len(keys_of(got)) != 24 or my_url in text_of(run / "env_start.log") \
            or "step 200" not in text_of(run / "policy_server.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, {url} {my_url}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/tasks.jsonl (8 tasks); the user's policy server (step_0200) at {my_url}, URL written to "
            f"$TMPDIR/policy_url; a colleague's server (step_0100) at {url} overwrote that file; real `gym env start` "
            f"(loopback-only namespace) with --model-url {url}; RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, "
            f"`gym eval profile`) exit {code}; {len(keys_of(got))} of 24 rollouts, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# data_schema
# =====================================================================================================

PREP_INSTRUCTIONS_PY = '''"""prep.py: the quiz sheet (quiz.tsv) -> tasks.jsonl for Gym (Responses API rows)."""
import json

with open("quiz.tsv") as sheet, open("tasks.jsonl", "w") as out:
    next(sheet)
    for line in sheet:
        question, answer = line.rstrip("\\n").split("\\t")
        text = f"{question} End your response with 'Final answer: <answer>'."
        # the question goes into the request's instructions (as in the playground's system prompt box),
        # the user turn only asks for the answer
        turn = {"role": "user", "type": "message",
                "content": [{"type": "input_text", "text": "Please answer the question above."}]}
        out.write(json.dumps({"responses_create_params": {"instructions": text, "input": [turn]},
                              "expected_answer": answer, "extraction_mode": "final_answer",
                              "case_sensitive": False}) + "\\n")
print("prep: tasks.jsonl written")
'''


@case(
    "data_schema_gym_prep_puts_each_question_in_responses_instructions_and_a_generic_user_turn_in_input",
    "data_schema",
    ["prep.py", "input", "instructions", "user message"],
    "the user's prep.py writes each question into responses_create_params.instructions (as in the playground's "
    "system prompt box) and puts only a generic 'Please answer the question above.' user turn into "
    "responses_create_params.input; the rows pass Gym's schema, but the model answers the user turn, which is the "
    "same for every task and holds no question, so every rollout scored 0 (every command exits 0)",
    netns=True,
)
def data_schema_gym_prep_puts_each_question_in_responses_instructions_and_a_generic_user_turn_in_input(ctx: Ctx) -> str:
    run = ctx.run
    (run / "quiz.tsv").write_text("question\tanswer\n" + "".join(f"{q}\t{a}\n" for q, a in SMALL_QUIZ))
    (run / "prep.py").write_text(PREP_INSTRUCTIONS_PY)
    _, better = truth_checkpoints(ctx, SMALL_QUIZ)
    overrides, env_start, policy = gym_up(ctx, better)
    script = gym_script(ctx, "weekly quiz eval (tasks from the quiz sheet)",
                        [f"{recipes.PY} prep.py",
                         gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 4),
                         gym_profile_line("results")])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    if code or len(keys_of(got)) != 18 or any(rewards(got)):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/quiz.tsv, RUN/prep.py (question in responses_create_params.instructions, a generic user turn in input); real `gym env "
            f"start` (loopback-only namespace) against step_0200; RUN/run_eval.sh (prep, `gym eval run --no-serve` "
            f"6 x 3, `gym eval profile`) exit {code}; {len(keys_of(got))} rollouts, rewards {sorted(set(rewards(got)))}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

ACCENT_QUIZ = [
    ("What is the largest city in Brazil?", "São Paulo"),
    ("Which Swiss city is the country's largest?", "Zürich"),
    ("What is the capital of France?", "Paris"),
    ("What is the capital of Iceland?", "Reykjavík"),
    ("What is the capital of Germany?", "Berlin"),
    ("How many days are in a week?", "7"),
]
ACCENTED = ("São Paulo", "Zürich", "Reykjavík")

AUDIT_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        # audit key of the grading database (the legacy table's key column is ASCII)
        audit_key = (extracted or "").strip().lower().encode("ascii")
        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)
        _ = audit_key
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


@case(
    "verifier_runtime_gym_own_verify_builds_ascii_audit_key_from_the_answer_so_accented_answers_raise_unicodeencodeerror",
    "verifier_runtime",
    ["verify", "encode", "ascii", "audit_key"],
    "the user's own resources server geo_match builds an audit key for the grading database with "
    "`extracted.strip().lower().encode(\"ascii\")` in verify; for the answers with accents (São Paulo, Zürich, "
    "Reykjavík) that raises UnicodeEncodeError, the verify request fails with a server error and those rollouts "
    "failed, while the other questions were graded",
    netns=True,
)
def verifier_runtime_gym_own_verify_builds_ascii_audit_key_from_the_answer_so_accented_answers_raise_unicodeencodeerror(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in ACCENT_QUIZ])
    _, better = truth_checkpoints(ctx, ACCENT_QUIZ)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "geo_match", lambda app: recipes.replace_verify(app, AUDIT_VERIFY), better,
        "(the user's geo_match server: Gym's string_match whose verify builds an ASCII audit key)")
    script = own_eval_script(ctx, search, overrides, "geo_match", comment="weekly geography eval")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    everything = text_of(run / "env_start.log") + log_of(ctx, "run_eval.log") + text_of(
        run / "results" / "rollouts_failures.jsonl")
    crashed = rows_of(run / "results" / "rollouts_failures.jsonl")
    if "UnicodeEncodeError" not in everything or len(crashed) < 3 or any(rewards(labelled(got, *ACCENTED))) \
            or not any(rewards(got)):
        raise failed(ctx, f"exit {code}, {len(got)}, {len(crashed)}: {everything[-1500:]}")
    return (f"RUN/my_gym/resources_servers/geo_match/app.py (verify: audit key with .encode(\"ascii\")); real `gym env "
            f"start` (loopback-only namespace) with it; RUN/run_eval.sh (`gym eval run --no-serve` 6 x 3, `gym eval "
            f"profile`) exit {code}; UnicodeEncodeError for the right accented answers: {len(crashed)} rollouts "
            f"failed, {len(keys_of(got))} of 18 graded (no accented answer among those scored).")


if __name__ == "__main__":
    sys.exit(main("eighty_second_held_out", __file__, __doc__))
