"""Build the EIGHTY-FIFTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/eighty_fifth_held_out.py --out tests/data/diagnosis_corpus/eighty_fifth_held_out [--only CASE ...]

This set was written after the eighty-four earlier sets (first_held_out.py ... eighty_fourth_held_out.py), from the
guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
Docker containers the user's scripts start, task-folder (Harbor-format) tasksets, and the user's own shell and Python
tooling, settings, data-preparation scripts and verifiers. The output of every command is captured as a user would
(`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data, scripts,
settings, verifier code). Each case injects one cause, different in mechanism from those of the eighty-four earlier
sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not
written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), and PYTHONPATH set to this checkout. Run it from a
foreground shell. Containers it makes are named `h85-...` and removed at the end of their recipe.
"""
from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import everything, failed  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_seventh_held_out import task_rewards, week  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from recipes import BIN, GP, Ctx, case, main, rows_of, text_of  # noqa: E402
from seventy_first_held_out import docker_collect_script, remove_container  # noqa: E402
from seventy_ninth_held_out import run_eval  # noqa: E402
from sixty_fourth_held_out import mean_of, pipeline_lines  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
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


def labelled(rows: list[dict], *labels: str) -> list[dict]:
    return [r for r in rows if str(r.get("expected_answer")) in labels]


# =====================================================================================================
# healthy (task folders)
# =====================================================================================================

CENTS_SALES_CSV = """region,product,amount
north,tea,120.00
south,coffee,75.00
north,cocoa,30.00
east,tea,210.00
"""


def cents_sales(tasks: Path) -> None:
    write_task_file(tasks, "csv-column-total", "environment/sales.csv", CENTS_SALES_CSV)


@case(
    "healthy_taskfolder_sales_csv_reexported_from_billing_with_two_decimal_amounts_that_awk_still_sums_to_integer_total",
    "healthy",
    [],
    "nothing is wrong: csv-column-total's environment/sales.csv was re-exported from the billing system, which writes "
    "every amount with two decimals (120.00, 75.00, ...), and the run's log prints the file; the instruction asks for "
    "an integer total, and awk sums the decimals to 435 and prints it as 435: every episode in which the agent ran "
    "its awk sum passed its test (the others are the policy's usual misses, where it only listed the folder, as on "
    "create-greeting), and every episode was collected, scored and profiled",
)
def healthy_taskfolder_sales_csv_reexported_from_billing_with_two_decimal_amounts_that_awk_still_sums_to_integer_total(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["csv-column-total", "create-greeting"], edit=cents_sales, repeats=4,
                     preamble=["echo '== input of csv-column-total'", "cat tasks/csv-column-total/environment/sales.csv"])
    totals, greeting = task_rewards(ctx, "csv-column-total"), task_rewards(ctx, "create-greeting")
    if code or complete(ctx) != 8 or not totals or not any(totals) or not any(greeting) \
            or "120.00" not in log_of(ctx, "run_tasks.log") \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {totals} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/csv-column-total/environment/sales.csv (amounts with two decimals, total 435); RUN/run_tasks.sh "
            f"(cat of the file, `gym-pipeline stage` materialize, collect, profile x 2) exit {code}; {complete(ctx)} "
            f"episodes, rewards {totals} and {greeting}.")


WARNING_SUM_TO = '''import sys
import warnings

warnings.warn("sum_to.py: positional N is deprecated and will become --n in the next release", FutureWarning)


def sum_to(n):
    total = 0
    for i in range(1, n):
        total += i
    return total


print(sum_to(int(sys.argv[1])))
'''


def warning_script(tasks: Path) -> None:
    write_task_file(tasks, "fix-off-by-one", "environment/sum_to.py", WARNING_SUM_TO)


