"""Build the SEVENTIETH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/seventieth_held_out.py --out tests/data/diagnosis_corpus/seventieth_held_out [--only CASE ...]

This set was written after the sixty-nine earlier sets (first_held_out.py ... sixty_ninth_held_out.py), from
the guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`), the real NeMo
Gym 0.7.0 in a loopback-only network namespace (with a user's own resources server and settings), Slurm batch jobs,
job arrays, job steps and model-server jobs on the single-node cluster, and the user's own shell tooling, sbatch
scripts, submit wrappers, data-preparation scripts and verifiers. The output of
every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand
but the user's own inputs (data, scripts, settings, verifier code). Each case injects one cause, different in
mechanism from those of the sixty-nine earlier sets, and each recipe checks that its fault really happened (it
raises RecipeError otherwise, and the case is not written). About half of the failures are silent: every command
exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare,
mount), Slurm (SLURM_CONF), NeMo Gym 0.7.0
(GYM_PIPELINE_NEMO_GYM), and PYTHONPATH set to this checkout. Run it from a foreground shell.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import checkpoints, failed, stop_gym  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_first_held_out import keys_of  # noqa: E402
from fifty_ninth_held_out import gym_own_server, own_eval_script, sbatch_file  # noqa: E402
from fortieth_held_out import truth_checkpoints  # noqa: E402
from recipes import Ctx, case, main, replace_verify, rows_of, text_of  # noqa: E402
from sixty_third_held_out import mean_of, prompt_of, scancel_ids  # noqa: E402
from thirtieth_held_out import gym_rows  # noqa: E402
from thirty_fifth_held_out import pipeline  # noqa: E402
from twenty_fifth_held_out import job_logs  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_sixth_held_out import slurm_script  # noqa: E402
from twenty_third_held_out import write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def run_submit(ctx: Ctx, template: str, timeout: float = 500, env: dict | None = None, log: str = "logs/submit.log",
               name: str = "submit.sh", **values: str) -> int:
    """RUN/<name> from `template`, run as the user would; every job it recorded in job_ids.txt cancelled after."""
    (ctx.run / "logs").mkdir(exist_ok=True)
    (ctx.run / name).write_text(slurm_script(template, ctx, **values))
    try:
        return ctx.sh(f"bash {ctx.run}/{name}", log, timeout=timeout, env=env)
    finally:
        scancel_ids(ctx, *text_of(ctx.run / "job_ids.txt").split())


def run_script(ctx: Ctx, comment: str, body: str, folder: Path | None = None, name: str = "run_eval.sh") -> Path:
    """The user's own run script: `cd` into its folder, then `body` (shell lines)."""
    folder = folder or ctx.run
    path = folder / name
    path.write_text(f"#!/bin/bash\n# {comment}\ncd {folder}\n{body}")
    return path


def rewards_by_label(rows: list[dict]) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    for row in rows:
        out.setdefault(str(row.get("expected_answer")), []).append(float(row.get("reward") or 0.0))
    return out


SUBMIT = """#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd RUN_DIR
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do squeue -h -j $JOB -o '%i %j %T %M %r' 2>/dev/null; sleep 5; done
echo "job $JOB finished"
"""


# =====================================================================================================
# healthy
# =====================================================================================================

SLASHES = [("What does the speed unit km/h stand for?", "kilometres per hour"),
           ("Simplify the fraction 6/8 to lowest terms.", "3/4"),
           ("What does the abbreviation w/o mean?", "without"),
           ("Which HTTP/1.1 status code means Not Found?", "404"),
           ("What is 1/2 plus 1/4, as a fraction?", "3/4"),
           ("In the date format dd/mm/yyyy, what does the first field hold?", "day"),
           ("What is 10/5?", "2"),
           ("Which unit is m/s^2 a unit of?", "acceleration")]

PANDAS_PREP = '''"""prep.py: the units-and-fractions quiz (questions.csv) as string_match tasks, written with pandas."""
import pandas as pd

df = pd.read_csv("questions.csv", dtype=str, keep_default_na=False)
suffix = " End your response with 'Final answer: <answer>'."
tasks = pd.DataFrame({
    "responses_create_params": [{"input": [{"role": "user", "type": "message",
                                            "content": [{"type": "input_text", "text": q + suffix}]}]}
                                for q in df["question"]],
    "expected_answer": df["answer"],
    "extraction_mode": "final_answer",
    "case_sensitive": False,
})
tasks.to_json("tasks.jsonl", orient="records", lines=True)
print(f"wrote {len(tasks)} tasks to tasks.jsonl")
'''


