"""Build the THIRTY-SIXTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/thirty_sixth_held_out.py --out tests/data/diagnosis_corpus/thirty_sixth_held_out [--only CASE ...]

This set was written from the guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder
troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests
or their results. It is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
task folders run in Docker sandboxes, Slurm batch jobs, the real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` /
`gym eval profile` inside a loopback-only network namespace, with a user's own resources server), and the user's own
shell scripts, settings files, helper servers (gateways), task files and data-preparation scripts. The output of every
command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the
user's own inputs (data, scripts, settings, verifier code). Each case injects one cause, different in mechanism from
those of the thirty-five earlier sets (first_held_out.py ... thirty_fifth_held_out.py), and each recipe checks that
its fault really happened (it raises RecipeError otherwise, and the case is not written). About half of the failures
are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare),
Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this checkout. Run it from a foreground shell.
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
    stop_gym,
    task_checkpoints,
    user_taskset,
)
from fourteenth_held_out import mean, rewards  # noqa: E402
from recipes import Ctx, case, gym_model_args, main, rows_of, text_of, unique_keys  # noqa: E402
from tenth_held_out import in_log  # noqa: E402
from thirtieth_held_out import gateway_url, gym_rows  # noqa: E402
from thirty_fifth_held_out import SCI_PREP, mean_reward, pipeline  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_fifth_held_out import job_logs, task_rows  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_seventh_held_out import (  # noqa: E402
    builtin_script,
    gateway_source,
    gym_eval_with_own_server,
    submit_and_wait,
)
from twenty_sixth_held_out import free_port, gym_run, slurm_script  # noqa: E402
from twenty_third_held_out import taskset_script, write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()

NEGATIVES = [("What is 3 minus 8?", "-5"), ("What is 7 times 6?", "42"), ("What is -4 times 3?", "-12"),
             ("What is 100 divided by 4?", "25"), ("What is 10 minus 25?", "-15"), ("What is 9 squared?", "81")]

FRACTIONS = [("What is 1 divided by 4, as a decimal number?", "0.25"),
             ("What is 3 divided by 4, as a decimal number?", "0.75"),
             ("What is 1 divided by 8, as a decimal number?", "0.125"),
             ("What is 1 divided by 2, as a decimal number?", "0.5"),
             ("What is 3 divided by 8, as a decimal number?", "0.375"),
             ("What is 1 divided by 5, as a decimal number?", "0.2")]

BALANCES = [("A wallet holds 12 euros and 20 are spent. What is the balance in euros?", "-8"),
            ("A thermometer shows 5 degrees and drops by 9. What does it show?", "-4"),
            ("What is 14 plus 27?", "41"),
            ("An account holds 30 dollars and 75 are withdrawn. What is the balance in dollars?", "-45"),
            ("What is 6 times 8?", "48"),
            ("A lift is on floor 2 and goes down 5 floors. Which floor is it on?", "-3"),
            ("What is 90 minus 35?", "55"),
            ("A diver at 0 metres descends 18 metres. What is the diver's height in metres?", "-18")]


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_builtin_run_script_syncs_clock_with_ntpdate_not_installed",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh first checks the node's clock against the team's time server (`ntpdate "
    "-q time.example.internal || echo ...`); ntpdate is not installed on the eval node, so the log opens with "
    "'ntpdate: command not found', but materialize, collect and profile completed every rollout",
)
def healthy_builtin_run_script_syncs_clock_with_ntpdate_not_installed(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 44)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["ntpdate -q time.example.internal || echo '(clock not checked)'",
                                  "echo '== weekly eval'"], "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code or got != 24 or not in_log(ctx, "command not found", "logs/run_eval.log") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (`ntpdate -q` not installed; materialize 8 x 3, collect, profile) exit {code}; {got} "
            f"rollouts, mean reward {mean_reward(run / 'rollouts.jsonl')}.")


@case(
    "healthy_gym_run_script_warms_page_cache_with_vmtouch_not_installed",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh first loads the task file into the page cache (`vmtouch -t tasks.jsonl "
    "|| echo ...`), a habit from the big datasets; vmtouch is not installed here, so the log opens with 'vmtouch: "
    "command not found', but the real NeMo Gym eval then collected, verified and profiled every rollout",
    netns=True,
)
def healthy_gym_run_script_warms_page_cache_with_vmtouch_not_installed(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=50, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["vmtouch -t tasks.jsonl || echo '(page cache not warmed)'",
                                        "echo '== weekly eval'"], overrides)
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if code or got != 18 or not in_log(ctx, "command not found", "logs/run_eval.log") \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (`vmtouch` not installed, then `gym eval "
            f"run --no-serve` 6 tasks x 3, `gym eval profile`) exit {code}, {got} rollouts, mean reward "
            f"{mean(rewards(gym_rows(ctx))):.2f}.")


@case(
    "healthy_taskfolder_run_script_switches_to_docker_context_that_does_not_exist",
    "healthy",
    [],
    "nothing is wrong: the user's run_tasks.sh first tries to switch to the team's remote Docker context (`docker "
    "context use team-remote || echo ...`), which was never created on this host, so the log opens with 'context "
    "\"team-remote\": context not found'; the local daemon was used and every episode ran in its Docker sandbox, "
    "was verified and profiled",
)
def healthy_taskfolder_run_script_switches_to_docker_context_that_does_not_exist(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["create-greeting", "csv-column-total"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, [
        "docker context use team-remote || echo '(staying on the local Docker daemon)'", "echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    if code or len(unique_keys(run / "rollouts.jsonl")) != 4 or not any(rewards(got)) \
            or not in_log(ctx, "context not found", "logs/run_tasks.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/run_tasks.sh (`docker context use` of an absent context; `gym-pipeline stage` materialize, collect, "
            f"profile of RUN/tasks x 2) exit {code}; rewards {rewards(got)}.")


NODE_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
cd RUN_DIR
# show the GPU node the big cluster runs this on (its state helps when jobs wait)
scontrol show node gpu-node-07 || echo "(no GPU node here)"
echo "weekly eval on $(hostname)"
PIPELINE"""


