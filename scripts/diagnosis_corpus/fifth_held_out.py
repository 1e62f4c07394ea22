"""Build the FIFTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/fifth_held_out.py --out tests/data/diagnosis_corpus/fifth_held_out [--only CASE ...]

Measured once on 2026-12-02 (top-1 65 %, see benchmarks/README.md), then tuned on: these cases now count
as tuning cases. The next held-out sets (`sixth_held_out.py`, then `held_out.py`) came later.

These cases were written from the guides alone (the NeMo Gym debugging guide, the reward profiling guide, the
task-folder troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), after the diagnosis rules had
been written and tuned on the tuning, first, second, third and fourth held-out sets, and without reading those
rules, their tests or their results. They measure, once, how well `gym-pipeline diagnose` names root causes on
failures its rules were never written against: they are never tuned on.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated
policy (`gym-pipeline serve-policy`, with injected faults, latency, a slow start and a bounded capacity, and real
processes frozen, restarted or suspended as Slurm jobs), the built-in engine (`gym-pipeline materialize`,
`collect`, `profile`, `stage`, `check-stale`, and its collector driven by users' own scripts and verifiers), the
real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` / `gym eval profile`, inside a loopback-only network
namespace as tests/nemo_gym_driver.py does, with users' own resources servers), the local, Docker and Slurm
launchers and the model-server launcher (`serve_checkpoint`), real resource limits (`ulimit -f`, a tmpfs, Docker's
--cpus), real bad config and data files. The output of every command is captured as a user would
(`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand. Each case injects one cause; the
failures differ from those of the earlier sets, or reach a known kind of failure by another path (another process,
log, launcher or engine).

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
import threading
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


SLURM_COLLECT = '''
"""Run the collect stage as a Slurm job through gym_pipeline's SlurmLauncher, as a sweep step would."""
import sys
import threading
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


def gym_setup(ctx: Ctx, env: str = "string_match", n: int = 4, start: int = 0, flags: str = "",
              weaker: bool = False, edit=None) -> tuple[Path, str, subprocess.Popen, str]:
    """A user's dataset in RUN, a simulated policy knowing it (edit(index, row) applied before or after), Gym's overrides."""
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


# =====================================================================================================
# the real NeMo Gym 0.7.0: healthy
# =====================================================================================================


@case("healthy_gym_waited_for_slow_model_server", "healthy", [],
      "nothing is wrong: the model server took about 12 s to load (it answered 503 while loading); the user polled "
      "/v1/models until it answered, then started Gym, collected every rollout and profiled", netns=True)
def healthy_gym_waited_for_slow_model_server(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 3, "--slow-start-s 12 --latency-ms 40")
    ctx.sh(f"for i in $(seq 60); do code=$(curl -s -o /dev/null -w '%{{http_code}}' {url}/models); "
           f"echo \"$(date +%T) GET /v1/models -> $code\"; [ \"$code\" = 200 ] && break; sleep 1; done",
           "wait_for_model.log")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 3, 4))
    profiled = gym_profile(ctx, run)
    stop_gym(ctx, env_start, policy)
    if code or profiled or len(unique_keys(run / "rollouts.jsonl")) != 12 or "503" not in text_of(run / "wait_for_model.log"):
        raise failed(ctx, f"eval {code}, profile {profiled}")
    return ("Simulated policy with a 12 s slow start (503 on every route meanwhile); the user polled /v1/models with "
            "curl until 200 (wait_for_model.log), then real NeMo Gym 0.7.0 (loopback-only namespace) `gym env start`, "
            "`gym eval run --no-serve` (4 string_match tasks x 3 repeats, all 12) and `gym eval profile`.")


@case("healthy_gym_weaker_checkpoint_low_reward", "healthy", [],
      "nothing is wrong: an early checkpoint (step_0100) was evaluated; it answers fewer tasks correctly so the mean "
      "reward is low, but every rollout was collected, verified and profiled", netns=True)
def healthy_gym_weaker_checkpoint_low_reward(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 8, "--latency-ms 30", weaker=True)
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 3, 4))
    profiled = gym_profile(ctx, run)
    stop_gym(ctx, env_start, policy)
    rewards = [row.get("reward") for row in rows_of(run / "rollouts.jsonl")]
    if code or profiled or len(rewards) != 18 or not 0 < sum(rewards) < 18:
        raise failed(ctx, f"eval {code}, profile {profiled}, {len(rewards)} rewards")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace) on string_match against the simulated policy serving the weaker "
            f"checkpoint step_0100: 6 tasks x 3 repeats, all 18 rollouts (mean reward {sum(rewards) / 18:.2f}); "
            "`gym eval profile` exit 0.")


@case("healthy_gym_two_splits_two_outputs", "healthy", [],
      "nothing is wrong: one `gym env start` served two `gym eval run`s, one per data split, each into its own "
      "output folder (RUN/split_a, RUN/split_b); both complete and profiled", netns=True)
def healthy_gym_two_splits_two_outputs(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 10, "--latency-ms 30")
    lines = data.read_text().splitlines(keepends=True)
    split_a, split_b = run / "tasks_a.jsonl", run / "tasks_b.jsonl"
    split_a.write_text("".join(lines[:3]))
    split_b.write_text("".join(lines[3:]))
    data.unlink()
    ctx.note("(RUN/tasks_a.jsonl and RUN/tasks_b.jsonl: the user's two splits of 3 tasks each)")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    codes = [gym_eval(ctx, overrides, agent_args(split, run / name / "rollouts.jsonl", 2, 3), log=f"eval_run_{name}.log")
             for split, name in ((split_a, "split_a"), (split_b, "split_b"))]
    profiled = [gym_profile(ctx, run / name, log=f"eval_profile_{name}.log") for name in ("split_a", "split_b")]
    stop_gym(ctx, env_start, policy)
    if any(codes) or any(profiled) or [len(unique_keys(run / n / "rollouts.jsonl")) for n in ("split_a", "split_b")] != [6, 6]:
        raise failed(ctx, f"eval {codes}, profile {profiled}")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): one `gym env start`; `gym eval run --no-serve` of split A "
            "into RUN/split_a and of split B into RUN/split_b (3 tasks x 2 repeats each), each profiled.")


# =====================================================================================================
# the real NeMo Gym 0.7.0: failures
# =====================================================================================================


@case("infra_gym_eval_file_size_limit", "infra", ["ulimit"],
      "`gym eval run` ran in a shell whose file-size limit is 24 KB (ulimit -f 24, set by the site's batch profile), "
      "so writing rollouts.jsonl failed with 'File too large' (EFBIG) once the file reached the limit", netns=True)
def infra_gym_eval_file_size_limit(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 14, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    ctx.sh("( ulimit -f 24; ulimit -a | grep -i 'file size' )", "ulimit.log")
    command = (f"( ulimit -f 24; {GYM} eval run --no-serve {agent_args(data, run / 'rollouts.jsonl', 4, 4)} "
               f"++route_failures_to_sidecar=true {overrides} )")
    eval_run = ctx.bg(command, "eval_run.log")
    wait_or_interrupt(ctx, eval_run, 150, "`gym eval run`")
    stop_gym(ctx, env_start, policy)
    got = text_of(run / "rollouts.jsonl").count("\n")  # its last line may be torn
    log = text_of(run / "eval_run.log")
    if got >= 24 or not re.search(r"File too large|File size limit|EFBIG|errno 27", log, re.I):
        raise failed(ctx, f"{got} rollouts, exit {eval_run.returncode}, no EFBIG")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace, healthy servers): `gym eval run --no-serve` (6 tasks x 4 "
            f"repeats) in a subshell with `ulimit -f 24` (ulimit.log); exit {eval_run.returncode}, {got} rollouts.")


@case("model_serving_gym_policy_drops_connections", "model_serving", [],
      "the model server drops every chat-completion connection without answering (a crashing worker behind its "
      "port, while /v1/models still answers), so no rollout could be collected", netns=True)
def model_serving_gym_policy_drops_connections(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 20,
                                             "--fault-rate 1 --fault-kinds drop")
    debug = "++global_aiohttp_client_request_debug=True"  # the guide's request-boundary visibility
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides} {debug}")
    eval_run = gym_eval(ctx, f"{overrides} {debug}", agent_args(data, run / "rollouts.jsonl", 3, 4), background=True)
    wait_or_interrupt(ctx, eval_run, 60, "`gym eval run`")
    stop_gym(ctx, env_start, policy)
    got, failures = len(rows_of(run / "rollouts.jsonl")), rows_of(run / "rollouts_failures.jsonl")
    if got:
        raise failed(ctx, f"{got} rollouts, {len(failures)} failures")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve` (4 tasks x 3 repeats) against the "
            "simulated policy dropping every chat-completion connection (`--fault-rate 1 --fault-kinds drop`; "
            "servers and eval with ++global_aiohttp_client_request_debug=True; Ctrl-C if still running after 60 s); exit "
            f"{eval_run.returncode}, {got} rollouts, {len(failures)} failure rows.")


@case("model_serving_gym_completions_never_answer", "model_serving", [],
      "the model server accepts chat completions but never answers them (every generation hangs: a wedged engine "
      "whose /v1/models still answers), so `gym eval run` made no progress and was interrupted", netns=True)
def model_serving_gym_completions_never_answer(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 24,
                                             "--fault-rate 1 --fault-kinds timeout --timeout-hold-s 900")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    ctx.sh(f"curl -s -m 5 {url}/models; echo", "curl_models.log")
    eval_run = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 2, 4), background=True)
    wait_or_interrupt(ctx, eval_run, 75, "`gym eval run`")
    stop_gym(ctx, env_start, policy)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got:
        raise failed(ctx, f"{got} rollouts")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): servers ready (the policy's /v1/models answers, "
            "curl_models.log), but every chat completion is held without an answer (`--fault-rate 1 --fault-kinds "
            f"timeout`); `gym eval run --no-serve` (4 tasks x 2 repeats) interrupted after 75 s (exit "
            f"{eval_run.returncode}, no rollouts).")


