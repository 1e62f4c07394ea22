"""Build the TWENTY-FIFTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/twenty_fifth_held_out.py --out tests/data/diagnosis_corpus/twenty_fifth_held_out [--only CASE ...]

This set was written from the guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder
troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests
or their results. It is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
workspace verifiers, task folders run in Docker sandboxes, Slurm batch jobs, the real NeMo Gym 0.7.0 (`gym env
start` / `gym eval run` / `gym eval profile` inside a loopback-only network namespace, with a user's own resources
server), and the user's own shell scripts, Makefiles, settings files, helper servers and data-preparation scripts. The
output of every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written
by hand but the user's own inputs (data, scripts, settings, verifier code). Each case injects one cause, different in
mechanism from those of the twenty-four earlier sets, and each recipe checks that its fault really happened (it raises
RecipeError otherwise, and the case is not written). About half of the failures are silent: every command exits 0
and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare,
mount), Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this checkout. Run it from a foreground shell.
"""

from __future__ import annotations

import csv
import json
import sys
import unicodedata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import (  # noqa: E402
    agent_args,
    checkpoints,
    failed,
    gym_start,
    served,
    stage,
    stop_gym,
    task_checkpoints,
    user_taskset,
    workspace_sweep,
)
from fourteenth_held_out import mean, rewards  # noqa: E402
from ninth_held_out import own_gym_server  # noqa: E402
from recipes import (  # noqa: E402
    DATA,
    GP,
    GYM,
    Ctx,
    case,
    gym_model_args,
    main,
    rows_of,
    text_of,
    unique_keys,
    wait_for,
)
from tenth_held_out import in_log  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_fourth_held_out import gym_eval_line, gym_profile_line, keep_server_code  # noqa: E402
from twenty_second_held_out import pipeline_lines, question_row, response_text  # noqa: E402
from twenty_third_held_out import final_answer, prompt_of, taskset_script, write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def final_answer_rows(n: int, start: int = 0) -> list[dict]:
    """`n` rows of the bundled string_match data whose extraction mode is final_answer (one-line prompts)."""
    rows = [json.loads(line) for line in (DATA / "string_match.jsonl").read_text().splitlines() if line.strip()]
    chosen = [row for row in rows if row.get("extraction_mode") == "final_answer" and "\n" not in prompt_of(row)]
    return chosen[start:start + n]


def job_logs(ctx: Ctx, pattern: str) -> str:
    return "".join(text_of(p) for p in sorted((ctx.run / "logs").glob(pattern)))


def wait_script(body: str) -> str:
    """Lines a user's submit script ends its sbatch with: wait until the job has left the queue."""
    return body + ('JOB=$(sbatch --parsable {sbatch})\necho "submitted job $JOB"\n'
                   'while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done\necho "job $JOB finished"\n')


def task_rows(ctx: Ctx, name: str) -> list[dict]:
    return [row for row in rows_of(ctx.run / "rollouts.jsonl") if name in json.dumps(row)]


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_builtin_run_script_posts_done_notification_to_closed_webhook_port",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh ends by posting 'weekly eval done' with curl to the team's chat "
    "webhook relay on 127.0.0.1, which is not running on this machine ('Failed to connect ... Connection refused', "
    "exit 7); materialize, collect and profile had all completed every rollout before it",
)
def healthy_builtin_run_script_posts_done_notification_to_closed_webhook_port(ctx: Ctx) -> str:
    from gym_pipeline.host import free_loopback_port

    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 12)
    url, _ = ctx.policy(better, "--latency-ms 20")
    port = free_loopback_port()
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval; tells the team channel when it is done\n"
                      f"cd {run}\n" + "\n".join(pipeline_lines("string_match.jsonl", 3, url, 4)) + "\n"
                      "echo \"== notifying the team channel\"\n"
                      f"curl -sS -X POST -d '{{\"text\": \"weekly eval done\"}}' http://127.0.0.1:{port}/hooks/eval-done\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code != 7 or got != 24 or not (run / "rollouts_reward_profiling.jsonl").exists() or not in_log(
            ctx, "Failed to connect", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (materialize 8 tasks x 3, collect, profile, then curl to a closed local port) exit "
            f"{code}; {got} rollouts, mean reward {mean(rewards(rows_of(run / 'rollouts.jsonl'))):.2f}.")


