"""Build the TWENTY-SIXTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/twenty_sixth_held_out.py --out tests/data/diagnosis_corpus/twenty_sixth_held_out [--only CASE ...]

This set was written from the guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder
troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests
or their results. It is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
workspace verifiers, task folders run in Docker sandboxes, Slurm batch jobs, the real NeMo Gym 0.7.0 (`gym env
start` / `gym eval run` / `gym eval profile` inside a loopback-only network namespace, with a user's own resources
server), and the user's own shell scripts, Makefiles, settings files, helper servers and data-preparation scripts. The
output of every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written
by hand but the user's own inputs (data, scripts, settings, verifier code). Each case injects one cause, different in
mechanism from those of the twenty-five earlier sets, and each recipe checks that its fault really happened (it raises
RecipeError otherwise, and the case is not written). About half of the failures are silent: every command exits 0
and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare,
mount), Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this checkout. Run it from a foreground shell.
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import (  # noqa: E402
    agent_args,
    checkpoints,
    failed,
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
from twenty_fifth_held_out import job_logs, task_rows  # noqa: E402
from twenty_fourth_held_out import gym_eval_line, gym_profile_line, keep_server_code  # noqa: E402
from twenty_second_held_out import pipeline_lines, response_text  # noqa: E402
from twenty_third_held_out import final_answer, prompt_of, taskset_script, write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def gym_run(ctx: Ctx, data_name: str, script_lines: list[str], overrides: str, log: str = "logs/run_eval.log",
            repeats: int = 3, concurrency: int = 4) -> int:
    """RUN/run_eval.sh: `script_lines`, then `gym eval run --no-serve` of RUN/DATA_NAME and `gym eval profile`."""
    script = ctx.run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval\n" + f"cd {ctx.run}\n" + "".join(line + "\n" for line in script_lines)
                      + f"{gym_eval_line(overrides, data_name, 'results/rollouts.jsonl', repeats, concurrency)}\n"
                      + f"{gym_profile_line('results')}\n")
    return ctx.sh(f"bash {script}", log, timeout=500)


def free_port() -> int:
    from gym_pipeline.host import free_loopback_port

    return free_loopback_port()


def start_helper(ctx: Ctx, name: str, source: str, args: str, ready_word: str) -> object:
    """The user's own helper server RUN/NAME (a gateway, a mock), started in the background from RUN."""
    (ctx.run / name).write_text(source)
    process = ctx.bg(f"cd {ctx.run} && python3 {name} {args}", f"logs/{name.removesuffix('.py')}.log")
    wait_for(lambda: ready_word in text_of(ctx.run / "logs" / f"{name.removesuffix('.py')}.log"), 20, name)
    return process


def slurm_script(template: str, ctx: Ctx, **values: str) -> str:
    text = template.replace("RUN_DIR", str(ctx.run)).replace("GP_BIN", str(GP))
    for key, value in values.items():
        text = text.replace(key, value)
    return text


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_builtin_run_script_kills_its_log_follower_at_the_end",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh starts `tail -f logs/model_server.log &` to watch the server while it "
    "runs and ends with `kill $TAIL; wait $TAIL`, so the script's exit status is 143 (that of the killed tail, "
    "128 + SIGTERM) and its log is interleaved with server lines, but materialize, collect and profile had all completed every rollout",
)
def healthy_builtin_run_script_kills_its_log_follower_at_the_end(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 30)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval; follows the model server's log while it runs\n"
                      f"cd {run}\ntail -n 0 -f logs/model_server.log &\nTAIL=$!\n"
                      + "\n".join(pipeline_lines("string_match.jsonl", 3, url, 4)) + "\n"
                      "echo \"== eval done, stopping the log follower\"\nkill $TAIL\nwait $TAIL\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code != 143 or got != 24 or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (a background `tail -f` of the server log, materialize 8 tasks x 3, collect, profile, "
            f"then kill + wait of the tail) exit {code}; {got} rollouts, mean reward "
            f"{mean(rewards(rows_of(run / 'rollouts.jsonl'))):.2f}.")


