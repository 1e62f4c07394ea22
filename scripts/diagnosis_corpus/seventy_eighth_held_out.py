"""Build the SEVENTY-EIGHTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/seventy_eighth_held_out.py --out tests/data/diagnosis_corpus/seventy_eighth_held_out [--only CASE ...]

This set was written after the seventy-seven earlier sets (first_held_out.py ... seventy_seventh_held_out.py), from the
guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`), the real NeMo
Gym 0.7.0 in a loopback-only network namespace (with a user's own resources server, data and settings), Slurm batch
jobs, job arrays and reservations on the single-node cluster, and the user's own shell and Python tooling, sbatch
scripts, submit wrappers, data-preparation scripts and verifiers. The output of every command is captured as a user
would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data,
scripts, settings, verifier code). Each case injects one cause, different in mechanism from those of the
seventy-seven earlier sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise,
and the case is not written). About half of the failures are silent: every command exits 0 and only the result is
wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare,
scontrol), Slurm (SLURM_CONF), NeMo Gym 0.7.0 (GYM_PIPELINE_NEMO_GYM), and PYTHONPATH set to this checkout. Run it
from a foreground shell. Slurm reservations it makes are named `h78-...` and deleted at the end of their recipe.
"""
from __future__ import annotations

import csv
import gzip
import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import checkpoints, failed, stop_gym  # noqa: E402
from fiftieth_held_out import log_of, submit  # noqa: E402
from fifty_first_held_out import keys_of  # noqa: E402
from fifty_ninth_held_out import gym_own_server, own_eval_script, sbatch_file  # noqa: E402
from fortieth_held_out import truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from recipes import BIN, Ctx, case, main, replace_verify, rows_of, text_of  # noqa: E402
from sixty_fourth_held_out import pipeline_lines, question_row  # noqa: E402
from sixty_third_held_out import gym_script, gym_up, mean_of, prompt_of  # noqa: E402
from thirtieth_held_out import gym_rows  # noqa: E402
from thirty_fifth_held_out import pipeline  # noqa: E402
from twenty_fifth_held_out import job_logs  # noqa: E402
from twenty_fourth_held_out import gym_eval_line, gym_profile_line  # noqa: E402
from twenty_sixth_held_out import slurm_script  # noqa: E402
from twenty_third_held_out import write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def run_eval(ctx: Ctx, body: str, comment: str, log: str = "logs/run_eval.log", timeout: float = 400) -> int:
    script = ctx.run / "run_eval.sh"
    script.write_text(f"#!/bin/bash\n# {comment}\ncd {ctx.run}\n" + body)
    (ctx.run / "logs").mkdir(exist_ok=True)
    return ctx.sh(f"bash {script}", log, timeout=timeout)


def profile_rows(ctx: Ctx, folder: str = "results") -> list[dict]:
    return rows_of(next(iter(ctx.run.glob(f"{folder}/*reward_profiling*.jsonl")), ctx.run / "none"))


def by_label(rows: list[dict], *labels: str) -> list[dict]:
    return [r for r in rows if str(r.get("expected_answer")) in labels]


def scancel_ids(ctx: Ctx, *ids: str) -> None:
    for job in ids:
        if job:
            subprocess.run(["scancel", job], env=ctx.env, capture_output=True, check=False)


