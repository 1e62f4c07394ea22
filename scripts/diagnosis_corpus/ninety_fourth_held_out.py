"""Build the NINETY-FOURTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/ninety_fourth_held_out.py --out tests/data/diagnosis_corpus/ninety_fourth_held_out [--only CASE ...]

This set was written after the ninety-three earlier sets (first_held_out.py ... ninety_third_held_out.py), from the
guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`),
the real NeMo Gym 0.7.0 (`gym env start`, `gym eval run`, `gym eval profile`) with the users' own resources servers,
Slurm jobs (sbatch and its command-line rules, job states), and the user's own shell and Python tooling, CI steps,
data-preparation scripts and verifiers. The output of every command is captured as a user would
(`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data, scripts,
settings, verifier code). Each case injects one cause, different in mechanism from those of the 93 earlier
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
from eighty_eighth_held_out import WAIT_LINES, labelled, with_import  # noqa: E402
from eighty_sixth_held_out import job_ids, user_file  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_first_held_out import keys_of  # noqa: E402
from fifty_ninth_held_out import gym_own_server, own_eval_script  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from ninetieth_held_out import CAPITALS, DL_FIXED, DL_PAIRS_OLD, slurm_run, timed_eval_script  # noqa: E402
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
GP_PATH = str(BIN / "gym-pipeline")


def profile_of(ctx: Ctx, folder: str = "results") -> list[dict]:
    return rows_of(next(iter(ctx.run.glob(f"{folder}/*reward_profiling*.jsonl")), ctx.run / "none"))


def with_helper(app: str, helper: str) -> str:
    marker = "class StringMatchResourcesServer("
    return app.replace(marker, helper.lstrip("\n") + "\n" + marker, 1)


# =====================================================================================================
# verifier_runtime (real NeMo Gym): the grading note is built with str.format on a string holding the answer
# =====================================================================================================

SET_PAIRS = [
    ("Which primes are below 10? Give them as a set.", "{2, 3, 5, 7}"),
    ("What is the capital of France?", "Paris"),
    ("Which even numbers are between 1 and 7? Give them as a set.", "{2, 4, 6}"),
    ("What is the capital of Italy?", "Rome"),
    ("Which multiples of 5 are below 20? Give them as a set.", "{5, 10, 15}"),
    ("What is the capital of Spain?", "Madrid"),
]
SET_ANSWERS = ("{2, 3, 5, 7}", "{2, 4, 6}", "{5, 10, 15}")

NOTE_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)
            # one line per grading for the review dashboard (it greps these from the server log)
            note = ("graded '" + extracted + "' against '{expected}': reward {reward}").format(
                expected=body.expected_answer, reward=reward)
            print(note, flush=True)

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


@case(
    "verifier_runtime_gym_own_verify_builds_grading_note_with_str_format_over_text_holding_the_answer_so_set_answers_with_braces_raise",
    "verifier_runtime",
    ["format", "note", "app.py", "{"],
    "the user's own resources server quiz_sets prints a grading note for the dashboard built as `(\"graded '\" + "
    "extracted + \"' against '{expected}' ...\").format(...)`: the model's answer is pasted into the format string "
    "itself, so for the set answers ('{2, 3, 5, 7}', '{2, 4, 6}', '{5, 10, 15}') str.format reads the braces as a "
    "replacement field and raises KeyError inside verify; those verifications failed with 500 and the rollouts of "
    "the three set questions are missing, although the model answered them right",
    netns=True,
)
def verifier_runtime_gym_own_verify_builds_grading_note_with_str_format_over_text_holding_the_answer_so_set_answers_with_braces_raise(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in SET_PAIRS])
    _, better = truth_checkpoints(ctx, SET_PAIRS)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "quiz_sets", lambda app: replace_verify(app, NOTE_VERIFY), better,
        "(the user's quiz_sets server: Gym's string_match verify plus a grading note built with str.format over a "
        "string holding the answer)")
    script = own_eval_script(ctx, search, overrides, "quiz_sets", comment="weekly eval")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    sets = labelled(got, *SET_ANSWERS)
    plain = [r for r in got if r not in sets]
    server_log = text_of(run / "env_start.log")
    if len(sets) >= 9 or not plain or not any(rewards(plain)) or "KeyError" not in server_log:
        raise failed(ctx, f"exit {code}, {len(got)}, sets {len(sets)}: {server_log[-1500:]}")
    return (f"RUN/my_gym/resources_servers/quiz_sets/app.py (verify prints `(\"graded '\" + extracted + ...).format()`); "
            f"real `gym env start` (loopback-only namespace) with it; RUN/run_eval.sh (`gym eval run --no-serve` 6 x 3, "
            f"`gym eval profile`) exit {code}; KeyError in the server log; {len(sets)} of 9 set-question rollouts, "
            f"{len(plain)} others (mean {mean_of(plain):.2f}).")


# =====================================================================================================
# healthy (real NeMo Gym): the grading log line pastes the answer into a %-format string; logging complains, goes on
# =====================================================================================================

PCT_PAIRS = [
    ("What percent of 200 is 100?", "50%"),
    ("What is the capital of Portugal?", "Lisbon"),
    ("What percent of 80 is 20?", "25%"),
    ("What is the capital of Austria?", "Vienna"),
    ("What percent of 40 is 30?", "75%"),
    ("What is the capital of Hungary?", "Budapest"),
]

LOG_HELPER = '''
# every grading goes to the server log, for the weekly review
_LOG = logging.getLogger("quiz_pct.grading")
_LOG.addHandler(logging.StreamHandler())
_LOG.setLevel(logging.INFO)
_LOG.propagate = False

'''

LOG_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)
            _LOG.info("graded against " + body.expected_answer + ": answer %s, reward %s", extracted, reward)

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


def log_app(app: str) -> str:
    return with_helper(with_import(replace_verify(app, LOG_VERIFY), "import logging"), LOG_HELPER)


@case(
    "healthy_gym_own_server_logs_gradings_with_answer_pasted_into_percent_format_string_so_logging_prints_logging_error_tracebacks",
    "healthy",
    [],
    "nothing is wrong: the user's own resources server quiz_pct logs every grading with `_LOG.info(\"graded against "
    "\" + body.expected_answer + \": answer %s, reward %s\", ...)`; for the percentage labels ('50%', '25%', '75%') "
    "the pasted percent sign breaks the %-formatting of the log record, so Python's logging prints '--- Logging error ---' with "
    "a ValueError traceback into the server output; logging swallows the error, the reward was computed before it, "
    "every rollout was graded right and the profile completed",
    netns=True,
)
def healthy_gym_own_server_logs_gradings_with_answer_pasted_into_percent_format_string_so_logging_prints_logging_error_tracebacks(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in PCT_PAIRS])
    _, better = truth_checkpoints(ctx, PCT_PAIRS)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "quiz_pct", log_app, better,
        "(the user's quiz_pct server: Gym's string_match verify plus a grading log line with the answer pasted into "
        "the %-format string)")
    script = own_eval_script(ctx, search, overrides, "quiz_pct", comment="weekly eval")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    pct = labelled(got, "50%", "25%", "75%")
    server_log = text_of(run / "env_start.log")
    if code or len(keys_of(got)) != 18 or "Logging error" not in server_log or not pct or not any(rewards(pct)) \
            or len(profile_of(ctx)) != 6:
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(pct)}: {server_log[-1500:]}")
    return (f"RUN/my_gym/resources_servers/quiz_pct/app.py (`_LOG.info(\"graded against \" + label + \": answer %s ...\")`); "
            f"real `gym env start` (loopback-only namespace) with it, {server_log.count('Logging error')} logging "
            f"errors; RUN/run_eval.sh (`gym eval run --no-serve` 6 x 3, `gym eval profile`) exit {code}; "
            f"{len(keys_of(got))} of 18 rollouts, percentage rewards {rewards(pct)}, mean {mean_of(got):.2f}.")


# =====================================================================================================
# throughput_resources (real NeMo Gym): the alias service pause is given in milliseconds to asyncio.sleep (seconds)
# =====================================================================================================

PAUSE_HELPER = '''
# the alias service's fair-use rule: at least 8 ms between two lookups from one client
_ALIAS_PAUSE_MS = 8


async def _alias_lookup(answer: str) -> str:
    """The alias service's canonical form of `answer` (cached there; the round trip itself is a few ms)."""
    started = time.monotonic()
    await asyncio.sleep(_ALIAS_PAUSE_MS)  # fair-use pause before the lookup
    print(f"alias lookup {answer!r}: {time.monotonic() - started:.1f} s", flush=True)
    return answer

