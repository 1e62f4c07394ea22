"""Build the NINETIETH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/ninetieth_held_out.py --out tests/data/diagnosis_corpus/ninetieth_held_out [--only CASE ...]

This set was written after the eighty-nine earlier sets (first_held_out.py ... eighty_ninth_held_out.py), from the
guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`),
the real NeMo Gym 0.7.0 (`gym env start`, `gym eval run`, `gym eval profile`) with the users' own resources servers,
Slurm jobs (sbatch, signal directives, CI glue around sbatch), and the user's own shell and Python
tooling, settings, data-preparation scripts and verifiers. The output of every command is captured as a user would
(`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data, scripts,
settings, verifier code). Each case injects one cause, different in mechanism from those of the eighty-nine earlier
sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not
written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Slurm
(SLURM_CONF, the third single-node cluster), and PYTHONPATH set to this checkout. Run it from a foreground shell. It
makes no Docker containers (any it made would be named `h90-...` and removed at the end of their recipe).
"""
from __future__ import annotations

import csv
import io
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import failed, stop_gym  # noqa: E402
from eighty_eighth_held_out import PLAIN_SUBMIT, PLUS_PAIRS, WAIT_LINES, labelled, with_import  # noqa: E402
from eighty_sixth_held_out import slurm_week, user_file  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_first_held_out import keys_of  # noqa: E402
from fifty_ninth_held_out import gym_own_server  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from recipes import BIN, Ctx, case, main, replace_verify, rows_of, text_of  # noqa: E402
from seventy_ninth_held_out import run_eval  # noqa: E402
from sixty_fourth_held_out import pipeline_lines  # noqa: E402
from sixty_third_held_out import gym_script, gym_up, mean_of  # noqa: E402
from thirtieth_held_out import gym_rows  # noqa: E402
from twenty_fourth_held_out import gym_eval_line, gym_profile_line  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_third_held_out import write_jsonl  # noqa: E402

recipes.SERVICES_ENV["SLURM_CONF"] = "/tmp/gym-pipeline-services/slurm-3/slurm.conf"

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================

CAPITALS = [
    ("What is the capital of Ireland?", "Dublin"),
    ("How many sides does a hexagon have?", "6"),
    ("What is the capital of Greece?", "Athens"),
    ("How many days are in a leap year?", "366"),
    ("What is the capital of Sweden?", "Stockholm"),
    ("How many continents are there on Earth?", "7"),
]


def timed_eval_script(ctx: Ctx, search: Path, overrides: str, name: str, budget_s: int, repeats: int,
                      comment: str) -> Path:
    """RUN/run_eval.sh: `gym eval run` of the user's own server under the CI step's time budget, then profile."""
    script = ctx.run / "run_eval.sh"
    script.write_text(
        f"#!/bin/bash\n# {comment}\ncd {ctx.run}\n"
        f"# CI step budget: the eval step gets {budget_s} s (ci/eval_step.yaml), the profile runs after it\n"
        f"timeout {budget_s} " + gym_eval_line(f"--search-dir {search} {overrides}", "tasks.jsonl",
                                               "results/rollouts.jsonl", repeats, 4, agent=f"{name}_simple_agent")
        + "\necho \"eval step exit: $?\"\n" + gym_profile_line("results") + "\n")
    return script


def slurm_run(ctx: Ctx, timeout: float = 300, log: str = "logs/submit.log") -> int:
    """`bash RUN/submit.sh`; then every job still queued from this run folder is cancelled (and no other: the
    cluster is shared, and a job another user submitted meanwhile is not this run's)."""
    try:
        return ctx.sh(f"bash {ctx.run}/submit.sh", log, timeout=timeout)
    finally:
        listing = subprocess.run(["squeue", "-h", "-o", "%i %Z"], env=ctx.env, capture_output=True, text=True,
                                 check=False).stdout
        for line in listing.splitlines():
            job, _, workdir = line.partition(" ")
            if workdir.strip().startswith(str(ctx.run)):
                subprocess.run(["scancel", job.split("_")[0]], env=ctx.env, capture_output=True, check=False)


