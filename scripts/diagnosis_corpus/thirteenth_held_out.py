"""Build the THIRTEENTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/thirteenth_held_out.py --out tests/data/diagnosis_corpus/thirteenth_held_out [--only CASE ...]

Measured once on 2026-12-03 (top-1 90 %, see benchmarks/README.md), then tuned on: these cases now count as
tuning cases. The next held-out set is fourteenth_held_out.py.

This is the thirteenth held-out set, written from the guides alone (the NeMo Gym debugging guide, the reward
profiling guide, the task-folder troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without
reading the diagnosis rules, their tests or their results. It was measured once, by someone else, to see
how well `gym-pipeline diagnose` names root causes on failures its rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`: bound to another loopback address, rate limiting every request, stopped as by Ctrl-Z
mid-eval), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`), workspace verifiers
(`verifier: "MODULE:FUNCTION"`), the real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` / `gym eval profile`
inside a loopback-only network namespace, with users' own resources servers), the project's SlurmLauncher, real
limits (a CPU quota and a memory limit in the job's cgroups), a file where a folder should be, and real bad command
lines, config, data and verifier files. The output of every command is captured as a user would
(`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs. Each case
injects one cause, different from those of the twelve earlier sets or reached by another path, and each recipe checks
that its fault really happened (it raises RecipeError otherwise, and the case is not written).

Labels (`case.json`) come from what was injected, following the NeMo Gym debugging guide's classes: the class of
the root cause (what the user must change), not of its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; the helpers shared with the earlier sets are imported from eighth_held_out.py,
ninth_held_out.py, tenth_held_out.py and twelfth_held_out.py, and only this set's own are defined here. Needs root
(unshare, cgroups), NeMo Gym 0.7.0, and PYTHONPATH set to this checkout. Run it from a foreground shell (SIGINT and
SIGHUP at their defaults).
"""

from __future__ import annotations

import os
import shlex
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
    gym_start_failing,
    profile_sh,
    served,
    slurm,
    stage,
    stop_gym,
    verifier_stages,
    wait_or_interrupt,
    write_sweep,
)
from ninth_held_out import cgroup, drop_cgroup, own_gym_server  # noqa: E402
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
from tenth_held_out import gym_eval_bounded  # noqa: E402
from twelfth_held_out import session_pids  # noqa: E402

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
    "healthy_gym_same_split_evaluated_twice_for_variance",
    "healthy",
    [],
    "nothing is wrong: the user evaluated the same split twice into two output folders (RUN/results/run1 and "
    "RUN/results/run2) to see how much the reward moves between runs, and profiled both; every rollout of both runs "
    "was collected and profiled",
    netns=True,
)
def healthy_gym_same_split_evaluated_twice_for_variance(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 2, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    codes = []
    for name in ("run1", "run2"):
        codes.append(gym_eval(ctx, overrides, agent_args(data, run / "results" / name / "rollouts.jsonl", 3, 4),
                              log=f"eval_run_{name}.log"))
        codes.append(gym_profile(ctx, run / "results" / name, log=f"eval_profile_{name}.log"))
    stop_gym(ctx, env_start, policy)
    got = [len(unique_keys(run / "results" / name / "rollouts.jsonl")) for name in ("run1", "run2")]
    if any(codes) or got != [12, 12]:
        raise failed(ctx, f"exit {codes}, {got}")
    return (
        "Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve` of the same 4 tasks x 3 twice, into "
        f"RUN/results/run1 and RUN/results/run2 ({got} rollouts), each then `gym eval profile`: exit {codes}."
    )


@case(
    "config_gym_resources_server_given_as_yaml_file_name",
    "config",
    ["--resources-server"],
    "`gym env start --resources-server string_match.yaml` names the server's config file instead of the resources "
    "server (string_match), so Gym found no such resources server and never started",
    netns=True,
)
def config_gym_resources_server_given_as_yaml_file_name(ctx: Ctx) -> str:
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 8, "--latency-ms 30")
    ready, code = gym_start_failing(
        ctx, f"{gym_model_args(url, resources_server='string_match.yaml')} {overrides}", 90
    )
    stop_gym(ctx, policy)
    if ready:
        raise failed(ctx, "env start got ready")
    return (
        "Real NeMo Gym 0.7.0 (loopback-only namespace) `gym env start --resources-server string_match.yaml`: ready "
        f"{ready}, exit {code}."
    )


