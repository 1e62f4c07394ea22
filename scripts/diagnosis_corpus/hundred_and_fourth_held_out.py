"""Build the HUNDRED-AND-FOURTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/hundred_and_fourth_held_out.py --out tests/data/diagnosis_corpus/hundred_and_fourth_held_out [--only CASE ...]

This set was written after the a hundred and three earlier sets (first_held_out.py ... hundred_and_third_held_out.py; the
hundred-and-fifth was written beside it at the same time), from the
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
the 103 earlier sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and
the case is not written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Slurm
(SLURM_CONF, the fourth single-node cluster), and PYTHONPATH set to this checkout. Run it from a foreground shell. It
makes no Docker containers.
"""
from __future__ import annotations

import json
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
JOB=$(sbatch --parsable SBATCH_OPTIONS eval.sbatch)
echo "submitted eval job $JOB"
WAIT_LINES
cat logs/eval_$JOB.log
scontrol show job $JOB 2>/dev/null | grep -o 'JobName=[^ ]*\\|JobState=[A-Z]* Reason=[^ ]*\\|ExitCode=[0-9:]*\\|TimeLimit=[^ ]*' || true
"""


def submit_file(ctx: Ctx, options: str = "", comment: str = "") -> None:
    text = SUBMIT.replace("SBATCH_OPTIONS ", f"{options} " if options else "")
    if comment:
        text = text.replace("cd RUN_DIR\n", f"cd RUN_DIR\n{comment}\n")
    user_file(ctx, "submit.sh", text, WAIT_LINES=WAIT_LINES)


# =====================================================================================================
# config (Slurm): submit.sh keeps the smoke pipeline's `-J smoke-eval`; the job picks its settings by job name
# =====================================================================================================

NAMED_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=20
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=2
# one eval script for every pipeline: its settings are the entry of eval_settings.json named like the job
echo "job $SLURM_JOB_ID ($SLURM_JOB_NAME) on $(hostname) ($(date +%T))"
cd RUN_DIR
read REPEATS MAX_TASKS CONCURRENCY < <(PY_BIN -c "import json, os; s = json.load(open('eval_settings.json'))[os.environ['SLURM_JOB_NAME']]; print(s['repeats'], s['max_tasks'], s['concurrency'])")
echo "settings: repeats=$REPEATS max_tasks=$MAX_TASKS concurrency=$CONCURRENCY"
if [ "$MAX_TASKS" -gt 0 ]; then head -n "$MAX_TASKS" string_match.jsonl > tasks.jsonl; else cp string_match.jsonl tasks.jsonl; fi
GP_BIN materialize --input tasks.jsonl --num-repeats $REPEATS --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL --env string_match --concurrency $CONCURRENCY
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
echo "eval finished ($(date +%T))"
"""

EVAL_SETTINGS = {
    "smoke-eval": {"repeats": 1, "max_tasks": 2, "concurrency": 2, "note": "MR smoke test: 2 tasks, 1 repeat"},
    "weekly-eval": {"repeats": 5, "max_tasks": 0, "concurrency": 8, "note": "weekly eval: every task, 5 repeats"},
}


