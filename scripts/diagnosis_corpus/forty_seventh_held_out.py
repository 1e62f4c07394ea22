"""Build the FORTY-SEVENTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/forty_seventh_held_out.py --out tests/data/diagnosis_corpus/forty_seventh_held_out [--only CASE ...]

This set was written after the forty-six earlier sets (first_held_out.py ... forty_sixth_held_out.py), from the guides
alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
task folders run in Docker sandboxes, Slurm batch jobs, the real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` /
`gym eval profile` inside a loopback-only network namespace), and the user's own shell scripts, settings, serving
scripts, data-preparation scripts, workspace verifiers, resources servers, team packages and task files. The output
of every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand
but the user's own inputs (data, scripts, settings, verifier code). Each case injects one cause, different in
mechanism from those of the forty-six earlier sets, and each recipe checks that its fault really happened (it raises
RecipeError otherwise, and the case is not written). About half of the failures are silent: every command exits 0
and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare,
mount), Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this checkout. Run it from a foreground shell.
"""
from __future__ import annotations

import json
import os
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
    stop_gym,
    task_checkpoints,
    user_taskset,
    workspace_sweep,
)
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from forty_fifth_held_out import MULTIWORD, log_of, submit  # noqa: E402
from forty_fourth_held_out import CAPITALS  # noqa: E402
from forty_second_held_out import workspace_script  # noqa: E402
from forty_third_held_out import CAPITALS_WRONG, PLAIN_SBATCH  # noqa: E402
from fourteenth_held_out import mean, rewards  # noqa: E402
from recipes import (  # noqa: E402
    Ctx,
    case,
    gym_model_args,
    main,
    rows_of,
    text_of,
)
from tenth_held_out import in_log  # noqa: E402
from thirtieth_held_out import gym_rows  # noqa: E402
from thirty_fifth_held_out import mean_reward, pipeline  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_fifth_held_out import job_logs, task_rows  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_seventh_held_out import builtin_script, gym_eval_with_own_server  # noqa: E402
from twenty_sixth_held_out import free_port, gym_run, slurm_script  # noqa: E402
from twenty_third_held_out import taskset_script, write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


def said_right(row: dict) -> bool:
    """Whether the model's reply ends on the label after 'Final answer:' (the model got it right)."""
    return f"final answer: {row['expected_answer']}".lower() in json.dumps(row.get("response")).lower()


def stale_right(rows: list[dict]) -> tuple[list[dict], list[dict]]:
    """Rollouts graded against the old (wrong) labels of CAPITALS_WRONG, and those of them the model got right."""
    fixed = {wrong: a for _, a, wrong in CAPITALS_WRONG if wrong}
    stale = [r for r in rows if r.get("expected_answer") in fixed]
    right = [r for r in stale if str(r.get("extracted_answer")).lower() == fixed[r["expected_answer"]].lower()]
    return stale, right


# =====================================================================================================
# healthy
# =====================================================================================================

DMESG_LINES = [
    "echo '== weekly eval'",
    "# any OOM kills on this node lately? (for the run notes: other teams' jobs share the node)",
    "dmesg | grep -i 'out of memory' | tail -n 3 || echo '(no OOM kills in the kernel log)'",
]