def run_submit(ctx: Ctx, template: str, timeout: float = 500, env: dict | None = None, **values: str) -> int:
    """RUN/submit.sh from `template`, run; every job it recorded in RUN/job_ids.txt is cancelled afterwards."""
    (ctx.run / "logs").mkdir(exist_ok=True)
    (ctx.run / "submit.sh").write_text(slurm_script(template, ctx, **values))
    try:
        return ctx.sh(f"bash {ctx.run}/submit.sh", "logs/submit.log", timeout=timeout, env=env)
    finally:
        scancel_ids(ctx, *text_of(ctx.run / "job_ids.txt").split())


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_gym_eval_at_concurrency_one_by_shared_endpoint_etiquette_is_slow_but_complete",
    "healthy",
    [],
    "nothing is wrong: the team's etiquette for the shared endpoint asks for one request at a time, so the user's "
    "run_eval.sh runs `gym eval run --concurrency 1`; the eval takes several times longer than at the usual 4 and the "
    "log shows the rollouts finishing one by one, but there was no CI budget to overrun, every task got its 3 "
    "rollouts, all were verified and `gym eval profile` completed",
    netns=True,
)
def healthy_gym_eval_at_concurrency_one_by_shared_endpoint_etiquette_is_slow_but_complete(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=40, folder=run, name="tasks.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    overrides, env_start, policy = gym_up(ctx, better, "--latency-ms 150")
    script = gym_script(ctx, "weekly eval; shared endpoint etiquette: ONE request at a time (see the team wiki)",
                        [gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 1),
                         gym_profile_line("results")])
    began = time.monotonic()
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=600)
    took = time.monotonic() - began
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    profile = profile_rows(ctx)
    if code or len(keys_of(got)) != 24 or len(profile) != 8 or not any(rewards(got)):
        raise failed(ctx, f"exit {code}, {len(got)}, {len(profile)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"real `gym env start` (loopback-only namespace) against step_0200 (150 ms a reply); RUN/run_eval.sh "
            f"(`gym eval run --no-serve --concurrency 1` 8 x 3, `gym eval profile`) exit {code} in {took:.0f} s; "
            f"{len(keys_of(got))} of 24 rollouts, {len(profile)} profile rows, mean reward {mean_of(got):.2f}.")


METRICS_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
cd RUN_DIR
echo "weekly eval against $MODEL_URL"
PIPELINE
# optional: push the summary to the team dashboard's push gateway (only runs on the GPU cluster's monitoring node)
srun --ntasks=1 curl -sf --max-time 5 --data-binary @rollouts_reward_profiling.jsonl \\
  http://127.0.0.1:9091/metrics/job/weekly_eval || echo "metrics push failed; the dashboard misses this week (optional)"
echo "weekly eval done"
"""


@case(
    "healthy_slurm_eval_job_ends_with_optional_metrics_push_srun_step_that_fails_after_eval_completed",
    "healthy",
    [],
    "nothing is wrong: the user's eval.sbatch ends with an optional `srun curl ... http://127.0.0.1:9091/metrics/...` "
    "step that pushes the summary to the team dashboard's push gateway, which does not run on this cluster; the step "
    "fails ('srun: error: ... task 0: Exited with exit code 7') and the job log says the push failed, but it ran "
    "after materialize, collect and profile had finished, and every rollout was collected and profiled",
)
def healthy_slurm_eval_job_ends_with_optional_metrics_push_srun_step_that_fails_after_eval_completed(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=64, folder=run, name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20")
    sbatch_file(ctx, METRICS_SBATCH, PIPELINE=pipeline("$MODEL_URL"))
    code = submit(ctx, env={**ctx.env, "MODEL_URL": url})
    log = job_logs(ctx, "eval_*.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or len(keys_of(got)) != 24 or "Exited with exit code" not in log or "metrics push failed" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)}: {log[-1500:]}")
    return (f"RUN/eval.sbatch (materialize 8 x 3, collect, profile, then an optional `srun curl` to a push gateway "
            f"that is not there) submitted by RUN/submit.sh exit {code}; {len(keys_of(got))} of 24 rollouts, mean "
            f"reward {mean_of(got):.2f}; the push step failed with curl's exit 7.")


@case(
    "healthy_builtin_run_script_gzips_rollouts_after_profiling_so_run_folder_keeps_only_compressed_rollouts",
    "healthy",
    [],
    "nothing is wrong: the shared disk's quota policy asks for large outputs to be compressed, so the user's "
    "run_eval.sh ends with `gzip -9 rollouts.jsonl rollouts_materialized_inputs.jsonl`; the run folder has no "
    "rollouts.jsonl any more (only rollouts.jsonl.gz), which looks like the collection wrote nothing, but the gzip ran "
    "after materialize, collect and profile had finished and the compressed file holds every rollout",
)
def healthy_builtin_run_script_gzips_rollouts_after_profiling_so_run_folder_keeps_only_compressed_rollouts(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=72, folder=run, name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20")
    body = (pipeline_lines(url)
            + "# quota policy of the shared disk: compress large outputs once the run is done\n"
            + "gzip -9 rollouts.jsonl rollouts_materialized_inputs.jsonl\n"
            + "ls -la\n")
    code = run_eval(ctx, body, "weekly eval; outputs compressed afterwards (disk quota)")
    log = log_of(ctx, "run_eval.log")
    packed = run / "rollouts.jsonl.gz"
    got = [json.loads(line) for line in gzip.open(packed, "rt")] if packed.exists() else []
    if code or len(keys_of(got)) != 24 or (run / "rollouts.jsonl").exists() \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 8 x 3, collect, profile, then `gzip -9 rollouts.jsonl "
            f"rollouts_materialized_inputs.jsonl`) exit {code}; RUN/rollouts.jsonl.gz holds {len(keys_of(got))} of 24 "
            f"rollouts, mean reward {mean_of(got):.2f}; no plain rollouts.jsonl is left.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

FETCH_PY = '''"""fetch.py NAME REVISION: put the eval set NAME at REVISION into tasks.jsonl, through the local dataset cache.

