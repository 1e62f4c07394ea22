"""Build the THIRD HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled.

    .venv/bin/python scripts/diagnosis_corpus/third_held_out.py --out tests/data/diagnosis_corpus/third_held_out [--only CASE ...]

Measured once on 2026-12-01 (top-1 72 %, see benchmarks/README.md), then tuned on: these cases now count
as tuning cases. The next held-out set (`held_out.py`) is still to be written.

These cases were written from the guides alone (the NeMo Gym debugging guide, the reward profiling guide, the
task-folder troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), after the diagnosis rules
and without reading them. They measure, once, how well `gym-pipeline diagnose` names root causes on failures
its rules were never written against: they are never tuned on.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated
policy (`gym-pipeline serve-policy`, with injected faults, a slow start and a bounded capacity), the built-in
engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`, and its collector driven by users' own
scripts and verifiers), the real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` / `gym eval profile`, inside
a loopback-only network namespace, as tests/nemo_gym_driver.py does, also through the sweep's `nemo_gym`
engine), the local, Docker and Slurm launchers and the model-server launcher (`serve_checkpoint`), real
processes stopped, hung up on or killed, a real tmpfs out of inodes, a real unreachable Slurm controller and
HTTP proxy, real bad config and data files, users' own resources servers. The output of every command is
captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand. Each case
injects one cause; the failures differ from those of the tuning, first and second held-out sets, or reach the
same kind of failure by another path.

Labels (`case.json`) come from what was injected, following the NeMo Gym debugging guide's classes: the class
of the root cause (what the user must change), not of its consequences. The recipes never run the diagnosis.

The framework (Ctx, the `case` decorator, the driver) is in recipes.py. Needs root (unshare, mount), the
Docker engine and the one-node Slurm of scripts/dev-services.sh, and NeMo Gym 0.7.0 (GYM_PIPELINE_NEMO_GYM,
default /root/.cache/gym-pipeline/nemo-gym/venv/bin/gym).
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
    SERVICES_ENV,
    Ctx,
    RecipeError,
    case,
    collect_argv,
    finished,
    gym_eval,
    gym_model_args,
    launch,
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

from gym_pipeline.host import free_loopback_port  # noqa: E402

# --- helpers of this set ------------------------------------------------------------------------------


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
    env_start = ctx.gym_env_start(args, log)
    if not wait_env_start(ctx, env_start, 240, log):
        raise RecipeError(f"gym env start did not get ready (exit {env_start.poll()}):\n{text_of(ctx.run / log)[-1500:]}")
    return env_start


def gym_logs(ctx: Ctx, *names: str) -> str:
    names = names or ("env_start.log", "eval_run.log", "rollouts_failures.jsonl")
    return "".join(text_of(ctx.run / name) for name in names)


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
            "--code-version", "v12", *extra]


def wait_or_interrupt(ctx: Ctx, process: subprocess.Popen, timeout_s: float, what: str) -> None:
    try:
        process.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        ctx.note(f"{timeout_s:g} s without {what} ending: Ctrl-C on it")
    ctx.stop(process, signal.SIGINT, 30)


SERVE_AND_COLLECT = '''
"""Serve a checkpoint the way our sweep does (serve_checkpoint + a launcher) and collect against it."""
import asyncio
import sys
from pathlib import Path

from gym_pipeline.config import ModelServerConfig
from gym_pipeline.engines.builtin import CollectorSettings, collect
from gym_pipeline.environments import get_environment
from gym_pipeline.launchers.settings import LocalLauncherSettings, SlurmLauncherSettings  # noqa: F401
from gym_pipeline.serving.servers import serve_checkpoint

run, checkpoint = Path(sys.argv[1]), Path(sys.argv[2])
server = SERVER_CONFIG
with serve_checkpoint(server, checkpoint.name, checkpoint, run / "logs" / "model_server.log", LAUNCHER, run) as endpoint:
    print(f"model server ready at {endpoint.url} ({endpoint.launcher})", flush=True)
    settings = CollectorSettings(model_url=endpoint.url, model_name=endpoint.model_name, concurrency=CONCURRENCY)
    summary = asyncio.run(collect(run / "rollouts_materialized_inputs.jsonl", run / "rollouts.jsonl",
                                  get_environment("ENV"), settings))
    print(f"{summary.collected} collected, {summary.failed} failed of {summary.total} in {summary.elapsed_s:.1f}s",
          flush=True)
'''


def serve_and_collect(ctx: Ctx, checkpoint: Path, server_config: str, launcher: str, env: str = "string_match",
                      concurrency: int = 2) -> subprocess.Popen:
    """A user's script RUN/serve_and_collect.py (SERVE_AND_COLLECT with its server and launcher), started."""
    script = ctx.run / "serve_and_collect.py"
    script.write_text(SERVE_AND_COLLECT.lstrip("\n").replace("SERVER_CONFIG", server_config)
                      .replace("LAUNCHER", launcher).replace("CONCURRENCY", str(concurrency)).replace("ENV", env))
    return ctx.bg(f"{PY} {script} {ctx.run} {checkpoint}", "logs/serve_and_collect.log")


def user_collector(ctx: Ctx, source: str, name: str) -> Path:
    """A user's collection script (the built-in engine's collector with their own environment subclass)."""
    script = ctx.run / name
    script.write_text(source.lstrip("\n"))
    return script


# =====================================================================================================
# healthy
# =====================================================================================================


@case("healthy_stage_collect_nemo_gym_engine", "healthy", [],
      "nothing is wrong: a sweep partition collected with the sweep's nemo_gym engine (the real NeMo Gym behind "
      "`gym-pipeline stage collect`) completed every rollout and was profiled", netns=True)
def healthy_stage_collect_nemo_gym_engine(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 5, start=20, folder=ctx.run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 50")
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=2, concurrency=4, engine="nemo_gym",
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
    if code != 0 or profiled != 0 or len(rows_of(ctx.run / "rollouts.jsonl")) != 10:
        raise RecipeError(f"stage collect exited {code}, profile {profiled}")
    return ("A sweep config (RUN/sweep.json, engine nemo_gym, 2 repeats, concurrency 4) run by hand as a sweep step "
            "runs it, in a loopback-only network namespace: `gym-pipeline stage materialize`, `gym-pipeline stage "
            "collect` (the real NeMo Gym 0.7.0 `gym env start` + `gym eval run` behind it) against the simulated "
            "policy (50 ms), then `gym-pipeline stage profile`: all 10 rollouts and the profile written.")


@case("healthy_vllm_kind_server_slow_start_waited", "healthy", [],
      "nothing is wrong: the model server (vllm kind) loaded for a few seconds, answering 503 meanwhile; the "
      "readiness wait covered it, then every rollout was collected and profiled")
def healthy_vllm_kind_server_slow_start_waited(ctx: Ctx) -> str:
    data = ctx.dataset("mcqa", 6, start=20)
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    run = ctx.run
    materialize(ctx, data, 3, "mcqa")
    command = (f'["{GP}", "serve-policy", "--checkpoint", "{{checkpoint_dir}}", "--host", "127.0.0.1", "--port", '
               '"{port}", "--slow-start-s", "6", "--latency-ms", "40"]')
    job = serve_and_collect(ctx, checkpoint, f"ModelServerConfig(kind='vllm', startup_timeout_s=90, command={command})",
                            "LocalLauncherSettings()", env="mcqa", concurrency=4)
    wait_or_interrupt(ctx, job, 180, "the script")
    profiled = ctx.sh(shlex.join(profile_argv(run)), "logs/profile.log")
    if job.returncode != 0 or len(rows_of(run / "rollouts.jsonl")) != 18 or profiled != 0:
        raise RecipeError(f"script exit {job.returncode}, profile {profiled}")
    return ("`gym-pipeline materialize` (mcqa, 6 tasks x 3 repeats); a user's script (RUN/serve_and_collect.py) starts "
            "the model server through the project's serve_checkpoint (kind vllm whose command is `gym-pipeline "
            "serve-policy --slow-start-s 6`: 503 model_not_ready while loading; startup_timeout_s 90; LocalLauncher) "
            "and collects with the built-in collector (concurrency 4): all 18 rollouts; then `gym-pipeline profile`.")


@case("healthy_gym_request_debug_verbose", "healthy", [],
      "nothing is wrong: a complete real NeMo Gym collection and profile, run with request-boundary debugging "
      "(++global_aiohttp_client_request_debug=True), which fills the logs with request and response bodies",
      netns=True)
def healthy_gym_request_debug_verbose(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("mcqa", 3, start=30, folder=run, name="mcqa_subset.jsonl")
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    debug = "++global_aiohttp_client_request_debug=True"
    env_start = gym_start(ctx, f"{gym_model_args(url, resources_server='mcqa')} {overrides} {debug}")
    code = gym_eval(ctx, f"{overrides} {debug}", f"--agent mcqa_simple_agent --input {data} "
                                                 f"--output {run}/rollouts.jsonl --num-repeats 2 --concurrency 2")
    profiled = gym_profile(ctx, run)
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 10)
    if code != 0 or len(unique_keys(run / "rollouts.jsonl")) != 6 or profiled != 0:
        raise RecipeError(f"eval exit {code}, profile {profiled}")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace) on mcqa with `++global_aiohttp_client_request_debug=True` "
            "on both `gym env start` and `gym eval run --no-serve` (3 tasks x 2 repeats, concurrency 2) against a "
            "healthy simulated policy; all 6 rollouts, then the strict `gym eval profile`; servers stopped with "
            "Ctrl-C.")


@case("healthy_docker_collect_stopped_then_resumed", "healthy", [],
      "nothing is wrong: a collection in a Docker container was stopped (docker stop) half way and resumed with "
      "--resume on the very same inputs; it completed and was profiled")
def healthy_docker_collect_stopped_then_resumed(ctx: Ctx) -> str:
    import threading

    from gym_pipeline.launchers.docker import DockerLauncher

    data = ctx.dataset("string_match", 6, start=30, folder=ctx.run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 400")
    run = ctx.run
    materialize(ctx, data, 3, "string_match")
    argv = collect_argv(run, url, "string_match", 2)
    ctx.note(f"DockerLauncher(network='host').run(StageLaunch('collect', {ctx._shown(shlex.join(argv))}))")
    result: dict = {}
    worker = threading.Thread(target=lambda: result.update(
        ended=launch(DockerLauncher(network="host"), "collect", argv, run)))
    worker.start()
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 6 or not worker.is_alive(), 120, "6 rollouts")
    container = launcher_state(ctx, "collect").get("container_id")
    if not container:
        raise RecipeError("no container")
    ctx.sh(f"docker stop -t 10 {container}", "logs/docker_stop.log")
    worker.join(120)
    first = len(rows_of(run / "rollouts.jsonl"))
    ended = launched(ctx, DockerLauncher(network="host"), "DockerLauncher(network='host')", "collect",
                     collect_argv(run, url, "string_match", 2, "--resume"))
    profiled = ctx.sh(shlex.join(profile_argv(run)), "logs/profile.log")
    if len(unique_keys(run / "rollouts.jsonl")) != 18 or profiled != 0 or first >= 18:
        raise RecipeError(f"{first} rollouts before the stop; resume: {ended}; profile {profiled}")
    return ("`gym-pipeline materialize` (string_match, 6 tasks x 3 repeats); `gym-pipeline collect --concurrency 2` in a "
            "Docker container through the project's DockerLauncher (policy latency 400 ms); after 6 rollouts the "
            f"container was stopped (`docker stop`, {result.get('ended')}; {first} rollouts on disk); then the same "
            f"collect with `--resume` in a new container ({ended}) completed all 18; then `gym-pipeline profile`.")


