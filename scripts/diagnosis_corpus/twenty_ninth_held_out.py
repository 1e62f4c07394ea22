"""Build the TWENTY-NINTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/twenty_ninth_held_out.py --out tests/data/diagnosis_corpus/twenty_ninth_held_out [--only CASE ...]

This set was written from the guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder
troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests
or their results. It is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
task folders run in Docker sandboxes, Slurm batch jobs, the real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` /
`gym eval profile` inside a loopback-only network namespace, with a user's own resources server), and the user's own
shell scripts, settings files, helper servers (gateways), node scripts, task images and data-preparation scripts. The
output of every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written
by hand but the user's own inputs (data, scripts, settings, verifier code). Each case injects one cause, different in
mechanism from those of the twenty-eight earlier sets (first_held_out.py ... twenty_eighth_held_out.py), and each
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
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import checkpoints, failed, gym_start, stop_gym, task_checkpoints, user_taskset  # noqa: E402
from fourteenth_held_out import mean, rewards  # noqa: E402
from recipes import GYM, Ctx, case, gym_model_args, main, rows_of, text_of, unique_keys  # noqa: E402
from tenth_held_out import in_log  # noqa: E402
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


def gym_rows(ctx: Ctx) -> list[dict]:
    return rows_of(ctx.run / "results" / "rollouts.jsonl")


def served_from_script(ctx: Ctx, script: Path, args: str, log: str = "logs/model_server.log") -> str:
    """The user's own serve script RUN/SCRIPT started in the background; the model server's URL."""
    ready = ctx.work / "ready"
    ctx.bg(f"bash {script} {args} {ready}", log)
    recipes.wait_for(lambda: ready.exists() and ready.read_text().strip() != "", 30, "the model server")
    return ready.read_text().strip()


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


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_builtin_run_script_mails_summary_without_mail_client",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh ends by mailing the profile to the team (`mail -s 'weekly eval' ... < "
    "rollouts_reward_profiling.jsonl || echo 'could not mail the summary'`); this node has no mail client, so the log "
    "ends with 'mail: command not found', but materialize, collect and profile had completed every rollout",
)
def healthy_builtin_run_script_mails_summary_without_mail_client(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 3)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["echo \"== weekly eval, $(date)\""], "string_match.jsonl", url)
    script.write_text(script.read_text() + "mail -s 'weekly eval' eval-team@example.org < rollouts_reward_profiling."
                      "jsonl || echo 'could not mail the summary'\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code or got != 24 or not in_log(ctx, "mail: command not found", "logs/run_eval.log") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (materialize 8 tasks x 3, collect, profile, then `mail` not installed) exit {code}; "
            f"{got} rollouts, mean reward {mean(rewards(rows_of(run / 'rollouts.jsonl'))):.2f}.")


@case(
    "healthy_gym_run_script_checks_pypi_for_newer_gym_release_from_offline_node",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh first asks PyPI whether a newer nemo-gym is out (`curl -sS "
    "https://pypi.org/pypi/nemo-gym/json | python3 -c ...`); the node has no internet access, so the log opens with "
    "'Could not resolve host: pypi.org' and a JSONDecodeError traceback, but the real NeMo Gym eval then collected, "
    "verified and profiled every rollout",
    netns=True,
)
def healthy_gym_run_script_checks_pypi_for_newer_gym_release_from_offline_node(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=12, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", [
        "curl -sS --max-time 5 https://pypi.org/pypi/nemo-gym/json | python3 -c \"import json, sys; "
        "print('latest nemo-gym on PyPI:', json.load(sys.stdin)['info']['version'])\" "
        "|| echo '(release check skipped)'"], overrides)
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if code or got != 18 or not in_log(ctx, "Could not resolve host", "logs/run_eval.log") \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (curl to pypi.org fails, then `gym eval "
            f"run --no-serve` 6 tasks x 3, `gym eval profile`) exit {code}, {got} rollouts, mean reward "
            f"{mean(rewards(gym_rows(ctx))):.2f}.")


@case(
    "healthy_taskfolder_run_script_tails_log_of_monitor_container_not_running",
    "healthy",
    [],
    "nothing is wrong: the user's run_tasks.sh first shows the last lines of the team's monitoring container (`docker "
    "logs --tail 20 weekly-eval-monitor`), which does not run on this machine, so the log opens with 'Error response "
    "from daemon: No such container', but every episode of the taskset ran in its Docker sandbox, was verified and "
    "profiled",
)
def healthy_taskfolder_run_script_tails_log_of_monitor_container_not_running(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["replace-spelling", "count-error-lines"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["docker logs --tail 20 weekly-eval-monitor || echo "
                                                          "'(monitor not running)'", "echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    if code or len(unique_keys(run / "rollouts.jsonl")) != 4 or not any(rewards(got)) \
            or not in_log(ctx, "No such container", "logs/run_tasks.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/run_tasks.sh (`docker logs` of a missing container; `gym-pipeline stage` materialize, collect, "
            f"profile of RUN/tasks x 2) exit {code}; rewards {rewards(got)}.")


SACCT_SBATCH = """#!/bin/bash
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
# the job's resource usage, for the capacity sheet
sacct -j $SLURM_JOB_ID --format=JobID,Elapsed,MaxRSS
"""


@case(
    "healthy_slurm_job_reports_its_usage_with_sacct_without_accounting",
    "healthy",
    [],
    "nothing is wrong: the user's nightly.sbatch ends by printing the job's usage with `sacct -j $SLURM_JOB_ID` for the "
    "capacity sheet; this cluster keeps no job accounting, so sacct ends the log with 'Slurm accounting storage is "
    "disabled' and the job with a non-zero exit code, but materialize, collect and profile had completed every "
    "rollout before it",
)
def healthy_slurm_job_reports_its_usage_with_sacct_without_accounting(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 20)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "nightly.sbatch").write_text(slurm_script(SACCT_SBATCH, ctx, MODEL_URL=url))
    code = submit_and_wait(ctx, "nightly.sbatch", "logs/submit.log")
    logs = job_logs(ctx, "eval_*.log")
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code or got != 24 or "accounting storage is disabled" not in logs \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {logs[-600:]}")
    return (f"RUN/submit.sh (sbatch of RUN/nightly.sbatch: materialize 8 x 3, collect, profile, then sacct without "
            f"accounting) exit {code}; {got} rollouts, mean reward "
            f"{mean(rewards(rows_of(run / 'rollouts.jsonl'))):.2f}.")


# =====================================================================================================
# infra
# =====================================================================================================

EVAL_ENV = """# the team's shell settings for evals (from the wiki page 'reproducible runs'); source it before a run
export EVAL_SEED=1234
export PYTHONHASHSEED=reproducible
export OMP_NUM_THREADS=1
"""


@case(
    "infra_builtin_team_env_file_sets_invalid_pythonhashseed",
    "infra",
    ["eval_env.sh", "PYTHONHASHSEED"],
    "the team's settings file eval_env.sh, sourced by the user's run_eval.sh, exports PYTHONHASHSEED=reproducible; "
    "Python accepts only 'random' or an integer there and refuses to start ('Fatal Python error: ... PYTHONHASHSEED "
    "must be \"random\" or an integer'), so materialize, collect and profile all died at start-up and nothing was "
    "collected",
)
def infra_builtin_team_env_file_sets_invalid_pythonhashseed(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 28)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "eval_env.sh").write_text(EVAL_ENV)
    script = builtin_script(ctx, ["source ./eval_env.sh", "echo \"== weekly eval, seed $EVAL_SEED\""],
                            "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got or not in_log(ctx, "PYTHONHASHSEED", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (sources RUN/eval_env.sh: PYTHONHASHSEED=reproducible; materialize 8 x 3, collect, "
            f"profile) exit {code}; {got} rollouts.")


EGRESS_FILTER = """#!/bin/bash
# security baseline (ticket SEC-2211): reset unapproved LLM API traffic sent from this node's processes
# usage: llm_egress_filter.sh PORT...     (approved gateways are listed in the exceptions file, none yet)
for port in "$@"; do
  iptables -A OUTPUT -p tcp --dport $port -m string --algo bm --string "/chat/completions" \\
    -j REJECT --reject-with tcp-reset
