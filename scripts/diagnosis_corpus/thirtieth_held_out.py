"""Build the THIRTIETH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/thirtieth_held_out.py --out tests/data/diagnosis_corpus/thirtieth_held_out [--only CASE ...]

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
mechanism from those of the twenty-nine earlier sets (first_held_out.py ... twenty_ninth_held_out.py), and each
recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not written). About
half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare,
iptables inside a private network namespace), Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this checkout.
Run it from a foreground shell.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import checkpoints, failed, gym_start, stop_gym, task_checkpoints, user_taskset  # noqa: E402
from fourteenth_held_out import mean, rewards  # noqa: E402
from recipes import GYM, Ctx, case, gym_model_args, main, rows_of, text_of, unique_keys  # noqa: E402
from tenth_held_out import in_log  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_fifth_held_out import job_logs, task_rows  # noqa: E402
from twenty_ninth_held_out import FIXED_QUESTIONS  # noqa: E402
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


def gym_rows(ctx: Ctx) -> list[dict]:
    return rows_of(ctx.run / "results" / "rollouts.jsonl")


def gateway_url(ctx: Ctx, url: str, doc: str, hook: str, threading: bool = True) -> str:
    """The team's gateway.py (RUN/gateway.py) in front of the model server at `url`; its own base URL."""
    port = free_port()
    source = gateway_source(doc, hook)
    if not threading:
        source = source.replace("ThreadingHTTPServer((", "HTTPServer((").replace(
            "from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer",
            "from http.server import BaseHTTPRequestHandler, HTTPServer")
    start_helper(ctx, "gateway.py", source, f"{port} {url.removesuffix('/v1')}", "gateway.py on")
    return f"http://127.0.0.1:{port}/v1"


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_builtin_run_script_records_git_commit_outside_a_repository",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh ends by recording which commit of the team's eval code was used (`git "
    "-C /opt/team-eval-code rev-parse HEAD > eval_commit.txt || echo ...`); that checkout exists on the "
    "team's build node only, so the log ends with 'fatal: cannot change to '/opt/team-eval-code'', but materialize, collect and profile had completed every rollout",
)
def healthy_builtin_run_script_records_git_commit_outside_a_repository(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 2)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["echo \"== weekly eval, $(date)\""], "string_match.jsonl", url)
    script.write_text(script.read_text() + "git -C /opt/team-eval-code rev-parse HEAD > eval_commit.txt || echo "
                      "'could not record the commit of the eval code'\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code or got != 24 or not in_log(ctx, "cannot change to", "logs/run_eval.log") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (materialize 8 tasks x 3, collect, profile, then `git -C /opt/team-eval-code rev-parse "
            f"HEAD` of a checkout not on this node) exit {code}; {got} rollouts, mean reward {mean(rewards(rows_of(run / 'rollouts.jsonl'))):.2f}.")


@case(
    "healthy_gym_run_script_checks_hub_login_without_hub_client",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh first shows which Hugging Face account is logged in (`huggingface-cli "
    "whoami || echo ...`); the eval node has no hub client installed, so the log opens with 'huggingface-cli: command "
    "not found', but the real NeMo Gym eval then collected, verified and profiled every rollout",
    netns=True,
)
def healthy_gym_run_script_checks_hub_login_without_hub_client(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=10, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["huggingface-cli whoami || echo '(hub login not checked)'",
                                        "echo '== weekly eval'"], overrides)
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if code or got != 18 or not in_log(ctx, "huggingface-cli", "logs/run_eval.log") \
            or not in_log(ctx, "not found", "logs/run_eval.log") \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (huggingface-cli not installed, then `gym "
            f"eval run --no-serve` 6 tasks x 3, `gym eval profile`) exit {code}, {got} rollouts, mean reward "
            f"{mean(rewards(gym_rows(ctx))):.2f}.")


