"""Build the NINETEENTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/nineteenth_held_out.py --out tests/data/diagnosis_corpus/nineteenth_held_out [--only CASE ...]

Measured once on 2026-12-03 (top-1 68 %, see benchmarks/README.md), then tuned on by kind. The next held-out set is
twentieth_held_out.py.

This is the nineteenth held-out set, written from the guides alone (the NeMo Gym debugging guide, the reward
profiling guide, the task-folder troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without
reading the diagnosis rules, their tests or their results. It was measured once, by someone else, to see
how well `gym-pipeline diagnose` names root causes on failures its rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`: bounded queues, latency, fault injection), the built-in engine (`gym-pipeline
materialize`, `collect`, `profile`, `stage`), workspace verifiers (`verifier: "MODULE:FUNCTION"`), task folders run in
Docker sandboxes, the real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` / `gym eval profile` inside a
loopback-only network namespace, with users' own resources servers, scripts and a load balancer in front of two
model replicas), real node state (a stale PYTHONHOME, Docker TLS variables left from a remote engine), and real bad
command lines, scripts, config, data, verifier files and task folders. The output of every command is captured as
a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs. Each
case injects one cause, different from those of the eighteen earlier sets or reached by another path, and each
recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not written).

Labels (`case.json`) come from what was injected, following the NeMo Gym debugging guide's classes: the class of
the root cause (what the user must change), not of its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; the helpers shared with the earlier sets are imported from eighth_held_out.py,
ninth_held_out.py, tenth_held_out.py, fourteenth_held_out.py, seventeenth_held_out.py and eighteenth_held_out.py,
and only this set's own are defined here. Needs root (unshare), Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set
to this checkout. Run it from a foreground shell (SIGINT and SIGHUP at their defaults).
"""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighteenth_held_out import task_rewards  # noqa: E402
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
    stage,
    stop_gym,
    task_checkpoints,
    user_taskset,
    wait_or_interrupt,
    write_sweep,
)
from fourteenth_held_out import mean, rewards  # noqa: E402
from ninth_held_out import own_gym_server, taskset_sweep, verifier_sweep  # noqa: E402
from recipes import (  # noqa: E402
    GP,
    GYM,
    PY,
    Ctx,
    case,
    collect_argv,
    gym_eval,
    gym_model_args,
    main,
    materialize,
    rewrite_rows,
    rows_of,
    text_of,
    unique_keys,
    wait_for,
)
from seventeenth_held_out import failure_kinds, taskset_run  # noqa: E402
from tenth_held_out import gym_eval_bounded, in_log  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def script_bounded(ctx: Ctx, name: str, body: str, timeout_s: float = 200, log: str = "eval_run.log") -> int | None:
    """The user's own shell script RUN/NAME (body: its lines) run with bash; Ctrl-C after `timeout_s`."""
    script = ctx.run / name
    script.write_text("#!/bin/bash\n" + body)
    process = ctx.bg(f"bash {script}", log)
    wait_or_interrupt(ctx, process, timeout_s, f"`bash {name}`")
    return process.returncode


def profiles_in(folder: Path) -> list[Path]:
    return sorted(folder.glob("*reward_profiling*"))


# =====================================================================================================
# the real NeMo Gym 0.7.0
# =====================================================================================================


@case(
    "healthy_gym_eval_rerun_after_first_attempt_with_misspelled_flag",
    "healthy",
    [],
    "nothing is wrong: the user's first `gym eval run` had a misspelled flag (--ouput) and was refused at once (its "
    "log is still in the folder); the corrected command collected every rollout and the profile covered them all",
    netns=True,
)
def healthy_gym_eval_rerun_after_first_attempt_with_misspelled_flag(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 10, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    first = ctx.sh(f"{GYM} eval run --no-serve --agent string_match_simple_agent --input {data} "
                   f"--ouput {run}/results/rollouts.jsonl --num-repeats 3 --concurrency 4 "
                   f"++route_failures_to_sidecar=true {overrides}", "eval_run_first_try.log", timeout=200)
    code = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 3, 4))
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if first == 0 or code or profiled or got != 15:
        raise failed(ctx, f"first {first}, eval {code}, profile {profiled}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --ouput ...` exit {first}; then `gym eval "
            f"run --no-serve` (5 tasks x 3) exit {code}, {got} rollouts; `gym eval profile` exit {profiled}.")