@case("model_serving_gym_server_restarted_still_loading", "model_serving", [],
      "the model server was restarted in the middle of the collection (a config reload) and spent 60 s loading, "
      "answering 503 to every request, so the rollouts dispatched meanwhile failed after their attempts", netns=True)
def model_serving_gym_server_restarted_still_loading(ctx: Ctx) -> str:
    from gym_pipeline.host import free_loopback_port

    run = ctx.run
    data = ctx.dataset("string_match", 5, start=28, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    port = free_loopback_port()
    url = f"http://127.0.0.1:{port}/v1"
    serve = f"{GP} serve-policy --port {port} --checkpoint {checkpoint} --latency-ms 400"
    first = ctx.bg(serve, "policy_server.log")
    wait_for(lambda: "SIMULATED_POLICY_READY" in text_of(run / "policy_server.log"), 30, "the policy")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    eval_run = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 4, 2), background=True)
    wait_for(lambda: finished(ctx, 3, 20)() or eval_run.poll() is not None, 120, "3 rollouts")
    ctx.note("(the operator restarts the model server to reload its config: Ctrl-C, then the same command with a "
             "60 s load)")
    ctx.stop(first, signal.SIGINT, 10)
    second = ctx.bg(f"{serve} --slow-start-s 60", "policy_server_restart.log")
    wait_or_interrupt(ctx, eval_run, 100, "`gym eval run`")
    stop_gym(ctx, env_start, second)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got >= 20 or "503" not in text_of(run / "policy_server_restart.log") + gym_logs(ctx):
        raise failed(ctx, f"{got} rollouts, no 503")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve` (5 tasks x 4 repeats, "
            "concurrency 2, policy latency 400 ms); after 3 rollouts the policy was restarted on the same port with a "
            f"60 s load (503 meanwhile); exit {eval_run.returncode}, {got} rollouts.")


@case("config_gym_input_path_typo", "config", ["input"],
      "`gym eval run --input` names RUN/task.jsonl, but the user's dataset is RUN/tasks.jsonl (a typo in the "
      "command), so Gym found no input file and collected nothing", netns=True)
def config_gym_input_path_typo(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 32)
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval(ctx, overrides, agent_args(run / "task.jsonl", run / "rollouts.jsonl", 2, 4))
    stop_gym(ctx, env_start, policy)
    if code == 0 and rows_of(run / "rollouts.jsonl"):
        raise failed(ctx, "collected")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace, healthy servers): `gym eval run --no-serve --input "
            f"RUN/task.jsonl` while the file is RUN/tasks.jsonl; exit {code}.")


@case("config_gym_eval_flag_spelled_with_underscore", "config", ["--num-repeats"],
      "the user typed `--num_repeats 4` (underscore, from a Hydra key they remembered) instead of the CLI flag "
      "`--num-repeats`, so `gym eval run` refused its arguments and collected nothing", netns=True)
def config_gym_eval_flag_spelled_with_underscore(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 36)
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = ctx.sh(f"{GYM} eval run --no-serve --agent string_match_simple_agent --input {data} --output "
                  f"{run}/rollouts.jsonl --num_repeats 4 --concurrency 4 ++route_failures_to_sidecar=true {overrides}",
                  "eval_run.log", timeout=300)
    stop_gym(ctx, env_start, policy)
    if code == 0 or rows_of(run / "rollouts.jsonl"):
        raise failed(ctx, f"exit {code}")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace, healthy servers): `gym eval run --no-serve ... --num_repeats "
            f"4` (underscore); exit {code}.")


@case("data_schema_gym_rows_pretty_printed", "data_schema", ["jsonl"],
      "the dataset was saved with json.dump(..., indent=2): each row spans many lines, so the file is not JSON "
      "Lines and Gym could not parse its first line", netns=True)
def data_schema_gym_rows_pretty_printed(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 40)
    data.write_text("".join(json.dumps(row, indent=2) + "\n" for row in rows_of(data)))
    ctx.note("(RUN/tasks.jsonl re-saved by the user's export script with json.dumps(row, indent=2) per row)")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 2, 4))
    stop_gym(ctx, env_start, policy)
    if code == 0 and len(rows_of(run / "rollouts.jsonl")) == 8:
        raise failed(ctx, "Gym read the file")
    return ("4 string_match rows pretty-printed over many lines each (indent=2) given to the real NeMo Gym 0.7.0 "
            f"`gym eval run --no-serve` (loopback-only namespace, healthy servers); exit {code}.")


@case("data_schema_gym_expected_answers_with_explanations", "data_schema", ["expected_answer"],
      "the dataset's expected_answer fields carry an explanation after the answer ('36 (the LCM of 12 and 18)'), "
      "copied from an answer key with notes: the model's correct answers never equal them, so the completed run "
      "scored 0 almost everywhere", netns=True)
def data_schema_gym_expected_answers_with_explanations(ctx: Ctx) -> str:
    run = ctx.run

    def annotate(index: int, row: dict) -> bool:
        row["expected_answer"] = f"{row['expected_answer']} (see answer key, item {index + 1})"
        return True

    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 44, "--latency-ms 30", edit=annotate)
    ctx.note("(RUN/tasks.jsonl: every expected_answer followed by ' (see answer key, item N)')")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 3, 4))
    profiled = gym_profile(ctx, run)
    stop_gym(ctx, env_start, policy)
    rewards = [row.get("reward") for row in rows_of(run / "rollouts.jsonl")]
    if code or len(rewards) != 15 or sum(rewards) > 2:
        raise failed(ctx, f"eval {code}, rewards {rewards}")
    return ("5 string_match rows whose expected_answer has a note appended, given to the real NeMo Gym 0.7.0 (loopback-"
            f"only namespace, healthy policy that knows the real answers); `gym eval run` exit {code}, 15 rollouts, "
            f"total reward {sum(rewards)}; `gym eval profile` exit {profiled}.")


@case("data_schema_gym_extraction_mode_not_supported", "data_schema", ["extraction_mode"],
      "the rows say extraction_mode 'regex' (a mode of another framework's grader), which the string_match "
      "server's request model does not accept (boxed, final_answer, last_line, full_response), so every rollout "
      "was refused", netns=True)
def data_schema_gym_extraction_mode_not_supported(ctx: Ctx) -> str:
    run = ctx.run

    def regex_mode(index: int, row: dict) -> bool:
        row["extraction_mode"] = "regex"
        return True

    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 48, edit=regex_mode)
    ctx.note("(RUN/tasks.jsonl: every row has \"extraction_mode\": \"regex\")")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    eval_run = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 2, 4), background=True)
    wait_or_interrupt(ctx, eval_run, 150, "`gym eval run`")
    stop_gym(ctx, env_start, policy)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got == 8:
        raise failed(ctx, "all rollouts collected")
    return ("4 string_match rows with extraction_mode 'regex' given to the real NeMo Gym 0.7.0 `gym eval run --no-serve` "
            f"(2 repeats, loopback-only namespace, healthy servers); exit {eval_run.returncode}, {got} rollouts, "
            f"{len(rows_of(run / 'rollouts_failures.jsonl'))} failure rows.")


RECURSIVE_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)
        if reward == 0.0 and extracted is not None:
            # retry with the answer normalised (strip markup); recurses until it stops changing
            return await self.verify(body.model_copy(update={"expected_answer": body.expected_answer + " "}))
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


@case("verifier_runtime_gym_verify_infinite_recursion", "verifier_runtime", ["recursion"],
      "the user's lenient_match resources server retries a failed match by calling verify again on a changed body "
      "that never matches, so verify recursed until RecursionError and answered 500 on every wrong answer",
      netns=True)
