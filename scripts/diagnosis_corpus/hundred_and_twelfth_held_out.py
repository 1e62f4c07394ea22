"""Build the HUNDRED-AND-TWELFTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/hundred_and_twelfth_held_out.py --out tests/data/diagnosis_corpus/hundred_and_twelfth_held_out [--only CASE ...]

This set was written after the a hundred and eleven earlier sets (first_held_out.py ... hundred_and_eleventh_held_out.py; the
hundred-and-thirteenth was being written beside it at the same time), from the
guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`),
the real NeMo Gym 0.7.0 (`gym env start`, `gym eval run`, `gym eval profile`) with the users' own resources servers,
Slurm jobs (sbatch and its options, job names, time limits, job states, partitions), and the user's own shell and
Python tooling, settings, data-preparation scripts and verifiers. The output of every command is
captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own
inputs (data, scripts, settings, verifier code). Each case injects one cause, different in mechanism from those of
the 111 earlier sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and
the case is not written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Slurm
(SLURM_CONF, the fourth single-node cluster), and PYTHONPATH set to this checkout. Run it from a foreground shell. It
makes no Docker containers.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import failed, stop_gym  # noqa: E402
from eighty_eighth_held_out import PLUS_PAIRS, labelled  # noqa: E402
from eighty_sixth_held_out import user_file  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_first_held_out import keys_of  # noqa: E402
from fifty_ninth_held_out import gym_own_server, own_eval_script  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from hundred_and_sixth_held_out import SBATCH_HEAD, profiled, slurm_run, submit_file  # noqa: E402
from recipes import GP, Ctx, RecipeError, case, main, replace_verify, rows_of, text_of  # noqa: E402
from seventy_ninth_held_out import run_eval  # noqa: E402
from sixty_fourth_held_out import pipeline_lines  # noqa: E402
from sixty_third_held_out import mean_of  # noqa: E402
from thirtieth_held_out import gym_rows  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_third_held_out import write_jsonl  # noqa: E402

recipes.SERVICES_ENV["SLURM_CONF"] = "/tmp/gym-pipeline-services/slurm-4/slurm.conf"

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


def own_servers(ctx: Ctx, marker: str) -> list[str]:
    """Stop the serve-policy processes started by this run folder's serve.sh (their ready files name `marker`)."""
    listing = subprocess.run(["ps", "-eo", "pid=,args="], capture_output=True, text=True, check=False).stdout
    pids = []
    for line in listing.splitlines():
        pid, _, args = line.strip().partition(" ")
        if "serve-policy" in args and marker in args:
            pids.append(pid)
            subprocess.run(["kill", pid], check=False)
    return pids


# =====================================================================================================
# data_schema (built-in): the prep strips the sheet's zero padding with lstrip("0"), which empties the label "00"
# =====================================================================================================

PAD_PREP_PY = '''"""prep.py: answer_sheet.csv -> string_match.jsonl.

The answer column of the labelling sheet is formatted "00" (two digits), so 7 is exported as 07: strip the padding.
"""
import csv
import json

PROMPT = "{question} End your response with 'Final answer: <answer>'."
with open("answer_sheet.csv") as f, open("string_match.jsonl", "w") as out:
    for row in csv.DictReader(f):
        answer = row["answer"].strip().lstrip("0")
        out.write(json.dumps({"responses_create_params": {"input": [{"role": "user", "type": "message", "content": [
            {"type": "input_text", "text": PROMPT.format(question=row["question"])}]}]},
            "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}) + "\\n")
print("wrote string_match.jsonl")
'''

PAD_PAIRS = PLUS_PAIRS[:6] + [("What is 14 minus 14?", "0"), ("What is 0 times 38?", "0"),
                              ("What is 9 minus 9?", "0")]


