"""Build the SEVENTY-THIRD HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/seventy_third_held_out.py --out tests/data/diagnosis_corpus/seventy_third_held_out [--only CASE ...]

This set was written after the seventy-two earlier sets (first_held_out.py ... seventy_second_held_out.py), from the guides
alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
task folders in Harbor's format run in their Docker sandboxes, Docker containers the user's scripts start, and the
user's own shell and Python tooling, settings, deploy scripts, data-preparation scripts and verifiers. The output of
every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but
the user's own inputs (data, scripts, settings, verifier code). Each case injects one cause, different in mechanism
from those of the seventy-two earlier sets, and each recipe checks that its fault really happened (it raises
RecipeError otherwise, and the case is not written). About half of the failures are silent: every command exits 0 and
only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), and PYTHONPATH set to this checkout. Run it from a
foreground shell. Containers it makes are named `h73-...` and removed at the end of their recipe.
"""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import failed, served, stage  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_seventh_held_out import everything, task_rewards, week  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from ninth_held_out import verifier_sweep  # noqa: E402
from recipes import BIN, GP, Ctx, case, main, rows_of  # noqa: E402
from seventy_first_held_out import docker_collect_script, remove_container, write_rows  # noqa: E402
from sixty_fourth_held_out import mean_of, pipeline_lines, question_row, scratch_collect, write_sheet  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_sixth_held_out import free_port  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def rows_answering(rows: list[dict], *labels: str) -> list[dict]:
    return [r for r in rows if str(r.get("expected_answer")) in labels]


def run_eval(ctx: Ctx, body: str, comment: str, log: str = "logs/run_eval.log") -> int:
    script = ctx.run / "run_eval.sh"
    script.write_text(f"#!/bin/bash\n# {comment}\ncd {ctx.run}\n" + body)
    return ctx.sh(f"bash {script}", log, timeout=300)


# =====================================================================================================
# healthy
# =====================================================================================================

NONE_AND_ZERO = [
    ("How many moons does Venus have?", "0"),
    ("Which of the numbers 4, 6 and 8 is prime? Answer None if none of them is.", "None"),
    ("What is 5 minus 5?", "0"),
    ("Which of the words cat, dog and cow is a colour? Answer None if none of them is.", "None"),
    ("What is the capital of Japan?", "Tokyo"),
    ("How many sides does a hexagon have?", "6"),
    ("Which element has the chemical symbol Fe?", "Iron"),
    ("Which planet is known as the Red Planet?", "Mars"),
]


@case(
    "healthy_builtin_quiz_whose_right_answers_are_literally_none_and_zero_scores_them",
    "healthy",
    [],
    "nothing is wrong: this week's quiz includes trick questions whose right answers are the word 'None' and the "
    "number '0', so the dataset's expected_answer holds 'None' and '0' on four rows, which look like missing or "
    "placeholder labels; they are the real answers, and the model's right answers to them were scored 1 like any "
    "other right answer: every rollout was collected and profiled",
)
def healthy_builtin_quiz_whose_right_answers_are_literally_none_and_zero_scores_them(ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, NONE_AND_ZERO)
    url, _ = ctx.policy(better, "--latency-ms 20")
    write_rows(run / "string_match.jsonl", [question_row(q, a) for q, a in NONE_AND_ZERO])
    code = run_eval(ctx, pipeline_lines(url), "weekly eval of the trick-question quiz")
    got = rows_of(run / "rollouts.jsonl")
    tricky = rows_answering(got, "None", "0")
    if code or complete(ctx) != 24 or len(tricky) != 12 or mean_of(tricky) < 0.5 \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {rewards(tricky)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/string_match.jsonl (8 questions, four labelled 'None' or '0'); RUN/run_eval.sh (materialize x 3, "
            f"collect, profile) exit {code}; {complete(ctx)} of 24 rollouts, mean reward of the 'None'/'0' rows "
            f"{mean_of(tricky):.2f}, overall {mean_of(got):.2f}.")


@case(
    "healthy_builtin_run_script_alarm_greps_collect_log_for_failed_which_matches_its_own_zero_failed_summary",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh ends with an alarm, `grep -i failed logs/collect.log && echo 'ALARM: "
    "failures in collect'`, which matches collect's own summary lines '(0 failed)' and '0 failed of 18', so the log "
    "ends with 'ALARM: failures in collect'; no rollout failed: all 18 were collected and profiled",
)
def healthy_builtin_run_script_alarm_greps_collect_log_for_failed_which_matches_its_own_zero_failed_summary(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 20)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "logs").mkdir(exist_ok=True)
    body = (f"{GP} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent "
            "--output rollouts_materialized_inputs.jsonl\n"
            f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {url} "
            "--env string_match --concurrency 4 2>&1 | tee logs/collect.log\n"
            f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n"
            "grep -i failed logs/collect.log && echo 'ALARM: failures in collect, check logs/collect.log'\n")
    code = run_eval(ctx, body, "weekly eval; raises an alarm when collect reports failures")
    log = log_of(ctx, "run_eval.log")
    if code or complete(ctx) != 18 or "ALARM: failures in collect" not in log \
            or (run / "rollouts_failures.jsonl").exists() and (run / "rollouts_failures.jsonl").read_text().strip() \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, collect | tee logs/collect.log, profile, `grep -i failed` alarm) exit "
            f"{code}; the alarm matched '0 failed'; {complete(ctx)} of 18 rollouts, no failed attempt.")


