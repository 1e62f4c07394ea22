"""Build the TENTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/tenth_held_out.py --out tests/data/diagnosis_corpus/tenth_held_out [--only CASE ...]

Measured once on 2026-12-02 (top-1 68 %, see benchmarks/README.md), then tuned on: these cases now count as
tuning cases. The next held-out set is eleventh_held_out.py.

This is the tenth held-out set, written from the guides alone (the NeMo Gym debugging guide, the reward
profiling guide, the task-folder troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without
reading the diagnosis rules, their tests or their results. It was measured once, by someone else, to see how well
`gym-pipeline diagnose` names root causes on failures its rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated
policy (`gym-pipeline serve-policy` with a slow start, restarted under another served name, its port taken over),
the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`, `check-stale`, `tasks validate`),
workspace verifiers (`verifier: "MODULE:FUNCTION"`), task folders in Harbor's format (the bundled taskset, run in
Docker sandboxes), the real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` / `gym eval profile` inside a
loopback-only network namespace, with users' own resources servers), the Docker and Slurm launchers, real
resource limits (cgroup memory and CPU limits, a narrowed ephemeral port range, a task's sandbox memory) and
real bad config and data files. The output of every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`);
nothing in a run folder is written by hand but the user's own inputs. Each case injects one cause, different from
those of the nine earlier sets or reached by another path, and each recipe checks that its fault really happened
(it raises RecipeError otherwise, and the case is not written).

Labels (`case.json`) come from what was injected, following the NeMo Gym debugging guide's classes: the class of
the root cause (what the user must change), not of its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; the helpers shared with the earlier sets are imported from eighth_held_out.py and
ninth_held_out.py, and only this set's own are defined here. Needs root (unshare, mount, cgroups, sysctl), the
Docker engine and the one-node Slurm of scripts/dev-services.sh, NeMo Gym 0.7.0, and PYTHONPATH set to this
checkout. Run it from a foreground shell (SIGINT and SIGHUP at their defaults).
"""

from __future__ import annotations

import json
import shlex
import signal
import sys
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
from ninth_held_out import (  # noqa: E402
    cgroup,
    drop_cgroup,
    own_gym_server,
    taskset_stages,
    taskset_sweep,
    verifier_sweep,
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
    rewrite_rows,
    rows_of,
    text_of,
    unique_keys,
    user_resources_server,
    wait_for,
)

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def gym_eval_bounded(ctx: Ctx, overrides: str, args: str, timeout_s: float = 150, log: str = "eval_run.log") -> int:
    """`gym eval run` in the background, Ctrl-C after `timeout_s`; its exit code."""
    eval_run = gym_eval(ctx, overrides, args, log=log, background=True)
    wait_or_interrupt(ctx, eval_run, timeout_s, "`gym eval run`")
    return eval_run.returncode


def gym_start_then_eval(
    ctx: Ctx,
    start_args: str,
    overrides: str,
    eval_args: str,
    start_timeout_s: float = 150,
    eval_timeout_s: float = 150,
    prefix: str = "",
) -> tuple[bool, int | None]:
    """`gym env start` (maybe under a `prefix` shell setting), then `gym eval run` when it got ready: (ready, eval exit)."""
    if prefix:
        env_start = ctx.bg(f"( {prefix}; {GYM} env start {start_args} )", "env_start.log")
        ready = wait_env_start(ctx, env_start, start_timeout_s)
    else:
        env_start, ready = gym_start_maybe(ctx, start_args, start_timeout_s)
    evaluated = None
    if ready:
        evaluated = gym_eval_bounded(ctx, overrides, eval_args, eval_timeout_s)
    elif env_start.poll() is None:
        ctx.note(f"{start_timeout_s:g} s without `gym env start` getting ready: Ctrl-C on it")
    stop_gym(ctx, env_start)
    return ready, evaluated


def in_log(ctx: Ctx, needle: str, *names: str) -> bool:
    """Whether `needle` appears in any of the run's files named `names` (default: every log and JSONL)."""
    paths = (
        [ctx.run / name for name in names]
        if names
        else [p for p in ctx.run.rglob("*") if p.is_file() and p.suffix in (".log", ".jsonl", ".json", ".out", ".txt")]
    )
    return any(needle in text_of(path) for path in paths)


# =====================================================================================================
# the real NeMo Gym 0.7.0: healthy
# =====================================================================================================

WARNING_AT_IMPORT = (
    "import re\nimport warnings\n\n"
    'warnings.warn("legacy_match: the `aliases` config key is deprecated and will be removed in 0.9; use '
    '`accepted_answers`", FutureWarning, stacklevel=1)\n'
)


@case(
    "healthy_gym_own_server_warns_at_import",
    "healthy",
    [],
    "nothing is wrong: the user's legacy_match resources server (Gym's string_match, copied) prints a FutureWarning "
    "about a deprecated config key when it is imported; its servers got ready and every rollout was collected and "
    "profiled",
    netns=True,
)
def healthy_gym_own_server_warns_at_import(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 60, "--latency-ms 30")
    search = user_resources_server(
        ctx, "legacy_match", "string_match", lambda app: app.replace("import re\n", WARNING_AT_IMPORT, 1)
    )
    ctx.note("(copied Gym's resources_servers/string_match to WORK/my_gym/resources_servers/legacy_match)")
    env_start = gym_start(
        ctx, f"--search-dir {search} {gym_model_args(url, resources_server='legacy_match')} {overrides}"
    )
    evaluated = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 3, 4, "legacy_match_simple_agent"))
    profiled = gym_profile(ctx, run)
    stop_gym(ctx, env_start, policy)
    if evaluated or profiled or len(unique_keys(run / "rollouts.jsonl")) != 15:
        raise failed(ctx, f"eval {evaluated}, profile {profiled}")
    if not in_log(ctx, "FutureWarning"):
        raise failed(ctx, "no warning printed")
    return (
        "A user's resources server legacy_match that warns at import; real NeMo Gym 0.7.0 (loopback-only namespace) "
        "`gym eval run --no-serve` (5 tasks x 3, all 15) and `gym eval profile` exit 0."
    )


@case(
    "healthy_gym_sampling_settings_dated_output",
    "healthy",
    [],
    "nothing is wrong: the user ran the evaluation with explicit sampling settings (--temperature 0.6 --top-p 0.95) "
    "into a dated output folder (RUN/results/2026-12-03/rollouts.jsonl); every rollout was collected and profiled",
    netns=True,
)
def healthy_gym_sampling_settings_dated_output(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "mcqa", 5, 20, "--latency-ms 30")
    out = run / "results" / "2026-12-03"
    env_start = gym_start(ctx, f"{gym_model_args(url, resources_server='mcqa')} {overrides}")
    evaluated = gym_eval(
        ctx,
        overrides,
        agent_args(data, out / "rollouts.jsonl", 3, 4, "mcqa_simple_agent", extra="--temperature 0.6 --top-p 0.95"),
    )
    profiled = gym_profile(ctx, out)
    stop_gym(ctx, env_start, policy)
    if evaluated or profiled or len(unique_keys(out / "rollouts.jsonl")) != 15:
        raise failed(ctx, f"eval {evaluated}, profile {profiled}")
    return (
        "Real NeMo Gym 0.7.0 (loopback-only namespace) on mcqa: `gym eval run --no-serve --temperature 0.6 --top-p "
        "0.95 --output RUN/results/2026-12-03/rollouts.jsonl` (5 tasks x 3, all 15) and `gym eval profile` exit 0."
    )


# =====================================================================================================
# the real NeMo Gym 0.7.0: failures
# =====================================================================================================


