"""Build the THIRTY-FIFTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/thirty_fifth_held_out.py --out tests/data/diagnosis_corpus/thirty_fifth_held_out [--only CASE ...]

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
those of the thirty-four earlier sets (first_held_out.py ... thirty_fourth_held_out.py), and each recipe checks that
its fault really happened (it raises RecipeError otherwise, and the case is not written). About half of the failures
are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare),
Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this checkout. Run it from a foreground shell.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import checkpoints, failed, gym_start, stop_gym, task_checkpoints, user_taskset  # noqa: E402
from fourteenth_held_out import mean, rewards  # noqa: E402
from recipes import GP, Ctx, case, gym_model_args, main, rows_of, text_of, unique_keys  # noqa: E402
from tenth_held_out import in_log  # noqa: E402
from thirtieth_held_out import gateway_url, gym_rows  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_fifth_held_out import job_logs, task_rows  # noqa: E402
from twenty_fourth_held_out import gym_eval_line, gym_profile_line  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_seventh_held_out import builtin_script, gym_eval_with_own_server, submit_and_wait  # noqa: E402
from twenty_sixth_held_out import gym_run, slurm_script  # noqa: E402
from twenty_third_held_out import taskset_script, write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()

CAPITALS = [("What is the capital of Portugal?", "Lisbon"),
            ("Which planet is known as the Red Planet?", "Mars"),
            ("Who painted the Mona Lisa?", "Leonardo da Vinci"),
            ("What is the chemical symbol of gold?", "Au"),
            ("Which ocean is the largest?", "Pacific"),
            ("What is the capital of Canada?", "Ottawa")]

BIG_NUMBERS = [("How many seconds are in a common year of 365 days?", "31536000"),
               ("What is 2 to the power of 30?", "1073741824"),
               ("How many seconds are in a leap year?", "31622400"),
               ("What is 2 to the power of 20?", "1048576"),
               ("What is 2 to the power of 25?", "33554432"),
               ("What is 2 to the power of 24?", "16777216")]


def pipeline(url: str, data: str = "string_match.jsonl", repeats: str = "3", concurrency: str = "4",
             gp: str = str(GP)) -> str:
    return (f"{gp} materialize --input {data} --num-repeats {repeats} --agent string_match_simple_agent "
            f"--output rollouts_materialized_inputs.jsonl\n"
            f"{gp} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {url} "
            f"--env string_match --concurrency {concurrency}\n"
            f"{gp} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")


def mean_reward(path: Path) -> str:
    return f"{mean(rewards(rows_of(path))):.2f}"


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_builtin_run_script_touches_heartbeat_in_monitoring_folder_absent_on_node",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh first touches a heartbeat file for the team's job monitor (`touch "
    "/shared/monitor/heartbeats/$USER || echo ...`); that monitoring folder is only mounted on the login nodes, so "
    "the log opens with 'touch: cannot touch ... No such file or directory', but materialize, collect and profile "
    "completed every rollout",
)
def healthy_builtin_run_script_touches_heartbeat_in_monitoring_folder_absent_on_node(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 14)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["touch /shared/monitor/heartbeats/${USER:-eval} || echo '(no job monitor here)'",
                                  "echo '== weekly eval'"], "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code or got != 24 or not in_log(ctx, "cannot touch", "logs/run_eval.log") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (`touch` of a heartbeat in an absent folder; materialize 8 x 3, collect, profile) exit "
            f"{code}; {got} rollouts, mean reward {mean_reward(run / 'rollouts.jsonl')}.")


@case(
    "healthy_gym_run_script_reports_model_cache_size_of_folder_absent_on_node",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh first reports the size of the Hugging Face model cache (`du -sh "
    "/data/hf_cache/hub || echo ...`), which exists on the GPU nodes only, so the log opens with 'du: cannot access "
    "... No such file or directory', but the real NeMo Gym eval then collected, verified and profiled every rollout",
    netns=True,
)
def healthy_gym_run_script_reports_model_cache_size_of_folder_absent_on_node(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=26, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["du -sh /data/hf_cache/hub || echo '(no model cache on this node)'",
                                        "echo '== weekly eval'"], overrides)
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if code or got != 18 or not in_log(ctx, "cannot access", "logs/run_eval.log") \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (`du -sh` of an absent folder, then `gym "
            f"eval run --no-serve` 6 tasks x 3, `gym eval profile`) exit {code}, {got} rollouts, mean reward "
            f"{mean(rewards(gym_rows(ctx))):.2f}.")


@case(
    "healthy_taskfolder_run_script_inspects_team_docker_network_absent_on_host",
    "healthy",
    [],
    "nothing is wrong: the user's run_tasks.sh first prints the team's Docker network (`docker network inspect "
    "team-eval-net || echo ...`), which exists on the build hosts only, so the log opens with 'Error response from "
    "daemon: network team-eval-net not found', but every episode ran in its Docker sandbox, was verified and profiled",
)
def healthy_taskfolder_run_script_inspects_team_docker_network_absent_on_host(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["create-greeting", "top-word"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, [
        "docker network inspect team-eval-net || echo '(no team network here)'", "echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    if code or len(unique_keys(run / "rollouts.jsonl")) != 4 or not any(rewards(got)) \
            or not in_log(ctx, "not found", "logs/run_tasks.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/run_tasks.sh (`docker network inspect` of an absent network; `gym-pipeline stage` materialize, "
            f"collect, profile of RUN/tasks x 2) exit {code}; rewards {rewards(got)}.")


SPRIO_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
cd RUN_DIR
# print this job's priority factors (handy on the big cluster when jobs wait long)
sprio -j $SLURM_JOB_ID || echo "(no priority factors)"
echo "weekly eval on $(hostname)"
PIPELINE"""


