"""Build the EIGHTY-FOURTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/eighty_fourth_held_out.py --out tests/data/diagnosis_corpus/eighty_fourth_held_out [--only CASE ...]

This set was written after the eighty-three earlier sets (first_held_out.py ... eighty_third_held_out.py), from the
guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`), the real NeMo
Gym 0.7.0 (`gym env start`, `gym eval run`, `gym eval profile`) with the users' own resources servers, Slurm jobs
(sbatch wrappers, dependencies, the job's environment), and the user's own shell and Python tooling, settings,
data-preparation scripts and verifiers. The output of every command is captured as a user would
(`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data, scripts,
settings, verifier code). Each case injects one cause, different in mechanism from those of the eighty-three earlier
sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not
written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Slurm (the
local test cluster: one partition `debug`, one 2-CPU node), the real NeMo Gym 0.7.0, and PYTHONPATH set to this
checkout. Run it from a foreground shell. A recipe that changes the cluster's settings (an admin's action) restores
them at the end of the recipe.
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import failed, stop_gym  # noqa: E402
from eightieth_held_out import everything_in  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_first_held_out import keys_of  # noqa: E402
from fifty_ninth_held_out import gym_own_server, own_eval_script  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from recipes import GYM, Ctx, case, main, replace_verify, rows_of, text_of  # noqa: E402
from sixty_fourth_held_out import pipeline_lines  # noqa: E402
from sixty_third_held_out import gym_script, gym_up, mean_of, scancel_ids  # noqa: E402
from thirtieth_held_out import gym_rows  # noqa: E402
from twenty_fourth_held_out import gym_eval_line, gym_profile_line  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_sixth_held_out import slurm_script  # noqa: E402
from twenty_third_held_out import write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def user_file(ctx: Ctx, name: str, template: str, **values: str) -> Path:
    """RUN/<name> from `template` (RUN_DIR, GP_BIN and `values` filled in); RUN/logs made for job output."""
    (ctx.run / "logs").mkdir(exist_ok=True)
    path = ctx.run / name
    path.write_text(slurm_script(template, ctx, **values))
    return path


def submitted_ids(ctx: Ctx, *logs: str) -> list[str]:
    text = "".join(log_of(ctx, log) for log in logs)
    return re.findall(r"(?:Submitted batch job |job |shard job |jobs? )(\d+)", text)


def all_jobs(ctx: Ctx) -> list[str]:
    done = subprocess.run(["squeue", "-h", "-o", "%i"], env=ctx.env, capture_output=True, text=True, check=False)
    return done.stdout.split()


def job_log_text(ctx: Ctx, pattern: str = "*_*.log") -> str:
    return "".join(text_of(p) for p in sorted((ctx.run / "logs").glob(pattern)))


def by_label(rows: list[dict], *labels: str) -> list[dict]:
    return [r for r in rows if str(r.get("expected_answer")) in labels]


def answered(rows: list[dict], *answers: str) -> list[dict]:
    """The rollouts whose extracted answer is one of `answers` (the simulated policy makes a few near-miss slips)."""
    return [r for r in rows if str(r.get("extracted_answer")) in answers]


def gym_python() -> Path:
    return GYM.parent / "python"


# =====================================================================================================
# the user's own resources server: numbers compared by value with int(x, 0) (a healthy and a failing case)
# =====================================================================================================

CODE_QUIZ = [
    ("What is 31 written in hexadecimal, with the 0x prefix?", "0x1F"),
    ("What is James Bond's code number, written with its leading zeros?", "007"),
    ("How many sides does a hexagon have?", "6"),
    ("What is the capital of Norway?", "Oslo"),
    ("What is 5 written in binary, with the 0b prefix?", "0b101"),
    ("What is the month number of September, written with two digits?", "09"),
]
PADDED = ("007", "09")

INT0_VERIFY = '''    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        reward = 0.0
        if extracted is not None and body.expected_answer:
            got, want = extracted.strip(), body.expected_answer.strip()
            if want[:1].isdigit():
                # code answers compare by value: int(x, 0) also reads 0x1F, 0o17 and 0b101, so "0x1f" == "0x1F"
BLOCK
            else:
                reward = 1.0 if got.lower() == want.lower() else 0.0

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''
INT0_PLAIN = "                reward = 1.0 if int(got, 0) == int(want, 0) else 0.0"
INT0_GUARDED = """                try:
                    reward = 1.0 if int(got, 0) == int(want, 0) else 0.0
                except ValueError:  # int(x, 0) refuses zero-padded decimals like 007: compare the text
                    reward = 1.0 if got.lower() == want.lower() else 0.0"""


def code_quiz_week(ctx: Ctx, block: str, name: str) -> tuple[int, list[dict]]:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in CODE_QUIZ])
    _, better = truth_checkpoints(ctx, CODE_QUIZ)
    search, overrides, env_start, policy = gym_own_server(
        ctx, name, lambda app: replace_verify(app, INT0_VERIFY.replace("BLOCK", block)), better,
        f"(the user's {name} server: Gym's string_match whose verify compares code answers with int(x, 0))")
    script = own_eval_script(ctx, search, overrides, name, comment="weekly codes quiz eval")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    return code, gym_rows(ctx)


@case(
    "healthy_gym_own_verify_reads_code_answers_with_int_base_zero_and_falls_back_to_text_for_zero_padded_labels",
    "healthy",
    [],
    "nothing is wrong: the user's own resources server code_match compares code answers by value with int(x, 0), "
    "so 0x1f and 0x1F or 0b101 match; int(x, 0) refuses zero-padded decimals like 007 and 09, and the verify "
    "catches that ValueError and compares those answers as text; every rollout was verified, the right answers to "
    "007 and 09 scored 1, and `gym eval profile` completed",
    netns=True,
)
def healthy_gym_own_verify_reads_code_answers_with_int_base_zero_and_falls_back_to_text_for_zero_padded_labels(
        ctx: Ctx) -> str:
    code, got = code_quiz_week(ctx, INT0_GUARDED, "code_match")
    padded = answered(by_label(got, *PADDED), *PADDED)
    if code or len(keys_of(got)) != 18 or len(padded) < 2 or not all(rewards(padded)) or mean_of(got) < 0.5:
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(padded)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/my_gym/resources_servers/code_match/app.py (verify: int(x, 0) inside try, text compare on "
            f"ValueError); real `gym env start` (loopback-only namespace) with it; RUN/run_eval.sh (`gym eval run "
            f"--no-serve` 6 x 3, `gym eval profile`) exit {code}; {len(keys_of(got))} of 18 rollouts, rewards of "
            f"the right answers 007/09 {rewards(padded)}, mean reward {mean_of(got):.2f}.")


@case(
    "verifier_runtime_gym_own_verify_reads_code_answers_with_int_base_zero_which_raises_on_zero_padded_labels_007_and_09",
    "verifier_runtime",
    ["int(x, 0)", "ValueError", "leading zeros", "verify"],
    "the user's own resources server code_match compares every answer whose label starts with a digit by value with "
    "int(got, 0) == int(want, 0), to accept 0x1F, 0o17 and 0b101; with base 0 Python refuses zero-padded decimals "
    "('invalid literal for int() with base 0: 007'), so verify raised on every rollout of the 007 and 09 tasks: "
    "those rollouts failed verification and went to the failure sidecar instead of scoring, although the model "
    "answered them right",
    netns=True,
)
def verifier_runtime_gym_own_verify_reads_code_answers_with_int_base_zero_which_raises_on_zero_padded_labels_007_and_09(
        ctx: Ctx) -> str:
    code, got = code_quiz_week(ctx, INT0_PLAIN, "code_match")
    padded = by_label(got, *PADDED)
    text = everything_in(ctx.run)
    if "with base 0" not in text or (padded and any(rewards(padded))) or len(keys_of(got)) >= 18:
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(padded)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/my_gym/resources_servers/code_match/app.py (verify: int(got, 0) == int(want, 0) for digit labels); "
            f"real `gym env start` (loopback-only namespace) with it; RUN/run_eval.sh (`gym eval run --no-serve` 6 x 3, "
            f"`gym eval profile`) exit {code}; ValueError 'with base 0' on 007 and 09; {len(keys_of(got))} of 18 "
            f"rollouts scored, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# the eval sbatch script ported from the old PBS cluster (a healthy and a config case)
# =====================================================================================================

PBS_SBATCH = """#!/bin/bash
#PBS -N weekly-eval
#PBS -l walltime=00:01:00
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --ntasks=1
# the weekly eval, ported from the old PBS cluster (its #PBS lines kept for the record; the partition has no
# time limit, so no --time here)
cd RUN_DIR
echo "job $SLURM_JOB_ID: $(scontrol show job $SLURM_JOB_ID | grep -o 'TimeLimit=[^ ]*')"
PIPELINE"""

PBS_SUBMIT = """#!/bin/bash
# submit.sh: the weekly eval on the Slurm cluster
cd RUN_DIR
sbatch --wait SBATCH_FLAGS eval.sbatch
echo "sbatch --wait returned $?"
"""


def pbs_week(ctx: Ctx, flags: str) -> tuple[int, str]:
    run = ctx.run
    pairs = [(f"Which number comes right after {n}?", str(n + 1)) for n in (11, 23, 37, 41, 58, 64, 72, 89)]
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in pairs])
    _, better = truth_checkpoints(ctx, pairs)
    url, _ = ctx.policy(better, "--latency-ms 5000")
    user_file(ctx, "eval.sbatch", PBS_SBATCH, PIPELINE=pipeline_lines(url, concurrency=1))
    user_file(ctx, "submit.sh", PBS_SUBMIT, SBATCH_FLAGS=flags)
    before = set(all_jobs(ctx))
    try:
        code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=400)
    finally:
        scancel_ids(ctx, *(set(all_jobs(ctx)) - before), *submitted_ids(ctx, "submit.log"))
    return code, url


@case(
    "healthy_slurm_eval_sbatch_ported_from_pbs_submitted_with_ignore_pbs_so_its_leftover_walltime_line_is_inert",
    "healthy",
    [],
    "nothing is wrong: the user's eval.sbatch was ported from the old PBS cluster and still carries its #PBS lines, "
    "among them `#PBS -l walltime=00:01:00`; submit.sh passes `sbatch --ignore-pbs`, so Slurm disregards them, the "
    "job ran under the partition's unlimited time limit for its two minutes, and every rollout was collected and "
    "profiled",
)
def healthy_slurm_eval_sbatch_ported_from_pbs_submitted_with_ignore_pbs_so_its_leftover_walltime_line_is_inert(
        ctx: Ctx) -> str:
    code, _ = pbs_week(ctx, "--ignore-pbs")
    jobs = job_log_text(ctx, "eval_*.log")
    if code or complete(ctx) != 24 or "TimeLimit=UNLIMITED" not in jobs \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log_of(ctx, 'submit.log')[-600:]} {jobs[-1500:]}")
    return (f"RUN/eval.sbatch (#PBS -N, #PBS -l walltime=00:01:00, #SBATCH without --time; materialize 8 x 3, collect "
            f"at concurrency 1, profile); RUN/submit.sh (`sbatch --wait --ignore-pbs`) exit {code}; TimeLimit=UNLIMITED; "
            f"{complete(ctx)} of 24 rollouts.")


@case(
    "config_slurm_eval_sbatch_ported_from_pbs_keeps_pbs_walltime_line_that_sbatch_honours_as_one_minute_time_limit",
    "config",
    ["#PBS", "walltime", "--ignore-pbs", "--time"],
    "the user's eval.sbatch was ported from the old PBS cluster and keeps its #PBS lines 'for the record', among them "
    "`#PBS -l walltime=00:01:00` from a smoke test; sbatch reads #PBS directives too (unless --ignore-pbs), and the "
    "script sets no #SBATCH --time, so the job got a one-minute time limit: Slurm killed it (TIMEOUT) while collect "
    "was running, and only part of the rollouts were collected and nothing was profiled",
)
def config_slurm_eval_sbatch_ported_from_pbs_keeps_pbs_walltime_line_that_sbatch_honours_as_one_minute_time_limit(
        ctx: Ctx) -> str:
    code, _ = pbs_week(ctx, "")
    jobs = job_log_text(ctx, "eval_*.log")
    if "TimeLimit=00:01:00" not in jobs or "TIME LIMIT" not in jobs.upper() or complete(ctx) >= 24 \
            or (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log_of(ctx, 'submit.log')[-600:]} {jobs[-1500:]}")
    return (f"RUN/eval.sbatch (#PBS -l walltime=00:01:00 kept, no #SBATCH --time; materialize 8 x 3, collect at "
            f"concurrency 1, profile); RUN/submit.sh (`sbatch --wait`) exit {code}; the job ran with "
            f"TimeLimit=00:01:00 and was cancelled at its time limit; {complete(ctx)} of 24 rollouts.")


# =====================================================================================================
# the data preparation memoised with joblib (a healthy and a cache_resume case)
# =====================================================================================================

LAST_WEEK = [
    ("What is the capital of Mongolia?", "Ulanbatar"),
    ("What is the capital of Australia?", "Sydney"),
    ("What is the chemical symbol of iron?", "Fe"),
    ("How many bones are in the adult human body?", "206"),
    ("What is the largest planet of the Solar System?", "Jupiter"),
    ("Who painted the Mona Lisa?", "Leonardo da Vinci"),
]
FIXES = {"Ulanbatar": "Ulaanbaatar", "Sydney": "Canberra"}

PREP_PY = '''"""prep.py: the labelling team's labels.csv -> tasks.jsonl. The CSV parse is memoised on disk with joblib
(the full export has 200k rows and takes minutes to parse)."""
import csv
import hashlib
import json

from joblib import Memory

memory = Memory(".prep_cache", verbose=1)


@memory.cache
def load_labels(KEY_PARAMS):
    with open(path, newline="", encoding="utf-8") as f:
        return [(r["question"], r["answer"]) for r in csv.DictReader(f)]


path = "labels.csv"
pairs = load_labels(KEY_ARGS)
with open("tasks.jsonl", "w") as out:
    for question, answer in pairs:
        text = f"{question} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}) + "\\n")
print(f"prep: {len(pairs)} tasks written, labels: {[a for _, a in pairs]}")
'''
PREP_BY_PATH = ("path", "path")
PREP_BY_CONTENT = ("path, digest", 'path, hashlib.sha256(open(path, "rb").read()).hexdigest()')


def labels_csv(path: Path, pairs: list[tuple[str, str]]) -> None:
    path.write_text("question,answer\n" + "".join(f'"{q}","{a}"\n' for q, a in pairs), encoding="utf-8")


def joblib_week(ctx: Ctx, key: tuple[str, str]) -> tuple[int, list[dict], list[str]]:
    run = ctx.run
    fixed = [(q, FIXES.get(a, a)) for q, a in LAST_WEEK]
    _, better = truth_checkpoints(ctx, fixed)
    (run / "prep.py").write_text(PREP_PY.replace("KEY_PARAMS", key[0]).replace("KEY_ARGS", key[1]))
    (run / "logs").mkdir(exist_ok=True)
    labels_csv(run / "labels.csv", LAST_WEEK)
    ctx.note("(last week: labels.csv as exported then, with Ulanbatar and Sydney)")
    code0 = ctx.sh(f"{gym_python()} prep.py", "logs/prep_last_week.log", cwd=run, timeout=120)
    labels_csv(run / "labels.csv", fixed)
    ctx.note("(this week: the labelling team's fixed labels.csv, Ulaanbaatar and Canberra, saved over the old file)")
    overrides, env_start, policy = gym_up(ctx, better)
    script = gym_script(ctx, "weekly eval: labels.csv -> tasks.jsonl, then gym eval run and profile", [
        f"{gym_python()} prep.py",
        gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 4),
        gym_profile_line("results")])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    if code0:
        raise failed(ctx, f"last week's prep exited {code0}: {log_of(ctx, 'prep_last_week.log')[-800:]}")
    labels = [r["expected_answer"] for r in rows_of(run / "tasks.jsonl")]
    return code, gym_rows(ctx), labels


@case(
    "healthy_gym_prep_memoised_with_joblib_on_labels_path_and_content_digest_reparses_the_fixed_labels_export",
    "healthy",
    [],
    "nothing is wrong: the user's prep.py memoises its parse of labels.csv on disk with joblib.Memory, keyed on the "
    "file's path and a sha256 of its content; the labelling team fixed two labels this week and saved the export "
    "over the old file, so the digest changed, joblib parsed it again ('[Memory] Calling load_labels' in the log, "
    "beside last week's cache entry), the fixed labels reached tasks.jsonl and every rollout was verified and profiled",
    netns=True,
)
def healthy_gym_prep_memoised_with_joblib_on_labels_path_and_content_digest_reparses_the_fixed_labels_export(
        ctx: Ctx) -> str:
    code, got, labels = joblib_week(ctx, PREP_BY_CONTENT)
    fixed = answered(by_label(got, *FIXES.values()), *FIXES.values())
    if code or "Canberra" not in labels or len(keys_of(got)) != 18 or len(fixed) < 2 or not all(rewards(fixed)) \
            or "Calling" not in log_of(ctx, "run_eval.log"):
        raise failed(ctx, f"exit {code}, {labels}, {rewards(fixed)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/prep.py (joblib.Memory cache of load_labels(path, sha256 of labels.csv)); last week's prep, then "
            f"labels.csv fixed in place; real `gym env start` (loopback-only namespace); RUN/run_eval.sh (prep, `gym "
            f"eval run --no-serve` 6 x 3, `gym eval profile`) exit {code}; labels used {labels}; {len(keys_of(got))} "
            f"of 18 rollouts, mean reward {mean_of(got):.2f}.")


@case(
    "cache_resume_gym_prep_memoised_with_joblib_keyed_on_labels_path_so_fixed_export_saved_over_it_is_never_reparsed",
    "cache_resume",
    ["joblib", "Memory", ".prep_cache", "cache key"],
    "the user's prep.py memoises its parse of labels.csv on disk with joblib.Memory, keyed only on the argument "
    "path='labels.csv'; this week the labelling team's fixed export (Ulaanbaatar, Canberra) was saved over the same "
    "file, joblib found last week's entry for that path in .prep_cache and returned last week's labels without "
    "reading the file, so tasks.jsonl kept Ulanbatar and Sydney and the model's right answers to those two tasks "
    "scored 0 (every command exits 0)",
    netns=True,
)
def cache_resume_gym_prep_memoised_with_joblib_keyed_on_labels_path_so_fixed_export_saved_over_it_is_never_reparsed(
        ctx: Ctx) -> str:
    code, got, labels = joblib_week(ctx, PREP_BY_PATH)
    stale = by_label(got, *FIXES)
    others = [r for r in got if r not in stale]
    if code or "Sydney" not in labels or len(keys_of(got)) != 18 or len(answered(stale, *FIXES.values())) < 2 \
            or any(rewards(stale)) or not any(rewards(others)):
        raise failed(ctx, f"exit {code}, {labels}, {rewards(stale)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/prep.py (joblib.Memory cache of load_labels(path)); last week's prep, then labels.csv fixed in "
            f"place; real `gym env start` (loopback-only namespace); RUN/run_eval.sh (prep, `gym eval run --no-serve` "
            f"6 x 3, `gym eval profile`) exit {code}; labels used {labels}; rewards of the two stale labels "
            f"{rewards(stale)}, others mean {mean_of(others):.2f}.")


# =====================================================================================================
# infra: the admins lowered the partition's MaxTime
# =====================================================================================================

MAXTIME_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
cd RUN_DIR
echo "weekly eval against $MODEL_URL"
PIPELINE"""

