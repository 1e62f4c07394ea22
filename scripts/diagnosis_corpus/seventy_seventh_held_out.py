"""Build the SEVENTY-SEVENTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/seventy_seventh_held_out.py --out tests/data/diagnosis_corpus/seventy_seventh_held_out [--only CASE ...]

This set was written after the seventy-six earlier sets (first_held_out.py ... seventy_sixth_held_out.py), from the guides
alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
Docker containers the user's scripts start, task-folder (Harbor-format) tasksets, and the user's own shell and Python
tooling, settings, data-preparation scripts and verifiers. The output of every command is captured as a user would
(`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data, scripts,
settings, verifier code). Each case injects one cause, different in mechanism from those of the seventy-six earlier
sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not
written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), and PYTHONPATH set to this checkout. Run it from a
foreground shell. Containers it makes are named `h77-...` and removed at the end of their recipe.
"""
from __future__ import annotations

import csv
import json
import shutil
import sys
from pathlib import Path
from urllib.parse import urlparse

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import BUNDLED_TASKS, failed, task_checkpoints  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_seventh_held_out import everything, task_rewards, tasks_script, week  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from recipes import BIN, GP, Ctx, case, main, rows_of, text_of  # noqa: E402
from seventy_first_held_out import docker_collect_script, remove_container, write_rows  # noqa: E402
from sixty_fourth_held_out import mean_of, pipeline_lines, question_row  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_sixth_held_out import free_port  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def run_eval(ctx: Ctx, body: str, comment: str, log: str = "logs/run_eval.log", timeout: float = 300) -> int:
    script = ctx.run / "run_eval.sh"
    script.write_text(f"#!/bin/bash\n# {comment}\ncd {ctx.run}\n" + body)
    return ctx.sh(f"bash {script}", log, timeout=timeout)


def labelled(rows: list[dict], *labels: str) -> list[dict]:
    return [r for r in rows if str(r.get("expected_answer")) in labels]


def tasks_in(rows: list[dict], task: str) -> list[dict]:
    return [r for r in rows if task in json.dumps(r)]


# =====================================================================================================
# healthy
# =====================================================================================================

DEBUG_QUIZ = [
    ("A script stops with 'Traceback (most recent call last): File \"run.py\", line 3, in <module> ZeroDivisionError: "
     "division by zero'. Which exception was raised?", "ZeroDivisionError"),
    ("The log says 'Traceback (most recent call last): ... KeyError: user_id'. Which key was missing?", "user_id"),
    ("A job failed with 'ERROR: ModuleNotFoundError: No module named numpy'. Which module is missing?", "numpy"),
    ("'Traceback (most recent call last): ... FileNotFoundError: [Errno 2] No such file or directory: data.csv'. "
     "Which file was not found?", "data.csv"),
    ("A server logs 'FATAL: connection refused on port 5432'. Which port was refused?", "5432"),
    ("'RecursionError: maximum recursion depth exceeded' is raised by which language?", "Python"),
]


