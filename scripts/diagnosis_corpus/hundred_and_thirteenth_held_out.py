"""Build the HUNDRED-AND-THIRTEENTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/hundred_and_thirteenth_held_out.py --out tests/data/diagnosis_corpus/hundred_and_thirteenth_held_out [--only CASE ...]

This set was written after a hundred and eleven earlier sets (first_held_out.py ... hundred_and_eleventh_held_out.py; the
hundred-and-twelfth was written beside it at the same time), from the guides alone (the NeMo Gym debugging guide, the
reward profiling guide, the task-folder troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without
reading the diagnosis rules, their tests or their results. It is meant to be measured once, by someone else, on
failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
Docker containers the user's scripts start, task-folder (Harbor-format) tasksets, and the user's own shell and
Python tooling, settings, data-preparation scripts and verifiers. The output of every command is captured as a user
would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data,
scripts, settings, verifier code). Each case injects one cause, different in mechanism from those of the 111 earlier
sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not
written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), and PYTHONPATH set to this checkout. Run it from a
foreground shell. Containers it makes are named `h113-...` and removed at the end of their recipe.
"""
from __future__ import annotations

import json
import shutil
import socket
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
from recipes import BIN, GP, Ctx, case, main, rows_of, wait_for  # noqa: E402
from seventy_first_held_out import docker_collect_script, remove_container  # noqa: E402
from seventy_ninth_held_out import run_eval  # noqa: E402
from sixty_fourth_held_out import mean_of, pipeline_lines  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_sixth_held_out import free_port  # noqa: E402

from hundred_and_eleventh_held_out import PAIRS  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


def port_ending_in_1() -> int:
    """A free loopback port whose last digit is 1 (as the team's servers use 8001, 18001, ...)."""
    for port in range(18001, 60000, 10):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise recipes.RecipeError("no free port ending in 1")


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_builtin_run_script_rotates_last_runs_rollouts_with_mv_on_the_first_run_of_a_fresh_folder_so_mv_prints_cannot_stat",
    "healthy",
    [],
    "nothing is wrong: run_eval.sh first keeps the previous run's results with `mv rollouts.jsonl "
    "rollouts.prev.jsonl`; this is the first run in a fresh folder, so mv prints \"cannot stat 'rollouts.jsonl': No "
    "such file or directory\" (the script goes on, no `set -e`), and materialize, collect and profile then completed "
    "every rollout",
)
def healthy_builtin_run_script_rotates_last_runs_rollouts_with_mv_on_the_first_run_of_a_fresh_folder_so_mv_prints_cannot_stat(
        ctx: Ctx) -> str:
    _, (_, better) = builtin_rows(ctx, 6, 12)
    url, _ = ctx.policy(better, "--latency-ms 20")
    body = ("echo '== keeping the previous run'\nmv rollouts.jsonl rollouts.prev.jsonl\n"
            + pipeline_lines(url) + "echo '== eval finished'\n")
    code = run_eval(ctx, body, "weekly eval (the previous run's rollouts are kept as rollouts.prev.jsonl)")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(ctx.run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or "cannot stat" not in log \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (`mv rollouts.jsonl rollouts.prev.jsonl` with no previous run, then materialize 6 x 3, "
            f"collect, profile) exit {code}; {complete(ctx)} of 18 rollouts, mean reward {mean_of(got):.2f}.")


@case(
    "healthy_docker_run_script_cleans_stale_collect_containers_with_xargs_docker_rm_that_runs_without_names_so_docker_says_requires_at_least_1_argument",
    "healthy",
    [],
    "nothing is wrong: before the collect container, run_eval.sh removes stale ones with `docker ps -aq --filter "
    "name=h113-collect | xargs docker rm -f`; there were none, and GNU xargs without -r still runs `docker rm -f` "
    "once with no names, so docker prints \"'docker rm' requires at least 1 argument\", but the collect container "
    "then exited 0 and every rollout was collected and profiled",
)
def healthy_docker_run_script_cleans_stale_collect_containers_with_xargs_docker_rm_that_runs_without_names_so_docker_says_requires_at_least_1_argument(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 48)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h113-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, "", "collect runs in the eval container")
    text = script.read_text()
    head = ("echo '== removing stale collect containers'\n"
            "docker ps -aq --filter name=h113-collect-stale | xargs docker rm -f\n")
    script.write_text(text.replace("rm -f rollouts.jsonl", head + "rm -f rollouts.jsonl", 1))
    (run / "logs").mkdir(exist_ok=True)
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or "requires at least 1 argument" not in log \
            or "collect container exit: 0" not in log or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (`docker ps -aq ... | xargs docker rm -f` with nothing to remove, then materialize 6 x 3, "
            f"collect container, profile) exit {code}; {complete(ctx)} of 18 rollouts, mean reward {mean_of(got):.2f}.")


