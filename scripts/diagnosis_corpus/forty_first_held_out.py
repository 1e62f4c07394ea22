"""Build the FORTY-FIRST HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/forty_first_held_out.py --out tests/data/diagnosis_corpus/forty_first_held_out [--only CASE ...]

This set was written after the forty earlier sets (first_held_out.py ... fortieth_held_out.py), from the guides alone
(the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide, docs/nemo_gym.md and
docs/real_components.md), without reading the diagnosis rules, their tests or their results. It is meant to be
measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
task folders run in Docker sandboxes, Slurm batch jobs, the real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` /
`gym eval profile` inside a loopback-only network namespace, with a user's own resources server), and the user's own
shell scripts, settings files, helper servers (gateways, serving wrappers), task files and data-preparation scripts.
The output of every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is
written by hand but the user's own inputs (data, scripts, settings, verifier code). Each case injects one cause,
different in mechanism from those of the forty earlier sets, and each recipe checks that its fault really happened
(it raises RecipeError otherwise, and the case is not written). About half of the failures are silent: every command
exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare,
mount, cgroups), Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this checkout. Run it from a foreground shell.
"""

from __future__ import annotations

import os
import pty
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import (  # noqa: E402
    checkpoints,
    failed,
    gym_start,
    stage_argv,
    stop_gym,
    task_checkpoints,
    user_taskset,
    workspace_sweep,
)
from fourteenth_held_out import mean, rewards  # noqa: E402
from recipes import GP, GYM, PY, Ctx, case, gym_model_args, main, rows_of, text_of, unique_keys, wait_for  # noqa: E402
from tenth_held_out import in_log  # noqa: E402
from thirtieth_held_out import gym_rows  # noqa: E402
from thirty_fifth_held_out import mean_reward, pipeline  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_fifth_held_out import job_logs, task_rows  # noqa: E402
from twenty_fourth_held_out import gym_profile_line  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_seventh_held_out import builtin_script, gateway_source, gym_eval_with_own_server  # noqa: E402
from twenty_sixth_held_out import free_port, gym_run, slurm_script, start_helper  # noqa: E402
from twenty_third_held_out import taskset_script, write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


def complete(ctx: Ctx, folder: str = "") -> int:
    """How many distinct rollouts RUN[/folder]/rollouts.jsonl holds."""
    return len(unique_keys(ctx.run / folder / "rollouts.jsonl"))


def truth_checkpoints(ctx: Ctx, pairs: list[tuple[str, object]], env: str = "string_match") -> list[Path]:
    """The two simulated checkpoints that learned the right answers of `pairs` (step_0100, step_0200)."""
    truth = write_jsonl(ctx.work / "truth.jsonl", [question_row(q, str(a)) for q, a in pairs])
    return checkpoints(ctx, env, truth)


def answers(url: str, timeout_s: float = 2.0) -> bool:
    """Whether an OpenAI-compatible server at `url` (…/v1) lists its models."""
    try:
        with urllib.request.urlopen(url + "/models", timeout=timeout_s) as reply:
            return reply.status == 200
    except Exception:  # not up yet (refused, reset, 503 while loading)
        return False


def scancel_all(ctx: Ctx, *jobs: str) -> None:
    for job in jobs:
        if job:
            subprocess.run(["scancel", job], env=ctx.env, capture_output=True, check=False)


# =====================================================================================================
# healthy
# =====================================================================================================

WARMUP_BODY = '{"model": "sim-policy", "messages": [{"role": "user", "content": "ping"}], "max_tokens": 4}'