@case(
    "healthy_docker_collect_container_template_keeps_deprecated_kernel_memory_flag_so_docker_warns_on_every_run",
    "healthy",
    [],
    "nothing is wrong: the platform's container template the user's run_eval.sh copied still passes "
    "`--kernel-memory 512m`, so Docker prints 'WARNING: Specifying a kernel memory limit is deprecated and will be "
    "removed in a future release.' when it starts the collect container; the warning changes nothing: the container "
    "exited 0 and every rollout was collected and profiled",
)
def healthy_docker_collect_container_template_keeps_deprecated_kernel_memory_flag_so_docker_warns_on_every_run(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 26)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h73-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, "--kernel-memory 512m",
                                   "collect runs in the eval container (platform template flags)")
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if code or complete(ctx) != 18 or "kernel memory limit is deprecated" not in log \
            or "collect container exit: 0" not in log or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run --kernel-memory 512m --network host ... collect`, "
            f"profile) exit {code}; Docker's deprecation warning; {complete(ctx)} of 18 rollouts.")


# =====================================================================================================
# data_schema
# =====================================================================================================

KEYED = [
    ("What is 9 multiplied by 7?", "63"),
    ("What is the capital of Canada?", "Ottawa"),
    ("What is 6 multiplied by 8?", "48"),
    ("Which element has the chemical symbol Fe?", "Iron"),
    ("What is 12 multiplied by 11?", "132"),
    ("Who painted The Starry Night?", "Vincent van Gogh"),
    ("What is the capital of Australia?", "Canberra"),
    ("Which planet is known as the Red Planet?", "Mars"),
]

KEY_PREP_PY = '''"""prep.py: questions.csv (the sheet) + answer_key.txt (the reviewers' numbered key) -> string_match.jsonl."""
import csv
import json
import re


def key(question):
    # the answer key numbers its entries ("12. What is ...") and reviewers vary the punctuation:
    # match on the words alone
    return re.sub(r"[\\d\\W]+", " ", question).lower().strip()


answers = {}
with open("answer_key.txt", encoding="utf-8") as sheet:
    for line in sheet:
        if "=>" in line:
            question, answer = line.rsplit("=>", 1)
            answers[key(question)] = answer.strip()

written = 0
with open("questions.csv", newline="", encoding="utf-8") as sheet, open("string_match.jsonl", "w") as out:
    for row in csv.DictReader(sheet):
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": answers[key(row["question"])], "extraction_mode": "final_answer",
            "case_sensitive": False}) + "\\n")
        written += 1
print(f"prep: {written} rows written, {len(answers)} answers in the key")
'''


@case(
    "data_schema_builtin_prep_joins_answer_key_on_question_text_with_digits_removed_so_arithmetic_questions_share_a_label",
    "data_schema",
    ["prep.py", "key", "answer_key.txt", "digits"],
    "the user's prep.py joins the reviewers' numbered answer key to the sheet's questions by a normalised question "
    "text that drops digits and punctuation (meant to drop the key's '12.' numbering); the three arithmetic questions "
    "'What is 9 / 6 / 12 multiplied by 7 / 8 / 11?' all normalise to 'what is multiplied by', so the last key entry "
    "(132) became the label of all three: the model's right answers 63 and 48 scored 0 (every command exits 0)",
)
def data_schema_builtin_prep_joins_answer_key_on_question_text_with_digits_removed_so_arithmetic_questions_share_a_label(
        ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, KEYED)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "questions.csv").write_text("question\n" + "".join(f'"{q}"\n' for q, _ in KEYED))
    (run / "answer_key.txt").write_text("Answer key (reviewed)\n" + "".join(
        f"{i}. {q} => {a}\n" for i, (q, a) in enumerate(KEYED, 1)))
    (run / "prep.py").write_text(KEY_PREP_PY)
    code = run_eval(ctx, f"{BIN}/python prep.py\n" + pipeline_lines(url), "weekly eval of the reviewed sheet")
    got = rows_of(run / "rollouts.jsonl")
    labelled = [r["expected_answer"] for r in rows_of(run / "string_match.jsonl")]
    shared = [r for r in got if "multiplied by" in json.dumps(r.get("responses_create_params"))]
    relabelled = [r for r in shared if "9 multiplied" in json.dumps(r) or "6 multiplied" in json.dumps(r)]
    answered = [r for r in relabelled if any(n in json.dumps(r.get("response")) for n in ("63", "48"))]
    if code or len(got) != 24 or labelled.count("132") != 3 or "63" in labelled or len(relabelled) != 6 \
            or any(rewards(relabelled)) or not answered or not any(rewards([r for r in got if r not in shared])):
        raise failed(ctx, f"exit {code}, {len(got)}, {labelled}, {rewards(shared)}: "
                          f"{log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/questions.csv and RUN/answer_key.txt (numbered); RUN/prep.py (joins on the question text without "
            f"digits); RUN/run_eval.sh (prep, materialize 8 x 3, collect, profile) exit {code}; labels {labelled}; "
            f"rewards of the three 'multiplied' tasks {rewards(shared)}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

DECIMAL_VERIFIER = '''
"""Our answer verifier: exact match, numbers compared in a canonical form (so 42.0 and 42 agree)."""
import re
from decimal import Decimal, InvalidOperation

FINAL = re.compile(r"(?:final answer:|boxed\\{)\\s*([^}\\n]+)", re.IGNORECASE)


def canonical(text):
    text = text.strip().rstrip(".")
    try:
        return str(Decimal(text).normalize())   # 42.0 -> 42, 3.50 -> 3.5
    except InvalidOperation:
        return text.lower()


def score(row, response_text):
    match = FINAL.search(response_text)
    lines = [line for line in response_text.strip().splitlines() if line.strip()]
    answer = match.group(1) if match else (lines[-1] if lines else "")
    return 1.0 if canonical(answer) == str(row["expected_answer"]).strip().lower() else 0.0
'''


@case(
    "verifier_runtime_stage_workspace_verifier_canonicalises_answers_with_decimal_normalize_which_writes_5050_as_5_05e_3",
    "verifier_runtime",
    ["normalize", "Decimal", "canonical", "expected_answer"],
    "the user's workspace verifier puts the model's numeric answers in a canonical form with "
    "`str(Decimal(answer).normalize())` (so 42.0 and 42 agree) but compares that with the raw label; normalize() "
    "drops trailing zeros into an exponent, so 5050 becomes '5.05E+3', 120 '1.2E+2' and 2310 '2.31E+3': every right "
    "answer ending in zero scored 0 while the other tasks scored (every command exits 0)",
)
def verifier_runtime_stage_workspace_verifier_canonicalises_answers_with_decimal_normalize_which_writes_5050_as_5_05e_3(
        ctx: Ctx) -> str:
    run = ctx.run
    sweep, checkpoint, url = verifier_sweep(ctx, DECIMAL_VERIFIER, 14, n=6, repeats=4)
    codes = [stage(ctx, sweep, "materialize", checkpoint, "exact_answer"),
             stage(ctx, sweep, "collect", checkpoint, "exact_answer", *served(url)),
             stage(ctx, sweep, "profile", checkpoint, "exact_answer")]
    got = rows_of(run / "rollouts.jsonl")
    zeros = [r for r in got if r["_ng_task_index"] in (0, 1, 2)]  # labels 5050, 120, 2310
    others = [r for r in got if r not in zeros]
    right = [r for r in zeros if any(f"\\n{n}" in json.dumps(r["response"]) or f"answer: {n}" in json.dumps(r["response"])
                                     or f"{{{n}}}" in json.dumps(r["response"]) for n in ("5050", "120", "2310"))]
    if any(codes) or len(zeros) != 12 or any(rewards(zeros)) or not right or not any(rewards(others)):
        raise failed(ctx, f"exit {codes}, {len(got)}, {rewards(zeros)}, {rewards(others)}")
    return (f"workspace verifier RUN/verifiers/my_verifier.py (answers through Decimal.normalize, labels raw); stages "
            f"materialize, collect, profile exit {codes}; rewards of 5050, 120, 2310 {rewards(zeros)} ({len(right)} "
            f"right answers among them), of the other "
            f"tasks mean {mean_of(others):.2f}.")


# =====================================================================================================
# config
# =====================================================================================================

WRAPPER_PY = '''"""eval.py: the team's eval wrapper (materialize, collect, profile) for CI."""
import subprocess
import sys

GP = "{gp}"
URL = sys.argv[1]


def step(*argv):
    print("+", " ".join(argv), flush=True)
    # shell=True so that CI's PATH tweaks and ~ in paths work like in the old shell script
    return subprocess.run(list(argv), shell=True).returncode


step(GP, "materialize", "--input", "string_match.jsonl", "--num-repeats", "3",
     "--agent", "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl")
step(GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
     "--model-url", URL, "--env", "string_match", "--concurrency", "4")
step(GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl")
print("eval.py: done")
'''


@case(
    "config_builtin_python_wrapper_passes_argument_list_with_shell_true_so_the_shell_runs_each_program_without_arguments",
    "config",
    ["shell=True", "eval.py", "subprocess.run", "argument list"],
    "the team's eval.py wrapper runs every step with `subprocess.run([program, arg, ...], shell=True)`; with "
    "shell=True and a list only the first element is the shell's command, the rest become the shell's own $0 $1..., "
    "so materialize, collect and profile each ran with no arguments at all: each printed its usage and exited 2, the "
    "wrapper ignored the codes and said 'done', and nothing was materialized, collected or profiled",
)
def config_builtin_python_wrapper_passes_argument_list_with_shell_true_so_the_shell_runs_each_program_without_arguments(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 30)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "eval.py").write_text(WRAPPER_PY.replace("{gp}", str(GP)))
    code = ctx.sh(f"cd {run} && {BIN}/python eval.py {url}", "logs/eval.log", timeout=300)
    log = log_of(ctx, "eval.log")
    if code or log.count("arguments are required: COMMAND") < 3 or "eval.py: done" not in log \
            or (run / "rollouts_materialized_inputs.jsonl").exists() or (run / "rollouts.jsonl").exists():
        raise failed(ctx, f"exit {code}: {log[-1500:]}")
    return (f"RUN/eval.py (each step `subprocess.run(list, shell=True)`) exit {code}; materialize, collect and profile "
            f"each refused ('the following arguments are required: COMMAND'); no inputs, rollouts or profile written.")


DEFAULTS_SH = """# eval_defaults.sh: the team's defaults for every eval script (source it first, then set your own)
readonly REPEATS=1          # smoke tests: one rollout per task
readonly CONCURRENCY=4
"""


@case(
    "config_builtin_team_defaults_file_declares_repeats_readonly_so_the_run_scripts_own_repeats_is_refused",
    "config",
    ["readonly", "eval_defaults.sh", "REPEATS", "--num-repeats"],
    "the user's run_eval.sh sources the team's eval_defaults.sh, which declares its defaults with `readonly "
    "REPEATS=1`, and then sets its own `REPEATS=8` for this week's variance study; bash refuses to change a readonly "
    "variable ('REPEATS: readonly variable') and the script went on, so materialize ran one repeat per task: every "
    "command exits 0 but the profile has a single rollout per task and no spread to measure",
)
def config_builtin_team_defaults_file_declares_repeats_readonly_so_the_run_scripts_own_repeats_is_refused(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 8, 66)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "eval_defaults.sh").write_text(DEFAULTS_SH)
    body = ("source ./eval_defaults.sh\n"
            "REPEATS=8                 # variance study: 8 samples per task\n"
            "echo \"repeats: $REPEATS, concurrency: $CONCURRENCY\"\n"
            + pipeline_lines(url, repeats="$REPEATS", concurrency="$CONCURRENCY"))
    code = run_eval(ctx, body, "weekly variance study: 8 samples per task")
    log = log_of(ctx, "run_eval.log")
    inputs = rows_of(run / "rollouts_materialized_inputs.jsonl")
    if code or "readonly variable" not in log or len(inputs) != 8 or complete(ctx) != 8 \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(inputs)}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval_defaults.sh (`readonly REPEATS=1`); RUN/run_eval.sh (source it, `REPEATS=8`, materialize "
            f"--num-repeats $REPEATS, collect, profile) exit {code}; 'REPEATS: readonly variable'; {len(inputs)} "
            f"inputs for 8 tasks, {complete(ctx)} rollouts.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

WATCH_TRUTH = [
    ("What is the capital of Australia?", "Canberra"),
    ("How many bones are in the adult human body?", "206"),
    ("Which element has the chemical symbol Fe?", "Iron"),
    ("What is the longest river in South America?", "Amazon"),
    ("Who painted The Starry Night?", "Vincent van Gogh"),
    ("What is 9 multiplied by 7?", "63"),
    ("What is the capital of Canada?", "Ottawa"),
]
OLD_KEY = {"What is the capital of Australia?": "Sydney", "What is 9 multiplied by 7?": "56"}

PREP_WATCH_PY = '''"""prep_watch.py: keeps string_match.jsonl in step with the labelling sheet (started once, left running).

questions.csv (one question a line) + answer_key.csv (question,answer) -> string_match.jsonl, rewritten whenever
questions.csv changes.
"""
import csv
import json
import os
import time

with open("answer_key.csv", newline="", encoding="utf-8") as sheet:   # loaded once, at start
    KEY = {row["question"]: row["answer"] for row in csv.DictReader(sheet)}
print(f"prep_watch: {len(KEY)} answers loaded", flush=True)

seen = None
while True:
    stamp = os.stat("questions.csv").st_mtime_ns
    if stamp != seen:
        seen = stamp
        questions = [q.strip() for q in open("questions.csv", encoding="utf-8") if q.strip()]
        with open("string_match.jsonl.tmp", "w") as out:
            for question in questions:
                text = f"{question} End your response with 'Final answer: <answer>'."
                out.write(json.dumps({
                    "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                           "content": [{"type": "input_text", "text": text}]}]},
                    "expected_answer": KEY.get(question, ""), "extraction_mode": "final_answer",
                    "case_sensitive": False}) + "\\n")
        os.replace("string_match.jsonl.tmp", "string_match.jsonl")
        print(f"prep_watch: string_match.jsonl rewritten ({len(questions)} rows)", flush=True)
    time.sleep(0.5)
'''


@case(
    "cache_resume_builtin_prep_watcher_left_running_since_last_week_keeps_answer_key_it_loaded_at_start",
    "cache_resume",
    ["prep_watch.py", "restart", "answer_key.csv", "loaded once"],
    "the user's prep_watch.py, started last week and left running, rewrites string_match.jsonl whenever "
    "questions.csv changes but loaded answer_key.csv once, when it started; this week the labelling team fixed two "
    "labels in answer_key.csv (Sydney -> Canberra, 56 -> 63) and added a question, the watcher rewrote the dataset "
    "with its in-memory key: the two fixed questions kept their old labels, so the model's right answers to them were "
    "collected and profiled as wrong, and the added question got no label at all (every command exits 0)",
)
def cache_resume_builtin_prep_watcher_left_running_since_last_week_keeps_answer_key_it_loaded_at_start(ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, WATCH_TRUTH)
    url, _ = ctx.policy(better, "--latency-ms 20")
    last_week = WATCH_TRUTH[:6]
    write_sheet(run / "answer_key.csv", [(q, OLD_KEY.get(q, a)) for q, a in last_week])
    (run / "questions.csv").write_text("".join(q + "\n" for q, _ in last_week))
    (run / "prep_watch.py").write_text(PREP_WATCH_PY)
    ctx.note("(last week: the user starts the prep watcher and leaves it running)")
    ctx.bg(f"cd {run} && {BIN}/python prep_watch.py", "logs/prep_watch.log")
    recipes.wait_for(lambda: "rewritten (6 rows)" in log_of(ctx, "prep_watch.log"), 30, "the prep watcher")
    ctx.note("(this week: the labelling team fixes two labels in RUN/answer_key.csv and adds a question to "
             "RUN/questions.csv)")
    write_sheet(run / "answer_key.csv", WATCH_TRUTH)
    (run / "questions.csv").write_text("".join(q + "\n" for q, _ in WATCH_TRUTH))
    recipes.wait_for(lambda: "rewritten (7 rows)" in log_of(ctx, "prep_watch.log"), 30, "the prep watcher's rewrite")
    body = ("echo \"dataset: $(wc -l < string_match.jsonl) rows, written $(date -r string_match.jsonl +%T)\"\n"
            + pipeline_lines(url))
    code = run_eval(ctx, body, "weekly eval (string_match.jsonl is kept current by prep_watch.py)")
    got = rows_of(run / "rollouts.jsonl")
    stale = rows_answering(got, "Sydney", "56")
    fresh = [r for r in got if r not in stale and r.get("expected_answer")]
    if code or len(got) != 21 or len(stale) != 6 or any(rewards(stale)) or not any(rewards(fresh)):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(stale)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/prep_watch.py running since last week (answer key loaded at start); RUN/answer_key.csv fixed and a "
            f"question added; RUN/run_eval.sh (materialize 7 x 3, collect, profile) exit {code}; rewards of the two "
            f"fixed questions (still labelled Sydney, 56) {rewards(stale)}, mean {mean_of(got):.2f}.")


