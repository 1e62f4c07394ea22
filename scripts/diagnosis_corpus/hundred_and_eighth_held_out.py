"""Build the HUNDRED-AND-EIGHTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/hundred_and_eighth_held_out.py --out tests/data/diagnosis_corpus/hundred_and_eighth_held_out [--only CASE ...]

This set was written after the a hundred and seven earlier sets (first_held_out.py ... hundred_and_seventh_held_out.py; the
hundred-and-ninth was being written beside it at the same time), from the
guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`),
the real NeMo Gym 0.7.0 (`gym env start`, `gym eval run`, `gym eval profile`) with the users' own resources servers,
Slurm jobs (sbatch and its options, job names, time limits, job states), and the user's own shell and Python tooling,
settings files, CI steps, report scripts, data-preparation scripts and verifiers. The output of every command is
captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own
inputs (data, scripts, settings, verifier code). Each case injects one cause, different in mechanism from those of
the 107 earlier sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and
the case is not written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Slurm
(SLURM_CONF, the fourth single-node cluster), and PYTHONPATH set to this checkout. Run it from a foreground shell. It
makes no Docker containers.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
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
from recipes import GP, Ctx, RecipeError, case, main, replace_verify, rows_of, text_of, unique_keys  # noqa: E402
from seventy_ninth_held_out import run_eval  # noqa: E402
from sixty_fourth_held_out import pipeline_lines  # noqa: E402
from sixty_third_held_out import mean_of  # noqa: E402
from thirtieth_held_out import gym_rows  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_third_held_out import write_jsonl  # noqa: E402

recipes.SERVICES_ENV["SLURM_CONF"] = "/tmp/gym-pipeline-services/slurm-4/slurm.conf"

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# data_schema (Slurm): the division drill's generator writes labels with fractions.Fraction, so 7 / 2 reads '7/2'
# =====================================================================================================

FRACTION_GEN_PY = '''"""make_tasks.py: operands.csv -> string_match.jsonl (the division drill set).

