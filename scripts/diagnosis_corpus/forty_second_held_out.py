"""Build the FORTY-SECOND HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/forty_second_held_out.py --out tests/data/diagnosis_corpus/forty_second_held_out [--only CASE ...]

This set was written after the forty-one earlier sets (first_held_out.py ... forty_first_held_out.py), from the guides
alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
task folders run in Docker sandboxes, Slurm batch jobs, the real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` /
`gym eval profile` inside a loopback-only network namespace, some with a user's own resources server), and the
user's own shell scripts, settings files, serving and log-rotation scripts, task files, workspace verifiers and
data-preparation scripts. The output of every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`);
nothing in a run folder is written by hand but the user's own inputs (data, scripts, settings, verifier code). Each
case injects one cause, different in mechanism from those of the forty-one earlier sets, and each recipe checks that
its fault really happened (it raises RecipeError otherwise, and the case is not written). About half of the failures
are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare,
mount), Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this checkout. Run it from a foreground shell.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import (  # noqa: E402
    checkpoints,
    failed,
    gym_start,
    stage_argv,
    stop_gym,
    task_checkpoints,
    user_taskset,
    workspace_sweep,
)
from forty_first_held_out import answers, complete, gym_run_script, scancel_all, truth_checkpoints  # noqa: E402
from fourteenth_held_out import mean, rewards  # noqa: E402
from recipes import Ctx, case, gym_model_args, main, rows_of, text_of, wait_for  # noqa: E402
from tenth_held_out import in_log  # noqa: E402
from thirtieth_held_out import gym_rows  # noqa: E402
from thirty_fifth_held_out import mean_reward, pipeline  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_fifth_held_out import job_logs, task_rows  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_seventh_held_out import builtin_script, gym_eval_with_own_server  # noqa: E402
from twenty_sixth_held_out import free_port, gym_run, slurm_script  # noqa: E402
from twenty_third_held_out import taskset_script, write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


def job_state(ctx: Ctx, job: str) -> str:
    """squeue's state code of `job` (R, PD, S, ...), empty when it has left the queue."""
    return subprocess.run(["squeue", "-h", "-j", job, "-o", "%t"], env=ctx.env, capture_output=True,
                          text=True).stdout.strip()


