"""Build the SEVENTY-SECOND HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/seventy_second_held_out.py --out tests/data/diagnosis_corpus/seventy_second_held_out [--only CASE ...]

This set was written after the seventy-one earlier sets (first_held_out.py ... seventy_first_held_out.py), from the
guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`), the real NeMo
Gym 0.7.0 in a loopback-only network namespace (with a user's own resources servers, data and settings), Slurm batch
jobs and job dependencies on the single-node cluster, and the user's own shell and Python tooling, sbatch scripts,
submit wrappers, data-preparation scripts and verifiers. The output of every command is captured as a user would
(`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data, scripts,
settings, verifier code). Each case injects one cause, different in mechanism from those of the seventy-one earlier
sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not
written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare,
iptables), Slurm (SLURM_CONF), NeMo Gym 0.7.0 (GYM_PIPELINE_NEMO_GYM), and PYTHONPATH set to this checkout. Run it
from a foreground shell. It makes no Docker containers (a Docker object would be named `h72-...`).
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import checkpoints, failed, gym_start_failing, stop_gym  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_first_held_out import keys_of  # noqa: E402
from fifty_ninth_held_out import gym_own_server, own_eval_script, sbatch_file  # noqa: E402
from fortieth_held_out import truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from recipes import (  # noqa: E402
    Ctx,
    case,
    gym_model_args,
    main,
    replace_verify,
    rows_of,
    text_of,
    user_resources_server,
)
from sixty_eighth_held_out import SUBMIT, run_submit, steps_file  # noqa: E402
from sixty_fourth_held_out import scratch_collect  # noqa: E402
from sixty_third_held_out import gym_script, gym_up, mean_of, scancel_ids  # noqa: E402
from thirtieth_held_out import gym_rows  # noqa: E402
from thirty_fifth_held_out import pipeline  # noqa: E402
from twenty_fifth_held_out import job_logs  # noqa: E402
from twenty_fourth_held_out import gym_eval_line, gym_profile_line, keep_server_code  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_sixth_held_out import free_port, slurm_script  # noqa: E402
from twenty_third_held_out import write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================

QA = [
    ("What is the capital of Australia?", "Canberra"),
    ("Who painted The Starry Night?", "Vincent van Gogh"),
    ("Which element has the chemical symbol Fe?", "Iron"),
    ("What is the longest river in South America?", "Amazon"),
    ("Who wrote the novel Pride and Prejudice?", "Jane Austen"),
    ("What is 9 multiplied by 7?", "63"),
    ("Which gas do plants absorb from the air?", "Carbon dioxide"),
    ("What is the capital of Canada?", "Ottawa"),
]
LONG = {a for _, a in QA if len(a) > 12}


def profile_rows(ctx: Ctx, folder: str = "results") -> list[dict]:
    return rows_of(next(iter((ctx.run / folder).glob("*reward_profiling*.jsonl")), ctx.run / "none"))


def eval_job(comment: str, extra: str = "") -> str:
    return ("#!/bin/bash\n#SBATCH --job-name=weekly-eval\n#SBATCH --output=RUN_DIR/logs/eval_%j.log\n"
            f"#SBATCH --time=10\n#SBATCH --ntasks=1\n{extra}# {comment}\ncd RUN_DIR\nbash steps.sh\n")


# =====================================================================================================
# healthy
# =====================================================================================================

PREP_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-prep
#SBATCH --output=RUN_DIR/logs/prep_%j.log
#SBATCH --time=5
#SBATCH --ntasks=1
# weekly prep: copy this week's split into place, then the (optional) near-duplicate report for the data team
cd RUN_DIR
cp incoming/string_match.jsonl string_match.jsonl
echo "prep: $(wc -l < string_match.jsonl) tasks in place"
PY_BIN dedup_report.py string_match.jsonl
"""

DEDUP_PY = '''"""dedup_report.py: list prompts that share their first 12 characters (exit 1 when any are found)."""
import json
import sys
from collections import defaultdict

groups = defaultdict(list)
for number, line in enumerate(open(sys.argv[1]), 1):
    text = json.loads(line)["responses_create_params"]["input"][0]["content"][0]["text"]
    groups[text[:12]].append(number)
pairs = {key: lines for key, lines in groups.items() if len(lines) > 1}
for key, lines in pairs.items():
    print(f"near-duplicate prompts (rows {lines}): {key!r}...")
print(f"dedup report: {len(pairs)} group(s) of near-duplicate prompts")
sys.exit(1 if pairs else 0)
'''

