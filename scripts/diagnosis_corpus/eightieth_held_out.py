"""Build the EIGHTIETH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/eightieth_held_out.py --out tests/data/diagnosis_corpus/eightieth_held_out [--only CASE ...]

This set was written after the seventy-nine earlier sets (first_held_out.py ... seventy_ninth_held_out.py), from the guides
alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the real NeMo Gym 0.7.0 (`gym env start`, `gym eval run`, `gym eval profile`) with the
user's own resources servers, Slurm jobs the user's scripts submit, the built-in engine (`gym-pipeline materialize`,
`collect`, `profile`), Docker containers the user's scripts start, and the user's own shell and Python tooling, settings, data-preparation scripts and verifiers. The output of every command is captured as a user would
(`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data, scripts,
settings, verifier code). Each case injects one cause, different in mechanism from those of the seventy-nine earlier
sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not
written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Slurm, Docker
(with the local base image gym-pipeline/base:bookworm), and PYTHONPATH set to this checkout. Run it from a
foreground shell. Containers it makes are named `h80-...` and removed at the end of their recipe.
"""
from __future__ import annotations

import csv
import io
import json
import signal
import socket
import sys
import tarfile
import time
from pathlib import Path
from urllib.parse import urlparse

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import checkpoints, failed, stop_gym  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_first_held_out import keys_of  # noqa: E402
from fifty_ninth_held_out import gym_own_server, own_eval_script, sbatch_file  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from recipes import BIN, GP, Ctx, case, gym_model_args, main, replace_verify, rows_of, text_of  # noqa: E402
from seventy_first_held_out import docker_collect_script, remove_container, write_rows  # noqa: E402
from seventy_sixth_held_out import gym_script, gym_up, run_submit  # noqa: E402
from sixty_fourth_held_out import mean_of, pipeline_lines, question_row  # noqa: E402
from thirty_fifth_held_out import pipeline  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_fifth_held_out import job_logs  # noqa: E402
from twenty_fourth_held_out import gym_eval_line, gym_profile_line  # noqa: E402
from twenty_sixth_held_out import free_port  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def gym_results(ctx: Ctx) -> list[dict]:
    return rows_of(ctx.run / "results" / "rollouts.jsonl")


def everything_in(folder: Path) -> str:
    return "".join(text_of(p) for p in sorted(folder.rglob("*")) if p.is_file() and p.stat().st_size < 5_000_000)


def port_open(url: str) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname, parsed.port), timeout=2):
            return True
    except OSError:
        return False


EVAL_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --mem=500M
# the weekly eval of string_match.jsonl against this week's policy server
cd RUN_DIR
echo "eval job $SLURM_JOB_ID on $(hostname) against $MODEL_URL"
PIPELINE"""


# =====================================================================================================
# healthy
# =====================================================================================================

AFTERNOTOK_SUBMIT = """#!/bin/bash
# submit.sh: the weekly eval, plus a clean-up job that runs only if the eval fails (afternotok)
cd RUN_DIR
EVAL=$(sbatch --parsable eval.sbatch)
echo $EVAL >> job_ids.txt
CLEAN=$(sbatch --parsable --job-name=weekly-eval-cleanup --dependency=afternotok:$EVAL --time=2 --mem=100M \\
  --output=RUN_DIR/logs/cleanup_%j.log \\
  --wrap "rm -f RUN_DIR/rollouts.jsonl RUN_DIR/rollouts_failures.jsonl; echo removed the failed eval's rollouts")
