"""Build the HUNDRED-AND-FIFTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/hundred_and_fifth_held_out.py --out tests/data/diagnosis_corpus/hundred_and_fifth_held_out [--only CASE ...]

This set was written after a hundred and three earlier sets (first_held_out.py ... hundred_and_third_held_out.py; the
hundred-and-fourth was written beside it at the same time), from the guides alone (the NeMo Gym debugging guide, the
reward profiling guide, the task-folder troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without
reading the diagnosis rules, their tests or their results. It is meant to be measured once, by someone else, on
failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
Docker containers the user's scripts start, task-folder (Harbor-format) tasksets, and the user's own shell and
Python tooling, settings, data-preparation scripts and verifiers. The output of every command is captured as a user
would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data,
scripts, settings, verifier code). Each case injects one cause, different in mechanism from those of the 103 earlier
sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not
written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), and PYTHONPATH set to this checkout. Run it from a
foreground shell. Containers it makes are named `h105-...` and removed at the end of their recipe.
"""
from __future__ import annotations

import shutil
import subprocess
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


def reference_mean(ctx: Ctx, url: str, tag: str) -> float:
    """Mean reward the server at `url` earns on RUN's materialized inputs, collected outside the run folder (so a
    recipe can tell which checkpoint answered; the simulated policy logs no requests)."""
    out = ctx.work / f"reference_{tag}.jsonl"
    subprocess.run([GP, "collect", "--inputs", str(ctx.run / "rollouts_materialized_inputs.jsonl"), "--output",
                    str(out), "--model-url", url, "--env", "string_match", "--concurrency", "4"],
                   capture_output=True, check=True)
    return mean_of(rows_of(out))


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_builtin_run_script_reports_free_space_with_df_of_scratch_mount_absent_on_this_node",
    "healthy",
    [],
    "nothing is wrong: run_eval.sh starts by recording free space with `df -h /scratch/evals \"$PWD\"`; this node "
    "has no /scratch mount, so df prints 'df: /scratch/evals: No such file or directory' (and exits 1, unchecked) "
    "next to the run folder's line; materialize, collect and profile then ran as usual, every rollout was "
    "collected and profiled",
)
def healthy_builtin_run_script_reports_free_space_with_df_of_scratch_mount_absent_on_this_node(ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 20)
    url, _ = ctx.policy(better, "--latency-ms 20")
    body = ("echo '== free space (scratch is where the big runs go)'\ndf -h /scratch/evals \"$PWD\"\n"
            + pipeline_lines(url))
    code = run_eval(ctx, body, "weekly eval; note free space first")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or "No such file or directory" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (`df -h /scratch/evals \"$PWD\"`, /scratch absent; materialize 6 x 3, collect, profile) "
            f"exit {code}; {complete(ctx)} of 18 rollouts, mean reward {mean_of(got):.2f}.")


@case(
    "healthy_docker_run_script_records_base_image_repo_digest_that_a_locally_built_image_lacks_so_inspect_template_fails",
    "healthy",
    [],
    "nothing is wrong: run_eval.sh records the image it ran with `docker image inspect --format '{{index "
    ".RepoDigests 0}}' gym-pipeline/base:bookworm`; the image was built on this node and never pushed, so it has "
    "no repository digest and docker prints a template parsing error ('error calling index: reflect: slice index "
    "out of range') and an empty digest; the "
    "collect container then ran on that image, exited 0, and every rollout was collected and profiled",
)
def healthy_docker_run_script_records_base_image_repo_digest_that_a_locally_built_image_lacks_so_inspect_template_fails(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 30)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h105-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, "", "collect runs in the eval container")
    text = script.read_text()
    stamp = ("echo \"== image: gym-pipeline/base:bookworm digest $(docker image inspect --format "
             "'{{index .RepoDigests 0}}' gym-pipeline/base:bookworm)\"\n")
    script.write_text(text.replace("docker run --rm", stamp + "docker run --rm", 1))
    (run / "logs").mkdir(exist_ok=True)
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or "index out of range" not in log or "collect container exit: 0" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (`docker image inspect --format '{{{{index .RepoDigests 0}}}}'` fails on the local "
            f"image; materialize 6 x 3, docker collect, profile) exit {code}; {complete(ctx)} of 18 rollouts, mean "
            f"reward {mean_of(got):.2f}.")