@case(
    "healthy_builtin_run_script_scans_kernel_log_for_oom_kills_and_prints_other_jobs_old_ones",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh prints the last OOM kills of the node's kernel log (`dmesg | grep -i "
    "'out of memory'`) for the run notes; the node's log holds old kills of other jobs' python processes ('Memory "
    "cgroup out of memory: Killed process ... (python)'), from before this eval; materialize, collect and profile "
    "then completed every rollout",
)
def healthy_builtin_run_script_scans_kernel_log_for_oom_kills_and_prints_other_jobs_old_ones(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 36)
    url, _ = ctx.policy(better, "--latency-ms 30")
    script = builtin_script(ctx, DMESG_LINES, "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = complete(ctx)
    if code or got != 24 or not in_log(ctx, "out of memory", "logs/run_eval.log") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {log_of(ctx, 'run_eval.log')[-600:]}")
    return (f"RUN/run_eval.sh (`dmesg | grep -i 'out of memory'` shows old OOM kills of other jobs, then materialize "
            f"8 x 3, collect, profile) exit {code}; {got} rollouts, mean reward {mean_reward(run / 'rollouts.jsonl')}.")


PROMETHEUS_LINES = [
    "echo '== weekly eval'",
    "# push-gateway of the team's Prometheus: is it up on this node? (the eval's metrics go there when it is)",
    "curl -sS --max-time 3 http://127.0.0.1:9091/-/ready || echo '(no metrics gateway on this node: not pushed)'",
]


@case(
    "healthy_gym_run_script_checks_metrics_push_gateway_that_does_not_run_on_the_eval_node",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh checks whether the team's Prometheus push gateway runs on the node "
    "(`curl http://127.0.0.1:9091/-/ready`); it does not here, so curl prints 'Failed to connect ... Connection "
    "refused' and the script goes on; the real NeMo Gym eval then collected, verified and profiled every rollout",
    netns=True,
)
def healthy_gym_run_script_checks_metrics_push_gateway_that_does_not_run_on_the_eval_node(ctx: Ctx) -> str:
    run = ctx.run
    ctx.dataset("string_match", 8, start=44, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", run / "tasks.jsonl")[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", PROMETHEUS_LINES, overrides)
    stop_gym(ctx, env_start, policy)
    got = len({(r["_ng_task_index"], r["_ng_rollout_index"]) for r in gym_rows(ctx)})
    if code or got != 24 or not in_log(ctx, "Failed to connect", "logs/run_eval.log") \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {log_of(ctx, 'run_eval.log')[-600:]}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (`curl` of a push gateway that is not "
            f"there, then `gym eval run --no-serve` 8 tasks x 3 and `gym eval profile`) exit {code}; {got} rollouts, "
            f"mean reward {mean(rewards(gym_rows(ctx))):.2f}.")


SLIM_LINES = [
    "echo '== weekly taskset run'",
    "# the slim base is smaller to ship: show whether this engine has it (the tasks still name bookworm)",
    "docker image inspect gym-pipeline/base:bookworm-slim --format '{{.Id}}' || echo '(no slim base here)'",
]


@case(
    "healthy_taskfolder_run_script_looks_for_a_slim_base_image_this_engine_never_built",
    "healthy",
    [],
    "nothing is wrong: the user's run_tasks.sh looks for a slimmer base image (gym-pipeline/base:bookworm-slim) the "
    "team talked about; this engine does not have it, so `docker image inspect` prints 'No such image' and the script "
    "goes on; the tasks name the bookworm base, and every episode ran in its Docker sandbox, was verified and profiled",
)
def healthy_taskfolder_run_script_looks_for_a_slim_base_image_this_engine_never_built(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["sort-unique-words", "csv-column-total"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, SLIM_LINES)
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    log = log_of(ctx, "run_tasks.log")
    if code or complete(ctx) != 4 or not any(rewards(got)) or "No such image" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {rewards(got)}: {log[-600:]}")
    return (f"RUN/run_tasks.sh (`docker image inspect` of a missing slim base, then `gym-pipeline stage` materialize, "
            f"collect, profile of RUN/tasks x 2) exit {code}; {complete(ctx)} of 4 episodes, rewards {rewards(got)}.")


GPU_PART_SBATCH = PLAIN_SBATCH.replace(
    "PIPELINE",
    "# the GPU partition's state, for the run notes (the checkpoint's training ran there)\n"
    "scontrol show partition gpu | head -n 3 || echo '(no gpu partition on this cluster)'\n"
    "PIPELINE")


@case(
    "healthy_slurm_job_shows_the_training_gpu_partition_on_a_cluster_that_has_none",
    "healthy",
    [],
    "nothing is wrong: the user's eval.sbatch notes the state of the gpu partition where the checkpoint was trained "
    "(`scontrol show partition gpu`); this eval cluster has no such partition, so scontrol answers 'Partition gpu not "
    "found' and the job goes on; materialize, collect and profile completed every rollout",
)
def healthy_slurm_job_shows_the_training_gpu_partition_on_a_cluster_that_has_none(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 52)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(GPU_PART_SBATCH, ctx, PIPELINE=pipeline(url)))
    code = submit(ctx, "eval.sbatch")
    got = complete(ctx)
    job = job_logs(ctx, "eval_*.log")
    if code or got != 24 or "not found" not in job or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {job[-600:]}")
    return (f"RUN/submit.sh (sbatch of RUN/eval.sbatch: `scontrol show partition gpu` not found, then materialize "
            f"8 x 3, collect, profile) exit {code}; {got} rollouts, mean reward {mean_reward(run / 'rollouts.jsonl')}.")


# =====================================================================================================
# infra
# =====================================================================================================

DEBIAN_HOSTS = "127.0.0.1\tlocalhost\n127.0.1.1\tdebian\n\n::1\tlocalhost ip6-localhost ip6-loopback\n"
HOSTS_SED = r"sed -i 's/^127\.0\.[01]\.1\t.*/127.0.1.1\tlocalhost eval-node/' hosts"
HOSTS_NOTE = ("(the eval image's build script names the node in /etc/hosts with `HOSTS_SED`, meant for Debian's "
              "`127.0.1.1 <hostname>` line; the image's /etc/hosts is here bind-mounted over /etc/hosts in the case's "
              "own mount namespace)")


@case(
    "infra_builtin_image_build_sed_for_hostname_line_also_rewrites_localhost_to_127_0_1_1_so_model_url_misses_server",
    "infra",
    ["/etc/hosts", "127.0.1.1"],
    "the eval image's build script names the node in /etc/hosts with `sed 's/^127\\.0\\.[01]\\.1\\t.*/127.0.1.1\\t"
    "localhost eval-node/'`, meant for Debian's `127.0.1.1 <hostname>` line; its [01] also matched the `127.0.0.1 "
    "localhost` line, so IPv4 `localhost` now resolves only to 127.0.1.1 (and ::1), where nothing listens (the model "
    "server listens on 127.0.0.1): collect's every request to "
    "http://localhost:PORT/v1 was refused and nothing was collected or profiled, though the server is up and healthy",
    netns=True,
)
def infra_builtin_image_build_sed_for_hostname_line_also_rewrites_localhost_to_127_0_1_1_so_model_url_misses_server(
        ctx: Ctx) -> str:
    data, (_, better) = builtin_rows(ctx, 8, 14)
    url, _ = ctx.policy(better, "--latency-ms 20")
    port = url.split(":")[-1].split("/")[0]
    hosts = ctx.work / "hosts"
    hosts.write_text(DEBIAN_HOSTS)
    ctx.sh(HOSTS_SED, "logs/image_build.log", cwd=ctx.work)
    ctx.note(HOSTS_NOTE.replace("HOSTS_SED", HOSTS_SED))
    if "127.0.0.1" in hosts.read_text():
        raise failed(ctx, f"sed left 127.0.0.1: {hosts.read_text()}")
    done = subprocess.run(["mount", "--bind", str(hosts), "/etc/hosts"], capture_output=True, text=True)
    if done.returncode:
        raise failed(ctx, f"mount: {done.stderr}")
    try:
        script = builtin_script(ctx, ["echo '== weekly eval'", "getent hosts localhost",
                                      f"curl -sS http://127.0.0.1:{port}/v1/models | head -c 200; echo"],
                                "string_match.jsonl", f"http://localhost:{port}/v1")
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    finally:
        subprocess.run(["umount", "/etc/hosts"], capture_output=True, check=False)
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) or "127.0.1.1" not in log or "sim-policy" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-800:]}")
    return (f"/etc/hosts after the image build's sed: `127.0.1.1 localhost eval-node`, no 127.0.0.1 line; RUN/run_eval.sh (the server answers on 127.0.0.1, then "
            f"materialize 8 x 3, collect with --model-url http://localhost:PORT/v1, profile) exit {code}; "
            f"{complete(ctx)} rollouts.")


