"""Build the HUNDRED-AND-SIXTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/hundred_and_sixth_held_out.py --out tests/data/diagnosis_corpus/hundred_and_sixth_held_out [--only CASE ...]

This set was written after the a hundred and five earlier sets (first_held_out.py ... hundred_and_fifth_held_out.py; the
hundred-and-seventh was being written beside it at the same time), from the
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
the 105 earlier sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and
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
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import failed, stop_gym  # noqa: E402
from eighty_eighth_held_out import PLUS_PAIRS, WAIT_LINES, labelled, with_import  # noqa: E402
from eighty_sixth_held_out import user_file  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_first_held_out import keys_of  # noqa: E402
from fifty_ninth_held_out import gym_own_server, own_eval_script  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from ninetieth_held_out import slurm_run  # noqa: E402
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


def profiled(ctx: Ctx) -> bool:
    return (ctx.run / "rollouts_reward_profiling.jsonl").exists()


SUBMIT = """#!/bin/bash
# submit.sh: the weekly eval as one Slurm job, then its log and state
cd RUN_DIR
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
WAIT_LINES
cat logs/eval_$JOB.log
scontrol show job $JOB 2>/dev/null | grep -o 'JobState=[A-Z]* Reason=[^ ]*\\|ExitCode=[0-9:]*\\|TimeLimit=[^ ]*' || true
"""


def submit_file(ctx: Ctx) -> None:
    user_file(ctx, "submit.sh", SUBMIT, WAIT_LINES=WAIT_LINES)


SBATCH_HEAD = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=TIME_LIMIT
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=2
echo "job $SLURM_JOB_ID on $(hostname) ($(date +%T))"
cd RUN_DIR
"""


# =====================================================================================================
# data_schema (Slurm): the task generator formats products with :g, which turns large ones into 1.234e+06
# =====================================================================================================

GEN_PY = '''"""make_tasks.py: operands.csv -> string_match.jsonl (the multiplication drill set).

Operands may be decimals (3.5), so they are read as floats; the label is formatted with :g so that 14.0 reads 14.
"""
import csv
import json

PROMPT = "{question} End your response with 'Final answer: <answer>'."
with open("operands.csv") as f, open("string_match.jsonl", "w") as out:
    for row in csv.DictReader(f):
        a, b = float(row["a"]), float(row["b"])
        question = f"What is {row['a']} times {row['b']}?"
        out.write(json.dumps({"responses_create_params": {"input": [{"role": "user", "type": "message", "content": [
            {"type": "input_text", "text": PROMPT.format(question=question)}]}]},
            "expected_answer": f"{a * b:g}", "extraction_mode": "final_answer", "case_sensitive": False}) + "\\n")
print("wrote string_match.jsonl")
'''

OPERANDS = [("12", "34"), ("250", "4"), ("1234", "1000"), ("2048", "1024"), ("3.5", "4"), ("1500", "1500"),
            ("77", "13"), ("4321", "321"), ("999", "1001")]


def product_text(a: str, b: str) -> str:
    value = float(a) * float(b)
    return str(int(value)) if value == int(value) else str(value)