MAXTIME_SUBMIT = """#!/bin/bash
# submit.sh: the nightly CI step (budget: 90 s) - submit the eval job and wait for it
cd RUN_DIR
export MODEL_URL=MODEL_URL_VALUE
sinfo -o "%P %a %l %D %t"
timeout 90 sbatch --wait eval.sbatch
code=$?
if [ $code -eq 124 ]; then
  echo "CI budget of 90 s used up while waiting for the eval job"
  squeue -u $(id -un) -o "%i %j %T %r"
fi
echo "sbatch --wait ended with $code"
"""


@case(
    "infra_slurm_admins_lowered_partition_max_time_to_five_minutes_so_ten_minute_eval_job_pends_on_partition_time_limit",
    "infra",
    ["MaxTime", "partition", "PartitionTimeLimit", "admins"],
    "ahead of a maintenance the cluster admins lowered the debug partition's MaxTime to 5 minutes "
    "(`scontrol update PartitionName=debug MaxTime=5`); the user's eval job asks for its usual --time=10, which the "
    "partition no longer allows, and the cluster does not reject such jobs at submission, so the job was accepted "
    "but stayed PENDING with reason PartitionTimeLimit; the CI step's 90-second budget ran out, nothing was "
    "collected or profiled although the node was idle and the model server was up",
)
def infra_slurm_admins_lowered_partition_max_time_to_five_minutes_so_ten_minute_eval_job_pends_on_partition_time_limit(
        ctx: Ctx) -> str:
    run = ctx.run
    pairs = [(f"What is {n} times 3?", str(n * 3)) for n in (4, 7, 9, 12, 15, 21)]
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in pairs])
    _, better = truth_checkpoints(ctx, pairs)
    url, _ = ctx.policy(better, "--latency-ms 20")
    user_file(ctx, "eval.sbatch", MAXTIME_SBATCH, PIPELINE=pipeline_lines("$MODEL_URL"))
    user_file(ctx, "submit.sh", MAXTIME_SUBMIT, MODEL_URL_VALUE=url)
    before = set(all_jobs(ctx))
    ctx.note("(the cluster admins, ahead of a maintenance: `scontrol update PartitionName=debug MaxTime=5`)")
    subprocess.run(["scontrol", "update", "PartitionName=debug", "MaxTime=5"], env=ctx.env, check=True)
    try:
        code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=200)
    finally:
        scancel_ids(ctx, *(set(all_jobs(ctx)) - before))
        subprocess.run(["scontrol", "update", "PartitionName=debug", "MaxTime=INFINITE"], env=ctx.env, check=False)
    log = log_of(ctx, "submit.log")
    if "PartitionTimeLimit" not in log or "CI budget" not in log or complete(ctx) \
            or (run / "rollouts_materialized_inputs.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"the debug partition's MaxTime lowered to 5 minutes by the admins; RUN/submit.sh (sinfo, `timeout 90 "
            f"sbatch --wait eval.sbatch` with --time=10, squeue on timeout) exit {code}; the job stayed PENDING "
            f"(PartitionTimeLimit); {complete(ctx)} rollouts; partition restored to MaxTime=INFINITE afterwards.")


