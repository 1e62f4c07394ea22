"""Build the TWENTY-FOURTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/twenty_fourth_held_out.py --out tests/data/diagnosis_corpus/twenty_fourth_held_out [--only CASE ...]

This set was written from the guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder
troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests
or their results. It is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
workspace verifiers, task folders run in Docker sandboxes, Slurm batch jobs, the real NeMo Gym 0.7.0 (`gym env
start` / `gym eval run` / `gym eval profile` inside a loopback-only network namespace, with a user's own resources
server), and the user's own shell scripts, settings files, helper servers and data-preparation scripts. The output of
every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but
the user's own inputs (data, scripts, settings, verifier code). Each case injects one cause, different in mechanism
from those of the twenty-three earlier sets, and each recipe checks that its fault really happened (it raises
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
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import (  # noqa: E402
    agent_args,
    checkpoints,
    failed,
    gym_setup,
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
from twenty_second_held_out import pipeline_lines, question_row, response_text  # noqa: E402
from twenty_third_held_out import final_answer, prompt_of, taskset_script, write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def gym_eval_line(overrides: str, data: str, output: str, repeats, concurrency, agent: str = "string_match_simple_agent"
                  ) -> str:
    return (f"{GYM} eval run --no-serve --agent {agent} --input {data} --output {output} --num-repeats {repeats} "
            f"--concurrency {concurrency} ++route_failures_to_sidecar=true {overrides}")


def gym_profile_line(folder: str) -> str:
    return f"{GYM} eval profile --inputs {folder}/rollouts_materialized_inputs.jsonl --rollouts {folder}/rollouts.jsonl"


def keep_server_code(ctx: Ctx, search: Path, name: str) -> None:
    """The user's own resources server code, kept in RUN/my_gym (the run folder a user would hand over)."""
    server = search / "resources_servers" / name
    kept = ctx.run / "my_gym" / "resources_servers" / name
    for rel in ("app.py", f"configs/{name}.yaml"):
        (kept / rel).parent.mkdir(parents=True, exist_ok=True)
        (kept / rel).write_text((server / rel).read_text())
    ctx.note(f"(the user's server code is kept in RUN/my_gym/resources_servers/{name}: app.py, configs)")


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_builtin_run_script_ends_with_grep_count_that_finds_nothing",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh ends with `grep -c Traceback logs/model_server.log` to count server "
    "errors; there were none, grep printed 0 and exited 1, so the script (and the terminal) report exit status 1; "
    "materialize, collect and profile had all completed every rollout",
)
def healthy_builtin_run_script_ends_with_grep_count_that_finds_nothing(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 3)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval; ends with a count of the server's tracebacks\n"
                      f"cd {run}\n" + "\n".join(pipeline_lines("string_match.jsonl", 3, url, 4)) + "\n"
                      "echo \"== server tracebacks\"\ngrep -c Traceback logs/model_server.log\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code != 1 or got != 24 or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (materialize 8 tasks x 3, collect, profile, then `grep -c` finding nothing) exit {code}; "
            f"{got} rollouts, mean reward {mean(rewards(rows_of(run / 'rollouts.jsonl'))):.2f}.")


@case(
    "healthy_gym_run_script_kills_pid_of_last_weeks_server",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh starts with `kill $(cat old_server.pid)` to stop the server of last "
    "week's eval, which was long gone ('No such process'); the real NeMo Gym eval against the current server then "
    "collected, verified and profiled every rollout",
    netns=True,
)
def healthy_gym_run_script_kills_pid_of_last_weeks_server(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 14, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    pid = 31337
    while Path(f"/proc/{pid}").exists():
        pid += 1
    (run / "old_server.pid").write_text(f"{pid}\n")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# eval of the current checkpoint (stops last week's server first)\n"
                      f"cd {run}\necho \"== stopping last week's server\"\nkill $(cat old_server.pid)\n"
                      f"{gym_eval_line(overrides, 'tasks.jsonl', 'results/rollouts.jsonl', 3, 4)}\n"
                      f"{gym_profile_line('results')}\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if code or got != 18 or not in_log(ctx, "No such process", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (kill of a pid that no longer exists, "
            f"`gym eval run --no-serve` 6 tasks x 3, `gym eval profile`) exit {code}, {got} rollouts.")


