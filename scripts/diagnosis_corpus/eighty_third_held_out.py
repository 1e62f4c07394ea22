"""Build the EIGHTY-THIRD HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/eighty_third_held_out.py --out tests/data/diagnosis_corpus/eighty_third_held_out [--only CASE ...]

This set was written after the eighty-two earlier sets (first_held_out.py ... eighty_second_held_out.py), from the
guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
Docker containers the user's scripts start, task-folder (Harbor-format) tasksets, and the user's own shell and Python
tooling, settings, data-preparation scripts and verifiers. The output of every command is captured as a user would
(`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data, scripts,
settings, verifier code). Each case injects one cause, different in mechanism from those of the eighty-two earlier
sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not
written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), and PYTHONPATH set to this checkout. Run it from a
foreground shell. Containers it makes are named `h83-...` and removed at the end of their recipe.
"""
from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import everything, failed  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_seventh_held_out import task_rewards, week  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from recipes import BIN, GP, ROOT, Ctx, case, main, rows_of, text_of  # noqa: E402
from seventy_first_held_out import container_python, remove_container, write_rows  # noqa: E402
from seventy_ninth_held_out import run_eval  # noqa: E402
from sixty_fourth_held_out import mean_of, pipeline_lines, python_mounts, question_row  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_sixth_held_out import free_port  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def labelled(rows: list[dict], *labels: str) -> list[dict]:
    return [r for r in rows if str(r.get("expected_answer")) in labels]


def write_task_file(tasks: Path, task: str, relative: str, text: str) -> None:
    path = tasks / task / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


# =====================================================================================================
# healthy
# =====================================================================================================

SCARY_SERVER_LOG = """2026-12-05T02:00:01 INFO start
2026-12-05T02:00:03 WARN worker 3 Killed (out of memory), restarted by supervisor
2026-12-05T02:00:04 ERROR disk full
2026-12-05T02:00:05 INFO Traceback (most recent call last): captured in crash report 7781
2026-12-05T02:00:05 INFO   File "/srv/app/handler.py", line 12, in handle
2026-12-05T02:00:06 WARN connection refused by 10.0.0.7:5432, retrying
2026-12-05T02:00:07 INFO retry
2026-12-05T02:00:08 ERROR disk full
2026-12-05T02:00:09 WARN slow: CUDA out of memory on gpu 1, batch halved
2026-12-05T02:00:10 ERROR timeout
2026-12-05T02:00:11 WARN Segmentation fault in child 4412 (core dumped), respawned
2026-12-05T02:00:12 INFO done
"""


def scary_log(tasks: Path) -> None:
    write_task_file(tasks, "count-error-lines", "environment/server.log", SCARY_SERVER_LOG)


@case(
    "healthy_taskfolder_count_error_lines_input_log_quotes_oom_kills_tracebacks_and_segfaults_that_are_only_task_data",
    "healthy",
    [],
    "nothing is wrong: the user refreshed count-error-lines' environment/server.log with a realistic production log; "
    "besides its three ERROR lines it quotes 'Killed (out of memory)', 'Traceback (most recent call last)', "
    "'connection refused', 'CUDA out of memory' and 'Segmentation fault (core dumped)', and run_tasks.sh prints the "
    "file into its log; those lines are only the task's input, the answer is still 3, and every episode of both "
    "tasks passed its test and was collected, scored and profiled",
)
def healthy_taskfolder_count_error_lines_input_log_quotes_oom_kills_tracebacks_and_segfaults_that_are_only_task_data(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["count-error-lines", "create-greeting"], edit=scary_log,
                     preamble=["echo '== input of count-error-lines'", "cat tasks/count-error-lines/environment/server.log"])
    counts, greeting = task_rewards(ctx, "count-error-lines"), task_rewards(ctx, "create-greeting")
    if code or complete(ctx) != 4 or not counts or not all(counts) or not any(greeting) \
            or "Segmentation fault" not in log_of(ctx, "run_tasks.log") \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {counts} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/count-error-lines/environment/server.log (3 ERROR lines among OOM, traceback, refused and "
            f"segfault lines); RUN/run_tasks.sh (cat of the log, `gym-pipeline stage` materialize, collect, profile "
            f"x 2) exit {code}; {complete(ctx)} episodes, rewards {counts} and {greeting}.")