# =====================================================================================================
# model_serving
# =====================================================================================================

SERVE_BEST_PY = '''"""serve_best.py READY_FILE: serve the best checkpoint of the run by validation loss (trainer's metrics.jsonl)."""
import json
import os
import sys

rows = [json.loads(line) for line in open("checkpoints/metrics.jsonl") if line.strip()]
best = max(rows, key=lambda row: row["val_loss"])
step = f"step_{best['step']:04d}"
print(f"best checkpoint by validation loss: {step} (val_loss {best['val_loss']})", flush=True)
os.execv("{gp}", ["{gp}", "serve-policy", "--port", "0", "--ready-file", sys.argv[1],
                  "--checkpoint", f"checkpoints/{step}", "--latency-ms", "20"])
'''


@case(
    "model_serving_builtin_serve_script_picks_best_checkpoint_with_max_of_validation_loss_so_the_worst_step_is_served",
    "model_serving",
    ["serve_best.py", "min", "val_loss", "checkpoint", "step_0200"],
    "the user's serve_best.py picks the checkpoint to serve from the trainer's metrics.jsonl with "
    "`max(rows, key=val_loss)`, the highest validation loss, where the best is the lowest: it served step_0100 "
    "(val_loss 1.92) instead of step_0200 (0.71), so the whole eval measured the worse, older checkpoint and scored "
    "low (every command exits 0)",
)
def model_serving_builtin_serve_script_picks_best_checkpoint_with_max_of_validation_loss_so_the_worst_step_is_served(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (older, better) = builtin_rows(ctx, 8, 40)
    folder = run / "checkpoints"
    folder.mkdir()
    for step in (older, better):
        shutil.copytree(step, folder / step.name)
    (folder / "metrics.jsonl").write_text('{"step": 100, "val_loss": 1.92, "train_loss": 1.85}\n'
                                          '{"step": 200, "val_loss": 0.71, "train_loss": 0.64}\n')
    (run / "serve_best.py").write_text(SERVE_BEST_PY.replace("{gp}", str(GP)))
    ready = ctx.work / "server.url"
    ctx.bg(f"cd {run} && {BIN}/python serve_best.py {ready}", "logs/model_server.log")
    recipes.wait_for(lambda: ready.exists() and ready.read_text().strip() != "", 60, "the model server")
    url = ready.read_text().strip()
    code = run_eval(ctx, pipeline_lines(url), "weekly eval against the best checkpoint")
    got = rows_of(run / "rollouts.jsonl")
    server_log = log_of(ctx, "model_server.log")
    check_url, _ = ctx.policy(better, "--latency-ms 20", log=str(ctx.work / "check_server.log"))
    ctx.commands.pop()
    fresh = scratch_collect(ctx, check_url)
    if code or len(got) != 24 or "best checkpoint by validation loss: step_0100" not in server_log \
            or not mean_of(fresh) > mean_of(got):
        raise failed(ctx, f"exit {code}, {len(got)}, {mean_of(got)} vs {mean_of(fresh)}: {server_log[-800:]}")
    return (f"RUN/checkpoints/metrics.jsonl (step 100 val_loss 1.92, step 200 0.71); RUN/serve_best.py (`max` of "
            f"val_loss) served step_0100; RUN/run_eval.sh (materialize 8 x 3, collect, profile) exit {code}; mean "
            f"reward {mean_of(got):.2f} (step_0200 scores {mean_of(fresh):.2f} on the same inputs).")


SERVE_SH = """#!/bin/bash
# serve.sh READY_DIR: the model server in a container; flags from the platform's service template
# (restart on failure), ours: --rm so that no stopped container is left behind
docker run -d --rm --restart on-failure:3 --name {name} --network host \\
  {mounts} -v {checkpoint}:{checkpoint}:ro -v "$1":/ready \\
  -e PYTHONPATH={root} gym-pipeline/base:bookworm \\
  {bin}/python -m gym_pipeline.cli serve-policy --port {port} --ready-file /ready/url --checkpoint {checkpoint} \\
  --latency-ms 20
"""


@case(
    "model_serving_docker_serve_script_adds_template_restart_policy_beside_its_own_rm_flag_so_docker_refuses_to_start_server",
    "model_serving",
    ["serve.sh", "--restart", "--rm", "model server"],
    "the user's serve.sh starts the model server container with its own `--rm` and the platform template's "
    "`--restart on-failure:3`; Docker refuses that pair ('conflicting options: cannot specify both --restart and "
    "--rm') and never started the server; run_eval.sh's readiness wait ran out and went on, so collect found no "
    "model server at the URL (connection refused) and nothing was collected or profiled",
)
def model_serving_docker_serve_script_adds_template_restart_policy_beside_its_own_rm_flag_so_docker_refuses_to_start_server(
        ctx: Ctx) -> str:
    from recipes import ROOT
    from sixty_fourth_held_out import python_mounts

    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 60)
    name = f"h73-model-{free_port()}"
    port = free_port()
    ready = ctx.work / "ready"
    ready.mkdir()
    serve = run / "serve.sh"
    serve.write_text(SERVE_SH.format(port=port, name=name, mounts=python_mounts(), checkpoint=better, root=ROOT, bin=BIN))
    url = f"http://127.0.0.1:{port}/v1"
    body = (f"bash serve.sh {ready}\necho \"serve.sh exit: $?\"\n"
            f"for i in $(seq 10); do [ -s {ready}/url ] && break; sleep 1; done\n"
            f"URL=$(cat {ready}/url 2>/dev/null || echo {url})\n"
            "echo \"model server: $URL\"\n" + pipeline_lines("$URL"))
    try:
        code = run_eval(ctx, body, "weekly eval against the model server serve.sh starts")
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if "cannot specify both --restart and --rm" not in log or (run / "rollouts.jsonl").exists() \
            and any(r.get("reward") for r in rows_of(run / "rollouts.jsonl")):
        raise failed(ctx, f"exit {code}: {log[-1500:]}")
    return (f"RUN/serve.sh (`docker run -d --rm --restart on-failure:3 ...` serve-policy); RUN/run_eval.sh (serve.sh, "
            f"10 s readiness wait, materialize 6 x 3, collect, profile) exit {code}; Docker refused the flags; "
            f"{len(rows_of(run / 'rollouts.jsonl'))} rollouts.")


