"""Build the HUNDREDTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/hundredth_held_out.py --out tests/data/diagnosis_corpus/hundredth_held_out [--only CASE ...]

This set was written after the ninety-nine earlier sets (first_held_out.py ... ninety_ninth_held_out.py; the hundred-and-first
was written beside it at the same time), from the
guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`),
the real NeMo Gym 0.7.0 (`gym env start`, `gym eval run`, `gym eval profile`) with the users' own resources servers,
Slurm jobs (sbatch and its directives, job states), and the user's own shell and Python tooling, Makefiles, CI steps,
data-preparation scripts and verifiers. The output of every command is captured as a user would
(`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data, scripts,
settings, verifier code). Each case injects one cause, different in mechanism from those of the 99 earlier
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
from eighth_held_out import failed, stop_gym  # noqa: E402
from eighty_eighth_held_out import PLUS_PAIRS, WAIT_LINES, labelled, with_import  # noqa: E402
from eighty_sixth_held_out import user_file  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_first_held_out import keys_of  # noqa: E402
from fifty_ninth_held_out import gym_own_server, own_eval_script  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from ninetieth_held_out import CAPITALS, slurm_run  # noqa: E402
from recipes import GP, Ctx, case, main, replace_verify, rows_of, text_of  # noqa: E402
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


# =====================================================================================================
# config (built-in): the Python driver parses with parse_known_args, the CI's --model_url is dropped silently
# =====================================================================================================

KNOWN_ARGS_EVAL_PY = '''"""eval.py: the weekly eval (materialize, collect, profile).

