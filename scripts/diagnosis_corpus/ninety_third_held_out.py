"""Build the NINETY-THIRD HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/ninety_third_held_out.py --out tests/data/diagnosis_corpus/ninety_third_held_out [--only CASE ...]

This set was written after the ninety-one earlier sets (first_held_out.py ... ninety_first_held_out.py; the
ninety-second was written beside it at the same time), from the guides alone (the NeMo Gym debugging guide, the
reward profiling guide, the task-folder troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without
reading the diagnosis rules, their tests or their results. It is meant to be measured once, by someone else, on
failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `check-stale`,
`stage`), Docker containers the user's scripts start, task-folder (Harbor-format) tasksets, and the user's own shell
and Python tooling, settings, data-preparation scripts and verifiers. The output of every command is captured as a
user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data,
scripts, settings, verifier code). Each case injects one cause, different in mechanism from those of the 91 earlier
sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not
written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), and PYTHONPATH set to this checkout. Run it from a
foreground shell. Containers it makes are named `h93-...` and removed at the end of their recipe.
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import failed  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_seventh_held_out import task_rewards, week  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from ninety_first_held_out import test_outputs, write_task_file  # noqa: E402
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
# helpers of this set
# =====================================================================================================


def everything(ctx: Ctx) -> str:
    """Every text file of the run folder (logs, rollouts, verifier output), for the recipes' checks."""
    return "".join(text_of(p) for p in ctx.run.rglob("*") if p.is_file()
                   and p.suffix in (".log", ".jsonl", ".json", ".txt", ".out"))


def labelled(rows: list[dict], labels: set[str]) -> tuple[list[dict], list[dict]]:
    """(rows whose expected_answer is in `labels`, the others)."""
    inside = [r for r in rows if str(r.get("expected_answer")) in labels]
    return inside, [r for r in rows if str(r.get("expected_answer")) not in labels]


# =====================================================================================================
# healthy
# =====================================================================================================

