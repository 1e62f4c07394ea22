"""Build the SIXTY-EIGHTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/sixty_eighth_held_out.py --out tests/data/diagnosis_corpus/sixty_eighth_held_out [--only CASE ...]

This set was written after the sixty-seven earlier sets (first_held_out.py ... sixty_seventh_held_out.py), from
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
mechanism from those of the sixty-seven earlier sets, and each recipe checks that its fault really happened (it
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
import re
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
from sixty_third_held_out import gym_script, gym_up, mean_of, prompt_of, scancel_ids  # noqa: E402
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


def run_submit(ctx: Ctx, template: str, timeout: float = 500, env: dict | None = None, log: str = "logs/submit.log",
               name: str = "submit.sh", **values: str) -> int:
    """RUN/<name> from `template`, run as the user would; every job it recorded in job_ids.txt cancelled after."""
    (ctx.run / "logs").mkdir(exist_ok=True)
    (ctx.run / name).write_text(slurm_script(template, ctx, **values))
    try:
        return ctx.sh(f"bash {ctx.run}/{name}", log, timeout=timeout, env=env)
    finally:
        scancel_ids(ctx, *text_of(ctx.run / "job_ids.txt").split())


def steps_file(ctx: Ctx, url: str = "$MODEL_URL", data: str = "string_match.jsonl") -> Path:
    path = ctx.run / "steps.sh"
    path.write_text(f"#!/bin/bash\n# the weekly eval's steps\necho \"weekly eval against {url}\"\n"
                    f"{pipeline(url, data=data)}")
    return path


# =====================================================================================================
# healthy
# =====================================================================================================

WAIT_SUBMIT = """#!/bin/bash
# submit.sh: submit the weekly eval and block until it has finished (sbatch --wait returns the job's exit code)
cd RUN_DIR
echo "submitting eval.sbatch with --wait at $(date +%T)"
sbatch --wait eval.sbatch
CODE=$?
echo "sbatch --wait returned $CODE at $(date +%T)"
ls logs/
exit $CODE
"""


@case(
    "healthy_slurm_submit_blocks_on_sbatch_wait_and_prints_no_job_id_until_the_job_ends",
    "healthy",
    [],
    "nothing is wrong: the user's submit.sh submits the eval with `sbatch --wait`, which prints 'Submitted batch job "
    "<id>' and then blocks without any output until the job has finished (no squeue polling, no progress), which "
    "looks like a hung submission, but sbatch returned the job's exit code 0 and the job ran materialize, collect and "
    "profile to the end with every rollout collected",
)
def healthy_slurm_submit_blocks_on_sbatch_wait_and_prints_no_job_id_until_the_job_ends(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=44, folder=run, name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20")
    sbatch_file(ctx, "#!/bin/bash\n#SBATCH --job-name=weekly-eval\n#SBATCH --output=RUN_DIR/logs/eval_%j.log\n"
                "#SBATCH --time=10\n#SBATCH --ntasks=1\ncd RUN_DIR\necho \"weekly eval against $MODEL_URL\"\n"
                "PIPELINE", PIPELINE=pipeline("$MODEL_URL"))
    try:
        code = run_submit(ctx, WAIT_SUBMIT, env={**ctx.env, "MODEL_URL": url})
    finally:
        scancel_ids(ctx, *re.findall(r"Submitted batch job (\d+)", log_of(ctx, "submit.log")))
    submitted = log_of(ctx, "submit.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or "returned 0" not in submitted or len(keys_of(got)) != 24 \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)}: {submitted[-800:]} {job_logs(ctx, 'eval_*.log')[-1200:]}")
    return (f"RUN/eval.sbatch (materialize 8 x 3, collect, profile) submitted by RUN/submit.sh with `sbatch --wait` "
            f"exit {code}; {len(keys_of(got))} of 24 rollouts, mean reward {mean_of(got):.2f}.")


CJK = [("中国的首都是哪座城市？", "北京"), ("日本で一番高い山は何ですか？", "富士山"),
       ("한국의 수도는 어디입니까?", "서울"), ("台湾最长的河流是哪一条？", "浊水溪"),
       ("What is 'water' in Japanese (kanji)?", "水"), ("水的化学式是什么？", "H2O"),
       ("「ありがとう」は英語で何ですか？", "Thank you"), ("长城位于哪个国家？", "中国")]


@case(
    "healthy_gym_multilingual_split_with_chinese_japanese_korean_prompts_and_labels",
    "healthy",
    [],
    "nothing is wrong: the user's multilingual split has Chinese, Japanese and Korean prompts and labels (北京, 富士山, "
    "서울, ...); the user's tasks.jsonl holds them as escaped \\uXXXX sequences while Gym's rollouts and profile hold "
    "the characters themselves, which looks like an encoding mismatch between input and output, but both are the same "
    "text, the labels and the model's answers match as text, and `gym eval profile` completed with every rollout "
    "verified (the rollouts that scored 0 are the model's own wrong answers)",
    netns=True,
)
def healthy_gym_multilingual_split_with_chinese_japanese_korean_prompts_and_labels(ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in CJK])
    _, better = truth_checkpoints(ctx, CJK)
    overrides, env_start, policy = gym_up(ctx, better)
    script = gym_script(ctx, "monthly eval of the multilingual (CJK) split",
                        [gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 4),
                         gym_profile_line("results")])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    profile = rows_of(next(iter(run.glob("results/*reward_profiling*.jsonl")), run / "none"))
    if code or len(keys_of(got)) != 24 or len(profile) != 8 or mean_of(got) < 0.5:
        raise failed(ctx, f"exit {code}, {len(got)}, {len(profile)}, {mean_of(got)}: "
                          f"{log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/tasks.jsonl (8 Chinese/Japanese/Korean tasks); real `gym env start` (loopback-only namespace) "
            f"against step_0200; RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, `gym eval profile`) exit {code}; "
            f"{len(keys_of(got))} of 24 rollouts, {len(profile)} profile rows, mean reward {mean_of(got):.2f}.")


OVERLAP_SBATCH = """#!/bin/bash
#SBATCH --job-name=eval-with-server
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
# one job: the model server as a background job step, the eval as a second step beside it
# (both steps --overlap: they share the job's one core; the server idles while the eval verifies)
cd RUN_DIR
rm -f server_url.txt
srun --overlap GP_BIN serve-policy --port 0 --ready-file RUN_DIR/server_url.txt --checkpoint CKPT --latency-ms 20 &
SERVER=$!
for i in $(seq 60); do [ -s server_url.txt ] && break; sleep 1; done
export MODEL_URL=$(cat server_url.txt)
echo "model server step up at $MODEL_URL"
srun --overlap bash steps.sh
CODE=$?
kill $SERVER; wait $SERVER 2>/dev/null
echo "eval step exit $CODE"
exit $CODE
"""

SUBMIT = """#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd RUN_DIR
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do squeue -h -j $JOB -o '%i %j %T %M %r' 2>/dev/null; sleep 5; done
echo "job $JOB finished"
"""


@case(
    "healthy_slurm_one_core_job_runs_model_server_and_eval_as_overlapping_job_steps",
    "healthy",
    [],
    "nothing is wrong: the user's eval.sbatch asks for one task (one core) and runs the model server as a background "
    "job step and the eval as a second job step, both with `srun --overlap`, so they share the core; the job log "
    "shows two steps on one core and a model server killed at the end, which looks like an oversubscribed or "
    "aborted job, but the eval step exited 0 and every rollout was collected and profiled",
)
def healthy_slurm_one_core_job_runs_model_server_and_eval_as_overlapping_job_steps(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=52, folder=run, name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    steps_file(ctx)
    sbatch_file(ctx, OVERLAP_SBATCH, CKPT=str(better))
    code = run_submit(ctx, SUBMIT)
    job = job_logs(ctx, "eval_*.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or "eval step exit 0" not in job or len(keys_of(got)) != 24 \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)}: {job[-1500:]}")
    return (f"RUN/eval.sbatch (`--ntasks=1`; `srun --overlap serve-policy` step in the background, `srun --overlap "
            f"bash steps.sh`: materialize 8 x 3, collect, profile) submitted by RUN/submit.sh exit {code}; "
            f"{len(keys_of(got))} of 24 rollouts, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# model_serving
# =====================================================================================================

SERVE_SBATCH = """#!/bin/bash
#SBATCH --job-name=serve-policy
#SBATCH --output=RUN_DIR/logs/serve_%j.log
#SBATCH --time=15
#SBATCH --ntasks=1
# the team's model-server job: serves the checkpoint given as its argument; its URL goes to server_<jobid>.url
echo "serving $1"
GP_BIN serve-policy --port 0 --ready-file RUN_DIR/server_${SLURM_JOB_ID}.url --checkpoint $1 --latency-ms 20
"""

FIND_SUBMIT = """#!/bin/bash
# submit.sh: bring up the model server for this week's checkpoint, then evaluate it
cd RUN_DIR
sbatch --parsable serve.sbatch NEWCKPT >> job_ids.txt
# find our model server job and its URL file
SERVER=$(squeue -h --me -n serve-policy -o %i -S i | head -1)
echo "model server job: $SERVER"
for i in $(seq 90); do [ -s server_$SERVER.url ] && break; sleep 2; done
MODEL_URL=$(cat server_$SERVER.url)
echo "model server up at $MODEL_URL"
PIPELINE
"""


@case(
    "model_serving_slurm_submit_finds_server_job_by_name_with_squeue_head_so_last_weeks_still_running_server_is_used",
    "model_serving",
    ["squeue", "head -1", "serve-policy", "scancel", "job id"],
    "the user's submit.sh submits this week's model-server job (step_0200) but then looks the server up by name, "
    "`squeue -h --me -n serve-policy -o %i -S i | head -1`, instead of keeping the job id sbatch printed; last week's "
    "serve-policy job (serving step_0100) was never cancelled and is still running, and as the older job it is listed "
    "first: the eval read its URL file and measured last week's checkpoint, and every command exits 0",
)
def model_serving_slurm_submit_finds_server_job_by_name_with_squeue_head_so_last_weeks_still_running_server_is_used(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 10, start=60, folder=run, name="string_match.jsonl")
    baseline, better = checkpoints(ctx, "string_match", data)
    (run / "logs").mkdir(exist_ok=True)
    (run / "serve.sbatch").write_text(slurm_script(SERVE_SBATCH, ctx))
    try:
        ctx.note("(last week: `sbatch serve.sbatch .../step_0100`, never cancelled)")
        code0 = ctx.sh(f"cd {run} && sbatch --parsable serve.sbatch {baseline} | tee -a last_week_job_id.txt",
                       "logs/last_week_submit.log")
        old = text_of(run / "last_week_job_id.txt").strip()
        recipes.wait_for(lambda: (run / f"server_{old}.url").exists() and text_of(run / f"server_{old}.url").strip(),
                         120, "last week's server")
        code = run_submit(ctx, FIND_SUBMIT, NEWCKPT=str(better), PIPELINE=pipeline("$MODEL_URL"))
    finally:
        scancel_ids(ctx, *text_of(run / "last_week_job_id.txt").split())
    submitted = log_of(ctx, "submit.log")
    got = rows_of(run / "rollouts.jsonl")
    new = text_of(run / "job_ids.txt").strip()
    if code0 or code or f"model server job: {old}" not in submitted or not new or new == old \
            or len(keys_of(got)) != 30 or f"serving {better}" not in job_logs(ctx, f"serve_{new}.log"):
        raise failed(ctx, f"exit {code}, old {old}, new {new}, {len(got)}: {submitted[-1200:]}")
    return (f"last week's `sbatch serve.sbatch .../step_0100` (job {old}) still running; RUN/submit.sh (`sbatch "
            f"serve.sbatch .../step_0200` = job {new}, then `squeue -n serve-policy ... | head -1`, materialize 10 x 3, "
            f"collect, profile) exit {code}; it picked job {old}; {len(keys_of(got))} of 30 rollouts against "
            f"step_0100, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

BUSY_SBATCH = """#!/bin/bash
#SBATCH --job-name=eval-with-server
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=1
#SBATCH --ntasks=1
# one job: the model server as a background job step, the eval as a second step beside it
cd RUN_DIR
rm -f server_url.txt
srun GP_BIN serve-policy --port 0 --ready-file RUN_DIR/server_url.txt --checkpoint CKPT --latency-ms 20 &
for i in $(seq 60); do [ -s server_url.txt ] && break; sleep 1; done
export MODEL_URL=$(cat server_url.txt)
echo "model server step up at $MODEL_URL"
srun bash steps.sh
echo "eval step exit $?"
"""


@case(
    "throughput_slurm_one_core_job_gives_its_only_core_to_server_step_so_eval_step_waits_until_time_limit",
    "throughput_resources",
    ["--ntasks", "--overlap", "step creation temporarily disabled", "Requested nodes are busy"],
    "the user's eval.sbatch asks for one task (`--ntasks=1`, one core) and starts the model server as a background "
    "job step (`srun serve-policy &`) and then the eval as a second step (`srun bash steps.sh`); the server step holds "
    "the job's only core, so Slurm keeps refusing the eval step ('step creation temporarily disabled, retrying "
    "(Requested nodes are busy)') until the job reaches its time limit and is cancelled: nothing was collected. The "
    "job needs a core for each step (--ntasks=2) or the steps must share it (srun --overlap)",
)
def throughput_slurm_one_core_job_gives_its_only_core_to_server_step_so_eval_step_waits_until_time_limit(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=70, folder=run, name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    steps_file(ctx)
    sbatch_file(ctx, BUSY_SBATCH, CKPT=str(better))
    code = run_submit(ctx, SUBMIT, timeout=400)
    job = job_logs(ctx, "eval_*.log")
    got = rows_of(run / "rollouts.jsonl")
    if "Requested nodes are busy" not in job or got or "TIME LIMIT" not in job.upper():
        raise failed(ctx, f"exit {code}, {len(got)}: {job[-1500:]}")
    return (f"RUN/eval.sbatch (`--ntasks=1 --time=1`; `srun serve-policy &`, then `srun bash steps.sh`) submitted by "
            f"RUN/submit.sh exit {code}; the eval step was refused (Requested nodes are busy) until the time limit "
            f"cancelled the job; {len(got)} rollouts.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

SHARD_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-shards
#SBATCH --output=RUN_DIR/logs/shard_%A_%a.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --array=0-NLAST
# one array task per shard of tasks.jsonl (shard_0.jsonl, shard_1.jsonl, ... made by submit.sh)
SHARD=shard_${SLURM_ARRAY_TASK_ID}
echo "array task ${SLURM_ARRAY_TASK_ID}: $SHARD"
cd RUN_DIR && rm -rf $SHARD && mkdir -p $SHARD && cd $SHARD
PIPELINE"""