@case(
    "config_gym_eval_num_repeats_from_unset_variable",
    "config",
    ["--num-repeats"],
    "the user's eval script passes `--num-repeats $REPEATS`, but REPEATS is set only in their interactive shell "
    "profile, not in the script's environment, so the flag got no value and `gym eval run` refused its command line",
    netns=True,
)
def config_gym_eval_num_repeats_from_unset_variable(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 14, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    script = run / "eval.sh"
    script.write_text(
        "#!/bin/bash\n# evaluate the split; REPEATS comes from ~/.bashrc\n"
        f"{GYM} eval run --no-serve --agent string_match_simple_agent --input {data} "
        f"--output {run}/results/rollouts.jsonl --num-repeats $REPEATS --concurrency 4 "
        f"++route_failures_to_sidecar=true {overrides}\n"
    )
    script.chmod(0o755)
    env = {k: v for k, v in ctx.env.items() if k != "REPEATS"}
    code = ctx.sh(f"bash {script}", "eval_run.log", timeout=300, env=env)
    stop_gym(ctx, env_start, policy)
    if code == 0 or (run / "results" / "rollouts.jsonl").exists():
        raise failed(ctx, f"eval {code}")
    return (
        "RUN/eval.sh runs `gym eval run --no-serve ... --num-repeats $REPEATS` with REPEATS unset; real NeMo Gym 0.7.0 "
        f"(loopback-only namespace): exit {code}, no rollouts."
    )


@case(
    "data_schema_gym_dataset_saved_with_utf8_bom",
    "data_schema",
    ["bom"],
    "the dataset was last saved by a Windows editor that put a UTF-8 byte-order mark (EF BB BF) before the first "
    "row, so the first line of RUN/tasks.jsonl is not valid JSON to Gym's reader",
    netns=True,
)
def data_schema_gym_dataset_saved_with_utf8_bom(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 20, "--latency-ms 30")
    data.write_bytes(b"\xef\xbb\xbf" + data.read_bytes())
    ctx.sh(f"file {data}; head -c 16 {data} | od -c | head -2", "logs/inspect_dataset.log")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4), 120)
    stop_gym(ctx, env_start, policy)
    got = len(rows_of(run / "results" / "rollouts.jsonl"))
    if evaluated == 0 and got == 10:
        raise failed(ctx, f"eval {evaluated}, {got}")
    return (
        "RUN/tasks.jsonl (5 rows) starting with a UTF-8 BOM; real NeMo Gym 0.7.0 (loopback-only namespace) "
        f"`gym eval run --no-serve` (x 2) exit {evaluated}, {got} of 10 rollouts."
    )


DOUBLE_KEYWORD_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)
        # simplified: pass the whole request through
        return StringMatchVerifyResponse(
            **body.model_dump(),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""


@case(
    "verifier_runtime_gym_verify_passes_expected_answer_twice",
    "verifier_runtime",
    ["expected_answer"],
    "the user's tidy_match resources server \"simplified\" verify to build its response from "
    "**body.model_dump() (without excluding expected_answer) and expected_answer=...; the keyword is given twice, so "
    "every verify raised TypeError and no rollout got a reward",
    netns=True,
)
def verifier_runtime_gym_verify_passes_expected_answer_twice(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 26, "--latency-ms 30")
    search = own_gym_server(ctx, "tidy_match", DOUBLE_KEYWORD_VERIFY)
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='tidy_match')} {overrides}")
    evaluated = gym_eval_bounded(
        ctx, overrides, agent_args(data, run / "rollouts.jsonl", 2, 4, "tidy_match_simple_agent"), 150
    )
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "rollouts.jsonl")
    if evaluated == 0 and len(rows) == 10 and any(rewards(rows)):
        raise failed(ctx, "verify worked")
    return (
        "A user's resources server tidy_match (verify builds its response from **body.model_dump() and "
        f"expected_answer=...); real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (5 tasks x 2) "
        f"exit {evaluated}, {len(rows)} rollouts."
    )


@case(
    "cache_resume_gym_labels_fixed_then_only_profile_rerun",
    "cache_resume",
    ["gym eval run"],
    "after a complete eval the user found two wrong labels in RUN/tasks.jsonl, fixed them, and re-ran only "
    "`gym eval profile`: the rollouts (and their rewards) and the materialized inputs are still those scored "
    "against the old labels, so the fixed tasks still show reward 0",
    netns=True,
)
def cache_resume_gym_labels_fixed_then_only_profile_rerun(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 32, "--latency-ms 30")
    right = [row["expected_answer"] for row in rows_of(data)]
    rewrite_rows(data, lambda i, row: i in (1, 4) and row.__setitem__("expected_answer",
                                                                      str(row["expected_answer"]) + "s") is None)
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 3, 4))
    first = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    ctx.note("(the user fixes the labels of tasks 1 and 4 in RUN/tasks.jsonl)")
    rewrite_rows(data, lambda i, row: i in (1, 4) and row.__setitem__("expected_answer", right[i]) is None)
    again = gym_profile(ctx, run / "results", log="eval_profile_after_fix.log")
    stale = [r for r in rows_of(run / "results" / "rollouts.jsonl") if r.get("_ng_task_index") in (1, 4)]
    if evaluated or again or any(rewards(stale)) or not stale:
        raise failed(ctx, f"eval {evaluated}, profile {first} {again}, stale rewards {rewards(stale)}")
    return (
        "RUN/tasks.jsonl (6 tasks, 2 mislabelled); real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run "
        f"--no-serve` (x 3) exit {evaluated}; `gym eval profile` exit {first}; labels fixed in RUN/tasks.jsonl; "
        f"`gym eval profile` again exit {again}; tasks 1 and 4 still at reward 0."
    )


