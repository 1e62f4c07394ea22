"""Build the EIGHTY-SEVENTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/eighty_seventh_held_out.py --out tests/data/diagnosis_corpus/eighty_seventh_held_out [--only CASE ...]

This set was written after the eighty-six earlier sets (first_held_out.py ... eighty_sixth_held_out.py), from the
guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
Docker containers the user's scripts start, task-folder (Harbor-format) tasksets, and the user's own shell and Python
tooling, settings, data-preparation scripts and verifiers. The output of every command is captured as a user would
(`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data, scripts,
settings, verifier code). Each case injects one cause, different in mechanism from those of the eighty-six earlier
sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not
written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), and PYTHONPATH set to this checkout. Run it from a
foreground shell. Containers it makes are named `h87-...` and removed at the end of their recipe.
"""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import failed  # noqa: E402
from eighty_fifth_held_out import labelled, labels_file, write_task_file  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_seventh_held_out import task_rewards, week  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from recipes import BIN, GP, Ctx, case, main, rows_of  # noqa: E402
from seventy_first_held_out import docker_collect_script, remove_container  # noqa: E402
from seventy_ninth_held_out import run_eval  # noqa: E402
from sixty_fourth_held_out import mean_of, pipeline_lines  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_sixth_held_out import free_port  # noqa: E402
from twenty_third_held_out import write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# healthy
# =====================================================================================================

ZERO_PAIRS = [
    ("How many moons does Venus have?", "0"),
    ("Is the Sun a planet? Answer True or False.", "False"),
    ("What is 7 minus 7?", "0"),
    ("Is water made of hydrogen and oxygen? Answer True or False.", "True"),
    ("How many moons does Mercury have?", "0"),
    ("What is the capital of Peru?", "Lima"),
]