Downloads from the team's dataset hub once per (name, revision); later calls reuse ~/.cache/evalsets (the hub is slow).
"""
import shutil
import sys
from pathlib import Path

HUB = Path("HUB_DIR")
CACHE = Path("CACHE_DIR")
name, revision = sys.argv[1], sys.argv[2]
cached = CACHE / f"{name}@{revision}" / "tasks.jsonl"
if cached.exists():
    print(f"fetch: {name}@{revision} found in the cache ({cached})")
else:
    cached.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(HUB / name / revision / "tasks.jsonl", cached)
    print(f"fetch: downloaded {name}@{revision} from the hub")
shutil.copyfile(cached, "tasks.jsonl")
print(f"fetch: tasks.jsonl has {sum(1 for _ in open('tasks.jsonl'))} rows")
'''

CAPITALS = [
    ("What is the capital of Mongolia?", "Ulaanbaatar"),
    ("What is the capital of New Zealand?", "Wellington"),
    ("What is the capital of Kazakhstan?", "Astana"),
    ("Which element has the chemical symbol Fe?", "Iron"),
    ("What is the currency of Japan?", "Yen"),
    ("Who wrote the novel One Hundred Years of Solitude?", "Gabriel Garcia Marquez"),
    ("What is the hardest naturally occurring mineral?", "Diamond"),
    ("Which planet has the shortest orbital period around the Sun?", "Mercury"),
]
TYPOS = {"Ulaanbaatar": "Ulanbatar", "Wellington": "Wellingon", "Diamond": "Diamong"}


@case(
    "cache_resume_gym_dataset_fetch_helper_caches_by_branch_name_so_upstream_label_fix_is_never_downloaded",
    "cache_resume",
    ["cache", "fetch.py", "revision", "main"],
    "the user's fetch.py downloads the eval set from the team's dataset hub once per (name, revision) into "
    "~/.cache/evalsets and reuses the cached copy afterwards; the run asks for revision 'main', a branch name that "
    "moves, so the fixed labels the hub received this week (three typos: 'Ulanbatar', 'Wellingon', 'Diamong') were "
    "never downloaded: 'found in the cache' and the eval scored the model's right answers to those three tasks 0 "
    "against last week's typos (every command exits 0)",
    netns=True,
)
def cache_resume_gym_dataset_fetch_helper_caches_by_branch_name_so_upstream_label_fix_is_never_downloaded(
        ctx: Ctx) -> str:
    run = ctx.run
    hub, cache = ctx.work / "hub", ctx.work / "home" / ".cache" / "evalsets"
    main_rev = hub / "capitals-qa" / "main"
    main_rev.mkdir(parents=True)
    write_jsonl(main_rev / "tasks.jsonl", [question_row(q, TYPOS.get(a, a)) for q, a in CAPITALS])
    (run / "fetch.py").write_text(FETCH_PY.replace("HUB_DIR", str(hub)).replace("CACHE_DIR", str(cache)))
    _, better = truth_checkpoints(ctx, CAPITALS)
    ctx.note("(last week: the set is fetched once, with the three typos)")
    code1 = ctx.sh(f"cd {run} && {BIN}/python fetch.py capitals-qa main", "logs/fetch_last_week.log", timeout=60)
    ctx.note("(this week: the reviewers' fix of the three typos is pushed to the hub's main)")
    write_jsonl(main_rev / "tasks.jsonl", [question_row(q, a) for q, a in CAPITALS])
    overrides, env_start, policy = gym_up(ctx, better)
    script = gym_script(ctx, "weekly eval of capitals-qa@main (labels fixed by the reviewers on Tuesday)",
                        [f"{BIN}/python fetch.py capitals-qa main",
                         gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 4),
                         gym_profile_line("results")])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    typo_rows = by_label(got, *TYPOS.values())
    others = [r for r in got if r not in typo_rows]
    if code1 or code or len(keys_of(got)) != 24 or len(typo_rows) != 9 or any(rewards(typo_rows)) \
            or not any(rewards(others)) or "found in the cache" not in log_of(ctx, "run_eval.log"):
        raise failed(ctx, f"exit {code1}/{code}, {len(got)}, {len(typo_rows)}, {rewards(typo_rows)}: "
                          f"{log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/fetch.py (cache keyed by name@revision); last week `fetch.py capitals-qa main` exit {code1} "
            f"(labels with 3 typos); this week the hub's main fixed; real `gym env start` (loopback-only namespace); "
            f"RUN/run_eval.sh (fetch: 'found in the cache', `gym eval run` 8 x 3, `gym eval profile`) exit {code}; "
            f"rewards of the 3 typo tasks {rewards(typo_rows)}, of the others mean {mean_of(others):.2f}.")


# =====================================================================================================
# infra
# =====================================================================================================

MAINT_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=30
#SBATCH --ntasks=1
cd RUN_DIR
echo "weekly eval against $MODEL_URL"
PIPELINE"""