@case(
    "healthy_slurm_job_prints_priority_factors_without_multifactor_plugin",
    "healthy",
    [],
    "nothing is wrong: the user's eval.sbatch, copied from the big cluster, first prints the job's priority factors "
    "(`sprio -j $SLURM_JOB_ID`); this cluster runs priority/basic, so the job log opens with 'You are not running a "
    "supported priority plugin', but materialize, collect and profile completed every rollout",
)
def healthy_slurm_job_prints_priority_factors_without_multifactor_plugin(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 40)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(SPRIO_SBATCH, ctx, PIPELINE=pipeline(url)))
    code = submit_and_wait(ctx, "eval.sbatch", "logs/submit.log")
    logs = job_logs(ctx, "eval_*.log")
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code or got != 24 or "priority plugin" not in logs or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {logs[-600:]}")
    return (f"RUN/submit.sh (sbatch of RUN/eval.sbatch: `sprio` without priority/multifactor; materialize 8 x 3, "
            f"collect, profile) exit {code}; {got} rollouts, mean reward {mean_reward(run / 'rollouts.jsonl')}.")


# =====================================================================================================
# infra
# =====================================================================================================


@case(
    "infra_taskfolder_node_env_points_docker_host_at_rootless_socket_of_old_setup",
    "infra",
    ["node_env.sh", "DOCKER_HOST"],
    "the user's node_env.sh, kept from the time the team ran rootless Docker, exports "
    "DOCKER_HOST=unix:///run/user/1000/docker.sock; no daemon listens there on this host, so every task-folder "
    "sandbox failed to reach Docker and no episode ran",
)
def infra_taskfolder_node_env_points_docker_host_at_rootless_socket_of_old_setup(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["create-greeting", "top-word"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    (run / "node_env.sh").write_text("# node settings (rootless Docker, one daemon per user)\n"
                                     "export DOCKER_HOST=unix:///run/user/1000/docker.sock\nexport OMP_NUM_THREADS=4\n")
    script = taskset_script(ctx, tasks, checkpoint, url, ["source ./node_env.sh", "echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    seen = "".join(text_of(p) for p in run.rglob("*") if p.is_file() and p.suffix in (".log", ".jsonl", ".json"))
    if any(rewards(got)) or "docker.sock" not in seen:
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/node_env.sh DOCKER_HOST=unix:///run/user/1000/docker.sock (no daemon); RUN/run_tasks.sh exit {code}; "
            f"{len(got)} rollouts, rewards {rewards(got)}.")


PANDAS_PREP = '''"""prepare_data.py: the labelling team's sheet (labels.csv) -> string_match.jsonl"""
import pandas as pd

sheet = pd.read_csv("labels.csv", dtype=str)
rows = [{"responses_create_params": {"input": [{"role": "user", "type": "message", "content": [
            {"type": "input_text", "text": q + " End your response with 'Final answer: <answer>'."}]}]},
         "expected_answer": a, "extraction_mode": "final_answer", "case_sensitive": False}
        for q, a in zip(sheet["question"], sheet["answer"])]
pd.DataFrame(rows).to_json("string_match.jsonl", orient="records", lines=True)
print(f"wrote {len(rows)} tasks")
'''


@case(
    "infra_builtin_eval_node_python_lacks_pandas_needed_by_data_preparation",
    "infra",
    ["pandas", "python3", "prepare_data.py"],
    "the user's run_eval.sh first rebuilds the tasks with `/usr/bin/python3 prepare_data.py`, which imports pandas; "
    "on the eval nodes /usr/bin/python3 is the node's own interpreter, without pandas (it was only installed on the "
    "user's workstation), so the preparation died with 'No module named pandas', no string_match.jsonl was written and "
    "materialize found no dataset: nothing was collected",
)
def infra_builtin_eval_node_python_lacks_pandas_needed_by_data_preparation(ctx: Ctx) -> str:
    run = ctx.run
    truth = write_jsonl(ctx.work / "truth.jsonl", [question_row(q, a) for q, a in CAPITALS])
    better = checkpoints(ctx, "string_match", truth)[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "labels.csv").write_text("question,answer\n" + "".join(f"\"{q}\",{a}\n" for q, a in CAPITALS))
    (run / "prepare_data.py").write_text(PANDAS_PREP)
    script = builtin_script(ctx, ["echo '== weekly eval'", "/usr/bin/python3 prepare_data.py"], "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got or not in_log(ctx, "No module named 'pandas'", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (`/usr/bin/python3 prepare_data.py`, pandas not installed for the node's python3) exit {code}; "
            f"{got} rollouts.")


# =====================================================================================================
# model_serving
# =====================================================================================================

TOKEN_CAP_HOOK = '''
MAX_TOKENS = 8  # cost control: nobody needs more than a short answer from the shared deployment


def completion(handler, body):
    request = json.loads(body)
    request["max_tokens"] = min(int(request.get("max_tokens") or MAX_TOKENS), MAX_TOKENS)
    return handler._upstream(json.dumps(request).encode())
'''

CANARY_HOOK = '''
import random

CANARY = "CANARY_URL"  # the previous deployment, kept for the A/B comparison
CANARY_SHARE = 0.5


def completion(handler, body):
    if random.random() < CANARY_SHARE:
        print(f"{handler.path} -> canary", flush=True)
        request = urllib.request.Request(CANARY + handler.path, data=body, method="POST",
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=120) as answer:
            return answer.status, answer.read()
    return handler._upstream(body)
'''


@case(
    "model_serving_builtin_gateway_caps_max_tokens_for_cost_control",
    "model_serving",
    ["gateway.py", "MAX_TOKENS"],
    "the team's gateway.py caps every completion at MAX_TOKENS = 8 (cost control on the shared deployment, meant "
    "for the chat UI); the eval's replies were cut after a few words (finish_reason 'length') before the final "
    "answer, so almost every rollout scored 0 although the model knew the answers (everything exits 0)",
)
def model_serving_builtin_gateway_caps_max_tokens_for_cost_control(ctx: Ctx) -> str:
    run = ctx.run
    data = write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in CAPITALS])
    better = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    gateway = gateway_url(ctx, url, "Caps replies at MAX_TOKENS (cost control).", TOKEN_CAP_HOOK)
    script = builtin_script(ctx, ["echo '== weekly eval, through the gateway'"], "string_match.jsonl", gateway)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    if code or len(got) != 18 or mean(rewards(got)) > 0.3:
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/gateway.py (max_tokens capped at 8) in front of the simulated policy; RUN/run_eval.sh exit {code}; "
            f"{len(got)} rollouts, mean reward {mean(rewards(got)):.2f}.")


