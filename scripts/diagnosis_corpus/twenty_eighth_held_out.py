"""Build the TWENTY-EIGHTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/twenty_eighth_held_out.py --out tests/data/diagnosis_corpus/twenty_eighth_held_out [--only CASE ...]

This set was written from the guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder
troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests
or their results. It is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
task folders run in Docker sandboxes, Slurm batch jobs, the real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` /
`gym eval profile` inside a loopback-only network namespace, with a user's own resources server), and the user's own
shell scripts, Makefiles, settings, helper servers (gateways), node scripts and data-preparation scripts. The output
of every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand
but the user's own inputs (data, scripts, settings, verifier code). Each case injects one cause, different in
mechanism from those of the twenty-seven earlier sets (first_held_out.py ... twenty_seventh_held_out.py), and each
recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not written). About
half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare,
iptables inside a private network namespace, scontrol), Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this
checkout. Run it from a foreground shell.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
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
from twenty_fourth_held_out import gym_profile_line  # noqa: E402
from twenty_second_held_out import question_row, response_text  # noqa: E402
from twenty_seventh_held_out import (  # noqa: E402
    builtin_script,
    gateway_source,
    gym_eval_with_own_server,
    submit_and_wait,
)
from twenty_sixth_held_out import free_port, gym_run, slurm_script, start_helper  # noqa: E402
from twenty_third_held_out import final_answer, taskset_script, write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


def prompt_text(row: dict) -> str:
    """The text of a rollout's prompt messages."""
    parts = []
    for message in row.get("responses_create_params", {}).get("input") or []:
        content = message.get("content") if isinstance(message, dict) else message
        if isinstance(content, list):
            parts += [str(part.get("text") or "") for part in content if isinstance(part, dict)]
        else:
            parts.append(str(content))
    return "\n".join(parts)


def gym_rows(ctx: Ctx) -> list[dict]:
    return rows_of(ctx.run / "results" / "rollouts.jsonl")


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_builtin_run_script_sources_conda_setup_missing_on_node",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh starts with `source ~/miniconda3/etc/profile.d/conda.sh` and `conda "
    "activate eval` (from their laptop's habits); this node has no conda, so the log opens with 'No such file or "
    "directory' and 'conda: command not found', but the pipeline's CLI is called by its full path and materialize, "
    "collect and profile completed every rollout",
)
def healthy_builtin_run_script_sources_conda_setup_missing_on_node(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 34)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["source ~/miniconda3/etc/profile.d/conda.sh", "conda activate eval",
                                  "echo \"== weekly eval, $(date)\""], "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code or got != 24 or not in_log(ctx, "conda: command not found", "logs/run_eval.log") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (sources a missing conda.sh, `conda activate` not found; materialize 8 tasks x 3, "
            f"collect, profile) exit {code}; {got} rollouts, mean reward "
            f"{mean(rewards(rows_of(run / 'rollouts.jsonl'))):.2f}.")


@case(
    "healthy_gym_run_script_optional_wandb_upload_without_wandb_installed",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh tries to start a Weights & Biases run first (`python3 -c 'import "
    "wandb; ...' || echo 'wandb not available: results are not uploaded'`); wandb is not installed, so the log opens "
    "with a Traceback and 'ModuleNotFoundError: No module named wandb', but the real NeMo Gym eval then collected, "
    "verified and profiled every rollout",
    netns=True,
)
def healthy_gym_run_script_optional_wandb_upload_without_wandb_installed(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=70, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["python3 -c \"import wandb; wandb.init(project='weekly-eval')\" "
                                        "|| echo 'wandb not available: results are not uploaded'"], overrides)
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if code or got != 18 or not in_log(ctx, "No module named", "logs/run_eval.log") \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (`import wandb` fails, then `gym eval "
            f"run --no-serve` 6 tasks x 3, `gym eval profile`) exit {code}, {got} rollouts, mean reward "
            f"{mean(rewards(gym_rows(ctx))):.2f}.")


