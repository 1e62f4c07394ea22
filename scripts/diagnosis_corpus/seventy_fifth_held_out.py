"""Build the SEVENTY-FIFTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/seventy_fifth_held_out.py --out tests/data/diagnosis_corpus/seventy_fifth_held_out [--only CASE ...]

This set was written after the seventy-four earlier sets (first_held_out.py ... seventy_fourth_held_out.py), from the guides
alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
Docker containers the user's scripts start, and the user's own shell and Python tooling, settings, data-preparation
scripts and verifiers. The output of every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing
in a run folder is written by hand but the user's own inputs (data, scripts, settings, verifier code). Each case
injects one cause, different in mechanism from those of the seventy-four earlier sets, and each recipe checks that its
fault really happened (it raises RecipeError otherwise, and the case is not written). About half of the failures are
silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), and PYTHONPATH set to this checkout. Run it from a
foreground shell. Containers it makes are named `h75-...` and removed at the end of their recipe.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import failed, served, stage  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from ninth_held_out import verifier_sweep  # noqa: E402
from recipes import BIN, GP, Ctx, case, main, rows_of  # noqa: E402
from seventy_first_held_out import container_python, docker_collect_script, remove_container, write_rows  # noqa: E402
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


def prompt_has(rows: list[dict], text: str) -> list[dict]:
    return [r for r in rows if text in json.dumps(r.get("responses_create_params"))]


# =====================================================================================================
# healthy
# =====================================================================================================

ALL_TRUE = [
    ("True or false: water boils at 100 degrees Celsius at sea level.", "True"),
    ("True or false: the Pacific is the largest ocean on Earth.", "True"),
    ("True or false: a triangle has three sides.", "True"),
    ("True or false: Mars is called the Red Planet.", "True"),
    ("True or false: the chemical symbol of gold is Au.", "True"),
    ("True or false: Tokyo is the capital of Japan.", "True"),
    ("True or false: 7 is a prime number.", "True"),
    ("True or false: sound needs a medium to travel.", "True"),
]


@case(
    "healthy_builtin_true_or_false_quiz_whose_right_answers_are_all_true_so_every_label_is_the_same",
    "healthy",
    [],
    "nothing is wrong: this week's calibration quiz is eight true-or-false statements that are all true (a sanity "
    "set before the mixed quiz), so every row's expected_answer is 'True', which looks like a label column filled "
    "with one constant by a broken join; the labels are right, and the model's answers were scored against them "
    "normally: every rollout was collected and profiled",
)
def healthy_builtin_true_or_false_quiz_whose_right_answers_are_all_true_so_every_label_is_the_same(ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, ALL_TRUE)
    url, _ = ctx.policy(better, "--latency-ms 20")
    write_rows(run / "string_match.jsonl", [question_row(q, a) for q, a in ALL_TRUE])
    code = run_eval(ctx, pipeline_lines(url), "weekly calibration quiz (all statements true)")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 24 or not any(rewards(got)) or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {rewards(got)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/string_match.jsonl (8 statements, every label 'True'); RUN/run_eval.sh (materialize x 3, collect, "
            f"profile) exit {code}; {complete(ctx)} of 24 rollouts, mean reward {mean_of(got):.2f}.")


@case(
    "healthy_docker_collect_container_template_sets_ipc_none_which_collect_never_needs",
    "healthy",
    [],
    "nothing is wrong: the hardened container template the user's run_eval.sh copied runs the collect container "
    "with `--ipc none` (no /dev/shm, no shared memory), which breaks programs that use multiprocessing; collect does "
    "not, so the container exited 0 and every rollout was collected and profiled",
)
def healthy_docker_collect_container_template_sets_ipc_none_which_collect_never_needs(ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 44)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h75-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, "--ipc none",
                                   "collect runs in the eval container (hardened template flags)")
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if code or complete(ctx) != 18 or "collect container exit: 0" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run --ipc none --network host ... collect`, profile) exit "
            f"{code}; {complete(ctx)} of 18 rollouts.")


@case(
    "healthy_docker_collect_container_runs_under_pids_limit_of_256_from_shared_node_policy_with_room_to_spare",
    "healthy",
    [],
    "nothing is wrong: the shared node's policy makes every container of the user's run_eval.sh start with "
    "`--pids-limit 256`, a cap that breaks thread-hungry jobs; collect at concurrency 4 needs a handful of threads, "
    "so the container exited 0 and every rollout was collected and profiled",
)
def healthy_docker_collect_container_runs_under_pids_limit_of_256_from_shared_node_policy_with_room_to_spare(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 74)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h75-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, "--pids-limit 256",
                                   "collect runs in the eval container (the shared node's container policy)")
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if code or complete(ctx) != 18 or "collect container exit: 0" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run --pids-limit 256 --network host ... collect`, profile) "
            f"exit {code}; {complete(ctx)} of 18 rollouts.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

IDENTITY_VERIFIER = '''
"""Our answer verifier: exact match of the final answer against the label."""
import re

FINAL = re.compile(r"(?:final answer:|boxed\\{)\\s*([^}\\n]+)", re.IGNORECASE)


def score(row, response_text):
    match = FINAL.search(response_text)
    lines = [line for line in response_text.strip().splitlines() if line.strip()]
    answer = (match.group(1) if match else (lines[-1] if lines else "")).strip().rstrip(".")
    expected = str(row["expected_answer"]).strip()
    # style pass: comparisons written with `is` like the None checks
    return 1.0 if answer is expected else 0.0
'''


@case(
    "verifier_runtime_stage_workspace_verifier_compares_answer_and_label_with_is_so_no_right_answer_matches",
    "verifier_runtime",
    ["is", "==", "my_verifier.py", "identity"],
    "the user's workspace verifier compares the extracted answer with the label using `answer is expected` (an "
    "identity test, written in a style pass over the None checks) instead of `==`; two equal strings are different "
    "objects, so every right answer (42, Lima, Ulaanbaatar...) scored 0 and the run reads as a model that never "
    "answers right (every command exits 0)",
)
def verifier_runtime_stage_workspace_verifier_compares_answer_and_label_with_is_so_no_right_answer_matches(
        ctx: Ctx) -> str:
    run = ctx.run
    sweep, checkpoint, url = verifier_sweep(ctx, IDENTITY_VERIFIER, 6, n=8, repeats=4)
    codes = [stage(ctx, sweep, "materialize", checkpoint, "exact_answer"),
             stage(ctx, sweep, "collect", checkpoint, "exact_answer", *served(url)),
             stage(ctx, sweep, "profile", checkpoint, "exact_answer")]
    got = rows_of(run / "rollouts.jsonl")
    right = [r for r in got if any(f"answer: {lab}" in json.dumps(r.get("response"))
                                   for lab in ("42", "Au", "Ulaanbaatar", "Lima", "314", "Ohm"))]
    if any(codes) or len(got) != 32 or any(rewards(got)) or not right:
        raise failed(ctx, f"exit {codes}, {len(got)}, {rewards(got)}, right {len(right)}")
    return (f"workspace verifier RUN/verifiers/my_verifier.py (`answer is expected`); stages materialize, collect, "
            f"profile exit {codes}; {len(got)} rollouts, rewards {rewards(got)} ({len(right)} right answers among "
            f"them).")


# =====================================================================================================
# data_schema
# =====================================================================================================

TSV_PAIRS = [
    ("What is the capital of Peru?", "Lima"),
    ("Who painted The Starry Night?", "Vincent van Gogh"),
    ("Which element has the chemical symbol Fe?", "Iron"),
    ("Who wrote Romeo and Juliet?", "William Shakespeare"),
    ("What is 6 multiplied by 7?", "42"),
    ("Which galaxy contains our Solar System?", "Milky Way"),
    ("What is the capital of Canada?", "Ottawa"),
    ("Which planet is known as the Red Planet?", "Mars"),
]

TSV_PREP_PY = '''"""prep.py: questions.tsv (question<TAB>answer, the labelling tool's export) -> string_match.jsonl."""
import json

written = 0
with open("questions.tsv", encoding="utf-8") as sheet, open("string_match.jsonl", "w") as out:
    next(sheet)  # header
    for line in sheet:
        if not line.strip():
            continue
        question, answer = line.rsplit(maxsplit=1)   # the answer is the last column
        text = f"{question.strip()} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}) + "\\n")
        written += 1
print(f"prep: {written} rows written")
'''


@case(
    "data_schema_builtin_prep_splits_tab_separated_sheet_on_any_whitespace_so_multiword_answers_keep_only_last_word",
    "data_schema",
    ["prep.py", "rsplit", "tab", "\\t"],
    "the user's prep.py splits each line of the labelling tool's tab-separated export with `line.rsplit(maxsplit=1)`, "
    "which splits on any whitespace, not on the tab: a multi-word answer keeps only its last word as the label "
    "('Gogh', 'Shakespeare', 'Way') and its other words are glued onto the question, so those three tasks were asked "
    "a changed question and scored 0 against a one-word label, while the one-word answers scored (every command "
    "exits 0)",
)
def data_schema_builtin_prep_splits_tab_separated_sheet_on_any_whitespace_so_multiword_answers_keep_only_last_word(
        ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, TSV_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "questions.tsv").write_text("question\tanswer\n" + "".join(f"{q}\t{a}\n" for q, a in TSV_PAIRS))
    (run / "prep.py").write_text(TSV_PREP_PY)
    code = run_eval(ctx, f"{BIN}/python prep.py\n" + pipeline_lines(url), "weekly eval of the labelling export")
    got = rows_of(run / "rollouts.jsonl")
    labels = [r["expected_answer"] for r in rows_of(run / "string_match.jsonl")]
    cut = labelled(got, "Gogh", "Shakespeare", "Way")
    others = [r for r in got if r not in cut]
    if code or len(got) != 24 or len(cut) != 9 or any(rewards(cut)) or not any(rewards(others)):
        raise failed(ctx, f"exit {code}, {len(got)}, {labels}, {rewards(cut)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/questions.tsv (question<TAB>answer); RUN/prep.py (`line.rsplit(maxsplit=1)`); RUN/run_eval.sh (prep, "
            f"materialize 8 x 3, collect, profile) exit {code}; labels {labels}; rewards of the three cut labels "
            f"{rewards(cut)}, of the others mean {mean_of(others):.2f}.")


DUP_HEADER_PAIRS = [
    ("What is the capital of Australia?", "Canberra", ""),
    ("Which element has the chemical symbol Na?", "Sodium", ""),
    ("What is 9 multiplied by 7?", "63", ""),
    ("What is the longest river in South America?", "Amazon", ""),
    ("Which planet is known as the Red Planet?", "Mars", "Mars"),
    ("What is the capital of Japan?", "Tokyo", ""),
    ("How many sides does a hexagon have?", "6", "6"),
    ("What is the capital of Canada?", "Ottawa", ""),
]

DICT_PREP_PY = '''"""prep.py: review.csv (the labelling tool's review export) -> string_match.jsonl."""
import csv
import json

written = 0
with open("review.csv", newline="", encoding="utf-8") as sheet, open("string_match.jsonl", "w") as out:
    for row in csv.DictReader(sheet):
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": row["answer"].strip(), "extraction_mode": "final_answer",
            "case_sensitive": False}) + "\\n")
        written += 1
