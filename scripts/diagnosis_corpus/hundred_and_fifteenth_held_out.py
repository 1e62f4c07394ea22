"""Build the HUNDRED-AND-FIFTEENTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/hundred_and_fifteenth_held_out.py --out tests/data/diagnosis_corpus/hundred_and_fifteenth_held_out [--only CASE ...]

This set was written after a hundred and thirteen earlier sets (first_held_out.py ... hundred_and_thirteenth_held_out.py; the
hundred-and-fourteenth was written beside it at the same time), from the guides alone (the NeMo Gym debugging guide, the
reward profiling guide, the task-folder troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without
reading the diagnosis rules, their tests or their results. It is meant to be measured once, by someone else, on
failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
Docker containers the user's scripts start, task-folder (Harbor-format) tasksets, and the user's own shell and
Python tooling, settings, data-preparation scripts and verifiers. The output of every command is captured as a user
would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data,
scripts, settings, verifier code). Each case injects one cause, different in mechanism from those of the 113 earlier
sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not
written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), and PYTHONPATH set to this checkout. Run it from a
foreground shell. Containers it makes are named `h115-...` and removed at the end of their recipe.
"""
from __future__ import annotations

import json
import signal
import sys
import unicodedata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import failed  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_seventh_held_out import task_rewards, week  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from hundred_and_fifth_held_out import reference_mean  # noqa: E402
from ninety_first_held_out import write_task_file  # noqa: E402
from ninety_third_held_out import everything  # noqa: E402
from recipes import BIN, GP, Ctx, case, main, rows_of, wait_for  # noqa: E402
from seventy_first_held_out import docker_collect_script, remove_container  # noqa: E402
from seventy_ninth_held_out import run_eval  # noqa: E402
from sixty_fourth_held_out import mean_of, pipeline_lines  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_sixth_held_out import free_port  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_docker_run_script_probes_cuda_base_image_with_docker_image_inspect_and_falls_back_to_bookworm_so_log_says_no_such_image",
    "healthy",
    [],
    "nothing is wrong: run_eval.sh first asks `docker image inspect gym-pipeline/base:bookworm-cuda12` whether the GPU "
    "image is on this node and otherwise keeps the CPU image; this CPU node has none, so docker prints 'No such image: "
    "gym-pipeline/base:bookworm-cuda12', but the collect container on gym-pipeline/base:bookworm exited 0 and every "
    "rollout was collected and profiled",
)
def healthy_docker_run_script_probes_cuda_base_image_with_docker_image_inspect_and_falls_back_to_bookworm_so_log_says_no_such_image(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 0)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h115-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, "", "collect runs in the eval container (GPU image when present)")
    head = ("echo '== which base image does this node have?'\n"
            "if docker image inspect gym-pipeline/base:bookworm-cuda12 > /dev/null; then\n"
            "  echo 'GPU image present (not needed for string_match)'\n"
            "else\n"
            "  echo 'no GPU image on this node: using gym-pipeline/base:bookworm'\n"
            "fi\n")
    script.write_text(script.read_text().replace("rm -f rollouts.jsonl", head + "rm -f rollouts.jsonl", 1))
    (run / "logs").mkdir(exist_ok=True)
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or "No such image" not in log or "collect container exit: 0" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (`docker image inspect gym-pipeline/base:bookworm-cuda12` fails, then materialize 6 x 3, "
            f"collect container, profile) exit {code}; {complete(ctx)} of 18 rollouts, mean reward {mean_of(got):.2f}.")


@case(
    "healthy_builtin_run_script_exit_trap_kills_background_jobs_with_kill_of_an_empty_jobs_list_so_bash_prints_kill_usage",
    "healthy",
    [],
    "nothing is wrong: run_eval.sh arms `trap 'kill $(jobs -p)' EXIT` to stop helpers it might leave in the "
    "background; this run started none, so at exit `kill` runs with no argument and bash prints 'kill: usage: kill "
    "[-s sigspec | -n signum | -sigspec] pid | jobspec ...', after materialize, collect and profile completed every "
    "rollout",
)
def healthy_builtin_run_script_exit_trap_kills_background_jobs_with_kill_of_an_empty_jobs_list_so_bash_prints_kill_usage(
        ctx: Ctx) -> str:
    _, (_, better) = builtin_rows(ctx, 6, 6)
    url, _ = ctx.policy(better, "--latency-ms 20")
    body = ("# stop whatever this script left running in the background\ntrap 'kill $(jobs -p)' EXIT\n"
            + pipeline_lines(url) + "echo '== eval finished'\n")
    code = run_eval(ctx, body, "weekly eval")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(ctx.run / "rollouts.jsonl")
    if complete(ctx) != 18 or "kill: usage" not in log or "eval finished" not in log \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (`trap 'kill $(jobs -p)' EXIT`, materialize 6 x 3, collect, profile) exit {code}; "
            f"{complete(ctx)} of 18 rollouts, mean reward {mean_of(got):.2f}.")


