"""Build the SIXTEENTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/sixteenth_held_out.py --out tests/data/diagnosis_corpus/sixteenth_held_out [--only CASE ...]

Measured once on 2026-12-03 (top-1 93 %, see benchmarks/README.md), then tuned on: these cases now count as
tuning cases. The next held-out set is seventeenth_held_out.py.

This is the sixteenth held-out set, written from the guides alone (the NeMo Gym debugging guide, the reward
profiling guide, the task-folder troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without
reading the diagnosis rules, their tests or their results. It was measured once, by someone else, to see
how well `gym-pipeline diagnose` names root causes on failures its rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`: bound to another address, started under a wrapper, shared with another team's job),
the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`), workspace verifiers
(`verifier: "MODULE:FUNCTION"`), task folders run in Docker sandboxes, the real NeMo Gym 0.7.0 (`gym env start` /
`gym eval run` / `gym eval profile` inside a loopback-only network namespace, with users' own resources servers),
the project's SlurmLauncher, real limits (RLIMIT_CPU, a tmpfs remounted read-only), and real bad command lines,
paths, config, data and verifier files. The output of every command is captured as a user would
(`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs. Each case
injects one cause, different from those of the fifteen earlier sets or reached by another path, and each recipe
checks that its fault really happened (it raises RecipeError otherwise, and the case is not written).

Labels (`case.json`) come from what was injected, following the NeMo Gym debugging guide's classes: the class of
the root cause (what the user must change), not of its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; the helpers shared with the earlier sets are imported from eighth_held_out.py,
ninth_held_out.py, tenth_held_out.py, fourteenth_held_out.py and fifteenth_held_out.py, and only this set's own are
defined here. Needs root (unshare, mount), Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this checkout. Run
it from a foreground shell (SIGINT and SIGHUP at their defaults).
"""

from __future__ import annotations

import json
import shlex
import shutil
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
    copy_out_of_mount,
    failed,
    gym_profile,
    gym_setup,
    gym_start,
    profile_sh,
    served,
    slurm,
    stage,
    stop_gym,
    task_checkpoints,
    user_taskset,
    wait_env_start,
    wait_or_interrupt,
    workspace_sweep,
    write_sweep,
)
from fourteenth_held_out import mean, rewards  # noqa: E402
from ninth_held_out import own_gym_server, taskset_stages, taskset_sweep  # noqa: E402
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
    rows_of,
    text_of,
    unique_keys,
    wait_for,
)
from tenth_held_out import gym_eval_bounded, in_log  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def gym_start_refused(ctx: Ctx, args: str, timeout_s: float = 180, log: str = "env_start.log"
                      ) -> tuple[bool, subprocess.Popen]:
    """`gym env start ARGS` that is expected not to get ready: (whether every server got ready, the process)."""
    env_start = ctx.gym_env_start(args, log, wait=False)
    ready = wait_env_start(ctx, env_start, timeout_s, log)
    return ready, env_start


def whole_rows(path: Path) -> list[dict]:
    """The rows of a JSONL file that parse (a file cut off by a full disk ends in half a row)."""
    rows = []
    for line in text_of(path).splitlines():
        try:
            rows.append(json.loads(line))
        except ValueError:
            pass
    return rows


def gym_eval_sh(ctx: Ctx, script_name: str, body: str, log: str = "eval_run.log", timeout: float = 400) -> int:
    """The user's own shell script RUN/SCRIPT_NAME (body: its lines), run with bash."""
    script = ctx.run / script_name
    script.write_text("#!/bin/bash\n" + body)
    return ctx.sh(f"bash {script}", log, timeout=timeout)


# =====================================================================================================
# the real NeMo Gym 0.7.0
# =====================================================================================================


@case(
    "healthy_gym_eval_with_timezone_far_from_utc",
    "healthy",
    [],
    "nothing is wrong: the user's workstation runs with TZ=Pacific/Kiritimati (UTC+14), so every timestamp in the "
    "logs is a day ahead of the cluster's; Gym ran, every rollout was collected and profiled",
    netns=True,
)
def healthy_gym_eval_with_timezone_far_from_utc(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 2, "--latency-ms 30")
    ctx.env = {**ctx.env, "TZ": "Pacific/Kiritimati"}
    ctx.sh("date; date -u", "logs/date.log")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 3, 4))
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if code or profiled or got != 15:
        raise failed(ctx, f"eval {code}, profile {profiled}, {got}")
    return (f"TZ=Pacific/Kiritimati; real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` "
            f"(5 tasks x 3) exit {code}, {got} rollouts; `gym eval profile` exit {profiled}.")