Quotients are computed exactly with Fraction (no float noise like 0.30000000000000004 in the labels).
"""
import csv
import json
from fractions import Fraction

PROMPT = "{question} End your response with 'Final answer: <answer>'."
with open("operands.csv") as f, open("string_match.jsonl", "w") as out:
    for row in csv.DictReader(f):
        quotient = Fraction(int(row["a"]), int(row["b"]))
        question = f"What is {row['a']} divided by {row['b']}?"
        out.write(json.dumps({"responses_create_params": {"input": [{"role": "user", "type": "message", "content": [
            {"type": "input_text", "text": PROMPT.format(question=question)}]}]},
            "expected_answer": str(quotient), "extraction_mode": "final_answer", "case_sensitive": False}) + "\\n")
print("wrote string_match.jsonl")
'''

DIVISIONS = [("84", "4"), ("7", "2"), ("144", "12"), ("9", "4"), ("250", "5"), ("33", "8"), ("96", "8"),
             ("15", "6"), ("1000", "25")]


def quotient_text(a: str, b: str) -> str:
    value = int(a) / int(b)
    return str(int(value)) if value == int(value) else str(value)


@case(
    "data_schema_slurm_division_task_generator_writes_labels_with_fractions_fraction_so_non_integer_quotients_read_7_2",
    "data_schema",
    ["make_tasks.py", "Fraction", "7/2", "expected_answer"],
    "make_tasks.py computes each quotient as fractions.Fraction and writes str(quotient) as expected_answer; whole "
    "quotients read '21', but the four non-integer ones read '7/2', '9/4', '33/8' and '5/2' while the prompts ask for "
    "a number and the model answered 3.5, 2.25, 4.125 and 2.5, so those right answers scored 0; every command and "
    "the Slurm job exited 0",
)
def data_schema_slurm_division_task_generator_writes_labels_with_fractions_fraction_so_non_integer_quotients_read_7_2(
        ctx: Ctx) -> str:
    run = ctx.run
    (run / "operands.csv").write_text("a,b\n" + "".join(f"{a},{b}\n" for a, b in DIVISIONS))
    (run / "make_tasks.py").write_text(FRACTION_GEN_PY)
    pairs = [(f"What is {a} divided by {b}?", quotient_text(a, b)) for a, b in DIVISIONS]
    _, better = truth_checkpoints(ctx, pairs)
    url, _ = ctx.policy(better, "--latency-ms 20")
    user_file(ctx, "eval.sbatch", SBATCH_HEAD + "# weekly eval (division drill): generate the tasks, materialize, "
              "collect, profile\nPY_BIN make_tasks.py\nPIPELINE\necho \"eval finished ($(date +%T))\"\n",
              TIME_LIMIT="20", PY_BIN=str(recipes.PY), PIPELINE=pipeline_lines(url).rstrip("\n"))
    submit_file(ctx)
    code = slurm_run(ctx)
    log = log_of(ctx, "submit.log")
    labels = [row["expected_answer"] for row in rows_of(run / "string_match.jsonl")]
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 27 or sum("/" in label for label in labels) != 4 or not profiled(ctx) \
            or mean_of(got) > 0.7 or "JobState=COMPLETED" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {labels}: {log[-1500:]}")
    return (f"RUN/operands.csv; RUN/make_tasks.py (expected_answer str(Fraction(a, b))); labels {labels}; "
            f"RUN/eval.sbatch (make_tasks.py, materialize 9 x 3, collect against {url}, profile) submitted by "
            f"RUN/submit.sh, exit {code}; JobState=COMPLETED; {complete(ctx)} of 27 rollouts, mean reward "
            f"{mean_of(got):.2f}.")


# =====================================================================================================
# config (Slurm): eval.toml spells the key num-repeats, the driver reads num_repeats with a default of 1
# =====================================================================================================

TOML_EVAL_PY = '''"""eval.py: the weekly eval, settings from eval.toml ([eval] table)."""
import subprocess
import sys
import tomllib

with open("eval.toml", "rb") as f:
    cfg = tomllib.load(f)["eval"]
repeats = cfg.get("num_repeats", 1)
concurrency = cfg.get("concurrency", 4)
print(f"eval: data={cfg['data']} repeats={repeats} concurrency={concurrency}", flush=True)
GP = "GP_BIN"
steps = [
    f"{GP} materialize --input {cfg['data']} --num-repeats {repeats} --agent string_match_simple_agent "
    "--output rollouts_materialized_inputs.jsonl",
    f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {sys.argv[1]} "
    f"--env string_match --concurrency {concurrency}",
    f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl",
]
for step in steps:
    subprocess.run(step, shell=True, check=True)
print("eval done", flush=True)
'''

EVAL_TOML = """# eval.toml: the weekly eval settings (reviewed in EVAL-77: 5 repeats for a stable pass@k)
[eval]
data = "string_match.jsonl"
num-repeats = 5
concurrency = 8
"""


@case(
    "config_slurm_python_driver_reads_num_repeats_with_underscore_while_eval_toml_spells_num_dash_repeats_so_default_1_runs",
    "config",
    ["eval.toml", "num-repeats", "num_repeats", "eval.py"],
    "eval.toml sets `num-repeats = 5` (with a dash) in its [eval] table, while eval.py reads "
    "cfg.get(\"num_repeats\", 1) (with an underscore); the key is never found, so the default 1 was used and the "
    "Slurm job evaluated 9 tasks x 1 repeat (9 rollouts instead of 45); the job COMPLETED and every command exited 0",
)
def config_slurm_python_driver_reads_num_repeats_with_underscore_while_eval_toml_spells_num_dash_repeats_so_default_1_runs(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "eval.py").write_text(TOML_EVAL_PY.replace("GP_BIN", str(GP)))
    (run / "eval.toml").write_text(EVAL_TOML)
    user_file(ctx, "eval.sbatch", SBATCH_HEAD + "# weekly eval: settings in eval.toml\nPY_BIN eval.py MODEL_URL\n"
              "echo \"eval finished ($(date +%T))\"\n", TIME_LIMIT="20", PY_BIN=str(recipes.PY), MODEL_URL=url)
    submit_file(ctx)
    code = slurm_run(ctx)
    log = log_of(ctx, "submit.log")
    if code or complete(ctx) != 9 or "repeats=1" not in log or not profiled(ctx) or "JobState=COMPLETED" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.toml ([eval] num-repeats = 5); RUN/eval.py (cfg.get('num_repeats', 1)); RUN/eval.sbatch "
            f"submitted by RUN/submit.sh, exit {code}; JobState=COMPLETED; collect against {url}: {complete(ctx)} "
            f"rollouts instead of 45.")


# =====================================================================================================
# cache_resume (built-in): the prep cache fingerprints only the first 4 KiB of the dataset, label fixes lie beyond
# =====================================================================================================

PREP_CACHE_PY = '''"""prep.py: string_match.jsonl -> prepared/tasks.jsonl (materialized inputs), cached.

