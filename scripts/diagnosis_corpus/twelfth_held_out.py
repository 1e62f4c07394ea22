"""Build the TWELFTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/twelfth_held_out.py --out tests/data/diagnosis_corpus/twelfth_held_out [--only CASE ...]

Measured once on 2026-12-02 (top-1 70 %, see benchmarks/README.md), then tuned on: these cases now count as
tuning cases. The next held-out set is thirteenth_held_out.py.

This is the twelfth held-out set, written from the guides alone (the NeMo Gym debugging guide, the reward profiling
guide, the task-folder troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without reading the
diagnosis rules, their tests or their results. It was measured once, by someone else, to see how well `gym-pipeline
diagnose` names root causes on failures its rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`: stopped as by Ctrl-Z, killed by another job's port cleanup, restarted on its port,
reached through a stale URL file), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
workspace verifiers (`verifier: "MODULE:FUNCTION"`), task folders in Harbor's format (run in Docker sandboxes), the
real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` / `gym eval profile` inside a loopback-only network namespace,
with users' own resources servers), and real limits and node state (a dangling scratch symlink, a user outside the
docker group, a CPU quota, a pids limit, a neighbour's busy processes on a pinned core, a folder owned by someone
else, a misspelled sbatch option) and real bad config, data and task files. The output of every command is captured
as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs.
Each case injects one cause, different from those of the eleven earlier sets or reached by another path, and each
recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not written).

Labels (`case.json`) come from what was injected, following the NeMo Gym debugging guide's classes: the class of
the root cause (what the user must change), not of its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; the helpers shared with the earlier sets are imported from eighth_held_out.py,
ninth_held_out.py, tenth_held_out.py and eleventh_held_out.py, and only this set's own are defined here. Needs root
(unshare, cgroups, setpriv, fuser, chown), the Docker engine, NeMo Gym 0.7.0, and PYTHONPATH set to this
checkout. Run it from a foreground shell (SIGINT and SIGHUP at their defaults).
"""

from __future__ import annotations

