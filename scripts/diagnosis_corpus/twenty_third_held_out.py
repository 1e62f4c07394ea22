"""Build the TWENTY-THIRD HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/twenty_third_held_out.py --out tests/data/diagnosis_corpus/twenty_third_held_out [--only CASE ...]

This set was written from the guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder
troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests
or their results. It is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
workspace verifiers, task folders run in Docker sandboxes, Slurm batch jobs, the real NeMo Gym 0.7.0 (`gym env
start` / `gym eval run` / `gym eval profile` inside a loopback-only network namespace, with a user's own resources
server), and the user's own shell scripts, Makefiles, settings files and data-preparation scripts. The output of every
command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the
user's own inputs (data, scripts, settings, verifier code). Each case injects one cause, different in mechanism from
those of the twenty-two earlier sets, and each recipe checks that its fault really happened (it raises RecipeError
otherwise, and the case is not written). More than half of the failures are silent: every command exits 0 and only
the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare,
mount), Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this checkout. Run it from a foreground shell.
"""

from __future__ import annotations

import csv
import json
import shlex
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import (  # noqa: E402  # noqa: E402
    agent_args,
    checkpoints,
    failed,
    gym_setup,
    gym_start,
    served,
    stage,
    stage_argv,
    stop_gym,
    task_checkpoints,
    user_taskset,
    workspace_sweep,
)
from fourteenth_held_out import mean, rewards  # noqa: E402
from ninth_held_out import own_gym_server, taskset_sweep  # noqa: E402
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
from twenty_second_held_out import pipeline_lines, response_text  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def prompt_of(row: dict) -> str:
    return row["responses_create_params"]["input"][0]["content"][0]["text"]


def final_answer(text: str) -> str:
    marker = "final answer:"
    low = text.lower()
    if marker in low:
        return text[low.rindex(marker) + len(marker):].strip().rstrip(".")
    if "\\boxed{" in text:
        return text[text.rindex("\\boxed{") + 7:].split("}")[0].strip()
    return text.strip().splitlines()[-1] if text.strip() else ""


def taskset_script(ctx: Ctx, tasks: Path, checkpoint: Path, url: str, preamble: list[str], repeats: int = 2,
                   concurrency: int = 2, name: str = "run_tasks.sh") -> Path:
    """RUN/run_tasks.sh: `preamble`, then the stages materialize, collect, profile of the taskset."""
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=repeats, concurrency=concurrency)
    lines = ["#!/bin/bash", f"cd {ctx.run}", *preamble]
    for key, extra in (("materialize", ()), ("collect", served(url)), ("profile", ())):
        lines += [f"echo '== {key}'", shlex.join(stage_argv(sweep, key, checkpoint, "terminal_tasks", *extra))]
    script = ctx.run / name
    script.write_text("\n".join(lines) + "\n")
    return script


def slurm_wait(ctx: Ctx, job: str, timeout_s: float = 240) -> None:
    def gone() -> bool:
        out = subprocess.run(["squeue", "-h", "-j", job], capture_output=True, text=True, env=ctx.env)
        return out.stdout.strip() == ""

    try:
        wait_for(gone, timeout_s, f"Slurm job {job}", poll_s=1.0)
    finally:
        subprocess.run(["scancel", job], capture_output=True, env=ctx.env)


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_builtin_run_script_cleans_scratch_globs_that_match_nothing",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh starts by removing the scratch files of earlier runs (`rm -r scratch_*/` "
    "and `rm tmp_*.jsonl`); there were none this time, so the log opens with 'rm: cannot remove ...: No such file or "
    "directory'; materialize, collect and profile then completed every rollout",
)
def healthy_builtin_run_script_cleans_scratch_globs_that_match_nothing(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 7, 12)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval (clears the scratch files of the last run first)\n"
                      f"cd {run}\nrm -r scratch_*/\nrm tmp_*.jsonl\necho \"== eval\"\n"
                      + "\n".join(pipeline_lines("string_match.jsonl", 3, url, 4)) + "\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code or got != 21 or not in_log(ctx, "cannot remove", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (rm of scratch globs matching nothing, then materialize 7 tasks x 3, collect, profile) "
            f"exit {code}, {got} rollouts, mean reward {mean(rewards(rows_of(run / 'rollouts.jsonl'))):.2f}.")


@case(
    "healthy_builtin_rollouts_gzipped_after_profile",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh archives the run once the profile is written (`gzip -9` of "
    "rollouts.jsonl and the materialized inputs, to save quota), so the folder holds rollouts.jsonl.gz and no plain "
    "rollouts file; every rollout had been collected and the profile was made before the files were compressed",
)
def healthy_builtin_rollouts_gzipped_after_profile(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 6, 40)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval; the run is archived once profiled (quota)\n"
                      f"cd {run}\n" + "\n".join(pipeline_lines("string_match.jsonl", 3, url, 4)) + "\n"
                      "echo \"== archiving\"\ngzip -9 -v rollouts.jsonl rollouts_materialized_inputs.jsonl\n"
                      "ls -l\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    gz = run / "rollouts.jsonl.gz"
    if code or not gz.exists() or (run / "rollouts.jsonl").exists():
        raise failed(ctx, f"exit {code}")
    got = subprocess.run(["bash", "-c", f"zcat {gz} | wc -l"], capture_output=True, text=True).stdout.strip()
    if got != "18":
        raise failed(ctx, f"{got} rows in the archive")
    return (f"RUN/run_eval.sh (materialize 6 tasks x 3, collect, profile, then gzip of the rollouts and inputs) exit "
            f"{code}; {got} rollouts in RUN/rollouts.jsonl.gz.")


@case(
    "healthy_gym_preflight_probe_of_decommissioned_server",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh first probes last week's model server (OLD_URL, kept in the script "
    "for comparison) with curl, which fails with 'Failed to connect' because that server was shut down; the eval "
    "itself used the current server, and the real NeMo Gym eval collected, verified and profiled every rollout",
    netns=True,
)
def healthy_gym_preflight_probe_of_decommissioned_server(ctx: Ctx) -> str:
    from gym_pipeline.host import free_loopback_port

    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 60, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    old = f"http://127.0.0.1:{free_loopback_port()}/v1"
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# eval of the current checkpoint; OLD_URL is last week's server, for comparison\n"
                      f"cd {run}\nOLD_URL={old}\nMODEL_URL={url}\n"
                      "echo \"== last week's server\"\ncurl -sS --max-time 5 $OLD_URL/models || echo \"(no answer)\"\n"
                      "echo \"== current server\"\ncurl -sS --max-time 5 $MODEL_URL/models; echo\n"
                      f"{GYM} eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl "
                      f"--output results/rollouts.jsonl --num-repeats 3 --concurrency 4 "
                      f"++route_failures_to_sidecar=true {overrides}\n"
                      f"{GYM} eval profile --inputs results/rollouts_materialized_inputs.jsonl "
                      "--rollouts results/rollouts.jsonl\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if code or got != 18 or not in_log(ctx, "Failed to connect", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (curl of a closed port, curl of the "
            f"server, `gym eval run --no-serve` 6 tasks x 3, `gym eval profile`) exit {code}, {got} rollouts.")


