"""Build the NINTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/ninth_held_out.py --out tests/data/diagnosis_corpus/ninth_held_out [--only CASE ...]

Measured once on 2026-12-02 (top-1 72 %, see benchmarks/README.md), then tuned on: these cases now count as
tuning cases. The next held-out set is tenth_held_out.py.

This is the ninth held-out set, written from the guides alone (the NeMo Gym debugging guide,
the reward profiling guide, the task-folder troubleshooting guide, docs/nemo_gym.md and docs/real_components.md),
without reading the diagnosis rules, their tests or their results. It was measured once, by someone else,
to see how well `gym-pipeline diagnose` names root causes on failures its rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated
policy (`gym-pipeline serve-policy` with injected faults, a slow start, another listen address, killed or
restarted in a loop), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`), workspace
verifiers (`verifier: "MODULE:FUNCTION"`), task folders in Harbor's format (the bundled taskset, run in Docker
sandboxes), the real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` / `gym eval profile` inside a loopback-only
network namespace, with users' own resources servers), the Docker and Slurm launchers, real resource limits
(`ulimit`, a cgroup pids limit, tmpfs mounts, a bind-mounted /etc/hosts) and real bad config and data
files. The output of every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run
folder is written by hand but the user's own inputs. Each case injects one cause, different from those of the
earlier sets or reached by another path.

Labels (`case.json`) come from what was injected, following the NeMo Gym debugging guide's classes: the class of
the root cause (what the user must change), not of its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; the helpers shared with the eighth set are imported from eighth_held_out.py, and
only this set's own are defined here. Needs root (unshare, mount, cgroups, ulimit), the Docker engine and the
one-node Slurm of scripts/dev-services.sh, NeMo Gym 0.7.0, and PYTHONPATH set to this checkout. Run it from a
foreground shell (SIGINT and SIGHUP at their defaults).
"""

from __future__ import annotations

import json
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import (  # noqa: E402
    agent_args,
    builtin_setup,
    checkpoints,
    collect_sh,
    docker_launched,
    failed,
    gym_profile,
    gym_setup,
    gym_start,
    gym_start_failing,
    gym_start_maybe,
    profile_sh,
    slurm,
    stage,
    stage_argv,
    stop_gym,
    task_checkpoints,
    user_taskset,
    wait_env_start,
    wait_or_interrupt,
    workspace_sweep,
    write_sweep,
)
from recipes import (  # noqa: E402
    GP,
    GYM,
    Ctx,
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

# Importing the eighth set registered its recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def taskset_sweep(ctx: Ctx, tasks: Path, checkpoint: Path, **settings) -> Path:
    """RUN/sweep.yaml whose environment terminal_tasks runs the taskset `tasks` (Docker sandboxes)."""
    sweep = workspace_sweep(ctx, "terminal_tasks", tasks, checkpoint, **settings)
    sweep.write_text(sweep.read_text().replace('"dataset"', '"tasks"'))
    return sweep


def taskset_stages(ctx: Ctx, sweep: Path, checkpoint: Path, url: str, *keys: str) -> list[int]:
    """`gym-pipeline stage KEY` of environment terminal_tasks for each of `keys`, in order."""
    argv = {"collect": ("--model-url", url, "--model-name", "sim-policy")}
    return [stage(ctx, sweep, key, checkpoint, "terminal_tasks", *argv.get(key, ())) for key in keys]


def verifier_sweep(
    ctx: Ctx,
    source: str,
    start: int,
    n: int = 6,
    repeats: int = 2,
    concurrency: int = 3,
    flags: str = "--latency-ms 30",
    **settings,
) -> tuple[Path, Path, str]:
    """A dataset, a simulated policy knowing it and RUN/sweep.yaml whose environment exact_answer is scored by the
    user's RUN/verifiers/my_verifier.py (`source`): (sweep, checkpoint, url)."""
    data = ctx.dataset("string_match", n, start=start, folder=ctx.run, name="exact_answer.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint, flags)
    sweep = workspace_sweep(
        ctx,
        "exact_answer",
        data,
        checkpoint,
        {"verifier": "my_verifier:score"},
        source,
        num_repeats=repeats,
        concurrency=concurrency,
        **settings,
    )
    return sweep, checkpoint, url


def cgroup(controller: str, name: str, **limits: int) -> Path:
    """A fresh cgroup (v1) `controller/name` with `limits` (file name: value) written into it."""
    folder = Path("/sys/fs/cgroup") / controller / name
    if folder.exists():
        folder.rmdir()
    folder.mkdir()
    for key, value in limits.items():
        (folder / key.replace("__", ".")).write_text(f"{value}\n")
    return folder


def drop_cgroup(folder: Path) -> None:
    for _ in range(50):
        try:
            folder.rmdir()
            return
        except OSError:
            time.sleep(0.2)


def own_gym_server(ctx: Ctx, name: str, verify: str, imports: str = "") -> Path:
    """A user's resources server `name`: Gym's string_match with `verify` as its verify (and `imports` added)."""
    search = user_resources_server(
        ctx,
        name,
        "string_match",
        lambda app: replace_verify(app.replace("import re\n", f"{imports}import re\n", 1), verify),
    )
    ctx.note(
        f"(copied Gym's resources_servers/string_match to WORK/my_gym/resources_servers/{name}; its verify "
        "is the user's own)"
    )
    return search


# =====================================================================================================
# the real NeMo Gym 0.7.0: healthy
# =====================================================================================================


@case(
    "healthy_gym_verbose_debug_logs",
    "healthy",
    [],
    "nothing is wrong: the user ran `gym env start -v` and `gym eval run -v` (DEBUG logging) out of habit; the "
    "logs are long and chatty, but every rollout was collected and profiled",
    netns=True,
)
def healthy_gym_verbose_debug_logs(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 3, 3, "--latency-ms 30")
    env_start = gym_start(ctx, f"-v {gym_model_args(url)} {overrides}")
    evaluated = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 2, 3, extra="-v"))
    profiled = gym_profile(ctx, run)
    stop_gym(ctx, env_start, policy)
    if evaluated or profiled or len(unique_keys(run / "rollouts.jsonl")) != 6:
        raise failed(ctx, f"eval {evaluated}, profile {profiled}")
    return (
        "Real NeMo Gym 0.7.0 (loopback-only namespace): `gym env start -v`, `gym eval run --no-serve -v` (3 "
        "string_match tasks x 2, all 6) and `gym eval profile` exit 0."
    )


@case(
    "healthy_gym_shard_without_aggregation",
    "healthy",
    [],
    "nothing is wrong: this shard was collected with --disable-aggregation and --no-health-check, as the team's "
    "sharded jobs are (aggregate metrics are made later over all shards), so it has no aggregate metrics or "
    "quality summary; every rollout was collected and profiled",
    netns=True,
)
def healthy_gym_shard_without_aggregation(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 9, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval(
        ctx,
        overrides,
        agent_args(data, run / "shard_03" / "rollouts.jsonl", 2, 4, extra="--disable-aggregation --no-health-check"),
    )
    profiled = gym_profile(ctx, run / "shard_03")
    stop_gym(ctx, env_start, policy)
    if evaluated or profiled or len(unique_keys(run / "shard_03" / "rollouts.jsonl")) != 10:
        raise failed(ctx, f"eval {evaluated}, profile {profiled}")
    return (
        "Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve --disable-aggregation "
        "--no-health-check --output RUN/shard_03/rollouts.jsonl` (5 tasks x 2, all 10) and `gym eval profile` "
        "exit 0."
    )


@case(
    "healthy_gym_small_dev_shm_ray_warning",
    "healthy",
    [],
    "nothing is wrong: the node's /dev/shm is only 2 MB (a container default), so Ray warned that its object store "
    "falls back to /tmp; Gym does not need it, and every rollout was collected and profiled",
    netns=True,
)
def healthy_gym_small_dev_shm_ray_warning(ctx: Ctx) -> str:
    run = ctx.run
    ctx.sh("mount -t tmpfs -o size=2m tmpfs /dev/shm && df -h /dev/shm", "dev_shm.log")
    data, url, policy, overrides = gym_setup(ctx, "mcqa", 4, 12, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url, resources_server='mcqa')} {overrides}")
    evaluated = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 3, 4, "mcqa_simple_agent"))
    profiled = gym_profile(ctx, run)
    stop_gym(ctx, env_start, policy)
    if evaluated or profiled or len(unique_keys(run / "rollouts.jsonl")) != 12:
        raise failed(ctx, f"eval {evaluated}, profile {profiled}")
    return (
        "A 2 MB tmpfs on /dev/shm (RUN/dev_shm.log); real NeMo Gym 0.7.0 (loopback-only namespace) on mcqa: "
        "`gym eval run --no-serve` (4 tasks x 3, all 12) and `gym eval profile` exit 0."
    )


