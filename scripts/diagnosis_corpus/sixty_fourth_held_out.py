"""Build the SIXTY-FOURTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/sixty_fourth_held_out.py --out tests/data/diagnosis_corpus/sixty_fourth_held_out [--only CASE ...]

This set was written after the sixty-three earlier sets (first_held_out.py ... sixty_third_held_out.py), from the guides
alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`,
`check-stale`), task folders in Harbor's format run in their Docker sandboxes, Docker containers the user's scripts
start, and the user's own shell and Python tooling, settings, serving scripts, data-preparation scripts, summary
scripts and verifiers. The output of every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing
in a run folder is written by hand but the user's own inputs (data, scripts, settings, verifier code). Each case
injects one cause, different in mechanism from those of the sixty-three earlier sets, and each recipe checks that its
fault really happened (it raises RecipeError otherwise, and the case is not written). About half of the failures are
silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), and PYTHONPATH set to this checkout. Run it from a
foreground shell.
"""
from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import failed  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_seventh_held_out import everything, task_rewards, week  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from recipes import BIN, GP, ROOT, Ctx, case, main, rows_of, text_of  # noqa: E402
from sixtieth_held_out import container_collect, remove_container  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_sixth_held_out import free_port  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def mean_of(rows: list[dict]) -> float:
    got = rewards(rows)
    return sum(got) / len(got) if got else 0.0


def python_mounts() -> str:
    """Bind mounts that give a container the eval's Python (the host's venv and this checkout), read-only."""
    pyenv, venv = Path(sys.base_prefix), ROOT / ".venv"
    return " ".join(f"-v {p}:{p}:ro" for p in (pyenv, venv, venv.resolve(), ROOT))


def pipeline_lines(url: str, data: str = "string_match.jsonl", repeats: int = 3, concurrency: int = 4) -> str:
    return (f"{GP} materialize --input {data} --num-repeats {repeats} --agent string_match_simple_agent "
            "--output rollouts_materialized_inputs.jsonl\n"
            f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {url} "
            f"--env string_match --concurrency {concurrency}\n"
            f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")


def question_row(question: str, answer: str) -> dict:
    text = f"{question} End your response with 'Final answer: <answer>'."
    return {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}


def scratch_collect(ctx: Ctx, url: str) -> list[dict]:
    """What step_0200 (`url`) scores on RUN's inputs, collected into WORK (not part of the case's commands)."""
    check = ctx.work / "check"
    check.mkdir(exist_ok=True)
    ctx.sh(f"{GP} collect --inputs {ctx.run}/rollouts_materialized_inputs.jsonl --output {check}/rollouts.jsonl "
           f"--model-url {url} --env string_match --concurrency 4", None)
    ctx.commands.pop()
    return rows_of(check / "rollouts.jsonl")


# =====================================================================================================
# healthy
# =====================================================================================================

ERROR_TOPIC = [
    ("Which HTTP status code means 'Not Found'?", "404"),
    ("Which HTTP status code means 'Internal Server Error'?", "500"),
    ("Which HTTP status code means 'Service Unavailable'?", "503"),
    ("Which HTTP status code means 'Too Many Requests'?", "429"),
    ("Which Python exception is raised when a number is divided by zero?", "ZeroDivisionError"),
    ("Which Python exception does looking up a missing dictionary key raise?", "KeyError"),
    ("Which Python exception does open() raise for a path that does not exist?", "FileNotFoundError"),
    ("Which Python exception does a call to time out in asyncio.wait_for raise since 3.11?", "TimeoutError"),
]

ERROR_TALLY = """echo "== error words in this week's rollouts (release checklist: look at anything non-zero)"
grep -o -i -E 'error|traceback|timeout|refused|503|500|429' rollouts.jsonl | sort | uniq -c | sort -rn
echo "rows with an error word: $(grep -c -i -E 'error|timeout|503|500|429' rollouts.jsonl)"
"""


@case(
    "healthy_builtin_run_script_error_word_tally_counts_rollouts_of_weeks_http_and_exception_topic",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh ends with the release checklist's tally of error words in "
    "rollouts.jsonl (`grep -o -i -E 'error|traceback|timeout|refused|503|500|429' | uniq -c`); this week's topic is "
    "HTTP status codes and Python exceptions, so the questions, answers and labels themselves ('Internal Server "
    "Error', 'ZeroDivisionError', '503', '429', 'TimeoutError') fill the tally, but materialize, collect and profile "
    "completed every rollout and the model answered them",
)
def healthy_builtin_run_script_error_word_tally_counts_rollouts_of_weeks_http_and_exception_topic(ctx: Ctx) -> str:
    run = ctx.run
    (run / "string_match.jsonl").write_text("".join(json.dumps(question_row(q, a)) + "\n" for q, a in ERROR_TOPIC))
    _, better = truth_checkpoints(ctx, ERROR_TOPIC)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval: this week's topic is errors (HTTP status codes, exceptions)\n"
                      f"cd {run}\n" + pipeline_lines(url) + ERROR_TALLY)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 24 or "rows with an error word: 24" not in log or mean_of(got) < 0.3 \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {mean_of(got)}: {log[-1500:]}")
    return (f"RUN/string_match.jsonl (8 questions on HTTP errors and exceptions); RUN/run_eval.sh (materialize 8 x 3, "
            f"collect, profile, then a grep tally of error words in RUN/rollouts.jsonl) exit {code}; "
            f"{complete(ctx)} of 24 rollouts, mean reward {mean_of(got):.2f}.")


