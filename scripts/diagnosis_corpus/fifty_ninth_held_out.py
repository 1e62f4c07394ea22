"""Build the FIFTY-NINTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/fifty_ninth_held_out.py --out tests/data/diagnosis_corpus/fifty_ninth_held_out [--only CASE ...]

This set was written after the fifty-eight earlier sets (first_held_out.py ... fifty_eighth_held_out.py), from the guides
alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`,
`reverify`), the real NeMo Gym 0.7.0 in a loopback-only network namespace (with a user's own resources server and
settings), Slurm batch jobs, job arrays and dependent jobs on the single-node cluster, and the user's own shell
tooling, sbatch scripts, submit wrappers, data-preparation scripts and verifiers. The output of every command is captured as a user would
(`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data, scripts,
settings, verifier code). Each case injects one cause, different in mechanism from those
of the fifty-eight earlier sets, and each recipe checks that its fault really happened (it raises RecipeError
otherwise, and the case is not written). About half of the failures are silent: every command exits 0 and only the
result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare, mount), Slurm
(SLURM_CONF), NeMo Gym 0.7.0 (GYM_PIPELINE_NEMO_GYM), and PYTHONPATH set to this checkout. Run it from a foreground shell.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import checkpoints, failed, gym_start, stop_gym, wait_env_start  # noqa: E402
from fiftieth_held_out import log_of, submit  # noqa: E402
from fifty_first_held_out import keys_of  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from recipes import (  # noqa: E402
    GP,
    Ctx,
    case,
    gym_model_args,
    main,
    replace_verify,
    rows_of,
    text_of,
    user_resources_server,
    wait_for,
)
from thirtieth_held_out import gym_rows  # noqa: E402
from thirty_fifth_held_out import pipeline  # noqa: E402
from twenty_fifth_held_out import job_logs  # noqa: E402
from twenty_fourth_held_out import gym_eval_line, gym_profile_line, keep_server_code  # noqa: E402
from twenty_sixth_held_out import slurm_script  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def mean_of(rows: list[dict]) -> float:
    got = rewards(rows)
    return sum(got) / len(got) if got else 0.0


def sbatch_file(ctx: Ctx, template: str, **values: str) -> Path:
    """RUN/eval.sbatch from `template` (RUN_DIR, GP_BIN and `values` filled in); RUN/logs made for its output."""
    (ctx.run / "logs").mkdir(exist_ok=True)
    path = ctx.run / "eval.sbatch"
    path.write_text(slurm_script(template, ctx, **values))
    return path


def shard_rows(ctx: Ctx, folder_glob: str) -> list[dict]:
    return [row for path in sorted(ctx.run.glob(folder_glob)) for row in rows_of(path)]


def gym_own_server(ctx: Ctx, name: str, edit_app, checkpoint: Path, note: str, flags: str = "--latency-ms 30"):
    """A user's own resources server `name` (Gym's string_match through `edit_app`), the policy serving `checkpoint`,
    `gym env start` with it; (search dir, overrides, env start, policy)."""
    url, policy = ctx.policy(checkpoint, flags, log="policy_server.log")
    overrides = ctx.gym_overrides()
    search = user_resources_server(ctx, name, "string_match", edit_app)
    keep_server_code(ctx, search, name)
    ctx.note(note)
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server=name)} {overrides}")
    return search, overrides, env_start, policy


def own_eval_script(ctx: Ctx, search: Path, overrides: str, name: str, data: str = "tasks.jsonl",
                    results: str = "results", comment: str = "weekly eval", repeats: int = 3) -> Path:
    script = ctx.run / "run_eval.sh"
    script.write_text(f"#!/bin/bash\n# {comment} with our {name} server\n" + f"cd {ctx.run}\n"
                      + gym_eval_line(f"--search-dir {search} {overrides}", data, f"{results}/rollouts.jsonl",
                                      repeats, 4, agent=f"{name}_simple_agent") + "\n" + gym_profile_line(results)
                      + "\n")
    return script


# =====================================================================================================
# healthy
# =====================================================================================================

SELF_CANCEL_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
# the weekly eval: the job serves the checkpoint itself, evaluates, then cancels itself so that the model server
# (and anything it may have left) goes away with the job
cd RUN_DIR
GP_BIN serve-policy --port 0 --ready-file RUN_DIR/server_url.txt --checkpoint CKPT --latency-ms 20 \\
  > RUN_DIR/logs/model_server.log 2>&1 &
for i in $(seq 60); do [ -s server_url.txt ] && break; sleep 0.5; done
URL=$(cat server_url.txt)
echo "model server at $URL"
PIPELINE
echo "== eval done; cancelling job $SLURM_JOB_ID to take down the model server"
scancel $SLURM_JOB_ID
sleep 30
"""


