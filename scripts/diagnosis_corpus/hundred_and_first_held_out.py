"""Build the HUNDRED-AND-FIRST HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/hundred_and_first_held_out.py --out tests/data/diagnosis_corpus/hundred_and_first_held_out [--only CASE ...]

This set was written after the ninety-nine earlier sets (first_held_out.py ... ninety_ninth_held_out.py; the
hundredth was written beside it at the same time), from the guides alone (the NeMo Gym debugging guide, the
reward profiling guide, the task-folder troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without
reading the diagnosis rules, their tests or their results. It is meant to be measured once, by someone else, on
failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
Docker containers the user's scripts start, task-folder (Harbor-format) tasksets, and the user's own shell, make and
Python tooling, settings, data-preparation scripts and verifiers. The output of every command is captured as a user
would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data,
scripts, settings, verifier code). Each case injects one cause, different in mechanism from those of the 99 earlier
sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not
written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), make, and PYTHONPATH set to this checkout. Run it from a
foreground shell. Containers it makes are named `h101-...` and removed at the end of their recipe.
"""
from __future__ import annotations

import sys
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
from recipes import BIN, GP, ROOT, Ctx, case, main, rows_of, text_of  # noqa: E402
from seventy_first_held_out import docker_collect_script, remove_container  # noqa: E402
from seventy_ninth_held_out import run_eval  # noqa: E402
from sixty_fourth_held_out import mean_of, pipeline_lines, python_mounts  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_sixth_held_out import free_port  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# healthy
# =====================================================================================================

TIMED_DRIVER_PY = '''"""drive_eval.py MODEL_URL: the weekly eval, each step timed against the budget of the CI smoke set."""
import subprocess
import sys
import time

GP = "{gp}"
url = sys.argv[1]
# budgets (seconds) measured on the 4-row smoke set in CI
BUDGET_S = {{"materialize": 5.0, "collect": 1.0, "profile": 5.0}}
STEPS = {{
    "materialize": [GP, "materialize", "--input", "string_match.jsonl", "--num-repeats", "3", "--agent",
                    "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"],
    "collect": [GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                "--model-url", url, "--env", "string_match", "--concurrency", "4"],
    "profile": [GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
}}
for step, argv in STEPS.items():
    start = time.monotonic()
    subprocess.run(argv, check=True)
    took = time.monotonic() - start
    flag = "" if took <= BUDGET_S[step] else f"  !! SLOW: over budget of {{BUDGET_S[step]:.1f}} s"
    print(f"[timing] {{step}} took {{took:.1f}} s{{flag}}", flush=True)
print("eval done", flush=True)
'''


@case(
    "healthy_builtin_python_driver_flags_collect_as_slow_against_time_budget_measured_on_four_row_smoke_set",
    "healthy",
    [],
    "nothing is wrong: the user's drive_eval.py times every step against budgets measured on the 4-row CI smoke set "
    "(collect: 1.0 s) and prints '!! SLOW: over budget' when a step takes longer; the weekly set has 8 questions x 3 "
    "repeats on a policy answering in about 0.2 s, so collect takes a few seconds and is flagged, yet every rollout "
    "was collected, scored and profiled and the driver exited 0",
)
def healthy_builtin_python_driver_flags_collect_as_slow_against_time_budget_measured_on_four_row_smoke_set(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 8, 14)
    url, _ = ctx.policy(better, "--latency-ms 200")
    (run / "drive_eval.py").write_text(TIMED_DRIVER_PY.format(gp=GP))
    (run / "logs").mkdir(exist_ok=True)
    code = ctx.sh(f"cd {run} && {BIN}/python drive_eval.py {url}", "logs/drive_eval.log", timeout=300)
    log = log_of(ctx, "drive_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 24 or "SLOW" not in log or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/drive_eval.py (step budgets of the smoke set, collect 1.0 s); driver exit {code}; collect flagged "
            f"SLOW; {complete(ctx)} of 24 rollouts, mean reward {mean_of(got):.2f}.")


