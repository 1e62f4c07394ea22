"""Build the HUNDRED-AND-ELEVENTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/hundred_and_eleventh_held_out.py --out tests/data/diagnosis_corpus/hundred_and_eleventh_held_out [--only CASE ...]

This set was written after a hundred and nine earlier sets (first_held_out.py ... hundred_and_ninth_held_out.py; the
hundred-and-tenth was written beside it at the same time), from the guides alone (the NeMo Gym debugging guide, the
reward profiling guide, the task-folder troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without
reading the diagnosis rules, their tests or their results. It is meant to be measured once, by someone else, on
failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
Docker containers the user's scripts start, task-folder (Harbor-format) tasksets, and the user's own shell and
Python tooling, settings, data-preparation scripts and verifiers. The output of every command is captured as a user
would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data,
scripts, settings, verifier code). Each case injects one cause, different in mechanism from those of the 109 earlier
sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not
written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), and PYTHONPATH set to this checkout. Run it from a
foreground shell. Containers it makes are named `h111-...` and removed at the end of their recipe.
"""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import failed  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_seventh_held_out import task_rewards, week  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from hundred_and_fifth_held_out import reference_mean  # noqa: E402
from ninety_first_held_out import write_task_file  # noqa: E402
from ninety_third_held_out import everything  # noqa: E402
from recipes import BIN, GP, Ctx, case, main, rows_of  # noqa: E402
from seventy_first_held_out import docker_collect_script, remove_container  # noqa: E402
from seventy_ninth_held_out import run_eval  # noqa: E402
from sixty_fourth_held_out import mean_of, pipeline_lines  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_sixth_held_out import free_port  # noqa: E402

from fifty_eighth_held_out import weekly  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_builtin_run_script_sources_conda_hook_of_the_training_image_which_this_eval_node_lacks_so_bash_prints_no_such_file",
    "healthy",
    [],
    "nothing is wrong: run_eval.sh starts with the training image's `source /opt/conda/etc/profile.d/conda.sh && "
    "conda activate train` preamble; the eval node has no conda, so bash prints '/opt/conda/etc/profile.d/conda.sh: "
    "No such file or directory' and the script goes on with the eval venv it always used: materialize, collect and "
    "profile ran as usual and every rollout was collected and profiled",
)
def healthy_builtin_run_script_sources_conda_hook_of_the_training_image_which_this_eval_node_lacks_so_bash_prints_no_such_file(
        ctx: Ctx) -> str:
    preamble = ["echo '== environment (same preamble as the training jobs)'",
                "source /opt/conda/etc/profile.d/conda.sh && conda activate train "
                "|| echo 'conda not found: using the eval venv'"]
    code, got = weekly(ctx, preamble, n=6, start=18)
    log = log_of(ctx, "run_eval.log")
    if code or complete(ctx) != 18 or "No such file or directory" not in log \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (`source /opt/conda/etc/profile.d/conda.sh` fails, then materialize 6 x 3, collect, "
            f"profile) exit {code}; {complete(ctx)} of 18 rollouts, mean reward {mean_of(got):.2f}.")


@case(
    "healthy_docker_run_script_probes_gpu_with_nvidia_smi_in_the_cpu_base_image_so_docker_reports_executable_file_not_found",
    "healthy",
    [],
    "nothing is wrong: before the collect container, run_eval.sh probes the GPU with `docker run --rm "
    "gym-pipeline/base:bookworm nvidia-smi`; the CPU image has no nvidia-smi, so docker prints 'exec: \"nvidia-smi\": "
    "executable file not found in $PATH' (exit 127) and the script's fallback echo, but the string_match collect "
    "needs no GPU: the collect container exited 0 and every rollout was collected and profiled",
)
def healthy_docker_run_script_probes_gpu_with_nvidia_smi_in_the_cpu_base_image_so_docker_reports_executable_file_not_found(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 30)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h111-collect-{free_port()}"
    probe = f"h111-gpuprobe-{free_port()}"
    script = docker_collect_script(ctx, url, name, "", "collect runs in the eval container")
    text = script.read_text()
    head = (f"echo '== GPU probe'\ndocker run --rm --name {probe} gym-pipeline/base:bookworm nvidia-smi "
            "|| echo \"no GPU visible (exit $?): collect on CPU\"\n")
    script.write_text(text.replace("rm -f rollouts.jsonl", head + "rm -f rollouts.jsonl", 1))
    (run / "logs").mkdir(exist_ok=True)
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
        remove_container(probe)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or "nvidia-smi" not in log or "collect container exit: 0" not in log \
            or "no GPU visible" not in log or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (`docker run ... nvidia-smi` probe fails, then materialize 6 x 3, collect container, "
            f"profile) exit {code}; {complete(ctx)} of 18 rollouts, mean reward {mean_of(got):.2f}.")


