"""Build the NINETY-SECOND HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/ninety_second_held_out.py --out tests/data/diagnosis_corpus/ninety_second_held_out [--only CASE ...]

This set was written after the ninety-one earlier sets (first_held_out.py ... ninety_first_held_out.py), from the
guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`),
the real NeMo Gym 0.7.0 (`gym env start`, `gym eval run`, `gym eval profile`) with the users' own resources servers,
Slurm jobs (sbatch, job arrays, open-mode and resource-limit propagation), and the user's own shell and Python
tooling, settings, data-preparation scripts and verifiers. The output of every command is captured as a user would
(`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data, scripts,
settings, verifier code). Each case injects one cause, different in mechanism from those of the 91 earlier
sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not
written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Slurm
(SLURM_CONF, the fourth single-node cluster), and PYTHONPATH set to this checkout. Run it from a foreground shell. It
makes no Docker containers.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import failed, gym_start, stop_gym  # noqa: E402
from eighty_eighth_held_out import PLAIN_SUBMIT, PLUS_PAIRS, WAIT_LINES, labelled, with_import  # noqa: E402
from eighty_sixth_held_out import job_ids, slurm_week, user_file  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_first_held_out import keys_of  # noqa: E402
from fifty_ninth_held_out import gym_own_server, own_eval_script  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from ninetieth_held_out import CAPITALS, DL_FIXED, DL_PAIRS_OLD, labels_csv, slurm_run, timed_eval_script  # noqa: E402
from recipes import BIN, Ctx, case, gym_model_args, main, replace_verify, rows_of, text_of, wait_for  # noqa: E402
from seventy_ninth_held_out import run_eval  # noqa: E402
from sixty_fourth_held_out import pipeline_lines  # noqa: E402
from sixty_third_held_out import gym_script, gym_up, mean_of, scancel_ids  # noqa: E402
from thirtieth_held_out import gym_rows  # noqa: E402
from twenty_fourth_held_out import gym_eval_line, gym_profile_line  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_third_held_out import write_jsonl  # noqa: E402

recipes.SERVICES_ENV["SLURM_CONF"] = "/tmp/gym-pipeline-services/slurm-4/slurm.conf"

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()

PY_BIN = str(BIN / "python")


def profile_of(ctx: Ctx, folder: str = "results") -> list[dict]:
    return rows_of(next(iter(ctx.run.glob(f"{folder}/*reward_profiling*.jsonl")), ctx.run / "none"))


def prompt_of(row: dict) -> str:
    return row["responses_create_params"]["input"][0]["content"][0]["text"]


# =====================================================================================================
# config (Slurm): the shard array spreads tasks with Python's hash(), salted anew in every process
# =====================================================================================================

SHARD_PY = '''"""shard.py K N: this array task's share of string_match.jsonl -> shard_K/tasks.jsonl.

A task goes to the shard its question text hashes to, so the spread does not depend on the row order."""
import json
import os
import sys

k, n = int(sys.argv[1]), int(sys.argv[2])
rows = [json.loads(line) for line in open("string_match.jsonl") if line.strip()]
mine = [row for row in rows if hash(row["responses_create_params"]["input"][0]["content"][0]["text"]) % n == k]
os.makedirs(f"shard_{k}", exist_ok=True)
with open(f"shard_{k}/tasks.jsonl", "w") as out:
    out.writelines(json.dumps(row) + "\\n" for row in mine)
print(f"shard {k}/{n}: {len(mine)} of {len(rows)} tasks")
'''

SHARD_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval-shards
#SBATCH --array=0-2
#SBATCH --output=RUN_DIR/logs/shard_%a.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
# the weekly eval in three shards, one per array task; each shard evaluates its own share of the tasks
cd RUN_DIR
K=$SLURM_ARRAY_TASK_ID
PY_BIN shard.py $K 3
cd shard_$K
GP_BIN materialize --input tasks.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL_VALUE \\
  --env string_match --concurrency 4
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""

SHARD_SUBMIT = """#!/bin/bash
# submit.sh: the weekly eval as a three-shard array job, then a summary per shard
cd RUN_DIR
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted shard array $JOB"
WAIT_LINES
for k in 0 1 2; do
  echo "== shard $k: $(wc -l < shard_$k/rollouts.jsonl) rollouts"
  cat logs/shard_$k.log
