"""Build the SIXTIETH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/sixtieth_held_out.py --out tests/data/diagnosis_corpus/sixtieth_held_out [--only CASE ...]

This set was written after the fifty-nine earlier sets (first_held_out.py ... fifty_ninth_held_out.py), from the guides
alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`,
`check-stale`), task folders in Harbor's format run in their Docker sandboxes, Docker containers the user's scripts
start, and the user's own shell and Python tooling, settings, serving scripts, data-preparation scripts, summary
scripts and verifiers. The output of every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing
in a run folder is written by hand but the user's own inputs (data, scripts, settings, verifier code). Each case
injects one cause, different in mechanism from those of the fifty-nine earlier sets, and each recipe checks that its
fault really happened (it raises RecipeError otherwise, and the case is not written). About half of the failures are
silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), and PYTHONPATH set to this checkout. Run it from a
foreground shell.
"""
from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import checkpoints, failed  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_second_held_out import run_script  # noqa: E402
from fifty_seventh_held_out import everything, task_rewards, week  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from recipes import BIN, GP, ROOT, Ctx, case, main, rows_of, text_of  # noqa: E402
from thirty_fifth_held_out import pipeline  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_sixth_held_out import free_port  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def mean_of(rows: list[dict]) -> float:
    got = rewards(rows)
    return sum(got) / len(got) if got else 0.0


def container_collect(ctx: Ctx, flags: str, inputs: str, output: str, url: str) -> str:
    """The user's `docker run ... collect` line: the eval's Python bind-mounted from the host, host networking."""
    run, pyenv, venv = ctx.run, Path(sys.base_prefix), ROOT / ".venv"
    mounts = " ".join(f"-v {p}:{p}:ro" for p in (pyenv, venv, venv.resolve(), ROOT)) + f" -v {run}:{run}"
    return (f"docker run {flags} --network host {mounts} -e PYTHONPATH={ROOT} -w {run} gym-pipeline/base:bookworm "
            f"\\\n  {BIN}/python -m gym_pipeline.cli collect --inputs {inputs} --output {output} --model-url {url} "
            "--env string_match --concurrency 4")


def docker_script(ctx: Ctx, url: str, flags: str, comment: str, preamble: list[str] | None = None) -> Path:
    """RUN/run_eval.sh: `preamble`, materialize, collect in a container (`flags`), profile."""
    run = ctx.run
    script = run / "run_eval.sh"
    script.write_text(
        f"#!/bin/bash\n# weekly eval; collect runs in a container (the node's Python is not the eval's)\ncd {run}\n"
        + "".join(line + "\n" for line in preamble or [])
        + f"{GP} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"# {comment}\n"
        + container_collect(ctx, flags, "rollouts_materialized_inputs.jsonl", "rollouts.jsonl", url) + "\n"
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    return script


def policy_on_port(ctx: Ctx, checkpoint: Path, port: int, log: str):
    """The simulated policy on a fixed port (the team's convention), started; its process."""
    ready = ctx.work / f"policy-ready-{len(ctx.background)}"
    process = ctx.bg(f"{GP} serve-policy --port {port} --ready-file {ready} --checkpoint {checkpoint} "
                     "--latency-ms 20", log)
    recipes.wait_for(lambda: ready.exists() and ready.read_text().strip() != "", 30, "the simulated policy")
    return process


def remove_container(name: str) -> None:
    subprocess.run(["docker", "rm", "-f", name], capture_output=True, check=False)


# =====================================================================================================
# healthy
# =====================================================================================================

SUMMARY_PY = '''"""summarize.py: the weekly eval's mean reward per difficulty bucket (the buckets of the team's buckets.json)."""
import json

import numpy as np

buckets = json.load(open("buckets.json"))
rows = [json.loads(line) for line in open("rollouts.jsonl")]
for name, (low, high) in buckets.items():
    got = np.array([r["reward"] for r in rows if low <= r["_ng_task_index"] < high], dtype=float)
    print(f"{name:10} rollouts {got.size:3d}  mean reward {got.mean():.3f}")
print(f"{'all':10} rollouts {len(rows):3d}  mean reward {np.mean([r['reward'] for r in rows]):.3f}")
'''


@case(
    "healthy_builtin_summary_script_averages_bucket_of_quarterly_set_empty_this_week_with_numpy_mean_of_empty_slice",
    "healthy",
    [],
    "nothing is wrong: after the profile, the user's summarize.py prints the mean reward per difficulty bucket from "
    "the team's buckets.json, which also lists the 'hard' bucket of the quarterly set (task indices 100-199); this "
    "week's 8-task split has no such task, so numpy warns 'RuntimeWarning: Mean of empty slice' and 'invalid value "
    "encountered' and the bucket's mean is nan, but materialize, collect and profile completed every rollout",
)
def healthy_builtin_summary_script_averages_bucket_of_quarterly_set_empty_this_week_with_numpy_mean_of_empty_slice(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 8, 60)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "buckets.json").write_text(json.dumps({"warm-up": [0, 4], "core": [4, 8], "hard": [100, 200]}) + "\n")
    (run / "summarize.py").write_text(SUMMARY_PY)
    script = run_script(ctx, url, ["echo '== weekly eval'"])
    script.write_text(script.read_text() + f"echo '== summary'\n{BIN}/python summarize.py\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 24 or "Mean of empty slice" not in log or " nan" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 8 x 3, collect, profile, then `python summarize.py` over RUN/buckets.json "
            f"with a bucket for task indices 100-199) exit {code}; {complete(ctx)} of 24 rollouts, mean reward "
            f"{mean_of(got):.2f}.")