@case(
    "healthy_taskfolder_sum_to_py_prints_futurewarning_on_stderr_every_call_while_the_test_compares_only_stdout",
    "healthy",
    [],
    "nothing is wrong: the task author refreshed fix-off-by-one's environment/sum_to.py from the tool's repository, "
    "where it now emits 'FutureWarning: sum_to.py: positional N is deprecated' on stderr at every call (shown when "
    "the run prints the script and when the test runs it); tests/test.sh compares only stdout, the off-by-one bug is "
    "the same, and every episode in which the agent applied its fix passed its test (the others are the policy's "
    "usual misses, where it only listed the folder, as on create-greeting); every episode was collected, scored "
    "and profiled",
)
def healthy_taskfolder_sum_to_py_prints_futurewarning_on_stderr_every_call_while_the_test_compares_only_stdout(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["fix-off-by-one", "create-greeting"], edit=warning_script, repeats=4,
                     preamble=["echo '== smoke of the task script (before the fix it prints 45)'",
                               "python3 tasks/fix-off-by-one/environment/sum_to.py 10"])
    fixes, greeting = task_rewards(ctx, "fix-off-by-one"), task_rewards(ctx, "create-greeting")
    if code or complete(ctx) != 8 or not fixes or not any(fixes) or not any(greeting) \
            or "FutureWarning" not in log_of(ctx, "run_tasks.log") \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {fixes} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/fix-off-by-one/environment/sum_to.py (warnings.warn FutureWarning at every call); "
            f"RUN/run_tasks.sh (smoke of the script, `gym-pipeline stage` materialize, collect, profile x 2) exit "
            f"{code}; {complete(ctx)} episodes, rewards {fixes} and {greeting}.")


# =====================================================================================================
# verifier_runtime (task folder)
# =====================================================================================================

HAND_SUM_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
small="$(python3 /app/sum_to.py 10)"
one="$(python3 /app/sum_to.py 1)"
big="$(python3 /app/sum_to.py 100)"   # a bigger N too: 1 + ... + 100 = 100*101/2 = 5000
echo "sum_to 10 -> $small, 1 -> $one, 100 -> $big"
if test "$small" = "55" && test "$one" = "1" && test "$big" = "5000"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def hand_sum_test(tasks: Path) -> None:
    write_task_file(tasks, "fix-off-by-one", "tests/test.sh", HAND_SUM_TEST_SH)


@case(
    "verifier_runtime_taskfolder_test_sh_new_check_for_n_100_expects_hand_computed_5000_instead_of_5050",
    "verifier_runtime",
    ["test.sh", "5050", "expected", "sum_to.py 100"],
    "the task author hardened fix-off-by-one's tests/test.sh with a bigger case, `sum_to.py 100`, and worked its "
    "expected value out by hand in the comment as 100*101/2 = 5000 (it is 5050); every correct fix prints 5050 for "
    "N = 100, so the test failed and scored 0 on every episode of that task although the agent fixed the bug, while "
    "create-greeting scored (every command exits 0)",
)
def verifier_runtime_taskfolder_test_sh_new_check_for_n_100_expects_hand_computed_5000_instead_of_5050(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["fix-off-by-one", "create-greeting"], edit=hand_sum_test, repeats=4)
    fixes, greeting = task_rewards(ctx, "fix-off-by-one"), task_rewards(ctx, "create-greeting")
    text = everything(ctx) + "".join(text_of(p) for p in ctx.run.rglob("test-stdout.txt"))
    if code or not fixes or any(fixes) or not any(greeting) or "100 -> 5050" not in text:
        raise failed(ctx, f"exit {code}, {fixes} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/fix-off-by-one/tests/test.sh (new check `sum_to.py 100` = 5000); RUN/run_tasks.sh "
            f"(`gym-pipeline stage` materialize, collect, profile x 2) exit {code}; fix-off-by-one rewards {fixes}, "
            f"create-greeting {greeting}.")


# =====================================================================================================
# the run script's options parsed with getopts (a healthy case and a config case)
# =====================================================================================================

