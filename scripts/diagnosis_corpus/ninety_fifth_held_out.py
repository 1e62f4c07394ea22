"""Build the NINETY-FIFTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/ninety_fifth_held_out.py --out tests/data/diagnosis_corpus/ninety_fifth_held_out [--only CASE ...]

This set was written after the ninety-three earlier sets (first_held_out.py ... ninety_third_held_out.py; the
ninety-fourth was written beside it at the same time), from the guides alone (the NeMo Gym debugging guide, the
reward profiling guide, the task-folder troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without
reading the diagnosis rules, their tests or their results. It is meant to be measured once, by someone else, on
failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `check-stale`,
`stage`), Docker containers the user's scripts start, task-folder (Harbor-format) tasksets, and the user's own shell
and Python tooling, settings, data-preparation scripts and verifiers. The output of every command is captured as a
user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data,
scripts, settings, verifier code). Each case injects one cause, different in mechanism from those of the 93 earlier
sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not
written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), and PYTHONPATH set to this checkout. Run it from a
foreground shell. Containers it makes are named `h95-...` and removed at the end of their recipe.
"""
from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import failed  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_seventh_held_out import task_rewards, week  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from ninety_first_held_out import write_task_file  # noqa: E402
from ninety_third_held_out import everything, labelled  # noqa: E402
from recipes import BIN, GP, Ctx, case, main, rows_of, text_of  # noqa: E402
from seventy_first_held_out import container_python, docker_collect_script, remove_container  # noqa: E402
from seventy_ninth_held_out import run_eval  # noqa: E402
from sixty_fourth_held_out import mean_of, pipeline_lines, question_row  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_first_held_out import write_jsonl  # noqa: E402
from twenty_sixth_held_out import free_port  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# healthy
# =====================================================================================================

NODE_ENV_SH = """# node_env.sh: the eval nodes' environment, copied from the GPU training nodes' profile
export LD_PRELOAD=libjemalloc.so.2
export MALLOC_CONF=background_thread:true,dirty_decay_ms:10000
export OMP_NUM_THREADS=1
"""


@case(
    "healthy_builtin_node_env_preloads_jemalloc_that_this_node_lacks_so_every_process_prints_ld_so_cannot_be_preloaded",
    "healthy",
    [],
    "nothing is wrong: run_eval.sh sources node_env.sh, copied from the GPU training nodes' profile, which exports "
    "LD_PRELOAD=libjemalloc.so.2; jemalloc is not installed on this node, so the dynamic loader prints \"ERROR: "
    "ld.so: object 'libjemalloc.so.2' from LD_PRELOAD cannot be preloaded (cannot open shared object file): "
    "ignored.\" for every program the script starts and runs it with the system allocator: materialize, collect "
    "and profile exited 0 and every rollout was collected and profiled",
)
def healthy_builtin_node_env_preloads_jemalloc_that_this_node_lacks_so_every_process_prints_ld_so_cannot_be_preloaded(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 12)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "node_env.sh").write_text(NODE_ENV_SH)
    code = run_eval(ctx, "source node_env.sh\n" + pipeline_lines(url), "weekly eval with the nodes' environment")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or log.count("cannot be preloaded") < 3 \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/node_env.sh (LD_PRELOAD=libjemalloc.so.2); RUN/run_eval.sh (source it, materialize 6 x 3, collect, "
            f"profile) exit {code}; ld.so warned {log.count('cannot be preloaded')} times; {complete(ctx)} of 18 "
            f"rollouts, mean reward {mean_of(got):.2f}.")