@case(
    "healthy_taskfolder_preflight_stops_sandbox_containers_already_gone",
    "healthy",
    [],
    "nothing is wrong: the user's run_tasks.sh first stops and removes two sandbox containers by name, left by an "
    "interrupted run last week and since cleaned up by the engine ('No such container'); the taskset's episodes "
    "(count-error-lines, json-version) then all ran in fresh sandboxes, were verified and profiled",
)
def healthy_taskfolder_preflight_stops_sandbox_containers_already_gone(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["count-error-lines", "json-version"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, [
        "echo '== removing the sandboxes of the interrupted run'",
        "docker stop nightly-sandbox-count-error-lines-0 nightly-sandbox-json-version-1",
        "docker rm nightly-sandbox-count-error-lines-0 nightly-sandbox-json-version-1",
    ])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    if code or len(unique_keys(run / "rollouts.jsonl")) != 4 or not in_log(ctx, "No such container",
                                                                           "logs/run_tasks.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/run_tasks.sh (docker stop/rm of containers that no longer exist, then `gym-pipeline stage` "
            f"materialize, collect, profile of RUN/tasks x 2) exit {code}; rewards {rewards(got)}.")


HEALTHY_SBATCH = """#!/bin/bash
#SBATCH --job-name=nightly-eval
#SBATCH --output=RUN_DIR/logs/collect_%j.log
#SBATCH --time=10
# the team's job template (written for the GPU partition, which has environment modules)
module purge
module load cuda/12.4 python/3.11
cd RUN_DIR
echo "nightly eval on $(hostname)"
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 4
"""

HEALTHY_SUBMIT = """#!/bin/bash
# nightly: submit tonight's job, wait, profile
cd RUN_DIR
JOB=$(sbatch --parsable nightly.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "healthy_slurm_job_template_module_commands_missing_on_cpu_node",
    "healthy",
    [],
    "nothing is wrong: the user's batch script comes from the team's GPU-partition template and starts with `module "
    "purge` and `module load cuda/12.4 python/3.11`; this CPU node has no environment modules, so the job log opens "
    "with 'module: command not found', but the job uses the project's own virtual environment by its full path, "
    "materialized and collected every rollout, and the profile was made",
)
def healthy_slurm_job_template_module_commands_missing_on_cpu_node(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 22)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "nightly.sbatch").write_text(HEALTHY_SBATCH.replace("RUN_DIR", str(run)).replace("GP_BIN", str(GP))
                                        .replace("MODEL_URL", url))
    (run / "submit.sh").write_text(HEALTHY_SUBMIT.replace("RUN_DIR", str(run)).replace("GP_BIN", str(GP)))
    code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    job_logs = "".join(text_of(p) for p in (run / "logs").glob("collect_*.log"))
    if code or got != 24 or "module: command not found" not in job_logs:
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/submit.sh (sbatch of RUN/nightly.sbatch: module commands the node lacks, then materialize 8 tasks "
            f"x 3 and collect; then profile) exit {code}; {got} rollouts.")


# =====================================================================================================
# config
# =====================================================================================================

SPLIT_SCRIPT = """#!/bin/bash
# usage: run_eval.sh SPLIT      (dev or test)
cd RUN_DIR
SPLIT=$1
case "$SPLIT" in
  test) DATA=splits/test.jsonl ;;
  *)    DATA=splits/dev.jsonl ;;   # dev is the default
esac
echo "evaluating split $SPLIT: $DATA"
"""


@case(
    "config_builtin_split_argument_capitalized_falls_to_dev_default",
    "config",
    ["release_eval.sh", "Test"],
    "the user's release_eval.sh calls `run_eval.sh Test`, but run_eval.sh's `case \"$SPLIT\"` matches only the "
    "lowercase `test` and sends everything else to the dev split by default: the release numbers were computed on "
    "the 4 dev tasks instead of the 10 test tasks (everything exits 0)",
)
def config_builtin_split_argument_capitalized_falls_to_dev_default(ctx: Ctx) -> str:
    run = ctx.run
    source = ctx.dataset("string_match", 14, start=30, name="all.jsonl")
    better = checkpoints(ctx, "string_match", source)[1]
    lines = source.read_text().splitlines(keepends=True)
    (run / "splits").mkdir()
    (run / "splits" / "dev.jsonl").write_text("".join(lines[:4]))
    (run / "splits" / "test.jsonl").write_text("".join(lines[4:]))
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "run_eval.sh").write_text(SPLIT_SCRIPT.replace("RUN_DIR", str(run))
                                     + "\n".join(pipeline_lines("$DATA", 3, url, 4)) + "\n")
    (run / "release_eval.sh").write_text("#!/bin/bash\n# final numbers for the release notes: the held-out test "
                                         f"split\ncd {run}\necho \"release_eval.sh: evaluating the test split\"\n"
                                         "bash run_eval.sh Test\n")
    code = ctx.sh(f"bash {run}/release_eval.sh", "logs/release_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    if code or len(got) != 12 or not in_log(ctx, "splits/dev.jsonl", "logs/release_eval.log"):
        raise failed(ctx, f"exit {code}, {len(got)}")
    return (f"RUN/release_eval.sh runs `run_eval.sh Test`; the case statement fell to its dev default; exit {code}, "
            f"{len(got)} rollouts (4 dev tasks x 3) instead of 30, mean reward {mean(rewards(got)):.2f}.")


@case(
    "config_gym_splits_array_expanded_without_index_evaluates_first_split_only",
    "config",
    ["SPLITS", "run_eval.sh"],
    "the user's run_eval.sh declares `SPLITS=(dev test)` and loops `for split in $SPLITS`; a bash array named "
    "without [@] expands to its first element, so only the dev split was evaluated and profiled and the test split "
    "was never run (everything exits 0, there is simply no results/test)",
    netns=True,
)
def config_gym_splits_array_expanded_without_index_evaluates_first_split_only(ctx: Ctx) -> str:
    run = ctx.run
    source = ctx.dataset("string_match", 10, start=40, name="all.jsonl")
    better = checkpoints(ctx, "string_match", source)[1]
    lines = source.read_text().splitlines(keepends=True)
    (run / "splits").mkdir()
    (run / "splits" / "dev.jsonl").write_text("".join(lines[:4]))
    (run / "splits" / "test.jsonl").write_text("".join(lines[4:]))
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# eval of every split\n"
                      f"cd {run}\nSPLITS=(dev test)\nfor split in $SPLITS; do\n  echo \"== split $split\"\n"
                      f"  {gym_eval_line(overrides, 'splits/$split.jsonl', 'results/$split/rollouts.jsonl', 3, 4)}\n"
                      f"  {gym_profile_line('results/$split')}\ndone\necho \"run_eval.sh: all splits done\"\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "dev" / "rollouts.jsonl"))
    if code or got != 12 or (run / "results" / "test").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh loops over $SPLITS (dev only); exit "
            f"{code}; results/dev has {got} rollouts, results/test was never made.")


EXPORT_NONE_SBATCH = """#!/bin/bash
#SBATCH --job-name=eval-collect
#SBATCH --output=RUN_DIR/logs/collect_%j.log
#SBATCH --time=10
#SBATCH --export=NONE
# --export=NONE: a clean environment in the job, so runs are reproducible
cd RUN_DIR
echo "collecting against $MODEL_URL on $(hostname)"
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $MODEL_URL \\
  --env string_match --concurrency 4