done
iptables -S OUTPUT
echo "llm_egress_filter.sh: chat completion requests to ports $* are reset"
"""


@case(
    "infra_builtin_security_egress_filter_resets_chat_completion_requests",
    "infra",
    ["llm_egress_filter.sh", "/chat/completions"],
    "the security team's node baseline (node_setup/llm_egress_filter.sh) added an iptables rule that resets every TCP "
    "connection whose packets contain '/chat/completions' on the model server's port (`-m string --string "
    "\"/chat/completions\" -j REJECT --reject-with tcp-reset`); the model server was up and /v1/models answered, but "
    "every generation request of collect was reset and the rollouts failed",
    netns=True,
)
def infra_builtin_security_egress_filter_resets_chat_completion_requests(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 6, 36)
    url, _ = ctx.policy(better, "--latency-ms 20")
    port = url.rsplit(":", 1)[1].split("/")[0]
    (run / "node_setup").mkdir()
    (run / "node_setup" / "llm_egress_filter.sh").write_text(EGRESS_FILTER)
    ctx.note("(the security team's baseline, applied to this node)")
    if ctx.sh(f"bash {run}/node_setup/llm_egress_filter.sh {port}", "node_setup/llm_egress_filter.log", timeout=30):
        raise failed(ctx, "the filter rule was not applied")
    script = builtin_script(ctx, ["echo \"== weekly eval against $(hostname)\""], "string_match.jsonl", url,
                            repeats=2)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=600)
    got = len(unique_keys(run / "rollouts.jsonl"))
    fails = rows_of(run / "rollouts_failures.jsonl")
    counters = subprocess.run(["iptables", "-L", "OUTPUT", "-v", "-n", "-x"], capture_output=True, text=True).stdout
    rejected = sum(int(line.split()[0]) for line in counters.splitlines() if "REJECT" in line)
    if got >= 12 or not fails or rejected < 3:
        raise failed(ctx, f"exit {code}, {got}, {len(fails)} failure rows, rejected {rejected}")
    return (f"RUN/node_setup/llm_egress_filter.sh {port} (connections carrying /chat/completions reset); "
            f"RUN/run_eval.sh (materialize 6 x 2, collect, profile) exit {code}; {got} of 12 rollouts, {len(fails)} "
            f"failure rows, {rejected} packets rejected.")


# =====================================================================================================
# model_serving
# =====================================================================================================

SORT_SERVE = """#!/bin/bash
# usage: serve_latest.sh READY_FILE   serves the newest checkpoint of the training run
CKPT=CKPT_ROOT/$(ls CKPT_ROOT | sort | tail -1)
echo "serving $CKPT"
exec GP_BIN serve-policy --port 0 --checkpoint $CKPT --ready-file $1 --latency-ms 30
"""


@case(
    "model_serving_gym_serve_script_sorts_unpadded_step_names_as_text",
    "model_serving",
    ["serve_latest.sh", "sort | tail -1"],
    "the user's serve_latest.sh serves 'the newest checkpoint' as `ls checkpoints | sort | tail -1`; the training "
    "run names its checkpoints without zero padding (step_900, step_1000), and a text sort puts step_900 after "
    "step_1000, so the model server served the older step_900 and the real NeMo Gym eval measured it instead of "
    "step_1000 (everything exits 0)",
    netns=True,
)
def model_serving_gym_serve_script_sorts_unpadded_step_names_as_text(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=44, folder=run, name="tasks.jsonl")
    weaker, better = checkpoints(ctx, "string_match", data)
    root = ctx.work / "training_run" / "checkpoints"
    root.mkdir(parents=True)
    for source, step in ((weaker, 900), (better, 1000)):  # the training run's own step numbers
        shutil.copytree(source, root / f"step_{step}")
        config = json.loads((root / f"step_{step}" / "config.json").read_text())
        (root / f"step_{step}" / "config.json").write_text(json.dumps({**config, "step": step}, indent=2) + "\n")
    (run / "serve_latest.sh").write_text(slurm_script(SORT_SERVE, ctx, CKPT_ROOT=str(root)))
    url = served_from_script(ctx, run / "serve_latest.sh", "", "logs/model_server.log")
    policy = ctx.background[-1]
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["echo '== weekly eval of the newest checkpoint'"], overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    served = text_of(run / "logs" / "model_server.log")
    if code or len(got) != 18 or "step_900" not in served.split("\n")[0]:
        raise failed(ctx, f"exit {code}, {len(got)}: {served[:300]}")
    return (f"RUN/serve_latest.sh (`ls .../checkpoints | sort | tail -1` of step_900, step_1000): served step_900; "
            f"real NeMo Gym 0.7.0 (loopback-only namespace) RUN/run_eval.sh exit {code}; {len(got)} rollouts, mean "
            f"reward {mean(rewards(got)):.2f}.")


LEGACY_HOOK = '''
LEGACY_FORMAT = True  # the old report tools read choices[0].text (the /v1/completions shape): convert every reply


def completion(handler, body):
    status, data = handler._upstream(body)
    if status != 200 or not LEGACY_FORMAT:
        return status, data
    answer = json.loads(data)
    for choice in answer.get("choices", []):
        message = choice.pop("message", None) or {}
        choice["text"] = message.get("content") or ""
    answer["object"] = "text_completion"
    return status, json.dumps(answer).encode()
'''


@case(
    "model_serving_builtin_gateway_converts_replies_to_legacy_completions_shape",
    "model_serving",
    ["gateway.py", "LEGACY_FORMAT"],
    "the model server is reached through the team's gateway.py, which converts every chat completion to the legacy "
    "/v1/completions shape for old report tools (LEGACY_FORMAT = True: choices[0].message replaced by "
    "choices[0].text); collect refused every reply ('the answer is not a chat completion: its first choice has no "
    "message') and every rollout failed",
)
def model_serving_builtin_gateway_converts_replies_to_legacy_completions_shape(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 52)
    url, _ = ctx.policy(better, "--latency-ms 20")
    port = free_port()
    source = gateway_source("Replies are converted to the legacy completions shape (LEGACY_FORMAT).", LEGACY_HOOK)
    start_helper(ctx, "gateway.py", source, f"{port} {url.removesuffix('/v1')}", "gateway.py on")
    script = builtin_script(ctx, ["echo '== weekly eval, through the gateway'"], "string_match.jsonl",
                            f"http://127.0.0.1:{port}/v1")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    got = rows_of(run / "rollouts.jsonl")
    fails = rows_of(run / "rollouts_failures.jsonl")
    if any(rewards(got)) or not (got or fails):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}, {len(fails)} failure rows")
    return (f"RUN/gateway.py (LEGACY_FORMAT: choices[0].message -> choices[0].text) in front of the simulated policy; "
            f"RUN/run_eval.sh (materialize 8 x 3, collect through the gateway, profile) exit {code}; {len(got)} "
            f"rollouts, rewards {sorted(set(rewards(got)))}, {len(fails)} failure rows.")


# =====================================================================================================
# config
# =====================================================================================================

SETTINGS_ENV = """# eval settings: edit here, not in the job script
MODEL_URL=URL_VALUE
num_repeats=4
"""

SETTINGS_SBATCH = """#!/bin/bash
#SBATCH --job-name=nightly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
cd RUN_DIR
source settings.env
echo "nightly eval on $(hostname): ${NUM_REPEATS:-1} repeats a task"
GP_BIN materialize --input string_match.jsonl --num-repeats ${NUM_REPEATS:-1} --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $MODEL_URL \\
  --env string_match --concurrency 4
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "config_slurm_settings_file_sets_lowercase_variable_job_reads_uppercase",
    "config",
    ["settings.env", "num_repeats=4", "NUM_REPEATS"],
    "the user raised the repeats for pass@k in settings.env as `num_repeats=4`, but nightly.sbatch reads "
    "${NUM_REPEATS:-1} (shell variables are case-sensitive); the job fell back to its default of 1 repeat a task, "
    "so the profile has a single rollout per task and no pass@k or variance (everything exits 0)",
)
def config_slurm_settings_file_sets_lowercase_variable_job_reads_uppercase(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 60)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "settings.env").write_text(SETTINGS_ENV.replace("URL_VALUE", url))
    (run / "nightly.sbatch").write_text(slurm_script(SETTINGS_SBATCH, ctx))
    code = submit_and_wait(ctx, "nightly.sbatch", "logs/submit.log")
    logs = job_logs(ctx, "eval_*.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or len(got) != 8 or len(rows_of(run / "rollouts_materialized_inputs.jsonl")) != 8 \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)}: {logs[-600:]}")
    return (f"RUN/settings.env (num_repeats=4) sourced by RUN/nightly.sbatch (${{NUM_REPEATS:-1}}); RUN/submit.sh "
            f"exit {code}; {len(got)} rollouts of 8 tasks, mean reward {mean(rewards(got)):.2f}.")