@case(
    "healthy_docker_run_script_probes_policy_from_container_with_curl_that_the_base_image_lacks_then_collects_fine",
    "healthy",
    [],
    "nothing is wrong: before collecting, the user's run_eval.sh probes the policy from inside the eval image with "
    "`docker run ... curl -sf MODEL_URL/models`; the base image has no curl, so docker prints 'executable file not "
    "found in $PATH' (exit 127) and the script says the probe failed, but it goes on (no set -e) and the collect "
    "container reached the policy, exited 0, and every rollout was collected and profiled",
)
def healthy_docker_run_script_probes_policy_from_container_with_curl_that_the_base_image_lacks_then_collects_fine(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 26)
    url, _ = ctx.policy(better, "--latency-ms 20")
    port = free_port()
    name, probe = f"h101-collect-{port}", f"h101-probe-{port}"
    script = docker_collect_script(ctx, url, name, "", "collect runs in the eval container")
    text = script.read_text()
    check = (f"# can the eval image reach the policy?\ndocker run --rm --name {probe} --network host "
             f"gym-pipeline/base:bookworm curl -sf {url}/models || echo \"probe from container failed (exit $?)\"\n")
    head, _, tail = text.partition("docker run --rm --name " + name)
    script.write_text(head + check + "docker run --rm --name " + name + tail)
    (run / "logs").mkdir(exist_ok=True)
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
        remove_container(probe)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or "executable file not found" not in log or "probe from container failed" \
            not in log or "collect container exit: 0" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (curl probe in the base image, materialize 6 x 3, docker collect, profile) exit {code}; "
            f"the probe failed (no curl); {complete(ctx)} of 18 rollouts, mean reward {mean_of(got):.2f}.")


PYTEST_VERSION_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
# record the test runner version for the report (the pytest-based check is coming in v2 of this task)
pytest --version
if test "$(tr -d "[:space:]" < /app/count.txt 2>/dev/null)" = "3"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def pytest_version(tasks: Path) -> None:
    write_task_file(tasks, "count-error-lines", "tests/test.sh", PYTEST_VERSION_TEST_SH)


@case(
    "healthy_taskfolder_test_sh_records_pytest_version_that_the_sandbox_image_lacks_before_its_shell_check",
    "healthy",
    [],
    "nothing is wrong: the author of count-error-lines added `pytest --version` to tests/test.sh to record the test "
    "runner for a planned pytest-based check; the sandbox image has no pytest, so every verification prints "
    "'pytest: command not found' and then runs its real shell check (no set -e): every episode in which the agent "
    "wrote the right count passed, and every episode was collected, scored and profiled",
)
def healthy_taskfolder_test_sh_records_pytest_version_that_the_sandbox_image_lacks_before_its_shell_check(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["count-error-lines", "create-greeting"], edit=pytest_version, repeats=4)
    counts, greeting = task_rewards(ctx, "count-error-lines"), task_rewards(ctx, "create-greeting")
    text = everything(ctx)
    if code or complete(ctx) != 8 or not any(counts) or not any(greeting) or "command not found" not in text \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {counts} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/count-error-lines/tests/test.sh (`pytest --version`, not installed); RUN/run_tasks.sh "
            f"(`gym-pipeline stage` materialize, collect, profile x 2) exit {code}; {complete(ctx)} episodes, rewards "
            f"{counts} and {greeting}.")


# =====================================================================================================
# data_schema
# =====================================================================================================

AGENCIES = [
    ("Which US agency ran the Apollo programme? Give its acronym.", "NASA"),
    ("What is the capital of Haiti?", "Port-au-Prince"),
    ("Which UN agency leads on international public health? Give its acronym.", "WHO"),
    ("What is the capital of Norway?", "Oslo"),
    ("What is the capital of Japan?", "Tokyo"),
    ("What is the capital of Peru?", "Lima"),
]

PREP_TITLE_PY = '''"""prep.py: the reviewers' sheet (sheet.tsv: question<TAB>answer) -> string_match.jsonl."""
import json

rows = []
with open("sheet.tsv", encoding="utf-8") as f:
    for line in f:
        if not line.strip():
            continue
        question, answer = line.rstrip("\\n").split("\\t")
        answer = answer.strip().title()  # reviewers type answers in any case; tidy them for the report
        text = f"{question} End your response with 'Final answer: <answer>'."
        rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                            "content": [{"type": "input_text", "text": text}]}]},
                     "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": True})
with open("string_match.jsonl", "w") as out:
    out.writelines(json.dumps(row) + "\\n" for row in rows)
print(f"prep: {len(rows)} rows written")
'''