GETOPTS_SH = """#!/bin/bash
# run_eval.sh [-r REPEATS] [-u MODEL_URL]: the weekly eval (called by ci.sh)
cd {run}
REPEATS=1
MODEL_URL=""
while getopts "{optstring}" opt; do
  case $opt in
    r) REPEATS="$OPTARG" ;;
    u) MODEL_URL="$OPTARG" ;;
    \\?) echo "run_eval.sh: ignoring unknown option (see usage)" ;;
  esac
done
echo "eval: repeats $REPEATS, model $MODEL_URL"
{gp} materialize --input string_match.jsonl --num-repeats "$REPEATS" --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
{gp} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url "$MODEL_URL" \\
  --env string_match --concurrency 4
{gp} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


def getopts_week(ctx: Ctx, optstring: str, start: int, ci_args: str) -> tuple[int, str]:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, start)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "run_eval.sh").write_text(GETOPTS_SH.format(run=run, optstring=optstring, gp=GP))
    (run / "ci.sh").write_text(f"#!/bin/bash\n# ci.sh: the weekly eval job\nMODEL_URL={url}\n"
                               f"bash {run}/run_eval.sh {ci_args}\n")
    (run / "logs").mkdir(exist_ok=True)
    code = ctx.sh(f"bash {run}/ci.sh", "logs/run_eval.log", timeout=400)
    return code, url


@case(
    "healthy_builtin_ci_passes_retired_concurrency_option_last_so_getopts_reports_illegal_option_and_the_run_completes",
    "healthy",
    [],
    "nothing is wrong: ci.sh still passes the retired `-c 4` option after `-r 3 -u URL`; run_eval.sh's getopts "
    "(\"r:u:\") prints 'illegal option -- c' and the script's 'ignoring unknown option' line, but repeats and the "
    "model URL were already parsed, so materialize, collect and profile ran with 3 repeats against this week's "
    "server and every rollout was collected and profiled",
)
def healthy_builtin_ci_passes_retired_concurrency_option_last_so_getopts_reports_illegal_option_and_the_run_completes(
        ctx: Ctx) -> str:
    code, url = getopts_week(ctx, "r:u:", 60, '-r 3 -u "$MODEL_URL" -c 4')
    log = log_of(ctx, "run_eval.log")
    got = rows_of(ctx.run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or "illegal option" not in log or not any(rewards(got)) \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/ci.sh (`run_eval.sh -r 3 -u {url} -c 4`); RUN/run_eval.sh (getopts \"r:u:\", materialize 6 x 3, "
            f"collect, profile) exit {code}; {complete(ctx)} of 18 rollouts, mean reward {mean_of(got):.2f}.")


@case(
    "config_builtin_run_script_getopts_optstring_lacks_colon_after_u_so_model_url_option_takes_no_argument",
    "config",
    ["getopts", "u:", "colon", "OPTARG"],
    "the user's run_eval.sh parses its options with `getopts \"r:u\"`: without a colon after u, -u takes no "
    "argument, so OPTARG is unset and MODEL_URL became empty, and the URL ci.sh passed after -u ended the option "
    "parsing as a stray operand; collect was given `--model-url \"\"` and failed, and nothing was collected or "
    "profiled although this week's policy server was up",
)
def config_builtin_run_script_getopts_optstring_lacks_colon_after_u_so_model_url_option_takes_no_argument(
        ctx: Ctx) -> str:
    code, url = getopts_week(ctx, "r:u", 66, '-r 3 -u "$MODEL_URL"')
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) or "model \n" not in log + "\n":
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/ci.sh (`run_eval.sh -r 3 -u {url}`); RUN/run_eval.sh (getopts \"r:u\", materialize 6 x 3, collect "
            f"--model-url \"$MODEL_URL\", profile) exit {code}; {complete(ctx)} rollouts collected.")


# =====================================================================================================
# data_schema
# =====================================================================================================

HEADER_PAIRS = [
    ("What is the capital of Kenya?", "Nairobi"),
    ("What is the chemical symbol of silver?", "Ag"),
    ("How many legs does a spider have?", "8"),
    ("What is the capital of Chile?", "Santiago"),
    ("Which planet has the most prominent rings?", "Saturn"),
    ("What is the largest organ of the human body?", "Skin"),
]

PREP_DICT_PY = '''"""prep.py: the review tool's export labels.csv -> string_match.jsonl."""
import csv
import json

rows = []
with open("labels.csv", newline="") as f:
    for row in csv.DictReader(f):
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                              "content": [{"type": "input_text", "text": text}]}]},
                     "expected_answer": row.get("answer", "").strip(),  # reviewers may leave it blank
                     "extraction_mode": "final_answer", "case_sensitive": False})
with open("string_match.jsonl", "w") as out:
    out.writelines(json.dumps(r) + "\\n" for r in rows)
