"""Build the HUNDRED-AND-TENTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/hundred_and_tenth_held_out.py --out tests/data/diagnosis_corpus/hundred_and_tenth_held_out [--only CASE ...]

This set was written after the a hundred and nine earlier sets (first_held_out.py ... hundred_and_ninth_held_out.py; the
hundred-and-eleventh was being written beside it at the same time), from the
guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`),
the real NeMo Gym 0.7.0 (`gym env start`, `gym eval run`, `gym eval profile`) with the users' own resources servers,
Slurm jobs (sbatch and its options, job names, time limits, job states, reservations), and the user's own shell and
Python tooling, Makefiles, settings, data-preparation scripts and verifiers. The output of every command is
captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own
inputs (data, scripts, settings, verifier code). Each case injects one cause, different in mechanism from those of
the 109 earlier sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and
the case is not written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Slurm
(SLURM_CONF, the fourth single-node cluster), and PYTHONPATH set to this checkout. Run it from a foreground shell. It
makes no Docker containers.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from fractions import Fraction
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


# =====================================================================================================
# data_schema (built-in): the rounding drill's generator labels with Python's round(), which rounds halves to even
# =====================================================================================================

ROUND_GEN_PY = '''"""make_tasks.py: operands.csv -> string_match.jsonl (the rounding drill: quotients rounded to whole numbers)."""
import csv
import json

PROMPT = "{question} End your response with 'Final answer: <answer>'."
with open("operands.csv") as f, open("string_match.jsonl", "w") as out:
    for row in csv.DictReader(f):
        a, b = int(row["a"]), int(row["b"])
        question = f"What is {a} divided by {b}, rounded to the nearest whole number (halves round up)?"
        out.write(json.dumps({"responses_create_params": {"input": [{"role": "user", "type": "message", "content": [
            {"type": "input_text", "text": PROMPT.format(question=question)}]}]},
            "expected_answer": str(round(a / b)), "extraction_mode": "final_answer", "case_sensitive": False}) + "\\n")
print("wrote string_match.jsonl")
'''

ROUND_OPERANDS = [(5, 2), (17, 3), (9, 2), (13, 2), (50, 4), (22, 4), (84, 8), (29, 5), (15, 6), (100, 7)]


def half_up(a: int, b: int) -> str:
    return str(int(Fraction(a, b) + Fraction(1, 2)))


@case(
    "data_schema_builtin_rounding_drill_generator_labels_with_python_round_which_rounds_halves_to_even_so_2_5_reads_2",
    "data_schema",
    ["make_tasks.py", "round(a / b)", "halves round up", "expected_answer"],
    "make_tasks.py writes expected_answer as str(round(a / b)); Python's round() rounds halves to the even neighbour, "
    "so 5/2, 9/2, 13/2, 50/4, 84/8 and 15/6 got the labels 2, 4, 6, 12, 10 and 2 while the prompts ask for halves "
    "rounded up and the model answered 3, 5, 7, 13, 11 and 3, so those right answers scored 0; every command exited 0",
)
def data_schema_builtin_rounding_drill_generator_labels_with_python_round_which_rounds_halves_to_even_so_2_5_reads_2(
        ctx: Ctx) -> str:
    run = ctx.run
    (run / "operands.csv").write_text("a,b\n" + "".join(f"{a},{b}\n" for a, b in ROUND_OPERANDS))
    (run / "make_tasks.py").write_text(ROUND_GEN_PY)
    pairs = [(f"What is {a} divided by {b}, rounded to the nearest whole number (halves round up)?", half_up(a, b))
             for a, b in ROUND_OPERANDS]
    _, better = truth_checkpoints(ctx, pairs)
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = run_eval(ctx, f"{recipes.PY} make_tasks.py\n" + pipeline_lines(url),
                    "weekly eval (rounding drill): generate the tasks, materialize, collect, profile")
    labels = [row["expected_answer"] for row in rows_of(run / "string_match.jsonl")]
    wrong = [i for i, (label, (_, truth)) in enumerate(zip(labels, pairs)) if label != truth]
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 30 or len(wrong) != 6 or not profiled(ctx) or mean_of(got) > 0.7:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {labels}, {wrong}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/operands.csv; RUN/make_tasks.py (expected_answer str(round(a / b))); labels {labels}; "
            f"RUN/run_eval.sh (make_tasks.py, materialize 10 x 3, collect against {url}, profile) exit {code}; "
            f"{complete(ctx)} of 30 rollouts, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# data_schema (Slurm): the shopping drill's generator formats every total as money with :.2f, so 7.5 reads 7.50
# =====================================================================================================

MONEY_GEN_PY = '''"""make_tasks.py: items.csv -> string_match.jsonl (the shopping drill: total cost of two items)."""
import csv
import json

PROMPT = "{question} End your response with 'Final answer: <answer>'."
with open("items.csv") as f, open("string_match.jsonl", "w") as out:
    for row in csv.DictReader(f):
        total = float(row["price_a"]) + float(row["price_b"])
        question = f"A {row['a']} costs ${row['price_a']} and a {row['b']} costs ${row['price_b']}. What is the total in dollars?"
        out.write(json.dumps({"responses_create_params": {"input": [{"role": "user", "type": "message", "content": [
            {"type": "input_text", "text": PROMPT.format(question=question)}]}]},
            "expected_answer": f"{total:.2f}", "extraction_mode": "final_answer", "case_sensitive": False}) + "\\n")
print("wrote string_match.jsonl")
'''

ITEMS = [("notebook", "2.25", "pen", "1.5"), ("mug", "4.75", "spoon", "0.5"), ("lamp", "18", "bulb", "3.5"),
         ("chair", "45.5", "cushion", "12.3"), ("kettle", "21", "filter", "4"), ("towel", "6.4", "soap", "2.1"),
         ("umbrella", "13.2", "hat", "8.55"), ("cable", "7.5", "plug", "2.5"), ("book", "11.95", "bookmark", "1.3")]


def money_truth(a: str, b: str) -> str:
    total = Fraction(a) + Fraction(b)
    return str(int(total)) if total.denominator == 1 else str(float(total))


@case(
    "data_schema_slurm_shopping_drill_generator_formats_totals_as_money_with_2f_so_whole_and_one_decimal_totals_read_21_50_and_10_00",
    "data_schema",
    ["make_tasks.py", ":.2f", "expected_answer", "21.50"],
    "make_tasks.py writes each expected_answer as f\"{total:.2f}\"; totals with fewer decimals get padded labels "
    "such as '5.25' (fine) but also '21.50', '57.80', '25.00', '8.50' and '10.00', while the model answered 21.5, "
    "57.8, 25, 8.5 and 10, so exact string matching scored those right answers 0; every command and the Slurm job "
    "exited 0",
)
def data_schema_slurm_shopping_drill_generator_formats_totals_as_money_with_2f_so_whole_and_one_decimal_totals_read_21_50_and_10_00(
        ctx: Ctx) -> str:
    run = ctx.run
    (run / "items.csv").write_text("a,price_a,b,price_b\n" + "".join(f"{a},{pa},{b},{pb}\n" for a, pa, b, pb in ITEMS))
    (run / "make_tasks.py").write_text(MONEY_GEN_PY)
    pairs = [(f"A {a} costs ${pa} and a {b} costs ${pb}. What is the total in dollars?", money_truth(pa, pb))
             for a, pa, b, pb in ITEMS]
    _, better = truth_checkpoints(ctx, pairs)
    url, _ = ctx.policy(better, "--latency-ms 20")
    user_file(ctx, "eval.sbatch", SBATCH_HEAD + "# weekly eval (shopping drill): generate the tasks, materialize, "
              "collect, profile\nPY_BIN make_tasks.py\nPIPELINE\necho \"eval finished ($(date +%T))\"\n",
              TIME_LIMIT="20", PY_BIN=str(recipes.PY), PIPELINE=pipeline_lines(url).rstrip("\n"))
    submit_file(ctx)
    code = slurm_run(ctx)
    log = log_of(ctx, "submit.log")
    labels = [row["expected_answer"] for row in rows_of(run / "string_match.jsonl")]
    wrong = [label for label, (_, truth) in zip(labels, pairs) if label != truth]
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 27 or len(wrong) < 4 or not profiled(ctx) or mean_of(got) > 0.7 \
            or "JobState=COMPLETED" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {labels}, {wrong}: {log[-1500:]}")
    return (f"RUN/items.csv; RUN/make_tasks.py (expected_answer f'{{total:.2f}}'); labels {labels} (padded: {wrong}); "
            f"RUN/eval.sbatch (make_tasks.py, materialize 9 x 3, collect against {url}, profile) submitted by "
            f"RUN/submit.sh, exit {code}; JobState=COMPLETED; {complete(ctx)} of 27 rollouts, mean reward "
            f"{mean_of(got):.2f}.")


# =====================================================================================================
# cache_resume (built-in): `make clean` removes *.stamp, which does not match the hidden .collect.stamp
# =====================================================================================================

STAMP_MAKEFILE = """# Makefile: the weekly eval.  New checkpoint: make clean && make eval MODEL_URL=...
GP := GP_BIN