@case("healthy_builtin_drops_retried_then_check_stale", "healthy", [],
      "nothing is wrong: a few dropped connections were retried and every rollout succeeded; the profile is "
      "complete and `gym-pipeline check-stale` confirms the inputs match their source")
def healthy_builtin_drops_retried_then_check_stale(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 8, start=40, folder=ctx.run, name="string_match_eval.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint, "--fault-rate 0.12 --fault-kinds drop --fault-seed 5")
    run = ctx.run
    materialize(ctx, data, 3, "string_match")
    code = ctx.sh(shlex.join(collect_argv(run, url, "string_match", 6)), "logs/collect.log")
    profiled = ctx.sh(shlex.join(profile_argv(run)), "logs/profile.log")
    stale = ctx.sh(f"{GP} check-stale --inputs {run}/rollouts_materialized_inputs.jsonl --source {data} "
                   "--num-repeats 3 --agent string_match_simple_agent", "logs/check_stale.log")
    failures = rows_of(run / "rollouts_failures.jsonl")
    if code != 0 or len(rows_of(run / "rollouts.jsonl")) != 24 or not failures or profiled != 0 or stale != 0:
        raise RecipeError(f"collect {code}, {len(failures)} failures, profile {profiled}, check-stale {stale}")
    return ("`gym-pipeline materialize` (string_match, 8 tasks x 3 repeats), `gym-pipeline collect --concurrency 6` "
            "against the simulated policy closing 12% of connections without an answer (fault seed 5): "
            f"{len(failures)} failed attempts retried, all 24 rollouts; `gym-pipeline profile` (strict) and "
            "`gym-pipeline check-stale` (exit 0).")


# =====================================================================================================
# infra
# =====================================================================================================


@case("infra_results_tmpfs_out_of_inodes", "infra", ["inodes"],
      "the file system holding the run folder ran out of inodes (a scratch tmpfs with a small inode quota): "
      "bytes were free but no new file could be created (ENOSPC), so the collection could not write its files")
def infra_results_tmpfs_out_of_inodes(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 5, start=50)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint)
    results = ctx.run / "results"
    results.mkdir(parents=True)
    kept = ctx.work / "results_copy"
    ctx.sh(f"mount -t tmpfs -o size=64m,nr_inodes=5 tmpfs {results}")
    try:
        materialize(ctx, data, 2, "string_match", folder=results)
        code = ctx.sh(shlex.join(collect_argv(results, url, "string_match", 4)), "logs/collect.log")
        ctx.sh(f"df -h {results}; df -i {results}; ls -la {results}", "logs/df.log")
        shutil.copytree(results, kept)
    finally:
        subprocess.run(["umount", str(results)], check=False)
    shutil.rmtree(results)
    shutil.copytree(kept, results)
    if code == 0 or "No space left" not in text_of(ctx.run / "logs" / "collect.log"):
        raise RecipeError(f"collect exited {code} without ENOSPC")
    return ("`gym-pipeline materialize` (string_match, 5 tasks x 2 repeats) into RUN/results, a real tmpfs of 64 MiB "
            "with only 5 inodes (`mount -t tmpfs -o size=64m,nr_inodes=5`, a scratch quota); `gym-pipeline collect` "
            f"there exited {code}; `df -h`, `df -i` and `ls` kept in logs/df.log. The tmpfs content was copied back "
            "into RUN/results after unmounting.")


DOCKER_COLLECT = '''
"""Run the collect stage in a container through gym_pipeline's DockerLauncher, with our shared checkpoint store."""
import sys
from pathlib import Path

from gym_pipeline.launchers.base import StageLaunch
from gym_pipeline.launchers.docker import BindMount, DockerLauncher

run = Path(sys.argv[1])
launcher = DockerLauncher(network="host", mounts=[BindMount(Path("/scratch/shared-checkpoints"), None, True)])
state = launcher.run(StageLaunch("collect", sys.argv[2:], run, cwd=run))
print("collect ended:", state.exit_code, flush=True)
'''


@case("infra_docker_bind_mount_source_missing", "infra", [],
      "the Docker launcher bind-mounts /scratch/shared-checkpoints into the container, and that folder does not "
      "exist on this host (the shared file system is not mounted here), so Docker refused to create the container")
def infra_docker_bind_mount_source_missing(ctx: Ctx) -> str:
    data = ctx.dataset("mcqa", 5, start=40)
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, _ = ctx.policy(checkpoint)
    run = ctx.run
    materialize(ctx, data, 2, "mcqa")
    script = run / "run_collect_in_docker.py"
    script.write_text(DOCKER_COLLECT.lstrip("\n"))
    code = ctx.sh(f"{PY} {script} {run} {shlex.join(collect_argv(run, url, 'mcqa', 4))}",
                  "logs/run_collect_in_docker.log", timeout=300)
    ctx.sh("ls -ld /scratch/shared-checkpoints; mount | grep -c scratch", "logs/ls_scratch.log")
    if code == 0 or rows_of(run / "rollouts.jsonl"):
        raise RecipeError(f"the container ran (exit {code})")
    return ("`gym-pipeline materialize` (mcqa, 5 tasks x 2 repeats), then a user's script (RUN/run_collect_in_docker.py) "
            "running the collect stage through the project's DockerLauncher with an extra read-only bind mount of "
            "/scratch/shared-checkpoints (the cluster's shared checkpoint store, not mounted on this host; `ls` kept "
            f"in logs/ls_scratch.log); the script exited {code}.")


SLURM_COLLECT = '''
"""Run the collect stage as a Slurm job through gym_pipeline's SlurmLauncher, as a sweep step would."""
import sys
from pathlib import Path

from gym_pipeline.launchers.base import StageLaunch
from gym_pipeline.launchers.slurm import SlurmLauncher

run = Path(sys.argv[1])
state = SlurmLauncher(time_limit="20", poll_interval_s=1.0).run(StageLaunch("collect", sys.argv[2:], run, cwd=run))
print("collect ended:", state.slurm_state, state.exit_code, flush=True)
'''


@case("infra_slurm_controller_unreachable", "infra", [],
      "the Slurm controller (slurmctld) named by this node's slurm.conf does not answer on its port, so sbatch "
      "could not contact it and the collection job was never submitted")
def infra_slurm_controller_unreachable(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 4, start=60)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint)
    run = ctx.run
    materialize(ctx, data, 2, "string_match")
    conf = Path(SERVICES_ENV["SLURM_CONF"]).read_text()
    dead = free_loopback_port()
    node_conf = run / "etc" / "slurm.conf"
    node_conf.parent.mkdir()
    node_conf.write_text(conf.replace("SlurmctldPort=16817", f"SlurmctldPort={dead}"))
    if f"SlurmctldPort={dead}" not in node_conf.read_text():
        raise RecipeError("could not find SlurmctldPort in slurm.conf")
    ctx.note(f"(RUN/etc/slurm.conf: this node's Slurm config; its controller port {dead} has no slurmctld behind it)")
    script = run / "run_collect_on_slurm.py"
    script.write_text(SLURM_COLLECT.lstrip("\n"))
    env = {**ctx.env, "SLURM_CONF": str(node_conf)}
    ctx.sh(f"export SLURM_CONF={node_conf}; sinfo", "logs/sinfo.log", env=env, timeout=120)
    code = ctx.sh(f"export SLURM_CONF={node_conf}; {PY} {script} {run} "
                  f"{shlex.join(collect_argv(run, url, 'string_match', 4))}", "logs/run_collect_on_slurm.log",
                  env=env, timeout=300)
    if code == 0 or rows_of(run / "rollouts.jsonl"):
        raise RecipeError(f"the job ran (exit {code})")
    return ("`gym-pipeline materialize` (string_match, 4 tasks x 2 repeats); with SLURM_CONF=RUN/etc/slurm.conf (the "
            f"node's config, whose SlurmctldPort {dead} has no controller answering), `sinfo` and then a user's script "
            "running the built-in `gym-pipeline collect` as a Slurm job through the project's SlurmLauncher "
            f"(exit {code}).")


@case("infra_gym_http_proxy_intercepts_loopback", "infra", ["proxy"],
      "the shell exports http_proxy/HTTP_PROXY (a site proxy that is not reachable from this node) without a "
      "no_proxy entry for 127.0.0.1, so NeMo Gym's HTTP calls to its own servers on loopback went to the dead proxy "
      "and failed", netns=True)
def infra_gym_http_proxy_intercepts_loopback(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 4, start=74, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    proxy = f"http://127.0.0.1:{free_loopback_port()}"
    for name in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY"):
        ctx.env[name] = proxy
    for name in ("no_proxy", "NO_PROXY"):
        ctx.env.pop(name, None)
    ctx.note(f"export http_proxy={proxy} HTTP_PROXY={proxy} https_proxy={proxy} HTTPS_PROXY={proxy}   (the "
             "cluster's login profile; nothing listens there from this node)")
    ctx.sh("env | grep -i _proxy | sort", "proxy_env.log")
    env_start = ctx.gym_env_start(f"{gym_model_args(url)} {overrides}", wait=False)
    code = None
    if wait_env_start(ctx, env_start, 90):
        eval_run = gym_eval(ctx, overrides, f"--agent string_match_simple_agent --input {data} "
                                            f"--output {run}/rollouts.jsonl --num-repeats 2 --concurrency 4",
                            background=True)
        wait_or_interrupt(ctx, eval_run, 120, "`gym eval run`")
        code = eval_run.returncode
    elif env_start.poll() is None:
        ctx.note("90 s without `gym env start` getting ready: Ctrl-C on it")
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 10)
    if len(rows_of(run / "rollouts.jsonl")) == 8:
        raise RecipeError("every rollout succeeded through the proxy settings")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace) with http_proxy/HTTP_PROXY/https_proxy/HTTPS_PROXY "
            f"exported to {proxy} (where nothing listens) and no no_proxy (proxy_env.log): `gym env start` on "
            "string_match against the healthy simulated policy"
            + (f", then `gym eval run --no-serve` (4 tasks x 2 repeats) exited {code}." if code is not None else
               f"; it did not get ready (exit {env_start.returncode}; Ctrl-C if still running after 90 s)."))


