"""Build the EIGHTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/eighth_held_out.py --out tests/data/diagnosis_corpus/eighth_held_out [--only CASE ...]

Measured once on 2026-12-02 (top-1 85 %, see benchmarks/README.md), then tuned on: these cases now count
as tuning cases. The next held-out set is ninth_held_out.py.

These cases were written from the guides alone (the NeMo Gym debugging guide, the reward profiling guide, the
task-folder troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis
rules, their tests or their results. They measure, once, how well `gym-pipeline diagnose` names root causes on
failures its rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated
policy (`gym-pipeline serve-policy` with injected faults, latency and a bounded capacity, killed, or replaced by
another service on its port), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`,
`check-stale`), workspace verifiers, the real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` / `gym eval
profile` inside a loopback-only network namespace, with users' own resources servers), the local and Slurm
launchers, real resource limits (`ulimit`, tmpfs mounts), real bad config and data files. The output of every
command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but
the user's own inputs. Each case injects one cause, different from those of the earlier sets or reached by another
path.

Labels (`case.json`) come from what was injected, following the NeMo Gym debugging guide's classes: the class of
the root cause (what the user must change), not of its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; the helpers below are those of seventh_held_out.py plus this set's own. Needs
root (unshare, mount, ulimit), the one-node Slurm of scripts/dev-services.sh, NeMo Gym 0.7.0, and PYTHONPATH set
to this checkout. Run it from a foreground shell (SIGINT and SIGHUP at their defaults).
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from recipes import (  # noqa: E402
    GP,
    GYM,
    PY,
    Ctx,
    RecipeError,
    case,
    collect_argv,
    gym_eval,
    gym_model_args,
    launched,
    main,
    materialize,
    profile_argv,
    replace_verify,
    rewrite_rows,
    rows_of,
    text_of,
    unique_keys,
    user_resources_server,
    wait_for,
)

# --- helpers of this set ------------------------------------------------------------------------------


def failed(ctx: Ctx, message: str) -> RecipeError:
    """The RecipeError to raise; the run folder as it was is kept in /tmp/ho-failed/NAME to look at."""
    keep = Path("/tmp/ho-failed") / ctx.run.parent.name
    shutil.rmtree(keep, ignore_errors=True)
    shutil.copytree(ctx.run, keep, symlinks=True, ignore_dangling_symlinks=True)
    return RecipeError(message)


def checkpoints(ctx: Ctx, env: str, dataset: Path) -> list[Path]:
    """Two simulated checkpoints that know `dataset`'s prompts: step_0100 (weaker) and step_0200 (better)."""
    from gym_pipeline.environments import McqaEnvironment, StringMatchEnvironment
    from gym_pipeline.serving.checkpoints import demo_checkpoints

    environment = {"string_match": StringMatchEnvironment, "mcqa": McqaEnvironment}[env](dataset)
    return demo_checkpoints(ctx.work / "checkpoints", 2, [environment])


def gym_profile(ctx: Ctx, folder: Path, log: str = "eval_profile.log", extra: str = "") -> int:
    return ctx.sh(f"{GYM} eval profile --inputs {folder}/rollouts_materialized_inputs.jsonl "
                  f"--rollouts {folder}/rollouts.jsonl {extra}".strip(), log, timeout=300)


ALL_READY = re.compile(r"All (\d+) / \1 servers ready")  # not "0 / 4 servers ready. Waiting ..."


def all_ready(ctx: Ctx, log: str = "env_start.log") -> bool:
    return bool(ALL_READY.search(text_of(ctx.run / log)))


def wait_env_start(ctx: Ctx, env_start: subprocess.Popen, timeout_s: float, log: str = "env_start.log") -> bool:
    """Wait until `gym env start` has every server ready, exits, or `timeout_s` passes; whether all got ready."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and env_start.poll() is None and not all_ready(ctx, log):
        time.sleep(1)
    return all_ready(ctx, log)


def gym_start(ctx: Ctx, args: str, log: str = "env_start.log") -> subprocess.Popen:
    """`gym env start ARGS`, waited for until every server is ready."""
    env_start = ctx.gym_env_start(args, log, wait=False)
    if not wait_env_start(ctx, env_start, 240, log):
        raise failed(ctx, f"gym env start did not get ready (exit {env_start.poll()}):\n{text_of(ctx.run / log)[-1500:]}")
    return env_start


def gym_start_failing(ctx: Ctx, args: str, timeout_s: float = 90, log: str = "env_start.log") -> tuple[bool, int | None]:
    """`gym env start ARGS` expected not to get ready: Ctrl-C after `timeout_s`; (ready, exit code)."""
    env_start = ctx.gym_env_start(args, log, wait=False)
    ready = wait_env_start(ctx, env_start, timeout_s, log)
    if env_start.poll() is None and not ready:
        ctx.note(f"{timeout_s:g} s without `gym env start` getting ready: Ctrl-C on it")
    ctx.stop(env_start, signal.SIGINT, 30)
    return ready, env_start.returncode


def gym_logs(ctx: Ctx, *names: str) -> str:
    names = names or ("env_start.log", "eval_run.log", "rollouts_failures.jsonl")
    return "".join(text_of(ctx.run / name) for name in names)


def everything(ctx: Ctx) -> str:
    return "".join(text_of(p) for p in ctx.run.rglob("*") if p.is_file() and p.suffix in (".log", ".jsonl", ".out",
                                                                                          ".err", ".json"))


def wait_or_interrupt(ctx: Ctx, process: subprocess.Popen, timeout_s: float, what: str) -> None:
    try:
        process.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        ctx.note(f"{timeout_s:g} s without {what} ending: Ctrl-C on it")
    ctx.stop(process, signal.SIGINT, 30)


def stop_gym(ctx: Ctx, *processes: subprocess.Popen) -> None:
    for process in processes:
        ctx.stop(process, signal.SIGINT, 30)


def gym_setup(ctx: Ctx, env: str = "string_match", n: int = 4, start: int = 0, flags: str = "",
              weaker: bool = False, edit=None) -> tuple[Path, str, subprocess.Popen, str]:
    """A user's dataset in RUN, a simulated policy knowing it (edit(index, row) applied after), Gym's overrides."""
    data = ctx.dataset(env, n, start=start, folder=ctx.run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, env, data)[0 if weaker else 1]
    if edit is not None:
        rewrite_rows(data, edit)
    url, policy = ctx.policy(checkpoint, flags, log="policy_server.log")
    return data, url, policy, ctx.gym_overrides()


def agent_args(data: Path, output: Path, repeats: int, concurrency: int, agent: str = "string_match_simple_agent",
               extra: str = "") -> str:
    return (f"{extra} --agent {agent} --input {data} --output {output} --num-repeats {repeats} "
            f"--concurrency {concurrency}").strip()


def write_sweep(ctx: Ctx, env: str, dataset: Path, checkpoint: Path, raw: dict | None = None, **settings) -> Path:
    """A sweep config (the JSON a sweep step hands its stages) whose partition's run directory is RUN."""
    runs = ctx.work / "runs"
    (runs / checkpoint.name).mkdir(parents=True, exist_ok=True)
    link = runs / checkpoint.name / env
    if not link.exists():
        link.symlink_to(ctx.run, target_is_directory=True)
    config = {"name": "nightly", "environments": [{"name": env, "dataset": str(dataset)}],
              "checkpoints_dir": str(checkpoint.parent), "runs_dir": str(runs), **settings, **(raw or {})}
    path = ctx.run / "sweep.json"
    path.write_text(json.dumps(config, indent=2) + "\n")
    return path