'''

PAUSE_VERIFY = '''
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


def pause_app(app: str) -> str:
    return with_helper(with_import(replace_verify(app, PAUSE_VERIFY), "import asyncio\nimport time"), PAUSE_HELPER)


@case(
    "throughput_gym_own_verify_passes_alias_pause_in_milliseconds_to_asyncio_sleep_which_takes_seconds_so_eval_overruns_ci_budget",
    "throughput_resources",
    ["_ALIAS_PAUSE_MS", "asyncio.sleep", "1000", "milliseconds"],
    "the user's own resources server quiz_pause waits the alias service's fair-use pause before every lookup with "
    "`await asyncio.sleep(_ALIAS_PAUSE_MS)`, where _ALIAS_PAUSE_MS = 8 is meant in milliseconds but asyncio.sleep "
    "takes seconds: every verification waited 8 s, four at a time 24 verifications need about 48 s, and the CI "
    "step's `timeout 30` stopped `gym eval run` before the eval was through (rollouts missing, profile refused or "
    "partial), although the model, the data and Gym were fine",
    netns=True,
)
def throughput_gym_own_verify_passes_alias_pause_in_milliseconds_to_asyncio_sleep_which_takes_seconds_so_eval_overruns_ci_budget(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in CAPITALS])
    _, better = truth_checkpoints(ctx, CAPITALS)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "quiz_pause", pause_app, better,
        "(the user's quiz_pause server: every verification awaits asyncio.sleep(_ALIAS_PAUSE_MS) with the pause "
        "given in milliseconds)")
    script = timed_eval_script(ctx, search, overrides, "quiz_pause", 30, 4, "weekly eval with our quiz_pause server")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    lookups = text_of(run / "env_start.log").count("alias lookup")
    log = log_of(ctx, "run_eval.log")
    if len(keys_of(got)) >= 24 or "eval step exit: 124" not in log or lookups < 3:
        raise failed(ctx, f"exit {code}, {len(got)}, {lookups}: {log[-1500:]}")
    return (f"RUN/my_gym/resources_servers/quiz_pause/app.py (verify awaits asyncio.sleep(_ALIAS_PAUSE_MS), 8); real "
            f"`gym env start` (loopback-only namespace) with it; RUN/run_eval.sh (`timeout 30 gym eval run --no-serve` "
            f"6 x 4 at concurrency 4, `gym eval profile`) exit {code}; eval step exit 124; {lookups} lookups of 8 s "
            f"logged; {len(keys_of(got))} of 24 rollouts written.")


