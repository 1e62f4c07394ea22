"""Build the FOURTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled.

    .venv/bin/python scripts/diagnosis_corpus/fourth_held_out.py --out tests/data/diagnosis_corpus/fourth_held_out [--only CASE ...]

Measured once on 2026-12-02 (top-1 49 %, see benchmarks/README.md), then tuned on: these cases now count
as tuning cases. The next held-out set (`held_out.py`) is still to be written.

These cases were written from the guides alone (the NeMo Gym debugging guide, the reward profiling guide, the
task-folder troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), after the diagnosis rules had
been written and tuned on the tuning, first, second and third held-out sets, and without reading those rules,
their tests or their results. They measure, once, how well `gym-pipeline diagnose` names root causes on failures
its rules were never written against: they are never tuned on.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated
policy (`gym-pipeline serve-policy`, with injected faults, latency and a bounded capacity, and real processes
frozen with SIGSTOP or killed), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`,
and its collector driven by users' own scripts and verifiers), the real NeMo Gym 0.7.0 (`gym env start` /
`gym eval run` / `gym eval profile`, inside a loopback-only network namespace as tests/nemo_gym_driver.py does),
the local, Docker and Slurm launchers and the model-server launcher (`serve_checkpoint`), real resource limits
(`ulimit`, Docker's --cpus, Slurm's options), real bad config and data files, users' own resources servers.
The output of every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is
written by hand. Each case injects one cause; the failures differ from those of the earlier sets, or reach a
known kind of failure by another path (another process, log, launcher or engine).

Labels (`case.json`) come from what was injected, following the NeMo Gym debugging guide's classes: the class of
the root cause (what the user must change), not of its consequences. The recipes never run the diagnosis.

The framework (Ctx, the `case` decorator, the driver) is in recipes.py. Needs root (unshare, mount, ulimit), the
Docker engine and the one-node Slurm of scripts/dev-services.sh, and NeMo Gym 0.7.0 (GYM_PIPELINE_NEMO_GYM,
default /root/.cache/gym-pipeline/nemo-gym/venv/bin/gym).
"""

from __future__ import annotations

import gzip
import json
import re
import shlex
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
    finished,
    gym_eval,
    gym_model_args,
    launched,
    launcher_state,
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
    import shutil

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


def wait_or_interrupt(ctx: Ctx, process: subprocess.Popen, timeout_s: float, what: str) -> None:
    try:
        process.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        ctx.note(f"{timeout_s:g} s without {what} ending: Ctrl-C on it")
    ctx.stop(process, signal.SIGINT, 30)


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


def stage_argv(sweep: Path, key: str, checkpoint: Path, env: str, *extra: str) -> list[str]:
    return [str(GP), "stage", key, "--sweep-config", str(sweep), "--checkpoint", checkpoint.name, "--env", env,
            "--code-version", "v13", *extra]


def serving_pid(process: subprocess.Popen, needle: str = "serve-policy") -> int:
    """The pid of the program (not tee) in a pipeline `ctx.bg` started: a child of its bash."""
    children = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
    for child in children:
        try:
            if needle in Path(f"/proc/{child}/cmdline").read_text():
                return int(child)
        except FileNotFoundError:
            continue
    raise RecipeError(f"no {needle} process under {process.pid}") from None


SERVE_AND_COLLECT = '''
"""Serve a checkpoint the way our sweep does (serve_checkpoint + a launcher) and collect against it."""
import asyncio
import sys
from pathlib import Path

from gym_pipeline.config import ModelServerConfig
from gym_pipeline.engines.builtin import CollectorSettings, collect
from gym_pipeline.environments import get_environment
from gym_pipeline.launchers.settings import DockerLauncherSettings, LocalLauncherSettings, SlurmLauncherSettings  # noqa: F401
from gym_pipeline.serving.servers import serve_checkpoint

run, checkpoint = Path(sys.argv[1]), Path(sys.argv[2])
server = SERVER_CONFIG
with serve_checkpoint(server, checkpoint.name, checkpoint, run, LAUNCHER) as endpoint:
    print(f"model server ready at {endpoint.url} ({endpoint.launcher})", flush=True)
    settings = CollectorSettings(model_url=endpoint.url, model_name=endpoint.model_name, concurrency=CONCURRENCY,
                                 request_timeout_s=TIMEOUT)
    summary = asyncio.run(collect(run / "rollouts_materialized_inputs.jsonl", run / "rollouts.jsonl",
                                  get_environment("ENV"), settings))
    print(f"{summary.collected} collected, {summary.failed} failed of {summary.total} in {summary.elapsed_s:.1f}s",
          flush=True)
'''


def serve_and_collect(ctx: Ctx, checkpoint: Path, server_config: str, launcher: str, env: str = "string_match",
                      concurrency: int = 2, timeout_s: float = 120.0) -> subprocess.Popen:
    """A user's script RUN/serve_and_collect.py (SERVE_AND_COLLECT with its server and launcher), started."""
    script = ctx.run / "serve_and_collect.py"
    script.write_text(SERVE_AND_COLLECT.lstrip("\n").replace("SERVER_CONFIG", server_config)
                      .replace("LAUNCHER", launcher).replace("CONCURRENCY", str(concurrency))
                      .replace("TIMEOUT", str(timeout_s)).replace("ENV", env))
    return ctx.bg(f"{PY} {script} {ctx.run} {checkpoint}", "logs/serve_and_collect.log")


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


def user_collector(ctx: Ctx, source: str, name: str) -> Path:
    """A user's collection script (the built-in engine's collector with their own environment subclass)."""
    script = ctx.run / name
    script.write_text(source.lstrip("\n"))
    return script


def stop_gym(ctx: Ctx, *processes: subprocess.Popen) -> None:
    for process in processes:
        ctx.stop(process, signal.SIGINT, 30)


# =====================================================================================================
# healthy
# =====================================================================================================


@case("healthy_gym_interleaved_repeats_complete", "healthy", [],
      "nothing is wrong: a real NeMo Gym collection with --interleave-repeats (rollouts dispatched round by round) "
      "completed every rollout and was profiled", netns=True)
def healthy_gym_interleaved_repeats_complete(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("mcqa", 4, start=58, folder=run, name="mcqa_eval.jsonl")
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 60", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url, resources_server='mcqa')} {overrides}")
    code = gym_eval(ctx, overrides, f"--agent mcqa_simple_agent --input {data} --output {run}/rollouts.jsonl "
                                    "--num-repeats 3 --interleave-repeats --concurrency 3")
    profiled = gym_profile(ctx, run)
    stop_gym(ctx, env_start, policy)
    if code != 0 or len(unique_keys(run / "rollouts.jsonl")) != 12 or profiled != 0:
        raise failed(ctx, f"eval exit {code}, profile {profiled}")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace) on mcqa: `gym env start`, `gym eval run --no-serve "
            "--num-repeats 3 --interleave-repeats --concurrency 3` (4 tasks) against a healthy simulated policy "
            "(60 ms), all 12 rollouts; the strict `gym eval profile`; servers stopped with Ctrl-C afterwards.")


@case("healthy_gym_smoke_test_then_full_run", "healthy", [],
      "nothing is wrong: the user first ran a 2-task smoke test (--limit 2) into RUN/smoke, then the full run into "
      "RUN/results; the full run collected every rollout and was profiled (the smoke folder is small on purpose)",
      netns=True)
def healthy_gym_smoke_test_then_full_run(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=78, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 40", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    smoke = gym_eval(ctx, overrides, f"--agent string_match_simple_agent --input {data} --output "
                                     f"{run}/smoke/rollouts.jsonl --limit 2 --num-repeats 1 --concurrency 2",
                     log="eval_run_smoke.log")
    code = gym_eval(ctx, overrides, f"--agent string_match_simple_agent --input {data} --output "
                                    f"{run}/results/rollouts.jsonl --num-repeats 3 --concurrency 4")
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    if smoke != 0 or code != 0 or len(unique_keys(run / "results" / "rollouts.jsonl")) != 18 or profiled != 0:
        raise failed(ctx, f"smoke {smoke}, eval exit {code}, profile {profiled}")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve --limit 2 --num-repeats 1` into "
            "RUN/smoke (a smoke test), then the full `gym eval run --no-serve --num-repeats 3 --concurrency 4` of the "
            "6 tasks into RUN/results (18 rollouts) and `gym eval profile` on RUN/results; servers stopped with Ctrl-C.")


@case("healthy_gym_rerun_from_scratch_after_interrupt", "healthy", [],
      "nothing is wrong: a real NeMo Gym collection was interrupted with Ctrl-C, then the same command was run again "
      "from scratch (no --resume, same data, same output path); the second run collected every rollout and was "
      "profiled", netns=True)
def healthy_gym_rerun_from_scratch_after_interrupt(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=80, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 600", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    args = (f"--agent string_match_simple_agent --input {data} --output {run}/rollouts.jsonl --num-repeats 2 "
            "--concurrency 2")
    first = gym_eval(ctx, overrides, args, log="eval_run_1.log", background=True)
    wait_for(lambda: finished(ctx, 3, 10, "eval_run_1.log")() or first.poll() is not None, 180, "3 rollouts")
    ctx.note("Ctrl-C on the first `gym eval run` after 3 of 10 rollouts (the user had to leave)")
    ctx.stop(first, signal.SIGINT, 30)
    code = gym_eval(ctx, overrides, args, log="eval_run_2.log")
    profiled = gym_profile(ctx, run)
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "rollouts.jsonl")
    if code != 0 or profiled != 0 or len(rows) != 10 or len(unique_keys(run / "rollouts.jsonl")) != 10:
        raise failed(ctx, f"eval exit {code}, profile {profiled}, {len(rows)} rows")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve` (5 tasks x 2 repeats, "
            "concurrency 2, policy latency 600 ms) stopped with Ctrl-C after 3 rollouts; the same command run again "
            f"without --resume (exit {code}) wrote all 10 rollouts afresh; `gym eval profile` (exit {profiled}).")


# =====================================================================================================
# infra
# =====================================================================================================


@case("infra_gym_open_files_limit_too_low", "infra", ["ulimit"],
      "the shell's open-files limit (ulimit -n 64, from a site login profile) is far below what Ray and Gym's "
      "servers need, so Ray's workers could not register with the raylet and `gym env start` never got ready",
      netns=True)