# =====================================================================================================
# the users' own resources servers grade through a thread pool (a healthy and a throughput case)
# =====================================================================================================

POOL_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        global _BUSY
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        reward = 0.0
        if extracted is not None and body.expected_answer:
            if _BUSY >= GRADER_WORKERS:
                print(f"grader pool busy: {_BUSY} verifications waiting or grading on {GRADER_WORKERS} worker(s)",
                      flush=True)
            _BUSY += 1
            try:
                reward = await asyncio.get_running_loop().run_in_executor(
                    GRADER_POOL, _grade, extracted, body.expected_answer, body.case_sensitive)
            finally:
                _BUSY -= 1

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''

POOL_HELPER = '''# the team's grading library is synchronous (a normalisation-service round trip per answer): it runs in a pool
GRADER_WORKERS = {workers}
GRADER_POOL = ThreadPoolExecutor(max_workers=GRADER_WORKERS, thread_name_prefix="grader")
_BUSY = 0


def _grade(extracted, expected, case_sensitive):
    time.sleep({grade_s})  # the normalisation service's round trip
    return _answers_match(extracted, expected, case_sensitive)


'''


def pool_app(workers: int, grade_s: float):
    def edit(app: str) -> str:
        app = with_import(replace_verify(app, POOL_VERIFY),
                          "import asyncio\nimport time\nfrom concurrent.futures import ThreadPoolExecutor")
        marker = "class StringMatchResourcesServer("
        return app.replace(marker, POOL_HELPER.format(workers=workers, grade_s=grade_s) + marker, 1)
    return edit


@case(
    "healthy_gym_own_verify_grades_in_two_worker_thread_pool_and_logs_each_time_both_workers_are_busy",
    "healthy",
    [],
    "nothing is wrong: the user's own resources server quiz_pool runs the team's synchronous grading call (0.4 s "
    "each) in a ThreadPoolExecutor of two workers and prints 'grader pool busy: ... waiting or grading' whenever "
    "a verification arrives while both are taken (Gym sends four at a time), so env_start.log shows such lines during the eval; the "
    "verifications only wait a moment, every rollout was graded and `gym eval profile` completed inside the CI "
    "step's budget",
    netns=True,
)
def healthy_gym_own_verify_grades_in_two_worker_thread_pool_and_logs_each_time_both_workers_are_busy(ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in CAPITALS])
    _, better = truth_checkpoints(ctx, CAPITALS)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "quiz_pool", pool_app(2, 0.4), better,
        "(the user's quiz_pool server: Gym's string_match grading in a 2-worker thread pool, 0.4 s a call)")
    script = timed_eval_script(ctx, search, overrides, "quiz_pool", 240, 4, "weekly eval with our quiz_pool server")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    busy = text_of(run / "env_start.log").count("grader pool busy")
    profile = rows_of(next(iter(run.glob("results/*reward_profiling*.jsonl")), run / "none"))
    if code or len(keys_of(got)) != 24 or not any(rewards(got)) or len(profile) != 6 or busy < 1 \
            or "eval step exit: 0" not in log_of(ctx, "run_eval.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, {busy}, {len(profile)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/my_gym/resources_servers/quiz_pool/app.py (grading in ThreadPoolExecutor(max_workers=2), 0.4 s "
            f"a call); real `gym env start` (loopback-only namespace) with it; RUN/run_eval.sh (`timeout 240 gym eval "
            f"run --no-serve` 6 x 4, `gym eval profile`) exit {code}; {busy} 'grader pool busy' lines; "
            f"{len(keys_of(got))} of 24 rollouts, mean reward {mean_of(got):.2f}.")