@case(
    "data_schema_slurm_task_generator_formats_products_with_format_g_so_labels_of_a_million_or_more_read_in_exponent_notation",
    "data_schema",
    ["make_tasks.py", ":g", "e+06", "expected_answer"],
    "make_tasks.py reads the operands as floats and formats each label with f\"{a * b:g}\" to drop the '.0'; :g keeps "
    "six significant digits and switches to exponent notation from a million up, so the labels of 1234 x 1000, "
    "2048 x 1024, 1500 x 1500 and 4321 x 321 read '1.234e+06', '2.09715e+06', '2.25e+06', '1.38704e+06' and the "
    "model's right answers (1234000 ...) scored 0; every command exited 0",
)
def data_schema_slurm_task_generator_formats_products_with_format_g_so_labels_of_a_million_or_more_read_in_exponent_notation(
        ctx: Ctx) -> str:
    run = ctx.run
    (run / "operands.csv").write_text("a,b\n" + "".join(f"{a},{b}\n" for a, b in OPERANDS))
    (run / "make_tasks.py").write_text(GEN_PY)
    pairs = [(f"What is {a} times {b}?", product_text(a, b)) for a, b in OPERANDS]
    _, better = truth_checkpoints(ctx, pairs)
    url, _ = ctx.policy(better, "--latency-ms 20")
    user_file(ctx, "eval.sbatch", SBATCH_HEAD + "# weekly eval (mult drill): generate the tasks, materialize, collect, "
              "profile\nPY_BIN make_tasks.py\nPIPELINE\necho \"eval finished ($(date +%T))\"\n", TIME_LIMIT="20",
              PY_BIN=str(recipes.PY), PIPELINE=pipeline_lines(url).rstrip("\n"))
    submit_file(ctx)
    code = slurm_run(ctx)
    log = log_of(ctx, "submit.log")
    labels = [row["expected_answer"] for row in rows_of(run / "string_match.jsonl")]
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 27 or sum("e+06" in label for label in labels) != 4 or not profiled(ctx) \
            or mean_of(got) > 0.7 or "JobState=COMPLETED" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {labels}: {log[-1500:]}")
    return (f"RUN/operands.csv; RUN/make_tasks.py (expected_answer f'{{a * b:g}}'); labels {labels}; RUN/eval.sbatch "
            f"(make_tasks.py, materialize 9 x 3, collect against {url}, profile) submitted by RUN/submit.sh, exit "
            f"{code}; JobState=COMPLETED; {complete(ctx)} of 27 rollouts, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# config (built-in): eval.py reads eval.ini then eval.local.ini, where last week's debugging left repeats = 1
# =====================================================================================================

INI_EVAL_PY = '''"""eval.py: the weekly eval; settings from eval.ini, personal overrides from eval.local.ini (git-ignored)."""
import configparser
import subprocess
import sys

cfg = configparser.ConfigParser()
read = cfg.read(["eval.ini", "eval.local.ini"])
print("settings read from", read, flush=True)
s = cfg["weekly"]
GP = "GP_BIN"
steps = [
    f"{GP} materialize --input {s['data']} --num-repeats {s.getint('repeats')} --agent string_match_simple_agent "
    "--output rollouts_materialized_inputs.jsonl",
    f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {sys.argv[1]} "
    f"--env string_match --concurrency {s.getint('concurrency')}",
    f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl",
]
for step in steps:
    subprocess.run(step, shell=True, check=True)
print("eval done", flush=True)
'''

EVAL_INI = """[weekly]
# the weekly eval: every task, 5 repeats
data = string_match.jsonl
repeats = 5
concurrency = 8
"""

LOCAL_INI = """[weekly]
# debugging the flaky collect (2026-11-27): one repeat, one request at a time
repeats = 1
concurrency = 1
"""


@case(
    "config_builtin_python_driver_reads_eval_local_ini_after_eval_ini_and_last_weeks_debugging_override_keeps_repeats_1",
    "config",
    ["eval.local.ini", "repeats = 1", "eval.ini", "repeats = 5"],
    "eval.py reads eval.ini and then eval.local.ini with configparser, so the later file wins; eval.local.ini still "
    "holds last week's debugging override (repeats = 1, concurrency = 1) of the [weekly] section, so the weekly eval "
    "ran 9 tasks x 1 repeat instead of 5 repeats (9 rollouts instead of 45) and every command exited 0",
)
def config_builtin_python_driver_reads_eval_local_ini_after_eval_ini_and_last_weeks_debugging_override_keeps_repeats_1(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "eval.py").write_text(INI_EVAL_PY.replace("GP_BIN", str(GP)))
    (run / "eval.ini").write_text(EVAL_INI)
    (run / "eval.local.ini").write_text(LOCAL_INI)
    ctx.note("(RUN/eval.local.ini: the user's git-ignored overrides, last edited 2026-11-27)")
    code = run_eval(ctx, f"{recipes.PY} eval.py {url}\n", "weekly eval (settings in eval.ini)")
    log = log_of(ctx, "run_eval.log")
    if code or complete(ctx) != 9 or "eval.local.ini" not in log or not profiled(ctx):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.py (configparser reads eval.ini then eval.local.ini); RUN/eval.ini (repeats = 5); "
            f"RUN/eval.local.ini (repeats = 1, concurrency = 1); RUN/run_eval.sh exit {code}; collect against {url}: "
            f"{complete(ctx)} rollouts instead of 45.")