@case(
    "healthy_builtin_prep_writes_tasks_with_pandas_to_json_which_escapes_every_slash_in_prompts_and_labels",
    "healthy",
    [],
    "nothing is wrong: the user's prep.py writes the units-and-fractions quiz with pandas `to_json(orient='records', "
    "lines=True)`, which escapes every forward slash ('km\\/h', '3\\/4') in prompts and labels; the task file looks "
    "corrupted next to questions.csv, but '\\/' is a legal JSON escape of '/', every reader decodes it back, and "
    "materialize, collect and profile completed with the labels '3/4' matching the model's answers",
)
def healthy_builtin_prep_writes_tasks_with_pandas_to_json_which_escapes_every_slash_in_prompts_and_labels(
        ctx: Ctx) -> str:
    run = ctx.run
    lines = ["question,answer"] + [f'"{q}","{a}"' for q, a in SLASHES]
    (run / "questions.csv").write_text("\n".join(lines) + "\n")
    (run / "prep.py").write_text(PANDAS_PREP)
    code0 = ctx.sh(f"cd {run} && {recipes.PY} prep.py", "logs/prep.log")
    _, better = truth_checkpoints(ctx, SLASHES)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run_script(ctx, "weekly eval of the units-and-fractions quiz", pipeline(url, data="tasks.jsonl"))
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    raw = text_of(run / "tasks.jsonl")
    same = [prompt_of(r) for r in rows_of(run / "tasks.jsonl")] == [prompt_of(question_row(q, a)) for q, a in SLASHES]
    fractions = rewards_by_label(got).get("3/4", [])
    if code0 or code or "\\/" not in raw or not same or len(keys_of(got)) != 24 or not any(fractions) \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code0}/{code}, {len(got)}, same {same}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/questions.csv (8 questions with slashes); RUN/prep.py (pandas to_json, escapes '/' as '\\/') exit "
            f"{code0}; RUN/run_eval.sh (materialize 8 x 3, collect, profile) against step_0200 exit {code}; "
            f"{len(keys_of(got))} of 24 rollouts, mean reward {mean_of(got):.2f}.")


POLL_LINES = """for i in $(seq 60); do
  CODE=$(curl -s -o /dev/null -w '%{http_code}' $MODEL_URL/models)
  echo "$(date +%T) GET $MODEL_URL/models -> $CODE"
  [ "$CODE" = 200 ] && break
  sleep 1
done
"""