# =====================================================================================================
# the real NeMo Gym 0.7.0: failures
# =====================================================================================================


def gym_start_and_eval(
    ctx: Ctx,
    model_url: str,
    overrides: str,
    data: Path,
    ready_s: float,
    *servers: subprocess.Popen,
    eval_s: float | None = None,
) -> tuple[subprocess.Popen, bool, int | None]:
    """`gym env start`, then, once ready, `gym eval run` of `data` (2 repeats, concurrency 4), waited for or (with
    `eval_s`) interrupted after that long; then Gym and `servers` are stopped. (env start, ready, eval exit or None)."""
    env_start, ready = gym_start_maybe(ctx, f"{gym_model_args(model_url)} {overrides}", ready_s)
    evaluated = None
    if ready:
        args = agent_args(data, ctx.run / "rollouts.jsonl", 2, 4)
        if eval_s is None:
            evaluated = gym_eval(ctx, overrides, args)
        else:
            eval_run = gym_eval(ctx, overrides, args, background=True)
            wait_or_interrupt(ctx, eval_run, eval_s, "`gym eval run`")
            evaluated = eval_run.returncode
    elif env_start.poll() is None:
        ctx.note(f"{ready_s:.0f} s without `gym env start` getting ready: Ctrl-C on it")
    stop_gym(ctx, env_start, *servers)
    return env_start, ready, evaluated


def gym_start_with_ray_tmpdir(ctx: Ctx, ray_tmpdir: Path, url: str, overrides: str) -> tuple[bool, int | None]:
    """`gym env start` from a shell exporting RAY_TMPDIR=`ray_tmpdir`; (ready, eval run's exit code or None)."""
    ctx.env["RAY_TMPDIR"] = str(ray_tmpdir)
    ctx.note(f"export RAY_TMPDIR={ctx._shown(str(ray_tmpdir))}   # from the site profile")
    _, ready, evaluated = gym_start_and_eval(ctx, url, overrides, ctx.run / "tasks.jsonl", 150)
    return ready, evaluated


@case(
    "infra_gym_ray_tmpdir_on_full_scratch",
    "infra",
    ["space"],
    "the shell exports RAY_TMPDIR on a 256 KB scratch file system already full of another job's files, so Ray "
    "could not write its session folder and `gym env start` never got its servers up",
    netns=True,
)
def infra_gym_ray_tmpdir_on_full_scratch(ctx: Ctx) -> str:
    import tempfile

    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 19)
    scratch = Path(tempfile.mkdtemp(prefix="scr", dir="/tmp"))  # a short path: Ray's socket paths must fit
    ctx.sh(
        f"mount -t tmpfs -o size=256k tmpfs {scratch} && mkdir {scratch}/ray && "
        f"dd if=/dev/zero of={scratch}/other_job.tar bs=4k count=64; df -h {scratch}",
        "scratch.log",
    )
    try:
        ready, evaluated = gym_start_with_ray_tmpdir(ctx, scratch / "ray", url, overrides)
    finally:
        stop_gym(ctx, policy)
        subprocess.run(["umount", str(scratch)], capture_output=True, check=False)
        scratch.rmdir()
    if ready and evaluated == 0:
        raise failed(ctx, "gym worked")
    return (
        "RAY_TMPDIR on a full 256 KB tmpfs (RUN/scratch.log); real NeMo Gym 0.7.0 (loopback-only namespace) `gym "
        f"env start` ready: {ready}; eval {evaluated}."
    )


@case(
    "infra_gym_ray_tmpdir_path_too_long",
    "infra",
    ["ray_tmpdir"],
    "the shell exports RAY_TMPDIR as a deep folder of the project tree, so the paths of Ray's session sockets under "
    "it exceed the 107-byte limit of a Unix socket path and Ray could not start: `gym env start` failed",
    netns=True,
)
def infra_gym_ray_tmpdir_path_too_long(ctx: Ctx) -> str:
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 21)
    deep = ctx.work / "projects" / "nemo-gym-evaluations" / "nightly-2026-12" / "checkpoint-step-0200" / "ray_tmp"
    deep.mkdir(parents=True)
    ready, evaluated = gym_start_with_ray_tmpdir(ctx, deep, url, overrides)
    stop_gym(ctx, policy)
    if ready and evaluated == 0:
        raise failed(ctx, "gym worked")
    return (
        f"RAY_TMPDIR={ctx._shown(str(deep))} ({len(str(deep))} characters); real NeMo Gym 0.7.0 (loopback-only "
        f"namespace) `gym env start` ready: {ready}; eval {evaluated}."
    )


@case(
    "infra_gym_loopback_interface_down",
    "infra",
    ["loopback"],
    "the job's network namespace has its loopback interface down (the container runtime's network setup failed "
    "half way), so nothing can reach 127.0.0.1: Gym's head server, Ray and the model server were unreachable",
    netns=True,
)
def infra_gym_loopback_interface_down(ctx: Ctx) -> str:
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 22)
    ctx.sh("ip link set lo down; ip -brief link show lo; ip -brief addr", "network.log")
    env_start, ready, evaluated = gym_start_and_eval(ctx, url, overrides, data, 120, policy)
    code = env_start.returncode
    if ready and evaluated == 0:
        raise failed(ctx, "gym worked")
    return (
        "The loopback interface taken down in the job's network namespace (RUN/network.log); real NeMo Gym 0.7.0 "
        f"`gym env start` ready: {ready}, exit {code}; eval {evaluated}."
    )


@case(
    "model_serving_gym_env_start_while_model_loading",
    "model_serving",
    [],
    "`gym env start` and `gym eval run` were run right after launching the model server, which takes 10 minutes "
    "to load its checkpoint and answers 503 (model_not_ready) meanwhile, so every rollout failed",
    netns=True,
)
def model_serving_gym_env_start_while_model_loading(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 24, "--slow-start-s 600")
    _, ready, evaluated = gym_start_and_eval(ctx, url, overrides, data, 150, policy, eval_s=120)
    if evaluated == 0 and len(rows_of(run / "rollouts.jsonl")) == 8:
        raise failed(ctx, "collected")
    return (
        "Simulated policy with a 600 s slow start (503 meanwhile); real NeMo Gym 0.7.0 (loopback-only namespace) "
        f"`gym env start` at once: ready {ready}; `gym eval run` exit {evaluated}."
    )


@case(
    "model_serving_gym_server_listens_on_other_address",
    "model_serving",
    [],
    "the model server was started with --host 127.0.0.2 (the launch script's address variable), so nothing "
    "listens on 127.0.0.1 at its port, where `gym env start --model-url` points: every connection was refused",
    netns=True,
)
def model_serving_gym_server_listens_on_other_address(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 28, "--host 127.0.0.2")
    given = url.replace("127.0.0.2", "127.0.0.1")
    ctx.note(f"(the policy listens at {url}; the Gym command names {given})")
    _, ready, evaluated = gym_start_and_eval(ctx, given, overrides, data, 120, policy, eval_s=120)
    if evaluated == 0 and len(rows_of(run / "rollouts.jsonl")) == 8:
        raise failed(ctx, "collected")
    return (
        "Simulated policy on 127.0.0.2; real NeMo Gym 0.7.0 (loopback-only namespace) `gym env start --model-url "
        f"http://127.0.0.1:PORT/v1`: ready {ready}; `gym eval run` exit {evaluated}."
    )