SHARD_SUBMIT = """#!/bin/bash
# submit.sh: the weekly sharded eval (4 tasks a shard), then merge.sh
cd RUN_DIR
rm -f shard_?.jsonl
split -l 4 -d -a 1 --additional-suffix=.jsonl tasks.jsonl shard_
N=$(ls shard_?.jsonl | wc -l)
echo "$N shards"
JOB=$(sbatch --parsable --array=0-$((N-1)) eval.sbatch)
echo "submitted job array $JOB (0-$((N-1)))"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 3; done
echo "job array $JOB finished"
bash merge.sh
"""

MERGE_SH = """#!/bin/bash
# merge.sh: every shard's rollouts into one file, and the weekly number
cd RUN_DIR
cat shard_*/rollouts.jsonl > merged_rollouts.jsonl
for d in shard_*/; do echo "$d $(wc -l < $d/rollouts.jsonl) rollouts"; done
PY_BIN - <<'EOF'
import json
rows = [json.loads(line) for line in open("merged_rollouts.jsonl")]
print(f"merged {len(rows)} rollouts, mean reward {sum(r['reward'] for r in rows) / len(rows):.3f}")
EOF
"""


@case(
    "cache_resume_slurm_merge_globs_shard_folders_so_last_weeks_fifth_shard_of_dropped_tasks_is_merged_in",
    "cache_resume",
    ["shard_*", "merge.sh", "stale", "shard_4", "rm"],
    "the user's merge.sh concatenates `shard_*/rollouts.jsonl` from the run folder; last week the 20-task split made "
    "five shards, this week the team dropped four flawed tasks and the 16 tasks made four, and each array task only "
    "clears its own shard folder: last week's shard_4/ (the dropped tasks, collected against last week's checkpoint) "
    "was still there and its 12 rollouts were merged into this week's number, and every command exits 0",
)
def cache_resume_slurm_merge_globs_shard_folders_so_last_weeks_fifth_shard_of_dropped_tasks_is_merged_in(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 20, start=40, folder=ctx.work, name="all.jsonl")
    baseline, better = checkpoints(ctx, "string_match", data)
    (run / "merge.sh").write_text(slurm_script(MERGE_SH, ctx, PY_BIN=str(recipes.PY)))
    (run / "tasks.jsonl").write_text(text_of(data))
    url_old, old_policy = ctx.policy(baseline, "--latency-ms 10", log="logs/model_server_last_week.log")
    ctx.note("(last week: 20 tasks, five shards, against step_0100)")
    sbatch_file(ctx, SHARD_SBATCH, NLAST="4", PIPELINE=pipeline("$MODEL_URL", data="../$SHARD.jsonl"))
    code0 = run_submit(ctx, SHARD_SUBMIT, env={**ctx.env, "MODEL_URL": url_old}, log="logs/submit_last_week.log")
    ctx.stop(old_policy)
    (run / "job_ids.txt").unlink(missing_ok=True)
    ctx.note("(this week: the team dropped the last four (flawed) tasks from tasks.jsonl; new checkpoint step_0200)")
    (run / "tasks.jsonl").write_text("".join(text_of(data).splitlines(keepends=True)[:16]))
    url, _ = ctx.policy(better, "--latency-ms 10")
    code = run_submit(ctx, SHARD_SUBMIT, env={**ctx.env, "MODEL_URL": url})
    merged = rows_of(run / "merged_rollouts.jsonl")
    stale = rows_of(run / "shard_4" / "rollouts.jsonl")
    if code0 or code or len(merged) != 60 or len(stale) != 12 or "merged 60 rollouts" not in log_of(ctx, "submit.log"):
        raise failed(ctx, f"exit {code0}/{code}, {len(merged)}, {len(stale)}: {log_of(ctx, 'submit.log')[-1500:]}")
    return (f"last week: RUN/submit.sh (20 tasks, array of five shards against step_0100) exit {code0}; this week: "
            f"RUN/tasks.jsonl cut to 16 tasks, RUN/submit.sh (array 0-3 against step_0200, then merge.sh: `cat "
            f"shard_*/rollouts.jsonl`) exit {code}; merged {len(merged)} rollouts (48 expected), {len(stale)} of them "
            f"from last week's shard_4; mean reward {mean_of(merged):.2f}.")


