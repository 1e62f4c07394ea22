"""Build the SIXTY-FIFTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/sixty_fifth_held_out.py --out tests/data/diagnosis_corpus/sixty_fifth_held_out [--only CASE ...]

This set was written after the sixty-four earlier sets (first_held_out.py ... sixty_fourth_held_out.py), from
the guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`), the real NeMo
Gym 0.7.0 in a loopback-only network namespace (with a user's own resources server and settings), Slurm batch jobs,
job arrays and model-server jobs on the single-node cluster, and the user's own shell tooling, sbatch scripts, submit
wrappers, data-preparation scripts and verifiers. The output of
every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand
but the user's own inputs (data, scripts, settings, verifier code). Each case injects one cause, different in
mechanism from those of the sixty-four earlier sets, and each recipe checks that its fault really happened (it raises
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
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import checkpoints, failed, stop_gym  # noqa: E402
from fiftieth_held_out import log_of, submit  # noqa: E402
from fifty_first_held_out import keys_of  # noqa: E402
from fifty_ninth_held_out import gym_own_server, own_eval_script, sbatch_file  # noqa: E402
from fortieth_held_out import truth_checkpoints  # noqa: E402
from recipes import GYM, Ctx, case, main, replace_verify, rows_of, text_of  # noqa: E402
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


def whole_rows(path: Path) -> tuple[list[dict], int]:
    """The rows of a JSONL file that parse, and how many lines do not (a line cut short by a full disk)."""
    rows, broken = [], 0
    for line in text_of(path).splitlines():
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            broken += 1
    return rows, broken


def run_submit(ctx: Ctx, template: str, timeout: float = 500, env: dict | None = None, **values: str) -> int:
    """RUN/submit.sh from `template`, run as the user would; every job it recorded in job_ids.txt cancelled after."""
    (ctx.run / "logs").mkdir(exist_ok=True)
    (ctx.run / "submit.sh").write_text(slurm_script(template, ctx, **values))
    try:
        return ctx.sh(f"bash {ctx.run}/submit.sh", "logs/submit.log", timeout=timeout, env=env)
    finally:
        scancel_ids(ctx, *text_of(ctx.run / "job_ids.txt").split())


# =====================================================================================================
# healthy
# =====================================================================================================

BEGIN_SUBMIT = """#!/bin/bash
# submit.sh: the weekly eval, held back a little so that it starts after the nightly checkpoint sync has finished
cd RUN_DIR
JOB=$(sbatch --parsable --begin=now+20 eval.sbatch)
echo "submitted job $JOB (--begin=now+20)"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do
  squeue -h -j $JOB -o '%i %j %T %r' 2>/dev/null
  sleep 4