@case(
    "healthy_taskfolder_preflight_pull_of_unreachable_registry_image",
    "healthy",
    [],
    "nothing is wrong: the user's run_tasks.sh first tries to refresh the team's tools image with `docker pull` from "
    "the corporate registry, which this host cannot resolve ('no such host'); that image is not used by the tasks, "
    "whose sandboxes are built from the local base image, and every episode of the taskset (top-word, "
    "sort-unique-words) completed, was verified and profiled",
)
def healthy_taskfolder_preflight_pull_of_unreachable_registry_image(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["top-word", "sort-unique-words"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, [
        "echo '== refreshing the tools image'",
        "timeout 60 docker pull registry.corp.internal:5000/evals/tools:latest || echo 'could not refresh tools image'",
    ])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    if code or len(unique_keys(run / "rollouts.jsonl")) != 4 or not in_log(ctx, "no such host", "logs/run_tasks.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/run_tasks.sh (docker pull from an unresolvable registry, then `gym-pipeline stage` materialize, "
            f"collect, profile of RUN/tasks: top-word, sort-unique-words x 2) exit {code}; rewards {rewards(got)}.")


# =====================================================================================================
# config
# =====================================================================================================


@case(
    "config_builtin_settings_env_with_spaces_around_equals",
    "config",
    ["settings.env", "REPEATS"],
    "the user's run_eval.sh sources settings.env, which was written as `REPEATS = 5` and `CONCURRENCY = 4` (spaces "
    "around '='): bash reads each line as a command named REPEATS ('command not found'), no variable is set, and the "
    "script's fallbacks ${REPEATS:-1} and ${CONCURRENCY:-1} apply: the report has one rollout per task and its pass@k "
    "and variance mean nothing (everything exits 0)",
)
def config_builtin_settings_env_with_spaces_around_equals(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 20)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "settings.env").write_text("# eval settings\nREPEATS = 5\nCONCURRENCY = 4\n")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval; settings in settings.env\n"
                      f"cd {run}\nsource settings.env\nREPEATS=${{REPEATS:-1}}\nCONCURRENCY=${{CONCURRENCY:-1}}\n"
                      "echo \"eval with $REPEATS repeat(s), concurrency $CONCURRENCY\"\n"
                      + "\n".join(pipeline_lines("string_match.jsonl", "$REPEATS", url, "$CONCURRENCY")) + "\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    if code or len(got) != 8 or not in_log(ctx, "command not found", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {len(got)}")
    return (f"RUN/settings.env (`REPEATS = 5`) sourced by RUN/run_eval.sh; exit {code}; {len(got)} rollouts for 8 "
            f"tasks (1 repeat), mean reward {mean(rewards(got)):.2f}.")