@case(
    "healthy_slurm_job_ends_by_cancelling_itself_to_take_down_its_own_model_server",
    "healthy",
    [],
    "nothing is wrong: the user's eval.sbatch starts its own model server in the background, runs materialize, "
    "collect and profile, and ends with `scancel $SLURM_JOB_ID` to take the server down with the job; the job log "
    "ends with 'slurmstepd: error: *** JOB ... CANCELLED AT ...' and the job's state is CANCELLED, but every rollout "
    "had been collected and profiled before",
)
def healthy_slurm_job_ends_by_cancelling_itself_to_take_down_its_own_model_server(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=8, folder=run, name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    sbatch_file(ctx, SELF_CANCEL_SBATCH, CKPT=str(better), PIPELINE=pipeline("$URL"))
    code = submit(ctx)
    job = job_logs(ctx, "eval_*.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or len(keys_of(got)) != 24 or "CANCELLED" not in job \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)}: {job[-1500:]}")
    return (f"RUN/eval.sbatch (serve-policy &, materialize 8 x 3, collect, profile, `scancel $SLURM_JOB_ID`) "
            f"submitted by RUN/submit.sh exit {code}; the job was CANCELLED by its own last line; {len(keys_of(got))} "
            f"of 24 rollouts, mean reward {mean_of(got):.2f}.")


SPARE_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-shards
#SBATCH --output=RUN_DIR/logs/shard_%A_%a.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --array=0-3
# one array task per shard (shards made by prep_shards.sh with `split -l 4`; the array is sized for 4 shards)
cd RUN_DIR
SHARD=$(printf shard_%02d $SLURM_ARRAY_TASK_ID)
if [ ! -f $SHARD.jsonl ]; then
  echo "no $SHARD.jsonl: nothing to do for array task $SLURM_ARRAY_TASK_ID"
  exit 0
fi
mkdir -p $SHARD && cd $SHARD
PIPELINE"""


@case(
    "healthy_slurm_shard_array_sized_for_four_shards_gets_three_and_spare_task_has_nothing_to_do",
    "healthy",
    [],
    "nothing is wrong: the user's shard array (`--array=0-3`) is sized for four shards, but this week's 12 tasks "
    "split into three (`split -l 4`), so array task 3 logs 'no shard_03.jsonl: nothing to do' and exits at once; "
    "the three shards together hold every task, and each was materialized, collected and profiled completely",
)
def healthy_slurm_shard_array_sized_for_four_shards_gets_three_and_spare_task_has_nothing_to_do(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 12, start=20, folder=run, name="tasks.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "prep_shards.sh").write_text(f"#!/bin/bash\ncd {run}\nsplit -l 4 -d --additional-suffix=.jsonl tasks.jsonl "
                                        "shard_\nwc -l shard_*.jsonl\n")
    ctx.sh(f"bash {run}/prep_shards.sh", "logs/prep_shards.log")
    sbatch_file(ctx, SPARE_SBATCH, PIPELINE=pipeline("$MODEL_URL", data="../$SHARD.jsonl"))
    code = submit(ctx, env={**ctx.env, "MODEL_URL": url})
    logs = job_logs(ctx, "shard_*.log")
    got = shard_rows(ctx, "shard_0?/rollouts.jsonl")
    profiles = list(run.glob("shard_0?/rollouts_reward_profiling.jsonl"))
    if code or len(got) != 36 or len(profiles) != 3 or "nothing to do" not in logs:
        raise failed(ctx, f"exit {code}, {len(got)}, {profiles}: {logs[-1500:]}")
    return (f"RUN/prep_shards.sh (`split -l 4` of 12 tasks: 3 shards); RUN/eval.sbatch (`--array=0-3`, materialize x "
            f"3, collect, profile per shard) submitted by RUN/submit.sh exit {code}; task 3 found no shard; "
            f"{len(got)} of 36 rollouts over 3 shards, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# config
# =====================================================================================================

DIVIDE_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-shards
#SBATCH --output=RUN_DIR/logs/shard_%A_%a.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --array=0-3
# one array task per quarter of tasks.jsonl
cd RUN_DIR
N=$(wc -l < tasks.jsonl)
SIZE=$(( N / SLURM_ARRAY_TASK_COUNT ))
START=$(( SLURM_ARRAY_TASK_ID * SIZE + 1 ))
END=$(( START + SIZE - 1 ))
SHARD=shard_$SLURM_ARRAY_TASK_ID
mkdir -p $SHARD && cd $SHARD
sed -n "${START},${END}p" ../tasks.jsonl > tasks.jsonl
echo "array task $SLURM_ARRAY_TASK_ID of $SLURM_ARRAY_TASK_COUNT: rows $START-$END of $N"
PIPELINE"""


@case(
    "config_slurm_shard_array_sizes_shards_by_integer_division_so_remainder_rows_are_never_evaluated",
    "config",
    ["remainder", "shard"],
    "the user's eval.sbatch splits tasks.jsonl over a 4-task job array with `SIZE=$(( N / SLURM_ARRAY_TASK_COUNT ))` "
    "and rows START..START+SIZE-1 per task; with 14 rows the integer division gives 3, so the shards cover rows "
    "1-12 and the last 2 tasks are in no shard: they were never evaluated, and every array task and profile exits 0 "
    "on 12 of the 14 tasks",
)
def config_slurm_shard_array_sizes_shards_by_integer_division_so_remainder_rows_are_never_evaluated(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 14, start=40, folder=run, name="tasks.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20")
    sbatch_file(ctx, DIVIDE_SBATCH, PIPELINE=pipeline("$MODEL_URL", data="tasks.jsonl"))
    code = submit(ctx, env={**ctx.env, "MODEL_URL": url})
    logs = job_logs(ctx, "shard_*.log")
    got = shard_rows(ctx, "shard_?/rollouts.jsonl")
    shard_tasks = sum(len(rows_of(path)) for path in run.glob("shard_?/tasks.jsonl"))
    failures = "".join(text_of(p) for p in run.glob("shard_?/rollouts_failures.jsonl"))
    profiles = list(run.glob("shard_?/rollouts_reward_profiling.jsonl"))
    if code or shard_tasks != 12 or len(got) != 36 or len(profiles) != 4 or failures.strip():
        raise failed(ctx, f"exit {code}, {shard_tasks}, {len(got)}, {profiles}: {logs[-1500:]}")
    return (f"RUN/tasks.jsonl (14 tasks); RUN/eval.sbatch (`--array=0-3`, `SIZE=$(( N / SLURM_ARRAY_TASK_COUNT ))`, "
            f"`sed -n START,ENDp`, materialize x 3, collect, profile per shard) submitted by RUN/submit.sh exit {code}; "
            f"the shards hold {shard_tasks} of 14 tasks; {len(got)} rollouts, mean reward {mean_of(got):.2f}.")


PINNED_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --export=ALL,MODEL_URL=OLD_URL
# (team template: the model server's URL made explicit in the job, so the job log shows which server it used)
cd RUN_DIR
echo "weekly eval against $MODEL_URL"
PIPELINE"""


@case(
    "config_slurm_sbatch_export_directive_pins_model_url_so_job_evaluates_long_running_old_server",
    "config",
    ["--export", "MODEL_URL"],
    "the user's eval.sbatch, from the team template, carries `#SBATCH --export=ALL,MODEL_URL=http://127.0.0.1:PORT/v1`, "
    "the URL of the shared server that has served step_0100 on that port for weeks; the user exported MODEL_URL of "
    "this week's step_0200 server before `sbatch`, but the directive's explicit value overrides the submitting "
    "shell's, so the job evaluated step_0100 and reported its rewards as this week's (every command exits 0; the "
    "step_0200 server got no request)",
)
def config_slurm_sbatch_export_directive_pins_model_url_so_job_evaluates_long_running_old_server(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=56, folder=run, name="string_match.jsonl")
    weaker, better = checkpoints(ctx, "string_match", data)
    old_url, _ = ctx.policy(weaker, "--latency-ms 20", log="logs/shared_server_step_0100.log")
    ctx.note("(the team's shared server of step_0100, running for weeks on its port)")
    url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server.log")
    sbatch_file(ctx, PINNED_SBATCH, OLD_URL=old_url, PIPELINE=pipeline("$MODEL_URL"))
    ctx.note(f"(the user's shell: export MODEL_URL={url}, this week's step_0200 server)")
    code = submit(ctx, env={**ctx.env, "MODEL_URL": url})
    job = job_logs(ctx, "eval_*.log")
    got = rows_of(run / "rollouts.jsonl")
    check = ctx.work / "check"
    check.mkdir()
    ctx.sh(f"cd {check} && cp {run}/rollouts_materialized_inputs.jsonl . && {GP} collect --inputs "
           f"rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {url} --env string_match "
           "--concurrency 4", None)
    ctx.commands.pop()
    fresh = rows_of(check / "rollouts.jsonl")
    if code or len(keys_of(got)) != 24 or f"against {old_url}" not in job or not mean_of(fresh) > mean_of(got):
        raise failed(ctx, f"exit {code}, {len(got)}, {mean_of(got)} vs {mean_of(fresh)}: {job[-1500:]}")
    return (f"RUN/eval.sbatch (`#SBATCH --export=ALL,MODEL_URL=<step_0100 server>`) submitted by RUN/submit.sh with "
            f"MODEL_URL of the step_0200 server exported, exit {code}; the job used the step_0100 server; "
            f"{len(keys_of(got))} of 24 rollouts, mean reward {mean_of(got):.2f} (step_0200 scores "
            f"{mean_of(fresh):.2f} on the same inputs).")


# =====================================================================================================
# cache_resume
# =====================================================================================================

PERCENT_J_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
# one results folder per job, named like the job's log; --resume so a requeued job picks up where it stopped
OUT=RUN_DIR/results/%j
mkdir -p $OUT && cd $OUT
echo "job $SLURM_JOB_ID: checkpoint $CKPT_NAME, results in $OUT"
GP_BIN materialize --input RUN_DIR/string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $MODEL_URL \\
  --env string_match --concurrency 4 --resume
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "cache_resume_slurm_job_names_results_folder_with_percent_j_that_only_sbatch_options_expand_so_resume_reuses_last_weeks",
    "cache_resume",
    ["%j", "SLURM_JOB_ID"],
    "the user's eval.sbatch writes its results to `OUT=RUN_DIR/results/%j`, meant as one folder per job like the "
    "`--output` log; `%j` is only expanded in sbatch's own options, so every job writes to the literal folder "
    "results/%j; this week's job (step_0200) ran `collect --resume` there, found last week's step_0100 rollouts "
    "already settled, collected nothing and profiled step_0100's rewards as this week's (every command exits 0)",
)
def cache_resume_slurm_job_names_results_folder_with_percent_j_that_only_sbatch_options_expand_so_resume_reuses_last_weeks(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=64, folder=run, name="string_match.jsonl")
    weaker, better = checkpoints(ctx, "string_match", data)
    sbatch_file(ctx, PERCENT_J_SBATCH)
    old_url, old = ctx.policy(weaker, "--latency-ms 20", log="logs/model_server_last_week.log")
    ctx.note("(last week: step_0100 served and evaluated)")
    first = submit(ctx, env={**ctx.env, "MODEL_URL": old_url, "CKPT_NAME": "step_0100"},
                   log="logs/submit_last_week.log")
    ctx.stop(old)
    last_week = mean_of(rows_of(run / "results" / "%j" / "rollouts.jsonl"))
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = submit(ctx, env={**ctx.env, "MODEL_URL": url, "CKPT_NAME": "step_0200"})
    folders = sorted(p.name for p in (run / "results").iterdir())
    got = rows_of(run / "results" / "%j" / "rollouts.jsonl")
    job = job_logs(ctx, "eval_*.log")
    if first or code or folders != ["%j"] or len(got) != 24 or "0 collected" not in job \
            or mean_of(got) != last_week:
        raise failed(ctx, f"exit {first}/{code}, {folders}, {len(got)}, {last_week}/{mean_of(got)}: {job[-1500:]}")
    return (f"RUN/eval.sbatch (`OUT=RUN_DIR/results/%j`, `collect --resume`) submitted by RUN/submit.sh last week "
            f"(step_0100) and this week (step_0200) exit {first}/{code}; one results folder {folders}; this week's "
            f"collect settled nothing new; mean reward {mean_of(got):.2f} (last week's {last_week:.2f}).")


# =====================================================================================================
# infra
# =====================================================================================================

NOEXEC_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
# the eval step runs from the team's scratch copy of the tools (synced there by sync_tools.sh)
cd RUN_DIR
srun SCRATCH/tools/eval_step.sh RUN_DIR
echo "eval step exit $?"
"""
EVAL_STEP = """#!/bin/bash
# eval_step.sh RUN: materialize, collect and profile of RUN/string_match.jsonl
cd $1
PIPELINE"""


@case(
    "infra_slurm_job_step_execs_tool_script_synced_to_scratch_mounted_noexec",
    "infra",
    ["noexec", "bash"],
    "the user's eval.sbatch runs its eval step with `srun $SCRATCH/tools/eval_step.sh`, a script synced to the "
    "node's scratch file system; that file system is mounted noexec, so Slurm could not execute the script "
    "('execve(): ... Permission denied'): the step failed at once and nothing was materialized, collected or "
    "profiled",
)
def infra_slurm_job_step_execs_tool_script_synced_to_scratch_mounted_noexec(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=72, folder=run, name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20")
    scratch = Path(f"/tmp/h59-scratch-{ctx.work.name[-8:]}")
    scratch.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "noexec,nosuid,nodev,size=64m", "tmpfs", str(scratch)], check=True)
    ctx.note(f"(the node's scratch: tmpfs mounted at {scratch} with noexec,nosuid,nodev, as the admins set it up)")
    try:
        (run / "eval_step.sh").write_text(EVAL_STEP.replace("PIPELINE", pipeline("$MODEL_URL")))
        (run / "sync_tools.sh").write_text(f"#!/bin/bash\nmkdir -p {scratch}/tools\ncp {run}/eval_step.sh "
                                           f"{scratch}/tools/\nchmod +x {scratch}/tools/eval_step.sh\nls -l "
                                           f"{scratch}/tools\nfindmnt -T {scratch}/tools -o TARGET,FSTYPE,OPTIONS\n")
        ctx.sh(f"bash {run}/sync_tools.sh", "logs/sync_tools.log")
        sbatch_file(ctx, NOEXEC_SBATCH, SCRATCH=str(scratch))
        code = submit(ctx, env={**ctx.env, "MODEL_URL": url})
    finally:
        subprocess.run(["umount", "-l", str(scratch)], check=False)
        scratch.rmdir()
    job = job_logs(ctx, "eval_*.log")
    if "Permission denied" not in job or rows_of(run / "rollouts.jsonl"):
        raise failed(ctx, f"exit {code}: {job[-1500:]}")
    return (f"RUN/sync_tools.sh copied RUN/eval_step.sh to the noexec scratch; RUN/eval.sbatch (`srun "
            f"$SCRATCH/tools/eval_step.sh`) submitted by RUN/submit.sh exit {code}; the step could not be executed; "
            f"0 of 24 rollouts.")