@case(
    "config_gym_eval_script_line_continuation_broken_by_trailing_space",
    "config",
    ["run_eval.sh"],
    "in the user's run_eval.sh the backslash ending the first line of the `gym eval run` command is followed by a "
    "space, so it escapes the space instead of the newline: the command ends there, without --output, --num-repeats "
    "and --concurrency, and the next line ran as a command of its own ('--output: command not found'); no rollout "
    "reached the output the user expects",
    netns=True,
)
def config_gym_eval_script_line_continuation_broken_by_trailing_space(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 20, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = script_bounded(ctx, "run_eval.sh", (
        "# nightly eval\n"
        f"{GYM} eval run --no-serve {overrides} ++route_failures_to_sidecar=true \\\n"
        f"    --agent string_match_simple_agent --input {data} \\ \n"
        f"    --output {run}/results/rollouts.jsonl --num-repeats 2 --concurrency 4\n"), 200)
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    if len(rows) == 8 or not in_log(ctx, "command not found", "eval_run.log"):
        raise failed(ctx, f"eval {code}, {len(rows)} rows")
    return (f"RUN/run_eval.sh (a space after the backslash ending its --input line); real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) exit {code}, {len(rows)} rollouts at RUN/results/rollouts.jsonl; `gym eval "
            f"profile` exit {profiled}.")


JOIN = '''"""Build tasks.jsonl from the prompts export and the labels column exported from the sheet."""
import json
import sys

prompts, labels, out = sys.argv[1:4]
with open(out, "w") as target:
    for line, label in zip(open(prompts), open(labels)):
        row = json.loads(line)
        row["expected_answer"] = label.rstrip("\\n")
        target.write(json.dumps(row) + "\\n")
print("joined")
'''


@case(
    "data_schema_gym_labels_shifted_by_header_line_of_labels_export",
    "data_schema",
    ["expected_answer"],
    "tasks.jsonl was built by the user's join.py, which pairs the prompts with the lines of labels.csv; the CSV "
    "export starts with its header line (expected_answer), so every task got the label of the task before it (the "
    "first one the word 'expected_answer') and correct answers scored 0",
    netns=True,
)
def data_schema_gym_labels_shifted_by_header_line_of_labels_export(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 8, 24, "--latency-ms 30")
    rows = rows_of(data)
    (run / "prompts.jsonl").write_text("".join(json.dumps({k: v for k, v in row.items() if k != "expected_answer"})
                                               + "\n" for row in rows))
    (run / "labels.csv").write_text("expected_answer\n" + "".join(f"{row['expected_answer']}\n" for row in rows))
    (run / "join.py").write_text(JOIN)
    ctx.sh(f"{PY} {run}/join.py {run}/prompts.jsonl {run}/labels.csv {data}", "logs/join.log")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4), 150)
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    got = rows_of(run / "results" / "rollouts.jsonl")
    if not got or mean(rewards(got)) > 0.3:
        raise failed(ctx, f"eval {code}, {len(got)} rows, rewards {rewards(got)}")
    return (f"RUN/tasks.jsonl built by RUN/join.py from RUN/prompts.jsonl and RUN/labels.csv (with its header line); "
            f"real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (8 tasks x 2) exit {code}, "
            f"{len(got)} rollouts, mean reward {mean(rewards(got)):.2f}; `gym eval profile` exit {profiled}.")


REFUSE_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        if extracted is None:
            # a response without an answer is malformed: refuse it like any bad request
            raise HTTPException(status_code=422, detail="no answer could be extracted from the response")
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
    "verifier_runtime_gym_verify_refuses_unparsable_responses_with_422",
    "verifier_runtime",
    [],
    "the user's picky_match resources server raises HTTPException(422) in verify when no answer can be extracted "
    "from the response, instead of scoring it 0: every rollout whose response had no extractable answer was refused "
    "by verify and lost, and the rollout output is incomplete",
    netns=True,
)
def verifier_runtime_gym_verify_refuses_unparsable_responses_with_422(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 10, 32, "--latency-ms 30", weaker=True)
    search = own_gym_server(ctx, "picky_match", REFUSE_VERIFY, imports="from fastapi import HTTPException\n")
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='picky_match')} "
                               f"{overrides}")
    code = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 3, 4,
                                                       "picky_match_simple_agent"), 150)
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    if len(rows) == 30 or not in_log(ctx, "422"):
        raise failed(ctx, f"eval {code}, {len(rows)} rows")
    return ("A user's resources server picky_match (verify raises HTTPException(422) when nothing is extracted); the "
            f"weaker checkpoint step_0100; real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (10 "
            f"tasks x 3) exit {code}, {len(rows)} of 30 rollouts; `gym eval profile` exit {profiled}.")