@case(
    "config_gym_resources_server_name_with_hyphen",
    "config",
    ["string_match"],
    "`gym env start --resources-server string-match` (a hyphen) names no resources server config (the server is "
    "string_match), so Gym could not start its servers",
    netns=True,
)
def config_gym_resources_server_name_with_hyphen(ctx: Ctx) -> str:
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 36)
    ready, code = gym_start_failing(ctx, f"{gym_model_args(url, resources_server='string-match')} {overrides}", 90)
    stop_gym(ctx, policy)
    if ready:
        raise failed(ctx, "gym env start got ready")
    return (
        f"Real NeMo Gym 0.7.0 (loopback-only namespace): `gym env start --resources-server string-match` exit {code}."
    )


@case(
    "data_schema_gym_blank_lines_between_rows",
    "data_schema",
    ["blank"],
    "the dataset was written with print(json.dumps(row), '\\n'), so an empty line follows every row; an empty "
    "line is not a JSON object and Gym could not read the file",
    netns=True,
)
def data_schema_gym_blank_lines_between_rows(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 44)
    data.write_text("".join(f"{line} \n\n" for line in data.read_text().splitlines()))
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 2, 4))
    stop_gym(ctx, env_start, policy)
    if evaluated == 0 and len(rows_of(run / "rollouts.jsonl")) == 10:
        raise failed(ctx, "Gym read the file")
    return (
        "RUN/tasks.jsonl with an empty line after every row; real NeMo Gym 0.7.0 (loopback-only namespace) `gym "
        f"eval run --no-serve` exit {evaluated}."
    )


@case(
    "data_schema_gym_nan_literal_in_rows",
    "data_schema",
    ["nan"],
    "the export wrote the difficulty of unrated rows as a bare NaN (Python's json.dumps of float('nan')), which is "
    "not valid JSON, so Gym could not read those rows",
    netns=True,
)
def data_schema_gym_nan_literal_in_rows(ctx: Ctx) -> str:
    run = ctx.run

    def unrated(index, row):
        if index in (1, 3):
            row["difficulty"] = float("nan")
            return True
        return False

    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 48, edit=unrated)
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 2, 4))
    profiled = gym_profile(ctx, run, extra="++allow_partial_rollouts=True") if evaluated == 0 else None
    stop_gym(ctx, env_start, policy)
    if evaluated == 0 and profiled == 0 and len(rows_of(run / "rollouts.jsonl")) == 10:
        raise failed(ctx, "Gym read the rows")
    return (
        'RUN/tasks.jsonl (5 rows, 2 with "difficulty": NaN); real NeMo Gym 0.7.0 (loopback-only namespace) `gym '
        f"eval run --no-serve` exit {evaluated}; profile {profiled}."
    )


ENV_VAR_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        # strict (case-sensitive) grading on the cluster, set by our launch wrapper
        strict = os.environ["GRADER_STRICT"] == "1"
        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive or strict)
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""


@case(
    "verifier_runtime_gym_verify_reads_unset_environment_variable",
    "verifier_runtime",
    ["grader_strict"],
    'the user\'s strict_env_match resources server reads os.environ["GRADER_STRICT"] in verify, a variable only '
    "their old launch wrapper set; it is not set for Gym's server process, so every verify raised KeyError",
    netns=True,
)
def verifier_runtime_gym_verify_reads_unset_environment_variable(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 52, "--latency-ms 30")
    search = own_gym_server(ctx, "strict_env_match", ENV_VAR_VERIFY, imports="import os\n")
    env_start = gym_start(
        ctx, f"--search-dir {search} {gym_model_args(url, resources_server='strict_env_match')} {overrides}"
    )
    eval_run = gym_eval(
        ctx, overrides, agent_args(data, run / "rollouts.jsonl", 2, 4, "strict_env_match_simple_agent"), background=True
    )
    wait_or_interrupt(ctx, eval_run, 150, "`gym eval run`")
    stop_gym(ctx, env_start, policy)
    got = len(rows_of(run / "rollouts.jsonl"))
    if eval_run.returncode == 0 and got == 10:
        raise failed(ctx, "verify worked")
    return (
        "A user's resources server strict_env_match (verify reads os.environ['GRADER_STRICT']); real NeMo Gym "
        f"0.7.0 (loopback-only namespace) `gym eval run --no-serve` (5 tasks x 2) exit {eval_run.returncode}, "
        f"{got} of 10 rollouts."
    )


BACKTRACKING_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        # only grade well-formed responses: words and spaces, then the answer block
        well_formed = re.match(r"^(\\w+\\s?)*$", text.split("\\n")[0]) is not None
        extracted = _extract_answer(text, body.extraction_mode)
        reward = 0.0
        if well_formed and extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""


@case(
    "verifier_runtime_gym_verify_regex_catastrophic_backtracking",
    "verifier_runtime",
    [],
    "the user's wellformed_match resources server checks each response's first line against the regex "
    "^(\\w+\\s?)*$, which backtracks exponentially on a line ending in punctuation, so verify never returned and the "
    "collection stalled",
    netns=True,
)
def verifier_runtime_gym_verify_regex_catastrophic_backtracking(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 56, "--latency-ms 30")
    search = own_gym_server(ctx, "wellformed_match", BACKTRACKING_VERIFY)
    env_start = gym_start(
        ctx, f"--search-dir {search} {gym_model_args(url, resources_server='wellformed_match')} {overrides}"
    )
    eval_run = gym_eval(
        ctx, overrides, agent_args(data, run / "rollouts.jsonl", 2, 4, "wellformed_match_simple_agent"), background=True
    )
    wait_or_interrupt(ctx, eval_run, 120, "`gym eval run`")
    stop_gym(ctx, env_start, policy)
    got = len(rows_of(run / "rollouts.jsonl"))
    if eval_run.returncode == 0 and got == 8:
        raise failed(ctx, "verify returned")
    return (
        "A user's resources server wellformed_match (a backtracking regex in verify); real NeMo Gym 0.7.0 "
        f"(loopback-only namespace) `gym eval run --no-serve` (4 tasks x 2), Ctrl-C after 120 s: exit "
        f"{eval_run.returncode}, {got} of 8 rollouts."
    )


@case(
    "throughput_gym_env_start_pids_limit",
    "throughput_resources",
    ["pids"],
    "the job's cgroup caps it at 48 tasks (pids.max 48, a container runtime's default), fewer processes and "
    "threads than Ray and Gym's servers need, so they could not start threads or processes (Resource temporarily "
    "unavailable)",
    netns=True,
)
def throughput_gym_env_start_pids_limit(ctx: Ctx) -> str:
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 68)
    group = cgroup("pids", f"gp-job-{ctx.run.parent.name[-20:]}", pids__max=48)
    ctx.note(f"(the job runs in cgroup {group} with pids.max 48)")
    command = (
        f'echo $BASHPID > {group}/cgroup.procs; echo "pids.max: $(cat {group}/pids.max)"; '
        f"{GYM} env start {gym_model_args(url)} {overrides}"
    )
    env_start = ctx.bg(f"( {command} )", "env_start.log")
    ready = wait_env_start(ctx, env_start, 150)
    evaluated = None
    if ready:
        evaluated = gym_eval(ctx, overrides, agent_args(data, ctx.run / "rollouts.jsonl", 2, 4))
    elif env_start.poll() is None:
        ctx.note("150 s without `gym env start` getting ready: Ctrl-C on it")
    stop_gym(ctx, env_start, policy)
    drop_cgroup(group)
    if ready and evaluated == 0:
        raise failed(ctx, "gym worked")
    return (
        f"`gym env start` in a cgroup with pids.max 48; real NeMo Gym 0.7.0 (loopback-only namespace): ready "
        f"{ready}; eval {evaluated}."
    )