@case(
    "healthy_docker_collect_container_with_log_driver_none_so_run_scripts_docker_logs_copy_fails",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh runs the collect in a named container with the platform template's "
    "`--log-driver none` (container logs are not kept on the node) and afterwards saves the container's log with "
    "`docker logs NAME`, which answers 'Error response from daemon: configured logging driver does not support "
    "reading'; the collect ran attached, its output is in the run log, every rollout was collected and the profile "
    "completed",
)
def healthy_docker_collect_container_with_log_driver_none_so_run_scripts_docker_logs_copy_fails(ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 18)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"weekly-collect-{free_port()}"
    script = run / "run_eval.sh"
    script.write_text(
        f"#!/bin/bash\n# weekly eval; the collect runs in the eval container (platform template flags)\ncd {run}\n"
        f"{GP} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        + container_collect(ctx, f"--name {name} --log-driver none", "rollouts_materialized_inputs.jsonl",
                            "rollouts.jsonl", url) + "\n"
        f"echo '== keep the container log'\ndocker logs {name} > logs/collect_container.log\ndocker rm {name}\n"
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or "does not support reading" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run --name {name} --log-driver none ... collect`, `docker "
            f"logs` of it, profile) exit {code}; {complete(ctx)} of 18 rollouts, mean reward {mean_of(got):.2f}.")


STYLE_CHECK = """
# style guideline (not scored): files in /app should belong to the agent user, not root
for f in /app/*.txt /app/*.log; do
  [ -e "$f" ] || continue
  if [ "$(stat -c %U "$f")" = root ]; then echo "style: FAIL $f is owned by root (guideline: uid 1000) - not scored"; fi
done
"""


def style_checks(tasks: Path) -> None:
    for test in tasks.glob("*/tests/test.sh"):
        test.write_text(test.read_text() + STYLE_CHECK)


@case(
    "healthy_taskfolder_test_sh_prints_fail_for_unscored_file_owner_style_check_after_writing_reward",
    "healthy",
    [],
    "nothing is wrong: the user's task folders end tests/test.sh with an unscored style check of the team's "
    "guideline that files in /app belong to uid 1000; every sandbox runs as root, so each verifier log carries "
    "'style: FAIL /app/... is owned by root - not scored' lines, but the reward was written before and every "
    "episode was verified, scored and profiled",
)
def healthy_taskfolder_test_sh_prints_fail_for_unscored_file_owner_style_check_after_writing_reward(ctx: Ctx) -> str:
    code, got = week(ctx, ["create-greeting", "count-error-lines"], edit=style_checks)
    if code or complete(ctx) != 4 or "style: FAIL" not in everything(ctx) or not any(rewards(got)) \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {rewards(got)}: {log_of(ctx, 'run_tasks.log')[-1200:]}")
    return (f"RUN/tasks/*/tests/test.sh (unscored owner style check); RUN/run_tasks.sh (`gym-pipeline stage` "
            f"materialize, collect, profile of RUN/tasks x 2) exit {code}; {complete(ctx)} of 4 episodes, rewards "
            f"{rewards(got)}.")


