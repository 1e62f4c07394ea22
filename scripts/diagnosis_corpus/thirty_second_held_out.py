"""Build the THIRTY-SECOND HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/thirty_second_held_out.py --out tests/data/diagnosis_corpus/thirty_second_held_out [--only CASE ...]

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
mechanism from those of the thirty-one earlier sets (first_held_out.py ... thirty_first_held_out.py), and each recipe
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
from recipes import Ctx, case, gym_model_args, main, rows_of, text_of, unique_keys, wait_for  # noqa: E402
from tenth_held_out import in_log  # noqa: E402
from thirtieth_held_out import CI_GATEWAY_COLLECT, gateway_url, gym_rows  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_fifth_held_out import job_logs, task_rows  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_seventh_held_out import (  # noqa: E402
    builtin_script,
    gateway_source,
    gym_eval_with_own_server,
    submit_and_wait,
)
from twenty_sixth_held_out import free_port, gym_run, slurm_script, start_helper  # noqa: E402
from twenty_third_held_out import taskset_script, write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_builtin_run_script_raises_open_files_limit_above_hard_limit",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh starts by raising the open-files limit as the big evals need (`ulimit -n "
    "99999999 || echo ...`); that is above what the kernel allows, so the log opens with 'ulimit: open files: cannot "
    "modify limit: Operation not permitted', but the small eval needs no more than the default and materialize, "
    "collect and profile completed every rollout",
)
def healthy_builtin_run_script_raises_open_files_limit_above_hard_limit(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 4)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["ulimit -n 99999999 || echo '(open files limit left as it is)'",
                                  "echo \"== weekly eval, $(date)\""], "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code or got != 24 or not in_log(ctx, "cannot modify limit", "logs/run_eval.log") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (`ulimit -n 99999999`, refused; materialize 8 tasks x 3, collect, profile) exit {code}; "
            f"{got} rollouts, mean reward {mean(rewards(rows_of(run / 'rollouts.jsonl'))):.2f}.")


@case(
    "healthy_gym_run_script_prints_gym_version_with_system_python",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh first prints the NeMo Gym version with the system Python (`/usr/bin/python3 "
    "-c 'import nemo_gym ...' || echo ...`); Gym is installed in its own venv, not in the system Python, so the log "
    "opens with 'ModuleNotFoundError: No module named nemo_gym', but the real NeMo Gym eval then collected, verified "
    "and profiled every rollout",
    netns=True,
)
def healthy_gym_run_script_prints_gym_version_with_system_python(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=12, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["/usr/bin/python3 -c 'import nemo_gym; print(\"NeMo Gym\", nemo_gym.__version__)' "
                                        "|| echo '(gym version unknown)'", "echo '== weekly eval'"], overrides)
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if code or got != 18 or not in_log(ctx, "No module named 'nemo_gym'", "logs/run_eval.log") \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (system python3 without nemo_gym, then "
            f"`gym eval run --no-serve` 6 tasks x 3, `gym eval profile`) exit {code}, {got} rollouts, mean reward "
            f"{mean(rewards(gym_rows(ctx))):.2f}.")


@case(
    "healthy_taskfolder_run_script_lists_task_authors_files_that_do_not_exist",
    "healthy",
    [],
    "nothing is wrong: the user's run_tasks.sh starts by listing who wrote each task (`cat tasks/*/AUTHORS || echo "
    "...`); no task folder has an AUTHORS file, so the log opens with 'cat: tasks/*/AUTHORS: No such file or "
    "directory', but every episode of the taskset ran in its Docker sandbox, was verified and profiled",
)
def healthy_taskfolder_run_script_lists_task_authors_files_that_do_not_exist(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["create-greeting", "sort-unique-words"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, [
        "cat tasks/*/AUTHORS || echo '(task authors not listed)'", "echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    if code or len(unique_keys(run / "rollouts.jsonl")) != 4 or not any(rewards(got)) \
            or not in_log(ctx, "No such file", "logs/run_tasks.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/run_tasks.sh (`cat tasks/*/AUTHORS` of no such files; `gym-pipeline stage` materialize, collect, "
            f"profile of RUN/tasks x 2) exit {code}; rewards {rewards(got)}.")


LFS_SBATCH = """#!/bin/bash
#SBATCH --job-name=nightly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
cd RUN_DIR
# the wiki's template: show the project's Lustre quota first (the big evals fill it)
lfs quota -u $USER /lustre/projects || echo "(quota not shown)"
echo "nightly eval on $(hostname)"
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 4
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "healthy_slurm_job_checks_lustre_quota_without_lustre_client",
    "healthy",
    [],
    "nothing is wrong: the user's nightly.sbatch, from the wiki's template, starts with `lfs quota -u $USER "
    "/lustre/projects`; this cluster has no Lustre client, so the job log opens with 'lfs: command not found', but the "
    "job writes to the local run folder and materialize, collect and profile completed every rollout",
)
def healthy_slurm_job_checks_lustre_quota_without_lustre_client(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 18)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "nightly.sbatch").write_text(slurm_script(LFS_SBATCH, ctx, MODEL_URL=url))
    code = submit_and_wait(ctx, "nightly.sbatch", "logs/submit.log")
    logs = job_logs(ctx, "eval_*.log")
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code or got != 24 or "lfs: command not found" not in logs or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {logs[-600:]}")
    return (f"RUN/submit.sh (sbatch of RUN/nightly.sbatch: `lfs quota` without lfs, materialize 8 x 3, collect, "
            f"profile) exit {code}; {got} rollouts, mean reward {mean(rewards(rows_of(run / 'rollouts.jsonl'))):.2f}.")


