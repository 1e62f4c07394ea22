"""Build the FORTY-FOURTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/forty_fourth_held_out.py --out tests/data/diagnosis_corpus/forty_fourth_held_out [--only CASE ...]

This set was written after the forty-three earlier sets (first_held_out.py ... forty_third_held_out.py), from the guides
alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
task folders run in Docker sandboxes, Slurm batch jobs, the real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` /
`gym eval profile` inside a loopback-only network namespace), and the user's own shell scripts, settings, serving
scripts, data-preparation scripts, workspace verifiers, resources servers, gateways and task files. The output of
every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but
the user's own inputs (data, scripts, settings, verifier code). Each case injects one cause, different in mechanism
from those of the forty-three earlier sets, and each recipe checks that its fault really happened (it raises
RecipeError otherwise, and the case is not written). About half of the failures are silent: every command exits 0
and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare,
iptables, mount), Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this checkout. Run it from a foreground shell.
"""

from __future__ import annotations

import json
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
    workspace_sweep,
)
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from forty_first_held_out import answers, scancel_all  # noqa: E402
from forty_second_held_out import workspace_script  # noqa: E402
from forty_third_held_out import CAPITALS_WRONG, PLAIN_SBATCH, SUBMIT_WAIT  # noqa: E402
from fourteenth_held_out import mean, rewards  # noqa: E402
from recipes import (  # noqa: E402
    GP,
    Ctx,
    case,
    gym_model_args,
    main,
    rows_of,
    text_of,
    wait_for,
)
from tenth_held_out import in_log  # noqa: E402
from thirtieth_held_out import gateway_url, gym_rows  # noqa: E402
from thirty_fifth_held_out import mean_reward, pipeline  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_fifth_held_out import job_logs, task_rows  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_seventh_held_out import builtin_script, gym_eval_with_own_server  # noqa: E402
from twenty_sixth_held_out import free_port, gym_run, slurm_script  # noqa: E402
from twenty_third_held_out import taskset_script, write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


def log_of(ctx: Ctx, name: str) -> str:
    return text_of(ctx.run / "logs" / name)


def complete_in(ctx: Ctx, folder: str) -> int:
    return len({(r["_ng_task_index"], r["_ng_rollout_index"]) for r in rows_of(ctx.run / folder / "rollouts.jsonl")})