def stage_argv(sweep: Path, key: str, checkpoint: Path | str, env: str, *extra: str) -> list[str]:
    name = checkpoint if isinstance(checkpoint, str) else checkpoint.name
    return [str(GP), "stage", key, "--sweep-config", str(sweep), "--checkpoint", name, "--env", env,
            "--code-version", "v14", *extra]


PROJECT_ENV = {"PYTHONPATH": str(Path(__file__).resolve().parents[2])}  # this checkout, as the venv's is elsewhere


def docker_launched(ctx: Ctx, launcher, label: str, stage: str, argv: list[str]) -> str:
    """`argv` as stage `stage` in a container through the DockerLauncher, with this checkout on PYTHONPATH."""
    from gym_pipeline.launchers.base import LauncherError, StageLaunch

    ctx.note(f"{label}.run(StageLaunch({stage!r}, {ctx._shown(shlex.join(argv))}, env={PROJECT_ENV}))")
    try:
        state = launcher.run(StageLaunch(stage, argv, ctx.run, env=PROJECT_ENV, cwd=ctx.run))
        return f"ended with exit code {state.exit_code}"
    except LauncherError as error:
        return error.headline if hasattr(error, "headline") else str(error)


def slurm(**settings):
    from gym_pipeline.launchers.slurm import SlurmLauncher

    settings = {"time_limit": "10", "poll_interval_s": 0.5, **settings}
    label = "SlurmLauncher(" + ", ".join(f"{k}={v!r}" for k, v in settings.items()) + ")"
    return SlurmLauncher(**settings), label


COLLECTOR_HEAD = """
\"\"\"Collect on the built-in engine with our own environment subclass.\"\"\"
import asyncio
import sys
from pathlib import Path

from gym_pipeline.engines.builtin import CollectorSettings, collect
from gym_pipeline.environments import McqaEnvironment, StringMatchEnvironment  # noqa: F401
"""

COLLECTOR_TAIL = """

inputs, output, url = sys.argv[1:4]
settings = CollectorSettings(model_url=url, concurrency=CONCURRENCY)
summary = asyncio.run(collect(Path(inputs), Path(output), ENVIRONMENT, settings, resume="--resume" in sys.argv))
print(f"{summary.collected} collected, {len(summary.failed_keys)} failed of {summary.total} in {summary.elapsed_s:.1f}s",
      flush=True)
"""


def own_collector(ctx: Ctx, name: str, body: str, environment: str, concurrency: int = 4) -> Path:
    """A user's collection script RUN/NAME: the built-in collector with their environment class."""
    script = ctx.run / name
    script.write_text((COLLECTOR_HEAD + body.strip("\n") + "\n" + COLLECTOR_TAIL.replace(
        "CONCURRENCY", str(concurrency)).replace("ENVIRONMENT", environment)).lstrip("\n"))
    return script


def collector_argv(ctx: Ctx, script: Path, url: str, *extra: str) -> list[str]:
    run = ctx.run
    return [str(PY), str(script), f"{run}/rollouts_materialized_inputs.jsonl", f"{run}/rollouts.jsonl", url, *extra]


def builtin_setup(ctx: Ctx, env: str, n: int, start: int, repeats: int, flags: str = "", weaker: bool = False,
                  in_run: bool = False) -> tuple[Path, Path, str, subprocess.Popen]:
    """A user's dataset, a simulated policy knowing it, `gym-pipeline materialize`: (data, checkpoint, url, policy)."""
    data = ctx.dataset(env, n, start=start, folder=ctx.run if in_run else None, name=f"{env}.jsonl")
    checkpoint = checkpoints(ctx, env, data)[0 if weaker else 1]
    url, policy = ctx.policy(checkpoint, flags)
    materialize(ctx, data, repeats, env)
    return data, checkpoint, url, policy



def copy_out_of_mount(ctx: Ctx, mount: Path) -> None:
    """Keep what a tmpfs at `mount` holds once it is unmounted (the run folder keeps the files written there)."""
    keep = ctx.work / f"kept-{mount.name}"
    shutil.rmtree(keep, ignore_errors=True)
    shutil.copytree(mount, keep, symlinks=True)
    subprocess.run(["umount", str(mount)], capture_output=True, check=False)
    shutil.copytree(keep, mount, symlinks=True, dirs_exist_ok=True)


def rows_at(env: str, indices: list[int], path: Path) -> Path:
    """The bundled dataset's rows at `indices`, as a user's own JSONL file."""
    from recipes import DATA

    lines = (DATA / f"{env}.jsonl").read_text().splitlines(keepends=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(lines[i] for i in indices))
    return path


def workspace_sweep(ctx: Ctx, env: str, dataset: Path, checkpoint: Path, environment: dict | None = None,
                    verifier_source: str | None = None, module: str = "my_verifier", **settings) -> Path:
    """RUN/sweep.yaml (a workspace's sweep config, JSON being YAML) whose partition's run directory is RUN, with
    the user's own verifier RUN/verifiers/MODULE.py when `verifier_source` is given."""
    if verifier_source is not None:
        (ctx.run / "verifiers").mkdir(exist_ok=True)
        (ctx.run / "verifiers" / f"{module}.py").write_text(verifier_source.lstrip("\n"))
    settings.setdefault("verifiers_dir", str(ctx.run / "verifiers"))
    path = write_sweep(ctx, env, dataset, checkpoint, raw={"environments": [
        {"name": env, "dataset": str(dataset), **(environment or {})}]}, **settings)
    yaml_path = ctx.run / "sweep.yaml"
    path.rename(yaml_path)
    return yaml_path


def task_checkpoints(ctx: Ctx, tasks: Path) -> list[Path]:
    """Two simulated checkpoints that know the task folders' solutions (the terminal agent's policy)."""
    from gym_pipeline.serving.checkpoints import demo_checkpoints
    from gym_pipeline.taskfolders.knowledge import taskset_knowledge

    return demo_checkpoints(ctx.work / "checkpoints", 2, [], extra_knowledge=taskset_knowledge(tasks))


BUNDLED_TASKS = Path(__file__).resolve().parents[2] / "gym_pipeline" / "examples" / "tasks"


def user_taskset(ctx: Ctx, names: list[str], edit=None) -> Path:
    """The user's own taskset RUN/tasks: bundled task folders `names` (and dataset.toml), `edit(tasks)` applied."""
    tasks = ctx.run / "tasks"
    tasks.mkdir()
    shutil.copy(BUNDLED_TASKS / "dataset.toml", tasks / "dataset.toml")
    for name in names:
        shutil.copytree(BUNDLED_TASKS / name, tasks / name)
    if edit is not None:
        edit(tasks)
    return tasks


def stage(ctx: Ctx, sweep: Path, key: str, checkpoint: Path | str, env: str, *extra: str, wrap: str = "") -> int:
    argv = shlex.join(stage_argv(sweep, key, checkpoint, env, *extra))
    return ctx.sh(f"( {wrap}; {argv} )" if wrap else argv, f"logs/{key}.log", timeout=600)


def served(url: str) -> tuple[str, ...]:
    return ("--model-url", url, "--model-name", "sim-policy")



# =====================================================================================================
# helpers of this set
# =====================================================================================================


def gym_start_maybe(ctx: Ctx, args: str, timeout_s: float = 120, log: str = "env_start.log"
                    ) -> tuple[subprocess.Popen, bool]:
    """`gym env start ARGS` that may or may not get ready: (process, whether every server got ready)."""
    env_start = ctx.gym_env_start(args, log, wait=False)
    return env_start, wait_env_start(ctx, env_start, timeout_s, log)