@case(
    "infra_gym_eval_run_from_deleted_working_directory",
    "infra",
    [],
    "the user's shell was sitting in WORK/evals when another job removed and re-created that folder (rm -rf, "
    "mkdir), so the shell's working directory no longer existed and `gym eval run`, started from it, failed at once "
    "(getcwd: No such file or directory)",
    netns=True,
)
def infra_gym_eval_run_from_deleted_working_directory(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 62, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evals = ctx.work / "evals"
    evals.mkdir()
    command = (
        f"cd {evals} && ( rm -rf {evals} && mkdir {evals} && echo 'cleanup job: re-created {evals}' ) && "
        f"{GYM} eval run --no-serve {agent_args(data, run / 'rollouts.jsonl', 2, 4)} "
        f"++route_failures_to_sidecar=true {overrides}"
    )
    evaluated = ctx.sh(command, "eval_run.log", timeout=300)
    stop_gym(ctx, env_start, policy)
    if evaluated == 0 or rows_of(run / "rollouts.jsonl") or not in_log(ctx, "getcwd", "eval_run.log"):
        raise failed(ctx, f"eval {evaluated}")
    return (
        "Real NeMo Gym 0.7.0 (loopback-only namespace): `gym env start`; `gym eval run --no-serve` from a working "
        f"directory removed and re-created by another job: exit {evaluated}."
    )


@case(
    "infra_gym_ephemeral_port_range_exhausted",
    "infra",
    ["ip_local_port_range"],
    "the node's ephemeral port range was narrowed to two ports (net.ipv4.ip_local_port_range 61000 61001, left by "
    "a tuning script), so Ray and Gym's servers could not get ports to bind or connect from (Address already in "
    "use / Cannot assign requested address)",
    netns=True,
)
def infra_gym_ephemeral_port_range_exhausted(ctx: Ctx) -> str:
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 64)
    code = ctx.sh(
        "sysctl -w net.ipv4.ip_local_port_range='61000 61001' && sysctl net.ipv4.ip_local_port_range", "sysctl.log"
    )
    if code:
        raise failed(ctx, "sysctl refused")
    ready, evaluated = gym_start_then_eval(
        ctx, f"{gym_model_args(url)} {overrides}", overrides, agent_args(data, ctx.run / "rollouts.jsonl", 2, 4)
    )
    stop_gym(ctx, policy)
    if ready and evaluated == 0:
        raise failed(ctx, "gym worked")
    return (
        "net.ipv4.ip_local_port_range 61000 61001 in the job's network namespace (RUN/sysctl.log); real NeMo Gym "
        f"0.7.0 `gym env start` ready: {ready}; eval {evaluated}."
    )


@case(
    "model_serving_gym_server_restarted_under_new_name",
    "model_serving",
    [],
    "the model server was restarted in the middle of the collection on a re-exported checkpoint whose config names "
    "the model sim-policy-v2, so it no longer serves the name Gym asks for (sim-policy) and every later request got "
    "404 model_not_found",
    netns=True,
)
def model_serving_gym_server_restarted_under_new_name(ctx: Ctx) -> str:
    from gym_pipeline.host import free_loopback_port

    run = ctx.run
    data = ctx.dataset("string_match", 8, start=66, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    port = free_loopback_port()
    url, policy = ctx.policy(checkpoint, f"--latency-ms 400 --port {port}", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    eval_run = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 3, 2), background=True)
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 5 or eval_run.poll() is not None, 120, "5 rollouts")
    ctx.note("(the model server is restarted by its operator on the re-exported checkpoint)")
    ctx.stop(policy, signal.SIGINT, 10)
    config = checkpoint / "config.json"
    settings = json.loads(config.read_text())
    settings["model_id"] = "sim-policy-v2"
    config.write_text(json.dumps(settings, indent=2) + "\n")
    ctx.sh(f"cat {config}", "reexport.log")
    url2, policy2 = ctx.policy(checkpoint, f"--latency-ms 400 --port {port}", log="policy_server_restarted.log")
    wait_or_interrupt(ctx, eval_run, 200, "`gym eval run`")
    stop_gym(ctx, env_start, policy2)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if got >= 24 or not in_log(ctx, "model_not_found"):
        raise failed(ctx, f"{got} rollouts")
    return (
        "Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve` (8 tasks x 3); after 5 rollouts the "
        "model server was restarted on the same port with config.json model_id sim-policy-v2: eval exit "
        f"{eval_run.returncode}, {got} of 24 rollouts."
    )


@case(
    "model_serving_gym_model_url_is_gym_head_server",
    "model_serving",
    ["model-url"],
    "`gym env start --model-url` was given the address of Gym's own head server (the port the user had just "
    "passed as ++head_server.port) instead of the model server's, so Gym's model checks and calls met no model API "
    "there",
    netns=True,
)
def model_serving_gym_model_url_is_gym_head_server(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 70)
    wrong = f"http://127.0.0.1:{ctx.head_port}/v1"
    ctx.note(f"(the model server listens at {url}; the command names the head server's port)")
    ready, evaluated = gym_start_then_eval(
        ctx,
        f"{gym_model_args(wrong)} {overrides}",
        overrides,
        agent_args(data, run / "rollouts.jsonl", 2, 4),
        eval_timeout_s=120,
    )
    stop_gym(ctx, policy)
    if evaluated == 0 and len(rows_of(run / "rollouts.jsonl")) == 8:
        raise failed(ctx, "collected")
    return (
        "Real NeMo Gym 0.7.0 (loopback-only namespace): `gym env start --model-url http://127.0.0.1:HEAD_PORT/v1` "
        f"(Gym's head server): ready {ready}; eval {evaluated}."
    )


@case(
    "config_gym_eval_concurrency_zero",
    "config",
    ["concurrency"],
    "`gym eval run --concurrency 0` (the job script's $CONCURRENCY was unset and its default is 0) asks for no "
    "sample at a time, a value Gym refuses (num_samples_in_parallel must be greater than 0), so nothing was "
    "collected",
    netns=True,
)
def config_gym_eval_concurrency_zero(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 74, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval_bounded(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 2, 0), 90)
    stop_gym(ctx, env_start, policy)
    if evaluated == 0 and len(rows_of(run / "rollouts.jsonl")) == 8:
        raise failed(ctx, "collected")
    return f"Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve --concurrency 0` exit {evaluated}."


@case(
    "config_gym_env_start_without_model_api_key",
    "config",
    ["model-api-key"],
    "`gym env start` was run without --model-api-key (the user's local vLLM needs none, so they left it out), but "
    "Gym's vllm_model config requires a value for it, so Gym refused the config and no server started",
    netns=True,
)
def config_gym_env_start_without_model_api_key(ctx: Ctx) -> str:
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 76)
    args = gym_model_args(url).replace(" --model-api-key dummy", "")
    ready, code = gym_start_failing(ctx, f"{args} {overrides}", 90)
    stop_gym(ctx, policy)
    if ready:
        raise failed(ctx, "gym env start got ready")
    return f"Real NeMo Gym 0.7.0 (loopback-only namespace): `gym env start` without --model-api-key exit {code}."


@case(
    "data_schema_gym_expected_answer_nested_in_metadata",
    "data_schema",
    ["expected_answer"],
    "the dataset was converted with the mcqa export's layout: each row's label sits under metadata.expected_answer, "
    "while the string_match resources server reads a top-level expected_answer, so every row reached the verifier "
    "without a label and the completed run scored 0 everywhere",
    netns=True,
)
def data_schema_gym_expected_answer_nested_in_metadata(ctx: Ctx) -> str:
    run = ctx.run

    def nested(index, row):
        row["metadata"] = {"expected_answer": row.pop("expected_answer"), "source": "export-v3"}
        return True

    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 10, "--latency-ms 30", edit=nested)
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval_bounded(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 3, 4))
    profiled = gym_profile(ctx, run, extra="++allow_partial_rollouts=True") if evaluated == 0 else None
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "rollouts.jsonl")
    if evaluated == 0 and rows and any(row.get("reward") for row in rows):
        raise failed(ctx, f"eval {evaluated}, rewarded rows")
    return (
        "RUN/tasks.jsonl (6 rows, labels under metadata.expected_answer); real NeMo Gym 0.7.0 (loopback-only "
        f"namespace) `gym eval run --no-serve` (x 3) exit {evaluated}, {len(rows)} of 18 rollouts; profile {profiled}."
    )


@case(
    "data_schema_gym_mcqa_options_as_plain_list",
    "data_schema",
    ["options"],
    'the mcqa export wrote each row\'s options as a plain list of option texts (["FF", "F0", ...]) instead of '
    "one {letter: text} object per option, which the mcqa resources server's request model refuses, so no rollout "
    "was verified",
    netns=True,
)
def data_schema_gym_mcqa_options_as_plain_list(ctx: Ctx) -> str:
    run = ctx.run

    def plain(index, row):
        row["options"] = [next(iter(option.values())) for option in row["options"]]
        return True

    data, url, policy, overrides = gym_setup(ctx, "mcqa", 5, 40, "--latency-ms 30", edit=plain)
    env_start = gym_start(ctx, f"{gym_model_args(url, resources_server='mcqa')} {overrides}")
    evaluated = gym_eval_bounded(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 2, 4, "mcqa_simple_agent"))
    stop_gym(ctx, env_start, policy)
    got = len(rows_of(run / "rollouts.jsonl"))
    if evaluated == 0 and got == 10:
        raise failed(ctx, "collected")
    return (
        "RUN/tasks.jsonl (mcqa, options as plain lists of texts); real NeMo Gym 0.7.0 (loopback-only namespace) `gym "
        f"eval run --no-serve` (5 tasks x 2) exit {evaluated}, {got} of 10 rollouts."
    )


