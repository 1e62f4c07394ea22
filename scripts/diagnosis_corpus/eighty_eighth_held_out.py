"""Build the EIGHTY-EIGHTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/eighty_eighth_held_out.py --out tests/data/diagnosis_corpus/eighty_eighth_held_out [--only CASE ...]

This set was written after the eighty-seven earlier sets (first_held_out.py ... eighty_seventh_held_out.py), from the
guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`),
the real NeMo Gym 0.7.0 (`gym env start`, `gym eval run`, `gym eval profile`) with the users' own resources servers,
Slurm jobs (sbatch, job arrays, CI glue around sbatch), and the user's own shell and Python
tooling, settings, data-preparation scripts and verifiers. The output of every command is captured as a user would
(`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data, scripts,
settings, verifier code). Each case injects one cause, different in mechanism from those of the eighty-seven earlier
sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not
written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Slurm
(SLURM_CONF), and PYTHONPATH set to this checkout. Run it from a foreground shell. It makes no Docker containers
(any it made would be named `h88-...` and removed at the end of their recipe).
"""
from __future__ import annotations

import csv
import io
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import failed, stop_gym  # noqa: E402
from eighty_sixth_held_out import job_ids, slurm_week, user_file  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_first_held_out import keys_of  # noqa: E402
from fifty_ninth_held_out import gym_own_server, own_eval_script  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from recipes import BIN, GP, GYM, Ctx, case, main, replace_verify, rows_of, text_of  # noqa: E402
from seventy_ninth_held_out import run_eval  # noqa: E402
from sixty_fourth_held_out import pipeline_lines  # noqa: E402
from sixty_third_held_out import gym_script, gym_up, mean_of, scancel_ids  # noqa: E402
from thirtieth_held_out import gym_rows  # noqa: E402
from thirty_eighth_held_out import git  # noqa: E402
from twenty_fourth_held_out import gym_eval_line, gym_profile_line  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_third_held_out import write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def labelled(rows: list[dict], *labels: str) -> list[dict]:
    return [r for r in rows if str(r.get("expected_answer")) in labels]


def with_import(app: str, line: str) -> str:
    """`app` with `line` added to its imports (after `import re`)."""
    return app.replace("import re\n", f"import re\n{line}\n", 1)


PLUS_PAIRS = [(f"What is {n} plus 17?", str(n + 17)) for n in (4, 11, 23, 38, 46, 52, 67, 71, 85)]

WAIT_LINES = """timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"
"""


# =====================================================================================================
# healthy (Slurm): the team preamble's CPU-time cap, far above what the eval needs
# =====================================================================================================

ULIMIT_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
# team preamble (verifier-sandbox template): no process of the job may burn more than 10 minutes of CPU
ulimit -t 600
echo "job $SLURM_JOB_ID limits: cpu time $(ulimit -t) s per process, open files $(ulimit -n)"
cd RUN_DIR
PIPELINE
echo "eval done, cpu time used by the job's children:"
times
"""

PLAIN_SUBMIT = """#!/bin/bash
# submit.sh: the weekly eval as one Slurm job
cd RUN_DIR
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
WAIT_LINES
cat logs/eval_$JOB.log
"""


@case(
    "healthy_slurm_eval_job_team_preamble_caps_cpu_time_with_ulimit_t_far_above_what_the_eval_uses",
    "healthy",
    [],
    "nothing is wrong: the team's job preamble (copied from the verifier-sandbox template) sets `ulimit -t 600`, a "
    "CPU-time cap on every process of the eval job, and prints it; materialize, collect and profile each use a few "
    "seconds of CPU, far below the cap, so every rollout was collected and profiled",
)
def healthy_slurm_eval_job_team_preamble_caps_cpu_time_with_ulimit_t_far_above_what_the_eval_uses(ctx: Ctx) -> str:
    sbatch = ULIMIT_SBATCH.replace("PIPELINE", pipeline_lines("MODEL_URL_VALUE"))
    code, url = slurm_week(ctx, PLUS_PAIRS, {"eval.sbatch": (sbatch, {}),
                                            "submit.sh": (PLAIN_SUBMIT, {"WAIT_LINES": WAIT_LINES})})
    log = log_of(ctx, "submit.log")
    got = rows_of(ctx.run / "rollouts.jsonl")
    if code or complete(ctx) != 27 or "cpu time 600 s" not in log or not any(rewards(got)) \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.sbatch (`ulimit -t 600`, materialize 9 x 3, collect against {url}, profile); RUN/submit.sh "
            f"(sbatch, wait) exit {code}; {complete(ctx)} of 27 rollouts, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# the CI glue submits every job with `sbatch --wrap` (a healthy and a config case)
# =====================================================================================================

SHARD_SCRIPT = """#!/bin/bash
#SBATCH --job-name=eval-shard
#SBATCH --array=0-2
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
# one shard of the weekly eval: array task N evaluates shard_0N.jsonl into out_0N/
cd RUN_DIR
TASK=${SLURM_ARRAY_TASK_ID:-0}
SHARD=$(printf '%02d' $TASK)
echo "shard $SHARD (job $SLURM_JOB_ID) start $(date +%T)"
mkdir -p out_$SHARD
cp shard_$SHARD.jsonl out_$SHARD/inputs.jsonl
GP_BIN collect --inputs out_$SHARD/inputs.jsonl --output out_$SHARD/rollouts.jsonl --model-url MODEL_URL_VALUE \\
  --env string_match --concurrency 2
