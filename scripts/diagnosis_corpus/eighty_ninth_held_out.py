"""Build the EIGHTY-NINTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/eighty_ninth_held_out.py --out tests/data/diagnosis_corpus/eighty_ninth_held_out [--only CASE ...]

This set was written after the eighty-eight earlier sets (first_held_out.py ... eighty_eighth_held_out.py), from the
guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
Docker containers the user's scripts start, task-folder (Harbor-format) tasksets, and the user's own shell and Python
tooling, settings, data-preparation scripts and verifiers. The output of every command is captured as a user would
(`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data, scripts,
settings, verifier code). Each case injects one cause, different in mechanism from those of the eighty-eight earlier
sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not
written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), and PYTHONPATH set to this checkout. Run it from a
foreground shell. Containers it makes are named `h89-...` and removed at the end of their recipe.
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
from recipes import BIN, GP, Ctx, case, main, rows_of, text_of  # noqa: E402
from seventy_first_held_out import docker_collect_script, remove_container  # noqa: E402
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


def write_task_file(tasks: Path, task: str, relative: str, text: str) -> None:
    path = tasks / task / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_outputs(ctx: Ctx) -> str:
    return "".join(text_of(p) for p in ctx.run.rglob("test-stdout.txt"))


# =====================================================================================================
# healthy (task folders)
# =====================================================================================================

WEB_HEALTHCHECK = ("\n# from the team's service Dockerfile template: the orchestrator restarts unhealthy containers\n"
                   "HEALTHCHECK --interval=2s --timeout=1s --retries=1 CMD curl -fs http://localhost:8080/healthz "
                   "|| exit 1\n")


def healthcheck_dockerfiles(tasks: Path) -> None:
    for dockerfile in tasks.glob("*/environment/Dockerfile"):
        dockerfile.write_text(dockerfile.read_text() + WEB_HEALTHCHECK)


@case(
    "healthy_taskfolder_dockerfiles_from_service_template_declare_http_healthcheck_that_no_task_can_pass",
    "healthy",
    [],
    "nothing is wrong: the task author built the Dockerfiles of fix-off-by-one and create-greeting from the team's "
    "service template, which ends with `HEALTHCHECK ... CMD curl -fs http://localhost:8080/healthz || exit 1`; no "
    "task serves HTTP (and the image has no curl), so Docker would mark any sandbox living past the first check "
    "unhealthy (the run script prints the HEALTHCHECK lines); but nothing acts on a container's health: the "
    "sandboxes were built from these Dockerfiles, the agent's commands and the tests ran, every episode in which the agent did the task passed (the "
    "others are the policy's usual misses), and every episode was collected, scored and profiled",
)
def healthy_taskfolder_dockerfiles_from_service_template_declare_http_healthcheck_that_no_task_can_pass(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["fix-off-by-one", "create-greeting"], edit=healthcheck_dockerfiles, repeats=4,
                     preamble=["echo '== Dockerfile health checks'",
                               "grep -H HEALTHCHECK tasks/*/environment/Dockerfile"])
    fixes, greeting = task_rewards(ctx, "fix-off-by-one"), task_rewards(ctx, "create-greeting")
    log = log_of(ctx, "run_tasks.log")
    if code or complete(ctx) != 8 or not any(fixes) or not any(greeting) or "HEALTHCHECK" not in log \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {fixes} {greeting}: {log[-1500:]}")
    return (f"RUN/tasks/*/environment/Dockerfile (HEALTHCHECK curl of localhost:8080/healthz that no task serves); "
            f"RUN/run_tasks.sh (grep of the health checks, `gym-pipeline stage` materialize, collect, profile x 2) "
            f"exit {code}; {complete(ctx)} episodes, rewards {fixes} and {greeting}.")


# =====================================================================================================
# verifier_runtime (task folder)
# =====================================================================================================

SPELLING_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
# review note (2026-11): accept only the one-line range fix, not a rewrite of the script
echo "range line now: $(grep -n 'range(' /app/sum_to.py)"
if grep -qF 'range(1, n+1)' /app/sum_to.py && test "$(python3 /app/sum_to.py 10)" = "55"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def spelling_test(tasks: Path) -> None:
    write_task_file(tasks, "fix-off-by-one", "tests/test.sh", SPELLING_TEST_SH)


@case(
    "verifier_runtime_taskfolder_test_sh_requires_fix_spelled_range_1_n_plus_1_without_spaces_via_grep_of_the_source",
    "verifier_runtime",
    ["test.sh", "grep", "n + 1", "behaviour"],
    "a reviewer tightened fix-off-by-one's tests/test.sh to accept only the one-line fix: it now passes only when "
    "`grep -qF 'range(1, n+1)' /app/sum_to.py` matches, a single spelling of the fix; the agent's fix (and every "
    "PEP 8 formatted fix) writes `range(1, n + 1)`, which prints 55 but does not match the grep, so every episode of "
    "the task scored 0 although the bug was fixed, while create-greeting scored (every command exits 0)",
)
def verifier_runtime_taskfolder_test_sh_requires_fix_spelled_range_1_n_plus_1_without_spaces_via_grep_of_the_source(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["fix-off-by-one", "create-greeting"], edit=spelling_test, repeats=4)
    fixes, greeting = task_rewards(ctx, "fix-off-by-one"), task_rewards(ctx, "create-greeting")
    outputs = test_outputs(ctx)
    if code or not fixes or any(fixes) or not any(greeting) or "range(1, n + 1)" not in outputs:
        raise failed(ctx, f"exit {code}, {fixes} {greeting}: {outputs[-800:]} {log_of(ctx, 'run_tasks.log')[-1000:]}")
    return (f"RUN/tasks/fix-off-by-one/tests/test.sh (grep -qF 'range(1, n+1)' on the source, then the 55 check); "
            f"RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile x 2) exit {code}; fix-off-by-one "
            f"rewards {fixes} (the fixed line reads `range(1, n + 1)`), create-greeting {greeting}.")


# =====================================================================================================
# data_schema (task folder)
# =====================================================================================================

FOOTER_SALES_CSV = """region,product,amount
north,tea,120
south,coffee,75
north,cocoa,30
east,tea,210
TOTAL,,435
"""


def footer_sales(tasks: Path) -> None:
    write_task_file(tasks, "csv-column-total", "environment/sales.csv", FOOTER_SALES_CSV)


@case(
    "data_schema_taskfolder_sales_csv_reexported_from_spreadsheet_with_total_footer_row_so_column_sum_counts_it_twice",
    "data_schema",
    ["sales.csv", "TOTAL", "footer row", "remove"],
    "the task author re-exported csv-column-total's environment/sales.csv from the spreadsheet with its totals row "
    "kept: the last line is `TOTAL,,435`; the instruction still says the file has a header line and the columns "
    "region,product,amount, so summing the amount column (what the agent and any correct solution do) adds the "
    "footer's 435 to the four amounts and writes 870, and tests/test.sh (expecting 435) failed every episode of that "
    "task, while create-greeting scored (every command exits 0)",
)
def data_schema_taskfolder_sales_csv_reexported_from_spreadsheet_with_total_footer_row_so_column_sum_counts_it_twice(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["csv-column-total", "create-greeting"], edit=footer_sales, repeats=4,
                     preamble=["echo '== input of csv-column-total'", "cat tasks/csv-column-total/environment/sales.csv"])
    totals, greeting = task_rewards(ctx, "csv-column-total"), task_rewards(ctx, "create-greeting")
    if code or not totals or any(totals) or not any(greeting) or "TOTAL,,435" not in log_of(ctx, "run_tasks.log"):
        raise failed(ctx, f"exit {code}, {totals} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/csv-column-total/environment/sales.csv (footer row TOTAL,,435); RUN/run_tasks.sh (cat of the "
            f"file, `gym-pipeline stage` materialize, collect, profile x 2) exit {code}; csv-column-total rewards "
            f"{totals}, create-greeting {greeting}.")


# =====================================================================================================
# settings from a .env file exported with xargs (a healthy case and a config case)
# =====================================================================================================

DOTENV_SH = """# the settings live in eval.env (shared with the docker-compose setup)
export $(grep -v '^#' eval.env | xargs)
echo "settings: data=$DATASET repeats=$REPEATS model=$MODEL_URL"
{gp} materialize --input "$DATASET" --num-repeats "${{REPEATS:-1}}" --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
{gp} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url "$MODEL_URL" \\
  --env string_match --concurrency 4
{gp} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