# =====================================================================================================
# infra
# =====================================================================================================

OPTIMIZE_NODE_ENV = """# node settings of the eval nodes (kept from the old small-memory cluster): strip docstrings and asserts
export PYTHONOPTIMIZE=2
export OMP_NUM_THREADS=4
"""


@case(
    "infra_builtin_node_env_sets_pythonoptimize_that_strips_docstrings",
    "infra",
    ["node_env.sh", "PYTHONOPTIMIZE"],
    "the user's run_eval.sh sources the eval nodes' node_env.sh, kept from the old small-memory cluster, which "
    "exports PYTHONOPTIMIZE=2 (like `python -OO`: docstrings and asserts stripped from every Python program); "
    "gym-pipeline builds its command line from its module docstring, which was now None, so every command crashed "
    "at start ('NoneType' object has no attribute 'splitlines') and nothing was collected",
)
def infra_builtin_node_env_sets_pythonoptimize_that_strips_docstrings(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 26)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "node_env.sh").write_text(OPTIMIZE_NODE_ENV)
    script = builtin_script(ctx, ["source ./node_env.sh", "echo \"== weekly eval, $(date)\""], "string_match.jsonl",
                            url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got or not in_log(ctx, "splitlines", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (sources RUN/node_env.sh: PYTHONOPTIMIZE=2; materialize, collect, profile) exit {code}; "
            f"{got} rollouts.")


TMPDIR_NODE_ENV = """# node settings of the eval nodes: temporary files on the node-local NVMe scratch
export TMPDIR=/local_scratch/$USER/tmp
export OMP_NUM_THREADS=4
"""

TMPDIR_SCRIPT = """#!/bin/bash
# weekly eval; the inputs are staged in a temporary folder on the node's fast local disk
set -e
cd RUN_DIR
source ./node_env.sh
STAGE=$(mktemp -d)
echo "== weekly eval, staging in $STAGE"
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output $STAGE/inputs.jsonl
cp $STAGE/inputs.jsonl rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 4
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
rm -rf $STAGE
"""


@case(
    "infra_builtin_node_env_tmpdir_on_local_scratch_not_mounted_on_this_node",
    "infra",
    ["node_env.sh", "TMPDIR"],
    "the eval nodes' node_env.sh points TMPDIR at the node-local NVMe scratch (/local_scratch/$USER/tmp), which is not "
    "mounted on this node; the run script's `mktemp -d` could not create its staging folder ('mktemp: failed to "
    "create directory ... No such file or directory') and the script (set -e) stopped before materialize: nothing was "
    "collected",
)
def infra_builtin_node_env_tmpdir_on_local_scratch_not_mounted_on_this_node(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 34)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "node_env.sh").write_text(TMPDIR_NODE_ENV)
    (run / "run_eval.sh").write_text(slurm_script(TMPDIR_SCRIPT, ctx, MODEL_URL=url))
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=300)
    got = len(rows_of(run / "rollouts.jsonl"))
    if Path("/local_scratch").exists() or got or not code or not in_log(ctx, "mktemp: failed", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return f"RUN/run_eval.sh (sources RUN/node_env.sh: TMPDIR on /local_scratch, absent; mktemp -d) exit {code}; {got} rollouts."


# =====================================================================================================
# model_serving
# =====================================================================================================

REDACT_HOOK = '''
import re

REDACT_NUMBERS = True  # the chat UI's privacy filter: runs of 3+ digits (phone numbers, account IDs) are masked


def completion(handler, body):
    status, data = handler._upstream(body)
    if status != 200 or not REDACT_NUMBERS:
        return status, data
    answer = json.loads(data)
    for choice in answer.get("choices", []):
        message = choice.get("message") or {}
        if isinstance(message.get("content"), str):
            message["content"] = re.sub(r"[0-9]{3,}", lambda m: "#" * len(m.group()), message["content"])
    return status, json.dumps(answer).encode()
'''

NUMBER_QUESTIONS = [("In which year did the Second World War end?", "1945"),
                    ("How many days does a leap year have?", "366"),
                    ("At how many degrees Fahrenheit does water boil at sea level?", "212"),
                    ("What is the capital of Portugal?", "Lisbon"),
                    ("Which planet is known as the Red Planet?", "Mars"),
                    ("Who painted the Mona Lisa?", "Leonardo da Vinci")]


@case(
    "model_serving_gym_gateway_privacy_filter_masks_numbers_in_replies",
    "model_serving",
    ["gateway.py", "REDACT_NUMBERS"],
    "the model server is reached through the team's gateway.py, whose privacy filter for the chat UI masks every run "
    "of 3 or more digits in the replies (REDACT_NUMBERS = True); the model's answers '1945', '366' and '212' reached "
    "the real NeMo Gym verifier as '####' and '###' and scored 0, while the other answers scored normally "
    "(everything exits 0)",
    netns=True,
)
def model_serving_gym_gateway_privacy_filter_masks_numbers_in_replies(ctx: Ctx) -> str:
    run = ctx.run
    data = write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in NUMBER_QUESTIONS])
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    gateway = gateway_url(ctx, url, "Replies pass the chat UI's privacy filter (REDACT_NUMBERS).", REDACT_HOOK)
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(gateway)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["echo '== weekly eval, through the gateway'"], overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    numbers = [row for row in got if str(row.get("expected_answer")).isdigit()]
    others = [row for row in got if row not in numbers]
    if code or len(got) != 18 or len(numbers) != 9 or any(rewards(numbers)) or not any(rewards(others)) \
            or "###" not in json.dumps(numbers):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(numbers)}, {rewards(others)}")
    return (f"RUN/gateway.py (REDACT_NUMBERS: digit runs masked) in front of the simulated policy; real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) RUN/run_eval.sh exit {code}; number answers rewards {rewards(numbers)}, the "
            f"others mean reward {mean(rewards(others)):.2f}.")