# =====================================================================================================
# data_schema (real NeMo Gym): prep.sh fills a task template with sed, whose replacement reads & as "the match"
# =====================================================================================================

AMP_PAIRS = [
    ("Which duo recorded Bridge over Troubled Water?", "Simon & Garfunkel"),
    ("What is the capital of Canada?", "Ottawa"),
    ("Which company makes Tide detergent?", "Procter & Gamble"),
    ("How many planets are in the solar system?", "8"),
    ("Which telephone company was nicknamed Ma Bell?", "AT&T"),
    ("What is the capital of Norway?", "Oslo"),
]
AMP_ANSWERS = ("Simon & Garfunkel", "Procter & Gamble", "AT&T")

TASK_TEMPLATE = ('{"responses_create_params": {"input": [{"role": "user", "type": "message", "content": [{"type": '
                 '"input_text", "text": "__QUESTION__ End your response with \'Final answer: <answer>\'."}]}]}, '
                 '"expected_answer": "__ANSWER__", "extraction_mode": "final_answer", "case_sensitive": false}\n')

SED_PREP_SH = """#!/bin/bash
# prep.sh: answer_key.txt (question|answer, from the quiz team) -> tasks.jsonl, one task per line of the key,
# each rendered from task_template.json
set -e
tail -n +2 answer_key.txt | while IFS='|' read -r question answer; do
  sed -e "s|__QUESTION__|$question|" -e "s|__ANSWER__|$answer|" task_template.json
done > tasks.jsonl
echo "prep: $(wc -l < tasks.jsonl) tasks rendered"
"""