"""

EXPORT_SUBMIT = """#!/bin/bash
# materialize here, collect in a batch job, profile here
cd RUN_DIR
export MODEL_URL=URL_HERE
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
JOB=$(sbatch --parsable collect.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "config_slurm_export_none_drops_model_url_exported_at_submit",
    "config",
    ["--export=NONE", "MODEL_URL"],
    "the user added `#SBATCH --export=NONE` to collect.sbatch for clean, reproducible jobs, but the job script reads "
    "the model server's address from MODEL_URL, which submit.sh exports before sbatch: with --export=NONE the job "
    "does not get it, `--model-url` was given nothing, the collect step failed at once and no rollout was written",
)
def config_slurm_export_none_drops_model_url_exported_at_submit(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 60)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "collect.sbatch").write_text(EXPORT_NONE_SBATCH.replace("RUN_DIR", str(run)).replace("GP_BIN", str(GP)))
    (run / "submit.sh").write_text(EXPORT_SUBMIT.replace("RUN_DIR", str(run)).replace("GP_BIN", str(GP))
                                   .replace("URL_HERE", url))
    code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    job_logs = "".join(text_of(p) for p in (run / "logs").glob("collect_*.log"))
    if got or "collecting against  on" not in job_logs:
        raise failed(ctx, f"exit {code}, {got}: {job_logs[-500:]}")
    return (f"RUN/submit.sh (export MODEL_URL, materialize 8 x 3, sbatch of RUN/collect.sbatch with --export=NONE, "
            f"profile) exit {code}; the job saw an empty MODEL_URL; {got} rollouts.")


GETOPTS_SCRIPT = """#!/bin/bash
# usage: run_eval.sh [-r REPEATS] [-c CONCURRENCY] [DATA]
cd RUN_DIR
REPEATS=1
CONCURRENCY=2
while getopts "rc:" opt; do
  case $opt in
    r) REPEATS=$OPTARG ;;
    c) CONCURRENCY=$OPTARG ;;
    *) echo "usage: run_eval.sh [-r REPEATS] [-c CONCURRENCY] [DATA]"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
DATA=${1:-string_match.jsonl}
echo "eval of $DATA: $REPEATS repeat(s), concurrency $CONCURRENCY"
"""


@case(
    "config_builtin_getopts_repeats_option_declared_without_argument_colon",
    "config",
    ["getopts", "run_eval.sh"],
    "the user's run_eval.sh parses its options with `getopts \"rc:\"`: -r lacks the colon that says it takes a "
    "value, so `run_eval.sh -r 4 -c 4` set REPEATS to an empty OPTARG and stopped parsing at the '4', which became "
    "the DATA argument; materialize was then called with an empty --num-repeats and a data file named 4, and "
    "nothing was collected",
)
def config_builtin_getopts_repeats_option_declared_without_argument_colon(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 26)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "run_eval.sh").write_text(GETOPTS_SCRIPT.replace("RUN_DIR", str(run))
                                     + "\n".join(pipeline_lines("$DATA", "$REPEATS", url, "$CONCURRENCY")) + "\n")
    code = ctx.sh(f"cd {run} && bash run_eval.sh -r 4 -c 4 string_match.jsonl", "logs/run_eval.log", timeout=300)
    got = len(rows_of(run / "rollouts.jsonl"))
    if not code or got or not in_log(ctx, "eval of 4:", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"`bash RUN/run_eval.sh -r 4 -c 4 string_match.jsonl` (getopts \"rc:\") exit {code}; DATA became '4', "
            f"REPEATS empty; {got} rollouts.")


# =====================================================================================================
# data_schema
# =====================================================================================================

CODES = [("What is James Bond's agent number?", "007"),
         ("What is the ISO 3166-1 numeric code of Afghanistan?", "004"),
         ("Which HTTP status code means 'Not Found'?", "404"),
         ("What is the ISO 3166-1 numeric code of Albania?", "008"),
         ("What is the octal file mode that gives only the owner read and write permission?", "0600"),
         ("Which TCP port does SSH listen on by default?", "22"),
         ("What is the ISO 3166-1 numeric code of Germany?", "276"),
         ("What is the ZIP code of the IRS in Holtsville, New York?", "00501")]

PREP_CODES = '''"""codes.csv (the reviewed sheet) -> codes.jsonl, the eval rows"""
import json
import sys
import time

import pandas as pd

frame = pd.read_csv(sys.argv[1])
with open(sys.argv[2], "w") as out:
    for record in frame.itertuples():
        text = f"{record.question} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": str(record.answer), "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
print(f"wrote {len(frame)} rows to {sys.argv[2]}")
'''


@case(
    "data_schema_builtin_pandas_read_csv_drops_leading_zeros_of_code_answers",
    "data_schema",
    ["prep_data.py", "read_csv"],
    "the user's prep_data.py reads codes.csv with pandas' read_csv, which infers the answer column as integers: "
    "labels such as 007, 004, 0600 and 00501 became 7, 4, 600 and 501 in codes.jsonl, so the model's correct "
    "answers to those tasks never match expected_answer and score 0 (everything exits 0)",
)
def data_schema_builtin_pandas_read_csv_drops_leading_zeros_of_code_answers(ctx: Ctx) -> str:
    run = ctx.run
    truth = write_jsonl(ctx.work / "reviewed.jsonl", [question_row(q, a) for q, a in CODES])
    better = checkpoints(ctx, "string_match", truth)[1]
    with open(run / "codes.csv", "w", newline="") as sheet:
        writer = csv.writer(sheet)
        writer.writerow(["question", "answer"])
        writer.writerows(CODES)
    (run / "prep_data.py").write_text(PREP_CODES)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# eval of the codes set\n"
                      f"cd {run}\n{sys.executable} prep_data.py codes.csv codes.jsonl\n"
                      + "\n".join(pipeline_lines("codes.jsonl", 3, url, 4)) + "\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    labels = [row["expected_answer"] for row in rows_of(run / "codes.jsonl")]
    cut = [row for row in got if str(row.get("expected_answer")) in ("7", "4", "8", "600", "501")]
    if code or len(got) != 24 or "7" not in labels or not cut or any(rewards(cut)):
        raise failed(ctx, f"exit {code}, {len(got)}, {labels}, {rewards(cut)}")
    return (f"RUN/codes.csv -> RUN/prep_data.py (pandas read_csv) -> RUN/codes.jsonl, labels {labels}; "
            f"RUN/run_eval.sh (materialize 8 x 3, collect, profile) exit {code}; {len(cut)} rollouts of the labels "
            f"that lost their leading zeros, all 0; mean reward {mean(rewards(got)):.2f}.")