@case(
    "data_schema_builtin_prep_strips_sheets_two_digit_zero_padding_with_lstrip_zero_so_answer_00_becomes_empty_label",
    "data_schema",
    ["prep.py", "lstrip(\"0\")", "expected_answer", "00"],
    "prep.py removes the two-digit zero padding of the sheet's answer column with .lstrip(\"0\"), which strips "
    "every zero of the cell '00', so the three tasks whose answer is 0 got an empty expected_answer and the "
    "all their rollouts scored 0, the model's right answers 0 included; every command exited 0",
)
def data_schema_builtin_prep_strips_sheets_two_digit_zero_padding_with_lstrip_zero_so_answer_00_becomes_empty_label(
        ctx: Ctx) -> str:
    run = ctx.run
    (run / "answer_sheet.csv").write_text("question,answer\n" + "".join(
        f"\"{q}\",{int(a):02d}\n" for q, a in PAD_PAIRS))
    (run / "prep.py").write_text(PAD_PREP_PY)
    _, better = truth_checkpoints(ctx, PAD_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = run_eval(ctx, f"{recipes.PY} prep.py\n" + pipeline_lines(url),
                    "weekly eval: prep the sheet, materialize, collect, profile")
    labels = [row["expected_answer"] for row in rows_of(run / "string_match.jsonl")]
    got = rows_of(run / "rollouts.jsonl")
    empty = [r for r in got if not str(r.get("expected_answer") or "").strip()]
    if code or complete(ctx) != 27 or labels.count("") != 3 or not profiled(ctx) or any(rewards(empty)) \
            or len(empty) != 9:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {labels}, {len(empty)}, {rewards(empty)}, {profiled(ctx)}: "
                     f"{log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/answer_sheet.csv (answers 00-padded); RUN/prep.py (.lstrip('0')); labels {labels}; RUN/run_eval.sh "
            f"exit {code}; {complete(ctx)} of 27 rollouts, the 9 rollouts with empty labels all 0, mean reward "
            f"{mean_of(got):.2f}.")


# =====================================================================================================
# config (Slurm): eval.py declares --smoke-only with type=bool, so the job's `--smoke-only false` is True
# =====================================================================================================

BOOL_EVAL_PY = '''"""eval.py: the eval driver. python eval.py --model-url URL [--smoke-only true|false]"""
import argparse
import subprocess

parser = argparse.ArgumentParser()
parser.add_argument("--model-url", required=True)
parser.add_argument("--smoke-only", type=bool, default=False, help="only the 5 smoke tasks (CI pre-merge check)")
parser.add_argument("--repeats", type=int, default=3)
args = parser.parse_args()
data = "smoke.jsonl" if args.smoke_only else "string_match.jsonl"
print(f"eval: data={data} repeats={args.repeats}", flush=True)
GP = "GP_BIN"
for step in [
    f"{GP} materialize --input {data} --num-repeats {args.repeats} --agent string_match_simple_agent "
    "--output rollouts_materialized_inputs.jsonl",
    f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {args.model_url} "
    "--env string_match --concurrency 4",
    f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl",
]:
    subprocess.run(step, shell=True, check=True)
print("eval done", flush=True)
'''

SMOKE_PAIRS = [("What is 1 plus 1?", "2"), ("What is 2 plus 2?", "4"), ("What is 3 plus 1?", "4"),
               ("What is 5 plus 0?", "5"), ("What is 6 plus 1?", "7")]