@case(
    "model_serving_builtin_gateway_canary_split_sends_half_the_requests_to_previous_checkpoint",
    "model_serving",
    ["gateway.py", "CANARY_SHARE"],
    "the team's gateway.py was left with its A/B canary on: CANARY_SHARE = 0.5 of the completions go to the "
    "previous deployment (step_0100) still running on another port, so the eval of step_0200 mixed both "
    "checkpoints' answers and its reward came out well below what step_0200 scores on its own (everything exits 0)",
)
def model_serving_builtin_gateway_canary_split_sends_half_the_requests_to_previous_checkpoint(ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 10, 50)
    old_url, _ = ctx.policy(weaker, "--latency-ms 20", log="logs/previous_deployment.log")
    url, _ = ctx.policy(better, "--latency-ms 20")
    gateway = gateway_url(ctx, url, "A/B canary: CANARY_SHARE of the traffic to the previous deployment.",
                          CANARY_HOOK.replace("CANARY_URL", old_url.removesuffix("/v1")))
    script = builtin_script(ctx, ["echo '== weekly eval of step_0200, through the gateway'"], "string_match.jsonl",
                            gateway)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    to_old = text_of(run / "logs" / "gateway.log").count("-> canary")
    if code or len(got) != 30 or to_old < 5:
        raise failed(ctx, f"exit {code}, {len(got)}, to old {to_old}")
    return (f"RUN/gateway.py (CANARY_SHARE 0.5 to step_0100) in front of step_0200; RUN/run_eval.sh exit {code}; "
            f"{len(got)} rollouts, {to_old} completions answered by step_0100, mean reward {mean(rewards(got)):.2f}.")


# =====================================================================================================
# config
# =====================================================================================================


@case(
    "config_builtin_run_script_unquoted_dataset_path_with_space_split_into_two_arguments",
    "config",
    ["run_eval.sh", "$DATA"],
    "the dataset now lives in a folder with a space in its name ('weekly data/'); run_eval.sh passes it unquoted "
    "(`--input $DATA`), so bash split it into two words, materialize refused the arguments and nothing was "
    "collected",
)
def config_builtin_run_script_unquoted_dataset_path_with_space_split_into_two_arguments(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 60, name="weekly data/string_match.jsonl")
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text(f"#!/bin/bash\n# weekly eval\ncd {run}\nDATA=\"weekly data/string_match.jsonl\"\n"
                      f"echo \"== weekly eval of $DATA\"\n" + pipeline(url, data="$DATA"))
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got or not data.exists() or not in_log(ctx, "data/string_match.jsonl", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (`--input $DATA` unquoted, DATA='weekly data/string_match.jsonl') exit {code}; "
            f"{got} rollouts.")