@case(
    "healthy_builtin_run_script_polls_loading_model_server_and_logs_503_until_it_answers",
    "healthy",
    [],
    "nothing is wrong: the model server was started just before the eval and is still loading its checkpoint, "
    "answering 503 on every route for several seconds; the user's run_eval.sh polls /v1/models once a second and "
    "logs every 503 before the first 200, which looks like a failing server, but it only starts materialize, collect "
    "and profile once the server answers 200, and every rollout was collected and verified",
)
def healthy_builtin_run_script_polls_loading_model_server_and_logs_503_until_it_answers(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=30, folder=run, name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20 --slow-start-s 7")
    script = run_script(ctx, "weekly eval: wait for the freshly started model server, then evaluate",
                        f"MODEL_URL={url}\n{POLL_LINES}{pipeline('$MODEL_URL')}")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or log.count("-> 503") < 3 or "-> 200" not in log or len(keys_of(got)) != 24:
        raise failed(ctx, f"exit {code}, {len(got)}: {log[-1500:]}")
    return (f"model server started with a 7 s load (503 meanwhile); RUN/run_eval.sh (poll /v1/models, then materialize "
            f"8 x 3, collect, profile) exit {code}; {log.count('-> 503')} polls answered 503 before 200; "
            f"{len(keys_of(got))} of 24 rollouts, mean reward {mean_of(got):.2f}.")


ONE_CPU_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
# one CPU is plenty: collect only waits on the model server, so it keeps 16 requests in flight
cd RUN_DIR
echo "job $SLURM_JOB_ID on $(hostname): $SLURM_CPUS_PER_TASK CPU(s) allocated, collect concurrency 16"
PIPELINE"""


@case(
    "healthy_slurm_one_cpu_job_keeps_sixteen_requests_in_flight_from_collect",
    "healthy",
    [],
    "nothing is wrong: the user's eval.sbatch asks for a single CPU (`--cpus-per-task=1`) and runs collect with "
    "`--concurrency 16`, and the job log says so; sixteen concurrent requests on one CPU look like an oversubscribed "
    "job, but collect only waits on the model server (its work is I/O), and the job ran materialize, collect and "
    "profile to the end with every rollout collected",
)
def healthy_slurm_one_cpu_job_keeps_sixteen_requests_in_flight_from_collect(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=50, folder=run, name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 40")
    sbatch_file(ctx, ONE_CPU_SBATCH, PIPELINE=pipeline("$MODEL_URL", concurrency="16"))
    code = run_submit(ctx, SUBMIT, env={**ctx.env, "MODEL_URL": url})
    job = job_logs(ctx, "eval_*.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or "1 CPU(s) allocated" not in job or len(keys_of(got)) != 24 \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)}: {job[-1500:]}")
    return (f"RUN/eval.sbatch (`--cpus-per-task=1`; materialize 8 x 3, collect --concurrency 16, profile) submitted by "
            f"RUN/submit.sh exit {code}; {len(keys_of(got))} of 24 rollouts, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# model_serving
# =====================================================================================================

CKPT_SERVE_SBATCH = """#!/bin/bash
#SBATCH --job-name=serve-policy
#SBATCH --output=RUN_DIR/logs/serve_%j.log
#SBATCH --time=15
#SBATCH --ntasks=1
# the team's model-server job. Which checkpoint: `CKPT=/path/to/step sbatch serve.sbatch`
# (default: the released checkpoint)
CKPT=${CKPT:-RELEASED}
echo "serving $CKPT"
GP_BIN serve-policy --port 0 --ready-file RUN_DIR/server_${SLURM_JOB_ID}.url --checkpoint $CKPT --latency-ms 20
"""

CKPT_SUBMIT = """#!/bin/bash
# submit.sh: serve this week's checkpoint, evaluate it, stop the server
cd RUN_DIR
SERVER=$(sbatch --parsable serve.sbatch NEWCKPT)
echo $SERVER >> job_ids.txt
echo "model server job $SERVER for NEWCKPT"
for i in $(seq 90); do [ -s server_$SERVER.url ] && break; sleep 2; done
MODEL_URL=$(cat server_$SERVER.url)
echo "model server up at $MODEL_URL"
PIPELINE
scancel $SERVER
"""


@case(
    "model_serving_slurm_serve_job_takes_checkpoint_from_ckpt_variable_so_checkpoint_given_as_argument_is_ignored",
    "model_serving",
    ["CKPT", "serve.sbatch", "argument", "step_0100", "checkpoint"],
    "the team's serve.sbatch takes the checkpoint to serve from the CKPT environment variable (`CKPT=${CKPT:-<the "
    "released step_0100>}`) and ignores its arguments; the user's submit.sh passes this week's step_0200 as an "
    "argument (`sbatch serve.sbatch .../step_0200`), so the job served the released step_0100 (its log says 'serving "
    ".../step_0100') and the eval measured the old checkpoint; every command exits 0. The checkpoint must be given as "
    "CKPT=... (or serve.sbatch must read $1)",
)
def model_serving_slurm_serve_job_takes_checkpoint_from_ckpt_variable_so_checkpoint_given_as_argument_is_ignored(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 10, start=20, folder=run, name="string_match.jsonl")
    released, better = checkpoints(ctx, "string_match", data)
    (run / "logs").mkdir(exist_ok=True)
    (run / "serve.sbatch").write_text(slurm_script(CKPT_SERVE_SBATCH, ctx, RELEASED=str(released)))
    code = run_submit(ctx, CKPT_SUBMIT, NEWCKPT=str(better), PIPELINE=pipeline("$MODEL_URL"))
    served = job_logs(ctx, "serve_*.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or f"serving {released}" not in served or len(keys_of(got)) != 30:
        raise failed(ctx, f"exit {code}, {len(got)}: {served[-800:]} {log_of(ctx, 'submit.log')[-1200:]}")
    return (f"RUN/serve.sbatch (checkpoint from CKPT, default the released step_0100); RUN/submit.sh (`sbatch "
            f"serve.sbatch .../step_0200`, materialize 10 x 3, collect, profile) exit {code}; the job served step_0100; "
            f"{len(keys_of(got))} of 30 rollouts, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================


@case(
    "throughput_builtin_collect_concurrency_32_against_shared_server_admitting_two_running_and_two_waiting",
    "throughput_resources",
    ["--concurrency", "--max-waiting", "--max-running", "429", "overloaded"],
    "the team's shared model server admits two requests at a time and lets two more wait (`--max-running 2 "
    "--max-waiting 2`, for its latency target) and answers 429 'overloaded' beyond that; the user's run_eval.sh "
    "runs collect with `--concurrency 32`, so most requests were turned away again and again until collect gave "
    "them up: most rollouts went to the failure sidecar. The collect concurrency must stay within what the server "
    "admits (4)",
)
def throughput_builtin_collect_concurrency_32_against_shared_server_admitting_two_running_and_two_waiting(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 10, start=72, folder=run, name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    ctx.note("(the team's shared model server: serve-policy --max-running 2 --max-waiting 2)")
    url, _ = ctx.policy(better, "--latency-ms 300 --max-running 2 --max-waiting 2")
    script = run_script(ctx, "weekly eval, at full speed", pipeline(url, concurrency="32"))
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    sidecar = rows_of(run / "rollouts_failures.jsonl")
    if len(keys_of(got)) > 20 or not any(r.get("_ng_failure_http_status") == 429 for r in sidecar):
        raise failed(ctx, f"exit {code}, {len(got)}, {len(sidecar)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"shared server (--max-running 2 --max-waiting 2, 300 ms a completion); RUN/run_eval.sh (materialize "
            f"10 x 3, collect --concurrency 32, profile) exit {code}; {len(keys_of(got))} of 30 rollouts collected, "
            f"{len(sidecar)} failed attempts (429 overloaded) in the sidecar.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

RESUME_LINES = """echo "== eval against $MODEL_URL"
GP_BIN materialize --input ../string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
# --resume: a collect cut short (preemption, Ctrl-C) picks up where it stopped
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $MODEL_URL \\
  --env string_match --concurrency 4 --resume
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "cache_resume_builtin_week_folder_cloned_from_last_weeks_with_cp_a_so_collect_resume_finds_every_rollout_settled",
    "cache_resume",
    ["cp -a", "--resume", "rollouts.jsonl", "week_49", "stale"],
    "the user sets up each week's folder by cloning last week's (`cp -a week_48 week_49`, to keep run_eval.sh and "
    "its settings) and runs run_eval.sh there against this week's server; the clone still holds last week's "
    "rollouts.jsonl, and run_eval.sh collects with `--resume`, so every (task, rollout) key counted as settled: "
    "nothing was sent to the new checkpoint and week_49's profile is last week's step_0100 numbers; every command "
    "exits 0. The cloned folder must be cleared of rollouts (or collect run without --resume)",
)
def cache_resume_builtin_week_folder_cloned_from_last_weeks_with_cp_a_so_collect_resume_finds_every_rollout_settled(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=60, folder=run, name="string_match.jsonl")
    baseline, better = checkpoints(ctx, "string_match", data)
    week48 = run / "week_48"
    week48.mkdir()
    (week48 / "run_eval.sh").write_text("#!/bin/bash\n# the weekly eval: run inside the week's folder with "
                                        "MODEL_URL set\ncd \"$(dirname \"$0\")\"\n"
                                        + RESUME_LINES.replace("GP_BIN", str(recipes.GP)))
    url_old, old_policy = ctx.policy(baseline, "--latency-ms 10", log="logs/model_server_week_48.log")
    ctx.note("(last week: week_48 against step_0100)")
    code0 = ctx.sh(f"cd {week48} && MODEL_URL={url_old} bash run_eval.sh", "logs/run_eval_week_48.log", timeout=300)
    ctx.stop(old_policy)
    url, _ = ctx.policy(better, "--latency-ms 10", log="logs/model_server_week_49.log")
    code1 = ctx.sh(f"cd {run} && cp -a week_48 week_49 && ls week_49", "logs/setup_week_49.log")
    code = ctx.sh(f"cd {run}/week_49 && MODEL_URL={url} bash run_eval.sh", "logs/run_eval_week_49.log", timeout=300)
    old = rows_of(week48 / "rollouts.jsonl")
    new = rows_of(run / "week_49" / "rollouts.jsonl")
    if code0 or code1 or code or len(keys_of(old)) != 24 or json.dumps(old) != json.dumps(new) \
            or not (run / "week_49" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code0}/{code1}/{code}, {len(old)}, {len(new)}: "
                          f"{log_of(ctx, 'run_eval_week_49.log')[-1500:]}")
    return (f"RUN/week_48 (run_eval.sh: materialize 8 x 3, collect --resume, profile) against step_0100 exit {code0}; "
            f"`cp -a week_48 week_49`; week_49/run_eval.sh against step_0200 exit {code}; week_49's {len(new)} "
            f"rollouts are week_48's, mean reward {mean_of(new):.2f}.")