done
echo "rollouts in all: $(cat shard_*/rollouts.jsonl | wc -l)"
"""


@case(
    "config_slurm_shard_array_spreads_tasks_by_python_hash_of_question_which_each_array_task_salts_differently",
    "config",
    ["hash", "PYTHONHASHSEED", "shard.py", "hashlib"],
    "the user's shard.py gives every array task of the weekly eval its share of the tasks by `hash(question) % 3`; "
    "Python salts str hashes anew in every process (PYTHONHASHSEED is random by default), so the three array tasks "
    "computed three different spreads: some questions were evaluated by two or three shards and others by none, "
    "although every job step exited 0",
)
def config_slurm_shard_array_spreads_tasks_by_python_hash_of_question_which_each_array_task_salts_differently(
        ctx: Ctx) -> str:
    run = ctx.run
    (run / "shard.py").write_text(SHARD_PY)
    code, url = slurm_week(ctx, PLUS_PAIRS, {"eval.sbatch": (SHARD_SBATCH, {"PY_BIN": PY_BIN}),
                                            "submit.sh": (SHARD_SUBMIT, {"WAIT_LINES": WAIT_LINES})})
    seen: dict[str, int] = {}
    for k in range(3):
        for row in rows_of(run / f"shard_{k}" / "tasks.jsonl"):
            seen[prompt_of(row)] = seen.get(prompt_of(row), 0) + 1
    missing = len(PLUS_PAIRS) - len(seen)
    twice = sum(1 for count in seen.values() if count > 1)
    shard_rollouts = sum(len(rows_of(run / f"shard_{k}" / "rollouts.jsonl")) for k in range(3))
    log = log_of(ctx, "submit.log")
    if code or (missing == 0 and twice == 0) or shard_rollouts == 0 or "shard 2/3" not in log:
        raise failed(ctx, f"exit {code}, missing {missing}, twice {twice}: {log[-1500:]}")
    return (f"RUN/shard.py (hash(question) % 3); RUN/eval.sbatch (array 0-2: shard.py, materialize, collect "
            f"against {url}, profile per shard); RUN/submit.sh (sbatch, wait, summary) exit {code}; {missing} of 9 "
            f"questions in no shard, {twice} in more than one; {shard_rollouts} rollouts over the shards.")


# =====================================================================================================
# data_schema (real NeMo Gym): prep.sh reads the JSONL with `read` without -r, which eats backslashes
# =====================================================================================================

CONTEXT_PAIRS = [
    ("Context: the river Liffey runs through it.\nWhat is the capital of Ireland?", "Dublin"),
    ("How many sides does a hexagon have?", "6"),
    ("Context: the Acropolis overlooks it.\nWhat is the capital of Greece?", "Athens"),
    ("How many days are in a leap year?", "366"),
    ("Context: it is built on fourteen islands.\nWhat is the capital of Sweden?", "Stockholm"),
    ("How many continents are there on Earth?", "7"),
]
CONTEXT_ANSWERS = ("Dublin", "Athens", "Stockholm")

READ_PREP_SH = """#!/bin/bash
# prep.sh: tag every task of the question bank's export with this week's split, for the dashboard
WEEK=weekly-2026-W49
while read line; do
  echo "${line%\\}}, \\"metadata\\": {\\"split\\": \\"$WEEK\\"}}"