BUDGET_SETTINGS = """# CI settings of the eval step
REPEATS=3
CONCURRENCY=4
TIME_BUDGET=5   # minutes for the whole eval step
"""

BUDGET_SCRIPT = """#!/bin/bash
# CI eval step: everything must finish within the step's time budget
cd RUN_DIR
source ./ci_settings.env
echo "== CI eval, budget $TIME_BUDGET"
GP_BIN materialize --input string_match.jsonl --num-repeats $REPEATS --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
timeout $TIME_BUDGET GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl \\
  --model-url MODEL_URL --env string_match --concurrency $CONCURRENCY
echo "collect exit $?"
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "config_builtin_time_budget_in_minutes_given_to_timeout_which_reads_seconds",
    "config",
    ["TIME_BUDGET", "timeout", "ci_settings.env"],
    "ci_settings.env gives the eval step TIME_BUDGET=5 meaning minutes, and run_eval.sh passes it to `timeout "
    "$TIME_BUDGET gym-pipeline collect`; `timeout` reads a bare number as seconds, so collect was killed after 5 "
    "seconds (exit 124) with only a few rollouts written, although the server answered every request quickly",
)
def config_builtin_time_budget_in_minutes_given_to_timeout_which_reads_seconds(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 16, 4)
    url, _ = ctx.policy(better, "--latency-ms 600")
    (run / "ci_settings.env").write_text(BUDGET_SETTINGS)
    (run / "run_eval.sh").write_text(slurm_script(BUDGET_SCRIPT, ctx, MODEL_URL=url))
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if got >= 48 or not in_log(ctx, "collect exit 124", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/ci_settings.env TIME_BUDGET=5 (minutes) -> `timeout $TIME_BUDGET` (seconds); RUN/run_eval.sh exit "
            f"{code}; {got} of 48 rollouts.")


IFS_SCRIPT = """#!/bin/bash
# weekly eval: the split list comes from splits.csv (one line: name,file)
cd RUN_DIR
IFS=, read -r NAME FILE < splits.csv
echo "== weekly eval of $NAME ($FILE)"
IFS=,    # the CSV columns below are comma separated too
OPTS="--num-repeats 3 --agent string_match_simple_agent"
GP_BIN materialize --input $FILE $OPTS --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 4
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "config_builtin_run_script_sets_ifs_to_comma_so_option_string_stays_one_word",
    "config",
    ["run_eval.sh", "IFS", "OPTS"],
    "run_eval.sh sets IFS=, for its CSV parsing and never restores it; the options kept in OPTS=\"--num-repeats 3 "
    "--agent ...\" are then expanded unquoted but no longer split on spaces, so materialize got them as one "
    "unknown argument and refused to run: nothing was collected",
)
def config_builtin_run_script_sets_ifs_to_comma_so_option_string_stays_one_word(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 70)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "splits.csv").write_text("test,string_match.jsonl\n")
    (run / "run_eval.sh").write_text(slurm_script(IFS_SCRIPT, ctx, MODEL_URL=url))
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=400)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got or not in_log(ctx, "required: --num-repeats", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return f"RUN/run_eval.sh (IFS=, left set; $OPTS unquoted stays one word) exit {code}; {got} rollouts."


@case(
    "config_builtin_run_script_keeps_jq_easy_tasks_filter_from_a_quick_try",
    "config",
    ["run_eval.sh", "jq", "difficulty"],
    "run_eval.sh builds the week's task file with `jq -c 'select(.difficulty <= 2)' string_match.jsonl > tasks.jsonl`, "
    "a filter from a quick try on the easy tasks that was never taken out (the full copy line is commented out): "
    "the weekly eval covered only the easy part of the set and reported a reward far above the real one "
    "(everything exits 0)",
)
def config_builtin_run_script_keeps_jq_easy_tasks_filter_from_a_quick_try(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 16, 0)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["# build this week's task file", "# cp string_match.jsonl tasks.jsonl",
                                  "jq -c 'select(.difficulty <= 2)' string_match.jsonl > tasks.jsonl   "
                                  "# quick try on the easy tasks first", "echo \"== weekly eval of $(wc -l < "
                                  "tasks.jsonl) tasks\""], "tasks.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = len({key[0] if isinstance(key, tuple) else key for key in unique_keys(run / "rollouts.jsonl")})
    rows = rows_of(run / "rollouts.jsonl")
    if code or not rows or len(rows) >= 48 or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}, {len(rows)}")
    return (f"RUN/run_eval.sh (jq select(.difficulty <= 2) of RUN/string_match.jsonl's 16 tasks) exit {code}; "
            f"{len(rows)} rollouts instead of 48, mean reward {mean(rewards(rows)):.2f}.")


# =====================================================================================================
# data_schema
# =====================================================================================================

SCI_PREP = '''"""prepare_data.py: the labelling team's spreadsheet export (labels.csv) -> tasks.jsonl"""
import csv
import json

with open("labels.csv", newline="") as f, open("tasks.jsonl", "w") as out:
    for item in csv.DictReader(f):
        text = item["question"] + " End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": item["answer"], "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
'''