BALANCER = '''"""Round-robin balancer on 127.0.0.1:LOCAL over our model replicas (what the team's nginx does on the cluster)."""
import asyncio
import itertools
import sys

local = int(sys.argv[1])
replicas = [(host, int(port)) for host, port in (item.rsplit(":", 1) for item in sys.argv[2:])]
turn = itertools.cycle(replicas)


async def pipe(reader, writer):
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    finally:
        writer.close()


async def handle(reader, writer):
    host, port = next(turn)
    try:
        upstream_reader, upstream_writer = await asyncio.open_connection(host, port)
    except OSError as error:
        print(f"upstream {host}:{port} failed: {error}", flush=True)
        writer.close()
        return
    await asyncio.gather(pipe(reader, upstream_writer), pipe(upstream_reader, writer), return_exceptions=True)


async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", local)
    print(f"balancing 127.0.0.1:{local} over {replicas}", flush=True)
    async with server:
        await server.serve_forever()


asyncio.run(main())
'''


@case(
    "model_serving_gym_one_of_two_replicas_behind_balancer_hung",
    "model_serving",
    [],
    "Gym reaches the model through the team's round-robin balancer over two model replicas; the second replica hung "
    "(its process stopped answering, SIGSTOP) during the eval while the balancer kept sending it every other "
    "connection, so those requests never got an answer and the eval stalled with rollouts missing, although the "
    "first replica kept serving",
    netns=True,
)
def model_serving_gym_one_of_two_replicas_behind_balancer_hung(ctx: Ctx) -> str:
    from gym_pipeline.host import free_loopback_port

    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 10, 42, "--latency-ms 500")
    checkpoint = ctx.work / "checkpoints" / "step_0200"
    url2, policy2 = ctx.policy(checkpoint, "--latency-ms 500", log="policy_server_replica2.log")
    replicas = [u.split("://", 1)[1].split("/", 1)[0] for u in (url, url2)]
    local = free_loopback_port()
    (run / "balancer.py").write_text(BALANCER)
    ctx.bg(f"{PY} {run}/balancer.py {local} {' '.join(replicas)}", "balancer.log")
    wait_for(lambda: "balancing" in text_of(run / "balancer.log"), 30, "the balancer")
    env_start = gym_start(ctx, f"{gym_model_args(f'http://127.0.0.1:{local}/v1')} {overrides}")
    eval_run = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 3, 4), background=True)
    wait_for(lambda: len(rows_of(run / "results" / "rollouts.jsonl")) >= 6 or eval_run.poll() is not None, 200,
             "the first rollouts", poll_s=0.3)
    ctx.note("(replica 2 hangs: SIGSTOP)")
    os.killpg(policy2.pid, signal.SIGSTOP)
    wait_or_interrupt(ctx, eval_run, 150, "`gym eval run`")
    profiled = gym_profile(ctx, run / "results")
    alive = policy.poll() is None
    os.killpg(policy2.pid, signal.SIGKILL)
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    if len(rows) >= 30 or not alive:
        raise failed(ctx, f"eval {eval_run.returncode}, {len(rows)} rows, replica 1 alive {alive}")
    return (f"RUN/balancer.py 127.0.0.1:{local} -> two model replicas ({url}, {url2}); real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) `gym eval run --no-serve` (10 tasks x 3) with replica 2 stopped (SIGSTOP) after "
            f"the first rollouts: exit {eval_run.returncode}, {len(rows)} of 30 rollouts; `gym eval profile` exit "
            f"{profiled}.")


@case(
    "throughput_gym_eval_concurrency_inherited_from_exported_variable",
    "throughput_resources",
    ["CONCURRENCY"],
    "the user's run_eval.sh takes --concurrency ${CONCURRENCY:-4}, and env.sh, sourced before it, still exports "
    "CONCURRENCY=64 from last month's multi-node job: 64 requests at once against a model server that generates 2 at "
    "a time with 4 waiting overflowed its queue, the overflow was answered 429 and rollouts were given up",
    netns=True,
)
def throughput_gym_eval_concurrency_inherited_from_exported_variable(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 12, 52,
                                             "--latency-ms 400 --max-running 2 --max-waiting 4")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    (run / "env.sh").write_text("# settings of the 8-node eval job (October)\nexport CONCURRENCY=64\n"
                                "export NUM_REPEATS=3\n")
    code = script_bounded(ctx, "run_eval.sh", (
        f"source {run}/env.sh\n"
        f"{GYM} eval run --no-serve --agent string_match_simple_agent --input {data} "
        f"--output {run}/results/rollouts.jsonl --num-repeats ${{NUM_REPEATS:-3}} --concurrency ${{CONCURRENCY:-4}} "
        f"++route_failures_to_sidecar=true {overrides}\n"), 240)
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    if len(rows) >= 36 or not in_log(ctx, "429"):
        raise failed(ctx, f"eval {code}, {len(rows)} rows")
    return ("model server --max-running 2 --max-waiting 4; RUN/env.sh (CONCURRENCY=64) sourced by RUN/run_eval.sh; "
            f"real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (12 tasks x 3) exit {code}, "
            f"{len(rows)} of 36 rollouts; `gym eval profile` exit {profiled}.")