@case(
    "healthy_docker_collect_container_template_publishes_port_8000_that_host_networking_discards_with_a_warning",
    "healthy",
    [],
    "nothing is wrong: the collect container is started with the team's template flags `-p 8000:8000` (from the "
    "serving containers, which expose vLLM) and `--network host`; with host networking there is nothing to publish, "
    "so Docker prints 'WARNING: Published ports are discarded when using host network mode' and starts the container "
    "on the host's network as asked; collect (a client only, it listens on no port) reached the policy server, "
    "exited 0, and every rollout was collected and profiled",
)
def healthy_docker_collect_container_template_publishes_port_8000_that_host_networking_discards_with_a_warning(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 24)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h95-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, "-p 8000:8000", "collect runs in the team's eval container "
                                   "(flags from the serving containers' template)")
    (run / "logs").mkdir(exist_ok=True)
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or "Published ports are discarded" not in log \
            or "collect container exit: 0" not in log or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run --rm -p 8000:8000 --network host ... "
            f"gym-pipeline/base:bookworm python -m gym_pipeline.cli collect`, profile) exit {code}; Docker warned the "
            f"published port is discarded; {complete(ctx)} of 18 rollouts, mean reward {mean_of(got):.2f}.")


FILE_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
# debugging aid: what kind of file did the agent write?
file /app/hello.txt
if test "$(cat /app/hello.txt 2>/dev/null)" = "Hello, Gym!"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def file_probe(tasks: Path) -> None:
    write_task_file(tasks, "create-greeting", "tests/test.sh", FILE_TEST_SH)


@case(
    "healthy_taskfolder_test_sh_logs_type_of_answer_file_with_file_command_the_sandbox_image_does_not_have",
    "healthy",
    [],
    "nothing is wrong: the author of create-greeting added a debugging line `file /app/hello.txt` to tests/test.sh "
    "to log what kind of file the agent wrote; the sandbox image (gym-pipeline/base:bookworm) has no `file` "
    "program, so every verification prints 'file: command not found', and test.sh goes on to its real check, which "
    "does not depend on it: every episode in which the agent wrote the greeting passed (the others are the policy's "
    "usual misses), and every episode was collected, scored and profiled",
)
def healthy_taskfolder_test_sh_logs_type_of_answer_file_with_file_command_the_sandbox_image_does_not_have(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["create-greeting", "count-error-lines"], edit=file_probe, repeats=4)
    greeting, counts = task_rewards(ctx, "create-greeting"), task_rewards(ctx, "count-error-lines")
    text = everything(ctx)
    if code or complete(ctx) != 8 or not any(greeting) or not any(counts) or "command not found" not in text \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {greeting} {counts}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/create-greeting/tests/test.sh (`file /app/hello.txt`, no `file` in the image); "
            f"RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile x 2) exit {code}; {complete(ctx)} "
            f"episodes, rewards {greeting} and {counts}.")


# =====================================================================================================
# infra
# =====================================================================================================

HUNG_SERVER_PY = '''import socket, time
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", {port}))
s.listen(64)
print("accepting on {port}", flush=True)
held = []
while True:
    conn, _ = s.accept()
    held.append(conn)  # never answers
'''