CONVERT_BY_POSITION = '''"""export.csv (the annotation tool's export: id, question, answer) -> tasks.jsonl"""
import csv
import json
import sys
import time

with open(sys.argv[1], newline="") as source, open(sys.argv[2], "w") as out:
    reader = csv.reader(source)
    next(reader)  # header
    for record in reader:
        question, answer = record[1], record[2]
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": question}]}]},
               "expected_answer": answer, "extraction_mode": record[-1], "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
print(f"convert.py: {sys.argv[1]} -> {sys.argv[2]}")
'''


@case(
    "data_schema_gym_convert_script_reads_label_by_position_after_export_gained_column",
    "data_schema",
    ["convert.py", "category"],
    "the annotation tool's export gained a `category` column between question and answer; the user's convert.py "
    "still takes the label as `record[2]`, so every expected_answer in tasks.jsonl is the task's category "
    "('science', 'geography', ...) instead of its answer, and the real NeMo Gym eval scored every rollout 0 "
    "(everything exits 0)",
    netns=True,
)
def data_schema_gym_convert_script_reads_label_by_position_after_export_gained_column(ctx: Ctx) -> str:
    run = ctx.run
    source = ctx.dataset("string_match", 6, start=66, name="source.jsonl")
    better = checkpoints(ctx, "string_match", source)[1]
    categories = ["science", "geography", "history", "arithmetic", "literature", "general"]
    with open(run / "export.csv", "w", newline="") as sheet:
        writer = csv.writer(sheet)
        writer.writerow(["id", "question", "category", "answer", "extraction_mode"])
        for index, row in enumerate(rows_of(source)):
            writer.writerow([2210 + index, prompt_of(row), categories[index % len(categories)], row["expected_answer"],
                             row["extraction_mode"]])
    (run / "convert.py").write_text(CONVERT_BY_POSITION)
    code = ctx.sh(f"cd {run} && python3 convert.py export.csv tasks.jsonl", "logs/convert.log")
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    ran = ctx.sh(f"cd {run} && {gym_eval_line(overrides, 'tasks.jsonl', 'results/rollouts.jsonl', 3, 4)}",
                 "eval_run.log", timeout=400)
    prof = ctx.sh(f"cd {run} && {gym_profile_line('results')}", "eval_profile.log", timeout=300)
    stop_gym(ctx, env_start, policy)
    got = rows_of(run / "results" / "rollouts.jsonl")
    if code or ran or prof or len(got) != 18 or any(rewards(got)):
        raise failed(ctx, f"exit {code}/{ran}/{prof}, {len(got)}, {rewards(got)}")
    return (f"RUN/export.csv (id, question, category, answer, ...) -> RUN/convert.py (label = record[2]) -> "
            f"RUN/tasks.jsonl; real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (6 x 3) exit "
            f"{ran}, profile exit {prof}; {len(got)} rollouts, all reward 0.")


REFRESH_LOGS = """#!/bin/bash
# refresh the sample log of count-error-lines with today's (dated, like the log archive names it)
cd RUN_DIR/tasks/count-error-lines/environment
cat > server-2026-12-01.log <<'EOF'
INFO start
ERROR disk full
INFO retry
ERROR disk full
WARN slow
ERROR timeout
INFO done
EOF
rm -v server.log
ls -l
"""