def spreadsheet_number(answer: str) -> str:
    """How the spreadsheet shows (and exports) a long number in a narrow General-format column."""
    return f"{float(answer):.1E}"


@case(
    "data_schema_gym_numeric_labels_exported_by_spreadsheet_in_scientific_notation",
    "data_schema",
    ["labels.csv", "31536000", "E+"],
    "the labelling team's spreadsheet export labels.csv wrote every long number in scientific notation (31536000 as "
    "3.2E+07, a narrow General-format column); prepare_data.py copied the labels as they were, so the model's exact answers "
    "(31536000) never matched them and the real NeMo Gym eval scored every rollout 0 (everything exits 0)",
    netns=True,
)
def data_schema_gym_numeric_labels_exported_by_spreadsheet_in_scientific_notation(ctx: Ctx) -> str:
    run = ctx.run
    lines = ["question,answer"] + [f"\"{q}\",{spreadsheet_number(a)}" for q, a in BIG_NUMBERS]
    (run / "labels.csv").write_text("\n".join(lines) + "\n")
    (run / "prepare_data.py").write_text(SCI_PREP)
    ctx.sh(f"cd {run} && python3 prepare_data.py && head -c 400 tasks.jsonl", "logs/prepare_data.log")
    truth = write_jsonl(ctx.work / "truth.jsonl", [question_row(q, a) for q, a in BIG_NUMBERS])
    better = checkpoints(ctx, "string_match", truth)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["echo '== weekly eval'"], overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    if code or len(got) != 18 or any(rewards(got)) or not all("E+" in str(row.get("expected_answer")) for row in got):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/labels.csv (labels like {spreadsheet_number(BIG_NUMBERS[0][1])}) -> RUN/prepare_data.py -> "
            f"RUN/tasks.jsonl; real NeMo Gym 0.7.0 (loopback-only namespace) RUN/run_eval.sh exit {code}; {len(got)} "
            f"rollouts, rewards {rewards(got)}.")


def refresh_instructions_script(tasks: Path) -> str:
    return ("#!/bin/bash\n# refresh.sh: the new house style says 'the file', not 'a file', in every instruction\n"
            f"cd {tasks}\nfor f in */instruction.md; do\n  sed 's/ a file/ the file/g' \"$f\" > \"$f\"\ndone\n"
            "wc -c */instruction.md\n")