@case(
    "healthy_builtin_labels_include_zero_and_false_answers_that_look_like_missing_values",
    "healthy",
    [],
    "nothing is wrong: this week's string_match.jsonl holds questions whose right answers are '0' and 'False' "
    "(moons of Venus and Mercury, 7 minus 7, is the Sun a planet); the run's log prints the labels, and they look "
    "like missing or null values, but they are the true answers as strings: the model's right answers to them "
    "scored 1 as on the other rows (its misses are the checkpoint's usual ones), and every rollout was collected "
    "and profiled",
)
def healthy_builtin_labels_include_zero_and_false_answers_that_look_like_missing_values(ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, ZERO_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in ZERO_PAIRS])
    code = run_eval(ctx, "echo '== labels of this week'\ngrep -o '\"expected_answer\": \"[^\"]*\"' string_match.jsonl\n"
                    + pipeline_lines(url), "weekly eval (arithmetic and yes/no questions added this week)")
    got = rows_of(run / "rollouts.jsonl")
    zeros = labelled(got, "0", "False")
    if code or complete(ctx) != 18 or len(zeros) != 12 or mean_of(zeros) < 0.5 \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {rewards(zeros)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/string_match.jsonl (six rows, labels 0, False, 0, True, 0, Lima); RUN/run_eval.sh (grep of the "
            f"labels, materialize 6 x 3, collect, profile) exit {code}; {complete(ctx)} of 18 rollouts; mean reward "
            f"of the 0/False rows {mean_of(zeros):.2f}, overall {mean_of(got):.2f}.")


@case(
    "healthy_taskfolder_preamble_prunes_team_scratch_images_by_label_and_reclaims_nothing",
    "healthy",
    [],
    "nothing is wrong: the run script starts with the team's clean-up line `docker image prune -f --filter "
    "label=team=h87-eval-scratch`, which prints 'Total reclaimed space: 0B' because no image carries that label "
    "on this node; it removes nothing the run needs, and every episode of top-word and create-greeting ran in its "
    "sandbox, was verified and profiled (the failed episodes are the policy's usual misses)",
)
def healthy_taskfolder_preamble_prunes_team_scratch_images_by_label_and_reclaims_nothing(ctx: Ctx) -> str:
    code, got = week(ctx, ["top-word", "create-greeting"], repeats=3,
                     preamble=["echo '== clean up the team scratch images'",
                               "docker image prune -f --filter label=team=h87-eval-scratch"])
    words, greeting = task_rewards(ctx, "top-word"), task_rewards(ctx, "create-greeting")
    log = log_of(ctx, "run_tasks.log")
    if code or complete(ctx) != 6 or not any(words + greeting) or "reclaimed space" not in log \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {words} {greeting}: {log[-1500:]}")
    return (f"RUN/run_tasks.sh (`docker image prune -f --filter label=team=h87-eval-scratch`, `gym-pipeline stage` "
            f"materialize, collect, profile x 3) exit {code}; {complete(ctx)} episodes, rewards {words} and "
            f"{greeting}.")


@case(
    "healthy_builtin_run_script_stamps_results_with_git_describe_outside_any_repository",
    "healthy",
    [],
    "nothing is wrong: the run script stamps the run with `git describe --always --dirty || echo unversioned`, "
    "but the eval code folder was unpacked from the release tarball and is not a git checkout, so git prints "
    "'fatal: not a git repository' and the stamp is 'unversioned'; materialize, collect and profile ran as usual "
    "and every rollout was collected and profiled",
)
def healthy_builtin_run_script_stamps_results_with_git_describe_outside_any_repository(ctx: Ctx) -> str:
    _, (_, better) = builtin_rows(ctx, 6, 20)
    url, _ = ctx.policy(better, "--latency-ms 20")
    code_dir = ctx.work / "eval_code"  # unpacked from the release tarball, not a git checkout
    code_dir.mkdir()
    code = run_eval(ctx, f"echo \"eval version: $(git -C {code_dir} describe --always --dirty || echo unversioned)\"\n"
                    + pipeline_lines(url), "weekly eval, stamped with the eval code's version")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(ctx.run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or "not a git repository" not in log or not any(rewards(got)):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (`git -C WORK/eval_code describe` stamp, materialize 6 x 3, collect, profile) exit {code}; "
            f"{complete(ctx)} of 18 rollouts, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# task folders
# =====================================================================================================

ASCENDING_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# The expected word is now derived from the input itself (no more hard-coded answer when text.txt changes).
cd /app
expected="$(tr 'A-Z' 'a-z' < /app/text.txt | tr -s ' ' '\\n' | sort | uniq -c | sort -n | head -1 | awk '{print $2}')"
got="$(tr -d '[:space:]' < /app/top.txt 2>/dev/null)"
echo "expected '$expected', got '$got'"
if test "$got" = "$expected"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def ascending_test(tasks: Path) -> None:
    write_task_file(tasks, "top-word", "tests/test.sh", ASCENDING_TEST_SH)


@case(
    "verifier_runtime_taskfolder_test_sh_derives_expected_top_word_with_ascending_count_sort_so_head_takes_least_frequent",
    "verifier_runtime",
    ["test.sh", "sort -rn", "expected", "top-word"],
    "the task author changed top-word's tests/test.sh to derive the expected word from text.txt instead of "
    "hard-coding 'the', but wrote the count sort as `sort -n | head -1` (ascending) instead of `sort -rn`, so the "
    "'expected' word is one of the least frequent ones ('a'... not 'the'); every correct answer 'the' failed the "
    "test and top-word scored 0 on every episode, while create-greeting scored (every command exits 0)",
)
def verifier_runtime_taskfolder_test_sh_derives_expected_top_word_with_ascending_count_sort_so_head_takes_least_frequent(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["top-word", "create-greeting"], edit=ascending_test, repeats=4)
    words, greeting = task_rewards(ctx, "top-word"), task_rewards(ctx, "create-greeting")
    stdout = "".join(p.read_text(errors="replace") for p in ctx.run.rglob("test-stdout.txt"))
    if code or not words or any(words) or not any(greeting) or "got 'the'" not in stdout:
        raise failed(ctx, f"exit {code}, {words} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]} {stdout[-800:]}")
    return (f"RUN/tasks/top-word/tests/test.sh (expected word derived with `sort -n | head -1`); RUN/run_tasks.sh "
            f"(`gym-pipeline stage` materialize, collect, profile x 4) exit {code}; top-word rewards {words}, "
            f"create-greeting {greeting}.")


def workspace_template(tasks: Path) -> None:
    for name in ("create-greeting", "top-word"):
        path = tasks / name / "environment" / "Dockerfile"
        path.write_text(path.read_text().replace(
            "WORKDIR /app", "# team image template (2026-12): every service works in /workspace\nWORKDIR /workspace"))
    path = tasks / "top-word" / "environment" / "Dockerfile"
    path.write_text(path.read_text().replace("COPY text.txt /app/text.txt", "COPY text.txt /workspace/text.txt"))


@case(
    "data_schema_taskfolder_dockerfiles_moved_to_team_template_workdir_workspace_while_instructions_and_tests_use_app",
    "data_schema",
    ["Dockerfile", "WORKDIR", "/app", "/workspace"],
    "the task author moved the Dockerfiles of create-greeting and top-word to the team's new image template, "
    "`WORKDIR /workspace` (and top-word's text.txt copied to /workspace), while instruction.md and tests/test.sh "
    "still name /app; the base image has no /app, so the agent's commands writing /app/hello.txt and reading "
    "/app/text.txt failed with 'No such file or directory', and every episode scored 0 (every command exits 0)",
)
def data_schema_taskfolder_dockerfiles_moved_to_team_template_workdir_workspace_while_instructions_and_tests_use_app(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["create-greeting", "top-word"], edit=workspace_template, repeats=3)
    everything_text = "".join(p.read_text(errors="replace") for p in ctx.run.rglob("*")
                              if p.is_file() and p.suffix in (".jsonl", ".txt", ".log", ".json"))
    if code or not got or any(rewards(got)) or "No such file or directory" not in everything_text:
        raise failed(ctx, f"exit {code}, {rewards(got)}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/*/environment/Dockerfile (WORKDIR /workspace); RUN/run_tasks.sh (`gym-pipeline stage` "
            f"materialize, collect, profile x 3) exit {code}; {len(got)} episodes, rewards {rewards(got)}.")


BUGGY_TOP_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
if test "$(tr -d "[:space:]" < /app/top.txt 2>/dev/null)" = "cat"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


@case(
    "cache_resume_taskfolder_taskset_synced_from_share_with_cp_rn_keeps_last_weeks_wrong_test_sh_in_place",
    "cache_resume",
    ["cp -rn", "no-clobber", "test.sh", "sync"],
    "the run script refreshes the local taskset from the team share with `cp -rn share/. tasks/` (no-clobber, "
    "'do not overwrite local edits'); last week's copy of top-word's tests/test.sh expected 'cat', the share "
    "holds the fixed test expecting 'the', but -n left the old file in place: top-word's correct answers were "
    "graded by last week's wrong test and scored 0, while create-greeting scored (every command exits 0)",
)
def cache_resume_taskfolder_taskset_synced_from_share_with_cp_rn_keeps_last_weeks_wrong_test_sh_in_place(
        ctx: Ctx) -> str:
    from eighth_held_out import BUNDLED_TASKS

    share = ctx.work / "share" / "tasks"
    share.mkdir(parents=True)
    shutil.copy(BUNDLED_TASKS / "dataset.toml", share / "dataset.toml")
    for name in ("top-word", "create-greeting"):
        shutil.copytree(BUNDLED_TASKS / name, share / name)
    ctx.note("(the team share WORK/share/tasks: top-word and create-greeting, top-word's test.sh fixed to 'the')")

    def last_week(tasks: Path) -> None:
        write_task_file(tasks, "top-word", "tests/test.sh", BUGGY_TOP_TEST_SH)

    code, got = week(ctx, ["top-word", "create-greeting"], edit=last_week, repeats=3,
                     preamble=["echo '== refresh the taskset from the share (keep local edits)'",
                               f"cp -rnv {share}/. tasks/ || true",
                               "grep -H 'test \"' tasks/top-word/tests/test.sh"])
    words, greeting = task_rewards(ctx, "top-word"), task_rewards(ctx, "create-greeting")
    test = (ctx.run / "tasks" / "top-word" / "tests" / "test.sh").read_text()
    if code or not words or any(words) or not any(greeting) or '"cat"' not in test:
        raise failed(ctx, f"exit {code}, {words} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks (last week's copy, top-word's test.sh expecting 'cat'); RUN/run_tasks.sh (`cp -rn "
            f"WORK/share/tasks/. tasks/`, `gym-pipeline stage` materialize, collect, profile x 3) exit {code}; "
            f"top-word rewards {words}, create-greeting {greeting}.")


# =====================================================================================================
# config
# =====================================================================================================


@case(
    "config_builtin_run_script_defaults_repeats_with_dash_instead_of_colon_dash_so_empty_ci_variable_passes_empty_value",
    "config",
    ["${EVAL_REPEATS:-3}", "colon", "empty", "num-repeats"],
    "the user's run_eval.sh sets `REPEATS=${EVAL_REPEATS-3}` (default only when the variable is unset); ci.sh "
    "exports EVAL_REPEATS as an empty string when the pipeline's repeats field is left blank, so REPEATS became "
    "empty instead of 3, materialize was given `--num-repeats ''` and refused it, and nothing was collected or "
    "profiled although the policy server was up",
)
def config_builtin_run_script_defaults_repeats_with_dash_instead_of_colon_dash_so_empty_ci_variable_passes_empty_value(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 30)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "run_eval.sh").write_text(
        f"#!/bin/bash\n# run_eval.sh: the weekly eval (repeats from the CI pipeline, 3 by default)\ncd {run}\n"
        "REPEATS=${EVAL_REPEATS-3}\necho \"eval: repeats '$REPEATS'\"\n"
        + pipeline_lines(url).replace("--num-repeats 3", "--num-repeats \"$REPEATS\""))
    (run / "ci.sh").write_text("#!/bin/bash\n# ci.sh: the pipeline's variables (repeats left blank in the form)\n"
                               "export EVAL_REPEATS=\"\"\n"
                               f"bash {run}/run_eval.sh\n")
    (run / "logs").mkdir(exist_ok=True)
    code = ctx.sh(f"bash {run}/ci.sh", "logs/run_eval.log", timeout=300)
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) or "repeats ''" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/ci.sh (`export EVAL_REPEATS=\"\"`); RUN/run_eval.sh (`REPEATS=${{EVAL_REPEATS-3}}`, materialize "
            f"--num-repeats \"$REPEATS\", collect, profile) exit {code}; {complete(ctx)} rollouts collected.")