echo $CLEAN >> job_ids.txt
echo "submitted eval $EVAL and its clean-up $CLEAN (afternotok:$EVAL)"
while squeue -h -j $EVAL 2>/dev/null | grep -q .; do sleep 2; done
echo "eval job $EVAL left the queue"
sleep 6
squeue -u $(id -un) -o "%.8i %.22j %.9T %r"
"""


@case(
    "healthy_slurm_cleanup_job_chained_afternotok_to_the_eval_stays_pending_with_dependency_never_satisfied",
    "healthy",
    [],
    "nothing is wrong: the user's submit.sh queues a clean-up job with `--dependency=afternotok:<eval job>` that "
    "would remove the rollouts of a failed eval; the eval job succeeded, so the clean-up job can never run and "
    "squeue shows it PENDING with reason DependencyNeverSatisfied (the cluster does not kill invalid dependencies), "
    "which looks like a stuck eval, but every rollout was collected and profiled",
)
def healthy_slurm_cleanup_job_chained_afternotok_to_the_eval_stays_pending_with_dependency_never_satisfied(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 12)
    url, _ = ctx.policy(better, "--latency-ms 20")
    sbatch_file(ctx, EVAL_SBATCH, PIPELINE=pipeline("$MODEL_URL"))
    code = run_submit(ctx, AFTERNOTOK_SUBMIT, env={**ctx.env, "MODEL_URL": url})
    log = log_of(ctx, "submit.log")
    if code or complete(ctx) != 18 or "DependencyNeverSatisfied" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]} {job_logs(ctx, 'eval_*.log')[-800:]}")
    return (f"RUN/eval.sbatch (materialize 6 x 3, collect, profile); RUN/submit.sh (eval job, clean-up job "
            f"`--dependency=afternotok:$EVAL`, squeue) exit {code}; the clean-up job PENDING "
            f"(DependencyNeverSatisfied); {complete(ctx)} of 18 rollouts, profiled.")


TEST_ONLY_SUBMIT = """#!/bin/bash
# submit.sh: ask the scheduler when the eval would start (--test-only submits nothing), then submit it for real
cd RUN_DIR
sbatch --test-only eval.sbatch
JOB=$(sbatch --parsable eval.sbatch)
echo $JOB >> job_ids.txt
echo "submitted $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
"""


@case(
    "healthy_slurm_submit_checks_start_time_with_sbatch_test_only_before_submitting_the_eval_for_real",
    "healthy",
    [],
    "nothing is wrong: the user's submit.sh first runs `sbatch --test-only eval.sbatch`, which submits nothing and "
    "only prints 'Job N to start at ...' (its job id is never used), then submits the same script for real; the log "
    "holds a job id that never ran beside the real one, but the real job ran, and every rollout was collected and "
    "profiled",
)
def healthy_slurm_submit_checks_start_time_with_sbatch_test_only_before_submitting_the_eval_for_real(ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 26)
    url, _ = ctx.policy(better, "--latency-ms 20")
    sbatch_file(ctx, EVAL_SBATCH, PIPELINE=pipeline("$MODEL_URL"))
    code = run_submit(ctx, TEST_ONLY_SUBMIT, env={**ctx.env, "MODEL_URL": url})
    log = log_of(ctx, "submit.log")
    if code or complete(ctx) != 18 or "to start at" not in log or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/submit.sh (`sbatch --test-only eval.sbatch`, then sbatch RUN/eval.sbatch and wait) exit {code}; "
            f"the test-only line printed a start estimate; {complete(ctx)} of 18 rollouts, mean reward "
            f"{mean_of(rows_of(run / 'rollouts.jsonl')):.2f}, profiled.")


NUMERIC_OR_TEXT_VERIFY = '''    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        import logging

        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        reward = 0.0
        if extracted is not None and body.expected_answer:
            try:
                # numbers compare by value: "42.0" == "42"
                reward = 1.0 if abs(float(extracted) - float(body.expected_answer)) < 1e-9 else 0.0
            except ValueError:
                logging.getLogger("numeric_or_text").exception("not a number, comparing as text: %r", extracted)
                reward = 1.0 if extracted.strip().lower() == body.expected_answer.strip().lower() else 0.0

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


@case(
    "healthy_gym_own_server_logs_full_traceback_of_the_handled_number_parse_error_for_every_word_answer",
    "healthy",
    [],
    "nothing is wrong: the user's own resources server (numeric_or_text) first compares answers as numbers and, "
    "when float() raises ValueError on a word answer, logs it with logger.exception and compares the text instead; "
    "the servers' output is full of 'Traceback ... ValueError: could not convert string to float', which looks "
    "like a crashing verifier, but every rollout was verified correctly, collected and profiled",
    netns=True,
)
def healthy_gym_own_server_logs_full_traceback_of_the_handled_number_parse_error_for_every_word_answer(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=0, folder=run, name="tasks.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "numeric_or_text", lambda app: replace_verify(app, NUMERIC_OR_TEXT_VERIFY), better,
        "(the user's numeric_or_text server: string_match comparing numbers by value, words as text)")
    script = own_eval_script(ctx, search, overrides, "numeric_or_text", comment="weekly eval")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_results(ctx)
    text = everything_in(run)
    if code or len(keys_of(got)) != 24 or not any(rewards(got)) or "could not convert string to float" not in text \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"the user's numeric_or_text server (RUN/my_gym: float() first, logger.exception and a text compare on "
            f"ValueError); real NeMo Gym 0.7.0 (loopback-only namespace) RUN/run_eval.sh (`gym eval run` 8 x 3, "
            f"`gym eval profile`) exit {code}; tracebacks in the servers' output; {len(keys_of(got))} of 24 "
            f"rollouts, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================


def guarded_script(ctx: Ctx, overrides: str) -> Path:
    return gym_script(ctx, "weekly eval: re-run only when the tasks changed since the last results", [
        "if [ -f label_fix.tar.gz ]; then tar xzvf label_fix.tar.gz; fi   # the data team's label fixes, if any",
        "if [ results/rollouts.jsonl -nt tasks.jsonl ]; then",
        "  echo \"results/rollouts.jsonl is newer than tasks.jsonl: eval up to date, skipping gym eval run\"",
        "else",
        "  rm -rf results",
        "  " + gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 4),
        "fi",
        gym_profile_line("results"),
    ])


@case(
    "cache_resume_gym_run_script_skips_eval_when_results_are_newer_than_tasks_but_label_fix_untarred_keeps_its_old_mtime",
    "cache_resume",
    ["-nt", "mtime", "tar", "tasks.jsonl"],
    "the user's run_eval.sh re-runs `gym eval run` only when tasks.jsonl is newer than results/rollouts.jsonl "
    "(`[ results/rollouts.jsonl -nt tasks.jsonl ]`); this week's label fix came as the data team's tarball, and tar "
    "restores each file's original modification time (the team fixed the file three days ago, before last week's "
    "run), so the fixed tasks.jsonl looked older than last week's results, the eval was skipped and `gym eval "
    "profile` reported last week's rollouts scored against the wrong labels (every command exits 0)",
    netns=True,
)
def cache_resume_gym_run_script_skips_eval_when_results_are_newer_than_tasks_but_label_fix_untarred_keeps_its_old_mtime(
        ctx: Ctx) -> str:
    run = ctx.run
    right = [json.loads(line) for line in ctx.dataset("string_match", 8, start=40).read_text().splitlines()]
    truth = write_rows(ctx.work / "truth.jsonl", right)
    _, better = checkpoints(ctx, "string_match", truth)
    wrong = [dict(r) for r in right]
    for index, source in ((0, 1), (1, 2), (2, 0)):  # last week's export shifted three labels
        wrong[index]["expected_answer"] = right[source]["expected_answer"]
    write_rows(run / "tasks.jsonl", wrong)
    overrides, env_start, policy = gym_up(ctx, better)
    script = guarded_script(ctx, overrides)
    ctx.note("(last week: tasks.jsonl with three shifted labels)")
    code1 = ctx.sh(f"bash {script}", "logs/run_eval_last_week.log", timeout=500)
    before = gym_results(ctx)
    ctx.note("(this week: the data team's label_fix.tar.gz, tasks.jsonl fixed three days ago)")
    fixed = "".join(json.dumps(r) + "\n" for r in right).encode()
    info = tarfile.TarInfo("tasks.jsonl")
    info.size, info.mtime = len(fixed), int(time.time()) - 3 * 86400
    with tarfile.open(run / "label_fix.tar.gz", "w:gz") as tar:
        tar.addfile(info, io.BytesIO(fixed))
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_results(ctx)
    labels = {r["_ng_task_index"]: r.get("expected_answer") for r in got}
    log = log_of(ctx, "run_eval.log")
    now_labels = [r["expected_answer"] for r in rows_of(run / "tasks.jsonl")]
    if code1 or code or "skipping" not in log or len(keys_of(got)) != 24 or got != before \
            or labels.get(0) != wrong[0]["expected_answer"] or now_labels[0] != right[0]["expected_answer"]:
        raise failed(ctx, f"exit {code1}/{code}, {len(got)}, {labels}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (`[ results/rollouts.jsonl -nt tasks.jsonl ]` guard around `gym eval run` 8 x 3, "
            f"then `gym eval profile`); last week exit {code1}; RUN/label_fix.tar.gz (tasks.jsonl with mtime three "
            f"days back); this week exit {code}: eval skipped; results still carry labels "
            f"{[labels.get(i) for i in range(3)]} where tasks.jsonl now says {now_labels[:3]}; real NeMo Gym 0.7.0 "
            f"(loopback-only namespace).")


# =====================================================================================================
# model_serving
# =====================================================================================================

TRAP_SERVE = """#!/bin/bash
# serve.sh: start this week's policy server in the background and write its URL to model.env for the eval
trap 'kill 0' EXIT   # from dev_serve.sh: never leave child processes behind
cd RUN_DIR
exec >> logs/serve.log 2>&1
rm -f policy_url.txt model.env
GP_BIN serve-policy --port 0 --ready-file policy_url.txt --checkpoint CKPT --latency-ms 30 >> logs/model_server.log 2>&1 &
for i in $(seq 1 60); do [ -s policy_url.txt ] && break; sleep 0.5; done
echo "MODEL_URL=$(cat policy_url.txt)" > model.env
echo "policy server up at $(cat policy_url.txt), pid $!"
"""


@case(
    "model_serving_gym_serve_script_exit_trap_kill_zero_takes_down_the_policy_server_it_just_started",
    "model_serving",
    ["trap", "kill 0", "serve.sh", "nohup"],
    "the user's serve.sh starts the policy server in the background and returns, but it keeps `trap 'kill 0' EXIT` "
    "from a development script: when serve.sh exits, kill 0 signals its whole process group, which includes the "
    "server it just started, so the server was gone before `gym env start` probed the model URL serve.sh had "
    "written to model.env; Gym waited for a model endpoint that never answered and nothing was evaluated",
    netns=True,
)
def model_serving_gym_serve_script_exit_trap_kill_zero_takes_down_the_policy_server_it_just_started(
        ctx: Ctx) -> str:
    from recipes import wait_for

    run = ctx.run
    (run / "logs").mkdir(exist_ok=True)
    data = ctx.dataset("string_match", 8, start=48, folder=run, name="tasks.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    (run / "serve.sh").write_text(TRAP_SERVE.replace("RUN_DIR", str(run)).replace("GP_BIN", str(GP))
                                  .replace("CKPT", str(better)))
    serve = ctx.bg(f"bash {run}/serve.sh", None)
    wait_for(lambda: serve.poll() is not None, 60, "serve.sh")
    url = text_of(run / "model.env").strip().removeprefix("MODEL_URL=")
    if not url:
        raise failed(ctx, f"no URL: {log_of(ctx, 'serve.log')} {log_of(ctx, 'model_server.log')[-800:]}")
    time.sleep(1)
    alive = port_open(url)
    overrides = ctx.gym_overrides()
    env_start = ctx.gym_env_start(f"{gym_model_args(url)} {overrides}", wait=False)
    waiting = "Waiting for 1 model endpoint(s) to answer"
    wait_for(lambda: waiting in text_of(run / "env_start.log") or env_start.poll() is not None, 180,
             "`gym env start` to probe the model")
    time.sleep(60)
    ctx.note("60 s of `gym env start` waiting for the model endpoint: Ctrl-C on it")
    ctx.stop(env_start, signal.SIGINT, 30)
    exit_code = env_start.returncode
    start = text_of(run / "env_start.log")
    after = start.split(waiting, 1)[-1]
    if alive or waiting not in start or "policy server up at" not in log_of(ctx, "serve.log") \
            or "answered" in after.lower():
        raise failed(ctx, f"alive {alive}: {start[-1500:]}")
    return (f"RUN/serve.sh (`trap 'kill 0' EXIT`, serve-policy &, wait for its URL) wrote {url} to RUN/model.env and "
            f"exited; the server's port closed with it; real `gym env start` against that URL (loopback-only "
            f"namespace) started its servers, then waited for the model endpoint that never answered (exit "
            f"{exit_code} after Ctrl-C).")


# =====================================================================================================
# config
# =====================================================================================================

SHARD_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-shards
#SBATCH --array=0-3
#SBATCH --output=RUN_DIR/logs/shard_%A_%a.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --mem=500M
# one array task per shard of tasks.jsonl (shard_0.jsonl ... shard_3.jsonl)
SHARD=shard_${SLURM_ARRAY_TASK_ID}
mkdir -p RUN_DIR/results/$SHARD && cd RUN_DIR/results/$SHARD
echo "array task $SLURM_ARRAY_TASK_ID: evaluating $SHARD"
PIPELINE"""

