"""Build the FIFTY-SEVENTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/fifty_seventh_held_out.py --out tests/data/diagnosis_corpus/fifty_seventh_held_out [--only CASE ...]

This set was written after the fifty-six earlier sets (first_held_out.py ... fifty_sixth_held_out.py), from the guides
alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`,
`reverify`), the real NeMo Gym 0.7.0 in a loopback-only network namespace (with a user's own resources server),
Docker containers the user's scripts start, and the user's own shell and Python tooling, settings, serving scripts,
watchers, data-preparation scripts and verifiers. The output of every command is captured as a user would
(`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data, scripts,
settings, verifier code). Each case injects one cause, different in mechanism from those
of the fifty-six earlier sets, and each recipe checks that its fault really happened (it raises RecipeError
otherwise, and the case is not written). About half of the failures are silent: every command exits 0 and only the
result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), NeMo Gym 0.7.0 (GYM_PIPELINE_NEMO_GYM), and PYTHONPATH set
to this checkout. Run it from a foreground shell.
"""
from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import failed, served, stage_argv, task_checkpoints, user_taskset, workspace_sweep  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_first_held_out import gym_week, keys_of  # noqa: E402
from fortieth_held_out import complete  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from recipes import BIN, ROOT, Ctx, case, main, rows_of, text_of  # noqa: E402
from thirtieth_held_out import gateway_url  # noqa: E402
from twenty_sixth_held_out import free_port  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def everything(ctx: Ctx) -> str:
    return "".join(text_of(p) for p in ctx.run.rglob("*") if p.is_file()
                    and p.suffix in (".log", ".jsonl", ".json", ".txt", ".out"))


def task_rewards(ctx: Ctx, task: str) -> list[float]:
    return rewards([r for r in rows_of(ctx.run / "rollouts.jsonl") if task in json.dumps(r)])


def tasks_script(ctx: Ctx, tasks: Path, checkpoint: Path, url: str, preamble: list[str], repeats: int = 2,
                 concurrency: int = 2, environment: dict | None = None) -> Path:
    """RUN/sweep.yaml (environment terminal_tasks: the taskset `tasks`, with `environment`'s settings) and
    RUN/run_tasks.sh: `preamble`, then `gym-pipeline stage` materialize, collect, profile."""
    sweep = workspace_sweep(ctx, "terminal_tasks", tasks, checkpoint, environment=environment,
                            num_repeats=repeats, concurrency=concurrency)
    sweep.write_text(sweep.read_text().replace('"dataset"', '"tasks"'))
    lines = ["#!/bin/bash", f"cd {ctx.run}", *preamble]
    for key, extra in (("materialize", ()), ("collect", served(url)), ("profile", ())):
        lines += [f"echo '== {key}'", shlex.join(stage_argv(sweep, key, checkpoint, "terminal_tasks", *extra))]
    script = ctx.run / "run_tasks.sh"
    script.write_text("\n".join(lines) + "\n")
    return script


def week(ctx: Ctx, names: list[str], edit=None, preamble: list[str] | None = None, flags: str = "--latency-ms 30",
         url: str | None = None, **kwargs) -> tuple[int, list[dict]]:
    """The user's taskset RUN/tasks (bundled `names`, `edit` applied), a simulated policy knowing it (unless `url`
    is given), RUN/run_tasks.sh run; (exit code, rollouts)."""
    tasks = user_taskset(ctx, names, edit=edit)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    if url is None:
        url, _ = ctx.policy(checkpoint, flags)
    script = tasks_script(ctx, tasks, checkpoint, url, preamble or ["echo '== weekly taskset run'"], **kwargs)
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    return code, rows_of(ctx.run / "rollouts.jsonl")


def remove_task_images(task: str) -> None:
    """Cached sandbox images of task `task` (so a recipe starts from the engine's state it describes)."""
    out = subprocess.run(["docker", "images", "-q", f"gym-pipeline-task/{task}"], capture_output=True, text=True)
    for image in sorted(set(out.stdout.split())):
        subprocess.run(["docker", "rmi", "-f", image], capture_output=True)


# =====================================================================================================
# healthy
# =====================================================================================================