# =====================================================================================================
# data_schema
# =====================================================================================================

COMMA_PAIRS = [
    ("In which country, in South America, is Lima the capital?", "Peru"),
    ("What is the capital of Norway?", "Oslo"),
    ("Which gas, making up most of the air, has the symbol N?", "Nitrogen"),
    ("What is the chemical symbol of gold?", "Au"),
    ("How many days are there in a leap year?", "366"),
    ("Which ocean, the largest on Earth, lies west of Peru?", "Pacific"),
]

PREP_SPLIT_PY = '''"""prep.py: labels.csv (question,answer) -> string_match.jsonl (quick version, no csv module needed)."""
import json

rows = []
with open("labels.csv") as f:
    next(f)  # header
    for line in f:
        parts = line.rstrip("\\n").split(",")
        question, answer = parts[0], parts[1]
        text = f"{question} End your response with 'Final answer: <answer>'."
        rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                              "content": [{"type": "input_text", "text": text}]}]},
                     "expected_answer": answer.strip().strip('"'), "extraction_mode": "final_answer",
                     "case_sensitive": False})
with open("string_match.jsonl", "w") as out:
    out.writelines(json.dumps(r) + "\\n" for r in rows)
print(f"prep: {len(rows)} rows written")
'''


@case(
    "data_schema_builtin_prep_splits_csv_lines_on_commas_so_quoted_questions_with_commas_get_a_fragment_as_label",
    "data_schema",
    ["csv", "split", "quoted", "comma"],
    "the user's prep.py reads labels.csv with `line.split(\",\")` and takes parts[0] and parts[1]; this week three "
    "questions contain commas (the csv export quotes them), so for those rows the question was cut at its first "
    "comma and the 'answer' was the next fragment of the question (' in South America', ...): those rows scored 0 "
    "although the model answered right, while the others scored (every command exits 0)",
)
def data_schema_builtin_prep_splits_csv_lines_on_commas_so_quoted_questions_with_commas_get_a_fragment_as_label(
        ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, COMMA_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    labels_file(run / "labels.csv", COMMA_PAIRS)
    (run / "prep.py").write_text(PREP_SPLIT_PY)
    code = run_eval(ctx, f"{BIN}/python prep.py\n" + pipeline_lines(url), "weekly eval: prep labels.csv, then run")
    labels = [r["expected_answer"] for r in rows_of(run / "string_match.jsonl")]
    got = rows_of(run / "rollouts.jsonl")
    right = labelled(got, *[a for _, a in COMMA_PAIRS])
    broken = [r for r in got if r not in right]
    if code or len(got) != 18 or len(broken) != 9 or any(rewards(broken)) or not any(rewards(right)):
        raise failed(ctx, f"exit {code}, {len(got)}, {labels}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/labels.csv (three quoted questions with commas); RUN/prep.py (line.split(',')); RUN/run_eval.sh "
            f"(prep, materialize 6 x 3, collect, profile) exit {code}; labels {labels}; rewards of the comma rows "
            f"{rewards(broken)}, others mean {mean_of(right):.2f}.")


# =====================================================================================================
# model_serving
# =====================================================================================================

SERVE_LS_SH = """#!/bin/bash
# serve_and_eval.sh: serve the trainer's newest checkpoint, then the weekly eval against it
cd {run}
CKPT=$(ls -d {ckpts}/step_* | tail -1)
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
    "model_serving_builtin_serve_script_takes_last_step_folder_by_name_so_trainers_step_best_copy_of_early_step_is_served",
    "model_serving",
    ["step_best", "ls -d", "checkpoint", "tail -1"],
    "the user's serve_and_eval.sh serves `$(ls -d checkpoints/step_* | tail -1)`, meant as the newest step; the "
    "trainer now also keeps `step_best`, a copy of the checkpoint with the best validation loss (step 100), and "
    "'step_best' sorts after 'step_0200', so the server served the early step-100 weights instead of step 200: "
    "the eval scored the older, weaker model (every command exits 0)",
)
def model_serving_builtin_serve_script_takes_last_step_folder_by_name_so_trainers_step_best_copy_of_early_step_is_served(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (older, better) = builtin_rows(ctx, 8, 44)
    ckpts = better.parent
    shutil.copytree(older, ckpts / "step_best")
    ctx.note(f"(the trainer's WORK/checkpoints: {older.name}, {better.name}, step_best = copy of {older.name})")
    (run / "logs").mkdir(exist_ok=True)
    (run / "serve_and_eval.sh").write_text(SERVE_LS_SH.format(run=run, ckpts=ckpts, gp=GP,
                                                              pipeline=pipeline_lines("$URL")))
    code = ctx.sh(f"bash {run}/serve_and_eval.sh", "logs/run_eval.log", timeout=400)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or len(got) != 24 or "step_best" not in log:
        raise failed(ctx, f"exit {code}, {len(got)}: {log[-1500:]}")
    return (f"WORK/checkpoints (step_0100, step_0200, step_best = step_0100); RUN/serve_and_eval.sh (`ls -d step_* | "
            f"tail -1`, serve-policy, materialize 8 x 3, collect, profile) exit {code}; served step_best; mean "
            f"reward {mean_of(got):.2f}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

TTL_PAIRS_OLD = [
    ("What is the capital of Canada?", "Toronto"),
    ("How many strings does a standard violin have?", "4"),
    ("What is the capital of Portugal?", "Lisbon"),
    ("What is the chemical symbol of sodium?", "So"),
    ("How many minutes are in an hour?", "60"),
    ("What is the capital of Egypt?", "Cairo"),
]
TTL_FIXED = {"Toronto": "Ottawa", "So": "Na"}

PREP_TTL_PY = '''"""prep.py: labels from the label service's export (slow to fetch) -> string_match.jsonl.

The export is cached locally for six hours.
"""
import csv
import json
import os
import shutil
import sys
import time

SOURCE, CACHE = sys.argv[1], os.path.expanduser(os.environ.get("LABEL_CACHE", "~/.cache/labels.csv"))
MAX_AGE = 6 * 60 * 60 * 1000  # six hours

age = time.time() - os.path.getmtime(CACHE) if os.path.exists(CACHE) else None
if age is not None and age < MAX_AGE:
    print(f"labels: using the cached export ({age / 3600:.0f} h old)")
else:
    print("labels: fetching the export")
    os.makedirs(os.path.dirname(CACHE), exist_ok=True)
    shutil.copy(SOURCE, CACHE)
with open(CACHE, newline="") as f, open("string_match.jsonl", "w") as out:
    for row in csv.DictReader(f):
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({"responses_create_params": {"input": [{"role": "user", "type": "message",
                              "content": [{"type": "input_text", "text": text}]}]},
                              "expected_answer": row["answer"], "extraction_mode": "final_answer",
                              "case_sensitive": False}) + "\\n")
'''


@case(
    "cache_resume_builtin_prep_label_cache_max_age_written_in_milliseconds_so_week_old_export_counts_as_fresh",
    "cache_resume",
    ["MAX_AGE", "milliseconds", "seconds", "cache"],
    "the user's prep.py caches the label service's export for 'six hours' with `MAX_AGE = 6 * 60 * 60 * 1000` but "
    "compares it with an age in seconds from time.time(), so the cache lives about eight months: this week it "
    "printed 'using the cached export (168 h old)' and used last week's labels, without the two fixes made in the "
    "service (Toronto -> Ottawa, So -> Na), and the model's right answers to those rows scored 0 (every command "
    "exits 0)",
)
def cache_resume_builtin_prep_label_cache_max_age_written_in_milliseconds_so_week_old_export_counts_as_fresh(
        ctx: Ctx) -> str:
    run = ctx.run
    fixed = [(q, TTL_FIXED.get(a, a)) for q, a in TTL_PAIRS_OLD]
    _, better = truth_checkpoints(ctx, fixed)
    cache = ctx.work / "home_cache" / "labels.csv"
    last = ctx.work / "service_export_2026-11-29.csv"
    labels_file(last, TTL_PAIRS_OLD)
    (run / "prep.py").write_text(PREP_TTL_PY)
    env = {**ctx.env, "LABEL_CACHE": str(cache)}
    lastweek = ctx.work / "last_week"
    lastweek.mkdir()
    ctx.sh(f"{BIN}/python {run}/prep.py {last}", None, cwd=lastweek, env=env, timeout=60)
    ctx.sh(f"touch -d '7 days ago' {cache}", None)
    ctx.note("(last week's run of prep.py filled the cache WORK/home_cache/labels.csv, 7 days ago)")
    export = run / "service_export_2026-12-06.csv"
    labels_file(export, fixed)
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = run_eval(ctx, f"export LABEL_CACHE={cache}\n{BIN}/python prep.py {export}\n" + pipeline_lines(url),
                    "weekly eval: labels from this week's service export, then run")
    labels = [r["expected_answer"] for r in rows_of(run / "string_match.jsonl")]
    got = rows_of(run / "rollouts.jsonl")
    stale = labelled(got, *TTL_FIXED)
    others = [r for r in got if r not in stale]
    if code or "Toronto" not in labels or len(stale) != 6 or any(rewards(stale)) or not any(rewards(others)) \
            or "cached export" not in log_of(ctx, "run_eval.log"):
        raise failed(ctx, f"exit {code}, {labels}, {rewards(stale)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"WORK/home_cache/labels.csv (last week's export, 7 days old); RUN/service_export_2026-12-06.csv "
            f"(Ottawa, Na); RUN/prep.py (MAX_AGE = 6 * 60 * 60 * 1000 against seconds); RUN/run_eval.sh (prep, "
            f"materialize 6 x 3, collect, profile) exit {code}; labels used {labels}; rewards of the two stale "
            f"labels {rewards(stale)}, others mean {mean_of(others):.2f}.")


# =====================================================================================================
# infra (Docker)
# =====================================================================================================


@case(
    "infra_docker_collect_container_joins_network_namespace_of_egress_proxy_sidecar_absent_on_this_node",
    "infra",
    ["--network", "container", "sidecar", "h87-egress-proxy"],
    "the team's container template, copied into run_eval.sh from the cluster, starts the collect container with "
    "`--network container:h87-egress-proxy` (share the network of the egress proxy sidecar the cluster nodes "
    "run); no such container exists on this node, Docker refuses to start the collect container ('No such "
    "container: h87-egress-proxy'), so collect never ran and no rollout was collected although the policy server "
    "was up",
)
def infra_docker_collect_container_joins_network_namespace_of_egress_proxy_sidecar_absent_on_this_node(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 60)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h87-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, "", "collect runs in the team's eval container (network of the "
                                   "egress proxy sidecar, from the cluster's container template)")
    script.write_text(script.read_text().replace("--network host", "--network container:h87-egress-proxy", 1))
    (run / "logs").mkdir(exist_ok=True)
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) or "h87-egress-proxy" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run --rm --network container:h87-egress-proxy ... "
            f"gym-pipeline/base:bookworm python -m gym_pipeline.cli collect --model-url {url}`, profile) exit {code}; "
            f"{complete(ctx)} rollouts collected.")


if __name__ == "__main__":
    sys.exit(main("eighty_seventh_held_out", __file__, __doc__))