# =====================================================================================================
# cache_resume (built-in): the node setup precompiled the tools as unchecked-hash .pyc, so a label fix is never read
# =====================================================================================================

SETUP_TOOLS_SH = """#!/bin/bash
# setup_tools.sh: once per node, after syncing the eval tools (prep.py, label_fixes.py) from git
# precompile them so the imports do not stat every source on the slow NFS home
cd RUN_DIR
PY_BIN -m compileall -q --invalidation-mode unchecked-hash label_fixes.py prep.py
echo "tools precompiled"
"""

PREP_FIX_PY = '''"""prep.py: raw_tasks.jsonl (the quiz export) -> string_match.jsonl, with the reviewers' label fixes applied."""
import json

from label_fixes import FIXES

fixed = 0
with open("raw_tasks.jsonl") as f, open("string_match.jsonl", "w") as out:
    for line in f:
        row = json.loads(line)
        if row["question_id"] in FIXES:
            row["task"]["expected_answer"] = FIXES[row["question_id"]]
            fixed += 1
        out.write(json.dumps(row["task"]) + "\\n")
print(f"wrote string_match.jsonl ({fixed} labels fixed)")
'''

FIXES_OLD = '''"""label_fixes.py: the reviewers' corrections of wrong labels in the quiz export, by question id."""
FIXES = {
    "Q4102": "28",  # QUIZ-311: export had 82 (digits swapped)
}
'''

FIXES_NEW = '''"""label_fixes.py: the reviewers' corrections of wrong labels in the quiz export, by question id."""
FIXES = {
    "Q4102": "28",  # QUIZ-311: export had 82 (digits swapped)
    "Q4104": "55",  # QUIZ-318: export had 45
    "Q4106": "69",  # QUIZ-318: export had 96
    "Q4108": "88",  # QUIZ-320: export had 78
}
'''

WRONG_IN_EXPORT = {"Q4102": "82", "Q4104": "45", "Q4106": "96", "Q4108": "78"}


@case(
    "cache_resume_builtin_node_setup_precompiles_label_fixes_module_as_unchecked_hash_pyc_so_this_weeks_fixes_are_never_imported",
    "cache_resume",
    ["setup_tools.sh", "unchecked-hash", "__pycache__", "label_fixes.py"],
    "setup_tools.sh precompiled label_fixes.py and prep.py with `compileall --invalidation-mode unchecked-hash`; "
    "Python never checks such a .pyc against its source, so this week's three new label fixes (Q4104, Q4106, Q4108) "
    "added to label_fixes.py were never imported: prep.py still applied last week's single fix, the three wrong "
    "labels stayed in string_match.jsonl and the model's right answers to them scored 0; every command exited 0",
)
def cache_resume_builtin_node_setup_precompiles_label_fixes_module_as_unchecked_hash_pyc_so_this_weeks_fixes_are_never_imported(
        ctx: Ctx) -> str:
    run = ctx.run
    raw = []
    for i, (q, a) in enumerate(PLUS_PAIRS, 4101):
        qid = f"Q{i}"
        raw.append({"question_id": qid, "task": question_row(q, WRONG_IN_EXPORT.get(qid, a))})
    write_jsonl(run / "raw_tasks.jsonl", raw)
    truth = dict(zip((f"Q{i}" for i in range(4101, 4110)), (a for _, a in PLUS_PAIRS), strict=False))
    if any(truth[qid] != fix for qid, fix in {"Q4102": "28", "Q4104": "55", "Q4106": "69", "Q4108": "88"}.items()):
        raise RecipeError(f"label fixes do not match the pairs: {truth}")
    (run / "prep.py").write_text(PREP_FIX_PY)
    (run / "label_fixes.py").write_text(FIXES_OLD)
    user_file(ctx, "setup_tools.sh", SETUP_TOOLS_SH, PY_BIN=str(recipes.PY))
    ctx.sh(f"bash {run}/setup_tools.sh", "logs/setup_tools.log")
    ctx.note("(a week later: the reviewers' three new fixes pulled into RUN/label_fixes.py)")
    (run / "label_fixes.py").write_text(FIXES_NEW)
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = run_eval(ctx, f"{recipes.PY} prep.py\n" + pipeline_lines(url),
                    "weekly eval: apply the label fixes, materialize, collect, profile")
    log = log_of(ctx, "run_eval.log")
    labels = [row["expected_answer"] for row in rows_of(run / "string_match.jsonl")]
    if code or "(1 labels fixed)" not in log or "96" not in labels or complete(ctx) != 27 or not profiled(ctx) \
            or not list((run / "__pycache__").glob("label_fixes.*.pyc")):
        raise failed(ctx, f"exit {code}, {labels}: {log[-1500:]}")
    return (f"RUN/setup_tools.sh (compileall --invalidation-mode unchecked-hash label_fixes.py prep.py) run last "
            f"week; RUN/label_fixes.py since edited (4 fixes); RUN/run_eval.sh (prep.py, materialize 9 x 3, collect "
            f"against {url}, profile) exit {code}; prep.py applied 1 fix; labels {labels}; mean reward "
            f"{mean_of(rows_of(run / 'rollouts.jsonl')):.2f}.")