# =====================================================================================================
# model_serving
# =====================================================================================================

READY_SCRIPT = """#!/bin/bash
# weekly eval: serve the checkpoint, wait until it answers, evaluate
cd RUN_DIR
echo '== weekly eval'
GP_BIN serve-policy --port PORT --checkpoint CKPT --latency-ms 20 --slow-start-s 120 > logs/model_server.log 2>&1 &
SERVER=$!
# wait for the model server (vLLM takes a while to load the weights)
until curl -s http://127.0.0.1:PORT/v1/models > /dev/null; do sleep 1; done
echo "$(date +%T) model server up"
PIPELINE
kill $SERVER
"""


@case(
    "model_serving_builtin_readiness_loop_curls_without_fail_flag_so_loading_servers_503_counts_as_up",
    "model_serving",
    ["curl -f", "503", "ready"],
    "run_eval.sh waits for its model server with `until curl -s URL/models`; without -f, curl exits 0 on any HTTP "
    "answer, and a loading server already answers 503 on every route: the loop ended as soon as the port opened, "
    "minutes before the weights were loaded, and collect met 503 on its requests until it gave up: nothing or "
    "almost nothing was collected and the profile failed, though the checkpoint and the server are fine",
)
def model_serving_builtin_readiness_loop_curls_without_fail_flag_so_loading_servers_503_counts_as_up(
        ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 30)
    port = free_port()
    (run / "logs").mkdir(exist_ok=True)
    (run / "run_eval.sh").write_text(slurm_script(READY_SCRIPT, ctx, PORT=str(port), CKPT=str(better),
                                                  PIPELINE=pipeline(f"http://127.0.0.1:{port}/v1")))
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=400)
    log = log_of(ctx, "run_eval.log") + log_of(ctx, "model_server.log")
    if complete(ctx) >= 24 or "model server up" not in log or "503" not in log + text_of(run / "rollouts_failures.jsonl"):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-800:]}")
    return (f"RUN/run_eval.sh (`serve-policy --slow-start-s 120 &`, `until curl -s .../models`, then materialize 8 x 3, "
            f"collect, profile) exit {code}; the loop passed at once on a 503, {complete(ctx)} of 24 rollouts.")