def verifier_runtime_gym_verify_infinite_recursion(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 52, weaker=True)
    search = user_resources_server(ctx, "lenient_match", "string_match", lambda app: replace_verify(app, RECURSIVE_VERIFY))
    ctx.note("(copied Gym's resources_servers/string_match to WORK/my_gym/resources_servers/lenient_match; its verify "
             "calls itself again when the match fails)")
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='lenient_match')} {overrides}")
    eval_run = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 3, 4, "lenient_match_simple_agent",
                                                   f"--search-dir {search}"), background=True)
    wait_or_interrupt(ctx, eval_run, 180, "`gym eval run`")
    stop_gym(ctx, env_start, policy)
    logs = gym_logs(ctx)
    if "RecursionError" not in logs and "recursion" not in logs.lower():
        raise failed(ctx, f"no RecursionError (exit {eval_run.returncode})")
    return ("A user's resources server lenient_match (Gym's string_match under a --search-dir; verify calls itself on a "
            "non-match) served by the real `gym env start` (loopback-only namespace) against the weaker checkpoint; "
            f"`gym eval run --no-serve` (5 tasks x 3 repeats) exit {eval_run.returncode}, "
            f"{len(rows_of(run / 'rollouts.jsonl'))} rollouts, {len(rows_of(run / 'rollouts_failures.jsonl'))} failures.")