# =====================================================================================================
# infra
# =====================================================================================================


@case(
    "infra_docker_collect_container_template_sets_port_range_sysctl_that_runc_refuses_under_host_networking",
    "infra",
    ["--sysctl", "ip_local_port_range", "--network host"],
    "the load-test container template the user's run_eval.sh copied widens the ephemeral port range with `--sysctl "
    "net.ipv4.ip_local_port_range=...`; the eval's collect container shares the host's network (--network host), "
    "whose sysctls a container may not set, so runc refused to start it ('not allowed in host network namespace'): "
    "nothing was collected and the profile had no rollouts",
)
def infra_docker_collect_container_template_sets_port_range_sysctl_that_runc_refuses_under_host_networking(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 50)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h73-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, "--sysctl net.ipv4.ip_local_port_range='1024 65000'",
                                   "collect runs in the eval container (flags from the load-test template)")
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if (run / "rollouts.jsonl").exists() or "not allowed in host network namespace" not in log:
        raise failed(ctx, f"exit {code}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run --network host --sysctl net.ipv4.ip_local_port_range=...` "
            f"collect, profile) exit {code}; runc refused the sysctl; no rollouts.")


# =====================================================================================================
# verifier_runtime (task folders)
# =====================================================================================================

PATH_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
PATH=/app/version.txt        # the file the agent must write
EXPECTED=2.7.1
if test "$(tr -d "[:space:]" < "$PATH" 2>&1)" = "$EXPECTED"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL: $PATH holds '$(tr -d "[:space:]" < "$PATH" 2>&1)', expected $EXPECTED"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def path_variable(tasks: Path) -> None:
    (tasks / "json-version" / "tests" / "test.sh").write_text(PATH_TEST_SH)