MODEL_LIST_HOOK = '''
# the deployments the gateway routes to (answered here: the backend's /v1/models is slow to list)
MODEL_LIST = {"object": "list", "data": [{"id": "llama-3-8b-instruct", "object": "model", "owned_by": "team"}]}


def completion(handler, body):
    return handler._upstream(body)
'''

MODEL_LIST_GET = '''    def do_GET(self):
        if self.path.rstrip("/").endswith("/models"):
            return self._send(200, json.dumps(MODEL_LIST).encode())
        self._send(*self._upstream())
'''


@case(
    "model_serving_builtin_gateway_lists_hardcoded_model_of_retired_deployment",
    "model_serving",
    ["gateway.py", "MODEL_LIST"],
    "the model server is reached through the team's gateway.py, which answers /v1/models itself from a hard-coded "
    "MODEL_LIST naming the retired deployment 'llama-3-8b-instruct'; collect, given no --model, took the first "
    "listed model and sent every chat completion for it, which the server behind the gateway does not serve: every "
    "request was refused and no rollout was collected",
)
def model_serving_builtin_gateway_lists_hardcoded_model_of_retired_deployment(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 42)
    url, _ = ctx.policy(better, "--latency-ms 20")
    source = gateway_source("/v1/models is answered from MODEL_LIST.", MODEL_LIST_HOOK)
    old_get = "    def do_GET(self):\n        self._send(*self._upstream())\n"
    if old_get not in source:
        raise recipes.RecipeError("the gateway's do_GET changed")
    port = free_port()
    start_helper(ctx, "gateway.py", source.replace(old_get, MODEL_LIST_GET), f"{port} {url.removesuffix('/v1')}",
                 "gateway.py on")
    gateway = f"http://127.0.0.1:{port}/v1"
    script = builtin_script(ctx, ["echo '== weekly eval, through the gateway'"], "string_match.jsonl", gateway)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    fails = rows_of(run / "rollouts_failures.jsonl")
    seen = json.dumps(fails) + text_of(run / "logs" / "run_eval.log") + text_of(run / "logs" / "model_server.log")
    if got and any(rewards(got)) or "llama-3-8b-instruct" not in seen:
        raise failed(ctx, f"exit {code}, {len(got)}, {len(fails)} failure rows")
    return (f"RUN/gateway.py (/v1/models answered from MODEL_LIST) in front of the simulated policy; RUN/run_eval.sh "
            f"(materialize 8 x 3, collect without --model through the gateway, profile) exit {code}; {len(got)} "
            f"rollouts, {len(fails)} failure rows.")


RR_HOOK = """
import itertools
import threading

# the two replicas of the team's model server (round robin); the second one is kept up for the dashboards
UPSTREAMS = [UPSTREAM, sys.argv[3]]
_next = itertools.cycle(range(len(UPSTREAMS)))
_lock = threading.Lock()


def completion(handler, body):
    with _lock:
        index = next(_next)
    upstream = UPSTREAMS[index]
    print(f"gateway: chat completion -> replica {index} ({upstream})", flush=True)
    request = urllib.request.Request(upstream + handler.path, data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()
"""


