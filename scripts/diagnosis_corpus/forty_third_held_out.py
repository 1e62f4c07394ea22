"""Build the FORTY-THIRD HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/forty_third_held_out.py --out tests/data/diagnosis_corpus/forty_third_held_out [--only CASE ...]

This set was written after the forty-two earlier sets (first_held_out.py ... forty_second_held_out.py), from the guides
alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
task folders run in Docker sandboxes, Slurm batch jobs, the real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` /
`gym eval profile` inside a loopback-only network namespace), and the user's own shell scripts, settings, serving
scripts, data-preparation scripts, workspace verifiers, collection scripts and task files. The output of every
command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the
user's own inputs (data, scripts, settings, verifier code). Each case injects one cause, different in mechanism from
those of the forty-two earlier sets, and each recipe checks that its fault really happened (it raises RecipeError
otherwise, and the case is not written). About half of the failures are silent: every command exits 0 and only the
result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare,
tc, mount), Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this checkout. Run it from a foreground shell.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import (  # noqa: E402
    checkpoints,
    failed,
    gym_start,
    own_collector,
    stop_gym,
    task_checkpoints,
    user_taskset,
    workspace_sweep,
)
from forty_first_held_out import answers, complete, gym_run_script, scancel_all, truth_checkpoints  # noqa: E402
from forty_second_held_out import workspace_script  # noqa: E402
from fourteenth_held_out import mean, rewards  # noqa: E402
from recipes import (  # noqa: E402
    GP,
    PY,
    Ctx,
    case,
    gym_model_args,
    main,
    materialize,
    profile_argv,
    rows_of,
    text_of,
    wait_for,
)
from tenth_held_out import in_log  # noqa: E402
from thirtieth_held_out import gym_rows  # noqa: E402
from thirty_fifth_held_out import mean_reward, pipeline  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_fifth_held_out import job_logs, task_rows  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_seventh_held_out import builtin_script  # noqa: E402
from twenty_sixth_held_out import free_port, gym_run, slurm_script  # noqa: E402
from twenty_third_held_out import taskset_script, write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


def log_of(ctx: Ctx, name: str) -> str:
    return text_of(ctx.run / "logs" / name)


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_builtin_run_script_sets_cpu_governor_where_sysfs_is_read_only",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh first asks for the 'performance' CPU frequency governor (`echo "
    "performance | tee /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor`), which this node does not let it "
    "set, so tee prints an error and the script goes on; materialize, collect and profile then completed every "
    "rollout",
)
def healthy_builtin_run_script_sets_cpu_governor_where_sysfs_is_read_only(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 2)
    url, _ = ctx.policy(better, "--latency-ms 30")
    script = builtin_script(ctx, [
        "# steadier timings: the performance governor (needs a node that lets us set it)",
        "echo performance | tee /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor > /dev/null "
        "|| echo 'could not set the CPU governor, going on'",
        "echo '== weekly eval'"], "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = complete(ctx)
    if code or got != 24 or not in_log(ctx, "scaling_governor': No such file", "logs/run_eval.log") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {log_of(ctx, 'run_eval.log')[-600:]}")
    return (f"RUN/run_eval.sh (`tee .../cpufreq/scaling_governor` refused, then materialize 8 x 3, collect, profile) "
            f"exit {code}; {got} rollouts, mean reward {mean_reward(run / 'rollouts.jsonl')}.")


# =====================================================================================================
# model_serving
# =====================================================================================================

SERVE_GLOB = """#!/bin/bash
# serve.sh CHECKPOINTS PORT: serve the step-2xx checkpoint of the training run (the one the weekly eval is for)
exec GP_BIN serve-policy --port $2 --checkpoint $1/step_02* --latency-ms 30
"""


@case(
    "model_serving_taskfolder_serve_script_checkpoint_glob_matches_two_steps_so_server_refuses_to_start",
    "model_serving",
    ["serve.sh", "--checkpoint", "step_02*"],
    "the team's serve.sh names the checkpoint with an unquoted glob (`--checkpoint $1/step_02*`), meant to match "
    "the one step-2xx checkpoint; this week the training run had written step_0200 and step_0250, the glob expanded "
    "to two folders, and the model server refused its arguments ('unrecognized arguments') and never started: the "
    "taskset run's collect could not reach the model endpoint and no episode produced a result",
)
def model_serving_taskfolder_serve_script_checkpoint_glob_matches_two_steps_so_server_refuses_to_start(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["create-greeting", "sort-unique-words"])
    better = task_checkpoints(ctx, tasks)[1]
    training = ctx.work / "training_run" / "checkpoints"
    training.mkdir(parents=True)
    ctx.sh(f"cp -r {better} {training}/step_0200 && cp -r {better} {training}/step_0250 && ls {training}",
           "logs/checkpoints.log")
    (run / "serve.sh").write_text(slurm_script(SERVE_GLOB, ctx))
    port = free_port()
    url = f"http://127.0.0.1:{port}/v1"
    server = ctx.bg(f"bash {run}/serve.sh {training} {port}", "logs/model_server.log")
    wait_for(lambda: server.poll() is not None or answers(url), 40, "serve.sh")
    script = taskset_script(ctx, tasks, better, url, ["echo '== weekly taskset run of step_0200'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = complete(ctx)
    if got or "unrecognized arguments" not in log_of(ctx, "model_server.log") or answers(url):
        raise failed(ctx, f"exit {code}, {got}: {log_of(ctx, 'model_server.log')[-500:]}")
    return (f"RUN/serve.sh (`--checkpoint $1/step_02*` with step_0200 and step_0250 present): the server exited on "
            f"its arguments; RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile of RUN/tasks x 2) "
            f"exit {code}; {got} rollouts, {len(rows_of(run / 'rollouts_failures.jsonl'))} failed attempts.")


# =====================================================================================================
# config
# =====================================================================================================

FUNC_LINES = [
    "prepare() {",
    "  set -e  # stop at the first failing step",
    "  cp exports/labels_$(date +%G-%V).csv labels.csv  # this week's labels from the annotation export",
    "  python3 prepare_data.py",
    "  echo \"prepared $(wc -l < string_match.jsonl) tasks\"",
    "}",
    "prepare || { echo 'preparing the data failed, stopping'; exit 1; }",
    "echo '== weekly eval'",
]

LABELS_PREP = '''"""prepare_data.py: labels.csv (question,answer) -> string_match.jsonl"""
import csv
import json

with open("labels.csv", encoding="utf-8", newline="") as f, open("string_match.jsonl", "w") as out:
    for item in csv.DictReader(f):
        text = item["question"] + " End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": item["answer"], "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
'''


@case(
    "config_builtin_run_script_relies_on_set_e_inside_function_called_with_or_so_failed_copy_is_ignored",
    "config",
    ["run_eval.sh", "set -e", "prepare ||"],
    "run_eval.sh's prepare() function relies on `set -e` to stop at a failing step, and is called as `prepare || "
    "{ ...; exit 1; }`; bash ignores set -e inside a command whose status is tested by ||, so when this week's "
    "label export was not there yet, the failed `cp exports/labels_<week>.csv labels.csv` did not stop anything: "
    "prepare_data.py rebuilt the tasks from last week's labels.csv, the eval ran on the old labels (the model's "
    "right answers to the three relabelled tasks scored 0), and every command exits 0",
)
def config_builtin_run_script_relies_on_set_e_inside_function_called_with_or_so_failed_copy_is_ignored(ctx: Ctx) -> str:
    run = ctx.run
    better = truth_checkpoints(ctx, [(q, a) for q, a, _ in CAPITALS_WRONG])[1]
    (run / "exports").mkdir()
    (run / "labels.csv").write_text("question,answer\n" + "".join(f'"{q}",{wrong or a}\n' for q, a, wrong in
                                                                  CAPITALS_WRONG), encoding="utf-8")
    ctx.note("(labels.csv: last week's labels, three of them wrong; this week's export is not in exports/ yet)")
    (run / "prepare_data.py").write_text(LABELS_PREP)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, FUNC_LINES, "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    fixed = {wrong: a for _, a, wrong in CAPITALS_WRONG if wrong}
    stale = [r for r in got if r.get("expected_answer") in fixed]
    right = [r for r in stale if str(r.get("extracted_answer")).lower() == fixed[r["expected_answer"]].lower()]
    if code or len(got) != 24 or not right or any(rewards(right)) \
            or not in_log(ctx, "cannot stat", "logs/run_eval.log") or in_log(ctx, "stopping", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, stale {len(stale)}, right {rewards(right)}")
    return (f"RUN/run_eval.sh (`prepare || ...` with `set -e` inside prepare(); its cp of this week's export failed, "
            f"then materialize 8 x 3, collect, profile) exit {code}; {len(stale)} rollouts on last week's labels, "
            f"{len(right)} right answers among them scored {rewards(right)}; mean reward {mean(rewards(got)):.2f}.")


FLOOR_LINES = [
    "REPEATS=${EVAL_REPEATS:-3}",
    "# per-task statistics need at least 4 repeats",
    "if [[ $REPEATS < 4 ]]; then",
    "  echo \"repeats $REPEATS below the minimum, using 4\"",
    "  REPEATS=4",
    "fi",
    "echo \"== weekly eval, $REPEATS repeats\"",
]


@case(
    "config_builtin_run_script_floors_repeats_with_string_comparison_in_double_brackets",
    "config",
    ["run_eval.sh", "[[ $REPEATS < 4 ]]", "-lt"],
    "the user's run_eval.sh enforces a minimum of 4 repeats with `[[ $REPEATS < 4 ]]`; inside [[ ]] `<` compares "
    "strings, not numbers, and '10' sorts before '4', so the run asked for with EVAL_REPEATS=10 was cut to 4 repeats "
    "per task: the profile has 4 rollouts per task where 10 were meant, and every command exits 0",
)
def config_builtin_run_script_floors_repeats_with_string_comparison_in_double_brackets(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 6, 38)
    url, _ = ctx.policy(better, "--latency-ms 10")
    script = builtin_script(ctx, FLOOR_LINES, "string_match.jsonl", url, repeats="$REPEATS", concurrency=8)
    code = ctx.sh(f"EVAL_REPEATS=10 bash {script}", "logs/run_eval.log", timeout=400)
    got = complete(ctx)
    if code or got != 24 or not in_log(ctx, "repeats 10 below the minimum", "logs/run_eval.log") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {log_of(ctx, 'run_eval.log')[-600:]}")
    return (f"`EVAL_REPEATS=10 bash RUN/run_eval.sh` (`[[ $REPEATS < 4 ]]` floor, then materialize 6 tasks, collect, "
            f"profile) exit {code}; {got} rollouts: 4 per task instead of 10.")


# =====================================================================================================
# data_schema
# =====================================================================================================

PAIRS = [("What is the capital of France?", "Paris"), ("What is 6 times 7?", "42"),
         ("What is the capital of Japan?", "Tokyo"), ("What is 9 plus 10?", "19"),
         ("Which planet is known as the Red Planet?", "Mars"), ("What is the capital of Italy?", "Rome"),
         ("What is 3 times 3?", "9"), ("What is the capital of Peru?", "Lima")]

HISTORY = [("In which century was the printing press invented? Answer with the century's number.", "15", "XV"),
           ("In which century did the French Revolution begin? Answer with the century's number.", "18", "XVIII"),
           ("Which Louis of France was known as the Sun King? Answer with his regnal number.", "14", "XIV"),
           ("In which century did the Western Roman Empire fall? Answer with the century's number.", "5", "V"),
           ("What is the capital of France?", "Paris", "Paris"), ("What is 6 times 7?", "42", "42"),
           ("What is the capital of Japan?", "Tokyo", "Tokyo"), ("What is 9 plus 10?", "19", "19")]

KEY_PREP = '''\"\"\"prepare_data.py: answer_key.csv (the history team's quiz key) -> string_match.jsonl\"\"\"
import csv
import json

with open("answer_key.csv", encoding="utf-8", newline="") as f, open("string_match.jsonl", "w") as out:
    for item in csv.DictReader(f):
        text = item["question"] + " End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": item["answer"], "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
'''


@case(
    "data_schema_builtin_history_answer_key_writes_centuries_and_regnal_numbers_in_roman_numerals",
    "data_schema",
    ["answer_key.csv", "roman numerals", "expected_answer"],
    "the history team's answer key writes centuries and regnal numbers the way historians do, in roman numerals "
    "('XV', 'XVIII', 'XIV', 'V'), while the questions ask for the number; prepare_data.py copied the key as it was, "
    "so the model's right answers ('15', '18', '14', '5') never matched and those tasks scored 0, while the other "
    "tasks scored normally (every command exits 0)",
)
def data_schema_builtin_history_answer_key_writes_centuries_and_regnal_numbers_in_roman_numerals(ctx: Ctx) -> str:
    run = ctx.run
    better = truth_checkpoints(ctx, [(q, a) for q, a, _ in HISTORY])[1]
    (run / "answer_key.csv").write_text("question,answer\n" + "".join(f'"{q}",{key}\n' for q, _, key in HISTORY),
                                        encoding="utf-8")
    (run / "prepare_data.py").write_text(KEY_PREP)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["echo '== weekly eval'", "python3 prepare_data.py"], "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    arabic = {key: a for _, a, key in HISTORY if key != a}
    roman = [r for r in got if r["expected_answer"] in arabic]
    right = [r for r in roman if str(r.get("extracted_answer")) == arabic[r["expected_answer"]]]
    plain = [r for r in got if r not in roman]
    if code or len(got) != 24 or not right or any(rewards(right)) or not any(rewards(plain)):
        raise failed(ctx, f"exit {code}, {len(got)}, right {rewards(right)}, plain {rewards(plain)}")
    return (f"RUN/answer_key.csv (labels {sorted(arabic)}) -> RUN/prepare_data.py -> string_match.jsonl; RUN/run_eval.sh "
            f"(materialize 8 x 3, collect, profile) exit {code}; {len(right)} right arabic answers to those tasks scored "
            f"{rewards(right)}, other tasks {rewards(plain)}.")

# =====================================================================================================
# verifier_runtime
# =====================================================================================================

BYTES_VERIFIER = '''"""my_verifier.py: exact answers after 'Final answer:'. Answers are normalised to NFC and
compared as UTF-8 bytes (models sometimes return decomposed accents)."""
import re
import unicodedata

FINAL = re.compile(r"final answer:\\s*(.+)", re.IGNORECASE)


def _normal(text):
    return unicodedata.normalize("NFC", text.strip().rstrip(".")).encode("utf-8")


def score(row, response_text):
    found = FINAL.findall(response_text)
    answer = _normal(found[-1]) if found else None
    reward = 1.0 if answer is not None and answer == row["expected_answer"].strip() else 0.0
    return {"reward": reward, "extracted_answer": answer.decode() if answer else None,
            "expected_answer": row["expected_answer"]}
'''


@case(
    "verifier_runtime_stage_workspace_verifier_compares_utf8_bytes_of_answer_with_str_label",
    "verifier_runtime",
    ["my_verifier.py", ".encode(", "bytes"],
    "the workspace verifier my_verifier.py normalises the model's answer to NFC and encodes it to UTF-8 bytes, then "
    "compares those bytes with the label, which is a str; in Python 3 bytes never equal str (b'Paris' != 'Paris'), "
    "so every answer, right or wrong, scored 0 without any error (every command exits 0)",
)
def verifier_runtime_stage_workspace_verifier_compares_utf8_bytes_of_answer_with_str_label(ctx: Ctx) -> str:
    run = ctx.run
    bundled = rows_of(recipes.DATA / "string_match.jsonl")
    rows = [row for row in bundled if row["extraction_mode"] == "final_answer"][10:18]
    data = write_jsonl(run / "exact_answer.jsonl", rows)
    better = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    sweep = workspace_sweep(ctx, "exact_answer", data, better, {"verifier": "my_verifier:score"}, BYTES_VERIFIER,
                            num_repeats=3, concurrency=4)
    script = workspace_script(ctx, sweep, better, "exact_answer", url, ["echo '== weekly eval'"])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    right = [r for r in got if str(r.get("extracted_answer")).lower() == str(r.get("expected_answer")).lower()]
    if code or len(got) != 24 or not right or any(rewards(got)):
        raise failed(ctx, f"exit {code}, {len(got)}, right {len(right)}, {rewards(got)}")
    return (f"RUN/verifiers/my_verifier.py (answer as UTF-8 bytes == label str); RUN/run_eval.sh (stages materialize "
            f"8 x 3, collect, profile) exit {code}; {len(right)} right answers, every reward {sorted(set(rewards(got)))}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

MYMATCH_OLD = '''"""mymatch: the team's answer matching for evals (last month: answers came after 'Answer:')."""
import re