def tail_agent_log(tasks: Path) -> None:
    test = tasks / "create-greeting" / "tests" / "test.sh"
    lines = test.read_text().split("\n", 1)
    test.write_text(lines[0] + "\n# for debugging failed episodes: the last lines the agent logged\n"
                    "echo '--- agent log (last 20 lines)'\ntail -n 20 /app/agent.log\n" + lines[1])


@case(
    "healthy_taskfolder_test_sh_shows_tail_of_agent_log_that_this_agent_never_writes_so_every_check_prints_cannot_open",
    "healthy",
    [],
    "nothing is wrong: create-greeting's tests/test.sh first prints the last lines of /app/agent.log for debugging; "
    "the agent used here writes no such log, so every episode prints \"tail: cannot open '/app/agent.log' for "
    "reading: No such file or directory\", but the checks after it ran and wrote the reward, and every episode was "
    "collected, scored and profiled",
)
def healthy_taskfolder_test_sh_shows_tail_of_agent_log_that_this_agent_never_writes_so_every_check_prints_cannot_open(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["count-error-lines", "create-greeting"], edit=tail_agent_log, repeats=4)
    counts, greeting = task_rewards(ctx, "count-error-lines"), task_rewards(ctx, "create-greeting")
    text = everything(ctx)
    if code or complete(ctx) != 8 or not any(counts) or not any(greeting) or "cannot open" not in text \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {counts} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/create-greeting/tests/test.sh (`tail -n 20 /app/agent.log`); RUN/run_tasks.sh "
            f"(`gym-pipeline stage` materialize, collect, profile) exit {code}; {complete(ctx)} episodes, rewards "
            f"{counts} and {greeting}.")


# =====================================================================================================
# infra (Docker)
# =====================================================================================================


@case(
    "infra_docker_collect_container_template_asks_for_gvisor_runsc_runtime_of_the_sandbox_nodes_that_this_nodes_docker_does_not_have",
    "infra",
    ["run_eval.sh", "--runtime=runsc", "runtime", "docker run"],
    "run_eval.sh starts the collect container with `--runtime=runsc`, copied from the template of the sandbox nodes "
    "that run gVisor; this node's docker has no such runtime, so docker refused to create the container ('Unknown "
    "runtime specified runsc', exit 125) and no rollout was collected",
)
def infra_docker_collect_container_template_asks_for_gvisor_runsc_runtime_of_the_sandbox_nodes_that_this_nodes_docker_does_not_have(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 12)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h115-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, "--runtime=runsc",
                                   "collect runs in the eval container (flags from the sandbox nodes' template)")
    (run / "logs").mkdir(exist_ok=True)
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) or "Unknown runtime specified runsc" not in log or "collect container exit: 125" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-2500:]}")
    return (f"RUN/run_eval.sh (`docker run --runtime=runsc ... collect`) exit {code}; collect container exit 125; "
            f"{complete(ctx)} rollouts.")


# =====================================================================================================
# model_serving
# =====================================================================================================