def workspace_script(ctx: Ctx, sweep: Path, checkpoint: Path, env: str, url: str, preamble: list[str]) -> Path:
    """RUN/run_eval.sh: `preamble`, then the stages materialize, collect and profile of the workspace sweep."""
    lines = ["#!/bin/bash", "# weekly eval (verifier: verifiers/my_verifier.py)", f"cd {ctx.run}", *preamble]
    for key, extra in (("materialize", ()), ("collect", ("--model-url", url, "--model-name", "sim-policy")),
                       ("profile", ())):
        lines += [f"echo '== {key}'", " ".join(stage_argv(sweep, key, checkpoint, env, *extra))]
    script = ctx.run / "run_eval.sh"
    script.write_text("\n".join(lines) + "\n")
    return script


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_builtin_run_script_bolds_headings_with_tput_where_ci_shell_has_no_term",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh makes its headings bold with `tput bold` / `tput sgr0`; the CI shell "
    "that runs it has no TERM, so tput prints 'tput: No value for $TERM and no -T specified' twice and the headings "
    "come out plain; materialize, collect and profile then completed every rollout",
)
def healthy_builtin_run_script_bolds_headings_with_tput_where_ci_shell_has_no_term(ctx: Ctx) -> str:
    run = ctx.run
    ctx.env.pop("TERM", None)
    ctx.note("(the CI shell sets no TERM)")
    data, (_, better) = builtin_rows(ctx, 8, 70)
    url, _ = ctx.policy(better, "--latency-ms 30")
    script = builtin_script(ctx, ['bold=$(tput bold); plain=$(tput sgr0)',
                                  'echo "${bold}== weekly eval of $(date +%F)${plain}"'], "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = complete(ctx)
    if code or got != 24 or not in_log(ctx, "No value for $TERM", "logs/run_eval.log") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {text_of(run / 'logs' / 'run_eval.log')[-600:]}")
    return (f"RUN/run_eval.sh (`tput bold` without TERM, then materialize 8 x 3, collect, profile) exit {code}; {got} "
            f"rollouts, mean reward {mean_reward(run / 'rollouts.jsonl')}.")


STTY_LINES = [
    "echo '== weekly eval'",
    "# hide the API key while it is typed (when run by hand)",
    "stty -echo",
    "read -r -t 1 -p 'API key (enter for the one in the environment): ' KEY || true",
    "stty echo",
    "echo",
    "export EVAL_API_KEY=${KEY:-dummy}",
]


@case(
    "healthy_gym_run_script_turns_echo_off_with_stty_without_a_terminal",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh hides a typed API key with `stty -echo` / `stty echo`; run without a "
    "terminal, stty prints \"stty: 'standard input': Inappropriate ioctl for device\" twice and the prompt reads "
    "nothing, so the key from the environment is used; the real NeMo Gym eval then collected, verified and profiled "
    "every rollout",
    netns=True,
)
def healthy_gym_run_script_turns_echo_off_with_stty_without_a_terminal(ctx: Ctx) -> str:
    run = ctx.run
    ctx.dataset("string_match", 8, start=78, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", run / "tasks.jsonl")[1]
    url, policy = ctx.policy(better, "--latency-ms 40", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", STTY_LINES, overrides)
    stop_gym(ctx, env_start, policy)
    got = complete(ctx, "results")
    if code or got != 24 or not in_log(ctx, "Inappropriate ioctl", "logs/run_eval.log") \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (`stty -echo` without a terminal, then "
            f"`gym eval run --no-serve` 8 tasks x 3 and `gym eval profile`) exit {code}; {got} rollouts, mean reward "
            f"{mean(rewards(gym_rows(ctx))):.2f}.")


PLAIN_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
cd RUN_DIR
echo "weekly eval on $(hostname), job $SLURM_JOB_ID, partition $SLURM_JOB_PARTITION"
PIPELINE"""

PARTITION_SUBMIT = """#!/bin/bash
# submit.sh: the GPU partition when this cluster has one, else the default partition
cd RUN_DIR
JOB=$(sbatch --parsable --partition=gpu eval.sbatch) || JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
"""


@case(
    "healthy_slurm_submit_tries_gpu_partition_first_then_default_partition",
    "healthy",
    [],
    "nothing is wrong: the user's submit.sh first asks for the GPU partition, which this cluster does not have "
    "('sbatch: error: invalid partition specified: gpu'), and then submits to the default partition; the job ran "
    "materialize, collect and profile and completed every rollout",
)
def healthy_slurm_submit_tries_gpu_partition_first_then_default_partition(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 10)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(PLAIN_SBATCH, ctx, PIPELINE=pipeline(url)))
    (run / "submit.sh").write_text(slurm_script(PARTITION_SUBMIT, ctx))
    code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=400)
    got = complete(ctx)
    if code or got != 24 or not in_log(ctx, "invalid partition", "logs/submit.log") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {text_of(run / 'logs' / 'submit.log')[-600:]}")
    return (f"RUN/submit.sh (`sbatch --partition=gpu` refused, then sbatch of RUN/eval.sbatch on the default "
            f"partition: materialize 8 x 3, collect, profile) exit {code}; {got} rollouts, mean reward "
            f"{mean_reward(run / 'rollouts.jsonl')}.")


@case(
    "healthy_taskfolder_run_script_lists_containers_with_format_field_docker_does_not_know",
    "healthy",
    [],
    "nothing is wrong: the user's run_tasks.sh lists the node's containers for the run notes with a Go template "
    "whose field is misspelled (`{{.Statuss}}`), so docker prints 'template: ... can't evaluate field Statuss' and "
    "the listing is skipped; then every episode ran in its Docker sandbox, was verified and profiled",
)
def healthy_taskfolder_run_script_lists_containers_with_format_field_docker_does_not_know(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["count-error-lines", "sort-unique-words"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, [
        "echo '== containers on this node (for the run notes)'",
        "docker ps -a --format '{{.Names}} {{.Statuss}}' | head -5 || echo 'could not list the containers'",
        "echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 4 or not any(rewards(got)) or not in_log(ctx, "can't evaluate field",
                                                                         "logs/run_tasks.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/run_tasks.sh (`docker ps --format '{{{{.Statuss}}}}'` refused, then `gym-pipeline stage` "
            f"materialize, collect, profile of RUN/tasks x 2) exit {code}; rewards {rewards(got)}.")


# =====================================================================================================
# infra
# =====================================================================================================

JOBRUN = """#!/bin/bash
# jobrun: the site's runner for batch work on the shared nodes (security baseline SB-NET-03): every job gets a
# private network namespace, so a job cannot reach services of other users on the node
exec unshare --net -- "$@"
"""


@case(
    "infra_builtin_site_jobrun_wrapper_gives_eval_a_private_network_namespace_without_the_model_server",
    "infra",
    ["jobrun", "unshare --net", "network namespace"],
    "the node's site runner jobrun (a new security baseline) starts every job in a private network namespace "
    "(`unshare --net`); the user's run_eval.sh ran under it while the model server ran in the node's own network, "
    "so 127.0.0.1 inside the job was a different, down loopback: the collect could not reach the model "
    "endpoint ('Network is unreachable') and stopped before collecting anything, and the profile found no rollouts",
)
def infra_builtin_site_jobrun_wrapper_gives_eval_a_private_network_namespace_without_the_model_server(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 20)
    url, _ = ctx.policy(better, "--latency-ms 20")
    site = ctx.work / "site" / "bin"
    site.mkdir(parents=True)
    (site / "jobrun").write_text(JOBRUN)
    (site / "jobrun").chmod(0o755)
    ctx.env["PATH"] = f"{site}:{ctx.env['PATH']}"
    ctx.note("(the node's PATH has the site's tools, among them jobrun: `exec unshare --net -- \"$@\"`)")
    script = builtin_script(ctx, ["echo '== weekly eval'"], "string_match.jsonl", url)
    code = ctx.sh(f"jobrun bash {script}", "logs/run_eval.log", timeout=400)
    log = text_of(run / "logs" / "run_eval.log")
    if complete(ctx) or "unreachable" not in log.lower():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-800:]}")
    return (f"the site's jobrun (`unshare --net`) around RUN/run_eval.sh (materialize 8 x 3, collect, profile) exit "
            f"{code}; {complete(ctx)} rollouts, {len(rows_of(run / 'rollouts_failures.jsonl'))} failed attempts.")


SUSPEND_SUBMIT = """#!/bin/bash
# submit.sh: submit the weekly eval and wait for it (the CI gives it 60 s)
cd RUN_DIR
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB > job_id.txt
for i in $(seq 1 30); do
  squeue -h -j $JOB 2>/dev/null | grep -q . || { echo "job $JOB finished"; exit 0; }
  sleep 2
done
echo "job $JOB has not finished after 60 s:"
scontrol show job $JOB | grep -E -o '(JobState|Reason|RunTime|SuspendTime)=[^ ]+'
scancel $JOB
exit 1
"""

PREEMPT_NOTE = ("(the cluster preempts with PreemptMode=SUSPEND: when the training team's high-priority job needed "
                "the node, Slurm suspended the running eval job; emulated with `scontrol suspend` as slurmctld does)")


@case(
    "infra_slurm_eval_job_suspended_by_preemption_for_higher_priority_job",
    "infra",
    ["PreemptMode", "SUSPENDED", "partition"],
    "the cluster preempts by suspending: while the weekly eval job was collecting, a higher-priority job needed the "
    "node and Slurm suspended the eval (JobState=SUSPENDED, its processes stopped with SIGSTOP); nothing in the eval "
    "failed, it simply stopped making progress, and the CI's 60 s budget cancelled it with rollouts missing and no "
    "profile",
)
def infra_slurm_eval_job_suspended_by_preemption_for_higher_priority_job(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 30)
    url, _ = ctx.policy(better, "--latency-ms 300")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(PLAIN_SBATCH, ctx, PIPELINE=pipeline(url, concurrency="2")))
    (run / "submit.sh").write_text(slurm_script(SUSPEND_SUBMIT, ctx))
    submit = ctx.bg(f"bash {run}/submit.sh", "logs/submit.log")
    job = ""
    try:
        wait_for(lambda: text_of(run / "job_id.txt").strip() != "", 30, "the job id")
        job = text_of(run / "job_id.txt").strip()
        wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 4 or submit.poll() is not None, 90, "4 rollouts")
        ctx.note(PREEMPT_NOTE)
        subprocess.run(["scontrol", "suspend", job], env=ctx.env, capture_output=True, check=False)
        wait_for(lambda: submit.poll() is not None, 120, "submit.sh")
    finally:
        subprocess.run(["scontrol", "resume", job], env=ctx.env, capture_output=True, check=False)
        scancel_all(ctx, job)
    code = submit.returncode
    got = complete(ctx)
    if code == 0 or got >= 24 or not in_log(ctx, "SUSPENDED", "logs/submit.log") \
            or (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {text_of(run / 'logs' / 'submit.log')[-600:]}")
    return (f"RUN/submit.sh (sbatch of RUN/eval.sbatch: materialize 8 x 3, collect against a 300 ms model, profile; "
            f"60 s budget); job {job} suspended after some rollouts: exit {code}; {got} of 24 rollouts, no profile.")


# =====================================================================================================
# model_serving
# =====================================================================================================

SERVE_NEWEST = """#!/bin/bash
# serve.sh CHECKPOINTS PORT: serve the newest checkpoint of the training run
CKPTS=$1
PORT=$2
latest=$(ls -td "$CKPTS"/step_* | head -1)
echo "serve.sh: serving $latest on port $PORT"
exec GP_BIN serve-policy --port $PORT --checkpoint "$latest" --latency-ms 30
"""


@case(
    "model_serving_builtin_serve_script_picks_newest_checkpoint_by_mtime_after_old_step_was_resynced",
    "model_serving",
    ["serve.sh", "ls -t", "step_0200"],
    "the team's serve.sh picks the checkpoint to serve by modification time (`ls -td step_* | head -1`); the night "
    "before, the storage resync copied step_0100 back from the archive, which made it the newest folder, so the eval "
    "meant for step_0200 was served by step_0100: every command exits 0 and the rewards are those of the older "
    "checkpoint",
)
def model_serving_builtin_serve_script_picks_newest_checkpoint_by_mtime_after_old_step_was_resynced(ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 40)
    training = ctx.work / "training_run" / "checkpoints"
    training.mkdir(parents=True)
    ctx.sh(f"cp -r {weaker} {training}/ && sleep 1 && cp -r {better} {training}/")
    ctx.note("(the night before, the storage resync copied step_0100 back from the archive)")
    ctx.sh(f"sleep 1 && rm -rf {training}/{weaker.name} && cp -r {weaker} {training}/ && ls -lt {training}",
           "logs/resync.log")
    (run / "serve.sh").write_text(slurm_script(SERVE_NEWEST, ctx))
    port = free_port()
    url = f"http://127.0.0.1:{port}/v1"
    ctx.bg(f"bash {run}/serve.sh {training} {port}", "logs/serve.log")
    wait_for(lambda: answers(url), 40, "serve.sh's model server")
    script = builtin_script(ctx, ["echo '== weekly eval of step_0200'"], "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = complete(ctx)
    serve_log = text_of(run / "logs" / "serve.log")
    if code or got != 24 or "step 100" not in serve_log or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {serve_log[-500:]}")
    return (f"RUN/serve.sh (`ls -td step_* | head -1`) after step_0100 was copied back: it served step_0100; "
            f"RUN/run_eval.sh (eval of step_0200: materialize 8 x 3, collect, profile) exit {code}; {got} rollouts, "
            f"mean reward {mean_reward(run / 'rollouts.jsonl')}.")


SERVE_BG = """#!/bin/bash
# serve.sh CHECKPOINT PORT: start the model server in the background, its log in logs/model_server.log
cd RUN_DIR
GP_BIN serve-policy --port $2 --checkpoint "$1" --latency-ms 300 >> logs/model_server.log 2>&1 &
echo $! > model_server.pid
echo "model server started (pid $(cat model_server.pid)) on port $2"
"""

ROTATE = """#!/bin/bash
# rotate_logs.sh: hourly (cron): rotate the service logs of this node and tell each service to reopen its log
# (postrotate block copied from the nginx logrotate config)
cd RUN_DIR
for name in model_server; do
  if [ -s logs/$name.log ]; then
    mv logs/$name.log logs/$name.log.1
    kill -HUP $(cat $name.pid) && echo "rotated logs/$name.log, sent HUP to $(cat $name.pid)"
  fi
done
"""


@case(
    "model_serving_gym_hourly_log_rotation_sends_sighup_that_ends_the_model_server",
    "model_serving",
    ["rotate_logs.sh", "kill -HUP", "model_server"],
    "the node's hourly rotate_logs.sh (its postrotate copied from the nginx logrotate config) moves the model "
    "server's log away and sends it SIGHUP to reopen it; the model server does not reopen logs on SIGHUP, it ends, "
    "so when the rotation ran during the real NeMo Gym eval the server was gone: Gym's model proxy kept retrying "
    "the completions of the remaining rollouts (ClientOSError, connection refused) until the CI's 90 s budget "
    "killed run_eval.sh with rollouts missing; the profile never ran",
    netns=True,
)
def model_serving_gym_hourly_log_rotation_sends_sighup_that_ends_the_model_server(ctx: Ctx) -> str:
    run = ctx.run
    ctx.dataset("string_match", 8, start=50, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", run / "tasks.jsonl")[1]
    (run / "logs").mkdir(exist_ok=True)
    (run / "serve.sh").write_text(slurm_script(SERVE_BG, ctx))
    (run / "rotate_logs.sh").write_text(slurm_script(ROTATE, ctx))
    port = free_port()
    url = f"http://127.0.0.1:{port}/v1"
    ctx.sh(f"bash {run}/serve.sh {better} {port}", "logs/serve.log")
    wait_for(lambda: answers(url), 40, "the model server")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    script = run / "run_eval.sh"
    gym_run_script(ctx, script, overrides, ["echo '== weekly eval'"], concurrency=2)
    process = ctx.bg(f"timeout 90 bash {script}", "logs/run_eval.log")
    try:
        wait_for(lambda: len(rows_of(run / "results" / "rollouts.jsonl")) >= 4 or process.poll() is not None, 80,
                 "4 rollouts")
        ctx.note("(meanwhile the hourly cron ran rotate_logs.sh)")
        ctx.sh(f"bash {run}/rotate_logs.sh", "logs/rotate.log")
        wait_for(lambda: process.poll() is not None, 400, "run_eval.sh")
    finally:
        stop_gym(ctx, env_start)
        pid = text_of(run / "model_server.pid").strip()
        if pid and Path(f"/proc/{pid}").exists():
            subprocess.run(["kill", "-9", pid], check=False)
    code = process.returncode
    got = complete(ctx, "results")
    server = text_of(run / "logs" / "model_server.log.1")
    if code == 0 or got >= 24 or "SIGHUP" not in server \
            or (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {server[-500:]}")
    failures = rows_of(run / "results" / "rollouts_failures.jsonl")
    return (f"RUN/serve.sh (model server in the background, log in RUN/logs/model_server.log); real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) `timeout 90 bash RUN/run_eval.sh` (`gym eval run --no-serve` 8 x 3, `gym eval "
            f"profile`) exit {code}; RUN/rotate_logs.sh sent SIGHUP mid-eval and the server ended: {got} of 24 "
            f"rollouts, {len(failures)} failed attempts, no profile.")


# =====================================================================================================
# config
# =====================================================================================================

COUNTER_LINES = [
    "set -e",
    "step=0",
    "((step++))",
    "echo \"== [$step/3] materialize\"",
]


@case(
    "config_builtin_run_script_set_e_stops_at_arithmetic_post_increment_from_zero",
    "config",
    ["set -e", "((step++))", "run_eval.sh"],
    "the user's run_eval.sh runs under `set -e` and numbers its steps with `((step++))` starting from step=0; a bash "
    "arithmetic command whose value is 0 returns status 1, and the post-increment's value is the old 0, so set -e "
    "ended the script at its first counter line: nothing was materialized, collected or profiled",
)
def config_builtin_run_script_set_e_stops_at_arithmetic_post_increment_from_zero(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 60)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, COUNTER_LINES, "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    if code == 0 or (run / "rollouts_materialized_inputs.jsonl").exists() or rows_of(run / "rollouts.jsonl"):
        raise failed(ctx, f"exit {code}: {text_of(run / 'logs' / 'run_eval.log')[-600:]}")
    return (f"RUN/run_eval.sh (`set -e`, step=0, `((step++))`, then materialize 8 x 3, collect, profile) exit {code}; "
            f"nothing materialized or collected.")


SETTINGS_WITH_EXIT = """#!/bin/bash
# eval_settings.sh: settings of the weekly eval (was a standalone script that printed them; now sourced)
EVAL_DATA=string_match.jsonl
EVAL_REPEATS=3
EVAL_CONCURRENCY=4
echo "settings: data=$EVAL_DATA repeats=$EVAL_REPEATS concurrency=$EVAL_CONCURRENCY"
exit 0
"""


@case(
    "config_builtin_sourced_settings_file_ends_with_exit_so_run_script_stops_there",
    "config",
    ["eval_settings.sh", "exit 0", "source"],
    "run_eval.sh sources eval_settings.sh, which used to be a standalone script and still ends with `exit 0`; exit in "
    "a sourced file ends the shell that sources it, so run_eval.sh stopped right after printing the settings, with "
    "exit code 0: nothing was materialized, collected or profiled, and no command failed",
)
def config_builtin_sourced_settings_file_ends_with_exit_so_run_script_stops_there(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 66)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "eval_settings.sh").write_text(SETTINGS_WITH_EXIT)
    script = builtin_script(ctx, ["source eval_settings.sh", "echo \"== weekly eval of $EVAL_DATA\""],
                            "$EVAL_DATA", url)
    script.write_text(script.read_text().replace("--num-repeats 3", "--num-repeats $EVAL_REPEATS")
                      .replace("--concurrency 4", "--concurrency $EVAL_CONCURRENCY"))
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    if code != 0 or (run / "rollouts_materialized_inputs.jsonl").exists() \
            or not in_log(ctx, "settings: data=", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}: {text_of(run / 'logs' / 'run_eval.log')[-600:]}")
    return (f"RUN/run_eval.sh (`source eval_settings.sh`, which ends with `exit 0`; then materialize, collect, "
            f"profile) exit {code}; nothing materialized or collected.")


TIME_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=1:00
#SBATCH --ntasks=1
# --time=1:00: one hour is plenty for the weekly eval
cd RUN_DIR
echo "weekly eval on $(hostname), job $SLURM_JOB_ID"
PIPELINE"""

WAIT_SUBMIT = """#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd RUN_DIR
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB > job_id.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
"""


@case(
    "config_slurm_time_directive_one_colon_zero_zero_is_one_minute_not_one_hour",
    "config",
    ["--time", "eval.sbatch", "1:00:00"],
    "eval.sbatch asks for `#SBATCH --time=1:00`, meant as one hour; Slurm reads minutes:seconds, so the job got a "
    "one-minute limit, and the eval (48 rollouts against a model that takes 2 s each) was cancelled 'DUE TO TIME "
    "LIMIT' in the middle of the collect: rollouts are missing and no profile was written",
)
def config_slurm_time_directive_one_colon_zero_zero_is_one_minute_not_one_hour(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 16, 44)
    url, _ = ctx.policy(better, "--latency-ms 2000")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(TIME_SBATCH, ctx, PIPELINE=pipeline(url, concurrency="1")))
    (run / "submit.sh").write_text(slurm_script(WAIT_SUBMIT, ctx))
    try:
        code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=300)
    finally:
        scancel_all(ctx, text_of(run / "job_id.txt").strip())
    got = complete(ctx)
    logs = job_logs(ctx, "eval_*.log")
    if got >= 48 or "TIME LIMIT" not in logs or (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {logs[-600:]}")
    return (f"RUN/submit.sh (sbatch of RUN/eval.sbatch with `--time=1:00`: materialize 16 x 3, collect --concurrency "
            f"1 against a 2 s model, profile) exit {code}; the job was cancelled due to its time limit: {got} of 48 "
            f"rollouts, no profile.")


# =====================================================================================================
# data_schema
# =====================================================================================================

DECIMALS = [("What is 7 divided by 2?", "3.5"), ("What is one quarter written as a decimal?", "0.25"),
            ("What is 10 divided by 4?", "2.5"), ("What is 6 times 7?", "42"),
            ("What is pi rounded to two decimal places?", "3.14"), ("How many sides does a pentagon have?", "5"),
            ("What is 1.5 plus 1.25?", "2.75"), ("What is 9 plus 10?", "19")]

DE_PREP = '''"""prepare_data.py: the answer sheet (answer_sheet.csv, exported from the shared spreadsheet) -> tasks.jsonl"""
import csv
import json

with open("answer_sheet.csv", encoding="utf-8", newline="") as f, open("tasks.jsonl", "w") as out:
    for item in csv.DictReader(f, delimiter=";"):
        text = item["question"].strip() + " End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": item["answer"].strip(), "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
'''


@case(
    "data_schema_gym_answer_sheet_exported_from_german_locale_spreadsheet_writes_decimal_commas",
    "data_schema",
    ["answer_sheet.csv", "decimal comma", "prepare_data.py"],
    "the answer sheet was exported from the shared spreadsheet on a German-locale desktop, which writes decimals with "
    "a comma ('3,5', '0,25') (and separates columns with ';'); prepare_data.py copied the labels as they were, so the "
    "model's right decimal answers ('3.5', '0.25') never matched and scored 0 in the real NeMo Gym eval (its answer "
    "matching drops commas as thousands separators, so a wrong '35' could score against '3,5'), while the integer "
    "answers scored normally (every command exits 0)",
    netns=True,
)
def data_schema_gym_answer_sheet_exported_from_german_locale_spreadsheet_writes_decimal_commas(ctx: Ctx) -> str:
    run = ctx.run
    (run / "answer_sheet.csv").write_text("question;answer\n" + "".join(f"{q};{a.replace('.', ',')}\n"
                                                                          for q, a in DECIMALS), encoding="utf-8")
    (run / "prepare_data.py").write_text(DE_PREP)
    better = truth_checkpoints(ctx, DECIMALS)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["echo '== weekly eval'", "python3 prepare_data.py"], overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    comma = [row for row in got if "," in str(row.get("expected_answer"))]
    right = [row for row in comma if row.get("extracted_answer") == row["expected_answer"].replace(",", ".")]
    plain = [row for row in got if row not in comma]
    credited = sorted({f"{row.get('extracted_answer')} for {row['expected_answer']}" for row in comma if row.get("reward")})
    if code or len(got) != 24 or not right or any(rewards(right)) or not any(rewards(plain)):
        raise failed(ctx, f"exit {code}, {len(got)}, comma {rewards(comma)} right {len(right)}, plain {rewards(plain)}")
    return (f"RUN/answer_sheet.csv (decimal commas) -> RUN/prepare_data.py -> RUN/tasks.jsonl; real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) RUN/run_eval.sh exit {code}; {len(right)} right decimal answers; labels "
            f"{sorted({r['expected_answer'] for r in comma})}: right answers scored {rewards(right)}, credited instead: "
            f"{credited or 'none'}; plain labels {rewards(plain)}.")


CHAT_PREP = '''"""prepare_data.py: questions.tsv (question<TAB>answer) -> tasks.jsonl, in the request format of our chat tools"""
import json

with open("questions.tsv", encoding="utf-8") as f, open("tasks.jsonl", "w") as out:
    for line in f.read().splitlines()[1:]:
        question, answer = line.split("\\t")
        text = question + " End your response with 'Final answer: <answer>'."
        # one user message, content parts as in our chat-completions tools
        row = {"responses_create_params": {"input": [{"role": "user",
                                                      "content": [{"type": "text", "text": text}]}]},
               "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
'''


def tsv_of(data: Path) -> str:
    return "question\tanswer\n" + "".join(
        row["responses_create_params"]["input"][0]["content"][0]["text"].split(" End your response")[0] + "\t"
        + row["expected_answer"] + "\n" for row in rows_of(data))


@case(
    "data_schema_gym_prep_writes_chat_completions_text_parts_where_responses_input_needs_input_text",
    "data_schema",
    ["prepare_data.py", "input_text", "responses_create_params"],
    "prepare_data.py, adapted from the team's chat-completions tools, writes each prompt as a content part of type "
    "'text' ({\"type\": \"text\", ...}); the input of a Responses request (responses_create_params.input) takes "
    "parts of type 'input_text', so the real NeMo Gym eval could not run the rows as written: no rollout was "
    "collected and the profile had nothing to profile",
    netns=True,
)
def data_schema_gym_prep_writes_chat_completions_text_parts_where_responses_input_needs_input_text(ctx: Ctx) -> str:
    run = ctx.run
    bundled = rows_of(recipes.DATA / "string_match.jsonl")
    data = write_jsonl(ctx.work / "source.jsonl", [row for row in bundled if row["extraction_mode"] == "final_answer"][:8])
    (run / "questions.tsv").write_text(tsv_of(data), encoding="utf-8")
    (run / "prepare_data.py").write_text(CHAT_PREP)
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["echo '== weekly eval'", "python3 prepare_data.py"], overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    if got or not (run / "tasks.jsonl").exists() or (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)} rollouts, rewards {rewards(got)}")
    failures = rows_of(run / "results" / "rollouts_failures.jsonl")
    return (f"RUN/prepare_data.py (content parts of type 'text') -> RUN/tasks.jsonl; real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, `gym eval profile`) exit "
            f"{code}; {len(got)} rollouts, {len(failures)} failed attempts, no profile.")


def bare_cr_log(tasks: Path) -> None:
    """This week's server.log came from the log export of the new appliance, whose lines end in a bare CR."""
    log = tasks / "count-error-lines" / "environment" / "server.log"
    log.write_bytes(log.read_bytes().replace(b"\n", b"\r"))


@case(
    "data_schema_taskfolder_server_log_refreshed_from_export_with_bare_carriage_return_line_ends",
    "data_schema",
    ["server.log", "carriage return", "\\r"],
    "count-error-lines' environment/server.log was refreshed from the log export of a new appliance, which ends its "
    "lines with a bare carriage return (\\r, no \\n); for grep and every line tool the whole file is one line, so the "
    "agent's `grep -c ERROR` counted 1 where the test expects 3 and every episode of that task scored 0, while the "
    "other task scored normally (every command exits 0)",
)
def data_schema_taskfolder_server_log_refreshed_from_export_with_bare_carriage_return_line_ends(ctx: Ctx) -> str:
    tasks = user_taskset(ctx, ["count-error-lines", "create-greeting"], bare_cr_log)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    counted = task_rows(ctx, "count-error-lines")
    other = task_rows(ctx, "create-greeting")
    solved = [path for path in (ctx.run / "rollouts_episodes" / "count-error-lines").rglob("transcript.json")
              if "grep -c" in text_of(path)]
    if code or not counted or any(rewards(counted)) or not any(rewards(other)) or not solved:
        raise failed(ctx, f"exit {code}, count {rewards(counted)}, other {rewards(other)}, solved {len(solved)}")
    return (f"RUN/tasks/count-error-lines/environment/server.log with bare CR line ends; RUN/run_tasks.sh exit {code}; "
            f"count-error-lines rewards {rewards(counted)} ({len(solved)} episode(s) ran `grep -c ERROR`), "
            f"create-greeting rewards {rewards(other)}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

STRIP_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body) or ""

        # the answer is what follows the last "Final answer:" marker
        marker = text.lower().rfind("final answer:")
        tail = text[marker:] if marker >= 0 else ""
        extracted = tail.strip().rstrip(".").strip("Final answer: ") or None

        reward = 0.0
        if extracted is not None:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""

CAPITALS = [("What is the capital of France?", "Paris"), ("What is the capital of Australia?", "Canberra"),
            ("What is the capital of Kenya?", "Nairobi"), ("What is the capital of Norway?", "Oslo"),
            ("What is the capital of Japan?", "Tokyo"), ("What is 6 times 7?", "42"),
            ("Which planet is known as the Red Planet?", "Mars"), ("What is the capital of Peru?", "Lima")]


@case(
    "verifier_runtime_gym_verify_removes_answer_marker_with_str_strip_character_set",
    "verifier_runtime",
    ["app.py", "strip(", "removeprefix"],
    "the user's resources server final_match takes the text after the last 'Final answer:' and removes the marker "
    "with `.strip(\"Final answer: \")`; str.strip removes any of those characters from both ends, not the prefix, so "
    "answers ending in one of them were eaten ('Paris' -> 'P', 'Canberra' -> 'Canb', 'Nairobi' -> 'Nairob', 'Mars' -> "
    "'M', 'Lima' -> 'Lim') and the model's right answers scored 0 in the real NeMo Gym eval, while 'Oslo', 'Tokyo', '42' scored normally "
    "(every command exits 0)",
    netns=True,
)
def verifier_runtime_gym_verify_removes_answer_marker_with_str_strip_character_set(ctx: Ctx) -> str:
    data = write_jsonl(ctx.run / "tasks.jsonl", [question_row(q, a) for q, a in CAPITALS])
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    ran, prof, env_start = gym_eval_with_own_server(ctx, "final_match", STRIP_VERIFY, data, url, overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)

    def answered_right(row: dict) -> bool:
        return f'Final answer: {row.get("expected_answer")}"' in json.dumps(row.get("response"))

    eaten = [row for row in got if answered_right(row) and row.get("extracted_answer") != row.get("expected_answer")]
    kept = [row for row in got if answered_right(row) and row.get("extracted_answer") == row.get("expected_answer")]
    if ran or len(got) != 24 or not eaten or any(rewards(eaten)) or not kept or not all(rewards(kept)):
        raise failed(ctx, f"exit {ran}/{prof}, {len(got)}, eaten {rewards(eaten)}, kept {rewards(kept)}")
    return (f"A user's resources server final_match (`.strip(\"Final answer: \")`); real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) `gym eval run --no-serve` (8 tasks x 3) exit {ran}, profile exit {prof}; "
            f"{len(eaten)} right answers cut to {sorted({str(r.get('extracted_answer')) for r in eaten})} scored "
            f"{rewards(eaten)}, {len(kept)} others {sorted(set(rewards(kept)))}; mean reward {mean(rewards(got)):.2f}.")


UNSET_TEST = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# strict mode, as in the team's shell style guide
set -euo pipefail
want="2.7.1"
# TASK_EXPECTED_DIR: where CI keeps expected values of tasks under revision
if [ -n "$TASK_EXPECTED_DIR" ] && [ -f "$TASK_EXPECTED_DIR/json-version.txt" ]; then
  want=$(cat "$TASK_EXPECTED_DIR/json-version.txt")
fi
cd /app
if test "$(tr -d "[:space:]" < /app/version.txt 2>/dev/null)" = "$want"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def unset_test(tasks: Path) -> None:
    (tasks / "json-version" / "tests" / "test.sh").write_text(UNSET_TEST)


@case(
    "verifier_runtime_taskfolder_test_sh_strict_mode_reads_ci_only_variable_unset_in_sandbox",
    "verifier_runtime",
    ["test.sh", "set -u", "TASK_EXPECTED_DIR"],
    "json-version's tests/test.sh was rewritten in the team's strict shell style (`set -euo pipefail`) and checks "
    "`$TASK_EXPECTED_DIR`, a variable only the CI machines set; in the sandbox it is unset, so `set -u` ended the "
    "test with 'TASK_EXPECTED_DIR: unbound variable' before it wrote a reward, on every episode of that task, though "
    "the agent wrote the right version; the other task scored normally",
)
def verifier_runtime_taskfolder_test_sh_strict_mode_reads_ci_only_variable_unset_in_sandbox(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["json-version", "create-greeting"], unset_test)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    version = task_rows(ctx, "json-version")
    other = task_rows(ctx, "create-greeting")
    stdout = "".join(text_of(p) for p in run.rglob("test-stdout.txt"))
    if any(rewards(version)) or not any(rewards(other)) or "unbound variable" not in stdout:
        raise failed(ctx, f"exit {code}, version {rewards(version)}, other {rewards(other)}: {stdout[-400:]}")
    failures = [row for row in rows_of(run / "rollouts_failures.jsonl") if "json-version" in json.dumps(row)]
    return (f"RUN/tasks/json-version/tests/test.sh (`set -u`, reads $TASK_EXPECTED_DIR); RUN/run_tasks.sh exit "
            f"{code}; json-version rewards {rewards(version)} ({len(failures)} failed attempts), create-greeting "
            f"rewards {rewards(other)}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

MEMO_VERIFIER = '''"""my_verifier.py: exact answers, case-insensitive. Scores are memoised on disk (verifiers/.score_cache.json):
the same answer to the same prompt is never scored twice, across runs."""
import hashlib
import json
import re
import threading
from pathlib import Path

FINAL = re.compile(r"final answer:\\s*(.+)", re.IGNORECASE)
CACHE = Path(__file__).with_name(".score_cache.json")
LOCK = threading.Lock()


def _key(row, answer):
    prompt = json.dumps(row["responses_create_params"], sort_keys=True)
    return hashlib.sha1(f"{prompt}\\x00{answer}".encode()).hexdigest()


def score(row, response_text):
    found = FINAL.findall(response_text)
    answer = found[-1].strip().rstrip(".") if found else None
    key = _key(row, answer)
    with LOCK:
        cache = json.loads(CACHE.read_text()) if CACHE.exists() else {}
        if key not in cache:
            cache[key] = 1.0 if answer is not None and answer.lower() == row["expected_answer"].lower() else 0.0
            CACHE.write_text(json.dumps(cache))
        reward = cache[key]
    return {"reward": reward, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
'''

FRESH_LINES = ["echo '== weekly eval (fresh run)'",
               "rm -f rollouts.jsonl rollouts_failures.jsonl rollouts_materialized_inputs.jsonl "
               "rollouts_reward_profiling.jsonl"]


def shift_labels(rows: list[dict], count: int = 3) -> tuple[list[int], dict[int, str]]:
    """Move the labels of the first `count` final-answer rows one place on (a bad export): (indices, right labels)."""
    wrong = [index for index, row in enumerate(rows) if row["extraction_mode"] == "final_answer"][:count]
    right = {index: rows[index]["expected_answer"] for index in wrong}
    for index in wrong:
        rows[index]["expected_answer"] = right[wrong[(wrong.index(index) + 1) % len(wrong)]]
    return wrong, right


@case(
    "cache_resume_stage_workspace_verifier_memoises_scores_by_prompt_and_answer_across_label_fix",
    "cache_resume",
    ["my_verifier.py", ".score_cache.json", "expected_answer"],
    "the workspace verifier my_verifier.py memoises its scores on disk (verifiers/.score_cache.json) keyed by prompt "
    "and answer, not by the label; the first run scored three tasks against wrong labels, the user fixed the labels "
    "in exact_answer.jsonl and ran the eval again from scratch, but the verifier returned the cached 0 for the same "
    "answers to the same prompts: the model's right answers to the fixed tasks still score 0 (every command exits 0)",
)
def cache_resume_stage_workspace_verifier_memoises_scores_by_prompt_and_answer_across_label_fix(ctx: Ctx) -> str:
    run = ctx.run
    bundled = rows_of(recipes.DATA / "string_match.jsonl")
    rows = [row for row in bundled if row["extraction_mode"] == "final_answer"][20:28]
    data = write_jsonl(run / "exact_answer.jsonl", rows)
    better = checkpoints(ctx, "string_match", data)[1]
    wrong, right = shift_labels(rows)
    write_jsonl(data, rows)
    url, _ = ctx.policy(better, "--latency-ms 20")
    sweep = workspace_sweep(ctx, "exact_answer", data, better, {"verifier": "my_verifier:score"}, MEMO_VERIFIER,
                            num_repeats=3, concurrency=4)
    script = workspace_script(ctx, sweep, better, "exact_answer", url, FRESH_LINES)
    first = ctx.sh(f"bash {script}", "logs/run_eval_first.log", timeout=400)
    ctx.note("(the user saw three tasks scoring 0, found their labels shifted and fixed them in exact_answer.jsonl)")
    fix = " && ".join(f"sed -i '{i + 1}s/\"expected_answer\": \"{rows[i]['expected_answer']}\"/\"expected_answer\": "
                      f"\"{right[i]}\"/' exact_answer.jsonl" for i in wrong)
    ctx.sh(fix + " && echo 'labels fixed'", "logs/fix_labels.log", cwd=run)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    fixed = [row for row in got if row.get("expected_answer") in right.values()
             and str(row.get("extracted_answer")).lower() == str(row.get("expected_answer")).lower()]
    if first or code or len(got) != 24 or not fixed or any(rewards(fixed)) \
            or not (run / "verifiers" / ".score_cache.json").exists() \
            or not all(rows_of(data)[i]["expected_answer"] == right[i] for i in wrong):
        raise failed(ctx, f"exit {first}/{code}, {len(got)}, fixed {len(fixed)} {rewards(fixed)}")
    return (f"RUN/verifiers/my_verifier.py (scores memoised in RUN/verifiers/.score_cache.json by prompt and answer); "
            f"RUN/run_eval.sh (stages materialize 8 x 3, collect, profile) with 3 shifted labels, labels fixed, run "
            f"again from scratch: exit {code}; {len(fixed)} right answers to the fixed tasks scored "
            f"{rewards(fixed)}, mean reward {mean(rewards(got)):.2f}.")


SNAPSHOT_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
DATA=string_match_v1.jsonl
cd RUN_DIR
echo "weekly eval of $DATA on $(hostname), job $SLURM_JOB_ID"
PIPELINE"""

SYNC_SUBMIT = """#!/bin/bash
# submit.sh: queue the eval behind the checkpoint sync job
cd RUN_DIR
SYNC=$(sbatch --parsable --job-name=ckpt-sync --time=5 --output=logs/sync_%j.log --wrap 'sleep 20; echo checkpoint synced')
JOB=$(sbatch --parsable --dependency=afterok:$SYNC eval.sbatch)
echo "submitted checkpoint sync $SYNC and eval $JOB (after $SYNC)"
echo $JOB > job_id.txt
"""


@case(
    "cache_resume_slurm_batch_script_edited_while_job_pending_but_slurm_runs_copy_taken_at_submit",
    "cache_resume",
    ["eval.sbatch", "scancel", "string_match_v2.jsonl"],
    "the eval job was queued behind the checkpoint sync job; while it was pending the user noticed that eval.sbatch "
    "still read last week's string_match_v1.jsonl (three wrong labels) and changed it to string_match_v2.jsonl, but "
    "Slurm keeps the copy of the batch script taken at submission: the job ran the old script on v1, and the run "
    "folder holds results on the old labels (the model's right answers to those tasks scored 0) though eval.sbatch "
    "now names v2 (every command exits 0)",
)
def cache_resume_slurm_batch_script_edited_while_job_pending_but_slurm_runs_copy_taken_at_submit(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 12, name="string_match_v2.jsonl")
    rows = rows_of(data)
    wrong, right = shift_labels(rows)
    write_jsonl(run / "string_match_v1.jsonl", rows)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(SNAPSHOT_SBATCH, ctx, PIPELINE=pipeline(url, data="$DATA")))
    (run / "submit.sh").write_text(slurm_script(SYNC_SUBMIT, ctx))
    ctx.sh(f"bash {run}/submit.sh", "logs/submit.log")
    job = text_of(run / "job_id.txt").strip()
    try:
        ctx.note("(while the eval was pending, the user pointed eval.sbatch at this week's file)")
        ctx.sh("sed -i 's/^DATA=string_match_v1.jsonl/DATA=string_match_v2.jsonl/' eval.sbatch && grep '^DATA=' "
               "eval.sbatch", "logs/fix_sbatch.log", cwd=run)
        pending = job_state(ctx, job)
        ctx.sh(f"while squeue -h -j {job} 2>/dev/null | grep -q .; do sleep 2; done; echo 'job {job} finished'",
               "logs/submit.log", cwd=run, timeout=300)
    finally:
        scancel_all(ctx, job)
    got = rows_of(run / "rollouts.jsonl")
    stale = [row for row in got if row.get("expected_answer") in right.values()
             and str(row.get("extracted_answer")).lower() != str(row.get("expected_answer")).lower()]
    if pending != "PD" or complete(ctx) != 24 or "DATA=string_match_v2.jsonl" not in text_of(run / "eval.sbatch") \
            or "string_match_v1.jsonl" not in job_logs(ctx, "eval_*.log") or not stale or any(rewards(stale)):
        raise failed(ctx, f"state at edit {pending}, {complete(ctx)}, stale {len(stale)}")
    return (f"RUN/submit.sh queued RUN/eval.sbatch (job {job}) behind a 20 s sync job; eval.sbatch edited to "
            f"string_match_v2.jsonl while the job was pending ({pending}); the job ran the copy taken at submission "
            f"on string_match_v1.jsonl: {len(stale)} rollouts on old labels scored {rewards(stale)}, mean reward "
            f"{mean(rewards(got)):.2f}.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

SERVE_ONE = """#!/bin/bash
# serve.sh CHECKPOINT PORT: the team's model server
# --max-running 1: from the memory debugging in March (one sequence at a time keeps the KV cache small)
exec GP_BIN serve-policy --port $2 --checkpoint "$1" --latency-ms 400 --max-running 1
"""


@case(
    "throughput_builtin_serve_script_keeps_max_running_one_from_memory_debugging",
    "throughput_resources",
    ["serve.sh", "--max-running", "concurrency"],
    "the team's serve.sh still starts the model server with `--max-running 1` (one sequence at a time, left from a "
    "memory-debugging session); the eval's collect sends 8 requests at once, the server generated one and queued "
    "the rest ('Running: 1 reqs, Waiting: 7 reqs'), so 32 rollouts of 400 ms each took far longer than the CI's 8 s "
    "budget for run_eval.sh, which killed the collect with rollouts missing; the profile never ran",
)
def throughput_builtin_serve_script_keeps_max_running_one_from_memory_debugging(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 24)
    (run / "serve.sh").write_text(slurm_script(SERVE_ONE, ctx))
    port = free_port()
    url = f"http://127.0.0.1:{port}/v1"
    ctx.bg(f"bash {run}/serve.sh {better} {port}", "logs/model_server.log")
    wait_for(lambda: answers(url), 40, "serve.sh's model server")
    script = builtin_script(ctx, ["echo '== weekly eval'"], "string_match.jsonl", url, repeats=4, concurrency=8)
    began = time.monotonic()
    code = ctx.sh(f"timeout 8 bash {script}", "logs/run_eval.log", timeout=400)
    took = time.monotonic() - began
    got = complete(ctx)
    if code == 0 or got >= 32 or (run / "rollouts_reward_profiling.jsonl").exists() \
            or not in_log(ctx, "Waiting: 7 reqs", "logs/model_server.log"):
        raise failed(ctx, f"exit {code}, {got} in {took:.0f} s")
    return (f"RUN/serve.sh (`--max-running 1`, 400 ms per reply); `timeout 8 bash RUN/run_eval.sh` (materialize 8 x 4, "
            f"collect --concurrency 8, profile) exit {code} after {took:.0f} s; {got} of 32 rollouts, no profile.")


SHARD_LINES = """#!/bin/bash
# weekly eval: one collect per input row, so that a crash loses at most one rollout
cd RUN_DIR
echo '== weekly eval'
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
rm -rf shards && mkdir shards
split -l 1 -d -a 3 rollouts_materialized_inputs.jsonl shards/row_
for shard in shards/row_*; do
  GP_BIN collect --inputs $shard --output $shard.rollouts.jsonl --model-url MODEL_URL --env string_match --concurrency 1 > /dev/null
  echo "collected $shard"
done
cat shards/*.rollouts.jsonl > rollouts.jsonl
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "throughput_builtin_run_script_starts_one_collect_process_per_input_row",
    "throughput_resources",
    ["run_eval.sh", "split", "--concurrency"],
    "the user's run_eval.sh splits the materialized inputs into one-row shards and runs a separate `gym-pipeline "
    "collect --concurrency 1` for each (so that a crash loses at most one rollout); every rollout then pays a "
    "process start, imports and the model lookup, one after the other, so the 24 rollouts of a 20 ms model took far "
    "longer than the CI's 15 s budget, which killed the script with most shards uncollected; no rollouts file and no "
    "profile were written",
)
def throughput_builtin_run_script_starts_one_collect_process_per_input_row(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 36)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text(slurm_script(SHARD_LINES, ctx, MODEL_URL=url))
    began = time.monotonic()
    code = ctx.sh(f"timeout 15 bash {script}", "logs/run_eval.log", timeout=400)
    took = time.monotonic() - began
    shards = len(list((run / "shards").glob("row_???")))
    done = len(list((run / "shards").glob("*.rollouts.jsonl")))
    if code == 0 or shards != 24 or done >= 24 or (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {done} of {shards} shards in {took:.0f} s")
    return (f"RUN/run_eval.sh (materialize 8 x 3, `split -l 1`, one `collect --concurrency 1` per row, profile) under "
            f"`timeout 15` exit {code} after {took:.0f} s; {done} of {shards} one-row shards collected, no profile.")


if __name__ == "__main__":
    sys.exit(main("forty_second_held_out", __file__, __doc__))