MAINT_SUBMIT = """#!/bin/bash
# submit.sh (CI step, 60 s to get the eval started): submit the weekly eval and follow it
cd RUN_DIR
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
for i in $(seq 30); do
  STATE=$(squeue -h -j $JOB -o '%T %r')
  echo "$(date +%T) job $JOB: ${STATE:-gone}"
  case "$STATE" in RUNNING*|"") break ;; esac
  sleep 2
done
if [ -n "$STATE" ] && [ "${STATE%% *}" = PENDING ]; then
  echo "job $JOB did not start within the CI budget; cancelling it"
  scontrol show job $JOB | grep -E 'JobState|TimeLimit|Reason'
  scancel $JOB
  exit 1
fi
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
"""


@case(
    "infra_slurm_maintenance_reservation_booked_on_the_node_blocks_eval_job_whose_time_limit_overlaps_the_window",
    "infra",
    ["reservation", "maintenance", "time limit", "--time"],
    "the cluster admins booked a maintenance reservation (flags=maint) on every node, starting 10 minutes later; "
    "Slurm starts no job whose time limit would run into the window, so the weekly eval job (`--time=30`) stayed "
    "PENDING with reason ReqNodeNotAvail/Reserved for maintenance on an idle node, the CI step gave up after its 60 s "
    "and cancelled it: nothing was collected, although the node, the policy server and the user's scripts were fine",
)
def infra_slurm_maintenance_reservation_booked_on_the_node_blocks_eval_job_whose_time_limit_overlaps_the_window(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=8, folder=run, name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20")
    sbatch_file(ctx, MAINT_SBATCH, PIPELINE=pipeline("$MODEL_URL"))
    reservation = "h78-maint"
    subprocess.run(["scontrol", "delete", f"reservationname={reservation}"], env=ctx.env, capture_output=True,
                   check=False)
    made = subprocess.run(["scontrol", "create", "reservation", f"reservationname={reservation}",
                           "starttime=now+10minutes", "duration=120", "nodes=ALL", "users=root", "flags=maint"],
                          env=ctx.env, capture_output=True, text=True, check=False)
    if made.returncode:
        raise failed(ctx, f"could not book the reservation: {made.stdout} {made.stderr}")
    ctx.note(f"(the admins: `scontrol create reservation reservationname={reservation} starttime=now+10minutes "
             f"duration=120 nodes=ALL flags=maint`)")
    try:
        ctx.sh(f"scontrol show reservation {reservation}", "logs/reservations_by_admins.log", timeout=30)
        code = run_submit(ctx, MAINT_SUBMIT, env={**ctx.env, "MODEL_URL": url}, timeout=200)
    finally:
        subprocess.run(["scontrol", "delete", f"reservationname={reservation}"], env=ctx.env, capture_output=True,
                       check=False)
    log = log_of(ctx, "submit.log")
    if code == 0 or "PENDING" not in log or "Reserv" not in log or (run / "rollouts.jsonl").exists():
        raise failed(ctx, f"exit {code}: {log[-1500:]}")
    return (f"a maintenance reservation (flags=maint, all nodes, from 10 minutes later); RUN/eval.sbatch "
            f"(`--time=30`: materialize 8 x 3, collect, profile) submitted by RUN/submit.sh (CI: 60 s to start) exit "
            f"{code}: the job stayed pending on the reservation and was cancelled; no rollouts.")


# =====================================================================================================
# config
# =====================================================================================================


@case(
    "config_gym_run_script_picks_newest_dataset_by_mtime_so_dev_split_touched_after_test_export_is_evaluated",
    "config",
    ["ls -t", "newest", "test.jsonl", "--input"],
    "the user's run_eval.sh chooses its input with `DATA=$(ls -t data/*.jsonl | head -1)` ('the newest export is this "
    "week's test split'); after exporting test.jsonl the user fixed a typo in the dev split with `sed -i`, which made "
    "dev.jsonl the newest file, so `gym eval run --input` evaluated the dev split: the rollouts, scores and profile "
    "are those of the 8 dev tasks and none of the test tasks was evaluated (every command exits 0)",
    netns=True,
)
def config_gym_run_script_picks_newest_dataset_by_mtime_so_dev_split_touched_after_test_export_is_evaluated(
        ctx: Ctx) -> str:
    run = ctx.run
    (run / "data").mkdir()
    both = ctx.dataset("string_match", 16, start=48, name="both.jsonl")
    _, better = checkpoints(ctx, "string_match", both)
    dev = ctx.dataset("string_match", 8, start=56, folder=run / "data", name="dev.jsonl")
    time.sleep(1.1)
    test = ctx.dataset("string_match", 8, start=48, folder=run / "data", name="test.jsonl")
    ctx.note("(Monday: data/test.jsonl exported for this week; then a typo in the dev split is fixed)")
    time.sleep(1.1)
    ctx.sh("sed -i 's/  / /g' data/dev.jsonl && ls -lt --time-style=full-iso data/", "logs/prep.log", cwd=run, timeout=30)
    overrides, env_start, policy = gym_up(ctx, better)
    script = gym_script(ctx, "weekly eval of this week's test split",
                        ["DATA=$(ls -t data/*.jsonl | head -1)   # the newest export is this week's test split",
                         "echo \"evaluating $DATA\"",
                         gym_eval_line(overrides, "$DATA", "results/rollouts.jsonl", 3, 4),
                         gym_profile_line("results")])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    dev_prompts = {prompt_of(r) for r in rows_of(dev)}
    test_prompts = {prompt_of(r) for r in rows_of(test)}
    seen = {prompt_of(r) for r in rows_of(run / "results" / "rollouts_materialized_inputs.jsonl")}
    if code or len(keys_of(got)) != 24 or seen != dev_prompts or seen & test_prompts:
        raise failed(ctx, f"exit {code}, {len(got)}, {len(seen & dev_prompts)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/data/test.jsonl (exported) then RUN/data/dev.jsonl edited with `sed -i` (newest); real `gym env "
            f"start` (loopback-only namespace); RUN/run_eval.sh (`DATA=$(ls -t data/*.jsonl | head -1)`, `gym eval "
            f"run --input $DATA` x 3, profile) exit {code}; the {len(keys_of(got))} rollouts are of the 8 dev tasks, "
            f"none of test's; mean reward {mean_of(got):.2f}.")


SHARD_SBATCH = """#!/bin/bash
#SBATCH --job-name=eval-shards
#SBATCH --output=RUN_DIR/logs/shard_%A_%a.log
#SBATCH --array=0-3
#SBATCH --time=10
#SBATCH --ntasks=1
cd RUN_DIR
SHARD=$(sed -n "${SLURM_ARRAY_TASK_ID}p" shards.txt)   # this task's line of the shard list
NAME=$(basename "$SHARD" .jsonl)
echo "array task $SLURM_ARRAY_TASK_ID: shard '$SHARD'"
mkdir -p results/$NAME && cd results/$NAME
PIPELINE"""

SHARD_SUBMIT = """#!/bin/bash
# submit.sh: split the week's tasks into 4 shards, evaluate them as a job array, merge the rollouts
cd RUN_DIR
mkdir -p shards && split -l 4 -d -a 1 --additional-suffix=.jsonl string_match.jsonl shards/shard_
ls shards/*.jsonl > shards.txt
cat shards.txt
JOB=$(sbatch --parsable eval_shard.sbatch)
echo "submitted array $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
cat results/*/rollouts.jsonl > rollouts_all_shards.jsonl
echo "merged $(wc -l < rollouts_all_shards.jsonl) rollouts from $(ls -d results/*/ | wc -l) shards"
"""


@case(
    "config_slurm_shard_array_reads_its_shard_with_sed_line_number_equal_to_zero_based_array_task_id",
    "config",
    ["sed", "SLURM_ARRAY_TASK_ID", "+1", "shards.txt"],
    "the user's eval_shard.sbatch picks its shard with `sed -n \"${SLURM_ARRAY_TASK_ID}p\" shards.txt`; sed numbers "
    "lines from 1 but the array is 0-3, so task 0 asked sed for line 0 ('invalid usage of line address 0') and got no "
    "shard (its materialize failed), tasks 1-3 evaluated shards 0-2, and the fourth shard (shard_3) was never "
    "evaluated: the merged rollouts hold 12 of the 16 tasks",
)
def config_slurm_shard_array_reads_its_shard_with_sed_line_number_equal_to_zero_based_array_task_id(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 16, start=20, folder=run, name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval_shard.sbatch").write_text(slurm_script(SHARD_SBATCH, ctx, PIPELINE=pipeline(
        "$MODEL_URL", data="../../$SHARD", repeats="2")))
    code = run_submit(ctx, SHARD_SUBMIT, env={**ctx.env, "MODEL_URL": url})
    logs = job_logs(ctx, "shard_*.log")
    merged = rows_of(run / "rollouts_all_shards.jsonl")
    prompts = {prompt_of(r) for r in merged}
    last = {prompt_of(r) for r in rows_of(run / "shards" / "shard_3.jsonl")}
    if "line address 0" not in logs or not merged or prompts & last or len(prompts) != 12:
        raise failed(ctx, f"exit {code}, {len(merged)}, {len(prompts)}: {logs[-1500:]}")
    return (f"RUN/submit.sh (split into 4 shards, shards.txt, `sbatch --array=0-3` of RUN/eval_shard.sbatch, merge) "
            f"exit {code}; the array's tasks read `sed -n \"${{SLURM_ARRAY_TASK_ID}}p\" shards.txt`: task 0 got no "
            f"shard, shard_3 never ran; merged {len(merged)} rollouts of {len(prompts)} of 16 tasks.")


