"""Build the THIRTY-FIRST HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/thirty_first_held_out.py --out tests/data/diagnosis_corpus/thirty_first_held_out [--only CASE ...]

This set was written from the guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder
troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests
or their results. It is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
task folders run in Docker sandboxes, Slurm batch jobs, the real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` /
`gym eval profile` inside a loopback-only network namespace, with a user's own resources server), and the user's own
shell scripts, settings files, helper servers (gateways), node scripts, task files and data-preparation scripts. The
output of every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written
by hand but the user's own inputs (data, scripts, settings, verifier code). Each case injects one cause, different in
mechanism from those of the thirty earlier sets (first_held_out.py ... thirtieth_held_out.py), and each recipe
checks that its fault really happened (it raises RecipeError otherwise, and the case is not written). About half of
the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare,
iptables inside a private network namespace), Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this checkout.
Run it from a foreground shell.
"""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import checkpoints, failed, gym_start, stop_gym, task_checkpoints, user_taskset  # noqa: E402
from fourteenth_held_out import mean, rewards  # noqa: E402
from recipes import GP, GYM, Ctx, case, gym_model_args, main, rows_of, text_of, unique_keys, wait_for  # noqa: E402
from tenth_held_out import in_log  # noqa: E402
from thirtieth_held_out import AMP_QUESTIONS, CI_GATEWAY_COLLECT, gateway_url, gym_rows  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_fifth_held_out import job_logs, task_rows  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_seventh_held_out import builtin_script, gym_eval_with_own_server, submit_and_wait  # noqa: E402
from twenty_sixth_held_out import gym_run, slurm_script  # noqa: E402
from twenty_third_held_out import taskset_script, write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# healthy
# =====================================================================================================

PLOT_SCRIPT = '''#!/usr/bin/env python3
"""plot_rewards.py: a bar chart of the mean reward a task (the team's notebook style)"""
import json

import seaborn as sns

rows = [json.loads(line) for line in open("rollouts.jsonl")]
sns.barplot(x=[r["task_index"] for r in rows], y=[r["reward"] for r in rows]).figure.savefig("rewards.png")
'''


@case(
    "healthy_builtin_run_script_plots_rewards_without_seaborn_installed",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh ends with an optional chart of the rewards (`python3 plot_rewards.py || "
    "echo ...`); seaborn is not installed in this environment, so the log ends with a Python traceback "
    "('ModuleNotFoundError: No module named seaborn'), but materialize, collect and profile had completed every rollout",
)
def healthy_builtin_run_script_plots_rewards_without_seaborn_installed(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 4)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "plot_rewards.py").write_text(PLOT_SCRIPT)
    script = builtin_script(ctx, ["echo \"== weekly eval, $(date)\""], "string_match.jsonl", url)
    script.write_text(script.read_text() + "python3 plot_rewards.py || echo '(no reward chart this week)'\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code or got != 24 or not in_log(ctx, "No module named 'seaborn'", "logs/run_eval.log") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (materialize 8 tasks x 3, collect, profile, then plot_rewards.py importing seaborn, not "
            f"installed) exit {code}; {got} rollouts, mean reward {mean(rewards(rows_of(run / 'rollouts.jsonl'))):.2f}.")


@case(
    "healthy_gym_run_script_reads_model_card_with_jq_before_it_exists",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh first prints the model version from model_card.json with jq (`jq -r "
    ".model_version model_card.json || echo ...`); the card is only written by the release job, so the log opens with "
    "'jq: error: Could not open file model_card.json', but the real NeMo Gym eval then collected, verified and "
    "profiled every rollout",
    netns=True,
)
def healthy_gym_run_script_reads_model_card_with_jq_before_it_exists(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=60, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["jq -r .model_version model_card.json || echo '(model version unknown)'",
                                        "echo '== weekly eval'"], overrides)
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if code or got != 18 or not in_log(ctx, "Could not open", "logs/run_eval.log") \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (jq of a missing model_card.json, then "
            f"`gym eval run --no-serve` 6 tasks x 3, `gym eval profile`) exit {code}, {got} rollouts, mean reward "
            f"{mean(rewards(gym_rows(ctx))):.2f}.")