echo "shard $SHARD done $(date +%T)"
"""

WRAP_SUBMIT = """#!/bin/bash
# submit.sh: the weekly eval in three shards; the CI's submit step (ci/submit_job.sh) wraps every job script
cd RUN_DIR
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output all_inputs.jsonl
split -n l/3 -d --additional-suffix=.jsonl all_inputs.jsonl shard_
ls shard_*.jsonl
# ci/submit_job.sh: sbatch --parsable CI_OPTIONS --wrap "bash <script>"
JOB=$(sbatch --parsable --job-name=ci-eval --time=10 CI_OPTIONS --wrap "bash RUN_DIR/shard.sbatch")
echo "submitted $JOB"
sleep 2
squeue -o "%i %j %T %r"
WAIT_LINES
cat logs/ci_*.log
cat out_*/inputs.jsonl > rollouts_materialized_inputs.jsonl
cat out_*/rollouts.jsonl > rollouts.jsonl
wc -l out_*/rollouts.jsonl rollouts.jsonl
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


def wrap_week(ctx: Ctx, ci_options: str) -> tuple[int, str]:
    return slurm_week(ctx, PLUS_PAIRS, {"shard.sbatch": (SHARD_SCRIPT, {}),
                                        "submit.sh": (WRAP_SUBMIT, {"CI_OPTIONS": ci_options.replace("RUN_DIR", str(ctx.run)),
                                                                    "WAIT_LINES": WAIT_LINES})},
                      "--latency-ms 300")


@case(
    "healthy_slurm_ci_glue_wraps_shard_script_with_sbatch_wrap_and_passes_the_array_on_the_command_line",
    "healthy",
    [],
    "nothing is wrong: the CI's submit step runs every job script through `sbatch --wrap \"bash shard.sbatch\"`, so "
    "the script's own #SBATCH lines (the --array=0-2 directive among them) are plain comments, but the eval's CI "
    "entry gives `--array=0-2` on sbatch's command line: the three array tasks ran (the third waiting for a CPU on "
    "the two-CPU node), every shard was collected, merged and profiled",
)
def healthy_slurm_ci_glue_wraps_shard_script_with_sbatch_wrap_and_passes_the_array_on_the_command_line(
        ctx: Ctx) -> str:
    code, url = wrap_week(ctx, "--array=0-2 --output=RUN_DIR/logs/ci_%A_%a.log")
    log = log_of(ctx, "submit.log")
    got = rows_of(ctx.run / "rollouts.jsonl")
    if code or complete(ctx) != 27 or "shard 02 done" not in log \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/shard.sbatch (#SBATCH --array=0-2, collect of shard_0N against {url}); RUN/submit.sh (materialize 9 "
            f"x 3, split in three, `sbatch --array=0-2 --wrap \"bash shard.sbatch\"`, merge, profile) exit {code}; "
            f"{complete(ctx)} of 27 rollouts merged and profiled, mean reward {mean_of(got):.2f}.")


@case(
    "config_slurm_ci_glue_wraps_shard_script_with_sbatch_wrap_so_its_array_directive_is_never_read",
    "config",
    ["--wrap", "#SBATCH", "--array", "directive"],
    "the CI's submit step runs every job script through `sbatch --wrap \"bash shard.sbatch\"`; sbatch reads #SBATCH "
    "directives only from the script it is given, which is now the one-line wrapper, so shard.sbatch's "
    "`#SBATCH --array=0-2` was never read: one plain job ran, SLURM_ARRAY_TASK_ID was unset, the script's default "
    "made it shard 00, and only that first shard (about a third of the rollouts) was collected, merged and profiled "
    "as if it were the whole set (every command exits 0)",
)
def config_slurm_ci_glue_wraps_shard_script_with_sbatch_wrap_so_its_array_directive_is_never_read(ctx: Ctx) -> str:
    code, url = wrap_week(ctx, "--output=RUN_DIR/logs/ci_%j.log")
    log = log_of(ctx, "submit.log")
    got = rows_of(ctx.run / "rollouts.jsonl")
    if code or not 0 < complete(ctx) < 27 or "shard 00 done" not in log or (ctx.run / "out_01").exists() \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/shard.sbatch (#SBATCH --array=0-2, TASK=${{SLURM_ARRAY_TASK_ID:-0}}, collect against {url}); "
            f"RUN/submit.sh (materialize 9 x 3, split in three, `sbatch --wrap \"bash shard.sbatch\"`, merge, profile) "
            f"exit {code}; {complete(ctx)} of 27 rollouts (shard 00 only) merged and profiled, mean reward "
            f"{mean_of(got):.2f}.")