# =====================================================================================================
# infra
# =====================================================================================================

LOGIN_ENV = """# login_node_env.sh: the cluster's shell setup for the shared login nodes (from the admins' wiki)
export PROJECT=evals
export PATH=GP_DIR:$PATH
# keep one user from exhausting a shared login node: cap every process's address space at 200 MB
ulimit -v 204800
"""

LIMITED_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
# same shell setup as on the login node
source RUN_DIR/login_node_env.sh
cd RUN_DIR
echo "weekly eval against $MODEL_URL (address space limit: $(ulimit -v) kB)"
PIPELINE"""


@case(
    "infra_slurm_eval_job_sources_login_node_env_whose_200_mb_address_space_cap_stops_python_mapping_libraries",
    "infra",
    ["ulimit -v", "address space", "login_node_env.sh", "failed to map segment", "virtual memory"],
    "the user's eval.sbatch sources the login nodes' shell setup (login_node_env.sh from the admins' wiki) to get the "
    "same PATH as on the login node; that file also caps every process's address space at 200 MB (`ulimit -v "
    "204800`, to protect the shared login nodes), and in the job the Python tools could not map their native "
    "libraries under that cap ('failed to map segment from shared object'): nothing was collected. The job must not "
    "inherit the login-node limit (drop the ulimit -v or raise it)",
)
def infra_slurm_eval_job_sources_login_node_env_whose_200_mb_address_space_cap_stops_python_mapping_libraries(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=12, folder=run, name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "login_node_env.sh").write_text(LOGIN_ENV.replace("GP_DIR", str(recipes.BIN)))
    sbatch_file(ctx, LIMITED_SBATCH, PIPELINE=pipeline("$MODEL_URL"))
    code = run_submit(ctx, SUBMIT, env={**ctx.env, "MODEL_URL": url})
    job = job_logs(ctx, "eval_*.log")
    got = rows_of(run / "rollouts.jsonl")
    if "limit: 204800 kB" not in job or "failed to map segment" not in job or got:
        raise failed(ctx, f"exit {code}, {len(got)}: {job[-1500:]}")
    return (f"RUN/login_node_env.sh (`ulimit -v 204800`); RUN/eval.sbatch (sources it; materialize 8 x 3, collect, "
            f"profile) submitted by RUN/submit.sh exit {code}; the Python tools failed to map their libraries; "
            f"{len(got)} rollouts.")


# =====================================================================================================
# config
# =====================================================================================================

ONE_BASED_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-shards
#SBATCH --output=RUN_DIR/logs/shard_%A_%a.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --array=1-4
# one array task per shard of tasks.jsonl (4 shards, made by submit.sh)
SHARD=shard_${SLURM_ARRAY_TASK_ID}
OUT=out_${SLURM_ARRAY_TASK_ID}
echo "array task ${SLURM_ARRAY_TASK_ID}: $SHARD -> $OUT"
cd RUN_DIR && rm -rf $OUT && mkdir -p $OUT && cd $OUT
PIPELINE"""