FIRST_ONLY_VERIFY = '''
    _seen: set = set()

    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)
        # de-duplicate: an answer already credited for this question is not credited again
        key = (body.expected_answer, extracted)
        if reward and key in self._seen:
            reward = 0.0
        self._seen.add(key)
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


@case("verifier_runtime_gym_credits_only_first_repeat", "verifier_runtime", ["reward"],
      "the user's dedup_match resources server keeps a set of answers already credited across requests and scores "
      "a repeated correct answer 0, so only the first rollout of each task can be rewarded: the completed run's "
      "per-task rewards are capped near 1/num_repeats", netns=True)
def verifier_runtime_gym_credits_only_first_repeat(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 56, "--latency-ms 30")
    search = user_resources_server(ctx, "dedup_match", "string_match", lambda app: replace_verify(app, FIRST_ONLY_VERIFY))
    ctx.note("(copied Gym's resources_servers/string_match to WORK/my_gym/resources_servers/dedup_match; its verify "
             "credits each (expected, extracted) answer once per server process)")
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='dedup_match')} {overrides}")
    code = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 4, 4, "dedup_match_simple_agent",
                                               f"--search-dir {search}"))
    profiled = gym_profile(ctx, run)
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "rollouts.jsonl")
    zeroed = [r for r in rows if r.get("reward") == 0 and r.get("extracted_answer") is not None
              and str(r.get("extracted_answer")).strip().lower() == str(r.get("expected_answer")).strip().lower()]
    if code or len(rows) != 16 or not zeroed:
        raise failed(ctx, f"eval {code}, {len(rows)} rows, {len(zeroed)} correct answers scored 0")
    return ("A user's resources server dedup_match (Gym's string_match under a --search-dir; verify credits a correct "
            "answer once per server process) served by the real `gym env start` (loopback-only namespace); `gym eval "
            f"run --no-serve` (4 tasks x 4 repeats) exit {code}: {len(zeroed)} correct answers scored 0; `gym eval "
            f"profile` exit {profiled}.")


@case("cache_resume_gym_resumed_after_fixing_verifier", "cache_resume", ["--resume"],
      "the user fixed their resources server's verifier (it scored every answer 0) in the middle of a collection and "
      "continued with `gym eval run --resume`: the rollouts scored by the broken verifier were kept as done, so the "
      "run mixes rewards from the old and the fixed verifier", netns=True)
def cache_resume_gym_resumed_after_fixing_verifier(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 60, "--latency-ms 500")
    broken = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = _answers_match(body.expected_answer, extracted, True) if False else 0.0  # TODO: port grader
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''
    search = user_resources_server(ctx, "team_match", "string_match", lambda app: replace_verify(app, broken))
    app = search / "resources_servers" / "team_match" / "app.py"
    ctx.note("(WORK/my_gym/resources_servers/team_match: Gym's string_match with a verify still scoring 0: TODO)")
    start_args = f"--search-dir {search} {gym_model_args(url, resources_server='team_match')} {overrides}"
    args = agent_args(data, run / "rollouts.jsonl", 3, 2, "team_match_simple_agent", f"--search-dir {search}")
    env_start = gym_start(ctx, start_args)
    first = gym_eval(ctx, overrides, args, log="eval_run_1.log", background=True)
    wait_for(lambda: finished(ctx, 6, 15, "eval_run_1.log")() or first.poll() is not None, 150, "6 rollouts")
    ctx.note("(the user sees rewards of 0 after 6 rollouts: Ctrl-C, stops the servers, fixes verify, restarts)")
    ctx.stop(first, signal.SIGINT, 30)
    ctx.stop(env_start, signal.SIGINT, 30)
    shutil.copy(Path(GYM).parent.parent.glob("lib/python3*/site-packages/resources_servers/string_match/app.py")
                .__next__(), app)
    env_start = gym_start(ctx, start_args, log="env_start_2.log")
    code = gym_eval(ctx, overrides, args + " --resume", log="eval_run_2.log")
    profiled = gym_profile(ctx, run)
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "rollouts.jsonl")
    zeros = sum(1 for r in rows if r.get("reward") == 0)
    if code or len(unique_keys(run / "rollouts.jsonl")) != 15 or zeros < 3:
        raise failed(ctx, f"eval {code}, {len(rows)} rows, {zeros} zeros")
    return ("A user's resources server team_match (Gym's string_match under a --search-dir, verify scoring 0) served by "
            "the real `gym env start` (loopback-only namespace); `gym eval run --no-serve` (5 tasks x 3 repeats) "
            "interrupted with Ctrl-C after 6 rollouts; servers stopped, verify replaced by Gym's real one, servers "
            f"restarted; `gym eval run ... --resume` exit {code}; {zeros} of 15 rollouts scored 0; `gym eval profile` "
            f"exit {profiled}.")


@case("cache_resume_gym_materialized_inputs_copied_from_colleague", "cache_resume", ["materialized"],
      "to save time the user copied a colleague's results (rollouts_materialized_inputs.jsonl and rollouts.jsonl of "
      "another split's rows) into their output folder and ran `gym eval run --resume` on their own data: Gym reused "
      "those inputs and rollouts instead of the user's data, so the run holds the colleague's tasks only", netns=True)
def cache_resume_gym_materialized_inputs_copied_from_colleague(ctx: Ctx) -> str:
    run = ctx.run
    rows = ctx.dataset("string_match", 8, start=64, name="all.jsonl")
    lines = rows.read_text().splitlines(keepends=True)
    data, url, policy, overrides = gym_setup(ctx, "string_match", 8, 64, "--latency-ms 30")
    data.write_text("".join(lines[:4]))
    colleague = ctx.work / "colleague"
    (colleague / "theirs.jsonl").parent.mkdir(parents=True)
    (colleague / "theirs.jsonl").write_text("".join(lines[4:]))
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    ctx.note("(the colleague's earlier run, in their own folder:)")
    gym_eval(ctx, overrides, agent_args(colleague / "theirs.jsonl", colleague / "out" / "rollouts.jsonl", 2, 4,
                                        extra="--limit 2"), log=str(ctx.work / "colleague.log"))
    (run / "results").mkdir()
    ctx.sh(f"cp -v {colleague}/out/rollouts_materialized_inputs.jsonl {colleague}/out/rollouts.jsonl {run}/results/",
           "copy.log")
    code = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4, extra="--resume"))
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    mine = {json.loads(line)["expected_answer"] for line in lines[:4]}
    got = {row.get("expected_answer") for row in rows_of(run / "results" / "rollouts.jsonl")}
    if code or not got or got & mine:
        raise failed(ctx, f"eval {code}, answers {got}")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): a colleague's materialized inputs and rollouts (another "
            "split, 2 tasks x 2) copied into RUN/results (copy.log), then `gym eval run --no-serve --input RUN/tasks.jsonl --resume` into "
            f"RUN/results (exit {code}) collected the colleague's rows, not RUN/tasks.jsonl's; `gym eval profile` exit "
            f"{profiled}.")


@case("cache_resume_gym_old_profile_left_after_fresh_rerun", "cache_resume", ["profile"],
      "the user re-ran `gym eval run` from scratch on this week's tasks into last week's output folder and did not "
      "run `gym eval profile` again: Gym leaves the older profile files in place, so the reward profile beside the "
      "new rollouts still describes last week's tasks", netns=True)
def cache_resume_gym_old_profile_left_after_fresh_rerun(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 8, 4, "--latency-ms 30")
    lines = data.read_text().splitlines(keepends=True)
    last_week, this_week = run / "tasks_week47.jsonl", run / "tasks_week48.jsonl"
    last_week.write_text("".join(lines[:4]))
    this_week.write_text("".join(lines[4:]))
    data.unlink()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    ctx.note("(last week:)")
    first = gym_eval(ctx, overrides, agent_args(last_week, run / "results" / "rollouts.jsonl", 2, 4),
                     log="eval_run_week47.log")
    gym_profile(ctx, run / "results", log="eval_profile_week47.log")
    ctx.note("(this week, same output folder, from scratch:)")
    code = gym_eval(ctx, overrides, agent_args(this_week, run / "results" / "rollouts.jsonl", 2, 4),
                    log="eval_run_week48.log")
    stop_gym(ctx, env_start, policy)
    new = {json.loads(line)["expected_answer"] for line in lines[4:]}
    profiled = {row.get("sample", {}).get("expected_answer") for row in rows_of(run / "results" / "rollouts_reward_profiling.jsonl")}
    collected = {row.get("expected_answer") for row in rows_of(run / "results" / "rollouts.jsonl")}
    if first or code or collected != new or not profiled or profiled & new:
        raise failed(ctx, f"eval {first}/{code}, profiled {profiled}, collected {collected}")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve` of last week's 4 tasks into "
            "RUN/results and `gym eval profile`; then `gym eval run --no-serve` (no --resume) of this week's 4 tasks into "
            f"the same RUN/results (exit {code}, all 8 rollouts) without profiling again.")


@case("throughput_gym_policy_serves_one_request_at_a_time", "throughput_resources", [],
      "the model server generates one request at a time (max running 1, 2.5 s each) while Gym sends 8 at once: "
      "requests queue behind each other, the collection crawled at one rollout per 2.5 s and the user gave up "
      "after a minute", netns=True)
def throughput_gym_policy_serves_one_request_at_a_time(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 8, 68, "--latency-ms 2500 --max-running 1")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    eval_run = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 4, 8), background=True)
    wait_or_interrupt(ctx, eval_run, 60, "`gym eval run` (32 rollouts)")
    stop_gym(ctx, env_start, policy)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got >= 32:
        raise failed(ctx, "finished")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve --concurrency 8` (8 tasks x 4 "
            "repeats) against the simulated policy generating one request at a time (`--max-running 1`, 2.5 s each); "
            f"interrupted after 60 s with {got} of 32 rollouts.")



# =====================================================================================================
# built-in engine and launchers
# =====================================================================================================

COLLECTOR_HEAD = """
\"\"\"Collect on the built-in engine with our own environment subclass.\"\"\"
import asyncio
import sys
import threading
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
    return user_collector(ctx, COLLECTOR_HEAD + body.strip("\n") + "\n" + COLLECTOR_TAIL.replace(
        "CONCURRENCY", str(concurrency)).replace("ENVIRONMENT", environment), name)


def run_collector(ctx: Ctx, script: Path, url: str, *extra: str, log: str = "logs/collect.log") -> int:
    run = ctx.run
    return ctx.sh(f"{PY} {script} {run}/rollouts_materialized_inputs.jsonl {run}/rollouts.jsonl {url} "
                  f"{' '.join(extra)}".strip(), log, timeout=600)


def slurm(**settings):
    from gym_pipeline.launchers.slurm import SlurmLauncher

    settings = {"time_limit": "10", "poll_interval_s": 0.5, **settings}
    label = "SlurmLauncher(" + ", ".join(f"{k}={v!r}" for k, v in settings.items()) + ")"
    return SlurmLauncher(**settings), label


# --- healthy --------------------------------------------------------------------------------------------


@case("healthy_docker_collect_dropped_connections_retried", "healthy", [],
      "nothing is wrong: collect and profile ran in Docker containers; the endpoint dropped about one connection in "
      "eight, each retried, and every rollout succeeded")
def healthy_docker_collect_dropped_connections_retried(ctx: Ctx) -> str:
    from gym_pipeline.launchers.docker import DockerLauncher

    run = ctx.run
    data = ctx.dataset("mcqa", 6, start=20)
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, _ = ctx.policy(checkpoint, "--fault-rate 0.12 --fault-kinds drop --fault-seed 3 --latency-ms 30")
    materialize(ctx, data, 3, "mcqa")
    launcher = DockerLauncher(network="host")
    ended = docker_launched(ctx, launcher, "DockerLauncher(network='host')", "collect", collect_argv(run, url, "mcqa", 4))
    profiled = docker_launched(ctx, launcher, "DockerLauncher(network='host')", "profile", profile_argv(run))
    failures = rows_of(run / "rollouts_failures.jsonl")
    if len(unique_keys(run / "rollouts.jsonl")) != 18 or not failures or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"collect {ended}, profile {profiled}, {len(failures)} failures")
    return ("`gym-pipeline materialize` (mcqa, 6 tasks x 3 repeats); `gym-pipeline collect --concurrency 4` and "
            f"`gym-pipeline profile` in Docker containers (project's DockerLauncher; {ended}; {profiled}) against the "
            f"simulated policy dropping 12% of connections: {len(failures)} attempts retried, all 18 rollouts.")


@case("healthy_stage_check_stale_then_rematerialized", "healthy", [],
      "nothing is wrong: the user added two tasks to the dataset after materializing, `gym-pipeline check-stale` "
      "said the inputs were stale (exit 1), so they re-ran materialize before collecting; the collection and the "
      "profile cover the new data")
def healthy_stage_check_stale_then_rematerialized(ctx: Ctx) -> str:
    from gym_pipeline.launchers.local import LocalLauncher

    run = ctx.run
    full = ctx.dataset("string_match", 6, start=30, name="full.jsonl")
    checkpoint = checkpoints(ctx, "string_match", full)[1]
    lines = full.read_text().splitlines(keepends=True)
    data = run / "string_match.jsonl"
    data.write_text("".join(lines[:4]))
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=2, concurrency=4)
    ctx.sh(shlex.join(stage_argv(sweep, "materialize", checkpoint, "string_match")), "logs/materialize.log")
    data.write_text("".join(lines))
    ctx.note("(the user appends 2 new tasks to RUN/string_match.jsonl)")
    stale = ctx.sh(f"{GP} check-stale --inputs {run}/rollouts_materialized_inputs.jsonl --source {data} "
                   "--num-repeats 2 --agent string_match_simple_agent", "logs/check_stale.log")
    ctx.sh(shlex.join(stage_argv(sweep, "materialize", checkpoint, "string_match")), "logs/materialize_again.log")
    ended = launched(ctx, LocalLauncher(), "LocalLauncher()", "collect",
                     stage_argv(sweep, "collect", checkpoint, "string_match", "--model-url", url, "--model-name",
                                "sim-policy"))
    profiled = ctx.sh(shlex.join(stage_argv(sweep, "profile", checkpoint, "string_match")), "logs/profile.log")
    ctx.stop(policy, signal.SIGINT, 10)
    if stale != 1 or profiled or len(unique_keys(run / "rollouts.jsonl")) != 12:
        raise failed(ctx, f"check-stale {stale}, collect {ended}, profile {profiled}")
    return ("A sweep config (2 repeats); `gym-pipeline stage materialize` on 4 string_match tasks; 2 tasks appended; "
            "`gym-pipeline check-stale` exit 1 (stale); `stage materialize` again; `stage collect` through the "
            f"project's LocalLauncher ({ended}, all 12 rollouts); `stage profile` exit {profiled}.")


NOISY_COLLECTOR = """
import logging
import threading
import urllib.request
import warnings

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
warnings.simplefilter("default")


def push_metrics():
    try:  # the team's metrics gateway is not running on this machine; a failed push is harmless
        urllib.request.urlopen("http://127.0.0.1:9/metrics/job/eval", data=b"started 1\\n", timeout=2)
    except Exception:
        logging.getLogger("telemetry").exception("could not push run metrics (ignored)")


threading.Thread(target=push_metrics, daemon=True).start()
warnings.warn("the 'distractors' field will be renamed 'near_misses' in the next data release", DeprecationWarning)


class Match(StringMatchEnvironment):
    pass
"""


@case("healthy_builtin_noisy_telemetry_traceback", "healthy", [],
      "nothing is wrong: the user's collection script logs a ConnectionRefusedError traceback from a metrics push "
      "that is not configured here and a DeprecationWarning, both harmless; every rollout succeeded and was profiled")
def healthy_builtin_noisy_telemetry_traceback(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=36)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    materialize(ctx, data, 3, "string_match")
    script = own_collector(ctx, "collect_with_metrics.py", NOISY_COLLECTOR, "Match()")
    code = run_collector(ctx, script, url)
    profiled = ctx.sh(shlex.join(profile_argv(run)), "logs/profile.log")
    if code or profiled or len(unique_keys(run / "rollouts.jsonl")) != 18 or "Traceback" not in text_of(run / "logs" / "collect.log"):
        raise failed(ctx, f"collect {code}, profile {profiled}")
    return ("`gym-pipeline materialize` (string_match, 6 tasks x 3 repeats); a user's script (RUN/collect_with_metrics.py) "
            "collecting on the built-in engine that also pushes metrics to a gateway not running here (a logged "
            "traceback) and emits a DeprecationWarning; all 18 rollouts; `gym-pipeline profile` exit 0.")


@case("healthy_slurm_collect_5xx_retried", "healthy", [],
      "nothing is wrong: collect and profile ran as Slurm jobs; the endpoint answered about one request in ten with "
      "a 500, each retried, and every rollout succeeded")
def healthy_slurm_collect_5xx_retried(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("mcqa", 6, start=26)
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, _ = ctx.policy(checkpoint, "--fault-rate 0.1 --fault-kinds 5xx --fault-seed 7")
    materialize(ctx, data, 3, "mcqa")
    launcher, label = slurm()
    ended = launched(ctx, launcher, label, "collect", collect_argv(run, url, "mcqa", 4))
    profiled = launched(ctx, launcher, label, "profile", profile_argv(run))
    failures = rows_of(run / "rollouts_failures.jsonl")
    if len(unique_keys(run / "rollouts.jsonl")) != 18 or not failures or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"collect {ended}, profile {profiled}, {len(failures)} failures")
    return ("`gym-pipeline materialize` (mcqa, 6 tasks x 3 repeats); `gym-pipeline collect` and `gym-pipeline profile` "
            f"as Slurm jobs (project's SlurmLauncher; {ended}; {profiled}) against the simulated policy answering 10% "
            f"with 500: {len(failures)} attempts retried, all 18 rollouts.")


@case("healthy_builtin_interleaved_rate_limited_retried", "healthy", [],
      "nothing is wrong: inputs materialized with --interleave-repeats; the endpoint rate-limited about one request "
      "in eight (429, Retry-After 2 s), each retried after the wait; every rollout succeeded and was profiled")
def healthy_builtin_interleaved_rate_limited_retried(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=76, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint, "--fault-rate 0.12 --fault-kinds 429 --retry-after-s 2 --fault-seed 9")
    ctx.sh(f"{GP} materialize --input {data} --num-repeats 3 --agent string_match_simple_agent --interleave-repeats "
           f"--output {run}/rollouts_materialized_inputs.jsonl", "logs/materialize.log")
    code = ctx.sh(shlex.join(collect_argv(run, url, "string_match", 4)), "logs/collect.log")
    profiled = ctx.sh(shlex.join(profile_argv(run)), "logs/profile.log")
    failures = rows_of(run / "rollouts_failures.jsonl")
    if code or profiled or len(unique_keys(run / "rollouts.jsonl")) != 18 or not failures:
        raise failed(ctx, f"collect {code}, profile {profiled}, {len(failures)} failures")
    return ("`gym-pipeline materialize --interleave-repeats` (string_match, 6 tasks x 3 repeats); `gym-pipeline collect "
            "--concurrency 4` against the simulated policy answering 12% with 429 (Retry-After 2 s): "
            f"{len(failures)} attempts retried, all 18 rollouts; `gym-pipeline profile` exit 0.")


@case("healthy_builtin_resumed_after_ssh_hangup", "healthy", [],
      "nothing is wrong: the user's SSH session dropped (SIGHUP) during the collection; they logged in again and "
      "resumed with --resume on the same inputs and data; every rollout was collected and profiled")
def healthy_builtin_resumed_after_ssh_hangup(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=42, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 1500")
    materialize(ctx, data, 4, "string_match")
    collect = ctx.bg(shlex.join(collect_argv(run, url, "string_match", 2)), "logs/collect.log")
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 6 or collect.poll() is not None, 120, "6 rollouts")
    ctx.note("(the SSH connection drops: SIGHUP to the session's processes)")
    ctx.stop(collect, signal.SIGHUP, 20)
    before = len(rows_of(run / "rollouts.jsonl"))
    code = ctx.sh(shlex.join(collect_argv(run, url, "string_match", 2, "--resume")), "logs/collect_resume.log")
    profiled = ctx.sh(shlex.join(profile_argv(run)), "logs/profile.log")
    if code or profiled or before >= 24 or len(unique_keys(run / "rollouts.jsonl")) != 24:
        raise failed(ctx, f"resume {code}, profile {profiled}, {before} before")
    return ("`gym-pipeline materialize` (string_match, 6 tasks x 4 repeats); `gym-pipeline collect --concurrency 2` "
            f"(policy 1.5 s) hung up with SIGHUP after {before} rollouts; `gym-pipeline collect --resume` completed "
            "all 24; `gym-pipeline profile` exit 0.")


# --- infra ----------------------------------------------------------------------------------------------


@case("infra_slurm_job_inherits_file_size_limit", "infra", ["ulimit"],
      "the collection was submitted to Slurm from a login shell with a 6 KB file-size limit (ulimit -f 6); Slurm "
      "propagates the submitter's limits to the job, so the job could not grow rollouts.jsonl beyond 6 KB "
      "('File too large', EFBIG)")
def infra_slurm_job_inherits_file_size_limit(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=46)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    materialize(ctx, data, 4, "string_match")
    script = slurm_collect_script(ctx, "time_limit='10', poll_interval_s=0.5")
    code = ctx.sh(f"( ulimit -f 6; ulimit -a | grep -i 'file size'; {PY} {script} {run} "
                  f"{shlex.join(collect_argv(run, url, 'string_match', 4))} )", "logs/run_collect_on_slurm.log",
                  timeout=300)
    everything = "".join(text_of(p) for p in run.rglob("*") if p.is_file())
    got = text_of(run / "rollouts.jsonl").count("\n")  # its last line may be torn
    if got >= 32 or not re.search(r"File too large|EFBIG|Errno 27", everything):
        raise failed(ctx, f"exit {code}, no EFBIG")
    return ("`gym-pipeline materialize` (string_match, 8 tasks x 4 repeats), then a user's script "
            "(RUN/run_collect_on_slurm.py) submitting `gym-pipeline collect` as a Slurm job through the project's "
            f"SlurmLauncher, from a subshell with `ulimit -f 6`; exit {code}, {got} lines in rollouts.jsonl.")


DOCKER_COLLECT = '''
"""Run the collect stage in a container through gym_pipeline's DockerLauncher, as a sweep step would."""
import sys
import threading
from pathlib import Path

