"""Build the FORTY-NINTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/forty_ninth_held_out.py --out tests/data/diagnosis_corpus/forty_ninth_held_out [--only CASE ...]

This set was written after the forty-eight earlier sets (first_held_out.py ... forty_eighth_held_out.py), from the guides
alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
task folders run in Docker sandboxes, Slurm batch jobs, the real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` /
`gym eval profile` inside a loopback-only network namespace), and the user's own shell scripts, settings, serving
scripts, data-preparation scripts, workspace verifiers, resources servers, team packages and task files. The output
of every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand
but the user's own inputs (data, scripts, settings, verifier code). Each case injects one cause, different in
mechanism from those of the forty-eight earlier sets, and each recipe checks that its fault really happened (it raises
RecipeError otherwise, and the case is not written). About half of the failures are silent: every command exits 0
and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare,
mount), Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this checkout. Run it from a foreground shell.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import (  # noqa: E402
    checkpoints,
    failed,
    gym_start,
    stop_gym,
    task_checkpoints,
    user_taskset,
    workspace_sweep,
)
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from forty_first_held_out import scancel_all  # noqa: E402
from forty_second_held_out import workspace_script  # noqa: E402
from forty_seventh_held_out import said_right  # noqa: E402
from forty_third_held_out import CAPITALS_WRONG, PLAIN_SBATCH  # noqa: E402
from fourteenth_held_out import mean, rewards  # noqa: E402
from recipes import (  # noqa: E402
    GP,
    Ctx,
    case,
    gym_model_args,
    main,
    rows_of,
    text_of,
    wait_for,
)
from tenth_held_out import in_log  # noqa: E402
from thirtieth_held_out import gym_rows  # noqa: E402
from thirty_fifth_held_out import mean_reward, pipeline  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_fifth_held_out import job_logs  # noqa: E402
from twenty_fourth_held_out import gym_eval_line, gym_profile_line  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_seventh_held_out import builtin_script  # noqa: E402
from twenty_sixth_held_out import free_port, slurm_script  # noqa: E402
from twenty_third_held_out import taskset_script, write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


def log_of(ctx: Ctx, name: str) -> str:
    return text_of(ctx.run / "logs" / name)


def served_step(url: str) -> int | None:
    """The checkpoint step the model server at `url` says it serves (its /v1/models)."""
    import urllib.request

    with urllib.request.urlopen(f"{url}/models", timeout=10) as answer:
        return json.loads(answer.read())["data"][0].get("checkpoint_step")


SUBMIT = """#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd RUN_DIR
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished: $(sacct -n -X -j $JOB -o state 2>/dev/null | head -n 1)"
"""


def submit(ctx: Ctx, env: dict | None = None, timeout: float = 500) -> int:
    (ctx.run / "submit.sh").write_text(slurm_script(SUBMIT, ctx))
    try:
        return ctx.sh(f"bash {ctx.run}/submit.sh", "logs/submit.log", timeout=timeout, env=env)
    finally:
        scancel_all(ctx, *text_of(ctx.run / "job_ids.txt").split())


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_builtin_materialize_interleaves_repeats_and_gives_each_repeat_its_own_seed",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh materializes with the less-used options `--interleave-repeats` "
    "(rows ordered abcabc instead of aabbcc) and `--num-repeats-add-seed` (a different sampling seed per repeat, "
    "in responses_create_params.metadata.extra_body); repeats still differ, and collect and profile completed "
    "every rollout",
)
def healthy_builtin_materialize_interleaves_repeats_and_gives_each_repeat_its_own_seed(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 8)
    url, _ = ctx.policy(better, "--latency-ms 30")
    script = builtin_script(ctx, ["echo '== weekly eval (repeats interleaved, one seed per repeat)'"],
                            "string_match.jsonl", url)
    script.write_text(script.read_text().replace(
        "--output rollouts_materialized_inputs.jsonl",
        "--interleave-repeats --num-repeats-add-seed --output rollouts_materialized_inputs.jsonl", 1))
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    inputs = rows_of(run / "rollouts_materialized_inputs.jsonl")
    seeded = "seed" in json.dumps([r.get("responses_create_params") for r in inputs])
    order = [r.get("_ng_task_index") for r in inputs[:3]]
    got = complete(ctx)
    if code or got != 24 or not seeded or len(set(order)) != 3 \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}, seeded {seeded}, order {order}: {log_of(ctx, 'run_eval.log')[-600:]}")
    return (f"RUN/run_eval.sh (materialize 8 x 3 `--interleave-repeats --num-repeats-add-seed`, collect, profile) "
            f"exit {code}; first task indexes {order}; {got} rollouts, mean reward "
            f"{mean_reward(run / 'rollouts.jsonl')}.")


APPEND_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval.log
#SBATCH --open-mode=append
#SBATCH --time=10
#SBATCH --ntasks=1
# one log for every week's eval (appended), so the history stays in one place
echo "== weekly eval $WEEK on $(hostname), job $SLURM_JOB_ID"
mkdir -p RUN_DIR/$WEEK && cd RUN_DIR/$WEEK
cp RUN_DIR/string_match.jsonl .
PIPELINE"""


