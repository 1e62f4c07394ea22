"""Build the THIRTY-THIRD HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/thirty_third_held_out.py --out tests/data/diagnosis_corpus/thirty_third_held_out [--only CASE ...]

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
mechanism from those of the thirty-two earlier sets (first_held_out.py ... thirty_second_held_out.py), and each recipe
checks that its fault really happened (it raises RecipeError otherwise, and the case is not written). About half of
the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare),
Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this checkout. Run it from a foreground shell.
"""

from __future__ import annotations

import json
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

FINAL_QUESTIONS = [("What is the capital of Portugal?", "Lisbon"),
                   ("Which planet is known as the Red Planet?", "Mars"),
                   ("Who painted the Mona Lisa?", "Leonardo da Vinci"),
                   ("What is the chemical symbol of gold?", "Au"),
                   ("Which ocean is the largest?", "Pacific"),
                   ("What is the capital of Canada?", "Ottawa")]


def pipeline(url: str, data: str = "string_match.jsonl", repeats: str = "3", concurrency: str = "4",
             gp: str = str(GP)) -> str:
    return (f"{gp} materialize --input {data} --num-repeats {repeats} --agent string_match_simple_agent "
            f"--output rollouts_materialized_inputs.jsonl\n"
            f"{gp} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {url} "
            f"--env string_match --concurrency {concurrency}\n"
            f"{gp} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_builtin_run_script_sources_optional_local_overrides_file_absent",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh sources an optional per-user overrides file (`source ./.env.local || "
    "echo ...`) that this user never created, so the log opens with '.env.local: No such file or directory', but "
    "materialize, collect and profile completed every rollout with the script's defaults",
)
def healthy_builtin_run_script_sources_optional_local_overrides_file_absent(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 50)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["source ./.env.local || echo '(no local overrides)'", "echo '== weekly eval'"],
                            "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code or got != 24 or not in_log(ctx, "No such file", "logs/run_eval.log") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (`source ./.env.local`, absent; materialize 8 x 3, collect, profile) exit {code}; {got} "
            f"rollouts, mean reward {mean(rewards(rows_of(run / 'rollouts.jsonl'))):.2f}.")


@case(
    "healthy_gym_run_script_prints_numa_layout_without_numactl",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh, copied from the GPU cluster's template, first prints the node's NUMA "
    "layout (`numactl --hardware || echo ...`); this node has no numactl, so the log opens with 'numactl: command not "
    "found', but the real NeMo Gym eval then collected, verified and profiled every rollout",
    netns=True,
)
def healthy_gym_run_script_prints_numa_layout_without_numactl(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=30, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["numactl --hardware || echo '(NUMA layout unknown)'", "echo '== weekly eval'"],
                   overrides)
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if code or got != 18 or not in_log(ctx, "numactl: command not found", "logs/run_eval.log") \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (`numactl --hardware` without numactl, "
            f"then `gym eval run --no-serve` 6 tasks x 3, `gym eval profile`) exit {code}, {got} rollouts, mean reward "
            f"{mean(rewards(gym_rows(ctx))):.2f}.")


