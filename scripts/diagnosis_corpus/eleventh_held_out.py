"""Build the ELEVENTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/eleventh_held_out.py --out tests/data/diagnosis_corpus/eleventh_held_out [--only CASE ...]

Measured once on 2026-12-02 (top-1 65 %, see benchmarks/README.md), then tuned on: these cases now count as
tuning cases. The next held-out set is twelfth_held_out.py.

This is the eleventh held-out set, written from the guides alone (the NeMo Gym debugging guide, the reward
profiling guide, the task-folder troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without
reading the diagnosis rules, their tests or their results. It was measured once, by someone else, to see
how well `gym-pipeline diagnose` names root causes on failures its rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated
policy (`gym-pipeline serve-policy`, behind a wrapper that ends it, hung up by a log rotation, left running on a
port another server wanted), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`), workspace
verifiers (`verifier: "MODULE:FUNCTION"`), task folders in Harbor's format (run in Docker sandboxes), the real NeMo
Gym 0.7.0 (`gym env start` / `gym eval run` / `gym eval profile` inside a loopback-only network namespace, with
users' own resources servers), the Slurm launcher, real limits and node state (a firewall rule, an immutable
folder, cgroup memory and CPU limits, a node set DOWN by its administrator) and real bad config, data and task
files. The output of every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder
is written by hand but the user's own inputs. Each case injects one cause, different from those of the ten earlier
sets or reached by another path, and each recipe checks that its fault really happened (it raises RecipeError
otherwise, and the case is not written).

Labels (`case.json`) come from what was injected, following the NeMo Gym debugging guide's classes: the class of
the root cause (what the user must change), not of its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; the helpers shared with the earlier sets are imported from eighth_held_out.py,
ninth_held_out.py and tenth_held_out.py, and only this set's own are defined here. Needs root (unshare, mount,
cgroups, iptables, chattr, scontrol), the Docker engine and the one-node Slurm of scripts/dev-services.sh, NeMo Gym
0.7.0, and PYTHONPATH set to this checkout. Run it from a foreground shell (SIGINT and SIGHUP at their defaults).
"""

from __future__ import annotations