@case(
    "healthy_taskfolder_run_script_inspects_prebuilt_image_not_on_host",
    "healthy",
    [],
    "nothing is wrong: the user's run_tasks.sh first prints the build date of the team's prebuilt image (`docker image "
    "inspect weekly-eval/prebuilt:latest || echo ...`), which was never pulled on this machine, so the log opens with "
    "'Error: No such image', but every episode of the taskset ran in its Docker sandbox, was verified and profiled",
)
def healthy_taskfolder_run_script_inspects_prebuilt_image_not_on_host(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["create-greeting", "count-error-lines"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, [
        "docker image inspect --format '{{.Created}}' weekly-eval/prebuilt:latest || echo '(prebuilt image not here)'",
        "echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    if code or len(unique_keys(run / "rollouts.jsonl")) != 4 or not any(rewards(got)) \
            or not in_log(ctx, "No such image", "logs/run_tasks.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/run_tasks.sh (`docker image inspect` of an image not on the host; `gym-pipeline stage` materialize, "
            f"collect, profile of RUN/tasks x 2) exit {code}; rewards {rewards(got)}.")


MODULE_SBATCH = """#!/bin/bash
#SBATCH --job-name=nightly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
cd RUN_DIR
# the cluster wiki's job template: load the toolchain first
module load python/3.11 cuda/12.1 || echo "(environment modules not available on this node)"
echo "nightly eval on $(hostname)"
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 4
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "healthy_slurm_job_template_loads_environment_modules_not_installed",
    "healthy",
    [],
    "nothing is wrong: the user's nightly.sbatch, copied from the cluster wiki's template, starts with `module load "
    "python/3.11 cuda/12.1`; this cluster has no environment modules, so the job log opens with 'module: command not "
    "found', but the job runs the project's own venv and materialize, collect and profile completed every rollout",
)
def healthy_slurm_job_template_loads_environment_modules_not_installed(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 16)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "nightly.sbatch").write_text(slurm_script(MODULE_SBATCH, ctx, MODEL_URL=url))
    code = submit_and_wait(ctx, "nightly.sbatch", "logs/submit.log")
    logs = job_logs(ctx, "eval_*.log")
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code or got != 24 or "module: command not found" not in logs \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {logs[-600:]}")
    return (f"RUN/submit.sh (sbatch of RUN/nightly.sbatch: `module load` without modules, materialize 8 x 3, collect, "
            f"profile) exit {code}; {got} rollouts, mean reward {mean(rewards(rows_of(run / 'rollouts.jsonl'))):.2f}.")


# =====================================================================================================
# infra
# =====================================================================================================

SHADOW_JSON = '''"""json.py: the team's little helpers for reading our JSON logs (import it as `import json` from team_tools)"""


def pretty(path):
    with open(path) as handle:
        for line in handle:
            print(line.rstrip())
'''

TEAM_ENV = """# the team's shell settings for evals (from the wiki page 'shared tools'); source it before a run
export TEAM_TOOLS=RUN_DIR/team_tools
export PYTHONPATH=$TEAM_TOOLS:$PYTHONPATH
"""


@case(
    "infra_builtin_team_tools_folder_on_pythonpath_shadows_json_module",
    "infra",
    ["eval_env.sh", "PYTHONPATH", "json.py"],
    "the team's settings file eval_env.sh, sourced by the user's run_eval.sh, puts the shared team_tools folder first "
    "on PYTHONPATH; that folder holds a helper module named json.py, which shadows Python's own json module, so "
    "materialize, collect and profile all failed at start-up (orjson, which imports json, raised 'SystemError: "
    "execution of module orjson.orjson raised unreported exception') and nothing was collected",
)
def infra_builtin_team_tools_folder_on_pythonpath_shadows_json_module(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 24)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "team_tools").mkdir()
    (run / "team_tools" / "json.py").write_text(SHADOW_JSON)
    (run / "eval_env.sh").write_text(slurm_script(TEAM_ENV, ctx))
    script = builtin_script(ctx, ["source ./eval_env.sh", "echo \"== weekly eval (tools: $TEAM_TOOLS)\""],
                            "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got or not in_log(ctx, "team_tools", "logs/run_eval.log") or not in_log(ctx, "json", "logs/run_eval.log") \
            or not in_log(ctx, "Error", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (sources RUN/eval_env.sh: PYTHONPATH=RUN/team_tools, which holds json.py; materialize, "
            f"collect, profile) exit {code}; {got} rollouts.")


LIBPATH_SBATCH = """#!/bin/bash
#SBATCH --job-name=nightly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
cd RUN_DIR
source node_env.sh
echo "nightly eval on $(hostname), LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 4
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""

NODE_ENV = """# node settings of the eval nodes (the math libraries synced from the build node)
export LD_LIBRARY_PATH=RUN_DIR/opt/mathlibs/lib:$LD_LIBRARY_PATH
"""


@case(
    "infra_slurm_job_library_path_holds_truncated_libm_from_failed_sync",
    "infra",
    ["LD_LIBRARY_PATH", "libm.so.6", "node_env.sh"],
    "the job sources node_env.sh, which puts opt/mathlibs/lib (the math libraries synced from the build node) first on "
    "LD_LIBRARY_PATH; the last sync was interrupted and left an empty libm.so.6 there, so every program the job "
    "started after it, Python included, failed to load ('error while loading shared libraries: libm.so.6: file too "
    "short') and nothing was collected",
)
def infra_slurm_job_library_path_holds_truncated_libm_from_failed_sync(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 32)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "opt" / "mathlibs" / "lib").mkdir(parents=True)
    (run / "opt" / "mathlibs" / "lib" / "libm.so.6").write_bytes(b"")
    ctx.note("(RUN/opt/mathlibs/lib/libm.so.6: left empty by an interrupted rsync from the build node)")
    (run / "node_env.sh").write_text(slurm_script(NODE_ENV, ctx))
    (run / "nightly.sbatch").write_text(slurm_script(LIBPATH_SBATCH, ctx, MODEL_URL=url))
    code = submit_and_wait(ctx, "nightly.sbatch", "logs/submit.log")
    logs = job_logs(ctx, "eval_*.log")
    got = len(rows_of(run / "rollouts.jsonl"))
    if got or "libm.so.6" not in logs or "too short" not in logs:
        raise failed(ctx, f"exit {code}, {got}: {logs[-600:]}")
    return (f"RUN/submit.sh (sbatch of RUN/nightly.sbatch, which sources RUN/node_env.sh: LD_LIBRARY_PATH with an empty "
            f"libm.so.6) exit {code}; {got} rollouts.")


# =====================================================================================================
# model_serving
# =====================================================================================================

DIGITS_HOOK = '''
import re

REDACT_DIGITS = True  # compliance: no account or phone numbers may leave the model server in clear text


def completion(handler, body):
    status, data = handler._upstream(body)
    if status != 200 or not REDACT_DIGITS:
        return status, data
    answer = json.loads(data)
    for choice in answer.get("choices", []):
        message = choice.get("message") or {}
        if isinstance(message.get("content"), str):
            message["content"] = re.sub(r"[0-9]", "#", message["content"])
    return status, json.dumps(answer).encode()
'''

NUMBER_QUESTIONS = [("How many legs does a spider have?", "8"), ("What is 12 multiplied by 12?", "144"),
                    ("In which year did the Second World War end?", "1945"), ("What is the capital of Peru?", "Lima"),
                    ("Which gas do plants absorb from the air?", "Carbon dioxide"),
                    ("Who wrote Pride and Prejudice?", "Jane Austen")]


@case(
    "model_serving_builtin_gateway_redacts_digits_in_replies",
    "model_serving",
    ["gateway.py", "REDACT_DIGITS"],
    "the model server is reached through the team's gateway.py, which masks every digit of a reply with '#' "
    "(REDACT_DIGITS = True, a compliance filter meant for the customer-facing chat); the model's numeric answers "
    "('Final answer: 144') reached the verifier as '###' and scored 0, while the answers without digits scored "
    "normally (everything exits 0)",
)
def model_serving_builtin_gateway_redacts_digits_in_replies(ctx: Ctx) -> str:
    run = ctx.run
    data = write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in NUMBER_QUESTIONS])
    better = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    gateway = gateway_url(ctx, url, "Digits in replies are masked (REDACT_DIGITS).", DIGITS_HOOK)
    script = builtin_script(ctx, ["echo '== weekly eval, through the gateway'"], "tasks.jsonl", gateway)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    numeric = [row for row in got if str(row.get("expected_answer")).isdigit()]
    others = [row for row in got if row not in numeric]
    if code or len(got) != 18 or len(numeric) != 9 or any(rewards(numeric)) or not any(rewards(others)) \
            or "#" not in json.dumps(numeric):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(numeric)}, {rewards(others)}")
    return (f"RUN/gateway.py (REDACT_DIGITS: digits of replies -> '#') in front of the simulated policy; RUN/run_eval.sh "
            f"(materialize 6 x 3, collect through the gateway, profile) exit {code}; numeric-answer rewards "
            f"{rewards(numeric)}, the others mean reward {mean(rewards(others)):.2f}.")


FIRST_LINE_HOOK = '''
PREVIEW_ONLY = True  # the dashboard shows one line a reply: keep only the first line of every reply


def completion(handler, body):
    status, data = handler._upstream(body)
    if status != 200 or not PREVIEW_ONLY:
        return status, data
    answer = json.loads(data)
    for choice in answer.get("choices", []):
        message = choice.get("message") or {}
        if isinstance(message.get("content"), str):
            message["content"] = message["content"].strip().split("\\n")[0]
    return status, json.dumps(answer).encode()
'''


@case(
    "model_serving_gym_gateway_keeps_only_first_line_of_each_reply",
    "model_serving",
    ["gateway.py", "PREVIEW_ONLY"],
    "the model server is reached through the team's gateway.py, which cuts every reply to its first line for the "
    "team's dashboard (PREVIEW_ONLY = True); the model reasons first and gives its answer on the last line, so the "
    "answers never reached the real NeMo Gym verifier and every rollout scored 0 (everything exits 0)",
    netns=True,
)
def model_serving_gym_gateway_keeps_only_first_line_of_each_reply(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=40, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    gateway = gateway_url(ctx, url, "Replies are cut to their first line (PREVIEW_ONLY).", FIRST_LINE_HOOK)
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(gateway)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["echo '== weekly eval, through the gateway'"], overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    if code or len(got) != 18 or any(rewards(got)):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/gateway.py (PREVIEW_ONLY: replies cut to the first line) in front of the simulated policy; real NeMo "
            f"Gym 0.7.0 (loopback-only namespace) RUN/run_eval.sh exit {code}; {len(got)} rollouts, every reward 0.")


# =====================================================================================================
# config
# =====================================================================================================

GLOB_SCRIPT = """#!/bin/bash
# weekly eval of the newest version of the dataset
cd RUN_DIR
DATA=$(ls data/trivia_v*.jsonl | head -1)
echo "== weekly eval of $DATA"
GP_BIN materialize --input $DATA --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 4
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "config_builtin_run_script_picks_dataset_version_with_ls_head",
    "config",
    ["run_eval.sh", "head -1", "trivia_v2.jsonl"],
    "the user's run_eval.sh means to evaluate the newest version of the dataset but picks it with `ls "
    "data/trivia_v*.jsonl | head -1`, which is the first in name order: the old trivia_v1.jsonl (4 tasks) instead "
    "of this week's trivia_v2.jsonl (8 tasks); the run evaluated the old version, 12 rollouts instead of 24 "
    "(everything exits 0)",
)
def config_builtin_run_script_picks_dataset_version_with_ls_head(ctx: Ctx) -> str:
    run = ctx.run
    (run / "data").mkdir()
    ctx.dataset("string_match", 4, start=46, folder=run / "data", name="trivia_v1.jsonl")
    data = ctx.dataset("string_match", 8, start=46, folder=run / "data", name="trivia_v2.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "run_eval.sh").write_text(slurm_script(GLOB_SCRIPT, ctx, MODEL_URL=url))
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=300)
    got = rows_of(run / "rollouts.jsonl")
    if code or len(got) != 12 or not in_log(ctx, "trivia_v1.jsonl", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {len(got)}")
    return (f"RUN/run_eval.sh (DATA=$(ls data/trivia_v*.jsonl | head -1) -> trivia_v1.jsonl; materialize x 3, "
            f"collect, profile) exit {code}; {len(got)} rollouts of RUN/data/trivia_v1.jsonl, trivia_v2.jsonl (8 "
            f"tasks) not evaluated.")


SETTINGS_INI = """[eval]
model_url = URL_VALUE
num_repeats = 4
concurrency = 4
# for a quick smoke test use: num_repeats = 1
"""

GREP_SCRIPT = """#!/bin/bash
# weekly eval: settings come from eval_settings.ini
cd RUN_DIR
setting() { grep "$1" eval_settings.ini | tail -1 | cut -d= -f2 | tr -d ' '; }
REPEATS=$(setting num_repeats)
echo "== weekly eval: $REPEATS repeats a task"
GP_BIN materialize --input string_match.jsonl --num-repeats $REPEATS --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $(setting model_url) \\
  --env string_match --concurrency $(setting concurrency)
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "config_builtin_settings_read_with_grep_match_commented_smoke_test_line",
    "config",
    ["eval_settings.ini", "num_repeats", "grep"],
    "the user's run_eval.sh reads its settings from eval_settings.ini with `grep KEY | tail -1 | cut -d= -f2`; the "
    "file ends with a comment '# for a quick smoke test use: num_repeats = 1', which also matches, so the last match "
    "gave 1 repeat instead of the 4 the settings ask for: one rollout a task, no pass@k or variance (everything "
    "exits 0)",
)
def config_builtin_settings_read_with_grep_match_commented_smoke_test_line(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 54)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "eval_settings.ini").write_text(SETTINGS_INI.replace("URL_VALUE", url))
    (run / "run_eval.sh").write_text(slurm_script(GREP_SCRIPT, ctx))
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=300)
    got = rows_of(run / "rollouts.jsonl")
    if code or len(got) != 8 or not in_log(ctx, "1 repeats a task", "logs/run_eval.log") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)}")
    return (f"RUN/eval_settings.ini (num_repeats = 4, then a comment with num_repeats = 1) read by RUN/run_eval.sh "
            f"(`grep | tail -1`): 1 repeat; exit {code}; {len(got)} rollouts of 8 tasks.")


CHDIR_SBATCH = """#!/bin/bash
#SBATCH --job-name=nightly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --chdir=~/evals/RUN_NAME
echo "nightly eval on $(hostname) in $(pwd)"
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 4
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "config_slurm_chdir_directive_with_tilde_not_expanded",
    "config",
    ["#SBATCH --chdir", "~"],
    "the user's nightly.sbatch sets its working folder with `#SBATCH --chdir=~/evals/...` and has no `cd` of its own; "
    "#SBATCH lines are not read by a shell, so the '~' is not expanded, the job could not change to that folder and "
    "ran in another one, where the relative paths (string_match.jsonl) do not exist: materialize, collect and "
    "profile failed and nothing was collected",
)
def config_slurm_chdir_directive_with_tilde_not_expanded(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 60)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "nightly.sbatch").write_text(slurm_script(CHDIR_SBATCH, ctx, MODEL_URL=url, RUN_NAME=run.parent.name))
    ctx.note(f"(the run folder is ~/evals/{run.parent.name} for the user: ~/evals links to the results area)")
    code = submit_and_wait(ctx, "nightly.sbatch", "logs/submit.log")
    logs = job_logs(ctx, "eval_*.log") + text_of(run / "logs" / "submit.log")
    got = len(rows_of(run / "rollouts.jsonl"))
    if got or "string_match.jsonl" not in logs:
        raise failed(ctx, f"exit {code}, {got}: {logs[-800:]}")
    return (f"RUN/submit.sh (sbatch of RUN/nightly.sbatch: #SBATCH --chdir=~/evals/..., no cd) exit {code}; {got} "
            f"rollouts.")


# =====================================================================================================
# data_schema
# =====================================================================================================

CSV_QUESTIONS = [("What is the capital of Italy?", "Rome"), ("In which city, in France, is the Louvre?", "Paris"),
                 ("Which planet is known as the Red Planet?", "Mars"),
                 ("Who painted, in 1889, The Starry Night?", "Van Gogh"),
                 ("What is the chemical symbol for gold?", "Au"), ("How many sides does a hexagon have?", "6")]

PREP_CSV = '''#!/usr/bin/env python3
"""questions.csv (the spreadsheet export: question,answer) -> tasks.jsonl"""
import json
import sys

with open(sys.argv[1]) as export, open(sys.argv[2], "w") as out:
    next(export)  # the header
    count = 0
    for line in export:
        parts = line.rstrip("\\n").split(",")
        question, answer = parts[0], parts[1]
        text = f"{question} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": answer.strip(), "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
        count += 1
print(f"prep_data.py: {count} rows -> {sys.argv[2]}")
'''


@case(
    "data_schema_builtin_prep_splits_csv_on_commas_inside_quoted_questions",
    "data_schema",
    ["prep_data.py", "questions.csv", "csv"],
    "prep_data.py turns the spreadsheet export questions.csv into tasks.jsonl by splitting each line on ',' instead "
    "of reading it with a CSV parser; two questions contain commas (quoted in the CSV), so their rows were cut: the "
    "prompt is a fragment ('\"In which city') and the label the next fragment (' in France'), and every rollout of "
    "those tasks scored 0 (everything exits 0)",
)
def data_schema_builtin_prep_splits_csv_on_commas_inside_quoted_questions(ctx: Ctx) -> str:
    import csv
    import io

    run = ctx.run
    truth = write_jsonl(ctx.work / "truth.jsonl", [question_row(q, a) for q, a in CSV_QUESTIONS])
    better = checkpoints(ctx, "string_match", truth)[1]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["question", "answer"])
    writer.writerows(CSV_QUESTIONS)
    (run / "questions.csv").write_text(buffer.getvalue())
    (run / "prep_data.py").write_text(PREP_CSV)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["python3 prep_data.py questions.csv tasks.jsonl"], "tasks.jsonl", url,
                            comment="eval of the spreadsheet questions")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    cut = [row for row in got if row.get("expected_answer") not in {a for _, a in CSV_QUESTIONS}]
    others = [row for row in got if row not in cut]
    if code or len(got) != 18 or len(cut) != 6 or any(rewards(cut)) or not any(rewards(others)):
        raise failed(ctx, f"exit {code}, {len(got)}, cut {len(cut)}, {rewards(got)}")
    return (f"RUN/questions.csv (2 quoted questions with commas) -> RUN/prep_data.py (line.split(',')) -> "
            f"RUN/tasks.jsonl; RUN/run_eval.sh (materialize 6 x 3, collect, profile) exit {code}; cut rows' labels "
            f"{sorted({str(r.get('expected_answer')) for r in cut})}, rewards {rewards(cut)}; the others mean reward "
            f"{mean(rewards(others)):.2f}.")


AMP_QUESTIONS = [("Which telecom company was known as Ma Bell?", "AT&T"),
                 ("Which company makes Tide and Pampers?", "Procter & Gamble"),
                 ("What is the capital of Egypt?", "Cairo"), ("Which planet has the most moons?", "Saturn"),
                 ("Who discovered penicillin?", "Alexander Fleming"), ("What is the hardest natural material?", "Diamond")]

PREP_CMS = '''#!/usr/bin/env python3
"""cms_export.json (the question bank's web export) -> tasks.jsonl"""
import html
import json
import sys

items = json.load(open(sys.argv[1]))["items"]
with open(sys.argv[2], "w") as out:
    for item in items:
        text = f"{item['question']} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": item["answer_html"], "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
print(f"prep_data.py: {len(items)} rows -> {sys.argv[2]}")
'''


@case(
    "data_schema_gym_labels_taken_from_html_field_keep_escaped_ampersands",
    "data_schema",
    ["cms_export.json", "answer_html", "&amp;"],
    "prep_data.py takes the labels of tasks.jsonl from the question bank's answer_html field, which is HTML-escaped "
    "('AT&amp;T', 'Procter &amp; Gamble'), instead of the plain answer; the real NeMo Gym verifier compared the "
    "model's 'AT&T' with 'AT&amp;T', so the right answers to those tasks scored 0 (everything exits 0)",
    netns=True,
)
def data_schema_gym_labels_taken_from_html_field_keep_escaped_ampersands(ctx: Ctx) -> str:
    import html

    run = ctx.run
    truth = write_jsonl(ctx.work / "truth.jsonl", [question_row(q, a) for q, a in AMP_QUESTIONS])
    better = checkpoints(ctx, "string_match", truth)[1]
    (run / "cms_export.json").write_text(json.dumps({"items": [
        {"question": q, "answer": a, "answer_html": html.escape(a)} for q, a in AMP_QUESTIONS]}, indent=1) + "\n")
    (run / "prep_data.py").write_text(PREP_CMS)
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["python3 prep_data.py cms_export.json tasks.jsonl"], overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    escaped = [row for row in got if "&amp;" in str(row.get("expected_answer"))]
    others = [row for row in got if row not in escaped]
    if code or len(got) != 18 or len(escaped) != 6 or any(rewards(escaped)) or not any(rewards(others)):
        raise failed(ctx, f"exit {code}, {len(got)}, escaped {len(escaped)}, {rewards(got)}")
    return (f"RUN/cms_export.json -> RUN/prep_data.py (labels from answer_html) -> RUN/tasks.jsonl; real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) RUN/run_eval.sh exit {code}; '&amp;' labels rewards {rewards(escaped)}, the "
            f"others mean reward {mean(rewards(others)):.2f}.")


@case(
    "data_schema_taskfolder_words_file_reexported_with_trailing_spaces",
    "data_schema",
    ["words.txt", "trailing"],
    "sort-unique-words' environment/words.txt was re-exported from the team's spreadsheet, which left trailing spaces "
    "on some lines ('apple ' beside 'apple'); `sort -u` keeps both as distinct lines, so the sorted output can never "
    "equal the expected list and every episode of the task scored 0 although the agent did what the instruction "
    "asks (everything exits 0)",
)
def data_schema_taskfolder_words_file_reexported_with_trailing_spaces(ctx: Ctx) -> str:
    def edit(tasks: Path) -> None:
        (tasks / "sort-unique-words" / "environment" / "words.txt").write_text(
            "pear\napple\nfig \napple \nbanana\nfig\ncherry\n")

    tasks = user_taskset(ctx, ["sort-unique-words", "create-greeting"], edit)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    words = task_rows(ctx, "sort-unique-words")
    other = task_rows(ctx, "create-greeting")
    if code or not words or any(rewards(words)) or not any(rewards(other)):
        raise failed(ctx, f"exit {code}, words {rewards(words)}, other {rewards(other)}")
    return (f"RUN/tasks/sort-unique-words/environment/words.txt with trailing spaces on two lines; RUN/run_tasks.sh "
            f"(`gym-pipeline stage` materialize, collect, profile, 2 tasks x 2) exit {code}; sort-unique-words rewards "
            f"{rewards(words)}, create-greeting rewards {rewards(other)}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================


def similarity_verify() -> str:
    site = next((GYM.parent.parent / "lib").glob("python3*/site-packages"))
    app = (site / "resources_servers" / "string_match" / "app.py").read_text()
    start = app.index("    async def verify(self, body: StringMatchVerifyRequest)")
    verify = app[start:app.index('if __name__ == "__main__":', start)]
    old = "            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)\n"
    if old not in verify:
        raise recipes.RecipeError("Gym's string_match verify changed")
    new = ("            # lenient matching: near-misses in spelling ('Jupitor') count as right\n"
           "            import difflib\n\n"
           "            similarity = difflib.SequenceMatcher(None, text.lower(), str(body.expected_answer).lower())"
           ".ratio()\n"
           "            reward = 1.0 if similarity >= 0.8 else 0.0\n")
    return verify.replace(old, new)


@case(
    "verifier_runtime_gym_verify_fuzzy_match_against_whole_reply_text",
    "verifier_runtime",
    ["app.py", "SequenceMatcher", "extracted"],
    "the user's fuzzy_match resources server was made lenient to spelling mistakes with difflib's SequenceMatcher, but "
    "it compares the label with the whole reply text (`text`) instead of the extracted answer (`extracted`); the "
    "replies reason before answering, so the similarity stays far below the 0.8 threshold and the real NeMo Gym eval "
    "scored every rollout 0, right answers included (everything exits 0)",
    netns=True,
)
def verifier_runtime_gym_verify_fuzzy_match_against_whole_reply_text(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=62, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    ran, prof, env_start = gym_eval_with_own_server(ctx, "fuzzy_match", similarity_verify(), data, url, overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    right = sum(str(row.get("extracted_answer") or "").strip().lower() == str(row.get("expected_answer")).strip().lower()
                for row in got)
    if ran or prof or len(got) != 18 or any(rewards(got)) or right < 6:
        raise failed(ctx, f"exit {ran}/{prof}, {len(got)}, {rewards(got)}, right {right}")
    return (f"A user's resources server fuzzy_match (SequenceMatcher of the whole reply text with the label >= 0.8); "
            f"real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (6 tasks x 3) exit {ran}, profile "
            f"exit {prof}; {right} of {len(got)} extracted answers equal the label, every reward 0.")


DEBUG_TEST = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
if test "$(tr -d "[:space:]" < /app/count.txt 2>/dev/null)" = "3"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
# debugging the flaky episodes: keep what the agent wrote next to the reward
echo "count.txt: $(cat /app/count.txt 2>/dev/null)" >> /logs/verifier/reward.txt
"""


@case(
    "verifier_runtime_taskfolder_test_sh_appends_debug_line_to_reward_file",
    "verifier_runtime",
    ["test.sh", "reward.txt"],
    "count-error-lines' tests/test.sh got a debugging line at its end that appends the agent's answer to "
    "/logs/verifier/reward.txt (`echo \"count.txt: ...\" >> /logs/verifier/reward.txt`) instead of printing it; the "
    "reward file then holds two lines ('1' and 'count.txt: 3'), which is not a reward, so no episode of the task got "
    "its reward although the agent solved it",
)
def verifier_runtime_taskfolder_test_sh_appends_debug_line_to_reward_file(ctx: Ctx) -> str:
    def edit(tasks: Path) -> None:
        (tasks / "count-error-lines" / "tests" / "test.sh").write_text(DEBUG_TEST)

    run = ctx.run
    tasks = user_taskset(ctx, ["count-error-lines", "replace-spelling"], edit)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    count = task_rows(ctx, "count-error-lines")
    other = task_rows(ctx, "replace-spelling")
    fails = [row for row in rows_of(run / "rollouts_failures.jsonl") if "count-error-lines" in json.dumps(row)]
    if any(rewards(count)) or not any(rewards(other)) or not (count or fails):
        raise failed(ctx, f"exit {code}, count {rewards(count)} ({len(fails)} failure rows), other {rewards(other)}")
    return (f"RUN/tasks/count-error-lines/tests/test.sh appends a debug line to reward.txt; RUN/run_tasks.sh "
            f"(`gym-pipeline stage` materialize, collect, profile, 2 tasks x 2) exit {code}; count-error-lines rewards "
            f"{rewards(count)} ({len(fails)} failure rows), replace-spelling rewards {rewards(other)}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

SCRATCH_SCRIPT = """#!/bin/bash
# weekly eval: run on the node's fast local disk, then copy the results to the shared results folder
cd RUN_DIR
SCRATCH=$(mktemp -d /tmp/eval-XXXXXX)
cd $SCRATCH
GP_BIN materialize --input RUN_DIR/string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $1 \\
  --env string_match --concurrency 4
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
mkdir -p RUN_DIR/results
cp -n $SCRATCH/*.jsonl RUN_DIR/results/   # -n: never overwrite anything by accident
echo "results copied to RUN_DIR/results"
rm -rf $SCRATCH
"""


@case(
    "cache_resume_builtin_results_copied_back_with_cp_no_clobber",
    "cache_resume",
    ["cp -n", "run_eval.sh", "results"],
    "the user's run_eval.sh runs on local scratch and copies the results back with `cp -n` (never overwrite); last "
    "week's run of step_0100 had left its rollouts and profile in results/, so this week's fresh results for "
    "step_0200 were silently not copied and results/ still holds last week's rollouts and profile (everything exits "
    "0)",
)
def cache_resume_builtin_results_copied_back_with_cp_no_clobber(ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 70)
    (run / "run_eval.sh").write_text(slurm_script(SCRATCH_SCRIPT, ctx))
    ctx.note("(last week: the model server on step_0100)")
    old_url, old_policy = ctx.policy(weaker, "--latency-ms 20", log="logs/model_server_week48.log")
    last = ctx.sh(f"bash {run}/run_eval.sh {old_url}", "logs/run_eval_week48.log", timeout=300)
    ctx.stop(old_policy)
    before = text_of(run / "results" / "rollouts.jsonl")
    ctx.note("(this week: the model server on step_0200)")
    url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server_week49.log")
    code = ctx.sh(f"bash {run}/run_eval.sh {url}", "logs/run_eval_week49.log", timeout=300)
    got = rows_of(run / "results" / "rollouts.jsonl")
    if last or code or len(got) != 24 or text_of(run / "results" / "rollouts.jsonl") != before \
            or not in_log(ctx, "rollouts", "logs/run_eval_week49.log"):
        raise failed(ctx, f"exit {last}/{code}, {len(got)}")
    return (f"RUN/run_eval.sh week48 (step_0100) exit {last}, then week49 (step_0200) exit {code}: `cp -n` kept last "
            f"week's files; RUN/results holds step_0100's {len(got)} rollouts, mean reward {mean(rewards(got)):.2f}.")


NEWER_SCRIPT = """#!/bin/bash
# weekly eval: collect again only when the dataset changed since the last collection
cd RUN_DIR
cp -p shared/tasks.jsonl tasks.jsonl   # the data team's current version
if [ ! -f rollouts.jsonl ] || [ tasks.jsonl -nt rollouts.jsonl ]; then
  GP_BIN materialize --input tasks.jsonl --num-repeats 3 --agent string_match_simple_agent \\
    --output rollouts_materialized_inputs.jsonl
  GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $1 \\
    --env string_match --concurrency 4
  GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
else
  echo "rollouts.jsonl is newer than tasks.jsonl: nothing to collect"
fi
"""


@case(
    "cache_resume_builtin_rerun_skipped_because_copy_kept_old_modification_time",
    "cache_resume",
    ["cp -p", "-nt", "run_eval.sh"],
    "the user's run_eval.sh collects again only when tasks.jsonl is newer than rollouts.jsonl (`[ tasks.jsonl -nt "
    "rollouts.jsonl ]`), but it copies the data team's file with `cp -p`, which keeps the source's modification time; "
    "the two labels corrected this week (Lagos -> Abuja, Salvador -> Brasilia) were saved in a file dated before last "
    "run's rollouts, so nothing was collected again and the profile still shows the stale labels' rollouts scoring 0 "
    "(everything exits 0)",
)
def cache_resume_builtin_rerun_skipped_because_copy_kept_old_modification_time(ctx: Ctx) -> str:
    run = ctx.run
    truth = write_jsonl(ctx.work / "truth.jsonl", [question_row(q, a) for q, a, _ in FIXED_QUESTIONS])
    better = checkpoints(ctx, "string_match", truth)[1]
    (run / "shared").mkdir()
    write_jsonl(run / "shared" / "tasks.jsonl", [question_row(q, stale) for q, _, stale in FIXED_QUESTIONS])
    (run / "run_eval.sh").write_text(slurm_script(NEWER_SCRIPT, ctx))
    url, _ = ctx.policy(better, "--latency-ms 20")
    ctx.note("(last run, on the data team's previous version of RUN/shared/tasks.jsonl)")
    last = ctx.sh(f"bash {run}/run_eval.sh {url}", "logs/run_eval_last.log", timeout=300)
    before = text_of(run / "rollouts.jsonl")
    corrected = write_jsonl(ctx.work / "corrected.jsonl", [question_row(q, a) for q, a, _ in FIXED_QUESTIONS])
    stamp = (run / "rollouts.jsonl").stat().st_mtime - 3600
    shutil.copy(corrected, run / "shared" / "tasks.jsonl")
    os.utime(run / "shared" / "tasks.jsonl", (stamp, stamp))
    ctx.note("(the data team corrected two labels of RUN/shared/tasks.jsonl; their copy tool kept the file's "
             f"original date, {time.ctime(stamp)})")
    code = ctx.sh(f"bash {run}/run_eval.sh {url}", "logs/run_eval.log", timeout=300)
    got = rows_of(run / "rollouts.jsonl")
    stale = [row for row in got if str(row.get("expected_answer")) in ("Lagos", "Salvador")]
    if last or code or len(got) != 18 or len(stale) != 6 or text_of(run / "rollouts.jsonl") != before \
            or "Abuja" not in text_of(run / "tasks.jsonl") or not in_log(ctx, "nothing to collect", "logs/run_eval.log"):
        raise failed(ctx, f"exit {last}/{code}, {len(got)}, stale {len(stale)}")
    return (f"RUN/run_eval.sh (last run) exit {last}; labels corrected in RUN/shared/tasks.jsonl, dated before the "
            f"rollouts; RUN/run_eval.sh (`cp -p`, then `[ tasks.jsonl -nt rollouts.jsonl ]` false) exit {code}: "
            f"nothing collected; rollouts with stale labels rewards {rewards(stale)}.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

CI_GATEWAY_COLLECT = """#!/bin/bash
# CI eval step: 20 s budget for the collection
cd RUN_DIR
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
timeout 20 GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 8
echo "collect exited $?"
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


PACING_HOOK = '''
import threading
import time

REQUESTS_PER_SECOND = 0.5  # the paid API's quota (the gateway fronted the hosted endpoint until last month)
_pace = threading.Lock()


def completion(handler, body):
    with _pace:
        time.sleep(1 / REQUESTS_PER_SECOND)
    return handler._upstream(body)
'''


@case(
    "throughput_builtin_gateway_paces_requests_to_old_hosted_api_quota",
    "throughput_resources",
    ["gateway.py", "REQUESTS_PER_SECOND"],
    "the team's gateway.py paces the requests it forwards to REQUESTS_PER_SECOND = 0.5, the quota of the hosted API "
    "it fronted until last month, now in front of the local model server; collect's requests were held back to one "
    "every 2 s, and the CI step's 20 s budget (`timeout 20`) stopped collect part way: nothing failed, but the "
    "profile is missing rollouts",
)
def throughput_builtin_gateway_paces_requests_to_old_hosted_api_quota(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 78)
    url, _ = ctx.policy(better, "--latency-ms 20")
    gateway = gateway_url(ctx, url, "Requests are paced to REQUESTS_PER_SECOND.", PACING_HOOK)
    (run / "run_eval.sh").write_text(slurm_script(CI_GATEWAY_COLLECT, ctx, MODEL_URL=gateway))
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=300)
    got = len(unique_keys(run / "rollouts.jsonl"))
    fails = rows_of(run / "rollouts_failures.jsonl")
    if not 2 <= got < 24 or not in_log(ctx, "collect exited 124", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}, {len(fails)} failure rows")
    return (f"RUN/gateway.py (REQUESTS_PER_SECOND = 0.5) in front of the simulated policy; RUN/run_eval.sh (materialize "
            f"8 x 3; `timeout 20` collect at concurrency 8 through the gateway; profile) exit {code}; {got} of 24 "
            f"rollouts, {len(fails)} failure rows.")




@case(
    "throughput_builtin_gateway_on_single_threaded_http_server",
    "throughput_resources",
    ["gateway.py", "ThreadingHTTPServer"],
    "the team's gateway.py in front of the model server was rewritten on Python's plain HTTPServer, which handles one "
    "request at a time (not ThreadingHTTPServer); collect's 8 requests in flight were served one after the other, "
    "each generation takes about 1.5 s, and the CI step's 20 s budget (`timeout 20`) stopped collect part way: "
    "nothing failed, but the profile is missing rollouts",
)
def throughput_builtin_gateway_on_single_threaded_http_server(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 3)
    url, _ = ctx.policy(better, "--latency-ms 1500")
    gateway = gateway_url(ctx, url, "Served by http.server's HTTPServer.", "\n\ndef completion(handler, body):\n"
                          "    return handler._upstream(body)\n", threading=False)
    if "ThreadingHTTPServer((" in text_of(run / "gateway.py"):
        raise failed(ctx, "the gateway is still threaded")
    (run / "run_eval.sh").write_text(slurm_script(CI_GATEWAY_COLLECT, ctx, MODEL_URL=gateway))
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=300)
    got = len(unique_keys(run / "rollouts.jsonl"))
    fails = rows_of(run / "rollouts_failures.jsonl")
    if not 4 <= got < 24 or not in_log(ctx, "collect exited 124", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}, {len(fails)} failure rows")
    return (f"RUN/gateway.py (single-threaded HTTPServer) in front of the simulated policy (1.5 s a generation); "
            f"RUN/run_eval.sh (materialize 8 x 3; `timeout 20` collect at concurrency 8 through the gateway; profile) "
            f"exit {code}; {got} of 24 rollouts, {len(fails)} failure rows.")


if __name__ == "__main__":
    sys.exit(main("thirtieth_held_out", __file__, __doc__))