@case(
    "data_schema_gym_prep_sh_renders_tasks_from_template_with_sed_whose_replacement_ampersand_pastes_the_placeholder_into_labels",
    "data_schema",
    ["sed", "&", "prep.sh", "__ANSWER__"],
    "the user's prep.sh renders every task from task_template.json with `sed -e \"s|__ANSWER__|$answer|\"`; in a sed "
    "replacement an unescaped & stands for the matched text, so the three answers holding an ampersand became "
    "'Simon __ANSWER__ Garfunkel', 'Procter __ANSWER__ Gamble' and 'AT__ANSWER__T' in expected_answer: the model "
    "answered those questions right and scored 0 on them while the other questions scored (every command exits 0)",
    netns=True,
)
def data_schema_gym_prep_sh_renders_tasks_from_template_with_sed_whose_replacement_ampersand_pastes_the_placeholder_into_labels(
        ctx: Ctx) -> str:
    run = ctx.run
    (run / "answer_key.txt").write_text("question|answer\n" + "".join(f"{q}|{a}\n" for q, a in AMP_PAIRS))
    (run / "task_template.json").write_text(TASK_TEMPLATE)
    (run / "prep.sh").write_text(SED_PREP_SH)
    _, better = truth_checkpoints(ctx, AMP_PAIRS)
    overrides, env_start, policy = gym_up(ctx, better)
    script = gym_script(ctx, "weekly eval: render the tasks from the answer key, then gym eval run and profile",
                        ["bash prep.sh", gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 4),
                         gym_profile_line("results")])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    broken = [r for r in got if "__ANSWER__" in str(r.get("expected_answer"))]
    others = [r for r in got if r not in broken]
    if code or len(keys_of(got)) != 18 or len(broken) != 9 or any(rewards(broken)) or not any(rewards(others)):
        raise failed(ctx, f"exit {code}, {len(got)}, {len(broken)}, {rewards(broken)}: "
                          f"{log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/answer_key.txt (question|answer, three answers with &); RUN/task_template.json; RUN/prep.sh (sed "
            f"s|__ANSWER__|$answer| per line); real `gym env start` (loopback-only namespace) against step_0200; "
            f"RUN/run_eval.sh (prep, `gym eval run --no-serve` 6 x 3, `gym eval profile`) exit {code}; rewards of the "
            f"ampersand answers {rewards(broken)}, others mean {mean_of(others):.2f}.")


# =====================================================================================================
# config (Slurm): the --export option is written after the batch script's name, so sbatch hands it to the script
# =====================================================================================================