@case(
    "data_schema_taskfolder_sample_log_renamed_by_refresh_script_dockerfile_copies_old_name",
    "data_schema",
    ["Dockerfile", "server.log"],
    "the user's refresh_task_data.sh replaced count-error-lines' environment/server.log with a dated copy "
    "(server-2026-12-01.log), but the task's Dockerfile still does `COPY server.log /app/server.log`: the task's "
    "image cannot be built from its folder ('COPY failed: ... server.log: file does not exist'), the task could not "
    "be loaded and the collection of the taskset stopped before any episode ran, so nothing was collected or profiled",
)
def data_schema_taskfolder_sample_log_renamed_by_refresh_script_dockerfile_copies_old_name(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["count-error-lines", "json-version"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    (run / "refresh_task_data.sh").write_text(REFRESH_LOGS.replace("RUN_DIR", str(run)))
    refreshed = ctx.sh(f"bash {run}/refresh_task_data.sh", "logs/refresh_task_data.log")
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== nightly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    counted = [row for row in got if "count-error-lines" in json.dumps(row) and float(row.get("reward") or 0) == 1]
    if refreshed or counted or len(unique_keys(run / "rollouts.jsonl")) >= 4:
        raise failed(ctx, f"refresh {refreshed}, exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/refresh_task_data.sh renamed count-error-lines' environment/server.log; RUN/run_tasks.sh "
            f"(`gym-pipeline stage` materialize, collect, profile, 2 tasks x 2) exit {code}; {len(got)} rollouts, "
            f"rewards {rewards(got)}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

UNBOUND_LOWER_VERIFIER = '''
"""Exact match on the final answer, ignoring case."""


def _final_answer(text):
    low = text.lower()
    if "final answer:" in low:
        return text[low.rindex("final answer:") + len("final answer:"):].strip().rstrip(".")
    if "\\\\boxed{" in text:
        return text[text.rindex("\\\\boxed{") + 7:].split("}")[0].strip()
    return text.strip().splitlines()[-1] if text.strip() else ""


def score(row, response_text):
    answer = _final_answer(response_text).strip().lower()
    label = str(row["expected_answer"]).strip().lower
    return 1.0 if answer == label else 0.0
'''


@case(
    "verifier_runtime_stage_workspace_verifier_compares_with_unbound_lower_method",
    "verifier_runtime",
    ["my_verifier", "lower"],
    "the user's workspace verifier (verifiers/my_verifier.py) builds the label as `str(...).strip().lower` without "
    "the call parentheses, so it compares the answer string with a bound method: the comparison is never true and "
    "every rollout scores 0, right answers included (everything exits 0)",
)
def verifier_runtime_stage_workspace_verifier_compares_with_unbound_lower_method(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=10, folder=run, name="exact_answer.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    sweep = workspace_sweep(ctx, "exact_answer", data, better, {"verifier": "my_verifier:score"},
                            UNBOUND_LOWER_VERIFIER, num_repeats=3, concurrency=4)
    codes = [stage(ctx, sweep, key, better, "exact_answer", *(served(url) if key == "collect" else ()))
             for key in ("materialize", "collect", "profile")]
    got = rows_of(run / "rollouts.jsonl")
    labels = {row["_ng_task_index"]: str(row.get("expected_answer", "")).lower()
              for row in rows_of(run / "rollouts_materialized_inputs.jsonl")}
    right = sum(final_answer(response_text(row)).lower() == labels.get(row["_ng_task_index"]) for row in got)
    if any(codes) or len(got) != 24 or any(rewards(got)) or right < 6:
        raise failed(ctx, f"codes {codes}, {len(got)}, {rewards(got)}, {right}")
    return (f"RUN/verifiers/my_verifier.py compares with `.lower` (not called); `gym-pipeline stage` materialize, "
            f"collect, profile (8 tasks x 3, step_0200) exit {codes}; {right} rollouts with the right final answer, "
            f"every reward 0.")


BROAD_EXCEPT_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        reward = 0.0
        try:
            # lenient: ignore punctuation the model puts around its answer
            if extracted is not None and body.expected_answer:
                reward = _answer_match(extracted.strip(" .!'\\""), body.expected_answer, body.case_sensitive)
        except Exception:
            reward = 0.0  # an answer we cannot compare is simply wrong

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""


@case(
    "verifier_runtime_gym_verify_broad_except_hides_misspelled_helper",
    "verifier_runtime",
    ["except Exception", "_answer_match"],
    "the user's lenient_match resources server calls `_answer_match(...)` (the helper is `_answers_match`) inside "
    "`try: ... except Exception: reward = 0.0`; the NameError of every call is swallowed, no error is logged and "
    "every rollout scores 0 although the model answered correctly (everything exits 0)",
    netns=True,
)
def verifier_runtime_gym_verify_broad_except_hides_misspelled_helper(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 48, "--latency-ms 30")
    search = own_gym_server(ctx, "lenient_match", BROAD_EXCEPT_VERIFY)
    keep_server_code(ctx, search, "lenient_match")
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='lenient_match')} "
                               f"{overrides}")
    ran = ctx.sh(f"cd {run} && {GYM} eval run --no-serve "
                 f"{agent_args(data, run / 'results' / 'rollouts.jsonl', 3, 4, 'lenient_match_simple_agent')} "
                 f"++route_failures_to_sidecar=true {overrides}", "eval_run.log", timeout=400)
    prof = ctx.sh(f"cd {run} && {gym_profile_line('results')}", "eval_profile.log", timeout=300)
    stop_gym(ctx, env_start, policy)
    got = rows_of(run / "results" / "rollouts.jsonl")
    if ran or prof or len(got) != 18 or any(rewards(got)):
        raise failed(ctx, f"exit {ran}/{prof}, {len(got)}, {rewards(got)}")
    return (f"A user's resources server lenient_match (misspelled helper inside `except Exception`); real NeMo Gym "
            f"0.7.0 (loopback-only namespace) `gym eval run --no-serve` (6 tasks x 3) exit {ran}, profile exit {prof}; "
            f"{len(got)} rollouts, every reward 0.")


EXIT_STATUS_TEST = """#!/bin/bash
# Writes the reward to /logs/verifier/reward.txt (refactored: one check function per task)
cd /app
check() {
  test "$(tr -d "[:space:]" < /app/count.txt 2>/dev/null)" = "3"
}
check
echo $? > /logs/verifier/reward.txt
cat /logs/verifier/reward.txt
"""


@case(
    "verifier_runtime_taskfolder_test_sh_writes_shell_exit_status_as_reward",
    "verifier_runtime",
    ["test.sh", "echo $?"],
    "count-error-lines' tests/test.sh was refactored into a check function followed by `echo $? > "
    "/logs/verifier/reward.txt`: the shell's exit status is 0 on success and 1 on failure, the opposite of a reward, "
    "so every solved episode of the task scores 0 (and an unsolved one would score 1); every stage exits 0",
)
def verifier_runtime_taskfolder_test_sh_writes_shell_exit_status_as_reward(ctx: Ctx) -> str:
    run = ctx.run

    def refactor(tasks: Path) -> None:
        (tasks / "count-error-lines" / "tests" / "test.sh").write_text(EXIT_STATUS_TEST)

    tasks = user_taskset(ctx, ["count-error-lines", "json-version"], refactor)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== nightly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    counted = [float(r.get("reward") or 0) for r in got if "count-error-lines" in json.dumps(r)]
    if code or len(got) != 4 or not counted or any(counted):
        raise failed(ctx, f"exit {code}, {len(got)}, {counted}")
    return (f"RUN/tasks/count-error-lines/tests/test.sh writes `echo $?` as the reward; RUN/run_tasks.sh "
            f"(`gym-pipeline stage` materialize, collect, profile, 2 tasks x 2) exit {code}; rewards {rewards(got)}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

DONE_CHECK_SCRIPT = """#!/bin/bash
# weekly eval; safe to run again after an interruption (skips what is already done)
cd RUN_DIR
TASKS=$(wc -l < string_match.jsonl)
[ -f rollouts_materialized_inputs.jsonl ] || GP_BIN materialize --input string_match.jsonl --num-repeats 3 \\
  --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
if [ -f rollouts.jsonl ] && [ $(wc -l < rollouts.jsonl) -ge $TASKS ]; then
  echo "run_eval.sh: rollouts.jsonl complete ($(wc -l < rollouts.jsonl) lines for $TASKS tasks), skipping the collection"
else
  GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $(cat model_url.txt) \\
    --env string_match --concurrency 1
fi
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "cache_resume_builtin_done_check_compares_rollout_lines_with_task_count",
    "cache_resume",
    ["run_eval.sh", "TASKS"],
    "the user's run_eval.sh skips the collection when rollouts.jsonl has at least as many lines as there are tasks "
    "(TASKS), forgetting the 3 repeats per task; the first run was killed part way by a preemption (about half of the 30 rollouts done), "
    "and the rerun judged that partial file complete, skipped the collection and went straight to the profile, "
    "which failed on the missing rollouts",
)
def cache_resume_builtin_done_check_compares_rollout_lines_with_task_count(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 10, 52)
    slow, slow_process = ctx.policy(better, "--latency-ms 900", log="logs/model_server_first.log")
    (run / "model_url.txt").write_text(slow + "\n")
    (run / "run_eval.sh").write_text(DONE_CHECK_SCRIPT.replace("RUN_DIR", str(run)).replace("GP_BIN", str(GP)))
    first = ctx.bg(f"bash {run}/run_eval.sh", "logs/run_eval_first.log")
    time.sleep(14)
    ctx.note("(the first run is preempted part way: kill -9 of its process group)")
    ctx.stop(first, signal.SIGKILL)
    partial = len(unique_keys(run / "rollouts.jsonl"))
    ctx.stop(slow_process)
    fast, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server.log")
    (run / "model_url.txt").write_text(fast + "\n")
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=300)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if not 10 <= partial < 30 or got != partial or not in_log(ctx, "skipping the collection", "logs/run_eval.log"):
        raise failed(ctx, f"partial {partial}, exit {code}, {got}")
    return (f"RUN/run_eval.sh (skip the collection when rollouts.jsonl has >= TASKS lines); first run (server at "
            f"0.9 s, concurrency 1) killed at {partial} of 30 rollouts; rerun against a fast server exit "
            f"{code}: collection skipped, {got} of 30 rollouts.")


RETRY_SCRIPT = """#!/bin/bash
# weekly eval on the preemptible queue: the slot is taken back after 15 s, so the collection is retried
cd RUN_DIR
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
for attempt in 1 2 3; do
  echo "== run_eval.sh: collect attempt $attempt"
  timeout 15 GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl \\
    --model-url URL_HERE --env string_match --concurrency 1 && break
  echo "attempt $attempt did not finish: $(wc -l < rollouts.jsonl) rollouts so far, retrying"
done
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "cache_resume_builtin_retry_loop_restarts_collect_from_scratch_each_attempt",
    "cache_resume",
    ["run_eval.sh", "attempt"],
    "the user's run_eval.sh retries the collection up to 3 times when the preemptible slot (15 s) ends it, but "
    "each attempt runs `gym-pipeline collect` without --resume, which starts a fresh rollouts.jsonl and throws away "
    "what the earlier attempt collected: three attempts would have finished the 30 rollouts together, but every one "
    "started over and the last left a partial file, so the profile failed on the missing rollouts",
)
def cache_resume_builtin_retry_loop_restarts_collect_from_scratch_each_attempt(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 10, 76)
    url, _ = ctx.policy(better, "--latency-ms 900")
    (run / "run_eval.sh").write_text(RETRY_SCRIPT.replace("RUN_DIR", str(run)).replace("GP_BIN", str(GP))
                                     .replace("URL_HERE", url))
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=300)
    got = len(unique_keys(run / "rollouts.jsonl"))
    attempts = text_of(run / "logs" / "run_eval.log").count("did not finish")
    if got >= 30 or attempts != 3 or not 5 <= got:
        raise failed(ctx, f"exit {code}, {got}, {attempts} attempts")
    return (f"RUN/run_eval.sh (materialize 10 x 3, then 3 attempts of `timeout 15 gym-pipeline collect` without "
            f"--resume, server at 0.9 s, concurrency 1, then profile) exit {code}; {got} of 30 rollouts after "
            f"{attempts} attempts.")


# =====================================================================================================
# model_serving
# =====================================================================================================

MOCK_POLICY = '''"""A stand-in for the model server in CI: answers every chat completion with a fixed text."""
import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ANSWER = "I am the CI mock. Final answer: 42"


class Mock(BaseHTTPRequestHandler):
    def _send(self, body):
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self._send({"object": "list", "data": [{"id": "sim-policy", "object": "model", "owned_by": "ci"}]})

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self._send({"id": "chatcmpl-mock", "object": "chat.completion", "created": 0, "model": "sim-policy",
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": ANSWER}}],
                    "usage": {"prompt_tokens": 24, "completion_tokens": 9, "total_tokens": 33}})


if __name__ == "__main__":
    port = int(sys.argv[1])
    print(f"CI mock policy on 127.0.0.1:{port}", flush=True)
    ThreadingHTTPServer(("127.0.0.1", port), Mock).serve_forever()
'''


@case(
    "model_serving_builtin_model_url_points_at_ci_mock_policy",
    "model_serving",
    ["eval.env", "mock_policy"],
    "the user's eval.env was copied from the CI setup and its MODEL_URL names the port of mock_policy.py, the CI "
    "stand-in that answers every request with 'Final answer: 42' and was still running; the eval never reached the "
    "real model server (its log shows no request), and every rollout scored 0 (everything exits 0)",
)
def model_serving_builtin_model_url_points_at_ci_mock_policy(ctx: Ctx) -> str:
    from gym_pipeline.host import free_loopback_port

    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 0)
    url, _ = ctx.policy(better, "--latency-ms 20")
    port = free_loopback_port()
    (run / "mock_policy.py").write_text(MOCK_POLICY)
    ctx.bg(f"cd {run} && python3 mock_policy.py {port}", "logs/mock_policy.log")
    wait_for(lambda: "CI mock policy" in text_of(run / "logs" / "mock_policy.log"), 20, "the mock")
    (run / "eval.env").write_text(f"# eval settings (from the CI config)\nMODEL_URL=http://127.0.0.1:{port}/v1\n"
                                  "REPEATS=3\nCONCURRENCY=4\n")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval of the current checkpoint\n"
                      f"cd {run}\nsource eval.env\necho \"model server: $MODEL_URL\"\n"
                      + "\n".join(pipeline_lines("string_match.jsonl", "$REPEATS", "$MODEL_URL", "$CONCURRENCY"))
                      + "\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    if code or len(got) != 24 or any(rewards(got)) or "chat/completions" in text_of(run / "logs" / "model_server.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"the simulated policy at {url} (step_0200) and RUN/mock_policy.py on port {port}; RUN/eval.env's "
            f"MODEL_URL names the mock; RUN/run_eval.sh (materialize 8 x 3, collect, profile) exit {code}; {len(got)} "
            f"rollouts, every reward 0.")