ONE_BASED_SUBMIT = """#!/bin/bash
# submit.sh: the weekly sharded eval (4 shards of 4 tasks), then merge
cd RUN_DIR
split -l 4 -d -a 1 --additional-suffix=.jsonl tasks.jsonl shard_
ls shard_?.jsonl
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job array $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 3; done
echo "job array $JOB finished"
cat out_*/rollouts.jsonl > merged_rollouts.jsonl
echo "merged $(wc -l < merged_rollouts.jsonl) rollouts"
"""


@case(
    "config_slurm_shard_array_numbered_one_to_four_while_split_numbers_shards_from_zero",
    "config",
    ["--array", "0-3", "split", "shard_0", "SLURM_ARRAY_TASK_ID"],
    "the user's eval.sbatch runs one array task per shard with `#SBATCH --array=1-4` and picks shard_${"
    "SLURM_ARRAY_TASK_ID}, but submit.sh makes the shards with `split -d`, which numbers them shard_0 ... shard_3: "
    "array task 4 found no shard_4.jsonl and failed, and shard_0 (a quarter of the tasks) was never evaluated; the "
    "merged file holds 36 of the 48 rollouts and submit.sh exits 0. The array must be 0-3",
)
def config_slurm_shard_array_numbered_one_to_four_while_split_numbers_shards_from_zero(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 16, start=8, folder=run, name="tasks.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 10")
    sbatch_file(ctx, ONE_BASED_SBATCH, PIPELINE=pipeline("$MODEL_URL", data="../$SHARD.jsonl"))
    code = run_submit(ctx, ONE_BASED_SUBMIT, env={**ctx.env, "MODEL_URL": url})
    merged = rows_of(run / "merged_rollouts.jsonl")
    shard0 = {prompt_of(r) for r in rows_of(run / "shard_0.jsonl")}
    prompts = {prompt_of(r) for r in merged}
    logs = job_logs(ctx, "shard_*.log")
    if code or len(merged) != 36 or prompts & shard0 or "shard_4.jsonl" not in logs:
        raise failed(ctx, f"exit {code}, {len(merged)}: {logs[-1500:]}")
    return (f"RUN/tasks.jsonl (16 tasks), split into shard_0 ... shard_3; RUN/eval.sbatch (`--array=1-4`, "
            f"shard_${{SLURM_ARRAY_TASK_ID}}) submitted by RUN/submit.sh exit {code}; array task 4 found no "
            f"shard_4.jsonl; merged {len(merged)} of 48 rollouts, none of shard_0's tasks.")