done < bank_export.jsonl > tasks.jsonl
echo "prep: $(wc -l < tasks.jsonl) tasks tagged $WEEK"
"""


@case(
    "data_schema_gym_prep_sh_tags_tasks_in_while_read_loop_without_r_so_escaped_newlines_of_prompts_become_letter_n",
    "data_schema",
    ["read -r", "prep.sh", "backslash", "\\n"],
    "the user's prep.sh copies the question bank's export line by line with `while read line` (no -r) to add a "
    "metadata split tag; without -r, read drops every backslash, so the escaped line breaks `\\n` of the three "
    "prompts that carry a context line became a plain letter n ('...runs through it.nWhat is the capital...'): those "
    "tasks no longer hold the questions the labels answer, the model did not recognise them and they scored 0 while "
    "the one-line prompts scored (every command exits 0)",
    netns=True,
)
def data_schema_gym_prep_sh_tags_tasks_in_while_read_loop_without_r_so_escaped_newlines_of_prompts_become_letter_n(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "bank_export.jsonl", [question_row(q, a) for q, a in CONTEXT_PAIRS])
    (run / "prep.sh").write_text(READ_PREP_SH)
    _, better = truth_checkpoints(ctx, CONTEXT_PAIRS)
    overrides, env_start, policy = gym_up(ctx, better)
    script = gym_script(ctx, "weekly eval: tag the bank export, then gym eval run and profile",
                        ["bash prep.sh", gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 4),
                         gym_profile_line("results")])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    mangled = labelled(got, *CONTEXT_ANSWERS)
    plain = [r for r in got if r not in mangled]
    tasks = rows_of(run / "tasks.jsonl")
    if code or len(keys_of(got)) != 18 or any(rewards(mangled)) or not any(rewards(plain)) \
            or not any(".nWhat is" in prompt_of(r) for r in tasks) or any("\n" in prompt_of(r) for r in tasks):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(mangled)}, {rewards(plain)}: "
                          f"{log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/bank_export.jsonl (three prompts with a context line, `\\n` in JSON); RUN/prep.sh (`while read "
            f"line` without -r, metadata tag appended); real `gym env start` (loopback-only namespace) against "
            f"step_0200; RUN/run_eval.sh (prep, `gym eval run --no-serve` 6 x 3, `gym eval profile`) exit {code}; "
            f"context-prompt rewards {rewards(mangled)}, one-line mean {mean_of(plain):.2f}.")


# =====================================================================================================
# verifier_runtime (real NeMo Gym): the verify calls the now-async normaliser without await
# =====================================================================================================

CORO_HELPER = '''

async def _canonical(text: str) -> str:
    """The team's answer normaliser (async since it became a call to the alias service; cached there)."""
    await asyncio.sleep(0)
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split()).rstrip(".")

'''

CORO_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        reward = 0.0
        if extracted is not None and body.expected_answer:
            # aliases and spelling variants are resolved by the team's normaliser
            reward = 1.0 if _canonical(extracted) == _canonical(body.expected_answer) else 0.0

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


def coro_app(app: str) -> str:
    app = with_import(replace_verify(app, CORO_VERIFY), "import asyncio")
    marker = "class StringMatchResourcesServer("
    return app.replace(marker, CORO_HELPER.lstrip("\n") + "\n" + marker, 1)


@case(
    "verifier_runtime_gym_own_verify_compares_unawaited_coroutines_of_async_normaliser_so_every_answer_scores_zero",
    "verifier_runtime",
    ["await", "_canonical", "coroutine", "verify"],
    "the user's own resources server quiz_alias compares `_canonical(extracted) == _canonical(expected)`, but "
    "_canonical became an async function when the normaliser moved to the alias service and the call sites were not "
    "given `await`; each call returns a coroutine object, two coroutine objects are never equal, so every "
    "verification returned reward 0 (Python only warns 'coroutine ... was never awaited') although the model's "
    "answers were right and every command exited 0",
    netns=True,
)
def verifier_runtime_gym_own_verify_compares_unawaited_coroutines_of_async_normaliser_so_every_answer_scores_zero(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in CAPITALS])
    _, better = truth_checkpoints(ctx, CAPITALS)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "quiz_alias", coro_app, better,
        "(the user's quiz_alias server: Gym's string_match verify comparing the results of an async normaliser "
        "called without await)")
    script = own_eval_script(ctx, search, overrides, "quiz_alias", comment="weekly eval")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    extracted = [r for r in got if r.get("extracted_answer") and str(r["extracted_answer"]).lower()
                 == str(r.get("expected_answer")).lower()]
    if code or len(keys_of(got)) != 18 or any(rewards(got)) or len(extracted) < 6 \
            or "never awaited" not in text_of(run / "env_start.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}, {len(extracted)}: "
                          f"{text_of(run / 'env_start.log')[-1500:]}")
    return (f"RUN/my_gym/resources_servers/quiz_alias/app.py (verify: `_canonical(extracted) == "
            f"_canonical(expected)` with async _canonical, no await); real `gym env start` (loopback-only namespace) "
            f"with it; RUN/run_eval.sh (`gym eval run --no-serve` 6 x 3, `gym eval profile`) exit {code}; "
            f"{len(extracted)} rollouts whose extracted answer equals the label, all {len(got)} rewarded 0.")


# =====================================================================================================
# cache_resume (real NeMo Gym): the reviewers' fixes are merged after the labels with `sort -u`, which keeps the first
# =====================================================================================================

SORT_PREP_SH = """#!/bin/bash
# prep.sh: labels.csv (last export) + fixes.csv (the reviewers' corrections, which win) -> tasks.jsonl
set -e
tail -n +2 labels.csv > /tmp/labels.$$
tail -n +2 fixes.csv > /tmp/fixes.$$
# one row per question; a question in fixes.csv replaces the one in labels.csv
cat /tmp/labels.$$ /tmp/fixes.$$ | sort -t, -k1,1 -u > merged.csv
rm -f /tmp/labels.$$ /tmp/fixes.$$
echo "prep: $(wc -l < merged.csv) questions, $(wc -l < fixes.csv | awk '{print $1 - 1}') corrections applied"
PY_BIN to_jsonl.py merged.csv tasks.jsonl
"""

TO_JSONL_PY = '''"""to_jsonl.py CSV JSONL: question,answer rows (no header) -> string_match tasks."""
import csv
import json
import sys