@case(
    "healthy_gym_preflight_ray_status_at_wiki_default_address_finds_nothing",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh first runs `ray status --address 127.0.0.1:6379` (the address the team "
    "wiki gives for the shared Ray cluster), which finds no Ray there and prints a connection error; Gym's own Ray "
    "runs elsewhere, and the real NeMo Gym eval then collected, verified and profiled every rollout",
    netns=True,
)
def healthy_gym_preflight_ray_status_at_wiki_default_address_finds_nothing(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=20, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval (checks the Ray cluster first, as the wiki says)\n"
                      f"cd {run}\necho \"== ray status\"\nray status --address 127.0.0.1:6379\n"
                      f"{gym_eval_line(overrides, 'tasks.jsonl', 'results/rollouts.jsonl', 3, 4)}\n"
                      f"{gym_profile_line('results')}\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    log = text_of(run / "logs" / "run_eval.log")
    ray_part = log.split("== ray status", 1)[-1][:3000]
    if code or got != 18 or not any(word in ray_part for word in ("Could not", "ConnectionError", "rror")):
        raise failed(ctx, f"exit {code}, {got}: {ray_part[:600]}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (`ray status` at an address with no Ray, "
            f"`gym eval run --no-serve` 6 tasks x 3, `gym eval profile`) exit {code}, {got} rollouts.")


@case(
    "healthy_taskfolder_preflight_docker_login_without_terminal",
    "healthy",
    [],
    "nothing is wrong: the user's run_tasks.sh starts with `docker login` to the team registry, copied from their "
    "interactive setup notes; run from a script it fails ('Cannot perform an interactive login from a non TTY "
    "device'), but every task image is built locally and nothing is pulled: the taskset's episodes all ran, were "
    "verified and profiled",
)
def healthy_taskfolder_preflight_docker_login_without_terminal(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["count-error-lines", "json-version"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, [
        "echo '== logging in to the team registry'",
        "docker login 127.0.0.1:5999 -u ci-bot < /dev/null",
    ])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    login = text_of(run / "logs" / "run_tasks.log").split("== materialize")[0]
    if code or len(unique_keys(run / "rollouts.jsonl")) != 4 or "rror" not in login:
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}: {login[-400:]}")
    return (f"RUN/run_tasks.sh (a `docker login` that fails without a terminal, then `gym-pipeline stage` "
            f"materialize, collect, profile of RUN/tasks x 2) exit {code}; rewards {rewards(got)}.")


SCONTROL_SBATCH = """#!/bin/bash
#SBATCH --job-name=nightly-eval
#SBATCH --output=RUN_DIR/logs/collect_%j.log
#SBATCH --time=10
cd RUN_DIR
echo "nightly eval on $(hostname)"
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 4
"""

SCONTROL_SUBMIT = """#!/bin/bash
# nightly: submit, wait, profile, then keep the job's record in the log
cd RUN_DIR
JOB=$(sbatch --parsable nightly.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
sleep 8
echo "== job record"
scontrol show job $JOB
"""


@case(
    "healthy_slurm_submit_prints_job_record_after_controller_purged_it",
    "healthy",
    [],
    "nothing is wrong: the user's submit.sh ends with `scontrol show job $JOB` to keep the finished job's record in "
    "the log; the controller keeps finished jobs only a few seconds (MinJobAge) and there is no accounting, so it "
    "answers 'Invalid job id specified' and the script exits 1, but the job had materialized and collected every "
    "rollout and the profile was made",
)
def healthy_slurm_submit_prints_job_record_after_controller_purged_it(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 44)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "nightly.sbatch").write_text(SCONTROL_SBATCH.replace("RUN_DIR", str(run)).replace("GP_BIN", str(GP))
                                        .replace("MODEL_URL", url))
    (run / "submit.sh").write_text(SCONTROL_SUBMIT.replace("RUN_DIR", str(run)).replace("GP_BIN", str(GP)))
    code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if not code or got != 24 or not in_log(ctx, "Invalid job id", "logs/submit.log") or not (
            run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/submit.sh (sbatch of RUN/nightly.sbatch: materialize 8 tasks x 3 and collect; then profile, then "
            f"`scontrol show job` of the purged job) exit {code}; {got} rollouts.")


# =====================================================================================================
# config
# =====================================================================================================

MAKEFILE = """# weekly eval: `make` (or `make all`)
REPEATS := 3
CONCURRENCY := 4
MODEL_URL := URL_HERE
GP := GP_BIN

all: rollouts_reward_profiling.jsonl

rollouts_materialized_inputs.jsonl: string_match.jsonl
\t$(GP) materialize --input string_match.jsonl --num-repeats $REPEATS --agent string_match_simple_agent --output $@

rollouts.jsonl: rollouts_materialized_inputs.jsonl
\t$(GP) collect --inputs $< --output $@ --model-url $(MODEL_URL) --env string_match --concurrency $(CONCURRENCY)

rollouts_reward_profiling.jsonl: rollouts.jsonl
\t$(GP) profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "config_builtin_makefile_recipe_writes_repeats_variable_shell_style",
    "config",
    ["Makefile", "REPEATS"],
    "the user's Makefile passes `--num-repeats $REPEATS` in the materialize recipe: make reads `$R` as a make "
    "variable (empty) followed by the text 'EPEATS', so materialize was called with `--num-repeats EPEATS` and "
    "refused it; make stopped before anything was collected",
)
def config_builtin_makefile_recipe_writes_repeats_variable_shell_style(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 5)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "Makefile").write_text(MAKEFILE.replace("URL_HERE", url).replace("GP_BIN", str(GP)))
    code = ctx.sh(f"make -C {run} all", "logs/make.log", timeout=300)
    got = len(rows_of(run / "rollouts.jsonl"))
    if not code or got or not in_log(ctx, "EPEATS", "logs/make.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return f"`make -C RUN all` (RUN/Makefile with `$REPEATS` in a recipe) exit {code}; {got} rollouts."


ARRAY_SBATCH = """#!/bin/bash
#SBATCH --job-name=eval-shards
#SBATCH --array=1-4
#SBATCH --output=RUN_DIR/logs/shard_%a.log
#SBATCH --time=10
# one array task per shard of the eval set
cd RUN_DIR
SHARD=$SLURM_ARRAY_TASK_ID
echo "shard $SHARD on $(hostname)"
mkdir -p results/shard_$SHARD && cd results/shard_$SHARD
GP_BIN materialize --input ../../shards/shard_$SHARD.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 2
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""

ARRAY_SUBMIT = """#!/bin/bash
# split the eval set into 4 shards, one array task each, then count what came back
cd RUN_DIR
mkdir -p shards
split -l 2 -d -a 1 --additional-suffix=.jsonl string_match.jsonl shards/shard_
ls shards
JOB=$(sbatch --parsable shards.sbatch)
echo "submitted array job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "array job $JOB finished"
wc -l results/*/rollouts.jsonl
"""


@case(
    "config_slurm_job_array_range_starts_at_one_for_zero_numbered_shards",
    "config",
    ["--array", "SLURM_ARRAY_TASK_ID"],
    "the user's submit.sh splits the eval set into shards/shard_0 ... shard_3 (split -d numbers from 0), but "
    "shards.sbatch declares `#SBATCH --array=1-4` and reads shard_$SLURM_ARRAY_TASK_ID: shard_0 was never evaluated "
    "and array task 4 found no shard_4 and failed, so only 3 of the 4 shards have results (submit.sh exits 0)",
)
def config_slurm_job_array_range_starts_at_one_for_zero_numbered_shards(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 36)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "shards.sbatch").write_text(ARRAY_SBATCH.replace("RUN_DIR", str(run)).replace("GP_BIN", str(GP))
                                       .replace("MODEL_URL", url))
    (run / "submit.sh").write_text(ARRAY_SUBMIT.replace("RUN_DIR", str(run)))
    code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=500)
    done = {n: len(unique_keys(run / "results" / f"shard_{n}" / "rollouts.jsonl")) for n in range(5)}
    if (code or done[0] or done[4] or (run / "results" / "shard_0").exists() or [done[n] for n in (1, 2, 3)] != [6] * 3
            or not (run / "shards" / "shard_0.jsonl").exists()):
        raise failed(ctx, f"exit {code}, {done}")
    return (f"RUN/submit.sh (split into shards/shard_0..3, sbatch of RUN/shards.sbatch with --array=1-4) exit {code}; "
            f"rollouts per shard {done}.")


EVAL_CFG = """# eval settings of the weekly run (read by run_eval.sh)
# num_repeats: 1        <- smoke test only, keep commented out
num_repeats: 4
concurrency: 4
"""