# =====================================================================================================
# infra (Slurm): the collect step asks srun for a pyxis container on a cluster without pyxis
# =====================================================================================================

PYXIS_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
# weekly eval; collect runs in the team's eval image, as on the GPU cluster (enroot squashfs on the shared FS)
cd RUN_DIR
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
srun --container-image=/shared/images/gym-eval-0.7.0.sqsh --container-mounts=RUN_DIR:RUN_DIR \\
  --container-workdir=RUN_DIR \\
  GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl \\
  --model-url MODEL_URL_VALUE --env string_match --concurrency 4
echo "collect step exit: $?"
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "infra_slurm_eval_job_runs_collect_step_in_pyxis_container_on_cluster_without_the_pyxis_plugin",
    "infra",
    ["pyxis", "--container-image", "plugin", "srun"],
    "the eval job (ported from the GPU cluster) runs collect as `srun --container-image=... --container-mounts=...`, "
    "options that the pyxis SPANK plugin adds to srun; this cluster's Slurm has no pyxis plugin, so srun rejected "
    "the step ('unrecognized option --container-image') before anything ran: no rollout was collected and the "
    "profile found nothing, although the policy server was up",
)
def infra_slurm_eval_job_runs_collect_step_in_pyxis_container_on_cluster_without_the_pyxis_plugin(ctx: Ctx) -> str:
    code, url = slurm_week(ctx, PLUS_PAIRS, {"eval.sbatch": (PYXIS_SBATCH, {}),
                                            "submit.sh": (PLAIN_SUBMIT, {"WAIT_LINES": WAIT_LINES})})
    log = log_of(ctx, "submit.log")
    if complete(ctx) or "unrecognized option" not in log or "container-image" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.sbatch (materialize 9 x 3, `srun --container-image=... collect --model-url {url}`, profile); "
            f"RUN/submit.sh (sbatch, wait) exit {code}; srun: unrecognized option; {complete(ctx)} rollouts collected.")


# =====================================================================================================
# throughput_resources (built-in): the shard driver's worker pool sized from the core count
# =====================================================================================================

RUN_SHARDS_PY = '''"""run_shards.py: collect the shards side by side, one worker per four cores (our GPU nodes have 64)."""
import glob
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

URL = sys.argv[1]
shards = sorted(glob.glob("shard_*.jsonl"))
workers = os.cpu_count() // 4
print(f"{len(shards)} shards, {workers} workers", flush=True)


def collect(shard):
    out = shard.replace("shard_", "out_").replace(".jsonl", "")
    os.makedirs(out, exist_ok=True)
    return subprocess.run(["GP_BIN", "collect", "--inputs", shard, "--output", f"{out}/rollouts.jsonl",
                           "--model-url", URL, "--env", "string_match", "--concurrency", "4"]).returncode


with ThreadPoolExecutor(max_workers=workers) as pool:
    codes = list(pool.map(collect, shards))
print("collect exit codes:", codes)
'''

