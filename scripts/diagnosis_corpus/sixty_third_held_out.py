"""Build the SIXTY-THIRD HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/sixty_third_held_out.py --out tests/data/diagnosis_corpus/sixty_third_held_out [--only CASE ...]

This set was written after the sixty-two earlier sets (first_held_out.py ... sixty_second_held_out.py), from the
guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`), the real NeMo
Gym 0.7.0 in a loopback-only network namespace (with a user's own resources server and settings), Slurm batch jobs,
job arrays and model-server jobs on the single-node cluster, and the user's own shell tooling, sbatch scripts, submit
wrappers, data-preparation scripts and verifiers. The output of
every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand
but the user's own inputs (data, scripts, settings, verifier code). Each case injects one cause, different in
mechanism from those of the sixty-two earlier sets, and each recipe checks that its fault really happened (it raises
RecipeError otherwise, and the case is not written). About half of the failures are silent: every command exits 0
and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare,
mount), Slurm (SLURM_CONF), NeMo Gym 0.7.0
(GYM_PIPELINE_NEMO_GYM), and PYTHONPATH set to this checkout. Run it from a foreground shell.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import checkpoints, failed, gym_start, stop_gym  # noqa: E402
from fiftieth_held_out import log_of, submit  # noqa: E402
from fifty_first_held_out import keys_of  # noqa: E402
from fifty_ninth_held_out import gym_own_server, own_eval_script, sbatch_file  # noqa: E402
from fortieth_held_out import truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from recipes import GYM, Ctx, case, gym_model_args, main, replace_verify, rows_of, text_of  # noqa: E402
from thirtieth_held_out import gym_rows  # noqa: E402
from thirty_fifth_held_out import pipeline  # noqa: E402
from twenty_fifth_held_out import job_logs  # noqa: E402
from twenty_fourth_held_out import gym_eval_line, gym_profile_line  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_sixth_held_out import free_port, slurm_script  # noqa: E402
from twenty_third_held_out import write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def mean_of(rows: list[dict]) -> float:
    got = rewards(rows)
    return sum(got) / len(got) if got else 0.0


def gym_up(ctx: Ctx, checkpoint: Path, flags: str = "--latency-ms 30"):
    """The policy serving `checkpoint` and the real `gym env start` against it; (overrides, env start, policy)."""
    url, policy = ctx.policy(checkpoint, flags, log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    return overrides, env_start, policy


def gym_script(ctx: Ctx, comment: str, body: list[str]) -> Path:
    script = ctx.run / "run_eval.sh"
    script.write_text(f"#!/bin/bash\n# {comment}\ncd {ctx.run}\n" + "".join(line + "\n" for line in body))
    return script


def scancel_ids(ctx: Ctx, *ids: str) -> None:
    for job in ids:
        subprocess.run(["scancel", job], env=ctx.env, capture_output=True, check=False)


def scancel_named(ctx: Ctx, name: str) -> None:
    done = subprocess.run(["squeue", "-h", "-n", name, "-o", "%i"], env=ctx.env, capture_output=True, text=True,
                          check=False)
    scancel_ids(ctx, *done.stdout.split())


def prompt_of(row: dict) -> str:
    return row["responses_create_params"]["input"][0]["content"][0]["text"]


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_slurm_plain_job_log_named_with_array_pattern_gets_array_index_4294967294",
    "healthy",
    [],
    "nothing is wrong: the user's eval.sbatch was copied from the team's sharded-array template and keeps its "
    "`#SBATCH --output=logs/eval_%A_%a.log`; the job is a plain job, not an array, so Slurm fills %a with its "
    "'no value' 4294967294 and the log is named eval_<id>_4294967294.log, as if it were a stray array task, but the "
    "one job ran materialize, collect and profile to the end and every rollout was collected",
)
def healthy_slurm_plain_job_log_named_with_array_pattern_gets_array_index_4294967294(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=2, folder=run, name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20")
    sbatch_file(ctx, "#!/bin/bash\n#SBATCH --job-name=weekly-eval\n#SBATCH --output=RUN_DIR/logs/eval_%A_%a.log\n"
                "#SBATCH --time=10\n#SBATCH --ntasks=1\n# (from the team's sharded-array template)\ncd RUN_DIR\n"
                "echo \"weekly eval against $MODEL_URL\"\nPIPELINE", PIPELINE=pipeline("$MODEL_URL"))
    code = submit(ctx, env={**ctx.env, "MODEL_URL": url})
    logs = sorted(p.name for p in (run / "logs").glob("eval_*_4294967294.log"))
    got = rows_of(run / "rollouts.jsonl")
    if code or not logs or len(keys_of(got)) != 24 or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {logs}, {len(got)}: {job_logs(ctx, 'eval_*.log')[-1500:]}")
    return (f"RUN/eval.sbatch (`--output=logs/eval_%A_%a.log` on a plain job: materialize 8 x 3, collect, profile) "
            f"submitted by RUN/submit.sh exit {code}; its log is logs/{logs[0]}; {len(keys_of(got))} of 24 rollouts, "
            f"mean reward {mean_of(got):.2f}.")


TEAM_IDS = [1041, 1057, 1102, 1188, 1203, 1311, 1420, 1536]


@case(
    "healthy_gym_tasks_carry_team_question_ids_as_ng_task_index_so_profile_indices_are_sparse",
    "healthy",
    [],
    "nothing is wrong: the user's tasks.jsonl is an export of the team's question bank that keeps each question's "
    "bank id in `_ng_task_index` (1041, 1057, ... 1536); Gym keeps a task index already present in the input, so the "
    "materialized inputs, rollouts and profile rows are keyed by those sparse ids instead of 0-7, which looks like "
    "rows are missing, but every task has its 3 rollouts and `gym eval profile` completed",
    netns=True,
)
def healthy_gym_tasks_carry_team_question_ids_as_ng_task_index_so_profile_indices_are_sparse(ctx: Ctx) -> str:
    run = ctx.run
    rows = rows_of(ctx.dataset("string_match", 8, start=76))
    tasks = write_jsonl(run / "tasks.jsonl", [{**row, "_ng_task_index": ident} for row, ident in zip(rows, TEAM_IDS, strict=True)])
    _, better = checkpoints(ctx, "string_match", tasks)
    overrides, env_start, policy = gym_up(ctx, better)
    script = gym_script(ctx, "weekly eval of the question-bank export",
                        [gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 4),
                         gym_profile_line("results")])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    profile = rows_of(next(iter(run.glob("results/*reward_profiling*.jsonl")), run / "none"))
    indices = sorted({r["_ng_task_index"] for r in got})
    if code or len(keys_of(got)) != 24 or indices != TEAM_IDS or len(profile) != 8:
        raise failed(ctx, f"exit {code}, {len(got)}, {indices}, {len(profile)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/tasks.jsonl (8 tasks with `_ng_task_index` {TEAM_IDS}); real `gym env start` (loopback-only "
            f"namespace) against step_0200; RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, `gym eval profile`) exit "
            f"{code}; {len(keys_of(got))} of 24 rollouts under the bank ids, {len(profile)} profile rows, mean reward "
            f"{mean_of(got):.2f}.")


@case(
    "healthy_gym_smoke_eval_with_one_repeat_per_task_profiles_without_spread",
    "healthy",
    [],
    "nothing is wrong: the user's smoke eval runs `gym eval run --num-repeats 1` (one rollout per task, to check the "
    "wiring before the weekly run); every task has one rollout, so the profile's per-task spread is 0.0 for every "
    "task (std/reward, std/output_tokens, ...) and min, max, mean and median are the same number, which looks "
    "degenerate, but every rollout was collected and verified and `gym eval profile` completed",
    netns=True,
)
def healthy_gym_smoke_eval_with_one_repeat_per_task_profiles_without_spread(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 10, start=20, folder=run, name="tasks.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    overrides, env_start, policy = gym_up(ctx, better)
    script = gym_script(ctx, "smoke eval: one rollout per task, to check the wiring",
                        [gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 1, 4),
                         gym_profile_line("results")])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    profile = rows_of(next(iter(run.glob("results/*reward_profiling*.jsonl")), run / "none"))
    spread = sorted({str(row.get("std/reward")) for row in profile})
    if code or len(keys_of(got)) != 10 or len(profile) != 10:
        raise failed(ctx, f"exit {code}, {len(got)}, {len(profile)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"real `gym env start` (loopback-only namespace) against step_0200; RUN/run_eval.sh (`gym eval run "
            f"--no-serve --num-repeats 1` of 10 tasks, `gym eval profile`) exit {code}; {len(keys_of(got))} of 10 "
            f"rollouts, {len(profile)} profile rows, std/reward values {spread}, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# config
# =====================================================================================================

HEREDOC_SUBMIT = """#!/bin/bash
# submit.sh: split tasks.jsonl into 4 shards and evaluate them as one job array (the batch script is inline)
cd RUN_DIR
split -l 4 -d -a 1 --additional-suffix=.jsonl tasks.jsonl shard_
wc -l shard_*.jsonl
JOB=$(sbatch --parsable <<EOF
#!/bin/bash
#SBATCH --job-name=weekly-shards
#SBATCH --array=0-3
#SBATCH --output=RUN_DIR/logs/shard_%A_%a.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=2
SHARD=shard_${SLURM_ARRAY_TASK_ID:-0}
# (variables set in this script are escaped, so that the job, not submit.sh, expands them)
echo "evaluating shard \\$SHARD on \\$(hostname)"
cd RUN_DIR && mkdir -p results_\\$SHARD && cd results_\\$SHARD
PIPELINE
EOF
)
echo "submitted job array $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job array $JOB finished"
ls -d results_*/
"""


@case(
    "config_slurm_array_script_passed_through_unquoted_heredoc_so_array_task_id_expands_empty_at_submission",
    "config",
    ["heredoc", "<<'EOF'", "SLURM_ARRAY_TASK_ID"],
    "the user's submit.sh gives sbatch the array's batch script inline through an unquoted heredoc (`sbatch <<EOF`); "
    "the submitting shell expands every unescaped variable in it before sbatch sees it (the user escaped the "
    "script's own $SHARD, not the Slurm variable), and at submission SLURM_ARRAY_TASK_ID is unset, so `SHARD=shard_${SLURM_ARRAY_TASK_ID:-0}` became `SHARD=shard_0` in the stored script: all four array "
    "tasks evaluated shard 0 into results_shard_0, shards 1-3 (12 of the 16 tasks) were never evaluated, and every "
    "command exits 0",
)
def config_slurm_array_script_passed_through_unquoted_heredoc_so_array_task_id_expands_empty_at_submission(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 16, start=10, folder=run, name="tasks.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "logs").mkdir(exist_ok=True)
    (run / "submit.sh").write_text(slurm_script(HEREDOC_SUBMIT, ctx, PIPELINE=pipeline(url, data="../\\$SHARD.jsonl")))
    try:
        code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=500)
    finally:
        scancel_ids(ctx, *text_of(run / "job_ids.txt").split())
    folders = sorted(p.name for p in run.glob("results_*"))
    got = rows_of(run / "results_shard_0" / "rollouts.jsonl")
    logs = job_logs(ctx, "shard_*.log")
    if code or folders != ["results_shard_0"] or not got or logs.count("evaluating shard shard_0") != 4:
        raise failed(ctx, f"exit {code}, {folders}, {len(got)}: {logs[-1500:]}")
    return (f"RUN/tasks.jsonl (16 tasks); RUN/submit.sh (split into 4 shards, `sbatch --parsable <<EOF` array 0-3 "
            f"with `SHARD=shard_${{SLURM_ARRAY_TASK_ID:-0}}`) exit {code}; all four array tasks evaluated shard_0; "
            f"run folders {folders}; {len(keys_of(got))} rollouts of 4 tasks, shards 1-3 never evaluated.")


# =====================================================================================================
# cache_resume
# =====================================================================================================


@case(
    "cache_resume_gym_weekly_loop_over_splits_resumes_every_split_into_one_output_so_test_gets_dev_results",
    "cache_resume",
    ["--resume", "--output", "per split"],
    "the user's run_eval.sh loops over the dev and test splits with the same `gym eval run ... --output "
    "results/rollouts.jsonl --resume` (added so a crashed week picks up where it stopped) and copies each profile "
    "to reports/<split>_profile.jsonl; for the test split Gym reused the dev split's materialized inputs and found "
    "every (task, rollout) already in rollouts.jsonl, so it collected nothing, and the test report is a copy of the "
    "dev profile: the test split was never evaluated, and every command exits 0",
    netns=True,
)
def cache_resume_gym_weekly_loop_over_splits_resumes_every_split_into_one_output_so_test_gets_dev_results(
        ctx: Ctx) -> str:
    run = ctx.run
    dev = ctx.dataset("string_match", 6, start=64, folder=run, name="dev.jsonl")
    test = ctx.dataset("string_match", 6, start=70, folder=run, name="test.jsonl")
    both = write_jsonl(ctx.work / "both.jsonl", rows_of(dev) + rows_of(test))
    _, better = checkpoints(ctx, "string_match", both)
    overrides, env_start, policy = gym_up(ctx, better)
    eval_line = gym_eval_line(overrides, "$SPLIT.jsonl", "results/rollouts.jsonl", 3, 4).replace(
        " eval run ", " eval run --resume ")
    script = gym_script(ctx, "weekly eval of both splits (--resume: a crashed week picks up where it stopped)",
                        ["mkdir -p reports", "for SPLIT in dev test; do", "  echo \"== split $SPLIT\"",
                         "  " + eval_line, "  " + gym_profile_line("results"),
                         "  cp results/rollouts_reward_profiling.jsonl reports/${SPLIT}_profile.jsonl", "done",
                         "wc -l reports/*.jsonl"])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    test_prompts = {prompt_of(r) for r in rows_of(test)}
    report = rows_of(run / "reports" / "test_profile.jsonl")
    in_report = {prompt_of(r["sample"]) for r in report if "sample" in r}
    if code or not report or in_report & test_prompts or any(prompt_of(r) in test_prompts for r in got):
        raise failed(ctx, f"exit {code}, {len(got)}, {len(report)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/dev.jsonl, RUN/test.jsonl (6 tasks each); real `gym env start` (loopback-only namespace) against "
            f"step_0200; RUN/run_eval.sh (for dev and test: `gym eval run --no-serve --resume ... --output "
            f"results/rollouts.jsonl` 6 x 3, `gym eval profile`, copy to reports/) exit {code}; {len(keys_of(got))} "
            f"rollouts, none of a test task; reports/test_profile.jsonl holds {len(report)} dev tasks.")


# =====================================================================================================
# model_serving
# =====================================================================================================

SERVER_SBATCH = """#!/bin/bash
#SBATCH --job-name=serve-policy
#SBATCH --output=RUN_DIR/logs/serve_%j.log
#SBATCH --time=1
#SBATCH --ntasks=1
# the weekly eval's model server; it only has to outlive the eval (which took under a minute last month)
GP_BIN serve-policy --port PORT --checkpoint CKPT --latency-ms 6000
"""

SERVER_EVAL_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
cd RUN_DIR
echo "weekly eval against $MODEL_URL"
PIPELINE"""

