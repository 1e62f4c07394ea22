"""Build the HUNDRED-AND-FOURTEENTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/hundred_and_fourteenth_held_out.py --out tests/data/diagnosis_corpus/hundred_and_fourteenth_held_out [--only CASE ...]

This set was written after the a hundred and thirteen earlier sets (first_held_out.py ... hundred_and_thirteenth_held_out.py; the
hundred-and-fifteenth was being written beside it at the same time), from the
guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`),
the real NeMo Gym 0.7.0 (`gym env start`, `gym eval run`, `gym eval profile`) with the users' own resources servers,
Slurm jobs (sbatch and its options, job arrays, partitions, job states), and the user's own shell and
Python tooling, settings, data-preparation scripts and verifiers. The output of every command is
captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own
inputs (data, scripts, settings, verifier code). Each case injects one cause, different in mechanism from those of
the 113 earlier sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and
the case is not written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Slurm
(SLURM_CONF, the fourth single-node cluster), and PYTHONPATH set to this checkout. Run it from a foreground shell. It
makes no Docker containers.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import failed, stop_gym  # noqa: E402
from eighty_eighth_held_out import PLUS_PAIRS, labelled  # noqa: E402
from eighty_sixth_held_out import user_file  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_first_held_out import keys_of  # noqa: E402
from fifty_ninth_held_out import gym_own_server, own_eval_script  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from hundred_and_sixth_held_out import SBATCH_HEAD, profiled, slurm_run, submit_file  # noqa: E402
from hundred_and_twelfth_held_out import own_servers  # noqa: E402
from recipes import GP, Ctx, RecipeError, case, main, replace_verify, rows_of, text_of  # noqa: E402
from seventy_ninth_held_out import run_eval  # noqa: E402
from sixty_fourth_held_out import pipeline_lines  # noqa: E402
from sixty_third_held_out import mean_of  # noqa: E402
from thirtieth_held_out import gym_rows  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_third_held_out import write_jsonl  # noqa: E402

recipes.SERVICES_ENV["SLURM_CONF"] = "/tmp/gym-pipeline-services/slurm-4/slurm.conf"

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()

PARTITION = "debug"


# =====================================================================================================
# data_schema (built-in): the prep keeps the first token of each answer cell, and the sheet groups thousands with spaces
# =====================================================================================================

TOKEN_PREP_PY = '''"""prep.py: answer_sheet.csv -> string_match.jsonl.