# =====================================================================================================
# data_schema
# =====================================================================================================

CAPITALS = [("What is the capital of India?", "New Delhi", "New Delhi (since 1931)"),
            ("What is the capital of Argentina?", "Buenos Aires", "Buenos Aires"),
            ("What is the capital of Australia?", "Canberra", "Canberra (since 1913)"),
            ("What is the capital of Japan?", "Tokyo", "Tokyo (since 1869)"),
            ("What is the capital of Malaysia?", "Kuala Lumpur", "Kuala Lumpur"),
            ("What is the capital of Mexico?", "Mexico City", "Mexico City"),
            ("What is the capital of Canada?", "Ottawa", "Ottawa (since 1857)"),
            ("What is the capital of the United Arab Emirates?", "Abu Dhabi", "Abu Dhabi"),
            ("What is the capital of Kenya?", "Nairobi", "Nairobi"),
            ("What is the capital of Sri Lanka (its commercial capital)?", "Colombo", "Colombo")]

FIRST_WORD_PREP = '''"""prep.py: the capitals quiz from the atlas team's answer key (answer_key.tsv) as string_match tasks."""
import json

with open("answer_key.tsv") as src, open("tasks.jsonl", "w") as out:
    next(src)  # header
    for line in src:
        question, answer = line.rstrip("\\n").split("\\t")
        answer = answer.split()[0]  # drop the atlas notes, e.g. "Canberra (since 1913)" -> "Canberra"
        text = f"{question} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}) + "\\n")
print("wrote tasks.jsonl")
'''


