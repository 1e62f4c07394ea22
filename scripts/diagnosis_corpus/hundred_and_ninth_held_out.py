"""Build the HUNDRED-AND-NINTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/hundred_and_ninth_held_out.py --out tests/data/diagnosis_corpus/hundred_and_ninth_held_out [--only CASE ...]

This set was written after a hundred and seven earlier sets (first_held_out.py ... hundred_and_seventh_held_out.py; the
hundred-and-eighth was written beside it at the same time), from the guides alone (the NeMo Gym debugging guide, the
reward profiling guide, the task-folder troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without
reading the diagnosis rules, their tests or their results. It is meant to be measured once, by someone else, on
failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
Docker containers the user's scripts start, task-folder (Harbor-format) tasksets, and the user's own shell and
Python tooling, settings, data-preparation scripts and verifiers. The output of every command is captured as a user
would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data,
scripts, settings, verifier code). Each case injects one cause, different in mechanism from those of the 107 earlier
sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not
written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), and PYTHONPATH set to this checkout. Run it from a
foreground shell. Containers it makes are named `h109-...` and removed at the end of their recipe.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import checkpoints, failed  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_seventh_held_out import task_rewards, week  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from hundred_and_fifth_held_out import reference_mean  # noqa: E402
from ninety_first_held_out import write_task_file  # noqa: E402
from ninety_third_held_out import everything, labelled  # noqa: E402
from recipes import BIN, GP, ROOT, Ctx, case, main, rows_of  # noqa: E402
from seventy_first_held_out import docker_collect_script, remove_container  # noqa: E402
from seventy_ninth_held_out import run_eval  # noqa: E402
from sixty_fourth_held_out import mean_of, pipeline_lines  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_sixth_held_out import free_port  # noqa: E402

from fifty_eighth_held_out import weekly  # noqa: E402
from sixty_fourth_held_out import python_mounts  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_builtin_run_script_keeps_training_jobs_torch_cuda_probe_which_fails_with_modulenotfounderror_on_cpu_eval_node",
    "healthy",
    [],
    "nothing is wrong: run_eval.sh starts with the preamble of the team's training jobs, `python -c 'import torch; "
    "print(torch.cuda.is_available())'`; the CPU eval node has no torch, so the log opens with a Traceback "
    "(ModuleNotFoundError: No module named 'torch') and the script's fallback echo, but the string_match eval needs "
    "no torch: materialize, collect and profile ran as usual and every rollout was collected and profiled",
)
def healthy_builtin_run_script_keeps_training_jobs_torch_cuda_probe_which_fails_with_modulenotfounderror_on_cpu_eval_node(
        ctx: Ctx) -> str:
    preamble = ["echo '== GPU check (same preamble as the training jobs)'",
                f"{BIN}/python -c 'import torch; print(\"cuda:\", torch.cuda.is_available())' "
                "|| echo 'torch not importable here: continuing on CPU'"]
    code, got = weekly(ctx, preamble, n=6, start=12)
    log = log_of(ctx, "run_eval.log")
    if code or complete(ctx) != 18 or "No module named 'torch'" not in log \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (`python -c 'import torch; ...'` probe, then materialize 6 x 3, collect, profile) exit "
            f"{code}; {complete(ctx)} of 18 rollouts, mean reward {mean_of(got):.2f}.")


@case(
    "healthy_docker_run_script_saves_collect_container_logs_after_rm_already_removed_it_so_docker_logs_says_no_such_container",
    "healthy",
    [],
    "nothing is wrong: after the collect container, run_eval.sh runs `docker logs <name> > logs/collect_container.log` "
    "to keep its output, but the container was started with --rm and is already gone, so docker prints 'Error "
    "response from daemon: No such container' (the output was in the run log all along); the collect container "
    "exited 0 and every rollout was collected and profiled",
)
def healthy_docker_run_script_saves_collect_container_logs_after_rm_already_removed_it_so_docker_logs_says_no_such_container(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 24)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h109-collect-{free_port()}"
    after = (f"echo '== keep the container output'\nmkdir -p logs\n"
             f"docker logs {name} > logs/collect_container.log\n")
    script = docker_collect_script(ctx, url, name, "", "collect runs in the eval container", after=after)
    (run / "logs").mkdir(exist_ok=True)
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or "No such container" not in log or "collect container exit: 0" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run --rm` collect, `docker logs` of the removed container, "
            f"profile) exit {code}; {complete(ctx)} of 18 rollouts, mean reward {mean_of(got):.2f}.")


PERMISSION_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
if test "$(cat /app/hello.txt 2>/dev/null)" = "Hello, Gym!"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
# advisory only (security review wants owner-only files; not part of the task, not scored)
mode=$(stat -c %a /app/hello.txt 2>/dev/null)
if [ "$mode" != "600" ]; then
  echo "PERMISSION CHECK FAILED (advisory, not scored): /app/hello.txt has mode $mode, policy wants 600"
fi
"""