IONICE_SH = """# collect at idle I/O priority, as the node's etiquette page asks for long jobs on the shared disk
{gp} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
ionice -c 3 -n 7 {gp} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl \\
  --model-url {url} --env string_match --concurrency 4
echo "collect exit: $?"
{gp} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "healthy_builtin_collect_run_under_ionice_idle_class_with_a_priority_level_that_ionice_ignores_with_a_warning",
    "healthy",
    [],
    "nothing is wrong: run_eval.sh starts collect as `ionice -c 3 -n 7 gym-pipeline collect ...` (idle I/O class, "
    "from the node etiquette page); the idle class has no priority levels, so ionice prints 'ionice: ignoring given "
    "class data for idle class' and runs collect at idle I/O priority; collect does almost no disk I/O, exited 0, "
    "and every rollout was collected and profiled",
)
def healthy_builtin_collect_run_under_ionice_idle_class_with_a_priority_level_that_ionice_ignores_with_a_warning(
        ctx: Ctx) -> str:
    _, (_, better) = builtin_rows(ctx, 6, 30)
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = run_eval(ctx, IONICE_SH.format(gp=GP, url=url), "weekly eval at idle I/O priority")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(ctx.run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or "ignoring given class data" not in log or "collect exit: 0" not in log \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `ionice -c 3 -n 7` collect, profile) exit {code}; ionice warned it "
            f"ignores the level; {complete(ctx)} of 18 rollouts, mean reward {mean_of(got):.2f}.")


def ulimit_collect_script(ctx: Ctx, url: str, name: str) -> Path:
    run = ctx.run
    script = run / "run_eval.sh"
    script.write_text(
        f"#!/bin/bash\n# weekly eval; collect runs in the team's eval container, whose entry command comes from the "
        f"training containers' template\ncd {run}\nrm -f rollouts.jsonl rollouts_failures.jsonl\n"
        f"{GP} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"docker run --rm --name {name} {container_python(run)} gym-pipeline/base:bookworm \\\n"
        "  bash -c 'ulimit -l unlimited; ulimit -n 1048576; echo \"open files limit: $(ulimit -n)\"; exec \"$0\" "
        "\"$@\"' \\\n"
        f"  {BIN}/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output "
        f"rollouts.jsonl --model-url {url} --env string_match --concurrency 4\n"
        "echo \"collect container exit: $?\"\n"
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    return script


@case(
    "healthy_docker_collect_container_entry_raises_memlock_and_open_files_limits_docker_does_not_allow_so_bash_prints_operation_not_permitted",
    "healthy",
    [],
    "nothing is wrong: the collect container's entry command, copied from the training containers' template, starts "
    "with `ulimit -l unlimited; ulimit -n 1048576` (pinned memory and file handles for NCCL); a container without "
    "CAP_SYS_RESOURCE may not raise its hard limits, so bash prints 'ulimit: max locked memory: cannot modify "
    "limit: Operation not permitted' (and the same for open files) and goes on with the container's own limits "
    "(20000 open files, far more than collect at concurrency 4 uses): collect exited 0 and every rollout was "
    "collected and profiled",
)
def healthy_docker_collect_container_entry_raises_memlock_and_open_files_limits_docker_does_not_allow_so_bash_prints_operation_not_permitted(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 42)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h93-collect-{free_port()}"
    script = ulimit_collect_script(ctx, url, name)
    (run / "logs").mkdir(exist_ok=True)
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or "Operation not permitted" not in log or "collect container exit: 0" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run --rm --network host ... gym-pipeline/base:bookworm bash "
            f"-c 'ulimit -l unlimited; ulimit -n 1048576; exec ...' python -m gym_pipeline.cli collect`, profile) exit "
            f"{code}; bash refused both limits; {complete(ctx)} of 18 rollouts, mean reward {mean_of(got):.2f}.")


RM_SOLVE_SH = """#!/bin/bash
rm /app/hello.txt
echo 'Hello, Gym!' > /app/hello.txt
"""


def rm_solution(tasks: Path) -> None:
    write_task_file(tasks, "create-greeting", "solution/solve.sh", RM_SOLVE_SH)


@case(
    "healthy_taskfolder_solution_removes_hello_txt_without_f_so_every_solved_episode_prints_cannot_remove_before_writing_it",
    "healthy",
    [],
    "nothing is wrong: the author of create-greeting's solution/solve.sh starts it with `rm /app/hello.txt` (to begin "
    "from a clean file) without -f; the file never exists in a fresh sandbox, so each time the agent runs the "
    "solution its output starts with \"rm: cannot remove '/app/hello.txt': No such file or directory\", but the next "
    "line writes the file: every episode in which the agent ran the whole solution passed (the others are the "
    "policy's usual misses), and every episode was collected, scored and profiled",
)
def healthy_taskfolder_solution_removes_hello_txt_without_f_so_every_solved_episode_prints_cannot_remove_before_writing_it(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["create-greeting", "count-error-lines"], edit=rm_solution, repeats=4)
    greeting, counts = task_rewards(ctx, "create-greeting"), task_rewards(ctx, "count-error-lines")
    text = everything(ctx)
    if code or complete(ctx) != 8 or not any(greeting) or not any(counts) or "cannot remove" not in text \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {greeting} {counts}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/create-greeting/solution/solve.sh (`rm /app/hello.txt` without -f); RUN/run_tasks.sh "
            f"(`gym-pipeline stage` materialize, collect, profile x 2) exit {code}; {complete(ctx)} episodes, rewards "
            f"{greeting} and {counts}.")


# =====================================================================================================
# infra
# =====================================================================================================

JOURNALD_FLAGS = "--log-driver journald --log-opt tag=gym-eval"


@case(
    "infra_docker_collect_container_template_sends_container_logs_to_journald_which_this_node_does_not_run",
    "infra",
    ["--log-driver", "journald", "json-file", "template"],
    "the team's container template, copied from the systemd-managed GPU nodes where container logs go to the "
    "journal, starts the collect container with `--log-driver journald --log-opt tag=gym-eval`; this node runs no "
    "journald, so Docker refused to create the container ('failed to initialize logging driver: journald is not "
    "enabled on this host'): collect never ran and no rollout was collected although the policy server was up",
)
def infra_docker_collect_container_template_sends_container_logs_to_journald_which_this_node_does_not_run(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 54)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h93-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, JOURNALD_FLAGS, "collect runs in the team's eval container (flags "
                                   "from the GPU nodes' container template)")
    (run / "logs").mkdir(exist_ok=True)
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) or "journald is not enabled" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run --rm {JOURNALD_FLAGS} --network host ... "
            f"gym-pipeline/base:bookworm python -m gym_pipeline.cli collect --model-url {url}`, profile) exit {code}; "
            f"{complete(ctx)} rollouts collected.")


# =====================================================================================================
# model_serving
# =====================================================================================================

SUBST_SH = """# weekly eval: start this week's policy server, then materialize, collect, profile
# (the CI step runs this script under `timeout 40`)
start_policy() {{
  echo "starting the policy server on $1" >&2
  rm -f policy.url
  {gp} serve-policy --port 0 --ready-file policy.url --checkpoint "$1" --latency-ms 20 &
  until [ -s policy.url ]; do sleep 0.2; done
  echo "policy server up at $(cat policy.url)" >&2
  cat policy.url
}}
URL=$(start_policy {ckpt})
echo "policy server at $URL"
"""


@case(
    "model_serving_builtin_server_started_inside_command_substitution_keeps_its_stdout_pipe_so_run_script_never_gets_the_url",
    "model_serving",
    ["start_policy", "command substitution", "stdout", "redirect"],
    "run_eval.sh starts the policy server in a function, `URL=$(start_policy CKPT)`, which runs `gym-pipeline "
    "serve-policy ... &` and prints the ready URL; the backgrounded server inherits the command substitution's "
    "stdout pipe and keeps it open, so bash waits for it to close before the assignment finishes: the server came up "
    "and wrote its ready file, but the script never got past `URL=$(...)`, nothing was materialized or collected, "
    "and the CI step's `timeout 40` ended it (exit 124); the server's output must be redirected away from stdout "
    "(for example to logs/model_server.log)",
)
def model_serving_builtin_server_started_inside_command_substitution_keeps_its_stdout_pipe_so_run_script_never_gets_the_url(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 66)
    body = SUBST_SH.format(gp=GP, ckpt=better) + pipeline_lines("$URL")
    script = run / "run_eval.sh"
    script.write_text(f"#!/bin/bash\ncd {run}\n" + body)
    (run / "logs").mkdir(exist_ok=True)
    step = ctx.bg(f"( cd {run} && timeout 40 bash run_eval.sh; echo \"CI step exit: $?\" )", "logs/run_eval.log")
    step.wait(timeout=120)
    ctx.stop(step)
    log = log_of(ctx, "run_eval.log")
    ready = next((line.split()[-1] for line in log.splitlines() if line.startswith("policy server up at")), "")
    if complete(ctx) or "CI step exit: 124" not in log or not ready or "policy server at" in log \
            or (run / "rollouts_materialized_inputs.jsonl").exists():
        raise failed(ctx, f"{complete(ctx)}, {ready!r}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (`URL=$(start_policy ...)` whose function backgrounds serve-policy, then materialize, "
            f"collect, profile) under `timeout 40`: CI step exit 124; the server came up at {ready}; nothing "
            f"materialized or collected.")


# =====================================================================================================
# config (built-in)
# =====================================================================================================

DEFAULTS_DRIVER_PY = '''"""run_eval.py: the weekly eval with this week's settings (eval_settings.json) over the team's defaults."""
import json
import subprocess

# the team's defaults (the staging server, a quick single-repeat check)
DEFAULTS = {{"model_url": "{staging}", "num_repeats": 1, "concurrency": 4, "dataset": "string_match.jsonl"}}

with open("eval_settings.json") as f:
    settings = {{**json.load(f), **DEFAULTS}}
print(f"settings: {{settings}}", flush=True)

GP = "{gp}"
subprocess.run([GP, "materialize", "--input", settings["dataset"], "--num-repeats", str(settings["num_repeats"]),
                "--agent", "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
subprocess.run([GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                "--model-url", settings["model_url"], "--env", "string_match",
                "--concurrency", str(settings["concurrency"])], check=True)
subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
               check=True)
print("weekly eval done", flush=True)
'''


@case(
    "config_builtin_python_driver_merges_team_defaults_after_the_users_settings_so_staging_url_and_one_repeat_win",
    "config",
    ["run_eval.py", "DEFAULTS", "merge order", "eval_settings.json"],
    "the user's run_eval.py reads this week's eval_settings.json (this week's policy server, 3 repeats) and merges "
    "it with the team's DEFAULTS as `{**json.load(f), **DEFAULTS}`: the later dict wins, so the defaults (the "
    "staging server, which serves the older checkpoint, and 1 repeat) replaced every setting the user gave; the "
    "eval ran the staging model with one repeat per task, and this week's server got no request, while every "
    "command exits 0",
)
def config_builtin_python_driver_merges_team_defaults_after_the_users_settings_so_staging_url_and_one_repeat_win(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (older, better) = builtin_rows(ctx, 8, 78)
    staging, _ = ctx.policy(older, "--latency-ms 20", log="logs/staging_server.log")
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "eval_settings.json").write_text(json.dumps({"model_url": url, "num_repeats": 3}, indent=2) + "\n")
    (run / "run_eval.py").write_text(DEFAULTS_DRIVER_PY.format(staging=staging, gp=GP))
    code = run_eval(ctx, f"cat eval_settings.json\n{BIN}/python run_eval.py\n", "weekly eval of this week's server")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 8 or f"'model_url': '{staging}'" not in log or "weekly eval done" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval_settings.json (model_url {url}, num_repeats 3); RUN/run_eval.py (`{{**json.load(f), "
            f"**DEFAULTS}}`, DEFAULTS with the staging server {staging} and 1 repeat); RUN/run_eval.sh exit {code}; "
            f"{complete(ctx)} rollouts (8 tasks x 1) from the staging server, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# config (task folder)
# =====================================================================================================


def path_env(tasks: Path) -> None:
    toml = tasks / "count-error-lines" / "task.toml"
    toml.write_text(toml.read_text().replace(
        "[verifier]\ntimeout_sec = 30.0\n",
        "[verifier]\ntimeout_sec = 30.0\n# the team's log tools for the checks (logcount, logstat)\n"
        "env = { PATH = \"/opt/eval-tools/bin:$PATH\", LOGTOOLS_STRICT = \"1\" }\n"))


@case(
    "config_taskfolder_task_toml_verifier_env_puts_literal_dollar_path_in_path_so_the_verifier_finds_no_command",
    "config",
    ["task.toml", "[verifier]", "env", "PATH"],
    "the author of count-error-lines added `env = { PATH = \"/opt/eval-tools/bin:$PATH\", ... }` to task.toml's "
    "[verifier] to put the team's log tools on the verifier's PATH; TOML does not expand `$PATH`, so the verifier "
    "ran with PATH set to the two entries '/opt/eval-tools/bin' and '$PATH' only, no command of the image (timeout, "
    "bash, cat) could be found, so test.sh never ran (exit 126) and wrote no reward (harbor:missing_reward), and "
    "every episode of the task scored 0 "
    "although the agent wrote the right count, while create-greeting scored (every command exits 0)",
)
def config_taskfolder_task_toml_verifier_env_puts_literal_dollar_path_in_path_so_the_verifier_finds_no_command(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["count-error-lines", "create-greeting"], edit=path_env, repeats=4)
    counts, greeting = task_rewards(ctx, "count-error-lines"), task_rewards(ctx, "create-greeting")
    text = everything(ctx)
    if code or not counts or any(counts) or not any(greeting) or "test.sh exited 126" not in text:
        raise failed(ctx, f"exit {code}, {counts} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/count-error-lines/task.toml ([verifier] env PATH = \"/opt/eval-tools/bin:$PATH\"); "
            f"RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile x 2) exit {code}; count-error-lines "
            f"rewards {counts} (harbor:missing_reward, test.sh exited 126), create-greeting {greeting}.")


# =====================================================================================================
# data_schema
# =====================================================================================================

ZERO_PAIRS = [
    ("How many moons does Venus have?", 0),
    ("How many moons does Mars have?", 2),
    ("What is the capital of Japan?", "Tokyo"),
    ("How many moons does Mercury have?", 0),
    ("How many legs does a spider have?", 8),
    ("How many sides does a hexagon have?", 6),
    ("How many wheels does a unicycle have?", 1),
    ("What is the capital of Kenya?", "Nairobi"),
]

PREP_ZERO_PY = '''"""prep.py: the review tool's export.json -> string_match.jsonl."""
import json