@case(
    "healthy_slurm_job_shows_gpu_node_not_in_this_cluster",
    "healthy",
    [],
    "nothing is wrong: the user's eval.sbatch, copied from the GPU cluster, first prints the state of that cluster's "
    "node (`scontrol show node gpu-node-07`); this cluster has no such node, so the job log opens with 'Node "
    "gpu-node-07 not found', but materialize, collect and profile completed every rollout",
)
def healthy_slurm_job_shows_gpu_node_not_in_this_cluster(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 52)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(NODE_SBATCH, ctx, PIPELINE=pipeline(url)))
    code = submit_and_wait(ctx, "eval.sbatch", "logs/submit.log")
    logs = job_logs(ctx, "eval_*.log")
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code or got != 24 or "not found" not in logs or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {logs[-600:]}")
    return (f"RUN/submit.sh (sbatch of RUN/eval.sbatch: `scontrol show node` of a node not in the cluster; "
            f"materialize 8 x 3, collect, profile) exit {code}; {got} rollouts, mean reward "
            f"{mean_reward(run / 'rollouts.jsonl')}.")


# =====================================================================================================
# infra
# =====================================================================================================

REAPER = """#!/bin/bash
# the login nodes' process reaper (site policy): a user process may run 15 s of wall time here, then it is killed
while true; do
  for pid in $(pgrep -f "gym-pipeline collect.*PATTERN"); do
    age=$(ps -o etimes= -p $pid | tr -d ' ')
    if [ -n "$age" ] && [ "$age" -gt 15 ]; then
      echo "$(date +%T) login-reaper: killed pid $pid ($age s; login nodes allow 15 s per process, use sbatch)"
      kill -9 $pid
    fi
  done
  sleep 1
done
"""


@case(
    "infra_builtin_collect_run_on_login_node_killed_by_site_process_reaper",
    "infra",
    ["login node", "sbatch"],
    "the user ran run_eval.sh directly on the cluster's login node instead of in a batch job; the site's login-node "
    "reaper kills any user process older than 15 s, so `gym-pipeline collect` was killed with SIGKILL ('Killed') "
    "after 15 s with a third of the rollouts written, and the strict profile refused the partial run",
)
def infra_builtin_collect_run_on_login_node_killed_by_site_process_reaper(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 16, 56)
    url, _ = ctx.policy(better, "--latency-ms 2000")
    reaper = ctx.work / "login_reaper.sh"
    reaper.write_text(REAPER.replace("PATTERN", url.split("//")[1]))
    ctx.note("(the site's login-node reaper runs on this node: processes older than 15 s are killed)")
    process = subprocess.Popen(["bash", str(reaper)], stdout=open(ctx.work / "reaper.log", "w"),
                               stderr=subprocess.STDOUT, start_new_session=True)
    ctx.background.append(process)
    script = builtin_script(ctx, ["echo \"== weekly eval on $(hostname)\""], "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if "killed pid" not in text_of(ctx.work / "reaper.log") or got >= 48 or not in_log(ctx, "Killed",
                                                                                        "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}: {text_of(ctx.work / 'reaper.log')[-300:]}")
    return (f"RUN/run_eval.sh run on the login node (reaper: SIGKILL after 15 s); 16 tasks x 3 at 2 s per completion; "
            f"exit {code}; {got} of 48 rollouts.")


ARCHIVE_NOTE = """This folder is managed by the results archive service.
Folders under the archive are write-once: files may be created and appended to, never replaced or removed.
"""


@case(
    "infra_builtin_results_folder_under_write_once_archive_append_only_attribute",
    "infra",
    ["append-only", "chattr", "results"],
    "the user pointed the eval's outputs at results/, a folder of the team's results archive, which the archive service "
    "marks append-only (chattr +a: files may be created, never replaced or removed); the engine writes every output "
    "through a temporary file renamed into place, so materialize died with 'PermissionError: Operation not permitted' "
    "on the rename and nothing was collected",
)
def infra_builtin_results_folder_under_write_once_archive_append_only_attribute(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 64)
    url, _ = ctx.policy(better, "--latency-ms 20")
    results = run / "results"
    results.mkdir()
    (results / "README.archive").write_text(ARCHIVE_NOTE)
    subprocess.run(["chattr", "+a", str(results)], check=True)
    ctx.note("(the archive service set the append-only attribute on RUN/results: chattr +a)")
    try:
        script = run / "run_eval.sh"
        script.write_text(f"#!/bin/bash\n# weekly eval, outputs straight into the archive\ncd {run}\n"
                          "echo '== weekly eval'\n" + pipeline(url).replace(" rollouts", " results/rollouts"))
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
        ctx.sh(f"lsattr -d {results}", "logs/lsattr.log")
    finally:
        subprocess.run(["chattr", "-a", str(results)], check=False)
        ctx.note("(afterwards the archive service cleared the attribute so the folder could be handed over)")
    got = len(rows_of(results / "rollouts.jsonl"))
    if got or not in_log(ctx, "Operation not permitted", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/results append-only (chattr +a); RUN/run_eval.sh (materialize, collect, profile into results/) exit "
            f"{code}; {got} rollouts.")


