"""Build the FIFTIETH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/fiftieth_held_out.py --out tests/data/diagnosis_corpus/fiftieth_held_out [--only CASE ...]

This set was written after the forty-nine earlier sets (first_held_out.py ... forty_ninth_held_out.py), from the guides
alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
task folders run in Docker sandboxes, Slurm batch jobs, the real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` /
`gym eval profile` inside a loopback-only network namespace), and the user's own shell scripts, settings, serving
scripts, data-preparation scripts, workspace verifiers, resources servers, team packages and task files. The output
of every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand
but the user's own inputs (data, scripts, settings, verifier code). Each case injects one cause, different in
mechanism from those of the forty-nine earlier sets, and each recipe checks that its fault really happened (it raises
RecipeError otherwise, and the case is not written). About half of the failures are silent: every command exits 0
and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare,
mount), Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this checkout. Run it from a foreground shell.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import (  # noqa: E402
    checkpoints,
    failed,
    gym_start,
    stop_gym,
    task_checkpoints,
    user_taskset,
    workspace_sweep,
)
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from forty_first_held_out import scancel_all  # noqa: E402
from forty_second_held_out import workspace_script  # noqa: E402
from forty_seventh_held_out import said_right  # noqa: E402
from forty_third_held_out import CAPITALS_WRONG  # noqa: E402
from fourteenth_held_out import mean, rewards  # noqa: E402
from recipes import (  # noqa: E402
    PY,
    Ctx,
    case,
    gym_model_args,
    main,
    rows_of,
    text_of,
)
from thirtieth_held_out import gym_rows  # noqa: E402
from thirty_fifth_held_out import mean_reward, pipeline  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_fifth_held_out import job_logs  # noqa: E402
from twenty_fourth_held_out import gym_eval_line, gym_profile_line  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_seventh_held_out import builtin_script  # noqa: E402
from twenty_sixth_held_out import slurm_script  # noqa: E402
from twenty_third_held_out import taskset_script, write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


def log_of(ctx: Ctx, name: str) -> str:
    return text_of(ctx.run / "logs" / name)


SUBMIT = """#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd RUN_DIR
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
"""


def submit(ctx: Ctx, env: dict | None = None, timeout: float = 500, log: str = "logs/submit.log") -> int:
    (ctx.run / "submit.sh").write_text(slurm_script(SUBMIT, ctx))
    try:
        return ctx.sh(f"bash {ctx.run}/submit.sh", log, timeout=timeout, env=env)
    finally:
        scancel_all(ctx, *text_of(ctx.run / "job_ids.txt").split())


# =====================================================================================================
# healthy
# =====================================================================================================

MOUNT_LINES = [
    "echo '== weekly eval'",
    "# for the storage team's ticket about slow scratch: where this run folder lives and with which options",
    "echo \"umask $(umask)\"",
    "findmnt -T . -o TARGET,SOURCE,FSTYPE,OPTIONS || echo 'findmnt failed'",
    "stat -f -c 'free blocks %a of %b, free inodes %d of %c' .",
]


@case(
    "healthy_builtin_run_script_records_umask_and_mount_options_of_its_run_folder",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh records, for a storage ticket, its umask and the mount the run folder "
    "lives on (`findmnt -T .`: file system type and options such as nosuid, nodev, relatime) and the free blocks and "
    "inodes (`stat -f`); it says nothing about the run, and materialize, collect and profile completed every rollout",
)
def healthy_builtin_run_script_records_umask_and_mount_options_of_its_run_folder(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 4)
    url, _ = ctx.policy(better, "--latency-ms 30")
    script = builtin_script(ctx, MOUNT_LINES, "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = complete(ctx)
    log = log_of(ctx, "run_eval.log")
    if code or got != 24 or "free inodes" not in log or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {log[-600:]}")
    return (f"RUN/run_eval.sh (`umask`, `findmnt -T .`, `stat -f .`, then materialize 8 x 3, collect, profile) exit "
            f"{code}; {got} rollouts, mean reward {mean_reward(run / 'rollouts.jsonl')}.")


LIMIT_LINES = ["# resource notes for the capacity review",
               "echo '== limits'; ulimit -a",
               "echo '== inodes'; df -hi . | tail -n 1",
               "echo '== load'; cat /proc/loadavg"]


@case(
    "healthy_gym_run_script_records_ulimits_inode_use_and_load_before_eval",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh first records the shell's resource limits (`ulimit -a`: open files, "
    "max user processes, stack size, ...), the run folder's inode use (`df -hi .`) and the load average for the "
    "capacity review; the limits are the node's defaults, and the real NeMo Gym eval collected, verified and "
    "profiled every rollout",
    netns=True,
)
def healthy_gym_run_script_records_ulimits_inode_use_and_load_before_eval(ctx: Ctx) -> str:
    run = ctx.run
    ctx.dataset("string_match", 8, start=12, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", run / "tasks.jsonl")[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval\n" + f"cd {run}\n" + "\n".join(LIMIT_LINES) + "\n"
                      + gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 4) + "\n"
                      + gym_profile_line("results") + "\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = len({(r["_ng_task_index"], r["_ng_rollout_index"]) for r in gym_rows(ctx)})
    if code or got != 24 or "open files" not in log_of(ctx, "run_eval.log") \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {log_of(ctx, 'run_eval.log')[-600:]}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (`ulimit -a`, `df -hi .`, "
            f"/proc/loadavg, then `gym eval run --no-serve` 8 tasks x 3, `gym eval profile`) exit {code}; {got} "
            f"rollouts, mean reward {mean(rewards(gym_rows(ctx))):.2f}.")


SCONTROL_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --requeue
# the job's own record first, so a failed week can be compared with a good one
scontrol show job $SLURM_JOB_ID
cd RUN_DIR
PIPELINE"""