print(f"prep: {len(rows)} rows written")
'''


@case(
    "data_schema_builtin_review_export_header_names_column_answer_with_trailing_space_so_prep_dict_get_gives_blank_labels",
    "data_schema",
    ["header", "answer ", "trailing space", "prep.py"],
    "the review tool's labels.csv export writes its header as `question,answer ` (a trailing space after answer); the "
    "user's prep.py reads it with csv.DictReader and `row.get(\"answer\", \"\")` (blank allowed for unreviewed rows), "
    "so the key 'answer' was never found and every row got an empty expected_answer: every rollout scored 0 although "
    "the model answered right (every command exits 0)",
)
def data_schema_builtin_review_export_header_names_column_answer_with_trailing_space_so_prep_dict_get_gives_blank_labels(
        ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, HEADER_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["question", "answer "])
    writer.writerows(HEADER_PAIRS)
    (run / "labels.csv").write_text(buffer.getvalue())
    (run / "prep.py").write_text(PREP_DICT_PY)
    code = run_eval(ctx, f"{BIN}/python prep.py\n" + pipeline_lines(url), "weekly eval: prep labels.csv, then run")
    labels = [r["expected_answer"] for r in rows_of(run / "string_match.jsonl")]
    got = rows_of(run / "rollouts.jsonl")
    if code or len(got) != 18 or any(labels) or any(rewards(got)):
        raise failed(ctx, f"exit {code}, {len(got)}, {labels}, {rewards(got)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/labels.csv (header `question,answer `); RUN/prep.py (csv.DictReader, row.get('answer', '')); "
            f"RUN/run_eval.sh (prep, materialize 6 x 3, collect, profile) exit {code}; labels {labels}; rewards "
            f"{rewards(got)}.")


# =====================================================================================================
# model_serving
# =====================================================================================================

SERVE_STEP_SH = """#!/bin/bash
# serve_and_eval.sh: serve the trainer's last step, then the weekly eval against it
cd {run}
CKPTS={ckpts}
STEP=$(grep -o '"step": [0-9]*' $CKPTS/trainer_state.json | head -1 | grep -o '[0-9]*$')
CKPT=$CKPTS/$(printf 'step_%04d' "$STEP")
echo "serving step $STEP: $CKPT"
rm -f ready.url
{gp} serve-policy --port 0 --ready-file ready.url --checkpoint $CKPT --latency-ms 20 > logs/model_server.log 2>&1 &
SERVER=$!
for i in $(seq 1 60); do test -s ready.url && break; sleep 0.5; done
URL=$(cat ready.url)
echo "model server at $URL"
{pipeline}kill $SERVER
"""


@case(
    "model_serving_builtin_serve_script_takes_step_from_first_step_entry_of_trainer_state_log_history_so_step_100_served",
    "model_serving",
    ["trainer_state.json", "global_step", "head -1", "step"],
    "the user's serve_and_eval.sh picks the checkpoint to serve with `grep -o '\"step\": [0-9]*' trainer_state.json "
    "| head -1`; the trainer's state file lists global_step as \"global_step\" and its log_history starts with the "
    "entry of step 100, so the first '\"step\":' match was 100 and the server served step_0100 instead of the last "
    "step (200): the eval scored the older, weaker checkpoint (every command exits 0)",
)
def model_serving_builtin_serve_script_takes_step_from_first_step_entry_of_trainer_state_log_history_so_step_100_served(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (older, better) = builtin_rows(ctx, 8, 72)
    ckpts = better.parent
    state = {"global_step": 200, "best_model_checkpoint": str(better),
             "log_history": [{"step": 100, "loss": 0.92, "learning_rate": 1e-6},
                             {"step": 200, "loss": 0.61, "learning_rate": 5e-7}]}
    (ckpts / "trainer_state.json").write_text(json.dumps(state, indent=2) + "\n")
    ctx.note(f"(the trainer's WORK/checkpoints: {older.name}, {better.name}, trainer_state.json with global_step 200)")
    (run / "logs").mkdir(exist_ok=True)
    (run / "serve_and_eval.sh").write_text(SERVE_STEP_SH.format(run=run, ckpts=ckpts, gp=GP,
                                                                pipeline=pipeline_lines("$URL")))
    code = ctx.sh(f"bash {run}/serve_and_eval.sh", "logs/run_eval.log", timeout=400)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or len(got) != 24 or "serving step 100" not in log or "step_0100" not in log:
        raise failed(ctx, f"exit {code}, {len(got)}: {log[-1500:]}")
    return (f"WORK/checkpoints/trainer_state.json (global_step 200, log_history from step 100); "
            f"RUN/serve_and_eval.sh (step from the first '\"step\":' match, serve-policy, materialize 8 x 3, collect, "
            f"profile) exit {code}; served {older.name}; mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

CI_PAIRS_OLD = [
    ("What is the capital of Australia?", "Sydney"),
    ("How many continents are there?", "7"),
    ("What is the capital of Italy?", "Rome"),
    ("What is the chemical symbol of iron?", "Fe"),
    ("How many sides does a hexagon have?", "5"),
    ("What is the capital of Greece?", "Athens"),
]
CI_FIXED = {"Sydney": "Canberra", "5": "6"}

PREP_PLAIN_PY = '''"""prep.py: labels.csv (question,answer) -> string_match.jsonl."""
import csv
import json