Reviewers sometimes add a note after the answer ("42 (checked AK)"): keep the answer's first token only.
"""
import csv
import json

PROMPT = "{question} End your response with 'Final answer: <answer>'."
with open("answer_sheet.csv") as f, open("string_match.jsonl", "w") as out:
    for row in csv.DictReader(f):
        answer = row["answer"].split()[0]
        out.write(json.dumps({"responses_create_params": {"input": [{"role": "user", "type": "message", "content": [
            {"type": "input_text", "text": PROMPT.format(question=row["question"])}]}]},
            "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}) + "\\n")
print("wrote string_match.jsonl")
'''

BIG_PAIRS = PLUS_PAIRS[:6] + [("What is 125 times 100?", "12500"), ("What is 250 times 40?", "10000"),
                              ("What is 1200 plus 1300?", "2500")]


def sheet_cell(answer: str, index: int) -> str:
    cell = f"{int(answer):,}".replace(",", " ")
    return cell + (" (checked AK)" if index % 3 == 1 else "")


@case(
    "data_schema_builtin_prep_keeps_first_token_of_answer_cell_to_drop_reviewer_notes_so_space_grouped_thousands_become_12",
    "data_schema",
    ["prep.py", "split()[0]", "expected_answer", "12 500"],
    "prep.py keeps only the first whitespace-separated token of the sheet's answer cell (row['answer'].split()[0]) "
    "to drop reviewers' notes, but the sheet writes thousands grouped with spaces ('12 500', '10 000', '2 500'), so "
    "those three labels became '12', '10' and '2' and every rollout of those tasks scored 0 although the model "
    "answered 12500, 10000 and 2500; every command exited 0",
)
def data_schema_builtin_prep_keeps_first_token_of_answer_cell_to_drop_reviewer_notes_so_space_grouped_thousands_become_12(
        ctx: Ctx) -> str:
    run = ctx.run
    (run / "answer_sheet.csv").write_text("question,answer\n" + "".join(
        f"\"{q}\",{sheet_cell(a, i)}\n" for i, (q, a) in enumerate(BIG_PAIRS)))
    (run / "prep.py").write_text(TOKEN_PREP_PY)
    _, better = truth_checkpoints(ctx, BIG_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = run_eval(ctx, f"{recipes.PY} prep.py\n" + pipeline_lines(url),
                    "weekly eval: prep the sheet, materialize, collect, profile")
    labels = [row["expected_answer"] for row in rows_of(run / "string_match.jsonl")]
    got = rows_of(run / "rollouts.jsonl")
    cut = labelled(got, "12", "10", "2")
    if code or complete(ctx) != 27 or not {"12", "10", "2"} <= set(labels) or len(cut) != 9 or any(rewards(cut)) \
            or not profiled(ctx) or mean_of([r for r in got if r not in cut]) < 0.3:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {labels}, {len(cut)}, {rewards(cut)}: "
                     f"{log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/answer_sheet.csv (thousands grouped with spaces, some reviewer notes); RUN/prep.py "
            f"(.split()[0]); labels {labels}; RUN/run_eval.sh exit {code}; {complete(ctx)} of 27 rollouts, the 9 of "
            f"the cut labels all 0, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# config (Slurm): the job sets NUM_REPEATS without export, so the Python driver reads its default of 1
# =====================================================================================================

ENV_EVAL_PY = '''"""eval.py: the eval driver; settings come from the environment (NUM_REPEATS, CONCURRENCY).

    python eval.py --model-url URL
