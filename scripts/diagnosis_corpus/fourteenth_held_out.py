"""Build the FOURTEENTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/fourteenth_held_out.py --out tests/data/diagnosis_corpus/fourteenth_held_out [--only CASE ...]

Measured once on 2026-12-03 (top-1 90 %, see benchmarks/README.md), then tuned on: these cases now count as
tuning cases. The next held-out set is fifteenth_held_out.py.

This is the fourteenth held-out set, written from the guides alone (the NeMo Gym debugging guide, the reward
profiling guide, the task-folder troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without
reading the diagnosis rules, their tests or their results. It was measured once,
by someone else, to see how well `gym-pipeline diagnose` names root causes on failures its rules were never written
against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`: terminated mid-eval, still loading through a whole collection), the built-in engine
(`gym-pipeline materialize`, `collect`, `profile`, `stage`), workspace verifiers (`verifier: "MODULE:FUNCTION"`),
task folders run in Docker sandboxes, the real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` / `gym eval profile`
inside a loopback-only network namespace, with users' own resources servers), the project's SlurmLauncher, real
limits (RLIMIT_DATA), and real bad command lines, paths, config, data and verifier files. The output of every
command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but
the user's own inputs. Each case injects one cause, different from those of the thirteen earlier sets or reached by
another path, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and the case
is not written).

Labels (`case.json`) come from what was injected, following the NeMo Gym debugging guide's classes: the class of
the root cause (what the user must change), not of its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; the helpers shared with the earlier sets are imported from eighth_held_out.py,
ninth_held_out.py, tenth_held_out.py and eleventh_held_out.py, and only this set's own are defined here. Needs root
(unshare), Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this checkout. Run it from a foreground shell
(SIGINT and SIGHUP at their defaults).
"""

from __future__ import annotations

import gzip
import json
import os
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
    verifier_stages,
    wait_or_interrupt,
    write_sweep,
)
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
    rewrite_rows,
    rows_of,
    unique_keys,
    wait_for,
)
from tenth_held_out import gym_eval_bounded, in_log  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def rewards(rows: list[dict]) -> list[float]:
    return [float(row.get("reward") or 0) for row in rows]


def mean(values: list[float]) -> float:
    return sum(values) / max(len(values), 1)


# =====================================================================================================
# the real NeMo Gym 0.7.0
# =====================================================================================================


@case(
    "healthy_gym_eval_at_low_cpu_and_io_priority",
    "healthy",
    [],
    "nothing is wrong: on a shared node the user ran `gym env start` and `gym eval run` under `nice -n 19 ionice "
    "-c 3` to be polite to other jobs; every rollout was collected and profiled",
    netns=True,
)
def healthy_gym_eval_at_low_cpu_and_io_priority(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 2, "--latency-ms 30")
    env_start = ctx.bg(f"nice -n 19 ionice -c 3 {GYM} env start {gym_model_args(url)} {overrides}", "env_start.log")
    from eighth_held_out import wait_env_start

    if not wait_env_start(ctx, env_start, 240):
        raise failed(ctx, "env start not ready")
    code = ctx.sh(f"nice -n 19 ionice -c 3 {GYM} eval run --no-serve "
                  f"{agent_args(data, run / 'results' / 'rollouts.jsonl', 3, 4)} ++route_failures_to_sidecar=true "
                  f"{overrides}", "eval_run.log", timeout=600)
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if code or profiled or got != 15:
        raise failed(ctx, f"eval {code}, profile {profiled}, {got}")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace) `gym env start` and `gym eval run --no-serve` (5 tasks x 3) "
            f"under `nice -n 19 ionice -c 3`: eval exit {code}, {got} rollouts; `gym eval profile` exit {profiled}.")


@case(
    "healthy_gym_input_is_symlink_to_shared_dataset",
    "healthy",
    [],
    "nothing is wrong: the user's RUN/tasks.jsonl is a symlink to the team's shared copy of the dataset; every "
    "rollout was collected and profiled",
    netns=True,
)
def healthy_gym_input_is_symlink_to_shared_dataset(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 8, "--latency-ms 30")
    shared = run / "team_share" / "datasets" / "string_match_v3.jsonl"
    shared.parent.mkdir(parents=True)
    data.rename(shared)
    data.symlink_to(shared.relative_to(run))
    ctx.sh(f"ls -la {run}", "logs/ls_run.log")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 3, 4))
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if code or profiled or got != 12:
        raise failed(ctx, f"eval {code}, profile {profiled}, {got}")
    return ("RUN/tasks.jsonl a symlink to a shared dataset; real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval "
            f"run --no-serve` (4 tasks x 3) exit {code}, {got} rollouts; `gym eval profile` exit {profiled}.")