@case(
    "data_schema_taskfolder_instructions_emptied_by_sed_redirected_onto_its_own_input",
    "data_schema",
    ["refresh.sh", "sed", "instruction.md"],
    "the user's refresh.sh rewrote every task's instruction with `sed ... \"$f\" > \"$f\"`: the shell truncates the "
    "file before sed reads it, so every instruction.md of the taskset became empty; materialize could load none of "
    "the tasks (every one skipped for its empty instruction) and nothing was run or scored",
)
def data_schema_taskfolder_instructions_emptied_by_sed_redirected_onto_its_own_input(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["create-greeting", "top-word"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    (run / "refresh.sh").write_text(refresh_instructions_script(tasks))
    ctx.sh(f"bash {run}/refresh.sh", "logs/refresh.log")
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    if got or text_of(tasks / "top-word" / "instruction.md") or not in_log(ctx, "TasksNotLoadable", "logs/run_tasks.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/refresh.sh (`sed ... \"$f\" > \"$f\"`) emptied RUN/tasks/*/instruction.md; RUN/run_tasks.sh exit "
            f"{code}; {len(got)} rollouts, rewards {rewards(got)}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

TTY_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        # debugging aid: show each graded answer on my terminal
        with open("/dev/tty", "w") as tty:
            print(f"graded {extracted!r} vs {body.expected_answer!r}", file=tty)

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
    "verifier_runtime_gym_verify_prints_debug_lines_to_dev_tty",
    "verifier_runtime",
    ["app.py", "/dev/tty"],
    "the user's resources server exact_match prints a debug line for every graded answer to /dev/tty (it worked "
    "when they tried it in a terminal); `gym env start` runs the server without a controlling terminal, so "
    "opening /dev/tty raised in every verify call and the real NeMo Gym eval got no reward for any rollout",
    netns=True,
)
def verifier_runtime_gym_verify_prints_debug_lines_to_dev_tty(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=32, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    ran, prof, env_start = gym_eval_with_own_server(ctx, "exact_match", TTY_VERIFY, data, url, overrides)
    stop_gym(ctx, env_start, policy)
    got = rows_of(run / "results" / "rollouts.jsonl")
    seen = "".join(text_of(p) for p in run.rglob("*") if p.is_file() and p.suffix in (".log", ".jsonl"))
    if any(rewards(got)) or "tty" not in seen:
        raise failed(ctx, f"exit {ran}/{prof}, {len(got)}, {rewards(got)}")
    return (f"A user's resources server exact_match (verify opens /dev/tty); real NeMo Gym 0.7.0 (loopback-only "
            f"namespace) `gym eval run --no-serve` (6 tasks x 3) exit {ran}, profile exit {prof}; {len(got)} rollouts.")


def and_or_reward(tasks: Path) -> None:
    test = tasks / "create-greeting" / "tests" / "test.sh"
    test.write_text("#!/bin/bash\n# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.\ncd /app\n"
                    "test \"$(cat /app/hello.txt 2>/dev/null)\" = \"Hello, Gym!\" && echo 1 || echo 0 "
                    "> /logs/verifier/reward.txt\n")


@case(
    "verifier_runtime_taskfolder_test_sh_and_or_chain_redirects_only_the_failure_reward",
    "verifier_runtime",
    ["test.sh", "reward.txt", "&&"],
    "create-greeting's test.sh was shortened to one line, `test ... && echo 1 || echo 0 > /logs/verifier/reward.txt`: "
    "the redirection belongs to the last command only, so when the greeting is right the 1 goes to the test's "
    "output and no reward file is written; the solved episodes of create-greeting ended without a reward (reward 0) "
    "while top-word scored normally",
)
def verifier_runtime_taskfolder_test_sh_and_or_chain_redirects_only_the_failure_reward(ctx: Ctx) -> str:
    tasks = user_taskset(ctx, ["create-greeting", "top-word"], and_or_reward)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    greet = task_rows(ctx, "create-greeting")
    other = task_rows(ctx, "top-word")
    if not greet or any(rewards(greet)) or not any(rewards(other)) \
            or not any(row.get("failure_kind") == "harbor:missing_reward" for row in greet):
        raise failed(ctx, f"exit {code}, greeting {rewards(greet)}, other {rewards(other)}")
    return (f"RUN/tasks/create-greeting/tests/test.sh (`... && echo 1 || echo 0 > reward.txt`); RUN/run_tasks.sh exit "
            f"{code}; create-greeting rewards {rewards(greet)}, top-word rewards {rewards(other)}.")


GYM_IFS_SCRIPT = """#!/bin/bash
# weekly eval: the split to evaluate comes from splits.csv (one line: name,file)
cd RUN_DIR
IFS=, read -r NAME FILE < splits.csv
echo "== weekly eval of $NAME ($FILE)"
IFS=,    # the settings below are comma-separated lists too
EVAL_OPTS="--num-repeats 3 --concurrency 4"
GYM_EVAL
GYM_PROFILE
"""


@case(
    "config_gym_run_script_sets_ifs_to_comma_so_eval_options_stay_one_word",
    "config",
    ["run_eval.sh", "IFS", "EVAL_OPTS"],
    "run_eval.sh sets IFS=, for its CSV parsing and never restores it; EVAL_OPTS=\"--num-repeats 3 --concurrency 4\" "
    "is then expanded unquoted but no longer split on spaces, so `gym eval run` got the options as one argument "
    "and refused it: the real NeMo Gym eval collected nothing",
    netns=True,
)
def config_gym_run_script_sets_ifs_to_comma_so_eval_options_stay_one_word(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=38, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    (run / "splits.csv").write_text("test,tasks.jsonl\n")
    line = gym_eval_line(overrides, "$FILE", "results/rollouts.jsonl", 3, 4).replace(
        "--num-repeats 3 --concurrency 4", "$EVAL_OPTS")
    (run / "run_eval.sh").write_text(slurm_script(GYM_IFS_SCRIPT, ctx, GYM_EVAL=line,
                                                  GYM_PROFILE=gym_profile_line("results")))
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = len(rows_of(run / "results" / "rollouts.jsonl"))
    if got or "$EVAL_OPTS" not in line:
        raise failed(ctx, f"exit {code}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (IFS=, left set; $EVAL_OPTS unquoted "
            f"stays one word) exit {code}; {got} rollouts.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

COMMIT_SCRIPT = """#!/bin/bash
# weekly eval: bash run_eval.sh MODEL_URL; results are kept per commit of the team's eval code (never evaluate twice)
cd RUN_DIR
OUT=results/$(git -C CODE_DIR rev-parse --short HEAD)
mkdir -p $OUT
if [ -s $OUT/rollouts.jsonl ]; then
  echo "== $OUT already evaluated, reusing it"
else
  GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
    --output $OUT/rollouts_materialized_inputs.jsonl
  GP_BIN collect --inputs $OUT/rollouts_materialized_inputs.jsonl --output $OUT/rollouts.jsonl --model-url $1 \\
    --env string_match --concurrency 4
fi
GP_BIN profile --inputs $OUT/rollouts_materialized_inputs.jsonl --rollouts $OUT/rollouts.jsonl
"""

GIT = "git -c user.name=eval -c user.email=eval@example.com"


@case(
    "cache_resume_builtin_results_folder_keyed_by_eval_repo_commit_reused_for_new_checkpoint",
    "cache_resume",
    ["run_eval.sh", "rev-parse", "OUT"],
    "run_eval.sh keeps results per commit of the team's eval code (OUT=results/$(git -C ... rev-parse --short HEAD)) "
    "and skips collection when that folder already has rollouts; nothing was committed to the eval code between last week's run of step_0100 "
    "and this week's run of step_0200, so this week's run reused step_0100's rollouts and profiled them as step_0200's "
    "(step_0200's server got no request; everything exits 0)",
)
def cache_resume_builtin_results_folder_keyed_by_eval_repo_commit_reused_for_new_checkpoint(ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 20)
    code_dir = ctx.work / "team-eval-code"
    code_dir.mkdir()
    (code_dir / "README.md").write_text("the team's eval code\n")
    (run / "run_eval.sh").write_text(slurm_script(COMMIT_SCRIPT, ctx, CODE_DIR=str(code_dir)))
    ctx.sh(f"cd {code_dir} && git init -q && {GIT} add -A && {GIT} commit -qm 'eval code' && git log --oneline",
           "logs/git.log")
    old_url, old = ctx.policy(weaker, "--latency-ms 20", log="logs/model_server_last_week.log")
    code1 = ctx.sh(f"bash {run}/run_eval.sh {old_url}", "logs/run_eval_last_week.log", timeout=400)
    ctx.stop(old)
    url, _ = ctx.policy(better, "--latency-ms 20")
    code2 = ctx.sh(f"bash {run}/run_eval.sh {url}", "logs/run_eval.log", timeout=400)
    got = [row for p in run.glob("results/*/rollouts.jsonl") for row in rows_of(p)]
    if code1 or code2 or len(got) != 24 or not in_log(ctx, "already evaluated", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code1}/{code2}, {len(got)}")
    return (f"RUN/run_eval.sh (results/$(git -C WORK/team-eval-code rev-parse --short HEAD), skipped when present): step_0100 last week (exit "
            f"{code1}), step_0200 this week (exit {code2}) at the same commit, collection "
            f"skipped; {len(got)} rollouts, all step_0100's, mean reward {mean(rewards(got)):.2f}.")


PULL_SCRIPT = """#!/bin/bash
# weekly eval: bash run_eval.sh MODEL_URL; the eval repo is shared with the team, results are committed to it
cd RUN_DIR/eval-repo
git pull -q origin main
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output results/rollouts_materialized_inputs.jsonl
# --resume: a preempted run picks up where it stopped
GP_BIN collect --inputs results/rollouts_materialized_inputs.jsonl --output results/rollouts.jsonl --model-url $1 \\
  --env string_match --concurrency 4 --resume
GP_BIN profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
"""


@case(
    "cache_resume_builtin_git_pull_brings_teammates_committed_rollouts_that_resume_keeps",
    "cache_resume",
    ["results", "git", "--resume"],
    "the team's eval repo tracks the results folder; a teammate committed their results/rollouts.jsonl of step_0100, "
    "the user's run_eval.sh starts with `git pull` and always collects with --resume, so the pull dropped the "
    "teammate's complete rollouts into place, collect found every rollout settled, asked step_0200 nothing and the "
    "profile reported step_0100's rollouts (everything exits 0)",
)
def cache_resume_builtin_git_pull_brings_teammates_committed_rollouts_that_resume_keeps(ctx: Ctx) -> str:
    run = ctx.run
    origin, mate = ctx.work / "origin.git", ctx.work / "teammate"
    data = ctx.dataset("string_match", 8, start=30, name="string_match.jsonl")
    weaker, better = checkpoints(ctx, "string_match", data)
    ctx.sh(f"git init -q --bare -b main {origin} && git clone -q {origin} {mate} && cp {data} {mate}/ && "
           f"cd {mate} && {GIT} add -A && {GIT} commit -qm 'eval set' && git push -q origin main && "
           f"git clone -q --separate-git-dir={ctx.work}/eval-repo.git {origin} {run}/eval-repo", "logs/setup.log")
    old_url, old = ctx.policy(weaker, "--latency-ms 20", log=str(ctx.work / "teammate_server.log"))
    ctx.sh(f"cd {mate} && {GP} materialize --input string_match.jsonl --num-repeats 3 --agent "
           f"string_match_simple_agent --output results/rollouts_materialized_inputs.jsonl && {GP} collect --inputs "
           f"results/rollouts_materialized_inputs.jsonl --output results/rollouts.jsonl --model-url {old_url} --env "
           f"string_match --concurrency 4 && {GIT} add -A && {GIT} commit -qm 'step_0100 results' && git push -q "
           f"origin main", None, timeout=400)
    ctx.note("(a teammate evaluated step_0100 in their clone and pushed results/ to the shared eval repo)")
    ctx.stop(old)
    (run / "run_eval.sh").write_text(slurm_script(PULL_SCRIPT, ctx))
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = ctx.sh(f"bash {run}/run_eval.sh {url}", "logs/run_eval.log", timeout=400)
    served = len(rows_of(run / "eval-repo" / "results" / "rollouts.jsonl")) - 24  # rows added this week
    got = rows_of(run / "eval-repo" / "results" / "rollouts.jsonl")
    if code or len(got) != 24 or served or not in_log(ctx, "24 already done", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, served {served}")
    return (f"RUN/run_eval.sh (`git pull` of the shared eval repo with a teammate's results/, then collect --resume) "
            f"exit {code}; collect found all 24 rollouts settled; {len(got)} rollouts, all step_0100's, mean "
            f"reward {mean(rewards(got)):.2f}.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

SERVE_SCRIPT = """#!/bin/bash
# serve.sh: start the model server, sized by the GPUs of the node (8 sequences per GPU, at least 1)
cd RUN_DIR
GPUS=$(nvidia-smi -L 2>/dev/null | wc -l)
MAX_SEQS=$(( GPUS > 0 ? GPUS * 8 : 1 ))
echo "== serving with $GPUS GPU(s): max $MAX_SEQS sequences at once"
exec GP_BIN serve-policy --port 0 --ready-file READY --checkpoint CHECKPOINT --latency-ms 400 \\
  --max-running $MAX_SEQS --max-waiting 2
"""


@case(
    "throughput_builtin_serve_script_sizes_server_by_gpu_count_probe_that_finds_none",
    "throughput_resources",
    ["serve.sh", "nvidia-smi", "MAX_SEQS"],
    "the user's serve.sh sizes the model server by the GPUs it counts with `nvidia-smi -L`; in this container "
    "nvidia-smi is not installed, the count came out 0 and the fallback MAX_SEQS=1 let the server generate one "
    "sequence at a time with a queue of 2: collect at concurrency 8 met 429 overloaded answers and many rollouts "
    "were given up",
)
def throughput_builtin_serve_script_sizes_server_by_gpu_count_probe_that_finds_none(ctx: Ctx) -> str:
    from recipes import wait_for

    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 12, 74)
    ready = ctx.work / "serve-ready"
    (run / "serve.sh").write_text(slurm_script(SERVE_SCRIPT, ctx, READY=str(ready), CHECKPOINT=str(better)))
    ctx.bg(f"bash {run}/serve.sh", "logs/model_server.log")
    wait_for(lambda: ready.exists() and ready.read_text().strip() != "", 30, "serve.sh")
    url = ready.read_text().strip()
    script = builtin_script(ctx, ["echo '== weekly eval'"], "string_match.jsonl", url, concurrency=8)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=600)
    got = len(unique_keys(run / "rollouts.jsonl"))
    ok = [row for row in rows_of(run / "rollouts.jsonl") if row.get("reward") is not None]
    seen = "".join(text_of(p) for p in run.rglob("*") if p.is_file() and p.suffix in (".log", ".jsonl"))
    if "429" not in seen or not in_log(ctx, "max 1 sequences", "logs/model_server.log"):
        raise failed(ctx, f"exit {code}, {got}, {len(ok)}")
    return (f"RUN/serve.sh (`nvidia-smi -L` absent -> MAX_SEQS=1, --max-waiting 2); RUN/run_eval.sh (concurrency 8) "
            f"exit {code}; {got} rollout keys written.")


PASSK_SETTINGS = """# settings of the pass@k study (copied into the weekly job)
REPEATS=16
CONCURRENCY=2
"""

PASSK_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=1
# weekly eval job: one minute is plenty for the weekly set
cd RUN_DIR
source ./settings.env
echo "weekly eval: $(wc -l < string_match.jsonl) tasks x $REPEATS at concurrency $CONCURRENCY"
GP_BIN materialize --input string_match.jsonl --num-repeats $REPEATS --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency $CONCURRENCY
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "throughput_slurm_one_minute_job_runs_pass_at_k_repeats_from_study_settings",
    "throughput_resources",
    ["settings.env", "REPEATS", "--time"],
    "the weekly eval.sbatch has one minute (--time=1), enough for 3 repeats, but its settings.env was copied from "
    "the pass@k study (REPEATS=16): 12 tasks x 16 at concurrency 2 and ~0.8 s per completion need several minutes, "
    "so Slurm cancelled the job 'DUE TO TIME LIMIT' mid-collect, with part of the rollouts and no profile",
)
def throughput_slurm_one_minute_job_runs_pass_at_k_repeats_from_study_settings(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 12, 40)
    url, _ = ctx.policy(better, "--latency-ms 800")
    (run / "logs").mkdir(exist_ok=True)
    (run / "settings.env").write_text(PASSK_SETTINGS)
    (run / "eval.sbatch").write_text(slurm_script(PASSK_SBATCH, ctx, MODEL_URL=url))
    code = submit_and_wait(ctx, "eval.sbatch", "logs/submit.log")
    logs = job_logs(ctx, "eval_*.log")
    got = len(rows_of(run / "rollouts.jsonl"))
    if got >= 192 or "TIME LIMIT" not in logs or (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {logs[-600:]}")
    return (f"RUN/submit.sh (sbatch of RUN/eval.sbatch: --time=1, settings.env REPEATS=16; 12 tasks at concurrency 2, "
            f"0.8 s per completion) exit {code}; {got} of 192 rollouts.")


if __name__ == "__main__":
    sys.exit(main("thirty_fifth_held_out", __file__, __doc__))