# =====================================================================================================
# throughput_resources: shard jobs sized for the big-memory nodes
# =====================================================================================================

SHARD_SBATCH = """#!/bin/bash
#SBATCH --job-name=eval-shard
#SBATCH --output=RUN_DIR/logs/shard_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --mem=12G
# one shard of the weekly eval (memory sized on the 256 GB nodes of the old cluster)
cd RUN_DIR
echo "shard $SHARD on $(hostname), job $SLURM_JOB_ID, $(date +%T)"
GP_BIN collect --inputs shard_$SHARD.jsonl --output rollouts_$SHARD.jsonl --model-url $MODEL_URL \\
  --env string_match --concurrency 1
echo "shard $SHARD done $(date +%T)"
"""

SHARD_SUBMIT = """#!/bin/bash
# submit.sh: the weekly eval as two parallel shard jobs, then merge and profile (CI step budget: 75 s)
cd RUN_DIR
export MODEL_URL=MODEL_URL_VALUE
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
split -n l/2 -d --additional-suffix=.jsonl rollouts_materialized_inputs.jsonl shard_
A=$(sbatch --parsable --export=ALL,SHARD=00 shard.sbatch)
B=$(sbatch --parsable --export=ALL,SHARD=01 shard.sbatch)
echo "shard jobs $A $B"
sleep 3
squeue -o "%i %j %T %r %m"
if timeout 75 bash -c "while squeue -h -j $A,$B 2>/dev/null | grep -q .; do sleep 2; done"; then
  cat rollouts_00.jsonl rollouts_01.jsonl > rollouts.jsonl
  GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
else
  echo "CI budget of 75 s used up with shard jobs still queued or running:"
  squeue -o "%i %j %T %r %m"
fi
"""