@case("infra_gym_stale_ray_address", "infra", ["ray_address"],
      "the shell still exports RAY_ADDRESS from an earlier session, naming a Ray cluster that no longer exists, so "
      "Ray tried to join that dead cluster instead of starting one and `gym env start` could not start", netns=True)
def infra_gym_stale_ray_address(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("mcqa", 4, start=62, folder=run, name="mcqa_tasks.jsonl")
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    stale = f"127.0.0.1:{free_loopback_port()}"
    ctx.env["RAY_ADDRESS"] = stale
    ctx.note(f"export RAY_ADDRESS={stale}   (left over from yesterday's session; that Ray cluster is gone)")
    ctx.sh("env | grep ^RAY_ADDRESS", "ray_env.log")
    env_start = ctx.gym_env_start(f"{gym_model_args(url, resources_server='mcqa')} {overrides}", wait=False)
    ready = wait_env_start(ctx, env_start, 90)
    if env_start.poll() is None and not ready:
        ctx.note("90 s without `gym env start` getting ready: Ctrl-C on it")
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 10)
    if ready:
        raise RecipeError("gym env start got ready with a stale RAY_ADDRESS")
    return (f"Real NeMo Gym 0.7.0 `gym env start --resources-server mcqa` (loopback-only namespace, healthy simulated "
            f"policy) with RAY_ADDRESS={stale} exported (no Ray cluster there any more; ray_env.log); it did not get "
            f"ready (exit {env_start.returncode}; Ctrl-C if still running after 90 s).")


@case("infra_slurm_job_output_on_full_disk", "infra", ["space"],
      "the run folder, where the Slurm job writes its output and exit-code files, is on a scratch file system that "
      "is full (No space left on device), so the collection job could not write its output or its rollouts")
def infra_slurm_job_output_on_full_disk(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 5, start=82)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint)
    scratch = ctx.run / "scratch"
    scratch.mkdir(parents=True)
    kept = ctx.work / "scratch_copy"
    ctx.sh(f"mount -t tmpfs -o size=96k tmpfs {scratch}")
    try:
        materialize(ctx, data, 2, "string_match", folder=scratch)
        ctx.note("(another job's checkpoint shards filled the scratch file system)")
        ctx.sh(f"dd if=/dev/zero of={scratch}/.other_job_shard.bin bs=4k 2>/dev/null; df -k {scratch}",
               "logs/df_before.log")
        script = ctx.run / "run_collect_on_slurm.py"
        script.write_text(SLURM_COLLECT.lstrip("\n"))
        code = ctx.sh(f"{PY} {script} {scratch} {shlex.join(collect_argv(scratch, url, 'string_match', 4))}",
                      "logs/run_collect_on_slurm.log", timeout=300)
        ended = f"the script exited {code}"
        ctx.sh(f"ls -la {scratch} {scratch}/logs; df -k {scratch}", "logs/df_after.log")
        (scratch / ".other_job_shard.bin").unlink(missing_ok=True)
        shutil.copytree(scratch, kept)
    finally:
        subprocess.run(["umount", str(scratch)], check=False)
    shutil.rmtree(scratch)
    shutil.copytree(kept, scratch)
    if rows_of(scratch / "rollouts.jsonl") and len(rows_of(scratch / "rollouts.jsonl")) == 10:
        raise RecipeError(f"the collection completed: {ended}")
    return ("`gym-pipeline materialize` (string_match, 5 tasks x 2 repeats) into RUN/scratch, a real 96 KiB tmpfs, "
            "which another job's file then filled (`dd`, df in logs/df_before.log); a user's script "
            "(RUN/run_collect_on_slurm.py) ran the built-in `gym-pipeline collect` as a Slurm job with its run folder "
            f"there (project's SlurmLauncher): {ended}. The other job's file was "
            "deleted and the tmpfs content copied back into RUN/scratch after unmounting.")


# =====================================================================================================
# model serving
# =====================================================================================================


@case("model_serving_docker_collect_connections_dropped", "model_serving", [],
      "the model server closed most connections without answering (dropped connections, as a crashing worker "
      "does), so many rollouts failed after their 3 attempts")
def model_serving_docker_collect_connections_dropped(ctx: Ctx) -> str:
    from gym_pipeline.launchers.docker import DockerLauncher

    data = ctx.dataset("string_match", 8, start=80)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint, "--fault-rate 0.75 --fault-kinds drop --fault-seed 3 --latency-ms 20")
    run = ctx.run
    materialize(ctx, data, 3, "string_match")
    ended = launched(ctx, DockerLauncher(network="host"), "DockerLauncher(network='host')", "collect",
                     collect_argv(run, url, "string_match", 4))
    profiled = launched(ctx, DockerLauncher(network="none"), "DockerLauncher(network='none')", "profile",
                        profile_argv(run, "--allow-partial"))
    failures = rows_of(run / "rollouts_failures.jsonl")
    if not any(f.get("_ng_failure_terminal") for f in failures):
        raise RecipeError(f"no rollout ran out of attempts ({ended})")
    return ("`gym-pipeline materialize` (string_match, 8 tasks x 3 repeats), then `gym-pipeline collect --concurrency 4` "
            "in a Docker container through the project's DockerLauncher (network host) against the simulated policy "
            "closing 75% of chat-completion connections without an answer (`--fault-kinds drop`, seed 3): "
            f"{ended}; {len(failures)} failed attempts; then `gym-pipeline profile --allow-partial` in a container "
            f"({profiled}).")


@case("model_serving_requests_hang_at_low_load", "model_serving", [],
      "the model server hangs on about half of the chat completions (never answers them) even at concurrency 3 with "
      "no queue, so those requests ran into the request timeout and several rollouts failed after 3 attempts")
def model_serving_requests_hang_at_low_load(ctx: Ctx) -> str:
    from gym_pipeline.launchers.local import LocalLauncher

    data = ctx.dataset("mcqa", 6, start=44, folder=ctx.run, name="mcqa.jsonl")
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, _ = ctx.policy(checkpoint, "--fault-rate 0.6 --fault-kinds timeout --timeout-hold-s 600 --fault-seed 8 "
                                    "--latency-ms 30")
    sweep = write_sweep(ctx, "mcqa", data, checkpoint, num_repeats=1, concurrency=3, request_timeout_s=5)
    ctx.sh(shlex.join(stage_argv(sweep, "materialize", checkpoint, "mcqa")), "logs/materialize.log")
    ended = launched(ctx, LocalLauncher(), "LocalLauncher()", "collect",
                     stage_argv(sweep, "collect", checkpoint, "mcqa", "--model-url", url, "--model-name", "sim-policy"))
    failures = rows_of(ctx.run / "rollouts_failures.jsonl")
    if not any(f.get("_ng_failure_terminal") for f in failures):
        raise RecipeError(f"no rollout ran out of attempts: {ended}")
    return ("A sweep config (RUN/sweep.json: concurrency 3, request_timeout_s 5, 1 repeat); `gym-pipeline stage "
            "materialize` (6 mcqa tasks), then `gym-pipeline stage collect` through the project's LocalLauncher "
            "against the simulated policy that holds 60% of the chat completions without answering (`--fault-kinds "
            f"timeout --timeout-hold-s 600`, no capacity limit, 30 ms otherwise): {ended}; {len(failures)} failed "
            f"attempts, {len(rows_of(ctx.run / 'rollouts.jsonl'))} of 6 rollouts.")


@case("model_serving_vllm_not_installed", "model_serving", ["vllm"],
      "the model server's program `vllm` is not installed on the node (not on PATH), so the vllm-kind model server "
      "could not start and nothing was collected")
def model_serving_vllm_not_installed(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 4, start=84)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    materialize(ctx, data, 2, "string_match")
    job = serve_and_collect(ctx, checkpoint, "ModelServerConfig(kind='vllm', startup_timeout_s=600)",
                            "LocalLauncherSettings()")
    wait_or_interrupt(ctx, job, 120, "the script")
    ctx.sh("command -v vllm || echo 'vllm: not found on PATH'", "logs/which_vllm.log")
    if job.returncode == 0 or rows_of(ctx.run / "rollouts.jsonl"):
        raise RecipeError(f"the script exited {job.returncode}")
    return ("`gym-pipeline materialize` (string_match, 4 tasks x 2 repeats); a user's script (RUN/serve_and_collect.py) "
            "starts the model server through the project's serve_checkpoint with ModelServerConfig(kind='vllm') and "
            "its default command (`vllm serve {checkpoint_dir} ...`) on the LocalLauncher, on a node without vLLM, "
            f"then would collect; the script exited {job.returncode}.")


@case("model_serving_server_crashed_and_reloading", "model_serving", [],
      "the model server process died in the middle of the collection and its supervisor restarted it on the same "
      "port, where it was still loading the checkpoint (503 model_not_ready) when the remaining requests ran out of "
      "attempts")
def model_serving_server_crashed_and_reloading(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 6, start=0, folder=ctx.run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    port = free_loopback_port()
    run = ctx.run
    materialize(ctx, data, 4, "string_match")
    first = ctx.bg(f"{GP} serve-policy --port {port} --checkpoint {checkpoint} --latency-ms 300",
                   "logs/model_server.log")
    url = f"http://127.0.0.1:{port}/v1"
    wait_for(lambda: "SIMULATED_POLICY_READY" in text_of(run / "logs" / "model_server.log"), 30, "the policy")
    collect = ctx.bg(shlex.join(collect_argv(run, url, "string_match", 2)), "logs/collect.log")
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 8 or collect.poll() is not None, 120, "8 rollouts")
    ctx.note("kill -9 on the model server after 8 rollouts (it crashed); its supervisor restarted it at once on the "
             "same port, loading the checkpoint for 10 minutes")
    ctx.stop(first, signal.SIGKILL, 1)
    second = ctx.bg(f"{GP} serve-policy --port {port} --checkpoint {checkpoint} --latency-ms 300 --slow-start-s 600",
                    "logs/model_server.log")
    wait_or_interrupt(ctx, collect, 240, "the collection")
    ctx.stop(second, signal.SIGINT, 10)
    failures = rows_of(run / "rollouts_failures.jsonl")
    if not any(f.get("_ng_failure_http_status") == 503 for f in failures):
        raise RecipeError(f"no 503 while reloading (collect exit {collect.returncode})")
    return (f"`gym-pipeline serve-policy --port {port}` (latency 300 ms); `gym-pipeline materialize` (6 tasks x 4 "
            "repeats) and `gym-pipeline collect --concurrency 2`; after 8 rollouts the server was SIGKILLed and "
            "restarted at once on the same port with a 10-minute load (`--slow-start-s 600`: 503 model_not_ready); "
            f"collect exited {collect.returncode} with {len(rows_of(run / 'rollouts.jsonl'))} of 24 rollouts, "
            f"{len(failures)} failed attempts. Both server runs log to logs/model_server.log.")


