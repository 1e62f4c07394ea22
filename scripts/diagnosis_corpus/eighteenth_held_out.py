"""Build the EIGHTEENTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/eighteenth_held_out.py --out tests/data/diagnosis_corpus/eighteenth_held_out [--only CASE ...]

Measured once on 2026-12-03 (top-1 76 %, see benchmarks/README.md), then tuned on: these cases now count as
tuning cases. The next held-out set is nineteenth_held_out.py.

This is the eighteenth held-out set, written from the guides alone (the NeMo Gym debugging guide, the reward
profiling guide, the task-folder troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without
reading the diagnosis rules, their tests or their results. It was measured once, by someone else, to see
how well `gym-pipeline diagnose` names root causes on failures its rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`: bounded queues, latency), the built-in engine (`gym-pipeline materialize`, `collect`,
`profile`, `stage`), workspace verifiers (`verifier: "MODULE:FUNCTION"`), task folders run in Docker sandboxes, the
real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` / `gym eval profile` inside a loopback-only network namespace,
with users' own resources servers and scripts), the project's SlurmLauncher, real node state (a port forward that
goes away, a stale environment on PATH), and real bad command lines, scripts, config, data, verifier files and task
folders. The output of every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run
folder is written by hand but the user's own inputs. Each case injects one cause, different from those of the
seventeen earlier sets or reached by another path, and each recipe checks that its fault really happened (it raises
RecipeError otherwise, and the case is not written).

Labels (`case.json`) come from what was injected, following the NeMo Gym debugging guide's classes: the class of
the root cause (what the user must change), not of its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; the helpers shared with the earlier sets are imported from eighth_held_out.py,
ninth_held_out.py, tenth_held_out.py, fourteenth_held_out.py, sixteenth_held_out.py and seventeenth_held_out.py,
and only this set's own are defined here. Needs root (unshare), Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set
to this checkout. Run it from a foreground shell (SIGINT and SIGHUP at their defaults).
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
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
    wait_env_start,
    wait_or_interrupt,
    write_sweep,
)
from fourteenth_held_out import mean, rewards  # noqa: E402
from ninth_held_out import own_gym_server, verifier_sweep  # noqa: E402
from recipes import (  # noqa: E402
    GP,
    GYM,
    PY,
    Ctx,
    case,
    collect_argv,
    gym_eval,
    gym_model_args,
    launched,
    main,
    materialize,
    rewrite_rows,
    rows_of,
    text_of,
    unique_keys,
    wait_for,
)
from seventeenth_held_out import failure_kinds, taskset_run  # noqa: E402
from sixteenth_held_out import gym_eval_sh  # noqa: E402
from tenth_held_out import gym_eval_bounded, in_log  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def task_rewards(path: Path, task: str) -> list[float]:
    """The rewards of the rollouts of task folder `task`."""
    return rewards([row for row in rows_of(path) if task in json.dumps(row)])


def by_task(path: Path, indices: set[int]) -> list[dict]:
    return [row for row in rows_of(path) if row.get("_ng_task_index") in indices]


# =====================================================================================================
# the real NeMo Gym 0.7.0
# =====================================================================================================


@case(
    "healthy_gym_eval_then_env_start_interrupted_twice",
    "healthy",
    [],
    "nothing is wrong: every rollout was collected and profiled; afterwards the user pressed Ctrl-C on `gym env "
    "start` and, impatient, a second time a second later, so its log ends in shutdown tracebacks",
    netns=True,
)
def healthy_gym_eval_then_env_start_interrupted_twice(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 14, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 3, 4))
    profiled = gym_profile(ctx, run / "results")
    ctx.note("(Ctrl-C on `gym env start`, then Ctrl-C again a second later)")
    try:
        os.killpg(env_start.pid, signal.SIGINT)
    except ProcessLookupError:
        pass
    time.sleep(1.0)
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 20)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if code or profiled or got != 18:
        raise failed(ctx, f"eval {code}, profile {profiled}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (6 tasks x 3) exit {code}, {got} "
            f"rollouts; `gym eval profile` exit {profiled}; then Ctrl-C twice on `gym env start`.")


@case(
    "config_gym_eval_env_file_with_crlf_line_endings",
    "config",
    ["eval.env"],
    "the user's run_eval.sh sources eval.env, which was last saved on Windows with CRLF line endings: every value "
    "read from it ends in a carriage return (the agent name, the input and output paths, the repeats), so `gym eval "
    "run` was given names and paths that do not exist and evaluated nothing",
    netns=True,
)
def config_gym_eval_env_file_with_crlf_line_endings(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 22, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    (run / "eval.env").write_bytes((
        "# evaluation settings (edited on the laptop)\r\n"
        "AGENT=string_match_simple_agent\r\n"
        f"INPUT={data}\r\n"
        f"OUTPUT={run}/results/rollouts.jsonl\r\n"
        "NUM_REPEATS=2\r\n"
        "CONCURRENCY=4\r\n").encode())
    code = gym_eval_sh(ctx, "run_eval.sh", (
        f"set -a\nsource {run}/eval.env\nset +a\n"
        f'{GYM} eval run --no-serve --agent "$AGENT" --input "$INPUT" --output "$OUTPUT" '
        f'--num-repeats "$NUM_REPEATS" --concurrency "$CONCURRENCY" ++route_failures_to_sidecar=true {overrides}\n'),
        timeout=300)
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    if code == 0 and len(rows) == 8:
        raise failed(ctx, f"eval {code}, {len(rows)} rows")
    return (f"RUN/eval.env with CRLF line endings, sourced by RUN/run_eval.sh; real NeMo Gym 0.7.0 (loopback-only "
            f"namespace) `gym eval run --no-serve` exit {code}, {len(rows)} rollouts.")


@case(
    "config_gym_head_server_host_copied_from_multinode_config",
    "config",
    ["head_server.host"],
    "the user's start_gym.sh keeps ++head_server.host=10.40.2.17 from the multi-node config it was copied from: "
    "this machine has no such address, so the head server could not bind it and Gym's servers never started",
    netns=True,
)
def config_gym_head_server_host_copied_from_multinode_config(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 26, "--latency-ms 30")
    script = run / "start_gym.sh"
    script.write_text("#!/bin/bash\n# copied from the multi-node launch of last month\n"
                      f"{GYM} env start {gym_model_args(url)} ++head_server.host=10.40.2.17 {overrides}\n")
    env_start = ctx.bg(f"bash {script}", "env_start.log")
    ready = wait_env_start(ctx, env_start, 120)
    code = None
    if ready:
        code = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4), 120)
    elif env_start.poll() is None:
        ctx.note("120 s without `gym env start` getting ready: Ctrl-C on it")
    stop_gym(ctx, env_start, policy)
    if ready:
        raise failed(ctx, f"ready {ready}, eval {code}")
    return (f"RUN/start_gym.sh with ++head_server.host=10.40.2.17; real NeMo Gym 0.7.0 (loopback-only namespace) "
            f"`gym env start` ready {ready}, exit {env_start.returncode}.")


SLIM_RESPONSE_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)
        # only what the team dashboard reads: no need to echo the whole request back
        return StringMatchVerifyResponse(
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""


@case(
    "data_schema_gym_dataset_exported_as_json_text_sequence",
    "data_schema",
    [],
    "the dataset was exported with `jq --seq`, which writes JSON text sequences (RFC 7464): every row starts with an "
    "ASCII record separator (0x1E) before its JSON, so no line of the file parses as JSON and Gym could not read the "
    "tasks",
    netns=True,
)
def data_schema_gym_dataset_exported_as_json_text_sequence(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 50, "--latency-ms 30")
    data.write_bytes(b"".join(b"\x1e" + line + b"\n" for line in data.read_bytes().splitlines() if line.strip()))
    ctx.note("(RUN/tasks.jsonl written by `jq --seq -c . rows.json > tasks.jsonl`)")
    ctx.sh(f"head -c 200 {data} | od -c | head -5", "logs/od_tasks.log")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4), 150)
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    if code == 0 and len(rows) == 12:
        raise failed(ctx, f"eval {code}, {len(rows)} rows")
    return (f"RUN/tasks.jsonl with a record separator (0x1E) before every row; real NeMo Gym 0.7.0 (loopback-only "
            f"namespace) `gym eval run --no-serve` (6 tasks x 2) exit {code}, {len(rows)} rollouts.")


@case(
    "config_gym_eval_smoke_test_limit_left_in_script",
    "config",
    ["--limit"],
    "the user's run_eval.sh still carries --limit 3 from the smoke test of the day before: the nightly eval ran and "
    "profiled only the first 3 of the 12 tasks, and the report covers a quarter of the set",
    netns=True,
)
def config_gym_eval_smoke_test_limit_left_in_script(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 12, 4, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval_sh(ctx, "run_eval.sh", (
        "# nightly eval of the full set\n"
        f"{GYM} eval run --no-serve --agent string_match_simple_agent --input {data} "
        f"--output {run}/results/rollouts.jsonl --num-repeats 2 --concurrency 4 --limit 3 "
        f"++route_failures_to_sidecar=true {overrides}\n"), timeout=300)
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    tasks = {row.get("_ng_task_index") for row in rows_of(run / "results" / "rollouts.jsonl")}
    if len(tasks) >= 12:
        raise failed(ctx, f"eval {code}, tasks {tasks}")
    return (f"RUN/run_eval.sh (`gym eval run --no-serve ... --limit 3`) over RUN/tasks.jsonl (12 tasks x 2) exit {code}, "
            f"{len(tasks)} tasks evaluated; `gym eval profile` exit {profiled}.")


NONE_REWARD_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        reward = None  # set below once we know the answer
        if extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""


@case(
    "verifier_runtime_gym_verify_reward_left_none_when_nothing_extracted",
    "verifier_runtime",
    ["reward"],
    "the user's strict_match resources server starts verify with reward = None and sets it only when an answer "
    "was extracted: for every response without an extractable answer the verify response is built with reward None, "
    "refused by the response model, and verify answers 500, so those rollouts are lost",
    netns=True,
)
def verifier_runtime_gym_verify_reward_left_none_when_nothing_extracted(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 10, 0, "--latency-ms 30", weaker=True)
    search = own_gym_server(ctx, "strict_match", NONE_REWARD_VERIFY)
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='strict_match')} "
                               f"{overrides}")
    code = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 3, 4,
                                                       "strict_match_simple_agent"), 150)
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    if (code == 0 and len(rows) == 30) or not in_log(ctx, "valid number"):
        raise failed(ctx, f"eval {code}, {len(rows)} rows")
    return ("A user's resources server strict_match (verify leaves reward None when nothing is extracted); the weaker "
            f"checkpoint step_0100; real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (10 tasks "
            f"x 3) exit {code}, {len(rows)} of 30 rollouts; `gym eval profile` exit {profiled}.")


@case(
    "verifier_runtime_gym_verify_response_built_without_request_fields",
    "verifier_runtime",
    ["StringMatchVerifyResponse"],
    "the user's slim_match resources server builds its StringMatchVerifyResponse from the reward and answers only, "
    "without the request's fields (responses_create_params, response): the response model refuses it, so every "
    "verify call failed with a validation error and no rollout was scored",
    netns=True,
)
def verifier_runtime_gym_verify_response_built_without_request_fields(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 30, "--latency-ms 30")
    search = own_gym_server(ctx, "slim_match", SLIM_RESPONSE_VERIFY)
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='slim_match')} "
                               f"{overrides}")
    code = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4,
                                                       "slim_match_simple_agent"), 150)
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    if (code == 0 and len(rows) == 12) or not in_log(ctx, "StringMatchVerifyResponse"):
        raise failed(ctx, f"eval {code}, {len(rows)} rows")
    return ("A user's resources server slim_match (verify returns StringMatchVerifyResponse(reward=..., "
            f"expected_answer=..., extracted_answer=...)); real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run "
            f"--no-serve` (6 tasks x 2) exit {code}, {len(rows)} of 12 rollouts; `gym eval profile` exit {profiled}.")


TWO_ARG_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        reward = 0.0
        if extracted is not None and body.expected_answer:
            # our labels are all lower-case: always compare case-insensitively
            reward = _answers_match(extracted, body.expected_answer)
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""


@case(
    "verifier_runtime_gym_verify_calls_helper_without_case_sensitive",
    "verifier_runtime",
    ["case_sensitive"],
    "the user's lower_match resources server calls _answers_match(extracted, expected) without its third argument "
    "case_sensitive (dropped when they made every comparison case-insensitive): every verify whose answer was "
    "extracted raised TypeError and answered 500, and those rollouts were lost",
    netns=True,
)
def verifier_runtime_gym_verify_calls_helper_without_case_sensitive(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 36, "--latency-ms 30")
    search = own_gym_server(ctx, "lower_match", TWO_ARG_VERIFY)
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='lower_match')} "
                               f"{overrides}")
    code = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4,
                                                       "lower_match_simple_agent"), 150)
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    if (code == 0 and len(rows) == 12) or not in_log(ctx, "case_sensitive"):
        raise failed(ctx, f"eval {code}, {len(rows)} rows")
    return ("A user's resources server lower_match (verify calls _answers_match with two arguments); real NeMo Gym "
            f"0.7.0 (loopback-only namespace) `gym eval run --no-serve` (6 tasks x 2) exit {code}, {len(rows)} of 12 "
            f"rollouts; `gym eval profile` exit {profiled}.")


PORT_FORWARD = '''"""Forward 127.0.0.1:LOCAL to the model server (what our `ssh -L` tunnel to the GPU node does)."""
import asyncio
import sys

local, host, port = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])


async def pipe(reader, writer):
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    finally:
        writer.close()


async def handle(reader, writer):
    upstream_reader, upstream_writer = await asyncio.open_connection(host, port)
    await asyncio.gather(pipe(reader, upstream_writer), pipe(upstream_reader, writer), return_exceptions=True)


async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", local)
    print(f"forwarding 127.0.0.1:{local} -> {host}:{port}", flush=True)
    async with server:
        await server.serve_forever()


asyncio.run(main())
'''


@case(
    "infra_gym_model_port_forward_closed_mid_eval",
    "infra",
    ["port_forward"],
    "Gym reaches the model server through the user's port forward (port_forward.py, standing in for an ssh -L "
    "tunnel to the GPU node); the terminal holding the forward was closed (SIGHUP) mid-eval, so every later request "
    "to the model was refused and the remaining rollouts were lost, although the model server itself kept running",
    netns=True,
)
def infra_gym_model_port_forward_closed_mid_eval(ctx: Ctx) -> str:
    from gym_pipeline.host import free_loopback_port

    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 10, 44, "--latency-ms 600")
    upstream = int(url.split("://", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])
    local = free_loopback_port()
    (run / "port_forward.py").write_text(PORT_FORWARD)
    forward = ctx.bg(f"{PY} {run}/port_forward.py {local} 127.0.0.1 {upstream}", "port_forward.log")
    wait_for(lambda: "forwarding" in text_of(run / "port_forward.log"), 30, "the port forward")
    env_start = gym_start(ctx, f"{gym_model_args(f'http://127.0.0.1:{local}/v1')} {overrides}")
    eval_run = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 3, 2), background=True)
    wait_for(lambda: len(rows_of(run / "results" / "rollouts.jsonl")) >= 6 or eval_run.poll() is not None, 200,
             "the first rollouts", poll_s=0.3)
    ctx.note("(the terminal holding the port forward is closed: SIGHUP)")
    ctx.stop(forward, signal.SIGHUP, 10)
    wait_or_interrupt(ctx, eval_run, 150, "`gym eval run`")
    profiled = gym_profile(ctx, run / "results")
    alive = policy.poll() is None
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    if len(rows) >= 30 or not alive:
        raise failed(ctx, f"eval {eval_run.returncode}, {len(rows)} rows, policy alive {alive}")
    return (f"RUN/port_forward.py 127.0.0.1:{local} -> the model server; real NeMo Gym 0.7.0 (loopback-only namespace) "
            f"`gym eval run --no-serve` (10 tasks x 3) with the forward closed by SIGHUP after the first rollouts: exit "
            f"{eval_run.returncode}, {len(rows)} of 30 rollouts; `gym eval profile` exit {profiled}.")


@case(
    "model_serving_gym_user_stopped_the_server_the_env_points_at",
    "model_serving",
    [],
    "the user had started the model server twice (two terminals, two ports) and, tidying up, stopped the first one "
    "with Ctrl-C: that was the one `gym env start` had been given with --model-url, so every request of the eval "
    "found no model server and nothing was evaluated",
    netns=True,
)
def model_serving_gym_user_stopped_the_server_the_env_points_at(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 56, "--latency-ms 30")
    checkpoint = ctx.work / "checkpoints" / "step_0200"
    url2, policy2 = ctx.policy(checkpoint, "--latency-ms 30", log="policy_server_2.log")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    ctx.note("(the user sees two model servers and stops the first one with Ctrl-C)")
    ctx.stop(policy, signal.SIGINT, 20)
    code = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4), 150)
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy2)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    if code == 0 and len(rows) == 10 and mean(rewards(rows)) > 0.5:
        raise failed(ctx, f"eval {code}, {len(rows)} rows")
    return (f"two model servers ({url} and {url2}), `gym env start --model-url {url}`, then the first server stopped; "
            f"real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (5 tasks x 2) exit {code}, "
            f"{len(rows)} rollouts; `gym eval profile` exit {profiled}.")


MAKE_REMAINING = '''"""Write the tasks that do not have all their rollouts yet, to evaluate only those."""
import json
import sys
from collections import Counter

tasks, done, repeats, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
counts = Counter(json.loads(line)["_ng_task_index"] for line in open(done) if line.strip())
rows = [line for index, line in enumerate(open(tasks)) if counts[index] < repeats]
open(out, "w").writelines(rows)
print(f"{len(rows)} tasks left to evaluate")
'''


@case(
    "cache_resume_gym_manual_resume_on_remaining_rows_file",
    "cache_resume",
    [],
    "after an interrupted eval the user 'resumed' by hand: a script wrote the unfinished tasks to remaining.jsonl, "
    "which was evaluated on its own and its rollouts concatenated with the partial ones; the new run numbered its "
    "tasks from 0 again, so its task and rollout indices collide with the first run's and the profile pairs rollouts "
    "with the wrong tasks",
    netns=True,
)
def cache_resume_gym_manual_resume_on_remaining_rows_file(ctx: Ctx) -> str:
    run = ctx.run
    results = run / "results"
    data, url, policy, overrides = gym_setup(ctx, "string_match", 10, 60, "--latency-ms 600")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    first = gym_eval(ctx, overrides, agent_args(data, results / "rollouts.jsonl", 2, 2), background=True)
    wait_for(lambda: len(rows_of(results / "rollouts.jsonl")) >= 7 or first.poll() is not None, 200,
             "the first rollouts", poll_s=0.3)
    ctx.note("(Ctrl-C on the eval)")
    ctx.stop(first, signal.SIGINT, 30)
    partial = len(rows_of(results / "rollouts.jsonl"))
    (run / "make_remaining.py").write_text(MAKE_REMAINING)
    ctx.sh(f"{PY} {run}/make_remaining.py {data} {results}/rollouts.jsonl 2 {run}/remaining.jsonl",
           "logs/make_remaining.log")
    rest = gym_eval(ctx, overrides, agent_args(run / "remaining.jsonl", results / "rollouts_rest.jsonl", 2, 2),
                    log="eval_run_rest.log")
    ctx.sh(f"cat {results}/rollouts.jsonl {results}/rollouts_rest.jsonl > {results}/rollouts_all.jsonl",
           "logs/concatenate.log")
    profiled = ctx.sh(f"{GYM} eval profile --inputs {results}/rollouts_materialized_inputs.jsonl "
                      f"--rollouts {results}/rollouts_all.jsonl", "eval_profile.log", timeout=300)
    stop_gym(ctx, env_start, policy)
    combined = rows_of(results / "rollouts_all.jsonl")
    keys = unique_keys(results / "rollouts_all.jsonl")
    if partial >= 20 or len(combined) <= len(keys):
        raise failed(ctx, f"partial {partial}, rest {rest}, {len(combined)} rows, {len(keys)} keys")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (10 tasks x 2) interrupted with "
            f"{partial} rollouts; RUN/make_remaining.py wrote the unfinished tasks, evaluated into rollouts_rest.jsonl "
            f"(exit {rest}); concatenated: {len(combined)} rows, {len(keys)} distinct keys; `gym eval profile` exit "
            f"{profiled}.")


# =====================================================================================================
# the built-in engine, the stages and the launchers
# =====================================================================================================


@case(
    "healthy_builtin_run_in_folders_with_accented_names",
    "healthy",
    [],
    "nothing is wrong: the team keeps its data under données/ and its reports under résultats/ (non-ASCII folder "
    "names in every path and log); materialize, collect and profile completed every rollout",
)
def healthy_builtin_run_in_folders_with_accented_names(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=8, folder=run / "données", name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    materialize(ctx, data, 3, "string_match")
    codes = [collect_sh(ctx, url, "string_match", 3, timeout=300),
             profile_sh(ctx, "--output-dir", str(run / "résultats"))]
    got = len(unique_keys(run / "rollouts.jsonl"))
    if any(codes) or got != 18:
        raise failed(ctx, f"exit {codes}, {got}")
    return f"RUN/données/string_match.jsonl (6 x 3); collect, profile --output-dir RUN/résultats exit {codes}; {got} rollouts."


@case(
    "config_builtin_profile_inputs_and_rollouts_swapped",
    "config",
    ["--inputs"],
    "the user's profile command gives --inputs the rollouts file and --rollouts the materialized inputs (swapped): "
    "the profile read the inputs as rollouts and reported no rewards at all (over 0 tasks), so the complete "
    "collection was never really profiled",
)
def config_builtin_profile_inputs_and_rollouts_swapped(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 5, 64, 3, "--latency-ms 20")
    collected = collect_sh(ctx, url, "string_match", 3, timeout=300)
    profiled = ctx.sh(f"{GP} profile --inputs {run}/rollouts.jsonl --rollouts {run}/rollouts_materialized_inputs.jsonl",
                      "logs/profile.log", timeout=300)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if collected or got != 15 or not in_log(ctx, "no row has a 'reward'", "logs/profile.log"):
        raise failed(ctx, f"collect {collected}, {got}, profile {profiled}")
    return (f"materialize (5 tasks x 3), collect exit {collected} ({got} rollouts); `gym-pipeline profile --inputs "
            f"RUN/rollouts.jsonl --rollouts RUN/rollouts_materialized_inputs.jsonl` exit {profiled}.")


@case(
    "model_serving_builtin_server_started_on_checkpoint_still_being_copied",
    "model_serving",
    ["config.json"],
    "the model server was started on incoming/step_0200 while rsync was still copying the checkpoint there: its "
    "config.json existed only as rsync's temporary .config.json.Xk3f9a, the server could not load the checkpoint "
    "and exited, and the collection found no model server",
)
def model_serving_builtin_server_started_on_checkpoint_still_being_copied(ctx: Ctx) -> str:
    from gym_pipeline.host import free_loopback_port

    run = ctx.run
    data = ctx.dataset("string_match", 5, start=72, folder=run, name="string_match.jsonl")
    source = checkpoints(ctx, "string_match", data)[1]
    incoming = ctx.work / "incoming" / "step_0200"
    incoming.mkdir(parents=True)
    for path in source.iterdir():
        if path.name != "config.json":
            shutil.copy2(path, incoming / path.name)
    config = (source / "config.json").read_bytes()
    (incoming / ".config.json.Xk3f9a").write_bytes(config[: len(config) // 2])
    ctx.note("(rsync -a checkpoints/step_0200/ incoming/step_0200/ is still running in another terminal)")
    ctx.sh(f"ls -la {incoming}", "logs/ls_checkpoint.log")
    port = free_loopback_port()
    server = ctx.bg(f"{GP} serve-policy --port {port} --checkpoint {incoming} --latency-ms 20", "logs/model_server.log")
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
    return (f"`gym-pipeline serve-policy --port {port} --checkpoint WORK/incoming/step_0200` (config.json not yet "
            f"copied) exit {server.returncode}; materialize (5 tasks x 3); collect exit {collected}, {len(rows)} rows.")


@case(
    "model_serving_stage_server_left_with_debug_latency",
    "model_serving",
    ["--latency-ms"],
    "the user relaunched the model server with serve_policy.sh, taken from the shell history of a timeout test: "
    "--latency-ms 30000 (30 s per generation): every generation outlasts the collect's 4-second request timeout, so the requests timed out and "
    "the rollouts were given up",
)
def model_serving_stage_server_left_with_debug_latency(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 3, start=76, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    ready = ctx.work / "model_url"
    script = run / "serve_policy.sh"
    script.write_text("#!/bin/bash\n# relaunch of the model server (from the shell history)\n"
                      f"{GP} serve-policy --port 0 --ready-file {ready} --checkpoint {checkpoint} --latency-ms 30000\n")
    ctx.bg(f"bash {script}", "logs/model_server.log")
    wait_for(lambda: ready.exists() and ready.read_text().strip() != "", 30, "the model server")
    url = ready.read_text().strip()
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=2, concurrency=6, request_timeout_s=4)
    codes = [stage(ctx, sweep, "materialize", checkpoint, "string_match"),
             stage(ctx, sweep, "collect", checkpoint, "string_match", *served(url)),
             stage(ctx, sweep, "profile", checkpoint, "string_match")]
    rows = rows_of(run / "rollouts.jsonl")
    if len(rows) == 6 and mean(rewards(rows)) > 0.5:
        raise failed(ctx, f"exit {codes}, {len(rows)} rows")
    return (f"RUN/serve_policy.sh (model server --latency-ms 30000); sweep request_timeout_s 4; stages materialize, collect, profile exit "
            f"{codes}; {len(rows)} of 6 rows.")


@case(
    "data_schema_builtin_labels_wrapped_in_csv_quotes",
    "data_schema",
    ["expected_answer"],
    "the dataset was converted from a CSV export whose quoting was kept: every expected_answer carries literal "
    "double quotes (\"\\\"Hydrogen\\\"\"), which the model's answers never have, so correct answers score 0",
)
def data_schema_builtin_labels_wrapped_in_csv_quotes(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=1, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    changed = rewrite_rows(data, lambda i, row: row.update(expected_answer=f'"{row["expected_answer"]}"') or True)
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    materialize(ctx, data, 2, "string_match")
    collected = collect_sh(ctx, url, "string_match", 3, timeout=300)
    profiled = profile_sh(ctx)
    rows = rows_of(run / "rollouts.jsonl")
    if not rows or mean(rewards(rows)) > 0.3:
        raise failed(ctx, f"{changed} changed; collect {collected}, {len(rows)} rows, rewards {rewards(rows)}")
    return (f"RUN/string_match.jsonl (8 rows, labels in literal double quotes); materialize (x 2), collect exit "
            f"{collected}, profile exit {profiled}; mean reward {mean(rewards(rows)):.2f}.")


@case(
    "config_builtin_materialize_sampling_overrides_in_python_dict_syntax",
    "config",
    ["--responses-create-params"],
    "the user's prepare.sh passes --responses-create-params \"{'temperature': 0.6, 'top_p': 0.95}\" (a Python dict "
    "pasted from a notebook, single quotes) instead of JSON: materialize refused it, so no inputs were written and "
    "the collection that followed had nothing to read",
)
def config_builtin_materialize_sampling_overrides_in_python_dict_syntax(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=12, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    script = run / "prepare.sh"
    script.write_text("#!/bin/bash\n# sampling settings from the notebook\n"
                      f"{GP} materialize --input {data} --num-repeats 3 --agent string_match_simple_agent "
                      f"--responses-create-params \"{{'temperature': 0.6, 'top_p': 0.95}}\" "
                      f"--output {run}/rollouts_materialized_inputs.jsonl\n")
    prepared = ctx.sh(f"bash {script}", "logs/materialize.log", timeout=120)
    collected = collect_sh(ctx, url, "string_match", 3, timeout=300)
    rows = rows_of(run / "rollouts.jsonl")
    if prepared == 0 or rows:
        raise failed(ctx, f"materialize {prepared}, collect {collected}, {len(rows)}")
    return (f"RUN/prepare.sh (`gym-pipeline materialize --responses-create-params \"{{'temperature': 0.6, ...}}\"`) "
            f"exit {prepared}; `gym-pipeline collect` exit {collected}, {len(rows)} rows.")


@case(
    "data_schema_builtin_mcqa_option_keys_with_closing_parenthesis",
    "data_schema",
    ["options"],
    "the mcqa set was built by a script that kept the prompt's letter markers in the options' keys ([{\"A)\": "
    "\"FF\"}, ...]): the options need a bare upper-case letter as key, so the mcqa verifier refused every row",
)
def data_schema_builtin_mcqa_option_keys_with_closing_parenthesis(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("mcqa", 6, start=30, folder=run, name="mcqa.jsonl")
    checkpoint = checkpoints(ctx, "mcqa", data)[1]

    def parenthesis(i, row):
        row["options"] = [{f"{key})": text for key, text in option.items()} for option in row["options"]]
        return True

    rewrite_rows(data, parenthesis)
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    materialize(ctx, data, 2, "mcqa")
    collected = collect_sh(ctx, url, "mcqa", 3, timeout=300)
    profiled = profile_sh(ctx)
    rows = rows_of(run / "rollouts.jsonl")
    if len(rows) == 12 and mean(rewards(rows)) > 0.3:
        raise failed(ctx, f"collect {collected}, {len(rows)} rows, rewards {rewards(rows)}")
    return (f"RUN/mcqa.jsonl (6 rows, option keys \"A)\", \"B)\", ...); materialize (x 2), collect exit {collected}, "
            f"profile exit {profiled}; {len(rows)} rows, rewards {rewards(rows)}.")


GROUP_VERIFIER = '''
"""Our exact-answer verifier: the answer after 'Final answer:' or inside \\\\boxed{}."""
import re

# the first group became non-capturing in last week's clean-up
ANSWER = re.compile(r"(?:final answer:|boxed\\{)\\s*([^}\\n]+)", re.IGNORECASE)


def score(row, response_text):
    match = ANSWER.search(response_text)
    if match is None:
        return 0.0
    answer = match.group(2).strip().rstrip(".")
    return 1.0 if answer.lower() == str(row["expected_answer"]).lower() else 0.0
'''


@case(
    "verifier_runtime_slurm_workspace_verifier_regex_group_index_stale",
    "verifier_runtime",
    ["group"],
    "the user's workspace verifier reads match.group(2), but a clean-up made the regex's first group non-capturing, "
    "so there is no group 2: every verifier call that found an answer raised IndexError ('no such group')",
)
def verifier_runtime_slurm_workspace_verifier_regex_group_index_stale(ctx: Ctx) -> str:
    run = ctx.run
    sweep, checkpoint, url = verifier_sweep(ctx, GROUP_VERIFIER, 10, n=6)
    materialized = stage(ctx, sweep, "materialize", checkpoint, "exact_answer")
    launcher, label = slurm()
    collected = launched(ctx, launcher, label, "collect",
                         stage_argv(sweep, "collect", checkpoint, "exact_answer", *served(url)))
    profiled = stage(ctx, sweep, "profile", checkpoint, "exact_answer")
    rows = rows_of(run / "rollouts.jsonl")
    if not in_log(ctx, "no such group"):
        raise failed(ctx, f"{collected}; {len(rows)} rows")
    return (f"workspace verifier verifiers/my_verifier.py (match.group(2) of a one-group regex); `stage materialize` "
            f"exit {materialized}; collect as a Slurm job: {collected}; `stage profile` exit {profiled}; {len(rows)} rows.")


DEDUPE = '''"""Keep one rollout per task for the review sheet (the reviewers read each answer once)."""
import json
import sys

path = sys.argv[1]
seen, kept = set(), []
for line in open(path):
    row = json.loads(line)
    if row["_ng_task_index"] not in seen:
        seen.add(row["_ng_task_index"])
        kept.append(line)
open(path, "w").writelines(kept)
print(f"kept {len(kept)} rollouts")
'''


@case(
    "cache_resume_builtin_rollouts_deduplicated_in_place_before_profile",
    "cache_resume",
    [],
    "after a complete collection the user ran their review script dedupe.py, which keeps one rollout per task and "
    "wrote the result back over rollouts.jsonl; the profile then ran on that file, which lacks three of every four "
    "rollouts",
)
def cache_resume_builtin_rollouts_deduplicated_in_place_before_profile(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 5, 80, 4, "--latency-ms 20")
    collected = collect_sh(ctx, url, "string_match", 4, timeout=300)
    before = len(rows_of(run / "rollouts.jsonl"))
    (run / "dedupe.py").write_text(DEDUPE)
    ctx.sh(f"{PY} {run}/dedupe.py {run}/rollouts.jsonl", "logs/dedupe.log")
    profiled = profile_sh(ctx)
    after = len(rows_of(run / "rollouts.jsonl"))
    if collected or before != 20 or after != 5:
        raise failed(ctx, f"collect {collected}, {before} -> {after}")
    return (f"materialize (5 tasks x 4), collect exit {collected} ({before} rollouts); RUN/dedupe.py over "
            f"rollouts.jsonl ({after} left); profile exit {profiled}.")


@case(
    "throughput_stage_two_partitions_collected_at_once_on_small_server",
    "throughput_resources",
    ["concurrency"],
    "the user started the collect stages of two partitions (string_match and mcqa) at the same time, each at "
    "concurrency 8, against one model server that generates 2 at a time with 2 waiting: together they overflowed its "
    "queue, the overflow was answered 429 overloaded and many rollouts were given up",
)
def throughput_stage_two_partitions_collected_at_once_on_small_server(ctx: Ctx) -> str:
    from gym_pipeline.environments import McqaEnvironment, StringMatchEnvironment
    from gym_pipeline.serving.checkpoints import demo_checkpoints

    run = ctx.run
    sm = ctx.dataset("string_match", 10, start=20, folder=run, name="string_match.jsonl")
    mc = ctx.dataset("mcqa", 10, start=20, folder=run, name="mcqa.jsonl")
    checkpoint = demo_checkpoints(ctx.work / "checkpoints", 2, [StringMatchEnvironment(sm), McqaEnvironment(mc)])[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 500 --max-running 2 --max-waiting 2")
    runs = ctx.work / "runs" / checkpoint.name
    runs.mkdir(parents=True)
    (runs / "string_match").symlink_to(run, target_is_directory=True)
    (run / "mcqa_run").mkdir()
    (runs / "mcqa").symlink_to(run / "mcqa_run", target_is_directory=True)
    sweep = run / "sweep.json"
    sweep.write_text(json.dumps({
        "name": "nightly", "environments": [{"name": "string_match", "dataset": str(sm)},
                                            {"name": "mcqa", "dataset": str(mc)}],
        "checkpoints_dir": str(checkpoint.parent), "runs_dir": str(ctx.work / "runs"), "num_repeats": 3,
        "concurrency": 8}, indent=2) + "\n")
    for env in ("string_match", "mcqa"):
        ctx.sh(shlex.join(stage_argv(sweep, "materialize", checkpoint, env)), f"logs/materialize_{env}.log",
               timeout=300)
    collects = [ctx.bg(shlex.join(stage_argv(sweep, "collect", checkpoint, env, *served(url))),
                       f"logs/collect_{env}.log") for env in ("string_match", "mcqa")]
    for process in collects:
        wait_or_interrupt(ctx, process, 400, "`gym-pipeline stage collect`")
    for env in ("string_match", "mcqa"):
        ctx.sh(shlex.join(stage_argv(sweep, "profile", checkpoint, env)), f"logs/profile_{env}.log", timeout=300)
    got = len(rows_of(run / "rollouts.jsonl")) + len(rows_of(run / "mcqa_run" / "rollouts.jsonl"))
    if got == 60 or not in_log(ctx, "429"):
        raise failed(ctx, f"exits {[p.returncode for p in collects]}, {got}")
    return ("model server --max-running 2 --max-waiting 2; `gym-pipeline stage collect` of string_match and mcqa "
            f"started at once (10 tasks x 3 each, concurrency 8): exits {[p.returncode for p in collects]}, {got} of 60 "
            "rollouts.")


@case(
    "infra_builtin_stale_environment_first_on_path",
    "infra",
    [],
    "the user's shell puts an old environment's bin folder (gym-2026-10) first on PATH; the scratch purge deleted that "
    "environment's Python, so its gym-pipeline entry script points at an interpreter that no longer exists and "
    "`gym-pipeline collect` could not start",
)
def infra_builtin_stale_environment_first_on_path(ctx: Ctx) -> str:
    run = ctx.run
    data, _, url, policy = builtin_setup(ctx, "string_match", 4, 82, 2, "--latency-ms 20")
    old = ctx.work / "envs" / "gym-2026-10" / "bin"
    old.mkdir(parents=True)
    entry = old / "gym-pipeline"
    entry.write_text(f"#!{ctx.work}/envs/gym-2026-10/bin/python3\n# -*- coding: utf-8 -*-\nimport re\nimport sys\n"
                     "from gym_pipeline.cli import main\nif __name__ == '__main__':\n"
                     "    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])\n    sys.exit(main())\n")
    entry.chmod(0o755)
    ctx.env = {**ctx.env, "PATH": f"{old}{os.pathsep}{ctx.env['PATH']}"}
    ctx.note("export PATH=WORK/envs/gym-2026-10/bin:$PATH   (from the user's ~/.bashrc)")
    argv = collect_argv(run, url, "string_match", 2)
    argv[0] = "gym-pipeline"
    collected = ctx.sh(shlex.join(argv), "logs/collect.log", timeout=300)
    rows = rows_of(run / "rollouts.jsonl")
    if collected == 0 or rows:
        raise failed(ctx, f"collect {collected}, {len(rows)}")
    return f"materialize (4 tasks x 2); `gym-pipeline collect` (the stale entry script first on PATH) exit {collected}."


# =====================================================================================================
# task folders (Docker sandboxes)
# =====================================================================================================


@case(
    "healthy_taskfolder_spelling_and_unique_words_two_repeats",
    "healthy",
    [],
    "nothing is wrong: the user's taskset (replace-spelling, sort-unique-words) ran twice each in Docker sandboxes; "
    "every episode completed, was verified and profiled",
)
def healthy_taskfolder_spelling_and_unique_words_two_repeats(ctx: Ctx) -> str:
    run = ctx.run
    tasks, codes = taskset_run(ctx, ["replace-spelling", "sort-unique-words"], repeats=2)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if any(codes) or got != 4:
        raise failed(ctx, f"exit {codes}, {got}")
    return (f"A sweep with the taskset RUN/tasks (replace-spelling, sort-unique-words; x 2); stages exit {codes}; "
            f"rewards {rewards(rows_of(run / 'rollouts.jsonl'))}.")


UNQUOTED_TEST = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
if [ $(cat /app/hello.txt 2>/dev/null) == "Hello, Gym!" ]; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


@case(
    "verifier_runtime_taskfolder_test_sh_unquoted_command_substitution",
    "verifier_runtime",
    ["test.sh"],
    "create-greeting's tests/test.sh was rewritten with `[ $(cat /app/hello.txt) == \"Hello, Gym!\" ]`, the "
    "command substitution unquoted: the greeting splits into two words, `[` fails with 'too many arguments' and the "
    "test writes 0 even when the task is done",
)
def verifier_runtime_taskfolder_test_sh_unquoted_command_substitution(ctx: Ctx) -> str:
    run = ctx.run

    def unquoted(tasks: Path) -> None:
        (tasks / "create-greeting" / "tests" / "test.sh").write_text(UNQUOTED_TEST)

    tasks, codes = taskset_run(ctx, ["create-greeting", "csv-column-total"], unquoted)
    greeting = task_rewards(run / "rollouts.jsonl", "create-greeting")
    if not greeting or any(greeting):
        raise failed(ctx, f"exit {codes}, create-greeting rewards {greeting}")
    return (f"A sweep with the taskset RUN/tasks (create-greeting's test.sh with an unquoted $(cat ...), "
            f"csv-column-total; x 2); stages exit {codes}; create-greeting rewards {greeting}.")


GRADER_TEST = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# The expected greeting comes from the team's grader service on the host, so it can change without a rebuild.
cd /app
expected=$(python3 -c 'import urllib.request; print(urllib.request.urlopen("http://127.0.0.1:PORT/greeting.txt", timeout=5).read().decode().strip())') || { echo "could not reach the grader service at 127.0.0.1:PORT"; exit 1; }
if test "$(cat /app/hello.txt 2>/dev/null)" = "$expected"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


@case(
    "config_taskfolder_task_needs_host_network_sweep_does_not_allow_internet",
    "config",
    ["allow_internet"],
    "create-greeting's test.sh fetches the expected greeting from the team's grader service on the host and its "
    "task.toml asks for the network (allow_internet = true), but the sweep's environment does not set "
    "allow_internet: true, so the sandbox ran without a network, the test could not reach the service and wrote "
    "no reward",
)
def config_taskfolder_task_needs_host_network_sweep_does_not_allow_internet(ctx: Ctx) -> str:
    from gym_pipeline.host import free_loopback_port

    run = ctx.run
    port = free_loopback_port()
    grader = ctx.work / "grader"
    grader.mkdir()
    (grader / "greeting.txt").write_text("Hello, Gym!\n")
    ctx.bg(f"{PY} -m http.server {port} --bind 127.0.0.1 --directory {grader}", "logs/grader_service.log")
    time.sleep(1.0)

    def needs_network(tasks: Path) -> None:
        folder = tasks / "create-greeting"
        (folder / "tests" / "test.sh").write_text(GRADER_TEST.replace("PORT", str(port)))
        toml = folder / "task.toml"
        toml.write_text(toml.read_text().replace("allow_internet = false", "allow_internet = true"))

    tasks, codes = taskset_run(ctx, ["create-greeting", "json-version"], needs_network)
    greeting = task_rewards(run / "rollouts.jsonl", "create-greeting")
    kinds = failure_kinds(run / "rollouts.jsonl")
    if any(greeting):
        raise failed(ctx, f"exit {codes}, create-greeting rewards {greeting}, kinds {kinds}")
    return (f"the team's grader service on 127.0.0.1:{port}; a sweep with the taskset RUN/tasks (create-greeting "
            f"fetches its expected greeting from it, allow_internet = true in task.toml; json-version; x 2), the sweep "
            f"without allow_internet; stages exit {codes}; create-greeting rewards {greeting}; failure kinds {kinds}.")


if __name__ == "__main__":
    sys.exit(main("eighteenth_held_out", __file__, __doc__))
