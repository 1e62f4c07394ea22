"""Build the SEVENTY-FOURTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/seventy_fourth_held_out.py --out tests/data/diagnosis_corpus/seventy_fourth_held_out [--only CASE ...]

This set was written after the seventy-three earlier sets (first_held_out.py ... seventy_third_held_out.py), from the
guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`), the real NeMo
Gym 0.7.0 in a loopback-only network namespace (with a user's own resources servers, data and settings), Slurm batch
jobs, job steps and job dependencies on the single-node cluster, and the user's own shell and Python tooling, sbatch
scripts, submit wrappers, serving scripts, data-preparation scripts and verifiers. The output of every command is
captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own
inputs (data, scripts, settings, verifier code). Each case injects one cause, different in mechanism from those of the
seventy-three earlier sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and
the case is not written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare),
Slurm (SLURM_CONF), NeMo Gym 0.7.0 (GYM_PIPELINE_NEMO_GYM), and PYTHONPATH set to this checkout. Run it from a
foreground shell. It makes no Docker containers (a Docker object would be named `h74-...`).
"""
from __future__ import annotations

import json
import shutil
import socket
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import checkpoints, failed, stop_gym  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_first_held_out import keys_of  # noqa: E402
from fifty_ninth_held_out import gym_own_server, own_eval_script, sbatch_file  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from recipes import (  # noqa: E402
    PY,
    Ctx,
    case,
    main,
    replace_verify,
    rows_of,  # noqa: E402
)
from seventy_third_held_out import run_eval  # noqa: E402
from sixty_eighth_held_out import SUBMIT, run_submit  # noqa: E402
from sixty_fourth_held_out import pipeline_lines  # noqa: E402
from sixty_third_held_out import gym_script, gym_up, mean_of, scancel_named  # noqa: E402
from thirtieth_held_out import gym_rows  # noqa: E402
from thirty_fifth_held_out import pipeline  # noqa: E402
from twenty_fifth_held_out import job_logs  # noqa: E402
from twenty_fourth_held_out import gym_eval_line, gym_profile_line  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_sixth_held_out import slurm_script  # noqa: E402
from twenty_third_held_out import write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def profile_rows(ctx: Ctx, folder: str = "results") -> list[dict]:
    return rows_of(next(iter((ctx.run / folder).glob("*reward_profiling*.jsonl")), ctx.run / "none"))


def eval_sbatch(comment: str, time_limit: str = "10", extra: str = "") -> str:
    return ("#!/bin/bash\n#SBATCH --job-name=weekly-eval\n#SBATCH --output=RUN_DIR/logs/eval_%j.log\n"
            f"#SBATCH --time={time_limit}\n#SBATCH --ntasks=1\n{extra}# {comment}\ncd RUN_DIR\nbash steps.sh\n")


def write_steps(ctx: Ctx, body: str, comment: str = "the weekly eval's steps") -> Path:
    path = ctx.run / "steps.sh"
    path.write_text(f"#!/bin/bash\n# {comment}\n{body}")
    return path


def right_but_zero(rows: list[dict]) -> list[dict]:
    """Rollouts whose extracted answer is the label but that scored 0 (none in a healthy run)."""
    return [r for r in rows if not r.get("reward") and str(r.get("extracted_answer")) == str(r.get("expected_answer"))]


def port_is_free(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) != 0


def own_server_eval(ctx: Ctx, search: Path, overrides: str, name: str, comment: str) -> int:
    script = own_eval_script(ctx, search, overrides, name, comment=comment)
    return ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)


# =====================================================================================================
# healthy
# =====================================================================================================