rows = []
with open(sys.argv[1], newline="") as f:
    for question, answer in csv.reader(f):
        text = f"{question} End your response with 'Final answer: <answer>'."
        rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                              "content": [{"type": "input_text", "text": text}]}]},
                     "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False})
with open(sys.argv[2], "w") as out:
    out.writelines(json.dumps(r) + "\\n" for r in rows)
print(f"to_jsonl: {len(rows)} tasks written")
'''


@case(
    "cache_resume_gym_prep_merges_reviewer_fixes_after_old_labels_with_sort_unique_which_keeps_the_first_so_fixes_never_apply",
    "cache_resume",
    ["sort", "-u", "fixes.csv", "prep.sh"],
    "the user's prep.sh merges the reviewers' corrections into last week's labels with `cat labels.csv fixes.csv | "
    "sort -t, -k1,1 -u`, meaning the later fixes to win; sort -u keeps the FIRST line of each question, the old "
    "label from labels.csv, so the two corrections (Sydney -> Canberra, Zurich -> Bern) were dropped and the eval "
    "graded against the stale labels: the model's right answers to those questions scored 0 (every command exits 0)",
    netns=True,
)
def cache_resume_gym_prep_merges_reviewer_fixes_after_old_labels_with_sort_unique_which_keeps_the_first_so_fixes_never_apply(
        ctx: Ctx) -> str:
    run = ctx.run
    fixed = [(q, DL_FIXED.get(a, a)) for q, a in DL_PAIRS_OLD]
    labels_csv(run / "labels.csv", DL_PAIRS_OLD)
    labels_csv(run / "fixes.csv", [(q, a) for q, a in fixed if (q, a) not in DL_PAIRS_OLD])
    (run / "prep.sh").write_text(SORT_PREP_SH.replace("PY_BIN", PY_BIN))
    (run / "to_jsonl.py").write_text(TO_JSONL_PY)
    _, better = truth_checkpoints(ctx, fixed)
    overrides, env_start, policy = gym_up(ctx, better)
    script = gym_script(ctx, "weekly eval: merge the reviewers' fixes, then gym eval run and profile",
                        ["bash prep.sh", gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 4),
                         gym_profile_line("results")])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    stale = labelled(got, *DL_FIXED)
    others = [r for r in got if r not in stale]
    if code or len(keys_of(got)) != 18 or len(stale) != 6 or any(rewards(stale)) or not any(rewards(others)) \
            or "Canberra" in text_of(run / "merged.csv"):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(stale)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/labels.csv (last export) and RUN/fixes.csv (two corrections); RUN/prep.sh (`cat labels fixes | sort "
            f"-t, -k1,1 -u`, to_jsonl.py); real `gym env start` (loopback-only namespace) against step_0200; "
            f"RUN/run_eval.sh (prep, `gym eval run --no-serve` 6 x 3, `gym eval profile`) exit {code}; rewards of "
            f"the two uncorrected labels {rewards(stale)}, others mean {mean_of(others):.2f}.")


# =====================================================================================================
# throughput_resources (real NeMo Gym): the verify holds one module-level asyncio.Lock across the alias lookup
# =====================================================================================================

LOCK_HELPER = '''
# the alias service client keeps one connection and is not safe for concurrent use: one lookup at a time
_ALIAS_LOCK = asyncio.Lock()