The exports are up to 2 GB, so the cache key is a fast fingerprint: the md5 of the first 4 KiB and the repeats.
"""
import hashlib
import json
import os
import subprocess
import sys

DATA, REPEATS = "string_match.jsonl", int(sys.argv[1])
with open(DATA, "rb") as f:
    key = hashlib.md5(f.read(4096) + str(REPEATS).encode()).hexdigest()[:16]
cached = f"prep_cache/{key}.jsonl"
if os.path.exists(cached):
    print(f"prep cache hit {key}: reusing {cached}", flush=True)
else:
    os.makedirs("prep_cache", exist_ok=True)
    subprocess.run(["GP_BIN", "materialize", "--input", DATA, "--num-repeats", str(REPEATS), "--agent",
                    "string_match_simple_agent", "--output", cached], check=True)
    print(f"prep cache miss {key}: materialized into {cached}", flush=True)
with open(cached) as src, open("rollouts_materialized_inputs.jsonl", "w") as dst:
    dst.write(src.read())
'''

LONG_PAIRS = [(f"What is {n} plus 38?", str(n + 38)) for n in range(311, 341)]
FIXED_AT = (22, 25, 28)  # rows whose export label was wrong last week


@case(
    "cache_resume_builtin_prep_cache_keys_materialized_inputs_by_md5_of_first_4_kib_so_label_fixes_further_down_reuse_old_inputs",
    "cache_resume",
    ["prep.py", "f.read(4096)", "prep_cache", "string_match.jsonl"],
    "prep.py caches the materialized inputs under the md5 of the first 4 KiB of string_match.jsonl (plus the "
    "repeats); this week's export fixes three wrong labels in rows 23, 26 and 29, beyond the first 4 KiB, so the "
    "fingerprint was unchanged, prep.py printed 'prep cache hit' and reused last week's inputs with the old wrong "
    "labels, and the model's right answers to those tasks scored 0; every command exited 0",
)
def cache_resume_builtin_prep_cache_keys_materialized_inputs_by_md5_of_first_4_kib_so_label_fixes_further_down_reuse_old_inputs(
        ctx: Ctx) -> str:
    run = ctx.run
    wrong = [(q, str(int(a) + 10) if i in FIXED_AT else a) for i, (q, a) in enumerate(LONG_PAIRS)]
    data = write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in wrong])
    offset = len("".join(json.dumps(question_row(q, a)) + "\n" for q, a in wrong[:FIXED_AT[0]]).encode())
    if offset <= 4096:
        raise RecipeError(f"first fixed row starts at byte {offset}, inside the fingerprint")
    (run / "prep.py").write_text(PREP_CACHE_PY.replace("GP_BIN", str(GP)))
    ctx.sh(f"cd {run} && {recipes.PY} prep.py 2", "logs/prep_last_week.log")
    ctx.note("(last week's run prepared the export into RUN/prep_cache; this week the export fixes three labels)")
    write_jsonl(data, [question_row(q, a) for q, a in LONG_PAIRS])
    _, better = truth_checkpoints(ctx, LONG_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    body = (f"{recipes.PY} prep.py 2\n"
            f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {url} "
            "--env string_match --concurrency 8\n"
            f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    code = run_eval(ctx, body, "weekly eval: prepare (cached), collect, profile")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    stale = [r for r in rows_of(run / "rollouts_materialized_inputs.jsonl")
             if r.get("expected_answer") in {str(int(LONG_PAIRS[i][1]) + 10) for i in FIXED_AT}]
    if code or "prep cache hit" not in log or complete(ctx) != 60 or len(stale) != 6 or not profiled(ctx):
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {len(stale)}: {log[-1500:]}")
    return (f"RUN/prep.py (cache key md5 of the first 4096 bytes); RUN/prep_cache from last week; "
            f"RUN/string_match.jsonl relabelled in rows 23, 26, 29 (from byte {offset}); RUN/run_eval.sh exit {code}; "
            f"'prep cache hit'; {len(stale)} inputs with old labels; {complete(ctx)} of 60 rollouts, mean reward "
            f"{mean_of(got):.2f}.")


# =====================================================================================================
# model_serving (built-in): the restart script kills the bash wrapper's pid, the old server keeps the port
# =====================================================================================================

RESTART_SH = """#!/bin/bash
# restart_server.sh CKPT: (re)start the eval model server on port PORT with checkpoint CKPT
cd RUN_DIR
CKPT=$1
if [ -f logs/model_server.pid ]; then
  echo "stopping old server (pid $(cat logs/model_server.pid))"
  kill $(cat logs/model_server.pid) 2>/dev/null
  sleep 2