SERVER_SUBMIT = """#!/bin/bash
# submit.sh: the model server job, then (once it answers) the eval job
cd RUN_DIR
SERVER=$(sbatch --parsable serve.sbatch)
echo $SERVER >> job_ids.txt
echo "submitted server job $SERVER"
until curl -sf SERVER_URL/models >/dev/null; do sleep 1; done
echo "model server answers: $(curl -s SERVER_URL/models)"
JOB=$(sbatch --parsable --export=ALL,MODEL_URL=SERVER_URL eval.sbatch)
echo $JOB >> job_ids.txt
echo "submitted eval job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "eval job $JOB finished; server job: $(squeue -h -j $SERVER -o '%T %M' 2>/dev/null)"
"""


@case(
    "model_serving_slurm_model_server_job_time_limit_of_one_minute_ends_the_server_mid_eval",
    "model_serving",
    ["serve.sbatch", "--time"],
    "the user's serve.sbatch runs the model server as a Slurm job with `#SBATCH --time=1` (one minute: 'it only has "
    "to outlive the eval'); this week's generations are slower (6 s each), so Slurm killed the server job at its time "
    "limit while the eval job was still collecting: every request after that found no server (connection refused), "
    "and only the rollouts finished before were collected",
)
def model_serving_slurm_model_server_job_time_limit_of_one_minute_ends_the_server_mid_eval(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 10, start=40, folder=run, name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    port = free_port()
    url = f"http://127.0.0.1:{port}/v1"
    (run / "serve.sbatch").write_text(slurm_script(SERVER_SBATCH, ctx, PORT=str(port), CKPT=str(better)))
    sbatch_file(ctx, SERVER_EVAL_SBATCH, PIPELINE=pipeline("$MODEL_URL", concurrency="2"))
    (run / "submit.sh").write_text(slurm_script(SERVER_SUBMIT, ctx, SERVER_URL=url))
    try:
        code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=500)
    finally:
        scancel_ids(ctx, *text_of(run / "job_ids.txt").split())
    serve = job_logs(ctx, "serve_*.log")
    got = rows_of(run / "rollouts.jsonl")
    if "TIME LIMIT" not in serve or len(keys_of(got)) >= 30:
        raise failed(ctx, f"exit {code}, {len(got)}: {serve[-800:]} {job_logs(ctx, 'eval_*.log')[-1200:]}")
    return (f"RUN/serve.sbatch (`--time=1`, serve-policy on port {port}, 6 s a generation); RUN/eval.sbatch "
            f"(materialize 10 x 3, collect at concurrency 2, profile); RUN/submit.sh exit {code}; the server job was "
            f"killed at its time limit mid-eval; {len(keys_of(got))} of 30 rollouts.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

VARIANCE_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=1
#SBATCH --ntasks=1
# the weekly eval; REPEATS raised from 3 to 16 for this month's variance study
REPEATS=16
cd RUN_DIR
echo "weekly eval against $MODEL_URL, $REPEATS repeats"
PIPELINE"""


@case(
    "throughput_slurm_repeats_raised_to_sixteen_for_variance_study_in_job_whose_time_limit_fits_three",
    "throughput_resources",
    ["--time", "REPEATS", "repeats"],
    "the user raised REPEATS in eval.sbatch from 3 to 16 for a variance study, over five times the rollouts to "
    "generate at the same concurrency, but kept the job's `#SBATCH --time=1` sized for the 3-repeat run; Slurm "
    "killed the job at its time limit part way through the collection, so some tasks have fewer rollouts than "
    "asked, and the profile never ran",
)
def throughput_slurm_repeats_raised_to_sixteen_for_variance_study_in_job_whose_time_limit_fits_three(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 10, start=30, folder=run, name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 2500")
    sbatch_file(ctx, VARIANCE_SBATCH, PIPELINE=pipeline("$MODEL_URL", repeats="$REPEATS"))
    code = submit(ctx, env={**ctx.env, "MODEL_URL": url})
    job = job_logs(ctx, "eval_*.log")
    got = rows_of(run / "rollouts.jsonl")
    if "TIME LIMIT" not in job or len(keys_of(got)) >= 160 or (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)}: {job[-1500:]}")
    return (f"RUN/eval.sbatch (`--time=1`, REPEATS=16: materialize 10 x 16, collect at concurrency 4 with 2.5 s "
            f"generations, profile) submitted by RUN/submit.sh exit {code}; killed at its time limit; "
            f"{len(keys_of(got))} of 160 rollouts, no profile.")


# =====================================================================================================
# infra
# =====================================================================================================


@case(
    "infra_gym_env_start_head_server_default_port_11000_taken_by_teams_model_server_on_the_node",
    "infra",
    ["11000", "head_server.port", "address already in use"],
    "the team's model server on the eval node listens on port 11000, the port `gym env start` uses for its head "
    "server unless told otherwise; the user's run_eval.sh starts Gym without `++head_server.port`, so the head server "
    "could not bind its port (address already in use) and Gym never got its servers ready: no rollout was collected",
    netns=True,
)
def infra_gym_env_start_head_server_default_port_11000_taken_by_teams_model_server_on_the_node(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=50, folder=run, name="tasks.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    ready = ctx.work / "policy-ready"
    policy = ctx.bg(f"{recipes.GP} serve-policy --port 11000 --ready-file {ready} --checkpoint {better} "
                    "--latency-ms 30", "policy_server.log")
    recipes.wait_for(lambda: ready.exists() and ready.read_text().strip() != "", 30, "the model server")
    url = ready.read_text().strip()
    overrides = ctx.gym_overrides().split(" ", 1)[1]  # the user's start line has no head port override
    script = gym_script(ctx, "weekly eval: start Gym's servers, then the eval",
                        [f"{GYM} env start {gym_model_args(url)} {overrides} > logs/env_start.log 2>&1 &",
                         "GYM_PID=$!",
                         "for i in $(seq 60); do grep -q 'servers ready' logs/env_start.log && break; "
                         "kill -0 $GYM_PID 2>/dev/null || break; sleep 2; done",
                         "tail -n 30 logs/env_start.log",
                         gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 4),
                         gym_profile_line("results"),
                         "kill -INT $GYM_PID 2>/dev/null; wait $GYM_PID"])
    (run / "logs").mkdir(exist_ok=True)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    ctx.stop(policy)
    start = log_of(ctx, "env_start.log")
    got = gym_rows(ctx)
    if got or "servers ready" in start or "11000" not in start:
        raise failed(ctx, f"exit {code}, {len(got)}: {start[-1500:]} {log_of(ctx, 'run_eval.log')[-800:]}")
    return (f"the team's model server on port 11000 (serve-policy, step_0200); RUN/run_eval.sh (`gym env start` "
            f"without ++head_server.port, `gym eval run --no-serve` 6 x 3, `gym eval profile`) exit {code}; the head "
            f"server could not take port 11000; {len(got)} rollouts.")


# =====================================================================================================
# data_schema
# =====================================================================================================

QUIZ_EN = [("What is the capital of Austria?", "Vienna"), ("What is the capital of Germany?", "Berlin"),
           ("What is the capital of Italy?", "Rome"), ("What is the capital of Switzerland?", "Bern"),
           ("What is the capital of Poland?", "Warsaw"), ("What is the capital of France?", "Paris"),
           ("What is the capital of Czechia?", "Prague"), ("What is the capital of Norway?", "Oslo")]
GERMAN = {"What is the capital of Austria?": ("Was ist die Hauptstadt von Österreich?", "Wien"),
          "What is the capital of Germany?": ("Was ist die Hauptstadt von Deutschland?", "Berlin"),
          "What is the capital of Italy?": ("Was ist die Hauptstadt von Italien?", "Rom"),
          "What is the capital of Switzerland?": ("Was ist die Hauptstadt der Schweiz?", "Bern"),
          "What is the capital of Poland?": ("Was ist die Hauptstadt von Polen?", "Warschau"),
          "What is the capital of France?": ("Was ist die Hauptstadt von Frankreich?", "Paris"),
          "What is the capital of Czechia?": ("Was ist die Hauptstadt von Tschechien?", "Prag"),
          "What is the capital of Norway?": ("Was ist die Hauptstadt von Norwegen?", "Oslo")}

TRANSLATE_PY = '''"""translate.py: this month's German split of our capitals quiz. Questions come from the translators'
table (questions_de.json, English question -> German question); each task keeps the quiz's answer field."""
import json

table = json.load(open("questions_de.json"))
with open("quiz_en.jsonl") as src, open("tasks_de.jsonl", "w") as out:
    for line in src:
        q = json.loads(line)
        text = f"{table[q['question']]} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": q["answer"], "extraction_mode": "final_answer", "case_sensitive": False},
            ensure_ascii=False) + "\\n")