@case(
    "healthy_taskfolder_run_script_removes_cache_volume_that_does_not_exist",
    "healthy",
    [],
    "nothing is wrong: the user's run_tasks.sh starts by clearing the team's Docker cache volume (`docker volume rm "
    "weekly-eval-cache || echo ...`), which does not exist on this machine, so the log opens with 'Error response from "
    "daemon: ... no such volume', but every episode of the taskset ran in its Docker sandbox, was verified and profiled",
)
def healthy_taskfolder_run_script_removes_cache_volume_that_does_not_exist(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["replace-spelling", "sort-unique-words"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, [
        "docker volume rm weekly-eval-cache || echo '(no cache volume to clear)'", "echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    if code or len(unique_keys(run / "rollouts.jsonl")) != 4 or not any(rewards(got)) \
            or "no such volume" not in text_of(run / "logs" / "run_tasks.log").lower():
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/run_tasks.sh (`docker volume rm` of a volume that does not exist; `gym-pipeline stage` materialize, "
            f"collect, profile of RUN/tasks x 2) exit {code}; rewards {rewards(got)}.")


@case(
    "healthy_builtin_run_script_archives_results_with_rsync_not_installed",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh ends by copying the results to the team's archive host (`rsync -a "
    "rollouts*.jsonl archive:/evals/ || echo ...`); rsync is not installed on this node, so the log ends with 'rsync: "
    "command not found', but materialize, collect and profile had completed every rollout in the run folder",
)
def healthy_builtin_run_script_archives_results_with_rsync_not_installed(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 60)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["echo \"== weekly eval, $(date)\""], "string_match.jsonl", url)
    script.write_text(script.read_text() + "rsync -a rollouts*.jsonl archive:/evals/weekly/ || echo '(results not "
                      "archived this week)'\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code or got != 24 or not in_log(ctx, "rsync: command not found", "logs/run_eval.log") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (materialize 8 tasks x 3, collect, profile, then rsync, not installed) exit {code}; {got} "
            f"rollouts, mean reward {mean(rewards(rows_of(run / 'rollouts.jsonl'))):.2f}.")


RESERVATION_SBATCH = """#!/bin/bash
#SBATCH --job-name=nightly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
cd RUN_DIR
# the wiki's template: show the GPU reservation the big evals run in (there is none for this small one)
scontrol show reservation nightly_gpu_eval || echo "(no reservation to show)"
echo "nightly eval on $(hostname)"
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 4
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "healthy_slurm_job_shows_reservation_that_does_not_exist",
    "healthy",
    [],
    "nothing is wrong: the user's nightly.sbatch, copied from the wiki's template for big evals, starts with `scontrol "
    "show reservation nightly_gpu_eval`; there is no such reservation on this cluster, so the job log opens with "
    "'Reservation nightly_gpu_eval not found', but the job itself needs no reservation and materialize, collect and "
    "profile completed every rollout",
)
def healthy_slurm_job_shows_reservation_that_does_not_exist(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 68)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "nightly.sbatch").write_text(slurm_script(RESERVATION_SBATCH, ctx, MODEL_URL=url))
    code = submit_and_wait(ctx, "nightly.sbatch", "logs/submit.log")
    logs = job_logs(ctx, "eval_*.log")
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code or got != 24 or "reservation" not in logs.lower() or "(no reservation to show)" not in logs \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {logs[-600:]}")
    return (f"RUN/submit.sh (sbatch of RUN/nightly.sbatch: `scontrol show reservation` of none, materialize 8 x 3, "
            f"collect, profile) exit {code}; {got} rollouts, mean reward "
            f"{mean(rewards(rows_of(run / 'rollouts.jsonl'))):.2f}.")


# =====================================================================================================
# infra
# =====================================================================================================

CUDA_NODE_ENV = """# node settings of the eval nodes (from the cluster wiki): CUDA tools first on the PATH
export PATH=/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export CUDA_HOME=/usr/local/cuda
"""

PATH_SCRIPT = """#!/bin/bash
# weekly eval
cd RUN_DIR
export PATH=VENV_BIN:$PATH   # the project's venv (gym-pipeline)
source ./node_env.sh
echo "== weekly eval with $(command -v gym-pipeline || echo 'no gym-pipeline on PATH')"
gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 4
gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "infra_builtin_node_env_file_replaces_path_instead_of_prepending",
    "infra",
    ["node_env.sh", "PATH"],
    "the node settings file node_env.sh, sourced by the user's run_eval.sh after it put the project's venv on the "
    "PATH, sets PATH to a fixed list (`export PATH=/usr/local/cuda/bin:...:/bin`, no `:$PATH`); the venv's bin folder "
    "was dropped, so every `gym-pipeline` command failed with 'gym-pipeline: command not found' and nothing was "
    "collected",
)
def infra_builtin_node_env_file_replaces_path_instead_of_prepending(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 12)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "node_env.sh").write_text(CUDA_NODE_ENV)
    (run / "run_eval.sh").write_text(slurm_script(PATH_SCRIPT, ctx, VENV_BIN=str(GP.parent), MODEL_URL=url))
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=300)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got or not in_log(ctx, "gym-pipeline: command not found", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (venv on PATH, then `source node_env.sh`, which sets PATH without the venv; "
            f"gym-pipeline materialize, collect, profile) exit {code}; {got} rollouts.")


PLATLIB_SBATCH = """#!/bin/bash
#SBATCH --job-name=nightly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
cd RUN_DIR
source node_env.sh
echo "nightly eval on $(hostname)"
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 4
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""

PLATLIB_NODE_ENV = """# node settings of the eval nodes (kept from the old RHEL image, whose Python keeps its modules in lib64)
export PYTHONPLATLIBDIR=lib64
export OMP_NUM_THREADS=4
"""


@case(
    "infra_slurm_job_node_env_sets_pythonplatlibdir_of_old_image",
    "infra",
    ["node_env.sh", "PYTHONPLATLIBDIR"],
    "the job sources the eval nodes' node_env.sh, kept from the old RHEL image, which exports PYTHONPLATLIBDIR=lib64; "
    "this node's Python keeps its modules in lib, so every Python program the job started could not find its "
    "standard library ('Could not find platform dependent libraries', 'Fatal Python error: init_fs_encoding') and "
    "nothing was collected",
)
def infra_slurm_job_node_env_sets_pythonplatlibdir_of_old_image(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 76)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "node_env.sh").write_text(PLATLIB_NODE_ENV)
    (run / "nightly.sbatch").write_text(slurm_script(PLATLIB_SBATCH, ctx, MODEL_URL=url))
    code = submit_and_wait(ctx, "nightly.sbatch", "logs/submit.log")
    logs = job_logs(ctx, "eval_*.log")
    got = len(rows_of(run / "rollouts.jsonl"))
    if got or "Fatal Python error" not in logs:
        raise failed(ctx, f"exit {code}, {got}: {logs[-600:]}")
    return (f"RUN/submit.sh (sbatch of RUN/nightly.sbatch, which sources RUN/node_env.sh: PYTHONPLATLIBDIR=lib64) "
            f"exit {code}; {got} rollouts.")


# =====================================================================================================
# model_serving
# =====================================================================================================

PIN_MODEL_HOOK = '''
DEFAULT_MODEL = "llama-3-8b-instruct"  # the gateway's default deployment: every request is routed to it


def completion(handler, body):
    request = json.loads(body)
    request["model"] = DEFAULT_MODEL
    return handler._upstream(json.dumps(request).encode())
'''


@case(
    "model_serving_builtin_gateway_pins_every_request_to_retired_default_model",
    "model_serving",
    ["gateway.py", "DEFAULT_MODEL"],
    "the model server is reached through the team's gateway.py, which rewrites the model of every request to its "
    "default deployment (DEFAULT_MODEL = 'llama-3-8b-instruct'), a model the server behind it no longer serves; the "
    "server refused every chat completion as an unknown model and no rollout was collected",
)
def model_serving_builtin_gateway_pins_every_request_to_retired_default_model(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 20)
    url, _ = ctx.policy(better, "--latency-ms 20")
    gateway = gateway_url(ctx, url, "Every request goes to DEFAULT_MODEL.", PIN_MODEL_HOOK)
    script = builtin_script(ctx, ["echo '== weekly eval, through the gateway'"], "string_match.jsonl", gateway)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    fails = rows_of(run / "rollouts_failures.jsonl")
    if got and any(rewards(got)) or "llama-3-8b-instruct" not in (json.dumps(fails) + text_of(run / "logs" /
                                                                   "run_eval.log") + text_of(run / "logs" /
                                                                   "model_server.log")):
        raise failed(ctx, f"exit {code}, {len(got)}, {len(fails)} failure rows")
    return (f"RUN/gateway.py (model rewritten to DEFAULT_MODEL) in front of the simulated policy; RUN/run_eval.sh "
            f"(materialize 8 x 3, collect through the gateway, profile) exit {code}; {len(got)} rollouts, "
            f"{len(fails)} failure rows.")


ESCAPE_HOOK = '''
import html

ESCAPE_HTML = True  # the replies are shown in the web chat: escape them once here


def completion(handler, body):
    status, data = handler._upstream(body)
    if status != 200 or not ESCAPE_HTML:
        return status, data
    answer = json.loads(data)
    for choice in answer.get("choices", []):
        message = choice.get("message") or {}
        if isinstance(message.get("content"), str):
            message["content"] = html.escape(message["content"])
    return status, json.dumps(answer).encode()
'''


@case(
    "model_serving_gym_gateway_html_escapes_replies_for_web_chat",
    "model_serving",
    ["gateway.py", "ESCAPE_HTML"],
    "the model server is reached through the team's gateway.py, which HTML-escapes every reply for the web chat "
    "(ESCAPE_HTML = True); the model's answers 'AT&T' and 'Procter & Gamble' reached the real NeMo Gym verifier as "
    "'AT&amp;T' and 'Procter &amp; Gamble' and scored 0, while the other answers scored normally (everything exits 0)",
    netns=True,
)
def model_serving_gym_gateway_html_escapes_replies_for_web_chat(ctx: Ctx) -> str:
    run = ctx.run
    data = write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in AMP_QUESTIONS])
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    gateway = gateway_url(ctx, url, "Replies are HTML-escaped (ESCAPE_HTML).", ESCAPE_HOOK)
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(gateway)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["echo '== weekly eval, through the gateway'"], overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    amp = [row for row in got if "&" in str(row.get("expected_answer"))]
    others = [row for row in got if row not in amp]
    if code or len(got) != 18 or len(amp) != 6 or any(rewards(amp)) or not any(rewards(others)) \
            or "&amp;" not in json.dumps(amp):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(amp)}, {rewards(others)}")
    return (f"RUN/gateway.py (ESCAPE_HTML: replies html.escape'd) in front of the simulated policy; real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) RUN/run_eval.sh exit {code}; '&' answers rewards {rewards(amp)}, the others "
            f"mean reward {mean(rewards(others)):.2f}.")


# =====================================================================================================
# config
# =====================================================================================================

LONG_NAME_SCRIPT = """#!/bin/bash
# weekly eval: the output names say what was run (the dashboard parses them)
cd RUN_DIR
CHECKPOINT=/lustre/projects/post-training/string-match/runs/2026-11-27_lr3e-6_kl0.02_warmup200/checkpoints/step_0200
NOTE="weekly eval of the string match tasks with the sampling settings of the November tuning sweep"
TAG=$(echo "$CHECKPOINT $NOTE repeats=3 concurrency=4 temperature=0.7 top_p=0.95 max_tokens=1024 seed=1234 judge=none" | tr ' /=' '___')
echo "== weekly eval, tag $TAG"
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts_$TAG.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 4
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts_$TAG.jsonl
"""


@case(
    "config_builtin_output_name_built_from_settings_exceeds_file_name_limit",
    "config",
    ["run_eval.sh", "TAG"],
    "the user's run_eval.sh names the rollouts file after everything that was run (TAG: the checkpoint's full path, "
    "a note and the settings); the name is over 255 bytes, the file system's limit for one file name, so collect "
    "could not create its output ('File name too long') and nothing was collected",
)
def config_builtin_output_name_built_from_settings_exceeds_file_name_limit(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 28)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "run_eval.sh").write_text(slurm_script(LONG_NAME_SCRIPT, ctx, MODEL_URL=url))
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=300)
    got = sum(len(rows_of(p)) for p in run.glob("rollouts_*.jsonl") if "materialized" not in p.name)
    if got or not in_log(ctx, "too long", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}: {text_of(run / 'logs' / 'run_eval.log')[-800:]}")
    return (f"RUN/run_eval.sh (collect --output rollouts_$TAG.jsonl, a name over 255 bytes) exit {code}; {got} "
            f"rollouts.")


@case(
    "config_gym_run_script_brace_pattern_in_variable_assignment_not_expanded",
    "config",
    ["run_eval.sh", "{easy,hard}"],
    "the user's run_eval.sh joins the two splits with `SPLITS=data/{easy,hard}.jsonl` then `cat $SPLITS > tasks.jsonl`; "
    "bash does not expand braces in an assignment nor in a variable's value, so cat looked for a file literally named "
    "'data/{easy,hard}.jsonl', tasks.jsonl was left empty and the real NeMo Gym eval had no task to run",
    netns=True,
)
def config_gym_run_script_brace_pattern_in_variable_assignment_not_expanded(ctx: Ctx) -> str:
    run = ctx.run
    (run / "data").mkdir()
    easy = ctx.dataset("string_match", 3, start=6, folder=run / "data", name="easy.jsonl")
    ctx.dataset("string_match", 3, start=9, folder=run / "data", name="hard.jsonl")
    both = ctx.dataset("string_match", 6, start=6, name="both.jsonl")
    better = checkpoints(ctx, "string_match", both)[1]
    del easy
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["SPLITS=data/{easy,hard}.jsonl", "cat $SPLITS > tasks.jsonl",
                                        "echo \"== weekly eval of $SPLITS: $(wc -l < tasks.jsonl) tasks\""], overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    if got or text_of(run / "tasks.jsonl").strip() or not in_log(ctx, "{easy,hard}", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {len(got)}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (SPLITS=data/{{easy,hard}}.jsonl; cat "
            f"$SPLITS > tasks.jsonl: empty; gym eval run, gym eval profile) exit {code}; {len(got)} rollouts.")


BEGIN_SBATCH = """#!/bin/bash
#SBATCH --job-name=ci-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --begin=02:00
cd RUN_DIR
echo "CI eval on $(hostname)"
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 4
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""

CI_SUBMIT = """#!/bin/bash
# CI eval step: submit the eval job, wait up to 60 s for it, cancel it when the step's budget is over
cd RUN_DIR
JOB=$(sbatch --parsable ci_eval.sbatch)
echo "submitted job $JOB"
for i in $(seq 30); do
  squeue -h -j $JOB 2>/dev/null | grep -q . || break
  sleep 2
done
squeue -j $JOB -o '%.10i %.9P %.12j %.8T %.10M %R'
if squeue -h -j $JOB 2>/dev/null | grep -q .; then
  echo "job $JOB still queued after 60 s: cancelling (CI step budget)"
  scancel $JOB
fi
"""


@case(
    "config_slurm_ci_job_keeps_begin_time_of_nightly_template",
    "config",
    ["#SBATCH --begin", "ci_eval.sbatch"],
    "the user's ci_eval.sbatch was made from the nightly job's template and kept its `#SBATCH --begin=02:00`, so "
    "Slurm held the CI eval job until 2 a.m. (state PENDING, reason BeginTime); the CI step's wait ran out and "
    "cancelled the job, which never ran: nothing was collected",
)
def config_slurm_ci_job_keeps_begin_time_of_nightly_template(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 14)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "ci_eval.sbatch").write_text(slurm_script(BEGIN_SBATCH, ctx, MODEL_URL=url))
    (run / "submit.sh").write_text(slurm_script(CI_SUBMIT, ctx))
    code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=200)
    log = text_of(run / "logs" / "submit.log")
    got = len(rows_of(run / "rollouts.jsonl"))
    if got or "BeginTime" not in log or "cancelling" not in log:
        raise failed(ctx, f"exit {code}, {got}: {log[-800:]}")
    return (f"RUN/submit.sh (sbatch of RUN/ci_eval.sbatch with #SBATCH --begin=02:00; 60 s wait, then scancel) exit "
            f"{code}; job pending on BeginTime, {got} rollouts.")