@case(
    "throughput_slurm_shard_jobs_each_ask_twelve_gigabytes_of_the_twenty_gigabyte_node_so_they_run_one_after_another",
    "throughput_resources",
    ["--mem", "12G", "memory", "shards"],
    "the user's shard.sbatch asks --mem=12G per shard, sized on the old cluster's 256 GB nodes; this cluster's only "
    "node has about 21 GB, so the two shard jobs meant to run side by side could not both fit and Slurm ran them "
    "one after the other (the second PENDING with reason Resources); the eval took twice as long, the CI step's "
    "75-second budget ran out with the second shard unfinished, and nothing was merged or profiled",
)
def throughput_slurm_shard_jobs_each_ask_twelve_gigabytes_of_the_twenty_gigabyte_node_so_they_run_one_after_another(
        ctx: Ctx) -> str:
    run = ctx.run
    pairs = [(f"What is {n} plus 8?", str(n + 8)) for n in (3, 14, 25, 36, 47, 58, 69, 71)]
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in pairs])
    _, better = truth_checkpoints(ctx, pairs)
    url, _ = ctx.policy(better, "--latency-ms 4000")
    user_file(ctx, "shard.sbatch", SHARD_SBATCH)
    user_file(ctx, "submit.sh", SHARD_SUBMIT, MODEL_URL_VALUE=url)
    before = set(all_jobs(ctx))
    try:
        code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=300)
    finally:
        scancel_ids(ctx, *(set(all_jobs(ctx)) - before))
    log = log_of(ctx, "submit.log")
    first = rows_of(run / "rollouts_00.jsonl")
    second = len(rows_of(run / "shard_01.jsonl"))
    if "Resources" not in log or "CI budget" not in log or (run / "rollouts.jsonl").exists() or len(first) < 10 \
            or len(rows_of(run / "rollouts_01.jsonl")) >= second:
        raise failed(ctx, f"exit {code}, {len(first)}: {log[-1500:]} {job_log_text(ctx, 'shard_*.log')[-800:]}")
    return (f"RUN/shard.sbatch (--mem=12G, collect at concurrency 1); RUN/submit.sh (materialize 8 x 3, split in two, "
            f"two shard jobs, wait up to 75 s, merge, profile) exit {code}; the node has "
            f"~21 GB: the second shard PENDING (Resources); shard 00 {len(first)} rollouts, shard 01 "
            f"{len(rows_of(run / 'rollouts_01.jsonl'))} of {second} when the budget ran out; nothing merged or profiled.")