SMOKE_ARRAY_SUBMIT = """#!/bin/bash
# submit.sh: split the tasks into 4 shards, evaluate them as one job array, merge the shards and profile the whole
cd RUN_DIR
SBATCH_ARGS="--parsable --array=0"   # trying the array on the new cluster
split -l 4 -d -a 1 --additional-suffix=.jsonl tasks.jsonl shard_
JOB=$(sbatch $SBATCH_ARGS eval.sbatch)
echo $JOB >> job_ids.txt
echo "submitted job array $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job array $JOB finished; merging results/shard_*"
cat results/shard_*/rollouts_materialized_inputs.jsonl > rollouts_materialized_inputs.jsonl
cat results/shard_*/rollouts.jsonl > rollouts.jsonl
wc -l rollouts_materialized_inputs.jsonl rollouts.jsonl
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "config_slurm_submit_keeps_array_zero_on_sbatch_command_line_which_overrides_the_scripts_array_directive",
    "config",
    ["--array", "SBATCH_ARGS", "command line", "directive"],
    "the user's submit.sh still passes `--array=0` to sbatch (SBATCH_ARGS, set while trying the job array on the "
    "new cluster); options on sbatch's command line override the script's `#SBATCH --array=0-3`, so only array "
    "task 0 ran: one shard of four was evaluated, merged and profiled as if it were the whole set, 12 of 16 tasks "
    "never evaluated, and every command exits 0",
)
def config_slurm_submit_keeps_array_zero_on_sbatch_command_line_which_overrides_the_scripts_array_directive(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 16, start=64, folder=run, name="tasks.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20")
    sbatch_file(ctx, SHARD_SBATCH, PIPELINE=pipeline(url, data="RUN_DIR/$SHARD.jsonl").replace("RUN_DIR", str(run)))
    code = run_submit(ctx, SMOKE_ARRAY_SUBMIT)
    shards = sorted(p.name for p in (run / "results").glob("shard_*")) if (run / "results").exists() else []
    got = rows_of(run / "rollouts.jsonl")
    profile = rows_of(run / "rollouts_reward_profiling.jsonl")
    if code or shards != ["shard_0"] or len(keys_of(got)) != 12 or len(profile) != 4:
        raise failed(ctx, f"exit {code}, {shards}, {len(got)}, {len(profile)}: {log_of(ctx, 'submit.log')[-1500:]}")
    return (f"RUN/tasks.jsonl (16 tasks); RUN/eval.sbatch (`#SBATCH --array=0-3`, one shard per task); RUN/submit.sh "
            f"(`sbatch --parsable --array=0 eval.sbatch`, merge results/shard_*, profile) exit {code}; shards run "
            f"{shards}; {len(got)} rollouts of {len(profile)} tasks profiled.")


BRACE_BODY = """LAST=$(( $(ls shard_*.jsonl | wc -l) - 1 ))
echo "shards 0 to $LAST"
for i in {0..$LAST}; do
  mkdir -p "results/shard_$i"
  GP_BIN materialize --input "shard_$i.jsonl" --num-repeats 3 --agent string_match_simple_agent \\
    --output "results/shard_$i/rollouts_materialized_inputs.jsonl"
  GP_BIN collect --inputs "results/shard_$i/rollouts_materialized_inputs.jsonl" --output "results/shard_$i/rollouts.jsonl" \\
    --model-url URL --env string_match --concurrency 4
  GP_BIN profile --inputs "results/shard_$i/rollouts_materialized_inputs.jsonl" --rollouts "results/shard_$i/rollouts.jsonl"