WARMUP_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
# the team's template: a warm-up step reads the checkpoint once (page cache), then the eval step
cd RUN_DIR
srun --ntasks=1 bash -c 'echo "warm-up: reading CKPT"; find CKPT -type f -exec cat {} + > /dev/null; sleep 8; echo "warm-up done"' &
srun --ntasks=1 bash steps.sh
wait
"""


@case(
    "healthy_slurm_eval_step_waits_behind_short_warmup_step_with_step_creation_temporarily_disabled",
    "healthy",
    [],
    "nothing is wrong: the team's eval.sbatch (one task) starts a short warm-up job step in the background and then "
    "the eval step; the one core is taken by whichever step came first, so srun prints 'step creation temporarily "
    "disabled, retrying (Requested nodes are busy)' and the other step waits a few seconds, then 'Step created'; the "
    "eval step ran to the end and every rollout was collected and profiled",
)
def healthy_slurm_eval_step_waits_behind_short_warmup_step_with_step_creation_temporarily_disabled(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=40, folder=run, name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20")
    write_steps(ctx, f"echo \"weekly eval against $MODEL_URL\"\n{pipeline('$MODEL_URL')}")
    sbatch_file(ctx, WARMUP_SBATCH, CKPT=str(better))
    code = run_submit(ctx, SUBMIT, env={**ctx.env, "MODEL_URL": url})
    job = job_logs(ctx, "eval_*.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or "step creation temporarily disabled" not in job or len(keys_of(got)) != 24 \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)}: {job[-1500:]}")
    return (f"RUN/eval.sbatch (`--ntasks=1`; `srun` warm-up step in the background, then `srun bash steps.sh`: "
            f"materialize 8 x 3, collect, profile) submitted by RUN/submit.sh exit {code}; srun's 'step creation "
            f"temporarily disabled' in the job log; {len(keys_of(got))} of 24 rollouts, mean reward {mean_of(got):.2f}.")


HTTP_QUIZ = [
    ("What HTTP status code means Not Found?", "404"),
    ("What is the name of HTTP status code 500?", "Internal Server Error"),
    ("Which Python exception does dividing by zero raise?", "ZeroDivisionError"),
    ("Which Python exception does looking up a missing dictionary key raise?", "KeyError"),
    ("What is the name of HTTP status code 503?", "Service Unavailable"),
    ("What is the name of HTTP status code 504?", "Gateway Timeout"),
    ("What is the name of HTTP status code 429?", "Too Many Requests"),
    ("Which signal number is SIGKILL on Linux?", "9"),
]


@case(
    "healthy_builtin_quiz_about_http_errors_whose_right_answers_read_like_server_failures",
    "healthy",
    [],
    "nothing is wrong: this week's quiz is about error codes (HTTP status codes, Python exceptions, signals), so the "
    "labels and the model's right answers are 'Internal Server Error', 'Service Unavailable', 'Gateway Timeout', "
    "'Too Many Requests', 'ZeroDivisionError', 'KeyError' and '9' (SIGKILL), which read like failures of the run "
    "itself; they are answers: every rollout was collected, scored and profiled",
)
def healthy_builtin_quiz_about_http_errors_whose_right_answers_read_like_server_failures(ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, HTTP_QUIZ)
    url, _ = ctx.policy(better, "--latency-ms 20")
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in HTTP_QUIZ])
    code = run_eval(ctx, pipeline_lines(url), "weekly eval of the error-codes quiz")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 24 or 1.0 not in rewards(got) or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {rewards(got)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/string_match.jsonl (8 questions about error codes); RUN/run_eval.sh (materialize 8 x 3, collect, "
            f"profile) exit {code}; {complete(ctx)} of 24 rollouts, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

ARTICLES = [
    ("What is the longest river in South America?", "Amazon"),
    ("Which continent is the coldest?", "Antarctica"),
    ("What is the capital of Greece?", "Athens"),
    ("Which instrument measures temperature?", "Thermometer"),
    ("What is the capital of Australia?", "Canberra"),
    ("Which element has the chemical symbol Fe?", "Iron"),
    ("Which planet is known as the Red Planet?", "Mars"),
    ("What is 9 multiplied by 7?", "63"),
]

ARTICLE_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        if extracted is not None:
            # models often answer "the Amazon" where our labels say "Amazon": drop a leading article first
            extracted = LEADING_ARTICLE.sub("", extracted).strip()

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


def article_app(app: str) -> str:
    app = replace_verify(app, ARTICLE_VERIFY)
    return app.replace("\ndef _extract_last_assistant_text",
                       '\nLEADING_ARTICLE = re.compile(r"^(the|an|a)\\s*", re.IGNORECASE)\n\n\n'
                       "def _extract_last_assistant_text", 1)


@case(
    "verifier_runtime_gym_own_verify_strips_leading_article_without_word_boundary_so_answers_starting_with_a_or_the_lose_letters",
    "verifier_runtime",
    ["LEADING_ARTICLE", "\\b", "verify", "app.py"],
    "the user's own resources server (qa_match) drops a leading article from the model's answer before comparing, "
    "with the pattern `^(the|an|a)\\s*` that has no word boundary after the article; it also cuts the first letters "
    "of answers that merely begin with 'a', 'an' or 'the': 'Amazon' became 'mazon', 'Antarctica' 'tarctica', "
    "'Athens' 'thens', 'Thermometer' 'rmometer', so every rollout of those tasks scored 0 although the model answered "
    "them right (every command exits 0)",
    netns=True,
)
def verifier_runtime_gym_own_verify_strips_leading_article_without_word_boundary_so_answers_starting_with_a_or_the_lose_letters(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in ARTICLES])
    _, better = truth_checkpoints(ctx, ARTICLES)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "qa_match", article_app, better, "(qa_match: Gym's string_match that drops a leading article first)")
    code = own_server_eval(ctx, search, overrides, "qa_match", "weekly eval")
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    cut = [r for r in got if str(r.get("expected_answer", ""))[:1] in "AT"]
    others = [r for r in got if r not in cut]
    if code or len(keys_of(got)) != 24 or len(cut) != 12 or any(rewards(cut)) or not any(rewards(others)):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(cut)}, {mean_of(others)}: "
                          f"{log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/tasks.jsonl (8 tasks, four answers beginning with A or The); RUN/my_gym/resources_servers/qa_match/"
            f"app.py (verify: `^(the|an|a)\\s*` removed from the answer); real `gym env start` against step_0200; "
            f"RUN/run_eval.sh (`gym eval run` 8 x 3, `gym eval profile`) exit {code}; rewards of those four tasks "
            f"{rewards(cut)}, mean of the others {mean_of(others):.2f}.")


# =====================================================================================================
# data_schema
# =====================================================================================================

PENDING_PREP_PY = '''"""prep.py: questions.csv (the review tool's export: question,answer,status) -> string_match.jsonl."""
import csv
import json
import sys

rows = []
with open("questions.csv", newline="", encoding="utf-8") as sheet:
    for number, row in enumerate(csv.DictReader(sheet), 2):
        answer = row["answer"].strip()
        if not answer:
            sys.exit(f"prep: questions.csv line {number}: no answer for {row['question']!r} (status {row['status']})")
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                            "content": [{"type": "input_text", "text": text}]}]},
                     "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False})