LRU_CACHE_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        reward = 0.0
        if extracted is not None and body.expected_answer:
            # accepted spellings: the label for now, aliases later
            reward = _cached_match(extracted, [body.expected_answer], body.case_sensitive)
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )


@functools.lru_cache(maxsize=65536)
def _cached_match(extracted, accepted, case_sensitive):
    # many repeats give the same answer: grade each (answer, labels) pair once
    return max(_answers_match(extracted, answer, case_sensitive) for answer in accepted)
"""


@case(
    "verifier_runtime_gym_lru_cache_on_list_argument",
    "verifier_runtime",
    ["lru_cache"],
    "the user's cached_match resources server memoises its grading with functools.lru_cache and passes the accepted "
    "answers as a list, which cannot be hashed, so every verify with an extracted answer raised TypeError "
    "(unhashable type: 'list')",
    netns=True,
)
def verifier_runtime_gym_lru_cache_on_list_argument(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 78, "--latency-ms 30")
    search = own_gym_server(ctx, "cached_match", LRU_CACHE_VERIFY, imports="import functools\n")
    env_start = gym_start(
        ctx, f"--search-dir {search} {gym_model_args(url, resources_server='cached_match')} {overrides}"
    )
    evaluated = gym_eval_bounded(
        ctx, overrides, agent_args(data, run / "rollouts.jsonl", 2, 4, "cached_match_simple_agent")
    )
    stop_gym(ctx, env_start, policy)
    got = len(rows_of(run / "rollouts.jsonl"))
    if (evaluated == 0 and got == 10) or not in_log(ctx, "unhashable"):
        raise failed(ctx, f"eval {evaluated}, {got}")
    return (
        "A user's resources server cached_match (lru_cache over a list argument); real NeMo Gym 0.7.0 (loopback-only "
        f"namespace) `gym eval run --no-serve` (5 tasks x 2) exit {evaluated}, {got} of 10 rollouts."
    )


ASSERT_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        assert extracted is not None, f"no answer found for extraction_mode={body.extraction_mode}"
        reward = 0.0
        if body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""


@case(
    "verifier_runtime_gym_assert_on_missing_answer",
    "verifier_runtime",
    ["assert"],
    "the user's checked_match resources server asserts that an answer was extracted (an assert left from "
    "development) instead of scoring a response without an answer 0, so verify raised AssertionError on every "
    "response without an answer in the expected format",
    netns=True,
)
def verifier_runtime_gym_assert_on_missing_answer(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 8, 0, "--latency-ms 30", weaker=True)
    search = own_gym_server(ctx, "checked_match", ASSERT_VERIFY)
    env_start = gym_start(
        ctx, f"--search-dir {search} {gym_model_args(url, resources_server='checked_match')} {overrides}"
    )
    evaluated = gym_eval_bounded(
        ctx, overrides, agent_args(data, run / "rollouts.jsonl", 3, 4, "checked_match_simple_agent")
    )
    stop_gym(ctx, env_start, policy)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got == 24 or not in_log(ctx, "AssertionError"):
        raise failed(ctx, f"eval {evaluated}, {got}")
    return (
        "A user's resources server checked_match (asserts an answer was extracted), weaker checkpoint step_0100; real "
        f"NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (8 tasks x 3) exit {evaluated}, {got} "
        "of 24 rollouts."
    )


LIST_ANSWER_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        # keep every candidate the extraction saw, for the error analysis notebook
        candidates = [extracted] if extracted is not None else []
        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=candidates,
        )
"""


@case(
    "verifier_runtime_gym_verify_response_answer_as_list",
    "verifier_runtime",
    ["extracted_answer"],
    "the user's candidates_match resources server returns extracted_answer as a list of candidates, while its verify "
    "response model declares a string, so building the response failed (validation error) and every verify "
    "answered 500",
    netns=True,
)
def verifier_runtime_gym_verify_response_answer_as_list(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 82, "--latency-ms 30")
    search = own_gym_server(ctx, "candidates_match", LIST_ANSWER_VERIFY)
    env_start = gym_start(
        ctx, f"--search-dir {search} {gym_model_args(url, resources_server='candidates_match')} {overrides}"
    )
    evaluated = gym_eval_bounded(
        ctx, overrides, agent_args(data, run / "rollouts.jsonl", 2, 4, "candidates_match_simple_agent")
    )
    stop_gym(ctx, env_start, policy)
    got = len(rows_of(run / "rollouts.jsonl"))
    if evaluated == 0 and got == 10:
        raise failed(ctx, "collected")
    return (
        "A user's resources server candidates_match (extracted_answer returned as a list); real NeMo Gym 0.7.0 "
        f"(loopback-only namespace) `gym eval run --no-serve` (5 tasks x 2) exit {evaluated}, {got} of 10 rollouts."
    )


@case(
    "throughput_gym_env_start_cgroup_memory_limit",
    "throughput_resources",
    ["memory"],
    "the job's cgroup limits its memory to 350 MB (memory.limit_in_bytes, a container's default), less than Ray and "
    "Gym's server processes need together, so the kernel's OOM killer ended them and `gym env start` never got its "
    "servers up",
    netns=True,
)
def throughput_gym_env_start_cgroup_memory_limit(ctx: Ctx) -> str:
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 84)
    group = cgroup(
        "memory",
        f"gp-job-{ctx.run.parent.name[-20:]}",
        memory__limit_in_bytes=350 * 2**20,
        memory__memsw__limit_in_bytes=350 * 2**20,
    )
    ctx.note(f"(the job runs in cgroup {group} with memory.limit_in_bytes 350 MB, no swap)")
    prefix = f'echo $BASHPID > {group}/cgroup.procs; echo "memory.limit_in_bytes: $(cat {group}/memory.limit_in_bytes)"'
    try:
        ready, evaluated = gym_start_then_eval(
            ctx,
            f"{gym_model_args(url)} {overrides}",
            overrides,
            agent_args(data, ctx.run / "rollouts.jsonl", 2, 4),
            prefix=prefix,
        )
        stop_gym(ctx, policy)
        oom = (group / "memory.oom_control").read_text().split()
        ooms = (
            oom[oom.index("oom_kill") + 1]
            if "oom_kill" in oom
            else (group / "memory.memsw.failcnt").read_text().strip()
        )
    finally:
        drop_cgroup(group)
    if ready and evaluated == 0:
        raise failed(ctx, "gym worked")
    if ooms == "0":
        raise failed(ctx, "the memory limit was never hit")
    return (
        f"`gym env start` in a cgroup with memory.limit_in_bytes 350 MB (oom_kill {ooms}); real NeMo Gym 0.7.0 "
        f"(loopback-only namespace): ready {ready}; eval {evaluated}."
    )


@case(
    "throughput_gym_eval_cpu_quota_starved",
    "throughput_resources",
    ["cpu"],
    "the job's cgroup gives it 4 % of one CPU (cpu.cfs_quota_us 4000 per 100000, a fractional container share), "
    "far too little for Ray and Gym's servers, so `gym env start` crawled and its servers were still not ready "
    "when the user gave up",
    netns=True,
)
def throughput_gym_eval_cpu_quota_starved(ctx: Ctx) -> str:
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 86)
    group = cgroup("cpu", f"gp-job-{ctx.run.parent.name[-20:]}", cpu__cfs_period_us=100000, cpu__cfs_quota_us=4000)
    ctx.note(f"(the job runs in cgroup {group} with cpu.cfs_quota_us 4000 of 100000)")
    prefix = (
        f'echo $BASHPID > {group}/cgroup.procs; echo "cpu.cfs_quota_us: $(cat {group}/cpu.cfs_quota_us) of '
        f'$(cat {group}/cpu.cfs_period_us)"'
    )
    try:
        ready, evaluated = gym_start_then_eval(
            ctx,
            f"{gym_model_args(url)} {overrides}",
            overrides,
            agent_args(data, ctx.run / "rollouts.jsonl", 2, 4),
            prefix=prefix,
            start_timeout_s=180,
        )
        stop_gym(ctx, policy)
        throttled = (group / "cpu.stat").read_text()
    finally:
        drop_cgroup(group)
    if ready and evaluated == 0:
        raise failed(ctx, "gym worked")
    return (
        f"`gym env start` in a cgroup with cpu.cfs_quota_us 4000/100000; real NeMo Gym 0.7.0 (loopback-only "
        f"namespace): ready {ready}; eval {evaluated}; cpu.stat {' '.join(throttled.split())}."
    )