NPM_PACKAGE_JSON = """{
  "name": "demo-app",
  "version": "2.7.1",
  "private": true,
  "description": "2.7.0 is deprecated (CVE-2026-1187); 2.8.0-rc.1 is a release candidate, do not deploy",
  "scripts": {
    "test": "echo \\"Error: no test specified\\" && exit 1",
    "postinstall": "node scripts/check-engines.js || echo 'WARN engine check failed'"
  },
  "dependencies": {
    "demo-core": "2.7.0",
    "demo-ui": "^2.8.0-rc.1",
    "left-pad": "1.3.0"
  },
  "engines": {"node": ">=18 <21"}
}
"""


def npm_package(tasks: Path) -> None:
    write_task_file(tasks, "json-version", "environment/package.json", NPM_PACKAGE_JSON)


@case(
    "healthy_taskfolder_json_version_package_json_now_real_npm_manifest_with_lookalike_versions_and_error_test_script",
    "healthy",
    [],
    "nothing is wrong: the user replaced json-version's toy environment/package.json with the app's real npm manifest; "
    "it carries lookalike versions (dependencies at 2.7.0 and ^2.8.0-rc.1, a description calling 2.7.0 deprecated) "
    "and npm's default test script `echo \"Error: no test specified\" && exit 1`, all printed in the run's log; the "
    "top-level version is still 2.7.1, the agent read it, and every episode of both tasks passed its test and was "
    "collected, scored and profiled",
)
def healthy_taskfolder_json_version_package_json_now_real_npm_manifest_with_lookalike_versions_and_error_test_script(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["json-version", "create-greeting"], edit=npm_package,
                     preamble=["echo '== manifest of json-version'", "cat tasks/json-version/environment/package.json"])
    version, greeting = task_rewards(ctx, "json-version"), task_rewards(ctx, "create-greeting")
    if code or complete(ctx) != 4 or not version or not any(version) or not any(greeting) \
            or "no test specified" not in log_of(ctx, "run_tasks.log") \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {version} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/json-version/environment/package.json (npm manifest: version 2.7.1, dependencies at 2.7.0 and "
            f"^2.8.0-rc.1, default failing test script); RUN/run_tasks.sh (cat of the manifest, `gym-pipeline stage` "
            f"materialize, collect, profile x 2) exit {code}; {complete(ctx)} episodes, rewards {version} and "
            f"{greeting}.")


# =====================================================================================================
# the eval settings in an INI file (a healthy case and a config case)
# =====================================================================================================

EVAL_INI = """# eval.ini: settings of the weekly eval (read by eval.py)
[eval]
data = quiz_100%_reviewed.jsonl
model_url = {url}
repeats = 3
concurrency = 4
"""

EVAL_PY = '''"""eval.py: the weekly eval, its settings in eval.ini."""
import configparser
import subprocess
import sys

GP = "{gp}"
cfg = configparser.{parser}()
cfg.read("eval.ini")
s = cfg["eval"]
print(f"eval: data {{s['data']}}, model {{s['model_url']}}, repeats {{s['repeats']}}, concurrency {{s['concurrency']}}",
      flush=True)
steps = [
    [GP, "materialize", "--input", s["data"], "--num-repeats", s["repeats"], "--agent", "string_match_simple_agent",
     "--output", "rollouts_materialized_inputs.jsonl"],
    [GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
     "--model-url", s["model_url"], "--env", "string_match", "--concurrency", s["concurrency"]],
    [GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
]
for step in steps:
    code = subprocess.run(step).returncode
    if code:
        sys.exit(code)
'''