@case(
    "model_serving_builtin_gateway_round_robins_onto_replica_left_on_last_weeks_checkpoint",
    "model_serving",
    ["gateway.py", "UPSTREAMS"],
    "the team's gateway.py spreads the chat completions round robin over two replicas (UPSTREAMS); the second one "
    "is last week's model server, still up on step_0100 for the dashboards, so half of this week's rollouts were "
    "generated by the old checkpoint and the reward is a mix of the two models (everything exits 0)",
)
def model_serving_builtin_gateway_round_robins_onto_replica_left_on_last_weeks_checkpoint(ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 8)
    old_url, _ = ctx.policy(weaker, "--latency-ms 20", log="logs/model_server_week48.log")
    url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server_week49.log")
    port = free_port()
    source = gateway_source("Chat completions go round robin to UPSTREAMS.", RR_HOOK)
    start_helper(ctx, "gateway.py", source, f"{port} {url.removesuffix('/v1')} {old_url.removesuffix('/v1')}",
                 "gateway.py on")
    script = builtin_script(ctx, ["echo '== weekly eval (step_0200), through the gateway'"], "string_match.jsonl",
                            f"http://127.0.0.1:{port}/v1")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    log = text_of(run / "logs" / "gateway.log")
    if code or got != 24 or log.count("-> replica 1") < 6 or log.count("-> replica 0") < 6:
        raise failed(ctx, f"exit {code}, {got}")
    return (f"last week's server (step_0100) and this week's (step_0200) both up; RUN/gateway.py round robin over "
            f"both; RUN/run_eval.sh (materialize 8 x 3, collect through the gateway, profile) exit {code}; {got} "
            f"rollouts, {log.count('-> replica 1')} requests answered by step_0100, mean reward "
            f"{mean(rewards(rows_of(run / 'rollouts.jsonl'))):.2f}.")


# =====================================================================================================
# config
# =====================================================================================================

EMPTY_SETTINGS = """# weekly eval settings (leave a value empty to get the script's default)
REPEATS=3
CONCURRENCY=
"""

EMPTY_DEFAULT_SCRIPT = """#!/bin/bash
# weekly eval: settings from settings.env, with defaults
cd RUN_DIR
source ./settings.env
echo "== weekly eval, $(date)"
GP_BIN materialize --input string_match.jsonl --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl --num-repeats ${REPEATS-3}
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency ${CONCURRENCY-4}
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "config_builtin_default_without_colon_keeps_empty_concurrency_setting",
    "config",
    ["run_eval.sh", "${CONCURRENCY-4}", "settings.env"],
    "settings.env leaves CONCURRENCY empty to mean 'the default', but run_eval.sh reads it as `${CONCURRENCY-4}` "
    "(no colon), which only applies the default when the variable is unset, not when it is empty; collect was run "
    "with a bare `--concurrency` ('expected one argument') and nothing was collected",
)
def config_builtin_default_without_colon_keeps_empty_concurrency_setting(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 50)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "settings.env").write_text(EMPTY_SETTINGS)
    (run / "run_eval.sh").write_text(slurm_script(EMPTY_DEFAULT_SCRIPT, ctx, MODEL_URL=url))
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=300)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got or not (run / "rollouts_materialized_inputs.jsonl").exists() \
            or not in_log(ctx, "expected one argument", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/settings.env (CONCURRENCY=) and RUN/run_eval.sh (`--concurrency ${{CONCURRENCY-4}}`) exit {code}; "
            f"{got} rollouts.")


ZSH_SBATCH = """#!/bin/zsh
#SBATCH --job-name=nightly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
# (written on my laptop, where zsh is the login shell)
cd RUN_DIR
echo "nightly eval on $(hostname)"
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 4
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "config_slurm_job_script_shebang_names_shell_not_on_cluster",
    "config",
    ["nightly.sbatch", "#!/bin/zsh"],
    "the user's nightly.sbatch, written on a laptop, starts with `#!/bin/zsh`; Slurm runs a batch script with the "
    "interpreter of its first line and the cluster's nodes have no zsh, so the job failed at once without running a "
    "single line: nothing was materialized or collected",
)
def config_slurm_job_script_shebang_names_shell_not_on_cluster(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 58)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "nightly.sbatch").write_text(slurm_script(ZSH_SBATCH, ctx, MODEL_URL=url))
    code = submit_and_wait(ctx, "nightly.sbatch", "logs/submit.log")
    logs = job_logs(ctx, "eval_*.log") + text_of(run / "logs" / "submit.log")
    got = len(rows_of(run / "rollouts.jsonl"))
    if Path("/bin/zsh").exists() or got or (run / "rollouts_materialized_inputs.jsonl").exists() or "nightly eval on" in logs:
        raise failed(ctx, f"exit {code}, {got}: {logs[-800:]}")
    return (f"RUN/submit.sh (sbatch of RUN/nightly.sbatch, whose first line is #!/bin/zsh; zsh not installed) exit "
            f"{code}; {got} rollouts.")