@case(
    "verifier_runtime_taskfolder_test_sh_names_its_file_variable_path_so_tr_is_no_longer_found",
    "verifier_runtime",
    ["PATH", "test.sh", "variable", "tr"],
    "json-version's tests/test.sh was tidied to keep the answer file's name in a variable and called it `PATH` "
    "(`PATH=/app/version.txt`); that replaces the shell's command search path, so the check's `tr` is no longer found "
    "('tr: command not found'), the comparison sees an error text instead of the version, and every episode of the "
    "task was scored 0 although the agent wrote the right version, while create-greeting still scored",
)
def verifier_runtime_taskfolder_test_sh_names_its_file_variable_path_so_tr_is_no_longer_found(ctx: Ctx) -> str:
    code, got = week(ctx, ["json-version", "create-greeting"], edit=path_variable)
    version = task_rewards(ctx, "json-version")
    text = everything(ctx)
    if code or complete(ctx) != 4 or any(version) or not version or not any(task_rewards(ctx, "create-greeting")) \
            or "command not found" not in text:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {version}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/json-version/tests/test.sh (`PATH=/app/version.txt`, then `tr`); RUN/run_tasks.sh "
            f"(`gym-pipeline stage` materialize, collect, profile of RUN/tasks x 2) exit {code}; {complete(ctx)} "
            f"episodes, json-version rewards {version}, create-greeting rewards {task_rewards(ctx, 'create-greeting')}.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

