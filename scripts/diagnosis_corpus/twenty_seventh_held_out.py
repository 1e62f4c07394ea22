"""Build the TWENTY-SEVENTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/twenty_seventh_held_out.py --out tests/data/diagnosis_corpus/twenty_seventh_held_out [--only CASE ...]

This set was written from the guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder
troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests
or their results. It is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
task folders run in Docker sandboxes, Slurm batch jobs, the real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` /
`gym eval profile` inside a loopback-only network namespace, with a user's own resources server), and the user's own
shell scripts, settings files, helper servers (gateways), firewall scripts and data-preparation scripts. The output of
every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but
the user's own inputs (data, scripts, settings, verifier code). Each case injects one cause, different in mechanism
from those of the twenty-six earlier sets (first_held_out.py ... twenty_sixth_held_out.py), and each recipe checks
that its fault really happened (it raises RecipeError otherwise, and the case is not written). About half of the
failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare,
mount, iptables inside a private network namespace), Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this
checkout. Run it from a foreground shell.
"""

from __future__ import annotations

import csv
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import (  # noqa: E402
    agent_args,
    checkpoints,
    failed,
    gym_start,
    stop_gym,
    task_checkpoints,
    user_taskset,
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
)
from tenth_held_out import in_log  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_fifth_held_out import job_logs, task_rows  # noqa: E402
from twenty_fourth_held_out import gym_eval_line, gym_profile_line, keep_server_code  # noqa: E402
from twenty_second_held_out import pipeline_lines, question_row, response_text  # noqa: E402
from twenty_sixth_held_out import PREP_SHEET, SUBMIT_WAIT, free_port, gym_run, slurm_script, start_helper  # noqa: E402
from twenty_third_held_out import final_answer, taskset_script, write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def builtin_script(ctx: Ctx, preamble: list[str], data: str, url: str, repeats: int = 3, concurrency: int = 4,
                   name: str = "run_eval.sh", comment: str = "weekly eval") -> Path:
    """RUN/NAME: `preamble`, then materialize, collect and profile of RUN/DATA with the built-in engine."""
    script = ctx.run / name
    script.write_text(f"#!/bin/bash\n# {comment}\ncd {ctx.run}\n" + "".join(line + "\n" for line in preamble)
                      + "\n".join(pipeline_lines(data, repeats, url, concurrency)) + "\n")
    return script


def gym_eval_with_own_server(ctx: Ctx, name: str, verify: str, data: Path, url: str, overrides: str,
                             repeats: int = 3, concurrency: int = 4) -> tuple[int, int, object]:
    """`gym env start` with the user's resources server NAME, `gym eval run --no-serve` of DATA, `gym eval profile`."""
    run = ctx.run
    search = own_gym_server(ctx, name, verify)
    keep_server_code(ctx, search, name)
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server=name)} {overrides}")
    ran = ctx.sh(f"cd {run} && {GYM} eval run --no-serve "
                 f"{agent_args(data, run / 'results' / 'rollouts.jsonl', repeats, concurrency, f'{name}_simple_agent')} "
                 f"++route_failures_to_sidecar=true {overrides}", "eval_run.log", timeout=400)
    prof = ctx.sh(f"cd {run} && {gym_profile_line('results')}", "eval_profile.log", timeout=300)
    return ran, prof, env_start


def submit_and_wait(ctx: Ctx, sbatch_name: str, log: str, args: str = "") -> int:
    submit = ctx.run / "submit.sh"
    submit.write_text(slurm_script(SUBMIT_WAIT, ctx, SBATCH_FILE=f"{sbatch_name} {args}".strip()))
    return ctx.sh(f"bash {submit}", log, timeout=400)


FORWARDING_GATEWAY = '''"""gateway.py: the team's gateway in front of the model server (one URL for every tool). HOOK_DOC"""
import hashlib
import json
import os
import sys
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

UPSTREAM = sys.argv[2]
HOOK_CODE


class Gateway(BaseHTTPRequestHandler):
    def _send(self, status, data):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _upstream(self, body=None):
        request = urllib.request.Request(UPSTREAM + self.path, data=body, method=self.command,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=120) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def do_GET(self):
        self._send(*self._upstream())

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if not self.path.endswith("/chat/completions"):
            return self._send(*self._upstream(body))
        self._send(*completion(self, body))


if __name__ == "__main__":
    print(f"gateway.py on 127.0.0.1:{sys.argv[1]} -> {UPSTREAM}", flush=True)
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Gateway).serve_forever()
'''


def gateway_source(doc: str, hook: str) -> str:
    return FORWARDING_GATEWAY.replace("HOOK_DOC", doc).replace("HOOK_CODE", hook.strip("\n") + "\n")


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_builtin_run_script_exports_locale_not_installed_on_node",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh starts with their own shell settings, `export LC_ALL=de_DE.UTF-8`, a "
    "locale this node does not have, so bash prints 'warning: setlocale: LC_ALL: cannot change locale "
    "(de_DE.UTF-8)' (and the tools fall back to the C locale); materialize, collect and profile completed every "
    "rollout",
)
def healthy_builtin_run_script_exports_locale_not_installed_on_node(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 70)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["# my usual settings", "export LANG=de_DE.UTF-8", "export LC_ALL=de_DE.UTF-8",
                                  "echo \"== weekly eval, $(date)\""], "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code or got != 24 or not in_log(ctx, "setlocale", "logs/run_eval.log") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (exports LC_ALL=de_DE.UTF-8, not installed; materialize 8 tasks x 3, collect, profile) "
            f"exit {code}; {got} rollouts, mean reward {mean(rewards(rows_of(run / 'rollouts.jsonl'))):.2f}.")


@case(
    "healthy_gym_run_notes_read_code_version_from_missing_checkout",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh records the version of the team's eval tools with `git -C "
    "/root/src/eval-tools describe --always`, a checkout this machine does not have, so the log opens with 'fatal: "
    "cannot change to ...: No such file or directory'; the real NeMo Gym eval then collected, verified and profiled "
    "every rollout",
    netns=True,
)
def healthy_gym_run_notes_read_code_version_from_missing_checkout(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=56, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["echo \"== eval tools: $(git -C /root/src/eval-tools describe --always --dirty)\""],
                   overrides)
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if code or got != 18 or not in_log(ctx, "cannot change to", "logs/run_eval.log") \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (`git -C` of a missing checkout, `gym "
            f"eval run --no-serve` 6 tasks x 3, `gym eval profile`) exit {code}, {got} rollouts, mean reward "
            f"{mean(rewards(rows_of(run / 'results' / 'rollouts.jsonl'))):.2f}.")