@case(
    "config_gym_eval_input_tilde_in_quotes_not_expanded",
    "config",
    ["--input"],
    "the user's eval script passes --input \"~/datasets/tasks.jsonl\" in double quotes, so the shell did not expand "
    "the tilde: the literal ~/datasets/tasks.jsonl reached `gym eval run`, which refused it as its input path "
    "(the ~ is not valid in its override grammar), and the eval never started",
    netns=True,
)
def config_gym_eval_input_tilde_in_quotes_not_expanded(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 14, "--latency-ms 30")
    home = ctx.work / "home"
    (home / "datasets").mkdir(parents=True)
    data.rename(home / "datasets" / "tasks.jsonl")
    env = {**ctx.env, "HOME": str(home)}
    ctx.env = env
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    script = run / "eval.sh"
    script.write_text(
        "#!/bin/bash\n# evaluate the split\n"
        f"{GYM} eval run --no-serve --agent string_match_simple_agent --input \"~/datasets/tasks.jsonl\" "
        f"--output {run}/results/rollouts.jsonl --num-repeats 2 --concurrency 4 ++route_failures_to_sidecar=true "
        f"{overrides}\n"
    )
    code = ctx.sh(f"bash {script}", "eval_run.log", timeout=300, cwd=run)
    stop_gym(ctx, env_start, policy)
    if code == 0 or rows_of(run / "results" / "rollouts.jsonl"):
        raise failed(ctx, f"eval {code}")
    return ("RUN/eval.sh runs `gym eval run --no-serve --input \"~/datasets/tasks.jsonl\"` (tilde quoted, not "
            f"expanded); real NeMo Gym 0.7.0 (loopback-only namespace): exit {code}, no rollouts.")


@case(
    "config_gym_eval_num_repeats_given_as_word",
    "config",
    ["--num-repeats"],
    "the user's eval command passes `--num-repeats three` (a word, from a config template) instead of a number, so "
    "`gym eval run` refused its command line and collected nothing",
    netns=True,
)
def config_gym_eval_num_repeats_given_as_word(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 20, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval(ctx, overrides, f"--agent string_match_simple_agent --input {data} --output "
                                    f"{run}/results/rollouts.jsonl --num-repeats three --concurrency 4")
    stop_gym(ctx, env_start, policy)
    if code == 0 or rows_of(run / "results" / "rollouts.jsonl"):
        raise failed(ctx, f"eval {code}")
    return f"Real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve --num-repeats three`: exit {code}."


@case(
    "data_schema_gym_dataset_gzipped_under_jsonl_name",
    "data_schema",
    ["gzip"],
    "the dataset was downloaded as a gzip archive and saved as RUN/tasks.jsonl without being decompressed, so the "
    "input file is binary gzip data, not JSON lines",
    netns=True,
)
def data_schema_gym_dataset_gzipped_under_jsonl_name(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 26, "--latency-ms 30")
    data.write_bytes(gzip.compress(data.read_bytes()))
    ctx.sh(f"file {data}; ls -la {data}", "logs/inspect_dataset.log")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4), 120)
    stop_gym(ctx, env_start, policy)
    got = len(rows_of(run / "results" / "rollouts.jsonl"))
    if code == 0 and got:
        raise failed(ctx, f"eval {code}, {got}")
    return ("RUN/tasks.jsonl holding gzip data; real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run "
            f"--no-serve` exit {code}, {got} rollouts.")


@case(
    "data_schema_gym_label_column_named_answer",
    "data_schema",
    ["expected_answer"],
    "the dataset was exported with its label column named \"answer\" (the source dataset's name for it), so no row "
    "carries the expected_answer Gym's string_match server checks against",
    netns=True,
)
def data_schema_gym_label_column_named_answer(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(
        ctx, "string_match", 5, 32, "--latency-ms 30",
        edit=lambda i, row: row.__setitem__("answer", row.pop("expected_answer")) is None,
    )
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4), 120)
    profiled = gym_profile(ctx, run / "results", extra="++allow_partial_rollouts=True")
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    if code == 0 and len(rows) == 10 and any(rewards(rows)):
        raise failed(ctx, "rewards fine")
    return ("RUN/tasks.jsonl with the label under \"answer\"; real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval "
            f"run --no-serve` (5 tasks x 2) exit {code}, {len(rows)} rollouts, rewards {rewards(rows)}; `gym eval "
            f"profile ++allow_partial_rollouts=True` exit {profiled}.")


LAZY_IMPORT_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        from rapidfuzz import fuzz  # fuzzy match for near-miss answers (installed on the author's laptop only)

        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)
            if not reward and fuzz.ratio(extracted, body.expected_answer) > 95:
                reward = 1.0
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""