@case(
    "data_schema_builtin_prep_tidies_labels_with_str_title_so_case_sensitive_acronyms_and_hyphenated_names_never_match",
    "data_schema",
    ["prep.py", ".title()", "case_sensitive", "expected_answer"],
    "the user's prep.py tidies every label of the reviewers' sheet with `answer.strip().title()` while writing "
    "case_sensitive true; title() turns NASA into 'Nasa', WHO into 'Who' and Port-au-Prince into 'Port-Au-Prince', so "
    "the string_match verifier, comparing case-sensitively, scored 0 every right answer to those three questions, "
    "while the other questions scored normally (every command exits 0)",
)
def data_schema_builtin_prep_tidies_labels_with_str_title_so_case_sensitive_acronyms_and_hyphenated_names_never_match(
        ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, AGENCIES)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "sheet.tsv").write_text("".join(f"{q}\t{a}\n" for q, a in AGENCIES), encoding="utf-8")
    (run / "prep.py").write_text(PREP_TITLE_PY)
    code = run_eval(ctx, f"{BIN}/python prep.py\n" + pipeline_lines(url), "weekly eval: prep the sheet, then run")
    labels = [r["expected_answer"] for r in rows_of(run / "string_match.jsonl")]
    got = rows_of(run / "rollouts.jsonl")
    broken, others = labelled(got, {"Nasa", "Port-Au-Prince", "Who"})
    if code or labels[:3] != ["Nasa", "Port-Au-Prince", "Who"] or len(broken) != 9 or sum(rewards(broken)) > 1 \
            or mean_of(others) < mean_of(broken) + 0.3:
        raise failed(ctx, f"exit {code}, {labels}, {rewards(broken)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/sheet.tsv (6 questions); RUN/prep.py (`answer.strip().title()`, case_sensitive true); "
            f"RUN/run_eval.sh (prep, materialize 6 x 3, collect, profile) exit {code}; labels {labels}; rewards of "
            f"the three title-cased labels {rewards(broken)}, others mean {mean_of(others):.2f}.")


# =====================================================================================================
# config
# =====================================================================================================

EVAL_JSON = """{{
  "dataset": "string_match.jsonl",
  "num_repeats": 3,
  "concurrency": 4,
  "model_url": "{new}",
  "notes": "step_0200 candidate, weekly eval",
  "report_to": "eval-team",
  "model_url": "{old}"
}}
"""

JSON_DRIVER_PY = '''"""drive_eval.py: the weekly eval, settings from eval.json."""
import json
import subprocess

GP = "{gp}"
with open("eval.json") as f:
    cfg = json.load(f)
url = cfg["model_url"]
print(f"== model at {{url}}, {{cfg['num_repeats']}} repeats", flush=True)
subprocess.run([GP, "materialize", "--input", cfg["dataset"], "--num-repeats", str(cfg["num_repeats"]), "--agent",
                "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
subprocess.run([GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                "--model-url", url, "--env", "string_match", "--concurrency", str(cfg["concurrency"])], check=True)
subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
               check=True)
'''