# =====================================================================================================
# model_serving
# =====================================================================================================

THINK_HOOK = '''
# The deployment behind us serves reasoning models: split the thinking off the reply the way vLLM's
# --reasoning-parser does ('<think> ... </think> answer'); without a closing tag the whole reply is thinking.
def completion(handler, body):
    status, data = handler._upstream(body)
    if status != 200:
        return status, data
    reply = json.loads(data)
    for choice in reply.get("choices", []):
        message = choice.get("message") or {}
        text = message.get("content") or ""
        if "</think>" in text:
            thinking, _, answer = text.partition("</think>")
        else:
            thinking, answer = text, ""
        message["reasoning_content"] = thinking.replace("<think>", "").strip()
        message["content"] = answer.strip()
    return status, json.dumps(reply).encode()
'''


@case(
    "model_serving_builtin_gateway_reasoning_split_moves_whole_reply_into_reasoning_content",
    "model_serving",
    ["gateway.py", "reasoning_content", "</think>"],
    "the team's gateway.py splits every reply into reasoning_content and content at '</think>', as for the reasoning "
    "models it was set up for; the evaluated checkpoint is not a reasoning model and never writes '</think>', so the "
    "gateway moved each whole reply into reasoning_content and left content empty: no answer was found in any "
    "rollout and the eval scored 0 although the model answered correctly",
)
def model_serving_builtin_gateway_reasoning_split_moves_whole_reply_into_reasoning_content(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 70)
    url, _ = ctx.policy(better, "--latency-ms 20")
    gateway = gateway_url(ctx, url, "Splits reasoning_content off the replies (reasoning models).", THINK_HOOK)
    script = builtin_script(ctx, ["echo '== weekly eval, through the gateway'"], "string_match.jsonl", gateway)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    if any(rewards(got)):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/gateway.py (reply split at '</think>', none present: content emptied) in front of the simulated "
            f"policy; RUN/run_eval.sh exit {code}; {len(got)} rollouts, rewards {rewards(got)}.")


PASS_HOOK = '''
def completion(handler, body):
    return handler._upstream(body)
'''

UPSTREAM_LINE = "UPSTREAM = sys.argv[2]"


@case(
    "model_serving_gym_gateway_upstream_defaults_to_staging_deployment_when_backend_variable_unset",
    "model_serving",
    ["gateway.py", "MODEL_BACKEND"],
    "the team's gateway.py takes its upstream from MODEL_BACKEND and falls back to the staging deployment when the "
    "variable is unset; the user started it from a new shell without MODEL_BACKEND, so every completion of the eval "
    "of step_0200 was answered by staging's step_0100 (the startup line says '-> ' the staging URL) and the real "
    "NeMo Gym eval reported step_0100's reward as step_0200's (everything exits 0)",
    netns=True,
)
def model_serving_gym_gateway_upstream_defaults_to_staging_deployment_when_backend_variable_unset(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=76, folder=run, name="tasks.jsonl")
    weaker, better = checkpoints(ctx, "string_match", data)
    staging, _ = ctx.policy(weaker, "--latency-ms 30", log="logs/staging_deployment.log")
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    port = free_port()
    source = gateway_source("Upstream: $MODEL_BACKEND (default: the staging deployment).", PASS_HOOK)
    if UPSTREAM_LINE not in source:
        raise failed(ctx, "no upstream line")
    source = source.replace(UPSTREAM_LINE, "UPSTREAM = os.environ.get(\"MODEL_BACKEND\", \"STAGING\")  # staging "
                            "deployment by default".replace("STAGING", staging.removesuffix("/v1")))
    ctx.note(f"(the new checkpoint step_0200 is served at {url}; MODEL_BACKEND=... was exported in another shell)")
    env = {key: value for key, value in ctx.env.items() if key != "MODEL_BACKEND"}
    (run / "gateway.py").write_text(source)
    ctx.bg(f"cd {run} && python3 gateway.py {port}", "logs/gateway.log", env=env)
    recipes.wait_for(lambda: "gateway.py on" in text_of(run / "logs" / "gateway.log"), 20, "gateway.py")
    gateway = f"http://127.0.0.1:{port}/v1"
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(gateway)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["echo '== weekly eval of step_0200, through the gateway'"], overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    if code or len(got) != 24 or staging.removesuffix("/v1") not in text_of(run / "logs" / "gateway.log"):
        raise failed(ctx, f"exit {code}, {len(got)}")
    return (f"RUN/gateway.py (upstream $MODEL_BACKEND, unset: staging's step_0100) in front of step_0200; real NeMo "
            f"Gym 0.7.0 (loopback-only namespace) RUN/run_eval.sh exit {code}; {len(got)} rollouts, mean reward "
            f"{mean(rewards(got)):.2f}.")


# =====================================================================================================
# config
# =====================================================================================================