LS_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
# show reviewers what the agent left (and the .orig backup some agents keep before editing)
ls -l /app/hello.txt /app/hello.txt.orig
if test "$(cat /app/hello.txt 2>/dev/null)" = "Hello, Gym!"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def ls_backup(tasks: Path) -> None:
    write_task_file(tasks, "create-greeting", "tests/test.sh", LS_TEST_SH)


@case(
    "healthy_taskfolder_test_sh_lists_agents_file_beside_an_orig_backup_agents_seldom_keep_so_every_check_prints_cannot_access",
    "healthy",
    [],
    "nothing is wrong: the author of create-greeting made tests/test.sh run `ls -l /app/hello.txt "
    "/app/hello.txt.orig` for the reviewers; agents never leave a .orig backup, so every verification prints "
    "\"ls: cannot access '/app/hello.txt.orig': No such file or directory\" before its real check, which passed "
    "whenever the agent wrote the greeting; every episode was collected, scored and profiled",
)
def healthy_taskfolder_test_sh_lists_agents_file_beside_an_orig_backup_agents_seldom_keep_so_every_check_prints_cannot_access(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["count-error-lines", "create-greeting"], edit=ls_backup, repeats=4)
    counts, greeting = task_rewards(ctx, "count-error-lines"), task_rewards(ctx, "create-greeting")
    text = everything(ctx)
    if code or complete(ctx) != 8 or not any(counts) or not any(greeting) or "cannot access" not in text \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {counts} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/create-greeting/tests/test.sh (`ls -l /app/hello.txt /app/hello.txt.orig` before the check); "
            f"RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile x 2) exit {code}; "
            f"{complete(ctx)} episodes, rewards {counts} and {greeting}.")


# =====================================================================================================
# data_schema
# =====================================================================================================

SIGNED = [
    ("At what temperature in degrees are the Celsius and Fahrenheit scales equal?", "-40"),
    ("What is the international dialling code of the United States?", "+1"),
    ("What is absolute zero in degrees Celsius, rounded to a whole number?", "-273"),
    ("What is the capital of Norway?", "Oslo"),
    ("What is the capital of Japan?", "Tokyo"),
    ("What is the capital of Peru?", "Lima"),
]

PREP_CSV_PY = '''"""prep.py: the review tool's export (review_export.csv: question,answer) -> string_match.jsonl."""
import csv
import json

rows = []
with open("review_export.csv", newline="", encoding="utf-8") as f:
    for rec in csv.DictReader(f):
        text = f"{rec['question']} End your response with 'Final answer: <answer>'."
        rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                            "content": [{"type": "input_text", "text": text}]}]},
                     "expected_answer": rec["answer"].strip(), "extraction_mode": "final_answer"})
with open("string_match.jsonl", "w") as out:
    out.writelines(json.dumps(row) + "\\n" for row in rows)
print(f"prep: {len(rows)} rows written")
'''


def guarded(cell: str) -> str:
    """What the review tool exports: cells starting with = + - @ get a leading apostrophe (CSV-injection guard)."""
    return "'" + cell if cell[:1] in "=+-@" else cell


@case(
    "data_schema_builtin_review_tool_csv_export_guards_formula_injection_with_leading_apostrophe_so_signed_labels_read_quote_minus_40",
    "data_schema",
    ["review_export.csv", "'-40", "apostrophe", "prep.py"],
    "the review tool's CSV export protects spreadsheets against formula injection by prefixing an apostrophe to "
    "every cell that starts with =, +, - or @; review_export.csv therefore holds the answers '-40, '+1 and '-273, "
    "prep.py copied them as labels, and the string_match verifier scored 0 every right answer (-40, +1, -273) to "
    "those three questions while the other questions scored normally (every command exits 0)",
)
def data_schema_builtin_review_tool_csv_export_guards_formula_injection_with_leading_apostrophe_so_signed_labels_read_quote_minus_40(
        ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, SIGNED)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "review_export.csv").write_text(
        "question,answer\n" + "".join(f"\"{q}\",{guarded(a)}\n" for q, a in SIGNED), encoding="utf-8")
    (run / "prep.py").write_text(PREP_CSV_PY)
    code = run_eval(ctx, f"{BIN}/python prep.py\n" + pipeline_lines(url), "weekly eval: prep the export, then run")
    labels = [r["expected_answer"] for r in rows_of(run / "string_match.jsonl")]
    got = rows_of(run / "rollouts.jsonl")
    broken, others = labelled(got, {"'-40", "'+1", "'-273"})
    if code or labels[:3] != ["'-40", "'+1", "'-273"] or len(broken) != 9 or sum(rewards(broken)) > 1 \
            or mean_of(others) < mean_of(broken) + 0.3:
        raise failed(ctx, f"exit {code}, {labels}, {rewards(broken)}: {got[:1]} "
                          f"{text_of(ctx.run / 'rollouts_failures.jsonl')[:1500]}")
    return (f"RUN/review_export.csv (signed answers exported as '-40, '+1, '-273); RUN/prep.py (copies the cells); "
            f"RUN/run_eval.sh (prep, materialize 6 x 3, collect, profile) exit {code}; labels {labels}; rewards of "
            f"the three guarded labels {rewards(broken)}, others mean {mean_of(others):.2f}.")