@case(
    "model_serving_gym_server_stopped_with_ctrl_z_mid_eval",
    "model_serving",
    [],
    "the model server's terminal got a Ctrl-Z mid-eval (the user meant to suspend another command in that tmux "
    "pane): the server process was stopped, so it accepted connections but answered nothing and the eval hung "
    "until it was interrupted",
    netns=True,
)
def model_serving_gym_server_stopped_with_ctrl_z_mid_eval(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 40, "--latency-ms 1000")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    eval_run = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 3, 2), background=True)
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 3 or eval_run.poll() is not None, 120,
             "the first rollouts", poll_s=0.5)
    ctx.note("(Ctrl-Z in the model server's terminal: the server's processes stopped, as SIGSTOP does)")
    os.killpg(policy.pid, signal.SIGSTOP)
    time.sleep(1)
    states = [Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] for pid in session_pids(policy)]
    stopped = bool(states) and all(state == "T" for state in states)
    wait_or_interrupt(ctx, eval_run, 90, "`gym eval run`")
    os.killpg(policy.pid, signal.SIGCONT)
    stop_gym(ctx, env_start, policy)
    got = len(rows_of(run / "rollouts.jsonl"))
    if not stopped or (eval_run.returncode == 0 and got == 18):
        raise failed(ctx, f"stopped {stopped}, eval {eval_run.returncode}, {got}")
    return (
        "Real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (6 tasks x 3, 1 s policy); after "
        f"the first rollouts Ctrl-Z (SIGSTOP) to the model server; eval exit {eval_run.returncode}, {got} of 18 "
        "rollouts."
    )


@case(
    "data_schema_gym_tasks_file_empty",
    "data_schema",
    ["empty"],
    "RUN/tasks.jsonl is empty (0 bytes): the export job that writes it failed after truncating the file, so Gym "
    "had no task to evaluate",
    netns=True,
)
def data_schema_gym_tasks_file_empty(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 44, "--latency-ms 30")
    data.write_text("")
    ctx.sh(f"ls -la {run}; wc -l {data}", "logs/inspect_dataset.log")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4), 100)
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    got = len(rows_of(run / "results" / "rollouts.jsonl"))
    if got:
        raise failed(ctx, f"{got} rollouts")
    return (
        "RUN/tasks.jsonl empty (0 bytes); real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` "
        f"exit {evaluated}; `gym eval profile` exit {profiled}; {got} rollouts."
    )


FORMAT_BONUS_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)
        if extracted is not None:
            reward += 1.0  # format bonus: the answer was given in the requested form
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""


@case(
    "verifier_runtime_gym_verify_format_bonus_added_to_reward",
    "verifier_runtime",
    ["format bonus"],
    "the user's bonus_match resources server adds a 1.0 format bonus to the reward whenever an answer could be "
    "extracted, so rewards run from 0 to 2, a well-formatted wrong answer scores as high as a correct one would "
    "without the bonus, and the profile's pass rates and means are wrong",
    netns=True,
)
def verifier_runtime_gym_verify_format_bonus_added_to_reward(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 50, "--latency-ms 30", weaker=True)
    search = own_gym_server(ctx, "bonus_match", FORMAT_BONUS_VERIFY)
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='bonus_match')} {overrides}")
    evaluated = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 3, 4,
                                                    "bonus_match_simple_agent"))
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    values = rewards(rows_of(run / "results" / "rollouts.jsonl"))
    if not any(value > 1.0 for value in values):
        raise failed(ctx, f"eval {evaluated}, rewards {values}")
    return (
        "A user's resources server bonus_match (verify adds 1.0 when an answer was extracted); real NeMo Gym 0.7.0 "
        f"(loopback-only namespace) `gym eval run --no-serve` (6 tasks x 3) exit {evaluated}; `gym eval profile` exit "
        f"{profiled}; rewards from {min(values):g} to {max(values):g}, mean {mean(values):.2f}."
    )


@case(
    "config_builtin_api_key_env_given_the_key_itself",
    "config",
    ["--api-key-env"],
    "`gym-pipeline collect --api-key-env` was given the API key itself (sk-team-...) instead of the name of the "
    "environment variable that holds it (MODEL_API_KEY), so the collector looked for a variable of that name",
)
def config_builtin_api_key_env_given_the_key_itself(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 4, 60, 2, "--latency-ms 20")
    ctx.env["MODEL_API_KEY"] = "sk-team-4f9c2a7e"
    collected = collect_sh(ctx, url, "string_match", 2, "--api-key-env", "sk-team-4f9c2a7e", timeout=200)
    got = len(rows_of(run / "rollouts.jsonl"))
    if collected == 0 and got == 8:
        raise failed(ctx, "collect completed")
    return (f"MODEL_API_KEY exported; `gym-pipeline collect --api-key-env sk-team-4f9c2a7e` (4 tasks x 2): exit "
            f"{collected}, {got} rows.")