print(f"prep: {written} rows written")
'''


@case(
    "data_schema_builtin_review_export_has_two_columns_named_answer_and_dictreader_keeps_the_reviewers_blank_one",
    "data_schema",
    ["review.csv", "answer", "DictReader", "column"],
    "the labelling tool's new review export (review.csv) has two columns headed 'answer': the gold answer and, after "
    "the status column, the reviewer's proposed answer, blank when the reviewer accepted the gold one; the user's "
    "prep.py reads it with csv.DictReader, which keeps the last column of a repeated name, so six of eight tasks got "
    "an empty label and the model's right answers to them scored 0 (every command exits 0)",
)
def data_schema_builtin_review_export_has_two_columns_named_answer_and_dictreader_keeps_the_reviewers_blank_one(
        ctx: Ctx) -> str:
    import csv

    run = ctx.run
    _, better = truth_checkpoints(ctx, [(q, a) for q, a, _ in DUP_HEADER_PAIRS])
    url, _ = ctx.policy(better, "--latency-ms 20")
    with (run / "review.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["question", "answer", "status", "answer"])
        writer.writerows([(q, a, "accepted" if not r else "confirmed", r) for q, a, r in DUP_HEADER_PAIRS])
    (run / "prep.py").write_text(DICT_PREP_PY)
    code = run_eval(ctx, f"{BIN}/python prep.py\n" + pipeline_lines(url), "weekly eval of the reviewed labels")
    got = rows_of(run / "rollouts.jsonl")
    labels = [r["expected_answer"] for r in rows_of(run / "string_match.jsonl")]
    blank = [r for r in got if labels[r["_ng_task_index"]] == ""]
    kept = [r for r in got if r not in blank]
    if code or len(got) != 24 or labels.count("") != 6 or len(blank) != 18 or any(rewards(blank)) \
            or not any(rewards(kept)):
        raise failed(ctx, f"exit {code}, {len(got)}, {labels}, {rewards(blank)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/review.csv (header question,answer,status,answer); RUN/prep.py (csv.DictReader, row['answer']); "
            f"RUN/run_eval.sh (prep, materialize 8 x 3, collect, profile) exit {code}; labels {labels}; rewards of the "
            f"blank-labelled tasks {rewards(blank)}, of the two others {rewards(kept)}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

LAST_WEEK = [
    ("What is the capital of Australia?", "Sydney"),
    ("What is 9 multiplied by 7?", "56"),
    ("Which element has the chemical symbol Fe?", "Iron"),
    ("What is the capital of Canada?", "Ottawa"),
]
THIS_WEEK = [
    ("What is the capital of Australia?", "Canberra"),
    ("What is 9 multiplied by 7?", "63"),
    ("Which element has the chemical symbol Fe?", "Iron"),
    ("What is the capital of Canada?", "Ottawa"),
    ("Which planet is known as the Red Planet?", "Mars"),
    ("What is the capital of Japan?", "Tokyo"),
]

APPEND_PREP_PY = '''"""prep.py SHEET...: labelling sheets (question,answer) -> string_match.jsonl (one row per question).

Several sheets can be given; each one's rows are added to the dataset.
"""
import csv
import json
import sys