SHARDS_SH = """GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
split -n l/4 -d --additional-suffix=.jsonl rollouts_materialized_inputs.jsonl shard_
echo "node: $(nproc) cores"
PY run_shards.py URL
cat out_*/rollouts.jsonl > rollouts.jsonl
wc -l rollouts.jsonl
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "throughput_builtin_shard_driver_sizes_thread_pool_as_cpu_count_over_four_which_is_zero_on_two_core_node",
    "throughput_resources",
    ["max_workers", "cpu_count", "workers", "pool"],
    "the user's run_shards.py collects the four shards side by side with `ThreadPoolExecutor(max_workers="
    "os.cpu_count() // 4)`, sized for the 64-core GPU nodes; on this two-core node that is 0 workers, "
    "ThreadPoolExecutor refused it ('max_workers must be greater than 0') before any shard started, so nothing was "
    "collected and the profile found no rollouts although the policy server was up",
)
def throughput_builtin_shard_driver_sizes_thread_pool_as_cpu_count_over_four_which_is_zero_on_two_core_node(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS[:8]])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS[:8])
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "run_shards.py").write_text(RUN_SHARDS_PY.replace("GP_BIN", str(GP)))
    code = run_eval(ctx, SHARDS_SH.replace("GP_BIN", str(GP)).replace("PY", str(BIN / "python")).replace("URL", url),
                    "weekly eval in four shards collected side by side (run_shards.py)")
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) or "max_workers must be greater than 0" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_shards.py (ThreadPoolExecutor(max_workers=os.cpu_count() // 4)); RUN/run_eval.sh (materialize "
            f"8 x 3, split in four, run_shards.py against {url}, merge, profile) exit {code}; ValueError; "
            f"{complete(ctx)} rollouts collected.")


# =====================================================================================================
# cache_resume (built-in): the prepared-dataset cache keyed on the checkout's HEAD commit
# =====================================================================================================

GIT_PAIRS_OLD = [
    ("What is the capital of Canada?", "Toronto"),
    ("How many legs does a spider have?", "8"),
    ("What is the capital of Portugal?", "Lisbon"),
    ("What is the chemical symbol of gold?", "Au"),
    ("How many minutes are in an hour?", "60"),
    ("What is the capital of Turkey?", "Istanbul"),
]
GIT_FIXED = {"Toronto": "Ottawa", "Istanbul": "Ankara"}

PREP_ARG_PY = '''"""prep.py OUT: labels.csv (question,answer) -> OUT (string_match rows)."""
import csv
import json
import sys

rows = []
with open("labels.csv", newline="") as f:
    for row in csv.DictReader(f):
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                              "content": [{"type": "input_text", "text": text}]}]},
                     "expected_answer": row["answer"], "extraction_mode": "final_answer", "case_sensitive": False})
with open(sys.argv[1], "w") as out:
    out.writelines(json.dumps(r) + "\\n" for r in rows)
print(f"prep: {len(rows)} rows written to {sys.argv[1]}")
'''

PREP_DATA_SH = """#!/bin/bash
# prep_data.sh OUT: the eval repo's labels.csv -> OUT/string_match.jsonl; prepared datasets are cached per commit
REPO=REPO_DIR
OUT=$1
KEY=$(git -C $REPO rev-parse --short HEAD)
CACHE=CACHE_DIR/$KEY
echo "eval data at commit $KEY"
if [ -f $CACHE/string_match.jsonl ]; then
  echo "prep cache hit ($KEY): restoring the prepared dataset"
  cp $CACHE/string_match.jsonl $OUT/string_match.jsonl
else
  echo "prep cache miss ($KEY): running prep.py"
  (cd $REPO && PY prep.py $OUT/string_match.jsonl)
  mkdir -p $CACHE && cp $OUT/string_match.jsonl $CACHE/