# =====================================================================================================
# the real NeMo Gym 0.7.0: healthy
# =====================================================================================================


@case("healthy_gym_limit_subset_eval", "healthy", [],
      "nothing is wrong: the user evaluated only the first 4 tasks of an 8-task file on purpose (`--limit 4`, a "
      "quick check); all 4 x 3 rollouts were collected and profiled", netns=True)
def healthy_gym_limit_subset_eval(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 8, 20, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 3, 4, extra="--limit 4"))
    profiled = gym_profile(ctx, run)
    stop_gym(ctx, env_start, policy)
    if evaluated or profiled or len(unique_keys(run / "rollouts.jsonl")) != 12:
        raise failed(ctx, f"eval {evaluated}, profile {profiled}")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve --limit 4` on an 8-task "
            "string_match file (x 3, all 12) and `gym eval profile` exit 0.")


@case("healthy_gym_concurrency_one_slow_but_complete", "healthy", [],
      "nothing is wrong: a small evaluation ran at --concurrency 1 against a model server answering in 0.3 s; it "
      "took longer than it had to but every rollout was collected and profiled", netns=True)
def healthy_gym_concurrency_one_slow_but_complete(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 30, "--latency-ms 300")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 3, 1))
    profiled = gym_profile(ctx, run)
    stop_gym(ctx, env_start, policy)
    if evaluated or profiled or len(unique_keys(run / "rollouts.jsonl")) != 12:
        raise failed(ctx, f"eval {evaluated}, profile {profiled}")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve --concurrency 1` (4 string_match "
            "tasks x 3, 300 ms policy, all 12) and `gym eval profile` exit 0.")


@case("healthy_gym_mcqa_greedy_temperature_zero", "healthy", [],
      "nothing is wrong: an mcqa evaluation with --temperature 0 (greedy decoding, so the repeats agree) collected "
      "and profiled every rollout", netns=True)
def healthy_gym_mcqa_greedy_temperature_zero(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "mcqa", 5, 30, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url, resources_server='mcqa')} {overrides}")
    evaluated = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 3, 4, "mcqa_simple_agent",
                                                    extra="--temperature 0"))
    profiled = gym_profile(ctx, run)
    stop_gym(ctx, env_start, policy)
    if evaluated or profiled or len(unique_keys(run / "rollouts.jsonl")) != 15:
        raise failed(ctx, f"eval {evaluated}, profile {profiled}")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace) on mcqa: `gym eval run --no-serve --temperature 0` (5 tasks "
            "x 3, all 15) and `gym eval profile` exit 0.")


@case("healthy_gym_rate_limited_long_retry_after", "healthy", [],
      "nothing is wrong: the endpoint rate-limited about one request in seven with 429 and Retry-After 2; Gym's model "
      "proxy waited and retried, and every rollout was collected and profiled", netns=True)
def healthy_gym_rate_limited_long_retry_after(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 36, "--latency-ms 30 --fault-rate 0.15 "
                                             "--fault-kinds 429 --retry-after-s 2 --fault-seed 23")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 3, 4))
    profiled = gym_profile(ctx, run)
    stop_gym(ctx, env_start, policy)
    if evaluated or profiled or len(unique_keys(run / "rollouts.jsonl")) != 15:
        raise failed(ctx, f"eval {evaluated}, profile {profiled}")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): the simulated policy answers 15 % of completions with 429 "
            "(Retry-After 2); `gym eval run --no-serve` (5 tasks x 3, all 15) and `gym eval profile` exit 0.")


# =====================================================================================================
# the real NeMo Gym 0.7.0: failures
# =====================================================================================================


@case("model_serving_gym_model_url_is_a_static_file_server", "model_serving", ["model-url"],
      "`gym env start --model-url` points at a port where a static file server (python -m http.server, the user's "
      "docs preview) listens instead of the model server, so every chat completion got an HTTP error page "
      "(404/501) instead of an answer", netns=True)
def model_serving_gym_model_url_is_a_static_file_server(ctx: Ctx) -> str:
    from gym_pipeline.host import free_loopback_port

    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 40)
    port = free_loopback_port()
    (ctx.work / "site").mkdir()
    (ctx.work / "site" / "index.html").write_text("<html><body>docs preview</body></html>\n")
    docs = ctx.bg(f"{PY} -m http.server {port} --bind 127.0.0.1", "docs_preview_server.log", cwd=ctx.work / "site")
    time.sleep(2)
    ctx.note(f"(the policy serves at {url}; the user typed the docs preview's port {port})")
    env_start, ready = gym_start_maybe(ctx, f"{gym_model_args(f'http://127.0.0.1:{port}/v1')} {overrides}")
    evaluated = None
    if ready:
        eval_run = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 2, 4), background=True)
        wait_or_interrupt(ctx, eval_run, 150, "`gym eval run`")
        evaluated = eval_run.returncode
    stop_gym(ctx, env_start, policy, docs)
    if evaluated == 0 and len(rows_of(run / "rollouts.jsonl")) == 8:
        raise failed(ctx, "the collection completed")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `python -m http.server` on a port, `gym env start "
            f"--model-url` naming that port (ready: {ready}); `gym eval run --no-serve` exit {evaluated}, "
            f"{len(rows_of(run / 'rollouts.jsonl'))} of 8 rollouts.")


@case("model_serving_gym_server_killed_between_splits", "model_serving", [],
      "the model server was killed (SIGKILL, a node cleanup script) after the first data split had been evaluated, "
      "so the second split's `gym eval run` against the same `gym env start` could not reach it", netns=True)
def model_serving_gym_server_killed_between_splits(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 8, 0, "--latency-ms 30")
    lines = data.read_text().splitlines(keepends=True)
    (run / "split_a.jsonl").write_text("".join(lines[:4]))
    (run / "split_b.jsonl").write_text("".join(lines[4:]))
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    first = gym_eval(ctx, overrides, agent_args(run / "split_a.jsonl", run / "split_a" / "rollouts.jsonl", 2, 4),
                     "eval_run_split_a.log")
    ctx.note("(a node cleanup script kills the model server: kill -9)")
    ctx.stop(policy, signal.SIGKILL, 5)
    second = gym_eval(ctx, overrides, agent_args(run / "split_b.jsonl", run / "split_b" / "rollouts.jsonl", 2, 4),
                      "eval_run_split_b.log", background=True)
    wait_or_interrupt(ctx, second, 150, "`gym eval run` of split_b")
    stop_gym(ctx, env_start)
    got = len(rows_of(run / "split_b" / "rollouts.jsonl"))
    if first or len(rows_of(run / "split_a" / "rollouts.jsonl")) != 8 or (second.returncode == 0 and got == 8):
        raise failed(ctx, f"split_a {first}, split_b {second.returncode} ({got} rows)")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve` of split_a (4 tasks x 2, all 8); "
            f"kill -9 on the simulated policy; `gym eval run` of split_b exit {second.returncode}, {got} of 8 rollouts.")


@case("config_gym_output_names_a_directory", "config", ["output"],
      "`gym eval run --output` was given the folder RUN/results/ instead of a rollouts file path "
      "(RUN/results/rollouts.jsonl), so Gym could not write its rollouts there", netns=True)
def config_gym_output_names_a_directory(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 44)
    (run / "results").mkdir()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval(ctx, overrides, agent_args(data, Path(f"{run}/results/"), 2, 4).replace(
        f"{run}/results ", f"{run}/results/ "))
    stop_gym(ctx, env_start, policy)
    if evaluated == 0:
        raise failed(ctx, "gym eval run exited 0")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace, healthy servers): `gym eval run --no-serve --output "
            f"RUN/results/` (an existing folder) exit {evaluated}.")