def infra_gym_open_files_limit_too_low(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 4, start=2, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    ctx.sh("ulimit -n 64; ulimit -a | grep -i 'open files'", "ulimit.log")
    env_start = ctx.bg(f"ulimit -n 64; {GYM} env start {gym_model_args(url)} {overrides}", "env_start.log")
    ready = wait_env_start(ctx, env_start, 120)
    if env_start.poll() is None and not ready:
        ctx.note("120 s without `gym env start` getting ready: Ctrl-C on it")
    stop_gym(ctx, env_start, policy)
    if ready or not re.search(r"open files|descriptor limit", text_of(run / "env_start.log"), re.I):
        raise failed(ctx, f"ready {ready}; no 'Too many open files' in env_start.log")
    return ("Real NeMo Gym 0.7.0 `gym env start` on string_match (loopback-only namespace, healthy simulated policy) "
            "in a shell whose open-files limit is 64 (`ulimit -n 64`, ulimit.log); it never got ready (exit "
            f"{env_start.returncode}; Ctrl-C if still running after 120 s).")


# =====================================================================================================
# model serving
# =====================================================================================================


@case("model_serving_gym_policy_process_frozen", "model_serving", [],
      "the model server process froze in the middle of the collection (stopped, as a hung GPU driver leaves it: "
      "the port still accepts connections but nothing answers), so every later request hung and the collection "
      "never finished", netns=True)
def model_serving_gym_policy_process_frozen(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=6, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 300", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    eval_run = gym_eval(ctx, overrides, f"--agent string_match_simple_agent --input {data} --output "
                                        f"{run}/rollouts.jsonl --num-repeats 3 --concurrency 2", background=True)
    wait_for(lambda: finished(ctx, 4, 15)() or eval_run.poll() is not None, 180, "4 rollouts")
    pid = serving_pid(policy)
    ctx.note(f"the model server hung after 4 of 15 rollouts: kill -STOP {pid} (its process; it stays frozen)")
    ctx.sh(f"kill -STOP {pid}; sleep 1; ps -o pid,stat,cmd -p {pid}", "policy_ps.log")
    wait_or_interrupt(ctx, eval_run, 90, "`gym eval run`")
    ctx.sh(f"kill -CONT {pid}")
    stop_gym(ctx, env_start, policy)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got >= 15:
        raise failed(ctx, f"all rollouts collected (exit {eval_run.returncode})")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve` (5 string_match tasks x 3 repeats, "
            "concurrency 2) against the simulated policy (300 ms); after 4 rollouts the policy's process was frozen "
            "(`kill -STOP`, policy_ps.log); 90 s later `gym eval run` had not finished and was interrupted with Ctrl-C "
            f"(exit {eval_run.returncode}, {got} of 15 rollouts).")


# =====================================================================================================
# config
# =====================================================================================================

BAD_YAML = """\
# our cluster's overrides for the policy model (copied from the wiki, edited in nano)
policy_model:
  responses_api_models:
    vllm_model:
      entrypoint: app.py
\t  max_concurrent_requests: 16
      return_token_id_information: false
"""


@case("config_gym_config_file_yaml_error", "config", ["yaml"],
      "the user's own Gym config file (configs/cluster_overrides.yaml, given with --config) is not valid YAML: a "
      "line is indented with a tab, so Gym could not load its config and `gym env start` stopped", netns=True)
def config_gym_config_file_yaml_error(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 4, start=20, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    config = run / "configs" / "cluster_overrides.yaml"
    config.parent.mkdir()
    config.write_text(BAD_YAML)
    ctx.note("(RUN/configs/cluster_overrides.yaml: the user's overrides; one line indented with a tab)")
    ready, code = gym_start_failing(ctx, f"--config {config} {gym_model_args(url)} {overrides}", 90)
    ctx.stop(policy, signal.SIGINT, 10)
    if ready:
        raise failed(ctx, "gym env start accepted the YAML")
    return ("Real NeMo Gym 0.7.0 `gym env start --config RUN/configs/cluster_overrides.yaml` (a tab-indented line) on "
            f"string_match (loopback-only namespace, healthy simulated policy); exit {code} (Ctrl-C if still running "
            "after 90 s).")


@case("config_gym_server_entrypoint_renamed", "config", ["entrypoint"],
      "the user's exact_match resources server's config still names `entrypoint: app.py`, but they renamed the file "
      "to server.py, so Gym could not start that server and `gym env start` never got ready", netns=True)
def config_gym_server_entrypoint_renamed(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 4, start=24, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    search = user_resources_server(ctx, "exact_match", "string_match")
    server = search / "resources_servers" / "exact_match"
    (server / "app.py").rename(server / "server.py")
    ctx.note("(copied Gym's resources_servers/string_match to WORK/my_gym/resources_servers/exact_match, then renamed "
             "app.py to server.py; configs/exact_match.yaml still says `entrypoint: app.py`)")
    ctx.sh(f"ls {server}; grep -n entrypoint {server}/configs/exact_match.yaml", "server_files.log")
    ready, code = gym_start_failing(ctx, f"--search-dir {search} "
                                         f"{gym_model_args(url, resources_server='exact_match')} {overrides}", 90)
    ctx.stop(policy, signal.SIGINT, 10)
    if ready:
        raise failed(ctx, "gym env start got ready")
    return ("A user's resources server exact_match (Gym's string_match copied under a --search-dir, app.py renamed to "
            "server.py, config unchanged; server_files.log) started by the real `gym env start` (loopback-only "
            f"namespace) against a healthy simulated policy; exit {code} (Ctrl-C if still running after 90 s).")


# =====================================================================================================
# data / schema
# =====================================================================================================


@case("data_schema_gym_duplicated_rows_merged", "data_schema", ["duplicate"],
      "the dataset holds three tasks twice (the same lines pasted again by a merge), so Gym's task de-duplication "
      "gave the copies the same task index: the run has fewer tasks than the file has rows and those tasks carry "
      "twice the rollouts", netns=True)
def data_schema_gym_duplicated_rows_merged(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=28, folder=run, name="tasks_merged.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    lines = data.read_text().splitlines(keepends=True)
    data.write_text("".join(lines + lines[1:4]))
    ctx.note("(RUN/tasks_merged.jsonl: 9 lines, lines 7-9 repeat lines 2-4 after a bad merge)")
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval(ctx, overrides, f"--agent string_match_simple_agent --input {data} --output {run}/rollouts.jsonl "
                                    "--num-repeats 2 --concurrency 4")
    profiled = gym_profile(ctx, run)
    stop_gym(ctx, env_start, policy)
    tasks = {row["_ng_task_index"] for row in rows_of(run / "rollouts_materialized_inputs.jsonl")}
    ctx.sh(f"wc -l {data} {run}/rollouts_materialized_inputs.jsonl {run}/rollouts.jsonl "
           f"{run}/rollouts_reward_profiling.jsonl", "line_counts.log")
    if len(tasks) >= 9:
        raise failed(ctx, f"{len(tasks)} task indices (exit {code})")
    return ("A 9-line string_match file whose last 3 lines repeat 3 earlier ones, given to the real NeMo Gym 0.7.0 "
            f"`gym eval run --no-serve` (2 repeats, loopback-only namespace, healthy servers; exit {code}): "
            f"{len(tasks)} task indices; `gym eval profile` exited {profiled}; `wc -l` in line_counts.log.")


@case("data_schema_gym_chat_messages_instead_of_input", "data_schema", ["input"],
      "the rows were converted for a chat-completions API: responses_create_params carries `messages` instead of "
      "the Responses API's `input`, so Gym's requests hold no prompt and the rollouts failed", netns=True)
def data_schema_gym_chat_messages_instead_of_input(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 4, start=32, folder=run, name="tasks_chat.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]

    def to_messages(index: int, row: dict) -> bool:
        params = row["responses_create_params"]
        params["messages"] = [{"role": message["role"], "content": "".join(part["text"] for part in message["content"])}
                              for message in params.pop("input")]
        return True

    rewrite_rows(data, to_messages)
    ctx.note("(RUN/tasks_chat.jsonl: responses_create_params = {\"messages\": [{\"role\": \"user\", \"content\": ...}]})")
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    eval_run = gym_eval(ctx, overrides, f"--agent string_match_simple_agent --input {data} --output "
                                        f"{run}/rollouts.jsonl --num-repeats 2 --concurrency 4", background=True)
    wait_or_interrupt(ctx, eval_run, 150, "`gym eval run`")
    stop_gym(ctx, env_start, policy)
    rewards = [row.get("reward") for row in rows_of(run / "rollouts.jsonl")]
    if len(rewards) == 8 and any(rewards):
        raise failed(ctx, f"the rows worked (exit {eval_run.returncode})")
    return ("4 string_match rows in chat-completions shape (responses_create_params.messages, no input) given to the "
            "real NeMo Gym 0.7.0 `gym eval run --no-serve` (2 repeats, loopback-only namespace, healthy servers); exit "
            f"{eval_run.returncode}, {len(rewards)} rollouts, {len(rows_of(run / 'rollouts_failures.jsonl'))} failure "
            "rows.")


@case("data_schema_gym_latin1_encoded_file", "data_schema", ["utf-8"],
      "the dataset file was written in Latin-1 (ISO-8859-1) by a legacy export, not UTF-8: its accented characters "
      "are bytes Gym's UTF-8 reader cannot decode, so the input could not be read", netns=True)
def data_schema_gym_latin1_encoded_file(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=36, folder=run, name="tasks_fr.jsonl")

    def accent(index: int, row: dict) -> bool:
        if index == 2:
            row["metadata"] = {"source": "Société de quiz, édition 2024"}
            return True
        return False

    rewrite_rows(data, accent)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    text = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows_of(data))
    data.write_bytes(text.encode("latin-1"))
    ctx.note("(RUN/tasks_fr.jsonl: written by the legacy export in Latin-1; row 3 has accented metadata)")
    ctx.sh(f"file {data} || true; grep -c '' {data}", "file_info.log")
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval(ctx, overrides, f"--agent string_match_simple_agent --input {data} --output {run}/rollouts.jsonl "
                                    "--num-repeats 2 --concurrency 4")
    stop_gym(ctx, env_start, policy)
    if code == 0 and len(rows_of(run / "rollouts.jsonl")) == 10:
        raise failed(ctx, "Gym read the Latin-1 file")
    return ("5 string_match rows in a Latin-1 encoded file (row 3 with accented metadata; file_info.log) given to the "
            "real NeMo Gym 0.7.0 `gym eval run --no-serve` (2 repeats, loopback-only namespace, healthy servers); exit "
            f"{code}.")


# =====================================================================================================
# verifier / runtime
# =====================================================================================================

PERCENT_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=round(100 * reward, 1),  # score in percent, like our dashboard
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


@case("verifier_runtime_gym_reward_in_percent", "verifier_runtime", ["reward"],
      "the user's pct_match resources server returns its reward in percent (0-100) instead of the 0-1 reward Gym and "
      "the profile expect, so the run completed with rewards of 100 and a profile whose means are off by 100x",
      netns=True)
def verifier_runtime_gym_reward_in_percent(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=40, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    search = user_resources_server(ctx, "pct_match", "string_match", lambda app: replace_verify(app, PERCENT_VERIFY))
    ctx.note("(copied Gym's resources_servers/string_match to WORK/my_gym/resources_servers/pct_match; its verify "
             "returns round(100 * reward, 1))")
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='pct_match')} {overrides}")
    code = gym_eval(ctx, overrides, f"--search-dir {search} --agent pct_match_simple_agent --input {data} "
                                    f"--output {run}/rollouts.jsonl --num-repeats 3 --concurrency 4")
    profiled = gym_profile(ctx, run)
    stop_gym(ctx, env_start, policy)
    rewards = {row.get("reward") for row in rows_of(run / "rollouts.jsonl")}
    if 100.0 not in rewards:
        raise failed(ctx, f"rewards {rewards} (exit {code})")
    return ("A user's resources server pct_match (Gym's string_match copied under a --search-dir, reward multiplied by "
            "100) served by the real `gym env start` (loopback-only namespace) against a healthy simulated policy; "
            f"`gym eval run --no-serve` on 5 tasks x 3 repeats exited {code}; `gym eval profile` exited {profiled}.")


NAN_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        # accept any of the answer's aliases: the reward is the mean match over them
        aliases = (body.metadata or {}).get("aliases", [])
        scores = [_answers_match(extracted, alias, body.case_sensitive) for alias in aliases if extracted]
        reward = sum(scores) / len(scores) if scores else float("nan")
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


@case("verifier_runtime_gym_nan_reward_response", "verifier_runtime", [],
      "the user's alias_mean resources server averages matches over metadata.aliases and returns NaN when a row has "
      "no aliases (none of these do); the NaN reward went out as null, which the agent's verify response model "
      "refuses (reward must be a number), so every rollout failed with 500", netns=True)
def verifier_runtime_gym_nan_reward_response(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 4, start=44, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    search = user_resources_server(ctx, "alias_mean", "string_match", lambda app: replace_verify(app, NAN_VERIFY))
    ctx.note("(copied Gym's resources_servers/string_match to WORK/my_gym/resources_servers/alias_mean; its verify "
             "averages matches over metadata.aliases, float('nan') when there are none)")
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='alias_mean')} "
                               f"{overrides}")
    eval_run = gym_eval(ctx, overrides, f"--search-dir {search} --agent alias_mean_simple_agent --input {data} "
                                        f"--output {run}/rollouts.jsonl --num-repeats 2 --concurrency 4",
                        background=True)
    wait_or_interrupt(ctx, eval_run, 150, "`gym eval run`")
    stop_gym(ctx, env_start, policy)
    rewards = [row.get("reward") for row in rows_of(run / "rollouts.jsonl")]
    if len(rewards) == 8 and all(isinstance(r, (int, float)) and r == r for r in rewards):
        raise failed(ctx, f"every rollout got a finite reward (exit {eval_run.returncode})")
    return ("A user's resources server alias_mean (Gym's string_match copied under a --search-dir; verify returns NaN "
            "when metadata.aliases is missing) served by the real `gym env start` (loopback-only namespace) against a "
            f"healthy simulated policy; `gym eval run --no-serve` on 4 tasks x 2 repeats exited {eval_run.returncode}; "
            f"{len(rewards)} rollouts, {len(rows_of(run / 'rollouts_failures.jsonl'))} failure rows.")


@case("verifier_runtime_gym_server_syntax_error", "verifier_runtime", ["syntaxerror"],
      "the user's edited strict_match resources server has a syntax error in app.py (an unclosed parenthesis in its "
      "verify), so the server process died at import and Gym's servers never got ready", netns=True)
def verifier_runtime_gym_server_syntax_error(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 4, start=48, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()

    def broken(app: str) -> str:
        old = "            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)\n"
        assert old in app
        return app.replace(old, "            reward = float(_answers_match(extracted, body.expected_answer, "
                                "body.case_sensitive)\n", 1)

    search = user_resources_server(ctx, "strict_match", "string_match", broken)
    ctx.note("(copied Gym's resources_servers/string_match to WORK/my_gym/resources_servers/strict_match; an edit of "
             "its verify left `reward = float(_answers_match(...)` without its closing parenthesis)")
    ready, code = gym_start_failing(ctx, f"--search-dir {search} "
                                         f"{gym_model_args(url, resources_server='strict_match')} {overrides}", 90)
    ctx.stop(policy, signal.SIGINT, 10)
    if ready or "SyntaxError" not in text_of(run / "env_start.log"):
        raise failed(ctx, f"ready {ready}, or no SyntaxError in env_start.log")
    return ("A user's resources server strict_match (Gym's string_match copied under a --search-dir; an unclosed "
            "parenthesis in its verify) started by the real `gym env start` (loopback-only namespace) against a "
            f"healthy simulated policy; exit {code} (Ctrl-C if still running after 90 s).")


# =====================================================================================================
# cache / resume
# =====================================================================================================


@case("cache_resume_gym_profiled_while_collection_ran", "cache_resume", ["profile"],
      "the user ran `gym eval profile ++allow_partial_rollouts=True` from another terminal while `gym eval run` was "
      "still collecting, and never profiled again after it finished: the reward profile describes a partial "
      "rollouts file and is stale (the rollouts file itself is complete)", netns=True)
def cache_resume_gym_profiled_while_collection_ran(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("mcqa", 8, start=14, folder=run, name="mcqa_tasks.jsonl")
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 5000", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url, resources_server='mcqa')} {overrides}")
    eval_run = gym_eval(ctx, overrides, f"--agent mcqa_simple_agent --input {data} --output {run}/rollouts.jsonl "
                                        "--num-repeats 2 --concurrency 2", background=True)
    wait_for(lambda: finished(ctx, 4, 16)() or eval_run.poll() is not None, 180, "4 rollouts")
    ctx.note("(in a second terminal, while `gym eval run` is still collecting:)")
    profiled = gym_profile(ctx, run, extra="++allow_partial_rollouts=True")
    wait_or_interrupt(ctx, eval_run, 300, "`gym eval run`")
    stop_gym(ctx, env_start, policy)
    profile_rows = rows_of(run / "rollouts_reward_profiling.jsonl")
    in_profile = sum(row.get("num_rollouts", 0) for row in profile_rows)
    if eval_run.returncode != 0 or len(unique_keys(run / "rollouts.jsonl")) != 16 or in_profile >= 16 or profiled:
        raise failed(ctx, f"eval exit {eval_run.returncode}; {in_profile} rollouts in the profile")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve` (8 mcqa tasks x 2 repeats, "
            "concurrency 2, policy latency 5 s); after 4 rollouts, from a second terminal, `gym eval profile "
            f"++allow_partial_rollouts=True` (exit {profiled}, {in_profile} rollouts in the profile); the collection "
            f"then finished (exit {eval_run.returncode}, 16 rollouts) and was never profiled again.")


# =====================================================================================================
# throughput / resources
# =====================================================================================================


@case("throughput_gym_concurrency_one_gave_up", "throughput_resources", ["concurrency"],
      "the collection ran at --concurrency 1 against a model server that answers in 2.5 s and could serve many "
      "requests at once, so 10 tasks x 4 repeats would take far longer than the user's time slot; they gave up with "
      "Ctrl-C a minute in, with only a few rollouts written", netns=True)
def throughput_gym_concurrency_one_gave_up(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 10, start=52, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 2500", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    eval_run = gym_eval(ctx, overrides, f"--agent string_match_simple_agent --input {data} --output "
                                        f"{run}/rollouts.jsonl --num-repeats 4 --concurrency 1", background=True)
    wait_or_interrupt(ctx, eval_run, 60, "`gym eval run` (the user's time slot)")
    stop_gym(ctx, env_start, policy)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got >= 40 or got == 0:
        raise failed(ctx, f"{got} rollouts")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve --concurrency 1` on 10 string_match "
            "tasks x 4 repeats against the simulated policy answering in 2.5 s (no capacity limit); interrupted with "
            f"Ctrl-C after 60 s (exit {eval_run.returncode}) with {got} of 40 rollouts.")


# =====================================================================================================
# built-in engine, launchers: healthy
# =====================================================================================================


@case("healthy_builtin_server_upgrade_then_resumed", "healthy", [],
      "nothing is wrong: the user stopped the collection (Ctrl-C) to restart the model server for a config reload, "
      "restarted it on the same port with the same checkpoint, and resumed with --resume on the same inputs; it "
      "completed every rollout and the profile is complete")
def healthy_builtin_server_upgrade_then_resumed(ctx: Ctx) -> str:
    from gym_pipeline.host import free_loopback_port

    data = ctx.dataset("string_match", 6, start=56, folder=ctx.run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    run = ctx.run
    materialize(ctx, data, 3, "string_match")
    port = free_loopback_port()
    url = f"http://127.0.0.1:{port}/v1"
    serve = f"{GP} serve-policy --port {port} --checkpoint {checkpoint} --latency-ms 300"
    first = ctx.bg(serve, "logs/model_server.log")
    wait_for(lambda: "SIMULATED_POLICY_READY" in text_of(run / "logs" / "model_server.log"), 30, "the policy")
    collect = ctx.bg(shlex.join(collect_argv(run, url, "string_match", 2)), "logs/collect.log")
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 6 or collect.poll() is not None, 120, "6 rollouts")
    ctx.note("Ctrl-C on the collection after 6 rollouts, then Ctrl-C on the model server (to reload its config)")
    ctx.stop(collect, signal.SIGINT, 30)
    ctx.stop(first, signal.SIGINT, 10)
    before = len(rows_of(run / "rollouts.jsonl"))
    ctx.bg(serve, "logs/model_server_restart.log")
    wait_for(lambda: "SIMULATED_POLICY_READY" in text_of(run / "logs" / "model_server_restart.log"), 30, "the policy")
    code = ctx.sh(shlex.join(collect_argv(run, url, "string_match", 2, "--resume")), "logs/collect_resume.log")
    profiled = ctx.sh(shlex.join(profile_argv(run)), "logs/profile.log")
    if code != 0 or profiled != 0 or len(unique_keys(run / "rollouts.jsonl")) != 18 or before >= 18:
        raise failed(ctx, f"resume {code}, profile {profiled}, {before} before")
    return ("`gym-pipeline materialize` (string_match, 6 tasks x 3 repeats); `gym-pipeline collect --concurrency 2` "
            "against the simulated policy (300 ms), stopped with Ctrl-C after 6 rollouts "
            f"(exit {collect.returncode}, {before} on disk); the policy stopped with Ctrl-C and restarted on the same "
            f"port; `gym-pipeline collect --resume` (exit {code}) completed all 18; `gym-pipeline profile` "
            f"(exit {profiled}).")


@case("healthy_slurm_collect_and_profile_429_retried", "healthy", [],
      "nothing is wrong: the collection and the profile ran as Slurm jobs; the endpoint rate-limited a few requests "
      "(429 with Retry-After 1), which were retried, and every rollout succeeded")
def healthy_slurm_collect_and_profile_429_retried(ctx: Ctx) -> str:
    from gym_pipeline.launchers.slurm import SlurmLauncher

    data = ctx.dataset("mcqa", 6, start=40)
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, _ = ctx.policy(checkpoint, "--fault-rate 0.1 --fault-kinds 429 --fault-seed 4 --retry-after-s 1")
    run = ctx.run
    materialize(ctx, data, 3, "mcqa")
    slurm = SlurmLauncher(time_limit="10", poll_interval_s=0.5)
    ended = launched(ctx, slurm, "SlurmLauncher(time_limit='10')", "collect", collect_argv(run, url, "mcqa", 4))
    profiled = launched(ctx, slurm, "SlurmLauncher(time_limit='10')", "profile", profile_argv(run))
    failures = rows_of(run / "rollouts_failures.jsonl")
    if len(unique_keys(run / "rollouts.jsonl")) != 18 or not failures or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"collect {ended}, profile {profiled}, {len(failures)} failures")
    return ("`gym-pipeline materialize` (mcqa, 6 tasks x 3 repeats); `gym-pipeline collect --concurrency 4` as a Slurm "
            f"job (project's SlurmLauncher; {ended}) against the simulated policy answering 10% of requests with 429 "
            f"(Retry-After 1): {len(failures)} attempts retried, all 18 rollouts; `gym-pipeline profile` as a Slurm "
            f"job ({profiled}).")


@case("healthy_docker_cpu_limited_collect", "healthy", [],
      "nothing is wrong: the collect and profile stages ran in Docker containers limited to half a CPU (--cpus 0.5); "
      "slower, but every rollout was collected and profiled")
def healthy_docker_cpu_limited_collect(ctx: Ctx) -> str:
    from gym_pipeline.launchers.docker import DockerLauncher

    data = ctx.dataset("string_match", 6, start=62, folder=ctx.run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 80")
    run = ctx.run
    materialize(ctx, data, 2, "string_match")
    launcher = DockerLauncher(network="host", cpus=0.5)
    ended = docker_launched(ctx, launcher, "DockerLauncher(network='host', cpus=0.5)", "collect",
                     collect_argv(run, url, "string_match", 4))
    profiled = docker_launched(ctx, launcher, "DockerLauncher(network='host', cpus=0.5)", "profile", profile_argv(run))
    if len(unique_keys(run / "rollouts.jsonl")) != 12 or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"collect {ended}, profile {profiled}")
    return ("`gym-pipeline materialize` (string_match, 6 tasks x 2 repeats); `gym-pipeline collect --concurrency 4` and "
            "`gym-pipeline profile` each in a Docker container limited to 0.5 CPU (project's DockerLauncher, "
            f"cpus=0.5; {ended}; {profiled}) against a healthy simulated policy (80 ms).")


@case("healthy_stage_collect_request_timeouts_retried", "healthy", [],
      "nothing is wrong: a few chat completions hung past the sweep's 3 s request timeout and were retried; every "
      "rollout then succeeded and the profile stage completed; the model server was stopped with Ctrl-C afterwards")
def healthy_stage_collect_request_timeouts_retried(ctx: Ctx) -> str:
    from gym_pipeline.launchers.local import LocalLauncher

    data = ctx.dataset("mcqa", 6, start=46, folder=ctx.run, name="mcqa.jsonl")
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, policy = ctx.policy(checkpoint, "--fault-rate 0.1 --fault-kinds timeout --timeout-hold-s 30 --fault-seed 2 "
                                         "--latency-ms 30")
    sweep = write_sweep(ctx, "mcqa", data, checkpoint, num_repeats=3, concurrency=4, request_timeout_s=3)
    ctx.sh(shlex.join(stage_argv(sweep, "materialize", checkpoint, "mcqa")), "logs/materialize.log")
    ended = launched(ctx, LocalLauncher(), "LocalLauncher()", "collect",
                     stage_argv(sweep, "collect", checkpoint, "mcqa", "--model-url", url, "--model-name", "sim-policy"))
    profiled = ctx.sh(shlex.join(stage_argv(sweep, "profile", checkpoint, "mcqa")), "logs/profile.log")
    ctx.note("Ctrl-C on the model server (everything had finished)")
    ctx.stop(policy, signal.SIGINT, 10)
    failures = rows_of(ctx.run / "rollouts_failures.jsonl")
    if len(unique_keys(ctx.run / "rollouts.jsonl")) != 18 or not failures or profiled != 0:
        raise failed(ctx, f"collect {ended}, profile {profiled}, {len(failures)} failures")
    return ("A sweep config (RUN/sweep.json: 3 repeats, concurrency 4, request_timeout_s 3); `gym-pipeline stage "
            "materialize` (6 mcqa tasks), `gym-pipeline stage collect` through the project's LocalLauncher "
            f"({ended}) against the simulated policy holding 10% of requests for 30 s (`--fault-kinds timeout`): "
            f"{len(failures)} attempts timed out and were retried, all 18 rollouts; `gym-pipeline stage profile`; "
            "then Ctrl-C on the policy.")


# =====================================================================================================
# built-in engine, launchers: infra
# =====================================================================================================


@case("infra_builtin_open_files_limit_too_low", "infra", ["ulimit"],
      "the collection ran in a shell whose open-files limit is 12 (ulimit -n, a batch system's default) while "
      "its concurrency needs more sockets and files than that, so most requests failed to connect with Too many "
      "open files (EMFILE) and ran out of attempts")
def infra_builtin_open_files_limit_too_low(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 8, start=60)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 500")
    run = ctx.run
    materialize(ctx, data, 4, "string_match")
    ctx.sh("ulimit -n 12; ulimit -n", "logs/ulimit.log")
    code = ctx.sh(f"ulimit -n 12; {shlex.join(collect_argv(run, url, 'string_match', 64))}", "logs/collect.log",
                  timeout=300)
    if "open files" not in (text_of(run / "logs" / "collect.log") + text_of(run / "rollouts_failures.jsonl")).lower():
        raise failed(ctx, f"collect exited {code} without 'Too many open files'")
    return ("`gym-pipeline materialize` (string_match, 8 tasks x 4 repeats), then `gym-pipeline collect --concurrency 64` "
            f"in a shell with `ulimit -n 12` (logs/ulimit.log) against a healthy simulated policy; exit {code}.")


SLURM_COLLECT = '''
"""Run the collect stage as a Slurm job through gym_pipeline's SlurmLauncher, as a sweep step would."""
import sys
from pathlib import Path

from gym_pipeline.launchers.base import StageLaunch
from gym_pipeline.launchers.slurm import SlurmLauncher

run = Path(sys.argv[1])
launcher = SlurmLauncher(SETTINGS)
state = launcher.run(StageLaunch("collect", sys.argv[2:], run, cwd=run))
print("collect ended:", state.slurm_state, state.exit_code, flush=True)
'''


def slurm_collect_script(ctx: Ctx, settings: str) -> Path:
    script = ctx.run / "run_collect_on_slurm.py"
    script.write_text(SLURM_COLLECT.lstrip("\n").replace("SETTINGS", settings))
    return script


@case("infra_slurm_client_not_on_path", "infra", ["sbatch"],
      "the job was launched from a shell where the Slurm client tools (sbatch, squeue) are not on PATH (the "
      "cluster's slurm module was not loaded), so the Slurm launcher could not submit the collection")
def infra_slurm_client_not_on_path(ctx: Ctx) -> str:
    import shutil

    data = ctx.dataset("mcqa", 4, start=52)
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, _ = ctx.policy(checkpoint)
    run = ctx.run
    materialize(ctx, data, 2, "mcqa")
    script = slurm_collect_script(ctx, "time_limit='20', poll_interval_s=1.0")
    tools = ctx.work / "login_bin"
    tools.mkdir()
    for name in ("bash", "env", "sh", "cat", "ls", "tee", "grep", "sed", "head", "tail", "python3"):
        found = shutil.which(name)
        if found:
            (tools / name).symlink_to(found)
    path = f"{PY.parent}:{tools}"
    ctx.note(f"(a login shell without `module load slurm`: PATH={path.replace(str(ctx.work), 'WORK')})")
    env = {**ctx.env, "PATH": path}
    ctx.sh("command -v sbatch || echo 'sbatch: not on PATH'", "logs/which_sbatch.log", env=env)
    code = ctx.sh(f"{PY} {script} {run} {shlex.join(collect_argv(run, url, 'mcqa', 4))}",
                  "logs/run_collect_on_slurm.log", env=env, timeout=120)
    if code == 0 or rows_of(run / "rollouts.jsonl"):
        raise failed(ctx, f"the job ran (exit {code})")
    return ("`gym-pipeline materialize` (mcqa, 4 tasks x 2 repeats), then a user's script (RUN/run_collect_on_slurm.py) "
            "running the built-in `gym-pipeline collect` as a Slurm job through the project's SlurmLauncher, from a "
            f"shell whose PATH has no Slurm client tools (logs/which_sbatch.log); exit {code}.")


@case("infra_slurm_cpus_beyond_node", "infra", ["cpus"],
      "the collection's Slurm job asks for 16 CPUs per task (a setting copied from the GPU cluster) on a cluster "
      "whose only node has 2, so the job stayed PENDING (no node can ever satisfy it) and never ran; the user gave "
      "up with Ctrl-C")
def infra_slurm_cpus_beyond_node(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 4, start=68)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint)
    run = ctx.run
    materialize(ctx, data, 2, "string_match")
    script = slurm_collect_script(ctx, "time_limit='20', cpus_per_task=16, poll_interval_s=1.0")
    ctx.sh("sinfo -N -o '%N %c %m %T'", "logs/sinfo.log")
    job = ctx.bg(f"{PY} {script} {run} {shlex.join(collect_argv(run, url, 'string_match', 4))}",
                 "logs/run_collect_on_slurm.log")
    time.sleep(40)
    ctx.sh("squeue -t all -o '%.10i %.22j %.10T %.6C %R'", "logs/squeue.log")
    wait_or_interrupt(ctx, job, 1, "the job (still pending after 40 s)")
    code = job.returncode
    if rows_of(run / "rollouts.jsonl") or "PENDING" not in text_of(run / "logs" / "squeue.log"):
        raise failed(ctx, f"the job ran, or was not pending (exit {code})")
    return ("`gym-pipeline materialize` (string_match, 4 tasks x 2 repeats), then a user's script "
            "(RUN/run_collect_on_slurm.py) running the built-in `gym-pipeline collect` as a Slurm job through the "
            "project's SlurmLauncher with cpus_per_task=16 on the one-node cluster (2 CPUs, logs/sinfo.log); after 40 s "
            f"the job was still pending (logs/squeue.log) and the script was interrupted with Ctrl-C (exit {code}).")


