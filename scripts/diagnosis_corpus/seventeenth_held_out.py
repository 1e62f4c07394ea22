"""Build the SEVENTEENTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/seventeenth_held_out.py --out tests/data/diagnosis_corpus/seventeenth_held_out [--only CASE ...]

Measured once on 2026-12-03 (top-1 81 %, see benchmarks/README.md), then tuned on: these cases now count as
tuning cases. The next held-out set is eighteenth_held_out.py.

This is the seventeenth held-out set, written from the guides alone (the NeMo Gym debugging guide, the reward
profiling guide, the task-folder troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without
reading the diagnosis rules, their tests or their results. It was measured once, by someone else, to see
how well `gym-pipeline diagnose` names root causes on failures its rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`: started by a script whose exit trap stops it, bounded queues, timeout faults), the
built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`), workspace verifiers
(`verifier: "MODULE:FUNCTION"`), task folders run in Docker sandboxes, the real NeMo Gym 0.7.0 (`gym env start` /
`gym eval run` / `gym eval profile` inside a loopback-only network namespace, with users' own resources servers),
the project's SlurmLauncher and DockerLauncher, real node state (an iptables rule, a symbolic link loop), and real
bad command lines, config, data, verifier files and task folders. The output of every command is captured as a
user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs.
Each case injects one cause, different from those of the sixteen earlier sets or reached by another path, and each
recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not written).

Labels (`case.json`) come from what was injected, following the NeMo Gym debugging guide's classes: the class of
the root cause (what the user must change), not of its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; the helpers shared with the earlier sets are imported from eighth_held_out.py,
ninth_held_out.py, tenth_held_out.py, fourteenth_held_out.py and sixteenth_held_out.py, and only this set's own
are defined here. Needs root (unshare, iptables), Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this
checkout. Run it from a foreground shell (SIGINT and SIGHUP at their defaults).
"""

from __future__ import annotations

import json
import shutil
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import (  # noqa: E402
    BUNDLED_TASKS,
    agent_args,
    builtin_setup,
    checkpoints,
    collect_sh,
    docker_launched,
    failed,
    gym_profile,
    gym_setup,
    gym_start,
    profile_sh,
    served,
    slurm,
    stage,
    stage_argv,
    stop_gym,
    task_checkpoints,
    user_taskset,
    wait_env_start,
    wait_or_interrupt,
    write_sweep,
)
from fourteenth_held_out import mean, rewards  # noqa: E402
from ninth_held_out import own_gym_server, taskset_sweep, verifier_sweep  # noqa: E402
from recipes import (  # noqa: E402
    GP,
    GYM,
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
    rewrite_rows,
    rows_of,
    text_of,
    unique_keys,
    wait_for,
)
from sixteenth_held_out import gym_start_refused  # noqa: E402
from tenth_held_out import gym_eval_bounded, in_log  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()

_dataset = Ctx.dataset


def _whole_dataset(self: Ctx, env: str = "string_match", n: int = 4, start: int = 0, **kwargs) -> Path:
    """Ctx.dataset, refusing a slice past the end of the bundled dataset (which would leave the file short)."""
    path = _dataset(self, env, n, start, **kwargs)
    if len(rows_of(path)) != n:
        raise RecipeError(f"{env}.jsonl has no {n} rows from row {start}")
    return path


Ctx.dataset = _whole_dataset


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def failure_kinds(path: Path) -> list[str]:
    return [str(row.get("failure_kind") or "") for row in rows_of(path)]


def taskset_run(ctx: Ctx, names: list[str], edit=None, repeats: int = 2, concurrency: int = 2,
                keys: tuple[str, ...] = ("materialize", "collect", "profile")) -> tuple[Path, list[int]]:
    """The user's taskset RUN/tasks (edit applied), a policy knowing it, a sweep, and its stages `keys`."""
    from ninth_held_out import taskset_stages

    tasks = user_taskset(ctx, names, edit)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=repeats, concurrency=concurrency)
    ctx.taskset = (sweep, checkpoint, url)
    return tasks, taskset_stages(ctx, sweep, checkpoint, url, *keys)


def more_taskset_stages(ctx: Ctx, *keys: str) -> list[int]:
    from ninth_held_out import taskset_stages

    sweep, checkpoint, url = ctx.taskset
    return taskset_stages(ctx, sweep, checkpoint, url, *keys)


# =====================================================================================================
# the real NeMo Gym 0.7.0
# =====================================================================================================