@case("data_schema_gym_rows_wrapped_in_one_element_lists", "data_schema", ["list"],
      "each line of the dataset is a one-element JSON list ([{...}]) because the export wrote json.dumps([row]) per "
      "row, so no line is a task object Gym can read", netns=True)
def data_schema_gym_rows_wrapped_in_one_element_lists(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 50)
    data.write_text("".join(f"[{line}]\n" for line in data.read_text().splitlines()))
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 2, 4))
    stop_gym(ctx, env_start, policy)
    if evaluated == 0 and len(rows_of(run / "rollouts.jsonl")) == 10:
        raise failed(ctx, "Gym read the rows")
    return ("RUN/tasks.jsonl with each row written as a one-element list; real NeMo Gym 0.7.0 (loopback-only "
            f"namespace, healthy servers) `gym eval run --no-serve` exit {evaluated}.")


@case("data_schema_gym_expected_answer_null", "data_schema", ["expected_answer"],
      "three rows have \"expected_answer\": null (unlabelled rows exported with their empty label cell as null), "
      "which Gym's string_match verify request does not accept as a string", netns=True)
def data_schema_gym_expected_answer_null(ctx: Ctx) -> str:
    run = ctx.run

    def unlabel(index, row):
        if index % 2 == 1:
            row["expected_answer"] = None
            return True
        return False

    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 56, "--latency-ms 30", edit=unlabel)
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 2, 4))
    profiled = gym_profile(ctx, run, extra="++allow_partial_rollouts=True")
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "rollouts.jsonl")
    if evaluated == 0 and len(rows) == 12 and all(r.get("reward") for r in rows):
        raise failed(ctx, "nothing went wrong")
    return ("RUN/tasks.jsonl (6 string_match rows, 3 with expected_answer null); real NeMo Gym 0.7.0 (loopback-only "
            f"namespace) `gym eval run --no-serve` exit {evaluated}, {len(rows)} of 12 rollouts; `gym eval profile "
            f"++allow_partial_rollouts=True` exit {profiled}.")


COUNTER_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)
        # running tally for the dashboard (initialised in setup_webserver on the old branch)
        self.n_verified += 1
        self.n_correct += int(reward > 0)
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


@case("verifier_runtime_gym_verify_counter_never_initialised", "verifier_runtime", ["n_verified"],
      "the user's tallied_match resources server increments self.n_verified in verify, an attribute it never "
      "initialises (the setup code was lost in a merge), so every verify raised instead of returning a reward",
      netns=True)
def verifier_runtime_gym_verify_counter_never_initialised(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 60, "--latency-ms 30")
    search = user_resources_server(ctx, "tallied_match", "string_match", lambda app: replace_verify(app, COUNTER_VERIFY))
    ctx.note("(copied Gym's resources_servers/string_match to WORK/my_gym/resources_servers/tallied_match; its verify "
             "increments self.n_verified)")
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='tallied_match')} "
                               f"{overrides}")
    eval_run = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 2, 4, "tallied_match_simple_agent"),
                        background=True)
    wait_or_interrupt(ctx, eval_run, 150, "`gym eval run`")
    stop_gym(ctx, env_start, policy)
    if eval_run.returncode == 0 and len(rows_of(run / "rollouts.jsonl")) == 10:
        raise failed(ctx, "verify worked")
    return ("A user's resources server tallied_match (Gym's string_match, verify incrementing an uninitialised "
            "attribute); real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (5 tasks x 2) exit "
            f"{eval_run.returncode}, {len(rows_of(run / 'rollouts.jsonl'))} of 10 rollouts.")


WEIGHT_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)
        # answers in the requested format count fully, the others half (format-weighted reward)
        format_weight = {"boxed": 1.0, "final_answer": 1.0}[body.extraction_mode]
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward * format_weight,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


@case("verifier_runtime_gym_format_weight_table_missing_mode", "verifier_runtime", ["last_line"],
      "the user's weighted_match resources server looks up a per-format weight in a table that has no entry for "
      "extraction_mode last_line, so verify raised KeyError on every last_line task", netns=True)
def verifier_runtime_gym_format_weight_table_missing_mode(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 0, "--latency-ms 30")
    search = user_resources_server(ctx, "weighted_match", "string_match", lambda app: replace_verify(app, WEIGHT_VERIFY))
    ctx.note("(copied Gym's resources_servers/string_match to WORK/my_gym/resources_servers/weighted_match; its verify "
             "weights rewards by a table of extraction modes)")
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='weighted_match')} "
                               f"{overrides}")
    eval_run = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 2, 4, "weighted_match_simple_agent"),
                        background=True)
    wait_or_interrupt(ctx, eval_run, 150, "`gym eval run`")
    profiled = gym_profile(ctx, run, extra="++allow_partial_rollouts=True")
    stop_gym(ctx, env_start, policy)
    got = len(rows_of(run / "rollouts.jsonl"))
    if eval_run.returncode == 0 and got == 12:
        raise failed(ctx, "verify worked")
    return ("A user's resources server weighted_match (Gym's string_match, a format-weight table without last_line); "
            f"real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (6 tasks x 2) exit "
            f"{eval_run.returncode}, {got} of 12 rollouts; `gym eval profile ++allow_partial_rollouts=True` exit "
            f"{profiled}.")


@case("throughput_gym_mcqa_concurrency_overflows_small_queue", "throughput_resources", ["concurrency"],
      "`gym eval run --concurrency 32` on mcqa against a model server that generates 1 request at a time and queues "
      "at most 2 (0.8 s each): the rest were refused with 429 overloaded until Gym's retries ran out", netns=True)
def throughput_gym_mcqa_concurrency_overflows_small_queue(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "mcqa", 8, 40, "--latency-ms 800 --max-running 1 --max-waiting 2")
    env_start = gym_start(ctx, f"{gym_model_args(url, resources_server='mcqa')} {overrides}")
    eval_run = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 4, 32, "mcqa_simple_agent"),
                        background=True)
    wait_or_interrupt(ctx, eval_run, 180, "`gym eval run`")
    stop_gym(ctx, env_start, policy)
    got = len(rows_of(run / "rollouts.jsonl"))
    if eval_run.returncode == 0 and got == 32:
        raise failed(ctx, "everything collected")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace) on mcqa: simulated policy --max-running 1 --max-waiting 2 "
            f"(800 ms); `gym eval run --no-serve --concurrency 32` (8 tasks x 4) exit {eval_run.returncode}, {got} of "
            "32 rollouts.")


@case("cache_resume_gym_profiled_copy_taken_mid_run", "cache_resume", ["copy"],
      "the user copied the output folder to the shared results area while `gym eval run` was still writing it, "
      "then profiled the copy: the copy holds only the rollouts written so far, though the collection completed",
      netns=True)
def cache_resume_gym_profiled_copy_taken_mid_run(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 70, "--latency-ms 400")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    eval_run = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 4, 2), background=True)
    wait_for(lambda: len(rows_of(run / "results" / "rollouts.jsonl")) >= 6 or eval_run.poll() is not None, 150,
             "6 rollouts")
    ctx.sh(f"mkdir -p {run}/shared && cp -v {run}/results/*.jsonl {run}/shared/", "copy_to_shared.log")
    eval_run.wait(timeout=300)
    profiled = gym_profile(ctx, run / "shared")
    stop_gym(ctx, env_start, policy)
    full, copied = len(rows_of(run / "results" / "rollouts.jsonl")), len(rows_of(run / "shared" / "rollouts.jsonl"))
    if eval_run.returncode or full != 24 or copied >= 24:
        raise failed(ctx, f"eval {eval_run.returncode}, {full} / {copied}")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve --output RUN/results/"
            f"rollouts.jsonl` (6 tasks x 4, all {full}); mid-run `cp RUN/results/*.jsonl RUN/shared/` ({copied} rows); "
            f"`gym eval profile` of RUN/shared exit {profiled}.")