@case(
    "throughput_gym_own_verify_grades_in_thread_pool_of_one_worker_so_queued_verifications_overrun_ci_step_budget",
    "throughput_resources",
    ["GRADER_WORKERS", "max_workers", "pool", "worker"],
    "the user's own resources server quiz_pool runs the team's synchronous grading call (2 s each) in "
    "`ThreadPoolExecutor(max_workers=GRADER_WORKERS)` with GRADER_WORKERS = 1 (left from debugging the grading "
    "library); Gym sends four rollouts at a time but every verification waits in the one worker's queue, so 24 "
    "gradings take about 48 s one after another and the CI step's `timeout 40` stopped `gym eval run` before the "
    "eval was through: rollouts are missing and the profile is refused or partial, although the model and the "
    "servers were fine",
    netns=True,
)
def throughput_gym_own_verify_grades_in_thread_pool_of_one_worker_so_queued_verifications_overrun_ci_step_budget(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in CAPITALS])
    _, better = truth_checkpoints(ctx, CAPITALS)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "quiz_pool", pool_app(1, 2.0), better,
        "(the user's quiz_pool server: Gym's string_match grading in a 1-worker thread pool, 2 s a call)")
    script = timed_eval_script(ctx, search, overrides, "quiz_pool", 40, 4, "weekly eval with our quiz_pool server")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    busy = text_of(run / "env_start.log").count("grader pool busy")
    log = log_of(ctx, "run_eval.log")
    if len(keys_of(got)) >= 24 or "eval step exit: 124" not in log or busy < 3:
        raise failed(ctx, f"exit {code}, {len(got)}, {busy}: {log[-1500:]}")
    return (f"RUN/my_gym/resources_servers/quiz_pool/app.py (grading in ThreadPoolExecutor(max_workers=1), 2 s a "
            f"call); real `gym env start` (loopback-only namespace) with it; RUN/run_eval.sh (`timeout 40 gym eval "
            f"run --no-serve` 6 x 4 at concurrency 4, `gym eval profile`) exit {code}; eval step exit 124; {busy} "
            f"'grader pool busy' lines; {len(keys_of(got))} of 24 rollouts written.")


# =====================================================================================================
# verifier_runtime (real NeMo Gym): a SIGALRM deadline inside a worker thread
# =====================================================================================================

ALARM_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        reward = 0.0
        if extracted is not None and body.expected_answer:
            # grade off the event loop, under the grading library's 5 s deadline
            reward = await asyncio.to_thread(_grade_with_deadline, extracted, body.expected_answer,
                                             body.case_sensitive)

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''

ALARM_HELPER = '''

def _grade_with_deadline(extracted, expected, case_sensitive, seconds=5):
    """The grading library's deadline helper: SIGALRM stops a grading call that hangs."""

    def _expired(signum, frame):
        raise TimeoutError(f"grading took longer than {seconds} s")

    previous = signal.signal(signal.SIGALRM, _expired)
    signal.alarm(seconds)
    try:
        return _answers_match(extracted, expected, case_sensitive)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)

'''


def alarm_app(app: str) -> str:
    app = with_import(replace_verify(app, ALARM_VERIFY), "import asyncio\nimport signal")
    marker = "class StringMatchResourcesServer("
    return app.replace(marker, ALARM_HELPER.lstrip("\n") + "\n" + marker, 1)