@case(
    "healthy_gym_eval_relative_paths_from_run_folder",
    "healthy",
    [],
    "nothing is wrong: the user cd'ed into the run folder and gave `gym eval run` and `gym eval profile` relative "
    "paths (tasks.jsonl, results/rollouts.jsonl); every rollout was collected and profiled",
    netns=True,
)
def healthy_gym_eval_relative_paths_from_run_folder(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 40, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = ctx.sh(f"{GYM} eval run --no-serve {agent_args(Path('tasks.jsonl'), Path('results/rollouts.jsonl'), 3, 4)} "
                  f"++route_failures_to_sidecar=true {overrides}", "eval_run.log", cwd=run, timeout=600)
    profiled = ctx.sh(f"{GYM} eval profile --inputs results/rollouts_materialized_inputs.jsonl "
                      "--rollouts results/rollouts.jsonl", "eval_profile.log", cwd=run, timeout=300)
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if code or profiled or got != 18:
        raise failed(ctx, f"eval {code}, profile {profiled}, {got}")
    return (f"cd RUN; real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve --input tasks.jsonl "
            f"--output results/rollouts.jsonl` (6 tasks x 3) exit {code}, {got} rollouts; `gym eval profile` "
            f"exit {profiled}.")


@case(
    "healthy_gym_mcqa_with_python_warnings_default",
    "healthy",
    [],
    "nothing is wrong: the user's shell exports PYTHONWARNINGS=default (left from a debugging session), so Gym's "
    "servers and CLI print deprecation and resource warnings; every mcqa rollout was collected and profiled",
    netns=True,
)
def healthy_gym_mcqa_with_python_warnings_default(ctx: Ctx) -> str:
    run = ctx.run
    ctx.env = {**ctx.env, "PYTHONWARNINGS": "default"}
    ctx.note("export PYTHONWARNINGS=default")
    data, url, policy, overrides = gym_setup(ctx, "mcqa", 5, 10, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url, resources_server='mcqa')} {overrides}")
    code = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 3, 4, "mcqa_simple_agent"))
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if code or profiled or got != 15:
        raise failed(ctx, f"eval {code}, profile {profiled}, {got}")
    return (f"PYTHONWARNINGS=default; real NeMo Gym 0.7.0 (loopback-only namespace) mcqa `gym eval run --no-serve` "
            f"(5 tasks x 3) exit {code}, {got} rollouts; `gym eval profile` exit {profiled}.")


@case(
    "config_gym_model_url_without_scheme",
    "config",
    ["model_url"],
    "the user's start script passes --model-url 127.0.0.1:PORT/v1, without the http:// scheme (pasted from the "
    "model server's 'listening on' line): Gym cannot use it as a URL, so the model was never reached and nothing "
    "was evaluated",
    netns=True,
)
def config_gym_model_url_without_scheme(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 60, "--latency-ms 30")
    bare = url.split("://", 1)[1]
    ready, env_start = gym_start_refused(ctx, f"{gym_model_args(bare)} {overrides}", timeout_s=120)
    code = None
    if ready:
        code = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4), 120)
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    if len(rows) == 8 and any(rewards(rows)):
        raise failed(ctx, f"ready {ready}, eval {code}, {len(rows)} rows")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace) `gym env start --model-url {ctx._shown(bare)}` (no "
            f"scheme): ready {ready}, exit {env_start.returncode}; eval {code}, {len(rows)} rollouts.")


@case(
    "data_schema_gym_metadata_column_json_encoded_string",
    "data_schema",
    ["metadata"],
    "the dataset was exported from a dataframe that stored each row's metadata as a JSON-encoded string "
    "(\"{\\\"source\\\": ...}\") instead of an object: string_match's request model wants metadata to be an "
    "object, so the rows were refused",
    netns=True,
)
def data_schema_gym_metadata_column_json_encoded_string(ctx: Ctx) -> str:
    run = ctx.run

    def encode(i, row):
        row["metadata"] = json.dumps({"source": "trivia-v3", "row": i})
        return True

    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 46, "--latency-ms 30", edit=encode)
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4), 150)
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    if code == 0 and len(rows) == 12 and mean(rewards(rows)) > 0.7:
        raise failed(ctx, f"eval {code}, {len(rows)} rows")
    return (f"RUN/tasks.jsonl with metadata as a JSON string; real NeMo Gym 0.7.0 (loopback-only namespace) "
            f"`gym eval run --no-serve` (6 tasks x 2) exit {code}, {len(rows)} rollouts.")


@case(
    "data_schema_gym_case_sensitive_null_from_export",
    "data_schema",
    ["case_sensitive"],
    "the export job wrote case_sensitive: null for the rows whose source had no value in that column: "
    "string_match wants a boolean there, so those rows were refused",
    netns=True,
)
def data_schema_gym_case_sensitive_null_from_export(ctx: Ctx) -> str:
    run = ctx.run

    def nulls(i, row):
        if i % 2 == 0:
            row["case_sensitive"] = None
            return True
        return False

    data, url, policy, overrides = gym_setup(ctx, "string_match", 8, 52, "--latency-ms 30", edit=nulls)
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4), 150)
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    if code == 0 and len(rows) == 16:
        raise failed(ctx, f"eval {code}, {len(rows)} rows")
    return (f"RUN/tasks.jsonl with case_sensitive null in every other row; real NeMo Gym 0.7.0 (loopback-only "
            f"namespace) `gym eval run --no-serve` (8 tasks x 2) exit {code}, {len(rows)} rollouts; `gym eval profile` "
            f"exit {profiled}.")