# =====================================================================================================
# the built-in engine, stages and launchers
# =====================================================================================================


def collect_sh(ctx: Ctx, url: str, env: str, concurrency: int, *extra: str, wrap: str = "",
               log: str = "logs/collect.log", timeout: float = 300) -> int:
    argv = shlex.join(collect_argv(ctx.run, url, env, concurrency, *extra))
    return ctx.sh(f"( {wrap}; {argv} )" if wrap else argv, log, timeout=timeout)


def profile_sh(ctx: Ctx, *extra: str, wrap: str = "", log: str = "logs/profile.log") -> int:
    argv = shlex.join(profile_argv(ctx.run, *extra))
    return ctx.sh(f"( {wrap}; {argv} )" if wrap else argv, log, timeout=300)


@case("healthy_builtin_mcqa_complete_low_concurrency", "healthy", [],
      "nothing is wrong: an mcqa collection at concurrency 2 with the built-in engine collected every rollout and "
      "was profiled")
def healthy_builtin_mcqa_complete_low_concurrency(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "mcqa", 6, 6, 3, "--latency-ms 40")
    collected, profiled = collect_sh(ctx, url, "mcqa", 2), profile_sh(ctx)
    if collected or profiled or len(unique_keys(run / "rollouts.jsonl")) != 18:
        raise failed(ctx, f"collect {collected}, profile {profiled}")
    return "`gym-pipeline materialize`, `collect --concurrency 2` (mcqa, 6 tasks x 3, all 18) and `profile` exit 0."


@case("healthy_builtin_profile_into_report_folder", "healthy", [],
      "nothing is wrong: a complete string_match collection, profiled into a separate report folder "
      "(--output-dir RUN/report) as the team's dashboard expects")
def healthy_builtin_profile_into_report_folder(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 7, 12, 3, "--latency-ms 30")
    collected = collect_sh(ctx, url, "string_match", 4)
    profiled = profile_sh(ctx, "--output-dir", f"{run}/report")
    if collected or profiled or len(unique_keys(run / "rollouts.jsonl")) != 21:
        raise failed(ctx, f"collect {collected}, profile {profiled}")
    return ("`gym-pipeline materialize`, `collect` (string_match, 7 tasks x 3, all 21) and `profile --output-dir "
            "RUN/report` exit 0.")


@case("healthy_slurm_mcqa_collect_and_profile", "healthy", [],
      "nothing is wrong: an mcqa collection and its profile ran as Slurm jobs and completed every rollout; the "
      "endpoint dropped a few connections, which were retried")
def healthy_slurm_mcqa_collect_and_profile(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "mcqa", 5, 20, 3, "--latency-ms 40 --fault-rate 0.08 --fault-kinds drop "
                                      "--fault-seed 4")
    launcher, label = slurm()
    collected = launched(ctx, launcher, label, "collect", collect_argv(run, url, "mcqa", 3))
    profiled = launched(ctx, launcher, label, "profile", profile_argv(run))
    if "exit code 0" not in collected or "exit code 0" not in profiled or len(unique_keys(run / "rollouts.jsonl")) != 15:
        raise failed(ctx, f"{collected}; {profiled}")
    return (f"`gym-pipeline materialize` (mcqa, 5 tasks x 3); collect as a Slurm job: {collected}; profile as a Slurm "
            f"job: {profiled}; all 15 rollouts.")


# --- infra --------------------------------------------------------------------------------------------


@case("infra_builtin_materialize_file_size_limit", "infra", ["ulimit"],
      "`gym-pipeline materialize` ran in a shell whose file-size limit is 4 KB (ulimit -f 4, the batch profile's "
      "default), so writing the materialized inputs stopped at the limit (File too large)")
def infra_builtin_materialize_file_size_limit(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 20, start=0, folder=run, name="string_match.jsonl")
    output = run / "rollouts_materialized_inputs.jsonl"
    code = ctx.sh(f"( ulimit -f 4; ulimit -a | grep -i 'file size'; {GP} materialize --input {data} --num-repeats 4 "
                  f"--agent string_match_simple_agent --output {output} )", "logs/materialize.log")
    if code == 0:
        raise failed(ctx, "materialize exited 0")
    return (f"`gym-pipeline materialize` (20 string_match tasks x 4) in a subshell with `ulimit -f 4`: exit {code}; "
            f"{output.stat().st_size if output.exists() else 0} bytes written.")


@case("infra_slurm_memory_beyond_node", "infra", ["mem"],
      "the collect stage's Slurm settings ask for 512 GB of memory (memory_mb copied from the GPU nodes' settings) "
      "on a cluster whose only node has about 21 GB, so sbatch refused the job")
def infra_slurm_memory_beyond_node(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 4, 44, 2, "--latency-ms 20")
    launcher, label = slurm(memory_mb=512000)
    ended = launched(ctx, launcher, label, "collect", collect_argv(run, url, "string_match", 2))
    if "exit code 0" in ended or rows_of(run / "rollouts.jsonl"):
        raise failed(ctx, ended)
    return f"`gym-pipeline materialize` (4 tasks x 2); collect as a Slurm job with memory_mb=512000: {ended}."


# --- model serving ------------------------------------------------------------------------------------


@case("model_serving_builtin_port_reused_by_other_service", "model_serving", [],
      "the model server died in the middle of the collection and another service (a notebook's static file "
      "server) took its port, so the remaining chat completions got HTTP error pages (404/501) instead of answers")
def model_serving_builtin_port_reused_by_other_service(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 6, 50, 4, "--latency-ms 300")
    collect = ctx.bg(shlex.join(collect_argv(run, url, "string_match", 2)), "logs/collect.log")
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 5 or collect.poll() is not None, 90, "5 rollouts")
    ctx.note("(the model server dies: kill -9; a colleague's static file server starts on the freed port)")
    ctx.stop(policy, signal.SIGKILL, 5)
    port = url.rsplit(":", 1)[1].split("/")[0]
    other = ctx.bg(f"{PY} -m http.server {port} --bind 127.0.0.1", "logs/other_service.log")
    wait_or_interrupt(ctx, collect, 200, "`gym-pipeline collect`")
    ctx.stop(other, signal.SIGINT, 5)
    got = len(rows_of(run / "rollouts.jsonl"))
    if collect.returncode == 0 and got == 24:
        raise failed(ctx, "collect completed")
    return (f"`gym-pipeline collect` (6 tasks x 4, 300 ms policy); after 5 rollouts kill -9 on the policy and "
            f"`python -m http.server` on its port; collect exit {collect.returncode}, {got} of 24 rollouts.")


@case("model_serving_builtin_mcqa_most_connections_dropped", "model_serving", [],
      "the model server drops about nine connections in ten without answering (a crashing worker behind its port) "
      "at a load of 2 requests, so most mcqa rollouts failed after their retries")