@case(
    "data_schema_gym_dataset_saved_as_utf16",
    "data_schema",
    ["utf-16"],
    "the dataset was re-saved by a spreadsheet tool as UTF-16 (with a byte-order mark), so RUN/tasks.jsonl is not "
    "UTF-8 JSON lines and Gym could not read its rows",
    netns=True,
)
def data_schema_gym_dataset_saved_as_utf16(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 70, "--latency-ms 30")
    data.write_bytes(data.read_text().encode("utf-16"))
    ctx.sh(f"file {data}; head -c 32 {data} | od -c | head -3", "logs/inspect_dataset.log")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4), 120)
    stop_gym(ctx, env_start, policy)
    got = len(rows_of(run / "results" / "rollouts.jsonl"))
    if code == 0 and got == 8:
        raise failed(ctx, f"eval {code}, {got}")
    return ("RUN/tasks.jsonl saved as UTF-16; real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` "
            f"exit {code}, {got} rollouts.")


@case(
    "verifier_runtime_gym_verify_imports_uninstalled_package_inside_verify",
    "verifier_runtime",
    ["rapidfuzz"],
    "the user's fuzzy_match resources server imports rapidfuzz inside verify (so the server starts fine), but "
    "rapidfuzz is not installed in the server's environment: every verify raised ModuleNotFoundError and no "
    "rollout got a reward",
    netns=True,
)
def verifier_runtime_gym_verify_imports_uninstalled_package_inside_verify(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 38, "--latency-ms 30")
    search = own_gym_server(ctx, "fuzzy_match", LAZY_IMPORT_VERIFY)
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='fuzzy_match')} "
                               f"{overrides}")
    code = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4,
                                                       "fuzzy_match_simple_agent"), 150)
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    if (code == 0 and len(rows) == 10 and any(rewards(rows))) or not in_log(ctx, "rapidfuzz"):
        raise failed(ctx, f"eval {code}, {len(rows)} rows")
    return ("A user's resources server fuzzy_match (verify imports rapidfuzz, not installed); real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) `gym eval run --no-serve` (5 tasks x 2) exit {code}, {len(rows)} rollouts.")


@case(
    "model_serving_gym_server_terminated_mid_eval_by_cleanup_script",
    "model_serving",
    [],
    "a teammate's cleanup script (`kill` of every process of an old job it thought had ended) sent SIGTERM to the "
    "model server mid-eval; the server exited and the remaining rollouts could not be generated",
    netns=True,
)
def model_serving_gym_server_terminated_mid_eval_by_cleanup_script(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 44, "--latency-ms 600")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    eval_run = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 3, 2), background=True)
    wait_for(lambda: len(rows_of(run / "results" / "rollouts.jsonl")) >= 3 or eval_run.poll() is not None, 120,
             "the first rollouts", poll_s=0.5)
    ctx.note("(a teammate's cleanup script: kill -TERM on the model server's processes)")
    os.killpg(policy.pid, signal.SIGTERM)
    wait_or_interrupt(ctx, eval_run, 120, "`gym eval run`")
    stop_gym(ctx, env_start)
    got = len(rows_of(run / "results" / "rollouts.jsonl"))
    if policy.poll() is None or (eval_run.returncode == 0 and got == 18):
        raise failed(ctx, f"policy {policy.poll()}, eval {eval_run.returncode}, {got}")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (6 tasks x 3); after the first "
            f"rollouts SIGTERM to the model server; eval exit {eval_run.returncode}, {got} of 18 rollouts.")


@case(
    "cache_resume_gym_labels_fixed_then_eval_resumed_on_complete_output",
    "cache_resume",
    ["--resume"],
    "after a complete eval the user fixed two wrong labels in RUN/tasks.jsonl and ran `gym eval run --resume` into "
    "the same output: resume reused the old materialized inputs and counted every rollout as done, so nothing was "
    "re-scored and the fixed tasks still show reward 0",
    netns=True,
)
def cache_resume_gym_labels_fixed_then_eval_resumed_on_complete_output(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 56, "--latency-ms 30")
    right = [row["expected_answer"] for row in rows_of(data)]
    rewrite_rows(data, lambda i, row: i in (0, 3) and row.__setitem__("expected_answer",
                                                                      str(row["expected_answer"]) + "0") is None)
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    first = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 3, 4))
    ctx.note("(the user fixes the labels of tasks 0 and 3 in RUN/tasks.jsonl)")
    rewrite_rows(data, lambda i, row: i in (0, 3) and row.__setitem__("expected_answer", right[i]) is None)
    again = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 3, 4, extra="--resume"),
                     log="eval_run_resume.log")
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    stale = [r for r in rows_of(run / "results" / "rollouts.jsonl") if r.get("_ng_task_index") in (0, 3)]
    if first or again or not stale or any(rewards(stale)):
        raise failed(ctx, f"eval {first} {again}, stale rewards {rewards(stale)}")
    return ("RUN/tasks.jsonl (6 tasks, 2 mislabelled); real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run "
            f"--no-serve` (x 3) exit {first}; labels fixed; `gym eval run --resume` into the same output exit {again}; "
            f"`gym eval profile` exit {profiled}; tasks 0 and 3 still at reward 0.")