@case(
    "config_gym_env_start_resources_server_name_misspelled",
    "config",
    ["--resources-server"],
    "the user's start script says --resources-server string_matcher (a typo of string_match): Gym has no resources "
    "server of that name, so `gym env start` never got its servers ready and nothing could be evaluated",
    netns=True,
)
def config_gym_env_start_resources_server_name_misspelled(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 8, "--latency-ms 30")
    ready, env_start = gym_start_refused(ctx, f"{gym_model_args(url, resources_server='string_matcher')} {overrides}")
    code = None
    if not ready:
        stop_gym(ctx, env_start)
    else:
        code = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4), 100)
        stop_gym(ctx, env_start)
    stop_gym(ctx, policy)
    if ready and rows_of(run / "results" / "rollouts.jsonl"):
        raise failed(ctx, "env start ready and eval produced rollouts")
    return (f"Real NeMo Gym 0.7.0 (loopback-only namespace) `gym env start --resources-server string_matcher`: "
            f"ready {ready}, exit {env_start.returncode}; eval {code}.")


@case(
    "data_schema_gym_extraction_mode_values_capitalized",
    "data_schema",
    ["extraction_mode"],
    "the dataset was regenerated by a script that title-cased the enum values (\"Boxed\", \"Final_Answer\", "
    "\"Last_Line\"): string_match accepts only the lower-case extraction_mode values, so the rows were refused",
    netns=True,
)
def data_schema_gym_extraction_mode_values_capitalized(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(
        ctx, "string_match", 6, 19, "--latency-ms 30",
        edit=lambda i, row: row.__setitem__("extraction_mode", str(row["extraction_mode"]).title()) is None,
    )
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4), 150)
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    if code == 0 and len(rows) == 12 and mean(rewards(rows)) > 0.7:
        raise failed(ctx, f"eval {code}, {len(rows)} rows, mean {mean(rewards(rows)):.2f}")
    return (f"RUN/tasks.jsonl with extraction_mode title-cased; real NeMo Gym 0.7.0 (loopback-only namespace) "
            f"`gym eval run --no-serve` (6 tasks x 2) exit {code}, {len(rows)} rollouts, mean reward "
            f"{mean(rewards(rows)):.2f}.")


INDEX_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        # where the label starts in the answer (for the span-level metrics the team wants)
        position = text.lower().index(str(body.expected_answer).lower())
        reward = 0.0
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
    "verifier_runtime_gym_verify_str_index_raises_on_wrong_answers",
    "verifier_runtime",
    ["index"],
    "the user's span_match resources server looks the label up with str.index() in the response to record where it "
    "starts; whenever the model's answer does not contain the label (every wrong answer) index() raises ValueError, "
    "verify answers 500, and those rollouts are lost instead of scored 0",
    netns=True,
)
def verifier_runtime_gym_verify_str_index_raises_on_wrong_answers(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 8, 24, "--latency-ms 30", weaker=True)
    search = own_gym_server(ctx, "span_match", INDEX_VERIFY)
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='span_match')} "
                               f"{overrides}")
    code = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4,
                                                       "span_match_simple_agent"), 150)
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    if (code == 0 and len(rows) == 16) or not in_log(ctx, "substring not found"):
        raise failed(ctx, f"eval {code}, {len(rows)} rows")
    return ("A user's resources server span_match (verify calls text.index(label)); real NeMo Gym 0.7.0 (loopback-only "
            f"namespace) `gym eval run --no-serve` (8 tasks x 2, weaker checkpoint) exit {code}, {len(rows)} of 16 "
            f"rollouts; `gym eval profile` exit {profiled}.")


TRIM_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        if extracted is not None:
            extracted = extracted[:-1].strip()  # models end their answer with a period: drop it
        reward = 0.0
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
    "verifier_runtime_gym_verify_drops_last_character_unconditionally",
    "verifier_runtime",
    ["extracted"],
    "the user's trimmed_match resources server drops the last character of every extracted answer (meant to remove "
    "a trailing period, but done whether or not there is one): correct answers lose their last character and "
    "score 0",
    netns=True,
)
def verifier_runtime_gym_verify_drops_last_character_unconditionally(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 32, "--latency-ms 30")
    search = own_gym_server(ctx, "trimmed_match", TRIM_VERIFY)
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='trimmed_match')} "
                               f"{overrides}")
    code = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4,
                                               "trimmed_match_simple_agent"))
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    if not rows or mean(rewards(rows)) > 0.3:
        raise failed(ctx, f"eval {code}, {len(rows)} rows, mean {mean(rewards(rows)):.2f}")
    return ("A user's resources server trimmed_match (verify drops the extracted answer's last character); real NeMo "
            f"Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (6 tasks x 2) exit {code}, {len(rows)} "
            f"rollouts, mean reward {mean(rewards(rows)):.2f}; `gym eval profile` exit {profiled}.")