def drop_caches(tasks: Path) -> None:
    test = tasks / "count-error-lines" / "tests" / "test.sh"
    text = test.read_text()
    test.write_text(text.replace("cd /app\n", "# cold page cache before the checks, as in the team's benchmark verifiers\n"
                                 "sync; echo 3 > /proc/sys/vm/drop_caches\ncd /app\n", 1))


@case(
    "healthy_taskfolder_test_sh_drops_page_cache_like_the_benchmark_verifiers_so_proc_sys_reports_read_only_file_system",
    "healthy",
    [],
    "nothing is wrong: count-error-lines' tests/test.sh starts with `sync; echo 3 > /proc/sys/vm/drop_caches`, copied "
    "from the team's benchmark verifiers; /proc/sys is read-only in the sandbox, so every episode prints "
    "'/proc/sys/vm/drop_caches: Read-only file system', but the check after it ran and wrote the reward, and every "
    "episode was collected, scored and profiled",
)
def healthy_taskfolder_test_sh_drops_page_cache_like_the_benchmark_verifiers_so_proc_sys_reports_read_only_file_system(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["count-error-lines", "create-greeting"], edit=drop_caches, repeats=4)
    counts, greeting = task_rewards(ctx, "count-error-lines"), task_rewards(ctx, "create-greeting")
    text = everything(ctx)
    if code or complete(ctx) != 8 or not any(counts) or not any(greeting) or "Read-only file system" not in text \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {counts} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/count-error-lines/tests/test.sh (`echo 3 > /proc/sys/vm/drop_caches`); RUN/run_tasks.sh "
            f"(`gym-pipeline stage` materialize, collect, profile) exit {code}; {complete(ctx)} episodes, rewards "
            f"{counts} and {greeting}.")


# =====================================================================================================
# infra (Docker)
# =====================================================================================================


@case(
    "infra_docker_collect_container_template_mounts_model_cache_with_rshared_bind_propagation_that_the_nodes_private_root_mount_refuses",
    "infra",
    ["run_eval.sh", "bind-propagation=rshared", "--mount", "not a shared mount"],
    "run_eval.sh mounts the model cache into the collect container with the k8s hostPath template's "
    "`--mount type=bind,...,bind-propagation=rshared`; this node's root mount is private, so docker refused to create "
    "the container ('is mounted on / but it is not a shared mount', exit 125) and no rollout was collected",
)
def infra_docker_collect_container_template_mounts_model_cache_with_rshared_bind_propagation_that_the_nodes_private_root_mount_refuses(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 54)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "model_cache").mkdir()
    name = f"h113-collect-{free_port()}"
    script = docker_collect_script(
        ctx, url, name, f"--mount type=bind,source={run}/model_cache,target=/cache,bind-propagation=rshared",
        "collect runs in the eval container (mounts as in the k8s hostPath template)")
    (run / "logs").mkdir(exist_ok=True)
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) or "not a shared mount" not in log or "collect container exit: 125" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-2500:]}")
    return (f"RUN/run_eval.sh (`docker run ... --mount type=bind,...,bind-propagation=rshared ... collect`) exit {code}; "
            f"collect container exit 125; {complete(ctx)} rollouts.")


# =====================================================================================================
# model_serving
# =====================================================================================================