@case(
    "verifier_runtime_gym_own_verify_runs_sigalrm_deadline_helper_through_asyncio_to_thread_where_signal_is_refused",
    "verifier_runtime",
    ["signal", "SIGALRM", "main thread", "to_thread"],
    "the user's own resources server quiz_deadline grades each answer through the grading library's deadline "
    "helper, which installs a SIGALRM handler with signal.signal and arms signal.alarm, and calls it with "
    "`asyncio.to_thread` to keep the event loop free; Python allows signal.signal only in the main thread, so every "
    "verification with an answer to grade raised 'ValueError: signal only works in main thread of the main "
    "interpreter', those verify requests failed with a server error and their rollouts failed, although the model "
    "answered well",
    netns=True,
)
def verifier_runtime_gym_own_verify_runs_sigalrm_deadline_helper_through_asyncio_to_thread_where_signal_is_refused(
        ctx: Ctx) -> str:
    from fifty_ninth_held_out import own_eval_script

    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in CAPITALS])
    _, better = truth_checkpoints(ctx, CAPITALS)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "quiz_deadline", alarm_app, better,
        "(the user's quiz_deadline server: Gym's string_match grading through a SIGALRM deadline helper in "
        "asyncio.to_thread)")
    script = own_eval_script(ctx, search, overrides, "quiz_deadline", comment="weekly eval")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    crashed = rows_of(run / "results" / "rollouts_failures.jsonl")
    everything = text_of(run / "env_start.log") + log_of(ctx, "run_eval.log") + text_of(
        run / "results" / "rollouts_failures.jsonl")
    if "signal only works in main thread" not in everything or len(crashed) < 6 or any(rewards(got)):
        raise failed(ctx, f"exit {code}, {len(got)}, {len(crashed)}: {everything[-1500:]}")
    return (f"RUN/my_gym/resources_servers/quiz_deadline/app.py (verify: asyncio.to_thread(_grade_with_deadline), "
            f"which calls signal.signal/signal.alarm); real `gym env start` (loopback-only namespace) with it; "
            f"RUN/run_eval.sh (`gym eval run --no-serve` 6 x 3, `gym eval profile`) exit {code}; ValueError on every "
            f"verify; {len(crashed)} rollouts failed, {len(got)} graded.")


# =====================================================================================================
# data_schema (real NeMo Gym): prep shortens every prompt to 80 characters; healthy twin with a wide limit
# =====================================================================================================

LONG_PAIRS = [
    ("What is the capital of Norway?", "Oslo"),
    ("In the metric system, how many centimetres are there in one metre?", "100"),
    ("What is the capital of Kenya?", "Nairobi"),
    ("Counting both the regular and the leap-year day, how many days does February have in 2024?", "29"),
    ("What is the capital of Peru?", "Lima"),
    ("Which chemical element, used in pencils as graphite, has the atomic number 6?", "Carbon"),
]
LONG_ANSWERS = ("100", "29", "Carbon")

PREP_SHORTEN_PY = '''"""prep.py: the review export labels.csv -> tasks.jsonl; prompts kept short for the token budget."""
import csv
import json
import textwrap

WIDTH = {width}  # characters per prompt (the hosted model's prompt budget, in ci/eval.yaml)
rows, cut = [], 0
with open("labels.csv", newline="") as f:
    for row in csv.DictReader(f):
        full = f"{{row['question']}} End your response with 'Final answer: <answer>'."
        text = textwrap.shorten(full, width=WIDTH, placeholder=" [...]")
        cut += text != full
        rows.append({{"responses_create_params": {{"input": [{{"role": "user", "type": "message",
                                                              "content": [{{"type": "input_text", "text": text}}]}}]}},
                     "expected_answer": row["answer"], "extraction_mode": "final_answer", "case_sensitive": False}})
with open("tasks.jsonl", "w") as out:
    out.writelines(json.dumps(r) + "\\n" for r in rows)
print(f"prep: {{len(rows)}} rows written, {{cut}} prompts shortened to {{WIDTH}} characters")
'''


def labels_csv(path: Path, pairs: list[tuple[str, str]]) -> None:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["question", "answer"])
    writer.writerows(pairs)
    path.write_text(buffer.getvalue())


def shorten_week(ctx: Ctx, width: int) -> tuple[int, list[dict]]:
    run = ctx.run
    labels_csv(run / "labels.csv", LONG_PAIRS)
    (run / "prep.py").write_text(PREP_SHORTEN_PY.format(width=width))
    _, better = truth_checkpoints(ctx, LONG_PAIRS)
    overrides, env_start, policy = gym_up(ctx, better)
    script = gym_script(ctx, "weekly eval: prep the review export, then gym eval run and profile",
                        [f"{BIN}/python prep.py", gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 4),
                         gym_profile_line("results")])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    return code, gym_rows(ctx)