@case(
    "throughput_gym_eval_concurrency_48_on_server_with_small_queue",
    "throughput_resources",
    ["--concurrency"],
    "the user raised the eval's --concurrency to 48 to finish faster, but the shared model server runs at most 2 "
    "generations with 6 waiting (its --max-num-seqs-style limits): the overflow was answered 429 overloaded and "
    "many rollouts failed",
    netns=True,
)
def throughput_gym_eval_concurrency_48_on_server_with_small_queue(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 12, 45, "--latency-ms 400 --max-running 2 "
                                             "--max-waiting 6")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 4, 48), 300)
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    if code == 0 and len(rows) == 48:
        raise failed(ctx, f"eval {code}, {len(rows)}")
    return (f"model server --max-running 2 --max-waiting 6; real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval "
            f"run --no-serve --concurrency 48` (12 tasks x 4) exit {code}, {len(rows)} of 48 rollouts.")


@case(
    "throughput_gym_profile_under_cpu_time_limit",
    "throughput_resources",
    ["ulimit"],
    "the user's profiling script starts with `ulimit -t 1` (one CPU second, copied from a login-node profile): "
    "`gym eval profile` was killed by SIGXCPU before it wrote the reward profile",
    netns=True,
)
def throughput_gym_profile_under_cpu_time_limit(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 50, "--latency-ms 20")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 4, 8))
    stop_gym(ctx, env_start, policy)
    profiled = gym_eval_sh(ctx, "profile.sh", "ulimit -t 1\necho \"ulimit -t: $(ulimit -t)\"\n"
                           f"{GYM} eval profile --inputs {run}/results/rollouts_materialized_inputs.jsonl "
                           f"--rollouts {run}/results/rollouts.jsonl\n", log="eval_profile.log", timeout=200)
    profile = run / "results" / "rollouts_reward_profiling.jsonl"
    if code or profiled == 0 or (profile.exists() and rows_of(profile)):
        raise failed(ctx, f"eval {code}, profile {profiled}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (6 tasks x 4) exit {code}; "
            f"RUN/profile.sh: `ulimit -t 1`, then `gym eval profile`: exit {profiled}.")


@case(
    "cache_resume_gym_resumed_into_misspelled_folder_then_profiled_old",
    "cache_resume",
    ["--resume"],
    "the eval was interrupted halfway; the user's resume command wrote to RUN/result/ (a typo of RUN/results/), "
    "so it started afresh there, and the strict profile of RUN/results/ still found the interrupted run's "
    "missing rollouts",
    netns=True,
)
def cache_resume_gym_resumed_into_misspelled_folder_then_profiled_old(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 8, 60, "--latency-ms 600")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    first = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 3, 2), background=True)
    wait_for(lambda: len(rows_of(run / "results" / "rollouts.jsonl")) >= 6 or first.poll() is not None, 200,
             "the first rollouts", poll_s=0.3)
    ctx.note("(Ctrl-C on the eval: the user needs the terminal back)")
    ctx.stop(first, signal.SIGINT, 30)
    partial = len(rows_of(run / "results" / "rollouts.jsonl"))
    again = gym_eval(ctx, overrides, agent_args(data, run / "result" / "rollouts.jsonl", 3, 8, extra="--resume"),
                     log="eval_run_resume.log")
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    if partial >= 24 or profiled == 0:
        raise failed(ctx, f"partial {partial}, resume {again}, profile {profiled}")
    return ("real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve --output RUN/results/rollouts.jsonl` "
            f"(8 tasks x 3) interrupted with {partial} of 24 rollouts; `gym eval run --resume --output "
            f"RUN/result/rollouts.jsonl` exit {again}; `gym eval profile` of RUN/results exit {profiled}.")


# =====================================================================================================
# the built-in engine, the stages and the launchers
# =====================================================================================================