def lock_holder_pid(run: Path) -> int | None:
    try:
        return int(json.loads((run / ".gym_pipeline.lock").read_text().strip("\x00 \n"))["pid"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


@case(
    "infra_builtin_cancelled_ci_job_left_its_collect_running_as_an_orphan_that_still_holds_the_run_folder_lock",
    "infra",
    ["kill", "collect", "pid", "process group"],
    "last week's CI job in the same workspace hung on an unresponsive model server and was cancelled at its time "
    "limit; the runner killed only the job's shell, so its `gym-pipeline collect` was orphaned and kept running (and "
    "holding the run folder's lock, .gym_pipeline.lock); this week's collect was refused at once ('run "
    "directory ... is in use by pid N (gym-pipeline collect ...)', the orphan): nothing was collected although "
    "this week's policy server was up; the leftover collect must be killed (and the runner made to kill the whole "
    "process group)",
)
def infra_builtin_cancelled_ci_job_left_its_collect_running_as_an_orphan_that_still_holds_the_run_folder_lock(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 36)
    (run / "logs").mkdir(exist_ok=True)
    port = free_port()
    hung_py = ctx.work / "hung_server.py"
    hung_py.write_text(HUNG_SERVER_PY.format(port=port))
    ctx.note("(last week: the staging model server hung; it accepts connections and never answers)")
    hung = ctx.bg(f"{BIN}/python {hung_py}", ctx.work / "hung_server.log")
    time.sleep(1.5)
    ctx.note("(last week's CI job in the workspace RUN:)")
    last = run / "run_eval.sh"
    last.write_text(f"#!/bin/bash\n# weekly eval (last week's)\ncd {run}\n"
                    + pipeline_lines(f"http://127.0.0.1:{port}/v1"))
    job = ctx.bg(f"bash {last}", "logs/last_week_run_eval.log")
    deadline = time.time() + 60
    pid = None
    while time.time() < deadline:
        pid = lock_holder_pid(run)
        if pid and "collect" in text_of(Path(f"/proc/{pid}/cmdline")).replace("\x00", " "):
            break
        time.sleep(0.5)
    else:
        ctx.stop(job, signal.SIGKILL)
        ctx.stop(hung, signal.SIGKILL)
        raise failed(ctx, f"last week's collect never took the lock: {log_of(ctx, 'last_week_run_eval.log')[-800:]}")
    time.sleep(3)
    shell = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    ctx.note(f"(the CI job hit its time limit: the runner killed the job's shell, pid {shell}, only)")
    os.kill(shell, signal.SIGKILL)
    time.sleep(1)
    try:
        url, _ = ctx.policy(better, "--latency-ms 20")
        ctx.note("(this week, the same workspace:)")
        script = run / "run_eval.sh"
        script.write_text(f"#!/bin/bash\n# weekly eval\ncd {run}\nrm -f rollouts.jsonl rollouts_failures.jsonl\n"
                          + pipeline_lines(url))
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
        alive = Path(f"/proc/{pid}").exists()
    finally:
        ctx.stop(job, signal.SIGKILL)
        ctx.stop(hung, signal.SIGKILL)
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) or "is in use by pid" not in log or not alive:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, alive {alive}: {log[-1500:]}")
    return (f"RUN/logs/last_week_run_eval.log (last week's job, collect against a hung server, shell killed at the "
            f"time limit); the orphaned collect (pid {pid}) still held RUN/.gym_pipeline.lock; RUN/run_eval.sh "
            f"(materialize 6 x 3, collect, profile) exit {code}; {complete(ctx)} rollouts collected.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

PACED_SH = """# the hosted API allowed 12 requests a minute: send the eval in chunks of 2 tasks (6 requests), 30 s apart
rm -rf chunks && mkdir -p chunks
split -l 2 -d string_match.jsonl chunks/part_
for part in chunks/part_??; do
  mkdir -p $part.d
  {gp} materialize --input $part --num-repeats 3 --agent string_match_simple_agent \\
    --output $part.d/rollouts_materialized_inputs.jsonl
  {gp} collect --inputs $part.d/rollouts_materialized_inputs.jsonl --output $part.d/rollouts.jsonl \\
    --model-url {url} --env string_match --concurrency 4
  echo "$part done; pausing 30 s for the rate limit"
  sleep 30
done
cat chunks/part_??.d/rollouts_materialized_inputs.jsonl > rollouts_materialized_inputs.jsonl
cat chunks/part_??.d/rollouts.jsonl > rollouts.jsonl
{gp} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "throughput_resources_builtin_run_script_paces_requests_in_chunks_with_sleeps_sized_for_hosted_api_rate_limit_past_ci_step_budget",
    "throughput_resources",
    ["run_eval.sh", "sleep 30", "chunks", "rate limit"],
    "run_eval.sh, first written for a hosted API that allowed 12 requests a minute, splits the 10 tasks into chunks "
    "of 2 and sleeps 30 s after each chunk's collect; against the team's own policy server, which has no rate limit, "
    "each chunk is collected in about a second, so the run is almost all sleeping: the CI step's `timeout 75` ended "
    "it (exit 124) with only three of the five chunks collected, before the merge and the profile, so there is no "
    "rollouts.jsonl; the pacing (`sleep 30` between chunks) must go or the step budget must cover it",
)
def throughput_resources_builtin_run_script_paces_requests_in_chunks_with_sleeps_sized_for_hosted_api_rate_limit_past_ci_step_budget(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 10, 72)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text(f"#!/bin/bash\n# weekly eval (the CI step runs it under `timeout 75`)\ncd {run}\n"
                      + PACED_SH.format(gp=GP, url=url))
    (run / "logs").mkdir(exist_ok=True)
    ctx.sh(f"( cd {run} && timeout 75 bash run_eval.sh; echo \"CI step exit: $?\" )", "logs/run_eval.log",
           timeout=200)
    log = log_of(ctx, "run_eval.log")
    done = log.count("pausing 30 s for the rate limit")
    collected = sum(len(rows_of(p)) for p in (run / "chunks").glob("part_*.d/rollouts.jsonl"))
    if "CI step exit: 124" not in log or done != 3 or complete(ctx) or collected != 18:
        raise failed(ctx, f"{done} chunks, {collected}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (10 tasks in chunks of 2, `sleep 30` after each chunk's collect) under `timeout 75`: CI "
            f"step exit 124 after {done} chunks ({collected} rollouts in RUN/chunks/*.d), no merged rollouts.jsonl.")


# =====================================================================================================
# config (built-in)
# =====================================================================================================

SMOKE_SH = """# SMOKE=1 for a quick check of the pipeline (one repeat); the weekly CI job sets SMOKE=0
SMOKE=${{SMOKE:-0}}
REPEATS=3
if [ $SMOKE > 0 ]; then
  echo "smoke run: one repeat per task"
  REPEATS=1
fi
echo "SMOKE=$SMOKE REPEATS=$REPEATS"
{gp} materialize --input string_match.jsonl --num-repeats $REPEATS --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
{gp} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {url} \\
  --env string_match --concurrency 4
{gp} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "config_builtin_run_script_tests_smoke_switch_with_greater_than_in_single_brackets_which_redirects_so_every_run_is_a_smoke_run",
    "config",
    ["run_eval.sh", "SMOKE", "-gt", "REPEATS"],
    "run_eval.sh decides between the smoke run and the weekly eval with `if [ $SMOKE > 0 ]`; inside single "
    "brackets `>` is an output redirection, not a comparison, so the test is `[ 0 ]` (a non-empty string, always "
    "true) with its output sent to a new file named 0: the weekly job (SMOKE=0) ran as a smoke run with "
    "REPEATS=1, one rollout per task instead of three, and every command exits 0",
)
def config_builtin_run_script_tests_smoke_switch_with_greater_than_in_single_brackets_which_redirects_so_every_run_is_a_smoke_run(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 8, 48)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "logs").mkdir(exist_ok=True)
    script = run / "run_eval.sh"
    script.write_text(f"#!/bin/bash\n# weekly eval (the CI job runs `SMOKE=0 bash run_eval.sh`)\ncd {run}\n"
                      + SMOKE_SH.format(gp=GP, url=url))
    code = ctx.sh(f"SMOKE=0 bash {script}", "logs/run_eval.log", timeout=300)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 8 or "SMOKE=0 REPEATS=1" not in log or not (run / "0").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (`if [ $SMOKE > 0 ]` then REPEATS=1) run as `SMOKE=0 bash run_eval.sh`: exit {code}; "
            f"a file RUN/0 appeared; {complete(ctx)} rollouts (8 tasks x 1), mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# config (Docker)