print("wrote tasks_de.jsonl")
'''


@case(
    "data_schema_gym_german_split_translates_questions_but_keeps_english_answer_labels",
    "data_schema",
    ["expected_answer", "translate", "German"],
    "the user's translate.py builds the German split from the translators' question table but copies each task's "
    "label from the English quiz: the questions ask in German and the model answers in German (Wien, Rom, Warschau, "
    "Prag), while the labels stay English (Vienna, Rome, Warsaw, Prague), so right answers score 0 wherever the two "
    "names differ; only Berlin, Bern, Paris and Oslo score, and every command exits 0",
    netns=True,
)
def data_schema_gym_german_split_translates_questions_but_keeps_english_answer_labels(ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "quiz_en.jsonl", [{"question": q, "answer": a} for q, a in QUIZ_EN])
    (run / "questions_de.json").write_text(json.dumps({en: de for en, (de, _) in GERMAN.items()}, indent=1,
                                                      ensure_ascii=False) + "\n")
    (run / "translate.py").write_text(TRANSLATE_PY)
    ctx.sh(f"cd {run} && {recipes.PY} translate.py", "logs/translate.log")
    _, better = truth_checkpoints(ctx, list(GERMAN.values()))
    check = [question_row(*GERMAN[q]) for q, _ in QUIZ_EN]
    if [prompt_of(r) for r in check] != [prompt_of(r) for r in rows_of(run / "tasks_de.jsonl")]:
        raise failed(ctx, "translate.py's prompts differ from the ones the checkpoint learned")
    overrides, env_start, policy = gym_up(ctx, better)
    script = gym_script(ctx, "monthly eval of the German split",
                        [gym_eval_line(overrides, "tasks_de.jsonl", "results/rollouts.jsonl", 3, 4),
                         gym_profile_line("results")])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    german = {de_answer.lower() for _, de_answer in GERMAN.values()}
    missed = [r for r in got if not r.get("reward") and str(r.get("extracted_answer", "")).strip().lower() in german]
    if code or len(keys_of(got)) != 24 or not missed or not any(rewards(got)):
        raise failed(ctx, f"exit {code}, {len(got)}, {len(missed)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/quiz_en.jsonl, RUN/questions_de.json, RUN/translate.py (German questions, English labels); real `gym "
            f"env start` (loopback-only namespace) against step_0200; RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, "
            f"`gym eval profile`) exit {code}; {len(missed)} rollouts answered the German name and scored 0; mean "
            f"reward {mean_of(got):.2f}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

LITERAL_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        # compare by value, so that "3.0" matches "3" and "[1, 2]" matches "[1,2]"
        import ast
        reward = 0.0
        if extracted is not None and body.expected_answer is not None:
            reward = float(ast.literal_eval(extracted.strip()) == ast.literal_eval(str(body.expected_answer).strip()))

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""


@case(
    "verifier_runtime_gym_own_verify_compares_answers_by_value_with_ast_literal_eval_which_rejects_plain_words",
    "verifier_runtime",
    ["literal_eval", "verify"],
    "the user's own resources server (numeric_match, Gym's string_match with a new verify) compares the extracted "
    "answer and the label 'by value' with `ast.literal_eval`, tested on numeric tasks only; on a word answer "
    "(Hydrogen, Jupiter) literal_eval raises ValueError ('malformed node or string'), so /verify answered 500 for "
    "every task whose answer is not a Python literal, and those rollouts went to the failure sidecar instead of "
    "being scored",
    netns=True,
)
def verifier_runtime_gym_own_verify_compares_answers_by_value_with_ast_literal_eval_which_rejects_plain_words(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=56, folder=run, name="tasks.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "numeric_match", lambda app: replace_verify(app, LITERAL_VERIFY), better,
        "(copied Gym's string_match to WORK/my_gym/resources_servers/numeric_match, kept in RUN/my_gym; its verify "
        "compares with ast.literal_eval)")
    code = ctx.sh(f"bash {own_eval_script(ctx, search, overrides, 'numeric_match')}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    sidecar = rows_of(run / "results" / "rollouts_failures.jsonl")
    words = [r for r in rows_of(data) if not str(r["expected_answer"]).lstrip("-").replace(".", "").isdigit()]
    if not sidecar or not words or "literal" not in (text_of(run / "logs" / "run_eval.log")
                                                     + json.dumps(sidecar) + text_of(run / "env_start.log")).lower():
        raise failed(ctx, f"exit {code}, {len(got)}, {len(sidecar)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/tasks.jsonl ({len(words)} of 8 tasks with word answers); RUN/my_gym/resources_servers/numeric_match/"
            f"app.py (verify with ast.literal_eval) served by the real `gym env start` (loopback-only namespace); "
            f"RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, `gym eval profile`) exit {code}; {len(keys_of(got))} "
            f"rollouts scored, {len(sidecar)} failed attempts in the sidecar.")


if __name__ == "__main__":
    sys.exit(main("sixty_third_held_out", __file__, __doc__))