@case("model_serving_gym_model_url_wrong_port", "model_serving", [],
      "`gym env start --model-url` points at port 8001, where no model server listens (the policy serves on "
      "another port), so Gym's model checks and calls could not connect", netns=True)
def model_serving_gym_model_url_wrong_port(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("mcqa", 4, start=50, folder=run, name="mcqa_tasks.jsonl")
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    wrong = "http://127.0.0.1:8001/v1"
    env_start = ctx.gym_env_start(f"{gym_model_args(wrong, resources_server='mcqa')} {overrides}", wait=False)
    code = None
    if wait_env_start(ctx, env_start, 90):
        eval_run = gym_eval(ctx, overrides, f"--agent mcqa_simple_agent --input {data} --output {run}/rollouts.jsonl "
                                            "--num-repeats 2 --concurrency 4", background=True)
        wait_or_interrupt(ctx, eval_run, 120, "`gym eval run`")
        code = eval_run.returncode
    elif env_start.poll() is None:
        ctx.note("90 s without `gym env start` getting ready: Ctrl-C on it")
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 10)
    if rows_of(run / "rollouts.jsonl"):
        raise RecipeError("rollouts were collected")
    return (f"The simulated policy served on {url} (policy_server.log); the real NeMo Gym 0.7.0 `gym env start "
            f"--resources-server mcqa --model-url {wrong}` (loopback-only namespace)"
            + (f", then `gym eval run --no-serve` (4 tasks x 2 repeats) exited {code}." if code is not None else
               f" did not get ready (exit {env_start.returncode}; Ctrl-C if still running after 90 s)."))


# =====================================================================================================
# config
# =====================================================================================================


@case("config_sweep_misspelled_concurrency_key", "config", ["concurrency"],
      "the sweep config has a misspelled key `concurency` (for concurrency), which the sweep config refuses, so no "
      "stage could start")
def config_sweep_misspelled_concurrency_key(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 5, start=8, folder=ctx.run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint)
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=2, raw={"concurency": 8})
    code = ctx.sh(shlex.join(stage_argv(sweep, "materialize", checkpoint, "string_match")), "logs/materialize.log")
    collected = ctx.sh(shlex.join(stage_argv(sweep, "collect", checkpoint, "string_match", "--model-url", url,
                                             "--model-name", "sim-policy")), "logs/collect.log")
    if code == 0 or rows_of(ctx.run / "rollouts.jsonl"):
        raise RecipeError(f"the sweep config was accepted (exit {code})")
    return ("A sweep config (RUN/sweep.json) with the key `concurency: 8`; `gym-pipeline stage materialize` exited "
            f"{code} and `gym-pipeline stage collect` (against a healthy simulated policy) exited {collected}.")


@case("config_gym_max_output_tokens_too_small", "config", ["tokens"],
      "`gym eval run --max-output-tokens 8` caps every answer at 8 tokens, far below what the task's reasoning "
      "and final answer need, so the answers were cut off (finish_reason length) before the answer and scored 0",
      netns=True)
def config_gym_max_output_tokens_too_small(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=26, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval(ctx, overrides, f"--agent string_match_simple_agent --input {data} --output {run}/rollouts.jsonl "
                                    "--num-repeats 2 --concurrency 4 --max-output-tokens 8")
    profiled = gym_profile(ctx, run)
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 10)
    rollouts = rows_of(run / "rollouts.jsonl")
    mean = sum(row.get("reward", 0) for row in rollouts) / max(1, len(rollouts))
    if not rollouts or mean > 0.2:
        raise RecipeError(f"{len(rollouts)} rollouts, mean reward {mean:.2f} (exit {code})")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace, healthy servers): `gym eval run --no-serve "
            f"--max-output-tokens 8` on 5 string_match tasks x 2 repeats (exit {code}, {len(rollouts)} rollouts, "
            f"mean reward {mean:.2f}), then `gym eval profile` (exit {profiled}).")


@case("config_gym_override_without_plus_prefix", "config", ["route_failures_to_sidecar"],
      "`gym eval run` was given `route_failures_to_sidecar=true` without the `++` (or `+`) prefix Hydra needs to add "
      "a key that is not in the config, so the command was refused before collecting", netns=True)
def config_gym_override_without_plus_prefix(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 4, start=34, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = ctx.sh(f"{GYM} eval run --no-serve --agent string_match_simple_agent --input {data} "
                  f"--output {run}/rollouts.jsonl --num-repeats 2 --concurrency 4 route_failures_to_sidecar=true "
                  f"{overrides}", "eval_run.log", timeout=300)
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 10)
    if code == 0 and len(rows_of(run / "rollouts.jsonl")) == 8:
        raise RecipeError("gym eval run accepted the override")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace, healthy servers): `gym eval run --no-serve ... "
            f"route_failures_to_sidecar=true` (no `++`) on 4 string_match tasks x 2 repeats; exit {code}.")


@case("config_sweep_nemo_gym_executable_missing", "config", ["executable"],
      "the sweep config selects engine nemo_gym with nemo_gym.executable /opt/nemo-gym/bin/gym, a path where no "
      "`gym` program exists (it is installed elsewhere), so the collect stage could not run Gym")
def config_sweep_nemo_gym_executable_missing(ctx: Ctx) -> str:
    data = ctx.dataset("mcqa", 4, start=54, folder=ctx.run, name="mcqa.jsonl")
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, _ = ctx.policy(checkpoint)
    sweep = write_sweep(ctx, "mcqa", data, checkpoint, num_repeats=2, engine="nemo_gym",
                        nemo_gym={"executable": "/opt/nemo-gym/bin/gym"})
    ctx.sh(shlex.join(stage_argv(sweep, "materialize", checkpoint, "mcqa")), "logs/materialize.log")
    code = ctx.sh(shlex.join(stage_argv(sweep, "collect", checkpoint, "mcqa", "--model-url", url, "--model-name",
                                        "sim-policy")), "logs/collect.log", timeout=300)
    if code == 0 or rows_of(ctx.run / "rollouts.jsonl"):
        raise RecipeError(f"stage collect exited {code}")
    return ("A sweep config (RUN/sweep.json: engine nemo_gym, nemo_gym.executable /opt/nemo-gym/bin/gym, which does not "
            "exist); `gym-pipeline stage materialize` (mcqa, 4 tasks x 2 repeats), then `gym-pipeline stage collect` "
            f"against a healthy simulated policy exited {code}.")


@case("config_vllm_extra_args_unrecognized", "config", ["gpu-memory-utilization"],
      "the model server's extra_args pass `--gpu-memory-utilization 0.92`, an option the server program does not "
      "accept, so the server exited at startup with a usage error and nothing was collected")
def config_vllm_extra_args_unrecognized(ctx: Ctx) -> str:
    data = ctx.dataset("mcqa", 4, start=58)
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    materialize(ctx, data, 2, "mcqa")
    command = (f'["{GP}", "serve-policy", "--checkpoint", "{{checkpoint_dir}}", "--host", "127.0.0.1", "--port", '
               '"{port}"]')
    job = serve_and_collect(ctx, checkpoint, f"ModelServerConfig(kind='vllm', startup_timeout_s=60, command={command}, "
                                             "extra_args=['--gpu-memory-utilization', '0.92'])",
                            "LocalLauncherSettings()", env="mcqa")
    wait_or_interrupt(ctx, job, 120, "the script")
    if job.returncode == 0 or "gpu-memory-utilization" not in text_of(ctx.run / "logs" / "model_server.log"):
        raise RecipeError(f"the script exited {job.returncode}")
    return ("`gym-pipeline materialize` (mcqa, 4 tasks x 2 repeats); a user's script (RUN/serve_and_collect.py) starts "
            "the model server through the project's serve_checkpoint (kind vllm, command `gym-pipeline serve-policy "
            "...`, extra_args ['--gpu-memory-utilization', '0.92'] copied from a GPU recipe) on the LocalLauncher, "
            f"then would collect; the script exited {job.returncode}.")


@case("config_sweep_url_template_unknown_placeholder", "config", ["url_template"],
      "the sweep's endpoint url_template uses a `{step}` placeholder, but only `{checkpoint}` is allowed, so the "
      "sweep config was refused and no stage ran")
def config_sweep_url_template_unknown_placeholder(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 4, start=38, folder=ctx.run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint)
    port = url.rsplit(":", 1)[1].split("/")[0]
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=2,
                        model_server={"kind": "endpoint", "url_template": f"http://127.0.0.1:{port}/{{step}}/v1"})
    code = ctx.sh(shlex.join(stage_argv(sweep, "materialize", checkpoint, "string_match")), "logs/materialize.log")
    collected = ctx.sh(shlex.join(stage_argv(sweep, "collect", checkpoint, "string_match", "--model-url", url,
                                             "--model-name", "sim-policy")), "logs/collect.log")
    if code == 0:
        raise RecipeError("the url_template was accepted")
    return ("A sweep config (RUN/sweep.json) with model_server kind endpoint and url_template "
            f"`http://127.0.0.1:{port}/{{step}}/v1`; `gym-pipeline stage materialize` exited {code}, "
            f"`gym-pipeline stage collect` exited {collected}.")


# =====================================================================================================
# data / schema
# =====================================================================================================


@case("data_schema_mcqa_answer_text_instead_of_letter", "data_schema", ["expected_answer"],
      "four mcqa rows carry the option's text (\"Newton\") as expected_answer instead of its letter, so the verifier "
      "cannot grade them and they came back as masked verifier errors")