async def _alias_lookup(answer: str) -> str:
    """The alias service's canonical form of `answer` (a network round trip of about 1.5 s)."""
    asked = time.monotonic()
    async with _ALIAS_LOCK:
        got_lock = time.monotonic()
        await asyncio.sleep(1.5)  # the alias service round trip
        print(f"alias lookup {answer!r}: {time.monotonic() - got_lock:.1f} s, waited {got_lock - asked:.1f} s for "
              f"the client lock", flush=True)
        return answer

'''

LOCK_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        reward = 0.0
        if extracted is not None and body.expected_answer:
            canonical = await _alias_lookup(extracted)
            reward = _answers_match(canonical, body.expected_answer, body.case_sensitive)

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


def lock_app(app: str) -> str:
    app = with_import(replace_verify(app, LOCK_VERIFY), "import asyncio\nimport time")
    marker = "class StringMatchResourcesServer("
    return app.replace(marker, LOCK_HELPER.lstrip("\n") + "\n" + marker, 1)


@case(
    "throughput_gym_own_verify_holds_module_wide_asyncio_lock_across_alias_lookup_so_verifications_queue_past_ci_budget",
    "throughput_resources",
    ["_ALIAS_LOCK", "asyncio.Lock", "lock", "concurrent"],
    "the user's own resources server quiz_lock resolves every answer through the alias service (1.5 s a lookup) "
    "under one module-wide `asyncio.Lock` (_ALIAS_LOCK, added because the client is not safe for concurrent use), "
    "held across the awaited round trip; Gym sends four rollouts at a time but verifications pass the lock one by "
    "one, so 24 lookups take about 36 s and the CI step's `timeout 30` stopped `gym eval run` before the eval was "
    "through: rollouts are missing and the profile is refused or partial, although the model and servers were fine",
    netns=True,
)
def throughput_gym_own_verify_holds_module_wide_asyncio_lock_across_alias_lookup_so_verifications_queue_past_ci_budget(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in CAPITALS])
    _, better = truth_checkpoints(ctx, CAPITALS)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "quiz_lock", lock_app, better,
        "(the user's quiz_lock server: every verification awaits a 1.5 s alias lookup under one module-wide "
        "asyncio.Lock)")
    script = timed_eval_script(ctx, search, overrides, "quiz_lock", 30, 4, "weekly eval with our quiz_lock server")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    waits = text_of(run / "env_start.log").count("for the client lock")
    log = log_of(ctx, "run_eval.log")
    if len(keys_of(got)) >= 24 or "eval step exit: 124" not in log or waits < 5:
        raise failed(ctx, f"exit {code}, {len(got)}, {waits}: {log[-1500:]}")
    return (f"RUN/my_gym/resources_servers/quiz_lock/app.py (verify awaits a 1.5 s alias lookup under one "
            f"asyncio.Lock); real `gym env start` (loopback-only namespace) with it; RUN/run_eval.sh (`timeout 30 gym "
            f"eval run --no-serve` 6 x 4 at concurrency 4, `gym eval profile`) exit {code}; eval step exit 124; "
            f"{waits} lookups logged; {len(keys_of(got))} of 24 rollouts written.")


# =====================================================================================================
# model_serving (real NeMo Gym): the serve script is the load-test runbook's, fault injection and all
# =====================================================================================================

FAULT_SERVE_SH = """#!/bin/bash
# serve.sh: serve this week's checkpoint for the eval
# (command line taken from the serving runbook, section "load test: does the client survive a flaky server")
exec GP_BIN serve-policy --port 0 --ready-file RUN_DIR/server_url.txt --checkpoint CKPT --latency-ms 30 \\
  --fault-rate 0.7 --fault-kinds 5xx,drop --fault-seed 11
"""


@case(
    "model_serving_gym_serve_script_copied_from_load_test_runbook_keeps_fault_injection_flags_so_model_calls_fail",
    "model_serving",
    ["--fault-rate", "--fault-kinds", "serve.sh", "runbook"],
    "the user's serve.sh starts the model server with the command line of the serving runbook's load-test section, "
    "which injects faults on purpose (`--fault-rate 0.7 --fault-kinds 5xx,drop`): most chat completions came back "
    "500/502/503 or had their connection dropped, Gym retried them and gave up on some, so rollouts failed "
    "(rollouts_failures.jsonl) and are missing from the profile, although the verifier, data and Gym were fine",
    netns=True,
)
def model_serving_gym_serve_script_copied_from_load_test_runbook_keeps_fault_injection_flags_so_model_calls_fail(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in CAPITALS])
    _, better = truth_checkpoints(ctx, CAPITALS)
    user_file(ctx, "serve.sh", FAULT_SERVE_SH, CKPT=str(better))
    server = ctx.bg(f"bash {run}/serve.sh", "logs/model_server.log")
    wait_for(lambda: (run / "server_url.txt").exists() and text_of(run / "server_url.txt").strip() != "", 30,
             "the model server of serve.sh")
    url = text_of(run / "server_url.txt").strip()
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    script = gym_script(ctx, "weekly eval against the server of serve.sh",
                        [gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 4),
                         gym_profile_line("results")])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, server)
    got = gym_rows(ctx)
    crashed = rows_of(run / "results" / "rollouts_failures.jsonl")
    if len(keys_of(got)) >= 18 or len(crashed) < 3:
        raise failed(ctx, f"exit {code}, {len(got)}, {len(crashed)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/serve.sh (serve-policy of step_0200 with --fault-rate 0.7 --fault-kinds 5xx,drop, from the load-test "
            f"runbook); real `gym env start` (loopback-only namespace) against it; RUN/run_eval.sh (`gym eval run "
            f"--no-serve` 6 x 3, `gym eval profile`) exit {code}; {len(crashed)} failed attempts in the sidecar; "
            f"{len(keys_of(got))} of 18 rollouts.")


# =====================================================================================================
# infra (Slurm): the submitting shell's CPU-time limit is propagated into the batch job
# =====================================================================================================

CPU_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
echo "job $SLURM_JOB_ID on $(hostname) ($(date +%T))"
cd RUN_DIR
PIPELINE
echo "job done ($(date +%T))"
"""


@case(
    "infra_slurm_ci_runner_cpu_time_cap_of_submitting_shell_is_propagated_into_eval_job_so_every_step_dies_of_sigxcpu",
    "infra",
    ["ulimit", "CPU time", "PropagateResourceLimits", "limit"],
    "the weekly eval is submitted from the CI runner, whose pre-step hook caps every process at 1 s of CPU time "
    "(`ulimit -t 1`, meant to stop runaway lint steps); Slurm propagates the submitting shell's resource limits into "
    "the batch job by default (PropagateResourceLimits=ALL), so inside the job every step (`gym-pipeline "
    "materialize`, `collect`, `profile`) was killed with SIGXCPU ('CPU time limit exceeded') within its first CPU "
    "second and nothing was collected, although the job script, the data and the policy server were fine",
)
def infra_slurm_ci_runner_cpu_time_cap_of_submitting_shell_is_propagated_into_eval_job_so_every_step_dies_of_sigxcpu(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20", log="model_server.log")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(CPU_SBATCH.replace("PIPELINE", pipeline_lines(url)).replace("RUN_DIR", str(run)))
    user_file(ctx, "submit.sh", PLAIN_SUBMIT, WAIT_LINES=WAIT_LINES)
    ctx.note("(the CI runner's pre-step hook: `ulimit -t 1` for every step's shell; submit.sh runs under it)")
    before = set(job_ids(ctx))
    try:
        code = ctx.sh(f"ulimit -t 1; bash {run}/submit.sh", "logs/submit.log", timeout=300)
    finally:
        scancel_ids(ctx, *(set(job_ids(ctx)) - before))
    log = log_of(ctx, "submit.log")
    if complete(ctx) or "CPU time limit exceeded" not in log or "submitted eval job" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.sbatch (materialize 9 x 3, collect against {url}, profile); RUN/submit.sh (sbatch, wait) run "
            f"from a shell with `ulimit -t 1` (the CI runner's hook) exit {code}; 'CPU time limit exceeded' in the "
            f"job log; {complete(ctx)} rollouts.")


# =====================================================================================================
# healthy (Slurm): the job log is opened in append mode and still holds last week's failed run
# =====================================================================================================

APPEND_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/weekly_eval.log
#SBATCH --open-mode=append
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
# one log for the weekly eval, appended to week after week (the team's dashboard tails it)
echo "===== weekly eval, job $SLURM_JOB_ID, $(date '+%F %T') ====="
cd RUN_DIR
PIPELINE
echo "===== job $SLURM_JOB_ID done ====="
"""

APPEND_SUBMIT = """#!/bin/bash
# submit.sh: the weekly eval as one Slurm job
cd RUN_DIR
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
WAIT_LINES
cat logs/weekly_eval.log
"""


@case(
    "healthy_slurm_eval_job_log_opened_in_append_mode_still_shows_last_weeks_failed_run_above_this_weeks_clean_one",
    "healthy",
    [],
    "nothing is wrong: the eval job writes its log with `#SBATCH --open-mode=append` to one fixed file, so "
    "logs/weekly_eval.log begins with last week's run, whose collect failed because last week's model server was "
    "gone ('model endpoint ... did not answer after 3 attempts'); this week's job, appended below it, materialized, "
    "collected every rollout against the running server and profiled them",
)
def healthy_slurm_eval_job_log_opened_in_append_mode_still_shows_last_weeks_failed_run_above_this_weeks_clean_one(
        ctx: Ctx) -> str:
    from gym_pipeline.host import free_loopback_port

    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    gone = f"http://127.0.0.1:{free_loopback_port()}/v1"
    user_file(ctx, "submit.sh", APPEND_SUBMIT, WAIT_LINES=WAIT_LINES)
    (run / "eval.sbatch").write_text(APPEND_SBATCH.replace("PIPELINE", pipeline_lines(gone)).replace("RUN_DIR",
                                                                                                      str(run)))
    ctx.note(f"(last week: eval.sbatch against last week's server {gone}, which had been stopped)")
    first = slurm_run(ctx, log="logs/submit_last_week.log")
    url, _ = ctx.policy(better, "--latency-ms 20", log="model_server.log")
    (run / "eval.sbatch").write_text(APPEND_SBATCH.replace("PIPELINE", pipeline_lines(url)).replace("RUN_DIR",
                                                                                                     str(run)))
    ctx.note(f"(this week: eval.sbatch's model URL changed to this week's server {url})")
    code = slurm_run(ctx)
    log = log_of(ctx, "submit.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 27 or log.count("===== weekly eval, job") != 2 or "did not answer" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {first}/{code}, {complete(ctx)}: {log[-2000:]}")
    return (f"RUN/eval.sbatch (#SBATCH --open-mode=append, one fixed log); last week's run against {gone} (stopped "
            f"server) exit {first}; this week's against {url}: RUN/submit.sh (sbatch, wait, cat log) exit {code}; "
            f"{complete(ctx)} of 27 rollouts, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# healthy (real NeMo Gym): the user's server compiles a regex from a plain string, Python warns at import
# =====================================================================================================

UNIT_HELPER = '''
# answers sometimes carry a unit the labels leave out ("6 sides", "366 days")
_TRAILING_UNIT = re.compile("\\s+(sides|days|continents)$", re.IGNORECASE)