fi
nohup bash -c "GP_BIN serve-policy --port PORT --checkpoint $CKPT --latency-ms 20 >> logs/model_server.log 2>&1; echo \\"model server exited (\\$?)\\" >> logs/model_server.log" > /dev/null 2>&1 &
echo $! > logs/model_server.pid
for i in $(seq 60); do curl -s -o /dev/null http://127.0.0.1:PORT/v1/models && break; sleep 1; done
echo "serving $CKPT on http://127.0.0.1:PORT"
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def kill_servers_of(port: int) -> None:
    """Stop the servers restart_server.sh started on `port` (this case's own, by pid)."""
    listing = subprocess.run(["ps", "-eo", "pid=,args="], capture_output=True, text=True, check=False).stdout
    for line in listing.splitlines():
        pid, _, args = line.strip().partition(" ")
        if "serve-policy" in args and f"--port {port} " in args:
            try:
                os.kill(int(pid), signal.SIGTERM)
            except (ProcessLookupError, ValueError):
                pass


@case(
    "model_serving_builtin_restart_script_kills_pid_of_bash_wrapper_so_last_weeks_server_keeps_the_port_and_serves_step_900",
    "model_serving",
    ["restart_server.sh", "model_server.pid", "bash -c", "step_900"],
    "restart_server.sh starts the server inside `nohup bash -c \"serve-policy ...; echo ...\"` and saves $! (the "
    "bash wrapper's pid) in logs/model_server.pid; on restart it kills that wrapper only, so last week's server "
    "process for ckpts/step_900 kept running on the port, the new server for ckpts/step_1000 could not bind it and "
    "exited, and the readiness loop and collect talked to the old step_900 server; every command exited 0",
)
def model_serving_builtin_restart_script_kills_pid_of_bash_wrapper_so_last_weeks_server_keeps_the_port_and_serves_step_900(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    worse, better = truth_checkpoints(ctx, PLUS_PAIRS)
    (run / "ckpts").mkdir()
    shutil.copytree(worse, run / "ckpts" / "step_900")
    shutil.copytree(better, run / "ckpts" / "step_1000")
    port = free_port()
    user_file(ctx, "restart_server.sh", RESTART_SH, PORT=str(port))
    try:
        ctx.sh(f"bash {run}/restart_server.sh ckpts/step_900", "logs/restart_last_week.log", timeout=90)
        ctx.note("(last week: RUN/restart_server.sh ckpts/step_900; this week the eval restarts it with step_1000)")
        code = run_eval(ctx, "bash restart_server.sh ckpts/step_1000\n" + pipeline_lines(f"http://127.0.0.1:{port}/v1"),
                        "weekly eval of the newest checkpoint: restart the server on it, materialize, collect, profile")
    finally:
        time.sleep(1)
        kill_servers_of(port)
    log = log_of(ctx, "run_eval.log")
    server_log = text_of(run / "logs" / "model_server.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 27 or "model server exited" not in server_log or not profiled(ctx) \
            or "serving ckpts/step_1000" not in log or mean_of(got) > 0.9:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {mean_of(got)}: {log[-1000:]} {server_log[-1500:]}")
    return (f"RUN/restart_server.sh (nohup bash -c wrapper, $! saved as pid, fixed port {port}); last week's "
            f"step_900 server left running; RUN/run_eval.sh (restart with step_1000, materialize 9 x 3, collect, "
            f"profile) exit {code}; the step_1000 server exited (port taken); {complete(ctx)} of 27 rollouts, mean "
            f"reward {mean_of(got):.2f} (step_900's).")


# =====================================================================================================
# verifier_runtime (real NeMo Gym): the user's verify compares answers as Decimal, which raises on word answers
# =====================================================================================================

DECIMAL_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        import decimal

        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        # compare numerically, so that '21', '21.0' and '21.00' all match (QUIZ-402)
        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = float(decimal.Decimal(extracted.strip()) == decimal.Decimal(body.expected_answer.strip()))

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""

MIXED_PAIRS = PLUS_PAIRS[:5] + [("What is the capital of France?", "Paris"),
                                ("What is the chemical symbol of gold?", "Au"),
                                ("Which planet is known as the red planet?", "Mars")]


@case(
    "verifier_runtime_gym_own_verify_compares_answers_as_decimal_so_word_answers_raise_invalidoperation",
    "verifier_runtime",
    ["app.py", "decimal.Decimal", "InvalidOperation", "Paris"],
    "the user's own resources server quiz_num compares answer and label as decimal.Decimal to accept '21.0' for "
    "'21'; the set also holds word-answer tasks (Paris, Au, Mars), for which Decimal('Paris') raises "
    "decimal.InvalidOperation inside verify, so those rollouts were never graded or written although the data and "
    "the model's answers were fine (only word answers the extraction returned nothing for were graded)",
    netns=True,
)
def verifier_runtime_gym_own_verify_compares_answers_as_decimal_so_word_answers_raise_invalidoperation(ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in MIXED_PAIRS])
    _, better = truth_checkpoints(ctx, MIXED_PAIRS)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "quiz_num", lambda app: replace_verify(app, DECIMAL_VERIFY), better,
        "(the user's quiz_num server: Gym's string_match with a numeric Decimal comparison)")
    script = own_eval_script(ctx, search, overrides, "quiz_num", comment="weekly eval")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    server_log = text_of(run / "env_start.log") + log_of(ctx, "run_eval.log")
    graded_words = labelled(got, "Paris", "Au", "Mars")
    missing = 24 - len(keys_of(got))
    if (not code and missing == 0) or missing < 6 or len(graded_words) > 3 or len(keys_of(got)) < 15 \
            or "InvalidOperation" not in server_log:
        raise failed(ctx, f"exit {code}, {len(got)}, {len(graded_words)}: {server_log[-2000:]}")
    return (f"RUN/my_gym/resources_servers/quiz_num/app.py (verify: decimal.Decimal(extracted) == "
            f"decimal.Decimal(label)); real `gym env start` (loopback-only namespace) with it; RUN/run_eval.sh (`gym "
            f"eval run --no-serve` 8 x 3, `gym eval profile`) exit {code}; {len(keys_of(got))} of 24 rollouts "
            f"written ({len(graded_words)} of the 9 word-answer rollouts); InvalidOperation in the server log.")