done
echo "job $JOB finished"
"""


@case(
    "healthy_slurm_eval_submitted_with_begin_delay_sits_pending_on_begintime_before_it_runs",
    "healthy",
    [],
    "nothing is wrong: the user's submit.sh holds the weekly eval back with `sbatch --begin=now+20` so that it starts "
    "after the nightly checkpoint sync; for its first seconds the job is listed PENDING with reason BeginTime, which "
    "looks like a job stuck in the queue, but it started on time and materialize, collect and profile completed "
    "every rollout",
)
def healthy_slurm_eval_submitted_with_begin_delay_sits_pending_on_begintime_before_it_runs(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=14, folder=run, name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20")
    sbatch_file(ctx, "#!/bin/bash\n#SBATCH --job-name=weekly-eval\n#SBATCH --output=RUN_DIR/logs/eval_%j.log\n"
                "#SBATCH --time=10\n#SBATCH --ntasks=1\ncd RUN_DIR\necho \"weekly eval against $MODEL_URL, started "
                "$(date +%T)\"\nPIPELINE", PIPELINE=pipeline("$MODEL_URL"))
    code = run_submit(ctx, BEGIN_SUBMIT, env={**ctx.env, "MODEL_URL": url})
    submitted = log_of(ctx, "submit.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or "PENDING BeginTime" not in submitted or len(keys_of(got)) != 24 \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)}: {submitted[-800:]} {job_logs(ctx, 'eval_*.log')[-1200:]}")
    return (f"RUN/eval.sbatch (materialize 8 x 3, collect, profile) submitted by RUN/submit.sh with `--begin=now+20` "
            f"exit {code}; the job was PENDING (BeginTime) first, then ran; {len(keys_of(got))} of 24 rollouts, mean "
            f"reward {mean_of(got):.2f}.")


@case(
    "healthy_gym_dev_and_test_evals_share_one_results_folder_under_their_own_output_stems",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh evaluates the dev and the test split one after the other into the same "
    "results/ folder, as results/dev_rollouts.jsonl and results/test_rollouts.jsonl; the folder holds two sets of "
    "materialized inputs, rollouts and profiles side by side (and the one-name-per-folder files of the second run), "
    "which looks like two runs writing one folder, but each run's files are named from its own --output stem and both "
    "splits were collected and profiled completely",
    netns=True,
)
def healthy_gym_dev_and_test_evals_share_one_results_folder_under_their_own_output_stems(ctx: Ctx) -> str:
    run = ctx.run
    rows = rows_of(ctx.dataset("string_match", 16, start=64))
    write_jsonl(run / "dev.jsonl", rows[:8])
    write_jsonl(run / "test.jsonl", rows[8:])
    _, better = checkpoints(ctx, "string_match", ctx.work / "data.jsonl")
    overrides, env_start, policy = gym_up(ctx, better)
    lines = [gym_eval_line(overrides, f"{split}.jsonl", f"results/{split}_rollouts.jsonl", 3, 4) for split in
             ("dev", "test")]
    lines += [f"{GYM} eval profile --inputs results/{split}_rollouts_materialized_inputs.jsonl --rollouts "
              f"results/{split}_rollouts.jsonl" for split in ("dev", "test")]
    script = gym_script(ctx, "weekly eval of both splits, into one results folder", lines)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    dev, test = rows_of(run / "results" / "dev_rollouts.jsonl"), rows_of(run / "results" / "test_rollouts.jsonl")
    profiles = sorted(p.name for p in run.glob("results/*reward_profiling*.jsonl"))
    if code or len(keys_of(dev)) != 24 or len(keys_of(test)) != 24 or len(profiles) != 2:
        raise failed(ctx, f"exit {code}, {len(dev)}, {len(test)}, {profiles}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/dev.jsonl, RUN/test.jsonl (8 tasks each); real `gym env start` (loopback-only namespace) against "
            f"step_0200; RUN/run_eval.sh (`gym eval run --no-serve` of each split into results/<split>_rollouts.jsonl, "
            f"then `gym eval profile` of each) exit {code}; {len(keys_of(dev))} + {len(keys_of(test))} of 24 + 24 "
            f"rollouts; profiles {profiles}; mean reward dev {mean_of(dev):.2f}, test {mean_of(test):.2f}.")


LABEL_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
# the eval runs as a job step with --label (the team's habit from multi-task jobs: every line names its task)
cd RUN_DIR
srun --label bash steps.sh
"""