@case(
    "data_schema_gym_prep_shortens_every_prompt_to_eighty_characters_with_textwrap_so_long_questions_lose_their_end",
    "data_schema",
    ["textwrap.shorten", "WIDTH", "prompt", "prep.py"],
    "the user's prep.py builds each prompt and passes it through `textwrap.shorten(full, width=80, placeholder=' "
    "[...]')` to keep prompts inside a hosted model's budget; the three long questions were cut mid-sentence, "
    "losing their end and the 'Final answer' instruction, so those tasks no longer ask what the labels answer: the "
    "model's replies to them scored 0 while the short questions, left whole, scored (every command exits 0)",
    netns=True,
)
def data_schema_gym_prep_shortens_every_prompt_to_eighty_characters_with_textwrap_so_long_questions_lose_their_end(
        ctx: Ctx) -> str:
    code, got = shorten_week(ctx, 80)
    longs = labelled(got, *LONG_ANSWERS)
    shorts = [r for r in got if r not in longs]
    log = log_of(ctx, "run_eval.log")
    if code or len(keys_of(got)) != 18 or any(rewards(longs)) or not any(rewards(shorts)) \
            or "3 prompts shortened" not in log:
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(longs)}, {rewards(shorts)}: {log[-1500:]}")
    return (f"RUN/labels.csv; RUN/prep.py (textwrap.shorten to 80 characters); real `gym env start` (loopback-only "
            f"namespace) against step_0200; RUN/run_eval.sh (prep, `gym eval run --no-serve` 6 x 3, `gym eval "
            f"profile`) exit {code}; long-question rewards {rewards(longs)}, short mean {mean_of(shorts):.2f}.")


@case(
    "healthy_gym_prep_passes_prompts_through_textwrap_shorten_with_a_width_none_of_them_reaches",
    "healthy",
    [],
    "nothing is wrong: the user's prep.py passes every prompt through `textwrap.shorten(full, width=400)` for a "
    "hosted model's prompt budget and reports how many it shortened; the longest prompt is far below 400 "
    "characters, so 0 were shortened (shorten only collapses runs of whitespace), and the eval and profile ran on "
    "the questions as written",
    netns=True,
)
def healthy_gym_prep_passes_prompts_through_textwrap_shorten_with_a_width_none_of_them_reaches(ctx: Ctx) -> str:
    code, got = shorten_week(ctx, 400)
    log = log_of(ctx, "run_eval.log")
    profile = rows_of(next(iter(ctx.run.glob("results/*reward_profiling*.jsonl")), ctx.run / "none"))
    if code or len(keys_of(got)) != 18 or not any(rewards(labelled(got, *LONG_ANSWERS))) \
            or "0 prompts shortened" not in log or len(profile) != 6:
        raise failed(ctx, f"exit {code}, {len(got)}: {log[-1500:]}")
    return (f"RUN/labels.csv; RUN/prep.py (textwrap.shorten to 400 characters); real `gym env start` (loopback-only "
            f"namespace) against step_0200; RUN/run_eval.sh (prep, `gym eval run --no-serve` 6 x 3, `gym eval "
            f"profile`) exit {code}; 0 prompts shortened; {len(keys_of(got))} of 18 rollouts, mean reward "
            f"{mean_of(got):.2f}.")


# =====================================================================================================
# model_serving (Slurm): the job starts its model server with `exec`, as the serving image's entrypoint does
# =====================================================================================================

EXEC_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=1
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=2
# weekly eval: serve this week's checkpoint inside the job, then evaluate against it
cd RUN_DIR
rm -f ready.url
echo "$(date +%T) starting the model server"
# from the serving image's entrypoint.sh (exec: the server gets the job's signals directly)
exec GP_BIN serve-policy --port 0 --ready-file ready.url --checkpoint CKPT --latency-ms 20
for i in $(seq 1 60); do test -s ready.url && break; sleep 0.5; done
URL=$(cat ready.url)
echo "model server at $URL"
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $URL \\
  --env string_match --concurrency 4
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""

SLOW_WAIT_LINES = """timeout 200 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"
scontrol show job $JOB 2>/dev/null | grep -E "JobState|RunTime|TimeLimit"
"""