def trace_checks(tasks: Path) -> None:
    for test in tasks.glob("*/tests/test.sh"):
        text = test.read_text()
        test.write_text(text.replace("cd /app\n", "set -x  # trace every check (left in from last month's flaky-"
                                     "verifier hunt)\ncd /app\n", 1))


@case(
    "healthy_taskfolder_test_sh_traces_every_check_with_set_x_into_test_stdout",
    "healthy",
    [],
    "nothing is wrong: the task author left `set -x` in every tests/test.sh from last month's hunt for a flaky "
    "verifier, so each episode's test-stdout.txt is full of '+ cd /app', '+ test ...' and '+ echo 1' trace lines; "
    "the traces change no reward, and every episode ran in its sandbox, was verified and profiled",
)
def healthy_taskfolder_test_sh_traces_every_check_with_set_x_into_test_stdout(ctx: Ctx) -> str:
    run = ctx.run
    code, got = week(ctx, ["top-word", "create-greeting"], edit=trace_checks)
    if code or complete(ctx) != 4 or not any(rewards(got)) or "+ echo 1" not in everything(ctx) \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {rewards(got)}: {log_of(ctx, 'run_tasks.log')[-800:]}")
    return (f"RUN/tasks/*/tests/test.sh (`set -x`); RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, "
            f"profile of RUN/tasks x 2) exit {code}; {complete(ctx)} of 4 episodes, rewards {rewards(got)}.")


REPO_DIGEST_LINES = [
    "# provenance for the weekly report: the registry digest of the sandboxes' base image",
    "echo \"base image: $(docker image inspect --format '{{index .RepoDigests 0}}' gym-pipeline/base:bookworm)\"",
    "echo '== weekly taskset run'",
]


@case(
    "healthy_taskfolder_run_script_records_registry_digest_of_locally_imported_base_image",
    "healthy",
    [],
    "nothing is wrong: the user's run_tasks.sh records the registry digest of the sandboxes' base image with `docker "
    "image inspect --format '{{index .RepoDigests 0}}'`; the base image was imported locally and never pushed or "
    "pulled, so it has no RepoDigests and the log carries 'error calling index: index out of range: 0'; the stages "
    "then ran every episode in its sandbox, verified and profiled them",
)
def healthy_taskfolder_run_script_records_registry_digest_of_locally_imported_base_image(ctx: Ctx) -> str:
    run = ctx.run
    code, got = week(ctx, ["sort-unique-words", "create-greeting"], preamble=REPO_DIGEST_LINES)
    log = log_of(ctx, "run_tasks.log")
    if code or complete(ctx) != 4 or not any(rewards(got)) or "index out of range" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {rewards(got)}: {log[-800:]}")
    return (f"RUN/run_tasks.sh (`docker image inspect --format '{{{{index .RepoDigests 0}}}}'` of the base image, "
            f"then `gym-pipeline stage` materialize, collect, profile of RUN/tasks x 2) exit {code}; {complete(ctx)} "
            f"of 4 episodes, rewards {rewards(got)}.")


LOCAL_VLLM_LINES = [
    "# the team's vLLM usually runs on this node's port 8000; this week the model is served elsewhere",
    "curl -sS -m 2 http://127.0.0.1:8000/v1/models || echo 'note: no local vLLM on :8000, using the endpoint that "
    "gym env start was given'",
    "echo '== weekly eval'",
]


@case(
    "healthy_gym_run_script_probes_usual_local_vllm_port_before_using_started_endpoint",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh first probes the team's usual local vLLM port (`curl "
    "http://127.0.0.1:8000/v1/models`), which nothing serves this week, so the log opens with 'curl: (7) Failed to "
    "connect ... Connection refused'; the model is served elsewhere and the real NeMo Gym eval and its profile "
    "completed every rollout against the endpoint `gym env start` was given",
    netns=True,
)
def healthy_gym_run_script_probes_usual_local_vllm_port_before_using_started_endpoint(ctx: Ctx) -> str:
    run = ctx.run
    code, got = gym_week(ctx, 60, lines=LOCAL_VLLM_LINES)
    log = log_of(ctx, "run_eval.log")
    if code or len(keys_of(got)) != 24 or "no local vLLM" not in log \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)}: {log[-800:]}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): `gym env start`, RUN/run_eval.sh (`curl` of :8000 "
            f"refused, `gym eval run --no-serve` 8 x 3, `gym eval profile`) exit {code}; {len(keys_of(got))} "
            f"rollouts, mean reward {sum(rewards(got)) / len(got):.2f}.")


