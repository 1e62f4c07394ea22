"""Build the THIRTY-SEVENTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/thirty_seventh_held_out.py --out tests/data/diagnosis_corpus/thirty_seventh_held_out [--only CASE ...]

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
those of the thirty-six earlier sets (first_held_out.py ... thirty_sixth_held_out.py), and each recipe checks that
its fault really happened (it raises RecipeError otherwise, and the case is not written). About half of the failures
are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare),
Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this checkout. Run it from a foreground shell.
"""

from __future__ import annotations

import random
import re
import shutil
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
from thirty_sixth_held_out import fix_labels  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_fifth_held_out import job_logs, task_rows  # noqa: E402
from twenty_fourth_held_out import gym_eval_line, gym_profile_line  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_seventh_held_out import (  # noqa: E402
    builtin_script,
    gym_eval_with_own_server,
    submit_and_wait,
)
from twenty_sixth_held_out import free_port, gym_run, slurm_script  # noqa: E402
from twenty_third_held_out import taskset_script, write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()

BALANCES = [("A wallet holds 12 euros and 20 are spent. What is the balance in euros?", "-8"),
            ("What is 14 plus 27?", "41"),
            ("A thermometer shows 5 degrees and drops by 9. What does the thermometer show now?", "-4"),
            ("What is 6 times 8?", "48"),
            ("An account holds 30 dollars and 75 are withdrawn. What is the balance in dollars?", "-45"),
            ("What is 90 minus 35?", "55"),
            ("A lift is on floor 2 and goes down 5 floors. Which floor is the lift on now?", "-3"),
            ("What is 9 plus 16?", "25")]

SIGNED = [("What is 3 minus 8?", "-5"), ("What is 7 times 6?", "42"), ("What is -4 times 3?", "-12"),
          ("What is 100 divided by 4?", "25"), ("What is 10 minus 25?", "-15"), ("What is 9 squared?", "81")]

MIXED = [("What is 3 minus 8?", "-5"), ("What is 7 times 6?", "42"), ("What is 1 divided by 4, as a decimal number?",
                                                                     "0.25"),
         ("What is 100 divided by 4?", "25"), ("What is 10 minus 25?", "-15"),
         ("What is 3 divided by 4, as a decimal number?", "0.75"), ("What is 9 squared?", "81")]

YES_NO = [("Is 7 a prime number? Answer yes or no.", "yes"), ("What is 6 times 7?", "42"),
          ("Is 21 a prime number? Answer yes or no.", "no"), ("What is 15 minus 9?", "6"),
          ("Is 12 an even number? Answer yes or no.", "yes"), ("What is 8 plus 5?", "13"),
          ("Is 15 divisible by 4? Answer yes or no.", "no"), ("What is 11 times 3?", "33")]


def wait_jobs_gone(ctx: Ctx, log: str, timeout_s: float = 300) -> list[str]:
    """The job ids sbatch printed in RUN/LOG, waited for until they left the queue (as a user watching squeue)."""
    ids = re.findall(r"Submitted batch job (\d+)", text_of(ctx.run / log))
    ctx.note(f"(waited for job(s) {' '.join(ids) or '-'} to leave the queue: squeue -j ...)")
    for job in ids:
        recipes.wait_for(lambda job=job: not subprocess.run(["squeue", "-h", "-j", job], capture_output=True, text=True,
                                                            env=ctx.env).stdout.strip(), timeout_s, f"job {job}", 2)
    return ids


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_builtin_run_script_prints_gpu_state_with_rocm_smi_not_installed",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh, shared with the team's AMD cluster, first prints the GPU state with "
    "`rocm-smi || echo ...`; rocm-smi is not installed on this eval node, so the log opens with 'rocm-smi: command not "
    "found', but materialize, collect and profile completed every rollout",
)
def healthy_builtin_run_script_prints_gpu_state_with_rocm_smi_not_installed(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 2)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["rocm-smi --showuse || echo '(no ROCm tools on this node)'",
                                  "echo '== weekly eval'"], "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code or got != 24 or not in_log(ctx, "command not found", "logs/run_eval.log") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (`rocm-smi` not installed; materialize 8 x 3, collect, profile) exit {code}; {got} "
            f"rollouts, mean reward {mean_reward(run / 'rollouts.jsonl')}.")


@case(
    "healthy_gym_run_script_checks_infiniband_links_with_ibstat_not_installed",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh, copied from the multi-node training scripts, first checks the "
    "InfiniBand links (`ibstat || echo ...`); the eval node has no InfiniBand tools, so the log opens with 'ibstat: "
    "command not found', but the real NeMo Gym eval then collected, verified and profiled every rollout",
    netns=True,
)
def healthy_gym_run_script_checks_infiniband_links_with_ibstat_not_installed(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=14, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["ibstat || echo '(InfiniBand not checked)'", "echo '== weekly eval'"],
                   overrides)
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if code or got != 18 or not in_log(ctx, "command not found", "logs/run_eval.log") \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (`ibstat` not installed, then `gym eval "
            f"run --no-serve` 6 tasks x 3, `gym eval profile`) exit {code}, {got} rollouts, mean reward "
            f"{mean(rewards(gym_rows(ctx))):.2f}.")


