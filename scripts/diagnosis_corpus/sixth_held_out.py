"""Build the SIXTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/sixth_held_out.py --out tests/data/diagnosis_corpus/sixth_held_out [--only CASE ...]

Measured once on 2026-12-02 (top-1 75 %, see benchmarks/README.md), then tuned on: these cases now count
as tuning cases. The next held-out sets (`seventh_held_out.py`, then `held_out.py`) came later.

These cases were written from the guides alone (the NeMo Gym debugging guide, the reward profiling guide, the
task-folder troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), after the diagnosis rules had
been written and tuned on the tuning, first, second, third, fourth and fifth held-out sets, and without reading
those rules, their tests or their results. They measure, once, how well `gym-pipeline diagnose` names root
causes on failures its rules were never written against: they are never tuned on.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated
policy (`gym-pipeline serve-policy`, with injected faults, latency and a bounded capacity, restarted, hung up or
redeployed with a broken build), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`,
`check-stale`, and its collector driven by users' own scripts and verifiers), the real NeMo Gym 0.7.0
(`gym env start` / `gym eval run` / `gym eval profile`, inside a loopback-only network namespace as
tests/nemo_gym_driver.py does, with users' own resources servers), the local, Docker and Slurm launchers, real
resource limits (`ulimit -f`/`-v`, tmpfs mounts that are full, read-only or short of inodes, Docker's --cpus and
--memory), real bad config and data files. The output of every command is captured as a user would
(`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand. Each case injects one cause; the
failures differ from those of the earlier sets, or reach a known kind of failure by another path (another
process, log, launcher, engine or stage).

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


# =====================================================================================================
# the real NeMo Gym 0.7.0: healthy
# =====================================================================================================


@case("healthy_gym_resume_on_complete_run", "healthy", [],
      "nothing is wrong: the collection had finished; the user, unsure whether it had, ran the same `gym eval run` "
      "again with --resume on the same inputs (nothing left to do) and profiled; every rollout is there once",
      netns=True)
def healthy_gym_resume_on_complete_run(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 80, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    first = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 3, 4))
    again = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 3, 4, extra="--resume"),
                     log="eval_run_resume.log")
    profiled = gym_profile(ctx, run)
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "rollouts.jsonl")
    if first or again or profiled or len(rows) != 15 or len(unique_keys(run / "rollouts.jsonl")) != 15:
        raise failed(ctx, f"eval {first}/{again}, profile {profiled}, {len(rows)} rows")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve` (5 string_match tasks x 3 "
            "repeats, all 15), then the same command with --resume (eval_run_resume.log, nothing to do), then "
            "`gym eval profile`.")


@case("healthy_gym_env_start_interrupted_then_restarted", "healthy", [],
      "nothing is wrong: the user stopped a first `gym env start` with Ctrl-C while it was starting (they had meant "
      "to run it in tmux), leaving a KeyboardInterrupt traceback in env_start_first.log; the second start got "
      "ready and the collection and profile completed", netns=True)
def healthy_gym_env_start_interrupted_then_restarted(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 0, "--latency-ms 30")
    first = ctx.gym_env_start(f"{gym_model_args(url)} {overrides}", "env_start_first.log", wait=False)
    wait_for(lambda: "server" in text_of(run / "env_start_first.log").lower() or first.poll() is not None, 60,
             "the first start's output")
    time.sleep(3)
    ctx.note("(Ctrl-C on the first `gym env start`, still starting)")
    ctx.stop(first, signal.SIGINT, 30)
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 3, 4))
    profiled = gym_profile(ctx, run)
    stop_gym(ctx, env_start, policy)
    if code or profiled or len(unique_keys(run / "rollouts.jsonl")) != 12:
        raise failed(ctx, f"eval {code}, profile {profiled}")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): a first `gym env start` interrupted with Ctrl-C 3 s into "
            "its start (env_start_first.log); a second one ready; `gym eval run --no-serve` (4 tasks x 3, all 12) "
            "and `gym eval profile` exit 0.")


@case("healthy_gym_mcqa_bounded_queue_no_overflow", "healthy", [],
      "nothing is wrong: the model server runs 2 requests at once and queues up to 16; `gym eval run --concurrency "
      "4` kept it within its queue, so requests waited a little but none was refused, and every mcqa rollout was "
      "collected and profiled", netns=True)
def healthy_gym_mcqa_bounded_queue_no_overflow(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "mcqa", 5, 60, "--latency-ms 150 --max-running 2 --max-waiting 16")
    env_start = gym_start(ctx, f"{gym_model_args(url, resources_server='mcqa')} {overrides}")
    code = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 4, 4, "mcqa_simple_agent"))
    profiled = gym_profile(ctx, run)
    stop_gym(ctx, env_start, policy)
    if code or profiled or len(unique_keys(run / "rollouts.jsonl")) != 20:
        raise failed(ctx, f"eval {code}, profile {profiled}")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace) on mcqa: the simulated policy runs 2 at once (150 ms) with a "
            "queue of 16; `gym eval run --no-serve --concurrency 4` (5 tasks x 4, all 20) and `gym eval profile`.")


# =====================================================================================================
# the real NeMo Gym 0.7.0: failures
# =====================================================================================================


@case("infra_gym_ray_tmpdir_read_only", "infra", ["RAY_TMPDIR"],
      "the shell exports RAY_TMPDIR=/scratch/ray (the site profile's), a file system mounted read-only on this node, "
      "so Ray could not create its session folder and `gym env start` never started its servers", netns=True)
def infra_gym_ray_tmpdir_read_only(ctx: Ctx) -> str:
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 4)
    scratch = ctx.work / "scratch"
    scratch.mkdir()
    ctx.sh(f"mount -t tmpfs -o ro,size=1m tmpfs {scratch} && mount | grep {scratch}; touch {scratch}/probe",
           "scratch_mount.log")
    ctx.env["RAY_TMPDIR"] = str(scratch / "ray")
    ctx.env["TMPDIR"] = str(scratch)
    ctx.note(f"(the shell's profile exports RAY_TMPDIR={scratch}/ray TMPDIR={scratch})")
    ready, code = gym_start_failing(ctx, f"{gym_model_args(url)} {overrides}", 90)
    stop_gym(ctx, policy)
    ctx.sh(f"umount {scratch}")
    if ready:
        raise failed(ctx, "gym env start got ready")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym env start` with RAY_TMPDIR and TMPDIR on a read-only "
            f"tmpfs (scratch_mount.log); exit {code}, servers never ready.")


@case("infra_gym_results_tmpfs_out_of_inodes", "infra", ["inode"],
      "`gym eval run --output RUN/results/rollouts.jsonl` wrote to a scratch tmpfs with almost no inodes left "
      "(nr_inodes=3): the materialized inputs could be created but no further file, so Gym failed with No space left "
      "on device although bytes were free", netns=True)
def infra_gym_results_tmpfs_out_of_inodes(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 8, "--latency-ms 30")
    (run / "results").mkdir()
    ctx.sh(f"mount -t tmpfs -o size=8m,nr_inodes=3 tmpfs {run}/results && df -h {run}/results && df -i {run}/results",
           "scratch.log")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    eval_run = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4), background=True)
    wait_or_interrupt(ctx, eval_run, 120, "`gym eval run`")
    ctx.sh(f"ls -la {run}/results; df -i {run}/results", "scratch_after.log")
    stop_gym(ctx, env_start, policy)
    log = text_of(run / "eval_run.log")
    if not re.search(r"No space left|Errno 28|ENOSPC", log):
        raise failed(ctx, f"no ENOSPC (exit {eval_run.returncode})")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace, healthy servers): RUN/results a tmpfs with nr_inodes=3 "
            f"(scratch.log); `gym eval run --no-serve --output RUN/results/rollouts.jsonl` exit {eval_run.returncode}.")


@case("model_serving_gym_every_request_rate_limited", "model_serving", [],
      "the model server's gateway answers every chat completion with 429 (a zero request quota left on the serving "
      "key by a bad deploy) even at concurrency 2, while /v1/models answers; Gym's retries could not help and no "
      "rollout was collected", netns=True)
def model_serving_gym_every_request_rate_limited(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 12, "--fault-rate 1 --fault-kinds 429 "
                                             "--retry-after-s 3")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    ctx.sh(f"curl -s -m 5 {url}/models; echo", "curl_models.log")
    eval_run = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 2, 2), background=True)
    wait_or_interrupt(ctx, eval_run, 90, "`gym eval run`")
    stop_gym(ctx, env_start, policy)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got or "429" not in text_of(run / "policy_server.log") + gym_logs(ctx):
        raise failed(ctx, f"{got} rollouts")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): the simulated policy answers every chat completion 429 "
            "(Retry-After 3 s) while /v1/models answers (curl_models.log); `gym eval run --no-serve --concurrency 2` "
            f"(4 tasks x 2), Ctrl-C after 90 s if still running; exit {eval_run.returncode}, {got} rollouts.")


@case("model_serving_gym_server_loaded_wrong_checkpoint", "model_serving", ["checkpoint"],
      "the model server was started on the wrong checkpoint (a multiple-choice model from another project, whose "
      "path differs by one folder), so it answers the string_match prompts 'unknown': the run completed and "
      "scored 0 everywhere", netns=True)
def model_serving_gym_server_loaded_wrong_checkpoint(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=17, folder=run, name="tasks.jsonl")
    other = ctx.dataset("mcqa", 5, start=8, name="other_project_mcqa.jsonl")
    checkpoints(ctx, "string_match", data)
    from gym_pipeline.environments import McqaEnvironment
    from gym_pipeline.serving.checkpoints import demo_checkpoints

    wrong = demo_checkpoints(ctx.work / "other_project" / "checkpoints", 2, [McqaEnvironment(other)])[-1]
    url, policy = ctx.policy(wrong, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 3, 4))
    profiled = gym_profile(ctx, run)
    stop_gym(ctx, env_start, policy)
    rewards = [row.get("reward") for row in rows_of(run / "rollouts.jsonl")]
    if code or len(rewards) != 15 or sum(rewards) > 1:
        raise failed(ctx, f"eval {code}, rewards {rewards}")
    return ("The simulated policy started on WORK/other_project/checkpoints/step_0200 (a checkpoint of an mcqa model) "
            "instead of this project's; real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (5 "
            f"string_match tasks x 3, all 15, total reward {sum(rewards)}) and `gym eval profile` (exit {profiled}).")


@case("config_gym_model_type_misspelled", "config", ["model-type"],
      "`gym env start --model-type vllm` names a model server type that does not exist (the type is vllm_model), so "
      "Gym could not build its model server config and nothing started", netns=True)
def config_gym_model_type_misspelled(ctx: Ctx) -> str:
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 20)
    args = gym_model_args(url).replace("--model-type vllm_model", "--model-type vllm")
    ready, code = gym_start_failing(ctx, f"{args} {overrides}", 90)
    stop_gym(ctx, policy)
    if ready:
        raise failed(ctx, "gym env start got ready")
    return f"Real NeMo Gym 0.7.0 (loopback-only namespace): `gym env start --model-type vllm ...`; exit {code}."


@case("config_gym_num_repeats_zero", "config", ["num-repeats"],
      "`gym eval run --num-repeats 0` (the user's script passed $REPEATS, which was unset and defaulted to 0) asks "
      "for no rollout per task, so the collection produced nothing to profile", netns=True)
def config_gym_num_repeats_zero(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 24)
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", "${REPEATS:-0}", 4))
    profiled = gym_profile(ctx, run)
    stop_gym(ctx, env_start, policy)
    if rows_of(run / "rollouts.jsonl"):
        raise failed(ctx, f"collected (exit {code})")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace, healthy servers): `gym eval run --no-serve --num-repeats "
            f"${{REPEATS:-0}}` with REPEATS unset; exit {code}; `gym eval profile` exit {profiled}.")


@case("config_gym_search_dir_points_at_wrong_folder", "config", ["search-dir"],
      "the user's own resources server lives in WORK/my_gym, but `gym env start --search-dir` names WORK/my-gym "
      "(hyphen), so Gym could not find the resources server exact_match and nothing started", netns=True)
def config_gym_search_dir_points_at_wrong_folder(ctx: Ctx) -> str:
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 28)
    search = user_resources_server(ctx, "exact_match", "string_match")
    ctx.note("(copied Gym's resources_servers/string_match to WORK/my_gym/resources_servers/exact_match)")
    wrong = search.parent / "my-gym"
    ready, code = gym_start_failing(ctx, f"--search-dir {wrong} {gym_model_args(url, resources_server='exact_match')} "
                                         f"{overrides}", 90)
    stop_gym(ctx, policy)
    if ready:
        raise failed(ctx, "gym env start got ready")
    return ("A user's resources server exact_match under WORK/my_gym; real NeMo Gym 0.7.0 (loopback-only namespace) "
            f"`gym env start --search-dir WORK/my-gym --resources-server exact_match ...`; exit {code}.")


@case("data_schema_gym_rows_written_as_python_repr", "data_schema", ["json"],
      "the dataset was written with str(row) (Python's repr: single quotes, True/False) instead of json.dumps, so "
      "its lines are not JSON and Gym could not read them", netns=True)
def data_schema_gym_rows_written_as_python_repr(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 32)
    data.write_text("".join(str(row) + "\n" for row in rows_of(data)))
    ctx.note("(RUN/tasks.jsonl re-written by the user's export script with f.write(str(row) + '\\n'))")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 2, 4))
    stop_gym(ctx, env_start, policy)
    if code == 0 and len(rows_of(run / "rollouts.jsonl")) == 8:
        raise failed(ctx, "Gym read the file")
    return ("4 string_match rows written as Python reprs (single quotes) given to the real NeMo Gym 0.7.0 `gym eval "
            f"run --no-serve` (loopback-only namespace, healthy servers); exit {code}.")


@case("data_schema_gym_comment_header_lines", "data_schema", ["comment"],
      "the dataset file begins with '#' comment lines (the export tool's provenance header), which are not JSON, so "
      "Gym's JSON Lines reader failed on the first line and nothing was collected", netns=True)
def data_schema_gym_comment_header_lines(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 36)
    data.write_text("# exported by tasks-export 2.3 from sheet 'eval-q4' (4 rows)\n# columns: responses_create_params, "
                    "expected_answer, extraction_mode, case_sensitive\n" + data.read_text())
    ctx.note("(RUN/tasks.jsonl as written by the team's export tool: two '#' header lines, then the rows)")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 2, 4))
    stop_gym(ctx, env_start, policy)
    if code == 0 and len(rows_of(run / "rollouts.jsonl")) == 8:
        raise failed(ctx, "Gym read the file")
    return ("4 string_match rows after two '#' comment lines, given to the real NeMo Gym 0.7.0 `gym eval run --no-serve` "
            f"(loopback-only namespace, healthy servers); exit {code}.")


CONFIG_FIELD_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)
        # partial credit above the configured similarity (min_similarity: set in our cluster config)
        if reward == 0.0 and extracted is not None:
            import difflib
            ratio = difflib.SequenceMatcher(None, extracted.lower(), body.expected_answer.lower()).ratio()
            reward = 0.5 if ratio >= self.config.min_similarity else 0.0
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


@case("verifier_runtime_gym_verify_reads_undefined_config_field", "verifier_runtime", ["min_similarity"],
      "the user's near_match resources server reads self.config.min_similarity for partial credit, a field its "
      "config class does not define, so verify raised AttributeError on every wrong answer (500) and those "
      "rollouts failed", netns=True)
def verifier_runtime_gym_verify_reads_undefined_config_field(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 41, weaker=True)
    search = user_resources_server(ctx, "near_match", "string_match",
                                   lambda app: replace_verify(app, CONFIG_FIELD_VERIFY))
    ctx.note("(copied Gym's resources_servers/string_match to WORK/my_gym/resources_servers/near_match; its verify "
             "gives partial credit above self.config.min_similarity)")
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='near_match')} {overrides}")
    eval_run = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 3, 4, "near_match_simple_agent",
                                                   f"--search-dir {search}"), background=True)
    wait_or_interrupt(ctx, eval_run, 150, "`gym eval run`")
    stop_gym(ctx, env_start, policy)
    if "min_similarity" not in gym_logs(ctx):
        raise failed(ctx, f"no AttributeError (exit {eval_run.returncode})")
    return ("A user's resources server near_match (Gym's string_match under a --search-dir; verify reads "
            "self.config.min_similarity on a miss) served by the real `gym env start` (loopback-only namespace) against "
            f"the weaker checkpoint; `gym eval run --no-serve` (5 tasks x 3) exit {eval_run.returncode}, "
            f"{len(rows_of(run / 'rollouts.jsonl'))} rollouts, {len(rows_of(run / 'rollouts_failures.jsonl'))} failures.")


STUB_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        reward = 1.0  # TODO: call the grading service; 1.0 until it is deployed
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


@case("verifier_runtime_gym_stub_verifier_always_one", "verifier_runtime", ["reward"],
      "the user's graded_match resources server still has its placeholder verify that returns reward 1.0 for every "
      "answer (the grading service call is a TODO), so an early, weak checkpoint scored a perfect mean reward with "
      "wrong answers", netns=True)
def verifier_runtime_gym_stub_verifier_always_one(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 46, "--latency-ms 30", weaker=True)
    search = user_resources_server(ctx, "graded_match", "string_match", lambda app: replace_verify(app, STUB_VERIFY))
    ctx.note("(copied Gym's resources_servers/string_match to WORK/my_gym/resources_servers/graded_match; its verify "
             "returns 1.0 until the grading service is deployed)")
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='graded_match')} {overrides}")
    code = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 3, 4, "graded_match_simple_agent",
                                               f"--search-dir {search}"))
    profiled = gym_profile(ctx, run)
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "rollouts.jsonl")
    wrong = [r for r in rows if r.get("reward") == 1 and str(r.get("extracted_answer")).strip().lower()
             != str(r.get("expected_answer")).strip().lower()]
    if code or len(rows) != 18 or not wrong:
        raise failed(ctx, f"eval {code}, {len(rows)} rows, {len(wrong)} wrong scored 1")
    return ("A user's resources server graded_match (Gym's string_match under a --search-dir; verify returns 1.0) served "
            "by the real `gym env start` (loopback-only namespace) against the weaker checkpoint step_0100; `gym eval "
            f"run --no-serve` (6 tasks x 3, all 18) and `gym eval profile` (exit {profiled}): {len(wrong)} wrong answers "
            "scored 1.")


JSON_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        reward = 0.0
        if extracted is not None and body.expected_answer:
            # answers are JSON values in our structured tasks: compare them as parsed values
            reward = 1.0 if json.loads(extracted) == json.loads(body.expected_answer) else 0.0
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


@case("verifier_runtime_gym_verify_json_parses_plain_answers", "verifier_runtime", ["json.loads"],
      "the user's json_match resources server (written for structured tasks) parses every extracted answer and "
      "expected_answer with json.loads, which raises JSONDecodeError on plain-text answers such as Hydrogen, so "
      "verify answered 500 on those rows", netns=True)
def verifier_runtime_gym_verify_json_parses_plain_answers(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 8, 0)
    search = user_resources_server(ctx, "json_match", "string_match",
                                   lambda app: "import json\n" + replace_verify(app, JSON_VERIFY))
    ctx.note("(copied Gym's resources_servers/string_match to WORK/my_gym/resources_servers/json_match; its verify "
             "compares json.loads of both answers)")
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='json_match')} {overrides}")
    eval_run = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 2, 4, "json_match_simple_agent",
                                                   f"--search-dir {search}"), background=True)
    wait_or_interrupt(ctx, eval_run, 150, "`gym eval run`")
    stop_gym(ctx, env_start, policy)
    if "JSONDecodeError" not in gym_logs(ctx) and "Expecting value" not in gym_logs(ctx):
        raise failed(ctx, f"no JSONDecodeError (exit {eval_run.returncode})")
    return ("A user's resources server json_match (Gym's string_match under a --search-dir; verify compares json.loads "
            "of both answers) served by the real `gym env start` (loopback-only namespace); `gym eval run --no-serve` "
            f"(8 tasks x 2) exit {eval_run.returncode}, {len(rows_of(run / 'rollouts.jsonl'))} rollouts, "
            f"{len(rows_of(run / 'rollouts_failures.jsonl'))} failures.")


@case("cache_resume_gym_resumed_with_new_dataset_file", "cache_resume", ["--resume"],
      "an interrupted collection of tasks_v1.jsonl was continued with `gym eval run --resume --input tasks_v2.jsonl` "
      "(the corrected dataset, same output): Gym reused the materialized inputs built from v1, so the run finished "
      "on the old tasks and labels and the v2 corrections were never used", netns=True)
def cache_resume_gym_resumed_with_new_dataset_file(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 50, "--latency-ms 700")
    v1 = run / "tasks_v1.jsonl"
    data.rename(v1)
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    eval_run = gym_eval(ctx, overrides, agent_args(v1, run / "rollouts.jsonl", 3, 2), background=True)
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 4 or eval_run.poll() is not None, 120, "4 rollouts")
    ctx.note("(Ctrl-C: the user noticed two wrong labels in v1)")
    ctx.stop(eval_run, signal.SIGINT, 30)
    v2 = run / "tasks_v2.jsonl"
    rows = rows_of(v1)
    rows[1]["expected_answer"], rows[4]["expected_answer"] = "corrected-1", "corrected-4"
    rows.append(dict(rows[0], expected_answer="extra"))
    v2.write_text("".join(json.dumps(row) + "\n" for row in rows))
    ctx.note("(RUN/tasks_v2.jsonl: two labels corrected, one task added)")
    code = gym_eval(ctx, overrides, agent_args(v2, run / "rollouts.jsonl", 3, 2, extra="--resume"),
                    log="eval_run_resume.log")
    stop_gym(ctx, env_start, policy)
    answers = {row.get("expected_answer") for row in rows_of(run / "rollouts.jsonl")}
    if code or "corrected-1" in answers or len(unique_keys(run / "rollouts.jsonl")) != 18:
        raise failed(ctx, f"resume {code}, answers {answers}")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve --input RUN/tasks_v1.jsonl` (6 tasks "
            "x 3) interrupted with Ctrl-C after 4 rollouts; RUN/tasks_v2.jsonl written (2 labels corrected, 1 task "
            f"added); `gym eval run --resume --input RUN/tasks_v2.jsonl` into the same output exit {code}, 18 rollouts, "
            "none with v2's labels.")


BUSY_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)
        # consistency check: re-derive the answer with our (pure Python) checker, about 2 s of CPU
        deadline = time.process_time() + 2.0
        while time.process_time() < deadline:
            sum(i * i for i in range(1000))
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


@case("throughput_gym_verify_cpu_bound_blocks_event_loop", "throughput_resources", ["event loop"],
      "the user's checked_match resources server does about 2 s of CPU-bound work inside its async verify, which "
      "blocks the server's event loop: verifications run one after another whatever the concurrency, and the "
      "collection crawled until the user stopped it after 50 s", netns=True)
def throughput_gym_verify_cpu_bound_blocks_event_loop(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 8, 56, "--latency-ms 30")
    search = user_resources_server(ctx, "checked_match", "string_match",
                                   lambda app: "import time\n" + replace_verify(app, BUSY_VERIFY))
    ctx.note("(copied Gym's resources_servers/string_match to WORK/my_gym/resources_servers/checked_match; its verify "
             "runs a 2 s CPU-bound check in the event loop)")
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='checked_match')} {overrides}")
    eval_run = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 4, 16, "checked_match_simple_agent",
                                                   f"--search-dir {search}"), background=True)
    wait_or_interrupt(ctx, eval_run, 50, "`gym eval run` (32 rollouts)")
    stop_gym(ctx, env_start, policy)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got >= 32:
        raise failed(ctx, "finished")
    return ("A user's resources server checked_match (Gym's string_match under a --search-dir; verify burns 2 s of CPU "
            "in the event loop) served by the real `gym env start` (loopback-only namespace); `gym eval run --no-serve "
            f"--concurrency 16` (8 tasks x 4) against a fast policy, Ctrl-C after 50 s with {got} of 32 rollouts.")


@case("throughput_gym_eval_address_space_limit", "throughput_resources", ["ulimit"],
      "`gym eval run` ran under a 250 MB address-space limit (ulimit -v 250000, the login node's per-process cap), "
      "less than its Python, Ray and thread stacks reserve, so it failed with a memory error before collecting",
      netns=True)
def throughput_gym_eval_address_space_limit(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 56, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    ctx.sh("( ulimit -v 250000; ulimit -a | grep -i virtual )", "ulimit.log")
    command = (f"( ulimit -v 250000; {GYM} eval run --no-serve {agent_args(data, run / 'rollouts.jsonl', 2, 4)} "
               f"++route_failures_to_sidecar=true {overrides} )")
    eval_run = ctx.bg(command, "eval_run.log")
    wait_or_interrupt(ctx, eval_run, 120, "`gym eval run`")
    stop_gym(ctx, env_start, policy)
    got = len(rows_of(run / "rollouts.jsonl"))
    log = text_of(run / "eval_run.log")
    if got >= 8 or not re.search(r"MemoryError|Cannot allocate|can.t start new thread|map segment|memory", log, re.I):
        raise failed(ctx, f"{got} rollouts, exit {eval_run.returncode}")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace, healthy servers): `gym eval run --no-serve` (4 tasks x 2) in "
            f"a subshell with `ulimit -v 250000` (ulimit.log); exit {eval_run.returncode}, {got} rollouts.")


# =====================================================================================================
# built-in engine and launchers: healthy
# =====================================================================================================


@case("healthy_docker_collect_memory_limit_sufficient", "healthy", [],
      "nothing is wrong: collect and profile ran in Docker containers limited to 1 GiB of memory (--memory, no "
      "swap), which is plenty for them; every rollout was collected and profiled")
def healthy_docker_collect_memory_limit_sufficient(ctx: Ctx) -> str:
    from gym_pipeline.launchers.docker import DockerLauncher

    run = ctx.run
    _, _, url, _ = builtin_setup(ctx, "string_match", 6, 62, 3, "--latency-ms 30")
    launcher, label = DockerLauncher(network="host", memory_mb=1024), "DockerLauncher(network='host', memory_mb=1024)"
    ended = docker_launched(ctx, launcher, label, "collect", collect_argv(run, url, "string_match", 4))
    profiled = docker_launched(ctx, launcher, label, "profile", profile_argv(run))
    if len(unique_keys(run / "rollouts.jsonl")) != 18 or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"collect {ended}, profile {profiled}")
    return ("`gym-pipeline materialize` (string_match, 6 tasks x 3); `gym-pipeline collect` and `profile` in Docker "
            f"containers limited to 1024 MiB (project's DockerLauncher; {ended}; {profiled}); all 18 rollouts.")


@case("healthy_builtin_concurrency_fits_server_queue", "healthy", [],
      "nothing is wrong: the model server runs 2 requests at once and lets 2 wait; the collection's concurrency 4 "
      "fits exactly, so requests queued briefly (slower answers) but none was refused; every rollout succeeded and "
      "was profiled")
def healthy_builtin_concurrency_fits_server_queue(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, _ = builtin_setup(ctx, "mcqa", 6, 15, 3, "--latency-ms 200 --max-running 2 --max-waiting 2")
    code = ctx.sh(shlex.join(collect_argv(run, url, "mcqa", 4)), "logs/collect.log", timeout=300)
    profiled = ctx.sh(shlex.join(profile_argv(run)), "logs/profile.log")
    failures = rows_of(run / "rollouts_failures.jsonl")
    if code or profiled or len(unique_keys(run / "rollouts.jsonl")) != 18 or failures:
        raise failed(ctx, f"collect {code}, profile {profiled}, {len(failures)} failures")
    return ("`gym-pipeline materialize` (mcqa, 6 tasks x 3); `gym-pipeline collect --concurrency 4` against the simulated "
            "policy running 2 at once with 2 waiting (200 ms): all 18 rollouts, none refused; `gym-pipeline profile` "
            "exit 0.")


@case("healthy_slurm_stage_slow_policy_complete", "healthy", [],
      "nothing is wrong: the sweep's collect stage ran as a Slurm job against a slow model server (700 ms a "
      "request); it took longer than usual but every rollout was collected, then profiled")
def healthy_slurm_stage_slow_policy_complete(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=66, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 700")
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=2, concurrency=4, request_timeout_s=30)
    ctx.sh(shlex.join(stage_argv(sweep, "materialize", checkpoint, "string_match")), "logs/materialize.log")
    launcher, label = slurm()
    ended = launched(ctx, launcher, label, "collect", stage_argv(sweep, "collect", checkpoint, "string_match",
                                                                "--model-url", url, "--model-name", "sim-policy"))
    profiled = launched(ctx, launcher, label, "profile", stage_argv(sweep, "profile", checkpoint, "string_match"))
    if len(unique_keys(run / "rollouts.jsonl")) != 12 or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"collect {ended}, profile {profiled}")
    return ("A sweep config (2 repeats, concurrency 4, request timeout 30 s); `gym-pipeline stage materialize` (6 "
            f"string_match tasks); `stage collect` and `stage profile` as Slurm jobs ({ended}; {profiled}) against the "
            "simulated policy at 700 ms; all 12 rollouts.")


@case("healthy_builtin_resume_after_complete_check_stale_fresh", "healthy", [],
      "nothing is wrong: the collection had completed; the user ran `gym-pipeline check-stale` (exit 0, fresh) and "
      "`collect --resume` again (nothing left to do) before profiling; every rollout is there once")
def healthy_builtin_resume_after_complete_check_stale_fresh(ctx: Ctx) -> str:
    run = ctx.run
    data, _, url, _ = builtin_setup(ctx, "string_match", 6, 70, 3, "--latency-ms 30", in_run=True)
    first = ctx.sh(shlex.join(collect_argv(run, url, "string_match", 4)), "logs/collect.log")
    fresh = ctx.sh(f"{GP} check-stale --inputs {run}/rollouts_materialized_inputs.jsonl --source {data} "
                   "--num-repeats 3 --agent string_match_simple_agent", "logs/check_stale.log")
    again = ctx.sh(shlex.join(collect_argv(run, url, "string_match", 4, "--resume")), "logs/collect_resume.log")
    profiled = ctx.sh(shlex.join(profile_argv(run)), "logs/profile.log")
    rows = rows_of(run / "rollouts.jsonl")
    if first or fresh or again or profiled or len(rows) != 18 or len(unique_keys(run / "rollouts.jsonl")) != 18:
        raise failed(ctx, f"collect {first}/{again}, check-stale {fresh}, profile {profiled}, {len(rows)} rows")
    return ("`gym-pipeline materialize` and `collect` (string_match, 6 tasks x 3, all 18); `gym-pipeline check-stale` exit "
            "0; `collect --resume` again (nothing to do); `gym-pipeline profile` exit 0.")


# =====================================================================================================
# built-in engine and launchers: failures
# =====================================================================================================


@case("infra_materialize_output_tmpfs_full", "infra", ["space"],
      "the materialized inputs were written to RUN/results, a 16 KB scratch tmpfs, which filled up while "
      "`gym-pipeline materialize` wrote them (No space left on device), so there were no complete inputs to collect")
def infra_materialize_output_tmpfs_full(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 40, start=0)
    (run / "results").mkdir()
    ctx.sh(f"mount -t tmpfs -o size=16k tmpfs {run}/results && df -h {run}/results", "logs/scratch.log")
    code = ctx.sh(f"{GP} materialize --input {data} --num-repeats 4 --agent string_match_simple_agent "
                  f"--output {run}/results/rollouts_materialized_inputs.jsonl", "logs/materialize.log")
    ctx.sh(f"df -h {run}/results; ls -la {run}/results", "logs/scratch_after.log")
    if code == 0 or "space" not in text_of(run / "logs" / "materialize.log").lower():
        raise failed(ctx, f"materialize exit {code}")
    return ("RUN/results a 16 KB tmpfs (logs/scratch.log); `gym-pipeline materialize` (40 string_match tasks x 4) into "
            f"it exit {code}.")


@case("infra_stage_profile_file_size_limit", "infra", ["ulimit"],
      "the sweep's profile stage ran from a shell whose file-size limit is 2 KB (ulimit -f 2, a batch profile's "
      "default), so writing the reward profile failed with 'File too large' (EFBIG); the collection is complete")
def infra_stage_profile_file_size_limit(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=76, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=3, concurrency=4)
    ctx.sh(shlex.join(stage_argv(sweep, "materialize", checkpoint, "string_match")), "logs/materialize.log")
    collected = ctx.sh(shlex.join(stage_argv(sweep, "collect", checkpoint, "string_match", "--model-url", url,
                                             "--model-name", "sim-policy")), "logs/collect.log")
    profiled = ctx.sh(f"( ulimit -f 2; ulimit -a | grep -i 'file size'; "
                      f"{shlex.join(stage_argv(sweep, 'profile', checkpoint, 'string_match'))} )", "logs/profile.log")
    log = text_of(run / "logs" / "profile.log")
    if collected or profiled == 0 or not re.search(r"File too large|File size limit|EFBIG|errno 27", log, re.I):
        raise failed(ctx, f"collect {collected}, profile {profiled}")
    return ("A sweep config (3 repeats); `gym-pipeline stage materialize` and `stage collect` (8 string_match tasks, all "
            f"24); `stage profile` in a subshell with `ulimit -f 2` exit {profiled}.")


@case("model_serving_builtin_redeployed_broken_build_5xx", "model_serving", [],
      "the model server was redeployed in the middle of the collection with a broken build that answers 500 to "
      "every chat completion, so every rollout dispatched after the redeploy failed after its attempts")
def model_serving_builtin_redeployed_broken_build_5xx(ctx: Ctx) -> str:
    from gym_pipeline.host import free_loopback_port

    run = ctx.run
    data = ctx.dataset("string_match", 6, start=78)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    port = free_loopback_port()
    url = f"http://127.0.0.1:{port}/v1"
    serve = f"{GP} serve-policy --port {port} --checkpoint {checkpoint} --latency-ms 500"
    first = ctx.bg(serve, "logs/model_server.log")
    wait_for(lambda: "SIMULATED_POLICY_READY" in text_of(run / "logs" / "model_server.log"), 30, "the policy")
    materialize(ctx, data, 4, "string_match")
    collect = ctx.bg(shlex.join(collect_argv(run, url, "string_match", 2)), "logs/collect.log")
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 5 or collect.poll() is not None, 120, "5 rollouts")
    ctx.note("(the serving team redeploys the model server: Ctrl-C, then the new build on the same port, which "
             "answers 500 to every completion)")
    ctx.stop(first, signal.SIGINT, 10)
    second = ctx.bg(f"{serve} --fault-rate 1 --fault-kinds 5xx", "logs/model_server_redeployed.log")
    wait_or_interrupt(ctx, collect, 240, "the collection")
    ctx.stop(second, signal.SIGINT, 10)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got >= 24 or not rows_of(run / "rollouts_failures.jsonl"):
        raise failed(ctx, f"{got} rollouts, exit {collect.returncode}")
    return ("`gym-pipeline materialize` (string_match, 6 tasks x 4); `gym-pipeline collect --concurrency 2` against the "
            "simulated policy (500 ms); after 5 rollouts the policy was replaced on the same port by one answering 500 "
            f"to every completion (logs/model_server_redeployed.log); exit {collect.returncode}, {got} of 24 rollouts.")


@case("model_serving_docker_collect_server_terminal_hung_up", "model_serving", [],
      "the model server was running in the foreground of an SSH terminal that was closed (SIGHUP) in the middle of "
      "the collection, so it exited and the containerised collection's remaining requests could not connect")
def model_serving_docker_collect_server_terminal_hung_up(ctx: Ctx) -> str:
    from gym_pipeline.launchers.docker import DockerLauncher

    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "mcqa", 8, 25, 3, "--latency-ms 600")
    result: dict = {}
    worker = threading.Thread(target=lambda: result.update(ended=docker_launched(
        ctx, DockerLauncher(network="host"), "DockerLauncher(network='host')", "collect",
        collect_argv(run, url, "mcqa", 2))))
    worker.start()
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 4 or not worker.is_alive(), 150, "4 rollouts")
    ctx.note("(the SSH terminal running the model server is closed: SIGHUP to its processes)")
    ctx.stop(policy, signal.SIGHUP, 10)
    worker.join(300)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got >= 24 or worker.is_alive():
        raise failed(ctx, f"{got} rollouts: {result}")
    return ("`gym-pipeline materialize` (mcqa, 8 tasks x 3); `gym-pipeline collect --concurrency 2` in a Docker container "
            "(project's DockerLauncher) against the simulated policy (600 ms) run in a terminal; after 4 rollouts the "
            f"terminal hung up (SIGHUP to the policy); {result.get('ended')}, {got} of 24 rollouts.")


@case("config_sweep_request_timeout_below_server_latency", "config", ["request_timeout_s"],
      "the sweep config sets request_timeout_s 0.5 (the user meant the connect timeout), shorter than the 1.5 s the "
      "model server needs for every answer, so every request timed out on every attempt and nothing was collected")
def config_sweep_request_timeout_below_server_latency(ctx: Ctx) -> str:
    from gym_pipeline.launchers.local import LocalLauncher

    run = ctx.run
    data = ctx.dataset("string_match", 4, start=80, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 1500")
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=2, concurrency=4, request_timeout_s=0.5)
    ctx.sh(shlex.join(stage_argv(sweep, "materialize", checkpoint, "string_match")), "logs/materialize.log")
    ended = launched(ctx, LocalLauncher(), "LocalLauncher()", "collect",
                     stage_argv(sweep, "collect", checkpoint, "string_match", "--model-url", url, "--model-name",
                                "sim-policy"))
    got = len(rows_of(run / "rollouts.jsonl"))
    if got:
        raise failed(ctx, f"{got} rollouts: {ended}")
    return ("A sweep config (RUN/sweep.json: 2 repeats, request_timeout_s 0.5); `gym-pipeline stage materialize` (4 "
            f"string_match tasks); `stage collect` through the project's LocalLauncher ({ended}) against the simulated "
            f"policy answering in 1.5 s; {len(rows_of(run / 'rollouts_failures.jsonl'))} failed attempts, no rollout.")


@case("config_sweep_engine_misspelled", "config", ["engine"],
      "the sweep config says engine: nemo-gym (a hyphen), but the engines are builtin and nemo_gym, so every stage "
      "refused the sweep config and nothing ran")
def config_sweep_engine_misspelled(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("mcqa", 4, start=29, folder=run, name="mcqa.jsonl")
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, policy = ctx.policy(checkpoint)
    sweep = write_sweep(ctx, "mcqa", data, checkpoint, num_repeats=2, concurrency=4, engine="nemo-gym")
    codes = [ctx.sh(shlex.join(stage_argv(sweep, key, checkpoint, "mcqa", *extra)), f"logs/{key}.log")
             for key, extra in (("materialize", ()), ("collect", ("--model-url", url, "--model-name", "sim-policy")))]
    if not all(codes) or rows_of(run / "rollouts.jsonl"):
        raise failed(ctx, f"exit {codes}")
    return ("A sweep config (RUN/sweep.json) with engine nemo-gym; `gym-pipeline stage materialize` and `stage collect` "
            f"(4 mcqa tasks); exit {codes}.")


@case("data_schema_builtin_expected_answer_as_list", "data_schema", ["expected_answer"],
      "the dataset's expected_answer fields are lists of accepted spellings ([\"36\", \"thirty-six\"]) from another "
      "framework's format, not the single string the string_match verifier requires, so every rollout failed "
      "verification")
def data_schema_builtin_expected_answer_as_list(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=2, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    rewrite_rows(data, lambda i, row: row.update(expected_answer=[row["expected_answer"],
                                                                  row["expected_answer"].lower()]) or True)
    ctx.note("(RUN/string_match.jsonl: every expected_answer a list of accepted spellings)")
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    materialize(ctx, data, 2, "string_match")
    code = ctx.sh(shlex.join(collect_argv(run, url, "string_match", 4)), "logs/collect.log", timeout=300)
    if any(r.get("reward") for r in rows_of(run / "rollouts.jsonl")):
        raise failed(ctx, f"some rewarded (exit {code})")
    return ("5 string_match rows whose expected_answer is a list, against a policy that knows the answers; "
            f"`gym-pipeline materialize` (2 repeats) and `gym-pipeline collect` exit {code}, {len(rows_of(run / 'rollouts.jsonl'))} rollouts, "
            f"{len(rows_of(run / 'rollouts_failures.jsonl'))} failed attempts.")


@case("data_schema_docker_mcqa_answer_letter_not_in_options", "data_schema", ["options"],
      "the mcqa export dropped the last option of every row (a spreadsheet range that stopped at column C), so the "
      "rows whose expected_answer is D name an option that is not in their options list and cannot be graded")
def data_schema_docker_mcqa_answer_letter_not_in_options(ctx: Ctx) -> str:
    from gym_pipeline.launchers.docker import DockerLauncher

    run = ctx.run
    data = ctx.dataset("mcqa", 40, start=0, folder=run, name="mcqa.jsonl")
    keep = [row for row in rows_of(data) if row["expected_answer"] == "D"][:3] + \
        [row for row in rows_of(data) if row["expected_answer"] != "D"][:5]
    data.write_text("".join(json.dumps(row) + "\n" for row in keep))
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    rewrite_rows(data, lambda i, row: row.update(options=row["options"][:3]) or True)
    ctx.note("(RUN/mcqa.jsonl: 8 rows as exported, each with only options A-C)")
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    materialize(ctx, data, 2, "mcqa")
    ended = docker_launched(ctx, DockerLauncher(network="host"), "DockerLauncher(network='host')", "collect",
                            collect_argv(run, url, "mcqa", 4))
    rows = rows_of(run / "rollouts.jsonl")
    if sum(1 for r in rows if r.get("expected_answer") == "D" and r.get("reward") == 1) or \
            not any(row["expected_answer"] == "D" for row in rows_of(data)):
        raise failed(ctx, f"D rows graded: {ended}")
    if not rows:
        raise failed(ctx, f"no rollouts: {ended}")
    return ("8 mcqa rows (3 answered D) each with only options A-C; `gym-pipeline materialize` (2 repeats) and "
            f"`gym-pipeline collect` in a Docker container (project's DockerLauncher; {ended}); {len(rows)} rollouts, "
            f"{len(rows_of(run / 'rollouts_failures.jsonl'))} failed attempts.")


@case("data_schema_stage_dataset_last_line_cut_by_copy", "data_schema", ["last line"],
      "the dataset was copied to the cluster while the export was still writing it: its last line is cut off in "
      "the middle of a JSON object, so the materialize stage could not read the file")
def data_schema_stage_dataset_last_line_cut_by_copy(ctx: Ctx) -> str:
    run = ctx.run
    source = ctx.dataset("string_match", 6, start=8, name="export.jsonl")
    checkpoint = checkpoints(ctx, "string_match", source)[1]
    data = run / "string_match.jsonl"
    text = source.read_text()
    ctx.sh(f"head -c {len(text.encode()) - 90} {source} > {data}; ls -l {data}; tail -c 120 {data}; echo",
           "logs/copy.log")
    ctx.note("(the export was still being written when the user copied it: `head -c` stands for the copy)")
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=2, concurrency=4)
    code = ctx.sh(shlex.join(stage_argv(sweep, "materialize", checkpoint, "string_match")), "logs/materialize.log")
    if code == 0:
        raise failed(ctx, "materialized")
    return ("RUN/string_match.jsonl: 6 string_match rows with the last 90 bytes cut off (logs/copy.log); a sweep config; "
            f"`gym-pipeline stage materialize` exit {code}.")


@case("infra_docker_collect_results_tmpfs_full", "infra", ["space"],
      "the containerised collection wrote its rollouts to RUN/results, a 12 KB scratch tmpfs on the host (bind-"
      "mounted into the container with the run folder), which filled up (No space left on device) part way")
def infra_docker_collect_results_tmpfs_full(ctx: Ctx) -> str:
    from gym_pipeline.launchers.docker import DockerLauncher

    run = ctx.run
    _, _, url, _ = builtin_setup(ctx, "string_match", 10, 30, 4, "--latency-ms 20")
    (run / "results").mkdir()
    ctx.sh(f"mount -t tmpfs -o size=12k tmpfs {run}/results && df -h {run}/results", "logs/scratch.log")
    argv = collect_argv(run, url, "string_match", 4)
    argv[argv.index("--output") + 1] = f"{run}/results/rollouts.jsonl"
    ended = docker_launched(ctx, DockerLauncher(network="host"), "DockerLauncher(network='host')", "collect", argv)
    ctx.sh(f"df -h {run}/results", "logs/scratch_after.log")
    if "space" not in everything(ctx).lower():
        raise failed(ctx, f"no ENOSPC: {ended}")
    return ("`gym-pipeline materialize` (string_match, 10 tasks x 4); RUN/results a 12 KB tmpfs (logs/scratch.log); "
            "`gym-pipeline collect --output RUN/results/rollouts.jsonl` in a Docker container (project's DockerLauncher, "
            f"run folder bind-mounted): {ended}.")


@case("model_serving_slurm_collect_every_connection_dropped", "model_serving", [],
      "the model server drops every chat-completion connection without answering (a crashing worker behind its "
      "port while /v1/models answers), so the collection, run as a Slurm job, failed every rollout after its attempts")
def model_serving_slurm_collect_every_connection_dropped(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, _ = builtin_setup(ctx, "mcqa", 4, 33, 2, "--fault-rate 1 --fault-kinds drop")
    ctx.sh(f"curl -s -m 5 {url}/models; echo", "logs/curl_models.log")
    launcher, label = slurm()
    ended = launched(ctx, launcher, label, "collect", collect_argv(run, url, "mcqa", 4))
    got = len(rows_of(run / "rollouts.jsonl"))
    if got or not rows_of(run / "rollouts_failures.jsonl"):
        raise failed(ctx, f"{got} rollouts: {ended}")
    return ("`gym-pipeline materialize` (mcqa, 4 tasks x 2); `gym-pipeline collect` as a Slurm job (project's "
            f"SlurmLauncher; {ended}) against the simulated policy dropping every chat completion (/v1/models answers, "
            f"logs/curl_models.log); {len(rows_of(run / 'rollouts_failures.jsonl'))} failed attempts, no rollout.")


IS_COLLECTOR = """
from gym_pipeline.environments.string_match import extract_answer


