"""Build the HUNDRED-AND-THIRD HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/hundred_and_third_held_out.py --out tests/data/diagnosis_corpus/hundred_and_third_held_out [--only CASE ...]

This set was written after a hundred and one earlier sets (first_held_out.py ... hundred_and_first_held_out.py; the
hundred-and-second was written beside it at the same time), from the guides alone (the NeMo Gym debugging guide, the
reward profiling guide, the task-folder troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without
reading the diagnosis rules, their tests or their results. It is meant to be measured once, by someone else, on
failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
Docker containers the user's scripts start, task-folder (Harbor-format) tasksets, and the user's own shell and
Python tooling, settings, data-preparation scripts and verifiers. The output of every command is captured as a user
would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data,
scripts, settings, verifier code). Each case injects one cause, different in mechanism from those of the 101 earlier
sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not
written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), and PYTHONPATH set to this checkout. Run it from a
foreground shell. Containers it makes are named `h103-...` and removed at the end of their recipe.
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

BACKUP_DRIVER_PY = '''"""drive_eval.py MODEL_URL: the weekly eval; never silently overwrite the results of an earlier run."""
import shutil
import subprocess
import sys
from pathlib import Path

GP = "{gp}"
url = sys.argv[1]
for name in ("rollouts.jsonl", "rollouts_reward_profiling.jsonl"):
    if Path(name).exists():
        n = 1
        while Path(f"{{name}}.{{n}}").exists():
            n += 1
        shutil.move(name, f"{{name}}.{{n}}")
        print(f"WARNING: {{name}} already exists: results of an earlier run would be OVERWRITTEN; "
              f"moved to {{name}}.{{n}}", flush=True)
subprocess.run([GP, "materialize", "--input", "string_match.jsonl", "--num-repeats", "3", "--agent",
                "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
subprocess.run([GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                "--model-url", url, "--env", "string_match", "--concurrency", "4"], check=True)
subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
               check=True)
print("eval done", flush=True)
'''


@case(
    "healthy_builtin_python_driver_rerun_after_laptop_sleep_moves_earlier_results_aside_with_overwritten_warning_banner",
    "healthy",
    [],
    "nothing is wrong: the user ran drive_eval.py twice against the same policy (the first terminal was lost when "
    "the laptop slept); before collecting, the driver moves earlier results aside and prints 'WARNING: "
    "rollouts.jsonl already exists: results of an earlier run would be OVERWRITTEN; moved to rollouts.jsonl.1'; "
    "the second run collected, scored and profiled every rollout afresh and both runs exited 0",
)
def healthy_builtin_python_driver_rerun_after_laptop_sleep_moves_earlier_results_aside_with_overwritten_warning_banner(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 20)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "drive_eval.py").write_text(BACKUP_DRIVER_PY.format(gp=GP))
    (run / "logs").mkdir(exist_ok=True)
    first = ctx.sh(f"cd {run} && {BIN}/python drive_eval.py {url}", "logs/drive_eval_first.log", timeout=300)
    code = ctx.sh(f"cd {run} && {BIN}/python drive_eval.py {url}", "logs/drive_eval.log", timeout=300)
    log = log_of(ctx, "drive_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if first or code or complete(ctx) != 18 or "OVERWRITTEN" not in log or not (run / "rollouts.jsonl.1").exists() \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {first}/{code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/drive_eval.py run twice (exit {first} then {code}); the second moved the first's results to "
            f"rollouts.jsonl.1 with an OVERWRITTEN warning; {complete(ctx)} of 18 rollouts, mean reward "
            f"{mean_of(got):.2f}.")


@case(
    "healthy_docker_run_script_looks_for_teams_eval_image_tag_absent_on_this_node_and_falls_back_to_base_image",
    "healthy",
    [],
    "nothing is wrong: run_eval.sh first looks for the team's eval image with `docker image inspect "
    "gym-pipeline/eval:2026.11`, which is not on this node, so docker prints 'Error: No such image' and the script "
    "falls back to gym-pipeline/base:bookworm as written; the collect container ran on the base image, exited 0, "
    "and every rollout was collected and profiled",
)
def healthy_docker_run_script_looks_for_teams_eval_image_tag_absent_on_this_node_and_falls_back_to_base_image(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 30)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h103-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, "", "collect runs in the team's eval image when the node has it")
    text = script.read_text()
    pick = ("IMAGE=gym-pipeline/eval:2026.11\n"
            "if ! docker image inspect \"$IMAGE\" > /dev/null; then\n"
            "  echo \"eval image $IMAGE not on this node, falling back to the base image\"\n"
            "  IMAGE=gym-pipeline/base:bookworm\nfi\n")
    head, _, tail = text.partition("docker run --rm --name " + name)
    script.write_text(head + pick + "docker run --rm --name " + name + tail.replace(" gym-pipeline/base:bookworm ",
                                                                                   " \"$IMAGE\" ", 1))
    (run / "logs").mkdir(exist_ok=True)
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or "no such image" not in log.lower() or "collect container exit: 0" not in log \
            or "$IMAGE" not in script.read_text() or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (`docker image inspect gym-pipeline/eval:2026.11` fails, falls back to the base image; "
            f"materialize 6 x 3, docker collect, profile) exit {code}; {complete(ctx)} of 18 rollouts, mean reward "
            f"{mean_of(got):.2f}.")


DIFF_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
# show reviewers what the agent wrote next to the reference (byte for byte, for the weekly report)
diff <(printf '3') /app/count.txt || true
if test "$(tr -d "[:space:]" < /app/count.txt 2>/dev/null)" = "3"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def byte_diff(tasks: Path) -> None:
    write_task_file(tasks, "count-error-lines", "tests/test.sh", DIFF_TEST_SH)


@case(
    "healthy_taskfolder_test_sh_prints_byte_diff_against_reference_without_newline_so_every_pass_shows_a_change_hunk",
    "healthy",
    [],
    "nothing is wrong: the author of count-error-lines made tests/test.sh print `diff <(printf '3') /app/count.txt` "
    "for the reviewers; the reference has no final newline while the agent's file has one, so every verification "
    "prints a change hunk ('1c1 < 3 \\ No newline at end of file --- > 3') before its real whitespace-insensitive "
    "check, which passed whenever the agent wrote the right count; every episode was collected, scored and profiled",
)
def healthy_taskfolder_test_sh_prints_byte_diff_against_reference_without_newline_so_every_pass_shows_a_change_hunk(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["count-error-lines", "create-greeting"], edit=byte_diff, repeats=4)
    counts, greeting = task_rewards(ctx, "count-error-lines"), task_rewards(ctx, "create-greeting")
    text = everything(ctx)
    if code or complete(ctx) != 8 or not any(counts) or not any(greeting) or "No newline at end of file" not in text \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {counts} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/count-error-lines/tests/test.sh (`diff <(printf '3') /app/count.txt || true` before the "
            f"check); RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile x 2) exit {code}; "
            f"{complete(ctx)} episodes, rewards {counts} and {greeting}.")


# =====================================================================================================
# data_schema
# =====================================================================================================

CODES = [
    ("What is the US ZIP code of Harvard Yard in Cambridge, Massachusetts?", "02138"),
    ("What is James Bond's code number?", "007"),
    ("What is the US ZIP code of Boston City Hall?", "02201"),
    ("What is the capital of Norway?", "Oslo"),
    ("What is the capital of Japan?", "Tokyo"),
    ("What is the capital of Peru?", "Lima"),
]

PREP_INT_PY = '''"""prep.py: the reviewers' sheet (sheet.tsv: question<TAB>answer) -> string_match.jsonl."""
import json