def model_serving_builtin_mcqa_most_connections_dropped(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "mcqa", 5, 0, 3, "--latency-ms 20 --fault-rate 0.9 --fault-kinds drop "
                                      "--fault-seed 9")
    collected = collect_sh(ctx, url, "mcqa", 2)
    profiled = profile_sh(ctx, "--allow-partial")
    got = len(rows_of(run / "rollouts.jsonl"))
    if collected == 0 and got == 15 and all(r.get("reward") is not None for r in rows_of(run / "rollouts.jsonl")):
        raise failed(ctx, "everything collected")
    return (f"simulated policy dropping 90 % of connections; `gym-pipeline collect` (mcqa, 5 tasks x 3) exit "
            f"{collected}, {got} rows; `profile --allow-partial` exit {profiled}.")


@case("model_serving_builtin_generations_hang", "model_serving", [],
      "the model server accepts chat completions but holds most of them without answering (a wedged generation "
      "engine), so the collection stalled and was interrupted with most rollouts missing")
def model_serving_builtin_generations_hang(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 5, 60, 3, "--latency-ms 20 --fault-rate 0.7 "
                                      "--fault-kinds timeout --timeout-hold-s 600 --fault-seed 2")
    collect = ctx.bg(shlex.join(collect_argv(run, url, "string_match", 3)), "logs/collect.log")
    wait_or_interrupt(ctx, collect, 75, "`gym-pipeline collect`")
    got = len(rows_of(run / "rollouts.jsonl"))
    if collect.returncode == 0 and got == 15:
        raise failed(ctx, "collect completed")
    return (f"simulated policy holding 70 % of completions (600 s); `gym-pipeline collect` (5 tasks x 3), Ctrl-C "
            f"after 75 s: exit {collect.returncode}, {got} of 15 rows.")


# --- config -------------------------------------------------------------------------------------------


@case("config_builtin_collect_concurrency_zero", "config", ["concurrency"],
      "the collection was started with --concurrency 0 (the wrapper script's $CONC was unset and defaulted to 0), "
      "which is not a usable number of parallel requests")
def config_builtin_collect_concurrency_zero(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 4, 64, 2)
    collect = ctx.bg(shlex.join(collect_argv(run, url, "string_match", 0)), "logs/collect.log")
    wait_or_interrupt(ctx, collect, 40, "`gym-pipeline collect`")
    if collect.returncode == 0 and len(rows_of(run / "rollouts.jsonl")) == 8:
        raise failed(ctx, "collect completed")
    return f"`gym-pipeline collect --concurrency 0` (4 tasks x 2): exit {collect.returncode}."


@case("config_builtin_collect_given_raw_dataset", "config", ["materialize"],
      "`gym-pipeline collect --inputs` was given the raw dataset (string_match.jsonl) instead of the materialized "
      "inputs: the user skipped `gym-pipeline materialize`")