@case(
    "healthy_builtin_run_script_counts_materialize_syscalls_with_strace_whose_summary_lists_thousands_of_failed_calls",
    "healthy",
    [],
    "nothing is wrong: the storage team asked how many file operations the eval's data step makes, so the user's "
    "run_eval.sh runs materialize under `strace -f -c` and prints the summary table; its 'errors' column counts "
    "hundreds of failed openat/stat/ioctl calls (ENOENT of Python's import search, ENOTTY of isatty probes), as any "
    "Python program has, and materialize, collect and profile completed every rollout",
)
def healthy_builtin_run_script_counts_materialize_syscalls_with_strace_whose_summary_lists_thousands_of_failed_calls(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 8, 36)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text(
        "#!/bin/bash\n# weekly eval; the materialize step is traced for the storage team's file-operations survey\n"
        f"cd {run}\n"
        f"strace -f -c -o strace_materialize.txt {GP} materialize --input string_match.jsonl --num-repeats 3 "
        "--agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl\n"
        "echo '== syscalls of materialize'\ncat strace_materialize.txt\n"
        f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {url} "
        "--env string_match --concurrency 4\n"
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 24 or "errors syscall" not in log or "openat" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (`strace -f -c` on materialize 8 x 3, the summary printed, then collect, profile) exit "
            f"{code}; {complete(ctx)} of 24 rollouts, mean reward {mean_of(got):.2f}.")


@case(
    "healthy_docker_run_script_removes_last_weeks_named_collect_container_that_is_already_gone",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh runs the collect in a container named weekly-collect-... and first "
    "removes a container of that name left by an earlier run (`docker rm NAME`); there is none this week, so the log "
    "opens with 'Error: No such container', but the new container (started with --rm) collected every rollout and "
    "the profile completed",
)
def healthy_docker_run_script_removes_last_weeks_named_collect_container_that_is_already_gone(ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 72)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"weekly-collect-{free_port()}"
    script = docker_script(ctx, url, f"--rm --name {name}", "collect in the eval container",
                           [f"docker rm {name}   # last week's container, if it is still around"])
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or "No such container" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (`docker rm {name}` of no container, materialize 6 x 3, `docker run --rm --name ... "
            f"collect`, profile) exit {code}; {complete(ctx)} of 18 rollouts, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