def canonical(answer: str) -> str:
    """one spelling per number: reviewers type 12, 012 or 0012 for the same count"""
    return str(int(answer)) if answer.isdigit() else answer


rows = []
with open("sheet.tsv", encoding="utf-8") as f:
    for line in f:
        if not line.strip():
            continue
        question, answer = line.rstrip("\\n").split("\\t")
        text = f"{question} End your response with 'Final answer: <answer>'."
        rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                            "content": [{"type": "input_text", "text": text}]}]},
                     "expected_answer": canonical(answer.strip()), "extraction_mode": "final_answer"})
with open("string_match.jsonl", "w") as out:
    out.writelines(json.dumps(row) + "\\n" for row in rows)
print(f"prep: {len(rows)} rows written")
'''


@case(
    "data_schema_builtin_prep_canonicalises_digit_only_answers_with_str_int_so_zero_padded_zip_codes_and_007_lose_their_zeros",
    "data_schema",
    ["prep.py", "str(int(answer))", "isdigit", "expected_answer"],
    "the user's prep.py rewrites every answer made only of digits as `str(int(answer))` (meant to give counts one "
    "spelling); the zero-padded labels 02138, 007 and 02201 became 2138, 7 and 2201, so the string_match "
    "verifier scored 0 every right answer ('02138', '007', '02201') to those three questions while the other "
    "questions scored normally (every command exits 0)",
)
def data_schema_builtin_prep_canonicalises_digit_only_answers_with_str_int_so_zero_padded_zip_codes_and_007_lose_their_zeros(
        ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, CODES)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "sheet.tsv").write_text("".join(f"{q}\t{a}\n" for q, a in CODES), encoding="utf-8")
    (run / "prep.py").write_text(PREP_INT_PY)
    code = run_eval(ctx, f"{BIN}/python prep.py\n" + pipeline_lines(url), "weekly eval: prep the sheet, then run")
    labels = [r["expected_answer"] for r in rows_of(run / "string_match.jsonl")]
    got = rows_of(run / "rollouts.jsonl")
    broken, others = labelled(got, {"2138", "7", "2201"})
    if code or labels[:3] != ["2138", "7", "2201"] or len(broken) != 9 or sum(rewards(broken)) > 1 \
            or mean_of(others) < mean_of(broken) + 0.3:
        raise failed(ctx, f"exit {code}, {labels}, {rewards(broken)}: {got[:1]} "
                          f"{text_of(ctx.run / 'rollouts_failures.jsonl')[:1500]}")
    return (f"RUN/sheet.tsv (6 questions, three zero-padded numeric answers); RUN/prep.py (`str(int(answer)) if "
            f"answer.isdigit()`); RUN/run_eval.sh (prep, materialize 6 x 3, collect, profile) exit {code}; labels "
            f"{labels}; rewards of the three stripped labels {rewards(broken)}, others mean {mean_of(others):.2f}.")


# =====================================================================================================
# config
# =====================================================================================================

EVAL_INI = """[eval]
dataset = string_match.jsonl
num_repeats = 3
concurrency = 4
model_url = {url}    ; step_0200 candidate, served on the eval node

[report]
to = eval-team
"""

INI_DRIVER_PY = '''"""drive_eval.py: the weekly eval, settings from eval.ini."""
import configparser
import subprocess