@case(
    "healthy_builtin_debugging_quiz_prompts_quote_tracebacks_and_fatal_error_lines",
    "healthy",
    [],
    "nothing is wrong: this week's quiz is about reading error logs, so every prompt quotes a Python traceback or an "
    "'ERROR:'/'FATAL:' log line (and the inputs, rollouts and profile are full of 'Traceback (most recent call "
    "last)', 'connection refused', 'No such file or directory'); they are the questions' text, the model answered "
    "them and every rollout was collected, scored and profiled",
)
def healthy_builtin_debugging_quiz_prompts_quote_tracebacks_and_fatal_error_lines(ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, DEBUG_QUIZ)
    url, _ = ctx.policy(better, "--latency-ms 20")
    write_rows(run / "string_match.jsonl", [question_row(q, a) for q, a in DEBUG_QUIZ])
    code = run_eval(ctx, pipeline_lines(url), "weekly eval: the log-reading quiz")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or not any(rewards(got)) or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {rewards(got)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/string_match.jsonl (6 questions quoting tracebacks and error lines); RUN/run_eval.sh (materialize "
            f"x 3, collect, profile) exit {code}; {complete(ctx)} of 18 rollouts, mean reward {mean_of(got):.2f}.")


PRINTF_TEST_SH = """#!/bin/bash
# Writes the score to /logs/verifier/reward.txt (three decimals, like the team's other graders).
cd /app
if test "$(cat /app/hello.txt 2>/dev/null)" = "Hello, Gym!"; then
  echo "PASS"
  printf '%.3f\\n' 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  printf '%.3f\\n' 0 > /logs/verifier/reward.txt
fi
"""


def printf_rewards(tasks: Path) -> None:
    (tasks / "create-greeting" / "tests" / "test.sh").write_text(PRINTF_TEST_SH)


@case(
    "healthy_taskfolder_test_sh_writes_reward_as_three_decimal_text_with_printf",
    "healthy",
    [],
    "nothing is wrong: create-greeting's tests/test.sh writes its reward with `printf '%.3f\\n'`, so reward.txt "
    "holds '1.000' or '0.000' instead of the usual '1'/'0'; it is a valid number, the episodes were scored from it "
    "and every episode of both tasks was collected and profiled",
)
def healthy_taskfolder_test_sh_writes_reward_as_three_decimal_text_with_printf(ctx: Ctx) -> str:
    code, got = week(ctx, ["create-greeting", "json-version"], edit=printf_rewards)
    greeting = task_rewards(ctx, "create-greeting")
    text = everything(ctx)
    if code or complete(ctx) != 4 or not greeting or not any(greeting) or "1.000" not in text \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/create-greeting/tests/test.sh (`printf '%.3f'` into reward.txt); RUN/run_tasks.sh "
            f"(`gym-pipeline stage` materialize, collect, profile of RUN/tasks x 2) exit {code}; {complete(ctx)} "
            f"episodes, create-greeting rewards {greeting}.")


@case(
    "healthy_docker_collect_container_gets_lowest_cpu_shares_weight_on_an_otherwise_idle_node",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh starts the collect container with `--cpu-shares 2` (the lowest CFS "
    "weight, from the 'background jobs' template), which looks like starving it; shares only matter when other "
    "containers compete for the CPUs, and none did, so the container exited 0 and every rollout was collected and "
    "profiled at normal speed",
)
def healthy_docker_collect_container_gets_lowest_cpu_shares_weight_on_an_otherwise_idle_node(ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 20)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h77-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, "--cpu-shares 2",
                                   "collect runs in the eval container (background-jobs template)")
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if code or complete(ctx) != 18 or "collect container exit: 0" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run --cpu-shares 2 --network host ... collect`, profile) "
            f"exit {code}; {complete(ctx)} of 18 rollouts.")


# =====================================================================================================
# verifier_runtime (task folders)
# =====================================================================================================

CHECKS_SH = """# ci/checks.sh: checks shared by every task's tests/test.sh
expect_file_equals() {  # FILE EXPECTED: the file's text, whitespace removed, equals EXPECTED
  test "$(tr -d "[:space:]" < "$1" 2>/dev/null)" = "$2"
}
"""

SOURCING_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
source "$(dirname "$0")/../../../ci/checks.sh"   # the repo's shared checks
cd /app
if expect_file_equals /app/version.txt "2.7.1"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def shared_checks(tasks: Path) -> None:
    (tasks.parent / "ci").mkdir(exist_ok=True)
    (tasks.parent / "ci" / "checks.sh").write_text(CHECKS_SH)
    (tasks / "json-version" / "tests" / "test.sh").write_text(SOURCING_TEST_SH)


@case(
    "verifier_runtime_taskfolder_test_sh_sources_shared_check_library_from_repo_folder_outside_its_tests",
    "verifier_runtime",
    ["test.sh", "checks.sh", "tests folder", "source"],
    "json-version's tests/test.sh was refactored to `source \"$(dirname \"$0\")/../../../ci/checks.sh\"`, a library "
    "of checks kept in the repository beside the taskset; only the task's tests/ folder is copied into the sandbox "
    "(as /tests), so the path resolves to /ci/checks.sh, which does not exist there: the source fails, "
    "`expect_file_equals` is 'command not found', and every episode took the FAIL branch and scored 0 although the "
    "agent wrote the right version, while create-greeting still scored (every command exits 0)",
)
def verifier_runtime_taskfolder_test_sh_sources_shared_check_library_from_repo_folder_outside_its_tests(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["json-version", "create-greeting"], edit=shared_checks)
    version = task_rewards(ctx, "json-version")
    text = everything(ctx)
    if code or complete(ctx) != 4 or not version or any(version) or not any(task_rewards(ctx, "create-greeting")) \
            or "command not found" not in text:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {version}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/ci/checks.sh; RUN/tasks/json-version/tests/test.sh (`source .../../../ci/checks.sh`); "
            f"RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile of RUN/tasks x 2) exit {code}; "
            f"{complete(ctx)} episodes, json-version rewards {version}, create-greeting rewards "
            f"{task_rewards(ctx, 'create-greeting')}.")