@case(
    "healthy_taskfolder_run_script_lints_dockerfiles_with_hadolint_not_installed",
    "healthy",
    [],
    "nothing is wrong: the user's run_tasks.sh first lints the task Dockerfiles (`hadolint tasks/*/environment/"
    "Dockerfile || echo ...`), a habit from the CI; hadolint is not installed on this host, so the log opens with "
    "'hadolint: command not found', but every episode ran in its Docker sandbox, was verified and profiled",
)
def healthy_taskfolder_run_script_lints_dockerfiles_with_hadolint_not_installed(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["json-version", "count-error-lines"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, [
        "hadolint tasks/*/environment/Dockerfile || echo '(Dockerfiles not linted)'", "echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    if code or len(unique_keys(run / "rollouts.jsonl")) != 4 or not any(rewards(got)) \
            or not in_log(ctx, "command not found", "logs/run_tasks.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/run_tasks.sh (`hadolint` not installed; `gym-pipeline stage` materialize, collect, profile of "
            f"RUN/tasks x 2) exit {code}; rewards {rewards(got)}.")


SEFF_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
cd RUN_DIR
echo "weekly eval on $(hostname)"
PIPELINE
# how much of the allocation did we use? (the big cluster has seff)
seff $SLURM_JOB_ID || echo "(no job efficiency report here)"
"""


@case(
    "healthy_slurm_job_reports_its_efficiency_with_seff_not_installed",
    "healthy",
    [],
    "nothing is wrong: the user's eval.sbatch ends by printing the job's efficiency with `seff $SLURM_JOB_ID`, a tool "
    "of the big cluster that this cluster does not have, so the job log ends with 'seff: command not found'; "
    "materialize, collect and profile had completed every rollout before it",
)
def healthy_slurm_job_reports_its_efficiency_with_seff_not_installed(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 22)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(SEFF_SBATCH, ctx, PIPELINE=pipeline(url)))
    code = submit_and_wait(ctx, "eval.sbatch", "logs/submit.log")
    logs = job_logs(ctx, "eval_*.log")
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code or got != 24 or "seff" not in logs or "not found" not in logs \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {logs[-600:]}")
    return (f"RUN/submit.sh (sbatch of RUN/eval.sbatch: materialize 8 x 3, collect, profile, then `seff` not "
            f"installed) exit {code}; {got} rollouts, mean reward {mean_reward(run / 'rollouts.jsonl')}.")


# =====================================================================================================
# infra
# =====================================================================================================

def policy_at(ctx: Ctx, checkpoint: Path, host: str, port: int, log: str) -> str:
    """The simulated policy serving `checkpoint` at host:port (a fixed address, as on a GPU node)."""
    ready = ctx.work / f"policy-ready-{host}"
    ctx.bg(f"{recipes.GP} serve-policy --host {host} --port {port} --ready-file {ready} --checkpoint {checkpoint} "
           "--latency-ms 20", log)
    recipes.wait_for(lambda: ready.exists() and ready.read_text().strip() != "", 30, f"the policy at {host}")
    return ready.read_text().strip()


HOSTS = """127.0.0.1\tlocalhost
::1\tlocalhost ip6-localhost ip6-loopback
# pinned during the March DNS outage (ticket OPS-2291): the policy servers' addresses
127.0.0.9\tpolicy-a100
"""


@case(
    "infra_builtin_static_hosts_entry_sends_model_hostname_to_old_node_still_serving",
    "infra",
    ["/etc/hosts", "policy-a100"],
    "the eval node's /etc/hosts still pins policy-a100 to the address of the old GPU node (an entry added during a DNS "
    "outage); the model server moved and now serves the new checkpoint step_0200, but the old node still runs last "
    "month's server of step_0100 at the same port, so the user's collect against http://policy-a100:PORT reached the "
    "old server: every command exits 0 and the reward is step_0100's",
    netns=True,
)
def infra_builtin_static_hosts_entry_sends_model_hostname_to_old_node_still_serving(ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 30)
    port = free_port()
    ctx.note("(the old GPU node, 127.0.0.9, still serves last month's checkpoint step_0100 at the same port)")
    policy_at(ctx, weaker, "127.0.0.9", port, str(ctx.work / "old_node_server.log"))
    policy_at(ctx, better, "127.0.0.1", port, "logs/model_server.log")
    hosts = ctx.work / "hosts"
    hosts.write_text(HOSTS)
    subprocess.run(["mount", "--bind", str(hosts), "/etc/hosts"], check=True)
    ctx.note("(this node's /etc/hosts: `127.0.0.9 policy-a100`, pinned during the March DNS outage; the DNS name now "
             "points at the new server, 127.0.0.1)")
    url = f"http://policy-a100:{port}/v1"
    script = builtin_script(ctx, ["echo \"== weekly eval of step_0200 at $(getent hosts policy-a100)\""],
                            "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    old = text_of(ctx.work / "old_node_server.log")
    if code or len(got) != 24 or not in_log(ctx, "127.0.0.9", "logs/run_eval.log") \
            or "step 100" not in old or mean(rewards(got)) > 0.6:
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}: {old[-400:]}")
    return (f"RUN/run_eval.sh (collect against http://policy-a100:{port}/v1; /etc/hosts pins policy-a100 to the old "
            f"node serving step_0100) exit {code}; {len(got)} rollouts, mean reward {mean(rewards(got)):.2f}.")


SKEW_MAKEFILE = """# weekly eval: `make profile MODEL_URL=...`; make rebuilds what is out of date
GP := GP_BIN

rollouts_materialized_inputs.jsonl: string_match.jsonl
\t$(GP) materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
\t  --output rollouts_materialized_inputs.jsonl

rollouts.jsonl: rollouts_materialized_inputs.jsonl
\t$(GP) collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $(MODEL_URL) \\
\t  --env string_match --concurrency 4

profile: rollouts.jsonl
\t$(GP) profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
.PHONY: profile
"""


@case(
    "infra_builtin_eval_files_stamped_by_node_clock_two_days_ahead_make_skips_recollect",
    "infra",
    ["clock", "modification time"],
    "last week's `make profile` ran on eval node gpu-b, whose clock was two days ahead, so its materialized inputs and "
    "rollouts carry modification times in the future; after three wrong labels were corrected in string_match.jsonl "
    "today, make found every target newer than the dataset ('modification time ... in the future', 'Clock skew "
    "detected'), re-ran nothing and profiled last week's rollouts graded against the old labels (everything exits 0)",
)
def infra_builtin_eval_files_stamped_by_node_clock_two_days_ahead_make_skips_recollect(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 40)
    good = data.read_text()
    fix_labels(data, {1: "Lilliput", 4: "Avalon", 6: "Utopia"})
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "Makefile").write_text(slurm_script(SKEW_MAKEFILE, ctx))
    code1 = ctx.sh(f"cd {run} && make profile MODEL_URL={url}", "logs/make_last_week_on_gpu-b.log", timeout=400)
    before = rows_of(run / "rollouts.jsonl")
    ctx.note("(node gpu-b's clock ran two days ahead: the files it wrote carry its time, as with `touch -d '+2 days'`)")
    subprocess.run(["touch", "-d", "+2 days", *[str(run / n) for n in ("rollouts_materialized_inputs.jsonl",
                                                                       "rollouts.jsonl",
                                                                       "rollouts_reward_profiling.jsonl")]],
                   check=True)
    data.write_text(good)
    ctx.note("(three wrong labels of RUN/string_match.jsonl corrected by the labelling team today)")
    code2 = ctx.sh(f"cd {run} && make profile MODEL_URL={url}", "logs/make.log", timeout=400)
    after = rows_of(run / "rollouts.jsonl")
    stale = [row for row in after if row.get("expected_answer") in ("Lilliput", "Avalon", "Utopia")]
    make_log = text_of(run / "logs" / "make.log")
    if code1 or code2 or before != after or not stale or " collect " in make_log or "future" not in make_log:
        raise failed(ctx, f"exit {code1}/{code2}, stale {len(stale)}: {make_log[-600:]}")
    return (f"RUN/Makefile; `make profile` last week on gpu-b (exit {code1}, files stamped two days ahead), labels "
            f"corrected, `make profile` today (exit {code2}): nothing rebuilt ('in the future'); {len(stale)} rollouts "
            f"still graded against the old labels, mean reward {mean(rewards(after)):.2f}.")


# =====================================================================================================
# model_serving
# =====================================================================================================

TRIM_HOOK = '''
MAX_PROMPT_CHARS = 100  # context guard of the small chat model this gateway was first set up for


def _trim(text):
    return text[-MAX_PROMPT_CHARS:]  # keep the end of the conversation, as chat UIs do


def completion(handler, body):
    request = json.loads(body)
    for message in request.get("messages", []):
        content = message.get("content")
        if isinstance(content, str):
            message["content"] = _trim(content)
        elif isinstance(content, list):
            for part in content:
                if isinstance(part, dict) and isinstance(part.get("text"), str):
                    part["text"] = _trim(part["text"])
    return handler._upstream(json.dumps(request).encode())
'''


@case(
    "model_serving_gym_gateway_context_guard_cuts_long_prompts_from_the_front",
    "model_serving",
    ["gateway.py", "MAX_PROMPT_CHARS"],
    "the team's gateway.py keeps only the last 100 characters of every message (MAX_PROMPT_CHARS, a context guard "
    "from the small chat model it was set up for); the word problems of the eval are longer, so the model received "
    "them with their beginning cut off and answered the wrong question: every long task scored 0 in the real NeMo Gym "
    "eval while the short ones scored normally (everything exits 0)",
    netns=True,
)
def model_serving_gym_gateway_context_guard_cuts_long_prompts_from_the_front(ctx: Ctx) -> str:
    run = ctx.run
    rows = [question_row(q, a) for q, a in BALANCES]
    data = write_jsonl(run / "tasks.jsonl", rows)
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    gateway = gateway_url(ctx, url, "Context guard: messages are cut to their last MAX_PROMPT_CHARS characters.",
                          TRIM_HOOK)
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(gateway)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["echo '== weekly eval, through the gateway'"], overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    long_labels = {a for q, a in BALANCES if len(question_row(q, a)["responses_create_params"]["input"][0]["content"][0]
                                                 ["text"]) > 100}
    long = [row for row in got if str(row.get("expected_answer")) in long_labels]
    short = [row for row in got if row not in long]
    if code or len(got) != 24 or not long or any(rewards(long)) or not any(rewards(short)):
        raise failed(ctx, f"exit {code}, {len(got)}, long {rewards(long)}, short {rewards(short)}")
    return (f"RUN/gateway.py (messages cut to their last 100 characters) in front of the simulated policy; real NeMo "
            f"Gym 0.7.0 (loopback-only namespace) RUN/run_eval.sh exit {code}; long-prompt rewards {rewards(long)}, "
            f"short-prompt rewards {rewards(short)}.")


SERVE_SCRIPT = """#!/bin/bash
# serve the newest checkpoint of the experiment for the weekly eval
CKPT_DIR=CKPT_ROOT/exp-0311-baseline
STEP=$(ls $CKPT_DIR | sort | tail -1)
echo "serving $CKPT_DIR/$STEP"
exec GP_BIN serve-policy --checkpoint $CKPT_DIR/$STEP --port 0 --ready-file RUN_DIR/model_url.txt --latency-ms 20
"""


@case(
    "model_serving_builtin_serve_script_still_points_at_last_months_experiment_folder",
    "model_serving",
    ["serve.sh", "CKPT_DIR"],
    "the user's serve.sh serves the newest checkpoint of CKPT_DIR, which still names last month's experiment "
    "(exp-0311-baseline) instead of this month's RL run (exp-0402-rl); the server loaded the baseline's step 100 "
    "('checkpoint step 100' in its log) and the weekly eval of exp-0402-rl reported the baseline's reward (everything "
    "exits 0)",
)
def model_serving_builtin_serve_script_still_points_at_last_months_experiment_folder(ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 48)
    root = ctx.work / "ckpts"
    shutil.copytree(weaker, root / "exp-0311-baseline" / weaker.name)
    shutil.copytree(better, root / "exp-0402-rl" / better.name)
    (run / "serve.sh").write_text(slurm_script(SERVE_SCRIPT, ctx, CKPT_ROOT=str(root)))
    ctx.bg(f"bash {run}/serve.sh", "logs/model_server.log")
    recipes.wait_for(lambda: text_of(run / "model_url.txt").strip() != "", 30, "serve.sh")
    url = text_of(run / "model_url.txt").strip()
    script = builtin_script(ctx, ["echo '== weekly eval of exp-0402-rl (newest checkpoint)'"], "string_match.jsonl",
                            url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    served = text_of(run / "logs" / "model_server.log")
    if code or len(got) != 24 or "exp-0311-baseline" not in served or "step 100" not in served:
        raise failed(ctx, f"exit {code}, {len(got)}: {served[-500:]}")
    return (f"RUN/serve.sh (CKPT_DIR = last month's experiment: its step_0100 served) ; RUN/run_eval.sh exit {code}; "
            f"{len(got)} rollouts, mean reward {mean(rewards(got)):.2f}.")


# =====================================================================================================
# config
# =====================================================================================================

READ_SCRIPT = """#!/bin/bash
# weekly eval; strict mode like all our scripts
set -euo pipefail
cd RUN_DIR
read -r MODEL_URL < model_url.txt   # written by the serve script
echo "== weekly eval against $MODEL_URL"
PIPELINE"""


@case(
    "config_builtin_strict_run_script_stops_at_read_of_url_file_without_final_newline",
    "config",
    ["run_eval.sh", "read", "model_url.txt"],
    "run_eval.sh runs with `set -e` and takes the model URL with `read -r MODEL_URL < model_url.txt`; the serve "
    "script writes that file with printf and no final newline, so `read` reached end of file, returned 1 (though it "
    "had set the variable) and `set -e` ended the script right there, silently, with exit 1: nothing was "
    "materialized or collected",
)
def config_builtin_strict_run_script_stops_at_read_of_url_file_without_final_newline(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 56)
    url, _ = ctx.policy(better, "--latency-ms 20")
    ctx.sh(f"printf '%s' {url} > {run}/model_url.txt", "logs/serve_helper.log")
    (run / "run_eval.sh").write_text(slurm_script(READ_SCRIPT, ctx, PIPELINE=pipeline(url="$MODEL_URL")))
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=400)
    log = text_of(run / "logs" / "run_eval.log")
    if code == 0 or (run / "rollouts.jsonl").exists() or (run / "rollouts_materialized_inputs.jsonl").exists() \
            or "weekly eval" in log:
        raise failed(ctx, f"exit {code}: {log[-500:]}")
    return (f"RUN/run_eval.sh (set -e; `read` of RUN/model_url.txt, which has no final newline) exit {code} with "
            f"{len(log)} bytes of output; nothing materialized or collected.")


@case(
    "config_gym_run_script_recomputes_dated_output_folder_after_the_minute_turned",
    "config",
    ["run_eval.sh", "date"],
    "run_eval.sh writes the eval into results/$(date +%Y%m%d-%H%M)/ and computes that folder name again, with a new "
    "`date`, on the `gym eval profile` line; the eval ran past the turn of the minute, so the profile looked into a "
    "folder that does not exist and failed, while the rollouts sit in the previous minute's folder",
    netns=True,
)
def config_gym_run_script_recomputes_dated_output_folder_after_the_minute_turned(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=64, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 1500", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    stamp = "$(date +%Y%m%d-%H%M)"
    script = run / "run_eval.sh"
    script.write_text(f"#!/bin/bash\n# weekly eval, one dated folder per run\ncd {run}\nmkdir -p results/{stamp}\n"
                      f"{gym_eval_line(overrides, 'tasks.jsonl', f'results/{stamp}/rollouts.jsonl', 3, 4)}\n"
                      f"{gym_profile_line(f'results/{stamp}')}\n")
    while time.localtime().tm_sec < 52 or time.localtime().tm_sec > 55:
        time.sleep(0.5)
    ctx.note(f"(started at {time.strftime('%H:%M:%S')})")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    folders = sorted(p for p in (run / "results").iterdir() if p.is_dir())
    got = [row for folder in folders for row in rows_of(folder / "rollouts.jsonl")]
    profiled = list((run / "results").rglob("rollouts_reward_profiling.jsonl"))
    if code == 0 or len(got) != 24 or profiled:
        raise failed(ctx, f"exit {code}, {len(got)}, {folders}, {profiled}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace) RUN/run_eval.sh (output folder from `date +%H%M`, "
            f"recomputed for the profile) exit {code}; {len(got)} rollouts in {folders[0].name}, no profile.")


COLLECT_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-collect
#SBATCH --output=RUN_DIR/logs/collect_%j.log
#SBATCH --time=10
cd RUN_DIR
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 4
"""

PROFILE_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-profile
#SBATCH --output=RUN_DIR/logs/profile_%j.log
#SBATCH --time=10
cd RUN_DIR
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""

CHAIN_SUBMIT = """#!/bin/bash
# collect, then profile once the collect job succeeded
cd RUN_DIR
JOB=$(sbatch collect.sbatch)
echo "collect: $JOB"
sbatch --dependency=afterok:$JOB profile.sbatch
echo "== submitted"
"""


@case(
    "config_slurm_dependent_profile_job_given_sbatch_sentence_instead_of_job_id",
    "config",
    ["submit.sh", "--parsable"],
    "submit.sh chains the profile job on the collect job with `JOB=$(sbatch collect.sbatch)` and "
    "`--dependency=afterok:$JOB`; without --parsable sbatch prints 'Submitted batch job N', so the dependency given "
    "was 'afterok:Submitted batch job N' and sbatch refused the profile job: the collect job ran, nothing was profiled",
)
def config_slurm_dependent_profile_job_given_sbatch_sentence_instead_of_job_id(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 72)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    for name, text in (("collect.sbatch", COLLECT_SBATCH), ("profile.sbatch", PROFILE_SBATCH),
                       ("submit.sh", CHAIN_SUBMIT)):
        (run / name).write_text(slurm_script(text, ctx, MODEL_URL=url))
    code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=60)
    ids = wait_jobs_gone(ctx, "logs/submit.log")
    got = len(unique_keys(run / "rollouts.jsonl"))
    submit = text_of(run / "logs" / "submit.log")
    if len(ids) != 1 or got != 24 or (run / "rollouts_reward_profiling.jsonl").exists() or "error" not in submit:
        raise failed(ctx, f"exit {code}, {ids}, {got}: {submit[-500:]}")
    return (f"RUN/submit.sh (`--dependency=afterok:$JOB` with JOB='Submitted batch job {ids[0]}') exit {code}; the "
            f"collect job wrote {got} rollouts; the profile job was refused, nothing profiled.")


HEREDOC_SUBMIT = """#!/bin/bash
# weekly eval: record this run's settings next to its results, then submit the job that reads them
cd RUN_DIR
URL=$(cat model_url.txt)
cat > settings.env <<'EOF'
MODEL_URL=$URL
CONCURRENCY=4
EOF
cat settings.env
sbatch --wait eval.sbatch
"""

HEREDOC_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
cd RUN_DIR
source settings.env
echo "weekly eval on $(hostname) against '$MODEL_URL'"
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url "$MODEL_URL" \\
  --env string_match --concurrency $CONCURRENCY
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "config_slurm_settings_file_written_with_quoted_heredoc_keeps_model_url_unexpanded",
    "config",
    ["submit.sh", "settings.env", "EOF"],
    "submit.sh writes settings.env with a quoted here-document (`<<'EOF'`), so the line is written literally as "
    "`MODEL_URL=$URL` instead of the URL; the batch job sources settings.env in a shell where URL was never set (it "
    "was not exported), so MODEL_URL came out empty and collect was started with --model-url '': the job failed "
    "after materialize and nothing was collected",
)
def config_slurm_settings_file_written_with_quoted_heredoc_keeps_model_url_unexpanded(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 26)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "model_url.txt").write_text(url + "\n")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(HEREDOC_SBATCH, ctx))
    (run / "submit.sh").write_text(slurm_script(HEREDOC_SUBMIT, ctx))
    env = {key: value for key, value in ctx.env.items() if key != "URL"}
    code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=300, env=env)
    logs = job_logs(ctx, "eval_*.log")
    if "MODEL_URL=$URL" not in text_of(run / "settings.env") or (run / "rollouts.jsonl").exists() \
            or "against ''" not in logs or not (run / "rollouts_materialized_inputs.jsonl").exists():
        raise failed(ctx, f"exit {code}: {logs[-600:]}")
    return (f"RUN/submit.sh (settings.env written with <<'EOF': `MODEL_URL=$URL` kept literally; sbatch --wait of "
            f"RUN/eval.sbatch, which sources it) exit {code}; materialize ran, collect got an empty --model-url, "
            f"nothing collected.")