@case(
    "healthy_slurm_eval_step_run_with_srun_label_so_every_log_line_starts_with_task_number",
    "healthy",
    [],
    "nothing is wrong: the user's eval.sbatch runs the eval as a job step with `srun --label` (the team's habit from "
    "multi-task jobs), so every line of the job log starts with '0: ', the number of the task that printed it, which "
    "makes the log look garbled and the progress lines hard to read, but the one task ran materialize, collect and "
    "profile to the end and every rollout was collected",
)
def healthy_slurm_eval_step_run_with_srun_label_so_every_log_line_starts_with_task_number(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=30, folder=run, name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "steps.sh").write_text(f"#!/bin/bash\n# the weekly eval's steps\necho \"weekly eval against $MODEL_URL\"\n"
                                  f"{pipeline('$MODEL_URL')}")
    sbatch_file(ctx, LABEL_SBATCH)
    code = submit(ctx, env={**ctx.env, "MODEL_URL": url})
    job = job_logs(ctx, "eval_*.log")
    got = rows_of(run / "rollouts.jsonl")
    labelled = [line for line in job.splitlines() if line.startswith("0: ")]
    if code or len(labelled) < 3 or len(keys_of(got)) != 24 or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)}, {len(labelled)}: {job[-1500:]}")
    return (f"RUN/eval.sbatch (`srun --label bash steps.sh`: materialize 8 x 3, collect, profile) submitted by "
            f"RUN/submit.sh exit {code}; {len(labelled)} log lines start with '0: '; {len(keys_of(got))} of 24 "
            f"rollouts, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# model_serving
# =====================================================================================================

ARG_SERVE_SBATCH = """#!/bin/bash
#SBATCH --job-name=serve-policy
#SBATCH --output=RUN_DIR/logs/serve_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
# the team's model-server job: serves the checkpoint given as its first argument
# (defaults to the baseline, so that a bare `sbatch serve.sbatch` still brings up something to test against)
CKPT=${1:-BASELINE}
echo "serving $CKPT"
GP_BIN serve-policy --port 0 --ready-file RUN_DIR/server_url.txt --checkpoint $CKPT --latency-ms 20
"""

ARG_SUBMIT = """#!/bin/bash
# submit.sh: bring up the model server for this week's checkpoint, then evaluate it
cd RUN_DIR
CKPT=NEWCKPT
rm -f server_url.txt
SERVER=$(sbatch --parsable --export=ALL,CKPT=$CKPT serve.sbatch)
echo $SERVER >> job_ids.txt
echo "model server job $SERVER for $CKPT"
for i in $(seq 90); do [ -s server_url.txt ] && break; sleep 2; done
MODEL_URL=$(cat server_url.txt)
echo "model server up at $MODEL_URL"
PIPELINE
scancel $SERVER
"""


@case(
    "model_serving_slurm_serve_job_takes_checkpoint_from_first_argument_but_submit_exports_it_so_baseline_is_served",
    "model_serving",
    ["$1", "--export", "checkpoint", "serve.sbatch"],
    "the team's serve.sbatch serves the checkpoint given as its first argument (`CKPT=${1:-<baseline step_0100>}`); "
    "the user's submit.sh passes this week's checkpoint as an exported variable instead (`sbatch --export=ALL,"
    "CKPT=.../step_0200 serve.sbatch`), which the script's own `CKPT=${1:-...}` line overwrites: the model server "
    "served the baseline checkpoint, the eval measured the baseline instead of the new checkpoint, and every command "
    "exits 0",
)
def model_serving_slurm_serve_job_takes_checkpoint_from_first_argument_but_submit_exports_it_so_baseline_is_served(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 10, start=40, folder=run, name="string_match.jsonl")
    baseline, better = checkpoints(ctx, "string_match", data)
    (run / "logs").mkdir(exist_ok=True)
    (run / "serve.sbatch").write_text(slurm_script(ARG_SERVE_SBATCH, ctx, BASELINE=str(baseline)))
    code = run_submit(ctx, ARG_SUBMIT, NEWCKPT=str(better), PIPELINE=pipeline("$MODEL_URL"))
    serve = job_logs(ctx, "serve_*.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or f"serving {baseline}" not in serve or len(keys_of(got)) != 30 \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)}: {serve[-800:]} {log_of(ctx, 'submit.log')[-1200:]}")
    return (f"RUN/serve.sbatch (`CKPT=${{1:-.../step_0100}}`); RUN/submit.sh (`sbatch --export=ALL,CKPT=.../step_0200 "
            f"serve.sbatch`, wait for server_url.txt, materialize 10 x 3, collect, profile) exit {code}; the server "
            f"job served {baseline.name}; {len(keys_of(got))} of 30 rollouts, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================


@case(
    "throughput_gym_eval_concurrency_raised_to_sixteen_against_shared_server_admitting_two_running_two_waiting",
    "throughput_resources",
    ["--concurrency", "429", "max-waiting"],
    "the team's shared model server admits 2 requests at a time and queues 2 more (`--max-running 2 --max-waiting "
    "2`), answering 429 'overloaded' beyond that; the user raised `gym eval run --concurrency` from 4 to 16 to "
    "finish sooner, so most requests were refused with 429, the attempts ran out, and many rollouts ended in the "
    "failure sidecar instead of being collected",
    netns=True,
)
def throughput_gym_eval_concurrency_raised_to_sixteen_against_shared_server_admitting_two_running_two_waiting(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 10, start=50, folder=run, name="tasks.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    ctx.note("(the team's shared model server: serve-policy --max-running 2 --max-waiting 2)")
    overrides, env_start, policy = gym_up(ctx, better, "--latency-ms 600 --max-running 2 --max-waiting 2")
    script = gym_script(ctx, "weekly eval; concurrency raised from 4 to 16 to finish sooner",
                        [gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 16),
                         gym_profile_line("results")])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    sidecar = rows_of(run / "results" / "rollouts_failures.jsonl")
    seen = (json.dumps(sidecar) + text_of(run / "policy_server.log")).lower()
    if not sidecar or len(keys_of(got)) >= 30 or ("429" not in seen and "overloaded" not in seen):
        raise failed(ctx, f"exit {code}, {len(got)}, {len(sidecar)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"the model server (serve-policy --max-running 2 --max-waiting 2, 0.6 s a generation); real `gym env "
            f"start` (loopback-only namespace); RUN/run_eval.sh (`gym eval run --no-serve --concurrency 16` 10 x 3, "
            f"`gym eval profile`) exit {code}; {len(keys_of(got))} of 30 rollouts, {len(sidecar)} failed attempts in "
            f"the sidecar.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

QUIZ = [("What is the capital of Kenya?", "Nairobi", "Nairobi"),
        ("What is the capital of Peru?", "Lima", "Lima"),
        ("What is the capital of Egypt?", "Cairo", "Cairo"),
        ("What is the capital of Japan?", "Tokyo", "Tokyo"),
        ("What is the capital of Chile?", "Santiago", "Santiago"),
        ("What is the capital of Spain?", "Madrid", "Madrid"),
        ("What is the capital of Ireland?", "Dublin", "Dublin"),
        ("What is the capital of Australia?", "Sydney", "Canberra"),
        ("What is the capital of Turkey?", "Istanbul", "Ankara"),
        ("What is the capital of Brazil?", "Rio de Janeiro", "Brasilia")]

PREP_SH = """#!/bin/bash
# prep.sh: quiz.jsonl (the labelling team's export) -> tasks.jsonl. The conversion is cached in .prep_cache/ and
# redone only when the export changes; the export is large, so it is fingerprinted by its first kilobyte.
cd RUN_DIR
mkdir -p .prep_cache
KEY=$(head -c 1024 quiz.jsonl | md5sum | cut -d' ' -f1)
if [ -f .prep_cache/$KEY.jsonl ]; then
  echo "quiz.jsonl unchanged (fingerprint $KEY): using the cached conversion"
else
  PY_BIN convert.py < quiz.jsonl > .prep_cache/$KEY.jsonl
  echo "converted quiz.jsonl (fingerprint $KEY)"
fi
cp .prep_cache/$KEY.jsonl tasks.jsonl
wc -l tasks.jsonl
"""

CONVERT_PY = '''"""convert.py: the labelling team's quiz export (one JSON object a line) as string_match tasks."""
import json
import sys

for line in sys.stdin:
    q = json.loads(line)
    text = f"{q['question']} End your response with 'Final answer: <answer>'."
    print(json.dumps({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                             "content": [{"type": "input_text", "text": text}]}]},
                      "expected_answer": q["answer"], "extraction_mode": "final_answer", "case_sensitive": False}))
'''


def quiz_export(path: Path, fixed: bool) -> None:
    write_jsonl(path, [{"id": f"geo-{i:03d}", "question": q, "answer": good if fixed else old,
                        "reviewed_by": "labelling-team", "source": "capitals quiz, 2026 export", "difficulty": 2}
                       for i, (q, old, good) in enumerate(QUIZ)])


@case(
    "cache_resume_gym_prep_cache_keyed_on_checksum_of_first_kilobyte_misses_label_fixes_further_down",
    "cache_resume",
    ["head -c 1024", "fingerprint", ".prep_cache", "cache key"],
    "the user's prep.sh caches its conversion of the labelling team's export in .prep_cache/, keyed by the md5 of "
    "the export's first kilobyte only (`head -c 1024 quiz.jsonl | md5sum`); this week's export fixed three wrong "
    "labels (Sydney -> Canberra, Istanbul -> Ankara, Rio de Janeiro -> Brasilia) in rows past the first kilobyte, "
    "so the fingerprint did not change, prep.sh copied last week's cached tasks with the old labels, and the model's "
    "right answers to those tasks scored 0; every command exits 0",
    netns=True,
)
def cache_resume_gym_prep_cache_keyed_on_checksum_of_first_kilobyte_misses_label_fixes_further_down(ctx: Ctx) -> str:
    run = ctx.run
    (run / "convert.py").write_text(CONVERT_PY)
    (run / "prep.sh").write_text(slurm_script(PREP_SH, ctx, PY_BIN=str(recipes.PY)))
    quiz_export(run / "quiz.jsonl", fixed=False)
    ctx.note("(last week: the export with the old labels, converted by prep.sh)")
    ctx.sh(f"bash {run}/prep.sh", "logs/prep_last_week.log")
    quiz_export(run / "quiz.jsonl", fixed=True)
    ctx.note("(this week: the labelling team's fixed export replaces quiz.jsonl; prep.sh run again)")
    ctx.sh(f"bash {run}/prep.sh", "logs/prep.log")
    labels = [r["expected_answer"] for r in rows_of(run / "tasks.jsonl")]
    _, better = truth_checkpoints(ctx, [(q, good) for q, _, good in QUIZ])
    check = [prompt_of(question_row(q, good)) for q, _, good in QUIZ]
    if [prompt_of(r) for r in rows_of(run / "tasks.jsonl")] != check:
        raise failed(ctx, "convert.py's prompts differ from the ones the checkpoint learned")
    overrides, env_start, policy = gym_up(ctx, better)
    script = gym_script(ctx, "weekly eval of the capitals quiz",
                        ["bash prep.sh", gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 4),
                         gym_profile_line("results")])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    fixed = {good.lower() for _, old, good in QUIZ if old != good}
    missed = [r for r in got if not r.get("reward") and str(r.get("extracted_answer", "")).strip().lower() in fixed]
    if code or "Sydney" not in labels or "unchanged" not in log_of(ctx, "prep.log") or len(keys_of(got)) != 30 \
            or not missed:
        raise failed(ctx, f"exit {code}, {labels}, {len(got)}, {len(missed)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/quiz.jsonl (this week's export: three labels fixed past its first kilobyte); RUN/prep.sh (cache "
            f"keyed by `head -c 1024 | md5sum`) reused last week's conversion, labels {labels}; real `gym env start` "
            f"(loopback-only namespace) against step_0200; RUN/run_eval.sh (prep.sh, `gym eval run --no-serve` 10 x 3, "
            f"`gym eval profile`) exit {code}; {len(missed)} rollouts answered the fixed label and scored 0; mean "
            f"reward {mean_of(got):.2f}.")


# =====================================================================================================
# infra
# =====================================================================================================


@case(
    "infra_gym_results_folder_is_nodes_small_ramdisk_scratch_that_fills_during_the_eval",
    "infra",
    ["No space left on device", "scratch", "tmpfs"],
    "on the eval node the run's results/ folder is the node's small ramdisk scratch (a 64 KB tmpfs the site mounts "
    "there for temporary files); `gym eval run` wrote the materialized inputs and then the rollouts into it until the "
    "file system was full (No space left on device): the rollouts after that were not written, and the profile could "
    "not complete",
    netns=True,
)
def infra_gym_results_folder_is_nodes_small_ramdisk_scratch_that_fills_during_the_eval(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 10, start=20, folder=run, name="tasks.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    overrides, env_start, policy = gym_up(ctx, better)
    (run / "results").mkdir()
    ctx.note("(the node: RUN/results is the site's ramdisk scratch, `mount -t tmpfs -o size=64k scratch RUN/results`)")
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "scratch", str(run / "results")], check=True)
    script = gym_script(ctx, "weekly eval", ["df -h results | tail -n 1",
                                             gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 4),
                                             gym_profile_line("results"), "df -h results | tail -n 1", "ls -la results"])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    # the run folder handed over holds what was on the scratch (copied off it before the namespace goes away)
    kept = ctx.work / "scratch_copy"
    shutil.copytree(run / "results", kept)
    subprocess.run(["umount", str(run / "results")], check=True)
    shutil.copytree(kept, run / "results", dirs_exist_ok=True)
    got, broken = whole_rows(run / "results" / "rollouts.jsonl")
    log = log_of(ctx, "run_eval.log")
    if "no space left on device" not in log.lower() or len(keys_of(got)) >= 30:
        raise failed(ctx, f"exit {code}, {len(got)}: {log[-2000:]}")
    return (f"RUN/results on a 64 KB tmpfs; real `gym env start` (loopback-only namespace) against step_0200; "
            f"RUN/run_eval.sh (`gym eval run --no-serve` 10 x 3, `gym eval profile`) exit {code}; No space left on "
            f"device; {len(keys_of(got))} of 30 rollouts written whole, {broken} line(s) cut short.")


# =====================================================================================================
# config
# =====================================================================================================

STEP_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-shards
#SBATCH --output=RUN_DIR/logs/shard_%A_%a.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --array=0-3:2
# one array task per shard of tasks.jsonl (shard_0.jsonl ... shard_3.jsonl, made by prep_shards.sh)
# (array line adapted from the team's seed-sweep template, --array=0-6:2 over seeds 0, 2, 4, 6)
SHARD=shard_${SLURM_ARRAY_TASK_ID}
echo "array task ${SLURM_ARRAY_TASK_ID}: $SHARD"
cd RUN_DIR && mkdir -p $SHARD && cd $SHARD
PIPELINE"""

STEP_SUBMIT = """#!/bin/bash
# submit.sh: the weekly sharded eval
cd RUN_DIR
bash prep_shards.sh
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job array $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job array $JOB finished"
for d in shard_*/; do echo "$d $(cat $d/rollouts.jsonl 2>/dev/null | wc -l) rollouts"; done
"""


@case(
    "config_slurm_shard_array_keeps_step_of_two_from_seed_sweep_template_so_odd_shards_never_run",
    "config",
    ["--array", ":2", "step"],
    "the user's eval.sbatch took its array line from the team's seed-sweep template (`--array=0-6:2`, seeds 0, 2, 4, "
    "6) and changed the range to the four shards but kept the step: `--array=0-3:2` makes only array tasks 0 and 2, so "
    "shards 1 and 3 (8 of the 16 tasks) were never evaluated, and every command exits 0",
)
def config_slurm_shard_array_keeps_step_of_two_from_seed_sweep_template_so_odd_shards_never_run(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 16, start=2, folder=run, name="tasks.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "prep_shards.sh").write_text(f"#!/bin/bash\ncd {run}\nsplit -l 4 -d -a 1 --additional-suffix=.jsonl "
                                        "tasks.jsonl shard_\nwc -l shard_?.jsonl\n")
    sbatch_file(ctx, STEP_SBATCH, PIPELINE=pipeline("$MODEL_URL", data="../$SHARD.jsonl"))
    code = run_submit(ctx, STEP_SUBMIT, env={**ctx.env, "MODEL_URL": url})
    folders = sorted(p.name for p in run.glob("shard_*") if p.is_dir())
    logs = sorted(p.name for p in (run / "logs").glob("shard_*.log"))
    done = {f: len(keys_of(rows_of(run / f / "rollouts.jsonl"))) for f in folders}
    if code or folders != ["shard_0", "shard_2"] or done != {"shard_0": 12, "shard_2": 12}:
        raise failed(ctx, f"exit {code}, {folders}, {done}: {job_logs(ctx, 'shard_*.log')[-1500:]}")
    return (f"RUN/tasks.jsonl (16 tasks), RUN/prep_shards.sh (4 shards); RUN/eval.sbatch (`--array=0-3:2`, materialize "
            f"4 x 3, collect, profile per shard) submitted by RUN/submit.sh exit {code}; array tasks ran for {folders} "
            f"(logs {logs}); rollouts {done}; shards 1 and 3 never evaluated.")


# =====================================================================================================
# data_schema
# =====================================================================================================

BANK = [("What is the capital of Canada?", {"A": "Toronto", "B": "Ottawa", "C": "Montreal", "D": "Vancouver"}, "B"),
        ("Which planet is known as the Red Planet?", {"A": "Venus", "B": "Jupiter", "C": "Mars", "D": "Saturn"}, "C"),
        ("What is the largest ocean on Earth?", {"A": "Pacific", "B": "Atlantic", "C": "Indian", "D": "Arctic"}, "A"),
        ("Which gas do plants absorb from the air?", {"A": "Oxygen", "B": "Nitrogen", "C": "Helium",
                                                      "D": "Carbon dioxide"}, "D"),
        ("Who wrote Hamlet?", {"A": "Dickens", "B": "Shakespeare", "C": "Austen", "D": "Tolstoy"}, "B"),
        ("What is the chemical symbol for gold?", {"A": "Au", "B": "Ag", "C": "Gd", "D": "Go"}, "A"),
        ("Which is the longest river in Africa?", {"A": "Congo", "B": "Niger", "C": "Nile", "D": "Zambezi"}, "C"),
        ("What is the smallest prime number?", {"A": "1", "B": "2", "C": "3", "D": "5"}, "B")]

OPEN_PY = '''"""open_questions.py: this month's open-question split, made from our multiple-choice bank (bank.jsonl).
The options are dropped (the model must name the answer itself); each task keeps the bank's answer field."""
import json

with open("bank.jsonl") as src, open("tasks.jsonl", "w") as out:
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
    "data_schema_gym_open_question_split_made_from_multiple_choice_bank_keeps_option_letters_as_labels",
    "data_schema",
    ["expected_answer", "option letter", "options"],
    "the user's open_questions.py makes an open-question split from the team's multiple-choice bank: it drops the "
    "options from the prompts but copies the bank's answer field, which holds the letter of the right option (A-D), "
    "as the label; the model names the answer (Ottawa, Mars, Pacific, ...) and is compared with a letter, so every "
    "right answer scores 0, and every command exits 0",
    netns=True,
)
def data_schema_gym_open_question_split_made_from_multiple_choice_bank_keeps_option_letters_as_labels(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "bank.jsonl", [{"question": q, "options": options, "answer": letter}
                                     for q, options, letter in BANK])
    (run / "open_questions.py").write_text(OPEN_PY)
    ctx.sh(f"cd {run} && {recipes.PY} open_questions.py", "logs/open_questions.log")
    _, better = truth_checkpoints(ctx, [(q, options[letter]) for q, options, letter in BANK])
    check = [prompt_of(question_row(q, options[letter])) for q, options, letter in BANK]
    if [prompt_of(r) for r in rows_of(run / "tasks.jsonl")] != check:
        raise failed(ctx, "open_questions.py's prompts differ from the ones the checkpoint learned")
    overrides, env_start, policy = gym_up(ctx, better)
    script = gym_script(ctx, "monthly eval of the open-question split",
                        [gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 4),
                         gym_profile_line("results")])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    names = {options[letter].lower() for _, options, letter in BANK}
    missed = [r for r in got if not r.get("reward") and str(r.get("extracted_answer", "")).strip().lower() in names]
    if code or len(keys_of(got)) != 24 or len(missed) < 8:
        raise failed(ctx, f"exit {code}, {len(got)}, {len(missed)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/bank.jsonl (multiple choice, answers as option letters); RUN/open_questions.py (options dropped, "
            f"letters kept as labels); real `gym env start` (loopback-only namespace) against step_0200; "
            f"RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, `gym eval profile`) exit {code}; {len(missed)} "
            f"rollouts named the right answer and scored 0; mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

NORMALISE = '''

async def normalise(text: str) -> str:
    """The team's answer normaliser (async: the grading service awaits it)."""
    await asyncio.sleep(0)
    return " ".join(text.replace("\\u00a0", " ").split()).strip().lower()


def normalise_sync(text: str) -> str:
    """Synchronous entry point, as the offline grading CLI calls it."""
    return asyncio.run(normalise(text))

'''

NORMALISED_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        # compare with the team's normaliser, so that our verifier and the offline grading CLI agree
        reward = 0.0
        if extracted is not None and body.expected_answer is not None:
            reward = float(normalise_sync(extracted) == normalise_sync(str(body.expected_answer)))

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""


def with_normaliser(app: str) -> str:
    app = app.replace("import re\n", "import asyncio\nimport re\n", 1)
    marker = "\n\ndef _extract_last_assistant_text"
    app = app.replace(marker, NORMALISE.rstrip("\n") + "\n" + marker, 1)
    return replace_verify(app, NORMALISED_VERIFY)


@case(
    "verifier_runtime_gym_own_verify_calls_sync_normaliser_that_runs_asyncio_run_inside_the_servers_event_loop",
    "verifier_runtime",
    ["asyncio.run", "event loop", "verify"],
    "the user's own resources server (norm_match, Gym's string_match with a new verify) normalises both answers "
    "with `normalise_sync`, the offline grading CLI's entry point, which calls `asyncio.run(normalise(...))`; inside "
    "the server's async verify an event loop is already running, so asyncio.run raised RuntimeError ('cannot be "
    "called from a running event loop') and /verify answered 500 for every rollout that had an answer: those went "
    "to the failure sidecar instead of being scored",
    netns=True,
)
def verifier_runtime_gym_own_verify_calls_sync_normaliser_that_runs_asyncio_run_inside_the_servers_event_loop(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=8, folder=run, name="tasks.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "norm_match", with_normaliser, better,
        "(copied Gym's string_match to WORK/my_gym/resources_servers/norm_match, kept in RUN/my_gym; its verify "
        "normalises both answers with normalise_sync, which calls asyncio.run)")
    code = ctx.sh(f"bash {own_eval_script(ctx, search, overrides, 'norm_match')}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    sidecar = rows_of(run / "results" / "rollouts_failures.jsonl")
    seen = (text_of(run / "logs" / "run_eval.log") + json.dumps(sidecar) + text_of(run / "env_start.log")).lower()
    if not sidecar or "running event loop" not in seen:
        raise failed(ctx, f"exit {code}, {len(got)}, {len(sidecar)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/my_gym/resources_servers/norm_match/app.py (verify calls normalise_sync -> asyncio.run) served by "
            f"the real `gym env start` (loopback-only namespace) against step_0200; RUN/run_eval.sh (`gym eval run "
            f"--no-serve` 8 x 3, `gym eval profile`) exit {code}; {len(keys_of(got))} rollouts scored, {len(sidecar)} "
            f"failed attempts in the sidecar.")


if __name__ == "__main__":
    sys.exit(main("sixty_fifth_held_out", __file__, __doc__))