CRLF_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
cd RUN_DIR
echo "weekly eval on $(hostname)"
PIPELINE"""


@case(
    "config_slurm_sbatch_script_saved_with_windows_line_endings",
    "config",
    ["eval.sbatch", "line endings"],
    "the user edited eval.sbatch on a Windows laptop and copied it back with CRLF line endings; sbatch refuses such a "
    "script ('Batch script contains DOS line breaks (\\r\\n) instead of expected UNIX line breaks (\\n)'), so no job "
    "was submitted and nothing was collected",
)
def config_slurm_sbatch_script_saved_with_windows_line_endings(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 62)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    text = slurm_script(CRLF_SBATCH, ctx, PIPELINE=pipeline(url))
    (run / "eval.sbatch").write_bytes(text.replace("\n", "\r\n").encode())
    code = submit_and_wait(ctx, "eval.sbatch", "logs/submit.log")
    got = len(rows_of(run / "rollouts.jsonl"))
    if got or not in_log(ctx, "DOS line breaks", "logs/submit.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return f"RUN/eval.sbatch with CRLF line endings; RUN/submit.sh (sbatch, then wait) exit {code}; {got} rollouts."


STRICT_SCRIPT = """#!/bin/bash
# weekly eval; strict mode like all our scripts
set -euo pipefail
cd RUN_DIR
echo "== weekly eval"
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
# EXTRA_COLLECT_FLAGS: e.g. --resume after a preemption
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 4 $EXTRA_COLLECT_FLAGS
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "config_builtin_strict_mode_run_script_aborts_on_unset_optional_flags_variable",
    "config",
    ["run_eval.sh", "EXTRA_COLLECT_FLAGS"],
    "run_eval.sh runs with `set -euo pipefail` and passes $EXTRA_COLLECT_FLAGS to collect without a default; the "
    "variable is only set when resuming after a preemption, so on a normal run bash stopped with "
    "'EXTRA_COLLECT_FLAGS: unbound variable' right after materialize: collect never ran",
)
def config_builtin_strict_mode_run_script_aborts_on_unset_optional_flags_variable(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 30)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "run_eval.sh").write_text(slurm_script(STRICT_SCRIPT, ctx, MODEL_URL=url))
    env = {key: value for key, value in ctx.env.items() if key != "EXTRA_COLLECT_FLAGS"}
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=400, env=env)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got or not in_log(ctx, "unbound variable", "logs/run_eval.log") \
            or not (run / "rollouts_materialized_inputs.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (set -u; $EXTRA_COLLECT_FLAGS unset) exit {code}; materialize ran, {got} rollouts.")


SPLITS_SCRIPT = """#!/bin/bash
# weekly eval of both splits (dev and test), then one profile of everything
cd RUN_DIR
for SPLIT in dev test; do
  echo "== split $SPLIT"
  GP_BIN materialize --input data/$SPLIT.jsonl --num-repeats 3 --agent string_match_simple_agent \\
    --output rollouts_materialized_inputs.jsonl
  GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
    --env string_match --concurrency 4
done
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "config_builtin_split_loop_writes_every_split_to_the_same_output_names",
    "config",
    ["run_eval.sh", "$SPLIT", "--output"],
    "run_eval.sh loops over the dev and test splits to profile both, but writes every split's materialized inputs "
    "and rollouts to the same fixed file names; the test split's run replaced the dev split's files, so the profile "
    "covers the 6 test tasks only, not the 14 of both splits (everything exits 0)",
)
def config_builtin_split_loop_writes_every_split_to_the_same_output_names(ctx: Ctx) -> str:
    run = ctx.run
    dev = ctx.dataset("string_match", 8, start=10, folder=run / "data", name="dev.jsonl")
    test = ctx.dataset("string_match", 6, start=18, folder=run / "data", name="test.jsonl")
    both = ctx.work / "both.jsonl"
    both.write_text(dev.read_text() + test.read_text())
    better = checkpoints(ctx, "string_match", both)[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "run_eval.sh").write_text(slurm_script(SPLITS_SCRIPT, ctx, MODEL_URL=url))
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=500)
    got = rows_of(run / "rollouts.jsonl")
    profile = rows_of(run / "rollouts_reward_profiling.jsonl")
    if code or len(got) != 18 or len(profile) != 6:
        raise failed(ctx, f"exit {code}, {len(got)}, profile {len(profile)}")
    return (f"RUN/run_eval.sh (dev 8 tasks and test 6 tasks, both to rollouts.jsonl) exit {code}; {len(got)} rollouts, "
            f"{len(profile)} tasks profiled, mean reward {mean(rewards(got)):.2f}.")


# =====================================================================================================
# data_schema
# =====================================================================================================


def percent(answer: str) -> str:
    """How a Percentage-formatted spreadsheet column shows (and exports) a decimal number."""
    return f"{float(answer) * 100:g}%"


@case(
    "data_schema_gym_decimal_labels_exported_from_percent_formatted_spreadsheet_column",
    "data_schema",
    ["labels.csv", "%"],
    "the answer column of the labelling team's spreadsheet was formatted as Percentage, so its export labels.csv "
    "wrote every decimal answer as a percentage (0.25 as 25%); prepare_data.py copied the labels as they were, so "
    "the model's correct answers (0.25) never matched and the real NeMo Gym eval scored every rollout 0 (everything "
    "exits 0)",
    netns=True,
)
def data_schema_gym_decimal_labels_exported_from_percent_formatted_spreadsheet_column(ctx: Ctx) -> str:
    run = ctx.run
    lines = ["question,answer"] + [f"\"{q}\",{percent(a)}" for q, a in FRACTIONS]
    (run / "labels.csv").write_text("\n".join(lines) + "\n")
    (run / "prepare_data.py").write_text(SCI_PREP)
    ctx.sh(f"cd {run} && python3 prepare_data.py && head -c 400 tasks.jsonl", "logs/prepare_data.log")
    truth = write_jsonl(ctx.work / "truth.jsonl", [question_row(q, a) for q, a in FRACTIONS])
    better = checkpoints(ctx, "string_match", truth)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["echo '== weekly eval'"], overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    if code or len(got) != 18 or any(rewards(got)) or not all("%" in str(row.get("expected_answer")) for row in got):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/labels.csv (labels like {percent(FRACTIONS[0][1])}) -> RUN/prepare_data.py -> RUN/tasks.jsonl; real "
            f"NeMo Gym 0.7.0 (loopback-only namespace) RUN/run_eval.sh exit {code}; {len(got)} rollouts, rewards "
            f"{rewards(got)}.")


def currency_sales(tasks: Path) -> None:
    sales = tasks / "csv-column-total" / "environment" / "sales.csv"
    lines = sales.read_text().splitlines()
    out = [lines[0]]
    for line in lines[1:]:
        region, product, amount = line.split(",")
        out.append(f"{region},{product},${int(amount)}.00")
    sales.write_text("\n".join(out) + "\n")


@case(
    "data_schema_taskfolder_sales_csv_reexported_with_currency_formatted_amounts",
    "data_schema",
    ["sales.csv", "amount"],
    "csv-column-total's environment/sales.csv was re-exported from the finance sheet with its amounts in currency "
    "format ($120.00 instead of 120); the task asks for the integer total of the amount column and its test expects "
    "435, but every amount now reads as text, the agent's total came out 0 and every episode of that task scored 0 "
    "while create-greeting scored normally (everything exits 0)",
)
def data_schema_taskfolder_sales_csv_reexported_with_currency_formatted_amounts(ctx: Ctx) -> str:
    tasks = user_taskset(ctx, ["csv-column-total", "create-greeting"], currency_sales)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    totals = task_rows(ctx, "csv-column-total")
    other = task_rows(ctx, "create-greeting")
    if not totals or any(rewards(totals)) or not any(rewards(other)):
        raise failed(ctx, f"exit {code}, totals {rewards(totals)}, other {rewards(other)}")
    return (f"RUN/tasks/csv-column-total/environment/sales.csv (amounts as $120.00); RUN/run_tasks.sh exit {code}; "
            f"csv-column-total rewards {rewards(totals)}, create-greeting rewards {rewards(other)}.")


ACCOUNTING_PREP = '''"""prepare_data.py: the bookkeeping team's sheet (balances.csv) -> string_match.jsonl"""
import csv
import json