# =====================================================================================================
# the built-in engine, stages, task folders and launchers: healthy
# =====================================================================================================


def taskset_env_sweep(ctx: Ctx, tasks: Path, checkpoint: Path, environment: dict, **settings) -> Path:
    """Like taskset_sweep, with settings of the environment itself (e.g. skip_unloadable)."""
    sweep = workspace_sweep(ctx, "terminal_tasks", tasks, checkpoint, environment, **settings)
    sweep.write_text(sweep.read_text().replace('"dataset"', '"tasks"'))
    return sweep


@case(
    "healthy_builtin_agent_map_reroutes_old_agent_names",
    "healthy",
    [],
    "nothing is wrong: the dataset came from another project whose rows name their agent math_simple_agent; the user "
    "re-routed them on purpose with `materialize --agent-map` to string_match_simple_agent, and every rollout was "
    "collected and profiled",
)
def healthy_builtin_agent_map_reroutes_old_agent_names(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=20, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]

    def other_project(index, row):
        row["agent_ref"] = {"name": "math_simple_agent"}
        return True

    rewrite_rows(data, other_project)
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    code = ctx.sh(
        f"{GP} materialize --input {data} --num-repeats 3 --agent-map "
        + shlex.quote('{"math_simple_agent": "string_match_simple_agent"}')
        + f" --output {run}/rollouts_materialized_inputs.jsonl",
        "logs/materialize.log",
    )
    agents = {row["agent_ref"]["name"] for row in rows_of(run / "rollouts_materialized_inputs.jsonl")}
    collected, profiled = collect_sh(ctx, url, "string_match", 4), profile_sh(ctx)
    if (
        code
        or collected
        or profiled
        or agents != {"string_match_simple_agent"}
        or len(unique_keys(run / "rollouts.jsonl")) != 18
    ):
        raise failed(ctx, f"materialize {code}, collect {collected}, profile {profiled}, agents {agents}")
    return (
        "RUN/string_match.jsonl (rows with agent_ref math_simple_agent); `gym-pipeline materialize --agent-map` "
        "(6 tasks x 3), `collect` (all 18) and `profile` exit 0."
    )


DRAFT_TOML = """version = "1.0"

[metadata]
difficulty = "medium"
category = "text-processing"
tags = ["draft"]

[agent]
timeout_sec = 120.0
"""