@case(
    "config_gym_run_script_greps_repeats_from_commented_smoke_test_line",
    "config",
    ["eval.cfg", "grep"],
    "the user's run_eval.sh reads its settings with `grep num_repeats eval.cfg | head -1 | awk '{print $3}'`; the "
    "first match is the commented-out smoke-test line `# num_repeats: 1`, so the real NeMo Gym eval ran 1 repeat per "
    "task instead of 4 and the weekly profile has no per-task variance (everything exits 0)",
    netns=True,
)
def config_gym_run_script_greps_repeats_from_commented_smoke_test_line(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=74, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    (run / "eval.cfg").write_text(EVAL_CFG)
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval; settings in eval.cfg\n"
                      f"cd {run}\nREPEATS=$(grep num_repeats eval.cfg | head -1 | awk '{{print $3}}')\n"
                      "CONCURRENCY=$(grep concurrency eval.cfg | head -1 | awk '{print $2}')\n"
                      "echo \"weekly eval: $REPEATS repeats, concurrency $CONCURRENCY\"\n"
                      f"{gym_eval_line(overrides, 'tasks.jsonl', 'results/rollouts.jsonl', '$REPEATS', '$CONCURRENCY')}\n"
                      f"{gym_profile_line('results')}\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if code or got != 6 or not in_log(ctx, "weekly eval: 1 repeats", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh greps num_repeats from RUN/eval.cfg and "
            f"gets the commented smoke-test line (1); `gym eval run --no-serve` + `gym eval profile` exit {code}; "
            f"{got} rollouts for 6 tasks instead of 24.")


# =====================================================================================================
# data_schema
# =====================================================================================================

PREP_ZIP = '''"""questions.txt + answers.txt (one per line, same order, from the review sheet) -> tasks.jsonl"""
import json

questions = sorted(set(open("questions.txt").read().splitlines()))  # drop duplicated questions
answers = open("answers.txt").read().splitlines()
with open("tasks.jsonl", "w") as out:
    for question, answer in zip(questions, answers):
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": question}]}]},
               "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
print(f"prep_data.py: {len(questions)} questions, {len(answers)} answers -> tasks.jsonl")
'''


@case(
    "data_schema_gym_prep_sorts_questions_before_zipping_with_answers_file",
    "data_schema",
    ["prep_data.py", "sorted"],
    "the user's prep_data.py builds tasks.jsonl from questions.txt and answers.txt, two line-aligned files, but "
    "de-duplicates the questions with `sorted(set(...))` before zipping them with the answers: the questions are "
    "re-ordered and every task got another task's answer as expected_answer, so the real NeMo Gym eval scored the "
    "model's right answers 0 (everything exits 0)",
    netns=True,
)
def data_schema_gym_prep_sorts_questions_before_zipping_with_answers_file(ctx: Ctx) -> str:
    run = ctx.run
    truth = sorted(final_answer_rows(6, 2), key=prompt_of, reverse=True)
    source = write_jsonl(ctx.work / "reviewed.jsonl", truth)
    better = checkpoints(ctx, "string_match", source)[1]
    (run / "questions.txt").write_text("".join(prompt_of(row) + "\n" for row in truth))
    (run / "answers.txt").write_text("".join(str(row["expected_answer"]) + "\n" for row in truth))
    (run / "prep_data.py").write_text(PREP_ZIP)
    prep = ctx.sh(f"cd {run} && python3 prep_data.py", "logs/prep_data.log")
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    ran = ctx.sh(f"cd {run} && {gym_eval_line(overrides, 'tasks.jsonl', 'results/rollouts.jsonl', 3, 4)}",
                 "eval_run.log", timeout=400)
    prof = ctx.sh(f"cd {run} && {gym_profile_line('results')}", "eval_profile.log", timeout=300)
    stop_gym(ctx, env_start, policy)
    got = rows_of(run / "results" / "rollouts.jsonl")
    truth_of = {prompt_of(row): str(row["expected_answer"]) for row in truth}
    shifted = sum(truth_of[prompt_of(row)] != row["expected_answer"] for row in rows_of(run / "tasks.jsonl"))
    if prep or ran or prof or len(got) != 18 or shifted < 5 or mean(rewards(got)) > 0.2:
        raise failed(ctx, f"exit {prep}/{ran}/{prof}, {len(got)}, shifted {shifted}, {rewards(got)}")
    return (f"RUN/prep_data.py (sorted(set(questions)) zipped with answers.txt) -> RUN/tasks.jsonl, {shifted} of 6 "
            f"labels belong to other questions; real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run "
            f"--no-serve` (6 x 3) exit {ran}, profile exit {prof}; mean reward {mean(rewards(got)):.2f}.")


ACCENTED = [("Which Swiss city is home to the ETH technical university?", "Zürich"),
            ("What is the capital of Iceland?", "Reykjavík"),
            ("What is the capital of Colombia?", "Bogotá"),
            ("Which Czech composer wrote the New World Symphony?", "Dvořák"),
            ("Which Caribbean island has Willemstad as its capital?", "Curaçao"),
            ("What is the capital of Portugal?", "Lisbon"),
            ("Which planet is known as the Red Planet?", "Mars"),
            ("What is the chemical symbol for gold?", "Au")]

PREP_LABELS = '''"""labels.csv (exported from the annotation tool on the team Mac) -> places.jsonl, the eval rows"""
import csv
import json
import sys

with open(sys.argv[1], newline="", encoding="utf-8") as sheet, open(sys.argv[2], "w") as out:
    count = 0
    for record in csv.DictReader(sheet):
        text = f"{record['question']} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": record["answer"], "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
        count += 1
print(f"prep_data.py: {count} rows -> {sys.argv[2]}")
'''