class TidyMatch(StringMatchEnvironment):
    def verify(self, row, response_text):
        verdict = super().verify(row, response_text)
        extracted = extract_answer(response_text, row.get("extraction_mode", "final_answer"))
        # compare the tidied answers
        correct = extracted is not None and extracted.strip().lower() is row["expected_answer"].strip().lower()
        verdict["reward"] = 1.0 if correct else 0.0
        return verdict
"""


@case("verifier_runtime_docker_verifier_compares_with_is", "verifier_runtime", ["=="],
      "the user's grader compares the tidied answers with `is` (object identity) instead of `==`, which is False "
      "for two equal strings built separately, so every correct answer scored 0 in a run that otherwise completed")
def verifier_runtime_docker_verifier_compares_with_is(ctx: Ctx) -> str:
    from gym_pipeline.launchers.docker import DockerLauncher

    run = ctx.run
    _, _, url, _ = builtin_setup(ctx, "string_match", 8, 16, 2, "--latency-ms 30")
    script = own_collector(ctx, "collect_tidy.py", IS_COLLECTOR, "TidyMatch()")
    launcher = DockerLauncher(network="host")
    ended = docker_launched(ctx, launcher, "DockerLauncher(network='host')", "collect", collector_argv(ctx, script, url))
    profiled = docker_launched(ctx, launcher, "DockerLauncher(network='host')", "profile", profile_argv(run))
    rows = rows_of(run / "rollouts.jsonl")
    wrong = [r for r in rows if r.get("reward") == 0 and r.get("extracted_answer")
             and str(r["extracted_answer"]).strip().lower() == str(r.get("expected_answer")).strip().lower()]
    if len(rows) != 16 or not wrong:
        raise failed(ctx, f"{len(rows)} rows, {len(wrong)} correct scored 0: {ended}")
    return ("A user's script (RUN/collect_tidy.py: built-in collector, grader comparing with `is`) and `gym-pipeline "
            f"profile`, each in a Docker container (project's DockerLauncher; {ended}; {profiled}); 8 string_match "
            f"tasks x 2: {len(wrong)} correct answers scored 0.")


EXIT_COLLECTOR = """
class StrictNumeric(StringMatchEnvironment):
    def verify(self, row, response_text):
        verdict = super().verify(row, response_text)
        if verdict.get("extracted_answer") is None:
            print(f"error: no answer found in response: {response_text[:60]!r}", file=sys.stderr)
            sys.exit(1)  # ported from our grading CLI
        return verdict