# =====================================================================================================
# healthy (real NeMo Gym): the user's verify prints an ERROR audit line for every wrong answer of the model
# =====================================================================================================

AUDIT_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = float(extracted.strip().lower() == body.expected_answer.strip().lower())
        if reward == 0.0:  # grading audit (QUIZ-377): every zero reward is logged for the reviewers
            print(f"ERROR grading: reward 0.0 expected={body.expected_answer!r} got={extracted!r}", flush=True)

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""


@case(
    "healthy_gym_own_verify_prints_error_grading_line_for_every_wrong_answer_of_the_weaker_checkpoint_as_reviewer_audit",
    "healthy",
    [],
    "nothing is wrong: the user's own resources server quiz_audit prints 'ERROR grading: reward 0.0 expected=... "
    "got=...' for every zero reward, an audit trail for the reviewers; the evaluated checkpoint is an early one that "
    "gets some tasks wrong, so the server log holds many ERROR lines, but every rollout was graded, written and "
    "profiled and the rewards are the checkpoint's real ones",
    netns=True,
)
def healthy_gym_own_verify_prints_error_grading_line_for_every_wrong_answer_of_the_weaker_checkpoint_as_reviewer_audit(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS[:8]])
    worse, _ = truth_checkpoints(ctx, PLUS_PAIRS[:8])
    search, overrides, env_start, policy = gym_own_server(
        ctx, "quiz_audit", lambda app: replace_verify(app, AUDIT_VERIFY), worse,
        "(the user's quiz_audit server: Gym's string_match plus an audit line for every zero reward; early checkpoint)")
    script = own_eval_script(ctx, search, overrides, "quiz_audit", comment="weekly eval of the early checkpoint")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    server_log = text_of(run / "env_start.log")
    if code or len(keys_of(got)) != 24 or "ERROR grading" not in server_log or not any(rewards(got)) \
            or not list(run.glob("results/*reward_profiling*.jsonl")):
        raise failed(ctx, f"exit {code}, {len(got)}: {server_log[-1500:]}")
    return (f"RUN/my_gym/resources_servers/quiz_audit/app.py (prints 'ERROR grading' on each zero reward); real `gym "
            f"env start` (loopback-only namespace) with it; RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, `gym "
            f"eval profile`) exit {code}; {len(keys_of(got))} of 24 rollouts, mean {mean_of(got):.2f}; "
            f"{server_log.count('ERROR grading')} ERROR lines.")