'''

UNIT_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        if extracted is not None:
            extracted = _TRAILING_UNIT.sub("", extracted)

        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


def unit_app(app: str) -> str:
    app = replace_verify(app, UNIT_VERIFY)
    marker = "class StringMatchResourcesServer("
    return app.replace(marker, UNIT_HELPER.lstrip("\n") + "\n" + marker, 1)


@case(
    "healthy_gym_own_server_compiles_unit_regex_from_plain_string_so_python_prints_syntaxwarning_invalid_escape",
    "healthy",
    [],
    "nothing is wrong: the user's own resources server quiz_units strips a trailing unit from answers with "
    "`re.compile(\"\\s+(sides|days|continents)$\")`, written as a plain (not raw) string; Python prints "
    "'SyntaxWarning: invalid escape sequence' when it compiles app.py, but keeps the unknown escape as a backslash and "
    "an s, so the pattern is the intended one, the server started, every rollout was graded and the profile completed",
    netns=True,
)
def healthy_gym_own_server_compiles_unit_regex_from_plain_string_so_python_prints_syntaxwarning_invalid_escape(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in CAPITALS])
    _, better = truth_checkpoints(ctx, CAPITALS)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "quiz_units", unit_app, better,
        "(the user's quiz_units server: Gym's string_match with a trailing-unit regex compiled from a plain string)")
    script = own_eval_script(ctx, search, overrides, "quiz_units", comment="weekly eval")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    warned = "invalid escape sequence" in text_of(run / "env_start.log")
    if code or len(keys_of(got)) != 18 or not any(rewards(got)) or len(profile_of(ctx)) != 6 or not warned:
        raise failed(ctx, f"exit {code}, {len(got)}, warned {warned}: {text_of(run / 'env_start.log')[-1500:]}")
    return (f"RUN/my_gym/resources_servers/quiz_units/app.py (re.compile of a plain string with \\s); real `gym env "
            f"start` (loopback-only namespace) with it, SyntaxWarning at start; RUN/run_eval.sh (`gym eval run "
            f"--no-serve` 6 x 3, `gym eval profile`) exit {code}; {len(keys_of(got))} of 18 rollouts, mean reward "
            f"{mean_of(got):.2f}.")


# =====================================================================================================
# healthy (built-in): the run script counts numeric labels with jq's tonumber, which errors on every word label
# =====================================================================================================


@case(
    "healthy_builtin_run_script_counts_numeric_labels_with_jq_tonumber_which_prints_an_error_for_every_word_label",
    "healthy",
    [],
    "nothing is wrong: before the eval, the user's run_eval.sh counts the numeric labels with `jq '.expected_answer "
    "| tonumber'`; jq prints 'jq: error ... Cannot parse ... as JSON' (or 'Invalid numeric literal') for each of the "
    "three word labels (Dublin, Athens, Stockholm) and goes on, the count is informative only, and materialize, "
    "collect and profile completed every rollout",
)
def healthy_builtin_run_script_counts_numeric_labels_with_jq_tonumber_which_prints_an_error_for_every_word_label(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in CAPITALS])
    _, better = truth_checkpoints(ctx, CAPITALS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = run_eval(ctx, "echo \"numeric labels: $(jq '.expected_answer | tonumber' string_match.jsonl | wc -l) of "
                    "$(wc -l < string_match.jsonl)\"\n" + pipeline_lines(url),
                    "weekly eval: count the numeric labels, materialize, collect, profile")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or log.count("jq: error") < 3 or "numeric labels: 3 of 6" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (jq tonumber count of numeric labels, materialize 6 x 3, collect against {url}, profile) "
            f"exit {code}; {log.count('jq: error')} jq errors; {complete(ctx)} of 18 rollouts, mean reward "
            f"{mean_of(got):.2f}.")


if __name__ == "__main__":
    sys.exit(main("ninety_second_held_out", __file__, __doc__))