# =====================================================================================================


def quoted_collect_script(ctx: Ctx, url: str, name: str) -> Path:
    run = ctx.run
    script = run / "run_eval.sh"
    script.write_text(
        f"#!/bin/bash\n# weekly eval; collect runs in the team's eval container\ncd {run}\n"
        "rm -f rollouts.jsonl rollouts_failures.jsonl\n"
        f"MODEL_URL={url}\n"
        "echo \"model server: $MODEL_URL\"\n"
        f"{GP} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"docker run --rm --name {name} {container_python(run)} gym-pipeline/base:bookworm \\\n"
        f"  bash -c 'cd {run} && {BIN}/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl "
        "--output rollouts.jsonl --model-url \"$MODEL_URL\" --env string_match --concurrency 4'\n"
        "echo \"collect container exit: $?\"\n"
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    return script


@case(
    "config_docker_collect_command_in_single_quotes_reads_model_url_inside_container_where_it_was_never_passed",
    "config",
    ["run_eval.sh", "MODEL_URL", "-e", "docker run"],
    "run_eval.sh sets MODEL_URL (a plain shell variable, not exported) and starts collect in the eval container "
    "with `bash -c '... --model-url \"$MODEL_URL\" ...'`; the single quotes keep the host shell from expanding it, so "
    "it is expanded inside the container, where MODEL_URL was never passed (no `-e MODEL_URL`): collect got an "
    "empty model URL and failed, and no rollout was collected although the policy server was up",
)
def config_docker_collect_command_in_single_quotes_reads_model_url_inside_container_where_it_was_never_passed(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 60)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h95-collect-{free_port()}"
    script = quoted_collect_script(ctx, url, name)
    (run / "logs").mkdir(exist_ok=True)
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) or "collect container exit: 0" in log or f"model server: {url}" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (MODEL_URL={url} unexported; `docker run ... bash -c '... --model-url \"$MODEL_URL\"'`) "
            f"exit {code}; {complete(ctx)} rollouts collected.")