# =====================================================================================================
# data_schema
# =====================================================================================================

MAKE_TASKS_PY = '''"""make_tasks.py: one "create-greeting" task per language, from the template (the task author's generator)."""
import pathlib
import sys

GREETINGS = {"fr": "Bonjour, Gym!", "de": "Hallo, Gym!"}
ALLOW_INTERNET = False  # sandboxes get no network

TASK_TOML = """version = "1.0"

[metadata]
difficulty = "easy"
category = "file-operations"
tags = ["generated", "{lang}"]

[verifier]
timeout_sec = 30.0

[agent]
timeout_sec = 120.0

[environment]
build_timeout_sec = 120.0
cpus = 1
memory_mb = 256
allow_internet = {allow_internet}
"""

TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
if test "$(cat /app/hello.txt 2>/dev/null)" = "{greeting}"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""

out = pathlib.Path(sys.argv[1])
for lang, greeting in GREETINGS.items():
    task = out / f"create-greeting-{lang}"
    for sub in ("environment", "tests", "solution"):
        (task / sub).mkdir(parents=True, exist_ok=True)
    (task / "task.toml").write_text(TASK_TOML.format(lang=lang, allow_internet=ALLOW_INTERNET))
    (task / "instruction.md").write_text(f"Create the file /app/hello.txt holding the single line `{greeting}`.\\n")
    (task / "environment" / "Dockerfile").write_text("FROM gym-pipeline/base:bookworm\\nWORKDIR /app\\n")
    (task / "tests" / "test.sh").write_text(TEST_SH.format(greeting=greeting))
    (task / "solution" / "solve.sh").write_text(f"#!/bin/bash\\necho '{greeting}' > /app/hello.txt\\n")
    print(f"wrote {task}")
'''


@case(
    "data_schema_taskfolder_generator_formats_python_false_into_task_toml_boolean",
    "data_schema",
    ["allow_internet"],
    "the task author's make_tasks.py writes one task folder per language from a template with str.format, filling "
    "`allow_internet = {allow_internet}` with the Python value False; TOML's booleans are lower case, so both "
    "generated task.toml files read `allow_internet = False`, which is not a TOML value: the loader refused "
    "create-greeting-fr and create-greeting-de and the stage's materialize stopped (the hand-written top-word was "
    "fine)",
)
def data_schema_taskfolder_generator_formats_python_false_into_task_toml_boolean(ctx: Ctx) -> str:
    run = ctx.run
    (run / "make_tasks.py").write_text(MAKE_TASKS_PY)
    tasks = user_taskset(ctx, ["top-word"])
    ctx.sh(f"cd {run} && python3 make_tasks.py tasks", "logs/make_tasks.log")
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = tasks_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    log = log_of(ctx, "run_tasks.log")
    generated = (tasks / "create-greeting-fr" / "task.toml").read_text()
    if "allow_internet = False" not in generated or "create-greeting-fr" not in everything(ctx) \
            or "could not load" not in log or complete(ctx):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/make_tasks.py (str.format of `allow_internet = {{allow_internet}}` with False) wrote "
            f"RUN/tasks/create-greeting-fr and -de; RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, "
            f"profile of RUN/tasks x 2) exit {code}; {complete(ctx)} episodes.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

CHECK_TOP_PY = '''#!/usr/bin/env python3
"""check_top.py: exit 0 when /app/top.txt holds the most frequent word of /app/text.txt (in lower case)."""
import collections
import sys

words = open("/app/text.txt").read().lower().split()
expected = collections.Counter(words).most_common(1)[0][0]
try:
    got = open("/app/top.txt").read().strip()
except FileNotFoundError:
    got = ""
print(f"expected {expected!r}, got {got!r}")
sys.exit(0 if got == expected else 1)
'''

CHECK_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# The check itself is tests/check_top.py, run as a program (it has its shebang and is executable).
if /tests/check_top.py; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