# =====================================================================================================
# model_serving
# =====================================================================================================

SERVE_SH = """#!/bin/bash
# serve.sh STEP: the model server in a container on the node's network (port {port}); restarts with the node's
# Docker daemon so that a long eval survives a daemon upgrade
STEP=$1
docker run -d --restart unless-stopped --network host --name policy-{port}-$STEP {mounts} -v {ckpts}:{ckpts}:ro \\
  -e PYTHONPATH={root} gym-pipeline/base:bookworm \\
  {bin}/python -m gym_pipeline.cli serve-policy --checkpoint {ckpts}/$STEP --host 127.0.0.1 --port {port} \\
  --latency-ms 20
"""

SERVED_EVAL = """#!/bin/bash
# weekly eval of checkpoint $1 against the containerized model server
cd {run}
bash serve.sh $1
for i in $(seq 60); do curl -sf http://127.0.0.1:{port}/v1/models > /dev/null && break; sleep 1; done
echo "model server up: $(curl -s http://127.0.0.1:{port}/v1/models)"
{pipeline}"""


@case(
    "model_serving_docker_serve_script_restart_unless_stopped_container_of_last_week_holds_port_so_new_step_exits",
    "model_serving",
    ["docker rm", "restart unless-stopped"],
    "the user's serve.sh starts the model server detached with `--restart unless-stopped` on a fixed port of the "
    "node's network and nothing ever stops it; last week's container (step_0100) was still running, so this week's "
    "container for step_0200 exited at once ('address already in use') while the readiness loop found the port "
    "answering; the whole eval was collected from last week's step_0100 (every command exits 0)",
)
def model_serving_docker_serve_script_restart_unless_stopped_container_of_last_week_holds_port_so_new_step_exits(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (weaker, better) = builtin_rows(ctx, 8, 26)
    port = free_port()
    (run / "serve.sh").write_text(SERVE_SH.format(port=port, mounts=python_mounts(), ckpts=weaker.parent, root=ROOT,
                                                  bin=BIN))
    script = run / "run_eval.sh"
    script.write_text(SERVED_EVAL.format(run=run, port=port,
                                         pipeline=pipeline_lines(f"http://127.0.0.1:{port}/v1")))
    names = [f"policy-{port}-step_0100", f"policy-{port}-step_0200"]
    try:
        code1 = ctx.sh(f"bash {script} step_0100", "logs/run_eval_last_week.log", timeout=300)
        ctx.note("(a week later; nobody stopped the step_0100 container)")
        code = ctx.sh(f"bash {script} step_0200", "logs/run_eval.log", timeout=300)
        ctx.sh(f"docker ps -a --filter name=policy-{port} --format '{{{{.Names}}}} {{{{.Status}}}}'",
               "logs/docker_ps.log")
        ctx.sh(f"docker logs {names[1]}", "logs/model_server_step_0200.log")
        state = subprocess.run(["docker", "inspect", "-f", "{{.State.Running}} {{.RestartCount}}", names[1]],
                               capture_output=True, text=True).stdout.strip()
    finally:
        for name in names:
            remove_container(name)
    got = rows_of(run / "rollouts.jsonl")
    url, _ = ctx.policy(better, "--latency-ms 20", log=str(ctx.work / "check_server.log"))
    ctx.commands.pop()
    fresh = scratch_collect(ctx, url)
    new_log = log_of(ctx, "model_server_step_0200.log")
    if code1 or code or len(got) != 24 or "address already in use" not in new_log.lower() \
            or not mean_of(fresh) > mean_of(got):
        raise failed(ctx, f"exit {code1}/{code}, {len(got)}, {state}, {mean_of(got)} vs {mean_of(fresh)}: "
                          f"{new_log[-1200:]}")
    return (f"RUN/serve.sh (`docker run -d --restart unless-stopped --network host ... serve-policy --port {port}`); "
            f"RUN/run_eval.sh step_0100 last week exit {code1}, RUN/run_eval.sh step_0200 exit {code}: the step_0200 "
            f"container exited (address already in use, state {state!r}); {len(got)} rollouts, mean reward "
            f"{mean_of(got):.2f} (step_0200 scores {mean_of(fresh):.2f} on the same inputs).")


# =====================================================================================================
# throughput_resources
# =====================================================================================================


@case(
    "throughput_builtin_run_script_caps_open_files_with_ulimit_n_below_collect_concurrency",
    "throughput_resources",
    ["ulimit", "--concurrency"],
    "the user's run_eval.sh starts with the shared node's hardening line `ulimit -n 32` (open files per job) and "
    "collects with --concurrency 96; each request in flight holds a socket, so with 96 at once the collect ran out "
    "of file descriptors ('Cannot connect to host ... [Too many open files]') and rollouts failed",
)
def throughput_builtin_run_script_caps_open_files_with_ulimit_n_below_collect_concurrency(ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 12, 4)
    url, _ = ctx.policy(better, "--latency-ms 1000")
    script = run / "run_eval.sh"
    script.write_text(
        "#!/bin/bash\n# weekly eval (8 repeats for the variance report), all rollouts in flight at once\n"
        f"cd {run}\nulimit -n 32   # shared-node hardening guide: at most 32 open files per job\n"
        + pipeline_lines(url, repeats=8, concurrency=96))
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    got = rows_of(run / "rollouts.jsonl")
    text = text_of(run / "rollouts_failures.jsonl") + log_of(ctx, "run_eval.log")
    if len(unique_keys := {(r["_ng_task_index"], r["_ng_rollout_index"]) for r in got}) >= 96 \
            or "Too many open files" not in text:
        raise failed(ctx, f"exit {code}, {len(got)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/run_eval.sh (`ulimit -n 32`, materialize 12 x 8, collect --concurrency 96, profile) exit {code}; "
            f"{len(unique_keys)} of 96 rollouts, the rest failed with 'Too many open files'.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

PREP_CACHED_PY = '''"""prep.py: the labelling sheet (questions.csv) -> tasks.jsonl.
Parsing the full export is slow, so parsed sheets are kept in .prep_cache (shelve), keyed by the sheet's path."""
import csv
import json
import shelve

SHEET = "questions.csv"

with shelve.open(".prep_cache") as cache:
    if SHEET in cache:
        rows = cache[SHEET]
        print(f"prep: {len(rows)} rows of {SHEET} from cache")
    else:
        with open(SHEET, newline="") as handle:
            rows = list(csv.DictReader(handle))
        cache[SHEET] = rows
        print(f"prep: parsed {len(rows)} rows of {SHEET}")

with open("tasks.jsonl", "w") as out:
    for row in rows:
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": row["answer"], "extraction_mode": "final_answer", "case_sensitive": False}) + "\\n")
print(f"prep: wrote {len(rows)} tasks to tasks.jsonl")
'''

TRUE_SHEET = [
    ("What is the capital of Australia?", "Canberra"),
    ("How many sides does a hexagon have?", "6"),
    ("Which planet is known as the Red Planet?", "Mars"),
    ("What is the chemical symbol of sodium?", "Na"),
    ("How many minutes are in three hours?", "180"),
    ("Who wrote the play Hamlet?", "William Shakespeare"),
    ("What is the largest ocean on Earth?", "Pacific"),
    ("How many bones are in the adult human body?", "206"),
    ("What is the capital of Canada?", "Ottawa"),
    ("What gas do plants absorb from the air for photosynthesis?", "Carbon dioxide"),
]
LAST_WEEKS_SHEET = [("What is the capital of Australia?", "Sydney"), TRUE_SHEET[1], TRUE_SHEET[2],
                    ("What is the chemical symbol of sodium?", "So"), TRUE_SHEET[4], TRUE_SHEET[5]]


def write_sheet(path: Path, pairs: list[tuple[str, str]]) -> None:
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["question", "answer"])
        writer.writerows(pairs)


@case(
    "cache_resume_builtin_prep_shelve_cache_keyed_by_sheet_path_serves_last_weeks_parsed_rows",
    "cache_resume",
    ["cache", ".prep_cache"],
    "the user's prep.py keeps parsed labelling sheets in a shelve cache (.prep_cache) keyed by the sheet's path "
    "only; this week's questions.csv (two labels fixed, four questions added) was saved under the same path, so prep "
    "printed '6 rows of questions.csv from cache' and wrote last week's six tasks with their two wrong labels: the "
    "eval ran 6 of the 10 questions and scored the model's right answers Canberra and Na as 0 (every command exits 0)",
)
def cache_resume_builtin_prep_shelve_cache_keyed_by_sheet_path_serves_last_weeks_parsed_rows(ctx: Ctx) -> str:
    run = ctx.run
    (run / "prep.py").write_text(PREP_CACHED_PY)
    _, better = truth_checkpoints(ctx, TRUE_SHEET)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval of the labelling sheet\n"
                      f"cd {run}\n{BIN}/python prep.py\n" + pipeline_lines(url, data="tasks.jsonl"))
    write_sheet(run / "questions.csv", LAST_WEEKS_SHEET)
    code1 = ctx.sh(f"bash {script}", "logs/run_eval_last_week.log", timeout=300)
    ctx.note("(a week later: the labelling team fixed two labels and added four questions in RUN/questions.csv)")
    write_sheet(run / "questions.csv", TRUE_SHEET)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    tasks = {r["_ng_task_index"] for r in got}
    wrong = [r for r in got if r.get("expected_answer") in ("Sydney", "So")]
    if code1 or code or "from cache" not in log or len(tasks) != 6 or not wrong or any(rewards(wrong)) \
            or not any(rewards(got)):
        raise failed(ctx, f"exit {code1}/{code}, tasks {tasks}, {rewards(wrong)}: {log[-1500:]}")
    return (f"RUN/prep.py (shelve cache keyed by the sheet's path); RUN/run_eval.sh last week (6 questions) exit "
            f"{code1}; this week (RUN/questions.csv: 10 questions, 2 labels fixed) exit {code}: prep served the "
            f"cached 6 rows; {len(got)} rollouts over {len(tasks)} tasks, rewards {rewards(got)}.")