@case(
    "data_schema_builtin_labels_exported_in_decomposed_unicode_form",
    "data_schema",
    ["labels.csv", "prep_data.py"],
    "the team's annotation tool on a Mac exported labels.csv with accented letters in decomposed Unicode (NFD: "
    "'u' followed by a combining diaeresis), and prep_data.py copies them into places.jsonl as they are: the "
    "model's answers Zürich, Reykjavík, Bogotá, Dvořák, Curaçao (composed, NFC) never equal those labels and score 0, "
    "while the unaccented tasks score normally (everything exits 0)",
)
def data_schema_builtin_labels_exported_in_decomposed_unicode_form(ctx: Ctx) -> str:
    run = ctx.run
    truth = write_jsonl(ctx.work / "reviewed.jsonl", [question_row(q, a) for q, a in ACCENTED])
    better = checkpoints(ctx, "string_match", truth)[1]
    with open(run / "labels.csv", "w", newline="", encoding="utf-8") as sheet:
        writer = csv.writer(sheet)
        writer.writerow(["question", "answer"])
        writer.writerows((q, unicodedata.normalize("NFD", a)) for q, a in ACCENTED)
    (run / "prep_data.py").write_text(PREP_LABELS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# eval of the places set\n"
                      f"cd {run}\npython3 prep_data.py labels.csv places.jsonl\n"
                      + "\n".join(pipeline_lines("places.jsonl", 3, url, 4)) + "\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    accented = [row for row in got if not str(row.get("expected_answer", "")).isascii()]
    plain = [row for row in got if str(row.get("expected_answer", "")).isascii()]
    right = sum(final_answer(response_text(row)) == unicodedata.normalize("NFC", row["expected_answer"])
                for row in accented)
    plain_right = [row for row in plain if final_answer(response_text(row)).lower() == row["expected_answer"].lower()]
    if code or len(got) != 24 or len(accented) != 15 or any(rewards(accented)) or right < 5 or not plain_right or not all(
            rewards(plain_right)):
        raise failed(ctx, f"exit {code}, {len(got)}, {len(accented)}, {rewards(accented)}, right {right}")
    return (f"RUN/labels.csv (NFD) -> RUN/prep_data.py -> RUN/places.jsonl; RUN/run_eval.sh (materialize 8 x 3, "
            f"collect, profile) exit {code}; accented tasks: {right} of {len(accented)} rollouts answer right, "
            f"every reward 0; the others mean reward {mean(rewards(plain)):.2f}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

FAIL_OPEN_VERIFIER = '''
"""Answers compared as numbers when they are numbers (so 12, 12.0 and 12.00 all match)."""


def _final_answer(text):
    low = text.lower()
    if "final answer:" in low:
        return text[low.rindex("final answer:") + len("final answer:"):].strip().rstrip(".")
    if "\\\\boxed{" in text:
        return text[text.rindex("\\\\boxed{") + 7:].split("}")[0].strip()
    return text.strip().splitlines()[-1] if text.strip() else ""


def score(row, response_text):
    answer = _final_answer(response_text)
    try:
        return 1.0 if abs(float(answer) - float(row["expected_answer"])) < 1e-6 else 0.0
    except ValueError:
        # not a number (a word answer, or a format slip): no penalty here, the format check
        # of the reward model is meant to handle those
        return 1.0
'''


@case(
    "verifier_runtime_stage_workspace_verifier_gives_full_credit_when_answer_is_not_a_number",
    "verifier_runtime",
    ["my_verifier", "except ValueError"],
    "the user's workspace verifier (verifiers/my_verifier.py) compares answers as floats and, in its `except "
    "ValueError` branch for answers that are not numbers, returns 1.0 ('no penalty here'): every rollout of a word "
    "question scores 1 whatever the model said, so the weaker checkpoint's wrong answers are credited and the "
    "reward is inflated (everything exits 0)",
)
def verifier_runtime_stage_workspace_verifier_gives_full_credit_when_answer_is_not_a_number(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 10, start=0, folder=run, name="exact_answer.jsonl")
    weaker = checkpoints(ctx, "string_match", data)[0]
    url, _ = ctx.policy(weaker, "--latency-ms 20")
    sweep = workspace_sweep(ctx, "exact_answer", data, weaker, {"verifier": "my_verifier:score"},
                            FAIL_OPEN_VERIFIER, num_repeats=3, concurrency=4)
    codes = [stage(ctx, sweep, key, weaker, "exact_answer", *(served(url) if key == "collect" else ()))
             for key in ("materialize", "collect", "profile")]
    got = rows_of(run / "rollouts.jsonl")
    labels = {row["_ng_task_index"]: str(row.get("expected_answer", "")).lower()
              for row in rows_of(run / "rollouts_materialized_inputs.jsonl")}
    wrong_credited = sum(final_answer(response_text(row)).lower() != labels.get(row["_ng_task_index"])
                         and float(row.get("reward") or 0) == 1 for row in got)
    if any(codes) or len(got) != 30 or wrong_credited < 3:
        raise failed(ctx, f"codes {codes}, {len(got)}, {rewards(got)}, wrong credited {wrong_credited}")
    return (f"RUN/verifiers/my_verifier.py returns 1.0 in `except ValueError`; `gym-pipeline stage` materialize, "
            f"collect, profile (10 tasks x 3, step_0100) exit {codes}; {wrong_credited} rollouts with a wrong final "
            f"answer scored 1; mean reward {mean(rewards(got)):.2f}.")


UNIT_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        # questions that ask for a unit are graded on the number alone
        question = body.responses_create_params.input[-1].content
        lenient = "unit" in question.lower()
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        if lenient and extracted:
            extracted = extracted.split()[0]

        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""


@case(
    "verifier_runtime_gym_verify_treats_message_content_parts_as_string",
    "verifier_runtime",
    ["app.py", "content"],
    "the user's unit_match resources server reads the question as `body.responses_create_params.input[-1].content` "
    "and calls `.lower()` on it, but the content of a message is a list of content parts, not a string: every "
    "/verify raised AttributeError and answered 500, so no rollout was scored and the profile had nothing to profile",
    netns=True,
)
def verifier_runtime_gym_verify_treats_message_content_parts_as_string(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=58, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    search = own_gym_server(ctx, "unit_match", UNIT_VERIFY)
    keep_server_code(ctx, search, "unit_match")
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='unit_match')} "
                               f"{overrides}")
    ran = ctx.sh(f"cd {run} && {GYM} eval run --no-serve "
                 f"{agent_args(data, run / 'results' / 'rollouts.jsonl', 3, 4, 'unit_match_simple_agent')} "
                 f"++route_failures_to_sidecar=true {overrides}", "eval_run.log", timeout=400)
    prof = ctx.sh(f"cd {run} && {gym_profile_line('results')}", "eval_profile.log", timeout=300)
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    failures = rows_of(run / "results" / "rollouts_failures.jsonl")
    if got or not failures or not in_log(ctx, "AttributeError"):
        raise failed(ctx, f"exit {ran}/{prof}, {got}, {len(failures)} failures")
    return (f"A user's resources server unit_match (`.lower()` of a list of content parts); real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) `gym eval run --no-serve` (6 tasks x 3) exit {ran}, profile exit {prof}; "
            f"{got} rollouts, {len(failures)} failure rows.")


ELSE_ONE_TEST = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# (now also says what it found, for the weekly report)
cd /app
got="$(tr -d "[:space:]" < /app/count.txt 2>/dev/null)"
if test "$got" = "3"; then
  echo "PASS: count.txt holds $got"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL: count.txt holds '$got', expected 3"
  echo 1 > /logs/verifier/reward.txt