# =====================================================================================================
# config
# =====================================================================================================

PYPROJECT_TOML = """[project]
name = "weekly-eval"
version = "0.4.0"
requires-python = ">=3.11"

# eval settings moved here from eval.toml in the repo clean-up
[tool.eval]
dataset = "string_match.jsonl"
num_repeats = 3
concurrency = 4
"""

TOML_DRIVER_PY = '''"""drive_eval.py MODEL_URL: the weekly eval; settings from pyproject.toml (defaults = the smoke test)."""
import subprocess
import sys
import tomllib

GP = "{gp}"
url = sys.argv[1]
with open("pyproject.toml", "rb") as f:
    settings = tomllib.load(f).get("eval", {{}})
dataset = settings.get("dataset", "smoke.jsonl")
repeats = settings.get("num_repeats", 1)
concurrency = settings.get("concurrency", 2)
print(f"== eval of {{dataset}}, {{repeats}} repeats, concurrency {{concurrency}}", flush=True)
subprocess.run([GP, "materialize", "--input", dataset, "--num-repeats", str(repeats), "--agent",
                "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
subprocess.run([GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                "--model-url", url, "--env", "string_match", "--concurrency", str(concurrency)], check=True)
subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
               check=True)
print("eval done", flush=True)
'''


@case(
    "config_builtin_python_driver_reads_eval_table_at_top_level_of_pyproject_toml_where_settings_sit_under_tool_eval_so_smoke_defaults_run",
    "config",
    ["drive_eval.py", "pyproject.toml", "tool", "eval"],
    "the eval settings were moved into pyproject.toml under [tool.eval] (dataset string_match.jsonl, 3 repeats), but "
    "drive_eval.py still reads `tomllib.load(f).get(\"eval\", {})`, which is empty, so it ran on its smoke-test "
    "defaults: smoke.jsonl (4 rows) with 1 repeat; every command exits 0 and only 4 rollouts of the 4-row smoke set "
    "were scored instead of 12 questions x 3",
)
def config_builtin_python_driver_reads_eval_table_at_top_level_of_pyproject_toml_where_settings_sit_under_tool_eval_so_smoke_defaults_run(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 12, 40)
    ctx.dataset("string_match", 4, start=40, folder=run, name="smoke.jsonl")
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "pyproject.toml").write_text(PYPROJECT_TOML)
    (run / "drive_eval.py").write_text(TOML_DRIVER_PY.format(gp=GP))
    (run / "logs").mkdir(exist_ok=True)
    code = ctx.sh(f"cd {run} && {BIN}/python drive_eval.py {url}", "logs/drive_eval.log", timeout=300)
    log = log_of(ctx, "drive_eval.log")
    if code or complete(ctx) != 4 or "smoke.jsonl, 1 repeats" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/pyproject.toml (settings under [tool.eval]); RUN/drive_eval.py (`.get(\"eval\", {{}})`, defaults "
            f"smoke.jsonl x 1); driver exit {code}; {complete(ctx)} rollouts instead of 36.")


MAKEFILE = """# weekly eval; `make eval` (the candidate URL is set here, CI may override it on purpose)
MODEL_URL ?= {new}
REPEATS := 3

eval:
\t{gp} materialize --input string_match.jsonl --num-repeats $(REPEATS) --agent string_match_simple_agent \\
\t  --output rollouts_materialized_inputs.jsonl
\t{gp} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $(MODEL_URL) \\
\t  --env string_match --concurrency 4
\t{gp} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl

.PHONY: eval
"""

CI_ENV = """# CI variables of the eval job (kept from the step_0100 review last week)
MODEL_URL={old}
EVAL_OWNER=rl-evals
"""

