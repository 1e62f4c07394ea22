"""The TUNING half of the diagnosis corpus: real failed and healthy NeMo Gym run folders, one recipe per case.

    .venv/bin/python scripts/diagnosis_corpus/tuning.py --out tests/data/diagnosis_corpus/tuning [--only CASE ...]

Each recipe makes its failure happen for real with the project's own parts (the built-in engine and the
real NeMo Gym 0.7.0 engine against the simulated policy with injected faults, the local/Docker/Slurm
launchers, real processes, a real tmpfs, a real bound port...) in a scratch folder, keeps the run folder
with every command's real output in `*.log` files, and writes `case.json` with the TRUE root cause it
injected (never what `gym-pipeline diagnose` says). Needs root (tmpfs, unshare), the Docker engine and the
one-node Slurm of `scripts/dev-services.sh`, and NeMo Gym 0.7.0 at $GYM_PIPELINE_NEMO_GYM (see common.py).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import (  # noqa: E402
    GP,
    PY,
    THIS,
    WORK_ROOT,
    Case,
    base_env,
    bind_port,
    diagnose_category,
    keep,
    wait_for_lines,
)

Recipe = Callable[[Case], dict]
RECIPES: dict[str, Recipe] = {}
SM_AGENT, MC_AGENT = "string_match_simple_agent", "mcqa_simple_agent"


def recipe(function: Recipe) -> Recipe:
    RECIPES[function.__name__] = function
    return function


def closed_port() -> int:
    sock, port = bind_port()
    sock.close()
    return port


# ============================================================================================================
# model_serving
# ============================================================================================================


@recipe
def model_5xx_builtin(case: Case) -> dict:
    ckpt = case.checkpoint()
    case.materialize(case.dataset("string_match", 6), 2, SM_AGENT)
    with case.policy(ckpt, "--fault-rate", "0.7", "--fault-kinds", "5xx", "--fault-seed", "3") as (url, _):
        case.collect(url, "string_match", "--concurrency", "4")
    case.profile("--allow-partial")
    return dict(expected="model_serving", fix_words=["model_server"],
                how="Built-in engine (`gym-pipeline collect`) against the simulated policy started with an injected "
                    "fault: 70% of chat completions answer 500/502/503 (serve-policy --fault-rate 0.7 "
                    "--fault-kinds 5xx). Rows that met a 5xx on all 3 attempts are terminal in the sidecar.",
                root_cause="The model server answers most chat completions with HTTP 5xx errors, so rollouts fail "
                           "after their retries.")


@recipe
def model_killed_midrun_builtin(case: Case) -> dict:
    ckpt = case.checkpoint()
    case.materialize(case.dataset("string_match", 10), 3, SM_AGENT)
    with case.policy(ckpt, "--latency-ms", "300") as (url, policy):
        collect = case.start([GP, "collect", "--inputs", "run/rollouts_materialized_inputs.jsonl", "--output",
                              "run/rollouts.jsonl", "--model-url", url, "--env", "string_match", "--concurrency",
                              "2"], "collect.log")
        wait_for_lines(case.run / "rollouts.jsonl", 8, 60)
        case.note(f"kill -9 {policy.pid}   # the model server process dies mid-collection")
        os.killpg(policy.pid, signal.SIGKILL)
        collect.wait(timeout=300)
    case.profile("--allow-partial")
    return dict(expected="model_serving", fix_words=["model_server"],
                how="Built-in engine collecting 30 rows (concurrency 2) against the simulated policy (latency 300 ms); "
                    "after 8 rollouts the policy process was killed with SIGKILL, so every later request is refused "
                    "(connection refused) and ends terminal after 3 attempts.",
                root_cause="The model server process died in the middle of the collection; the remaining requests "
                           "could not connect.")


@recipe
def model_wrong_name_builtin(case: Case) -> dict:
    ckpt = case.checkpoint()
    case.materialize(case.dataset("string_match", 5), 2, SM_AGENT)
    with case.policy(ckpt) as (url, _):
        case.sh(["curl", "-sS", url + "/models"], "models.log")
        case.collect(url, "string_match", "--model", "nemotron-sim-policy-v2", "--concurrency", "4")
    return dict(expected="model_serving", fix_words=["sim-policy"],
                how="Built-in engine with `--model nemotron-sim-policy-v2` while the simulated policy serves the "
                    "model id `sim-policy` (as shown by GET /v1/models in models.log): every chat completion is a "
                    "404 model_not_found.",
                root_cause="The collection asks for a served model name the model server does not serve "
                           "(nemotron-sim-policy-v2 instead of sim-policy).")


@recipe
def model_wrong_url_builtin(case: Case) -> dict:
    case.checkpoint()
    case.materialize(case.dataset("mcqa", 5), 2, MC_AGENT)
    port = closed_port()
    case.collect(f"http://127.0.0.1:{port}/v1", "mcqa", "--concurrency", "4")
    return dict(expected="model_serving", fix_words=["--model-url"],
                how=f"Built-in engine pointed at http://127.0.0.1:{port}/v1, a loopback port where no model server "
                    "listens (the server was never started there): model discovery is refused on all 3 attempts.",
                root_cause="The collection's model URL points at a port where no model server is listening.")


@recipe
def model_never_ready_builtin(case: Case) -> dict:
    ckpt = case.checkpoint()
    case.materialize(case.dataset("string_match", 4), 2, SM_AGENT)
    with case.policy(ckpt, "--slow-start-s", "900") as (url, _):
        case.collect(url, "string_match", "--concurrency", "4")
    return dict(expected="model_serving", fix_words=["/v1/models"],
                how="The simulated policy started with --slow-start-s 900 (answers 503 model_not_ready on every "
                    "route, like a vLLM still loading weights); the built-in engine's model discovery gets 503 on "
                    "all attempts and the collection stops before any rollout.",
                root_cause="The model server was not ready (still loading, 503 on /v1/models) when the collection "
                           "started.")


# ============================================================================================================
# infra
# ============================================================================================================


@recipe
def infra_port_taken_policy(case: Case) -> dict:
    ckpt = case.checkpoint()
    case.materialize(case.dataset("string_match", 4), 2, SM_AGENT)
    holder, port = bind_port()
    try:
        case.note(f"# another process already listens on 127.0.0.1:{port}")
        case.sh([GP, "serve-policy", "--checkpoint", ckpt, "--port", port], "logs/model_server.log", timeout=60)
    finally:
        holder.close()
    return dict(expected="infra", fix_words=["port"],
                how=f"A socket of another process was bound and listening on 127.0.0.1:{port} first; then "
                    f"`gym-pipeline serve-policy --port {port}` could not bind and exited (EADDRINUSE), so nothing "
                    "was collected.",
                root_cause=f"The model server's port {port} was already taken by another process (address already "
                           "in use).")


@recipe
def infra_disk_full_builtin(case: Case) -> dict:
    ckpt = case.checkpoint()
    source = case.dataset("string_match", 8)
    case.run.mkdir(parents=True)
    case.note("mount -t tmpfs -o size=64k tmpfs run   # the run folder on a small filesystem")
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(case.run)], check=True)
    logs = case.work / "logs"  # tee'd on another disk: the run folder's filesystem is full
    try:
        case.sh([GP, "materialize", "--input", source, "--num-repeats", "4", "--agent", SM_AGENT, "--output",
                 "run/rollouts_materialized_inputs.jsonl"], str(logs / "materialize.log"))
        with case.policy(ckpt, log=str(logs / "model_server.log")) as (url, _):
            case.collect(url, "string_match", "--concurrency", "4", log=str(logs / "collect.log"))
        case.sh(["df", "-h", "run"], str(logs / "df.log"))
        saved = case.work / "saved"
        shutil.copytree(case.run, saved)
    finally:
        subprocess.run(["umount", str(case.run)], check=False)
    shutil.rmtree(case.run, ignore_errors=True)
    shutil.move(str(case.work / "saved"), case.run)
    shutil.move(str(logs), case.run / "logs")
    return dict(expected="infra", fix_words=["space"],
                how="The run folder was a 64 KiB tmpfs (mount -t tmpfs -o size=64k); materialize fit, then the "
                    "built-in engine's rollouts.jsonl filled the filesystem and the collection died with ENOSPC. "
                    "The command output was tee'd to another disk and copied into run/logs/ afterwards.",
                root_cause="The filesystem holding the run folder is full (No space left on device).")


# ============================================================================================================
# config
# ============================================================================================================


@recipe
def config_unknown_env_builtin(case: Case) -> dict:
    ckpt = case.checkpoint()
    case.materialize(case.dataset("string_match", 4), 2, SM_AGENT)
    with case.policy(ckpt) as (url, _):
        case.collect(url, "stringmatch", "--concurrency", "4")
    return dict(expected="config", fix_words=["string_match"],
                how="`gym-pipeline collect --env stringmatch` (a typo of the environment name string_match): the "
                    "command refuses the unknown environment before collecting.",
                root_cause="The collection names an environment that does not exist (stringmatch instead of "
                           "string_match).")


# ============================================================================================================
# data_schema
# ============================================================================================================


def _string_match_rows(n: int) -> list[dict]:
    from common import EXAMPLES

    return [json.loads(line) for line in (EXAMPLES / "string_match.jsonl").read_text().splitlines()[:n]]


@recipe
def data_missing_field_builtin(case: Case) -> dict:
    ckpt = case.checkpoint()
    rows = _string_match_rows(6)
    for row in rows[2:5]:
        del row["expected_answer"]  # an export that dropped the column for some rows
    case.materialize(case.dataset("string_match", 0, rows=rows), 2, SM_AGENT)
    with case.policy(ckpt) as (url, _):
        case.collect(url, "string_match", "--concurrency", "4")
    case.profile("--allow-partial")
    return dict(expected="data_schema", fix_words=["expected_answer"],
                how="Source dataset where 3 of 6 rows lack `expected_answer`; materialized and collected with the "
                    "built-in engine: the string_match verifier refuses those rows (VerifierInputError), which the "
                    "engine keeps as masked verifier_error rows.",
                root_cause="Dataset rows are missing the required field expected_answer.")


@recipe
def data_wrong_type_mcqa_builtin(case: Case) -> dict:
    from common import EXAMPLES

    ckpt = case.checkpoint()
    rows = [json.loads(line) for line in (EXAMPLES / "mcqa.jsonl").read_text().splitlines()[:6]]
    for row in rows:  # a conversion script wrote the options as one string
        row["options"] = " | ".join(f"{k}) {v}" for option in row["options"] for k, v in option.items())
    case.materialize(case.dataset("mcqa", 0, rows=rows), 2, MC_AGENT)
    with case.policy(ckpt) as (url, _):
        case.collect(url, "mcqa", "--concurrency", "4")
    case.profile("--allow-partial")
    return dict(expected="data_schema", fix_words=["options"],
                how="mcqa dataset whose `options` field was written as one string instead of a list of "
                    "{letter: text} objects; materialized and collected with the built-in engine.",
                root_cause="The options field of the dataset rows has the wrong type (a string, not a list).")


@recipe
def data_malformed_jsonl(case: Case) -> dict:
    case.checkpoint()
    source = case.dataset("string_match", 6)
    path = case.work / source
    data = path.read_bytes()
    cut = data.index(b"\n", data.index(b"\n") + 1) + 1 + 150  # an interrupted copy: line 3 ends mid-row
    case.note(f"head -c {cut} data/full.jsonl > {source}; cat more rows >> {source}  # a copy cut short, then appended")
    lines = data[cut:].split(b"\n", 1)[1]
    path.write_bytes(data[:cut] + b"\n" + lines)
    case.materialize(source, 2, SM_AGENT)
    return dict(expected="data_schema", fix_words=["string_match.jsonl"],
                how="The source JSONL had line 3 cut mid-row (a copy interrupted, later rows appended after it); "
                    "`gym-pipeline materialize` stops at that line.",
                root_cause="The input JSONL has a malformed (truncated) line 3.")


# ============================================================================================================
# verifier_runtime
# ============================================================================================================


def _collect_broken(case: Case, kind: str, url: str) -> int:
    return case.sh([PY, THIS, "collect-with-env", kind, "--", "collect", "--inputs",
                    "run/rollouts_materialized_inputs.jsonl", "--output", "run/rollouts.jsonl", "--model-url", url,
                    "--env", f"string_match_{kind}", "--concurrency", "4"], "collect.log", timeout=600)


@recipe
def verifier_raises_builtin(case: Case) -> dict:
    ckpt = case.checkpoint()
    case.materialize(case.dataset("string_match", 8), 2, SM_AGENT)
    with case.policy(ckpt) as (url, _):
        _collect_broken(case, "raises", url)
    case.profile("--allow-partial")
    return dict(expected="verifier_runtime", fix_words=["verifier"],
                how="Built-in engine with a string_match variant registered by the corpus script "
                    "(`common.py collect-with-env raises`, environment string_match_raises) whose verifier calls "
                    "`verdict['extracted_answer'].strip()`, which raises AttributeError when a response has no "
                    "answer in the expected format; the engine keeps those as masked verifier_error rows.",
                root_cause="The verifier raises AttributeError on responses without an extractable answer "
                           "(extracted_answer is None).")


@recipe
def verifier_no_reward_builtin(case: Case) -> dict:
    ckpt = case.checkpoint()
    case.materialize(case.dataset("string_match", 6), 2, SM_AGENT)
    with case.policy(ckpt) as (url, _):
        _collect_broken(case, "noreward", url)
    case.profile("--allow-partial")
    return dict(expected="verifier_runtime", fix_words=["reward"],
                how="Built-in engine with a string_match variant (`common.py collect-with-env noreward`) whose "
                    "verify response has no `reward` field (it returns `score` instead); collected, then profiled.",
                root_cause="The verifier returns no reward field in its verify response.")


@recipe
def verifier_wrong_schema_builtin(case: Case) -> dict:
    ckpt = case.checkpoint()
    case.materialize(case.dataset("string_match", 6), 2, SM_AGENT)
    with case.policy(ckpt) as (url, _):
        _collect_broken(case, "schema", url)
    case.profile("--allow-partial")
    return dict(expected="verifier_runtime", fix_words=["reward"],
                how="Built-in engine with a string_match variant (`common.py collect-with-env schema`) whose verify "
                    "response carries reward as a string (\"correct\"/\"wrong\") instead of a number; collected, "
                    "then profiled.",
                root_cause="The verifier answers with the wrong schema: reward is a string, not a number.")


# ============================================================================================================
# cache_resume
# ============================================================================================================


def _start_collect(case: Case, url: str, env: str = "string_match", concurrency: str = "2") -> subprocess.Popen:
    return case.start([GP, "collect", "--inputs", "run/rollouts_materialized_inputs.jsonl", "--output",
                       "run/rollouts.jsonl", "--model-url", url, "--env", env, "--concurrency", concurrency],
                      "collect.log")


@recipe
def cache_resume_after_data_edit(case: Case) -> dict:
    ckpt = case.checkpoint()
    source = case.dataset("string_match", 8)
    case.materialize(source, 2, SM_AGENT)
    with case.policy(ckpt, "--latency-ms", "250") as (url, _):
        collect = _start_collect(case, url)
        wait_for_lines(case.run / "rollouts.jsonl", 6, 60)
        case.note(f"kill -9 {collect.pid}   # the collection is killed part way")
        os.killpg(collect.pid, signal.SIGKILL)
        collect.wait()
        rows = [json.loads(line) for line in (case.work / source).read_text().splitlines()]
        rows[1]["expected_answer"] = "helium"  # someone fixes labels in the dataset meanwhile
        rows.append(_string_match_rows(12)[10])
        (case.work / source).write_text("".join(json.dumps(r) + "\n" for r in rows))
        case.note(f"# {source} edited: row 2's expected_answer changed, a row appended")
        case.materialize(source, 2, SM_AGENT)
        case.collect(url, "string_match", "--concurrency", "2", "--resume")
    return dict(expected="cache_resume", fix_words=["--resume"],
                how="Built-in engine: collection killed (SIGKILL) after 6 rollouts; the source dataset was then "
                    "edited (a changed expected_answer, an appended row) and re-materialized, and the collection "
                    "was resumed with `collect --resume` over the partial rollouts of the old inputs; the resume "
                    "is refused.",
                root_cause="A resume was attempted over partial output collected from inputs that have since "
                           "changed (the data was edited between the two runs).")


@recipe
def cache_killed_midwrite_builtin(case: Case) -> dict:
    ckpt = case.checkpoint()
    case.materialize(case.dataset("string_match", 10), 3, SM_AGENT)
    with case.policy(ckpt, "--latency-ms", "200") as (url, _):
        collect = _start_collect(case, url, concurrency="3")
        wait_for_lines(case.run / "rollouts.jsonl", 11, 60)
        case.note(f"kill -9 {collect.pid}   # the collection is killed mid-write")
        os.killpg(collect.pid, signal.SIGKILL)
        collect.wait()
    case.profile()
    return dict(expected="cache_resume", fix_words=["--resume"],
                how="Built-in engine collecting 30 rows; the collect process was SIGKILLed after 11 rollouts, "
                    "leaving partial rollouts.jsonl and a manifest still saying `collecting`; then the strict "
                    "`gym-pipeline profile` (no --allow-partial) was run on the partial output.",
                root_cause="The collection was killed mid-write, leaving partial rollout output that was never "
                           "resumed.")


@recipe
def cache_two_writers_builtin(case: Case) -> dict:
    ckpt = case.checkpoint()
    case.materialize(case.dataset("string_match", 8), 2, SM_AGENT)
    with case.policy(ckpt, "--latency-ms", "200") as (url, _):
        first = _start_collect(case, url)
        wait_for_lines(case.run / "rollouts.jsonl", 2, 60)
        case.collect(url, "string_match", "--concurrency", "2", log="collect_second.log")
        first.wait(timeout=300)
    return dict(expected="cache_resume", fix_words=["--output"],
                how="Two `gym-pipeline collect` commands on the same --output (run/rollouts.jsonl) at the same time "
                    "(e.g. a job submitted twice): the second stops at the run folder's lock, naming the first "
                    "writer's pid; collect.log is the first, collect_second.log the second.",
                root_cause="Two collections were started writing the same output folder at once.")


# ============================================================================================================
# throughput_resources
# ============================================================================================================


def _stage_config(case: Case, **settings) -> str:
    config = {"name": "corpus", "environments": [{"name": "string_match", "dataset": "data/string_match.jsonl"}],
              "checkpoints_dir": "checkpoints", "runs_dir": "runs", "nightly_cron": None, **settings}
    (case.work / "sweep.json").write_text(json.dumps(config, indent=1))
    case.note("sweep.json: " + json.dumps(config))
    return "sweep.json"


@recipe
def throughput_timeouts_builtin(case: Case) -> dict:
    ckpt = case.checkpoint()
    case.dataset("string_match", 12)
    case.run_rel = "runs/step_0100/string_match"
    config = _stage_config(case, num_repeats=4, concurrency=48, request_timeout_s=3)
    case.sh([GP, "stage", "materialize", "--sweep-config", config, "--checkpoint", "step_0100", "--env",
             "string_match", "--code-version", "corpus"], "logs/materialize.log")
    with case.policy(ckpt, "--max-running", "2", "--max-waiting", "10000", "--latency-ms", "800") as (url, _):
        case.sh([GP, "stage", "collect", "--sweep-config", config, "--checkpoint", "step_0100", "--env",
                 "string_match", "--code-version", "corpus", "--model-url", url, "--model-name", "sim-policy"],
                "logs/rollouts.log", timeout=600)
    return dict(expected="throughput_resources", fix_words=["concurrency"],
                how="Sweep stage collect (built-in engine) with concurrency 48 and request_timeout_s 3 against a "
                    "model server that serves 2 requests at a time (800 ms each; the simulated policy with "
                    "`--max-running 2 --max-waiting 10000`, logging vLLM's Running/Waiting lines): requests wait in "
                    "its queue far longer than 3 s and time out, retries included.",
                root_cause="The collection's concurrency (48) is far above what the model server serves at once "
                           "(2), so queued requests time out.")


@recipe
def throughput_429_builtin(case: Case) -> dict:
    ckpt = case.checkpoint()
    case.materialize(case.dataset("string_match", 12), 4, SM_AGENT)
    with case.policy(ckpt, "--max-running", "2", "--max-waiting", "4", "--latency-ms", "300") as (url, _):
        case.collect(url, "string_match", "--concurrency", "48", "--model", "sim-policy")
    case.profile("--allow-partial")
    return dict(expected="throughput_resources", fix_words=["concurrency"],
                how="Built-in engine with --concurrency 48 against a model server that runs 2 requests at a time and "
                    "queues at most 4 more (the simulated policy with `--max-running 2 --max-waiting 4`), answering "
                    "429 overloaded when its queue is full: many rows stay rate limited through all 3 attempts.",
                root_cause="Concurrency far above the model server's capacity overloads it, which answers 429 "
                           "(queue full).")


# ============================================================================================================
# healthy
# ============================================================================================================


@recipe
def healthy_retried_5xx_builtin(case: Case) -> dict:
    ckpt = case.checkpoint()
    case.materialize(case.dataset("string_match", 8), 2, SM_AGENT)
    with case.policy(ckpt, "--fault-rate", "0.25", "--fault-kinds", "5xx,429", "--fault-seed", "11") as (url, _):
        case.collect(url, "string_match", "--concurrency", "4")
    case.profile()
    return dict(expected="healthy", fix_words=[],
                how="Built-in engine against the simulated policy with a 25% rate of injected 5xx/429 faults; every "
                    "failed attempt was retried and succeeded, so all rows were collected (the sidecar holds the "
                    "retried attempts) and the strict profile passed.",
                root_cause="Nothing is wrong: a few transient errors were retried successfully.")


@recipe
def healthy_resumed_builtin(case: Case) -> dict:
    ckpt = case.checkpoint()
    case.materialize(case.dataset("string_match", 10), 2, SM_AGENT)
    with case.policy(ckpt, "--latency-ms", "150") as (url, _):
        collect = _start_collect(case, url, concurrency="3")
        wait_for_lines(case.run / "rollouts.jsonl", 7, 60)
        case.note(f"kill -INT {collect.pid}   # Ctrl-C on the collection part way")
        os.killpg(collect.pid, signal.SIGINT)
        collect.wait(timeout=60)
        case.collect(url, "string_match", "--concurrency", "3", "--resume")
    case.profile()
    return dict(expected="healthy", fix_words=[],
                how="Built-in engine: a collection interrupted with Ctrl-C (SIGINT) after 7 rollouts, then continued "
                    "with `collect --resume` on the same unchanged inputs, which finished every row; then a strict "
                    "profile. The interrupt's traceback stays in collect.log.",
                root_cause="Nothing is wrong: an interrupted collection was resumed correctly on unchanged inputs "
                           "and completed.")


# ============================================================================================================
# the real NeMo Gym 0.7.0 engine (`gym env start` + `gym eval run --no-serve`), in a loopback-only namespace
# ============================================================================================================


def _gym_case(case: Case, env: str = "string_match", tasks: int = 4, repeats: int = 2, agent: str | None = None,
              rows: list[dict] | None = None, **request) -> int:
    ckpt = case.checkpoint()
    source = case.dataset(env, tasks, rows=rows)
    case.materialize(source, repeats, agent or f"{env}_simple_agent")
    return case.gym({"run": "run", "env": env, "checkpoint": ckpt, **request}, timeout=420)


@recipe
def healthy_gym(case: Case) -> dict:
    _gym_case(case, tasks=5, repeats=2)
    case.profile()
    return dict(expected="healthy", fix_words=[],
                how="Real NeMo Gym 0.7.0 engine (gym env start + gym eval run --no-serve) on 5 string_match tasks x 2 "
                    "repeats against the simulated policy, then `gym-pipeline profile`. Gym's usual warnings and the "
                    "engine's Ctrl-C (SIGINT) teardown of `gym env start` after everything finished are in the logs.",
                root_cause="Nothing is wrong: a clean collection with shutdown noise after it finished.")


@recipe
def healthy_gym_mcqa_retry(case: Case) -> dict:
    _gym_case(case, env="mcqa", tasks=5, repeats=2, policy_flags=["--fault-rate", "0.1", "--fault-kinds", "5xx",
                                                                  "--fault-seed", "5"])
    case.profile("--allow-partial")
    return dict(expected="healthy", fix_words=[],
                how="Real NeMo Gym engine on 5 mcqa tasks x 2 repeats against the simulated policy with a 10% rate of "
                    "injected 5xx faults; then `gym-pipeline profile --allow-partial`.",
                root_cause="Nothing is wrong (transient 5xx noise at most).")


@recipe
def healthy_gym_drops_retried(case: Case) -> dict:
    _gym_case(case, tasks=5, repeats=2, policy_flags=["--fault-rate", "0.6", "--fault-kinds", "drop",
                                                       "--fault-seed", "2"])
    case.profile()
    return dict(expected="healthy", fix_words=[],
                how="Real NeMo Gym engine against the simulated policy closing 60% of chat-completion connections "
                    "without an answer (serve-policy --fault-rate 0.6 --fault-kinds drop). Gym's aiohttp client "
                    "retries a ServerDisconnectedError by itself, so every rollout completed; then a strict profile.",
                root_cause="Nothing is wrong with the run: dropped connections were retried transparently and all "
                           "rollouts completed.")


@recipe
def model_5xx_gym(case: Case) -> dict:
    _gym_case(case, tasks=5, repeats=2, policy_flags=["--fault-rate", "0.7", "--fault-kinds", "5xx",
                                                       "--fault-seed", "2"])
    case.profile("--allow-partial")
    return dict(expected="model_serving", fix_words=["model_server"],
                how="Real NeMo Gym engine against the simulated policy answering 70% of chat completions with "
                    "500/502/503 (serve-policy --fault-rate 0.7 --fault-kinds 5xx); Gym's vllm_model proxy fails "
                    "those and the rollouts land in the sidecar.",
                root_cause="The model server answers most chat completions with HTTP 5xx errors.")


@recipe
def model_never_ready_gym(case: Case) -> dict:
    _gym_case(case, tasks=3, repeats=2, policy_flags=["--slow-start-s", "3000"], startup_timeout_s=90,
              model_name="sim-policy")
    return dict(expected="model_serving", fix_words=["/v1/models"],
                how="Real NeMo Gym engine against a simulated policy started with --slow-start-s 3000 (503 "
                    "model_not_ready on every route, like vLLM loading weights). Gym's own servers (and its "
                    "vllm_model proxy) come up and print `All 4 / 4 servers ready`, then every rollout's chat "
                    "completion meets the 503 through the proxy's retries and fails into the sidecar.",
                root_cause="The model server never became ready (503 on /v1/models) within the startup timeout.")


@recipe
def model_wrong_name_gym(case: Case) -> dict:
    _gym_case(case, tasks=3, repeats=2, model_name="Qwen/Qwen3-8B")
    return dict(expected="model_serving", fix_words=["sim-policy"],
                how="Real NeMo Gym engine started with `--model Qwen/Qwen3-8B` while the model server serves "
                    "`sim-policy`: the vllm_model proxy's chat completions get 404 model_not_found.",
                root_cause="The served model name given to Gym (Qwen/Qwen3-8B) is not the one the model server "
                           "serves (sim-policy).")


@recipe
def model_killed_gym(case: Case) -> dict:
    _gym_case(case, tasks=8, repeats=2, concurrency=2, policy_flags=["--latency-ms", "700"], kill_policy_after_s=4,
              eval_timeout_s=90)
    case.profile("--allow-partial")
    return dict(expected="model_serving", fix_words=["model_server"],
                how="Real NeMo Gym engine (concurrency 2) against the simulated policy (700 ms per answer); 4 s after "
                    "Gym's servers were ready the policy process was killed with SIGKILL; Gym's client retries the "
                    "refused connections without end, so the engine stops `gym eval run` at its eval timeout.",
                root_cause="The model server process died in the middle of the collection.")


@recipe
def config_unknown_agent_gym(case: Case) -> dict:
    _gym_case(case, tasks=3, repeats=2, agent="math_simple_agent")
    return dict(expected="config", fix_words=["math_simple_agent"],
                how="Inputs materialized with `--agent math_simple_agent`, an agent the started Gym config does not "
                    "have (it has string_match_simple_agent); real NeMo Gym engine on them.",
                root_cause="The rows' agent_ref names an agent (math_simple_agent) that the Gym config lacks.")


@recipe
def config_wrong_config_paths_gym(case: Case) -> dict:
    _gym_case(case, tasks=3, repeats=2,
              overrides=["++config_paths=[resources_servers/string_match/configs/string_match_judge.yaml]"])
    return dict(expected="config", fix_words=["config_paths"],
                how="Real NeMo Gym engine with the Hydra override "
                    "`++config_paths=[resources_servers/string_match/configs/string_match_judge.yaml]`, a config file "
                    "that does not exist (the shipped one is string_match.yaml).",
                root_cause="config_paths names a Gym config file that does not exist.")


@recipe
def config_unknown_resources_server_gym(case: Case) -> dict:
    _gym_case(case, tasks=3, repeats=2, resources_server="string_matching")
    return dict(expected="config", fix_words=["string_match"],
                how="Real NeMo Gym engine asked for `--resources-server string_matching` (a typo of string_match).",
                root_cause="The resources server name given to gym env start does not exist (string_matching).")


@recipe
def data_missing_field_gym(case: Case) -> dict:
    rows = _string_match_rows(5)
    for row in rows[1:4]:
        row.pop("expected_answer")
    _gym_case(case, tasks=5, repeats=2, rows=rows)
    case.profile("--allow-partial")
    return dict(expected="data_schema", fix_words=["expected_answer"],
                how="Source rows 2-4 (of 5) lack `expected_answer`; real NeMo Gym engine: the string_match resources "
                    "server's request model rejects them (422) and those rollouts fail into the sidecar.",
                root_cause="Dataset rows are missing the field expected_answer that the resources server's request "
                           "model requires.")


@recipe
def data_wrong_type_gym(case: Case) -> dict:
    rows = _string_match_rows(5)
    for row in rows[0:3]:
        row["extraction_mode"] = "boxed_answer"  # not one of boxed/final_answer/last_line/full_response
        row["case_sensitive"] = "no"
    _gym_case(case, tasks=5, repeats=2, rows=rows)
    case.profile("--allow-partial")
    return dict(expected="data_schema", fix_words=["extraction_mode"],
                how="Source rows 1-3 carry `extraction_mode: \"boxed_answer\"` (not an allowed literal) and "
                    "`case_sensitive: \"no\"`; real NeMo Gym engine: the resources server's request model rejects "
                    "those rows.",
                root_cause="Dataset rows have fields of the wrong type/value (extraction_mode not an allowed value, "
                           "case_sensitive not a bool).")


@recipe
def verifier_raises_gym(case: Case) -> dict:
    from common import SERVICES_ENV

    site = next(Path(SERVICES_ENV["GYM_PIPELINE_NEMO_GYM"]).parent.parent.glob("lib/python3*/site-packages"))
    local = case.work / "gym_local" / "resources_servers" / "string_match"
    shutil.copytree(site / "resources_servers" / "string_match", local,
                    ignore=shutil.ignore_patterns("__pycache__", "tests", "data"))
    app = (local / "app.py").read_text()
    buggy = app.replace("        reward = 0.0\n",
                        "        # normalize before comparing (local change)\n"
                        "        extracted = extracted.strip().lower()\n        reward = 0.0\n", 1)
    assert buggy != app
    (local / "app.py").write_text(buggy)
    case.note("cp -r <gym>/resources_servers/string_match gym_local/resources_servers/ and, in its app.py verify(), "
              "add `extracted = extracted.strip().lower()` after the extraction; "
              "export NEMO_GYM_EXTRA_ROOTS=$PWD/gym_local")
    _gym_case(case, tasks=8, repeats=2, env_vars={"NEMO_GYM_EXTRA_ROOTS": str(case.work / "gym_local")})
    case.profile("--allow-partial")
    return dict(expected="verifier_runtime", fix_words=["verifier"],
                how="Real NeMo Gym engine with a locally modified copy of the string_match resources server found "
                    "first through NEMO_GYM_EXTRA_ROOTS; its verify() calls `extracted.strip()`, which raises "
                    "AttributeError when a response has no extractable answer (extracted is None): /verify answers "
                    "500 for those rollouts.",
                root_cause="The resources server's verify() raises AttributeError on responses without an "
                           "extractable answer.")


@recipe
def infra_ray_tmp_full_gym(case: Case) -> dict:
    small = Path(f"/tmp/gpfull{os.getpid()}")  # short: Ray's socket paths under it must stay below 107 bytes
    small.mkdir(exist_ok=True)
    case.note(f"mount -t tmpfs -o size=256k tmpfs {small}; export TMPDIR={small}   # a small, nearly full scratch disk")
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(small)], check=True)
    try:
        _gym_case(case, tasks=3, repeats=2, env_vars={"TMPDIR": str(small)}, startup_timeout_s=120)
        case.sh(["df", "-h", str(small)], "df.log")
    finally:
        subprocess.run(["umount", "-l", str(small)], check=False)
        with contextlib.suppress(OSError):
            small.rmdir()
    return dict(expected="infra", fix_words=["tmpdir"],
                how="Real NeMo Gym engine with TMPDIR on a 256 KiB tmpfs (the engine puts Ray's temp folder, "
                    "RAY_TMPDIR, under it): Ray cannot write its session files there.",
                root_cause="The filesystem holding Ray's temp folder (TMPDIR) is too small / full.")


@recipe
def infra_ray_socket_path_gym(case: Case) -> dict:
    deep = case.work / "scratch" / "users" / "eval-team" / "nightly-sweeps" / "2026-12-01" / "job-000123" / "tmp"
    deep.mkdir(parents=True)
    case.note("export TMPDIR=$PWD/scratch/users/eval-team/nightly-sweeps/2026-12-01/job-000123/tmp   # a deep "
              "per-job scratch folder")
    _gym_case(case, tasks=3, repeats=2, env_vars={"TMPDIR": str(deep)}, startup_timeout_s=120)
    return dict(expected="infra", fix_words=["tmpdir"],
                how="Real NeMo Gym engine with TMPDIR set to a deep per-job scratch folder; the engine puts Ray's temp "
                    "folder (RAY_TMPDIR) under it, and Ray's AF_UNIX socket paths there exceed the 107-byte limit, "
                    "so Ray (and `gym env start`) fails to start.",
                root_cause="Ray's temp folder path (under TMPDIR) is too long for its AF_UNIX socket paths.")


@recipe
def cache_stale_inputs_builtin(case: Case) -> dict:
    ckpt = case.checkpoint()
    source = case.dataset("string_match", 6)
    case.materialize(source, 2, SM_AGENT)
    rows = [json.loads(line) for line in (case.work / source).read_text().splitlines()]
    new_rows = _string_match_rows(12)[6:10]
    rows = rows[:2] + new_rows  # the dataset was replaced by its next version meanwhile
    for row in rows[:2]:
        row["expected_answer"] = row["expected_answer"].upper()
    (case.work / source).write_text("".join(json.dumps(r) + "\n" for r in rows))
    case.note(f"# {source} replaced by a new version (4 of 6 rows changed, 2 relabelled) after materialize")
    with case.policy(ckpt) as (url, _):
        case.collect(url, "string_match", "--concurrency", "4")
    case.profile()
    return dict(expected="cache_resume", fix_words=["materialize"],
                how="Inputs materialized from the dataset, then the dataset was replaced by a new version (rows "
                    "changed and relabelled), and the built-in engine collected and profiled the OLD materialized "
                    "inputs without re-materializing: every command succeeded on stale inputs.",
                root_cause="The materialized inputs are stale: the source dataset changed after they were built, "
                           "and the run used them anyway.")


@recipe
def cache_gym_resume_edited_data(case: Case) -> dict:
    ckpt = case.checkpoint()
    source = case.dataset("string_match", 8)
    (case.run / "logs").mkdir(parents=True)
    extra = _string_match_rows(12)[9:11]
    case.gym_manual({"scenario": "resume_after_edit", "run": "run", "env": "string_match", "checkpoint": ckpt,
                     "agent": SM_AGENT, "input": source, "repeats": 2, "concurrency": 2, "kill_after": 5,
                     "policy_flags": ["--latency-ms", "400"], "edits": {"0": "72", "3": "Mercury"}, "append": extra})
    case.profile("--allow-partial", log="profile.log")
    return dict(expected="cache_resume", fix_words=["--resume"],
                how="Hand-typed real NeMo Gym session: `gym env start`, then `gym eval run --no-serve --input "
                    "data/string_match.jsonl --output run/rollouts.jsonl --num-repeats 2`, SIGKILLed after 5 "
                    "rollouts; the dataset was then edited (2 expected_answers changed, 2 rows appended) and the "
                    "collection resumed with `gym eval run ... --resume`, which reuses the old "
                    "rollouts_materialized_inputs.jsonl without checking; then `gym-pipeline profile --allow-partial`.",
                root_cause="gym eval run --resume reused stale materialized inputs and partial rollouts after the "
                           "source data was edited, so the new rows and labels were silently ignored.")


@recipe
def cache_gym_two_writers(case: Case) -> dict:
    ckpt = case.checkpoint()
    source = case.dataset("string_match", 6)
    (case.run / "logs").mkdir(parents=True)
    case.gym_manual({"scenario": "two_writers", "run": "run", "env": "string_match", "checkpoint": ckpt,
                     "agent": SM_AGENT, "input": source, "repeats": 2, "second_repeats": 3, "concurrency": 2,
                     "stagger_s": 3, "policy_flags": ["--latency-ms", "1000"]})
    case.profile("--allow-partial", log="profile.log")
    return dict(expected="cache_resume", fix_words=["--output"],
                how="Hand-typed real NeMo Gym session: one `gym env start` (policy answering in 1 s), then two "
                    "`gym eval run --no-serve ... --output run/rollouts.jsonl` on the same output started 3 s apart "
                    "(the job re-launched with --num-repeats 3 while the first, --num-repeats 2, still ran); both "
                    "write run/rollouts.jsonl and its sibling files; then `gym-pipeline profile --allow-partial`.",
                root_cause="Two collections wrote the same output file at the same time, overwriting each other.")


# ============================================================================================================
# the launchers: Docker containers and Slurm jobs (the dev services of scripts/dev-services.sh)
# ============================================================================================================


def _launch(case: Case, settings: dict, stage: str, argv: list[str], *, env: dict | None = None,
            log: str = "launch.log", timeout: float = 600, read_only: tuple[str, ...] = ()) -> int:
    ro = [part for path in read_only for part in ("--ro", str((case.work / path).resolve()))]
    return case.sh([PY, THIS, "launch", json.dumps(settings), stage, "run", *ro, "--", *argv], log, env=env,
                   timeout=timeout)


def _collect_argv(url: str, env: str = "string_match", concurrency: str = "4") -> list[str]:
    return [GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
            "--model-url", url, "--env", env, "--concurrency", concurrency]


@recipe
def throughput_docker_oom(case: Case) -> dict:
    ckpt = case.checkpoint()
    case.materialize(case.dataset("string_match", 6), 2, SM_AGENT)
    with case.policy(ckpt) as (url, _):
        _launch(case, {"kind": "docker", "network": "host", "memory_mb": 16}, "collect", _collect_argv(url))
    return dict(expected="throughput_resources", fix_words=["memory"],
                how="The collect stage (`gym-pipeline collect`, built-in engine) run through the project's Docker "
                    "launcher with a real container memory limit of 16 MiB (DockerLauncherSettings memory_mb=16, "
                    "network host): the kernel OOM-kills the container.",
                root_cause="The container's memory limit (16 MiB) is below what the stage needs; it was OOM-killed.")


@recipe
def throughput_slurm_time_limit(case: Case) -> dict:
    ckpt = case.checkpoint()
    case.materialize(case.dataset("string_match", 20), 2, SM_AGENT)
    with case.policy(ckpt, "--latency-ms", "2500") as (url, _):
        _launch(case, {"kind": "slurm", "time_limit": "1", "poll_interval_s": 1}, "collect",
                _collect_argv(url, concurrency="1"), timeout=400)
    return dict(expected="throughput_resources", fix_words=["time"],
                how="The collect stage run as a Slurm job through the project's Slurm launcher with a 1-minute time "
                    "limit (sbatch --time=1); 40 rows at concurrency 1 against a policy answering in 2.5 s need "
                    "about 100 s, so Slurm ends the job in state TIMEOUT.",
                root_cause="The Slurm job's time limit (1 minute) is shorter than the collection needs.")


@recipe
def throughput_slurm_memory(case: Case) -> dict:
    ckpt = case.checkpoint()
    case.materialize(case.dataset("mcqa", 10), 2, MC_AGENT)
    with case.policy(ckpt, "--latency-ms", "500") as (url, _):
        _launch(case, {"kind": "slurm", "memory_mb": 24, "time_limit": "10", "poll_interval_s": 1}, "collect",
                _collect_argv(url, env="mcqa", concurrency="1"), timeout=300)
    return dict(expected="throughput_resources", fix_words=["memory"],
                how="The collect stage as a Slurm job through the project's Slurm launcher with `--mem=24` "
                    "(SlurmLauncherSettings memory_mb=24); the job's Python process needs more, and Slurm "
                    "(JobAcctGatherParams=OverMemoryKill) kills it for exceeding its memory limit.",
                root_cause="The Slurm job's memory limit (24 MiB) is below what the stage needs.")


@recipe
def infra_docker_unreachable(case: Case) -> dict:
    ckpt = case.checkpoint()
    case.materialize(case.dataset("string_match", 4), 2, SM_AGENT)
    with case.policy(ckpt) as (url, _):
        case.note("export DOCKER_HOST=unix:///var/run/docker-rootless.sock   # a socket where no engine runs")
        _launch(case, {"kind": "docker", "network": "host"}, "collect", _collect_argv(url),
                env=base_env(DOCKER_HOST="unix:///var/run/docker-rootless.sock"))
    return dict(expected="infra", fix_words=["docker_host"],
                how="The collect stage through the project's Docker launcher with DOCKER_HOST pointing at "
                    "unix:///var/run/docker-rootless.sock, where no Docker engine listens: the launcher cannot reach "
                    "the engine and nothing runs.",
                root_cause="The Docker engine is unreachable (DOCKER_HOST names a socket with no daemon behind it).")


@recipe
def healthy_slurm(case: Case) -> dict:
    ckpt = case.checkpoint()
    case.materialize(case.dataset("mcqa", 6), 2, MC_AGENT)
    with case.policy(ckpt, "--fault-rate", "0.1", "--fault-kinds", "drop", "--fault-seed", "4") as (url, _):
        _launch(case, {"kind": "slurm", "time_limit": "10", "poll_interval_s": 1}, "collect",
                _collect_argv(url, env="mcqa"))
    _launch(case, {"kind": "slurm", "time_limit": "10", "poll_interval_s": 1}, "profile",
            [GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
            log="launch_profile.log")
    return dict(expected="healthy", fix_words=[],
                how="Collect then profile, each as a Slurm job through the project's Slurm launcher, against the "
                    "simulated policy that drops 10% of connections (retried successfully).",
                root_cause="Nothing is wrong: retried dropped connections, then a complete collection and profile.")


@recipe
def healthy_docker(case: Case) -> dict:
    ckpt = case.checkpoint()
    case.materialize(case.dataset("string_match", 6), 2, SM_AGENT)
    with case.policy(ckpt, "--slow-start-s", "1") as (url, _):
        _launch(case, {"kind": "docker", "network": "host", "memory_mb": 1024}, "collect", _collect_argv(url))
    _launch(case, {"kind": "docker", "network": "none", "memory_mb": 1024}, "profile",
            [GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
            log="launch_profile.log")
    return dict(expected="healthy", fix_words=[],
                how="Collect and profile, each in a Docker container through the project's Docker launcher (1 GiB "
                    "memory limit), against a simulated policy with a 1 s slow start (the first model discovery "
                    "may meet a 503 and is retried).",
                root_cause="Nothing is wrong.")


# ============================================================================================================


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--no-diagnose", action="store_true")
    args = parser.parse_args()
    names = args.only or list(RECIPES)
    unknown = [name for name in names if name not in RECIPES]
    if unknown:
        parser.error(f"unknown case(s) {unknown}; known: {', '.join(RECIPES)}")
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    results = {}
    for name in names:
        began = time.monotonic()
        work = WORK_ROOT / name
        with contextlib.suppress(Exception):
            subprocess.run(["umount", "-q", str(work / "run")], check=False, stderr=subprocess.DEVNULL)
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        case = Case(name, work)
        try:
            label = RECIPES[name](case)
        except Exception as error:  # noqa: BLE001 - report and go on with the next case
            import traceback

            traceback.print_exc()
            results[name] = f"RECIPE FAILED: {error}"
            continue
        target = keep(case, out, label["expected"], label["fix_words"], label["how"], label["root_cause"])
        answer = "-" if args.no_diagnose else diagnose_category(target / "run")
        results[name] = f"{label['expected']:21s} diagnose: {answer}"
        print(f"[{time.monotonic() - began:5.1f}s] {name}: {results[name]}", flush=True)
    print(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
