"""Build the THIRTY-FOURTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/thirty_fourth_held_out.py --out tests/data/diagnosis_corpus/thirty_fourth_held_out [--only CASE ...]

This set was written from the guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder
troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests
or their results. It is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
task folders run in Docker sandboxes, Slurm batch jobs, the real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` /
`gym eval profile` inside a loopback-only network namespace, with a user's own resources server), and the user's own
shell scripts, settings files, helper servers (gateways), task files and data-preparation scripts. The output of every
command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the
user's own inputs (data, scripts, settings, verifier code). Each case injects one cause, different in mechanism from
those of the thirty-three earlier sets (first_held_out.py ... thirty_third_held_out.py), and each recipe checks that
its fault really happened (it raises RecipeError otherwise, and the case is not written). About half of the failures
are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare),
Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this checkout. Run it from a foreground shell.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import checkpoints, failed, gym_start, stop_gym, task_checkpoints, user_taskset  # noqa: E402
from fourteenth_held_out import mean, rewards  # noqa: E402
from recipes import GP, Ctx, case, gym_model_args, main, rows_of, text_of, unique_keys  # noqa: E402
from tenth_held_out import in_log  # noqa: E402
from thirtieth_held_out import gateway_url, gym_rows  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_fifth_held_out import job_logs, task_rows  # noqa: E402
from twenty_fourth_held_out import gym_eval_line, gym_profile_line  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_seventh_held_out import builtin_script, gym_eval_with_own_server, submit_and_wait  # noqa: E402
from twenty_sixth_held_out import gym_run, slurm_script  # noqa: E402
from twenty_third_held_out import taskset_script, write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()

CAPITALS = [("What is the capital of Portugal?", "Lisbon"),
            ("Which planet is known as the Red Planet?", "Mars"),
            ("Who painted the Mona Lisa?", "Leonardo da Vinci"),
            ("What is the chemical symbol of gold?", "Au"),
            ("Which ocean is the largest?", "Pacific"),
            ("What is the capital of Canada?", "Ottawa")]

YEARS = [("In which year did the First World War begin?", "1914"),
         ("In which year did the Berlin Wall fall?", "1989"),
         ("In which year did Apollo 11 land on the Moon?", "1969"),
         ("How many days are in a leap year?", "366"),
         ("How many minutes are in a day?", "1440"),
         ("In which year was the United Nations founded?", "1945")]


def pipeline(url: str, data: str = "string_match.jsonl", repeats: str = "3", concurrency: str = "4",
             gp: str = str(GP)) -> str:
    return (f"{gp} materialize --input {data} --num-repeats {repeats} --agent string_match_simple_agent "
            f"--output rollouts_materialized_inputs.jsonl\n"
            f"{gp} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {url} "
            f"--env string_match --concurrency {concurrency}\n"
            f"{gp} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")


def mean_reward(path: Path) -> str:
    return f"{mean(rewards(rows_of(path))):.2f}"


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_builtin_run_script_logs_cpu_temperature_without_lm_sensors",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh logs the node's CPU temperature first (`sensors || echo ...`, a habit "
    "from a workstation that overheated); this node has no lm-sensors, so the log opens with 'sensors: command not "
    "found', but materialize, collect and profile completed every rollout",
)
def healthy_builtin_run_script_logs_cpu_temperature_without_lm_sensors(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 12)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["sensors || echo '(temperature unknown)'", "echo '== weekly eval'"],
                            "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code or got != 24 or not in_log(ctx, "sensors: command not found", "logs/run_eval.log") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (`sensors` absent; materialize 8 x 3, collect, profile) exit {code}; {got} rollouts, "
            f"mean reward {mean_reward(run / 'rollouts.jsonl')}.")


@case(
    "healthy_gym_run_script_checks_gpu_persistence_daemon_with_systemctl_in_container",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh, copied from the GPU nodes' template, first checks the GPU persistence "
    "daemon (`systemctl is-active nvidia-persistenced || echo ...`); the eval runs in a container without systemd, so "
    "the log opens with 'System has not been booted with systemd as init system', but the real NeMo Gym eval then "
    "collected, verified and profiled every rollout",
    netns=True,
)
def healthy_gym_run_script_checks_gpu_persistence_daemon_with_systemctl_in_container(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=20, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["systemctl is-active nvidia-persistenced || echo '(no persistence daemon)'",
                                        "echo '== weekly eval'"], overrides)
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if code or got != 18 or not in_log(ctx, "booted with systemd", "logs/run_eval.log") \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (`systemctl is-active` without systemd, "
            f"then `gym eval run --no-serve` 6 tasks x 3, `gym eval profile`) exit {code}, {got} rollouts, mean reward "
            f"{mean(rewards(gym_rows(ctx))):.2f}.")


@case(
    "healthy_taskfolder_run_script_inspects_pip_cache_volume_that_does_not_exist",
    "healthy",
    [],
    "nothing is wrong: the user's run_tasks.sh first prints the team's shared pip-cache Docker volume (`docker volume "
    "inspect team-pip-cache || echo ...`), which exists on the build hosts only, so the log opens with 'Error response "
    "from daemon: get team-pip-cache: no such volume', but the taskset ran: every episode ran in its Docker sandbox, "
    "was verified and profiled",
)
def healthy_taskfolder_run_script_inspects_pip_cache_volume_that_does_not_exist(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["create-greeting", "sort-unique-words"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, [
        "docker volume inspect team-pip-cache || echo '(no shared pip cache here)'", "echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    if code or len(unique_keys(run / "rollouts.jsonl")) != 4 or not any(rewards(got)) \
            or not in_log(ctx, "no such volume", "logs/run_tasks.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/run_tasks.sh (`docker volume inspect` of an absent volume; `gym-pipeline stage` materialize, collect, "
            f"profile of RUN/tasks x 2) exit {code}; rewards {rewards(got)}.")


RESV_SBATCH = """#!/bin/bash
#SBATCH --job-name=nightly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
cd RUN_DIR
# warn if tonight's GPU maintenance window is booked (the admins announce it as a reservation)
scontrol show reservation gpu-maint || echo "(no maintenance booked)"
echo "nightly eval on $(hostname)"
PIPELINE"""


@case(
    "healthy_slurm_job_looks_up_maintenance_reservation_that_is_not_booked",
    "healthy",
    [],
    "nothing is wrong: the user's nightly.sbatch first looks up the admins' maintenance reservation (`scontrol show "
    "reservation gpu-maint`), which is not booked tonight, so the job log opens with 'Reservation gpu-maint not "
    "found', but materialize, collect and profile completed every rollout",
)
def healthy_slurm_job_looks_up_maintenance_reservation_that_is_not_booked(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 36)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "nightly.sbatch").write_text(slurm_script(RESV_SBATCH, ctx, PIPELINE=pipeline(url)))
    code = submit_and_wait(ctx, "nightly.sbatch", "logs/submit.log")
    logs = job_logs(ctx, "eval_*.log")
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code or got != 24 or "not found" not in logs or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {logs[-600:]}")
    return (f"RUN/submit.sh (sbatch of RUN/nightly.sbatch: `scontrol show reservation gpu-maint`, not booked; "
            f"materialize 8 x 3, collect, profile) exit {code}; {got} rollouts, mean reward "
            f"{mean_reward(run / 'rollouts.jsonl')}.")


# =====================================================================================================
# infra
# =====================================================================================================


@case(
    "infra_builtin_shared_tools_synced_without_exec_bits_first_on_path",
    "infra",
    ["node_env.sh", "PATH", "chmod"],
    "the eval nodes' node_env.sh puts the team's synced tools folder first on PATH; the nightly sync copied the "
    "tools without their permission bits (`cp -r` onto a share that drops them), so its gym-pipeline launcher is not "
    "executable and every `gym-pipeline` command of the run script failed with 'Permission denied' (exit 126): "
    "nothing was collected",
)
def infra_builtin_shared_tools_synced_without_exec_bits_first_on_path(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 44)
    url, _ = ctx.policy(better, "--latency-ms 20")
    tools = ctx.work / "shared" / "team-tools" / "bin"
    tools.mkdir(parents=True)
    (tools / "gym-pipeline").write_text(Path(GP).read_text())
    (tools / "gym-pipeline").chmod(0o644)
    ctx.note(f"(the team's synced tools: {ctx._shown(str(tools))}/gym-pipeline, mode 644 after the sync)")
    (run / "node_env.sh").write_text(f"# node settings of the eval nodes: the team's tools first on PATH\n"
                                     f"export PATH={tools}:/usr/local/bin:/usr/bin:/bin\nexport OMP_NUM_THREADS=4\n")
    script = run / "run_eval.sh"
    script.write_text(f"#!/bin/bash\n# weekly eval\ncd {run}\nsource ./node_env.sh\nls -l $(type -P -a gym-pipeline "
                      f"2>/dev/null; echo {tools}/gym-pipeline) | sort -u\n" + pipeline(url, gp="gym-pipeline"))
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got or not in_log(ctx, "Permission denied", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (sources RUN/node_env.sh: PATH starts with the synced tools, whose gym-pipeline has no "
            f"exec bit) exit {code}; {got} rollouts.")


@case(
    "infra_builtin_results_symlink_loop_left_by_storage_migration",
    "infra",
    ["results", "symlink", "ln"],
    "the storage migration replaced the project's results folder by a link to the new volume (results -> "
    "results_migrated) and left the new volume's mount point as a link back (results_migrated -> results), a "
    "symbolic-link loop that never reaches a folder: materialize and collect refused their outputs under results/ "
    "(a link to a folder that does not exist) and nothing of the run was kept",
)
def infra_builtin_results_symlink_loop_left_by_storage_migration(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 52)
    url, _ = ctx.policy(better, "--latency-ms 20")
    ctx.sh(f"cd {run} && ln -s results_migrated results && ln -s results results_migrated && ls -l", "logs/migration.log")
    script = run / "run_eval.sh"
    script.write_text(f"#!/bin/bash\n# weekly eval: everything into results/\ncd {run}\n"
                      f"{GP} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent "
                      f"--output results/rollouts_materialized_inputs.jsonl\n"
                      f"{GP} collect --inputs results/rollouts_materialized_inputs.jsonl --output results/rollouts.jsonl "
                      f"--model-url {url} --env string_match --concurrency 4\n"
                      f"{GP} profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    if (run / "results" / "rollouts.jsonl").exists() or not in_log(ctx, "is a symlink", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}")
    return f"RUN/results -> results_migrated -> results (a loop); RUN/run_eval.sh exit {code}; nothing written."


# =====================================================================================================
# model_serving
# =====================================================================================================

GZIP_HOOK = '''
import gzip


def completion(handler, body):
    status, data = handler._upstream(body)
    return status, gzip.compress(data)  # halve the traffic over the site link
'''

FOOTER_HOOK = '''
FOOTER = "\\n\\n-- Generated by TeamGPT. Check important facts before use."


def completion(handler, body):
    status, data = handler._upstream(body)
    if status != 200:
        return status, data
    reply = json.loads(data)
    for choice in reply.get("choices", []):
        choice["message"]["content"] = (choice["message"].get("content") or "") + FOOTER
    return status, json.dumps(reply).encode()
'''


@case(
    "model_serving_builtin_gateway_gzips_replies_without_content_encoding_header",
    "model_serving",
    ["gateway.py", "gzip"],
    "the team's gateway.py compresses every chat completion with gzip to save bandwidth but sends no "
    "'Content-Encoding: gzip' header, so clients get binary bytes where JSON is expected: no completion could be "
    "read and no rollout was scored",
)
def model_serving_builtin_gateway_gzips_replies_without_content_encoding_header(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 60)
    url, _ = ctx.policy(better, "--latency-ms 20")
    gateway = gateway_url(ctx, url, "Completions are gzip-compressed to save bandwidth.", GZIP_HOOK)
    script = builtin_script(ctx, ["echo '== weekly eval, through the gateway'"], "string_match.jsonl", gateway)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    if any(rewards(got)):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/gateway.py (gzip bodies, no Content-Encoding) in front of the simulated policy; RUN/run_eval.sh "
            f"exit {code}; {len(got)} rollouts, rewards {rewards(got)}.")


@case(
    "model_serving_builtin_gateway_appends_disclaimer_footer_to_every_reply",
    "model_serving",
    ["gateway.py", "FOOTER"],
    "the team's gateway.py, set up for the chat UI, appends a disclaimer footer ('-- Generated by TeamGPT. Check "
    "important facts before use.') to every completion; the eval's answers now end with it, the final-answer "
    "extraction took the footer's text along on the tasks whose answer ends the reply, and those scored 0 although the model answered right (everything "
    "exits 0)",
)
def model_serving_builtin_gateway_appends_disclaimer_footer_to_every_reply(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 68)
    url, _ = ctx.policy(better, "--latency-ms 20")
    gateway = gateway_url(ctx, url, "Adds the usage disclaimer (FOOTER) to every reply.", FOOTER_HOOK)
    script = builtin_script(ctx, ["echo '== weekly eval, through the gateway'"], "string_match.jsonl", gateway)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    footed = [row for row in got if "TeamGPT" in str(row.get("extracted_answer"))]
    if code or len(got) != 24 or len(footed) < 6 or any(rewards(footed)):
        raise failed(ctx, f"exit {code}, {len(got)}, {len(footed)}, {rewards(got)}")
    return (f"RUN/gateway.py (appends FOOTER to every reply) in front of the simulated policy; RUN/run_eval.sh exit "
            f"{code}; {len(got)} rollouts, {len(footed)} graded on an answer that took the footer along (reward 0), mean "
            f"reward {mean(rewards(got)):.2f}.")


# =====================================================================================================
# config
# =====================================================================================================

CHILD_SETTINGS = """# eval settings (read by run_eval.sh)
DATA=string_match.jsonl
REPEATS=3
CONCURRENCY=4
"""

CHILD_PARENT = """#!/bin/bash
# weekly eval: settings from settings.env, one script per step
cd RUN_DIR
source ./settings.env
echo "== weekly eval of $DATA x $REPEATS"
bash steps/materialize.sh
bash steps/collect.sh MODEL_URL
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""