@case(
    "model_serving_slurm_eval_job_starts_model_server_with_exec_from_entrypoint_so_the_eval_lines_never_run",
    "model_serving",
    ["exec", "serve-policy", "background", "&"],
    "the user's eval.sbatch starts the model server with the line copied from the serving image's entrypoint.sh, "
    "`exec gym-pipeline serve-policy ...`; exec replaces the job's shell with the server, so the lines after it "
    "(wait for the ready file, materialize, collect, profile) never ran: the server answered nobody until Slurm "
    "ended the job at its one-minute time limit, and no rollout was collected",
)
def model_serving_slurm_eval_job_starts_model_server_with_exec_from_entrypoint_so_the_eval_lines_never_run(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    user_file(ctx, "eval.sbatch", EXEC_SBATCH, CKPT=str(better))
    user_file(ctx, "submit.sh", PLAIN_SUBMIT, WAIT_LINES=SLOW_WAIT_LINES)
    code = slurm_run(ctx, timeout=320)
    log = log_of(ctx, "submit.log")
    if complete(ctx) or "starting the model server" not in log or "model server at" in log \
            or (run / "rollouts_materialized_inputs.jsonl").exists() or "SIMULATED_POLICY_READY" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-2000:]}")
    return (f"RUN/eval.sbatch (`exec gym-pipeline serve-policy` of {better.name}, then wait, materialize, collect, "
            f"profile; --time=1); RUN/submit.sh (sbatch, wait) exit {code}; the server started and logged its URL, nothing after "
            f"the exec ran; {complete(ctx)} rollouts.")


# =====================================================================================================
# healthy (Slurm): a USR1 trap armed by the signal directive, never needed
# =====================================================================================================

USR1_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --signal=B:USR1@120
# weekly eval; if the time limit comes near, Slurm sends USR1 two minutes before and we keep what was collected
cd RUN_DIR
save_partial() {
  echo "$(date +%T) USR1: time limit near, keeping the partial rollouts"
  cp rollouts.jsonl rollouts.partial.jsonl
  exit 0
}
trap save_partial USR1
echo "trap armed: USR1 120 s before the 10-minute limit keeps partial rollouts"
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL_VALUE \\
  --env string_match --concurrency 4 &
wait $!   # (in the background, so that the trap can run while collect works)
echo "collect exit: $?"
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
ls rollouts.partial.jsonl 2>&1
"""


@case(
    "healthy_slurm_eval_job_arms_usr1_trap_for_its_signal_directive_and_finishes_long_before_it_could_fire",
    "healthy",
    [],
    "nothing is wrong: the eval job asks Slurm for USR1 120 s before its 10-minute limit (`#SBATCH "
    "--signal=B:USR1@120`) and traps it to keep partial rollouts; the eval took seconds, the signal never came, and "
    "the job's last line is ls reporting that no rollouts.partial.jsonl exists, which is expected: every rollout "
    "was collected and profiled",
)
def healthy_slurm_eval_job_arms_usr1_trap_for_its_signal_directive_and_finishes_long_before_it_could_fire(
        ctx: Ctx) -> str:
    code, url = slurm_week(ctx, PLUS_PAIRS, {"eval.sbatch": (USR1_SBATCH, {}),
                                            "submit.sh": (PLAIN_SUBMIT, {"WAIT_LINES": WAIT_LINES})})
    log = log_of(ctx, "submit.log")
    got = rows_of(ctx.run / "rollouts.jsonl")
    if code or complete(ctx) != 27 or "trap armed" not in log or "collect exit: 0" not in log \
            or "No such file" not in log or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.sbatch (#SBATCH --signal=B:USR1@120, trap save_partial USR1, materialize 9 x 3, collect "
            f"against {url} in the background + wait, profile); RUN/submit.sh (sbatch, wait) exit {code}; "
            f"{complete(ctx)} of 27 rollouts, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# config (Slurm): `((STEP++))` under `set -e` ends the job after its first step
# =====================================================================================================

STEP_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
set -eo pipefail   # stop at the first failing step
cd RUN_DIR
STEP=0
step() { echo "== step $STEP: $1 ($(date +%T))"; }
step materialize
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
((STEP++))
step collect
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL_VALUE \\
  --env string_match --concurrency 4
((STEP++))
step profile
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
echo "== all steps done"
"""