GATEWAY = '''"""The team's gateway in front of the model server (copied from the tokenizer service's)."""
import sys
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

UPSTREAM = sys.argv[2]
MAX_BODY_BYTES = 1024  # bigger request bodies are refused (abuse protection)


class Gateway(BaseHTTPRequestHandler):
    def _forward(self, body=None):
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
        size = int(self.headers.get("Content-Length", 0))
        body = self.rfile.read(size)
        if size > MAX_BODY_BYTES:
            data = b'{"error": {"message": "request body too large", "code": 413}}'
            self.send_response(413)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        self._forward(body)


if __name__ == "__main__":
    print(f"gateway on 127.0.0.1:{sys.argv[1]} -> {UPSTREAM} (max body {MAX_BODY_BYTES} bytes)", flush=True)
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Gateway).serve_forever()
'''

PASSAGES = [
    ("lighthouse", "the lighthouse of Port Avel", "built", "1874"),
    ("bridge", "the Corren river bridge", "opened", "1911"),
    ("library", "the municipal library of Dunmere", "founded", "1836"),
    ("observatory", "the hill observatory at Kesta", "completed", "1902"),
]


def passage_row(subject: str, name: str, verb: str, year: str) -> dict:
    sentences = [f"{name.capitalize()} has a long and well documented history that local historians have studied "
                 "for many decades, drawing on parish records, newspaper archives and the letters of residents."]
    for index in range(7):
        sentences.append(f"In chapter {index + 1} of the town chronicle the {subject} is described again, with notes "
                         "on its repairs, its keepers, the storms it weathered and the visitors who came to see it.")
    sentences.insert(4, f"The records agree that {name} was {verb} in {year}, after years of planning.")
    text = (" ".join(sentences) + f" According to the passage, in which year was {name} {verb}? End your response "
            "with 'Final answer: <answer>'.")
    return question_row(text, year)