@case(
    "config_gym_eval_wrapper_function_called_with_arguments_swapped",
    "config",
    ["eval_split"],
    "the user's run_eval.sh wraps the eval in a function eval_split INPUT REPEATS CONCURRENCY but calls it as "
    "`eval_split tasks.jsonl $CONCURRENCY $REPEATS`: with CONCURRENCY=1 (the shared server is small) and REPEATS=4, "
    "`gym eval run` ran --num-repeats 1 --concurrency 4, so the profile's pass@k and per-task variance come from one "
    "rollout per task (everything exits 0)",
    netns=True,
)
def config_gym_eval_wrapper_function_called_with_arguments_swapped(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 8, 70, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    script = run / "run_eval.sh"
    script.write_text(
        "#!/bin/bash\n# weekly eval of the trivia split\n"
        f"cd {run}\nREPEATS=4\nCONCURRENCY=1   # the shared model server is small\n\n"
        "# usage: eval_split INPUT REPEATS CONCURRENCY\neval_split() {\n"
        "  local input=$1 repeats=$2 concurrency=$3\n"
        "  echo \"eval of $input: $repeats repeat(s), concurrency $concurrency\"\n"
        f"  {GYM} eval run --no-serve --agent string_match_simple_agent --input $input "
        "--output results/rollouts.jsonl --num-repeats $repeats --concurrency $concurrency "
        f"++route_failures_to_sidecar=true {overrides}\n"
        f"  {GYM} eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl\n"
        "}\n\neval_split tasks.jsonl $CONCURRENCY $REPEATS\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    stop_gym(ctx, env_start, policy)
    got = rows_of(run / "results" / "rollouts.jsonl")
    if code or len(got) != 8:
        raise failed(ctx, f"exit {code}, {len(got)}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh calls eval_split with REPEATS and "
            f"CONCURRENCY swapped; exit {code}, {len(got)} rollouts for 8 tasks, mean reward {mean(rewards(got)):.2f}.")


LATE_DIRECTIVES_SBATCH = """#!/bin/bash
source RUN_DIR/job_env.sh   # site modules and the model server URL (added last week)
#SBATCH --job-name=collect-shards
#SBATCH --array=0-3
#SBATCH --output=RUN_DIR/logs/collect_shard_%a.log
#SBATCH --time=10
# one array task per shard
SHARD=${SLURM_ARRAY_TASK_ID:-0}
cd RUN_DIR/shards/$SHARD
echo "shard $SHARD on $(hostname)"
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $MODEL_URL \\
  --env string_match --concurrency 3
"""

SUBMIT = """#!/bin/bash
# submit the shard array, wait for it, profile every shard
cd RUN_DIR
JOB=$(sbatch --parsable collect_shards.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
for s in 0 1 2 3; do
  echo "== profile of shard $s"
  GP_BIN profile --inputs shards/$s/rollouts_materialized_inputs.jsonl --rollouts shards/$s/rollouts.jsonl \\
    || echo "shard $s: profile failed"
done
"""


@case(
    "config_slurm_sbatch_directives_placed_after_first_command",
    "config",
    ["collect_shards.sbatch", "#SBATCH"],
    "the user added `source job_env.sh` at the top of collect_shards.sbatch, above its #SBATCH lines; sbatch stops "
    "reading directives at the first command, so --array=0-3 (and --output, --time) were ignored: one plain job ran, "
    "SLURM_ARRAY_TASK_ID was empty and the script's default collected shard 0 only, while shards 1-3 were never "
    "collected and their profiles failed",
)
def config_slurm_sbatch_directives_placed_after_first_command(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 12, 20)
    url, _ = ctx.policy(better, "--latency-ms 50")
    (run / "logs").mkdir(exist_ok=True)
    lines = data.read_text().splitlines(keepends=True)
    for shard in range(4):
        folder = run / "shards" / str(shard)
        folder.mkdir(parents=True)
        (folder / "tasks.jsonl").write_text("".join(lines[shard * 3:(shard + 1) * 3]))
        made = ctx.sh(f"cd {folder} && {GP} materialize --input tasks.jsonl --num-repeats 3 --agent "
                      "string_match_simple_agent --output rollouts_materialized_inputs.jsonl", "logs/prepare_shards.log")
        if made:
            raise failed(ctx, f"materialize {made}")
    (run / "job_env.sh").write_text(f"# sourced by the job scripts\nexport MODEL_URL={url}\n")
    (run / "collect_shards.sbatch").write_text(LATE_DIRECTIVES_SBATCH.replace("RUN_DIR", str(run)).replace(
        "GP_BIN", str(GP)))
    (run / "submit.sh").write_text(SUBMIT.replace("RUN_DIR", str(run)).replace("GP_BIN", str(GP)))
    code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=400)
    got = [len(unique_keys(run / "shards" / str(shard) / "rollouts.jsonl")) for shard in range(4)]
    if got != [9, 0, 0, 0] or not list(run.glob("slurm-*.out")):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"4 shards x 3 tasks x 3 materialized; RUN/submit.sh (sbatch of RUN/collect_shards.sbatch whose #SBATCH "
            f"lines follow a command, then a profile per shard) exit {code}; rollouts per shard {got}.")


# =====================================================================================================
# data_schema
# =====================================================================================================

FRACTIONS = [("What is 1/2 + 1/4?", "3/4", ["1/2", "2/3", "5/8"]),
             ("What is 9 times 8?", "72", ["64", "81", "63"]),
             ("What is 1/3 + 1/3?", "2/3", ["1/3", "1/6", "3/4"]),
             ("What is 5/6 - 1/2?", "1/3", ["1/4", "2/3", "1/2"]),
             ("What is 144 divided by 12?", "12", ["11", "14", "13"]),
             ("What is 7/8 - 1/8?", "3/4", ["6/8", "1/2", "7/8"])]
EXCEL_DATES = {"3/4": "4-Mar", "2/3": "3-Feb", "1/3": "3-Jan"}

CONVERT_CSV = '''"""questions.csv (the reviewed sheet, exported from the spreadsheet) -> tasks.jsonl"""
import csv
import json
import sys

with open(sys.argv[1], newline="") as source, open(sys.argv[2], "w") as out:
    for record in csv.DictReader(source):
        text = f"{record['question']} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": record["answer"], "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
'''


def fraction_row(question: str, answer: str, distractors: list[str]) -> dict:
    text = f"{question} End your response with 'Final answer: <answer>'."
    return {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False,
            "difficulty": 1, "distractors": distractors}