GP = "{gp}"
cfg = configparser.ConfigParser()
cfg.read("eval.ini")
ev = cfg["eval"]
print(f"== model at {{ev['model_url']}}, {{ev['num_repeats']}} repeats", flush=True)
subprocess.run([GP, "materialize", "--input", ev["dataset"], "--num-repeats", ev["num_repeats"], "--agent",
                "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
subprocess.run([GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                "--model-url", ev["model_url"], "--env", "string_match", "--concurrency", ev["concurrency"]])
subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"])
print("eval done", flush=True)
'''


@case(
    "config_builtin_eval_ini_model_url_carries_inline_semicolon_comment_that_configparser_keeps_in_the_value",
    "config",
    ["eval.ini", "model_url", "inline_comment_prefixes", ";"],
    "the user's eval.ini ends its model_url line with an inline comment ('; step_0200 candidate, served on the eval "
    "node'); Python's configparser only strips comments on lines of their own unless inline_comment_prefixes is "
    "set, so drive_eval.py passed the URL with the comment glued to it to collect; the policy server answered 404 "
    "to '<url>    ; step_0200 candidate, .../models', collect collected nothing and profile found no rollouts file, "
    "while the driver exited 0",
)
def config_builtin_eval_ini_model_url_carries_inline_semicolon_comment_that_configparser_keeps_in_the_value(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 40)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "eval.ini").write_text(EVAL_INI.format(url=url))
    (run / "drive_eval.py").write_text(INI_DRIVER_PY.format(gp=GP))
    (run / "logs").mkdir(exist_ok=True)
    code = ctx.sh(f"cd {run} && {BIN}/python drive_eval.py", "logs/drive_eval.log", timeout=300)
    log = log_of(ctx, "drive_eval.log")
    served = text_of(run / "logs" / "model_server.log")
    if complete(ctx) or "step_0200 candidate" not in log or "chat/completions" in served:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.ini (`model_url = {url}    ; step_0200 candidate, ...`); RUN/drive_eval.py "
            f"(configparser defaults); driver exit {code}; {complete(ctx)} rollouts scored; the policy got no "
            f"completion request.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

SKIP_DRIVER_PY = '''"""drive_eval.py STEP=URL ...: evaluate several checkpoints; skip any endpoint already evaluated (CI reruns)."""
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse

GP = "{gp}"
subprocess.run([GP, "materialize", "--input", "string_match.jsonl", "--num-repeats", "3", "--agent",
                "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
for arg in sys.argv[1:]:
    step, url = arg.split("=", 1)
    folder = Path("results") / Path(urlparse(url).path).name  # one folder per endpoint
    print(f"== {{step}} at {{url}} -> {{folder}}", flush=True)
    if (folder / "rollouts.jsonl").exists():
        print(f"{{folder}} already evaluated, skipping (resume)", flush=True)
        continue
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run([GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output",
                    str(folder / "rollouts.jsonl"), "--model-url", url, "--env", "string_match", "--concurrency",
                    "4"], check=True)
    subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts",
                    str(folder / "rollouts.jsonl")], check=True)
print("all checkpoints done", flush=True)
'''


@case(
    "cache_resume_builtin_python_driver_names_results_folder_after_last_url_path_segment_v1_so_second_checkpoint_is_skipped_as_done",
    "cache_resume",
    ["drive_eval.py", "urlparse", "results/v1", "folder"],
    "the user's drive_eval.py keeps one results folder per endpoint, named `Path(urlparse(url).path).name`, and "
    "skips an endpoint whose folder already holds rollouts (resume after CI reruns); every OpenAI-style URL ends in "
    "/v1, so step_0100 and step_0200 both map to results/v1: step_0200 was 'already evaluated, skipping', its "
    "server got no request, and the only results are step_0100's (every command exits 0)",
)
def cache_resume_builtin_python_driver_names_results_folder_after_last_url_path_segment_v1_so_second_checkpoint_is_skipped_as_done(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (older, better) = builtin_rows(ctx, 6, 50)
    old, _ = ctx.policy(older, "--latency-ms 20", log="logs/model_server_step_0100.log")
    new, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server_step_0200.log")
    (run / "drive_eval.py").write_text(SKIP_DRIVER_PY.format(gp=GP))
    (run / "logs").mkdir(exist_ok=True)
    code = ctx.sh(f"cd {run} && {BIN}/python drive_eval.py step_0100={old} step_0200={new}", "logs/drive_eval.log",
                  timeout=300)
    log = log_of(ctx, "drive_eval.log")
    got = rows_of(run / "results" / "v1" / "rollouts.jsonl")
    served_new = text_of(run / "logs" / "model_server_step_0200.log")
    folders = sorted(p.name for p in (run / "results").iterdir())
    if code or len(got) != 18 or folders != ["v1"] or "skipping" not in log or "chat/completions" in served_new:
        raise failed(ctx, f"exit {code}, {len(got)}, {folders}: {log[-1500:]}")
    return (f"RUN/drive_eval.py (results folder = last URL path segment, skip when it holds rollouts); driver exit "
            f"{code}; folders {folders}; step_0200 skipped; {len(got)} rollouts (step_0100's), mean reward "
            f"{mean_of(got):.2f}.")


# =====================================================================================================
# verifier_runtime (task folder)
# =====================================================================================================

PIPE_SUBSHELL_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
reward=0
# accept the greeting on any line of the file (agents sometimes add a trailing line)
cat /app/hello.txt 2>/dev/null | while IFS= read -r line; do
  if [ "$line" = "Hello, Gym!" ]; then
    echo "PASS: found greeting"
    reward=1
  fi
done
echo "$reward" > /logs/verifier/reward.txt
"""


def pipe_subshell(tasks: Path) -> None:
    write_task_file(tasks, "create-greeting", "tests/test.sh", PIPE_SUBSHELL_TEST_SH)


@case(
    "verifier_runtime_taskfolder_test_sh_sets_reward_inside_piped_while_loop_whose_subshell_discards_it_so_every_pass_scores_zero",
    "verifier_runtime",
    ["test.sh", "while", "reward", "subshell"],
    "the author of create-greeting rewrote tests/test.sh to accept the greeting on any line with `cat "
    "/app/hello.txt | while read -r line; do ... reward=1; done`; the loop on the right of a pipe runs in a "
    "subshell, so reward=1 is lost when it ends and the script writes its initial 0: every episode of the task "
    "scored 0 although the log says 'PASS: found greeting', while count-error-lines scored, and every command "
    "exits 0",
)
def verifier_runtime_taskfolder_test_sh_sets_reward_inside_piped_while_loop_whose_subshell_discards_it_so_every_pass_scores_zero(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["count-error-lines", "create-greeting"], edit=pipe_subshell, repeats=4)
    counts, greeting = task_rewards(ctx, "count-error-lines"), task_rewards(ctx, "create-greeting")
    text = everything(ctx)
    if code or not greeting or any(greeting) or not any(counts) or "PASS: found greeting" not in text:
        raise failed(ctx, f"exit {code}, {counts} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/create-greeting/tests/test.sh (`cat hello.txt | while read ...; reward=1; done`, then "
            f"`echo $reward`); RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile x 2) exit {code}; "
            f"create-greeting rewards {greeting}, count-error-lines {counts}.")


# =====================================================================================================
# infra (Docker)
# =====================================================================================================


@case(
    "infra_docker_collect_container_mounts_run_folder_read_only_like_the_templates_data_mounts_so_rollouts_cannot_be_written",
    "infra",
    ["run_eval.sh", "docker", ":ro", "read-only"],
    "run_eval.sh mounts the run folder into the collect container with `:ro`, copied from the container template's "
    "data mounts; collect could not create rollouts.jsonl there ('Read-only file system'), the container exited "
    "non-zero, the script went on to profile, and no rollout was written although the policy server was up",
)
def infra_docker_collect_container_mounts_run_folder_read_only_like_the_templates_data_mounts_so_rollouts_cannot_be_written(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 60)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h103-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, "", "collect runs in the eval container (mounts as in the team "
                                   "template: read-only)")
    text = script.read_text()
    if f"-v {run}:{run} " not in text:
        raise recipes.RecipeError("run folder mount not found in the script")
    script.write_text(text.replace(f"-v {run}:{run} ", f"-v {run}:{run}:ro ", 1))
    (run / "logs").mkdir(exist_ok=True)
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) or "read-only file system" not in log.lower() or "collect container exit: 0" in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run -v RUN:RUN:ro ... collect`, profile) exit {code}; "
            f"collect could not write (read-only file system); {complete(ctx)} rollouts collected.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

SCALED_DRIVER_PY = '''"""drive_eval.py MODEL_URL: the nightly eval, bounded by the CI step budget."""
import json
import subprocess
import sys

GP = "{gp}"
url = sys.argv[1]
subprocess.run([GP, "materialize", "--input", "string_match.jsonl", "--num-repeats", "3", "--agent",
                "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
with open("rollouts_materialized_inputs.jsonl") as f:
    n_rows = sum(1 for _ in f)
concurrency = max(1, n_rows // 64)  # one worker per 64 rows, as tuned on the 4k-row train split
print(f"== {{n_rows}} rows, collect concurrency {{concurrency}}", flush=True)
# the CI step allows 30 s for collect on the nightly set
code = subprocess.run(["timeout", "30", GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output",
                       "rollouts.jsonl", "--model-url", url, "--env", "string_match", "--concurrency",
                       str(concurrency)]).returncode
print(f"collect exit {{code}}", flush=True)
subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"])
'''


@case(
    "throughput_resources_builtin_python_driver_scales_collect_concurrency_as_rows_floor_divided_by_64_so_nightly_set_runs_one_at_a_time",
    "throughput_resources",
    ["drive_eval.py", "concurrency", "n_rows // 64", "--concurrency"],
    "the user's drive_eval.py sets collect's concurrency to max(1, n_rows // 64), tuned on the 4k-row train split; "
    "the nightly set has 12 questions x 3 repeats = 36 rows, so collect ran one request at a time against a policy "
    "answering in about 1.5 s (about 54 s of work) and the CI step's `timeout 30` killed it part-way: only part of "
    "the rollouts were collected and profile refused the partial file",
)
def throughput_resources_builtin_python_driver_scales_collect_concurrency_as_rows_floor_divided_by_64_so_nightly_set_runs_one_at_a_time(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 12, 74)
    url, _ = ctx.policy(better, "--latency-ms 1500")
    (run / "drive_eval.py").write_text(SCALED_DRIVER_PY.format(gp=GP))
    (run / "logs").mkdir(exist_ok=True)
    code = ctx.sh(f"cd {run} && {BIN}/python drive_eval.py {url}", "logs/drive_eval.log", timeout=300)
    log = log_of(ctx, "drive_eval.log")
    done = complete(ctx)
    if not 0 < done < 36 or "collect concurrency 1" not in log or "collect exit 124" not in log:
        raise failed(ctx, f"exit {code}, {done}: {log[-1500:]}")
    return (f"RUN/drive_eval.py (concurrency = max(1, 36 // 64) = 1, collect under `timeout 30`); driver exit {code}; "
            f"collect exit 124; {done} of 36 rollouts collected.")


# =====================================================================================================
# model_serving (Docker)
# =====================================================================================================

SERVE_SH = """#!/bin/bash
# serve the candidate checkpoint in a container (resource flags from the team's sidecar template)
docker run -d --name {name} --memory 32m --memory-swap 32m --network host {mounts} -v {ckpt}:{ckpt}:ro \\
  -e PYTHONPATH={root} gym-pipeline/base:bookworm \\
  {bin}/python -m gym_pipeline.cli serve-policy --checkpoint {ckpt} --port {port} --ready-file /tmp/policy.ready \\
  --latency-ms 20
for i in $(seq 1 60); do
  state=$(docker inspect -f '{{{{.State.Status}}}}' {name})
  if [ "$state" = running ] && docker exec {name} test -s /tmp/policy.ready; then echo "policy ready"; break; fi
  if [ "$state" = exited ]; then echo "policy container exited"; break; fi
  sleep 1
done
echo "== serving container state: $state, exit code $(docker inspect -f '{{{{.State.ExitCode}}}}' {name}), \\
OOMKilled $(docker inspect -f '{{{{.State.OOMKilled}}}}' {name})"
docker logs --tail 30 {name}
"""


@case(
    "model_serving_docker_serve_script_caps_policy_container_at_32_megabytes_from_sidecar_template_so_server_is_oom_killed_at_start",
    "model_serving",
    ["serve_policy.sh", "--memory", "32m", "OOMKilled"],
    "the user's serve_policy.sh starts the policy server container with `--memory 32m --memory-swap 32m`, taken "
    "from the team's sidecar template; the Python server needs more than that to load, so the kernel OOM-killed it "
    "before it listened (exit 137, OOMKilled true), the serve script reported the container exited, and collect's "
    "connections to the model URL were refused: no rollout was collected",
)
def model_serving_docker_serve_script_caps_policy_container_at_32_megabytes_from_sidecar_template_so_server_is_oom_killed_at_start(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 68)
    port = free_port()
    name = f"h103-policy-{port}"
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
    if complete(ctx) or "OOMKilled true" not in serve_log or "policy ready" in serve_log:
        raise failed(ctx, f"serve {served}, eval {code}, {complete(ctx)}: {serve_log[-1500:]}")
    return (f"RUN/serve_policy.sh (`docker run -d --memory 32m --memory-swap 32m ... serve-policy`) exit {served}; "
            f"the server was OOM-killed; RUN/run_eval.sh (materialize 6 x 3, collect, profile) exit {code}; "
            f"{complete(ctx)} rollouts collected.")


if __name__ == "__main__":
    sys.exit(main("hundred_and_third_held_out", __file__, __doc__))