@case(
    "model_serving_builtin_gateway_refuses_request_bodies_over_one_kilobyte",
    "model_serving",
    ["gateway.py", "MAX_BODY_BYTES"],
    "the model server is reached through the user's gateway.py, copied from the tokenizer service together with its "
    "MAX_BODY_BYTES = 1024 limit: every chat completion for a reading-comprehension task (a passage of about 1.5 kB) "
    "is refused with 413 before it reaches the model, so those rollouts all failed while the short questions went "
    "through",
)
def model_serving_builtin_gateway_refuses_request_bodies_over_one_kilobyte(ctx: Ctx) -> str:
    from gym_pipeline.host import free_loopback_port

    run = ctx.run
    short = rows_of(ctx.dataset("string_match", 4, start=70, name="short.jsonl"))
    rows = short + [passage_row(*item) for item in PASSAGES]
    data = write_jsonl(run / "string_match.jsonl", rows)
    sizes = [len(json.dumps(prompt_of(row))) for row in rows]
    if not (max(sizes[:4]) < 700 and min(sizes[4:]) > 1100):
        raise failed(ctx, f"prompt sizes {sizes}")
    better = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    port = free_loopback_port()
    (run / "gateway.py").write_text(GATEWAY)
    ctx.bg(f"cd {run} && python3 gateway.py {port} {url.removesuffix('/v1')}", "logs/gateway.log")
    wait_for(lambda: "gateway on" in text_of(run / "logs" / "gateway.log"), 20, "the gateway")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval, through the team's gateway (gateway.py)\n"
                      f"cd {run}\nMODEL_URL=http://127.0.0.1:{port}/v1\n"
                      + "\n".join(pipeline_lines("string_match.jsonl", 3, "$MODEL_URL", 4)) + "\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    done = unique_keys(run / "rollouts.jsonl")
    if len(done) != 12 or not in_log(ctx, " 413 ", "logs/gateway.log"):
        raise failed(ctx, f"exit {code}, {len(done)}")
    return (f"RUN/gateway.py (MAX_BODY_BYTES = 1024) in front of the simulated policy; RUN/run_eval.sh (materialize "
            f"4 short + 4 passage tasks x 3, collect through the gateway, profile) exit {code}; {len(done)} of 24 "
            f"rollouts, mean reward {mean(rewards(got)):.2f}.")


# =====================================================================================================
# infra
# =====================================================================================================