fi
cp $REPO/labels.csv $OUT/labels.csv   # keep the labels the results were made with
"""


def labels_csv(path: Path, pairs: list[tuple[str, str]]) -> None:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["question", "answer"])
    writer.writerows(pairs)
    path.write_text(buffer.getvalue())


@case(
    "cache_resume_builtin_prep_cache_keyed_on_git_head_commit_so_uncommitted_label_fix_reuses_old_dataset",
    "cache_resume",
    ["cache", "commit", "uncommitted", "prep_data.sh"],
    "the user's prep_data.sh caches the prepared string_match.jsonl under the eval checkout's HEAD commit (`git "
    "rev-parse --short HEAD`); the user fixed two labels in labels.csv (Toronto -> Ottawa, Istanbul -> Ankara) but "
    "had not committed the fix, so HEAD and the key were last week's, the step printed 'prep cache hit' and "
    "restored the dataset built from the old labels: the copied labels.csv in the run folder holds the fix, the "
    "dataset does not, and the model's right answers to the two questions scored 0 (every command exits 0)",
)
def cache_resume_builtin_prep_cache_keyed_on_git_head_commit_so_uncommitted_label_fix_reuses_old_dataset(
        ctx: Ctx) -> str:
    run = ctx.run
    fixed = [(q, GIT_FIXED.get(a, a)) for q, a in GIT_PAIRS_OLD]
    _, better = truth_checkpoints(ctx, fixed)
    repo = ctx.work / "home" / "evals"
    repo.mkdir(parents=True)
    labels_csv(repo / "labels.csv", GIT_PAIRS_OLD)
    (repo / "prep.py").write_text(PREP_ARG_PY)
    git(ctx, repo, "init", "-q", "-b", "main")
    git(ctx, repo, "add", ".")
    git(ctx, repo, "commit", "-q", "-m", "weekly eval labels")
    ctx.note("(the user's checkout WORK/home/evals: labels.csv and prep.py, committed)")
    (run / "prep_data.sh").write_text(PREP_DATA_SH.replace("REPO_DIR", str(repo)).replace(
        "CACHE_DIR", str(ctx.work / "home" / ".cache" / "eval-prep")).replace("PY", str(BIN / "python")))
    last = ctx.work / "runs" / "2026-11-29"
    last.mkdir(parents=True)
    (run / "logs").mkdir(exist_ok=True)
    ctx.sh(f"bash {run}/prep_data.sh {last}", "logs/prep_last_week.log", timeout=120)
    labels_csv(repo / "labels.csv", fixed)
    ctx.note("(this week: the user fixed Toronto -> Ottawa and Istanbul -> Ankara in WORK/home/evals/labels.csv, "
             "not committed)")
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = run_eval(ctx, f"bash {run}/prep_data.sh {run}\ngit -C {repo} log --oneline -1\n" + pipeline_lines(url),
                    "weekly eval: data step (cached per commit), then materialize, collect, profile")
    labels = [r["expected_answer"] for r in rows_of(run / "string_match.jsonl")]
    got = rows_of(run / "rollouts.jsonl")
    stale = labelled(got, *GIT_FIXED)
    others = [r for r in got if r not in stale]
    if code or "Toronto" not in labels or len(stale) != 6 or any(rewards(stale)) or not any(rewards(others)) \
            or "prep cache hit" not in log_of(ctx, "run_eval.log") or "Ottawa" not in text_of(run / "labels.csv"):
        raise failed(ctx, f"exit {code}, {labels}, {rewards(stale)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"last week's run filled the prep cache for the checkout's commit; RUN/labels.csv (copied: Ottawa, "
            f"Ankara, uncommitted); RUN/prep_data.sh (cache key `git rev-parse --short HEAD`); RUN/run_eval.sh "
            f"(prep_data.sh, materialize 6 x 3, collect, profile) exit {code}; labels used {labels}; rewards of the "
            f"two stale labels {rewards(stale)}, others mean {mean_of(others):.2f}.")


# =====================================================================================================
# the real NeMo Gym 0.7.0: a healthy case and a verifier_runtime case with the users' own servers
# =====================================================================================================

WARNING_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        warnings.warn("quiz_match: _answers_match is deprecated and will be replaced by normalise_v2 in the next "
                      "release of the team's grading library", FutureWarning, stacklevel=1)
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

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


def warning_app(app: str) -> str:
    return with_import(replace_verify(app, WARNING_VERIFY), 'import warnings\n\nwarnings.simplefilter("always", '
                                                            'FutureWarning)')


@case(
    "healthy_gym_own_server_prints_futurewarning_of_its_grading_helper_on_every_verify_request",
    "healthy",
    [],
    "nothing is wrong: the user's own resources server quiz_match (Gym's string_match with the team's grading "
    "helper) emits 'FutureWarning: quiz_match: _answers_match is deprecated' on every verify request, so "
    "env_start.log fills with warnings during the eval; the grading itself is unchanged, every rollout was "
    "collected and verified and `gym eval profile` completed",
    netns=True,
)
def healthy_gym_own_server_prints_futurewarning_of_its_grading_helper_on_every_verify_request(ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS[:6]])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS[:6])
    search, overrides, env_start, policy = gym_own_server(
        ctx, "quiz_match", warning_app, better,
        "(the user's quiz_match server: Gym's string_match whose verify warns FutureWarning on every request)")
    script = own_eval_script(ctx, search, overrides, "quiz_match", comment="weekly arithmetic eval")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    profile = rows_of(next(iter(run.glob("results/*reward_profiling*.jsonl")), run / "none"))
    warned = text_of(run / "env_start.log").count("FutureWarning")
    if code or len(keys_of(got)) != 18 or warned < 5 or not any(rewards(got)) or len(profile) != 6:
        raise failed(ctx, f"exit {code}, {len(got)}, {warned}, {len(profile)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/my_gym/resources_servers/quiz_match/app.py (FutureWarning in verify); real `gym env start` "
            f"(loopback-only namespace) with it; RUN/run_eval.sh (`gym eval run --no-serve` 6 x 3, `gym eval profile`) "
            f"exit {code}; {warned} warnings in env_start.log; {len(keys_of(got))} of 18 rollouts, mean reward "
            f"{mean_of(got):.2f}.")


DIGEST_QUIZ = [
    ("What is the capital of Colombia?", "Bogotá"),
    ("What is the capital of Brazil?", "Brasília"),
    ("What is the capital of Norway?", "Oslo"),
    ("What is the capital of Iceland?", "Reykjavík"),
    ("What is the capital of Kenya?", "Nairobi"),
    ("What is the capital of Peru?", "Lima"),
]
NON_ASCII = ("Bogotá", "Brasília", "Reykjavík")

DIGEST_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        reward = 0.0
        if extracted is not None and body.expected_answer:
            # constant-time comparison (from the answer-key service: graders must not time the key)
            reward = float(hmac.compare_digest(extracted.strip().casefold(), body.expected_answer.strip().casefold()))

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


@case(
    "verifier_runtime_gym_own_verify_compares_with_hmac_compare_digest_which_refuses_non_ascii_strings",
    "verifier_runtime",
    ["compare_digest", "hmac", "non-ASCII", "verify"],
    "the user's own resources server capital_match compares the answer with the label through "
    "`hmac.compare_digest(extracted, expected)` (copied from the answer-key service's constant-time check); "
    "compare_digest accepts str arguments only when they are ASCII, so for the capitals with accents (Bogotá, "
    "Brasília, Reykjavík) verify raised TypeError ('comparing strings with non-ASCII characters is not supported'), "
    "those verify requests failed with a server error and their rollouts failed, while the other capitals were "
    "graded",
    netns=True,
)
def verifier_runtime_gym_own_verify_compares_with_hmac_compare_digest_which_refuses_non_ascii_strings(ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in DIGEST_QUIZ])
    _, better = truth_checkpoints(ctx, DIGEST_QUIZ)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "capital_match", lambda app: with_import(replace_verify(app, DIGEST_VERIFY), "import hmac"), better,
        "(the user's capital_match server: Gym's string_match whose verify uses hmac.compare_digest)")
    script = own_eval_script(ctx, search, overrides, "capital_match", comment="weekly capitals eval")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    everything = text_of(run / "env_start.log") + log_of(ctx, "run_eval.log") + text_of(
        run / "results" / "rollouts_failures.jsonl")
    crashed = rows_of(run / "results" / "rollouts_failures.jsonl")
    if "non-ASCII" not in everything or len(crashed) < 3 or any(rewards(labelled(got, *NON_ASCII))) \
            or not any(rewards(got)):
        raise failed(ctx, f"exit {code}, {len(got)}, {len(crashed)}: {everything[-1500:]}")
    return (f"RUN/my_gym/resources_servers/capital_match/app.py (verify: hmac.compare_digest of the casefolded "
            f"strings); real `gym env start` (loopback-only namespace) with it; RUN/run_eval.sh (`gym eval run "
            f"--no-serve` 6 x 3, `gym eval profile`) exit {code}; TypeError for the accented capitals: {len(crashed)} "
            f"rollouts failed, {len(keys_of(got))} of 18 graded, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# data_schema (real NeMo Gym): the review tool's CSV export starts with Excel's `sep=,` hint line
# =====================================================================================================

SEP_PAIRS = [
    ("What is the capital of Austria?", "Vienna"),
    ("How many strings does a standard violin have?", "4"),
    ("What is the capital of Egypt?", "Cairo"),
    ("What is the chemical symbol of silver?", "Ag"),
    ("What is the capital of Chile?", "Santiago"),
    ("How many hours are in a day?", "24"),
]

PREP_DICT_PY = '''"""prep.py: the review tool's export labels.csv -> tasks.jsonl (string_match rows)."""
import csv
import json