with open("labels.csv", newline="") as f, open("string_match.jsonl", "w") as out:
    n = 0
    for row in csv.DictReader(f):
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({"responses_create_params": {"input": [{"role": "user", "type": "message",
                              "content": [{"type": "input_text", "text": text}]}]},
                              "expected_answer": row["answer"], "extraction_mode": "final_answer",
                              "case_sensitive": False}) + "\\n")
        n += 1
print(f"prep: {n} rows written")
'''

CI_PREP_SH = """#!/bin/bash
# ci_prep.sh: the CI's data step; the prepared dataset is cached between pipelines (prep is slow on the full sheet)
cd "$1"
CACHE_ROOT={cache}
KEY=prep-$(sha256sum prep.py | cut -c1-16)
if [ -f "$CACHE_ROOT/$KEY/string_match.jsonl" ]; then
  echo "cache hit: $KEY, restoring the prepared dataset"
  cp "$CACHE_ROOT/$KEY/string_match.jsonl" string_match.jsonl
else
  echo "cache miss: $KEY, running prep.py"
  {py} prep.py
  mkdir -p "$CACHE_ROOT/$KEY" && cp string_match.jsonl "$CACHE_ROOT/$KEY/"
fi
"""


def labels_file(path: Path, pairs: list[tuple[str, str]]) -> None:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["question", "answer"])
    writer.writerows(pairs)
    path.write_text(buffer.getvalue())


@case(
    "cache_resume_builtin_ci_data_cache_keyed_on_hash_of_prep_py_alone_restores_last_weeks_dataset_after_labels_fix",
    "cache_resume",
    ["cache key", "labels.csv", "sha256sum", "ci_prep.sh"],
    "the CI's data step ci_prep.sh caches the prepared string_match.jsonl under a key made from `sha256sum prep.py` "
    "alone; this week only labels.csv changed (Sydney -> Canberra, 5 -> 6), so the key was the same, the step "
    "printed 'cache hit' and restored last week's dataset without running prep.py: the two fixed labels were never "
    "used and the model's right answers to them scored 0 (every command exits 0)",
)
def cache_resume_builtin_ci_data_cache_keyed_on_hash_of_prep_py_alone_restores_last_weeks_dataset_after_labels_fix(
        ctx: Ctx) -> str:
    run = ctx.run
    fixed = [(q, CI_FIXED.get(a, a)) for q, a in CI_PAIRS_OLD]
    _, better = truth_checkpoints(ctx, fixed)
    cache = ctx.work / "ci_cache"
    (run / "ci_prep.sh").write_text(CI_PREP_SH.format(cache=cache, py=BIN / "python"))
    last = ctx.work / "pipeline_2026-11-29"
    last.mkdir()
    labels_file(last / "labels.csv", CI_PAIRS_OLD)
    (last / "prep.py").write_text(PREP_PLAIN_PY)
    (run / "logs").mkdir(exist_ok=True)
    ctx.sh(f"bash {run}/ci_prep.sh {last}", "logs/ci_prep_last_week.log", timeout=120)
    labels_file(run / "labels.csv", fixed)
    (run / "prep.py").write_text(PREP_PLAIN_PY)
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = run_eval(ctx, f"bash {run}/ci_prep.sh {run}\n" + pipeline_lines(url),
                    "weekly CI pipeline: data step (cached), then materialize, collect, profile")
    labels = [r["expected_answer"] for r in rows_of(run / "string_match.jsonl")]
    got = rows_of(run / "rollouts.jsonl")
    stale = labelled(got, *CI_FIXED)
    others = [r for r in got if r not in stale]
    if code or "Sydney" not in labels or len(stale) != 6 or any(rewards(stale)) or not any(rewards(others)) \
            or "cache hit" not in log_of(ctx, "run_eval.log"):
        raise failed(ctx, f"exit {code}, {labels}, {rewards(stale)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"last week's pipeline (WORK/pipeline_2026-11-29: labels with Sydney and 5) filled WORK/ci_cache; "
            f"RUN/labels.csv (Canberra, 6); RUN/ci_prep.sh (cache key from sha256sum prep.py); RUN/run_eval.sh "
            f"(ci_prep.sh, materialize 6 x 3, collect, profile) exit {code}; labels used {labels}; rewards of the "
            f"two stale labels {rewards(stale)}, others mean {mean_of(others):.2f}.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

POLITE_SH = """# the shared endpoint is slow this week: be gentle with it (one request at a time)
# CI gives this step 40 s (ci.yaml: timeout-minutes of the old smoke job, in seconds here)
{gp} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
timeout 40 {gp} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {url} \\
  --env string_match --concurrency 1
echo "collect exit: $?"
{gp} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "throughput_builtin_collect_at_concurrency_one_against_one_second_endpoint_cannot_finish_inside_ci_step_timeout",
    "throughput_resources",
    ["concurrency", "timeout", "latency", "rollouts"],
    "the user's run_eval.sh runs collect with `--concurrency 1` ('be gentle with the shared endpoint') inside the CI "
    "step's `timeout 40`; each completion takes about 1.2 s this week, so the 36 rollouts needed about 45 s one "
    "after another, collect was killed by the timeout (exit 124) partway, and profile summarised only the rollouts "
    "collected before it",
)
def throughput_builtin_collect_at_concurrency_one_against_one_second_endpoint_cannot_finish_inside_ci_step_timeout(
        ctx: Ctx) -> str:
    _, (_, better) = builtin_rows(ctx, 12, 40)
    url, _ = ctx.policy(better, "--latency-ms 1200")
    code = run_eval(ctx, POLITE_SH.format(gp=GP, url=url), "weekly eval on the shared endpoint", timeout=300)
    log = log_of(ctx, "run_eval.log")
    got = complete(ctx)
    if not 0 < got < 36 or "collect exit: 124" not in log:
        raise failed(ctx, f"exit {code}, {got}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 12 x 3, `timeout 40 collect --concurrency 1` against a server answering in "
            f"1.2 s, profile) exit {code}; collect exit 124; {got} of 36 rollouts collected.")


# =====================================================================================================
# infra
# =====================================================================================================

FLUENTD_FLAGS = "--log-driver fluentd --log-opt fluentd-address=127.0.0.1:24224 --log-opt tag=eval.collect"


@case(
    "infra_docker_collect_container_template_ships_logs_to_fluentd_agent_that_this_node_does_not_run",
    "infra",
    ["fluentd", "log-driver", "24224", "logging driver"],
    "the team's container template, copied into run_eval.sh from the cluster, starts the collect container with "
    "`--log-driver fluentd --log-opt fluentd-address=127.0.0.1:24224`; the cluster nodes run a fluentd agent on that "
    "port, this node does not, and Docker refuses to start a container whose logging driver cannot connect ('failed "
    "to initialize logging driver: dial tcp 127.0.0.1:24224: connect: connection refused'), so collect never ran and "
    "no rollout was collected although the policy server was up",
)
def infra_docker_collect_container_template_ships_logs_to_fluentd_agent_that_this_node_does_not_run(ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 80)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h85-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, FLUENTD_FLAGS, "collect runs in the team's eval container "
                                   "(flags from the cluster's container template)")
    (run / "logs").mkdir(exist_ok=True)
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) or "failed to initialize logging driver" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run --rm {FLUENTD_FLAGS} --network host ... "
            f"gym-pipeline/base:bookworm python -m gym_pipeline.cli collect --model-url {url}`, profile) exit {code}; "
            f"{complete(ctx)} rollouts collected.")


if __name__ == "__main__":
    sys.exit(main("eighty_fifth_held_out", __file__, __doc__))