def reply_text(row: dict) -> str:
    return json.dumps(row.get("response")).lower()


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_builtin_run_script_describes_dataset_repo_with_git_describe_before_its_first_tag",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh records the dataset's version with `git -C datasets describe --tags`; "
    "the team's dataset repository has commits but no release tag yet, so git prints 'fatal: No names found, cannot "
    "describe anything.' and the script goes on; materialize, collect and profile then completed every rollout",
)
def healthy_builtin_run_script_describes_dataset_repo_with_git_describe_before_its_first_tag(ctx: Ctx) -> str:
    run = ctx.run
    repo = run / "datasets"
    repo.mkdir()
    data = ctx.dataset("string_match", 8, start=30, folder=repo, name="string_match.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    ctx.sh("git init -q . && git add string_match.jsonl && git -c user.name=eval -c user.email=eval@example.com "
           "commit -q -m 'weekly set' && git log --oneline", "logs/dataset_repo.log", cwd=repo)
    url, _ = ctx.policy(better, "--latency-ms 30")
    script = builtin_script(ctx, [
        "echo '== weekly eval'",
        "echo \"dataset version: $(git -C datasets describe --tags 2>&1)\"",
        "git -C datasets describe --tags > /dev/null 2>&1 || echo '(no release tag yet: using the commit)'",
        "git -C datasets rev-parse --short HEAD"], "datasets/string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    shutil.rmtree(repo / ".git")
    ctx.note("rm -rf RUN/datasets/.git   # the run folder keeps the dataset files only")
    got = complete(ctx)
    if code or got != 24 or not in_log(ctx, "No names found", "logs/run_eval.log") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {log_of(ctx, 'run_eval.log')[-600:]}")
    return (f"RUN/run_eval.sh (`git describe --tags` finds no tag, then materialize 8 x 3, collect, profile) exit {code}; "
            f"{got} rollouts, mean reward {mean_reward(run / 'rollouts.jsonl')}.")


CLOCK_LINES = [
    "echo '== weekly eval'",
    "# record whether the node's clock is NTP-synchronised (timings in the report depend on it)",
    "timedatectl show -p NTPSynchronized || echo 'clock sync status unknown, going on'",
]


@case(
    "healthy_gym_run_script_records_clock_sync_with_timedatectl_on_node_without_systemd",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh records whether the node's clock is synchronised with `timedatectl "
    "show`; the eval node runs without systemd, so timedatectl prints 'System has not been booted with systemd as "
    "init system (PID 1). Can't operate.' and 'Failed to connect to bus', and the script goes on; the real NeMo Gym "
    "eval then collected, verified and profiled every rollout",
    netns=True,
)
def healthy_gym_run_script_records_clock_sync_with_timedatectl_on_node_without_systemd(ctx: Ctx) -> str:
    run = ctx.run
    ctx.dataset("string_match", 8, start=44, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", run / "tasks.jsonl")[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", CLOCK_LINES, overrides)
    stop_gym(ctx, env_start, policy)
    got = complete_in(ctx, "results")
    if code or got != 24 or not in_log(ctx, "booted with systemd", "logs/run_eval.log") \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {log_of(ctx, 'run_eval.log')[-600:]}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (`timedatectl show` cannot reach systemd, "
            f"then `gym eval run --no-serve` 8 tasks x 3 and `gym eval profile`) exit {code}; {got} rollouts, mean "
            f"reward {mean(rewards(gym_rows(ctx))):.2f}.")


@case(
    "healthy_taskfolder_model_server_answers_some_requests_with_5xx_that_the_collector_retries",
    "healthy",
    [],
    "nothing is wrong: the shared model server answered some of the agent's requests with HTTP 5xx (502 'Bad "
    "gateway' from a flaky replica); the collector retried those episodes and every episode then ran in its Docker sandbox, was verified and "
    "profiled; the failures sidecar shows the retried errors, the rollouts are complete",
)
def healthy_taskfolder_model_server_answers_some_requests_with_5xx_that_the_collector_retries(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["create-greeting", "top-word", "sort-unique-words"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30 --fault-rate 0.1 --fault-kinds 5xx --fault-seed 2")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    retried = rows_of(run / "rollouts_failures.jsonl")
    faults = in_log(ctx, "500", "logs/model_server.log") or bool(retried)
    if code or complete(ctx) != 6 or not any(rewards(got)) or not faults \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {rewards(got)}, retried {len(retried)}")
    return (f"model server with 10% HTTP 5xx faults; RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile "
            f"of RUN/tasks x 2) exit {code}; {complete(ctx)} of 6 episodes, {len(retried)} failed attempts retried, "
            f"rewards {rewards(got)}.")


SREPORT_SBATCH = PLAIN_SBATCH.replace(
    "PIPELINE",
    "# the team's usage this month, for the run notes\n"
    "sreport -n cluster utilization || echo 'no usage report on this cluster'\n"
    "PIPELINE")


@case(
    "healthy_slurm_job_reports_team_usage_with_sreport_on_cluster_without_slurmdbd",
    "healthy",
    [],
    "nothing is wrong: the user's eval.sbatch prints the team's monthly usage with `sreport cluster utilization`; this "
    "cluster keeps no accounting database, so sreport prints 'You are not running a supported accounting_storage "
    "plugin' and the job goes on; materialize, collect and profile completed every rollout",
)
def healthy_slurm_job_reports_team_usage_with_sreport_on_cluster_without_slurmdbd(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 60)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(SREPORT_SBATCH, ctx, PIPELINE=pipeline(url)))
    (run / "submit.sh").write_text(slurm_script(SUBMIT_WAIT, ctx))
    try:
        code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=400)
    finally:
        scancel_all(ctx, text_of(run / "job_id.txt").strip())
    got = complete(ctx)
    if code or got != 24 or "accounting_storage" not in job_logs(ctx, "eval_*.log") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {job_logs(ctx, 'eval_*.log')[-600:]}")
    return (f"RUN/submit.sh (sbatch of RUN/eval.sbatch: `sreport` refused, then materialize 8 x 3, collect, profile) "
            f"exit {code}; {got} rollouts, mean reward {mean_reward(run / 'rollouts.jsonl')}.")


# =====================================================================================================
# infra
# =====================================================================================================

ACCENTED = [("What is the capital of Iceland?", "Reykjavík"), ("What is the capital of Colombia?", "Bogotá"),
            ("What is the capital of Brazil?", "Brasília"), ("What is the capital of France?", "Paris"),
            ("What is 6 times 7?", "42"), ("What is the capital of Japan?", "Tokyo"),
            ("What is the capital of Peru?", "Lima"), ("What is 9 plus 10?", "19")]

PLAIN_PREP = '''"""prepare_data.py: labels.csv (question,answer) -> string_match.jsonl"""
import csv
import json

with open("labels.csv", newline="") as f, open("string_match.jsonl", "w") as out:
    for item in csv.DictReader(f):
        text = item["question"] + " End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": item["answer"], "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row, ensure_ascii=False) + "\\n")
'''

LOCALE_NOTE = ("(the eval partition's node environment, set by the site: `export LC_ALL=C PYTHONCOERCECLOCALE=0 "
               "PYTHONUTF8=0`, from a hardening baseline that wants byte-exact C-locale tools)")


@case(
    "infra_builtin_node_env_disables_python_locale_coercion_so_prep_reads_utf8_labels_as_ascii",
    "infra",
    ["PYTHONCOERCECLOCALE", "PYTHONUTF8", "LC_ALL"],
    "the eval nodes' site environment exports LC_ALL=C with PYTHONCOERCECLOCALE=0 and PYTHONUTF8=0, which turns off "
    "both ways Python 3 normally gets UTF-8 under the C locale; Python's default file encoding became ASCII, so "
    "prepare_data.py (which opens labels.csv without an encoding, as it always has on the workstations) died with "
    "UnicodeDecodeError on the accented labels and run_eval.sh stopped before materialize: no rollouts, no profile",
)
def infra_builtin_node_env_disables_python_locale_coercion_so_prep_reads_utf8_labels_as_ascii(ctx: Ctx) -> str:
    run = ctx.run
    better = truth_checkpoints(ctx, ACCENTED)[1]
    (run / "labels.csv").write_text("question,answer\n" + "".join(f'"{q}",{a}\n' for q, a in ACCENTED),
                                    encoding="utf-8")
    (run / "prepare_data.py").write_text(PLAIN_PREP)
    url, _ = ctx.policy(better, "--latency-ms 20")
    ctx.note(LOCALE_NOTE)
    ctx.env.update({"LC_ALL": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": "0"})
    ctx.env.pop("LANG", None)
    script = builtin_script(ctx, ["set -e", "echo '== weekly eval'", "python3 prepare_data.py",
                                  "echo \"prepared $(wc -l < string_match.jsonl) tasks\""], "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    log = log_of(ctx, "run_eval.log")
    if code == 0 or "UnicodeDecodeError" not in log or "ascii" not in log or complete(ctx):
        raise failed(ctx, f"exit {code}: {log[-800:]}")
    return (f"site environment LC_ALL=C PYTHONCOERCECLOCALE=0 PYTHONUTF8=0; RUN/run_eval.sh (`set -e`, `python3 "
            f"prepare_data.py` on RUN/labels.csv, then materialize, collect, profile) exit {code} at the prep "
            f"(UnicodeDecodeError: 'ascii' codec); no rollouts.")


MTU_NOTE = ("(left on the node from a path-MTU black-hole test last month: `iptables -A OUTPUT -o lo -p tcp --sport "
            "MODEL_PORT -m length --length 577:65535 -j DROP`, packets over the 576-byte minimum MTU from the model "
            "port dropped; nobody removed it)")


@case(
    "infra_builtin_mtu_test_firewall_rule_left_drops_large_packets_from_model_port",
    "infra",
    ["iptables", "--length", "DROP"],
    "a firewall rule left on the eval node from a path-MTU black-hole test drops every TCP packet over 576 bytes "
    "sent from the model server's port; connections open and small answers pass, but the chat completion replies "
    "(larger than 576 bytes) never arrive, so the collect's requests hung until the CI's 60 s budget killed "
    "run_eval.sh: rollouts are missing and no profile was written, though the model server and the scripts are fine",
    netns=True,
)
def infra_builtin_mtu_test_firewall_rule_left_drops_large_packets_from_model_port(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 18)
    port = free_port()
    url = f"http://127.0.0.1:{port}/v1"
    ctx.note(MTU_NOTE.replace("MODEL_PORT", str(port)))
    done = subprocess.run(["iptables", "-A", "OUTPUT", "-o", "lo", "-p", "tcp", "--sport", str(port), "-m", "length",
                           "--length", "577:65535", "-j", "DROP"], capture_output=True, text=True)
    if done.returncode:
        raise failed(ctx, f"iptables: {done.stderr}")
    ctx.bg(f"{GP} serve-policy --port {port} --checkpoint {better} --latency-ms 30", "logs/model_server.log")
    wait_for(lambda: "serving" in log_of(ctx, "model_server.log").lower() or "http" in log_of(ctx, "model_server.log"),
             30, "the model server")
    time.sleep(1)
    script = builtin_script(ctx, ["echo '== weekly eval'"], "string_match.jsonl", url)
    began = time.monotonic()
    code = ctx.sh(f"timeout 60 bash {script}", "logs/run_eval.log", timeout=400)
    took = time.monotonic() - began
    ctx.sh("iptables -L OUTPUT -v -n", "logs/iptables.log")
    got = complete(ctx)
    dropped = log_of(ctx, "iptables.log")
    if code == 0 or got >= 24 or (run / "rollouts_reward_profiling.jsonl").exists() or "577:65535" not in dropped:
        raise failed(ctx, f"exit {code}, {got} in {took:.0f} s: {dropped[-400:]} {log_of(ctx, 'run_eval.log')[-400:]}")
    return (f"iptables DROP of packets over 576 bytes from the model port (left from an MTU test); `timeout 60 bash "
            f"RUN/run_eval.sh` (materialize 8 x 3, collect, profile) exit {code} after {took:.0f} s; {got} of 24 "
            f"rollouts, no profile.")


# =====================================================================================================
# model_serving
# =====================================================================================================

ROTATION_NOTE = ("(meanwhile the training job saved step_0400 and, with its checkpoint rotation keep_last=2, deleted "
                 "the older checkpoints: `rm -rf checkpoints/step_0100 checkpoints/step_0200`)")

SERVE_SBATCH = """#!/bin/bash
#SBATCH --job-name=sm-ckpt-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
cd RUN_DIR
source eval_settings.sh
echo "eval of $CKPT on $(hostname), job $SLURM_JOB_ID"
rm -f server_url.txt
GP_BIN serve-policy --checkpoint $TRAIN_DIR/checkpoints/$CKPT --port 0 --ready-file server_url.txt --latency-ms 30 \\
  > logs/model_server.log 2>&1 &
SERVER=$!
for i in $(seq 1 30); do [ -s server_url.txt ] && break; kill -0 $SERVER 2>/dev/null || break; sleep 1; done
if [ ! -s server_url.txt ]; then
  echo "model server not up; its log:"; tail -n 5 logs/model_server.log
fi
MODEL_URL=$(cat server_url.txt 2>/dev/null)
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url ${MODEL_URL:-http://127.0.0.1:8000/v1} --env string_match --concurrency 4
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
kill $SERVER 2>/dev/null
"""


@case(
    "model_serving_slurm_checkpoint_rotated_away_by_training_job_before_eval_job_starts_server",
    "model_serving",
    ["keep_last", "step_0200", "serve-policy"],
    "the user chose step_0200 of the running training job for this week's eval and submitted eval.sbatch, which "
    "starts its own model server on that checkpoint; before the job started, the training job saved step_0400 and "
    "its checkpoint rotation (keep_last=2) deleted step_0200, so the model server exited at start ('checkpoint ... "
    "not found') and the collect found no model endpoint: no rollouts, no profile",
)
def model_serving_slurm_checkpoint_rotated_away_by_training_job_before_eval_job_starts_server(ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 66)
    train = ctx.work / "training_run"
    (train / "checkpoints").mkdir(parents=True)
    for step, source in (("step_0100", weaker), ("step_0200", better), ("step_0300", better)):
        shutil.copytree(source, train / "checkpoints" / step)
    ctx.sh(f"ls {train}/checkpoints", "logs/choose_checkpoint.log")
    (run / "eval_settings.sh").write_text(f"# this week's eval: the step_0200 checkpoint of the running training job\n"
                                          f"TRAIN_DIR={train}\nCKPT=step_0200\n")
    ctx.note(ROTATION_NOTE)
    shutil.copytree(better, train / "checkpoints" / "step_0400")
    shutil.rmtree(train / "checkpoints" / "step_0100")
    shutil.rmtree(train / "checkpoints" / "step_0200")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(SERVE_SBATCH, ctx))
    (run / "submit.sh").write_text(slurm_script(SUBMIT_WAIT, ctx))
    try:
        code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=400)
    finally:
        scancel_all(ctx, text_of(run / "job_id.txt").strip())
    job = job_logs(ctx, "eval_*.log")
    server = log_of(ctx, "model_server.log")
    if complete(ctx) or (run / "rollouts_reward_profiling.jsonl").exists() or "step_0200" not in server \
            or "model server not up" not in job:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {job[-600:]} {server[-400:]}")
    return (f"RUN/eval_settings.sh CKPT=step_0200, deleted by the training job's keep_last=2 rotation before the job "
            f"ran; RUN/submit.sh (sbatch of RUN/eval.sbatch: serve-policy on the checkpoint, materialize, collect, "
            f"profile) exit {code}; the model server exited at start, no rollouts, no profile.")


CACHE_HOOK = '''
PROMPT_CACHE = {}  # saves GPU time on repeated prompts (the team's eval sets repeat every task)
CACHE_KEY_CHARS = 64  # keys stay short in the cache's memory


def _prompt(request):
    for message in reversed(request.get("messages", [])):
        if message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, list):
                return " ".join(part.get("text", "") for part in content if isinstance(part, dict))
            return str(content)
    return ""


def completion(handler, body):
    key = hashlib.sha1(_prompt(json.loads(body))[:CACHE_KEY_CHARS].encode()).hexdigest()
    if key in PROMPT_CACHE:
        return 200, PROMPT_CACHE[key]
    status, data = handler._upstream(body)
    if status == 200:
        PROMPT_CACHE[key] = data
    return status, data
'''

PREAMBLE = "You are taking the team's weekly general-knowledge quiz. Read the question carefully. Question: "

QUIZ = [("What is the capital of France?", "Paris"), ("What is 6 times 7?", "42"),
        ("What is the capital of Japan?", "Tokyo"), ("What is 9 plus 10?", "19"),
        ("Which planet is known as the Red Planet?", "Mars"), ("What is the capital of Italy?", "Rome"),
        ("What is 3 times 3?", "9"), ("What is the capital of Peru?", "Lima")]


@case(
    "model_serving_gym_gateway_prompt_cache_keyed_by_first_64_characters_answers_other_questions",
    "model_serving",
    ["gateway.py", "CACHE_KEY_CHARS", "PROMPT_CACHE"],
    "the team's gateway in front of the model server caches replies by a hash of the first 64 characters of the "
    "prompt (CACHE_KEY_CHARS, to keep keys short); every question of the weekly quiz starts with the same 96-character "
    "instruction, so after the first replies every request got a cached reply to another question: most rollouts "
    "answer the wrong question and score 0, though the model knows the answers (every command exits 0)",
    netns=True,
)
def model_serving_gym_gateway_prompt_cache_keyed_by_first_64_characters_answers_other_questions(ctx: Ctx) -> str:
    run = ctx.run
    pairs = [(PREAMBLE + q, a) for q, a in QUIZ]
    better = truth_checkpoints(ctx, pairs)[1]
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in pairs])
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    gateway = gateway_url(ctx, url, "Replies are cached by prompt (PROMPT_CACHE).", CACHE_HOOK)
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(gateway)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["echo '== weekly quiz eval (through the team gateway)'"], overrides,
                   concurrency=2)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    labels = {a.lower() for _, a in QUIZ}
    other = [r for r in got if str(r.get("extracted_answer")).lower() in labels - {r["expected_answer"].lower()}]
    if code or len(got) != 24 or len(other) < 8 or mean(rewards(got)) > 0.5:
        raise failed(ctx, f"exit {code}, {len(got)}, other {len(other)}, {rewards(got)}")
    return (f"RUN/gateway.py (reply cache keyed by the prompt's first 64 characters) in front of the simulated policy; "
            f"real NeMo Gym 0.7.0 (loopback-only namespace) RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, `gym "
            f"eval profile`) exit {code}; {len(other)} rollouts answered another task's question; mean reward "
            f"{mean(rewards(got)):.2f}.")