def data_schema_mcqa_answer_text_instead_of_letter(ctx: Ctx) -> str:
    from gym_pipeline.launchers.slurm import SlurmLauncher

    data = ctx.dataset("mcqa", 8, start=24, folder=ctx.run, name="mcqa_export.jsonl")
    checkpoint = checkpoints(ctx, "mcqa", data)[1]

    def to_text(index: int, row: dict) -> bool:
        if index % 2 == 1:
            letter = row["expected_answer"]
            row["expected_answer"] = next(text for option in row["options"] for key, text in option.items()
                                          if key == letter)
            return True
        return False

    rewrite_rows(data, to_text)
    ctx.note("(RUN/mcqa_export.jsonl: rows 2, 4, 6 and 8 carry the correct option's text as expected_answer)")
    url, _ = ctx.policy(checkpoint)
    run = ctx.run
    materialize(ctx, data, 2, "mcqa")
    ended = launched(ctx, SlurmLauncher(time_limit="10", poll_interval_s=0.5), "SlurmLauncher(time_limit='10')",
                     "collect", collect_argv(run, url, "mcqa", 4))
    ctx.sh(shlex.join(profile_argv(run)), "logs/profile.log")
    masked = [row for row in rows_of(run / "rollouts.jsonl") if row.get("failure_kind")]
    if not masked:
        raise RecipeError(f"no verifier error rows ({ended})")
    return ("8 mcqa rows, 4 of them with the option text as expected_answer (an export that resolved letters to "
            "texts); `gym-pipeline materialize` (2 repeats), the built-in `gym-pipeline collect` as a Slurm job "
            f"(project's SlurmLauncher; {ended}) against a healthy simulated policy, then `gym-pipeline profile`; "
            f"{len(masked)} rollouts came back as masked verifier errors.")


@case("data_schema_gym_utf8_bom", "data_schema", [],
      "the dataset was saved by a spreadsheet tool as UTF-8 with a byte-order mark (BOM), so its first line is not "
      "valid JSON for Gym's reader", netns=True)
def data_schema_gym_utf8_bom(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=44, folder=run, name="tasks_from_sheet.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    data.write_bytes("\ufeff".encode() + data.read_bytes())
    ctx.note("(RUN/tasks_from_sheet.jsonl: exported with 'UTF-8 with BOM')")
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval(ctx, overrides, f"--agent string_match_simple_agent --input {data} --output {run}/rollouts.jsonl "
                                    "--num-repeats 2 --concurrency 4")
    ctx.sh(f"head -c 3 {data} | od -An -tx1", "file_head.log")
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 10)
    if code == 0 and len(rows_of(run / "rollouts.jsonl")) == 10:
        raise RecipeError("Gym read the BOM file")
    return ("5 string_match rows in a file starting with a UTF-8 BOM (first bytes in file_head.log), given to the real "
            f"NeMo Gym 0.7.0 `gym eval run --no-serve` (2 repeats, loopback-only namespace, healthy servers); exit "
            f"{code}.")


@case("data_schema_gym_input_as_plain_strings", "data_schema", ["input"],
      "the rows' responses_create_params.input is a list of plain strings instead of message objects "
      "({role, content}), which Gym's request model refuses", netns=True)
def data_schema_gym_input_as_plain_strings(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 4, start=48, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]

    def plain(index: int, row: dict) -> bool:
        params = row["responses_create_params"]
        params["input"] = [part["text"] for message in params["input"] for part in message["content"]]
        return True

    rewrite_rows(data, plain)
    ctx.note("(RUN/tasks.jsonl: responses_create_params.input written as [\"<question text>\"])")
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval(ctx, overrides, f"--agent string_match_simple_agent --input {data} --output {run}/rollouts.jsonl "
                                    "--num-repeats 2 --concurrency 4")
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 10)
    if len(rows_of(run / "rollouts.jsonl")) == 8:
        raise RecipeError(f"every rollout succeeded (exit {code})")
    return ("4 string_match rows whose responses_create_params.input is [\"<question>\"] (strings, not messages), "
            "given to the real NeMo Gym 0.7.0 `gym eval run --no-serve` (2 repeats) against healthy servers "
            f"(loopback-only namespace); exit {code}, {len(rows_of(run / 'rollouts.jsonl'))} rollouts, "
            f"{len(rows_of(run / 'rollouts_failures.jsonl'))} failure rows.")


@case("data_schema_extraction_mode_last_line_everywhere", "data_schema", ["extraction_mode"],
      "a conversion script set extraction_mode \"last_line\" on every row while the prompts ask for \\boxed{} or "
      "'Final answer: ...', so the verifier compared whole last lines with the answers and scored almost every "
      "rollout 0", netns=True)
def data_schema_extraction_mode_last_line_everywhere(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 9, start=54, folder=run, name="tasks_v2.jsonl")
    kept = [row for row in rows_of(data) if row.get("extraction_mode") != "last_line"][:6]
    data.write_text("".join(json.dumps(row) + "\n" for row in kept))
    checkpoint = checkpoints(ctx, "string_match", data)[1]

    def last_line(index: int, row: dict) -> bool:
        changed = row.get("extraction_mode") != "last_line"
        row["extraction_mode"] = "last_line"
        return changed

    edited = rewrite_rows(data, last_line)
    ctx.note(f"(RUN/tasks_v2.jsonl: extraction_mode set to last_line on every row; {edited} rows changed)")
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval(ctx, overrides, f"--agent string_match_simple_agent --input {data} --output {run}/rollouts.jsonl "
                                    "--num-repeats 3 --concurrency 4")
    profiled = gym_profile(ctx, run)
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 10)
    rollouts = rows_of(run / "rollouts.jsonl")
    mean = sum(row.get("reward", 0) for row in rollouts) / max(1, len(rollouts))
    if not rollouts or mean > 0.3 or edited < 6:
        raise RecipeError(f"{len(rollouts)} rollouts, mean reward {mean:.2f}, {edited} rows edited")
    return ("6 string_match rows (prompts asking for \\boxed{} or 'Final answer: ...') with extraction_mode last_line "
            f"on every row ({edited} changed); the real NeMo Gym 0.7.0 `gym eval run --no-serve` (3 repeats, "
            f"loopback-only namespace, healthy servers) exited {code} with {len(rollouts)} rollouts, mean reward "
            f"{mean:.2f}; `gym eval profile` exited {profiled}.")


@case("data_schema_concatenated_shards_duplicate_task_index", "data_schema", ["_ng_task_index"],
      "the dataset was made by concatenating two exported shards that each number their rows with _ng_task_index "
      "from 0, so two different tasks share each task index")
def data_schema_concatenated_shards_duplicate_task_index(ctx: Ctx) -> str:
    shard_a = rows_of(ctx.dataset("string_match", 4, start=62, name="shard_a.jsonl"))
    shard_b = rows_of(ctx.dataset("string_match", 4, start=66, name="shard_b.jsonl"))
    rows = [{**row, "_ng_task_index": index} for index, row in enumerate(shard_a)]
    rows += [{**row, "_ng_task_index": index} for index, row in enumerate(shard_b)]
    data = ctx.run / "data" / "string_match_all.jsonl"
    data.parent.mkdir()
    data.write_text("".join(json.dumps(row) + "\n" for row in rows))
    ctx.note("(RUN/data/string_match_all.jsonl = `cat shard_a.jsonl shard_b.jsonl`, each shard numbered from 0)")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint)
    run = ctx.run
    code = ctx.sh(f"{GP} materialize --input {data} --num-repeats 2 --agent string_match_simple_agent "
                  f"--output {run}/rollouts_materialized_inputs.jsonl", "logs/materialize.log")
    collected = ctx.sh(shlex.join(collect_argv(run, url, "string_match", 4)), "logs/collect.log")
    profiled = ctx.sh(shlex.join(profile_argv(run)), "logs/profile.log")
    answers: dict[int, set] = {}
    for row in rows_of(run / "rollouts_materialized_inputs.jsonl"):
        answers.setdefault(row["_ng_task_index"], set()).add(row["expected_answer"])
    if code != 0 or not any(len(found) > 1 for found in answers.values()):
        raise RecipeError(f"materialize exited {code}; no task index holds two tasks")
    return ("8 string_match rows from two shards concatenated, each shard numbering _ng_task_index 0-3; "
            f"`gym-pipeline materialize --num-repeats 2` (exit {code}) kept the indices, so each task index holds two "
            f"different tasks (rollout indices 0-3); `gym-pipeline collect` exited {collected}, `gym-pipeline "
            f"profile` {profiled} with {len(rows_of(run / 'rollouts_reward_profiling.jsonl'))} task rows for 8 tasks.")


@case("data_schema_rows_with_empty_prompt", "data_schema", ["input"],
      "three rows lost their prompt in a conversion: responses_create_params.input is an empty list, so their "
      "requests carry no message and the model server refused every one (400)")
def data_schema_rows_with_empty_prompt(ctx: Ctx) -> str:
    from gym_pipeline.launchers.docker import DockerLauncher

    data = ctx.dataset("mcqa", 8, start=8, folder=ctx.run, name="mcqa_converted.jsonl")
    checkpoint = checkpoints(ctx, "mcqa", data)[1]

    def empty(index: int, row: dict) -> bool:
        if index in (1, 4, 6):
            row["responses_create_params"]["input"] = []
            return True
        return False

    rewrite_rows(data, empty)
    ctx.note("(RUN/mcqa_converted.jsonl: rows 2, 5 and 7 have responses_create_params.input [])")
    url, _ = ctx.policy(checkpoint)
    run = ctx.run
    materialize(ctx, data, 2, "mcqa")
    ended = launched(ctx, DockerLauncher(network="host"), "DockerLauncher(network='host')", "collect",
                     collect_argv(run, url, "mcqa", 4))
    ctx.sh(shlex.join(profile_argv(run, "--allow-partial")), "logs/profile.log")
    failures = rows_of(run / "rollouts_failures.jsonl")
    if not any(f.get("_ng_failure_http_status") == 400 for f in failures):
        raise RecipeError(f"no request refused with 400 ({ended})")
    return ("8 mcqa rows, 3 of them with an empty responses_create_params.input; `gym-pipeline materialize` (2 repeats), "
            "`gym-pipeline collect --concurrency 4` in a Docker container through the project's DockerLauncher "
            f"against a healthy simulated policy ({ended}; {len(failures)} failed attempts), then `gym-pipeline "
            "profile --allow-partial`.")


# =====================================================================================================
# verifier / runtime
# =====================================================================================================


HELPER_IMPORT = "from normalizers import canonical_answer  # our shared answer normalizer\n"


@case("verifier_runtime_gym_server_helper_module_missing", "verifier_runtime", ["normalizers"],
      "the user's canon_match resources server imports a helper module (normalizers) at startup that was never "
      "copied next to it, so the resources server crashed with ModuleNotFoundError and Gym's servers never got "
      "ready", netns=True)