@case(
    "data_schema_gym_fraction_labels_turned_into_dates_by_spreadsheet",
    "data_schema",
    ["questions.csv"],
    "the arithmetic set was reviewed in a spreadsheet, which read the fraction answers 3/4, 2/3 and 1/3 as dates and "
    "exported them as 4-Mar, 3-Feb and 3-Jan; convert_csv.py turned questions.csv into tasks.jsonl as it was, so "
    "every fraction task has a date as its expected_answer and scores 0 although the model answers it correctly "
    "(everything exits 0)",
    netns=True,
)
def data_schema_gym_fraction_labels_turned_into_dates_by_spreadsheet(ctx: Ctx) -> str:
    run = ctx.run
    truth = write_jsonl(ctx.work / "reviewed_source.jsonl", [fraction_row(*item) for item in FRACTIONS])
    better = checkpoints(ctx, "string_match", truth)[1]
    with open(run / "questions.csv", "w", newline="") as sheet:
        writer = csv.writer(sheet)
        writer.writerow(["question", "answer"])
        for question, answer, _ in FRACTIONS:
            writer.writerow([question, EXCEL_DATES.get(answer, answer)])
    (run / "convert_csv.py").write_text(CONVERT_CSV)
    code = ctx.sh(f"cd {run} && python3 convert_csv.py questions.csv tasks.jsonl", "logs/convert.log")
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    ran = ctx.sh(f"cd {run} && {GYM} eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl "
                 f"--output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true "
                 f"{overrides}", "eval_run.log", timeout=400)
    prof = ctx.sh(f"cd {run} && {GYM} eval profile --inputs results/rollouts_materialized_inputs.jsonl "
                  "--rollouts results/rollouts.jsonl", "eval_profile.log", timeout=300)
    stop_gym(ctx, env_start, policy)
    got = rows_of(run / "results" / "rollouts.jsonl")
    dated = [row for row in got if "-" in str(row.get("expected_answer"))]
    if code or ran or prof or len(got) != 18 or not dated or any(r == 1 for r in rewards(dated)):
        raise failed(ctx, f"exit {code}/{ran}/{prof}, {len(got)}, {rewards(dated)}")
    return (f"RUN/questions.csv (fraction answers exported as dates) -> RUN/convert_csv.py -> RUN/tasks.jsonl; real "
            f"NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (6 tasks x 3) exit {ran}, profile "
            f"exit {prof}; {len(dated)} rollouts of date-labelled tasks, all reward 0; mean reward "
            f"{mean(rewards(got)):.2f}.")


BUILD_ROWS = '''"""eval_set.csv (export of the annotation tool's eval_items table) -> string_match.jsonl"""
import csv
import json
import sys

with open(sys.argv[1], newline="") as source, open(sys.argv[2], "w") as out:
    for record in csv.DictReader(source):
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": record["prompt"]}]}]},
               "expected_answer": record["expected_answer"], "extraction_mode": record["extraction_mode"],
               "case_sensitive": record["case_sensitive"] == "true"}
        out.write(json.dumps(row) + "\\n")
'''