# =====================================================================================================
# built-in engine, launchers: model serving
# =====================================================================================================


@case("model_serving_stage_collect_server_frozen", "model_serving", [],
      "the model server process froze part way through the collection (stopped: its port still accepts "
      "connections, nothing answers), so every later request ran into the request timeout and the remaining "
      "rollouts failed after their attempts")
def model_serving_stage_collect_server_frozen(ctx: Ctx) -> str:
    from gym_pipeline.launchers.local import LocalLauncher

    data = ctx.dataset("string_match", 6, start=72, folder=ctx.run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 300")
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=2, concurrency=2, request_timeout_s=3)
    ctx.sh(shlex.join(stage_argv(sweep, "materialize", checkpoint, "string_match")), "logs/materialize.log")
    import threading

    argv = stage_argv(sweep, "collect", checkpoint, "string_match", "--model-url", url, "--model-name", "sim-policy")
    result: dict = {}
    ctx.note(f"LocalLauncher().run(StageLaunch('collect', {ctx._shown(shlex.join(argv))}))")
    from recipes import launch

    worker = threading.Thread(target=lambda: result.update(ended=launch(LocalLauncher(), "collect", argv, ctx.run)))
    worker.start()
    wait_for(lambda: len(rows_of(ctx.run / "rollouts.jsonl")) >= 4 or not worker.is_alive(), 120, "4 rollouts")
    pid = serving_pid(policy)
    ctx.note(f"the model server hung after 4 of 12 rollouts: kill -STOP {pid} (its process)")
    ctx.sh(f"kill -STOP {pid}; sleep 1; ps -o pid,stat,cmd -p {pid}", "logs/model_server_ps.log")
    worker.join(240)
    ctx.sh(f"kill -CONT {pid}")
    failures = rows_of(ctx.run / "rollouts_failures.jsonl")
    if worker.is_alive() or not any(f.get("_ng_failure_terminal") for f in failures):
        raise failed(ctx, f"no rollout ran out of attempts: {result}")
    return ("A sweep config (RUN/sweep.json: 2 repeats, concurrency 2, request_timeout_s 3); `gym-pipeline stage "
            "materialize` (6 string_match tasks), `gym-pipeline stage collect` through the project's LocalLauncher "
            "against the simulated policy (300 ms); after 4 rollouts the policy's process was frozen (`kill -STOP`, "
            f"logs/model_server_ps.log): {result.get('ended')}; {len(failures)} failed attempts.")