from gym_pipeline.launchers.base import StageLaunch
from gym_pipeline.launchers.docker import DockerLauncher

run = Path(sys.argv[1])
launcher = DockerLauncher(SETTINGS)
state = launcher.run(StageLaunch("collect", sys.argv[2:], run, env=PROJECT, cwd=run))
print("collect ended:", state.exit_code, flush=True)
'''


@case("infra_docker_cpus_beyond_host", "infra", ["cpus"],
      "the Docker launcher asks for 8 CPUs per container (copied from the GPU hosts' settings) on a Docker host "
      "with 2, so the engine refused to start the collection's container")
def infra_docker_cpus_beyond_host(ctx: Ctx) -> str:

    run = ctx.run
    data = ctx.dataset("string_match", 4, start=50)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint)
    materialize(ctx, data, 2, "string_match")
    ctx.sh("nproc; docker info --format 'NCPU={{.NCPU}}'", "logs/host_cpus.log")
    script = ctx.run / "run_collect_in_docker.py"
    script.write_text(DOCKER_COLLECT.lstrip("\n").replace("SETTINGS", "network='host', cpus=8")
                      .replace("PROJECT", repr(PROJECT_ENV)))
    code = ctx.sh(f"{PY} {script} {run} {shlex.join(collect_argv(run, url, 'string_match', 4))}",
                  "logs/run_collect_in_docker.log", timeout=120)
    if rows_of(run / "rollouts.jsonl") or "CPUs" not in text_of(run / "logs" / "run_collect_in_docker.log"):
        raise failed(ctx, f"collected, or no CPU error (exit {code})")
    return ("`gym-pipeline materialize` (string_match, 4 tasks x 2 repeats); a user's script (RUN/run_collect_in_docker.py) "
            "running `gym-pipeline collect` through the project's DockerLauncher(cpus=8) on a 2-CPU Docker host "
            f"(logs/host_cpus.log); exit {code}.")


@case("infra_profile_output_dir_tmpfs_full", "infra", ["space"],
      "the profile was written to RUN/results, a 64 KB scratch file system already filled by an earlier export, so "
      "writing the reward profile failed with No space left on device (ENOSPC); the collection itself is complete")
def infra_profile_output_dir_tmpfs_full(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=54)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    materialize(ctx, data, 3, "string_match")
    code = ctx.sh(shlex.join(collect_argv(run, url, "string_match", 4)), "logs/collect.log")
    (run / "results").mkdir()
    ctx.sh(f"mount -t tmpfs -o size=64k tmpfs {run}/results && dd if=/dev/zero of={run}/results/export_0412.bin "
           f"bs=4k count=16; df -h {run}/results", "logs/scratch.log")
    profiled = ctx.sh(shlex.join(profile_argv(run, "--output-dir", f"{run}/results")), "logs/profile.log")
    if code or profiled == 0 or "space" not in text_of(run / "logs" / "profile.log").lower():
        raise failed(ctx, f"collect {code}, profile {profiled}")
    return ("`gym-pipeline materialize` and `collect` (string_match, 6 tasks x 3 repeats, all 18); RUN/results is a 64 KB "
            "tmpfs already full (logs/scratch.log); `gym-pipeline profile --output-dir RUN/results` exit "
            f"{profiled}.")


# --- model serving -------------------------------------------------------------------------------------


@case("model_serving_slurm_server_job_suspended", "model_serving", [],
      "the model server's Slurm job was suspended (scontrol suspend, by an operator freeing the node) while the "
      "collection ran against it: its process stopped answering, so the remaining requests timed out and failed")
def model_serving_slurm_server_job_suspended(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("mcqa", 6, start=32)
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    materialize(ctx, data, 3, "mcqa")
    job = serve_and_collect(ctx, checkpoint, "ModelServerConfig(kind='simulated', latency_ms=400, startup_timeout_s=60)",
                            "SlurmLauncherSettings(time_limit='20', poll_interval_s=0.5)", env="mcqa", timeout_s=5)
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 5 or job.poll() is not None, 150, "5 rollouts")
    job_id = launcher_state(ctx, "model_server").get("slurm_job_id")
    if not job_id:
        raise failed(ctx, f"no Slurm job id: {launcher_state(ctx, 'model_server')}")
    ctx.note(f"(an operator suspends job {job_id}, the model server)")
    ctx.sh(f"scontrol suspend {job_id}; sleep 1; squeue -j {job_id} -o '%.10i %.20j %.10T %R'", "logs/suspend.log")
    wait_or_interrupt(ctx, job, 150, "the script")
    ctx.sh(f"scontrol resume {job_id} || true; scancel {job_id} || true", "logs/after.log")
    got = len(rows_of(run / "rollouts.jsonl"))
    if got >= 18 or "SUSPENDED" not in text_of(run / "logs" / "suspend.log"):
        raise failed(ctx, f"{got} rollouts, not suspended")
    return ("`gym-pipeline materialize` (mcqa, 6 tasks x 3 repeats); a user's script (RUN/serve_and_collect.py) serves "
            "the checkpoint (simulated, 400 ms) as a Slurm job through serve_checkpoint + SlurmLauncherSettings and "
            "collects on the built-in engine (request timeout 5 s); after 5 rollouts the server's job was suspended "
            f"(logs/suspend.log); the script exited {job.returncode} with {got} rollouts.")


@case("model_serving_slurm_stage_most_requests_time_out", "model_serving", [],
      "the model server held about half of its chat completions without ever answering (a wedged generation "
      "engine), so with the sweep's 3 s request timeout many rollouts timed out on every attempt; the collect stage "
      "ran as a Slurm job")
def model_serving_slurm_stage_most_requests_time_out(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=58, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint, "--fault-rate 0.55 --fault-kinds timeout --timeout-hold-s 600 --fault-seed 11")
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=2, concurrency=6, request_timeout_s=3)
    ctx.sh(shlex.join(stage_argv(sweep, "materialize", checkpoint, "string_match")), "logs/materialize.log")
    launcher, label = slurm()
    ended = launched(ctx, launcher, label, "collect",
                     stage_argv(sweep, "collect", checkpoint, "string_match", "--model-url", url, "--model-name",
                                "sim-policy"))
    failures = rows_of(run / "rollouts_failures.jsonl")
    if not any(f.get("_ng_failure_terminal") for f in failures):
        raise failed(ctx, f"no terminal failures: {ended}")
    return ("A sweep config (2 repeats, concurrency 6, request_timeout_s 3); `gym-pipeline stage materialize` (6 "
            "string_match tasks); `gym-pipeline stage collect` as a Slurm job (project's SlurmLauncher; "
            f"{ended}) against the simulated policy holding 55% of completions unanswered; {len(failures)} failed "
            "attempts.")


# --- config ---------------------------------------------------------------------------------------------


@case("config_builtin_model_url_https_on_http_server", "config", ["http"],
      "the collection's --model-url says https:// but the model server speaks plain HTTP on that port, so every "
      "connection failed in the TLS handshake and nothing was collected")
def config_builtin_model_url_https_on_http_server(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 4, start=62)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint)
    materialize(ctx, data, 2, "string_match")
    code = ctx.sh(shlex.join(collect_argv(run, url.replace("http://", "https://"), "string_match", 4)),
                  "logs/collect.log", timeout=300)
    if rows_of(run / "rollouts.jsonl"):
        raise failed(ctx, f"collected (exit {code})")
    return (f"`gym-pipeline materialize` (4 tasks x 2 repeats); `gym-pipeline collect --model-url "
            f"https://127.0.0.1:PORT/v1` against the simulated policy serving plain HTTP; exit {code}.")


@case("config_serve_checkpoint_startup_timeout_too_short", "config", ["startup_timeout_s"],
      "the model server config sets startup_timeout_s: 0.5 (the user meant minutes), far shorter than the server "
      "needs to start, so serve_checkpoint gave up on a server that was still starting and nothing was collected")
def config_serve_checkpoint_startup_timeout_too_short(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 4, start=66)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    materialize(ctx, data, 2, "string_match")
    job = serve_and_collect(ctx, checkpoint, "ModelServerConfig(kind='simulated', startup_timeout_s=0.5)",
                            "LocalLauncherSettings()")
    wait_or_interrupt(ctx, job, 120, "the script")
    if rows_of(run / "rollouts.jsonl") or job.returncode == 0:
        raise failed(ctx, f"exit {job.returncode}")
    return ("`gym-pipeline materialize` (4 tasks x 2 repeats); a user's script (RUN/serve_and_collect.py) serving the "
            "checkpoint through serve_checkpoint + LocalLauncherSettings with ModelServerConfig(kind='simulated', "
            f"startup_timeout_s=0.5), then collecting; exit {job.returncode}.")


@case("config_slurm_reservation_does_not_exist", "config", ["reservation"],
      "the Slurm launcher's extra_options pass --reservation=gpu_maint, a reservation that does not exist on this "
      "cluster (it was the last maintenance window's), so sbatch refused the collection's job")
def config_slurm_reservation_does_not_exist(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("mcqa", 4, start=36)
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, _ = ctx.policy(checkpoint)
    materialize(ctx, data, 2, "mcqa")
    script = slurm_collect_script(ctx, "time_limit='10', extra_options=['--reservation=gpu_maint'], poll_interval_s=0.5")
    code = ctx.sh(f"{PY} {script} {run} {shlex.join(collect_argv(run, url, 'mcqa', 4))}",
                  "logs/run_collect_on_slurm.log", timeout=120)
    if code == 0 or rows_of(run / "rollouts.jsonl"):
        raise failed(ctx, f"exit {code}")
    return ("`gym-pipeline materialize` (mcqa, 4 tasks x 2 repeats); a user's script (RUN/run_collect_on_slurm.py) "
            "submitting `gym-pipeline collect` through the project's SlurmLauncher with "
            f"extra_options=['--reservation=gpu_maint']; exit {code}.")


@case("config_sweep_concurrency_above_maximum", "config", ["concurrency"],
      "the sweep config asks for concurrency 10000 (the user multiplied by the number of GPUs twice), above the "
      "largest the config accepts (4096), so the stage refused the sweep config and nothing ran")
def config_sweep_concurrency_above_maximum(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 4, start=70, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=2, concurrency=10000)
    code = ctx.sh(shlex.join(stage_argv(sweep, "materialize", checkpoint, "string_match")), "logs/materialize.log")
    if code == 0:
        raise failed(ctx, "accepted")
    return ("A sweep config (RUN/sweep.json) with concurrency 10000; `gym-pipeline stage materialize` on 4 string_match "
            f"tasks exit {code}.")


# --- data / schema ---------------------------------------------------------------------------------------


@case("data_schema_slurm_mcqa_answer_key_shifted", "data_schema", ["expected_answer"],
      "the mcqa dataset's answer key was exported off by one (option index 1-4 mapped to B-E instead of A-D), so "
      "every expected_answer names the letter after the right one: the completed Slurm run scored the correct "
      "answers 0")
def data_schema_slurm_mcqa_answer_key_shifted(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("mcqa", 6, start=0, folder=run, name="mcqa.jsonl")
    checkpoint = checkpoints(ctx, "mcqa", data)[1]

    def shift(index: int, row: dict) -> bool:
        row["expected_answer"] = "BCDE"["ABCD".index(row["expected_answer"])]
        return True

    rewrite_rows(data, shift)
    ctx.note("(RUN/mcqa.jsonl: answer key exported with letters shifted by one: A->B, B->C, C->D, D->E)")
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    materialize(ctx, data, 3, "mcqa")
    launcher, label = slurm()
    ended = launched(ctx, launcher, label, "collect", collect_argv(run, url, "mcqa", 4))
    profiled = launched(ctx, launcher, label, "profile", profile_argv(run))
    rewards = [row.get("reward") for row in rows_of(run / "rollouts.jsonl")]
    if sum(r or 0 for r in rewards) > 3:
        raise failed(ctx, f"rewards {rewards}")
    return ("6 mcqa rows with the answer key shifted by one letter; `gym-pipeline materialize` (3 repeats), `gym-pipeline "
            f"collect` and `profile` as Slurm jobs ({ended}; {profiled}) against a healthy policy; "
            f"{len(rewards)} rollouts, total reward {sum(r or 0 for r in rewards)}.")


@case("data_schema_stage_csv_saved_as_jsonl", "data_schema", ["jsonl"],
      "the dataset was exported from a spreadsheet as CSV (a header line, then prompt,expected_answer rows) but "
      "saved under a .jsonl name, so the materialize stage could not parse it as JSON Lines")
def data_schema_stage_csv_saved_as_jsonl(ctx: Ctx) -> str:
    import csv
    import io

    run = ctx.run
    source = ctx.dataset("string_match", 5, start=74)
    checkpoint = checkpoints(ctx, "string_match", source)[1]
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["prompt", "expected_answer", "extraction_mode"])
    for row in rows_of(source):
        text = row["responses_create_params"]["input"][0]["content"][0]["text"]
        writer.writerow([text, row["expected_answer"], row.get("extraction_mode", "final_answer")])
    data = run / "string_match.jsonl"
    data.write_text(buffer.getvalue())
    ctx.note("(RUN/string_match.jsonl: the spreadsheet's CSV export, saved with a .jsonl name)")
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=2, concurrency=4)
    code = ctx.sh(shlex.join(stage_argv(sweep, "materialize", checkpoint, "string_match")), "logs/materialize.log")
    if code == 0:
        raise failed(ctx, "materialized")
    return ("A sweep config on RUN/string_match.jsonl, which holds CSV (header and 5 rows); `gym-pipeline stage "
            f"materialize` exit {code}.")


@case("data_schema_stage_case_sensitive_as_string", "data_schema", ["case_sensitive"],
      "the rows' case_sensitive field holds the string \"false\" (written by a YAML-to-JSON converter) instead of "
      "the boolean false, so the verifier refused every row and no rollout succeeded")
def data_schema_stage_case_sensitive_as_string(ctx: Ctx) -> str:
    from gym_pipeline.launchers.local import LocalLauncher

    run = ctx.run
    data = ctx.dataset("string_match", 5, start=2, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]

    def stringify(index: int, row: dict) -> bool:
        row["case_sensitive"] = "false"
        return True

    rewrite_rows(data, stringify)
    ctx.note("(RUN/string_match.jsonl: \"case_sensitive\": \"false\" in every row)")
    url, policy = ctx.policy(checkpoint)
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=2, concurrency=4)
    ctx.sh(shlex.join(stage_argv(sweep, "materialize", checkpoint, "string_match")), "logs/materialize.log")
    ended = launched(ctx, LocalLauncher(), "LocalLauncher()", "collect",
                     stage_argv(sweep, "collect", checkpoint, "string_match", "--model-url", url, "--model-name",
                                "sim-policy"))
    profiled = ctx.sh(shlex.join(stage_argv(sweep, "profile", checkpoint, "string_match")), "logs/profile.log")
    if len(rows_of(run / "rollouts.jsonl")) == 10 and all(r.get("reward") is not None for r in rows_of(run / "rollouts.jsonl")) \
            and "case_sensitive" not in text_of(run / "rollouts_failures.jsonl") + text_of(run / "rollouts.jsonl"):
        raise failed(ctx, f"collected: {ended}")
    return ("5 string_match rows with case_sensitive \"false\" (a string); sweep stages materialize, collect (project's "
            f"LocalLauncher; {ended}) and profile (exit {profiled}) against a healthy policy.")


# --- verifier / runtime ----------------------------------------------------------------------------------

ASCII_COLLECTOR = """
AUDIT = Path(sys.argv[2]).with_name("verify_audit.log")


class AuditedMatch(StringMatchEnvironment):
    def verify(self, row, response_text):
        with open(AUDIT, "ab") as audit:  # one line per verification, for the compliance audit
            audit.write(f"{self.prompt_text(row)!s}\\t{response_text}\\n".replace("\\n", " ").encode("ascii") + b"\\n")
        return super().verify(row, response_text)
"""


@case("verifier_runtime_slurm_verifier_ascii_audit_log", "verifier_runtime", ["ascii"],
      "the user's verifier writes an audit line per verification encoded as ASCII, so it raised UnicodeEncodeError "
      "on every row whose prompt has an accented character: those rollouts failed while the others succeeded")
def verifier_runtime_slurm_verifier_ascii_audit_log(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=6, folder=run, name="string_match.jsonl")

    def accent(index: int, row: dict) -> bool:
        if index % 2:
            part = row["responses_create_params"]["input"][0]["content"][0]
            part["text"] = "Question du quiz « culture générale » : " + part["text"]
            return True
        return False

    rewrite_rows(data, accent)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    materialize(ctx, data, 2, "string_match")
    script = own_collector(ctx, "collect_audited.py", ASCII_COLLECTOR, "AuditedMatch()")
    launcher, label = slurm()
    ended = launched(ctx, launcher, label, "collect",
                     [str(PY), str(script), f"{run}/rollouts_materialized_inputs.jsonl", f"{run}/rollouts.jsonl", url])
    everything = "".join(text_of(p) for p in run.rglob("*") if p.is_file() and p.suffix in (".log", ".jsonl", ".out", ".err"))
    if "UnicodeEncodeError" not in everything and "ascii" not in everything:
        raise failed(ctx, f"no UnicodeEncodeError: {ended}")
    return ("6 string_match rows, 3 with French text in the prompt; a user's script (RUN/collect_audited.py: the built-in "
            "collector with a verifier writing an ASCII audit line) run as a Slurm job through the project's "
            f"SlurmLauncher ({ended}); {len(rows_of(run / 'rollouts.jsonl'))} rollouts, "
            f"{len(rows_of(run / 'rollouts_failures.jsonl'))} failed attempts.")


CASE_COLLECTOR = """
from gym_pipeline.environments.string_match import extract_answer


class TeamMatch(StringMatchEnvironment):
    def verify(self, row, response_text):
        verdict = super().verify(row, response_text)
        extracted = extract_answer(response_text, row.get("extraction_mode", "final_answer"))
        # our grader: exact match against the lower-cased key
        correct = extracted is not None and extracted.strip() == row["expected_answer"].strip().lower()
        verdict["reward"] = 1.0 if correct else 0.0
        return verdict
"""


@case("verifier_runtime_docker_verifier_lowercases_one_side", "verifier_runtime", ["lower"],
      "the user's grader compares the model's answer as written with the expected answer lower-cased, so every "
      "correct answer with a capital letter (Hydrogen, Paris, ...) scored 0 in a run that otherwise completed")
def verifier_runtime_docker_verifier_lowercases_one_side(ctx: Ctx) -> str:
    from gym_pipeline.launchers.docker import DockerLauncher

    run = ctx.run
    data = ctx.dataset("string_match", 10, start=0, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    materialize(ctx, data, 2, "string_match")
    script = own_collector(ctx, "collect_team_grader.py", CASE_COLLECTOR, "TeamMatch()")
    launcher = DockerLauncher(network="host")
    ended = docker_launched(ctx, launcher, "DockerLauncher(network='host')", "collect",
                            [str(PY), str(script), f"{run}/rollouts_materialized_inputs.jsonl", f"{run}/rollouts.jsonl",
                             url])
    profiled = docker_launched(ctx, launcher, "DockerLauncher(network='host')", "profile", profile_argv(run))
    rows = rows_of(run / "rollouts.jsonl")
    wrong = [r for r in rows if r.get("reward") == 0 and r.get("extracted_answer")
             and str(r["extracted_answer"]).strip().lower() == str(r.get("expected_answer")).strip().lower()]
    if len(rows) != 20 or not wrong:
        raise failed(ctx, f"{len(rows)} rows, {len(wrong)} correct scored 0: {ended}")
    return ("A user's script (RUN/collect_team_grader.py: built-in collector, grader comparing the answer as written with "
            "the lower-cased key) and `gym-pipeline profile`, each in a Docker container (project's DockerLauncher; "
            f"{ended}; {profiled}); 10 string_match tasks x 2: {len(wrong)} correct answers scored 0.")


BREAKPOINT_COLLECTOR = """
class CheckedMatch(StringMatchEnvironment):
    def verify(self, row, response_text):
        verdict = super().verify(row, response_text)
        if not verdict["reward"]:
            breakpoint()  # look at the misses (left in from a debugging session)
        return verdict
"""


@case("verifier_runtime_builtin_breakpoint_left_in_verifier", "verifier_runtime", ["breakpoint"],
      "the user's verifier still calls breakpoint() on every miss (left in from a debugging session); run in the "
      "background with no terminal, pdb read end-of-file and quit (BdbQuit), so every rollout with a wrong answer "
      "failed in the verifier")
def verifier_runtime_builtin_breakpoint_left_in_verifier(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=22)
    checkpoint = checkpoints(ctx, "string_match", data)[0]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    materialize(ctx, data, 3, "string_match")
    script = own_collector(ctx, "collect_checked.py", BREAKPOINT_COLLECTOR, "CheckedMatch()")
    code = ctx.sh(f"nohup {PY} {script} {run}/rollouts_materialized_inputs.jsonl {run}/rollouts.jsonl {url} "
                  "< /dev/null", "logs/collect.log", timeout=300)
    everything = text_of(run / "logs" / "collect.log") + text_of(run / "rollouts_failures.jsonl")
    if "BdbQuit" not in everything and "Pdb" not in everything:
        raise failed(ctx, f"exit {code}, no pdb")
    return ("`gym-pipeline materialize` (string_match, 8 tasks x 3 repeats); a user's script (RUN/collect_checked.py: "
            "built-in collector, verifier calling breakpoint() on a miss) run with nohup and stdin from /dev/null "
            f"against the weaker checkpoint; exit {code}, {len(rows_of(run / 'rollouts.jsonl'))} rollouts, "
            f"{len(rows_of(run / 'rollouts_failures.jsonl'))} failed attempts.")


# --- cache / resume --------------------------------------------------------------------------------------

TODO_COLLECTOR = """
class OurMatch(StringMatchEnvironment):
    def verify(self, row, response_text):
        verdict = super().verify(row, response_text)
        verdict["reward"] = 0.0  # TODO: plug in our grader
        return verdict
"""

FIXED_COLLECTOR = """
class OurMatch(StringMatchEnvironment):
    def verify(self, row, response_text):
        return super().verify(row, response_text)
"""


@case("cache_resume_builtin_resumed_after_fixing_verifier", "cache_resume", ["--resume"],
      "the user noticed their verifier scored everything 0, stopped the collection, fixed the verifier and "
      "continued with --resume: the rollouts scored by the broken verifier were kept as done, so the run mixes "
      "rewards of the old and the fixed verifier")
def cache_resume_builtin_resumed_after_fixing_verifier(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=12, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 400")
    materialize(ctx, data, 3, "string_match")
    script = own_collector(ctx, "collect_ours.py", TODO_COLLECTOR, "OurMatch()", concurrency=2)
    collect = ctx.bg(f"{PY} {script} {run}/rollouts_materialized_inputs.jsonl {run}/rollouts.jsonl {url}",
                     "logs/collect.log")
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 6 or collect.poll() is not None, 120, "6 rollouts")
    ctx.note("(rewards are all 0: Ctrl-C, the user fixes the verifier in RUN/collect_ours.py, then resumes)")
    ctx.stop(collect, signal.SIGINT, 20)
    own_collector(ctx, "collect_ours.py", FIXED_COLLECTOR, "OurMatch()", concurrency=2)
    code = run_collector(ctx, script, url, "--resume", log="logs/collect_resume.log")
    profiled = ctx.sh(shlex.join(profile_argv(run)), "logs/profile.log")
    rows = rows_of(run / "rollouts.jsonl")
    zeros = sum(1 for r in rows if r.get("reward") == 0)
    if code or len(unique_keys(run / "rollouts.jsonl")) != 18 or zeros < 4:
        raise failed(ctx, f"resume {code}, {len(rows)} rows, {zeros} zeros")
    return ("`gym-pipeline materialize` (string_match, 6 tasks x 3 repeats); a user's script (RUN/collect_ours.py, "
            "verifier scoring 0: TODO) stopped with Ctrl-C after 6 rollouts; the script fixed in place and run with "
            f"--resume (exit {code}); {zeros} of 18 rollouts scored 0; `gym-pipeline profile` exit {profiled}.")


# --- throughput / resources ------------------------------------------------------------------------------

JUDGE_COLLECTOR = """
import json
import os
import urllib.request

JUDGE = os.environ["JUDGE_URL"]
JUDGE_MODEL = json.load(urllib.request.urlopen(JUDGE + "/models", timeout=10))["data"][0]["id"]


class JudgedMatch(StringMatchEnvironment):
    def verify(self, row, response_text):
        verdict = super().verify(row, response_text)
        # second opinion from the judge model (one shared judge server for the team)
        body = {"model": JUDGE_MODEL, "messages": [{"role": "user", "content": self.prompt_text(row)}]}
        request = urllib.request.Request(JUDGE + "/chat/completions", data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        judged = json.load(urllib.request.urlopen(request, timeout=120))
        verdict["judge_tokens"] = judged["usage"]["total_tokens"]
        return verdict
"""


@case("throughput_builtin_judge_serves_one_at_a_time", "throughput_resources", ["judge"],
      "every verification asks a shared judge model that generates one request at a time (2 s each): the judge is "
      "the bottleneck, the collection crawled at one rollout per 2 s whatever its concurrency, and the CI step's "
      "40 s budget ran out")
def throughput_builtin_judge_serves_one_at_a_time(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=16)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 50")
    judge, _ = ctx.policy(checkpoint, "--latency-ms 2000 --max-running 1", log="logs/judge_server.log")
    materialize(ctx, data, 4, "string_match")
    script = own_collector(ctx, "collect_judged.py", JUDGE_COLLECTOR, "JudgedMatch()", concurrency=16)
    ctx.note("(the CI step that runs the collection has a 40 s budget: `timeout -k 5 40`)")
    code = ctx.sh(f"JUDGE_URL={judge} timeout -k 5 40 {PY} {script} {run}/rollouts_materialized_inputs.jsonl "
                  f"{run}/rollouts.jsonl {url}; echo \"exit status $?\"", "logs/collect.log", timeout=120)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got >= 32:
        raise failed(ctx, f"finished (exit {code})")
    return ("`gym-pipeline materialize` (string_match, 8 tasks x 4 repeats); a user's script (RUN/collect_judged.py: "
            "the built-in collector at concurrency 16, whose verifier asks a judge model) against a fast policy "
            "(50 ms) and a judge serving one request at a time (2 s, logs/judge_server.log), under `timeout -k 5 40`: "
            f"{got} of 32 rollouts.")


@case("throughput_stage_concurrency_one_missed_window", "throughput_resources", ["concurrency"],
      "the sweep's concurrency is 1 against a model server that answers in 1.5 s and has room for many requests: "
      "32 rollouts would take far longer than the nightly window, which stopped the collect stage after 25 s")
def throughput_stage_concurrency_one_missed_window(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("mcqa", 8, start=50, folder=run, name="mcqa.jsonl")
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 1500 --max-running 32")
    sweep = write_sweep(ctx, "mcqa", data, checkpoint, num_repeats=4, concurrency=1)
    ctx.sh(shlex.join(stage_argv(sweep, "materialize", checkpoint, "mcqa")), "logs/materialize.log")
    ctx.note("(the nightly window leaves the collect stage 25 s: `timeout -k 5 25`)")
    code = ctx.sh("timeout -k 5 25 " + shlex.join(stage_argv(sweep, "collect", checkpoint, "mcqa", "--model-url", url,
                                                             "--model-name", "sim-policy"))
                  + '; echo "exit status $?"', "logs/collect.log", timeout=120)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got >= 32:
        raise failed(ctx, f"finished (exit {code})")
    return ("A sweep config (4 repeats, concurrency 1); `gym-pipeline stage materialize` (8 mcqa tasks); `stage collect` "
            "against the simulated policy (1.5 s, up to 32 at once) under `timeout -k 5 25`: "
            f"{got} of 32 rollouts.")



SANDBOX_COLLECTOR = """
import subprocess
import threading

SANDBOX = threading.Lock()  # the team's code sandbox has a single slot


class SandboxedMatch(StringMatchEnvironment):
    def verify(self, row, response_text):
        with SANDBOX:  # run the answer through the sandbox's checker before grading (about 1.5 s a call)
            subprocess.run([sys.executable, "-c", "import time; time.sleep(1.5)"], check=True)
        return super().verify(row, response_text)
"""


@case("throughput_docker_verifier_sandbox_single_slot", "throughput_resources", ["sandbox"],
      "every verification runs the answer through a code sandbox with a single slot (1.5 s a call): the sandbox is "
      "the bottleneck, the containerised collection at concurrency 16 crawled at one rollout per 1.5 s and the "
      "user stopped it after 40 s")
def throughput_docker_verifier_sandbox_single_slot(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("mcqa", 8, start=56)
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 50")
    materialize(ctx, data, 4, "mcqa")
    script = own_collector(ctx, "collect_sandboxed.py", SANDBOX_COLLECTOR.replace("StringMatchEnvironment",
                                                                                  "McqaEnvironment"),
                           "SandboxedMatch()", concurrency=16)
    from gym_pipeline.launchers.docker import DockerLauncher

    result: dict = {}
    argv = [str(PY), str(script), f"{run}/rollouts_materialized_inputs.jsonl", f"{run}/rollouts.jsonl", url]
    worker = threading.Thread(target=lambda: result.update(ended=docker_launched(
        ctx, DockerLauncher(network="host"), "DockerLauncher(network='host')", "collect", argv)))
    worker.start()
    time.sleep(40)
    ctx.note("40 s in, with few rollouts: Ctrl-C (docker stop) on the collection's container")
    ctx.sh("docker ps --filter name=gym-pipeline-collect -q | xargs -r docker stop -t 10", "logs/docker_stop.log")
    worker.join(120)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got >= 32 or worker.is_alive():
        raise failed(ctx, f"{got} rollouts: {result}")
    return ("`gym-pipeline materialize` (mcqa, 8 tasks x 4 repeats); a user's script (RUN/collect_sandboxed.py: built-in "
            "collector at concurrency 16, verifier calling a one-slot sandbox for 1.5 s) in a Docker container "
            f"(project's DockerLauncher) against a fast policy (50 ms); stopped after 40 s ({result.get('ended')}) with "
            f"{got} of 32 rollouts.")


if __name__ == "__main__":
    sys.exit(main("fifth_held_out", __file__, __doc__))