@case(
    "config_slurm_eval_job_counts_steps_with_post_increment_under_set_e_so_zero_result_ends_job_after_materialize",
    "config",
    ["((STEP++))", "set -e", "arithmetic", "exit status"],
    "the user's eval.sbatch runs under `set -eo pipefail` and numbers its steps with `((STEP++))`, starting from "
    "STEP=0; a post-increment evaluates to the old value, 0, and `(( 0 ))` has exit status 1, so set -e ended the "
    "job silently right after the materialize step: collect and profile never ran and no rollout exists, although "
    "the policy server was up",
)
def config_slurm_eval_job_counts_steps_with_post_increment_under_set_e_so_zero_result_ends_job_after_materialize(
        ctx: Ctx) -> str:
    code, url = slurm_week(ctx, PLUS_PAIRS, {"eval.sbatch": (STEP_SBATCH, {}),
                                            "submit.sh": (PLAIN_SUBMIT, {"WAIT_LINES": WAIT_LINES})})
    log = log_of(ctx, "submit.log")
    if complete(ctx) or "step 0: materialize" not in log or "step 1" in log \
            or not (ctx.run / "rollouts_materialized_inputs.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.sbatch (set -eo pipefail, STEP=0, `((STEP++))` after materialize, collect against {url}, "
            f"profile); RUN/submit.sh (sbatch, wait) exit {code}; the job stopped after materialize; "
            f"{complete(ctx)} rollouts.")


# =====================================================================================================
# infra (Slurm): the job log folder is a link into node scratch that this node does not mount
# =====================================================================================================