@case(
    "infra_gym_results_path_is_a_file",
    "infra",
    ["directory"],
    "on this node RUN/results is a regular file (a job's `> RUN/results` redirect left it there), not a folder, so "
    "`gym eval run --output RUN/results/rollouts.jsonl` could not create its output (Not a directory)",
    netns=True,
)
def infra_gym_results_path_is_a_file(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 64, "--latency-ms 30")
    ctx.sh(f"echo 'eval job 5120: done' > {run}/results; ls -la {run}", "logs/ls_run.log")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4), 120)
    stop_gym(ctx, env_start, policy)
    if evaluated == 0 or not (run / "results").is_file():
        raise failed(ctx, f"eval {evaluated}")
    return (
        "RUN/results is a regular file; real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve "
        f"--output RUN/results/rollouts.jsonl` exit {evaluated}."
    )


@case(
    "data_schema_gym_expected_answer_as_list",
    "data_schema",
    ["expected_answer"],
    "the dataset's expected_answer is a one-element list ([\"36\"]) on every row (the export kept the "
    "annotation tool's list of accepted answers), where Gym's string_match server expects a string",
    netns=True,
)
def data_schema_gym_expected_answer_as_list(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(
        ctx, "string_match", 5, 80, "--latency-ms 30",
        edit=lambda i, row: row.__setitem__("expected_answer", [row["expected_answer"]]) is None,
    )
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4), 120)
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    if evaluated == 0 and len(rows) == 10 and any(rewards(rows)):
        raise failed(ctx, f"eval {evaluated}, {len(rows)} rows")
    return (
        "RUN/tasks.jsonl with expected_answer as a one-element list; real NeMo Gym 0.7.0 (loopback-only namespace) "
        f"`gym eval run --no-serve` (5 tasks x 2) exit {evaluated}, {len(rows)} rollouts."
    )


INVERTED_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        # the reward is the error indicator of our old loss-style harness: 0 when the answer matches
        mismatch = 1.0
        if extracted is not None and body.expected_answer:
            mismatch = 1.0 - _answers_match(extracted, body.expected_answer, body.case_sensitive)
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=mismatch,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""


@case(
    "verifier_runtime_gym_verify_returns_mismatch_as_reward",
    "verifier_runtime",
    ["inverted"],
    "the user's loss_match resources server, ported from a loss-style harness, returns the mismatch (1 when the "
    "answer is wrong, 0 when it is right) as the reward, so the rewards are inverted: the better checkpoint scores "
    "lower",
    netns=True,
)
def verifier_runtime_gym_verify_returns_mismatch_as_reward(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 10, "--latency-ms 30")
    search = own_gym_server(ctx, "loss_match", INVERTED_VERIFY)
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='loss_match')} {overrides}")
    evaluated = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 3, 4,
                                                    "loss_match_simple_agent"))
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    right = sum(str(r.get("extracted_answer", "")).strip().lower() == str(r.get("expected_answer", "")).strip().lower()
                and (r.get("reward") or 0) == 0 for r in rows)
    if evaluated or not right:
        raise failed(ctx, f"eval {evaluated}, {right} right answers at reward 0")
    return (
        "A user's resources server loss_match (verify returns 1 - match); real NeMo Gym 0.7.0 (loopback-only "
        f"namespace) `gym eval run --no-serve` (6 tasks x 3) exit {evaluated}; `gym eval profile` exit {profiled}; "
        f"{right} right answers at reward 0, mean reward {mean(rewards(rows)):.2f}."
    )


# =====================================================================================================
# the built-in engine and the stages
# =====================================================================================================


@case(
    "healthy_builtin_two_checkpoints_profiled_side_by_side",
    "healthy",
    [],
    "nothing is wrong: the user collected and profiled the same dataset on step_0100 (weaker) and step_0200 in two "
    "run folders to compare them; step_0100's lower reward is the checkpoint's, and every rollout of both was "
    "collected and profiled",
)
def healthy_builtin_two_checkpoints_profiled_side_by_side(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=48, folder=run, name="string_match.jsonl")
    codes, means = [], []
    for checkpoint in checkpoints(ctx, "string_match", data):
        folder = run / checkpoint.name
        folder.mkdir()
        url, policy = ctx.policy(checkpoint, "--latency-ms 20", log=f"logs/model_server_{checkpoint.name}.log")
        materialize(ctx, data, 3, "string_match", folder, log=f"logs/materialize_{checkpoint.name}.log")
        codes.append(ctx.sh(shlex.join(collect_argv(folder, url, "string_match", 4)),
                            f"logs/collect_{checkpoint.name}.log", timeout=300))
        codes.append(ctx.sh(f"{GP} profile --inputs {folder}/rollouts_materialized_inputs.jsonl --rollouts "
                            f"{folder}/rollouts.jsonl", f"logs/profile_{checkpoint.name}.log", timeout=300))
        ctx.stop(policy, signal.SIGINT, 15)
        means.append(mean(rewards(rows_of(folder / "rollouts.jsonl"))))
        if len(unique_keys(folder / "rollouts.jsonl")) != 18:
            raise failed(ctx, f"{checkpoint.name}: not complete")
    if any(codes):
        raise failed(ctx, f"exit {codes}")
    return (
        "The same 6 tasks x 3 collected with `gym-pipeline collect` and profiled on step_0100 and step_0200 (in "
        f"RUN/step_0100 and RUN/step_0200): exit {codes}; mean rewards {means[0]:.2f} and {means[1]:.2f}."
    )