"""
import argparse
import os
import subprocess

parser = argparse.ArgumentParser()
parser.add_argument("--model-url", required=True)
args = parser.parse_args()
repeats = int(os.environ.get("NUM_REPEATS", "1"))
concurrency = int(os.environ.get("CONCURRENCY", "4"))
print(f"eval: data=string_match.jsonl repeats={repeats} concurrency={concurrency}", flush=True)
GP = "GP_BIN"
for step in [
    f"{GP} materialize --input string_match.jsonl --num-repeats {repeats} --agent string_match_simple_agent "
    "--output rollouts_materialized_inputs.jsonl",
    f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {args.model_url} "
    f"--env string_match --concurrency {concurrency}",
    f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl",
]:
    subprocess.run(step, shell=True, check=True)
print("eval done", flush=True)
'''


@case(
    "config_slurm_eval_sbatch_sets_num_repeats_as_plain_shell_variable_without_export_so_python_driver_reads_default_one",
    "config",
    ["eval.sbatch", "export", "NUM_REPEATS", "3"],
    "eval.sbatch sets NUM_REPEATS=3 as a plain shell variable without `export`, so it never reaches the environment "
    "of eval.py, which reads os.environ.get('NUM_REPEATS', '1'); the driver ran 1 repeat per task (9 rollouts "
    "instead of 27), too few for the per-task variance the weekly profile is for; the job COMPLETED and every "
    "command exited 0",
)
def config_slurm_eval_sbatch_sets_num_repeats_as_plain_shell_variable_without_export_so_python_driver_reads_default_one(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server.log")
    (run / "eval.py").write_text(ENV_EVAL_PY.replace("GP_BIN", str(GP)))
    user_file(ctx, "eval.sbatch", SBATCH_HEAD + "# weekly eval: 3 repeats per task for the variance profile\n"
              "NUM_REPEATS=3\nCONCURRENCY=4\nPY_BIN eval.py --model-url MODEL_URL\n"
              "echo \"eval finished ($(date +%T))\"\n", TIME_LIMIT="20", PY_BIN=str(recipes.PY), MODEL_URL=url)
    submit_file(ctx)
    code = slurm_run(ctx)
    log = log_of(ctx, "submit.log")
    if code or complete(ctx) != 9 or "repeats=1" not in log or not profiled(ctx) or "JobState=COMPLETED" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.sbatch (NUM_REPEATS=3 without export) submitted by RUN/submit.sh, exit {code}; eval.py "
            f"printed repeats=1; JobState=COMPLETED; {complete(ctx)} rollouts instead of 27.")


# =====================================================================================================
# throughput_resources (Slurm): the shard array keeps the %1 throttle of the GPU template, so shards run one by one
# =====================================================================================================

ARRAY_SBATCH = """#!/bin/bash
#SBATCH --job-name=h114-shards
#SBATCH --output=RUN_DIR/logs/eval_%A_%a.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --array=0-1%1
# (array line from the team's GPU shard template: %1 = one shard at a time, one GPU per user)
echo "shard $SLURM_ARRAY_TASK_ID of job $SLURM_ARRAY_JOB_ID on $(hostname) ($(date +%T))"
cd RUN_DIR
I=$SLURM_ARRAY_TASK_ID
GP_BIN materialize --input shard_$I.jsonl --num-repeats 3 --agent string_match_simple_agent --output inputs_shard_$I.jsonl
GP_BIN collect --inputs inputs_shard_$I.jsonl --output rollouts_shard_$I.jsonl --model-url MODEL_URL --env string_match --concurrency 4
GP_BIN profile --inputs inputs_shard_$I.jsonl --rollouts rollouts_shard_$I.jsonl
echo "shard $I finished ($(date +%T))"
"""

ARRAY_SUBMIT = """#!/bin/bash
# submit.sh: the pre-merge eval step (CI gives it 60 s): both shards as one job array
cd RUN_DIR
BUDGET=60
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted shard array $JOB ($(date +%T))"
for i in $(seq $BUDGET); do
  squeue -h -j $JOB 2>/dev/null | grep -q . || break
  [ $((i % 15)) -eq 0 ] && squeue -j $JOB -o "%i %T %M %r"
  sleep 1
done
if squeue -h -j $JOB 2>/dev/null | grep -q .; then
  squeue -j $JOB -o "%i %T %M %r"
  echo "ERROR: eval not finished within the ${BUDGET}s CI budget: cancelling $JOB"
  scancel $JOB
  sleep 2
  STATUS=1