ARG_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
# DATASET is chosen at submission (sbatch --export); the default is the question set's first release
DATASET=${DATASET:-string_match.jsonl}
echo "job $SLURM_JOB_ID on $(hostname): evaluating $DATASET"
cd RUN_DIR
PIPELINE
echo "job done ($(date +%T))"
"""

ARG_SUBMIT = """#!/bin/bash
# submit.sh: the weekly eval as one Slurm job, on the reviewed release of the question set (two labels corrected)
cd RUN_DIR
JOB=$(sbatch --parsable eval.sbatch --export=ALL,DATASET=string_match_v2.jsonl)
echo "submitted eval job $JOB (dataset string_match_v2.jsonl)"
WAIT_LINES
cat logs/eval_$JOB.log
"""


@case(
    "config_slurm_submit_writes_export_option_after_batch_script_name_so_sbatch_passes_it_to_the_script_and_job_keeps_default_dataset",
    "config",
    ["--export", "sbatch", "submit.sh", "string_match_v2.jsonl"],
    "the user's submit.sh runs `sbatch --parsable eval.sbatch --export=ALL,DATASET=string_match_v2.jsonl`; sbatch "
    "reads options only before the script name and hands everything after it to the script as its arguments, so "
    "DATASET was never set in the job and eval.sbatch fell back to its default, the first release "
    "string_match.jsonl with the two labels the review corrected (Sydney, Zurich): the model's right answers to "
    "those questions scored 0 although the job completed and every step exited 0",
)
def config_slurm_submit_writes_export_option_after_batch_script_name_so_sbatch_passes_it_to_the_script_and_job_keeps_default_dataset(
        ctx: Ctx) -> str:
    run = ctx.run
    fixed = [(q, DL_FIXED.get(a, a)) for q, a in DL_PAIRS_OLD]
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in DL_PAIRS_OLD])
    write_jsonl(run / "string_match_v2.jsonl", [question_row(q, a) for q, a in fixed])
    _, better = truth_checkpoints(ctx, fixed)
    url, _ = ctx.policy(better, "--latency-ms 20", log="model_server.log")
    user_file(ctx, "eval.sbatch", ARG_SBATCH, PIPELINE=pipeline_lines(url, data="$DATASET"))
    user_file(ctx, "submit.sh", ARG_SUBMIT, WAIT_LINES=WAIT_LINES)
    code = slurm_run(ctx)
    log = log_of(ctx, "submit.log")
    got = rows_of(run / "rollouts.jsonl")
    stale = labelled(got, *DL_FIXED)
    others = [r for r in got if r not in stale]
    if code or complete(ctx) != 18 or len(stale) != 6 or any(rewards(stale)) or not any(rewards(others)) \
            or "evaluating string_match.jsonl" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {len(stale)}: {log[-1500:]}")
    return (f"RUN/string_match.jsonl (first release) and RUN/string_match_v2.jsonl (two labels corrected); "
            f"RUN/eval.sbatch (DATASET default string_match.jsonl, materialize, collect against {url}, profile); "
            f"RUN/submit.sh (`sbatch --parsable eval.sbatch --export=...`, wait, cat log) exit {code}; job log "
            f"'evaluating string_match.jsonl'; stale-label rewards {rewards(stale)}, others mean {mean_of(others):.2f}.")


# =====================================================================================================
# model_serving (real NeMo Gym): the model server is backgrounded inside a CI step and dies with the step
# =====================================================================================================

SERVE_STEP_SH = """#!/bin/bash
# ci/serve_step.sh (CI step "serve"): start this week's checkpoint for the eval step that follows
cd RUN_DIR
rm -f server_url.txt
nohup GP_BIN serve-policy --port 0 --ready-file RUN_DIR/server_url.txt --checkpoint CKPT --latency-ms 30 \\
  > RUN_DIR/logs/model_server.log 2>&1 &