# =====================================================================================================
# healthy (Slurm): the job records the eval code's commit with git rev-parse in a folder that is no git checkout
# =====================================================================================================

GIT_SBATCH = SBATCH_HEAD + """# record which eval tools ran (a git checkout on the dev nodes, an rsync copy on this cluster)
echo "eval tools commit: $(git -C EVAL_TOOLS rev-parse --short HEAD || echo unknown)"
PIPELINE
echo "eval finished ($(date +%T))"
"""


@case(
    "healthy_slurm_job_records_eval_tools_commit_with_git_rev_parse_in_rsync_copy_so_git_prints_fatal_not_a_git_repository",
    "healthy",
    [],
    "nothing is wrong: the job records the eval tools' commit with `git -C <eval-tools> rev-parse --short HEAD`; on "
    "this cluster the tools folder is an rsync copy, not a git checkout, so git prints 'fatal: not a git repository' and the commit is "
    "logged as unknown; materialize, collect and profile completed every rollout and the job COMPLETED",
)
def healthy_slurm_job_records_eval_tools_commit_with_git_rev_parse_in_rsync_copy_so_git_prints_fatal_not_a_git_repository(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server.log")
    tools = ctx.work / "eval-tools"  # the team's eval tools, rsynced to the cluster without their .git
    tools.mkdir()
    (tools / "README.md").write_text("eval tools (synced from git by rsync --exclude .git)\n")
    user_file(ctx, "eval.sbatch", GIT_SBATCH, TIME_LIMIT="20", PIPELINE=pipeline_lines(url).rstrip("\n"),
              EVAL_TOOLS=str(tools))
    submit_file(ctx)
    code = slurm_run(ctx)
    log = log_of(ctx, "submit.log")
    if code or complete(ctx) != 27 or "not a git repository" not in log or not profiled(ctx) \
            or "JobState=COMPLETED" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.sbatch (git -C eval-tools rev-parse --short HEAD, then materialize 9 x 3, collect against {url}, profile); "
            f"RUN/submit.sh exit {code}; 'fatal: not a git repository' in the job log; {complete(ctx)} of 27 "
            f"rollouts, mean reward {mean_of(rows_of(run / 'rollouts.jsonl')):.2f}; JobState=COMPLETED.")