@case("model_serving_slurm_server_job_cancelled", "model_serving", [],
      "the model server's Slurm job was cancelled (scancel by an administrator's cleanup) while the collection was "
      "running against it, so the remaining requests found no server and failed after their attempts")
def model_serving_slurm_server_job_cancelled(ctx: Ctx) -> str:
    data = ctx.dataset("mcqa", 6, start=18)
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    run = ctx.run
    materialize(ctx, data, 3, "mcqa")
    job = serve_and_collect(ctx, checkpoint, "ModelServerConfig(kind='simulated', latency_ms=400, "
                                             "startup_timeout_s=60)",
                            "SlurmLauncherSettings(time_limit='20', poll_interval_s=0.5)", env="mcqa", timeout_s=10)
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 5 or job.poll() is not None, 150, "5 rollouts")
    job_id = launcher_state(ctx, "model_server").get("slurm_job_id")
    if not job_id:
        raise failed(ctx, f"no Slurm job id for the model server: {launcher_state(ctx, 'model_server')}")
    ctx.note(f"(an administrator's cleanup script cancels job {job_id}, the model server)")
    ctx.sh(f"{{ scancel {job_id}; sleep 2; squeue -t all -j {job_id} -o '%.10i %.20j %.10T %R'; }}",
           "logs/scancel.log")
    wait_or_interrupt(ctx, job, 240, "the script")
    failures = rows_of(run / "rollouts_failures.jsonl")
    got = len(rows_of(run / "rollouts.jsonl"))
    if got >= 18 or not failures:
        raise failed(ctx, f"{got} rollouts, {len(failures)} failures (exit {job.returncode})")
    return ("`gym-pipeline materialize` (mcqa, 6 tasks x 3 repeats); a user's script (RUN/serve_and_collect.py) serves "
            "the checkpoint with the simulated policy (400 ms) as a Slurm job through the project's serve_checkpoint + "
            "SlurmLauncherSettings and collects with the built-in collector (concurrency 2); after 5 rollouts the "
            f"server's job was cancelled (`scancel`, logs/scancel.log); the script exited {job.returncode} with {got} "
            f"of 18 rollouts and {len(failures)} failed attempts.")