SOLUTION_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# The expected version lives in one place: solution/expected.txt (solve.sh writes the same file).
EXPECTED=$(cat "$(dirname "$0")/../solution/expected.txt" 2>/dev/null)
cd /app
if test "$(tr -d "[:space:]" < /app/version.txt 2>/dev/null)" = "$EXPECTED"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL: expected '$EXPECTED'"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def expected_in_solution(tasks: Path) -> None:
    (tasks / "json-version" / "solution" / "expected.txt").write_text("2.7.1\n")
    (tasks / "json-version" / "tests" / "test.sh").write_text(SOLUTION_TEST_SH)


@case(
    "verifier_runtime_taskfolder_test_sh_reads_expected_answer_from_solution_folder_never_copied_for_verification",
    "verifier_runtime",
    ["test.sh", "solution", "expected.txt", "tests"],
    "json-version's tests/test.sh was changed to read the expected version from ../solution/expected.txt, so that "
    "the answer lives in one place; the solution folder is never copied into the sandbox (only tests/ is, as "
    "/tests), so EXPECTED is empty and the check compares the agent's version with an empty string: an episode "
    "where the agent wrote the right version failed ('FAIL: expected ''') and one where it wrote no version.txt at "
    "all passed (empty equals empty), so json-version's rewards are the opposite of its outcomes (every command "
    "exits 0)",
)
def verifier_runtime_taskfolder_test_sh_reads_expected_answer_from_solution_folder_never_copied_for_verification(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["json-version", "create-greeting"], edit=expected_in_solution)
    version = task_rewards(ctx, "json-version")
    text = everything(ctx)
    if code or complete(ctx) != 4 or not version or "expected ''" not in text:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {version}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/json-version/solution/expected.txt; RUN/tasks/json-version/tests/test.sh (reads "
            f"../solution/expected.txt); RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile) exit "
            f"{code}; {complete(ctx)} episodes, json-version rewards {version}, create-greeting rewards "
            f"{task_rewards(ctx, 'create-greeting')}.")


# =====================================================================================================
# cache_resume (task folders)
# =====================================================================================================

SYNC_PY = '''"""sync.py SHARE: bring the team's taskset (on the share) into ./tasks before a run."""
import shutil
import sys

shutil.copytree(sys.argv[1], "tasks", dirs_exist_ok=True)   # update in place: new and changed files
print(f"sync: tasks updated from {sys.argv[1]}")
'''