# =====================================================================================================
# data_schema
# =====================================================================================================

ALT_QUESTIONS = [("What is the capital of France?", ["Paris", "City of Paris"]),
                 ("Who wrote Hamlet?", ["William Shakespeare", "Shakespeare"]),
                 ("What is the largest planet in the solar system?", ["Jupiter"]),
                 ("What is the chemical symbol for water?", ["H2O"]),
                 ("Which ocean is the largest?", ["Pacific", "Pacific Ocean"]),
                 ("How many continents are there?", ["7"])]

PREP_ALTERNATIVES = '''#!/usr/bin/env python3
"""question_bank.json (question + accepted answers) -> tasks.jsonl"""
import json
import sys

items = json.load(open(sys.argv[1]))
with open(sys.argv[2], "w") as out:
    for item in items:
        text = f"{item['question']} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               # several accepted answers: the grader takes any of them ("a|b")
               "expected_answer": "|".join(item["accepted_answers"]),
               "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
print(f"prep_data.py: {len(items)} rows -> {sys.argv[2]}")
'''


@case(
    "data_schema_builtin_accepted_answers_joined_with_pipe_into_one_label",
    "data_schema",
    ["prep_data.py", "accepted_answers", "|"],
    "prep_data.py writes each task's accepted answers as one label joined with '|' ('Paris|City of Paris'), "
    "believing the grader takes any of them; string_match compares the answer with the whole label, so every task "
    "with more than one accepted answer scored 0 although the model answered 'Paris', while the single-answer tasks "
    "scored normally (everything exits 0)",
)
def data_schema_builtin_accepted_answers_joined_with_pipe_into_one_label(ctx: Ctx) -> str:
    run = ctx.run
    truth = write_jsonl(ctx.work / "truth.jsonl", [question_row(q, a[0]) for q, a in ALT_QUESTIONS])
    better = checkpoints(ctx, "string_match", truth)[1]
    (run / "question_bank.json").write_text(json.dumps(
        [{"question": q, "accepted_answers": a} for q, a in ALT_QUESTIONS], indent=1) + "\n")
    (run / "prep_data.py").write_text(PREP_ALTERNATIVES)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["python3 prep_data.py question_bank.json tasks.jsonl"], "tasks.jsonl", url,
                            comment="eval of the question bank")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    joined = [row for row in got if "|" in str(row.get("expected_answer"))]
    others = [row for row in got if row not in joined]
    if code or len(got) != 18 or len(joined) != 9 or any(rewards(joined)) or not any(rewards(others)):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(joined)}, {rewards(others)}")
    return (f"RUN/question_bank.json -> RUN/prep_data.py ('|'.join of the accepted answers) -> RUN/tasks.jsonl; "
            f"RUN/run_eval.sh (materialize 6 x 3, collect, profile) exit {code}; joined-label rewards "
            f"{rewards(joined)}, the others mean reward {mean(rewards(others)):.2f}.")