@case(
    "healthy_taskfolder_summary_averages_retried_rollouts_when_none_were_retried",
    "healthy",
    [],
    "nothing is wrong: the user's run_tasks.sh ends with a one-line summary, the mean reward of the rollouts that "
    "needed a retry (`statistics.mean` over rows with _ng_attempt_index > 0); no rollout was retried, so it fails "
    "with 'StatisticsError: mean requires at least one data point' and the script exits 1, but every episode of "
    "the taskset ran, was verified and profiled",
)
def healthy_taskfolder_summary_averages_retried_rollouts_when_none_were_retried(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["top-word", "json-version"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    script.write_text(script.read_text() + "echo '== mean reward of the rollouts that needed a retry'\n"
                      "python3 -c \"import json, statistics; rows = [json.loads(l) for l in open('rollouts.jsonl')]; "
                      "print(statistics.mean(r['reward'] for r in rows if (r.get('_ng_attempt_index') or 0) > 0))\"\n")
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    if code != 1 or len(unique_keys(run / "rollouts.jsonl")) != 4 or not in_log(ctx, "StatisticsError",
                                                                                 "logs/run_tasks.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile of RUN/tasks x 2, then a "
            f"statistics.mean over retried rollouts, of which there are none) exit {code}; rewards {rewards(got)}.")


MODULE_SBATCH = """#!/bin/bash
#SBATCH --job-name=nightly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
# (the cluster's template: load the site's modules first)
module purge
module load cuda/12.1 python/3.11
cd RUN_DIR
echo "nightly eval on $(hostname)"
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 4
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "healthy_slurm_job_loads_environment_modules_missing_on_node",
    "healthy",
    [],
    "nothing is wrong: the user's nightly.sbatch, from the cluster's template, starts with `module purge` and "
    "`module load cuda/12.1 python/3.11`; this node has no environment modules, so the job log opens with 'module: "
    "command not found' twice, but the job calls the pipeline by its full path and materialized, collected and "
    "profiled every rollout",
)
def healthy_slurm_job_loads_environment_modules_missing_on_node(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 44)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "nightly.sbatch").write_text(slurm_script(MODULE_SBATCH, ctx, MODEL_URL=url))
    code = submit_and_wait(ctx, "nightly.sbatch", "logs/submit.log")
    got = len(unique_keys(run / "rollouts.jsonl"))
    logs = job_logs(ctx, "eval_*.log")
    if code or got != 24 or "module: command not found" not in logs \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {logs[-500:]}")
    return (f"RUN/submit.sh (sbatch of RUN/nightly.sbatch: `module load`, materialize 8 x 3, collect, profile) exit "
            f"{code}; {got} rollouts.")


# =====================================================================================================
# config
# =====================================================================================================


@case(
    "config_builtin_run_script_alias_not_expanded_in_non_interactive_bash",
    "config",
    ["alias", "gp"],
    "the user's run_eval.sh defines `alias gp=...` for the pipeline's CLI (as in their .bashrc) and calls `gp "
    "materialize`, `gp collect`, `gp profile`; bash does not expand aliases in a non-interactive script, so every "
    "step was 'gp: command not found' and nothing was materialized, collected or profiled",
)
def config_builtin_run_script_alias_not_expanded_in_non_interactive_bash(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 20)
    url, _ = ctx.policy(better, "--latency-ms 20")
    lines = [line.replace(str(GP), "gp", 1) for line in pipeline_lines("string_match.jsonl", 3, url, 4)]
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval; gp is the pipeline's CLI from the project's venv (as in my .bashrc)\n"
                      f"alias gp='{GP}'\ncd {run}\necho \"== weekly eval\"\n" + "\n".join(lines) + "\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    got = len(rows_of(run / "rollouts.jsonl"))
    if not code or got or not in_log(ctx, "gp: command not found", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return f"RUN/run_eval.sh (alias gp=..., then gp materialize/collect/profile) exit {code}; {got} rollouts."


EVAL_CONF = """# settings of the weekly eval (read by run_eval.sh)
num_repeats: 3
concurrency: 4   # the model server has 4 slots
"""


@case(
    "config_gym_concurrency_read_with_cut_keeps_inline_comment",
    "config",
    ["eval.conf", "cut -d:"],
    "the user's run_eval.sh reads its settings from eval.conf with `grep ... | cut -d: -f2`; the concurrency line "
    "has an inline comment ('concurrency: 4   # the model server has 4 slots'), which cut keeps, so the command "
    "became `--concurrency 4 # the model server has 4 slots` and `gym eval run` refused the stray words: nothing was "
    "collected and the profile found no rollouts",
    netns=True,
)
def config_gym_concurrency_read_with_cut_keeps_inline_comment(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=62, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    (run / "eval.conf").write_text(EVAL_CONF)
    code = gym_run(ctx, "tasks.jsonl", ["REPEATS=$(grep '^num_repeats' eval.conf | cut -d: -f2)",
                                        "CONC=$(grep '^concurrency' eval.conf | cut -d: -f2)",
                                        "echo \"== weekly eval: repeats=$REPEATS concurrency=$CONC\""],
                   overrides, repeats="$REPEATS", concurrency="$CONC")
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if got or not in_log(ctx, "concurrency= 4   # the model server", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (settings from RUN/eval.conf with cut, "
            f"`gym eval run --no-serve`, `gym eval profile`) exit {code}; {got} rollouts.")


CHDIR_SBATCH = """#!/bin/bash
#SBATCH --job-name=nightly-eval
#SBATCH --chdir=/home/akumar/evals/nightly
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
# nightly eval (template from Anil's nightly job: the job works in its --chdir folder)
echo "nightly eval on $(hostname) in $(pwd)"
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 4
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "config_slurm_sbatch_chdir_copied_from_colleagues_template",
    "config",
    ["--chdir", "/home/akumar/evals/nightly"],
    "the user's nightly.sbatch was copied from a colleague's job and still says `#SBATCH "
    "--chdir=/home/akumar/evals/nightly`, a folder that does not exist here; Slurm could not change to it and ran "
    "the job in /tmp, where the relative paths (string_match.jsonl, rollouts_materialized_inputs.jsonl) name "
    "nothing: no step found its input and no rollout was collected",
)
def config_slurm_sbatch_chdir_copied_from_colleagues_template(ctx: Ctx) -> str:
    run = ctx.run
    strays = [Path("/tmp") / name for name in ("rollouts_materialized_inputs.jsonl", "rollouts.jsonl",
                                               "rollouts_failures.jsonl", "rollouts_reward_profiling.jsonl")]
    if any(path.exists() for path in strays):
        raise failed(ctx, f"files of an earlier run in /tmp: {[p for p in strays if p.exists()]}")
    data, (_, better) = builtin_rows(ctx, 8, 30)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "nightly.sbatch").write_text(slurm_script(CHDIR_SBATCH, ctx, MODEL_URL=url))
    code = submit_and_wait(ctx, "nightly.sbatch", "logs/submit.log")
    logs = job_logs(ctx, "eval_*.log")
    made = [path for path in strays if path.exists()]
    for path in made:  # a stray file of this job (not a case file)
        path.unlink()
    got = len(rows_of(run / "rollouts.jsonl"))
    if got or "couldn't chdir" not in logs or made:
        raise failed(ctx, f"exit {code}, {got}, strays {made}: {logs[-600:]}")
    return (f"RUN/submit.sh (sbatch of RUN/nightly.sbatch with --chdir=/home/akumar/evals/nightly, missing) exit "
            f"{code}; the job ran in /tmp; {got} rollouts.")