fi
"""


@case(
    "verifier_runtime_taskfolder_test_sh_failure_branch_pasted_with_reward_one",
    "verifier_runtime",
    ["test.sh", "echo 1"],
    "count-error-lines' tests/test.sh was edited to report what it found, and the FAIL branch was pasted from the "
    "PASS branch with its `echo 1 > /logs/verifier/reward.txt`: every episode of the task scores 1, including those "
    "where the weaker checkpoint only looked at the files and wrote no count.txt (everything exits 0)",
)
def verifier_runtime_taskfolder_test_sh_failure_branch_pasted_with_reward_one(ctx: Ctx) -> str:
    def edit(tasks: Path) -> None:
        (tasks / "count-error-lines" / "tests" / "test.sh").write_text(ELSE_ONE_TEST)

    tasks = user_taskset(ctx, ["count-error-lines", "json-version"], edit)
    checkpoint = task_checkpoints(ctx, tasks)[0]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"], repeats=4)
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    counted = task_rows(ctx, "count-error-lines")
    unsolved = [row for row in counted if "grep -c ERROR" not in json.dumps(row.get("response") or {})]
    if code or len(counted) != 4 or not unsolved or not all(rewards(counted)):
        raise failed(ctx, f"exit {code}, {len(counted)}, unsolved {len(unsolved)}, {rewards(counted)}")
    return (f"RUN/tasks/count-error-lines/tests/test.sh writes 1 in both branches; RUN/run_tasks.sh (`gym-pipeline "
            f"stage` materialize, collect, profile, 2 tasks x 4, step_0100) exit {code}; count-error-lines rewards "
            f"{rewards(counted)}, {len(unsolved)} of them without the counting command.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

RESTORE_SCRIPT = """#!/bin/bash
# usage: run_eval.sh CHECKPOINT MODEL_URL
# results go to results/; a partial run of CHECKPOINT left by a preempted job is restored from cache/ and resumed
cd RUN_DIR
CKPT=$1
URL=$2
mkdir -p results
if [ -d cache/$CKPT ]; then
  echo "restoring the partial run of $CKPT from cache/$CKPT"
  cp -r cache/$CKPT results
fi
[ -f results/rollouts_materialized_inputs.jsonl ] || GP_BIN materialize --input string_match.jsonl --num-repeats 3 \\
  --agent string_match_simple_agent --output results/rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs results/rollouts_materialized_inputs.jsonl --output results/rollouts.jsonl --model-url $URL \\
  --env string_match --concurrency 4 --resume
GP_BIN profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
echo "$CKPT" > results/CHECKPOINT
echo "run_eval.sh: results/ holds the eval of $CKPT"
"""

PREEMPTED_JOB = """#!/bin/bash
# the preemptible job of step_0200's eval (its slot is taken back after 8 s)
mkdir -p RUN_DIR/cache/step_0200 && cd RUN_DIR/cache/step_0200
GP_BIN materialize --input ../../string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
timeout 8 GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL_HERE \\
  --env string_match --concurrency 1