rows = []
with open("labels.csv", newline="", encoding="utf-8") as f:
    for row in csv.DictReader(f):
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                              "content": [{"type": "input_text", "text": text}]}]},
                     "expected_answer": row["answer"], "extraction_mode": "final_answer", "case_sensitive": False})
with open("tasks.jsonl", "w") as out:
    out.writelines(json.dumps(r) + "\\n" for r in rows)
print(f"prep: {len(rows)} rows written")
'''


@case(
    "data_schema_gym_review_export_now_starts_with_excel_sep_hint_line_so_prep_dictreader_takes_it_as_header",
    "data_schema",
    ["sep=", "first line", "header", "labels.csv"],
    "the review tool's new labels.csv export starts with Excel's delimiter hint line `sep=,` before the real "
    "`question,answer` header; the user's prep.py reads it with csv.DictReader, which took `sep=` as the header, "
    "so `row['question']` raised KeyError, no tasks.jsonl was written, and `gym eval run` had no input: nothing "
    "was evaluated although Gym's servers and the policy were up",
    netns=True,
)
def data_schema_gym_review_export_now_starts_with_excel_sep_hint_line_so_prep_dictreader_takes_it_as_header(
        ctx: Ctx) -> str:
    run = ctx.run
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    buffer.write("sep=,\r\n")
    writer.writerow(["question", "answer"])
    writer.writerows(SEP_PAIRS)
    (run / "labels.csv").write_text(buffer.getvalue())
    (run / "prep.py").write_text(PREP_DICT_PY)
    _, better = truth_checkpoints(ctx, SEP_PAIRS)
    overrides, env_start, policy = gym_up(ctx, better)
    script = gym_script(ctx, "weekly eval: prep the review export, then gym eval run and profile",
                        [f"{BIN}/python prep.py", gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 4),
                         gym_profile_line("results")])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    log = log_of(ctx, "run_eval.log")
    if gym_rows(ctx) or "KeyError" not in log or (run / "tasks.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(gym_rows(ctx))}: {log[-1500:]}")
    return (f"RUN/labels.csv (first line `sep=,`); RUN/prep.py (csv.DictReader); real `gym env start` (loopback-only "
            f"namespace) against step_0200; RUN/run_eval.sh (prep, `gym eval run --no-serve` 6 x 3, `gym eval "
            f"profile`) exit {code}; KeyError in prep, no tasks.jsonl, {len(gym_rows(ctx))} rollouts.")


# =====================================================================================================
# model_serving (Slurm): the job stops its own model server at the first `wait -n`
# =====================================================================================================

WAIT_N_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=2
# weekly eval: serve this week's checkpoint inside the job, collect the shards side by side against it
cd RUN_DIR
rm -f ready.url
GP_BIN serve-policy --port 0 --ready-file ready.url --checkpoint CKPT --latency-ms 400 > logs/model_server.log 2>&1 &
SERVER=$!
for i in $(seq 1 60); do test -s ready.url && break; sleep 0.5; done
URL=$(cat ready.url)
echo "model server at $URL (pid $SERVER)"
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
split -l 12 -d --additional-suffix=.jsonl rollouts_materialized_inputs.jsonl shard_
wc -l shard_*.jsonl
for s in 00 01 02; do
  mkdir -p out_$s
  GP_BIN collect --inputs shard_$s.jsonl --output out_$s/rollouts.jsonl --model-url $URL --env string_match \\
    --concurrency 2 > logs/collect_$s.log 2>&1 &
done
wait -n   # the collects
echo "$(date +%T) collects finished: stopping the model server"
kill $SERVER
wait
tail -n 2 logs/collect_*.log
cat out_*/rollouts.jsonl > rollouts.jsonl
wc -l out_*/rollouts.jsonl rollouts.jsonl
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "model_serving_slurm_eval_job_stops_its_own_model_server_after_wait_n_returns_for_the_first_finished_shard",
    "model_serving",
    ["wait -n", "kill", "server", "collect"],
    "the user's eval job serves the checkpoint itself (serve-policy in the background), starts the three shard "
    "collects in the background and then runs `wait -n  # the collects` before `kill $SERVER`; `wait -n` returns "
    "when the FIRST background job ends, so as soon as the small third shard finished the job killed its model "
    "server while the two big shards were still collecting: their remaining requests met a closed port, those "
    "rollouts failed, and the profile refused the partial rollouts",
)
def model_serving_slurm_eval_job_stops_its_own_model_server_after_wait_n_returns_for_the_first_finished_shard(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    user_file(ctx, "eval.sbatch", WAIT_N_SBATCH, CKPT=str(better))
    user_file(ctx, "submit.sh", PLAIN_SUBMIT, WAIT_LINES=WAIT_LINES)
    before = set(job_ids(ctx))
    try:
        code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=300)
    finally:
        scancel_ids(ctx, *(set(job_ids(ctx)) - before))
    log = log_of(ctx, "submit.log")
    got = complete(ctx)
    if not 0 < got < 27 or "stopping the model server" not in log or not (run / "out_02" / "rollouts.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {log[-2000:]}")
    return (f"RUN/eval.sbatch (serve-policy of {better.name} in the background, materialize 9 x 3, three collects "
            f"in the background, `wait -n`, kill of the server, merge, profile); RUN/submit.sh (sbatch, wait) exit "
            f"{code}; {got} of 27 rollouts collected.")


# =====================================================================================================
# config (real NeMo Gym): the overrides kept in a bash array, expanded without [@]
# =====================================================================================================

ARRAY_EVAL_SH = """#!/bin/bash
# weekly eval against the running `gym env start` (its overrides kept in one place)
cd RUN_DIR
GYM_ARGS=(--agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3
          --concurrency 4)
GYM_OVERRIDES=(++route_failures_to_sidecar=true HYDRA_VALUES)
echo "gym eval run: ${#GYM_ARGS[@]} arguments, ${#GYM_OVERRIDES[@]} overrides"
GYM_BIN eval run --no-serve "${GYM_ARGS[@]}" $GYM_OVERRIDES
GYM_BIN eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
"""


@case(
    "config_gym_run_script_expands_overrides_bash_array_without_index_so_only_its_first_element_reaches_gym",
    "config",
    ["GYM_OVERRIDES", "[@]", "array", "head_server.port"],
    "the user's run_eval.sh keeps Gym's overrides in a bash array, GYM_OVERRIDES=(++route_failures_to_sidecar=true "
    "++head_server.port=... ++uv_venv_dir=... ...), but passes it as `$GYM_OVERRIDES`, which expands to the first "
    "element only; `gym eval run` never got the head server's port of the running `gym env start` and looked for "
    "it on the default port, where nothing listens, so no rollout was collected although the servers and the "
    "policy were up",
    netns=True,
)
def config_gym_run_script_expands_overrides_bash_array_without_index_so_only_its_first_element_reaches_gym(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in SEP_PAIRS])
    _, better = truth_checkpoints(ctx, SEP_PAIRS)
    overrides, env_start, policy = gym_up(ctx, better)
    script = run / "run_eval.sh"
    script.write_text(ARRAY_EVAL_SH.replace("RUN_DIR", str(run)).replace("HYDRA_VALUES", overrides)
                      .replace("GYM_BIN", str(GYM)))
    code = ctx.sh(f"timeout 300 bash {script}", "logs/run_eval.log", timeout=400)
    stop_gym(ctx, env_start, policy)
    log = log_of(ctx, "run_eval.log")
    if gym_rows(ctx) or "4 overrides" not in log:
        raise failed(ctx, f"exit {code}, {len(gym_rows(ctx))}: {log[-2000:]}")
    return (f"real `gym env start` (loopback-only namespace) against step_0200 with {overrides}; RUN/run_eval.sh "
            f"(GYM_OVERRIDES array passed as $GYM_OVERRIDES, `gym eval run --no-serve` 6 x 3, `gym eval profile`) "
            f"exit {code}; {len(gym_rows(ctx))} rollouts.")


# =====================================================================================================
# data_schema (real NeMo Gym): the export's case_sensitive column read with bool()
# =====================================================================================================

FLAG_PAIRS = [
    ("What is the capital of Hungary?", "Budapest"),
    ("How many sides does a pentagon have?", "5"),
    ("What is the capital of Finland?", "Helsinki"),
    ("How many planets are in the Solar System?", "8"),
    ("What is the capital of Morocco?", "Rabat"),
    ("How many months have 31 days?", "7"),
]
CITIES = ("budapest", "helsinki", "rabat")

PREP_FLAG_PY = '''"""prep.py: the review tool's export labels.csv (question,answer,case_sensitive) -> tasks.jsonl."""
import csv
import json