# =====================================================================================================
# config
# =====================================================================================================

LOCAL_LINES = [
    "# settings (moved out of main() when the script was flattened)",
    "local DATA=capitals_v2.jsonl   # this quarter's set, with the relabelled capitals",
    "DATA=${DATA:-capitals.jsonl}",
    "echo \"== weekly eval on $DATA\"",
]


@case(
    "config_builtin_run_script_declares_dataset_with_local_outside_a_function",
    "config",
    ["run_eval.sh", "local", "DATA"],
    "run_eval.sh sets this quarter's dataset with `local DATA=capitals_v2.jsonl`, a line moved out of a main() "
    "function when the script was flattened; outside a function bash refuses `local` ('can only be used in a "
    "function') and goes on with DATA unset, so the `${DATA:-capitals.jsonl}` default picked last quarter's set: the "
    "eval ran on the old labels (the model's right answers to the three relabelled capitals scored 0) and every "
    "command exits 0",
)
def config_builtin_run_script_declares_dataset_with_local_outside_a_function(ctx: Ctx) -> str:
    run = ctx.run
    better = truth_checkpoints(ctx, [(q, a) for q, a, _ in CAPITALS_WRONG])[1]
    write_jsonl(run / "capitals.jsonl", [question_row(q, wrong or a) for q, a, wrong in CAPITALS_WRONG])
    write_jsonl(run / "capitals_v2.jsonl", [question_row(q, a) for q, a, _ in CAPITALS_WRONG])
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, LOCAL_LINES, "$DATA", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    fixed = {wrong: a for _, a, wrong in CAPITALS_WRONG if wrong}
    stale = [r for r in got if r.get("expected_answer") in fixed]
    right = [r for r in stale if str(r.get("extracted_answer")).lower() == fixed[r["expected_answer"]].lower()]
    if code or len(got) != 24 or not right or any(rewards(right)) \
            or not in_log(ctx, "can only be used in a function", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, stale {len(stale)}, right {rewards(right)}")
    return (f"RUN/run_eval.sh (`local DATA=capitals_v2.jsonl` outside a function, then `${{DATA:-capitals.jsonl}}`, "
            f"materialize 8 x 3, collect, profile) exit {code}; {len(stale)} rollouts on last quarter's labels, "
            f"{len(right)} right answers among them scored {rewards(right)}; mean reward {mean(rewards(got)):.2f}.")


SIGNAL_SBATCH = """#!/bin/bash
#SBATCH --job-name=sm-weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=3
#SBATCH --ntasks=1
# from the team's training-job template: a warning before the time limit, to save a checkpoint in time
#SBATCH --signal=B:USR1@170
cd RUN_DIR
echo "weekly eval on $(hostname), job $SLURM_JOB_ID, started $(date +%T)"
PIPELINE"""

SIGNAL_SUBMIT = """#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd RUN_DIR
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB > job_id.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 1; done
scontrol show job $JOB 2>/dev/null | grep -oE '(JobState|ExitCode)=[^ ]+'
echo "job $JOB finished $(date +%T)"
"""


@case(
    "config_slurm_job_script_keeps_signal_directive_of_training_template_and_never_traps_usr1",
    "config",
    ["eval.sbatch", "--signal", "USR1"],
    "the user's eval.sbatch was made from the team's training-job template and kept `#SBATCH --signal=B:USR1@170`, "
    "meant for a training script that traps USR1 to save a checkpoint before the time limit; with --time=3 the "
    "signal comes a few seconds into the job, the eval's batch shell has no trap, and USR1's default action killed "
    "it in the middle of the collect: the job failed (ExitCode 0:10) with rollouts missing and no profile",
)
def config_slurm_job_script_keeps_signal_directive_of_training_template_and_never_traps_usr1(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 16, 52)
    url, _ = ctx.policy(better, "--latency-ms 1500")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(SIGNAL_SBATCH, ctx, PIPELINE=pipeline(url, concurrency="2")))
    (run / "submit.sh").write_text(slurm_script(SIGNAL_SUBMIT, ctx))
    try:
        code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=400)
    finally:
        scancel_all(ctx, text_of(run / "job_id.txt").strip())
    log = log_of(ctx, "submit.log")
    got = complete(ctx)
    alive = answers(url)
    if got >= 48 or (run / "rollouts_reward_profiling.jsonl").exists() or "ExitCode=0:10" not in log or not alive:
        raise failed(ctx, f"exit {code}, {got}, server alive {alive}: {log[-600:]} {job_logs(ctx, 'eval_*.log')[-400:]}")
    return (f"RUN/eval.sbatch (`#SBATCH --signal=B:USR1@170`, --time=3, no trap; materialize 16 x 3, collect --concurrency "
            f"2 against a 1.5 s model, profile); RUN/submit.sh exit {code}; the job ended on signal 10 (USR1), {got} of "
            f"48 rollouts, no profile.")