CHDIR_SBATCH = """#!/bin/bash
#SBATCH --job-name=eval-collect
#SBATCH --chdir=SCRATCH_DIR/evals/weekly
#SBATCH --output=RUN_DIR/logs/collect_%j.log
#SBATCH --time=10
# the team's template: jobs work in their scratch folder
echo "collecting in $(pwd) on $(hostname)"
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL_HERE \\
  --env string_match --concurrency 4
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""

CHDIR_SUBMIT = """#!/bin/bash
# on the login node: prepare the run in scratch, submit the collection, wait
mkdir -p SCRATCH_DIR/evals/weekly
cp RUN_DIR/string_match.jsonl SCRATCH_DIR/evals/weekly/
cd SCRATCH_DIR/evals/weekly
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
JOB=$(sbatch --parsable RUN_DIR/collect.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
ls -l SCRATCH_DIR/evals/weekly
"""


@case(
    "infra_slurm_job_chdir_to_scratch_mounted_only_on_login_node",
    "infra",
    ["--chdir", "scratch"],
    "the run was prepared under the scratch file system, which is mounted on the login node but not on the compute "
    "node; the batch job's `#SBATCH --chdir` names that folder, slurmstepd could not change into it and ran the job "
    "in /tmp instead, where the materialized inputs do not exist, so the collection and the profile failed at once",
)
def infra_slurm_job_chdir_to_scratch_mounted_only_on_login_node(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 34)
    url, _ = ctx.policy(better, "--latency-ms 30")
    scratch = ctx.work / "scratch"
    scratch.mkdir()
    (run / "logs").mkdir(exist_ok=True)
    subs = {"SCRATCH_DIR": str(scratch), "RUN_DIR": str(run), "GP_BIN": str(GP), "URL_HERE": url}
    sbatch, submit = CHDIR_SBATCH, CHDIR_SUBMIT
    for key, value in subs.items():
        sbatch, submit = sbatch.replace(key, value), submit.replace(key, value)
    (run / "collect.sbatch").write_text(sbatch)
    (run / "submit.sh").write_text(submit)
    ctx.note("(the login shell: a private mount namespace where scratch is a mounted file system; the Slurm node "
             "does not have that mount)")
    code = ctx.sh(f"unshare -m --propagation private bash -c 'mount -t tmpfs -o size=64m scratch {scratch} && "
                  f"bash {run}/submit.sh'", "logs/submit.log", timeout=400)
    job_logs = "".join(text_of(p) for p in (run / "logs").glob("collect_*.log"))
    if code or "/tmp" not in job_logs or "chdir" not in job_logs:
        raise failed(ctx, f"exit {code}: {job_logs[-800:]}")
    return (f"RUN/submit.sh (on the login node's scratch mount: materialize 8 x 3, sbatch of RUN/collect.sbatch "
            f"with --chdir into scratch) exit {code}; the job ran in /tmp and found no inputs.")


DEV_ENV = """# shell settings shared with the CI jobs (sourced by the run scripts)
export PYTHONWARNINGS=error     # catch deprecations early
export PYTHONDONTWRITEBYTECODE=1
export LC_ALL=C.UTF-8
"""


@case(
    "infra_builtin_pythonwarnings_error_from_ci_settings_makes_profile_warning_fatal",
    "infra",
    ["PYTHONWARNINGS", "dev_env.sh"],
    "the user's run_eval.sh sources dev_env.sh, shared with the CI jobs, which exports PYTHONWARNINGS=error: every "
    "Python warning becomes an exception, and the profile's harmless warning that the standard error across repeats "
    "is 0 (every repeat had the same mean) crashed `gym-pipeline profile` with a UserWarning traceback after the "
    "collection had completed",
)
def infra_builtin_pythonwarnings_error_from_ci_settings_makes_profile_warning_fatal(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 6, 18)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "dev_env.sh").write_text(DEV_ENV)
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval\n"
                      f"cd {run}\nsource dev_env.sh\n" + "\n".join(pipeline_lines("string_match.jsonl", 2, url, 4))
                      + "\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if not code or got != 12 or not in_log(ctx, "UserWarning", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/dev_env.sh (PYTHONWARNINGS=error) sourced by RUN/run_eval.sh (materialize 6 x 2, collect, profile) "
            f"exit {code}; {got} rollouts collected, the profile crashed on a warning.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================


@case(
    "throughput_gym_eval_concurrency_sized_for_replicas_of_retired_deployment",
    "throughput_resources",
    ["serving.env", "REPLICAS"],
    "the user's run_eval.sh sizes the eval's concurrency as REPLICAS x PER_REPLICA from serving.env, which still "
    "describes last quarter's deployment of 8 replicas (32 requests at once); the model is now served by one small "
    "server (2 running, 2 waiting), so most requests were turned away with 429 and many rollouts were given up after "
    "their retries",
    netns=True,
)
def throughput_gym_eval_concurrency_sized_for_replicas_of_retired_deployment(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 10, 56,
                                             "--latency-ms 400 --max-running 2 --max-waiting 2 --retry-after-s 1")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    (run / "serving.env").write_text("# the serving deployment (see the infra wiki)\nREPLICAS=8\nPER_REPLICA=4\n")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval: one request in flight per replica slot\n"
                      f"cd {run}\nsource serving.env\nCONCURRENCY=$((REPLICAS * PER_REPLICA))\n"
                      "echo \"concurrency $CONCURRENCY ($REPLICAS replicas x $PER_REPLICA)\"\n"
                      f"{gym_eval_line(overrides, 'tasks.jsonl', 'results/rollouts.jsonl', 3, '$CONCURRENCY')}\n"
                      f"{gym_profile_line('results')} ++allow_partial_rollouts=True\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if got >= 30 or not in_log(ctx, "429"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/serving.env (8 replicas x 4) -> concurrency 32 "
            f"against a server with --max-running 2 --max-waiting 2; RUN/run_eval.sh exit {code}; {got} of 30 "
            "rollouts.")


if __name__ == "__main__":
    sys.exit(main("twenty_fourth_held_out", __file__, __doc__))