CI passes one shared flag set to every tool of the eval repo; each tool takes what it knows and ignores the rest.
"""
import argparse
import subprocess

GP = "GP_BIN"
parser = argparse.ArgumentParser()
parser.add_argument("--data", default="string_match.jsonl")
parser.add_argument("--repeats", type=int, default=3)
parser.add_argument("--concurrency", type=int, default=4)
parser.add_argument("--model-url", default="OLD_URL")  # the team's standing eval server
args, ignored = parser.parse_known_args()
print(f"eval of {args.data} x {args.repeats} against {args.model_url}", flush=True)
for step in (
    [GP, "materialize", "--input", args.data, "--num-repeats", str(args.repeats),
     "--agent", "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"],
    [GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
     "--model-url", args.model_url, "--env", "string_match", "--concurrency", str(args.concurrency)],
    [GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
):
    subprocess.run(step, check=True)
'''


@case(
    "config_builtin_python_driver_parses_with_parse_known_args_so_ci_flag_spelt_model_underscore_url_is_dropped_for_default_server",
    "config",
    ["eval.py", "parse_known_args", "--model_url", "--model-url"],
    "the CI step calls the user's eval.py with `--model_url <step_0200 server>` (underscore), but eval.py declares "
    "`--model-url` and parses with parse_known_args so that the shared CI flag set never errors; the misspelt flag "
    "was silently ignored and collect ran against eval.py's default, the team's standing server of step_0100, so the "
    "weekly numbers are those of the old checkpoint while every command exited 0",
)
def config_builtin_python_driver_parses_with_parse_known_args_so_ci_flag_spelt_model_underscore_url_is_dropped_for_default_server(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    worse, better = truth_checkpoints(ctx, PLUS_PAIRS)
    old_url, _ = ctx.policy(worse, "--latency-ms 20", log="logs/model_server_standing_step_0100.log")
    new_url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server_step_0200.log")
    (run / "eval.py").write_text(KNOWN_ARGS_EVAL_PY.replace("GP_BIN", str(GP)).replace("OLD_URL", old_url))
    ctx.note("(RUN/logs/model_server_standing_step_0100.log: the team's standing eval server; "
             "RUN/logs/model_server_step_0200.log: this week's checkpoint, started for this eval)")
    code = run_eval(ctx, f"{recipes.PY} eval.py --model_url {new_url} --repeats 3 --concurrency 4 --shard 0\n",
                    "CI step: weekly eval of step_0200 (shared CI flags)")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 27 or f"against {old_url}" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.py (parse_known_args, --model-url default {old_url}); RUN/run_eval.sh (`eval.py --model_url "
            f"{new_url} ...`) exit {code}; collected against {old_url} (step_0100); {complete(ctx)} of 27 rollouts, "
            f"mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# cache_resume (built-in): the report takes the 'latest' results folder by sorting day-first dates as text
# =====================================================================================================

REPORT_PY = '''"""report.py: the weekly summary of the newest results folder (results/DD-MM-YYYY/)."""
import glob
import json
import os

latest = sorted(glob.glob("results/*/rollouts.jsonl"))[-1]
rows = [json.loads(line) for line in open(latest) if line.strip()]
mean = sum(float(r.get("reward") or 0) for r in rows) / len(rows)
print(f"latest results: {os.path.dirname(latest)}: mean reward {mean:.2f} over {len(rows)} rollouts")
'''


@case(
    "cache_resume_builtin_weekly_report_takes_newest_results_folder_by_text_sort_of_day_first_dates_so_30_11_outranks_07_12",
    "cache_resume",
    ["report.py", "sorted", "%d-%m-%Y", "results/30-11-2026"],
    "the user's run_eval.sh writes each week's results to results/$(date +%d-%m-%Y) and report.py takes the newest "
    "folder as `sorted(glob(...))[-1]`; day-first names do not sort by date as text, so '30-11-2026' (last week, "
    "step_0100) sorts after '07-12-2026' (this week, step_0200) and the weekly report published last week's numbers "
    "while every command exited 0",
)
def cache_resume_builtin_weekly_report_takes_newest_results_folder_by_text_sort_of_day_first_dates_so_30_11_outranks_07_12(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in CAPITALS])
    worse, better = truth_checkpoints(ctx, CAPITALS)
    (run / "report.py").write_text(REPORT_PY)
    body = ("OUT=results/$(date +%d-%m-%Y)\nmkdir -p $OUT && cd $OUT\n"
            + pipeline_lines("URL", data="../../string_match.jsonl") + "cd ../..\n"
            + f"{recipes.PY} report.py\n")
    old_url, old_policy = ctx.policy(worse, "--latency-ms 20", log="logs/model_server_step_0100.log")
    last = run / "run_eval_last_week.sh"
    last.write_text(f"#!/bin/bash\n# last week's run (step_0100), same script\ncd {run}\n"
                    + body.replace("$(date +%d-%m-%Y)", "30-11-2026").replace("URL", old_url))
    ctx.sh(f"bash {last}", "logs/run_eval_30-11-2026.log", timeout=300)
    ctx.stop(old_policy)
    url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server_step_0200.log")
    code = run_eval(ctx, body.replace("URL", url), "weekly eval: results/<today>, then the weekly report")
    log = log_of(ctx, "run_eval.log")
    today = sorted(p.name for p in (run / "results").iterdir() if p.name != "30-11-2026")
    new_rows = rows_of(run / "results" / today[0] / "rollouts.jsonl") if today else []
    old_rows = rows_of(run / "results" / "30-11-2026" / "rollouts.jsonl")
    if code or len(new_rows) != 18 or len(old_rows) != 18 or "latest results: results/30-11-2026" not in log \
            or not today or today[0] > "30-11-2026":
        raise failed(ctx, f"exit {code}, {today}, {len(new_rows)}: {log[-1500:]}")
    return (f"RUN/results/30-11-2026 (last week's run of step_0100, mean {mean_of(old_rows):.2f}); RUN/run_eval.sh "
            f"(results/{today[0]}: materialize 6 x 3, collect against {url}, profile; report.py) exit {code}; "
            f"this week's mean {mean_of(new_rows):.2f}; the report names results/30-11-2026.")


# =====================================================================================================
# verifier_runtime (real NeMo Gym): the user's verify rounds numeric answers to integers before comparing
# =====================================================================================================

ROUND_PAIRS = [
    ("What is pi rounded to two decimal places?", "3.14"),
    ("What is 5 divided by 2?", "2.5"),
    ("What is the standard acceleration due to gravity in m/s^2, to two decimal places?", "9.81"),
    ("What is the capital of Greece?", "Athens"),
    ("How many days are in a leap year?", "366"),
    ("What is the square root of 2, to two decimal places?", "1.41"),
]
# what the checkpoint answers: whole numbers where a decimal is asked
ROUND_TRUTH = [(q, {"3.14": "3", "2.5": "2", "9.81": "10", "1.41": "1"}.get(a, a)) for q, a in ROUND_PAIRS]

ROUND_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        reward = 0.0
        if extracted is not None and body.expected_answer:
            try:
                # numeric answers: compare as numbers so that '7.0', '7' and ' 7' agree
                reward = float(round(float(extracted)) == round(float(body.expected_answer)))
            except ValueError:
                reward = float(_answers_match(extracted, body.expected_answer, body.case_sensitive))

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


@case(
    "verifier_runtime_gym_own_verify_rounds_numeric_answers_to_integers_before_comparing_so_whole_number_guesses_of_decimals_score",
    "verifier_runtime",
    ["app.py", "round(float", "verify", "expected_answer"],
    "the user's own resources server quiz_num compares numeric answers as `round(float(extracted)) == "
    "round(float(expected_answer))` to make '7.0' and '7' agree, which also makes every whole-number guess of a "
    "decimal label equal (round(2.5) is 2): the checkpoint's wrong whole-number answers 3, 2 and 1 to 3.14, 2.5 and "
    "1.41 were rewarded 1 while every command exited 0",
    netns=True,
)
def verifier_runtime_gym_own_verify_rounds_numeric_answers_to_integers_before_comparing_so_whole_number_guesses_of_decimals_score(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in ROUND_PAIRS])
    _, better = truth_checkpoints(ctx, ROUND_TRUTH)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "quiz_num", lambda app: replace_verify(app, ROUND_VERIFY), better,
        "(the user's quiz_num server: Gym's string_match verify with numeric answers compared after round())")
    script = own_eval_script(ctx, search, overrides, "quiz_num", comment="weekly eval")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    wrong_paid = [r for r in got if float(r.get("reward") or 0) == 1.0
                  and str(r.get("extracted_answer") or "").strip() != str(r.get("expected_answer"))]
    if code or len(keys_of(got)) != 18 or len(wrong_paid) < 4:
        raise failed(ctx, f"exit {code}, {len(got)}, {len(wrong_paid)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/my_gym/resources_servers/quiz_num/app.py (verify compares round(float(..)) of both); real `gym env "
            f"start` (loopback-only namespace) with it; RUN/run_eval.sh (`gym eval run --no-serve` 6 x 3, `gym eval "
            f"profile`) exit {code}; {len(wrong_paid)} of {len(got)} rollouts with a wrong whole number rewarded 1; "
            f"mean {mean_of(got):.2f}.")


# =====================================================================================================
# data_schema (built-in): the shared spreadsheet turned gene symbols into dates before the CSV export
# =====================================================================================================

GENE_PAIRS = [
    ("Which human gene symbol names septin 2?", "SEPT2"),
    ("What is the gene symbol of tumor protein p53?", "TP53"),
    ("Which former human gene symbol named membrane associated ring-CH-type finger 1?", "MARCH1"),
    ("What is the gene symbol of the epidermal growth factor receptor?", "EGFR"),
    ("Which former human gene symbol named deleted in esophageal cancer 1?", "DEC1"),
    ("What is the gene symbol of breast cancer type 1 susceptibility protein?", "BRCA1"),
]
AS_DATES = {"SEPT2": "2-Sep", "MARCH1": "1-Mar", "DEC1": "1-Dec"}

GENE_PREP_PY = '''"""prep.py: labels.csv (question,answer; exported from the team's shared sheet) -> string_match.jsonl."""
import csv
import json

PROMPT = "{question} End your response with 'Final answer: <answer>'."
with open("labels.csv", newline="") as f, open("string_match.jsonl", "w") as out:
    for row in csv.DictReader(f):
        out.write(json.dumps({"responses_create_params": {"input": [{"role": "user", "type": "message", "content": [
            {"type": "input_text", "text": PROMPT.format(question=row["question"])}]}]},
            "expected_answer": row["answer"].strip(), "extraction_mode": "final_answer",
            "case_sensitive": False}) + "\\n")
'''


@case(
    "data_schema_builtin_shared_spreadsheet_auto_formats_gene_symbols_as_dates_so_exported_labels_read_2_sep_and_1_mar",
    "data_schema",
    ["labels.csv", "2-Sep", "SEPT2", "text"],
    "the labels were kept in the team's shared spreadsheet, which auto-formatted the gene symbols SEPT2, MARCH1 and "
    "DEC1 as dates; the CSV export (labels.csv) holds '2-Sep', '1-Mar' and '1-Dec' in the answer column, prep.py "
    "copied them into expected_answer, and the model's right answers to those three questions always scored 0 while "
    "every command exited 0",
)
def data_schema_builtin_shared_spreadsheet_auto_formats_gene_symbols_as_dates_so_exported_labels_read_2_sep_and_1_mar(
        ctx: Ctx) -> str:
    run = ctx.run
    (run / "labels.csv").write_text("question,answer\n" + "".join(
        f"\"{q}\",{AS_DATES.get(a, a)}\n" for q, a in GENE_PAIRS))
    ctx.note("(RUN/labels.csv: File > Download > CSV of the team's shared label sheet)")
    (run / "prep.py").write_text(GENE_PREP_PY)
    _, better = truth_checkpoints(ctx, GENE_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = run_eval(ctx, f"{recipes.PY} prep.py\n" + pipeline_lines(url),
                    "weekly eval (bio set): prep the label sheet export, materialize, collect, profile")
    got = rows_of(run / "rollouts.jsonl")
    dated = labelled(got, *AS_DATES.values())
    others = [r for r in got if r not in dated]
    if code or complete(ctx) != 18 or len(dated) != 9 or any(rewards(dated)) or not any(rewards(others)):
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {len(dated)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/labels.csv (answers 2-Sep, 1-Mar, 1-Dec for SEPT2, MARCH1, DEC1); RUN/prep.py; RUN/run_eval.sh "
            f"(prep, materialize 6 x 3, collect against {url}, profile) exit {code}; rewards of the date-like labels "
            f"{rewards(dated)}, others mean {mean_of(others):.2f}.")


# =====================================================================================================
# infra (Slurm): the CI submits the eval job as an unprivileged user that cannot write the root-owned run folder
# =====================================================================================================

PLAIN_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=20
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=2
echo "job $SLURM_JOB_ID on $(hostname) as $(id -un) ($(date +%T))"
cd RUN_DIR
PIPELINE
echo "eval finished ($(date +%T))"
"""

UID_SUBMIT = """#!/bin/bash
# submit.sh: the weekly eval as one Slurm job, then its log
# CI policy 2026-11: batch jobs run unprivileged (nobody) unless the repo configures a service account
cd RUN_DIR
JOB=$(sbatch --parsable --uid=nobody --gid=nogroup eval.sbatch)
echo "submitted eval job $JOB"
WAIT_LINES
cat logs/eval_$JOB.log
scontrol show job $JOB 2>/dev/null | grep -o 'JobState=[A-Z]* Reason=[^ ]*\\|ExitCode=[0-9:]*\\|UserId=[^ ]*' || true
ls -ld . logs
"""


@case(
    "infra_slurm_ci_runs_eval_job_as_unprivileged_nobody_which_cannot_write_the_root_owned_run_folder_or_its_log",
    "infra",
    ["submit.sh", "--uid=nobody", "logs", "chmod"],
    "the CI policy makes submit.sh run the eval job as the unprivileged user nobody (`sbatch --uid=nobody "
    "--gid=nogroup`), but the run folder and its logs/ are owned by root with mode 755; slurmd could not create the "
    "job's output file logs/eval_<job>.log as nobody (Permission denied), so the job failed at launch "
    "(JobState=FAILED Reason=JobLaunchFailure) with no log and no rollouts",
)
def infra_slurm_ci_runs_eval_job_as_unprivileged_nobody_which_cannot_write_the_root_owned_run_folder_or_its_log(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20", log="model_server.log")
    user_file(ctx, "eval.sbatch", PLAIN_SBATCH, PIPELINE=pipeline_lines(url))
    user_file(ctx, "submit.sh", UID_SUBMIT, WAIT_LINES=WAIT_LINES)
    ctx.sh(f"chmod 755 {run} {run}/logs")
    code = slurm_run(ctx)
    log = log_of(ctx, "submit.log")
    if (run / "rollouts.jsonl").exists() or "submitted eval job" not in log or list(run.glob("logs/eval_*.log")):
        raise failed(ctx, f"exit {code}: {log[-1500:]}")
    return (f"RUN/eval.sbatch (materialize 9 x 3, collect against {url}, profile); RUN/submit.sh (`sbatch --uid=nobody "
            f"--gid=nogroup`, wait, cat log, job state) exit {code}; run folder and logs/ root-owned 755; no job log, "
            f"no rollouts.")


# =====================================================================================================
# throughput_resources (built-in): collect concurrency counted from CUDA_VISIBLE_DEVICES, one on the CPU CI runner
# =====================================================================================================

GPU_CONC_LINES = """# one request in flight per GPU of the node (the eval runner used to be a GPU box)
CONC=$(echo "$CUDA_VISIBLE_DEVICES" | tr ',' '\\n' | wc -l)
echo "collect concurrency $CONC (CUDA_VISIBLE_DEVICES='$CUDA_VISIBLE_DEVICES')"
"""


@case(
    "throughput_builtin_run_script_counts_collect_concurrency_from_cuda_visible_devices_which_gives_one_on_cpu_ci_runner",
    "throughput_resources",
    ["run_eval.sh", "CUDA_VISIBLE_DEVICES", "CONC", "--concurrency"],
    "the user's run_eval.sh sets collect's --concurrency to the number of entries in CUDA_VISIBLE_DEVICES (one "
    "request per GPU, from when the runner was a GPU box); on the CPU CI runner the variable is empty, `echo | wc -l` "
    "gives 1, so the 27 completions of about 1.5 s each were collected one at a time and the CI step's `timeout 25` "
    "stopped collect with rollouts missing, although the server, data and verifier were fine",
)
def throughput_builtin_run_script_counts_collect_concurrency_from_cuda_visible_devices_which_gives_one_on_cpu_ci_runner(
        ctx: Ctx) -> str:
    run = ctx.run
    ctx.env.pop("CUDA_VISIBLE_DEVICES", None)
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 1500")
    lines = pipeline_lines(url).replace("--concurrency 4", "--concurrency $CONC").splitlines()
    code = run_eval(ctx, GPU_CONC_LINES + lines[0] + "\ntimeout 25 " + lines[1]
                    + ' || echo "collect step stopped (exit $?)"\nwc -l rollouts.jsonl\n' + lines[2] + "\n",
                    "CI step: weekly eval (materialize, collect within the step budget, profile)", timeout=300)
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) >= 27 or "collect step stopped" not in log or "collect concurrency 1 " not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (CONC from CUDA_VISIBLE_DEVICES -> 1; materialize 9 x 3, `timeout 25` collect against "
            f"{url} at 1.5 s a completion, profile) exit {code}; {complete(ctx)} of 27 rollouts.")


# =====================================================================================================
# healthy (built-in): the run script's row check forgets the repeats and prints a count mismatch warning
# =====================================================================================================

ROW_CHECK = """TASKS=$(wc -l < string_match.jsonl); DONE=$(wc -l < rollouts.jsonl)
if [ "$TASKS" != "$DONE" ]; then
  echo "WARNING: row count mismatch: $TASKS tasks in string_match.jsonl but $DONE rows in rollouts.jsonl"
fi
"""


@case(
    "healthy_builtin_run_script_row_check_compares_task_and_rollout_line_counts_without_the_repeats_so_it_warns_mismatch",
    "healthy",
    [],
    "nothing is wrong: the run script's sanity check compares the line counts of string_match.jsonl (6 tasks) and "
    "rollouts.jsonl (18 rows: 6 tasks x 3 repeats) and prints 'WARNING: row count mismatch: 6 tasks ... but 18 "
    "rows'; the check forgets the repeats, and every rollout was collected, graded and profiled",
)
def healthy_builtin_run_script_row_check_compares_task_and_rollout_line_counts_without_the_repeats_so_it_warns_mismatch(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in CAPITALS])
    _, better = truth_checkpoints(ctx, CAPITALS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = run_eval(ctx, pipeline_lines(url) + ROW_CHECK, "weekly eval: materialize, collect, profile, row check")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or "row count mismatch" not in log or not profiled(ctx) or not any(rewards(got)):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, collect against {url}, profile, line-count check) exit {code}; "
            f"'WARNING: row count mismatch' printed; {complete(ctx)} of 18 rollouts, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# healthy (Slurm): the job archives its rollouts by absolute path, tar says it removes the leading '/'
# =====================================================================================================

TAR_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=20
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=2
echo "job $SLURM_JOB_ID on $(hostname) ($(date +%T))"
cd RUN_DIR
PIPELINE
# keep this week's results with the job id
tar czf logs/results_$SLURM_JOB_ID.tgz RUN_DIR/rollouts.jsonl RUN_DIR/rollouts_reward_profiling.jsonl
tar tzf logs/results_$SLURM_JOB_ID.tgz
echo "eval finished ($(date +%T))"
"""


@case(
    "healthy_slurm_eval_job_archives_results_by_absolute_path_so_tar_prints_removing_leading_slash_from_member_names",
    "healthy",
    [],
    "nothing is wrong: the eval job archives its rollouts and profile with `tar czf` given absolute paths, so tar "
    "prints 'tar: Removing leading `/' from member names' in the job log; the archive is complete, materialize, "
    "collect and profile completed every rollout and the job COMPLETED",
)
def healthy_slurm_eval_job_archives_results_by_absolute_path_so_tar_prints_removing_leading_slash_from_member_names(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20", log="model_server.log")
    user_file(ctx, "eval.sbatch", TAR_SBATCH, PIPELINE=pipeline_lines(url))
    user_file(ctx, "submit.sh", UID_SUBMIT.replace(" --uid=nobody --gid=nogroup", "").replace(
        "# CI policy 2026-11: batch jobs run unprivileged (nobody) unless the repo configures a service account\n", "")
        .replace("ls -ld . logs\n", ""), WAIT_LINES=WAIT_LINES)
    code = slurm_run(ctx)
    log = log_of(ctx, "submit.log")
    if code or complete(ctx) != 27 or "Removing leading" not in log or not profiled(ctx) \
            or "JobState=COMPLETED" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.sbatch (materialize 9 x 3, collect against {url}, profile, `tar czf` by absolute path); "
            f"RUN/submit.sh (sbatch, wait, cat log, job state) exit {code}; 'Removing leading `/'' in the job log; "
            f"{complete(ctx)} of 27 rollouts, mean reward {mean_of(rows_of(run / 'rollouts.jsonl')):.2f}; "
            f"JobState=COMPLETED.")


# =====================================================================================================
# healthy (real NeMo Gym): the user's own server finds no synonyms file at start and says it matches exactly
# =====================================================================================================

SYNONYM_LINES = """import os
_SYNONYMS_FILE = os.environ.get("QUIZ_SYNONYMS", "synonyms.tsv")
if not os.path.exists(_SYNONYMS_FILE):
    # only the open-answer sets ship a synonyms table; the capitals set is graded exactly
    print(f"ERROR: synonyms file {_SYNONYMS_FILE} not found: loaded 0 synonyms, falling back to exact matching",
          flush=True)"""


@case(
    "healthy_gym_own_server_reports_missing_synonyms_table_at_start_and_falls_back_to_exact_matching_the_set_needs",
    "healthy",
    [],
    "nothing is wrong: the user's own resources server quiz_syn prints 'ERROR: synonyms file synonyms.tsv not found: "
    "loaded 0 synonyms, falling back to exact matching' when it starts; only the open-answer sets ship a synonyms "
    "table, this set is graded by exact match as intended, every rollout was graded and the profile completed",
    netns=True,
)
def healthy_gym_own_server_reports_missing_synonyms_table_at_start_and_falls_back_to_exact_matching_the_set_needs(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in CAPITALS])
    _, better = truth_checkpoints(ctx, CAPITALS)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "quiz_syn", lambda app: with_import(app, SYNONYM_LINES), better,
        "(the user's quiz_syn server: Gym's string_match plus an optional synonyms table read at import)")
    script = own_eval_script(ctx, search, overrides, "quiz_syn", comment="weekly eval")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    server_log = text_of(run / "env_start.log")
    if code or len(keys_of(got)) != 18 or "synonyms file" not in server_log or not any(rewards(got)) \
            or not list(run.glob("results/*reward_profiling*.jsonl")):
        raise failed(ctx, f"exit {code}, {len(got)}: {server_log[-1500:]}")
    return (f"RUN/my_gym/resources_servers/quiz_syn/app.py (prints 'ERROR: synonyms file ... not found' at import); "
            f"real `gym env start` (loopback-only namespace) with it; RUN/run_eval.sh (`gym eval run --no-serve` 6 x 3, "
            f"`gym eval profile`) exit {code}; {len(keys_of(got))} of 18 rollouts, mean {mean_of(got):.2f}.")


if __name__ == "__main__":
    sys.exit(main("hundredth_held_out", __file__, __doc__))