from gym_pipeline.environments import StringMatchEnvironment

MARKER = re.compile(r"^answer:\\s*(.+)$", re.IGNORECASE | re.MULTILINE)


class Match(StringMatchEnvironment):
    def verify(self, row, response_text):
        found = MARKER.findall(response_text)
        answer = found[-1].strip().rstrip(".") if found else None
        reward = 1.0 if answer is not None and answer.lower() == row["expected_answer"].lower() else 0.0
        return {"reward": reward, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
'''

MYMATCH_SETUP = '''# mymatch 0.3: deployed for the evals with deploy_libs.sh
'''

DEPLOY = """#!/bin/bash
# deploy_libs.sh: copy the team's eval libraries into site/ (collect_eval.py runs with PYTHONPATH=site)
cd RUN_DIR
mkdir -p site
rm -rf site/mymatch && cp -r mymatch/mymatch site/ && echo "deployed mymatch $(date +%F) to site/"
"""

MYMATCH_COLLECTOR = """
from mymatch import Match
"""


@case(
    "cache_resume_builtin_collector_imports_deployed_copy_in_site_folder_not_the_fixed_package_source",
    "cache_resume",
    ["deploy_libs.sh", "site/mymatch", "PYTHONPATH"],
    "the team's answer-matching package mymatch is deployed for evals by deploy_libs.sh, which copies it into "
    "site/, and collect_eval.py runs with PYTHONPATH=site; last month's copy there still looks for 'Answer:'; the "
    "user fixed the package source (mymatch/mymatch/__init__.py) to the 'Final answer:' format but did not deploy "
    "it again, so the eval imported the old copy from site/ and every right answer scored 0 (every command exits 0)",
)
def cache_resume_builtin_collector_imports_deployed_copy_in_site_folder_not_the_fixed_package_source(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 48)
    package = run / "mymatch"
    (package / "mymatch").mkdir(parents=True)
    (package / "mymatch" / "__init__.py").write_text(MYMATCH_OLD)
    (package / "README").write_text(MYMATCH_SETUP)
    (run / "deploy_libs.sh").write_text(slurm_script(DEPLOY, ctx))
    ctx.note("(last month: the team's libraries deployed for the evals)")
    code = ctx.sh(f"bash {run}/deploy_libs.sh", "logs/deploy_libs.log", timeout=300)
    if code:
        raise failed(ctx, f"deploy exit {code}: {log_of(ctx, 'deploy_libs.log')[-600:]}")
    ctx.note("(this week: the user fixed the marker in the package source)")
    ctx.sh(r"sed -i 's/\^answer:/final answer:/; s/ | re.MULTILINE//' mymatch/mymatch/__init__.py && "
           "grep -n 'MARKER =' mymatch/mymatch/__init__.py", "logs/fix_mymatch.log", cwd=run)
    url, _ = ctx.policy(better, "--latency-ms 20")
    materialize(ctx, data, 3, "string_match")
    script = own_collector(ctx, "collect_eval.py", MYMATCH_COLLECTOR, "Match()")
    env = {**ctx.env, "PYTHONPATH": f"{run}/site:{ctx.env.get('PYTHONPATH', '')}".rstrip(":")}
    ctx.note("export PYTHONPATH=RUN/site (the team's eval setup)")
    ran = ctx.sh(f"{PY} {script} {run}/rollouts_materialized_inputs.jsonl {run}/rollouts.jsonl {url}",
                 "logs/collect.log", timeout=400, env=env)
    prof = ctx.sh(" ".join(profile_argv(run)), "logs/profile.log")
    got = rows_of(run / "rollouts.jsonl")
    said = [r for r in got if f"Final answer: {r['expected_answer']}".lower() in json.dumps(r.get("response")).lower()]
    if ran or prof or len(got) != 24 or any(rewards(got)) or "final answer:" not in text_of(
            package / "mymatch" / "__init__.py") or "^answer:" not in text_of(run / "site" / "mymatch" / "__init__.py"):
        raise failed(ctx, f"collect {ran}, profile {prof}, {len(got)}, {rewards(got)}")
    return (f"RUN/mymatch (fixed to 'Final answer:') vs RUN/site/mymatch (last month's deployed copy, "
            f"'Answer:'); RUN/collect_eval.py with PYTHONPATH=RUN/site exit {ran}, profile exit {prof}; {len(got)} "
            f"rollouts, {len(said)} of them with the right answer after 'Final answer:', all scored "
            f"{sorted(set(rewards(got)))}.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

SERVE_SLOTS = """#!/bin/bash
# serve.sh CHECKPOINT PORT: the team's model server; batch slots sized from the KV-cache budget of the node
KV_CACHE_GB=7        # what is left on this node after the weights
GB_PER_SEQUENCE=4    # long-context sequences
SLOTS=$(( KV_CACHE_GB / GB_PER_SEQUENCE ))
echo "serve.sh: $SLOTS batch slots"
exec GP_BIN serve-policy --port $2 --checkpoint "$1" --latency-ms 400 --max-running $SLOTS
"""


@case(
    "throughput_builtin_serve_script_sizes_batch_slots_with_integer_division_that_rounds_down_to_one",
    "throughput_resources",
    ["serve.sh", "--max-running", "SLOTS"],
    "the team's serve.sh sizes the model server's batch slots as `$(( KV_CACHE_GB / GB_PER_SEQUENCE ))`; shell "
    "arithmetic is integer division, 7 / 4 is 1, so the server generated one sequence at a time and queued the "
    "rest ('Running: 1 reqs, Waiting: 7 reqs') while the eval sent 8 at once: 32 rollouts of 400 ms each took far "
    "longer than the CI's 8 s budget, which killed run_eval.sh with rollouts missing; the profile never ran",
)
def throughput_builtin_serve_script_sizes_batch_slots_with_integer_division_that_rounds_down_to_one(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 58)
    (run / "serve.sh").write_text(slurm_script(SERVE_SLOTS, ctx))
    port = free_port()
    url = f"http://127.0.0.1:{port}/v1"
    ctx.bg(f"bash {run}/serve.sh {better} {port}", "logs/model_server.log")
    wait_for(lambda: answers(url), 40, "serve.sh's model server")
    script = builtin_script(ctx, ["echo '== weekly eval'"], "string_match.jsonl", url, repeats=4, concurrency=8)
    began = time.monotonic()
    code = ctx.sh(f"timeout 8 bash {script}", "logs/run_eval.log", timeout=400)
    took = time.monotonic() - began
    got = complete(ctx)
    if code == 0 or got >= 32 or (run / "rollouts_reward_profiling.jsonl").exists() \
            or not in_log(ctx, "Waiting: 7 reqs", "logs/model_server.log") \
            or not in_log(ctx, "1 batch slots", "logs/model_server.log"):
        raise failed(ctx, f"exit {code}, {got} in {took:.0f} s")
    return (f"RUN/serve.sh (`--max-running $(( 7 / 4 ))` = 1, 400 ms per reply); `timeout 8 bash RUN/run_eval.sh` "
            f"(materialize 8 x 4, collect --concurrency 8, profile) exit {code} after {took:.0f} s; {got} of 32 "
            f"rollouts, no profile.")

# =====================================================================================================
# the real NeMo Gym 0.7.0 (each in a loopback-only network namespace)
# =====================================================================================================

NOTIFY_LINES = [
    "echo '== weekly eval'",
    "# a desktop notice when the eval starts (when run from the workstation)",
    "notify-send 'weekly eval started' || echo 'no desktop notifications here'",
]


@case(
    "healthy_gym_run_script_sends_desktop_notice_with_notify_send_not_installed_on_node",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh, written on their workstation, sends a desktop notice with "
    "`notify-send` when the eval starts; the eval node has no desktop tools ('notify-send: command not found') and "
    "the script goes on; the real NeMo Gym eval then collected, verified and profiled every rollout",
    netns=True,
)
def healthy_gym_run_script_sends_desktop_notice_with_notify_send_not_installed_on_node(ctx: Ctx) -> str:
    run = ctx.run
    ctx.dataset("string_match", 8, start=4, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", run / "tasks.jsonl")[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", NOTIFY_LINES, overrides)
    stop_gym(ctx, env_start, policy)
    got = complete_in(ctx, "results")
    if code or got != 24 or not in_log(ctx, "notify-send: command not found", "logs/run_eval.log") \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (`notify-send` not found, then "
            f"`gym eval run --no-serve` 8 tasks x 3 and `gym eval profile`) exit {code}; {got} rollouts, mean reward "
            f"{mean(rewards(gym_rows(ctx))):.2f}.")


def complete_in(ctx: Ctx, folder: str) -> int:
    return len({(r["_ng_task_index"], r["_ng_rollout_index"]) for r in rows_of(ctx.run / folder / "rollouts.jsonl")})


SHAPING_NOTE = ("(two weeks ago a bandwidth test on this node capped loopback traffic to the model port: `tc qdisc add dev "
                "lo root handle 1: htb default 20; tc class add dev lo parent 1: classid 1:10 htb rate 1kbit; tc class "
                "add dev lo parent 1: classid 1:20 htb rate 10gbit; tc filter add dev lo parent 1: protocol ip prio 1 "
                "u32 match ip dport MODEL_PORT 0xffff flowid 1:10`; nobody removed it)")


@case(
    "infra_gym_htb_bandwidth_cap_left_on_loopback_model_port_from_a_bandwidth_test",
    "infra",
    ["tc qdisc", "htb", "dev lo"],
    "a bandwidth test two weeks ago left an htb traffic-shaping rule on the node's loopback that caps everything "
    "sent to the model server's port at 1 kbit/s (tc ... htb rate 1kbit with a u32 filter on the port); each "
    "request from Gym's model proxy carries the whole prompt as JSON, so sending it took seconds though the server "
    "answers in 30 ms: the real NeMo Gym eval crawled and the CI's 60 s budget killed run_eval.sh with rollouts "
    "missing and no profile",
    netns=True,
)
def infra_gym_htb_bandwidth_cap_left_on_loopback_model_port_from_a_bandwidth_test(ctx: Ctx) -> str:
    run = ctx.run
    ctx.dataset("string_match", 8, start=12, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", run / "tasks.jsonl")[1]
    port = free_port()
    url = f"http://127.0.0.1:{port}/v1"
    ctx.note(SHAPING_NOTE.replace("MODEL_PORT", str(port)))
    for rule in ("qdisc add dev lo root handle 1: htb default 20",
                 "class add dev lo parent 1: classid 1:10 htb rate 1kbit",
                 "class add dev lo parent 1: classid 1:20 htb rate 10gbit",
                 f"filter add dev lo parent 1: protocol ip prio 1 u32 match ip dport {port} 0xffff flowid 1:10"):
        done = subprocess.run(["tc", *rule.split()], capture_output=True, text=True)
        if done.returncode:
            raise failed(ctx, f"tc {rule}: {done.stderr}")
    policy = ctx.bg(f"{GP} serve-policy --port {port} --checkpoint {better} --latency-ms 30", "policy_server.log")
    wait_for(lambda: answers(url, 20), 90, "the model server")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    script = gym_run_script(ctx, run / "run_eval.sh", overrides, ["echo '== weekly eval'"])
    began = time.monotonic()
    code = ctx.sh(f"timeout 60 bash {script}", "logs/run_eval.log", timeout=400)
    took = time.monotonic() - began
    ctx.sh("tc -s class show dev lo", "logs/tc_show.log")
    stop_gym(ctx, env_start, policy)
    got = complete_in(ctx, "results")
    if code == 0 or got >= 24 or (run / "results" / "rollouts_reward_profiling.jsonl").exists() \
            or "rate 1Kbit" not in log_of(ctx, "tc_show.log"):
        raise failed(ctx, f"exit {code}, {got} in {took:.0f} s: {log_of(ctx, 'tc_show.log')[-400:]}")
    return (f"htb rate 1kbit on loopback traffic to the model port (left from a bandwidth test); real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) `timeout 60 bash RUN/run_eval.sh` (`gym eval run --no-serve` 8 x 3, `gym eval "
            f"profile`, model latency 30 ms) exit {code} after {took:.0f} s; {got} of 24 rollouts, no profile.")


PORT_SETTINGS = """# eval_settings.sh: where the weekly eval finds its model server
MODEL_PORT=THE_PORT
MODEL_URL=http://127.0.0.1:$MODEL_PORT/v1
"""

SERVE_PORT = """#!/bin/bash
# serve.sh CHECKPOINT: the model server, on $PORT when set (to run a second one by hand), else the eval's MODEL_PORT
source RUN_DIR/eval_settings.sh
PORT=${PORT:-$MODEL_PORT}
echo "serve.sh: serving $1 on port $PORT"
exec GP_BIN serve-policy --port $PORT --checkpoint "$1" --latency-ms 30
"""


@case(
    "model_serving_gym_serve_script_port_override_picks_up_port_exported_by_notebook_profile",
    "model_serving",
    ["serve.sh", "PORT", "MODEL_PORT"],
    "serve.sh starts the model server on `${PORT:-$MODEL_PORT}`; the node's login profile exports PORT for the "
    "team's notebook server, so the model server came up on that port, not on the MODEL_PORT the eval's "
    "--model-url names: Gym's model proxy found nothing listening there and kept retrying the connection until the "
    "CI's 90 s budget killed run_eval.sh: nothing was collected or profiled",
    netns=True,
)
def model_serving_gym_serve_script_port_override_picks_up_port_exported_by_notebook_profile(ctx: Ctx) -> str:
    run = ctx.run
    ctx.dataset("string_match", 8, start=20, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", run / "tasks.jsonl")[1]
    model_port, notebook_port = free_port(), free_port()
    while notebook_port == model_port:
        notebook_port = free_port()
    (run / "eval_settings.sh").write_text(PORT_SETTINGS.replace("THE_PORT", str(model_port)))
    (run / "serve.sh").write_text(slurm_script(SERVE_PORT, ctx))
    ctx.env["PORT"] = str(notebook_port)
    ctx.note(f"(the node's login profile: `export PORT={notebook_port}` for the team's notebook server)")
    ctx.bg(f"bash {run}/serve.sh {better}", "logs/serve.log")
    wait_for(lambda: answers(f"http://127.0.0.1:{notebook_port}/v1"), 40, "serve.sh's server")
    url = f"http://127.0.0.1:{model_port}/v1"
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    script = gym_run_script(ctx, run / "run_eval.sh", overrides, [
        "echo '== weekly eval'", "source eval_settings.sh", "echo \"model endpoint: $MODEL_URL\""])
    began = time.monotonic()
    code = ctx.sh(f"timeout 90 bash {script}", "logs/run_eval.log", timeout=400)
    took = time.monotonic() - began
    stop_gym(ctx, env_start)
    got = gym_rows(ctx)
    failures = rows_of(run / "results" / "rollouts_failures.jsonl")
    if code == 0 or got or answers(url) or f"on port {notebook_port}" not in log_of(ctx, "serve.log") \
            or (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)} rollouts, {len(failures)} failures")
    return (f"RUN/serve.sh (`PORT=${{PORT:-$MODEL_PORT}}`, PORT={notebook_port} exported by the login profile) served "
            f"on {notebook_port}; real NeMo Gym 0.7.0 (loopback-only namespace) `gym env start --model-url "
            f"http://127.0.0.1:{model_port}/v1`, then `timeout 90 bash RUN/run_eval.sh` (`gym eval run --no-serve` 8 x 3, "
            f"`gym eval profile`) exit {code} after {took:.0f} s; {len(got)} rollouts, {len(failures)} failed attempts, "
            f"no profile.")


CAPITALS_WRONG = [("What is the capital of Australia?", "Canberra", "Sydney"),
                  ("What is the capital of Canada?", "Ottawa", "Toronto"),
                  ("What is the capital of Switzerland?", "Bern", "Zurich"),
                  ("What is the capital of France?", "Paris", None), ("What is 6 times 7?", "42", None),
                  ("What is the capital of Japan?", "Tokyo", None), ("What is 9 plus 10?", "19", None),
                  ("Which planet is known as the Red Planet?", "Mars", None)]


ROW_TEMPLATE = {"responses_create_params": {"input": [], "max_output_tokens": 16, "temperature": 0.0},
                "extraction_mode": "final_answer", "case_sensitive": False}

TEMPLATE_PREP = '''"""prepare_data.py: questions.tsv (question<TAB>answer) -> tasks.jsonl, rows shaped like row_template.json
(the row template of the team's datasets, copied from the yes/no classifier set)"""
import copy
import json

with open("row_template.json") as f:
    TEMPLATE = json.load(f)

with open("questions.tsv", encoding="utf-8") as f, open("tasks.jsonl", "w") as out:
    for line in f.read().splitlines()[1:]:
        question, answer = line.split("\\t")
        row = copy.deepcopy(TEMPLATE)
        text = question + " End your response with 'Final answer: <answer>'."
        row["responses_create_params"]["input"] = [{"role": "user", "type": "message",
                                                    "content": [{"type": "input_text", "text": text}]}]
        row["expected_answer"] = answer
        out.write(json.dumps(row) + "\\n")
'''


@case(
    "data_schema_gym_rows_built_from_classifier_row_template_carry_max_output_tokens_of_16",
    "data_schema",
    ["row_template.json", "max_output_tokens", "prepare_data.py"],
    "prepare_data.py shapes every row from row_template.json, copied from the team's yes/no classifier dataset, "
    "whose responses_create_params carry `max_output_tokens: 16`; the model's replies to these questions reason "
    "for a sentence before the final answer, so every reply was cut at 16 tokens before 'Final answer:' and the "
    "real NeMo Gym eval scored every rollout 0 (every command exits 0)",
    netns=True,
)
def data_schema_gym_rows_built_from_classifier_row_template_carry_max_output_tokens_of_16(ctx: Ctx) -> str:
    run = ctx.run
    better = truth_checkpoints(ctx, [(q, a) for q, a, _ in CAPITALS_WRONG])[1]
    (run / "row_template.json").write_text(json.dumps(ROW_TEMPLATE, indent=2) + "\n")
    (run / "questions.tsv").write_text("question\tanswer\n" + "".join(f"{q}\t{a}\n" for q, a, _ in CAPITALS_WRONG))
    (run / "prepare_data.py").write_text(TEMPLATE_PREP)
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["echo '== weekly eval'", "python3 prepare_data.py"], overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    capped = [r for r in got if (r.get("response") or {}).get("usage", {}).get("output_tokens", 99) <= 16]
    said = [r for r in got if "final answer:" in json.dumps((r.get("response") or {}).get("output")).lower()]
    if code or len(got) != 24 or len(capped) != 24 or said or any(rewards(got)):
        raise failed(ctx, f"exit {code}, {len(got)}, capped {len(capped)}, said {len(said)}, {rewards(got)}")
    return (f"RUN/row_template.json (max_output_tokens 16) -> RUN/prepare_data.py -> RUN/tasks.jsonl; real NeMo Gym "
            f"0.7.0 (loopback-only namespace) RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, `gym eval profile`) "
            f"exit {code}; {len(capped)} replies of at most 16 output tokens, none reaching 'Final answer:', every "
            f"reward {sorted(set(rewards(got)))}.")


@case(
    "cache_resume_gym_sed_in_place_replaced_symlink_to_shared_dataset_with_a_frozen_copy",
    "cache_resume",
    ["tasks.jsonl", "sed -i", "ln -s"],
    "RUN/tasks.jsonl was a symlink to the team's shared dataset; last week the user fixed a typo in it with `sed -i`, "
    "which writes a new file and renames it over the link, so tasks.jsonl became a private regular file with last "
    "week's content; this week the data team fixed three labels in the shared dataset, but the real NeMo Gym eval "
    "read the frozen copy: the model's right answers to those tasks scored 0 against the old labels (every command "
    "exits 0)",
    netns=True,
)
def cache_resume_gym_sed_in_place_replaced_symlink_to_shared_dataset_with_a_frozen_copy(ctx: Ctx) -> str:
    run = ctx.run
    better = truth_checkpoints(ctx, [(q, a) for q, a, _ in CAPITALS_WRONG])[1]
    shared = ctx.work / "shared" / "datasets" / "capitals_v3.jsonl"
    shared.parent.mkdir(parents=True)
    rows = [question_row(q, wrong or a) for q, a, wrong in CAPITALS_WRONG]
    rows[4]["responses_create_params"]["input"][0]["content"][0]["text"] = rows[4]["responses_create_params"]["input"][
        0]["content"][0]["text"].replace("What is 6 times 7?", "What is 6 time 7?")
    write_jsonl(shared, rows)
    ctx.sh(f"ln -s {shared} tasks.jsonl && ls -l tasks.jsonl", "logs/setup.log", cwd=run)
    ctx.note("(last week: a typo fixed in place)")
    ctx.sh("sed -i 's/What is 6 time 7?/What is 6 times 7?/' tasks.jsonl && ls -l tasks.jsonl", "logs/fix_typo.log",
           cwd=run)
    ctx.note("(this week: the data team fixed three labels in the shared dataset)")
    for i, (_, a, wrong) in enumerate(CAPITALS_WRONG):
        if wrong:
            ctx.sh(f"sed -i '{i + 1}s/\"expected_answer\": \"{wrong}\"/\"expected_answer\": \"{a}\"/' {shared}",
                   "logs/shared_label_fix.log")
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["echo '== weekly eval'", "ls -l tasks.jsonl"], overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    fixed = {a: wrong for _, a, wrong in CAPITALS_WRONG if wrong}
    stale = [r for r in got if r.get("expected_answer") in fixed.values()]
    right = [r for r in stale if str(r.get("extracted_answer")).lower() in (k.lower() for k in fixed)]
    if code or len(got) != 24 or not right or any(rewards(right)) or (run / "tasks.jsonl").is_symlink() \
            or "Sydney" in text_of(shared):
        raise failed(ctx, f"exit {code}, {len(got)}, stale {len(stale)}, right {rewards(right)}")
    return (f"RUN/tasks.jsonl, once a symlink to the shared capitals_v3.jsonl, made a regular file by `sed -i`; shared "
            f"labels fixed since; real NeMo Gym 0.7.0 (loopback-only namespace) RUN/run_eval.sh exit {code}; "
            f"{len(stale)} rollouts on the old labels, {len(right)} right answers scored {rewards(right)}; mean reward "
            f"{mean(rewards(got)):.2f}.")


# =====================================================================================================
# Slurm batch jobs
# =====================================================================================================

IB_SBATCH = """#!/bin/bash
#SBATCH --job-name=sm-weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
cd RUN_DIR
echo "weekly eval on $(hostname), job $SLURM_JOB_ID"
# pin to the GPU-local cores 4-7 (from the GPU-node template)
taskset -cp 4-7 $$ || echo "could not pin to cores 4-7, running unpinned"
PIPELINE"""

SUBMIT_WAIT = """#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd RUN_DIR
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB > job_id.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
"""


@case(
    "healthy_slurm_job_script_pins_itself_to_cores_4_to_7_that_this_two_core_node_lacks",
    "healthy",
    [],
    "nothing is wrong: the user's eval.sbatch, from the GPU-node template, pins itself to the GPU-local cores 4-7 "
    "with `taskset -cp 4-7 $$`; this CPU node has two cores, so taskset prints 'failed to set pid ...'s affinity: "
    "Invalid argument' and the job runs unpinned; materialize, collect and profile completed every rollout",
)
def healthy_slurm_job_script_pins_itself_to_cores_4_to_7_that_this_two_core_node_lacks(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 64)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(IB_SBATCH, ctx, PIPELINE=pipeline(url)))
    (run / "submit.sh").write_text(slurm_script(SUBMIT_WAIT, ctx))
    try:
        code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=400)
    finally:
        scancel_all(ctx, text_of(run / "job_id.txt").strip())
    got = complete(ctx)
    if code or got != 24 or "affinity: Invalid argument" not in job_logs(ctx, "eval_*.log") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {job_logs(ctx, 'eval_*.log')[-600:]}")
    return (f"RUN/submit.sh (sbatch of RUN/eval.sbatch: `taskset -cp 4-7` refused, then materialize 8 x 3, collect, profile) "
            f"exit {code}; {got} rollouts, mean reward {mean_reward(run / 'rollouts.jsonl')}.")


CANCEL_SUBMIT = """#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd RUN_DIR
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB > job_id.txt
# cancel last week's eval if it is still queued or running (it blocks the node)
scancel --name=sm-weekly-eval && echo "cancelled leftover sm-weekly-eval jobs"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
"""

PLAIN_SBATCH = IB_SBATCH.replace('# pin to the GPU-local cores 4-7 (from the GPU-node template)\ntaskset -cp 4-7 $$ || echo "could not pin to cores 4-7, running unpinned"\n', "")


@case(
    "config_slurm_submit_script_cancels_leftover_jobs_by_name_after_submitting_so_cancels_its_own_job",
    "config",
    ["submit.sh", "scancel --name", "sm-weekly-eval"],
    "the user's submit.sh cancels last week's leftover eval with `scancel --name=sm-weekly-eval`, but the line comes "
    "after the sbatch of this week's job, which has the same name: the new job was cancelled before it ran, the "
    "script waited for it to leave the queue and ended with exit 0, and the run folder holds no rollouts and no "
    "profile",
)
def config_slurm_submit_script_cancels_leftover_jobs_by_name_after_submitting_so_cancels_its_own_job(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 72)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(PLAIN_SBATCH, ctx, PIPELINE=pipeline(url)))
    (run / "submit.sh").write_text(slurm_script(CANCEL_SUBMIT, ctx))
    try:
        code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=300)
    finally:
        scancel_all(ctx, text_of(run / "job_id.txt").strip())
    if code or complete(ctx) or (run / "rollouts_reward_profiling.jsonl").exists() \
            or not in_log(ctx, "cancelled leftover", "logs/submit.log"):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log_of(ctx, 'submit.log')[-600:]}")
    return (f"RUN/submit.sh (sbatch of RUN/eval.sbatch, then `scancel --name=sm-weekly-eval`) exit {code}; no rollouts, "
            f"no profile; job logs: {job_logs(ctx, 'eval_*.log')[-200:].strip() or 'none'}.")


SHARD_SBATCH = """#!/bin/bash
#SBATCH --job-name=sm-eval-shard
#SBATCH --output=RUN_DIR/logs/shard_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=2
# --cpus-per-task=2: from the GPU-node template (two CPU workers per shard collect faster)
cd RUN_DIR
SHARD=$1
echo "shard $SHARD on $(hostname), job $SLURM_JOB_ID, $SLURM_CPUS_PER_TASK CPUs, started $(date +%T)"
GP_BIN collect --inputs shards/$SHARD --output shards/$SHARD.rollouts.jsonl --model-url MODEL_URL --env string_match --concurrency 2
echo "shard $SHARD done $(date +%T)"
"""

SHARD_SUBMIT = """#!/bin/bash
# submit.sh: materialize, one collect job per shard (in parallel), then profile; the CI gives it 30 s
cd RUN_DIR
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
rm -rf shards && mkdir shards && split -n l/3 -d rollouts_materialized_inputs.jsonl shards/part_
JOBS=""
for shard in $(ls shards); do JOBS="$JOBS $(sbatch --parsable shard.sbatch $shard)"; done
echo "submitted shard jobs:$JOBS"
echo $JOBS > job_ids.txt
sleep 3; squeue -h -o '%i %t %r' -j $(echo $JOBS | tr ' ' ',')
for i in $(seq 1 15); do
  [ -z "$(squeue -h -j $(echo $JOBS | tr ' ' ',') 2>/dev/null)" ] && break
  sleep 2
done
if [ -n "$(squeue -h -j $(echo $JOBS | tr ' ' ',') 2>/dev/null)" ]; then
  echo "shard jobs still queued or running after the budget:"; squeue -h -o '%i %t %r %M' -j $(echo $JOBS | tr ' ' ',')
  scancel $JOBS
  exit 1
fi
cat shards/*.rollouts.jsonl > rollouts.jsonl
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "throughput_slurm_shard_jobs_each_ask_for_every_cpu_of_the_node_so_run_one_after_another",
    "throughput_resources",
    ["shard.sbatch", "--cpus-per-task", "Resources"],
    "each shard job of the user's eval asks for `--cpus-per-task=2` (copied from the GPU-node template); the eval "
    "node has 2 CPUs, so only one shard job fits at a time and the others wait (PD, reason Resources): the three "
    "shards that were meant to collect in parallel ran one after another, and the CI's 30 s budget cancelled the "
    "queued shards with rollouts missing and no profile",
)
def throughput_slurm_shard_jobs_each_ask_for_every_cpu_of_the_node_so_run_one_after_another(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 78)
    url, _ = ctx.policy(better, "--latency-ms 3000")
    (run / "logs").mkdir(exist_ok=True)
    (run / "shard.sbatch").write_text(slurm_script(SHARD_SBATCH, ctx, MODEL_URL=url))
    (run / "submit.sh").write_text(slurm_script(SHARD_SUBMIT, ctx))
    try:
        code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=300)
    finally:
        scancel_all(ctx, *text_of(run / "job_ids.txt").split())
    log = log_of(ctx, "submit.log")
    if code == 0 or "Resources" not in log or (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}: {log[-800:]}")
    done = sum(len(rows_of(p)) for p in (run / "shards").glob("*.rollouts.jsonl"))
    return (f"RUN/submit.sh (materialize 8 x 3, three RUN/shard.sbatch jobs with `--cpus-per-task=2` on a 2-CPU node, "
            f"model latency 3 s, 30 s budget) exit {code}; shards queued behind each other (Resources); {done} of 24 "
            f"rollouts in the shards, no profile.")


# =====================================================================================================
# task folders (Docker sandboxes)
# =====================================================================================================


@case(
    "healthy_taskfolder_run_script_records_package_versions_with_pip_show_of_absent_package",
    "healthy",
    [],
    "nothing is wrong: the user's run_tasks.sh records the versions of the serving stack for the run notes with "
    "`pip show vllm`; vllm is not installed on this CPU node, so pip prints 'WARNING: Package(s) not found: vllm' "
    "and the script goes on; every episode then ran in its Docker sandbox, was verified and profiled",
)
def healthy_taskfolder_run_script_records_package_versions_with_pip_show_of_absent_package(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["create-greeting", "top-word"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, [
        "echo '== serving stack (for the run notes)'",
        f"{PY} -m pip show vllm 2>&1 | grep -E '^(Name|Version|WARNING)'",
        "echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 4 or not any(rewards(got)) or not in_log(ctx, "not found: vllm", "logs/run_tasks.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/run_tasks.sh (`pip show vllm` finds nothing, then `gym-pipeline stage` materialize, collect, profile "
            f"of RUN/tasks x 2) exit {code}; rewards {rewards(got)}.")


TRAP_TEST = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# safety net: if anything below fails, the task still gets a reward file (0)
trap 'echo 0 > /logs/verifier/reward.txt' EXIT
cd /app
if test "$(cat /app/hello.txt 2>/dev/null)" = "Hello, Gym!"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def trap_test(tasks: Path) -> None:
    (tasks / "create-greeting" / "tests" / "test.sh").write_text(TRAP_TEST)


@case(
    "verifier_runtime_taskfolder_test_sh_exit_trap_meant_as_failure_fallback_overwrites_pass_reward",
    "verifier_runtime",
    ["test.sh", "trap", "EXIT"],
    "create-greeting's tests/test.sh got a safety net, `trap 'echo 0 > /logs/verifier/reward.txt' EXIT`, meant to "
    "leave a 0 when the test fails half-way; an EXIT trap runs whenever the shell ends, also after a pass, so it "
    "overwrote every 1 the test had just written: every episode of that task scored 0 though the test printed PASS "
    "and the agent wrote the right file, while the other task scored normally (every command exits 0)",
)
def verifier_runtime_taskfolder_test_sh_exit_trap_meant_as_failure_fallback_overwrites_pass_reward(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["create-greeting", "top-word"], trap_test)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"], repeats=3)
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    greeting = task_rows(ctx, "create-greeting")
    other = task_rows(ctx, "top-word")
    passed = [p for p in (run / "rollouts_episodes" / "create-greeting").rglob("test-stdout.txt") if "PASS" in text_of(p)]
    if code or not greeting or any(rewards(greeting)) or not any(rewards(other)) or not passed:
        raise failed(ctx, f"exit {code}, greeting {rewards(greeting)}, other {rewards(other)}, passed {len(passed)}")
    return (f"RUN/tasks/create-greeting/tests/test.sh (`trap 'echo 0 > /logs/verifier/reward.txt' EXIT`); "
            f"RUN/run_tasks.sh exit {code}; create-greeting rewards {rewards(greeting)} ({len(passed)} episode(s) "
            f"printed PASS), top-word rewards {rewards(other)}.")


ZERO_VERIFIER = '''"""my_verifier.py: numeric answers after 'Final answer:' compared as numbers (so 42.0 == 42)."""
import re

FINAL = re.compile(r"final answer:\\s*(.+)", re.IGNORECASE)


def _number(text):
    try:
        return float(text.strip().rstrip(".").replace(",", ""))
    except ValueError:
        return None


def score(row, response_text):
    found = FINAL.findall(response_text)
    answer = _number(found[-1]) if found else None
    if not answer:  # no number in the reply
        return {"reward": 0.0, "extracted_answer": None, "expected_answer": row["expected_answer"]}
    reward = 1.0 if answer == _number(row["expected_answer"]) else 0.0
    return {"reward": reward, "extracted_answer": found[-1].strip(), "expected_answer": row["expected_answer"]}
'''

ZERO_PAIRS = [("What is 5 minus 5?", "0"), ("What is 6 times 7?", "42"), ("How many moons does Venus have?", "0"),
              ("What is 9 plus 10?", "19"), ("What is 7 times 0?", "0"), ("What is 3 times 3?", "9"),
              ("What is 12 minus 4?", "8"), ("What is 100 divided by 4?", "25")]


@case(
    "verifier_runtime_stage_workspace_verifier_treats_numeric_answer_zero_as_missing",
    "verifier_runtime",
    ["my_verifier.py", "if not answer", "is None"],
    "the workspace verifier my_verifier.py parses the answer as a number and skips replies without one with "
    "`if not answer:`; the number 0.0 is falsy, so a right answer of 0 was treated as 'no number in the reply' and "
    "scored 0: the tasks whose label is 0 never score, the others score normally (every command exits 0)",
)
def verifier_runtime_stage_workspace_verifier_treats_numeric_answer_zero_as_missing(ctx: Ctx) -> str:
    run = ctx.run
    data = write_jsonl(run / "numeric.jsonl", [question_row(q, a) for q, a in ZERO_PAIRS])
    better = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    sweep = workspace_sweep(ctx, "numeric", data, better, {"verifier": "my_verifier:score"}, ZERO_VERIFIER,
                            num_repeats=3, concurrency=4)
    script = workspace_script(ctx, sweep, better, "numeric", url, ["echo '== weekly eval'"])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    zero = [r for r in got if r.get("expected_answer") == "0"]
    said_zero = [r for r in zero if "final answer: 0" in json.dumps(r.get("response")).lower()]
    others = [r for r in got if r not in zero]
    if code or len(got) != 24 or not said_zero or any(rewards(zero)) or not any(rewards(others)):
        raise failed(ctx, f"exit {code}, {len(got)}, zero {rewards(zero)} said {len(said_zero)}, others {rewards(others)}")
    return (f"RUN/verifiers/my_verifier.py (`if not answer:` on the parsed number); RUN/run_eval.sh (stages materialize "
            f"8 x 3, collect, profile) exit {code}; {len(said_zero)} replies answering 0 to tasks labelled 0 scored "
            f"{rewards(said_zero)}; other tasks {rewards(others)}.")


ADMIN_NOTE = ("(the admins announced a maintenance window starting in a minute and shortened the time limit of "
              "running jobs to fit: `scontrol update JobId=JOB TimeLimit=1`)")


@case(
    "infra_slurm_admins_shorten_running_jobs_time_limit_before_maintenance_window",
    "infra",
    ["maintenance", "TimeLimit", "sbatch"],
    "the cluster admins shortened the time limit of every running job to one minute to fit a maintenance window "
    "(scontrol update JobId=... TimeLimit=1); the weekly eval job, asked for with --time=10 and well within it, "
    "was cancelled 'DUE TO TIME LIMIT' in the middle of its collect: rollouts are missing and no profile was "
    "written, though nothing in the user's job or scripts changed",
)
def infra_slurm_admins_shorten_running_jobs_time_limit_before_maintenance_window(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 16, 40)
    url, _ = ctx.policy(better, "--latency-ms 2000")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(PLAIN_SBATCH, ctx, PIPELINE=pipeline(url, concurrency="1")))
    (run / "submit.sh").write_text(slurm_script(SUBMIT_WAIT, ctx))
    submit = ctx.bg(f"bash {run}/submit.sh", "logs/submit.log")
    job = ""
    try:
        wait_for(lambda: text_of(run / "job_id.txt").strip() != "", 30, "the job id")
        job = text_of(run / "job_id.txt").strip()
        wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 2 or submit.poll() is not None, 90, "2 rollouts")
        ctx.note(ADMIN_NOTE.replace("JOB", job))
        subprocess.run(["scontrol", "update", f"JobId={job}", "TimeLimit=1"], env=ctx.env, capture_output=True,
                       check=False)
        wait_for(lambda: submit.poll() is not None, 150, "submit.sh")
    finally:
        scancel_all(ctx, job)
    code = submit.returncode
    got = complete(ctx)
    logs = job_logs(ctx, "eval_*.log")
    if got >= 48 or "TIME LIMIT" not in logs or (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {logs[-600:]}")
    return (f"RUN/submit.sh (sbatch of RUN/eval.sbatch, --time=10: materialize 16 x 3, collect --concurrency 1 against "
            f"a 2 s model, profile) exit {code}; job {job}'s limit cut to 1 minute by the admins while it ran: cancelled "
            f"due to time limit, {got} of 48 rollouts, no profile.")


if __name__ == "__main__":
    sys.exit(main("forty_third_held_out", __file__, __doc__))