@case(
    "model_serving_builtin_serve_script_reuses_chat_ui_admission_flags_max_running_2_max_waiting_2_so_eval_concurrency_16_is_answered_429",
    "model_serving",
    ["serve_policy.sh", "--max-waiting 2", "--max-running 2", "429"],
    "serve_policy.sh starts the eval server with the chat UI deployment's admission flags `--max-running 2 "
    "--max-waiting 2` (copied from deploy/chat_ui.env), so with collect's 16 requests in flight the server answered "
    "most of them 429 overloaded; the retries ran out and many rollouts failed instead of being scored",
)
def model_serving_builtin_serve_script_reuses_chat_ui_admission_flags_max_running_2_max_waiting_2_so_eval_concurrency_16_is_answered_429(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 16, 20)
    ckpts = run / "checkpoints"
    ckpts.mkdir()
    shutil.copytree(better, ckpts / "step_0200")
    (run / "deploy").mkdir()
    (run / "deploy" / "chat_ui.env").write_text("# admission limits of the chat UI deployment (one GPU, short queue)\n"
                                                "SERVE_FLAGS=\"--max-running 2 --max-waiting 2\"\n")
    port = free_port()
    serve = run / "serve_policy.sh"
    serve.write_text(
        "#!/bin/bash\n# serve the candidate for the weekly eval (flags shared with the chat UI deployment)\n"
        "cd \"$(dirname \"$0\")\"\nsource deploy/chat_ui.env\necho \"== serving checkpoints/step_0200 with $SERVE_FLAGS\"\n"
        f"nohup {GP} serve-policy --checkpoint checkpoints/step_0200 --port {port} --latency-ms 800 $SERVE_FLAGS "
        "--ready-file logs/policy.url > logs/model_server.log 2>&1 &\necho $! > logs/model_server.pid\n"
        "for i in $(seq 60); do test -s logs/policy.url && break; sleep 0.5; done\necho \"== ready: $(cat logs/policy.url)\"\n")
    (run / "logs").mkdir(exist_ok=True)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        served = ctx.sh(f"bash {serve}", "logs/serve_policy.log", timeout=120)
        code = run_eval(ctx, pipeline_lines(url, concurrency=16), "weekly eval of step_0200 (served by serve_policy.sh)")
    finally:
        pid = run / "logs" / "model_server.pid"
        if pid.exists():
            import os, signal  # noqa: E401
            try:
                os.kill(int(pid.read_text().strip()), signal.SIGTERM)
            except (ProcessLookupError, ValueError):
                pass
    text = everything(ctx)
    if complete(ctx) >= 48 or "Too Many Requests" not in text or "overloaded" not in text:
        raise failed(ctx, f"exit {served}/{code}, {complete(ctx)}: {log_of(ctx, 'run_eval.log')[-2500:]}")
    return (f"RUN/serve_policy.sh (`--max-running 2 --max-waiting 2` from deploy/chat_ui.env) exit {served}; "
            f"RUN/run_eval.sh (collect --concurrency 16) exit {code}; {complete(ctx)} of 48 rollouts scored.")


# =====================================================================================================
# config
# =====================================================================================================

RSTRIP_DRIVER_PY = '''"""eval.py: the weekly eval; the server comes from eval_settings.json."""
import json
import subprocess

GP = "{gp}"
cfg = json.load(open("eval_settings.json"))
# accept the base URL with or without /v1 (people paste both)
url = cfg["policy_url"].rstrip("/v1") + "/v1"
print(f"== policy: {{url}}", flush=True)
subprocess.run([GP, "materialize", "--input", cfg["dataset"], "--num-repeats", str(cfg["num_repeats"]), "--agent",
                "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
subprocess.run([GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                "--model-url", url, "--env", "string_match", "--concurrency", str(cfg["concurrency"])], check=True)
subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
               check=True)
print("eval done", flush=True)
'''