BOOL_TEXT_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        matched = False
        if extracted is not None and body.expected_answer:
            matched = bool(_answers_match(extracted, body.expected_answer, body.case_sensitive))
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=str(matched),  # "True"/"False", as our results spreadsheet wants it
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""


@case(
    "verifier_runtime_gym_verify_reward_as_true_false_text",
    "verifier_runtime",
    ["reward"],
    "the user's sheet_match resources server returns the reward as the text \"True\"/\"False\" (str(matched), for "
    "their results spreadsheet) instead of a number, so the verify response could not be built and no rollout got "
    "a reward",
    netns=True,
)
def verifier_runtime_gym_verify_reward_as_true_false_text(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 62, "--latency-ms 30")
    search = own_gym_server(ctx, "sheet_match", BOOL_TEXT_VERIFY)
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='sheet_match')} "
                               f"{overrides}")
    code = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4,
                                                       "sheet_match_simple_agent"), 150)
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    if code == 0 and len(rows) == 10 and all(isinstance(r.get("reward"), (int, float)) for r in rows):
        raise failed(ctx, f"eval {code}, rewards {[r.get('reward') for r in rows]}")
    return ("A user's resources server sheet_match (verify returns reward=str(matched)); real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) `gym eval run --no-serve` (5 tasks x 2) exit {code}, {len(rows)} rollouts.")


# =====================================================================================================
# the built-in engine, the stages and the launchers
# =====================================================================================================