@case(
    "data_schema_gym_message_roles_capitalized",
    "data_schema",
    ["role"],
    "the dataset converter title-cased the chat roles (\"User\" instead of \"user\"): the Responses API input "
    "accepts only the lower-case role names, so the rows could not be sent",
    netns=True,
)
def data_schema_gym_message_roles_capitalized(ctx: Ctx) -> str:
    run = ctx.run

    def title(i, row):
        for message in row["responses_create_params"]["input"]:
            message["role"] = message["role"].title()
        return True

    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 64, "--latency-ms 30", edit=title)
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4), 150)
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    if code == 0 and len(rows) == 10 and mean(rewards(rows)) > 0.7:
        raise failed(ctx, f"eval {code}, {len(rows)} rows")
    return (f"RUN/tasks.jsonl with roles \"User\"; real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run "
            f"--no-serve` (5 tasks x 2) exit {code}, {len(rows)} rollouts.")


METADATA_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        # per-source accuracy for the team dashboard
        source = body.metadata["source"]
        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
            metadata={"source": source},
        )
"""


@case(
    "verifier_runtime_gym_verify_subscripts_missing_metadata",
    "verifier_runtime",
    ["metadata"],
    "the user's sourced_match resources server reads body.metadata[\"source\"] in verify (for a per-source "
    "dashboard); the eval set's rows carry no metadata, so metadata is None, every verify raised TypeError and "
    "answered 500",
    netns=True,
)
def verifier_runtime_gym_verify_subscripts_missing_metadata(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 70, "--latency-ms 30")
    search = own_gym_server(ctx, "sourced_match", METADATA_VERIFY)
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='sourced_match')} "
                               f"{overrides}")
    code = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4,
                                                       "sourced_match_simple_agent"), 150)
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    if (code == 0 and len(rows) == 12) or not in_log(ctx, "not subscriptable"):
        raise failed(ctx, f"eval {code}, {len(rows)} rows")
    return ("A user's resources server sourced_match (verify reads body.metadata['source']); real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) `gym eval run --no-serve` (6 tasks x 2) exit {code}, {len(rows)} of 12 "
            f"rollouts; `gym eval profile` exit {profiled}.")


NUMERIC_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        reward = 0.0
        if extracted is not None and body.expected_answer:
            # compare as numbers, so that "36", "36.0" and " 36 " all count
            reward = float(abs(float(extracted) - float(body.expected_answer)) < 1e-6)
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""


@case(
    "verifier_runtime_gym_verify_parses_every_answer_as_float",
    "verifier_runtime",
    ["float"],
    "the user's numeric_match resources server, written for a math-only set, compares float(extracted) with "
    "float(expected_answer); on this mixed set every text answer (\"Hydrogen\", ...) raises ValueError in verify, "
    "which answers 500, and those rollouts are lost",
    netns=True,
)
def verifier_runtime_gym_verify_parses_every_answer_as_float(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 8, 0, "--latency-ms 30")
    search = own_gym_server(ctx, "numeric_match", NUMERIC_VERIFY)
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='numeric_match')} "
                               f"{overrides}")
    code = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4,
                                                       "numeric_match_simple_agent"), 150)
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    if (code == 0 and len(rows) == 16) or not in_log(ctx, "could not convert string to float"):
        raise failed(ctx, f"eval {code}, {len(rows)} rows")
    return ("A user's resources server numeric_match (verify compares float(extracted) with float(expected)); real "
            f"NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (8 tasks x 2) exit {code}, "
            f"{len(rows)} of 16 rollouts; `gym eval profile` exit {profiled}.")


@case(
    "throughput_gym_four_shards_evaluated_at_once_on_small_queue",
    "throughput_resources",
    ["concurrency"],
    "the user split the set into 4 shards and started one `gym eval run` per shard at the same time, each at "
    "--concurrency 8, against one model server that generates 2 at a time with 4 waiting: together they overflowed "
    "its queue, the overflow was answered 429 overloaded and many rollouts failed",
    netns=True,
)
def throughput_gym_four_shards_evaluated_at_once_on_small_queue(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 16, 30, "--latency-ms 400 --max-running 2 "
                                             "--max-waiting 4")
    lines = data.read_text().splitlines(keepends=True)
    for k in range(4):
        (run / f"shard_{k}.jsonl").write_text("".join(lines[k * 4:(k + 1) * 4]))
    ctx.note("(the user splits RUN/tasks.jsonl into RUN/shard_0..3.jsonl, 4 rows each)")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    shards = [gym_eval(ctx, overrides, agent_args(run / f"shard_{k}.jsonl", run / "results" / f"shard_{k}" /
                                                  "rollouts.jsonl", 2, 8), log=f"eval_run_shard_{k}.log",
                       background=True) for k in range(4)]
    for shard in shards:
        wait_or_interrupt(ctx, shard, 300, "`gym eval run`")
    stop_gym(ctx, env_start, policy)
    got = sum(len(rows_of(run / "results" / f"shard_{k}" / "rollouts.jsonl")) for k in range(4))
    if got == 32 and not in_log(ctx, "429"):
        raise failed(ctx, f"exits {[s.returncode for s in shards]}, {got}")
    return ("model server --max-running 2 --max-waiting 4; real NeMo Gym 0.7.0 (loopback-only namespace): 4 `gym eval "
            f"run --no-serve --concurrency 8` at once (4 shards of 4 tasks x 2): exits "
            f"{[s.returncode for s in shards]}, {got} of 32 rollouts.")


@case(
    "cache_resume_gym_hangup_then_profiled_with_allow_partial",
    "cache_resume",
    ["resume"],
    "the eval's terminal was closed (SIGHUP) halfway through; instead of resuming it, the user profiled the "
    "partial output with ++allow_partial_rollouts=True and took the profile as the result: many rollouts, and "
    "some tasks, are missing from it",
    netns=True,
)
def cache_resume_gym_hangup_then_profiled_with_allow_partial(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 10, 76, "--latency-ms 700")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    first = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 3, 2), background=True)
    wait_for(lambda: len(rows_of(run / "results" / "rollouts.jsonl")) >= 8 or first.poll() is not None, 200,
             "the first rollouts", poll_s=0.3)
    ctx.note("(the ssh session running the eval drops: SIGHUP)")
    ctx.stop(first, signal.SIGHUP, 30)
    partial = len(rows_of(run / "results" / "rollouts.jsonl"))
    profiled = gym_profile(ctx, run / "results", extra="++allow_partial_rollouts=True")
    stop_gym(ctx, env_start, policy)
    profile = rows_of(run / "results" / "rollouts_reward_profiling.jsonl")
    if partial >= 30 or profiled != 0 or not profile:
        raise failed(ctx, f"partial {partial}, profile {profiled}, {len(profile)} profile rows")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (10 tasks x 3) hung up with "
            f"{partial} of 30 rollouts; `gym eval profile ++allow_partial_rollouts=True` exit {profiled}, "
            f"{len(profile)} task rows.")


@case(
    "infra_gym_firewall_drops_head_server_port",
    "infra",
    ["firewall"],
    "the node's firewall (a site rule that silently DROPs TCP ports 11000-11099) swallows the connections to Gym's "
    "head server, which listens on 11042 here: the servers and the eval could not reach it and timed out",
    netns=True,
)
def infra_gym_firewall_drops_head_server_port(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 20, "--latency-ms 30")
    overrides = overrides.replace(f"++head_server.port={ctx.head_port}", "++head_server.port=11042")
    rule = ctx.sh("iptables -A INPUT -p tcp --dport 11000:11099 -j DROP && iptables -S INPUT",
                  "logs/site_firewall.log")
    if rule:
        raise failed(ctx, "iptables refused")
    env_start = ctx.gym_env_start(f"{gym_model_args(url)} {overrides}", wait=False)
    ready = wait_env_start(ctx, env_start, 120)
    code = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4), 120)
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    if ready and code == 0 and len(rows) == 8:
        raise failed(ctx, f"ready {ready}, eval {code}")
    return ("site firewall `iptables -A INPUT -p tcp --dport 11000:11099 -j DROP`; real NeMo Gym 0.7.0 (loopback-only "
            f"namespace) with ++head_server.port=11042: `gym env start` ready {ready}; `gym eval run --no-serve` exit "
            f"{code}, {len(rows)} rollouts.")


# =====================================================================================================
# the built-in engine, the stages and the launchers
# =====================================================================================================


@case(
    "model_serving_builtin_server_stopped_by_prepare_script_exit_trap",
    "model_serving",
    ["trap"],
    "the user's prepare.sh starts the model server in the background, then materializes; its `trap 'kill "
    "$(jobs -p)' EXIT` (meant to clean up on errors) also ran on success, so the server was stopped as soon as "
    "prepare.sh ended and the collection that followed found no model server",
)
def model_serving_builtin_server_stopped_by_prepare_script_exit_trap(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=25, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    ready = ctx.work / "model_url"
    script = run / "prepare.sh"
    script.write_text(
        "#!/bin/bash\nset -e\n# clean up the background jobs if anything below fails\n"
        "trap 'kill $(jobs -p) 2>/dev/null' EXIT\n"
        f"{GP} serve-policy --port 0 --ready-file {ready} --checkpoint {checkpoint} --latency-ms 20 "
        f">> {run}/logs/model_server.log 2>&1 &\n"
        f"while [ ! -s {ready} ]; do sleep 0.5; done\necho \"model server at $(cat {ready})\"\n"
        f"{GP} materialize --input {data} --num-repeats 3 --agent string_match_simple_agent "
        f"--output {run}/rollouts_materialized_inputs.jsonl\n")
    (run / "logs").mkdir(exist_ok=True)
    prepared = ctx.sh(f"bash {script}", "logs/prepare.log", timeout=120)
    said = [line for line in text_of(run / "logs" / "prepare.log").splitlines() if line.startswith("model server at ")]
    url = said[-1].split(" at ", 1)[1].strip() if said else ""
    time.sleep(2)
    collected = collect_sh(ctx, url, "string_match", 3, timeout=300)
    profiled = profile_sh(ctx)
    rows = rows_of(run / "rollouts.jsonl")
    if prepared or not url or (collected == 0 and len(rows) == 15):
        raise failed(ctx, f"prepare {prepared}, collect {collected}, {len(rows)}")
    return (f"RUN/prepare.sh (model server in the background, trap kill on EXIT, materialize 5 tasks x 3) exit "
            f"{prepared}; `gym-pipeline collect --model-url {url}` exit {collected}, {len(rows)} rows; profile "
            f"{profiled}.")


@case(
    "model_serving_builtin_server_given_checkpoints_root_folder",
    "model_serving",
    ["checkpoint"],
    "the model server's launch line passes --checkpoint WORK/checkpoints (the folder of all checkpoints) instead of "
    "WORK/checkpoints/step_0200: the server could not load a model from it and never started, so the collection "
    "found nothing listening on the model port",
)
def model_serving_builtin_server_given_checkpoints_root_folder(ctx: Ctx) -> str:
    from gym_pipeline.host import free_loopback_port

    run = ctx.run
    data = ctx.dataset("string_match", 5, start=14, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    port = free_loopback_port()
    server = ctx.bg(f"{GP} serve-policy --port {port} --checkpoint {checkpoint.parent} --latency-ms 20",
                    "logs/model_server.log")
    materialize(ctx, data, 3, "string_match")
    try:
        server.wait(timeout=20)
    except Exception:  # noqa: BLE001 - still running: the failure did not happen
        pass
    url = f"http://127.0.0.1:{port}/v1"
    collected = collect_sh(ctx, url, "string_match", 3, timeout=300)
    rows = rows_of(run / "rollouts.jsonl")
    if server.poll() is None or (collected == 0 and len(rows) == 15):
        raise failed(ctx, f"server {server.poll()}, collect {collected}, {len(rows)}")
    return (f"`gym-pipeline serve-policy --port {port} --checkpoint WORK/checkpoints` exit {server.returncode}; "
            f"materialize (5 tasks x 3); `gym-pipeline collect --model-url {url}` exit {collected}, {len(rows)} rows.")


@case(
    "config_stage_checkpoint_name_without_zero_padding",
    "config",
    ["step_0200"],
    "the stage commands were run with --checkpoint step_200, but the checkpoint to evaluate is step_0200 "
    "(zero-padded): the stages made and filled a partition step_200 of their own (runs/step_200/...), and the run "
    "folder of step_0200 never got its materialized inputs or rollouts",
)
def config_stage_checkpoint_name_without_zero_padding(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 4, start=33, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=2, concurrency=2)
    ctx.sh(f"ls {checkpoint.parent}", "logs/ls_checkpoints.log")
    codes = [stage(ctx, sweep, "materialize", "step_200", "string_match")]
    if codes[0] == 0:
        codes.append(stage(ctx, sweep, "collect", "step_200", "string_match", *served(url)))
    elsewhere = ctx.work / "runs" / "step_200" / "string_match"
    if (run / "rollouts.jsonl").exists() or checkpoint.name != "step_0200":
        raise failed(ctx, f"exit {codes}, {checkpoint.name}")
    return (f"`gym-pipeline stage materialize` and `collect` with --checkpoint step_200 (the checkpoint is step_0200): "
            f"exit {codes}; RUN (step_0200's run folder) has no rollouts; WORK/runs/step_200/string_match has "
            f"{len(rows_of(elsewhere / 'rollouts.jsonl'))}.")


@case(
    "config_slurm_sbatch_option_and_value_in_one_argument",
    "config",
    ["--qos"],
    "the user's Slurm launcher settings give extra_options [\"--qos normal\"] (option and value in one argument, "
    "separated by a space) instead of \"--qos=normal\": sbatch does not recognise that option, so the collect job "
    "was never submitted",
)
def config_slurm_sbatch_option_and_value_in_one_argument(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 4, 12, 2, "--latency-ms 20")
    launcher, label = slurm(extra_options=["--qos normal"])
    collected = launched(ctx, launcher, label, "collect", collect_argv(run, url, "string_match", 2))
    rows = rows_of(run / "rollouts.jsonl")
    if "exit code 0" in collected and len(rows) == 8:
        raise failed(ctx, f"{collected}; {len(rows)}")
    return (f"`gym-pipeline materialize` (4 tasks x 2); collect through {label}: {collected}; {len(rows)} rows.")


@case(
    "data_schema_builtin_integer_labels_exported_as_floats",
    "data_schema",
    ["expected_answer"],
    "the dataset went through a dataframe that turned every numeric label into a float, so expected_answer reads "
    "\"36.0\" where the answer is 36: the string comparison fails and the numeric questions score 0",
)
def data_schema_builtin_integer_labels_exported_as_floats(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 12, start=0, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]

    def as_float(i, row):
        if str(row["expected_answer"]).isdigit():
            row["expected_answer"] = f"{float(row['expected_answer']):.1f}"
            return True
        return False

    changed = rewrite_rows(data, as_float)
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    materialize(ctx, data, 2, "string_match")
    collected = collect_sh(ctx, url, "string_match", 3, timeout=300)
    profiled = profile_sh(ctx)
    rows = [row for row in rows_of(run / "rollouts.jsonl") if str(row.get("expected_answer", "")).endswith(".0")]
    if changed < 3 or not rows or mean(rewards(rows)) > 0.2:
        raise failed(ctx, f"{changed} changed; collect {collected}, {len(rows)} rows")
    return (f"RUN/string_match.jsonl (12 rows, {changed} numeric labels written as floats); materialize (x 2), collect "
            f"exit {collected}, profile exit {profiled}; mean reward of those rows {mean(rewards(rows)):.2f}.")


SPLIT_VERIFIER = '''
"""Our exact-answer verifier: the text after 'Final answer:' must equal the label."""


def score(row, response_text):
    answer = response_text.split("Final answer:")[1].strip().rstrip(".")
    return 1.0 if answer.lower() == str(row["expected_answer"]).lower() else 0.0
'''


@case(
    "verifier_runtime_stage_workspace_verifier_split_index_on_boxed_answers",
    "verifier_runtime",
    ["split"],
    "the user's workspace verifier takes response_text.split(\"Final answer:\")[1]; for the rows whose prompt asks "
    "for \\boxed{} the response has no 'Final answer:', so the verifier raised IndexError on every one of them",
)
def verifier_runtime_stage_workspace_verifier_split_index_on_boxed_answers(ctx: Ctx) -> str:
    run = ctx.run
    sweep, checkpoint, url = verifier_sweep(ctx, SPLIT_VERIFIER, 0, n=8)
    codes = [stage(ctx, sweep, "materialize", checkpoint, "exact_answer"),
             stage(ctx, sweep, "collect", checkpoint, "exact_answer", *served(url)),
             stage(ctx, sweep, "profile", checkpoint, "exact_answer")]
    rows = rows_of(run / "rollouts.jsonl")
    if not in_log(ctx, "list index out of range"):
        raise failed(ctx, f"exit {codes}, {len(rows)} rows")
    return (f"workspace verifier verifiers/my_verifier.py (split('Final answer:')[1]); stages exit {codes}, "
            f"{len(rows)} rows, rewards {rewards(rows)}.")


ASYNC_VERIFIER = '''
"""Our exact-answer verifier (async, like the resources servers' verify)."""
import re

FINAL = re.compile(r"(?:final answer:|boxed\\{)\\s*([^}\\n]+)", re.IGNORECASE)


async def score(row, response_text):
    match = FINAL.search(response_text)
    answer = match.group(1).strip().rstrip(".") if match else ""
    return 1.0 if answer.lower() == str(row["expected_answer"]).lower() else 0.0
'''


@case(
    "verifier_runtime_slurm_workspace_verifier_declared_async",
    "verifier_runtime",
    ["async"],
    "the user wrote their workspace verifier as `async def score(...)` (copying a resources server's verify); the "
    "stage calls verifiers as plain functions, so each call returned a coroutine instead of a reward",
)
def verifier_runtime_slurm_workspace_verifier_declared_async(ctx: Ctx) -> str:
    run = ctx.run
    sweep, checkpoint, url = verifier_sweep(ctx, ASYNC_VERIFIER, 20, n=6, repeats=2)
    materialized = stage(ctx, sweep, "materialize", checkpoint, "exact_answer")
    launcher, label = slurm()
    collected = launched(ctx, launcher, label, "collect",
                         stage_argv(sweep, "collect", checkpoint, "exact_answer", *served(url)))
    profiled = launched(ctx, launcher, label, "profile", stage_argv(sweep, "profile", checkpoint, "exact_answer"))
    rows = rows_of(run / "rollouts.jsonl")
    if not in_log(ctx, "coroutine") or (len(rows) == 12 and mean(rewards(rows)) > 0.7):
        raise failed(ctx, f"{collected}; {profiled}; {len(rows)} rows")
    return (f"workspace verifier `async def score`; `stage materialize` exit {materialized}; collect as a Slurm job: "
            f"{collected}; profile as a Slurm job: {profiled}; {len(rows)} rows.")


@case(
    "throughput_docker_collect_concurrency_40_on_small_queue",
    "throughput_resources",
    ["--concurrency"],
    "the user ran the collection in a container at --concurrency 40 against a model server that generates 2 at a "
    "time with 4 waiting: most requests were answered 429 overloaded and many rollouts were given up",
)
def throughput_docker_collect_concurrency_40_on_small_queue(ctx: Ctx) -> str:
    from gym_pipeline.launchers.docker import DockerLauncher

    run = ctx.run
    data = ctx.dataset("string_match", 12, start=50, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 400 --max-running 2 --max-waiting 4")
    materialize(ctx, data, 4, "string_match")
    launcher = DockerLauncher(network="host")
    collected = docker_launched(ctx, launcher, "DockerLauncher(network='host')", "collect",
                                collect_argv(run, url, "string_match", 40))
    profiled = docker_launched(ctx, launcher, "DockerLauncher(network='host')", "profile", profile_argv(run))
    rows = rows_of(run / "rollouts.jsonl")
    if len(rows) == 48 or not in_log(ctx, "429"):
        raise failed(ctx, f"{collected}; {len(rows)} rows")
    return (f"model server --max-running 2 --max-waiting 4; collect in Docker at --concurrency 40 (12 tasks x 4): "
            f"{collected}, {len(rows)} of 48 rows; profile in Docker: {profiled}.")


@case(
    "infra_stage_run_folder_link_loops_onto_itself",
    "infra",
    [],
    "the scratch link of the sweep's run folder (runs/step_0200/string_match) was recreated by a cleanup script as "
    "a link to itself (`ln -sfn string_match ...` run in the wrong folder): the path resolves to nothing, so the "
    "stages could not lock or write the run folder",
)
def infra_stage_run_folder_link_loops_onto_itself(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 4, start=37, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=2, concurrency=2)
    link = ctx.work / "runs" / checkpoint.name / "string_match"
    link.unlink()
    ctx.note("(the scratch cleanup script runs `ln -sfn string_match runs/step_0200/string_match`)")
    link.symlink_to("string_match")
    ctx.sh(f"ls -l {link.parent}; ls {link}/", "logs/ls_runs.log")
    codes = [stage(ctx, sweep, "materialize", checkpoint, "string_match")]
    if codes[0] == 0:
        codes.append(stage(ctx, sweep, "collect", checkpoint, "string_match", *served(url)))
    if not any(codes):
        raise failed(ctx, f"exit {codes}")
    return f"the sweep's run folder a symbolic link to itself; stages exit {codes}."


@case(
    "healthy_slurm_collect_with_timeout_faults_retried",
    "healthy",
    [],
    "nothing is wrong: the model server held a few requests until they timed out (fault rate 0.15); the Slurm "
    "collect job retried them and every rollout was collected and profiled",
)
def healthy_slurm_collect_with_timeout_faults_retried(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=41, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30 --fault-rate 0.15 --fault-kinds timeout --timeout-hold-s 2 "
                             "--fault-seed 7")
    materialize(ctx, data, 3, "string_match")
    launcher, label = slurm()
    collected = launched(ctx, launcher, label, "collect", collect_argv(run, url, "string_match", 3))
    profiled = launched(ctx, launcher, label, "profile", profile_argv(run))
    got = len(unique_keys(run / "rollouts.jsonl"))
    if "exit code 0" not in collected or "exit code 0" not in profiled or got != 15:
        raise failed(ctx, f"{collected}; {profiled}; {got}")
    return (f"model server --fault-rate 0.15 --fault-kinds timeout; materialize (5 tasks x 3); collect as a Slurm job: "
            f"{collected}; profile as a Slurm job: {profiled}; {got} rollouts.")


@case(
    "healthy_builtin_prompts_with_japanese_instructions",
    "healthy",
    [],
    "nothing is wrong: the team's dataset adds a Japanese instruction line to every prompt (non-ASCII text in the "
    "rows and the logs); materialize, collect and profile completed every rollout",
)
def healthy_builtin_prompts_with_japanese_instructions(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=56, folder=run, name="string_match_ja.jsonl")

    def japanese(i, row):
        part = row["responses_create_params"]["input"][0]["content"][0]
        part["text"] = part["text"] + "\n（答えは英語で書いてください。）"
        return True

    rewrite_rows(data, japanese)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    materialize(ctx, data, 3, "string_match")
    codes = [collect_sh(ctx, url, "string_match", 3, timeout=300), profile_sh(ctx)]
    ctx.sh(f"head -c 400 {data}; echo", "logs/head_dataset.log")
    got = len(unique_keys(run / "rollouts.jsonl"))
    if any(codes) or got != 18:
        raise failed(ctx, f"exit {codes}, {got}")
    return f"RUN/string_match_ja.jsonl (Japanese instruction in every prompt); materialize (6 x 3), collect, profile {codes}."


# =====================================================================================================
# task folders (Docker sandboxes)
# =====================================================================================================


@case(
    "healthy_taskfolder_three_tasks_then_policy_interrupted",
    "healthy",
    [],
    "nothing is wrong: the user's taskset (rename-extensions, top-word, fix-off-by-one) ran in Docker sandboxes; "
    "every episode completed, was verified and profiled (the checkpoint does not solve fix-off-by-one: a result "
    "about the model, not a fault of the run), and the user then stopped the model server with Ctrl-C afterwards",
)
def healthy_taskfolder_three_tasks_then_policy_interrupted(ctx: Ctx) -> str:
    run = ctx.run
    tasks, codes = taskset_run(ctx, ["rename-extensions", "top-word", "fix-off-by-one"], repeats=1)
    ctx.note("(Ctrl-C in the model server's terminal, after the profile)")
    ctx.stop(ctx.background[-1], signal.SIGINT, 20)
    if any(codes) or len(unique_keys(run / "rollouts.jsonl")) != 3:
        raise failed(ctx, f"exit {codes}")
    return (f"A sweep with the taskset RUN/tasks (3 bundled tasks x 1); stages materialize, collect (Docker sandboxes), "
            f"profile exit {codes}; rewards {rewards(rows_of(run / 'rollouts.jsonl'))}; then Ctrl-C on the model server.")


def debug_sleep(tasks: Path) -> None:
    test = tasks / "create-greeting" / "tests" / "test.sh"
    test.write_text(test.read_text().replace(
        "cd /app\n", "cd /app\n# DEBUG: keep the container up so we can `docker exec` into it\nsleep 45\n"))


@case(
    "verifier_runtime_taskfolder_debug_sleep_left_in_test_sh",
    "verifier_runtime",
    ["sleep"],
    "a `sleep 45` the user added to create-greeting's tests/test.sh while debugging (to docker exec into the "
    "container) was left in: the test never finishes within [verifier].timeout_sec (30 s), so every episode of the "
    "task ends in harbor:verifier_timeout and scores 0",
)
def verifier_runtime_taskfolder_debug_sleep_left_in_test_sh(ctx: Ctx) -> str:
    run = ctx.run
    tasks, codes = taskset_run(ctx, ["create-greeting", "json-version"], debug_sleep)
    kinds = failure_kinds(run / "rollouts.jsonl")
    if not any("verifier_timeout" in kind for kind in kinds):
        raise failed(ctx, f"exit {codes}, kinds {kinds}")
    return (f"A sweep with the taskset RUN/tasks (create-greeting with `sleep 45` in test.sh, json-version; x 2); "
            f"stages exit {codes}; failure kinds {kinds}.")


SLOW_TEST = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# The full check re-reads the greeting 20 times, a second apart (the app under test writes lazily).
cd /app
ok=1
for i in $(seq 20); do
  test "$(cat /app/hello.txt 2>/dev/null)" = "Hello, Gym!" || ok=0
  sleep 1
done
if [ "$ok" = 1 ]; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def slow_test_with_misspelled_override(tasks: Path) -> None:
    folder = tasks / "create-greeting"
    (folder / "tests" / "test.sh").write_text(SLOW_TEST)
    toml = folder / "task.toml"
    toml.write_text(toml.read_text().replace("[verifier]\ntimeout_sec = 30.0", "[verifier]\ntimeout_sec = 10.0"))
    (tasks / "dataset.toml").write_text(
        (tasks / "dataset.toml").read_text()
        + '\n# the full check of create-greeting takes ~20 s: give its verifier more time\n'
          '[gym.tasks."create-greting".verifier]\ntimeout_sec = 120.0\n')


@case(
    "config_taskfolder_dataset_toml_override_names_misspelled_task",
    "config",
    ["create-greeting"],
    "the user raised create-greeting's verifier budget in dataset.toml, but under [gym.tasks.\"create-greting\"] "
    "(a typo): the override applies to no task, create-greeting's 20-second check kept its 10-second timeout and "
    "every episode ended in harbor:verifier_timeout",
)
def config_taskfolder_dataset_toml_override_names_misspelled_task(ctx: Ctx) -> str:
    run = ctx.run
    tasks, codes = taskset_run(ctx, ["create-greeting", "top-word"], slow_test_with_misspelled_override)
    kinds = failure_kinds(run / "rollouts.jsonl")
    if not any("verifier_timeout" in kind for kind in kinds):
        raise failed(ctx, f"exit {codes}, kinds {kinds}")
    return (f"A sweep with the taskset RUN/tasks (dataset.toml overrides \"create-greting\"; create-greeting's test "
            f"takes 20 s, timeout_sec 10; top-word; x 2); stages exit {codes}; failure kinds {kinds}.")


@case(
    "cache_resume_taskfolder_task_added_after_materialize",
    "cache_resume",
    ["materialize"],
    "after materializing the taskset the user copied a third task (replace-spelling) into it and went straight to "
    "collect and profile: the materialized rows predate the new task, so the run does not match the taskset and "
    "the new task was not evaluated until the taskset is materialized again",
)
def cache_resume_taskfolder_task_added_after_materialize(ctx: Ctx) -> str:
    run = ctx.run
    tasks, codes = taskset_run(ctx, ["create-greeting", "top-word"], keys=("materialize",))
    ctx.note("(the user copies replace-spelling into RUN/tasks)")
    shutil.copytree(BUNDLED_TASKS / "replace-spelling", tasks / "replace-spelling")
    codes += more_taskset_stages(ctx, "collect", "profile")
    rows = rows_of(run / "rollouts.jsonl")
    covered = "replace-spelling" in json.dumps(rows)
    if not any(codes) and covered:
        raise failed(ctx, f"exit {codes}, {len(rows)} rows, covered {covered}")
    return (f"A sweep with the taskset RUN/tasks (create-greeting, top-word; x 2); materialize, then replace-spelling "
            f"added, then collect and profile: exit {codes}; {len(rows)} rows; replace-spelling evaluated: {covered}.")


def tests_folder_renamed(tasks: Path) -> None:
    (tasks / "top-word" / "tests").rename(tasks / "top-word" / "test")


@case(
    "data_schema_taskfolder_tests_folder_named_test",
    "data_schema",
    ["tests"],
    "in top-word the user's task generator wrote the verifier to test/test.sh (singular folder name) instead of "
    "tests/test.sh: the task folder has no tests/test.sh, so it could not be loaded",
)
def data_schema_taskfolder_tests_folder_named_test(ctx: Ctx) -> str:
    run = ctx.run
    tasks, codes = taskset_run(ctx, ["top-word", "create-greeting"], tests_folder_renamed)
    rows = rows_of(run / "rollouts.jsonl")
    if not any(codes) and "top-word" in json.dumps(rows):
        raise failed(ctx, f"exit {codes}, {len(rows)} rows")
    return (f"A sweep with the taskset RUN/tasks (top-word's tests/ renamed test/, create-greeting; x 2); stages "
            f"exit {codes}; {len(rows)} rows.")


if __name__ == "__main__":
    sys.exit(main("seventeenth_held_out", __file__, __doc__))