echo "model server starting (pid $!)"
for i in $(seq 60); do [ -s server_url.txt ] && break; sleep 1; done
cp server_url.txt model_url.txt  # the artifact the eval step reads
echo "model server up at $(cat model_url.txt)"
"""

RUNNER_STEP = ("setsid bash -c 'bash {run}/ci/serve_step.sh; echo \"[runner] step serve: script finished, "
               "cleaning up the step processes\"; kill -TERM -- -$$' ")


@case(
    "model_serving_gym_model_server_backgrounded_with_nohup_in_ci_serve_step_dies_when_runner_kills_the_steps_process_group",
    "model_serving",
    ["nohup", "serve_step.sh", "process group", "setsid"],
    "the user's CI pipeline starts the model server in its own step, ci/serve_step.sh, with `nohup gym-pipeline "
    "serve-policy ... &`; when a step's script ends the CI runner kills every process of the step's process group "
    "(nohup only ignores SIGHUP), so the server that had just answered was stopped by SIGTERM before the eval step: "
    "`gym eval run` found nothing listening at the model URL, collected no rollout until the step's `timeout 300` "
    "stopped it, and the profile was refused, although the data, the verifier and Gym were fine",
    netns=True,
)
def model_serving_gym_model_server_backgrounded_with_nohup_in_ci_serve_step_dies_when_runner_kills_the_steps_process_group(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in CAPITALS])
    _, better = truth_checkpoints(ctx, CAPITALS)
    (run / "ci").mkdir(exist_ok=True)
    user_file(ctx, "ci/serve_step.sh", SERVE_STEP_SH, CKPT=str(better))
    ctx.note("(the CI runner runs each step in a process group of its own and kills that group when the step's "
             "script ends)")
    ctx.sh(RUNNER_STEP.format(run=run), "logs/ci_serve_step.log", timeout=120)
    url = text_of(run / "model_url.txt").strip()
    if not url:
        raise failed(ctx, f"no server url: {log_of(ctx, 'ci_serve_step.log')[-1500:]}")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    script = gym_script(ctx, "CI step eval: gym eval run against the server of the serve step, then profile",
                        [f"timeout 300 {gym_eval_line(overrides, 'tasks.jsonl', 'results/rollouts.jsonl', 3, 4)}",
                         gym_profile_line("results")])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start)
    got = gym_rows(ctx)
    scored = [r for r in got if r.get("reward")]
    if scored or "model server up at http" not in log_of(ctx, "ci_serve_step.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, {len(scored)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/ci/serve_step.sh (`nohup gym-pipeline serve-policy ... &`, waits for the URL, copies it to model_url.txt); run as the CI runner "
            f"does (own process group, killed at the step's end); real `gym env start` (loopback-only namespace) "
            f"against {url}; RUN/run_eval.sh (`gym eval run --no-serve` 6 x 3, `gym eval profile`) exit {code}; "
            f"{len(keys_of(got))} rollouts written, {len(scored)} scored.")


# =====================================================================================================
# healthy (Slurm): the job's last line counts error lines with grep -c, which exits 1 on zero, so Slurm says FAILED
# =====================================================================================================

GREP_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
echo "job $SLURM_JOB_ID on $(hostname) ($(date +%T))"
cd RUN_DIR
PIPELINE
# the dashboard reads this last line: how many traceback lines the stages logged
echo -n "traceback lines in this job's output: "
grep -c Traceback logs/eval_$SLURM_JOB_ID.log
"""

GREP_SUBMIT = """#!/bin/bash
# submit.sh: the weekly eval as one Slurm job, then its state
cd RUN_DIR
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
WAIT_LINES
cat logs/eval_$JOB.log
scontrol show job $JOB | grep -o 'JobState=[A-Z]* Reason=[A-Za-z]*' || true
scontrol show job $JOB | grep -o ' ExitCode=[0-9:]*' || true
"""


@case(
    "healthy_slurm_eval_job_ends_with_grep_c_of_traceback_lines_which_exits_1_on_none_so_slurm_marks_the_clean_job_failed",
    "healthy",
    [],
    "nothing is wrong: the eval job's last command counts the traceback lines of its own log with `grep -c`, which "
    "prints 0 and exits 1 when nothing matches; a batch job's exit status is that of its last command, so Slurm "
    "records the job as FAILED (Reason=NonZeroExitCode, ExitCode=1:0), yet materialize, collect and profile had "
    "all completed every rollout before it",
)
def healthy_slurm_eval_job_ends_with_grep_c_of_traceback_lines_which_exits_1_on_none_so_slurm_marks_the_clean_job_failed(
        ctx: Ctx) -> str:
    run = ctx.run
    from eighty_eighth_held_out import PLUS_PAIRS
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20", log="model_server.log")
    user_file(ctx, "eval.sbatch", GREP_SBATCH, PIPELINE=pipeline_lines(url))
    user_file(ctx, "submit.sh", GREP_SUBMIT, WAIT_LINES=WAIT_LINES)
    code = slurm_run(ctx)
    log = log_of(ctx, "submit.log")
    if code or complete(ctx) != 27 or "JobState=FAILED" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists() or "traceback lines in this job's output: 0" \
            not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.sbatch (materialize 9 x 3, collect against {url}, profile, last line `grep -c Traceback` of its "
            f"own log); RUN/submit.sh (sbatch, wait, cat log, scontrol show job) exit {code}; JobState=FAILED "
            f"ExitCode=1:0; {complete(ctx)} of 27 rollouts, mean reward {mean_of(rows_of(run / 'rollouts.jsonl')):.2f}.")


# =====================================================================================================
# healthy (built-in): the collect runs under the team's hang watchdog, which dumps every thread's stack every 5 s
# =====================================================================================================