# =====================================================================================================
# data_schema
# =====================================================================================================

CODES = [
    ("What is James Bond's agent number, written with all three digits?", "007"),
    ("What is the ISO 3166-1 numeric code of Afghanistan?", "004"),
    ("What is the capital of Peru?", "Lima"),
    ("Which HTTP status code means Not Found?", "404"),
    ("Which element has the chemical symbol Fe?", "Iron"),
    ("What is the octal file mode for owner read/write only, with a leading zero?", "0600"),
    ("Who wrote Romeo and Juliet?", "William Shakespeare"),
    ("What is the international call prefix used in most of Europe?", "00"),
]

CODES_PREP_PY = '''"""prep.py: answers.csv (question,answer, the reviewers' sheet export) -> tasks.jsonl."""
import csv
import json

n = 0
with open("answers.csv", newline="", encoding="utf-8") as sheet, open("tasks.jsonl", "w") as out:
    for row in csv.DictReader(sheet):
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": row["answer"].strip(), "extraction_mode": "final_answer", "case_sensitive": False}) + "\\n")
        n += 1
print(f"prep: {n} rows written")
'''


@case(
    "data_schema_gym_answer_codes_exported_wrapped_in_excel_text_formula_to_keep_their_leading_zeros",
    "data_schema",
    ["answers.csv", "=\"007\"", "leading zeros", "label"],
    "the reviewers' sheet was exported with the 'Excel-safe' option that keeps leading zeros by writing such cells as "
    "text formulas, so the answer cells 007, 004, 0600 and 00 reached answers.csv as =\"007\", =\"004\", =\"0600\" and "
    "=\"00\"; prep.py copied them into expected_answer as they are, and Gym's string_match scored the model's right "
    "answers to those four tasks 0 while the other tasks scored (every command exits 0)",
    netns=True,
)
def data_schema_gym_answer_codes_exported_wrapped_in_excel_text_formula_to_keep_their_leading_zeros(ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, CODES)
    with (run / "answers.csv").open("w", newline="") as handle:
        csv.writer(handle).writerows([("question", "answer"), *[
            (q, f'="{a}"' if a.startswith("0") else a) for q, a in CODES]])
    (run / "prep.py").write_text(CODES_PREP_PY)
    overrides, env_start, policy = gym_up(ctx, better)
    script = gym_script(ctx, "weekly eval of the reviewers' answer sheet",
                        [f"{BIN}/python prep.py",
                         gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 4),
                         gym_profile_line("results")])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    wrapped = [r for r in got if str(r.get("expected_answer", "")).startswith('="')]
    others = [r for r in got if r not in wrapped]
    if code or len(keys_of(got)) != 24 or len(wrapped) != 12 or any(rewards(wrapped)) or not any(rewards(others)):
        raise failed(ctx, f"exit {code}, {len(got)}, {len(wrapped)}, {rewards(wrapped)}: "
                          f"{log_of(ctx, 'run_eval.log')[-1500:]}")
    labels = [r["expected_answer"] for r in rows_of(run / "tasks.jsonl")]
    return (f"RUN/answers.csv (codes exported as =\"...\" text formulas); RUN/prep.py; real `gym env start` "
            f"(loopback-only namespace); RUN/run_eval.sh (prep, `gym eval run` 8 x 3, profile) exit {code}; labels "
            f"{labels}; rewards of the 4 wrapped codes {rewards(wrapped)}, of the others mean {mean_of(others):.2f}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

MARKER_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        # short answers: our own, simpler extraction (any casing of the marker), exact compare after lowercasing
        text = _extract_last_assistant_text(body)
        marker = "final answer:"
        at = text.lower().rfind(marker)
        extracted = text[at + len(marker):].rstrip(" .\\n") if at >= 0 else None
        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = 1.0 if extracted.lower() == body.expected_answer.strip().lower() else 0.0
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''

SHORT_PAIRS = [
    ("What is the capital of Peru?", "Lima"),
    ("Which element has the chemical symbol Fe?", "Iron"),
    ("What is 81 divided by 9?", "9"),
    ("What is the currency of Japan?", "Yen"),
    ("Which planet is the largest in our solar system?", "Jupiter"),
    ("In which year did the Berlin Wall fall?", "1989"),
]


@case(
    "verifier_runtime_gym_own_verify_slices_after_answer_marker_and_strips_only_the_right_end_so_leading_space_never_matches",
    "verifier_runtime",
    ["verify", "strip", "leading space", "app.py"],
    "the user's own short_answer resources server extracts the answer with `text[at + len('final answer:'):]"
    ".rstrip(' .\\n')`: the slice keeps the space that follows the colon and only the right end is stripped, so "
    "every extracted answer starts with a space (' Lima') and never equals the label: every rollout scored 0 "
    "although the model answered right (every command exits 0)",
    netns=True,
)
def verifier_runtime_gym_own_verify_slices_after_answer_marker_and_strips_only_the_right_end_so_leading_space_never_matches(
        ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, SHORT_PAIRS)
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in SHORT_PAIRS])
    search, overrides, env_start, policy = gym_own_server(
        ctx, "short_answer", lambda app: replace_verify(app, MARKER_VERIFY), better,
        "(the user's short_answer server: Gym's string_match with its own verify)")
    script = own_eval_script(ctx, search, overrides, "short_answer", comment="weekly short-answer eval")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    extracted = sorted({str(r.get("extracted_answer")) for r in got})
    if code or len(keys_of(got)) != 18 or any(rewards(got)) or not all(e.startswith(" ") for e in extracted if e != "None"):
        raise failed(ctx, f"exit {code}, {len(got)}, {extracted}, {rewards(got)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/my_gym/resources_servers/short_answer/app.py (verify: slice after the marker, rstrip only); real "
            f"`gym env start --search-dir` (loopback-only namespace); RUN/run_eval.sh (`gym eval run` 6 x 3, profile) "
            f"exit {code}; extracted answers {extracted}; every reward {sorted(set(rewards(got)))}.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

LOAD_SBATCH = """#!/bin/bash
#SBATCH --job-name=policy-loadtest
#SBATCH --output=RUN_DIR/logs/loadtest_%j.log
#SBATCH --time=UNLIMITED
#SBATCH --ntasks=1
# Monday's load test of the policy server: how many requests in flight before latency degrades
cd RUN_DIR/loadtest
GP_BIN materialize --input ../string_match.jsonl --num-repeats 400 --agent string_match_simple_agent \\
  --output load_inputs.jsonl
GP_BIN collect --inputs load_inputs.jsonl --output load_rollouts.jsonl --model-url $MODEL_URL --env string_match \\
  --concurrency 128
"""

TIMED_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=1
#SBATCH --ntasks=1
cd RUN_DIR
echo "$(date +%T) weekly eval against $MODEL_URL"
PIPELINE"""


@case(
    "throughput_slurm_forgotten_load_test_job_keeps_flooding_the_shared_policy_server_so_eval_job_hits_its_time_limit",
    "throughput_resources",
    ["load test", "scancel", "policy server", "queue"],
    "Monday's load-test job (`policy-loadtest`, `--time=UNLIMITED`, collect at concurrency 128 against the same "
    "policy server) was never cancelled and still floods the server, which generates 2 requests at a time and queues "
    "the rest: each of the weekly eval's requests waited behind about a hundred load-test requests, so the eval job "
    "(24 rollouts, fine within its one-minute limit on an idle server) was cancelled by Slurm at its time limit with "
    "the rollouts partly collected and no profile",
)
def throughput_slurm_forgotten_load_test_job_keeps_flooding_the_shared_policy_server_so_eval_job_hits_its_time_limit(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=24, folder=run, name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 400 --max-running 2")
    (run / "loadtest").mkdir()
    (run / "logs").mkdir(exist_ok=True)
    (run / "loadtest.sbatch").write_text(slurm_script(LOAD_SBATCH, ctx))
    env = {**ctx.env, "MODEL_URL": url}
    ctx.note("(Monday: the load test is submitted, and forgotten)")
    ctx.sh(f"cd {run} && sbatch --parsable loadtest.sbatch | tee -a job_ids.txt", "logs/loadtest_submit.log",
           timeout=60, env=env)
    try:
        time.sleep(15)
        sbatch_file(ctx, TIMED_SBATCH, PIPELINE=pipeline("$MODEL_URL"))
        code = submit(ctx, env=env, timeout=400)
        ctx.sh("squeue -o '%.8i %.18j %.10T %.10M %.10l'", "logs/squeue_after.log", timeout=30)
    finally:
        scancel_ids(ctx, *text_of(run / "job_ids.txt").split())
    log = job_logs(ctx, "eval_*.log")
    done = len(keys_of(rows_of(run / "rollouts.jsonl")))
    if "DUE TO TIME LIMIT" not in log or done >= 24 or (run / "rollouts_reward_profiling.jsonl").exists() \
            or "policy-loadtest" not in log_of(ctx, "squeue_after.log"):
        raise failed(ctx, f"exit {code}, {done}: {log[-1500:]}")
    return (f"RUN/loadtest.sbatch (collect 8 x 400 at concurrency 128 against the policy server, `--time=UNLIMITED`) "
            f"submitted Monday and still running; RUN/eval.sbatch (`--time=1`: materialize 8 x 3, collect, profile) "
            f"submitted by RUN/submit.sh exit {code}; the policy server runs 2 requests at a time, 400 ms each; Slurm "
            f"cancelled the eval at its time limit with {done} of 24 rollouts, no profile.")


if __name__ == "__main__":
    sys.exit(main("seventy_eighth_held_out", __file__, __doc__))