def permission_advisory(tasks: Path) -> None:
    write_task_file(tasks, "create-greeting", "tests/test.sh", PERMISSION_TEST_SH)


@case(
    "healthy_taskfolder_test_sh_prints_advisory_permission_check_failed_for_file_mode_after_writing_the_reward",
    "healthy",
    [],
    "nothing is wrong: the author of create-greeting added an advisory check to tests/test.sh after the reward is "
    "written: it prints 'PERMISSION CHECK FAILED (advisory, not scored)' when /app/hello.txt is not mode 600, which "
    "it never is; the reward is decided by the content alone, and every episode was collected, scored and profiled",
)
def healthy_taskfolder_test_sh_prints_advisory_permission_check_failed_for_file_mode_after_writing_the_reward(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["count-error-lines", "create-greeting"], edit=permission_advisory, repeats=4)
    counts, greeting = task_rewards(ctx, "count-error-lines"), task_rewards(ctx, "create-greeting")
    text = everything(ctx)
    if code or complete(ctx) != 8 or not any(counts) or not any(greeting) \
            or "PERMISSION CHECK FAILED" not in text \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {counts} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/create-greeting/tests/test.sh (advisory mode-600 check after the reward); RUN/run_tasks.sh "
            f"(`gym-pipeline stage` materialize, collect, profile) exit {code}; {complete(ctx)} episodes, rewards "
            f"{counts} and {greeting}.")


# =====================================================================================================
# model_serving (Docker)
# =====================================================================================================


@case(
    "model_serving_docker_serve_script_mounts_checkpoints_dir_and_serves_latest_symlink_whose_absolute_host_target_is_absent_in_container",
    "model_serving",
    ["serve_policy.sh", "latest", "symlink", "/ckpt"],
    "serve_policy.sh mounts the trainer's checkpoints folder at /ckpt in the policy container and serves "
    "/ckpt/latest; the trainer "
    "makes `latest` an absolute symlink to the host path of step_0200, which does not exist inside the container, "
    "so the policy server died at start (no such checkpoint) and collect's requests to its port were all refused",
)
def model_serving_docker_serve_script_mounts_checkpoints_dir_and_serves_latest_symlink_whose_absolute_host_target_is_absent_in_container(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 36)
    ckpts = ctx.work / "exports" / "checkpoints"  # the trainer's export share on this node
    ckpts.mkdir(parents=True)
    shutil.copytree(better, ckpts / "step_0200")
    (ckpts / "latest").symlink_to(ckpts / "step_0200")  # the trainer's exporter links with the absolute path
    port = free_port()
    name = f"h109-policy-{port}"
    serve = run / "serve_policy.sh"
    serve.write_text(
        "#!/bin/bash\n# serve the newest exported checkpoint in the policy container\n"
        f"echo '== exported checkpoints:'; ls -l {ckpts}\n"
        f"docker run -d --name {name} --network host {python_mounts()} -e PYTHONPATH={ROOT} \\\n"
        f"  -v {ckpts}:/ckpt:ro gym-pipeline/base:bookworm \\\n"
        f"  {BIN}/python -m gym_pipeline.cli serve-policy --checkpoint /ckpt/latest --port {port} --latency-ms 20\n"
        "sleep 8\n"
        f"echo '== policy container:'; docker ps -a --filter name={name} --format '{{{{.Names}}}} {{{{.Status}}}}'\n"
        f"docker logs {name} 2>&1 | tail -20\n")
    url = f"http://127.0.0.1:{port}/v1"
    (run / "logs").mkdir(exist_ok=True)
    try:
        served = ctx.sh(f"cd {run} && bash serve_policy.sh", "logs/serve_policy.log", timeout=120)
        code = run_eval(ctx, pipeline_lines(url), "weekly eval against the policy container", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "serve_policy.log") + log_of(ctx, "run_eval.log")
    if complete(ctx) or "Exited" not in log or "latest ->" not in log or not (ckpts / "latest").resolve().is_dir():
        raise failed(ctx, f"exit {served}/{code}, {complete(ctx)}: {log[-2500:]}")
    return (f"checkpoints/latest -> step_0200 by absolute path (ls -l in the serve log); RUN/serve_policy.sh (`-v "
            f"<export share>/checkpoints:/ckpt`, "
            f"`--checkpoint /ckpt/latest`) exit {served}; RUN/run_eval.sh exit {code}; {complete(ctx)} rollouts.")