# =====================================================================================================
# data_schema
# =====================================================================================================

YAML_PREP = '''"""prepare_data.py: the team's question sheet (questions.yaml) -> string_match.jsonl"""
import json

import yaml

with open("questions.yaml") as f:
    items = yaml.safe_load(f)
with open("string_match.jsonl", "w") as out:
    for item in items:
        text = f"{item['question']} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": str(item["answer"]), "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
print(f"{len(items)} questions written")
'''


@case(
    "data_schema_builtin_yes_no_answers_in_yaml_sheet_loaded_as_booleans",
    "data_schema",
    ["questions.yaml", "yes"],
    "the question sheet questions.yaml gives the yes/no answers unquoted (`answer: yes`), which YAML reads as the "
    "booleans true and false; prepare_data.py wrote them with str() as the labels 'True' and 'False', so the model's "
    "correct 'yes' and 'no' never matched and every yes/no task scored 0 while the numeric ones scored normally "
    "(everything exits 0)",
)
def data_schema_builtin_yes_no_answers_in_yaml_sheet_loaded_as_booleans(ctx: Ctx) -> str:
    run = ctx.run
    (run / "questions.yaml").write_text("# weekly eval questions (edit here, prepare_data.py makes the JSONL)\n" + "".join(
        f"- question: {q}\n  answer: {a}\n" for q, a in YES_NO))
    (run / "prepare_data.py").write_text(YAML_PREP)
    truth = write_jsonl(ctx.work / "truth.jsonl", [question_row(q, a) for q, a in YES_NO])
    better = checkpoints(ctx, "string_match", truth)[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["echo '== weekly eval'", "python3 prepare_data.py"], "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    boolean = [row for row in got if str(row.get("expected_answer")) in ("True", "False")]
    numeric = [row for row in got if row not in boolean]
    if code or len(got) != 24 or not boolean or any(rewards(boolean)) or not any(rewards(numeric)):
        raise failed(ctx, f"exit {code}, {len(got)}, yes/no {rewards(boolean)}, numeric {rewards(numeric)}")
    return (f"RUN/questions.yaml (answers `yes`/`no` unquoted) -> RUN/prepare_data.py (labels 'True'/'False'); "
            f"RUN/run_eval.sh exit {code}; yes/no rewards {rewards(boolean)}, numeric rewards {rewards(numeric)}.")


def typeset(answer: str) -> str:
    """How the typeset answer key writes a negative number: with the minus sign U+2212."""
    return "\u2212" + answer[1:] if answer.startswith("-") else answer


@case(
    "data_schema_gym_negative_labels_copied_from_typeset_key_with_unicode_minus_sign",
    "data_schema",
    ["labels.csv", "minus"],
    "the answers of labels.csv were copied from the typeset answer key (a PDF), whose negative numbers use the "
    "minus sign U+2212 instead of the ASCII hyphen-minus; prepare_data.py kept them as they were, so the model's "
    "correct answers like -5 never matched and every task with a negative answer scored 0 in the real NeMo Gym eval "
    "(everything exits 0)",
    netns=True,
)
def data_schema_gym_negative_labels_copied_from_typeset_key_with_unicode_minus_sign(ctx: Ctx) -> str:
    run = ctx.run
    lines = ["question,answer"] + [f"\"{q}\",{typeset(a)}" for q, a in SIGNED]
    (run / "labels.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (run / "prepare_data.py").write_text(SCI_PREP)
    ctx.sh(f"cd {run} && python3 prepare_data.py && grep -c . tasks.jsonl", "logs/prepare_data.log")
    truth = write_jsonl(ctx.work / "truth.jsonl", [question_row(q, a) for q, a in SIGNED])
    better = checkpoints(ctx, "string_match", truth)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["echo '== weekly eval'"], overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    negative = [row for row in got if str(row.get("expected_answer", "")).startswith("\u2212")]
    positive = [row for row in got if row not in negative]
    if code or len(got) != 18 or not negative or any(rewards(negative)) or not any(rewards(positive)):
        raise failed(ctx, f"exit {code}, {len(got)}, neg {rewards(negative)}, pos {rewards(positive)}")
    return (f"RUN/labels.csv (negative labels with U+2212) -> RUN/prepare_data.py -> RUN/tasks.jsonl; real NeMo Gym "
            f"0.7.0 (loopback-only namespace) RUN/run_eval.sh exit {code}; negative-label rewards {rewards(negative)}, "
            f"others {rewards(positive)}.")


def lowercase_levels(tasks: Path) -> None:
    log = tasks / "count-error-lines" / "environment" / "server.log"
    text = log.read_text()
    for level in ("INFO", "WARN", "ERROR"):
        text = text.replace(f"{level} ", f"[{level.lower()}] ")
    log.write_text(text)


@case(
    "data_schema_taskfolder_server_log_reexported_with_lowercase_bracketed_levels",
    "data_schema",
    ["server.log", "ERROR"],
    "count-error-lines' environment/server.log was replaced by an export from the new logging library, which writes "
    "the levels in lower case and brackets ('[error] disk full'); the task asks for the lines with the word ERROR and "
    "its test expects 3, but the file has no line with ERROR any more, the agent's count came out 0 and every episode "
    "of that task scored 0 while the other task scored normally (everything exits 0)",
)
def data_schema_taskfolder_server_log_reexported_with_lowercase_bracketed_levels(ctx: Ctx) -> str:
    tasks = user_taskset(ctx, ["count-error-lines", "create-greeting"], lowercase_levels)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    counts = task_rows(ctx, "count-error-lines")
    other = task_rows(ctx, "create-greeting")
    if not counts or any(rewards(counts)) or not any(rewards(other)):
        raise failed(ctx, f"exit {code}, counts {rewards(counts)}, other {rewards(other)}")
    return (f"RUN/tasks/count-error-lines/environment/server.log (levels as '[error]'); RUN/run_tasks.sh exit {code}; "
            f"count-error-lines rewards {rewards(counts)}, create-greeting rewards {rewards(other)}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

WORD_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        # our own extraction: the word after the last 'Final answer:' (simpler than the helper)
        found = re.findall(r"Final answer:\\s*(\\w+)", text)
        extracted = found[-1] if found else None

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
    "verifier_runtime_gym_verify_own_extraction_regex_word_class_drops_sign_and_decimals",
    "verifier_runtime",
    ["app.py", "\\w+", "Final answer"],
    "the user's resources server numeric_words extracts the answer with its own regex `Final answer:\\s*(\\w+)`; \\w "
    "matches neither '-' nor '.', so a negative answer is not extracted at all and a decimal one is cut at its point "
    "(0.25 -> 0): every task with a negative or decimal answer scored 0 in the real NeMo Gym eval while the model "
    "answered it correctly (everything exits 0)",
    netns=True,
)
def verifier_runtime_gym_verify_own_extraction_regex_word_class_drops_sign_and_decimals(ctx: Ctx) -> str:
    run = ctx.run
    data = write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in MIXED])
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    ran, prof, env_start = gym_eval_with_own_server(ctx, "numeric_words", WORD_VERIFY, data, url, overrides)
    stop_gym(ctx, env_start, policy)
    got = rows_of(run / "results" / "rollouts.jsonl")
    odd = [row for row in got if re.search(r"[-.]", str(row.get("expected_answer", "")))]
    plain = [row for row in got if row not in odd]
    if ran or len(got) != 21 or not odd or any(rewards(odd)) or not any(rewards(plain)):
        raise failed(ctx, f"exit {ran}/{prof}, {len(got)}, odd {rewards(odd)}, plain {rewards(plain)}")
    return (f"A user's resources server numeric_words (answer extracted with `(\\w+)`); real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) `gym eval run --no-serve` (7 tasks x 3) exit {ran}, profile exit {prof}; "
            f"negative/decimal rewards {rewards(odd)}, others {rewards(plain)}.")