WEEKLY_SCRIPT = """#!/bin/bash
# run_weekly.sh WEEK: the weekly eval of RUN/WEEK/tasks.jsonl (the team's model server is always on port {port})
WEEK=$1
cd {run}
echo "== weekly eval $WEEK"
{gp} materialize --input $WEEK/tasks.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output $WEEK/rollouts_materialized_inputs.jsonl
# collect in the eval container; named so that it can be looked at afterwards
{collect} \\
  || docker start -a {name}   # the container is already there (a re-run): start it again
{gp} profile --inputs $WEEK/rollouts_materialized_inputs.jsonl --rollouts $WEEK/rollouts.jsonl
"""


@case(
    "cache_resume_docker_named_collect_container_restarted_with_docker_start_reruns_last_weeks_frozen_command",
    "cache_resume",
    ["docker rm", "--rm"],
    "the user's run_weekly.sh collects in a container with a fixed name (`docker run --name weekly-collect-...`, no "
    "--rm) and falls back to `docker start -a NAME` when that name is taken; last week's container was still there, "
    "so this week's `docker run` was refused ('Conflict. The container name ... is already in use') and `docker "
    "start` re-ran the container's frozen command line: last week's inputs collected again into last week's folder, "
    "while this week's folder got no rollout and its profile failed",
)
def cache_resume_docker_named_collect_container_restarted_with_docker_start_reruns_last_weeks_frozen_command(
        ctx: Ctx) -> str:
    run = ctx.run
    weeks = ("2024-06-03", "2024-06-10")
    first = ctx.dataset("string_match", 6, start=0, folder=run / weeks[0], name="tasks.jsonl")
    second = ctx.dataset("string_match", 6, start=30, folder=run / weeks[1], name="tasks.jsonl")
    both = ctx.work / "both.jsonl"
    both.write_text(first.read_text() + second.read_text())
    weaker, better = checkpoints(ctx, "string_match", both)
    port = free_port()
    name = f"weekly-collect-{port}"
    url = f"http://127.0.0.1:{port}/v1"
    script = run / "run_weekly.sh"
    script.write_text(WEEKLY_SCRIPT.format(
        port=port, run=run, gp=GP, name=name,
        collect=container_collect(ctx, f"--name {name}", "$WEEK/rollouts_materialized_inputs.jsonl",
                                  "$WEEK/rollouts.jsonl", url)))
    try:
        policy1 = policy_on_port(ctx, weaker, port, f"logs/model_server_{weeks[0]}.log")
        code1 = ctx.sh(f"bash {script} {weeks[0]}", f"logs/run_weekly_{weeks[0]}.log", timeout=300)
        ctx.stop(policy1)
        policy_on_port(ctx, better, port, f"logs/model_server_{weeks[1]}.log")
        code = ctx.sh(f"bash {script} {weeks[1]}", f"logs/run_weekly_{weeks[1]}.log", timeout=300)
        ctx.sh(f"docker ps -a --filter name={name} --format '{{{{.Names}}}} {{{{.Status}}}} {{{{.Command}}}}' "
               "--no-trunc", "logs/docker_ps.log")
    finally:
        remove_container(name)
    log = log_of(ctx, f"run_weekly_{weeks[1]}.log")
    old, new = rows_of(run / weeks[0] / "rollouts.jsonl"), rows_of(run / weeks[1] / "rollouts.jsonl")
    if code1 or len(old) != 18 or new or "already in use" not in log or "18 collected" not in log:
        raise failed(ctx, f"exit {code1}/{code}, {len(old)}, {len(new)}: {log[-1500:]}")
    return (f"RUN/run_weekly.sh {weeks[0]} (materialize 6 x 3, `docker run --name {name} ... collect`, profile) "
            f"exit {code1}; RUN/run_weekly.sh {weeks[1]} (`docker run --name` refused, `docker start -a {name}`) "
            f"exit {code}; {weeks[0]}: {len(old)} rollouts (collected again), {weeks[1]}: {len(new)} of 18.")


GUARD_LINES = [
    "# materialize only when the data or the settings changed (check-stale: the team's guard, moved from a python",
    "# one-liner to jq this month)",
    f"STALE=$({GP} check-stale --inputs rollouts_materialized_inputs.jsonl --source string_match.jsonl "
    "--num-repeats 3 --agent string_match_simple_agent --json | jq .stale)",
    "if [ ! -f rollouts_materialized_inputs.jsonl ] || [ \"$STALE\" == \"True\" ]; then",
    f"  {GP} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent "
    "--output rollouts_materialized_inputs.jsonl",
    "else",
    "  echo \"materialized inputs up to date (stale=$STALE)\"",
    "fi",
]