@case(
    "healthy_stage_sweep_complete_with_deprecation_noise",
    "healthy",
    [],
    "nothing is wrong: the sweep's stages ran with PYTHONWARNINGS=always::DeprecationWarning set in the user's "
    "shell, so the logs carry warnings; every rollout was collected and profiled",
)
def healthy_stage_sweep_complete_with_deprecation_noise(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=56, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=3, concurrency=3)
    wrap = "export PYTHONWARNINGS=always::DeprecationWarning"
    codes = [stage(ctx, sweep, "materialize", checkpoint, "string_match", wrap=wrap),
             stage(ctx, sweep, "collect", checkpoint, "string_match", *served(url), wrap=wrap),
             stage(ctx, sweep, "profile", checkpoint, "string_match", wrap=wrap)]
    if any(codes) or len(unique_keys(run / "rollouts.jsonl")) != 15:
        raise failed(ctx, f"exit {codes}")
    return f"sweep stages materialize/collect/profile (5 tasks x 3) with PYTHONWARNINGS=always: exit {codes}."


@case(
    "model_serving_builtin_server_bound_to_other_loopback_address",
    "model_serving",
    ["127.0.0.2"],
    "the model server was started with --host 127.0.0.2 (copied from a node where several servers share a port), "
    "so it listens only there; the collection's --model-url http://127.0.0.1:PORT/v1 reaches nothing (connection "
    "refused)",
)
def model_serving_builtin_server_bound_to_other_loopback_address(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=62, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 20 --host 127.0.0.2")
    materialize(ctx, data, 2, "string_match")
    wrong = url.replace("127.0.0.2", "127.0.0.1")
    if wrong == url:
        raise failed(ctx, f"served at {url}")
    collected = collect_sh(ctx, wrong, "string_match", 2, timeout=240)
    got = len(rows_of(run / "rollouts.jsonl"))
    if collected == 0 and got == 10:
        raise failed(ctx, "collect completed")
    return (f"`gym-pipeline serve-policy --host 127.0.0.2` (listening at {url}); `gym-pipeline collect --model-url "
            f"{wrong}` (5 tasks x 2): exit {collected}, {got} rows.")


@case(
    "model_serving_builtin_every_request_rate_limited",
    "model_serving",
    ["429"],
    "the model server (behind the team's gateway) answers every chat completion with 429 rate limited whatever the "
    "load, so no rollout could be generated even at concurrency 1",
)
def model_serving_builtin_every_request_rate_limited(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 4, 68, 2, "--latency-ms 20 --fault-rate 1.0 "
                                      "--fault-kinds 429 --retry-after-s 1")
    collect = ctx.bg(shlex.join(collect_argv(run, url, "string_match", 1)), "logs/collect.log")
    wait_or_interrupt(ctx, collect, 150, "`gym-pipeline collect`")
    rows = rows_of(run / "rollouts.jsonl")
    if collect.returncode == 0 and len(rows) == 8 and any(rewards(rows)):
        raise failed(ctx, "collect completed")
    return (f"simulated policy answering 429 to every completion; `gym-pipeline collect --concurrency 1` (4 tasks x "
            f"2) exit {collect.returncode}, {len(rows)} rows.")


@case(
    "config_builtin_model_url_without_port",
    "config",
    ["port"],
    "the collection's --model-url is http://127.0.0.1/v1: the port of the model server was left out when the URL "
    "was pasted into the script, so every request went to port 80 where nothing listens",
)
def config_builtin_model_url_without_port(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 4, 78, 2, "--latency-ms 20")
    wrong = "http://127.0.0.1/v1"
    collected = collect_sh(ctx, wrong, "string_match", 2, timeout=240)
    got = len(rows_of(run / "rollouts.jsonl"))
    if collected == 0 and got == 8:
        raise failed(ctx, "collect completed")
    return f"model server at {url}; `gym-pipeline collect --model-url {wrong}` (4 tasks x 2): exit {collected}, {got} rows."


@case(
    "config_builtin_materialize_num_repeats_zero",
    "config",
    ["--num-repeats"],
    "`gym-pipeline materialize --num-repeats 0` (the wrapper's default when $REPEATS is empty): no materialized "
    "input rows, so the collection had nothing to collect and the profile had nothing to profile",
)
def config_builtin_materialize_num_repeats_zero(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=3, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    code = ctx.sh(f"{GP} materialize --input {data} --num-repeats 0 --agent string_match_simple_agent --output "
                  f"{run}/rollouts_materialized_inputs.jsonl", "logs/materialize.log")
    collected = collect_sh(ctx, url, "string_match", 2, timeout=120)
    profiled = profile_sh(ctx)
    got = len(rows_of(run / "rollouts.jsonl"))
    if got >= 5:
        raise failed(ctx, f"{got} rollouts")
    return (f"`gym-pipeline materialize --num-repeats 0` exit {code}; `collect` exit {collected}, {got} rows; "
            f"`profile` exit {profiled}.")


@case(
    "data_schema_builtin_expected_answer_key_misspelled",
    "data_schema",
    ["expected_answer"],
    "the dataset's label column is spelled \"expected_anwser\" (a typo in the export script), so the rows carry no "
    "expected_answer for the verifier",
)
def data_schema_builtin_expected_answer_key_misspelled(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=9, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    rewrite_rows(data, lambda i, row: row.__setitem__("expected_anwser", row.pop("expected_answer")) is None)
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    code = ctx.sh(f"{GP} materialize --input {data} --num-repeats 2 --agent string_match_simple_agent --output "
                  f"{run}/rollouts_materialized_inputs.jsonl", "logs/materialize.log")
    collected = collect_sh(ctx, url, "string_match", 2) if code == 0 else None
    profiled = profile_sh(ctx, "--allow-partial") if code == 0 else None
    rows = rows_of(run / "rollouts.jsonl")
    if code == 0 and collected == 0 and len(rows) == 10 and any(rewards(rows)):
        raise failed(ctx, "rewards fine")
    return (f"RUN/string_match.jsonl with the label under \"expected_anwser\"; `materialize` exit {code}; `collect` "
            f"exit {collected}, {len(rows)} rows; `profile --allow-partial` exit {profiled}.")


@case(
    "data_schema_stage_prompts_lost_in_export",
    "data_schema",
    ["prompt"],
    "the export that wrote the dataset kept the labels but wrote every prompt as an empty string (its column "
    "mapping pointed at a renamed column), so the model was asked nothing and no answer matched",
)
def data_schema_stage_prompts_lost_in_export(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=15, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    if "responses_create_params" not in rows_of(data)[0]:
        raise failed(ctx, "rows without responses_create_params")

    def blank(i, row):
        for message in row["responses_create_params"]["input"]:
            for part in message["content"]:
                part["text"] = ""
        return True

    rewrite_rows(data, blank)
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=2, concurrency=2)
    codes = [stage(ctx, sweep, "materialize", checkpoint, "string_match")]
    if codes[0] == 0:
        codes += [stage(ctx, sweep, "collect", checkpoint, "string_match", *served(url)),
                  stage(ctx, sweep, "profile", checkpoint, "string_match", "--allow-partial")]
    rows = rows_of(run / "rollouts.jsonl")
    if not any(codes) and mean(rewards(rows)) > 0.3:
        raise failed(ctx, f"mean reward {mean(rewards(rows)):.2f}")
    return (f"sweep stages on 5 rows whose prompt texts are empty: exit {codes}, {len(rows)} rows, mean reward "
            f"{mean(rewards(rows)):.2f}.")


SCORE_KEY_VERIFIER = '''
"""Exact-answer scoring for our string tasks (returns the metrics our dashboard reads)."""
import re

FINAL = re.compile(r"(?:final answer:|boxed\\{)\\s*([^}\\n]+)", re.IGNORECASE)


def score(row, response_text):
    match = FINAL.search(response_text)
    answer = match.group(1).strip() if match else response_text.strip().splitlines()[-1].strip()
    return {"score": float(answer.lower() == str(row["expected_answer"]).lower()), "extracted_answer": answer}
'''

TUPLE_VERIFIER = '''
"""Exact-answer scoring for our string tasks."""
import re

FINAL = re.compile(r"(?:final answer:|boxed\\{)\\s*([^}\\n]+)", re.IGNORECASE)


def score(row, response_text):
    match = FINAL.search(response_text)
    answer = match.group(1).strip() if match else response_text.strip().splitlines()[-1].strip()
    return float(answer.lower() == str(row["expected_answer"]).lower()), answer
'''


@case(
    "verifier_runtime_stage_workspace_verifier_returns_score_key",
    "verifier_runtime",
    ["reward"],
    "the user's workspace verifier returns {\"score\": ..., \"extracted_answer\": ...} (the key their dashboard "
    "reads) instead of a result with \"reward\", so no rollout got a usable reward",
)
def verifier_runtime_stage_workspace_verifier_returns_score_key(ctx: Ctx) -> str:
    codes, rows = verifier_stages(ctx, SCORE_KEY_VERIFIER, 21)
    if not any(codes) and len(rows) == 12 and any(rewards(rows)):
        raise failed(ctx, "scored fine")
    return f"workspace verifier returning {{'score': ...}}; stages exit {codes}, {len(rows)} rows."


@case(
    "verifier_runtime_stage_workspace_verifier_returns_tuple",
    "verifier_runtime",
    ["reward"],
    "the user's workspace verifier returns a (reward, answer) tuple instead of a reward or a dict, so its results "
    "could not be read as rewards",
)
def verifier_runtime_stage_workspace_verifier_returns_tuple(ctx: Ctx) -> str:
    codes, rows = verifier_stages(ctx, TUPLE_VERIFIER, 27)
    if not any(codes) and len(rows) == 12 and any(rewards(rows)):
        raise failed(ctx, "scored fine")
    return f"workspace verifier returning a tuple; stages exit {codes}, {len(rows)} rows."


@case(
    "cache_resume_builtin_resume_written_to_misspelled_output",
    "cache_resume",
    ["--output"],
    "the collection was interrupted, and the user resumed it with --output RUN/rollout.jsonl (singular, a typo) and "
    "--resume: the resume found nothing to skip there and collected everything into the new file, while "
    "RUN/rollouts.jsonl, which the profile read, kept only the interrupted run's partial rollouts",
)
def cache_resume_builtin_resume_written_to_misspelled_output(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 6, 35, 3, "--latency-ms 400")
    collect = ctx.bg(shlex.join(collect_argv(run, url, "string_match", 2)), "logs/collect.log")
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 5 or collect.poll() is not None, 120,
             "the first rollouts", poll_s=0.3)
    ctx.note("(the user presses Ctrl-C on the collection)")
    ctx.stop(collect, signal.SIGINT, 30)
    partial = len(rows_of(run / "rollouts.jsonl"))
    argv = collect_argv(run, url, "string_match", 2, "--resume")
    argv[argv.index("--output") + 1] = f"{run}/rollout.jsonl"
    resumed = ctx.sh(shlex.join(argv), "logs/collect_resume.log", timeout=300)
    profiled = profile_sh(ctx, "--allow-partial")
    if partial >= 18 or resumed != 0 or len(rows_of(run / "rollout.jsonl")) < 10:
        raise failed(ctx, f"partial {partial}, resumed {resumed}")
    return (f"`gym-pipeline collect` (6 tasks x 3) interrupted at {partial} rollouts; `collect --resume --output "
            f"RUN/rollout.jsonl` exit {resumed} ({len(rows_of(run / 'rollout.jsonl'))} rows there); `profile "
            f"--allow-partial` of RUN/rollouts.jsonl exit {profiled}.")


@case(
    "throughput_builtin_collect_in_job_with_tiny_cpu_quota",
    "throughput_resources",
    ["cpu"],
    "the collection ran inside the job's cgroup with a CPU quota of 1 % of one core (cpu.cfs_quota_us 1000 of "
    "100000, a typo for 100000), so the collector was throttled and could not finish in the time it was given",
)
def throughput_builtin_collect_in_job_with_tiny_cpu_quota(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 8, 45, 3, "--latency-ms 20")
    group = cgroup("cpu", f"gp-job-{run.parent.name[-20:]}", cpu__cfs_period_us=100000, cpu__cfs_quota_us=1000)
    ctx.note(f"(the job runs in cgroup {group} with cpu.cfs_quota_us 1000 of 100000)")
    prefix = (f'echo $BASHPID > {group}/cgroup.procs; echo "cpu.cfs_quota_us: $(cat {group}/cpu.cfs_quota_us) of '
              f'$(cat {group}/cpu.cfs_period_us)"')
    try:
        collect = ctx.bg(f"( {prefix}; {shlex.join(collect_argv(run, url, 'string_match', 4))} )", "logs/collect.log")
        wait_or_interrupt(ctx, collect, 60, "`gym-pipeline collect` (the job's time limit)")
        throttled = (group / "cpu.stat").read_text()
    finally:
        drop_cgroup(group)
    got = len(rows_of(run / "rollouts.jsonl"))
    if collect.returncode == 0 and got == 24:
        raise failed(ctx, "collect completed")
    return (f"`gym-pipeline collect` (8 tasks x 3) in a cgroup with cpu.cfs_quota_us 1000/100000, Ctrl-C after 60 s: "
            f"exit {collect.returncode}, {got} of 24 rows; cpu.stat {' '.join(throttled.split())}.")


@case(
    "infra_builtin_run_folder_is_a_file",
    "infra",
    ["directory"],
    "on this node the run path RUN/out is a regular file left by an earlier `... > RUN/out` redirect, not a "
    "directory, so `gym-pipeline collect` could not create RUN/out/rollouts.jsonl (Not a directory)",
)
def infra_builtin_run_folder_is_a_file(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 4, 70, 2, "--latency-ms 20")
    ctx.sh(f"echo 'job 4411 finished' > {run}/out; ls -la {run}", "logs/ls_run.log")
    code = ctx.sh(f"{GP} collect --inputs {run}/rollouts_materialized_inputs.jsonl --output {run}/out/rollouts.jsonl "
                  f"--model-url {url} --env string_match --concurrency 2", "logs/collect.log", timeout=200)
    if code == 0:
        raise failed(ctx, "collect exited 0")
    return f"RUN/out is a regular file; `gym-pipeline collect --output RUN/out/rollouts.jsonl` exit {code}."


@case(
    "throughput_builtin_collect_in_job_with_tiny_memory_limit",
    "throughput_resources",
    ["memory"],
    "the collection ran inside the job's memory cgroup limited to 40 MB (memory.limit_in_bytes, a unit slip for "
    "40 GB), less than the collector process needs, so the kernel's OOM killer ended it",
)
def throughput_builtin_collect_in_job_with_tiny_memory_limit(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 6, 66, 3, "--latency-ms 20")
    group = cgroup("memory", f"gp-job-{run.parent.name[-20:]}", memory__limit_in_bytes=40 * 2**20,
                   memory__memsw__limit_in_bytes=40 * 2**20)
    ctx.note(f"(the job runs in cgroup {group} with memory.limit_in_bytes {40 * 2**20})")
    prefix = (f'echo $BASHPID > {group}/cgroup.procs; echo "memory.limit_in_bytes: '
              f'$(cat {group}/memory.limit_in_bytes)"')
    try:
        collected = collect_sh(ctx, url, "string_match", 4, wrap=prefix, timeout=200)
        failcnt = (group / "memory.failcnt").read_text().strip()
        oom = (group / "memory.oom_control").read_text()
    finally:
        drop_cgroup(group)
    got = len(rows_of(run / "rollouts.jsonl"))
    if collected == 0 and got == 18:
        raise failed(ctx, "collect completed")
    return (f"`gym-pipeline collect` (6 tasks x 3) in a cgroup with memory.limit_in_bytes 40 MB: exit {collected}, "
            f"{got} of 18 rows; memory.failcnt {failcnt}; oom_control {' '.join(oom.split())}.")


@case(
    "healthy_slurm_collect_and_profile_with_job_comment",
    "healthy",
    [],
    "nothing is wrong: the user ran collect and profile as Slurm jobs with extra sbatch options (--comment "
    "weekly-eval-step_0200, for the cluster's accounting); every rollout was collected and profiled",
)
def healthy_slurm_collect_and_profile_with_job_comment(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 5, 72, 3, "--latency-ms 30")
    launcher, label = slurm(extra_options=["--comment=weekly-eval-step_0200"])
    collected = launched(ctx, launcher, label, "collect", collect_argv(run, url, "string_match", 3))
    profiled = launched(ctx, launcher, label, "profile", profile_argv(run))
    if "exit code 0" not in collected or "exit code 0" not in profiled or len(unique_keys(run / "rollouts.jsonl")) != 15:
        raise failed(ctx, f"{collected}; {profiled}")
    return (f"`gym-pipeline materialize` (5 tasks x 3); collect as a Slurm job with --comment: {collected}; profile as "
            f"a Slurm job: {profiled}; all 15 rollouts.")


@case(
    "cache_resume_builtin_inputs_rematerialized_with_fewer_repeats_after_collect",
    "cache_resume",
    ["materialize"],
    "after collecting 6 tasks x 4, the user re-ran `gym-pipeline materialize` with --num-repeats 2 (for a quick "
    "check) into the same run folder, overwriting the inputs; the 4-repeat rollouts no longer match the 2-repeat "
    "inputs the profile reads",
)
def cache_resume_builtin_inputs_rematerialized_with_fewer_repeats_after_collect(ctx: Ctx) -> str:
    run = ctx.run
    data, _, url, policy = builtin_setup(ctx, "string_match", 6, 76, 4, "--latency-ms 20", in_run=True)
    collected = collect_sh(ctx, url, "string_match", 4)
    ctx.note("(later, for a quick check, the user materializes again into the same folder)")
    materialize(ctx, data, 2, "string_match", log="logs/materialize_quick_check.log")
    profiled = profile_sh(ctx)
    inputs, got = len(rows_of(run / "rollouts_materialized_inputs.jsonl")), len(rows_of(run / "rollouts.jsonl"))
    if collected or inputs != 12 or got != 24:
        raise failed(ctx, f"collect {collected}, inputs {inputs}, rollouts {got}")
    return (f"`gym-pipeline materialize --num-repeats 4` (6 tasks); `collect` exit {collected} ({got} rollouts); "
            f"`materialize --num-repeats 2` into the same folder ({inputs} inputs); `profile` exit {profiled}.")


if __name__ == "__main__":
    sys.exit(main("thirteenth_held_out", __file__, __doc__))