def config_builtin_collect_given_raw_dataset(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=10, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    code = ctx.sh(f"{GP} collect --inputs {data} --output {run}/rollouts.jsonl --model-url {url} --env string_match "
                  "--concurrency 2", "logs/collect.log", timeout=200)
    if code == 0 and len(rows_of(run / "rollouts.jsonl")) == 5:
        raise failed(ctx, "collect accepted the dataset")
    return f"`gym-pipeline collect --inputs RUN/string_match.jsonl` (the raw dataset, never materialized): exit {code}."


@case("config_sweep_num_repeats_negative", "config", ["num_repeats"],
      "the sweep config sets num_repeats: -4 (a sign slipped in when the user edited the value), which no stage can "
      "use")
def config_sweep_num_repeats_negative(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 4, start=18, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=-4, concurrency=2)
    code = stage(ctx, sweep, "materialize", checkpoint, "string_match")
    if code == 0 and len(rows_of(run / "rollouts_materialized_inputs.jsonl")) > 0:
        raise failed(ctx, "materialized")
    return f"sweep config with num_repeats -4; `gym-pipeline stage materialize` exit {code}."


# --- data schema --------------------------------------------------------------------------------------


@case("data_schema_builtin_rows_with_trailing_commas", "data_schema", ["comma"],
      "the dataset was hand-converted from a JavaScript array: every line ends with a trailing comma ({...},), so "
      "no line is valid JSON")
def data_schema_builtin_rows_with_trailing_commas(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=22, folder=run, name="string_match.jsonl")
    data.write_text("".join(line + ",\n" for line in data.read_text().splitlines()))
    code = ctx.sh(f"{GP} materialize --input {data} --num-repeats 2 --agent string_match_simple_agent --output "
                  f"{run}/rollouts_materialized_inputs.jsonl", "logs/materialize.log")
    if code == 0:
        raise failed(ctx, "materialize exited 0")
    return f"RUN/string_match.jsonl with a trailing comma on every line; `gym-pipeline materialize` exit {code}."


@case("data_schema_builtin_mcqa_rows_without_options", "data_schema", ["options"],
      "the mcqa rows lost their options field in an export (only the prompt and the answer letter were kept), so "
      "the mcqa verifier has no options to check the answer against")
def data_schema_builtin_mcqa_rows_without_options(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("mcqa", 5, start=25, folder=run, name="mcqa.jsonl")
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    rewrite_rows(data, lambda index, row: row.pop("options", None) is not None)
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    code = ctx.sh(f"{GP} materialize --input {data} --num-repeats 2 --agent mcqa_simple_agent --output "
                  f"{run}/rollouts_materialized_inputs.jsonl", "logs/materialize.log")
    collected = collect_sh(ctx, url, "mcqa", 2) if code == 0 else None
    rows = rows_of(run / "rollouts.jsonl")
    if code == 0 and collected == 0 and len(rows) == 10 and any(r.get("reward") for r in rows):
        raise failed(ctx, "nothing went wrong")
    return (f"RUN/mcqa.jsonl (5 rows without options); `gym-pipeline materialize` exit {code}; `collect` exit "
            f"{collected}, {len(rows)} rows.")


@case("data_schema_builtin_mcqa_answer_as_option_index", "data_schema", ["letter"],
      "the mcqa export wrote expected_answer as the 0-based index of the right option (0, 1, 2, 3) instead of its "
      "letter (A-D)")
def data_schema_builtin_mcqa_answer_as_option_index(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("mcqa", 6, start=30, folder=run, name="mcqa.jsonl")
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    rewrite_rows(data, lambda index, row: row.__setitem__("expected_answer", "ABCDEFGH".index(row["expected_answer"]))
                 is None)
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    code = ctx.sh(f"{GP} materialize --input {data} --num-repeats 2 --agent mcqa_simple_agent --output "
                  f"{run}/rollouts_materialized_inputs.jsonl", "logs/materialize.log")
    collected = collect_sh(ctx, url, "mcqa", 2) if code == 0 else None
    profiled = profile_sh(ctx, "--allow-partial") if code == 0 else None
    rows = rows_of(run / "rollouts.jsonl")
    if code == 0 and collected == 0 and len(rows) == 12 and sum(r.get("reward") or 0 for r in rows) > 6:
        raise failed(ctx, "rewards fine")
    return (f"RUN/mcqa.jsonl (expected_answer as 0-based integer index); `materialize` exit {code}; `collect` exit "
            f"{collected}, {len(rows)} rows; `profile --allow-partial` exit {profiled}.")


@case("data_schema_stage_expected_answer_null", "data_schema", ["expected_answer"],
      "half of the dataset's rows have \"expected_answer\": null (unlabelled rows from the annotation queue were "
      "exported with the labelled ones)")
def data_schema_stage_expected_answer_null(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=36, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    rewrite_rows(data, lambda index, row: index % 2 == 0 and row.__setitem__("expected_answer", None) is None)
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=2, concurrency=3)
    codes = [stage(ctx, sweep, "materialize", checkpoint, "string_match")]
    if codes[0] == 0:
        codes += [stage(ctx, sweep, "collect", checkpoint, "string_match", *served(url)),
                  stage(ctx, sweep, "profile", checkpoint, "string_match")]
    rows = rows_of(run / "rollouts.jsonl")
    if not any(codes) and len(rows) == 12 and all(r.get("reward") for r in rows):
        raise failed(ctx, "nothing went wrong")
    return f"sweep stages materialize/collect/profile on 6 rows, 3 with expected_answer null: exit {codes}."


# --- verifier runtime ---------------------------------------------------------------------------------

ANSWER_KEY_VERIFIER = '''
"""Exact-answer scoring, ported from our old eval harness (whose rows had an `answer` column)."""
import re

FINAL = re.compile(r"(?:final answer:|boxed\\{)\\s*([^}\\n]+)", re.IGNORECASE)


def score(row, response_text):
    match = FINAL.search(response_text)
    answer = match.group(1).strip() if match else response_text.strip().splitlines()[-1].strip()
    return {"reward": float(answer.lower() == str(row["answer"]).lower()), "extracted_answer": answer}
'''

FIRST_LINE_VERIFIER = '''
"""Exact-answer scoring for our string tasks."""


def score(row, response_text):
    answer = response_text.strip().splitlines()[0].strip()  # the answer line
    for prefix in ("Final answer:", "\\\\boxed{"):
        answer = answer.removeprefix(prefix).rstrip("}").strip()
    return {"reward": float(answer.lower() == str(row["expected_answer"]).lower()), "extracted_answer": answer}
'''


def verifier_stages(ctx: Ctx, source: str, start: int, n: int = 6) -> tuple[list[int], list[dict]]:
    run = ctx.run
    data = ctx.dataset("string_match", n, start=start, folder=run, name="exact_answer.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    sweep = workspace_sweep(ctx, "exact_answer", data, checkpoint, {"verifier": "my_verifier:score"}, source,
                            num_repeats=2, concurrency=3)
    codes = [stage(ctx, sweep, "materialize", checkpoint, "exact_answer"),
             stage(ctx, sweep, "collect", checkpoint, "exact_answer", *served(url)),
             stage(ctx, sweep, "profile", checkpoint, "exact_answer")]
    return codes, rows_of(run / "rollouts.jsonl")


@case("verifier_runtime_stage_workspace_verifier_reads_old_column", "verifier_runtime", ["expected_answer"],
      "the user's workspace verifier, ported from an old harness, reads row[\"answer\"], a field these rows do not "
      "have (they carry expected_answer), so it raised KeyError on every rollout")
def verifier_runtime_stage_workspace_verifier_reads_old_column(ctx: Ctx) -> str:
    codes, rows = verifier_stages(ctx, ANSWER_KEY_VERIFIER, 46)
    if not any(codes) and len(rows) == 12 and any(r.get("reward") for r in rows):
        raise failed(ctx, "scored fine")
    return f"workspace verifier reading row['answer']; stages exit {codes}, {len(rows)} rows."


@case("verifier_runtime_stage_workspace_verifier_reads_first_line", "verifier_runtime", ["last line"],
      "the user's workspace verifier takes the answer from the response's first line, but the model reasons first "
      "and gives its answer at the end, so correct answers are scored 0")
def verifier_runtime_stage_workspace_verifier_reads_first_line(ctx: Ctx) -> str:
    codes, rows = verifier_stages(ctx, FIRST_LINE_VERIFIER, 52, 8)
    mean = sum(r.get("reward") or 0 for r in rows) / max(len(rows), 1)
    if mean > 0.3:
        raise failed(ctx, f"mean reward {mean:.2f}")
    return f"workspace verifier reading the first line; stages exit {codes}, {len(rows)} rows, mean reward {mean:.2f}."


# --- throughput and resources -------------------------------------------------------------------------


@case("throughput_builtin_collect_address_space_limit", "throughput_resources", ["ulimit"],
      "the built-in collection ran under a 120 MB address-space limit (ulimit -v 120000, the login node's "
      "per-process cap), too little memory for the collector, which failed with MemoryError")
def throughput_builtin_collect_address_space_limit(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 5, 56, 2, "--latency-ms 20")
    collected = collect_sh(ctx, url, "string_match", 2, wrap="ulimit -v 120000; ulimit -a | grep -i virtual")
    if collected == 0 and len(rows_of(run / "rollouts.jsonl")) == 10:
        raise failed(ctx, "collect completed")
    return f"`gym-pipeline collect` (5 tasks x 2) under `ulimit -v 120000`: exit {collected}."


@case("throughput_stage_collect_429_queue_overflow_mcqa", "throughput_resources", ["concurrency"],
      "the sweep's collect stage ran mcqa at concurrency 40 against a model server that generates 1 request at a "
      "time and lets 3 wait (0.5 s each): the rest were refused with 429 overloaded until the retries ran out")
def throughput_stage_collect_429_queue_overflow_mcqa(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("mcqa", 10, start=10, folder=run, name="mcqa.jsonl")
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 500 --max-running 1 --max-waiting 3")
    sweep = write_sweep(ctx, "mcqa", data, checkpoint, num_repeats=4, concurrency=40)
    codes = [stage(ctx, sweep, "materialize", checkpoint, "mcqa"),
             stage(ctx, sweep, "collect", checkpoint, "mcqa", *served(url))]
    got = len(rows_of(run / "rollouts.jsonl"))
    if not any(codes) and got == 40 and all(r.get("reward") is not None for r in rows_of(run / "rollouts.jsonl")):
        raise failed(ctx, "all collected")
    return f"sweep stages materialize/collect (mcqa, 10 x 4, concurrency 40) on a 1+3 server: exit {codes}, {got} rows."


@case("throughput_builtin_collect_too_slow_for_wall_time", "throughput_resources", ["concurrency"],
      "the collection ran at --concurrency 1 against a model server answering in 1 s, inside the batch wrapper's "
      "25 s wall-time budget (timeout 25): it needed about 40 s, so it was cut off part way; the server had room "
      "for many more requests at once")
def throughput_builtin_collect_too_slow_for_wall_time(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 10, 60, 4, "--latency-ms 1000")
    collected = ctx.sh(f"timeout 25 {shlex.join(collect_argv(run, url, 'string_match', 1))}; code=$?; "
                       "echo \"batch wrapper: wall time of 25 s reached (exit $code)\"; exit $code", "logs/collect.log",
                       timeout=120)
    profiled = profile_sh(ctx)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got >= 40:
        raise failed(ctx, "completed")
    return (f"`timeout 25 gym-pipeline collect --concurrency 1` (10 tasks x 4, 1 s policy): exit {collected}, {got} of "
            f"40; strict `profile` exit {profiled}.")


# --- cache and resume ---------------------------------------------------------------------------------


@case("cache_resume_builtin_profile_old_rollouts_with_rematerialized_inputs", "cache_resume", ["collect"],
      "after the collection the user fixed two labels and re-ran materialize, but did not collect again: the "
      "profile pairs the new inputs with rollouts scored against the old labels")
def cache_resume_builtin_profile_old_rollouts_with_rematerialized_inputs(ctx: Ctx) -> str:
    run = ctx.run
    data, _, url, policy = builtin_setup(ctx, "string_match", 6, 64, 2, "--latency-ms 20", in_run=True)
    collected = collect_sh(ctx, url, "string_match", 3)
    ctx.note("(two labels corrected in the dataset; materialize re-run; collect not re-run)")
    rewrite_rows(data, lambda index, row: index in (1, 4) and row.__setitem__(
        "expected_answer", row["expected_answer"] + " ") is None)
    materialize(ctx, data, 2, "string_match", log="logs/materialize_again.log")
    stale = ctx.sh(f"{GP} check-stale --help >/dev/null; {GP} profile --inputs {run}/rollouts_materialized_inputs.jsonl "
                   f"--rollouts {run}/rollouts.jsonl", "logs/profile.log")
    if collected:
        raise failed(ctx, f"collect {collected}")
    return (f"`materialize`, `collect` (6 tasks x 2, exit {collected}); dataset edited, `materialize` again; "
            f"`profile` exit {stale}.")


@case("cache_resume_builtin_old_partial_appended_to_output", "cache_resume", ["duplicate"],
      "the user appended the rollouts of an earlier, interrupted attempt (attempt1/rollouts.jsonl) to the finished "
      "run's rollouts.jsonl to 'keep everything', so several (task, rollout) keys appear twice")
def cache_resume_builtin_old_partial_appended_to_output(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 5, 70, 3, "--latency-ms 200")
    first = ctx.bg(shlex.join(collect_argv(run, url, "string_match", 2)).replace(
        f"{run}/rollouts.jsonl", f"{run}/attempt1/rollouts.jsonl"), "logs/collect_attempt1.log")
    wait_for(lambda: len(rows_of(run / "attempt1" / "rollouts.jsonl")) >= 5 or first.poll() is not None, 60,
             "5 rollouts")
    ctx.stop(first, signal.SIGINT, 20)
    collected = collect_sh(ctx, url, "string_match", 4)
    ctx.sh(f"cat {run}/attempt1/rollouts.jsonl >> {run}/rollouts.jsonl; wc -l {run}/rollouts.jsonl", "logs/merge.log")
    profiled = profile_sh(ctx)
    if collected or len(rows_of(run / "rollouts.jsonl")) <= 15:
        raise failed(ctx, f"collect {collected}")
    return (f"attempt1 interrupted (Ctrl-C) after {len(rows_of(run / 'attempt1' / 'rollouts.jsonl'))} rows; a full "
            f"collect (15); attempt1 appended to rollouts.jsonl; `profile` exit {profiled}.")


@case("cache_resume_builtin_preempted_then_profiled_partial", "cache_resume", ["resume"],
      "the collection was preempted (SIGTERM from the scheduler) half way and never resumed; the user profiled the "
      "partial rollouts with --allow-partial and reported them as the checkpoint's score")
def cache_resume_builtin_preempted_then_profiled_partial(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 6, 76, 4, "--latency-ms 300")
    collect = ctx.bg(shlex.join(collect_argv(run, url, "string_match", 2)), "logs/collect.log")
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 8 or collect.poll() is not None, 90, "8 rollouts")
    ctx.note("(the scheduler preempts the job: SIGTERM)")
    ctx.stop(collect, signal.SIGTERM, 20)
    profiled = profile_sh(ctx, "--allow-partial")
    got = len(rows_of(run / "rollouts.jsonl"))
    if got >= 24:
        raise failed(ctx, "completed")
    return (f"`gym-pipeline collect` (6 tasks x 4) stopped by SIGTERM after {got} rows, never resumed; `profile "
            f"--allow-partial` exit {profiled}.")


# --- more infra ---------------------------------------------------------------------------------------


@case("infra_builtin_collect_file_size_limit", "infra", ["ulimit"],
      "the built-in collection ran in a shell whose file-size limit is 8 KB (ulimit -f 8, set by the site's batch "
      "profile), so rollouts.jsonl could not grow past it (File too large) and its last line was cut")
def infra_builtin_collect_file_size_limit(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 8, 30, 4, "--latency-ms 20")
    collected = collect_sh(ctx, url, "string_match", 4, wrap="ulimit -f 8; ulimit -a | grep -i 'file size'")
    lines = text_of(run / "rollouts.jsonl").count("\n")
    if collected == 0 and lines == 32:
        raise failed(ctx, "collect completed")
    return (f"`gym-pipeline materialize` (8 tasks x 4); `gym-pipeline collect` with `ulimit -f 8`: exit {collected}, "
            f"{lines} complete lines of 32.")


@case("infra_gym_profile_file_size_limit", "infra", ["ulimit"],
      "`gym eval profile` ran from a shell whose file-size limit is 1 KB (ulimit -f 1, a batch profile's default), "
      "so writing the reward profile failed (File too large) although the collection had completed",
      netns=True)
def infra_gym_profile_file_size_limit(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 74, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 3, 4))
    profiled = ctx.sh(f"( ulimit -f 1; ulimit -a | grep -i 'file size'; {GYM} eval profile --inputs "
                      f"{run}/rollouts_materialized_inputs.jsonl --rollouts {run}/rollouts.jsonl )", "eval_profile.log",
                      timeout=300)
    stop_gym(ctx, env_start, policy)
    if evaluated or len(rows_of(run / "rollouts.jsonl")) != 15 or profiled == 0:
        raise failed(ctx, f"eval {evaluated}, profile {profiled}")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve` (5 tasks x 3, all 15) exit 0; "
            f"`gym eval profile` with `ulimit -f 1` exit {profiled}.")


@case("infra_gym_eval_run_output_on_full_tmpfs_midway", "infra", ["space"],
      "RUN/results, where `gym eval run` wrote its rollouts, is a 24 KB scratch tmpfs already half filled by "
      "another job's checkpoint shards, so it filled up part way through the collection (No space left on device)",
      netns=True)
def infra_gym_eval_run_output_on_full_tmpfs_midway(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 80, "--latency-ms 30")
    results = run / "results"
    results.mkdir()
    ctx.sh(f"mount -t tmpfs -o size=24k tmpfs {results} && dd if=/dev/zero of={results}/.other_job_shard bs=4k "
           f"count=3; df -h {results}", "scratch.log")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval(ctx, overrides, agent_args(data, results / "rollouts.jsonl", 4, 4))
    ctx.sh(f"df -h {results}; ls -la {results}", "scratch_after.log")
    stop_gym(ctx, env_start, policy)
    (results / ".other_job_shard").unlink(missing_ok=True)
    copy_out_of_mount(ctx, results)
    if evaluated == 0 and text_of(results / "rollouts.jsonl").count("\n") == 24:
        raise failed(ctx, "collection fit")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve --output RUN/results/"
            f"rollouts.jsonl` (6 tasks x 4) on a 24 KB tmpfs with 12 KB taken by another job: exit {evaluated}.")


@case("healthy_stage_mcqa_sweep_with_slow_policy", "healthy", [],
      "nothing is wrong: a sweep partition (mcqa) ran its materialize, collect and profile stages against a model "
      "server answering in 0.4 s; every rollout was collected and profiled")
def healthy_stage_mcqa_sweep_with_slow_policy(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("mcqa", 6, start=40, folder=run, name="mcqa.jsonl")
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 400")
    sweep = write_sweep(ctx, "mcqa", data, checkpoint, num_repeats=3, concurrency=6)
    codes = [stage(ctx, sweep, "materialize", checkpoint, "mcqa"),
             stage(ctx, sweep, "collect", checkpoint, "mcqa", *served(url)),
             stage(ctx, sweep, "profile", checkpoint, "mcqa")]
    if any(codes) or len(unique_keys(run / "rollouts.jsonl")) != 18:
        raise failed(ctx, f"exit {codes}")
    return f"sweep stages materialize/collect/profile (mcqa, 6 tasks x 3, 400 ms policy, all 18): exit {codes}."


if __name__ == "__main__":
    sys.exit(main("eighth_held_out", __file__, __doc__))