CHILD_MATERIALIZE = """#!/bin/bash
# materialize step (defaults for a quick manual try)
GP_BIN materialize --input ${DATA:-string_match.jsonl} --num-repeats ${REPEATS:-1} \\
  --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
"""

CHILD_COLLECT = """#!/bin/bash
# collect step: bash steps/collect.sh MODEL_URL
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $1 \\
  --env string_match --concurrency ${CONCURRENCY:-4}
"""


@case(
    "config_builtin_settings_sourced_without_export_so_step_scripts_use_their_defaults",
    "config",
    ["settings.env", "export", "REPEATS"],
    "settings.env sets REPEATS=3 as plain shell variables (no `export`); run_eval.sh sources it and then runs each "
    "step as a child script (`bash steps/materialize.sh`), which does not see unexported variables and fell back to "
    "its default ${REPEATS:-1}: the weekly eval ran one rollout per task instead of three, while run_eval.sh's own "
    "log line said 'x 3' (everything exits 0)",
)
def config_builtin_settings_sourced_without_export_so_step_scripts_use_their_defaults(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 76)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "steps").mkdir()
    (run / "settings.env").write_text(CHILD_SETTINGS)
    (run / "steps" / "materialize.sh").write_text(slurm_script(CHILD_MATERIALIZE, ctx))
    (run / "steps" / "collect.sh").write_text(slurm_script(CHILD_COLLECT, ctx))
    (run / "run_eval.sh").write_text(slurm_script(CHILD_PARENT, ctx, MODEL_URL=url))
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code or got != 8 or not in_log(ctx, "x 3", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/settings.env REPEATS=3 (not exported); RUN/run_eval.sh -> steps/materialize.sh (${{REPEATS:-1}}) exit "
            f"{code}; {got} rollouts for 8 tasks x 3 intended.")