for name in sys.argv[1:]:
    written = 0
    with open(name, newline="", encoding="utf-8") as sheet, open("string_match.jsonl", "a") as out:
        for row in csv.DictReader(sheet):
            text = f"{row['question']} End your response with 'Final answer: <answer>'."
            out.write(json.dumps({
                "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                       "content": [{"type": "input_text", "text": text}]}]},
                "expected_answer": row["answer"], "extraction_mode": "final_answer",
                "case_sensitive": False}) + "\\n")
            written += 1
    print(f"prep: {written} rows of {name} added to string_match.jsonl")
'''


@case(
    "cache_resume_builtin_prep_adds_sheet_rows_to_dataset_opened_in_append_mode_so_last_weeks_rows_stay",
    "cache_resume",
    ["prep.py", "append", "string_match.jsonl", "\"w\""],
    "the user's prep.py, changed to accept several sheets, opens string_match.jsonl in append mode ('a') for each "
    "sheet, and nothing removes last week's file first: this week's dataset is last week's four rows (two of them "
    "with the labels since fixed, Sydney and 56) followed by this week's six, so the eval ran ten tasks, the stale "
    "copies of the two fixed questions scored the model's right answers 0 and the profile mixes both weeks (every "
    "command exits 0)",
)
def cache_resume_builtin_prep_adds_sheet_rows_to_dataset_opened_in_append_mode_so_last_weeks_rows_stay(
        ctx: Ctx) -> str:
    import csv

    run = ctx.run
    _, better = truth_checkpoints(ctx, THIS_WEEK)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "prep.py").write_text(APPEND_PREP_PY)

    def sheet(pairs):
        with (run / "labels.csv").open("w", newline="") as handle:
            csv.writer(handle).writerows([("question", "answer"), *pairs])

    body = f"{BIN}/python prep.py labels.csv\n" + pipeline_lines(url)
    ctx.note("(last week)")
    sheet(LAST_WEEK)
    code1 = run_eval(ctx, body, "weekly eval of the labelling sheet", log="logs/run_eval_last_week.log")
    ctx.note("(this week: the labelling team fixes two labels and adds two questions to RUN/labels.csv)")
    sheet(THIS_WEEK)
    code = run_eval(ctx, body, "weekly eval of the labelling sheet")
    got = rows_of(run / "rollouts.jsonl")
    stale = labelled(got, "Sydney", "56")
    fresh = [r for r in got if r not in stale]
    if code1 or code or len(rows_of(run / "string_match.jsonl")) != 10 or len(got) != 30 or len(stale) != 6 \
            or any(rewards(stale)) or not any(rewards(fresh)):
        raise failed(ctx, f"exit {code1}/{code}, {len(got)}, {rewards(stale)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/prep.py (opens string_match.jsonl with 'a'); last week's RUN/run_eval.sh exit {code1}; this week's "
            f"RUN/labels.csv (6 rows) and RUN/run_eval.sh (prep, materialize x 3, collect, profile) exit {code}: "
            f"{len(rows_of(run / 'string_match.jsonl'))} dataset rows, {len(got)} rollouts; rewards of the stale "
            f"Sydney/56 rows {rewards(stale)}, of the rest mean {mean_of(fresh):.2f}.")


# =====================================================================================================
# config
# =====================================================================================================

DEFAULTS_SH = """# eval_defaults.sh: the team's defaults for every eval script (source it first)
REPEATS=1          # smoke tests: one rollout per task
CONCURRENCY=4
"""


@case(
    "config_builtin_run_script_sets_repeats_as_command_prefix_so_its_own_num_repeats_argument_expands_the_old_value",
    "config",
    ["REPEATS", "run_eval.sh", "--num-repeats", "prefix"],
    "the user's run_eval.sh sources the team's eval_defaults.sh (REPEATS=1) and asks for this week's variance study "
    "with `REPEATS=8 gym-pipeline materialize --num-repeats $REPEATS ...` on one line; an assignment in front of a "
    "command only sets the command's environment, after the shell has already expanded $REPEATS on that line, so "
    "materialize got --num-repeats 1: every command exits 0 but the profile has one rollout per task and no spread "
    "to measure",
)
def config_builtin_run_script_sets_repeats_as_command_prefix_so_its_own_num_repeats_argument_expands_the_old_value(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 8, 56)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "eval_defaults.sh").write_text(DEFAULTS_SH)
    body = ("source ./eval_defaults.sh\n"
            "# variance study: 8 samples per task\n"
            f"REPEATS=8 {GP} materialize --input string_match.jsonl --num-repeats $REPEATS "
            "--agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl\n"
            f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {url} "
            "--env string_match --concurrency $CONCURRENCY\n"
            f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    code = run_eval(ctx, body, "weekly variance study: 8 samples per task")
    inputs = rows_of(run / "rollouts_materialized_inputs.jsonl")
    if code or len(inputs) != 8 or complete(ctx) != 8 or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(inputs)}, {complete(ctx)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/eval_defaults.sh (REPEATS=1); RUN/run_eval.sh (source it, `REPEATS=8 gym-pipeline materialize "
            f"--num-repeats $REPEATS`, collect, profile) exit {code}; {len(inputs)} inputs for 8 tasks, "
            f"{complete(ctx)} rollouts.")


# =====================================================================================================
# infra
# =====================================================================================================

POOL_PREP_PY = '''"""prep.py: questions.csv (question,answer) -> string_match.jsonl, rows built in a process pool."""
import csv
import json
from multiprocessing import Pool


