"""Build the FIRST HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled.

    .venv/bin/python scripts/diagnosis_corpus/first_held_out.py --out tests/data/diagnosis_corpus/first_held_out [--only CASE ...]

These cases were written from the guides alone after the rules and evaluated once (top-1 70 %, see
benchmarks/README.md); the rules have been tuned on them since, so they now count as tuning cases.

Every case is one recipe that makes its failure happen for real with the project's own parts: the
simulated policy (`gym-pipeline serve-policy`, with injected faults), the built-in engine
(`gym-pipeline collect`), the real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` / `gym eval profile`,
inside a loopback-only network namespace, as tests/nemo_gym_driver.py does), the local, Docker and Slurm
launchers, real processes killed for real, a real tmpfs filled for real. The output of every command is
captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand.

Labels (`case.json`) come from what was injected, following the NeMo Gym debugging guide's classes.
The recipes never run the diagnosis.

The framework (Ctx, the `case` decorator, the driver) is in recipes.py, shared with held_out.py.
Needs root (unshare, mount), the Docker engine and the one-node Slurm of scripts/dev-services.sh, and
NeMo Gym 0.7.0 (GYM_PIPELINE_NEMO_GYM, default /root/.cache/gym-pipeline/nemo-gym/venv/bin/gym).
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from recipes import (  # noqa: E402
    GP,
    GYM,
    PY,
    Ctx,
    RecipeError,
    case,
    gym_model_args,
    launch,
    main,
    rows_of,
    text_of,
    user_resources_server,
    wait_for,
)

# =====================================================================================================
# healthy
# =====================================================================================================


@case("healthy_builtin_retried_faults", "healthy", [],
      "nothing is wrong: a handful of 429/5xx answers from the policy were retried by the built-in engine and "
      "every rollout then succeeded; the profile is complete")
def healthy_builtin_retried_faults(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 6, start=2)
    checkpoint = ctx.checkpoint("string_match", data)
    url, _ = ctx.policy(checkpoint, "--fault-rate 0.12 --fault-kinds 429,5xx --fault-seed 7 --retry-after-s 1")
    run = ctx.run
    ctx.sh(f"{GP} materialize --input {data} --num-repeats 3 --agent string_match_simple_agent "
           f"--output {run}/rollouts_materialized_inputs.jsonl", "logs/materialize.log")
    code = ctx.sh(f"{GP} collect --inputs {run}/rollouts_materialized_inputs.jsonl --output {run}/rollouts.jsonl "
                  f"--model-url {url} --env string_match --concurrency 4", "logs/collect.log")
    failures, rollouts = rows_of(run / "rollouts_failures.jsonl"), rows_of(run / "rollouts.jsonl")
    if code != 0 or len(rollouts) != 18 or not failures:
        raise RecipeError(f"wanted 18 rollouts after some retries, got exit {code}, {len(rollouts)} rollouts, "
                          f"{len(failures)} failed attempts")
    ctx.sh(f"{GP} profile --inputs {run}/rollouts_materialized_inputs.jsonl --rollouts {run}/rollouts.jsonl",
           "logs/profile.log")
    return (f"Built-in engine (local process) against the simulated policy serving a checkpoint, with 12% injected "
            f"faults (429 with Retry-After, 500/502/503; fault seed 7): 6 tasks x 3 repeats; {len(failures)} attempts "
            "failed and were retried, all 18 rollouts succeeded; then `gym-pipeline profile` (strict).")


@case("healthy_nemo_gym_ctrl_c_after_finish", "healthy", [],
      "nothing is wrong: the real NeMo Gym collected and profiled every rollout; the servers were stopped with "
      "Ctrl-C only after everything had finished, leaving shutdown noise in env_start.log", netns=True)
def healthy_nemo_gym_ctrl_c_after_finish(ctx: Ctx) -> str:
    data = ctx.dataset("mcqa", 4, start=3, folder=ctx.run, name="mcqa_tasks.jsonl")
    checkpoint = ctx.checkpoint("mcqa", data)
    url, policy = ctx.policy(checkpoint, "--latency-ms 50", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = ctx.gym_env_start(f"{gym_model_args(url, resources_server='mcqa')} {overrides}")
    run = ctx.run
    code = ctx.sh(f"{GYM} eval run --no-serve --agent mcqa_simple_agent --input {data} --output {run}/rollouts.jsonl "
                  f"--num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true {overrides}", "eval_run.log")
    if code != 0 or len(rows_of(run / "rollouts.jsonl")) != 12:
        raise RecipeError(f"gym eval run exited {code} with {len(rows_of(run / 'rollouts.jsonl'))} rollouts")
    ctx.sh(f"{GYM} eval profile --inputs {run}/rollouts_materialized_inputs.jsonl --rollouts {run}/rollouts.jsonl",
           "eval_profile.log")
    if not (run / "rollouts_reward_profiling.jsonl").exists():
        raise RecipeError("gym eval profile wrote no profile")
    time.sleep(2)
    ctx.note("then Ctrl-C (SIGINT to the foreground process group) on `gym env start`, and on the policy")
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 10)
    return ("Real NeMo Gym 0.7.0 (`gym env start` + `gym eval run --no-serve` + `gym eval profile`, run by hand in a "
            "loopback-only network namespace) on the mcqa resources server against the simulated policy (50 ms "
            "latency): 4 tasks x 3 repeats, all 12 rollouts and the reward profile written; then Ctrl-C on "
            "`gym env start` once everything had finished (shutdown noise in env_start.log).")


# =====================================================================================================
# infra
# =====================================================================================================


@case("infra_gym_head_port_taken", "infra", ["port"],
      "the Gym head server's port was already bound by another process, so `gym env start` could not start",
      netns=True)
def infra_gym_head_port_taken(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 3)
    checkpoint = ctx.checkpoint("string_match", data)
    url, _ = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    port = ctx.head_port
    # Another user's (or a stale) server already listens on the port the config gives the head server.
    squatter = ctx.bg(f"{PY} -m http.server {port} --bind 127.0.0.1", None)
    wait_for(lambda: socket.socket().connect_ex(("127.0.0.1", port)) == 0, 20, "the other server on the port")
    env_start = ctx.gym_env_start(f"{gym_model_args(url)} {overrides}", wait=False)
    log = ctx.run / "env_start.log"
    try:
        wait_for(lambda: env_start.poll() is not None or "servers ready" in text_of(log), 120, "gym env start to end")
    except RecipeError:
        pass
    if "servers ready" in text_of(log):
        raise RecipeError("gym env start got ready although its head port was taken")
    ctx.stop(env_start, signal.SIGINT, 15)
    ctx.stop(squatter, signal.SIGTERM, 5)
    return (f"Real NeMo Gym `gym env start ++head_server.port={port}` (loopback-only network namespace) while another "
            f"process (`python -m http.server {port}`) already listened on that port; env_start.log holds Gym's "
            f"output. The port clash is the only fault (the policy was up and healthy).")


@case("infra_output_tmpfs_full", "infra", ["space"],
      "the file system holding the output folder (a 40 KiB tmpfs) ran out of space while rollouts were being "
      "written (ENOSPC)")
def infra_output_tmpfs_full(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 8)
    checkpoint = ctx.checkpoint("string_match", data)
    url, _ = ctx.policy(checkpoint)
    results = ctx.run / "results"
    results.mkdir(parents=True)
    ctx.sh(f"mount -t tmpfs -o size=40k tmpfs {results}")
    try:
        ctx.sh(f"{GP} materialize --input {data} --num-repeats 3 --agent string_match_simple_agent "
               f"--output {results}/rollouts_materialized_inputs.jsonl", "logs/materialize.log")
        code = ctx.sh(f"{GP} collect --inputs {results}/rollouts_materialized_inputs.jsonl "
                      f"--output {results}/rollouts.jsonl --model-url {url} --env string_match --concurrency 4",
                      "logs/collect.log")
        ctx.sh(f"df -k {results}", "logs/df.log")
        kept = ctx.work / "results_copy"
        shutil.copytree(results, kept)
    finally:
        subprocess.run(["umount", str(results)], check=False)
    shutil.rmtree(results)
    shutil.copytree(kept, results)
    log = text_of(ctx.run / "logs" / "collect.log")
    if code == 0 or "No space left" not in log:
        raise RecipeError(f"collect exited {code} without ENOSPC:\n{log[-1500:]}")
    return ("Built-in engine: `gym-pipeline materialize` and `gym-pipeline collect` (8 tasks x 3 repeats) with the "
            "output folder RUN/results on a real 40 KiB tmpfs (`mount -t tmpfs -o size=40k`); the rollouts filled "
            "it and the write failed with ENOSPC. Logs were written outside the tmpfs (RUN/logs); the tmpfs "
            "content was copied back into RUN/results after unmounting.")


# =====================================================================================================
# model serving
# =====================================================================================================


@case("model_serving_policy_killed_midway", "model_serving", ["model"],
      "the model server (the policy Gym's vllm_model proxy talks to) died half way through the collection, so "
      "every later request failed to connect and the collection hung until it was interrupted", netns=True)
def model_serving_policy_killed_midway(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 6, start=4)
    checkpoint = ctx.checkpoint("string_match", data)
    url, policy = ctx.policy(checkpoint, "--latency-ms 700", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = ctx.gym_env_start(f"{gym_model_args(url)} {overrides}")
    run = ctx.run
    eval_run = ctx.bg(f"{GYM} eval run --no-serve --agent string_match_simple_agent --input {data} "
                      f"--output {run}/rollouts.jsonl --num-repeats 4 --concurrency 2 ++route_failures_to_sidecar=true "
                      f"{overrides}", "eval_run.log")
    log = run / "eval_run.log"
    wait_for(lambda: "Finished 8 / 24" in text_of(log) or eval_run.poll() is not None, 180, "8 rollouts")
    ctx.note("kill -9 <the policy server's pid>   (after 8 of 24 rollouts)")
    ctx.stop(policy, signal.SIGKILL, 1)
    # Gym's model proxy retries a refused connection forever: the run hangs until the user gives up.
    try:
        eval_run.wait(timeout=45)
    except subprocess.TimeoutExpired:
        ctx.note("45 s without progress: Ctrl-C on `gym eval run`, then on `gym env start`")
    ctx.stop(eval_run, signal.SIGINT, 30)
    ctx.stop(env_start, signal.SIGINT, 20)
    done, failed = rows_of(run / "rollouts.jsonl"), rows_of(run / "rollouts_failures.jsonl")
    if len(done) >= 24 or "ClientOSError" not in text_of(run / "env_start.log"):
        raise RecipeError(f"expected the proxy to fail to reach the policy: {len(done)} done, {len(failed)} failures")
    return (f"Real NeMo Gym (`gym env start` + `gym eval run --no-serve ++route_failures_to_sidecar=true`, 6 tasks x "
            f"4 repeats, concurrency 2, loopback-only namespace) against the simulated policy (700 ms latency); the "
            f"policy process was SIGKILLed once Gym reported 8 of 24 rollouts finished; Gym's vllm_model proxy then "
            f"retried the refused connections without end, and after 45 s the user pressed Ctrl-C on `gym eval run` and "
            f"`gym env start`. Result: {len(done)} rollouts, {len(failed)} failure rows in the sidecar.")


@case("model_serving_wrong_served_model_name", "model_serving", ["sim-policy"],
      "the collection asked for a model name the server does not serve (Qwen/Qwen3-8B instead of the served "
      "sim-policy), so every request got 404 model_not_found")
def model_serving_wrong_served_model_name(ctx: Ctx) -> str:
    from gym_pipeline.launchers.docker import DockerLauncher

    data = ctx.dataset("string_match", 4, start=10)
    checkpoint = ctx.checkpoint("string_match", data)
    url, _ = ctx.policy(checkpoint)
    run = ctx.run
    ctx.sh(f"{GP} materialize --input {data} --num-repeats 2 --agent string_match_simple_agent "
           f"--output {run}/rollouts_materialized_inputs.jsonl", "logs/materialize.log")
    argv = [str(GP), "collect", "--inputs", f"{run}/rollouts_materialized_inputs.jsonl", "--output",
            f"{run}/rollouts.jsonl", "--model-url", url, "--model", "Qwen/Qwen3-8B", "--env", "string_match",
            "--concurrency", "4"]
    ctx.note("DockerLauncher(network='host').run(StageLaunch('collect', " + ctx._shown(shlex.join(argv)) + "))")
    ended = launch(DockerLauncher(network="host"), "collect", argv, run)
    failures = rows_of(run / "rollouts_failures.jsonl")
    if not failures or any(f["_ng_failure_http_status"] != 404 for f in failures):
        raise RecipeError(f"expected 404s only: {ended}, {len(failures)} failures")
    return ("Built-in engine `gym-pipeline collect --model Qwen/Qwen3-8B` run in a Docker container by the project's "
            "DockerLauncher (network host) against the simulated policy, which serves the model `sim-policy`: every "
            f"request answered 404 model_not_found (terminal, not retried). Launcher: {ended}.")


# =====================================================================================================
# config
# =====================================================================================================


@case("config_unknown_agent_name", "config", ["string_match_agent"],
      "the materialized inputs name an agent (string_match_agent) that no loaded Gym config defines; the "
      "running agent is string_match_simple_agent", netns=True)
def config_unknown_agent_name(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 4, start=6)
    checkpoint = ctx.checkpoint("string_match", data)
    url, _ = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = ctx.gym_env_start(f"{gym_model_args(url)} {overrides}")
    run = ctx.run
    ctx.sh(f"{GP} materialize --input {data} --num-repeats 2 --agent string_match_agent "
           f"--output {run}/rollouts_materialized_inputs.jsonl", "materialize.log")
    code = ctx.sh(f"{GYM} eval run --no-serve --input {run}/rollouts_materialized_inputs.jsonl "
                  f"--output {run}/gym/rollouts.jsonl --concurrency 4 ++route_failures_to_sidecar=true {overrides}",
                  "eval_run.log")
    ctx.stop(env_start, signal.SIGINT, 20)
    if code == 0 and len(rows_of(run / "gym" / "rollouts.jsonl")) == 8:
        raise RecipeError("gym eval run collected everything with an unknown agent")
    return ("`gym-pipeline materialize --agent string_match_agent` (a typo of string_match_simple_agent) wrote the "
            "inputs' agent_ref; the real NeMo Gym `gym eval run --no-serve` on them against a healthy "
            f"`gym env start` (string_match, loopback-only namespace) exited {code}.")


@case("config_missing_config_file", "config", ["string_match_local.yaml"],
      "`gym env start --config` names a config file (configs/string_match_local.yaml) that does not exist",
      netns=True)
def config_missing_config_file(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 3)
    checkpoint = ctx.checkpoint("string_match", data)
    url, _ = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = ctx.gym_env_start(f"--config configs/string_match_local.yaml --model-type vllm_model "
                                  f"--model sim-policy --model-url {url} --model-api-key dummy {overrides}", wait=False)
    log = ctx.run / "env_start.log"
    try:
        wait_for(lambda: env_start.poll() is not None or "servers ready" in text_of(log), 120, "gym env start to end")
    except RecipeError:
        pass
    ready = "servers ready" in text_of(log)
    ctx.stop(env_start, signal.SIGINT, 15)
    if ready:
        raise RecipeError("gym env start got ready with a missing config file")
    return ("Real NeMo Gym `gym env start --config configs/string_match_local.yaml ...` (the file does not exist; "
            "the policy was up) in a loopback-only namespace; env_start.log holds Gym's output. Nothing was "
            "collected.")


# =====================================================================================================
# data / schema
# =====================================================================================================


@case("data_schema_expected_answer_wrong_type", "data_schema", ["expected_answer"],
      "two dataset rows carry expected_answer as a number instead of a string, so Gym's string_match verify "
      "request model rejects them (422)", netns=True)
def data_schema_expected_answer_wrong_type(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 5, start=0, folder=ctx.run, name="tasks.jsonl")
    checkpoint = ctx.checkpoint("string_match", data)
    # The user's export turned numeric answers into JSON numbers: "36" -> 36.
    rows = rows_of(data)
    edited = 0
    for row in rows:
        if row["expected_answer"].isdigit():
            row["expected_answer"] = int(row["expected_answer"])
            edited += 1
    if edited < 1:
        raise RecipeError("no numeric answer to turn into a number")
    data.write_text("".join(json.dumps(row) + "\n" for row in rows))
    url, _ = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = ctx.gym_env_start(f"{gym_model_args(url)} {overrides}")
    run = ctx.run
    code = ctx.sh(f"{GYM} eval run --no-serve --agent string_match_simple_agent --input {data} "
                  f"--output {run}/rollouts.jsonl --num-repeats 2 --concurrency 4 ++route_failures_to_sidecar=true "
                  f"{overrides}", "eval_run.log")
    ctx.stop(env_start, signal.SIGINT, 20)
    failed = rows_of(run / "rollouts_failures.jsonl")
    if not failed:
        raise RecipeError(f"no failures (exit {code})")
    return (f"The first 5 string_match rows, {edited} of them with expected_answer turned from a string into a JSON "
            "number (as a careless export does), collected with the real NeMo Gym (`gym env start` + `gym eval run "
            f"--no-serve ++route_failures_to_sidecar=true`, 2 repeats, loopback-only namespace); exit {code}, "
            f"{len(failed)} failure rows.")


@case("data_schema_missing_field_slurm", "data_schema", ["expected_answer"],
      "three dataset rows have no expected_answer field (renamed to `answer` by a conversion script), so the "
      "verifier cannot score them")
def data_schema_missing_field_slurm(ctx: Ctx) -> str:
    from gym_pipeline.launchers.slurm import SlurmLauncher

    data = ctx.dataset("string_match", 6, start=8)
    checkpoint = ctx.checkpoint("string_match", data)
    rows = rows_of(data)
    for row in rows[1::2]:
        row["answer"] = row.pop("expected_answer")
    data.write_text("".join(json.dumps(row) + "\n" for row in rows))
    url, _ = ctx.policy(checkpoint)
    run = ctx.run
    ctx.sh(f"{GP} materialize --input {data} --num-repeats 2 --agent string_match_simple_agent "
           f"--output {run}/rollouts_materialized_inputs.jsonl", "logs/materialize.log")
    argv = [str(GP), "collect", "--inputs", f"{run}/rollouts_materialized_inputs.jsonl", "--output",
            f"{run}/rollouts.jsonl", "--model-url", url, "--env", "string_match", "--concurrency", "4"]
    ctx.note("SlurmLauncher().run(StageLaunch('collect', " + ctx._shown(shlex.join(argv)) + "))")
    ended = launch(SlurmLauncher(poll_interval_s=0.5), "collect", argv, run)
    ctx.sh(f"{GP} profile --inputs {run}/rollouts_materialized_inputs.jsonl --rollouts {run}/rollouts.jsonl",
           "logs/profile.log")
    rollouts = rows_of(run / "rollouts.jsonl")
    if not any(r.get("failure_kind") for r in rollouts):
        raise RecipeError(f"no row was refused by the verifier ({ended})")
    return ("6 string_match rows, every second one with `expected_answer` renamed to `answer`; materialized (2 "
            "repeats) and collected with the built-in engine as a Slurm job (the project's SlurmLauncher on the "
            f"one-node Slurm) against the simulated policy; launcher: {ended}; then `gym-pipeline profile`.")


# =====================================================================================================
# verifier / runtime
# =====================================================================================================

FUZZY_APP_PATCH = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        from rapidfuzz import fuzz  # optional dependency, imported where it is used

        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = fuzz.ratio(extracted.lower(), body.expected_answer.lower()) / 100.0
'''


def fuzzy_match_server(ctx: Ctx, name: str = "fuzzy_match") -> Path:
    """A user's own resources server, copied from Gym's string_match, with a verify that imports rapidfuzz."""

    def patch(app: str) -> str:
        start = app.index("    async def verify(self, body: StringMatchVerifyRequest)")
        end = app.index("        return StringMatchVerifyResponse(", start)
        return app[:start] + FUZZY_APP_PATCH.lstrip("\n") + "\n" + app[end:]

    # the server runs from Gym's venv like the others (which has no rapidfuzz)
    return user_resources_server(ctx, name, "string_match", patch, requirements="fastapi\nrapidfuzz\n")


@case("verifier_runtime_missing_module", "verifier_runtime", ["rapidfuzz"],
      "the custom fuzzy_match resources server imports rapidfuzz inside verify, and rapidfuzz is not installed "
      "in the server's venv, so every verify call raises ModuleNotFoundError", netns=True)
def verifier_runtime_missing_module(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 4, start=12)
    checkpoint = ctx.checkpoint("string_match", data)
    url, _ = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    search = fuzzy_match_server(ctx)
    ctx.note("(copied Gym's resources_servers/string_match to WORK/my_gym/resources_servers/fuzzy_match, verify "
             "now does `from rapidfuzz import fuzz`)")
    env_start = ctx.gym_env_start(f"--search-dir {search} {gym_model_args(url, resources_server='fuzzy_match')} "
                                  f"{overrides}")
    run = ctx.run
    code = ctx.sh(f"{GYM} eval run --no-serve --search-dir {search} --agent fuzzy_match_simple_agent --input {data} "
                  f"--output {run}/rollouts.jsonl --num-repeats 2 --concurrency 4 ++route_failures_to_sidecar=true "
                  f"{overrides}", "eval_run.log")
    ctx.stop(env_start, signal.SIGINT, 20)
    log = text_of(run / "env_start.log") + text_of(run / "eval_run.log")
    if "rapidfuzz" not in log:
        raise RecipeError(f"no rapidfuzz error in the logs (exit {code})")
    return ("A user's resources server fuzzy_match (Gym's string_match copied under a --search-dir, verify doing "
            "`from rapidfuzz import fuzz`; rapidfuzz not installed) served by the real `gym env start` "
            f"(loopback-only namespace); `gym eval run --no-serve` on 4 tasks x 2 repeats exited {code}.")


NUMERIC_VERIFIER = '''
"""Our numeric-tolerance verifier for the built-in engine: answers within 1% count as correct."""
import asyncio
import math
import sys
from pathlib import Path

from gym_pipeline.engines.builtin import CollectorSettings, collect
from gym_pipeline.environments import StringMatchEnvironment
from gym_pipeline.environments.string_match import extract_answer


class NumericMatch(StringMatchEnvironment):
    name = "string_match"

    def verify(self, row, response_text):
        extracted = extract_answer(response_text, row.get("extraction_mode", "final_answer"))
        got, want = float(extracted.replace(",", "")), float(row["expected_answer"])
        reward = 1.0 if math.isclose(got, want, rel_tol=0.01) else 0.0
        return self.verdict(reward, expected_answer=row["expected_answer"], extracted_answer=extracted)


inputs, output, url = sys.argv[1:4]
summary = asyncio.run(collect(Path(inputs), Path(output), NumericMatch(), CollectorSettings(model_url=url, concurrency=4)))
print(f"{summary.collected} collected, {summary.failed} failed of {summary.total} in {summary.elapsed_s:.1f}s")
'''


@case("verifier_runtime_numeric_verifier_raises", "verifier_runtime", ["float"],
      "the user's numeric verifier calls float() on every extracted answer and raises ValueError (or "
      "AttributeError on None) for non-numeric or missing answers")
def verifier_runtime_numeric_verifier_raises(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 8, start=0)
    checkpoint = ctx.checkpoint("string_match", data)
    url, _ = ctx.policy(checkpoint)
    script = ctx.work / "collect_numeric.py"
    script.write_text(NUMERIC_VERIFIER.lstrip("\n"))
    run = ctx.run
    ctx.sh(f"{GP} materialize --input {data} --num-repeats 2 --agent string_match_simple_agent "
           f"--output {run}/rollouts_materialized_inputs.jsonl", "logs/materialize.log")
    code = ctx.sh(f"{PY} {script} {run}/rollouts_materialized_inputs.jsonl {run}/rollouts.jsonl {url}",
                  "logs/collect.log")
    ctx.sh(f"{GP} profile --inputs {run}/rollouts_materialized_inputs.jsonl --rollouts {run}/rollouts.jsonl",
           "logs/profile.log")
    errors = [r for r in rows_of(run / "rollouts.jsonl") if r.get("failure_kind")]
    if code != 0 or not errors:
        raise RecipeError(f"exit {code}, {len(errors)} verifier errors")
    return ("The built-in engine's collector (`gym_pipeline.engines.builtin.collect`) driven by a user's script "
            "whose environment subclass verifies with float(extracted) (see collect_numeric.py in `how`); 8 "
            "string_match tasks x 2 repeats, half of them non-numeric answers, against the simulated policy; "
            f"{len(errors)} rollouts came back as masked verifier_error rows; then `gym-pipeline profile`.")


# =====================================================================================================
# cache / resume
# =====================================================================================================


@case("cache_resume_gym_resume_after_data_edit", "cache_resume", ["materialized"],
      "`gym eval run --resume` reused rollouts_materialized_inputs.jsonl built from the old data after the "
      "dataset's answers were corrected and a task added, so the run collected against stale inputs",
      netns=True)
def cache_resume_gym_resume_after_data_edit(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 4, start=1, folder=run, name="train_subset.jsonl")
    extra = ctx.dataset("string_match", 1, start=14, name="extra.jsonl")
    both = ctx.work / "both.jsonl"
    both.write_text(data.read_text() + extra.read_text())
    checkpoint = ctx.checkpoint("string_match", both)
    url, policy = ctx.policy(checkpoint, "--latency-ms 1500", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = ctx.gym_env_start(f"{gym_model_args(url)} {overrides}")
    command = (f"{GYM} eval run --no-serve --agent string_match_simple_agent --input {data} "
               f"--output {run}/results/rollouts.jsonl --num-repeats 3 --concurrency 2 "
               f"++route_failures_to_sidecar=true {overrides}")
    first = ctx.bg(command, "eval_run.log")
    wait_for(lambda: "Finished 5 / 12" in text_of(run / "eval_run.log") or first.poll() is not None, 180,
             "5 rollouts")
    ctx.note("kill -9 on that `gym eval run` (its process group) once it reported 5 of 12 rollouts")
    ctx.stop(first, signal.SIGKILL, 1)
    before = len(rows_of(run / "results" / "rollouts.jsonl"))
    if before >= 12:
        raise RecipeError("the first collection finished before it was killed")
    # The user fixes two answers and adds a task, then resumes.
    lines = data.read_text().splitlines(keepends=True)
    fixed = []
    for line in lines[:2]:
        row = json.loads(line)
        row["expected_answer"] = row["expected_answer"] + " (corrected)"
        row["case_sensitive"] = True
        fixed.append(json.dumps(row) + "\n")
    data.write_text("".join(fixed + lines[2:]) + extra.read_text())
    ctx.note("edited RUN/train_subset.jsonl: expected_answer and case_sensitive of rows 1-2 changed, one task appended")
    code = ctx.sh(command + " --resume", "eval_run_resume.log")
    ctx.stop(env_start, signal.SIGINT, 20)
    ctx.stop(policy, signal.SIGINT, 5)
    materialized = rows_of(run / "results" / "rollouts_materialized_inputs.jsonl")
    if len(materialized) != 12:
        raise RecipeError(f"--resume rebuilt the inputs ({len(materialized)} rows), exit {code}")
    after = len(rows_of(run / "results" / "rollouts.jsonl"))
    return ("Real NeMo Gym (loopback-only namespace, policy latency 1.5 s): `gym eval run --no-serve` on "
            "RUN/train_subset.jsonl (4 tasks x 3 repeats, concurrency 2) killed with SIGKILL once it reported 5 of 12 "
            f"rollouts ({before} rows in rollouts.jsonl); the dataset was then edited (two answers changed, "
            "case_sensitive set, a fifth task appended) and the same command run again with `--resume` (exit "
            f"{code}), which reused the old materialized inputs (still {len(materialized)} rows for 4 tasks) and "
            f"finished with {after} rollouts. No manifest of ours: only Gym's own folder.")


@case("cache_resume_killed_collection", "cache_resume", ["--resume"],
      "the collection was killed (SIGKILL) mid-write, leaving a partial rollouts.jsonl, and the strict profile "
      "then failed on the missing rollouts; nothing was resumed")
def cache_resume_killed_collection(ctx: Ctx) -> str:
    from gym_pipeline.launchers.local import LocalLauncher

    data = ctx.dataset("mcqa", 6)
    checkpoint = ctx.checkpoint("mcqa", data)
    url, _ = ctx.policy(checkpoint, "--latency-ms 400")
    run = ctx.run
    ctx.sh(f"{GP} materialize --input {data} --num-repeats 4 --agent mcqa_simple_agent "
           f"--output {run}/rollouts_materialized_inputs.jsonl", "logs/materialize.log")
    argv = [str(GP), "collect", "--inputs", f"{run}/rollouts_materialized_inputs.jsonl", "--output",
            f"{run}/rollouts.jsonl", "--model-url", url, "--env", "mcqa", "--concurrency", "2"]
    ctx.note("LocalLauncher().run(StageLaunch('collect', " + ctx._shown(shlex.join(argv)) + "))")
    result: dict = {}
    worker = threading.Thread(target=lambda: result.update(ended=launch(LocalLauncher(), "collect", argv, run)))
    worker.start()
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 9, 120, "9 rollouts")
    state = json.loads((run / "logs" / "launcher.json").read_text())
    ctx.note(f"kill -9 -{state['pid']}   (the collect process group, after 9 of 24 rollouts)")
    os.killpg(state["pid"], signal.SIGKILL)
    worker.join(60)
    code = ctx.sh(f"{GP} profile --inputs {run}/rollouts_materialized_inputs.jsonl --rollouts {run}/rollouts.jsonl",
                  "logs/profile.log")
    got = len(rows_of(run / "rollouts.jsonl"))
    if code == 0 or got >= 24:
        raise RecipeError(f"profile exited {code} with {got} rollouts")
    return ("Built-in engine `gym-pipeline collect` (mcqa, 6 tasks x 4 repeats, concurrency 2, policy latency 400 ms) "
            "run by the project's LocalLauncher; its process group was SIGKILLed after 9 rollouts were written "
            f"(launcher: {result.get('ended')}); then the strict `gym-pipeline profile` exited {code}. "
            f"{got} of 24 rollouts on disk.")


@case("cache_resume_two_gym_writers_one_output", "cache_resume", ["--output"],
      "two `gym eval run` jobs (two shards) wrote the same --output path at the same time and overwrote each "
      "other's materialized inputs and rollouts", netns=True)
def cache_resume_two_gym_writers_one_output(ctx: Ctx) -> str:
    run = ctx.run
    shard_a = ctx.dataset("string_match", 3, start=0, folder=run, name="shard_a.jsonl")
    shard_b = ctx.dataset("string_match", 4, start=3, folder=run, name="shard_b.jsonl")
    both = ctx.work / "both.jsonl"
    both.write_text(shard_a.read_text() + shard_b.read_text())
    checkpoint = ctx.checkpoint("string_match", both)
    url, _ = ctx.policy(checkpoint, "--latency-ms 300", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = ctx.gym_env_start(f"{gym_model_args(url)} {overrides}")
    jobs = []
    for shard, repeats in ((shard_a, 4), (shard_b, 3)):
        jobs.append(ctx.bg(f"{GYM} eval run --no-serve --agent string_match_simple_agent --input {shard} "
                           f"--output {run}/results/rollouts.jsonl --num-repeats {repeats} --concurrency 2 "
                           f"++route_failures_to_sidecar=true {overrides}", f"eval_run_{shard.stem}.log"))
        time.sleep(3)
    for job in jobs:
        job.wait(timeout=600)
    ctx.stop(env_start, signal.SIGINT, 20)
    return ("Real NeMo Gym (loopback-only namespace): two `gym eval run --no-serve` jobs started 3 s apart on one "
            "`gym env start`, shard_a (3 tasks x 4 repeats) and shard_b (4 tasks x 3 repeats), both with "
            f"--output RUN/results/rollouts.jsonl (exit codes {[job.returncode for job in jobs]}); each wrote its "
            "materialized inputs and rollouts over the other's.")


# =====================================================================================================
# throughput / resources
# =====================================================================================================


@case("throughput_429_concurrency_80_slow_policy", "throughput_resources", ["concurrency"],
      "the collection ran at concurrency 80 against a slow endpoint (1.5 s per answer) that rate-limits: most "
      "requests got 429 Too Many Requests until the attempts ran out")
def throughput_429_concurrency_80_slow_policy(ctx: Ctx) -> str:
    data = ctx.dataset("mcqa", 10, start=2)
    checkpoint = ctx.checkpoint("mcqa", data)
    url, _ = ctx.policy(checkpoint, "--latency-ms 1500 --fault-rate 0.75 --fault-kinds 429 --retry-after-s 2 "
                                    "--fault-seed 3")
    run = ctx.run
    ctx.sh(f"{GP} materialize --input {data} --num-repeats 4 --agent mcqa_simple_agent "
           f"--output {run}/rollouts_materialized_inputs.jsonl", "logs/materialize.log")
    code = ctx.sh(f"{GP} collect --inputs {run}/rollouts_materialized_inputs.jsonl --output {run}/rollouts.jsonl "
                  f"--model-url {url} --env mcqa --concurrency 80", "logs/collect.log")
    ctx.sh(f"{GP} profile --allow-partial --inputs {run}/rollouts_materialized_inputs.jsonl "
           f"--rollouts {run}/rollouts.jsonl", "logs/profile.log")
    failures = rows_of(run / "rollouts_failures.jsonl")
    if not any(f.get("_ng_failure_terminal") for f in failures):
        raise RecipeError(f"no rollout ran out of attempts (exit {code})")
    return ("Built-in engine `gym-pipeline collect --concurrency 80` (mcqa, 10 tasks x 4 repeats) against the "
            "simulated policy with 1.5 s latency and injected rate limiting (75% of requests answered 429 with "
            f"Retry-After 2); exit {code}, {len(failures)} failed attempts; then `gym-pipeline profile --allow-partial`.")


@case("throughput_docker_profile_oom", "throughput_resources", ["memory"],
      "the profile stage ran in a Docker container limited to 24 MiB (no swap) and was OOM-killed (exit 137)")
def throughput_docker_profile_oom(ctx: Ctx) -> str:
    from gym_pipeline.launchers.docker import DockerLauncher

    data = ctx.dataset("string_match", 5, start=9)
    checkpoint = ctx.checkpoint("string_match", data)
    url, _ = ctx.policy(checkpoint)
    run = ctx.run
    ctx.sh(f"{GP} materialize --input {data} --num-repeats 2 --agent string_match_simple_agent "
           f"--output {run}/rollouts_materialized_inputs.jsonl", "logs/materialize.log")
    ctx.sh(f"{GP} collect --inputs {run}/rollouts_materialized_inputs.jsonl --output {run}/rollouts.jsonl "
           f"--model-url {url} --env string_match --concurrency 4", "logs/collect.log")
    argv = [str(GP), "profile", "--inputs", f"{run}/rollouts_materialized_inputs.jsonl", "--rollouts",
            f"{run}/rollouts.jsonl"]
    ctx.note("DockerLauncher(network='none', memory_mb=24).run(StageLaunch('profile', "
             + ctx._shown(shlex.join(argv)) + "))")
    ended = launch(DockerLauncher(network="none", memory_mb=24), "profile", argv, run)
    state = json.loads((run / "logs" / "launcher.json").read_text())
    if not state.get("oom_killed"):
        raise RecipeError(f"not OOM-killed: {ended}")
    return ("Built-in collection (5 tasks x 2 repeats, complete), then the profile stage `gym-pipeline profile` run in "
            f"a Docker container by the project's DockerLauncher with memory_mb=24 (no swap): {ended}.")


@case("throughput_slurm_time_limit", "throughput_resources", ["time_limit"],
      "the collection ran as a Slurm job with a 1-minute time limit against a slow endpoint (3 s per answer, "
      "concurrency 1) and was killed by Slurm at the limit (TIMEOUT) before it finished")
def throughput_slurm_time_limit(ctx: Ctx) -> str:
    from gym_pipeline.launchers.slurm import SlurmLauncher

    data = ctx.dataset("string_match", 8, start=3)
    checkpoint = ctx.checkpoint("string_match", data)
    url, _ = ctx.policy(checkpoint, "--latency-ms 3000")
    run = ctx.run
    ctx.sh(f"{GP} materialize --input {data} --num-repeats 5 --agent string_match_simple_agent "
           f"--output {run}/rollouts_materialized_inputs.jsonl", "logs/materialize.log")
    argv = [str(GP), "collect", "--inputs", f"{run}/rollouts_materialized_inputs.jsonl", "--output",
            f"{run}/rollouts.jsonl", "--model-url", url, "--env", "string_match", "--concurrency", "1"]
    ctx.note("SlurmLauncher(time_limit='1').run(StageLaunch('collect', " + ctx._shown(shlex.join(argv)) + "))")
    ended = launch(SlurmLauncher(time_limit="1", poll_interval_s=1.0), "collect", argv, run)
    state = json.loads((run / "logs" / "launcher.json").read_text())
    if not (state.get("slurm_state") or "").startswith("TIMEOUT"):
        raise RecipeError(f"the job did not time out: {ended}")
    return ("Built-in engine `gym-pipeline collect --concurrency 1` (8 tasks x 5 repeats) as a Slurm job through the "
            "project's SlurmLauncher with time_limit='1' (sbatch --time=1) against the simulated policy with 3 s "
            f"latency; Slurm ended it at the limit: {ended}.")


# =====================================================================================================
# more instances (second round)
# =====================================================================================================


@case("healthy_slurm_slow_start_retried", "healthy", [],
      "nothing is wrong: the model server was still loading for a couple of seconds when the Slurm job began, the "
      "built-in engine retried its 503 and then collected every rollout")
def healthy_slurm_slow_start_retried(ctx: Ctx) -> str:
    from gym_pipeline.launchers.slurm import SlurmLauncher

    data = ctx.dataset("mcqa", 5, start=8)
    checkpoint = ctx.checkpoint("mcqa", data)
    run = ctx.run
    ctx.sh(f"{GP} materialize --input {data} --num-repeats 3 --agent mcqa_simple_agent "
           f"--output {run}/rollouts_materialized_inputs.jsonl", "logs/materialize.log")
    url, _ = ctx.policy(checkpoint, "--slow-start-s 2.5")
    argv = [str(GP), "collect", "--inputs", f"{run}/rollouts_materialized_inputs.jsonl", "--output",
            f"{run}/rollouts.jsonl", "--model-url", url, "--env", "mcqa", "--concurrency", "4"]
    ctx.note("SlurmLauncher(time_limit='10').run(StageLaunch('collect', " + ctx._shown(shlex.join(argv)) + "))")
    ended = launch(SlurmLauncher(time_limit="10", poll_interval_s=0.5), "collect", argv, run)
    ctx.sh(f"{GP} profile --inputs {run}/rollouts_materialized_inputs.jsonl --rollouts {run}/rollouts.jsonl",
           "logs/profile.log")
    if len(rows_of(run / "rollouts.jsonl")) != 15 or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise RecipeError(f"not a complete run: {ended}")
    return ("Built-in engine `gym-pipeline collect` (mcqa, 5 tasks x 3 repeats) as a Slurm job (the project's "
            "SlurmLauncher, time_limit 10 min) started right after the simulated policy began listening with a 2.5 s "
            "slow start (503 model_not_ready with Retry-After on every route meanwhile), so the engine's model discovery "
            f"met the loading server and waited it out; then all 15 rollouts succeeded ({ended}); then "
            "`gym-pipeline profile` (strict, complete).")


@case("model_serving_never_ready_slow_start", "model_serving", ["ready"],
      "the model server was still loading (503 model_not_ready on /v1/models, slow start of 10 minutes) when the "
      "collection started, and never became ready within the engine's attempts")
def model_serving_never_ready_slow_start(ctx: Ctx) -> str:
    from gym_pipeline.launchers.local import LocalLauncher

    data = ctx.dataset("string_match", 4, start=5)
    checkpoint = ctx.checkpoint("string_match", data)
    run = ctx.run
    ctx.sh(f"{GP} materialize --input {data} --num-repeats 2 --agent string_match_simple_agent "
           f"--output {run}/rollouts_materialized_inputs.jsonl", "logs/materialize.log")
    url, _ = ctx.policy(checkpoint, "--slow-start-s 600")
    argv = [str(GP), "collect", "--inputs", f"{run}/rollouts_materialized_inputs.jsonl", "--output",
            f"{run}/rollouts.jsonl", "--model-url", url, "--env", "string_match", "--concurrency", "8"]
    ctx.note("LocalLauncher().run(StageLaunch('collect', " + ctx._shown(shlex.join(argv)) + "))")
    ended = launch(LocalLauncher(), "collect", argv, run)
    if "503" not in text_of(run / "logs" / "collect.log"):
        raise RecipeError(f"no 503 in the collect log: {ended}")
    return ("The simulated policy started with --slow-start-s 600 (like a vLLM still loading weights: 503 "
            "model_not_ready with Retry-After on every route), and the built-in engine `gym-pipeline collect` was run "
            f"at once by the project's LocalLauncher; model discovery gave up after its attempts: {ended}.")


@case("config_unknown_environment_slurm", "config", ["string_match"],
      "the collect command was given --env string-match, an environment name that does not exist (the bundled one "
      "is string_match)")
def config_unknown_environment_slurm(ctx: Ctx) -> str:
    from gym_pipeline.launchers.slurm import SlurmLauncher

    data = ctx.dataset("string_match", 4, start=11)
    checkpoint = ctx.checkpoint("string_match", data)
    url, _ = ctx.policy(checkpoint)
    run = ctx.run
    ctx.sh(f"{GP} materialize --input {data} --num-repeats 2 --agent string_match_simple_agent "
           f"--output {run}/rollouts_materialized_inputs.jsonl", "logs/materialize.log")
    argv = [str(GP), "collect", "--inputs", f"{run}/rollouts_materialized_inputs.jsonl", "--output",
            f"{run}/rollouts.jsonl", "--model-url", url, "--env", "string-match", "--concurrency", "4"]
    ctx.note("SlurmLauncher().run(StageLaunch('collect', " + ctx._shown(shlex.join(argv)) + "))")
    ended = launch(SlurmLauncher(poll_interval_s=0.5), "collect", argv, run)
    if "unknown environment" not in text_of(run / "logs" / "collect.log"):
        raise RecipeError(f"no unknown-environment error: {ended}")
    return ("Built-in engine `gym-pipeline collect --env string-match` (a typo of string_match) submitted as a Slurm "
            f"job by the project's SlurmLauncher on healthy inputs and a healthy policy: {ended}.")


@case("infra_slurm_partition_missing", "infra", ["partition"],
      "the Slurm job was submitted to a partition (gpu_eval) that does not exist on the cluster, so sbatch refused "
      "it and nothing ran")
def infra_slurm_partition_missing(ctx: Ctx) -> str:
    from gym_pipeline.launchers.slurm import SlurmLauncher

    data = ctx.dataset("mcqa", 4, start=12)
    checkpoint = ctx.checkpoint("mcqa", data)
    url, _ = ctx.policy(checkpoint)
    run = ctx.run
    ctx.sh(f"{GP} materialize --input {data} --num-repeats 2 --agent mcqa_simple_agent "
           f"--output {run}/rollouts_materialized_inputs.jsonl", "logs/materialize.log")
    argv = [str(GP), "collect", "--inputs", f"{run}/rollouts_materialized_inputs.jsonl", "--output",
            f"{run}/rollouts.jsonl", "--model-url", url, "--env", "mcqa", "--concurrency", "4"]
    ctx.note("SlurmLauncher(partition='gpu_eval').run(StageLaunch('collect', " + ctx._shown(shlex.join(argv)) + "))")
    ended = launch(SlurmLauncher(partition="gpu_eval", poll_interval_s=0.5), "collect", argv, run)
    ctx.sh("sinfo", "logs/sinfo.log")
    state = json.loads((run / "logs" / "launcher.json").read_text())
    if not state.get("launch_error"):
        raise RecipeError(f"sbatch did not refuse the job: {ended}")
    return ("Built-in engine `gym-pipeline collect` (mcqa) submitted through the project's SlurmLauncher with "
            f"partition='gpu_eval' to the one-node Slurm whose only partition is `debug`: {ended}. `sinfo` output "
            "kept in logs/sinfo.log.")


NO_REWARD_PATCH = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        score = None
        if extracted is not None and body.expected_answer:
            score = _answers_match(extracted, body.expected_answer, body.case_sensitive)
        # v2 schema: the score travels in `metrics` (the trainer reads it from there)
        return StringMatchVerifyResponse.model_construct(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            metrics={"score": score},
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )


if __name__ == "__main__":
    StringMatchResourcesServer.run_webserver()
'''


@case("verifier_runtime_verify_returns_no_reward", "verifier_runtime", ["reward"],
      "the custom resources server's verify returns a response without the required `reward` field (it moved the "
      "score into `metrics`), so Gym cannot build a verify response for any rollout", netns=True)
def verifier_runtime_verify_returns_no_reward(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 4, start=3)
    checkpoint = ctx.checkpoint("string_match", data)
    url, _ = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    search = fuzzy_match_server(ctx, "score_match")
    app = search / "resources_servers" / "score_match" / "app.py"
    text = app.read_text()
    start = text.index("    async def verify(self, body: StringMatchVerifyRequest)")
    app.write_text(text[:start] + NO_REWARD_PATCH.lstrip("\n"))
    (app.parent / "requirements.txt").write_text("-e nemo-gym[dev] @ ../../\nfastapi\n")
    ctx.note("(copied Gym's resources_servers/string_match to WORK/my_gym/resources_servers/score_match; its verify "
             "now returns the score in `metrics` and no `reward`, built with model_construct)")
    env_start = ctx.gym_env_start(f"--search-dir {search} {gym_model_args(url, resources_server='score_match')} "
                                  f"{overrides}")
    run = ctx.run
    code = ctx.sh(f"{GYM} eval run --no-serve --search-dir {search} --agent score_match_simple_agent --input {data} "
                  f"--output {run}/rollouts.jsonl --num-repeats 2 --concurrency 4 ++route_failures_to_sidecar=true "
                  f"{overrides}", "eval_run.log")
    ctx.stop(env_start, signal.SIGINT, 20)
    if len(rows_of(run / "rollouts.jsonl")) == 8 and all("reward" in r for r in rows_of(run / "rollouts.jsonl")):
        raise RecipeError(f"every rollout has a reward (exit {code})")
    return ("A user's resources server score_match (Gym's string_match copied under a --search-dir, verify returning "
            "`metrics: {score}` and no `reward`) served by the real `gym env start` (loopback-only namespace); "
            f"`gym eval run --no-serve` on 4 tasks x 2 repeats exited {code}.")


if __name__ == "__main__":
    sys.exit(main("first_held_out", __file__, __doc__))