@case(
    "config_gym_run_script_reads_repeats_with_jq_key_not_in_settings_json",
    "config",
    ["eval_settings.json", "jq -r .repeats"],
    "the user's run_eval.sh reads the number of repeats from eval_settings.json with `jq -r .repeats`, but the file's "
    "key is num_repeats; jq prints 'null' for a missing key, and `gym eval run --num-repeats null` took it as not "
    "set and ran one repeat a task: 6 rollouts instead of the 18 the settings ask for, so the profile has no pass@k "
    "or variance (everything exits 0)",
    netns=True,
)
def config_gym_run_script_reads_repeats_with_jq_key_not_in_settings_json(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=68, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    (run / "eval_settings.json").write_text('{"num_repeats": 3, "concurrency": 4}\n')
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["REPEATS=$(jq -r .repeats eval_settings.json)",
                                        "echo \"== weekly eval: $REPEATS repeats a task\""], overrides,
                   repeats="$REPEATS")
    stop_gym(ctx, env_start, policy)
    got = len(gym_rows(ctx))
    if code or got != 6 or not in_log(ctx, "null repeats", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (REPEATS=$(jq -r .repeats "
            f"eval_settings.json) -> null; `gym eval run --no-serve --num-repeats $REPEATS`, `gym eval profile`) "
            f"exit {code}; {got} rollouts.")


PATH_SCRIPT = """#!/bin/bash
# weekly eval (run with the eval venv activated)
cd RUN_DIR
PATH=string_match.jsonl   # the dataset of this week
echo "== weekly eval of $PATH"
gym-pipeline materialize --input $PATH --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 4
gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "config_builtin_run_script_names_dataset_variable_path",
    "config",
    ["run_eval.sh", "PATH=string_match.jsonl"],
    "the user's run_eval.sh keeps the dataset's file name in a variable called PATH (`PATH=string_match.jsonl`), "
    "which replaces the shell's command search path; every later command (gym-pipeline materialize, collect, "
    "profile) failed with 'command not found' and nothing was collected",
)
def config_builtin_run_script_names_dataset_variable_path(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 76)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "run_eval.sh").write_text(slurm_script(PATH_SCRIPT, ctx, MODEL_URL=url))
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=300)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got or not in_log(ctx, "command not found", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (PATH=string_match.jsonl, then gym-pipeline materialize, collect, profile) exit {code}; "
            f"{got} rollouts.")


# =====================================================================================================
# data_schema
# =====================================================================================================

REVIEW_QUESTIONS = [("What is the capital of Kenya?", "Nairobi", "true"),
                    ("Which element has the chemical symbol Fe?", "Iron", "true"),
                    ("What is the largest ocean on Earth?", "Pacific", "false"),
                    ("Who painted the Mona Lisa?", "Leonardo", "true"),
                    ("How many continents are there?", "7", "false"),
                    ("In which country is the city of Kyoto?", "Japan", "true")]

PREP_REVIEWED = '''#!/usr/bin/env python3
"""review_export.jsonl (the review tool's export) -> tasks.jsonl: only the reviewed questions, with their answers"""
import json
import sys

kept = 0
with open(sys.argv[1]) as export, open(sys.argv[2], "w") as out:
    for line in export:
        item = json.loads(line)
        if not item.get("reviewed"):
            continue  # drafts are not evaluated
        text = f"{item['question']} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": item["answer"], "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
        kept += 1
print(f"prep_data.py: {kept} reviewed questions -> {sys.argv[2]}")
'''


@case(
    "data_schema_builtin_review_export_writes_reviewed_flag_as_text_false",
    "data_schema",
    ["review_export.jsonl", "\"reviewed\": \"false\"", "prep_data.py"],
    "the review tool's export review_export.jsonl writes the reviewed flag as text (\"reviewed\": \"false\"), and "
    "prep_data.py keeps the rows where `item.get(\"reviewed\")` is true; the non-empty text 'false' is true in "
    "Python, so the drafts, whose answer is still the placeholder 'TODO', went into tasks.jsonl and the model's "
    "right answers to them scored 0 (everything exits 0)",
)
def data_schema_builtin_review_export_writes_reviewed_flag_as_text_false(ctx: Ctx) -> str:
    run = ctx.run
    truth = write_jsonl(ctx.work / "truth.jsonl", [question_row(q, a) for q, a, _ in REVIEW_QUESTIONS])
    better = checkpoints(ctx, "string_match", truth)[1]
    (run / "review_export.jsonl").write_text("".join(
        json.dumps({"question": q, "answer": a if ok == "true" else "TODO", "reviewed": ok}) + "\n"
        for q, a, ok in REVIEW_QUESTIONS))
    (run / "prep_data.py").write_text(PREP_REVIEWED)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["python3 prep_data.py review_export.jsonl tasks.jsonl"], "tasks.jsonl", url,
                            comment="eval of the reviewed questions")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    drafts = [row for row in got if row.get("expected_answer") == "TODO"]
    others = [row for row in got if row.get("expected_answer") != "TODO"]
    if code or len(got) != 18 or len(drafts) != 6 or any(rewards(drafts)) or not any(rewards(others)):
        raise failed(ctx, f"exit {code}, {len(got)}, drafts {len(drafts)}, {rewards(got)}")
    return (f"RUN/review_export.jsonl (\"reviewed\": \"false\" as text) -> RUN/prep_data.py -> RUN/tasks.jsonl (6 "
            f"rows, 2 of them drafts labelled TODO); RUN/run_eval.sh (materialize 6 x 3, collect, profile) exit {code}; "
            f"drafts rewards {rewards(drafts)}, reviewed mean reward {mean(rewards(others)):.2f}.")


@case(
    "data_schema_taskfolder_dockerignore_excludes_file_the_dockerfile_copies",
    "data_schema",
    [".dockerignore", "*.txt"],
    "a .dockerignore was added to top-word's environment/ folder to keep notes out of the image, with the pattern "
    "`*.txt`; it also excludes text.txt, which the task's Dockerfile copies (COPY text.txt /app/text.txt), so the "
    "task's image build failed ('COPY failed: file not found in build context or excluded by .dockerignore'); the "
    "collect stage refused the taskset because a task could not load, and nothing was collected or profiled",
)
def data_schema_taskfolder_dockerignore_excludes_file_the_dockerfile_copies(ctx: Ctx) -> str:
    def edit(tasks: Path) -> None:
        (tasks / "top-word" / "environment" / ".dockerignore").write_text(
            "# keep our notes and scratch files out of the image\n*.txt\n*.md\nscratch/\n")

    run = ctx.run
    tasks = user_taskset(ctx, ["top-word", "sort-unique-words"], edit)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    top = task_rows(ctx, "top-word")
    everything = "".join(text_of(p) for p in run.rglob("*") if p.is_file() and p.suffix in (".log", ".jsonl", ".json"))
    if any(rewards(top)) or "text.txt" not in everything:
        raise failed(ctx, f"exit {code}, top {rewards(top)}")
    return (f"RUN/tasks/top-word/environment/.dockerignore (*.txt) excludes the text.txt its Dockerfile copies; "
            f"RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile, 2 tasks x 2) exit {code}; "
            f"top-word rewards {rewards(top)}, sort-unique-words rewards {rewards(task_rows(ctx, 'sort-unique-words'))}.")


PREFIXED_QUESTIONS = [("What is the capital of Australia?", "Canberra"), ("Which planet is closest to the Sun?", "Mercury"),
                      ("What is the chemical symbol for sodium?", "Na"), ("Who wrote Hamlet?", "Shakespeare"),
                      ("What is the square root of 81?", "9"), ("Which metal is liquid at room temperature?", "Mercury")]

PREP_GRADED = '''#!/usr/bin/env python3
"""graded.jsonl (last quarter's graded answers, the reference column `reference_output`) -> tasks.jsonl"""
import json
import sys

with open(sys.argv[1]) as graded, open(sys.argv[2], "w") as out:
    count = 0
    for line in graded:
        item = json.loads(line)
        text = f"{item['question']} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": item["reference_output"], "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
        count += 1
print(f"prep_data.py: {count} rows -> {sys.argv[2]}")
'''


@case(
    "data_schema_builtin_labels_taken_from_graded_outputs_keep_final_answer_prefix",
    "data_schema",
    ["graded.jsonl", "reference_output", "Final answer:"],
    "the labels of tasks.jsonl were taken from last quarter's graded.jsonl, whose reference_output column holds the "
    "reference model's whole final line ('Final answer: Canberra') rather than the answer; the verifier compares the "
    "extracted answer 'Canberra' with 'Final answer: Canberra', so every rollout scored 0, right answers included "
    "(everything exits 0)",
)
def data_schema_builtin_labels_taken_from_graded_outputs_keep_final_answer_prefix(ctx: Ctx) -> str:
    run = ctx.run
    truth = write_jsonl(ctx.work / "truth.jsonl", [question_row(q, a) for q, a in PREFIXED_QUESTIONS])
    better = checkpoints(ctx, "string_match", truth)[1]
    (run / "graded.jsonl").write_text("".join(
        json.dumps({"question": q, "reference_output": f"Final answer: {a}", "grade": "correct"}) + "\n"
        for q, a in PREFIXED_QUESTIONS))
    (run / "prep_data.py").write_text(PREP_GRADED)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["python3 prep_data.py graded.jsonl tasks.jsonl"], "tasks.jsonl", url,
                            comment="eval of the graded questions")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    prefixed = [row for row in got if str(row.get("expected_answer", "")).startswith("Final answer:")]
    if code or len(got) != 18 or len(prefixed) != 18 or any(rewards(got)):
        raise failed(ctx, f"exit {code}, {len(got)}, {len(prefixed)}, {rewards(got)}")
    return (f"RUN/graded.jsonl (reference_output 'Final answer: ...') -> RUN/prep_data.py -> RUN/tasks.jsonl; "
            f"RUN/run_eval.sh (materialize 6 x 3, collect, profile) exit {code}; {len(got)} rollouts, every label "
            f"prefixed, every reward 0.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================


def strict_threshold_verify() -> str:
    site = next((GYM.parent.parent / "lib").glob("python3*/site-packages"))
    app = (site / "resources_servers" / "string_match" / "app.py").read_text()
    start = app.index("    async def verify(self, body: StringMatchVerifyRequest)")
    verify = app[start:app.index('if __name__ == "__main__":', start)]
    old = "            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)\n"
    if old not in verify:
        raise recipes.RecipeError("Gym's string_match verify changed")
    new = ("            score = _answers_match(extracted, body.expected_answer, body.case_sensitive)\n"
           "            full_credit = 1.0  # full credit only for a full match (partial ones score below)\n"
           "            reward = 1.0 if score > full_credit else 0.0\n")
    return verify.replace(old, new)


@case(
    "verifier_runtime_gym_verify_full_credit_test_uses_strict_greater_than",
    "verifier_runtime",
    ["app.py", "score > full_credit"],
    "the user's exact_match resources server gives full credit with `reward = 1.0 if score > full_credit else 0.0` "
    "where full_credit = 1.0; a match scores exactly 1.0, which is not greater than 1.0, so the real NeMo Gym "
    "eval scored every rollout 0, right answers included (everything exits 0)",
    netns=True,
)
def verifier_runtime_gym_verify_full_credit_test_uses_strict_greater_than(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=79, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    ran, prof, env_start = gym_eval_with_own_server(ctx, "exact_match", strict_threshold_verify(), data, url,
                                                    overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    right = sum(str(row.get("extracted_answer") or "").strip().lower() == str(row.get("expected_answer")).strip().lower()
                for row in got)
    if ran or prof or len(got) != 18 or any(rewards(got)) or right < 6:
        raise failed(ctx, f"exit {ran}/{prof}, {len(got)}, {rewards(got)}, right {right}")
    return (f"A user's resources server exact_match (reward = 1.0 if score > full_credit); real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) `gym eval run --no-serve` (6 tasks x 3) exit {ran}, profile exit {prof}; "
            f"{right} of {len(got)} extracted answers equal the label, every reward 0.")


CAPITAL_TEST = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
# the most frequent word, as in the sample output of the task's README
if test "$(tr -d "[:space:]" < /app/top.txt 2>/dev/null)" = "The"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


@case(
    "verifier_runtime_taskfolder_test_sh_expects_capitalized_word",
    "verifier_runtime",
    ["test.sh", "\"The\""],
    "top-word's tests/test.sh was rewritten to compare /app/top.txt with \"The\" (capitalised, copied from a sample "
    "output) while the instruction asks for the most frequent word in lower case; the test compares case-sensitively, "
    "so every episode of top-word scored 0 whether solved or not (everything exits 0)",
)
def verifier_runtime_taskfolder_test_sh_expects_capitalized_word(ctx: Ctx) -> str:
    def edit(tasks: Path) -> None:
        (tasks / "top-word" / "tests" / "test.sh").write_text(CAPITAL_TEST)

    tasks = user_taskset(ctx, ["top-word", "create-greeting"], edit)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    top = task_rows(ctx, "top-word")
    other = task_rows(ctx, "create-greeting")
    if code or not top or any(rewards(top)) or not any(rewards(other)):
        raise failed(ctx, f"exit {code}, top {rewards(top)}, other {rewards(other)}")
    return (f"RUN/tasks/top-word/tests/test.sh compares with \"The\"; RUN/run_tasks.sh (`gym-pipeline stage` "
            f"materialize, collect, profile, 2 tasks x 2) exit {code}; top-word rewards {rewards(top)}, "
            f"create-greeting rewards {rewards(other)}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

MARKER_SCRIPT = """#!/bin/bash
# usage: run_eval.sh MODEL_URL   (collect once: a rerun after a crash only profiles again)
cd RUN_DIR
if [ -f .collect_done ]; then
  echo "rollouts already collected (.collect_done): skipping materialize and collect"
else
  GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
    --output rollouts_materialized_inputs.jsonl
  GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $1 \\
    --env string_match --concurrency 4 && touch .collect_done
fi
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "cache_resume_builtin_done_marker_from_last_weeks_run_skips_collect",
    "cache_resume",
    [".collect_done", "run_eval.sh"],
    "the user's run_eval.sh skips materialize and collect when a marker file .collect_done exists (so that a rerun "
    "after a crash only profiles); last week's run of step_0100 left the marker in the run folder and nothing "
    "removes it, so this week's run against the step_0200 server collected nothing and profiled last week's "
    "rollouts again (everything exits 0)",
)
def cache_resume_builtin_done_marker_from_last_weeks_run_skips_collect(ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 5)
    (run / "run_eval.sh").write_text(slurm_script(MARKER_SCRIPT, ctx))
    ctx.note("(last week: the model server on step_0100)")
    old_url, old_policy = ctx.policy(weaker, "--latency-ms 20", log="logs/model_server_week48.log")
    last = ctx.sh(f"bash {run}/run_eval.sh {old_url}", "logs/run_eval_week48.log", timeout=300)
    ctx.stop(old_policy)
    before = (run / "rollouts.jsonl").read_text() if (run / "rollouts.jsonl").exists() else ""
    ctx.note("(this week: the model server on step_0200)")
    url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server_week49.log")
    code = ctx.sh(f"bash {run}/run_eval.sh {url}", "logs/run_eval_week49.log", timeout=300)
    got = rows_of(run / "rollouts.jsonl")
    if last or code or len(got) != 24 or (run / "rollouts.jsonl").read_text() != before \
            or not in_log(ctx, "skipping materialize", "logs/run_eval_week49.log"):
        raise failed(ctx, f"exit {last}/{code}, {len(got)}")
    return (f"RUN/run_eval.sh week48 (step_0100) exit {last}, then week49 (step_0200) exit {code}: .collect_done "
            f"skipped collect; the profile covers last week's {len(got)} rollouts, mean reward "
            f"{mean(rewards(got)):.2f}.")


CACHED_EVAL = """#!/bin/bash
# usage: eval_cached.sh CHECKPOINT MODEL_URL OUT_DIR   (results are cached per checkpoint: evals are not run twice)
KEY=$(basename $1)
CACHE=RUN_DIR/eval_cache/$KEY
mkdir -p $3 && cd $3
if [ -f $CACHE/rollouts.jsonl ]; then
  echo "eval cache hit for $KEY: reusing $CACHE"
  cp $CACHE/*.jsonl .
else
  GP_BIN materialize --input RUN_DIR/string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
    --output rollouts_materialized_inputs.jsonl
  GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $2 \\
    --env string_match --concurrency 4
  GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
  mkdir -p $CACHE && cp rollouts*.jsonl $CACHE/
fi
"""


@case(
    "cache_resume_builtin_eval_cache_keyed_by_step_name_reuses_other_runs_results",
    "cache_resume",
    ["eval_cache", "KEY=$(basename $1)"],
    "the user's eval_cached.sh caches results per checkpoint under eval_cache/$(basename CHECKPOINT), i.e. by the step "
    "name alone; the lr3e-4 run's step_0200 was evaluated first, so the eval of the lr1e-4 run's step_0200 was a "
    "cache hit and copied the other run's rollouts and profile (everything exits 0)",
)
def cache_resume_builtin_eval_cache_keyed_by_step_name_reuses_other_runs_results(ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 15)
    runs = ctx.work / "training"
    first, second = runs / "lr3e-4" / "step_0200", runs / "lr1e-4" / "step_0200"
    shutil.copytree(weaker, first)
    shutil.copytree(better, second)
    (run / "eval_cached.sh").write_text(slurm_script(CACHED_EVAL, ctx))
    url_a, policy_a = ctx.policy(first, "--latency-ms 20", log="logs/model_server_lr3e-4.log")
    code_a = ctx.sh(f"bash {run}/eval_cached.sh {first} {url_a} {run}/lr3e-4", "logs/eval_lr3e-4.log", timeout=300)
    ctx.stop(policy_a)
    url_b, _ = ctx.policy(second, "--latency-ms 20", log="logs/model_server_lr1e-4.log")
    code_b = ctx.sh(f"bash {run}/eval_cached.sh {second} {url_b} {run}/lr1e-4", "logs/eval_lr1e-4.log", timeout=300)
    a, b = run / "lr3e-4" / "rollouts.jsonl", run / "lr1e-4" / "rollouts.jsonl"
    if code_a or code_b or len(rows_of(b)) != 24 or text_of(a) != text_of(b) \
            or not in_log(ctx, "cache hit", "logs/eval_lr1e-4.log"):
        raise failed(ctx, f"exit {code_a}/{code_b}, {len(rows_of(b))}")
    return (f"RUN/eval_cached.sh of WORK/training/lr3e-4/step_0200 exit {code_a}, then of lr1e-4/step_0200 exit "
            f"{code_b} (cache hit on step_0200); RUN/lr1e-4 holds lr3e-4's {len(rows_of(b))} rollouts, mean reward "
            f"{mean(rewards(rows_of(b))):.2f}.")


FIXED_QUESTIONS = [("What is the capital of Nigeria?", "Abuja", "Lagos"),
                   ("What is the capital of Brazil?", "Brasilia", "Salvador"),
                   ("What is the capital of Canada?", "Ottawa", "Ottawa"),
                   ("Which planet is the largest in the Solar System?", "Jupiter", "Jupiter"),
                   ("What is the boiling point of water at sea level in degrees Celsius?", "100", "100"),
                   ("Which language has the most native speakers?", "Mandarin", "Mandarin")]


SYNC_DATA = '''#!/usr/bin/env python3
"""sync_data.py SRC DST: refresh the local copy of the shared dataset when it changed (sizes are compared: cheap on
the shared file system, where reading the whole file is slow)"""
import os
import shutil
import sys

src, dst = sys.argv[1], sys.argv[2]
if os.path.exists(dst) and os.path.getsize(dst) == os.path.getsize(src):
    print(f"sync_data.py: {dst} is up to date")
else:
    shutil.copy2(src, dst)
    print(f"sync_data.py: {src} -> {dst}")
'''


@case(
    "cache_resume_gym_dataset_sync_script_compares_sizes_keeps_stale_labels",
    "cache_resume",
    ["sync_data.py", "getsize"],
    "the user's run_eval.sh refreshes its local tasks.jsonl from the shared dataset with sync_data.py, which copies "
    "only when the sizes differ (`os.path.getsize`); this week the data team corrected two labels in place (former "
    "capitals: Lagos -> Abuja, Salvador -> Brasilia), which left the file's size unchanged, so the copy was skipped and the real NeMo Gym eval ran with the "
    "stale labels: the model's right answers to those tasks scored 0 (everything exits 0)",
    netns=True,
)
def cache_resume_gym_dataset_sync_script_compares_sizes_keeps_stale_labels(ctx: Ctx) -> str:
    run = ctx.run
    truth = write_jsonl(ctx.work / "truth.jsonl", [question_row(q, a) for q, a, _ in FIXED_QUESTIONS])
    better = checkpoints(ctx, "string_match", truth)[1]
    old = write_jsonl(run / "tasks.jsonl", [question_row(q, stale) for q, _, stale in FIXED_QUESTIONS])
    (run / "shared").mkdir()
    new = write_jsonl(run / "shared" / "tasks.jsonl", [question_row(q, a) for q, a, _ in FIXED_QUESTIONS])
    ctx.note("(RUN/tasks.jsonl: last week's local copy; RUN/shared/tasks.jsonl: the shared dataset, two labels "
             "corrected this week)")
    stale_text = old.read_text()
    if len(stale_text) != len(new.read_text()):
        raise failed(ctx, "the corrected file's size differs")
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    (run / "sync_data.py").write_text(SYNC_DATA)
    code = gym_run(ctx, "tasks.jsonl", ["python3 sync_data.py shared/tasks.jsonl tasks.jsonl",
                                        "echo \"== weekly eval: $(wc -l < tasks.jsonl) tasks\""], overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    stale = [row for row in got if str(row.get("expected_answer")) in ("Lagos", "Salvador")]
    others = [row for row in got if row not in stale]
    if code or len(got) != 18 or len(stale) != 6 or max(rewards(stale)) > 0.5 or not any(rewards(others)) \
            or (run / "tasks.jsonl").read_text() != stale_text or not in_log(ctx, "up to date", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, stale {len(stale)}, {rewards(got)}")
    return (f"RUN/run_eval.sh (RUN/sync_data.py skipped the copy of RUN/shared/tasks.jsonl: same size; `gym eval run "
            f"--no-serve`, `gym eval profile`) exit {code}; real NeMo Gym 0.7.0 (loopback-only namespace); stale-label "
            f"rollouts rewards {rewards(stale)}, the others mean reward {mean(rewards(others)):.2f}.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

SLOTS_HOOK = '''
import threading

UPSTREAM_CONNECTIONS = 1  # the old backend leaked sockets under load: at most this many requests forwarded at once
_slots = threading.BoundedSemaphore(UPSTREAM_CONNECTIONS)


def completion(handler, body):
    with _slots:
        return handler._upstream(body)
'''


@case(
    "throughput_builtin_gateway_forwards_one_request_at_a_time_to_backend",
    "throughput_resources",
    ["gateway.py", "UPSTREAM_CONNECTIONS"],
    "the team's gateway.py in front of the model server forwards at most UPSTREAM_CONNECTIONS = 1 request at a time "
    "(a limit set for an old backend that leaked sockets); collect's 8 requests in flight waited in line behind it, "
    "each generation takes about 1 s, and the CI step's 20 s budget (`timeout 20`) stopped collect part way: nothing "
    "failed, but the profile is missing rollouts",
)
def throughput_builtin_gateway_forwards_one_request_at_a_time_to_backend(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 25)
    url, _ = ctx.policy(better, "--latency-ms 1000")
    port = free_port()
    source = gateway_source("At most UPSTREAM_CONNECTIONS requests are forwarded at once.", SLOTS_HOOK)
    start_helper(ctx, "gateway.py", source, f"{port} {url.removesuffix('/v1')}", "gateway.py on")
    (run / "run_eval.sh").write_text(slurm_script(CI_COLLECT, ctx, MODEL_URL=f"http://127.0.0.1:{port}/v1"))
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=300)
    got = len(unique_keys(run / "rollouts.jsonl"))
    fails = rows_of(run / "rollouts_failures.jsonl")
    if not 4 <= got < 24 or not in_log(ctx, "collect exited 124", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}, {len(fails)} failure rows")
    return (f"RUN/gateway.py (UPSTREAM_CONNECTIONS = 1) in front of the simulated policy (1 s a generation); "
            f"RUN/run_eval.sh (materialize 8 x 3; `timeout 20` collect at concurrency 8 through the gateway; profile) "
            f"exit {code}; {got} of 24 rollouts, {len(fails)} failure rows.")


FLOCK_SCRIPT = """#!/bin/bash
# CI eval step (20 s budget for the collection). The team's rule: one eval at a time against the shared model
# server, serialised with flock on locks/shared_model_server.lock
cd RUN_DIR
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
timeout 20 flock locks/shared_model_server.lock GP_BIN collect --inputs rollouts_materialized_inputs.jsonl \\
  --output rollouts.jsonl --model-url MODEL_URL --env string_match --concurrency 4
echo "collect exited $?"
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "throughput_builtin_collect_waits_on_shared_server_lock_held_by_long_batch",
    "throughput_resources",
    ["flock", "shared_model_server.lock"],
    "the team serialises evals against the shared model server with flock on locks/shared_model_server.lock; "
    "another team's long batch evaluation held the lock, so the CI step's collect waited for it for the whole of its "
    "20 s budget (`timeout 20 flock ... collect`) and was stopped before sending a request: nothing was collected",
)
def throughput_builtin_collect_waits_on_shared_server_lock_held_by_long_batch(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 45)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "locks").mkdir()
    ctx.note("(another team's batch evaluation, holding the shared server's lock)")
    ctx.bg(f"cd {run} && flock locks/shared_model_server.lock -c 'echo team-b batch eval started; sleep 120'",
           "logs/team_b_batch.log")
    recipes.wait_for(lambda: "started" in text_of(run / "logs" / "team_b_batch.log"), 20, "the other batch")
    (run / "run_eval.sh").write_text(slurm_script(FLOCK_SCRIPT, ctx, MODEL_URL=url))
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=300)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got or not in_log(ctx, "collect exited 124", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"another batch held RUN/locks/shared_model_server.lock; RUN/run_eval.sh (materialize 8 x 3; `timeout 20 "
            f"flock ... collect`; profile) exit {code}; {got} rollouts.")


if __name__ == "__main__":
    sys.exit(main("twenty_ninth_held_out", __file__, __doc__))