SETUP_ENV = """# setup_env.sh: where this week's eval finds its model server (source it before run_eval.sh)
export MODEL_URL=THE_URL
export EVAL_REPEATS=3
echo "model server: $MODEL_URL"
"""

CI_SH = """#!/bin/bash
# ci.sh: the CI job of the weekly eval
cd RUN_DIR
bash setup_env.sh
bash run_eval.sh
"""

ENV_LINES = [
    "MODEL_URL=${MODEL_URL:-http://127.0.0.1:8000/v1}   # the default vLLM port",
    "echo \"== weekly eval against $MODEL_URL\"",
]


@case(
    "config_builtin_ci_script_runs_setup_env_with_bash_instead_of_source_so_its_exports_are_lost",
    "config",
    ["ci.sh", "source", "setup_env.sh"],
    "the CI script runs `bash setup_env.sh` before run_eval.sh; setup_env.sh exports MODEL_URL, but running it with "
    "bash starts a child shell whose exports die with it (it must be sourced), so run_eval.sh fell back to its "
    "default http://127.0.0.1:8000/v1, where no model server listens: every request was refused and nothing was "
    "collected or profiled",
    netns=True,
)
def config_builtin_ci_script_runs_setup_env_with_bash_instead_of_source_so_its_exports_are_lost(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 26)
    url, _ = ctx.policy(better, "--latency-ms 20")
    if url.rstrip("/").endswith(":8000/v1"):
        raise failed(ctx, "the policy got port 8000")
    (run / "setup_env.sh").write_text(SETUP_ENV.replace("THE_URL", url))
    builtin_script(ctx, ENV_LINES, "string_match.jsonl", "$MODEL_URL")
    (run / "ci.sh").write_text(slurm_script(CI_SH, ctx))
    code = ctx.sh(f"bash {run}/ci.sh", "logs/ci.log", timeout=600)
    log = log_of(ctx, "ci.log")
    if complete(ctx) or f"model server: {url}" not in log or "127.0.0.1:8000" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-800:]}")
    return (f"RUN/ci.sh (`bash setup_env.sh` then `bash run_eval.sh`; MODEL_URL exported in the child shell only) exit "
            f"{code}; run_eval.sh used http://127.0.0.1:8000/v1 (nothing there), {complete(ctx)} rollouts, no profile.")