@case(
    "cache_resume_gym_profile_script_picks_last_weeks_run_by_name_sort",
    "cache_resume",
    [],
    "the user's profile_latest.sh profiles `ls -d results/run_* | tail -1`, meant to be the newest run; names sort "
    "as text, so run_9 (last week's 3-task smoke eval) comes after run_10 (today's full eval): the profile was made "
    "of last week's rollouts and today's run was never profiled",
    netns=True,
)
def cache_resume_gym_profile_script_picks_last_weeks_run_by_name_sort(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 8, 64, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    old = gym_eval(ctx, overrides, agent_args(data, run / "results" / "run_9" / "rollouts.jsonl", 1, 4,
                                              extra="--limit 3"), log="eval_run_9.log")
    new = gym_eval(ctx, overrides, agent_args(data, run / "results" / "run_10" / "rollouts.jsonl", 3, 4),
                   log="eval_run_10.log")
    script = run / "profile_latest.sh"
    script.write_text("#!/bin/bash\n# profile the newest run\n"
                      f"cd {run}\nlatest=$(ls -d results/run_* | tail -1)\necho \"profiling $latest\"\n"
                      f"{GYM} eval profile --inputs $latest/rollouts_materialized_inputs.jsonl "
                      "--rollouts $latest/rollouts.jsonl\n")
    profiled = ctx.sh(f"bash {script}", "eval_profile.log", timeout=300)
    stop_gym(ctx, env_start, policy)
    if old or new or profiles_in(run / "results" / "run_10") or not profiles_in(run / "results" / "run_9"):
        raise failed(ctx, f"old {old}, new {new}, profile {profiled}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve --limit 3` into RUN/results/"
            f"run_9 (exit {old}), then the full eval (8 tasks x 3) into RUN/results/run_10 (exit {new}); "
            f"RUN/profile_latest.sh (`ls -d results/run_* | tail -1`) exit {profiled}.")


# =====================================================================================================
# the built-in engine, the stages and the launchers
# =====================================================================================================


@case(
    "healthy_builtin_cleanup_script_complains_about_missing_old_outputs",
    "healthy",
    [],
    "nothing is wrong: the user's run.sh starts with `rm rollouts.jsonl rollouts_reward_profiling.jsonl` to clear a "
    "previous run that never existed in this folder, so its log begins with 'cannot remove ... No such file or "
    "directory'; materialize, collect and profile then completed every rollout",
)
def healthy_builtin_cleanup_script_complains_about_missing_old_outputs(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=72, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    script = run / "run.sh"
    script.write_text("#!/bin/bash\n# clear the previous run, then materialize, collect and profile\n"
                      f"cd {run}\nrm rollouts.jsonl rollouts_reward_profiling.jsonl\n"
                      f"{GP} materialize --input {data} --num-repeats 3 --agent string_match_simple_agent "
                      f"--output {run}/rollouts_materialized_inputs.jsonl\n"
                      f"{' '.join(collect_argv(run, url, 'string_match', 4))} || exit 1\n"
                      f"{GP} profile --inputs {run}/rollouts_materialized_inputs.jsonl --rollouts {run}/rollouts.jsonl\n")
    code = ctx.sh(f"bash {script}", "logs/run.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code or got != 18 or not in_log(ctx, "No such file", "logs/run.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return f"RUN/run.sh (rm of outputs that do not exist, materialize 6 x 3, collect, profile) exit {code}; {got} rollouts."


@case(
    "infra_builtin_pythonhome_left_pointing_at_purged_python",
    "infra",
    ["PYTHONHOME"],
    "the user's setup_env.sh, sourced before every job, still exports PYTHONHOME for the Python 3.10 module they "
    "loaded on scratch last autumn; the scratch purge deleted that installation, so every Python started from the "
    "job (`gym-pipeline collect` too) died at start-up, unable to find its standard library",
)
def infra_builtin_pythonhome_left_pointing_at_purged_python(ctx: Ctx) -> str:
    run = ctx.run
    data, _, url, policy = builtin_setup(ctx, "string_match", 4, 78, 2, "--latency-ms 20")
    old = ctx.work / "scratch" / "modules" / "python-3.10.12"
    (run / "setup_env.sh").write_text("# sourced by every job script\n# module load python/3.10 (scratch build)\n"
                                      f"export PYTHONHOME={old}\nexport GYM_PIPELINE_LOG_LEVEL=INFO\n")
    argv = collect_argv(run, url, "string_match", 2)
    argv[0] = "gym-pipeline"
    collected = ctx.sh(f"source {run}/setup_env.sh; {' '.join(argv)}", "logs/collect.log", timeout=300)
    rows = rows_of(run / "rollouts.jsonl")
    if collected == 0 or rows:
        raise failed(ctx, f"collect {collected}, {len(rows)}")
    return (f"materialize (4 tasks x 2); RUN/setup_env.sh (PYTHONHOME of a deleted Python) sourced, then "
            f"`gym-pipeline collect` exit {collected}.")


@case(
    "config_stage_sweep_yaml_num_repeats_zero_padded_read_as_octal",
    "config",
    ["num_repeats"],
    "the user's sweep.yaml says num_repeats: 010 (zero-padded to line up with the other sweeps); YAML reads a "
    "leading 0 as octal, so the sweep ran 8 repeats per task instead of the 10 meant, and the report's per-task "
    "statistics rest on fewer rollouts than planned",
)
def config_stage_sweep_yaml_num_repeats_zero_padded_read_as_octal(ctx: Ctx) -> str:
    import yaml

    run = ctx.run
    data = ctx.dataset("string_match", 4, start=82, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 10")
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=10, concurrency=6)
    text = yaml.safe_dump(json.loads(sweep.read_text()), sort_keys=False)
    sweep.unlink()
    sweep = run / "sweep.yaml"
    sweep.write_text("# nightly sweep: ten repeats per task\n"
                     + text.replace("num_repeats: 10", "num_repeats: 010"))
    codes = [stage(ctx, sweep, "materialize", checkpoint, "string_match"),
             stage(ctx, sweep, "collect", checkpoint, "string_match", *served(url)),
             stage(ctx, sweep, "profile", checkpoint, "string_match")]
    inputs = rows_of(run / "rollouts_materialized_inputs.jsonl")
    if "010" not in sweep.read_text() or len(inputs) != 32:
        raise failed(ctx, f"exit {codes}, {len(inputs)} inputs")
    return (f"RUN/sweep.yaml (num_repeats: 010); stages materialize, collect, profile exit {codes}; {len(inputs)} "
            f"materialized inputs for 4 tasks.")


FULLWIDTH = str.maketrans("0123456789", "０１２３４５６７８９")


@case(
    "data_schema_builtin_numeric_labels_in_fullwidth_digits",
    "data_schema",
    ["expected_answer"],
    "the labels were typed into the team's sheet with a Japanese input method, which writes full-width digits: every "
    "numeric expected_answer is '３６' rather than '36', which the model's answers never match, so correct answers "
    "on those tasks score 0",
)
def data_schema_builtin_numeric_labels_in_fullwidth_digits(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 10, start=0, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    numeric = set()

    def fullwidth(i, row):
        label = row["expected_answer"]
        if any(c.isdigit() for c in label):
            numeric.add(i)
            row["expected_answer"] = label.translate(FULLWIDTH)
            return True
        return False

    changed = rewrite_rows(data, fullwidth)
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    materialize(ctx, data, 2, "string_match")
    collected = collect_sh(ctx, url, "string_match", 4, timeout=300)
    profiled = profile_sh(ctx)
    rows = rows_of(run / "rollouts.jsonl")
    hit = [row for row in rows if row.get("_ng_task_index") in numeric]
    if changed < 3 or not hit or any(rewards(hit)):
        raise failed(ctx, f"{changed} changed; collect {collected}, {len(rows)} rows, rewards {rewards(hit)}")
    return (f"RUN/string_match.jsonl (10 rows, {changed} numeric labels in full-width digits); materialize (x 2), "
            f"collect exit {collected}, profile exit {profiled}; mean reward {mean(rewards(rows)):.2f}.")


DECODE_VERIFIER = '''
"""Our exact-answer verifier (ported from the old Python 2 grading scripts)."""
import re

FINAL = re.compile(r"(?:final answer:|boxed\\{)\\s*([^}\\n]+)", re.IGNORECASE)


def score(row, response_text):
    text = response_text.decode("utf-8", "replace")
    match = FINAL.search(text)
    answer = match.group(1).strip().rstrip(".") if match else ""
    return 1.0 if answer.lower() == str(row["expected_answer"]).lower() else 0.0
'''


@case(
    "verifier_runtime_stage_workspace_verifier_decodes_text_already_str",
    "verifier_runtime",
    ["decode"],
    "the user's workspace verifier, ported from Python 2 grading scripts, calls response_text.decode(...); the "
    "response is already a str, so every call raised AttributeError ('str' object has no attribute 'decode') and no "
    "rollout was scored",
)
def verifier_runtime_stage_workspace_verifier_decodes_text_already_str(ctx: Ctx) -> str:
    run = ctx.run
    sweep, checkpoint, url = verifier_sweep(ctx, DECODE_VERIFIER, 40, n=6)
    codes = [stage(ctx, sweep, "materialize", checkpoint, "exact_answer"),
             stage(ctx, sweep, "collect", checkpoint, "exact_answer", *served(url)),
             stage(ctx, sweep, "profile", checkpoint, "exact_answer")]
    rows = rows_of(run / "rollouts.jsonl")
    if not in_log(ctx, "has no attribute 'decode'"):
        raise failed(ctx, f"exit {codes}, {len(rows)} rows")
    return (f"workspace verifier verifiers/my_verifier.py (response_text.decode(...)); stages exit {codes}, "
            f"{len(rows)} rows.")


@case(
    "model_serving_builtin_server_relaunched_with_fault_injection_from_drill",
    "model_serving",
    ["--fault-rate"],
    "the user relaunched the model server with serve_policy.sh, copied from last week's resilience drill: it still "
    "passes --fault-rate 0.7 --fault-kinds 5xx,drop, so the server failed most requests on purpose and most rollouts "
    "were given up",
)
def model_serving_builtin_server_relaunched_with_fault_injection_from_drill(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=2, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    ready = ctx.work / "model_url"
    script = run / "serve_policy.sh"
    script.write_text("#!/bin/bash\n# model server (from the resilience drill of last week)\n"
                      f"{GP} serve-policy --port 0 --ready-file {ready} --checkpoint {checkpoint} --latency-ms 20 "
                      "--fault-rate 0.7 --fault-kinds 5xx,drop --fault-seed 11\n")
    ctx.bg(f"bash {script}", "logs/model_server.log")
    wait_for(lambda: ready.exists() and ready.read_text().strip() != "", 30, "the model server")
    url = ready.read_text().strip()
    materialize(ctx, data, 3, "string_match")
    collected = collect_sh(ctx, url, "string_match", 4, timeout=400)
    profiled = profile_sh(ctx)
    rows = rows_of(run / "rollouts.jsonl")
    if len(unique_keys(run / "rollouts.jsonl")) >= 18:
        raise failed(ctx, f"collect {collected}, {len(rows)} rows")
    return (f"RUN/serve_policy.sh (--fault-rate 0.7 --fault-kinds 5xx,drop); materialize (6 tasks x 3), collect exit "
            f"{collected}, profile exit {profiled}; {len(rows)} rows.")


@case(
    "throughput_builtin_collect_concurrency_scaled_from_nproc",
    "throughput_resources",
    ["concurrency"],
    "the user's collect.sh sets the concurrency to $(nproc) * 16, sized for the 8-GPU node's many cores; here it came "
    "to 32 against a model server that generates 2 at a time with 2 waiting, so the overflow was answered 429 "
    "overloaded and many rollouts were given up",
)
def throughput_builtin_collect_concurrency_scaled_from_nproc(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 10, 60, 3,
                                      "--latency-ms 400 --max-running 2 --max-waiting 2")
    argv = collect_argv(run, url, "string_match", 1)
    argv[-1] = "$CONCURRENCY"
    script = run / "collect.sh"
    script.write_text("#!/bin/bash\n# one request per 1/16 core\nCONCURRENCY=$(( $(nproc) * 16 ))\n"
                      "echo \"collecting at concurrency $CONCURRENCY\"\n" + " ".join(argv) + "\n")
    collected = ctx.sh(f"bash {script}", "logs/collect.log", timeout=400)
    profiled = profile_sh(ctx)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if got >= 30 or not in_log(ctx, "429"):
        raise failed(ctx, f"collect {collected}, {got}")
    return (f"model server --max-running 2 --max-waiting 2; RUN/collect.sh (concurrency $(nproc) * 16) exit "
            f"{collected}, {got} of 30 rollouts; profile exit {profiled}.")


@case(
    "cache_resume_builtin_profile_through_latest_link_left_on_previous_checkpoint",
    "cache_resume",
    ["latest"],
    "the user profiles RUN/latest, a link meant to point at the newest checkpoint's run; it was not moved after "
    "step_0200 was collected and still points at step_0100's run, so the report shows the previous checkpoint's "
    "rewards and step_0200's rollouts were never profiled",
)
def cache_resume_builtin_profile_through_latest_link_left_on_previous_checkpoint(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=30, folder=run, name="string_match.jsonl")
    weaker, better = checkpoints(ctx, "string_match", data)
    codes = []
    for checkpoint in (weaker, better):
        folder = run / checkpoint.name
        folder.mkdir()
        url, policy = ctx.policy(checkpoint, "--latency-ms 20", log=f"logs/model_server_{checkpoint.name}.log")
        materialize(ctx, data, 3, "string_match", folder=folder)
        codes.append(ctx.sh(" ".join(collect_argv(folder, url, "string_match", 4)),
                            f"logs/collect_{checkpoint.name}.log", timeout=300))
        ctx.stop(policy, signal.SIGINT, 20)
        if checkpoint is weaker:
            ctx.sh(f"ln -sfn {folder} {run}/latest", "logs/link.log")
    profiled = ctx.sh(f"{GP} profile --inputs {run}/latest/rollouts_materialized_inputs.jsonl --rollouts "
                      f"{run}/latest/rollouts.jsonl --output-dir {run}/report", "logs/profile.log", timeout=300)
    ctx.sh(f"ls -l {run}", "logs/ls_run.log")
    if codes != [0, 0] or profiled or (run / "latest").resolve().name != "step_0100":
        raise failed(ctx, f"collect {codes}, profile {profiled}")
    return (f"collect step_0100 into RUN/step_0100 and step_0200 into RUN/step_0200 (6 tasks x 3 each, exits {codes}); "
            f"RUN/latest -> RUN/step_0100; `gym-pipeline profile` of RUN/latest exit {profiled}.")


# =====================================================================================================
# task folders (Docker sandboxes)
# =====================================================================================================


@case(
    "healthy_taskfolder_first_collect_attempt_without_model_url",
    "healthy",
    [],
    "nothing is wrong: the user's first `gym-pipeline stage collect` of the taskset (rename-extensions, "
    "fix-off-by-one) forgot --model-url and was refused (its log is still in the folder); the collect run again with "
    "it completed every episode, verified and profiled",
)
def healthy_taskfolder_first_collect_attempt_without_model_url(ctx: Ctx) -> str:
    from eighth_held_out import stage_argv
    from seventeenth_held_out import more_taskset_stages

    run = ctx.run
    tasks, codes = taskset_run(ctx, ["rename-extensions", "fix-off-by-one"], keys=("materialize",))
    sweep, checkpoint, url = ctx.taskset
    first = ctx.sh(" ".join(stage_argv(sweep, "collect", checkpoint, "terminal_tasks")), "logs/collect_first_try.log",
                   timeout=300)
    codes += more_taskset_stages(ctx, "collect", "profile")
    got = len(unique_keys(run / "rollouts.jsonl"))
    if first == 0 or any(codes) or got != 4:
        raise failed(ctx, f"first {first}, exit {codes}, {got}")
    return (f"A sweep with the taskset RUN/tasks (rename-extensions, fix-off-by-one; x 2): materialize, a first "
            f"collect without --model-url (exit {first}), then collect and profile: exits {codes}; rewards "
            f"{rewards(rows_of(run / 'rollouts.jsonl'))}.")


RELATIVE_TEST = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# The expected word now lives beside this script (tests/expected.txt), so it can change without editing the test.
cd /app
if test "$(tr -d "[:space:]" < /app/top.txt 2>/dev/null)" = "$(cat expected.txt)"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


@case(
    "verifier_runtime_taskfolder_test_sh_reads_expected_file_by_relative_path",
    "verifier_runtime",
    ["expected.txt"],
    "top-word's tests/test.sh was changed to compare with tests/expected.txt, read as `cat expected.txt` after `cd "
    "/app`: the file is in /tests, not /app, so cat fails and the output is compared with an empty string: the test "
    "writes 0 when the task is done, and 1 when the agent wrote no top.txt at all",
)
def verifier_runtime_taskfolder_test_sh_reads_expected_file_by_relative_path(ctx: Ctx) -> str:
    run = ctx.run

    def relative(tasks: Path) -> None:
        (tasks / "top-word" / "tests" / "test.sh").write_text(RELATIVE_TEST)
        (tasks / "top-word" / "tests" / "expected.txt").write_text("the\n")

    tasks, codes = taskset_run(ctx, ["top-word", "json-version"], relative)
    top = task_rewards(run / "rollouts.jsonl", "top-word")
    missing = any("expected.txt: No such file" in text_of(path) for path in run.rglob("test-stdout.txt"))
    if not top or not missing or all(top):
        raise failed(ctx, f"exit {codes}, top-word rewards {top}")
    return (f"A sweep with the taskset RUN/tasks (top-word's test.sh reads expected.txt by a relative path after cd "
            f"/app; json-version; x 2); stages exit {codes}; top-word rewards {top}.")


@case(
    "data_schema_taskfolder_task_toml_saved_with_utf8_bom",
    "data_schema",
    ["task.toml"],
    "count-error-lines' task.toml was last saved by an editor that writes a UTF-8 byte-order mark: the TOML parser "
    "refuses the file at its first character, so the task folder could not be loaded",
)
def data_schema_taskfolder_task_toml_saved_with_utf8_bom(ctx: Ctx) -> str:
    run = ctx.run

    def bom(tasks: Path) -> None:
        toml = tasks / "count-error-lines" / "task.toml"
        toml.write_bytes(b"\xef\xbb\xbf" + toml.read_bytes())

    tasks, codes = taskset_run(ctx, ["count-error-lines", "csv-column-total"], bom)
    ctx.sh(f"head -c 32 {tasks}/count-error-lines/task.toml | od -c | head -3", "logs/od_task_toml.log")
    counted = task_rewards(run / "rollouts.jsonl", "count-error-lines")
    if counted and all(counted):
        raise failed(ctx, f"exit {codes}, count-error-lines rewards {counted}")
    return (f"A sweep with the taskset RUN/tasks (count-error-lines' task.toml with a UTF-8 BOM; csv-column-total; "
            f"x 2); stages exit {codes}; count-error-lines rewards {counted}.")


@case(
    "infra_taskfolder_docker_tls_variables_left_from_remote_engine",
    "infra",
    ["DOCKER_TLS_VERIFY"],
    "the user's docker_env.sh, sourced before the stages, still exports DOCKER_TLS_VERIFY=1 and DOCKER_CERT_PATH from "
    "the remote build engine they used last month; the certificates are gone, so no Docker client could be created "
    "and no sandbox was started",
)
def infra_taskfolder_docker_tls_variables_left_from_remote_engine(ctx: Ctx) -> str:
    from ninth_held_out import taskset_stages  # noqa: F401 - the stages are run here with the user's wrap

    run = ctx.run
    tasks = user_taskset(ctx, ["sort-unique-words", "csv-column-total"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    certs = ctx.work / "home" / ".docker" / "remote-builder"
    (run / "docker_env.sh").write_text("# the remote build engine (docker-machine env remote-builder)\n"
                                       f"export DOCKER_TLS_VERIFY=1\nexport DOCKER_CERT_PATH={certs}\n")
    wrap = f"source {run}/docker_env.sh"
    codes = [stage(ctx, sweep, "materialize", checkpoint, "terminal_tasks", wrap=wrap),
             stage(ctx, sweep, "collect", checkpoint, "terminal_tasks", "--model-url", url, "--model-name",
                   "sim-policy", wrap=wrap),
             stage(ctx, sweep, "profile", checkpoint, "terminal_tasks", wrap=wrap)]
    rows = rows_of(run / "rollouts.jsonl")
    if any(rewards(rows)) or not any(codes) and rows and not failure_kinds(run / "rollouts.jsonl"):
        raise failed(ctx, f"exit {codes}, {len(rows)} rows, rewards {rewards(rows)}")
    return (f"RUN/docker_env.sh (DOCKER_TLS_VERIFY=1, DOCKER_CERT_PATH to a missing folder) sourced before the stages "
            f"of a sweep with the taskset RUN/tasks (sort-unique-words, csv-column-total; x 2): exits {codes}; "
            f"{len(rows)} rows.")


if __name__ == "__main__":
    sys.exit(main("nineteenth_held_out", __file__, __doc__))