@case(
    "data_schema_builtin_prompts_cut_by_annotation_tool_column_length",
    "data_schema",
    ["eval_set.csv"],
    "the eval set comes from the annotation tool's eval_items table, whose prompt column is VARCHAR(100): every "
    "prompt longer than 100 characters was cut when the items were entered, so eval_set.csv (and string_match.jsonl "
    "built from it by build_rows.py) holds prompts that stop mid-sentence and lost their answer-format instruction; "
    "the model cannot answer those tasks as asked and they score 0 (everything exits 0)",
)
def data_schema_builtin_prompts_cut_by_annotation_tool_column_length(ctx: Ctx) -> str:
    run = ctx.run
    source = ctx.dataset("string_match", 10, start=44, name="source.jsonl")
    better = checkpoints(ctx, "string_match", source)[1]
    rows = rows_of(source)
    cut = sum(len(prompt_of(row)) > 100 for row in rows)
    if not 2 <= cut <= 8:
        raise failed(ctx, f"{cut} prompts over 100 characters")
    with open(run / "eval_set.csv", "w", newline="") as sheet:
        writer = csv.writer(sheet)
        writer.writerow(["id", "prompt", "expected_answer", "extraction_mode", "case_sensitive"])
        for index, row in enumerate(rows):
            writer.writerow([1041 + index, prompt_of(row)[:100], row["expected_answer"], row["extraction_mode"],
                             str(row.get("case_sensitive", False)).lower()])
    (run / "build_rows.py").write_text(BUILD_ROWS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval: export of eval_items -> jsonl -> eval\n"
                      f"cd {run}\npython3 build_rows.py eval_set.csv string_match.jsonl\nwc -l string_match.jsonl\n"
                      + "\n".join(pipeline_lines("string_match.jsonl", 3, url, 4)) + "\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    if code or len(got) != 30 or mean(rewards(got)) > 0.8:
        raise failed(ctx, f"exit {code}, {len(got)}, {mean(rewards(got))}")
    return (f"RUN/eval_set.csv ({cut} of 10 prompts cut at 100 characters) -> RUN/build_rows.py -> "
            f"RUN/string_match.jsonl; RUN/run_eval.sh (materialize x 3, collect, profile) exit {code}; {len(got)} "
            f"rollouts, mean reward {mean(rewards(got)):.2f}.")


NORMALIZE_LABELS = '''"""Tidy the labels of the export: strip spaces, and write numbers without a trailing '.0' (42.0 -> 42)."""
import json
import sys

with open(sys.argv[1]) as source, open(sys.argv[2], "w") as out:
    for line in source:
        row = json.loads(line)
        label = str(row["expected_answer"]).strip()
        try:
            label = str(int(float(label)))
        except ValueError:
            pass
        row["expected_answer"] = label
        out.write(json.dumps(row) + "\\n")
'''


@case(
    "data_schema_builtin_label_tidy_script_truncates_decimal_answers",
    "data_schema",
    ["normalize_labels.py"],
    "the user's normalize_labels.py, run on every export to write numeric labels without a trailing '.0', does it "
    "with str(int(float(label))), which also cuts off real decimals: 273.15 became 273 and 0.375 became 0, so the "
    "model's correct answers to those tasks never match expected_answer and score 0 (everything exits 0)",
)
def data_schema_builtin_label_tidy_script_truncates_decimal_answers(ctx: Ctx) -> str:
    run = ctx.run
    raw = ctx.dataset("string_match", 12, start=50, folder=run, name="export.jsonl")
    better = checkpoints(ctx, "string_match", raw)[1]
    (run / "normalize_labels.py").write_text(NORMALIZE_LABELS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval of the export\n"
                      f"cd {run}\npython3 normalize_labels.py export.jsonl string_match.jsonl\n"
                      + "\n".join(pipeline_lines("string_match.jsonl", 3, url, 4)) + "\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    labels = [row["expected_answer"] for row in rows_of(run / "string_match.jsonl")]
    cut = [row for row in got if str(row.get("expected_answer")) in ("273", "0")]
    if code or len(got) != 36 or "273" not in labels or not cut or any(rewards(cut)):
        raise failed(ctx, f"exit {code}, {len(got)}, {labels}, {rewards(cut)}")
    return (f"RUN/export.jsonl -> RUN/normalize_labels.py (int(float(label))) -> RUN/string_match.jsonl; "
            f"RUN/run_eval.sh (materialize 12 tasks x 3, collect, profile) exit {code}; {len(cut)} rollouts of the "
            f"truncated labels (273, 0) all scored 0; mean reward {mean(rewards(got)):.2f}.")


@case(
    "data_schema_taskfolder_words_file_resaved_with_crlf_line_endings",
    "data_schema",
    ["words.txt"],
    "sort-unique-words' environment/words.txt was refreshed from the team's Windows share and now has CRLF line "
    "endings: every word in the sandbox ends with a carriage return, so the sorted output never equals the expected "
    "list and every episode of the task scores 0 although the agent did what was asked (every stage exits 0)",
)
def data_schema_taskfolder_words_file_resaved_with_crlf_line_endings(ctx: Ctx) -> str:
    run = ctx.run

    def crlf(tasks: Path) -> None:
        words = tasks / "sort-unique-words" / "environment" / "words.txt"
        words.write_bytes(words.read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))

    tasks = user_taskset(ctx, ["sort-unique-words", "top-word"], crlf)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== nightly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    sort_rewards = [float(r.get("reward") or 0) for r in got if "sort-unique-words" in json.dumps(r)]
    if code or len(got) != 4 or not sort_rewards or any(sort_rewards):
        raise failed(ctx, f"exit {code}, {len(got)}, {sort_rewards}")
    return (f"RUN/tasks/sort-unique-words/environment/words.txt with CRLF line endings; RUN/run_tasks.sh "
            f"(`gym-pipeline stage` materialize, collect, profile, 2 tasks x 2) exit {code}; rewards {rewards(got)}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

ACCEPTED_LIST_VERIFIER = '''
"""Lenient grading: a response is right when it contains one of the accepted spellings of the answer."""


def _final_answer(text):
    low = text.lower()
    if "final answer:" in low:
        return text[low.rindex("final answer:") + len("final answer:"):].strip().rstrip(".")
    if "\\\\boxed{" in text:
        return text[text.rindex("\\\\boxed{") + 7:].split("}")[0].strip()
    return text.strip()


def score(row, response_text):
    answer = _final_answer(response_text).lower()
    # expected_answer holds the accepted spellings (["Hydrogen", "H2"], ...) as in the v2 export
    for accepted in row["expected_answer"]:
        if accepted.lower() in answer:
            return 1.0
    return 0.0
'''


@case(
    "verifier_runtime_stage_workspace_verifier_iterates_string_label_as_accepted_list",
    "verifier_runtime",
    ["expected_answer", "my_verifier"],
    "the user's workspace verifier (verifiers/my_verifier.py) was written for the v2 export, where expected_answer is "
    "a list of accepted spellings, and loops over it; these rows carry a plain string, so the loop runs over its "
    "characters and any answer containing one letter or digit of the label scores 1: wrong answers get full credit "
    "and the reward is inflated to about 1 (everything exits 0)",
)
def verifier_runtime_stage_workspace_verifier_iterates_string_label_as_accepted_list(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=54, folder=run, name="exact_answer.jsonl")
    weaker = checkpoints(ctx, "string_match", data)[0]
    url, _ = ctx.policy(weaker, "--latency-ms 20")
    sweep = workspace_sweep(ctx, "exact_answer", data, weaker, {"verifier": "my_verifier:score"},
                            ACCEPTED_LIST_VERIFIER, num_repeats=3, concurrency=4)
    codes = [stage(ctx, sweep, key, weaker, "exact_answer", *(served(url) if key == "collect" else ()))
             for key in ("materialize", "collect", "profile")]
    got = rows_of(run / "rollouts.jsonl")
    wrong_but_credited = 0
    for row in got:
        answer = final_answer(response_text(row)).lower()
        if answer != str(row.get("expected_answer", "")).lower() and float(row.get("reward") or 0) == 1:
            wrong_but_credited += 1
    if any(codes) or len(got) != 24 or wrong_but_credited < 2:
        raise failed(ctx, f"codes {codes}, {len(got)}, {wrong_but_credited}")
    return (f"RUN/verifiers/my_verifier.py loops over expected_answer; `gym-pipeline stage` materialize, collect, "
            f"profile (8 tasks x 3, checkpoint step_0100) exit {codes}; mean reward {mean(rewards(got)):.2f}, "
            f"{wrong_but_credited} rollouts with a wrong final answer scored 1.")


COLON_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        if extracted is not None:
            # some models answer 'Answer: X' inside the box: keep what follows the colon
            extracted = extracted.partition(":")[2].strip()

        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""


@case(
    "verifier_runtime_gym_verify_keeps_only_text_after_a_colon",
    "verifier_runtime",
    ["partition"],
    "the user's colon_match resources server post-processes the extracted answer with "
    "`extracted.partition(\":\")[2].strip()` to drop an 'Answer:' prefix some models put inside the box; for an "
    "answer without a colon partition returns an empty tail, so every extracted answer became '' and every rollout "
    "scored 0 (everything exits 0)",
    netns=True,
)
def verifier_runtime_gym_verify_keeps_only_text_after_a_colon(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 20, "--latency-ms 30")
    search = own_gym_server(ctx, "colon_match", COLON_VERIFY)
    server = search / "resources_servers" / "colon_match"
    kept = run / "my_gym" / "resources_servers" / "colon_match"
    kept.mkdir(parents=True)
    for name in ("app.py", "configs/colon_match.yaml"):
        (kept / name).parent.mkdir(parents=True, exist_ok=True)
        (kept / name).write_text((server / name).read_text())
    ctx.note("(the user's server code is kept in RUN/my_gym/resources_servers/colon_match: app.py, configs)")
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='colon_match')} "
                               f"{overrides}")
    ran = ctx.sh(f"cd {run} && {GYM} eval run --no-serve "
                 f"{agent_args(data, run / 'results' / 'rollouts.jsonl', 3, 4, 'colon_match_simple_agent')} "
                 f"++route_failures_to_sidecar=true {overrides}", "eval_run.log", timeout=400)
    prof = ctx.sh(f"cd {run} && {GYM} eval profile --inputs results/rollouts_materialized_inputs.jsonl "
                  "--rollouts results/rollouts.jsonl", "eval_profile.log", timeout=300)
    stop_gym(ctx, env_start, policy)
    got = rows_of(run / "results" / "rollouts.jsonl")
    if ran or prof or len(got) != 18 or any(rewards(got)):
        raise failed(ctx, f"exit {ran}/{prof}, {len(got)}, {rewards(got)}")
    return (f"A user's resources server colon_match (verify keeps extracted.partition(':')[2]); real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) `gym eval run --no-serve` (6 tasks x 3) exit {ran}, profile exit {prof}; "
            f"{len(got)} rollouts, mean reward {mean(rewards(got)):.2f}.")