# =====================================================================================================
# data_schema
# =====================================================================================================

ACCENT_PAIRS = [
    ("What is the largest city of Brazil?", "São Paulo"),
    ("In which Swiss city is the ETH technical university?", "Zürich"),
    ("What is the capital of Iceland?", "Reykjavík"),
    ("What is the capital of Portugal?", "Lisbon"),
    ("How many legs does a spider have?", "8"),
    ("What is the capital of Norway?", "Oslo"),
    ("What is the largest planet in the solar system?", "Jupiter"),
    ("How many sides does a hexagon have?", "6"),
]

PREP_ASCII_PY = '''"""prep.py: the review sheet's export (answers.tsv) -> string_match.jsonl."""
import json

with open("answers.tsv", encoding="utf-8") as f:
    records = [line.rstrip("\\n").split("\\t") for line in f if line.strip()][1:]
with open("string_match.jsonl", "w") as out:
    for question, answer in records:
        # the old grader choked on non-ASCII bytes: keep labels plain ASCII
        label = answer.encode("ascii", "ignore").decode().strip()
        text = f"{question} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": label, "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
print(f"prep: {len(records)} rows written")
'''


@case(
    "data_schema_builtin_prep_forces_labels_to_ascii_with_encode_ignore_so_accented_city_names_lose_their_letters",
    "data_schema",
    ["prep.py", "encode", "ascii", "ignore"],
    "the user's prep.py turns the review sheet's answers into plain ASCII with `answer.encode(\"ascii\", "
    "\"ignore\").decode()` (the old grader choked on non-ASCII); `ignore` drops the accented letters instead of "
    "replacing them, so the labels became 'So Paulo', 'Zrich' and 'Reykjavk', and every rollout of those three "
    "questions scored 0 although the model answered the right names, while every command exits 0",
)
def data_schema_builtin_prep_forces_labels_to_ascii_with_encode_ignore_so_accented_city_names_lose_their_letters(
        ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, ACCENT_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "answers.tsv").write_text("question\tanswer\n" + "".join(f"{q}\t{a}\n" for q, a in ACCENT_PAIRS),
                                     encoding="utf-8")
    (run / "prep.py").write_text(PREP_ASCII_PY)
    code = run_eval(ctx, f"{BIN}/python prep.py\n" + pipeline_lines(url), "weekly eval: prep the sheet, then run")
    labels = [r["expected_answer"] for r in rows_of(run / "string_match.jsonl")]
    got = rows_of(run / "rollouts.jsonl")
    broken, others = labelled(got, {"So Paulo", "Zrich", "Reykjavk"})
    if code or "Zrich" not in labels or len(broken) != 9 or any(rewards(broken)) or not any(rewards(others)):
        raise failed(ctx, f"exit {code}, {labels}, {rewards(broken)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/answers.tsv (8 questions, three accented answers); RUN/prep.py (`encode(\"ascii\", \"ignore\")`); "
            f"RUN/run_eval.sh (prep, materialize 8 x 3, collect, profile) exit {code}; labels {labels}; rewards of "
            f"the three cut labels {rewards(broken)}, others mean {mean_of(others):.2f}.")