# =====================================================================================================
# built-in engine, launchers: config
# =====================================================================================================


@case("config_slurm_time_limit_format", "config", ["time_limit"],
      "the Slurm launcher's time_limit is written '2h', which is not a time format sbatch accepts (minutes, or "
      "[days-]hours:minutes:seconds such as 02:00:00), so sbatch refused the job and nothing ran")
def config_slurm_time_limit_format(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 4, start=76)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint)
    run = ctx.run
    materialize(ctx, data, 2, "string_match")
    script = slurm_collect_script(ctx, "time_limit='2h', poll_interval_s=1.0")
    code = ctx.sh(f"{PY} {script} {run} {shlex.join(collect_argv(run, url, 'string_match', 4))}",
                  "logs/run_collect_on_slurm.log", timeout=120)
    if code == 0 or rows_of(run / "rollouts.jsonl"):
        raise failed(ctx, f"the job ran (exit {code})")
    return ("`gym-pipeline materialize` (string_match, 4 tasks x 2 repeats), then a user's script "
            "(RUN/run_collect_on_slurm.py) running the built-in `gym-pipeline collect` as a Slurm job through the "
            f"project's SlurmLauncher(time_limit='2h'); exit {code}.")


@case("config_sweep_dataset_path_wrong", "config", ["dataset"],
      "the sweep config's environment points its dataset at data/string_match_v2.jsonl, a file that does not exist "
      "(the file is data/string_match.jsonl), so the materialize stage failed and nothing was collected")
def config_sweep_dataset_path_wrong(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 4, start=82, folder=ctx.run / "data", name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint)
    sweep = write_sweep(ctx, "string_match", ctx.run / "data" / "string_match_v2.jsonl", checkpoint, num_repeats=2)
    code = ctx.sh(shlex.join(stage_argv(sweep, "materialize", checkpoint, "string_match")), "logs/materialize.log")
    collected = ctx.sh(shlex.join(stage_argv(sweep, "collect", checkpoint, "string_match", "--model-url", url,
                                             "--model-name", "sim-policy")), "logs/collect.log")
    ctx.sh(f"ls {ctx.run}/data", "logs/ls_data.log")
    if code == 0:
        raise failed(ctx, "materialize succeeded")
    return ("A sweep config (RUN/sweep.json) whose string_match environment names dataset RUN/data/string_match_v2.jsonl "
            "(only RUN/data/string_match.jsonl exists, logs/ls_data.log); `gym-pipeline stage materialize` exited "
            f"{code}, then `gym-pipeline stage collect` exited {collected}.")


@case("config_builtin_collect_with_wrong_env", "config", ["env"],
      "the collection of string_match inputs was run with `--env mcqa` (copied from the mcqa job's command), so the "
      "mcqa verifier graded rows that have no options and every rollout came back as a verifier input error")
def config_builtin_collect_with_wrong_env(ctx: Ctx) -> str:
    from gym_pipeline.launchers.docker import DockerLauncher

    data = ctx.dataset("string_match", 6, start=64)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint)
    run = ctx.run
    materialize(ctx, data, 2, "string_match")
    ended = docker_launched(ctx, DockerLauncher(network="host"), "DockerLauncher(network='host')", "collect",
                            collect_argv(run, url, "mcqa", 4))
    profiled = ctx.sh(shlex.join(profile_argv(run, "--allow-partial")), "logs/profile.log")
    rows = rows_of(run / "rollouts.jsonl")
    if not rows or not all(row.get("failure_kind") for row in rows):
        raise failed(ctx, f"not every row failed its verification ({ended})")
    return ("`gym-pipeline materialize` (string_match, 6 tasks x 2 repeats, agent string_match_simple_agent), then "
            "`gym-pipeline collect --env mcqa --concurrency 4` in a Docker container through the project's "
            f"DockerLauncher ({ended}) against a healthy simulated policy; `gym-pipeline profile --allow-partial` "
            f"(exit {profiled}).")


# =====================================================================================================
# built-in engine, launchers: data / schema
# =====================================================================================================


@case("data_schema_builtin_gzipped_jsonl", "data_schema", ["gzip"],
      "the dataset file string_match.jsonl is gzip-compressed (downloaded as .jsonl.gz and renamed), not JSON Lines "
      "text, so materialization could not read it")
def data_schema_builtin_gzipped_jsonl(ctx: Ctx) -> str:
    source = ctx.dataset("string_match", 6, start=80, name="plain.jsonl")
    data = ctx.run / "data" / "string_match.jsonl"
    data.parent.mkdir()
    data.write_bytes(gzip.compress(source.read_bytes()))
    ctx.note("(RUN/data/string_match.jsonl: the shared bucket's string_match.jsonl.gz, renamed without gunzip)")
    ctx.sh(f"file {data} || true; head -c 16 {data} | od -An -tx1", "logs/file_info.log")
    code = ctx.sh(f"{GP} materialize --input {data} --num-repeats 2 --agent string_match_simple_agent "
                  f"--output {ctx.run}/rollouts_materialized_inputs.jsonl", "logs/materialize.log")
    if code == 0:
        raise failed(ctx, "materialize read the gzip file")
    return ("A gzip-compressed file named RUN/data/string_match.jsonl (6 tasks; first bytes in logs/file_info.log) given "
            f"to `gym-pipeline materialize --num-repeats 2`; exit {code}.")


@case("data_schema_answers_wrapped_in_latex_dollars", "data_schema", ["expected_answer"],
      "a conversion from a LaTeX source kept math delimiters in the labels: the boxed rows' expected_answer is "
      "\"$36$\" instead of \"36\", so correct answers never match and those rows score 0 (the run completed)")
def data_schema_answers_wrapped_in_latex_dollars(ctx: Ctx) -> str:
    from gym_pipeline.launchers.slurm import SlurmLauncher

    source = ctx.dataset("string_match", 40, start=0, name="all.jsonl")
    boxed = [row for row in rows_of(source) if row.get("extraction_mode") == "boxed"][:6]
    if len(boxed) < 4:
        raise failed(ctx, f"only {len(boxed)} boxed rows")
    data = ctx.run / "math_boxed.jsonl"
    data.write_text("".join(json.dumps(row) + "\n" for row in boxed))
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    rewrite_rows(data, lambda index, row: bool(row.update(expected_answer=f"${row['expected_answer']}$")) or True)
    ctx.note("(RUN/math_boxed.jsonl: every expected_answer written as $<answer>$ by the LaTeX conversion)")
    url, _ = ctx.policy(checkpoint)
    run = ctx.run
    materialize(ctx, data, 3, "string_match")
    ended = launched(ctx, SlurmLauncher(time_limit="10", poll_interval_s=0.5), "SlurmLauncher(time_limit='10')",
                     "collect", collect_argv(run, url, "string_match", 4))
    profiled = ctx.sh(shlex.join(profile_argv(run)), "logs/profile.log")
    rollouts = rows_of(run / "rollouts.jsonl")
    mean = sum(row.get("reward") or 0 for row in rollouts) / max(1, len(rollouts))
    if len(rollouts) != len(boxed) * 3 or mean > 0.2:
        raise failed(ctx, f"{len(rollouts)} rollouts, mean reward {mean:.2f} ({ended})")
    return (f"{len(boxed)} boxed string_match rows whose expected_answer is wrapped in $...$; `gym-pipeline materialize` "
            f"(3 repeats), the built-in `gym-pipeline collect` as a Slurm job (project's SlurmLauncher; {ended}) against "
            f"a healthy simulated policy, then `gym-pipeline profile` (exit {profiled}); mean reward {mean:.2f}.")


# =====================================================================================================
# built-in engine: verifier / runtime
# =====================================================================================================