@case(
    "healthy_builtin_collect_under_strict_umask",
    "healthy",
    [],
    "nothing is wrong: the user's shell sets umask 077 (files readable by their owner only, a security policy); "
    "materialize, collect and profile wrote their files with private modes and every rollout was collected",
)
def healthy_builtin_collect_under_strict_umask(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=3, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    codes = [ctx.sh(f"umask 077; {GP} materialize --input {data} --num-repeats 3 --agent string_match_simple_agent "
                    f"--output {run}/rollouts_materialized_inputs.jsonl", "logs/materialize.log"),
             collect_sh(ctx, url, "string_match", 3, wrap="umask 077"),
             profile_sh(ctx, wrap="umask 077")]
    ctx.sh(f"ls -la {run}", "logs/ls_run.log")
    got = len(unique_keys(run / "rollouts.jsonl"))
    if any(codes) or got != 15:
        raise failed(ctx, f"exit {codes}, {got}")
    return f"umask 077; materialize (5 tasks x 3), collect, profile exit {codes}; {got} rollouts."


@case(
    "healthy_slurm_collect_and_profile_with_job_name_and_nice",
    "healthy",
    [],
    "nothing is wrong: the user submitted collect and profile as Slurm jobs with their team's --job-name and "
    "--nice=50 (to let interactive jobs go first); both ran and every rollout was collected and profiled",
)
def healthy_slurm_collect_and_profile_with_job_name_and_nice(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 5, 9, 3, "--latency-ms 30")
    launcher, label = slurm(extra_options=["--job-name=team-eval-nightly", "--nice=50"])
    collected = launched(ctx, launcher, label, "collect", collect_argv(run, url, "string_match", 3))
    profiled = launched(ctx, launcher, label, "profile", profile_argv(run))
    if "exit code 0" not in collected or "exit code 0" not in profiled or len(unique_keys(run / "rollouts.jsonl")) != 15:
        raise failed(ctx, f"{collected}; {profiled}")
    return (f"`gym-pipeline materialize` (5 tasks x 3); collect as a Slurm job (--job-name, --nice=50): {collected}; "
            f"profile as a Slurm job: {profiled}.")


@case(
    "config_builtin_collect_concurrency_computed_negative",
    "config",
    ["--concurrency"],
    "the user's collect script sets --concurrency \"$(( $(nproc) - 4 ))\" (written for their 16-core workstation, "
    "keeping 4 cores free); on this 2-core node that is -2, a concurrency the collector refuses",
)
def config_builtin_collect_concurrency_computed_negative(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 4, 14, 2, "--latency-ms 20")
    script = run / "collect.sh"
    script.write_text("#!/bin/bash\n# keep 4 cores free for the model server\nCONC=$(( $(nproc) - 4 ))\n"
                      "echo \"concurrency: $CONC\"\n"
                      f"{GP} collect --inputs {run}/rollouts_materialized_inputs.jsonl --output {run}/rollouts.jsonl "
                      f"--model-url {url} --env string_match --concurrency \"$CONC\"\n")
    code = ctx.sh(f"bash {script}", "logs/collect.log", timeout=200)
    rows = rows_of(run / "rollouts.jsonl")
    if code == 0 and len(rows) == 8:
        raise failed(ctx, f"collect {code}, {len(rows)}")
    return f"RUN/collect.sh: --concurrency $(( $(nproc) - 4 )) = -2 on 2 cores: exit {code}, {len(rows)} rows."


NAME_ERROR_VERIFIER = '''
"""Exact-answer scoring with a fallback for answers without a marker."""
import re

FINAL = re.compile(r"(?:final answer:|boxed\\{)\\s*([^}\\n]+)", re.IGNORECASE)


def score(row, response_text):
    match = FINAL.search(response_text)
    if match:
        answer = match.group(1).strip()
    else:
        answer = respone_text.strip().splitlines()[-1].strip()  # last line
    return {"reward": float(answer.lower() == str(row["expected_answer"]).strip().lower()), "extracted_answer": answer}
'''


@case(
    "verifier_runtime_stage_workspace_verifier_name_error_in_fallback_branch",
    "verifier_runtime",
    ["response_text"],
    "the user's workspace verifier has a typo (respone_text) in the branch for answers without a 'Final answer:' "
    "or \\boxed marker: every response scored through that branch (the last_line rows) raised NameError",
)
def verifier_runtime_stage_workspace_verifier_name_error_in_fallback_branch(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=0, folder=run, name="exact_answer.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    sweep = workspace_sweep(ctx, "exact_answer", data, checkpoint, {"verifier": "my_verifier:score"},
                            NAME_ERROR_VERIFIER, num_repeats=2, concurrency=3)
    codes = [stage(ctx, sweep, "materialize", checkpoint, "exact_answer"),
             stage(ctx, sweep, "collect", checkpoint, "exact_answer", *served(url)),
             stage(ctx, sweep, "profile", checkpoint, "exact_answer")]
    rows = rows_of(run / "rollouts.jsonl")
    if not in_log(ctx, "respone_text"):
        raise failed(ctx, f"exit {codes}, {len(rows)} rows")
    return (f"workspace verifier with a NameError in its last-line branch; stages exit {codes}, {len(rows)} rows, "
            f"rewards {rewards(rows)}.")


@case(
    "model_serving_builtin_server_listens_on_ipv6_loopback_only",
    "model_serving",
    ["--host"],
    "the model server was started with --host ::1 (the new launch template binds IPv6 loopback), but the collect "
    "script still sends to http://127.0.0.1:PORT/v1: nothing listens on the IPv4 address, so every request was "
    "refused",
)
def model_serving_builtin_server_listens_on_ipv6_loopback_only(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 4, start=34, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url6, policy = ctx.policy(checkpoint, "--latency-ms 20 --host ::1")
    port = url6.rsplit(":", 1)[1].split("/")[0]
    url = f"http://127.0.0.1:{port}/v1"
    ctx.note(f"(the collect script's MODEL_URL: {url}; the server's ready file says {url6})")
    materialize(ctx, data, 2, "string_match")
    collected = collect_sh(ctx, url, "string_match", 2, timeout=200)
    rows = rows_of(run / "rollouts.jsonl")
    if (collected == 0 and len(rows) == 8 and any(rewards(rows))):
        raise failed(ctx, f"{url6}; collect {collected}, {len(rows)}")
    return f"model server on {url6}; `gym-pipeline collect --model-url {url}` exit {collected}, {len(rows)} rows."


@case(
    "model_serving_stage_server_launched_under_timeout_wrapper",
    "model_serving",
    ["timeout"],
    "the model server's launch script was copied from a smoke test that wraps it in `timeout 20`: the server was "
    "stopped 20 seconds after it started, in the middle of the collection, and the remaining requests failed",
)
def model_serving_stage_server_launched_under_timeout_wrapper(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=38, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    ready = ctx.work / "policy-ready-timeout"
    ctx.bg(f"timeout 20 {GP} serve-policy --port 0 --ready-file {ready} --checkpoint {checkpoint} --latency-ms 1500",
           "logs/model_server.log")
    wait_for(lambda: ready.exists() and ready.read_text().strip() != "", 30, "the simulated policy")
    url = ready.read_text().strip()
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=3, concurrency=2)
    codes = [stage(ctx, sweep, "materialize", checkpoint, "string_match"),
             stage(ctx, sweep, "collect", checkpoint, "string_match", *served(url))]
    rows = rows_of(run / "rollouts.jsonl")
    if not any(codes) and len(rows) == 24:
        raise failed(ctx, f"exit {codes}, {len(rows)}")
    return (f"model server started as `timeout 20 gym-pipeline serve-policy ...`; sweep stages materialize, collect "
            f"(8 tasks x 3) exit {codes}, {len(rows)} of 24 rows.")


@case(
    "throughput_stage_collect_beside_other_teams_job_on_shared_server",
    "throughput_resources",
    ["concurrency"],
    "another team's collection (concurrency 12) ran against the same shared model server, which generates 2 at a "
    "time with 4 waiting: together the two jobs overflowed its queue and many of this sweep's requests were "
    "answered 429 overloaded",
)
def throughput_stage_collect_beside_other_teams_job_on_shared_server(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=52, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 500 --max-running 2 --max-waiting 4")
    other = ctx.work / "other_team"
    other.mkdir()
    other_data = ctx.dataset("string_match", 10, start=70, folder=other, name="theirs.jsonl")
    ctx.sh(f"{GP} materialize --input {other_data} --num-repeats 8 --agent string_match_simple_agent --output "
           f"{other}/rollouts_materialized_inputs.jsonl", None)
    theirs = ctx.bg(f"for i in $(seq 200); do rm -f {other}/rollouts.jsonl {other}/rollouts_failures.jsonl; "
                    f"{shlex.join(collect_argv(other, url, 'string_match', 12))} >/dev/null 2>&1; done", None)
    ctx.note("(another team's collection, concurrency 12, runs against the same model server)")
    time.sleep(3)
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=3, concurrency=6)
    codes = [stage(ctx, sweep, "materialize", checkpoint, "string_match"),
             stage(ctx, sweep, "collect", checkpoint, "string_match", *served(url))]
    ctx.stop(theirs, signal.SIGINT, 10)
    rows = rows_of(run / "rollouts.jsonl")
    if not any(codes) and len(rows) == 24 and not in_log(ctx, "429"):
        raise failed(ctx, f"exit {codes}, {len(rows)}")
    return (f"shared model server (--max-running 2 --max-waiting 4) with another team's collect at concurrency 12; "
            f"sweep stages materialize, collect (8 tasks x 3, concurrency 6) exit {codes}, {len(rows)} of 24 rows.")


# =====================================================================================================
# task folders (Docker sandboxes)
# =====================================================================================================


@case(
    "healthy_taskfolder_csv_total_and_sort_words_complete",
    "healthy",
    [],
    "nothing is wrong: the user's taskset (csv-column-total, sort-unique-words) ran in Docker sandboxes at two "
    "repeats; every episode completed, was verified and profiled (the checkpoint solves some tasks and not others: "
    "a result about the model, not a fault of the run)",
)
def healthy_taskfolder_csv_total_and_sort_words_complete(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["csv-column-total", "sort-unique-words"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    codes = taskset_stages(ctx, sweep, checkpoint, url, "materialize", "collect", "profile")
    if any(codes) or len(unique_keys(run / "rollouts.jsonl")) != 4:
        raise failed(ctx, f"exit {codes}")
    return (f"A sweep with the taskset RUN/tasks (2 bundled tasks x 2); stages materialize, collect (Docker sandboxes), "
            f"profile exit {codes}; rewards {rewards(rows_of(run / 'rollouts.jsonl'))}.")


def duplicate_verifier_table(tasks: Path) -> None:
    toml = tasks / "json-version" / "task.toml"
    toml.write_text(toml.read_text() + "\n# longer budget for the slow checker\n[verifier]\ntimeout_sec = 90.0\n")


@case(
    "data_schema_taskfolder_task_toml_verifier_table_twice",
    "data_schema",
    ["task.toml"],
    "the user appended a second [verifier] table to json-version's task.toml (to raise its timeout) instead of "
    "editing the first: TOML forbids defining a table twice, so the task folder could not be loaded",
)
def data_schema_taskfolder_task_toml_verifier_table_twice(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["json-version", "create-greeting"], duplicate_verifier_table)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    codes = taskset_stages(ctx, sweep, checkpoint, url, "materialize", "collect", "profile")
    rows = rows_of(run / "rollouts.jsonl")
    if not any(codes) and len(rows) == 4:
        raise failed(ctx, f"exit {codes}, {len(rows)} rows")
    return (f"A sweep with the taskset RUN/tasks (json-version's task.toml with [verifier] twice, create-greeting; x 2); "
            f"stages exit {codes}; {len(rows)} rows.")


@case(
    "cache_resume_taskfolder_test_sh_edited_between_materialize_and_collect",
    "cache_resume",
    ["materialize"],
    "after materializing the taskset the user fixed a comment in create-greeting's tests/test.sh and went straight "
    "to collect: the task folder no longer matches the digest its materialized rows were written with, so its "
    "episodes were refused until the taskset is materialized again",
)
def cache_resume_taskfolder_test_sh_edited_between_materialize_and_collect(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["create-greeting", "top-word"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    codes = taskset_stages(ctx, sweep, checkpoint, url, "materialize")
    test = tasks / "create-greeting" / "tests" / "test.sh"
    ctx.note("(the user edits a comment in RUN/tasks/create-greeting/tests/test.sh)")
    test.write_text(test.read_text().replace("# Writes 1", "# Writes 1 (one)"))
    codes += taskset_stages(ctx, sweep, checkpoint, url, "collect", "profile")
    rows = rows_of(run / "rollouts.jsonl")
    if not any(codes) and len(rows) == 4 and all(rewards(rows)):
        raise failed(ctx, f"exit {codes}, {len(rows)} rows")
    return (f"A sweep with the taskset RUN/tasks (create-greeting, top-word; x 2); materialize, then test.sh edited, "
            f"then collect and profile: exit {codes}; {len(rows)} rows.")


@case(
    "infra_taskfolder_docker_host_points_at_closed_tcp_port",
    "infra",
    ["DOCKER_HOST"],
    "the user's shell profile exports DOCKER_HOST=tcp://127.0.0.1:2375 (a remote-engine setting from another "
    "machine); no Docker engine listens there, so no sandbox could be created for the task folders",
)
def infra_taskfolder_docker_host_points_at_closed_tcp_port(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["create-greeting", "top-word"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    ctx.env = {**ctx.env, "DOCKER_HOST": "tcp://127.0.0.1:2375"}
    ctx.sh("echo DOCKER_HOST=$DOCKER_HOST; docker version", "logs/docker_check.log", timeout=60)
    codes = taskset_stages(ctx, sweep, checkpoint, url, "materialize", "collect", "profile")
    rows = rows_of(run / "rollouts.jsonl")
    if not any(codes) and len(rows) == 4 and all(rewards(rows)):
        raise failed(ctx, f"exit {codes}, {len(rows)} rows")
    return (f"DOCKER_HOST=tcp://127.0.0.1:2375 (nothing listens); a sweep with the taskset RUN/tasks (x 2): stages "
            f"exit {codes}; {len(rows)} rows.")


@case(
    "model_serving_taskfolder_server_stopped_before_collect",
    "model_serving",
    [],
    "the model server was stopped (its terminal closed with Ctrl-C) after the taskset was materialized and before "
    "the collection: the agents in the sandboxes had no model to call, so no episode could produce an answer",
)
def model_serving_taskfolder_server_stopped_before_collect(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["create-greeting", "replace-spelling"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    codes = taskset_stages(ctx, sweep, checkpoint, url, "materialize")
    ctx.note("(Ctrl-C in the model server's terminal)")
    ctx.stop(policy, signal.SIGINT, 20)
    codes += taskset_stages(ctx, sweep, checkpoint, url, "collect")
    rows = rows_of(run / "rollouts.jsonl")
    if not any(codes) and len(rows) == 4 and all(rewards(rows)):
        raise failed(ctx, f"exit {codes}, {len(rows)} rows")
    return (f"A sweep with the taskset RUN/tasks (x 2); materialize, the model server stopped, collect: exit {codes}; "
            f"{len(rows)} rows.")


@case(
    "data_schema_builtin_input_as_single_message_object",
    "data_schema",
    ["input"],
    "the dataset was converted by a script that unwrapped single-message lists, so responses_create_params.input is "
    "one message object instead of a list of messages: the rows do not have the shape the environment expects",
)
def data_schema_builtin_input_as_single_message_object(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=66, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]

    def unwrap(i, row):
        row["responses_create_params"]["input"] = row["responses_create_params"]["input"][0]
        return True

    from recipes import rewrite_rows
    rewrite_rows(data, unwrap)
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    code = ctx.sh(f"{GP} materialize --input {data} --num-repeats 2 --agent string_match_simple_agent --output "
                  f"{run}/rollouts_materialized_inputs.jsonl", "logs/materialize.log")
    collected = collect_sh(ctx, url, "string_match", 2, timeout=120) if code == 0 else None
    rows = rows_of(run / "rollouts.jsonl")
    if code == 0 and collected == 0 and len(rows) == 10 and mean(rewards(rows)) > 0.7:
        raise failed(ctx, "collected fine")
    return (f"RUN/string_match.jsonl with input as one message object; `gym-pipeline materialize` exit {code}; "
            f"collect {collected}, {len(rows)} rows.")


@case(
    "cache_resume_builtin_interrupted_collect_resumed_into_new_file",
    "cache_resume",
    ["--resume"],
    "the collection was interrupted halfway; the user resumed it with --output RUN/rollouts_v2.jsonl (a new name), "
    "so the resume started afresh in another file, and the strict profile of RUN/rollouts.jsonl still lacks the "
    "interrupted run's rollouts",
)
def cache_resume_builtin_interrupted_collect_resumed_into_new_file(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 8, 72, 3, "--latency-ms 500")
    collect = ctx.bg(shlex.join(collect_argv(run, url, "string_match", 2)), "logs/collect.log")
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 5 or collect.poll() is not None, 120,
             "the first rollouts", poll_s=0.3)
    ctx.note("(Ctrl-C on the collection)")
    ctx.stop(collect, signal.SIGINT, 30)
    partial = len(rows_of(run / "rollouts.jsonl"))
    argv = collect_argv(run, url, "string_match", 4, "--resume")
    argv[argv.index(f"{run}/rollouts.jsonl")] = f"{run}/rollouts_v2.jsonl"
    again = ctx.sh(shlex.join(argv), "logs/collect_resume.log", timeout=300)
    profiled = profile_sh(ctx)
    if partial >= 24 or profiled == 0:
        raise failed(ctx, f"partial {partial}, resume {again}, profile {profiled}")
    return (f"`gym-pipeline collect` (8 tasks x 3) interrupted with {partial} of 24 rows; `collect --resume --output "
            f"RUN/rollouts_v2.jsonl` exit {again}; `profile` of RUN/rollouts.jsonl exit {profiled}.")


@case(
    "infra_stage_run_folder_on_read_only_scratch_mount",
    "infra",
    ["read-only"],
    "the sweep's run folder lives on a scratch file system that is mounted read-only on this node (the admins "
    "remounted it for maintenance): the stages could not write anything there",
)
def infra_stage_run_folder_on_read_only_scratch_mount(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 4, start=80, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=2, concurrency=2)
    scratch = run / "scratch"
    scratch.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=16m", "tmpfs", str(scratch)]).returncode:
        raise failed(ctx, "mount failed")
    link = ctx.work / "runs" / checkpoint.name / "string_match"
    link.unlink()
    link.symlink_to(scratch, target_is_directory=True)
    try:
        ctx.sh(f"grep ' {scratch} ' /proc/mounts; touch {scratch}/probe", "logs/mount_check.log")
        codes = [stage(ctx, sweep, "materialize", checkpoint, "string_match")]
        if codes[0] == 0:
            codes.append(stage(ctx, sweep, "collect", checkpoint, "string_match", *served(url)))
        got = len(rows_of(scratch / "rollouts.jsonl"))
    finally:
        subprocess.run(["umount", str(scratch)], capture_output=True)
    if not any(codes):
        raise failed(ctx, f"exit {codes}")
    return f"the sweep's run folder on a read-only tmpfs; stages exit {codes}, {got} rows."


@case(
    "config_stage_env_name_with_hyphen_not_in_sweep",
    "config",
    ["--env"],
    "the stage command was run with --env string-match (hyphen) while the sweep config names the environment "
    "string_match: the stage found no such environment in the sweep and did nothing",
)
def config_stage_env_name_with_hyphen_not_in_sweep(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 4, start=84 - 8, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=2, concurrency=2)
    codes = [stage(ctx, sweep, "materialize", checkpoint, "string-match")]
    if codes[0] == 0:
        codes.append(stage(ctx, sweep, "collect", checkpoint, "string-match", *served(url)))
    if not any(codes):
        raise failed(ctx, f"exit {codes}")
    return f"`gym-pipeline stage materialize --env string-match` on a sweep naming string_match: exit {codes}."


@case(
    "config_gym_eval_concurrency_negative",
    "config",
    ["--concurrency"],
    "the user's eval script computes --concurrency as $((NUM_GPUS * 8 - 12)) with NUM_GPUS=1 on this node, giving "
    "-4: Gym cannot run a negative number of rollouts at once, so the eval did not collect anything",
    netns=True,
)
def config_gym_eval_concurrency_negative(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 81, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    eval_run = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, -4), background=True)
    wait_or_interrupt(ctx, eval_run, 120, "`gym eval run`")
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    if eval_run.returncode == 0 and len(rows) == 8:
        raise failed(ctx, f"eval {eval_run.returncode}, {len(rows)}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve --concurrency -4` (4 tasks x 2): "
            f"exit {eval_run.returncode}, {len(rows)} rollouts.")


@case(
    "data_schema_gym_message_content_as_single_object",
    "data_schema",
    ["content"],
    "the dataset converter wrote each message's content as one {\"type\": \"input_text\", ...} object instead of a "
    "list of parts (or a plain string): the rows do not match the request model of the Responses API",
    netns=True,
)
def data_schema_gym_message_content_as_single_object(ctx: Ctx) -> str:
    run = ctx.run

    def unwrap(i, row):
        for message in row["responses_create_params"]["input"]:
            message["content"] = message["content"][0]
        return True

    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 26, "--latency-ms 30", edit=unwrap)
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4), 150)
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    if code == 0 and len(rows) == 10 and mean(rewards(rows)) > 0.7:
        raise failed(ctx, f"eval {code}, {len(rows)} rows")
    return (f"RUN/tasks.jsonl with each message's content one object; real NeMo Gym 0.7.0 (loopback-only namespace) "
            f"`gym eval run --no-serve` (5 tasks x 2) exit {code}, {len(rows)} rollouts.")


@case(
    "infra_builtin_scratch_filled_by_other_job_mid_collect",
    "infra",
    ["disk"],
    "RUN/out is a shared scratch file system; while the collection was writing its rollouts there another job "
    "filled it to the last block, so the collector could not write the rest of its output",
)
def infra_builtin_scratch_filled_by_other_job_mid_collect(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 8, 10, 3, "--latency-ms 400")
    out = run / "out"
    out.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(out)]).returncode:
        raise failed(ctx, "mount failed")
    try:
        collect = ctx.bg(f"{GP} collect --inputs {run}/rollouts_materialized_inputs.jsonl --output "
                         f"{out}/rollouts.jsonl --model-url {url} --env string_match --concurrency 2",
                         "logs/collect.log")
        wait_for(lambda: len(whole_rows(out / "rollouts.jsonl")) >= 3 or collect.poll() is not None, 120,
                 "the first rollouts", poll_s=0.3)
        ctx.note("(another job writes to the shared scratch until it is full)")
        ctx.sh(f"mkdir -p {out}/other_job; dd if=/dev/zero of={out}/other_job/checkpoint.bin bs=64k 2>&1 | tail -2; "
               f"df -h {out}", "logs/other_job.log")
        wait_or_interrupt(ctx, collect, 200, "`gym-pipeline collect`")
        got = len(whole_rows(out / "rollouts.jsonl"))
    finally:
        shutil.rmtree(out / "other_job", ignore_errors=True)
        copy_out_of_mount(ctx, out)
    if collect.returncode == 0 and got == 24:
        raise failed(ctx, f"collect {collect.returncode}, {got}")
    return (f"`gym-pipeline collect --output RUN/out/rollouts.jsonl` (8 tasks x 3); RUN/out filled by another job "
            f"mid-run: exit {collect.returncode}, {got} of 24 rows.")


if __name__ == "__main__":
    sys.exit(main("sixteenth_held_out", __file__, __doc__))
