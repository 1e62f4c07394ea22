"""Build the FORTY-FIFTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/forty_fifth_held_out.py --out tests/data/diagnosis_corpus/forty_fifth_held_out [--only CASE ...]

This set was written after the forty-four earlier sets (first_held_out.py ... forty_fourth_held_out.py), from the guides
alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
task folders run in Docker sandboxes, Slurm batch jobs, the real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` /
`gym eval profile` inside a loopback-only network namespace), and the user's own shell scripts, settings, serving
scripts, data-preparation scripts, workspace verifiers and task files. The output of every command is captured as a
user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data,
scripts, settings, verifier code). Each case injects one cause, different in mechanism from those of the forty-four
earlier sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is
not written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare,
mount), Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this checkout. Run it from a foreground shell.
"""

from __future__ import annotations

import json
import shutil
import signal
import sys
import time
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
from forty_first_held_out import answers, scancel_all  # noqa: E402
from forty_second_held_out import workspace_script  # noqa: E402
from forty_third_held_out import CAPITALS_WRONG, PLAIN_SBATCH, SUBMIT_WAIT  # noqa: E402
from fourteenth_held_out import mean, rewards  # noqa: E402
from recipes import (  # noqa: E402
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
from twenty_fifth_held_out import job_logs, task_rows  # noqa: E402
from twenty_fourth_held_out import gym_eval_line, gym_profile_line  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_seventh_held_out import builtin_script  # noqa: E402
from twenty_sixth_held_out import free_port, gym_run, slurm_script  # noqa: E402
from twenty_third_held_out import taskset_script, write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


def log_of(ctx: Ctx, name: str) -> str:
    return text_of(ctx.run / "logs" / name)


def submit(ctx: Ctx, sbatch: str, timeout: float = 500) -> int:
    """RUN/eval.sbatch (already written) submitted by RUN/submit.sh, waited for; the submit's exit code."""
    (ctx.run / "submit.sh").write_text(slurm_script(SUBMIT_WAIT, ctx))
    try:
        return ctx.sh(f"bash {ctx.run}/submit.sh", "logs/submit.log", timeout=timeout)
    finally:
        scancel_all(ctx, text_of(ctx.run / "job_id.txt").strip())


MULTIWORD = [("What is the capital of India?", "New Delhi"), ("What is the capital of Argentina?", "Buenos Aires"),
             ("What is the capital of Malaysia?", "Kuala Lumpur"), ("What is the capital of France?", "Paris"),
             ("What is the capital of Japan?", "Tokyo"), ("What is the capital of Sri Lanka?", "Colombo"),
             ("Which city is known as the Big Apple?", "New York"), ("What is 6 times 7?", "42")]


# =====================================================================================================
# healthy
# =====================================================================================================

SCHEMA_LINES = [
    "echo '== weekly eval'",
    "# validate the tasks against the team's schema when the validator is installed",
    "check-jsonschema --schemafile tasks.schema.json tasks.jsonl || echo 'schema check skipped'",
]


@case(
    "healthy_gym_run_script_validates_tasks_with_check_jsonschema_not_installed_on_eval_node",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh validates tasks.jsonl with `check-jsonschema` before the eval; the eval "
    "node does not have that validator, so bash prints 'check-jsonschema: command not found' and the script goes on; "
    "the real NeMo Gym eval then collected, verified and profiled every rollout",
    netns=True,
)
def healthy_gym_run_script_validates_tasks_with_check_jsonschema_not_installed_on_eval_node(ctx: Ctx) -> str:
    run = ctx.run
    ctx.dataset("string_match", 8, start=52, folder=run, name="tasks.jsonl")
    (run / "tasks.schema.json").write_text(json.dumps({"type": "object", "required": [
        "responses_create_params", "expected_answer"]}, indent=2) + "\n")
    better = checkpoints(ctx, "string_match", run / "tasks.jsonl")[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", SCHEMA_LINES, overrides)
    stop_gym(ctx, env_start, policy)
    got = len({(r["_ng_task_index"], r["_ng_rollout_index"]) for r in gym_rows(ctx)})
    if code or got != 24 or not in_log(ctx, "command not found", "logs/run_eval.log") \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {log_of(ctx, 'run_eval.log')[-600:]}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (`check-jsonschema` not installed, then "
            f"`gym eval run --no-serve` 8 tasks x 3 and `gym eval profile`) exit {code}; {got} rollouts, mean reward "
            f"{mean(rewards(gym_rows(ctx))):.2f}.")


@case(
    "healthy_taskfolder_model_server_drops_some_connections_that_the_collector_retries",
    "healthy",
    [],
    "nothing is wrong: the shared model server dropped some of the agent's connections without an answer (a flaky "
    "load balancer); the collector retried those episodes and every episode then ran in its Docker sandbox, was "
    "verified and profiled; the failures sidecar shows the retried attempts, the rollouts are complete",
)
def healthy_taskfolder_model_server_drops_some_connections_that_the_collector_retries(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["top-word", "csv-column-total"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30 --fault-rate 0.12 --fault-kinds drop --fault-seed 5")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    retried = rows_of(run / "rollouts_failures.jsonl")
    if code or complete(ctx) != 4 or not any(rewards(got)) or not retried \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {rewards(got)}, retried {len(retried)}")
    return (f"model server dropping 12% of connections; RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, "
            f"profile of RUN/tasks x 2) exit {code}; {complete(ctx)} of 4 episodes, {len(retried)} failed attempts "
            f"retried, rewards {rewards(got)}.")


SSTAT_SBATCH = PLAIN_SBATCH.replace(
    "PIPELINE",
    "# this job's memory so far, for the run notes\n"
    "sstat -j $SLURM_JOB_ID.0 --format=JobID,MaxRSS || echo 'no step statistics yet'\n"
    "PIPELINE")


@case(
    "healthy_slurm_job_asks_sstat_for_its_memory_before_any_job_step_has_run",
    "healthy",
    [],
    "nothing is wrong: the user's eval.sbatch records the job's memory with `sstat -j $SLURM_JOB_ID.0` at its start; no "
    "job step 0 has run yet (the batch script runs no srun), so sstat has nothing to report and prints an error; the "
    "job goes on and materialize, collect and profile completed every rollout",
)
def healthy_slurm_job_asks_sstat_for_its_memory_before_any_job_step_has_run(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 40)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(SSTAT_SBATCH, ctx, PIPELINE=pipeline(url)))
    code = submit(ctx, "eval.sbatch")
    got = complete(ctx)
    job = job_logs(ctx, "eval_*.log")
    if code or got != 24 or "sstat: error" not in job or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {job[-600:]}")
    return (f"RUN/submit.sh (sbatch of RUN/eval.sbatch: `sstat` finds no step, then materialize 8 x 3, collect, profile) "
            f"exit {code}; {got} rollouts, mean reward {mean_reward(run / 'rollouts.jsonl')}.")


GZIP_LINES = [
    "echo '== weekly eval'",
    "# keep a compressed copy of the tasks beside the results",
    "gzip -k string_match.jsonl || echo '(compressed copy already there)'",
]


@case(
    "healthy_builtin_run_script_keeps_gzip_copy_of_dataset_that_gzip_refuses_to_overwrite_then_policy_ctrl_c",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh keeps a compressed copy of the tasks with `gzip -k`; last week's copy is "
    "still there, so gzip prints 'already exists; not overwritten' and the script goes on; materialize, collect and "
    "profile completed every rollout, and the user then stopped the model server with Ctrl-C (a KeyboardInterrupt "
    "in its log)",
)
def healthy_builtin_run_script_keeps_gzip_copy_of_dataset_that_gzip_refuses_to_overwrite_then_policy_ctrl_c(
        ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 4)
    ctx.note("(last week: the same tasks, compressed)")
    ctx.sh("gzip -k string_match.jsonl && ls -l", "logs/last_week.log", cwd=run)
    url, policy = ctx.policy(better, "--latency-ms 30")
    script = builtin_script(ctx, GZIP_LINES, "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    ctx.note("(the eval done: Ctrl-C on the model server)")
    ctx.stop(policy, signal.SIGINT, 10)
    got = complete(ctx)
    if code or got != 24 or not in_log(ctx, "already exists", "logs/run_eval.log") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {log_of(ctx, 'run_eval.log')[-600:]}")
    return (f"RUN/run_eval.sh (`gzip -k` refuses to overwrite last week's copy, then materialize 8 x 3, collect, profile) "
            f"exit {code}; {got} rollouts, mean reward {mean_reward(run / 'rollouts.jsonl')}; model server stopped with "
            f"Ctrl-C after.")


# =====================================================================================================
# infra
# =====================================================================================================

PROXY_NOTE = ("(the eval nodes' site profile, /etc/profile.d/proxy.sh: `export http_proxy=http://127.0.0.1:3128 "
              "https_proxy=http://127.0.0.1:3128` for the per-node cntlm forwarder, without no_proxy; cntlm is not "
              "running on this node)")


@case(
    "infra_taskfolder_node_profile_exports_http_proxy_without_no_proxy_so_agent_model_calls_go_to_dead_proxy",
    "infra",
    ["http_proxy", "no_proxy"],
    "the eval node's site profile exports http_proxy/https_proxy (a per-node forwarder on port 3128) and no no_proxy; "
    "the task-folder agent's HTTP client honours these variables, so its requests to the model server on 127.0.0.1 "
    "were sent to the proxy, which is not running on this node: every model call failed with a proxy connection "
    "error, though the model server and the task folders are fine",
)
def infra_taskfolder_node_profile_exports_http_proxy_without_no_proxy_so_agent_model_calls_go_to_dead_proxy(
        ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["create-greeting", "top-word"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    ctx.note(PROXY_NOTE)
    ctx.env.update({"http_proxy": "http://127.0.0.1:3128", "https_proxy": "http://127.0.0.1:3128"})
    for key in ("no_proxy", "NO_PROXY"):
        ctx.env.pop(key, None)
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'", "env | grep -i _proxy"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    everything = log_of(ctx, "run_tasks.log") + text_of(run / "rollouts_failures.jsonl") + json.dumps(got)
    if any(rewards(got)) or "proxy" not in everything.lower().replace("_proxy", ""):
        raise failed(ctx, f"exit {code}, {rewards(got)}: {everything[-800:]}")
    return (f"http_proxy/https_proxy=http://127.0.0.1:3128 (nothing listening), no no_proxy; RUN/run_tasks.sh "
            f"(`gym-pipeline stage` materialize, collect, profile of RUN/tasks x 2) exit {code}; rewards "
            f"{rewards(got)}, {len(rows_of(run / 'rollouts_failures.jsonl'))} failed attempts.")


# =====================================================================================================
# model_serving
# =====================================================================================================

SERVE_BASELINE = """#!/bin/bash
# serve.sh [serve-policy options]: the team's model server; serves the baseline unless --checkpoint is given
BASELINE=BASELINE_CKPT
exec GP_BIN serve-policy --port 0 --ready-file RUN_DIR/server_url.txt --latency-ms 30 "$@" --checkpoint $BASELINE
"""


@case(
    "model_serving_builtin_serve_wrapper_adds_baseline_checkpoint_after_users_own_so_server_refuses_two",
    "model_serving",
    ["serve.sh", "--checkpoint", "BASELINE"],
    "the team's serve.sh passes the user's options (\"$@\") and then `--checkpoint $BASELINE`, meant as a default; "
    "with the user's own --checkpoint the server was given two checkpoints and refused to start ('--checkpoint given "
    "twice'), so no server_url.txt was written, run_eval.sh fell back to its default URL where nothing listens, and "
    "nothing was collected or profiled",
)
def model_serving_builtin_serve_wrapper_adds_baseline_checkpoint_after_users_own_so_server_refuses_two(
        ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 24)
    (run / "serve.sh").write_text(slurm_script(SERVE_BASELINE, ctx, BASELINE_CKPT=str(weaker)))
    server = ctx.bg(f"bash {run}/serve.sh --checkpoint {better}", "logs/model_server.log")
    wait_for(lambda: server.poll() is not None or text_of(run / "server_url.txt").strip() != "", 40, "serve.sh")
    script = builtin_script(ctx, [f"echo '== weekly eval of {better.name}'",
                                  "MODEL_URL=$(cat server_url.txt 2>/dev/null)",
                                  "echo \"model server: ${MODEL_URL:=http://127.0.0.1:8000/v1}\""],
                            "string_match.jsonl", "$MODEL_URL")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    if complete(ctx) or "given twice" not in log_of(ctx, "model_server.log"):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log_of(ctx, 'model_server.log')[-400:]}")
    return (f"RUN/serve.sh (`\"$@\" --checkpoint $BASELINE`) started with --checkpoint .../step_0200: serve-policy "
            f"refused two checkpoints; RUN/run_eval.sh (materialize 8 x 3, collect, profile) exit {code}; no rollouts.")


SERVE_FIND = """#!/bin/bash
# serve.sh PORT: serve the training run's checkpoint (the trainer keeps one; `find` because ls breaks on odd names)
CKPT=$(find TRAIN_DIR/checkpoints -mindepth 1 -maxdepth 1 -name 'step_*' | head -n 1)
echo "serve.sh: serving $CKPT"
exec GP_BIN serve-policy --port $1 --checkpoint "$CKPT" --latency-ms 30
"""


@case(
    "model_serving_gym_serve_script_takes_first_checkpoint_in_find_directory_order",
    "model_serving",
    ["serve.sh", "find", "sort"],
    "serve.sh picks the checkpoint to serve with `find checkpoints -name 'step_*' | head -n 1`, written when the "
    "trainer kept a single checkpoint; this run's folder holds step_0200 and step_0100 (restored for a comparison), "
    "and find lists entries in directory order, not sorted, so the server loaded step_0100: the real NeMo Gym eval "
    "of the new checkpoint measured the old one (every command exits 0)",
    netns=True,
)
def model_serving_gym_serve_script_takes_first_checkpoint_in_find_directory_order(ctx: Ctx) -> str:
    run = ctx.run
    ctx.dataset("string_match", 8, start=10, folder=run, name="tasks.jsonl")
    weaker, better = checkpoints(ctx, "string_match", run / "tasks.jsonl")
    train = ctx.work / "training" / "exp12"
    (train / "checkpoints").mkdir(parents=True)
    shutil.copytree(better, train / "checkpoints" / "step_0200")
    ctx.note("(step_0100 restored from the archive into the training run's folder for a comparison)")
    shutil.copytree(weaker, train / "checkpoints" / "step_0100")
    (run / "serve.sh").write_text(slurm_script(SERVE_FIND, ctx, TRAIN_DIR=str(train)))
    port = free_port()
    url = f"http://127.0.0.1:{port}/v1"
    policy = ctx.bg(f"bash {run}/serve.sh {port}", "policy_server.log")
    wait_for(lambda: answers(url), 40, "serve.sh's model server")
    chosen = text_of(run / "policy_server.log")
    if "step_0100" not in chosen.split("\n", 1)[0]:
        raise failed(ctx, f"find listed another checkpoint first: {chosen[:300]}")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["echo '== weekly eval of exp12 (latest checkpoint)'"], overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    if code or len(got) != 24 or mean(rewards(got)) >= 0.9:
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/serve.sh (`find ... | head -n 1` picked step_0100 of step_0200 and step_0100); real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) RUN/run_eval.sh exit {code}; mean reward {mean(rewards(got)):.2f}.")


# =====================================================================================================
# config
# =====================================================================================================

SMOKE_LINES = [
    "echo '== weekly eval'",
    "# SMOKE=1 bash run_eval.sh for a quick check on the first 2 tasks",
    "if [ -n $SMOKE ]; then",
    "  echo 'smoke test: first 2 tasks only'; head -n 2 string_match.jsonl > tasks_run.jsonl",
    "else",
    "  cp string_match.jsonl tasks_run.jsonl",
    "fi",
]


@case(
    "config_builtin_run_script_tests_smoke_switch_with_unquoted_dash_n_which_is_true_when_unset",
    "config",
    ["run_eval.sh", "-n", "SMOKE"],
    "run_eval.sh chooses its smoke-test branch with `[ -n $SMOKE ]`; unquoted and unset, the test becomes `[ -n ]`, "
    "which is true (a one-argument test of the non-empty string '-n'), so the weekly run, started without SMOKE, "
    "evaluated only the first 2 of 8 tasks: 6 rollouts instead of 24, and every command exits 0",
)
def config_builtin_run_script_tests_smoke_switch_with_unquoted_dash_n_which_is_true_when_unset(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 48)
    url, _ = ctx.policy(better, "--latency-ms 20")
    ctx.env.pop("SMOKE", None)
    script = builtin_script(ctx, SMOKE_LINES, "tasks_run.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = complete(ctx)
    if code or got != 6 or not in_log(ctx, "smoke test", "logs/run_eval.log") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {log_of(ctx, 'run_eval.log')[-600:]}")
    return (f"RUN/run_eval.sh (`[ -n $SMOKE ]` with SMOKE unset, head -n 2 of 8 tasks, then materialize x 3, collect, "
            f"profile) exit {code}; {got} rollouts instead of 24, mean reward {mean_reward(run / 'rollouts.jsonl')}.")


@case(
    "config_gym_run_script_backgrounds_the_eval_with_ampersand_so_profile_runs_before_it_finishes",
    "config",
    ["run_eval.sh", "&", "wait"],
    "run_eval.sh starts `gym eval run` in the background with `&` (to follow the servers' logs meanwhile) and goes "
    "straight on to `gym eval profile` without `wait`; the profile ran on results that did not exist yet and failed, "
    "the script ended, and the eval's rollouts arrived afterwards with no profile",
    netns=True,
)
def config_gym_run_script_backgrounds_the_eval_with_ampersand_so_profile_runs_before_it_finishes(ctx: Ctx) -> str:
    run = ctx.run
    ctx.dataset("string_match", 8, start=16, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", run / "tasks.jsonl")[1]
    url, policy = ctx.policy(better, "--latency-ms 1500", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    script = run / "run_eval.sh"
    script.write_text(f"#!/bin/bash\n# weekly eval\ncd {run}\necho '== weekly eval'\n"
                      f"# the eval in the background, so the servers' logs can be followed meanwhile\n"
                      f"{gym_eval_line(overrides, 'tasks.jsonl', 'results/rollouts.jsonl', 3, 2)} "
                      f"> logs/eval_run.log 2>&1 &\n"
                      f"echo \"eval started (pid $!)\"\n{gym_profile_line('results')}\n")
    (run / "logs").mkdir(exist_ok=True)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    ctx.note("(the eval, still running in the background, finished afterwards)")
    try:
        wait_for(lambda: len(gym_rows(ctx)) >= 24, 240, "the background eval", poll_s=2)
    except recipes.RecipeError:
        pass
    time.sleep(3)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    if (run / "results" / "rollouts_reward_profiling.jsonl").exists() or not got:
        raise failed(ctx, f"exit {code}, {len(got)}: {log_of(ctx, 'run_eval.log')[-800:]}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (`gym eval run ... &`, then `gym eval "
            f"profile` without wait) exit {code}; the profile failed, {len(got)} rollouts arrived afterwards, no profile.")


# =====================================================================================================
# data_schema
# =====================================================================================================

FULL_STOP_PAIRS = [("What is the capital of France?", "Paris"), ("What is the capital of Japan?", "Tokyo"),
                   ("What is the capital of Italy?", "Rome"), ("What is the capital of Peru?", "Lima"),
                   ("What is the capital of Germany?", "Berlin"), ("What is the capital of Canada?", "Ottawa"),
                   ("What is the capital of Egypt?", "Cairo"), ("What is the capital of Kenya?", "Nairobi")]
FULL_STOP_FROM_DOC = {"Paris", "Rome", "Berlin", "Cairo"}


@case(
    "data_schema_slurm_labels_copied_from_answer_key_document_keep_sentence_full_stops",
    "data_schema",
    ["expected_answer", "full stop", "string_match.jsonl"],
    "half of the labels were copied from the answer-key document, where each answer is a sentence ending in a full "
    "stop ('Paris.', 'Rome.'); the verifier strips the trailing dot from the model's answer but compares it with the "
    "label as given, so the model's right answers to those tasks scored 0 in the Slurm job, while the other tasks "
    "scored normally (every command exits 0)",
)
def data_schema_slurm_labels_copied_from_answer_key_document_keep_sentence_full_stops(ctx: Ctx) -> str:
    run = ctx.run
    better = truth_checkpoints(ctx, FULL_STOP_PAIRS)[1]
    write_jsonl(run / "string_match.jsonl", [question_row(q, a + "." if a in FULL_STOP_FROM_DOC else a)
                                             for q, a in FULL_STOP_PAIRS])
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(PLAIN_SBATCH, ctx, PIPELINE=pipeline(url)))
    code = submit(ctx, "eval.sbatch")
    got = rows_of(run / "rollouts.jsonl")
    dotted = [r for r in got if str(r.get("expected_answer", "")).endswith(".")]
    right = [r for r in dotted if str(r.get("extracted_answer")).lower() == r["expected_answer"][:-1].lower()]
    plain = [r for r in got if r not in dotted]
    if code or len(got) != 24 or not right or any(rewards(right)) or not any(rewards(plain)):
        raise failed(ctx, f"exit {code}, {len(got)}, right {rewards(right)}, plain {rewards(plain)}")
    return (f"RUN/string_match.jsonl (4 of 8 labels end in '.'); RUN/submit.sh (sbatch of RUN/eval.sbatch: materialize "
            f"8 x 3, collect, profile) exit {code}; {len(right)} right answers to those tasks scored {rewards(right)}, "
            f"other tasks {rewards(plain)}.")


SQUEEZE_PREP = '''"""prepare_data.py: labels.csv (question,answer) -> tasks.jsonl"""
import csv
import json

with open("labels.csv", newline="", encoding="utf-8") as f, open("tasks.jsonl", "w", encoding="utf-8") as out:
    for item in csv.DictReader(f):
        answer = "".join(item["answer"].split())  # the annotation tool leaves stray spaces and tabs in labels
        text = item["question"] + " End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row, ensure_ascii=False) + "\\n")
'''


@case(
    "data_schema_gym_prep_script_removes_every_space_from_labels_so_multiword_answers_are_glued",
    "data_schema",
    ["prepare_data.py", "split", "expected_answer"],
    "prepare_data.py cleans the labels with `''.join(answer.split())`, meant to drop stray spaces the annotation tool "
    "leaves, but it removes every space: multi-word labels became 'NewDelhi', 'BuenosAires', 'KualaLumpur', "
    "'NewYork', so the model's right answers to those tasks scored 0 in the real NeMo Gym eval while one-word answers "
    "scored normally (every command exits 0)",
    netns=True,
)
def data_schema_gym_prep_script_removes_every_space_from_labels_so_multiword_answers_are_glued(ctx: Ctx) -> str:
    run = ctx.run
    better = truth_checkpoints(ctx, MULTIWORD)[1]
    (run / "labels.csv").write_text("question,answer\n" + "".join(f'"{q}",{a}\n' for q, a in MULTIWORD),
                                    encoding="utf-8")
    (run / "prepare_data.py").write_text(SQUEEZE_PREP)
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["echo '== weekly eval'", "python3 prepare_data.py"], overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    glued = {a.replace(" ", ""): a for _, a in MULTIWORD if " " in a}
    multi = [r for r in got if r.get("expected_answer") in glued]
    right = [r for r in multi if str(r.get("extracted_answer")).lower() == glued[r["expected_answer"]].lower()]
    plain = [r for r in got if r not in multi]
    if code or len(got) != 24 or not right or any(rewards(right)) or not any(rewards(plain)):
        raise failed(ctx, f"exit {code}, {len(got)}, right {rewards(right)}, plain {rewards(plain)}")
    return (f"RUN/prepare_data.py (`''.join(answer.split())`) -> RUN/tasks.jsonl; real NeMo Gym 0.7.0 (loopback-only "
            f"namespace) RUN/run_eval.sh exit {code}; {len(right)} right answers to multi-word tasks scored "
            f"{rewards(right)}, other tasks {rewards(plain)}.")


def bom_words(tasks: Path) -> None:
    path = tasks / "sort-unique-words" / "environment" / "words.txt"
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())


@case(
    "data_schema_taskfolder_words_txt_resaved_with_utf8_byte_order_mark",
    "data_schema",
    ["words.txt", "BOM"],
    "sort-unique-words' environment/words.txt was resaved by an editor that writes UTF-8 with a byte order mark; "
    "the invisible BOM sticks to the first word ('\\ufeffpear'), so the agent's right `sort -u` output holds "
    "'\\ufeffpear' (sorted last) instead of 'pear' and never equals the test's expectation: every episode of that "
    "task scored 0 while the other task scored normally (every command exits 0)",
)
def data_schema_taskfolder_words_txt_resaved_with_utf8_byte_order_mark(ctx: Ctx) -> str:
    tasks = user_taskset(ctx, ["sort-unique-words", "create-greeting"], bom_words)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'",
                                                          "head -c 16 tasks/sort-unique-words/environment/words.txt | od -c"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    words = task_rows(ctx, "sort-unique-words")
    other = task_rows(ctx, "create-greeting")
    solved = [r for r in words if "sort -u" in json.dumps(r)]
    if code or not solved or any(rewards(solved)) or not any(rewards(other)):
        raise failed(ctx, f"exit {code}, words {rewards(words)}, solved {len(solved)}, other {rewards(other)}")
    return (f"RUN/tasks/sort-unique-words/environment/words.txt starts with a UTF-8 BOM; RUN/run_tasks.sh exit {code}; "
            f"the {len(solved)} episodes that ran `sort -u` scored {rewards(solved)}; create-greeting rewards "
            f"{rewards(other)}.")


PRETTY_PREP = '''"""prepare_data.py: labels.csv (question,answer) -> string_match.jsonl (indented, easier to review in diffs)"""
import csv
import json

with open("labels.csv", newline="", encoding="utf-8") as f, open("string_match.jsonl", "w", encoding="utf-8") as out:
    for item in csv.DictReader(f):
        text = item["question"] + " End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": item["answer"], "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row, indent=2, ensure_ascii=False) + "\\n")
'''


@case(
    "data_schema_builtin_prep_writes_rows_indented_over_many_lines_for_review_diffs",
    "data_schema",
    ["prepare_data.py", "indent", "JSONL"],
    "prepare_data.py was changed to write each row with `json.dumps(row, indent=2)` so reviewers get readable diffs; "
    "the rows now span many lines each, and a JSONL reader reads one row per line: materialize could not parse the "
    "dataset and run_eval.sh produced no rollouts and no profile",
)
def data_schema_builtin_prep_writes_rows_indented_over_many_lines_for_review_diffs(ctx: Ctx) -> str:
    run = ctx.run
    better = truth_checkpoints(ctx, FULL_STOP_PAIRS)[1]
    (run / "labels.csv").write_text("question,answer\n" + "".join(f'"{q}",{a}\n' for q, a in FULL_STOP_PAIRS),
                                    encoding="utf-8")
    (run / "prepare_data.py").write_text(PRETTY_PREP)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["echo '== weekly eval'", "python3 prepare_data.py",
                                  "echo \"prepared $(wc -l < string_match.jsonl) lines\""], "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    if complete(ctx) or (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log_of(ctx, 'run_eval.log')[-800:]}")
    return (f"RUN/prepare_data.py (`json.dumps(row, indent=2)`) -> RUN/string_match.jsonl (rows over many lines); "
            f"RUN/run_eval.sh (materialize, collect, profile) exit {code}; no rollouts, no profile.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

NONWORD_VERIFIER = '''"""my_verifier.py: the answer after 'Final answer:', punctuation dropped, compared with the label."""
import re

FINAL = re.compile(r"Final answer:\\s*(.+)", re.IGNORECASE)


def score(row, response_text):
    found = FINAL.findall(response_text)
    answer = re.sub(r"\\W", "", found[-1]) if found else None  # drop the dots, quotes and asterisks models add
    reward = 1.0 if answer is not None and answer.lower() == row["expected_answer"].strip().lower() else 0.0
    return {"reward": reward, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
'''


@case(
    "verifier_runtime_stage_workspace_verifier_drops_non_word_characters_from_answer_only_so_spaces_go_too",
    "verifier_runtime",
    ["my_verifier.py", "\\W", "re.sub"],
    "the workspace verifier my_verifier.py removes punctuation from the model's answer with `re.sub(r'\\W', '', ...)`; "
    "\\W also matches spaces, and the label is not cleaned the same way, so every right answer with more than one word "
    "('New Delhi' became 'NewDelhi') scored 0 while one-word answers scored normally (every command exits 0)",
)
def verifier_runtime_stage_workspace_verifier_drops_non_word_characters_from_answer_only_so_spaces_go_too(
        ctx: Ctx) -> str:
    run = ctx.run
    data = write_jsonl(run / "capitals.jsonl", [question_row(q, a) for q, a in MULTIWORD])
    better = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    sweep = workspace_sweep(ctx, "capitals", data, better, {"verifier": "my_verifier:score"}, NONWORD_VERIFIER,
                            num_repeats=3, concurrency=4)
    script = workspace_script(ctx, sweep, better, "capitals", url, ["echo '== weekly eval'"])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    multi = [r for r in got if " " in r.get("expected_answer", "")]
    said = [r for r in multi if f"final answer: {r['expected_answer']}".lower() in json.dumps(r.get("response")).lower()]
    plain = [r for r in got if r not in multi]
    if code or len(got) != 24 or not said or any(rewards(said)) or not any(rewards(plain)):
        raise failed(ctx, f"exit {code}, {len(got)}, said {len(said)} {rewards(said)}, plain {rewards(plain)}")
    return (f"RUN/verifiers/my_verifier.py (`re.sub(r'\\W', '', answer)`); RUN/run_eval.sh (stages materialize 8 x 3, "
            f"collect, profile) exit {code}; {len(said)} right multi-word answers scored {rewards(said)}, one-word "
            f"tasks {rewards(plain)}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

LN_LINES = [
    "echo '== weekly eval'",
    "# point current/ at this week's dataset version",
    "ln -sf datasets/v2 current",
    "ls -l current current/",
]


@case(
    "cache_resume_gym_ln_sf_onto_existing_directory_symlink_leaves_current_on_last_weeks_dataset",
    "cache_resume",
    ["ln -sfn", "current"],
    "run_eval.sh switches the dataset with `ln -sf datasets/v2 current`; `current` already was a symlink to last "
    "week's datasets/v1, and without -n ln follows it and creates datasets/v1/v2 instead of replacing the link, so "
    "the eval read current/tasks.jsonl from v1: the three labels fixed in v2 were not used and the model's right "
    "answers to them scored 0 (every command exits 0)",
    netns=True,
)
def cache_resume_gym_ln_sf_onto_existing_directory_symlink_leaves_current_on_last_weeks_dataset(ctx: Ctx) -> str:
    run = ctx.run
    better = truth_checkpoints(ctx, [(q, a) for q, a, _ in CAPITALS_WRONG])[1]
    write_jsonl(run / "datasets" / "v1" / "tasks.jsonl", [question_row(q, wrong or a) for q, a, wrong in CAPITALS_WRONG])
    ctx.note("(last week: `ln -s datasets/v1 current`)")
    ctx.sh("ln -s datasets/v1 current", "logs/last_week.log", cwd=run)
    ctx.note("(this week: the data team's v2 with three labels fixed)")
    write_jsonl(run / "datasets" / "v2" / "tasks.jsonl", [question_row(q, a) for q, a, _ in CAPITALS_WRONG])
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "current/tasks.jsonl", LN_LINES, overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    fixed = {wrong: a for _, a, wrong in CAPITALS_WRONG if wrong}
    stale = [r for r in got if r.get("expected_answer") in fixed]
    right = [r for r in stale if str(r.get("extracted_answer")).lower() == fixed[r["expected_answer"]].lower()]
    if code or len(got) != 24 or not right or any(rewards(right)) \
            or not (run / "datasets" / "v1" / "v2").is_symlink():
        raise failed(ctx, f"exit {code}, {len(got)}, stale {len(stale)}, right {rewards(right)}")
    return (f"`ln -sf datasets/v2 current` made RUN/datasets/v1/v2, RUN/current still -> datasets/v1; real NeMo Gym "
            f"0.7.0 (loopback-only namespace) RUN/run_eval.sh exit {code}; {len(stale)} rollouts on the old labels, "
            f"{len(right)} right answers scored {rewards(right)}; mean reward {mean(rewards(got)):.2f}.")


SHARD_SCRIPT = """#!/bin/bash
# run_eval.sh MODEL_URL: the weekly eval in two shards, merged
cd RUN_DIR
echo "== weekly eval against $1"
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
rm -rf shards && mkdir shards && split -n l/2 -d rollouts_materialized_inputs.jsonl shards/part_
for shard in shards/part_0*; do
  GP_BIN collect --inputs $shard --output $shard.rollouts.jsonl --model-url $1 --env string_match --concurrency 4
done
cat shards/*.rollouts.jsonl >> rollouts.jsonl
wc -l rollouts.jsonl
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "cache_resume_builtin_shard_merge_appends_with_double_redirect_onto_last_weeks_merged_rollouts",
    "cache_resume",
    ["run_eval.sh", ">>", "rollouts.jsonl"],
    "run_eval.sh merges its shards with `cat shards/*.rollouts.jsonl >> rollouts.jsonl`; the run folder is reused "
    "every week and last week's merged rollouts.jsonl (of the previous checkpoint) was still there, so this week's "
    "rollouts were appended after last week's and the profile read both: the report mixes the two checkpoints' "
    "rollouts under the same task keys",
)
def cache_resume_builtin_shard_merge_appends_with_double_redirect_onto_last_weeks_merged_rollouts(ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 34)
    script = run / "run_eval.sh"
    script.write_text(slurm_script(SHARD_SCRIPT, ctx))
    old_url, old = ctx.policy(weaker, "--latency-ms 20", log="logs/model_server_last_week.log")
    ctx.note("(last week: the previous checkpoint, step_0100)")
    ctx.sh(f"bash {script} {old_url}", "logs/run_eval_last_week.log", timeout=400)
    ctx.stop(old)
    first = len(rows_of(run / "rollouts.jsonl"))
    if first != 24:
        raise failed(ctx, f"last week's run: {first} rows")
    ctx.note("(this week: step_0200)")
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = ctx.sh(f"bash {script} {url}", "logs/run_eval.log", timeout=400)
    lines = rows_of(run / "rollouts.jsonl")
    if len(lines) != 48:
        raise failed(ctx, f"exit {code}, {len(lines)} rows: {log_of(ctx, 'run_eval.log')[-600:]}")
    return (f"RUN/run_eval.sh (`cat shards/*.rollouts.jsonl >> rollouts.jsonl`) run last week (step_0100) and this week "
            f"(step_0200) in the same folder; this week's run exit {code}; RUN/rollouts.jsonl holds {len(lines)} rows "
            f"for 24 rollouts; profile written: {(run / 'rollouts_reward_profiling.jsonl').exists()}.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

NOFILE_NOTE = ("(the eval nodes' login limits, from a hardening baseline: /etc/security/limits.d/90-nofile.conf "
               "`* soft nofile 20`, so every login shell starts with `ulimit -n` 20)")


@case(
    "throughput_builtin_login_limits_cap_open_files_at_twenty_so_concurrent_collect_runs_out_of_descriptors",
    "throughput_resources",
    ["ulimit", "nofile", "--concurrency"],
    "the eval nodes' login limits cap open files at 20 (`soft nofile 20`); the collect with --concurrency 16 needs a "
    "socket per request in flight on top of Python's own files, so it ran out of file descriptors ('Too many open "
    "files'): requests failed, rollouts are missing and no profile was written, though the model server and data "
    "are fine",
)
def throughput_builtin_login_limits_cap_open_files_at_twenty_so_concurrent_collect_runs_out_of_descriptors(
        ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 62)
    url, _ = ctx.policy(better, "--latency-ms 300")
    ctx.note(NOFILE_NOTE)
    script = builtin_script(ctx, ["echo \"== weekly eval (open files limit: $(ulimit -n))\""], "string_match.jsonl",
                            url, repeats=4, concurrency=16)
    code = ctx.sh(f"ulimit -Sn 20; bash {script}", "logs/run_eval.log", timeout=400)
    log = log_of(ctx, "run_eval.log") + text_of(run / "rollouts_failures.jsonl")
    if complete(ctx) >= 32 or (run / "rollouts_reward_profiling.jsonl").exists() or "open files" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-800:]}")
    return (f"`ulimit -n` 20 from the login limits; RUN/run_eval.sh (materialize 8 x 4, collect --concurrency 16, "
            f"profile) exit {code}; {complete(ctx)} of 32 rollouts ('Too many open files'), no profile.")


WARMUP_SBATCH = """#!/bin/bash
#SBATCH --job-name=sm-weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=1
#SBATCH --ntasks=1
cd RUN_DIR
echo "weekly eval on $(hostname), job $SLURM_JOB_ID, started $(date +%T)"
# from the GPU template: give vLLM time to load the weights before the first request
sleep 50
echo "warm-up over $(date +%T)"
PIPELINE"""


@case(
    "throughput_slurm_one_minute_job_spends_most_of_it_in_warm_up_sleep_copied_from_gpu_template",
    "throughput_resources",
    ["eval.sbatch", "sleep", "--time"],
    "the user's one-minute eval.sbatch kept the GPU template's `sleep 50` (time for vLLM to load its weights), "
    "although this job talks to a model server that is already up; the sleep ate most of the time limit, and the "
    "collect (16 tasks x 4 against a 2 s model) was killed at the limit (TIMEOUT) with rollouts missing and no profile",
)
def throughput_slurm_one_minute_job_spends_most_of_it_in_warm_up_sleep_copied_from_gpu_template(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 16, 20)
    url, _ = ctx.policy(better, "--latency-ms 2000")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(WARMUP_SBATCH, ctx, PIPELINE=pipeline(url, repeats="4", concurrency="2")))
    code = submit(ctx, "eval.sbatch", timeout=600)
    job = job_logs(ctx, "eval_*.log")
    got = complete(ctx)
    if got >= 64 or (run / "rollouts_reward_profiling.jsonl").exists() or "warm-up over" not in job \
            or "TIME LIMIT" not in job.upper():
        raise failed(ctx, f"exit {code}, {got}: {job[-800:]}")
    return (f"RUN/eval.sbatch (`--time=1`, `sleep 50`, materialize 16 x 4, collect --concurrency 2 against a 2 s model, "
            f"profile); RUN/submit.sh exit {code}; the job hit its time limit, {got} of 64 rollouts, no profile.")


if __name__ == "__main__":
    sys.exit(main("forty_fifth_held_out", __file__, __doc__))