def build(pair):
    question, answer = pair
    text = f"{question} End your response with 'Final answer: <answer>'."
    return json.dumps({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                              "content": [{"type": "input_text", "text": text}]}]},
                       "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False})


if __name__ == "__main__":
    with open("questions.csv", newline="", encoding="utf-8") as sheet:
        pairs = [(row["question"], row["answer"]) for row in csv.DictReader(sheet)]
    with Pool(2) as pool:
        lines = pool.map(build, pairs)
    with open("string_match.jsonl", "w") as out:
        out.write("".join(line + "\\n" for line in lines))
    print(f"prep: {len(lines)} rows written")
'''


@case(
    "infra_docker_prep_container_template_sets_ipc_none_so_prep_multiprocessing_pool_finds_no_dev_shm",
    "infra",
    ["--ipc", "/dev/shm", "prep container", "Pool"],
    "the user's run_eval.sh runs prep.py in a container started from the hardened template, which passes `--ipc "
    "none`: the container has no /dev/shm, so prep's multiprocessing.Pool cannot create its semaphore (SemLock: "
    "'FileNotFoundError: [Errno 2] No such file or directory') and prep died before writing string_match.jsonl; the "
    "script went on and materialize found no dataset, so nothing was collected or profiled",
)
def infra_docker_prep_container_template_sets_ipc_none_so_prep_multiprocessing_pool_finds_no_dev_shm(
        ctx: Ctx) -> str:
    import csv

    run = ctx.run
    _, better = truth_checkpoints(ctx, THIS_WEEK)
    url, _ = ctx.policy(better, "--latency-ms 20")
    with (run / "questions.csv").open("w", newline="") as handle:
        csv.writer(handle).writerows([("question", "answer"), *THIS_WEEK])
    (run / "prep.py").write_text(POOL_PREP_PY)
    name = f"h75-prep-{free_port()}"
    body = (f"docker run --rm --name {name} --ipc none {container_python(run)} gym-pipeline/base:bookworm \\\n"
            f"  {BIN}/python prep.py\n"
            "echo \"prep container exit: $?\"\n" + pipeline_lines(url))
    try:
        code = run_eval(ctx, body, "weekly eval; prep runs in a container (hardened template flags)")
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if (run / "string_match.jsonl").exists() or "SemLock" not in log or "prep container exit: 0" in log \
            or (run / "rollouts.jsonl").exists() and rows_of(run / "rollouts.jsonl"):
        raise failed(ctx, f"exit {code}: {log[-1500:]}")
    return (f"RUN/prep.py (multiprocessing.Pool); RUN/run_eval.sh (`docker run --ipc none ... python prep.py`, "
            f"materialize, collect, profile) exit {code}; prep died in SemLock; no dataset, no rollouts.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

PER_ROW_BODY = """# CI step budget: 20 s. One task at a time, so that a bad row only loses its own rollouts.
rm -rf per_task && mkdir per_task
n=0
while read -r row; do
  n=$((n + 1))
  mkdir -p per_task/$n && echo "$row" > per_task/$n/task.jsonl
  {gp} materialize --input per_task/$n/task.jsonl --num-repeats 3 --agent string_match_simple_agent \\
    --output per_task/$n/inputs.jsonl
  {gp} collect --inputs per_task/$n/inputs.jsonl --output per_task/$n/rollouts.jsonl --model-url {url} \\
    --env string_match --concurrency 4
  echo "task $n done"
done < string_match.jsonl
cat per_task/*/inputs.jsonl > rollouts_materialized_inputs.jsonl
cat per_task/*/rollouts.jsonl > rollouts.jsonl
{gp} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "throughput_builtin_run_script_materializes_and_collects_one_task_per_process_so_startup_cost_overruns_ci_budget",
    "throughput_resources",
    ["per task", "process", "collect", "timeout"],
    "the user's run_eval.sh was changed to run materialize and collect once per task (a shell loop over the dataset's "
    "rows, each task in its own pair of gym-pipeline processes) so that a bad row loses only its own rollouts; every "
    "process pays the CLI's start-up of about a second, so 16 tasks take well over the CI step's 20 s budget "
    "(`timeout 20`) and the step was killed (exit 124) part-way through the loop, before the merge and the profile: "
    "the night's rollouts were never merged or profiled",
)
def throughput_builtin_run_script_materializes_and_collects_one_task_per_process_so_startup_cost_overruns_ci_budget(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 16, 60)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text(f"#!/bin/bash\n# nightly eval\ncd {run}\n" + PER_ROW_BODY.format(gp=GP, url=url))
    code = ctx.sh(f"( timeout 20 bash {script}; echo \"run_eval exit: $?\" )", "logs/run_eval.log", timeout=120)
    log = log_of(ctx, "run_eval.log")
    done = log.count(" done\n")
    if code or "run_eval exit: 124" not in log or done >= 16 or done < 2 or (run / "rollouts.jsonl").exists():
        raise failed(ctx, f"exit {code}, {done} tasks: {log[-1500:]}")
    return (f"RUN/run_eval.sh (a loop: materialize and collect per task, then merge and profile) under `timeout 20`: "
            f"exit 124 after {done} of 16 tasks; no merged rollouts, no profile.")


if __name__ == "__main__":
    sys.exit(main("seventy_fifth_held_out", __file__, __doc__))