@case(
    "healthy_slurm_job_prints_its_own_scontrol_record_before_the_eval",
    "healthy",
    [],
    "nothing is wrong: the user's eval.sbatch begins by printing its own job record (`scontrol show job "
    "$SLURM_JOB_ID`: JobState=RUNNING Reason=None, Requeue=1 Restarts=0, TimeLimit, ExcNodeList=(null), ...); the "
    "record is only for comparing weeks, and the job completed every rollout and profiled them",
)
def healthy_slurm_job_prints_its_own_scontrol_record_before_the_eval(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 20)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(SCONTROL_SBATCH, ctx, PIPELINE=pipeline(url)))
    code = submit(ctx)
    got = complete(ctx)
    job = job_logs(ctx, "eval_*.log")
    if code or got != 24 or "JobState=RUNNING" not in job or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {job[-1500:]}")
    return (f"RUN/eval.sbatch (`scontrol show job $SLURM_JOB_ID`, then materialize 8 x 3, collect, profile) via "
            f"RUN/submit.sh exit {code}; {got} rollouts, mean reward {mean_reward(run / 'rollouts.jsonl')}.")


DOCKER_INFO_LINES = [
    "echo '== weekly taskset run'",
    "# the engine's settings, for the sandbox capacity notes",
    "docker info 2>&1 | grep -E 'Server Version|Storage Driver|Cgroup|CPUs|Total Memory|Docker Root Dir|WARNING'",
]


