"""Build the NINETY-NINTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/ninety_ninth_held_out.py --out tests/data/diagnosis_corpus/ninety_ninth_held_out [--only CASE ...]

This set was written after the ninety-seven earlier sets (first_held_out.py ... ninety_seventh_held_out.py; the
ninety-eighth was written beside it at the same time), from the guides alone (the NeMo Gym debugging guide, the
reward profiling guide, the task-folder troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without
reading the diagnosis rules, their tests or their results. It is meant to be measured once, by someone else, on
failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
Docker containers the user's scripts start, task-folder (Harbor-format) tasksets, and the user's own shell, make and
Python tooling, settings, data-preparation scripts and verifiers. The output of every command is captured as a user
would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data,
scripts, settings, verifier code). Each case injects one cause, different in mechanism from those of the 97 earlier
sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not
written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), make, and PYTHONPATH set to this checkout. Run it from a
foreground shell. Containers it makes are named `h99-...` and removed at the end of their recipe.
"""
from __future__ import annotations

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
from recipes import BIN, GP, Ctx, case, main, rows_of, text_of, wait_for  # noqa: E402
from seventy_first_held_out import docker_collect_script, remove_container  # noqa: E402
from seventy_ninth_held_out import run_eval  # noqa: E402
from sixty_fourth_held_out import mean_of, pipeline_lines  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_sixth_held_out import free_port  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


def make_lines(url: str) -> str:
    """The eval target's recipe lines (tab-indented) for the Makefile: materialize, collect, profile."""
    return "".join(f"\t{line}\n" for line in pipeline_lines(url).strip().splitlines())


# =====================================================================================================
# healthy
# =====================================================================================================

CLEAN_TWICE_MAKEFILE = """# weekly eval: `make eval`
.PHONY: eval clean

eval: clean
{eval}
clean:
\trm -f rollouts.jsonl rollouts_failures.jsonl rollouts_reward_profiling.jsonl

# pasted from the smoke-test Makefile
clean:
\trm -f rollouts.jsonl rollouts_failures.jsonl rollouts_reward_profiling.jsonl rollouts_materialized_inputs.jsonl
"""


@case(
    "healthy_builtin_makefile_pastes_a_second_clean_target_so_make_warns_overriding_recipe_on_every_run",
    "healthy",
    [],
    "nothing is wrong: the user's Makefile defines the `clean` target twice (a second copy pasted from the smoke-test "
    "Makefile, which also removes the materialized inputs), so make prints 'warning: overriding recipe for target "
    "'clean'' and 'warning: ignoring old recipe for target 'clean'' on every run; the later recipe is the one that "
    "runs, it only removes last week's outputs, and `make eval` materialized, collected and profiled every rollout",
)
def healthy_builtin_makefile_pastes_a_second_clean_target_so_make_warns_overriding_recipe_on_every_run(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 12)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "Makefile").write_text(CLEAN_TWICE_MAKEFILE.format(eval=make_lines(url)))
    (run / "logs").mkdir(exist_ok=True)
    code = ctx.sh(f"make -C {run} eval", "logs/make_eval.log", timeout=300)
    log = log_of(ctx, "make_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or "overriding recipe for target" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/Makefile (`clean` defined twice; eval: clean, materialize 6 x 3, collect, profile); `make eval` exit "
            f"{code}; make warned of the overriding recipe; {complete(ctx)} of 18 rollouts, mean reward "
            f"{mean_of(got):.2f}.")


@case(
    "healthy_docker_collect_container_template_keeps_oom_kill_disable_without_memory_limit_so_docker_warns",
    "healthy",
    [],
    "nothing is wrong: the team's container template passes `--oom-kill-disable` (from the days when the collect "
    "container had a memory limit) but no `--memory`, so docker warns about the OOM killer setting on every run "
    "(the flag is ignored or discarded); the collect container exited 0 and every rollout was collected and profiled",
)
def healthy_docker_collect_container_template_keeps_oom_kill_disable_without_memory_limit_so_docker_warns(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 24)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h99-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, "--oom-kill-disable", "collect runs in the team's eval "
                                   "container (flags from the container template)")
    (run / "logs").mkdir(exist_ok=True)
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or "WARNING" not in log or "OomKill" not in log.replace("OOM kill", "OomKill") \
            or "collect container exit: 0" not in log or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run --oom-kill-disable ... gym-pipeline/base:bookworm "
            f"python -m gym_pipeline.cli collect`, profile) exit {code}; docker warned about the OOM killer flag; "
            f"{complete(ctx)} of 18 rollouts, mean reward {mean_of(got):.2f}.")