@case(
    "healthy_taskfolder_run_script_fetches_taskset_version_from_unresolvable_host",
    "healthy",
    [],
    "nothing is wrong: the user's run_tasks.sh first asks the team's taskset server for the newest version (`curl "
    "-fsS http://tasksets.internal.example/... || echo ...`), a host this node cannot resolve, so the log opens with "
    "'curl: (6) Could not resolve host', but the local taskset ran: every episode ran in its Docker sandbox, was "
    "verified and profiled",
)
def healthy_taskfolder_run_script_fetches_taskset_version_from_unresolvable_host(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["create-greeting", "top-word"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, [
        "curl -fsS http://tasksets.internal.example/weekly/VERSION || echo '(taskset version unknown)'", "echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    if code or len(unique_keys(run / "rollouts.jsonl")) != 4 or not any(rewards(got)) \
            or not in_log(ctx, "Could not resolve host", "logs/run_tasks.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/run_tasks.sh (`curl` of an unresolvable host; `gym-pipeline stage` materialize, collect, "
            f"profile of RUN/tasks x 2) exit {code}; rewards {rewards(got)}.")


MAIL_SBATCH = """#!/bin/bash
#SBATCH --job-name=nightly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
cd RUN_DIR
# tell me when it starts (the old cluster had a mail relay)
echo "nightly eval started" | mail -s "nightly eval" $USER || echo "(no start mail)"
echo "nightly eval on $(hostname)"
PIPELINE"""


@case(
    "healthy_slurm_job_mails_start_notice_without_mail_command",
    "healthy",
    [],
    "nothing is wrong: the user's nightly.sbatch mails a start notice (`mail -s ... $USER`); this cluster's nodes have "
    "no mail command, so the job log opens with 'mail: command not found', but materialize, collect and profile "
    "completed every rollout",
)
def healthy_slurm_job_mails_start_notice_without_mail_command(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 58)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "nightly.sbatch").write_text(slurm_script(MAIL_SBATCH, ctx, PIPELINE=pipeline(url)))
    code = submit_and_wait(ctx, "nightly.sbatch", "logs/submit.log")
    logs = job_logs(ctx, "eval_*.log")
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code or got != 24 or "mail: command not found" not in logs \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {logs[-600:]}")
    return (f"RUN/submit.sh (sbatch of RUN/nightly.sbatch: `mail` absent, materialize 8 x 3, collect, profile) exit "
            f"{code}; {got} rollouts, mean reward {mean(rewards(rows_of(run / 'rollouts.jsonl'))):.2f}.")


# =====================================================================================================
# infra
# =====================================================================================================

SELECT_PY = '''"""select.py: pick the eval tasks of a difficulty band from a dataset (python3 select.py DATA LO HI)."""
import json
import sys


def main():
    lo, hi = int(sys.argv[2]), int(sys.argv[3])
    for line in open(sys.argv[1]):
        if lo <= json.loads(line).get("difficulty", 0) <= hi:
            print(line, end="")


if __name__ == "__main__":
    main()
'''

TOOLS_NODE_ENV = """# node settings of the eval nodes: the team's tools importable from every Python program
export PYTHONPATH=RUN_DIR/tools${PYTHONPATH:+:$PYTHONPATH}
export OMP_NUM_THREADS=4
"""


@case(
    "infra_builtin_node_env_pythonpath_tools_folder_shadows_stdlib_select",
    "infra",
    ["node_env.sh", "PYTHONPATH", "select.py"],
    "the eval nodes' node_env.sh puts the team's tools folder first on PYTHONPATH; it holds the user's helper script "
    "select.py (picks tasks by difficulty), whose name is that of the standard library module `select`, so every "
    "Python program on the node imported it instead and asyncio/selectors crashed at start (module 'select' has no "
    "attribute 'select'): no command of the run got going and nothing was collected",
)
def infra_builtin_node_env_pythonpath_tools_folder_shadows_stdlib_select(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 66)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "tools").mkdir()
    (run / "tools" / "select.py").write_text(SELECT_PY)
    (run / "node_env.sh").write_text(slurm_script(TOOLS_NODE_ENV, ctx))
    script = builtin_script(ctx, ["source ./node_env.sh", "echo \"== weekly eval, $(date)\""], "string_match.jsonl",
                            url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got or not in_log(ctx, "has no attribute 'select'", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (sources RUN/node_env.sh: PYTHONPATH=RUN/tools with select.py; materialize, collect, "
            f"profile) exit {code}; {got} rollouts.")


PATH_NODE_ENV = """# node settings of the eval nodes: the shared eval tools first on PATH (installed by the admins)
export PATH=TOOLS_BIN:$PATH
export OMP_NUM_THREADS=4
"""

OLD_LAUNCHER = """#!/sw/eval-tools/venv-2024/bin/python3
# -*- coding: utf-8 -*-
import re
import sys
from gym_pipeline.cli import main
if __name__ == "__main__":
    sys.argv[0] = re.sub(r"(-script\\.pyw|\\.exe)?$", "", sys.argv[0])
    sys.exit(main())
"""


@case(
    "infra_builtin_node_path_puts_shared_tools_launcher_of_removed_venv_first",
    "infra",
    ["node_env.sh", "PATH"],
    "the eval nodes' node_env.sh puts the shared eval-tools bin folder first on PATH; its gym-pipeline launcher is "
    "left from an install whose venv (/sw/eval-tools/venv-2024) was removed, so the run script's `gym-pipeline` "
    "resolved to it and every command failed ('cannot execute: required file not found', its #! interpreter is gone): "
    "nothing was collected",
)
def infra_builtin_node_path_puts_shared_tools_launcher_of_removed_venv_first(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 74)
    url, _ = ctx.policy(better, "--latency-ms 20")
    tools = ctx.work / "sw" / "eval-tools" / "bin"
    tools.mkdir(parents=True)
    (tools / "gym-pipeline").write_text(OLD_LAUNCHER)
    (tools / "gym-pipeline").chmod(0o755)
    ctx.note(f"(the node's shared tools: {ctx._shown(str(tools))}/gym-pipeline, a launcher of a removed venv)")
    (run / "node_env.sh").write_text(PATH_NODE_ENV.replace("TOOLS_BIN", str(tools)))
    script = run / "run_eval.sh"
    script.write_text(f"#!/bin/bash\n# weekly eval\ncd {run}\nsource ./node_env.sh\nwhich gym-pipeline\n"
                      + pipeline(url, gp="gym-pipeline"))
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = len(rows_of(run / "rollouts.jsonl"))
    if Path("/sw/eval-tools").exists() or got or not in_log(ctx, "required file not found", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (sources RUN/node_env.sh: PATH starts with the shared tools, whose gym-pipeline names a "
            f"removed venv) exit {code}; {got} rollouts.")


# =====================================================================================================
# model_serving
# =====================================================================================================

TRACKER_SERVE = """#!/bin/bash
# serve the newest checkpoint of the training run (the trainer keeps its number in the tracker file)
CKPTS=CKPT_DIR
STEP=$(cat $CKPTS/latest_checkpointed_iteration.txt)
CKPT=$CKPTS/step_$(printf %04d $STEP)
echo "serving $CKPT"
exec GP_BIN serve-policy --port 0 --ready-file RUN_DIR/model_url.txt --checkpoint $CKPT --latency-ms 20
"""


@case(
    "model_serving_builtin_serve_script_reads_tracker_file_not_updated_by_trainer",
    "model_serving",
    ["serve.sh", "latest_checkpointed_iteration.txt"],
    "the user's serve.sh serves the checkpoint named in the training run's tracker file "
    "latest_checkpointed_iteration.txt; the trainer wrote step_0200 but the tracker still said 100 (it is only "
    "rewritten at the end of an epoch), so the model server served the older, weaker step_0100 and the eval measured "
    "the wrong checkpoint (everything exits 0)",
)
def model_serving_builtin_serve_script_reads_tracker_file_not_updated_by_trainer(ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 2)
    ckpts = better.parent
    (ckpts / "latest_checkpointed_iteration.txt").write_text("100\n")
    ctx.note(f"(the training run's folder {ctx._shown(str(ckpts))}: step_0100, step_0200, "
             "latest_checkpointed_iteration.txt = 100)")
    serve = run / "serve.sh"
    serve.write_text(slurm_script(TRACKER_SERVE, ctx, CKPT_DIR=str(ckpts)))
    ctx.bg(f"bash {serve}", "logs/model_server.log")
    recipes.wait_for(lambda: text_of(run / "model_url.txt").strip() != "", 30, "serve.sh")
    url = text_of(run / "model_url.txt").strip()
    script = builtin_script(ctx, ["echo \"== weekly eval of the newest checkpoint, $(cat model_url.txt)\""],
                            "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    if code or len(got) != 24 or "step_0100" not in text_of(run / "logs" / "model_server.log"):
        raise failed(ctx, f"exit {code}, {len(got)}")
    return (f"RUN/serve.sh (tracker file says 100: serves step_0100, not step_0200); RUN/run_eval.sh exit {code}; "
            f"{len(got)} rollouts, mean reward {mean(rewards(got)):.2f}.")


SHARED_REPLY_HOOK = '''
import time

# the last reply, kept for the gateway's /debug/last page
LAST_REPLY = {}


def completion(handler, body):
    status, data = handler._upstream(body)
    LAST_REPLY["data"] = data
    time.sleep(0.05)  # give the debug page a chance to read it
    return status, LAST_REPLY["data"]
'''


@case(
    "model_serving_builtin_gateway_returns_reply_kept_in_shared_global_across_threads",
    "model_serving",
    ["gateway.py", "LAST_REPLY"],
    "the team's gateway.py keeps the last reply in a module-level LAST_REPLY (for its debug page) and sends back "
    "LAST_REPLY['data'] instead of its own request's reply; its threads serve the requests at once, so under "
    "collect's concurrency many requests got another request's reply: answers to other questions were graded against "
    "these questions' labels and the reward dropped (everything exits 0)",
)
def model_serving_builtin_gateway_returns_reply_kept_in_shared_global_across_threads(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 10)
    url, _ = ctx.policy(better, "--latency-ms 40")
    gateway = gateway_url(ctx, url, "Keeps the last reply for the debug page (LAST_REPLY).", SHARED_REPLY_HOOK)
    script = builtin_script(ctx, ["echo '== weekly eval, through the gateway'"], "string_match.jsonl", gateway,
                            concurrency=8)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    labels = {row["expected_answer"] for row in got}
    swapped = [row for row in got if row["expected_answer"] not in json.dumps(row["response"])
               and any(label in json.dumps(row["response"]) for label in labels)]
    if code or len(got) != 24 or len(swapped) < 3:
        raise failed(ctx, f"exit {code}, {len(got)}, {len(swapped)} swapped")
    return (f"RUN/gateway.py (replies LAST_REPLY, shared by its threads) in front of the simulated policy; "
            f"RUN/run_eval.sh (concurrency 8) exit {code}; {len(swapped)} of {len(got)} rollouts carry another "
            f"task's answer, mean reward {mean(rewards(got)):.2f}.")


# =====================================================================================================
# config
# =====================================================================================================

SMOKE_SETTINGS = """# eval settings
MODEL_URL=THE_URL
REPEATS=3
# smoke test: 1 = only the first 2 tasks, 0 = the whole dataset
SMOKE_TEST=0
"""

SMOKE_SCRIPT = """#!/bin/bash
# weekly eval
cd RUN_DIR
source ./settings.env
DATA=string_match.jsonl
if [ -n "$SMOKE_TEST" ]; then
  echo "smoke test: first 2 tasks only"
  head -n 2 string_match.jsonl > smoke.jsonl
  DATA=smoke.jsonl
fi
GP_BIN materialize --input $DATA --num-repeats $REPEATS --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $MODEL_URL \\
  --env string_match --concurrency 4
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "config_builtin_smoke_test_switch_zero_is_nonempty_so_smoke_branch_runs",
    "config",
    ["SMOKE_TEST", "run_eval.sh", "-n"],
    "settings.env turns the smoke test off with SMOKE_TEST=0, but run_eval.sh tests the switch with `[ -n "
    "\"$SMOKE_TEST\" ]`, which is true for any non-empty value, '0' included: the full weekly eval ran on the first "
    "2 tasks only (6 rollouts instead of 24, everything exits 0)",
)
def config_builtin_smoke_test_switch_zero_is_nonempty_so_smoke_branch_runs(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 18)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "settings.env").write_text(SMOKE_SETTINGS.replace("THE_URL", url))
    (run / "run_eval.sh").write_text(slurm_script(SMOKE_SCRIPT, ctx))
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code or got != 6 or not in_log(ctx, "smoke test:", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/settings.env SMOKE_TEST=0; RUN/run_eval.sh (`[ -n \"$SMOKE_TEST\" ]` true) exit {code}; {got} of 24 "
            f"rollouts, mean reward {mean(rewards(rows_of(run / 'rollouts.jsonl'))):.2f}.")


@case(
    "config_gym_run_script_split_test_without_spaces_around_equals_always_true",
    "config",
    ["run_eval.sh", "SPLIT"],
    "run_eval.sh picks the dataset with `if [ $SPLIT=\"dev\" ]`, written without spaces around '=': that is a test "
    "of one non-empty word and always true, so the weekly run with SPLIT=test evaluated the dev split "
    "(dev.jsonl) in the real NeMo Gym eval and reported it as the test result (everything exits 0)",
    netns=True,
)
def config_gym_run_script_split_test_without_spaces_around_equals_always_true(ctx: Ctx) -> str:
    run = ctx.run
    dev = ctx.dataset("string_match", 4, start=40, folder=run, name="dev.jsonl")
    test = ctx.dataset("string_match", 6, start=44, folder=run, name="test.jsonl")
    both = ctx.dataset("string_match", 10, start=40, name="both.jsonl")
    better = checkpoints(ctx, "string_match", both)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval: bash run_eval.sh [dev|test]\n"
                      f"cd {run}\nSPLIT=${{1:-test}}\n"
                      "if [ $SPLIT=\"dev\" ]; then DATA=dev.jsonl; else DATA=test.jsonl; fi\n"
                      "echo \"== weekly eval, split $SPLIT\"\n"
                      f"{gym_eval_line(overrides, '$DATA', 'results/rollouts.jsonl', 3, 4)}\n"
                      f"{gym_profile_line('results')}\n")
    code = ctx.sh(f"bash {script} test", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    dev_labels = {row["expected_answer"] for row in rows_of(dev)}
    test_labels = {row["expected_answer"] for row in rows_of(test)}
    seen = {row.get("expected_answer") for row in got}
    if code or len(unique_keys(run / "results" / "rollouts.jsonl")) != 12 or not seen <= dev_labels \
            or seen & (test_labels - dev_labels):
        raise failed(ctx, f"exit {code}, {len(got)}, {seen}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): `bash RUN/run_eval.sh test` (`[ $SPLIT=\"dev\" ]`) exit "
            f"{code}; {len(got)} rollouts of dev.jsonl's 4 tasks, none of test.jsonl's 6.")


DIRNAME_SBATCH = """#!/bin/bash
#SBATCH --job-name=nightly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
# the eval's settings live next to this script
source "$(dirname "$0")/settings.env" || echo "(no settings.env next to $0: defaults)"
DATA=${DATA:-quick_check.jsonl}
REPEATS=${REPEATS:-1}
cd RUN_DIR
echo "nightly eval of $DATA x $REPEATS"
GP_BIN materialize --input $DATA --num-repeats $REPEATS --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 4
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "config_slurm_job_sources_settings_next_to_dollar_zero_which_is_slurms_spool_copy",
    "config",
    ["nightly.sbatch", "dirname", "SLURM_SUBMIT_DIR"],
    "the user's nightly.sbatch reads its settings with `source \"$(dirname \"$0\")/settings.env\"`; under Slurm the "
    "batch script runs from a copy in slurmd's spool folder, so $0 is .../slurm_script and settings.env was not found "
    "there: the job fell back to its defaults and evaluated the 2-task quick_check.jsonl once per task instead of "
    "string_match.jsonl x 3 (the job and every command exit 0)",
)
def config_slurm_job_sources_settings_next_to_dollar_zero_which_is_slurms_spool_copy(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 58)
    ctx.dataset("string_match", 2, start=58, folder=run, name="quick_check.jsonl")
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "settings.env").write_text("# nightly eval settings\nDATA=string_match.jsonl\nREPEATS=3\n")
    (run / "nightly.sbatch").write_text(slurm_script(DIRNAME_SBATCH, ctx, MODEL_URL=url))
    code = submit_and_wait(ctx, "nightly.sbatch", "logs/submit.log")
    logs = job_logs(ctx, "eval_*.log")
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code or got != 2 or "slurm_script" not in logs or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {logs[-600:]}")
    return (f"RUN/submit.sh (sbatch of RUN/nightly.sbatch: `source $(dirname $0)/settings.env` under Slurm, not found) "
            f"exit {code}; {got} rollouts of quick_check.jsonl x 1 instead of 8 tasks x 3.")


# =====================================================================================================
# data_schema
# =====================================================================================================

LABELS_PREP = '''"""prepare_data.py: questions.txt + answers.txt (one per line, from the review tool) -> tasks.jsonl"""
import json

questions = open("questions.txt").readlines()
answers = open("answers.txt").readlines()
with open("tasks.jsonl", "w") as out:
    for question, answer in zip(questions, answers):
        text = question[:-1] + " End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": answer[:-1],  # drop the newline
               "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
print(f"wrote {min(len(questions), len(answers))} tasks")
'''


@case(
    "data_schema_gym_prep_slices_off_newline_of_last_label_that_has_none",
    "data_schema",
    ["prepare_data.py", "[:-1]", "answers.txt"],
    "the user's prepare_data.py drops each line's newline with answer[:-1]; the review tool's answers.txt has no "
    "newline after its last line, so the last task's label lost its last real character ('Ottawa' became 'Ottaw') and "
    "that task scored 0 in the real NeMo Gym eval although the model answered right (everything exits 0)",
    netns=True,
)
def data_schema_gym_prep_slices_off_newline_of_last_label_that_has_none(ctx: Ctx) -> str:
    run = ctx.run
    (run / "questions.txt").write_text("".join(q + "\n" for q, _ in FINAL_QUESTIONS))
    (run / "answers.txt").write_text("\n".join(a for _, a in FINAL_QUESTIONS))  # the export: no final newline
    (run / "prepare_data.py").write_text(LABELS_PREP)
    ctx.sh(f"cd {run} && python3 prepare_data.py", "logs/prepare_data.log")
    truth = write_jsonl(ctx.work / "truth.jsonl", [question_row(q, a) for q, a in FINAL_QUESTIONS])
    better = checkpoints(ctx, "string_match", truth)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["echo '== weekly eval'"], overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    last = [row for row in got if row.get("expected_answer") == "Ottaw"]
    others = [row for row in got if row not in last]
    if code or len(got) != 18 or len(last) != 3 or any(rewards(last)) or not any(rewards(others)):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(last)}, {rewards(others)}")
    return (f"RUN/answers.txt (no final newline) -> RUN/prepare_data.py (answer[:-1]) -> RUN/tasks.jsonl; real NeMo Gym "
            f"0.7.0 (loopback-only namespace) RUN/run_eval.sh exit {code}; label 'Ottaw' rewards {rewards(last)}, the "
            f"others mean reward {mean(rewards(others)):.2f}.")


CAT_PREP = """#!/bin/bash
# this week's eval set = the reviewed rows of both annotators
cd RUN_DIR
cat annotator_a.jsonl annotator_b.jsonl > string_match.jsonl
wc -l string_match.jsonl
"""


@case(
    "data_schema_builtin_dataset_joined_with_cat_from_export_without_final_newline",
    "data_schema",
    ["prepare_data.sh", "annotator_a.jsonl", "cat"],
    "the user's prepare_data.sh joins the two annotators' exports with `cat a.jsonl b.jsonl`; annotator A's export "
    "has no newline after its last row, so that row and the first row of B ended up on one line of "
    "string_match.jsonl, which is no longer JSON Lines: materialize refused the dataset and nothing was collected",
)
def data_schema_builtin_dataset_joined_with_cat_from_export_without_final_newline(ctx: Ctx) -> str:
    run = ctx.run
    both = ctx.dataset("string_match", 8, start=26, name="both.jsonl")
    _, better = checkpoints(ctx, "string_match", both)
    lines = both.read_text().splitlines()
    (run / "annotator_a.jsonl").write_text("\n".join(lines[:4]))
    (run / "annotator_b.jsonl").write_text("\n".join(lines[4:]) + "\n")
    (run / "prepare_data.sh").write_text(slurm_script(CAT_PREP, ctx))
    ctx.sh(f"bash {run}/prepare_data.sh", "logs/prepare_data.log")
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["echo '== weekly eval'"], "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got or len((run / "string_match.jsonl").read_text().splitlines()) != 7:
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/prepare_data.sh (`cat annotator_a.jsonl annotator_b.jsonl`, A without final newline: 7 lines for 8 "
            f"rows); RUN/run_eval.sh exit {code}; {got} rollouts.")


def utf16_instruction(tasks: Path) -> None:
    path = tasks / "top-word" / "instruction.md"
    path.write_bytes(path.read_text().encode("utf-16"))


@case(
    "data_schema_taskfolder_instruction_resaved_as_utf16_by_editor",
    "data_schema",
    ["instruction.md", "utf-8"],
    "top-word's instruction.md was re-saved by the task author's editor as UTF-16 ('Unicode'), with a byte-order mark "
    "and two bytes per character; the task folder is read as UTF-8 text (undecodable bytes replaced), so the prompt "
    "the model got was garbled ('\\ufffd\\ufffdF\\x00i\\x00n\\x00d...'), the model did not recognise the task and "
    "every top-word episode scored 0, while create-greeting was scored normally (everything exits 0)",
)
def data_schema_taskfolder_instruction_resaved_as_utf16_by_editor(ctx: Ctx) -> str:
    tasks = user_taskset(ctx, ["create-greeting", "top-word"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    utf16_instruction(tasks)
    ctx.note("(RUN/tasks/top-word/instruction.md re-saved as UTF-16 by the author's editor)")
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["file tasks/*/instruction.md || true",
                                                          "echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    top = task_rows(ctx, "top-word")
    greet = task_rows(ctx, "create-greeting")
    garbled = [row for row in top if "\\u0000" in json.dumps(row["responses_create_params"])]
    if code or not top or any(rewards(top)) or not any(rewards(greet)) or len(garbled) != len(top):
        raise failed(ctx, f"exit {code}, top {rewards(top)}, greet {rewards(greet)}")
    return (f"RUN/tasks/top-word/instruction.md in UTF-16; RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, "
            f"profile) exit {code}; top-word rewards {rewards(top)}, create-greeting rewards {rewards(greet)}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

IS_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        reward = 0.0
        if extracted is not None and body.expected_answer:
            # case-insensitive exact match
            if extracted.strip().lower() is body.expected_answer.strip().lower():
                reward = 1.0

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


@case(
    "verifier_runtime_gym_verify_compares_strings_with_is_not_equals",
    "verifier_runtime",
    ["app.py", "=="],
    "the user's exact_answers resources server compares the answer with the label using `is` (object identity) "
    "instead of `==`; the two lowercased strings are always distinct objects, so no answer ever matched and every "
    "rollout scored 0 in the real NeMo Gym eval although the model answered right (everything exits 0)",
    netns=True,
)
def verifier_runtime_gym_verify_compares_strings_with_is_not_equals(ctx: Ctx) -> str:
    run = ctx.run
    data = write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in FINAL_QUESTIONS])
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    ran, prof, env_start = gym_eval_with_own_server(ctx, "exact_answers", IS_VERIFY, data, url, overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    right = [row for row in got if str(row.get("extracted_answer") or "").strip().lower()
             == str(row.get("expected_answer")).lower()]
    if ran or prof or len(got) != 18 or len(right) < 6 or any(rewards(got)):
        raise failed(ctx, f"exit {ran}/{prof}, {len(got)}, {len(right)} right, {rewards(got)}")
    return (f"A user's resources server exact_answers (`extracted.lower() is label.lower()`); real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) `gym eval run --no-serve` (6 tasks x 3) exit {ran}, profile exit {prof}; "
            f"{len(right)} right answers, rewards {rewards(got)}.")


FRACTION_TEST = """#!/bin/bash
# Writes the share of passed checks to /logs/verifier/reward.txt.
cd /app
PASSED=0
TOTAL=1
if test "$(cat /app/hello.txt 2>/dev/null)" = "Hello, Gym!"; then
  echo "PASS: greeting"
  PASSED=$((PASSED + 1))
else
  echo "FAIL: greeting"
fi
echo "$PASSED/$TOTAL" > /logs/verifier/reward.txt
"""


@case(
    "verifier_runtime_taskfolder_test_sh_writes_reward_as_passed_over_total_text",
    "verifier_runtime",
    ["test.sh", "reward.txt", "$PASSED/$TOTAL"],
    "create-greeting's tests/test.sh writes the share of passed checks as text, `echo \"$PASSED/$TOTAL\"` ('1/1'), "
    "into reward.txt, which must hold one number; no episode of the task got a reward from it, although the agent's "
    "greeting was right, while the other task was scored normally",
)
def verifier_runtime_taskfolder_test_sh_writes_reward_as_passed_over_total_text(ctx: Ctx) -> str:
    def edit(tasks: Path) -> None:
        (tasks / "create-greeting" / "tests" / "test.sh").write_text(FRACTION_TEST)

    tasks = user_taskset(ctx, ["create-greeting", "sort-unique-words"], edit)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    greet = task_rows(ctx, "create-greeting")
    other = task_rows(ctx, "sort-unique-words")
    if not greet or any(rewards(greet)) or not any(rewards(other)) or "1/1" not in json.dumps(greet) \
            + "".join(text_of(p) for p in ctx.run.rglob("*.txt")):
        raise failed(ctx, f"exit {code}, greeting {rewards(greet)}, other {rewards(other)}")
    return (f"RUN/tasks/create-greeting/tests/test.sh writes '$PASSED/$TOTAL' to reward.txt; RUN/run_tasks.sh exit "
            f"{code}; create-greeting rewards {rewards(greet)}, sort-unique-words rewards {rewards(other)}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

DATED_SCRIPT = """#!/bin/bash
# eval of one checkpoint: bash run_eval.sh MODEL_URL ; results in runs/<date> (resumes an interrupted run)
OUT=RUN_DIR/runs/$(date +%F)
mkdir -p $OUT && cd $OUT
echo "== eval of $1 into $OUT"
[ -f rollouts_materialized_inputs.jsonl ] || GP_BIN materialize --input RUN_DIR/string_match.jsonl --num-repeats 3 \\
  --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $1 \\
  --env string_match --concurrency 4 --resume
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "cache_resume_builtin_run_folder_named_by_date_resumed_by_second_checkpoint_same_day",
    "cache_resume",
    ["run_eval.sh", "date", "--resume"],
    "the user's run_eval.sh names the run folder after the day (runs/$(date +%F)) and always collects with "
    "--resume; the morning's eval of step_0100 and the afternoon's eval of step_0200 landed in the same folder, so "
    "the afternoon's collect found every rollout already settled and collected nothing: its profile is step_0100's "
    "(everything exits 0)",
)
def cache_resume_builtin_run_folder_named_by_date_resumed_by_second_checkpoint_same_day(ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 34)
    (run / "run_eval.sh").write_text(slurm_script(DATED_SCRIPT, ctx))
    old_url, old = ctx.policy(weaker, "--latency-ms 20", log="logs/model_server_step_0100.log")
    code1 = ctx.sh(f"bash {run}/run_eval.sh {old_url}", "logs/run_eval_step_0100.log", timeout=400)
    ctx.stop(old)
    day = next((run / "runs").iterdir())
    first = rows_of(day / "rollouts.jsonl")
    new_url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server_step_0200.log")
    code2 = ctx.sh(f"bash {run}/run_eval.sh {new_url}", "logs/run_eval_step_0200.log", timeout=400)
    after = rows_of(day / "rollouts.jsonl")
    served = text_of(run / "logs" / "model_server_step_0200.log").count("chat/completions")
    if code1 or code2 or len(first) != 24 or len(after) != 24 or rewards(after) != rewards(first) or served:
        raise failed(ctx, f"exit {code1}/{code2}, {len(first)}, {len(after)}, served {served}")
    return (f"RUN/run_eval.sh (runs/$(date +%F), collect --resume) run for step_0100 (exit {code1}) then step_0200 "
            f"(exit {code2}) on the same day; the second collected nothing: {len(after)} rollouts, all step_0100's, "
            f"mean reward {mean(rewards(after)):.2f}.")


@case(
    "cache_resume_gym_full_run_resumed_onto_smoke_tests_one_repeat_inputs",
    "cache_resume",
    ["--resume", "rollouts_materialized_inputs.jsonl", "--num-repeats"],
    "the user smoke-tested the eval with --num-repeats 1 into results/, then started the full run with --num-repeats "
    "3 and --resume into the same folder; Gym's --resume reuses the existing rollouts_materialized_inputs.jsonl (one "
    "repeat per task) and found every pair done, so the 'full' run collected nothing and its profile rests on one "
    "rollout per task instead of three (everything exits 0)",
    netns=True,
)
def cache_resume_gym_full_run_resumed_onto_smoke_tests_one_repeat_inputs(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=52, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    smoke = ctx.sh(f"cd {run} && {gym_eval_line(overrides, 'tasks.jsonl', 'results/rollouts.jsonl', 1, 4)}",
                   "logs/smoke_test.log", timeout=400)
    full = ctx.sh(f"cd {run} && {gym_eval_line(overrides, 'tasks.jsonl', 'results/rollouts.jsonl', 3, 4)} --resume",
                  "logs/full_run.log", timeout=400)
    prof = ctx.sh(f"cd {run} && {gym_profile_line('results')}", "logs/profile.log", timeout=300)
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if smoke or full or prof or got != 6:
        raise failed(ctx, f"exit {smoke}/{full}/{prof}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve --num-repeats 1` (smoke, exit "
            f"{smoke}), then `--num-repeats 3 --resume` into the same results/ (exit {full}), `gym eval profile` "
            f"(exit {prof}); {got} rollouts for 6 tasks x 3 intended.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================


@case(
    "throughput_builtin_collect_under_file_size_limit_from_login_profile",
    "throughput_resources",
    ["ulimit", "-f"],
    "the shell the run was started from has a file-size limit from the login nodes' profile (`ulimit -f 16`, 16 KB); "
    "collect's rollouts.jsonl grew past it, the kernel refused the next write ('OSError: [Errno 27] File too large') "
    "and collect crashed with the file cut mid-row at 16384 bytes: only a few of the 24 rollouts were kept, the last "
    "one truncated, and profile refused the file",
)
def throughput_builtin_collect_under_file_size_limit_from_login_profile(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 42)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "login_profile.sh").write_text("# login nodes: keep runaway output files small\nulimit -f 16\n")
    script = builtin_script(ctx, ["source ./login_profile.sh", "ulimit -a | grep -i 'file size'",
                                  "echo '== weekly eval'"], "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = text_of(run / "rollouts.jsonl").count("\n")
    if got >= 24 or not in_log(ctx, "File too large", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (sources RUN/login_profile.sh: ulimit -f 16; materialize 8 x 3, collect, profile) exit "
            f"{code}; {got} of 24 rollout lines ({(run / 'rollouts.jsonl').stat().st_size if (run / 'rollouts.jsonl').exists() else 0} bytes).")


TIME_SBATCH = """#!/bin/bash
#SBATCH --job-name=monthly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=1
cd RUN_DIR
echo "monthly eval on $(hostname): $(wc -l < string_match.jsonl) tasks x 4"
PIPELINE"""


@case(
    "throughput_slurm_job_time_limit_sized_for_weekly_set_runs_monthly_set",
    "throughput_resources",
    ["--time", "monthly.sbatch"],
    "the user's monthly.sbatch keeps the weekly job's one-minute time limit (#SBATCH --time=1), but the monthly "
    "set is six times larger (48 tasks x 4 at concurrency 2); collect needed well over a minute, Slurm cancelled the "
    "job 'DUE TO TIME LIMIT' mid-collect, and only part of the rollouts was written, no profile",
)
def throughput_slurm_job_time_limit_sized_for_weekly_set_runs_monthly_set(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 48, 0)
    url, _ = ctx.policy(better, "--latency-ms 800")
    (run / "logs").mkdir(exist_ok=True)
    (run / "monthly.sbatch").write_text(slurm_script(TIME_SBATCH, ctx,
                                                     PIPELINE=pipeline(url, repeats="4", concurrency="2")))
    code = submit_and_wait(ctx, "monthly.sbatch", "logs/submit.log")
    logs = job_logs(ctx, "eval_*.log")
    got = len(rows_of(run / "rollouts.jsonl"))
    if got >= 192 or "TIME LIMIT" not in logs or (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {logs[-600:]}")
    return (f"RUN/submit.sh (sbatch of RUN/monthly.sbatch: --time=1, 48 tasks x 4 at concurrency 2, latency 0.8 s) exit "
            f"{code}; {got} of 192 rollouts, the job cancelled at its time limit.")


if __name__ == "__main__":
    sys.exit(main("thirty_third_held_out", __file__, __doc__))