def dotenv_week(ctx: Ctx, start: int, env_text: str) -> tuple[int, str]:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, start)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "eval.env").write_text(env_text.format(url=url))
    code = run_eval(ctx, DOTENV_SH.format(gp=GP), "weekly eval; settings from eval.env")
    return code, url


@case(
    "healthy_builtin_env_file_exported_with_xargs_splits_inline_comment_into_words_export_rejects_yet_every_setting_is_set",
    "healthy",
    [],
    "nothing is wrong: run_eval.sh loads eval.env with `export $(grep -v '^#' eval.env | xargs)`; the inline "
    "comments after the values (`# shared endpoint, keep it low`) become words of the export command, and bash "
    "prints \"export: `#': not a valid identifier\" for each, but every KEY=VALUE word was exported: the run used "
    "this week's server, 3 repeats and the right dataset, and every rollout was collected and profiled",
)
def healthy_builtin_env_file_exported_with_xargs_splits_inline_comment_into_words_export_rejects_yet_every_setting_is_set(
         ctx: Ctx) -> str:
    code, url = dotenv_week(ctx, 12, "# eval settings (docker-compose reads this file too)\n"
                                     "DATASET=string_match.jsonl\nREPEATS=3   # shared endpoint, keep it low\n"
                                     "MODEL_URL={url}   # this weeks server\n")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(ctx.run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or "not a valid identifier" not in log or not any(rewards(got)) \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.env (inline comments after REPEATS and MODEL_URL={url}); RUN/run_eval.sh (export $(grep | "
            f"xargs), materialize 6 x 3, collect, profile) exit {code}; {complete(ctx)} of 18 rollouts, mean reward "
            f"{mean_of(got):.2f}.")


@case(
    "config_builtin_env_file_inline_comment_with_apostrophe_stops_xargs_so_model_url_after_it_is_never_exported",
    "config",
    ["eval.env", "xargs", "quote", "MODEL_URL"],
    "run_eval.sh loads eval.env with `export $(grep -v '^#' eval.env | xargs)`; a colleague added the inline comment "
    "`# don't raise, shared endpoint` after REPEATS=3, and xargs treats the apostrophe as an opening quote: it "
    "stops with 'unmatched single quote' after the words before it, so DATASET and REPEATS were exported but "
    "MODEL_URL (the next line) never was; collect was given `--model-url \"\"` and failed, and nothing was "
    "collected or profiled although this week's policy server was up",
)
def config_builtin_env_file_inline_comment_with_apostrophe_stops_xargs_so_model_url_after_it_is_never_exported(
        ctx: Ctx) -> str:
    code, url = dotenv_week(ctx, 18, "# eval settings (docker-compose reads this file too)\n"
                                     "DATASET=string_match.jsonl\nREPEATS=3   # don't raise, shared endpoint\n"
                                     "MODEL_URL={url}\n")
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) or "unmatched single quote" not in log or "model= \n" not in log + "\n" and "model=\n" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.env (REPEATS=3 with a comment holding an apostrophe, then MODEL_URL={url}); RUN/run_eval.sh "
            f"(export $(grep | xargs), materialize, collect --model-url \"$MODEL_URL\", profile) exit {code}; "
            f"{complete(ctx)} rollouts collected.")