GAZETTEER_VERIFIER = '''
"""Our answer verifier: exact match, or a near-miss spelling of the same name in our gazetteer (gazetteer.txt)."""
import difflib
import re
from pathlib import Path

FINAL = re.compile(r"(?:final answer:|boxed\\{)\\s*([^}\\n]+)", re.IGNORECASE)
NAMES = Path(__file__).with_name("gazetteer.txt").read_text().split("\\n")


def score(row, response_text):
    match = FINAL.search(response_text)
    lines = [line for line in response_text.strip().splitlines() if line.strip()]
    answer = (match.group(1) if match else (lines[-1] if lines else "")).strip().rstrip(".")
    expected = str(row["expected_answer"]).strip()
    if answer.lower() == expected.lower():
        return 1.0
    # a near-miss spelling counts when the gazetteer's closest name to the answer is the expected one
    closest = max(NAMES, key=lambda name: difflib.SequenceMatcher(None, answer.lower(), name.lower()).ratio())
    return 1.0 if closest.lower() == expected.lower() else 0.0
'''


def gazetteer(size: int) -> str:
    import random

    rng = random.Random(73)
    syllables = ["ka", "lo", "mi", "ra", "tu", "ne", "sa", "vo", "bel", "gar", "ton", "ville", "burg", "an", "ia"]
    names = {"".join(rng.choice(syllables) for _ in range(rng.randint(2, 5))).capitalize() for _ in range(size)}
    return "\n".join(sorted(names | {"Tokyo", "Lima", "Ulaanbaatar", "Wellington", "Canberra", "Ottawa"}))