def guarded_script(ctx: Ctx, url: str) -> Path:
    script = ctx.run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval\n" f"cd {ctx.run}\n" + "".join(line + "\n" for line in GUARD_LINES)
                      + f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
                      f"--model-url {url} --env string_match --concurrency 4\n"
                      f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    return script


@case(
    "cache_resume_builtin_staleness_guard_compares_jq_boolean_with_python_true_so_relabelled_inputs_never_rebuilt",
    "cache_resume",
    ["stale", "true"],
    "the user's run_eval.sh rebuilds the materialized inputs only when `gym-pipeline check-stale --json` says they are "
    "stale, testing `[ \"$STALE\" == \"True\" ]` (the old python one-liner printed True); jq prints JSON's lowercase "
    "`true`, so after the labelling team fixed two wrong labels (Lima, Ohm) check-stale reported the inputs stale "
    "and the guard still kept last week's inputs: the right answers to those two tasks were scored against the old "
    "wrong labels (every command exits 0)",
)
def cache_resume_builtin_staleness_guard_compares_jq_boolean_with_python_true_so_relabelled_inputs_never_rebuilt(
        ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 10)
    fixed = data.read_text()
    rows = [json.loads(line) for line in fixed.splitlines()]
    wrong = {0: rows[0]["distractors"][0], 2: rows[2]["distractors"][0]}  # last week's export: two wrong labels
    for index, label in wrong.items():
        rows[index]["expected_answer"] = label
    data.write_text("".join(json.dumps(row) + "\n" for row in rows))
    url1, policy1 = ctx.policy(weaker, "--latency-ms 20", log="logs/model_server_week1.log")
    code1 = ctx.sh(f"bash {guarded_script(ctx, url1)}", "logs/run_eval_week1.log", timeout=300)
    ctx.stop(policy1)
    data.write_text(fixed)  # this week: the labelling team's corrected export
    ctx.note("(this week: the labelling team's corrected export replaces RUN/string_match.jsonl)")
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = ctx.sh(f"bash {guarded_script(ctx, url)}", "logs/run_eval.log", timeout=300)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    stale = [r for r in got if r["_ng_task_index"] in wrong and r.get("expected_answer") == wrong[r["_ng_task_index"]]]
    answered = [r for r in got if r["_ng_task_index"] == 0 and "Lima" in json.dumps(r.get("response"))]
    if code or code1 or len(got) != 24 or "stale=true" not in log or len(stale) != 6 or not answered \
            or any(rewards([r for r in got if r["_ng_task_index"] == 0])):
        raise failed(ctx, f"exit {code1}/{code}, {len(got)}, {len(stale)}, {len(answered)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh last week (check-stale guard, materialize 8 x 3 with two wrong labels, collect, profile "
            f"against step_0100) exit {code1}; labels fixed in RUN/string_match.jsonl; RUN/run_eval.sh this week "
            f"(check-stale says stale, guard `[ \"$STALE\" == \"True\" ]` keeps the inputs; collect, profile against "
            f"step_0200) exit {code}; {len(got)} rollouts, {len(stale)} scored against the old labels, "
            f"{len(answered)} rollouts of task 0 answered Lima with reward 0.")


# =====================================================================================================
# infra
# =====================================================================================================