@case(
    "verifier_runtime_taskfolder_checker_unpacked_with_python_zipfile_loses_its_executable_bit",
    "verifier_runtime",
    ["check_top.py"],
    "the data team ships the taskset as tasks.zip, whose top-word test.sh runs its checker as a program "
    "(`if /tests/check_top.py; then ... reward 1`); the user unpacked it with `python3 -m zipfile -e`, which does not "
    "restore file modes, so check_top.py arrived without its executable bit; in the sandbox every check failed with "
    "'Permission denied' and test.sh wrote reward 0, also for the episodes that wrote the right word (every "
    "command exits 0)",
)
def verifier_runtime_taskfolder_checker_unpacked_with_python_zipfile_loses_its_executable_bit(ctx: Ctx) -> str:
    run = ctx.run
    source = ctx.work / "datateam" / "tasks"
    shutil.copytree(recipes.ROOT / "gym_pipeline" / "examples" / "tasks" / "top-word", source / "top-word")
    shutil.copytree(recipes.ROOT / "gym_pipeline" / "examples" / "tasks" / "create-greeting",
                    source / "create-greeting")
    shutil.copy(recipes.ROOT / "gym_pipeline" / "examples" / "tasks" / "dataset.toml", source / "dataset.toml")
    (source / "top-word" / "tests" / "test.sh").write_text(CHECK_TEST_SH)
    checker = source / "top-word" / "tests" / "check_top.py"
    checker.write_text(CHECK_TOP_PY)
    checker.chmod(0o755)
    with zipfile.ZipFile(run / "tasks.zip", "w") as archive:  # the data team's release (modes kept in the zip)
        for path in sorted(source.rglob("*")):
            archive.write(path, path.relative_to(source.parent))
    ctx.sh(f"cd {run} && python3 -m zipfile -e tasks.zip . && ls -l tasks/top-word/tests", "logs/unpack.log")
    tasks = run / "tasks"
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = tasks_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    top = task_rewards(ctx, "top-word")
    if code or complete(ctx) != 4 or any(top) or not top or "Permission denied" not in everything(ctx) \
            or not any(task_rewards(ctx, "create-greeting")):
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {top}: {log_of(ctx, 'run_tasks.log')[-800:]}")
    return (f"RUN/tasks.zip (check_top.py mode 755 in the archive) unpacked with `python3 -m zipfile -e` "
            f"(logs/unpack.log: -rw-r--r--); RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile of "
            f"RUN/tasks x 2) exit {code}; {complete(ctx)} of 4 episodes, top-word rewards {top}.")


# =====================================================================================================
# config
# =====================================================================================================