@case(
    "healthy_builtin_dataset_path_with_spaces",
    "healthy",
    [],
    "nothing is wrong: the user's dataset and run folder have spaces in their names (\"RUN/my data/string match "
    "v2.jsonl\"), quoted properly; every rollout was collected and profiled",
)
def healthy_builtin_dataset_path_with_spaces(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=60, folder=run / "my data", name="string match v2.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    out = run / "eval out"
    out.mkdir()
    codes = [ctx.sh(f"{GP} materialize --input {shlex.quote(str(data))} --num-repeats 3 --agent "
                    f"string_match_simple_agent --output {shlex.quote(str(out / 'rollouts_materialized_inputs.jsonl'))}",
                    "logs/materialize.log"),
             ctx.sh(shlex.join(collect_argv(out, url, "string_match", 3)), "logs/collect.log", timeout=300),
             ctx.sh(shlex.join(profile_argv(out)), "logs/profile.log", timeout=300)]
    got = len(unique_keys(out / "rollouts.jsonl"))
    if any(codes) or got != 15:
        raise failed(ctx, f"exit {codes}, {got}")
    return f"materialize/collect/profile with paths containing spaces (5 tasks x 3): exit {codes}, {got} rollouts."


@case(
    "healthy_slurm_collect_and_profile_exclusive_node",
    "healthy",
    [],
    "nothing is wrong: the user ran collect and profile as Slurm jobs with --exclusive (a whole node each, as their "
    "cluster's policy asks for evaluation jobs); every rollout was collected and profiled",
)
def healthy_slurm_collect_and_profile_exclusive_node(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 5, 66, 3, "--latency-ms 30")
    launcher, label = slurm(extra_options=["--exclusive"])
    collected = launched(ctx, launcher, label, "collect", collect_argv(run, url, "string_match", 3))
    profiled = launched(ctx, launcher, label, "profile", profile_argv(run))
    if "exit code 0" not in collected or "exit code 0" not in profiled or len(unique_keys(run / "rollouts.jsonl")) != 15:
        raise failed(ctx, f"{collected}; {profiled}")
    return (f"`gym-pipeline materialize` (5 tasks x 3); collect as a Slurm job with --exclusive: {collected}; profile "
            f"as a Slurm job: {profiled}; all 15 rollouts.")


@case(
    "config_slurm_mem_and_mem_per_cpu_both_given",
    "config",
    ["--mem-per-cpu"],
    "the launcher asks for memory_mb (sbatch --mem) and the user's extra sbatch options add --mem-per-cpu=2G too; "
    "sbatch refuses the two together (mutually exclusive), so the collection job was never submitted",
)
def config_slurm_mem_and_mem_per_cpu_both_given(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 4, 72, 2, "--latency-ms 20")
    launcher, label = slurm(memory_mb=1024, extra_options=["--mem-per-cpu=2G"])
    collected = launched(ctx, launcher, label, "collect", collect_argv(run, url, "string_match", 2))
    if "exit code 0" in collected or rows_of(run / "rollouts.jsonl"):
        raise failed(ctx, collected)
    return f"collect through the SlurmLauncher with memory_mb=1024 and --mem-per-cpu=2G: {collected}."


@case(
    "infra_slurm_slurm_conf_points_at_missing_file",
    "infra",
    ["slurm_conf"],
    "the user's shell profile exports SLURM_CONF=/etc/slurm-llnl/slurm.conf (the path on the old cluster image); "
    "no such file exists on this node, so sbatch could not read the cluster's configuration and the collection "
    "job was never submitted",
)
def infra_slurm_slurm_conf_points_at_missing_file(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 4, 78, 2, "--latency-ms 20")
    launcher, label = slurm()
    ctx.note("export SLURM_CONF=/etc/slurm-llnl/slurm.conf")
    if Path("/etc/slurm-llnl/slurm.conf").exists():
        raise failed(ctx, "the old path exists here")
    saved = os.environ.get("SLURM_CONF")
    os.environ["SLURM_CONF"] = "/etc/slurm-llnl/slurm.conf"
    try:
        collected = launched(ctx, launcher, label, "collect", collect_argv(run, url, "string_match", 2))
    finally:
        if saved is None:
            os.environ.pop("SLURM_CONF", None)
        else:
            os.environ["SLURM_CONF"] = saved
    if "exit code 0" in collected or rows_of(run / "rollouts.jsonl"):
        raise failed(ctx, collected)
    return f"SLURM_CONF=/etc/slurm-llnl/slurm.conf (missing); collect through the SlurmLauncher: {collected}."


@case(
    "config_builtin_collect_env_name_capitalized",
    "config",
    ["--env"],
    "the collection was started with --env String_Match (capitalized, as the dashboard shows it) instead of the "
    "environment's name string_match, so the collector knew no such environment",
)
def config_builtin_collect_env_name_capitalized(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 4, 82, 2, "--latency-ms 20")
    collected = collect_sh(ctx, url, "String_Match", 2, timeout=120)
    got = len(rows_of(run / "rollouts.jsonl"))
    if collected == 0 and got == 8:
        raise failed(ctx, "collect completed")
    return f"`gym-pipeline collect --env String_Match` (4 tasks x 2): exit {collected}, {got} rows."


@case(
    "data_schema_builtin_dataset_exported_as_yaml",
    "data_schema",
    ["jsonl"],
    "the dataset was exported as a YAML list (the export tool's default format) but saved as string_match.jsonl, "
    "so its lines are not JSON rows",
)
def data_schema_builtin_dataset_exported_as_yaml(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 4, start=76, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    import yaml

    data.write_text(yaml.safe_dump(rows_of(data), sort_keys=False, allow_unicode=True))
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    code = ctx.sh(f"{GP} materialize --input {data} --num-repeats 2 --agent string_match_simple_agent --output "
                  f"{run}/rollouts_materialized_inputs.jsonl", "logs/materialize.log")
    collected = collect_sh(ctx, url, "string_match", 2, timeout=120) if code == 0 else None
    got = len(rows_of(run / "rollouts.jsonl"))
    if code == 0 and collected == 0 and got == 8:
        raise failed(ctx, "collected fine")
    return f"RUN/string_match.jsonl holding YAML; `gym-pipeline materialize` exit {code}; collect {collected}, {got} rows."


@case(
    "data_schema_stage_rows_double_encoded_as_json_strings",
    "data_schema",
    ["json"],
    "the export script wrote every row through json.dumps twice, so each line of the dataset is a JSON string "
    "(\"{\\\"responses_create_params\\\": ...}\") instead of a JSON object",
)
def data_schema_stage_rows_double_encoded_as_json_strings(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=5, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    data.write_text("".join(json.dumps(json.dumps(row)) + "\n" for row in rows_of(data)))
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=2, concurrency=2)
    codes = [stage(ctx, sweep, "materialize", checkpoint, "string_match")]
    if codes[0] == 0:
        codes += [stage(ctx, sweep, "collect", checkpoint, "string_match", *served(url)),
                  stage(ctx, sweep, "profile", checkpoint, "string_match", "--allow-partial")]
    rows = rows_of(run / "rollouts.jsonl")
    if not any(codes) and len(rows) == 10 and any(rewards(rows)):
        raise failed(ctx, "scored fine")
    return f"sweep stages on 5 rows each written as a JSON string: exit {codes}, {len(rows)} rows."


INT_COMPARE_VERIFIER = '''
"""Exact-answer scoring for our numeric string tasks: compare as numbers so "36.0" counts as "36"."""
import re

FINAL = re.compile(r"(?:final answer:|boxed\\{)\\s*([^}\\n]+)", re.IGNORECASE)


def score(row, response_text):
    match = FINAL.search(response_text)
    answer = match.group(1).strip() if match else response_text.strip().splitlines()[-1].strip()
    try:
        value = float(answer)
    except ValueError:
        value = answer
    return {"reward": float(value == row["expected_answer"]), "extracted_answer": answer}
'''


@case(
    "verifier_runtime_stage_workspace_verifier_compares_number_to_string",
    "verifier_runtime",
    ["expected_answer"],
    "the user's workspace verifier converts the model's answer to a float but compares it with the row's "
    "expected_answer, which is a string: a float never equals a string, so every rollout scored 0",
)
def verifier_runtime_stage_workspace_verifier_compares_number_to_string(ctx: Ctx) -> str:
    codes, rows = verifier_stages(ctx, INT_COMPARE_VERIFIER, 40)
    if not rows or any(rewards(rows)):
        raise failed(ctx, f"exit {codes}, rewards {rewards(rows)}")
    return f"workspace verifier comparing float(answer) with the string label; stages exit {codes}, {len(rows)} rows."


PERCENT_VERIFIER = '''
"""Exact-answer scoring; reports accuracy in percent, as our leaderboard shows it."""
import re

FINAL = re.compile(r"(?:final answer:|boxed\\{)\\s*([^}\\n]+)", re.IGNORECASE)


def score(row, response_text):
    match = FINAL.search(response_text)
    answer = match.group(1).strip() if match else response_text.strip().splitlines()[-1].strip()
    return {"reward": 100.0 * (answer.lower() == str(row["expected_answer"]).lower()), "extracted_answer": answer}
'''


@case(
    "verifier_runtime_stage_workspace_verifier_reward_in_percent",
    "verifier_runtime",
    ["reward"],
    "the user's workspace verifier returns the reward in percent (100 for a right answer) instead of 0..1, as "
    "their leaderboard shows it, so the profile's means and pass rates are on the wrong scale",
)
def verifier_runtime_stage_workspace_verifier_reward_in_percent(ctx: Ctx) -> str:
    codes, rows = verifier_stages(ctx, PERCENT_VERIFIER, 17)
    if not any(value > 1.0 for value in rewards(rows)):
        raise failed(ctx, f"exit {codes}, rewards {rewards(rows)}")
    return (f"workspace verifier returning 100 for a right answer; stages exit {codes}, {len(rows)} rows, rewards "
            f"up to {max(rewards(rows)):g}.")


RELATIVE_PATH_VERIFIER = '''
\"\"\"Exact-answer scoring with our table of accepted spellings (aliases.json, kept beside this file).\"\"\"
import json
import re

FINAL = re.compile(r"(?:final answer:|boxed\\{)\\s*([^}\\n]+)", re.IGNORECASE)


def score(row, response_text):
    with open("verifiers/aliases.json") as handle:  # works when run from the workspace root
        aliases = json.load(handle)
    match = FINAL.search(response_text)
    answer = match.group(1).strip() if match else response_text.strip().splitlines()[-1].strip()
    answer = aliases.get(answer.lower(), answer.lower())
    return {"reward": float(answer == str(row["expected_answer"]).lower()), "extracted_answer": answer}
'''


@case(
    "verifier_runtime_stage_workspace_verifier_opens_table_by_relative_path",
    "verifier_runtime",
    ["aliases.json"],
    "the user's workspace verifier opens its table of accepted spellings as \"verifiers/aliases.json\", a path "
    "relative to the folder they tested it from; the stage runs from another working directory, so every call "
    "raised FileNotFoundError and no rollout got a reward",
)
def verifier_runtime_stage_workspace_verifier_opens_table_by_relative_path(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=66, folder=run, name="exact_answer.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    from eighth_held_out import workspace_sweep

    sweep = workspace_sweep(ctx, "exact_answer", data, checkpoint, {"verifier": "my_verifier:score"},
                            RELATIVE_PATH_VERIFIER, num_repeats=2, concurrency=3)
    (run / "verifiers" / "aliases.json").write_text(json.dumps({"colour": "color", "grey": "gray"}) + "\n")
    codes = [stage(ctx, sweep, "materialize", checkpoint, "exact_answer"),
             stage(ctx, sweep, "collect", checkpoint, "exact_answer", *served(url)),
             stage(ctx, sweep, "profile", checkpoint, "exact_answer")]
    rows = rows_of(run / "rollouts.jsonl")
    if (not any(codes) and len(rows) == 12 and any(rewards(rows))) or not in_log(ctx, "aliases.json"):
        raise failed(ctx, f"exit {codes}, {len(rows)} rows")
    return (f"workspace verifier opening verifiers/aliases.json by a relative path; stages exit {codes}, "
            f"{len(rows)} rows.")


@case(
    "model_serving_stage_collect_server_loading_through_whole_run",
    "model_serving",
    ["loading"],
    "the model server was restarted on a large checkpoint just before the collection and was still loading (503 on "
    "every route) for longer than the whole collection ran, so no rollout could be generated",
)
def model_serving_stage_collect_server_loading_through_whole_run(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 4, start=23, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 20 --slow-start-s 900")
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=2, concurrency=2)
    codes = [stage(ctx, sweep, "materialize", checkpoint, "string_match")]
    argv = shlex.join(["timeout", "-s", "INT", "150", *__import__("eighth_held_out").stage_argv(
        sweep, "collect", checkpoint, "string_match", *served(url))])
    codes.append(ctx.sh(argv, "logs/collect.log", timeout=240))
    rows = rows_of(run / "rollouts.jsonl")
    if len(rows) == 8 and codes[-1] == 0:
        raise failed(ctx, f"exit {codes}")
    return (f"model server with --slow-start-s 900 (503 while loading); sweep stages materialize, collect (given 150 s "
            f"by the job's wrapper `timeout`): exit {codes}, {len(rows)} rows.")


@case(
    "throughput_builtin_collect_data_segment_limit",
    "throughput_resources",
    ["memory"],
    "the job wrapper sets `ulimit -d 100000` (RLIMIT_DATA, about 100 MB, copied from an old cluster profile) before "
    "the collection, less memory than the collector needs, so it failed with MemoryError",
)
def throughput_builtin_collect_data_segment_limit(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 5, 29, 2, "--latency-ms 20")
    collected = collect_sh(ctx, url, "string_match", 2, wrap="ulimit -d 100000; echo \"ulimit -d: $(ulimit -d)\"",
                           timeout=200)
    got = len(rows_of(run / "rollouts.jsonl"))
    if collected == 0 and got == 10:
        raise failed(ctx, "collect completed")
    return f"`ulimit -d 100000; gym-pipeline collect` (5 tasks x 2): exit {collected}, {got} rows."


@case(
    "cache_resume_builtin_inputs_reverted_by_git_checkout_after_collect",
    "cache_resume",
    ["materialize"],
    "the run folder is tracked in git; after collecting 5 tasks x 4, the user ran `git checkout .` to drop an "
    "unrelated edit, which also reverted rollouts_materialized_inputs.jsonl to the committed 2-repeat version: "
    "the 4-repeat rollouts no longer match the inputs the profile reads",
)
def cache_resume_builtin_inputs_reverted_by_git_checkout_after_collect(ctx: Ctx) -> str:
    run = ctx.run
    data, _, url, policy = builtin_setup(ctx, "string_match", 5, 35, 2, "--latency-ms 20", in_run=True)
    git = f"git -C {run} -c user.name=u -c user.email=u@example.invalid"
    ctx.sh(f"{git} init -q && {git} add rollouts_materialized_inputs.jsonl string_match.jsonl && {git} commit -qm "
           "'inputs for the smoke test'", "logs/git.log")
    materialize(ctx, data, 4, "string_match", log="logs/materialize_full.log")
    collected = collect_sh(ctx, url, "string_match", 4)
    (run / "notes.md").write_text("todo\n")
    ctx.sh(f"{git} checkout . && {git} status --short", "logs/git.log")
    profiled = profile_sh(ctx)
    inputs, got = len(rows_of(run / "rollouts_materialized_inputs.jsonl")), len(rows_of(run / "rollouts.jsonl"))
    if collected or inputs != 10 or got != 20:
        raise failed(ctx, f"collect {collected}, inputs {inputs}, rollouts {got}")
    import shutil

    shutil.rmtree(run / ".git")
    return (f"`gym-pipeline materialize --num-repeats 2`, committed in git; `materialize --num-repeats 4`; `collect` "
            f"exit {collected} ({got} rollouts); `git checkout .` ({inputs} inputs again); `profile` exit {profiled}.")


@case(
    "infra_builtin_run_folder_symlink_to_unmounted_scratch",
    "infra",
    ["scratch"],
    "RUN/out is a symlink to /scratch/USER/eval_out, but the scratch file system is not mounted on this node, so "
    "the link dangles and the collection could not create its output there (No such file or directory)",
)
def infra_builtin_run_folder_symlink_to_unmounted_scratch(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 4, 41, 2, "--latency-ms 20")
    scratch = ctx.work / "scratch" / "alice" / "eval_out"
    (run / "out").symlink_to(scratch, target_is_directory=True)
    ctx.sh(f"ls -la {run}; ls {run}/out/", "logs/ls_run.log")
    code = ctx.sh(f"{GP} collect --inputs {run}/rollouts_materialized_inputs.jsonl --output {run}/out/rollouts.jsonl "
                  f"--model-url {url} --env string_match --concurrency 2", "logs/collect.log", timeout=200)
    if code == 0 or scratch.exists():
        raise failed(ctx, f"collect exited {code}")
    return f"RUN/out a symlink to a missing scratch folder; `gym-pipeline collect --output RUN/out/rollouts.jsonl` exit {code}."


@case(
    "model_serving_builtin_server_serving_mcqa_checkpoint_for_string_tasks",
    "model_serving",
    ["checkpoint"],
    "the model server was started with the multiple-choice run's checkpoint (--checkpoint of the mcqa training run, "
    "a copy-paste from the other launch script), not the string-answer checkpoint being evaluated, so its answers "
    "to the string tasks are wrong and the rewards are near zero",
)
def model_serving_builtin_server_serving_mcqa_checkpoint_for_string_tasks(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=47, folder=run, name="string_match.jsonl")
    other = ctx.dataset("mcqa", 6, start=10, name="mcqa.jsonl")
    wrong = checkpoints(ctx, "mcqa", other)[1]
    url, policy = ctx.policy(wrong, "--latency-ms 20")
    materialize(ctx, data, 3, "string_match")
    collected = collect_sh(ctx, url, "string_match", 3)
    profiled = profile_sh(ctx)
    rows = rows_of(run / "rollouts.jsonl")
    if not rows or mean(rewards(rows)) > 0.3:
        raise failed(ctx, f"collect {collected}, {len(rows)} rows, mean {mean(rewards(rows)):.2f}")
    return (f"model server on the mcqa run's checkpoint; string_match (6 tasks x 3) `collect` exit {collected}, "
            f"{len(rows)} rows, mean reward {mean(rewards(rows)):.2f}; `profile` exit {profiled}.")


# =====================================================================================================
# task folders (Docker sandboxes)
# =====================================================================================================


@case(
    "healthy_taskfolder_json_and_csv_tasks_complete",
    "healthy",
    [],
    "nothing is wrong: the user's taskset (json-version, csv-column-total, sort-unique-words) ran in Docker "
    "sandboxes; every episode completed, was verified and profiled (the checkpoint does not solve csv-column-total, "
    "so those episodes scored 0: the model's score, not a fault)",
)
def healthy_taskfolder_json_and_csv_tasks_complete(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["json-version", "csv-column-total", "sort-unique-words"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    codes = taskset_stages(ctx, sweep, checkpoint, url, "materialize", "collect", "profile")
    if any(codes) or len(unique_keys(run / "rollouts.jsonl")) != 6:
        raise failed(ctx, f"exit {codes}")
    return (f"A sweep with the taskset RUN/tasks (3 bundled tasks x 2); stages materialize, collect (Docker sandboxes), "
            f"profile exit {codes}; rewards {rewards(rows_of(run / 'rollouts.jsonl'))}.")


REWARD_JSON_TEST = """#!/bin/bash
# Writes the reward as JSON to /logs/verifier/reward.json when the task is done.
cd /app
if test "$(tr -d "[:space:]" < /app/version.txt 2>/dev/null)" = "2.7.1"; then
  echo "PASS"
  echo '{reward: 1}' > /logs/verifier/reward.json
else
  echo "FAIL"
  echo '{reward: 0}' > /logs/verifier/reward.json
fi
"""


@case(
    "verifier_runtime_taskfolder_reward_json_with_unquoted_key",
    "verifier_runtime",
    ["reward.json"],
    "the user's tests/test.sh of json-version writes its reward as {reward: 1} to /logs/verifier/reward.json: the "
    "key is not quoted, so the file is not valid JSON and no episode of that task got a usable reward",
)
def verifier_runtime_taskfolder_reward_json_with_unquoted_key(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(
        ctx, ["json-version", "top-word"],
        lambda tasks: (tasks / "json-version" / "tests" / "test.sh").write_text(REWARD_JSON_TEST),
    )
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    codes = taskset_stages(ctx, sweep, checkpoint, url, "materialize", "collect", "profile")
    rows = rows_of(run / "rollouts.jsonl")
    version = [row for row in rows if "version.txt" in json.dumps(row) or "json-version" in json.dumps(row)]
    if any(row.get("reward") for row in version) or not (in_log(ctx, "invalid_reward") or in_log(ctx, "missing_reward")):
        raise failed(ctx, f"exit {codes}, {len(version)} rows")
    return (f"A sweep with the taskset RUN/tasks (json-version writing {{reward: 1}} to reward.json, top-word; x 2); "
            f"stages exit {codes}; json-version rows {len(version)}, rewards {rewards(version)}.")


@case(
    "data_schema_taskfolder_task_toml_timeout_with_unit",
    "data_schema",
    ["timeout_sec"],
    "the user's task.toml of top-word says timeout_sec = \"30s\" under [verifier] (a string with a unit) where a "
    "number of seconds is required, so the task could not be loaded",
)
def data_schema_taskfolder_task_toml_timeout_with_unit(ctx: Ctx) -> str:
    run = ctx.run

    def unit(tasks: Path) -> None:
        path = tasks / "top-word" / "task.toml"
        path.write_text(path.read_text().replace("[verifier]\ntimeout_sec = 30.0", '[verifier]\ntimeout_sec = "30s"'))

    tasks = user_taskset(ctx, ["top-word", "create-greeting"], unit)
    if '"30s"' not in (tasks / "top-word" / "task.toml").read_text():
        raise failed(ctx, "task.toml not edited")
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    codes = taskset_stages(ctx, sweep, checkpoint, url, "materialize", "collect", "profile")
    rows = rows_of(run / "rollouts.jsonl")
    if not any(codes) and len(rows) == 4:
        raise failed(ctx, f"exit {codes}, {len(rows)} rows")
    return (f"A sweep with the taskset RUN/tasks (top-word's task.toml: timeout_sec = \"30s\", create-greeting; x 2); "
            f"stages exit {codes}; {len(rows)} rows.")


if __name__ == "__main__":
    sys.exit(main("fourteenth_held_out", __file__, __doc__))