# =====================================================================================================
# config
# =====================================================================================================

LATEST_LINES = [
    "echo '== weekly eval'",
    "# the newest version of the tasks (the data team adds data/tasks_vN.jsonl every week)",
    "DATA=$(ls data/tasks_v*.jsonl | tail -n 1)",
    "echo \"dataset: $DATA\"",
]


@case(
    "config_gym_run_script_picks_latest_dataset_version_with_ls_tail_so_v9_sorts_after_v10",
    "config",
    ["run_eval.sh", "sort -V", "tasks_v10"],
    "run_eval.sh picks the newest tasks with `ls data/tasks_v*.jsonl | tail -n 1`; ls sorts names as text, so "
    "tasks_v9.jsonl comes after tasks_v10.jsonl, this week's version with three labels fixed: the real NeMo Gym eval "
    "ran on v9 and the model's right answers to the three fixed tasks scored 0 against the old labels (every "
    "command exits 0)",
    netns=True,
)
def config_gym_run_script_picks_latest_dataset_version_with_ls_tail_so_v9_sorts_after_v10(ctx: Ctx) -> str:
    run = ctx.run
    better = truth_checkpoints(ctx, [(q, a) for q, a, _ in CAPITALS_WRONG])[1]
    for version in (8, 9):
        write_jsonl(run / "data" / f"tasks_v{version}.jsonl",
                    [question_row(q, wrong or a) for q, a, wrong in CAPITALS_WRONG])
    ctx.note("(this week: the data team's tasks_v10.jsonl, three labels fixed)")
    write_jsonl(run / "data" / "tasks_v10.jsonl", [question_row(q, a) for q, a, _ in CAPITALS_WRONG])
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "$DATA", LATEST_LINES, overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    stale, right = stale_right(got)
    if code or len(got) != 24 or not right or any(rewards(right)) \
            or "tasks_v9.jsonl" not in log_of(ctx, "run_eval.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, stale {len(stale)}, right {rewards(right)}")
    return (f"RUN/run_eval.sh (`DATA=$(ls data/tasks_v*.jsonl | tail -n 1)` chose tasks_v9.jsonl over tasks_v10.jsonl); "
            f"real NeMo Gym 0.7.0 (loopback-only namespace) exit {code}; {len(stale)} rollouts on the old labels, "
            f"{len(right)} right answers scored {rewards(right)}; mean reward {mean(rewards(got)):.2f}.")