"""


@case("verifier_runtime_slurm_verifier_calls_sys_exit", "verifier_runtime", ["sys.exit"],
      "the user's verifier, ported from a grading command-line tool, calls sys.exit(1) when it finds no answer in a "
      "response; SystemExit escapes the collector and ends the whole collection (a Slurm job) at the first such "
      "response")
def verifier_runtime_slurm_verifier_calls_sys_exit(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, _ = builtin_setup(ctx, "string_match", 8, 20, 3, "--latency-ms 30", weaker=True)
    script = own_collector(ctx, "collect_strict.py", EXIT_COLLECTOR, "StrictNumeric()")
    launcher, label = slurm()
    ended = launched(ctx, launcher, label, "collect", collector_argv(ctx, script, url))
    got = len(rows_of(run / "rollouts.jsonl"))
    if got >= 24 or "no answer found" not in everything(ctx):
        raise failed(ctx, f"{got} rollouts: {ended}")
    return ("A user's script (RUN/collect_strict.py: built-in collector, verifier calling sys.exit(1) on a response "
            "without an answer) run as a Slurm job through the project's SlurmLauncher against the weaker checkpoint "
            f"({ended}); {got} of 24 rollouts.")


@case("cache_resume_builtin_resumed_against_newer_checkpoint", "cache_resume", ["--resume"],
      "a collection against checkpoint step_0100 was interrupted; the user restarted the model server on "
      "step_0200 and continued with `collect --resume` into the same output, so the run mixes rollouts of two "
      "checkpoints and is reported as step_0200's")
def cache_resume_builtin_resumed_against_newer_checkpoint(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=20, folder=run, name="string_match.jsonl")
    weak, strong = checkpoints(ctx, "string_match", data)
    url, first = ctx.policy(weak, "--latency-ms 600", log="logs/model_server_step_0100.log")
    materialize(ctx, data, 4, "string_match")
    collect = ctx.bg(shlex.join(collect_argv(run, url, "string_match", 2)), "logs/collect.log")
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 8 or collect.poll() is not None, 120, "8 rollouts")
    ctx.note("(Ctrl-C on the collection; the model server is restarted on step_0200, the checkpoint to report)")
    ctx.stop(collect, signal.SIGINT, 20)
    before = len(rows_of(run / "rollouts.jsonl"))
    ctx.stop(first, signal.SIGINT, 10)
    url2, second = ctx.policy(strong, "--latency-ms 30", log="logs/model_server_step_0200.log")
    code = ctx.sh(shlex.join(collect_argv(run, url2, "string_match", 4, "--resume")), "logs/collect_resume.log")
    profiled = ctx.sh(shlex.join(profile_argv(run)), "logs/profile.log")
    if code or before >= 24 or len(unique_keys(run / "rollouts.jsonl")) != 24:
        raise failed(ctx, f"resume {code}, {before} before")
    return ("`gym-pipeline materialize` (string_match, 6 tasks x 4); `gym-pipeline collect` against step_0100 stopped "
            f"with Ctrl-C after {before} rollouts; the policy restarted on step_0200; `collect --resume` (exit {code}) "
            f"completed the 24; `gym-pipeline profile` exit {profiled}.")


@case("cache_resume_stage_labels_corrected_inputs_not_rebuilt", "cache_resume", ["materialize"],
      "after the materialize stage had run, two wrong labels were corrected in the dataset, but only the collect "
      "and profile stages were re-run: the collection used the old materialized inputs with the old labels")
def cache_resume_stage_labels_corrected_inputs_not_rebuilt(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=24, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    original = rows_of(data)
    bad = [dict(row) for row in original]
    bad[1]["expected_answer"], bad[3]["expected_answer"] = "label-missing", "label-missing"
    data.write_text("".join(json.dumps(row) + "\n" for row in bad))
    ctx.note("(RUN/string_match.jsonl as first exported: rows 2 and 4 with a placeholder label)")
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=2, concurrency=4)
    ctx.sh(shlex.join(stage_argv(sweep, "materialize", checkpoint, "string_match")), "logs/materialize.log")
    time.sleep(1.1)
    data.write_text("".join(json.dumps(row) + "\n" for row in original))
    ctx.note("(the two labels corrected in RUN/string_match.jsonl; only collect and profile re-run)")
    collected = ctx.sh(shlex.join(stage_argv(sweep, "collect", checkpoint, "string_match", "--model-url", url,
                                             "--model-name", "sim-policy")), "logs/collect.log")
    profiled = ctx.sh(shlex.join(stage_argv(sweep, "profile", checkpoint, "string_match")), "logs/profile.log")
    answers = {row.get("expected_answer") for row in rows_of(run / "rollouts.jsonl")}
    if "label-missing" not in answers and collected == 0:
        raise failed(ctx, f"collect {collected}, answers {answers}")
    return ("A sweep config (2 repeats); `gym-pipeline stage materialize` on 6 string_match rows (2 placeholder labels); "
            f"the labels corrected; `stage collect` (exit {collected}) and `stage profile` (exit {profiled}) without "
            "materializing again.")


@case("cache_resume_docker_collect_killed_profiled_partial", "cache_resume", ["--resume"],
      "the containerised collection was killed (docker kill, by a node cleanup script) half way; instead of "
      "resuming it, the user profiled the partial rollouts with --allow-partial and reported those numbers")
def cache_resume_docker_collect_killed_profiled_partial(ctx: Ctx) -> str:
    from gym_pipeline.launchers.docker import DockerLauncher

    run = ctx.run
    _, _, url, _ = builtin_setup(ctx, "mcqa", 8, 41, 4, "--latency-ms 500")
    result: dict = {}
    worker = threading.Thread(target=lambda: result.update(ended=docker_launched(
        ctx, DockerLauncher(network="host"), "DockerLauncher(network='host')", "collect",
        collect_argv(run, url, "mcqa", 2))))
    worker.start()
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 8 or not worker.is_alive(), 150, "8 rollouts")
    ctx.note("(a node cleanup script kills the collection's container)")
    ctx.sh("docker ps --filter name=gym-pipeline-collect -q | xargs -r docker kill", "logs/cleanup.log")
    worker.join(120)
    profiled = ctx.sh(shlex.join(profile_argv(run, "--allow-partial")), "logs/profile.log")
    got = len(unique_keys(run / "rollouts.jsonl"))
    if got >= 32 or worker.is_alive():
        raise failed(ctx, f"{got} rollouts: {result}")
    return ("`gym-pipeline materialize` (mcqa, 8 tasks x 4); `gym-pipeline collect` in a Docker container (project's "
            f"DockerLauncher) killed with `docker kill` after {got} rollouts ({result.get('ended')}); `gym-pipeline "
            f"profile --allow-partial` exit {profiled}.")


TABLE_COLLECTOR = """
import os