@case(
    "config_builtin_python_driver_normalises_policy_url_with_rstrip_of_slash_v1_which_also_eats_the_ports_trailing_1_so_collect_calls_port_1800",
    "config",
    ["eval.py", "rstrip", "/v1", "policy_url"],
    "eval.py normalises the server URL of eval_settings.json with `.rstrip(\"/v1\")` + \"/v1\"; rstrip removes any "
    "trailing '/', 'v' and '1' characters, not the suffix, so http://127.0.0.1:18001/v1 became http://127.0.0.1:1800/v1, "
    "collect could not connect to that port and no rollout was scored",
)
def config_builtin_python_driver_normalises_policy_url_with_rstrip_of_slash_v1_which_also_eats_the_ports_trailing_1_so_collect_calls_port_1800(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 66)
    port = port_ending_in_1()
    ready = ctx.work / "policy-ready-18001"
    ctx.bg(f"{GP} serve-policy --port {port} --ready-file {ready} --checkpoint {better} --latency-ms 20",
           "logs/model_server.log")
    wait_for(lambda: ready.exists() and ready.read_text().strip() != "", 30, "the simulated policy")
    url = ready.read_text().strip()
    if not url.rstrip("/").endswith(f"{port}/v1"):
        raise recipes.RecipeError(f"policy not on port {port}: {url}")
    (run / "eval_settings.json").write_text(json.dumps(
        {"policy_url": url, "dataset": "string_match.jsonl", "num_repeats": 3, "concurrency": 4}, indent=2) + "\n")
    (run / "eval.py").write_text(RSTRIP_DRIVER_PY.format(gp=GP))
    (run / "logs").mkdir(exist_ok=True)
    code = ctx.sh(f"cd {run} && {BIN}/python eval.py", "logs/eval.log", timeout=300)
    log = log_of(ctx, "eval.log")
    bad = f":{str(port).rstrip('1')}/v1"
    if complete(ctx) or bad not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-2500:]}")
    return (f"RUN/eval_settings.json (policy_url {url}); RUN/eval.py (`.rstrip(\"/v1\")`) exit {code}; collect "
            f"called {bad}; {complete(ctx)} rollouts.")


# =====================================================================================================
# data_schema
# =====================================================================================================

PREP_LIST_PY = '''"""prep.py: labelling tool export (labels_export.json) -> string_match.jsonl."""
import json

items = json.load(open("labels_export.json"))["items"]
rows = []
for item in items:
    text = f"{item['question']} End your response with 'Final answer: <answer>'."
    rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                        "content": [{"type": "input_text", "text": text}]}]},
                 "expected_answer": str(item["answer"]),  # the verifier wants text
                 "extraction_mode": "final_answer"})
with open("string_match.jsonl", "w") as out:
    out.writelines(json.dumps(row) + "\\n" for row in rows)
print(f"prep: {len(rows)} rows written")
'''