@case(
    "throughput_gym_env_start_address_space_limit",
    "throughput_resources",
    ["ulimit"],
    "`gym env start` was run from a shell with a 400 MB address-space limit (ulimit -v 400000, the login node's "
    "per-process cap), too little virtual memory for Ray and Gym's server processes, so its servers never came up",
    netns=True,
)
def throughput_gym_env_start_address_space_limit(ctx: Ctx) -> str:
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 72)
    env_start = ctx.bg(
        f"( ulimit -v 400000; ulimit -a | grep -i virtual; {GYM} env start {gym_model_args(url)} {overrides} )",
        "env_start.log",
    )
    ready = wait_env_start(ctx, env_start, 150)
    evaluated = None
    if ready:
        evaluated = gym_eval(ctx, overrides, agent_args(data, ctx.run / "rollouts.jsonl", 2, 4))
    elif env_start.poll() is None:
        ctx.note("150 s without `gym env start` getting ready: Ctrl-C on it")
    stop_gym(ctx, env_start, policy)
    if ready and evaluated == 0:
        raise failed(ctx, "gym worked")
    return (
        f"`gym env start` under `ulimit -v 400000`; real NeMo Gym 0.7.0 (loopback-only namespace): ready {ready}; "
        f"eval {evaluated}."
    )


# =====================================================================================================
# the built-in engine, stages, task folders and launchers: healthy
# =====================================================================================================


@case(
    "healthy_taskfolder_weaker_checkpoint_some_unsolved",
    "healthy",
    [],
    "nothing is wrong: an early checkpoint (step_0100) ran the user's taskset in Docker sandboxes; it solves fewer "
    "tasks, so several episodes scored 0, but every episode completed, was verified and profiled",
)
def healthy_taskfolder_weaker_checkpoint_some_unsolved(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["create-greeting", "top-word", "fix-off-by-one"])
    checkpoint = task_checkpoints(ctx, tasks)[0]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    codes = taskset_stages(ctx, sweep, checkpoint, url, "materialize", "collect", "profile")
    if any(codes) or len(unique_keys(run / "rollouts.jsonl")) != 6:
        raise failed(ctx, f"exit {codes}")
    rewards = [row.get("reward") for row in rows_of(run / "rollouts.jsonl")]
    return (
        "A sweep (RUN/sweep.yaml) with the taskset RUN/tasks (3 bundled tasks x 2) against checkpoint step_0100; "
        f"`gym-pipeline stage materialize`, `collect` (Docker sandboxes), `profile` exit {codes}; rewards {rewards}."
    )


PARTIAL_CREDIT_VERIFIER = '''
"""Exact-answer scoring with half credit for a right answer given outside the requested format."""
import re

BOXED = re.compile(r"\\\\boxed\\{([^}]*)\\}")
FINAL = re.compile(r"Final answer:\\s*(.+)", re.IGNORECASE)


def score(row, response_text):
    expected = row["expected_answer"].strip().lower()
    pattern = BOXED if row.get("extraction_mode") == "boxed" else FINAL
    match = pattern.search(response_text)
    if match:
        answer = match.group(1).strip().rstrip(".").lower()
        return {"reward": float(answer == expected), "extracted_answer": answer}
    said = expected in response_text.lower()
    return {"reward": 0.5 if said else 0.0, "extracted_answer": None}
'''


@case(
    "healthy_stage_workspace_verifier_partial_credit",
    "healthy",
    [],
    "nothing is wrong: the user's workspace verifier gives half credit (0.5) to a right answer outside the "
    "requested format, so some rewards are 0.5 by design; every rollout was collected, scored and profiled",
)
def healthy_stage_workspace_verifier_partial_credit(ctx: Ctx) -> str:
    run = ctx.run
    sweep, checkpoint, url = verifier_sweep(ctx, PARTIAL_CREDIT_VERIFIER, 0, n=8, repeats=3, concurrency=4)
    codes = [
        stage(
            ctx,
            sweep,
            key,
            checkpoint,
            "exact_answer",
            *(("--model-url", url, "--model-name", "sim-policy") if key == "collect" else ()),
        )
        for key in ("materialize", "collect", "profile")
    ]
    if any(codes) or len(unique_keys(run / "rollouts.jsonl")) != 24:
        raise failed(ctx, f"exit {codes}")
    return f"A sweep whose environment exact_answer is scored by verifiers/my_verifier.py (half credit); stages exit {codes}."


@case(
    "healthy_builtin_seed_per_repeat",
    "healthy",
    [],
    "nothing is wrong: the inputs were materialized with --num-repeats-add-seed (a seed per repeat, for "
    "reproducible sampling); every rollout was collected and profiled",
)
def healthy_builtin_seed_per_repeat(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=70, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    code = ctx.sh(
        f"{GP} materialize --input {data} --num-repeats 4 --agent string_match_simple_agent "
        f"--num-repeats-add-seed --output {run}/rollouts_materialized_inputs.jsonl",
        "logs/materialize.log",
    )
    collected, profiled = collect_sh(ctx, url, "string_match", 4), profile_sh(ctx)
    if code or collected or profiled or len(unique_keys(run / "rollouts.jsonl")) != 24:
        raise failed(ctx, f"materialize {code}, collect {collected}, profile {profiled}")
    return "`gym-pipeline materialize --num-repeats-add-seed` (6 tasks x 4), `collect` (all 24) and `profile` exit 0."


@case(
    "healthy_slurm_collect_with_python_warnings_on",
    "healthy",
    [],
    "nothing is wrong: the user's shell exports PYTHONWARNINGS=default (left from debugging), so the Slurm jobs' "
    "logs carry library warnings; the collection and its profile completed every rollout",
)
def healthy_slurm_collect_with_python_warnings_on(ctx: Ctx) -> str:
    import os

    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "mcqa", 5, 44, 3, "--latency-ms 30")
    ctx.note("export PYTHONWARNINGS=default")
    os.environ["PYTHONWARNINGS"] = "default"
    try:
        launcher, label = slurm()
        collected = launched(ctx, launcher, label, "collect", collect_argv(run, url, "mcqa", 3))
        profiled = launched(ctx, launcher, label, "profile", profile_argv(run))
    finally:
        os.environ.pop("PYTHONWARNINGS", None)
    if (
        "exit code 0" not in collected
        or "exit code 0" not in profiled
        or len(unique_keys(run / "rollouts.jsonl")) != 15
    ):
        raise failed(ctx, f"{collected}; {profiled}")
    return (
        f"PYTHONWARNINGS=default; `gym-pipeline materialize` (mcqa, 5 tasks x 3); collect as a Slurm job: "
        f"{collected}; profile as a Slurm job: {profiled}; all 15 rollouts."
    )


# =====================================================================================================
# infra
# =====================================================================================================