def verifier_runtime_gym_server_helper_module_missing(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 4, start=10, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()

    def patch(app: str) -> str:
        anchor = "from fastapi import FastAPI\n"
        return app.replace(anchor, anchor + HELPER_IMPORT, 1)

    search = user_resources_server(ctx, "canon_match", "string_match", patch)
    ctx.note("(copied Gym's resources_servers/string_match to WORK/my_gym/resources_servers/canon_match; its app.py "
             "now starts with `from normalizers import canonical_answer`, a module kept in the user's other repo)")
    env_start = ctx.gym_env_start(f"--search-dir {search} {gym_model_args(url, resources_server='canon_match')} "
                                  f"{overrides}", wait=False)
    log = run / "env_start.log"
    ready = wait_env_start(ctx, env_start, 90)
    if env_start.poll() is None and not ready:
        ctx.note("90 s without `gym env start` getting ready: Ctrl-C on it")
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 10)
    if ready or "normalizers" not in text_of(log):
        raise RecipeError("the server started, or its error is not in env_start.log")
    return ("A user's resources server canon_match (Gym's string_match copied under a --search-dir, app.py importing "
            "`normalizers`, which is not there) started by the real `gym env start` (loopback-only namespace) against "
            f"a healthy simulated policy; it never got ready (exit {env_start.returncode}, Ctrl-C if still running "
            "after 90 s).")


ALIAS_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        import json

        # accepted spellings of the answers ("H" for "Hydrogen"), kept with the server
        with open("resources_servers/alias_match/data/answer_aliases.json") as aliases_file:
            aliases = json.load(aliases_file)
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        reward = 0.0
        if extracted is not None and body.expected_answer:
            extracted = aliases.get(extracted.strip().lower(), extracted)
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


@case("verifier_runtime_gym_verify_opens_file_by_relative_path", "verifier_runtime", [],
      "the user's alias_match resources server opens its aliases file by a path relative to the repository root "
      "(resources_servers/alias_match/data/answer_aliases.json), which only resolves when run from the repo root; "
      "Gym runs the server from its own folder, so every verify call raised FileNotFoundError (500)", netns=True)
def verifier_runtime_gym_verify_opens_file_by_relative_path(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 4, start=14, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    search = user_resources_server(ctx, "alias_match", "string_match", lambda app: replace_verify(app, ALIAS_VERIFY))
    aliases = search / "resources_servers" / "alias_match" / "data" / "answer_aliases.json"
    aliases.parent.mkdir(parents=True, exist_ok=True)
    aliases.write_text(json.dumps({"h": "Hydrogen", "fe": "Iron", "au": "Gold"}) + "\n")
    ctx.note("(copied Gym's resources_servers/string_match to WORK/my_gym/resources_servers/alias_match; its verify "
             "reads data/answer_aliases.json through the repo-relative path "
             "resources_servers/alias_match/data/answer_aliases.json; the file is there)")
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='alias_match')} "
                               f"{overrides}")
    eval_run = gym_eval(ctx, overrides, f"--search-dir {search} --agent alias_match_simple_agent --input {data} "
                                        f"--output {run}/rollouts.jsonl --num-repeats 2 --concurrency 4",
                        background=True)
    wait_or_interrupt(ctx, eval_run, 150, "`gym eval run`")
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 10)
    if "answer_aliases.json" not in gym_logs(ctx) or len(rows_of(run / "rollouts.jsonl")) == 8:
        raise RecipeError(f"no FileNotFoundError (exit {eval_run.returncode})")
    return ("A user's resources server alias_match (Gym's string_match copied under a --search-dir, verify opening "
            "resources_servers/alias_match/data/answer_aliases.json by a repo-relative path; the file exists in the "
            "server's data/ folder) served by the real `gym env start` (loopback-only namespace) against a healthy "
            f"simulated policy; `gym eval run --no-serve` on 4 tasks x 2 repeats exited {eval_run.returncode}; "
            f"{len(rows_of(run / 'rollouts.jsonl'))} rollouts, {len(rows_of(run / 'rollouts_failures.jsonl'))} "
            "failure rows.")


NUMPY_BOOL_COLLECTOR = '''
"""Collect string_match with our exact-match verifier (numpy-based normalizer) on the built-in engine."""
import asyncio
import sys
from pathlib import Path

import numpy as np

from gym_pipeline.engines.builtin import CollectorSettings, collect
from gym_pipeline.environments import StringMatchEnvironment
from gym_pipeline.environments.string_match import extract_answer


class ExactMatch(StringMatchEnvironment):
    def verify(self, row, response_text):
        extracted = extract_answer(response_text, row.get("extraction_mode", "final_answer")) or ""
        gold = np.char.lower(np.array([row["expected_answer"].strip()]))
        reward = (np.char.lower(np.array([extracted.strip()])) == gold).all()
        return self.verdict(reward, expected_answer=row["expected_answer"], extracted_answer=extracted)


inputs, output, url = sys.argv[1:4]
summary = asyncio.run(collect(Path(inputs), Path(output), ExactMatch(), CollectorSettings(model_url=url, concurrency=4)))
print(f"{summary.collected} collected, {summary.failed} failed of {summary.total} in {summary.elapsed_s:.1f}s")
'''


@case("verifier_runtime_builtin_numpy_bool_reward", "verifier_runtime", [],
      "the user's exact-match verifier returns its reward as a numpy.bool_ (the result of a numpy comparison), "
      "which cannot be written as JSON, so the collection crashed on the first verified rollout")
def verifier_runtime_builtin_numpy_bool_reward(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 6, start=16)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint)
    script = user_collector(ctx, NUMPY_BOOL_COLLECTOR, "collect_exact_match.py")
    run = ctx.run
    materialize(ctx, data, 3, "string_match")
    code = ctx.sh(f"{PY} {script} {run}/rollouts_materialized_inputs.jsonl {run}/rollouts.jsonl {url}",
                  "logs/collect.log")
    if code == 0:
        raise RecipeError("the collection accepted numpy booleans")
    return ("The built-in engine's collector driven by a user's script (RUN/collect_exact_match.py) whose "
            "StringMatchEnvironment subclass returns `reward` as the numpy.bool_ of a numpy string comparison; "
            f"string_match, 6 tasks x 3 repeats, healthy simulated policy; the script exited {code}.")


REGEX_COLLECTOR = r'''
"""Collect string_match with our stricter answer extractor on the built-in engine."""
import asyncio
import re
import sys
from pathlib import Path

from gym_pipeline.engines.builtin import CollectorSettings, collect
from gym_pipeline.environments import StringMatchEnvironment
from gym_pipeline.environments.string_match import normalize

FINAL = r"(?i)final answer\s*:\s*(?P<answer>[^\n]+"  # the last "Final answer: ..." line
BOXED = r"\\boxed\{(?P<answer>[^{}]+)\}"


class StrictMatch(StringMatchEnvironment):
    def verify(self, row, response_text):
        mode = row.get("extraction_mode", "final_answer")
        pattern = re.compile(BOXED if mode == "boxed" else FINAL)
        found = [match.group("answer").strip().rstrip(".") for match in pattern.finditer(response_text)]
        extracted = found[-1] if found else None
        correct = extracted is not None and normalize(extracted, False) == normalize(row["expected_answer"], False)
        return self.verdict(1.0 if correct else 0.0, expected_answer=row["expected_answer"], extracted_answer=extracted)


inputs, output, url = sys.argv[1:4]
summary = asyncio.run(collect(Path(inputs), Path(output), StrictMatch(), CollectorSettings(model_url=url, concurrency=4)))
print(f"{summary.collected} collected, {summary.failed} failed of {summary.total} in {summary.elapsed_s:.1f}s")
'''


@case("verifier_runtime_builtin_invalid_regex", "verifier_runtime", [],
      "the user's strict_match verifier compiles its 'Final answer' pattern with an unbalanced parenthesis, so "
      "re.compile raises re.error on every row that is not graded by its \\boxed pattern; those rollouts came back "
      "as masked verifier errors")
def verifier_runtime_builtin_invalid_regex(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 9, start=0)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint)
    script = user_collector(ctx, REGEX_COLLECTOR, "collect_strict_match.py")
    run = ctx.run
    materialize(ctx, data, 2, "string_match")
    code = ctx.sh(f"{PY} {script} {run}/rollouts_materialized_inputs.jsonl {run}/rollouts.jsonl {url}",
                  "logs/collect.log")
    profiled = ctx.sh(shlex.join(profile_argv(run)), "logs/profile.log")
    masked = [row for row in rows_of(run / "rollouts.jsonl") if row.get("failure_kind")]
    if not masked:
        raise RecipeError(f"no verifier error (exit {code})")
    return ("The built-in engine's collector driven by a user's script (RUN/collect_strict_match.py) whose "
            "StringMatchEnvironment subclass extracts answers with its own regular expressions, one of them "
            f"unbalanced; string_match, 9 tasks x 2 repeats, healthy simulated policy (exit {code}); {len(masked)} "
            f"rollouts are masked verifier errors; then `gym-pipeline profile` (exit {profiled}).")


ASYNCIO_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = _grade(extracted, body.expected_answer, body.case_sensitive)
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''

ASYNCIO_HELPER = '''

async def _grade_async(extracted: str, expected: str, case_sensitive: bool) -> float:
    # shared with our offline grader, which is async
    return _answers_match(extracted, expected, case_sensitive)


def _grade(extracted: str, expected: str, case_sensitive: bool) -> float:
    """Sync wrapper of the offline grader."""
    return asyncio.run(_grade_async(extracted, expected, case_sensitive))


'''


def asyncio_app(app: str) -> str:
    app = replace_verify(app, ASYNCIO_VERIFY)
    app = app.replace("import re\n", "import asyncio\nimport re\n", 1)
    anchor = "class StringMatchResourcesServerConfig"
    return app.replace(anchor, ASYNCIO_HELPER.lstrip("\n") + anchor, 1)


@case("verifier_runtime_gym_asyncio_run_inside_verify", "verifier_runtime", [],
      "the user's offline_grade resources server grades through a sync wrapper that calls asyncio.run() inside the "
      "async verify, where an event loop is already running, so every verify call with an extracted answer raised "
      "RuntimeError (500)", netns=True)
def verifier_runtime_gym_asyncio_run_inside_verify(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=18, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    search = user_resources_server(ctx, "offline_grade", "string_match", asyncio_app)
    ctx.note("(copied Gym's resources_servers/string_match to WORK/my_gym/resources_servers/offline_grade; its verify "
             "grades through `_grade`, a sync wrapper that calls asyncio.run() on the team's async offline grader)")
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='offline_grade')} "
                                  f"{overrides}")
    eval_run = gym_eval(ctx, overrides, f"--search-dir {search} --agent offline_grade_simple_agent --input {data} "
                                        f"--output {run}/rollouts.jsonl --num-repeats 2 --concurrency 4",
                        background=True)
    wait_or_interrupt(ctx, eval_run, 150, "`gym eval run`")
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 10)
    if "asyncio.run() cannot be called" not in gym_logs(ctx):
        raise RecipeError(f"no asyncio.run RuntimeError (exit {eval_run.returncode})")
    return ("A user's resources server offline_grade (Gym's string_match copied under a --search-dir, verify calling a "
            "sync wrapper around asyncio.run()) served by the real `gym env start` (loopback-only namespace) against a "
            f"healthy simulated policy; `gym eval run --no-serve` on 5 tasks x 2 repeats exited {eval_run.returncode}; "
            f"{len(rows_of(run / 'rollouts.jsonl'))} rollouts, {len(rows_of(run / 'rollouts_failures.jsonl'))} "
            "failure rows.")