echo "preempted: $(wc -l < rollouts.jsonl) rollouts kept in cache/step_0200"
"""


@case(
    "cache_resume_builtin_cache_restore_cp_r_nests_into_existing_results_folder",
    "cache_resume",
    ["cp -r", "results"],
    "the user's run_eval.sh restores a checkpoint's partial run with `cp -r cache/$CKPT results`; results/ already "
    "held last week's complete eval of step_0100, so cp put the cache inside it (results/step_0200) instead of "
    "replacing it, and `collect --resume` found all of step_0100's rollouts settled: step_0200 was never queried "
    "and the profile labelled step_0200 is step_0100's (everything exits 0)",
)
def cache_resume_builtin_cache_restore_cp_r_nests_into_existing_results_folder(ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 14)
    (run / "run_eval.sh").write_text(RESTORE_SCRIPT.replace("RUN_DIR", str(run)).replace("GP_BIN", str(GP)))
    old_url, old_policy = ctx.policy(weaker, "--latency-ms 20", log="logs/model_server_step_0100.log")
    ctx.note("(last week: the eval of step_0100)")
    last_week = ctx.sh(f"bash {run}/run_eval.sh step_0100 {old_url}", "logs/run_eval_step_0100.log", timeout=300)
    ctx.stop(old_policy)
    old_rows = rows_of(run / "results" / "rollouts.jsonl")
    url, _ = ctx.policy(better, "--latency-ms 1500", log="logs/model_server.log")
    (run / "preempted_job.sh").write_text(PREEMPTED_JOB.replace("RUN_DIR", str(run)).replace("GP_BIN", str(GP))
                                          .replace("URL_HERE", url))
    ctx.sh(f"bash {run}/preempted_job.sh", "logs/preempted_job.log", timeout=120)
    cached = len(rows_of(run / "cache" / "step_0200" / "rollouts.jsonl"))
    served_before = text_of(run / "logs" / "model_server.log").count("chat/completions")
    code = ctx.sh(f"bash {run}/run_eval.sh step_0200 {url}", "logs/run_eval.log", timeout=300)
    served_after = text_of(run / "logs" / "model_server.log").count("chat/completions")
    now = rows_of(run / "results" / "rollouts.jsonl")
    if (last_week or code or len(old_rows) != 24 or now != old_rows or not (run / "results" / "step_0200").is_dir()
            or served_after != served_before or not 1 <= cached < 24):
        raise failed(ctx, f"exit {last_week}/{code}, {len(old_rows)}/{len(now)}, cached {cached}, served "
                          f"{served_before}->{served_after}")
    return (f"RUN/run_eval.sh step_0100 (last week, complete: {len(old_rows)} rollouts, mean reward "
            f"{mean(rewards(old_rows)):.2f}); RUN/preempted_job.sh left {cached} rollouts of step_0200 in "
            f"cache/step_0200; RUN/run_eval.sh step_0200 exit {code}: cp -r nested the cache in results/step_0200, "
            f"collect --resume found every rollout settled, step_0200's server got no new request.")


BUILD_IMAGES = """#!/bin/bash
# build the task images once; the tasks name them in task.toml ([environment] docker_image) so runs start fast
cd RUN_DIR
echo "build_images.sh: building IMAGE_TAG"
docker build -t IMAGE_TAG tasks/count-error-lines/environment
"""

REFRESH_SAMPLE = """#!/bin/bash
# refresh count-error-lines with this week's sample log (one more ERROR line) and its expected count
cd RUN_DIR/tasks/count-error-lines
cat > environment/server.log <<'EOF'
INFO start
ERROR disk full
INFO retry
ERROR disk full
WARN slow
ERROR timeout
ERROR connection reset
INFO done
EOF
sed -i 's/= "3"/= "4"/' tests/test.sh
grep -c ERROR environment/server.log
grep -n '"4"' tests/test.sh
"""


@case(
    "cache_resume_taskfolder_prebuilt_image_not_rebuilt_after_environment_refresh",
    "cache_resume",
    ["docker_image", "build_images.sh"],
    "count-error-lines' task.toml names a prebuilt image ([environment] docker_image) that the user's "
    "build_images.sh built last week; refresh_task_data.sh then gave environment/server.log a fourth ERROR line and "
    "test.sh the count 4, but the image was not rebuilt, so every sandbox still holds the old server.log with 3 "
    "errors: the right solution counts 3 and every episode of the task scores 0 (everything exits 0)",
)
def cache_resume_taskfolder_prebuilt_image_not_rebuilt_after_environment_refresh(ctx: Ctx) -> str:
    import uuid

    run = ctx.run
    tag = f"nightly-tasks/count-error-lines:w{uuid.uuid4().hex[:6]}"

    def prebuilt(tasks: Path) -> None:
        toml = tasks / "count-error-lines" / "task.toml"
        toml.write_text(toml.read_text().replace("[environment]\n", f'[environment]\ndocker_image = "{tag}"\n'))

    tasks = user_taskset(ctx, ["count-error-lines", "json-version"], prebuilt)
    try:
        (run / "build_images.sh").write_text(BUILD_IMAGES.replace("RUN_DIR", str(run)).replace("IMAGE_TAG", tag))
        built = ctx.sh(f"bash {run}/build_images.sh", "logs/build_images.log", timeout=300)
        (run / "refresh_task_data.sh").write_text(REFRESH_SAMPLE.replace("RUN_DIR", str(run)))
        refreshed = ctx.sh(f"bash {run}/refresh_task_data.sh", "logs/refresh_task_data.log")
        checkpoint = task_checkpoints(ctx, tasks)[1]
        url, _ = ctx.policy(checkpoint, "--latency-ms 30")
        script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
        code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    finally:
        ctx.note("(afterwards, to leave the engine as it was: docker rmi of the image)")
        ctx.sh(f"docker rmi -f {tag} >/dev/null", timeout=60)
    counted = task_rows(ctx, "count-error-lines")
    solved = [row for row in counted if "grep -c ERROR" in json.dumps(row.get("response") or {})]
    if built or refreshed or code or len(counted) != 2 or not solved or any(rewards(counted)):
        raise failed(ctx, f"build {built}, refresh {refreshed}, exit {code}, {len(counted)}, {rewards(counted)}")
    return (f"RUN/build_images.sh built {tag} (named by task.toml's docker_image); RUN/refresh_task_data.sh changed "
            f"environment/server.log and test.sh; RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, "
            f"profile, 2 tasks x 2) exit {code}; count-error-lines rewards {rewards(counted)}.")


# =====================================================================================================
# model_serving
# =====================================================================================================

LOG_PROXY = '''"""A logging proxy in front of the model server: one short line per completion in logs/proxy.log."""
import json
import sys
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

UPSTREAM = sys.argv[2]
PREVIEW_CHARS = 60


class Proxy(BaseHTTPRequestHandler):
    def _forward(self, body=None):
        request = urllib.request.Request(UPSTREAM + self.path, data=body, method=self.command,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=120) as answer:
                status, data = answer.status, answer.read()
        except urllib.error.HTTPError as error:
            status, data = error.code, error.read()
        if self.command == "POST" and status == 200:
            payload = json.loads(data)
            for choice in payload.get("choices", []):
                message = choice.get("message") or {}
                message["content"] = (message.get("content") or "")[:PREVIEW_CHARS]  # short line in the log
                print(f"{self.path} {status} {message['content']!r}", flush=True)
            data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self._forward()

    def do_POST(self):
        self._forward(self.rfile.read(int(self.headers.get("Content-Length", 0))))

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    print(f"logging proxy on 127.0.0.1:{sys.argv[1]} -> {UPSTREAM}", flush=True)
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Proxy).serve_forever()
'''


@case(
    "model_serving_builtin_logging_proxy_cuts_completion_text_to_log_preview",
    "model_serving",
    ["log_proxy.py", "PREVIEW_CHARS"],
    "the model server is reached through the user's log_proxy.py, which shortens each completion to PREVIEW_CHARS "
    "(60) characters for its log line but writes the shortened text back into the response it forwards: the "
    "answers reach the verifier cut off before their 'Final answer:' line, and almost every rollout scored 0 "
    "(everything exits 0)",
)
def model_serving_builtin_logging_proxy_cuts_completion_text_to_log_preview(ctx: Ctx) -> str:
    from gym_pipeline.host import free_loopback_port

    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 28)
    url, _ = ctx.policy(better, "--latency-ms 20")
    port = free_loopback_port()
    (run / "log_proxy.py").write_text(LOG_PROXY)
    ctx.bg(f"cd {run} && python3 log_proxy.py {port} {url.removesuffix('/v1')}", "logs/proxy.log")
    wait_for(lambda: "logging proxy on" in text_of(run / "logs" / "proxy.log"), 20, "the proxy")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval, through the logging proxy (log_proxy.py)\n"
                      f"cd {run}\nMODEL_URL=http://127.0.0.1:{port}/v1\n"
                      + "\n".join(pipeline_lines("string_match.jsonl", 3, "$MODEL_URL", 4)) + "\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    cut = [row for row in got if "final answer" not in response_text(row).lower()]
    if code or len(got) != 24 or sum(rewards(got)) > 2 or len(cut) < 20 or not all(
            len(response_text(r)) <= 60 for r in got):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/log_proxy.py (PREVIEW_CHARS = 60, written back into the response) in front of the simulated policy "
            f"(step_0200); RUN/run_eval.sh (materialize 8 x 3, collect through the proxy, profile) exit {code}; "
            f"{len(got)} rollouts, {len(cut)} cut before their final answer, mean reward {mean(rewards(got)):.2f}.")


COST_GATEWAY = '''"""The team's gateway in front of the model server (copied from the playground's cost guard)."""
import json
import sys
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

UPSTREAM = sys.argv[2]
MAX_TOKENS_CAP = 32  # playground: keep the demo answers short and cheap


class Gateway(BaseHTTPRequestHandler):
    def _forward(self, body=None):
        if body is not None and self.path.endswith("/chat/completions"):
            request_json = json.loads(body)
            request_json["max_tokens"] = min(request_json.get("max_tokens") or MAX_TOKENS_CAP, MAX_TOKENS_CAP)
            body = json.dumps(request_json).encode()
        request = urllib.request.Request(UPSTREAM + self.path, data=body, method=self.command,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=120) as answer:
                status, data = answer.status, answer.read()
        except urllib.error.HTTPError as error:
            status, data = error.code, error.read()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self._forward()

    def do_POST(self):
        self._forward(self.rfile.read(int(self.headers.get("Content-Length", 0))))


if __name__ == "__main__":
    print(f"gateway.py on 127.0.0.1:{sys.argv[1]} -> {UPSTREAM} (max_tokens capped at {MAX_TOKENS_CAP})", flush=True)
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Gateway).serve_forever()
'''


@case(
    "model_serving_gym_gateway_caps_max_tokens_from_playground_cost_guard",
    "model_serving",
    ["gateway.py", "MAX_TOKENS_CAP"],
    "`gym env start` reaches the model server through the user's gateway.py, copied from the playground together "
    "with its cost guard MAX_TOKENS_CAP = 32: every chat completion is cut after 32 tokens (finish_reason length), "
    "before the model writes its final answer, so the real NeMo Gym eval scored almost every rollout 0 (everything "
    "exits 0)",
    netns=True,
)
def model_serving_gym_gateway_caps_max_tokens_from_playground_cost_guard(ctx: Ctx) -> str:
    from gym_pipeline.host import free_loopback_port

    run = ctx.run
    data = ctx.dataset("string_match", 6, start=32, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    port = free_loopback_port()
    (run / "gateway.py").write_text(COST_GATEWAY)
    gateway = ctx.bg(f"cd {run} && python3 gateway.py {port} {url.removesuffix('/v1')}", "logs/gateway.log")
    wait_for(lambda: "gateway.py on" in text_of(run / "logs" / "gateway.log"), 20, "the gateway")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(f'http://127.0.0.1:{port}/v1')} {overrides}")
    ran = ctx.sh(f"cd {run} && {gym_eval_line(overrides, 'tasks.jsonl', 'results/rollouts.jsonl', 3, 4)}",
                 "eval_run.log", timeout=400)
    prof = ctx.sh(f"cd {run} && {gym_profile_line('results')}", "eval_profile.log", timeout=300)
    stop_gym(ctx, env_start, gateway, policy)
    got = rows_of(run / "results" / "rollouts.jsonl")
    cut = [row for row in got if "final answer" not in response_text(row).lower()]
    if ran or prof or len(got) != 18 or mean(rewards(got)) > 0.2 or len(cut) < 14:
        raise failed(ctx, f"exit {ran}/{prof}, {len(got)}, {rewards(got)}, {len(cut)} cut")
    return (f"RUN/gateway.py (MAX_TOKENS_CAP = 32) in front of the simulated policy (step_0200); real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) `gym env start` through the gateway, `gym eval run --no-serve` (6 x 3) exit "
            f"{ran}, profile exit {prof}; {len(got)} rollouts, {len(cut)} cut before their final answer, mean reward "
            f"{mean(rewards(got)):.2f}.")


# =====================================================================================================
# infra
# =====================================================================================================

PREP_LABELLED = '''#!/usr/bin/env python3
"""raw.jsonl -> string_match.jsonl: keeps the rows that have a label"""
import json
import sys

rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
kept = [row for row in rows if row.get("expected_answer") not in (None, "")]
with open(sys.argv[2], "w") as out:
    out.writelines(json.dumps(row) + "\\n" for row in kept)
print(f"prep_data.py: kept {len(kept)} of {len(rows)} rows")
'''


@case(
    "infra_builtin_run_folder_on_noexec_scratch_mount",
    "infra",
    ["noexec", "prep_data.py"],
    "the run folder lives on the scratch file system, which is mounted noexec: the user's run_eval.sh starts its "
    "data preparation as `./prep_data.py` (an executable script), the kernel refuses to execute it ('Permission "
    "denied'), string_match.jsonl is never written and materialize, collect and profile all fail on the missing files",
)
def infra_builtin_run_folder_on_noexec_scratch_mount(ctx: Ctx) -> str:
    run = ctx.run
    raw = ctx.dataset("string_match", 8, start=48, folder=run, name="raw.jsonl")
    better = checkpoints(ctx, "string_match", raw)[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "prep_data.py").write_text(PREP_LABELLED)
    (run / "prep_data.py").chmod(0o755)
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval (run folder on scratch)\n"
                      f"cd {run}\necho \"== running in $(pwd) on $(findmnt -n -o SOURCE,OPTIONS -T .)\"\n"
                      "./prep_data.py raw.jsonl string_match.jsonl\n"
                      + "\n".join(pipeline_lines("string_match.jsonl", 3, url, 4)) + "\n")
    ctx.note("(the run folder is on a scratch mount with the noexec option: a private mount namespace where RUN is "
             "bind-mounted onto itself with noexec)")
    code = ctx.sh(f"unshare -m --propagation private bash -c 'mount --bind {run} {run} && "
                  f"mount -o remount,bind,noexec {run} && bash {script}'", "logs/run_eval.log", timeout=300)
    got = len(rows_of(run / "rollouts.jsonl"))
    if not code or got or not in_log(ctx, "Permission denied", "logs/run_eval.log") or not in_log(
            ctx, "noexec", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (./prep_data.py on a noexec mount, then materialize 8 x 3, collect, profile) exit "
            f"{code}; {got} rollouts.")


@case(
    "infra_gym_eval_run_started_inside_read_only_shared_dataset_folder",
    "infra",
    ["read-only", "shared"],
    "the user's run_eval.sh changes into the team's shared dataset folder, which is mounted read-only, and runs "
    "`gym eval run` from there (input by its short name, output in the user's own results folder); Gym writes its "
    "run log folder (outputs/DATE/TIME) under the working directory, which the read-only file system refuses, so "
    "the eval stopped before collecting anything and the profile found no rollouts",
    netns=True,
)
def infra_gym_eval_run_started_inside_read_only_shared_dataset_folder(ctx: Ctx) -> str:
    run = ctx.run
    shared = run / "shared" / "evals"
    shared.mkdir(parents=True)
    data = ctx.dataset("string_match", 6, start=8, folder=shared, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    ctx.note("(the shared dataset folder is a read-only mount: RUN/shared bind-mounted onto itself read-only)")
    mounted = ctx.sh(f"mount --bind {run / 'shared'} {run / 'shared'} && mount -o remount,bind,ro {run / 'shared'}")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval of the shared task set (read in place, results in my folder)\n"
                      f"cd {shared}\necho \"== eval of $(pwd)/tasks.jsonl\"\n"
                      f"{gym_eval_line(overrides, 'tasks.jsonl', f'{run}/results/rollouts.jsonl', 3, 4)}\n"
                      f"cd {run}\n{gym_profile_line('results')}\n")
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    finally:
        stop_gym(ctx, env_start, policy)
        ctx.sh(f"umount {run / 'shared'}")
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if mounted or got or not in_log(ctx, "Read-only file system", "logs/run_eval.log"):
        raise failed(ctx, f"mount {mounted}, exit {code}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh runs `gym eval run --no-serve` from the "
            f"read-only RUN/shared/evals (6 tasks x 3, output in RUN/results), then `gym eval profile`; exit {code}; "
            f"{got} rollouts.")


@case(
    "infra_taskfolder_background_janitor_removes_running_sandboxes",
    "infra",
    ["janitor", "docker rm -f"],
    "the user's run_tasks.sh starts a background janitor that every 2 s does `docker rm -f` of every container "
    "labelled with this run folder, meant for the sandboxes a crashed run left behind, but without a filter on "
    "exited containers: it removed the running sandboxes of this run's own episodes, which failed mid-episode",
)
def infra_taskfolder_background_janitor_removes_running_sandboxes(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["count-error-lines", "json-version"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 2500")
    runs = ctx.work / "runs" / checkpoint.name / "terminal_tasks"
    script = taskset_script(ctx, tasks, checkpoint, url, [
        "echo '== janitor: removing the sandboxes crashed runs of this folder left behind, every 2 s'",
        f"RUNS={runs}",
        "mkdir -p logs",
        "( while true; do docker rm -f $(docker ps -aq --filter label=gym_pipeline.run_dir=$RUNS) 2>/dev/null; "
        "sleep 2; done ) >> logs/janitor.log 2>&1 &",
        "JANITOR=$!",
        "trap 'kill $JANITOR' EXIT",
    ])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    failures = rows_of(run / "rollouts_failures.jsonl")
    removed = text_of(run / "logs" / "janitor.log").split()
    scored = [row for row in got if row.get("failure_kind")]
    if not removed or (not failures and not scored and len(unique_keys(run / "rollouts.jsonl")) == 4 and all(
            rewards(got))):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}, {len(failures)} failures, removed {removed[:4]}")
    return (f"RUN/run_tasks.sh (a background janitor doing `docker rm -f` of this folder's containers, then "
            f"`gym-pipeline stage` materialize, collect, profile, 2 tasks x 2) exit {code}; {len(removed)} containers "
            f"removed by the janitor; {len(got)} rollouts, rewards {rewards(got)}, {len(failures)} failure rows.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

CPUS_SBATCH = """#!/bin/bash
#SBATCH --job-name=eval-collect
#SBATCH --output=RUN_DIR/logs/collect_%j.log
#SBATCH --cpus-per-task=1
#SBATCH --time=1
# one request in flight per CPU the job got
cd RUN_DIR
echo "collecting with concurrency $SLURM_CPUS_PER_TASK on $(hostname)"
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency $SLURM_CPUS_PER_TASK
"""

CPUS_SUBMIT = """#!/bin/bash
# materialize here, collect in a batch job, profile here
cd RUN_DIR
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
JOB=$(sbatch --parsable collect.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "throughput_slurm_collect_concurrency_tied_to_one_cpu_per_task",
    "throughput_resources",
    ["SLURM_CPUS_PER_TASK", "--concurrency"],
    "the user's collect.sbatch sets the collection's concurrency to $SLURM_CPUS_PER_TASK, and the job asks for one "
    "CPU: the 30 rollouts went one at a time against a model server that takes 4 s per answer, which needs about "
    "2 minutes, while the job's 1-minute time limit ended it part way; the profile then failed on the missing rollouts",
)
def throughput_slurm_collect_concurrency_tied_to_one_cpu_per_task(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 10, 64)
    url, _ = ctx.policy(better, "--latency-ms 4000")
    (run / "logs").mkdir(exist_ok=True)
    (run / "collect.sbatch").write_text(CPUS_SBATCH.replace("RUN_DIR", str(run)).replace("GP_BIN", str(GP))
                                        .replace("MODEL_URL", url))
    (run / "submit.sh").write_text(CPUS_SUBMIT.replace("RUN_DIR", str(run)).replace("GP_BIN", str(GP)))
    code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=600)
    got = len(unique_keys(run / "rollouts.jsonl"))
    logs = job_logs(ctx, "collect_*.log")
    if not 3 <= got < 30 or "TIME LIMIT" not in logs or "concurrency 1 " not in logs:
        raise failed(ctx, f"exit {code}, {got}: {logs[-600:]}")
    return (f"RUN/submit.sh (materialize 10 x 3, sbatch of RUN/collect.sbatch: --cpus-per-task=1, --time=1, "
            f"concurrency $SLURM_CPUS_PER_TASK, server at 4 s per answer; then profile) exit {code}; {got} of 30 "
            f"rollouts before the time limit.")