@case(
    "config_builtin_eval_json_keeps_last_weeks_model_url_key_below_the_new_one_and_json_load_takes_the_last_duplicate",
    "config",
    ["eval.json", "model_url", "duplicate", "step_0200"],
    "the user's eval.json holds the key model_url twice: this week's step_0200 endpoint near the top and last week's "
    "step_0100 endpoint left at the bottom; Python's json.load keeps the last duplicate without a warning, so "
    "drive_eval.py collected from the step_0100 server and the step_0200 server got no request, while every command "
    "exits 0",
)
def config_builtin_eval_json_keeps_last_weeks_model_url_key_below_the_new_one_and_json_load_takes_the_last_duplicate(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (older, better) = builtin_rows(ctx, 6, 38)
    old, _ = ctx.policy(older, "--latency-ms 20", log="logs/model_server_step_0100.log")
    new, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server_step_0200.log")
    (run / "eval.json").write_text(EVAL_JSON.format(new=new, old=old))
    (run / "drive_eval.py").write_text(JSON_DRIVER_PY.format(gp=GP))
    (run / "logs").mkdir(exist_ok=True)
    code = ctx.sh(f"cd {run} && {BIN}/python drive_eval.py", "logs/drive_eval.log", timeout=300)
    log = log_of(ctx, "drive_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or f"model at {old}" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.json (model_url twice: {new} then {old}); RUN/drive_eval.py (json.load); driver exit {code}; "
            f"collected from {old} (step_0100); {complete(ctx)} rollouts, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# verifier_runtime (task folder)
# =====================================================================================================

AND_DEFAULT_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
if test "$(tr -d "[:space:]" < /app/count.txt 2>/dev/null)" = "3"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
fi
# default: no reward written means the check failed -> 0
[ -f /logs/verifier/reward.txt ] && echo 0 > /logs/verifier/reward.txt
exit 0
"""


def and_default(tasks: Path) -> None:
    write_task_file(tasks, "count-error-lines", "tests/test.sh", AND_DEFAULT_TEST_SH)


@case(
    "verifier_runtime_taskfolder_test_sh_default_reward_line_tests_file_exists_with_and_instead_of_or_so_every_pass_becomes_zero",
    "verifier_runtime",
    ["test.sh", "[ -f", "||", "reward.txt"],
    "the author of count-error-lines ended tests/test.sh with a default meant to write 0 when no reward was written, "
    "but wrote it `[ -f /logs/verifier/reward.txt ] && echo 0 > /logs/verifier/reward.txt` (&& instead of ||): "
    "whenever the check passed and wrote 1 the file exists, so the line overwrote it with 0; every episode of the "
    "task scored 0 although the agent wrote the right count (PASS in the log), while create-greeting scored, and "
    "every command exits 0",
)
def verifier_runtime_taskfolder_test_sh_default_reward_line_tests_file_exists_with_and_instead_of_or_so_every_pass_becomes_zero(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["count-error-lines", "create-greeting"], edit=and_default, repeats=4)
    counts, greeting = task_rewards(ctx, "count-error-lines"), task_rewards(ctx, "create-greeting")
    text = everything(ctx)
    if code or not counts or any(counts) or not any(greeting) or "PASS" not in text:
        raise failed(ctx, f"exit {code}, {counts} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/count-error-lines/tests/test.sh (`[ -f reward.txt ] && echo 0 > reward.txt` after the "
            f"check); RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile x 2) exit {code}; "
            f"count-error-lines rewards {counts}, create-greeting {greeting}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

MEMO_DRIVER_PY = '''"""drive_eval.py STEP=URL ...: evaluate several checkpoints in one go, into results/<step>/."""
import functools
import shutil
import subprocess
import sys
from pathlib import Path

GP = "{gp}"
URL = None  # the endpoint of the checkpoint being evaluated
subprocess.run([GP, "materialize", "--input", "string_match.jsonl", "--num-repeats", "3", "--agent",
                "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)


@functools.cache  # collect is the slow part: never collect the same inputs twice in one session
def collect(inputs: str) -> str:
    out = Path("results") / f"collect_{{len(list(Path('results').glob('collect_*')))}}.jsonl"
    subprocess.run([GP, "collect", "--inputs", inputs, "--output", str(out), "--model-url", URL, "--env",
                    "string_match", "--concurrency", "4"], check=True)
    return str(out)


Path("results").mkdir(exist_ok=True)
for arg in sys.argv[1:]:
    step, URL = arg.split("=", 1)
    print(f"== {{step}} at {{URL}}", flush=True)
    folder = Path("results") / step
    folder.mkdir(exist_ok=True)
    shutil.copy(collect("rollouts_materialized_inputs.jsonl"), folder / "rollouts.jsonl")
    subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts",
                    str(folder / "rollouts.jsonl")], check=True)
print("all checkpoints done", flush=True)
'''


@case(
    "cache_resume_builtin_python_driver_memoises_collect_with_functools_cache_on_inputs_path_so_second_checkpoint_reuses_first",
    "cache_resume",
    ["drive_eval.py", "functools.cache", "URL", "collect"],
    "the user's drive_eval.py evaluates step_0100 and step_0200 in one session and memoises its collect(inputs) "
    "function with @functools.cache; the endpoint is a global (URL) and not an argument, so for step_0200 the call "
    "with the same inputs path returned step_0100's rollouts file from the cache, the step_0200 server got no "
    "request, and results/step_0200/ holds and profiles step_0100's rollouts (every command exits 0)",
)
def cache_resume_builtin_python_driver_memoises_collect_with_functools_cache_on_inputs_path_so_second_checkpoint_reuses_first(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (older, better) = builtin_rows(ctx, 6, 44)
    old, _ = ctx.policy(older, "--latency-ms 20", log="logs/model_server_step_0100.log")
    new, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server_step_0200.log")
    (run / "drive_eval.py").write_text(MEMO_DRIVER_PY.format(gp=GP))
    (run / "logs").mkdir(exist_ok=True)
    code = ctx.sh(f"cd {run} && {BIN}/python drive_eval.py step_0100={old} step_0200={new}", "logs/drive_eval.log",
                  timeout=300)
    log = log_of(ctx, "drive_eval.log")
    first = text_of(run / "results" / "step_0100" / "rollouts.jsonl")
    second = text_of(run / "results" / "step_0200" / "rollouts.jsonl")
    got = rows_of(run / "results" / "step_0200" / "rollouts.jsonl")
    collected = sorted(p.name for p in (run / "results").glob("collect_*") if "failures" not in p.name)
    if code or len(got) != 18 or first != second or collected != ["collect_0.jsonl"] \
            or not (run / "results" / "step_0200" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)}, {collected}: {log[-1500:]}")
    return (f"RUN/drive_eval.py (@functools.cache on collect(inputs), endpoint in a global); driver exit {code}; "
            f"one collect ({collected}); results/step_0200/rollouts.jsonl identical to step_0100's, {len(got)} "
            f"rollouts, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# infra (Docker)
# =====================================================================================================


@case(
    "infra_docker_collect_container_template_reads_env_file_from_ci_runner_path_absent_on_this_node_so_docker_refuses",
    "infra",
    ["docker", "--env-file", "/etc/ci/eval.env", "run_eval.sh"],
    "run_eval.sh starts the collect container with `--env-file /etc/ci/eval.env`, taken from the CI runner's "
    "container template; that file exists only on the CI runners, so docker refused to create the container "
    "('open /etc/ci/eval.env: no such file or directory'), the script went on to profile, and no rollout was "
    "collected although the policy server was up",
)
def infra_docker_collect_container_template_reads_env_file_from_ci_runner_path_absent_on_this_node_so_docker_refuses(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 8)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h101-collect-{free_port()}"
    if Path("/etc/ci/eval.env").exists():
        raise recipes.RecipeError("/etc/ci/eval.env exists on this node")
    script = docker_collect_script(ctx, url, name, "--env-file /etc/ci/eval.env", "collect runs in the eval "
                                   "container (flags from the CI runner's container template)")
    (run / "logs").mkdir(exist_ok=True)
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) or "eval.env" not in log or "no such file" not in log.lower() \
            or "collect container exit: 0" in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run --env-file /etc/ci/eval.env ... collect`, profile) "
            f"exit {code}; docker refused (no such env file); {complete(ctx)} rollouts collected.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

TIMEOUT_DRIVER_PY = '''"""drive_eval.py MODEL_URL: the nightly eval; every step is bounded so a hung server cannot block CI."""
import subprocess
import sys

GP = "{gp}"
url = sys.argv[1]
# step timeouts (s), sized on the 4-row smoke set
TIMEOUT_S = {{"materialize": 60, "collect": 20, "profile": 60}}
STEPS = {{
    "materialize": [GP, "materialize", "--input", "string_match.jsonl", "--num-repeats", "3", "--agent",
                    "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"],
    "collect": [GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                "--model-url", url, "--env", "string_match", "--concurrency", "4"],
    "profile": [GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
}}
for step, argv in STEPS.items():
    try:
        subprocess.run(argv, check=True, timeout=TIMEOUT_S[step])
    except subprocess.TimeoutExpired:
        print(f"warning: {{step}} exceeded {{TIMEOUT_S[step]}} s, continuing with what it wrote", flush=True)
print("nightly eval done", flush=True)
'''


@case(
    "throughput_resources_builtin_python_driver_bounds_collect_with_subprocess_timeout_sized_on_smoke_set_so_full_set_is_cut",
    "throughput_resources",
    ["drive_eval.py", "TIMEOUT_S", "collect", "timeout"],
    "the user's drive_eval.py runs collect with subprocess.run(timeout=20) (TIMEOUT_S, sized on the 4-row smoke "
    "set); the nightly set is 20 questions x 3 repeats against a policy answering in about 1.5 s at concurrency 4, "
    "about 25 s of work, so the driver killed collect at 20 s, printed a warning and went on: part of the rollouts "
    "were never collected, and profile then refused the partial rollouts file ('Missing rollout results')",
)
def throughput_resources_builtin_python_driver_bounds_collect_with_subprocess_timeout_sized_on_smoke_set_so_full_set_is_cut(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 20, 60)
    url, _ = ctx.policy(better, "--latency-ms 1500")
    (run / "drive_eval.py").write_text(TIMEOUT_DRIVER_PY.format(gp=GP))
    (run / "logs").mkdir(exist_ok=True)
    code = ctx.sh(f"cd {run} && {BIN}/python drive_eval.py {url}", "logs/drive_eval.log", timeout=300)
    log = log_of(ctx, "drive_eval.log")
    done = complete(ctx)
    if not 0 < done < 60 or "collect exceeded 20 s" not in log:
        raise failed(ctx, f"exit {code}, {done}: {log[-1500:]}")
    return (f"RUN/drive_eval.py (collect timeout 20 s); driver exit {code}; collect killed at 20 s; {done} of 60 "
            f"rollouts collected; profile refused the partial file.")


# =====================================================================================================
# model_serving (Docker)
# =====================================================================================================

SERVE_SH = """#!/bin/bash
# serve the candidate checkpoint in the team's serving container (flags from the hardened serving template)
docker run -d --name {name} --read-only --network host {mounts} -v {ckpt}:{ckpt}:ro -e PYTHONPATH={root} \\
  gym-pipeline/base:bookworm \\
  {bin}/python -m gym_pipeline.cli serve-policy --checkpoint {ckpt} --port {port} --ready-file /tmp/policy.ready \\
  --latency-ms 20
for i in $(seq 1 60); do
  state=$(docker inspect -f '{{{{.State.Status}}}}' {name})
  if [ "$state" = running ] && docker exec {name} test -s /tmp/policy.ready; then echo "policy ready"; break; fi
  if [ "$state" = exited ]; then echo "policy container exited"; break; fi
  sleep 1
done
echo "== serving container state: $state"
docker logs --tail 30 {name}
"""


@case(
    "model_serving_docker_serve_script_runs_policy_container_read_only_from_hardened_template_so_server_dies_without_writable_tmp",
    "model_serving",
    ["serve_policy.sh", "--read-only", "--tmpfs", "/tmp"],
    "the user's serve_policy.sh starts the policy server container with `--read-only` (from the hardened serving "
    "template) and no tmpfs for /tmp or a writable home; the server process needs a writable temporary/cache "
    "directory at start-up (matplotlib: 'Matplotlib requires access to a writable cache directory ... a temporary "
    "directory could not be created'), so it died before listening, the serve script reported the container exited, "
    "and collect's connections to the model URL were refused: no rollout was collected",
)
def model_serving_docker_serve_script_runs_policy_container_read_only_from_hardened_template_so_server_dies_without_writable_tmp(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 20)
    port = free_port()
    name = f"h101-policy-{port}"
    ckpt = better.resolve()
    (run / "serve_policy.sh").write_text(SERVE_SH.format(name=name, mounts=python_mounts(), ckpt=ckpt, root=ROOT,
                                                         bin=BIN, port=port))
    (run / "logs").mkdir(exist_ok=True)
    try:
        served = ctx.sh(f"bash {run / 'serve_policy.sh'}", "logs/serve_policy.log", timeout=120)
        code = run_eval(ctx, pipeline_lines(f"http://127.0.0.1:{port}/v1"), "weekly eval against the served "
                        "candidate")
    finally:
        remove_container(name)
    serve_log = log_of(ctx, "serve_policy.log")
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) or "writable cache directory" not in serve_log or "policy ready" in serve_log:
        raise failed(ctx, f"serve {served}, eval {code}, {complete(ctx)}: {serve_log[-1500:]} {log[-800:]}")
    return (f"RUN/serve_policy.sh (`docker run -d --read-only ... serve-policy --ready-file /tmp/policy.ready`) "
            f"exit {served}; the server died (no writable cache/temp directory); RUN/run_eval.sh (materialize 6 x 3, collect, "
            f"profile) exit {code}; {complete(ctx)} rollouts collected.")


if __name__ == "__main__":
    sys.exit(main("hundred_and_first_held_out", __file__, __doc__))