def ini_week(ctx: Ctx, parser: str, start: int) -> tuple[int, str]:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, start, name="quiz_100%_reviewed.jsonl")
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "eval.ini").write_text(EVAL_INI.format(url=url))
    (run / "eval.py").write_text(EVAL_PY.format(gp=GP, parser=parser))
    code = run_eval(ctx, f"{BIN}/python eval.py\n", "weekly eval: eval.py with the settings of eval.ini")
    return code, url


@case(
    "healthy_builtin_eval_py_reads_ini_with_raw_config_parser_so_percent_sign_in_reviewed_dataset_name_stays_literal",
    "healthy",
    [],
    "nothing is wrong: this week's dataset is named quiz_100%_reviewed.jsonl and the user's eval.py reads it from "
    "eval.ini with configparser.RawConfigParser, which does no %-interpolation, so the name with its percent sign "
    "reached materialize as written and every rollout was collected and profiled",
)
def healthy_builtin_eval_py_reads_ini_with_raw_config_parser_so_percent_sign_in_reviewed_dataset_name_stays_literal(
        ctx: Ctx) -> str:
    code, _ = ini_week(ctx, "RawConfigParser", 50)
    got = rows_of(ctx.run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or not any(rewards(got)) or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/quiz_100%_reviewed.jsonl; RUN/eval.ini (data = quiz_100%_reviewed.jsonl); RUN/eval.py "
            f"(configparser.RawConfigParser, materialize 6 x 3, collect, profile) exit {code}; {complete(ctx)} of 18 "
            f"rollouts, mean reward {mean_of(got):.2f}.")


@case(
    "config_builtin_eval_py_reads_ini_with_configparser_whose_percent_interpolation_rejects_dataset_name_with_percent",
    "config",
    ["configparser", "interpolation", "%%", "RawConfigParser"],
    "the user's eval.py reads its settings from eval.ini with configparser.ConfigParser, whose default "
    "BasicInterpolation treats '%' as the start of a reference; this week's dataset is quiz_100%_reviewed.jsonl, so "
    "reading `data` raised InterpolationSyntaxError ('%' must be followed by '%' or '('), eval.py stopped before "
    "materialize, and nothing was collected or profiled although the policy server was up",
)
def config_builtin_eval_py_reads_ini_with_configparser_whose_percent_interpolation_rejects_dataset_name_with_percent(
        ctx: Ctx) -> str:
    code, url = ini_week(ctx, "ConfigParser", 56)
    log = log_of(ctx, "run_eval.log")
    if not code or "InterpolationSyntaxError" not in log or complete(ctx) \
            or (ctx.run / "rollouts_materialized_inputs.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/quiz_100%_reviewed.jsonl; RUN/eval.ini (data = quiz_100%_reviewed.jsonl, model_url {url}); "
            f"RUN/eval.py (configparser.ConfigParser) exit {code}: InterpolationSyntaxError before materialize; "
            f"{complete(ctx)} rollouts.")


# =====================================================================================================
# data_schema
# =====================================================================================================

COMMA_PAIRS = [
    ("What is the capital of Peru?", "Lima"),
    ("Which city, the largest in Turkey, straddles Europe and Asia?", "Istanbul"),
    ("What is the capital of Norway?", "Oslo"),
    ("Which planet, fourth from the Sun, is called the Red Planet?", "Mars"),
    ("What is the chemical symbol of gold?", "Au"),
    ("Which ocean, the largest on Earth, lies west of the Americas?", "Pacific"),
]
COMMA_LABELS = {"Istanbul", "Mars", "Pacific"}

PREP_SPLIT_PY = '''"""prep.py: the labelling team's labels.csv (question,answer) -> string_match.jsonl."""
import json

with open("labels.csv") as f:
    lines = f.read().splitlines()[1:]  # skip the header
with open("string_match.jsonl", "w") as out:
    for line in lines:
        question, answer = line.split(",", 1)
        text = f"{question} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": answer.strip(), "extraction_mode": "final_answer", "case_sensitive": False}) + "\\n")
print(f"prep: {len(lines)} rows written")
'''