@case(
    "cache_resume_taskfolder_sync_script_copytree_dirs_exist_ok_keeps_task_retired_from_the_share",
    "cache_resume",
    ["sync.py", "copytree", "retired", "delete"],
    "the user's sync.py brings the team's taskset into ./tasks with `shutil.copytree(share, 'tasks', "
    "dirs_exist_ok=True)`, which adds and overwrites files but never deletes: the team retired top-word from the "
    "share this week, yet the local copy from last week's sync keeps it, so the run evaluated (and profiled) a task "
    "that is no longer part of the taskset, beside the two current ones (every command exits 0)",
)
def cache_resume_taskfolder_sync_script_copytree_dirs_exist_ok_keeps_task_retired_from_the_share(ctx: Ctx) -> str:
    run = ctx.run
    share = ctx.work / "share" / "taskset"
    share.mkdir(parents=True)
    shutil.copy(BUNDLED_TASKS / "dataset.toml", share / "dataset.toml")
    for name in ("json-version", "create-greeting", "top-word"):
        shutil.copytree(BUNDLED_TASKS / name, share / name)
    (run / "sync.py").write_text(SYNC_PY)
    ctx.note("(last week)")
    code1 = ctx.sh(f"cd {run} && {BIN}/python sync.py {share}", "logs/sync_last_week.log", timeout=60)
    ctx.note("(this week: the team retires top-word from the share)")
    ctx.sh(f"rm -rf {share}/top-word", None)
    tasks = run / "tasks"
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = tasks_script(ctx, tasks, checkpoint, url, [f"{BIN}/python sync.py {share}"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    retired = tasks_in(got, "top-word")
    if code1 or code or not retired or not (tasks / "top-word").exists() or (share / "top-word").exists() \
            or complete(ctx) != 6:
        raise failed(ctx, f"exit {code1}/{code}, {complete(ctx)}, {len(retired)}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/sync.py (`shutil.copytree(share, 'tasks', dirs_exist_ok=True)`); last week's sync exit {code1}; "
            f"top-word removed from the share; RUN/run_tasks.sh (sync, `gym-pipeline stage` materialize, collect, "
            f"profile) exit {code}; {complete(ctx)} episodes, {len(retired)} of them of the retired top-word.")


# =====================================================================================================
# model_serving
# =====================================================================================================

SERVE_BODY = """# start this week's checkpoint and wait for the server to say where it listens
{gp} serve-policy --port 0 --ready-file policy_url.txt --checkpoint {checkpoint} --latency-ms 20 \\
  >> logs/model_server.log 2>&1 &
SERVER=$!
until [ -s policy_url.txt ]; do sleep 0.5; done
URL=$(cat policy_url.txt)
echo "policy server at $URL"
{gp} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
{gp} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url "$URL" \\
  --env string_match --concurrency 4
{gp} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
kill -9 $SERVER   # it can hang for minutes draining on SIGTERM
"""


@case(
    "model_serving_builtin_serve_step_waits_for_ready_file_left_by_last_weeks_server_so_collect_uses_its_dead_url",
    "model_serving",
    ["policy_url.txt", "ready-file", "rm", "stale"],
    "the user's run_eval.sh starts the policy server with `--ready-file policy_url.txt` and waits with `until [ -s "
    "policy_url.txt ]`, but never removes the file first: last week's run stopped its server with `kill -9`, which "
    "leaves the ready file behind, naming last week's server "
    "and its port, so the wait ended at once, collect was pointed at a server that no longer exists and every "
    "request was refused, while this week's server came up on another port a moment later",
)
def model_serving_builtin_serve_step_waits_for_ready_file_left_by_last_weeks_server_so_collect_uses_its_dead_url(
        ctx: Ctx) -> str:
    run = ctx.run
    (run / "logs").mkdir(exist_ok=True)
    _, (_, better) = builtin_rows(ctx, 6, 30)
    body = SERVE_BODY.format(gp=GP, checkpoint=better)
    ctx.note("(last week)")
    code1 = run_eval(ctx, body, "weekly eval: serve the checkpoint, then evaluate it", log="logs/run_eval_last_week.log")
    last_url = text_of(run / "policy_url.txt").strip()
    ctx.note("(this week: same script, a fresh rollouts file)")
    ctx.sh(f"cd {run} && mkdir -p last_week && mv rollouts*.jsonl last_week/", None)
    code = run_eval(ctx, body, "weekly eval: serve the checkpoint, then evaluate it")
    log = log_of(ctx, "run_eval.log")
    new_url = text_of(run / "policy_url.txt").strip()
    if code1 or complete(ctx) == 18 or f"policy server at {last_url}" not in log or new_url == last_url:
        raise failed(ctx, f"exit {code1}/{code}, {complete(ctx)}, {last_url} {new_url}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (serve-policy --ready-file policy_url.txt &, `until [ -s policy_url.txt ]`, materialize, "
            f"collect, profile); last week exit {code1} at {last_url}; this week exit {code}: collect used {last_url}, "
            f"the new server wrote {new_url}; {complete(ctx)} of 18 rollouts.")


# =====================================================================================================
# config
# =====================================================================================================

CONF_TPL = """# eval.conf.tpl: rendered with envsubst by run_eval.sh
MODEL_URL=http://127.0.0.1:${POLICY_PORT}/v1
REPEATS=3
CONCURRENCY=4
"""


@case(
    "config_builtin_run_script_renders_settings_with_envsubst_but_never_exports_policy_port",
    "config",
    ["export", "POLICY_PORT", "envsubst", "eval.conf"],
    "the user's run_eval.sh sets `POLICY_PORT=...` as a plain shell variable and renders eval.conf from "
    "eval.conf.tpl with `envsubst`; envsubst is a separate program and only sees exported variables, so "
    "${POLICY_PORT} became empty and MODEL_URL is 'http://127.0.0.1:/v1' (no port): collect could reach no model "
    "server and no rollout was collected, although the policy server was up on its port",
)
def config_builtin_run_script_renders_settings_with_envsubst_but_never_exports_policy_port(ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 36)
    url, _ = ctx.policy(better, "--latency-ms 20")
    port = urlparse(url).port
    (run / "eval.conf.tpl").write_text(CONF_TPL)
    body = (f"POLICY_PORT={port}   # this week's policy server\n"
            "envsubst < eval.conf.tpl > eval.conf\n"
            "source ./eval.conf\n"
            "echo \"model: $MODEL_URL\"\n"
            f"{GP} materialize --input string_match.jsonl --num-repeats $REPEATS --agent string_match_simple_agent "
            "--output rollouts_materialized_inputs.jsonl\n"
            f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url \"$MODEL_URL\" "
            "--env string_match --concurrency $CONCURRENCY\n"
            f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    code = run_eval(ctx, body, "weekly eval; settings rendered from eval.conf.tpl")
    conf = text_of(run / "eval.conf")
    if "127.0.0.1:/v1" not in conf or complete(ctx) == 18:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {conf}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/eval.conf.tpl (MODEL_URL=http://127.0.0.1:${{POLICY_PORT}}/v1); RUN/run_eval.sh (`POLICY_PORT="
            f"{port}` not exported, envsubst, source, materialize, collect, profile) exit {code}; RUN/eval.conf has "
            f"MODEL_URL=http://127.0.0.1:/v1; {complete(ctx)} of 18 rollouts.")


# =====================================================================================================
# data_schema
# =====================================================================================================

VERSION_PAIRS = [
    ("Write 31 as a Python hexadecimal literal.", "0x1F"),
    ("What is the capital of Peru?", "Lima"),
    ("Write the permission bits rwxr-xr-x as a Python octal literal.", "0o755"),
    ("Which element has the chemical symbol Fe?", "Iron"),
    ("Write 255 as a Python hexadecimal literal.", "0xFF"),
    ("Which Rust edition followed 2018?", "2021"),
    ("Who wrote Romeo and Juliet?", "William Shakespeare"),
    ("What is the capital of Canada?", "Ottawa"),
]


LITERAL_PREP_PY = '''"""prep.py: answers.csv (question,answer) -> string_match.jsonl.

Rows with several accepted answers are written in the sheet as Python lists (['NYC', 'New York']), so every answer
cell is parsed as a Python literal; plain text stays as it is.
"""
import ast
import csv
import json


def cell(text):
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


written = 0
with open("answers.csv", newline="", encoding="utf-8") as sheet, open("string_match.jsonl", "w") as out:
    for row in csv.DictReader(sheet):
        answer = cell(row["answer"])
        if isinstance(answer, list):
            answer = answer[0]
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": str(answer), "extraction_mode": "final_answer", "case_sensitive": False}) + "\\n")
        written += 1
print(f"prep: {written} rows written")
'''


@case(
    "data_schema_builtin_prep_parses_every_answer_cell_with_literal_eval_so_hex_and_octal_labels_become_decimal",
    "data_schema",
    ["prep.py", "literal_eval", "0x1F", "string"],
    "the user's prep.py parses every answer cell with ast.literal_eval (meant for the few rows whose accepted answers "
    "are written as Python lists) and writes str() of the result: this week's programming questions have answers "
    "that are themselves Python literals, so '0x1F' was written as the label '31', '0xFF' as '255' and '0o755' as "
    "'493'; the model's right answers to those three tasks scored 0 while the others scored (every command exits 0)",
)
def data_schema_builtin_prep_parses_every_answer_cell_with_literal_eval_so_hex_and_octal_labels_become_decimal(
        ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, VERSION_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    with (run / "answers.csv").open("w", newline="") as handle:
        csv.writer(handle).writerows([("question", "answer"), *VERSION_PAIRS])
    (run / "prep.py").write_text(LITERAL_PREP_PY)
    code = run_eval(ctx, f"{BIN}/python prep.py\n" + pipeline_lines(url), "weekly eval of the answers sheet")
    got = rows_of(run / "rollouts.jsonl")
    labels = [r["expected_answer"] for r in rows_of(run / "string_match.jsonl")]
    cut = labelled(got, "31", "255", "493")
    others = [r for r in got if r not in cut]
    if code or len(got) != 24 or len(cut) != 9 or any(rewards(cut)) or not any(rewards(others)):
        raise failed(ctx, f"exit {code}, {len(got)}, {labels}, {rewards(cut)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/answers.csv; RUN/prep.py (ast.literal_eval on every answer); RUN/run_eval.sh (prep, materialize "
            f"8 x 3, collect, profile) exit {code}; labels {labels}; rewards of the three changed labels "
            f"{rewards(cut)}, of the others mean {mean_of(others):.2f}.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================


@case(
    "throughput_docker_collect_container_cpu_quota_of_one_hundredth_from_sidecar_template_overruns_ci_budget",
    "throughput_resources",
    ["--cpus", "0.01", "collect container", "CPU"],
    "the user's run_eval.sh starts the collect container with `--cpus 0.01` (copied from the template of the "
    "log-shipping sidecar): the container may use 1% of one CPU, so collect's start-up (imports) crawls for minutes, "
    "and the CI step's 30 s budget (`timeout 30`) killed the script (exit 124) while collect was still starting, "
    "before any rollout was written, and the CI cleanup step removed the container: the night's eval has no rollouts "
    "and no profile, although the policy answers in milliseconds",
)
def throughput_docker_collect_container_cpu_quota_of_one_hundredth_from_sidecar_template_overruns_ci_budget(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 8, 12)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h77-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, "--cpus 0.01",
                                   "collect runs in the eval container (sidecar template flags)")
    try:
        code = ctx.sh(f"( timeout 30 bash {script}; echo \"run_eval exit: $?\"; docker rm -f {name} )",
                      "logs/run_eval.log", timeout=180)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if code or "run_eval exit: 124" not in log or complete(ctx) or (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 8 x 3, `docker run --cpus 0.01 --network host ... collect`, profile) under "
            f"`timeout 30` (then CI's `docker rm -f` of the container): exit 124 before collect's first line; "
            f"{complete(ctx)} of 24 rollouts, no profile.")


# =====================================================================================================
# infra
# =====================================================================================================


@case(
    "infra_docker_collect_container_template_mounts_dataset_folder_read_only_at_run_folder_path_so_docker_refuses",
    "infra",
    ["DATA_DIR", "mount", "duplicate", "-v"],
    "the user's run_eval.sh runs collect in a container from the team template, which mounts the dataset folder "
    "read-only with `-v $DATA_DIR:$DATA_DIR:ro` beside the run folder's own mount; this week the dataset was moved "
    "into the run folder, so DATA_DIR is the run folder and both mounts target the same path: Docker refuses to "
    "create the container ('Duplicate mount point'), collect never ran, and profile found no rollouts",
)
def infra_docker_collect_container_template_mounts_dataset_folder_read_only_at_run_folder_path_so_docker_refuses(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 50)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h77-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, "-v $DATA_DIR:$DATA_DIR:ro",
                                   "collect runs in the eval container (team template: dataset mounted read-only)")
    script.write_text(script.read_text().replace(
        f"cd {run}\n", f"cd {run}\nDATA_DIR={run}   # the dataset now lives beside the run's files\n", 1))
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if "uplicate mount point" not in log or "collect container exit: 0" in log or complete(ctx):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (DATA_DIR=RUN; materialize 6 x 3, `docker run -v $DATA_DIR:$DATA_DIR:ro ... -v RUN:RUN "
            f"... collect`, profile) exit {code}; Docker refused the duplicate mount point; {complete(ctx)} rollouts.")


if __name__ == "__main__":
    sys.exit(main("seventy_seventh_held_out", __file__, __doc__))