rollouts_materialized_inputs.jsonl: string_match.jsonl
\t$(GP) materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output $@

# the stamp is hidden so that `ls` of the run folder stays readable
.collect.stamp: rollouts_materialized_inputs.jsonl
\t$(GP) collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $(MODEL_URL) --env string_match --concurrency 4
\ttouch $@

eval: .collect.stamp
\t$(GP) profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl

# clean: forget the collected rollouts so that the next `make eval` collects again (new checkpoint)
clean:
\trm -f *.stamp rollouts_reward_profiling.jsonl
.PHONY: eval clean
"""


@case(
    "cache_resume_builtin_makefile_clean_removes_star_stamp_which_skips_hidden_dot_collect_stamp_so_new_checkpoint_is_never_collected",
    "cache_resume",
    ["Makefile", ".collect.stamp", "rm -f *.stamp", "clean"],
    "the Makefile marks a finished collect with the hidden file .collect.stamp, and its clean target runs "
    "`rm -f *.stamp`, whose glob does not match names starting with a dot; after `make clean` for the new checkpoint "
    "the stamp of last week's collect survived, so `make eval` found it up to date, skipped collect against the new "
    "server and profiled last week's rollouts.jsonl of the older checkpoint; every command exited 0",
)
def cache_resume_builtin_makefile_clean_removes_star_stamp_which_skips_hidden_dot_collect_stamp_so_new_checkpoint_is_never_collected(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    worse, better = truth_checkpoints(ctx, PLUS_PAIRS)
    (run / "Makefile").write_text(STAMP_MAKEFILE.replace("GP_BIN", str(GP)))
    old_url, old_server = ctx.policy(worse, "--latency-ms 20", log="logs/model_server_last_week.log")
    ctx.sh(f"cd {run} && make eval MODEL_URL={old_url}", "logs/make_last_week.log", timeout=200)
    old_server.terminate()
    ctx.note("(last week: `make eval` against the step_0100 server, since stopped; this week the step_0200 server)")
    last_week = mean_of(rows_of(run / "rollouts.jsonl"))
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = run_eval(ctx, f"make clean\nmake eval MODEL_URL={url}\nls -la\n",
                    "weekly eval of the new checkpoint: clean, then make eval")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or " collect " in log or not (run / ".collect.stamp").exists() or not profiled(ctx) \
            or complete(ctx) != 27 or abs(mean_of(got) - last_week) > 1e-9:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {mean_of(got)} vs {last_week}: {log[-1500:]}")
    return (f"RUN/Makefile (.collect.stamp; clean: rm -f *.stamp); last week's make eval against {old_url} "
            f"(step_0100, mean {last_week:.2f}); RUN/run_eval.sh (make clean; make eval MODEL_URL={url}) exit {code}; "
            f"no collect ran; {complete(ctx)} rollouts profiled, mean {mean_of(got):.2f} (last week's).")


# =====================================================================================================
# verifier_runtime (real NeMo Gym): the user's verify gives partial credit by relative error, dividing by the label
# =====================================================================================================

RELERR_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        reward = 0.0
        if extracted is not None and body.expected_answer:
            try:
                got, want = float(extracted.strip()), float(body.expected_answer.strip())
            except ValueError:
                reward = float(extracted.strip().lower() == body.expected_answer.strip().lower())
            else:
                # partial credit for numeric answers (QUIZ-415): 1.0 when exact, 0.0 at 10% relative error
                reward = max(0.0, 1.0 - 10.0 * abs(got - want) / abs(want))

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""

ZERO_PAIRS = PLUS_PAIRS[:5] + [("What is 17 minus 17?", "0"), ("What is 0 times 46?", "0"),
                               ("What is 250 minus 250?", "0")]


@case(
    "verifier_runtime_gym_own_verify_gives_relative_error_partial_credit_dividing_by_the_label_so_zero_answers_raise_zerodivisionerror",
    "verifier_runtime",
    ["app.py", "abs(want)", "ZeroDivisionError", "relative error"],
    "the user's own resources server quiz_partial gives partial credit by relative error, 1 - 10 * |got - want| / "
    "|want|; three tasks have the answer 0, so verify raised ZeroDivisionError (float division by zero) for every "
    "rollout of them and those rollouts were never graded or written, although the data and the model's answers "
    "were fine",
    netns=True,
)
def verifier_runtime_gym_own_verify_gives_relative_error_partial_credit_dividing_by_the_label_so_zero_answers_raise_zerodivisionerror(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in ZERO_PAIRS])
    _, better = truth_checkpoints(ctx, ZERO_PAIRS)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "quiz_partial", lambda app: replace_verify(app, RELERR_VERIFY), better,
        "(the user's quiz_partial server: Gym's string_match with relative-error partial credit)")
    script = own_eval_script(ctx, search, overrides, "quiz_partial", comment="weekly eval")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    server_log = text_of(run / "env_start.log") + log_of(ctx, "run_eval.log")
    zeros = labelled(got, "0")
    missing = 24 - len(keys_of(got))
    if missing < 6 or len(zeros) > 3 or len(keys_of(got)) < 12 or "ZeroDivisionError" not in server_log:
        raise failed(ctx, f"exit {code}, {len(got)}, {len(zeros)}: {server_log[-2000:]}")
    return (f"RUN/my_gym/resources_servers/quiz_partial/app.py (verify: 1 - 10 * abs(got - want) / abs(want)); real "
            f"`gym env start` (loopback-only namespace) with it; RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, "
            f"`gym eval profile`) exit {code}; {len(keys_of(got))} of 24 rollouts written ({len(zeros)} of the 9 "
            f"zero-answer rollouts); ZeroDivisionError in the server log.")


# =====================================================================================================
# infra (Slurm): the admins put a maintenance reservation on the node that starts before the job's time limit ends
# =====================================================================================================

RESERVATION = "node_maint_h110"

WAIT_SUBMIT = """#!/bin/bash
# submit.sh: the weekly eval as one Slurm job; the CI step waits up to 2 minutes, then shows the log and state
cd RUN_DIR
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
for i in $(seq 120); do squeue -h -j $JOB 2>/dev/null | grep -q . || break; sleep 1; done
squeue -j $JOB -o "%.10i %.12j %.9T %.10l %R" 2>/dev/null
cat logs/eval_$JOB.log 2>/dev/null || echo "no job log yet (logs/eval_$JOB.log)"
scontrol show job $JOB 2>/dev/null | grep -o 'JobState=[A-Z]* Reason=[^ ]*\\|ExitCode=[0-9:]*\\|TimeLimit=[^ ]*' || true
"""


@case(
    "infra_slurm_admins_maintenance_reservation_on_the_node_starts_in_three_minutes_so_twenty_minute_eval_job_pends_reserved",
    "infra",
    ["reservation", "maintenance", "ReqNodeNotAvail", "--time=20"],
    "the cluster admins created a maintenance reservation (flags MAINT) on the only node, starting three minutes "
    "after submission; Slurm does not start a job whose time limit reaches into a reservation it is not part of, so "
    "the 20-minute eval job stayed PENDING (Reason=ReqNodeNotAvail, Reserved for maintenance), never ran, and the "
    "CI step gave up after two minutes with no rollouts, although the job script, data and model server were fine",
)
def infra_slurm_admins_maintenance_reservation_on_the_node_starts_in_three_minutes_so_twenty_minute_eval_job_pends_reserved(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server.log")
    user_file(ctx, "eval.sbatch", SBATCH_HEAD + "# weekly eval: materialize, collect, profile\nPIPELINE\n"
              "echo \"eval finished ($(date +%T))\"\n", TIME_LIMIT="20", PIPELINE=pipeline_lines(url).rstrip("\n"))
    user_file(ctx, "submit.sh", WAIT_SUBMIT)
    made = subprocess.run(["scontrol", "create", "reservation", f"ReservationName={RESERVATION}",
                           "StartTime=now+3minutes", "Duration=60", "Nodes=ALL", "Flags=MAINT", "Users=root"],
                          env=ctx.env, capture_output=True, text=True, check=False)
    if made.returncode:
        raise RecipeError(f"could not create the reservation: {made.stdout} {made.stderr}")
    try:
        ctx.note("(the admins: maintenance reservation on the node, starting 3 minutes from now, 60 minutes)")
        code = slurm_run(ctx, timeout=200)
    finally:
        subprocess.run(["scontrol", "delete", f"ReservationName={RESERVATION}"], env=ctx.env, capture_output=True,
                       check=False)
    log = log_of(ctx, "submit.log")
    if complete(ctx) or "PENDING" not in log or "ReqNodeNotAvail" not in log and "Reserved" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"maintenance reservation {RESERVATION} (Flags=MAINT, all nodes, from 3 minutes after submission); "
            f"RUN/eval.sbatch (--time=20; materialize, collect against {url}, profile); RUN/submit.sh exit {code}; "
            f"the job stayed PENDING with the reservation reason and was cancelled after the CI wait; no rollouts.")


# =====================================================================================================
# config (Slurm): eval.py's --data uses action="append" with the smoke set as default, so the smoke tasks stay in
# =====================================================================================================

APPEND_EVAL_PY = '''"""eval.py: the eval driver. python eval.py --data FILE [--data FILE ...] --model-url URL"""
import argparse
import subprocess

parser = argparse.ArgumentParser()
parser.add_argument("--data", action="append", default=["smoke.jsonl"],
                    help="task file(s), repeatable (default: the smoke set)")
parser.add_argument("--repeats", type=int, default=3)
parser.add_argument("--model-url", required=True)
args = parser.parse_args()
print(f"eval: data={args.data} repeats={args.repeats}", flush=True)
with open("tasks.jsonl", "w") as out:
    for name in args.data:
        with open(name) as f:
            out.write(f.read())
GP = "GP_BIN"
for step in [
    f"{GP} materialize --input tasks.jsonl --num-repeats {args.repeats} --agent string_match_simple_agent "
    "--output rollouts_materialized_inputs.jsonl",
    f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {args.model_url} "
    "--env string_match --concurrency 8",
    f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl",
]:
    subprocess.run(step, shell=True, check=True)
print("eval done", flush=True)
'''

SMOKE_PAIRS = [("What is 1 plus 1?", "2"), ("What is 2 plus 2?", "4"), ("What is 3 plus 1?", "4"),
               ("What is 5 plus 0?", "5"), ("What is 6 plus 1?", "7")]


@case(
    "config_slurm_python_driver_declares_data_with_argparse_append_and_smoke_default_so_smoke_tasks_join_every_eval",
    "config",
    ["eval.py", "action=\"append\"", "default=[\"smoke.jsonl\"]", "--data"],
    "eval.py declares --data with action=\"append\" and default=[\"smoke.jsonl\"]; argparse appends the given "
    "values to the default list instead of replacing it, so `--data string_match.jsonl` evaluated smoke.jsonl plus "
    "string_match.jsonl: the 5 trivial smoke tasks were mixed into the weekly results (42 rollouts instead of 27) "
    "and raised the mean reward; the Slurm job COMPLETED and every command exited 0",
)
def config_slurm_python_driver_declares_data_with_argparse_append_and_smoke_default_so_smoke_tasks_join_every_eval(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    write_jsonl(run / "smoke.jsonl", [question_row(q, a) for q, a in SMOKE_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS + SMOKE_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "eval.py").write_text(APPEND_EVAL_PY.replace("GP_BIN", str(GP)))
    user_file(ctx, "eval.sbatch", SBATCH_HEAD + "# weekly eval of the full set\nPY_BIN eval.py --data "
              "string_match.jsonl --repeats 3 --model-url MODEL_URL\necho \"eval finished ($(date +%T))\"\n",
              TIME_LIMIT="20", PY_BIN=str(recipes.PY), MODEL_URL=url)
    submit_file(ctx)
    code = slurm_run(ctx)
    log = log_of(ctx, "submit.log")
    if code or complete(ctx) != 42 or "'smoke.jsonl', 'string_match.jsonl'" not in log or not profiled(ctx) \
            or "JobState=COMPLETED" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.py (--data action='append', default ['smoke.jsonl']); RUN/smoke.jsonl (5 tasks); "
            f"RUN/eval.sbatch (eval.py --data string_match.jsonl) submitted by RUN/submit.sh, exit {code}; "
            f"JobState=COMPLETED; {complete(ctx)} rollouts instead of 27, mean reward "
            f"{mean_of(rows_of(run / 'rollouts.jsonl')):.2f}.")


# =====================================================================================================
# healthy (built-in): md5sum -c of the export's checksum file warns about its comment line, the one checksum is OK
# =====================================================================================================


@case(
    "healthy_builtin_run_script_checks_export_with_md5sum_c_whose_title_line_draws_improperly_formatted_warning",
    "healthy",
    [],
    "nothing is wrong: the run script verifies the weekly export with `md5sum -c string_match.md5`; the checksum "
    "file starts with a title line written by the export job, which md5sum does not understand, so it prints 'WARNING: 1 line is "
    "improperly formatted', but the one real checksum line reads 'string_match.jsonl: OK' and materialize, collect "
    "and profile completed every rollout",
)
def healthy_builtin_run_script_checks_export_with_md5sum_c_whose_title_line_draws_improperly_formatted_warning(
        ctx: Ctx) -> str:
    run = ctx.run
    data = write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    digest = subprocess.run(["md5sum", data.name], cwd=run, capture_output=True, text=True, check=True).stdout
    (run / "string_match.md5").write_text("weekly export 2026-12-07 (checksums from the export job)\n" + digest)
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = run_eval(ctx, "md5sum -c string_match.md5 || exit 1\n" + pipeline_lines(url),
                    "weekly eval: check the export, materialize, collect, profile")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 27 or "improperly formatted" not in log or "string_match.jsonl: OK" not in log \
            or not profiled(ctx) or not any(rewards(got)):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/string_match.md5 (title line + one checksum); RUN/run_eval.sh (md5sum -c, materialize 9 x 3, "
            f"collect against {url}, profile) exit {code}; 'improperly formatted' warning and 'OK'; {complete(ctx)} "
            f"of 27 rollouts, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# healthy (Slurm): the team's task linter prints ERROR style lines in --warn-only mode before the eval
# =====================================================================================================

LINT_PY = '''"""lint_tasks.py: style checks of a task file (the CI gate uses --strict; the weekly eval only reports)."""
import json
import sys

strict = "--strict" in sys.argv
path = [a for a in sys.argv[1:] if not a.startswith("--")][0]
problems = 0
for n, line in enumerate(open(path), 1):
    row = json.loads(line)
    text = row["responses_create_params"]["input"][0]["content"][0]["text"]
    if "  " in text:
        print(f"ERROR style: {path}:{n}: prompt has a double space", flush=True)
        problems += 1
print(f"lint: {problems} style problem(s) in {path}" + ("" if strict else " (--warn-only: not failing)"), flush=True)
sys.exit(1 if strict and problems else 0)
'''

LINT_PAIRS = [(q.replace(" plus ", "  plus ") if i % 3 == 0 else q, a) for i, (q, a) in enumerate(PLUS_PAIRS)]


@case(
    "healthy_slurm_job_runs_team_task_linter_in_warn_only_mode_which_prints_error_style_lines_for_double_spaces",
    "healthy",
    [],
    "nothing is wrong: the job first runs the team's lint_tasks.py in report mode, which prints 'ERROR style: ... "
    "prompt has a double space' for three prompts typed with a double space and exits 0 (--warn-only); the double "
    "spaces do not change the tasks, and materialize, collect and profile completed every rollout and the job "
    "COMPLETED",
)
def healthy_slurm_job_runs_team_task_linter_in_warn_only_mode_which_prints_error_style_lines_for_double_spaces(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in LINT_PAIRS])
    (run / "lint_tasks.py").write_text(LINT_PY)
    _, better = truth_checkpoints(ctx, LINT_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server.log")
    user_file(ctx, "eval.sbatch", SBATCH_HEAD + "# weekly eval: lint report (non-blocking), materialize, collect, "
              "profile\nPY_BIN lint_tasks.py --warn-only string_match.jsonl\nPIPELINE\n"
              "echo \"eval finished ($(date +%T))\"\n", TIME_LIMIT="20", PY_BIN=str(recipes.PY),
              PIPELINE=pipeline_lines(url).rstrip("\n"))
    submit_file(ctx)
    code = slurm_run(ctx)
    log = log_of(ctx, "submit.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 27 or log.count("ERROR style") != 3 or not profiled(ctx) \
            or "JobState=COMPLETED" not in log or not any(rewards(got)):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/lint_tasks.py; RUN/eval.sbatch (lint --warn-only, materialize 9 x 3, collect against {url}, "
            f"profile) submitted by RUN/submit.sh, exit {code}; 3 'ERROR style' lines; {complete(ctx)} of 27 "
            f"rollouts, mean reward {mean_of(got):.2f}; JobState=COMPLETED.")


# =====================================================================================================
# model_serving (built-in): serve.sh appends each new server's URL to servers.txt, the eval takes its first line
# =====================================================================================================

SERVE_SH = """#!/bin/bash
# serve.sh CKPT: start the eval model server on CKPT and register its URL in servers.txt (read by run_eval.sh)
cd RUN_DIR
READY=logs/ready_$$
nohup GP_BIN serve-policy --port 0 --ready-file $READY --checkpoint $1 --latency-ms 20 >> logs/model_server.log 2>&1 &
for i in $(seq 60); do [ -s $READY ] && break; sleep 0.5; done
cat $READY >> servers.txt
echo "serving $1 on $(cat $READY)"
"""


@case(
    "model_serving_builtin_serve_script_appends_new_server_url_to_servers_txt_while_eval_reads_its_first_line_so_step_0100_server_answers",
    "model_serving",
    ["serve.sh", "servers.txt", ">>", "head -n1"],
    "serve.sh registers each server it starts with `cat $READY >> servers.txt` (append) and run_eval.sh takes the "
    "endpoint with `head -n1 servers.txt`; last week's server for ckpts/step_0100 is still running and its URL is "
    "the first line, so after serve.sh started ckpts/step_0200 the eval collected from the old step_0100 server and "
    "the new checkpoint was never evaluated; every command exited 0",
)
def model_serving_builtin_serve_script_appends_new_server_url_to_servers_txt_while_eval_reads_its_first_line_so_step_0100_server_answers(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    worse, better = truth_checkpoints(ctx, PLUS_PAIRS)
    (run / "ckpts").mkdir()
    shutil.copytree(worse, run / "ckpts" / "step_0100")
    shutil.copytree(better, run / "ckpts" / "step_0200")
    user_file(ctx, "serve.sh", SERVE_SH)
    pids: list[str] = []
    try:
        ctx.sh(f"bash {run}/serve.sh ckpts/step_0100", "logs/serve_last_week.log", timeout=60)
        ctx.note("(last week: RUN/serve.sh ckpts/step_0100, server left running; this week serve.sh ckpts/step_0200)")
        code = run_eval(ctx, "bash serve.sh ckpts/step_0200\nMODEL_URL=$(head -n1 servers.txt)\n"
                        "echo \"evaluating $MODEL_URL\"\n" + pipeline_lines("$MODEL_URL"),
                        "weekly eval of the newest checkpoint: start its server, materialize, collect, profile")
    finally:
        listing = subprocess.run(["ps", "-eo", "pid=,args="], capture_output=True, text=True, check=False).stdout
        for line in listing.splitlines():
            pid, _, args = line.strip().partition(" ")
            if "serve-policy" in args and str(run / "logs" / "ready_") in args or (
                    "serve-policy" in args and "--ready-file logs/ready_" in args and "ckpts/step_0" in args):
                pids.append(pid)
        for pid in pids:
            subprocess.run(["kill", pid], check=False)
    log = log_of(ctx, "run_eval.log")
    urls = text_of(run / "servers.txt").split()
    got = rows_of(run / "rollouts.jsonl")
    if code or len(urls) != 2 or f"evaluating {urls[0]}" not in log or complete(ctx) != 27 or not profiled(ctx):
        raise failed(ctx, f"exit {code}, {urls}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/serve.sh (cat $READY >> servers.txt); RUN/servers.txt {urls}; RUN/run_eval.sh (serve.sh "
            f"ckpts/step_0200, MODEL_URL=$(head -n1 servers.txt), materialize 9 x 3, collect, profile) exit {code}; "
            f"collected from {urls[0]} (step_0100); {complete(ctx)} rollouts, mean reward {mean_of(got):.2f}; "
            f"stopped server pids {pids}.")


# =====================================================================================================
# healthy (built-in): the run script keeps the training template's 200 GB free-space check, which warns on this node
# =====================================================================================================

DISK_CHECK = """# free-space check (from the training job template: checkpoint dumps need 200 GB)
FREE_GB=$(df -BG --output=avail . | tail -1 | tr -dc 0-9)
if [ "$FREE_GB" -lt 200 ]; then
  echo "WARNING: only ${FREE_GB} GB free on $(df --output=target . | tail -1) (< 200 GB): outputs may not fit, continuing"
fi
"""


@case(
    "healthy_builtin_run_script_keeps_training_templates_200_gb_free_space_check_so_eval_node_warns_outputs_may_not_fit",
    "healthy",
    [],
    "nothing is wrong: run_eval.sh keeps the free-space check of the training job template, which warns when less "
    "than 200 GB are free (sized for checkpoint dumps); the eval node has less, so the log says 'WARNING: only N GB "
    "free ... outputs may not fit', but the eval writes well under a megabyte and materialize, collect and profile "
    "completed every rollout",
)
def healthy_builtin_run_script_keeps_training_templates_200_gb_free_space_check_so_eval_node_warns_outputs_may_not_fit(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = run_eval(ctx, DISK_CHECK + pipeline_lines(url) + "du -sh .\n",
                    "weekly eval: check free space, materialize, collect, profile")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 27 or "outputs may not fit" not in log or not profiled(ctx) or not any(rewards(got)):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (200 GB free-space check, materialize 9 x 3, collect against {url}, profile) exit "
            f"{code}; the free-space WARNING printed; {complete(ctx)} of 27 rollouts, mean reward {mean_of(got):.2f}.")


if __name__ == "__main__":
    sys.exit(main("hundred_and_tenth_held_out", __file__, __doc__))