fi
for f in logs/eval_${JOB}_*.log; do echo "== $f"; cat $f; done
wc -l rollouts_shard_*.jsonl
exit ${STATUS:-0}
"""

SHARD_PAIRS = PLUS_PAIRS + [(f"What is {n} plus 29?", str(n + 29)) for n in (3, 14, 26, 31, 48, 55, 62, 79, 90)]


@case(
    "throughput_slurm_shard_array_keeps_percent_one_throttle_of_gpu_template_so_two_shards_run_one_after_another_past_ci_budget",
    "throughput_resources",
    ["eval.sbatch", "--array=0-1%1", "%1", "JobArrayTaskLimit"],
    "eval.sbatch keeps the array line --array=0-1%1 of the team's GPU shard template, whose %1 lets only one array "
    "task run at a time; the node had CPUs for both one-CPU shards, but shard 1 waited (JobArrayTaskLimit) until "
    "shard 0 had collected its 27 slow rollouts, so the pre-merge step's 60 s budget ran out, the array was "
    "cancelled and shard 1 was left incomplete; the server, data and settings were fine",
)
def throughput_slurm_shard_array_keeps_percent_one_throttle_of_gpu_template_so_two_shards_run_one_after_another_past_ci_budget(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "shard_0.jsonl", [question_row(q, a) for q, a in SHARD_PAIRS[:9]])
    write_jsonl(run / "shard_1.jsonl", [question_row(q, a) for q, a in SHARD_PAIRS[9:]])
    _, better = truth_checkpoints(ctx, SHARD_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 5000", log="logs/model_server.log")
    user_file(ctx, "eval.sbatch", ARRAY_SBATCH, MODEL_URL=url)
    user_file(ctx, "submit.sh", ARRAY_SUBMIT)
    code = slurm_run(ctx, timeout=200)
    log = log_of(ctx, "submit.log")
    first = len(keys_of(rows_of(run / "rollouts_shard_0.jsonl")))
    second = len(keys_of(rows_of(run / "rollouts_shard_1.jsonl")))
    if "JobArrayTaskLimit" not in log or "CI budget" not in log or second >= 27:
        raise failed(ctx, f"exit {code}, {first}, {second}: {log[-2000:]}")
    return (f"RUN/eval.sbatch (--array=0-1%1, collect against {url}, 5 s per answer) submitted by RUN/submit.sh "
            f"(60 s budget), exit {code}; shard 1 pending JobArrayTaskLimit; shard 0 {first} of 27 rollouts, shard 1 "
            f"{second} of 27; array cancelled.")


# =====================================================================================================
# model_serving (built-in): serve.sh binds the policy server to ::1 (template of the IPv6 cluster), eval calls 127.0.0.1
# =====================================================================================================

V6_SERVE_SH = """#!/bin/bash
# serve.sh: start the policy server for the eval (from the serving team's launcher template)
cd RUN_DIR
HOST=::1          # the template's bind address (the inference cluster's nodes are IPv6-only)
PORT=PORT_NUM
nohup GP_BIN serve-policy --host $HOST --port $PORT --ready-file RUN_DIR/logs/policy_ready \\
  --checkpoint ckpts/step_0200 --latency-ms 20 >> logs/model_server.log 2>&1 &