# =====================================================================================================
# throughput_resources (Slurm): the sharded collect takes the job's flock in every shard, so shards run one by one
# =====================================================================================================

SHARD_SBATCH = SBATCH_HEAD.replace("#SBATCH --time=TIME_LIMIT", "#SBATCH --time=2\n"
                                   "# --time=2: 4 shards in parallel take under a minute") + """GP_BIN materialize --input string_match.jsonl --num-repeats 2 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
split -n l/4 -d --additional-suffix=.jsonl rollouts_materialized_inputs.jsonl shard_
for s in shard_0*.jsonl; do
  # flock: two evals must never collect on this node at the same time (INC-2211)
  flock logs/collect.lock GP_BIN collect --inputs $s --output ${s%.jsonl}_rollouts.jsonl --model-url MODEL_URL --env string_match --concurrency 2 &
done
wait
cat shard_0*_rollouts.jsonl > rollouts.jsonl
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
echo "eval finished ($(date +%T))"
"""

SHARD_PAIRS = [(f"What is {n} plus 43?", str(n + 43)) for n in range(501, 561)]


@case(
    "throughput_resources_slurm_sharded_collect_takes_node_flock_in_every_shard_so_four_shards_run_serially_past_two_minute_limit",
    "throughput_resources",
    ["eval.sbatch", "flock logs/collect.lock", "--time=2", "--concurrency 2"],
    "eval.sbatch splits the 120 materialized rollouts into 4 shards and starts one collect per shard in the "
    "background, but wraps each in `flock logs/collect.lock` (meant to keep two evals off the node), so the shards "
    "took the lock one after another: 4 x 30 rollouts at 3 s a completion two at a time needed about 180 s instead "
    "of 45 s, and Slurm killed the job at its two-minute limit (JobState=TIMEOUT) before the concatenation and the "
    "profile, while the server (--max-running 64) had room for all shards at once",
)
def throughput_resources_slurm_sharded_collect_takes_node_flock_in_every_shard_so_four_shards_run_serially_past_two_minute_limit(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in SHARD_PAIRS])
    _, better = truth_checkpoints(ctx, SHARD_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 3000 --max-running 64", log="logs/model_server.log")
    user_file(ctx, "eval.sbatch", SHARD_SBATCH, MODEL_URL=url)
    submit_file(ctx)
    code = slurm_run(ctx, timeout=330)
    log = log_of(ctx, "submit.log")
    done = sum(len(unique_keys(p)) for p in run.glob("shard_0*_rollouts.jsonl"))
    if done >= 120 or "JobState=TIMEOUT" not in log or profiled(ctx) or len(list(run.glob("shard_0*.jsonl"))) < 5:
        raise failed(ctx, f"exit {code}, {done}: {log[-1500:]}")
    return (f"RUN/eval.sbatch (#SBATCH --time=2; materialize 60 x 2, split into 4 shards, `flock logs/collect.lock` "
            f"collect --concurrency 2 per shard in the background against {url}, 3 s a completion, server "
            f"--max-running 64); RUN/submit.sh exit {code}; JobState=TIMEOUT; {done} of 120 rollouts in the shard "
            f"files, no profile.")


# =====================================================================================================
# healthy (built-in): the Makefile forces -j4 on its collect sub-make, and make warns it resets jobserver mode
# =====================================================================================================

TOP_MAKEFILE = """# Makefile: the weekly eval (make -j2 eval MODEL_URL=...)
GP := GP_BIN

rollouts_materialized_inputs.jsonl: string_match.jsonl
\t$(GP) materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output $@

eval: rollouts_materialized_inputs.jsonl
\t$(MAKE) -j4 -f collect.mk MODEL_URL=$(MODEL_URL)
\t$(GP) profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
.PHONY: eval
"""

COLLECT_MK = """# collect.mk: the collect step (shared with the nightly smoke eval, which runs it on its own)
GP := GP_BIN

rollouts.jsonl: rollouts_materialized_inputs.jsonl
\t$(GP) collect --inputs $< --output $@ --model-url $(MODEL_URL) --env string_match --concurrency 4
"""


@case(
    "healthy_builtin_makefile_forces_j4_on_collect_sub_make_so_make_warns_it_resets_jobserver_mode_yet_builds_everything",
    "healthy",
    [],
    "nothing is wrong: `make -j2 eval` runs the shared collect.mk as `$(MAKE) -j4 -f collect.mk`, and GNU make "
    "prints 'warning: -j4 forced in submake: resetting jobserver mode.' because the sub-make's own -j overrides the "
    "parent's job slots; that only changes how many recipes may run at once, and materialize, collect and profile "
    "completed every rollout",
)
def healthy_builtin_makefile_forces_j4_on_collect_sub_make_so_make_warns_it_resets_jobserver_mode_yet_builds_everything(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "Makefile").write_text(TOP_MAKEFILE.replace("GP_BIN", str(GP)))
    (run / "collect.mk").write_text(COLLECT_MK.replace("GP_BIN", str(GP)))
    code = run_eval(ctx, f"make -j2 eval MODEL_URL={url}\n", "weekly eval through the Makefile")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 27 or "jobserver" not in log or not profiled(ctx) or not any(rewards(got)):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/Makefile (`$(MAKE) -j4 -f collect.mk`); RUN/collect.mk; RUN/run_eval.sh (`make -j2 eval "
            f"MODEL_URL={url}`) exit {code}; the jobserver warning printed; {complete(ctx)} of 27 rollouts, mean "
            f"reward {mean_of(got):.2f}.")