# the alias table of every answer we accept (built once per process: about 300 MB of strings)
ALIASES = {f"alias-{i:09d}": f"canonical-{i % 1000}" for i in range(int(os.environ.get("ALIAS_ROWS", "3000000")))}


class AliasMatch(StringMatchEnvironment):
    def verify(self, row, response_text):
        verdict = super().verify(row, response_text)
        verdict["alias_hit"] = response_text.strip() in ALIASES
        return verdict
"""


@case("throughput_docker_collect_memory_below_alias_table", "throughput_resources", ["memory"],
      "the collect stage's container is limited to 256 MiB (DockerLauncher memory_mb=256, no swap) while the user's "
      "verifier builds an alias table of about 300 MB at start, so the container was OOM-killed (exit 137) before "
      "collecting anything")
def throughput_docker_collect_memory_below_alias_table(ctx: Ctx) -> str:
    from gym_pipeline.launchers.docker import DockerLauncher

    run = ctx.run
    _, _, url, _ = builtin_setup(ctx, "string_match", 6, 40, 2, "--latency-ms 20")
    script = own_collector(ctx, "collect_aliases.py", TABLE_COLLECTOR, "AliasMatch()")
    ended = docker_launched(ctx, DockerLauncher(network="host", memory_mb=256),
                            "DockerLauncher(network='host', memory_mb=256)", "collect", collector_argv(ctx, script, url))
    got = len(rows_of(run / "rollouts.jsonl"))
    if got >= 12 or "137" not in ended + everything(ctx):
        raise failed(ctx, f"{got} rollouts: {ended}")
    return ("`gym-pipeline materialize` (string_match, 6 tasks x 2); a user's script (RUN/collect_aliases.py: built-in "
            "collector whose verifier builds a ~300 MB alias table) in a Docker container limited to 256 MiB (project's "
            f"DockerLauncher): {ended}, {got} rollouts.")


CPU_COLLECTOR = """
import time