# =====================================================================================================
# model_serving (built-in): serve.sh picks the newest checkpoint with ls | tail, whose text order puts step_900 last
# =====================================================================================================

SERVE_SH = """#!/bin/bash
# serve.sh: serve the newest checkpoint of the training run
CKPT=$(ls -d ckpts/step_* | tail -n 1)
echo "serving $CKPT"
rm -f logs/model_url
GP_BIN serve-policy --port 0 --ready-file logs/model_url --checkpoint $CKPT --latency-ms 20 > logs/model_server.log 2>&1 &
echo $! > logs/model_server.pid
for i in $(seq 60); do [ -s logs/model_url ] && break; sleep 1; done
echo "model server up at $(cat logs/model_url)"
"""


@case(
    "model_serving_builtin_serve_script_takes_newest_checkpoint_with_ls_tail_whose_text_order_puts_step_900_after_step_1000",
    "model_serving",
    ["serve.sh", "step_1000", "step_900", "tail -n 1"],
    "serve.sh serves `ls -d ckpts/step_* | tail -n 1` as the newest checkpoint; the trainer names its steps without "
    "zero padding, and in text order step_1000 sorts before step_900, so the server loaded the older step_900 "
    "while the eval was meant for step_1000; every command exited 0 and the scores are those of the old checkpoint",
)
def model_serving_builtin_serve_script_takes_newest_checkpoint_with_ls_tail_whose_text_order_puts_step_900_after_step_1000(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    worse, better = truth_checkpoints(ctx, PLUS_PAIRS)
    (run / "ckpts").mkdir()
    shutil.copytree(worse, run / "ckpts" / "step_900")
    shutil.copytree(better, run / "ckpts" / "step_1000")
    for step in (900, 1000):  # the trainer numbers its checkpoints by optimizer step
        config = run / "ckpts" / f"step_{step}" / "config.json"
        config.write_text(json.dumps({**json.loads(config.read_text()), "step": step}, indent=2) + "\n")
    ctx.note("(RUN/ckpts/step_900, RUN/ckpts/step_1000: the training run's checkpoints, step_1000 the newest)")
    user_file(ctx, "serve.sh", SERVE_SH)
    body = ("bash serve.sh\n" + pipeline_lines("$(cat logs/model_url)")
            + "kill $(cat logs/model_server.pid)\n")
    try:
        code = run_eval(ctx, body, "weekly eval of the newest checkpoint: serve it, materialize, collect, profile")
    finally:
        pid_file = run / "logs" / "model_server.pid"
        if pid_file.exists():
            try:
                os.kill(int(pid_file.read_text().strip()), signal.SIGTERM)
            except (ProcessLookupError, ValueError):
                pass
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 27 or "serving ckpts/step_900" not in log or not profiled(ctx):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/serve.sh (`ls -d ckpts/step_* | tail -n 1`) served ckpts/step_900; RUN/run_eval.sh (serve.sh, "
            f"materialize 9 x 3, collect, profile) exit {code}; {complete(ctx)} of 27 rollouts, mean reward "
            f"{mean_of(got):.2f} (step_900's).")


# =====================================================================================================
# throughput_resources (Slurm): the job's two-minute limit was sized for the 9-task set; the set grew to 60 tasks
# =====================================================================================================

GROWN_SBATCH = SBATCH_HEAD.replace("#SBATCH --time=TIME_LIMIT", "#SBATCH --time=2\n"
                                   "# --time=2: the eval takes ~40 s (9 tasks x 4, measured 2026-09)") + """GP_BIN materialize --input string_match.jsonl --num-repeats 4 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL --env string_match --concurrency 4
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
echo "eval finished ($(date +%T))"
"""

GROWN_PAIRS = [(f"What is {n} plus 29?", str(n + 29)) for n in range(201, 261)]


@case(
    "throughput_resources_slurm_job_two_minute_limit_sized_for_nine_task_set_while_set_grew_to_sixty_tasks_so_collect_times_out",
    "throughput_resources",
    ["eval.sbatch", "--time=2", "--concurrency 4"],
    "eval.sbatch keeps `--time=2`, sized for the 9-task set of September (9 x 4 rollouts in about 40 s); the set has "
    "grown to 60 tasks, and 240 rollouts at about 2.5 s a completion four at a time need about 150 s, so Slurm "
    "killed the job at its two-minute limit (JobState=TIMEOUT) with part of the rollouts collected and no profile, "
    "although the server (--max-running 64) had room for far more concurrency",
)
def throughput_resources_slurm_job_two_minute_limit_sized_for_nine_task_set_while_set_grew_to_sixty_tasks_so_collect_times_out(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in GROWN_PAIRS])
    _, better = truth_checkpoints(ctx, GROWN_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 2500 --max-running 64", log="logs/model_server.log")
    user_file(ctx, "eval.sbatch", GROWN_SBATCH, MODEL_URL=url)
    submit_file(ctx)
    code = slurm_run(ctx, timeout=330)
    log = log_of(ctx, "submit.log")
    if complete(ctx) >= 240 or "JobState=TIMEOUT" not in log or profiled(ctx):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.sbatch (#SBATCH --time=2; collect --concurrency 4 of 60 tasks x 4 against {url}, 2.5 s a "
            f"completion, server --max-running 64); RUN/submit.sh exit {code}; JobState=TIMEOUT; {complete(ctx)} of "
            f"240 rollouts, no profile.")


# =====================================================================================================
# healthy (built-in): make warns of clock skew for a dataset synced from a share whose clock runs ahead
# =====================================================================================================

MAKEFILE = """# Makefile: the weekly eval (make eval MODEL_URL=...)
GP := GP_BIN

rollouts_materialized_inputs.jsonl: string_match.jsonl
\t$(GP) materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output $@

rollouts.jsonl: rollouts_materialized_inputs.jsonl
\t$(GP) collect --inputs $< --output $@ --model-url $(MODEL_URL) --env string_match --concurrency 4

rollouts_reward_profiling.jsonl: rollouts.jsonl
\t$(GP) profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl

eval: rollouts_reward_profiling.jsonl
.PHONY: eval
"""


@case(
    "healthy_builtin_make_warns_clock_skew_for_dataset_synced_from_share_whose_clock_runs_ahead_yet_builds_every_target",
    "healthy",
    [],
    "nothing is wrong: string_match.jsonl came from the data share, whose clock runs about two minutes ahead, so "
    "make prints 'Warning: File 'string_match.jsonl' has modification time ... in the future' and 'warning:  Clock "
    "skew detected.  Your build may be incomplete.'; none of the targets existed, so make built all of them: "
    "materialize, collect and profile completed every rollout",
)
def healthy_builtin_make_warns_clock_skew_for_dataset_synced_from_share_whose_clock_runs_ahead_yet_builds_every_target(
        ctx: Ctx) -> str:
    run = ctx.run
    data = write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    ahead = data.stat().st_mtime + 110
    os.utime(data, (ahead, ahead))
    ctx.note("(RUN/string_match.jsonl: synced from the data share, whose clock runs ~2 minutes ahead)")
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "Makefile").write_text(MAKEFILE.replace("GP_BIN", str(GP)))
    code = run_eval(ctx, f"make eval MODEL_URL={url}\n", "weekly eval through the Makefile")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 27 or "Clock skew detected" not in log or not profiled(ctx) or not any(rewards(got)):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/string_match.jsonl (mtime 110 s in the future); RUN/Makefile; RUN/run_eval.sh (`make eval "
            f"MODEL_URL={url}`) exit {code}; 'Clock skew detected' printed; {complete(ctx)} of 27 rollouts, mean "
            f"reward {mean_of(got):.2f}.")