@case(
    "healthy_taskfolder_run_script_lints_itself_with_shellcheck_not_installed",
    "healthy",
    [],
    "nothing is wrong: the user's run_tasks.sh first lints itself (`shellcheck \"$0\" || echo '(lint skipped)'`); "
    "shellcheck is not installed on this machine, so the log opens with 'shellcheck: command not found', but every "
    "episode of the taskset ran in its Docker sandbox, was verified and profiled",
)
def healthy_taskfolder_run_script_lints_itself_with_shellcheck_not_installed(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["sort-unique-words", "json-version"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["shellcheck \"$0\" || echo '(lint skipped)'",
                                                          "echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    if code or len(unique_keys(run / "rollouts.jsonl")) != 4 or not any(rewards(got)) \
            or not in_log(ctx, "shellcheck: command not found", "logs/run_tasks.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/run_tasks.sh (shellcheck missing; `gym-pipeline stage` materialize, collect, profile of RUN/tasks x "
            f"2) exit {code}; rewards {rewards(got)}.")


ARCHIVE_SBATCH = """#!/bin/bash
#SBATCH --job-name=nightly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
cd RUN_DIR
echo "nightly eval on $(hostname)"
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 4
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
# keep a copy in the team archive (mounted on the old cluster's nodes)
cp rollouts*.jsonl /archive/$USER/nightly/
"""


@case(
    "healthy_slurm_job_copies_results_to_archive_mount_missing_on_node",
    "healthy",
    [],
    "nothing is wrong: the user's nightly.sbatch ends by copying the results to the team archive (`cp rollouts*.jsonl "
    "/archive/$USER/nightly/`), a mount only the old cluster's nodes have; the cp fails and the job ends with exit "
    "code 1, but materialize, collect and profile had completed every rollout in the run folder before it",
)
def healthy_slurm_job_copies_results_to_archive_mount_missing_on_node(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 40)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "nightly.sbatch").write_text(slurm_script(ARCHIVE_SBATCH, ctx, MODEL_URL=url))
    code = submit_and_wait(ctx, "nightly.sbatch", "logs/submit.log")
    logs = job_logs(ctx, "eval_*.log")
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code or got != 24 or "cp: " not in logs or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {logs[-600:]}")
    return (f"RUN/submit.sh (sbatch of RUN/nightly.sbatch: materialize 8 x 3, collect, profile, then cp to the "
            f"missing /archive) exit {code}; {got} rollouts, mean reward "
            f"{mean(rewards(rows_of(run / 'rollouts.jsonl'))):.2f}.")


# =====================================================================================================
# infra
# =====================================================================================================

CHAOS_DRILL = """#!/bin/bash
# resilience drill (Tuesday): reset half of the packets sent to a local service port, to see the clients retry
# usage: chaos_drill.sh PORT       (undo: iptables -D INPUT ... with the same arguments)
iptables -A INPUT -p tcp --dport $1 -m statistic --mode random --probability 0.5 -j REJECT --reject-with tcp-reset
iptables -S INPUT
echo "chaos_drill.sh: half of the packets to port $1 are answered with a reset"
"""


@case(
    "infra_builtin_chaos_drill_rule_left_resets_model_connections_at_random",
    "infra",
    ["chaos_drill.sh", "--probability 0.5"],
    "a resilience drill on this node (node_setup/chaos_drill.sh) added an iptables rule that answers half of the packets "
    "sent to the model server's port with a TCP reset (`-m statistic --mode random --probability 0.5 -j REJECT`) and "
    "was never undone; collect's connections were reset at random, and the rollouts whose every retry was reset "
    "failed",
    netns=True,
)
def infra_builtin_chaos_drill_rule_left_resets_model_connections_at_random(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 10)
    url, _ = ctx.policy(better, "--latency-ms 20")
    port = url.rsplit(":", 1)[1].split("/")[0]
    (run / "node_setup").mkdir()
    (run / "node_setup" / "chaos_drill.sh").write_text(CHAOS_DRILL)
    ctx.note("(Tuesday's resilience drill on this node, never undone)")
    if ctx.sh(f"bash {run}/node_setup/chaos_drill.sh {port}", "node_setup/chaos_drill.log", timeout=30):
        raise failed(ctx, "the drill rule was not applied")
    script = builtin_script(ctx, ["echo \"== weekly eval against $(hostname)\""], "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    got = len(unique_keys(run / "rollouts.jsonl"))
    fails = rows_of(run / "rollouts_failures.jsonl")
    counters = subprocess.run(["iptables", "-L", "INPUT", "-v", "-n", "-x"], capture_output=True, text=True).stdout
    rejected = sum(int(line.split()[0]) for line in counters.splitlines() if "REJECT" in line)
    if got >= 24 or not fails or rejected < 3:
        raise failed(ctx, f"exit {code}, {got}, {len(fails)} failure rows, rejected {rejected}")
    return (f"RUN/node_setup/chaos_drill.sh {port} (half of the packets to the model port reset); RUN/run_eval.sh (materialize "
            f"8 x 3, collect, profile) exit {code}; {got} of 24 rollouts, {len(fails)} failure rows, {rejected} "
            f"connections reset.")


DEADLINE_SUBMIT = """#!/bin/bash
# nightly: submit the eval; it must be done within DEADLINE_S for the morning report, else it is cancelled
cd RUN_DIR
JOB=$(sbatch --parsable nightly.sbatch)
echo "eval job $JOB"
DEADLINE_S=40
for i in $(seq $((DEADLINE_S / 2))); do
  squeue -h -j $JOB 2>/dev/null | grep -q . || break
  sleep 2
done
squeue -h -o "%i %j %P %T %r"
sinfo
if squeue -h -j $JOB 2>/dev/null | grep -q .; then
  echo "eval job $JOB not done after $DEADLINE_S s: cancelling it"
  scancel $JOB
fi
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "infra_slurm_partition_set_down_for_maintenance_job_never_starts",
    "infra",
    ["PartitionDown", "debug"],
    "the admins set the cluster's partition (debug) DOWN for a maintenance window (`scontrol update "
    "PartitionName=debug State=DOWN`); the user's nightly eval job was accepted but stayed PENDING with reason "
    "PartitionDown until the submit script's 40 s deadline cancelled it: nothing was materialized, collected or "
    "profiled",
)
def infra_slurm_partition_set_down_for_maintenance_job_never_starts(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 44)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "nightly.sbatch").write_text(slurm_script(ARCHIVE_SBATCH.replace(
        "# keep a copy in the team archive (mounted on the old cluster's nodes)\ncp rollouts*.jsonl "
        "/archive/$USER/nightly/\n", ""), ctx, MODEL_URL=url))
    (run / "submit.sh").write_text(slurm_script(DEADLINE_SUBMIT, ctx))
    ctx.note("(the admins' maintenance window, announced on the cluster mailing list: scontrol update "
             "PartitionName=debug State=DOWN)")
    subprocess.run(["scontrol", "update", "PartitionName=debug", "State=DOWN"], check=True, env=ctx.env)
    try:
        code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=200)
    finally:
        subprocess.run(["scontrol", "update", "PartitionName=debug", "State=UP"], env=ctx.env)
    submit_log = text_of(run / "logs" / "submit.log")
    got = len(rows_of(run / "rollouts.jsonl"))
    if got or "PartitionDown" not in submit_log or "cancelling it" not in submit_log:
        raise failed(ctx, f"exit {code}, {got}: {submit_log[-800:]}")
    return (f"partition debug DOWN (maintenance); RUN/submit.sh (sbatch of RUN/nightly.sbatch, 40 s deadline, profile) "
            f"exit {code}; the job pended (PartitionDown) and was cancelled; {got} rollouts.")


# =====================================================================================================
# model_serving
# =====================================================================================================

REDACT_HOOK = '''
import re

REDACT_PATTERN = re.compile(r"\\b\\d{3,}\\b")  # PII filter (phone, account and ticket numbers) before replies leave


def completion(handler, body):
    status, data = handler._upstream(body)
    if status != 200:
        return status, data
    answer = json.loads(data)
    for choice in answer.get("choices", []):
        message = choice.get("message") or {}
        if isinstance(message.get("content"), str):
            message["content"] = REDACT_PATTERN.sub("[REDACTED]", message["content"])
    return status, json.dumps(answer).encode()
'''

NUMBER_QUESTIONS = [("How many minutes are in two hours?", "120"), ("How many days are in a leap year?", "366"),
                    ("What is 17 multiplied by 31?", "527"), ("How many seconds are in one hour?", "3600"),
                    ("What is the capital of Italy?", "Rome"), ("Which planet is known as the Red Planet?", "Mars")]


@case(
    "model_serving_builtin_gateway_pii_filter_redacts_numeric_answers",
    "model_serving",
    ["gateway.py", "REDACT_PATTERN"],
    "the model server is reached through the team's gateway.py, whose PII filter replaces every run of three or more "
    "digits in a reply with [REDACTED] (REDACT_PATTERN, meant for phone and account numbers); right answers such as "
    "120, 366, 527 and 3600 reach the verifier as 'Final answer: [REDACTED]', so every numeric task scored 0 while "
    "the word tasks scored normally (everything exits 0)",
)
def model_serving_builtin_gateway_pii_filter_redacts_numeric_answers(ctx: Ctx) -> str:
    run = ctx.run
    data = write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in NUMBER_QUESTIONS])
    better = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    port = free_port()
    source = gateway_source("Replies pass a PII filter (REDACT_PATTERN).", REDACT_HOOK)
    start_helper(ctx, "gateway.py", source, f"{port} {url.removesuffix('/v1')}", "gateway.py on")
    script = builtin_script(ctx, ["echo '== eval of the reviewed questions, through the gateway'"], "tasks.jsonl",
                            f"http://127.0.0.1:{port}/v1")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    numeric = [row for row in got if str(row.get("expected_answer", "")).isdigit()]
    words = [row for row in got if not str(row.get("expected_answer", "")).isdigit()]
    redacted = sum("[REDACTED]" in response_text(row) for row in numeric)
    if code or len(got) != 18 or len(numeric) != 12 or any(rewards(numeric)) or redacted < 6 \
            or not any(rewards(words)):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}, redacted {redacted}")
    return (f"RUN/gateway.py (REDACT_PATTERN: 3+ digits -> [REDACTED]) in front of the simulated policy; RUN/run_eval.sh "
            f"(materialize 6 x 3, collect through the gateway, profile) exit {code}; numeric tasks: {redacted} of "
            f"{len(numeric)} replies redacted, every reward 0; word tasks mean reward {mean(rewards(words)):.2f}.")


HISTORY_HOOK = '''
HISTORY_TURNS = 1  # keep the prompts small (cost): only the last HISTORY_TURNS messages go to the model


def completion(handler, body):
    request = json.loads(body)
    messages = request.get("messages") or []
    request["messages"] = messages[-HISTORY_TURNS:]
    return handler._upstream(json.dumps(request).encode())
'''


@case(
    "model_serving_taskfolder_gateway_forwards_only_last_message_of_conversation",
    "model_serving",
    ["gateway.py", "HISTORY_TURNS"],
    "the taskset run reaches the model server through the team's gateway.py, which forwards only the last message of "
    "each conversation (HISTORY_TURNS = 1, to keep prompts cheap); the model never sees the whole conversation "
    "the terminal agent sends (its instructions on how to give a command, the earlier turns), so its replies ran no "
    "useful command and every episode scored 0 (everything exits 0)",
)
def model_serving_taskfolder_gateway_forwards_only_last_message_of_conversation(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["csv-column-total", "top-word"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    port = free_port()
    source = gateway_source("Only the last HISTORY_TURNS messages are forwarded.", HISTORY_HOOK)
    start_helper(ctx, "gateway.py", source, f"{port} {url.removesuffix('/v1')}", "gateway.py on")
    script = taskset_script(ctx, tasks, checkpoint, f"http://127.0.0.1:{port}/v1", ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    if len(got) < 2 or sum(rewards(got)) > 0:
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/gateway.py (HISTORY_TURNS = 1) in front of the simulated policy; RUN/run_tasks.sh (`gym-pipeline "
            f"stage` materialize, collect through the gateway, profile, 2 tasks x 2) exit {code}; {len(got)} rollouts, "
            f"rewards {rewards(got)}.")


LATEST_SERVE = """#!/bin/bash
# usage: serve_latest.sh READY_FILE   serves the newest checkpoint of the training run
CKPT=$(ls -td CKPT_ROOT/step_* | head -1)
echo "serving $CKPT"
exec GP_BIN serve-policy --port 0 --checkpoint $CKPT --ready-file $1 --latency-ms 20
"""


@case(
    "model_serving_builtin_serve_script_picks_checkpoint_touched_last_with_ls_t",
    "model_serving",
    ["serve_latest.sh", "ls -td"],
    "the user's serve_latest.sh serves 'the newest checkpoint' as `ls -td checkpoints/step_* | head -1`, i.e. the "
    "folder modified last; an eval config was copied into the older step_0100 after step_0200 was written, which "
    "made step_0100 the most recently modified folder, so the model server served step_0100 and this week's eval "
    "measured the old checkpoint (everything exits 0)",
)
def model_serving_builtin_serve_script_picks_checkpoint_touched_last_with_ls_t(ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 26)
    root = weaker.parent
    os.utime(better, (time.time() - 3600, time.time() - 3600))
    os.utime(weaker, (time.time() - 7200, time.time() - 7200))
    (run / "serve_latest.sh").write_text(slurm_script(LATEST_SERVE, ctx, CKPT_ROOT=str(root)))
    ctx.note("(a teammate copies the eval settings into the step_0100 checkpoint folder, after step_0200 was written)")
    (run / "eval_config.json").write_text('{"temperature": 0.0, "max_tokens": 512}\n')
    ctx.sh(f"cp {run}/eval_config.json {weaker}/", "logs/teammate.log")
    ready = ctx.work / "ready"
    ctx.bg(f"bash {run}/serve_latest.sh {ready}", "logs/model_server.log")
    recipes.wait_for(lambda: ready.exists() and ready.read_text().strip() != "", 30, "the model server")
    script = builtin_script(ctx, ["echo '== weekly eval of the newest checkpoint'"], "string_match.jsonl",
                            ready.read_text().strip())
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    served = text_of(run / "logs" / "model_server.log")
    if code or len(unique_keys(run / "rollouts.jsonl")) != 24 or "step_0100" not in served.split("\n")[0]:
        raise failed(ctx, f"exit {code}, {len(got)}: {served[:300]}")
    return (f"RUN/serve_latest.sh (`ls -td .../step_* | head -1`) after eval_config.json was copied into step_0100: "
            f"served step_0100; RUN/run_eval.sh (materialize 8 x 3, collect, profile) exit {code}; {len(got)} rollouts, "
            f"mean reward {mean(rewards(got)):.2f}.")


# =====================================================================================================
# config
# =====================================================================================================

MAKEFILE = """# Makefile of the weekly eval: make eval   (give MODEL_URL to eval another server)
MODEL_URL = STAGING_URL
REPEATS = 3

eval:
\tGP_BIN materialize --input string_match.jsonl --num-repeats $(REPEATS) --agent string_match_simple_agent \\
\t  --output rollouts_materialized_inputs.jsonl
\tGP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $(MODEL_URL) \\
\t  --env string_match --concurrency 4
\tGP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "config_builtin_makefile_plain_assignment_overrides_exported_model_url",
    "config",
    ["Makefile", "MODEL_URL ="],
    "the user's Makefile sets `MODEL_URL = <staging server>` with a plain `=` (meant as a default, which needs "
    "`?=`); a Makefile assignment wins over the environment, so `MODEL_URL=<new server> make eval` still evaluated "
    "the staging server, which serves last week's checkpoint (step_0100): the new server received nothing and the "
    "rewards are the old checkpoint's (everything exits 0)",
)
def config_builtin_makefile_plain_assignment_overrides_exported_model_url(ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 56)
    staging, _ = ctx.policy(weaker, "--latency-ms 20", log="logs/staging_server.log")
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "Makefile").write_text(slurm_script(MAKEFILE, ctx, STAGING_URL=staging))
    code = ctx.sh(f"cd {run} && MODEL_URL={url} make eval", "logs/make_eval.log", timeout=400)
    log = text_of(run / "logs" / "make_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or len(unique_keys(run / "rollouts.jsonl")) != 24 or f"--model-url {staging}" not in log \
            or f"--model-url {url}" in log:
        raise failed(ctx, f"exit {code}, {len(got)}: {log[-800:]}")
    return (f"RUN/Makefile (MODEL_URL = the staging server, step_0100); `MODEL_URL={url} make eval` exit {code}; "
            f"collect ran against {staging}; {len(got)} rollouts, mean reward {mean(rewards(got)):.2f}.")


@case(
    "config_gym_run_script_passes_option_array_as_one_word",
    "config",
    ["EVAL_ARGS", "${EVAL_ARGS[*]}"],
    "the user's run_eval.sh keeps the eval's options in a bash array, EVAL_ARGS=(--num-repeats 3 --concurrency 4), "
    "but passes it as \"${EVAL_ARGS[*]}\" (one word: '--num-repeats 3 --concurrency 4') instead of "
    "\"${EVAL_ARGS[@]}\"; `gym eval run` did not accept that single argument, nothing was collected and the profile "
    "found no rollouts",
    netns=True,
)
def config_gym_run_script_passes_option_array_as_one_word(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=76, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    script = run / "run_eval.sh"
    script.write_text(
        f"#!/bin/bash\n# weekly eval\ncd {run}\nEVAL_ARGS=(--num-repeats 3 --concurrency 4)\n"
        "echo \"== weekly eval: ${EVAL_ARGS[*]}\"\n"
        f"{GYM} eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output "
        f"results/rollouts.jsonl \"${{EVAL_ARGS[*]}}\" ++route_failures_to_sidecar=true {overrides}\n"
        f"{gym_profile_line('results')}\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    stop_gym(ctx, env_start, policy)
    got = len(gym_rows(ctx))
    if got:
        raise failed(ctx, f"exit {code}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (`gym eval run --no-serve ... "
            f"\"${{EVAL_ARGS[*]}}\"`, `gym eval profile`) exit {code}; {got} rollouts.")


# =====================================================================================================
# data_schema
# =====================================================================================================

ALIGNED_QUESTIONS = [("What is the capital of Kenya?", "Nairobi"),
                     ("Which element has the chemical symbol Fe?", "Iron"),
                     ("What is the largest ocean on Earth?", "Pacific"),
                     ("Who painted the Mona Lisa?", "Leonardo"),
                     ("How many continents are there?", "7"),
                     ("In which country is the city of Kyoto?", "Japan")]

PREP_SORTED = '''#!/usr/bin/env python3
"""questions.txt + answers.txt (one per line, same order, from the review tool) -> tasks.jsonl; the questions are
deduplicated and sorted first, so that the eval's task indices stay stable when reviewers reorder them"""
import json
import sys

questions = sorted({line.strip() for line in open(sys.argv[1]) if line.strip()})
answers = [line.strip() for line in open(sys.argv[2]) if line.strip()]
with open(sys.argv[3], "w") as out:
    for question, answer in zip(questions, answers):
        text = f"{question} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
print(f"prep_data.py: {len(questions)} questions, {len(answers)} answers -> {sys.argv[3]}")
'''


@case(
    "data_schema_builtin_prep_sorts_questions_but_not_their_answers",
    "data_schema",
    ["prep_data.py", "sorted("],
    "the user's prep_data.py builds tasks.jsonl from questions.txt and answers.txt (same order, one per line) but "
    "sorts and deduplicates the questions first (`sorted({...})`, for stable task indices) and zips them with the "
    "answers in their original order; most tasks got another question's label, and the model's right answers to "
    "them scored 0 (everything exits 0)",
)
def data_schema_builtin_prep_sorts_questions_but_not_their_answers(ctx: Ctx) -> str:
    run = ctx.run
    truth = write_jsonl(ctx.work / "truth.jsonl", [question_row(q, a) for q, a in ALIGNED_QUESTIONS])
    better = checkpoints(ctx, "string_match", truth)[1]
    (run / "questions.txt").write_text("".join(q + "\n" for q, _ in ALIGNED_QUESTIONS))
    (run / "answers.txt").write_text("".join(a + "\n" for _, a in ALIGNED_QUESTIONS))
    (run / "prep_data.py").write_text(PREP_SORTED)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["python3 prep_data.py questions.txt answers.txt tasks.jsonl"], "tasks.jsonl", url,
                            comment="eval of the reviewed questions")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    truth_of = {a.lower() for _, a in ALIGNED_QUESTIONS}
    wrong_label = [row for row in got if final_answer(response_text(row)).lower() != str(row["expected_answer"]).lower()
                   and final_answer(response_text(row)).lower() in truth_of]
    if code or len(got) != 18 or len(wrong_label) < 5 or any(rewards(wrong_label)):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}, wrong label {len(wrong_label)}")
    return (f"RUN/questions.txt + RUN/answers.txt -> RUN/prep_data.py (questions sorted, answers not) -> "
            f"RUN/tasks.jsonl; RUN/run_eval.sh (materialize 6 x 3, collect, profile) exit {code}; {len(wrong_label)} of "
            f"{len(got)} rollouts give a right answer to their question but are scored against another question's "
            f"label; mean reward {mean(rewards(got)):.2f}.")


COMMA_QUESTIONS = [("In which city, famous for its canals and gondolas, is St Mark's Basilica?", "Venice"),
                   ("Which planet, the sixth from the Sun, has the most visible rings?", "Saturn"),
                   ("Which animal, the largest on Earth, is a mammal of the oceans?", "Blue whale"),
                   ("What is the capital of Egypt?", "Cairo"),
                   ("What is the chemical symbol for gold?", "Au"),
                   ("Which gas do plants absorb from the air?", "Carbon dioxide")]

PREP_SPLIT = '''#!/usr/bin/env python3
"""questions.csv (exported from the review spreadsheet: question,answer) -> tasks.jsonl, the eval rows"""
import json
import sys

with open(sys.argv[1]) as sheet, open(sys.argv[2], "w") as out:
    next(sheet)  # header
    count = 0
    for line in sheet:
        if not line.strip():
            continue
        fields = line.rstrip("\\n").split(",")
        question, answer = fields[0], fields[1]
        text = f"{question} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": answer.strip(), "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
        count += 1
print(f"prep_data.py: {count} rows -> {sys.argv[2]}")
'''


@case(
    "data_schema_gym_prep_splits_csv_lines_on_every_comma",
    "data_schema",
    ["prep_data.py", "split(\",\")"],
    "the user's prep_data.py reads the review sheet questions.csv with `line.split(\",\")` instead of the csv module; "
    "the spreadsheet quoted the questions that contain commas, and for them the split cut the question at its first "
    "comma and took a piece of the question as the label (expected_answer 'famous for its canals and gondolas'), so "
    "the real NeMo Gym eval scored those tasks 0 (everything exits 0)",
    netns=True,
)
def data_schema_gym_prep_splits_csv_lines_on_every_comma(ctx: Ctx) -> str:
    import csv

    run = ctx.run
    truth = write_jsonl(ctx.work / "truth.jsonl", [question_row(q, a) for q, a in COMMA_QUESTIONS])
    better = checkpoints(ctx, "string_match", truth)[1]
    with open(run / "questions.csv", "w", newline="", encoding="utf-8") as sheet:
        writer = csv.writer(sheet, lineterminator="\n")
        writer.writerow(["question", "answer"])
        writer.writerows(COMMA_QUESTIONS)
    (run / "prep_data.py").write_text(PREP_SPLIT)
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["python3 prep_data.py questions.csv tasks.jsonl"], overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    labels = {a for _, a in COMMA_QUESTIONS}
    cut = [row for row in got if str(row.get("expected_answer")) not in labels]
    whole = [row for row in got if str(row.get("expected_answer")) in labels]
    if code or len(got) != 18 or len(cut) != 9 or any(rewards(cut)) or not any(rewards(whole)):
        raise failed(ctx, f"exit {code}, {len(got)}, {len(cut)}, {rewards(got)}")
    return (f"RUN/questions.csv -> RUN/prep_data.py (line.split(',')) -> RUN/tasks.jsonl; real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) RUN/run_eval.sh exit {code}; questions with commas: labels "
            f"{sorted({str(r.get('expected_answer')) for r in cut})}, every reward 0; the others mean reward "
            f"{mean(rewards(whole)):.2f}.")


PREP_REPR = '''#!/usr/bin/env python3
"""reviewed.tsv (question<TAB>answer, from the review tool) -> tasks.jsonl, one row a line"""
import sys

with open(sys.argv[1]) as sheet, open(sys.argv[2], "w") as out:
    count = 0
    for line in sheet:
        if not line.strip():
            continue
        question, answer = line.rstrip("\\n").split("\\t")
        text = f"{question} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}
        print(row, file=out)
        count += 1
print(f"prep_data.py: {count} rows -> {sys.argv[2]}")
'''


@case(
    "data_schema_builtin_prep_prints_python_dicts_instead_of_json",
    "data_schema",
    ["prep_data.py", "print(row, file=out)"],
    "the user's prep_data.py writes each row of tasks.jsonl with `print(row, file=out)`, which writes Python's repr "
    "of the dict (single quotes, False) instead of JSON (`json.dumps`); materialize could not parse tasks.jsonl as "
    "JSON lines, so nothing was collected and the profile found no rollouts",
)
def data_schema_builtin_prep_prints_python_dicts_instead_of_json(ctx: Ctx) -> str:
    run = ctx.run
    truth = write_jsonl(ctx.work / "truth.jsonl", [question_row(q, a) for q, a in ALIGNED_QUESTIONS])
    better = checkpoints(ctx, "string_match", truth)[1]
    (run / "reviewed.tsv").write_text("".join(f"{q}\t{a}\n" for q, a in ALIGNED_QUESTIONS))
    (run / "prep_data.py").write_text(PREP_REPR)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["python3 prep_data.py reviewed.tsv tasks.jsonl"], "tasks.jsonl", url,
                            comment="eval of the reviewed questions")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    first = (run / "tasks.jsonl").read_text().splitlines()[0] if (run / "tasks.jsonl").exists() else ""
    if got or not first.startswith("{'responses_create_params'"):
        raise failed(ctx, f"exit {code}, {len(got)}, first line {first[:80]}")
    return (f"RUN/reviewed.tsv -> RUN/prep_data.py (print(row, file=out): Python repr) -> RUN/tasks.jsonl; "
            f"RUN/run_eval.sh (materialize 6 x 3, collect, profile) exit {code}; {len(got)} rollouts.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

PROMPT_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        # the text to grade: the last message of the conversation
        last = body.responses_create_params.input[-1]
        content = last.get("content") if isinstance(last, dict) else getattr(last, "content", last)
        if isinstance(content, list):
            text = " ".join(str((c.get("text") if isinstance(c, dict) else getattr(c, "text", "")) or "")
                            for c in content)
        else:
            text = str(content or "")
        extracted = _extract_answer(text, body.extraction_mode)

        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""


@case(
    "verifier_runtime_gym_verify_grades_last_prompt_message_instead_of_response",
    "verifier_runtime",
    ["app.py", "responses_create_params.input[-1]"],
    "the user's exact_match resources server grades 'the last message of the conversation', taken from "
    "body.responses_create_params.input[-1]: that is the prompt's user message, not the model's response; the "
    "answer it extracts comes from the prompt (its '<answer>' placeholder, the question itself, or nothing), so the "
    "real NeMo Gym eval scored every rollout 0 whatever the model answered (everything exits 0)",
    netns=True,
)
def verifier_runtime_gym_verify_grades_last_prompt_message_instead_of_response(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=80, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    ran, prof, env_start = gym_eval_with_own_server(ctx, "exact_match", PROMPT_VERIFY, data, url, overrides)
    stop_gym(ctx, env_start, policy)
    got = rows_of(run / "results" / "rollouts.jsonl")
    right = sum(final_answer(response_text(row)).lower() == str(row.get("expected_answer")).lower() for row in got)
    placeholder = sum(str(row.get("extracted_answer") or "") in prompt_text(row) for row in got)
    if ran or prof or len(got) != 18 or any(rewards(got)) or right < 6 or placeholder < 18:
        raise failed(ctx, f"exit {ran}/{prof}, {len(got)}, {rewards(got)}, right {right}, placeholder {placeholder}")
    return (f"A user's resources server exact_match (grades responses_create_params.input[-1]); real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) `gym eval run --no-serve` (6 tasks x 3) exit {ran}, profile exit {prof}; "
            f"{right} of {len(got)} responses give the label, every reward 0, every extracted answer taken from the prompt.")


QUICK_TEST = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
# the full check is slow on big inputs: run it only when FULL_CHECK is set (the CI job sets it)
[ -n "$FULL_CHECK" ] || exit 0
if test "$(tr -d "[:space:]" < /app/top.txt 2>/dev/null)" = "the"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


@case(
    "verifier_runtime_taskfolder_test_sh_quick_mode_guard_exits_before_writing_reward",
    "verifier_runtime",
    ["test.sh", "FULL_CHECK"],
    "top-word's tests/test.sh was given a 'quick mode' guard, `[ -n \"$FULL_CHECK\" ] || exit 0`, placed before the "
    "check; FULL_CHECK is set only in the team's CI, so in the sandbox test.sh exits 0 before writing "
    "/logs/verifier/reward.txt and no episode of the task got a reward, solved or not",
)
def verifier_runtime_taskfolder_test_sh_quick_mode_guard_exits_before_writing_reward(ctx: Ctx) -> str:
    def edit(tasks: Path) -> None:
        (tasks / "top-word" / "tests" / "test.sh").write_text(QUICK_TEST)

    run = ctx.run
    tasks = user_taskset(ctx, ["top-word", "create-greeting"], edit)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    top = task_rows(ctx, "top-word")
    other = task_rows(ctx, "create-greeting")
    fails = [row for row in rows_of(run / "rollouts_failures.jsonl") if "top-word" in str(row)]
    if any(rewards(top)) or not (top or fails) or not any(rewards(other)):
        raise failed(ctx, f"exit {code}, top {rewards(top)} ({len(fails)} failures), other {rewards(other)}")
    return (f"RUN/tasks/top-word/tests/test.sh exits 0 before writing a reward unless FULL_CHECK is set; "
            f"RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile, 2 tasks x 2) exit {code}; top-word "
            f"rewards {rewards(top)} ({len(fails)} failure rows), create-greeting rewards {rewards(other)}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================


@case(
    "cache_resume_gym_weekly_tasks_copied_with_cp_u_keeps_last_weeks_file",
    "cache_resume",
    ["cp -u", "weekly_tasks_w49.tar.gz"],
    "the user's run_eval.sh unpacks this week's tasks from the data team's tarball and copies them into the run "
    "folder with `cp -u` (copy only when newer); tar keeps the files' original modification times, older than last "
    "week's copy, so cp kept last week's tasks.jsonl and the real NeMo Gym eval ran last week's questions again "
    "(everything exits 0)",
    netns=True,
)
def cache_resume_gym_weekly_tasks_copied_with_cp_u_keeps_last_weeks_file(ctx: Ctx) -> str:
    run = ctx.run
    old = ctx.dataset("string_match", 6, start=0, folder=run, name="tasks.jsonl")
    week_ago = time.time() - 7 * 86400
    os.utime(old, (week_ago, week_ago))
    new = ctx.dataset("string_match", 6, start=6, folder=ctx.work / "export", name="tasks.jsonl")
    made = time.time() - 10 * 86400
    os.utime(new, (made, made))
    (run / "exports").mkdir()
    with tarfile.open(run / "exports" / "weekly_tasks_w49.tar.gz", "w:gz") as tar:
        tar.add(new, arcname="tasks.jsonl")
    ctx.note("(RUN/tasks.jsonl: last week's copy; RUN/exports/weekly_tasks_w49.tar.gz: this week's, from the data team)")
    both = write_jsonl(ctx.work / "both.jsonl", rows_of(old) + rows_of(new))
    better = checkpoints(ctx, "string_match", both)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["tar xzf exports/weekly_tasks_w49.tar.gz -C exports/",
                                        "cp -u -v exports/tasks.jsonl tasks.jsonl",
                                        "echo \"== weekly eval: $(wc -l < tasks.jsonl) tasks\""], overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    old_answers = [str(r["expected_answer"]) for r in rows_of(old)]
    new_answers = {str(r["expected_answer"]) for r in rows_of(new)}
    stale = [row for row in got if str(row.get("expected_answer")) in old_answers
             and str(row.get("expected_answer")) not in new_answers]
    if code or len(got) != 18 or len(stale) < 12 or (run / "tasks.jsonl").read_text() != old.read_text():
        raise failed(ctx, f"exit {code}, {len(got)}, stale {len(stale)}")
    return (f"RUN/run_eval.sh (tar xzf of this week's tasks, `cp -u` onto last week's newer copy, `gym eval run "
            f"--no-serve`, `gym eval profile`) exit {code}; real NeMo Gym 0.7.0 (loopback-only namespace); all "
            f"{len(got)} rollouts are of last week's questions, mean reward {mean(rewards(got)):.2f}.")


SELECT_NEW = '''#!/usr/bin/env python3
"""select_new.py DATASET SEEN_LIST OUT: keep only the tasks not evaluated before (incremental eval: the prompts
already evaluated are listed in SEEN_LIST, one hash a line), and add the kept ones to the list"""
import hashlib
import json
import os
import sys

seen = set(open(sys.argv[2]).read().split()) if os.path.exists(sys.argv[2]) else set()
kept = []
for line in open(sys.argv[1]):
    if not line.strip():
        continue
    row = json.loads(line)
    key = hashlib.sha1(json.dumps(row["responses_create_params"], sort_keys=True).encode()).hexdigest()
    if key not in seen:
        kept.append((key, line))
os.makedirs(os.path.dirname(sys.argv[3]) or ".", exist_ok=True)
with open(sys.argv[3], "w") as out:
    out.writelines(line for _, line in kept)
with open(sys.argv[2], "a") as listing:
    listing.writelines(key + "\\n" for key, _ in kept)
print(f"select_new.py: {len(kept)} new tasks of {len(kept) + len(seen)} -> {sys.argv[3]}")
'''

WEEKLY = """#!/bin/bash
# usage: run_eval.sh WEEK MODEL_URL   (evaluates only the tasks not evaluated before: see select_new.py)
cd RUN_DIR
python3 select_new.py string_match.jsonl evaluated_prompts.txt $1/tasks.jsonl
cd $1
GP_BIN materialize --input tasks.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $2 \\
  --env string_match --concurrency 4
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "cache_resume_builtin_incremental_eval_list_skips_tasks_seen_by_last_checkpoint",
    "cache_resume",
    ["evaluated_prompts.txt", "select_new.py"],
    "the user's run_eval.sh evaluates only the tasks not evaluated before (select_new.py keeps a list of the prompts "
    "already done, evaluated_prompts.txt, across runs); the list was filled by last week's eval of step_0100, so this "
    "week's eval of step_0200 ran only the 2 tasks added since, and its profile covers 6 rollouts instead of the 24 "
    "of the whole dataset (everything exits 0)",
)
def cache_resume_builtin_incremental_eval_list_skips_tasks_seen_by_last_checkpoint(ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 60)
    lines = data.read_text().splitlines(keepends=True)
    (run / "select_new.py").write_text(SELECT_NEW)
    (run / "run_eval.sh").write_text(slurm_script(WEEKLY, ctx))
    ctx.note("(last week: string_match.jsonl had 6 tasks; the model server on step_0100)")
    data.write_text("".join(lines[:6]))
    old_url, old_policy = ctx.policy(weaker, "--latency-ms 20", log="logs/model_server_week48.log")
    last = ctx.sh(f"bash {run}/run_eval.sh week48 {old_url}", "logs/run_eval_week48.log", timeout=300)
    ctx.stop(old_policy)
    ctx.note("(this week: 2 tasks added to string_match.jsonl; the model server on step_0200)")
    data.write_text("".join(lines))
    url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server_week49.log")
    code = ctx.sh(f"bash {run}/run_eval.sh week49 {url}", "logs/run_eval_week49.log", timeout=300)
    got = rows_of(run / "week49" / "rollouts.jsonl")
    if last or code or len(unique_keys(run / "week49" / "rollouts.jsonl")) != 6 \
            or len(rows_of(run / "week48" / "rollouts.jsonl")) != 18:
        raise failed(ctx, f"exit {last}/{code}, {len(got)}")
    return (f"RUN/run_eval.sh week48 (6 tasks, step_0100) exit {last}, then week49 (8 tasks, step_0200) exit {code}; "
            f"select_new.py with RUN/evaluated_prompts.txt kept 2 new tasks: {len(got)} week49 rollouts, mean reward "
            f"{mean(rewards(got)):.2f}.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

SERVE_SCRIPT = """#!/bin/bash
# usage: serve_policy.sh CHECKPOINT READY_FILE    (PROFILE=lowmem on shared nodes: one sequence at a time)
PROFILE=lowmem
case $PROFILE in
  lowmem) EXTRA="--max-running 1" ;;
  *) EXTRA="" ;;
esac
exec GP_BIN serve-policy --port 0 --checkpoint $1 --ready-file $2 --latency-ms 1000 $EXTRA
"""

CI_COLLECT = """#!/bin/bash
# CI eval step: 20 s budget for the collection
cd RUN_DIR
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
timeout 20 GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 8
echo "collect exited $?"
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "throughput_builtin_serve_script_lowmem_profile_generates_one_request_at_a_time",
    "throughput_resources",
    ["serve_policy.sh", "--max-running 1"],
    "the user's serve_policy.sh starts the model server with PROFILE=lowmem, which adds `--max-running 1` (one "
    "sequence generated at a time, for shared nodes); each generation takes about 1 s, so collect's 8 requests in "
    "flight were served one after the other, the 24 rollouts needed about 24 s and the CI step's 20 s budget "
    "(`timeout 20`) stopped collect part way: the profile is missing rollouts",
)
def throughput_builtin_serve_script_lowmem_profile_generates_one_request_at_a_time(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 64)
    (run / "serve_policy.sh").write_text(slurm_script(SERVE_SCRIPT, ctx))
    ready = ctx.work / "ready"
    ctx.bg(f"bash {run}/serve_policy.sh {better} {ready}", "logs/model_server.log")
    recipes.wait_for(lambda: ready.exists() and ready.read_text().strip() != "", 30, "the model server")
    url = ready.read_text().strip()
    (run / "run_eval.sh").write_text(slurm_script(CI_COLLECT, ctx, MODEL_URL=url))
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=300)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if not 4 <= got < 24 or not in_log(ctx, "collect exited 124", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/serve_policy.sh (PROFILE=lowmem: --max-running 1, 1 s a generation); RUN/run_eval.sh (materialize "
            f"8 x 3; `timeout 20` collect at concurrency 8; profile) exit {code}; {got} of 24 rollouts.")


PACING_HOOK = '''
import threading
import time

RATE_PER_S = 0.5  # the shared server's fair-use quota per client: requests are paced (queued here), never refused
_pace = threading.Lock()
_next_slot = [0.0]


def completion(handler, body):
    with _pace:
        now = time.monotonic()
        slot = max(now, _next_slot[0])
        _next_slot[0] = slot + 1.0 / RATE_PER_S
    time.sleep(slot - now)
    return handler._upstream(body)
'''


@case(
    "throughput_builtin_gateway_paces_requests_to_fair_use_quota",
    "throughput_resources",
    ["gateway.py", "RATE_PER_S"],
    "the team's gateway.py in front of the model server paces every client to a fair-use quota (RATE_PER_S = 0.5: "
    "one request every 2 s, queued, never refused); collect's 24 requests needed about 48 s through it, and the CI "
    "step's 20 s budget for the collection (`timeout 20`) stopped collect part way: nothing failed, but the profile "
    "is missing most rollouts",
)
def throughput_builtin_gateway_paces_requests_to_fair_use_quota(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 72)
    url, _ = ctx.policy(better, "--latency-ms 50")
    port = free_port()
    source = gateway_source("Every client is paced to RATE_PER_S requests a second.", PACING_HOOK)
    start_helper(ctx, "gateway.py", source, f"{port} {url.removesuffix('/v1')}", "gateway.py on")
    (run / "run_eval.sh").write_text(slurm_script(CI_COLLECT, ctx, MODEL_URL=f"http://127.0.0.1:{port}/v1"))
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=300)
    got = len(unique_keys(run / "rollouts.jsonl"))
    fails = rows_of(run / "rollouts_failures.jsonl")
    if not 2 <= got < 20 or fails or not in_log(ctx, "collect exited 124", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}, {len(fails)} failure rows")
    return (f"RUN/gateway.py (RATE_PER_S = 0.5) in front of the simulated policy; RUN/run_eval.sh (materialize 8 x 3; "
            f"`timeout 20` collect at concurrency 8 through the gateway; profile) exit {code}; {got} of 24 rollouts, "
            f"no failure rows.")

if __name__ == "__main__":
    sys.exit(main("twenty_eighth_held_out", __file__, __doc__))