@case(
    "healthy_gym_preflight_imports_torch_missing_from_cpu_eval_environment",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh starts with a GPU check copied from the training scripts, `python3 -c "
    "'import torch; print(torch.cuda.is_available())'`, which fails with a ModuleNotFoundError traceback (the eval "
    "machine's Python has no torch, and the eval needs none); the real NeMo Gym eval then collected, verified and "
    "profiled every rollout",
    netns=True,
)
def healthy_gym_preflight_imports_torch_missing_from_cpu_eval_environment(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=40, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["echo \"== GPU check\"",
                                        "python3 -c 'import torch; print(\"cuda:\", torch.cuda.is_available())'"],
                   overrides)
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if code or got != 18 or not in_log(ctx, "No module named 'torch'", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (`import torch` check that fails, "
            f"`gym eval run --no-serve` 6 tasks x 3, `gym eval profile`) exit {code}, {got} rollouts, mean reward "
            f"{mean(rewards(rows_of(run / 'results' / 'rollouts.jsonl'))):.2f}.")


@case(
    "healthy_taskfolder_script_checks_rollouts_jsonl_with_json_tool",
    "healthy",
    [],
    "nothing is wrong: the user's run_tasks.sh ends with `python3 -m json.tool rollouts.jsonl` as a 'is the output "
    "valid JSON' check; json.tool reads the whole file as one JSON document, so a JSON Lines file fails with 'Extra "
    "data: line 2 column 1' and the script exits 1, but every episode of the taskset ran, was verified and profiled",
)
def healthy_taskfolder_script_checks_rollouts_jsonl_with_json_tool(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["csv-column-total", "sort-unique-words"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    script.write_text(script.read_text() + "echo '== checking that rollouts.jsonl is valid JSON'\n"
                      "python3 -m json.tool rollouts.jsonl > /dev/null && echo 'rollouts.jsonl: valid'\n")
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    if code != 1 or len(unique_keys(run / "rollouts.jsonl")) != 4 or not in_log(ctx, "Extra data", "logs/run_tasks.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile of RUN/tasks x 2, then `python3 -m "
            f"json.tool rollouts.jsonl`) exit {code}; rewards {rewards(got)}.")


DF_SBATCH = """#!/bin/bash
#SBATCH --job-name=nightly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
cd RUN_DIR
echo "nightly eval on $(hostname)"
echo "== scratch usage"
df -h /scratch/$USER
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 4
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""

SUBMIT_WAIT = """#!/bin/bash
cd RUN_DIR
JOB=$(sbatch --parsable SBATCH_FILE)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
"""


@case(
    "healthy_slurm_job_reports_usage_of_scratch_path_missing_on_node",
    "healthy",
    [],
    "nothing is wrong: the user's nightly.sbatch prints the usage of their scratch folder with `df -h "
    "/scratch/$USER` (a habit from the old cluster); this node has no /scratch, so df prints 'No such file or "
    "directory', but the job runs everything in the run folder and materialized, collected and profiled every "
    "rollout",
)
def healthy_slurm_job_reports_usage_of_scratch_path_missing_on_node(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 52)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "nightly.sbatch").write_text(slurm_script(DF_SBATCH, ctx, MODEL_URL=url))
    (run / "submit.sh").write_text(slurm_script(SUBMIT_WAIT, ctx, SBATCH_FILE="nightly.sbatch"))
    code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    logs = job_logs(ctx, "eval_*.log")
    if code or got != 24 or "No such file" not in logs or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {logs[-500:]}")
    return (f"RUN/submit.sh (sbatch of RUN/nightly.sbatch: `df -h /scratch/$USER`, materialize 8 x 3, collect, "
            f"profile) exit {code}; {got} rollouts.")


# =====================================================================================================
# config
# =====================================================================================================

PHONY_MAKEFILE = """# Makefile of the weekly eval: `make eval`
.PHONY: all
REPEATS := 3
CONCURRENCY := 4
MODEL_URL := URL_HERE
GP := GP_BIN

all: eval

eval:
\t$(GP) materialize --input string_match.jsonl --num-repeats $(REPEATS) --agent string_match_simple_agent \\
\t  --output rollouts_materialized_inputs.jsonl
\t$(GP) collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $(MODEL_URL) \\
\t  --env string_match --concurrency $(CONCURRENCY)
\t$(GP) profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""

SUMMARIZE = '''"""eval/summarize.py: the team's summary of a run folder's profile"""
import json
import os

path = "rollouts_reward_profiling.jsonl"
if not os.path.exists(path):
    print("summarize.py: no profile in this folder yet")
else:
    rows = [json.loads(line) for line in open(path) if line.strip()]
    print(f"summarize.py: {len(rows)} tasks profiled")
'''


@case(
    "config_builtin_makefile_eval_target_shadowed_by_eval_folder",
    "config",
    ["Makefile", ".PHONY"],
    "the user's Makefile runs the whole eval in a target named `eval` that is not declared .PHONY (only `all` is), "
    "and the run folder has a folder named eval/ (the team's helper scripts): make takes the folder for the "
    "target's file, finds it up to date and runs nothing, so `make eval` exits 0 without materializing, collecting "
    "or profiling anything (everything exits 0)",
)
def config_builtin_makefile_eval_target_shadowed_by_eval_folder(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 9)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "eval").mkdir()
    (run / "eval" / "summarize.py").write_text(SUMMARIZE)
    (run / "Makefile").write_text(PHONY_MAKEFILE.replace("URL_HERE", url).replace("GP_BIN", str(GP)))
    script = run / "run_eval.sh"
    script.write_text(f"#!/bin/bash\n# weekly eval\ncd {run}\nmake eval\npython3 eval/summarize.py\n"
                      "echo \"run_eval.sh: done\"\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    got = len(rows_of(run / "rollouts.jsonl"))
    if code or got or not in_log(ctx, "up to date", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return f"RUN/run_eval.sh (`make eval` with a folder RUN/eval and `eval` not .PHONY) exit {code}; {got} rollouts."


MISSING_DIR_SBATCH = """#!/bin/bash
#SBATCH --job-name=nightly-eval
#SBATCH --output=slurm_logs/eval_%j.out
#SBATCH --time=10
cd RUN_DIR
echo "nightly eval on $(hostname)"
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 4
"""


@case(
    "config_slurm_sbatch_output_in_missing_logs_folder",
    "config",
    ["slurm_logs", "--output"],
    "the user's nightly.sbatch sends the job's output to `--output=slurm_logs/eval_%j.out`, but the folder "
    "slurm_logs/ does not exist in the submit directory (the new run folder) and Slurm does not create it: the job "
    "could not open its output file and failed before running a line, leaving no log; the submit script then found "
    "no rollouts to profile",
)
def config_slurm_sbatch_output_in_missing_logs_folder(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 60)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "nightly.sbatch").write_text(slurm_script(MISSING_DIR_SBATCH, ctx, MODEL_URL=url))
    (run / "submit.sh").write_text(slurm_script(SUBMIT_WAIT, ctx, SBATCH_FILE="nightly.sbatch")
                                   + f"{GP} profile --inputs rollouts_materialized_inputs.jsonl "
                                     "--rollouts rollouts.jsonl\n")
    code = ctx.sh(f"bash {run}/submit.sh", "submit.log", timeout=300)
    got = len(rows_of(run / "rollouts.jsonl"))
    if not code or got or (run / "slurm_logs").exists() or (run / "rollouts_materialized_inputs.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/submit.sh (sbatch of RUN/nightly.sbatch with --output=slurm_logs/eval_%j.out, no slurm_logs/ "
            f"folder; then profile) exit {code}; {got} rollouts, no job log.")


@case(
    "config_gym_eval_limit_from_wc_l_includes_file_name",
    "config",
    ["wc -l", "--limit"],
    "the user's run_eval.sh sets `N=$(wc -l tasks.jsonl)` to evaluate every task and passes `--limit $N`; `wc -l "
    "FILE` prints the count followed by the file name, so the command became `--limit 6 tasks.jsonl` and `gym eval "
    "run` refused the stray argument: nothing was collected and the profile found no rollouts",
    netns=True,
)
def config_gym_eval_limit_from_wc_l_includes_file_name(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=14, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval of every task\n"
                      f"cd {run}\nN=$(wc -l tasks.jsonl)\necho \"weekly eval: $N tasks\"\n"
                      f"{gym_eval_line(overrides, 'tasks.jsonl', 'results/rollouts.jsonl', 3, 4)} --limit $N\n"
                      f"{gym_profile_line('results')}\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if got or not in_log(ctx, "tasks.jsonl tasks", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (`--limit $(wc -l tasks.jsonl)`, "
            f"`gym eval run --no-serve`, `gym eval profile`) exit {code}; {got} rollouts.")


# =====================================================================================================
# data_schema
# =====================================================================================================

PREP_SHEET = '''#!/usr/bin/env python3
"""answers.csv (the review sheet, exported from the spreadsheet) -> tasks.jsonl, the eval rows"""
import csv
import json
import sys

with open(sys.argv[1], newline="", encoding="utf-8") as sheet, open(sys.argv[2], "w") as out:
    count = 0
    for record in csv.DictReader(sheet):
        text = f"{record['question']} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": record["answer"].strip(), "extraction_mode": "final_answer",
               "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
        count += 1
print(f"prep_data.py: {count} rows -> {sys.argv[2]}")
'''

NUMERIC_QUESTIONS = [("How many sides does a hexagon have?", "6"), ("How many minutes are in two hours?", "120"),
                     ("What is 17 multiplied by 3?", "51"), ("How many days are in a leap year?", "366"),
                     ("What is the capital of Italy?", "Rome"), ("Which planet is known as the Red Planet?", "Mars")]


@case(
    "data_schema_gym_numeric_labels_keep_spreadsheet_text_apostrophe",
    "data_schema",
    ["answers.csv", "prep_data.py"],
    "the review sheet stored the numeric answers as text, and its CSV export (answers.csv) kept the spreadsheet's "
    "leading apostrophe on those cells ('6, '120, '51, '366); prep_data.py copies the cells into tasks.jsonl as they "
    "are, so the labels of every numeric task start with an apostrophe and the real NeMo Gym eval scored the model's "
    "right answers 0, while the word tasks score normally (everything exits 0)",
    netns=True,
)
def data_schema_gym_numeric_labels_keep_spreadsheet_text_apostrophe(ctx: Ctx) -> str:
    from twenty_second_held_out import question_row

    run = ctx.run
    truth = write_jsonl(ctx.work / "reviewed.jsonl", [question_row(q, a) for q, a in NUMERIC_QUESTIONS])
    better = checkpoints(ctx, "string_match", truth)[1]
    with open(run / "answers.csv", "w", newline="", encoding="utf-8") as sheet:
        writer = csv.writer(sheet)
        writer.writerow(["question", "answer"])
        writer.writerows((q, f"'{a}" if a.isdigit() else a) for q, a in NUMERIC_QUESTIONS)
    (run / "prep_data.py").write_text(PREP_SHEET)
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["python3 prep_data.py answers.csv tasks.jsonl"], overrides)
    stop_gym(ctx, env_start, policy)
    got = rows_of(run / "results" / "rollouts.jsonl")
    marked = [row for row in got if str(row.get("expected_answer", "")).startswith("'")]
    words = [row for row in got if not str(row.get("expected_answer", "")).startswith("'")]
    right = sum(final_answer(response_text(row)) == row["expected_answer"][1:] for row in marked)
    if code or len(got) != 18 or len(marked) != 12 or any(rewards(marked)) or right < 8 or not any(rewards(words)):
        raise failed(ctx, f"exit {code}, {len(got)}, {len(marked)}, {rewards(got)}, right {right}")
    return (f"RUN/answers.csv (numeric cells with a leading apostrophe) -> RUN/prep_data.py -> RUN/tasks.jsonl; real "
            f"NeMo Gym 0.7.0 (loopback-only namespace) RUN/run_eval.sh exit {code}; numeric tasks: {right} of "
            f"{len(marked)} rollouts answer right, every reward 0; word tasks mean reward {mean(rewards(words)):.2f}.")


PREP_TEMPLATE = '''#!/usr/bin/env python3
"""raw.jsonl (questions + answers) -> eval.jsonl; the prompt is put in the model's chat format here, as in the SFT
data pipeline, so that the eval sees exactly what the model was trained on"""
import json
import sys

TEMPLATE = "<|im_start|>system\\nYou are a helpful assistant.<|im_end|>\\n<|im_start|>user\\n{q}<|im_end|>\\n<|im_start|>assistant\\n"

rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
with open(sys.argv[2], "w") as out:
    for row in rows:
        content = row["responses_create_params"]["input"][0]["content"][0]
        content["text"] = TEMPLATE.format(q=content["text"])
        out.write(json.dumps(row) + "\\n")
print(f"prep_data.py: {len(rows)} rows -> {sys.argv[2]}")
'''


@case(
    "data_schema_builtin_prompts_prerendered_with_chat_template",
    "data_schema",
    ["prep_data.py", "<|im_start|>"],
    "the user's prep_data.py, copied from the SFT data pipeline, renders every prompt into the model's chat format "
    "(<|im_start|>system ... <|im_start|>assistant) before writing eval.jsonl; the rows are chat messages, which the "
    "server puts in the chat format itself, so the model sees a template inside its template, does not recognise the "
    "questions and answers nearly all of them wrong (everything exits 0)",
)
def data_schema_builtin_prompts_prerendered_with_chat_template(ctx: Ctx) -> str:
    run = ctx.run
    raw = ctx.dataset("string_match", 8, start=64, folder=run, name="raw.jsonl")
    better = checkpoints(ctx, "string_match", raw)[1]
    (run / "prep_data.py").write_text(PREP_TEMPLATE)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval\n"
                      f"cd {run}\npython3 prep_data.py raw.jsonl eval.jsonl\n"
                      + "\n".join(pipeline_lines("eval.jsonl", 3, url, 4)) + "\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    if code or len(got) != 24 or mean(rewards(got)) > 0.25 or "<|im_start|>" not in text_of(run / "eval.jsonl"):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/prep_data.py wraps every prompt in the chat template -> RUN/eval.jsonl; RUN/run_eval.sh (materialize "
            f"8 x 3, collect, profile, step_0200) exit {code}; mean reward {mean(rewards(got)):.2f}.")


SMART_QUOTES = [("Which country has Yamoussoukro as its capital?", "Côte d'Ivoire"),
                ("Which American painter is known for her large flower paintings such as Jimson Weed?",
                 "Georgia O'Keeffe"),
                ("Which Irish playwright wrote Juno and the Paycock?", "Sean O'Casey"),
                ("What is the capital of Kenya?", "Nairobi"),
                ("Which element has the chemical symbol Fe?", "Iron"),
                ("How many legs does a spider have?", "8")]

PREP_DOC = '''#!/usr/bin/env python3
"""questions.txt + answers.txt (copied out of the review document, one per line) -> tasks.jsonl"""
import json

questions = open("questions.txt", encoding="utf-8").read().splitlines()
answers = open("answers.txt", encoding="utf-8").read().splitlines()
with open("tasks.jsonl", "w") as out:
    for question, answer in zip(questions, answers):
        text = f"{question} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": answer.strip(), "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
print(f"prep_data.py: {len(questions)} questions -> tasks.jsonl")
'''


@case(
    "data_schema_builtin_labels_copied_from_review_document_with_curly_apostrophes",
    "data_schema",
    ["answers.txt", "prep_data.py"],
    "the labels were copied out of the review document, whose editor had turned every straight apostrophe into a "
    "typographic one (’): answers.txt holds Côte d’Ivoire, Georgia O’Keeffe, Sean O’Casey, and prep_data.py copies "
    "them into tasks.jsonl; the model writes the straight apostrophe, so those tasks score 0 on right answers while "
    "the others score normally (everything exits 0)",
)
def data_schema_builtin_labels_copied_from_review_document_with_curly_apostrophes(ctx: Ctx) -> str:
    from twenty_second_held_out import question_row

    run = ctx.run
    truth = write_jsonl(ctx.work / "reviewed.jsonl", [question_row(q, a) for q, a in SMART_QUOTES])
    better = checkpoints(ctx, "string_match", truth)[1]
    (run / "questions.txt").write_text("".join(q + "\n" for q, _ in SMART_QUOTES), encoding="utf-8")
    (run / "answers.txt").write_text("".join(a.replace("'", "\u2019") + "\n" for _, a in SMART_QUOTES),
                                     encoding="utf-8")
    (run / "prep_data.py").write_text(PREP_DOC)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# eval of the reviewed questions\n"
                      f"cd {run}\npython3 prep_data.py\n" + "\n".join(pipeline_lines("tasks.jsonl", 3, url, 4)) + "\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    curly = [row for row in got if "\u2019" in str(row.get("expected_answer", ""))]
    plain = [row for row in got if "\u2019" not in str(row.get("expected_answer", ""))]
    right = sum(final_answer(response_text(row)).lower() == row["expected_answer"].replace("\u2019", "'").lower()
                for row in curly)
    if code or len(got) != 18 or len(curly) != 9 or any(rewards(curly)) or right < 5 or not any(rewards(plain)):
        raise failed(ctx, f"exit {code}, {len(got)}, {len(curly)}, {rewards(got)}, right {right}")
    return (f"RUN/answers.txt (typographic apostrophes) -> RUN/prep_data.py -> RUN/tasks.jsonl; RUN/run_eval.sh "
            f"(materialize 6 x 3, collect, profile) exit {code}; apostrophe tasks: {right} of {len(curly)} rollouts "
            f"answer right, every reward 0; the others mean reward {mean(rewards(plain)):.2f}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

FUZZY_VERIFIER = '''
"""Forgiving comparison: the answer may have a typo (Mississipi for Mississippi) and still count."""
from difflib import SequenceMatcher


def _final_answer(text):
    low = text.lower()
    if "final answer:" in low:
        return text[low.rindex("final answer:") + len("final answer:"):].strip().rstrip(".")
    if "\\\\boxed{" in text:
        return text[text.rindex("\\\\boxed{") + 7:].split("}")[0].strip()
    return text.strip().splitlines()[-1] if text.strip() else ""


def score(row, response_text):
    answer = _final_answer(response_text).lower()
    expected = str(row["expected_answer"]).lower()
    return 1.0 if SequenceMatcher(None, answer, expected).ratio() >= 0.5 else 0.0
'''


@case(
    "verifier_runtime_stage_workspace_verifier_fuzzy_ratio_credits_wrong_numbers",
    "verifier_runtime",
    ["my_verifier", "SequenceMatcher"],
    "the user's workspace verifier (verifiers/my_verifier.py) forgives typos by crediting any answer whose "
    "difflib SequenceMatcher ratio to the label is at least 0.5; on short numeric labels that credits wrong numbers "
    "that share digits (6 for 36, 24 for 42), so the weaker checkpoint's wrong answers score 1 and the reward is "
    "inflated (everything exits 0)",
)
def verifier_runtime_stage_workspace_verifier_fuzzy_ratio_credits_wrong_numbers(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 12, start=0, folder=run, name="exact_answer.jsonl")
    weaker = checkpoints(ctx, "string_match", data)[0]
    url, _ = ctx.policy(weaker, "--latency-ms 20")
    sweep = workspace_sweep(ctx, "exact_answer", data, weaker, {"verifier": "my_verifier:score"},
                            FUZZY_VERIFIER, num_repeats=3, concurrency=4)
    codes = [stage(ctx, sweep, key, weaker, "exact_answer", *(served(url) if key == "collect" else ()))
             for key in ("materialize", "collect", "profile")]
    got = rows_of(run / "rollouts.jsonl")
    labels = {row["_ng_task_index"]: str(row.get("expected_answer", "")).lower()
              for row in rows_of(run / "rollouts_materialized_inputs.jsonl")}
    wrong_credited = sum(final_answer(response_text(row)).lower() != labels.get(row["_ng_task_index"])
                         and float(row.get("reward") or 0) == 1 for row in got)
    if any(codes) or len(got) != 36 or wrong_credited < 2:
        raise failed(ctx, f"codes {codes}, {len(got)}, {rewards(got)}, wrong credited {wrong_credited}")
    return (f"RUN/verifiers/my_verifier.py credits SequenceMatcher ratio >= 0.5; `gym-pipeline stage` materialize, "
            f"collect, profile (12 tasks x 3, step_0100) exit {codes}; {wrong_credited} rollouts with a wrong final "
            f"answer scored 1; mean reward {mean(rewards(got)):.2f}.")


LENGTH_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)
        # keep answers short: a small penalty per token of the response
        LENGTH_PENALTY = 0.01
        reward = max(0.0, reward - LENGTH_PENALTY * len(text))

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""


@case(
    "verifier_runtime_gym_verify_length_penalty_counts_characters",
    "verifier_runtime",
    ["app.py", "LENGTH_PENALTY"],
    "the user's concise_match resources server subtracts a length penalty `LENGTH_PENALTY * len(text)` meant as "
    "0.01 per token, but `len(text)` counts characters: a right answer of a hundred characters loses the whole "
    "reward, so the real NeMo Gym eval scored nearly every right answer 0 (everything exits 0)",
    netns=True,
)
def verifier_runtime_gym_verify_length_penalty_counts_characters(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=24, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    search = own_gym_server(ctx, "concise_match", LENGTH_VERIFY)
    keep_server_code(ctx, search, "concise_match")
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='concise_match')} "
                               f"{overrides}")
    ran = ctx.sh(f"cd {run} && {GYM} eval run --no-serve "
                 f"{agent_args(data, run / 'results' / 'rollouts.jsonl', 3, 4, 'concise_match_simple_agent')} "
                 f"++route_failures_to_sidecar=true {overrides}", "eval_run.log", timeout=400)
    prof = ctx.sh(f"cd {run} && {gym_profile_line('results')}", "eval_profile.log", timeout=300)
    stop_gym(ctx, env_start, policy)
    got = rows_of(run / "results" / "rollouts.jsonl")
    right = [row for row in got if row.get("extracted_answer") is not None
             and final_answer(response_text(row)).lower().strip() == str(row.get("expected_answer")).lower().strip()]
    if ran or prof or len(got) != 18 or len(right) < 6 or mean(rewards(right)) > 0.3:
        raise failed(ctx, f"exit {ran}/{prof}, {len(got)}, right {len(right)}, {rewards(got)}")
    return (f"A user's resources server concise_match (reward minus 0.01 x characters); real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) `gym eval run --no-serve` (6 tasks x 3) exit {ran}, profile exit {prof}; "
            f"{len(right)} rollouts with the right answer, their mean reward {mean(rewards(right)):.2f}.")