DEADLOCK_COLLECTOR = '''
"""Collect string_match with our cached verifier on the built-in engine."""
import asyncio
import sys
import threading
from pathlib import Path

from gym_pipeline.engines.builtin import CollectorSettings, collect
from gym_pipeline.environments import StringMatchEnvironment

_CACHE: dict = {}
_LOCK = threading.Lock()


class CachedMatch(StringMatchEnvironment):
    """Caches verdicts per (row, answer): repeats of a task often give the same answer."""

    def _remember(self, key, verdict):
        with _LOCK:
            _CACHE[key] = verdict
        return verdict

    def verify(self, row, response_text):
        key = (row["expected_answer"], response_text)
        with _LOCK:
            if key in _CACHE:
                return _CACHE[key]
            return self._remember(key, super().verify(row, response_text))


inputs, output, url = sys.argv[1:4]
summary = asyncio.run(collect(Path(inputs), Path(output), CachedMatch(), CollectorSettings(model_url=url, concurrency=4)))
print(f"{summary.collected} collected, {summary.failed} failed of {summary.total} in {summary.elapsed_s:.1f}s")
'''


@case("verifier_runtime_builtin_verifier_deadlock", "verifier_runtime", ["lock"],
      "the user's cached verifier takes a non-reentrant lock and, while holding it, calls a helper that takes the "
      "same lock again, so the first verify call deadlocked and the whole collection hung with no further output "
      "until it was interrupted")
def verifier_runtime_builtin_verifier_deadlock(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 6, start=4)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint)
    script = user_collector(ctx, DEADLOCK_COLLECTOR, "collect_cached_match.py")
    run = ctx.run
    materialize(ctx, data, 3, "string_match")
    collect = ctx.bg(f"{PY} -X faulthandler {script} {run}/rollouts_materialized_inputs.jsonl {run}/rollouts.jsonl "
                     f"{url}", "logs/collect.log")
    time.sleep(45)
    if collect.poll() is None:
        pid = serving_pid(collect, "collect_cached_match")
        ctx.note(f"45 s without progress: kill -ABRT {pid} (the script runs with -X faulthandler: a stack dump)")
        ctx.sh(f"kill -ABRT {pid}")
    wait_or_interrupt(ctx, collect, 20, "the collection")
    if len(rows_of(run / "rollouts.jsonl")) >= 18 or "_remember" not in text_of(run / "logs" / "collect.log"):
        raise failed(ctx, "the collection completed, or no stack dump")
    return ("The built-in engine's collector driven by a user's script (RUN/collect_cached_match.py) whose verifier "
            "re-acquires a threading.Lock it already holds; string_match, 6 tasks x 3 repeats, healthy simulated "
            f"policy, run with `python -X faulthandler`; no progress for 45 s, then `kill -ABRT` for a stack dump (exit "
            f"{collect.returncode}); "
            f"{len(rows_of(run / 'rollouts.jsonl'))} rollouts written.")


INVERTED_COLLECTOR = '''
"""Collect string_match on the built-in engine with our verifier ported from the trainer's loss code."""
import asyncio
import sys
from pathlib import Path

from gym_pipeline.engines.builtin import CollectorSettings, collect
from gym_pipeline.environments import StringMatchEnvironment


class PortedMatch(StringMatchEnvironment):
    def verify(self, row, response_text):
        verdict = super().verify(row, response_text)
        # the trainer minimises the mismatch: 0 when the answer is right
        verdict["reward"] = 1.0 - float(verdict["reward"])
        return verdict


inputs, output, url = sys.argv[1:4]
summary = asyncio.run(collect(Path(inputs), Path(output), PortedMatch(), CollectorSettings(model_url=url, concurrency=4)))
print(f"{summary.collected} collected, {summary.failed} failed of {summary.total} in {summary.elapsed_s:.1f}s")
'''


@case("verifier_runtime_builtin_reward_inverted", "verifier_runtime", ["reward"],
      "the user's verifier, ported from the trainer's loss code, returns 1 - match: a correct answer scores 0 and a "
      "wrong one 1, so the completed run's rewards are inverted (the better checkpoint looks worse)")
def verifier_runtime_builtin_reward_inverted(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 8, start=8)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint)
    script = user_collector(ctx, INVERTED_COLLECTOR, "collect_ported_match.py")
    run = ctx.run
    materialize(ctx, data, 3, "string_match")
    code = ctx.sh(f"{PY} {script} {run}/rollouts_materialized_inputs.jsonl {run}/rollouts.jsonl {url}",
                  "logs/collect.log")
    profiled = ctx.sh(shlex.join(profile_argv(run)), "logs/profile.log")
    rows = rows_of(run / "rollouts.jsonl")
    inverted = [row for row in rows if row.get("extracted_answer") and row.get("expected_answer")
                and str(row["extracted_answer"]).strip().lower() == str(row["expected_answer"]).strip().lower()
                and row.get("reward") == 0.0]
    if code != 0 or len(rows) != 24 or not inverted:
        raise failed(ctx, f"exit {code}, {len(rows)} rows, {len(inverted)} correct answers scored 0")
    return ("The built-in engine's collector driven by a user's script (RUN/collect_ported_match.py) whose "
            "StringMatchEnvironment subclass returns 1 - reward; string_match, 8 tasks x 3 repeats, healthy simulated "
            f"policy (exit {code}); {len(inverted)} rollouts whose extracted answer equals the expected one scored 0; "
            f"`gym-pipeline profile` (exit {profiled}).")


# =====================================================================================================
# built-in engine: cache / resume
# =====================================================================================================


@case("cache_resume_stage_repeats_raised_without_rematerialize", "cache_resume", ["materialize"],
      "the sweep's num_repeats was raised from 2 to 4 after the materialize stage had run, and only the collect and "
      "profile stages were re-run: the collection used the old 2-repeat materialized inputs, so the run has half "
      "the rollouts per task the config asks for")
def cache_resume_stage_repeats_raised_without_rematerialize(ctx: Ctx) -> str:
    data = ctx.dataset("mcqa", 5, start=30, folder=ctx.run, name="mcqa.jsonl")
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = write_sweep(ctx, "mcqa", data, checkpoint, num_repeats=2, concurrency=4)
    ctx.sh(shlex.join(stage_argv(sweep, "materialize", checkpoint, "mcqa")), "logs/materialize.log")
    config = json.loads(sweep.read_text())
    config["num_repeats"] = 4
    sweep.write_text(json.dumps(config, indent=2) + "\n")
    ctx.note("(RUN/sweep.json edited: num_repeats 2 -> 4 for tighter confidence intervals; materialize not re-run)")
    code = ctx.sh(shlex.join(stage_argv(sweep, "collect", checkpoint, "mcqa", "--model-url", url,
                                        "--model-name", "sim-policy")), "logs/collect.log")
    profiled = ctx.sh(shlex.join(stage_argv(sweep, "profile", checkpoint, "mcqa")), "logs/profile.log")
    repeats = {row["_ng_rollout_index"] for row in rows_of(ctx.run / "rollouts_materialized_inputs.jsonl")}
    if len(repeats) != 2:
        raise failed(ctx, f"materialized repeats {repeats} (collect {code})")
    return ("A sweep config (RUN/sweep.json, 5 mcqa tasks, num_repeats 2); `gym-pipeline stage materialize`; then "
            "num_repeats raised to 4 in the config and only `gym-pipeline stage collect` (exit "
            f"{code}) and `gym-pipeline stage profile` (exit {profiled}) re-run against a healthy simulated policy.")


# =====================================================================================================
# built-in engine, launchers: throughput / resources
# =====================================================================================================


@case("throughput_slurm_served_vllm_queue_overflow", "throughput_resources", ["concurrency"],
      "the vllm-kind model server (run as a Slurm job) generates 1 request at a time and queues 3, while the "
      "collection sent 24 at once, so most requests were refused with 429 overloaded until their attempts ran out")
def throughput_slurm_served_vllm_queue_overflow(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 8, start=12)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    run = ctx.run
    materialize(ctx, data, 3, "string_match")
    command = (f'["{GP}", "serve-policy", "--checkpoint", "{{checkpoint_dir}}", "--host", "127.0.0.1", "--port", '
               '"{port}", "--max-running", "1", "--max-waiting", "3", "--latency-ms", "400"]')
    job = serve_and_collect(ctx, checkpoint, f"ModelServerConfig(kind='vllm', startup_timeout_s=60, command={command})",
                            "SlurmLauncherSettings(time_limit='20', poll_interval_s=0.5)", concurrency=24)
    wait_or_interrupt(ctx, job, 240, "the script")
    failures = rows_of(run / "rollouts_failures.jsonl")
    if not any(f.get("_ng_failure_http_status") == 429 for f in failures):
        raise failed(ctx, f"no 429 (exit {job.returncode})")
    return ("`gym-pipeline materialize` (string_match, 8 tasks x 3 repeats); a user's script (RUN/serve_and_collect.py) "
            "starts the model server as a Slurm job through the project's serve_checkpoint (kind vllm, command "
            "`gym-pipeline serve-policy --max-running 1 --max-waiting 3 --latency-ms 400`, SlurmLauncherSettings) and "
            f"collects at concurrency 24; the script exited {job.returncode} with "
            f"{len(rows_of(run / 'rollouts.jsonl'))} of 24 rollouts, {len(failures)} failed attempts.")


# =====================================================================================================
# more real NeMo Gym cases
# =====================================================================================================


@case("healthy_gym_complete_profiled_with_allow_partial", "healthy", [],
      "nothing is wrong: a complete real NeMo Gym collection was profiled with ++allow_partial_rollouts=True out of "
      "habit; no rollout was missing, so the profile is the same as a strict one", netns=True)
def healthy_gym_complete_profiled_with_allow_partial(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=66, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 50", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval(ctx, overrides, f"--agent string_match_simple_agent --input {data} --output {run}/rollouts.jsonl "
                                    "--num-repeats 3 --concurrency 4")
    profiled = gym_profile(ctx, run, extra="++allow_partial_rollouts=True")
    stop_gym(ctx, env_start, policy)
    if code != 0 or profiled != 0 or len(unique_keys(run / "rollouts.jsonl")) != 15:
        raise failed(ctx, f"eval exit {code}, profile {profiled}")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve` (5 string_match tasks x 3 repeats, "
            "concurrency 4) against a healthy simulated policy, all 15 rollouts; `gym eval profile "
            "++allow_partial_rollouts=True`; servers stopped with Ctrl-C.")


@case("infra_gym_results_file_system_read_only", "infra", ["read-only"],
      "the file system holding RUN/results (a scratch mount) is read-only, so `gym eval run` could not write its "
      "materialized inputs or rollouts there (EROFS, Read-only file system)", netns=True)