import hashlib
import json
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
    profile_sh,
    served,
    slurm,
    stage,
    stage_argv,
    stop_gym,
    task_checkpoints,
    user_taskset,
    verifier_stages,
    wait_or_interrupt,
    workspace_sweep,
    write_sweep,
)
from eleventh_held_out import session_pid  # noqa: E402
from ninth_held_out import (  # noqa: E402
    HEAVY_VERIFIER,
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
    rows_of,
    text_of,
    unique_keys,
    wait_for,
)
from tenth_held_out import gym_eval_bounded, gym_start_then_eval, in_log  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def session_pids(process) -> list[int]:
    """Every process of `process`'s session (a background command started with ctx.bg)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if os.getsid(int(entry.name)) == process.pid:
                    pids.append(int(entry.name))
            except (OSError, ProcessLookupError):
                continue
    return pids


def alive(process) -> bool:
    return process.poll() is None


# =====================================================================================================
# the real NeMo Gym 0.7.0: healthy
# =====================================================================================================


@case(
    "healthy_gym_profile_rerun_after_reading_report",
    "healthy",
    [],
    "nothing is wrong: after a complete `gym eval run`, the user ran `gym eval profile` a second time on the same "
    "folder after reading the first report (it rewrote the same profile); every rollout was collected and profiled",
    netns=True,
)
def healthy_gym_profile_rerun_after_reading_report(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 24, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 3, 4))
    first = gym_profile(ctx, run / "results")
    ctx.sh(f"ls -la {run}/results", "logs/ls_results.log")
    second = gym_profile(ctx, run / "results", log="eval_profile_again.log")
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if evaluated or first or second or got != 15:
        raise failed(ctx, f"eval {evaluated}, profiles {first} {second}, {got}")
    return (
        "Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve` (5 tasks x 3, all 15) exit "
        f"{evaluated}; `gym eval profile` exit {first}, run again on the same folder exit {second}."
    )


@case(
    "healthy_gym_model_server_restarted_same_port_before_eval",
    "healthy",
    [],
    "nothing is wrong: after `gym env start` the user restarted the model server on the same port (to turn its "
    "request logging on), so env start's log shows the first server's address and the policy logs show a shutdown; "
    "the eval then ran against the restarted server and every rollout was collected and profiled",
    netns=True,
)
def healthy_gym_model_server_restarted_same_port_before_eval(ctx: Ctx) -> str:
    run = ctx.run
    data, url, first, overrides = gym_setup(ctx, "string_match", 5, 78, "--latency-ms 30 --port 8124")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    ctx.note("(the user restarts the model server on the same port)")
    ctx.stop(first, signal.SIGINT, 15)
    checkpoint = next(p for p in (ctx.work / "checkpoints").iterdir() if p.name.endswith("0200"))
    again, policy = ctx.policy(checkpoint, "--latency-ms 30 --port 8124", log="policy_server_restarted.log")
    evaluated = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 3, 4))
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if again != url or evaluated or profiled or got != 15:
        raise failed(ctx, f"{again} vs {url}, eval {evaluated}, profile {profiled}, {got}")
    return (
        "Model server on 127.0.0.1:8124; real NeMo Gym 0.7.0 (loopback-only namespace) `gym env start`; the model "
        f"server stopped (Ctrl-C) and started again on the same port; `gym eval run --no-serve` (5 tasks x 3, all "
        f"{got}) exit {evaluated}; `gym eval profile` exit {profiled}."
    )


# =====================================================================================================
# the real NeMo Gym 0.7.0: infra
# =====================================================================================================


@case(
    "infra_gym_results_symlink_to_unmounted_scratch",
    "infra",
    ["mount"],
    "RUN/results is a symlink to /scratch/alice/eval-results, but /scratch is not mounted on this node (the "
    "symlink dangles), so `gym eval run` could not create its output there and no rollout was written",
    netns=True,
)
def infra_gym_results_symlink_to_unmounted_scratch(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 44, "--latency-ms 30")
    if Path("/scratch/alice").exists():
        raise failed(ctx, "/scratch/alice exists here")
    (run / "results").symlink_to("/scratch/alice/eval-results")
    ctx.sh(f"ls -la {run}; ls -la /scratch/ 2>&1; findmnt /scratch || echo 'findmnt: /scratch not mounted'",
           "logs/check_results.log")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4), 120)
    stop_gym(ctx, env_start, policy)
    if evaluated == 0 or Path("/scratch/alice/eval-results/rollouts.jsonl").exists():
        raise failed(ctx, f"eval {evaluated}")
    return (
        "RUN/results -> /scratch/alice/eval-results with /scratch not mounted (RUN/logs/check_results.log); real NeMo "
        f"Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve --output RUN/results/rollouts.jsonl` exit "
        f"{evaluated}."
    )


@case(
    "infra_taskfolder_user_not_in_docker_group",
    "infra",
    ["docker group"],
    "the user ran the task-folder stages under their own account (uid 65534), which is not in the docker group, so "
    "the stages could not open the Docker socket /var/run/docker.sock (permission denied) and no sandbox started",
)
def infra_taskfolder_user_not_in_docker_group(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["create-greeting", "top-word"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    home = ctx.work / "home"
    home.mkdir()
    for path in (run, ctx.work):
        ctx.sh(f"chown -R 65534:65534 {path}", None)
    os.chmod(ctx.work, 0o755)
    user = f"HOME={home} setpriv --reuid=65534 --regid=65534 --clear-groups --"
    ctx.sh(f"{user} id; ls -l /var/run/docker.sock", "logs/whoami.log")
    codes = []
    for key in ("materialize", "collect", "profile"):
        extra = ("--model-url", url, "--model-name", "sim-policy") if key == "collect" else ()
        argv = shlex.join(stage_argv(sweep, key, checkpoint, "terminal_tasks", *extra))
        codes.append(ctx.sh(f"{user} {argv}", f"logs/{key}.log", timeout=300))
    ctx.sh(f"chown -R 0:0 {run}", None)
    rows = rows_of(run / "rollouts.jsonl")
    solved = sum(bool(row.get("reward")) for row in rows)
    if (not any(codes) and solved) or not in_log(ctx, "docker.sock") or in_log(ctx, "gym-pipeline’: Permission"):
        raise failed(ctx, f"exit {codes}, {solved} solved")
    return (
        "The taskset RUN/tasks (create-greeting, top-word; x 2); stages materialize, collect, profile run as uid 65534 "
        f"(not in the docker group) exit {codes}; {len(rows)} rows, {solved} solved."
    )


# =====================================================================================================
# the real NeMo Gym 0.7.0: model serving
# =====================================================================================================


@case(
    "model_serving_gym_server_killed_by_previous_jobs_port_cleanup",
    "model_serving",
    ["port"],
    "the model server was started on port 8123, the port the previous job on the node used; that job's epilogue "
    "ran `fuser -k 8123/tcp` to free \"its\" port and killed the user's model server mid-eval, so the remaining "
    "rollouts could not reach a model",
    netns=True,
)
def model_serving_gym_server_killed_by_previous_jobs_port_cleanup(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 60, "--latency-ms 500 --port 8123")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    eval_run = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 3, 2), background=True)
    wait_for(lambda: in_log(ctx, "Finished", "eval_run.log") or len(rows_of(run / "rollouts.jsonl")) >= 3
             or eval_run.poll() is not None, 120, "the first rollouts", poll_s=0.5)
    ctx.note("(the previous job's epilogue on this node frees the port it used)")
    ctx.sh("fuser -v -k -TERM 8123/tcp", None)
    time.sleep(2)
    killed = not alive(policy)
    wait_or_interrupt(ctx, eval_run, 100, "`gym eval run`")
    stop_gym(ctx, env_start, policy)
    got = len(rows_of(run / "rollouts.jsonl"))
    if not killed or (eval_run.returncode == 0 and got == 18):
        raise failed(ctx, f"killed {killed}, eval {eval_run.returncode}, {got}")
    return (
        "Model server on 127.0.0.1:8123; real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` "
        f"(6 tasks x 3); mid-run `fuser -k -TERM 8123/tcp` (the previous job's epilogue) ended the model server; "
        f"eval exit {eval_run.returncode}, {got} of 18 rollouts."
    )


# =====================================================================================================
# the real NeMo Gym 0.7.0: config
# =====================================================================================================


@case(
    "config_gym_eval_input_names_dataset_folder",
    "config",
    ["--input"],
    "`gym eval run --input` was given the dataset's folder (RUN/data) instead of the JSONL file inside it "
    "(RUN/data/tasks.jsonl), so Gym could not read any task",
    netns=True,
)
def config_gym_eval_input_names_dataset_folder(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 64, "--latency-ms 30")
    folder = run / "data"
    folder.mkdir()
    data.rename(folder / "tasks.jsonl")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval_bounded(ctx, overrides, agent_args(folder, run / "results" / "rollouts.jsonl", 2, 4), 100)
    stop_gym(ctx, env_start, policy)
    if evaluated == 0 and len(rows_of(run / "results" / "rollouts.jsonl")) == 8:
        raise failed(ctx, f"eval {evaluated}")
    return (
        "Real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve --input RUN/data` (a folder holding "
        f"tasks.jsonl) exit {evaluated}."
    )


# =====================================================================================================
# the real NeMo Gym 0.7.0: data schema
# =====================================================================================================


@case(
    "data_schema_gym_dataset_is_git_lfs_pointer",
    "data_schema",
    ["lfs"],
    "RUN/tasks.jsonl is a Git LFS pointer file (version/oid/size lines), not the dataset: the repository was cloned "
    "without `git lfs pull`, so Gym read three lines of text that are not task rows",
    netns=True,
)
def data_schema_gym_dataset_is_git_lfs_pointer(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 66, "--latency-ms 30")
    real = data.read_bytes()
    data.write_text(
        "version https://git-lfs.github.com/spec/v1\n"
        f"oid sha256:{hashlib.sha256(real).hexdigest()}\nsize {len(real)}\n"
    )
    ctx.note("(RUN/tasks.jsonl as checked out from the team's repository, without `git lfs pull`)")
    ctx.sh(f"head -c 300 {data}; echo; wc -c {data}", "logs/peek_data.log")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4), 100)
    stop_gym(ctx, env_start, policy)
    if evaluated == 0 and rows_of(run / "results" / "rollouts.jsonl"):
        raise failed(ctx, f"eval {evaluated}")
    return (
        "RUN/tasks.jsonl is a Git LFS pointer (3 lines); real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run "
        f"--no-serve` exit {evaluated}."
    )


@case(
    "data_schema_gym_content_parts_typed_text",
    "data_schema",
    ["input_text"],
    "the dataset's converter wrote the prompts' content parts as {\"type\": \"text\"} (the Chat Completions spelling) "
    "instead of the Responses API's {\"type\": \"input_text\"}, so Gym rejected the rows' responses_create_params",
    netns=True,
)
def data_schema_gym_content_parts_typed_text(ctx: Ctx) -> str:
    run = ctx.run

    def retype(index, row):
        for message in row["responses_create_params"]["input"]:
            for part in message.get("content", []):
                part["type"] = "text"
        return True

    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 70, "--latency-ms 30", edit=retype)
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4), 100)
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    rewarded = sum(bool(row.get("reward")) for row in rows)
    if evaluated == 0 and len(rows) == 10 and rewarded >= 8:
        raise failed(ctx, f"eval {evaluated}, {len(rows)} rows, {rewarded} rewarded")
    return (
        "RUN/tasks.jsonl (5 rows whose content parts are typed \"text\"); real NeMo Gym 0.7.0 (loopback-only "
        f"namespace) `gym eval run --no-serve` (x 2) exit {evaluated}, {len(rows)} rollouts, {rewarded} rewarded."
    )


# =====================================================================================================
# the real NeMo Gym 0.7.0: verifier runtime
# =====================================================================================================

BOXED_ONLY_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        # our answers always come boxed (copied from the math server)
        extracted = _extract_answer(text, "boxed")
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
    "verifier_runtime_gym_verify_hardcodes_boxed_extraction",
    "verifier_runtime",
    ["extraction_mode"],
    "the user's boxed_match resources server (its verify copied from a math server) always extracts a \\boxed{} "
    "answer and ignores each row's extraction_mode, so every final_answer and last_line task scored 0 although "
    "the model answered them correctly",
    netns=True,
)
def verifier_runtime_gym_verify_hardcodes_boxed_extraction(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 8, 0, "--latency-ms 30")
    search = own_gym_server(ctx, "boxed_match", BOXED_ONLY_VERIFY)
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='boxed_match')} {overrides}")
    evaluated = gym_eval(
        ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4, "boxed_match_simple_agent")
    )
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    modes = [row["extraction_mode"] for row in rows_of(data)]
    other = [row for row in rows if modes[row["_ng_task_index"]] != "boxed"]
    if not other or any(row.get("reward") for row in other):
        raise failed(ctx, f"eval {evaluated}, {len(other)} non-boxed rows")
    return (
        "A user's resources server boxed_match (verify extracts \\boxed{} whatever the row's extraction_mode); real "
        f"NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (8 tasks x 2) exit {evaluated}; "
        f"{len(other)} final_answer/last_line rollouts, all reward 0; `gym eval profile` exit {profiled}."
    )


FORMAT_ONLY_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        # stage 1 of the curriculum: reward a well-formed answer
        reward = 1.0 if extracted is not None else 0.0
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""


@case(
    "verifier_runtime_gym_verify_format_reward_left_in",
    "verifier_runtime",
    ["expected_answer"],
    "the user's curriculum_match resources server still has the format-only reward of the curriculum's first stage: "
    "verify gives 1.0 to any answer it can extract and never compares it with expected_answer, so wrong answers "
    "were rewarded and the profile overstates the checkpoint",
    netns=True,
)
def verifier_runtime_gym_verify_format_reward_left_in(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 8, 72, "--latency-ms 30", weaker=True)
    search = own_gym_server(ctx, "curriculum_match", FORMAT_ONLY_VERIFY)
    env_start = gym_start(
        ctx, f"--search-dir {search} {gym_model_args(url, resources_server='curriculum_match')} {overrides}"
    )
    evaluated = gym_eval(
        ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 3, 4, "curriculum_match_simple_agent")
    )
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    wrong = [
        row for row in rows
        if row.get("reward") and str(row.get("extracted_answer") or "").strip().lower()
        != str(row.get("expected_answer") or "").strip().lower()
    ]
    if not wrong:
        raise failed(ctx, f"eval {evaluated}, no wrong answer rewarded")
    return (
        "A user's resources server curriculum_match (format-only reward); the step_0100 checkpoint; real NeMo Gym "
        f"0.7.0 (loopback-only namespace) `gym eval run --no-serve` (8 tasks x 3) exit {evaluated}; {len(wrong)} of "
        f"{len(rows)} rollouts rewarded 1.0 with a wrong answer (e.g. {wrong[0].get('extracted_answer')!r} for "
        f"{wrong[0].get('expected_answer')!r}); `gym eval profile` exit {profiled}."
    )


# =====================================================================================================
# the real NeMo Gym 0.7.0: cache and resume
# =====================================================================================================


@case(
    "cache_resume_gym_profile_mixes_two_splits_files",
    "cache_resume",
    ["inputs"],
    "the user evaluated two splits into RUN/results/easy and RUN/results/hard, then profiled with --inputs of the "
    "easy split and --rollouts of the hard one (tab completion picked the wrong folder), so the profile joined "
    "rollouts with other tasks' materialized inputs",
    netns=True,
)
def cache_resume_gym_profile_mixes_two_splits_files(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=12, folder=run, name="all.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    lines = data.read_text().splitlines(keepends=True)
    (run / "split_easy.jsonl").write_text("".join(lines[:4]))
    (run / "split_hard.jsonl").write_text("".join(lines[4:]))
    data.unlink()
    url, policy = ctx.policy(checkpoint, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    codes = []
    for split in ("easy", "hard"):
        codes.append(gym_eval(ctx, overrides, agent_args(run / f"split_{split}.jsonl",
                                                          run / "results" / split / "rollouts.jsonl", 2, 4),
                              log=f"eval_run_{split}.log"))
    stop_gym(ctx, env_start, policy)
    profiled = ctx.sh(f"{GYM} eval profile --inputs {run}/results/easy/rollouts_materialized_inputs.jsonl "
                      f"--rollouts {run}/results/hard/rollouts.jsonl", "eval_profile.log", timeout=300)
    easy = rows_of(run / "results" / "easy" / "rollouts_materialized_inputs.jsonl")
    hard = rows_of(run / "results" / "hard" / "rollouts.jsonl")
    if any(codes) or not easy or not hard or easy[0].get("expected_answer") == hard[0].get("expected_answer"):
        raise failed(ctx, f"exit {codes}")
    return (
        "Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve` of RUN/split_easy.jsonl and "
        f"RUN/split_hard.jsonl (4 tasks x 2 each) into RUN/results/easy and RUN/results/hard exit {codes}; `gym eval "
        f"profile --inputs RUN/results/easy/... --rollouts RUN/results/hard/rollouts.jsonl` exit {profiled}."
    )


# =====================================================================================================
# the real NeMo Gym 0.7.0: throughput and resources
# =====================================================================================================

@case(
    "throughput_gym_env_start_in_throttled_login_cgroup",
    "throughput_resources",
    ["cpu"],
    "`gym env start` was run on the login node inside the login session's cgroup, limited to 10 % of one CPU "
    "(cpu.cfs_quota_us 10000 per 100000), so Ray and Gym's servers were starved of CPU and did not get ready within "
    "three minutes; no rollout could be collected",
    netns=True,
)
def throughput_gym_env_start_in_throttled_login_cgroup(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 76, "--latency-ms 30")
    group = cgroup("cpu", f"gp-login-{run.parent.name[-24:]}", cpu__cfs_period_us=100000, cpu__cfs_quota_us=10000)
    ctx.note(f"(the login session's cgroup {group}: cpu.cfs_quota_us 10000 of 100000)")
    try:
        ready, evaluated = gym_start_then_eval(
            ctx,
            f"{gym_model_args(url)} {overrides}",
            overrides,
            agent_args(data, run / "rollouts.jsonl", 2, 4),
            start_timeout_s=180,
            eval_timeout_s=100,
            prefix=f"echo $BASHPID > {group}/cgroup.procs; cat {group}/cpu.cfs_quota_us",
        )
        throttled = " ".join((group / "cpu.stat").read_text().split())
    finally:
        stop_gym(ctx, policy)
        drop_cgroup(group)
    got = len(rows_of(run / "rollouts.jsonl"))
    if ready and evaluated == 0 and got == 12:
        raise failed(ctx, f"ready {ready}, eval {evaluated}, {got}")
    return (
        f"`gym env start` in a cgroup with 10 % of a CPU ({throttled}); real NeMo Gym 0.7.0 (loopback-only "
        f"namespace) ready within 180 s: {ready}; `gym eval run --no-serve` (6 tasks x 2) exit {evaluated}, {got} of "
        "12 rollouts."
    )


# =====================================================================================================
# the built-in engine, stages, task folders: healthy
# =====================================================================================================

ERROR_ROWS = [
    ("Which Python exception is raised when a TCP connection is refused?", "ConnectionRefusedError"),
    ("Which signal does the Linux out-of-memory killer send to the process it kills?", "SIGKILL"),
    ("What word starts the report Python prints for an uncaught exception?", "Traceback"),
    ("Which HTTP status code means Too Many Requests?", "429"),
    ("Which exit code does GNU timeout return when the command timed out?", "124"),
    ("Which HTTP status code means Service Unavailable?", "503"),
]


@case(
    "healthy_builtin_dataset_about_error_messages",
    "healthy",
    [],
    "nothing is wrong: the user's dataset is a quiz about error messages (ConnectionRefusedError, SIGKILL, "
    "Traceback, 429, 124, 503), so prompts, answers and rollouts are full of error words; every rollout was "
    "collected and profiled",
)
def healthy_builtin_dataset_about_error_messages(ctx: Ctx) -> str:
    run = ctx.run
    data = run / "error_quiz.jsonl"
    rows = []
    for question, answer in ERROR_ROWS:
        text = f"{question} End your response with 'Final answer: <answer>'."
        rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message", "content": [
            {"type": "input_text", "text": text}]}]}, "expected_answer": answer, "extraction_mode": "final_answer",
            "case_sensitive": False, "difficulty": 1, "distractors": ["EOFError", "SIGTERM", "404"]})
    data.write_text("".join(json.dumps(row) + "\n" for row in rows))
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    from recipes import materialize

    materialize(ctx, data, 3, "string_match")
    collected = collect_sh(ctx, url, "string_match", 4)
    profiled = profile_sh(ctx)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if collected or profiled or got != 18:
        raise failed(ctx, f"collect {collected}, profile {profiled}, {got}")
    return (
        "RUN/error_quiz.jsonl (6 questions about error messages); `materialize` (x 3), `collect --concurrency 4` exit "
        f"{collected} ({got} of 18), `profile` exit {profiled}."
    )


@case(
    "healthy_taskfolder_count_error_lines_task_output",
    "healthy",
    [],
    "nothing is wrong: the taskset includes count-error-lines, whose sandbox logs are full of ERROR lines by design "
    "(the task is to count them); every episode ran and was verified (the model missed at most one), and the "
    "profile was written",
)
def healthy_taskfolder_count_error_lines_task_output(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["count-error-lines", "create-greeting"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    codes = taskset_stages(ctx, sweep, checkpoint, url, "materialize", "collect", "profile")
    rows = rows_of(run / "rollouts.jsonl")
    solved = sum(bool(row.get("reward")) for row in rows)
    if any(codes) or len(rows) != 4 or solved < 3 or any(row.get("failure_kind") for row in rows):
        raise failed(ctx, f"exit {codes}, {len(rows)} rows, {solved} solved")
    return (
        f"A sweep with the taskset RUN/tasks (count-error-lines, create-greeting; x 2); stages exit {codes}; "
        f"{solved} of {len(rows)} episodes solved."
    )


@case(
    "healthy_builtin_monitoring_probes_404_on_model_server",
    "healthy",
    [],
    "nothing is wrong: during the collection the site's monitoring probed the model server on /metrics and /health, "
    "routes it does not have, filling its log with 404s; the chat completions were unaffected and every rollout was "
    "collected and profiled",
)
def healthy_builtin_monitoring_probes_404_on_model_server(ctx: Ctx) -> str:
    run = ctx.run
    data, checkpoint, url, policy = builtin_setup(ctx, "mcqa", 6, 14, 3, "--latency-ms 60")
    base = url.rsplit("/v1", 1)[0]
    probe = ctx.bg(f"while true; do for p in metrics health; do echo \"$(date +%T) GET /$p -> $(curl -s -o /dev/null "
                   f"-w '%{{http_code}}' {base}/$p)\"; done; sleep 0.3; done", "logs/monitoring_probe.log")
    collected = collect_sh(ctx, url, "mcqa", 4)
    ctx.stop(probe, signal.SIGTERM, 5)
    profiled = profile_sh(ctx)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if collected or profiled or got != 18 or not in_log(ctx, "404", "logs/monitoring_probe.log"):
        raise failed(ctx, f"collect {collected}, profile {profiled}, {got}")
    return (
        "mcqa, 6 tasks x 3; a monitoring loop curling /metrics and /health on the model server (404); `collect "
        f"--concurrency 4` exit {collected} ({got} of 18); `profile` exit {profiled}."
    )


# =====================================================================================================
# the built-in engine, stages, task folders: infra
# =====================================================================================================


@case(
    "infra_builtin_run_folder_owned_by_teammate",
    "infra",
    ["permission"],
    "the run folder was created by a teammate (owned by root, mode 755) and the user's collect ran under their own "
    "account (uid 65534), which may not create files in it, so the collection could not write its rollouts "
    "(Permission denied)",
)
def infra_builtin_run_folder_owned_by_teammate(ctx: Ctx) -> str:
    run = ctx.run
    data, checkpoint, url, policy = builtin_setup(ctx, "string_match", 5, 26, 2, "--latency-ms 30")
    os.chmod(run, 0o755)
    ctx.sh(f"ls -ld {run}; id 65534", "logs/whoami.log")
    argv = shlex.join(collect_argv(run, url, "string_match", 4))
    collected = ctx.sh(f"setpriv --reuid=65534 --regid=65534 --clear-groups -- {argv}", "logs/collect.log",
                       timeout=200)
    if collected == 0 or rows_of(run / "rollouts.jsonl") or not in_log(ctx, "ermission", "logs/collect.log"):
        raise failed(ctx, f"collect {collected}")
    return (
        f"RUN owned by root (755); `materialize` (5 tasks x 2); `collect` run as uid 65534 (setpriv) exit {collected}."
    )


# =====================================================================================================
# the built-in engine, stages: model serving
# =====================================================================================================


@case(
    "model_serving_builtin_server_suspended_by_ctrl_z",
    "model_serving",
    ["background"],
    "the user started the model server in the foreground of a terminal and pressed Ctrl-Z to get the prompt back "
    "(the job is stopped), which suspends it instead of backgrounding it; the collection started after that got no answer "
    "from the stopped server and was given up",
)
def model_serving_builtin_server_suspended_by_ctrl_z(ctx: Ctx) -> str:
    run = ctx.run
    data, checkpoint, url, policy = builtin_setup(ctx, "string_match", 6, 30, 3, "--latency-ms 100")
    ctx.sh(f"curl -s -m 5 {url}/models; echo", "logs/model_check.log")
    ctx.note("(Ctrl-Z in the model server's terminal stops its job; done here with SIGSTOP to its process group, "
             "as a SIGTSTP to this detached group would be discarded)")
    os.killpg(policy.pid, signal.SIGSTOP)
    time.sleep(1)
    state = (Path("/proc") / str(session_pid(policy, "serve-policy")) / "stat").read_text().split()[2]
    collect = ctx.bg(shlex.join(collect_argv(run, url, "string_match", 4)), "logs/collect.log")
    wait_or_interrupt(ctx, collect, 60, "`gym-pipeline collect`")
    profiled = profile_sh(ctx)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if state != "T" or got >= 18:
        raise failed(ctx, f"state {state}, {got}")
    return (
        f"The model server answered /v1/models, then its job stopped as by Ctrl-Z (process state {state}); `collect "
        f"--concurrency 4` (6 tasks x 3) Ctrl-C after 60 s, exit {collect.returncode}, {got} of 18; `profile` exit "
        f"{profiled}."
    )


@case(
    "model_serving_builtin_url_read_from_stale_ready_file",
    "model_serving",
    ["model-url"],
    "the user's script took the model URL from yesterday's ready file (WORK/policy.url), written by a model server "
    "that has since ended; today's server listens on another port, so the collection's requests were refused",
)
def model_serving_builtin_url_read_from_stale_ready_file(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=34, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    old_url, old = ctx.policy(checkpoint, "--latency-ms 30", log="logs/model_server_yesterday.log")
    (ctx.work / "policy.url").write_text(old_url + "\n")
    ctx.note("(yesterday's model server ends with its job)")
    ctx.stop(old, signal.SIGTERM, 10)
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    if url == old_url:
        raise failed(ctx, "same port")
    from recipes import materialize

    materialize(ctx, data, 2, "string_match")
    collected = ctx.sh(f"URL=$(cat {ctx.work}/policy.url); echo \"model url: $URL\"; "
                       + shlex.join(collect_argv(run, "URL", "string_match", 4)).replace(" URL ", ' "$URL" '),
                       "logs/collect.log", timeout=300)
    profiled = profile_sh(ctx)
    rewarded = sum(bool(row.get("reward")) for row in rows_of(run / "rollouts.jsonl"))
    if collected == 0 and rewarded:
        raise failed(ctx, f"collect {collected}, {rewarded}")
    return (
        f"Model server of yesterday (its URL in WORK/policy.url) ended; today's on another port; `collect --model-url "
        f"$(cat WORK/policy.url)` exit {collected}, {rewarded} rewarded; `profile` exit {profiled}."
    )


# =====================================================================================================
# stages: config
# =====================================================================================================

PLAIN_VERIFIER = '''
"""Exact-answer scoring."""
import re

ANSWER = re.compile(r"(?:\\\\boxed\\{([^}]*)\\}|Final answer:\\s*(.+))", re.IGNORECASE)


def score(row, response_text):
    match = ANSWER.search(response_text)
    answer = (match.group(1) or match.group(2)).strip().rstrip(".") if match else response_text.strip().splitlines()[-1]
    return {"reward": float(answer.lower() == row["expected_answer"].lower()), "extracted_answer": answer}
'''


@case(
    "config_sweep_verifier_reference_dotted_instead_of_colon",
    "config",
    ["my_verifier:score"],
    "the sweep's environment names its verifier \"my_verifier.score\" (a dotted path) where a \"MODULE:FUNCTION\" "
    "reference (my_verifier:score) is expected, so the stages could not find the verifier",
)
def config_sweep_verifier_reference_dotted_instead_of_colon(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=38, folder=run, name="exact_answer.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = workspace_sweep(ctx, "exact_answer", data, checkpoint, {"verifier": "my_verifier.score"}, PLAIN_VERIFIER,
                            num_repeats=2, concurrency=3)
    codes = [stage(ctx, sweep, "materialize", checkpoint, "exact_answer"),
             stage(ctx, sweep, "collect", checkpoint, "exact_answer", *served(url)),
             stage(ctx, sweep, "profile", checkpoint, "exact_answer")]
    if not any(codes):
        raise failed(ctx, f"exit {codes}")
    return f"RUN/sweep.yaml with verifier \"my_verifier.score\"; stages materialize, collect, profile exit {codes}."


@case(
    "config_sweep_yaml_indented_with_tabs",
    "config",
    ["spaces"],
    "the user re-indented RUN/sweep.yaml in an editor that inserts tab characters; YAML forbids tabs for "
    "indentation, so the sweep config could not be parsed and no stage ran",
)
def config_sweep_yaml_indented_with_tabs(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=42, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    config = json.loads(write_sweep(ctx, "string_match", data, checkpoint, num_repeats=2, concurrency=4).read_text())
    (run / "sweep.json").unlink()
    env = config["environments"][0]
    yaml_text = (
        f"name: {config['name']}\n"
        "environments:\n"
        f"\t- name: {env['name']}\n"
        f"\t  dataset: {env['dataset']}\n"
        f"checkpoints_dir: {config['checkpoints_dir']}\n"
        f"runs_dir: {config['runs_dir']}\n"
        "num_repeats: 2\n"
        "concurrency: 4\n"
    )
    sweep = run / "sweep.yaml"
    sweep.write_text(yaml_text)
    codes = [stage(ctx, sweep, "materialize", checkpoint, "string_match"),
             stage(ctx, sweep, "collect", checkpoint, "string_match", *served(url))]
    if not all(codes):
        raise failed(ctx, f"exit {codes}")
    return f"RUN/sweep.yaml indented with tab characters; `stage materialize` and `stage collect` exit {codes}."


@case(
    "config_slurm_sbatch_option_misspelled",
    "config",
    ["--time"],
    "the collect stage's Slurm settings pass extra_options [\"--time-limit=10\"], an sbatch option that does not "
    "exist (sbatch's is --time), so sbatch refused the job and nothing was collected",
)
def config_slurm_sbatch_option_misspelled(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 5, 8, 2, "--latency-ms 30", in_run=True)
    launcher, label = slurm(extra_options=["--time-limit=10"])
    collected = launched(ctx, launcher, label, "collect", collect_argv(run, url, "string_match", 4))
    if "exit code 0" in collected or rows_of(run / "rollouts.jsonl"):
        raise failed(ctx, collected)
    return (
        "`gym-pipeline materialize` (5 tasks x 2); collect through the project's SlurmLauncher with extra_options "
        f"['--time-limit=10']: {collected[:300]}"
    )


# =====================================================================================================
# stages, task folders: data schema
# =====================================================================================================


@case(
    "data_schema_stage_dataset_with_merge_conflict_markers",
    "data_schema",
    ["conflict"],
    "the dataset RUN/string_match.jsonl was committed in the middle of an unresolved git merge: it still holds the "
    "<<<<<<< / ======= / >>>>>>> conflict marker lines between its rows, which are not JSON",
)
def data_schema_stage_dataset_with_merge_conflict_markers(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=46, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    lines = data.read_text().splitlines(keepends=True)
    data.write_text("".join(lines[:3]) + "<<<<<<< HEAD\n" + lines[3] + "=======\n" + lines[4]
                    + ">>>>>>> origin/relabel-geography\n" + "".join(lines[5:]))
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=2, concurrency=4)
    codes = [stage(ctx, sweep, "materialize", checkpoint, "string_match"),
             stage(ctx, sweep, "collect", checkpoint, "string_match", *served(url)),
             stage(ctx, sweep, "profile", checkpoint, "string_match")]
    if not any(codes) and len(rows_of(run / "rollouts.jsonl")) == 12:
        raise failed(ctx, f"exit {codes}")
    return (
        "RUN/string_match.jsonl with git conflict markers between its rows; stages materialize, collect, profile "
        f"exit {codes}."
    )


LOGIN_PAGE = """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Sign in - Data Hub</title></head>
<body>
  <form method="post" action="/login?next=/datasets/geo-quiz/v3/string_match.jsonl">
    <h1>Sign in to continue</h1>
    <input name="username"><input name="password" type="password">
    <button type="submit">Sign in</button>
  </form>