# =====================================================================================================
# data_schema
# =====================================================================================================

UNIT_QUESTIONS = [("How many minutes are in two hours?", "120", "120 minutes"),
                  ("How many days are in a leap year?", "366", "366 days"),
                  ("How many legs does a spider have?", "8", "8 legs"),
                  ("How many sides does a hexagon have?", "6", "6 sides"),
                  ("What is the capital of Italy?", "Rome", "Rome"),
                  ("Which planet is known as the Red Planet?", "Mars", "Mars")]


@case(
    "data_schema_builtin_numeric_labels_exported_with_units",
    "data_schema",
    ["answers.csv", "prep_data.py"],
    "the reviewers filled the answer column of the review sheet with units ('120 minutes', '366 days', '8 legs', "
    "'6 sides'), and prep_data.py copies answers.csv's cells into tasks.jsonl as they are; the model answers the "
    "number the prompt asks for, so every numeric task scores 0 on right answers while the word tasks score "
    "normally (everything exits 0)",
)
def data_schema_builtin_numeric_labels_exported_with_units(ctx: Ctx) -> str:
    run = ctx.run
    truth = write_jsonl(ctx.work / "reviewed.jsonl", [question_row(q, a) for q, a, _ in UNIT_QUESTIONS])
    better = checkpoints(ctx, "string_match", truth)[1]
    with open(run / "answers.csv", "w", newline="", encoding="utf-8") as sheet:
        writer = csv.writer(sheet)
        writer.writerow(["question", "answer"])
        writer.writerows((q, sheet_answer) for q, _, sheet_answer in UNIT_QUESTIONS)
    (run / "prep_data.py").write_text(PREP_SHEET)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["python3 prep_data.py answers.csv tasks.jsonl"], "tasks.jsonl", url,
                            comment="eval of the reviewed questions")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    units = [row for row in got if " " in str(row.get("expected_answer", ""))]
    words = [row for row in got if " " not in str(row.get("expected_answer", ""))]
    right = sum(final_answer(response_text(row)) == row["expected_answer"].split()[0] for row in units)
    if code or len(got) != 18 or len(units) != 12 or any(rewards(units)) or right < 3 or not any(rewards(words)):
        raise failed(ctx, f"exit {code}, {len(got)}, {len(units)}, {rewards(got)}, right {right}")
    return (f"RUN/answers.csv (numeric answers with units) -> RUN/prep_data.py -> RUN/tasks.jsonl; RUN/run_eval.sh "
            f"(materialize 6 x 3, collect, profile) exit {code}; numeric tasks: {right} of {len(units)} rollouts "
            f"answer the right number, every reward 0; word tasks mean reward {mean(rewards(words)):.2f}.")


WORD_NUMBER_QUESTIONS = [("How many legs does a spider have? Write the number in words.", "eight"),
                         ("How many sides does a hexagon have? Write the number in words.", "six"),
                         ("How many months have 31 days? Write the number in words.", "seven"),
                         ("How many players are on a soccer team on the field? Write the number in words.", "eleven"),
                         ("What is the capital of Spain?", "Madrid"),
                         ("What is the largest ocean on Earth?", "Pacific")]

PREP_NUMBERS = '''#!/usr/bin/env python3
"""export.jsonl (the review tool's export) -> tasks.jsonl; number words in the labels are turned into digits, so
that the dashboard can sort and plot the numeric answers"""
import json
import sys

NUMBER_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
                "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12"}

rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
with open(sys.argv[2], "w") as out:
    for row in rows:
        label = str(row["expected_answer"]).strip()
        row["expected_answer"] = NUMBER_WORDS.get(label.lower(), label)
        out.write(json.dumps(row) + "\\n")
print(f"prep_data.py: {len(rows)} rows -> {sys.argv[2]}")
'''


@case(
    "data_schema_builtin_prep_turns_number_word_labels_into_digits",
    "data_schema",
    ["prep_data.py", "NUMBER_WORDS"],
    "the questions ask for the number written in words ('Write the number in words.'), and the labels of the "
    "review tool's export are words (eight, six, seven, eleven); the user's prep_data.py turns number words in the "
    "labels into digits (NUMBER_WORDS, for the dashboard), so tasks.jsonl expects 8, 6, 7, 11 while the model "
    "answers as asked, and those tasks scored 0 on right answers (everything exits 0)",
)
def data_schema_builtin_prep_turns_number_word_labels_into_digits(ctx: Ctx) -> str:
    run = ctx.run
    truth = write_jsonl(run / "export.jsonl", [question_row(q, a) for q, a in WORD_NUMBER_QUESTIONS])
    better = checkpoints(ctx, "string_match", truth)[1]
    (run / "prep_data.py").write_text(PREP_NUMBERS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["python3 prep_data.py export.jsonl tasks.jsonl"], "tasks.jsonl", url,
                            comment="eval of the reviewed questions")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    digits = [row for row in got if str(row.get("expected_answer", "")).isdigit()]
    words = [row for row in got if not str(row.get("expected_answer", "")).isdigit()]
    numbers = {digit: word for word, digit in (("eight", "8"), ("six", "6"), ("seven", "7"), ("eleven", "11"))}
    right = sum(final_answer(response_text(row)).lower() == numbers.get(row["expected_answer"]) for row in digits)
    if code or len(got) != 18 or len(digits) != 12 or any(rewards(digits)) or right < 4 or not any(rewards(words)):
        raise failed(ctx, f"exit {code}, {len(got)}, {len(digits)}, {rewards(got)}, right {right}")
    return (f"RUN/export.jsonl (labels in words) -> RUN/prep_data.py (NUMBER_WORDS -> digits) -> RUN/tasks.jsonl; "
            f"RUN/run_eval.sh (materialize 6 x 3, collect, profile) exit {code}; number tasks: {right} of "
            f"{len(digits)} rollouts answer right in words, every reward 0; the others mean reward "
            f"{mean(rewards(words)):.2f}.")