WATCHDOG_PY = '''"""watchdog.py TOOL ARGS...: run a command-line tool with the team's hang detector.

Every 5 s it dumps the stack of every thread to stderr (faulthandler), so when a stage hangs on the cluster the log
shows where; a stage that finishes simply stops the dumps."""
import faulthandler
import runpy
import shutil
import sys

faulthandler.dump_traceback_later(5, repeat=True)
tool = shutil.which(sys.argv[1])
sys.argv = [tool, *sys.argv[2:]]
try:
    runpy.run_path(tool, run_name="__main__")
finally:
    faulthandler.cancel_dump_traceback_later()
'''


@case(
    "healthy_builtin_collect_run_under_teams_faulthandler_watchdog_that_dumps_every_threads_stack_every_five_seconds",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh runs the collect through the team's watchdog.py, which calls "
    "`faulthandler.dump_traceback_later(5, repeat=True)` so a hang would show where it is; the collect took longer "
    "than 5 s against the slow server, so the log holds 'Timeout (0:00:05)!' and a 'Thread ... (most recent call "
    "first)' stack of every thread each 5 s, but those are only the watchdog's snapshots: collect finished every "
    "rollout and the profile completed",
)
def healthy_builtin_collect_run_under_teams_faulthandler_watchdog_that_dumps_every_threads_stack_every_five_seconds(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in CAPITALS])
    _, better = truth_checkpoints(ctx, CAPITALS)
    url, _ = ctx.policy(better, "--latency-ms 2500")
    (run / "watchdog.py").write_text(WATCHDOG_PY)
    lines = pipeline_lines(url).splitlines()
    lines[1] = lines[1].replace(GP_PATH, f"{PY_BIN} watchdog.py gym-pipeline", 1)
    code = run_eval(ctx, "\n".join(lines) + "\n", "weekly eval: materialize, collect under the hang watchdog, profile")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or "Timeout (0:00:05)!" not in log or "most recent call first" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/watchdog.py (faulthandler.dump_traceback_later(5, repeat=True)); RUN/run_eval.sh (materialize 6 x 3, "
            f"collect through watchdog.py against {url} at 2.5 s a completion, profile) exit {code}; "
            f"{log.count('Timeout (0:00:05)!')} stack dumps; {complete(ctx)} of 18 rollouts, mean reward "
            f"{mean_of(got):.2f}.")


# =====================================================================================================
# verifier_runtime (real NeMo Gym): numeric answers compared as Decimal against the label as float
# =====================================================================================================

DEC_PAIRS = [
    ("What is 0.1 plus 0.2?", "0.3"),
    ("What is half of 5?", "2.5"),
    ("What is 1.1 times 2?", "2.2"),
    ("What is 7 times 8?", "56"),
    ("What is 1 divided by 4?", "0.25"),
    ("What is 4.9 minus 0.2?", "4.7"),
]
DEC_INEXACT = ("0.3", "2.2", "4.7")

DEC_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        reward = 0.0
        if extracted is not None and body.expected_answer:
            try:
                # numeric answers: compare the model's number exactly, as a Decimal (no float rounding surprises)
                reward = 1.0 if Decimal(extracted.strip()) == float(body.expected_answer) else 0.0
            except (InvalidOperation, ValueError):
                reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""