@case(
    "data_schema_builtin_prep_splits_labels_csv_lines_at_first_comma_so_questions_containing_commas_get_their_tail_as_label",
    "data_schema",
    ["csv", "split", "comma", "prep.py"],
    "the user's prep.py turns the labelling team's labels.csv into string_match.jsonl with `line.split(\",\", 1)` "
    "instead of the csv module; the export quotes the questions that contain commas, so for those three rows the "
    "question was cut at its first comma and the label became the rest of the line (e.g. 'the largest in Turkey, "
    "straddles Europe and Asia?\",Istanbul'): those rows scored 0 while the others scored (every command exits 0)",
)
def data_schema_builtin_prep_splits_labels_csv_lines_at_first_comma_so_questions_containing_commas_get_their_tail_as_label(
        ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, COMMA_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["question", "answer"])
    writer.writerows(COMMA_PAIRS)
    (run / "labels.csv").write_text(buffer.getvalue())
    (run / "prep.py").write_text(PREP_SPLIT_PY)
    code = run_eval(ctx, f"{BIN}/python prep.py\n" + pipeline_lines(url), "weekly eval: prep labels.csv, then run")
    labels = [r["expected_answer"] for r in rows_of(run / "string_match.jsonl")]
    got = rows_of(run / "rollouts.jsonl")
    cut = [r for r in got if '",' in str(r.get("expected_answer"))]
    others = [r for r in got if r not in cut]
    if code or len(got) != 18 or len(cut) != 9 or any(rewards(cut)) or not any(rewards(others)):
        raise failed(ctx, f"exit {code}, {len(got)}, {labels}, {rewards(cut)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/labels.csv (csv.writer export, questions with commas quoted); RUN/prep.py (line.split(',', 1)); "
            f"RUN/run_eval.sh (prep, materialize 6 x 3, collect, profile) exit {code}; labels {labels}; rewards of "
            f"the {len(cut)} rollouts of the cut rows {rewards(cut)}, others mean {mean_of(others):.2f}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

LOWER_ERROR_LOG = """INFO start
ERROR disk full
INFO retry after transient error (attempt 2)
ERROR disk full
WARN slow
ERROR timeout
INFO done
"""

CI_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# The expected count is derived from the log itself (so the test survives log refreshes).
cd /app
expected="$(grep -ci error /app/server.log)"
got="$(tr -d "[:space:]" < /app/count.txt 2>/dev/null)"
echo "expected $expected, got '$got'"
if test "$got" = "$expected"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def case_insensitive_test(tasks: Path) -> None:
    write_task_file(tasks, "count-error-lines", "environment/server.log", LOWER_ERROR_LOG)
    write_task_file(tasks, "count-error-lines", "tests/test.sh", CI_TEST_SH)


@case(
    "verifier_runtime_taskfolder_test_sh_derives_expected_count_with_case_insensitive_grep_that_also_counts_lowercase_error",
    "verifier_runtime",
    ["test.sh", "grep -ci", "case", "ERROR"],
    "count-error-lines' tests/test.sh no longer hardcodes the answer: it derives the expected count with `grep -ci "
    "error /app/server.log`; the task asks for lines containing ERROR, and the refreshed log has an INFO line "
    "'retry after transient error', which the case-insensitive grep also counts, so the test expected 4 and every "
    "right answer (3) failed and scored 0, while create-greeting scored (every command exits 0)",
)
def verifier_runtime_taskfolder_test_sh_derives_expected_count_with_case_insensitive_grep_that_also_counts_lowercase_error(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["count-error-lines", "create-greeting"], edit=case_insensitive_test)
    counts, greeting = task_rewards(ctx, "count-error-lines"), task_rewards(ctx, "create-greeting")
    text = everything(ctx) + "".join(text_of(p) for p in ctx.run.rglob("test-stdout.txt"))
    if code or not counts or any(counts) or not any(greeting) or "expected 4, got '3'" not in text:
        raise failed(ctx, f"exit {code}, {counts} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/count-error-lines/environment/server.log (3 ERROR lines, one INFO line with 'error'), "
            f"tests/test.sh (expected from `grep -ci error`); RUN/run_tasks.sh (`gym-pipeline stage` materialize, "
            f"collect, profile x 2) exit {code}; count-error-lines rewards {counts}, create-greeting {greeting}.")


# =====================================================================================================
# infra
# =====================================================================================================

HOST_INTERNAL_SH = """#!/bin/bash
# weekly eval; collect runs in the eval container (script written on a laptop with Docker Desktop)
cd {run}
rm -f rollouts.jsonl rollouts_failures.jsonl
PORT={port}   # this week's policy server, on this machine
MODEL_URL=http://host.docker.internal:$PORT/v1
{gp} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
timeout 240 docker run --rm --name {name} {flags} gym-pipeline/base:bookworm \\
  {py} -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl \\
  --model-url $MODEL_URL --env string_match --concurrency 4
echo "collect container exit: $?"
{gp} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "infra_docker_collect_container_addresses_policy_as_host_docker_internal_which_docker_engine_on_linux_never_defines",
    "infra",
    ["host.docker.internal", "add-host", "host-gateway", "127.0.0.1"],
    "the user's run_eval.sh, written on a laptop with Docker Desktop, points the collect container at "
    "http://host.docker.internal:PORT/v1; Docker Engine on Linux defines that name only when the container is "
    "started with `--add-host host.docker.internal:host-gateway`, which the script does not pass, so every request "
    "of collect failed to resolve the host name and no rollout was collected, although the policy server was up on "
    "this machine",
)
def infra_docker_collect_container_addresses_policy_as_host_docker_internal_which_docker_engine_on_linux_never_defines(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 62)
    url, _ = ctx.policy(better, "--latency-ms 20")
    port = url.split(":")[-1].split("/")[0]
    name = f"h83-collect-{free_port()}"
    script = run / "run_eval.sh"
    script.write_text(HOST_INTERNAL_SH.format(run=run, port=port, gp=GP, name=name, flags=container_python(run),
                                              py=BIN / "python"))
    (run / "logs").mkdir(exist_ok=True)
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) or "host.docker.internal" not in log or "collect container exit: 0" in log and \
            not rows_of(run / "rollouts_failures.jsonl"):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-2000:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run ... gym-pipeline/base:bookworm python -m "
            f"gym_pipeline.cli collect --model-url http://host.docker.internal:{port}/v1` without --add-host, profile) "
            f"exit {code}; the policy server listened at {url}; {complete(ctx)} rollouts collected.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

RELEASE_PAIRS_OLD = [
    ("What is the capital of Canada?", "Toronto"),
    ("How many players does a soccer team field at once?", "12"),
    ("What is the capital of Spain?", "Madrid"),
    ("What is the capital of Egypt?", "Cairo"),
    ("Which gas do plants absorb from the air?", "Carbon dioxide"),
    ("How many days are in a leap year?", "366"),
]
RELEASE_FIXED = {"Toronto": "Ottawa", "12": "11"}

SYNC_RELEASE_SH = """#!/bin/bash
# sync_release.sh (the labelling team's): point `current` at the newest release folder
cd "$(dirname "$0")"
newest=$(ls -d releases/*/ | sort | tail -n 1)
ln -sfn "${newest%/}" current
echo "sync: current -> $(readlink current)"
"""

RELEASE_BODY = """SHARE={share}
cd $SHARE/current && bash $SHARE/sync_release.sh   # labelled data; refresh it to the newest release first
echo "data from $(pwd) ($(readlink -f $SHARE/current))"
cp string_match.jsonl {run}/string_match.jsonl
cd {run}
"""


@case(
    "cache_resume_builtin_run_script_enters_current_release_symlink_before_sync_repoints_it_so_copy_reads_last_weeks_labels",
    "cache_resume",
    ["cd", "current", "symlink", "sync_release.sh"],
    "the user's run_eval.sh does `cd $SHARE/current && bash sync_release.sh` and then copies string_match.jsonl from "
    "the working folder; the sync repoints the `current` symlink to this week's release, but the shell had already "
    "entered last week's release folder through the old link and stays in it, so last week's file was copied: the "
    "two labels fixed this week (Ottawa, 11) were never used and the model's right answers to them scored 0 (every "
    "command exits 0, and the log even shows `current` pointing at the new release)",
)
def cache_resume_builtin_run_script_enters_current_release_symlink_before_sync_repoints_it_so_copy_reads_last_weeks_labels(
        ctx: Ctx) -> str:
    run = ctx.run
    fixed = [(q, RELEASE_FIXED.get(a, a)) for q, a in RELEASE_PAIRS_OLD]
    _, better = truth_checkpoints(ctx, fixed)
    share = ctx.work / "share" / "quiz"
    for week_name in ("2026-11-29", "2026-12-06"):
        (share / "releases" / week_name).mkdir(parents=True)
    write_rows(share / "releases" / "2026-11-29" / "string_match.jsonl",
               [question_row(q, a) for q, a in RELEASE_PAIRS_OLD])
    write_rows(share / "releases" / "2026-12-06" / "string_match.jsonl", [question_row(q, a) for q, a in fixed])
    (share / "sync_release.sh").write_text(SYNC_RELEASE_SH)
    os.symlink("releases/2026-11-29", share / "current")
    ctx.note("(the share: releases/2026-11-29 (Toronto, 12), releases/2026-12-06 (Ottawa, 11), current -> 2026-11-29)")
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = run_eval(ctx, RELEASE_BODY.format(share=share, run=run) + pipeline_lines(url),
                    "weekly eval: this week's labelled release, then materialize, collect, profile")
    labels = [r["expected_answer"] for r in rows_of(run / "string_match.jsonl")]
    got = rows_of(run / "rollouts.jsonl")
    stale = labelled(got, *RELEASE_FIXED)
    others = [r for r in got if r not in stale]
    if code or "Toronto" not in labels or len(stale) != 6 or any(rewards(stale)) or not any(rewards(others)) \
            or "2026-12-06" not in log_of(ctx, "run_eval.log"):
        raise failed(ctx, f"exit {code}, {labels}, {rewards(stale)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"WORK/share/quiz (releases 2026-11-29 with Toronto and 12, 2026-12-06 with Ottawa and 11, current -> "
            f"2026-11-29, sync_release.sh); RUN/run_eval.sh (`cd $SHARE/current && bash sync_release.sh`, cp, "
            f"materialize 6 x 3, collect, profile) exit {code}; labels used {labels}; rewards of the two stale labels "
            f"{rewards(stale)}, others mean {mean_of(others):.2f}.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

def workstation_cpus(tasks: Path) -> None:
    toml = tasks / "count-error-lines" / "task.toml"
    toml.write_text(toml.read_text().replace("cpus = 1\n", "cpus = 8  # sized on the 16-core workstation\n"))


@case(
    "throughput_taskfolder_task_toml_asks_eight_cpus_sized_on_workstation_so_sandbox_cannot_start_on_two_core_node",
    "throughput_resources",
    ["cpus", "task.toml", "CPUs available"],
    "count-error-lines' task.toml was sized on the author's 16-core workstation: [environment] cpus = 8; this eval "
    "node has 2 CPUs and Docker refuses a container asking for more CPUs than the machine has ('Range of CPUs is "
    "from 0.01 to 2.00'), so no sandbox of that task could start and every one of its episodes failed without a "
    "result, while create-greeting (cpus = 1) ran and scored",
)
def throughput_taskfolder_task_toml_asks_eight_cpus_sized_on_workstation_so_sandbox_cannot_start_on_two_core_node(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["count-error-lines", "create-greeting"], edit=workstation_cpus)
    counts, greeting = task_rewards(ctx, "count-error-lines"), task_rewards(ctx, "create-greeting")
    text = everything(ctx) + log_of(ctx, "run_tasks.log")
    if any(counts) or not any(greeting) or "range of cpus" not in text.lower():
        raise failed(ctx, f"exit {code}, {counts} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/count-error-lines/task.toml ([environment] cpus = 8) on a {os.cpu_count()}-CPU node; "
            f"RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile x 2) exit {code}; "
            f"count-error-lines rewards {counts}, create-greeting rewards {greeting}.")


# =====================================================================================================
# model_serving
# =====================================================================================================

SERVE_SH = """#!/bin/bash
# serve.sh: this week's checkpoint in the serving container, then the weekly eval against it
cd {run}
PORT={port}
docker run -d --name {name} -p $PORT:$PORT {mounts} -e PYTHONPATH={root} gym-pipeline/base:bookworm \\
  {py} -m gym_pipeline.cli serve-policy --host 0.0.0.0 --port $PORT --checkpoint {ckpt} --latency-ms 20
docker port {name}
for i in $(seq 1 30); do curl -sf http://127.0.0.1:$PORT/v1/models > /dev/null && break; sleep 1; done
curl -sf http://127.0.0.1:$PORT/v1/models > /dev/null && echo "server ready" || echo "server not answering yet, going on"
"""


@case(
    "model_serving_docker_serve_script_publishes_policy_port_with_p_on_node_whose_docker_has_no_bridge_network",
    "model_serving",
    ["--network host", "-p", "serve.sh", "bridge"],
    "the user's serve.sh starts the policy server in a container with `-p $PORT:$PORT` and no `--network host`, as "
    "on their workstation; this node's Docker daemon runs without a bridge network (`docker network ls` lists only "
    "host and none, which is why the team's container templates all use --network host), so the container got a "
    "loopback-only network of its own and the port publishing was silently dropped (`docker port` prints nothing): "
    "the server was up inside the container, but nothing listened on 127.0.0.1:$PORT, the readiness loop gave up, "
    "collect's requests were refused and no rollout was collected",
)
def model_serving_docker_serve_script_publishes_policy_port_with_p_on_node_whose_docker_has_no_bridge_network(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 80)
    port = free_port()
    name = f"h83-policy-{port}"
    url = f"http://127.0.0.1:{port}/v1"
    mounts = f"{python_mounts()} -v {better.parent}:{better.parent}:ro"
    body = SERVE_SH.format(run=run, port=port, name=name, mounts=mounts, root=ROOT, py=BIN / "python", ckpt=better)
    (run / "serve.sh").write_text(body)
    (run / "logs").mkdir(exist_ok=True)
    try:
        code1 = ctx.sh(f"bash {run}/serve.sh", "logs/serve.log", timeout=120)
        ctx.sh(f"docker logs {name}", "logs/model_server.log", timeout=30)
        code = run_eval(ctx, pipeline_lines(url), "weekly eval against the policy server of serve.sh", timeout=300)
        ctx.sh(f"docker logs --tail 20 {name}", "logs/model_server_after.log", timeout=30)
    finally:
        remove_container(name)
    serve_log = log_of(ctx, "serve.log")
    server_log = log_of(ctx, "model_server.log") + log_of(ctx, "model_server_after.log")
    networks = subprocess.run(["docker", "network", "ls", "--format", "{{.Name}}"], capture_output=True,
                              text=True).stdout.split()
    if complete(ctx) or "not answering" not in serve_log or "->" in serve_log or "bridge" in networks \
            or "SIMULATED_POLICY_READY" not in server_log:
        raise failed(ctx, f"exit {code1}, {complete(ctx)}: {serve_log[-1000:]} {server_log[-800:]} "
                          f"{log_of(ctx, 'run_eval.log')[-1000:]}")
    return (f"RUN/serve.sh (`docker run -d -p {port}:{port} ... serve-policy --host 0.0.0.0 --port {port}`, docker port, "
            f"readiness loop) exit {code1}; RUN/run_eval.sh (materialize 6 x 3, collect against {url}, profile) "
            f"exit {code}; {complete(ctx)} rollouts collected.")


if __name__ == "__main__":
    sys.exit(main("eighty_third_held_out", __file__, __doc__))