with open("balances.csv", newline="") as f, open("string_match.jsonl", "w") as out:
    for item in csv.DictReader(f):
        text = item["question"] + " End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": item["answer"].strip(), "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
'''


def accounting(answer: str) -> str:
    """How an Accounting-formatted spreadsheet column shows (and exports) a number: negatives in parentheses."""
    return f"({answer[1:]})" if answer.startswith("-") else answer


@case(
    "data_schema_builtin_negative_labels_exported_in_accounting_parentheses",
    "data_schema",
    ["balances.csv", "negative"],
    "the bookkeeping team's sheet formats its answer column as Accounting, so the export balances.csv wrote every "
    "negative answer in parentheses (-8 as (8)); prepare_data.py copied the labels as they were, so the model's "
    "correct negative answers never matched and every task with a negative answer scored 0 (everything exits 0)",
)
def data_schema_builtin_negative_labels_exported_in_accounting_parentheses(ctx: Ctx) -> str:
    run = ctx.run
    lines = ["question,answer"] + [f"\"{q}\",{accounting(a)}" for q, a in BALANCES]
    (run / "balances.csv").write_text("\n".join(lines) + "\n")
    (run / "prepare_data.py").write_text(ACCOUNTING_PREP)
    truth = write_jsonl(ctx.work / "truth.jsonl", [question_row(q, a) for q, a in BALANCES])
    better = checkpoints(ctx, "string_match", truth)[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["echo '== weekly eval'", "python3 prepare_data.py"], "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    negative = [row for row in got if str(row.get("expected_answer", "")).startswith("(")]
    positive = [row for row in got if row not in negative]
    if code or len(got) != 24 or not negative or any(rewards(negative)) or not any(rewards(positive)):
        raise failed(ctx, f"exit {code}, {len(got)}, neg {rewards(negative)}, pos {rewards(positive)}")
    return (f"RUN/balances.csv (negative labels like {accounting(BALANCES[0][1])}) -> RUN/prepare_data.py; "
            f"RUN/run_eval.sh exit {code}; {len(got)} rollouts, negative-answer rewards {rewards(negative)}, others "
            f"{rewards(positive)}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

TOLERANCE_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        reward = 0.0
        if extracted is not None and body.expected_answer:
            try:
                # numeric answers: accept a relative error of one in a million (rounding in the labels)
                got, want = float(extracted.replace(",", "")), float(body.expected_answer)
                reward = 1.0 if abs(got - want) <= 1e-6 * want else 0.0
            except ValueError:
                reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""


@case(
    "verifier_runtime_gym_verify_relative_tolerance_scaled_by_signed_label_rejects_negative_answers",
    "verifier_runtime",
    ["app.py", "tolerance", "abs"],
    "the user's resources server numeric_match compares numbers with a relative tolerance `abs(got - want) <= 1e-6 * "
    "want`, scaled by the signed label instead of abs(want); for a negative label the tolerance is negative, so even "
    "an exact answer fails: every task with a negative answer scored 0 in the real NeMo Gym eval while the model "
    "answered it correctly (everything exits 0)",
    netns=True,
)
def verifier_runtime_gym_verify_relative_tolerance_scaled_by_signed_label_rejects_negative_answers(ctx: Ctx) -> str:
    run = ctx.run
    data = write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in NEGATIVES])
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    ran, prof, env_start = gym_eval_with_own_server(ctx, "numeric_match", TOLERANCE_VERIFY, data, url, overrides)
    stop_gym(ctx, env_start, policy)
    got = rows_of(run / "results" / "rollouts.jsonl")
    negative = [row for row in got if str(row.get("expected_answer", "")).startswith("-")]
    right = [row for row in negative if str(row.get("extracted_answer")) == str(row.get("expected_answer"))]
    positive = [row for row in got if row not in negative]
    if ran or len(got) != 18 or not right or any(rewards(negative)) or not any(rewards(positive)):
        raise failed(ctx, f"exit {ran}/{prof}, {len(got)}, neg {rewards(negative)}, pos {rewards(positive)}")
    return (f"A user's resources server numeric_match (tolerance 1e-6 * signed label); real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) `gym eval run --no-serve` (6 tasks x 3) exit {ran}, profile exit {prof}; "
            f"negative-label rewards {rewards(negative)} ({len(right)} answered exactly), others {rewards(positive)}.")


def echo_status_test(tasks: Path) -> None:
    test = tasks / "create-greeting" / "tests" / "test.sh"
    test.write_text("#!/bin/bash\n# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.\ncd /app\n"
                    "grep -qx 'Hello, Gym!' /app/hello.txt 2>/dev/null\n"
                    "echo \"checked hello.txt: '$(cat /app/hello.txt 2>/dev/null)'\"   # debugging aid\n"
                    "if [ $? -eq 0 ]; then\n  echo \"PASS\"\n  echo 1 > /logs/verifier/reward.txt\nelse\n"
                    "  echo \"FAIL\"\n  echo 0 > /logs/verifier/reward.txt\nfi\n")


@case(
    "verifier_runtime_taskfolder_test_sh_tests_exit_status_of_debug_echo_instead_of_grep",
    "verifier_runtime",
    ["test.sh", "$?", "grep"],
    "a debugging line (`echo \"checked hello.txt: ...\"`) was added to create-greeting's test.sh between the `grep` "
    "and the `if [ $? -eq 0 ]` that reads its status; $? is now the echo's status, always 0, so every episode of "
    "create-greeting scored 1, including those whose hello.txt was wrong or missing (everything exits 0)",
)
def verifier_runtime_taskfolder_test_sh_tests_exit_status_of_debug_echo_instead_of_grep(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["create-greeting", "top-word"], echo_status_test)
    weaker = task_checkpoints(ctx, tasks)[0]
    url, _ = ctx.policy(weaker, "--latency-ms 30")
    script = taskset_script(ctx, tasks, weaker, url, ["echo '== weekly taskset run of step_0100'"], repeats=4)
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    greet = task_rows(ctx, "create-greeting")
    seen = "".join(text_of(p) for p in run.rglob("*") if p.is_file() and p.suffix in (".log", ".jsonl", ".json",
                                                                                       ".txt", ".out"))
    wrong = [line for line in seen.splitlines() if "checked hello.txt:" in line and "Hello, Gym!" not in line]
    if not greet or not all(r == 1 for r in rewards(greet)) or not wrong:
        raise failed(ctx, f"exit {code}, greeting {rewards(greet)}, wrong {len(wrong)}")
    return (f"RUN/tasks/create-greeting/tests/test.sh (`if [ $? -eq 0 ]` after a debug echo); RUN/run_tasks.sh of "
            f"step_0100 exit {code}; create-greeting rewards {rewards(greet)} with {len(wrong)} wrong hello.txt seen, "
            f"top-word rewards {rewards(task_rows(ctx, 'top-word'))}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

ORDER_ONLY_MAKEFILE = """# weekly eval: `make profile MODEL_URL=...`; make rebuilds what is out of date
GP := GP_BIN

rollouts_materialized_inputs.jsonl: string_match.jsonl
\t$(GP) materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
\t  --output rollouts_materialized_inputs.jsonl

# the inputs only have to exist before collecting (order-only: no re-collect when they are touched)
rollouts.jsonl: | rollouts_materialized_inputs.jsonl
\t$(GP) collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $(MODEL_URL) \\
\t  --env string_match --concurrency 4

profile: rollouts.jsonl
\t$(GP) profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
.PHONY: profile
"""


def fix_labels(path: Path, wrong: dict[int, str]) -> None:
    lines = path.read_text().splitlines()
    for index, label in wrong.items():
        row = json.loads(lines[index])
        row["expected_answer"] = label
        lines[index] = json.dumps(row)
    path.write_text("\n".join(lines) + "\n")


@case(
    "cache_resume_builtin_makefile_rollouts_depend_on_inputs_only_as_order_only_prerequisite",
    "cache_resume",
    ["Makefile", "order-only", "rollouts.jsonl"],
    "the eval Makefile lists the materialized inputs as an order-only prerequisite of rollouts.jsonl (`rollouts.jsonl: "
    "| rollouts_materialized_inputs.jsonl`); after three wrong labels were corrected in string_match.jsonl, `make "
    "profile` re-materialized the inputs but kept last run's rollouts.jsonl, graded against the old labels, and "
    "profiled it: the corrected tasks still score 0 (everything exits 0)",
)
def cache_resume_builtin_makefile_rollouts_depend_on_inputs_only_as_order_only_prerequisite(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 40)
    good = data.read_text()
    fix_labels(data, {0: "Atlantis", 3: "Narnia", 5: "Gondor"})
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "Makefile").write_text(slurm_script(ORDER_ONLY_MAKEFILE, ctx))
    code1 = ctx.sh(f"cd {run} && make profile MODEL_URL={url}", "logs/make_last_week.log", timeout=400)
    before = rows_of(run / "rollouts.jsonl")
    time.sleep(1.1)
    data.write_text(good)
    ctx.note("(three wrong labels of RUN/string_match.jsonl corrected by the labelling team)")
    code2 = ctx.sh(f"cd {run} && make profile MODEL_URL={url}", "logs/make.log", timeout=400)
    after = rows_of(run / "rollouts.jsonl")
    stale = [row for row in after if row.get("expected_answer") in ("Atlantis", "Narnia", "Gondor")]
    if code1 or code2 or len(after) != 24 or before != after or not stale or in_log(ctx, " collect ", "logs/make.log"):
        raise failed(ctx, f"exit {code1}/{code2}, {len(after)}, stale {len(stale)}")
    return (f"RUN/Makefile (rollouts.jsonl: | inputs); `make profile` last week (exit {code1}), labels corrected, "
            f"`make profile` again (exit {code2}): inputs rebuilt, collect skipped; {len(stale)} rollouts still graded "
            f"against the old labels, mean reward {mean(rewards(after)):.2f}.")


EVAL_SCRIPT = """#!/bin/bash
# weekly eval of step_0100: collect only (the report is made by report.sh)
cd RUN_DIR
GP_BIN materialize --input string_match.jsonl --num-repeats 4 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 4
"""

SFT_SCRIPT = """#!/bin/bash
# export the good rollouts of this week's eval as SFT data (keeps the eval folder tidy: only successes)
cd RUN_DIR
jq -c 'select(.reward == 1)' rollouts.jsonl > rollouts.tmp && mv rollouts.tmp rollouts.jsonl
cp rollouts.jsonl sft/step_0100.jsonl
wc -l rollouts.jsonl sft/step_0100.jsonl
"""

REPORT_SCRIPT = """#!/bin/bash
# weekly report: profile the eval folder (--allow-partial: preempted runs are common, report what finished)
cd RUN_DIR
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl --allow-partial
"""


@case(
    "cache_resume_builtin_rollouts_filtered_in_place_for_sft_then_profiled_with_allow_partial",
    "cache_resume",
    ["export_sft.sh", "rollouts.jsonl", "jq"],
    "the user's export_sft.sh filtered the eval's rollouts.jsonl in place to its successes (`jq 'select(.reward == "
    "1)' ... && mv ... rollouts.jsonl`) before the weekly report was made; report.sh profiles with --allow-partial, "
    "so the failed rollouts counted as merely missing, the never-solved tasks were dropped and the profile reported "
    "a reward of 1.0 for a checkpoint that solves about a third of the rollouts (everything exits 0)",
)
def cache_resume_builtin_rollouts_filtered_in_place_for_sft_then_profiled_with_allow_partial(ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, _) = builtin_rows(ctx, 10, 60)
    url, _ = ctx.policy(weaker, "--latency-ms 20")
    (run / "sft").mkdir()
    for name, text in (("run_eval.sh", EVAL_SCRIPT), ("export_sft.sh", SFT_SCRIPT), ("report.sh", REPORT_SCRIPT)):
        (run / name).write_text(slurm_script(text, ctx, MODEL_URL=url))
    code1 = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=400)
    first = rows_of(run / "rollouts.jsonl")
    code2 = ctx.sh(f"bash {run}/export_sft.sh", "logs/export_sft.log")
    code3 = ctx.sh(f"bash {run}/report.sh", "logs/report.log", timeout=400)
    profile = rows_of(run / "rollouts_reward_profiling.jsonl")
    means = [row.get("mean/reward") for row in profile]
    if code1 or code2 or code3 or len(first) != 40 or not (0 < mean(rewards(first)) < 1) or not profile \
            or any(m != 1 for m in means) or len(profile) >= 10:
        raise failed(ctx, f"exit {code1}/{code2}/{code3}, {len(first)} {mean(rewards(first))}, {means}")
    return (f"RUN/run_eval.sh (step_0100, 10 tasks x 4, exit {code1}): mean reward {mean(rewards(first)):.2f}; "
            f"RUN/export_sft.sh (in-place jq filter to reward 1, exit {code2}); RUN/report.sh (profile "
            f"--allow-partial, exit {code3}): {len(profile)} tasks profiled, every mean reward 1.0.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

STEPS_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --ntasks=1
#SBATCH --time=1
# weekly eval job: the four shards are collected in parallel, one job step each, so one minute is plenty
cd RUN_DIR
mkdir -p shards
for i in 0 1 2 3; do
  GP_BIN materialize --input data/shard_$i.jsonl --num-repeats 3 --agent string_match_simple_agent \\
    --output shards/inputs_$i.jsonl
done
for i in 0 1 2 3; do
  srun --ntasks=1 bash -c "GP_BIN collect --inputs shards/inputs_$i.jsonl --output shards/rollouts_$i.jsonl \\
    --model-url MODEL_URL --env string_match --concurrency 2 && \\
    GP_BIN profile --inputs shards/inputs_$i.jsonl --rollouts shards/rollouts_$i.jsonl" &
done
wait
echo "== all shards done"
"""


@case(
    "throughput_slurm_parallel_srun_steps_queue_inside_one_task_allocation",
    "throughput_resources",
    ["eval.sbatch", "--ntasks", "srun"],
    "eval.sbatch starts the collection of its four shards as four parallel `srun` job steps, but the job asks for "
    "--ntasks=1 (one CPU); each step needs the whole allocation, so the steps waited for each other ('step creation "
    "temporarily disabled') and ran one after the other, and the one-minute job, sized for the parallel run, ran out "
    "of time with only some of the shards collected and profiled",
)
def throughput_slurm_parallel_srun_steps_queue_inside_one_task_allocation(ctx: Ctx) -> str:
    run = ctx.run
    all_rows = ctx.dataset("string_match", 24, start=60, name="all.jsonl")
    lines = all_rows.read_text().splitlines(keepends=True)
    (run / "data").mkdir()
    for i in range(4):
        (run / "data" / f"shard_{i}.jsonl").write_text("".join(lines[i * 6:(i + 1) * 6]))
    better = checkpoints(ctx, "string_match", all_rows)[1]
    url, _ = ctx.policy(better, "--latency-ms 2500")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(STEPS_SBATCH, ctx, MODEL_URL=url))
    code = submit_and_wait(ctx, "eval.sbatch", "logs/submit.log")
    logs = job_logs(ctx, "eval_*.log")
    got = sum(len(rows_of(p)) for p in (run / "shards").glob("rollouts_*.jsonl"))
    if "temporarily disabled" not in logs or got >= 72:
        raise failed(ctx, f"exit {code}, {got}: {logs[-800:]}")
    return (f"RUN/submit.sh (sbatch of RUN/eval.sbatch: --ntasks=1, four background `srun` collect steps, --time=1; "
            f"24 tasks x 3 at 2.5 s per completion) exit {code}; {got} of 72 rollouts.")


KEY_HOOK = '''
import threading