def laptop_sorted_test(tasks: Path) -> None:
    words = tasks / "sort-unique-words" / "environment" / "words.txt"
    words.write_text(words.read_text().replace("banana", "Banana"))
    test = tasks / "sort-unique-words" / "tests" / "test.sh"
    text = test.read_text()
    old = 'printf "apple\\nbanana\\ncherry\\nfig\\npear"'
    if old not in text:
        raise recipes.RecipeError("sort-unique-words' test.sh changed")
    test.write_text(text.replace(old, 'printf "apple\\nBanana\\ncherry\\nfig\\npear"').replace(
        "cd /app\n", "cd /app\n# expected: the output of `sort -u words.txt` on my laptop (Banana is a brand name now)\n"))


@case(
    "verifier_runtime_taskfolder_test_expectation_sorted_under_laptop_locale_not_sandbox_c_locale",
    "verifier_runtime",
    ["test.sh", "LC_ALL", "sort"],
    "sort-unique-words' words.txt now has the capitalised word Banana, and its test.sh expects the order `sort -u` "
    "gave on the author's laptop under en_US.UTF-8 (apple, Banana, cherry, ...); the sandbox has no locale, so `sort` "
    "sorts by bytes there (Banana before apple) and the test failed every episode of that task, though the agent did "
    "what the task asks (everything exits 0)",
)
def verifier_runtime_taskfolder_test_expectation_sorted_under_laptop_locale_not_sandbox_c_locale(ctx: Ctx) -> str:
    tasks = user_taskset(ctx, ["sort-unique-words", "create-greeting"], laptop_sorted_test)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    words = task_rows(ctx, "sort-unique-words")
    other = task_rows(ctx, "create-greeting")
    if not words or any(rewards(words)) or not any(rewards(other)):
        raise failed(ctx, f"exit {code}, words {rewards(words)}, other {rewards(other)}")
    return (f"RUN/tasks/sort-unique-words/tests/test.sh (expected order of an en_US sort); RUN/run_tasks.sh exit "
            f"{code}; sort-unique-words rewards {rewards(words)}, create-greeting rewards {rewards(other)}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

BASE_TAG = "teamh37/eval-base:latest"
OLD_TEXT = "and the cat and a dog\nand a bird and a fish\nthe end and more\n"


def base_image_tasks(tasks: Path) -> None:
    env = tasks / "top-word" / "environment"
    (env / "text.txt").unlink()
    (env / "Dockerfile").write_text(f"# the text is in the team's eval base image (RUN/base)\nFROM {BASE_TAG}\n"
                                    "WORKDIR /app\n")


def top_word_of_image(ctx: Ctx) -> str:
    done = subprocess.run(["docker", "run", "--rm", BASE_TAG, "bash", "-c",
                           "tr 'A-Z' 'a-z' < /app/text.txt | tr -s ' ' '\\n' | sort | uniq -c | sort -rn | head -1"],
                          capture_output=True, text=True, env=ctx.env)
    return done.stdout.split()[-1] if done.stdout.split() else ""


@case(
    "cache_resume_taskfolder_sandbox_image_reused_after_base_image_rebuilt_with_fixed_text",
    "cache_resume",
    ["Dockerfile", "FROM", "eval-base"],
    "top-word's environment/Dockerfile only says `FROM teamh37/eval-base:latest`: its text lives in the team's base "
    "image; the user fixed the text in RUN/base and rebuilt the base image, but the sandbox image of the task is "
    "cached under a tag made from the environment/ folder, which did not change, so the rerun reused the image built "
    "on the old base and top-word scored 0 again (everything exits 0)",
)
def cache_resume_taskfolder_sandbox_image_reused_after_base_image_rebuilt_with_fixed_text(ctx: Ctx) -> str:
    run = ctx.run
    base = run / "base"
    base.mkdir()
    (base / "Dockerfile").write_text("FROM gym-pipeline/base:bookworm\nWORKDIR /app\nCOPY text.txt /app/text.txt\n")
    (base / "text.txt").write_text(OLD_TEXT + f"# draft {random.randrange(10**9)}\n")
    ctx.sh(f"docker build -t {BASE_TAG} {base}", "logs/build_base_last_week.log", timeout=300)
    tasks = user_taskset(ctx, ["top-word", "create-greeting"], base_image_tasks)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    try:
        script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
        code1 = ctx.sh(f"bash {script}", "logs/run_tasks_last_week.log", timeout=900)
        first = task_rows(ctx, "top-word")
        ctx.sh(f"cd {run} && mkdir -p last_week && mv rollouts*.jsonl last_week/", "logs/archive.log")
        shutil.copy(recipes.ROOT / "gym_pipeline" / "examples" / "tasks" / "top-word" / "environment" / "text.txt",
                    base / "text.txt")
        ctx.note("(the user replaced RUN/base/text.txt by the corrected text)")
        ctx.sh(f"docker build -t {BASE_TAG} {base}", "logs/build_base.log", timeout=300)
        fixed = top_word_of_image(ctx)
        code2 = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
        again = task_rows(ctx, "top-word")
        other = task_rows(ctx, "create-greeting")
    finally:
        subprocess.run(["docker", "rmi", BASE_TAG], capture_output=True, env=ctx.env)
    if not first or any(rewards(first)) or fixed != "the" or not again or any(rewards(again)) \
            or not any(rewards(other)):
        raise failed(ctx, f"exit {code1}, first {rewards(first)}, base top word {fixed!r}, again {rewards(again)}, "
                          f"other {rewards(other)}")
    return (f"RUN/base (the team's base image, text fixed and rebuilt: top word now {fixed!r}); RUN/tasks/top-word "
            f"`FROM {BASE_TAG}`; RUN/run_tasks.sh last week exit {code1} (top-word {rewards(first)}), again after the "
            f"rebuild exit {code2}: top-word rewards {rewards(again)}, create-greeting {rewards(other)}.")


def git(ctx: Ctx, folder: Path, *args: str) -> None:
    """The labelling team's git work on the shared repositories (not the user's commands)."""
    subprocess.run(["git", "-c", "user.name=labelling-team", "-c", "user.email=labels@example.com", "-c",
                    "protocol.file.allow=always", *args], cwd=folder, check=True, capture_output=True, env=ctx.env)


@case(
    "cache_resume_builtin_git_pull_moved_data_submodule_pointer_but_checkout_kept_old_labels",
    "cache_resume",
    ["git submodule update", "data"],
    "the eval repository takes its dataset from the `data` git submodule; the labelling team fixed three labels and "
    "bumped the submodule, and the user's run_eval.sh updated with `git pull` only, which moves the submodule pointer "
    "but leaves the checked-out data at the old commit ('modified: data (new commits)'): the eval ran on the old "
    "labels and the corrected tasks still scored 0 (everything exits 0)",
)
def cache_resume_builtin_git_pull_moved_data_submodule_pointer_but_checkout_kept_old_labels(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 78)
    good = data.read_text()
    data.unlink()
    shared = ctx.work / "shared"
    labels, evals = shared / "evaldata", shared / "evals"
    labels.mkdir(parents=True)
    (labels / "string_match.jsonl").write_text(good)
    fix_labels(labels / "string_match.jsonl", {2: "Camelot", 5: "Erewhon", 7: "Shangri-La"})
    git(ctx, labels, "init", "-q", "-b", "main")
    git(ctx, labels, "add", ".")
    git(ctx, labels, "commit", "-q", "-m", "weekly eval labels")
    evals.mkdir()
    git(ctx, evals, "init", "-q", "-b", "main")
    git(ctx, evals, "submodule", "add", "-q", str(labels), "data")
    git(ctx, evals, "commit", "-q", "-m", "eval repo with its data submodule")
    clone = ctx.work / "home" / "evals"
    clone.parent.mkdir()
    ctx.sh(f"git -c protocol.file.allow=always clone -q --recurse-submodules {evals} {clone}",
           "logs/clone_last_month.log")
    (labels / "string_match.jsonl").write_text(good)
    git(ctx, labels, "commit", "-q", "-am", "fix three labels")
    git(ctx, evals / "data", "pull", "-q", "origin", "main")
    git(ctx, evals, "commit", "-q", "-am", "data: bump to the fixed labels")
    ctx.note("(the labelling team fixed three labels in evaldata and bumped the submodule in evals)")
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, [f"(cd {clone} && git pull && git status --short)", "echo '== weekly eval'"],
                            f"{clone}/data/string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    stale = [row for row in got if row.get("expected_answer") in ("Camelot", "Erewhon", "Shangri-La")]
    if code or len(got) != 24 or not stale or any(rewards(stale)):
        raise failed(ctx, f"exit {code}, {len(got)}, stale {rewards(stale)}: "
                          f"{text_of(run / 'logs' / 'run_eval.log')[-600:]}")
    return (f"WORK/home/evals (data = a git submodule); RUN/run_eval.sh (`git pull` only, then materialize, collect, "
            f"profile of data/string_match.jsonl) exit {code}; {len(stale)} rollouts graded against the old labels, "
            f"rewards {rewards(stale)}; mean reward {mean(rewards(got)):.2f}.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

INDEX_SCRIPT = '''"""build_index.py: precompute the package index the task's fixtures are checked against (slow, runs once)"""
import hashlib
import sys

digest = sys.argv[1].encode()
for _ in range(40_000_000):
    digest = hashlib.sha256(digest).digest()
open("/app/index.sha", "w").write(digest.hex() + "\\n")
'''


def slow_build_task(tasks: Path) -> None:
    env = tasks / "json-version" / "environment"
    (env / "build_index.py").write_text(INDEX_SCRIPT)
    (env / "Dockerfile").write_text(env.joinpath("Dockerfile").read_text()
                                    + f"COPY build_index.py /opt/build_index.py\n"
                                      f"RUN python3 /opt/build_index.py seed-{random.randrange(10**9)}\n")
    toml = tasks / "json-version" / "task.toml"
    text = toml.read_text()
    if "build_timeout_sec = 120.0" not in text:
        raise recipes.RecipeError("json-version's task.toml changed")
    toml.write_text(text.replace("build_timeout_sec = 120.0", "build_timeout_sec = 10.0  # images here build in seconds"))


@case(
    "throughput_taskfolder_build_timeout_shorter_than_new_index_build_step",
    "throughput_resources",
    ["task.toml", "build_timeout_sec"],
    "json-version's environment/Dockerfile gained a step that precomputes an index (build_index.py, about half a "
    "minute), but its task.toml still allows 10 s to build the image (build_timeout_sec = 10.0); the build of that "
    "sandbox ran past the limit (the Docker client's read of the build stream, bounded by build_timeout_sec, timed "
    "out: 'Read timed out' under ensure_image), collect stopped before any episode ran and the profile found no "
    "rollouts",
)
def throughput_taskfolder_build_timeout_shorter_than_new_index_build_step(ctx: Ctx) -> str:
    tasks = user_taskset(ctx, ["json-version", "create-greeting"], slow_build_task)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    version = task_rows(ctx, "json-version")
    other = task_rows(ctx, "create-greeting")
    timed_out = in_log(ctx, "build_timeout_sec=10") or (in_log(ctx, "Read timed out", "logs/run_tasks.log")
                                                        and in_log(ctx, "ensure_image", "logs/run_tasks.log"))
    if not timed_out or any(rewards(version)):
        raise failed(ctx, f"exit {code}, version {rewards(version)}, other {rewards(other)}")
    return (f"RUN/tasks/json-version (Dockerfile with a ~30 s build step, task.toml build_timeout_sec = 10); "
            f"RUN/run_tasks.sh exit {code}; json-version rewards {rewards(version)}, create-greeting rewards "
            f"{rewards(other)}.")


LOCK_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=1
cd RUN_DIR
echo "weekly eval on $(hostname) at $(date +%T): waiting for the model server lock"
# team rule: one eval at a time on the shared model server, so collect holds its lock (a 8 x 3 eval takes 20 s)
flock LOCK_FILE bash eval_steps.sh
echo "done at $(date +%T)"
"""


@case(
    "throughput_slurm_job_waits_on_shared_model_server_lock_until_time_limit",
    "throughput_resources",
    ["flock", "--time", "eval.sbatch"],
    "eval.sbatch runs its eval under `flock` of the team's shared model-server lock and asks for one minute of wall "
    "time; a teammate's long eval held the lock the whole time, so the job spent its minute waiting and Slurm "
    "cancelled it at its time limit ('DUE TO TIME LIMIT') before anything was materialized or collected",
)
def throughput_slurm_job_waits_on_shared_model_server_lock_until_time_limit(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 10)
    url, _ = ctx.policy(better, "--latency-ms 30")
    lock = ctx.work / "locks" / "model-server.lock"
    lock.parent.mkdir()
    ctx.note("(a teammate's long eval holds the shared lock WORK/locks/model-server.lock)")
    holder = subprocess.Popen(["flock", str(lock), "sleep", "600"], start_new_session=True)
    ctx.background.append(holder)
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval_steps.sh").write_text(f"#!/bin/bash\ncd {run}\n" + pipeline(url))
    (run / "eval.sbatch").write_text(slurm_script(LOCK_SBATCH, ctx, LOCK_FILE=str(lock)))
    code = submit_and_wait(ctx, "eval.sbatch", "logs/submit.log")
    logs = job_logs(ctx, "eval_*.log")
    if "TIME LIMIT" not in logs or (run / "rollouts_materialized_inputs.jsonl").exists():
        raise failed(ctx, f"exit {code}: {logs[-600:]}")
    return (f"RUN/submit.sh (sbatch of RUN/eval.sbatch: --time=1, `flock` of the shared lock held by a teammate) exit "
            f"{code}; the job was cancelled at its time limit, nothing materialized.")


if __name__ == "__main__":
    sys.exit(main("thirty_seventh_held_out", __file__, __doc__))