CASED_QUESTIONS = [("What is the chemical formula of table salt?", "NaCl"),
                   ("Which scale measures how acidic a solution is?", "pH"),
                   ("Which online auction site did Pierre Omidyar found?", "eBay"),
                   ("Which type of RNA carries the genetic code from DNA to the ribosome?", "mRNA"),
                   ("What is the capital of France?", "Paris"),
                   ("What is the largest planet in the Solar System?", "Jupiter")]

PREP_TIDY = '''#!/usr/bin/env python3
"""reviewed.jsonl (the review tool's export) -> tasks.jsonl; tidies the labels on the way: the export has stray
spaces and random capitals ('paris ', 'JUPITER'), so every label is trimmed and written with one capital first"""
import json
import sys

rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
with open(sys.argv[2], "w") as out:
    for row in rows:
        row["expected_answer"] = str(row["expected_answer"]).strip().capitalize()
        out.write(json.dumps(row) + "\\n")
print(f"prep_data.py: {len(rows)} rows -> {sys.argv[2]}")
'''


@case(
    "data_schema_gym_prep_capitalizes_case_sensitive_labels",
    "data_schema",
    ["prep_data.py", "capitalize()"],
    "the user's prep_data.py 'tidies' every label with `.strip().capitalize()` (the review tool's export had random "
    "capitals); the rows are case_sensitive, and labels such as NaCl, pH, eBay and mRNA became Nacl, Ph, Ebay and "
    "Mrna in tasks.jsonl, so the real NeMo Gym eval scored the model's right answers to those tasks 0 (everything "
    "exits 0)",
    netns=True,
)
def data_schema_gym_prep_capitalizes_case_sensitive_labels(ctx: Ctx) -> str:
    run = ctx.run
    rows = [{**question_row(q, a), "case_sensitive": True} for q, a in CASED_QUESTIONS]
    truth = write_jsonl(run / "reviewed.jsonl", rows)
    better = checkpoints(ctx, "string_match", truth)[1]
    (run / "prep_data.py").write_text(PREP_TIDY)
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["python3 prep_data.py reviewed.jsonl tasks.jsonl"], overrides)
    stop_gym(ctx, env_start, policy)
    got = rows_of(run / "results" / "rollouts.jsonl")
    truth_of = {q: a for q, a in CASED_QUESTIONS}
    mixed = [row for row in got if str(row.get("expected_answer")) not in ("Paris", "Jupiter")]
    plain = [row for row in got if str(row.get("expected_answer")) in ("Paris", "Jupiter")]
    right = sum(final_answer(response_text(row)) in truth_of.values()
                and final_answer(response_text(row)).lower() == str(row.get("expected_answer")).lower() for row in mixed)
    if code or len(got) != 18 or len(mixed) != 12 or any(rewards(mixed)) or right < 5 or not any(rewards(plain)):
        raise failed(ctx, f"exit {code}, {len(got)}, {len(mixed)}, {rewards(got)}, right {right}")
    return (f"RUN/prep_data.py (labels .strip().capitalize()) RUN/reviewed.jsonl -> RUN/tasks.jsonl (case_sensitive "
            f"rows); real NeMo Gym 0.7.0 (loopback-only namespace) RUN/run_eval.sh exit {code}; mixed-case labels: "
            f"{right} of {len(mixed)} rollouts answer right, every reward 0; the others mean reward "
            f"{mean(rewards(plain)):.2f}.")


@case(
    "data_schema_taskfolder_sales_csv_export_appends_total_row",
    "data_schema",
    ["sales.csv", "TOTAL"],
    "csv-column-total's environment/sales.csv was refreshed from the finance export, which ends with a summary row "
    "'TOTAL,,435'; the task asks for the total of the amount column, so a right solution adds the summary row too "
    "and writes 870, and test.sh (expecting 435) fails every episode of the task (everything exits 0)",
)
def data_schema_taskfolder_sales_csv_export_appends_total_row(ctx: Ctx) -> str:
    def edit(tasks: Path) -> None:
        sales = tasks / "csv-column-total" / "environment" / "sales.csv"
        sales.write_text(sales.read_text() + "TOTAL,,435\n")

    tasks = user_taskset(ctx, ["csv-column-total", "json-version"], edit)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    csv_rows = task_rows(ctx, "csv-column-total")
    other = task_rows(ctx, "json-version")
    if code or len(csv_rows) != 2 or any(rewards(csv_rows)) or not any(rewards(other)):
        raise failed(ctx, f"exit {code}, csv {rewards(csv_rows)}, json {rewards(other)}")
    return (f"RUN/tasks/csv-column-total/environment/sales.csv ends with 'TOTAL,,435'; RUN/run_tasks.sh (`gym-pipeline "
            f"stage` materialize, collect, profile, 2 tasks x 2) exit {code}; csv-column-total rewards "
            f"{rewards(csv_rows)}, json-version rewards {rewards(other)}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

FIRST_WORD_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        # the answer is what follows "Final answer:" (the pattern of the team's old grader)
        ANSWER_PATTERN = re.compile(r"final answer:\\s*(\\w+)", re.IGNORECASE)
        match = ANSWER_PATTERN.search(text)
        extracted = match.group(1) if match else None

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

MULTIWORD_QUESTIONS = [("What is the capital of India?", "New Delhi"),
                       ("Who was the first president of the United States?", "George Washington"),
                       ("Which city is nicknamed the Big Apple?", "New York City"),
                       ("Who wrote the play Romeo and Juliet?", "William Shakespeare"),
                       ("What is the capital of Germany?", "Berlin"),
                       ("What is the largest planet in the Solar System?", "Jupiter")]


@case(
    "verifier_runtime_gym_verify_extracts_only_first_word_of_answer",
    "verifier_runtime",
    ["app.py", "ANSWER_PATTERN"],
    "the user's exact_match resources server extracts the answer with ANSWER_PATTERN `final answer:\\s*(\\w+)` "
    "(from the team's old grader of one-word answers): `\\w+` stops at the first space, so for multi-word labels "
    "(New Delhi, George Washington, New York City, William Shakespeare) the extracted answer is 'New', 'George', "
    "'William' and the real NeMo Gym eval scored every right answer to those tasks 0 (everything exits 0)",
    netns=True,
)
def verifier_runtime_gym_verify_extracts_only_first_word_of_answer(ctx: Ctx) -> str:
    run = ctx.run
    data = write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in MULTIWORD_QUESTIONS])
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    ran, prof, env_start = gym_eval_with_own_server(ctx, "exact_match", FIRST_WORD_VERIFY, data, url, overrides)
    stop_gym(ctx, env_start, policy)
    got = rows_of(run / "results" / "rollouts.jsonl")
    multi = [row for row in got if " " in str(row.get("expected_answer", ""))]
    single = [row for row in got if " " not in str(row.get("expected_answer", ""))]
    right = sum(final_answer(response_text(row)).lower() == str(row["expected_answer"]).lower() for row in multi)
    if ran or prof or len(got) != 18 or len(multi) != 12 or any(rewards(multi)) or right < 5 \
            or not any(rewards(single)):
        raise failed(ctx, f"exit {ran}/{prof}, {len(got)}, {rewards(got)}, right {right}")
    return (f"A user's resources server exact_match (ANSWER_PATTERN final answer:\\s*(\\w+)); real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) `gym eval run --no-serve` (6 tasks x 3) exit {ran}, profile exit {prof}; "
            f"multi-word labels: {right} of {len(multi)} rollouts answer right, every reward 0; one-word labels mean "
            f"reward {mean(rewards(single)):.2f}.")