# =====================================================================================================
# data_schema: labels typed by the Istanbul office keep the Turkish dotted capital I
# =====================================================================================================

TURKISH_QUIZ = [
    ("Which Turkish city straddles Europe and Asia on the Bosphorus?", "\u0130stanbul", "Istanbul"),
    ("What is the capital of Turkey?", "Ankara", "Ankara"),
    ("Which Turkish port city on the Aegean was called Smyrna in antiquity?", "\u0130zmir", "Izmir"),
    ("Which Turkish city was the first capital of the Ottoman Empire?", "Bursa", "Bursa"),
    ("Which Turkish resort city on the Mediterranean has the Hadrian's Gate?", "Antalya", "Antalya"),
    ("Which Turkish city on the Black Sea was the seat of the Empire of Trebizond?", "Trabzon", "Trabzon"),
]


@case(
    "data_schema_gym_city_labels_typed_on_turkish_keyboard_keep_dotted_capital_i_that_lowercases_to_i_with_combining_dot",
    "data_schema",
    ["\u0130", "dotted capital I", "labels", "Istanbul"],
    "the geography quiz's labels were typed by the Istanbul office on a Turkish keyboard, so two of them are spelled "
    "with the Turkish dotted capital I (U+0130): '\u0130stanbul' and '\u0130zmir'; they look right, but the "
    "case-insensitive compare lowercases U+0130 to 'i' plus a combining dot above (U+0307), so the model's right "
    "answers Istanbul and Izmir never matched and those two tasks scored 0 while the others scored (every command "
    "exits 0)",
    netns=True,
)
def data_schema_gym_city_labels_typed_on_turkish_keyboard_keep_dotted_capital_i_that_lowercases_to_i_with_combining_dot(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, label) for q, label, _ in TURKISH_QUIZ])
    _, better = truth_checkpoints(ctx, [(q, truth) for q, _, truth in TURKISH_QUIZ])
    overrides, env_start, policy = gym_up(ctx, better)
    script = gym_script(ctx, "weekly geography quiz eval (labels from the Istanbul office)", [
        gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 4), gym_profile_line("results")])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    dotted = by_label(got, "\u0130stanbul", "\u0130zmir")
    others = [r for r in got if r not in dotted]
    if code or len(keys_of(got)) != 18 or len(answered(dotted, "Istanbul", "Izmir")) < 2 or any(rewards(dotted)) \
            or not any(rewards(others)):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(dotted)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/tasks.jsonl (labels '\u0130stanbul' and '\u0130zmir' with U+0130); real `gym env start` (loopback-only "
            f"namespace); RUN/run_eval.sh (`gym eval run --no-serve` 6 x 3, `gym eval profile`) exit {code}; rewards of "
            f"the two dotted labels {rewards(dotted)}, others mean {mean_of(others):.2f}.")