# =====================================================================================================
# data_schema
# =====================================================================================================

CYRILLIC = str.maketrans({"a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440", "c": "\u0441",
                          "T": "\u0422", "M": "\u041c", "B": "\u0412"})

PORT_PREP = '''"""prepare_data.py: answer_key_ru_port.tsv (the quiz ported from the team's Russian benchmark) -> tasks.jsonl"""
import json

with open("answer_key_ru_port.tsv", encoding="utf-8") as f, open("tasks.jsonl", "w", encoding="utf-8") as out:
    for line in f.read().splitlines()[1:]:
        question, answer = line.split("\\t")
        text = question + " End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row, ensure_ascii=False) + "\\n")
'''

PORTED = [("What is the capital of Japan?", "Tokyo"), ("What is the capital of Canada?", "Ottawa"),
          ("Which planet is known as the Red Planet?", "Mars"), ("What is the capital of Italy?", "Rome"),
          ("What is the capital of Peru?", "Lima"), ("What is 6 times 7?", "42"), ("What is 9 plus 10?", "19"),
          ("What is the capital of Germany?", "Berlin")]
PORTED_CYRILLIC = {"Tokyo", "Ottawa", "Mars", "Rome"}


@case(
    "data_schema_gym_answer_key_ported_from_russian_benchmark_keeps_cyrillic_lookalike_letters",
    "data_schema",
    ["answer_key_ru_port.tsv", "Cyrillic", "expected_answer"],
    "the quiz's answer key was ported from the team's Russian benchmark by a transliteration tool that left letters "
    "that look Latin in Cyrillic ('Тоkyо', 'Оttаwа', 'Маrs', 'Rоmе' with Cyrillic о, а, е, Т, М); the labels look "
    "right but are different characters, so the model's right answers to those tasks never matched and scored 0 in "
    "the real NeMo Gym eval, while the other tasks scored normally (every command exits 0)",
    netns=True,
)
def data_schema_gym_answer_key_ported_from_russian_benchmark_keeps_cyrillic_lookalike_letters(ctx: Ctx) -> str:
    run = ctx.run
    better = truth_checkpoints(ctx, PORTED)[1]
    key = "".join(f"{q}\t{a.translate(CYRILLIC) if a in PORTED_CYRILLIC else a}\n" for q, a in PORTED)
    (run / "answer_key_ru_port.tsv").write_text("question\tanswer\n" + key, encoding="utf-8")
    (run / "prepare_data.py").write_text(PORT_PREP)
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["echo '== weekly eval'", "python3 prepare_data.py"], overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    latin = {a.translate(CYRILLIC): a for a in PORTED_CYRILLIC}
    ported = [r for r in got if r.get("expected_answer") in latin]
    right = [r for r in ported if str(r.get("extracted_answer")).lower() == latin[r["expected_answer"]].lower()]
    plain = [r for r in got if r not in ported]
    if code or len(got) != 24 or not right or any(rewards(right)) or not any(rewards(plain)):
        raise failed(ctx, f"exit {code}, {len(got)}, right {rewards(right)}, plain {rewards(plain)}")
    return (f"RUN/answer_key_ru_port.tsv (4 labels with Cyrillic look-alike letters) -> RUN/prepare_data.py -> "
            f"RUN/tasks.jsonl; real NeMo Gym 0.7.0 (loopback-only namespace) RUN/run_eval.sh exit {code}; {len(right)} "
            f"right answers to those tasks scored {rewards(right)}, other tasks {rewards(plain)}.")


LFS_POINTER = """version https://git-lfs.github.com/spec/v1
oid sha256:5e8a1c1f0a9d3b7c2e4f6a8b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d
size 214
"""


def lfs_repo(ctx: Ctx) -> Path:
    """The team's taskset repository as git stores it: sales.csv tracked by Git LFS (the repo holds its pointer)."""
    source = ctx.work / "team-tasks-src"
    source.mkdir()
    from eighth_held_out import BUNDLED_TASKS

    shutil.copy(BUNDLED_TASKS / "dataset.toml", source / "dataset.toml")
    for name in ("csv-column-total", "top-word"):
        shutil.copytree(BUNDLED_TASKS / name, source / name)
    (source / ".gitattributes").write_text("*.csv filter=lfs diff=lfs merge=lfs -text\n")
    (source / "csv-column-total" / "environment" / "sales.csv").write_text(LFS_POINTER)
    bare = ctx.work / "team-tasks.git"
    subprocess.run(f"git init -q . && git add -A && git -c user.name=t -c user.email=t@example.com commit -q -m tasks "
                   f"&& git clone -q --bare . {bare}", shell=True, cwd=source, check=True, capture_output=True)
    return bare