import json
import os
import random
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
    copy_out_of_mount,
    failed,
    gym_profile,
    gym_setup,
    gym_start,
    gym_start_maybe,
    profile_sh,
    slurm,
    stage,
    stop_gym,
    task_checkpoints,
    user_taskset,
    wait_or_interrupt,
    write_sweep,
)
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
    materialize,
    profile_argv,
    rewrite_rows,
    rows_of,
    text_of,
    unique_keys,
    wait_for,
)
from tenth_held_out import gym_eval_bounded, gym_start_then_eval, in_log, taskset_env_sweep  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def session_pid(process: subprocess.Popen, needle: str) -> int:
    """The pid of the process of `process`'s session whose command line holds `needle` (e.g. serve-policy)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if os.getsid(int(entry.name)) != process.pid:
                continue
            argv = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, ProcessLookupError):
            continue
        if needle in argv and not argv.startswith("bash") and "tee" not in argv.split()[0]:
            return int(entry.name)
    raise RuntimeError(f"no {needle} process in session {process.pid}")


def rollouts_at_least(ctx: Ctx, count: int, path: Path | None = None):
    path = path or ctx.run / "rollouts.jsonl"
    return lambda: len(rows_of(path)) >= count


def ok(state: str) -> bool:
    return "exit code 0" in state


# =====================================================================================================
# the real NeMo Gym 0.7.0: healthy
# =====================================================================================================


@case(
    "healthy_gym_two_splits_one_env_start",
    "healthy",
    [],
    "nothing is wrong: the user evaluated two data splits (easy and hard) one after the other against the same "
    "`gym env start`, each into its own output folder, and profiled both; every rollout of both was collected",
    netns=True,
)
def healthy_gym_two_splits_one_env_start(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=2, folder=run, name="all.jsonl")
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
        out = run / "results" / split
        codes.append(
            gym_eval(
                ctx,
                overrides,
                agent_args(run / f"split_{split}.jsonl", out / "rollouts.jsonl", 3, 4),
                log=f"eval_run_{split}.log",
            )
        )
        codes.append(gym_profile(ctx, out, log=f"eval_profile_{split}.log"))
    stop_gym(ctx, env_start, policy)
    counts = [len(unique_keys(run / "results" / split / "rollouts.jsonl")) for split in ("easy", "hard")]
    if any(codes) or counts != [12, 12]:
        raise failed(ctx, f"exit {codes}, {counts}")
    return (
        "Real NeMo Gym 0.7.0 (loopback-only namespace): one `gym env start`; `gym eval run --no-serve` and `gym eval "
        f"profile` for RUN/split_easy.jsonl and RUN/split_hard.jsonl (4 tasks x 3 each) into RUN/results/easy and "
        f"RUN/results/hard: exit {codes}, rollouts {counts}."
    )


NOTES = [
    "annotator: previous grader crashed with Traceback on this one, re-checked by hand",
    "QA: label verified; old pipeline error 'KeyError: expected_answer' fixed in export v3",
    "flagged then unflagged: FAILED review #12 was a UI bug",
    "ok",
]


@case(
    "healthy_gym_rows_carry_review_notes",
    "healthy",
    [],
    "nothing is wrong: the dataset rows carry extra review fields from the annotation tool (review_notes mentioning "
    "old Tracebacks, errors and FAILED reviews, a reviewer id), which Gym passes through untouched; every rollout "
    "was collected and profiled",
    netns=True,
)
def healthy_gym_rows_carry_review_notes(ctx: Ctx) -> str:
    run = ctx.run

    def annotate(index, row):
        row["review_notes"] = NOTES[index % len(NOTES)]
        row["reviewer"] = f"ann-{17 + index}"
        return True

    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 14, "--latency-ms 30", edit=annotate)
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 3, 4))
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    if evaluated or profiled or len(unique_keys(run / "results" / "rollouts.jsonl")) != 18:
        raise failed(ctx, f"eval {evaluated}, profile {profiled}")
    return (
        "RUN/tasks.jsonl (6 rows with review_notes and reviewer fields); real NeMo Gym 0.7.0 (loopback-only "
        f"namespace) `gym eval run --no-serve` (x 3) exit {evaluated}, all 18 rollouts; `gym eval profile` exit "
        f"{profiled}."
    )


@case(
    "healthy_gym_concurrency_far_above_rollout_count",
    "healthy",
    [],
    "nothing is wrong: the user kept the cluster job's --concurrency 256 for a small local check of 5 tasks x 2 "
    "against a model server with an unbounded queue; the setting is far larger than needed but harmless, and every "
    "rollout was collected and profiled",
    netns=True,
)
def healthy_gym_concurrency_far_above_rollout_count(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "mcqa", 5, 30, "--latency-ms 200")
    env_start = gym_start(ctx, f"{gym_model_args(url, resources_server='mcqa')} {overrides}")
    evaluated = gym_eval(
        ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 256, "mcqa_simple_agent")
    )
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    if evaluated or profiled or len(unique_keys(run / "results" / "rollouts.jsonl")) != 10:
        raise failed(ctx, f"eval {evaluated}, profile {profiled}")
    return (
        "Real NeMo Gym 0.7.0 (loopback-only namespace) on mcqa: `gym eval run --no-serve --concurrency 256` (5 tasks "
        f"x 2, all 10) exit {evaluated}; `gym eval profile` exit {profiled}."
    )


# =====================================================================================================
# the real NeMo Gym 0.7.0: infra
# =====================================================================================================


@case(
    "infra_gym_firewall_rejects_model_server_port",
    "infra",
    ["firewall"],
    "the node's firewall (an iptables rule from the site's hardening script) rejects TCP connections to ports "
    "8000-8999, where the model server was started (port 8123), so Gym could not connect to the model server "
    "although it was up and healthy",
    netns=True,
)
def infra_gym_firewall_rejects_model_server_port(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 18, "--latency-ms 30 --port 8123")
    ctx.sh(f"( curl -s -m 5 {url}/models; echo )", "logs/model_check_before.log")
    rule = ctx.sh(
        "iptables -A INPUT -p tcp --dport 8000:8999 -j REJECT && iptables -S INPUT", "logs/site_firewall.log"
    )
    if rule:
        raise failed(ctx, "iptables refused")
    ready, evaluated = gym_start_then_eval(
        ctx, f"{gym_model_args(url)} {overrides}", overrides, agent_args(data, run / "rollouts.jsonl", 2, 4),
        eval_timeout_s=150,
    )
    stop_gym(ctx, policy)
    if (ready and evaluated == 0) or len(rows_of(run / "rollouts.jsonl")) == 8:
        raise failed(ctx, f"ready {ready}, eval {evaluated}")
    return (
        "The model server on 127.0.0.1:8123 answers /v1/models (RUN/logs/model_check_before.log); the site's firewall "
        "rule `iptables -A INPUT -p tcp --dport 8000:8999 -j REJECT`; real NeMo Gym 0.7.0 (loopback-only namespace) "
        f"`gym env start` ready: {ready}; `gym eval run --no-serve` exit {evaluated}."
    )


@case(
    "infra_gym_results_folder_immutable",
    "infra",
    ["chattr"],
    "the output folder RUN/results was last week's published results folder, which the data-retention job marks "
    "immutable (chattr +i), so even root could not create files in it and `gym eval run` could not write its "
    "materialized inputs or rollouts (Operation not permitted)",
    netns=True,
)
def infra_gym_results_folder_immutable(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 22, "--latency-ms 30")
    results = run / "results"
    results.mkdir()
    ctx.sh(f"mount -t tmpfs -o size=8m scratch {results}", "logs/mount.log")
    ctx.sh(f"chattr +i {results} && lsattr -d {results}", "logs/retention_job.log")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval(ctx, overrides, agent_args(data, results / "rollouts.jsonl", 2, 4))
    stop_gym(ctx, env_start, policy)
    ctx.sh(f"chattr -i {results}", None)
    copy_out_of_mount(ctx, results)
    if evaluated == 0 or rows_of(results / "rollouts.jsonl"):
        raise failed(ctx, f"eval {evaluated}")
    return (
        "RUN/results (a scratch mount) marked immutable (chattr +i, RUN/logs/retention_job.log); real NeMo Gym 0.7.0 "
        f"(loopback-only namespace) `gym env start`; `gym eval run --no-serve --output RUN/results/rollouts.jsonl` "
        f"exit {evaluated}."
    )


# =====================================================================================================
# the real NeMo Gym 0.7.0: model serving
# =====================================================================================================


@case(
    "model_serving_gym_model_url_full_chat_completions_path",
    "model_serving",
    ["model-url"],
    "`gym env start --model-url` was given the full chat-completions endpoint (http://127.0.0.1:PORT/v1/chat/"
    "completions, copied from a curl example) instead of the API's base URL ending in /v1, so Gym's model server "
    "called paths under it that do not exist (404) and no rollout got an answer",
    netns=True,
)
def model_serving_gym_model_url_full_chat_completions_path(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 34, "--latency-ms 30")
    wrong = f"{url}/chat/completions"
    ready, evaluated = gym_start_then_eval(
        ctx, f"{gym_model_args(wrong)} {overrides}", overrides, agent_args(data, run / "rollouts.jsonl", 2, 4),
        eval_timeout_s=150,
    )
    stop_gym(ctx, policy)
    if (ready and evaluated == 0 and len(rows_of(run / "rollouts.jsonl")) == 8) or not (ready or evaluated):
        raise failed(ctx, f"ready {ready}, eval {evaluated}")
    return (
        f"`gym env start --model-url http://127.0.0.1:PORT/v1/chat/completions`; real NeMo Gym 0.7.0 (loopback-only "
        f"namespace) ready: {ready}; `gym eval run --no-serve` exit {evaluated}, "
        f"{len(rows_of(run / 'rollouts.jsonl'))} of 8 rollouts."
    )


@case(
    "model_serving_gym_server_under_smoke_test_timeout_wrapper",
    "model_serving",
    ["timeout"],
    "the model server was started by the user's launch script, which still wraps it in `timeout 90` (left from a "
    "smoke test), so the server exited 90 s after it started, in the middle of the collection, and the remaining "
    "requests found no server",
    netns=True,
)
def model_serving_gym_server_under_smoke_test_timeout_wrapper(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 16, start=36, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    ready_file = ctx.work / "policy-ready"
    policy = ctx.bg(
        f"timeout 90 {GP} serve-policy --port 0 --ready-file {ready_file} --checkpoint {checkpoint} --latency-ms 1500; "
        'echo "serve-policy exited with status $?"',
        "policy_server.log",
    )
    began = time.monotonic()
    wait_for(lambda: ready_file.exists() and ready_file.read_text().strip() != "", 30, "the simulated policy")
    url = ready_file.read_text().strip()
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    if time.monotonic() - began > 80:
        raise failed(ctx, "gym env start took too long")
    eval_run = gym_eval(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 4, 1), background=True)
    wait_or_interrupt(ctx, eval_run, 300, "`gym eval run`")
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if got >= 64 or "status 124" not in text_of(run / "policy_server.log"):
        raise failed(ctx, f"{got} rollouts")
    return (
        "The model server started as `timeout 90 gym-pipeline serve-policy ... --latency-ms 1500`; real NeMo Gym 0.7.0 "
        "(loopback-only namespace) `gym env start`; `gym eval run --no-serve` (16 tasks x 4, concurrency 1) exit "
        f"{eval_run.returncode}, {got} of 64 rollouts; the server exited with status 124."
    )


# =====================================================================================================
# the real NeMo Gym 0.7.0: config
# =====================================================================================================


@case(
    "config_gym_head_port_override_from_unset_variable",
    "config",
    ["head_server.port"],
    "the job script passes ++head_server.port=$HEAD_PORT, but HEAD_PORT is not set in this shell, so Gym got an "
    "empty head server port (++head_server.port=) and could not start its servers",
    netns=True,
)
def config_gym_head_port_override_from_unset_variable(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 40, "--latency-ms 30")
    broken = " ".join(
        "++head_server.port=$HEAD_PORT" if part.startswith("++head_server.port=") else part for part in overrides.split()
    )
    ctx.note("(HEAD_PORT is not set in this shell)")
    env_start, ready = gym_start_maybe(ctx, f"{gym_model_args(url)} {broken}", 90)
    evaluated = None
    if ready:
        evaluated = gym_eval_bounded(ctx, broken, agent_args(data, run / "rollouts.jsonl", 2, 4), 120)
    stop_gym(ctx, env_start, policy)
    if ready and evaluated == 0:
        raise failed(ctx, "gym worked")
    return (
        "Real NeMo Gym 0.7.0 (loopback-only namespace): `gym env start ... ++head_server.port=$HEAD_PORT` with "
        f"HEAD_PORT unset: ready {ready}, exit {env_start.returncode}; eval {evaluated}."
    )


@case(
    "config_gym_agent_flag_names_resources_server",
    "config",
    ["string_match_simple_agent"],
    "`gym eval run --agent string_match` names the resources server instead of the agent that runs it "
    "(string_match_simple_agent), so Gym found no such agent to send the rows to and collected nothing",
    netns=True,
)
def config_gym_agent_flag_names_resources_server(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 42, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval_bounded(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 2, 4, "string_match"), 120)
    stop_gym(ctx, env_start, policy)
    if evaluated == 0 and len(rows_of(run / "rollouts.jsonl")) == 8:
        raise failed(ctx, "gym worked")
    return (
        "Real NeMo Gym 0.7.0 (loopback-only namespace): `gym env start --resources-server string_match`; `gym eval "
        f"run --no-serve --agent string_match` exit {evaluated}, {len(rows_of(run / 'rollouts.jsonl'))} of 8."
    )


# =====================================================================================================
# the real NeMo Gym 0.7.0: data and schema
# =====================================================================================================


@case(
    "data_schema_gym_responses_create_params_double_encoded",
    "data_schema",
    ["responses_create_params"],
    "the dataset was exported from a dataframe whose responses_create_params column held JSON text, so every row "
    "carries responses_create_params as a JSON-encoded string instead of an object, which Gym cannot use as a "
    "request",
    netns=True,
)
def data_schema_gym_responses_create_params_double_encoded(ctx: Ctx) -> str:
    run = ctx.run

    def encode(index, row):
        row["responses_create_params"] = json.dumps(row["responses_create_params"])
        return True

    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 44, "--latency-ms 30", edit=encode)
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval_bounded(ctx, overrides, agent_args(data, run / "rollouts.jsonl", 2, 4), 120)
    stop_gym(ctx, env_start, policy)
    got = len(rows_of(run / "rollouts.jsonl"))
    if evaluated == 0 and got == 10:
        raise failed(ctx, "gym worked")
    return (
        "RUN/tasks.jsonl (5 rows, responses_create_params a JSON string); real NeMo Gym 0.7.0 (loopback-only "
        f"namespace) `gym eval run --no-serve` (x 2) exit {evaluated}, {got} of 10 rollouts."
    )


@case(
    "data_schema_gym_zero_width_spaces_in_labels",
    "data_schema",
    ["expected_answer"],
    "the labels of three rows were pasted from a web page and end with an invisible zero-width space (U+200B), so "
    "the model's correct answers never equal expected_answer and those rows scored 0 in a run that otherwise "
    "completed",
    netns=True,
)
def data_schema_gym_zero_width_spaces_in_labels(ctx: Ctx) -> str:
    run = ctx.run

    def paste(index, row):
        if index in (1, 3, 4):
            row["expected_answer"] += "\u200b"
            return True
        return False

    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 48, "--latency-ms 30", edit=paste)
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 3, 4))
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    pasted = [row for row in rows if "\u200b" in json.dumps(row, ensure_ascii=False)]
    if not pasted or any(row.get("reward") for row in pasted):
        raise failed(ctx, f"eval {evaluated}, {len(pasted)} pasted rows, rewards {[r.get('reward') for r in pasted]}")
    mean = sum(row.get("reward") or 0 for row in rows) / max(len(rows), 1)
    return (
        "RUN/tasks.jsonl (6 rows, 3 labels ending in U+200B); real NeMo Gym 0.7.0 (loopback-only namespace) `gym "
        f"eval run --no-serve` (x 3) exit {evaluated}, {len(rows)} rollouts, mean reward {mean:.2f}; `gym eval "
        f"profile` exit {profiled}."
    )


# =====================================================================================================
# the real NeMo Gym 0.7.0: verifier runtime
# =====================================================================================================

NORMALIZE_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        reward = 0.0
        if extracted is not None and body.expected_answer:
            # fold full-width digits and ligatures before comparing
            extracted = unicodedata.normalize("NKFC", extracted)
            reward = _answers_match(extracted, unicodedata.normalize("NKFC", body.expected_answer),
                                    body.case_sensitive)
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""


@case(
    "verifier_runtime_gym_unicode_normalization_form_typo",
    "verifier_runtime",
    ["NFKC"],
    "the user's folded_match resources server normalises answers with unicodedata.normalize(\"NKFC\", ...), a "
    "misspelling of the form NFKC, so every verify with an extracted answer raised ValueError (invalid normalization "
    "form) instead of returning a reward",
    netns=True,
)
def verifier_runtime_gym_unicode_normalization_form_typo(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 52, "--latency-ms 30")
    search = own_gym_server(ctx, "folded_match", NORMALIZE_VERIFY, imports="import unicodedata\n")
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='folded_match')} {overrides}")
    evaluated = gym_eval_bounded(
        ctx, overrides, agent_args(data, run / "rollouts.jsonl", 2, 4, "folded_match_simple_agent")
    )
    stop_gym(ctx, env_start, policy)
    got = len(rows_of(run / "rollouts.jsonl"))
    if (evaluated == 0 and got == 10) or not in_log(ctx, "normalization form"):
        raise failed(ctx, f"eval {evaluated}, {got}")
    return (
        "A user's resources server folded_match (unicodedata.normalize('NKFC', ...)); real NeMo Gym 0.7.0 "
        f"(loopback-only namespace) `gym eval run --no-serve` (5 tasks x 2) exit {evaluated}, {got} of 10 rollouts."
    )


AUDIT_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        # audit trail for the grading dashboard
        print("verify request: " + json.dumps(body), flush=True)
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
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
    "verifier_runtime_gym_verify_logs_request_with_json_dumps",
    "verifier_runtime",
    ["model_dump"],
    "the user's audited_log_match resources server logs every verify request with json.dumps(body), but body is a "
    "pydantic model, which json.dumps cannot serialise, so every verify raised TypeError (Object of type "
    "StringMatchVerifyRequest is not JSON serializable) before grading",
    netns=True,
)
def verifier_runtime_gym_verify_logs_request_with_json_dumps(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 56, "--latency-ms 30")
    search = own_gym_server(ctx, "audited_log_match", AUDIT_VERIFY, imports="import json\n")
    env_start = gym_start(
        ctx, f"--search-dir {search} {gym_model_args(url, resources_server='audited_log_match')} {overrides}"
    )
    evaluated = gym_eval_bounded(
        ctx, overrides, agent_args(data, run / "rollouts.jsonl", 2, 4, "audited_log_match_simple_agent")
    )
    stop_gym(ctx, env_start, policy)
    got = len(rows_of(run / "rollouts.jsonl"))
    if (evaluated == 0 and got == 10) or not in_log(ctx, "not JSON serializable"):
        raise failed(ctx, f"eval {evaluated}, {got}")
    return (
        "A user's resources server audited_log_match (json.dumps of the request model); real NeMo Gym 0.7.0 "
        f"(loopback-only namespace) `gym eval run --no-serve` (5 tasks x 2) exit {evaluated}, {got} of 10 rollouts."
    )


# =====================================================================================================
# the real NeMo Gym 0.7.0: cache and resume, throughput
# =====================================================================================================


@case(
    "cache_resume_gym_rollouts_emptied_by_in_place_filter",
    "cache_resume",
    ["rollouts.jsonl"],
    "after the collection completed, the user filtered the rollouts in place (grep ... rollouts.jsonl > "
    "rollouts.jsonl), and the shell emptied the file before grep read it, so rollouts.jsonl is empty and the strict "
    "profile found every rollout missing",
    netns=True,
)
def cache_resume_gym_rollouts_emptied_by_in_place_filter(ctx: Ctx) -> str:
    run = ctx.run
    out = run / "results"
    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 58, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    evaluated = gym_eval(ctx, overrides, agent_args(data, out / "rollouts.jsonl", 3, 4))
    stop_gym(ctx, env_start, policy)
    before = len(rows_of(out / "rollouts.jsonl"))
    ctx.note("(the user keeps only the rollouts that have a reward field)")
    filtered = ctx.sh(f"( grep '\"reward\"' {out}/rollouts.jsonl > {out}/rollouts.jsonl )", "logs/filter.log")
    profiled = gym_profile(ctx, out)
    if evaluated or before != 15 or rows_of(out / "rollouts.jsonl") or profiled == 0:
        raise failed(ctx, f"eval {evaluated}, before {before}, filter {filtered}, profile {profiled}")
    return (
        f"Real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (5 tasks x 3) exit {evaluated}, "
        f"{before} rollouts; `grep ... RUN/results/rollouts.jsonl > RUN/results/rollouts.jsonl` exit {filtered}; "
        f"`gym eval profile` exit {profiled}."
    )


@case(
    "cache_resume_gym_smoke_test_overwrote_full_run",
    "cache_resume",
    ["--output"],
    "after the full evaluation (8 tasks x 3) had completed, the user ran a quick smoke test (--limit 2 --num-repeats "
    "1) with the same --output, which replaced the full run's materialized inputs and rollouts; the profile made "
    "afterwards covers only the smoke test's 2 rollouts",
    netns=True,
)
def cache_resume_gym_smoke_test_overwrote_full_run(ctx: Ctx) -> str:
    run = ctx.run
    out = run / "results"
    data, url, policy, overrides = gym_setup(ctx, "string_match", 8, 60, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    full = gym_eval(ctx, overrides, agent_args(data, out / "rollouts.jsonl", 3, 4), log="eval_run_full.log")
    complete = len(unique_keys(out / "rollouts.jsonl"))
    ctx.note("(a day later, checking a new model server setting)")
    smoke = gym_eval(
        ctx, overrides, agent_args(data, out / "rollouts.jsonl", 1, 2, extra="--limit 2"), log="eval_run_smoke.log"
    )
    stop_gym(ctx, env_start, policy)
    profiled = gym_profile(ctx, out)
    now = len(unique_keys(out / "rollouts.jsonl"))
    if full or smoke or complete != 24 or now >= 24:
        raise failed(ctx, f"full {full} ({complete}), smoke {smoke}, now {now}")
    return (
        f"Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve` (8 tasks x 3) exit {full}, "
        f"{complete} rollouts; then `--limit 2 --num-repeats 1` into the same --output: exit {smoke}; now {now} "
        f"rollouts; `gym eval profile` exit {profiled}."
    )


@case(
    "throughput_gym_eval_run_cgroup_memory_limit",
    "throughput_resources",
    ["memory"],
    "`gym eval run` was started inside the interactive session's cgroup, limited to 90 MB of memory (memory."
    "limit_in_bytes, no swap), less than its Python and Ray client need, so the kernel's OOM killer ended it and no "
    "rollout was collected although Gym's servers were up",
    netns=True,
)
def throughput_gym_eval_run_cgroup_memory_limit(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 64, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    group = cgroup(
        "memory",
        f"gp-sess-{ctx.run.parent.name[-20:]}",
        memory__limit_in_bytes=90 * 2**20,
        memory__memsw__limit_in_bytes=90 * 2**20,
    )
    ctx.note(f"(the interactive session runs in cgroup {group} with memory.limit_in_bytes 90 MB, no swap)")
    try:
        command = (
            f"echo $BASHPID > {group}/cgroup.procs; echo \"memory.limit_in_bytes: $(cat {group}/memory.limit_in_bytes)\"; "
            f"{GYM} eval run --no-serve {agent_args(data, run / 'rollouts.jsonl', 2, 4)} "
            f"++route_failures_to_sidecar=true {overrides}"
        )
        evaluated = ctx.sh(f"( {command} )", "eval_run.log", timeout=300)
        oom = (group / "memory.oom_control").read_text().split()
        kills = oom[oom.index("oom_kill") + 1] if "oom_kill" in oom else "?"
        failcnt = (group / "memory.failcnt").read_text().strip()
    finally:
        drop_cgroup(group)
    stop_gym(ctx, env_start, policy)
    got = len(rows_of(run / "rollouts.jsonl"))
    if (evaluated == 0 and got == 10) or kills in ("0", "?"):
        raise failed(ctx, f"eval {evaluated}, {got}, oom_kill {kills}, failcnt {failcnt}")
    return (
        "Real NeMo Gym 0.7.0 (loopback-only namespace): `gym env start` outside; `gym eval run --no-serve` (5 tasks "
        f"x 2) in a cgroup with a 90 MB memory limit: exit {evaluated}, {got} of 10 rollouts (oom_kill {kills}, "
        f"failcnt {failcnt})."
    )


# =====================================================================================================
# the built-in engine, stages, task folders, launchers: healthy
# =====================================================================================================


@case(
    "healthy_builtin_collect_at_lowest_priority",
    "healthy",
    [],
    "nothing is wrong: the user ran the collection and the profile at the lowest CPU and I/O priority (nice -n 19 "
    "ionice -c 3) so as not to disturb a training job on the same node; every rollout was collected and profiled",
)
def healthy_builtin_collect_at_lowest_priority(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 6, 66, 3, "--latency-ms 30", in_run=True)
    wrap = "renice -n 19 -p $BASHPID >/dev/null; ionice -c 3 -p $BASHPID; echo \"nice: $(nice)\""
    collected = collect_sh(ctx, url, "string_match", 4, wrap=wrap)
    profiled = profile_sh(ctx, wrap=wrap)
    if collected or profiled or len(unique_keys(run / "rollouts.jsonl")) != 18:
        raise failed(ctx, f"collect {collected}, profile {profiled}")
    return (
        "`gym-pipeline materialize` (6 tasks x 3); `collect` and `profile` at nice 19, ionice idle class: exit "
        f"{collected} and {profiled}, all 18 rollouts."
    )


@case(
    "healthy_taskfolder_one_sandbox_at_a_time",
    "healthy",
    [],
    "nothing is wrong: the user ran their taskset with sandbox_concurrency 1 (one Docker sandbox at a time, on a "
    "laptop); the episodes ran one after another, slower than they could, but every episode finished, was verified "
    "and profiled",
)
def healthy_taskfolder_one_sandbox_at_a_time(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["create-greeting", "sort-unique-words"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_env_sweep(ctx, tasks, checkpoint, {"sandbox_concurrency": 1}, num_repeats=2, concurrency=4)
    codes = taskset_stages(ctx, sweep, checkpoint, url, "materialize", "collect", "profile")
    rows = rows_of(run / "rollouts.jsonl")
    if any(codes) or len(rows) != 4:
        raise failed(ctx, f"exit {codes}, {len(rows)} rows")
    return (
        f"A sweep with the taskset RUN/tasks (2 tasks x 2, sandbox_concurrency 1); stages exit {codes}; rewards "
        f"{[row.get('reward') for row in rows]}."
    )


@case(
    "healthy_stage_collect_run_again_on_complete_run",
    "healthy",
    [],
    "nothing is wrong: the sweep step's collect stage was launched a second time on a partition whose collection "
    "had already completed (the user clicked 'Re-execute' in the UI); it found nothing left to do, and the profile "
    "stage then profiled the complete run",
)
def healthy_stage_collect_run_again_on_complete_run(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=70, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=3, concurrency=4)
    served = ("--model-url", url, "--model-name", "sim-policy")
    codes = [stage(ctx, sweep, "materialize", checkpoint, "string_match")]
    codes.append(stage(ctx, sweep, "collect", checkpoint, "string_match", *served))
    ctx.note("(the collect step is re-executed from the UI)")
    codes.append(stage(ctx, sweep, "collect", checkpoint, "string_match", *served))
    codes.append(stage(ctx, sweep, "profile", checkpoint, "string_match"))
    if any(codes) or len(unique_keys(run / "rollouts.jsonl")) != 18 or len(rows_of(run / "rollouts.jsonl")) != 18:
        raise failed(ctx, f"exit {codes}")
    return f"A sweep partition (6 tasks x 3): stages materialize, collect, collect again, profile: exit {codes}."


@case(
    "healthy_builtin_prompts_in_many_scripts",
    "healthy",
    [],
    "nothing is wrong: the dataset's prompts carry text in several scripts (accents, Greek, CJK, an emoji) from a "
    "multilingual source; they are valid UTF-8 JSON Lines, and every rollout was collected and profiled",
)
def healthy_builtin_prompts_in_many_scripts(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=74, folder=run, name="string_match.jsonl")
    prefixes = ["Réponds en anglais: ", "Ερώτηση: ", "问题: ", "質問: ", "Вопрос: ", "🧪 Quiz: "]

    def localise(index, row):
        content = row["responses_create_params"]["input"][0]["content"]
        content[0]["text"] = prefixes[index] + content[0]["text"]
        return True

    rewrite_rows(data, localise)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    materialize(ctx, data, 3, "string_match")
    collected, profiled = collect_sh(ctx, url, "string_match", 4), profile_sh(ctx)
    rows = rows_of(run / "rollouts.jsonl")
    if collected or profiled or len(unique_keys(run / "rollouts.jsonl")) != 18:
        raise failed(ctx, f"collect {collected}, profile {profiled}")
    mean = sum(row.get("reward") or 0 for row in rows) / len(rows)
    return (
        f"RUN/string_match.jsonl (6 prompts with text in several scripts); materialize (x 3); collect exit "
        f"{collected}; profile exit {profiled}; mean reward {mean:.2f}."
    )


# =====================================================================================================
# infra
# =====================================================================================================


@case(
    "infra_slurm_node_set_down_mid_job",
    "infra",
    [],
    "the cluster's node was set DOWN by its administrator (scontrol update state=down, a failed GPU health check) "
    "while the collection ran there as a Slurm job submitted with --no-requeue, so Slurm killed the job (NODE_FAIL) "
    "half way and its rollouts stop part way",
)
def infra_slurm_node_set_down_mid_job(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 10, 0, 3, "--latency-ms 700", in_run=True)
    node = subprocess.run(["sinfo", "-h", "-N", "-o", "%N"], capture_output=True, text=True, env=ctx.env).stdout.split()[0]
    launcher, label = slurm(extra_options=["--no-requeue"])
    import threading

    outcome: dict[str, str] = {}
    thread = threading.Thread(
        target=lambda: outcome.setdefault(
            "collect", launched(ctx, launcher, label, "collect", collect_argv(run, url, "string_match", 2))
        )
    )
    thread.start()
    try:
        wait_for(rollouts_at_least(ctx, 6), 120, "6 rollouts")
        ctx.sh(
            f"scontrol update nodename={node} state=down reason='GPU health check failed' && "
            f"sinfo -N -o '%N %T %E'",
            "logs/admin_node_down.log",
        )
        thread.join(timeout=180)
    finally:
        ctx.sh(f"( scontrol update nodename={node} state=resume; sinfo -N -o '%N %T' )", "logs/admin_node_resume.log")
    thread.join(timeout=60)
    collected = outcome.get("collect", "still running")
    profiled = launched(ctx, launcher, label, "profile", profile_argv(run))
    got = len(unique_keys(run / "rollouts.jsonl"))
    if ok(collected) or got >= 30:
        raise failed(ctx, f"{collected}, {got}")
    return (
        f"`gym-pipeline materialize` (10 tasks x 3); collect as a Slurm job (--no-requeue): {collected}; the node set "
        f"DOWN by `scontrol update` after 6 rollouts (then resumed); {got} of 30 rollouts; profile as a Slurm job: "
        f"{profiled}."
    )


@case(
    "infra_builtin_scratch_mount_expired_mid_run",
    "infra",
    ["mount"],
    "RUN/scratch, where the collection wrote its inputs and rollouts, is an automounted scratch file system that "
    "the automounter expired (a lazy unmount) while the collection ran: the collection kept writing into the "
    "detached file system and finished, but its files vanished from RUN/scratch, so the profile found nothing",
)
def infra_builtin_scratch_mount_expired_mid_run(ctx: Ctx) -> str:
    run = ctx.run
    scratch = run / "scratch"
    scratch.mkdir()
    ctx.sh(f"mount -t tmpfs -o size=16m scratch {scratch} && findmnt {scratch}", "logs/mount.log")
    data = ctx.dataset("string_match", 8, start=50, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 300")
    materialize(ctx, data, 3, "string_match", folder=scratch)
    argv = [str(GP), "collect", "--inputs", f"{scratch}/rollouts_materialized_inputs.jsonl", "--output",
            f"{scratch}/rollouts.jsonl", "--model-url", url, "--env", "string_match", "--concurrency", "2"]
    collect = ctx.bg(shlex.join(argv), "logs/collect.log")
    wait_for(rollouts_at_least(ctx, 6, scratch / "rollouts.jsonl"), 120, "6 rollouts")
    ctx.note("(the automounter expires the idle-looking scratch mount: umount -l)")
    ctx.sh(f"umount -l {scratch}; findmnt {scratch} || echo '{scratch}: not mounted'", "logs/automount.log")
    wait_or_interrupt(ctx, collect, 240, "the collection")
    profiled = ctx.sh(
        f"ls -la {scratch}; {GP} profile --inputs {scratch}/rollouts_materialized_inputs.jsonl --rollouts "
        f"{scratch}/rollouts.jsonl",
        "logs/profile.log",
    )
    if profiled == 0 or (scratch / "rollouts.jsonl").exists():
        raise failed(ctx, f"collect {collect.returncode}, profile {profiled}")
    return (
        f"RUN/scratch a tmpfs; materialize (8 tasks x 3) and `collect` into it; lazily unmounted after 6 rollouts; "
        f"collect exit {collect.returncode}; `profile` of RUN/scratch exit {profiled}."
    )


# =====================================================================================================
# model serving
# =====================================================================================================


@case(
    "model_serving_builtin_old_server_still_holds_port",
    "model_serving",
    [],
    "yesterday's model server (checkpoint step_0100) was still running on port 8230, so the new server for step_0200 "
    "could not bind that port (address already in use) and exited; the collection, pointed at port 8230, was "
    "answered by the old checkpoint",
)
def model_serving_builtin_old_server_still_holds_port(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=16, folder=run, name="string_match.jsonl")
    old, new = checkpoints(ctx, "string_match", data)
    ctx.note("(yesterday's model server, still running)")
    url, yesterday = ctx.policy(old, "--latency-ms 30 --port 8230", log="logs/model_server_yesterday.log")
    ready = ctx.work / "new-ready"
    code = ctx.sh(
        f"{GP} serve-policy --port 8230 --ready-file {ready} --checkpoint {new} --latency-ms 30",
        "logs/model_server.log",
        timeout=60,
    )
    materialize(ctx, data, 3, "string_match")
    collected = collect_sh(ctx, url, "string_match", 4)
    profiled = profile_sh(ctx)
    rows = rows_of(run / "rollouts.jsonl")
    mean = sum(row.get("reward") or 0 for row in rows) / max(len(rows), 1)
    if code == 0 or ready.exists() and ready.read_text().strip():
        raise failed(ctx, f"the new server started ({code})")
    return (
        f"Model server for step_0100 on port 8230 left running; `serve-policy --port 8230 --checkpoint step_0200` exit "
        f"{code}; materialize (8 tasks x 3); collect against port 8230 exit {collected}; profile exit {profiled}; mean "
        f"reward {mean:.2f}."
    )


@case(
    "model_serving_builtin_server_ended_by_log_rotation_hangup",
    "model_serving",
    [],
    "the node's nightly log rotation sends SIGHUP to the processes writing the rotated logs (a postrotate `kill "
    "-HUP`), and the model server, which does not handle SIGHUP, exited in the middle of the collection, so the "
    "remaining requests found no server",
)
def model_serving_builtin_server_ended_by_log_rotation_hangup(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 10, 24, 3, "--latency-ms 400", in_run=True)
    collect = ctx.bg(shlex.join(collect_argv(run, url, "string_match", 2)), "logs/collect.log")
    wait_for(rollouts_at_least(ctx, 8), 120, "8 rollouts")
    pid = session_pid(policy, "serve-policy")
    ctx.sh(
        f"mv {run}/logs/model_server.log {run}/logs/model_server.log.1 && touch {run}/logs/model_server.log && "
        f"echo 'postrotate: kill -HUP {pid}' && kill -HUP {pid}",
        "logs/logrotate.log",
    )
    wait_or_interrupt(ctx, collect, 240, "the collection")
    profiled = profile_sh(ctx)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if policy.poll() is None or got >= 30:
        raise failed(ctx, f"server alive {policy.poll()}, {got}")
    return (
        f"`gym-pipeline materialize` (10 tasks x 3); `collect` (concurrency 2); after 8 rollouts the log rotation "
        f"sent SIGHUP to the model server: collect exit {collect.returncode}, {got} of 30 rollouts; profile exit "
        f"{profiled}."
    )


# =====================================================================================================
# config
# =====================================================================================================


PROMPT_YAML = """# the team's math prompt template
system: You are a careful assistant. Think step by step.
user: |
  {problem}

  Put your final answer in \\\\boxed{{}}.