# =====================================================================================================
# the real NeMo Gym 0.7.0 with the user's own resources servers
# =====================================================================================================

ERROR_LOG_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)
        if reward == 0.0:
            # the labelling team reviews every miss: they grep the server log for them
            AUDIT.error("wrong answer: expected %r, extracted %r", body.expected_answer, extracted)

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""


def with_audit_logger(app: str) -> str:
    app = app.replace("import re\n", "import logging\nimport re\n", 1)
    app = app.replace("\nBOXED_START_PATTERN", "\nAUDIT = logging.getLogger(\"uvicorn.error\")\n\nBOXED_START_PATTERN", 1)
    return replace_verify(app, ERROR_LOG_VERIFY)


@case(
    "healthy_gym_own_server_logs_every_wrong_answer_at_error_level_for_label_review",
    "healthy",
    [],
    "nothing is wrong: the user's own resources server answer_review (Gym's string_match with one line added) logs "
    "every answer it scores 0 at ERROR level ('ERROR: wrong answer: expected ..., extracted ...') so the labelling "
    "team can review misses; the env_start log is full of ERROR lines, but they are just the checkpoint's wrong "
    "answers, scored correctly, and the eval and its profile completed every rollout",
    netns=True,
)
def healthy_gym_own_server_logs_every_wrong_answer_at_error_level_for_label_review(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=4, folder=run, name="tasks.jsonl")
    weaker, _ = checkpoints(ctx, "string_match", data)
    url, policy = ctx.policy(weaker, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    search = user_resources_server(ctx, "answer_review", "string_match", with_audit_logger)
    keep_server_code(ctx, search, "answer_review")
    ctx.note("(copied Gym's string_match to WORK/my_gym/resources_servers/answer_review, kept in RUN/my_gym; its "
             "verify logs each miss at ERROR level)")
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='answer_review')} "
                               f"{overrides}")
    script = own_eval_script(ctx, search, overrides, "answer_review")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    errors = [line for line in text_of(run / "env_start.log").splitlines() if "wrong answer: expected" in line]
    if code or len(keys_of(got)) != 24 or not errors or not any(rewards(got)) \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)}, {len(errors)}: {log_of(ctx, 'run_eval.log')[-800:]}")
    return (f"RUN/my_gym/resources_servers/answer_review/app.py (verify logs each miss at ERROR level) served by the "
            f"real `gym env start` (loopback-only namespace) against step_0100; RUN/run_eval.sh (`gym eval run "
            f"--no-serve` 8 x 3, `gym eval profile`) exit {code}; {len(keys_of(got))} of 24 rollouts, mean reward "
            f"{mean_of(got):.2f}; {len(errors)} ERROR lines in RUN/env_start.log.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

CLAMP_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)
            # partial credit from the numeric grade may come out of range: clamp the reward to [0, 1]
            reward = min(0.0, max(1.0, reward))

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""