@case(
    "infra_docker_collect_container_requests_gpus_all_from_gpu_eval_template_on_node_without_nvidia_runtime",
    "infra",
    ["--gpus"],
    "the user's run_eval.sh runs the collect in a container with the flags of the team's GPU eval template, `--gpus "
    "all --shm-size 8g`; this node has no GPU and no NVIDIA container runtime, so Docker refused to create the "
    "container ('could not select device driver \"\" with capabilities: [[gpu]]'): nothing was collected and the "
    "profile found no rollout",
)
def infra_docker_collect_container_requests_gpus_all_from_gpu_eval_template_on_node_without_nvidia_runtime(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 42)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = docker_script(ctx, url, "--rm --gpus all --shm-size 8g",
                           "container flags from the team's GPU eval template")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    log = log_of(ctx, "run_eval.log")
    if rows_of(run / "rollouts.jsonl") or "could not select device driver" not in log:
        raise failed(ctx, f"exit {code}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run --gpus all ... collect` on a CPU node, profile) exit "
            f"{code}; 0 of 18 rollouts.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

SORTED_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
if /tests/check_sorted.sh /app/sorted.txt; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""

CHECK_SORTED_SH = """#!/bin/sh
# check_sorted.sh FILE: exit 0 when FILE holds the expected words, sorted and unique (tested on the author's laptop)
got="$(cat "$1" 2>/dev/null)"
want="$(printf 'apple\\nbanana\\ncherry\\nfig\\npear')"
if [[ "$got" == "$want" ]]; then
  exit 0
fi
echo "check_sorted: $1 is not the expected list" >&2
exit 1
"""


def posix_sh_checker(tasks: Path) -> None:
    tests = tasks / "sort-unique-words" / "tests"
    (tests / "test.sh").write_text(SORTED_TEST_SH)
    (tests / "check_sorted.sh").write_text(CHECK_SORTED_SH)
    (tests / "check_sorted.sh").chmod(0o755)


@case(
    "verifier_runtime_taskfolder_checker_with_bin_sh_shebang_uses_bash_double_brackets_that_sandbox_dash_lacks",
    "verifier_runtime",
    ["#!/bin/bash", "[["],
    "the task author moved sort-unique-words' check into tests/check_sorted.sh, started `#!/bin/sh` but written with "
    "bash's `[[ ... == ... ]]`; on the author's laptop /bin/sh is bash, in the Debian sandbox it is dash, where "
    "`[[` is no command ('[[: not found'): the check failed for every episode and test.sh wrote reward 0, also for "
    "the episodes whose sorted.txt was right (every command exits 0)",
)
def verifier_runtime_taskfolder_checker_with_bin_sh_shebang_uses_bash_double_brackets_that_sandbox_dash_lacks(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["sort-unique-words", "create-greeting"], edit=posix_sh_checker)
    sort = task_rewards(ctx, "sort-unique-words")
    text = everything(ctx)
    if code or complete(ctx) != 4 or not sort or any(sort) or "[[: not found" not in text \
            or not any(task_rewards(ctx, "create-greeting")):
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {sort}: {log_of(ctx, 'run_tasks.log')[-800:]}")
    return (f"RUN/tasks/sort-unique-words/tests/check_sorted.sh (`#!/bin/sh`, `[[ ... ]]`) run by test.sh; "
            f"RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile of RUN/tasks x 2) exit {code}; "
            f"{complete(ctx)} of 4 episodes, sort-unique-words rewards {sort}, create-greeting rewards "
            f"{task_rewards(ctx, 'create-greeting')}.")


# =====================================================================================================
# data_schema
# =====================================================================================================

EXPORT = [("What is the capital of Australia?", "Canberra"), ("What is the capital of Canada?", "Ottawa"),
          ("Which planet is known as the Red Planet?", "Mars"), ("How many sides does a hexagon have?", "6"),
          ("What is the chemical symbol for gold?", "Au"), ("What is the capital of Japan?", "Tokyo"),
          ("What is the capital of the United States?", ["Washington, D.C.", "Washington"])]

PREP_ANSWERS_PY = '''"""prep.py: the labelling team's export (labels_v2.jsonl: id, question, answers) as string_match rows."""
import json

with open("labels_v2.jsonl") as export, open("tasks.jsonl", "w") as out:
    for line in export:
        item = json.loads(line)
        text = f"{item['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": item["answers"][0],  # the first accepted answer is the reference
            "extraction_mode": "final_answer", "case_sensitive": False}) + "\\n")
print("wrote tasks.jsonl")
'''


@case(
    "data_schema_builtin_prep_takes_first_accepted_answer_with_index_zero_but_v2_export_gives_single_answers_as_strings",
    "data_schema",
    ["answers", "[0]"],
    "the user's prep.py takes each task's reference as `item[\"answers\"][0]`, the first accepted answer; the "
    "labelling tool's v2 export writes a task with one accepted answer as a plain string instead of a one-element "
    "list, so [0] took its first character: Canberra became 'C', Mars 'M', and only the one-character answer 6 and "
    "the task with a list of answers kept a real label; the right answers scored 0 (every command exits 0)",
)
def data_schema_builtin_prep_takes_first_accepted_answer_with_index_zero_but_v2_export_gives_single_answers_as_strings(
        ctx: Ctx) -> str:
    run = ctx.run
    (run / "labels_v2.jsonl").write_text("".join(json.dumps({"id": i + 1, "question": q, "answers": a}) + "\n"
                                                 for i, (q, a) in enumerate(EXPORT)))
    (run / "prep.py").write_text(PREP_ANSWERS_PY)
    ctx.sh(f"cd {run} && {BIN}/python prep.py", "logs/prep.log")
    _, better = truth_checkpoints(ctx, [(q, a if isinstance(a, str) else a[0]) for q, a in EXPORT])
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run_script(ctx, url, ["echo '== weekly eval'"], data="tasks.jsonl")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    got = rows_of(run / "rollouts.jsonl")
    labels = [json.loads(line)["expected_answer"] for line in text_of(run / "tasks.jsonl").splitlines()]
    canberra = rewards([r for r in got if r["_ng_task_index"] == 0])
    kept = rewards([r for r in got if r["_ng_task_index"] in (3, 6)])
    truth = [a if isinstance(a, str) else a[0] for _, a in EXPORT]
    right = [r for r in got if str(r.get("extracted_answer", "")).strip().lower()
             == truth[r["_ng_task_index"]].lower() and len(truth[r["_ng_task_index"]]) > 1 and not r.get("reward")]
    if code or len(got) != 21 or labels[0] != "C" or any(canberra) or not any(kept) or not right:
        raise failed(ctx, f"exit {code}, {len(got)}, {labels}, {canberra}, {kept}: "
                          f"{log_of(ctx, 'run_eval.log')[-1200:]}")
    return (f"RUN/labels_v2.jsonl (single answers as strings); RUN/prep.py (`item[\"answers\"][0]`) wrote labels "
            f"{labels}; RUN/run_eval.sh (materialize 7 x 3, collect, profile) exit {code}; rewards {rewards(got)}; "
            f"{len(right)} rollouts answered the real answer (e.g. Canberra) and scored 0.")


# =====================================================================================================
# config
# =====================================================================================================


@case(
    "config_builtin_run_script_default_limit_from_wc_l_undercounts_export_whose_last_row_has_no_newline",
    "config",
    ["wc -l", "--limit"],
    "the user's run_eval.sh passes `--limit ${LIMIT:-$(wc -l < $DATA)}` to materialize (smoke runs set LIMIT=4); wc "
    "-l counts newlines, and the labelling tool's export has none after its last row, so the default limit was 7 "
    "for an 8-task file: the last task was never materialized, collected or profiled (every command exits 0)",
)
def config_builtin_run_script_default_limit_from_wc_l_undercounts_export_whose_last_row_has_no_newline(
        ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 48)
    data.write_text(data.read_text().rstrip("\n"))  # the export tool ends the file without a newline
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text(
        "#!/bin/bash\n# weekly eval (smoke test: LIMIT=4 bash run_eval.sh)\n"
        f"cd {run}\nDATA=string_match.jsonl\n"
        "echo \"== weekly eval of $DATA ($(wc -l < $DATA) tasks)\"\n"
        f"{GP} materialize --input $DATA --num-repeats 3 --agent string_match_simple_agent "
        "--limit ${LIMIT:-$(wc -l < $DATA)} --output rollouts_materialized_inputs.jsonl\n"
        f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {url} "
        "--env string_match --concurrency 4\n"
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    got = rows_of(run / "rollouts.jsonl")
    tasks = {r["_ng_task_index"] for r in got}
    if code or len(got) != 21 or len(tasks) != 7 or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)}, {sorted(tasks)}: {log_of(ctx, 'run_eval.log')[-1200:]}")
    return (f"RUN/string_match.jsonl (8 rows, no newline after the last); RUN/run_eval.sh (materialize --limit "
            f"$(wc -l < DATA) = 7, collect, profile) exit {code}; {len(got)} rollouts of {len(tasks)} of 8 tasks.")