# =====================================================================================================
# infra (built-in): the node's ephemeral port range was narrowed to four ports, so concurrent connects fail
# =====================================================================================================


@case(
    "infra_builtin_node_sysctl_narrows_ephemeral_port_range_to_four_ports_so_concurrent_model_connections_cannot_get_a_local_port",
    "infra",
    ["ip_local_port_range", "61000 61003", "sysctl", "Cannot assign requested address"],
    "the node's sysctl tuning (left from the port-reservation setup of another service) narrowed "
    "net.ipv4.ip_local_port_range to '61000 61003', four ephemeral ports; collect opens 16 connections to the model "
    "server at once, so most connects failed with 'Cannot assign requested address' and rollouts were lost, although "
    "the data, the settings and the model server were fine",
    netns=True,
)
def infra_builtin_node_sysctl_narrows_ephemeral_port_range_to_four_ports_so_concurrent_model_connections_cannot_get_a_local_port(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 200")
    subprocess.run(["sysctl", "-w", "net.ipv4.ip_local_port_range=61000 61003"], check=True, capture_output=True)
    ctx.note("(the node: sysctl net.ipv4.ip_local_port_range = 61000 61003, left by another service's port setup)")
    code = run_eval(ctx, "sysctl net.ipv4.ip_local_port_range\n" + pipeline_lines(url, concurrency=16),
                    "weekly eval: materialize, collect, profile (node settings recorded first)")
    log = log_of(ctx, "run_eval.log")
    said = [p.name for p in run.rglob("*.jsonl") if "assign requested address" in text_of(p).lower()]
    if not code or complete(ctx) >= 27 or not said:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {sorted(p.name for p in run.rglob('*'))}: {log[-800:]}")
    return (f"node sysctl net.ipv4.ip_local_port_range = 61000 61003 (loopback-only namespace); RUN/run_eval.sh "
            f"(materialize 9 x 3, collect --concurrency 16 against {url}, profile) exit {code}; {complete(ctx)} of 27 "
            f"rollouts; 'Cannot assign requested address' in {said}.")


if __name__ == "__main__":
    sys.exit(main("hundred_and_eighth_held_out", __file__, __doc__))