@case(
    "verifier_runtime_gym_own_verify_clamps_reward_with_min_and_max_swapped_so_every_reward_is_zero",
    "verifier_runtime",
    ["clamp", "max(0.0", "min(1.0"],
    "the user's own resources server clamped_match (Gym's string_match copied) clamps the reward to [0, 1] with "
    "`reward = min(0.0, max(1.0, reward))`, min and max swapped: max(1.0, r) is at least 1 and min(0.0, ...) is "
    "then always 0.0, so every rollout scored 0, the right answers too, though the extracted answers match the "
    "labels (every command exits 0)",
    netns=True,
)
def verifier_runtime_gym_own_verify_clamps_reward_with_min_and_max_swapped_so_every_reward_is_zero(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=30, folder=run, name="tasks.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "clamped_match", lambda app: replace_verify(app, CLAMP_VERIFY), better,
        "(copied Gym's string_match to WORK/my_gym/resources_servers/clamped_match, kept in RUN/my_gym; its verify "
        "clamps the reward with `min(0.0, max(1.0, reward))`)")
    code = ctx.sh(f"bash {own_eval_script(ctx, search, overrides, 'clamped_match')}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    right = [r for r in got if r.get("extracted_answer") is not None
             and str(r["extracted_answer"]).strip().lower() == str(r.get("expected_answer")).strip().lower()]
    if code or len(keys_of(got)) != 24 or not right or any(rewards(got)):
        raise failed(ctx, f"exit {code}, {len(got)}, right {len(right)}, {rewards(got)}: "
                          f"{log_of(ctx, 'run_eval.log')[-800:]}")
    return (f"RUN/my_gym/resources_servers/clamped_match/app.py (`reward = min(0.0, max(1.0, reward))`) served by the "
            f"real `gym env start` (loopback-only namespace) against step_0200; RUN/run_eval.sh (`gym eval run "
            f"--no-serve` 8 x 3, `gym eval profile`) exit {code}; {len(got)} rollouts, {len(right)} extracted answers "
            f"equal to their labels, every reward 0.0.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

VERDICT_CACHE_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        # verdicts are kept on disk across runs: the same answer to the same question is not graded twice
        question = json.dumps(body.responses_create_params.model_dump(mode="json")["input"], sort_keys=True)
        key = hashlib.sha1(f"{question}\\x00{extracted}".encode()).hexdigest()
        verdicts = json.loads(CACHE.read_text()) if CACHE.exists() else {}
        if key in verdicts:
            reward = verdicts[key]
        else:
            reward = 0.0
            if extracted is not None and body.expected_answer:
                reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)
            verdicts[key] = reward
            CACHE.write_text(json.dumps(verdicts))

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""