APPEND_TEST = """#!/bin/bash
# Writes the reward to /logs/verifier/reward.txt: one point per check passed.
cd /app
# check 1: the count
if test "$(tr -d "[:space:]" < /app/count.txt 2>/dev/null)" = "3"; then
  echo "PASS: count"
  echo 1 >> /logs/verifier/reward.txt
else
  echo "FAIL: count"
  echo 0 >> /logs/verifier/reward.txt
fi
# check 2: count.txt is a single line
if test "$(wc -l < /app/count.txt 2>/dev/null)" = "1"; then
  echo "PASS: one line"
  echo 1 >> /logs/verifier/reward.txt
else
  echo "FAIL: not one line"
  echo 0 >> /logs/verifier/reward.txt
fi
"""


@case(
    "verifier_runtime_taskfolder_test_sh_appends_one_reward_line_per_check",
    "verifier_runtime",
    ["test.sh", ">>"],
    "count-error-lines' tests/test.sh was extended to two checks, each appending its result with `echo 1 >> "
    "/logs/verifier/reward.txt`: reward.txt ends up with two lines ('1' and '1'), which is not one number, so no "
    "episode of the task got a reward even when the agent solved it",
)
def verifier_runtime_taskfolder_test_sh_appends_one_reward_line_per_check(ctx: Ctx) -> str:
    def edit(tasks: Path) -> None:
        (tasks / "count-error-lines" / "tests" / "test.sh").write_text(APPEND_TEST)

    tasks = user_taskset(ctx, ["count-error-lines", "json-version"], edit)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    counted = task_rows(ctx, "count-error-lines")
    scored = [row for row in counted if float(row.get("reward") or 0) > 0 and not row.get("failure_kind")]
    run_failures = ctx.run / "rollouts_failures.jsonl"
    if scored or not (counted or rows_of(run_failures)):
        raise failed(ctx, f"exit {code}, {len(counted)}, {rewards(counted)}")
    return (f"RUN/tasks/count-error-lines/tests/test.sh appends one line per check to reward.txt; RUN/run_tasks.sh "
            f"(`gym-pipeline stage` materialize, collect, profile, 2 tasks x 2) exit {code}; count-error-lines rows "
            f"{len(counted)}, rewards {rewards(counted)}; {len(rows_of(run_failures))} failure rows.")