# =====================================================================================================
# healthy (Slurm): the job stops its heartbeat loop, then its EXIT trap kills it again: 'No such process'
# =====================================================================================================

HEARTBEAT_SBATCH = SBATCH_HEAD + """# heartbeat for the job dashboard, stopped at the end (and by the EXIT trap if the job dies early)
( while sleep 15; do echo "heartbeat $(date +%T)"; done ) &
HB=$!
trap 'kill $HB' EXIT
PIPELINE
kill $HB
wait $HB 2>/dev/null
echo "eval finished ($(date +%T))"
"""


@case(
    "healthy_slurm_job_exit_trap_kills_heartbeat_loop_already_stopped_so_bash_prints_kill_no_such_process",
    "healthy",
    [],
    "nothing is wrong: the job stops its dashboard heartbeat loop with `kill $HB` after the eval, and its EXIT trap, "
    "meant for early deaths, kills the same pid again, so bash prints 'kill: (PID) - No such process' at the end of "
    "the job log; materialize, collect and profile completed every rollout and the job COMPLETED",
)
def healthy_slurm_job_exit_trap_kills_heartbeat_loop_already_stopped_so_bash_prints_kill_no_such_process(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server.log")
    user_file(ctx, "eval.sbatch", HEARTBEAT_SBATCH, TIME_LIMIT="20", PIPELINE=pipeline_lines(url).rstrip("\n"))
    submit_file(ctx)
    code = slurm_run(ctx)
    log = log_of(ctx, "submit.log")
    if code or complete(ctx) != 27 or "No such process" not in log or not profiled(ctx) \
            or "JobState=COMPLETED" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.sbatch (heartbeat loop, `kill $HB` and an EXIT trap `kill $HB`; materialize 9 x 3, collect "
            f"against {url}, profile); RUN/submit.sh exit {code}; 'kill: ... No such process' in the job log; "
            f"{complete(ctx)} of 27 rollouts, mean reward {mean_of(rows_of(run / 'rollouts.jsonl')):.2f}; "
            f"JobState=COMPLETED.")


# =====================================================================================================
# verifier_runtime (real NeMo Gym): the user's verify compares labels with int(), which raises on decimal labels
# =====================================================================================================

INT_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        # arithmetic set: compare as integers, so that '021', '21.' and ' 21' all match 21
        reward = 0.0
        if extracted is not None and body.expected_answer:
            try:
                got = int(extracted.strip().rstrip("."))
            except ValueError:  # the model answered something that is not a number
                got = None
            reward = float(got == int(body.expected_answer))

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""

DECIMAL_PAIRS = PLUS_PAIRS[:5] + [("What is 2.5 plus 1.25?", "3.75"), ("What is 7 divided by 2?", "3.5"),
                                  ("What is 0.5 plus 0.25?", "0.75")]


@case(
    "verifier_runtime_gym_own_verify_casts_labels_with_int_to_accept_padded_answers_so_decimal_labels_raise_valueerror",
    "verifier_runtime",
    ["app.py", "int(body.expected_answer)", "ValueError", "3.5"],
    "the user's own resources server quiz_int compares answers as integers, `int(body.expected_answer)`, guarding "
    "only the model's side with try/except; the set now also holds decimal tasks (labels '3.75', '3.5', '0.75'), "
    "for which int() raises ValueError inside verify, so those rollouts were never graded or written although the "
    "data and the model's answers were fine",
    netns=True,
)
def verifier_runtime_gym_own_verify_casts_labels_with_int_to_accept_padded_answers_so_decimal_labels_raise_valueerror(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in DECIMAL_PAIRS])
    _, better = truth_checkpoints(ctx, DECIMAL_PAIRS)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "quiz_int", lambda app: replace_verify(app, INT_VERIFY), better,
        "(the user's quiz_int server: Gym's string_match with an integer comparison for the arithmetic set)")
    script = own_eval_script(ctx, search, overrides, "quiz_int", comment="weekly eval")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    server_log = text_of(run / "env_start.log") + log_of(ctx, "run_eval.log")
    graded_decimals = labelled(got, "3.75", "3.5", "0.75")
    if (not code and len(keys_of(got)) == 24) or graded_decimals or "ValueError" not in server_log:
        raise failed(ctx, f"exit {code}, {len(got)}, {len(graded_decimals)}: {server_log[-2000:]}")
    return (f"RUN/my_gym/resources_servers/quiz_int/app.py (verify: int(body.expected_answer)); real `gym env start` "
            f"(loopback-only namespace) with it; RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, `gym eval "
            f"profile`) exit {code}; {len(keys_of(got))} of 24 rollouts written; ValueError in the server log.")