# =====================================================================================================
# data_schema
# =====================================================================================================

ZWSP = "\u200b"
ZW_QUESTIONS = [("What is the capital of Australia?", f"Can{ZWSP}berra"), ("Who wrote Faust?", f"Goethe{ZWSP}"),
                ("What is the capital of Canada?", f"Ot{ZWSP}tawa"), ("Which gas do plants absorb?", "Carbon dioxide"),
                ("What is the largest desert in Asia?", "Gobi"), ("Which metal is liquid at room temperature?",
                                                                  "Mercury")]

PREP_QUESTIONS = '''#!/usr/bin/env python3
"""question_bank.json (copied from the wiki page of the question bank) -> tasks.jsonl"""
import json
import sys

items = json.load(open(sys.argv[1]))
with open(sys.argv[2], "w") as out:
    for item in items:
        text = f"{item['question']} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": item["answer"].strip(), "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
print(f"prep_data.py: {len(items)} rows -> {sys.argv[2]}")
'''


@case(
    "data_schema_builtin_labels_copied_from_wiki_carry_zero_width_spaces",
    "data_schema",
    ["question_bank.json", "\\u200b"],
    "question_bank.json was copied from the wiki page of the question bank, whose renderer puts invisible zero-width "
    "spaces (U+200B) inside or after some words; prep_data.py keeps them in expected_answer ('Can\\u200bberra'), "
    "so those labels never equal the model's answer and every task with one scored 0, while the other tasks scored "
    "normally (everything exits 0)",
)
def data_schema_builtin_labels_copied_from_wiki_carry_zero_width_spaces(ctx: Ctx) -> str:
    run = ctx.run
    truth = write_jsonl(ctx.work / "truth.jsonl", [question_row(q, a.replace(ZWSP, "")) for q, a in ZW_QUESTIONS])
    better = checkpoints(ctx, "string_match", truth)[1]
    (run / "question_bank.json").write_text(json.dumps([{"question": q, "answer": a} for q, a in ZW_QUESTIONS],
                                                       indent=1) + "\n")
    (run / "prep_data.py").write_text(PREP_QUESTIONS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["python3 prep_data.py question_bank.json tasks.jsonl"], "tasks.jsonl", url,
                            comment="eval of the question bank")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    hidden = [row for row in got if ZWSP in str(row.get("expected_answer"))]
    others = [row for row in got if row not in hidden]
    if code or len(got) != 18 or len(hidden) != 9 or any(rewards(hidden)) or not any(rewards(others)):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(hidden)}, {rewards(others)}")
    return (f"RUN/question_bank.json (3 answers with U+200B) -> RUN/prep_data.py -> RUN/tasks.jsonl; RUN/run_eval.sh "
            f"(materialize 6 x 3, collect, profile) exit {code}; zero-width labels rewards {rewards(hidden)}, the "
            f"others mean reward {mean(rewards(others)):.2f}.")


BOLD_TABLE = """# Question bank, reviewed 2026-11 (reviewers bold the answers they checked)

| question | answer |
|---|---|
| What is the capital of Norway? | **Oslo** |
| Which element has the symbol Fe? | Iron |
| Who discovered penicillin? | **Alexander Fleming** |
| What is the longest river in Africa? | Nile |
| Which planet has the most moons? | **Saturn** |
| What is the hardest natural substance? | Diamond |
"""

MD_TO_JSONL = '''#!/usr/bin/env python3
"""review_table.md (the reviewed question bank, a Markdown table) -> tasks.jsonl"""
import json
import sys

rows = []
for line in open(sys.argv[1]):
    cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
    if len(cells) != 2 or cells[0] in ("question", "---"):
        continue
    question, answer = cells
    text = f"{question} End your response with 'Final answer: <answer>'."
    rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                        "content": [{"type": "input_text", "text": text}]}]},
                 "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False})
with open(sys.argv[2], "w") as out:
    out.write("".join(json.dumps(row) + "\\n" for row in rows))
print(f"md_to_jsonl.py: {len(rows)} rows -> {sys.argv[2]}")
'''