# =====================================================================================================
# cache / resume
# =====================================================================================================


@case("cache_resume_docker_collect_stopped_never_resumed", "cache_resume", ["--resume"],
      "the collection's Docker container was stopped (a colleague's `docker stop` of running containers) half way, "
      "leaving a partial rollouts.jsonl that was never resumed; the strict profile then refused the missing rollouts")
def cache_resume_docker_collect_stopped_never_resumed(ctx: Ctx) -> str:
    import threading

    from gym_pipeline.launchers.docker import DockerLauncher

    data = ctx.dataset("mcqa", 6, start=36)
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 500")
    run = ctx.run
    materialize(ctx, data, 4, "mcqa")
    argv = collect_argv(run, url, "mcqa", 2)
    ctx.note(f"DockerLauncher(network='host').run(StageLaunch('collect', {ctx._shown(shlex.join(argv))}))")
    result: dict = {}
    worker = threading.Thread(target=lambda: result.update(
        ended=launch(DockerLauncher(network="host"), "collect", argv, run)))
    worker.start()
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 7 or not worker.is_alive(), 120, "7 rollouts")
    container = launcher_state(ctx, "collect").get("container_id")
    if not container:
        raise RecipeError("no container")
    ctx.sh(f"docker stop {container}", "logs/docker_stop.log")
    worker.join(120)
    code = ctx.sh(shlex.join(profile_argv(run)), "logs/profile.log")
    got = len(rows_of(run / "rollouts.jsonl"))
    if code == 0 or got >= 24:
        raise RecipeError(f"profile exited {code} with {got} rollouts")
    return ("`gym-pipeline materialize` (mcqa, 6 tasks x 4 repeats); `gym-pipeline collect --concurrency 2` in a Docker "
            "container through the project's DockerLauncher (policy latency 500 ms); after 7 rollouts the container "
            f"was stopped (`docker stop`; {result.get('ended')}); never resumed; the strict `gym-pipeline profile` "
            f"exited {code}. {got} of 24 rollouts on disk.")


@case("cache_resume_gym_resume_with_larger_limit", "cache_resume", [],
      "a collection started with `--limit 3` was interrupted and resumed with `--resume --limit 6`; Gym reused the "
      "3-task rollouts_materialized_inputs.jsonl of the first run, so the run silently covered only 3 of the 6 tasks",
      netns=True)
def cache_resume_gym_resume_with_larger_limit(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=72, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 800", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    args = (f"--agent string_match_simple_agent --input {data} --output {run}/results/rollouts.jsonl "
            "--num-repeats 2 --concurrency 2")
    first = gym_eval(ctx, overrides, args + " --limit 3", log="eval_run_limit3.log", background=True)
    wait_for(lambda: finished(ctx, 2, 6, "eval_run_limit3.log")() or first.poll() is not None, 180, "2 rollouts")
    ctx.note("Ctrl-C on `gym eval run --limit 3` after 2 of 6 rollouts (a smoke test turned into the real run)")
    ctx.stop(first, signal.SIGINT, 30)
    code = gym_eval(ctx, overrides, args + " --limit 6 --resume", log="eval_run_limit6_resume.log")
    profiled = gym_profile(ctx, run / "results")
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 10)
    tasks = {row["_ng_task_index"] for row in rows_of(run / "results" / "rollouts_materialized_inputs.jsonl")}
    if len(tasks) != 3:
        raise RecipeError(f"the resumed run's inputs hold {len(tasks)} tasks (exit {code})")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve --limit 3` (6-row string_match "
            "file, 2 repeats, concurrency 2, policy latency 800 ms) stopped with Ctrl-C after 2 rollouts; then the "
            f"same command with `--limit 6 --resume` (exit {code}), which kept the 3-task materialized inputs; then "
            f"`gym eval profile` (exit {profiled}).")


@case("cache_resume_stage_collect_interrupted_strict_profile", "cache_resume", [],
      "the sweep's collect stage was interrupted (Ctrl-C) part way and never resumed, so the strict profile stage "
      "(allow_partial_profiles false) refused the missing rollouts")
def cache_resume_stage_collect_interrupted_strict_profile(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 6, start=76, folder=ctx.run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 600")
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=4, concurrency=2,
                        allow_partial_profiles=False)
    ctx.sh(shlex.join(stage_argv(sweep, "materialize", checkpoint, "string_match")), "logs/materialize.log")
    collect = ctx.bg(shlex.join(stage_argv(sweep, "collect", checkpoint, "string_match", "--model-url", url,
                                           "--model-name", "sim-policy")), "logs/collect.log")
    wait_for(lambda: len(rows_of(ctx.run / "rollouts.jsonl")) >= 9 or collect.poll() is not None, 120, "9 rollouts")
    ctx.note("Ctrl-C on `gym-pipeline stage collect` after 9 of 24 rollouts")
    ctx.stop(collect, signal.SIGINT, 30)
    code = ctx.sh(shlex.join(stage_argv(sweep, "profile", checkpoint, "string_match")), "logs/profile.log")
    got = len(rows_of(ctx.run / "rollouts.jsonl"))
    if code == 0 or got >= 24:
        raise RecipeError(f"profile exited {code} with {got} rollouts")
    return ("A sweep config (RUN/sweep.json: 4 repeats, concurrency 2, allow_partial_profiles false); `gym-pipeline "
            "stage materialize` (6 string_match tasks), `gym-pipeline stage collect` (policy latency 600 ms) stopped "
            f"with Ctrl-C after 9 rollouts ({got} on disk), then `gym-pipeline stage profile` exited {code}.")


@case("cache_resume_ssh_hangup_then_partial_profile", "cache_resume", ["--resume"],
      "the collection ran in the foreground of an SSH session that dropped (SIGHUP), leaving a partial "
      "rollouts.jsonl; it was never resumed and the profile was then made with --allow-partial, so tasks are "
      "missing rollouts")
def cache_resume_ssh_hangup_then_partial_profile(ctx: Ctx) -> str:
    data = ctx.dataset("mcqa", 8, start=46)
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 500")
    run = ctx.run
    materialize(ctx, data, 3, "mcqa")
    collect = ctx.bg(shlex.join(collect_argv(run, url, "mcqa", 2)), "logs/collect.log")
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 8 or collect.poll() is not None, 120, "8 rollouts")
    ctx.note("the SSH connection dropped after 8 of 24 rollouts: SIGHUP to the session's foreground job")
    ctx.stop(collect, signal.SIGHUP, 30)
    code = ctx.sh(shlex.join(profile_argv(run, "--allow-partial")), "logs/profile.log")
    got = len(rows_of(run / "rollouts.jsonl"))
    if got >= 24 or code != 0:
        raise RecipeError(f"{got} rollouts, profile exit {code}")
    return ("`gym-pipeline materialize` (mcqa, 8 tasks x 3 repeats); `gym-pipeline collect --concurrency 2` (policy "
            f"latency 500 ms) hung up (SIGHUP) after 8 rollouts ({got} on disk, exit {collect.returncode}); the next "
            f"day `gym-pipeline profile --allow-partial` (exit {code}) profiled what was there.")


@case("cache_resume_gym_resume_after_temperature_change", "cache_resume", [],
      "a collection at --temperature 1.0 was interrupted and resumed with `--resume --temperature 0`; Gym reused the "
      "materialized inputs (with temperature 1.0 in their responses_create_params), so the greedy setting was "
      "silently ignored for the rest of the run", netns=True)
def cache_resume_gym_resume_after_temperature_change(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("mcqa", 5, start=56, folder=run, name="mcqa_tasks.jsonl")
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 800", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url, resources_server='mcqa')} {overrides}")
    args = (f"--agent mcqa_simple_agent --input {data} --output {run}/rollouts.jsonl --num-repeats 2 "
            "--concurrency 2")
    first = gym_eval(ctx, overrides, args + " --temperature 1.0", log="eval_run_t1.log", background=True)
    wait_for(lambda: finished(ctx, 3, 10, "eval_run_t1.log")() or first.poll() is not None, 180, "3 rollouts")
    ctx.note("Ctrl-C on `gym eval run --temperature 1.0` after 3 of 10 rollouts (the user wanted greedy decoding)")
    ctx.stop(first, signal.SIGINT, 30)
    code = gym_eval(ctx, overrides, args + " --temperature 0 --resume", log="eval_run_t0_resume.log")
    profiled = gym_profile(ctx, run)
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 10)
    temperatures = {(row.get("responses_create_params") or {}).get("temperature")
                    for row in rows_of(run / "rollouts_materialized_inputs.jsonl")}
    if temperatures != {1.0}:
        raise RecipeError(f"materialized temperatures {temperatures} (exit {code})")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve --temperature 1.0` (5 mcqa tasks x "
            "2 repeats, concurrency 2, policy latency 800 ms) stopped with Ctrl-C after 3 rollouts; then the same "
            f"command with `--temperature 0 --resume` (exit {code}); the materialized inputs still say temperature "
            f"1.0; then `gym eval profile` (exit {profiled}).")


# =====================================================================================================
# throughput / resources
# =====================================================================================================


JUDGE_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        import os

        import aiohttp

        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        # second opinion from the judge model on every rollout
        request = {"model": "sim-policy", "messages": [{"role": "user", "content": "Is this answer correct? " + text}]}
        async with aiohttp.ClientSession() as session:
            async with session.post(os.environ["JUDGE_URL"] + "/chat/completions", json=request,
                                    timeout=aiohttp.ClientTimeout(total=6)) as answer:
                judged = await answer.json()
        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
            judge_opinion=judged["choices"][0]["message"]["content"][-80:],
        )
'''


@case("throughput_gym_judge_bottleneck", "throughput_resources", [],
      "the user's judged_match resources server asks a judge model for every rollout, and the judge runs one "
      "request at a time (1 s each) while 16 rollouts verify at once, so the judge's queue grew and the verify "
      "calls ran past their 6 s judge timeout", netns=True)
def throughput_gym_judge_bottleneck(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=0, folder=run, name="tasks.jsonl")
    step_0100, step_0200 = checkpoints(ctx, "string_match", data)
    url, policy = ctx.policy(step_0200, log="policy_server.log")
    judge_url, judge = ctx.policy(step_0100, "--max-running 1 --latency-ms 1000", log="judge_server.log")
    ctx.env["JUDGE_URL"] = judge_url
    ctx.note(f"export JUDGE_URL={judge_url}   (the judge model: one request at a time)")
    overrides = ctx.gym_overrides()
    search = user_resources_server(ctx, "judged_match", "string_match", lambda app: replace_verify(app, JUDGE_VERIFY),
                                   requirements="fastapi\naiohttp\n")
    ctx.note("(copied Gym's resources_servers/string_match to WORK/my_gym/resources_servers/judged_match; its verify "
             "asks the judge model at $JUDGE_URL for a second opinion, 6 s timeout)")
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='judged_match')} "
                                  f"{overrides}")
    eval_run = gym_eval(ctx, overrides, f"--search-dir {search} --agent judged_match_simple_agent --input {data} "
                                        f"--output {run}/rollouts.jsonl --num-repeats 3 --concurrency 16",
                        background=True)
    wait_or_interrupt(ctx, eval_run, 200, "`gym eval run`")
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 10)
    ctx.stop(judge, signal.SIGINT, 10)
    if "Waiting" not in text_of(run / "judge_server.log") or len(rows_of(run / "rollouts.jsonl")) >= 18:
        raise RecipeError(f"the judge never queued, or every rollout succeeded (exit {eval_run.returncode})")
    return ("A user's resources server judged_match (Gym's string_match copied under a --search-dir; verify asks a "
            "judge model for every rollout with a 6 s timeout) served by the real `gym env start` (loopback-only "
            "namespace); the judge is the simulated policy running one request at a time (`--max-running 1 "
            "--latency-ms 1000`, log in judge_server.log); `gym eval run --no-serve --concurrency 16` on 6 tasks x 3 "
            f"repeats exited {eval_run.returncode}; {len(rows_of(run / 'rollouts.jsonl'))} rollouts, "
            f"{len(rows_of(run / 'rollouts_failures.jsonl'))} failure rows.")