CI_SH = """#!/bin/bash
# ci.sh: the CI job's entry point
set -a
. ./ci.env
set +a
echo "== step_0200 candidate eval"
make eval
"""


@case(
    "config_builtin_makefile_sets_candidate_url_with_conditional_assignment_that_yields_to_ci_env_model_url_of_last_weeks_step",
    "config",
    ["ci.env", "MODEL_URL", "?=", "Makefile"],
    "the Makefile sets the step_0200 candidate with `MODEL_URL ?= ...`, which only applies when MODEL_URL is not "
    "already in the environment; ci.sh exports everything in ci.env, which still holds last week's MODEL_URL of "
    "the step_0100 server, so make used that URL: step_0100 was evaluated again under the step_0200 name, the "
    "step_0200 server got no request, and every command exits 0",
)
def config_builtin_makefile_sets_candidate_url_with_conditional_assignment_that_yields_to_ci_env_model_url_of_last_weeks_step(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (older, better) = builtin_rows(ctx, 6, 50)
    old, _ = ctx.policy(older, "--latency-ms 20", log="logs/model_server_step_0100.log")
    new, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server_step_0200.log")
    (run / "Makefile").write_text(MAKEFILE.format(new=new, gp=GP))
    (run / "ci.env").write_text(CI_ENV.format(old=old))
    (run / "ci.sh").write_text(CI_SH)
    (run / "logs").mkdir(exist_ok=True)
    code = ctx.sh(f"cd {run} && bash ci.sh", "logs/ci.log", timeout=300)
    log = log_of(ctx, "ci.log")
    got = rows_of(run / "rollouts.jsonl")
    old_mean, new_mean = reference_mean(ctx, old, "step_0100"), reference_mean(ctx, new, "step_0200")
    if code or complete(ctx) != 18 or old not in log or new in log.replace(f"?= {new}", "") \
            or abs(mean_of(got) - old_mean) > 1e-9 or abs(new_mean - old_mean) < 0.1:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {mean_of(got)} {old_mean} {new_mean}: {log[-1500:]}")
    return (f"RUN/Makefile (`MODEL_URL ?= step_0200 URL`); RUN/ci.env (MODEL_URL of step_0100, exported by ci.sh); "
            f"ci.sh exit {code}; {complete(ctx)} rollouts, all from step_0100 (mean reward {mean_of(got):.2f}); the "
            f"step_0200 server got no request (step_0100 earns {old_mean:.2f} on these inputs, step_0200 {new_mean:.2f}).")


# =====================================================================================================
# infra (Docker)
# =====================================================================================================


@case(
    "infra_docker_collect_container_mounts_bare_name_run_which_docker_takes_for_a_named_volume_hiding_the_run_folder",
    "infra",
    ["run_eval.sh", "-v", "volume", "run"],
    "run_eval.sh mounts the run folder into the collect container as `-v run:RUN` (meaning the folder ./run); a "
    "bare name without a slash is a Docker named volume, so docker created an empty volume called run and mounted "
    "it over the run folder's path: collect found no materialized inputs there and failed, the host folder got no "
    "rollouts, and profile had nothing to read although the policy server was up",
)
def infra_docker_collect_container_mounts_bare_name_run_which_docker_takes_for_a_named_volume_hiding_the_run_folder(
        ctx: Ctx) -> str:
    run = ctx.run
    if run.name != "run":
        raise recipes.RecipeError(f"run folder is named {run.name}, not run")
    _, (_, better) = builtin_rows(ctx, 6, 60)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h105-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, "", "collect runs in the eval container (run folder mounted "
                                   "from ./run)")
    text = script.read_text()
    if f"-v {run}:{run} " not in text:
        raise recipes.RecipeError("run folder mount not found in the script")
    existed = subprocess.run(["docker", "volume", "inspect", "run"], capture_output=True).returncode == 0
    if existed:
        raise recipes.RecipeError("a docker volume named run already exists on this node")
    script.write_text(text.replace(f"-v {run}:{run} ", f"-v run:{run} ", 1))
    (run / "logs").mkdir(exist_ok=True)
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
        made = subprocess.run(["docker", "volume", "inspect", "run"], capture_output=True).returncode == 0
    finally:
        remove_container(name)
        subprocess.run(["docker", "volume", "rm", "-f", "run"], capture_output=True)
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) or not made or "collect container exit: 0" in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, volume {made}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run -v run:RUN ... collect`, profile) exit {code}; docker "
            f"made a named volume run over the folder; {complete(ctx)} rollouts collected.")


# =====================================================================================================
# verifier_runtime (task folder)
# =====================================================================================================

TR_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
# ignore stray whitespace (agents often add a trailing newline or spaces)
got="$(tr -d ':space:' < /app/hello.txt 2>/dev/null)"
echo "got: $got"
if test "$got" = "Hello, Gym!"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def tr_class(tasks: Path) -> None:
    write_task_file(tasks, "create-greeting", "tests/test.sh", TR_TEST_SH)


@case(
    "verifier_runtime_taskfolder_test_sh_strips_whitespace_with_tr_d_colon_space_colon_without_brackets_which_deletes_letters",
    "verifier_runtime",
    ["test.sh", "tr -d", "[:space:]", "hello.txt"],
    "the author of create-greeting made tests/test.sh strip whitespace with `tr -d ':space:'` instead of "
    "`tr -d '[:space:]'`; without the brackets tr deletes the characters : s p a c e, so the agent's 'Hello, Gym!' "
    "became 'Hllo, Gym!' (the log shows it) and never equalled the reference: every episode of the task scored 0 "
    "while count-error-lines scored, and every command exits 0",
)
def verifier_runtime_taskfolder_test_sh_strips_whitespace_with_tr_d_colon_space_colon_without_brackets_which_deletes_letters(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["count-error-lines", "create-greeting"], edit=tr_class, repeats=4)
    counts, greeting = task_rewards(ctx, "count-error-lines"), task_rewards(ctx, "create-greeting")
    text = everything(ctx)
    if code or not greeting or any(greeting) or not any(counts) or "Hllo, Gym!" not in text:
        raise failed(ctx, f"exit {code}, {counts} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/create-greeting/tests/test.sh (`tr -d ':space:'` before the comparison); RUN/run_tasks.sh "
            f"(`gym-pipeline stage` materialize, collect, profile x 2) exit {code}; create-greeting rewards "
            f"{greeting}, count-error-lines {counts}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

SCRATCH = Path("/tmp/eval_scratch")

SCRATCH_DRIVER_PY = '''"""drive_eval.py MODEL_URL: the weekly eval; collect on node-local scratch, resumable if CI preempts us."""
import shutil
import subprocess
import sys
from pathlib import Path

GP = "{gp}"
SCRATCH = Path("{scratch}")  # fast local disk; a preempted job resumes from what is there
url = sys.argv[1]
SCRATCH.mkdir(parents=True, exist_ok=True)
subprocess.run([GP, "materialize", "--input", "string_match.jsonl", "--num-repeats", "3", "--agent",
                "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
subprocess.run([GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output",
                str(SCRATCH / "rollouts.jsonl"), "--model-url", url, "--env", "string_match", "--concurrency", "4",
                "--resume"], check=True)
for path in SCRATCH.iterdir():
    shutil.copy(path, path.name)
    print(f"copied {{path}} -> {{path.name}}", flush=True)
subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
               check=True)
print("eval done", flush=True)
'''


@case(
    "cache_resume_builtin_python_driver_collects_with_resume_into_fixed_node_scratch_path_that_still_holds_last_weeks_rollouts",
    "cache_resume",
    ["drive_eval.py", "/tmp/eval_scratch", "--resume", "rollouts.jsonl"],
    "the user's drive_eval.py always collects into the fixed node-local path /tmp/eval_scratch/rollouts.jsonl with "
    "--resume (so a preempted CI job picks up) and copies it back; last week's run of step_0100 on the same node "
    "left its complete rollouts there, so this week's collect for step_0200 found every (task, rollout) settled and "
    "sent no request: the run folder's rollouts and profile are step_0100's (every command exits 0)",
)
def cache_resume_builtin_python_driver_collects_with_resume_into_fixed_node_scratch_path_that_still_holds_last_weeks_rollouts(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (older, better) = builtin_rows(ctx, 6, 70)
    shutil.rmtree(SCRATCH, ignore_errors=True)
    try:
        old, _ = ctx.policy(older, "--latency-ms 20", log="logs/model_server_step_0100.log")
        new, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server_step_0200.log")
        (run / "drive_eval.py").write_text(SCRATCH_DRIVER_PY.format(gp=GP, scratch=SCRATCH))
        last = ctx.work / "last_week"
        last.mkdir(parents=True, exist_ok=True)
        shutil.copy(run / "string_match.jsonl", last / "string_match.jsonl")
        shutil.copy(run / "drive_eval.py", last / "drive_eval.py")
        (run / "logs").mkdir(exist_ok=True)
        before = ctx.sh(f"cd {last} && {BIN}/python drive_eval.py {old}", "logs/drive_eval_step_0100.log",
                        timeout=300)
        (run / "logs" / "drive_eval_step_0100.log").rename(last / "drive_eval.log")
        code = ctx.sh(f"cd {run} && {BIN}/python drive_eval.py {new}", "logs/drive_eval.log", timeout=300)
    finally:
        shutil.rmtree(SCRATCH, ignore_errors=True)
    log = log_of(ctx, "drive_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    old_mean, new_mean = reference_mean(ctx, old, "step_0100"), reference_mean(ctx, new, "step_0200")
    if before or code or complete(ctx) != 18 or "18 already done" not in log or abs(mean_of(got) - old_mean) > 1e-9 \
            or abs(new_mean - old_mean) < 0.1:
        raise failed(ctx, f"exit {before}/{code}, {complete(ctx)}, {mean_of(got)} {old_mean} {new_mean}: "
                          f"{log[-1500:]}")
    return (f"RUN/drive_eval.py (collect --resume into /tmp/eval_scratch/rollouts.jsonl, copied back); last week's "
            f"step_0100 run left its rollouts there; this week's driver exit {code}; {complete(ctx)} rollouts (all "
            f"step_0100's), mean reward {mean_of(got):.2f} (step_0100 earns {old_mean:.2f} on these inputs, step_0200 "
            f"{new_mean:.2f}); the step_0200 server got no request.")


# =====================================================================================================
# model_serving (Docker)
# =====================================================================================================

SERVE_SH = """#!/bin/bash
# serve the candidate checkpoint in a container (hardening flags from the team's container template)
docker run -d --name {name} --read-only --cap-drop ALL --security-opt no-new-privileges --network host {mounts} \\
  -v {ckpt}:{ckpt}:ro -e PYTHONPATH={root} gym-pipeline/base:bookworm \\
  {bin}/python -m gym_pipeline.cli serve-policy --checkpoint {ckpt} --port {port} --ready-file /tmp/policy.ready \\
  --latency-ms 20
for i in $(seq 1 60); do
  state=$(docker inspect -f '{{{{.State.Status}}}}' {name})
  if [ "$state" = running ] && docker exec {name} test -s /tmp/policy.ready; then echo "policy ready"; break; fi
  if [ "$state" = exited ]; then echo "policy container exited"; break; fi
  sleep 1
done
echo "== serving container state: $state, exit code $(docker inspect -f '{{{{.State.ExitCode}}}}' {name})"
docker logs --tail 30 {name}
"""


@case(
    "model_serving_docker_policy_container_hardened_with_read_only_root_filesystem_and_no_tmpfs_so_server_dies_at_import",
    "model_serving",
    ["serve_policy.sh", "--read-only", "--tmpfs", "/tmp"],
    "the user's serve_policy.sh starts the policy server container with the team template's hardening flags "
    "(`--read-only --cap-drop ALL`) without mounting a writable --tmpfs /tmp; with the whole root filesystem "
    "read-only the server could not create any config, cache or temporary folder and died at start-up "
    "('Matplotlib requires access to a writable cache directory ... a temporary directory could not be created'), "
    "so the container exited before listening, the eval's collect found no server at the model URL and no "
    "rollout was collected",
)
def model_serving_docker_policy_container_hardened_with_read_only_root_filesystem_and_no_tmpfs_so_server_dies_at_import(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 80)
    port = free_port()
    name = f"h105-policy-{port}"
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
    if complete(ctx) or "temporary directory could not be created" not in serve_log or "policy ready" in serve_log \
            or "policy container exited" not in serve_log:
        raise failed(ctx, f"serve {served}, eval {code}, {complete(ctx)}: {serve_log[-1500:]}")
    return (f"RUN/serve_policy.sh (`docker run -d --read-only --cap-drop ALL ... serve-policy --ready-file "
            f"/tmp/policy.ready`, no --tmpfs) exit {served}; the server died at start-up (no writable folder); RUN/run_eval.sh "
            f"(materialize 6 x 3, collect, profile) exit {code}; {complete(ctx)} rollouts collected.")


if __name__ == "__main__":
    sys.exit(main("hundred_and_fifth_held_out", __file__, __doc__))