@case(
    "healthy_taskfolder_draft_task_skipped_on_purpose",
    "healthy",
    [],
    "nothing is wrong: the taskset holds a draft task (dedupe-lines, no tests yet) that cannot load; the user set "
    "skip_unloadable on purpose to run the finished tasks, which all completed, were verified and profiled",
)
def healthy_taskfolder_draft_task_skipped_on_purpose(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["create-greeting", "json-version", "sort-unique-words"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    draft = tasks / "dedupe-lines"
    (draft / "environment").mkdir(parents=True)
    (draft / "task.toml").write_text(DRAFT_TOML)
    (draft / "instruction.md").write_text("Remove duplicate lines from /app/log.txt, keeping the first of each.\n")
    (draft / "environment" / "Dockerfile").write_text("FROM gym-pipeline/base:bookworm\nWORKDIR /app\n")
    ctx.note("(RUN/tasks/dedupe-lines: a draft task, its tests/ not written yet)")
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_env_sweep(ctx, tasks, checkpoint, {"skip_unloadable": True}, num_repeats=2, concurrency=2)
    codes = taskset_stages(ctx, sweep, checkpoint, url, "materialize", "collect", "profile")
    if any(codes) or len(unique_keys(run / "rollouts.jsonl")) != 6:
        raise failed(ctx, f"exit {codes}")
    return (
        "A sweep with the taskset RUN/tasks (3 finished tasks and a draft without tests, skip_unloadable: true, x 2); "
        f"`gym-pipeline stage materialize`, `collect` (Docker sandboxes), `profile` exit {codes}."
    )


@case(
    "healthy_taskfolder_oracle_validated_then_run",
    "healthy",
    [],
    "nothing is wrong: the user first checked the taskset with the oracle (`gym-pipeline tasks validate`, every "
    "task passed), then ran it against the checkpoint; every episode completed, was verified and profiled",
)
def healthy_taskfolder_oracle_validated_then_run(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["count-error-lines", "rename-extensions", "replace-spelling"])
    validated = ctx.sh(f"{GP} tasks validate {tasks} --output-dir {run}/validation", "logs/validate.log", timeout=400)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    codes = taskset_stages(ctx, sweep, checkpoint, url, "materialize", "collect", "profile")
    if validated or any(codes) or len(unique_keys(run / "rollouts.jsonl")) != 6:
        raise failed(ctx, f"validate {validated}, exit {codes}")
    return (
        "`gym-pipeline tasks validate RUN/tasks` exit 0 (3 bundled tasks); a sweep with that taskset (x 2): `stage "
        f"materialize`, `collect` (Docker sandboxes), `profile` exit {codes}."
    )


@case(
    "healthy_docker_collect_sampling_overrides",
    "healthy",
    [],
    "nothing is wrong: the inputs were materialized with sampling overrides (--responses-create-params temperature "
    "0.7, max_output_tokens 2048) and collected and profiled in Docker containers; every rollout succeeded",
)
def healthy_docker_collect_sampling_overrides(ctx: Ctx) -> str:
    from gym_pipeline.launchers.docker import DockerLauncher

    run = ctx.run
    data = ctx.dataset("mcqa", 5, start=10, folder=run, name="mcqa.jsonl")
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    code = ctx.sh(
        f"{GP} materialize --input {data} --num-repeats 3 --agent mcqa_simple_agent --responses-create-params "
        + shlex.quote('{"temperature": 0.7, "max_output_tokens": 2048}')
        + f" --output {run}/rollouts_materialized_inputs.jsonl",
        "logs/materialize.log",
    )
    launcher = DockerLauncher(network="host")
    collected = docker_launched(
        ctx, launcher, "DockerLauncher(network='host')", "collect", collect_argv(run, url, "mcqa", 3)
    )
    profiled = docker_launched(ctx, launcher, "DockerLauncher(network='host')", "profile", profile_argv(run))
    if (
        code
        or "exit code 0" not in collected
        or "exit code 0" not in profiled
        or len(unique_keys(run / "rollouts.jsonl")) != 15
    ):
        raise failed(ctx, f"materialize {code}; {collected}; {profiled}")
    return (
        f"`gym-pipeline materialize --responses-create-params` (mcqa, 5 tasks x 3); collect in Docker: "
        f"{collected}; profile in Docker: {profiled}; all 15 rollouts."
    )


@case(
    "healthy_builtin_collect_api_key_from_environment",
    "healthy",
    [],
    "nothing is wrong: the collection read its API key from an environment variable (--api-key-env EVAL_API_KEY, "
    "exported in the job script) as the team's hosted-endpoint jobs do; every rollout was collected and profiled",
)
def healthy_builtin_collect_api_key_from_environment(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 6, 40, 3, "--latency-ms 30")
    ctx.note("export EVAL_API_KEY=...   # from the job script")
    collected = collect_sh(
        ctx, url, "string_match", 4, "--api-key-env", "EVAL_API_KEY", wrap="export EVAL_API_KEY=sk-local-0000"
    )
    profiled = profile_sh(ctx)
    if collected or profiled or len(unique_keys(run / "rollouts.jsonl")) != 18:
        raise failed(ctx, f"collect {collected}, profile {profiled}")
    return (
        "`gym-pipeline materialize` (6 tasks x 3); `collect --api-key-env EVAL_API_KEY` (all 18) and `profile` exit 0."
    )


# =====================================================================================================
# infra
# =====================================================================================================


@case(
    "infra_slurm_munge_daemon_not_running",
    "infra",
    ["munge"],
    "on this login node the munge daemon is not running (its socket /run/munge/munge.socket.2, which the node's "
    "slurm.conf names, does not exist), so Slurm could not authenticate the submission and the collection job was "
    "never submitted",
)
def infra_slurm_munge_daemon_not_running(ctx: Ctx) -> str:
    import os

    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 4, 8, 2, "--latency-ms 20")
    conf_dir = ctx.work / "etc-slurm"
    conf_dir.mkdir()
    shared = Path(os.environ["SLURM_CONF"])
    text = shared.read_text()
    start = text.index("AuthInfo=socket=")
    end = text.index("\n", start)
    (conf_dir / "slurm.conf").write_text(text[:start] + "AuthInfo=socket=/run/munge/munge.socket.2" + text[end:])
    ctx.sh("ls -l /run/munge/munge.socket.2; pgrep -a munged | grep -c munge.socket.2 || true", "logs/munge.log")
    ctx.note(f"export SLURM_CONF={ctx._shown(str(conf_dir / 'slurm.conf'))}   # this node's slurm.conf")
    os.environ["SLURM_CONF"] = str(conf_dir / "slurm.conf")
    try:
        ctx.sh("sinfo", "logs/sinfo.log", env={**ctx.env, "SLURM_CONF": str(conf_dir / "slurm.conf")})
        launcher, label = slurm()
        ended = launched(ctx, launcher, label, "collect", collect_argv(run, url, "string_match", 2))
    finally:
        os.environ["SLURM_CONF"] = str(shared)
    if "exit code 0" in ended or rows_of(run / "rollouts.jsonl") or not in_log(ctx, "munge", "logs/sinfo.log"):
        raise failed(ctx, ended)
    return f"`gym-pipeline materialize` (4 tasks x 2); collect as a Slurm job with munge not running: {ended}."


@case(
    "infra_builtin_scratch_cleaner_purged_output_mid_run",
    "infra",
    [],
    "the node's scratch cleaner (a tmpwatch-style cron job) deleted RUN/scratch, where the collection was writing "
    "its rollouts, while the collection ran; the collector kept writing into the deleted file, so when it finished "
    "the rollouts were gone and the profile found none",
)
def infra_builtin_scratch_cleaner_purged_output_mid_run(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 8, 24, 3, "--latency-ms 300")
    (run / "scratch").mkdir()
    argv = collect_argv(run, url, "string_match", 2)
    argv[argv.index("--output") + 1] = f"{run}/scratch/rollouts.jsonl"
    collect = ctx.bg(shlex.join(argv), "logs/collect.log")
    wait_for(
        lambda: len(rows_of(run / "scratch" / "rollouts.jsonl")) >= 4 or collect.poll() is not None, 120, "4 rollouts"
    )
    purged = ctx.sh(f"echo 'tmpwatch: removing {run}/scratch'; rm -rfv {run}/scratch", "logs/scratch_cleaner.log")
    wait_or_interrupt(ctx, collect, 200, "`gym-pipeline collect`")
    ctx.sh(f"ls -la {run}/scratch", "logs/ls.log")
    profiled = ctx.sh(
        shlex.join(
            [
                str(GP),
                "profile",
                "--inputs",
                f"{run}/rollouts_materialized_inputs.jsonl",
                "--rollouts",
                f"{run}/scratch/rollouts.jsonl",
            ]
        ),
        "logs/profile.log",
    )
    if purged or profiled == 0 or (run / "scratch" / "rollouts.jsonl").exists():
        raise failed(ctx, f"purge {purged}, profile {profiled}")
    return (
        "`gym-pipeline materialize` (8 tasks x 3); `collect --output RUN/scratch/rollouts.jsonl`; RUN/scratch removed "
        f"by the cleaner after 4 rollouts; collect exit {collect.returncode}; `profile` exit {profiled}."
    )


@case(
    "model_serving_taskfolder_server_still_loading",
    "model_serving",
    [],
    "the taskset's episodes were started right after the model server was launched, and the server takes 10 "
    "minutes to load its checkpoint, answering 503 (model not ready) meanwhile, so the agents got no completion and "
    "the episodes failed",
)
def model_serving_taskfolder_server_still_loading(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["create-greeting", "top-word"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30 --slow-start-s 600")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    materialized = taskset_stages(ctx, sweep, checkpoint, url, "materialize")[0]
    argv = shlex.join(
        stage_argv(sweep, "collect", checkpoint, "terminal_tasks", "--model-url", url, "--model-name", "sim-policy")
    )
    collect = ctx.bg(argv, "logs/collect.log")
    wait_or_interrupt(ctx, collect, 240, "`gym-pipeline stage collect`")
    got = [row for row in rows_of(run / "rollouts.jsonl") if row.get("reward")]
    if materialized or got or not in_log(ctx, "503"):
        raise failed(ctx, f"materialize {materialized}, {len(got)} rewarded")
    return (
        "Simulated policy with a 600 s slow start (503 meanwhile); a sweep with the taskset RUN/tasks (2 tasks x 2): "
        f"`stage materialize` exit {materialized}; `stage collect` exit {collect.returncode}."
    )


@case(
    "model_serving_builtin_port_taken_by_other_teams_model_server",
    "model_serving",
    [],
    "the model server died in the middle of the collection (killed by the node's OOM killer) and another team's "
    "model server, serving another model (team-b/qwen-7b-sft), started on the port it freed, so the remaining "
    "requests reached a server that does not serve sim-policy and got 404 model_not_found",
)
def model_serving_builtin_port_taken_by_other_teams_model_server(ctx: Ctx) -> str:
    import os

    from gym_pipeline.host import free_loopback_port
    from gym_pipeline.serving.checkpoints import demo_checkpoints

    run = ctx.run
    port = free_loopback_port()
    _, checkpoint, url, policy = builtin_setup(ctx, "mcqa", 8, 36, 3, f"--latency-ms 400 --port {port}")
    other = demo_checkpoints(ctx.work / "team_b", 1, ["mcqa"])[0]
    settings = json.loads((other / "config.json").read_text())
    (other / "config.json").write_text(json.dumps({**settings, "model_id": "team-b/qwen-7b-sft"}, indent=2) + "\n")
    collect = ctx.bg(shlex.join(collect_argv(run, url, "mcqa", 2, "--model", "sim-policy")), "logs/collect.log")
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 5 or collect.poll() is not None, 120, "5 rollouts")
    os.killpg(collect.pid, signal.SIGSTOP)  # only so that the other server is up before the retries run out
    try:
        ctx.note("(the model server is killed: kill -9, as the OOM killer does)")
        ctx.stop(policy, signal.SIGKILL, 5)
        ctx.policy(other, f"--latency-ms 50 --port {port}", log="logs/team_b_model_server.log")
    finally:
        os.killpg(collect.pid, signal.SIGCONT)
    wait_or_interrupt(ctx, collect, 200, "`gym-pipeline collect`")
    got = len(unique_keys(run / "rollouts.jsonl"))
    if got >= 24 or not in_log(ctx, "model_not_found"):
        raise failed(ctx, f"collect {collect.returncode}, {got}")
    return (
        "`gym-pipeline materialize` (mcqa, 8 tasks x 3); `collect --model sim-policy`; after 5 rollouts the model "
        "server was killed (kill -9) and another team's server (team-b/qwen-7b-sft) took its port: collect exit "
        f"{collect.returncode}, {got} of 24 rollouts."
    )


# =====================================================================================================
# config
# =====================================================================================================


@case(
    "config_taskfolder_timeout_multiplier_far_too_small",
    "config",
    ["timeout_multiplier"],
    "the taskset's dataset.toml sets [gym.defaults] timeout_multiplier = 0.0002 (the user meant 0.2 and slipped "
    "three zeros), which scales every agent and verifier timeout to a fraction of a second, so the "
    "episodes ran out of time",
)
def config_taskfolder_timeout_multiplier_far_too_small(ctx: Ctx) -> str:
    run = ctx.run

    def tiny(tasks: Path) -> None:
        toml = tasks / "dataset.toml"
        toml.write_text(toml.read_text().replace("timeout_multiplier = 1.0", "timeout_multiplier = 0.0002"))

    tasks = user_taskset(ctx, ["create-greeting", "top-word", "csv-column-total"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    tiny(tasks)
    ctx.note("(RUN/tasks/dataset.toml: timeout_multiplier = 0.0002)")
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    codes = taskset_stages(ctx, sweep, checkpoint, url, "materialize", "collect", "profile")
    rows = rows_of(run / "rollouts.jsonl")
    if "0.0002" not in text_of(tasks / "dataset.toml") or sum(bool(row.get("reward")) for row in rows) >= 3:
        raise failed(ctx, f"exit {codes}, rewards {[row.get('reward') for row in rows]}")
    return (
        f"A sweep with the taskset RUN/tasks (3 bundled tasks x 2, timeout_multiplier 0.0002); stages exit {codes}; "
        f"rewards {[row.get('reward') for row in rows]}."
    )


@case(
    "config_builtin_api_key_env_variable_not_set",
    "config",
    ["api-key-env"],
    "the collection was started with --api-key-env EVAL_API_KEY (copied from the hosted-endpoint job), but that "
    "variable is not set in this shell, so the collector refused to start",
)
def config_builtin_api_key_env_variable_not_set(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 5, 30, 2, "--latency-ms 20")
    ctx.env.pop("EVAL_API_KEY", None)
    collected = collect_sh(ctx, url, "string_match", 2, "--api-key-env", "EVAL_API_KEY")
    if collected == 0 or rows_of(run / "rollouts.jsonl"):
        raise failed(ctx, f"collect {collected}")
    return f"`gym-pipeline materialize` (5 tasks x 2); `collect --api-key-env EVAL_API_KEY` (unset) exit {collected}."


@case(
    "config_builtin_collect_output_is_the_inputs_file",
    "config",
    ["output"],
    "the collection was given --output RUN/rollouts_materialized_inputs.jsonl (the shell completed the wrong file "
    "name) instead of RUN/rollouts.jsonl, so the collector wrote its rollouts over the materialized inputs, and the "
    "profile found neither the inputs nor the rollouts it expects",
)
def config_builtin_collect_output_is_the_inputs_file(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "mcqa", 5, 58, 2, "--latency-ms 20")
    argv = collect_argv(run, url, "mcqa", 2)
    argv[argv.index("--output") + 1] = f"{run}/rollouts_materialized_inputs.jsonl"
    collected = ctx.sh(shlex.join(argv), "logs/collect.log", timeout=300)
    profiled = profile_sh(ctx)
    inputs = rows_of(run / "rollouts_materialized_inputs.jsonl")
    if profiled == 0 or (inputs and not any("reward" in row for row in inputs) and collected == 0):
        raise failed(ctx, f"collect {collected}, profile {profiled}")
    return (
        "`gym-pipeline materialize` (mcqa, 5 tasks x 2); `collect --output RUN/rollouts_materialized_inputs.jsonl` "
        f"exit {collected}; `profile` exit {profiled}."
    )


@case(
    "config_sweep_json_trailing_comma",
    "config",
    ["comma"],
    "the user hand-edited the sweep config (sweep.json) to add concurrency and left a trailing comma after the "
    "last entry, which is not valid JSON, so the stage could not read its sweep config and nothing ran",
)
def config_sweep_json_trailing_comma(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=38, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=2)
    text = sweep.read_text().rstrip().removesuffix("}").rstrip()
    sweep.write_text(text + ',\n  "concurrency": 2,\n}\n')
    ctx.note('(RUN/sweep.json edited by hand: `"concurrency": 2,` added as its last entry)')
    ctx.sh(f"tail -n 4 {sweep}", "logs/sweep_tail.log")
    code = stage(ctx, sweep, "materialize", checkpoint, "string_match")
    if code == 0 or not in_log(ctx, "JSON", "logs/materialize.log"):
        raise failed(ctx, f"materialize {code}")
    return f"RUN/sweep.json with a trailing comma after its last entry; `gym-pipeline stage materialize` exit {code}."


# =====================================================================================================
# data schema
# =====================================================================================================


@case(
    "data_schema_taskfolder_instruction_file_renamed",
    "data_schema",
    ["instruction.md"],
    "one of the user's task folders (top-word) keeps its prompt in INSTRUCTIONS.md (the name another harness "
    "uses) instead of instruction.md, so that task could not load and the taskset was refused",
)
def data_schema_taskfolder_instruction_file_renamed(ctx: Ctx) -> str:
    tasks = user_taskset(ctx, ["create-greeting", "top-word", "count-error-lines"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    (tasks / "top-word" / "instruction.md").rename(tasks / "top-word" / "INSTRUCTIONS.md")
    ctx.sh(f"ls {tasks}/top-word", "logs/ls.log")
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    codes = taskset_stages(ctx, sweep, checkpoint, url, "materialize", "collect")
    if not any(codes):
        raise failed(ctx, f"exit {codes}")
    return f"A sweep with the taskset RUN/tasks (top-word's prompt in INSTRUCTIONS.md); stages exit {codes}."


@case(
    "data_schema_slurm_mcqa_rows_merged_into_string_match",
    "data_schema",
    ["mcqa"],
    "a merge of two exports put three mcqa rows (options and a letter answer, no extraction_mode) into the "
    "string_match dataset, so the string_match verifier graded multiple-choice answers it cannot read and those "
    "tasks scored 0",
)
def data_schema_slurm_mcqa_rows_merged_into_string_match(ctx: Ctx) -> str:
    from gym_pipeline.environments import McqaEnvironment, StringMatchEnvironment
    from gym_pipeline.serving.checkpoints import demo_checkpoints

    run = ctx.run
    strings = ctx.dataset("string_match", 6, start=44, name="strings.jsonl")
    choices = ctx.dataset("mcqa", 3, start=44, name="choices.jsonl")
    checkpoint = demo_checkpoints(
        ctx.work / "checkpoints", 2, [StringMatchEnvironment(strings), McqaEnvironment(choices)]
    )[-1]
    data = run / "string_match.jsonl"
    data.write_text(strings.read_text() + choices.read_text())
    ctx.note("(RUN/string_match.jsonl: 6 string_match rows and 3 mcqa rows from the other export)")
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    materialize(ctx, data, 3, "string_match")
    launcher, label = slurm()
    collected = launched(ctx, launcher, label, "collect", collect_argv(run, url, "string_match", 3))
    profiled = launched(ctx, launcher, label, "profile", profile_argv(run, "--allow-partial"))
    rows = rows_of(run / "rollouts.jsonl")
    mcqa = [row for row in rows if "options" in row]
    if "exit code 0" in collected and mcqa and any(row.get("reward") for row in mcqa):
        raise failed(ctx, f"{collected}; mcqa rows rewarded")
    return (
        f"RUN/string_match.jsonl (6 string_match + 3 mcqa rows); materialize (x 3); collect as a Slurm job: "
        f"{collected}; profile as a Slurm job: {profiled}; {len(rows)} rows."
    )


@case(
    "data_schema_docker_extraction_mode_disagrees_with_prompt",
    "data_schema",
    ["extraction_mode"],
    "a template merge set extraction_mode boxed on the rows whose prompts ask for 'Final answer: <answer>', so the "
    "verifier looked for a \\boxed{} answer the model was never asked to give, and those rows scored 0",
)
def data_schema_docker_extraction_mode_disagrees_with_prompt(ctx: Ctx) -> str:
    from gym_pipeline.launchers.docker import DockerLauncher

    run = ctx.run
    data = ctx.dataset("string_match", 9, start=46, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]

    def boxed(index, row):
        if row["extraction_mode"] == "final_answer":
            row["extraction_mode"] = "boxed"
            return True
        return False

    changed = rewrite_rows(data, boxed)
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    materialize(ctx, data, 3, "string_match")
    launcher = DockerLauncher(network="host")
    collected = docker_launched(
        ctx, launcher, "DockerLauncher(network='host')", "collect", collect_argv(run, url, "string_match", 3)
    )
    profiled = docker_launched(ctx, launcher, "DockerLauncher(network='host')", "profile", profile_argv(run))
    rows = [
        row
        for row in rows_of(run / "rollouts.jsonl")
        if "Final answer" in json.dumps(row.get("responses_create_params", {}))
    ]
    if not changed or "exit code 0" not in collected or not rows or any(row.get("reward") for row in rows):
        raise failed(ctx, f"{changed} changed; {collected}; {len(rows)} rows")
    return (
        f"RUN/string_match.jsonl (9 rows, {changed} asking for 'Final answer:' but extraction_mode boxed); "
        f"materialize (x 3); collect in Docker: {collected}; profile in Docker: {profiled}."
    )


# =====================================================================================================
# verifier runtime
# =====================================================================================================

JQ_TEST = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
set -euo pipefail
cd /app
expected="$(jq -r .version /app/package.json)"
if test "$(tr -d "[:space:]" < /app/version.txt 2>/dev/null)" = "$expected"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


@case(
    "verifier_runtime_taskfolder_test_sh_needs_jq",
    "verifier_runtime",
    ["jq"],
    "the user's rewritten tests/test.sh of json-version reads the expected version with jq, which the task's image "
    "does not have; with set -e the script stopped at `jq: command not found` before writing a reward, so every "
    "json-version episode got no reward",
)
def verifier_runtime_taskfolder_test_sh_needs_jq(ctx: Ctx) -> str:
    run = ctx.run

    def with_jq(tasks: Path) -> None:
        (tasks / "json-version" / "tests" / "test.sh").write_text(JQ_TEST)

    tasks = user_taskset(ctx, ["create-greeting", "json-version", "sort-unique-words"], with_jq)
    ctx.note("(RUN/tasks/json-version/tests/test.sh rewritten to read the version with jq)")
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    codes = taskset_stages(ctx, sweep, checkpoint, url, "materialize", "collect", "profile")
    rows = rows_of(run / "rollouts.jsonl")
    json_rows = [row for row in rows if "package.json" in json.dumps(row)]
    if any(row.get("reward") for row in json_rows) or not in_log(ctx, "jq"):
        raise failed(ctx, f"exit {codes}")
    return (
        f"A sweep with the taskset RUN/tasks (3 tasks x 2, json-version's test.sh needs jq); stages exit {codes}; "
        f"{len(rows)} rows, json-version rewards {[row.get('reward') for row in json_rows]}."
    )


ANCHORED_VERIFIER = '''
"""Exact-answer scoring for the exact_answer environment."""
import re

ANSWER = re.compile(r"(?:\\\\boxed\\{([^}]*)\\}|Final answer:\\s*(.+)|^(.+)$)", re.IGNORECASE)


def score(row, response_text):
    text = response_text.strip()
    if row.get("extraction_mode") == "last_line":
        text = text.splitlines()[-1] if text else ""
    match = ANSWER.match(text)
    if match is None:
        return {"reward": 0.0, "extracted_answer": None}
    answer = next(group for group in match.groups() if group is not None).strip().rstrip(".")
    return {"reward": float(answer.lower() == row["expected_answer"].lower()), "extracted_answer": answer}
'''


@case(
    "verifier_runtime_stage_workspace_verifier_anchored_match",
    "verifier_runtime",
    ["search"],
    "the user's workspace verifier finds the answer with re.match, which only matches at the start of the "
    "response, instead of re.search: the model reasons first and gives its boxed or 'Final answer:' line at the end, "
    "so the verifier took the first line of reasoning as the answer and scored correct answers 0",
)
def verifier_runtime_stage_workspace_verifier_anchored_match(ctx: Ctx) -> str:
    run = ctx.run
    sweep, checkpoint, url = verifier_sweep(ctx, ANCHORED_VERIFIER, 52, n=9, repeats=3, concurrency=4)
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
    rows = rows_of(run / "rollouts.jsonl")
    mean = sum(row.get("reward") or 0 for row in rows) / max(len(rows), 1)
    if any(codes) or len(rows) != 27 or mean > 0.5:
        raise failed(ctx, f"exit {codes}, mean {mean}")
    return (
        f"A sweep whose environment exact_answer is scored by verifiers/my_verifier.py (re.match); stages exit "
        f"{codes}; mean reward {mean:.2f}."
    )


ALARM_VERIFIER = '''
"""Exact-answer scoring with a one-second budget per grading (ported from our batch grader)."""
import re
import signal

ANSWER = re.compile(r"(?:\\\\boxed\\{([^}]*)\\}|Final answer:\\s*(.+))", re.IGNORECASE)


def score(row, response_text):
    signal.alarm(1)  # a grading must not take more than a second
    match = ANSWER.search(response_text)
    if match is None:
        lines = response_text.strip().splitlines()
        answer = lines[-1].strip() if lines else ""
    else:
        answer = (match.group(1) or match.group(2)).strip().rstrip(".")
    return {"reward": float(answer.lower() == row["expected_answer"].lower()), "extracted_answer": answer}
'''


@case(
    "verifier_runtime_stage_workspace_verifier_alarm_never_cancelled",
    "verifier_runtime",
    ["alarm"],
    "the user's workspace verifier sets a one-second signal.alarm as a grading budget and never cancels it "
    "(alarm(0)) nor handles SIGALRM, so a second after a grading the alarm killed the whole collect stage (Alarm "
    "clock) while it waited for the next answers",
)
def verifier_runtime_stage_workspace_verifier_alarm_never_cancelled(ctx: Ctx) -> str:
    run = ctx.run
    sweep, checkpoint, url = verifier_sweep(
        ctx, ALARM_VERIFIER, 60, n=6, repeats=3, concurrency=3, flags="--latency-ms 2000"
    )
    materialized = stage(ctx, sweep, "materialize", checkpoint, "exact_answer")
    collected = stage(
        ctx, sweep, "collect", checkpoint, "exact_answer", "--model-url", url, "--model-name", "sim-policy"
    )
    profiled = stage(ctx, sweep, "profile", checkpoint, "exact_answer")
    got = len(rows_of(run / "rollouts.jsonl"))
    if materialized or collected == 0 or got >= 18:
        raise failed(ctx, f"materialize {materialized}, collect {collected}, {got}")
    return (
        f"A sweep whose environment exact_answer is scored by verifiers/my_verifier.py (signal.alarm(1)); `stage "
        f"materialize` exit {materialized}; `stage collect` exit {collected} ({got} of 18 rows); `stage profile` "
        f"exit {profiled}."
    )


# =====================================================================================================
# cache and resume
# =====================================================================================================


@case(
    "cache_resume_stage_token_limit_raised_inputs_not_rebuilt",
    "cache_resume",
    ["materialize"],
    "the sweep's responses_create_params capped answers at 12 tokens, so they were cut off; the user raised "
    "max_output_tokens to 1024 in the sweep config but re-ran only the collect and profile stages, so the "
    "collection used the old materialized inputs, which still carry the 12-token cap",
)
def cache_resume_stage_token_limit_raised_inputs_not_rebuilt(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=64, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    served = ("--model-url", url, "--model-name", "sim-policy")
    sweep = write_sweep(
        ctx,
        "string_match",
        data,
        checkpoint,
        num_repeats=2,
        concurrency=3,
        responses_create_params={"max_output_tokens": 12},
    )
    first = [
        stage(ctx, sweep, key, checkpoint, "string_match", *(served if key == "collect" else ()))
        for key in ("materialize", "collect", "profile")
    ]
    ctx.sh(f"cp -v {run}/rollouts.jsonl {run}/rollouts.first_attempt.jsonl", "logs/keep_first.log")
    config = json.loads(sweep.read_text())
    config["responses_create_params"] = {"max_output_tokens": 1024}
    sweep.write_text(json.dumps(config, indent=2) + "\n")
    ctx.note(
        "(sweep.json edited: responses_create_params.max_output_tokens 12 -> 1024; only collect and profile "
        "are run again)"
    )
    second = [
        stage(ctx, sweep, key, checkpoint, "string_match", *(served if key == "collect" else ()))
        for key in ("collect", "profile")
    ]
    inputs = rows_of(run / "rollouts_materialized_inputs.jsonl")
    caps = {row["responses_create_params"].get("max_output_tokens") for row in inputs}
    mean = sum(row.get("reward") or 0 for row in rows_of(run / "rollouts.jsonl")) / 12
    if caps != {12} or (second[0] == 0 and mean > 0.5):
        raise failed(ctx, f"first {first}, second {second}, caps {caps}, mean {mean}")
    return (
        f"A sweep with responses_create_params max_output_tokens 12: stages exit {first}; the sweep raised to 1024 "
        f"and only collect and profile run again: exit {second}; the inputs still say {caps}; mean reward "
        f"{mean:.2f}."
    )


@case(
    "cache_resume_builtin_check_stale_warning_ignored",
    "cache_resume",
    ["materialize"],
    "after materializing, the user appended three tasks to the dataset and made a row case-sensitive; `gym-pipeline "
    "check-stale` said the materialized inputs were stale (exit 1), but they collected and profiled with the old "
    "inputs anyway, so the run misses the new tasks and grades the changed row the old way",
)
def cache_resume_builtin_check_stale_warning_ignored(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 9, start=70, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    rows = rows_of(data)
    data.write_text("".join(json.dumps(row) + "\n" for row in rows[:6]))
    materialize(ctx, data, 3, "string_match")
    rows[4]["case_sensitive"] = True
    data.write_text("".join(json.dumps(row) + "\n" for row in rows))
    ctx.note("(RUN/string_match.jsonl: 3 tasks appended and row 4 made case-sensitive after materializing)")
    stale = ctx.sh(
        f"{GP} check-stale --inputs {run}/rollouts_materialized_inputs.jsonl --source {data} "
        "--num-repeats 3 --agent string_match_simple_agent",
        "logs/check_stale.log",
    )
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    collected, profiled = collect_sh(ctx, url, "string_match", 4), profile_sh(ctx)
    tasks = {key[0] for key in unique_keys(run / "rollouts.jsonl")}
    if stale != 1 or collected or len(tasks) != 6:
        raise failed(ctx, f"check-stale {stale}, collect {collected}, tasks {tasks}")
    return (
        f"`materialize` (6 tasks x 3); 3 tasks appended to the dataset; `check-stale` exit {stale}; `collect` "
        f"exit {collected} and `profile` exit {profiled} on the old inputs (tasks {sorted(tasks)})."
    )


@case(
    "cache_resume_taskfolder_dataset_toml_edited_after_materialize",
    "cache_resume",
    ["materialize"],
    "after the taskset's rows had been materialized, the user raised timeout_multiplier in dataset.toml and ran "
    "only the collect stage; a task's digest covers the dataset's multipliers, so the episodes were refused as "
    "'changed since materialization' (the rows needed materializing again)",
)
def cache_resume_taskfolder_dataset_toml_edited_after_materialize(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["create-greeting", "sort-unique-words"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    materialized = taskset_stages(ctx, sweep, checkpoint, url, "materialize")[0]
    toml = tasks / "dataset.toml"
    toml.write_text(toml.read_text().replace("timeout_multiplier = 1.0", "timeout_multiplier = 2.0"))
    ctx.note("(RUN/tasks/dataset.toml edited after materialize: timeout_multiplier 1.0 -> 2.0)")
    codes = taskset_stages(ctx, sweep, checkpoint, url, "collect", "profile")
    if materialized or (not any(codes) and len(rows_of(run / "rollouts.jsonl")) == 4):
        raise failed(ctx, f"materialize {materialized}, exit {codes}")
    return (
        f"A sweep with the taskset RUN/tasks (2 tasks x 2): `stage materialize` exit {materialized}; dataset.toml "
        f"edited; `stage collect`, `stage profile` exit {codes}."
    )


@case(
    "cache_resume_builtin_resume_skips_rollouts_given_up_earlier",
    "cache_resume",
    ["--resume"],
    "the first collection was started before the model server was up, so every rollout failed and was recorded as "
    "given up in the failures sidecar; once the server was up the user ran `collect --resume`, which counts given-up "
    "rollouts as settled, so nothing was collected again and the strict profile found every rollout missing",
)
def cache_resume_builtin_resume_skips_rollouts_given_up_earlier(ctx: Ctx) -> str:
    from gym_pipeline.host import free_loopback_port

    run = ctx.run
    data = ctx.dataset("string_match", 5, start=80, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    materialize(ctx, data, 2, "string_match")
    port = free_loopback_port()
    url = f"http://127.0.0.1:{port}/v1"
    first = collect_sh(ctx, url, "string_match", 2, "--model", "sim-policy", log="logs/collect_first.log")
    ctx.note("(the model server had not been started yet; it is started now)")
    ctx.policy(checkpoint, f"--latency-ms 20 --port {port}")
    resumed = collect_sh(ctx, url, "string_match", 2, "--model", "sim-policy", "--resume")
    profiled = profile_sh(ctx)
    if first == 0 or rows_of(run / "rollouts.jsonl") or profiled == 0:
        raise failed(ctx, f"first {first}, resumed {resumed}, profile {profiled}")
    return (
        f"`gym-pipeline materialize` (5 tasks x 2); `collect` before the model server was up: exit {first}; the "
        f"server started; `collect --resume` exit {resumed}, {len(rows_of(run / 'rollouts.jsonl'))} rollouts; "
        f"`profile` exit {profiled}."
    )


# =====================================================================================================
# throughput and resources
# =====================================================================================================


@case(
    "throughput_stage_collect_cgroup_memory_below_verifier_table",
    "throughput_resources",
    ["memory"],
    "the collect stage ran in a cgroup limited to 200 MB (memory.limit_in_bytes, the interactive session's cap) "
    "while the user's verifier builds an alias table of several hundred MB at import, so the kernel's OOM killer "
    "ended the stage before it collected anything",
)
def throughput_stage_collect_cgroup_memory_below_verifier_table(ctx: Ctx) -> str:
    from ninth_held_out import TABLE_VERIFIER

    run = ctx.run
    sweep, checkpoint, url = verifier_sweep(ctx, TABLE_VERIFIER, 40, n=6, repeats=2, concurrency=3)
    materialized = stage(ctx, sweep, "materialize", checkpoint, "exact_answer")
    group = cgroup(
        "memory",
        f"gp-sess-{ctx.run.parent.name[-20:]}",
        memory__limit_in_bytes=200 * 2**20,
        memory__memsw__limit_in_bytes=200 * 2**20,
    )
    ctx.note(f"(the session runs in cgroup {group} with memory.limit_in_bytes 200 MB, no swap)")
    try:
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
            wrap=f'echo $BASHPID > {group}/cgroup.procs; echo "memory.limit_in_bytes: '
            f'$(cat {group}/memory.limit_in_bytes)"',
        )
        oom = (group / "memory.oom_control").read_text().split()
        failcnt = oom[oom.index("oom_kill") + 1] if "oom_kill" in oom else "?"
    finally:
        drop_cgroup(group)
    got = len(rows_of(run / "rollouts.jsonl"))
    if materialized or collected != 137:
        raise failed(ctx, f"materialize {materialized}, collect {collected}, failcnt {failcnt}")
    return (
        f"A sweep whose environment exact_answer is scored by verifiers/my_verifier.py (a large alias table); "
        f"`stage collect` in a cgroup with a 200 MB memory limit: exit {collected}, {got} of 12 rows "
        f"(oom_kill {failcnt})."
    )


BIG_LOG_TASK = {
    "task.toml": """version = "1.0"

[metadata]
difficulty = "medium"
category = "text-processing"
tags = ["logs"]

[verifier]
timeout_sec = 60.0

[agent]
timeout_sec = 120.0

[environment]
build_timeout_sec = 300.0
cpus = 1
memory_mb = 24
allow_internet = false
""",
    "instruction.md": "Count the distinct lines of /app/events.log and write the number to /app/distinct.txt.\n",
    "environment/Dockerfile": """FROM gym-pipeline/base:bookworm
WORKDIR /app
RUN python3 -c "import random; r = random.Random(7); open('/app/events.log', 'w').write(''.join(\
f'event {r.randrange(5000):05d} user {r.randrange(90000):05d} ok\\\\n' for _ in range(1500000)))"
""",
    "solution/solve.sh": """#!/bin/bash
python3 -c "print(len(set(open('/app/events.log').read().splitlines())))" > /app/distinct.txt
""",
    "tests/test.sh": """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
expected="$(sort -u /app/events.log | wc -l)"
if test "$(tr -d "[:space:]" < /app/distinct.txt 2>/dev/null)" = "$expected"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
""",
}


@case(
    "throughput_taskfolder_task_memory_below_workload",
    "throughput_resources",
    ["memory_mb"],
    "the user's distinct-events task gives its sandbox 24 MB of memory (memory_mb = 24 in task.toml, copied from a "
    "tiny task) while its work reads a 60 MB log into memory, so the kernel killed the agent's command (out of "
    "memory) and no episode of it could succeed",
)
def throughput_taskfolder_task_memory_below_workload(ctx: Ctx) -> str:
    run = ctx.run

    def add_task(tasks: Path) -> None:
        for name, text in BIG_LOG_TASK.items():
            path = tasks / "distinct-events" / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)

    tasks = user_taskset(ctx, ["create-greeting"], add_task)
    ctx.note("(RUN/tasks/distinct-events: the user's own task, memory_mb = 24)")
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    codes = taskset_stages(ctx, sweep, checkpoint, url, "materialize", "collect", "profile")
    rows = rows_of(run / "rollouts.jsonl")
    big = [row for row in rows if "events.log" in json.dumps(row)]
    if any(row.get("reward") for row in big) or not in_log(ctx, "Killed"):
        raise failed(ctx, f"exit {codes}, {len(big)} rows")
    return (
        f"A sweep with the taskset RUN/tasks (create-greeting and the user's distinct-events, memory_mb 24, x 2); "
        f"stages exit {codes}; distinct-events rewards {[row.get('reward') for row in big]}."
    )


if __name__ == "__main__":
    sys.exit(main("tenth_held_out", __file__, __doc__))