@case(
    "data_schema_taskfolder_instruction_resaved_as_utf16",
    "data_schema",
    ["instruction.md"],
    "create-greeting's instruction.md was re-saved by an editor in UTF-16 (with a byte-order mark) instead of UTF-8; "
    "the agent was given an unreadable instruction for that task and none of its episodes got a reward, while the "
    "other task of the taskset ran normally",
)
def data_schema_taskfolder_instruction_resaved_as_utf16(ctx: Ctx) -> str:
    tasks = user_taskset(ctx, ["create-greeting", "replace-spelling"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    instruction = tasks / "create-greeting" / "instruction.md"
    instruction.write_bytes(instruction.read_text().encode("utf-16"))
    ctx.note("(RUN/tasks/create-greeting/instruction.md re-saved by an editor as UTF-16)")
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    greet = task_rows(ctx, "create-greeting")
    other = task_rows(ctx, "replace-spelling")
    if any(rewards(greet)) or not any(rewards(other)):
        raise failed(ctx, f"exit {code}, greeting {rewards(greet)}, other {rewards(other)}")
    return (f"RUN/tasks/create-greeting/instruction.md in UTF-16; RUN/run_tasks.sh (`gym-pipeline stage` materialize, "
            f"collect, profile, 2 tasks x 2) exit {code}; create-greeting rewards {rewards(greet)} ({len(greet)} rows), "
            f"replace-spelling rewards {rewards(other)}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

ACCENT_QUESTIONS = [("What is the capital of Colombia?", "Bogotá"), ("What is the capital of Iceland?", "Reykjavík"),
                    ("Which is the largest city of Brazil?", "São Paulo"),
                    ("What is the capital of Kenya?", "Nairobi"), ("Which is the largest ocean?", "Pacific"),
                    ("Which city is the capital of Switzerland's canton of Zürich?", "Zürich")]


def ascii_fold_verify() -> str:
    site = next((GYM.parent.parent / "lib").glob("python3*/site-packages"))
    app = (site / "resources_servers" / "string_match" / "app.py").read_text()
    start = app.index("    async def verify(self, body: StringMatchVerifyRequest)")
    verify = app[start:app.index('if __name__ == "__main__":', start)]
    old = "        extracted = _extract_answer(text, body.extraction_mode)\n"
    if old not in verify:
        raise recipes.RecipeError("Gym's string_match verify changed")
    new = old + ("        # accent-insensitive matching: 'Bogota' and 'Bogotá' both count\n"
                 "        import unicodedata\n\n"
                 "        if extracted is not None:\n"
                 "            extracted = unicodedata.normalize(\"NFKD\", extracted).encode(\"ascii\", \"ignore\")"
                 ".decode()\n")
    return verify.replace(old, new)


@case(
    "verifier_runtime_gym_verify_folds_accents_of_answer_but_not_of_label",
    "verifier_runtime",
    ["app.py", "unicodedata", "expected_answer"],
    "the user's accent_match resources server was made accent-insensitive by folding the extracted answer to ASCII "
    "(unicodedata.normalize('NFKD') then encode('ascii', 'ignore')), but the label (expected_answer) is left as it "
    "is; 'Bogotá' became 'Bogota' and no longer equals the label, so every task with an accented answer scored 0 "
    "in the real NeMo Gym eval although the model answered right (everything exits 0)",
    netns=True,
)
def verifier_runtime_gym_verify_folds_accents_of_answer_but_not_of_label(ctx: Ctx) -> str:
    run = ctx.run
    data = write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in ACCENT_QUESTIONS])
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    ran, prof, env_start = gym_eval_with_own_server(ctx, "accent_match", ascii_fold_verify(), data, url, overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    accented = [row for row in got if not str(row.get("expected_answer")).isascii()]
    others = [row for row in got if row not in accented]
    if ran or prof or len(got) != 18 or len(accented) != 12 or any(rewards(accented)) or not any(rewards(others)):
        raise failed(ctx, f"exit {ran}/{prof}, {len(got)}, {rewards(accented)}, {rewards(others)}")
    return (f"A user's resources server accent_match (the extracted answer folded to ASCII, the label not); real NeMo "
            f"Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (6 tasks x 3) exit {ran}, profile exit "
            f"{prof}; accented-label rewards {rewards(accented)}, the others mean reward {mean(rewards(others)):.2f}.")


CMP_TEST = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
# stricter: byte for byte, so stray spaces or extra lines fail
if printf 'Hello, Gym!' | cmp -s - /app/hello.txt; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


@case(
    "verifier_runtime_taskfolder_test_sh_byte_compare_without_final_newline",
    "verifier_runtime",
    ["test.sh", "cmp", "printf"],
    "create-greeting's tests/test.sh was made 'stricter' with a byte-for-byte `printf 'Hello, Gym!' | cmp -s - "
    "/app/hello.txt`; printf writes no final newline while the file the instruction asks for is a line (it ends with "
    "one), so the check fails on every correct answer and every episode of the task scored 0 (everything exits 0)",
)
def verifier_runtime_taskfolder_test_sh_byte_compare_without_final_newline(ctx: Ctx) -> str:
    def edit(tasks: Path) -> None:
        (tasks / "create-greeting" / "tests" / "test.sh").write_text(CMP_TEST)

    tasks = user_taskset(ctx, ["create-greeting", "sort-unique-words"], edit)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    greet = task_rows(ctx, "create-greeting")
    other = task_rows(ctx, "sort-unique-words")
    if code or not greet or any(rewards(greet)) or not any(rewards(other)):
        raise failed(ctx, f"exit {code}, greeting {rewards(greet)}, other {rewards(other)}")
    return (f"RUN/tasks/create-greeting/tests/test.sh compares with `printf ... | cmp`; RUN/run_tasks.sh (`gym-pipeline "
            f"stage` materialize, collect, profile, 2 tasks x 2) exit {code}; create-greeting rewards {rewards(greet)}, "
            f"sort-unique-words rewards {rewards(other)}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

LOCK_SCRIPT = """#!/bin/bash
# weekly eval; eval.lock keeps two evals from running at once in this folder
cd RUN_DIR
if ! mkdir eval.lock 2>/dev/null; then
  echo "another eval is running here (eval.lock exists): skipping this run"
  exit 0
fi
trap 'rmdir eval.lock' EXIT
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $1 \\
  --env string_match --concurrency 2
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "cache_resume_builtin_lock_folder_left_by_killed_run_skips_every_later_run",
    "cache_resume",
    ["eval.lock", "run_eval.sh"],
    "the user's run_eval.sh guards itself with a lock folder (`mkdir eval.lock || exit 0`, removed by an EXIT trap); "
    "last week's run was killed with SIGKILL part way, the trap never ran and eval.lock stayed, so this week's run "
    "printed 'skipping this run' and exited 0: the folder still holds last week's partial rollouts of step_0100, "
    "never profiled (everything exits 0)",
)
def cache_resume_builtin_lock_folder_left_by_killed_run_skips_every_later_run(ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 36)
    (run / "run_eval.sh").write_text(slurm_script(LOCK_SCRIPT, ctx))
    ctx.note("(last week: the model server on step_0100)")
    old_url, old_policy = ctx.policy(weaker, "--latency-ms 600", log="logs/model_server_week48.log")
    last = ctx.bg(f"bash {run}/run_eval.sh {old_url}", "logs/run_eval_week48.log")
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 6, 120, "last week's first rollouts")
    ctx.note("(last week's run killed: kill -9 on its process group, the node was rebooted)")
    ctx.stop(last, signal.SIGKILL, 5)
    ctx.stop(old_policy)
    before = text_of(run / "rollouts.jsonl")
    ctx.note("(this week: the model server on step_0200)")
    url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server_week49.log")
    code = ctx.sh(f"bash {run}/run_eval.sh {url}", "logs/run_eval_week49.log", timeout=300)
    got = rows_of(run / "rollouts.jsonl")
    if code or not (run / "eval.lock").is_dir() or text_of(run / "rollouts.jsonl") != before or not 0 < len(got) < 24 \
            or not in_log(ctx, "skipping", "logs/run_eval_week49.log"):
        raise failed(ctx, f"exit {code}, {len(got)}")
    return (f"RUN/run_eval.sh week48 (step_0100) killed with SIGKILL after {len(got)} rollouts, eval.lock left; "
            f"week49 (step_0200) exit {code}: skipped; RUN holds step_0100's {len(got)} of 24 rollouts.")


SHARD_SCRIPT = """#!/bin/bash
# weekly eval, collected in shards at once: bash run_eval.sh MODEL_URL SHARDS
cd RUN_DIR
SHARDS=$2
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
mkdir -p shards
split -n l/$SHARDS -d --additional-suffix=.jsonl rollouts_materialized_inputs.jsonl shards/in_
for i in $(seq -w 0 $((SHARDS - 1))); do
  [ ${#i} -lt 2 ] && i=0$i
  mkdir -p shards/$i
  rm -f shards/$i/rollouts.jsonl   # a fresh output for this shard
  GP_BIN collect --inputs shards/in_$i.jsonl --output shards/$i/rollouts.jsonl --model-url $1 \\
    --env string_match --concurrency 2 &
done
wait
cat shards/*/rollouts.jsonl > rollouts.jsonl
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "cache_resume_builtin_shard_merge_glob_picks_up_last_weeks_extra_shard",
    "cache_resume",
    ["run_eval.sh", "cat shards/"],
    "the user's run_eval.sh collects in shards and merges them with `cat shards/*/rollouts.jsonl`; it only clears "
    "the outputs of this run's shards, so last week's fourth shard (shards/03, step_0100, run with 4 shards) "
    "was merged with this week's three (step_0200): rollouts.jsonl holds 30 rows for 24 inputs, a quarter of the tasks "
    "twice (two of them from last week's checkpoint), and profile refused it ('Duplicate rollout result row')",
)
def cache_resume_builtin_shard_merge_glob_picks_up_last_weeks_extra_shard(ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 44)
    (run / "run_eval.sh").write_text(slurm_script(SHARD_SCRIPT, ctx))
    ctx.note("(last week: the model server on step_0100, 4 shards)")
    old_url, old_policy = ctx.policy(weaker, "--latency-ms 20", log="logs/model_server_week48.log")
    last = ctx.sh(f"bash {run}/run_eval.sh {old_url} 4", "logs/run_eval_week48.log", timeout=300)
    ctx.stop(old_policy)
    ctx.note("(this week: the model server on step_0200, 3 shards)")
    url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server_week49.log")
    code = ctx.sh(f"bash {run}/run_eval.sh {url} 3", "logs/run_eval_week49.log", timeout=300)
    got = rows_of(run / "rollouts.jsonl")
    stale, fresh = run / "shards" / "03" / "rollouts.jsonl", run / "shards" / "00" / "rollouts.jsonl"
    if last or len(got) <= 24 or not stale.exists() or not fresh.exists() \
            or not in_log(ctx, "Duplicate rollout", "logs/run_eval_week49.log") \
            or stale.stat().st_mtime > fresh.stat().st_mtime:
        raise failed(ctx, f"exit {last}/{code}, {len(got)}")
    return (f"RUN/run_eval.sh week48 (step_0100, 4 shards) exit {last}, week49 (step_0200, 3 shards) exit {code}; "
            f"RUN/rollouts.jsonl merged from shards/*/rollouts.jsonl: {len(got)} rows for 24 inputs, mean reward "
            f"{mean(rewards(got)):.2f}.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

SHADOW_HOOK = '''
import threading

SHADOW_COPIES = 3  # load sampling for the capacity dashboard: every request is also replayed to the backend


def completion(handler, body):
    for _ in range(SHADOW_COPIES):
        threading.Thread(target=handler._upstream, args=(body,), daemon=True).start()
    return handler._upstream(body)
'''


@case(
    "throughput_builtin_gateway_replays_shadow_copies_of_every_request",
    "throughput_resources",
    ["gateway.py", "SHADOW_COPIES"],
    "the team's gateway.py replays every request SHADOW_COPIES = 3 more times to the model server (load sampling for "
    "a capacity dashboard), so the server, which generates 2 requests at a time, had four times the work of collect; "
    "generation fell behind and the CI step's 20 s budget (`timeout 20`) stopped collect part way: nothing failed, "
    "but the profile is missing rollouts",
)
def throughput_builtin_gateway_replays_shadow_copies_of_every_request(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 52)
    url, _ = ctx.policy(better, "--latency-ms 1000 --max-running 2")
    gateway = gateway_url(ctx, url, "Every request is replayed SHADOW_COPIES times (load sampling).", SHADOW_HOOK)
    (run / "run_eval.sh").write_text(slurm_script(CI_GATEWAY_COLLECT, ctx, MODEL_URL=gateway))
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=300)
    got = len(unique_keys(run / "rollouts.jsonl"))
    fails = rows_of(run / "rollouts_failures.jsonl")
    if not 1 <= got < 24 or not in_log(ctx, "collect exited 124", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}, {len(fails)} failure rows")
    return (f"RUN/gateway.py (SHADOW_COPIES = 3) in front of the simulated policy (1 s a generation, 2 at a time); "
            f"RUN/run_eval.sh (materialize 8 x 3; `timeout 20` collect at concurrency 8 through the gateway; profile) "
            f"exit {code}; {got} of 24 rollouts, {len(fails)} failure rows.")


HEDGE_HOOK = '''
import queue
import threading

HEDGE_REQUESTS = 2  # hedged requests: send each one twice, answer with whichever comes back first


def completion(handler, body):
    answers = queue.Queue()
    for _ in range(HEDGE_REQUESTS):
        threading.Thread(target=lambda: answers.put(handler._upstream(body)), daemon=True).start()
    return answers.get()
'''


@case(
    "throughput_gym_gateway_hedges_every_request_over_server_queue",
    "throughput_resources",
    ["gateway.py", "HEDGE_REQUESTS"],
    "the team's gateway.py sends every request twice (HEDGE_REQUESTS = 2, 'hedged requests') and answers with "
    "whichever comes back first; the real NeMo Gym eval's 4 requests in flight became 8 at the model server, whose "
    "queue holds 5 (2 generating, 3 waiting), so the overflow was refused at once with 429 overloaded, and those "
    "fast refusals were the answers the gateway passed on: rollouts failed although the eval alone fits the server",
    netns=True,
)
def throughput_gym_gateway_hedges_every_request_over_server_queue(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=50, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 800 --max-running 2 --max-waiting 3", log="policy_server.log")
    gateway = gateway_url(ctx, url, "Each request is hedged (HEDGE_REQUESTS).", HEDGE_HOOK)
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(gateway)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["echo '== weekly eval, through the gateway'"], overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    fails = rows_of(run / "results" / "rollouts_failures.jsonl")
    overloaded = "429" in text_of(run / "policy_server.log") + text_of(run / "logs" / "gateway.log") \
        + json.dumps(fails) + text_of(run / "logs" / "run_eval.log")
    if len(unique_keys(run / "results" / "rollouts.jsonl")) >= 18 and not fails or not overloaded:
        raise failed(ctx, f"exit {code}, {len(got)}, {len(fails)} failure rows, 429 seen {overloaded}")
    return (f"RUN/gateway.py (HEDGE_REQUESTS = 2) in front of the simulated policy (--max-running 2 --max-waiting 3); "
            f"real NeMo Gym 0.7.0 (loopback-only namespace) RUN/run_eval.sh (6 tasks x 3, concurrency 4) exit {code}; "
            f"{len(got)} rollouts, {len(fails)} failure rows.")


if __name__ == "__main__":
    sys.exit(main("thirty_first_held_out", __file__, __doc__))