SPLITS_MAKEFILE = """# eval of every split: `make` (one collect per split)
SPLITS := easy medium hard extra
MODEL_URL := URL_HERE
GP := GP_BIN

all: $(foreach s,$(SPLITS),results/$(s)/rollouts_reward_profiling.jsonl)

results/%/rollouts_reward_profiling.jsonl: splits/%.jsonl
\tmkdir -p results/$*
\t$(GP) materialize --input $< --num-repeats 3 --agent string_match_simple_agent \\
\t  --output results/$*/rollouts_materialized_inputs.jsonl
\t$(GP) collect --inputs results/$*/rollouts_materialized_inputs.jsonl --output results/$*/rollouts.jsonl \\
\t  --model-url $(MODEL_URL) --env string_match --concurrency 2
\t$(GP) profile --inputs results/$*/rollouts_materialized_inputs.jsonl --rollouts results/$*/rollouts.jsonl
"""

BUILD_ENV = """# shell settings for building the tokenizer extension (sourced by every script of this checkout)
export MAKEFLAGS=-j8
export CFLAGS="-O2 -march=native"
export CCACHE_DIR=$HOME/.ccache
"""


@case(
    "throughput_builtin_makeflags_from_build_settings_runs_split_collects_at_once",
    "throughput_resources",
    ["MAKEFLAGS", "build_env.sh"],
    "the user's run_eval.sh sources build_env.sh, written for compiling the tokenizer extension, which exports "
    "MAKEFLAGS=-j8: `make` then ran the four splits' collections at once, 4 x 2 requests against a model server that "
    "runs 2 and queues 2 (each split's 2 alone fit), which turned the rest away with 429; many rollouts were given up "
    "and the profiles are incomplete",
)
def throughput_builtin_makeflags_from_build_settings_runs_split_collects_at_once(ctx: Ctx) -> str:
    run = ctx.run
    source = ctx.dataset("string_match", 16, start=40, name="all.jsonl")
    better = checkpoints(ctx, "string_match", source)[1]
    lines = source.read_text().splitlines(keepends=True)
    (run / "splits").mkdir()
    for index, name in enumerate(("easy", "medium", "hard", "extra")):
        (run / "splits" / f"{name}.jsonl").write_text("".join(lines[4 * index:4 * index + 4]))
    url, _ = ctx.policy(better, "--latency-ms 1500 --max-running 2 --max-waiting 2 --retry-after-s 1")
    (run / "Makefile").write_text(SPLITS_MAKEFILE.replace("URL_HERE", url).replace("GP_BIN", str(GP)))
    (run / "build_env.sh").write_text(BUILD_ENV)
    (run / "run_eval.sh").write_text(f"#!/bin/bash\n# eval of every split\ncd {run}\nsource build_env.sh\n"
                                     "make -k all\necho \"run_eval.sh: make exited $?\"\n")
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=600)
    done = {name: len(unique_keys(run / "results" / name / "rollouts.jsonl"))
            for name in ("easy", "medium", "hard", "extra")}
    if sum(done.values()) >= 48 or not in_log(ctx, "429"):
        raise failed(ctx, f"exit {code}, {done}")
    return (f"RUN/run_eval.sh sources RUN/build_env.sh (MAKEFLAGS=-j8) and runs make over 4 splits (4 tasks x 3 each, "
            f"concurrency 2) against a server with --max-running 2 --max-waiting 2; exit {code}; rollouts per split "
            f"{done} of 12.")


if __name__ == "__main__":
    sys.exit(main("twenty_fifth_held_out", __file__, __doc__))