</body>
</html>
"""


@case(
    "data_schema_builtin_dataset_download_saved_login_page",
    "data_schema",
    ["download"],
    "RUN/string_match.jsonl was fetched with `curl -L -o` from the data hub without credentials, which answered "
    "with its HTML sign-in page; the file is that HTML page, not JSONL rows",
)
def data_schema_builtin_dataset_download_saved_login_page(ctx: Ctx) -> str:
    run = ctx.run
    data = run / "string_match.jsonl"
    data.write_text(LOGIN_PAGE)
    ctx.note("(RUN/string_match.jsonl as `curl -L -o` saved it from the data hub without a token)")
    ctx.sh(f"file {data}; head -n 3 {data}", "logs/peek_data.log")
    code = ctx.sh(f"{GP} materialize --input {data} --num-repeats 2 --agent string_match_simple_agent --output "
                  f"{run}/rollouts_materialized_inputs.jsonl", "logs/materialize.log")
    if code == 0 and rows_of(run / "rollouts_materialized_inputs.jsonl"):
        raise failed(ctx, f"materialize {code}")
    return f"RUN/string_match.jsonl is an HTML sign-in page; `gym-pipeline materialize` exit {code}."


@case(
    "data_schema_taskfolder_task_nested_one_level_too_deep",
    "data_schema",
    ["folder"],
    "the user unpacked create-greeting from a zip that had its own top folder, so the task sits at "
    "tasks/create-greeting/create-greeting/ and tasks/create-greeting holds no task.toml: that task folder is not "
    "in Harbor's layout and could not be run",
)
def data_schema_taskfolder_task_nested_one_level_too_deep(ctx: Ctx) -> str:
    run = ctx.run

    def nest(tasks: Path) -> None:
        outer = tasks / "create-greeting"
        inner = tasks / "create-greeting.tmp"
        outer.rename(inner)
        outer.mkdir()
        inner.rename(outer / "create-greeting")

    tasks = user_taskset(ctx, ["create-greeting", "top-word"], nest)
    ctx.note("(unzip create-greeting.zip -d RUN/tasks/create-greeting: the zip has its own top folder)")
    ctx.sh(f"find {tasks} -maxdepth 3 | sort", "logs/tree.log")
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    codes = taskset_stages(ctx, sweep, checkpoint, url, "materialize", "collect", "profile")
    rows = rows_of(run / "rollouts.jsonl")
    greeting = [row for row in rows if "hello.txt" in json.dumps(row) and row.get("reward")]
    if not any(codes) and greeting:
        raise failed(ctx, f"exit {codes}, greeting solved")
    return (
        f"The taskset RUN/tasks (create-greeting nested in create-greeting/, top-word; x 2); stages exit {codes}; "
        f"{len(rows)} rows."
    )


# =====================================================================================================
# stages, task folders: verifier runtime
# =====================================================================================================

WHOLE_RESPONSE_VERIFIER = '''
"""Exact-answer scoring."""


def score(row, response_text):
    answer = response_text.strip()
    return {"reward": float(answer.lower() == row["expected_answer"].lower()), "extracted_answer": answer}
'''


@case(
    "verifier_runtime_stage_workspace_verifier_compares_whole_response",
    "verifier_runtime",
    ["extract"],
    "the user's workspace verifier compares the model's whole response text with expected_answer instead of the "
    "answer extracted from it (\\boxed{}, 'Final answer:'), so correct answers wrapped in any text scored 0",
)
def verifier_runtime_stage_workspace_verifier_compares_whole_response(ctx: Ctx) -> str:
    codes, rows = verifier_stages(ctx, WHOLE_RESPONSE_VERIFIER, 0, n=8)
    modes = [row["extraction_mode"] for row in rows_of(ctx.run / "exact_answer.jsonl")]
    wrapped = [row for row in rows if modes[row["_ng_task_index"]] in ("boxed", "final_answer")]
    if not wrapped or any(row.get("reward") for row in wrapped):
        raise failed(ctx, f"exit {codes}, {len(wrapped)} wrapped rows")
    return (
        "A sweep whose environment exact_answer is scored by verifiers/my_verifier.py (whole response == label); "
        f"stages exit {codes}; {len(wrapped)} boxed/final_answer rollouts, all reward 0, of {len(rows)}."
    )


@case(
    "verifier_runtime_taskfolder_test_checks_renamed_output_file",
    "verifier_runtime",
    ["test.sh"],
    "the user renamed create-greeting's output file in a half-done edit: instruction.md still asks for "
    "/app/hello.txt but tests/test.sh now checks /app/greeting.txt, so the test failed every correct episode",
)
def verifier_runtime_taskfolder_test_checks_renamed_output_file(ctx: Ctx) -> str:
    run = ctx.run

    def rename(tasks: Path) -> None:
        test = tasks / "create-greeting" / "tests" / "test.sh"
        test.write_text(test.read_text().replace("/app/hello.txt", "/app/greeting.txt"))

    tasks = user_taskset(ctx, ["create-greeting", "top-word"], rename)
    if "greeting.txt" not in text_of(tasks / "create-greeting" / "tests" / "test.sh"):
        raise failed(ctx, "test.sh not edited")
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    codes = taskset_stages(ctx, sweep, checkpoint, url, "materialize", "collect", "profile")
    rows = rows_of(run / "rollouts.jsonl")
    greeting = [row for row in rows if "hello.txt" in json.dumps(row)]
    if not greeting or any(row.get("reward") for row in greeting):
        raise failed(ctx, f"exit {codes}, {len(greeting)} greeting rows")
    return (
        f"The taskset RUN/tasks (create-greeting whose test.sh checks /app/greeting.txt, top-word; x 2); stages exit "
        f"{codes}; create-greeting rewards {[row.get('reward') for row in greeting]}."
    )


# =====================================================================================================
# the built-in engine: cache and resume
# =====================================================================================================


@case(
    "cache_resume_builtin_inputs_symlink_rematerialized_by_teammate",
    "cache_resume",
    ["materialize"],
    "RUN/rollouts_materialized_inputs.jsonl is a symlink to the team's shared inputs file; after the user's "
    "collection a teammate materialized another dataset into that shared file, and the user's profile then joined "
    "their rollouts with the teammate's inputs",
)
def cache_resume_builtin_inputs_symlink_rematerialized_by_teammate(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=10, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    shared = run / "team_shared" / "inputs" / "string_match.jsonl"
    shared.parent.mkdir(parents=True)
    agent = "--agent string_match_simple_agent"
    ctx.sh(f"{GP} materialize --input {data} --num-repeats 2 {agent} --output {shared}", "logs/materialize.log")
    (run / "rollouts_materialized_inputs.jsonl").symlink_to("team_shared/inputs/string_match.jsonl")
    collected = collect_sh(ctx, url, "string_match", 4)
    other = ctx.dataset("string_match", 6, start=56, name="teammate.jsonl")
    ctx.note("(a teammate materializes their own dataset into the shared inputs file)")
    ctx.sh(f"{GP} materialize --input {other} --num-repeats 2 {agent} --output {shared}", None)
    profiled = profile_sh(ctx)
    inputs = {row["_ng_task_index"]: row.get("expected_answer") for row in rows_of(shared)}
    rows = rows_of(run / "rollouts.jsonl")
    mismatched = [row for row in rows if row.get("expected_answer") != inputs.get(row["_ng_task_index"])]
    if collected or not mismatched:
        raise failed(ctx, f"collect {collected}, no mismatch")
    return (
        "RUN/rollouts_materialized_inputs.jsonl -> team_shared/inputs/string_match.jsonl; `materialize` (6 tasks x 2); "
        f"`collect` exit {collected}; the shared file re-materialized from another dataset; `profile` exit "
        f"{profiled}; {len(mismatched)} of {len(rows)} rollouts no longer match their inputs."
    )


@case(
    "cache_resume_builtin_run_folder_copied_from_other_checkpoint",
    "cache_resume",
    ["rollouts"],
    "the user made the run folder of checkpoint step_0200 by copying step_0100's finished run folder (`cp -r`) and "
    "ran `collect --resume` in it: every (task, rollout) key was already settled by the copied rollouts, nothing was "
    "collected from step_0200, and its profile is step_0100's",
)
def cache_resume_builtin_run_folder_copied_from_other_checkpoint(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=50, folder=run, name="string_match.jsonl")
    weaker, better = checkpoints(ctx, "string_match", data)
    old = ctx.work / "runs" / "step_0100" / "string_match"
    old.mkdir(parents=True)
    old_url, old_policy = ctx.policy(weaker, "--latency-ms 20", log="logs/model_server_step_0100.log")
    from recipes import materialize

    materialize(ctx, data, 3, "string_match", folder=old, log="logs/materialize_step_0100.log")
    ctx.sh(shlex.join(collect_argv(old, old_url, "string_match", 4)), "logs/collect_step_0100.log", timeout=300)
    ctx.stop(old_policy, signal.SIGTERM, 10)
    before = rows_of(old / "rollouts.jsonl")
    ctx.sh(f"cp -r {old}/. {run}/", "logs/copy_run_folder.log")
    url, policy = ctx.policy(better, "--latency-ms 20", log="logs/model_server_step_0200.log")
    resumed = collect_sh(ctx, url, "string_match", 4, "--resume", log="logs/collect_step_0200.log")
    profiled = profile_sh(ctx)
    after = rows_of(run / "rollouts.jsonl")
    if len(before) != 18 or len(after) != len(before):
        raise failed(ctx, f"{len(before)} -> {len(after)}")
    return (
        "step_0100's run (6 tasks x 3, 18 rollouts) copied with `cp -r` into step_0200's run folder RUN; `collect "
        f"--resume` against step_0200's server exit {resumed}, {len(after) - len(before)} new rollouts; `profile` exit "
        f"{profiled}."
    )


# =====================================================================================================
# stages, the built-in engine: throughput and resources
# =====================================================================================================


@case(
    "throughput_stage_collect_pinned_to_busy_core",
    "throughput_resources",
    ["cpu"],
    "the user's launch script pins the collect stage to CPU 0 (`taskset -c 0`, copied from a benchmark), a core a "
    "neighbour's job keeps busy with six processes, while the user's typo-tolerant verifier needs over a second of "
    "CPU per rollout; the collection crawled and was cut off by the 90 s wall-time budget with rollouts missing",
)
def throughput_stage_collect_pinned_to_busy_core(ctx: Ctx) -> str:
    run = ctx.run
    sweep, checkpoint, url = verifier_sweep(ctx, HEAVY_VERIFIER, 60, n=8, repeats=2, concurrency=4)
    materialized = stage(ctx, sweep, "materialize", checkpoint, "exact_answer")
    ctx.note("(a neighbour's job on the node: six busy processes pinned to CPU 0)")
    hogs = [ctx.bg("taskset -c 0 sh -c 'while :; do :; done'", None) for _ in range(6)]
    argv = shlex.join(stage_argv(sweep, "collect", checkpoint, "exact_answer", *served(url)))
    try:
        collected = ctx.sh(f"( taskset -c 0 timeout 90 {argv}; code=$?; echo \"collect stage exit $code\"; exit $code )",
                           "logs/collect.log", timeout=300)
    finally:
        for hog in hogs:
            ctx.stop(hog, signal.SIGKILL, 2)
    profiled = stage(ctx, sweep, "profile", checkpoint, "exact_answer")
    got = len(rows_of(run / "rollouts.jsonl"))
    if materialized or collected != 124 or got >= 16:
        raise failed(ctx, f"materialize {materialized}, collect {collected}, {got}")
    return (
        "A sweep whose environment exact_answer is scored by verifiers/my_verifier.py (CPU-heavy); `taskset -c 0 "
        f"timeout 90 gym-pipeline stage collect` on a core shared with six busy processes: exit {collected}, {got} of "
        f"16 rows; `stage profile` exit {profiled}."
    )


@case(
    "throughput_builtin_collect_job_pids_limit",
    "throughput_resources",
    ["pids"],
    "the collect ran inside the batch system's job cgroup with pids.max 3 (a per-job task limit meant for single "
    "threaded scripts), so the collector could not start the threads it needs and failed",
)
def throughput_builtin_collect_job_pids_limit(ctx: Ctx) -> str:
    run = ctx.run
    data, checkpoint, url, policy = builtin_setup(ctx, "string_match", 6, 22, 3, "--latency-ms 30")
    group = cgroup("pids", f"gp-job-{run.parent.name[-24:]}", pids__max=3)
    ctx.note(f"(the job's cgroup {group}: pids.max 3)")
    argv = shlex.join(collect_argv(run, url, "string_match", 8))
    try:
        collected = ctx.sh(f"( echo $BASHPID > {group}/cgroup.procs; echo \"pids.max: $(cat {group}/pids.max)\"; "
                           f"timeout 120 {argv} )", "logs/collect.log", timeout=200)
        events = text_of(group / "pids.events").strip() if (group / "pids.events").exists() else ""
    finally:
        drop_cgroup(group)
    profiled = profile_sh(ctx)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if collected == 0 and got == 18:
        raise failed(ctx, f"collect {collected}, {got}")
    return (
        f"`materialize` (6 tasks x 3); `collect --concurrency 8` in a cgroup with pids.max 3 ({events}): exit "
        f"{collected}, {got} of 18; `profile` exit {profiled}."
    )


if __name__ == "__main__":
    sys.exit(main("twelfth_held_out", __file__, __doc__))