def infra_gym_results_file_system_read_only(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("mcqa", 4, start=26, folder=run, name="mcqa_tasks.jsonl")
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    results = run / "results"
    results.mkdir()
    ctx.sh(f"mount -t tmpfs -o size=8m tmpfs {results} && mount -o remount,ro {results}")
    ctx.note("(RUN/results: the scratch file system, remounted read-only by the storage team's maintenance)")
    ctx.sh(f"findmnt -no TARGET,FSTYPE,OPTIONS {results} | sed 's#{run}#RUN#'", "mount_info.log")
    env_start = gym_start(ctx, f"{gym_model_args(url, resources_server='mcqa')} {overrides}")
    code = gym_eval(ctx, overrides, f"--agent mcqa_simple_agent --input {data} --output {results}/rollouts.jsonl "
                                    "--num-repeats 2 --concurrency 4")
    stop_gym(ctx, env_start, policy)
    subprocess.run(["umount", str(results)], check=False)
    if code == 0 or "read-only" not in text_of(run / "eval_run.log").lower():
        raise failed(ctx, f"eval exit {code} without a read-only error")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace, healthy servers) `gym eval run --no-serve --output "
            "RUN/results/rollouts.jsonl` (4 mcqa tasks x 2 repeats) with RUN/results on a read-only mount "
            f"(mount_info.log); exit {code}.")


@case("model_serving_gym_model_url_without_v1", "model_serving", ["/v1"],
      "`gym env start --model-url` was given the server's root (http://127.0.0.1:PORT) without the /v1 path where "
      "the OpenAI-compatible API lives, so the model's /models and chat-completion calls got 404 Not Found",
      netns=True)
def model_serving_gym_model_url_without_v1(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 4, start=70, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    root = url.removesuffix("/v1")
    overrides = ctx.gym_overrides()
    env_start = ctx.gym_env_start(f"{gym_model_args(root)} {overrides}", wait=False)
    ready = wait_env_start(ctx, env_start, 90)
    code = None
    if ready:
        eval_run = gym_eval(ctx, overrides, f"--agent string_match_simple_agent --input {data} --output "
                                            f"{run}/rollouts.jsonl --num-repeats 2 --concurrency 4", background=True)
        wait_or_interrupt(ctx, eval_run, 120, "`gym eval run`")
        code = eval_run.returncode
    elif env_start.poll() is None:
        ctx.note("90 s without `gym env start` getting ready: Ctrl-C on it")
    stop_gym(ctx, env_start, policy)
    if len(rows_of(run / "rollouts.jsonl")) == 8 or "404" not in text_of(run / "policy_server.log") + gym_logs(ctx):
        raise failed(ctx, f"no 404 or every rollout succeeded (ready {ready}, eval {code})")
    return (f"Real NeMo Gym 0.7.0 (loopback-only namespace): `gym env start --model-url {root.rsplit(':', 1)[0]}:PORT` "
            "(the policy's root, without /v1) against a healthy simulated policy"
            + (f", then `gym eval run --no-serve` (4 tasks x 2 repeats) exited {code}." if code is not None else
               f"; it did not get ready (exit {env_start.returncode})."))


@case("config_gym_eval_run_without_no_serve", "config", ["--no-serve"],
      "`gym eval run` was run without --no-serve while `gym env start` was already serving; in its serving mode it "
      "does not take the user's --input file (it serves its own prepared dataset), so it stopped before collecting "
      "instead of collecting the input against the running servers",
      netns=True)
def config_gym_eval_run_without_no_serve(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 4, start=74, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    command = (f"{GYM} eval run {gym_model_args(url)} --agent string_match_simple_agent --input {data} "
               f"--output {run}/rollouts.jsonl --num-repeats 2 --concurrency 4 ++route_failures_to_sidecar=true "
               f"{overrides}")
    eval_run = ctx.bg(command, "eval_run.log")
    wait_or_interrupt(ctx, eval_run, 120, "`gym eval run`")
    stop_gym(ctx, env_start, policy)
    if len(rows_of(run / "rollouts.jsonl")) == 8:
        raise failed(ctx, f"the run collected everything (exit {eval_run.returncode})")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym env start` on string_match (ready), then `gym eval run` "
            "with the same server arguments and overrides but without --no-serve (4 tasks x 2 repeats); exit "
            f"{eval_run.returncode} (Ctrl-C if still running after 120 s).")


@case("healthy_gym_resume_without_inputs_started_afresh", "healthy", [],
      "nothing is wrong: after replacing two mislabelled tasks the user deleted the materialized inputs and ran the "
      "interrupted collection again with --resume; Gym skipped the resume (no materialized inputs, a logged notice) "
      "and collected every rollout of the edited data afresh, then it was profiled", netns=True)
def healthy_gym_resume_without_inputs_started_afresh(ctx: Ctx) -> str:
    run = ctx.run
    pool = ctx.dataset("string_match", 7, start=0, name="pool.jsonl").read_text().splitlines(keepends=True)
    data = run / "tasks.jsonl"
    data.write_text("".join(pool[:5]))
    both = ctx.work / "both.jsonl"
    both.write_text("".join(pool))
    checkpoint = checkpoints(ctx, "string_match", both)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 600", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    args = (f"--agent string_match_simple_agent --input {data} --output {run}/rollouts.jsonl --num-repeats 2 "
            "--concurrency 2")
    first = gym_eval(ctx, overrides, args, log="eval_run_1.log", background=True)
    wait_for(lambda: finished(ctx, 5, 10, "eval_run_1.log")() or first.poll() is not None, 180, "5 rollouts")
    ctx.note("Ctrl-C on `gym eval run` after 5 of 10 rollouts (two tasks turned out to be mislabelled)")
    ctx.stop(first, signal.SIGINT, 30)
    lines = data.read_text().splitlines(keepends=True)
    lines[1], lines[3] = pool[5], pool[6]
    data.write_text("".join(lines))
    ctx.note("(RUN/tasks.jsonl edited: tasks 2 and 4 replaced by two new tasks)")
    ctx.sh(f"rm {run}/rollouts_materialized_inputs.jsonl; ls {run}", "rm_inputs.log")
    code = gym_eval(ctx, overrides, args + " --resume", log="eval_run_2_resume.log")
    profiled = gym_profile(ctx, run)
    stop_gym(ctx, env_start, policy)
    answers = {json.loads(line)["expected_answer"] for line in lines}
    rows = rows_of(run / "rollouts.jsonl")
    if (code != 0 or profiled != 0 or len(unique_keys(run / "rollouts.jsonl")) != 10 or len(rows) != 10
            or any(row.get("expected_answer") not in answers for row in rows)
            or "Skipping resume_from_cache" not in text_of(run / "eval_run_2_resume.log")):
        raise failed(ctx, f"resume exit {code}, profile {profiled}, {len(rows)} rows")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve` (5 string_match tasks x 2 "
            "repeats, concurrency 2, policy latency 600 ms) stopped with Ctrl-C after 5 rollouts; tasks 2 and 4 of "
            "RUN/tasks.jsonl replaced; rollouts_materialized_inputs.jsonl deleted; the same command with --resume "
            f"(exit {code}; Gym skipped the resume and collected all 10 rollouts of the edited data); `gym eval "
            f"profile` (exit {profiled}).")


@case("cache_resume_gym_resume_into_last_weeks_output", "cache_resume", ["--resume"],
      "the user ran this week's dataset with `--resume --output results/rollouts.jsonl`, a path that still held last "
      "week's finished run on another dataset: Gym reused last week's materialized inputs and counted every rollout "
      "as done, so nothing of this week's tasks was collected and the profile is last week's", netns=True)
def cache_resume_gym_resume_into_last_weeks_output(ctx: Ctx) -> str:
    run = ctx.run
    week1 = ctx.dataset("string_match", 4, start=30, folder=run, name="tasks_week48.jsonl")
    week2 = ctx.dataset("string_match", 4, start=40, folder=run, name="tasks_week49.jsonl")
    both = ctx.work / "both.jsonl"
    both.write_text(week1.read_text() + week2.read_text())
    checkpoint = checkpoints(ctx, "string_match", both)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 40", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    out = f"--output {run}/results/rollouts.jsonl --num-repeats 2 --concurrency 4"
    first = gym_eval(ctx, overrides, f"--agent string_match_simple_agent --input {week1} {out}",
                     log="eval_run_week48.log")
    gym_profile(ctx, run / "results", log="eval_profile_week48.log")
    ctx.note("(a week later, the same command line from the shell history, with the new input file)")
    code = gym_eval(ctx, overrides, f"--agent string_match_simple_agent --input {week2} {out} --resume",
                    log="eval_run_week49.log")
    profiled = gym_profile(ctx, run / "results", log="eval_profile_week49.log")
    stop_gym(ctx, env_start, policy)
    answers = {row.get("expected_answer") for row in rows_of(run / "results" / "rollouts.jsonl")}
    new = {row["expected_answer"] for row in rows_of(week2)}
    if first != 0 or answers & new:
        raise failed(ctx, f"week 49 tasks were collected (exit {code})")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve --input tasks_week48.jsonl --output "
            "RUN/results/rollouts.jsonl` (4 tasks x 2 repeats) and `gym eval profile`; then `gym eval run --no-serve "
            f"--input tasks_week49.jsonl` (4 other tasks) to the same output with --resume (exit {code}) and `gym eval "
            f"profile` (exit {profiled}).")


# =====================================================================================================
# more built-in engine cases
# =====================================================================================================


@case("data_schema_stage_mcqa_lowercase_option_letters", "data_schema", ["options"],
      "a re-export wrote the mcqa options with lowercase letter keys ({\"a\": ...}) while the verifier needs the "
      "uppercase letters, so every rollout came back as a verifier input error and nothing was scored")
def data_schema_stage_mcqa_lowercase_option_letters(ctx: Ctx) -> str:
    data = ctx.dataset("mcqa", 6, start=36, folder=ctx.run, name="mcqa_reexport.jsonl")
    checkpoint = checkpoints(ctx, "mcqa", data)[1]

    def lower(index: int, row: dict) -> bool:
        row["options"] = [{key.lower(): text for key, text in option.items()} for option in row["options"]]
        return True

    rewrite_rows(data, lower)
    ctx.note("(RUN/mcqa_reexport.jsonl: options written as [{\"a\": ...}, {\"b\": ...}, ...])")
    url, _ = ctx.policy(checkpoint)
    sweep = write_sweep(ctx, "mcqa", data, checkpoint, num_repeats=2, concurrency=4)
    ctx.sh(shlex.join(stage_argv(sweep, "materialize", checkpoint, "mcqa")), "logs/materialize.log")
    collected = ctx.sh(shlex.join(stage_argv(sweep, "collect", checkpoint, "mcqa", "--model-url", url,
                                             "--model-name", "sim-policy")), "logs/collect.log")
    profiled = ctx.sh(shlex.join(stage_argv(sweep, "profile", checkpoint, "mcqa")), "logs/profile.log")
    rows = rows_of(ctx.run / "rollouts.jsonl")
    if not rows or not all(row.get("failure_kind") for row in rows):
        raise failed(ctx, f"some rollouts were scored (collect {collected})")
    return ("6 mcqa rows whose options have lowercase letter keys; a sweep config (RUN/sweep.json, 2 repeats); "
            f"`gym-pipeline stage materialize`, `gym-pipeline stage collect` (exit {collected}) against a healthy "
            f"simulated policy, `gym-pipeline stage profile` (exit {profiled}).")


@case("cache_resume_builtin_partial_profile_never_refreshed", "cache_resume", ["profile"],
      "the profile was made with --allow-partial while the collection was still running (to peek at early numbers) "
      "and never made again after the collection completed: the reward profile on disk is stale and covers only "
      "part of the rollouts")
def cache_resume_builtin_partial_profile_never_refreshed(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 6, start=44)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 500")
    run = ctx.run
    materialize(ctx, data, 4, "string_match")
    collect = ctx.bg(shlex.join(collect_argv(run, url, "string_match", 2)), "logs/collect.log")
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 7 or collect.poll() is not None, 120, "7 rollouts")
    ctx.note("(from a second terminal, while the collection runs: a quick look at the numbers)")
    profiled = ctx.sh(shlex.join(profile_argv(run, "--allow-partial")), "logs/profile.log")
    wait_or_interrupt(ctx, collect, 180, "`gym-pipeline collect`")
    in_profile = sum(row.get("num_rollouts", 0) for row in rows_of(run / "rollouts_reward_profiling.jsonl"))
    if collect.returncode != 0 or len(unique_keys(run / "rollouts.jsonl")) != 24 or in_profile >= 24:
        raise failed(ctx, f"collect {collect.returncode}, {in_profile} rollouts in the profile")
    return ("`gym-pipeline materialize` (string_match, 6 tasks x 4 repeats); `gym-pipeline collect --concurrency 2` "
            "(policy latency 500 ms); after 7 rollouts, from another terminal, `gym-pipeline profile --allow-partial` "
            f"(exit {profiled}, {in_profile} rollouts in the profile); the collection then completed all 24 (exit "
            f"{collect.returncode}) and the profile was never made again.")