CLEANUP_TEST = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
# remove the scratch files an agent leaves behind (notes, temp lists), keep the input text
find /app -name '*.txt' ! -name 'text.txt' -delete
if test "$(tr -d "[:space:]" < /app/top.txt 2>/dev/null)" = "the"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


@case(
    "verifier_runtime_taskfolder_test_sh_scratch_cleanup_deletes_answer_file_before_check",
    "verifier_runtime",
    ["test.sh", "-delete"],
    "top-word's tests/test.sh was given a cleanup step before its check, `find /app -name '*.txt' ! -name "
    "'text.txt' -delete`, to remove an agent's scratch files; it also deletes /app/top.txt, the answer the check "
    "then reads, so every episode of the task scored 0 even when the agent solved it (everything exits 0)",
)
def verifier_runtime_taskfolder_test_sh_scratch_cleanup_deletes_answer_file_before_check(ctx: Ctx) -> str:
    def edit(tasks: Path) -> None:
        (tasks / "top-word" / "tests" / "test.sh").write_text(CLEANUP_TEST)

    tasks = user_taskset(ctx, ["top-word", "count-error-lines"], edit)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    top = task_rows(ctx, "top-word")
    other = task_rows(ctx, "count-error-lines")
    if code or len(top) != 2 or any(rewards(top)) or not any(rewards(other)):
        raise failed(ctx, f"exit {code}, top {rewards(top)}, other {rewards(other)}")
    return (f"RUN/tasks/top-word/tests/test.sh deletes *.txt but text.txt before checking /app/top.txt; "
            f"RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile, 2 tasks x 2) exit {code}; top-word "
            f"rewards {rewards(top)}, count-error-lines rewards {rewards(other)}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

CACHE_HOOK = '''
CACHE_FILE = "response_cache.jsonl"  # completions kept on disk: re-running a report costs nothing
CACHE = {}
if os.path.exists(CACHE_FILE):
    for line in open(CACHE_FILE):
        entry = json.loads(line)
        CACHE[entry["key"]] = entry["body"]
print(f"gateway.py: {len(CACHE)} cached completions loaded from {CACHE_FILE}", flush=True)


def completion(handler, body):
    request = json.loads(body)
    key = hashlib.sha256(json.dumps({"model": request.get("model"), "messages": request.get("messages")},
                                    sort_keys=True).encode()).hexdigest()
    if key in CACHE:
        print(f"cache hit {key[:12]}", flush=True)
        return 200, CACHE[key].encode()
    status, data = handler._upstream(body)
    if status == 200:
        CACHE[key] = data.decode()
        with open(CACHE_FILE, "a") as cache:
            cache.write(json.dumps({"key": key, "body": data.decode()}) + "\\n")
    return status, data
'''

WEEK_SCRIPT = """#!/bin/bash
# usage: run_eval.sh WEEK   (the weekly eval, through the team's gateway)
mkdir -p RUN_DIR/$1 && cd RUN_DIR/$1
GP_BIN materialize --input RUN_DIR/string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url GATEWAY_URL \\
  --env string_match --concurrency 4
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "cache_resume_builtin_gateway_response_cache_carries_answers_across_checkpoints",
    "cache_resume",
    ["gateway.py", "response_cache.jsonl"],
    "the team's gateway.py keeps every completion in response_cache.jsonl, keyed by the served model name and the "
    "messages; the model server is always served as 'sim-policy', so after it moved from step_0100 (last week) to "
    "step_0200 (this week) every request of this week's eval was a cache hit: the week49 rollouts are last week's "
    "answers, and the new checkpoint was never asked (everything exits 0)",
)
def cache_resume_builtin_gateway_response_cache_carries_answers_across_checkpoints(ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 8)
    port = free_port()
    source = gateway_source("Completions are cached on disk (CACHE_FILE).", CACHE_HOOK)
    (run / "run_eval.sh").write_text(slurm_script(WEEK_SCRIPT, ctx, GATEWAY_URL=f"http://127.0.0.1:{port}/v1"))
    ctx.note("(last week: the model server on step_0100, behind the gateway)")
    old_url, old_policy = ctx.policy(weaker, "--latency-ms 20", log="logs/model_server_week48.log")
    gateway = start_helper(ctx, "gateway.py", source, f"{port} {old_url.removesuffix('/v1')}", "gateway.py on")
    last = ctx.sh(f"bash {run}/run_eval.sh week48", "logs/run_eval_week48.log", timeout=300)
    ctx.stop(gateway)
    ctx.stop(old_policy)
    ctx.note("(this week: the model server on step_0200, the gateway restarted in front of it)")
    url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server_week49.log")
    start_helper(ctx, "gateway.py", source, f"{port} {url.removesuffix('/v1')}", "completions loaded")
    code = ctx.sh(f"bash {run}/run_eval.sh week49", "logs/run_eval_week49.log", timeout=300)
    old = {response_text(r) for r in rows_of(run / "week48" / "rollouts.jsonl")}
    new = [response_text(r) for r in rows_of(run / "week49" / "rollouts.jsonl")]
    hits = text_of(run / "logs" / "gateway.log").rsplit("completions loaded", 1)[-1].count("cache hit")
    if last or code or len(new) != 24 or not set(new) <= old or hits < 24:
        raise failed(ctx, f"exit {last}/{code}, {len(new)}, old answers {set(new) <= old}, hits {hits}")
    return (f"RUN/gateway.py (response_cache.jsonl keyed by model name + messages); RUN/run_eval.sh week48 against "
            f"step_0100 (exit {last}), then week49 against step_0200 (exit {code}); all {len(new)} week49 rollouts "
            f"are answers of week48 ({hits} cache hits this week), mean reward "
            f"{mean(rewards(rows_of(run / 'week49' / 'rollouts.jsonl'))):.2f}.")


SCRATCH = "/tmp/nightly-eval-scratch"

SCRATCH_SBATCH = """#!/bin/bash
#SBATCH --job-name=nightly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
# usage: sbatch nightly.sbatch MODEL_URL
# works on the node's local disk (fast) and copies the results back at the end; --resume, so that a preempted
# job picks up where it stopped
SCRATCH=SCRATCH_DIR
mkdir -p $SCRATCH && cd $SCRATCH
cp RUN_DIR/string_match.jsonl .
echo "nightly eval on $(hostname) in $SCRATCH against $1"
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $1 \\
  --env string_match --concurrency 4 --resume
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
cp rollouts*.jsonl rollouts*.json RUN_DIR/
"""


@case(
    "cache_resume_slurm_node_local_scratch_reused_from_last_weeks_job",
    "cache_resume",
    ["SCRATCH", "--resume"],
    "the user's nightly.sbatch works in a fixed node-local folder, SCRATCH=/tmp/nightly-eval-scratch (not one per "
    "job), and collects with --resume; last week's job, against step_0100, left its complete rollouts there, so this "
    "week's job against step_0200 found every rollout already done, sent the model nothing and copied last week's "
    "results back into the run folder (everything exits 0)",
)
def cache_resume_slurm_node_local_scratch_reused_from_last_weeks_job(ctx: Ctx) -> str:
    run = ctx.run
    shutil.rmtree(SCRATCH, ignore_errors=True)
    try:
        data, (weaker, better) = builtin_rows(ctx, 8, 16)
        (run / "logs").mkdir(exist_ok=True)
        (run / "nightly.sbatch").write_text(slurm_script(SCRATCH_SBATCH, ctx, SCRATCH_DIR=SCRATCH))
        ctx.note("(last week: the model server on step_0100)")
        old_url, old_policy = ctx.policy(weaker, "--latency-ms 20", log="logs/model_server_last_week.log")
        last = submit_and_wait(ctx, "nightly.sbatch", "logs/submit_last_week.log", old_url)
        ctx.stop(old_policy)
        before = {(r["_ng_task_index"], r["_ng_rollout_index"]): response_text(r) for r in rows_of(run / "rollouts.jsonl")}
        ctx.note("(this week: the model server on step_0200)")
        url, _ = ctx.policy(better, "--latency-ms 20")
        code = submit_and_wait(ctx, "nightly.sbatch", "logs/submit.log", url)
        after = {(r["_ng_task_index"], r["_ng_rollout_index"]): response_text(r) for r in rows_of(run / "rollouts.jsonl")}
        logs = job_logs(ctx, "eval_*.log")
    finally:
        shutil.rmtree(SCRATCH, ignore_errors=True)
    if last or code or len(after) != 24 or before != after or "24 already done" not in logs:
        raise failed(ctx, f"exit {last}/{code}, {len(after)}, same {before == after}: {logs[-600:]}")
    return (f"RUN/nightly.sbatch (node-local SCRATCH=/tmp/nightly-eval-scratch, collect --resume) submitted last week "
            f"against step_0100 (exit {last}) and this week against step_0200 (exit {code}); this week's job collected "
            f"nothing ('24 already done') and the run folder holds last week's {len(after)} rollouts, mean reward "
            f"{mean(rewards(rows_of(run / 'rollouts.jsonl'))):.2f}.")


# =====================================================================================================
# model_serving
# =====================================================================================================

ASCII_HOOK = '''
ASCII_ONLY = True  # the request log (legacy) stores ASCII only: replies are sanitized so that log and reply match


def completion(handler, body):
    status, data = handler._upstream(body)
    if status != 200 or not ASCII_ONLY:
        return status, data
    answer = json.loads(data)
    for choice in answer.get("choices", []):
        message = choice.get("message") or {}
        if isinstance(message.get("content"), str):
            message["content"] = message["content"].encode("ascii", "ignore").decode("ascii")
    return status, json.dumps(answer).encode()
'''

ACCENTED_QUESTIONS = [("Which country has Yamoussoukro as its capital?", "Côte d'Ivoire"),
                      ("What is the largest city of Brazil?", "São Paulo"),
                      ("What is the largest city of Switzerland?", "Zürich"),
                      ("What is the capital of Iceland?", "Reykjavík"),
                      ("What is the capital of Japan?", "Tokyo"),
                      ("What is the capital of Canada?", "Ottawa")]


@case(
    "model_serving_gym_gateway_drops_non_ascii_characters_from_completions",
    "model_serving",
    ["gateway.py", "ASCII_ONLY"],
    "the model server is reached through the team's gateway.py, which strips every non-ASCII character from the "
    "completions (ASCII_ONLY, `encode('ascii', 'ignore')`, for the legacy request log): right answers such as Côte "
    "d'Ivoire, São Paulo, Zürich and Reykjavík reach Gym as 'Cte d'Ivoire', 'So Paulo', 'Zrich', 'Reykjavk', and the "
    "real NeMo Gym eval scored them 0 (everything exits 0)",
    netns=True,
)
def model_serving_gym_gateway_drops_non_ascii_characters_from_completions(ctx: Ctx) -> str:
    run = ctx.run
    data = write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in ACCENTED_QUESTIONS])
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    port = free_port()
    source = gateway_source("Replies are sanitized to ASCII (ASCII_ONLY).", ASCII_HOOK)
    gateway = start_helper(ctx, "gateway.py", source, f"{port} {url.removesuffix('/v1')}", "gateway.py on")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(f'http://127.0.0.1:{port}/v1')} {overrides}")
    ran = ctx.sh(f"cd {run} && {gym_eval_line(overrides, 'tasks.jsonl', 'results/rollouts.jsonl', 3, 4)}",
                 "eval_run.log", timeout=400)
    prof = ctx.sh(f"cd {run} && {gym_profile_line('results')}", "eval_profile.log", timeout=300)
    stop_gym(ctx, env_start, gateway, policy)
    got = rows_of(run / "results" / "rollouts.jsonl")
    accented = [row for row in got if not str(row.get("expected_answer", "")).isascii()]
    plain = [row for row in got if str(row.get("expected_answer", "")).isascii()]
    mangled = sum(final_answer(response_text(row)) == row["expected_answer"].encode("ascii", "ignore").decode()
                  for row in accented)
    if ran or prof or len(got) != 18 or len(accented) != 12 or any(rewards(accented)) or mangled < 8 \
            or not any(rewards(plain)):
        raise failed(ctx, f"exit {ran}/{prof}, {len(got)}, {rewards(got)}, mangled {mangled}")
    return (f"RUN/gateway.py (ASCII_ONLY) in front of the simulated policy; real NeMo Gym 0.7.0 (loopback-only "
            f"namespace) `gym eval run --no-serve` (6 x 3) exit {ran}, profile exit {prof}; accented labels: "
            f"{mangled} of {len(accented)} rollouts are the right answer without its accented letters, every reward "
            f"0; the others mean reward {mean(rewards(plain)):.2f}.")


PLAIN_HOOK = '''
PLAIN_TEXT = True  # the chat UI shows raw text: markdown code fences (```) are dropped from the replies


def completion(handler, body):
    status, data = handler._upstream(body)
    if status != 200 or not PLAIN_TEXT:
        return status, data
    answer = json.loads(data)
    for choice in answer.get("choices", []):
        message = choice.get("message") or {}
        if isinstance(message.get("content"), str):
            lines = message["content"].splitlines()
            message["content"] = "\\n".join(line for line in lines if not line.strip().startswith("```"))
    return status, json.dumps(answer).encode()
'''


@case(
    "model_serving_taskfolder_gateway_strips_markdown_fences_for_chat_ui",
    "model_serving",
    ["gateway.py", "PLAIN_TEXT"],
    "the taskset run reaches the model server through the team's gateway.py, which drops markdown code fences from "
    "every reply (PLAIN_TEXT, for the chat UI); the terminal agent takes its command from the reply's fenced ```bash "
    "block, finds none, and stops each episode after the first turn without running anything, so every episode "
    "scored 0 (everything exits 0)",
)
def model_serving_taskfolder_gateway_strips_markdown_fences_for_chat_ui(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["csv-column-total", "create-greeting"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    port = free_port()
    source = gateway_source("Replies are plain text (PLAIN_TEXT).", PLAIN_HOOK)
    start_helper(ctx, "gateway.py", source, f"{port} {url.removesuffix('/v1')}", "gateway.py on")
    script = taskset_script(ctx, tasks, checkpoint, f"http://127.0.0.1:{port}/v1", ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    if code or len(unique_keys(run / "rollouts.jsonl")) != 4 or any(rewards(got)):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/gateway.py (PLAIN_TEXT: code fences dropped) in front of the simulated policy; RUN/run_tasks.sh "
            f"(`gym-pipeline stage` materialize, collect through the gateway, profile, 2 tasks x 2) exit {code}; "
            f"{len(got)} rollouts, rewards {rewards(got)}.")


# =====================================================================================================
# infra
# =====================================================================================================

BASELINE_FIREWALL = """#!/bin/bash
# node security baseline (from the admins' configuration): at most 2 simultaneous connections per client address
# to any local service, against runaway scrapers
iptables -A INPUT -p tcp --syn -m connlimit --connlimit-above 2 --connlimit-mask 32 -j REJECT --reject-with tcp-reset
iptables -S INPUT
echo "baseline_firewall.sh: applied"
"""


@case(
    "infra_builtin_node_firewall_caps_connections_per_client",
    "infra",
    ["connlimit", "baseline_firewall.sh"],
    "the node's security baseline (node_setup/baseline_firewall.sh) rejects a client's third simultaneous TCP "
    "connection to any local service (`-m connlimit --connlimit-above 2`); collect opens a connection per request in "
    "flight (concurrency 8), so most requests to the model server were reset before reaching it, and many rollouts "
    "failed after their retries",
    netns=True,
)
def infra_builtin_node_firewall_caps_connections_per_client(ctx: Ctx) -> str:
    run = ctx.run
    (run / "node_setup").mkdir()
    (run / "node_setup" / "baseline_firewall.sh").write_text(BASELINE_FIREWALL)
    ctx.note("(the node's baseline, applied at boot)")
    if ctx.sh(f"bash {run}/node_setup/baseline_firewall.sh", "node_setup/baseline_firewall.log", timeout=30):
        raise failed(ctx, "the firewall rule was not applied")
    data, (_, better) = builtin_rows(ctx, 8, 74)
    url, _ = ctx.policy(better, "--latency-ms 1500")
    script = builtin_script(ctx, ["echo \"== weekly eval against $(hostname)\""], "string_match.jsonl", url,
                            concurrency=8)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    got = len(unique_keys(run / "rollouts.jsonl"))
    fails = rows_of(run / "rollouts_failures.jsonl")
    if got >= 24 or not fails:
        raise failed(ctx, f"exit {code}, {got}, {len(fails)} failure rows")
    return (f"RUN/node_setup/baseline_firewall.sh (connlimit above 2 per client: REJECT); RUN/run_eval.sh (materialize "
            f"8 x 3, collect at concurrency 8, profile) exit {code}; {got} of 24 rollouts, {len(fails)} failure rows.")


PORT_FORWARD = """#!/bin/bash
# usage: port_forward.sh NEW_PORT OLD_PORT
# during the migration: send the clients of the new model port to the old server until the new one has loaded
iptables -t nat -A OUTPUT -p tcp -d 127.0.0.1 --dport $1 -j REDIRECT --to-ports $2
echo "forwarding 127.0.0.1:$1 -> 127.0.0.1:$2"
"""


@case(
    "infra_builtin_leftover_nat_redirect_sends_model_port_to_old_server",
    "infra",
    ["port_forward.sh", "REDIRECT"],
    "during the server migration the user forwarded the new model server's port to the old server with "
    "port_forward.sh (`iptables -t nat ... -j REDIRECT`) and never removed the rule; the old server (step_0100) still "
    "runs, so this week's eval against the new server's URL was answered by the old checkpoint, and the new server "
    "(step_0200) received nothing (everything exits 0)",
    netns=True,
)
def infra_builtin_leftover_nat_redirect_sends_model_port_to_old_server(ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 78)
    old_url, _ = ctx.policy(weaker, "--latency-ms 20", log=str(ctx.work / "old_server.log"))
    (run / "port_forward.sh").write_text(PORT_FORWARD)
    url, _ = ctx.policy(better, "--latency-ms 20")
    new_port, old_port = (u.rsplit(":", 1)[1].split("/")[0] for u in (url, old_url))
    ctx.note("(the migration, weeks ago: the new server's port forwarded to the old one while it loaded)")
    if ctx.sh(f"bash {run}/port_forward.sh {new_port} {old_port}", "logs/port_forward.log", timeout=30):
        raise failed(ctx, "the NAT rule was not added")
    script = builtin_script(ctx, [f"echo \"== weekly eval against {url}\""], "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    counters = subprocess.run(["iptables", "-t", "nat", "-L", "OUTPUT", "-v", "-n", "-x"], capture_output=True,
                              text=True).stdout
    matched = [line for line in counters.splitlines() if "REDIRECT" in line]
    packets = int(matched[0].split()[0]) if matched else 0
    got = rows_of(run / "rollouts.jsonl")
    if code or len(unique_keys(run / "rollouts.jsonl")) != 24 or packets < 1:
        raise failed(ctx, f"exit {code}, {len(got)}, packets {packets}: {counters}")
    return (f"RUN/port_forward.sh {new_port} {old_port} (a NAT REDIRECT to the old server, step_0100, still running); "
            f"RUN/run_eval.sh (materialize 8 x 3, collect against port {new_port}, profile) exit {code}; "
            f"{packets} connections to port {new_port} redirected; mean reward {mean(rewards(got)):.2f}.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

BATCH_LOOP = """#!/bin/bash
# collects the materialized rows in batches of 6, with a pause between batches so as not to hammer the shared
# model server (copied from our API scraping scripts)
cd RUN_DIR
PAUSE_S=15
rm -rf batches && mkdir batches
split -l 6 -d rollouts_materialized_inputs.jsonl batches/batch_
for batch in batches/batch_??; do
  echo "== $batch"
  GP_BIN collect --inputs $batch --output $batch.rollouts.jsonl --model-url MODEL_URL --env string_match --concurrency 6
  echo "pausing $PAUSE_S s"
  sleep $PAUSE_S
done
"""

CI_STEP = """#!/bin/bash
# CI eval step: 45 s budget for the collection
cd RUN_DIR
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
timeout 45 bash collect_batches.sh
echo "collect_batches.sh exited $?"
cat batches/*.rollouts.jsonl > rollouts.jsonl
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "throughput_builtin_batches_with_politeness_pause_overrun_ci_budget",
    "throughput_resources",
    ["collect_batches.sh", "PAUSE_S"],
    "the user's collect_batches.sh collects in batches of 6 rows and sleeps PAUSE_S=15 s after each batch (copied "
    "from an API scraping script, 'not to hammer the server'); each batch takes about 2 s, so four batches need about "
    "70 s while the CI step gives the collection 45 s (`timeout 45`): the loop was stopped part way and the profile "
    "is missing the last batches' rollouts",
)
def throughput_builtin_batches_with_politeness_pause_overrun_ci_budget(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 48)
    url, _ = ctx.policy(better, "--latency-ms 300")
    (run / "collect_batches.sh").write_text(slurm_script(BATCH_LOOP, ctx, MODEL_URL=url))
    (run / "run_eval.sh").write_text(slurm_script(CI_STEP, ctx))
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=300)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if not 6 <= got < 24 or not in_log(ctx, "collect_batches.sh exited 124", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (materialize 8 x 3; `timeout 45 bash collect_batches.sh`: batches of 6 with a 15 s "
            f"pause; profile) exit {code}; {got} of 24 rollouts.")


PREPROCESS_SBATCH = """#!/bin/bash
#SBATCH --job-name=tokstats
#SBATCH --output=RUN_DIR/logs/tokstats_%A_%a.log
#SBATCH --cpus-per-task=1
#SBATCH --time=3
# token statistics of the training shards, one array task per shard
echo "tokstats: shard $SLURM_ARRAY_TASK_ID on $(hostname)"
python3 -c "import time; t = time.time(); n = 0
while time.time() - t < 40: n += 1
print('shard done,', n, 'iterations')"
"""

EVAL_SBATCH = """#!/bin/bash
#SBATCH --job-name=nightly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --cpus-per-task=1
#SBATCH --time=10
cd RUN_DIR
echo "nightly eval on $(hostname)"
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 4
"""

NIGHTLY_SUBMIT = """#!/bin/bash
# nightly: the token statistics of the 8 training shards (an array), then the eval; the eval must be done within
# DEADLINE_S for the morning report, else it is cancelled and the report says so
cd RUN_DIR
PRE=$(sbatch --parsable --array=0-7 tokstats.sbatch)
echo "tokstats array $PRE"
JOB=$(sbatch --parsable nightly.sbatch)
echo "eval job $JOB"
DEADLINE_S=60
for i in $(seq $((DEADLINE_S / 2))); do
  squeue -h -j $JOB 2>/dev/null | grep -q . || break
  sleep 2
done
squeue -h -o "%i %j %T %r"
if squeue -h -j $JOB 2>/dev/null | grep -q .; then
  echo "eval job $JOB not done after $DEADLINE_S s: cancelling it"
  scancel $JOB
fi
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "throughput_slurm_eval_job_queued_behind_own_preprocessing_array",
    "throughput_resources",
    ["--array=0-7", "tokstats.sbatch"],
    "the user's nightly submit.sh first submits a token-statistics array over 8 shards (`--array=0-7`, 40 s of CPU "
    "each, no throttle) and then the eval job; the array takes both CPUs of the node for about 160 s and its waiting "
    "tasks come first, so the eval job stayed PENDING (Priority/Resources) until the 60 s deadline and was cancelled "
    "before it ran a line: nothing was materialized, collected or profiled",
)
def throughput_slurm_eval_job_queued_behind_own_preprocessing_array(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 2)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "tokstats.sbatch").write_text(slurm_script(PREPROCESS_SBATCH, ctx))
    (run / "nightly.sbatch").write_text(slurm_script(EVAL_SBATCH, ctx, MODEL_URL=url))
    (run / "submit.sh").write_text(slurm_script(NIGHTLY_SUBMIT, ctx))
    try:
        code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=300)
    finally:
        array = re.search(r"tokstats array (\d+)", text_of(run / "logs" / "submit.log"))
        if array:  # the array is ours: cancel what is left of it
            subprocess.run(["scancel", array.group(1)], capture_output=True, env=ctx.env)
    got = len(rows_of(run / "rollouts.jsonl"))
    submit_log = text_of(run / "logs" / "submit.log")
    if got or "PENDING" not in submit_log or "cancelling it" not in submit_log or job_logs(ctx, "eval_*.log"):
        raise failed(ctx, f"exit {code}, {got}: {submit_log[-800:]}")
    return (f"RUN/submit.sh (sbatch --array=0-7 of RUN/tokstats.sbatch, then of RUN/nightly.sbatch; 60 s deadline; "
            f"profile) exit {code}; the eval job pended behind the array and was cancelled; {got} rollouts.")


if __name__ == "__main__":
    sys.exit(main("twenty_seventh_held_out", __file__, __doc__))