LIMITS = {"batch": 16, "interactive": 1}  # requests in flight per API key, by key tier
ACTIVE = {}
LOCK = threading.Lock()


def completion(handler, body):
    key = handler.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    tier = "batch" if key.startswith("batch-") else "interactive"
    with LOCK:
        if ACTIVE.get(key, 0) >= LIMITS[tier]:
            message = f"too many requests in flight for this key ({LIMITS[tier]} allowed for {tier} keys)"
            return 429, json.dumps({"error": {"message": message, "type": "rate_limit_exceeded"}}).encode()
        ACTIVE[key] = ACTIVE.get(key, 0) + 1
    try:
        return handler._upstream(body)
    finally:
        with LOCK:
            ACTIVE[key] -= 1
'''


@case(
    "throughput_builtin_batch_eval_sent_with_interactive_key_limited_to_one_request_in_flight",
    "throughput_resources",
    ["EVAL_API_KEY", "batch", "concurrency"],
    "the team's gateway.py allows one request in flight per interactive API key (16 for batch- keys); the user's "
    "run_eval.sh collects at concurrency 8 with their personal interactive key in EVAL_API_KEY, so most requests "
    "were refused with 429 'too many requests in flight for this key' and many rollouts were given up after their "
    "retries",
)
def throughput_builtin_batch_eval_sent_with_interactive_key_limited_to_one_request_in_flight(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 12, 20)
    url, _ = ctx.policy(better, "--latency-ms 400")
    gateway = gateway_url(ctx, url, "Per-key limit of requests in flight (interactive keys: 1, batch keys: 16).",
                          KEY_HOOK)
    script = builtin_script(ctx, ["export EVAL_API_KEY=sk-personal-4f2a91", "echo '== weekly eval, through the "
                                  "gateway'"], "string_match.jsonl", gateway, concurrency=8)
    script.write_text(script.read_text().replace("--concurrency 8", "--concurrency 8 --api-key-env EVAL_API_KEY"))
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=600)
    got = len(unique_keys(run / "rollouts.jsonl"))
    seen = "".join(text_of(p) for p in run.rglob("*") if p.is_file() and p.suffix in (".log", ".jsonl"))
    ok = [row for row in rows_of(run / "rollouts.jsonl") if row.get("reward") is not None]
    if "429" not in seen or "--api-key-env EVAL_API_KEY" not in script.read_text() or len(ok) >= 36:
        raise failed(ctx, f"exit {code}, {got}, {len(ok)}")
    return (f"RUN/gateway.py (1 request in flight per interactive key) in front of the simulated policy; "
            f"RUN/run_eval.sh (concurrency 8, personal key) exit {code}; {got} rollout keys written, {len(ok)} of 36 "
            f"scored.")


if __name__ == "__main__":
    sys.exit(main("thirty_sixth_held_out", __file__, __doc__))