# =====================================================================================================
# infra (Docker)
# =====================================================================================================


@case(
    "infra_docker_collect_container_add_host_maps_policy_hostname_to_node_eth0_address_where_loopback_bound_server_refuses",
    "infra",
    ["run_eval.sh", "--add-host", "policy-server", "192.0.2.2"],
    "run_eval.sh gives the collect container `--add-host policy-server:192.0.2.2` (the team template's mapping to the "
    "node's own address, written for CI runners where the server listens on every interface) and collects from "
    "http://policy-server:PORT/v1; on this node the policy server listens on 127.0.0.1 only, so every request was "
    "refused and no rollout was collected although the server was up",
)
def infra_docker_collect_container_add_host_maps_policy_hostname_to_node_eth0_address_where_loopback_bound_server_refuses(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 48)
    url, _ = ctx.policy(better, "--latency-ms 20")
    port = url.rsplit(":", 1)[1].split("/")[0]
    alias = f"http://policy-server:{port}/v1"
    name = f"h109-collect-{free_port()}"
    script = docker_collect_script(ctx, alias, name, "--add-host policy-server:192.0.2.2",
                                   "collect runs in the eval container; policy-server as in the CI template")
    (run / "logs").mkdir(exist_ok=True)
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    alive = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", url.rstrip("/") + "/models"],
                           capture_output=True, text=True).stdout
    if complete(ctx) or "policy-server" not in log or not alive.startswith(("2", "4")):
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {alive}: {log[-2500:]}")
    return (f"RUN/run_eval.sh (`docker run --add-host policy-server:192.0.2.2 ... collect --model-url {alias}`) exit "
            f"{code}; {complete(ctx)} rollouts; the policy server (127.0.0.1:{port}) answered {alive} afterwards.")


# =====================================================================================================
# config
# =====================================================================================================

SETTINGS_YAML = """# eval settings (team defaults; the CLI overrides them)
dataset: string_match.jsonl
num_repeats: 3
concurrency: 4
# baseline server, until the candidate is deployed
model_url: {old}
"""

MERGE_DRIVER_PY = '''"""drive_eval.py [--model-url URL] [--concurrency N]: settings.yaml, overridden by the command line."""
import argparse
import subprocess

import yaml

GP = "{gp}"
parser = argparse.ArgumentParser()
parser.add_argument("--model-url")
parser.add_argument("--concurrency", type=int)
args = parser.parse_args()
with open("settings.yaml") as f:
    settings = yaml.safe_load(f)
cfg = {{**{{k: v for k, v in vars(args).items() if v is not None}}, **settings}}  # command line wins
print(f"== evaluating {{cfg['model_url']}}", flush=True)
subprocess.run([GP, "materialize", "--input", cfg["dataset"], "--num-repeats", str(cfg["num_repeats"]), "--agent",
                "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
subprocess.run([GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                "--model-url", cfg["model_url"], "--env", "string_match", "--concurrency", str(cfg["concurrency"])],
               check=True)
subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
               check=True)
print("eval done", flush=True)
'''