@case(
    "config_slurm_submit_keeps_dash_j_smoke_eval_of_smoke_pipeline_which_overrides_job_name_directive_so_job_reads_smoke_settings",
    "config",
    ["submit.sh", "-J smoke-eval", "weekly-eval", "SLURM_JOB_NAME"],
    "eval.sbatch picks its settings from eval_settings.json by $SLURM_JOB_NAME and names itself weekly-eval with "
    "#SBATCH --job-name, but submit.sh, copied from the smoke-test pipeline, still submits with `sbatch -J "
    "smoke-eval`; the command-line option overrides the directive, so the weekly job ran the smoke entry (2 tasks x "
    "1 repeat) instead of 9 tasks x 5 repeats, and every command exited 0 with a 2-rollout profile",
)
def config_slurm_submit_keeps_dash_j_smoke_eval_of_smoke_pipeline_which_overrides_job_name_directive_so_job_reads_smoke_settings(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server.log")
    (run / "eval_settings.json").write_text(json.dumps(EVAL_SETTINGS, indent=2) + "\n")
    user_file(ctx, "eval.sbatch", NAMED_SBATCH, PY_BIN=str(recipes.PY), MODEL_URL=url)
    submit_file(ctx, "-J smoke-eval", "# (from the smoke-test pipeline of the eval repo)")
    code = slurm_run(ctx)
    log = log_of(ctx, "submit.log")
    if code or complete(ctx) != 2 or "JobName=smoke-eval" not in log or "repeats=1 max_tasks=2" not in log \
            or "JobState=COMPLETED" not in log or not profiled(ctx):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.sbatch (#SBATCH --job-name=weekly-eval; settings by $SLURM_JOB_NAME from "
            f"RUN/eval_settings.json); RUN/submit.sh (`sbatch -J smoke-eval`) exit {code}; the job ran as smoke-eval "
            f"(repeats=1, max_tasks=2) against {url}: {complete(ctx)} rollouts instead of 45; JobState=COMPLETED.")


# =====================================================================================================
# throughput_resources (Slurm): the job keeps --concurrency 2 of an old rate limit and outlasts its time limit
# =====================================================================================================

SLOW_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=1
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=2
echo "job $SLURM_JOB_ID on $(hostname) ($(date +%T))"
cd RUN_DIR
GP_BIN materialize --input string_match.jsonl --num-repeats 4 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
# --concurrency 2: the shared server's per-user limit (ticket EVAL-412)
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL --env string_match --concurrency 2
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
echo "eval finished ($(date +%T))"
"""

SUM_PAIRS = [(f"What is {n} plus 17?", str(n + 17)) for n in range(101, 121)]


@case(
    "throughput_resources_slurm_job_keeps_concurrency_2_of_an_old_per_user_limit_so_80_slow_completions_outlast_one_minute_time_limit",
    "throughput_resources",
    ["eval.sbatch", "--concurrency 2", "--time=1"],
    "eval.sbatch still collects with `--concurrency 2` (a per-user limit of the shared server noted in a comment, "
    "which the server, started with --max-running 32, no longer has) inside a job limited to `--time=1`; 80 "
    "rollouts at about 2.5 s a completion two at a time need about 100 s, so Slurm killed the job at its one-minute "
    "limit (JobState=TIMEOUT) with part of the rollouts collected and no profile",
)
def throughput_resources_slurm_job_keeps_concurrency_2_of_an_old_per_user_limit_so_80_slow_completions_outlast_one_minute_time_limit(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in SUM_PAIRS])
    _, better = truth_checkpoints(ctx, SUM_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 2500 --max-running 32", log="logs/model_server.log")
    user_file(ctx, "eval.sbatch", SLOW_SBATCH, MODEL_URL=url)
    submit_file(ctx)
    code = slurm_run(ctx, timeout=330)
    log = log_of(ctx, "submit.log")
    if complete(ctx) >= 80 or "JobState=TIMEOUT" not in log or profiled(ctx):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.sbatch (#SBATCH --time=1; collect --concurrency 2 of 20 tasks x 4 against {url}, 2.5 s a "
            f"completion, server --max-running 32); RUN/submit.sh exit {code}; JobState=TIMEOUT; {complete(ctx)} of 80 "
            f"rollouts, no profile.")


# =====================================================================================================
# data_schema (built-in): the answer key comes from a fixed-width report that zero-pads numbers to three digits
# =====================================================================================================

FIXED_PREP_PY = '''"""prep.py: the quiz DB's fixed-width report (answer_key.txt) -> string_match.jsonl.

columns: id 1-8, answer 9-11, question 13-
"""
import json

PROMPT = "{question} End your response with 'Final answer: <answer>'."
with open("answer_key.txt") as f, open("string_match.jsonl", "w") as out:
    for line in f:
        if not line.strip() or line.startswith("#"):
            continue
        answer, question = line[8:11].strip(), line[12:].rstrip("\\n")
        out.write(json.dumps({"responses_create_params": {"input": [{"role": "user", "type": "message", "content": [
            {"type": "input_text", "text": PROMPT.format(question=question)}]}]},
            "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}) + "\\n")
print("wrote string_match.jsonl")
'''

PAD_PAIRS = [(f"What is {n} plus 17?", str(n + 17)) for n in (4, 11, 23, 38, 46, 52, 88, 95, 104)]


@case(
    "data_schema_builtin_answer_key_from_fixed_width_db_report_zero_pads_numeric_answers_to_three_digits",
    "data_schema",
    ["answer_key.txt", "prep.py", "021", "21"],
    "the answer key answer_key.txt is the quiz DB's fixed-width report, whose 3-character answer column is "
    "zero-padded ('021', '028', '040'); prep.py slices and strips the column but keeps the padding, so every label "
    "below 100 reads like '021' and the model's right answers ('21') scored 0 while the three-digit labels scored; "
    "every command exited 0",
)
def data_schema_builtin_answer_key_from_fixed_width_db_report_zero_pads_numeric_answers_to_three_digits(
        ctx: Ctx) -> str:
    run = ctx.run
    lines = ["# quiz_db report arith_plus  2026-12-04  (id, answer, question)"]
    lines += [f"Q{i:07d}{int(a):03d} {q}" for i, (q, a) in enumerate(PAD_PAIRS, 4101)]
    (run / "answer_key.txt").write_text("\n".join(lines) + "\n")
    ctx.note("(RUN/answer_key.txt: the quiz DB's fixed-width report of the arith_plus set)")
    (run / "prep.py").write_text(FIXED_PREP_PY)
    _, better = truth_checkpoints(ctx, PAD_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = run_eval(ctx, f"{recipes.PY} prep.py\n" + pipeline_lines(url),
                    "weekly eval (arith_plus): prep the answer key, materialize, collect, profile")
    got = rows_of(run / "rollouts.jsonl")
    padded = [r for r in got if str(r.get("expected_answer", "")).startswith("0")]
    others = [r for r in got if r not in padded]
    if code or complete(ctx) != 27 or len(padded) != 18 or any(rewards(padded)) or not any(rewards(others)):
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {len(padded)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/answer_key.txt (answers zero-padded to 3 digits); RUN/prep.py; RUN/run_eval.sh (prep, materialize "
            f"9 x 3, collect against {url}, profile) exit {code}; rewards of the padded labels {rewards(padded)}, "
            f"others mean {mean_of(others):.2f}.")


# =====================================================================================================
# verifier_runtime (real NeMo Gym): verify writes an audit file named after the label; '3/4' is a path
# =====================================================================================================

FRACTION_PAIRS = [
    ("What is 1/2 plus 1/4?", "3/4"),
    ("What is 2 plus 5?", "7"),
    ("What is 1/3 plus 1/3?", "2/3"),
    ("What is 10 minus 4?", "6"),
    ("What is 1/8 plus 1/8?", "1/4"),
    ("What is 9 times 3?", "27"),
]

AUDIT_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = float(extracted.strip().lower() == body.expected_answer.strip().lower())

        # error analysis: every graded answer, one file per label (the review sheet pulls them per question)
        with open(os.path.join(AUDIT_DIR, f"{body.expected_answer}.jsonl"), "a") as audit:
            audit.write(json.dumps({"extracted": extracted, "reward": reward}) + "\\n")

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


@case(
    "verifier_runtime_gym_own_verify_appends_audit_file_named_after_label_so_fraction_labels_with_slash_raise_filenotfounderror",
    "verifier_runtime",
    ["app.py", "AUDIT_DIR", "expected_answer", "audit"],
    "the user's own resources server quiz_audit appends every graded answer to AUDIT_DIR/<expected_answer>.jsonl; "
    "for the fraction labels '3/4', '2/3' and '1/4' the slash makes that a path into a folder that does not exist, "
    "so verify raises FileNotFoundError after grading and those rollouts were never returned, although the model's "
    "answers were right",
    netns=True,
)
def verifier_runtime_gym_own_verify_appends_audit_file_named_after_label_so_fraction_labels_with_slash_raise_filenotfounderror(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in FRACTION_PAIRS])
    (run / "audit").mkdir()
    _, better = truth_checkpoints(ctx, FRACTION_PAIRS)
    audit_lines = f"import json\nimport os\nAUDIT_DIR = {str(run / 'audit')!r}"
    search, overrides, env_start, policy = gym_own_server(
        ctx, "quiz_audit", lambda app: with_import(replace_verify(app, AUDIT_VERIFY), audit_lines), better,
        "(the user's quiz_audit server: Gym's string_match verify plus a per-label audit file in RUN/audit)")
    script = own_eval_script(ctx, search, overrides, "quiz_audit", comment="weekly eval")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    server_log = text_of(run / "env_start.log") + log_of(ctx, "run_eval.log")
    graded_fractions = labelled(got, "3/4", "2/3", "1/4")
    if (not code and len(keys_of(got)) == 18) or graded_fractions or "FileNotFoundError" not in server_log:
        raise failed(ctx, f"exit {code}, {len(got)}, {len(graded_fractions)}: {server_log[-2000:]}")
    return (f"RUN/my_gym/resources_servers/quiz_audit/app.py (verify appends to AUDIT_DIR/<label>.jsonl); real `gym "
            f"env start` (loopback-only namespace) with it; RUN/run_eval.sh (`gym eval run --no-serve` 6 x 3, `gym "
            f"eval profile`) exit {code}; {len(keys_of(got))} of 18 rollouts written; FileNotFoundError in the "
            f"server log.")


# =====================================================================================================
# cache_resume (built-in): report.py takes the first of sorted(glob(...)), which is last week's dated archive
# =====================================================================================================

REPORT_PY = '''"""report.py: the weekly number for the dashboard, from the reward profile of the run folder."""
import glob
import json

path = sorted(glob.glob("rollouts_reward_profiling*.jsonl"))[0]
rows = [json.loads(line) for line in open(path) if line.strip()]
mean = sum(r["mean/reward"] for r in rows) / len(rows)
print(f"report: {path}: {len(rows)} tasks, mean reward {mean:.2f}")
'''

ARCHIVE_LINES = """# keep last week's profile next to the new one
[ -f rollouts_reward_profiling.jsonl ] && mv rollouts_reward_profiling.jsonl \\
  rollouts_reward_profiling.$(date -r rollouts_reward_profiling.jsonl +%F).jsonl
"""


@case(
    "cache_resume_builtin_report_takes_first_of_sorted_profile_glob_which_is_last_weeks_dated_archive",
    "cache_resume",
    ["report.py", "sorted", "glob", "rollouts_reward_profiling.jsonl"],
    "run_eval.sh archives last week's profile as rollouts_reward_profiling.<date>.jsonl and the new run writes "
    "rollouts_reward_profiling.jsonl, but report.py takes `sorted(glob('rollouts_reward_profiling*.jsonl'))[0]`; "
    "'.2' sorts before '.j', so the dashboard number came from last week's archived step_0100 profile although "
    "step_0200 was collected and profiled, and every command exited 0",
)
def cache_resume_builtin_report_takes_first_of_sorted_profile_glob_which_is_last_weeks_dated_archive(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    worse, better = truth_checkpoints(ctx, PLUS_PAIRS)
    (run / "report.py").write_text(REPORT_PY)
    old_url, old_policy = ctx.policy(worse, "--latency-ms 20", log="logs/model_server_step_0100.log")
    body = ARCHIVE_LINES + pipeline_lines("URL") + f"{recipes.PY} report.py\n"
    last = run / "run_eval_last_week.sh"
    last.write_text(f"#!/bin/bash\n# last week's run (step_0100), same script\ncd {run}\n"
                    + body.replace("URL", old_url))
    ctx.sh(f"bash {last}", "logs/run_eval_last_week.log", timeout=300)
    old_rows = rows_of(run / "rollouts.jsonl")
    ctx.stop(old_policy)
    ctx.sh(f"touch -d '7 days ago' {run}/rollouts_reward_profiling.jsonl")  # last week's run was a week ago
    ctx.commands.pop()
    url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server_step_0200.log")
    code = run_eval(ctx, body.replace("URL", url), "weekly eval of step_0200: materialize, collect, profile, report")
    log = log_of(ctx, "run_eval.log")
    new_rows = rows_of(run / "rollouts.jsonl")
    archives = sorted(run.glob("rollouts_reward_profiling.2*.jsonl"))
    if code or len(new_rows) != 27 or not archives or f"report: {archives[0].name}" not in log \
            or abs(mean_of(new_rows) - mean_of(old_rows)) < 0.1:
        raise failed(ctx, f"exit {code}, {len(new_rows)}: {log[-1500:]}")
    return (f"RUN/report.py (sorted(glob(...))[0]); last week's run of step_0100 (mean {mean_of(old_rows):.2f}), its "
            f"profile archived as {archives[0].name}; RUN/run_eval.sh (archive, materialize 9 x 3, collect against "
            f"{url}, profile, report.py) exit {code}; this week's mean {mean_of(new_rows):.2f}; the report read "
            f"{archives[0].name}.")


# =====================================================================================================
# model_serving (built-in): the shared model server on a degraded node drops or fails most completions
# =====================================================================================================

@case(
    "model_serving_builtin_shared_eval_server_on_degraded_node_drops_or_fails_most_completions_so_collect_loses_rollouts",
    "model_serving",
    ["model server", "model_server.log", "restart", "connection"],
    "the team's shared model server for step_0200 (its log in logs/model_server.log), on a degraded node, drops or "
    "answers 500 to most chat-completion requests; collect's retries meet the same faults, and the rollouts whose "
    "every attempt failed are missing from rollouts.jsonl although the data, the scripts and the verifier are fine: the model "
    "server has to be restarted or moved",
)
def model_serving_builtin_shared_eval_server_on_degraded_node_drops_or_fails_most_completions_so_collect_loses_rollouts(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 40 --fault-rate 0.7 --fault-kinds drop,5xx --fault-seed 11",
                        log="logs/model_server.log")
    ctx.note("(RUN/logs/model_server.log: the team's shared step_0200 server, up since the morning)")
    code = run_eval(ctx, pipeline_lines(url) + "wc -l rollouts.jsonl\n",
                    "weekly eval of step_0200 on the shared server: materialize, collect, profile")
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) >= 27:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/logs/model_server.log (the shared server, dropping connections and answering 500); RUN/run_eval.sh (materialize 9 x 3, "
            f"collect against {url}, profile) exit {code}; {complete(ctx)} of 27 rollouts.")


# =====================================================================================================
# healthy (built-in): the driver runs under `python -X dev`, which prints a ResourceWarning for an unclosed file
# =====================================================================================================

DEV_EVAL_PY = '''"""eval.py: the weekly eval, one step a line of steps.txt (run with -X dev in CI to catch asyncio misuse)."""
import subprocess

for step in open("steps.txt"):
    if step.strip():
        subprocess.run(step, shell=True, check=True)
print("eval done", flush=True)
'''


@case(
    "healthy_builtin_ci_runs_eval_driver_under_python_dev_mode_which_prints_resourcewarning_for_its_unclosed_steps_file",
    "healthy",
    [],
    "nothing is wrong: the CI step runs the user's eval.py with `python -X dev`, and the driver iterates over "
    "open('steps.txt') without closing it, so Python prints 'ResourceWarning: unclosed file <_io.TextIOWrapper "
    "name='steps.txt' ...>' (with the dev-mode hint about tracemalloc); every step ran, materialize, collect and "
    "profile completed every rollout",
)
def healthy_builtin_ci_runs_eval_driver_under_python_dev_mode_which_prints_resourcewarning_for_its_unclosed_steps_file(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "eval.py").write_text(DEV_EVAL_PY)
    (run / "steps.txt").write_text(pipeline_lines(url))
    code = run_eval(ctx, f"{recipes.PY} -X dev eval.py\n", "CI step: weekly eval (driver in Python dev mode)")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 27 or "ResourceWarning" not in log or not profiled(ctx) or not any(rewards(got)):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.py (iterates over open('steps.txt')); RUN/steps.txt (materialize 9 x 3, collect against {url}, "
            f"profile); RUN/run_eval.sh (`python -X dev eval.py`) exit {code}; 'ResourceWarning: unclosed file' "
            f"printed; {complete(ctx)} of 27 rollouts, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# healthy (Slurm): the job's preflight asks srun for a GPU step on this CPU-only cluster and is refused
# =====================================================================================================

GRES_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=20
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=2
echo "job $SLURM_JOB_ID on $(hostname) ($(date +%T))"
# preflight from the training template: show the GPU of the step if there is one (the eval itself needs none)
srun --gres=gpu:1 nvidia-smi -L || echo "preflight: no GPU step, continuing on CPU"
cd RUN_DIR
PIPELINE
echo "eval finished ($(date +%T))"
"""


@case(
    "healthy_slurm_job_preflight_asks_srun_for_gpu_gres_step_that_cpu_cluster_refuses_then_evaluates_on_cpu",
    "healthy",
    [],
    "nothing is wrong: the job's preflight, copied from the training template, runs `srun --gres=gpu:1 nvidia-smi -L`, "
    "which this CPU-only cluster refuses with 'srun: error: Unable to create step for job ...: Invalid generic "
    "resource (gres) specification'; the script goes on ('preflight: no GPU step'), the eval needs no GPU, and "
    "materialize, collect and profile completed every rollout; the job COMPLETED",
)
def healthy_slurm_job_preflight_asks_srun_for_gpu_gres_step_that_cpu_cluster_refuses_then_evaluates_on_cpu(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server.log")
    user_file(ctx, "eval.sbatch", GRES_SBATCH, PIPELINE=pipeline_lines(url).rstrip("\n"))
    submit_file(ctx)
    code = slurm_run(ctx)
    log = log_of(ctx, "submit.log")
    if code or complete(ctx) != 27 or "srun: error" not in log or not profiled(ctx) \
            or "JobState=COMPLETED" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.sbatch (preflight `srun --gres=gpu:1 nvidia-smi -L`, then materialize 9 x 3, collect against "
            f"{url}, profile); RUN/submit.sh exit {code}; 'srun: error' in the job log; {complete(ctx)} of 27 "
            f"rollouts, mean reward {mean_of(rows_of(run / 'rollouts.jsonl')):.2f}; JobState=COMPLETED.")


# =====================================================================================================
# infra (Slurm): the job runs the tools from the team's tools share, which the eval node has not mounted
# =====================================================================================================

TOOLS_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=20
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=2
echo "job $SLURM_JOB_ID on $(hostname) ($(date +%T))"
# the team's pinned eval tools (gym-pipeline 2026.11), automounted from the tools share on every eval node
EVAL_TOOLS=/mnt/eval-tools/gym-pipeline-2026.11
cd RUN_DIR
PIPELINE
echo "eval finished ($(date +%T))"
"""


@case(
    "infra_slurm_job_runs_gym_pipeline_from_team_tools_share_that_is_not_mounted_on_the_eval_node",
    "infra",
    ["/mnt/eval-tools", "mount", "node", "eval.sbatch"],
    "eval.sbatch runs materialize, collect and profile with the team's pinned tools under "
    "/mnt/eval-tools/gym-pipeline-2026.11, the tools share that is meant to be automounted on every eval node; the "
    "node the job landed on has no such mount, so each step failed with 'No such file or directory' and nothing was "
    "collected or profiled although the data, the model server and the scripts were fine",
)
def infra_slurm_job_runs_gym_pipeline_from_team_tools_share_that_is_not_mounted_on_the_eval_node(ctx: Ctx) -> str:
    run = ctx.run
    if Path("/mnt/eval-tools").exists():
        raise RecipeError("/mnt/eval-tools exists on this machine")
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server.log")
    steps = pipeline_lines(url).replace(str(GP), "$EVAL_TOOLS/bin/gym-pipeline").rstrip("\n")
    user_file(ctx, "eval.sbatch", TOOLS_SBATCH, PIPELINE=steps)
    submit_file(ctx)
    code = slurm_run(ctx)
    log = log_of(ctx, "submit.log")
    if "No such file or directory" not in log or (run / "rollouts.jsonl").exists() or profiled(ctx):
        raise failed(ctx, f"exit {code}: {log[-1500:]}")
    return (f"RUN/eval.sbatch (materialize, collect against {url}, profile, all with "
            f"/mnt/eval-tools/gym-pipeline-2026.11/bin/gym-pipeline); RUN/submit.sh exit {code}; 'No such file or "
            f"directory' in the job log; no rollouts, no profile.")


# =====================================================================================================
# healthy (real NeMo Gym): the user's own server prints an ERROR about HF_TOKEN for its unused LLM-judge fallback
# =====================================================================================================

HF_TOKEN_LINES = """import os
if not os.environ.get("HF_TOKEN"):
    # the judge fallback only grades free-form answers (extraction_mode "judge"); this set has none
    print("ERROR: HF_TOKEN is not set: LLM-judge fallback disabled (401 Unauthorized from the judge endpoint)",
          flush=True)"""


@case(
    "healthy_gym_own_server_prints_error_hf_token_not_set_for_llm_judge_fallback_the_final_answer_set_never_uses",
    "healthy",
    [],
    "nothing is wrong: the user's own resources server quiz_judge prints 'ERROR: HF_TOKEN is not set: LLM-judge "
    "fallback disabled (401 Unauthorized ...)' at import; the fallback only grades free-form answers and this set's "
    "rows all use extraction_mode final_answer, so every rollout was graded by the string match and profiled",
    netns=True,
)
def healthy_gym_own_server_prints_error_hf_token_not_set_for_llm_judge_fallback_the_final_answer_set_never_uses(
        ctx: Ctx) -> str:
    run = ctx.run
    ctx.env.pop("HF_TOKEN", None)
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS[:6]])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS[:6])
    search, overrides, env_start, policy = gym_own_server(
        ctx, "quiz_judge", lambda app: with_import(app, HF_TOKEN_LINES), better,
        "(the user's quiz_judge server: Gym's string_match plus an LLM-judge fallback that needs HF_TOKEN)")
    script = own_eval_script(ctx, search, overrides, "quiz_judge", comment="weekly eval")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    server_log = text_of(run / "env_start.log")
    if code or len(keys_of(got)) != 18 or "HF_TOKEN is not set" not in server_log or not any(rewards(got)) \
            or not list(run.glob("results/*reward_profiling*.jsonl")):
        raise failed(ctx, f"exit {code}, {len(got)}: {server_log[-1500:]}")
    return (f"RUN/my_gym/resources_servers/quiz_judge/app.py (prints 'ERROR: HF_TOKEN is not set' at import); real "
            f"`gym env start` (loopback-only namespace) with it; RUN/run_eval.sh (`gym eval run --no-serve` 6 x 3, "
            f"`gym eval profile`) exit {code}; {len(keys_of(got))} of 18 rollouts, mean {mean_of(got):.2f}.")


if __name__ == "__main__":
    sys.exit(main("hundred_and_fourth_held_out", __file__, __doc__))