def with_verdict_cache(app: str) -> str:
    app = app.replace("import re\n", "import hashlib\nimport json\nimport re\nfrom pathlib import Path\n", 1)
    app = app.replace("\nBOXED_START_PATTERN", "\nCACHE = Path(__file__).parent / \"verdict_cache.json\"\n\n"
                      "BOXED_START_PATTERN", 1)
    return replace_verify(app, VERDICT_CACHE_VERIFY)


@case(
    "cache_resume_gym_own_server_verdict_cache_keyed_without_label_keeps_old_verdicts_after_labels_fixed",
    "cache_resume",
    ["cache", "expected_answer"],
    "the user's own resources server cached_match keeps a verdict cache on disk (verdict_cache.json beside app.py) "
    "keyed on the question and the extracted answer but not the label; last week's eval ran on tasks with three "
    "wrong labels, the labels were fixed this week and the eval rerun, but every answer seen last week got last "
    "week's cached verdict: the right answers to the fixed tasks still scored 0 (every command exits 0)",
    netns=True,
)
def cache_resume_gym_own_server_verdict_cache_keyed_without_label_keeps_old_verdicts_after_labels_fixed(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=16, folder=run, name="tasks.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    wrong = {1: 0, 4: 1, 6: 2}  # task index -> which distractor the labelling slip put in
    week1 = [dict(row) for row in rows_of(data)]
    for index, pick in wrong.items():
        week1[index]["expected_answer"] = week1[index]["distractors"][pick]
    (run / "tasks_week1.jsonl").write_text("".join(json.dumps(row) + "\n" for row in week1))
    search, overrides, env_start, policy = gym_own_server(
        ctx, "cached_match", with_verdict_cache, better,
        "(copied Gym's string_match to WORK/my_gym/resources_servers/cached_match, kept in RUN/my_gym; its verify "
        "caches verdicts in verdict_cache.json keyed on question and extracted answer)")
    ctx.note("(last week: the eval of tasks_week1.jsonl, three labels wrong)")
    week1_script = own_eval_script(ctx, search, overrides, "cached_match", "tasks_week1.jsonl", "results_week1",
                                   "last week's eval")
    code1 = ctx.sh(f"bash {week1_script}", "logs/run_eval_week1.log", timeout=500)
    week1_script.rename(run / "run_eval_week1.sh")
    ctx.note("(this week: the labelling team fixed the three labels in tasks.jsonl; the eval is run again)")
    code = ctx.sh(f"bash {own_eval_script(ctx, search, overrides, 'cached_match')}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    stale = [r for r in got if r.get("_ng_task_index") in wrong and r.get("extracted_answer") is not None
             and str(r["extracted_answer"]).strip().lower() == str(r.get("expected_answer")).strip().lower()
             and r.get("reward") == 0.0]
    if code1 or code or len(keys_of(got)) != 24 or not stale:
        raise failed(ctx, f"exit {code1}/{code}, {len(got)}, stale {len(stale)}: {log_of(ctx, 'run_eval.log')[-800:]}")
    return (f"RUN/my_gym/resources_servers/cached_match/app.py (verdict cache keyed on question + extracted answer); "
            f"real `gym env start` (loopback-only namespace); RUN/run_eval_week1.sh last week on RUN/tasks_week1.jsonl "
            f"(3 wrong labels) exit {code1}, RUN/run_eval.sh this week on RUN/tasks.jsonl (labels fixed) exit {code}; "
            f"{len(got)} rollouts, {len(stale)} right answers to the fixed tasks scored 0.0, mean reward "
            f"{mean_of(got):.2f}.")


# =====================================================================================================
# data_schema
# =====================================================================================================

TO_GYM_PY = '''"""to_gym.py: our questions.jsonl (question, answer) as Gym string_match tasks, with the team's template."""
import json

TEMPLATE = [
    {"role": "system",
     "content": "You are a careful assistant. {question} End your response with 'Final answer: <answer>'."},
]

with open("questions.jsonl") as src, open("tasks.jsonl", "w") as out:
    for line in src:
        q = json.loads(line)
        messages = [dict(m, content=m["content"].format(question=q["question"])) for m in TEMPLATE]
        out.write(json.dumps({"responses_create_params": {"input": messages}, "expected_answer": q["answer"],
                              "extraction_mode": "final_answer"}) + "\\n")
print("wrote tasks.jsonl")
'''


@case(
    "data_schema_gym_prep_chat_template_puts_question_in_system_message_so_tasks_have_no_user_turn",
    "data_schema",
    ["user", "role"],
    "the user's to_gym.py builds the Gym tasks from questions.jsonl with the team's one-message chat template, whose "
    "only message has role system: every task's input is a system message holding the question and no user "
    "message, so the model server refused every generation (400 'messages: no user message'); no rollout got a "
    "reward and the profile had nothing to measure",
    netns=True,
)
def data_schema_gym_prep_chat_template_puts_question_in_system_message_so_tasks_have_no_user_turn(ctx: Ctx) -> str:
    run = ctx.run
    source = ctx.dataset("string_match", 8, start=48, name="source.jsonl")
    questions = []
    for row in rows_of(source):
        text = row["responses_create_params"]["input"][0]["content"][0]["text"]
        questions.append({"question": text.split(" End your response")[0].split(" Put your final")[0],
                          "answer": row["expected_answer"]})
    (run / "questions.jsonl").write_text("".join(json.dumps(q) + "\n" for q in questions))
    (run / "to_gym.py").write_text(TO_GYM_PY)
    ctx.sh(f"cd {run} && {recipes.PY} to_gym.py", "logs/to_gym.log")
    _, better = checkpoints(ctx, "string_match", source)
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval\n" + f"cd {run}\n"
                      + gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 4) + "\n"
                      + gym_profile_line("results") + "\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = [r for r in gym_rows(ctx) if r.get("reward") is not None]
    everything = "".join(text_of(p) for p in run.rglob("*") if p.is_file() and p.suffix in (".log", ".jsonl"))
    if got or "no user message" not in everything:
        raise failed(ctx, f"exit {code}, {len(got)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/questions.jsonl; RUN/to_gym.py (the team's template: one system message) wrote RUN/tasks.jsonl; "
            f"real `gym env start` (loopback-only namespace); RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, `gym "
            f"eval profile`) exit {code}; {len(got)} scored rollouts; the model server answered 400 'no user "
            f"message'.")