# =====================================================================================================
# infra
# =====================================================================================================

ENV_SH = """# cluster_env.sh: my shell settings for the cluster (sourced by my scripts)
export SLURM_CONF=STALE_CONF
export EVAL_PARTITION=debug
"""

SOURCED_SUBMIT = """#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd RUN_DIR
source ./cluster_env.sh
echo "SLURM_CONF=$SLURM_CONF"
JOB=$(sbatch --parsable -p $EVAL_PARTITION eval.sbatch) || { echo "sbatch failed"; exit 1; }
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 3; done
echo "job $JOB finished"
"""


@case(
    "infra_slurm_user_env_file_points_slurm_conf_at_personal_copy_with_controller_port_of_the_old_cluster",
    "infra",
    ["SLURM_CONF", "SlurmctldPort", "Unable to contact slurm controller", "cluster_env.sh"],
    "the user's cluster_env.sh (sourced by submit.sh) exports SLURM_CONF pointing at a personal copy of slurm.conf "
    "(.slurm/slurm.conf in the project folder) kept from before the controller moved to a new port; the copy still names SlurmctldPort=16917 where nothing "
    "listens, so sbatch failed with 'Unable to contact slurm controller (connect failure)' and no job was submitted; "
    "the environment must use the cluster's own slurm.conf",
)
def infra_slurm_user_env_file_points_slurm_conf_at_personal_copy_with_controller_port_of_the_old_cluster(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=12, folder=run, name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20")
    stale = run / ".slurm" / "slurm.conf"
    stale.parent.mkdir(parents=True)
    real = text_of(Path(recipes.SERVICES_ENV["SLURM_CONF"]))
    if "SlurmctldPort=16817" not in real:
        raise failed(ctx, "the cluster's slurm.conf has no SlurmctldPort=16817")
    stale.write_text(real.replace("SlurmctldPort=16817", "SlurmctldPort=16917"))
    ctx.note("(the user's personal copy of slurm.conf from before the controller moved, RUN/.slurm/slurm.conf, names "
             "SlurmctldPort=16917)")
    (run / "cluster_env.sh").write_text(ENV_SH.replace("STALE_CONF", str(stale)))
    sbatch_file(ctx, "#!/bin/bash\n#SBATCH --job-name=weekly-eval\n#SBATCH --output=RUN_DIR/logs/eval_%j.log\n"
                "#SBATCH --time=10\n#SBATCH --ntasks=1\ncd RUN_DIR\necho \"weekly eval against $MODEL_URL\"\n"
                "PIPELINE", PIPELINE=pipeline("$MODEL_URL"))
    code = run_submit(ctx, SOURCED_SUBMIT, env={**ctx.env, "MODEL_URL": url})
    submitted = log_of(ctx, "submit.log")
    if code == 0 or "Unable to contact slurm controller" not in submitted or (run / "rollouts.jsonl").exists():
        raise failed(ctx, f"exit {code}: {submitted[-1500:]}")
    return (f"RUN/cluster_env.sh (SLURM_CONF -> a personal copy naming SlurmctldPort=16917); RUN/submit.sh (source "
            f"cluster_env.sh, sbatch eval.sbatch) exit {code}; sbatch: Unable to contact slurm controller; no job, "
            f"no rollouts.")


# =====================================================================================================
# config
# =====================================================================================================

AFTEROK_SUBMIT = """#!/bin/bash
# submit.sh: the model server job, and the eval job chained to it so that it does not start before the server
cd RUN_DIR
SERVER=$(sbatch --parsable serve.sbatch CKPT)
echo $SERVER >> job_ids.txt
JOB=$(sbatch --parsable --dependency=afterok:$SERVER eval.sbatch)
echo $JOB >> job_ids.txt
echo "model server job $SERVER, eval job $JOB (--dependency=afterok:$SERVER)"
for i in $(seq 15); do
  squeue -h -j $SERVER,$JOB -o '%i %j %T %M %r' 2>/dev/null
  squeue -h -j $JOB -o %T 2>/dev/null | grep -q PENDING || break
  sleep 6
done
if squeue -h -j $JOB -o %T 2>/dev/null | grep -q PENDING; then
  echo "eval job $JOB still pending after 90 s: giving up for today"
  exit 1
fi
"""

CHAINED_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
cd RUN_DIR
MODEL_URL=$(cat server_*.url | head -1)
echo "weekly eval against $MODEL_URL"
PIPELINE"""


@case(
    "config_slurm_eval_job_chained_to_model_server_job_with_afterok_which_waits_for_the_server_to_exit",
    "config",
    ["--dependency", "afterok", "after:", "Dependency"],
    "the user's submit.sh chains the eval job to the model-server job with `--dependency=afterok:<server>` so that "
    "it does not start before the server; afterok waits for the server job to END successfully, and a model server "
    "never ends on its own, so the eval job stayed PENDING (Dependency) while the server ran idle, and the user gave "
    "up after 90 s with nothing collected. The dependency must be `after:` (start after the server job has started) "
    "plus a readiness wait, not afterok",
)
def config_slurm_eval_job_chained_to_model_server_job_with_afterok_which_waits_for_the_server_to_exit(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=24, folder=run, name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    (run / "logs").mkdir(exist_ok=True)
    (run / "serve.sbatch").write_text(slurm_script(SERVE_SBATCH, ctx))
    sbatch_file(ctx, CHAINED_SBATCH, PIPELINE=pipeline("$MODEL_URL"))
    code = run_submit(ctx, AFTEROK_SUBMIT, timeout=300, CKPT=str(better))
    submitted = log_of(ctx, "submit.log")
    if code == 0 or not re.search(r"weekly-eval PENDING \S+ Dependency", submitted) \
            or "serve-policy RUNNING" not in submitted or (run / "rollouts.jsonl").exists():
        raise failed(ctx, f"exit {code}: {submitted[-1500:]}")
    return (f"RUN/serve.sbatch (step_0200), RUN/eval.sbatch; RUN/submit.sh (`sbatch --dependency=afterok:<server> "
            f"eval.sbatch`, waits 90 s) exit {code}; the server job ran, the eval job stayed PENDING (Dependency); no "
            f"rollouts.")


PROCID_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-shards
#SBATCH --output=RUN_DIR/logs/shard_%A_%a.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --array=0-3
# one array task per shard of tasks.jsonl (shard_0.jsonl ... shard_3.jsonl, made by submit.sh)
# (shard selection kept from the team's multi-task srun template, where each task's rank picks its shard)
SHARD=shard_${SLURM_PROCID}
OUT=out_${SLURM_ARRAY_TASK_ID}
echo "array task ${SLURM_ARRAY_TASK_ID}: $SHARD -> $OUT"
cd RUN_DIR && rm -rf $OUT && mkdir -p $OUT && cd $OUT
PIPELINE"""

PROCID_SUBMIT = """#!/bin/bash
# submit.sh: the weekly sharded eval (4 shards of 4 tasks)
cd RUN_DIR
split -l 4 -d -a 1 --additional-suffix=.jsonl tasks.jsonl shard_
wc -l shard_?.jsonl
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job array $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 3; done
echo "job array $JOB finished"
for d in out_*/; do echo "$d $(wc -l < $d/rollouts.jsonl) rollouts"; done
cat out_*/rollouts.jsonl > merged_rollouts.jsonl
echo "merged $(wc -l < merged_rollouts.jsonl) rollouts"
"""


@case(
    "config_slurm_array_task_picks_its_shard_by_slurm_procid_which_is_zero_in_every_array_task",
    "config",
    ["SLURM_PROCID", "SLURM_ARRAY_TASK_ID", "shard", "eval.sbatch"],
    "the user's eval.sbatch picks each array task's shard with `SHARD=shard_${SLURM_PROCID}`, kept from the team's "
    "multi-task srun template where the rank of each task picks its shard; in a job array every array task is a "
    "one-task job whose SLURM_PROCID is 0, so all four array tasks evaluated shard_0 (into out_0 ... out_3) and shards "
    "1-3 (12 of the 16 tasks) were never evaluated, while the merged file has the expected 48 rows; every command "
    "exits 0. The shard must be chosen by SLURM_ARRAY_TASK_ID",
)
def config_slurm_array_task_picks_its_shard_by_slurm_procid_which_is_zero_in_every_array_task(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 16, start=2, folder=run, name="tasks.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 10")
    sbatch_file(ctx, PROCID_SBATCH, PIPELINE=pipeline("$MODEL_URL", data="../$SHARD.jsonl"))
    code = run_submit(ctx, PROCID_SUBMIT, env={**ctx.env, "MODEL_URL": url})
    merged = rows_of(run / "merged_rollouts.jsonl")
    shard0 = {prompt_of(r) for r in rows_of(run / "shard_0.jsonl")}
    prompts = {prompt_of(r) for r in merged}
    if code or len(merged) != 48 or prompts != shard0:
        raise failed(ctx, f"exit {code}, {len(merged)}, {len(prompts)}: {job_logs(ctx, 'shard_*.log')[-1500:]}")
    return (f"RUN/tasks.jsonl (16 tasks); RUN/eval.sbatch (`--array=0-3`, `SHARD=shard_${{SLURM_PROCID}}`, materialize "
            f"4 x 3, collect, profile into out_<array task>) submitted by RUN/submit.sh exit {code}; merged "
            f"{len(merged)} rollouts, all of them of the {len(prompts)} tasks of shard_0.")


# =====================================================================================================
# data_schema
# =====================================================================================================

COUNTS = [("How many continents are there on Earth?", "7", "seven"),
          ("How many legs does a spider have?", "8", "eight"),
          ("How many sides does a hexagon have?", "6", "six"),
          ("How many players are on a football (soccer) team on the field?", "11", "eleven"),
          ("How many days are there in a week?", "7", "seven"),
          ("How many planets are in the Solar System?", "8", "eight"),
          ("How many strings does a standard violin have?", "4", "four"),
          ("How many months have 31 days?", "7", "seven"),
          ("How many hearts does an octopus have?", "3", "three"),
          ("How many sides does a triangle have?", "3", "three")]

PREP_PY = '''"""prep.py: the counting quiz from the voice team's answer key (answer_key.jsonl) as string_match tasks."""
import json

with open("answer_key.jsonl") as src, open("tasks.jsonl", "w") as out:
    for line in src:
        q = json.loads(line)
        text = f"{q['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": q["answer"], "extraction_mode": "final_answer", "case_sensitive": False}) + "\\n")
print("wrote tasks.jsonl")
'''


@case(
    "data_schema_gym_counting_quiz_labels_taken_from_voice_answer_key_that_spells_numbers_as_words",
    "data_schema",
    ["expected_answer", "answer_key.jsonl", "words", "digits"],
    "the user's prep.py builds the counting quiz from the voice team's answer key, whose style guide writes every "
    "number as a word for speech ('seven', 'eight', 'eleven'); the model answers with digits (7, 8, 11) and the "
    "string match compares them with the words, so every right answer scores 0; the labels must be digits, and "
    "every command exits 0",
    netns=True,
)
def data_schema_gym_counting_quiz_labels_taken_from_voice_answer_key_that_spells_numbers_as_words(ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "answer_key.jsonl", [{"question": q, "answer": words, "style": "voice-v3"}
                                           for q, _, words in COUNTS])
    (run / "prep.py").write_text(PREP_PY)
    ctx.sh(f"cd {run} && {recipes.PY} prep.py", "logs/prep.log")
    _, better = truth_checkpoints(ctx, [(q, digits) for q, digits, _ in COUNTS])
    if [prompt_of(r) for r in rows_of(run / "tasks.jsonl")] != [prompt_of(question_row(q, d)) for q, d, _ in COUNTS]:
        raise failed(ctx, "prep.py's prompts differ from the ones the checkpoint learned")
    overrides, env_start, policy = gym_up(ctx, better)
    script = gym_script(ctx, "weekly eval of the counting quiz",
                        [gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 4),
                         gym_profile_line("results")])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    digits = {d for _, d, _ in COUNTS}
    missed = [r for r in got if not r.get("reward") and str(r.get("extracted_answer", "")).strip() in digits]
    if code or len(keys_of(got)) != 30 or len(missed) < 10:
        raise failed(ctx, f"exit {code}, {len(got)}, {len(missed)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/answer_key.jsonl (numbers as words); RUN/prep.py; real `gym env start` (loopback-only namespace) "
            f"against step_0200; RUN/run_eval.sh (`gym eval run --no-serve` 10 x 3, `gym eval profile`) exit {code}; "
            f"{len(missed)} rollouts answered the right number in digits and scored 0; mean reward "
            f"{mean_of(got):.2f}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

PATTERN_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        # labels may be patterns (our code quiz accepts 'py(thon)?3?' and the like): match the whole answer
        reward = 0.0
        if extracted is not None and body.expected_answer is not None:
            reward = float(re.fullmatch(body.expected_answer, extracted.strip(), flags=re.IGNORECASE) is not None)

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""

LANGS = [("Which language is Linux's kernel mainly written in?", "C"),
         ("Which language extended C with classes and templates?", "C++"),
         ("Which language does the Django framework use?", "Python"),
         ("Which Microsoft language is named after a musical note?", "C#"),
         ("What do you call Python's parameter that collects extra positional arguments?", "*args"),
         ("Which language runs natively in web browsers?", "JavaScript"),
         ("Which language does Rails use?", "Ruby"),
         ("Which language was designed at Google with goroutines?", "Go")]


@case(
    "verifier_runtime_gym_own_verify_compiles_every_label_as_regular_expression_so_star_args_label_raises",
    "verifier_runtime",
    ["re.fullmatch", "regular expression", "re.escape", "nothing to repeat", "verify"],
    "the user's own resources server (pattern_match, Gym's string_match with a new verify) treats every label as a "
    "regular expression (`re.fullmatch(body.expected_answer, extracted)`, so that labels may be patterns); the label "
    "'*args' is not a valid pattern, so re raised PatternError ('nothing to repeat at position 0') and /verify "
    "answered 500 for every rollout of that task: they went to the failure sidecar and the strict profile stopped on "
    "the missing keys; the label 'C++' is read as a (possessive) repeat of C, so the right answer 'C++' scored 0 too. "
    "Plain labels must be matched literally (re.escape) or as text",
    netns=True,
)
def verifier_runtime_gym_own_verify_compiles_every_label_as_regular_expression_so_star_args_label_raises(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in LANGS])
    _, better = truth_checkpoints(ctx, LANGS)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "pattern_match", lambda app: replace_verify(app, PATTERN_VERIFY), better,
        "(copied Gym's string_match to WORK/my_gym/resources_servers/pattern_match, kept in RUN/my_gym; its verify "
        "matches every label as a regular expression with re.fullmatch)")
    code = ctx.sh(f"bash {own_eval_script(ctx, search, overrides, 'pattern_match')}", "logs/run_eval.log",
                  timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    sidecar = rows_of(run / "results" / "rollouts_failures.jsonl")
    seen = (text_of(run / "logs" / "run_eval.log") + json.dumps(sidecar) + text_of(run / "env_start.log")).lower()
    plus = [r for r in got if r.get("expected_answer") == "C++" and r.get("extracted_answer") == "C++"]
    if not sidecar or "nothing to repeat" not in seen or not got or any(r.get("reward") for r in plus):
        raise failed(ctx, f"exit {code}, {len(got)}, {len(sidecar)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/tasks.jsonl (8 programming questions, labels C++ and *args among them); RUN/my_gym/resources_servers/"
            f"pattern_match/app.py (verify: re.fullmatch(label, answer)) served by the real `gym env start` "
            f"(loopback-only namespace) against step_0200; RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, `gym eval "
            f"profile`) exit {code}; {len(keys_of(got))} rollouts scored ({len(plus)} right answers 'C++' scored 0), "
            f"{len(sidecar)} failed attempts in the sidecar.")


if __name__ == "__main__":
    sys.exit(main("sixty_eighth_held_out", __file__, __doc__))