@case(
    "data_schema_gym_labels_from_markdown_table_keep_reviewers_bold_markers",
    "data_schema",
    ["md_to_jsonl.py", "review_table.md", "**"],
    "the tasks are converted from review_table.md, a Markdown table in which reviewers bold the answers they "
    "checked ('**Oslo**'); md_to_jsonl.py copies the cells as they are, so the checked answers became labels with "
    "the ** markers, never equal to the model's answer: every reviewed task scored 0 in the real NeMo Gym eval, "
    "while the others scored normally (everything exits 0)",
    netns=True,
)
def data_schema_gym_labels_from_markdown_table_keep_reviewers_bold_markers(ctx: Ctx) -> str:
    run = ctx.run
    plain = [line.split("|")[1:3] for line in BOLD_TABLE.splitlines() if line.startswith("| ") and "question" not in line]
    truth = write_jsonl(ctx.work / "truth.jsonl", [question_row(q.strip(), a.strip().strip("*")) for q, a in plain])
    better = checkpoints(ctx, "string_match", truth)[1]
    (run / "review_table.md").write_text(BOLD_TABLE)
    (run / "md_to_jsonl.py").write_text(MD_TO_JSONL)
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["python3 md_to_jsonl.py review_table.md tasks.jsonl"], overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    bold = [row for row in got if "**" in str(row.get("expected_answer"))]
    others = [row for row in got if row not in bold]
    if code or len(got) != 18 or len(bold) != 9 or any(rewards(bold)) or not any(rewards(others)):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(bold)}, {rewards(others)}")
    return (f"RUN/review_table.md -> RUN/md_to_jsonl.py -> RUN/tasks.jsonl (3 labels in **bold**); real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) RUN/run_eval.sh exit {code}; bold-label rewards {rewards(bold)}, the others "
            f"mean reward {mean(rewards(others)):.2f}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

TITLE_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        reward = 0.0
        if extracted is not None and body.expected_answer:
            # names are graded exactly, in their proper capitalisation ("paris" is no answer, "Paris" is)
            proper = extracted.strip().rstrip(".").title()
            reward = 1.0 if proper == body.expected_answer.strip() else 0.0

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''

NAME_QUESTIONS = [("Which agency landed the first humans on the Moon?", "NASA"),
                  ("Which molecule carries genetic information?", "DNA"),
                  ("What is the capital of Italy?", "Rome"), ("Which planet is the largest?", "Jupiter"),
                  ("What is the highest mountain on Earth?", "Mount Everest"),
                  ("Which organisation runs the football World Cup?", "FIFA")]


@case(
    "verifier_runtime_gym_verify_title_cases_answer_before_exact_compare",
    "verifier_runtime",
    ["app.py", ".title()"],
    "the user's proper_names resources server grades names 'in their proper capitalisation' by comparing "
    "extracted.title() with the label exactly; str.title() lowercases all but the first letter of each word, so "
    "the acronyms 'NASA', 'DNA' and 'FIFA' became 'Nasa', 'Dna', 'Fifa' and never matched: those tasks scored 0 in "
    "the real NeMo Gym eval although the model answered right, the others normally (everything exits 0)",
    netns=True,
)
def verifier_runtime_gym_verify_title_cases_answer_before_exact_compare(ctx: Ctx) -> str:
    run = ctx.run
    data = write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in NAME_QUESTIONS])
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    ran, prof, env_start = gym_eval_with_own_server(ctx, "proper_names", TITLE_VERIFY, data, url, overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    acronyms = [row for row in got if str(row.get("expected_answer")).isupper()]
    others = [row for row in got if row not in acronyms]
    if ran or prof or len(got) != 18 or len(acronyms) != 9 or any(rewards(acronyms)) or not any(rewards(others)):
        raise failed(ctx, f"exit {ran}/{prof}, {len(got)}, {rewards(acronyms)}, {rewards(others)}")
    return (f"A user's resources server proper_names (extracted.title() == label); real NeMo Gym 0.7.0 (loopback-only "
            f"namespace) `gym eval run --no-serve` (6 tasks x 3) exit {ran}, profile exit {prof}; acronym rewards "
            f"{rewards(acronyms)}, the others mean reward {mean(rewards(others)):.2f}.")


BANG_TEST = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
# the '!' escaped, as the interactive shell needs it (history expansion)
if test "$(cat /app/hello.txt 2>/dev/null)" = "Hello, Gym\\!"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


@case(
    "verifier_runtime_taskfolder_test_sh_escapes_bang_inside_double_quotes",
    "verifier_runtime",
    ["test.sh", "Hello, Gym\\!"],
    "create-greeting's tests/test.sh compares the file with \"Hello, Gym\\!\", the '!' escaped as an interactive "
    "shell needs it; in a script inside double quotes the backslash stays, so the expected text is 'Hello, Gym\\!' "
    "and no correct answer ever matches it: every episode of the task scored 0 (everything exits 0)",
)
def verifier_runtime_taskfolder_test_sh_escapes_bang_inside_double_quotes(ctx: Ctx) -> str:
    def edit(tasks: Path) -> None:
        (tasks / "create-greeting" / "tests" / "test.sh").write_text(BANG_TEST)

    tasks = user_taskset(ctx, ["create-greeting", "replace-spelling"], edit)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    greet = task_rows(ctx, "create-greeting")
    other = task_rows(ctx, "replace-spelling")
    if code or not greet or any(rewards(greet)) or not any(rewards(other)):
        raise failed(ctx, f"exit {code}, greeting {rewards(greet)}, other {rewards(other)}")
    return (f"RUN/tasks/create-greeting/tests/test.sh compares with \"Hello, Gym\\!\"; RUN/run_tasks.sh (`gym-pipeline "
            f"stage` materialize, collect, profile, 2 tasks x 2) exit {code}; create-greeting rewards {rewards(greet)}, "
            f"replace-spelling rewards {rewards(other)}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

ROWCOUNT_SCRIPT = """#!/bin/bash
# weekly eval; materialized inputs are cached per dataset size (materialize is slow on the big sets)
cd RUN_DIR
rm -f rollouts.jsonl rollouts_*.jsonl   # a fresh run
ROWS=$(wc -l < string_match.jsonl)
CACHE=cache/inputs_${ROWS}rows_x3.jsonl
if [ ! -f $CACHE ]; then
  mkdir -p cache
  GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output $CACHE
else
  echo "materialized inputs from the cache: $CACHE"
fi
cp $CACHE rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $1 \\
  --env string_match --concurrency 4
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "cache_resume_builtin_inputs_cache_keyed_by_row_count_reuses_last_weeks_split",
    "cache_resume",
    ["run_eval.sh", "CACHE", "wc -l"],
    "the user's run_eval.sh caches the materialized inputs under a key made of the dataset's row count "
    "(cache/inputs_8rows_x3.jsonl); this week's string_match.jsonl holds 8 new questions, the same count as last "
    "week's, so the script reused last week's inputs: this week's questions were never evaluated and the profile "
    "shows last week's questions again (everything exits 0)",
)
def cache_resume_builtin_inputs_cache_keyed_by_row_count_reuses_last_weeks_split(ctx: Ctx) -> str:
    run = ctx.run
    both = ctx.dataset("string_match", 16, start=64, name="both.jsonl")
    weaker, better = checkpoints(ctx, "string_match", both)
    (run / "run_eval.sh").write_text(slurm_script(ROWCOUNT_SCRIPT, ctx))
    ctx.note("(last week: last week's 8 questions, the model server on step_0100)")
    ctx.dataset("string_match", 8, start=64, folder=run, name="string_match.jsonl")
    old_url, old_policy = ctx.policy(weaker, "--latency-ms 20", log="logs/model_server_week48.log")
    last = ctx.sh(f"bash {run}/run_eval.sh {old_url}", "logs/run_eval_week48.log", timeout=300)
    ctx.stop(old_policy)
    ctx.note("(this week: this week's 8 questions in RUN/string_match.jsonl, the model server on step_0200)")
    data = ctx.dataset("string_match", 8, start=72, folder=run, name="string_match.jsonl")
    url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server_week49.log")
    code = ctx.sh(f"bash {run}/run_eval.sh {url}", "logs/run_eval_week49.log", timeout=300)
    got = rows_of(run / "rollouts.jsonl")
    this_week = {json.dumps(row["responses_create_params"]["input"]) for row in rows_of(data)}
    asked = {json.dumps(row["responses_create_params"]["input"]) for row in rows_of(run / "rollouts_materialized_inputs.jsonl")}
    if last or code or len(got) != 24 or asked & this_week or not in_log(ctx, "from the cache", "logs/run_eval_week49.log"):
        raise failed(ctx, f"exit {last}/{code}, {len(got)}, overlap {len(asked & this_week)}")
    return (f"RUN/run_eval.sh week48 (8 questions, step_0100) exit {last}, week49 (8 other questions, step_0200) exit "
            f"{code}: inputs from cache/inputs_8rows_x3.jsonl; {len(got)} rollouts, none of this week's questions, mean "
            f"reward {mean(rewards(got)):.2f}.")


@case(
    "cache_resume_taskfolder_nonempty_rollouts_test_skips_collect_after_killed_run",
    "cache_resume",
    ["run_tasks.sh", "-s rollouts.jsonl"],
    "the user's run_tasks.sh skips collect when rollouts.jsonl is already there and not empty (`[ -s rollouts.jsonl "
    "]`, to save re-running the Docker episodes); last night's run was killed part way, leaving a partial "
    "rollouts.jsonl, so tonight's run skipped collect and profiled last night's partial rollouts (the script exits "
    "0; the taskset was never completed)",
)
def cache_resume_taskfolder_nonempty_rollouts_test_skips_collect_after_killed_run(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["create-greeting", "sort-unique-words", "replace-spelling"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 1500")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== nightly taskset run'"], concurrency=1)
    lines = script.read_text().splitlines()
    at = lines.index("echo '== collect'") + 1
    lines[at] = (f"if [ -s rollouts.jsonl ]; then echo 'rollouts.jsonl already there: collect skipped'; "
                 f"else {lines[at]}; fi")
    script.write_text("\n".join(lines) + "\n")
    night1 = ctx.bg(f"bash {script}", "logs/run_tasks_night1.log")
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 1, 400, "last night's first rollout")
    ctx.note("(last night's run killed: kill -9 on its process group, the node was rebooted)")
    ctx.stop(night1, signal.SIGKILL, 5)
    before = len(rows_of(run / "rollouts.jsonl"))
    code = ctx.sh(f"bash {script}", "logs/run_tasks_night2.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    if code or not 0 < len(got) < 6 or len(got) != before or not in_log(ctx, "collect skipped", "logs/run_tasks_night2.log"):
        raise failed(ctx, f"exit {code}, {before} -> {len(got)}")
    return (f"RUN/run_tasks.sh night 1 killed with SIGKILL after {before} rollouts; night 2 exit {code}: collect "
            f"skipped (`[ -s rollouts.jsonl ]`), profile of {len(got)} of 6 rollouts.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

RESEND_HOOK = '''
import socket

GATEWAY_TIMEOUT_S = 1.0  # a request not answered within a second is sent again (the old hosted API dropped some)
RESENDS = 5


def completion(handler, body):
    for _ in range(RESENDS):
        request = urllib.request.Request(UPSTREAM + handler.path, data=body, method="POST",
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=GATEWAY_TIMEOUT_S) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()
        except (TimeoutError, socket.timeout, urllib.error.URLError):
            print("gateway: no answer within GATEWAY_TIMEOUT_S, sending the request again", flush=True)
    return 504, json.dumps({"error": "upstream timed out"}).encode()
'''


@case(
    "throughput_builtin_gateway_resends_requests_slower_than_its_one_second_timeout",
    "throughput_resources",
    ["gateway.py", "GATEWAY_TIMEOUT_S"],
    "the team's gateway.py sends a request again when the model server has not answered within GATEWAY_TIMEOUT_S = "
    "1 s (the old hosted API dropped some); a generation here takes longer than that once a few are queued, so the "
    "gateway kept adding copies while the abandoned ones still occupied the server (2 at a time): the queue "
    "snowballed and the CI step's 20 s budget (`timeout 20`) stopped collect part way, the profile missing rollouts",
)
def throughput_builtin_gateway_resends_requests_slower_than_its_one_second_timeout(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 72)
    url, _ = ctx.policy(better, "--latency-ms 600 --max-running 2 --max-waiting 12")
    gateway = gateway_url(ctx, url, "Requests slower than GATEWAY_TIMEOUT_S are sent again.", RESEND_HOOK)
    (run / "run_eval.sh").write_text(slurm_script(CI_GATEWAY_COLLECT, ctx, MODEL_URL=gateway))
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=300)
    got = len(unique_keys(run / "rollouts.jsonl"))
    fails = rows_of(run / "rollouts_failures.jsonl")
    if got >= 24 or not in_log(ctx, "sending the request again", "logs/gateway.log"):
        raise failed(ctx, f"exit {code}, {got}, {len(fails)} failure rows")
    return (f"RUN/gateway.py (GATEWAY_TIMEOUT_S = 1, resends) in front of the simulated policy (0.6 s a generation, "
            f"2 at a time); RUN/run_eval.sh (materialize 8 x 3; `timeout 20` collect at concurrency 8 through the "
            f"gateway; profile) exit {code}; {got} of 24 rollouts, {len(fails)} failure rows.")


@case(
    "throughput_gym_run_script_multiplies_concurrency_by_repeats",
    "throughput_resources",
    ["run_eval.sh", "CONCURRENCY=$((PARALLEL * REPEATS))"],
    "the user's run_eval.sh computes the eval's concurrency as `CONCURRENCY=$((PARALLEL * REPEATS))` ('every repeat "
    "of the 4 prompts at once'), 12 requests in flight, while the model server generates 2 at a time and queues 3; "
    "the overflow was refused with 429 overloaded and rollouts of the real NeMo Gym eval failed, although 4 at a time "
    "fits the server",
    netns=True,
)
def throughput_gym_run_script_multiplies_concurrency_by_repeats(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=80, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 800 --max-running 2 --max-waiting 3", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["PARALLEL=4   # prompts in flight", "REPEATS=3",
                                        "CONCURRENCY=$((PARALLEL * REPEATS))   # every repeat of the prompts at once",
                                        "echo \"== weekly eval, concurrency $CONCURRENCY\""], overrides,
                   repeats="$REPEATS", concurrency="$CONCURRENCY")
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    fails = rows_of(run / "results" / "rollouts_failures.jsonl")
    seen = text_of(run / "policy_server.log") + json.dumps(fails) + text_of(run / "logs" / "run_eval.log")
    overloaded = "429" in seen or "overloaded" in seen
    if len(unique_keys(run / "results" / "rollouts.jsonl")) >= 18 and not fails or not overloaded:
        raise failed(ctx, f"exit {code}, {len(got)}, {len(fails)} failure rows, 429 seen {overloaded}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (CONCURRENCY=$((4 * 3)) = 12; the "
            f"simulated policy --max-running 2 --max-waiting 3; 6 tasks x 3) exit {code}; {len(got)} rollouts, "
            f"{len(fails)} failure rows.")


if __name__ == "__main__":
    sys.exit(main("thirty_second_held_out", __file__, __doc__))