@case(
    "config_slurm_python_driver_declares_smoke_only_with_argparse_type_bool_so_jobs_smoke_only_false_is_true",
    "config",
    ["eval.py", "type=bool", "--smoke-only", "false"],
    "eval.py declares --smoke-only with type=bool, and bool('false') is True because any non-empty string is "
    "true; the weekly Slurm job passes `--smoke-only false`, so the driver evaluated smoke.jsonl (5 trivial "
    "tasks, 15 rollouts) instead of string_match.jsonl (9 tasks, 27 rollouts); the job COMPLETED and every command "
    "exited 0",
)
def config_slurm_python_driver_declares_smoke_only_with_argparse_type_bool_so_jobs_smoke_only_false_is_true(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    write_jsonl(run / "smoke.jsonl", [question_row(q, a) for q, a in SMOKE_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS + SMOKE_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "eval.py").write_text(BOOL_EVAL_PY.replace("GP_BIN", str(GP)))
    user_file(ctx, "eval.sbatch", SBATCH_HEAD + "# weekly eval of the full set (CI pre-merge runs --smoke-only true)\n"
              "SMOKE_ONLY=false\nPY_BIN eval.py --model-url MODEL_URL --smoke-only $SMOKE_ONLY --repeats 3\n"
              "echo \"eval finished ($(date +%T))\"\n", TIME_LIMIT="20", PY_BIN=str(recipes.PY), MODEL_URL=url)
    submit_file(ctx)
    code = slurm_run(ctx)
    log = log_of(ctx, "submit.log")
    if code or complete(ctx) != 15 or "data=smoke.jsonl" not in log or not profiled(ctx) \
            or "JobState=COMPLETED" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.py (--smoke-only type=bool); RUN/eval.sbatch (--smoke-only false) submitted by RUN/submit.sh, "
            f"exit {code}; JobState=COMPLETED; data=smoke.jsonl; {complete(ctx)} rollouts instead of 27, mean reward "
            f"{mean_of(rows_of(run / 'rollouts.jsonl')):.2f}.")


# =====================================================================================================
# throughput_resources (Slurm): the job collects one request at a time against a 2.5 s-per-answer server
# =====================================================================================================


@case(
    "throughput_slurm_eval_job_keeps_collect_concurrency_one_from_debugging_so_27_slow_answers_overrun_two_minute_limit",
    "throughput_resources",
    ["eval.sbatch", "--concurrency 1", "--time=2", "TIMEOUT"],
    "eval.sbatch still runs collect with --concurrency 1 (left from debugging one request at a time); the model "
    "server takes about 5 s per answer, so the 27 rollouts need well over two minutes one after another and the "
    "job hit its 2-minute time limit (JobState=TIMEOUT) with only part of the rollouts collected and no profile; "
    "the server, data and settings were fine",
)
def throughput_slurm_eval_job_keeps_collect_concurrency_one_from_debugging_so_27_slow_answers_overrun_two_minute_limit(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 5000", log="logs/model_server.log")
    user_file(ctx, "eval.sbatch", SBATCH_HEAD + "# weekly eval: materialize, collect, profile\n"
              "# (concurrency 1 while debugging the answer extraction)\nPIPELINE\n"
              "echo \"eval finished ($(date +%T))\"\n", TIME_LIMIT="2",
              PIPELINE=pipeline_lines(url, concurrency=1).rstrip("\n"))
    submit_file(ctx)
    code = slurm_run(ctx, timeout=400)
    log = log_of(ctx, "submit.log")
    if complete(ctx) >= 27 or "TIMEOUT" not in log or profiled(ctx):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.sbatch (--time=2, collect --concurrency 1 against {url}, 5 s per answer) submitted by "
            f"RUN/submit.sh, exit {code}; JobState=TIMEOUT; {complete(ctx)} of 27 rollouts, no profile.")


# =====================================================================================================
# model_serving (built-in): serve.sh derives each server's port from the step modulo 100, so step 200 and 100 collide
# =====================================================================================================

PORT_SERVE_SH = """#!/bin/bash
# serve.sh STEP: serve ckpts/step_STEP on its own port (18400 + STEP % 100, so that several steps can be served)
cd RUN_DIR
STEP=$1
PORT=$((18400 + STEP % 100))
nohup GP_BIN serve-policy --port $PORT --ready-file logs/ready_step_$STEP --checkpoint ckpts/step_$STEP \\
  --latency-ms 20 >> logs/model_server_step_$STEP.log 2>&1 &
sleep 5
echo "http://127.0.0.1:$PORT/v1" > model_url.txt
echo "serving ckpts/step_$STEP on http://127.0.0.1:$PORT/v1"
"""


@case(
    "model_serving_builtin_serve_script_derives_port_from_step_modulo_100_so_step_200_server_cannot_bind_and_step_100_answers",
    "model_serving",
    ["serve.sh", "STEP % 100", "PORT", "address already in use"],
    "serve.sh gives each checkpoint the port 18400 + STEP % 100, which is 18400 for both step 100 and step 200; "
    "last week's step_100 server still holds that port, so the new step_200 server failed to bind (address "
    "already in use) and exited, while serve.sh wrote the port to model_url.txt without checking, and the eval "
    "collected from the old step_100 server; every command of the eval exited 0",
)
def model_serving_builtin_serve_script_derives_port_from_step_modulo_100_so_step_200_server_cannot_bind_and_step_100_answers(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    worse, better = truth_checkpoints(ctx, PLUS_PAIRS)
    (run / "ckpts").mkdir()
    import shutil
    shutil.copytree(worse, run / "ckpts" / "step_100")
    shutil.copytree(better, run / "ckpts" / "step_200")
    user_file(ctx, "serve.sh", PORT_SERVE_SH)
    pids: list[str] = []
    try:
        ctx.sh(f"bash {run}/serve.sh 100", "logs/serve_last_week.log", timeout=60)
        ctx.note("(last week: RUN/serve.sh 100, server left running; this week serve.sh 200)")
        code = run_eval(ctx, "bash serve.sh 200\nMODEL_URL=$(cat model_url.txt)\necho \"evaluating $MODEL_URL\"\n"
                        + pipeline_lines("$MODEL_URL"),
                        "weekly eval of the newest checkpoint: start its server, materialize, collect, profile")
    finally:
        pids = own_servers(ctx, "logs/ready_step_")
    log = log_of(ctx, "run_eval.log")
    new_log = text_of(run / "logs" / "model_server_step_200.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 27 or not profiled(ctx) or "address already in use" not in new_log.lower() \
            or (run / "logs" / "ready_step_200").exists() or mean_of(got) > 0.9:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {new_log[-800:]} {log[-1500:]}")
    return (f"RUN/serve.sh (PORT=$((18400 + STEP % 100))); last week's step_100 server on 18400; RUN/run_eval.sh "
            f"(serve.sh 200, MODEL_URL from model_url.txt, materialize, collect, profile) exit {code}; step_200 "
            f"server: address already in use; {complete(ctx)} rollouts from step_100, mean {mean_of(got):.2f}; "
            f"stopped pids {pids}.")


# =====================================================================================================
# infra (Slurm): the admins drained the partition for an upgrade, so sbatch refuses the weekly job
# =====================================================================================================

PARTITION = "debug"


@case(
    "infra_slurm_admins_set_partition_state_drain_for_upgrade_so_sbatch_refuses_the_eval_job_as_partition_not_available",
    "infra",
    ["partition", "debug", "drain", "sbatch"],
    "the cluster admins set the only partition, debug, to State=DRAIN ahead of a Slurm upgrade; a drained "
    "partition accepts no new jobs, so `sbatch eval.sbatch` failed with 'Required partition not available "
    "(inactive or drain)', no job ran and no rollouts were written, although the job script, data and model server "
    "were fine",
)
def infra_slurm_admins_set_partition_state_drain_for_upgrade_so_sbatch_refuses_the_eval_job_as_partition_not_available(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server.log")
    user_file(ctx, "eval.sbatch", SBATCH_HEAD + "# weekly eval: materialize, collect, profile\nPIPELINE\n"
              "echo \"eval finished ($(date +%T))\"\n", TIME_LIMIT="20", PIPELINE=pipeline_lines(url).rstrip("\n"))
    submit_file(ctx)
    made = subprocess.run(["scontrol", "update", f"PartitionName={PARTITION}", "State=DRAIN"], env=ctx.env,
                          capture_output=True, text=True, check=False)
    if made.returncode:
        raise RecipeError(f"could not drain the partition: {made.stdout} {made.stderr}")
    try:
        ctx.note(f"(the admins: scontrol update PartitionName={PARTITION} State=DRAIN, before the Slurm upgrade)")
        code = slurm_run(ctx, timeout=120)
        ctx.sh("sinfo -s", "logs/sinfo.log", timeout=30)
    finally:
        subprocess.run(["scontrol", "update", f"PartitionName={PARTITION}", "State=UP"], env=ctx.env,
                       capture_output=True, check=False)
    log = log_of(ctx, "submit.log")
    if complete(ctx) or "not available" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"partition {PARTITION} State=DRAIN (restored to UP afterwards); RUN/eval.sbatch (materialize, collect "
            f"against {url}, profile); RUN/submit.sh exit {code}: sbatch refused the job; no rollouts.")


# =====================================================================================================
# cache_resume (built-in): the run script names the rollouts by ISO week and skips collect when that file exists
# =====================================================================================================

WEEK_RUN = """OUT=rollouts_$(date +%G-W%V).jsonl
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
if [ -s "$OUT" ]; then
  echo "rollouts for this week already collected ($OUT): skipping collect"
else
  GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output $OUT --model-url $MODEL_URL --env string_match --concurrency 4
fi
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts $OUT
"""


@case(
    "cache_resume_builtin_run_script_names_rollouts_by_iso_week_and_skips_collect_if_present_so_same_week_rerun_of_fixed_checkpoint_reuses_mornings",
    "cache_resume",
    ["run_eval.sh", "date +%G-W%V", "skipping collect", "$OUT"],
    "run_eval.sh names its rollouts file after the ISO week (rollouts_$(date +%G-W%V).jsonl) and skips collect "
    "when that file already exists; this morning's run against the step_0100 server had written it, so the "
    "afternoon rerun against the fixed step_0200 server collected nothing and profiled the morning's rollouts of "
    "the old checkpoint; every command exited 0",
)
def cache_resume_builtin_run_script_names_rollouts_by_iso_week_and_skips_collect_if_present_so_same_week_rerun_of_fixed_checkpoint_reuses_mornings(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    worse, better = truth_checkpoints(ctx, PLUS_PAIRS)
    body = WEEK_RUN.replace("GP_BIN", str(GP))
    old_url, old_server = ctx.policy(worse, "--latency-ms 20", log="logs/model_server_morning.log")
    run_eval(ctx, f"MODEL_URL={old_url}\n" + body, "weekly eval: materialize, collect (once a week), profile",
             log="logs/run_eval_morning.log")
    old_server.terminate()
    ctx.note("(this morning: run_eval.sh against the step_0100 server, since stopped; now the step_0200 server)")
    week_files = list(run.glob("rollouts_*-W[0-9][0-9].jsonl"))
    morning = mean_of(rows_of(week_files[0])) if week_files else -1
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = run_eval(ctx, f"MODEL_URL={url}\n" + body, "weekly eval: materialize, collect (once a week), profile")
    log = log_of(ctx, "run_eval.log")
    week_files = list(run.glob("rollouts_*-W[0-9][0-9].jsonl"))
    if code or len(week_files) != 1 or "skipping collect" not in log or " collect " in log.replace("skipping", "") \
            or len(rows_of(week_files[0])) != 27 or abs(mean_of(rows_of(week_files[0])) - morning) > 1e-9:
        raise failed(ctx, f"exit {code}, {week_files}, {morning}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (OUT=rollouts_$(date +%G-W%V).jsonl, collect skipped when present); morning run "
            f"against {old_url} (step_0100, mean {morning:.2f}); rerun against {url} exit {code}: skipping collect; "
            f"{week_files[0].name} profiled (the morning's).")


# =====================================================================================================
# verifier_runtime (real NeMo Gym): the user's verify strips units with [^0-9.], which also drops the minus sign
# =====================================================================================================

UNITS_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        reward = 0.0
        if extracted is not None and body.expected_answer:
            # models write units and currency ("12 cm", "$4.50"): keep the number only (QUIZ-502)
            answer = re.sub(r"[^0-9.]", "", extracted)
            reward = float(answer == body.expected_answer.strip())

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""

MINUS_PAIRS = PLUS_PAIRS[:5] + [("What is 3 minus 10?", "-7"), ("What is 4 minus 16?", "-12"),
                                ("What is -5 plus 2?", "-3")]


def with_re(app: str) -> str:
    return app if "\nimport re\n" in app else "import re\n" + app


@case(
    "verifier_runtime_gym_own_verify_strips_units_with_regex_keeping_digits_and_dot_so_minus_sign_is_dropped_and_negative_answers_score_zero",
    "verifier_runtime",
    ["app.py", "[^0-9.]", "re.sub", "extracted"],
    "the user's own resources server quiz_units strips units from the model's answer with re.sub(r\"[^0-9.]\", \"\", "
    "extracted) before comparing it with the label; the pattern also removes the minus sign, so the right answers "
    "-7, -12 and -3 became 7, 12 and 3 and scored 0 against their labels on every rollout, although the labels "
    "and those answers were right; every command exited 0",
    netns=True,
)
def verifier_runtime_gym_own_verify_strips_units_with_regex_keeping_digits_and_dot_so_minus_sign_is_dropped_and_negative_answers_score_zero(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in MINUS_PAIRS])
    _, better = truth_checkpoints(ctx, MINUS_PAIRS)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "quiz_units", lambda app: with_re(replace_verify(app, UNITS_VERIFY)), better,
        "(the user's quiz_units server: Gym's string_match that strips units from the answer)")
    script = own_eval_script(ctx, search, overrides, "quiz_units", comment="weekly eval")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    negative = labelled(got, "-7", "-12", "-3")
    positive = [r for r in got if r not in negative]
    right = [r for r in negative if '"extracted_answer": "-' in json.dumps(r)]
    if code or len(keys_of(got)) != 24 or len(negative) != 9 or any(rewards(negative)) or not right \
            or mean_of(positive) < 0.3:
        raise failed(ctx, f"exit {code}, {len(got)}, {len(negative)}, {rewards(negative)}, {rewards(positive)}: {log_of(ctx, 'run_eval.log')[-2000:]}")
    return (f"RUN/my_gym/resources_servers/quiz_units/app.py (re.sub(r'[^0-9.]', '', extracted)); real `gym env "
            f"start` (loopback-only namespace) with it; RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, `gym eval "
            f"profile`) exit {code}; {len(keys_of(got))} of 24 rollouts; the 9 negative-answer rollouts all 0 "
            f"({len(right)} of them answered with the right negative number), the others mean "
            f"{mean_of(positive):.2f}.")


# =====================================================================================================
# healthy (built-in): the run script pushes its metrics to the team's pushgateway, which this node has none of
# =====================================================================================================

PUSH = """# push the summary to the team's Prometheus pushgateway (dashboards only; optional on nodes without one)
MEAN=$(GP_PY -c "import json; r=[json.loads(l)['reward'] for l in open('rollouts.jsonl')]; print(sum(r)/len(r))")
echo "eval_mean_reward $MEAN" | curl -sS --max-time 5 --data-binary @- http://127.0.0.1:9091/metrics/job/weekly_eval \\
  || echo "WARNING: metrics push failed, results are in rollouts.jsonl"
"""


@case(
    "healthy_builtin_run_script_pushes_mean_reward_to_team_pushgateway_absent_on_this_node_so_curl_connection_refused",
    "healthy",
    [],
    "nothing is wrong: after profiling, run_eval.sh pushes the mean reward to the team's Prometheus pushgateway "
    "on 127.0.0.1:9091 for the dashboards; this node runs none, so curl prints 'Failed to connect ... Connection "
    "refused' and the script warns that the push failed, but the push is only for dashboards and materialize, "
    "collect and profile completed every rollout",
)
def healthy_builtin_run_script_pushes_mean_reward_to_team_pushgateway_absent_on_this_node_so_curl_connection_refused(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = run_eval(ctx, pipeline_lines(url) + PUSH.replace("GP_PY", str(recipes.PY)),
                    "weekly eval: materialize, collect, profile, push the summary")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 27 or "metrics push failed" not in log or "curl:" not in log or not profiled(ctx) \
            or not any(rewards(got)):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 9 x 3, collect against {url}, profile, curl to the pushgateway on "
            f"127.0.0.1:9091) exit {code}; curl connection refused and the push WARNING; {complete(ctx)} of 27 "
            f"rollouts, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# healthy (Slurm): the job sources the team's profile snippets with a glob that matches nothing on this cluster
# =====================================================================================================


@case(
    "healthy_slurm_job_sources_team_profile_snippets_by_glob_that_matches_nothing_on_this_cluster_so_bash_prints_no_such_file",
    "healthy",
    [],
    "nothing is wrong: the job starts by sourcing the team's shell snippets with `for f in "
    "/etc/profile.d/team_*.sh; do source $f; done`; this cluster has none, so the unmatched glob stays literal and "
    "bash prints 'team_*.sh: No such file or directory', but the snippets only set prompt colours and aliases, and "
    "materialize, collect and profile completed every rollout and the job COMPLETED",
)
def healthy_slurm_job_sources_team_profile_snippets_by_glob_that_matches_nothing_on_this_cluster_so_bash_prints_no_such_file(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server.log")
    user_file(ctx, "eval.sbatch", SBATCH_HEAD + "# the team's shell setup (prompt colours, aliases)\n"
              "for f in /etc/profile.d/team_*.sh; do source $f; done\n"
              "# weekly eval: materialize, collect, profile\nPIPELINE\necho \"eval finished ($(date +%T))\"\n",
              TIME_LIMIT="20", PIPELINE=pipeline_lines(url).rstrip("\n"))
    submit_file(ctx)
    code = slurm_run(ctx)
    log = log_of(ctx, "submit.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 27 or "No such file or directory" not in log or not profiled(ctx) \
            or "JobState=COMPLETED" not in log or not any(rewards(got)):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.sbatch (sources /etc/profile.d/team_*.sh, materialize 9 x 3, collect against {url}, profile) "
            f"submitted by RUN/submit.sh, exit {code}; 'No such file or directory' for the glob; {complete(ctx)} of 27 "
            f"rollouts, mean reward {mean_of(got):.2f}; JobState=COMPLETED.")


# =====================================================================================================
# healthy (real NeMo Gym): the user's server, cut from the team's model-judge template, warns it sees no CUDA device
# =====================================================================================================

CUDA_WARN = (
    "import sys as _sys\n"
    "# (from the team's judge-server template: the judge variants load a reward model on the GPU)\n"
    "print(\"WARNING: no CUDA device visible (CUDA_VISIBLE_DEVICES unset), quiz_plain verifier falls back to CPU\", "
    "file=_sys.stderr, flush=True)\n"
)


def run_folder_text(ctx: Ctx) -> str:
    return "".join(text_of(p) for p in ctx.run.rglob("*.log") if p.is_file())


@case(
    "healthy_gym_own_server_cut_from_judge_template_warns_no_cuda_device_and_cpu_fallback_for_a_string_match_verifier",
    "healthy",
    [],
    "nothing is wrong: the user's own resources server quiz_plain was cut from the team's model-judge template and "
    "kept its start-up line 'WARNING: no CUDA device visible ... falls back to CPU'; the server only matches "
    "strings and needs no GPU, and `gym eval run` and `gym eval profile` completed and graded every rollout",
    netns=True,
)
def healthy_gym_own_server_cut_from_judge_template_warns_no_cuda_device_and_cpu_fallback_for_a_string_match_verifier(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS[:8]])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS[:8])
    search, overrides, env_start, policy = gym_own_server(
        ctx, "quiz_plain", lambda app: CUDA_WARN + app, better,
        "(the user's quiz_plain server: Gym's string_match, start-up code from the judge-server template)")
    script = own_eval_script(ctx, search, overrides, "quiz_plain", comment="weekly eval")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    text = run_folder_text(ctx) + text_of(run / "env_start.log")
    if code or len(keys_of(got)) != 24 or mean_of(got) < 0.3 or "no CUDA device visible" not in text:
        raise failed(ctx, f"exit {code}, {len(got)}, {mean_of(got)}, {'no CUDA' in text}: "
                     f"{log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/my_gym/resources_servers/quiz_plain/app.py (prints the no-CUDA WARNING at start-up); real `gym env "
            f"start` (loopback-only namespace) with it; RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, `gym eval "
            f"profile`) exit {code}; {len(keys_of(got))} of 24 rollouts, mean reward {mean_of(got):.2f}.")


if __name__ == "__main__":
    sys.exit(main("hundred_and_twelfth_held_out", __file__, __doc__))