# =====================================================================================================
# config
# =====================================================================================================

SYSTEM_OVERRIDE = json.dumps({"input": [{"role": "system", "type": "message", "content": [
    {"type": "input_text", "text": "You are a careful assistant. Think briefly, then answer."}]}], "temperature": 0.2})


@case(
    "config_builtin_materialize_responses_create_params_override_with_system_input_replaces_every_rows_question",
    "config",
    ["--responses-create-params", "input"],
    "the user's run_eval.sh adds the team's system prompt with `materialize --responses-create-params "
    "'{\"input\": [system message], \"temperature\": 0.2}'`; the overrides are merged key by key into each row's "
    "responses_create_params, so the 'input' list replaced each row's whole conversation: no row kept its question "
    "(no user message), and the rollouts failed",
)
def config_builtin_materialize_responses_create_params_override_with_system_input_replaces_every_rows_question(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 44)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "eval_settings.sh").write_text(
        "# the team's generation settings for the weekly eval\n"
        f"RESPONSES_OVERRIDES='{SYSTEM_OVERRIDE}'\n")
    script = run / "run_eval.sh"
    script.write_text(
        f"#!/bin/bash\n# weekly eval, with the team's system prompt and temperature\ncd {run}\nsource eval_settings.sh\n"
        f"{GP} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent "
        "--responses-create-params \"$RESPONSES_OVERRIDES\" --output rollouts_materialized_inputs.jsonl\n"
        f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {url} "
        "--env string_match --concurrency 4\n"
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    inputs = rows_of(run / "rollouts_materialized_inputs.jsonl")
    got = rows_of(run / "rollouts.jsonl")
    users = [m for r in inputs for m in r["responses_create_params"]["input"] if m.get("role") == "user"]
    if len(inputs) != 18 or users or (got and any(rewards(got))):
        raise failed(ctx, f"exit {code}, {len(inputs)}, {len(users)}, {rewards(got)}: "
                          f"{log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/eval_settings.sh (--responses-create-params with an 'input' list); RUN/run_eval.sh (materialize "
            f"6 x 3 with the overrides, collect, profile) exit {code}; 18 materialized rows without a user message, "
            f"{len(got)} rollouts, rewards {rewards(got)}.")


# =====================================================================================================
# infra
# =====================================================================================================


@case(
    "infra_docker_collect_writes_to_tmpfs_scratch_sized_by_container_template_below_rollouts_size",
    "infra",
    ["tmpfs", "size"],
    "the user's run_eval.sh collects in a container that writes its output to the fast scratch of the platform's "
    "container template, `--tmpfs /scratch:size=16k`, and copies it to the run folder afterwards; the rollouts "
    "outgrew the 16 KiB tmpfs, so the collect's writes failed with 'No space left on device' and only part of the "
    "rollouts reached the run folder",
)
def infra_docker_collect_writes_to_tmpfs_scratch_sized_by_container_template_below_rollouts_size(ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 8, 52)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text(
        f"#!/bin/bash\n# weekly eval; the collect runs in the eval container and writes to its scratch\ncd {run}\n"
        f"{GP} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        "# scratch: the platform template's tmpfs (fast local writes), copied back at the end\n"
        f"docker run --rm --network host --tmpfs /scratch:size=16k {python_mounts()} -v {run}:{run} "
        f"-e PYTHONPATH={ROOT} -w {run} gym-pipeline/base:bookworm bash -c \"\\\n"
        f"  {BIN}/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl "
        f"--output /scratch/rollouts.jsonl --model-url {url} --env string_match --concurrency 4; \\\n"
        f"  df -h /scratch; cp /scratch/rollouts* {run}/\"\n"
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    log = log_of(ctx, "run_eval.log")
    got = []
    for line in text_of(run / "rollouts.jsonl").splitlines():
        try:
            got.append(json.loads(line))
        except ValueError:  # the line the full tmpfs cut off
            pass
    if "No space left on device" not in log or len(got) >= 24:
        raise failed(ctx, f"exit {code}, {len(got)}: {log[-2000:]}")
    return (f"RUN/run_eval.sh (materialize 8 x 3, `docker run --tmpfs /scratch:size=16k ... collect --output "
            f"/scratch/rollouts.jsonl`, copy back, profile) exit {code}; 'No space left on device', {len(got)} of 24 "
            f"rollouts in the run folder.")


# =====================================================================================================
# data_schema
# =====================================================================================================

JSON_LABELS = [
    ("What is the capital of Japan?", "Tokyo"),
    ("How many legs does a spider have?", "8"),
    ("Which element has the chemical symbol Fe?", "Iron"),
    ("In which year did the Second World War end?", "1945"),
    ("What is the longest river in South America?", "Amazon"),
    ("How many degrees are in a right angle?", "90"),
    ("Who painted the Mona Lisa?", "Leonardo da Vinci"),
    ("How many continents are there?", "7"),
]

PREP_JSON_LABELS_PY = '''"""prep.py: the labelling tool's export (labels_export.jsonl) -> tasks.jsonl."""
import json

with open("labels_export.jsonl") as handle, open("tasks.jsonl", "w") as out:
    count = 0
    for line in handle:
        item = json.loads(line)
        text = f"{item['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": str(item["label"]), "extraction_mode": "final_answer", "case_sensitive": False}) + "\\n")
        count += 1
print(f"prep: wrote {count} tasks")
'''


@case(
    "data_schema_builtin_prep_copies_label_field_that_new_labelling_tool_exports_as_json_encoded_text",
    "data_schema",
    ["label", "json.loads"],
    "the labelling tool's new export stores each label as JSON-encoded text (a string label is '\"Tokyo\"', a "
    "number '1945'); the user's prep.py copies the field as before with str(item['label']), so text labels keep "
    "their quotes: every text question scored 0 although the model answered Tokyo, Iron, Amazon and Leonardo da "
    "Vinci, while the numeric ones still scored (every command exits 0)",
)
def data_schema_builtin_prep_copies_label_field_that_new_labelling_tool_exports_as_json_encoded_text(ctx: Ctx) -> str:
    run = ctx.run
    (run / "labels_export.jsonl").write_text("".join(
        json.dumps({"question": q, "label": json.dumps(int(a) if a.isdigit() else a), "labeller": "team-b"}) + "\n"
        for q, a in JSON_LABELS))
    (run / "prep.py").write_text(PREP_JSON_LABELS_PY)
    _, better = truth_checkpoints(ctx, JSON_LABELS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval of the labelling team's export\n"
                      f"cd {run}\n{BIN}/python prep.py\n" + pipeline_lines(url, data="tasks.jsonl"))
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    got = rows_of(run / "rollouts.jsonl")
    text = [r for r in got if str(r.get("expected_answer", "")).startswith('"')]
    answered = [r for r in text if str(r.get("extracted_answer", "")).strip() in {a for _, a in JSON_LABELS}]
    numeric = [r for r in got if not str(r.get("expected_answer", "")).startswith('"')]
    if code or len(got) != 24 or not answered or any(rewards(text)) or not any(rewards(numeric)):
        raise failed(ctx, f"exit {code}, {len(got)}, {len(answered)}, {rewards(got)}: "
                          f"{log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/labels_export.jsonl (labels as JSON text); RUN/prep.py (str(item['label'])); RUN/run_eval.sh "
            f"(prep, materialize 8 x 3, collect, profile) exit {code}; text-label rewards {rewards(text)}, "
            f"{len(answered)} of them answered right; numeric-label rewards {rewards(numeric)}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

TIMEOUT_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# The check runs under `timeout 10`: a `cat` of a FIFO left by an agent hung the verifier last month.
cd /app
expected="the"
if timeout 10 bash -c 'test "$(tr -d "[:space:]" < /app/top.txt 2>/dev/null)" = "$expected"'; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL (top.txt: $(head -c 40 /app/top.txt 2>/dev/null))"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def timeout_check(tasks: Path) -> None:
    (tasks / "top-word" / "tests" / "test.sh").write_text(TIMEOUT_TEST_SH)


@case(
    "verifier_runtime_taskfolder_test_sh_timeout_bash_c_child_shell_never_sees_unexported_expected_variable",
    "verifier_runtime",
    ["export", "bash -c"],
    "top-word's tests/test.sh, changed to run its check under `timeout 10 bash -c '...'`, sets expected=\"the\" in "
    "the verifier's shell but compares against \"$expected\" inside the single-quoted child script; the variable is "
    "not exported, so the child compares top.txt with an empty string: an episode whose top.txt held the right word "
    "'the' scored 0, and one that left top.txt missing or empty would pass (every command exits 0)",
)
def verifier_runtime_taskfolder_test_sh_timeout_bash_c_child_shell_never_sees_unexported_expected_variable(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["top-word", "create-greeting"], edit=timeout_check)
    top = task_rewards(ctx, "top-word")
    shown = "FAIL (top.txt: the" in everything(ctx)
    right_scored_zero = any(r.get("reward") == 0 and "top-word" in json.dumps(r) for r in got)
    if code or complete(ctx) != 4 or not top or not right_scored_zero or not shown:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {top}, shown {shown}: "
                          f"{log_of(ctx, 'run_tasks.log')[-1200:]}")
    return (f"RUN/tasks/top-word/tests/test.sh (`timeout 10 bash -c '... = \"$expected\"'`, expected not exported); "
            f"RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile of RUN/tasks x 2) exit {code}; "
            f"{complete(ctx)} of 4 episodes, top-word rewards {top} (FAIL with top.txt 'the'), create-greeting rewards "
            f"{task_rewards(ctx, 'create-greeting')}.")


if __name__ == "__main__":
    sys.exit(main("sixty_fourth_held_out", __file__, __doc__))