# =====================================================================================================
# data_schema
# =====================================================================================================


def sentence_case_words(tasks: Path) -> None:
    path = tasks / "sort-unique-words" / "environment" / "words.txt"
    text = path.read_text()
    path.write_text(text[:1].upper() + text[1:])


@case(
    "data_schema_taskfolder_words_txt_reexported_by_editor_with_sentence_case_on_its_first_word",
    "data_schema",
    ["words.txt", "lowercase"],
    "sort-unique-words' environment/words.txt was re-saved from a document editor whose autocorrect capitalises the "
    "first word of a document; the first word is now 'Pear', which `sort -u` (the agent's command) puts before "
    "every lowercase word, and the output never matches the expected lowercase word list: every episode of that task scored 0 while the "
    "other task scored normally (every command exits 0)",
)
def data_schema_taskfolder_words_txt_reexported_by_editor_with_sentence_case_on_its_first_word(ctx: Ctx) -> str:
    tasks = user_taskset(ctx, ["sort-unique-words", "create-greeting"], sentence_case_words)
    first = text_of(tasks / "sort-unique-words" / "environment" / "words.txt").split("\n")[0]
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'",
                                                          "head -n 3 tasks/sort-unique-words/environment/words.txt"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    words = task_rows(ctx, "sort-unique-words")
    solved = [r for r in words if "sort -u" in json.dumps(r)]
    other = task_rows(ctx, "create-greeting")
    if code or len(words) != 2 or not solved or any(rewards(words)) or not any(rewards(other)) \
            or not first[:1].isupper():
        raise failed(ctx, f"exit {code}, words {rewards(words)}, other {rewards(other)}, first {first!r}")
    return (f"RUN/tasks/sort-unique-words/environment/words.txt (first word '{first}', the others "
            f"lowercase); RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile of RUN/tasks x 2) exit {code}; "
            f"sort-unique-words rewards {rewards(words)} ({len(solved)} episodes ran `sort -u`), create-greeting "
            f"rewards {rewards(other)}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

CASEFOLD_VERIFIER = '''"""my_verifier.py: the answer after 'Final answer:', compared with the label without regard to case."""
import re

FINAL = re.compile(r"Final answer:\\s*(.+)", re.IGNORECASE)


def score(row, response_text):
    found = FINAL.findall(response_text)
    answer = found[-1].strip().rstrip(".") if found else None
    label = str(row["expected_answer"]).strip()
    reward = 1.0 if answer is not None and answer.casefold() == label.casefold else 0.0
    return {"reward": reward, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
'''


@case(
    "verifier_runtime_stage_workspace_verifier_compares_answer_with_label_casefold_method_never_called",
    "verifier_runtime",
    ["my_verifier.py", "casefold()"],
    "the workspace verifier my_verifier.py compares `answer.casefold() == label.casefold`, the second casefold "
    "without its call parentheses: a string is compared with a bound method, which is never equal, so every answer, "
    "right or wrong, scored 0 without any error (every command exits 0)",
)
def verifier_runtime_stage_workspace_verifier_compares_answer_with_label_casefold_method_never_called(
        ctx: Ctx) -> str:
    run = ctx.run
    data = write_jsonl(run / "capitals.jsonl", [question_row(q, a) for q, a in MULTIWORD])
    better = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    sweep = workspace_sweep(ctx, "capitals", data, better, {"verifier": "my_verifier:score"}, CASEFOLD_VERIFIER,
                            num_repeats=3, concurrency=4)
    script = workspace_script(ctx, sweep, better, "capitals", url, ["echo '== weekly eval'"])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    said = [r for r in got if said_right(r)]
    if code or len(got) != 24 or not said or any(rewards(got)):
        raise failed(ctx, f"exit {code}, {len(got)}, said {len(said)}, {rewards(got)}")
    return (f"RUN/verifiers/my_verifier.py (`answer.casefold() == label.casefold`); RUN/run_eval.sh (stages "
            f"materialize 8 x 3, collect, profile) exit {code}; {len(said)} replies with the right answer, every reward "
            f"{sorted(set(rewards(got)))}.")


ALIAS_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        reward = 0.0
        if extracted is not None and body.expected_answer:
            answer = await _canonical(extracted)
            label = await _canonical(body.expected_answer)
            reward = _answers_match(answer, label, body.case_sensitive)

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )


import functools  # noqa: E402

ALIASES = {"nyc": "New York", "uk": "United Kingdom", "usa": "United States", "d.c.": "Washington"}


@functools.lru_cache(maxsize=4096)
async def _canonical(answer: str) -> str:
    """The team's canonical name of an answer (the aliases table; cached: the same answers come back every repeat)."""
    return ALIASES.get(" ".join(answer.split()).lower(), answer)
'''


@case(
    "verifier_runtime_gym_own_verify_caches_async_alias_lookup_with_lru_cache_so_repeats_reawait_spent_coroutine",
    "verifier_runtime",
    ["app.py", "lru_cache", "async"],
    "the user's resources server (Gym's string_match with an aliases table) caches its canonical-name lookup with "
    "`@functools.lru_cache` on an `async def`; lru_cache stores the coroutine object, not its result, so the second "
    "lookup of the same string awaits a coroutine already awaited ('cannot reuse already awaited coroutine'): verify "
    "answered 500 whenever an answer or a label came back (the label of every repeat, and the right answer itself), "
    "those rollouts failed and the strict profile failed on the missing rollouts",
    netns=True,
)
def verifier_runtime_gym_own_verify_caches_async_alias_lookup_with_lru_cache_so_repeats_reawait_spent_coroutine(
        ctx: Ctx) -> str:
    run = ctx.run
    better = truth_checkpoints(ctx, CAPITALS)[1]
    data = write_jsonl(run / "capitals.jsonl", [question_row(q, a) for q, a in CAPITALS])
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    ran, prof, env_start = gym_eval_with_own_server(ctx, "alias_match", ALIAS_VERIFY, data, url, overrides, repeats=3)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    failures = rows_of(run / "results" / "rollouts_failures.jsonl")
    if len(got) >= 24 or not failures or not in_log(ctx, "already awaited") \
            or (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"eval {ran}, profile {prof}, {len(got)} rows, {len(failures)} failures")
    return (f"RUN/my_gym/resources_servers/alias_match/app.py (`@functools.lru_cache` on `async def _canonical`); real "
            f"NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` 8 x 3 exit {ran}, `gym eval profile` "
            f"exit {prof}; {len(got)} of 24 rollouts, {len(failures)} failed attempts ('cannot reuse already awaited "
            f"coroutine').")


# =====================================================================================================
# cache_resume
# =====================================================================================================

FETCH_LINES = [
    "echo '== weekly eval'",
    "# fetch the tasks from the data team's server, only when they changed (saves the transfer of big sets)",
    "curl -sS -f -z string_match.jsonl -o string_match.jsonl -w 'fetch: HTTP %{http_code}\\n' DATA_URL",
    "echo \"$(wc -l < string_match.jsonl) tasks\"",
]
FETCH_NOTE = ("(the data team's dataset server, `python3 -m http.server` on its publish folder; this week's "
              "string_match.jsonl fixes three labels; it was edited two days ago and published this morning with "
              "`cp -p`, which keeps the edit time; the user's local copy was fetched yesterday)")


@case(
    "cache_resume_builtin_run_script_fetches_tasks_with_curl_time_condition_and_fix_older_than_local_copy_is_skipped",
    "cache_resume",
    ["curl", "-z", "string_match.jsonl"],
    "run_eval.sh fetches the tasks with `curl -z string_match.jsonl` (download only when the server's copy is newer "
    "than the local one); the data team's fixed file was edited two days ago and published this morning with its "
    "edit time kept, while the local copy was fetched yesterday: the server answered 304 Not Modified, curl kept "
    "last week's file, and the model's right answers to the three fixed tasks scored 0 against the old labels "
    "(every command exits 0)",
)
def cache_resume_builtin_run_script_fetches_tasks_with_curl_time_condition_and_fix_older_than_local_copy_is_skipped(
        ctx: Ctx) -> str:
    run = ctx.run
    better = truth_checkpoints(ctx, [(q, a) for q, a, _ in CAPITALS_WRONG])[1]
    publish = ctx.work / "publish"
    served = write_jsonl(publish / "string_match.jsonl", [question_row(q, a) for q, a, _ in CAPITALS_WRONG])
    now = time.time()
    os.utime(served, (now - 2 * 86400, now - 2 * 86400))
    local = write_jsonl(run / "string_match.jsonl", [question_row(q, wrong or a) for q, a, wrong in CAPITALS_WRONG])
    os.utime(local, (now - 86400, now - 86400))
    ctx.note(FETCH_NOTE)
    port = free_port()
    ctx.bg(f"python3 -m http.server {port} --bind 127.0.0.1 --directory {publish}", "logs/data_server.log")
    time.sleep(1.5)
    url, _ = ctx.policy(better, "--latency-ms 20")
    lines = [line.replace("DATA_URL", f"http://127.0.0.1:{port}/string_match.jsonl") for line in FETCH_LINES]
    script = builtin_script(ctx, lines, "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    stale, right = stale_right(got)
    if code or len(got) != 24 or not right or any(rewards(right)) or "HTTP 304" not in log_of(ctx, "run_eval.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, stale {len(stale)}, right {rewards(right)}: "
                          f"{log_of(ctx, 'run_eval.log')[-500:]}")
    return (f"RUN/run_eval.sh (`curl -z string_match.jsonl`: HTTP 304, the fix on the server is older than the local "
            f"copy; then materialize 8 x 3, collect, profile) exit {code}; {len(stale)} rollouts on the old labels, "
            f"{len(right)} right answers scored {rewards(right)}; mean reward {mean(rewards(got)):.2f}.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

WAIT_SBATCH = """#!/bin/bash
#SBATCH --job-name=sm-weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=1
#SBATCH --ntasks=1
cd RUN_DIR
echo "weekly eval on $(hostname), job $SLURM_JOB_ID, started $(date +%T)"
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
rm -rf shards && mkdir shards && split -n l/4 -d rollouts_materialized_inputs.jsonl shards/part_
# the 70B model answers in about 25 s: collect the four shards side by side
for shard in shards/part_0?; do
  GP_BIN collect --inputs $shard --output $shard.rollouts.jsonl --model-url URL --env string_match --concurrency 8 &
  wait
  echo "$(date +%T) $shard collected"
done
cat shards/part_0?.rollouts.jsonl > rollouts.jsonl
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "throughput_slurm_job_meant_to_collect_shards_side_by_side_waits_inside_the_loop_so_they_run_one_by_one",
    "throughput_resources",
    ["eval.sbatch", "wait", "shard"],
    "the one-minute eval.sbatch collects its four shards against a slow model (about 25 s per answer) and means to "
    "run them side by side, each collect started with `&`; but the `wait` sits inside the loop, so each shard waited "
    "for the one before it: four shards one after another need about 100 s, Slurm killed the job at its time limit "
    "(TIME LIMIT) with shards uncollected and no profile, though side by side they take about 25 s",
)
def throughput_slurm_job_meant_to_collect_shards_side_by_side_waits_inside_the_loop_so_they_run_one_by_one(
        ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 48)
    url, _ = ctx.policy(better, "--latency-ms 25000")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(WAIT_SBATCH, ctx, URL=url))
    code = submit(ctx, "eval.sbatch", timeout=600)
    job = job_logs(ctx, "eval_*.log")
    done = sum(len(rows_of(p)) for p in (run / "shards").glob("*.rollouts.jsonl"))
    if done >= 24 or (run / "rollouts_reward_profiling.jsonl").exists() or "collected" not in job \
            or "TIME LIMIT" not in job.upper():
        raise failed(ctx, f"exit {code}, {done}: {job[-800:]}")
    return (f"RUN/eval.sbatch (`--time=1`, 4 shards, `collect ... &` then `wait` inside the loop, a model at 25 s per "
            f"answer); RUN/submit.sh exit {code}; {job.count(' collected')} shards collected one after another, the job "
            f"hit its time limit, {done} of 24 rollouts, no profile.")


if __name__ == "__main__":
    sys.exit(main("forty_seventh_held_out", __file__, __doc__))