AFTERANY_SUBMIT = """#!/bin/bash
# submit.sh: prep, then the eval once prep has ended (afterany: the dedup report may exit 1, it is only a report)
cd RUN_DIR
PREP=$(sbatch --parsable prep.sbatch)
echo $PREP >> job_ids.txt
JOB=$(sbatch --parsable --dependency=afterany:$PREP eval.sbatch)
echo $JOB >> job_ids.txt
echo "prep job $PREP, eval job $JOB (--dependency=afterany:$PREP)"
while squeue -h -j $PREP,$JOB 2>/dev/null | grep -q .; do squeue -h -j $PREP,$JOB -o '%i %j %T %r' 2>/dev/null; sleep 4; done
scontrol show job $PREP 2>/dev/null | grep -o 'JobState=[A-Z]* .*ExitCode=[0-9:]*' || true
echo "jobs $PREP and $JOB finished"
"""


@case(
    "healthy_slurm_eval_chained_afterany_to_prep_job_whose_optional_dedup_report_exits_1",
    "healthy",
    [],
    "nothing is wrong: the user's prep job copies this week's split into place and then runs an optional "
    "near-duplicate report that exits 1 whenever it finds prompts sharing their first characters (it found some, the "
    "prep job ended FAILED with exit code 1); the eval job is chained with --dependency=afterany on purpose, so it ran "
    "on the prepared split anyway, and every rollout was collected and profiled",
)
def healthy_slurm_eval_chained_afterany_to_prep_job_whose_optional_dedup_report_exits_1(ctx: Ctx) -> str:
    run = ctx.run
    (run / "incoming").mkdir()
    data = ctx.dataset("string_match", 10, start=10, folder=run / "incoming", name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "dedup_report.py").write_text(DEDUP_PY)
    (run / "logs").mkdir(exist_ok=True)
    (run / "prep.sbatch").write_text(slurm_script(PREP_SBATCH, ctx, PY_BIN=str(recipes.PY)))
    steps_file(ctx)
    sbatch_file(ctx, eval_job("the weekly eval of the prepared split"))
    code = run_submit(ctx, AFTERANY_SUBMIT, env={**ctx.env, "MODEL_URL": url})
    prep = job_logs(ctx, "prep_*.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or "near-duplicate prompts (rows" not in prep or len(keys_of(got)) != 30 \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)}: {prep[-800:]} {log_of(ctx, 'submit.log')[-800:]}")
    return (f"RUN/submit.sh (`sbatch prep.sbatch`, then `sbatch --dependency=afterany:PREP eval.sbatch`) exit {code}; "
            f"the prep job's dedup report exited 1; the eval job (materialize 10 x 3, collect, profile) collected "
            f"{len(keys_of(got))} of 30 rollouts, mean reward {mean_of(got):.2f}.")


ERR_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.out
#SBATCH --error=RUN_DIR/logs/eval_%j.err
#SBATCH --time=10
#SBATCH --ntasks=1
# stdout and stderr go to separate files (the team's template); every step is traced to stderr for the audit trail
cd RUN_DIR
set -x
bash -x steps.sh
"""


@case(
    "healthy_slurm_eval_job_sends_stderr_to_its_own_err_file_that_fills_with_the_traced_commands",
    "healthy",
    [],
    "nothing is wrong: the team's sbatch template sends stderr to its own file (#SBATCH --error=eval_%j.err) and "
    "traces the job with `set -x` and `bash -x steps.sh`, so the .err file is the big one, full of '+ ...' lines and whatever the tools print "
    "on stderr, which looks like a job that failed; the .out file and the results show materialize, collect and "
    "profile ran to the end with every rollout collected",
)
def healthy_slurm_eval_job_sends_stderr_to_its_own_err_file_that_fills_with_the_traced_commands(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=24, folder=run, name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20")
    steps_file(ctx)
    sbatch_file(ctx, ERR_SBATCH)
    code = run_submit(ctx, SUBMIT, env={**ctx.env, "MODEL_URL": url})
    err = job_logs(ctx, "eval_*.err")
    got = rows_of(run / "rollouts.jsonl")
    if code or "+ bash -x steps.sh" not in err or len(keys_of(got)) != 24 \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)}: {err[-800:]} {job_logs(ctx, 'eval_*.out')[-800:]}")
    return (f"RUN/eval.sbatch (--output eval_%j.out, --error eval_%j.err, `set -x`, `bash -x steps.sh`; materialize 8 x 3, collect, "
            f"profile) submitted by RUN/submit.sh exit {code}; {len(err.splitlines())} lines in the .err file; "
            f"{len(keys_of(got))} of 24 rollouts, mean reward {mean_of(got):.2f}.")


RETIRED_V1_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        # RETIRED (v1): scored every reply 1.0 while the extraction was being rewritten. Use qa_match_v2.
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=1.0,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


@case(
    "healthy_gym_search_dir_keeps_retired_v1_copy_of_own_server_that_scored_everything_beside_the_v2_that_runs",
    "healthy",
    [],
    "nothing is wrong: the team's --search-dir still holds the retired qa_match_v1 resources server, whose verify "
    "scored every reply 1.0 (its code says so), next to qa_match_v2; `gym env start` and `gym eval run` name "
    "qa_match_v2 (and its agent), whose verify is Gym's string match, so the rewards are real: right answers score 1, "
    "wrong ones 0, and every rollout was verified and profiled",
    netns=True,
)
def healthy_gym_search_dir_keeps_retired_v1_copy_of_own_server_that_scored_everything_beside_the_v2_that_runs(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in QA])
    old, _ = truth_checkpoints(ctx, QA)
    search_v1 = user_resources_server(ctx, "qa_match_v1", "string_match",
                                      lambda app: replace_verify(app, RETIRED_V1_VERIFY))
    keep_server_code(ctx, search_v1, "qa_match_v1")
    search, overrides, env_start, policy = gym_own_server(
        ctx, "qa_match_v2", None, old, "(the search dir holds qa_match_v1 (retired) and qa_match_v2)")
    script = own_eval_script(ctx, search, overrides, "qa_match_v2", comment="weekly eval (v2 server)")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    scores = rewards(got)
    if code or len(keys_of(got)) != 24 or len(profile_rows(ctx)) != 8 or 0.0 not in scores or 1.0 not in scores:
        raise failed(ctx, f"exit {code}, {len(got)}, {scores}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"WORK/my_gym with qa_match_v1 (retired, verify always 1.0) and qa_match_v2 (kept in RUN/my_gym); real "
            f"`gym env start --resources-server qa_match_v2` against step_0100; RUN/run_eval.sh (`gym eval run` 8 x 3 "
            f"with qa_match_v2_simple_agent, `gym eval profile`) exit {code}; {len(keys_of(got))} of 24 rollouts, "
            f"mean reward {mean_of(got):.2f} (zeros and ones).")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

LENGTH_CAP_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        reward = 0.0
        # short-answer guard (from our short-answer benchmark): rambling answers get no credit
        if extracted is not None and len(extracted.strip()) > MAX_ANSWER_CHARS:
            extracted = None
        if extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


def length_cap_app(app: str) -> str:
    app = replace_verify(app, LENGTH_CAP_VERIFY)
    return app.replace("\ndef _extract_last_assistant_text", "\nMAX_ANSWER_CHARS = 12\n\n\ndef _extract_last_assistant_text", 1)


@case(
    "verifier_runtime_gym_own_verify_drops_answers_longer_than_twelve_characters_by_a_guard_from_short_answer_benchmark",
    "verifier_runtime",
    ["MAX_ANSWER_CHARS", "verify", "app.py", "length"],
    "the user's own resources server (qa_match) carries a 'short-answer guard' copied from the team's short-answer "
    "benchmark: verify throws away any extracted answer longer than 12 characters before comparing; in this split "
    "the right answers 'Vincent van Gogh' and 'Carbon dioxide' are longer, so every rollout of those tasks scored 0 "
    "with extracted_answer null although the model answered them right (every command exits 0)",
    netns=True,
)
def verifier_runtime_gym_own_verify_drops_answers_longer_than_twelve_characters_by_a_guard_from_short_answer_benchmark(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in QA])
    _, better = truth_checkpoints(ctx, QA)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "qa_match", length_cap_app, better, "(qa_match: Gym's string_match with a 12-character answer guard)")
    script = own_eval_script(ctx, search, overrides, "qa_match")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    long_rows = [r for r in got if r.get("expected_answer") in LONG]
    short_rows = [r for r in got if r.get("expected_answer") not in LONG]
    if code or len(keys_of(got)) != 24 or not long_rows or any(rewards(long_rows)) or mean_of(short_rows) < 0.5:
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(long_rows)}, {mean_of(short_rows)}: "
                          f"{log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/tasks.jsonl (8 tasks, two with answers over 12 characters); RUN/my_gym/resources_servers/qa_match/"
            f"app.py (verify drops answers over MAX_ANSWER_CHARS = 12); real `gym env start` against step_0200; "
            f"RUN/run_eval.sh (`gym eval run` 8 x 3, `gym eval profile`) exit {code}; rewards of the long-answer tasks "
            f"{rewards(long_rows)}, mean of the others {mean_of(short_rows):.2f}.")


PENALTY_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        reward = WRONG_ANSWER_REWARD
        if extracted is not None and body.expected_answer:
            if _answers_match(extracted, body.expected_answer, body.case_sensitive) == 1.0:
                reward = 1.0

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


def penalty_app(app: str) -> str:
    app = replace_verify(app, PENALTY_VERIFY)
    return app.replace("\ndef _extract_last_assistant_text",
                       "\n# reward shaping of the RL recipe: wrong answers are penalised\nWRONG_ANSWER_REWARD = -1.0\n\n\n"
                       "def _extract_last_assistant_text", 1)


@case(
    "verifier_runtime_gym_own_verify_keeps_minus_one_wrong_answer_penalty_of_rl_reward_shaping_in_the_eval_server",
    "verifier_runtime",
    ["WRONG_ANSWER_REWARD", "verify", "0.0", "reward"],
    "the user's own resources server (qa_eval) was copied from the RL recipe's server, whose verify gives wrong or "
    "missing answers a reward of -1.0 (WRONG_ANSWER_REWARD, reward shaping for training); as an eval verifier that "
    "makes every wrong rollout -1 instead of 0, so the profile's mean rewards (and pass rates computed from them) "
    "are far below the share of right answers, negative for hard tasks (every command exits 0)",
    netns=True,
)
def verifier_runtime_gym_own_verify_keeps_minus_one_wrong_answer_penalty_of_rl_reward_shaping_in_the_eval_server(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=30, folder=run, name="tasks.jsonl")
    old, _ = checkpoints(ctx, "string_match", data)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "qa_eval", penalty_app, old, "(qa_eval: copied from the RL recipe's server, wrong answers -1.0)")
    script = own_eval_script(ctx, search, overrides, "qa_eval")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    scores = rewards(got)
    if code or len(keys_of(got)) != 24 or -1.0 not in scores or 1.0 not in scores or not profile_rows(ctx):
        raise failed(ctx, f"exit {code}, {len(got)}, {scores}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/my_gym/resources_servers/qa_eval/app.py (WRONG_ANSWER_REWARD = -1.0); real `gym env start` against "
            f"step_0100; RUN/run_eval.sh (`gym eval run` 8 x 3, `gym eval profile`) exit {code}; {scores.count(-1.0)} "
            f"of {len(scores)} rewards are -1.0, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# data_schema
# =====================================================================================================

REFERENCE_PREP = '''"""prep.py: reference.jsonl (question + the reference solution the annotators wrote) -> tasks.jsonl."""
import json

with open("reference.jsonl") as source, open("tasks.jsonl", "w") as out:
    for line in source:
        item = json.loads(line)
        # the label is the last line of the reference solution
        label = item["reference_solution"].strip().splitlines()[-1].strip()
        text = f"{item['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": label, "extraction_mode": "final_answer", "case_sensitive": False}) + "\\n")
print("prep: tasks.jsonl written")
'''

REASONING = {
    "Canberra": "Sydney is the largest city, but the capital was purpose-built.",
    "Vincent van Gogh": "It was painted in 1889 in Saint-Remy.",
    "Iron": "Fe comes from the Latin ferrum.",
    "Amazon": "It flows through Peru, Colombia and Brazil.",
    "Jane Austen": "It was published in 1813.",
    "63": "9 x 7 = 63.",
    "Carbon dioxide": "Plants take in CO2 for photosynthesis.",
    "Ottawa": "Toronto is larger, but Ottawa is the capital.",
}


@case(
    "data_schema_gym_prep_takes_label_from_last_line_of_reference_solutions_so_labels_keep_the_final_answer_marker",
    "data_schema",
    ["prep.py", "expected_answer", "Final answer:", "reference_solution"],
    "the user's prep.py builds each task's expected_answer from the last line of the annotators' reference solution, "
    "which is written the way the model is asked to answer ('Final answer: Canberra'); every label therefore carries "
    "the 'Final answer:' marker while Gym's final_answer extraction takes only what follows it from the model's "
    "reply, so no answer ever equals its label: every rollout scored 0 although the model answered right "
    "(every command exits 0)",
    netns=True,
)
def data_schema_gym_prep_takes_label_from_last_line_of_reference_solutions_so_labels_keep_the_final_answer_marker(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "reference.jsonl", [
        {"question": q, "reference_solution": f"{REASONING[a]}\nFinal answer: {a}"} for q, a in QA])
    (run / "prep.py").write_text(REFERENCE_PREP)
    _, better = truth_checkpoints(ctx, QA)
    overrides, env_start, policy = gym_up(ctx, better)
    script = gym_script(ctx, "weekly eval of the annotated split",
                        [f"{recipes.PY} prep.py",
                         gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 4),
                         gym_profile_line("results")])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    extracted = [r.get("extracted_answer") for r in got]
    if code or len(keys_of(got)) != 24 or any(rewards(got)) \
            or not all(str(r.get("expected_answer", "")).startswith("Final answer:") for r in got) \
            or "Canberra" not in extracted:
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}, {extracted[:4]}: "
                          f"{log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/reference.jsonl (questions and reference solutions ending 'Final answer: X'); RUN/prep.py (label = "
            f"last line); real `gym env start` against step_0200; RUN/run_eval.sh (prep, `gym eval run` 8 x 3, "
            f"`gym eval profile`) exit {code}; every reward {sorted(set(rewards(got)))}, extracted answers like "
            f"{extracted[0]!r} against labels like {got[0].get('expected_answer')!r}.")


# =====================================================================================================
# config
# =====================================================================================================

DEP_IN_SCRIPT_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --dependency=afterok:$PREP_JOB
# the eval starts once the prep job (its id exported as PREP_JOB by submit.sh) has succeeded
cd RUN_DIR
bash steps.sh
"""

DEP_SUBMIT = """#!/bin/bash
# submit.sh: prep, then the eval (eval.sbatch names its dependency itself)
cd RUN_DIR
export PREP_JOB=$(sbatch --parsable prep.sbatch)
echo $PREP_JOB >> job_ids.txt
echo "prep job $PREP_JOB"
JOB=$(sbatch --parsable eval.sbatch)
echo "eval job: $JOB"
[ -n "$JOB" ] && echo $JOB >> job_ids.txt
while squeue -h -j ${PREP_JOB}${JOB:+,$JOB} 2>/dev/null | grep -q .; do sleep 3; done
echo "done"
"""

PLAIN_PREP_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-prep
#SBATCH --output=RUN_DIR/logs/prep_%j.log
#SBATCH --time=5
#SBATCH --ntasks=1
cd RUN_DIR
cp incoming/string_match.jsonl string_match.jsonl
echo "prep: $(wc -l < string_match.jsonl) tasks in place"
"""


@case(
    "config_slurm_dependency_directive_in_eval_sbatch_names_shell_variable_that_sbatch_never_expands",
    "config",
    ["#SBATCH --dependency", "PREP_JOB", "sbatch --dependency", "variable"],
    "the user's eval.sbatch names its dependency in a directive, `#SBATCH --dependency=afterok:$PREP_JOB`, expecting "
    "the PREP_JOB id submit.sh exported; #SBATCH lines are read by sbatch as plain text and never expanded by a "
    "shell, so sbatch got the literal '$PREP_JOB' as a job id and refused the submission ('Job dependency problem'): "
    "the prep job ran, the eval was never submitted, nothing was collected. The dependency has to be given on the "
    "sbatch command line",
)
def config_slurm_dependency_directive_in_eval_sbatch_names_shell_variable_that_sbatch_never_expands(ctx: Ctx) -> str:
    run = ctx.run
    (run / "incoming").mkdir()
    data = ctx.dataset("string_match", 8, start=36, folder=run / "incoming", name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "logs").mkdir(exist_ok=True)
    (run / "prep.sbatch").write_text(slurm_script(PLAIN_PREP_SBATCH, ctx))
    steps_file(ctx)
    sbatch_file(ctx, DEP_IN_SCRIPT_SBATCH)
    code = run_submit(ctx, DEP_SUBMIT, env={**ctx.env, "MODEL_URL": url})
    log = log_of(ctx, "submit.log")
    if "dependency" not in log.lower() or (run / "rollouts.jsonl").exists() or "prep:" not in job_logs(ctx, "prep_*"):
        raise failed(ctx, f"exit {code}: {log[-1500:]}")
    return (f"RUN/eval.sbatch (`#SBATCH --dependency=afterok:$PREP_JOB`); RUN/submit.sh (export PREP_JOB=$(sbatch "
            f"--parsable prep.sbatch); sbatch eval.sbatch) exit {code}; sbatch refused the eval job; no rollouts.")


DASH_SBATCH = """#!/bin/sh
#SBATCH --job-name=weekly-splits
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
# the weekly eval of both splits (shebang from the cluster's minimal example)
cd RUN_DIR
SPLITS=(dev test)
for split in "${SPLITS[@]}"; do
  mkdir -p $split && cd $split
  STEPS_OF_SPLIT
  cd ..
done
echo "all splits done"
"""


@case(
    "config_slurm_eval_sbatch_with_sh_shebang_declares_bash_array_of_splits_that_dash_cannot_parse",
    "config",
    ["#!/bin/bash", "#!/bin/sh", "array", "SPLITS"],
    "the user's eval.sbatch starts with `#!/bin/sh` (copied from the cluster's minimal example) but loops over a "
    "bash array, `SPLITS=(dev test)`; Slurm runs the script with its shebang, /bin/sh is dash on the nodes, and dash "
    "stops at that line with 'Syntax error: \"(\" unexpected': the job ended after a second with exit code 2 and "
    "neither split was materialized, collected or profiled",
)
def config_slurm_eval_sbatch_with_sh_shebang_declares_bash_array_of_splits_that_dash_cannot_parse(ctx: Ctx) -> str:
    run = ctx.run
    for split, start in (("dev", 40), ("test", 48)):
        ctx.dataset("string_match", 8, start=start, folder=run, name=f"{split}.jsonl")
    _, better = checkpoints(ctx, "string_match", run / "dev.jsonl")
    url, _ = ctx.policy(better, "--latency-ms 20")
    steps = pipeline("$MODEL_URL", data="../$split.jsonl").strip().replace("\n", "\n  ")
    sbatch_file(ctx, DASH_SBATCH, STEPS_OF_SPLIT=steps)
    code = run_submit(ctx, SUBMIT, env={**ctx.env, "MODEL_URL": url})
    job = job_logs(ctx, "eval_*.log")
    if "unexpected" not in job or list(run.glob("*/rollouts.jsonl")) or "all splits done" in job:
        raise failed(ctx, f"exit {code}: {job[-1500:]} {log_of(ctx, 'submit.log')[-600:]}")
    return (f"RUN/eval.sbatch (`#!/bin/sh`, `SPLITS=(dev test)`, per split materialize, collect, profile) submitted "
            f"by RUN/submit.sh exit {code}; the job stopped at the array line (dash); no rollouts.")


# =====================================================================================================
# model_serving
# =====================================================================================================

FIXED_PORT_SBATCH = """#!/bin/bash
#SBATCH --job-name=eval-with-server
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
# one job: this week's checkpoint served on the team's usual port, then the eval against it
cd RUN_DIR
PORT=MODEL_PORT
GP_BIN serve-policy --port $PORT --checkpoint CKPT --latency-ms 20 > logs/model_server_$SLURM_JOB_ID.log 2>&1 &
SERVER=$!
until curl -sf http://127.0.0.1:$PORT/v1/models > /dev/null; do sleep 1; done
export MODEL_URL=http://127.0.0.1:$PORT/v1
echo "model server answering on port $PORT"
bash steps.sh
kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null
echo "eval done"
"""


@case(
    "model_serving_slurm_job_serves_new_checkpoint_on_fixed_port_held_by_last_weeks_orphaned_server_so_eval_measures_the_old",
    "model_serving",
    ["port", "address already in use", "kill", "step_0200"],
    "the user's eval.sbatch starts this week's model server (step_0200) on the team's usual fixed port and waits "
    "until that port answers /v1/models; last week's server (step_0100), started by hand with nohup and never "
    "stopped, still listens on that port, so the new server failed to bind ('address already in use') and exited "
    "while the readiness check was answered at once by the old one: the whole eval measured last week's checkpoint "
    "(every command in the job exits 0 and every rollout was collected)",
)
def model_serving_slurm_job_serves_new_checkpoint_on_fixed_port_held_by_last_weeks_orphaned_server_so_eval_measures_the_old(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 10, start=64, folder=run, name="string_match.jsonl")
    baseline, better = checkpoints(ctx, "string_match", data)
    port = free_port()
    (run / "logs").mkdir(exist_ok=True)
    ctx.note("(last week, by hand: `nohup gym-pipeline serve-policy --port PORT --checkpoint .../step_0100 &`, "
             "never stopped)")
    ctx.bg(f"nohup {recipes.GP} serve-policy --port {port} --checkpoint {baseline} --latency-ms 20",
           "logs/last_week_model_server.log")
    recipes.wait_for(lambda: subprocess.run(["curl", "-sf", f"http://127.0.0.1:{port}/v1/models"],
                                            capture_output=True).returncode == 0, 30, "last week's server")
    steps_file(ctx)
    sbatch_file(ctx, FIXED_PORT_SBATCH, CKPT=str(better), MODEL_PORT=str(port))
    code = run_submit(ctx, SUBMIT)
    job = job_logs(ctx, "eval_*.log")
    server = job_logs(ctx, "model_server_*.log")
    got = rows_of(run / "rollouts.jsonl")
    check_url, _ = ctx.policy(better, "--latency-ms 20", log=str(ctx.work / "check_server.log"))
    ctx.commands.pop()
    fresh = scratch_collect(ctx, check_url)
    if code or "eval done" not in job or "in use" not in server.lower() or len(keys_of(got)) != 30 \
            or not mean_of(fresh) > mean_of(got):
        raise failed(ctx, f"exit {code}, {len(got)}, {mean_of(got)} vs {mean_of(fresh)}: {job[-800:]} {server[-800:]}")
    return (f"last week's serve-policy (step_0100) still on port {port}; RUN/eval.sbatch (serve-policy step_0200 on port "
            f"{port} in the background, wait for /v1/models, materialize 10 x 3, collect, profile) submitted by "
            f"RUN/submit.sh exit {code}; the new server could not bind; {len(keys_of(got))} of 30 rollouts, mean reward "
            f"{mean_of(got):.2f} (step_0200 scores {mean_of(fresh):.2f} on the same inputs).")


# =====================================================================================================
# cache_resume
# =====================================================================================================

STAGE_SBATCH = """#!/bin/bash
#SBATCH --job-name=eval-with-server
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
# usage: sbatch eval.sbatch CHECKPOINT_DIR
# stage the checkpoint onto the node's scratch (fast local reads), serve it from there, evaluate it
cd RUN_DIR
CKPT=$1
STAGED=SCRATCH_DIR/ckpt
mkdir -p $STAGED
cp -rn $CKPT/. $STAGED/   # -n: an interrupted staging copy is resumed, not redone
echo "staged $CKPT to $STAGED"
rm -f server_url.txt
GP_BIN serve-policy --port 0 --ready-file RUN_DIR/server_url.txt --checkpoint $STAGED --latency-ms 20 \\
  > logs/model_server_$SLURM_JOB_ID.log 2>&1 &
SERVER=$!
for i in $(seq 60); do [ -s server_url.txt ] && break; sleep 1; done
export MODEL_URL=$(cat server_url.txt)
bash steps.sh
kill $SERVER; wait $SERVER 2>/dev/null
echo "eval of $CKPT done"
"""

STAGE_SUBMIT = """#!/bin/bash
# submit.sh CHECKPOINT_DIR: the weekly eval of a checkpoint
cd RUN_DIR
JOB=$(sbatch --parsable eval.sbatch $1)
echo "submitted job $JOB for $1"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 3; done
echo "job $JOB finished"
"""


@case(
    "cache_resume_slurm_job_stages_checkpoint_to_node_scratch_with_cp_no_clobber_so_last_weeks_weights_are_served",
    "cache_resume",
    ["cp -rn", "scratch", "staged", "rm -rf"],
    "the user's eval.sbatch stages the checkpoint to the node's scratch folder before serving it, with `cp -rn` "
    "into the same folder every week (-n so an interrupted copy 'resumes'); last week's staged checkpoint (step_0100) "
    "was still there, -n skipped every file of this week's step_0200 because one of the same name existed, and the "
    "server loaded last week's weights: the job said 'staged .../step_0200' and every command exits 0, but the eval "
    "measured step_0100",
)
def cache_resume_slurm_job_stages_checkpoint_to_node_scratch_with_cp_no_clobber_so_last_weeks_weights_are_served(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 10, start=74, folder=run, name="string_match.jsonl")
    baseline, better = checkpoints(ctx, "string_match", data)
    scratch = ctx.work / "node_scratch"
    steps_file(ctx)
    sbatch_file(ctx, STAGE_SBATCH, SCRATCH_DIR=str(scratch))
    (run / "submit.sh").write_text(slurm_script(STAGE_SUBMIT, ctx))
    try:
        code0 = ctx.sh(f"bash {run}/submit.sh {baseline}", "logs/submit_last_week.log", timeout=300)
        last_week = mean_of(rows_of(run / "rollouts.jsonl"))
        ctx.note("(a week later: the new checkpoint step_0200)")
        code = ctx.sh(f"bash {run}/submit.sh {better}", "logs/submit.log", timeout=300)
    finally:
        scancel_ids(ctx, *text_of(run / "job_ids.txt").split())
    ids = text_of(run / "job_ids.txt").split()
    server = job_logs(ctx, f"model_server_{ids[-1]}.log") if ids else ""
    job = job_logs(ctx, f"eval_{ids[-1]}.log") if ids else ""
    got = rows_of(run / "rollouts.jsonl")
    check_url, _ = ctx.policy(better, "--latency-ms 20", log=str(ctx.work / "check_server.log"))
    ctx.commands.pop()
    fresh = scratch_collect(ctx, check_url)
    if code0 or code or len(ids) != 2 or "checkpoint step 100" not in server or f"staged {better}" not in job \
            or len(keys_of(got)) != 30 or not mean_of(fresh) > mean_of(got):
        raise failed(ctx, f"exit {code0}/{code}, {ids}, {len(got)}, {mean_of(got)} vs {mean_of(fresh)}: "
                          f"{server[-600:]} {job[-800:]}")
    return (f"RUN/eval.sbatch (`cp -rn CKPT/. SCRATCH/ckpt/`, serve-policy on the staged copy, materialize 10 x 3, "
            f"collect, profile); RUN/submit.sh .../step_0100 last week exit {code0} (mean {last_week:.2f}), "
            f"RUN/submit.sh .../step_0200 this week exit {code}: the server loaded step 100; {len(keys_of(got))} of 30 "
            f"rollouts, mean reward {mean_of(got):.2f} (step_0200 scores {mean_of(fresh):.2f} on the same inputs).")


# =====================================================================================================
# infra
# =====================================================================================================


@case(
    "healthy_gym_node_firewall_connlimit_rule_resets_extra_connections_to_model_port_yet_every_rollout_completes",
    "healthy",
    [],
    "nothing is wrong: the eval node carries the security team's hardening rule, an iptables connlimit rule that "
    "resets any connection to the model server's port beyond two at once from one source, and the user's check after "
    "the eval shows its counter went up (dozens of rejected connection attempts while `gym eval run --concurrency 8` "
    "ran); the refused connections were retried, and every rollout was collected, verified and profiled",
    netns=True,
)
def healthy_gym_node_firewall_connlimit_rule_resets_extra_connections_to_model_port_yet_every_rollout_completes(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=56, folder=run, name="tasks.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    overrides, env_start, policy = gym_up(ctx, better, "--latency-ms 400")
    url = next(c for c in ctx.commands if "--model-url" in c)
    port = re.search(r"--model-url http://[^:]+:(\d+)", url).group(1)
    ctx.note("(the node's security baseline: iptables connlimit on the model port)")
    code0 = ctx.sh(f"iptables -A INPUT -p tcp --syn --dport {port} -m connlimit --connlimit-above 2 "
                   "-j REJECT --reject-with tcp-reset && iptables -S INPUT", "logs/node_firewall.log")
    if code0:
        raise failed(ctx, f"iptables exit {code0}: {log_of(ctx, 'node_firewall.log')}")
    script = gym_script(ctx, "weekly eval", [gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 8),
                                             gym_profile_line("results"), "iptables -L INPUT -v -n"])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    hits = re.search(r"^\s*(\d+)\s+\d+\s+REJECT", log_of(ctx, "run_eval.log"), re.M)
    if code or len(keys_of(got)) != 24 or not hits or int(hits.group(1)) == 0 or len(profile_rows(ctx)) != 8:
        raise failed(ctx, f"exit {code}, {len(got)}, {hits}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"iptables connlimit (above 2, tcp-reset) on the model port {port}; real `gym env start` against "
            f"step_0200; RUN/run_eval.sh (`gym eval run --concurrency 8` 8 x 3, `gym eval profile`, `iptables -L`) "
            f"exit {code}; {hits.group(1)} rejected connection attempts; {len(keys_of(got))} of 24 rollouts, mean "
            f"reward {mean_of(got):.2f}.")


@case(
    "infra_gym_node_tmp_cleaner_removed_prebuilt_resources_server_venv_so_env_start_rebuilds_it_offline_and_fails",
    "infra",
    ["uv_venv_dir", "venv", "tmp cleaner", "uv"],
    "the team's Gym servers run from venvs prebuilt by the node image under a temporary folder (++uv_venv_dir, with "
    "++skip_venv_if_present=true); the node's tmp cleaner removed the string_match resources server's venv as old, so "
    "`gym env start` tried to build it again, and the eval node has no uv ('(string_match) uv: command not found'): "
    "the server process ended, `gym env start` stopped ('Process `string_match` finished unexpectedly') and nothing "
    "was evaluated. Nothing in the user's data, settings or model is wrong; the venv must be restored (or kept off "
    "the cleaned folder)",
    netns=True,
)
def infra_gym_node_tmp_cleaner_removed_prebuilt_resources_server_venv_so_env_start_rebuilds_it_offline_and_fails(
        ctx: Ctx) -> str:
    run = ctx.run
    ctx.dataset("string_match", 8, start=66, folder=run, name="tasks.jsonl")
    _, better = checkpoints(ctx, "string_match", run / "tasks.jsonl")
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    venv = ctx.work / "server_venvs" / "resources_servers" / "string_match" / ".venv"
    ctx.note("(the node's tmp cleaner: `find WORK/server_venvs -mtime +10 -delete` took the string_match server's "
             "prebuilt .venv)")
    venv.unlink()
    ready, exit_code = gym_start_failing(ctx, f"{gym_model_args(url)} {overrides}", timeout_s=150)
    ctx.stop(policy)
    log = text_of(run / "env_start.log")
    if ready or "uv: command not found" not in log or "finished unexpectedly" not in log:
        raise failed(ctx, f"ready {ready}, exit {exit_code}: {log[-2000:]}")
    return (f"the prebuilt server venv WORK/server_venvs/resources_servers/string_match/.venv removed by the node's tmp "
            f"cleaner; real `gym env start` (loopback-only namespace) tried to rebuild it ('uv: command not found') and "
            f"stopped, exit {exit_code}; nothing evaluated.")


if __name__ == "__main__":
    sys.exit(main("seventy_second_held_out", __file__, __doc__))