@case(
    "verifier_runtime_taskfolder_test_reads_answer_from_new_output_folder",
    "verifier_runtime",
    ["/app/output/total.txt"],
    "csv-column-total's tests/test.sh was updated to the team's new convention that answers go under /app/output "
    "and now reads /app/output/total.txt, but the task's instruction.md (and the agent) still write /app/total.txt: "
    "the test never finds the answer and every episode of the task scores 0 although it was solved (every stage "
    "exits 0)",
)
def verifier_runtime_taskfolder_test_reads_answer_from_new_output_folder(ctx: Ctx) -> str:
    run = ctx.run

    def moved(tasks: Path) -> None:
        test = tasks / "csv-column-total" / "tests" / "test.sh"
        test.write_text(test.read_text().replace("/app/total.txt", "/app/output/total.txt").replace(
            "# Writes 1", "# answers live under /app/output (team convention since v3)\n# Writes 1"))

    tasks = user_taskset(ctx, ["csv-column-total", "top-word"], moved)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== nightly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    csv_rewards = [float(r.get("reward") or 0) for r in got if "csv-column-total" in json.dumps(r)]
    if code or len(got) != 4 or not csv_rewards or any(csv_rewards):
        raise failed(ctx, f"exit {code}, {len(got)}, {csv_rewards}")
    return (f"RUN/tasks/csv-column-total/tests/test.sh reads /app/output/total.txt; RUN/run_tasks.sh (`gym-pipeline "
            f"stage` materialize, collect, profile, 2 tasks x 2) exit {code}; rewards {rewards(got)}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

MAKEFILE = """# make         : materialize, collect, profile the trivia set
# the batch wrapper gives the collection 20 s per attempt
DATA = string_match.jsonl
MODEL_URL = URL_HERE
GP = GP_HERE

all: profile

rollouts_materialized_inputs.jsonl: $(DATA)
\t$(GP) materialize --input $(DATA) --num-repeats 3 --agent string_match_simple_agent --output $@

rollouts.jsonl: rollouts_materialized_inputs.jsonl
\ttimeout 20 $(GP) collect --inputs rollouts_materialized_inputs.jsonl --output $@ --model-url $(MODEL_URL) \\
\t  --env string_match --concurrency 1

profile: rollouts.jsonl
\t$(GP) profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl

.PHONY: all profile
"""


@case(
    "cache_resume_builtin_make_treats_partial_rollouts_target_as_up_to_date",
    "cache_resume",
    ["Makefile", "rollouts.jsonl"],
    "the user's Makefile builds rollouts.jsonl with one collect rule; the first `make` hit the rule's `timeout 20` "
    "half way, and make (no .DELETE_ON_ERROR, no --resume) left the partial rollouts.jsonl in place; the user made "
    "the server faster and ran `make` again, which saw rollouts.jsonl newer than its inputs, skipped the collection "
    "and only profiled the partial file",
)
def cache_resume_builtin_make_treats_partial_rollouts_target_as_up_to_date(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 10, 62)
    slow, slow_process = ctx.policy(better, "--latency-ms 1200", log="logs/model_server_first.log")
    (run / "Makefile").write_text(MAKEFILE.replace("URL_HERE", slow).replace("GP_HERE", str(GP)))
    first = ctx.sh(f"cd {run} && make", "logs/make_first.log", timeout=200)
    partial = len(rows_of(run / "rollouts.jsonl"))
    ctx.stop(slow_process)
    fast, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server.log")
    second = ctx.sh(f"cd {run} && make MODEL_URL={fast}", "logs/make.log", timeout=200)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if not first or not 0 < partial < 30 or got != partial:
        raise failed(ctx, f"first {first}, partial {partial}, second {second}, {got}")
    return (f"RUN/Makefile; first `make` (server at 1.2 s, collect under timeout 20) exit {first} with {partial} of 30 "
            f"rollouts; second `make MODEL_URL=...` (fast server) exit {second}, collection skipped, {got} of 30 "
            "rollouts profiled.")


REPORT = """#!/bin/bash
# weekly report: profile the newest run under runs/ into report/
cd RUN_DIR
LATEST=$(ls -td runs/*/ | head -1)
echo "report of $LATEST"
GP_BIN profile --inputs ${LATEST}rollouts_materialized_inputs.jsonl --rollouts ${LATEST}rollouts.jsonl --output-dir report
"""


@case(
    "cache_resume_builtin_report_picks_run_folder_touched_by_cleanup",
    "cache_resume",
    ["report.sh", "ls -td"],
    "the user's report.sh profiles `ls -td runs/*/ | head -1`, the most recently modified run folder, meant to be "
    "today's; after today's collection (runs/2026-12-03, step_0200) the cleanup step deleted a stale scratch file in "
    "yesterday's folder, which updated that folder's modification time, so the weekly report profiled yesterday's "
    "step_0100 rollouts (everything exits 0)",
)
def cache_resume_builtin_report_picks_run_folder_touched_by_cleanup(ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 72)
    days = {"2026-12-02": weaker, "2026-12-03": better}
    for day, checkpoint in days.items():
        folder = run / "runs" / day
        folder.mkdir(parents=True)
        url, process = ctx.policy(checkpoint, "--latency-ms 20", log=f"logs/model_server_{day}.log")
        code = ctx.sh(f"( cd {folder} && " + " && ".join(pipeline_lines(str(data), 3, url, 4)[:2]) + " )",
                      f"logs/collect_{day}.log", timeout=300)
        ctx.stop(process)
        if code:
            raise failed(ctx, f"{day}: exit {code}")
        if day == "2026-12-02":
            (folder / "collect.tmp").write_text("")  # the scratch file yesterday's interrupted helper left
        time.sleep(1.5)
    cleanup = ctx.sh(f"cd {run} && rm -v -f runs/*/collect.tmp", "logs/cleanup.log")
    (run / "report.sh").write_text(REPORT.replace("RUN_DIR", str(run)).replace("GP_BIN", str(GP)))
    code = ctx.sh(f"bash {run}/report.sh", "logs/report.log", timeout=300)
    if cleanup or code or not in_log(ctx, "report of runs/2026-12-02/", "logs/report.log"):
        raise failed(ctx, f"cleanup {cleanup}, report {code}")
    old = mean(rewards(rows_of(run / "runs" / "2026-12-02" / "rollouts.jsonl")))
    new = mean(rewards(rows_of(run / "runs" / "2026-12-03" / "rollouts.jsonl")))
    return (f"runs/2026-12-02 (step_0100, mean reward {old:.2f}) and runs/2026-12-03 (step_0200, {new:.2f}) "
            f"collected; `rm -f runs/*/collect.tmp` touched the older folder; RUN/report.sh exit {code} profiled "
            "runs/2026-12-02 into RUN/report.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

LOAD_TEST = """#!/bin/bash
# load test of the model server: WORKERS parallel clients, forever (stop with kill)
URL=$1
WORKERS=${2:-8}
BODY='{"model": "sim-policy", "messages": [{"role": "user", "content": "What is the capital of France?"}]}'
for w in $(seq $WORKERS); do
  while true; do
    code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' -d "$BODY" $URL/chat/completions)
    echo "worker $w: $code"
  done &
done
wait
"""


@case(
    "throughput_builtin_forgotten_load_test_saturates_model_server",
    "throughput_resources",
    ["load_test.sh"],
    "the user's load_test.sh (8 clients sending chat completions in a loop, started with nohup while sizing the "
    "server the day before) was never stopped; it keeps the model server (2 running, 2 waiting) full, so the "
    "collection's requests were mostly turned away with 429 and many rollouts were given up after their retries",
)
def throughput_builtin_forgotten_load_test_saturates_model_server(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 79)
    url, _ = ctx.policy(better, "--latency-ms 400 --max-running 2 --max-waiting 2 --retry-after-s 1")
    (run / "load_test.sh").write_text(LOAD_TEST)
    ctx.bg(f"cd {run} && nohup bash load_test.sh {url} 8", "load_test.out")
    time.sleep(3)
    code = ctx.sh(f"( cd {run} && " + " && ".join(pipeline_lines("string_match.jsonl", 3, url, 4)) + " )",
                  "logs/run_eval.log", timeout=500)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if got >= 24 or not in_log(ctx, "429"):
        raise failed(ctx, f"exit {code}, {got}")
    load = text_of(run / "load_test.out").splitlines()
    (run / "load_test.out").write_text("\n".join(load[:40] + [f"... ({len(load) - 80} more lines)"] + load[-40:])
                                       + "\n")
    ctx.note("(load_test.out shortened to its first and last 40 lines)")
    return (f"RUN/load_test.sh left running (8 clients) against a server with --max-running 2 --max-waiting 2; "
            f"materialize 8 tasks x 3, collect (concurrency 4), profile: exit {code}, {got} of 24 rollouts.")


# =====================================================================================================
# infra
# =====================================================================================================


@case(
    "infra_taskfolder_leftover_docker_machine_tls_variables",
    "infra",
    ["DOCKER_TLS_VERIFY", "DOCKER_CERT_PATH"],
    "the user's docker_env.sh (sourced before the run) still exports DOCKER_TLS_VERIFY=1 and DOCKER_CERT_PATH from "
    "the `docker-machine env` of a remote build box that no longer exists; DOCKER_HOST was later set back to the local "
    "socket, but with TLS verification asked for and no certificates at that path the Docker client could not be "
    "created, so no task sandbox started and the taskset's episodes all failed",
)
def infra_taskfolder_leftover_docker_machine_tls_variables(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["create-greeting", "top-word"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    (run / "docker_env.sh").write_text(
        "# from `docker-machine env gpu-build-box` (the remote build box)\n"
        "export DOCKER_TLS_VERIFY=\"1\"\nexport DOCKER_HOST=\"tcp://10.40.3.21:2376\"\n"
        "export DOCKER_CERT_PATH=\"/root/.docker/machine/machines/gpu-build-box\"\n"
        "export DOCKER_MACHINE_NAME=\"gpu-build-box\"\n"
        "# back to the local engine (the build box was decommissioned)\n"
        "export DOCKER_HOST=unix:///var/run/docker.sock\n")
    script = taskset_script(ctx, tasks, checkpoint, url, ["source docker_env.sh",
                                                          "echo \"docker host: $DOCKER_HOST\""])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    if len(got) == 4 and mean(rewards(got)) == 1:
        raise failed(ctx, f"exit {code}: the sandboxes ran")
    return (f"RUN/docker_env.sh (DOCKER_TLS_VERIFY=1, DOCKER_CERT_PATH of a removed machine, DOCKER_HOST local) "
            f"sourced by RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile of 2 tasks x 2) exit "
            f"{code}; {len(got)} rollouts, rewards {rewards(got)}.")


# =====================================================================================================
# model_serving
# =====================================================================================================

SERVE_SBATCH = """#!/bin/bash
#SBATCH --job-name=serve-policy
#SBATCH --output=RUN_DIR/logs/serve_%j.log
#SBATCH --time=30
# start the model server for the evals (it keeps running in the background)
echo "serving CHECKPOINT on $(hostname)"
rm -f RUN_DIR/server_url
srun --ntasks=1 GP_BIN serve-policy --port 0 --ready-file RUN_DIR/server_url --checkpoint CHECKPOINT --latency-ms 300 &
for i in $(seq 30); do [ -s RUN_DIR/server_url ] && break; sleep 1; done
cp RUN_DIR/server_url RUN_DIR/model_url.txt   # for the eval scripts
echo "model server up at $(cat RUN_DIR/model_url.txt)"
"""


@case(
    "model_serving_slurm_server_backgrounded_in_batch_job_that_ended",
    "model_serving",
    ["serve.sbatch"],
    "the user's serve.sbatch starts the model server as a background job step (`srun ... &`) and ends as soon as "
    "the server is up; when a batch script ends, Slurm ends the job and kills its steps, so the server was gone a moment after "
    "printing its URL and the collection run against that URL found nothing listening",
)
def model_serving_slurm_server_backgrounded_in_batch_job_that_ended(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 6, 0)
    (run / "logs").mkdir(exist_ok=True)
    (run / "serve.sbatch").write_text(SERVE_SBATCH.replace("RUN_DIR", str(run)).replace("GP_BIN", str(GP)).replace(
        "CHECKPOINT", str(better)))
    job_file = ctx.work / "job"
    code = ctx.sh(f"sbatch --parsable {run}/serve.sbatch | tee {job_file}", "logs/submit.log")
    job = text_of(job_file).strip().split(";")[0]
    if code or not job:
        raise failed(ctx, f"sbatch exit {code}")
    slurm_wait(ctx, job)
    ctx.sh(f"squeue -j {job}; scontrol show job {job} 2>&1 | grep -E 'JobState|ExitCode' || true", "logs/submit.log")
    url = text_of(run / "model_url.txt").strip()
    if not url:
        raise failed(ctx, "the server never wrote its URL")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# eval against the server started by serve.sbatch\n"
                      f"cd {run}\nMODEL_URL=$(cat model_url.txt)\necho \"model server: $MODEL_URL\"\n"
                      + "\n".join(pipeline_lines("string_match.jsonl", 3, "$MODEL_URL", 4)) + "\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if got == 18:
        raise failed(ctx, f"exit {code}: the server survived the job")
    return (f"RUN/serve.sbatch (server started as a background `srun` step of a batch job) submitted as job {job}, which ended; "
            f"RUN/run_eval.sh (materialize 6 x 3, collect, profile against RUN/model_url.txt) exit {code}, {got} of 18 "
            "rollouts.")


WATCHDOG = """#!/bin/bash
# keep the model server up: restart it whenever its health check fails
PORT=$1
CKPT=$2
MODEL_URL=http://127.0.0.1:$PORT/v1
start() {
  GP_BIN serve-policy --port $PORT --checkpoint $CKPT --latency-ms 400 &
  PID=$!
}
start
sleep 4
while true; do
  if ! curl -sf --max-time 2 $MODEL_URL/health > /dev/null; then
    echo "$(date +%T) health check of $MODEL_URL/health failed: restarting the model server (pid $PID)"
    kill $PID; wait $PID
    start
    sleep 4
  fi
  sleep 1
done
"""


@case(
    "model_serving_builtin_watchdog_restarts_healthy_server_on_wrong_health_path",
    "model_serving",
    ["serve_with_watchdog.sh", "/health"],
    "the user's serve_with_watchdog.sh restarts the model server whenever `curl $MODEL_URL/health` fails, but "
    "MODEL_URL ends in /v1 and the server's health route is /health at the root, so the check always gets 404: the "
    "watchdog killed and restarted a healthy server every few seconds, and the collection's requests met refused and "
    "dropped connections until many rollouts were given up",
)
def model_serving_builtin_watchdog_restarts_healthy_server_on_wrong_health_path(ctx: Ctx) -> str:
    from gym_pipeline.host import free_loopback_port

    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 10, 30)
    port = free_loopback_port()
    (run / "serve_with_watchdog.sh").write_text(WATCHDOG.replace("GP_BIN", str(GP)))
    ctx.bg(f"cd {run} && bash serve_with_watchdog.sh {port} {better}", "logs/model_server.log")
    url = f"http://127.0.0.1:{port}/v1"
    wait_for(lambda: "SIMULATED_POLICY_READY" in text_of(run / "logs" / "model_server.log"), 30, "the server")
    code = ctx.sh(f"( cd {run} && " + " && ".join(pipeline_lines("string_match.jsonl", 3, url, 2)) + " )",
                  "logs/run_eval.log", timeout=500)
    time.sleep(8)  # the user looks at the server's log before stopping it
    got = len(unique_keys(run / "rollouts.jsonl"))
    restarts = text_of(run / "logs" / "model_server.log").count("restarting the model server")
    if got >= 30 or restarts < 2:
        raise failed(ctx, f"exit {code}, {got}, {restarts} restarts")
    return (f"RUN/serve_with_watchdog.sh (health check on $MODEL_URL/health) restarted the server {restarts} times; "
            f"materialize 10 tasks x 3, collect (concurrency 2), profile: exit {code}, {got} of 30 rollouts.")


if __name__ == "__main__":
    sys.exit(main("twenty_third_held_out", __file__, __doc__))