@case(
    "healthy_slurm_job_log_opened_in_append_mode_still_holds_last_weeks_failed_attempt",
    "healthy",
    [],
    "nothing is wrong: the user's eval.sbatch writes every week's job to one log, logs/eval.log, with "
    "`--open-mode=append`; the log still begins with last week's attempt (week11), whose model server was down "
    "(connection refused, collect failed), and goes on with this week's job (week12), which completed every "
    "rollout in RUN/week12 and profiled them",
)
def healthy_slurm_job_log_opened_in_append_mode_still_holds_last_weeks_failed_attempt(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 16)
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(APPEND_SBATCH, ctx, PIPELINE=pipeline("$MODEL_URL")))
    dead = f"http://127.0.0.1:{free_port()}/v1"
    ctx.note("(last week: the model server had been stopped)")
    first = submit(ctx, env={**ctx.env, "WEEK": "week11", "MODEL_URL": dead})
    url, _ = ctx.policy(better, "--latency-ms 30")
    code = submit(ctx, env={**ctx.env, "WEEK": "week12", "MODEL_URL": url})
    got = len({(r["_ng_task_index"], r["_ng_rollout_index"]) for r in rows_of(run / "week12" / "rollouts.jsonl")})
    log = log_of(ctx, "eval.log")
    if first or code or got != 24 or "week11" not in log or "week12" not in log \
            or rows_of(run / "week11" / "rollouts.jsonl") and all(rewards(rows_of(run / "week11" / "rollouts.jsonl"))) \
            or not (run / "week12" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {first}/{code}, {got}: {log[-1500:]}")
    return (f"RUN/eval.sbatch (`--open-mode=append` to logs/eval.log) submitted twice by RUN/submit.sh: last week "
            f"(WEEK=week11, model server down) and this week (WEEK=week12: materialize 8 x 3, collect, profile) "
            f"exit {code}; {got} rollouts in RUN/week12, mean reward {mean_reward(run / 'week12' / 'rollouts.jsonl')}.")


DOCKER_DF_LINES = [
    "echo '== weekly taskset run'",
    "# how much the sandboxes take on this node, for the capacity notes",
    "docker system df",
]


@case(
    "healthy_taskfolder_run_script_records_docker_disk_usage_with_mostly_reclaimable_images",
    "healthy",
    [],
    "nothing is wrong: the user's run_tasks.sh records Docker's disk usage (`docker system df`) for the capacity "
    "notes: images, containers and build cache, much of it shown as RECLAIMABLE; it says nothing about the run, and "
    "every episode ran in its Docker sandbox, was verified and profiled",
)
def healthy_taskfolder_run_script_records_docker_disk_usage_with_mostly_reclaimable_images(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["top-word", "create-greeting"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, DOCKER_DF_LINES)
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    log = log_of(ctx, "run_tasks.log")
    if code or complete(ctx) != 4 or not any(rewards(got)) or "RECLAIMABLE" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {rewards(got)}: {log[-600:]}")
    return (f"RUN/run_tasks.sh (`docker system df`, then `gym-pipeline stage` materialize, collect, profile of "
            f"RUN/tasks x 2) exit {code}; {complete(ctx)} of 4 episodes, rewards {rewards(got)}.")


@case(
    "healthy_gym_eval_dispatches_repeats_round_by_round_with_one_health_check_worker",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh runs the real NeMo Gym eval with the less-used options "
    "`--interleave-repeats` (repeats dispatched round by round) and `--health-check-workers 1` (the post-run "
    "rollout health checks in one process); every rollout was collected, verified and profiled",
    netns=True,
)
def healthy_gym_eval_dispatches_repeats_round_by_round_with_one_health_check_worker(ctx: Ctx) -> str:
    run = ctx.run
    ctx.dataset("string_match", 8, start=24, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", run / "tasks.jsonl")[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval\n" + f"cd {run}\n"
                      + gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 4)
                      + " --interleave-repeats --health-check-workers 1\n" + gym_profile_line("results") + "\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = len({(r["_ng_task_index"], r["_ng_rollout_index"]) for r in gym_rows(ctx)})
    if code or got != 24 or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {log_of(ctx, 'run_eval.log')[-600:]}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (`gym eval run --no-serve` 8 tasks x 3 "
            f"`--interleave-repeats --health-check-workers 1`, `gym eval profile`) exit {code}; {got} rollouts, "
            f"mean reward {mean(rewards(gym_rows(ctx))):.2f}.")


# =====================================================================================================
# config
# =====================================================================================================

MAKEFILE = """# weekly eval: `make eval` (the data team drops each week's tasks into its own folder)
WEEK := week12
MODEL_URL := URL

eval:
\tcd $(WEEK)
\tGP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
\t\t--output rollouts_materialized_inputs.jsonl
\tGP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl \\
\t\t--model-url $(MODEL_URL) --env string_match --concurrency 4
\tGP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "config_builtin_makefile_recipe_changes_folder_with_cd_on_a_line_of_its_own",
    "config",
    ["Makefile", "cd"],
    "the user's Makefile runs `cd $(WEEK)` on a recipe line of its own, then materialize, collect and profile on "
    "the next lines; make runs every recipe line in a new shell, so the cd was lost and materialize looked for "
    "string_match.jsonl in the Makefile's folder instead of week12/: it failed, and make stopped the eval",
)
def config_builtin_makefile_recipe_changes_folder_with_cd_on_a_line_of_its_own(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 32)
    (run / "week12").mkdir()
    data.rename(run / "week12" / "string_match.jsonl")
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "Makefile").write_text(MAKEFILE.replace("GP_BIN", str(GP)).replace("MODEL_URL := URL", f"MODEL_URL := {url}"))
    code = ctx.sh(f"make -C {run} eval", "logs/make_eval.log", timeout=300)
    log = log_of(ctx, "make_eval.log")
    if not code or (run / "week12" / "rollouts.jsonl").exists() or (run / "rollouts.jsonl").exists() \
            or "string_match.jsonl" not in log:
        raise failed(ctx, f"exit {code}: {log[-800:]}")
    return (f"RUN/Makefile (`cd $(WEEK)` on its own recipe line); `make -C RUN eval` exit {code}: materialize did "
            f"not find string_match.jsonl in RUN, no rollouts.")


NTASKS_SBATCH = PLAIN_SBATCH.replace("#SBATCH --ntasks=1", "#SBATCH --ntasks=2  # from the team's MPI template")


@case(
    "healthy_slurm_template_ntasks_two_makes_srun_start_a_second_collect_that_the_run_folder_lock_refuses",
    "healthy",
    [],
    "nothing is wrong with the results: the user's eval.sbatch keeps `#SBATCH --ntasks=2` from the team's MPI "
    "template and launches the collect with `srun`, which starts one copy per task; the second copy found the run "
    "folder in use by the first and stopped at once ('run directory ... is in use by pid ...', 'srun: error: vm: "
    "task 1: Exited with exit code 2'), while the first collected every rollout, and profile completed",
)
def healthy_slurm_template_ntasks_two_makes_srun_start_a_second_collect_that_the_run_folder_lock_refuses(
        ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 48)
    url, _ = ctx.policy(better, "--latency-ms 40")
    lines = pipeline(url).splitlines()
    lines[1] = "srun " + lines[1]
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(NTASKS_SBATCH, ctx, PIPELINE="\n".join(lines) + "\n"))
    code = submit(ctx)
    got = complete(ctx)
    job = job_logs(ctx, "eval_*.log")
    if code or got != 24 or len(rows_of(run / "rollouts.jsonl")) != 24 or "in use by pid" not in job \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {job[-1500:]}")
    return (f"RUN/eval.sbatch (`--ntasks=2`, `srun gym-pipeline collect ...`) via RUN/submit.sh exit {code}; the "
            f"second collect refused (run folder in use); {got} rollouts, mean reward "
            f"{mean_reward(run / 'rollouts.jsonl')}.")


BASE_MODEL_OVERRIDES = ("++policy_model.responses_api_models.vllm_model.use_completions_api=true "
                        "++policy_model.responses_api_models.vllm_model.uses_reasoning_parser=false")


@case(
    "config_gym_model_overrides_file_from_base_model_eval_sends_calls_to_completions_endpoint",
    "config",
    ["use_completions_api", "chat"],
    "the team's model_overrides.txt, passed to `gym env start`, was written for last month's base-model eval: it "
    "sets `use_completions_api=true` on the vllm_model server, so Gym sent every call to the model server's "
    "/v1/completions instead of /v1/chat/completions; the served checkpoint (a chat model) has no such route, and "
    "no rollout got an answer",
    netns=True,
)
def config_gym_model_overrides_file_from_base_model_eval_sends_calls_to_completions_endpoint(ctx: Ctx) -> str:
    run = ctx.run
    ctx.dataset("string_match", 8, start=56, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", run / "tasks.jsonl")[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    (run / "model_overrides.txt").write_text(
        "# vllm_model settings for the base-model eval (raw prompts, no chat template)\n" + BASE_MODEL_OVERRIDES + "\n")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {BASE_MODEL_OVERRIDES} {overrides}")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval\n" + f"cd {run}\n"
                      + gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 4) + "\n"
                      + gym_profile_line("results") + "\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    hits = text_of(run / "env_start.log").count("/v1/completions status=404")
    if (got and any(rewards(got))) or not hits:
        raise failed(ctx, f"exit {code}, {len(got)} rows, rewards {rewards(got)}: {log_of(ctx, 'run_eval.log')[-800:]}")
    return (f"RUN/model_overrides.txt (`use_completions_api=true`) given to `gym env start`; real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, `gym eval profile`) exit "
            f"{code}; {len(got)} rollouts with a reward, {hits} retries of /v1/completions answered 404 in RUN/env_start.log.")


# =====================================================================================================
# model_serving
# =====================================================================================================

TRAIN_LOG = """[2024-06-10 09:12:44] step 50 loss 1.912 lr 2.0e-05
[2024-06-10 10:31:02] step 100 loss 1.604 lr 2.0e-05
[2024-06-10 10:31:40] saved checkpoint CKPTS/step_0100
[2024-06-10 11:49:17] step 150 loss 1.455 lr 1.8e-05
[2024-06-10 13:07:55] step 200 loss 1.371 lr 1.6e-05
[2024-06-10 13:08:31] saved checkpoint CKPTS/step_0200
[2024-06-10 13:08:32] training finished: 200 steps
"""
SERVE_GREP = """#!/bin/bash
# serve.sh: serve the checkpoint the training run saved (read from its log)
CKPT=$(grep -m1 'saved checkpoint' RUN_DIR/train.log | awk '{print $NF}')
echo "serving $CKPT"
exec GP_BIN serve-policy --port 0 --ready-file RUN_DIR/model_url.txt --checkpoint "$CKPT" --latency-ms 20
"""


@case(
    "model_serving_builtin_serve_script_reads_checkpoint_from_first_saved_line_of_training_log",
    "model_serving",
    ["serve.sh", "grep -m1", "step_0200"],
    "the user's serve.sh finds the checkpoint to serve in the training log with `grep -m1 'saved checkpoint'`: -m1 "
    "stops at the FIRST match, the step_0100 checkpoint, not the last one (step_0200); the model server served the "
    "earlier, weaker checkpoint and the eval measured it (every command exits 0)",
)
def model_serving_builtin_serve_script_reads_checkpoint_from_first_saved_line_of_training_log(ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 72)
    (run / "train.log").write_text(TRAIN_LOG.replace("CKPTS", str(better.parent)))
    (run / "serve.sh").write_text(slurm_script(SERVE_GREP, ctx))
    server = ctx.bg(f"bash {run}/serve.sh", "logs/serve.log")
    wait_for(lambda: text_of(run / "model_url.txt").strip() != "" or server.poll() is not None, 30, "serve.sh")
    url = text_of(run / "model_url.txt").strip()
    step = served_step(url)
    script = builtin_script(ctx, ["echo '== weekly eval'", f"echo \"model: $(cat {run}/model_url.txt)\""],
                            "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = complete(ctx)
    if code or got != 24 or step != 100:
        raise failed(ctx, f"exit {code}, {got}, served step {step}: {log_of(ctx, 'serve.log')[-400:]}")
    return (f"RUN/serve.sh (`grep -m1 'saved checkpoint' train.log`) served step {step}; RUN/run_eval.sh "
            f"(materialize 8 x 3, collect, profile) exit {code}; {got} rollouts, mean reward "
            f"{mean_reward(run / 'rollouts.jsonl')}.")


SERVE_TMUX = """#!/bin/bash
# serve.sh: the model server in a detached tmux session named 'policy' (attach with `tmux -L evalnode a -t policy`)
CKPT=CKPT_DIR
tmux -L evalnode new-session -d -s policy "GP_BIN serve-policy --port PORT --checkpoint $CKPT --latency-ms 20"
echo "started the policy server on $CKPT (port PORT)"
sleep 3
curl -s http://127.0.0.1:PORT/v1/models; echo
"""


@case(
    "model_serving_builtin_serve_script_tmux_session_name_still_taken_by_last_weeks_server",
    "model_serving",
    ["tmux", "kill-session", "policy"],
    "the user's serve.sh starts the model server in a detached tmux session named 'policy'; last week's session of "
    "that name (serving step_0100 on the same port) was never closed, so `tmux new-session -s policy` refused "
    "('duplicate session: policy') and the new server never started; serve.sh went on, and the eval ran against "
    "last week's server on the old checkpoint (every eval command exits 0)",
)
def model_serving_builtin_serve_script_tmux_session_name_still_taken_by_last_weeks_server(ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 79)
    port = free_port()
    ctx.note("(last week: serve.sh started the server on step_0100 in tmux session 'policy'; it was left running)")
    try:
        subprocess.run(["tmux", "-L", "evalnode", "new-session", "-d", "-s", "policy",
                        f"{GP} serve-policy --port {port} --checkpoint {weaker} --latency-ms 20"], check=True,
                       env=ctx.env)
        url = f"http://127.0.0.1:{port}/v1"
        wait_for(lambda: in_tmux_ready(url), 30, "last week's server")
        (run / "serve.sh").write_text(SERVE_TMUX.replace("CKPT_DIR", str(better)).replace("GP_BIN", str(GP))
                                      .replace("PORT", str(port)))
        served = ctx.sh(f"bash {run}/serve.sh", "logs/serve.log", timeout=60)
        step = served_step(url)
        script = builtin_script(ctx, ["echo '== weekly eval'"], "string_match.jsonl", url)
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    finally:
        subprocess.run(["tmux", "-L", "evalnode", "kill-server"], capture_output=True, check=False)
    got = complete(ctx)
    if code or got != 24 or step != 100 or "duplicate session" not in log_of(ctx, "serve.log"):
        raise failed(ctx, f"serve {served}, exit {code}, {got}, step {step}: {log_of(ctx, 'serve.log')[-400:]}")
    return (f"RUN/serve.sh (`tmux new-session -d -s policy ... --checkpoint step_0200`: 'duplicate session: policy') "
            f"exit {served}; the server on port {port} serves step {step}; RUN/run_eval.sh (materialize 8 x 3, "
            f"collect, profile) exit {code}; {got} rollouts, mean reward {mean_reward(run / 'rollouts.jsonl')}.")


def in_tmux_ready(url: str) -> bool:
    try:
        return served_step(url) is not None
    except OSError:
        return False


# =====================================================================================================
# data_schema
# =====================================================================================================


def run_as_nobody(tasks: Path) -> None:
    for dockerfile in tasks.glob("*/environment/Dockerfile"):
        dockerfile.write_text(dockerfile.read_text().rstrip("\n")
                              + "\n# security baseline (from the team's service template): never run as root\nUSER nobody\n")


@case(
    "data_schema_taskfolder_dockerfiles_end_with_user_nobody_from_service_template",
    "data_schema",
    ["Dockerfile", "USER"],
    "the user's task folders' Dockerfiles were finished with the team's service-template security baseline "
    "`USER nobody`; the sandbox's commands then ran as nobody, who may not write /app (owned by root) nor "
    "/logs/verifier: the agent's solution could not write its output and the verifier could not record a reward, "
    "so every episode failed or scored 0",
)
def data_schema_taskfolder_dockerfiles_end_with_user_nobody_from_service_template(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["top-word", "create-greeting"], run_as_nobody)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    if any(rewards(got)) or not in_log(ctx, "ermission denied"):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}: {log_of(ctx, 'run_tasks.log')[-800:]}")
    return (f"RUN/tasks/*/environment/Dockerfile (`USER nobody` at the end); RUN/run_tasks.sh (`gym-pipeline stage` "
            f"materialize, collect, profile of RUN/tasks x 2) exit {code}; {len(got)} rollouts, rewards {rewards(got)}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

IS_VERIFIER = '''"""my_verifier.py: the answer after the last 'Final answer:', compared with the label without regard to case."""

MARK = "Final answer:"


def score(row, response_text):
    answer = response_text.rsplit(MARK, 1)[-1].strip().rstrip(".").lower() if MARK in response_text else None
    label = str(row["expected_answer"]).strip().lower()
    reward = 1.0 if answer is label else 0.0  # same answer as the label
    return {"reward": reward, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
'''


@case(
    "verifier_runtime_stage_workspace_verifier_compares_answer_and_label_with_is_instead_of_equals",
    "verifier_runtime",
    ["my_verifier.py", "is", "=="],
    "the workspace verifier my_verifier.py compares the extracted answer with the label with `answer is label` "
    "(identity) instead of `==`; the two lower-cased strings are distinct objects even when equal, so every answer "
    "scored 0, right or wrong, with no error (every command exits 0)",
)
def verifier_runtime_stage_workspace_verifier_compares_answer_and_label_with_is_instead_of_equals(ctx: Ctx) -> str:
    run = ctx.run
    pairs = [(q, a) for q, a, _ in CAPITALS_WRONG]
    better = truth_checkpoints(ctx, pairs)[1]
    data = write_jsonl(run / "capitals.jsonl", [question_row(q, a) for q, a in pairs])
    url, _ = ctx.policy(better, "--latency-ms 20")
    sweep = workspace_sweep(ctx, "capitals", data, better, {"verifier": "my_verifier:score"}, IS_VERIFIER,
                            num_repeats=3, concurrency=4)
    script = workspace_script(ctx, sweep, better, "capitals", url, ["echo '== weekly eval'"])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    right = [r for r in got if said_right(r)]
    if code or len(got) != 24 or not right or any(rewards(got)):
        raise failed(ctx, f"exit {code}, {len(got)}, right {len(right)}, rewards {rewards(got)}")
    return (f"RUN/verifiers/my_verifier.py (`answer is label`); RUN/run_eval.sh (stages materialize 8 x 3, collect, "
            f"profile) exit {code}; {len(right)} right answers, every reward {sorted(set(rewards(got)))}.")


if __name__ == "__main__":
    sys.exit(main("forty_ninth_held_out", __file__, __doc__))