@case("throughput_slurm_model_server_time_limit", "throughput_resources", ["time"],
      "the model server ran as a Slurm job with a 1-minute time limit, shorter than the collection needs, so Slurm "
      "ended the server at its limit and the rest of the requests found no server")
def throughput_slurm_model_server_time_limit(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 12, start=30)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    run = ctx.run
    materialize(ctx, data, 4, "string_match")
    job = serve_and_collect(ctx, checkpoint, "ModelServerConfig(kind='simulated', latency_ms=2500, "
                                             "startup_timeout_s=60)",
                            "SlurmLauncherSettings(time_limit='1', poll_interval_s=0.5)", concurrency=1)
    wait_or_interrupt(ctx, job, 240, "the script")
    ctx.sh("squeue -t all -o '%.10i %.20j %.10T %.10l %.10M %R'; cat logs/launcher_model_server.json",
           "logs/squeue.log", cwd=run)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got >= 48 or not rows_of(run / "rollouts_failures.jsonl"):
        raise RecipeError(f"{got} rollouts, no failure (exit {job.returncode})")
    return ("`gym-pipeline materialize` (string_match, 12 tasks x 4 repeats); a user's script (RUN/serve_and_collect.py) "
            "serves the checkpoint with the simulated policy (2.5 s per answer) as a Slurm job through the project's "
            "serve_checkpoint + SlurmLauncherSettings(time_limit='1') and collects with the built-in collector "
            f"(concurrency 1); the script exited {job.returncode} with {got} of 48 rollouts, "
            f"{len(rows_of(run / 'rollouts_failures.jsonl'))} failed attempts.")


@case("throughput_slurm_model_server_memory", "throughput_resources", ["memory"],
      "the model server ran as a Slurm job with a 20 MiB memory limit (--mem), less than the server needs, so Slurm "
      "killed it for exceeding its memory right after it got ready, and the collection found no server")
def throughput_slurm_model_server_memory(ctx: Ctx) -> str:
    data = ctx.dataset("mcqa", 8, start=58)
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    materialize(ctx, data, 4, "mcqa")
    job = serve_and_collect(ctx, checkpoint, "ModelServerConfig(kind='simulated', latency_ms=500, "
                                             "startup_timeout_s=60)",
                            "SlurmLauncherSettings(memory_mb=20, time_limit='10', poll_interval_s=0.5)", env="mcqa")
    wait_or_interrupt(ctx, job, 180, "the script")
    state = launcher_state(ctx, "model_server")
    if not state.get("oom_killed") or len(rows_of(ctx.run / "rollouts.jsonl")) >= 32:
        raise RecipeError(f"the server was not killed for its memory: {state}")
    return ("`gym-pipeline materialize` (mcqa, 8 tasks x 4 repeats); a user's script (RUN/serve_and_collect.py) starts "
            "the simulated policy (500 ms per answer) as a Slurm job through the project's serve_checkpoint + "
            "SlurmLauncherSettings(memory_mb=20) and collects with the built-in collector; the script exited "
            f"{job.returncode} (Slurm state {state.get('slurm_state')}) with {len(rows_of(ctx.run / 'rollouts.jsonl'))} "
            "of 32 rollouts.")


@case("throughput_shared_server_contention", "throughput_resources", [],
      "the model server (2 requests at once, 6 waiting) was shared with another team's collection at concurrency "
      "48 running at the same time, so the queue overflowed and this run's requests were refused with 429 "
      "overloaded until many ran out of attempts")
def throughput_shared_server_contention(ctx: Ctx) -> str:
    data = ctx.dataset("mcqa", 8, start=16)
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 300 --max-running 2 --max-waiting 6")
    run = ctx.run
    materialize(ctx, data, 3, "mcqa")
    other = ctx.work / "other_team"
    other.mkdir()
    other_data = ctx.dataset("mcqa", 16, start=0, name="other.jsonl")
    ctx.sh(f"{GP} materialize --input {other_data} --num-repeats 8 --agent mcqa_simple_agent "
           f"--output {other}/rollouts_materialized_inputs.jsonl", None)
    ctx.note("(another team's collection, in their own folder, against the same server)")
    neighbour = ctx.bg(shlex.join(collect_argv(other, url, "mcqa", 48)), None)
    wait_for(lambda: '"_ng_failure_http_status":429' in text_of(other / "rollouts_failures.jsonl")
             or neighbour.poll() is not None, 90, "the other collection's overload")
    ctx.note("(started once the other team's collection was being refused with 429 overloaded)")
    code = ctx.sh(shlex.join(collect_argv(run, url, "mcqa", 4)), "logs/collect.log")
    ctx.stop(neighbour, signal.SIGINT, 30)
    ctx.sh(shlex.join(profile_argv(run, "--allow-partial")), "logs/profile.log")
    failures = rows_of(run / "rollouts_failures.jsonl")
    if not any(f.get("_ng_failure_http_status") == 429 for f in failures):
        raise RecipeError(f"no 429 for this run (exit {code})")
    return ("The simulated policy with `--max-running 2 --max-waiting 6 --latency-ms 300` (log in "
            "logs/model_server.log) served another team's `gym-pipeline collect --concurrency 48` (128 rows, their "
            "own folder) and, while that one was already overflowing the queue, this run's `gym-pipeline collect "
            "--concurrency 4` (mcqa, 8 tasks x 3 "
            f"repeats; exit {code}, {len(rows_of(run / 'rollouts.jsonl'))} rollouts, {len(failures)} failed "
            "attempts); then `gym-pipeline profile --allow-partial`.")


SANDBOX_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        import asyncio

        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        reward = 0.0
        if extracted is not None and body.expected_answer:
            # untrusted model output is only ever evaluated inside a throw-away sandbox container
            check = "import sys; a, b = sys.argv[1:3]; print(1.0 if a.strip().lower() == b.strip().lower() else 0.0)"
            sandbox = await asyncio.create_subprocess_exec(
                "docker", "run", "--rm", "--network", "none", "gym-pipeline/base:bookworm", "python3", "-c", check,
                extracted, body.expected_answer, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
            try:
                out, _ = await asyncio.wait_for(sandbox.communicate(), timeout=1.5)
            except asyncio.TimeoutError:
                raise TimeoutError("sandbox check did not finish within 1.5 s") from None
            reward = float(out.decode().strip() or 0.0)
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


@case("throughput_gym_sandbox_latency_under_concurrency", "throughput_resources", [],
      "the user's sandboxed_match resources server starts a sandbox container for every verify; at concurrency 32 "
      "on a 2-core node the sandboxes queue up and take longer than the verifier's 1.5 s sandbox budget, so many "
      "verify calls failed (the same check takes under a second at low concurrency)", netns=True)
def throughput_gym_sandbox_latency_under_concurrency(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=78, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    search = user_resources_server(ctx, "sandboxed_match", "string_match",
                                   lambda app: replace_verify(app, SANDBOX_VERIFY))
    ctx.note("(copied Gym's resources_servers/string_match to WORK/my_gym/resources_servers/sandboxed_match; its verify "
             "compares the answers inside a `docker run --rm --network none` sandbox, 1.5 s budget)")
    ctx.sh("{ nproc; time docker run --rm --network none gym-pipeline/base:bookworm python3 -c 'print(1.0)'; }",
           "sandbox_check_alone.log")
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='sandboxed_match')} "
                                  f"{overrides}")
    eval_run = gym_eval(ctx, overrides, f"--search-dir {search} --agent sandboxed_match_simple_agent --input {data} "
                                        f"--output {run}/rollouts.jsonl --num-repeats 4 --concurrency 32",
                        background=True)
    wait_or_interrupt(ctx, eval_run, 240, "`gym eval run`")
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 10)
    if "within 1.5 s" not in gym_logs(ctx) or len(rows_of(run / "rollouts.jsonl")) > 16:
        raise RecipeError(f"no sandbox timeout (exit {eval_run.returncode})")
    return ("A user's resources server sandboxed_match (Gym's string_match copied under a --search-dir; verify runs the "
            "comparison in a fresh `docker run --rm --network none` container, 1.5 s budget; one sandbox alone takes "
            "under a second, sandbox_check_alone.log) served by the real `gym env start` (loopback-only namespace) "
            "against a healthy simulated policy; `gym eval run --no-serve --concurrency 32` on 6 tasks x 4 repeats on "
            f"a 2-core node exited {eval_run.returncode}; {len(rows_of(run / 'rollouts.jsonl'))} rollouts, "
            f"{len(rows_of(run / 'rollouts_failures.jsonl'))} failure rows.")


if __name__ == "__main__":
    # Started in the background (`nohup ... &`), this process and every command it runs would ignore SIGINT and
    # SIGHUP (ignored signals survive exec), and the recipes' Ctrl-C and hang-ups would do nothing: restore them.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    for number in (signal.SIGHUP, signal.SIGTERM):
        signal.signal(number, signal.SIG_DFL)
    sys.exit(main("third_held_out", __file__, __doc__))