with open("string_match.jsonl", "w") as out:
    out.writelines(json.dumps(row) + "\\n" for row in rows)
print(f"prep: {len(rows)} tasks written")
'''

PREP_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-prep
#SBATCH --output=RUN_DIR/logs/prep_%j.log
#SBATCH --time=5
#SBATCH --ntasks=1
# weekly prep: this week's export -> string_match.jsonl
cd RUN_DIR
PY_BIN prep.py
"""

AFTEROK_SUBMIT = """#!/bin/bash
# submit.sh (the CI step): prep, then the eval once prep has succeeded; the step gives up after a minute
cd RUN_DIR
PREP=$(sbatch --parsable prep.sbatch)
echo $PREP >> job_ids.txt
JOB=$(sbatch --parsable --dependency=afterok:$PREP eval.sbatch)
echo $JOB >> job_ids.txt
echo "prep job $PREP, eval job $JOB (--dependency=afterok:$PREP)"
for i in $(seq 12); do
  squeue -h -j $JOB 2>/dev/null | grep -q . || break
  squeue -h -j $PREP,$JOB -o '%i %j %T %r' 2>/dev/null
  sleep 5
done
squeue -h -j $JOB -o '%i %j %T %r' 2>/dev/null
ls -l rollouts.jsonl rollouts_reward_profiling.jsonl 2>&1
echo "CI step over"
"""


@case(
    "data_schema_slurm_review_export_has_unanswered_rows_so_prep_job_fails_and_afterok_eval_never_runs",
    "data_schema",
    ["questions.csv", "answer", "pending", "prep"],
    "this week's questions.csv export from the review tool still holds two questions whose answer cell is empty "
    "(status 'pending review'); the user's prep.py refuses a row without an answer, so the prep job failed (exit 1) "
    "and the eval job, chained with --dependency=afterok, sat pending with reason DependencyNeverSatisfied until the "
    "CI step gave up: no rollouts were collected and nothing was profiled",
)
def data_schema_slurm_review_export_has_unanswered_rows_so_prep_job_fails_and_afterok_eval_never_runs(ctx: Ctx) -> str:
    import csv

    run = ctx.run
    data = ctx.dataset("string_match", 10, start=60, name="truth.jsonl")
    truth = rows_of(data)
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20")
    with (run / "questions.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["question", "answer", "status"])
        for index, row in enumerate(truth):
            question = row["responses_create_params"]["input"][0]["content"][0]["text"]
            question = question.replace(" End your response with 'Final answer: <answer>'.", "")
            pending = index in (3, 7)
            writer.writerow([question, "" if pending else row["expected_answer"],
                             "pending review" if pending else "reviewed"])
    (run / "prep.py").write_text(PENDING_PREP_PY)
    (run / "logs").mkdir(exist_ok=True)
    (run / "prep.sbatch").write_text(slurm_script(PREP_SBATCH, ctx, PY_BIN=str(PY)))
    write_steps(ctx, f"echo \"weekly eval against $MODEL_URL\"\n{pipeline('$MODEL_URL')}")
    sbatch_file(ctx, eval_sbatch("the weekly eval of the prepared split"))
    code = run_submit(ctx, AFTEROK_SUBMIT, env={**ctx.env, "MODEL_URL": url})
    prep = job_logs(ctx, "prep_*.log")
    log = log_of(ctx, "submit.log")
    if "no answer for" not in prep or "DependencyNeverSatisfied" not in log or (run / "rollouts.jsonl").exists():
        raise failed(ctx, f"exit {code}: {prep[-800:]} {log[-1200:]}")
    return (f"RUN/questions.csv (10 questions, two with an empty answer, status 'pending review'); RUN/prep.py; "
            f"RUN/submit.sh (`sbatch prep.sbatch`, `sbatch --dependency=afterok:PREP eval.sbatch`, waits a minute) exit "
            f"{code}; the prep job exited 1, the eval job stayed PENDING (DependencyNeverSatisfied); no rollouts.")


# =====================================================================================================
# config
# =====================================================================================================

SHARD_SUBMIT = """#!/bin/bash
# submit.sh: cut this week's split into two shards and evaluate them side by side (a job array of two)
cd RUN_DIR
mkdir -p shards out
SPLIT_LINE
ls -l shards/
JOB=$(sbatch --parsable --array=0-1 shard.sbatch)
echo "submitted array job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do squeue -h -j $JOB -o '%i %j %T %M %r' 2>/dev/null; sleep 5; done
echo "array job $JOB finished"
for f in out/*/rollouts.jsonl; do [ -f "$f" ] && echo "$f: $(wc -l < $f) rollouts"; done
"""

SHARD_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-shard
#SBATCH --output=RUN_DIR/logs/shard_%A_%a.log
#SBATCH --time=10
#SBATCH --ntasks=1
# one shard of the weekly eval (array task N evaluates shards/shard_N)
cd RUN_DIR
SHARD_LINE
echo "array task $SLURM_ARRAY_TASK_ID: $SHARD against $MODEL_URL"
mkdir -p out/$(basename $SHARD) && cd out/$(basename $SHARD)
GP_BIN materialize --input RUN_DIR/$SHARD --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $MODEL_URL \\
  --env string_match --concurrency 4
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


def shard_run(ctx: Ctx, split_line: str, shard_line: str, rows: int, start: int) -> tuple[int, str, list[dict]]:
    """RUN/string_match.jsonl cut by `split_line` in RUN/submit.sh, evaluated by the array RUN/shard.sbatch."""
    run = ctx.run
    data = ctx.dataset("string_match", rows, start=start, folder=run, name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "logs").mkdir(exist_ok=True)
    (run / "shard.sbatch").write_text(slurm_script(SHARD_SBATCH, ctx, SHARD_LINE=shard_line))
    code = run_submit(ctx, SHARD_SUBMIT, env={**ctx.env, "MODEL_URL": url}, SPLIT_LINE=split_line)
    got = [row for path in sorted(run.glob("out/*/rollouts.jsonl")) for row in rows_of(path)]
    return code, job_logs(ctx, "shard_*.log"), got


@case(
    "config_slurm_shard_array_names_its_shard_with_two_digit_printf_while_split_wrote_three_digit_suffixes",
    "config",
    ["printf", "%03d", "split -a", "shard.sbatch"],
    "the user's submit.sh cuts the split with `split -l 10 -d -a 3` (shard_000, shard_001) and starts a job array of "
    "two, but shard.sbatch builds its shard's name with `printf 'shards/shard_%02d'` (shard_00, shard_01): neither "
    "array task found its file, materialize failed in both, and nothing was collected or profiled",
)
def config_slurm_shard_array_names_its_shard_with_two_digit_printf_while_split_wrote_three_digit_suffixes(
        ctx: Ctx) -> str:
    code, logs, got = shard_run(ctx, "split -l 10 -d -a 3 string_match.jsonl shards/shard_",
                                "printf -v SHARD 'shards/shard_%02d' $SLURM_ARRAY_TASK_ID", 20, 30)
    if got or "shards/shard_00 " not in logs or "shards/shard_01 " not in logs \
            or not (ctx.run / "shards" / "shard_000").exists():
        raise failed(ctx, f"exit {code}, {len(got)}: {logs[-1500:]}")
    return (f"RUN/submit.sh (`split -l 10 -d -a 3` into shards/shard_000, shard_001; `sbatch --array=0-1 shard.sbatch`) "
            f"exit {code}; RUN/shard.sbatch (`printf -v SHARD 'shards/shard_%02d'`, materialize, collect, profile): "
            f"both array tasks looked for shard_00 / shard_01; {len(got)} rollouts.")


@case(
    "data_schema_slurm_shards_cut_with_split_n_by_bytes_so_the_row_at_the_boundary_is_broken_in_two",
    "data_schema",
    ["split -n", "l/2", "lines", "shard"],
    "the user's submit.sh cuts the split into two shards with `split -n 2`, which cuts by size in bytes, not by "
    "lines: the row at the middle was cut in two, so shard_000 ends with half a JSON row and shard_001 starts with "
    "the other half; materialize refused both shard files as not valid JSON (shard_000 line 10, shard_001 line 1), "
    "so neither array task collected anything (`split -n l/2` keeps whole lines)",
)
def data_schema_slurm_shards_cut_with_split_n_by_bytes_so_the_row_at_the_boundary_is_broken_in_two(ctx: Ctx) -> str:
    code, logs, got = shard_run(ctx, "split -n 2 -d -a 3 string_match.jsonl shards/shard_",
                                "SHARD=shards/shard_$(printf %03d $SLURM_ARRAY_TASK_ID)", 20, 50)
    first = (ctx.run / "shards" / "shard_000").read_text()
    if first.endswith("\n") or len(keys_of(got)) >= 60:
        raise failed(ctx, f"exit {code}, {len(got)}, {first[-80:]!r}: {logs[-1500:]}")
    return (f"RUN/submit.sh (`split -n 2 -d -a 3` into shards/shard_000, shard_001, the middle row cut in two; `sbatch "
            f"--array=0-1 shard.sbatch`) exit {code}; RUN/shard.sbatch (materialize, collect, profile per shard); "
            f"{len(got)} rollouts of the split's 60.")


TEMPLATE_PREP_PY = '''"""prep.py: qa.csv (question,answer) -> tasks.jsonl, every row built from our row template."""
import csv
import json