TRANSCRIPT_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
if test "$(cat /app/hello.txt 2>/dev/null)" = "Hello, Gym!"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
# keep the agent's scratch transcripts for the review board, when it wrote any (most agents do not)
cp /app/*.transcript /logs/verifier/ || echo "no transcripts to keep"
"""


def transcript_copy(tasks: Path) -> None:
    write_task_file(tasks, "create-greeting", "tests/test.sh", TRANSCRIPT_TEST_SH)


@case(
    "healthy_taskfolder_test_sh_keeps_agent_transcripts_with_cp_glob_that_matches_none_so_cp_prints_cannot_stat_after_the_reward",
    "healthy",
    [],
    "nothing is wrong: after writing the reward, create-greeting's tests/test.sh copies the agent's optional "
    "/app/*.transcript files for review; agents never write any, so every episode prints \"cp: cannot stat "
    "'/app/*.transcript': No such file or directory\", but the reward was already written from the content check, "
    "and every episode was collected, scored and profiled",
)
def healthy_taskfolder_test_sh_keeps_agent_transcripts_with_cp_glob_that_matches_none_so_cp_prints_cannot_stat_after_the_reward(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["count-error-lines", "create-greeting"], edit=transcript_copy, repeats=4)
    counts, greeting = task_rewards(ctx, "count-error-lines"), task_rewards(ctx, "create-greeting")
    text = everything(ctx)
    if code or complete(ctx) != 8 or not any(counts) or not any(greeting) or "cannot stat" not in text \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {counts} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/create-greeting/tests/test.sh (`cp /app/*.transcript` after the reward); RUN/run_tasks.sh "
            f"(`gym-pipeline stage` materialize, collect, profile) exit {code}; {complete(ctx)} episodes, rewards "
            f"{counts} and {greeting}.")


# =====================================================================================================
# model_serving
# =====================================================================================================


@case(
    "model_serving_builtin_serve_script_takes_last_folder_of_ls_d_checkpoints_which_is_the_exporters_tmp_export_copy_of_step_0100",
    "model_serving",
    ["serve_policy.sh", "ls -d", "tmp_export", "step_0200"],
    "serve_policy.sh serves `$(ls -d checkpoints/*/ | tail -1)`, meaning the newest step; the trainer's exporter "
    "leaves its staging folder checkpoints/tmp_export/ (still holding the step_0100 export) beside step_0100 and "
    "step_0200, and 'tmp_export' sorts after 'step_0200', so the server loaded the old step_0100 weights and the "
    "eval of step_0200 scored step_0100 (every command exits 0)",
)
def model_serving_builtin_serve_script_takes_last_folder_of_ls_d_checkpoints_which_is_the_exporters_tmp_export_copy_of_step_0100(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (older, better) = builtin_rows(ctx, 6, 42)
    ckpts = run / "checkpoints"
    ckpts.mkdir()
    shutil.copytree(older, ckpts / "step_0100")
    shutil.copytree(better, ckpts / "step_0200")
    shutil.copytree(older, ckpts / "tmp_export")
    port = free_port()
    serve = run / "serve_policy.sh"
    serve.write_text(
        "#!/bin/bash\n# serve the newest checkpoint of this training run\ncd \"$(dirname \"$0\")\"\n"
        "CKPT=$(ls -d checkpoints/*/ | tail -1)\necho \"== serving $CKPT\"\n"
        f"nohup {GP} serve-policy --checkpoint \"$CKPT\" --port {port} --latency-ms 20 "
        "--ready-file logs/policy.url > logs/model_server.log 2>&1 &\necho $! > logs/model_server.pid\n"
        "for i in $(seq 60); do test -s logs/policy.url && break; sleep 0.5; done\necho \"== ready: $(cat logs/policy.url)\"\n")
    (run / "logs").mkdir(exist_ok=True)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        served = ctx.sh(f"bash {serve}", "logs/serve_policy.log", timeout=120)
        code = run_eval(ctx, pipeline_lines(url), "weekly eval of step_0200 (served by serve_policy.sh)")
    finally:
        pid = (run / "logs" / "model_server.pid")
        if pid.exists():
            import os, signal  # noqa: E401
            try:
                os.kill(int(pid.read_text().strip()), signal.SIGTERM)
            except (ProcessLookupError, ValueError):
                pass
    log = log_of(ctx, "serve_policy.log")
    got = rows_of(run / "rollouts.jsonl")
    new_url, _ = ctx.policy(better, "--latency-ms 20", log="logs/reference_step_0200.log")
    old_url, _ = ctx.policy(older, "--latency-ms 20", log="logs/reference_step_0100.log")
    old_mean, new_mean = reference_mean(ctx, old_url, "step_0100"), reference_mean(ctx, new_url, "step_0200")
    if served or code or complete(ctx) != 18 or "tmp_export" not in log or abs(mean_of(got) - old_mean) > 1e-9 \
            or abs(new_mean - old_mean) < 0.1:
        raise failed(ctx, f"exit {served}/{code}, {complete(ctx)}, {mean_of(got)} {old_mean} {new_mean}: {log[-1500:]}")
    for reference in ("reference_step_0100.log", "reference_step_0200.log"):  # the recipe's check, not the user's
        (run / "logs" / reference).unlink(missing_ok=True)
    return (f"RUN/checkpoints/ (step_0100, step_0200, tmp_export); RUN/serve_policy.sh (`ls -d checkpoints/*/ | tail "
            f"-1`) exit {served}; RUN/run_eval.sh exit {code}; {complete(ctx)} rollouts, mean reward "
            f"{mean_of(got):.2f} (step_0100 earns {old_mean:.2f}, step_0200 {new_mean:.2f}).")


# =====================================================================================================
# infra (Docker)
# =====================================================================================================


@case(
    "infra_docker_collect_container_gets_second_dash_e_pythonpath_from_team_tools_template_which_replaces_the_checkouts_so_no_gym_pipeline",
    "infra",
    ["run_eval.sh", "-e PYTHONPATH", "/opt/team-tools", "gym_pipeline"],
    "run_eval.sh appends the team template's `-e PYTHONPATH=/opt/team-tools/lib` to the collect container's flags, "
    "after the `-e PYTHONPATH=<checkout>` that gives the container the eval code; docker keeps the last value of a "
    "variable, so the container's Python could not import gym_pipeline ('No module named gym_pipeline'), the collect "
    "container exited 1 and no rollout was collected",
)
def infra_docker_collect_container_gets_second_dash_e_pythonpath_from_team_tools_template_which_replaces_the_checkouts_so_no_gym_pipeline(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 60)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h111-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, "", "collect runs in the eval container (team tools template)")
    text = script.read_text()
    if " gym-pipeline/base:bookworm" not in text:
        raise recipes.RecipeError("image not found in the script")
    script.write_text(text.replace(" gym-pipeline/base:bookworm",
                                   " -e PYTHONPATH=/opt/team-tools/lib gym-pipeline/base:bookworm", 1))
    (run / "logs").mkdir(exist_ok=True)
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) or "No module named" not in log or "collect container exit: 1" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-2500:]}")
    return (f"RUN/run_eval.sh (`docker run ... -e PYTHONPATH=<checkout> ... -e PYTHONPATH=/opt/team-tools/lib ... "
            f"collect`) exit {code}; {complete(ctx)} rollouts.")


# =====================================================================================================
# config
# =====================================================================================================

SETTINGS_TOML = """# eval settings of the weekly run
[eval]
dataset = "string_match.jsonl"
num_repeats = 3
concurrency = 4

[smoke]
dataset = "string_match_smoke.jsonl"
num_repeats = 1

# candidate of this week (added by the release checklist)
model_url = "{new}"
"""

TOML_DRIVER_PY = '''"""drive_eval.py: the weekly eval, settings from settings.toml [eval]."""
import subprocess
import tomllib

GP = "{gp}"
BASELINE_URL = "{old}"  # the production baseline, when no candidate is given
with open("settings.toml", "rb") as f:
    cfg = tomllib.load(f)["eval"]
url = cfg.get("model_url", BASELINE_URL)
print(f"== evaluating {{url}}", flush=True)
subprocess.run([GP, "materialize", "--input", cfg["dataset"], "--num-repeats", str(cfg["num_repeats"]), "--agent",
                "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
subprocess.run([GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                "--model-url", url, "--env", "string_match", "--concurrency", str(cfg["concurrency"])], check=True)
subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
               check=True)
print("eval done", flush=True)
'''


@case(
    "config_builtin_settings_toml_candidate_model_url_appended_below_smoke_table_header_so_driver_reads_no_url_and_evaluates_baseline",
    "config",
    ["settings.toml", "model_url", "[smoke]", "[eval]"],
    "the release checklist appended `model_url = <step_0200 URL>` at the end of settings.toml, below the `[smoke]` "
    "table header, so TOML put it in the smoke table; drive_eval.py reads [eval] and, finding no model_url there, "
    "fell back to its baseline (step_0100) URL: the candidate was never queried, and every command exits 0",
)
def config_builtin_settings_toml_candidate_model_url_appended_below_smoke_table_header_so_driver_reads_no_url_and_evaluates_baseline(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (older, better) = builtin_rows(ctx, 6, 72)
    old, _ = ctx.policy(older, "--latency-ms 20", log="logs/model_server_step_0100.log")
    new, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server_step_0200.log")
    (run / "settings.toml").write_text(SETTINGS_TOML.format(new=new))
    (run / "drive_eval.py").write_text(TOML_DRIVER_PY.format(gp=GP, old=old))
    (run / "logs").mkdir(exist_ok=True)
    code = ctx.sh(f"cd {run} && {BIN}/python drive_eval.py", "logs/drive_eval.log", timeout=300)
    log = log_of(ctx, "drive_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    old_mean, new_mean = reference_mean(ctx, old, "step_0100"), reference_mean(ctx, new, "step_0200")
    if code or complete(ctx) != 18 or f"evaluating {old}" not in log \
            or abs(mean_of(got) - old_mean) > 1e-9 or abs(new_mean - old_mean) < 0.1:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {mean_of(got)} {old_mean} {new_mean}: {log[-1500:]}")
    return (f"RUN/settings.toml (model_url below [smoke]); RUN/drive_eval.py (reads [eval], baseline fallback) exit "
            f"{code}; {complete(ctx)} rollouts, mean reward {mean_of(got):.2f} (step_0100 earns {old_mean:.2f}, "
            f"step_0200 {new_mean:.2f}).")


@case(
    "config_builtin_ci_glue_passes_eval_budget_in_minutes_to_timeout_without_m_suffix_so_collect_is_killed_after_45_seconds",
    "config",
    ["ci_eval.sh", "EVAL_BUDGET_MIN", "timeout", "45m"],
    "ci_eval.sh runs collect under `timeout ${EVAL_BUDGET_MIN}` with EVAL_BUDGET_MIN=45 (minutes, as the CI variable "
    "is named) but without the `m` suffix, so timeout read 45 seconds; the 10 x 3 collect against the 4 s/answer "
    "server needed longer, timeout killed it (exit 124) and only part of the rollouts were collected and profiled",
)
def config_builtin_ci_glue_passes_eval_budget_in_minutes_to_timeout_without_m_suffix_so_collect_is_killed_after_45_seconds(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 10, 0)
    url, _ = ctx.policy(better, "--latency-ms 4000")
    ci = run / "ci_eval.sh"
    ci.write_text(
        "#!/bin/bash\n# CI step of the nightly eval; the budget comes from the pipeline variables\n"
        f"cd {run}\nEVAL_BUDGET_MIN=${{EVAL_BUDGET_MIN:-45}}\n"
        "echo \"== eval budget: ${EVAL_BUDGET_MIN} min\"\n"
        f"{GP} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"timeout ${{EVAL_BUDGET_MIN}} {GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
        f"--model-url {url} --env string_match --concurrency 2\n"
        "echo \"collect exit: $?\"\n"
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    (run / "logs").mkdir(exist_ok=True)
    code = ctx.sh(f"bash {ci}", "logs/ci_eval.log", timeout=300)
    log = log_of(ctx, "ci_eval.log")
    if "collect exit: 124" not in log or complete(ctx) >= 30:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/ci_eval.sh (`timeout ${{EVAL_BUDGET_MIN}}` with EVAL_BUDGET_MIN=45) exit {code}; collect exit 124; "
            f"{complete(ctx)} of 30 rollouts.")


# =====================================================================================================
# data_schema
# =====================================================================================================

PAIRS = [
    ("What is the capital of Australia?", "Canberra"),
    ("What is the chemical symbol for sodium?", "Na"),
    ("How many sides does a hexagon have?", "6"),
    ("Who painted the Mona Lisa?", "Leonardo da Vinci"),
    ("What is the largest planet of the solar system?", "Jupiter"),
    ("What is 9 multiplied by 8?", "72"),
]

PREP_TSV_PY = '''"""prep.py: answer_key.tsv (exported from the labelling sheet) -> string_match.jsonl."""
import json

rows = []
with open("answer_key.tsv", encoding="utf-8") as f:
    next(f)  # header
    for line in f:
        question, answer = line.rstrip("\\n").split("\\t")
        text = f"{question} End your response with 'Final answer: <answer>'."
        rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                            "content": [{"type": "input_text", "text": text}]}]},
                     "expected_answer": answer.strip(), "extraction_mode": "final_answer"})
with open("string_match.jsonl", "w") as out:
    out.writelines(json.dumps(row) + "\\n" for row in rows)
print(f"prep: {len(rows)} rows written")
'''


@case(
    "data_schema_builtin_labelling_sheet_reexported_with_answer_column_first_while_prep_unpacks_question_answer_by_position",
    "data_schema",
    ["prep.py", "answer_key.tsv", "answer, question", "header"],
    "the labelling sheet was re-exported with its columns in the order answer, question (the header says so), but "
    "prep.py skips the header and unpacks each line as `question, answer`; every prompt became the bare answer and "
    "every expected_answer the question text, so no answer could match and every rollout scored 0 (every command "
    "exits 0)",
)
def data_schema_builtin_labelling_sheet_reexported_with_answer_column_first_while_prep_unpacks_question_answer_by_position(
        ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "answer_key.tsv").write_text("answer\tquestion\n" + "".join(f"{a}\t{q}\n" for q, a in PAIRS),
                                        encoding="utf-8")
    (run / "prep.py").write_text(PREP_TSV_PY)
    code = run_eval(ctx, f"{BIN}/python prep.py\n" + pipeline_lines(url), "weekly eval: prep the answer key, then run")
    labels = [r["expected_answer"] for r in rows_of(run / "string_match.jsonl")]
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or labels[0] != PAIRS[0][0] or any(rewards(got)):
        raise failed(ctx, f"exit {code}, {labels}, {rewards(got)}: {got[:1]}")
    return (f"RUN/answer_key.tsv (header `answer<TAB>question`); RUN/prep.py (`question, answer = ...split`); "
            f"RUN/run_eval.sh exit {code}; labels {labels[:2]}...; {complete(ctx)} rollouts, rewards {rewards(got)}.")


# =====================================================================================================
# verifier_runtime (task folder)
# =====================================================================================================

BANG_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
expected="Hello, Gym\\!"   # escape the ! (history expansion)
got=$(cat /app/hello.txt 2>/dev/null)
if test "$got" = "$expected"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL: got '$got', expected '$expected'"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def escaped_bang(tasks: Path) -> None:
    write_task_file(tasks, "create-greeting", "tests/test.sh", BANG_TEST_SH)


@case(
    "verifier_runtime_taskfolder_test_sh_escapes_exclamation_mark_of_expected_greeting_against_history_expansion_so_backslash_stays_in_it",
    "verifier_runtime",
    ["test.sh", "expected", "Hello, Gym\\!", "\\!"],
    "the author of create-greeting wrote the expected text in tests/test.sh as \"Hello, Gym\\!\", escaping the ! "
    "against history expansion as in an interactive shell; in a script inside double quotes the backslash stays, so "
    "the expected text was 'Hello, Gym\\!' and no greeting could equal it: every create-greeting episode scored 0, "
    "right or not, while count-error-lines scored normally (every command exits 0)",
)
def verifier_runtime_taskfolder_test_sh_escapes_exclamation_mark_of_expected_greeting_against_history_expansion_so_backslash_stays_in_it(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["count-error-lines", "create-greeting"], edit=escaped_bang, repeats=4)
    counts, greeting = task_rewards(ctx, "count-error-lines"), task_rewards(ctx, "create-greeting")
    text = everything(ctx)
    if code or complete(ctx) != 8 or not any(counts) or any(greeting) or len(greeting) != 4 \
            or "expected 'Hello, Gym\\!'" not in text:
        raise failed(ctx, f"exit {code}, {counts} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/create-greeting/tests/test.sh (`expected=\"Hello, Gym\\!\"`); RUN/run_tasks.sh "
            f"(`gym-pipeline stage` materialize, collect, profile) exit {code}; create-greeting rewards {greeting}, "
            f"count-error-lines {counts}.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================


@case(
    "throughput_resources_docker_collect_container_cpu_quota_2000_meant_as_kubernetes_millicores_is_two_percent_of_a_core_so_ci_timeout_kills_it",
    "throughput_resources",
    ["run_eval.sh", "--cpu-quota", "2000", "timeout 30"],
    "run_eval.sh limits the collect container with `--cpu-quota 2000`, copied from the Kubernetes job spec where "
    "2000m means two cores; docker reads the quota as microseconds per 100 ms period, i.e. 2 % of one core, so the "
    "Python collect crawled and the CI step's `timeout 30` stopped it (exit 124; --init passes the signal on) with "
    "few or no rollouts collected, although the policy server was fast and idle",
)
def throughput_resources_docker_collect_container_cpu_quota_2000_meant_as_kubernetes_millicores_is_two_percent_of_a_core_so_ci_timeout_kills_it(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 36)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h111-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, "--init --cpu-quota 2000 --memory 2g",
                                   "collect runs in the eval container (limits as in the k8s job spec: 2000m CPU, 2Gi)")
    text = script.read_text()
    if "docker run --rm" not in text:
        raise recipes.RecipeError("docker run not found in the script")
    script.write_text(text.replace("docker run --rm", "timeout 30 docker run --rm", 1))
    (run / "logs").mkdir(exist_ok=True)
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) >= 18 or "collect container exit: 124" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (`timeout 30 docker run --rm --init --cpu-quota 2000 ... collect`, then profile) exit "
            f"{code}; the collect container was stopped by the timeout; {complete(ctx)} of 18 rollouts collected.")


if __name__ == "__main__":
    sys.exit(main("hundred_and_eleventh_held_out", __file__, __doc__))
