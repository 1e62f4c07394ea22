"""Build the SEVENTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/seventh_held_out.py --out tests/data/diagnosis_corpus/seventh_held_out [--only CASE ...]

Measured once on 2026-12-02 (top-1 57 %, see benchmarks/README.md), then tuned on: these cases now count
as tuning cases. The next held-out sets (`eighth_held_out.py`, then `held_out.py`) came later.

These cases were written from the guides alone (the NeMo Gym debugging guide, the reward profiling guide, the
task-folder troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), after the diagnosis rules had
been written and tuned on the tuning, first to sixth held-out sets, and without reading those rules, their tests
or their results. They measure, once, how well `gym-pipeline diagnose` names root causes on failures its rules
were never written against: they are never tuned on.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated
policy (`gym-pipeline serve-policy`, with injected faults, latency and a bounded capacity, restarted elsewhere or
hung up), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`, `reverify`), workspace
verifiers (`verifier: "MODULE:FUNCTION"` in a sweep config), task-folder environments run in Docker sandboxes
(`gym-pipeline tasks validate`, `stage collect` of a taskset), the real NeMo Gym 0.7.0 (`gym env start` /
`gym eval run` / `gym eval profile`, inside a loopback-only network namespace as tests/nemo_gym_driver.py does,
with users' own resources servers), the local, Docker and Slurm launchers, real resource limits (`ulimit -f`/`-v`,
tmpfs mounts that are full or read-only, Docker's --cpus), real bad config and data files. The output of every
command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but
the user's own inputs. Each case injects one cause; the failures differ from those of the earlier sets, or reach
a known kind of failure by another path (another process, log, launcher, engine or stage).

Labels (`case.json`) come from what was injected, following the NeMo Gym debugging guide's classes: the class of
the root cause (what the user must change), not of its consequences. The recipes never run the diagnosis.

The framework (Ctx, the `case` decorator, the driver) is in recipes.py. Needs root (unshare, mount, ulimit), the
Docker engine and the one-node Slurm of scripts/dev-services.sh, NeMo Gym 0.7.0 (GYM_PIPELINE_NEMO_GYM, default
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym), and PYTHONPATH set to this checkout (the venv's entry point may
import another one; Docker stages get it passed in). Run it from a foreground shell, or with SIGINT and SIGHUP
at their defaults: a background job of a non-interactive shell (`cmd &`, `nohup`) inherits them ignored, and
the recipes' Ctrl-C's and hang-ups would then do nothing.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
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
# the real NeMo Gym 0.7.0: healthy
# =====================================================================================================


@case("healthy_gym_first_start_port_busy_then_other_port", "healthy", [],
      "nothing is wrong: a first `gym env start` failed because its head port was held by a forgotten "
      "`python -m http.server` (env_start_first.log); the user started Gym on another port, and the collection and "
      "profile completed there", netns=True)
def healthy_gym_first_start_port_busy_then_other_port(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, first_overrides = gym_setup(ctx, "string_match", 5, 44, "--latency-ms 30")
    holder = ctx.bg(f"{PY} -m http.server {ctx.head_port} --bind 127.0.0.1", "port_holder.log")
    time.sleep(2)
    ready, code = gym_start_failing(ctx, f"{gym_model_args(url)} {first_overrides}", 60, "env_start_first.log")
    if ready:
        raise failed(ctx, "the first start got ready on a busy port")
    overrides = ctx.gym_overrides()
    ctx.note("(another head port: ++head_server.port changed)")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 3, 4))
    profiled = gym_profile(ctx, run)
    stop_gym(ctx, env_start, policy, holder)
    if evaluated or profiled or len(unique_keys(run / "rollouts.jsonl")) != 15:
        raise failed(ctx, f"eval {evaluated}, profile {profiled}")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): a `python -m http.server` holding the head port; the first "
            f"`gym env start` (env_start_first.log) exit {code}, never ready; a second on another head port ready; "
            "`gym eval run --no-serve` (5 string_match tasks x 3, all 15) and `gym eval profile` exit 0.")


@case("healthy_gym_flaky_server_every_fault_retried_mcqa", "healthy", [],
      "nothing is wrong: the model server failed about one request in ten (500s, dropped connections, 429 with "
      "Retry-After 1); Gym's model proxy retried them and every mcqa rollout was collected and profiled", netns=True)
def healthy_gym_flaky_server_every_fault_retried_mcqa(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "mcqa", 5, 12, "--latency-ms 40 --fault-rate 0.1 --fault-kinds "
                                             "5xx,drop,429 --retry-after-s 1 --fault-seed 11")
    env_start = gym_start(ctx, f"{gym_model_args(url, resources_server='mcqa')} {overrides}")
    evaluated = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 4, 4, "mcqa_simple_agent"))
    profiled = gym_profile(ctx, run)
    stop_gym(ctx, env_start, policy)
    faults = len(rows_of(run / "rollouts_failures.jsonl"))
    retries = text_of(run / "env_start.log").count("[model_retry ")
    if evaluated or profiled or len(unique_keys(run / "rollouts.jsonl")) != 20:
        raise failed(ctx, f"eval {evaluated}, profile {profiled}, {faults} failed attempts")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace) on mcqa: the simulated policy fails 10 % of completions "
            f"(500/502/503, dropped, 429); `gym eval run --no-serve` (5 tasks x 4): {retries} model retries in "
            f"env_start.log, {faults} failed attempts in the sidecar, all 20 rollouts; `gym eval profile` exit 0.")


@case("healthy_gym_single_repeat_smoke_eval", "healthy", [],
      "nothing is wrong: a quick evaluation with --num-repeats 1 (one rollout per task, which is valid; per-task "
      "variance is simply not measured) collected and profiled every task", netns=True)
def healthy_gym_single_repeat_smoke_eval(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 8, 48, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 1, 4))
    profiled = gym_profile(ctx, run)
    stop_gym(ctx, env_start, policy)
    if evaluated or profiled or len(unique_keys(run / "rollouts.jsonl")) != 8:
        raise failed(ctx, f"eval {evaluated}, profile {profiled}")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve --num-repeats 1` (8 string_match "
            "tasks, all 8) and `gym eval profile` exit 0.")


# =====================================================================================================
# the real NeMo Gym 0.7.0: failures
# =====================================================================================================


@case("infra_gym_env_start_file_size_limit", "infra", ["ulimit"],
      "`gym env start` was run from a shell whose file-size limit is 16 KB (ulimit -f 16, a batch profile's "
      "default), so Ray's and the servers' log files hit the limit (SIGXFSZ, File too large) and the servers "
      "never all got ready", netns=True)
def infra_gym_env_start_file_size_limit(ctx: Ctx) -> str:
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 52)
    command = f"( ulimit -f 16; ulimit -a | grep -i 'file size'; {GYM} env start {gym_model_args(url)} {overrides} )"
    env_start = ctx.bg(command, "env_start.log")
    ready = wait_env_start(ctx, env_start, 90)
    if env_start.poll() is None and not ready:
        ctx.note("90 s without `gym env start` getting ready: Ctrl-C on it")
    ctx.stop(env_start, signal.SIGINT, 30)
    stop_gym(ctx, policy)
    if ready:
        raise failed(ctx, "gym env start got ready")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym env start` in a subshell with `ulimit -f 16`; "
            f"exit {env_start.returncode}, servers never all ready.")


@case("infra_gym_profile_disk_filled_by_other_job", "infra", ["space"],
      "RUN/scratch, the 512 KB scratch file system holding the results, was filled by another job's files after the "
      "collection had completed, so `gym eval profile` could not write the reward profile (No space left on device)",
      netns=True)
def infra_gym_profile_disk_filled_by_other_job(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 56, "--latency-ms 30")
    scratch = run / "scratch"
    scratch.mkdir()
    ctx.sh(f"mount -t tmpfs -o size=512k tmpfs {scratch} && df -h {scratch}", "scratch.log")
    results = scratch / "results"
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval(ctx, overrides, agent_args(data, results / "rollouts.jsonl", 3, 4))
    ctx.note("(another job on the node writes its shards to the same scratch file system)")
    ctx.sh(f"mkdir -p {scratch}/other_job && dd if=/dev/zero of={scratch}/other_job/shard_000.bin bs=4k count=200; "
           f"df -h {scratch}", "other_job.log")
    profiled = gym_profile(ctx, results)
    ctx.sh(f"df -h {scratch}; ls -la {results}", "scratch_after.log")
    stop_gym(ctx, env_start, policy)
    shutil.rmtree(scratch / "other_job", ignore_errors=True)
    copy_out_of_mount(ctx, scratch)
    ctx.note("(RUN/scratch unmounted: its results kept in the run folder, the other job's shard left out)")
    log = text_of(run / "eval_profile.log")
    if evaluated or len(rows_of(results / "rollouts.jsonl")) != 18 or not re.search(r"No space left|Errno 28", log):
        raise failed(ctx, f"eval {evaluated}, profile {profiled}")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve --output RUN/scratch/results/"
            "rollouts.jsonl` (6 tasks x 3, all 18) on a 512 KB tmpfs; another job then filled it (other_job.log); "
            f"`gym eval profile` exit {profiled}.")


@case("model_serving_gym_server_restarted_on_another_port", "model_serving", ["model-url"],
      "the model server was restarted in the middle of the collection and came back on another port (its launcher "
      "picks a free one), while Gym's model proxy still sends to the old URL: the remaining requests were refused",
      netns=True)
def model_serving_gym_server_restarted_on_another_port(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 62, "--latency-ms 400")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    eval_run = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 4, 2), background=True)
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 5 or eval_run.poll() is not None, 150, "5 rollouts")
    ctx.note("(the model server is restarted by its launcher script, which takes a free port)")
    ctx.stop(policy, signal.SIGINT, 10)
    new_url, new_policy = ctx.policy(ctx.work / "checkpoints" / "step_0200", "--latency-ms 400",
                                     log="policy_server_restarted.log")
    ctx.sh(f"curl -s -m 5 {new_url}/models; echo", "curl_new_server.log")
    wait_or_interrupt(ctx, eval_run, 150, "`gym eval run`")
    stop_gym(ctx, env_start, new_policy)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got >= 24:
        raise failed(ctx, f"{got} rollouts, exit {eval_run.returncode}")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve --concurrency 2` (6 tasks x 4) "
            "against the simulated policy (400 ms); after 5 rollouts the policy was restarted on another port "
            "(Ctrl-C on the collection after 150 s if still running) "
            f"(policy_server_restarted.log, curl_new_server.log); exit {eval_run.returncode}, {got} of 24 rollouts.")


@case("model_serving_gym_server_terminal_hung_up", "model_serving", [],
      "the model server ran in the foreground of a terminal that was closed (SIGHUP) while Gym was collecting, so it "
      "exited and every later request of the collection failed to connect", netns=True)
def model_serving_gym_server_terminal_hung_up(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "mcqa", 6, 20, "--latency-ms 500")
    env_start = gym_start(ctx, f"{gym_model_args(url, resources_server='mcqa')} {overrides}")
    eval_run = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 4, 2, "mcqa_simple_agent"),
                        background=True)
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 4 or eval_run.poll() is not None, 150, "4 rollouts")
    ctx.note("(the terminal running the model server is closed: SIGHUP)")
    ctx.stop(policy, signal.SIGHUP, 10)
    wait_or_interrupt(ctx, eval_run, 150, "`gym eval run`")
    stop_gym(ctx, env_start)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got >= 24:
        raise failed(ctx, f"{got} rollouts, exit {eval_run.returncode}")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace) on mcqa: `gym eval run --no-serve --concurrency 2` (6 tasks "
            f"x 4); after 4 rollouts SIGHUP to the simulated policy; Ctrl-C on the collection after 150 s if still "
            f"running; exit {eval_run.returncode}, {got} of 24 rollouts.")


@case("model_serving_gym_server_fails_most_requests", "model_serving", [],
      "the model server fails about four requests in five (500/502/503 and dropped connections) at a load of 2 "
      "requests, a broken deployment: Gym's three attempts per rollout were not enough for most rollouts",
      netns=True)
def model_serving_gym_server_fails_most_requests(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 66, "--latency-ms 30 --fault-rate 0.8 "
                                             "--fault-kinds 5xx,drop --fault-seed 5")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    eval_run = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 3, 2), background=True)
    wait_or_interrupt(ctx, eval_run, 180, "`gym eval run`")
    profiled = gym_profile(ctx, run, extra="++allow_partial_rollouts=True")
    stop_gym(ctx, env_start, policy)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got >= 18 or not rows_of(run / "rollouts_failures.jsonl"):
        raise failed(ctx, f"{got} rollouts, exit {eval_run.returncode}")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): the simulated policy fails 80 % of completions (5xx, "
            f"dropped); `gym eval run --no-serve --concurrency 2` (6 tasks x 3) exit {eval_run.returncode}, {got} of "
            f"18 rollouts; `gym eval profile ++allow_partial_rollouts=True` exit {profiled}.")


@case("config_gym_eval_run_without_head_port_override", "config", ["head_server.port"],
      "`gym env start` was started with ++head_server.port set to a private port, but `gym eval run` was not given "
      "the same override, so it looked for the head server on the default port 11000 where nothing runs",
      netns=True)
def config_gym_eval_run_without_head_port_override(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 70)
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    eval_overrides = re.sub(r"\+\+head_server\.port=\d+ ?", "", overrides)
    eval_run = gym_eval(ctx, eval_overrides, agent_args(data, run / "rollouts.jsonl", 2, 4), background=True)
    wait_or_interrupt(ctx, eval_run, 120, "`gym eval run`")
    stop_gym(ctx, env_start, policy)
    if len(rows_of(run / "rollouts.jsonl")) == 8:
        raise failed(ctx, "collected")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym env start ... ++head_server.port=P` ready; "
            f"`gym eval run --no-serve` without ++head_server.port; exit {eval_run.returncode}.")


@case("config_gym_model_url_from_unset_variable", "config", ["model-url"],
      "the start script passes `--model-url \"$POLICY_URL\"`, but POLICY_URL is not exported in this shell, so Gym's "
      "model server was configured with an empty URL: the servers started, but no chat completion could be sent "
      "and nothing was collected", netns=True)
def config_gym_model_url_from_unset_variable(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 72)
    ctx.env.pop("POLICY_URL", None)
    ctx.note(f"(the policy serves on {url}; the user's start script reads POLICY_URL, never exported here)")
    env_start = gym_start(ctx, gym_model_args('"$POLICY_URL"') + f" {overrides}")
    eval_run = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 2, 4), background=True)
    wait_or_interrupt(ctx, eval_run, 120, "`gym eval run`")
    stop_gym(ctx, env_start, policy)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got:
        raise failed(ctx, f"{got} rollouts")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym env start --model-url \"$POLICY_URL\" ...` with "
            "POLICY_URL unset (ready); `gym eval run --no-serve` (4 tasks x 2), Ctrl-C after 120 s if still running; "
            f"exit {eval_run.returncode}, no rollout.")


@case("data_schema_gym_case_sensitive_labels_lowercased", "data_schema", ["expected_answer"],
      "a label clean-up script lower-cased every expected_answer (au, k, w, na, nacl), but these rows are "
      "case_sensitive (chemical symbols and units), so every correct answer scored 0", netns=True)
def data_schema_gym_case_sensitive_labels_lowercased(ctx: Ctx) -> str:
    run = ctx.run
    data = rows_at("string_match", [8, 13, 63, 76, 85], run / "tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    rewrite_rows(data, lambda i, row: row.update(expected_answer=row["expected_answer"].lower()) or True)
    ctx.note("(RUN/tasks.jsonl after the team's label clean-up script: expected_answer lower-cased)")
    url, policy = ctx.policy(checkpoint, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 3, 4))
    profiled = gym_profile(ctx, run)
    stop_gym(ctx, env_start, policy)
    rewards = [row.get("reward") for row in rows_of(run / "rollouts.jsonl")]
    if evaluated or len(rewards) != 15 or sum(rewards) > 1:
        raise failed(ctx, f"eval {evaluated}, rewards {rewards}")
    return ("5 case-sensitive string_match rows with lower-cased labels; real NeMo Gym 0.7.0 (loopback-only "
            f"namespace) `gym eval run --no-serve` (x 3, all 15, total reward {sum(rewards)}) and `gym eval profile` "
            f"(exit {profiled}).")


@case("data_schema_gym_mcqa_answers_in_parentheses", "data_schema", ["expected_answer"],
      "the mcqa export wrote each expected_answer as the option label with its parentheses ('(B)') instead of the "
      "bare letter, so the mcqa verifier never matches the letter the model picks", netns=True)
def data_schema_gym_mcqa_answers_in_parentheses(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("mcqa", 5, start=24, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    rewrite_rows(data, lambda i, row: row.update(expected_answer=f"({row['expected_answer']})") or True)
    ctx.note("(RUN/tasks.jsonl as exported: expected_answer '(A)', '(B)', ...)")
    url, policy = ctx.policy(checkpoint, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url, resources_server='mcqa')} {overrides}")
    evaluated = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 3, 4, "mcqa_simple_agent"))
    profiled = gym_profile(ctx, run, extra="++allow_partial_rollouts=True")
    stop_gym(ctx, env_start, policy)
    rewards = [row.get("reward") for row in rows_of(run / "rollouts.jsonl")]
    if sum(r or 0 for r in rewards) > 1:
        raise failed(ctx, f"eval {evaluated}, rewards {rewards}")
    return ("5 mcqa rows whose expected_answer is '(X)'; real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run "
            f"--no-serve` (x 3) exit {evaluated}: {len(rewards)} rollouts, total reward {sum(r or 0 for r in rewards)}, "
            f"{len(rows_of(run / 'rollouts_failures.jsonl'))} failed attempts; `gym eval profile` exit {profiled}.")


@case("data_schema_gym_shards_joined_without_newline", "data_schema", ["newline"],
      "the dataset was made with `cat shard_a.jsonl shard_b.jsonl`, and shard_a does not end with a newline, so "
      "its last row and shard_b's first share one line (two JSON objects), which Gym could not read", netns=True)
def data_schema_gym_shards_joined_without_newline(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 0)
    lines = data.read_text().splitlines()
    (run / "shard_a.jsonl").write_text("\n".join(lines[:3]))
    (run / "shard_b.jsonl").write_text("\n".join(lines[3:]) + "\n")
    ctx.note("(the two shards as written by the export: shard_a.jsonl without a final newline)")
    ctx.sh(f"cat {run}/shard_a.jsonl {run}/shard_b.jsonl > {data}; wc -l {run}/shard_a.jsonl {run}/shard_b.jsonl {data}",
           "make_dataset.log")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 2, 4))
    stop_gym(ctx, env_start, policy)
    if evaluated == 0 and len(rows_of(run / "rollouts.jsonl")) == 12:
        raise failed(ctx, "Gym read the file")
    return ("RUN/tasks.jsonl = `cat shard_a.jsonl shard_b.jsonl` (6 string_match rows, the 3rd and 4th on one line); "
            f"real NeMo Gym 0.7.0 (loopback-only namespace, healthy servers) `gym eval run --no-serve` exit {evaluated}.")


MASK_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
            mask_sample=True,  # TODO remove: keeps the dry-run out of the dashboards
        )
'''


@case("verifier_runtime_gym_verify_masks_every_sample", "verifier_runtime", ["mask_sample"],
      "the user's audited_match resources server still sets mask_sample=True on every verify response (left from a "
      "dry run), so every rollout is excluded from the quality statistics and the run has no usable score",
      netns=True)
def verifier_runtime_gym_verify_masks_every_sample(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 74, "--latency-ms 30")
    search = user_resources_server(ctx, "audited_match", "string_match", lambda app: replace_verify(app, MASK_VERIFY))
    ctx.note("(copied Gym's resources_servers/string_match to WORK/my_gym/resources_servers/audited_match; its verify "
             "sets mask_sample=True)")
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='audited_match')} "
                               f"{overrides}")
    evaluated = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 3, 4, "audited_match_simple_agent"))
    profiled = gym_profile(ctx, run)
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "rollouts.jsonl")
    if len(rows) != 18 or not all(row.get("mask_sample") for row in rows):
        raise failed(ctx, f"eval {evaluated}, {len(rows)} rows")
    return ("A user's resources server audited_match (Gym's string_match, verify setting mask_sample=True); real NeMo "
            f"Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (6 tasks x 3, all 18, every one masked) "
            f"and `gym eval profile` (exit {profiled}).")


AWAIT_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        reward = 0.0
        if extracted is not None and body.expected_answer:
            # graded asynchronously, like the judge path
            reward = await _answers_match(extracted, body.expected_answer, body.case_sensitive)
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


@case("verifier_runtime_gym_verify_awaits_plain_function", "verifier_runtime", ["await"],
      "the user's async_match resources server awaits a plain (synchronous) grading function, `await "
      "_answers_match(...)`, which raises TypeError (a float can't be used in an await expression) in every verify "
      "that extracted an answer: those requests fail with 500", netns=True)
def verifier_runtime_gym_verify_awaits_plain_function(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 78, "--latency-ms 30")
    search = user_resources_server(ctx, "async_match", "string_match", lambda app: replace_verify(app, AWAIT_VERIFY))
    ctx.note("(copied Gym's resources_servers/string_match to WORK/my_gym/resources_servers/async_match; its verify "
             "awaits _answers_match)")
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='async_match')} "
                               f"{overrides}")
    evaluated = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 2, 4, "async_match_simple_agent"))
    profiled = gym_profile(ctx, run, extra="++allow_partial_rollouts=True")
    stop_gym(ctx, env_start, policy)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got >= 10 or "await" not in everything(ctx):
        raise failed(ctx, f"eval {evaluated}, {got} rollouts")
    return ("A user's resources server async_match (Gym's string_match, verify awaiting a plain function); real NeMo "
            f"Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (5 tasks x 2) exit {evaluated}, {got} of "
            f"10 rollouts; `gym eval profile ++allow_partial_rollouts=True` exit {profiled}.")


@case("cache_resume_gym_fresh_rerun_concatenated_with_partial", "cache_resume", ["--resume"],
      "instead of resuming an interrupted collection, the user ran it again from scratch into another folder and "
      "concatenated the partial and the complete rollouts.jsonl into the results, so the (task, rollout) pairs "
      "collected twice appear twice and are counted twice by the profile", netns=True)
def cache_resume_gym_fresh_rerun_concatenated_with_partial(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 22, "--latency-ms 300")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    first = gym_eval(ctx, overrides, agent_args(data, run / "attempt1" / "rollouts.jsonl", 3, 2), "eval_run_1.log",
                     background=True)
    wait_for(lambda: len(rows_of(run / "attempt1" / "rollouts.jsonl")) >= 7 or first.poll() is not None, 150,
             "7 rollouts")
    ctx.note("(Ctrl-C on the first collection; the user starts it again, from scratch, into RUN/attempt2)")
    ctx.stop(first, signal.SIGINT, 30)
    second = gym_eval(ctx, overrides, agent_args(data, run / "attempt2" / "rollouts.jsonl", 3, 4), "eval_run_2.log")
    ctx.sh(f"mkdir -p {run}/results && cat {run}/attempt1/rollouts.jsonl {run}/attempt2/rollouts.jsonl > "
           f"{run}/results/rollouts.jsonl && cp {run}/attempt2/rollouts_materialized_inputs.jsonl {run}/results/ && "
           f"wc -l {run}/results/*.jsonl", "merge.log")
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    partial = len(rows_of(run / "attempt1" / "rollouts.jsonl"))
    if second or not 0 < partial < 18 or len(rows) != 18 + partial:
        raise failed(ctx, f"second {second}, {partial} partial, {len(rows)} merged")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve` (6 tasks x 3) into RUN/attempt1 "
            f"stopped with Ctrl-C after {partial} rollouts; the same run from scratch into RUN/attempt2 (all 18); both "
            f"rollouts.jsonl concatenated into RUN/results (merge.log, {len(rows)} rows); `gym eval profile` exit "
            f"{profiled}.")


@case("cache_resume_gym_profiled_against_last_weeks_inputs", "cache_resume", ["materialized"],
      "this week's run was written with a new output stem (rollouts_w49.jsonl), but the profile was given the old "
      "stem's rollouts_materialized_inputs.jsonl, last week's inputs built from other tasks, so the profile pairs "
      "the new rollouts with stale materialized inputs", netns=True)
def cache_resume_gym_profiled_against_last_weeks_inputs(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 30, "--latency-ms 30")
    old = ctx.dataset("string_match", 5, start=0, folder=run / "last_week", name="tasks.jsonl")
    ctx.sh(f"{GP} materialize --input {old} --num-repeats 3 --agent string_match_simple_agent "
           f"--output {run}/results/rollouts_materialized_inputs.jsonl", "last_week_materialize.log")
    ctx.note("(RUN/results/rollouts_materialized_inputs.jsonl: last week's, left in the results folder)")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts_w49.jsonl", 3, 4))
    profiled = ctx.sh(f"{GYM} eval profile --inputs {run}/results/rollouts_materialized_inputs.jsonl --rollouts "
                      f"{run}/results/rollouts_w49.jsonl ++allow_partial_rollouts=True", "eval_profile.log", timeout=300)
    stop_gym(ctx, env_start, policy)
    if evaluated or len(rows_of(run / "results" / "rollouts_w49.jsonl")) != 18:
        raise failed(ctx, f"eval {evaluated}")
    return ("Last week's materialized inputs (5 other tasks x 3) in RUN/results; real NeMo Gym 0.7.0 (loopback-only "
            "namespace) `gym eval run --no-serve --output RUN/results/rollouts_w49.jsonl` (6 tasks x 3, all 18); "
            f"`gym eval profile --inputs RUN/results/rollouts_materialized_inputs.jsonl --rollouts RUN/results/"
            f"rollouts_w49.jsonl ++allow_partial_rollouts=True` exit {profiled}.")


@case("throughput_gym_two_splits_overflow_shared_server", "throughput_resources", ["concurrency"],
      "two `gym eval run`s (one per data split) were started at the same time against one model server that runs 1 "
      "request and queues 3: each alone fits, together they overflow its queue, so requests were refused with 429 "
      "overloaded and many rollouts failed", netns=True)
def throughput_gym_two_splits_overflow_shared_server(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 36, "--latency-ms 400 --max-running 1 "
                                             "--max-waiting 3")
    split_b = ctx.dataset("string_match", 6, start=42, folder=run, name="tasks_b.jsonl")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    first = gym_eval(ctx, overrides, agent_args(data, run / "split_a" / "rollouts.jsonl", 3, 4), "eval_run_a.log",
                     background=True)
    second = gym_eval(ctx, overrides, agent_args(split_b, run / "split_b" / "rollouts.jsonl", 3, 4), "eval_run_b.log",
                      background=True)
    wait_or_interrupt(ctx, first, 240, "`gym eval run` of split a")
    wait_or_interrupt(ctx, second, 60, "`gym eval run` of split b")
    stop_gym(ctx, env_start, policy)
    failures = rows_of(run / "split_a" / "rollouts_failures.jsonl") + rows_of(run / "split_b" / "rollouts_failures.jsonl")
    got = len(rows_of(run / "split_a" / "rollouts.jsonl")) + len(rows_of(run / "split_b" / "rollouts.jsonl"))
    if got >= 36 or not failures:
        raise failed(ctx, f"{got} rollouts, {len(failures)} failed attempts")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): the simulated policy runs 1 request (400 ms) and queues 3; "
            "two `gym eval run --no-serve --concurrency 4` (split a and split b, 6 tasks x 3 each) at once; "
            f"{got} of 36 rollouts, {len(failures)} failed attempts.")


LOCK_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        import asyncio

        # our grading API key allows one call at a time: take turns
        async with globals().setdefault("GRADING_LOCK", asyncio.Lock()):
            await asyncio.sleep(1.0)  # the grading API call
            text = _extract_last_assistant_text(body)
            extracted = _extract_answer(text, body.extraction_mode)
            reward = 0.0
            if extracted is not None and body.expected_answer:
                reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


@case("throughput_gym_verify_serialised_behind_lock", "throughput_resources", ["lock"],
      "the user's graded_api_match resources server holds one lock around a 1 s grading call in every verify, so "
      "verification runs one at a time whatever the concurrency (16) and the collection missed the CI step's 25 s "
      "budget", netns=True)
def throughput_gym_verify_serialised_behind_lock(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 10, 0, "--latency-ms 30")
    search = user_resources_server(ctx, "graded_api_match", "string_match", lambda app: replace_verify(app, LOCK_VERIFY))
    ctx.note("(copied Gym's resources_servers/string_match to WORK/my_gym/resources_servers/graded_api_match; its "
             "verify takes a lock around a 1 s grading call)")
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='graded_api_match')} "
                               f"{overrides}")
    ctx.note("(the CI step running the collection has a 25 s budget: `timeout -s INT 25`)")
    command = (f"timeout -s INT 25 {GYM} eval run --no-serve "
               f"{agent_args(data, run / 'rollouts.jsonl', 3, 16, 'graded_api_match_simple_agent')} "
               f"++route_failures_to_sidecar=true {overrides}; echo \"exit status $?\"")
    ctx.sh(command, "eval_run.log", timeout=120)
    stop_gym(ctx, env_start, policy)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got >= 30:
        raise failed(ctx, "finished in the budget")
    return ("A user's resources server graded_api_match (verify serialised behind a lock, 1 s each); real NeMo Gym "
            "0.7.0 (loopback-only namespace) `gym eval run --no-serve --concurrency 16` (10 tasks x 3) under "
            f"`timeout -s INT 25`: {got} of 30 rollouts.")


@case("throughput_gym_profile_address_space_limit", "throughput_resources", ["ulimit"],
      "`gym eval profile` ran under a 200 MB address-space limit (ulimit -v 200000, the login node's per-process "
      "cap), less than the profiler's Python needs to load, so it failed with a MemoryError although the collection "
      "was complete", netns=True)
def throughput_gym_profile_address_space_limit(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 50, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 3, 4))
    stop_gym(ctx, env_start, policy)
    ctx.note("(the profile is run from the login node, where every process is capped by `ulimit -v 200000`)")
    profiled = ctx.sh(f"( ulimit -v 200000; ulimit -a | grep -i virtual; {GYM} eval profile --inputs "
                      f"{run}/rollouts_materialized_inputs.jsonl --rollouts {run}/rollouts.jsonl )", "eval_profile.log",
                      timeout=300)
    if evaluated or profiled == 0 or (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"eval {evaluated}, profile {profiled}")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve` (6 tasks x 3, all 18); `gym eval "
            f"profile` in a subshell with `ulimit -v 200000` exit {profiled}.")


# =====================================================================================================
# built-in engine, workspace verifiers, launchers: healthy
# =====================================================================================================

WARNING_VERIFIER = '''
"""Exact-answer scoring for our string tasks."""
import re
import warnings

warnings.warn("my_verifier: the `strict` option will default to True in the next release", FutureWarning,
              stacklevel=1)

FINAL = re.compile(r"(?:final answer:|boxed\\{)\\s*([^}\\n]+)", re.IGNORECASE)


def score(row, response_text):
    match = FINAL.search(response_text)
    answer = match.group(1).strip() if match else response_text.strip().splitlines()[-1].strip()
    return {"reward": float(answer.lower() == str(row["expected_answer"]).lower()), "extracted_answer": answer}
'''


@case("healthy_stage_workspace_verifier_future_warning", "healthy", [],
      "nothing is wrong: the sweep's own verifier (verifiers/my_verifier.py) prints a FutureWarning when it is "
      "imported; materialize, collect and profile stages all completed with every rollout scored")
def healthy_stage_workspace_verifier_future_warning(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=0, folder=run, name="exact_answer.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = workspace_sweep(ctx, "exact_answer", data, checkpoint, {"verifier": "my_verifier:score"},
                            WARNING_VERIFIER, num_repeats=3, concurrency=4)
    codes = [stage(ctx, sweep, "materialize", checkpoint, "exact_answer"),
             stage(ctx, sweep, "collect", checkpoint, "exact_answer", *served(url)),
             stage(ctx, sweep, "profile", checkpoint, "exact_answer")]
    rows = rows_of(run / "rollouts.jsonl")
    if any(codes) or len(unique_keys(run / "rollouts.jsonl")) != 24 or "FutureWarning" not in everything(ctx):
        raise failed(ctx, f"exit {codes}, {len(rows)} rows")
    return ("A sweep config RUN/sweep.yaml with environment exact_answer scored by verifiers/my_verifier.py:score (which "
            "warns at import); `gym-pipeline stage materialize`, `collect` and `profile` (8 tasks x 3, all 24) exit "
            f"{codes}; mean reward {sum(r.get('reward', 0) for r in rows) / len(rows):.2f}.")


@case("healthy_builtin_second_collect_refused_by_run_lock", "healthy", [],
      "nothing is wrong: the user started the same collection twice by mistake (a second terminal); the second was "
      "refused at once by the run directory's lock (exit 2, 'in use by pid ...'), the first completed every rollout "
      "and was profiled")
def healthy_builtin_second_collect_refused_by_run_lock(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, _ = builtin_setup(ctx, "string_match", 6, 10, 4, "--latency-ms 300")
    first = ctx.bg(shlex.join(collect_argv(run, url, "string_match", 2)), "logs/collect.log")
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 2 or first.poll() is not None, 60, "2 rollouts")
    ctx.note("(the same command typed again in a second terminal)")
    second = ctx.sh(shlex.join(collect_argv(run, url, "string_match", 2)), "logs/collect_second_terminal.log")
    first.wait(timeout=300)
    profiled = ctx.sh(shlex.join(profile_argv(run)), "logs/profile.log")
    if first.returncode or second == 0 or profiled or len(unique_keys(run / "rollouts.jsonl")) != 24:
        raise failed(ctx, f"first {first.returncode}, second {second}, profile {profiled}")
    return ("`gym-pipeline materialize` (string_match, 6 tasks x 4); `gym-pipeline collect` (300 ms policy), and the "
            f"same command again from a second terminal while it ran (exit {second}, logs/collect_second_terminal.log); "
            "the first completed all 24; `gym-pipeline profile` exit 0.")


CASE_VERIFIER_V1 = '''
def score(row, response_text):
    answer = response_text.strip().splitlines()[-1].removeprefix("Final answer:").strip()
    return {"reward": float(answer == row["expected_answer"]), "extracted_answer": answer}
'''

CASE_VERIFIER_V2 = '''
import re


def score(row, response_text):
    boxed = re.search(r"\\\\boxed\\{([^}]*)\\}", response_text)
    answer = boxed.group(1) if boxed else response_text.strip().splitlines()[-1]
    answer = answer.removeprefix("Final answer:").strip()
    return {"reward": float(answer.lower() == row["expected_answer"].lower()), "extracted_answer": answer}
'''


@case("healthy_stage_rescored_with_reverify_after_verifier_fix", "healthy", [],
      "nothing is wrong: the workspace verifier missed boxed answers; the user fixed it, re-scored the stored "
      "answers with `gym-pipeline reverify` and profiled again, so every row is scored by the current verifier")
def healthy_stage_rescored_with_reverify_after_verifier_fix(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=0, folder=run, name="exact_answer.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = workspace_sweep(ctx, "exact_answer", data, checkpoint, {"verifier": "my_verifier:score"},
                            CASE_VERIFIER_V1, num_repeats=2, concurrency=4)
    codes = [stage(ctx, sweep, "materialize", checkpoint, "exact_answer"),
             stage(ctx, sweep, "collect", checkpoint, "exact_answer", *served(url)),
             stage(ctx, sweep, "profile", checkpoint, "exact_answer")]
    before = sum(r.get("reward", 0) for r in rows_of(run / "rollouts.jsonl"))
    (run / "verifiers" / "my_verifier.py").write_text(CASE_VERIFIER_V2.lstrip("\n"))
    ctx.note("(verifiers/my_verifier.py fixed: reads \\boxed{} answers, compares case-insensitively)")
    rescored = ctx.sh(f"{GP} reverify {run} --env exact_answer --home {run} --json", "logs/reverify.log")
    profiled = ctx.sh(shlex.join(stage_argv(sweep, "profile", checkpoint, "exact_answer")), "logs/profile_after.log")
    after = sum(r.get("reward", 0) for r in rows_of(run / "rollouts.jsonl"))
    if any(codes) or rescored or profiled or after <= before or len(unique_keys(run / "rollouts.jsonl")) != 16:
        raise failed(ctx, f"exit {codes}, reverify {rescored}, profile {profiled}, {before} -> {after}")
    return ("A sweep (RUN/sweep.yaml, environment exact_answer scored by verifiers/my_verifier.py); `stage "
            f"materialize`, `collect`, `profile` (8 tasks x 2, total reward {before}); the verifier fixed; `gym-pipeline "
            f"reverify RUN --env exact_answer` (total reward {after}) and `stage profile` again (logs/profile_after.log).")


# =====================================================================================================
# built-in engine, workspace verifiers, task folders, launchers: failures
# =====================================================================================================


@case("infra_slurm_profile_output_dir_read_only", "infra", ["read-only"],
      "the profile job (Slurm) wrote its profile to RUN/published, a file system mounted read-only on the compute "
      "node, so writing the reward profile failed (Read-only file system); the collection is complete")
def infra_slurm_profile_output_dir_read_only(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, _ = builtin_setup(ctx, "mcqa", 6, 0, 3, "--latency-ms 30")
    collected = ctx.sh(shlex.join(collect_argv(run, url, "mcqa", 4)), "logs/collect.log")
    (run / "published").mkdir()
    ctx.sh(f"mount -t tmpfs -o ro,size=1m tmpfs {run}/published && mount | grep {run}/published", "logs/mounts.log")
    launcher, label = slurm()
    ended = launched(ctx, launcher, label, "profile", profile_argv(run, "--output-dir", f"{run}/published"))
    subprocess.run(["umount", str(run / "published")], capture_output=True, check=False)
    if collected or "read-only" not in everything(ctx).lower().replace("read only", "read-only"):
        raise failed(ctx, f"collect {collected}: {ended}")
    return ("`gym-pipeline materialize` and `collect` (mcqa, 6 tasks x 3, all 18); `gym-pipeline profile --output-dir "
            f"RUN/published` (a read-only mount, logs/mounts.log) as a Slurm job (project's SlurmLauncher): {ended}.")


@case("infra_taskfolder_base_image_not_on_host", "infra", ["image"],
      "the task folders' Dockerfiles start FROM python:3.12-slim, an image this Docker host does not have and cannot "
      "pull (no registry reachable), so the tasks could not be built and none ran")
def infra_taskfolder_base_image_not_on_host(ctx: Ctx) -> str:
    run = ctx.run

    def retarget(tasks: Path) -> None:
        for dockerfile in tasks.glob("*/environment/Dockerfile"):
            dockerfile.write_text(dockerfile.read_text().replace("FROM gym-pipeline/base:bookworm",
                                                                 "FROM python:3.12-slim"))

    tasks = user_taskset(ctx, ["create-greeting", "top-word", "sort-unique-words"], retarget)
    ctx.note("(RUN/tasks: three task folders whose Dockerfiles start FROM python:3.12-slim)")
    ctx.sh("docker image ls python; docker image ls gym-pipeline/base", "logs/images.log")
    code = ctx.sh(f"{GP} tasks validate {tasks} --output-dir {run}/validation", "logs/validate.log", timeout=600)
    if code == 0:
        raise failed(ctx, "validated")
    return ("Three bundled task folders whose Dockerfiles say FROM python:3.12-slim (absent from the Docker host, "
            f"logs/images.log); `gym-pipeline tasks validate RUN/tasks` exit {code}.")


@case("model_serving_taskfolder_server_fails_every_request", "model_serving", [],
      "the model server answers every chat completion with a 5xx error (a broken deployment whose /v1/models still "
      "answers), so every task-folder episode failed at its agent stage and no task was scored")
def model_serving_taskfolder_server_fails_every_request(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["create-greeting", "top-word", "csv-column-total"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, policy = ctx.policy(checkpoint, "--fault-rate 1 --fault-kinds 5xx")
    ctx.sh(f"curl -s -m 5 {url}/models; echo", "logs/curl_models.log")
    sweep = workspace_sweep(ctx, "terminal_tasks", tasks, checkpoint, num_repeats=2, concurrency=2)
    sweep.write_text(sweep.read_text().replace('"dataset"', '"tasks"'))
    codes = [stage(ctx, sweep, "materialize", checkpoint, "terminal_tasks"),
             stage(ctx, sweep, "collect", checkpoint, "terminal_tasks", *served(url))]
    got = len(rows_of(run / "rollouts.jsonl"))
    if got or codes[0]:
        raise failed(ctx, f"exit {codes}, {got} rows")
    return ("A sweep (RUN/sweep.yaml) with the taskset RUN/tasks (3 bundled tasks x 2); `gym-pipeline stage materialize` "
            f"and `stage collect` (Docker sandboxes) exit {codes} against the simulated policy answering 5xx to every "
            f"completion (/v1/models answers, logs/curl_models.log); {len(rows_of(run / 'rollouts_failures.jsonl'))} "
            "failed attempts, no result.")


@case("model_serving_slurm_collect_server_oom_killed", "model_serving", [],
      "the model server process was killed by the kernel's OOM killer (SIGKILL) in the middle of the collection, which "
      "ran as a Slurm job: every later request of the job failed to connect")
def model_serving_slurm_collect_server_oom_killed(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 8, 40, 3, "--latency-ms 400")
    launcher, label = slurm()
    result: dict = {}
    worker = threading.Thread(target=lambda: result.update(ended=launched(
        ctx, launcher, label, "collect", collect_argv(run, url, "string_match", 2))))
    worker.start()
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 5 or not worker.is_alive(), 150, "5 rollouts")
    ctx.note("(the kernel's OOM killer kills the model server: SIGKILL)")
    ctx.stop(policy, signal.SIGKILL, 5)
    worker.join(300)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got >= 24 or worker.is_alive():
        raise failed(ctx, f"{got} rollouts: {result}")
    return ("`gym-pipeline materialize` (string_match, 8 tasks x 3); `gym-pipeline collect --concurrency 2` as a Slurm "
            "job (project's SlurmLauncher) against the simulated policy (400 ms); after 5 rollouts SIGKILL to the "
            f"policy; {result.get('ended')}, {got} of 24 rollouts.")


@case("config_stage_workspace_verifier_function_misspelled", "config", ["verifier"],
      "the sweep config names the environment's verifier `my_verifier:scor`, but the function in "
      "verifiers/my_verifier.py is `score`, so the sweep config was refused before any stage ran")
def config_stage_workspace_verifier_function_misspelled(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=12, folder=run, name="exact_answer.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = workspace_sweep(ctx, "exact_answer", data, checkpoint, {"verifier": "my_verifier:scor"},
                            CASE_VERIFIER_V2, num_repeats=2, concurrency=4)
    codes = [stage(ctx, sweep, "materialize", checkpoint, "exact_answer"),
             stage(ctx, sweep, "collect", checkpoint, "exact_answer", *served(url))]
    if codes[-1] == 0 or rows_of(run / "rollouts.jsonl") or "scor" not in everything(ctx):
        raise failed(ctx, f"exit {codes}")
    return ("A sweep (RUN/sweep.yaml) whose environment exact_answer names verifier my_verifier:scor "
            f"(verifiers/my_verifier.py defines score); `gym-pipeline stage materialize` and `stage collect` exit {codes}.")


@case("config_slurm_stage_verifiers_dir_wrong_folder", "config", ["verifiers_dir"],
      "the sweep config sets verifiers_dir to RUN/verifier (singular), but the user's verifier module is in "
      "RUN/verifiers/, so the collect stage, run as a Slurm job, could not find the module and collected nothing")
def config_slurm_stage_verifiers_dir_wrong_folder(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=18, folder=run, name="exact_answer.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = workspace_sweep(ctx, "exact_answer", data, checkpoint, {"verifier": "my_verifier:score"},
                            CASE_VERIFIER_V2, num_repeats=2, concurrency=4,
                            verifiers_dir=str(run / "verifier"))
    materialized = stage(ctx, sweep, "materialize", checkpoint, "exact_answer")
    launcher, label = slurm()
    ended = launched(ctx, launcher, label, "collect",
                     stage_argv(sweep, "collect", checkpoint, "exact_answer", *served(url)))
    if materialized or rows_of(run / "rollouts.jsonl") or "not found" not in everything(ctx):
        raise failed(ctx, ended)
    return ("A sweep (RUN/sweep.yaml, verifiers_dir RUN/verifier) whose environment exact_answer names "
            "my_verifier:score, kept in RUN/verifiers/; `gym-pipeline stage materialize` exit 0; `stage collect` as a "
            f"Slurm job (project's SlurmLauncher): {ended}.")


@case("config_taskfolder_dataset_toml_multiplier_as_text", "config", ["timeout_multiplier"],
      "the taskset's dataset.toml sets [gym.defaults] timeout_multiplier = \"2x\" (text, meant as 'twice'), where a "
      "number is required, so the taskset was refused before any task ran")
def config_taskfolder_dataset_toml_multiplier_as_text(ctx: Ctx) -> str:
    run = ctx.run

    def slower(tasks: Path) -> None:
        toml = tasks / "dataset.toml"
        toml.write_text(toml.read_text().replace("timeout_multiplier = 1.0", 'timeout_multiplier = "2x"  # slow CI'))

    tasks = user_taskset(ctx, ["create-greeting", "count-error-lines"], slower)
    ctx.note("(RUN/tasks/dataset.toml: timeout_multiplier = \"2x\")")
    code = ctx.sh(f"{GP} tasks validate {tasks} --output-dir {run}/validation", "logs/validate.log", timeout=600)
    if code == 0:
        raise failed(ctx, "validated")
    return f"Two bundled task folders with dataset.toml's timeout_multiplier = \"2x\"; `gym-pipeline tasks validate` exit {code}."


@case("data_schema_stage_dataset_saved_as_utf16", "data_schema", ["UTF-8"],
      "the dataset was re-saved by a Windows editor as UTF-16 (with a byte-order mark), not UTF-8 JSON Lines, so the "
      "materialize stage could not read it")
def data_schema_stage_dataset_saved_as_utf16(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=26, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    data.write_bytes(data.read_text().encode("utf-16"))
    ctx.note("(RUN/string_match.jsonl re-saved by the editor as UTF-16)")
    ctx.sh(f"file {data}; head -c 64 {data} | od -c | head -4", "logs/file.log")
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=2, concurrency=4)
    code = stage(ctx, sweep, "materialize", checkpoint, "string_match")
    if code == 0:
        raise failed(ctx, "materialized")
    return f"RUN/string_match.jsonl (6 rows) in UTF-16 (logs/file.log); `gym-pipeline stage materialize` exit {code}."


@case("data_schema_taskfolder_tests_without_test_sh", "data_schema", ["test.sh"],
      "two of the user's task folders keep their checks in tests/test_outputs.py with no tests/test.sh (written for "
      "another harness), so the loader refused them and the stage stopped: the tasks could not load")
def data_schema_taskfolder_tests_without_test_sh(ctx: Ctx) -> str:

    def pytest_style(tasks: Path) -> None:
        for name in ("top-word", "sort-unique-words"):
            (tasks / name / "tests" / "test.sh").unlink()
            (tasks / name / "tests" / "test_outputs.py").write_text(
                "from pathlib import Path\n\n\ndef test_output_exists():\n    assert Path('/app').exists()\n")

    tasks = user_taskset(ctx, ["create-greeting", "top-word", "sort-unique-words"], pytest_style)
    ctx.note("(RUN/tasks: top-word and sort-unique-words hold tests/test_outputs.py, no tests/test.sh)")
    from gym_pipeline.serving.checkpoints import demo_checkpoints

    checkpoint = demo_checkpoints(ctx.work / "checkpoints", 2, [])[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = workspace_sweep(ctx, "terminal_tasks", tasks, checkpoint, num_repeats=2, concurrency=2)
    sweep.write_text(sweep.read_text().replace('"dataset"', '"tasks"'))
    codes = [stage(ctx, sweep, "materialize", checkpoint, "terminal_tasks"),
             stage(ctx, sweep, "collect", checkpoint, "terminal_tasks", *served(url))]
    if not any(codes) or "load" not in everything(ctx):
        raise failed(ctx, f"exit {codes}")
    return ("A sweep (RUN/sweep.yaml) with the taskset RUN/tasks (3 tasks, 2 without tests/test.sh); `gym-pipeline "
            f"stage materialize` and `stage collect` exit {codes}.")


IMPORT_BUG_VERIFIER = '''
"""Exact-answer scoring that ignores punctuation."""
import re

TABLE = str.maketrans("", "", string.punctuation)  # strip punctuation before comparing


def score(row, response_text):
    boxed = re.search(r"\\\\boxed\\{([^}]*)\\}", response_text)
    answer = boxed.group(1) if boxed else response_text.strip().splitlines()[-1]
    answer = answer.removeprefix("Final answer:").strip().translate(TABLE)
    return {"reward": float(answer.lower() == row["expected_answer"].lower()), "extracted_answer": answer}
'''


@case("verifier_runtime_stage_workspace_verifier_fails_at_import", "verifier_runtime", ["import string"],
      "the user's verifier module uses string.punctuation at module level without `import string`, so importing it "
      "raises NameError and the sweep config that names it was refused before any stage ran")
def verifier_runtime_stage_workspace_verifier_fails_at_import(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=32, folder=run, name="exact_answer.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = workspace_sweep(ctx, "exact_answer", data, checkpoint, {"verifier": "my_verifier:score"},
                            IMPORT_BUG_VERIFIER, num_repeats=2, concurrency=4)
    codes = [stage(ctx, sweep, "materialize", checkpoint, "exact_answer"),
             stage(ctx, sweep, "collect", checkpoint, "exact_answer", *served(url))]
    if codes[-1] == 0 or "NameError" not in everything(ctx):
        raise failed(ctx, f"exit {codes}")
    return ("A sweep (RUN/sweep.yaml) whose environment exact_answer is scored by verifiers/my_verifier.py, which uses "
            f"`string` without importing it; `gym-pipeline stage materialize` and `stage collect` exit {codes}.")


SWAPPED_VERIFIER = '''
"""Exact-answer scoring (ported from our offline grader, which is called as grade(answer, example))."""


def score(response_text, row):
    answer = response_text.strip().splitlines()[-1].removeprefix("Final answer:").strip()
    return {"reward": float(answer.lower() == row["expected_answer"].lower()), "extracted_answer": answer}
'''


@case("verifier_runtime_slurm_workspace_verifier_arguments_swapped", "verifier_runtime", ["argument"],
      "the user's verifier is defined as score(response_text, row), its arguments in the wrong order (the pipeline "
      "calls FUNCTION(row, response_text)), so every call raised TypeError and every row came back a masked "
      "verifier_error in a collection that otherwise completed")
def verifier_runtime_slurm_workspace_verifier_arguments_swapped(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=38, folder=run, name="exact_answer.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = workspace_sweep(ctx, "exact_answer", data, checkpoint, {"verifier": "my_verifier:score"},
                            SWAPPED_VERIFIER, num_repeats=3, concurrency=4)
    stage(ctx, sweep, "materialize", checkpoint, "exact_answer")
    launcher, label = slurm()
    ended = launched(ctx, launcher, label, "collect",
                     stage_argv(sweep, "collect", checkpoint, "exact_answer", *served(url)))
    profiled = launched(ctx, launcher, label, "profile", stage_argv(sweep, "profile", checkpoint, "exact_answer"))
    rows = rows_of(run / "rollouts.jsonl")
    if not rows or not all(row.get("mask_sample") for row in rows):
        raise failed(ctx, f"{len(rows)} rows: {ended}")
    return ("A sweep (RUN/sweep.yaml) whose environment exact_answer is scored by verifiers/my_verifier.py:score"
            "(response_text, row); `stage materialize`, then `stage collect` and `stage profile` as Slurm jobs "
            f"(project's SlurmLauncher; {ended}; {profiled}): {len(rows)} rows, all masked.")


@case("verifier_runtime_taskfolder_test_sh_writes_pass_word", "verifier_runtime", ["reward.txt"],
      "the user's task tests write the word PASS or FAIL into /logs/verifier/reward.txt instead of a number, so "
      "every episode's reward file could not be read (harbor:invalid_reward) and scored 0, solved or not")
def verifier_runtime_taskfolder_test_sh_writes_pass_word(ctx: Ctx) -> str:
    run = ctx.run

    def words(tasks: Path) -> None:
        for test in tasks.glob("*/tests/test.sh"):
            text = test.read_text().replace("echo 1 > /logs/verifier/reward.txt", "echo PASS > /logs/verifier/reward.txt")
            test.write_text(text.replace("echo 0 > /logs/verifier/reward.txt", "echo FAIL > /logs/verifier/reward.txt"))

    tasks = user_taskset(ctx, ["create-greeting", "top-word", "replace-spelling"], words)
    ctx.note("(RUN/tasks/*/tests/test.sh write PASS or FAIL to reward.txt)")
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = workspace_sweep(ctx, "terminal_tasks", tasks, checkpoint, num_repeats=2, concurrency=2)
    sweep.write_text(sweep.read_text().replace('"dataset"', '"tasks"'))
    codes = [stage(ctx, sweep, "materialize", checkpoint, "terminal_tasks"),
             stage(ctx, sweep, "collect", checkpoint, "terminal_tasks", *served(url)),
             stage(ctx, sweep, "profile", checkpoint, "terminal_tasks")]
    rows = rows_of(run / "rollouts.jsonl")
    if not rows or any(row.get("reward") for row in rows) or "invalid_reward" not in everything(ctx):
        raise failed(ctx, f"exit {codes}, {len(rows)} rows")
    return ("A sweep (RUN/sweep.yaml) with the taskset RUN/tasks (3 bundled tasks x 2, test.sh writing PASS/FAIL); "
            f"`gym-pipeline stage materialize`, `collect` (Docker sandboxes), `profile` exit {codes}; {len(rows)} rows, "
            "none rewarded.")


@case("cache_resume_taskfolder_edited_after_materialize", "cache_resume", ["materialize"],
      "after the taskset's rows had been materialized, the user edited one task folder (top-word's instruction and "
      "test) and ran only the collect stage: the rows still carry the old task digest, so that task's episodes were "
      "refused (task folder changed since materialization)")
def cache_resume_taskfolder_edited_after_materialize(ctx: Ctx) -> str:
    tasks = user_taskset(ctx, ["create-greeting", "top-word", "count-error-lines"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = workspace_sweep(ctx, "terminal_tasks", tasks, checkpoint, num_repeats=2, concurrency=2)
    sweep.write_text(sweep.read_text().replace('"dataset"', '"tasks"'))
    materialized = stage(ctx, sweep, "materialize", checkpoint, "terminal_tasks")
    instruction = tasks / "top-word" / "instruction.md"
    instruction.write_text(instruction.read_text().replace("in lower case to /app/top.txt",
                                                           "in lower case, followed by a newline, to /app/top.txt"))
    ctx.note("(RUN/tasks/top-word/instruction.md edited after materializing; only `stage collect` run next)")
    collected = stage(ctx, sweep, "collect", checkpoint, "terminal_tasks", *served(url))
    profiled = stage(ctx, sweep, "profile", checkpoint, "terminal_tasks")
    if materialized or "changed" not in everything(ctx):
        raise failed(ctx, f"materialize {materialized}, collect {collected}")
    return ("A sweep (RUN/sweep.yaml) with the taskset RUN/tasks (3 bundled tasks x 2); `gym-pipeline stage "
            f"materialize`; top-word's instruction edited; `stage collect` exit {collected}, `stage profile` exit "
            f"{profiled}.")


@case("cache_resume_stage_verifier_edited_only_profile_rerun", "cache_resume", ["reverify"],
      "after the collection the user fixed their workspace verifier (it missed boxed answers) but only re-ran the "
      "profile stage, not a re-scoring (`reverify`) or the collection, so the rollouts and the profile still carry "
      "the old verifier's rewards")
def cache_resume_stage_verifier_edited_only_profile_rerun(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=0, folder=run, name="exact_answer.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = workspace_sweep(ctx, "exact_answer", data, checkpoint, {"verifier": "my_verifier:score"},
                            CASE_VERIFIER_V1, num_repeats=2, concurrency=4)
    codes = [stage(ctx, sweep, "materialize", checkpoint, "exact_answer"),
             stage(ctx, sweep, "collect", checkpoint, "exact_answer", *served(url))]
    (run / "verifiers" / "my_verifier.py").write_text(CASE_VERIFIER_V2.lstrip("\n"))
    ctx.note("(verifiers/my_verifier.py fixed after the collection: reads \\boxed{} answers; only `stage profile` run)")
    profiled = stage(ctx, sweep, "profile", checkpoint, "exact_answer")
    rewards = [row.get("reward") for row in rows_of(run / "rollouts.jsonl")]
    if any(codes) or profiled or len(rewards) != 16 or sum(rewards) >= 16:
        raise failed(ctx, f"exit {codes}, profile {profiled}, rewards {rewards}")
    return ("A sweep (RUN/sweep.yaml, environment exact_answer scored by verifiers/my_verifier.py); `stage materialize` "
            f"and `collect` (8 tasks x 2, total reward {sum(rewards)}); the verifier edited; only `stage profile` again.")


@case("cache_resume_builtin_recollected_profile_not_refreshed", "cache_resume", ["profile"],
      "the run was collected again against checkpoint step_0200 (the old rollouts moved aside), but the profile was "
      "not made again: the reward profile in the folder is still step_0100's")
def cache_resume_builtin_recollected_profile_not_refreshed(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("mcqa", 8, start=44)
    weak, strong = checkpoints(ctx, "mcqa", data)
    url, first = ctx.policy(weak, "--latency-ms 20", log="logs/model_server_step_0100.log")
    materialize(ctx, data, 3, "mcqa")
    ctx.sh(shlex.join(collect_argv(run, url, "mcqa", 4)), "logs/collect_step_0100.log")
    ctx.sh(shlex.join(profile_argv(run)), "logs/profile_step_0100.log")
    ctx.stop(first, signal.SIGINT, 10)
    ctx.sh(f"mkdir -p {run}/old && mv {run}/rollouts.jsonl {run}/old/rollouts_step_0100.jsonl", "logs/move.log")
    url2, second = ctx.policy(strong, "--latency-ms 20", log="logs/model_server_step_0200.log")
    code = ctx.sh(shlex.join(collect_argv(run, url2, "mcqa", 4)), "logs/collect_step_0200.log")
    if code or len(unique_keys(run / "rollouts.jsonl")) != 24 or not list(run.glob("*reward_profiling*")):
        raise failed(ctx, f"collect {code}")
    return ("`gym-pipeline materialize` (mcqa, 8 tasks x 3); `collect` against step_0100 and `profile`; rollouts moved "
            "to RUN/old; the policy restarted on step_0200 and `collect` again (all 24); no new profile.")


SLOW_LOOKUP_VERIFIER = '''
"""Exact-answer scoring with our alias service (canonical spellings of names)."""
import time


def canonical(answer):
    time.sleep(0.5)  # a synchronous HTTP lookup to the alias service (about 500 ms a call)
    return answer.strip().lower()


def score(row, response_text):
    answer = response_text.strip().splitlines()[-1].removeprefix("Final answer:").strip()
    return {"reward": float(canonical(answer) == canonical(row["expected_answer"])), "extracted_answer": answer}
'''


@case("throughput_stage_workspace_verifier_blocking_lookup", "throughput_resources", ["verifier"],
      "the workspace verifier makes two blocking 0.5 s lookups per rollout, and the collector runs it in its event "
      "loop, so the collection advanced about one rollout a second whatever its concurrency (16) and the nightly "
      "stage's 30 s budget ran out with most rollouts not collected")
def throughput_stage_workspace_verifier_blocking_lookup(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 12, start=8, folder=run, name="exact_answer.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = workspace_sweep(ctx, "exact_answer", data, checkpoint, {"verifier": "my_verifier:score"},
                            SLOW_LOOKUP_VERIFIER, num_repeats=4, concurrency=16)
    stage(ctx, sweep, "materialize", checkpoint, "exact_answer")
    ctx.note("(the nightly job gives the collect stage 30 s: `timeout -s INT 30`)")
    argv = shlex.join(stage_argv(sweep, "collect", checkpoint, "exact_answer", *served(url)))
    code = ctx.sh(f"timeout -s INT 30 {argv}; echo \"exit status $?\"", "logs/collect.log", timeout=120)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got >= 48:
        raise failed(ctx, f"finished (exit {code})")
    return ("A sweep (RUN/sweep.yaml, concurrency 16) whose environment exact_answer is scored by "
            "verifiers/my_verifier.py (two blocking 0.5 s lookups a call); `stage materialize`; `stage collect` under "
            f"`timeout -s INT 30`: {got} of 48 rollouts.")


@case("data_schema_builtin_rows_wrapped_in_export_envelope", "data_schema", ["responses_create_params"],
      "the dataset was exported with each task wrapped in an envelope ({\"id\": ..., \"data\": {task}}), so its "
      "rows carry no top-level responses_create_params or expected_answer and could not be materialized")
def data_schema_builtin_rows_wrapped_in_export_envelope(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=64, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    data.write_text("".join(json.dumps({"id": f"task-{i:04d}", "split": "eval", "data": row}) + "\n"
                            for i, row in enumerate(rows_of(data))))
    ctx.note("(RUN/string_match.jsonl as exported: every task under a 'data' key)")
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    output = run / "rollouts_materialized_inputs.jsonl"
    code = ctx.sh(f"{GP} materialize --input {data} --num-repeats 2 --agent string_match_simple_agent --output {output}",
                  "logs/materialize.log")
    collected = ctx.sh(shlex.join(collect_argv(run, url, "string_match", 4)), "logs/collect.log", timeout=300)
    if any(r.get("reward") for r in rows_of(run / "rollouts.jsonl")):
        raise failed(ctx, f"materialize {code}, collect {collected}")
    return ("6 string_match rows each wrapped as {id, split, data}; `gym-pipeline materialize` exit "
            f"{code}; `gym-pipeline collect` exit {collected}, {len(rows_of(run / 'rollouts.jsonl'))} rollouts.")


if __name__ == "__main__":
    sys.exit(main("seventh_held_out", __file__, __doc__))