# =====================================================================================================
# config
# =====================================================================================================


@case(
    "config_gym_own_server_yaml_pins_port_8000_that_the_model_server_already_listens_on",
    "config",
    ["port"],
    "the user's own resources server's config (configs/label_match.yaml) pins `port: 8000`, copied from a "
    "colleague's debugging setup so their script could reach the server; on this node the model server (vLLM's "
    "default) already listens on 8000, so label_match could not bind its port ('address already in use') and "
    "exited (the model server on 8000 can even answer its health check); `gym env start` found `label_match` "
    "finished unexpectedly and shut the whole environment down: the eval could not reach the head server "
    "(connection refused), nothing was evaluated and the profile found no rollout",
    netns=True,
)
def config_gym_own_server_yaml_pins_port_8000_that_the_model_server_already_listens_on(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=78, folder=run, name="tasks.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    ready = ctx.work / "policy-ready"
    policy = ctx.bg(f"{GP} serve-policy --port 8000 --ready-file {ready} --checkpoint {better} --latency-ms 30",
                    "policy_server.log")
    wait_for(lambda: ready.exists() and ready.read_text().strip() != "", 30, "the model server on port 8000")
    url = ready.read_text().strip()
    overrides = ctx.gym_overrides()
    search = user_resources_server(ctx, "label_match", "string_match")
    config = search / "resources_servers" / "label_match" / "configs" / "label_match.yaml"
    config.write_text(config.read_text().replace(
        "      entrypoint: app.py\n",
        "      entrypoint: app.py\n      # fixed port so Ana's debug script can reach the server\n      port: 8000\n", 1))
    if "port: 8000" not in config.read_text():
        raise failed(ctx, f"could not pin the port: {config.read_text()}")
    keep_server_code(ctx, search, "label_match")
    ctx.note("(copied Gym's string_match to WORK/my_gym/resources_servers/label_match, kept in RUN/my_gym; its "
             "config pins port 8000; the model server listens on 8000)")
    env_start = ctx.gym_env_start(f"--search-dir {search} {gym_model_args(url, resources_server='label_match')} "
                                  f"{overrides}", wait=False)
    wait_env_start(ctx, env_start, 120)  # it may say all servers are ready, or stop first: the user runs the eval
    script = own_eval_script(ctx, search, overrides, "label_match")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = [r for r in gym_rows(ctx) if r.get("reward") is not None]
    log = text_of(run / "env_start.log")
    if got or "address already in use" not in log or "finished unexpectedly" not in log:
        raise failed(ctx, f"exit {code}, {len(got)}: {log_of(ctx, 'run_eval.log')[-2000:]}")
    return (f"RUN/my_gym/resources_servers/label_match/configs/label_match.yaml (`port: 8000`); the model server on "
            f"{url}; real `gym env start` (loopback-only namespace): label_match could not bind 8000 (the model "
            f"server answered its health checks); RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, `gym eval "
            f"profile`) exit {code}; {len(got)} scored rollouts.")


if __name__ == "__main__":
    sys.exit(main("fifty_ninth_held_out", __file__, __doc__))