GATEWAY_PY = '''"""gateway.py UPSTREAM PORT: the team's OpenAI-compatible gateway in front of the policy server.

Eval prompts repeat week after week, so completions are cached on disk (gateway_cache.json) to save GPU time.
"""
import hashlib
import json
import os
import sys
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from threading import Lock

UPSTREAM, PORT = sys.argv[1].rstrip("/"), int(sys.argv[2])
CACHE_FILE = "gateway_cache.json"
cache = json.load(open(CACHE_FILE)) if os.path.exists(CACHE_FILE) else {}
lock = Lock()
print(f"gateway: upstream {UPSTREAM}, {len(cache)} cached completions loaded", flush=True)


class Handler(BaseHTTPRequestHandler):
    def forward(self, method, body=None):
        request = urllib.request.Request(UPSTREAM + self.path[len("/v1"):], data=body, method=method,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=120) as answer:
            return answer.status, answer.read()

    def reply(self, status, payload):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def do_GET(self):
        self.reply(*self.forward("GET"))

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        request = json.loads(body)
        # the prompt decides the completion: key on the messages
        key = hashlib.sha256(json.dumps(request.get("messages"), sort_keys=True).encode()).hexdigest()
        with lock:
            hit = cache.get(key)
        if hit is not None:
            self.reply(200, hit.encode())
            return
        status, payload = self.forward("POST", body)
        if status == 200:
            with lock:
                cache[key] = payload.decode()
                json.dump(cache, open(CACHE_FILE, "w"))
        self.reply(status, payload)

    def log_message(self, *args):
        pass


ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
'''


@case(
    "model_serving_builtin_team_gateway_caches_completions_on_disk_keyed_on_messages_only_so_new_checkpoint_gets_last_weeks_answers",
    "model_serving",
    ["gateway.py", "gateway_cache.json", "key", "model"],
    "the team's gateway.py in front of the policy server caches completions on disk (gateway_cache.json) keyed on the "
    "request's messages only, not on the served model or checkpoint; last week's eval of step_0100 filled the cache, "
    "so this week, with the gateway pointed at step_0200, every prompt was answered from the cache with step_0100's "
    "completions and the report shows step_0100's rewards (every command exits 0)",
)
def model_serving_builtin_team_gateway_caches_completions_on_disk_keyed_on_messages_only_so_new_checkpoint_gets_last_weeks_answers(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (older, better) = builtin_rows(ctx, 6, 18)
    old, _ = ctx.policy(older, "--latency-ms 20", log="logs/model_server_step_0100.log")
    new, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server_step_0200.log")
    (run / "gateway.py").write_text(GATEWAY_PY)
    port = free_port()
    gw_url = f"http://127.0.0.1:{port}/v1"

    def gateway(upstream: str, tag: str):
        proc = ctx.bg(f"cd {run} && {BIN}/python gateway.py {upstream} {port}", f"logs/gateway_{tag}.log")
        wait_for(lambda: "cached completions loaded" in log_of(ctx, f"gateway_{tag}.log"), 30, "the gateway")
        import time
        time.sleep(0.5)
        return proc

    gw = gateway(old, "week48")
    first = run_eval(ctx, pipeline_lines(gw_url), "weekly eval of step_0100 through the team gateway",
                     log="logs/run_eval_week48.log")
    ctx.stop(gw, signal.SIGTERM, 10)
    (run / "rollouts.jsonl").rename(run / "rollouts_week48.jsonl")
    gw = gateway(new, "week49")
    code = run_eval(ctx, pipeline_lines(gw_url), "weekly eval of step_0200 through the team gateway",
                    log="logs/run_eval_week49.log")
    ctx.stop(gw, signal.SIGTERM, 10)
    got = rows_of(run / "rollouts.jsonl")
    old_mean, new_mean = reference_mean(ctx, old, "step_0100"), reference_mean(ctx, new, "step_0200")
    if first or code or complete(ctx) != 18 or abs(mean_of(got) - old_mean) > 1e-9 or new_mean - old_mean < 0.1:
        raise failed(ctx, f"exit {first}/{code}, {mean_of(got)} {old_mean} {new_mean}")
    return (f"RUN/gateway.py (disk cache keyed on the messages); week 48 through it to step_0100 exit {first}, week 49 "
            f"to step_0200 exit {code}; rollouts.jsonl mean reward {mean_of(got):.2f} (step_0100 earns "
            f"{old_mean:.2f}, step_0200 {new_mean:.2f}).")


# =====================================================================================================
# config
# =====================================================================================================

SMOKE_DRIVER_PY = '''"""eval.py MODEL_URL [--smoke]: the weekly eval (--smoke: the first 4 questions only, for a quick try)."""
import argparse
import json
import subprocess

GP = "{gp}"
parser = argparse.ArgumentParser()
parser.add_argument("model_url")
parser.add_argument("--smoke", action="store_true", default=True, help="first 4 questions only")
parser.add_argument("--repeats", type=int, default=3)
args = parser.parse_args()

data = "string_match.jsonl"
if args.smoke:
    rows = open(data).readlines()[:4]
    open("smoke.jsonl", "w").writelines(rows)
    data = "smoke.jsonl"
print(f"== {{data}} x {{args.repeats}} against {{args.model_url}}", flush=True)
subprocess.run([GP, "materialize", "--input", data, "--num-repeats", str(args.repeats), "--agent",
                "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
subprocess.run([GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                "--model-url", args.model_url, "--env", "string_match", "--concurrency", "8"], check=True)
subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
               check=True)
print("eval done", flush=True)
'''


@case(
    "config_builtin_python_driver_declares_smoke_flag_store_true_with_default_true_so_every_weekly_eval_runs_four_questions",
    "config",
    ["eval.py", "--smoke", "store_true", "default=True"],
    "eval.py declares `--smoke` with `action=\"store_true\", default=True` (the default was set while debugging), so "
    "the flag can never be off: the weekly run without --smoke still evaluated only smoke.jsonl, the first 4 of "
    "string_match.jsonl's 20 questions (12 rollouts instead of 60; every command exits 0)",
)
def config_builtin_python_driver_declares_smoke_flag_store_true_with_default_true_so_every_weekly_eval_runs_four_questions(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 20, 40)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "eval.py").write_text(SMOKE_DRIVER_PY.format(gp=GP))
    (run / "logs").mkdir(exist_ok=True)
    code = ctx.sh(f"cd {run} && {BIN}/python eval.py {url}", "logs/eval.log", timeout=300)
    log = log_of(ctx, "eval.log")
    if code or complete(ctx) != 12 or "smoke.jsonl x 3" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.py (`--smoke` store_true, default=True) run without --smoke exit {code}; {complete(ctx)} "
            f"rollouts of the 20 x 3 expected.")