@case(
    "data_schema_builtin_prep_keeps_first_word_of_answer_key_entries_to_drop_notes_so_two_word_capitals_are_cut",
    "data_schema",
    ["expected_answer", "split()[0]", "prep.py", "New Delhi", "labels"],
    "the user's prep.py drops the atlas notes from the answer key ('Canberra (since 1913)') by keeping the first word "
    "of each answer (`answer.split()[0]`); every two-word capital lost its second word ('New Delhi' -> 'New', "
    "'Buenos Aires' -> 'Buenos', 'Kuala Lumpur', 'Mexico City', 'Abu Dhabi'), so the model's right answers to half "
    "the quiz scored 0 against the cut labels; every command exits 0. The labels must keep the whole name (drop the "
    "parenthesised note only)",
)
def data_schema_builtin_prep_keeps_first_word_of_answer_key_entries_to_drop_notes_so_two_word_capitals_are_cut(
        ctx: Ctx) -> str:
    run = ctx.run
    (run / "answer_key.tsv").write_text("question\tanswer\n" + "".join(f"{q}\t{k}\n" for q, _, k in CAPITALS))
    (run / "prep.py").write_text(FIRST_WORD_PREP)
    code0 = ctx.sh(f"cd {run} && {recipes.PY} prep.py", "logs/prep.log")
    _, better = truth_checkpoints(ctx, [(q, a) for q, a, _ in CAPITALS])
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run_script(ctx, "weekly eval of the capitals quiz", pipeline(url, data="tasks.jsonl"))
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    by = rewards_by_label(got)
    cut = [a.split()[0] for _, a, _ in CAPITALS if " " in a]
    if code0 or code or len(keys_of(got)) != 30 or any(any(by.get(c, [1])) for c in cut) \
            or not any(by.get("Canberra", [])):
        raise failed(ctx, f"exit {code0}/{code}, {len(got)}, {by}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/answer_key.tsv; RUN/prep.py (`answer.split()[0]`) exit {code0}; RUN/run_eval.sh (materialize 10 x 3, "
            f"collect, profile) against step_0200 exit {code}; the {len(cut)} two-word capitals scored 0 in every "
            f"rollout; mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

WORD_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        # the label must be a whole word of the answer: 'Go' in 'Go (golang)', not in 'Google'
        reward = 0.0
        if extracted is not None and body.expected_answer is not None:
            pattern = r"\\b" + re.escape(body.expected_answer) + r"\\b"
            reward = float(re.search(pattern, extracted, flags=re.IGNORECASE) is not None)

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""

LANGS = [("Which language extended C with classes and templates?", "C++"),
         ("Which Microsoft language is named after a musical note?", "C#"),
         ("Which functional .NET language is named after a musical note?", "F#"),
         ("Which language is the Linux kernel mainly written in?", "C"),
         ("Which language does the Django framework use?", "Python"),
         ("Which language does the Rails framework use?", "Ruby"),
         ("Which language did Google design with goroutines?", "Go"),
         ("Which language did Apple introduce in 2014 for iOS apps?", "Swift")]


@case(
    "verifier_runtime_gym_own_verify_wraps_label_in_word_boundaries_so_labels_ending_in_symbols_never_match",
    "verifier_runtime",
    ["\\b", "word boundary", "re.search", "C++", "verify"],
    "the user's own resources server (whole_word_match, Gym's string_match with a new verify) accepts an answer when "
    "the label appears in it as a whole word, `re.search(r'\\b' + re.escape(label) + r'\\b', answer)`; a word "
    "boundary needs a word character on one side, so a label that ends in a symbol ('C++', 'C#', 'F#') can never be "
    "followed by one at the end of the answer: the model's right answers to those tasks all scored 0, silently "
    "(every command exits 0). The verify must compare the answer to the label (or use lookarounds, not \\b)",
    netns=True,
)
def verifier_runtime_gym_own_verify_wraps_label_in_word_boundaries_so_labels_ending_in_symbols_never_match(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in LANGS])
    _, better = truth_checkpoints(ctx, LANGS)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "whole_word_match", lambda app: replace_verify(app, WORD_VERIFY), better,
        "(copied Gym's string_match to WORK/my_gym/resources_servers/whole_word_match, kept in RUN/my_gym; its verify "
        "looks for the label between word boundaries)")
    code = ctx.sh(f"bash {own_eval_script(ctx, search, overrides, 'whole_word_match')}", "logs/run_eval.log",
                  timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    symbols = [r for r in got if r.get("expected_answer") in ("C++", "C#", "F#")
               and r.get("extracted_answer") == r.get("expected_answer")]
    plain = [r for r in got if r.get("expected_answer") in ("Python", "Ruby", "Go", "Swift", "C")]
    if code or len(keys_of(got)) != 24 or len(symbols) < 4 or any(r.get("reward") for r in symbols) \
            or not any(r.get("reward") for r in plain):
        raise failed(ctx, f"exit {code}, {len(got)}, {len(symbols)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/tasks.jsonl (8 programming-language questions); RUN/my_gym/resources_servers/whole_word_match/app.py "
            f"(verify: re.search(r'\\b' + re.escape(label) + r'\\b', answer)) served by the real `gym env start` "
            f"(loopback-only namespace) against step_0200; RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, `gym eval "
            f"profile`) exit {code}; {len(symbols)} right answers 'C++'/'C#'/'F#' scored 0; mean reward "
            f"{mean_of(got):.2f}.")


if __name__ == "__main__":
    sys.exit(main("seventieth_held_out", __file__, __doc__))