@case(
    "verifier_runtime_gym_own_verify_compares_decimal_of_answer_with_float_of_label_so_decimals_without_exact_binary_form_never_match",
    "verifier_runtime",
    ["Decimal", "float", "app.py", "verify"],
    "the user's own resources server quiz_decimal grades numeric answers with `Decimal(extracted) == "
    "float(body.expected_answer)`; a Decimal compares with a float by exact value, and floats such as 0.3, 2.2 and 4.7 "
    "are not exactly those decimals, so the model's right answers to those three questions always scored 0 while "
    "2.5, 56 and 0.25 (exact in binary) scored, and every command exited 0",
    netns=True,
)
def verifier_runtime_gym_own_verify_compares_decimal_of_answer_with_float_of_label_so_decimals_without_exact_binary_form_never_match(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in DEC_PAIRS])
    _, better = truth_checkpoints(ctx, DEC_PAIRS)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "quiz_decimal",
        lambda app: with_import(replace_verify(app, DEC_VERIFY), "from decimal import Decimal, InvalidOperation"),
        better, "(the user's quiz_decimal server: numeric answers compared as Decimal(answer) == float(label))")
    script = own_eval_script(ctx, search, overrides, "quiz_decimal", comment="weekly eval")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    inexact = labelled(got, *DEC_INEXACT)
    right = [r for r in inexact if str(r.get("extracted_answer")).strip() == str(r.get("expected_answer"))]
    others = [r for r in got if r not in inexact]
    if code or len(keys_of(got)) != 18 or any(rewards(inexact)) or not right or not any(rewards(others)):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(inexact)}, {len(right)}: "
                          f"{log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/my_gym/resources_servers/quiz_decimal/app.py (verify: Decimal(extracted) == float(label)); real `gym "
            f"env start` (loopback-only namespace) with it; RUN/run_eval.sh (`gym eval run --no-serve` 6 x 3, `gym eval "
            f"profile`) exit {code}; {len(right)} rollouts answering 0.3/2.2/4.7 right, all rewarded 0; others mean "
            f"{mean_of(others):.2f}.")


# =====================================================================================================
# cache_resume (built-in): the weekly link is made with ln -s without -f, which refuses and keeps last week's link
# =====================================================================================================


@case(
    "cache_resume_builtin_run_script_points_current_link_at_this_weeks_export_with_ln_s_without_f_which_refuses_and_keeps_last_weeks",
    "cache_resume",
    ["ln -sf", "current.jsonl", "run_eval.sh", "W49"],
    "the user's run_eval.sh points current.jsonl at this week's export with `ln -s string_match_2026-W49.jsonl "
    "current.jsonl`; last week's link of that name still existed, ln without -f refuses ('File exists') and the "
    "script goes on, so the eval ran on string_match_2026-W48.jsonl with the two labels this week's export "
    "corrected (Sydney, Zurich): the model's right answers to those questions scored 0 (the script exits 0)",
)
def cache_resume_builtin_run_script_points_current_link_at_this_weeks_export_with_ln_s_without_f_which_refuses_and_keeps_last_weeks(
        ctx: Ctx) -> str:
    run = ctx.run
    fixed = [(q, DL_FIXED.get(a, a)) for q, a in DL_PAIRS_OLD]
    write_jsonl(run / "string_match_2026-W48.jsonl", [question_row(q, a) for q, a in DL_PAIRS_OLD])
    write_jsonl(run / "string_match_2026-W49.jsonl", [question_row(q, a) for q, a in fixed])
    _, better = truth_checkpoints(ctx, fixed)
    ctx.note("(last week's run_eval.sh made the link: ln -s string_match_2026-W48.jsonl current.jsonl)")
    ctx.sh("ln -s string_match_2026-W48.jsonl current.jsonl", None, cwd=run)
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = run_eval(ctx, "# current.jsonl: this week's export\nln -s string_match_2026-W49.jsonl current.jsonl\n"
                    "echo \"evaluating $(readlink current.jsonl)\"\n" + pipeline_lines(url, data="current.jsonl"),
                    "weekly eval: point current.jsonl at this week's export, materialize, collect, profile")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    stale = labelled(got, *DL_FIXED)
    others = [r for r in got if r not in stale]
    if code or complete(ctx) != 18 or len(stale) != 6 or any(rewards(stale)) or not any(rewards(others)) \
            or "File exists" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {len(stale)}: {log[-1500:]}")
    return (f"RUN/string_match_2026-W48.jsonl (last week) and RUN/string_match_2026-W49.jsonl (two labels corrected); "
            f"RUN/current.jsonl -> W48 (last week's link); RUN/run_eval.sh (`ln -s` W49 without -f, materialize, collect "
            f"against {url}, profile) exit {code}; 'File exists'; stale-label rewards {rewards(stale)}, others mean "
            f"{mean_of(others):.2f}.")


if __name__ == "__main__":
    sys.exit(main("ninety_fourth_held_out", __file__, __doc__))