@case(
    "healthy_builtin_run_script_warm_up_request_gives_up_after_fifty_milliseconds",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh first sends one warm-up chat completion with `curl --max-time 0.05` "
    "(meant to load the weights into memory) and does not wait for it; the model takes about 200 ms per reply, so "
    "curl prints 'curl: (28) Operation timed out after 50 milliseconds' and the script goes on; materialize, collect "
    "and profile then completed every rollout",
)
def healthy_builtin_run_script_warm_up_request_gives_up_after_fifty_milliseconds(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 30)
    url, _ = ctx.policy(better, "--latency-ms 200")
    script = builtin_script(ctx, [
        "echo '== warm-up request (loads the weights; we do not wait for it)'",
        f"curl -sS --max-time 0.05 -H 'Content-Type: application/json' -d '{WARMUP_BODY}' {url}/chat/completions "
        "|| echo 'warm-up sent'",
        "echo '== weekly eval'"], "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = complete(ctx)
    if code or got != 24 or not in_log(ctx, "Operation timed out", "logs/run_eval.log") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (`curl --max-time 0.05` warm-up that times out against a 200 ms model, then materialize "
            f"8 x 3, collect, profile) exit {code}; {got} rollouts, mean reward {mean_reward(run / 'rollouts.jsonl')}.")


PORT_CHECK_LINES = [
    "echo '== is the head server of last week (default port 11000) gone?'",
    "if (exec 3<>/dev/tcp/127.0.0.1/11000); then echo 'port 11000 still taken'; else echo 'port 11000 is free'; fi",
    "echo '== weekly eval'",
]


@case(
    "healthy_gym_run_script_probes_last_weeks_head_port_with_dev_tcp_and_finds_it_closed",
    "healthy",
    [],
    "nothing is wrong: before the eval, the user's run_eval.sh checks that last week's Gym head server (default port "
    "11000) is gone by opening /dev/tcp/127.0.0.1/11000; bash prints 'connect: Connection refused', which is the "
    "answer the user hoped for (this week's servers run on another head port), and the real NeMo Gym eval then "
    "collected, verified and profiled every rollout",
    netns=True,
)
def healthy_gym_run_script_probes_last_weeks_head_port_with_dev_tcp_and_finds_it_closed(ctx: Ctx) -> str:
    run = ctx.run
    ctx.dataset("string_match", 8, start=60, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", run / "tasks.jsonl")[1]
    url, policy = ctx.policy(better, "--latency-ms 40", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", PORT_CHECK_LINES, overrides)
    stop_gym(ctx, env_start, policy)
    got = complete(ctx, "results")
    if code or got != 24 or not in_log(ctx, "Connection refused", "logs/run_eval.log") \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (a /dev/tcp probe of port 11000 refused, "
            f"then `gym eval run --no-serve` 8 tasks x 3 and `gym eval profile`) exit {code}; {got} rollouts, mean "
            f"reward {mean(rewards(gym_rows(ctx))):.2f}.")


HELD_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
cd RUN_DIR
echo "weekly eval on $(hostname), job $SLURM_JOB_ID"
PIPELINE"""

HELD_SUBMIT = """#!/bin/bash
# submit.sh: queue the weekly eval on hold, release it once the checkpoint copy is verified
cd RUN_DIR
JOB=$(sbatch --parsable --hold eval.sbatch)
echo "submitted job $JOB (held until the checkpoint copy is verified)"
scontrol show job $JOB | grep -E -o '(JobState|Reason)=[^ ]+'
echo "checkpoint copy verified: releasing job $JOB"
scontrol release $JOB
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
"""


@case(
    "healthy_slurm_eval_submitted_on_hold_then_released_after_checkpoint_check",
    "healthy",
    [],
    "nothing is wrong: the user's submit.sh queues the eval with `sbatch --hold` and releases it once the checkpoint "
    "copy is verified; `scontrol show job` prints 'JobState=PENDING Reason=JobHeldUser' in the submit log, but the "
    "job was then released, ran materialize, collect and profile and completed every rollout",
)
def healthy_slurm_eval_submitted_on_hold_then_released_after_checkpoint_check(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 12)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(HELD_SBATCH, ctx, PIPELINE=pipeline(url)))
    (run / "submit.sh").write_text(slurm_script(HELD_SUBMIT, ctx))
    code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=400)
    got = complete(ctx)
    if code or got != 24 or not in_log(ctx, "JobHeldUser", "logs/submit.log") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {job_logs(ctx, 'eval_*.log')[-600:]}")
    return (f"RUN/submit.sh (`sbatch --hold` of RUN/eval.sbatch, JobHeldUser, `scontrol release`; materialize 8 x 3, "
            f"collect, profile) exit {code}; {got} rollouts, mean reward {mean_reward(run / 'rollouts.jsonl')}.")


@case(
    "healthy_taskfolder_run_script_samples_docker_events_for_three_seconds_under_timeout",
    "healthy",
    [],
    "nothing is wrong: the user's run_tasks.sh records the node's recent container activity for the run notes with "
    "`timeout 3 docker events --since 1m`, which streams until timeout stops it, so the log shows 'docker events "
    "exit 124'; then every episode ran in its Docker sandbox, was verified and profiled",
)
def healthy_taskfolder_run_script_samples_docker_events_for_three_seconds_under_timeout(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["csv-column-total", "rename-extensions"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, [
        "echo '== container activity on this node in the last minute (for the run notes)'",
        "timeout 3 docker events --since 1m --filter type=container --format '{{.Time}} {{.Action}} {{.Actor.ID}}'"
        " | tail -5; echo \"docker events exit ${PIPESTATUS[0]}\"",
        "echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    if code or len(unique_keys(run / "rollouts.jsonl")) != 4 or not any(rewards(got)) \
            or not in_log(ctx, "docker events exit 124", "logs/run_tasks.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/run_tasks.sh (`timeout 3 docker events` exit 124, then `gym-pipeline stage` materialize, collect, "
            f"profile of RUN/tasks x 2) exit {code}; rewards {rewards(got)}.")


# =====================================================================================================
# infra
# =====================================================================================================

SAFEPATH_ENV = """# node_env.sh: environment of the eval nodes; source it in job and eval scripts
export OMP_NUM_THREADS=1
export TZ=UTC
# security baseline SB-PY-07: the working directory must not shadow installed modules
export PYTHONSAFEPATH=1
"""

LABEL_UTILS = '''"""label_utils.py: the team's label clean-up, shared by the data-preparation scripts."""


def clean_label(text):
    return " ".join(str(text).split()).strip().rstrip(".")
'''

HELPER_PREP = '''"""prepare_data.py: the annotation export (export.jsonl) -> string_match.jsonl"""
import json

from label_utils import clean_label

with open("export.jsonl") as f, open("string_match.jsonl", "w") as out:
    count = 0
    for line in f:
        item = json.loads(line)
        text = item["question"].strip() + " End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": clean_label(item["answer"]), "extraction_mode": "final_answer",
               "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
        count += 1
print(f"wrote {count} tasks")
'''


def export_of(data: Path) -> list[dict]:
    """The annotation export a bundled string_match dataset came from (question without the format line)."""
    return [{"id": f"q{index:04d}", "question": row["responses_create_params"]["input"][0]["content"][0]["text"]
             .split(" End your response")[0], "answer": row["expected_answer"]}
            for index, row in enumerate(rows_of(data))]


@case(
    "infra_builtin_node_env_security_baseline_sets_pythonsafepath_so_prep_cannot_import_its_helper",
    "infra",
    ["node_env.sh", "PYTHONSAFEPATH", "label_utils"],
    "the eval nodes' node_env.sh, which run_eval.sh sources, now exports PYTHONSAFEPATH=1 (a new security baseline); "
    "with it Python no longer puts a script's own folder on sys.path, so prepare_data.py could not import its "
    "sibling module label_utils.py ('ModuleNotFoundError: No module named label_utils'), no tasks file was written, "
    "materialize found no input and nothing was collected or profiled",
)
def infra_builtin_node_env_security_baseline_sets_pythonsafepath_so_prep_cannot_import_its_helper(ctx: Ctx) -> str:
    run = ctx.run
    if ctx.env.pop("PYTHONPATH", None) is not None:  # set where this corpus is built, not by users
        ctx.note("(the user's shell sets no PYTHONPATH)")
    data = ctx.dataset("string_match", 8, start=5, folder=ctx.work)
    better = checkpoints(ctx, "string_match", data)[1]
    write_jsonl(run / "export.jsonl", export_of(data))
    (run / "label_utils.py").write_text(LABEL_UTILS)
    (run / "prepare_data.py").write_text(HELPER_PREP)
    (run / "node_env.sh").write_text(SAFEPATH_ENV)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["source node_env.sh", "echo '== weekly eval'", "python3 prepare_data.py"],
                            "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    if rows_of(run / "rollouts.jsonl") or not in_log(ctx, "No module named 'label_utils'", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}: {text_of(run / 'logs' / 'run_eval.log')[-800:]}")
    return (f"RUN/node_env.sh (PYTHONSAFEPATH=1) sourced by RUN/run_eval.sh, then `python3 prepare_data.py` (imports "
            f"RUN/label_utils.py), materialize, collect, profile: exit {code}; the import failed, nothing collected.")


DEVICES_NOTE = ("(the eval runs under the node's job launcher, which puts it in the site's device cgroup; its allow "
                "list, rewritten for the new GPU nodes, no longer has /dev/null: `c 1:3 rwm` is denied)")

QUIET_PREP_LINES = [
    "echo '== weekly eval'",
    "echo '== prepare the tasks (quiet: the converter is chatty)'",
    "python3 prepare_data.py > /dev/null",
    "echo \"prepare_data.py exit $?\"",
]


@case(
    "infra_builtin_site_device_cgroup_denies_dev_null_so_quiet_prep_step_never_runs",
    "infra",
    ["/dev/null", "devices", "cgroup"],
    "the node's job launcher runs every job in the site's device cgroup, whose allow list (rewritten for the new GPU "
    "nodes) left out /dev/null (character device 1:3); the user's run_eval.sh runs its data preparation quietly, "
    "`python3 prepare_data.py > /dev/null`, and bash could not open the redirection ('/dev/null: Operation not "
    "permitted'), so prepare_data.py never ran, no tasks file was written, materialize found no input and nothing "
    "was collected or profiled",
)
def infra_builtin_site_device_cgroup_denies_dev_null_so_quiet_prep_step_never_runs(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=14, folder=ctx.work)
    better = checkpoints(ctx, "string_match", data)[1]
    write_jsonl(run / "export.jsonl", export_of(data))
    (run / "label_utils.py").write_text(LABEL_UTILS)
    (run / "prepare_data.py").write_text(HELPER_PREP)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, QUIET_PREP_LINES, "string_match.jsonl", url)
    group = Path("/sys/fs/cgroup/devices") / f"ho-h41-{os.getpid()}"
    group.mkdir()
    try:
        (group / "devices.deny").write_text("c 1:3 rwm\n")
        ctx.note(DEVICES_NOTE)
        code = ctx.sh(f"sh -c 'echo $$ > {group}/tasks && exec bash {script}'", "logs/run_eval.log", timeout=400)
    finally:
        for _ in range(50):
            try:
                group.rmdir()
                break
            except OSError:
                time.sleep(0.2)
    log = text_of(run / "logs" / "run_eval.log")
    if rows_of(run / "rollouts.jsonl") or "/dev/null" not in log or (run / "string_match.jsonl").exists():
        raise failed(ctx, f"exit {code}: {log[-800:]}")
    return (f"a device cgroup denying /dev/null (c 1:3); RUN/run_eval.sh (`python3 prepare_data.py > /dev/null`, "
            f"materialize, collect, profile) exit {code}; the redirection failed, no tasks, nothing collected.")


# =====================================================================================================
# model_serving
# =====================================================================================================

SERVE_LATEST = """#!/bin/bash
# serve.sh CHECKPOINTS PORT: serve the newest checkpoint of the training run; when the trainer saves a newer one,
# restart on it (the team playground always talks to the latest model)
CKPTS=$1
PORT=$2
current=""
while true; do
  latest=$(ls -d "$CKPTS"/step_* 2>/dev/null | sort | tail -1)
  if [ -n "$latest" ] && [ "$latest" != "$current" ]; then
    if [ -n "$pid" ]; then echo "serve.sh: new checkpoint $latest, restarting the server"; kill $pid; wait $pid; fi
    echo "serve.sh: serving $latest on port $PORT"
    GP_BIN serve-policy --port $PORT --checkpoint "$latest" --latency-ms 300 &
    pid=$!
    current=$latest
  fi
  sleep 1
done
"""


@case(
    "model_serving_builtin_serve_wrapper_restarts_on_newest_checkpoint_mid_eval",
    "model_serving",
    ["serve.sh", "latest", "--checkpoint"],
    "the eval of step_0100 ran against the team's serve.sh, a wrapper that always serves the newest checkpoint of the "
    "training run and restarts the server when the trainer saves a newer one; the trainer saved step_0200 while the "
    "collect was running, serve.sh killed the server and started it again on step_0200: the requests in flight failed "
    "(connection refused, request body not written), those rollouts are missing and the strict profile refused the "
    "run, and the rollouts collected after the restart were answered by step_0200, not step_0100",
)
def model_serving_builtin_serve_wrapper_restarts_on_newest_checkpoint_mid_eval(ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 18)
    training = ctx.work / "training_run" / "checkpoints"
    training.mkdir(parents=True)
    ctx.sh(f"cp -r {weaker} {training}/")
    (run / "serve.sh").write_text(slurm_script(SERVE_LATEST, ctx))
    port = free_port()
    url = f"http://127.0.0.1:{port}/v1"
    ctx.bg(f"bash {run}/serve.sh {training} {port}", "logs/serve.log")
    wait_for(lambda: answers(url), 40, "serve.sh's model server")
    script = builtin_script(ctx, ["echo '== eval of step_0100'"], "string_match.jsonl", url, concurrency=2)
    process = ctx.bg(f"bash {script}", "logs/run_eval.log")
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 8 or process.poll() is not None, 120, "8 rollouts")
    before = len(rows_of(run / "rollouts.jsonl"))
    ctx.note("(meanwhile the trainer saved step_0200 into the training run's checkpoints folder)")
    ctx.sh(f"cp -r {better} {training}/")
    wait_for(lambda: process.poll() is not None, 300, "run_eval.sh")
    code = process.returncode
    got = rows_of(run / "rollouts.jsonl")
    failures = rows_of(run / "rollouts_failures.jsonl")
    serve_log = text_of(run / "logs" / "serve.log")
    if code == 0 or not failures or "restarting the server" not in serve_log or "step 200" not in serve_log \
            or len(got) <= before or (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)} (before {before}), {len(failures)} failures")
    return (f"RUN/serve.sh (serves the newest checkpoint, restarts on a newer one) on step_0100; RUN/run_eval.sh "
            f"(materialize 8 x 3, collect --concurrency 2, profile) exit {code}; step_0200 saved after {before} "
            f"rollouts, serve.sh restarted the server: {len(failures)} failed attempts, {complete(ctx)} of 24 rollouts "
            f"({len(got) - before} of them after the restart), no profile.")


DUMP_HOOK = '''
def completion(handler, body):
    request = json.loads(body)
    # request dump, to watch what the agents send (this terminal is the gateway's only log)
    print("=" * 60, flush=True)
    print(f"{handler.command} {handler.path} from {handler.client_address[0]}", flush=True)
    print(json.dumps(request, indent=2), flush=True)
    status, data = handler._upstream(body)
    print(f"-> {status}: {data[:600].decode(errors='replace')}", flush=True)
    return status, data
'''

FROZEN_NOTE = ("(gateway.py was started by hand in an SSH session's terminal on the node, its request dump going to "
               "that terminal; the session froze when the user's laptop went to sleep, so nothing reads the terminal "
               "any more)")


@case(
    "model_serving_gym_gateway_blocks_printing_request_dumps_to_frozen_ssh_terminal",
    "model_serving",
    ["gateway.py", "print", "terminal"],
    "the team's gateway.py in front of the model server prints a dump of every request to its terminal, an SSH "
    "session on the node that froze when the user's laptop slept; once the terminal's buffer was full, every print "
    "blocked, so each request thread of the gateway hung before forwarding its completion: the real NeMo Gym eval "
    "got no more answers after its first rollouts, and the CI's 60 s budget killed run_eval.sh with rollouts "
    "missing; the profile never ran",
    netns=True,
)
def model_serving_gym_gateway_blocks_printing_request_dumps_to_frozen_ssh_terminal(ctx: Ctx) -> str:
    run = ctx.run
    ctx.dataset("string_match", 8, start=26, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", run / "tasks.jsonl")[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    port = free_port()
    (run / "gateway.py").write_text(gateway_source("Request dump to the terminal.", DUMP_HOOK))
    master, slave = pty.openpty()
    command = f"python3 gateway.py {port} {url.removesuffix('/v1')}"
    ctx.note(f"cd RUN && {command}   {FROZEN_NOTE}")
    gateway = subprocess.Popen(["python3", "gateway.py", str(port), url.removesuffix("/v1")], cwd=run, stdin=slave,
                               stdout=slave, stderr=slave, start_new_session=True, env=ctx.env)
    os.close(slave)
    ctx.background.append(gateway)
    gateway_url = f"http://127.0.0.1:{port}/v1"
    try:
        wait_for(lambda: answers(gateway_url), 20, "gateway.py")
        overrides = ctx.gym_overrides()
        env_start = gym_start(ctx, f"{gym_model_args(gateway_url)} {overrides}")
        script = run / "run_eval.sh"
        gym_run_script(ctx, script, overrides, ["echo '== weekly eval, through the team gateway'"])
        began = time.monotonic()
        code = ctx.sh(f"timeout 60 bash {script}", "logs/run_eval.log", timeout=400)
        took = time.monotonic() - began
        stop_gym(ctx, env_start, policy)
    finally:
        ctx.stop(gateway, signal.SIGKILL, 1)
        os.close(master)
    got = complete(ctx, "results")
    if code == 0 or got >= 24 or (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got} in {took:.0f} s")
    return (f"RUN/gateway.py (prints a request dump per completion to a terminal nobody reads) in front of the "
            f"simulated policy; real NeMo Gym 0.7.0 (loopback-only namespace) `timeout 60 bash RUN/run_eval.sh` exit "
            f"{code} after {took:.0f} s; {got} of 24 rollouts collected, no profile.")


def gym_run_script(ctx: Ctx, script: Path, overrides: str, lines: list[str], data: str = "tasks.jsonl",
                   repeats: int = 3, concurrency: int = 4, agent: str = "string_match_simple_agent",
                   extra: str = "") -> Path:
    script.write_text("#!/bin/bash\n# weekly eval\n" + f"cd {ctx.run}\n" + "".join(line + "\n" for line in lines)
                      + f"{GYM} eval run --no-serve --agent {agent} --input {data} --output results/rollouts.jsonl "
                        f"--num-repeats {repeats} --concurrency {concurrency} ++route_failures_to_sidecar=true "
                        f"{overrides} {extra}".rstrip() + "\n"
                      + f"{gym_profile_line('results')}\n")
    return script


# =====================================================================================================
# config
# =====================================================================================================

@case(
    "config_builtin_run_script_execs_the_collect_so_the_profile_line_never_runs",
    "config",
    ["exec", "run_eval.sh", "profile"],
    "the user's run_eval.sh starts the collect with `exec gym-pipeline collect ...` (the line was copied from a "
    "container entrypoint); exec replaces the script's shell with the collect, so when the collect finished the "
    "script was gone and its last line, the profile, never ran: the script exits 0 with every rollout collected but "
    "no reward profile",
)
def config_builtin_run_script_execs_the_collect_so_the_profile_line_never_runs(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 40)
    url, _ = ctx.policy(better, "--latency-ms 40")
    script = builtin_script(ctx, ["echo '== nightly eval'"], "string_match.jsonl", url, concurrency=2)
    script.write_text(script.read_text().replace(f"{GP} collect", f"exec {GP} collect"))
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = complete(ctx)
    if code or got != 24 or (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {text_of(run / 'logs' / 'run_eval.log')[-600:]}")
    return (f"RUN/run_eval.sh (materialize 8 x 3, `exec gym-pipeline collect ...`, then profile) exit {code}; {got} "
            f"rollouts collected, no reward profile.")


SINGLETON_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --dependency=singleton
cd RUN_DIR
echo "weekly eval on $(hostname), job $SLURM_JOB_ID"
PIPELINE"""

SINGLETON_SUBMIT = """#!/bin/bash
# submit.sh: submit the weekly eval and wait for it (the CI gives it 45 s)
cd RUN_DIR
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
for i in $(seq 1 22); do
  squeue -h -j $JOB 2>/dev/null | grep -q . || { echo "job $JOB finished"; exit 0; }
  sleep 2
done
echo "job $JOB has not finished after 45 s:"
scontrol show job $JOB | grep -E -o '(JobName|JobState|Reason|Dependency)=[^ ]+'
scancel $JOB
exit 1
"""


@case(
    "config_slurm_template_singleton_dependency_waits_for_users_other_job_of_same_name",
    "config",
    ["--dependency=singleton", "--job-name", "eval.sbatch"],
    "eval.sbatch, copied from the team template, has `#SBATCH --dependency=singleton` and `--job-name=weekly-eval`; a "
    "singleton job starts only when no other job of the same name and user is running, and the user's debugging job "
    "from the morning (started with the same name) was still running, so the eval stayed PENDING with "
    "Reason=Dependency until the CI's 45 s budget cancelled it: nothing was collected or profiled",
)
def config_slurm_template_singleton_dependency_waits_for_users_other_job_of_same_name(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 52)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(SINGLETON_SBATCH, ctx, PIPELINE=pipeline(url)))
    (run / "submit.sh").write_text(slurm_script(SINGLETON_SUBMIT, ctx))
    debug = ctx.work / "debug_job.txt"
    ctx.note("(this morning the user started a debugging job under the same name, still running:)")
    ctx.sh(f"sbatch --parsable --job-name=weekly-eval --time=5 --output=/dev/null --wrap 'sleep 240' > {debug}")
    debug_job = text_of(debug).strip()
    try:
        wait_for(lambda: "R" in subprocess.run(["squeue", "-h", "-j", debug_job, "-o", "%t"], env=ctx.env,
                                               capture_output=True, text=True).stdout, 60, "the debugging job")
        code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=400)
    finally:
        scancel_all(ctx, debug_job)
    if code == 0 or rows_of(run / "rollouts.jsonl") or not in_log(ctx, "Reason=Dependency", "logs/submit.log"):
        raise failed(ctx, f"exit {code}: {text_of(run / 'logs' / 'submit.log')[-600:]}")
    return (f"a running job of the user named weekly-eval; RUN/submit.sh (sbatch of RUN/eval.sbatch with "
            f"`--dependency=singleton`, 45 s budget) exit {code}; the job stayed PENDING (Dependency), nothing "
            f"collected.")


# =====================================================================================================
# data_schema
# =====================================================================================================

NUMERIC = [("How many sides does a hexagon have?", "6"), ("How many minutes are in two hours?", "120"),
           ("What is 17 plus 25?", "42"), ("How many legs does a spider have?", "8"),
           ("What is 12 times 12?", "144"), ("How many days are in a leap year?", "366"),
           ("What is 81 divided by 3?", "27"), ("How many degrees are in a right angle?", "90"),
           ("How many planets are in the Solar System?", "")]

PANDAS_PREP = '''"""prepare_data.py: the labelling sheet (labels.csv) -> string_match.jsonl (run with the project venv)"""
import json

import pandas as pd

sheet = pd.read_csv("labels.csv")
sheet = sheet.dropna(subset=["answer"])  # rows still under review have no answer yet
with open("string_match.jsonl", "w") as out:
    for item in sheet.itertuples():
        text = item.question + " End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": str(item.answer), "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
print(f"wrote {len(sheet)} tasks")
'''


@case(
    "data_schema_builtin_pandas_reads_answer_column_with_a_blank_as_float_so_labels_end_in_dot_zero",
    "data_schema",
    ["prepare_data.py", "dtype", "42.0"],
    "prepare_data.py reads the labelling sheet with pandas; one question is still under review and has no answer, "
    "so pandas reads the whole answer column as floats (NaN needs a float column), and after dropping that row "
    "str(answer) wrote every label as '6.0', '120.0', '42.0' ...; the model's right answers (6, 120, 42) never "
    "matched and every rollout scored 0 (every command exits 0)",
)
def data_schema_builtin_pandas_reads_answer_column_with_a_blank_as_float_so_labels_end_in_dot_zero(ctx: Ctx) -> str:
    run = ctx.run
    (run / "labels.csv").write_text("question,answer\n" + "".join(f"\"{q}\",{a}\n" for q, a in NUMERIC))
    (run / "prepare_data.py").write_text(PANDAS_PREP)
    better = truth_checkpoints(ctx, [(q, a) for q, a in NUMERIC if a])[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["echo '== weekly eval'", f"{PY} prepare_data.py"], "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    labels = sorted({str(row.get("expected_answer")) for row in got})
    right = [row for row in got if f"{row.get('extracted_answer')}.0" == row.get("expected_answer")]
    if code or len(got) != 24 or not all(label.endswith(".0") for label in labels) or any(rewards(got)) or not right:
        raise failed(ctx, f"exit {code}, {len(got)}, labels {labels}, rewards {rewards(got)}")
    return (f"RUN/labels.csv (one answer blank) -> RUN/prepare_data.py (pandas) -> labels {labels}; RUN/run_eval.sh "
            f"exit {code}; {len(right)} of {len(got)} rollouts gave the right integer answer, mean reward "
            f"{mean(rewards(got)):.2f}.")


LATEX = [("What is one half written as a LaTeX fraction?", "\\frac{1}{2}"),
         ("What is the square root of 2 in LaTeX notation?", "\\sqrt{2}"),
         ("What is three quarters written as a LaTeX fraction?", "\\frac{3}{4}"),
         ("What is the LaTeX command for the Greek letter pi?", "\\pi"),
         ("What is 7 times 8?", "56"), ("What is the capital of Japan?", "Tokyo"),
         ("What is two thirds written as a LaTeX fraction?", "\\frac{2}{3}"), ("What is 9 plus 10?", "19")]

ESCAPING_PREP = '''"""prepare_data.py: answer_key.tsv (question<TAB>answer, LaTeX answers) -> tasks.jsonl"""
import json

with open("answer_key.tsv", encoding="utf-8") as f, open("tasks.jsonl", "w") as out:
    for line in f.read().splitlines()[1:]:
        question, answer = line.split("\\t")
        answer = answer.replace("\\\\", "\\\\\\\\")  # escape backslashes for JSON
        text = question + " End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
'''


@case(
    "data_schema_gym_prep_escapes_latex_backslashes_before_json_dumps_so_labels_have_two",
    "data_schema",
    ["prepare_data.py", "backslash", "json.dumps"],
    "prepare_data.py doubles every backslash of the answers 'to escape them for JSON' and then writes the rows with "
    "json.dumps, which escapes them again: the labels in tasks.jsonl read '\\\\frac{1}{2}', '\\\\sqrt{2}', '\\\\pi' "
    "(two backslashes) where the answer key has one; the model's right LaTeX answers never matched and scored 0 in "
    "the real NeMo Gym eval, while the plain answers scored normally (every command exits 0)",
    netns=True,
)
def data_schema_gym_prep_escapes_latex_backslashes_before_json_dumps_so_labels_have_two(ctx: Ctx) -> str:
    run = ctx.run
    (run / "answer_key.tsv").write_text("question\tanswer\n" + "".join(f"{q}\t{a}\n" for q, a in LATEX),
                                        encoding="utf-8")
    (run / "prepare_data.py").write_text(ESCAPING_PREP)
    better = truth_checkpoints(ctx, LATEX)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["echo '== weekly eval'", "python3 prepare_data.py"], overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    latex = [row for row in got if "\\" in str(row.get("expected_answer"))]
    plain = [row for row in got if row not in latex]
    doubled = all("\\\\" in str(row.get("expected_answer")) for row in latex)
    right = [row for row in latex if row.get("extracted_answer") == row["expected_answer"].replace("\\\\", "\\")]
    if code or len(got) != 24 or not latex or not doubled or not right or any(rewards(latex)) \
            or not any(rewards(plain)):
        raise failed(ctx, f"exit {code}, {len(got)}, latex {rewards(latex)} doubled {doubled}, plain {rewards(plain)}")
    return (f"RUN/prepare_data.py (backslashes doubled before json.dumps) -> RUN/tasks.jsonl; real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) RUN/run_eval.sh exit {code}; {len(right)} right LaTeX answers; LaTeX labels "
            f"{sorted({r['expected_answer'] for r in latex})} scored {rewards(latex)}, plain labels {rewards(plain)}.")


def nbsp_text(tasks: Path) -> None:
    """The teammate pasted this week's text into the task from the style guide document (a word processor)."""
    text = (tasks / "top-word" / "environment" / "text.txt").read_text()
    (tasks / "top-word" / "environment" / "text.txt").write_text(text.replace(" ", "\u00a0"), encoding="utf-8")


@case(
    "data_schema_taskfolder_input_text_pasted_from_word_processor_with_non_breaking_spaces",
    "data_schema",
    ["text.txt", "non-breaking", "\\u00a0"],
    "top-word's environment/text.txt was refreshed by pasting this week's text from the style-guide document; the "
    "word processor had put non-breaking spaces (U+00A0) between the words, which look like spaces but are not "
    "split by `tr -s ' ' '\\n'`: every line counted as one word, the agent's top word was a whole line and the "
    "test (which expects 'the') gave 0 on every episode of that task, while the other task scored normally (every "
    "command exits 0)",
)
def data_schema_taskfolder_input_text_pasted_from_word_processor_with_non_breaking_spaces(ctx: Ctx) -> str:
    tasks = user_taskset(ctx, ["top-word", "create-greeting"], nbsp_text)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    top = task_rows(ctx, "top-word")
    other = task_rows(ctx, "create-greeting")
    solved = [path for path in (ctx.run / "rollouts_episodes" / "top-word").rglob("transcript.json")
              if "uniq -c" in text_of(path)]  # episodes whose agent ran the right pipeline
    if code or not top or any(rewards(top)) or not any(rewards(other)) or not solved:
        raise failed(ctx, f"exit {code}, top-word {rewards(top)}, other {rewards(other)}, solved {len(solved)}")
    return (f"RUN/tasks/top-word/environment/text.txt with U+00A0 between words; RUN/run_tasks.sh exit {code}; "
            f"top-word rewards {rewards(top)} ({len(solved)} episode(s) ran the right counting pipeline), "
            f"create-greeting rewards {rewards(other)}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

COMMA_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        # a label may list several accepted answers, separated by commas ("NYC, New York City")
        accepted = [part.strip() for part in (body.expected_answer or "").split(",") if part.strip()]

        reward = 0.0
        if extracted is not None:
            reward = max((_answers_match(extracted, a, body.case_sensitive) for a in accepted), default=0.0)

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""

COMMAS = [("How many micrometres are in a metre? Write it with thousands separators.", "1,000,000"),
          ("What is the capital of the United States?", "Washington, D.C."),
          ("What is the capital of France?", "Paris"), ("What is the capital of Norway?", "Oslo"),
          ("How many metres are in ten kilometres? Write it with a thousands separator.", "10,000"),
          ("What is the chemical symbol for gold?", "Au"), ("What is 6 times 7?", "42"),
          ("What is the largest planet of the Solar System?", "Jupiter")]


@case(
    "verifier_runtime_gym_verify_splits_labels_on_commas_as_accepted_answers",
    "verifier_runtime",
    ["app.py", "split", "accepted"],
    "the user's resources server list_match treats a label as a comma-separated list of accepted answers "
    "(`expected_answer.split(',')`); labels that contain commas themselves ('1,000,000', '10,000', 'Washington, "
    "D.C.') were cut into pieces ('1', '000', 'Washington', 'D.C.'), so the model's right answers matched none of "
    "them and scored 0 in the real NeMo Gym eval, while the other labels scored normally (every command exits 0)",
    netns=True,
)
def verifier_runtime_gym_verify_splits_labels_on_commas_as_accepted_answers(ctx: Ctx) -> str:
    data = write_jsonl(ctx.run / "tasks.jsonl", [question_row(q, a) for q, a in COMMAS])
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    ran, prof, env_start = gym_eval_with_own_server(ctx, "list_match", COMMA_VERIFY, data, url, overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    commas = [row for row in got if "," in str(row.get("expected_answer"))
              and row.get("extracted_answer") == row.get("expected_answer")]
    right = [row for row in got if "," not in str(row.get("expected_answer"))
             and row.get("extracted_answer") == row.get("expected_answer")]
    if ran or prof or len(got) != 24 or not commas or any(rewards(commas)) or not right or not all(rewards(right)):
        raise failed(ctx, f"exit {ran}/{prof}, {len(got)}, commas {rewards(commas)}, right {rewards(right)}")
    return (f"A user's resources server list_match (labels split on commas); real NeMo Gym 0.7.0 (loopback-only "
            f"namespace) `gym eval run --no-serve` (8 tasks x 3) exit {ran}, profile exit {prof}; {len(commas)} right "
            f"answers to labels with commas scored {rewards(commas)}, other right answers {rewards(right)}; mean "
            f"reward {mean(rewards(got)):.2f}.")


FSTRING_TEST = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
want=$(python3 -c 'import json; d = json.load(open("/app/package.json")); print(f"{d["version"]}")')
got=$(tr -d "[:space:]" < /app/version.txt 2>/dev/null)
if test -n "$want" && test "$got" = "$want"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL (want '$want', got '$got')"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def fstring_test(tasks: Path) -> None:
    (tasks / "json-version" / "tests" / "test.sh").write_text(FSTRING_TEST)


@case(
    "verifier_runtime_taskfolder_test_sh_uses_python_312_fstring_quotes_on_311_sandbox",
    "verifier_runtime",
    ["test.sh", "f-string", "python3"],
    "json-version's tests/test.sh, rewritten on a laptop with Python 3.12, reads the expected version with "
    "`python3 -c '... print(f\"{d[\"version\"]}\")'`; reusing the f-string's own quotes inside it is new in Python "
    "3.12, and the sandbox image has Python 3.11, so the check died with 'SyntaxError: f-string: unmatched' and the "
    "test wrote 0 for every episode of that task though the agent wrote the right version; the other task scored "
    "normally (every command exits 0)",
)
def verifier_runtime_taskfolder_test_sh_uses_python_312_fstring_quotes_on_311_sandbox(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["json-version", "create-greeting"], fstring_test)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    version = task_rows(ctx, "json-version")
    other = task_rows(ctx, "create-greeting")
    stdout = "".join(text_of(p) for p in run.rglob("test-stdout.txt"))
    if code or not version or any(rewards(version)) or not any(rewards(other)) or "SyntaxError" not in stdout:
        raise failed(ctx, f"exit {code}, version {rewards(version)}, other {rewards(other)}: {stdout[-400:]}")
    return (f"RUN/tasks/json-version/tests/test.sh (f-string with nested double quotes, Python 3.12 syntax; the image "
            f"has 3.11); RUN/run_tasks.sh exit {code}; json-version rewards {rewards(version)}, create-greeting "
            f"rewards {rewards(other)}.")


BOOL_VERIFIER = '''"""my_verifier.py: exact answers; case-insensitive unless VERIFIER_CASE_SENSITIVE says otherwise."""
import os
import re

CASE_SENSITIVE = bool(os.environ.get("VERIFIER_CASE_SENSITIVE", ""))
FINAL = re.compile(r"final answer:\\s*(.+)", re.IGNORECASE)


def score(row, response_text):
    found = FINAL.findall(response_text)
    answer = found[-1].strip().rstrip(".") if found else None
    expected = row["expected_answer"]
    if answer is not None and not CASE_SENSITIVE:
        answer, expected = answer.lower(), expected.lower()
    correct = answer is not None and answer == expected
    return {"reward": 1.0 if correct else 0.0, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
'''

VERIFIER_ENV = """# verifier.env: settings of the team verifier (exported by run_eval.sh)
VERIFIER_CASE_SENSITIVE=false
"""

LOWER = [("What is the most abundant element in the Sun by mass?", "Hydrogen"),
         ("What is the capital of Australia?", "Canberra"), ("What is the largest ocean on Earth?", "Pacific"),
         ("Which planet is known as the Red Planet?", "Mars"), ("What is the capital of Kenya?", "Nairobi"),
         ("What gas do plants absorb from the air?", "Carbon dioxide"),
         ("Who wrote the play Hamlet?", "Shakespeare"), ("What is the capital of Canada?", "Ottawa")]


@case(
    "verifier_runtime_stage_workspace_verifier_reads_false_setting_as_true_with_bool_of_string",
    "verifier_runtime",
    ["my_verifier.py", "bool(", "VERIFIER_CASE_SENSITIVE"],
    "the workspace verifier my_verifier.py reads its case setting with `bool(os.environ.get("
    "'VERIFIER_CASE_SENSITIVE', ''))`; the team's verifier.env sets VERIFIER_CASE_SENSITIVE=false, and bool of the "
    "non-empty string 'false' is True, so the verifier compared case-sensitively: the labels of this set are stored "
    "in lower case ('hydrogen', 'canberra') and the model's right answers ('Hydrogen', 'Canberra') all scored 0 "
    "(every command exits 0)",
)
def verifier_runtime_stage_workspace_verifier_reads_false_setting_as_true_with_bool_of_string(ctx: Ctx) -> str:
    run = ctx.run
    data = write_jsonl(run / "exact_answer.jsonl", [question_row(q, a.lower()) for q, a in LOWER])
    better = truth_checkpoints(ctx, LOWER)[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "verifier.env").write_text(VERIFIER_ENV)
    sweep = workspace_sweep(ctx, "exact_answer", data, better, {"verifier": "my_verifier:score"}, BOOL_VERIFIER,
                            num_repeats=3, concurrency=4)
    lines = ["#!/bin/bash", "# weekly eval (verifier: verifiers/my_verifier.py)", f"cd {run}",
             "set -a; source verifier.env; set +a", "echo \"== weekly eval (case sensitive: $VERIFIER_CASE_SENSITIVE)\""]
    for key, extra in (("materialize", ()), ("collect", ("--model-url", url, "--model-name", "sim-policy")),
                       ("profile", ())):
        lines += [f"echo '== {key}'", " ".join(stage_argv(sweep, key, better, "exact_answer", *extra))]
    (run / "run_eval.sh").write_text("\n".join(lines) + "\n")
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    right = [row for row in got if str(row.get("extracted_answer")).lower() == row.get("expected_answer")]
    if code or len(got) != 24 or not right or any(rewards(right)):
        raise failed(ctx, f"exit {code}, {len(got)}, right {len(right)} {rewards(right)}")
    return (f"RUN/verifiers/my_verifier.py (`bool()` of VERIFIER_CASE_SENSITIVE=false from RUN/verifier.env), "
            f"lower-case labels; RUN/run_eval.sh (stages materialize, collect, profile) exit {code}; {len(right)} "
            f"right answers scored {sorted(set(rewards(right)))}, mean reward {mean(rewards(got)):.2f}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

STAGED_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
cd RUN_DIR
echo "weekly eval of $DATA on $(hostname), job $SLURM_JOB_ID"
GP_BIN materialize --input $DATA --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 4
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""

STAGED_SUBMIT = """#!/bin/bash
# submit.sh: stage the tasks (a running job must not see the shared file change), then queue the eval behind the
# checkpoint sync job
cd RUN_DIR
STAGE=staged/$(date +%Y%m%d-%H%M%S)
mkdir -p $STAGE && cp string_match.jsonl $STAGE/
echo "staged string_match.jsonl in $STAGE"
SYNC=$(sbatch --parsable --job-name=ckpt-sync --time=5 --output=logs/sync_%j.log --wrap 'sleep 20; echo checkpoint synced')
JOB=$(sbatch --parsable --dependency=afterok:$SYNC --export=ALL,DATA=$STAGE/string_match.jsonl eval.sbatch)
echo "submitted checkpoint sync $SYNC and eval $JOB (after $SYNC)"
echo $JOB > job_id.txt
"""

@case(
    "cache_resume_slurm_submit_script_stages_tasks_at_submission_so_label_fix_while_pending_is_ignored",
    "cache_resume",
    ["staged/", "submit.sh", "string_match.jsonl"],
    "submit.sh copies string_match.jsonl into a staged/ folder when it submits, and the queued eval reads that copy; "
    "while the eval waited for the checkpoint sync job, the user noticed wrong labels and fixed them in "
    "string_match.jsonl, but the job ran on the copy staged before the fix: the run folder holds results on the old "
    "labels (the model's right answers to those tasks scored 0) though string_match.jsonl now has the right ones "
    "(every command exits 0)",
)
def cache_resume_slurm_submit_script_stages_tasks_at_submission_so_label_fix_while_pending_is_ignored(
        ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 0)
    rows = rows_of(data)
    wrong = [index for index, row in enumerate(rows) if row["extraction_mode"] == "final_answer"][:3]
    fixed = {index: rows[index]["expected_answer"] for index in wrong}
    for index in wrong:  # last week's export: three labels shifted onto the next question
        rows[index]["expected_answer"] = fixed[wrong[(wrong.index(index) + 1) % len(wrong)]]
    write_jsonl(data, rows)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(STAGED_SBATCH, ctx, MODEL_URL=url))
    (run / "submit.sh").write_text(slurm_script(STAGED_SUBMIT, ctx))
    ctx.sh(f"bash {run}/submit.sh", "logs/submit.log")
    job = text_of(run / "job_id.txt").strip()
    try:
        ctx.note("(while the eval was pending, the user fixed the three wrong labels in string_match.jsonl)")
        fix = " && ".join(f"sed -i '{i + 1}s/\"expected_answer\": \"{rows[i]['expected_answer']}\"/\"expected_answer\": "
                          f"\"{fixed[i]}\"/' string_match.jsonl" for i in wrong)
        ctx.sh(fix + " && echo 'labels fixed'", "logs/fix_labels.log", cwd=run)
        ctx.sh(f"while squeue -h -j {job} 2>/dev/null | grep -q .; do sleep 2; done; echo 'job {job} finished'",
               "logs/submit.log", cwd=run, timeout=300)
    finally:
        scancel_all(ctx, job)
    def prompt(row: dict) -> str:
        return row["responses_create_params"]["input"][0]["content"][0]["text"]

    current = {prompt(row): row.get("expected_answer") for row in rows_of(run / "string_match.jsonl")}
    got = rows_of(run / "rollouts.jsonl")
    stale = [row for row in got if row.get("expected_answer") != current.get(prompt(row))]
    materialized = sorted({row.get("expected_answer") for row in stale})
    if complete(ctx) != 24 or any(current.get(prompt(rows[i])) != fixed[i] for i in wrong) or not stale \
            or any(rewards(stale)):
        raise failed(ctx, f"{complete(ctx)}, materialized {materialized}, current {current}")
    return (f"RUN/submit.sh staged string_match.jsonl and queued RUN/eval.sbatch (job {job}) behind a 20 s sync job; "
            f"3 labels fixed in RUN/string_match.jsonl while it was pending; the job ran on the staged copy: "
            f"{len(stale)} rollouts on the old labels scored {rewards(stale)}, mean reward {mean(rewards(got)):.2f}.")


AGENT_ENV = """# weekly eval settings (read by run_eval.sh)
AGENT=string_match_simple_agent
"""

AGENT_LINES = ["source eval.env", "echo \"== weekly MCQA eval with $AGENT (resumes where an earlier attempt stopped)\""]


@case(
    "cache_resume_gym_agent_fixed_then_resumed_but_materialized_inputs_keep_old_agent_ref",
    "cache_resume",
    ["rollouts_materialized_inputs.jsonl", "agent_ref", "resume"],
    "the weekly MCQA eval was started with the string_match agent (eval.env copied from the string-match eval); the "
    "user stopped it with Ctrl-C, set AGENT=mcqa_simple_agent and ran it again, but run_eval.sh resumes "
    "(++resume_from_cache=true): Gym reused results/rollouts_materialized_inputs.jsonl, whose rows still carry "
    "agent_ref string_match_simple_agent, so every rollout of the rerun went to the string_match agent and its "
    "verifier again, and the results are not an MCQA eval",
    netns=True,
)
def cache_resume_gym_agent_fixed_then_resumed_but_materialized_inputs_keep_old_agent_ref(ctx: Ctx) -> str:
    run = ctx.run
    ctx.dataset("mcqa", 6, start=10, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "mcqa", run / "tasks.jsonl")[1]
    url, policy = ctx.policy(better, "--latency-ms 600", log="policy_server.log")
    (run / "eval.env").write_text(AGENT_ENV)
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, "--resources-server string_match --resources-server mcqa --model-type vllm_model "
                               f"--model sim-policy --model-url {url} --model-api-key dummy {overrides}")
    script = run / "run_eval.sh"
    gym_run_script(ctx, script, overrides, AGENT_LINES, agent="$AGENT", concurrency=2,
                   extra="++resume_from_cache=true")
    first = ctx.bg(f"bash {script}", "logs/run_eval_first.log")
    wait_for(lambda: "Finished" in text_of(run / "logs" / "run_eval_first.log") or first.poll() is not None
             or (run / "results" / "rollouts_failures.jsonl").exists(), 150, "the first rollouts")
    ctx.note("(the user saw the string_match agent in the log and stopped the run with Ctrl-C)")
    ctx.stop(first)
    ctx.sh("sed -i 's/^AGENT=.*/AGENT=mcqa_simple_agent/' eval.env && grep '^AGENT=' eval.env", "logs/fix.log",
           cwd=run)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    materialized = {str((row.get("agent_ref") or {}).get("name"))
                    for row in rows_of(run / "results" / "rollouts_materialized_inputs.jsonl")}
    agents = {str((row.get("agent_ref") or {}).get("name")) for row in gym_rows(ctx)}
    if materialized != {"string_match_simple_agent"} or "mcqa_simple_agent" not in text_of(run / "logs" / "run_eval.log") \
            or "mcqa_simple_agent" in agents:
        raise failed(ctx, f"exit {code}, materialized {materialized}, rollouts {agents}")
    failures = rows_of(run / "results" / "rollouts_failures.jsonl")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace), env start with string_match and mcqa; RUN/run_eval.sh "
            f"(`gym eval run --no-serve --agent $AGENT ... ++resume_from_cache=true`, `gym eval profile`) first with "
            f"AGENT=string_match_simple_agent, stopped with Ctrl-C, then with AGENT=mcqa_simple_agent: exit {code}; "
            f"materialized inputs' agent_ref {sorted(materialized)}, rollouts' agent_ref {sorted(agents)}, "
            f"{len(gym_rows(ctx))} rollouts, {len(failures)} failed attempts.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

PBKDF2_HOOK = '''
import hmac

# API keys are checked against stored PBKDF2 hashes (security review SR-112); iterations as the password baseline
PBKDF2_ITERATIONS = 4_000_000
SALT = b"team-gateway"
STORED = hashlib.pbkdf2_hmac("sha256", b"dummy", SALT, PBKDF2_ITERATIONS)


def completion(handler, body):
    key = handler.headers.get("Authorization", "").removeprefix("Bearer ").encode()
    if not hmac.compare_digest(hashlib.pbkdf2_hmac("sha256", key, SALT, PBKDF2_ITERATIONS), STORED):
        return 401, b'{"error": {"message": "invalid API key"}}'
    return handler._upstream(body)
'''


@case(
    "throughput_builtin_gateway_derives_pbkdf2_key_hash_on_every_request",
    "throughput_resources",
    ["gateway.py", "PBKDF2_ITERATIONS", "cache"],
    "the team's gateway.py checks the caller's API key on every request by deriving its PBKDF2 hash with 4,000,000 "
    "iterations (the password baseline of a security review) and keeps no cache of checked keys; each request costs "
    "about a second of CPU before it is forwarded, and on the 2-core node the eval's 32 requests queued behind each "
    "other (the model answers in 20 ms): the CI's 15 s budget for run_eval.sh killed the collect with rollouts "
    "missing; the profile never ran",
)
def throughput_builtin_gateway_derives_pbkdf2_key_hash_on_every_request(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 64)
    url, _ = ctx.policy(better, "--latency-ms 20")
    port = free_port()
    start_helper(ctx, "gateway.py", gateway_source("API keys checked against PBKDF2 hashes.", PBKDF2_HOOK),
                 f"{port} {url.removesuffix('/v1')}", "gateway.py on")
    script = builtin_script(ctx, ["echo '== weekly eval through the team gateway'", "export EVAL_API_KEY=dummy"],
                            "string_match.jsonl", f"http://127.0.0.1:{port}/v1", repeats=4)
    script.write_text(script.read_text().replace("--env string_match", "--env string_match --api-key-env EVAL_API_KEY"))
    began = time.monotonic()
    code = ctx.sh(f"timeout 15 bash {script}", "logs/run_eval.log", timeout=400)
    took = time.monotonic() - began
    got = complete(ctx)
    if code == 0 or got >= 32 or (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got} in {took:.0f} s")
    return (f"RUN/gateway.py (PBKDF2 with 4,000,000 iterations per request) in front of the simulated policy (20 ms); "
            f"`timeout 15 bash RUN/run_eval.sh` (materialize 8 x 4, collect --concurrency 4) exit {code} after "
            f"{took:.0f} s; {got} of 32 rollouts collected, no profile.")


SANDBOX_VERIFIER = '''"""my_verifier.py: every answer is checked in its own Python process (answers are untrusted model output:
a crash or a hang in the comparison must not take the collector down)."""
import re
import subprocess
import sys

FINAL = re.compile(r"final answer:\\s*(.+)", re.IGNORECASE)
CHECK = """
import sys
from pandas.api.types import is_number  # the team's numeric normalisation
answer, expected = sys.argv[1].strip().lower(), sys.argv[2].strip().lower()
try:
    same = float(answer) == float(expected)
except ValueError:
    same = answer == expected
print(1.0 if same else 0.0)
"""


def score(row, response_text):
    found = FINAL.findall(response_text)
    answer = found[-1].strip().rstrip(".") if found else None
    reward = 0.0
    if answer is not None:
        checked = subprocess.run([sys.executable, "-c", CHECK, answer, row["expected_answer"]], capture_output=True,
                                 text=True, timeout=60)
        reward = float(checked.stdout.strip() or 0.0)
    return {"reward": reward, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
'''


@case(
    "throughput_stage_workspace_verifier_checks_each_answer_in_a_fresh_python_importing_pandas",
    "throughput_resources",
    ["my_verifier.py", "subprocess", "pandas"],
    "the workspace verifier my_verifier.py checks every answer in a fresh Python process (a sandbox against hostile "
    "model output) whose check imports pandas; each verification costs about a second of start-up and import time, "
    "and the collector waits for it, so the 64 rollouts needed far longer than the model's 20 ms replies would "
    "explain and the CI's 10 s budget for run_eval.sh killed the collect with rollouts missing; the profile never ran",
)
def throughput_stage_workspace_verifier_checks_each_answer_in_a_fresh_python_importing_pandas(ctx: Ctx) -> str:
    run = ctx.run
    bundled = rows_of(recipes.DATA / "string_match.jsonl")
    data = write_jsonl(run / "exact_answer.jsonl",
                       [row for row in bundled if row["extraction_mode"] == "final_answer"][:16])
    better = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    sweep = workspace_sweep(ctx, "exact_answer", data, better, {"verifier": "my_verifier:score"}, SANDBOX_VERIFIER,
                            num_repeats=4, concurrency=4)
    lines = ["#!/bin/bash", "# weekly eval (verifier: verifiers/my_verifier.py)", f"cd {run}", "echo '== weekly eval'"]
    for key, extra in (("materialize", ()), ("collect", ("--model-url", url, "--model-name", "sim-policy")),
                       ("profile", ())):
        lines += [f"echo '== {key}'", " ".join(stage_argv(sweep, key, better, "exact_answer", *extra))]
    (run / "run_eval.sh").write_text("\n".join(lines) + "\n")
    began = time.monotonic()
    code = ctx.sh(f"timeout 10 bash {run}/run_eval.sh", "logs/run_eval.log", timeout=400)
    took = time.monotonic() - began
    got = complete(ctx)
    if code == 0 or got >= 64 or (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got} in {took:.0f} s")
    return (f"RUN/verifiers/my_verifier.py (a fresh `python -c` importing pandas per answer); `timeout 10 bash "
            f"RUN/run_eval.sh` (stages materialize 16 x 4, collect --concurrency 4, profile) exit {code} after "
            f"{took:.0f} s; {got} of 64 rollouts collected, no profile.")


if __name__ == "__main__":
    sys.exit(main("forty_first_held_out", __file__, __doc__))