@case(
    "config_taskfolder_sweep_tasks_path_left_on_single_task_folder_from_debugging_session",
    "config",
    ["tasks"],
    "the user debugged top-word last week with the sweep's environment pointed at that one task folder (`tasks: "
    "RUN/tasks/top-word`; a folder holding task.toml is a taskset of one task) and never set it back to the taskset "
    "RUN/tasks; the weekly run materialized, collected and profiled top-word alone, and the other three tasks of the "
    "taskset were never evaluated (every command exits 0)",
)
def config_taskfolder_sweep_tasks_path_left_on_single_task_folder_from_debugging_session(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["top-word", "create-greeting", "sort-unique-words", "replace-spelling"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = tasks_script(ctx, tasks / "top-word", checkpoint, url, ["echo '== weekly taskset run (4 tasks)'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 2 or any("create-greeting" in json.dumps(r) for r in got) \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {rewards(got)}: {log_of(ctx, 'run_tasks.log')[-800:]}")
    return (f"RUN/tasks (4 tasks); RUN/sweep.yaml (`tasks`: RUN/tasks/top-word); RUN/run_tasks.sh (`gym-pipeline "
            f"stage` materialize, collect, profile x 2) exit {code}; {complete(ctx)} episodes, rewards "
            f"{rewards(got)}.")


# =====================================================================================================
# infra
# =====================================================================================================


def serve_in_container(ctx: Ctx, checkpoint: Path, port: int, name: str) -> str:
    """RUN/serve.sh: the team's serving launcher, started; the URL it reports."""
    ready = ctx.work / "ready"
    ready.mkdir()
    pyenv = Path(sys.base_prefix)
    script = ctx.run / "serve.sh"
    script.write_text(
        "#!/bin/bash\n"
        "# serve.sh: the team's model server in a container (flags from the sandbox launcher template:\n"
        "# no network for anything we run in a container)\n"
        f"docker run -d --rm --name {name} --network none \\\n"
        f"  -v {pyenv}:{pyenv}:ro -v {ROOT / '.venv'}:{ROOT / '.venv'}:ro -v {(ROOT / '.venv').resolve()}:"
        f"{(ROOT / '.venv').resolve()}:ro \\\n"
        f"  -v {ROOT}:{ROOT}:ro -v {checkpoint.parent}:{checkpoint.parent}:ro -v {ready}:/ready \\\n"
        f"  -e PYTHONPATH={ROOT} gym-pipeline/base:bookworm \\\n"
        f"  {BIN}/python -m gym_pipeline.cli serve-policy --host 127.0.0.1 --port {port} "
        f"--ready-file /ready/url --checkpoint {checkpoint} --latency-ms 30\n"
        "for i in $(seq 60); do [ -s " + f"{ready}/url" + " ] && break; sleep 1; done\n"
        f"echo \"model server ready at $(cat {ready}/url)\"\n")
    ctx.sh(f"bash {script}", "logs/serve.log", timeout=120)
    return text_of(ready / "url").strip()


@case(
    "infra_taskfolder_serve_script_runs_model_server_container_with_network_none_from_sandbox_template",
    "infra",
    ["network"],
    "the team's serve.sh starts the model server in a container with `--network none`, copied from the sandbox "
    "launcher's template ('no network for anything we run in a container'); the server started and reported "
    "http://127.0.0.1:PORT/v1, but that loopback is the container's own: on the host nothing listens on the port, "
    "so every agent request of the task run was refused and no episode gave a result",
)
def infra_taskfolder_serve_script_runs_model_server_container_with_network_none_from_sandbox_template(
        ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["top-word", "create-greeting"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    name = f"team-policy-{run.parent.name[-12:]}-{free_port()}"
    try:
        url = serve_in_container(ctx, checkpoint, free_port(), name)
        if not url:
            raise failed(ctx, f"the server never reported its URL: {log_of(ctx, 'serve.log')[-800:]}")
        script = tasks_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
        code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    finally:
        ctx.sh(f"docker logs {name} 2>&1 | tail -n 5; docker rm -f {name}", "logs/serve_stop.log")
    text = everything(ctx)
    if complete(ctx) or ("refused" not in text.lower() and "Connection" not in text):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log_of(ctx, 'run_tasks.log')[-800:]}")
    return (f"RUN/serve.sh (`docker run --network none ... serve-policy --host 127.0.0.1`), ready at {url}; "
            f"RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile of RUN/tasks x 2) exit {code}; "
            f"{complete(ctx)} of 4 episodes.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

REFERENCE_PY = '''"""reference.py: the reference answer of top-word, recounted from the task's text (the slow, obviously right way)."""
import sys

text = open("/app/text.txt").read().lower()
best, best_count = None, -1
for word in sorted(set(text.split())):
    count = 0
    for _ in range(ROUNDS):  # recount: the reference must not trust one pass over a cached split
        count += sum(1 for w in text.split() if w == word)
    if count > best_count:
        best, best_count = word, count
print(best)
'''

REFERENCE_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# The expected word is recomputed from /app/text.txt by tests/reference.py.
cd /app
expected=$(python3 /tests/reference.py)
if test "$(tr -d "[:space:]" < /app/top.txt 2>/dev/null)" = "$expected"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL (expected '$expected')"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def reference_verifier(rounds: int):
    def edit(tasks: Path) -> None:
        top = tasks / "top-word"
        (top / "tests" / "test.sh").write_text(REFERENCE_TEST_SH)
        (top / "tests" / "reference.py").write_text(REFERENCE_PY.replace("ROUNDS", str(rounds)))
        toml = top / "task.toml"
        toml.write_text(toml.read_text().replace("[verifier]\ntimeout_sec = 30.0", "[verifier]\ntimeout_sec = 6.0"))
    return edit


ROUNDS = 400_000


@case(
    "throughput_taskfolder_sweep_sandbox_concurrency_from_large_node_starves_cpu_bound_verifiers",
    "throughput_resources",
    ["sandbox_concurrency"],
    "the user's sweep.yaml sets `sandbox_concurrency: 12`, copied from the sweep of the team's 64-core node; on this "
    "2-core node twelve sandboxes ran at once, and top-word's verifier (test.sh recounts the text with "
    "tests/reference.py, two to three seconds of CPU alone) shared the two cores with eleven others, so it ran past its "
    "[verifier].timeout_sec of 6 s: harbor:verifier_timeout and reward 0 on episodes that had written the right "
    "word (one sandbox per core, the default, fits)",
)
def throughput_taskfolder_sweep_sandbox_concurrency_from_large_node_starves_cpu_bound_verifiers(ctx: Ctx) -> str:
    code, got = week(ctx, ["top-word", "create-greeting"], edit=reference_verifier(ROUNDS), repeats=6,
                     concurrency=12, environment={"sandbox_concurrency": 12})
    kinds = [r.get("failure_kind") for r in got if "top-word" in json.dumps(r)]
    if "harbor:verifier_timeout" not in kinds:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {rewards(got)}, {kinds}: "
                          f"{log_of(ctx, 'run_tasks.log')[-800:]}")
    return (f"RUN/sweep.yaml (`sandbox_concurrency: 12`, 2 cores here); RUN/tasks/top-word/tests/test.sh "
            f"(reference.py recount, [verifier].timeout_sec = 6); RUN/run_tasks.sh (`gym-pipeline stage` "
            f"materialize, collect, profile of RUN/tasks x 6) exit {code}; {complete(ctx)} of 12 episodes, top-word "
            f"failure kinds {kinds}.")


# =====================================================================================================
# model_serving
# =====================================================================================================

BODY_LIMIT_HOOK = '''
MAX_BODY = 512  # bytes: the help-desk chat UI sends one short question per request; anything bigger is abuse


def completion(handler, body):
    if len(body) > MAX_BODY:
        print(f"gateway: refused a {len(body)}-byte request (MAX_BODY={MAX_BODY})", flush=True)
        return 413, json.dumps({"error": {"message": f"request body of {len(body)} bytes exceeds MAX_BODY="
                                                     f"{MAX_BODY}", "type": "request_too_large"}}).encode()
    return handler._upstream(body)
'''


@case(
    "model_serving_taskfolder_gateway_body_size_cap_from_chat_ui_refuses_growing_agent_conversations",
    "model_serving",
    ["MAX_BODY"],
    "the team's gateway.py in front of the model server caps requests at MAX_BODY = 512 bytes (set for the help-desk "
    "chat UI, which sends one short question per request); the terminal agent sends the whole conversation every turn, so its "
    "first request passed and the next ones, carrying the commands' output, were refused with 413: the episodes "
    "failed at the agent stage and were retried to no avail",
)
def model_serving_taskfolder_gateway_body_size_cap_from_chat_ui_refuses_growing_agent_conversations(ctx: Ctx) -> str:
    tasks = user_taskset(ctx, ["top-word", "csv-column-total"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    gateway = gateway_url(ctx, url, "Requests bigger than MAX_BODY are refused.", BODY_LIMIT_HOOK)
    script = tasks_script(ctx, tasks, checkpoint, gateway, ["echo '== weekly taskset run (through the gateway)'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    if complete(ctx) >= 4 or "refused a" not in log_of(ctx, "gateway.log"):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log_of(ctx, 'gateway.log')[-800:]}"
                          f"{log_of(ctx, 'run_tasks.log')[-800:]}")
    return (f"RUN/gateway.py (MAX_BODY = 512) in front of the simulated policy; RUN/run_tasks.sh (`gym-pipeline "
            f"stage` materialize, collect through the gateway, profile of RUN/tasks x 2) exit {code}; "
            f"{complete(ctx)} of 4 episodes.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

BASE_DOCKERFILE = """# the data team's base image for word tasks: the word list every word task reads
FROM gym-pipeline/base:bookworm
COPY words.txt /app/words.txt
"""

ARG_DOCKERFILE = """ARG BASE=datateam/words-base:latest
FROM ${BASE}
WORKDIR /app
"""

OLD_WORDS = "pear\nappel\nbanana\napple\nfig\ncherry\nbanana\n"
FIXED_WORDS = "pear\napple\nbanana\napple\nfig\ncherry\nbanana\n"


def words_from_base(tasks: Path) -> None:
    env = tasks / "sort-unique-words" / "environment"
    (env / "words.txt").unlink()
    (env / "Dockerfile").write_text(ARG_DOCKERFILE)


@case(
    "cache_resume_taskfolder_dockerfile_from_build_arg_hides_rebuilt_base_so_cached_task_image_keeps_old_words",
    "cache_resume",
    ["FROM"],
    "sort-unique-words' Dockerfile starts `ARG BASE=datateam/words-base:latest` / `FROM ${BASE}`, the word list "
    "coming from the data team's base image; the team rebuilt that base with the typo 'appel' fixed and the task "
    "author updated test.sh to expect the fixed list, but the task's environment/ did not change, and a FROM through a "
    "build argument cannot be compared with the rebuilt base, so this week's run reused last week's cached task "
    "image with the old words: the agent sorted them correctly and every sort-unique-words episode scored 0 "
    "(every command exits 0)",
)
def cache_resume_taskfolder_dockerfile_from_build_arg_hides_rebuilt_base_so_cached_task_image_keeps_old_words(
        ctx: Ctx) -> str:
    run = ctx.run
    base = run / "datateam_base"
    base.mkdir()
    (base / "Dockerfile").write_text(BASE_DOCKERFILE)
    (base / "words.txt").write_text(OLD_WORDS)
    remove_task_images("sort-unique-words")
    try:
        ctx.sh(f"docker build --network none -t datateam/words-base:latest {base}", "logs/base_build_week1.log")
        tasks = user_taskset(ctx, ["sort-unique-words", "create-greeting"], edit=words_from_base)
        test = tasks / "sort-unique-words" / "tests" / "test.sh"
        test.write_text(test.read_text().replace('printf "apple\\nbanana\\ncherry\\nfig\\npear"',
                                                 'printf "appel\\napple\\nbanana\\ncherry\\nfig\\npear"'))
        checkpoint = task_checkpoints(ctx, tasks)[1]
        url, _ = ctx.policy(checkpoint, "--latency-ms 30")
        script = tasks_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
        code1 = ctx.sh(f"bash {script}", "logs/run_tasks_week1.log", timeout=900)
        week1 = task_rewards(ctx, "sort-unique-words")
        # this week: the data team fixes the typo in its base image; the task author updates the expectation
        (base / "words.txt").write_text(FIXED_WORDS)
        ctx.sh(f"docker build --network none -t datateam/words-base:latest {base}", "logs/base_build_week2.log")
        test.write_text(test.read_text().replace('printf "appel\\napple\\nbanana\\ncherry\\nfig\\npear"',
                                                 'printf "apple\\nbanana\\ncherry\\nfig\\npear"'))
        code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
        week2 = task_rewards(ctx, "sort-unique-words")
    finally:
        remove_task_images("sort-unique-words")
        subprocess.run(["docker", "rmi", "-f", "datateam/words-base:latest"], capture_output=True)
        subprocess.run(["docker", "image", "prune", "-f", "--filter", "dangling=true"], capture_output=True)
    if code or not any(week1) or any(week2) or not week2:
        raise failed(ctx, f"exit {code1}/{code}, week1 {week1}, week2 {week2}: {log_of(ctx, 'run_tasks.log')[-800:]}")
    return (f"RUN/datateam_base (the data team's base image, built as datateam/words-base:latest, then rebuilt with "
            f"the fixed words.txt); RUN/tasks/sort-unique-words/environment/Dockerfile (`FROM ${{BASE}}`); "
            f"RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile of RUN/tasks x 2) last week exit "
            f"{code1} (sort-unique-words rewards {week1}), this week exit {code} (rewards {week2}).")


if __name__ == "__main__":
    sys.exit(main("fifty_seventh_held_out", __file__, __doc__))