# =====================================================================================================
# model_serving
# =====================================================================================================

FIND_SERVER_SCRIPT = """#!/bin/bash
# run_eval.sh: start the model server for this week's checkpoint, find its port, run the weekly eval
cd {run}
CKPTS={ckpts}
{gp} serve-policy --checkpoint $CKPTS/step_0200 --port 0 --latency-ms 20 > logs/model_server.log 2>&1 &
SERVER_PID=$!
sleep 5
# the server picks a free port: find it from the server's process
PID=$(pgrep -f "serve-policy --checkpoint $CKPTS" | head -1)
PORT=$(ss -ltnp | grep "pid=$PID," | awk '{{print $4}}' | sed 's/.*://' | head -1)
URL=http://127.0.0.1:$PORT/v1
echo "model server (pid $PID) at $URL"
{pipeline}kill $SERVER_PID   # stop the model server
"""


@case(
    "model_serving_builtin_run_script_finds_server_port_with_pgrep_head_which_picks_last_weeks_older_server",
    "model_serving",
    ["pgrep", "SERVER_PID"],
    "the user's run_eval.sh starts this week's server (step_0200) and finds its port through `pgrep -f "
    "\"serve-policy --checkpoint $CKPTS\" | head -1`; last week's server on step_0100, started the same way, was "
    "still running in a forgotten terminal, and pgrep lists the oldest process first, so the whole eval was sent to "
    "last week's checkpoint: the rewards are step_0100's (every command exits 0)",
)
def model_serving_builtin_run_script_finds_server_port_with_pgrep_head_which_picks_last_weeks_older_server(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (weaker, better) = builtin_rows(ctx, 8, 20)
    ckpts = weaker.parent
    (run / "logs").mkdir(exist_ok=True)
    ctx.note("(last week's model server, started from a terminal that was never closed)")
    ctx.bg(f"exec {GP} serve-policy --checkpoint {ckpts}/step_0100 --port 0 --latency-ms 20 "
           f"> {run}/logs/model_server_last_week.log 2>&1", None)
    recipes.wait_for(lambda: "SIMULATED_POLICY_READY" in log_of(ctx, "model_server_last_week.log"), 30,
                     "last week's server")
    old = log_of(ctx, "model_server_last_week.log").split("SIMULATED_POLICY_READY", 1)[1].split()[0]
    script = run / "run_eval.sh"
    script.write_text(FIND_SERVER_SCRIPT.format(run=run, ckpts=ckpts, gp=GP, pipeline=pipeline("$URL")))
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    # what step_0200 would have scored on the same inputs
    new_url, _ = ctx.policy(better, "--latency-ms 20", log=str(ctx.work / "check_server.log"))
    check = ctx.work / "check"
    check.mkdir()
    ctx.sh(shlex.join(recipes.collect_argv(run, new_url, "string_match", 4)).replace(
        f"{run}/rollouts.jsonl", f"{check}/rollouts.jsonl"), None)
    ctx.commands.pop()
    ctx.commands.pop()
    fresh = rows_of(check / "rollouts.jsonl")
    if code or len(got) != 24 or f"at {old}" not in log or not mean_of(fresh) > mean_of(got):
        raise failed(ctx, f"exit {code}, {len(got)}, {old}, {mean_of(got)} vs {mean_of(fresh)}: {log[-1200:]}")
    return (f"last week's `serve-policy --checkpoint CKPTS/step_0100` still running at {old}; RUN/run_eval.sh "
            f"(serve-policy step_0200 &, `pgrep -f ... | head -1` finds the old server, materialize 8 x 3, collect, "
            f"profile) exit {code}; mean reward {mean_of(got):.2f} (step_0200 scores {mean_of(fresh):.2f} on the "
            f"same inputs).")


if __name__ == "__main__":
    sys.exit(main("sixtieth_held_out", __file__, __doc__))