@case(
    "data_schema_builtin_labelling_tool_export_turned_answer_into_multi_value_list_and_prep_casts_it_with_str_so_labels_read_bracketed_lists",
    "data_schema",
    ["prep.py", "labels_export.json", "answer", "str("],
    "the labelling tool's export now gives each item's answer as a list (the answer field was made multi-valued: "
    "\"answer\": [\"Canberra\"]), and prep.py casts it with `str(item[\"answer\"])`, so every expected_answer became "
    "the text \"['Canberra']\"; no answer could match and every rollout scored 0 (every command exits 0)",
)
def data_schema_builtin_labelling_tool_export_turned_answer_into_multi_value_list_and_prep_casts_it_with_str_so_labels_read_bracketed_lists(
        ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    export = {"project": "capitals-and-facts", "exported_at": "2026-12-04T09:12:00Z",
              "schema": {"answer": {"type": "text", "multi_value": True}},
              "items": [{"id": i + 1, "question": q, "answer": [a]} for i, (q, a) in enumerate(PAIRS)]}
    (run / "labels_export.json").write_text(json.dumps(export, indent=2) + "\n")
    (run / "prep.py").write_text(PREP_LIST_PY)
    code = run_eval(ctx, f"{BIN}/python prep.py\n" + pipeline_lines(url), "weekly eval: prep the export, then run")
    labels = [r["expected_answer"] for r in rows_of(run / "string_match.jsonl")]
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or labels[0] != f"['{PAIRS[0][1]}']" or any(rewards(got)):
        raise failed(ctx, f"exit {code}, {labels}, {rewards(got)}: {got[:1]}")
    return (f"RUN/labels_export.json (`\"answer\": [...]`); RUN/prep.py (`str(item[\"answer\"])`); RUN/run_eval.sh "
            f"exit {code}; labels {labels[:2]}...; {complete(ctx)} rollouts, rewards {rewards(got)}.")


# =====================================================================================================
# verifier_runtime (task folder)
# =====================================================================================================

COLLATED_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# expected list: `sort -u environment/words.txt` on the author's laptop
cd /app
expected=$(printf "apple\\nbanana\\ncherry\\nfig\\nKiwi\\npear")
if test "$(cat /app/sorted.txt 2>/dev/null)" = "$expected"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL: got $(tr '\\n' ' ' < /app/sorted.txt 2>/dev/null)"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def collated_on_laptop(tasks: Path) -> None:
    words = tasks / "sort-unique-words" / "environment" / "words.txt"
    words.write_text(words.read_text().rstrip("\n") + "\nKiwi\npear\nKiwi\n")
    write_task_file(tasks, "sort-unique-words", "tests/test.sh", COLLATED_TEST_SH)


@case(
    "verifier_runtime_taskfolder_test_sh_hardcodes_word_list_sorted_under_authors_en_us_collation_while_sandbox_sort_uses_c_order",
    "verifier_runtime",
    ["test.sh", "expected", "Kiwi", "sort"],
    "the author of sort-unique-words added 'Kiwi' to words.txt and pasted into tests/test.sh the expected list as "
    "`sort -u` printed it on their laptop under en_US.UTF-8 (apple ... fig Kiwi pear); in the sandbox `sort` runs in "
    "the C locale and puts 'Kiwi' first, so no correct answer could match: every sort-unique-words episode scored 0 "
    "while count-error-lines scored normally (every command exits 0)",
)
def verifier_runtime_taskfolder_test_sh_hardcodes_word_list_sorted_under_authors_en_us_collation_while_sandbox_sort_uses_c_order(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["count-error-lines", "sort-unique-words"], edit=collated_on_laptop, repeats=4)
    counts, words = task_rewards(ctx, "count-error-lines"), task_rewards(ctx, "sort-unique-words")
    text = everything(ctx)
    if code or complete(ctx) != 8 or not any(counts) or any(words) or len(words) != 4 \
            or "FAIL: got Kiwi apple" not in text:
        raise failed(ctx, f"exit {code}, {counts} {words}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/sort-unique-words/tests/test.sh (expected `apple ... fig Kiwi pear`); RUN/run_tasks.sh "
            f"(`gym-pipeline stage` materialize, collect, profile) exit {code}; sort-unique-words rewards {words}, "
            f"count-error-lines {counts}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

BASENAME_DRIVER_PY = '''"""eval_checkpoint.py CHECKPOINT_DIR MODEL_URL: evaluate one checkpoint once; results/<checkpoint>/ is kept."""
import os
import subprocess
import sys

GP = "{gp}"
ckpt, url = sys.argv[1], sys.argv[2]
out = os.path.join("results", os.path.basename(ckpt))
if os.path.exists(os.path.join(out, "rollouts.jsonl")):
    print(f"== {{ckpt}}: already evaluated in {{out}}, reusing", flush=True)
    sys.exit(0)
os.makedirs(out, exist_ok=True)
print(f"== evaluating {{ckpt}} at {{url}} into {{out}}", flush=True)
subprocess.run([GP, "materialize", "--input", "string_match.jsonl", "--num-repeats", "3", "--agent",
                "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
subprocess.run([GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output",
                os.path.join(out, "rollouts.jsonl"), "--model-url", url, "--env", "string_match", "--concurrency", "4"],
               check=True)
subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts",
                os.path.join(out, "rollouts.jsonl")], check=True)
'''


@case(
    "cache_resume_builtin_driver_names_results_folder_with_os_path_basename_of_checkpoint_given_with_trailing_slash_so_every_step_reuses_the_first",
    "cache_resume",
    ["eval_checkpoint.py", "os.path.basename", "results", "ckpt"],
    "eval_checkpoint.py keeps results in results/<os.path.basename(checkpoint)> and skips checkpoints already "
    "evaluated; the checkpoints are passed tab-completed with a trailing slash (checkpoints/step_0200/), whose "
    "basename is empty, so every step shares results/ and step_0200 was 'already evaluated': the report shows "
    "step_0100's rollouts (every command exits 0)",
)
def cache_resume_builtin_driver_names_results_folder_with_os_path_basename_of_checkpoint_given_with_trailing_slash_so_every_step_reuses_the_first(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (older, better) = builtin_rows(ctx, 6, 78)
    ckpts = run / "checkpoints"
    ckpts.mkdir()
    shutil.copytree(older, ckpts / "step_0100")
    shutil.copytree(better, ckpts / "step_0200")
    old, _ = ctx.policy(ckpts / "step_0100", "--latency-ms 20", log="logs/model_server_step_0100.log")
    new, _ = ctx.policy(ckpts / "step_0200", "--latency-ms 20", log="logs/model_server_step_0200.log")
    (run / "eval_checkpoint.py").write_text(BASENAME_DRIVER_PY.format(gp=GP))
    (run / "logs").mkdir(exist_ok=True)
    first = ctx.sh(f"cd {run} && {BIN}/python eval_checkpoint.py checkpoints/step_0100/ {old}",
                   "logs/eval_step_0100.log", timeout=300)
    code = ctx.sh(f"cd {run} && {BIN}/python eval_checkpoint.py checkpoints/step_0200/ {new}",
                  "logs/eval_step_0200.log", timeout=300)
    log = log_of(ctx, "eval_step_0200.log")
    got = rows_of(run / "results" / "rollouts.jsonl")
    old_mean, new_mean = reference_mean(ctx, old, "step_0100"), reference_mean(ctx, new, "step_0200")
    if first or code or "reusing" not in log or not got or abs(mean_of(got) - old_mean) > 1e-9 \
            or abs(new_mean - old_mean) < 0.1 or (run / "results" / "step_0200").exists():
        raise failed(ctx, f"exit {first}/{code}, {mean_of(got)} {old_mean} {new_mean}: {log[-1500:]}")
    return (f"RUN/eval_checkpoint.py (`results/<os.path.basename(ckpt)>`, skip when present); run for "
            f"checkpoints/step_0100/ exit {first}, then checkpoints/step_0200/ exit {code} ('reusing'); "
            f"results/rollouts.jsonl mean reward {mean_of(got):.2f} (step_0100 earns {old_mean:.2f}, step_0200 "
            f"{new_mean:.2f}).")


# =====================================================================================================
# throughput_resources
# =====================================================================================================


@case(
    "throughput_resources_builtin_run_script_splits_inputs_into_one_task_shards_and_collects_them_one_after_another_so_ci_timeout_stops_it",
    "throughput_resources",
    ["run_eval.sh", "split -l 3", "for shard", "timeout 60"],
    "for resumability run_eval.sh splits the materialized inputs into one-task shards (`split -l 3`) and runs one "
    "`gym-pipeline collect` per shard in a `for` loop; each shard holds only 3 requests, so the --concurrency 8 was "
    "never used and every shard paid the process start and a full 2 s answer: the CI step's `timeout 60` stopped the "
    "loop (exit 124) with only part of the 20 x 3 rollouts collected, although the server sat mostly idle",
)
def throughput_resources_builtin_run_script_splits_inputs_into_one_task_shards_and_collects_them_one_after_another_so_ci_timeout_stops_it(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 20, 60)
    url, _ = ctx.policy(better, "--latency-ms 2000")
    body = (f"{GP} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent "
            "--output rollouts_materialized_inputs.jsonl\n"
            "rm -rf shards && mkdir shards\n"
            "# one task (3 repeats) per shard, so a crash only loses one shard\n"
            "split -l 3 -d -a 3 rollouts_materialized_inputs.jsonl shards/part_\n"
            "timeout 60 bash -c '\n"
            "for shard in shards/part_*; do\n"
            f"  {GP} collect --inputs $shard --output $shard.rollouts.jsonl --model-url {url} --env string_match "
            "--concurrency 8 || exit 1\n"
            "done'\n"
            "echo \"collect loop exit: $?\"\n"
            "cat shards/*.rollouts.jsonl > rollouts.jsonl\n"
            f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    code = run_eval(ctx, body, "nightly CI eval step (budget: 60 s)")
    log = log_of(ctx, "run_eval.log")
    if "collect loop exit: 124" not in log or complete(ctx) >= 60:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (`split -l 3` into one-task shards, `timeout 60` loop of collect per shard) exit {code}; "
            f"loop exit 124; {complete(ctx)} of 60 rollouts collected.")


if __name__ == "__main__":
    sys.exit(main("hundred_and_thirteenth_held_out", __file__, __doc__))