# =====================================================================================================
# cache_resume
# =====================================================================================================


SHELL_SETTINGS = """# my shell settings (sourced by my scripts too)
set -o noclobber   # never overwrite a file by accident with >
alias ll='ls -l'
"""

PREP_WEEK = '''#!/usr/bin/env python3
"""this week's questions (export.jsonl from the review tool) -> the eval rows, on stdout"""
import json
import sys

rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
sys.stdout.writelines(json.dumps(row) + "\\n" for row in rows)
print(f"prep_data.py: {len(rows)} rows", file=sys.stderr)
'''


@case(
    "cache_resume_builtin_noclobber_keeps_last_weeks_tasks_file",
    "cache_resume",
    ["noclobber", "tasks.jsonl"],
    "the user's run_eval.sh sources their shell settings, which turn on `set -o noclobber`; the data step `python3 "
    "prep_data.py export.jsonl > tasks.jsonl` is then refused ('cannot overwrite existing file') because last week's "
    "tasks.jsonl is still in the folder, the script goes on, and this week's eval materialized, collected and "
    "profiled last week's questions",
)
def cache_resume_builtin_noclobber_keeps_last_weeks_tasks_file(ctx: Ctx) -> str:
    run = ctx.run
    old = ctx.dataset("string_match", 6, start=0, folder=run, name="tasks.jsonl")
    new = ctx.dataset("string_match", 6, start=50, folder=run, name="export.jsonl")
    better = checkpoints(ctx, "string_match", write_jsonl(ctx.work / "both.jsonl", rows_of(old) + rows_of(new)))[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "prep_data.py").write_text(PREP_WEEK)
    (run / "shell_settings.sh").write_text(SHELL_SETTINGS)
    ctx.note("(RUN/tasks.jsonl is last week's; RUN/export.jsonl holds this week's questions)")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval\n"
                      f"cd {run}\nsource shell_settings.sh\npython3 prep_data.py export.jsonl > tasks.jsonl\n"
                      + "\n".join(pipeline_lines("tasks.jsonl", 3, url, 4)) + "\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    this_week = {prompt_of(row) for row in rows_of(new)}
    stale = [row for row in rows_of(run / "rollouts_materialized_inputs.jsonl") if prompt_of(row) not in this_week]
    if code or len(got) != 18 or len(stale) != 18 or not in_log(ctx, "cannot overwrite", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, stale {len(stale)}")
    return (f"RUN/run_eval.sh (sources RUN/shell_settings.sh with noclobber; `prep_data.py > tasks.jsonl` refused; "
            f"materialize 6 x 3, collect, profile) exit {code}; all {len(stale)} materialized rows are last week's.")


MOCK_SERVER = '''"""mock_server.py: an OpenAI-style stand-in for trying the eval scripts without a GPU (answers 'TODO')"""
import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Mock(BaseHTTPRequestHandler):
    def _send(self, payload):
        data = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self._send({"object": "list", "data": [{"id": "sim-policy", "object": "model", "owned_by": "mock"}]})

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        self._send({"id": "mock-1", "object": "chat.completion", "created": int(time.time()),
                    "model": body.get("model", "sim-policy"),
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": "TODO"},
                                 "finish_reason": "stop"}],
                    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})


if __name__ == "__main__":
    print(f"mock_server.py on 127.0.0.1:{sys.argv[1]}", flush=True)
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Mock).serve_forever()
'''

RESUME_SCRIPT = """#!/bin/bash
# usage: run_eval.sh MODEL_URL   (collects with --resume, so a preempted run picks up where it stopped)
cd RUN_DIR
URL=$1
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $URL \\
  --env string_match --concurrency 4 --resume
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "cache_resume_builtin_dry_run_against_mock_server_resumed_by_real_run",
    "cache_resume",
    ["mock_server.py", "--resume"],
    "the user tried run_eval.sh first against mock_server.py (a stand-in that answers 'TODO') in the same run "
    "folder; the script always collects with --resume, so the real run against the model server found every "
    "rollout already settled by the dry run and sent the model nothing: the profile is the mock's, every reward 0 "
    "(everything exits 0)",
)
def cache_resume_builtin_dry_run_against_mock_server_resumed_by_real_run(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 36)
    url, _ = ctx.policy(better, "--latency-ms 20")
    port = free_port()
    mock = start_helper(ctx, "mock_server.py", MOCK_SERVER, str(port), "mock_server.py on")
    (run / "run_eval.sh").write_text(slurm_script(RESUME_SCRIPT, ctx))
    ctx.note("(a dry run of the scripts against the mock)")
    dry = ctx.sh(f"bash {run}/run_eval.sh http://127.0.0.1:{port}/v1", "logs/run_eval_dry_run.log", timeout=300)
    ctx.stop(mock)
    ctx.note("(the real run against the model server)")
    code = ctx.sh(f"bash {run}/run_eval.sh {url}", "logs/run_eval.log", timeout=300)
    got = rows_of(run / "rollouts.jsonl")
    todo = sum("TODO" in response_text(row) for row in got)
    if dry or code or len(unique_keys(run / "rollouts.jsonl")) != 24 or todo < 24 or any(rewards(got)):
        raise failed(ctx, f"exit {dry}/{code}, {len(got)}, todo {todo}, {rewards(got)}")
    return (f"RUN/run_eval.sh (materialize 8 x 3, collect --resume, profile) run against RUN/mock_server.py (exit "
            f"{dry}), then against the simulated policy (exit {code}); {todo} of {len(got)} rollouts are the mock's "
            f"'TODO', mean reward {mean(rewards(got)):.2f}.")


# =====================================================================================================
# model_serving
# =====================================================================================================

STREAM_GATEWAY = '''"""gateway.py: the team's gateway in front of the model server. It always streams the answer back (server-sent
events), so the latency dashboard can measure the time to the first token."""
import json
import sys
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

UPSTREAM = sys.argv[2]
ALWAYS_STREAM = True


class Gateway(BaseHTTPRequestHandler):
    def _upstream(self, body=None):
        request = urllib.request.Request(UPSTREAM + self.path, data=body, method=self.command,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=120) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def _send(self, status, data, kind="application/json"):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self._send(*self._upstream())

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        status, data = self._upstream(body)
        if status != 200 or not ALWAYS_STREAM or not self.path.endswith("/chat/completions"):
            return self._send(status, data)
        answer = json.loads(data)
        events = []
        for choice in answer["choices"]:
            chunk = {"id": answer["id"], "object": "chat.completion.chunk", "created": answer.get("created", 0),
                     "model": answer["model"], "choices": [{"index": choice["index"], "delta": choice["message"],
                                                           "finish_reason": choice.get("finish_reason")}]}
            events.append("data: " + json.dumps(chunk) + "\\n\\n")
        events.append("data: [DONE]\\n\\n")
        self._send(200, "".join(events).encode(), "text/event-stream")


if __name__ == "__main__":
    print(f"gateway.py on 127.0.0.1:{sys.argv[1]} -> {UPSTREAM} (always streaming: {ALWAYS_STREAM})", flush=True)
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Gateway).serve_forever()
'''


@case(
    "model_serving_taskfolder_gateway_answers_every_completion_as_event_stream",
    "model_serving",
    ["gateway.py", "ALWAYS_STREAM"],
    "the taskset run reaches the model server through the team's gateway.py, which answers every chat completion "
    "as a server-sent event stream (ALWAYS_STREAM, for the latency dashboard) even when the request did not ask to "
    "stream: the agent's client expects one JSON completion, cannot read the 'data: ...' body, and no episode got a "
    "model turn",
)
def model_serving_taskfolder_gateway_answers_every_completion_as_event_stream(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["count-error-lines", "top-word"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    port = free_port()
    start_helper(ctx, "gateway.py", STREAM_GATEWAY, f"{port} {url.removesuffix('/v1')}", "gateway.py on")
    script = taskset_script(ctx, tasks, checkpoint, f"http://127.0.0.1:{port}/v1", ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    scored = [row for row in got if float(row.get("reward") or 0) > 0]
    if scored:
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/gateway.py (ALWAYS_STREAM) in front of the simulated policy; RUN/run_tasks.sh (`gym-pipeline stage` "
            f"materialize, collect through the gateway, profile, 2 tasks x 2) exit {code}; {len(got)} rollouts, "
            f"rewards {rewards(got)}, {len(rows_of(run / 'rollouts_failures.jsonl'))} failure rows.")


FALLBACK_GATEWAY = '''"""gateway.py: the team's gateway in front of the model server. When the backend fails, the user gets a polite
fallback message instead of an error page (copied from the chat demo)."""
import json
import sys
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

UPSTREAM = sys.argv[2]
FALLBACK_REPLY = "Sorry, I can't answer that right now. Please try again in a moment."


class Gateway(BaseHTTPRequestHandler):
    def _send(self, status, data):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _forward(self, body=None):
        request = urllib.request.Request(UPSTREAM + self.path, data=body, method=self.command,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=120) as answer:
                return self._send(answer.status, answer.read())
        except urllib.error.HTTPError as error:
            if body is None or not self.path.endswith("/chat/completions"):
                return self._send(error.code, error.read())
            print(f"backend answered {error.code}: sending the fallback reply", flush=True)
        model = json.loads(body).get("model", "")
        fallback = {"id": f"fallback-{time.time_ns()}", "object": "chat.completion", "created": int(time.time()),
                    "model": model, "choices": [{"index": 0, "message": {"role": "assistant", "content": FALLBACK_REPLY},
                                                 "finish_reason": "stop"}],
                    "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}}
        self._send(200, json.dumps(fallback).encode())

    def do_GET(self):
        self._forward()

    def do_POST(self):
        self._forward(self.rfile.read(int(self.headers.get("Content-Length", 0))))


if __name__ == "__main__":
    print(f"gateway.py on 127.0.0.1:{sys.argv[1]} -> {UPSTREAM}", flush=True)
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Gateway).serve_forever()
'''


@case(
    "model_serving_gym_gateway_turns_backend_errors_into_fallback_replies",
    "model_serving",
    ["gateway.py", "FALLBACK_REPLY"],
    "the model server behind the team's gateway.py fails about half of its chat completions with 500, and the "
    "gateway, copied from the chat demo, answers each failure with a 200 completion holding FALLBACK_REPLY ('Sorry, "
    "I can't answer that right now...'): Gym never sees an error, never retries, and scores those rollouts 0 as "
    "wrong answers (everything exits 0)",
    netns=True,
)
def model_serving_gym_gateway_turns_backend_errors_into_fallback_replies(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=46, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30 --fault-rate 0.5 --fault-kinds 5xx --fault-seed 7",
                             log="policy_server.log")
    port = free_port()
    gateway = start_helper(ctx, "gateway.py", FALLBACK_GATEWAY, f"{port} {url.removesuffix('/v1')}", "gateway.py on")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(f'http://127.0.0.1:{port}/v1')} {overrides}")
    ran = ctx.sh(f"cd {run} && {gym_eval_line(overrides, 'tasks.jsonl', 'results/rollouts.jsonl', 3, 4)}",
                 "eval_run.log", timeout=400)
    prof = ctx.sh(f"cd {run} && {gym_profile_line('results')}", "eval_profile.log", timeout=300)
    stop_gym(ctx, env_start, gateway, policy)
    got = rows_of(run / "results" / "rollouts.jsonl")
    canned = [row for row in got if "try again in a moment" in response_text(row)]
    if ran or prof or len(got) != 18 or len(canned) < 4 or any(rewards(canned)):
        raise failed(ctx, f"exit {ran}/{prof}, {len(got)}, canned {len(canned)}, {rewards(got)}")
    return (f"RUN/gateway.py (FALLBACK_REPLY on backend errors) in front of a simulated policy failing half its "
            f"completions with 5xx; real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (6 x 3) "
            f"exit {ran}, profile exit {prof}; {len(canned)} of {len(got)} rollouts are the fallback reply, mean "
            f"reward {mean(rewards(got)):.2f}.")


# =====================================================================================================
# infra
# =====================================================================================================


HOSTNAME_SCRIPT = """#!/bin/bash
# weekly eval; the model server runs on this node and is reached by the node's name (as serve.sh prints it)
cd RUN_DIR
MODEL_URL=http://$(hostname):PORT/v1
echo "== model server at $MODEL_URL"
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $MODEL_URL \\
  --env string_match --concurrency 4
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "infra_builtin_node_renamed_without_hosts_entry_model_url_by_hostname",
    "infra",
    ["$(hostname)", "MODEL_URL"],
    "the eval node was renamed (its hostname is now gpu-eval-17) without an /etc/hosts or DNS entry for the new "
    "name; the user's run_eval.sh reaches the model server on this node as http://$(hostname):PORT/v1, the name does "
    "not resolve, and every request of the collect failed before reaching the server",
)
def infra_builtin_node_renamed_without_hosts_entry_model_url_by_hostname(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 12)
    url, _ = ctx.policy(better, "--latency-ms 20", )
    port = url.rsplit(":", 1)[1].split("/")[0]
    (run / "run_eval.sh").write_text(slurm_script(HOSTNAME_SCRIPT, ctx, PORT=port))
    ctx.note("(the node was renamed gpu-eval-17, no /etc/hosts entry: a private UTS namespace with that hostname)")
    code = ctx.sh(f"unshare -u bash -c 'hostname gpu-eval-17 && (getent hosts gpu-eval-17 || echo \"getent: no "
                  f"address for $(hostname)\") && bash {run}/run_eval.sh'", "logs/run_eval.log", timeout=400)
    got = [row for row in rows_of(run / "rollouts.jsonl") if row.get("response")]
    if got or not in_log(ctx, "gpu-eval-17", "logs/run_eval.log") or not in_log(ctx, "no address", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {len(got)}")
    return (f"RUN/run_eval.sh (model URL http://$(hostname):{port}/v1 on a node renamed gpu-eval-17 with no address "
            f"for the name; materialize 8 x 3, collect, profile) exit {code}; {len(got)} rollouts with a response, "
            f"{len(rows_of(run / 'rollouts_failures.jsonl'))} failure rows.")


LOGIN_SBATCH = """#!/bin/bash -l
#SBATCH --job-name=nightly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
# (template of the cluster: a login shell, so that the site profile is loaded)
cd RUN_DIR
echo "nightly eval on $(hostname), PATH=$PATH"
gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 4
gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "infra_slurm_login_shell_job_script_loses_activated_venv_path",
    "infra",
    ["bash -l", "PATH"],
    "the user submits from a shell with the project's venv activated and calls `gym-pipeline` by name in the job, "
    "but the job script starts with `#!/bin/bash -l` (the cluster template): the login shell reads /etc/profile, "
    "which sets PATH afresh without the venv, so every gym-pipeline command in the job was 'command not found' and "
    "nothing was materialized, collected or profiled",
)
def infra_slurm_login_shell_job_script_loses_activated_venv_path(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 26)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "nightly.sbatch").write_text(slurm_script(LOGIN_SBATCH, ctx, MODEL_URL=url))
    (run / "submit.sh").write_text(slurm_script(SUBMIT_WAIT, ctx, SBATCH_FILE="nightly.sbatch"))
    ctx.note("(submitted from a shell where the project's venv is activated: its bin first on PATH)")
    code = ctx.sh(f"which gym-pipeline && bash {run}/submit.sh", "logs/submit.log", timeout=300)
    logs = job_logs(ctx, "eval_*.log")
    got = len(rows_of(run / "rollouts.jsonl"))
    if got or "command not found" not in logs:
        raise failed(ctx, f"exit {code}, {got}: {logs[-500:]}")
    return (f"RUN/submit.sh (sbatch of RUN/nightly.sbatch, a `#!/bin/bash -l` job calling gym-pipeline by name) exit "
            f"{code}; {got} rollouts; the job log says 'command not found'.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

PER_TASK_SCRIPT = """#!/bin/bash
# CI eval step (a 40 s budget): one collect per task, so that a bad task cannot take the others down
cd RUN_DIR
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
rm -rf chunks && mkdir chunks
split -l 3 -d rollouts_materialized_inputs.jsonl chunks/task_
timeout 40 bash -c '
for chunk in chunks/task_*; do
  echo "== $chunk"
  GP_BIN collect --inputs $chunk --output $chunk.rollouts.jsonl --model-url MODEL_URL --env string_match --concurrency 3
done'
echo "collect loop exited $?"
cat chunks/task_*.rollouts.jsonl > rollouts.jsonl
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "throughput_builtin_one_collect_per_task_loop_overruns_ci_budget",
    "throughput_resources",
    ["split", "for chunk"],
    "the user's run_eval.sh splits the materialized inputs into one file per task and runs `gym-pipeline collect` "
    "for each in turn (`for chunk in chunks/task_*`); each collect has only its task's 3 rollouts in flight and pays "
    "its own start-up, so 12 tasks against a model server taking 3 s per answer need about a minute, while the CI "
    "step's 40 s budget (`timeout 40`) stopped the loop part way: the profile is of the tasks done before",
)
def throughput_builtin_one_collect_per_task_loop_overruns_ci_budget(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 12, 40)
    url, _ = ctx.policy(better, "--latency-ms 3000")
    (run / "run_eval.sh").write_text(slurm_script(PER_TASK_SCRIPT, ctx, MODEL_URL=url))
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if not 3 <= got < 36 or not in_log(ctx, "collect loop exited 124", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (materialize 12 x 3, split per task, one collect per task in a loop under `timeout 40`, "
            f"server at 3 s per answer, then profile) exit {code}; {got} of 36 rollouts.")


SERVER_SBATCH = """#!/bin/bash
#SBATCH --job-name=policy-server
#SBATCH --output=RUN_DIR/logs/server_%j.log
#SBATCH --exclusive
#SBATCH --time=1
# the model server, as a job of its own (template copied from the GPU serving jobs)
GP_BIN serve-policy --checkpoint CHECKPOINT --port 0 --ready-file RUN_DIR/server.url --latency-ms 30
"""

COLLECT_SBATCH = """#!/bin/bash
#SBATCH --job-name=eval-collect
#SBATCH --output=RUN_DIR/logs/collect_%j.log
#SBATCH --cpus-per-task=1
#SBATCH --time=2
cd RUN_DIR
echo "collecting against $(cat server.url) on $(hostname)"
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $(cat server.url) \\
  --env string_match --concurrency 4
"""

TWO_JOBS_SUBMIT = """#!/bin/bash
# the server job, then the collect job against it; profile here when both are done
cd RUN_DIR
rm -f server.url
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
SERVER=$(sbatch --parsable server.sbatch)
echo "server job $SERVER"
while [ ! -s server.url ]; do sleep 1; done
echo "server up at $(cat server.url)"
COLLECT=$(sbatch --parsable collect.sbatch)
echo "collect job $COLLECT"
sleep 5
squeue -h -j $COLLECT -o "%i %T %r"
while squeue -h -j $SERVER,$COLLECT 2>/dev/null | grep -q .; do sleep 2; done
echo "jobs $SERVER and $COLLECT finished"
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "throughput_slurm_exclusive_server_job_holds_node_collect_job_waits_it_out",
    "throughput_resources",
    ["--exclusive", "server.sbatch"],
    "the user's server.sbatch, copied from the GPU serving jobs, asks for `--exclusive`: the model server's job "
    "holds the whole node, so the collect job stays pending for resources until the server job reaches its time "
    "limit; by the time the collect job runs the server has stopped (and removed its server.url), so the collect "
    "has no model to talk to and no rollout is collected",
)
def throughput_slurm_exclusive_server_job_holds_node_collect_job_waits_it_out(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 4)
    (run / "logs").mkdir(exist_ok=True)
    (run / "server.sbatch").write_text(slurm_script(SERVER_SBATCH, ctx, CHECKPOINT=str(better)))
    (run / "collect.sbatch").write_text(slurm_script(COLLECT_SBATCH, ctx))
    (run / "submit.sh").write_text(slurm_script(TWO_JOBS_SUBMIT, ctx))
    code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=500)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if got >= 12 or not in_log(ctx, "PENDING", "logs/submit.log") or "TIME LIMIT" not in job_logs(ctx, "server_*"):
        raise failed(ctx, f"exit {code}, {got}: {text_of(run / 'logs' / 'submit.log')[-600:]}")
    return (f"RUN/submit.sh (materialize 8 x 3, sbatch of RUN/server.sbatch with --exclusive --time=1, then of "
            f"RUN/collect.sbatch, then profile) exit {code}; the collect job pended until the server job's time limit; "
            f"{got} of 24 rollouts.")


if __name__ == "__main__":
    sys.exit(main("twenty_sixth_held_out", __file__, __doc__))