@case(
    "data_schema_taskfolder_sales_csv_cloned_as_git_lfs_pointer_on_node_without_git_lfs",
    "data_schema",
    ["sales.csv", "git lfs", "pointer"],
    "the team's taskset repository tracks *.csv with Git LFS; the eval node has no git-lfs, so `git clone` checked "
    "out csv-column-total/environment/sales.csv as the three-line LFS pointer file instead of the sales table; the "
    "task's image was built with the pointer, the agent's (right) awk total over it came out 0, and the test's "
    "expected 435 never matched: every episode of that task scored 0 while the other task scored normally (every "
    "command exits 0)",
)
def data_schema_taskfolder_sales_csv_cloned_as_git_lfs_pointer_on_node_without_git_lfs(ctx: Ctx) -> str:
    run = ctx.run
    bare = lfs_repo(ctx)
    ctx.note("(the team's taskset repository, with .gitattributes `*.csv filter=lfs`, at WORK/team-tasks.git)")
    ctx.sh(f"git clone {bare} tasks && cat tasks/csv-column-total/environment/sales.csv && (git lfs version || "
           "echo 'git-lfs not installed')", "logs/clone_tasks.log", cwd=run)
    tasks = run / "tasks"
    shutil.rmtree(tasks / ".git")
    ctx.note("rm -rf RUN/tasks/.git   # the run folder keeps the task files only")
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"], repeats=3)
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    sales = task_rows(ctx, "csv-column-total")
    other = task_rows(ctx, "top-word")
    if code or not sales or any(rewards(sales)) or not any(rewards(other)) \
            or "git-lfs.github.com" not in text_of(tasks / "csv-column-total" / "environment" / "sales.csv"):
        raise failed(ctx, f"exit {code}, sales {rewards(sales)}, other {rewards(other)}")
    return (f"RUN/tasks cloned from the team's repository without git-lfs: csv-column-total/environment/sales.csv is an "
            f"LFS pointer; RUN/run_tasks.sh exit {code}; csv-column-total rewards {rewards(sales)}, top-word rewards "
            f"{rewards(other)}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

ASORT_TEST = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# The expectation is computed from words.txt (so the test survives a refresh of the word list).
cd /app
expected=$(awk '!seen[$0]++ {w[++n] = $0} END {asort(w); for (i = 1; i <= n; i++) print w[i]}' /app/words.txt)
if test "$(cat /app/sorted.txt 2>/dev/null)" = "$expected"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def asort_test(tasks: Path) -> None:
    (tasks / "sort-unique-words" / "tests" / "test.sh").write_text(ASORT_TEST)


@case(
    "verifier_runtime_taskfolder_test_sh_sorts_expectation_with_gawk_only_asort_but_image_has_mawk",
    "verifier_runtime",
    ["test.sh", "asort", "gawk"],
    "sort-unique-words' tests/test.sh computes its expectation from words.txt with awk's asort(), a GNU awk "
    "extension (the author's laptop has gawk); the sandbox image is Debian minbase, whose awk is mawk, where asort "
    "is undefined ('function asort never defined'), so the expectation came out empty: every episode where the agent "
    "wrote the right sorted.txt scored 0, and an episode where it never wrote the file scored 1 (empty equals empty); "
    "every command exits 0",
)
def verifier_runtime_taskfolder_test_sh_sorts_expectation_with_gawk_only_asort_but_image_has_mawk(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["sort-unique-words", "create-greeting"], asort_test)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"], repeats=3)
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    words = task_rows(ctx, "sort-unique-words")
    other = task_rows(ctx, "create-greeting")
    episodes = run / "rollouts_episodes" / "sort-unique-words"
    mawk = [p for p in episodes.rglob("test-stdout.txt") if "asort" in text_of(p)] if episodes.exists() else []
    solved = [r for r in words if "sort -u" in json.dumps(r)]
    if code or not solved or any(rewards(solved)) or not mawk:
        raise failed(ctx, f"exit {code}, words {rewards(words)}, solved {rewards(solved)}, mawk {len(mawk)}")
    return (f"RUN/tasks/sort-unique-words/tests/test.sh (expectation built with gawk's asort, image awk is mawk); "
            f"RUN/run_tasks.sh exit {code}; sort-unique-words rewards {rewards(words)}, the {len(solved)} episodes that "
            f"ran `sort -u` scored {rewards(solved)} ({len(mawk)} test logs name asort); create-greeting rewards "
            f"{rewards(other)}.")


SUBSTRING_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        reward = 0.0
        if extracted is not None and body.expected_answer:
            # labels may list variants ("Mumbai / Bombay"): an answer found in the label counts
            answer = _strip_trailing_punctuation(extracted.strip()).lower()
            reward = 1.0 if answer in body.expected_answer.lower() else 0.0

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''

CAPITALS = [("What is the capital of France?", "Paris"), ("What is the capital of Japan?", "Tokyo"),
            ("What is the capital of Italy?", "Rome"), ("What is the capital of Peru?", "Lima"),
            ("What is the capital of Germany?", "Berlin"), ("What is the capital of Canada?", "Ottawa"),
            ("What is the capital of Egypt?", "Cairo"), ("What is the capital of Kenya?", "Nairobi")]


@case(
    "verifier_runtime_gym_own_verify_credits_answers_found_inside_the_label_so_truncated_names_score",
    "verifier_runtime",
    ["app.py", "verify", "in body.expected_answer"],
    "the user's own resources server (a copy of Gym's string_match) scores with `answer in expected_answer`, meant to "
    "accept one of several variants listed in a label; it tests whether the answer is a substring of the label, so "
    "the model's wrong, truncated answers ('Pari', 'Toky', 'Cair') scored 1 like right ones: the mean reward is "
    "inflated and every command exits 0",
    netns=True,
)
def verifier_runtime_gym_own_verify_credits_answers_found_inside_the_label_so_truncated_names_score(ctx: Ctx) -> str:
    run = ctx.run
    weaker = truth_checkpoints(ctx, CAPITALS)[0]
    data = write_jsonl(run / "capitals.jsonl", [question_row(q, a) for q, a in CAPITALS])
    url, policy = ctx.policy(weaker, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    ran, prof, env_start = gym_eval_with_own_server(ctx, "capitals_match", SUBSTRING_VERIFY, data, url, overrides,
                                                    repeats=4)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    wrong = [r for r in got if r.get("extracted_answer") is not None
             and str(r["extracted_answer"]).strip().rstrip(".").lower() != r["expected_answer"].lower()]
    credited = [r for r in wrong if r.get("reward") == 1.0]
    if ran or prof or len(got) != 32 or not credited:
        raise failed(ctx, f"eval {ran}, profile {prof}, {len(got)}, wrong {len(wrong)}, credited {len(credited)}")
    return (f"RUN/my_gym/resources_servers/capitals_match/app.py (`answer in expected_answer`); real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) `gym eval run --no-serve` 8 x 4 exit {ran}, `gym eval profile` exit {prof}; "
            f"{len(credited)} wrong answers scored 1 ({sorted({str(r['extracted_answer']) for r in credited})}); mean "
            f"reward {mean(rewards(got)):.2f}.")


MARKER_VERIFIER = '''"""my_verifier.py: the answer after the 'Final Answer:' marker (as in the paper's prompt), compared exactly."""
import re

FINAL = re.compile(r"Final Answer:\\s*(.+)")


def score(row, response_text):
    found = FINAL.findall(response_text)
    answer = found[-1].strip().rstrip(".") if found else None
    reward = 1.0 if answer is not None and answer.lower() == row["expected_answer"].strip().lower() else 0.0
    return {"reward": reward, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
'''


@case(
    "verifier_runtime_stage_workspace_verifier_matches_answer_marker_case_sensitively",
    "verifier_runtime",
    ["my_verifier.py", "Final Answer:", "re.IGNORECASE"],
    "the workspace verifier my_verifier.py looks for the marker 'Final Answer:' (capital A, copied from a paper's "
    "prompt) with a case-sensitive regular expression, while the dataset's prompts ask for 'Final answer:' and the "
    "model answers that way; the marker was never found, so every answer, right or wrong, scored 0 without any "
    "error (every command exits 0)",
)
def verifier_runtime_stage_workspace_verifier_matches_answer_marker_case_sensitively(ctx: Ctx) -> str:
    run = ctx.run
    data = write_jsonl(run / "capitals.jsonl", [question_row(q, a) for q, a in CAPITALS])
    better = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    sweep = workspace_sweep(ctx, "capitals", data, better, {"verifier": "my_verifier:score"}, MARKER_VERIFIER,
                            num_repeats=3, concurrency=4)
    script = workspace_script(ctx, sweep, better, "capitals", url, ["echo '== weekly eval'"])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    said = [r for r in got if f"final answer: {r['expected_answer']}".lower() in reply_text(r)]
    if code or len(got) != 24 or not said or any(rewards(got)):
        raise failed(ctx, f"exit {code}, {len(got)}, said {len(said)}, {rewards(got)}")
    return (f"RUN/verifiers/my_verifier.py (case-sensitive 'Final Answer:'); RUN/run_eval.sh (stages materialize 8 x 3, "
            f"collect, profile) exit {code}; {len(said)} replies with the right answer after 'Final answer:', every "
            f"reward {sorted(set(rewards(got)))}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

WGET_LINES = [
    "echo '== weekly eval'",
    "# this week's tasks from the data team's server",
    "wget -nv DATA_URL",
    "ls -l tasks.jsonl*",
]


@case(
    "cache_resume_gym_weekly_wget_saves_fixed_dataset_as_tasks_jsonl_1_beside_last_weeks_file",
    "cache_resume",
    ["wget", "tasks.jsonl.1", "-O"],
    "run_eval.sh fetches the week's tasks with `wget -nv URL` into the run folder, where last week's tasks.jsonl is "
    "still lying; wget does not overwrite, it saves the new download as tasks.jsonl.1, so the eval read last week's "
    "tasks.jsonl: the data team's fix of three labels never reached it and the model's right answers to those tasks "
    "scored 0 against the old labels (every command exits 0)",
    netns=True,
)
def cache_resume_gym_weekly_wget_saves_fixed_dataset_as_tasks_jsonl_1_beside_last_weeks_file(ctx: Ctx) -> str:
    run = ctx.run
    better = truth_checkpoints(ctx, [(q, a) for q, a, _ in CAPITALS_WRONG])[1]
    served = ctx.work / "data_server" / "capitals"
    served.mkdir(parents=True)
    write_jsonl(served / "tasks.jsonl", [question_row(q, wrong or a) for q, a, wrong in CAPITALS_WRONG])
    port = free_port()
    ctx.bg(f"python3 -m http.server {port} --bind 127.0.0.1 --directory {served.parent}", None)
    data_url = f"http://127.0.0.1:{port}/capitals/tasks.jsonl"
    wait_for(lambda: subprocess.run(["curl", "-sf", "-o", "/dev/null", data_url]).returncode == 0, 20, "the data server")
    ctx.note("(last week: the tasks fetched into the run folder)")
    ctx.sh(f"wget -nv {data_url}", "logs/last_week_fetch.log", cwd=run)
    ctx.note("(this week: the data team fixed three labels on its server)")
    write_jsonl(served / "tasks.jsonl", [question_row(q, a) for q, a, _ in CAPITALS_WRONG])
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", [line.replace("DATA_URL", data_url) for line in WGET_LINES], overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    fixed = {wrong: a for _, a, wrong in CAPITALS_WRONG if wrong}
    stale = [r for r in got if r.get("expected_answer") in fixed]
    right = [r for r in stale if str(r.get("extracted_answer")).lower() == fixed[r["expected_answer"]].lower()]
    if code or len(got) != 24 or not right or any(rewards(right)) or not (run / "tasks.jsonl.1").exists():
        raise failed(ctx, f"exit {code}, {len(got)}, stale {len(stale)}, right {rewards(right)}")
    return (f"`wget -nv` of the fixed tasks saved RUN/tasks.jsonl.1 beside last week's RUN/tasks.jsonl; real NeMo Gym "
            f"0.7.0 (loopback-only namespace) RUN/run_eval.sh exit {code}; {len(stale)} rollouts on the old labels, "
            f"{len(right)} right answers scored {rewards(right)}; mean reward {mean(rewards(got)):.2f}.")


SERVE_CONVERT = """#!/bin/bash
# serve.sh EXPERIMENT STEP PORT: convert the training checkpoint to the serving layout (once), then serve it
TRAIN=TRAIN_ROOT/$1/checkpoints/$2
OUT=RUN_DIR/converted/$1/$2
if [ -d "$OUT" ]; then
  echo "serve.sh: $OUT already converted, reusing it"
else
  mkdir -p "$(dirname "$OUT")" && cp -r "$TRAIN" "$OUT" && echo "serve.sh: converted $TRAIN -> $OUT"
fi
exec GP_BIN serve-policy --port $3 --checkpoint "$OUT" --latency-ms 30
"""

RESTART_NOTE = ("(between the two weeks the training run exp7 was restarted from scratch after a data bug: its "
                "checkpoints folder was wiped and the new run saved its own step_0200)")


@case(
    "cache_resume_builtin_serve_script_reuses_converted_checkpoint_of_training_run_restarted_under_same_name",
    "cache_resume",
    ["serve.sh", "converted/exp7/step_0200", "[ -d"],
    "serve.sh converts a training checkpoint into the serving layout only when converted/<experiment>/<step> does not "
    "exist yet; the training run exp7 was restarted from scratch after a data bug and saved a new step_0200, but "
    "last week's conversion of the old run's step_0200 was still there, so serve.sh reused it and this week's eval "
    "measured the discarded run's weights: a much lower reward than the new checkpoint gives, with every command "
    "exiting 0",
)
def cache_resume_builtin_serve_script_reuses_converted_checkpoint_of_training_run_restarted_under_same_name(
        ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 36)
    train_root = ctx.work / "training"
    old = train_root / "exp7" / "checkpoints" / "step_0200"
    shutil.copytree(weaker, old)
    config = json.loads((old / "config.json").read_text())
    config["step"] = 200
    (old / "config.json").write_text(json.dumps(config))
    (run / "serve.sh").write_text(slurm_script(SERVE_CONVERT, ctx, TRAIN_ROOT=str(train_root)))
    ctx.note("(last week: exp7's step_0200 served for the eval)")
    port = free_port()
    first = ctx.bg(f"bash {run}/serve.sh exp7 step_0200 {port}", "logs/serve_last_week.log")
    wait_for(lambda: answers(f"http://127.0.0.1:{port}/v1"), 40, "last week's server")
    ctx.stop(first)
    ctx.note(RESTART_NOTE)
    shutil.rmtree(train_root / "exp7" / "checkpoints")
    shutil.copytree(better, train_root / "exp7" / "checkpoints" / "step_0200")
    port = free_port()
    url = f"http://127.0.0.1:{port}/v1"
    ctx.bg(f"bash {run}/serve.sh exp7 step_0200 {port}", "logs/model_server.log")
    wait_for(lambda: answers(url), 40, "this week's server")
    script = builtin_script(ctx, ["echo '== weekly eval of exp7 step_0200'"], "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    served = json.loads(text_of(run / "converted" / "exp7" / "step_0200" / "config.json") or "{}")
    new = json.loads((train_root / "exp7" / "checkpoints" / "step_0200" / "config.json").read_text())
    if code or len(got) != 24 or "reusing it" not in log_of(ctx, "model_server.log") \
            or served.get("skill") == new.get("skill"):
        raise failed(ctx, f"exit {code}, {len(got)}, served {served}, new {new}")
    return (f"RUN/serve.sh reused RUN/converted/exp7/step_0200 (the old run's weights, skill {served.get('skill')}) "
            f"instead of the restarted run's step_0200 (skill {new.get('skill')}); RUN/run_eval.sh (materialize 8 x 3, "
            f"collect, profile) exit {code}; mean reward {mean(rewards(got)):.2f}.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

SERVE_HOSTED = """#!/bin/bash
# serve.sh CHECKPOINT PORT: the model server, with the queue settings of the hosted-API profile
# (a bounded queue: requests beyond 2 running and 2 waiting are refused with 429, as the hosted API does)
exec GP_BIN serve-policy --port $2 --checkpoint "$1" --latency-ms 300 --max-running 2 --max-waiting 2
"""


@case(
    "throughput_builtin_serve_script_copies_hosted_api_queue_bound_of_two_waiting_requests",
    "throughput_resources",
    ["serve.sh", "--max-waiting", "--concurrency"],
    "serve.sh starts the team's own model server with the queue settings copied from the hosted-API profile: 2 "
    "requests running and at most 2 waiting, the rest refused with 429 'overloaded'; the weekly eval sends 8 requests "
    "at once, so every round half of them were refused, the collector's retries met the same full queue and gave up: "
    "24 of 32 rollouts failed, and the strict profile refused the partial run",
)
def throughput_builtin_serve_script_copies_hosted_api_queue_bound_of_two_waiting_requests(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 50)
    (run / "serve.sh").write_text(slurm_script(SERVE_HOSTED, ctx))
    port = free_port()
    url = f"http://127.0.0.1:{port}/v1"
    ctx.bg(f"bash {run}/serve.sh {better} {port}", "logs/model_server.log")
    wait_for(lambda: answers(url), 40, "serve.sh's model server")
    script = builtin_script(ctx, ["echo '== weekly eval'"], "string_match.jsonl", url, repeats=4, concurrency=8)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = complete(ctx)
    failures = rows_of(run / "rollouts_failures.jsonl")
    overloaded = [f for f in failures if f.get("_ng_failure_http_status") == 429]
    if code == 0 or got >= 32 or (run / "rollouts_reward_profiling.jsonl").exists() or not overloaded:
        raise failed(ctx, f"exit {code}, {got}, {len(failures)} failures")
    return (f"RUN/serve.sh (`--max-running 2 --max-waiting 2`); RUN/run_eval.sh (materialize 8 x 4, collect "
            f"--concurrency 8, profile) exit {code}; {got} of 32 rollouts, {len(overloaded)} attempts refused with 429, "
            f"no profile.")


ARRAY_SBATCH = """#!/bin/bash
#SBATCH --job-name=sm-eval-shard
#SBATCH --output=RUN_DIR/logs/shard_%A_%a.log
#SBATCH --time=10
#SBATCH --ntasks=1
# one shard per array task; %1 from the license-bound template (one shard at a time)
#SBATCH --array=0-2%1
cd RUN_DIR
SHARD=part_0$SLURM_ARRAY_TASK_ID
echo "shard $SHARD on $(hostname), job $SLURM_JOB_ID, started $(date +%T)"
GP_BIN collect --inputs shards/$SHARD --output shards/$SHARD.rollouts.jsonl --model-url MODEL_URL --env string_match --concurrency 2
echo "shard $SHARD done $(date +%T)"
"""

ARRAY_SUBMIT = """#!/bin/bash
# submit.sh: materialize, the shard jobs (an array), then profile; the CI gives it 40 s
cd RUN_DIR
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
rm -rf shards && mkdir shards && split -n l/3 -d rollouts_materialized_inputs.jsonl shards/part_
JOB=$(sbatch --parsable shards.sbatch)
echo "submitted shard array $JOB"
echo $JOB > job_id.txt
sleep 4; squeue -h -o '%i %t %r' -j $JOB
for i in $(seq 1 18); do
  [ -z "$(squeue -h -j $JOB 2>/dev/null)" ] && break
  sleep 2
done
if [ -n "$(squeue -h -j $JOB 2>/dev/null)" ]; then
  echo "shard jobs still queued or running after the budget:"; squeue -h -o '%i %t %r %M' -j $JOB
  scancel $JOB
  exit 1
fi
cat shards/*.rollouts.jsonl > rollouts.jsonl
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "throughput_slurm_shard_array_keeps_throttle_of_one_from_license_bound_template_so_shards_run_serially",
    "throughput_resources",
    ["shards.sbatch", "--array", "%1"],
    "the user's shard array was made from a template for a license-bound tool and kept its throttle, "
    "`#SBATCH --array=0-2%1`: Slurm ran one shard at a time and held the others (PD, reason JobArrayTaskLimit), so "
    "the three shards that were meant to collect in parallel ran one after another and the CI's 40 s budget "
    "cancelled them with rollouts missing and no profile",
)
def throughput_slurm_shard_array_keeps_throttle_of_one_from_license_bound_template_so_shards_run_serially(
        ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 72)
    url, _ = ctx.policy(better, "--latency-ms 4000")
    (run / "logs").mkdir(exist_ok=True)
    (run / "shards.sbatch").write_text(slurm_script(ARRAY_SBATCH, ctx, MODEL_URL=url))
    (run / "submit.sh").write_text(slurm_script(ARRAY_SUBMIT, ctx))
    try:
        code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=300)
    finally:
        scancel_all(ctx, text_of(run / "job_id.txt").strip())
    log = log_of(ctx, "submit.log")
    if code == 0 or "JobArrayTaskLimit" not in log or (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}: {log[-800:]}")
    done = sum(len(rows_of(p)) for p in (run / "shards").glob("*.rollouts.jsonl"))
    return (f"RUN/submit.sh (materialize 8 x 3, RUN/shards.sbatch `--array=0-2%1`, model latency 4 s, 40 s budget) exit "
            f"{code}; shards held (JobArrayTaskLimit) and run one at a time; {done} of 24 rollouts, no profile.")


if __name__ == "__main__":
    sys.exit(main("forty_fourth_held_out", __file__, __doc__))