@case(
    "infra_taskfolder_docker_host_points_at_rootless_socket",
    "infra",
    ["docker_host"],
    "the shell exports DOCKER_HOST=unix:///run/user/1000/docker.sock (a rootless Docker socket from the user's "
    "workstation profile) where no Docker engine listens on this node, so no task sandbox could be created",
)
def infra_taskfolder_docker_host_points_at_rootless_socket(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["create-greeting", "count-error-lines"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    materialized = taskset_stages(ctx, sweep, checkpoint, url, "materialize")[0]
    collected = stage(
        ctx,
        sweep,
        "collect",
        checkpoint,
        "terminal_tasks",
        "--model-url",
        url,
        "--model-name",
        "sim-policy",
        wrap="export DOCKER_HOST=unix:///run/user/1000/docker.sock; echo DOCKER_HOST=$DOCKER_HOST",
    )
    if collected == 0 and len(rows_of(run / "rollouts.jsonl")) == 4:
        raise failed(ctx, "collected")
    return (
        "A sweep with the taskset RUN/tasks (2 bundled tasks x 2); `gym-pipeline stage materialize` exit "
        f"{materialized}; `stage collect` with DOCKER_HOST=unix:///run/user/1000/docker.sock exit {collected}."
    )


@case(
    "infra_builtin_etc_hosts_without_localhost",
    "infra",
    [],
    "the node's /etc/hosts (written by the cluster's provisioning tool) has no localhost line and no DNS answers "
    "for it, so the collection's --model-url http://localhost:PORT/v1 could not be resolved",
)
def infra_builtin_etc_hosts_without_localhost(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 4, 74, 2, "--latency-ms 20")
    hosts = ctx.work / "hosts"
    hosts.write_text("# managed by provisioning, do not edit\n10.40.3.17 gpu-node-17.cluster gpu-node-17\n")
    local = url.replace("127.0.0.1", "localhost")
    argv = shlex.join(collect_argv(run, local, "string_match", 2))
    code = ctx.sh(
        f"unshare --mount bash -c 'mount --bind {hosts} /etc/hosts; cat /etc/hosts; getent hosts localhost "
        f'|| echo "getent: localhost not found"; {argv}\'',
        "logs/collect.log",
        timeout=300,
    )
    if code == 0 and len(rows_of(run / "rollouts.jsonl")) == 8:
        raise failed(ctx, "collected")
    return (
        f"/etc/hosts without localhost (bind-mounted in a mount namespace); `gym-pipeline collect --model-url "
        f"http://localhost:PORT/v1` exit {code}, {len(rows_of(run / 'rollouts.jsonl'))} of 8 rollouts."
    )


# =====================================================================================================
# model serving
# =====================================================================================================


@case(
    "model_serving_taskfolder_server_killed_mid_run",
    "model_serving",
    [],
    "the model server was killed (SIGKILL, a node cleanup script) while the taskset's episodes were running, so "
    "the agents' later chat completions could not connect and those episodes failed",
)
def model_serving_taskfolder_server_killed_mid_run(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["create-greeting", "top-word", "sort-unique-words", "json-version"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 300")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    materialized = taskset_stages(ctx, sweep, checkpoint, url, "materialize")[0]
    argv = shlex.join(
        stage_argv(sweep, "collect", checkpoint, "terminal_tasks", "--model-url", url, "--model-name", "sim-policy")
    )
    collect = ctx.bg(argv, "logs/collect.log")
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 2 or collect.poll() is not None, 300, "2 episodes")
    ctx.note("(a node cleanup script kills the model server: kill -9)")
    ctx.stop(policy, signal.SIGKILL, 5)
    wait_or_interrupt(ctx, collect, 400, "`gym-pipeline stage collect`")
    got = len(rows_of(run / "rollouts.jsonl"))
    if materialized or got >= 8:
        raise failed(ctx, f"materialize {materialized}, {got} rows")
    return (
        "A sweep with the taskset RUN/tasks (4 bundled tasks x 2); `stage materialize`; `stage collect` (Docker "
        f"sandboxes) with kill -9 on the policy after 2 episodes: exit {collect.returncode}, {got} of 8 rows."
    )


@case(
    "model_serving_builtin_server_crash_loop",
    "model_serving",
    [],
    "the model server is in a crash loop: its supervisor restarts it on the same port every few seconds, and it "
    "dies again soon after loading, so the collection met refused connections and 503s and lost most rollouts",
)
def model_serving_builtin_server_crash_loop(ctx: Ctx) -> str:
    from gym_pipeline.host import free_loopback_port

    run = ctx.run
    data = ctx.dataset("string_match", 8, start=78, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    materialize(ctx, data, 4, "string_match")
    port = free_loopback_port()
    log = run / "logs" / "model_server.log"
    supervisor = ctx.bg(
        f'while true; do echo "supervisor: starting the model server"; {GP} serve-policy '
        f"--checkpoint {checkpoint} --port {port} --latency-ms 600 --slow-start-s 3 & pid=$!; sleep 8; "
        f'echo "supervisor: model server exited (signal 9)"; kill -9 $pid; wait $pid; sleep 1; done',
        "logs/model_server.log",
    )
    wait_for(lambda: text_of(log).count("supervisor: starting") >= 3, 60, "the third start")
    time.sleep(3.5)
    collected = collect_sh(ctx, f"http://127.0.0.1:{port}/v1", "string_match", 2, "--model", "sim-policy", timeout=240)
    ctx.stop(supervisor, signal.SIGTERM, 5)
    got = len(rows_of(run / "rollouts.jsonl"))
    if collected == 0 and got == 32:
        raise failed(ctx, "collected everything")
    return (
        f"The simulated policy restarted by a supervisor loop (killed 8 s after each start, 3 s slow start); "
        f"`gym-pipeline collect` (8 tasks x 4) exit {collected}, {got} of 32 rollouts."
    )


# =====================================================================================================
# config
# =====================================================================================================


@case(
    "config_slurm_constraint_feature_not_on_cluster",
    "config",
    ["constraint"],
    "the collect stage's Slurm settings pass --constraint=a100 (copied from the GPU cluster's job template), a node "
    "feature no node of this cluster has, so sbatch refused the job",
)
def config_slurm_constraint_feature_not_on_cluster(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 4, 82, 2, "--latency-ms 20")
    launcher, label = slurm(extra_options=["--constraint=a100"])
    ended = launched(ctx, launcher, label, "collect", collect_argv(run, url, "string_match", 2))
    if "exit code 0" in ended or rows_of(run / "rollouts.jsonl"):
        raise failed(ctx, ended)
    return f"`gym-pipeline materialize` (4 tasks x 2); collect as a Slurm job with --constraint=a100: {ended}."


@case(
    "config_sweep_prompt_config_file_missing",
    "config",
    ["prompt_config"],
    "the sweep config's environment sets prompt_config: prompts/boxed_v2.yaml, a file that was never committed "
    "(only prompts/boxed.yaml exists), so the materialize stage could not build the prompts",
)
def config_sweep_prompt_config_file_missing(ctx: Ctx) -> str:
    run = ctx.run
    rows = [
        {
            "question": row["responses_create_params"]["input"][0]["content"][0]["text"],
            "expected_answer": row["expected_answer"],
            "extraction_mode": row["extraction_mode"],
        }
        for row in rows_of(ctx.dataset("string_match", 5, start=0, name="source.jsonl"))
    ]
    data = run / "questions.jsonl"
    data.write_text("".join(json.dumps(row) + "\n" for row in rows))
    (run / "prompts").mkdir()
    (run / "prompts" / "boxed.yaml").write_text('user: "{question}"\n')
    checkpoint = checkpoints(ctx, "string_match", ctx.dataset("string_match", 5, start=0, name="known.jsonl"))[1]
    sweep = write_sweep(
        ctx,
        "string_match",
        data,
        checkpoint,
        raw={
            "environments": [
                {"name": "string_match", "dataset": str(data), "prompt_config": str(run / "prompts" / "boxed_v2.yaml")}
            ]
        },
        num_repeats=2,
        concurrency=2,
    )
    code = stage(ctx, sweep, "materialize", checkpoint, "string_match")
    if code == 0:
        raise failed(ctx, "materialized")
    return (
        "RUN/questions.jsonl (rows without prompts) and RUN/prompts/boxed.yaml; a sweep whose prompt_config names "
        f"RUN/prompts/boxed_v2.yaml; `gym-pipeline stage materialize` exit {code}."
    )


@case(
    "config_docker_collect_output_inside_container",
    "config",
    ["output"],
    "the containerised collection was given --output /tmp/rollouts.jsonl, a path inside the container that is not "
    "the bind-mounted run folder, so its rollouts vanished with the container and the profile found none",
)
def config_docker_collect_output_inside_container(ctx: Ctx) -> str:
    from gym_pipeline.launchers.docker import DockerLauncher

    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 5, 0, 2, "--latency-ms 20")
    argv = collect_argv(run, url, "string_match", 2)
    argv[argv.index("--output") + 1] = "/tmp/rollouts.jsonl"
    launcher = DockerLauncher(network="host")
    ended = docker_launched(ctx, launcher, "DockerLauncher(network='host')", "collect", argv)
    profiled = profile_sh(ctx)
    if rows_of(run / "rollouts.jsonl") or profiled == 0:
        raise failed(ctx, f"{ended}; profile {profiled}")
    return (
        f"`gym-pipeline materialize` (5 tasks x 2); collect in a Docker container with --output /tmp/rollouts.jsonl: "
        f"{ended}; `gym-pipeline profile` of RUN exit {profiled}."
    )


@case(
    "config_sweep_launcher_memory_with_unit",
    "config",
    ["memory_mb"],
    "the sweep config's collect launcher sets memory_mb: 4g (a Docker-style size with a unit) where a number of "
    "MiB is required, so the sweep config was refused and no stage ran",
)
def config_sweep_launcher_memory_with_unit(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("mcqa", 5, start=50, folder=run, name="mcqa.jsonl")
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    sweep = write_sweep(
        ctx,
        "mcqa",
        data,
        checkpoint,
        num_repeats=2,
        concurrency=4,
        launchers={"collect": {"kind": "docker", "network": "host", "memory_mb": "4g"}},
    )
    code = stage(ctx, sweep, "materialize", checkpoint, "mcqa")
    if code == 0:
        raise failed(ctx, "materialized")
    return f'A sweep whose launchers.collect says memory_mb: "4g"; `gym-pipeline stage materialize` exit {code}.'


# =====================================================================================================
# data schema
# =====================================================================================================


@case(
    "data_schema_taskfolder_task_toml_unquoted_string",
    "data_schema",
    ["task.toml"],
    "one task folder's task.toml has category = text-processing without quotes (hand-edited), which is not valid "
    "TOML, so that task could not load and the taskset was refused",
)
def data_schema_taskfolder_task_toml_unquoted_string(ctx: Ctx) -> str:
    def unquote(tasks: Path) -> None:
        toml = tasks / "top-word" / "task.toml"
        toml.write_text(toml.read_text().replace('category = "text-processing"', "category = text-processing"))

    tasks = user_taskset(ctx, ["create-greeting", "top-word", "csv-column-total"], unquote)
    ctx.note("(RUN/tasks/top-word/task.toml: category = text-processing, unquoted)")
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    codes = taskset_stages(ctx, sweep, checkpoint, url, "materialize", "collect")
    if not any(codes):
        raise failed(ctx, f"exit {codes}")
    return f"A sweep with the taskset RUN/tasks (top-word's task.toml not valid TOML); stages exit {codes}."


@case(
    "data_schema_slurm_duplicate_prompts_conflicting_labels",
    "data_schema",
    ["expected_answer"],
    "the dataset merges two annotation batches that labelled the same three prompts differently: each of those "
    "prompts appears twice with different expected answers, so one copy of each is scored 0 whatever the model says",
)
def data_schema_slurm_duplicate_prompts_conflicting_labels(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=6, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    rows = rows_of(data)
    extra = []
    for row in rows[:3]:
        other = dict(row)
        other["expected_answer"] = row["distractors"][0]
        extra.append(other)
    data.write_text("".join(json.dumps(row) + "\n" for row in rows + extra))
    ctx.note("(RUN/string_match.jsonl: 6 rows plus a second copy of 3 prompts from the other batch, other label)")
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    materialize(ctx, data, 3, "string_match")
    launcher, label = slurm()
    collected = launched(ctx, launcher, label, "collect", collect_argv(run, url, "string_match", 3))
    profiled = launched(ctx, launcher, label, "profile", profile_argv(run))
    if "exit code 0" not in collected or len(unique_keys(run / "rollouts.jsonl")) != 27:
        raise failed(ctx, f"{collected}; {profiled}")
    return (
        f"RUN/string_match.jsonl (9 rows, 3 prompts twice with different labels); materialize (x 3); collect as a "
        f"Slurm job: {collected}; profile as a Slurm job: {profiled}."
    )


@case(
    "data_schema_builtin_question_in_system_message",
    "data_schema",
    ["user"],
    'a conversion script put each question in a system message (role "system") with no user message, so the '
    "model server refused every request (no user message) and nothing was collected",
)
def data_schema_builtin_question_in_system_message(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=12, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]

    def to_system(index, row):
        row["responses_create_params"]["input"][0]["role"] = "system"
        return True

    rewrite_rows(data, to_system)
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    materialize(ctx, data, 2, "string_match")
    collected = collect_sh(ctx, url, "string_match", 2)
    profiled = profile_sh(ctx, "--allow-partial")
    if collected == 0 and len(rows_of(run / "rollouts.jsonl")) == 10:
        raise failed(ctx, "collected")
    return (
        f"RUN/string_match.jsonl with every question as a system message; `materialize`, `collect` exit "
        f"{collected}, `profile --allow-partial` exit {profiled}."
    )


@case(
    "data_schema_stage_unescaped_newlines_in_prompts",
    "data_schema",
    [],
    "the dataset was written by a hand-rolled exporter that puts the prompt text into the JSON line unescaped: "
    "prompts with a line break split their row over two lines, and neither half is valid JSON",
)
def data_schema_stage_unescaped_newlines_in_prompts(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("mcqa", 5, start=54, folder=run, name="mcqa.jsonl")
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    data.write_text(data.read_text().replace("\\n", "\n"))
    ctx.note("(RUN/mcqa.jsonl written by the team's exporter: line breaks inside prompts are not escaped)")
    ctx.sh(f"wc -l {data}; head -3 {data}", "logs/head.log")
    sweep = write_sweep(ctx, "mcqa", data, checkpoint, num_repeats=2, concurrency=4)
    code = stage(ctx, sweep, "materialize", checkpoint, "mcqa")
    if code == 0:
        raise failed(ctx, "materialized")
    return f"RUN/mcqa.jsonl (5 rows, line breaks in prompts not escaped); `gym-pipeline stage materialize` exit {code}."


# =====================================================================================================
# verifier runtime
# =====================================================================================================


@case(
    "verifier_runtime_taskfolder_test_sh_crlf_line_endings",
    "verifier_runtime",
    ["test.sh"],
    "the user's tests/test.sh files were saved with Windows line endings (CRLF), so bash could not run them "
    "(/bin/bash^M: bad interpreter, $'\\r': command not found) and no episode got a reward",
)
def verifier_runtime_taskfolder_test_sh_crlf_line_endings(ctx: Ctx) -> str:
    run = ctx.run

    def crlf(tasks: Path) -> None:
        for test in tasks.glob("*/tests/test.sh"):
            test.write_bytes(test.read_bytes().replace(b"\n", b"\r\n"))

    tasks = user_taskset(ctx, ["create-greeting", "top-word", "replace-spelling"], crlf)
    ctx.note("(RUN/tasks/*/tests/test.sh saved with CRLF line endings)")
    ctx.sh(f"file {tasks}/*/tests/test.sh", "logs/file.log")
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    codes = taskset_stages(ctx, sweep, checkpoint, url, "materialize", "collect", "profile")
    rows = rows_of(run / "rollouts.jsonl")
    if rows and any(row.get("reward") for row in rows):
        raise failed(ctx, f"exit {codes}, some rewarded")
    return (
        f"A sweep with the taskset RUN/tasks (3 bundled tasks x 2, test.sh with CRLF); stages exit {codes}; "
        f"{len(rows)} rows, none rewarded."
    )


NONE_ON_MISS_VERIFIER = '''
"""Exact-answer scoring: no answer found means nothing to score."""
import re

ANSWER = re.compile(r"(?:\\\\boxed\\{([^}]*)\\}|Final answer:\\s*(.+))", re.IGNORECASE)


def score(row, response_text):
    match = ANSWER.search(response_text)
    if match is None:
        return None  # nothing to grade
    answer = (match.group(1) or match.group(2)).strip().rstrip(".")
    return {"reward": float(answer.lower() == row["expected_answer"].lower()), "extracted_answer": answer}
'''


@case(
    "verifier_runtime_slurm_workspace_verifier_returns_none",
    "verifier_runtime",
    ["none"],
    "the user's workspace verifier returns None when it finds no answer in a response instead of a reward of 0, "
    "which is not a reward, so those rollouts came back as verifier errors",
)
def verifier_runtime_slurm_workspace_verifier_returns_none(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 10, start=16, folder=run, name="exact_answer.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[0]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = workspace_sweep(
        ctx,
        "exact_answer",
        data,
        checkpoint,
        {"verifier": "my_verifier:score"},
        NONE_ON_MISS_VERIFIER,
        num_repeats=3,
        concurrency=4,
    )
    materialized = stage(ctx, sweep, "materialize", checkpoint, "exact_answer")
    launcher, label = slurm()
    collected = launched(
        ctx,
        launcher,
        label,
        "collect",
        stage_argv(sweep, "collect", checkpoint, "exact_answer", "--model-url", url, "--model-name", "sim-policy"),
    )
    profiled = launched(ctx, launcher, label, "profile", stage_argv(sweep, "profile", checkpoint, "exact_answer"))
    rows = rows_of(run / "rollouts.jsonl")
    if materialized or not rows or not any(row.get("failure_kind") or row.get("mask_sample") for row in rows):
        raise failed(ctx, f"{collected}; {profiled}")
    return (
        "A sweep whose environment exact_answer is scored by verifiers/my_verifier.py (returns None without an "
        f"answer), weaker checkpoint step_0100; `stage materialize` exit {materialized}; `stage collect` and "
        f"`stage profile` as Slurm jobs (project's SlurmLauncher): {collected}; {profiled}; {len(rows)} rows."
    )


SAMPLED_LINES_VERIFIER = '''
"""Exact-answer scoring; looks at a few lines only (a speed-up ported from our long-document grader)."""
import random
import re

ANSWER = re.compile(r"(?:\\\\boxed\\{([^}]*)\\}|Final answer:\\s*(.+))", re.IGNORECASE)


def score(row, response_text):
    lines = [line for line in response_text.splitlines() if line.strip()]
    for line in random.sample(lines, k=min(2, len(lines))):
        match = ANSWER.search(line)
        if match:
            answer = (match.group(1) or match.group(2)).strip().rstrip(".")
            return {"reward": float(answer.lower() == row["expected_answer"].lower()), "extracted_answer": answer}
    return {"reward": 0.0, "extracted_answer": None}
'''


@case(
    "verifier_runtime_stage_workspace_verifier_samples_lines_at_random",
    "verifier_runtime",
    ["random"],
    "the user's workspace verifier looks for the answer in only two randomly sampled lines of each response "
    "(a speed-up ported from a long-document grader), so it often misses the answer line and scores correct "
    "answers 0",
)
def verifier_runtime_stage_workspace_verifier_samples_lines_at_random(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=26, folder=run, name="exact_answer.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    sweep = workspace_sweep(
        ctx,
        "exact_answer",
        data,
        checkpoint,
        {"verifier": "my_verifier:score"},
        SAMPLED_LINES_VERIFIER,
        num_repeats=3,
        concurrency=4,
    )
    codes = [
        stage(ctx, sweep, "materialize", checkpoint, "exact_answer"),
        stage(ctx, sweep, "collect", checkpoint, "exact_answer", "--model-url", url, "--model-name", "sim-policy"),
        stage(ctx, sweep, "profile", checkpoint, "exact_answer"),
    ]
    if any(codes):
        raise failed(ctx, f"exit {codes}")
    return (
        f"A sweep whose environment exact_answer is scored by verifiers/my_verifier.py (random line sampling); "
        f"stages exit {codes}; mean reward {sum(r.get('reward') or 0 for r in rows_of(run / 'rollouts.jsonl')) / 24:.2f}."
    )


# =====================================================================================================
# cache and resume
# =====================================================================================================


@case(
    "cache_resume_builtin_full_run_on_smoke_test_inputs",
    "cache_resume",
    ["materialize"],
    "the user materialized with --limit 3 for a smoke test, then started the full collection on that same "
    "rollouts_materialized_inputs.jsonl without materializing again, so the 'full' run and its profile cover 3 of "
    "the dataset's 12 tasks",
)
def cache_resume_builtin_full_run_on_smoke_test_inputs(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 12, start=30, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    code = ctx.sh(
        f"{GP} materialize --input {data} --num-repeats 4 --agent string_match_simple_agent --limit 3 "
        f"--output {run}/rollouts_materialized_inputs.jsonl",
        "logs/materialize_smoke.log",
    )
    smoke = collect_sh(ctx, url, "string_match", 4, log="logs/collect_smoke.log")
    ctx.note("(smoke test fine; the full run is started next on the same inputs)")
    collected = collect_sh(ctx, url, "string_match", 8)
    profiled = profile_sh(ctx)
    if code or smoke or collected or len(unique_keys(run / "rollouts.jsonl")) != 12:
        raise failed(ctx, f"materialize {code}, smoke {smoke}, collect {collected}")
    return (
        "`gym-pipeline materialize --limit 3` (12-task dataset, x 4), smoke `collect`; then the full `collect "
        f"--concurrency 8` and `profile` on the same inputs: exit {collected}, {profiled}; 12 rollouts of 3 tasks."
    )


@case(
    "cache_resume_builtin_backup_restored_over_new_rollouts",
    "cache_resume",
    [],
    "after re-collecting the run against checkpoint step_0200, the nightly rsync restored last night's backup of "
    "rollouts.jsonl (step_0100's rollouts) over the new one, so the profile reports the old checkpoint's rewards",
)
def cache_resume_builtin_backup_restored_over_new_rollouts(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=42, folder=run, name="string_match.jsonl")
    old, new = checkpoints(ctx, "string_match", data)
    materialize(ctx, data, 3, "string_match")
    url, first_policy = ctx.policy(old, "--latency-ms 20", log="logs/model_server_step_0100.log")
    first = collect_sh(ctx, url, "string_match", 4, log="logs/collect_step_0100.log")
    # cp -a: rsync is not installed on every machine (it was not here when the case was first made)
    ctx.sh(f"mkdir -p {ctx.work}/backup && cp -av {run}/rollouts.jsonl {ctx.work}/backup/", "logs/backup.log")
    ctx.stop(first_policy)
    url, policy = ctx.policy(new, "--latency-ms 20", log="logs/model_server_step_0200.log")
    second = collect_sh(ctx, url, "string_match", 4, log="logs/collect_step_0200.log")
    restored = ctx.sh(f"cp -av {ctx.work}/backup/rollouts.jsonl {run}/", "logs/restore.log")
    profiled = profile_sh(ctx)
    if first or second or restored:
        raise failed(ctx, f"collect {first}, {second}; restore {restored}")
    return (
        "`materialize` (6 tasks x 3); `collect` against step_0100, backed up with cp; `collect` against "
        f"step_0200; the backup copied back over RUN/rollouts.jsonl; `profile` exit {profiled}."
    )


@case(
    "cache_resume_slurm_profile_job_submitted_without_dependency",
    "cache_resume",
    ["dependency"],
    "the user submitted the collect and the profile Slurm jobs at once, without making the profile wait for the "
    "collection (--dependency=afterok), so the profile job read a rollouts file the collection was still writing",
)
def cache_resume_slurm_profile_job_submitted_without_dependency(ctx: Ctx) -> str:
    import threading

    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 8, 60, 3, "--latency-ms 500")
    collector, label = slurm()
    profiler, _ = slurm()
    result: dict = {}
    worker = threading.Thread(
        target=lambda: result.update(
            ended=launched(ctx, collector, label, "collect", collect_argv(run, url, "string_match", 2))
        )
    )
    worker.start()
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 3 or not worker.is_alive(), 120, "3 rollouts")
    profiled = launched(ctx, profiler, label, "profile", profile_argv(run))
    worker.join(300)
    got = len(rows_of(run / "rollouts.jsonl"))
    if "exit code 0" in profiled or "exit code 0" not in result.get("ended", ""):
        raise failed(ctx, f"{result}; {profiled}")
    return (
        "`gym-pipeline materialize` (8 tasks x 3); collect and profile submitted as Slurm jobs at once (project's "
        f"SlurmLauncher): collect {result.get('ended')} ({got} of 24 rollouts); profile {profiled}."
    )


@case(
    "cache_resume_stage_resumed_after_checkpoint_overwritten_in_place",
    "cache_resume",
    [],
    "the collect stage of checkpoint step_0200 was interrupted, then the step_0200 folder was overwritten in place "
    "by a re-export of other weights; run again by hand (without --checkpoint-digest), the collect stage resumed the "
    "interrupted collection, so the run mixes rollouts of the old and the new weights",
)
def cache_resume_stage_resumed_after_checkpoint_overwritten_in_place(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=78, folder=run, name="string_match.jsonl")
    old, new = checkpoints(ctx, "string_match", data)
    url, policy = ctx.policy(new, "--latency-ms 300", log="logs/model_server.log")
    sweep = write_sweep(ctx, "string_match", data, new, num_repeats=4, concurrency=2)
    materialized = stage(ctx, sweep, "materialize", new, "string_match")
    argv = shlex.join(
        stage_argv(sweep, "collect", new, "string_match", "--model-url", url, "--model-name", "sim-policy")
    )
    first = ctx.bg(argv, "logs/collect.log")
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 8 or first.poll() is not None, 120, "8 rollouts")
    ctx.stop(first, signal.SIGINT, 20)
    ctx.stop(policy, signal.SIGINT, 10)
    ctx.sh(f"rm -rf {new}/* && cp -rv {old}/* {new}/", "logs/reexport.log")
    ctx.note("(the export job re-wrote checkpoints/step_0200 with other weights; the model server is started again)")
    url, policy = ctx.policy(new, "--latency-ms 50", log="logs/model_server_restarted.log")
    argv = shlex.join(
        stage_argv(sweep, "collect", new, "string_match", "--model-url", url, "--model-name", "sim-policy")
    )
    second = ctx.sh(argv, "logs/collect.log", timeout=300)
    profiled = stage(ctx, sweep, "profile", new, "string_match")
    text = text_of(run / "logs" / "collect.log")
    if materialized or second or "resuming" not in text or len(unique_keys(run / "rollouts.jsonl")) != 24:
        raise failed(ctx, f"materialize {materialized}, collect {second}")
    return (
        "A sweep partition (step_0200 x string_match, 6 tasks x 4): `stage collect` interrupted (Ctrl-C) after 8 "
        "rollouts; checkpoints/step_0200 overwritten with other weights and served again; `stage collect` again "
        f"(resumed) exit {second}; `stage profile` exit {profiled}."
    )


# =====================================================================================================
# throughput and resources
# =====================================================================================================


HEAVY_VERIFIER = '''
"""Exact-answer scoring, tolerant of small typos (edit distance against every alias spelling)."""
import re

ANSWER = re.compile(r"(?:\\\\boxed\\{([^}]*)\\}|Final answer:\\s*(.+))", re.IGNORECASE)


def _distance(a, b):
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def score(row, response_text):
    match = ANSWER.search(response_text)
    answer = (match.group(1) or match.group(2)).strip().rstrip(".").lower() if match else ""
    expected = row["expected_answer"].lower()
    aliases = [expected + suffix for suffix in ("", " ", ".")] * 1000  # the alias table, padded as in production
    best = min(_distance(answer * 20, alias * 20) for alias in aliases)
    return {"reward": float(best <= 1), "extracted_answer": answer}
'''


@case(
    "throughput_stage_cpu_time_limit_with_heavy_verifier",
    "throughput_resources",
    ["ulimit"],
    "the collect stage ran in a shell whose CPU-time limit is 20 s (ulimit -t 20, the login node's per-process "
    "cap) while the user's typo-tolerant verifier needs well over a second of CPU per rollout, so the kernel "
    "killed the collection (CPU time limit exceeded) part way",
)
def throughput_stage_cpu_time_limit_with_heavy_verifier(ctx: Ctx) -> str:
    run = ctx.run
    sweep, checkpoint, url = verifier_sweep(ctx, HEAVY_VERIFIER, 50, n=8, repeats=3, concurrency=4)
    materialized = stage(ctx, sweep, "materialize", checkpoint, "exact_answer")
    collected = stage(
        ctx,
        sweep,
        "collect",
        checkpoint,
        "exact_answer",
        "--model-url",
        url,
        "--model-name",
        "sim-policy",
        wrap="ulimit -t 20; ulimit -a | grep -i 'cpu time'",
    )
    got = len(rows_of(run / "rollouts.jsonl"))
    if materialized or (collected == 0 and got == 24):
        raise failed(ctx, f"materialize {materialized}, collect {collected}, {got}")
    return (
        "A sweep whose environment exact_answer is scored by a CPU-heavy verifiers/my_verifier.py; `stage "
        f"materialize` exit {materialized}; `stage collect` with `ulimit -t 20` exit {collected}, {got} of 24."
    )


TABLE_VERIFIER = '''
"""Exact-answer scoring against every accepted spelling (the alias table of the production grader)."""
import re

ANSWER = re.compile(r"(?:\\\\boxed\\{([^}]*)\\}|Final answer:\\s*(.+))", re.IGNORECASE)
# every spelling we accept for every answer we know: built once, at import
ALIASES = {f"{word}-{variant}": word for word in range(400_000) for variant in range(6)}


def score(row, response_text):
    match = ANSWER.search(response_text)
    answer = (match.group(1) or match.group(2)).strip().rstrip(".") if match else ""
    canonical = ALIASES.get(answer.lower(), answer.lower())
    return {"reward": float(canonical == row["expected_answer"].lower()), "extracted_answer": answer}
'''


@case(
    "throughput_slurm_stage_collect_memory_below_verifier_table",
    "throughput_resources",
    ["memory"],
    "the collect stage's Slurm job asks for 200 MB (memory_mb=200, the CPU partition's default) while the user's "
    "verifier builds an alias table of several hundred MB at import, so Slurm ended the job for exceeding its "
    "memory before the collection finished",
)
def throughput_slurm_stage_collect_memory_below_verifier_table(ctx: Ctx) -> str:
    run = ctx.run
    sweep, checkpoint, url = verifier_sweep(ctx, TABLE_VERIFIER, 36, n=6, repeats=2, concurrency=3)
    materialized = stage(ctx, sweep, "materialize", checkpoint, "exact_answer")
    launcher, label = slurm(memory_mb=200)
    ended = launched(
        ctx,
        launcher,
        label,
        "collect",
        stage_argv(sweep, "collect", checkpoint, "exact_answer", "--model-url", url, "--model-name", "sim-policy"),
    )
    got = len(rows_of(run / "rollouts.jsonl"))
    if materialized or ("exit code 0" in ended and got == 12):
        raise failed(ctx, f"materialize {materialized}: {ended}, {got} rows")
    return (
        "A sweep whose environment exact_answer is scored by verifiers/my_verifier.py (a large alias table built at "
        f"import); `stage materialize` exit {materialized}; `stage collect` as a Slurm job with memory_mb=200: "
        f"{ended}; {got} of 12 rows."
    )


if __name__ == "__main__":
    sys.exit(main("ninth_held_out", __file__, __doc__))