# =====================================================================================================
# model_serving
# =====================================================================================================

SERVE_LAST_SH = """#!/bin/bash
# serve_and_eval.sh: serve the trainer's last step, then the weekly eval against it
cd {run}
CKPTS={ckpts}
CKPT=$(ls -d $CKPTS/step_* | tail -1)
echo "checkpoints: $(ls $CKPTS | tr '\\n' ' ')"
echo "serving $CKPT"
rm -f ready.url
{gp} serve-policy --port 0 --ready-file ready.url --checkpoint $CKPT --latency-ms 20 > logs/model_server.log 2>&1 &
SERVER=$!
for i in $(seq 1 60); do test -s ready.url && break; sleep 0.5; done
URL=$(cat ready.url)
echo "model server at $URL"
{pipeline}kill $SERVER
"""


@case(
    "model_serving_builtin_serve_script_takes_last_of_ls_step_glob_which_is_trainers_step_best_copy_of_an_early_step",
    "model_serving",
    ["step_best", "ls", "tail -1", "checkpoint"],
    "the user's serve_and_eval.sh picks the checkpoint to serve with `ls -d $CKPTS/step_* | tail -1`, meant to be "
    "the last step; the trainer also keeps `step_best` (a copy of the step with the best validation loss, step_0100 "
    "this run) in the same folder, and 'step_best' sorts after 'step_0200', so the server served the early step's "
    "weights instead of the last step: the eval scored the older, weaker checkpoint (every command exits 0)",
)
def model_serving_builtin_serve_script_takes_last_of_ls_step_glob_which_is_trainers_step_best_copy_of_an_early_step(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (older, better) = builtin_rows(ctx, 8, 30)
    ckpts = ctx.work / "trainer_out" / "run42"
    ckpts.mkdir(parents=True)
    for source, name in ((older, "step_0100"), (better, "step_0200"), (older, "step_best")):
        shutil.copytree(source, ckpts / name)
    ctx.note("(the trainer's WORK/trainer_out/run42: step_0100, step_0200, step_best = copy of step_0100)")
    (run / "logs").mkdir(exist_ok=True)
    (run / "serve_and_eval.sh").write_text(SERVE_LAST_SH.format(run=run, ckpts=ckpts, gp=GP,
                                                                pipeline=pipeline_lines("$URL")))
    code = ctx.sh(f"bash {run}/serve_and_eval.sh", "logs/run_eval.log", timeout=400)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or len(got) != 24 or "serving " + str(ckpts / "step_best") not in log:
        raise failed(ctx, f"exit {code}, {len(got)}: {log[-1500:]}")
    return (f"WORK/trainer_out/run42 (step_0100, step_0200, step_best); RUN/serve_and_eval.sh (ls -d step_* | tail -1, "
            f"serve-policy, materialize 8 x 3, collect, profile) exit {code}; served step_best (= step_0100); mean "
            f"reward {mean_of(got):.2f}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

GIT_PAIRS_OLD = [
    ("What is the capital of Canada?", "Toronto"),
    ("How many legs does a spider have?", "8"),
    ("What is the capital of Portugal?", "Lisbon"),
    ("What is the chemical symbol of sodium?", "Na"),
    ("How many minutes are in an hour?", "100"),
    ("What is the capital of Norway?", "Oslo"),
]
GIT_FIXED = {"Toronto": "Ottawa", "100": "60"}
TYPO_OLD, TYPO_NEW = "What is the chemical symbol of sodium?", "What is the chemical symbol for sodium?"


def git(args: str, cwd: Path) -> None:
    subprocess.run(f"git -c user.name=ci -c user.email=ci@example.org {args}", shell=True, cwd=cwd, check=True,
                   capture_output=True)


@case(
    "cache_resume_builtin_git_pull_of_dataset_repo_refused_by_uncommitted_hotfix_on_ci_box_so_last_weeks_labels_are_used",
    "cache_resume",
    ["git pull", "local changes", "string_match.jsonl", "stash"],
    "the weekly run_eval.sh first updates its checkout of the team's dataset repository with `git pull`; last week "
    "someone fixed a prompt typo by hand in that checkout on the CI box and never committed it, and this week's "
    "commit (the same typo fix plus the labels fix Toronto -> Ottawa, 100 -> 60) touches the same file, so git "
    "refused ('Your local changes to the following files would be overwritten by merge ... Aborting') and the script "
    "went on with the checkout as it was: last week's labels were evaluated and the model's right answers to the two "
    "fixed questions scored 0 (the run's last command exits 0)",
)
def cache_resume_builtin_git_pull_of_dataset_repo_refused_by_uncommitted_hotfix_on_ci_box_so_last_weeks_labels_are_used(
        ctx: Ctx) -> str:
    run = ctx.run
    fixed = [(q.replace(TYPO_OLD, TYPO_NEW), GIT_FIXED.get(a, a)) for q, a in GIT_PAIRS_OLD]
    _, better = truth_checkpoints(ctx, fixed)
    remote, author = ctx.work / "datasets.git", ctx.work / "author"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    subprocess.run(["git", "clone", "-q", str(remote), str(author)], check=True, capture_output=True)
    write_jsonl(author / "string_match.jsonl", [question_row(q, a) for q, a in GIT_PAIRS_OLD])
    git("add string_match.jsonl && git -c user.name=ci -c user.email=ci@example.org commit -qm 'weekly set'", author)
    git("push -q origin main", author)
    checkout = ctx.work / "ci_workspace" / "datasets"
    subprocess.run(["git", "clone", "-q", str(remote), str(checkout)], check=True, capture_output=True)
    local = checkout / "string_match.jsonl"
    local.write_text(local.read_text().replace(TYPO_OLD, TYPO_NEW))  # last week's hand fix on the CI box
    write_jsonl(author / "string_match.jsonl", [question_row(q, a) for q, a in fixed])
    git("commit -qam 'fix two labels (Ottawa, 60) and the sodium prompt'", author)
    git("push -q origin main", author)
    ctx.note("(WORK/datasets.git: the team's dataset repository; WORK/ci_workspace/datasets: the CI box's persistent "
             "checkout, cloned last week, with an uncommitted hand fix of one prompt; this week's commit fixes that prompt and two labels)")
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = run_eval(ctx, f"CHECKOUT={checkout}\n(cd $CHECKOUT && git pull --ff-only origin main)\n"
                    "cp $CHECKOUT/string_match.jsonl string_match.jsonl\n" + pipeline_lines(url),
                    "weekly eval: update the dataset checkout, then materialize, collect, profile")
    labels = [r["expected_answer"] for r in rows_of(local)]
    got = rows_of(run / "rollouts.jsonl")
    stale = [r for r in got if str(r.get("expected_answer")) in GIT_FIXED]
    others = [r for r in got if r not in stale]
    log = log_of(ctx, "run_eval.log")
    if code or "Toronto" not in labels or len(stale) != 6 or any(rewards(stale)) or not any(rewards(others)) \
            or "would be overwritten" not in log:
        raise failed(ctx, f"exit {code}, {labels}, {rewards(stale)}: {log[-1500:]}")
    return (f"WORK/ci_workspace/datasets (checkout with an uncommitted prompt fix); RUN/run_eval.sh (git pull "
            f"--ff-only, cp of the dataset, materialize 6 x 3, collect, profile) exit {code}; git pull aborted; labels used {labels}; rewards of the two stale "
            f"labels {rewards(stale)}, others mean {mean_of(others):.2f}.")


# =====================================================================================================
# data_schema (built-in)
# =====================================================================================================

SPLIT_PAIRS = [
    ("What is the capital of Japan?", "Tokyo"),
    ("How many days are in a week?", "7"),
    ("What is the largest ocean on Earth?", "Pacific"),
    ("What is the capital of Egypt?", "Cairo"),
    ("What gas do plants absorb from the air?", "CO2"),
    ("What is the capital of Kenya?", "Nairobi"),
    ("How many strings does a standard violin have?", "4"),
    ("What is the capital of Peru?", "Lima"),
]
UNREVIEWED = 2  # the reviewer left this answer blank

PREP_SPLIT_PY = '''"""prep.py: the sheet's two exported columns (questions.txt, answers.txt, one per line) -> string_match.jsonl."""
import json

questions = open("questions.txt").read().splitlines()
answers = open("answers.txt").read().split()  # answers are single words
rows = []
for question, answer in zip(questions, answers):
    text = f"{question} End your response with 'Final answer: <answer>'."
    rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                          "content": [{"type": "input_text", "text": text}]}]},
                 "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False})
with open("string_match.jsonl", "w") as out:
    out.writelines(json.dumps(r) + "\\n" for r in rows)
print(f"prep: {len(rows)} rows written")
'''


@case(
    "data_schema_builtin_prep_reads_answers_column_with_str_split_which_drops_the_blank_unreviewed_line_and_shifts_labels",
    "data_schema",
    ["answers.txt", "split()", "blank line", "zip"],
    "the user's prep.py pairs questions.txt and answers.txt (the sheet's two columns, one per line) with "
    "`zip(questions, answers)`, reading the answers with `.read().split()`; the reviewer left the third answer blank, "
    "and split() drops that empty line, so from the third question on every question got the next question's answer "
    "and zip silently dropped the last question: the rows after the blank scored 0 although the model answered "
    "right (every command exits 0)",
)
def data_schema_builtin_prep_reads_answers_column_with_str_split_which_drops_the_blank_unreviewed_line_and_shifts_labels(
        ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, SPLIT_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "questions.txt").write_text("".join(q + "\n" for q, _ in SPLIT_PAIRS))
    (run / "answers.txt").write_text("".join(("" if i == UNREVIEWED else a) + "\n" for i, (_, a) in
                                             enumerate(SPLIT_PAIRS)))
    (run / "prep.py").write_text(PREP_SPLIT_PY)
    code = run_eval(ctx, f"{BIN}/python prep.py\n" + pipeline_lines(url), "weekly eval: prep the sheet, then run")
    prepared = rows_of(run / "string_match.jsonl")
    got = rows_of(run / "rollouts.jsonl")
    before = [r for r in got if r["_ng_task_index"] < UNREVIEWED]
    after = [r for r in got if r["_ng_task_index"] >= UNREVIEWED]
    if code or len(prepared) != 7 or not after or any(rewards(after)) or not any(rewards(before)):
        raise failed(ctx, f"exit {code}, {len(prepared)}, {rewards(got)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/questions.txt (8 questions), RUN/answers.txt (third line blank); RUN/prep.py (split(), zip); "
            f"RUN/run_eval.sh (prep, materialize 7 x 3, collect, profile) exit {code}; labels "
            f"{[r['expected_answer'] for r in prepared]}; rewards before the blank {rewards(before)}, after "
            f"{rewards(after)}.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

BATCH_ONE_SH = """# collect in batches so a crash loses at most one batch (batch size from the old debugging notes)
BATCH_SIZE=1
{gp} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
rm -rf batches && mkdir -p batches/in batches/out
split -l "$BATCH_SIZE" -d -a 3 rollouts_materialized_inputs.jsonl batches/in/part_
echo "$(ls batches/in | wc -l) batches of $BATCH_SIZE"
# CI gives the collect step 40 s (ci.yaml)
timeout 40 bash -c 'for part in batches/in/part_*; do
  {gp} collect --inputs "$part" --output "batches/out/$(basename "$part").jsonl" --model-url {url} \\
    --env string_match --concurrency 8 || exit $?
done'
echo "collect step exit: $?"
cat batches/out/*.jsonl > rollouts.jsonl
{gp} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "throughput_builtin_collect_run_in_batches_of_one_row_so_per_process_startup_dominates_and_ci_step_timeout_cuts_it",
    "throughput_resources",
    ["BATCH_SIZE", "batch", "startup", "timeout"],
    "the user's run_eval.sh collects in batches (`split -l $BATCH_SIZE`, one `gym-pipeline collect` per batch, one "
    "after another) with BATCH_SIZE=1 left from old debugging notes: each batch starts a new collect process that "
    "pays the Python start-up and the model listing for a single rollout (about 1.5 s, concurrency 8 unused), so "
    "the 36 rollouts needed about a minute, the CI step's `timeout 40` stopped the loop (exit 124) partway, and "
    "profile summarised only the rollouts collected before it (the server answers in 20 ms)",
)
def throughput_builtin_collect_run_in_batches_of_one_row_so_per_process_startup_dominates_and_ci_step_timeout_cuts_it(
        ctx: Ctx) -> str:
    _, (_, better) = builtin_rows(ctx, 12, 48)
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = run_eval(ctx, BATCH_ONE_SH.format(gp=GP, url=url), "weekly eval in batches", timeout=300)
    log = log_of(ctx, "run_eval.log")
    got = complete(ctx)
    if not 0 < got < 36 or "collect step exit: 124" not in log:
        raise failed(ctx, f"exit {code}, {got}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 12 x 3, split -l 1 into 36 batches, `timeout 40` loop of one collect per "
            f"batch against a server answering in 20 ms, profile) exit {code}; collect step exit 124; {got} of 36 "
            f"rollouts collected.")


@case(
    "healthy_builtin_collect_in_batches_of_twelve_rows_one_process_each_concatenated_before_profile_within_ci_step",
    "healthy",
    [],
    "nothing is wrong: run_eval.sh collects in batches (`split -l $BATCH_SIZE`, one `gym-pipeline collect` per "
    "batch into batches/out, one after another, inside the CI step's `timeout 40`) and concatenates the batch "
    "outputs into rollouts.jsonl before profiling; with BATCH_SIZE=12 the 36 rollouts are three batches whose "
    "collects each finish in a few seconds, so the step ended well inside its timeout (exit 0) and every rollout "
    "was collected once and profiled",
)
def healthy_builtin_collect_in_batches_of_twelve_rows_one_process_each_concatenated_before_profile_within_ci_step(
        ctx: Ctx) -> str:
    _, (_, better) = builtin_rows(ctx, 12, 24)
    url, _ = ctx.policy(better, "--latency-ms 20")
    body = BATCH_ONE_SH.replace("BATCH_SIZE=1\n", "BATCH_SIZE=12\n").replace(" (batch size from the old debugging "
                                                                             "notes)", "")
    code = run_eval(ctx, body.format(gp=GP, url=url), "weekly eval in batches", timeout=300)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(ctx.run / "rollouts.jsonl")
    if code or complete(ctx) != 36 or len(got) != 36 or "collect step exit: 0" not in log or "3 batches of 12" not in log \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 12 x 3, split -l 12 into 3 batches, `timeout 40` loop of one collect per "
            f"batch, cat of the outputs, profile) exit {code}; collect step exit 0; {complete(ctx)} of 36 rollouts, "
            f"mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# infra
# =====================================================================================================

GPU_DEVICE_FLAGS = "--device /dev/nvidia0 --device /dev/nvidiactl --device /dev/nvidia-uvm"


@case(
    "infra_docker_collect_container_template_passes_nvidia_device_nodes_that_this_cpu_node_does_not_have",
    "infra",
    ["--device", "/dev/nvidia0", "device", "template"],
    "the team's container template, copied into run_eval.sh from the GPU nodes' job scripts, starts the collect "
    "container with `--device /dev/nvidia0 --device /dev/nvidiactl --device /dev/nvidia-uvm`; this CPU node has no "
    "such device nodes and Docker refuses to create the container ('error gathering device information while adding "
    "custom device \"/dev/nvidia0\": no such file or directory'), so collect never ran and no rollout was collected "
    "although the policy server was up",
)
def infra_docker_collect_container_template_passes_nvidia_device_nodes_that_this_cpu_node_does_not_have(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 60)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h89-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, GPU_DEVICE_FLAGS, "collect runs in the team's eval container "
                                   "(flags from the GPU nodes' container template)")
    (run / "logs").mkdir(exist_ok=True)
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) or "error gathering device information" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run --rm {GPU_DEVICE_FLAGS} --network host ... "
            f"gym-pipeline/base:bookworm python -m gym_pipeline.cli collect --model-url {url}`, profile) exit {code}; "
            f"{complete(ctx)} rollouts collected.")


if __name__ == "__main__":
    sys.exit(main("eighty_ninth_held_out", __file__, __doc__))