SCRATCH_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
cd RUN_DIR
echo "job $SLURM_JOB_ID on $(hostname)"
PIPELINE"""

SCRATCH_SUBMIT = """#!/bin/bash
# submit.sh: the weekly eval as one Slurm job (logs/ points at the node-local scratch, see README)
cd RUN_DIR
ls -l logs
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
WAIT_LINES
scontrol show job $JOB 2>/dev/null | grep -E "JobState|StdOut"
cat logs/eval_$JOB.log
wc -l rollouts.jsonl
"""


@case(
    "infra_slurm_job_log_folder_is_link_into_node_scratch_that_this_node_does_not_mount_so_the_job_fails_at_start",
    "infra",
    ["scratch", "mount", "logs", "symlink"],
    "the run folder's logs/ is a symbolic link into the node-local scratch area (/scratch-local/evals/logs) that "
    "the eval nodes of the old cluster mount; this node has no such scratch, the link dangles, and slurmstepd could "
    "not open the job's --output file under it, so the batch job failed before its first line: no job log, no "
    "rollouts, although the script and the policy server were fine",
)
def infra_slurm_job_log_folder_is_link_into_node_scratch_that_this_node_does_not_mount_so_the_job_fails_at_start(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20", log="model_server.log")
    (run / "logs").symlink_to("/scratch-local/evals/logs", target_is_directory=True)
    ctx.note("(RUN/logs -> /scratch-local/evals/logs, the old cluster's node scratch; not mounted here)")
    (run / "eval.sbatch").write_text(SCRATCH_SBATCH.replace("PIPELINE", pipeline_lines(url)).replace(
        "RUN_DIR", str(run)))
    (run / "submit.sh").write_text(SCRATCH_SUBMIT.replace("WAIT_LINES", WAIT_LINES).replace("RUN_DIR", str(run)))
    code = slurm_run(ctx, log="submit.log")
    log = text_of(run / "submit.log")
    if complete(ctx) or Path("/scratch-local").exists() or "submitted eval job" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/logs: a symbolic link to /scratch-local/evals/logs (absent); RUN/eval.sbatch (--output under "
            f"logs/, materialize 9 x 3, collect against {url}, profile); RUN/submit.sh (sbatch, wait) exit {code}; "
            f"{complete(ctx)} rollouts.")


# =====================================================================================================
# cache_resume (built-in): the fixed export was saved by the browser as `labels (1).csv`
# =====================================================================================================

DL_PAIRS_OLD = [
    ("What is the capital of Australia?", "Sydney"),
    ("How many legs does an insect have?", "6"),
    ("What is the capital of Switzerland?", "Zurich"),
    ("What is the chemical symbol of iron?", "Fe"),
    ("How many seconds are in a minute?", "60"),
    ("What is the capital of Japan?", "Tokyo"),
]
DL_FIXED = {"Sydney": "Canberra", "Zurich": "Bern"}

PREP_PLAIN_PY = '''"""prep.py: labels.csv (question,answer) -> string_match.jsonl."""
import csv
import json

rows = []
with open("labels.csv", newline="") as f:
    for row in csv.DictReader(f):
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                              "content": [{"type": "input_text", "text": text}]}]},
                     "expected_answer": row["answer"], "extraction_mode": "final_answer", "case_sensitive": False})
with open("string_match.jsonl", "w") as out:
    out.writelines(json.dumps(r) + "\\n" for r in rows)
print(f"prep: {len(rows)} rows written")
'''


@case(
    "cache_resume_builtin_fixed_export_saved_by_browser_as_labels_1_csv_so_run_script_copies_last_weeks_labels_csv",
    "cache_resume",
    ["labels (1).csv", "Downloads", "labels.csv", "old"],
    "the reviewers fixed two labels (Sydney -> Canberra, Zurich -> Bern) and the user downloaded the new export "
    "into ~/Downloads, where last week's labels.csv still was, so the browser saved it as 'labels (1).csv'; the run "
    "script copies ~/Downloads/labels.csv, last week's file, and the eval ran on the old labels: the model's right "
    "answers to the two fixed questions scored 0 (every command exits 0)",
)
def cache_resume_builtin_fixed_export_saved_by_browser_as_labels_1_csv_so_run_script_copies_last_weeks_labels_csv(
        ctx: Ctx) -> str:
    run = ctx.run
    fixed = [(q, DL_FIXED.get(a, a)) for q, a in DL_PAIRS_OLD]
    _, better = truth_checkpoints(ctx, fixed)
    downloads = ctx.work / "home" / "Downloads"
    downloads.mkdir(parents=True)
    labels_csv(downloads / "labels.csv", DL_PAIRS_OLD)
    labels_csv(downloads / "labels (1).csv", fixed)
    ctx.note("(WORK/home/Downloads: labels.csv, last week's export, and 'labels (1).csv', this week's fixed export "
             "as the browser saved it)")
    (run / "prep.py").write_text(PREP_PLAIN_PY)
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = run_eval(ctx, f"ls -l {downloads}\ncp {downloads}/labels.csv labels.csv\n{BIN}/python prep.py\n"
                    + pipeline_lines(url), "weekly eval: this week's export from ~/Downloads, prep, materialize, "
                    "collect, profile")
    got = rows_of(run / "rollouts.jsonl")
    stale = labelled(got, *DL_FIXED)
    others = [r for r in got if r not in stale]
    if code or len(stale) != 6 or any(rewards(stale)) or not any(rewards(others)) \
            or "labels (1).csv" not in log_of(ctx, "run_eval.log"):
        raise failed(ctx, f"exit {code}, {rewards(stale)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"WORK/home/Downloads holds labels.csv (old) and 'labels (1).csv' (fixed); RUN/run_eval.sh (cp "
            f"~/Downloads/labels.csv, prep.py, materialize 6 x 3, collect against {url}, profile) exit {code}; "
            f"rewards of the two stale labels {rewards(stale)}, others mean {mean_of(others):.2f}.")


if __name__ == "__main__":
    sys.exit(main("ninetieth_held_out", __file__, __doc__))