for i in $(seq 30); do [ -s logs/policy_ready ] && break; sleep 1; done
echo "policy server started ($(cat logs/policy_ready 2>/dev/null))"
echo "http://127.0.0.1:$PORT/v1" > model_url.txt
"""


@case(
    "model_serving_builtin_serve_script_binds_policy_server_to_ipv6_loopback_from_template_so_eval_on_127_0_0_1_is_refused",
    "model_serving",
    ["serve.sh", "HOST=::1", "--host", "127.0.0.1"],
    "serve.sh, copied from the serving team's launcher template for the IPv6-only inference cluster, starts the "
    "policy server with --host ::1, so it listens on the IPv6 loopback only, while the eval calls "
    "http://127.0.0.1:PORT/v1; collect could not connect to the model endpoint (Connect call failed) after 3 "
    "attempts and stopped, so no rollout was collected and profile found no rollouts, although the server was up "
    "and the checkpoint, data and eval script were fine",
)
def model_serving_builtin_serve_script_binds_policy_server_to_ipv6_loopback_from_template_so_eval_on_127_0_0_1_is_refused(
        ctx: Ctx) -> str:
    from gym_pipeline.host import free_loopback_port
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    shutil.copytree(better, run / "ckpts" / "step_0200")
    user_file(ctx, "serve.sh", V6_SERVE_SH, PORT_NUM=str(free_loopback_port()))
    try:
        code = run_eval(ctx, "bash serve.sh\nMODEL_URL=$(cat model_url.txt)\necho \"evaluating $MODEL_URL\"\n"
                        + pipeline_lines("$MODEL_URL"),
                        "weekly eval of step_0200: start its server, materialize, collect, profile", timeout=300)
    finally:
        pids = own_servers(ctx, f"{run}/logs/policy_ready")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    answered = [r for r in got if r.get("reward") is not None and not r.get("error")]
    if not (run / "logs" / "policy_ready").exists() or "connect call failed" not in log.lower() or len(answered) >= 27 \
            or not pids:
        raise failed(ctx, f"exit {code}, {len(got)}, {len(answered)}, {pids}: {log[-2000:]}")
    return (f"RUN/serve.sh (--host ::1); RUN/run_eval.sh (MODEL_URL=http://127.0.0.1:PORT/v1) exit {code}; "
            f"collect: Connect call failed; {len(got)} rollout rows, {len(answered)} answered; stopped pids {pids}.")


# =====================================================================================================
# infra (Slurm): the admins cap the partition at one CPU per node for a co-scheduled training run, job pends
# =====================================================================================================


@case(
    "infra_slurm_admins_cap_partition_max_cpus_per_node_at_one_for_a_colocated_service_so_two_cpu_eval_job_pends_partitionconfig",
    "infra",
    ["partition", "MaxCPUsPerNode", "PartitionConfig", "debug"],
    "the cluster admins set MaxCPUsPerNode=1 on the only partition, debug, to keep the node's second CPU for a "
    "co-located service; the eval job asks --cpus-per-task=2, which the partition can no longer grant, so it stayed "
    "PENDING with Reason=PartitionConfig until the CI wait gave up and no rollouts were written, although the job "
    "script, data and model server were fine",
)
def infra_slurm_admins_cap_partition_max_cpus_per_node_at_one_for_a_colocated_service_so_two_cpu_eval_job_pends_partitionconfig(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server.log")
    user_file(ctx, "eval.sbatch", SBATCH_HEAD + "# weekly eval: materialize, collect, profile\nPIPELINE\n"
              "echo \"eval finished ($(date +%T))\"\n", TIME_LIMIT="20", PIPELINE=pipeline_lines(url).rstrip("\n"))
    user_file(ctx, "submit.sh", """#!/bin/bash
# submit.sh: the weekly eval as one Slurm job (the CI step waits up to 90 s for it to start and finish)
cd RUN_DIR
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
timeout 90 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 3; done"
if squeue -h -j $JOB 2>/dev/null | grep -q .; then
  squeue -j $JOB -o "%i %T %M %r"
  scontrol show job $JOB | grep -o 'JobState=[A-Z]* Reason=[^ ]*\\|NumCPUs=[0-9]*\\|Partition=[^ ]*'
  echo "ERROR: eval job $JOB did not finish in time: cancelling"
  scancel $JOB
  exit 1
fi
cat logs/eval_$JOB.log
""")
    made = subprocess.run(["scontrol", "update", f"PartitionName={PARTITION}", "MaxCPUsPerNode=1"], env=ctx.env,
                          capture_output=True, text=True, check=False)
    if made.returncode:
        raise RecipeError(f"could not cap the partition: {made.stdout} {made.stderr}")
    try:
        ctx.note(f"(the admins: scontrol update PartitionName={PARTITION} MaxCPUsPerNode=1, for a co-located service)")
        code = slurm_run(ctx, timeout=150)
        ctx.sh(f"scontrol show partition {PARTITION}", "logs/partition.log", timeout=30)
    finally:
        subprocess.run(["scontrol", "update", f"PartitionName={PARTITION}", "MaxCPUsPerNode=UNLIMITED"], env=ctx.env,
                       capture_output=True, check=False)
    log = log_of(ctx, "submit.log")
    if not code or (run / "rollouts.jsonl").exists() or "PartitionConfig" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"partition {PARTITION} MaxCPUsPerNode=1 (restored afterwards); RUN/eval.sbatch (--cpus-per-task=2) "
            f"submitted by RUN/submit.sh, exit {code}; PENDING Reason=PartitionConfig, cancelled; no rollouts.")


# =====================================================================================================
# cache_resume (built-in): the driver caches materialized inputs keyed on the dataset's byte size
# =====================================================================================================

SIZE_EVAL_PY = '''"""eval.py: materialize (cached), collect, profile.  python eval.py DATA MODEL_URL