TEMPLATE = {
    "responses_create_params": {"input": [{"role": "user", "type": "message",
                                           "content": [{"type": "input_text", "text": ""}]}]},
    "expected_answer": "", "extraction_mode": "final_answer", "case_sensitive": False,
}

rows = []
with open("qa.csv", newline="", encoding="utf-8") as sheet:
    for item in csv.DictReader(sheet):
        row = TEMPLATE.copy()
        row["responses_create_params"]["input"][0]["content"][0]["text"] = (
            f"{item['question']} End your response with 'Final answer: <answer>'.")
        row["expected_answer"] = item["answer"]
        rows.append(row)

with open("tasks.jsonl", "w") as out:
    out.writelines(json.dumps(row) + "\\n" for row in rows)
print(f"prep: {len(rows)} tasks written to tasks.jsonl")
'''


@case(
    "data_schema_gym_prep_builds_rows_from_shallow_copy_of_row_template_so_every_task_carries_the_last_question",
    "data_schema",
    ["copy", "deepcopy", "prep.py", "question"],
    "the user's prep.py builds every task from a row template with `TEMPLATE.copy()`, a shallow copy: the nested "
    "responses_create_params (the prompt) is the same object in every row, so setting the question overwrote it for "
    "all rows and tasks.jsonl holds the LAST question ('What is the capital of Canada?') eight times, each with its own "
    "label; the model answered Ottawa everywhere and every task but the last scored 0 (every command exits 0)",
    netns=True,
)
def data_schema_gym_prep_builds_rows_from_shallow_copy_of_row_template_so_every_task_carries_the_last_question(
        ctx: Ctx) -> str:
    import csv

    from seventy_second_held_out import QA

    run = ctx.run
    with (run / "qa.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["question", "answer"])
        writer.writerows(QA)
    (run / "prep.py").write_text(TEMPLATE_PREP_PY)
    _, better = truth_checkpoints(ctx, QA)
    overrides, env_start, policy = gym_up(ctx, better)
    script = gym_script(ctx, "weekly eval of the reviewed sheet",
                        [f"{recipes.PY} prep.py",
                         gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 4),
                         gym_profile_line("results")])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    tasks = rows_of(run / "tasks.jsonl")
    prompts = {json.dumps(r["responses_create_params"]) for r in tasks}
    others = [r for r in got if r.get("expected_answer") != "Ottawa"]
    if code or len(keys_of(got)) != 24 or len(prompts) != 1 or "Canada" not in prompts.pop() or any(rewards(others)):
        raise failed(ctx, f"exit {code}, {len(got)}, {len(prompts)}, {rewards(others)}: "
                          f"{log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/qa.csv (8 questions); RUN/prep.py (`TEMPLATE.copy()`, nested prompt shared) wrote 8 tasks with one "
            f"and the same prompt; real `gym env start` against step_0200; RUN/run_eval.sh (prep, `gym eval run` 8 x 3, "
            f"`gym eval profile`) exit {code}; rewards of the seven tasks whose label is not Ottawa {rewards(others)}, "
            f"mean {mean_of(got):.2f}.")


# =====================================================================================================
# healthy (Slurm, job output discarded)
# =====================================================================================================

DEVNULL_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=/dev/null
#SBATCH --time=10
#SBATCH --ntasks=1
# the job's own output is only noise to us: every step tees its log into logs/
cd RUN_DIR
bash steps.sh
"""

TEE_STEPS = """#!/bin/bash
# the weekly eval's steps, each with its own log
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl 2>&1 | tee logs/materialize.log
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $MODEL_URL \\
  --env string_match --concurrency 4 2>&1 | tee logs/collect.log
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl 2>&1 | tee logs/profile.log
"""


@case(
    "healthy_slurm_eval_job_output_sent_to_dev_null_while_each_step_tees_its_own_log",
    "healthy",
    [],
    "nothing is wrong: the user's eval.sbatch sends the job's own output to /dev/null (#SBATCH --output=/dev/null) "
    "because every step tees its log into logs/ (materialize.log, collect.log, profile.log); there is no job log at "
    "all, which looks like a job that never ran or lost its output, but the steps' logs and the results show every "
    "rollout collected and profiled",
)
def healthy_slurm_eval_job_output_sent_to_dev_null_while_each_step_tees_its_own_log(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=64, folder=run, name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "steps.sh").write_text(slurm_script(TEE_STEPS, ctx))
    sbatch_file(ctx, DEVNULL_SBATCH)
    code = run_submit(ctx, SUBMIT, env={**ctx.env, "MODEL_URL": url})
    got = rows_of(run / "rollouts.jsonl")
    if code or list((run / "logs").glob("eval_*")) or not (run / "logs" / "collect.log").exists() \
            or len(keys_of(got)) != 24 or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)}: {log_of(ctx, 'submit.log')[-800:]}")
    return (f"RUN/eval.sbatch (`--output=/dev/null`; RUN/steps.sh tees materialize, collect, profile into logs/) "
            f"submitted by RUN/submit.sh exit {code}; no job log; {len(keys_of(got))} of 24 rollouts, mean reward "
            f"{mean_of(got):.2f}.")


# =====================================================================================================
# model_serving
# =====================================================================================================

LAYOUT_SERVE = """#!/bin/bash
# serve.sh URL_FILE: serve the latest checkpoint of the training run
cd RUN_DIR
CKPT=$(ls -d checkpoints/*/ | sort | tail -1)
echo "serving $CKPT"
exec GP_BIN serve-policy --port 0 --ready-file "$1" --checkpoint "$CKPT" --latency-ms 20
"""


@case(
    "model_serving_builtin_serve_script_checkpoint_glob_one_level_too_shallow_after_trainer_nests_steps_in_run_folder",
    "model_serving",
    ["serve.sh", "checkpoints/*/", "step_", "config.json"],
    "the trainer now writes its steps one level deeper (checkpoints/<run>/step_0100, step_0200), but the user's "
    "serve.sh still picks 'the latest checkpoint' with `ls -d checkpoints/*/ | tail -1`, which is now the run's "
    "folder, not a step: serve-policy refused it (config.json missing) and exited, run_eval.sh's readiness wait ran "
    "out, and collect found no model server (connection refused): nothing was collected",
)
def model_serving_builtin_serve_script_checkpoint_glob_one_level_too_shallow_after_trainer_nests_steps_in_run_folder(
        ctx: Ctx) -> str:
    from seventy_second_held_out import QA

    run = ctx.run
    if not port_is_free(8000):
        raise recipes.RecipeError("something listens on 127.0.0.1:8000 here: the fallback would not be refused")
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in QA])
    for step in truth_checkpoints(ctx, QA):
        shutil.copytree(step, run / "checkpoints" / "sft-run-1201" / step.name)
    (run / "serve.sh").write_text(slurm_script(LAYOUT_SERVE, ctx))
    body = ("rm -f server.url\nbash serve.sh server.url > logs/model_server.log 2>&1 &\n"
            "for i in $(seq 15); do [ -s server.url ] && break; sleep 1; done\n"
            "URL=$(cat server.url 2>/dev/null || echo http://127.0.0.1:8000/v1)\n"
            "echo \"model server: $URL\"\ncat logs/model_server.log\n" + pipeline_lines("$URL"))
    (run / "logs").mkdir(exist_ok=True)
    code = run_eval(ctx, body, "weekly eval against the latest checkpoint (serve.sh)")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if "config.json" not in log or "serving checkpoints/sft-run-1201/" not in log or any(r.get("reward") for r in got):
        raise failed(ctx, f"exit {code}, {len(got)}: {log[-1500:]}")
    return (f"RUN/checkpoints/sft-run-1201/step_0100, step_0200 (the trainer's new layout); RUN/serve.sh (`ls -d "
            f"checkpoints/*/ | tail -1`) handed serve-policy the run folder; RUN/run_eval.sh (serve.sh &, 15 s wait, "
            f"materialize 8 x 3, collect, profile) exit {code}; {len(got)} rollouts with a reward.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================


SALLOC_SUBMIT = """#!/bin/bash
# submit.sh (the CI step): the weekly eval on both cores of the node; the step gives up after 75 s
cd RUN_DIR
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
for i in $(seq 15); do
  squeue -h -j $JOB 2>/dev/null | grep -q . || break
  squeue -h -o '%i %j %T %C %M %r' 2>/dev/null
  sleep 5
done
squeue -h -j $JOB -o '%i %j %T %r' 2>/dev/null
ls -l rollouts.jsonl rollouts_reward_profiling.jsonl 2>&1
echo "CI step over"
"""


@case(
    "throughput_slurm_forgotten_interactive_salloc_holds_a_core_so_two_core_eval_job_pends_past_ci_budget",
    "throughput_resources",
    ["salloc", "scancel", "cpus-per-task", "Resources"],
    "the user's interactive allocation from yesterday's debugging (`salloc -J debug-session ... sleep`, left running "
    "in a terminal) still holds one of the node's two cores; the weekly eval job asks for both (--cpus-per-task=2), "
    "so it sat PENDING with reason Resources behind the idle allocation until the CI step gave up: nothing was "
    "collected or profiled",
)
def throughput_slurm_forgotten_interactive_salloc_holds_a_core_so_two_core_eval_job_pends_past_ci_budget(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=72, folder=run, name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20")
    ctx.note("(yesterday, in a terminal: an interactive allocation for debugging, never ended)")
    ctx.bg("salloc --job-name=debug-session --ntasks=1 --time=60 sleep 900", "logs/salloc_debug_session.log")
    recipes.wait_for(lambda: "Granted job allocation" in recipes.text_of(run / "logs" / "salloc_debug_session.log"), 30,
                     "the interactive allocation")
    write_steps(ctx, f"echo \"weekly eval against $MODEL_URL\"\n{pipeline('$MODEL_URL', concurrency='8')}")
    sbatch_file(ctx, eval_sbatch("the weekly eval: two cores (collect and profile side by side with the verifier)",
                                 extra="#SBATCH --cpus-per-task=2\n"))
    try:
        code = run_submit(ctx, SALLOC_SUBMIT, env={**ctx.env, "MODEL_URL": url})
    finally:
        scancel_named(ctx, "debug-session")
    log = log_of(ctx, "submit.log")
    if "PENDING Resources" not in log or "debug-session RUNNING" not in log or (run / "rollouts.jsonl").exists():
        raise failed(ctx, f"exit {code}: {log[-1500:]}")
    return (f"`salloc --job-name=debug-session --ntasks=1 ... sleep` left running (one core); RUN/eval.sbatch "
            f"(--cpus-per-task=2) submitted by RUN/submit.sh (waits 75 s) exit {code}; the eval job stayed PENDING "
            f"(Resources) behind the idle allocation; no rollouts.")


if __name__ == "__main__":
    sys.exit(main("seventy_fourth_held_out", __file__, __doc__))