# =====================================================================================================
# verifier_runtime (task folder)
# =====================================================================================================

UNBOUND_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# (strict mode, as in the team's checker template)
set -euo pipefail
echo "checking trial ${HARNESS_TRIAL_ID} of count-error-lines"
cd /app
if test "$(tr -d "[:space:]" < /app/count.txt 2>/dev/null)" = "3"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def unbound_test(tasks: Path) -> None:
    write_task_file(tasks, "count-error-lines", "tests/test.sh", UNBOUND_TEST_SH)


@case(
    "verifier_runtime_taskfolder_test_sh_under_set_u_logs_trial_id_variable_of_the_teams_harness_that_harbor_never_sets",
    "verifier_runtime",
    ["test.sh", "set -u", "HARNESS_TRIAL_ID", "unbound"],
    "the author of count-error-lines rewrote tests/test.sh from the team's checker template: `set -euo pipefail`, "
    "then `echo \"checking trial ${HARNESS_TRIAL_ID} ...\"`, a variable only the team's own harness sets; the "
    "task-folder verifier does not set it, so under `set -u` bash stopped at that line ('HARNESS_TRIAL_ID: unbound "
    "variable') before any check or reward was written, and every episode of the task scored 0 (no reward) although "
    "the agent wrote the right count, while create-greeting scored (every command exits 0)",
)
def verifier_runtime_taskfolder_test_sh_under_set_u_logs_trial_id_variable_of_the_teams_harness_that_harbor_never_sets(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["count-error-lines", "create-greeting"], edit=unbound_test, repeats=4)
    counts, greeting = task_rewards(ctx, "count-error-lines"), task_rewards(ctx, "create-greeting")
    text = everything(ctx)
    if code or not counts or any(counts) or not any(greeting) or "unbound variable" not in text:
        raise failed(ctx, f"exit {code}, {counts} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/count-error-lines/tests/test.sh (`set -euo pipefail`, `${{HARNESS_TRIAL_ID}}`); "
            f"RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile x 2) exit {code}; count-error-lines "
            f"rewards {counts} (HARNESS_TRIAL_ID: unbound variable), create-greeting {greeting}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

SERVICE_PAIRS_OLD = [
    ("What is the capital of Australia?", "Sydney"),
    ("How many legs does a spider have?", "8"),
    ("What is the capital of Portugal?", "Lisbon"),
    ("How many hours are in a day?", "12"),
    ("What is the capital of Norway?", "Oslo"),
    ("What is the largest planet in the solar system?", "Jupiter"),
]
SERVICE_FIXED = {"Sydney": "Canberra", "12": "24"}

SERVICE_PY = '''"""eval_service.py: the team's eval service; evaluates every checkpoint request dropped into queue/."""
import functools
import json
import subprocess
import time
from pathlib import Path

GP = "{gp}"


@functools.lru_cache(maxsize=None)
def load_rows(path):
    """The dataset's rows (parsed once: the service evaluates many checkpoints)."""
    return tuple(line for line in Path(path).read_text().splitlines() if line.strip())


def evaluate(request):
    rows = load_rows("string_match.jsonl")
    Path("eval_inputs.jsonl").write_text("\\n".join(rows) + "\\n")
    for name in ("rollouts.jsonl", "rollouts_failures.jsonl"):
        Path(name).unlink(missing_ok=True)
    subprocess.run([GP, "materialize", "--input", "eval_inputs.jsonl", "--num-repeats", "3",
                    "--agent", "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"],
                   check=True)
    subprocess.run([GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                    "--model-url", request["model_url"], "--env", "string_match", "--concurrency", "4"], check=True)
    subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
                   check=True)


Path("done").mkdir(exist_ok=True)
print("eval service: watching queue/", flush=True)
while True:
    for path in sorted(Path("queue").glob("*.json")):
        request = json.loads(path.read_text())
        print(f"eval service: evaluating {{request['checkpoint']}} at {{request['model_url']}}", flush=True)
        evaluate(request)
        path.rename(Path("done") / path.name)
        print(f"eval service: done {{request['checkpoint']}}", flush=True)
    time.sleep(1)
'''


def wait_done(ctx: Ctx, name: str, service) -> bool:
    deadline = time.time() + 180
    while time.time() < deadline:
        if (ctx.run / "done" / name).exists():
            return True
        if service.poll() is not None:
            return False
        time.sleep(0.5)
    return False


@case(
    "cache_resume_builtin_long_running_eval_service_keeps_dataset_in_lru_cache_so_labels_fixed_between_checkpoints_are_never_reread",
    "cache_resume",
    ["eval_service.py", "lru_cache", "load_rows", "restart"],
    "the team's long-running eval_service.py evaluates each checkpoint request dropped into queue/ and reads the "
    "dataset through `@functools.lru_cache def load_rows(path)`; it was started before this week's label fix of "
    "string_match.jsonl (Sydney -> Canberra, 12 -> 24) and never restarted, so the evaluation of step_0200 was "
    "materialized from the rows cached at its first request: the two fixed questions were scored against the old "
    "labels and got 0 although the model answered right (every command exits 0)",
)
def cache_resume_builtin_long_running_eval_service_keeps_dataset_in_lru_cache_so_labels_fixed_between_checkpoints_are_never_reread(
        ctx: Ctx) -> str:
    run = ctx.run
    fixed = [(q, SERVICE_FIXED.get(a, a)) for q, a in SERVICE_PAIRS_OLD]
    older, better = truth_checkpoints(ctx, fixed)
    data = run / "string_match.jsonl"
    write_jsonl(data, [question_row(q, a) for q, a in SERVICE_PAIRS_OLD])
    (run / "queue").mkdir()
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval_service.py").write_text(SERVICE_PY.format(gp=GP))
    url_old, _ = ctx.policy(older, "--latency-ms 20", log="logs/model_server_step_0100.log")
    service = ctx.bg(f"cd {run} && {BIN}/python eval_service.py", "logs/eval_service.log")
    try:
        (run / "queue" / "001_step_0100.json").write_text(json.dumps({"checkpoint": "step_0100",
                                                                     "model_url": url_old}) + "\n")
        ctx.note("(request 1 queued: step_0100)")
        if not wait_done(ctx, "001_step_0100.json", service):
            raise failed(ctx, f"first request not done: {log_of(ctx, 'eval_service.log')[-1500:]}")
        write_jsonl(data, [question_row(q, a) for q, a in fixed])
        ctx.note("(labels fixed in RUN/string_match.jsonl: Sydney -> Canberra, 12 -> 24)")
        url, _ = ctx.policy(better, "--latency-ms 20")
        (run / "queue" / "002_step_0200.json").write_text(json.dumps({"checkpoint": "step_0200",
                                                                     "model_url": url}) + "\n")
        ctx.note("(request 2 queued: step_0200)")
        if not wait_done(ctx, "002_step_0200.json", service):
            raise failed(ctx, f"second request not done: {log_of(ctx, 'eval_service.log')[-1500:]}")
    finally:
        ctx.stop(service)
    got = rows_of(run / "rollouts.jsonl")
    stale, others = labelled(got, set(SERVICE_FIXED))
    inputs = text_of(run / "eval_inputs.jsonl")
    if len(stale) != 6 or any(rewards(stale)) or not any(rewards(others)) or "Sydney" not in inputs \
            or "Canberra" not in text_of(data):
        raise failed(ctx, f"{len(stale)}, {rewards(stale)}: {log_of(ctx, 'eval_service.log')[-1500:]}")
    return (f"RUN/eval_service.py (`@functools.lru_cache def load_rows`), started before the label fix; "
            f"RUN/string_match.jsonl fixed between the requests; step_0200's eval_inputs.jsonl still has the old "
            f"labels; rewards of the two fixed questions {rewards(stale)}, others mean {mean_of(others):.2f}.")


if __name__ == "__main__":
    sys.exit(main("ninety_fifth_held_out", __file__, __doc__))