Materializing the big sets takes minutes, so the inputs are cached under .cache/, keyed on the dataset's name and size.
"""
import os
import shutil
import subprocess
import sys

data, url = sys.argv[1], sys.argv[2]
GP = "GP_BIN"
key = f"{os.path.basename(data)}-{os.path.getsize(data)}"
cached = os.path.join(".cache", f"materialized_{key}.jsonl")
if os.path.exists(cached):
    print(f"materialized inputs cached: {cached}", flush=True)
    shutil.copy(cached, "rollouts_materialized_inputs.jsonl")
else:
    subprocess.run(f"{GP} materialize --input {data} --num-repeats 3 --agent string_match_simple_agent "
                   "--output rollouts_materialized_inputs.jsonl", shell=True, check=True)
    os.makedirs(".cache", exist_ok=True)
    shutil.copy("rollouts_materialized_inputs.jsonl", cached)
for step in [
    f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {url} "
    "--env string_match --concurrency 4",
    f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl",
]:
    subprocess.run(step, shell=True, check=True)
print("eval done", flush=True)
'''


@case(
    "cache_resume_builtin_driver_caches_materialized_inputs_keyed_on_dataset_byte_size_so_same_length_label_fix_reuses_old_labels",
    "cache_resume",
    ["eval.py", "getsize", ".cache", "materialized"],
    "eval.py caches the materialized inputs under .cache/ keyed on the dataset's name and byte size; the reviewer's "
    "fix of two labels (71+17 from '89' to '88', 85+17 from '103' to '102') left string_match.jsonl the same size, "
    "so the rerun reused the morning's cached inputs with the old wrong labels 89 and 103, and the model's right "
    "answers 88 and 102 to those tasks still scored 0 (only its wrong answers matched); every command exited 0",
)
def cache_resume_builtin_driver_caches_materialized_inputs_keyed_on_dataset_byte_size_so_same_length_label_fix_reuses_old_labels(
        ctx: Ctx) -> str:
    run = ctx.run
    wrong = [(q, {"88": "89", "102": "103"}.get(a, a)) for q, a in PLUS_PAIRS]
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in wrong])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "eval.py").write_text(SIZE_EVAL_PY.replace("GP_BIN", str(GP)))
    body = f"{recipes.PY} eval.py string_match.jsonl {url}\n"
    run_eval(ctx, body, "weekly eval (materialized inputs cached by eval.py)", log="logs/run_eval_morning.log")
    size = (run / "string_match.jsonl").stat().st_size
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    ctx.note("(the reviewer fixed two labels of string_match.jsonl: 89 -> 88 and 103 -> 102; rerun)")
    if (run / "string_match.jsonl").stat().st_size != size:
        raise RecipeError("the label fix changed the dataset's size")
    code = run_eval(ctx, body, "weekly eval (materialized inputs cached by eval.py)")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    stale = labelled(got, "89", "103")
    if code or "materialized inputs cached" not in log or len(stale) != 6 or all(rewards(stale)) \
            or complete(ctx) != 27 or not profiled(ctx):
        raise failed(ctx, f"exit {code}, {len(stale)}, {rewards(stale)}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.py (cache key name + getsize); morning run with labels 89/103; labels fixed to 88/102 "
            f"(same size, {size} bytes); rerun exit {code}: 'materialized inputs cached'; {complete(ctx)} rollouts, "
            f"the 6 of the fixed tasks still labelled 89/103 (rewards {rewards(stale)}), mean {mean_of(got):.2f}.")


# =====================================================================================================
# verifier_runtime (real NeMo Gym): the user's verify drops a trailing full stop with split(".")[0], cutting decimals
# =====================================================================================================

STOP_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        reward = 0.0
        if extracted is not None and body.expected_answer:
            # models often end the answer with a full stop ("12."): drop it (QUIZ-611)
            answer = extracted.strip().split(".")[0]
            reward = float(answer == body.expected_answer.strip())

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""

DEC_PAIRS = PLUS_PAIRS[:5] + [("What is 5 divided by 2?", "2.5"), ("What is 3 divided by 4?", "0.75"),
                              ("What is 0.5 plus 1?", "1.5")]


@case(
    "verifier_runtime_gym_own_verify_drops_trailing_full_stop_with_split_on_dot_so_decimal_answers_lose_their_fraction",
    "verifier_runtime",
    ["app.py", "split(\".\")[0]", "verify", "extracted"],
    "the user's own resources server quiz_stop drops a trailing full stop from the model's answer with "
    "extracted.strip().split(\".\")[0] before comparing it with the label; that also cuts every decimal at its "
    "point, so the right answers 2.5, 0.75 and 1.5 became 2, 0 and 1 and scored 0 on every rollout although the "
    "labels and answers were right; every command exited 0",
    netns=True,
)
def verifier_runtime_gym_own_verify_drops_trailing_full_stop_with_split_on_dot_so_decimal_answers_lose_their_fraction(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in DEC_PAIRS])
    _, better = truth_checkpoints(ctx, DEC_PAIRS)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "quiz_stop", lambda app: replace_verify(app, STOP_VERIFY), better,
        "(the user's quiz_stop server: Gym's string_match that drops a trailing full stop from the answer)")
    script = own_eval_script(ctx, search, overrides, "quiz_stop", comment="weekly eval")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    decimal = labelled(got, "2.5", "0.75", "1.5")
    others = [r for r in got if r not in decimal]
    right = [r for r in decimal if any(f'"extracted_answer": "{a}"' in json.dumps(r) for a in ("2.5", "0.75", "1.5"))]
    if code or len(keys_of(got)) != 24 or len(decimal) != 9 or any(rewards(decimal)) or not right \
            or mean_of(others) < 0.3:
        raise failed(ctx, f"exit {code}, {len(got)}, {len(decimal)}, {rewards(decimal)}, {rewards(others)}: "
                     f"{log_of(ctx, 'run_eval.log')[-2000:]}")
    return (f"RUN/my_gym/resources_servers/quiz_stop/app.py (extracted.strip().split('.')[0]); real `gym env start` "
            f"(loopback-only namespace) with it; RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, `gym eval profile`) "
            f"exit {code}; {len(keys_of(got))} of 24 rollouts; the 9 decimal-answer rollouts all 0 ({len(right)} "
            f"answered right), the others mean {mean_of(others):.2f}.")


# =====================================================================================================
# healthy (built-in): the run script scrapes vLLM's /metrics for the dashboard; the policy server has no such route
# =====================================================================================================

SCRAPE = """# dashboard: scrape the serving engine's queue gauges (vLLM exposes /metrics; optional)
curl -sf --max-time 5 ${MODEL_URL%/v1}/metrics | grep '^vllm:num_requests' \\
  || echo "WARNING: could not scrape vllm:num_requests_* from ${MODEL_URL%/v1}/metrics (HTTP error or no vLLM gauges)"