@case(
    "config_builtin_python_driver_merges_cli_args_before_settings_yaml_in_dict_unpacking_so_yaml_baseline_url_beats_model_url_flag",
    "config",
    ["drive_eval.py", "settings.yaml", "model_url", "**settings"],
    "drive_eval.py means the command line to override settings.yaml but builds `cfg = {**cli_args, **settings}`, in "
    "which the later dict wins; settings.yaml holds model_url of the step_0100 baseline server, so the run with "
    "`--model-url <step_0200>` collected from step_0100: the candidate was never queried, and every command exits 0",
)
def config_builtin_python_driver_merges_cli_args_before_settings_yaml_in_dict_unpacking_so_yaml_baseline_url_beats_model_url_flag(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (older, better) = builtin_rows(ctx, 6, 54)
    old, _ = ctx.policy(older, "--latency-ms 20", log="logs/model_server_step_0100.log")
    new, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server_step_0200.log")
    (run / "settings.yaml").write_text(SETTINGS_YAML.format(old=old))
    (run / "drive_eval.py").write_text(MERGE_DRIVER_PY.format(gp=GP))
    (run / "logs").mkdir(exist_ok=True)
    code = ctx.sh(f"cd {run} && {BIN}/python drive_eval.py --model-url {new}", "logs/drive_eval.log", timeout=300)
    log = log_of(ctx, "drive_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    old_mean, new_mean = reference_mean(ctx, old, "step_0100"), reference_mean(ctx, new, "step_0200")
    if code or complete(ctx) != 18 or f"evaluating {old}" not in log \
            or abs(mean_of(got) - old_mean) > 1e-9 or abs(new_mean - old_mean) < 0.1:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {mean_of(got)} {old_mean} {new_mean}: {log[-1500:]}")
    return (f"RUN/settings.yaml (`model_url: step_0100 URL`); RUN/drive_eval.py (`{{**cli, **settings}}`) run with "
            f"--model-url step_0200 URL, exit {code}; {complete(ctx)} rollouts, mean reward {mean_of(got):.2f} "
            f"(step_0100 earns {old_mean:.2f}, step_0200 {new_mean:.2f}).")


# =====================================================================================================
# verifier_runtime (task folder)
# =====================================================================================================

TR_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
# ignore the trailing newline editors add
got=$(cat /app/hello.txt 2>/dev/null | tr -d '[:space:]')
if test "$got" = "Hello, Gym!"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL: got '$got'"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def tr_space(tasks: Path) -> None:
    write_task_file(tasks, "create-greeting", "tests/test.sh", TR_TEST_SH)


@case(
    "verifier_runtime_taskfolder_test_sh_drops_trailing_newline_with_tr_d_space_class_which_also_removes_the_space_inside_hello_gym",
    "verifier_runtime",
    ["test.sh", "tr -d", "[:space:]", "Hello, Gym!"],
    "the author of create-greeting made tests/test.sh ignore the trailing newline with `tr -d '[:space:]'`, which "
    "deletes every whitespace character, also the space inside 'Hello, Gym!'; the file read back as 'Hello,Gym!' "
    "and never equalled the expected text, so every create-greeting episode scored 0, right or not, while "
    "count-error-lines scored normally (every command exits 0)",
)
def verifier_runtime_taskfolder_test_sh_drops_trailing_newline_with_tr_d_space_class_which_also_removes_the_space_inside_hello_gym(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["count-error-lines", "create-greeting"], edit=tr_space, repeats=4)
    counts, greeting = task_rewards(ctx, "count-error-lines"), task_rewards(ctx, "create-greeting")
    text = everything(ctx)
    if code or complete(ctx) != 8 or not any(counts) or any(greeting) or len(greeting) != 4 \
            or "Hello,Gym!" not in text:
        raise failed(ctx, f"exit {code}, {counts} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/create-greeting/tests/test.sh (`tr -d '[:space:]'` before comparing with 'Hello, Gym!'); "
            f"RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile) exit {code}; create-greeting "
            f"rewards {greeting}, count-error-lines {counts}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

CACHE_DRIVER_PY = '''"""drive_eval.py MODEL_URL: materialize once per dataset (cached under ~/.cache/evals), collect, profile."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

GP = "{gp}"
DATASET = "string_match.jsonl"
url = sys.argv[1]
cache = Path(os.environ.get("EVAL_CACHE", Path.home() / ".cache" / "evals")) / "materialized"
cache.mkdir(parents=True, exist_ok=True)
cached = cache / Path(DATASET).name
if cached.exists():
    print(f"== reusing cached materialized inputs {{cached}}", flush=True)
    shutil.copy(cached, "rollouts_materialized_inputs.jsonl")
else:
    subprocess.run([GP, "materialize", "--input", DATASET, "--num-repeats", "3", "--agent",
                    "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
    shutil.copy("rollouts_materialized_inputs.jsonl", cached)
subprocess.run([GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                "--model-url", url, "--env", "string_match", "--concurrency", "4"], check=True)
subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
               check=True)
print("eval done", flush=True)
'''


@case(
    "cache_resume_builtin_driver_caches_materialized_inputs_by_dataset_file_name_so_this_weeks_new_questions_are_replaced_by_last_weeks",
    "cache_resume",
    ["drive_eval.py", "cache", "materialized", "string_match.jsonl"],
    "drive_eval.py caches the materialized inputs under ~/.cache/evals/materialized/<dataset file name> and reuses "
    "them when that file exists; this week's export has the same name (string_match.jsonl) but new questions, so "
    "the driver printed 'reusing cached materialized inputs' and collected and profiled last week's questions: "
    "none of this week's rows was evaluated and every command exits 0",
)
def cache_resume_builtin_driver_caches_materialized_inputs_by_dataset_file_name_so_this_weeks_new_questions_are_replaced_by_last_weeks(
        ctx: Ctx) -> str:
    run = ctx.run
    home = ctx.work / "home"
    env = f"HOME={home}"
    last = ctx.dataset("string_match", 6, start=0, folder=ctx.work, name="last_week.jsonl")
    shutil.copy(last, run / "string_match.jsonl")
    (run / "drive_eval.py").write_text(CACHE_DRIVER_PY.format(gp=GP))
    (run / "logs").mkdir(exist_ok=True)
    _, better_old = checkpoints(ctx, "string_match", last)
    old_url, _ = ctx.policy(better_old, "--latency-ms 20", log="logs/model_server_last_week.log")
    before = ctx.sh(f"cd {run} && {env} {BIN}/python drive_eval.py {old_url}", "logs/drive_eval_last_week.log",
                    timeout=300)
    this, (_, better) = builtin_rows(ctx, 6, 66)
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = ctx.sh(f"cd {run} && {env} {BIN}/python drive_eval.py {url}", "logs/drive_eval.log", timeout=300)
    log = log_of(ctx, "drive_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    now = {str(r.get("expected_answer")) for r in rows_of(this)}
    seen = {str(r.get("expected_answer")) for r in got}
    if before or code or complete(ctx) != 18 or "reusing cached materialized inputs" not in log or seen & now \
            or not now:
        raise failed(ctx, f"exit {before}/{code}, {complete(ctx)}, {seen} {now}: {log[-1500:]}")
    return (f"RUN/drive_eval.py (cache key: the dataset's file name); last week's run exit {before}, this week's "
            f"exit {code}; {complete(ctx)} rollouts, labels {sorted(seen)} (this week's file: {sorted(now)}), mean "
            f"reward {mean_of(got):.2f}.")


# =====================================================================================================
# data_schema
# =====================================================================================================

DOTTED = [
    ("What is the capital of India?", "New Delhi"),
    ("What is the value of pi to two decimal places?", "3.14"),
    ("Who wrote the play Hamlet?", "William Shakespeare"),
    ("What is 7 multiplied by 6?", "42"),
    ("What is the chemical symbol for gold?", "Au"),
    ("What is the capital of Brazil?", "Brasilia"),
]

PREP_RE_PY = '''"""prep.py: answer_key.tsv (question<TAB>answer, from the labelling sheet) -> string_match.jsonl."""
import json
import re

rows = []
with open("answer_key.tsv", encoding="utf-8") as f:
    next(f)  # header
    for line in f:
        question, answer = line.rstrip("\\n").split("\\t")
        text = f"{question} End your response with 'Final answer: <answer>'."
        rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                            "content": [{"type": "input_text", "text": text}]}]},
                     # labels are matched literally (kept from the regex grader of the v1 harness)
                     "expected_answer": re.escape(answer.strip()), "extraction_mode": "final_answer"})
with open("string_match.jsonl", "w") as out:
    out.writelines(json.dumps(row) + "\\n" for row in rows)
print(f"prep: {len(rows)} rows written")
'''


@case(
    "data_schema_builtin_prep_passes_labels_through_re_escape_kept_from_regex_grader_so_spaces_and_dots_gain_backslashes",
    "data_schema",
    ["prep.py", "re.escape", "expected_answer", "New\\ Delhi"],
    "prep.py still writes every label through `re.escape` (kept from the v1 harness, whose grader matched answers as "
    "regular expressions); the string_match verifier compares plain text, so the labels with a space or a dot became "
    "'New\\ Delhi', '3\\.14' and 'William\\ Shakespeare' and every right answer to those questions scored 0, while "
    "'42', 'Au' and 'Brasilia' scored normally (every command exits 0)",
)
def data_schema_builtin_prep_passes_labels_through_re_escape_kept_from_regex_grader_so_spaces_and_dots_gain_backslashes(
        ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, DOTTED)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "answer_key.tsv").write_text("question\tanswer\n" + "".join(f"{q}\t{a}\n" for q, a in DOTTED),
                                        encoding="utf-8")
    (run / "prep.py").write_text(PREP_RE_PY)
    code = run_eval(ctx, f"{BIN}/python prep.py\n" + pipeline_lines(url), "weekly eval: prep the answer key, then run")
    labels = [r["expected_answer"] for r in rows_of(run / "string_match.jsonl")]
    got = rows_of(run / "rollouts.jsonl")
    escaped = {"New\\ Delhi", "3\\.14", "William\\ Shakespeare"}
    broken, others = labelled(got, escaped)
    if code or not escaped <= set(labels) or len(broken) != 9 or sum(rewards(broken)) > 1 \
            or mean_of(others) < mean_of(broken) + 0.3:
        raise failed(ctx, f"exit {code}, {labels}, {rewards(broken)} {rewards(others)}: {got[:1]}")
    return (f"RUN/answer_key.tsv; RUN/prep.py (`re.escape(answer)`); RUN/run_eval.sh (prep, materialize 6 x 3, "
            f"collect, profile) exit {code}; labels {labels}; rewards of the escaped labels {rewards(broken)}, "
            f"others mean {mean_of(others):.2f}.")


# =====================================================================================================
# throughput_resources (Docker)
# =====================================================================================================


@case(
    "throughput_resources_docker_collect_container_capped_at_cpus_0_05_from_sidecar_template_so_collect_overruns_the_20_s_step_timeout",
    "throughput_resources",
    ["run_eval.sh", "--cpus", "0.05", "timeout 20"],
    "run_eval.sh starts the collect container with the limits of the team's sidecar template, `--cpus 0.05` (5 % of "
    "one core, meant for a log shipper); the Python collect needs a few CPU-seconds just to start, so under that cap "
    "it had not even printed its progress bar when the step's `timeout 20` stopped it (exit 124; --init passes the "
    "signal on), and profile found no rollouts.jsonl although the policy server was fast and idle",
)
def throughput_resources_docker_collect_container_capped_at_cpus_0_05_from_sidecar_template_so_collect_overruns_the_20_s_step_timeout(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 6)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h109-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, "--init --cpus 0.05 --memory 512m",
                                   "collect runs in the eval container (limits from the sidecar template)")
    text = script.read_text()
    if "docker run --rm" not in text:
        raise recipes.RecipeError("docker run not found in the script")
    script.write_text(text.replace("docker run --rm", "timeout 20 docker run --rm", 1))
    (run / "logs").mkdir(exist_ok=True)
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) >= 18 or "collect container exit: 124" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (`timeout 20 docker run --rm --init --cpus 0.05 ... collect`, then profile) exit {code}; the "
            f"collect container was stopped by the timeout; {complete(ctx)} of 18 rollouts collected.")


if __name__ == "__main__":
    sys.exit(main("hundred_and_ninth_held_out", __file__, __doc__))