done
"""


@case(
    "config_builtin_run_script_loops_over_shards_with_brace_range_built_from_a_variable_that_bash_never_expands",
    "config",
    ["{0..$LAST}", "brace", "seq", "loop"],
    "the user's run_eval.sh loops over the shards with `for i in {0..$LAST}`; bash expands brace ranges before "
    "variables, so with LAST=3 the loop ran once with i set to the literal text '{0..3}': materialize looked for "
    "shard_{0..3}.jsonl, which does not exist, and none of the four shards was collected or profiled",
)
def config_builtin_run_script_loops_over_shards_with_brace_range_built_from_a_variable_that_bash_never_expands(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 16, 8, name="tasks.jsonl")
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text(f"#!/bin/bash\n# weekly eval, shard by shard\ncd {run}\n"
                      "split -l 4 -d -a 1 --additional-suffix=.jsonl tasks.jsonl shard_\n"
                      + BRACE_BODY.replace("GP_BIN", str(GP)).replace("URL", url))
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    log = log_of(ctx, "run_eval.log")
    made = list(run.glob("results/shard_*/rollouts.jsonl"))
    if "{0..3}" not in log or made or not (run / "shard_3.jsonl").exists():
        raise failed(ctx, f"exit {code}, {made}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (split into shard_0..3.jsonl, `for i in {{0..$LAST}}` with LAST=3: materialize, "
            f"collect, profile per shard) exit {code}; the loop ran once with i='{{0..3}}'; no shard collected.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

SINGLETON_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --dependency=singleton
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --mem=500M
# from the team's job template
SHARD=shard_$SHARD_ID
mkdir -p RUN_DIR/results/$SHARD && cd RUN_DIR/results/$SHARD
echo "$(date +%T) job $SLURM_JOB_ID evaluating $SHARD"
PIPELINE
echo "$(date +%T) $SHARD done"
"""