class CheckedMatch(StringMatchEnvironment):
    def verify(self, row, response_text):
        verdict = super().verify(row, response_text)
        # consistency check of the answer (pure Python, about 1.5 s of CPU per rollout)
        deadline = time.process_time() + 1.5
        while time.process_time() < deadline:
            sum(i * i for i in range(1000))
        return verdict
"""


@case("throughput_builtin_verifier_cpu_bound_serializes", "throughput_resources", ["verifier"],
      "the user's verifier spends about 1.5 s of CPU per rollout inside the collector's event loop, so rollouts are "
      "verified one after another whatever the concurrency (16) and the collection missed the CI step's 35 s budget")
def throughput_builtin_verifier_cpu_bound_serializes(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, _ = builtin_setup(ctx, "mcqa", 10, 53, 4, "--latency-ms 30")
    script = own_collector(ctx, "collect_checked.py", CPU_COLLECTOR, "CheckedMatch()", concurrency=16)
    ctx.note("(the CI step that runs the collection has a 35 s budget: `timeout -k 5 35`)")
    code = ctx.sh(f"timeout -k 5 35 {shlex.join(collector_argv(ctx, script, url))}; echo \"exit status $?\"",
                  "logs/collect.log", timeout=120)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got >= 40:
        raise failed(ctx, f"finished (exit {code})")
    return ("`gym-pipeline materialize` (mcqa, 10 tasks x 4); a user's script (RUN/collect_checked.py: built-in collector "
            "at concurrency 16, verifier burning 1.5 s of CPU) against a fast policy under `timeout -k 5 35`: "
            f"{got} of 40 rollouts.")


if __name__ == "__main__":
    sys.exit(main("sixth_held_out", __file__, __doc__))