@case("config_slurm_gres_gpu_on_cpu_partition", "config", ["gres"],
      "the collect stage's Slurm settings ask for a GPU (--gres=gpu:1, copied from the model server's settings) "
      "on a cluster that has no GPU resources, so sbatch refused the job; the collect stage only talks HTTP to "
      "the model server and needs no GPU")
def config_slurm_gres_gpu_on_cpu_partition(ctx: Ctx) -> str:
    data = ctx.dataset("mcqa", 4, start=60)
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, _ = ctx.policy(checkpoint)
    run = ctx.run
    materialize(ctx, data, 2, "mcqa")
    script = slurm_collect_script(ctx, "time_limit='20', gres='gpu:1', poll_interval_s=1.0")
    job = ctx.bg(f"{PY} {script} {run} {shlex.join(collect_argv(run, url, 'mcqa', 4))}",
                 "logs/run_collect_on_slurm.log")
    wait_or_interrupt(ctx, job, 60, "the script")
    ctx.sh("squeue -t all -o '%.10i %.22j %.10T %R'", "logs/squeue.log")
    if rows_of(run / "rollouts.jsonl"):
        raise failed(ctx, f"the job ran (exit {job.returncode})")
    return ("`gym-pipeline materialize` (mcqa, 4 tasks x 2 repeats), then a user's script (RUN/run_collect_on_slurm.py) "
            "running the built-in `gym-pipeline collect` as a Slurm job through the project's "
            f"SlurmLauncher(gres='gpu:1') on the one-node cluster without GPUs; exit {job.returncode} (Ctrl-C if still "
            "running after 60 s).")




@case("model_serving_stage_server_still_on_previous_checkpoint", "model_serving", ["checkpoint"],
      "the long-running model server the sweep's partition step_0200 was collected against had never been "
      "restarted after the previous night: it still serves checkpoint step_0100, so the completed run scored the "
      "old checkpoint under step_0200's name")
def model_serving_stage_server_still_on_previous_checkpoint(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 8, start=20, folder=ctx.run, name="string_match.jsonl")
    step_0100, step_0200 = checkpoints(ctx, "string_match", data)
    ctx.note("(the model server started for last night's sweep, serving step_0100, is still running)")
    url, _ = ctx.policy(step_0100, "--latency-ms 20")
    sweep = write_sweep(ctx, "string_match", data, step_0200, num_repeats=3, concurrency=4)
    ctx.sh(shlex.join(stage_argv(sweep, "materialize", step_0200, "string_match")), "logs/materialize.log")
    code = ctx.sh(shlex.join(stage_argv(sweep, "collect", step_0200, "string_match", "--model-url", url,
                                        "--model-name", "sim-policy")), "logs/collect.log")
    profiled = ctx.sh(shlex.join(stage_argv(sweep, "profile", step_0200, "string_match")), "logs/profile.log")
    if code != 0 or len(rows_of(ctx.run / "rollouts.jsonl")) != 24 or "step 100" not in text_of(
            ctx.run / "logs" / "model_server.log"):
        raise failed(ctx, f"collect {code}, profile {profiled}")
    return ("A sweep config (RUN/sweep.json, 3 repeats) for partition step_0200/string_match; `gym-pipeline stage "
            "materialize`, `gym-pipeline stage collect --checkpoint step_0200 --model-url URL` where URL is a model "
            f"server still serving step_0100 (its log in logs/model_server.log; exit {code}), then `gym-pipeline "
            f"stage profile` (exit {profiled}).")


@case("throughput_stage_nemo_gym_engine_concurrency_overload", "throughput_resources", ["concurrency"],
      "the sweep's collect stage (engine nemo_gym, the real NeMo Gym) ran at concurrency 48 against a model server "
      "that generates 2 requests at once and queues 2 more, so most requests were refused with 429 overloaded and "
      "many rollouts failed", netns=True)
def throughput_stage_nemo_gym_engine_concurrency_overload(ctx: Ctx) -> str:
    import shutil

    data = ctx.dataset("string_match", 6, start=10, folder=ctx.run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 300 --max-running 2 --max-waiting 2")
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=4, concurrency=48, engine="nemo_gym",
                        nemo_gym={"executable": str(GYM)})
    ctx.sh(shlex.join(stage_argv(sweep, "materialize", checkpoint, "string_match")), "logs/materialize.log")
    code = ctx.sh(shlex.join(stage_argv(sweep, "collect", checkpoint, "string_match", "--model-url", url,
                                        "--model-name", "sim-policy")), "logs/collect.log", timeout=600)
    profiled = ctx.sh(shlex.join(stage_argv(sweep, "profile", checkpoint, "string_match")), "logs/profile.log")
    ctx.stop(policy, signal.SIGINT, 10)
    venvs = ctx.run / "nemo_gym" / "server_venvs"
    if venvs.is_dir():  # symlinks into this machine's Gym venv (one per Gym server): not kept in the corpus
        ctx.note("(RUN/nemo_gym/server_venvs, the engine's symlinks to the local Gym venv, removed from the case)")
        shutil.rmtree(venvs)
    everything = "".join(text_of(path) for path in ctx.run.rglob("*") if path.is_file() and path.suffix in
                         (".log", ".jsonl", ".json"))
    if "429" not in everything or len(rows_of(ctx.run / "rollouts.jsonl")) >= 24:
        raise failed(ctx, f"no 429, or every rollout succeeded (collect {code})")
    return ("A sweep config (RUN/sweep.json: engine nemo_gym, concurrency 48, 4 repeats); `gym-pipeline stage "
            "materialize` (6 string_match tasks), `gym-pipeline stage collect` (the real NeMo Gym 0.7.0 behind it, "
            "loopback-only namespace) against the simulated policy with `--max-running 2 --max-waiting 2 --latency-ms "
            f"300` (exit {code}, {len(rows_of(ctx.run / 'rollouts.jsonl'))} of 24 rollouts), then `gym-pipeline "
            f"stage profile` (exit {profiled}).")



TOOL_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        import os

        import aiohttp

        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        # normalise the answer with the team's canonicalisation service (a small model behind an HTTP API)
        request = {"model": "sim-policy", "messages": [{"role": "user", "content": "Canonicalise: " + (extracted or "")}]}
        async with aiohttp.ClientSession() as session:
            async with session.post(os.environ["CANON_URL"] + "/chat/completions", json=request) as answer:
                answer.raise_for_status()
                await answer.json()
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


@case("throughput_gym_canonicalisation_service_overloaded", "throughput_resources", ["concurrency"],
      "the user's canon_match resources server calls a canonicalisation service for every verify; that service "
      "runs one request at a time with a queue of one, and 16 rollouts verified at once, so it answered most calls "
      "429 overloaded and those verify calls failed (500)", netns=True)
def throughput_gym_canonicalisation_service_overloaded(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=12, folder=run, name="tasks.jsonl")
    step_0100, step_0200 = checkpoints(ctx, "string_match", data)
    url, policy = ctx.policy(step_0200, log="policy_server.log")
    canon_url, canon = ctx.policy(step_0100, "--max-running 1 --max-waiting 1 --latency-ms 300",
                                  log="canon_service.log")
    ctx.env["CANON_URL"] = canon_url
    ctx.note(f"export CANON_URL={canon_url}   (the canonicalisation service: one request at a time, queue of one)")
    overrides = ctx.gym_overrides()
    search = user_resources_server(ctx, "canon_match", "string_match", lambda app: replace_verify(app, TOOL_VERIFY),
                                   requirements="fastapi\naiohttp\n")
    ctx.note("(copied Gym's resources_servers/string_match to WORK/my_gym/resources_servers/canon_match; its verify "
             "calls the canonicalisation service at $CANON_URL for every rollout)")
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='canon_match')} "
                               f"{overrides}")
    eval_run = gym_eval(ctx, overrides, f"--search-dir {search} --agent canon_match_simple_agent --input {data} "
                                        f"--output {run}/rollouts.jsonl --num-repeats 3 --concurrency 16",
                        background=True)
    wait_or_interrupt(ctx, eval_run, 200, "`gym eval run`")
    stop_gym(ctx, env_start, policy, canon)
    if "429" not in gym_logs(ctx) + text_of(run / "canon_service.log") or len(rows_of(run / "rollouts.jsonl")) >= 18:
        raise failed(ctx, f"no 429, or every rollout succeeded (exit {eval_run.returncode})")
    return ("A user's resources server canon_match (Gym's string_match copied under a --search-dir; verify calls a "
            "canonicalisation service for every rollout) served by the real `gym env start` (loopback-only "
            "namespace); the service is the simulated policy with `--max-running 1 --max-waiting 1 --latency-ms 300` "
            "(log in canon_service.log); `gym eval run --no-serve --concurrency 16` on 6 tasks x 3 repeats exited "
            f"{eval_run.returncode}; {len(rows_of(run / 'rollouts.jsonl'))} rollouts, "
            f"{len(rows_of(run / 'rollouts_failures.jsonl'))} failure rows.")


if __name__ == "__main__":
    # Started in the background (`nohup ... &`), this process and every command it runs would ignore SIGINT and
    # SIGHUP (ignored signals survive exec), and the recipes' Ctrl-C and hang-ups would do nothing: restore them.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    for number in (signal.SIGHUP, signal.SIGTERM):
        signal.signal(number, signal.SIG_DFL)
    sys.exit(main("fourth_held_out", __file__, __doc__))