SINGLETON_SUBMIT = """#!/bin/bash
# submit.sh (CI step, 50 s budget): one job per shard so the shards run side by side on the node's two cores
cd RUN_DIR
split -l 3 -d -a 1 --additional-suffix=.jsonl tasks.jsonl shard_
for i in 0 1 2 3; do
  JOB=$(sbatch --parsable --export=ALL,SHARD_ID=$i eval.sbatch)
  echo $JOB >> job_ids.txt
  echo "shard $i: job $JOB"
done
LEFT=4
for t in $(seq 1 25); do
  [ $t -eq 3 ] && squeue -u $(id -un) -n weekly-eval -o "%.8i %.12j %.8T %.6M %r"
  LEFT=$(squeue -h -u $(id -un) -n weekly-eval | wc -l)
  [ $LEFT -eq 0 ] && break
  sleep 2
done
if [ $LEFT -gt 0 ]; then
  squeue -u $(id -un) -n weekly-eval -o "%.8i %.12j %.8T %.6M %r"
  echo "CI budget used up with $LEFT shard jobs unfinished: cancelling them"
  scancel -u $(id -un) -n weekly-eval
  exit 1
fi
cat results/shard_*/rollouts_materialized_inputs.jsonl > rollouts_materialized_inputs.jsonl
cat results/shard_*/rollouts.jsonl > rollouts.jsonl
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "throughput_slurm_shard_jobs_share_one_name_under_singleton_dependency_of_team_template_so_run_one_at_a_time",
    "throughput_resources",
    ["singleton", "dependency", "job-name", "shard"],
    "the user's eval.sbatch keeps `#SBATCH --dependency=singleton` from the team's job template, and submit.sh "
    "submits one job per shard under the same job name to run them side by side; singleton lets only one job of a "
    "name and user run at a time, so the four shard jobs ran one after another (the others PENDING with reason "
    "Dependency) and the CI step's 50 s budget ran out with shards never started; they were cancelled and nothing "
    "was merged or profiled",
)
def throughput_slurm_shard_jobs_share_one_name_under_singleton_dependency_of_team_template_so_run_one_at_a_time(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 12, start=4, folder=run, name="tasks.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 5000")
    sbatch_file(ctx, SINGLETON_SBATCH, PIPELINE=pipeline(url, data="RUN_DIR/$SHARD.jsonl").replace("RUN_DIR", str(run)))
    code = run_submit(ctx, SINGLETON_SUBMIT, timeout=200)
    log = log_of(ctx, "submit.log")
    started = sorted(p.name for p in (run / "results").glob("shard_*")) if (run / "results").exists() else []
    if code == 0 or "Dependency" not in log or "CI budget used up" not in log or len(started) >= 4 \
            or (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {started}: {log[-1500:]}")
    return (f"RUN/eval.sbatch (`#SBATCH --dependency=singleton`, --job-name=weekly-eval, one shard per job); "
            f"RUN/submit.sh (four sbatch, 50 s CI budget) exit {code}; shards started {started}, the rest PENDING "
            f"(Dependency) until cancelled; policy at 5 s a reply; no merge, no profile.")


# =====================================================================================================
# infra
# =====================================================================================================


@case(
    "infra_docker_collect_container_template_asks_for_arm64_platform_of_the_grace_hopper_nodes_on_an_amd64_node",
    "infra",
    ["--platform", "arm64", "amd64", "image"],
    "the user's run_eval.sh runs collect in a container from the team's `docker run` template, written for the "
    "Grace Hopper (arm64) nodes, which sets `--platform linux/arm64` (and `--pull never`); this node is amd64 and "
    "its only gym-pipeline/base:bookworm image is amd64, so Docker refused to run it ('does not match the specified "
    "platform: wanted linux/arm64, actual: linux/amd64', exit 125): collect never ran and profile found no rollouts",
)
def infra_docker_collect_container_template_asks_for_arm64_platform_of_the_grace_hopper_nodes_on_an_amd64_node(
        ctx: Ctx) -> str:
    _, (_, better) = builtin_rows(ctx, 6, 70)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h80-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, "--pull never --platform linux/arm64",
                                   "collect runs in the eval container (team template flags)")
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if "does not match the specified platform" not in log or complete(ctx):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run --pull never --platform linux/arm64 ... "
            f"gym-pipeline/base:bookworm python -m gym_pipeline.cli collect`, profile) exit {code}; Docker refused the "
            f"amd64 image; {complete(ctx)} rollouts.")


# =====================================================================================================
# data_schema
# =====================================================================================================

LONG_PAIRS = [
    ("A freight train leaves a station heading east and travels for exactly three hours at a steady speed of "
     "sixty kilometres per hour, then stops for a crew change that takes forty minutes, and afterwards travels for "
     "two more hours at a steady speed of forty-five kilometres per hour. How many kilometres did the train travel "
     "in total?", "270"),
    ("A bakery sells muffins in boxes of six and cookies in boxes of eight. On Monday a school orders enough boxes "
     "to give every one of its one hundred and twenty pupils exactly one muffin and one cookie, and it wants no "
     "leftovers of either item at all. How many boxes of cookies, in total, does the school need to order?", "15"),
    ("A gardener plants a rectangular vegetable bed that is twelve metres long and five metres wide, and then "
     "surrounds the whole bed with a gravel path that is exactly one metre wide on every side of the bed. What is "
     "the area, in square metres, of the gravel path alone, not counting the vegetable bed inside it at all?", "38"),
    ("In a small library, each shelf holds forty books. The library has three rooms; the first room has eleven "
     "shelves, the second room has nine shelves, and the third room has five shelves, and every shelf in every room "
     "is completely full. After a donation of one hundred more books, how many books does the library hold?",
     "1100"),
]
SHORT_PAIRS = [
    ("What is the capital of Peru?", "Lima"),
    ("How many legs does a spider have?", "8"),
    ("What is the chemical symbol for gold?", "Au"),
    ("Which planet is the largest of the solar system?", "Jupiter"),
]

PREP_CSV_PY = '''"""prep.py: the question bank export (questions_export.csv, from the quiz database) -> string_match.jsonl."""
import csv
import json

with open("questions_export.csv", newline="", encoding="utf-8") as handle, open("string_match.jsonl", "w") as out:
    count = 0
    for record in csv.DictReader(handle):
        text = f"{record['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": record["answer"], "extraction_mode": "final_answer", "case_sensitive": False}) + "\\n")
        count += 1
print(f"prep: {count} rows written")
'''


@case(
    "data_schema_builtin_questions_exported_from_varchar_255_column_are_cut_off_mid_sentence",
    "data_schema",
    ["questions_export.csv", "255", "VARCHAR", "truncated"],
    "the user's question bank export questions_export.csv comes from the quiz database, whose question column is "
    "VARCHAR(255): the four long word problems were cut at 255 characters, mid-sentence, before their actual "
    "question; prep.py turned them into prompts as they were, the model could not answer questions it was never "
    "asked and every rollout of those four tasks scored 0, while the short questions scored (every command exits 0)",
)
def data_schema_builtin_questions_exported_from_varchar_255_column_are_cut_off_mid_sentence(ctx: Ctx) -> str:
    run = ctx.run
    pairs = LONG_PAIRS + SHORT_PAIRS
    if any(len(q) <= 255 for q, _ in LONG_PAIRS):
        raise failed(ctx, "a long question is not longer than 255 characters")
    _, better = truth_checkpoints(ctx, pairs)
    url, _ = ctx.policy(better, "--latency-ms 20")
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["id", "question", "answer"])
    for number, (question, answer) in enumerate(pairs, 1):
        writer.writerow([f"q{number:03d}", question[:255], answer])
    (run / "questions_export.csv").write_text(buffer.getvalue())
    (run / "prep.py").write_text(PREP_CSV_PY)
    script = run / "run_eval.sh"
    script.write_text(f"#!/bin/bash\n# weekly eval of the question bank export\ncd {run}\n{BIN}/python prep.py\n"
                      + pipeline_lines(url))
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    got = rows_of(run / "rollouts.jsonl")
    long_labels = {a for _, a in LONG_PAIRS}
    cut = [r for r in got if r.get("expected_answer") in long_labels]
    others = [r for r in got if r not in cut]
    if code or len(keys_of(got)) != 24 or len(cut) != 12 or any(rewards(cut)) or not any(rewards(others)):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(cut)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/questions_export.csv (question column cut at 255 characters: 4 long word problems end "
            f"mid-sentence); RUN/prep.py; RUN/run_eval.sh (prep, materialize 8 x 3, collect, profile) exit {code}; "
            f"rewards of the cut questions {rewards(cut)}, of the others mean {mean_of(others):.2f}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

INT_VERIFY = '''    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        def normalise(value: str) -> str:
            value = value.strip().lower()
            try:
                return str(int(float(value)))  # so that "42.0" and "42" compare equal
            except ValueError:
                return value

        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = 1.0 if normalise(extracted) == normalise(body.expected_answer) else 0.0

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''

# (question, label, what the model answers)
DECIMAL_QUIZ = [
    ("What is 7 divided by 2?", "3.5", "3.2"),
    ("What is pi rounded to two decimal places?", "3.14", "3.41"),
    ("What is the square root of 2, rounded to two decimal places?", "1.41", "1.73"),
    ("How long is a marathon in kilometres, to one decimal place?", "42.2", "42.9"),
    ("What is the capital of Peru?", "Lima", "Lima"),
    ("How many legs does a spider have?", "8", "8"),
    ("What is 6 multiplied by 7?", "42", "42"),
    ("What is the chemical symbol for gold?", "Au", "Au"),
]


@case(
    "verifier_runtime_gym_own_verify_normalises_numbers_with_int_so_decimals_are_truncated_and_wrong_ones_match",
    "verifier_runtime",
    ["int(", "float", "truncate", "decimal"],
    "the user's own resources server (number_match) normalises numeric answers with `str(int(float(value)))`, meant "
    "to make '42.0' equal '42'; int() drops the decimals, so every wrong answer to the decimal questions with the "
    "right whole part (such as 3.41 for 3.14 or 42.9 for 42.2) scored 1.0 like a right one and the mean reward "
    "counts them as right (every command exits 0)",
    netns=True,
)
def verifier_runtime_gym_own_verify_normalises_numbers_with_int_so_decimals_are_truncated_and_wrong_ones_match(
        ctx: Ctx) -> str:
    run = ctx.run
    write_rows(run / "tasks.jsonl", [question_row(q, label) for q, label, _ in DECIMAL_QUIZ])
    _, better = truth_checkpoints(ctx, [(q, said) for q, _, said in DECIMAL_QUIZ])
    search, overrides, env_start, policy = gym_own_server(
        ctx, "number_match", lambda app: replace_verify(app, INT_VERIFY), better,
        "(the user's number_match server: string_match with numbers normalised)")
    script = own_eval_script(ctx, search, overrides, "number_match", comment="weekly eval of the arithmetic quiz")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_results(ctx)
    wrong = [r for r in got if r.get("reward") == 1.0 and r.get("extracted_answer")
             and str(r["extracted_answer"]).strip() != str(r.get("expected_answer"))]
    if code or len(keys_of(got)) != 24 or len(wrong) < 3:
        raise failed(ctx, f"exit {code}, {len(got)}, {len(wrong)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    shown = sorted({(str(r['extracted_answer']), str(r['expected_answer'])) for r in wrong})
    return (f"the user's number_match server (RUN/my_gym: `str(int(float(value)))`); RUN/tasks.jsonl (8 questions, 4 "
            f"with decimal answers); real NeMo Gym 0.7.0 (loopback-only namespace) RUN/run_eval.sh (`gym eval run` "
            f"8 x 3, `gym eval profile`) exit {code}; {len(wrong)} wrong answers scored 1.0 {shown}; mean reward "
            f"{mean_of(got):.2f}.")


if __name__ == "__main__":
    sys.exit(main("eightieth_held_out", __file__, __doc__))