rows = []
with open("labels.csv", newline="") as f:
    for row in csv.DictReader(f):
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                              "content": [{"type": "input_text", "text": text}]}]},
                     "expected_answer": row["answer"], "extraction_mode": "final_answer",
                     "case_sensitive": bool(row["case_sensitive"])})
with open("tasks.jsonl", "w") as out:
    out.writelines(json.dumps(r) + "\\n" for r in rows)
print(f"prep: {len(rows)} rows written, {sum(r['case_sensitive'] for r in rows)} case-sensitive")
'''


@case(
    "data_schema_gym_prep_reads_export_case_sensitive_column_with_bool_so_text_false_makes_every_row_case_sensitive",
    "data_schema",
    ["case_sensitive", "bool", "FALSE", "prep.py"],
    "the review tool exports labels.csv with a case_sensitive column holding the text TRUE/FALSE (every row FALSE, "
    "the reviewers type answers in lower case); the user's prep.py converts it with `bool(row['case_sensitive'])`, "
    "and bool of any non-empty text is True, so every task was written with case_sensitive: true; the model's "
    "right answers 'Budapest', 'Helsinki', 'Rabat' then did not match the lower-case labels and scored 0, while the "
    "numeric answers scored (every command exits 0)",
    netns=True,
)
def data_schema_gym_prep_reads_export_case_sensitive_column_with_bool_so_text_false_makes_every_row_case_sensitive(
        ctx: Ctx) -> str:
    run = ctx.run
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["question", "answer", "case_sensitive"])
    writer.writerows([(q, a.lower(), "FALSE") for q, a in FLAG_PAIRS])
    (run / "labels.csv").write_text(buffer.getvalue())
    (run / "prep.py").write_text(PREP_FLAG_PY)
    _, better = truth_checkpoints(ctx, FLAG_PAIRS)
    overrides, env_start, policy = gym_up(ctx, better)
    script = gym_script(ctx, "weekly eval: prep the review export, then gym eval run and profile",
                        [f"{BIN}/python prep.py", gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 4),
                         gym_profile_line("results")])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    flags = {r["case_sensitive"] for r in rows_of(run / "tasks.jsonl")}
    cities = labelled(got, *CITIES)
    numbers = [r for r in got if r not in cities]
    profile = rows_of(next(iter(run.glob("results/*reward_profiling*.jsonl")), run / "none"))
    if code or flags != {True} or len(keys_of(got)) != 18 or any(rewards(cities)) or not any(rewards(numbers)) \
            or len(profile) != 6:
        raise failed(ctx, f"exit {code}, {flags}, {len(got)}, {rewards(cities)}, {rewards(numbers)}: "
                          f"{log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/labels.csv (lower-case answers, case_sensitive FALSE); RUN/prep.py (bool(row['case_sensitive'])); "
            f"real `gym env start` (loopback-only namespace) against step_0200; RUN/run_eval.sh (prep, `gym eval run "
            f"--no-serve` 6 x 3, `gym eval profile`) exit {code}; case_sensitive in tasks.jsonl {flags}; city rewards "
            f"{rewards(cities)}, numeric mean {mean_of(numbers):.2f}.")


if __name__ == "__main__":
    sys.exit(main("eighty_eighth_held_out", __file__, __doc__))