@case(
    "healthy_taskfolder_run_script_records_docker_engine_settings_for_capacity_notes",
    "healthy",
    [],
    "nothing is wrong: the user's run_tasks.sh records the Docker engine's settings (`docker info`: storage driver, "
    "cgroup driver and version, CPUs, memory, root folder, and any WARNING lines of the engine); they say nothing "
    "about the run, and every episode ran in its Docker sandbox, was verified and profiled",
)
def healthy_taskfolder_run_script_records_docker_engine_settings_for_capacity_notes(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["top-word", "create-greeting"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, DOCKER_INFO_LINES)
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    log = log_of(ctx, "run_tasks.log")
    if code or complete(ctx) != 4 or not any(rewards(got)) or "Storage Driver" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {rewards(got)}: {log[-600:]}")
    return (f"RUN/run_tasks.sh (`docker info`, then `gym-pipeline stage` "
            f"materialize, collect, profile of RUN/tasks x 2) exit {code}; {complete(ctx)} of 4 episodes, rewards "
            f"{rewards(got)}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

OLD_VERIFIER = '''"""my_verifier.py: the answer after the last 'Final answer:', compared with the label."""

MARK = "Final answer:"


def score(row, response_text):
    answer = response_text.rsplit(MARK, 1)[-1].strip().rstrip(".").lower() if MARK in response_text else None
    label = str(row["expected_answer"]).strip()
    reward = 1.0 if answer == label else 0.0
    return {"reward": reward, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
'''
FIXED_VERIFIER = OLD_VERIFIER.replace(
    'label = str(row["expected_answer"]).strip()',
    'label = str(row["expected_answer"]).strip().lower()  # fix: the label is lower-cased too (was: Canberra != canberra)')
DEPLOY = """#!/bin/bash
# deploy_verifiers.sh: byte-compile the verifiers once, reproducibly (hash-based pycs, as the image build does)
cd RUN_DIR
PY_BIN -m compileall -q --invalidation-mode unchecked-hash verifiers/
ls verifiers/__pycache__
"""


@case(
    "cache_resume_stage_workspace_verifier_fix_ignored_because_deploy_step_byte_compiled_it_with_unchecked_hash",
    "cache_resume",
    ["__pycache__", "unchecked-hash"],
    "last week the team's deploy_verifiers.sh byte-compiled verifiers/ with `compileall --invalidation-mode "
    "unchecked-hash`; such a .pyc is never checked against its source, so this week's fix of my_verifier.py (the "
    "label lower-cased like the answer) was never loaded: Python kept running the old code from "
    "verifiers/__pycache__, and every right answer with a capitalised label still scored 0 (every command exits 0)",
)
def cache_resume_stage_workspace_verifier_fix_ignored_because_deploy_step_byte_compiled_it_with_unchecked_hash(
        ctx: Ctx) -> str:
    run = ctx.run
    pairs = [(q, a) for q, a, _ in CAPITALS_WRONG]
    better = truth_checkpoints(ctx, pairs)[1]
    data = write_jsonl(run / "capitals.jsonl", [question_row(q, a) for q, a in pairs])
    url, _ = ctx.policy(better, "--latency-ms 20")
    sweep = workspace_sweep(ctx, "capitals", data, better, {"verifier": "my_verifier:score"}, OLD_VERIFIER,
                            num_repeats=3, concurrency=4)
    (run / "deploy_verifiers.sh").write_text(slurm_script(DEPLOY, ctx, PY_BIN=str(PY)))
    ctx.note("(last week: the verifier was deployed)")
    ctx.sh(f"bash {run}/deploy_verifiers.sh", "logs/deploy_verifiers.log", timeout=60)
    ctx.note("(this week: the label fix edited into RUN/verifiers/my_verifier.py)")
    (run / "verifiers" / "my_verifier.py").write_text(FIXED_VERIFIER)
    script = workspace_script(ctx, sweep, better, "capitals", url, ["echo '== weekly eval'"])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    right = [r for r in got if said_right(r)]
    fixed: dict = {}
    exec(FIXED_VERIFIER, fixed)  # what the fixed source would have scored
    stale = [r for r in right if r["reward"] == 0.0]
    would = {fixed["score"](r, f"Final answer: {r['expected_answer']}")["reward"] for r in stale}
    if code or len(got) != 24 or not stale or would != {1.0} \
            or not list((run / "verifiers" / "__pycache__").glob("my_verifier*.pyc")):
        raise failed(ctx, f"exit {code}, {len(got)}, right {len(right)}, rewards {rewards(got)}, would {would}")
    return (f"RUN/deploy_verifiers.sh (`compileall --invalidation-mode unchecked-hash verifiers/`) last week; "
            f"RUN/verifiers/my_verifier.py fixed after; RUN/run_eval.sh (stages materialize 8 x 3, collect, profile) "
            f"exit {code}; {len(right)} right answers, {len(stale)} of them (capitalised labels) scored 0.")


REFRESH = """#!/bin/bash
# refresh_tasks.sh: the data team ships each week's tasks in an image; /data is a named volume so it is kept
# between runs (see docker-compose notes)
cd RUN_DIR
docker build -q -t IMAGE tasks_image/
docker run --rm --network none -v VOLUME:/data IMAGE cat /data/string_match.jsonl > string_match.jsonl
echo "tasks: $(wc -l < string_match.jsonl) rows, sha1 $(sha1sum < string_match.jsonl | cut -c1-12)"
"""


@case(
    "cache_resume_builtin_tasks_read_through_named_docker_volume_that_kept_first_weeks_copy_after_image_rebuilt",
    "cache_resume",
    ["volume"],
    "the user's refresh_tasks.sh reads the week's tasks from the data team's image through a named Docker volume "
    "mounted at /data; Docker fills a named volume from the image only when the volume is new, so after the image "
    "was rebuilt with this week's fixed labels the volume still held the first copy, and the eval scored the model "
    "against last week's wrong labels (every command exits 0)",
)
def cache_resume_builtin_tasks_read_through_named_docker_volume_that_kept_first_weeks_copy_after_image_rebuilt(
        ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 28)
    fixed_text = data.read_text()
    old_rows = rows_of(data)
    for row in old_rows[:4]:
        row["expected_answer"] = f"{row['expected_answer']} (unchecked)"
    old_text = "".join(json.dumps(r) + "\n" for r in old_rows)
    tag = ctx.work.name.lower().replace("_", "-")[-8:]
    image, volume = f"evalteam/weekly-tasks-{tag}:latest", f"weekly-tasks-{tag}"
    (run / "tasks_image").mkdir()
    (run / "tasks_image" / "Dockerfile").write_text(
        "FROM gym-pipeline/base:bookworm\nCOPY string_match.jsonl /data/string_match.jsonl\n")
    (run / "refresh_tasks.sh").write_text(slurm_script(REFRESH, ctx, IMAGE=image, VOLUME=volume))
    try:
        ctx.note("(last week: the data team's image with last week's labels)")
        (run / "tasks_image" / "string_match.jsonl").write_text(old_text)
        ctx.sh(f"bash {run}/refresh_tasks.sh", "logs/refresh_tasks_last_week.log", timeout=300)
        ctx.note("(this week: the image's tasks file replaced by the fixed one)")
        (run / "tasks_image" / "string_match.jsonl").write_text(fixed_text)
        refreshed = ctx.sh(f"bash {run}/refresh_tasks.sh", "logs/refresh_tasks.log", timeout=300)
    finally:
        subprocess.run(["docker", "volume", "rm", "-f", volume], env=ctx.env, capture_output=True, check=False)
        subprocess.run(["docker", "rmi", "-f", image], env=ctx.env, capture_output=True, check=False)
    url, _ = ctx.policy(better, "--latency-ms 30")
    script = builtin_script(ctx, ["echo '== weekly eval'"], "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = complete(ctx)
    if refreshed or code or got != 24 or data.read_text() != old_text:
        raise failed(ctx, f"refresh {refreshed}, exit {code}, {got}, same as old {data.read_text() == old_text}")
    return (f"RUN/refresh_tasks.sh (`docker build` of RUN/tasks_image, `docker run -v {volume}:/data ... cat "
            f"/data/string_match.jsonl`) run last week and this week (image rebuilt with fixed labels) exit "
            f"{refreshed}; RUN/string_match.jsonl still holds last week's labels; RUN/run_eval.sh (materialize 8 x 3, "
            f"collect, profile) exit {code}; {got} rollouts, mean reward {mean_reward(run / 'rollouts.jsonl')}.")


CACHE_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
# rollouts are cached per checkpoint: the key is a cheap fingerprint of the checkpoint folder (no hashing of weights)
KEY=$(ls "$CKPT" | md5sum | cut -c1-12)
OUT=RUN_DIR/cache/$KEY
echo "checkpoint $CKPT -> cache key $KEY"
if [ -s $OUT/rollouts_reward_profiling.jsonl ]; then
  echo "rollouts for this checkpoint already in $OUT, reusing them"
else
  mkdir -p $OUT && cd $OUT && cp RUN_DIR/string_match.jsonl .
PIPELINE
fi
mkdir -p RUN_DIR/results && cp $OUT/rollouts*.jsonl RUN_DIR/results/
echo "mean reward: $(python3 -c "import json,sys; r=[json.loads(l)['reward'] for l in open(sys.argv[1])]; print(round(sum(r)/len(r),2))" RUN_DIR/results/rollouts.jsonl)"
"""


@case(
    "cache_resume_slurm_rollouts_cache_keyed_on_checkpoint_file_listing_that_is_the_same_for_every_step",
    "cache_resume",
    ["cache", "key"],
    "the user's eval.sbatch caches rollouts per checkpoint under a key made from the checkpoint folder's file "
    "listing (`ls $CKPT | md5sum`), to avoid hashing weights; every step of a training run holds the same file "
    "names, so step_0200 got step_0100's key, the job found last week's rollouts of step_0100 in the cache and "
    "published them as step_0200's results (every command exits 0)",
)
def cache_resume_slurm_rollouts_cache_keyed_on_checkpoint_file_listing_that_is_the_same_for_every_step(
        ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 36)
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(CACHE_SBATCH, ctx, PIPELINE=pipeline("$MODEL_URL")))
    old_url, old_server = ctx.policy(weaker, "--latency-ms 20")
    ctx.note("(last week: step_0100 served and evaluated)")
    first = submit(ctx, env={**ctx.env, "CKPT": str(weaker), "MODEL_URL": old_url}, log="logs/submit_last_week.log")
    last_week = mean_reward(run / "results" / "rollouts.jsonl")
    ctx.stop(old_server)
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = submit(ctx, env={**ctx.env, "CKPT": str(better), "MODEL_URL": url})
    caches = sorted(p.name for p in (run / "cache").iterdir())
    job = job_logs(ctx, "eval_*.log")
    this_week = mean_reward(run / "results" / "rollouts.jsonl")
    if first or code or len(caches) != 1 or "reusing them" not in job or this_week != last_week:
        raise failed(ctx, f"exit {first}/{code}, caches {caches}, {last_week} / {this_week}: {job[-1200:]}")
    return (f"RUN/eval.sbatch (cache key `ls $CKPT | md5sum`) submitted by RUN/submit.sh last week (CKPT=step_0100) "
            f"and this week (CKPT=step_0200) exit {first}/{code}; one cache folder {caches}; this week's job reused "
            f"it; RUN/results mean reward {this_week} (step_0100's).")


# =====================================================================================================
# infra
# =====================================================================================================

UNIT = """[Unit]
Description=weekly eval of the newest checkpoint (started by weekly-eval.timer)

[Service]
Type=oneshot
ExecStart=/bin/bash RUN_DIR/run_eval.sh
# hardening from the team's unit template
PrivateTmp=yes
NoNewPrivileges=yes
"""
SERVICE_RUN = """#!/bin/bash
# run_eval.sh: the eval in fast local /var/tmp; publish.sh copies the results to the shared folder afterwards
OUT=OUT_DIR
rm -rf $OUT && mkdir -p $OUT && cd $OUT
cp RUN_DIR/string_match.jsonl .
PIPELINE"""
PUBLISH = """#!/bin/bash
# publish.sh (cron, 30 min after weekly-eval.timer): copy the eval's results to the shared results folder
mkdir -p RUN_DIR/results
cp -v OUT_DIR/rollouts*.jsonl RUN_DIR/results/
echo "published $(wc -l < RUN_DIR/results/rollouts.jsonl) rollouts from OUT_DIR ($(date -r OUT_DIR/rollouts.jsonl))"
"""


@case(
    "infra_builtin_eval_service_unit_with_private_tmp_so_publish_step_copies_last_weeks_results_from_var_tmp",
    "infra",
    ["PrivateTmp"],
    "the user's weekly-eval.service runs run_eval.sh, which works in /var/tmp/capitals-weekly-eval; the unit keeps "
    "`PrivateTmp=yes` from the team's hardening template, so the service saw a private /var/tmp that vanished when "
    "it ended; the separate publish step (cron) read the real /var/tmp, where last week's manual run of step_0100 "
    "still lay, and published those results (every command exits 0)",
)
def infra_builtin_eval_service_unit_with_private_tmp_so_publish_step_copies_last_weeks_results_from_var_tmp(
        ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 44)
    out = Path(f"/var/tmp/capitals-weekly-eval-{ctx.work.name[-6:]}")
    (run / "weekly-eval.service").write_text(slurm_script(UNIT, ctx))
    (run / "run_eval.sh").write_text(slurm_script(SERVICE_RUN, ctx, OUT_DIR=str(out), PIPELINE=pipeline("$MODEL_URL")))
    (run / "publish.sh").write_text(slurm_script(PUBLISH, ctx, OUT_DIR=str(out)))
    try:
        old_url, old_server = ctx.policy(weaker, "--latency-ms 20")
        ctx.note("(last week: run_eval.sh run by hand from a shell, on step_0100)")
        first = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval_by_hand_last_week.log", timeout=400,
                       env={**ctx.env, "MODEL_URL": old_url})
        last_week = mean_reward(out / "rollouts.jsonl")
        ctx.stop(old_server)
        url, _ = ctx.policy(better, "--latency-ms 20")
        ctx.note("(this week: weekly-eval.service started by its timer; systemd gives it a private /tmp and /var/tmp "
                 "(PrivateTmp=yes), done here as systemd does it: a private mount namespace with fresh tmpfs on both)")
        code = ctx.sh(f"unshare --mount --propagation private bash -c 'mount -t tmpfs tmpfs /tmp && "
                      f"mount -t tmpfs tmpfs /var/tmp && exec bash {run}/run_eval.sh'", "logs/weekly-eval.service.log",
                      timeout=400, env={**ctx.env, "MODEL_URL": url})
        published = ctx.sh(f"bash {run}/publish.sh", "logs/publish.log", timeout=60)
    finally:
        subprocess.run(["rm", "-rf", str(out)], check=False)
    service = log_of(ctx, "weekly-eval.service.log")
    got = rows_of(run / "results" / "rollouts.jsonl")
    if first or code or published or len(got) != 24 or "Pass@k" not in service \
            or mean_reward(run / "results" / "rollouts.jsonl") != last_week:
        raise failed(ctx, f"exit {first}/{code}/{published}, {len(got)}: {service[-800:]}")
    return (f"RUN/weekly-eval.service (`PrivateTmp=yes`) running RUN/run_eval.sh (materialize 8 x 3, collect, "
            f"profile in {out}) exit {code}; RUN/publish.sh (cron) exit {published} copied {len(got)} rollouts from "
            f"the real {out}: last week's run on step_0100, mean reward {mean_reward(run / 'results' / 'rollouts.jsonl')}.")


if __name__ == "__main__":
    sys.exit(main("fiftieth_held_out", __file__, __doc__))