LEFTOVER_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
# show scratch files the agent left behind (we clean those up in the next task version)
ls -l /app/*.tmp
if test "$(tr -d "[:space:]" < /app/count.txt 2>/dev/null)" = "3"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def leftover_listing(tasks: Path) -> None:
    write_task_file(tasks, "count-error-lines", "tests/test.sh", LEFTOVER_TEST_SH)


@case(
    "healthy_taskfolder_test_sh_lists_agents_leftover_tmp_files_with_ls_glob_that_matches_none",
    "healthy",
    [],
    "nothing is wrong: the author of count-error-lines added `ls -l /app/*.tmp` to tests/test.sh to see scratch "
    "files the agent leaves behind; the agent leaves none, so every verification prints \"ls: cannot access "
    "'/app/*.tmp': No such file or directory\" and goes on to its real check (no set -e): every episode in which the "
    "agent wrote the right count passed, and every episode was collected, scored and profiled",
)
def healthy_taskfolder_test_sh_lists_agents_leftover_tmp_files_with_ls_glob_that_matches_none(ctx: Ctx) -> str:
    code, got = week(ctx, ["count-error-lines", "create-greeting"], edit=leftover_listing, repeats=4)
    counts, greeting = task_rewards(ctx, "count-error-lines"), task_rewards(ctx, "create-greeting")
    text = everything(ctx)
    if code or complete(ctx) != 8 or not any(counts) or not any(greeting) or "cannot access" not in text \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {counts} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/count-error-lines/tests/test.sh (`ls -l /app/*.tmp`, no such files); RUN/run_tasks.sh "
            f"(`gym-pipeline stage` materialize, collect, profile x 2) exit {code}; {complete(ctx)} episodes, rewards "
            f"{counts} and {greeting}.")


# =====================================================================================================
# config
# =====================================================================================================

def answered(ctx: Ctx, run: Path, endpoint: str, name: str) -> list[float]:
    """Sorted rewards of RUN's materialized inputs collected against `endpoint` in WORK (not part of the run)."""
    out = ctx.work / f"probe_{name}.jsonl"
    subprocess.run([GP, "collect", "--inputs", str(run / "rollouts_materialized_inputs.jsonl"), "--output", str(out),
                    "--model-url", endpoint, "--env", "string_match", "--concurrency", "4"], capture_output=True,
                   check=False, timeout=300)
    return sorted(rewards(rows_of(out)))


EXPORT_LINE_MAKEFILE = """# weekly eval: `make eval STEP=step_0200`
# the team's shared endpoint (production checkpoint) is the fallback when no endpoint file is given
SHARED_ENDPOINT = {shared}
STEP ?= step_0100

.PHONY: eval
eval:
\texport MODEL_URL=$$(cat endpoints/$(STEP).url)
\techo "== evaluating $(STEP)"
\t{gp} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
\t{gp} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $${{MODEL_URL:-$(SHARED_ENDPOINT)}} --env string_match --concurrency 4
\t{gp} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "config_builtin_makefile_exports_model_url_on_its_own_recipe_line_so_collect_line_falls_back_to_shared_endpoint",
    "config",
    ["Makefile", "export MODEL_URL", "recipe line", ".ONESHELL"],
    "the eval target of the user's Makefile sets the endpoint with `export MODEL_URL=$$(cat endpoints/$(STEP).url)` "
    "on its own recipe line; make runs every recipe line in a new shell, so the export is gone when the collect "
    "line runs, and `--model-url $${MODEL_URL:-$(SHARED_ENDPOINT)}` falls back to the team's shared endpoint "
    "(the production step_0100 checkpoint): `make eval STEP=step_0200` evaluated step_0100 and the step_0200 "
    "server got no request, while every command exits 0",
)
def config_builtin_makefile_exports_model_url_on_its_own_recipe_line_so_collect_line_falls_back_to_shared_endpoint(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (older, better) = builtin_rows(ctx, 6, 36)
    shared, _ = ctx.policy(older, "--latency-ms 20", log="logs/shared_endpoint_server.log")
    url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server_step_0200.log")
    (run / "endpoints").mkdir()
    (run / "endpoints" / "step_0200.url").write_text(url + "\n")
    (run / "Makefile").write_text(EXPORT_LINE_MAKEFILE.format(shared=shared, gp=GP))
    (run / "logs").mkdir(exist_ok=True)
    code = ctx.sh(f"make -C {run} eval STEP=step_0200", "logs/make_eval.log", timeout=300)
    log = log_of(ctx, "make_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    # the proof (outside RUN): the same inputs collected against each server; the run's rewards are the shared one's
    probe = {name: answered(ctx, run, endpoint, name) for name, endpoint in (("shared", shared), ("step_0200", url))}
    if code or complete(ctx) != 18 or sorted(rewards(got)) != probe["shared"] \
            or probe["shared"] == probe["step_0200"]:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {sorted(rewards(got))} {probe}: {log[-1500:]}")
    return (f"RUN/Makefile (`export MODEL_URL=...` on its own recipe line, collect with `${{MODEL_URL:-"
            f"$(SHARED_ENDPOINT)}}`); RUN/endpoints/step_0200.url; `make eval STEP=step_0200` exit {code}; collect "
            f"used {shared} (step_0100); {complete(ctx)} rollouts, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# data_schema
# =====================================================================================================

CAPITALS = [
    ("What is the capital of Portugal?", "Lisbon"),
    ("What is the capital of Greece?", "Athens"),
    ("What is the capital of Switzerland?", "Bern"),
    ("What is the capital of Norway?", "Oslo"),
    ("What is the capital of Spain?", "Madrid"),
    ("What is the capital of Japan?", "Tokyo"),
]

PREP_STRIP_PY = '''"""prep.py: the reviewers' answer sheet (answers.txt: question | Answer: ...) -> string_match.jsonl."""
import json

rows = []
with open("answers.txt", encoding="utf-8") as f:
    for line in f:
        if not line.strip():
            continue
        question, answer = line.rstrip("\\n").split(" | ")
        answer = answer.strip("Answer: ")  # drop the sheet's "Answer: " prefix
        text = f"{question} End your response with 'Final answer: <answer>'."
        rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                            "content": [{"type": "input_text", "text": text}]}]},
                     "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False})
with open("string_match.jsonl", "w") as out:
    out.writelines(json.dumps(row) + "\\n" for row in rows)
print(f"prep: {len(rows)} rows written")
'''


@case(
    "data_schema_builtin_prep_removes_answer_prefix_with_str_strip_which_also_eats_matching_letters_of_labels",
    "data_schema",
    ["prep.py", "strip", "Answer: ", "removeprefix"],
    "the user's prep.py removes the answer sheet's 'Answer: ' prefix with `answer.strip(\"Answer: \")`, which "
    "strips any of the characters A, n, s, w, e, r, ':' and space from both ends, not the prefix: Lisbon became "
    "'Lisbo', Athens 'th', Bern 'B' (Oslo, Madrid, Tokyo were untouched), and almost every rollout of those three "
    "questions scored 0 although the model answered right, while every command exits 0",
)
def data_schema_builtin_prep_removes_answer_prefix_with_str_strip_which_also_eats_matching_letters_of_labels(
        ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, CAPITALS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "answers.txt").write_text("".join(f"{q} | Answer: {a}\n" for q, a in CAPITALS), encoding="utf-8")
    (run / "prep.py").write_text(PREP_STRIP_PY)
    code = run_eval(ctx, f"{BIN}/python prep.py\n" + pipeline_lines(url), "weekly eval: prep the sheet, then run")
    labels = [r["expected_answer"] for r in rows_of(run / "string_match.jsonl")]
    got = rows_of(run / "rollouts.jsonl")
    broken, others = labelled(got, {"Lisbo", "th", "B"})
    if code or labels[:3] != ["Lisbo", "th", "B"] or len(broken) != 9 or sum(rewards(broken)) > 1 \
            or mean_of(others) < mean_of(broken) + 0.3:
        raise failed(ctx, f"exit {code}, {labels}, {rewards(broken)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/answers.txt (6 questions, 'question | Answer: city'); RUN/prep.py (`answer.strip(\"Answer: \")`); "
            f"RUN/run_eval.sh (prep, materialize 6 x 3, collect, profile) exit {code}; labels {labels}; rewards of "
            f"the three stripped labels {rewards(broken)}, others mean {mean_of(others):.2f}.")


CASE_SHEET = [
    ("What is the capital of Portugal?", "Lisbon"),
    ("What is the capital of Norway?", "Oslo"),
    ("What is the capital of Japan?", "Tokyo"),
    ("What is the capital of Spain?", "Madrid"),
    ("What is the capital of Greece?", "Athens"),
    ("What is the capital of Peru?", "Lima"),
]

PREP_CSV_FLAG_PY = '''"""prep.py: the review sheet (sheet.csv: question,answer,case_sensitive) -> string_match.jsonl."""
import csv
import json

with open("sheet.csv", newline="", encoding="utf-8") as f:
    records = list(csv.DictReader(f))
with open("string_match.jsonl", "w") as out:
    for record in records:
        text = f"{record['question']} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": record["answer"], "extraction_mode": "final_answer",
               "case_sensitive": record["case_sensitive"]}
        out.write(json.dumps(row) + "\\n")
print(f"prep: {len(records)} rows written")
'''


@case(
    "data_schema_builtin_prep_copies_case_sensitive_column_of_review_sheet_csv_as_text_false_so_verifier_rejects_every_row",
    "data_schema",
    ["prep.py", "case_sensitive", "bool", "sheet.csv"],
    "the review sheet got a case_sensitive column (false on every row) and the user's prep.py copies it into "
    "string_match.jsonl as read by csv.DictReader, i.e. as the text \"false\", not the JSON boolean false; the "
    "string_match verifier takes case_sensitive only as a bool, so it rejected every row ('case_sensitive: expected "
    "bool, got str') and no rollout was scored although the model answered",
)
def data_schema_builtin_prep_copies_case_sensitive_column_of_review_sheet_csv_as_text_false_so_verifier_rejects_every_row(
        ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, CASE_SHEET)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "sheet.csv").write_text("question,answer,case_sensitive\n" + "".join(f"\"{q}\",{a},false\n"
                                                                               for q, a in CASE_SHEET), encoding="utf-8")
    (run / "prep.py").write_text(PREP_CSV_FLAG_PY)
    code = run_eval(ctx, f"{BIN}/python prep.py\n" + pipeline_lines(url), "weekly eval: prep the sheet, then run")
    flags = [r["case_sensitive"] for r in rows_of(run / "string_match.jsonl")]
    got = rows_of(run / "rollouts.jsonl")
    text = everything(ctx)
    if flags != ["false"] * 6 or "expected bool, got str" not in text or any(rewards(got)):
        raise failed(ctx, f"exit {code}, {flags}, {rewards(got)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/sheet.csv (case_sensitive column, false); RUN/prep.py (copies the column's text); RUN/run_eval.sh "
            f"(prep, materialize 6 x 3, collect, profile) exit {code}; case_sensitive in the data {flags[0]!r}; "
            f"{len(got)} rollouts written, {sum(1 for r in got if r.get('reward'))} scored above 0.")


# =====================================================================================================
# verifier_runtime (task folder)
# =====================================================================================================

ERR_TRAP_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# fallback: if any command of the check fails, the check is broken -> reward 0
trap 'echo 0 > /logs/verifier/reward.txt' ERR
cd /app
if test "$(tr -d "[:space:]" < /app/count.txt 2>/dev/null)" = "3"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
# tidy up the check's scratch files
rm /tmp/check_scratch_*
"""


def err_trap(tasks: Path) -> None:
    write_task_file(tasks, "count-error-lines", "tests/test.sh", ERR_TRAP_TEST_SH)


@case(
    "verifier_runtime_taskfolder_test_sh_err_trap_fallback_fires_on_failing_scratch_cleanup_after_pass_and_rewrites_zero",
    "verifier_runtime",
    ["test.sh", "trap", "ERR", "rm -f"],
    "the author of count-error-lines added to tests/test.sh a fallback `trap 'echo 0 > /logs/verifier/reward.txt' "
    "ERR` and, after the check, a cleanup `rm /tmp/check_scratch_*`; the check makes no scratch files, so rm fails "
    "('cannot remove'), the ERR trap fires after PASS was written and overwrites reward.txt with 0: every episode of "
    "the task scored 0 although the agent wrote the right count, while create-greeting scored (every command exits 0)",
)
def verifier_runtime_taskfolder_test_sh_err_trap_fallback_fires_on_failing_scratch_cleanup_after_pass_and_rewrites_zero(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["count-error-lines", "create-greeting"], edit=err_trap, repeats=4)
    counts, greeting = task_rewards(ctx, "count-error-lines"), task_rewards(ctx, "create-greeting")
    text = everything(ctx)
    if code or not counts or any(counts) or not any(greeting) or "PASS" not in text:
        raise failed(ctx, f"exit {code}, {counts} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/count-error-lines/tests/test.sh (`trap 'echo 0 > reward.txt' ERR`, then `rm "
            f"/tmp/check_scratch_*` after the check); RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, "
            f"profile x 2) exit {code}; count-error-lines rewards {counts}, create-greeting {greeting}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

DRIVER_PY = '''"""drive_eval.py STEP MODEL_URL: the weekly eval, with a cache so a re-run after preemption is free."""
import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

GP = "{gp}"
step, url = sys.argv[1], sys.argv[2]
print(f"== evaluating {{step}} at {{url}}", flush=True)
subprocess.run([GP, "materialize", "--input", "string_match.jsonl", "--num-repeats", "3", "--agent",
                "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
key = hashlib.sha256(Path("rollouts_materialized_inputs.jsonl").read_bytes()).hexdigest()[:16]
cached = Path(".eval_cache") / f"{{key}}.jsonl"
if cached.exists():
    print(f"cache hit {{cached}}: reusing rollouts", flush=True)
    shutil.copy(cached, "rollouts.jsonl")
else:
    subprocess.run([GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                    "--model-url", url, "--env", "string_match", "--concurrency", "4"], check=True)
    cached.parent.mkdir(exist_ok=True)
    shutil.copy("rollouts.jsonl", cached)
subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
               check=True)
print(f"{{step}}: done", flush=True)
'''


@case(
    "cache_resume_builtin_python_driver_caches_rollouts_under_hash_of_materialized_inputs_so_new_checkpoint_reuses_old_ones",
    "cache_resume",
    ["drive_eval.py", ".eval_cache", "sha256", "url"],
    "the user's drive_eval.py caches collect's output in .eval_cache/<sha256 of rollouts_materialized_inputs.jsonl>"
    ".jsonl and copies it instead of collecting when it exists; the key covers the inputs only, not the model URL "
    "or step, so this week's step_0200 run found last week's step_0100 entry ('cache hit'), never called the "
    "step_0200 server, and profiled step_0100's rollouts as step_0200's (every command exits 0)",
)
def cache_resume_builtin_python_driver_caches_rollouts_under_hash_of_materialized_inputs_so_new_checkpoint_reuses_old_ones(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (older, better) = builtin_rows(ctx, 6, 42)
    url_old, old_server = ctx.policy(older, "--latency-ms 20", log="logs/model_server_step_0100.log")
    (run / "drive_eval.py").write_text(DRIVER_PY.format(gp=GP))
    (run / "logs").mkdir(exist_ok=True)
    ctx.note("(last week:)")
    first = ctx.sh(f"cd {run} && {BIN}/python drive_eval.py step_0100 {url_old}", "logs/drive_step_0100.log",
                   timeout=300)
    ctx.stop(old_server)
    before = text_of(run / "rollouts.jsonl")
    url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server_step_0200.log")
    ctx.note("(this week:)")
    code = ctx.sh(f"cd {run} && {BIN}/python drive_eval.py step_0200 {url}", "logs/drive_step_0200.log", timeout=300)
    log = log_of(ctx, "drive_step_0200.log")
    got = rows_of(run / "rollouts.jsonl")
    if first or code or len(got) != 18 or text_of(run / "rollouts.jsonl") != before or "cache hit" not in log:
        raise failed(ctx, f"exit {first}/{code}, {len(got)}: {log[-1500:]}")
    return (f"RUN/drive_eval.py (cache keyed on sha256 of the materialized inputs only); last week's step_0100 run "
            f"exit {first}; this week's step_0200 run exit {code} ('cache hit'); {len(got)} rollouts of step_0100, "
            f"mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# infra (Docker)
# =====================================================================================================


@case(
    "infra_docker_collect_container_runs_as_uid_1000_of_shared_ci_template_which_cannot_use_root_owned_eval_files",
    "infra",
    ["docker", "--user", "1000:1000", "root"],
    "run_eval.sh starts the collect container with `--user 1000:1000`, taken from the shared CI container template, "
    "while the eval's Python, its venv and the run folder on this node belong to root and are not open to other "
    "users, so the container failed with 'Permission denied' before collecting anything, and no rollout was "
    "collected although the policy server was up",
)
def infra_docker_collect_container_runs_as_uid_1000_of_shared_ci_template_which_cannot_use_root_owned_eval_files(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 78)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h99-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, "--user 1000:1000", "collect runs in the eval container "
                                   "(user from the shared CI container template)")
    (run / "logs").mkdir(exist_ok=True)
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) or "ermission denied" not in log or "collect container exit: 0" in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run --user 1000:1000 ... python -m gym_pipeline.cli "
            f"collect`, profile) exit {code}; permission denied in the container; {complete(ctx)} rollouts collected.")


# =====================================================================================================
# model_serving
# =====================================================================================================

EVAL_TOML = """# eval settings of the weekly run (read by run_eval.sh)
[eval]
dataset = "string_match.jsonl"
num_repeats = 3
concurrency = 4
model_url = "http://127.0.0.1:{port}/v1"
"""


@case(
    "model_serving_builtin_policy_server_started_with_ipv6_loopback_host_from_cluster_template_so_ipv4_eval_url_is_refused",
    "model_serving",
    ["serve-policy", "--host", "::1", "127.0.0.1"],
    "the policy server was started with `--host ::1` (the serving flags copied from the IPv6-only cluster's "
    "template) on the port of eval.toml, so it listens on the IPv6 loopback only; eval.toml's model_url "
    "http://127.0.0.1:PORT/v1 reaches nothing on IPv4: collect's connections were refused ('Connect call failed "
    "('127.0.0.1', PORT)'), it gave up and no rollout was collected although the server was up on [::1]",
)
def model_serving_builtin_policy_server_started_with_ipv6_loopback_host_from_cluster_template_so_ipv4_eval_url_is_refused(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 54)
    port = free_port()
    ready = ctx.work / "policy-ready-ipv6"
    ctx.bg(f"{GP} serve-policy --host ::1 --port {port} --ready-file {ready} --checkpoint {better} --latency-ms 20",
           "logs/model_server.log")
    wait_for(lambda: ready.exists() and ready.read_text().strip() != "", 30, "the simulated policy")
    served = ready.read_text().strip()
    (run / "eval.toml").write_text(EVAL_TOML.format(port=port))
    body = (f"MODEL_URL=$({BIN}" + "/python -c 'import tomllib; print(tomllib.load(open(\"eval.toml\", \"rb\"))"
            "[\"eval\"][\"model_url\"])')\necho \"== model at $MODEL_URL\"\n"
            + pipeline_lines("$MODEL_URL"))
    code = run_eval(ctx, body, "weekly eval; endpoint from eval.toml")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if "::1" not in served or f"127.0.0.1:{port}" not in log or complete(ctx) or "Connect call failed" not in log:
        raise failed(ctx, f"exit {code}, {served}, {complete(ctx)}: {log[-1500:]}")
    return (f"the policy server started with `--host ::1 --port {port}` (ready at {served}); RUN/eval.toml "
            f"(model_url http://127.0.0.1:{port}/v1); RUN/run_eval.sh (materialize 6 x 3, collect, profile) exit "
            f"{code}; {complete(ctx)} rollouts settled, rewards {sorted(set(rewards(got)))}.")


if __name__ == "__main__":
    sys.exit(main("ninety_ninth_held_out", __file__, __doc__))