# =====================================================================================================
# healthy (real NeMo Gym): the user's server warns at import that it was validated against an older nemo-gym
# =====================================================================================================

VERSION_LINES = """from importlib.metadata import version as _dist_version
_TESTED_WITH = "0.6.2"  # the version quiz_pinned's grading was validated against (QUIZ-290)
if _dist_version("nemo-gym") != _TESTED_WITH:
    print(f"WARNING: quiz_pinned was validated against nemo-gym {_TESTED_WITH} but runs under "
          f"{_dist_version('nemo-gym')}: grading results may differ, re-run the validation suite", flush=True)"""


@case(
    "healthy_gym_own_server_warns_at_import_it_was_validated_against_nemo_gym_0_6_2_while_running_under_0_7_0",
    "healthy",
    [],
    "nothing is wrong: the user's own resources server quiz_pinned compares the installed nemo-gym with the version "
    "its grading was validated against and prints 'WARNING: quiz_pinned was validated against nemo-gym 0.6.2 but "
    "runs under 0.7.0: grading results may differ' at import; its verify is Gym's string match unchanged, and every "
    "rollout was graded and profiled",
    netns=True,
)
def healthy_gym_own_server_warns_at_import_it_was_validated_against_nemo_gym_0_6_2_while_running_under_0_7_0(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS[:6]])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS[:6])
    search, overrides, env_start, policy = gym_own_server(
        ctx, "quiz_pinned", lambda app: with_import(app, VERSION_LINES), better,
        "(the user's quiz_pinned server: Gym's string_match plus a check of the nemo-gym version it was validated with)")
    script = own_eval_script(ctx, search, overrides, "quiz_pinned", comment="weekly eval")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    server_log = text_of(run / "env_start.log")
    if code or len(keys_of(got)) != 18 or "validated against nemo-gym 0.6.2" not in server_log \
            or not any(rewards(got)) or not list(run.glob("results/*reward_profiling*.jsonl")):
        raise failed(ctx, f"exit {code}, {len(got)}: {server_log[-1500:]}")
    return (f"RUN/my_gym/resources_servers/quiz_pinned/app.py (prints the version WARNING at import); real `gym env "
            f"start` (loopback-only namespace) with it; RUN/run_eval.sh (`gym eval run --no-serve` 6 x 3, `gym eval "
            f"profile`) exit {code}; {len(keys_of(got))} of 18 rollouts, mean {mean_of(got):.2f}.")


if __name__ == "__main__":
    sys.exit(main("hundred_and_sixth_held_out", __file__, __doc__))