CASE_SCRIPT = """#!/bin/bash
# weekly eval: bash run_eval.sh [full|smoke]   (full by default)
cd RUN_DIR
MODE=${1:-full}
case "$MODE" in
  smoke|*) DATA=smoke.jsonl; REPEATS=1 ;;   # anything unexpected: the cheap run
  full) DATA=tasks.jsonl; REPEATS=3 ;;
esac
echo "== weekly eval ($MODE): $DATA x $REPEATS"
GYM_EVAL
GYM_PROFILE
"""


@case(
    "config_gym_run_script_case_catch_all_pattern_listed_before_full_branch",
    "config",
    ["run_eval.sh", "case", "smoke|*"],
    "run_eval.sh chooses the run with a `case` whose first pattern is `smoke|*` (meant as 'anything unexpected: the "
    "cheap run'); bash takes the first matching pattern, so `bash run_eval.sh full` also ran the smoke settings: the "
    "real NeMo Gym eval covered smoke.jsonl's 2 tasks once each instead of tasks.jsonl's 6 tasks x 3 (everything "
    "exits 0, the log says 'full')",
    netns=True,
)
def config_gym_run_script_case_catch_all_pattern_listed_before_full_branch(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=14, folder=run, name="tasks.jsonl")
    ctx.dataset("string_match", 2, start=14, folder=run, name="smoke.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    (run / "run_eval.sh").write_text(slurm_script(
        CASE_SCRIPT, ctx, GYM_EVAL=gym_eval_line(overrides, "$DATA", "results/rollouts.jsonl", "$REPEATS", 4),
        GYM_PROFILE=gym_profile_line("results")))
    code = ctx.sh(f"bash {run}/run_eval.sh full", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if code or got != 2 or not in_log(ctx, "(full): smoke.jsonl", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): `bash RUN/run_eval.sh full` (`case` with `smoke|*` "
            f"first) exit {code}; {got} rollouts of smoke.jsonl x 1 instead of 6 tasks x 3.")


# =====================================================================================================
# data_schema
# =====================================================================================================

LIST_PREP = '''"""prepare_data.py: the review tool's export (review_export.json) -> string_match.jsonl"""
import json

items = json.load(open("review_export.json"))
with open("string_match.jsonl", "w") as out:
    for item in items:
        # older exports had "answer", the new one has "answers": take whichever is there
        label = str(item.get("answers") or item.get("answer"))
        text = item["question"] + " End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": label, "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
print(f"wrote {len(items)} tasks")
'''


@case(
    "data_schema_builtin_prep_writes_list_valued_answers_as_python_repr",
    "data_schema",
    ["prepare_data.py", "answers", "str("],
    "the review tool's new export holds each label as a list (\"answers\": [\"Lisbon\"]); the user's "
    "prepare_data.py turns whatever it finds into a string with str(), so every expected_answer became the Python "
    "text \"['Lisbon']\" and no answer could match it: every rollout scored 0 although the model answered right "
    "(everything exits 0)",
)
def data_schema_builtin_prep_writes_list_valued_answers_as_python_repr(ctx: Ctx) -> str:
    run = ctx.run
    (run / "review_export.json").write_text(json.dumps(
        [{"id": i, "question": q, "answers": [a], "reviewer": "ann"} for i, (q, a) in enumerate(CAPITALS)], indent=1))
    (run / "prepare_data.py").write_text(LIST_PREP)
    ctx.sh(f"cd {run} && python3 prepare_data.py", "logs/prepare_data.log")
    truth = write_jsonl(ctx.work / "truth.jsonl", [question_row(q, a) for q, a in CAPITALS])
    better = checkpoints(ctx, "string_match", truth)[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["echo '== weekly eval'"], "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    if code or len(got) != 18 or any(rewards(got)) or not all(row["expected_answer"].startswith("['") for row in got):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/review_export.json (\"answers\": [...]) -> RUN/prepare_data.py (str()) -> labels like "
            f"{got[0]['expected_answer']!r}; RUN/run_eval.sh exit {code}; rewards {rewards(got)}.")


CSV_PREP = '''"""prepare_data.py: labels.csv (question,answer; saved from the team spreadsheet) -> tasks.jsonl"""
import csv
import json

with open("labels.csv", newline="", encoding="utf-8") as source, open("tasks.jsonl", "w") as out:
    for record in csv.DictReader(source):
        text = record["question"] + " End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": record["answer"], "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
'''


@case(
    "data_schema_gym_labels_csv_saved_with_byte_order_mark_renames_first_column",
    "data_schema",
    ["labels.csv", "utf-8-sig", "BOM"],
    "this week's labels.csv was saved from the spreadsheet as 'CSV UTF-8', which starts the file with a byte-order "
    "mark; prepare_data.py reads it as plain utf-8, so the first column is named '\\ufeffquestion', not 'question', and "
    "the script died with KeyError: 'question' after creating an empty tasks.jsonl: the real NeMo Gym eval had no "
    "task to run",
    netns=True,
)
def data_schema_gym_labels_csv_saved_with_byte_order_mark_renames_first_column(ctx: Ctx) -> str:
    run = ctx.run
    (run / "labels.csv").write_bytes(("question,answer\r\n" + "".join(f"{q},{a}\r\n" for q, a in YEARS))
                                     .encode("utf-8-sig"))
    (run / "prepare_data.py").write_text(CSV_PREP)
    prep = ctx.sh(f"cd {run} && python3 prepare_data.py", "logs/prepare_data.log")
    truth = write_jsonl(ctx.work / "truth.jsonl", [question_row(q, a) for q, a in YEARS])
    better = checkpoints(ctx, "string_match", truth)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["echo '== weekly eval'", "wc -l tasks.jsonl"], overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx) if (run / "results" / "rollouts.jsonl").exists() else []
    if not prep or got or not in_log(ctx, "KeyError: 'question'", "logs/prepare_data.log"):
        raise failed(ctx, f"prep exit {prep}, eval exit {code}, {len(got)}")
    return (f"RUN/labels.csv (UTF-8 with BOM) -> RUN/prepare_data.py (encoding utf-8) exit {prep}, KeyError "
            f"'question'; real NeMo Gym 0.7.0 (loopback-only namespace) RUN/run_eval.sh exit {code}; {len(got)} "
            f"rollouts.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

MATCH_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        # our own extraction: the text after "Final answer:"
        found = re.match(r"Final answer:\\s*(.+)", text)
        extracted = found.group(1).strip().rstrip(".") if found else None

        reward = 0.0
        if extracted is not None and body.expected_answer:
            if extracted.lower() == body.expected_answer.strip().lower():
                reward = 1.0

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


@case(
    "verifier_runtime_gym_verify_extracts_answer_with_re_match_anchored_at_start",
    "verifier_runtime",
    ["app.py", "re.match", "re.search"],
    "the user's final_answers resources server finds the answer with re.match(r\"Final answer:\\s*(.+)\", text), "
    "which only matches at the very start of the text; the model's replies reason first and end with 'Final answer: "
    "...', so nothing was ever extracted and every rollout scored 0 in the real NeMo Gym eval although the model "
    "answered right (everything exits 0)",
    netns=True,
)
def verifier_runtime_gym_verify_extracts_answer_with_re_match_anchored_at_start(ctx: Ctx) -> str:
    run = ctx.run
    data = write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in CAPITALS])
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    ran, prof, env_start = gym_eval_with_own_server(ctx, "final_answers", MATCH_VERIFY, data, url, overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    answered = [row for row in got if f"Final answer: {row.get('expected_answer')}".lower()
                in json.dumps(row.get("response")).lower()]
    if ran or prof or len(got) != 18 or len(answered) < 6 or any(rewards(got)) \
            or any(row.get("extracted_answer") for row in got):
        raise failed(ctx, f"exit {ran}/{prof}, {len(got)}, {len(answered)} answered, {rewards(got)}")
    return (f"A user's resources server final_answers (`re.match` of 'Final answer:'); real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) `gym eval run --no-serve` (6 tasks x 3) exit {ran}, profile exit {prof}; "
            f"{len(answered)} replies end with the right final answer, nothing extracted, rewards {rewards(got)}.")


BC_TEST = """#!/bin/bash
# Writes the share of passed checks (0-1) to /logs/verifier/reward.txt.
cd /app
PASSED=0
TOTAL=2
test -f /app/hello.txt && PASSED=$((PASSED + 1))
test "$(cat /app/hello.txt 2>/dev/null)" = "Hello, Gym!" && PASSED=$((PASSED + 1))
echo "passed $PASSED of $TOTAL"
echo "scale=2; $PASSED / $TOTAL" | bc > /logs/verifier/reward.txt
"""


@case(
    "verifier_runtime_taskfolder_test_sh_computes_score_with_bc_missing_from_image",
    "verifier_runtime",
    ["test.sh", "bc"],
    "create-greeting's tests/test.sh computes the share of passed checks with `bc`, which the task's sandbox image "
    "does not have ('bc: command not found'): reward.txt was left empty and no episode of the task got a reward, "
    "although the agent's greeting was right, while the other task was scored normally",
)
def verifier_runtime_taskfolder_test_sh_computes_score_with_bc_missing_from_image(ctx: Ctx) -> str:
    def edit(tasks: Path) -> None:
        (tasks / "create-greeting" / "tests" / "test.sh").write_text(BC_TEST)

    tasks = user_taskset(ctx, ["create-greeting", "top-word"], edit)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    greet = task_rows(ctx, "create-greeting")
    other = task_rows(ctx, "top-word")
    seen = json.dumps(greet) + "".join(text_of(p) for p in ctx.run.rglob("*") if p.is_file() and p.suffix in
                                       (".txt", ".log", ".jsonl", ".json"))
    if not greet or any(rewards(greet)) or not any(rewards(other)) or "bc: command not found" not in seen:
        raise failed(ctx, f"exit {code}, greeting {rewards(greet)}, other {rewards(other)}")
    return (f"RUN/tasks/create-greeting/tests/test.sh pipes to `bc` (absent from the image); RUN/run_tasks.sh exit "
            f"{code}; create-greeting rewards {rewards(greet)}, top-word rewards {rewards(other)}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

TRUNCATE_CLEANUP = """#!/bin/bash
# empty last run's outputs (kept as files so the sync tool does not complain about deletions)
cd RUN_DIR
for f in rollouts*.jsonl; do : > "$f"; done
ls -l rollouts*.jsonl
"""

GUARD_SCRIPT = """#!/bin/bash
# weekly eval; materialize only once (the inputs of a run never change)
cd RUN_DIR
[ -e rollouts_materialized_inputs.jsonl ] || GP_BIN materialize --input string_match.jsonl --num-repeats 3 \\
  --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 4
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "cache_resume_builtin_exists_guard_reuses_inputs_emptied_by_cleanup_script",
    "cache_resume",
    ["run_eval.sh", "-e", "cleanup.sh"],
    "the user's cleanup.sh empties last week's outputs instead of removing them (`: > file`), and run_eval.sh only "
    "materializes when rollouts_materialized_inputs.jsonl does not exist (`[ -e ... ] ||`); the emptied file exists, "
    "so this week's run skipped materialize and collected over zero inputs: no rollout was collected for the new "
    "checkpoint",
)
def cache_resume_builtin_exists_guard_reuses_inputs_emptied_by_cleanup_script(ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 22)
    (run / "run_eval.sh").write_text(slurm_script(GUARD_SCRIPT, ctx, MODEL_URL="$1").replace("MODEL_URL", "$1"))
    (run / "cleanup.sh").write_text(slurm_script(TRUNCATE_CLEANUP, ctx))
    old_url, old = ctx.policy(weaker, "--latency-ms 20", log="logs/model_server_last_week.log")
    code1 = ctx.sh(f"bash {run}/run_eval.sh {old_url}", "logs/run_eval_last_week.log", timeout=400)
    ctx.stop(old)
    first = len(rows_of(run / "rollouts.jsonl"))
    ctx.sh(f"bash {run}/cleanup.sh", "logs/cleanup.log")
    url, _ = ctx.policy(better, "--latency-ms 20")
    code2 = ctx.sh(f"bash {run}/run_eval.sh {url}", "logs/run_eval.log", timeout=400)
    got = len(rows_of(run / "rollouts.jsonl"))
    if code1 or first != 24 or got or "materialize" in text_of(run / "logs" / "run_eval.log").split("collect")[0]:
        raise failed(ctx, f"exit {code1}/{code2}, {first}, {got}")
    return (f"last week's RUN/run_eval.sh (exit {code1}, {first} rollouts); RUN/cleanup.sh (`: > file`); this week's "
            f"RUN/run_eval.sh (`[ -e rollouts_materialized_inputs.jsonl ] ||` skipped materialize) exit {code2}; "
            f"{got} rollouts.")


RESUME_SCRIPT = """#!/bin/bash
# weekly eval of the served checkpoint; restartable with --resume if the node goes away mid-run
cd RUN_DIR
rm -f results/rollout.jsonl results/rollouts_reward_profiling.jsonl   # a fresh start every week
echo "== weekly eval, $(date +%F)"
GYM_EVAL --resume
GYM_PROFILE
"""


@case(
    "cache_resume_gym_weekly_cleanup_misspells_rollouts_file_so_resume_keeps_last_weeks",
    "cache_resume",
    ["run_eval.sh", "rollout.jsonl", "--resume"],
    "run_eval.sh starts each week fresh with `rm -f results/rollout.jsonl ...` (misspelled: the file is "
    "rollouts.jsonl) and runs `gym eval run --resume` so an interrupted run can be restarted; last week's complete "
    "results/rollouts.jsonl of step_0100 survived, so this week's --resume found every rollout done, collected "
    "nothing from step_0200 and profiled last week's rollouts (everything exits 0)",
    netns=True,
)
def cache_resume_gym_weekly_cleanup_misspells_rollouts_file_so_resume_keeps_last_weeks(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=60, folder=run, name="tasks.jsonl")
    weaker, better = checkpoints(ctx, "string_match", data)
    overrides = ctx.gym_overrides()
    (run / "run_eval.sh").write_text(slurm_script(
        RESUME_SCRIPT, ctx, GYM_EVAL=gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 4),
        GYM_PROFILE=gym_profile_line("results")))
    old_url, old_policy = ctx.policy(weaker, "--latency-ms 30", log="logs/policy_server_last_week.log")
    old_env = gym_start(ctx, f"{gym_model_args(old_url)} {overrides}", log="logs/env_start_last_week.log")
    code1 = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval_last_week.log", timeout=500)
    stop_gym(ctx, old_env, old_policy)
    first = rows_of(run / "results" / "rollouts.jsonl")
    url, policy = ctx.policy(better, "--latency-ms 30", log="logs/policy_server.log")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}", log="logs/env_start.log")
    code2 = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    after = rows_of(run / "results" / "rollouts.jsonl")
    served = text_of(run / "logs" / "policy_server.log").count("chat/completions")
    if code1 or code2 or len(first) != 18 or len(after) != 18 or served \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code1}/{code2}, {len(first)}, {len(after)}, served {served}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (`rm -f results/rollout.jsonl`, `gym eval "
            f"run --resume`) for step_0100 (exit {code1}), a week later for step_0200 (exit {code2}); step_0200's "
            f"server got {served} completion requests; {len(after)} rollouts, all step_0100's, mean reward "
            f"{mean(rewards(after)):.2f}.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

DEADLINE_SBATCH = """#!/bin/bash
#SBATCH --job-name=gap-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
# backfill template: run in the gap before the maintenance window, shrink the job if needed
#SBATCH --time-min=1
#SBATCH --deadline=now+90
cd RUN_DIR
echo "eval on $(hostname): $(wc -l < string_match.jsonl) tasks x 4"
scontrol show job $SLURM_JOB_ID | grep -o 'TimeLimit=[^ ]*'
PIPELINE"""


@case(
    "throughput_slurm_job_deadline_and_time_min_shrink_time_limit_below_collect_time",
    "throughput_resources",
    ["--deadline", "--time-min", "eval.sbatch"],
    "the user's eval.sbatch came from the backfill template (#SBATCH --time-min=1 with --deadline=now+90): Slurm "
    "shrank the job's time limit from 10 minutes to 1 minute to meet the deadline, but collecting 48 tasks x 4 at "
    "concurrency 2 needs well over a minute, so the job was cancelled 'DUE TO TIME LIMIT' mid-collect, with only "
    "part of the rollouts written and no profile",
)
def throughput_slurm_job_deadline_and_time_min_shrink_time_limit_below_collect_time(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 48, 30)
    url, _ = ctx.policy(better, "--latency-ms 1500")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(DEADLINE_SBATCH, ctx,
                                                  PIPELINE=pipeline(url, repeats="4", concurrency="2")))
    code = submit_and_wait(ctx, "eval.sbatch", "logs/submit.log")
    logs = job_logs(ctx, "eval_*.log")
    got = len(rows_of(run / "rollouts.jsonl"))
    if got >= 192 or "TIME LIMIT" not in logs or "TimeLimit=00:01:00" not in logs \
            or (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {logs[-600:]}")
    return (f"RUN/submit.sh (sbatch of RUN/eval.sbatch: --time=10 --time-min=1 --deadline=now+90, time limit shrunk "
            f"to 1 minute; 48 tasks x 4 at concurrency 2, latency 1.5 s) exit {code}; {got} of 192 rollouts.")


def short_agent_timeout(tasks: Path) -> None:
    for toml in tasks.glob("*/task.toml"):
        toml.write_text(toml.read_text().replace("[agent]\ntimeout_sec = 120.0", "[agent]\ntimeout_sec = 2.0"))


@case(
    "throughput_taskfolder_agent_timeout_tuned_on_hosted_api_too_short_for_served_checkpoint",
    "throughput_resources",
    ["timeout_sec", "task.toml"],
    "the taskset's task.toml files give the agent 2 seconds ([agent] timeout_sec = 2.0, tuned when the tasks were "
    "tried against a hosted API model answering in a fraction of a second); the team's served checkpoint takes about "
    "3 s per turn, so every episode ran out of agent time after its first reply, before running a single command, and scored 0",
)
def throughput_taskfolder_agent_timeout_tuned_on_hosted_api_too_short_for_served_checkpoint(ctx: Ctx) -> str:
    tasks = user_taskset(ctx, ["create-greeting", "top-word"], short_agent_timeout)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 3000")
    script = taskset_script(ctx, tasks, checkpoint, url, ["grep -H timeout_sec tasks/*/task.toml",
                                                          "echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(ctx.run / "rollouts.jsonl")
    if len(got) != 4 or any(rewards(got)) or "timeout_sec = 2.0" not in text_of(tasks / "top-word" / "task.toml"):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/tasks/*/task.toml [agent] timeout_sec = 2.0; policy at 3 s per turn; RUN/run_tasks.sh exit {code}; "
            f"{len(got)} rollouts, rewards {rewards(got)}.")


ARRAY_SBATCH = """#!/bin/bash
#SBATCH --job-name=shard-eval
#SBATCH --output=RUN_DIR/logs/shard_%A_%a.log
#SBATCH --time=10
#SBATCH --array=0-1
# one array task per shard of the eval set (shards/shard_0.jsonl, shards/shard_1.jsonl)
cd RUN_DIR
SHARD=${SLURM_ARRAY_JOB_ID}
OUT=out/shard_$SHARD
mkdir -p $OUT
echo "shard $SHARD on $(hostname)"
GP_BIN materialize --input shards/shard_$SHARD.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output $OUT/rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs $OUT/rollouts_materialized_inputs.jsonl --output $OUT/rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 4
GP_BIN profile --inputs $OUT/rollouts_materialized_inputs.jsonl --rollouts $OUT/rollouts.jsonl
"""


@case(
    "config_slurm_array_job_picks_shard_by_array_job_id_instead_of_task_id",
    "config",
    ["shards.sbatch", "SLURM_ARRAY_JOB_ID", "SLURM_ARRAY_TASK_ID"],
    "the user's shards.sbatch picks each array task's shard with SHARD=${SLURM_ARRAY_JOB_ID}, the id of the whole "
    "array job, instead of ${SLURM_ARRAY_TASK_ID} (0, 1): both array tasks looked for shards/shard_<job id>.jsonl, "
    "which does not exist, and no shard was evaluated",
)
def config_slurm_array_job_picks_shard_by_array_job_id_instead_of_task_id(ctx: Ctx) -> str:
    run = ctx.run
    both = ctx.dataset("string_match", 8, start=2, name="both.jsonl")
    better = checkpoints(ctx, "string_match", both)[1]
    lines = both.read_text().splitlines(keepends=True)
    (run / "shards").mkdir()
    (run / "shards" / "shard_0.jsonl").write_text("".join(lines[:4]))
    (run / "shards" / "shard_1.jsonl").write_text("".join(lines[4:]))
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "shards.sbatch").write_text(slurm_script(ARRAY_SBATCH, ctx, MODEL_URL=url))
    code = submit_and_wait(ctx, "shards.sbatch", "logs/submit.log")
    logs = job_logs(ctx, "shard_*.log")
    got = sum(len(rows_of(p)) for p in run.glob("out/*/rollouts.jsonl"))
    if got or logs.count("shard ") < 2 or "shard_0.jsonl" in logs:
        raise failed(ctx, f"exit {code}, {got}: {logs[-800:]}")
    return (f"RUN/submit.sh (sbatch of RUN/shards.sbatch: --array=0-1, SHARD=${{SLURM_ARRAY_JOB_ID}}) exit {code}; "
            f"{got} rollouts of 8 tasks x 3.")


FILTER_HOOK = '''
import re

# prompt-injection filter: drop sentences that tell the model how to format its output
FORMAT_ORDER = re.compile(r"\\s*(End|Finish|Format) your (response|answer)[^.]*\\.")


def completion(handler, body):
    request = json.loads(body)
    for message in request.get("messages", []):
        if isinstance(message.get("content"), str):
            message["content"] = FORMAT_ORDER.sub("", message["content"])
    return handler._upstream(json.dumps(request).encode())
'''


@case(
    "model_serving_builtin_gateway_injection_filter_strips_answer_format_instruction",
    "model_serving",
    ["gateway.py", "FORMAT_ORDER"],
    "the team's gateway.py runs a prompt-injection filter (FORMAT_ORDER) that deletes sentences telling the model how "
    "to format its output; it also deleted the tasks' own \"End your response with 'Final answer: <answer>'\", so the "
    "model got the questions without the answer format and the reward collapsed although nothing failed "
    "(everything exits 0)",
)
def model_serving_builtin_gateway_injection_filter_strips_answer_format_instruction(ctx: Ctx) -> str:
    run = ctx.run
    data = write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in CAPITALS])
    better = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server.log")
    gateway = gateway_url(ctx, url, "Filters prompt injections (FORMAT_ORDER).", FILTER_HOOK)
    script = builtin_script(ctx, ["echo '== weekly eval, through the gateway'"], "string_match.jsonl", gateway)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    if code or len(got) != 18 or mean(rewards(got)) > 0.3:
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/gateway.py (FORMAT_ORDER filter on the prompts) in front of the simulated policy; RUN/run_eval.sh exit "
            f"{code}; {len(got)} rollouts, mean reward {mean(rewards(got)):.2f}.")


if __name__ == "__main__":
    sys.exit(main("thirty_fourth_held_out", __file__, __doc__))