# =====================================================================================================
# data_schema
# =====================================================================================================

ACCENTED = [
    ("What is the capital of Brazil?", "Brasília"),
    ("What is the capital of Iceland?", "Reykjavík"),
    ("What is the capital of Colombia?", "Bogotá"),
    ("What is the capital of Australia?", "Canberra"),
    ("What is the chemical symbol for sodium?", "Na"),
    ("Who painted the Mona Lisa?", "Leonardo da Vinci"),
    ("What is the capital of Cameroon?", "Yaoundé"),
    ("What is the largest planet of the solar system?", "Jupiter"),
]

PREP_EXPORT_PY = '''"""prep.py: answer_key.json (exported by the labelling app on the reviewer's Mac) -> string_match.jsonl."""
import json

rows = []
for item in json.load(open("answer_key.json")):
    text = f"{item['question']} End your response with 'Final answer: <answer>'."
    rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                        "content": [{"type": "input_text", "text": text}]}]},
                 "expected_answer": item["answer"].strip(), "extraction_mode": "final_answer"})
with open("string_match.jsonl", "w") as out:
    out.writelines(json.dumps(row, ensure_ascii=False) + "\\n" for row in rows)
print(f"prep: {len(rows)} rows written")
'''


@case(
    "data_schema_builtin_labelling_app_on_mac_exports_answers_in_decomposed_unicode_nfd_so_accented_labels_never_equal_the_models_nfc_answers",
    "data_schema",
    ["prep.py", "answer_key.json", "NFC", "normalize"],
    "the labelling app on the reviewer's Mac exported answer_key.json with its text in decomposed Unicode (NFD: 'í' "
    "stored as 'i' + combining accent), and prep.py copies the answers as they are; the model answers in composed "
    "form (NFC), so every question with an accented answer (Brasília, Reykjavík, Bogotá, Yaoundé) scored 0 although "
    "it was answered right, while the others scored normally (every command exits 0)",
)
def data_schema_builtin_labelling_app_on_mac_exports_answers_in_decomposed_unicode_nfd_so_accented_labels_never_equal_the_models_nfc_answers(
        ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, ACCENTED)
    url, _ = ctx.policy(better, "--latency-ms 20")
    export = [{"question": q, "answer": unicodedata.normalize("NFD", a)} for q, a in ACCENTED]
    (run / "answer_key.json").write_text(json.dumps(export, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    (run / "prep.py").write_text(PREP_EXPORT_PY)
    code = run_eval(ctx, f"{BIN}/python prep.py\n" + pipeline_lines(url), "weekly eval: prep the export, then run")
    got = rows_of(run / "rollouts.jsonl")
    accented = [r for r in got if not str(r.get("expected_answer", "")).isascii()]
    plain = [r for r in got if str(r.get("expected_answer", "")).isascii()]
    if code or complete(ctx) != 24 or len(accented) != 12 or any(rewards(accented)) or not any(rewards(plain)):
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {rewards(accented)} {rewards(plain)}: {got[:1]}")
    return (f"RUN/answer_key.json (answers in NFD); RUN/prep.py; RUN/run_eval.sh exit {code}; {complete(ctx)} "
            f"rollouts, accented-answer rewards {rewards(accented)}, others {rewards(plain)}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================


@case(
    "cache_resume_builtin_run_script_keeps_collect_resume_added_after_a_preemption_so_next_checkpoints_run_skips_every_settled_key",
    "cache_resume",
    ["run_eval.sh", "--resume", "rollouts.jsonl", "collect"],
    "after a preempted run, --resume was added to the collect line of run_eval.sh and kept; this week the script ran "
    "for step_0200 in the same folder, whose rollouts.jsonl still held step_0100's settled rollouts of the same "
    "inputs, so collect skipped every key, step_0200 answered nothing and the profile shows step_0100's rewards "
    "(every command exits 0)",
)
def cache_resume_builtin_run_script_keeps_collect_resume_added_after_a_preemption_so_next_checkpoints_run_skips_every_settled_key(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (older, better) = builtin_rows(ctx, 6, 24)
    old, _ = ctx.policy(older, "--latency-ms 20", log="logs/model_server_step_0100.log")
    new, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server_step_0200.log")

    def body(url: str) -> str:
        return pipeline_lines(url).replace("--concurrency 4", "--concurrency 4 --resume")

    first = run_eval(ctx, body(old), "weekly eval (collect resumes if the job was preempted)",
                     log="logs/run_eval_step_0100.log")
    code = run_eval(ctx, body(new), "weekly eval (collect resumes if the job was preempted)",
                    log="logs/run_eval_step_0200.log")
    got = rows_of(run / "rollouts.jsonl")
    old_mean, new_mean = reference_mean(ctx, old, "step_0100"), reference_mean(ctx, new, "step_0200")
    if first or code or complete(ctx) != 18 or abs(mean_of(got) - old_mean) > 1e-9 or new_mean - old_mean < 0.1:
        raise failed(ctx, f"exit {first}/{code}, {mean_of(got)} {old_mean} {new_mean}: "
                          f"{log_of(ctx, 'run_eval_step_0200.log')[-1500:]}")
    return (f"RUN/run_eval.sh (`collect ... --resume`) for step_0100 exit {first}, then for step_0200 in the same "
            f"folder exit {code}; rollouts.jsonl mean reward {mean_of(got):.2f} (step_0100 earns {old_mean:.2f}, "
            f"step_0200 {new_mean:.2f}).")


# =====================================================================================================
# verifier_runtime (task folder)
# =====================================================================================================

OWNER_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# the greeting must be created by the agent's user, not copied in by root (checked in the devcontainer)
cd /app
owner=$(stat -c %U /app/hello.txt 2>/dev/null)
if test "$(cat /app/hello.txt 2>/dev/null)" = "Hello, Gym!" && test "$owner" = "ubuntu"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL: content '$(cat /app/hello.txt 2>/dev/null)', owner $owner"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def owner_check(tasks: Path) -> None:
    write_task_file(tasks, "create-greeting", "tests/test.sh", OWNER_TEST_SH)


@case(
    "verifier_runtime_taskfolder_test_sh_requires_hello_txt_owned_by_the_authors_devcontainer_user_ubuntu_while_sandbox_agent_runs_as_root",
    "verifier_runtime",
    ["test.sh", "stat -c %U", "ubuntu", "owner"],
    "the author of create-greeting added to tests/test.sh a check that /app/hello.txt is owned by `ubuntu`, the "
    "user of their devcontainer (`stat -c %U`); in the sandbox the agent runs as root, so even the right greeting "
    "fails ('FAIL: content 'Hello, Gym!', owner root'): every create-greeting episode scored 0 while count-error-lines "
    "scored normally (every command exits 0)",
)
def verifier_runtime_taskfolder_test_sh_requires_hello_txt_owned_by_the_authors_devcontainer_user_ubuntu_while_sandbox_agent_runs_as_root(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["count-error-lines", "create-greeting"], edit=owner_check, repeats=4)
    counts, greeting = task_rewards(ctx, "count-error-lines"), task_rewards(ctx, "create-greeting")
    text = everything(ctx)
    if code or complete(ctx) != 8 or not any(counts) or any(greeting) or len(greeting) != 4 \
            or "owner root" not in text:
        raise failed(ctx, f"exit {code}, {counts} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/create-greeting/tests/test.sh (owner must be `ubuntu`); RUN/run_tasks.sh (`gym-pipeline stage` "
            f"materialize, collect, profile) exit {code}; create-greeting rewards {greeting}, count-error-lines "
            f"{counts}.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

LOCKED_GATEWAY_PY = '''"""gateway.py UPSTREAM PORT: the team's OpenAI-compatible gateway in front of the policy server.

Every request is written to gateway_requests.log, one line each, in order.
"""
import hashlib
import sys
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from threading import Lock

UPSTREAM, PORT = sys.argv[1].rstrip("/"), int(sys.argv[2])
lock = Lock()
print(f"gateway: upstream {UPSTREAM}, ready", flush=True)


class Handler(BaseHTTPRequestHandler):
    def forward(self, method, body=None):
        request = urllib.request.Request(UPSTREAM + self.path[len("/v1"):], data=body, method=method,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=120) as answer:
            return answer.status, answer.read()

    def reply(self, status, payload):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def do_GET(self):
        self.reply(*self.forward("GET"))

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        key = hashlib.sha256(body).hexdigest()[:12]
        # one writer at a time, so the request log lines never interleave
        with lock:
            started = time.time()
            status, payload = self.forward("POST", body)
            with open("gateway_requests.log", "a") as log:
                log.write(f"{key} {status} {time.time() - started:.2f}s\\n")
        self.reply(status, payload)

    def log_message(self, *args):
        pass


ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
'''


@case(
    "throughput_resources_builtin_team_gateway_holds_its_log_lock_across_the_upstream_call_so_requests_pass_one_at_a_time_and_ci_timeout_stops_collect",
    "throughput_resources",
    ["gateway.py", "with lock", "forward", "timeout 60"],
    "the team's gateway.py takes its request-log lock around the whole upstream call (`with lock:` wraps "
    "self.forward), so requests pass to the policy server one at a time: collect's 16 in flight waited in line for "
    "the 1.5 s completions and the CI step's `timeout 60` stopped collect (exit 124) with only part of the 20 x 3 "
    "rollouts collected, while the policy server sat mostly idle",
)
def throughput_resources_builtin_team_gateway_holds_its_log_lock_across_the_upstream_call_so_requests_pass_one_at_a_time_and_ci_timeout_stops_collect(
        ctx: Ctx) -> str:
    import time

    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 20, 60)
    url, _ = ctx.policy(better, "--latency-ms 1500")
    (run / "gateway.py").write_text(LOCKED_GATEWAY_PY)
    port = free_port()
    gw = ctx.bg(f"cd {run} && {BIN}/python gateway.py {url} {port}", "logs/gateway.log")
    wait_for(lambda: "ready" in log_of(ctx, "gateway.log"), 30, "the gateway")
    time.sleep(0.5)
    gw_url = f"http://127.0.0.1:{port}/v1"
    body = (f"{GP} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent "
            "--output rollouts_materialized_inputs.jsonl\n"
            f"timeout 60 {GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
            f"--model-url {gw_url} --env string_match --concurrency 16\n"
            "echo \"collect exit: $?\"\n"
            f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    try:
        code = run_eval(ctx, body, "nightly CI eval step through the team gateway (budget: 60 s)")
    finally:
        ctx.stop(gw, signal.SIGTERM, 10)
    log = log_of(ctx, "run_eval.log")
    if "collect exit: 124" not in log or complete(ctx) >= 60:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/gateway.py (`with lock:` around the upstream call); RUN/run_eval.sh (`timeout 60` collect "
            f"--concurrency 16 through the gateway) exit {code}; collect exit 124; {complete(ctx)} of 60 rollouts.")


if __name__ == "__main__":
    sys.exit(main("hundred_and_fifteenth_held_out", __file__, __doc__))