"""


@case(
    "config_sweep_prompt_template_field_not_in_rows",
    "config",
    ["prompt_config"],
    "the sweep's prompt_config points at the team's math template, which fills {problem}, while the user's rows "
    "name their question field `question`, so the materialize stage could not fill the template and nothing ran",
)
def config_sweep_prompt_template_field_not_in_rows(ctx: Ctx) -> str:
    run = ctx.run
    source = ctx.dataset("string_match", 6, start=80, name="source.jsonl")
    rows = rows_of(source)
    plain = []
    for row in rows:
        text = row["responses_create_params"]["input"][0]["content"][0]["text"]
        plain.append({"question": text, "expected_answer": row["expected_answer"],
                      "extraction_mode": row["extraction_mode"], "case_sensitive": row["case_sensitive"]})
    data = run / "string_match.jsonl"
    data.write_text("".join(json.dumps(row) + "\n" for row in plain))
    checkpoint = checkpoints(ctx, "string_match", source)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    (run / "prompts").mkdir()
    (run / "prompts" / "math_boxed.yaml").write_text(PROMPT_YAML)
    sweep = write_sweep(
        ctx, "string_match", data, checkpoint, num_repeats=2, concurrency=4,
        raw={"environments": [{"name": "string_match", "dataset": str(data),
                               "prompt_config": str(run / "prompts" / "math_boxed.yaml")}]},
    )
    served = ("--model-url", url, "--model-name", "sim-policy")
    codes = [
        stage(ctx, sweep, key, checkpoint, "string_match", *(served if key == "collect" else ()))
        for key in ("materialize", "collect", "profile")
    ]
    if codes[0] == 0:
        raise failed(ctx, f"exit {codes}")
    return (
        "RUN/string_match.jsonl (rows with a `question` field); the sweep's prompt_config RUN/prompts/math_boxed.yaml "
        f"fills {{problem}}: stages materialize, collect, profile exit {codes}."
    )


@case(
    "config_sweep_num_repeats_keyed_by_old_agent_name",
    "config",
    ["num_repeats"],
    "the sweep's environment sets num_repeats per agent as {\"string_match_agent\": 4}, the agent's name in the "
    "team's old config, while its rows run on string_match_simple_agent and the mapping has no _default entry, so "
    "the materialize stage found no repeat count for them and nothing ran",
)
def config_sweep_num_repeats_keyed_by_old_agent_name(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=78, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = write_sweep(
        ctx, "string_match", data, checkpoint, concurrency=4,
        raw={"environments": [{"name": "string_match", "dataset": str(data), "agent": "string_match_simple_agent",
                               "num_repeats": {"string_match_agent": 4}}]},
    )
    served = ("--model-url", url, "--model-name", "sim-policy")
    codes = [
        stage(ctx, sweep, key, checkpoint, "string_match", *(served if key == "collect" else ()))
        for key in ("materialize", "collect", "profile")
    ]
    if codes[0] == 0:
        raise failed(ctx, f"exit {codes}")
    return (
        "A sweep whose environment sets num_repeats {\"string_match_agent\": 4} and agent string_match_simple_agent: "
        f"stages materialize, collect, profile exit {codes}."
    )


@case(
    "config_slurm_nodes_beyond_cluster",
    "config",
    ["nodes"],
    "the collect stage's Slurm settings pass --nodes=4 (copied from the multi-node training job's template) on a "
    "cluster whose partition has one node, so the job stayed PENDING (PartitionConfig) and nothing was collected "
    "until the user cancelled it",
)
def config_slurm_nodes_beyond_cluster(ctx: Ctx) -> str:
    import threading

    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 6, 2, 2, "--latency-ms 30", in_run=True)
    launcher, label = slurm(extra_options=["--nodes=4"])
    outcome: dict[str, str] = {}
    thread = threading.Thread(
        target=lambda: outcome.setdefault(
            "collect", launched(ctx, launcher, label, "collect", collect_argv(run, url, "string_match", 4))
        )
    )
    thread.start()
    thread.join(timeout=45)
    ctx.sh("( squeue -o '%i %j %T %R'; sinfo -N -o '%N %T %c %m' )", "logs/squeue.log")
    if thread.is_alive():
        ctx.note("(45 s PENDING: the user gives up and cancels the job)")
        ctx.sh(
            f"for j in $(squeue -h -o %i); do scontrol show job $j | grep -q 'StdOut={run}/' && scancel $j && "
            "echo cancelled job $j; done",
            "logs/scancel.log",
        )
        thread.join(timeout=120)
    collected = outcome.get("collect", "still running")
    if ok(collected) or rows_of(run / "rollouts.jsonl") or "PartitionConfig" not in text_of(run / "logs/squeue.log"):
        raise failed(ctx, collected)
    return (
        f"`gym-pipeline materialize` (6 tasks x 2); collect as a Slurm job with --nodes=4: PENDING (PartitionConfig) "
        f"for 45 s, then cancelled: {collected}."
    )


@case(
    "config_builtin_profile_given_failures_sidecar",
    "config",
    ["--rollouts"],
    "the user profiled with `--rollouts RUN/rollouts_failures.jsonl` (the shell completed the failures sidecar "
    "instead of rollouts.jsonl), so the profile read the few failed attempts instead of the collected rollouts",
)
def config_builtin_profile_given_failures_sidecar(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(
        ctx, "string_match", 8, 8, 3, "--latency-ms 20 --fault-rate 0.5 --fault-kinds drop --fault-seed 11",
        in_run=True,
    )
    collected = collect_sh(ctx, url, "string_match", 4)
    sidecar = run / "rollouts_failures.jsonl"
    if not sidecar.exists():
        raise failed(ctx, "no failures sidecar")
    argv = profile_argv(run)
    argv[argv.index("--rollouts") + 1] = str(sidecar)
    profiled = ctx.sh(shlex.join(argv), "logs/profile.log", timeout=300)
    return (
        f"`gym-pipeline materialize` (8 tasks x 3); `collect` against a server dropping half the connections: exit "
        f"{collected}, {len(rows_of(run / 'rollouts.jsonl'))} rollouts, {len(rows_of(sidecar))} in the failures "
        f"sidecar; `profile --rollouts RUN/rollouts_failures.jsonl` exit {profiled}."
    )


# =====================================================================================================
# data and schema
# =====================================================================================================


@case(
    "data_schema_builtin_dataset_tail_zeroed_by_nfs",
    "data_schema",
    [],
    "the dataset file's last rows are NUL bytes: the NFS client of the node that wrote it crashed before flushing, "
    "leaving the file at its full size with its tail zeroed, so materialization could not read its last line as "
    "JSON",
)
def data_schema_builtin_dataset_tail_zeroed_by_nfs(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=10, folder=run, name="string_match.jsonl")
    raw = data.read_bytes()
    cut = raw.rstrip(b"\n").rfind(b"\n", 0, len(raw) - 300)
    data.write_bytes(raw[: cut + 1] + b"\0" * (len(raw) - cut - 1))
    ctx.note(f"(RUN/string_match.jsonl: its last {len(raw) - cut - 1} bytes are NUL, the file keeps its size)")
    checkpoint = checkpoints(ctx, "string_match", ctx.dataset("string_match", 8, start=10, name="orig.jsonl"))[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    code = ctx.sh(
        f"ls -l {data}; {GP} materialize --input {data} --num-repeats 2 --agent string_match_simple_agent --output "
        f"{run}/rollouts_materialized_inputs.jsonl",
        "logs/materialize.log",
    )
    collected = collect_sh(ctx, url, "string_match", 4) if code == 0 else None
    if code == 0:
        raise failed(ctx, "materialize read it")
    return (
        f"RUN/string_match.jsonl (8 rows, the tail zeroed); `gym-pipeline materialize` exit {code}; collect "
        f"{collected}."
    )


@case(
    "data_schema_taskfolder_containerfile_instead_of_dockerfile",
    "data_schema",
    ["Dockerfile"],
    "the user's task folder word-count keeps its image recipe in environment/Containerfile (podman's name, from "
    "their workstation) instead of environment/Dockerfile, so that task could not load and the taskset was refused",
)
def data_schema_taskfolder_containerfile_instead_of_dockerfile(ctx: Ctx) -> str:
    run = ctx.run

    def podman(tasks: Path) -> None:
        (tasks / "sort-unique-words").rename(tasks / "word-count")
        env = tasks / "word-count" / "environment"
        (env / "Dockerfile").rename(env / "Containerfile")

    tasks = user_taskset(ctx, ["create-greeting", "sort-unique-words"], podman)
    ctx.note("(RUN/tasks/word-count/environment/Containerfile, no Dockerfile)")
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    codes = taskset_stages(ctx, sweep, checkpoint, url, "materialize", "collect", "profile")
    if not any(codes) and len(rows_of(run / "rollouts.jsonl")) == 4:
        raise failed(ctx, f"exit {codes}")
    return f"A sweep with the taskset RUN/tasks (create-greeting, word-count with a Containerfile); stages exit {codes}."


@case(
    "data_schema_stage_agent_ref_as_plain_string",
    "data_schema",
    ["agent_ref"],
    "the dataset's rows carry agent_ref as a plain string (\"agent_ref\": \"string_match_simple_agent\", from an old "
    "export) instead of an object with a name, so the materialize stage refused the rows and nothing ran",
)
def data_schema_stage_agent_ref_as_plain_string(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=84, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    rewrite_rows(data, lambda index, row: row.__setitem__("agent_ref", "string_match_simple_agent") or True)
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=2, concurrency=4)
    served = ("--model-url", url, "--model-name", "sim-policy")
    codes = [
        stage(ctx, sweep, key, checkpoint, "string_match", *(served if key == "collect" else ()))
        for key in ("materialize", "collect", "profile")
    ]
    if codes[0] == 0:
        raise failed(ctx, f"exit {codes}")
    return f"RUN/string_match.jsonl (6 rows, agent_ref a string); stages materialize, collect, profile exit {codes}."


@case(
    "data_schema_builtin_labels_keep_boxed_markup",
    "data_schema",
    ["expected_answer"],
    "the labels were taken from the reference solutions with their LaTeX markup, so the boxed rows' expected_answer "
    "reads \\boxed{36} instead of 36; the verifier compares the extracted answer with the whole markup, and those "
    "rows scored 0 in a run that otherwise completed",
)
def data_schema_builtin_labels_keep_boxed_markup(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=0, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]

    def markup(index, row):
        if row["extraction_mode"] == "boxed":
            row["expected_answer"] = "\\boxed{" + row["expected_answer"] + "}"
            return True
        return False

    changed = rewrite_rows(data, markup)
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    materialize(ctx, data, 3, "string_match")
    collected, profiled = collect_sh(ctx, url, "string_match", 4), profile_sh(ctx)
    rows = [row for row in rows_of(run / "rollouts.jsonl") if "\\boxed{" in str(row.get("expected_answer", ""))]
    if not changed or not rows or any(row.get("reward") for row in rows):
        raise failed(ctx, f"{changed} changed, {len(rows)} rows")
    return (
        f"RUN/string_match.jsonl (8 rows, {changed} boxed labels written as \\boxed{{...}}); materialize (x 3); "
        f"collect exit {collected}; profile exit {profiled}; those rows' rewards all 0."
    )


# =====================================================================================================
# verifier runtime
# =====================================================================================================

STRIP_VERIFIER = '''
"""Exact-answer scoring: the boxed answer, or the text after 'Final answer:'."""
import re

BOXED = re.compile(r"\\\\boxed\\{([^}]*)\\}")


def score(row, response_text):
    boxed = BOXED.search(response_text)
    if boxed:
        answer = boxed.group(1).strip()
    else:
        lines = response_text.strip().splitlines()
        answer = lines[-1].strip() if lines else ""
        answer = answer.strip("Final answer:").strip().rstrip(".")  # drop the prefix
    return {"reward": float(answer.lower() == row["expected_answer"].lower()), "extracted_answer": answer}
'''


@case(
    "verifier_runtime_stage_workspace_verifier_strips_characters_not_prefix",
    "verifier_runtime",
    ["strip"],
    "the user's workspace verifier drops the 'Final answer:' prefix with str.strip(\"Final answer:\"), which strips "
    "any of those characters from both ends, so correct answers that begin or end with one of them (Hydrogen -> "
    "Hydrog) are mangled and scored 0",
)
def verifier_runtime_stage_workspace_verifier_strips_characters_not_prefix(ctx: Ctx) -> str:
    run = ctx.run
    sweep, checkpoint, url = verifier_sweep(ctx, STRIP_VERIFIER, 0, n=10, repeats=2, concurrency=4)
    codes = [
        stage(ctx, sweep, key, checkpoint, "exact_answer", *(("--model-url", url, "--model-name", "sim-policy")
                                                             if key == "collect" else ()))
        for key in ("materialize", "collect", "profile")
    ]
    rows = rows_of(run / "rollouts.jsonl")
    labels = {row["expected_answer"].lower() for row in rows_of(run / "exact_answer.jsonl")}
    mangled = [
        row for row in rows
        if len(row.get("extracted_answer") or "") >= 3 and row["extracted_answer"].lower() not in labels
        and any(row["extracted_answer"].lower() in label for label in labels)
    ]
    if not mangled:
        raise failed(ctx, f"exit {codes}, nothing mangled")
    return (
        f"A sweep whose environment exact_answer is scored by verifiers/my_verifier.py (str.strip of the prefix); "
        f"stages exit {codes}; {len(mangled)} of {len(rows)} extracted answers are a label cut short (e.g. "
        f"{mangled[0]['extracted_answer']!r})."
    )


EQ_TEST = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
if [ "$(cat /app/hello.txt 2>/dev/null)" -eq "Hello, Gym!" ]; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


@case(
    "verifier_runtime_taskfolder_test_sh_integer_comparison_on_text",
    "verifier_runtime",
    ["test.sh"],
    "the user's rewritten tests/test.sh of create-greeting compares the greeting with `[ ... -eq ... ]`, an integer "
    "comparison, so bash fails on the text (integer expression expected) and the test writes 0 even when the file "
    "is right: every episode of that task scored 0",
)
def verifier_runtime_taskfolder_test_sh_integer_comparison_on_text(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(
        ctx, ["create-greeting", "sort-unique-words"],
        lambda tasks: (tasks / "create-greeting" / "tests" / "test.sh").write_text(EQ_TEST),
    )
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    codes = taskset_stages(ctx, sweep, checkpoint, url, "materialize", "collect", "profile")
    rows = rows_of(run / "rollouts.jsonl")
    greeting = [row for row in rows if "hello.txt" in json.dumps(row)]
    if not greeting or any(row.get("reward") for row in greeting) or not in_log(ctx, "integer expression"):
        found = [p for p in run.rglob("*") if p.is_file() and "integer expression" in text_of(p)]
        if not greeting or any(row.get("reward") for row in greeting) or not found:
            raise failed(ctx, f"exit {codes}, {len(greeting)} rows")
    return (
        f"A sweep with the taskset RUN/tasks (create-greeting with the user's test.sh, sort-unique-words; x 2); "
        f"stages exit {codes}; create-greeting rewards {[row.get('reward') for row in greeting]}."
    )


TYPO_PATH_TEST = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
if test "$(cat /app/hello.txt 2>/dev/null)" = "Hello, Gym!"; then
  echo "PASS"
  echo 1 > /logs/verifiers/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifiers/reward.txt
fi
"""