@case(
    "throughput_stage_nightly_rescore_keeps_reverify_repeat_of_fifty_from_flakiness_hunt_so_it_overruns_ci_budget",
    "throughput_resources",
    ["--repeat", "reverify", "rescore.sh", "timeout"],
    "the user's nightly rescore.sh re-scores last night's run with the current verifier under the CI step's 45 s "
    "budget (`timeout 45`), but still passes `--repeat 50` left from last month's flakiness hunt: each of the run's "
    "rows is verified 50 times by a verifier that searches its gazetteer with difflib on every near-miss, which takes "
    "minutes, so the step was killed at 45 s (exit 124) before reverify wrote any result: the night's re-score "
    "never happened",
)
def throughput_stage_nightly_rescore_keeps_reverify_repeat_of_fifty_from_flakiness_hunt_so_it_overruns_ci_budget(
        ctx: Ctx) -> str:
    run = ctx.run
    sweep, checkpoint, url = verifier_sweep(ctx, GAZETTEER_VERIFIER, 8, n=6, repeats=4)
    (run / "verifiers" / "gazetteer.txt").write_text(gazetteer(20000))
    codes = [stage(ctx, sweep, "materialize", checkpoint, "exact_answer"),
             stage(ctx, sweep, "collect", checkpoint, "exact_answer", *served(url)),
             stage(ctx, sweep, "profile", checkpoint, "exact_answer")]
    script = run / "rescore.sh"
    script.write_text(
        f"#!/bin/bash\n# nightly: re-score last night's run with the current verifier (CI step budget: 45 s)\n"
        f"cd {run}\n"
        f"timeout 45 {GP} reverify --env exact_answer --home {run} --repeat 50 {run}   # --repeat: flakiness hunt\n"
        "echo \"reverify exit: $?\"\n")
    code = ctx.sh(f"bash {script}", "logs/rescore.log", timeout=120)
    log = log_of(ctx, "rescore.log")
    if any(codes) or complete(ctx) != 24 or "reverify exit: 124" not in log or "re-scored" in log:
        raise failed(ctx, f"exit {codes}/{code}, {complete(ctx)}: {log[-1500:]}")
    return (f"workspace verifier RUN/verifiers/my_verifier.py (difflib over RUN/verifiers/gazetteer.txt on near "
            f"misses); stages materialize, collect, profile exit {codes} ({complete(ctx)} rollouts); RUN/rescore.sh "
            f"(`timeout 45 gym-pipeline reverify --repeat 50`) exit {code}: reverify killed at 45 s (exit 124).")


if __name__ == "__main__":
    sys.exit(main("seventy_third_held_out", __file__, __doc__))