"""


@case(
    "healthy_builtin_run_script_scrapes_vllm_metrics_route_that_the_policy_server_does_not_serve_so_curl_warns_http_error",
    "healthy",
    [],
    "nothing is wrong: before collecting, run_eval.sh scrapes the serving engine's /metrics route for vLLM's queue "
    "gauges for the team dashboard; the policy server it evaluates does not serve that route, so curl fails and the "
    "script warns 'could not scrape vllm:num_requests_*', but the scrape is only for the dashboard and materialize, "
    "collect and profile completed every rollout",
)
def healthy_builtin_run_script_scrapes_vllm_metrics_route_that_the_policy_server_does_not_serve_so_curl_warns_http_error(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = run_eval(ctx, f"MODEL_URL={url}\n" + SCRAPE + pipeline_lines("$MODEL_URL"),
                    "weekly eval: dashboard scrape, materialize, collect, profile")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 27 or "could not scrape" not in log or not profiled(ctx) or mean_of(got) < 0.3:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (curl {url.removesuffix('/v1')}/metrics, materialize 9 x 3, collect, profile) exit "
            f"{code}; the scrape WARNING; {complete(ctx)} of 27 rollouts, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# healthy (Slurm): the job keeps the GPU template's CPU-count check, which warns on the two-CPU eval allocation
# =====================================================================================================


@case(
    "healthy_slurm_job_keeps_gpu_templates_cpu_count_check_which_warns_two_allocated_cpus_are_below_sixteen",
    "healthy",
    [],
    "nothing is wrong: eval.sbatch keeps the GPU training template's check that warns 'only 2 CPUs allocated, "
    "expected >= 16: tokenization will be slow'; the eval does no tokenization and only waits on the model server, "
    "two CPUs are plenty, and materialize, collect and profile completed every rollout and the job COMPLETED",
)
def healthy_slurm_job_keeps_gpu_templates_cpu_count_check_which_warns_two_allocated_cpus_are_below_sixteen(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server.log")
    user_file(ctx, "eval.sbatch", SBATCH_HEAD + "# (from the team's GPU job template)\n"
              "NCPU=${SLURM_CPUS_PER_TASK:-$(nproc)}\n"
              "if [ \"$NCPU\" -lt 16 ]; then\n"
              "  echo \"WARNING: only $NCPU CPUs allocated, expected >= 16: tokenization will be slow\"\nfi\n"
              "# weekly eval: materialize, collect, profile\nPIPELINE\necho \"eval finished ($(date +%T))\"\n",
              TIME_LIMIT="20", PIPELINE=pipeline_lines(url).rstrip("\n"))
    submit_file(ctx)
    code = slurm_run(ctx)
    log = log_of(ctx, "submit.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 27 or "CPUs allocated" not in log or not profiled(ctx) \
            or "JobState=COMPLETED" not in log or mean_of(got) < 0.3:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.sbatch (CPU-count WARNING, materialize 9 x 3, collect against {url}, profile) submitted by "
            f"RUN/submit.sh, exit {code}; {complete(ctx)} of 27 rollouts, mean reward {mean_of(got):.2f}; "
            f"JobState=COMPLETED.")


# =====================================================================================================
# healthy (built-in): the run script clears stale partial files with a glob that matches nothing on a clean run
# =====================================================================================================


@case(
    "healthy_builtin_run_script_clears_stale_partial_rollout_files_by_glob_that_matches_nothing_so_rm_cannot_remove",
    "healthy",
    [],
    "nothing is wrong: run_eval.sh starts by removing partial rollout files left by interrupted runs with "
    "`rm rollouts*.partial`; on a clean folder the glob matches nothing, so rm prints \"cannot remove "
    "'rollouts*.partial': No such file or directory\", but there was nothing to clean and materialize, collect and "
    "profile completed every rollout",
)
def healthy_builtin_run_script_clears_stale_partial_rollout_files_by_glob_that_matches_nothing_so_rm_cannot_remove(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = run_eval(ctx, "# clear partial files of interrupted runs\nrm rollouts*.partial\n" + pipeline_lines(url),
                    "weekly eval: clean up, materialize, collect, profile")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 27 or "cannot remove" not in log or not profiled(ctx) or mean_of(got) < 0.3:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (rm rollouts*.partial, materialize 9 x 3, collect against {url}, profile) exit {code}; "
            f"rm: cannot remove; {complete(ctx)} of 27 rollouts, mean reward {mean_of(got):.2f}.")


if __name__ == "__main__":
    sys.exit(main("hundred_and_fourteenth_held_out", __file__, __doc__))