with open("export.json") as f:
    records = json.load(f)
with open("string_match.jsonl", "w") as out:
    for rec in records:
        # exports before v3 kept the label under legacy_answer
        label = rec.get("answer") or rec.get("legacy_answer")
        text = f"{rec['question']} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": str(label), "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
print(f"prep: {len(records)} rows written")
'''


@case(
    "data_schema_builtin_prep_falls_back_to_legacy_answer_with_or_so_numeric_zero_labels_become_none",
    "data_schema",
    ["prep.py", "legacy_answer", "or", "is None"],
    "the review tool's export.json gives numeric answers as JSON numbers and has a legacy_answer field (null since "
    "v3); the user's prep.py takes `rec.get(\"answer\") or rec.get(\"legacy_answer\")`, and `or` treats the answer "
    "0 as missing: the two questions whose answer is 0 (the moons of Venus and of Mercury) got the label str(None) = "
    "'None', so every rollout of them scored 0 although the model answered 0, while every command exits 0",
)
def data_schema_builtin_prep_falls_back_to_legacy_answer_with_or_so_numeric_zero_labels_become_none(
        ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, ZERO_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "export.json").write_text(json.dumps([{"question": q, "answer": a, "legacy_answer": None}
                                                 for q, a in ZERO_PAIRS], indent=1) + "\n")
    (run / "prep.py").write_text(PREP_ZERO_PY)
    code = run_eval(ctx, f"{BIN}/python prep.py\n" + pipeline_lines(url), "weekly eval: prep the export, then run")
    labels = [r["expected_answer"] for r in rows_of(run / "string_match.jsonl")]
    got = rows_of(run / "rollouts.jsonl")
    zero, others = labelled(got, {"None"})
    if code or labels.count("None") != 2 or len(zero) != 6 or any(rewards(zero)) or not any(rewards(others)):
        raise failed(ctx, f"exit {code}, {labels}, {rewards(zero)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/export.json (8 questions, answers as numbers, legacy_answer null); RUN/prep.py (`answer or "
            f"legacy_answer`); RUN/run_eval.sh (prep, materialize 8 x 3, collect, profile) exit {code}; labels "
            f"{labels}; rewards of the 'None' rows {rewards(zero)}, others mean {mean_of(others):.2f}.")


# =====================================================================================================
# verifier_runtime (task folder)
# =====================================================================================================

GREETING_MD5 = hashlib.md5(b"Hello, Gym!").hexdigest()  # what `printf 'Hello, Gym!' | md5sum` gives

MD5_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# The expected text is kept as its md5 so the answer is not spelled out here.
cd /app
EXPECTED_MD5={md5}
GOT_MD5=$(md5sum < /app/hello.txt 2>/dev/null | cut -d' ' -f1)
echo "md5 of /app/hello.txt: $GOT_MD5 (expected $EXPECTED_MD5)"
if test "$GOT_MD5" = "$EXPECTED_MD5"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def md5_test(tasks: Path) -> None:
    write_task_file(tasks, "create-greeting", "tests/test.sh", MD5_TEST_SH.format(md5=GREETING_MD5))


@case(
    "verifier_runtime_taskfolder_test_sh_compares_md5_of_hello_txt_with_hash_of_the_greeting_taken_without_its_newline",
    "verifier_runtime",
    ["test.sh", "md5sum", "newline", "EXPECTED_MD5"],
    "the author of create-greeting rewrote tests/test.sh to compare `md5sum < /app/hello.txt` with EXPECTED_MD5, "
    "the hash of the greeting taken without a trailing newline (`printf 'Hello, Gym!' | md5sum`); the instruction "
    "asks for a file holding the single line, which `echo` (the agent, and any solution) writes with its newline, so "
    "the hashes never matched and every episode of the task scored 0 although hello.txt was right, while "
    "count-error-lines scored (every command exits 0)",
)
def verifier_runtime_taskfolder_test_sh_compares_md5_of_hello_txt_with_hash_of_the_greeting_taken_without_its_newline(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["create-greeting", "count-error-lines"], edit=md5_test, repeats=4)
    greeting, counts = task_rewards(ctx, "create-greeting"), task_rewards(ctx, "count-error-lines")
    outputs = test_outputs(ctx)
    right = hashlib.md5(b"Hello, Gym!\n").hexdigest()
    if code or not greeting or any(greeting) or not any(counts) or f"md5 of /app/hello.txt: {right}" not in outputs:
        raise failed(ctx, f"exit {code}, {greeting} {counts}: {outputs[-800:]} {log_of(ctx, 'run_tasks.log')[-1000:]}")
    return (f"RUN/tasks/create-greeting/tests/test.sh (EXPECTED_MD5={GREETING_MD5}, the greeting without newline); "
            f"RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile x 2) exit {code}; create-greeting "
            f"rewards {greeting} (hello.txt hashed to {right}), count-error-lines {counts}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

STALE_PAIRS_OLD = [
    ("What is the capital of Australia?", "Sydney"),
    ("How many legs does a spider have?", "8"),
    ("What is the capital of Portugal?", "Lisbon"),
    ("How many hours are in a day?", "12"),
    ("What is the capital of Norway?", "Oslo"),
    ("What is the largest planet in the solar system?", "Jupiter"),
]
STALE_FIXED = {"Sydney": "Canberra", "12": "24"}

CHECK_STALE_SH = """rm -f rollouts.jsonl rollouts_failures.jsonl
# re-materialize only when the inputs no longer match the dataset (gym-pipeline check-stale)
if {gp} check-stale --inputs rollouts_materialized_inputs.jsonl --source string_match.jsonl --num-repeats 3 \\
    --agent string_match_simple_agent; then
  echo "inputs stale: re-materializing"
  {gp} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
    --output rollouts_materialized_inputs.jsonl
else
  echo "inputs up to date: reusing them"
fi
{gp} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {url} \\
  --env string_match --concurrency 4
{gp} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "cache_resume_builtin_run_script_reads_check_stale_exit_status_backwards_so_last_weeks_inputs_with_old_labels_are_reused",
    "cache_resume",
    ["run_eval.sh", "check-stale", "exit status", "materialize"],
    "the CI workspace keeps last week's rollouts_materialized_inputs.jsonl, and run_eval.sh re-materializes only "
    "`if gym-pipeline check-stale ...; then` (read as 'if stale'); check-stale exits 0 when the inputs match and 1 "
    "when they are stale, so this week, with string_match.jsonl relabelled (Sydney -> Canberra, 12 -> 24), it "
    "exited 1, the script printed 'inputs up to date: reusing them' and collected last week's inputs: the two "
    "fixed questions were scored against the old labels and got 0 although the model answered right (every "
    "command exits 0)",
)
def cache_resume_builtin_run_script_reads_check_stale_exit_status_backwards_so_last_weeks_inputs_with_old_labels_are_reused(
        ctx: Ctx) -> str:
    run = ctx.run
    fixed = [(q, STALE_FIXED.get(a, a)) for q, a in STALE_PAIRS_OLD]
    _, better = truth_checkpoints(ctx, fixed)
    data = run / "string_match.jsonl"
    write_jsonl(data, [question_row(q, a) for q, a in STALE_PAIRS_OLD])
    ctx.note("(last week, in the CI workspace RUN:)")
    ctx.sh(f"cd {run} && {GP} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent "
           "--output rollouts_materialized_inputs.jsonl", "logs/last_week_materialize.log")
    write_jsonl(data, [question_row(q, a) for q, a in fixed])
    ctx.note("(this week: string_match.jsonl relabelled, Sydney -> Canberra and 12 -> 24)")
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = run_eval(ctx, CHECK_STALE_SH.format(gp=GP, url=url), "weekly eval in the CI workspace")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    stale, others = labelled(got, set(STALE_FIXED))
    if code or "inputs up to date" not in log or len(stale) != 6 or any(rewards(stale)) or not any(rewards(others)):
        raise failed(ctx, f"exit {code}, {len(stale)}, {rewards(stale)}: {log[-1500:]}")
    return (f"RUN/rollouts_materialized_inputs.jsonl (last week's); RUN/string_match.jsonl (relabelled this week); "
            f"RUN/run_eval.sh (`if check-stale; then materialize`, collect, profile) exit {code}; inputs reused; "
            f"rewards of the two relabelled questions {rewards(stale)}, others mean {mean_of(others):.2f}.")


if __name__ == "__main__":
    sys.exit(main("ninety_third_held_out", __file__, __doc__))