# =====================================================================================================
# config: the eval sbatch keeps the socket layout of the GPU nodes' template
# =====================================================================================================

SOCKET_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=2
#SBATCH --cores-per-socket=4
# from the team's GPU-node template (keeps the eval's cores on one socket, next to its GPU)
cd RUN_DIR
echo "weekly eval against $MODEL_URL"
PIPELINE"""

SOCKET_SUBMIT = """#!/bin/bash
# submit.sh: the weekly eval, submitted and waited for
cd RUN_DIR
export MODEL_URL=MODEL_URL_VALUE
sbatch --wait eval.sbatch
echo "sbatch --wait returned $?"
ls -l rollouts.jsonl 2>&1
"""


@case(
    "config_slurm_eval_sbatch_keeps_cores_per_socket_of_gpu_node_template_that_no_node_here_offers_so_sbatch_refuses_it",
    "config",
    ["--cores-per-socket", "template", "sbatch", "node configuration"],
    "the user's eval.sbatch was started from the team's GPU-node template and keeps `#SBATCH --cores-per-socket=4` "
    "(to keep the eval's cores on one socket next to its GPU); this cluster's node has one core per socket, so "
    "sbatch refused the job at submission ('Requested node configuration is not available'), no job ran and "
    "nothing was collected, although the node was idle and the model server was up",
)
def config_slurm_eval_sbatch_keeps_cores_per_socket_of_gpu_node_template_that_no_node_here_offers_so_sbatch_refuses_it(
        ctx: Ctx) -> str:
    run = ctx.run
    pairs = [(f"What is {n} minus 6?", str(n - 6)) for n in (10, 19, 27, 33, 48, 52)]
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in pairs])
    _, better = truth_checkpoints(ctx, pairs)
    url, _ = ctx.policy(better, "--latency-ms 20")
    user_file(ctx, "eval.sbatch", SOCKET_SBATCH, PIPELINE=pipeline_lines("$MODEL_URL"))
    user_file(ctx, "submit.sh", SOCKET_SUBMIT, MODEL_URL_VALUE=url)
    before = set(all_jobs(ctx))
    try:
        code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=200)
    finally:
        scancel_ids(ctx, *(set(all_jobs(ctx)) - before))
    log = log_of(ctx, "submit.log")
    if "node configuration is not available" not in log or complete(ctx) or submitted_ids(ctx, "submit.log"):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.sbatch (#SBATCH --cores-per-socket=4 from the GPU-node template); RUN/submit.sh (`sbatch --wait "
            f"eval.sbatch`) exit {code}: sbatch refused the job; {complete(ctx)} rollouts.")


if __name__ == "__main__":
    sys.exit(main("eighty_fourth_held_out", __file__, __doc__))