@case(
    "verifier_runtime_taskfolder_reward_written_to_wrong_folder",
    "verifier_runtime",
    ["/logs/verifier"],
    "the user's tests/test.sh of create-greeting writes its reward to /logs/verifiers/reward.txt (a plural typo), a "
    "folder that does not exist, so the reward file was never written where the verifier reads it "
    "(/logs/verifier/reward.txt) and every episode of that task came back without a reward",
)
def verifier_runtime_taskfolder_reward_written_to_wrong_folder(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(
        ctx, ["create-greeting", "top-word"],
        lambda tasks: (tasks / "create-greeting" / "tests" / "test.sh").write_text(TYPO_PATH_TEST),
    )
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    codes = taskset_stages(ctx, sweep, checkpoint, url, "materialize", "collect", "profile")
    rows = rows_of(run / "rollouts.jsonl")
    greeting = [row for row in rows if "hello.txt" in json.dumps(row)]
    if any(row.get("reward") for row in greeting) or (len(greeting) == 2 and not in_log(ctx, "missing_reward")):
        raise failed(ctx, f"exit {codes}, {len(greeting)} rows")
    return (
        f"A sweep with the taskset RUN/tasks (create-greeting writing /logs/verifiers/reward.txt, top-word; x 2); "
        f"stages exit {codes}; create-greeting rows {len(greeting)}, rewards {[row.get('reward') for row in greeting]}."
    )


# =====================================================================================================
# cache and resume
# =====================================================================================================


@case(
    "cache_resume_builtin_resumed_after_unordered_reexport",
    "cache_resume",
    ["--resume"],
    "the collection was interrupted; the dataset was then re-exported from the database (a query without ORDER BY, "
    "so the same rows came out in another order) and materialized again, and the user continued with `collect "
    "--resume`: the rollouts kept from the first attempt now sit under task indices that name other tasks",
)
def cache_resume_builtin_resumed_after_unordered_reexport(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=30, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 300")
    materialize(ctx, data, 3, "string_match")
    first = ctx.bg(shlex.join(collect_argv(run, url, "string_match", 2)), "logs/collect_first.log")
    wait_for(rollouts_at_least(ctx, 10), 120, "10 rollouts")
    ctx.stop(first, signal.SIGINT, 20)
    lines = data.read_text().splitlines(keepends=True)
    random.Random(5).shuffle(lines)
    data.write_text("".join(lines))
    ctx.note("(RUN/string_match.jsonl re-exported: the same 8 rows in another order)")
    materialize(ctx, data, 3, "string_match", log="logs/materialize_again.log")
    resumed = collect_sh(ctx, url, "string_match", 2, "--resume", log="logs/collect_resumed.log")
    profiled = profile_sh(ctx)
    rows = rows_of(run / "rollouts.jsonl")
    inputs = {row["_ng_task_index"]: row["expected_answer"] for row in rows_of(run / "rollouts_materialized_inputs.jsonl")}
    mismatched = [row for row in rows if row.get("expected_answer") != inputs.get(row["_ng_task_index"])]
    if resumed == 0 and not mismatched:
        raise failed(ctx, f"resume {resumed}, no mismatch")
    return (
        f"`materialize` (8 tasks x 3); `collect` interrupted after 10 rollouts; the dataset re-exported in another "
        f"order and materialized again; `collect --resume` exit {resumed}; {len(mismatched)} of {len(rows)} rollouts "
        f"graded against another task's label; `profile` exit {profiled}."
    )


@case(
    "cache_resume_stage_partial_profiles_allowed_after_preemption",
    "cache_resume",
    ["collect"],
    "the sweep config sets allow_partial_profiles: true (added to silence a failing profile weeks ago); the collect "
    "stage was preempted (SIGTERM) half way and never run again, and the profile stage profiled the partial rollouts "
    "without complaint, so the partition's reward profile covers only part of the run",
)
def cache_resume_stage_partial_profiles_allowed_after_preemption(ctx: Ctx) -> str:
    from eighth_held_out import stage_argv

    run = ctx.run
    data = ctx.dataset("string_match", 10, start=40, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 400")
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=3, concurrency=2,
                        allow_partial_profiles=True)
    materialized = stage(ctx, sweep, "materialize", checkpoint, "string_match")
    collect = ctx.bg(
        shlex.join(stage_argv(sweep, "collect", checkpoint, "string_match", "--model-url", url, "--model-name",
                              "sim-policy")),
        "logs/collect.log",
    )
    wait_for(rollouts_at_least(ctx, 10), 120, "10 rollouts")
    ctx.note("(the scheduler preempts the collect step: SIGTERM)")
    ctx.stop(collect, signal.SIGTERM, 30)
    profiled = stage(ctx, sweep, "profile", checkpoint, "string_match")
    got = len(unique_keys(run / "rollouts.jsonl"))
    if materialized or got >= 30 or profiled:
        raise failed(ctx, f"materialize {materialized}, {got}, profile {profiled}")
    return (
        f"A sweep with allow_partial_profiles: true (10 tasks x 3): `stage materialize` exit {materialized}; `stage "
        f"collect` preempted (SIGTERM) after {got} of 30 rollouts, exit {collect.returncode}; `stage profile` exit "
        f"{profiled}."
    )


# =====================================================================================================
# throughput and resources
# =====================================================================================================

SLOW_TASK = {
    "task.toml": """version = "1.0"

[metadata]
difficulty = "medium"
category = "text-processing"
tags = ["numbers"]

[verifier]
timeout_sec = 20.0

[agent]
timeout_sec = 20.0

[environment]
build_timeout_sec = 300.0
cpus = 0.01
memory_mb = 256
allow_internet = false
""",
    "instruction.md": "Write the sum of the squares of 1 to 10000000 to /app/sum.txt.\n",
    "environment/Dockerfile": "FROM gym-pipeline/base:bookworm\nWORKDIR /app\n",
    "solution/solve.sh": """#!/bin/bash
python3 -c "print(sum(i * i for i in range(1, 10000001)))" > /app/sum.txt
""",
    "tests/test.sh": """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
if test "$(tr -d "[:space:]" < /app/sum.txt 2>/dev/null)" = "333333383333335000000"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
""",
}


@case(
    "throughput_taskfolder_task_cpus_far_too_small",
    "throughput_resources",
    ["cpus"],
    "the user's sum-squares task gives its sandbox cpus = 0.01 in task.toml (one hundredth of a CPU, meant as 1.0 "
    "and mistyped), so its two-second computation would take minutes and ran past the task's time budget: "
    "no episode of it could succeed",
)
def throughput_taskfolder_task_cpus_far_too_small(ctx: Ctx) -> str:
    run = ctx.run

    def add_task(tasks: Path) -> None:
        for name, text in SLOW_TASK.items():
            path = tasks / "sum-squares" / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)

    tasks = user_taskset(ctx, ["create-greeting"], add_task)
    ctx.note("(RUN/tasks/sum-squares: the user's own task, cpus = 0.01)")
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    codes = taskset_stages(ctx, sweep, checkpoint, url, "materialize", "collect", "profile")
    rows = rows_of(run / "rollouts.jsonl")
    slow = [row for row in rows if "sum.txt" in json.dumps(row)]
    if any(row.get("reward") for row in slow):
        raise failed(ctx, f"exit {codes}, {len(slow)} rows rewarded")
    return (
        f"A sweep with the taskset RUN/tasks (create-greeting and the user's sum-squares, cpus 0.01; x 2); stages exit "
        f"{codes}; sum-squares rows {len(slow)}, rewards {[row.get('reward') for row in slow]}."
    )


@case(
    "throughput_taskfolder_episodes_overflow_model_queue",
    "throughput_resources",
    ["concurrency"],
    "the taskset ran 8 sandboxes at once (sandbox_concurrency 8, concurrency 8) against a model server that generates "
    "1 request at a time and lets 1 wait (1.5 s each), so the agents' chat completions were refused with 429 "
    "overloaded until their retries ran out and most episodes failed",
)
def throughput_taskfolder_episodes_overflow_model_queue(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["create-greeting", "sort-unique-words", "top-word", "json-version"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 1500 --max-running 1 --max-waiting 1")
    sweep = taskset_env_sweep(ctx, tasks, checkpoint, {"sandbox_concurrency": 8}, num_repeats=2, concurrency=8)
    codes = taskset_stages(ctx, sweep, checkpoint, url, "materialize", "collect", "profile")
    rows = rows_of(run / "rollouts.jsonl")
    solved = sum(bool(row.get("reward")) for row in rows)
    if solved >= 6 or not in_log(ctx, "429"):
        raise failed(ctx, f"exit {codes}, {solved} solved")
    return (
        f"A sweep with the taskset RUN/tasks (4 tasks x 2, sandbox_concurrency 8, concurrency 8) against a model server "
        f"with --max-running 1 --max-waiting 1 --latency-ms 1500; stages exit {codes}; {len(rows)} rows, {solved} "
        "solved."
    )


@case(
    "throughput_stage_collect_cpu_share_with_heavy_verifier",
    "throughput_resources",
    ["cpu"],
    "the collect stage ran in the login session's cgroup, which gets 5 % of a CPU (cpu.cfs_quota_us 5000 per 100000), "
    "while the user's typo-tolerant verifier needs over a second of CPU per rollout, so the collection crawled and "
    "was cut off by the batch wrapper's 90 s wall-time budget (timeout 90) with most rollouts missing",
)
def throughput_stage_collect_cpu_share_with_heavy_verifier(ctx: Ctx) -> str:
    run = ctx.run
    sweep, checkpoint, url = verifier_sweep(ctx, HEAVY_VERIFIER, 20, n=6, repeats=2, concurrency=4)
    materialized = stage(ctx, sweep, "materialize", checkpoint, "exact_answer")
    group = cgroup("cpu", f"gp-login-{ctx.run.parent.name[-20:]}", cpu__cfs_period_us=100000, cpu__cfs_quota_us=5000)
    ctx.note(f"(the login session runs in cgroup {group} with cpu.cfs_quota_us 5000 of 100000)")
    from eighth_held_out import stage_argv

    argv = shlex.join(stage_argv(sweep, "collect", checkpoint, "exact_answer", "--model-url", url, "--model-name",
                                 "sim-policy"))
    try:
        collected = ctx.sh(
            f"( echo $BASHPID > {group}/cgroup.procs; echo \"cpu.cfs_quota_us: $(cat {group}/cpu.cfs_quota_us)\"; "
            f"timeout 90 {argv}; code=$?; echo \"collect stage exit $code\"; exit $code )",
            "logs/collect.log",
            timeout=300,
        )
        throttled = " ".join((group / "cpu.stat").read_text().split())
    finally:
        drop_cgroup(group)
    profiled = stage(ctx, sweep, "profile", checkpoint, "exact_answer")
    got = len(rows_of(run / "rollouts.jsonl"))
    if materialized or collected != 124 or got >= 12:
        raise failed(ctx, f"materialize {materialized}, collect {collected}, {got}")
    return (
        f"A sweep whose environment exact_answer is scored by verifiers/my_verifier.py (typo-tolerant, CPU-heavy); "
        f"`stage collect` in a cgroup with 5 % of a CPU under `timeout 90`: exit {collected}, {got} of 12 rows "
        f"({throttled}); `stage profile` exit {profiled}."
    )


if __name__ == "__main__":
    sys.exit(main("eleventh_held_out", __file__, __doc__))
