"""Build the SECOND HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled.

    .venv/bin/python scripts/diagnosis_corpus/second_held_out.py --out tests/data/diagnosis_corpus/second_held_out [--only CASE ...]

Measured once on 2026-12-01 (top-1 61 %, see benchmarks/README.md), then tuned on: these cases now count
as tuning cases.

These cases were written from the guides alone (the NeMo Gym debugging guide, the reward profiling guide, the
task-folder troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), after the diagnosis rules
and without reading them. They measure, once, how well `gym-pipeline diagnose` names root causes on failures
its rules were never written against: they are never tuned on.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated
policy (`gym-pipeline serve-policy`, with injected faults and a bounded capacity), the built-in engine
(`gym-pipeline materialize`, `collect`, `profile`, `stage`), the real NeMo Gym 0.7.0 (`gym env start` /
`gym eval run` / `gym eval profile`, inside a loopback-only network namespace, as tests/nemo_gym_driver.py
does), the local, Docker and Slurm launchers, real processes interrupted or killed, a real tmpfs filled or
made read-only, a real Slurm node drained, real bad config and data files, users' own verifiers. The output
of every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is
written by hand. Each case injects one cause; the failures differ from those of the tuning and first
held-out sets, or reach the same kind of failure by another path.

Labels (`case.json`) come from what was injected, following the NeMo Gym debugging guide's classes: the class
of the root cause (what the user must change), not of its consequences. The recipes never run the diagnosis.

The framework (Ctx, the `case` decorator, the driver) is in recipes.py. Needs root (unshare, mount), the
Docker engine and the one-node Slurm of scripts/dev-services.sh, and NeMo Gym 0.7.0 (GYM_PIPELINE_NEMO_GYM,
default /root/.cache/gym-pipeline/nemo-gym/venv/bin/gym).
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
from recipes import (  # noqa: E402
    GP,
    GYM,
    PY,
    Ctx,
    RecipeError,
    case,
    collect_argv,
    finished,
    gym_eval,
    gym_model_args,
    launch,
    launched,
    launcher_state,
    main,
    materialize,
    profile_argv,
    replace_verify,
    rewrite_rows,
    rows_of,
    text_of,
    unique_keys,
    user_resources_server,
    wait_for,
)

from gym_pipeline.host import free_loopback_port  # noqa: E402

# --- helpers of this set ------------------------------------------------------------------------------


def checkpoints(ctx: Ctx, env: str, dataset: Path) -> list[Path]:
    """Two simulated checkpoints that know `dataset`'s prompts: step_0100 (skill 0.3) and step_0200 (0.575)."""
    from gym_pipeline.environments import McqaEnvironment, StringMatchEnvironment
    from gym_pipeline.serving.checkpoints import demo_checkpoints

    environment = {"string_match": StringMatchEnvironment, "mcqa": McqaEnvironment}[env](dataset)
    return demo_checkpoints(ctx.work / "checkpoints", 2, [environment])


# =====================================================================================================
# healthy
# =====================================================================================================


@case("healthy_gym_interrupted_then_resumed", "healthy", [],
      "nothing is wrong: a real NeMo Gym collection was interrupted with Ctrl-C, resumed with --resume on the very "
      "same data and settings, completed, and was profiled", netns=True)
def healthy_gym_interrupted_then_resumed(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=5, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 700", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = ctx.gym_env_start(f"{gym_model_args(url)} {overrides}")
    args = (f"--agent string_match_simple_agent --input {data} --output {run}/results/rollouts.jsonl "
            "--num-repeats 3 --concurrency 2")
    first = gym_eval(ctx, overrides, args, background=True)
    wait_for(lambda: finished(ctx, 6, 15)() or first.poll() is not None, 180, "6 of 15 rollouts")
    ctx.note("Ctrl-C on that `gym eval run` once it reported 6 of 15 rollouts")
    ctx.stop(first, signal.SIGINT, 30)
    before = len(rows_of(run / "results" / "rollouts.jsonl"))
    if before >= 15:
        raise RecipeError("the first collection finished before it was interrupted")
    code = gym_eval(ctx, overrides, args + " --resume", log="eval_run_resume.log")
    keys = unique_keys(run / "results" / "rollouts.jsonl")
    if code != 0 or len(keys) != 15:
        raise RecipeError(f"the resumed run exited {code} with {len(keys)} distinct rollouts")
    ctx.sh(f"{GYM} eval profile --inputs {run}/results/rollouts_materialized_inputs.jsonl "
           f"--rollouts {run}/results/rollouts.jsonl", "eval_profile.log")
    if not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise RecipeError("gym eval profile wrote no profile")
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 10)
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve` on RUN/tasks.jsonl (5 string_match "
            "tasks x 3 repeats, concurrency 2, policy latency 700 ms) interrupted with Ctrl-C after 6 of 15 rollouts "
            f"({before} rows on disk), then the same command with `--resume` (data, repeats and agent unchanged) "
            "completed all 15; `gym eval profile` (strict) then wrote the profile; servers stopped with Ctrl-C.")


@case("healthy_docker_collect_not_profiled_yet", "healthy", [],
      "nothing is wrong: the collection ran in a Docker container and completed every rollout; the reward profile "
      "simply has not been made yet")
def healthy_docker_collect_not_profiled_yet(ctx: Ctx) -> str:
    from gym_pipeline.launchers.docker import DockerLauncher

    data = ctx.dataset("mcqa", 6, start=14)
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    run = ctx.run
    materialize(ctx, data, 2, "mcqa")
    ended = launched(ctx, DockerLauncher(network="host"), "DockerLauncher(network='host')", "collect",
                     collect_argv(run, url, "mcqa", 4))
    if len(rows_of(run / "rollouts.jsonl")) != 12 or rows_of(run / "rollouts_failures.jsonl"):
        raise RecipeError(f"not a clean complete collection: {ended}")
    return ("`gym-pipeline materialize` (mcqa, 6 tasks x 2 repeats), then the built-in engine `gym-pipeline collect` "
            "in a Docker container through the project's DockerLauncher (network host) against the simulated policy "
            f"(30 ms latency): all 12 rollouts, no failed attempt ({ended}). Not profiled yet.")


@case("healthy_gym_rate_limited_then_retried", "healthy", [],
      "nothing is wrong: the endpoint answered a few requests with 429 (Retry-After 1); they were retried and every "
      "rollout of the real NeMo Gym collection then succeeded; the profile is complete", netns=True)
def healthy_gym_rate_limited_then_retried(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("mcqa", 4, start=6, folder=run, name="mcqa_subset.jsonl")
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, policy = ctx.policy(checkpoint, "--fault-rate 0.15 --fault-kinds 429 --retry-after-s 1 --fault-seed 11",
                             log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = ctx.gym_env_start(f"{gym_model_args(url, resources_server='mcqa')} {overrides}")
    code = gym_eval(ctx, overrides, f"--agent mcqa_simple_agent --input {data} --output {run}/rollouts.jsonl "
                                    "--num-repeats 3 --concurrency 3")
    keys = unique_keys(run / "rollouts.jsonl")
    retried = text_of(run / "env_start.log").count("status=429")
    if code != 0 or len(keys) != 12 or not retried:
        raise RecipeError(f"wanted all 12 rollouts after some 429s: exit {code}, {len(keys)} rollouts, "
                          f"{retried} retried 429s")
    ctx.sh(f"{GYM} eval profile --inputs {run}/rollouts_materialized_inputs.jsonl --rollouts {run}/rollouts.jsonl",
           "eval_profile.log")
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 10)
    failed = len(rows_of(run / "rollouts_failures.jsonl"))
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace) on the mcqa resources server against the simulated policy "
            "with 15% injected 429s (Retry-After 1, fault seed 11): 4 tasks x 3 repeats, concurrency 3; Gym's model "
            f"proxy retried {retried} requests answered 429 (env_start.log), {failed} failed attempts in the sidecar, "
            "all 12 rollouts succeeded; then `gym eval profile` (strict); servers stopped with Ctrl-C.")


@case("healthy_slurm_weak_checkpoint_low_reward", "healthy", [],
      "nothing is wrong: an early checkpoint (step_0100, low skill) was evaluated completely and scores low; a low "
      "reward is the model's quality, not a failure of the run")
def healthy_slurm_weak_checkpoint_low_reward(ctx: Ctx) -> str:
    from gym_pipeline.launchers.local import LocalLauncher
    from gym_pipeline.launchers.slurm import SlurmLauncher

    data = ctx.dataset("string_match", 8, start=8)
    checkpoint = checkpoints(ctx, "string_match", data)[0]
    url, _ = ctx.policy(checkpoint)
    run = ctx.run
    materialize(ctx, data, 4, "string_match")
    collected = launched(ctx, SlurmLauncher(time_limit="10", poll_interval_s=0.5), "SlurmLauncher(time_limit='10')",
                         "collect", collect_argv(run, url, "string_match", 8))
    profiled = launched(ctx, LocalLauncher(), "LocalLauncher()", "profile", profile_argv(run))
    rollouts = rows_of(run / "rollouts.jsonl")
    mean = sum(row["reward"] for row in rollouts) / max(1, len(rollouts))
    if len(rollouts) != 32 or not (run / "rollouts_reward_profiling.jsonl").exists() or mean > 0.6:
        raise RecipeError(f"wanted a complete, low-scoring run: {len(rollouts)} rollouts, mean {mean:.2f}")
    return ("The simulated policy serving checkpoint step_0100 (the weakest of a demo training run, skill 0.3); "
            "`gym-pipeline materialize` (string_match, 8 tasks x 4 repeats), `gym-pipeline collect` as a Slurm job "
            f"(project's SlurmLauncher; {collected}) and `gym-pipeline profile` through the LocalLauncher ({profiled}): "
            f"all 32 rollouts, mean reward {mean:.2f}.")


@case("healthy_ctrl_c_on_policy_after_profile", "healthy", [],
      "nothing is wrong: the collection and the profile completed; the user then stopped the model server with "
      "Ctrl-C, which left a shutdown traceback at the end of the server's log")
def healthy_ctrl_c_on_policy_after_profile(ctx: Ctx) -> str:
    from gym_pipeline.launchers.local import LocalLauncher

    data = ctx.dataset("mcqa", 5, start=1)
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 100 --max-running 4")
    run = ctx.run
    materialize(ctx, data, 3, "mcqa")
    collected = launched(ctx, LocalLauncher(), "LocalLauncher()", "collect", collect_argv(run, url, "mcqa", 4))
    profiled = launched(ctx, LocalLauncher(), "LocalLauncher()", "profile", profile_argv(run))
    time.sleep(1)
    ctx.note("Ctrl-C on `gym-pipeline serve-policy` (SIGINT to its process group)")
    ctx.stop(policy, signal.SIGINT, 10)
    if len(rows_of(run / "rollouts.jsonl")) != 15 or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise RecipeError(f"not a complete run: {collected}; {profiled}")
    return ("The simulated policy (`gym-pipeline serve-policy --latency-ms 100 --max-running 4`, log in "
            "RUN/logs/model_server.log); `gym-pipeline materialize` (mcqa, 5 tasks x 3 repeats), then `collect` "
            f"(concurrency 4) and `profile` through the project's LocalLauncher ({collected}; {profiled}); all 15 "
            "rollouts and the profile written; then Ctrl-C on the policy server.")


@case("healthy_rerun_after_fixing_model_url", "healthy", [],
      "nothing is wrong any more: a first collection attempt pointed at the wrong port and failed, the user fixed "
      "the URL and ran the collection again from scratch; it completed and was profiled")
def healthy_rerun_after_fixing_model_url(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 6, start=12)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint)
    run = ctx.run
    materialize(ctx, data, 3, "string_match")
    wrong = f"http://127.0.0.1:{free_loopback_port()}/v1"
    first = ctx.sh(shlex.join(collect_argv(run, wrong, "string_match", 4)), "logs/collect_first_attempt.log")
    if first == 0:
        raise RecipeError("the attempt against the wrong port succeeded")
    code = ctx.sh(shlex.join(collect_argv(run, url, "string_match", 4)), "logs/collect.log")
    ctx.sh(shlex.join(profile_argv(run)), "logs/profile.log")
    if code != 0 or len(rows_of(run / "rollouts.jsonl")) != 18:
        raise RecipeError(f"the second collection exited {code}")
    return ("`gym-pipeline materialize` (string_match, 6 tasks x 3 repeats); a first `gym-pipeline collect` against "
            f"a port where nothing listened exited {first} (logs/collect_first_attempt.log); the user corrected "
            "--model-url to the running simulated policy and ran `collect` again from scratch (logs/collect.log): all "
            "18 rollouts; then `gym-pipeline profile` (strict).")


# =====================================================================================================
# infra
# =====================================================================================================


DRAINED_COLLECT = '''
"""Run the collect stage as a Slurm job through gym_pipeline's SlurmLauncher, as a sweep step would."""
import sys
from pathlib import Path

from gym_pipeline.launchers.base import StageLaunch
from gym_pipeline.launchers.slurm import SlurmLauncher

run = Path(sys.argv[1])
state = SlurmLauncher(time_limit="20", poll_interval_s=1.0).run(StageLaunch("collect", sys.argv[2:], run, cwd=run))
print("collect ended:", state.slurm_state, state.exit_code, flush=True)
'''


@case("infra_slurm_node_drained_job_pending", "infra", [],
      "the cluster's only node was drained by an administrator, so the collection's Slurm job stayed PENDING "
      "(ReqNodeNotAvail) and never ran; the user gave up with Ctrl-C")
def infra_slurm_node_drained_job_pending(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 4, start=1)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint)
    run = ctx.run
    materialize(ctx, data, 2, "string_match")
    node = subprocess.run(["sinfo", "-h", "-o", "%N"], capture_output=True, text=True, env=ctx.env,
                          check=True).stdout.strip()
    script = run / "run_collect_on_slurm.py"
    script.write_text(DRAINED_COLLECT.lstrip("\n"))
    ctx.sh(f"scontrol update nodename={node} state=drain reason='disk replacement, ticket 4711'",
           "logs/admin_drain.log")
    try:
        job = ctx.bg(f"{PY} {script} {run} {shlex.join(collect_argv(run, url, 'string_match', 4))}",
                     "logs/run_collect_on_slurm.log")
        wait_for(lambda: bool(launcher_state(ctx, "collect").get("slurm_job_id")) or job.poll() is not None, 60,
                 "the job's submission")
        time.sleep(25)
        ctx.sh("squeue -t all -o '%.10i %.9P %.20j %.8T %.10M %R'", "logs/squeue.log")
        ctx.sh("sinfo -N -l", "logs/sinfo.log")
        ctx.note("25 s later the job was still pending: Ctrl-C on the script")
        ctx.stop(job, signal.SIGINT, 60)
    finally:
        subprocess.run(["scontrol", "update", f"nodename={node}", "state=resume"], env=ctx.env, check=False)
    state = launcher_state(ctx, "collect")
    if "PENDING" not in text_of(run / "logs" / "squeue.log") or rows_of(run / "rollouts.jsonl"):
        raise RecipeError(f"the job did not stay pending: {state}")
    return (f"An administrator drained the one-node Slurm's node ({node}: `scontrol update state=drain "
            "reason='disk replacement, ticket 4711'`); then a user's script ran the built-in `gym-pipeline collect` "
            "(string_match, 4 tasks x 2 repeats, healthy policy) as a Slurm job through the project's SlurmLauncher; "
            "the job stayed PENDING (squeue and sinfo kept in logs/), and after 25 s the user pressed Ctrl-C, which "
            "cancelled it. (The node was resumed afterwards, outside the case.)")


@case("infra_results_folder_read_only", "infra", [],
      "the file system holding the results folder was (re)mounted read-only, so the collection could not write its "
      "lock or rollouts (EROFS, Read-only file system)")
def infra_results_folder_read_only(ctx: Ctx) -> str:
    data = ctx.dataset("mcqa", 5, start=9)
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, _ = ctx.policy(checkpoint)
    results = ctx.run / "results"
    results.mkdir(parents=True)
    ctx.sh(f"mount -t tmpfs -o size=1m tmpfs {results}")
    kept = ctx.work / "results_copy"
    try:
        materialize(ctx, data, 2, "mcqa", folder=results)
        ctx.note("(the scratch file system hit an error and was remounted read-only, as ext4's errors=remount-ro does)")
        ctx.sh(f"mount -o remount,ro {results}")
        code = ctx.sh(shlex.join(collect_argv(results, url, "mcqa", 4)), "logs/collect.log")
        ctx.sh(f"touch {results}/probe; mount | grep {results}", "logs/mount.log")
        shutil.copytree(results, kept)
    finally:
        subprocess.run(["umount", str(results)], check=False)
    shutil.rmtree(results)
    shutil.copytree(kept, results)
    if code == 0 or "Read-only file system" not in text_of(ctx.run / "logs" / "collect.log"):
        raise RecipeError(f"collect exited {code} without EROFS")
    return ("`gym-pipeline materialize` (mcqa, 5 tasks x 2 repeats) into RUN/results, a real tmpfs; the mount was then "
            "made read-only (`mount -o remount,ro`) and `gym-pipeline collect --output RUN/results/rollouts.jsonl` "
            f"exited {code}; `touch` and `mount` output kept in logs/mount.log. The tmpfs content was copied back "
            "into RUN/results after unmounting.")


@case("infra_gym_results_disk_full", "infra", ["space"],
      "the file system holding NeMo Gym's output folder (a 64 KiB tmpfs) ran out of space while `gym eval run` was "
      "writing materialized inputs and rollouts (ENOSPC)", netns=True)
def infra_gym_results_disk_full(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=6, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = ctx.gym_env_start(f"{gym_model_args(url)} {overrides}")
    results = run / "results"
    results.mkdir()
    ctx.sh(f"mount -t tmpfs -o size=64k tmpfs {results}")
    kept = ctx.work / "results_copy"
    try:
        code = gym_eval(ctx, overrides, f"--agent string_match_simple_agent --input {data} "
                                        f"--output {results}/rollouts.jsonl --num-repeats 4 --concurrency 4")
        ctx.sh(f"df -k {results}", "df.log")
        shutil.copytree(results, kept)
    finally:
        subprocess.run(["umount", str(results)], check=False)
    ctx.stop(env_start, signal.SIGINT, 30)
    shutil.rmtree(results)
    shutil.copytree(kept, results)
    log = text_of(run / "eval_run.log") + text_of(run / "env_start.log")
    if "No space left" not in log and "ENOSPC" not in log:
        raise RecipeError(f"no ENOSPC in Gym's logs (exit {code})")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve` (8 string_match tasks x 4 "
            "repeats) with --output on RUN/results, a real 64 KiB tmpfs (`mount -t tmpfs -o size=64k`), filled while "
            f"Gym wrote its files; exit {code}. Logs outside the tmpfs; its content copied back after unmounting.")


@case("infra_docker_collect_without_network", "infra", ["network"],
      "the collection ran in a Docker container with no network (network none), so it could not reach the model "
      "server listening on the host's loopback (connection refused)")
def infra_docker_collect_without_network(ctx: Ctx) -> str:
    from gym_pipeline.launchers.docker import DockerLauncher

    data = ctx.dataset("string_match", 5, start=14)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint)
    run = ctx.run
    materialize(ctx, data, 2, "string_match")
    ctx.sh(f"curl -s {url}/models", "logs/curl_models_from_host.log")
    ended = launched(ctx, DockerLauncher(network="none"), "DockerLauncher(network='none')", "collect",
                     collect_argv(run, url, "string_match", 4))
    if rows_of(run / "rollouts.jsonl") or "connect" not in text_of(run / "logs" / "collect.log").lower():
        raise RecipeError(f"the container reached the policy: {ended}")
    return ("`gym-pipeline materialize` (string_match, 5 tasks x 2 repeats); the simulated policy answered on the "
            "host (`curl URL/models` from the host kept in logs/); then the built-in `gym-pipeline collect` in a Docker "
            f"container through the project's DockerLauncher with network='none': {ended}.")


@case("infra_docker_image_missing_on_host", "infra", [],
      "the container image the collect stage runs in (gym-pipeline/eval:cuda12.4) was built on another machine and "
      "is not present on this host's Docker engine (and no registry is reachable), so no container could be created")
def infra_docker_image_missing_on_host(ctx: Ctx) -> str:
    from gym_pipeline.launchers.docker import DockerLauncher

    data = ctx.dataset("mcqa", 4, start=7)
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, _ = ctx.policy(checkpoint)
    run = ctx.run
    materialize(ctx, data, 2, "mcqa")
    ended = launched(ctx, DockerLauncher(image="gym-pipeline/eval:cuda12.4", network="host"),
                     "DockerLauncher(image='gym-pipeline/eval:cuda12.4', network='host')", "collect",
                     collect_argv(run, url, "mcqa", 4))
    ctx.sh("docker images", "logs/docker_images.log")
    if launcher_state(ctx, "collect").get("container_id") or rows_of(run / "rollouts.jsonl"):
        raise RecipeError(f"a container was created: {ended}")
    return ("`gym-pipeline materialize` (mcqa, 4 tasks x 2 repeats), then the collect stage through the project's "
            "DockerLauncher with image gym-pipeline/eval:cuda12.4, an image built on the login node and never "
            f"transferred to this host (`docker images` kept in logs/docker_images.log): {ended}.")


# =====================================================================================================
# model serving
# =====================================================================================================


@case("model_serving_checkpoint_config_truncated", "model_serving", ["config.json"],
      "the model server could not load its checkpoint (config.json was truncated by an interrupted copy), exited at "
      "startup, and the collection then found nothing listening at the model URL")
def model_serving_checkpoint_config_truncated(ctx: Ctx) -> str:
    from gym_pipeline.launchers.slurm import SlurmLauncher

    data = ctx.dataset("string_match", 5, start=3)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    config = checkpoint / "config.json"
    config.write_bytes(config.read_bytes()[: len(config.read_bytes()) // 2])
    ctx.note(f"(the checkpoint's config.json was cut to its first {config.stat().st_size} bytes: an interrupted rsync)")
    run = ctx.run
    materialize(ctx, data, 2, "string_match")
    port = free_loopback_port()
    server = ctx.bg(f"{GP} serve-policy --port {port} --checkpoint {checkpoint} --latency-ms 50",
                    "logs/model_server.log")
    time.sleep(6)
    ended = launched(ctx, SlurmLauncher(time_limit="10", poll_interval_s=0.5), "SlurmLauncher(time_limit='10')",
                     "collect", collect_argv(run, f"http://127.0.0.1:{port}/v1", "string_match", 4))
    if server.poll() is None or rows_of(run / "rollouts.jsonl"):
        raise RecipeError(f"the server did not exit at startup ({ended})")
    return (f"`gym-pipeline serve-policy --port {port}` started in the background on a checkpoint whose config.json was "
            f"truncated (it exited with code {server.returncode}, log in logs/model_server.log); "
            "`gym-pipeline materialize` (5 tasks x 2 repeats) and then the built-in `gym-pipeline collect` against "
            f"http://127.0.0.1:{port}/v1 as a Slurm job (project's SlurmLauncher): {ended}.")


@case("model_serving_gym_policy_stopped_before_eval", "model_serving", [],
      "the model server was stopped after `gym env start` had checked it and before the collection began, so every "
      "request of `gym eval run` found no model server (connection refused) and nothing was collected", netns=True)
def model_serving_gym_policy_stopped_before_eval(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("mcqa", 4, start=10, folder=run, name="mcqa_tasks.jsonl")
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = ctx.gym_env_start(f"{gym_model_args(url, resources_server='mcqa')} {overrides}")
    ctx.note("Ctrl-C on the policy server (its terminal was closed by mistake)")
    ctx.stop(policy, signal.SIGINT, 10)
    eval_run = gym_eval(ctx, overrides, f"--agent mcqa_simple_agent --input {data} --output {run}/rollouts.jsonl "
                                        "--num-repeats 2 --concurrency 4", background=True)
    try:
        eval_run.wait(timeout=60)
    except subprocess.TimeoutExpired:
        ctx.note("60 s without any progress: Ctrl-C on `gym eval run`, then on `gym env start`")
    ctx.stop(eval_run, signal.SIGINT, 30)
    ctx.stop(env_start, signal.SIGINT, 30)
    if rows_of(run / "rollouts.jsonl"):
        raise RecipeError("rollouts were collected without a model server")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym env start` on mcqa got all servers ready against the "
            "simulated policy; the policy was then stopped with Ctrl-C; `gym eval run --no-serve` (4 tasks x 2 "
            f"repeats) ran against the dead endpoint (exit {eval_run.returncode}; stopped with Ctrl-C if still "
            "running after 60 s); no rollout collected.")


@case("model_serving_5xx_slurm_mcqa", "model_serving", [],
      "the model server failed most chat completions with HTTP 500/502/503 errors at a modest load (concurrency 4), "
      "so many rollouts failed after their 3 attempts")
def model_serving_5xx_slurm_mcqa(ctx: Ctx) -> str:
    from gym_pipeline.launchers.slurm import SlurmLauncher

    data = ctx.dataset("mcqa", 8, start=4)
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, _ = ctx.policy(checkpoint, "--fault-rate 0.8 --fault-kinds 5xx --fault-seed 21 --latency-ms 20")
    run = ctx.run
    materialize(ctx, data, 3, "mcqa")
    ended = launched(ctx, SlurmLauncher(time_limit="10", poll_interval_s=0.5), "SlurmLauncher(time_limit='10')",
                     "collect", collect_argv(run, url, "mcqa", 4))
    ctx.sh(shlex.join(profile_argv(run, "--allow-partial")), "logs/profile.log")
    failures = rows_of(run / "rollouts_failures.jsonl")
    if not any(f.get("_ng_failure_terminal") for f in failures):
        raise RecipeError(f"no rollout ran out of attempts ({ended})")
    return ("Built-in `gym-pipeline collect --concurrency 4` (mcqa, 8 tasks x 3 repeats) as a Slurm job (project's "
            "SlurmLauncher) against the simulated policy failing 80% of chat completions with 500/502/503 (fault "
            f"seed 21): {ended}; {len(failures)} failed attempts; then `gym-pipeline profile --allow-partial`.")


SERVE_AND_COLLECT = '''
"""Serve a checkpoint through a launcher (as the sweep's model_server launcher does) and collect against it."""
import asyncio
import sys
from pathlib import Path

from gym_pipeline.config import ModelServerConfig
from gym_pipeline.engines.builtin import CollectorSettings, collect
from gym_pipeline.environments import get_environment
from gym_pipeline.launchers.settings import DockerLauncherSettings, SlurmLauncherSettings  # noqa: F401
from gym_pipeline.serving.servers import serve_checkpoint

run, checkpoint = Path(sys.argv[1]), Path(sys.argv[2])
server = SERVER_CONFIG
with serve_checkpoint(server, checkpoint.name, checkpoint, run / "logs" / "model_server.log", LAUNCHER, run) as endpoint:
    print(f"model server ready at {endpoint.url} ({endpoint.launcher})", flush=True)
    settings = CollectorSettings(model_url=endpoint.url, model_name=endpoint.model_name, concurrency=2)
    summary = asyncio.run(collect(run / "rollouts_materialized_inputs.jsonl", run / "rollouts.jsonl",
                                  get_environment("string_match"), settings))
    print(f"{summary.collected} collected, {summary.failed} failed of {summary.total} in {summary.elapsed_s:.1f}s",
          flush=True)
'''


def serve_and_collect(ctx: Ctx, checkpoint: Path, server_config: str, launcher: str):
    """A user's script RUN/serve_and_collect.py (SERVE_AND_COLLECT with its server and launcher), started."""
    script = ctx.run / "serve_and_collect.py"
    script.write_text(SERVE_AND_COLLECT.lstrip("\n").replace("SERVER_CONFIG", server_config)
                      .replace("LAUNCHER", launcher))
    return ctx.bg(f"{PY} {script} {ctx.run} {checkpoint}", "logs/serve_and_collect.log")


@case("model_serving_docker_server_container_killed", "model_serving", [],
      "the model server's container was killed (docker kill) in the middle of the collection, so the remaining "
      "requests found no server and failed after their attempts")
def model_serving_docker_server_container_killed(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 6, start=1)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    run = ctx.run
    materialize(ctx, data, 4, "string_match")
    job = serve_and_collect(ctx, checkpoint, 'ModelServerConfig(kind="simulated", latency_ms=400)',
                            'DockerLauncherSettings(network="host")')
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 8 or job.poll() is not None, 180, "8 rollouts")
    container = launcher_state(ctx, "model_server").get("container_id")
    if not container:
        raise RecipeError("the model server did not run in a container")
    ctx.sh(f"docker kill {container}", "logs/docker_kill.log")
    try:
        job.wait(timeout=180)
    except subprocess.TimeoutExpired:
        ctx.note("180 s without the script ending: Ctrl-C on it")
    ctx.stop(job, signal.SIGINT, 30)
    done = len(rows_of(run / "rollouts.jsonl"))
    if done >= 24 or not rows_of(run / "rollouts_failures.jsonl"):
        raise RecipeError(f"{done} rollouts and no failure after the kill")
    return ("A user's script (RUN/serve_and_collect.py) serves checkpoint step_0200 with the simulated policy (400 ms "
            "latency) in a Docker container through the project's serve_checkpoint + DockerLauncherSettings (network "
            "host) and collects 6 string_match tasks x 4 repeats with the built-in collector (concurrency 2); once 8 "
            f"rollouts were written the container was killed (`docker kill {container[:12]}`); the script exited "
            f"{job.returncode}; {done} rollouts, {len(rows_of(run / 'rollouts_failures.jsonl'))} failed attempts.")


@case("model_serving_slurm_server_not_ready_in_time", "model_serving", [],
      "the model server started as a Slurm job was still loading (503 model_not_ready on /v1/models for its first 10 "
      "minutes) when its 20 s startup timeout ran out, so it was stopped and nothing was collected")
def model_serving_slurm_server_not_ready_in_time(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 4, start=10)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    run = ctx.run
    materialize(ctx, data, 2, "string_match")
    command = (f'["{GP}", "serve-policy", "--checkpoint", "{{checkpoint_dir}}", "--host", "127.0.0.1", "--port", '
               '"{port}", "--slow-start-s", "600"]')
    job = serve_and_collect(ctx, checkpoint, f"ModelServerConfig(kind='vllm', startup_timeout_s=20, command={command})",
                            "SlurmLauncherSettings(time_limit='30', poll_interval_s=0.5)")
    try:
        job.wait(timeout=180)
    except subprocess.TimeoutExpired:
        ctx.note("180 s without the script ending: Ctrl-C on it")
    ctx.stop(job, signal.SIGINT, 60)
    if rows_of(run / "rollouts.jsonl") or "not ready" not in text_of(run / "logs" / "serve_and_collect.log"):
        raise RecipeError(f"the server did not time out (exit {job.returncode})")
    return ("`gym-pipeline materialize` (string_match, 4 tasks x 2 repeats); a user's script (RUN/serve_and_collect.py) "
            "starts the model server as a Slurm job through the project's serve_checkpoint + SlurmLauncherSettings, "
            "with model_server kind vllm whose command is a server that loads for 10 minutes (`gym-pipeline "
            "serve-policy --slow-start-s 600`: 503 model_not_ready meanwhile) and startup_timeout_s 20, then would "
            f"collect with the built-in collector; the script exited {job.returncode}.")


@case("throughput_docker_model_server_oom", "throughput_resources", ["memory"],
      "the model server's container was limited to 20 MiB (no swap), less than the server needs, so it was "
      "OOM-killed while starting and nothing was collected")
def throughput_docker_model_server_oom(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 4, start=12)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    materialize(ctx, data, 2, "string_match")
    job = serve_and_collect(ctx, checkpoint, 'ModelServerConfig(kind="simulated", startup_timeout_s=60)',
                            'DockerLauncherSettings(network="host", memory_mb=20)')
    try:
        job.wait(timeout=180)
    except subprocess.TimeoutExpired:
        ctx.note("180 s without the script ending: Ctrl-C on it")
    ctx.stop(job, signal.SIGINT, 30)
    if not launcher_state(ctx, "model_server").get("oom_killed"):
        raise RecipeError(f"the server was not OOM-killed (exit {job.returncode})")
    return ("`gym-pipeline materialize` (string_match, 4 tasks x 2 repeats); a user's script (RUN/serve_and_collect.py) "
            "starts the simulated policy in a Docker container through the project's serve_checkpoint + "
            "DockerLauncherSettings(network host, memory_mb=20), then would collect with the built-in collector; "
            f"the script exited {job.returncode}.")


# =====================================================================================================
# config
# =====================================================================================================


@case("config_gym_temperature_out_of_range", "config", ["temperature"],
      "`gym eval run --temperature 3.5` asked for a sampling temperature the model server refuses (it accepts 0-2), "
      "so every request was rejected with 400", netns=True)
def config_gym_temperature_out_of_range(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 4, start=11, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = ctx.gym_env_start(f"{gym_model_args(url)} {overrides}")
    code = gym_eval(ctx, overrides, f"--agent string_match_simple_agent --input {data} --output {run}/rollouts.jsonl "
                                    "--num-repeats 2 --concurrency 4 --temperature 3.5")
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 10)
    if len(rows_of(run / "rollouts.jsonl")) == 8:
        raise RecipeError(f"every rollout succeeded with temperature 3.5 (exit {code})")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace) against a healthy simulated policy: `gym eval run "
            f"--no-serve --temperature 3.5` on 4 string_match tasks x 2 repeats; exit {code}, "
            f"{len(rows_of(run / 'rollouts.jsonl'))} rollouts, {len(rows_of(run / 'rollouts_failures.jsonl'))} "
            "failure rows.")


PROMPT_CONFIG = """\
# our house prompt for short-answer QA
system: "You are a careful assistant. Answer briefly."
user: "{question}\\n\\nEnd your response with 'Final answer: <answer>'."
"""


@case("config_gym_prompt_config_on_prefilled_rows", "config", ["prompt-config"],
      "`gym eval run --prompt-config` was given for a dataset whose rows already carry their prompt "
      "(responses_create_params.input); Gym refuses to apply a prompt template over existing prompts", netns=True)
def config_gym_prompt_config_on_prefilled_rows(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 4, start=2, folder=run, name="tasks.jsonl")
    prompts = run / "prompts" / "short_qa.yaml"
    prompts.parent.mkdir()
    prompts.write_text(PROMPT_CONFIG)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = ctx.gym_env_start(f"{gym_model_args(url)} {overrides}")
    code = gym_eval(ctx, overrides, f"--agent string_match_simple_agent --input {data} --output {run}/rollouts.jsonl "
                                    f"--num-repeats 2 --concurrency 4 --prompt-config {prompts}")
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 10)
    if code == 0 and len(rows_of(run / "rollouts.jsonl")) == 8:
        raise RecipeError("gym eval run accepted the prompt config over prefilled rows")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace, healthy servers): `gym eval run --no-serve --prompt-config "
            "RUN/prompts/short_qa.yaml` (a system/user template) on 4 bundled string_match rows that already hold "
            f"responses_create_params.input; exit {code}.")


@case("config_gym_env_started_with_other_resources_server", "config", ["string_match"],
      "`gym env start` was started with the mcqa resources server while the collection needs string_match (its "
      "rows name string_match_simple_agent, which is not running)", netns=True)
def config_gym_env_started_with_other_resources_server(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 4, start=7, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = ctx.gym_env_start(f"{gym_model_args(url, resources_server='mcqa')} {overrides}")
    code = gym_eval(ctx, overrides, f"--agent string_match_simple_agent --input {data} --output {run}/rollouts.jsonl "
                                    "--num-repeats 2 --concurrency 4")
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 10)
    if code == 0 and len(rows_of(run / "rollouts.jsonl")) == 8:
        raise RecipeError("the collection succeeded without its agent")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym env start --resources-server mcqa` (copied from an "
            "earlier mcqa run's command), then `gym eval run --no-serve --agent string_match_simple_agent` on 4 "
            f"string_match tasks x 2 repeats; exit {code}.")


@case("config_gym_openai_model_type_for_vllm_server", "config", ["vllm_model"],
      "`gym env start --model-type openai_model` was used for a vLLM-style server that only speaks chat "
      "completions; openai_model calls the Responses API (/v1/responses), which the server does not have, so every "
      "model call failed (404)", netns=True)
def config_gym_openai_model_type_for_vllm_server(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 4, start=13, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = ctx.gym_env_start(f"--resources-server string_match --model-type openai_model --model sim-policy "
                                  f"--model-url {url} --model-api-key dummy {overrides}", wait=False)
    log = run / "env_start.log"
    wait_for(lambda: env_start.poll() is not None or "servers ready" in text_of(log), 240, "gym env start")
    code = None
    if "servers ready" in text_of(log):
        eval_run = gym_eval(ctx, overrides, f"--agent string_match_simple_agent --input {data} "
                                            f"--output {run}/rollouts.jsonl --num-repeats 2 --concurrency 4",
                            background=True)
        try:
            eval_run.wait(timeout=120)
        except subprocess.TimeoutExpired:
            ctx.note("120 s without the run ending: Ctrl-C on `gym eval run`")
        ctx.stop(eval_run, signal.SIGINT, 30)
        code = eval_run.returncode
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 10)
    if len(rows_of(run / "rollouts.jsonl")) == 8:
        raise RecipeError("every rollout succeeded through openai_model")
    if "404" not in text_of(run / "env_start.log") + text_of(run / "eval_run.log") + text_of(
            run / "rollouts_failures.jsonl"):
        raise RecipeError("no 404 from the Responses API call in Gym's logs")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym env start --resources-server string_match "
            "--model-type openai_model --model-url <the simulated policy, a vLLM-style chat-completions server>`, "
            f"then `gym eval run --no-serve` on 4 tasks x 2 repeats (exit {code}).")


def write_sweep(ctx: Ctx, env: str, dataset: Path, checkpoint: Path, **settings) -> Path:
    """A sweep config (the JSON a sweep step hands its stages) whose partition's run directory is RUN."""
    runs = ctx.work / "runs"
    (runs / checkpoint.name).mkdir(parents=True)
    (runs / checkpoint.name / env).symlink_to(ctx.run, target_is_directory=True)
    config = {"name": "nightly", "environments": [{"name": env, "dataset": str(dataset)}],
              "checkpoints_dir": str(checkpoint.parent), "runs_dir": str(runs), **settings}
    path = ctx.run / "sweep.json"
    path.write_text(json.dumps(config, indent=2) + "\n")
    return path


@case("config_sweep_temperature_override_rejected", "config", ["temperature"],
      "the sweep's responses_create_params override sets temperature 2.5, above what the model server accepts "
      "(0-2), so every chat completion was rejected with 400 and nothing was collected")
def config_sweep_temperature_override_rejected(ctx: Ctx) -> str:
    from gym_pipeline.launchers.local import LocalLauncher

    data = ctx.dataset("mcqa", 5, start=5, folder=ctx.run, name="mcqa.jsonl")
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, _ = ctx.policy(checkpoint)
    sweep = write_sweep(ctx, "mcqa", data, checkpoint, num_repeats=2, concurrency=4,
                        responses_create_params={"temperature": 2.5, "max_output_tokens": 1024})
    common = ["--sweep-config", str(sweep), "--checkpoint", checkpoint.name, "--env", "mcqa", "--code-version", "v7"]
    ctx.sh(shlex.join([str(GP), "stage", "materialize", *common]), "logs/materialize.log")
    ended = launched(ctx, LocalLauncher(), "LocalLauncher()", "collect",
                     [str(GP), "stage", "collect", *common, "--model-url", url, "--model-name", "sim-policy"])
    failures = rows_of(ctx.run / "rollouts_failures.jsonl")
    if rows_of(ctx.run / "rollouts.jsonl") or not failures or any(f["_ng_failure_http_status"] != 400
                                                                   for f in failures):
        raise RecipeError(f"expected only 400s: {ended}, {len(failures)} failures")
    return ("A sweep config (RUN/sweep.json) whose responses_create_params set temperature 2.5; its stages run by hand "
            "as a sweep step runs them: `gym-pipeline stage materialize` (mcqa, 5 tasks x 2 repeats), then "
            "`gym-pipeline stage collect` through the project's LocalLauncher against a healthy simulated policy: "
            f"{ended}; {len(failures)} failed attempts, all HTTP 400.")


# =====================================================================================================
# data / schema
# =====================================================================================================


@case("data_schema_gym_mcqa_options_as_mapping", "data_schema", ["options"],
      "two mcqa rows carry `options` as one mapping {\"A\": ..., \"B\": ...} instead of Gym's list of one-entry "
      "dicts, so the mcqa resources server's request model rejects them (422)", netns=True)
def data_schema_gym_mcqa_options_as_mapping(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("mcqa", 5, start=0, folder=run, name="mcqa_converted.jsonl")
    checkpoint = checkpoints(ctx, "mcqa", data)[1]

    def as_mapping(index: int, row: dict) -> bool:
        if index in (1, 3):
            row["options"] = {key: text for option in row["options"] for key, text in option.items()}
            return True
        return False

    edited = rewrite_rows(data, as_mapping)
    ctx.note(f"(RUN/mcqa_converted.jsonl: `options` of rows 2 and 4 turned into one mapping; {edited} rows)")
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = ctx.gym_env_start(f"{gym_model_args(url, resources_server='mcqa')} {overrides}")
    code = gym_eval(ctx, overrides, f"--agent mcqa_simple_agent --input {data} --output {run}/rollouts.jsonl "
                                    "--num-repeats 2 --concurrency 4")
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 10)
    failed = rows_of(run / "rollouts_failures.jsonl")
    if len(rows_of(run / "rollouts.jsonl")) == 10:
        raise RecipeError(f"every rollout succeeded (exit {code})")
    return ("5 mcqa rows, rows 2 and 4 with `options` as a single mapping {\"A\": ..., \"B\": ...} (as a conversion "
            "script wrote them), collected with the real NeMo Gym 0.7.0 (`gym env start` on mcqa + `gym eval run "
            f"--no-serve`, 2 repeats, loopback-only namespace); exit {code}, "
            f"{len(rows_of(run / 'rollouts.jsonl'))} rollouts, {len(failed)} failure rows.")


@case("data_schema_gym_rows_without_responses_create_params", "data_schema", ["responses_create_params"],
      "the dataset was exported in a plain {question, expected_answer} shape: its rows have no "
      "responses_create_params (no prompt input), which Gym's rows must carry", netns=True)
def data_schema_gym_rows_without_responses_create_params(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 4, start=4, folder=run, name="qa_export.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]

    def flatten(index: int, row: dict) -> bool:
        params = row.pop("responses_create_params")
        row["question"] = params["input"][0]["content"][0]["text"]
        return True

    rewrite_rows(data, flatten)
    ctx.note("(RUN/qa_export.jsonl: each row's prompt moved from responses_create_params.input to a `question` field)")
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = ctx.gym_env_start(f"{gym_model_args(url)} {overrides}")
    code = gym_eval(ctx, overrides, f"--agent string_match_simple_agent --input {data} --output {run}/rollouts.jsonl "
                                    "--num-repeats 2 --concurrency 4")
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 10)
    if len(rows_of(run / "rollouts.jsonl")) == 8:
        raise RecipeError(f"every rollout succeeded without responses_create_params (exit {code})")
    return ("4 string_match rows exported as {question, expected_answer, ...} without responses_create_params, "
            "given to the real NeMo Gym 0.7.0 `gym eval run --no-serve` (2 repeats) against healthy servers "
            f"(loopback-only namespace); exit {code}.")


@case("data_schema_json_array_instead_of_jsonl", "data_schema", [],
      "the dataset file is one pretty-printed JSON array (a notebook's json.dump), not JSON Lines (one object per "
      "line), so its first line cannot be read as a row")
def data_schema_json_array_instead_of_jsonl(ctx: Ctx) -> str:
    from gym_pipeline.launchers.slurm import SlurmLauncher

    rows = rows_of(ctx.dataset("string_match", 6, start=0))
    data = ctx.run / "data" / "string_match_eval.jsonl"
    data.parent.mkdir()
    data.write_text(json.dumps(rows, indent=2) + "\n")
    ctx.note("(RUN/data/string_match_eval.jsonl written by `json.dump(rows, f, indent=2)` in a notebook)")
    checkpoint = checkpoints(ctx, "string_match", ctx.work / "data.jsonl")[1]
    url, _ = ctx.policy(checkpoint)
    run = ctx.run
    argv = [str(GP), "materialize", "--input", str(data), "--num-repeats", "4", "--agent", "string_match_simple_agent",
            "--output", f"{run}/rollouts_materialized_inputs.jsonl"]
    ended = launched(ctx, SlurmLauncher(time_limit="5", poll_interval_s=0.5), "SlurmLauncher(time_limit='5')",
                     "materialize", argv)
    code = ctx.sh(shlex.join(collect_argv(run, url, "string_match", 4)), "logs/collect.log")
    if (run / "rollouts_materialized_inputs.jsonl").exists():
        raise RecipeError(f"materialize accepted a JSON array ({ended})")
    return ("A 6-row string_match dataset saved as one indented JSON array under a .jsonl name; `gym-pipeline "
            f"materialize --num-repeats 4` on it as a Slurm job (project's SlurmLauncher): {ended}; the user then ran "
            f"`gym-pipeline collect` anyway, which exited {code} (no inputs).")


@case("data_schema_empty_expected_answers_docker", "data_schema", ["expected_answer"],
      "three dataset rows have an empty expected_answer (unlabelled rows left in the export), so the verifier cannot "
      "score them and they come back as masked verifier errors")
def data_schema_empty_expected_answers_docker(ctx: Ctx) -> str:
    from gym_pipeline.launchers.docker import DockerLauncher

    data = ctx.dataset("string_match", 8, start=10)
    checkpoint = checkpoints(ctx, "string_match", data)[1]

    def unlabel(index: int, row: dict) -> bool:
        if index in (0, 3, 6):
            row["expected_answer"] = ""
            return True
        return False

    rewrite_rows(data, unlabel)
    url, _ = ctx.policy(checkpoint)
    run = ctx.run
    materialize(ctx, data, 2, "string_match")
    collected = launched(ctx, DockerLauncher(network="host"), "DockerLauncher(network='host')", "collect",
                         collect_argv(run, url, "string_match", 4))
    profiled = launched(ctx, DockerLauncher(network="none"), "DockerLauncher(network='none')", "profile",
                        profile_argv(run))
    masked = [row for row in rows_of(run / "rollouts.jsonl") if row.get("failure_kind")]
    if not masked:
        raise RecipeError(f"no verifier error rows ({collected})")
    return ("8 string_match rows, 3 of them with expected_answer \"\"; `gym-pipeline materialize` (2 repeats), then "
            "`gym-pipeline collect` and `gym-pipeline profile` in Docker containers through the project's "
            f"DockerLauncher ({collected}; {profiled}); {len(masked)} rollouts came back as masked verifier_error rows.")


@case("data_schema_sharegpt_roles", "data_schema", ["role"],
      "the dataset's messages use ShareGPT roles (\"human\") instead of \"user\", so the requests carry no user "
      "message and the model server rejects every one (400)")
def data_schema_sharegpt_roles(ctx: Ctx) -> str:
    from gym_pipeline.launchers.local import LocalLauncher

    data = ctx.dataset("mcqa", 6, start=11)
    checkpoint = checkpoints(ctx, "mcqa", data)[1]

    def human(index: int, row: dict) -> bool:
        for message in row["responses_create_params"]["input"]:
            message["role"] = "human"
        return True

    rewrite_rows(data, human)
    url, _ = ctx.policy(checkpoint)
    run = ctx.run
    materialize(ctx, data, 2, "mcqa")
    ended = launched(ctx, LocalLauncher(), "LocalLauncher()", "collect", collect_argv(run, url, "mcqa", 4))
    failures = rows_of(run / "rollouts_failures.jsonl")
    if rows_of(run / "rollouts.jsonl") or not failures:
        raise RecipeError(f"expected every request to be rejected: {ended}")
    return ("6 mcqa rows whose responses_create_params.input messages have role \"human\" (converted from a ShareGPT "
            "dump); `gym-pipeline materialize` (2 repeats), then the built-in `gym-pipeline collect` through the "
            f"project's LocalLauncher against a healthy simulated policy: {ended}; {len(failures)} failed attempts.")


# =====================================================================================================
# verifier / runtime
# =====================================================================================================


OVERLAP_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        # partial credit: the share of the predicted tokens that are in the gold answer
        gold = set(body.expected_answer.lower().split())
        predicted = (extracted or "").lower().split()
        reward = sum(token in gold for token in predicted) / len(predicted)
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


@case("verifier_runtime_gym_partial_credit_zero_division", "verifier_runtime", [],
      "the user's overlap_match resources server divides by the number of predicted tokens, which is zero when no "
      "answer can be extracted, so its verify raises ZeroDivisionError (500) on those rollouts", netns=True)
def verifier_runtime_gym_partial_credit_zero_division(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=0, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[0]  # an early checkpoint: it often misses the format
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    search = user_resources_server(ctx, "overlap_match", "string_match",
                                   lambda app: replace_verify(app, OVERLAP_VERIFY))
    ctx.note("(copied Gym's resources_servers/string_match to WORK/my_gym/resources_servers/overlap_match; its verify "
             "now gives partial credit: matched predicted tokens / predicted tokens)")
    env_start = ctx.gym_env_start(f"--search-dir {search} {gym_model_args(url, resources_server='overlap_match')} "
                                  f"{overrides}")
    code = gym_eval(ctx, overrides, f"--search-dir {search} --agent overlap_match_simple_agent --input {data} "
                                    f"--output {run}/rollouts.jsonl --num-repeats 4 --concurrency 4")
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 10)
    if "ZeroDivisionError" not in text_of(run / "env_start.log") + text_of(run / "eval_run.log") + text_of(
            run / "rollouts_failures.jsonl"):
        raise RecipeError(f"no ZeroDivisionError (exit {code})")
    return ("A user's resources server overlap_match (Gym's string_match copied under a --search-dir, verify giving "
            "token-precision partial credit) served by the real `gym env start` (loopback-only namespace) against "
            "checkpoint step_0100 of the simulated policy; `gym eval run --no-serve` on 6 tasks x 4 repeats exited "
            f"{code}; {len(rows_of(run / 'rollouts.jsonl'))} rollouts, "
            f"{len(rows_of(run / 'rollouts_failures.jsonl'))} failure rows.")


NATIVE_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        import ctypes

        libc = ctypes.CDLL(None)
        libc.strlen.argtypes = [ctypes.c_char_p]
        libc.strlen.restype = ctypes.c_size_t
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        # length guard through the C library (as our native normalizer does it); NULL when nothing was extracted
        raw = extracted.encode() if extracted is not None else None
        if libc.strlen(raw) > 512:
            extracted = extracted[:512]
        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


@case("verifier_runtime_gym_resources_server_segfault", "verifier_runtime", [],
      "the user's native_match resources server passes NULL to the C library's strlen when no answer was "
      "extracted, so its process dies with a segmentation fault and every later verify call fails", netns=True)
def verifier_runtime_gym_resources_server_segfault(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=6, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[0]
    url, policy = ctx.policy(checkpoint, "--latency-ms 200", log="policy_server.log")
    overrides = ctx.gym_overrides()
    search = user_resources_server(ctx, "native_match", "string_match",
                                   lambda app: replace_verify(app, NATIVE_VERIFY))
    ctx.note("(copied Gym's resources_servers/string_match to WORK/my_gym/resources_servers/native_match; its verify "
             "checks the answer's length with libc's strlen through ctypes)")
    ctx.env["PYTHONFAULTHANDLER"] = "1"
    ctx.note("export PYTHONFAULTHANDLER=1   (set by the cluster's login profile)")
    env_start = ctx.gym_env_start(f"--search-dir {search} {gym_model_args(url, resources_server='native_match')} "
                                  f"{overrides}")
    eval_run = gym_eval(ctx, overrides, f"--search-dir {search} --agent native_match_simple_agent --input {data} "
                                        f"--output {run}/rollouts.jsonl --num-repeats 4 --concurrency 2",
                        background=True)
    try:
        eval_run.wait(timeout=90)
    except subprocess.TimeoutExpired:
        ctx.note("90 s without the run ending: Ctrl-C on `gym eval run`")
    ctx.stop(eval_run, signal.SIGINT, 30)
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 10)
    if len(unique_keys(run / "rollouts.jsonl")) >= 24:
        raise RecipeError("every rollout was verified: the server never crashed")
    if "Segmentation fault" not in text_of(run / "env_start.log"):
        raise RecipeError("the crash left no trace in env_start.log")
    return ("A user's resources server native_match (Gym's string_match copied under a --search-dir, verify calling "
            "libc strlen through ctypes, with NULL when nothing was extracted) served by the real `gym env start` "
            "(loopback-only namespace, PYTHONFAULTHANDLER=1) against checkpoint step_0100 of the simulated policy "
            f"(200 ms latency); `gym eval run --no-serve` on 6 tasks x 4 repeats, concurrency 2, ended with exit "
            f"{eval_run.returncode} (Ctrl-C if still running after 90 s); {len(rows_of(run / 'rollouts.jsonl'))} rollouts, "
            f"{len(rows_of(run / 'rollouts_failures.jsonl'))} failure rows.")


F1_VERIFIER = '''
"""Our token-F1 verifier for short answers, on the built-in engine's collector."""
import asyncio
import sys
from pathlib import Path

import numpy as np

from gym_pipeline.engines.builtin import CollectorSettings, collect
from gym_pipeline.environments import StringMatchEnvironment
from gym_pipeline.environments.string_match import extract_answer


class TokenF1(StringMatchEnvironment):
    name = "string_match"

    def verify(self, row, response_text):
        extracted = extract_answer(response_text, row.get("extraction_mode", "final_answer")) or ""
        predicted, gold = extracted.lower().split(), row["expected_answer"].lower().split()
        common = np.float64(sum(token in gold for token in predicted))
        precision, recall = common / len(predicted), common / len(gold)
        f1 = 2 * precision * recall / (precision + recall)
        return self.verdict(float(f1), expected_answer=row["expected_answer"], extracted_answer=extracted)


inputs, output, url = sys.argv[1:4]
summary = asyncio.run(collect(Path(inputs), Path(output), TokenF1(), CollectorSettings(model_url=url, concurrency=4)))
print(f"{summary.collected} collected, {summary.failed} failed of {summary.total} in {summary.elapsed_s:.1f}s")
'''


@case("verifier_runtime_token_f1_nan_reward", "verifier_runtime", [],
      "the user's token-F1 verifier computes 0/0 with numpy when the answer shares no token with the gold answer "
      "(or none was extracted), so it returns NaN rewards (written as null), which the profile cannot use")
def verifier_runtime_token_f1_nan_reward(ctx: Ctx) -> str:
    data = ctx.dataset("string_match", 8, start=2)
    checkpoint = checkpoints(ctx, "string_match", data)[0]
    url, _ = ctx.policy(checkpoint)
    script = ctx.work / "collect_token_f1.py"
    script.write_text(F1_VERIFIER.lstrip("\n"))
    run = ctx.run
    materialize(ctx, data, 3, "string_match")
    code = ctx.sh(f"{PY} {script} {run}/rollouts_materialized_inputs.jsonl {run}/rollouts.jsonl {url}",
                  "logs/collect.log")
    profiled = ctx.sh(shlex.join(profile_argv(run)), "logs/profile.log")
    bad = [row for row in rows_of(run / "rollouts.jsonl") if row.get("reward") is None]
    if not bad:
        raise RecipeError(f"no NaN reward (collect exit {code})")
    return ("The built-in engine's collector (`gym_pipeline.engines.builtin.collect`) driven by a user's script whose "
            "environment subclass scores token F1 with numpy (see collect_token_f1.py in `how`); 8 string_match tasks "
            f"x 3 repeats against checkpoint step_0100 of the simulated policy (exit {code}); {len(bad)} rollouts have "
            f"a null reward; then the strict `gym-pipeline profile` exited {profiled}. Script: "
            + F1_VERIFIER.strip().replace("\n", " | "))


BARE_FLOAT_VERIFIER = '''
"""Collect mcqa with our own letter grader on the built-in engine."""
import asyncio
import re
import sys
from pathlib import Path

from gym_pipeline.engines.builtin import CollectorSettings, collect
from gym_pipeline.environments import McqaEnvironment


class LetterGrader(McqaEnvironment):
    def verify(self, row, response_text):
        found = re.findall(r"Answer:\\s*([A-D])", response_text)
        return 1.0 if found and found[-1] == row["expected_answer"] else 0.0


inputs, output, url = sys.argv[1:4]
summary = asyncio.run(collect(Path(inputs), Path(output), LetterGrader(), CollectorSettings(model_url=url,
                                                                                           concurrency=4)))
print(f"{summary.collected} collected, {summary.failed} failed of {summary.total} in {summary.elapsed_s:.1f}s")
'''


@case("verifier_runtime_verify_returns_bare_float", "verifier_runtime", [],
      "the user's mcqa letter grader returns a bare float instead of the verify response (a mapping with reward, "
      "mask_sample, failure_kind ...), so building the first rollout row raised TypeError and the collection died")
def verifier_runtime_verify_returns_bare_float(ctx: Ctx) -> str:
    data = ctx.dataset("mcqa", 6, start=0)
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, _ = ctx.policy(checkpoint)
    script = ctx.work / "collect_letters.py"
    script.write_text(BARE_FLOAT_VERIFIER.lstrip("\n"))
    run = ctx.run
    materialize(ctx, data, 3, "mcqa")
    code = ctx.sh(f"{PY} {script} {run}/rollouts_materialized_inputs.jsonl {run}/rollouts.jsonl {url}",
                  "logs/collect.log")
    if code == 0 or "TypeError" not in text_of(run / "logs" / "collect.log"):
        raise RecipeError(f"the collection did not die on the float (exit {code})")
    return ("The built-in engine's collector driven by a user's script whose McqaEnvironment subclass returns a bare "
            f"float from verify; mcqa, 6 tasks x 3 repeats, healthy policy; the script exited {code}. Script: "
            + BARE_FLOAT_VERIFIER.strip().replace("\n", " | "))


POSITION_PATCH = '''
        # position-bias metric: which option slot the model picked (A=0, B=1, ...)
        picked_position = sorted(allowed_letters).index(pred)
        metrics_position = {"picked_position": picked_position}  # noqa: F841
'''


@case("verifier_runtime_gym_mcqa_position_metric_raises", "verifier_runtime", [],
      "the user's mcqa_bias resources server computes the position of the picked option with list.index(pred), "
      "which raises ValueError whenever no letter was parsed (pred is None), so those verify calls fail with 500",
      netns=True)
def verifier_runtime_gym_mcqa_position_metric_raises(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("mcqa", 4, start=3, folder=run, name="mcqa_tasks.jsonl")
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, policy = ctx.policy(checkpoint, log="policy_server.log")
    overrides = ctx.gym_overrides()
    anchor = "        is_correct = (pred == gold) if (pred is not None and gold) else False\n"

    def patch(app: str) -> str:
        if anchor not in app:
            raise RecipeError("mcqa's app.py changed: no `is_correct` line to patch")
        return app.replace(anchor, POSITION_PATCH.lstrip("\n") + anchor)

    search = user_resources_server(ctx, "mcqa_bias", "mcqa", patch)
    ctx.note("(copied Gym's resources_servers/mcqa to WORK/my_gym/resources_servers/mcqa_bias; its verify now also "
             "computes the picked option's position with sorted(allowed_letters).index(pred))")
    env_start = ctx.gym_env_start(f"--search-dir {search} {gym_model_args(url, resources_server='mcqa_bias')} "
                                  f"{overrides}")
    code = gym_eval(ctx, overrides, f"--search-dir {search} --agent mcqa_bias_simple_agent --input {data} "
                                    f"--output {run}/rollouts.jsonl --num-repeats 2 --concurrency 4")
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 10)
    logs = text_of(run / "env_start.log") + text_of(run / "eval_run.log") + text_of(run / "rollouts_failures.jsonl")
    if "is not in list" not in logs:
        raise RecipeError(f"no ValueError from index() (exit {code})")
    return ("A user's resources server mcqa_bias (Gym's mcqa copied under a --search-dir, verify extended with a "
            "position-bias metric) served by the real `gym env start` (loopback-only namespace); `gym eval run "
            f"--no-serve` on 4 tasks x 2 repeats exited {code}; {len(rows_of(run / 'rollouts.jsonl'))} rollouts, "
            f"{len(rows_of(run / 'rollouts_failures.jsonl'))} failure rows.")


# =====================================================================================================
# cache / resume
# =====================================================================================================


@case("cache_resume_gym_resume_with_more_repeats", "cache_resume", [],
      "`gym eval run --resume --num-repeats 4` reused the rollouts_materialized_inputs.jsonl of the interrupted "
      "2-repeat run, so the run silently kept 2 repeats per task instead of the 4 asked for", netns=True)
def cache_resume_gym_resume_with_more_repeats(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=9, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 1200", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = ctx.gym_env_start(f"{gym_model_args(url)} {overrides}")
    base = (f"--agent string_match_simple_agent --input {data} --output {run}/results/rollouts.jsonl "
            "--concurrency 2")
    first = gym_eval(ctx, overrides, base + " --num-repeats 2", background=True)
    wait_for(lambda: finished(ctx, 4, 10)() or first.poll() is not None, 180, "4 of 10 rollouts")
    ctx.note("kill -9 on that `gym eval run` (its process group) once it reported 4 of 10 rollouts")
    ctx.stop(first, signal.SIGKILL, 1)
    ctx.note("the user decided on 4 repeats per task and resumed with --num-repeats 4")
    code = gym_eval(ctx, overrides, base + " --num-repeats 4 --resume", log="eval_run_resume.log")
    ctx.sh(f"{GYM} eval profile --inputs {run}/results/rollouts_materialized_inputs.jsonl "
           f"--rollouts {run}/results/rollouts.jsonl", "eval_profile.log")
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 10)
    materialized = rows_of(run / "results" / "rollouts_materialized_inputs.jsonl")
    if len(materialized) != 10:
        raise RecipeError(f"--resume rebuilt the inputs ({len(materialized)} rows, exit {code})")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace, policy latency 1.2 s): `gym eval run --no-serve "
            "--num-repeats 2` on 5 string_match tasks, SIGKILLed after 4 of 10 rollouts; then the same command with "
            f"`--num-repeats 4 --resume` (exit {code}), which kept the old materialized inputs ({len(materialized)} "
            f"rows, 2 repeats per task) and finished with {len(unique_keys(run / 'results' / 'rollouts.jsonl'))} "
            "rollouts; then `gym eval profile`.")


@case("cache_resume_builtin_resume_refused_after_rematerialize", "cache_resume", [],
      "a killed collection was resumed with `collect --resume` after its materialized inputs had been rebuilt with "
      "other settings (3 repeats instead of 2), so the partial rollouts no longer belong to the inputs and the "
      "resume was refused")
def cache_resume_builtin_resume_refused_after_rematerialize(ctx: Ctx) -> str:
    data = ctx.dataset("mcqa", 6, start=2)
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 500")
    run = ctx.run
    materialize(ctx, data, 2, "mcqa")
    first = ctx.bg(shlex.join(collect_argv(run, url, "mcqa", 2)), "logs/collect.log")
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 5 or first.poll() is not None, 120, "5 rollouts")
    ctx.note("kill -9 on that `gym-pipeline collect` after 5 of 12 rollouts")
    ctx.stop(first, signal.SIGKILL, 1)
    materialize(ctx, data, 3, "mcqa", log="logs/materialize_again.log")
    code = ctx.sh(shlex.join(collect_argv(run, url, "mcqa", 2, "--resume")), "logs/collect_resume.log")
    profiled = ctx.sh(shlex.join(profile_argv(run)), "logs/profile.log")
    if code == 0:
        raise RecipeError("collect --resume accepted the rebuilt inputs")
    return ("`gym-pipeline materialize` (mcqa, 6 tasks x 2 repeats) and `gym-pipeline collect` (concurrency 2, policy "
            "latency 500 ms) SIGKILLed after 5 rollouts; the inputs were then materialized again with --num-repeats 3 "
            f"over the same file, and `gym-pipeline collect --resume` exited {code}; the strict `gym-pipeline "
            f"profile` then exited {profiled}.")


@case("cache_resume_gym_ctrl_c_then_strict_profile", "cache_resume", ["--resume"],
      "the collection was interrupted (Ctrl-C) with part of the rollouts written and never resumed, so the strict "
      "`gym eval profile` refused the missing rollouts", netns=True)
def cache_resume_gym_ctrl_c_then_strict_profile(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("mcqa", 4, start=12, folder=run, name="mcqa_tasks.jsonl")
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 1000", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = ctx.gym_env_start(f"{gym_model_args(url, resources_server='mcqa')} {overrides}")
    eval_run = gym_eval(ctx, overrides, f"--agent mcqa_simple_agent --input {data} --output {run}/rollouts.jsonl "
                                        "--num-repeats 4 --concurrency 2", background=True)
    wait_for(lambda: finished(ctx, 5, 16)() or eval_run.poll() is not None, 180, "5 of 16 rollouts")
    ctx.note("Ctrl-C on `gym eval run` after 5 of 16 rollouts (the user needed the terminal)")
    ctx.stop(eval_run, signal.SIGINT, 30)
    code = ctx.sh(f"{GYM} eval profile --inputs {run}/rollouts_materialized_inputs.jsonl "
                  f"--rollouts {run}/rollouts.jsonl", "eval_profile.log")
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 10)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code == 0 or got >= 16:
        raise RecipeError(f"the strict profile exited {code} with {got} rollouts")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve` on mcqa (4 tasks x 4 repeats, "
            f"concurrency 2, policy latency 1 s) stopped with Ctrl-C after 5 of 16 rollouts ({got} on disk); then the "
            f"strict `gym eval profile` exited {code}.")


@case("cache_resume_slurm_job_cancelled_partial", "cache_resume", ["--resume"],
      "the user cancelled the collection's Slurm job (scancel) half way, leaving a partial rollouts.jsonl that was "
      "never resumed; the strict profile then failed on the missing rollouts")
def cache_resume_slurm_job_cancelled_partial(ctx: Ctx) -> str:
    import threading

    from gym_pipeline.launchers.slurm import SlurmLauncher

    data = ctx.dataset("string_match", 6, start=0)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 600")
    run = ctx.run
    materialize(ctx, data, 4, "string_match")
    argv = collect_argv(run, url, "string_match", 2)
    ctx.note(f"SlurmLauncher(time_limit='30').run(StageLaunch('collect', {ctx._shown(shlex.join(argv))}))")
    result: dict = {}
    worker = threading.Thread(target=lambda: result.update(
        ended=launch(SlurmLauncher(time_limit="30", poll_interval_s=0.5), "collect", argv, run)))
    worker.start()
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 8, 120, "8 rollouts")
    job = launcher_state(ctx, "collect").get("slurm_job_id")
    ctx.sh(f"scancel {job}", "logs/scancel.log")
    worker.join(120)
    code = ctx.sh(shlex.join(profile_argv(run)), "logs/profile.log")
    got = len(rows_of(run / "rollouts.jsonl"))
    if code == 0 or got >= 24:
        raise RecipeError(f"profile exited {code} with {got} rollouts")
    return ("`gym-pipeline materialize` (string_match, 6 tasks x 4 repeats); `gym-pipeline collect --concurrency 2` "
            "as a Slurm job (project's SlurmLauncher, time limit 30 min, policy latency 600 ms); once 8 rollouts were "
            f"written the user ran `scancel {job}` ({result.get('ended')}); then the strict `gym-pipeline profile` "
            f"exited {code}. {got} of 24 rollouts on disk.")


@case("cache_resume_gym_resume_across_checkpoints", "cache_resume", [],
      "a collection interrupted against checkpoint step_0100 was resumed with --resume after the model server had "
      "been switched to step_0200, so the rollouts kept from the first run come from the other checkpoint and the "
      "run mixes two models", netns=True)
def cache_resume_gym_resume_across_checkpoints(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=3, folder=run, name="tasks.jsonl")
    step_0100, step_0200 = checkpoints(ctx, "string_match", data)
    url, policy = ctx.policy(step_0100, "--latency-ms 1000", log="policy_server_step_0100.log")
    overrides = ctx.gym_overrides()
    env_start = ctx.gym_env_start(f"{gym_model_args(url)} {overrides}", log="env_start_step_0100.log")
    args = (f"--agent string_match_simple_agent --input {data} --output {run}/results/rollouts.jsonl "
            "--num-repeats 3 --concurrency 2")
    first = gym_eval(ctx, overrides, args, log="eval_run_step_0100.log", background=True)
    wait_for(lambda: finished(ctx, 6, 15, "eval_run_step_0100.log")() or first.poll() is not None, 180, "6 rollouts")
    ctx.note("Ctrl-C on `gym eval run`, `gym env start` and the policy (step_0100) after 6 of 15 rollouts")
    ctx.stop(first, signal.SIGINT, 30)
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 10)
    before = len(unique_keys(run / "results" / "rollouts.jsonl"))
    url, policy = ctx.policy(step_0200, "--latency-ms 200", log="policy_server_step_0200.log")
    overrides = ctx.gym_overrides()
    env_start = ctx.gym_env_start(f"{gym_model_args(url)} {overrides}", log="env_start_step_0200.log")
    code = gym_eval(ctx, overrides, args + " --resume", log="eval_run_step_0200_resume.log")
    ctx.sh(f"{GYM} eval profile --inputs {run}/results/rollouts_materialized_inputs.jsonl "
           f"--rollouts {run}/results/rollouts.jsonl", "eval_profile.log")
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 10)
    after = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if not 0 < before < 15 or after != 15:
        raise RecipeError(f"{before} rollouts before the switch, {after} after")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve` (5 string_match tasks x 3 "
            f"repeats) against the simulated policy serving step_0100, stopped with Ctrl-C after {before} rollouts; "
            "then the policy was restarted on step_0200, `gym env start` started again against it, and the same "
            f"`gym eval run` with `--resume` (exit {code}) completed the remaining rollouts; then `gym eval profile`.")


# =====================================================================================================
# throughput / resources
# =====================================================================================================


@case("throughput_gym_concurrency_over_server_queue", "throughput_resources", ["concurrency"],
      "`gym eval run --concurrency 48` sent far more requests than the model server runs (2 at once, 4 waiting), so "
      "the overflow was refused with 429 overloaded and many rollouts failed", netns=True)
def throughput_gym_concurrency_over_server_queue(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=2, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 500 --max-running 2 --max-waiting 4", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = ctx.gym_env_start(f"{gym_model_args(url)} {overrides}")
    code = gym_eval(ctx, overrides, f"--agent string_match_simple_agent --input {data} --output {run}/rollouts.jsonl "
                                    "--num-repeats 4 --concurrency 48")
    ctx.stop(env_start, signal.SIGINT, 30)
    ctx.stop(policy, signal.SIGINT, 10)
    if "overloaded" not in text_of(run / "policy_server.log") + text_of(run / "rollouts_failures.jsonl") + text_of(
            run / "env_start.log"):
        raise RecipeError(f"the server never refused a request (exit {code})")
    return ("Real NeMo Gym 0.7.0 (loopback-only namespace): `gym eval run --no-serve --concurrency 48` on 8 "
            "string_match tasks x 4 repeats against the simulated policy running 2 requests at once with at most 4 "
            f"waiting (`--max-running 2 --max-waiting 4`, 500 ms per answer); exit {code}, "
            f"{len(rows_of(run / 'rollouts.jsonl'))} rollouts, {len(rows_of(run / 'rollouts_failures.jsonl'))} "
            "failure rows.")


@case("throughput_slurm_builtin_overloaded_server", "throughput_resources", ["concurrency"],
      "the collection ran at concurrency 96 against a model server that runs 2 requests and queues 6, so most "
      "requests were refused with 429 overloaded until their attempts ran out")
def throughput_slurm_builtin_overloaded_server(ctx: Ctx) -> str:
    from gym_pipeline.launchers.slurm import SlurmLauncher

    data = ctx.dataset("mcqa", 10, start=6)
    checkpoint = checkpoints(ctx, "mcqa", data)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 400 --max-running 2 --max-waiting 6")
    run = ctx.run
    materialize(ctx, data, 4, "mcqa")
    ended = launched(ctx, SlurmLauncher(time_limit="10", poll_interval_s=0.5), "SlurmLauncher(time_limit='10')",
                     "collect", collect_argv(run, url, "mcqa", 96))
    ctx.sh(shlex.join(profile_argv(run, "--allow-partial")), "logs/profile.log")
    failures = rows_of(run / "rollouts_failures.jsonl")
    if not any(f.get("_ng_failure_terminal") for f in failures):
        raise RecipeError(f"no rollout ran out of attempts ({ended})")
    return ("Built-in `gym-pipeline collect --concurrency 96` (mcqa, 10 tasks x 4 repeats) as a Slurm job (project's "
            "SlurmLauncher) against the simulated policy with `--max-running 2 --max-waiting 6 --latency-ms 400`: "
            f"{ended}; {len(failures)} failed attempts; then `gym-pipeline profile --allow-partial`.")


@case("throughput_docker_collect_oom", "throughput_resources", ["memory"],
      "the collect stage ran in a Docker container limited to 20 MiB (no swap), less than the collector needs, and "
      "was OOM-killed (exit 137)")
def throughput_docker_collect_oom(ctx: Ctx) -> str:
    from gym_pipeline.launchers.docker import DockerLauncher

    data = ctx.dataset("string_match", 6, start=4)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint)
    run = ctx.run
    materialize(ctx, data, 3, "string_match")
    ended = launched(ctx, DockerLauncher(network="host", memory_mb=20), "DockerLauncher(network='host', memory_mb=20)",
                     "collect", collect_argv(run, url, "string_match", 8))
    if not launcher_state(ctx, "collect").get("oom_killed"):
        raise RecipeError(f"not OOM-killed: {ended}")
    return ("`gym-pipeline materialize` (string_match, 6 tasks x 3 repeats), then the collect stage (`gym-pipeline "
            "collect --concurrency 8`) in a Docker container through the project's DockerLauncher with memory_mb=20 "
            f"(no swap): {ended}.")


@case("throughput_stage_collect_queue_timeouts", "throughput_resources", ["concurrency"],
      "the sweep's collect stage sent 64 requests at once to a model server that generates one at a time (1 s "
      "each), so queued requests waited past the 8 s request timeout and were retried into the same queue")
def throughput_stage_collect_queue_timeouts(ctx: Ctx) -> str:
    from gym_pipeline.launchers.local import LocalLauncher

    data = ctx.dataset("string_match", 8, start=7, folder=ctx.run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 1000 --max-running 1")
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=4, concurrency=64, request_timeout_s=8)
    common = ["--sweep-config", str(sweep), "--checkpoint", checkpoint.name, "--env", "string_match",
              "--code-version", "v7"]
    ctx.sh(shlex.join([str(GP), "stage", "materialize", *common]), "logs/materialize.log")
    ended = launched(ctx, LocalLauncher(), "LocalLauncher()", "collect",
                     [str(GP), "stage", "collect", *common, "--model-url", url, "--model-name", "sim-policy"])
    failures = rows_of(ctx.run / "rollouts_failures.jsonl")
    if not any("request_timeout_s" in (f.get("_ng_failure_message") or "") for f in failures):
        raise RecipeError(f"no request timed out: {ended}")
    return ("A sweep config (RUN/sweep.json: concurrency 64, request_timeout_s 8, 4 repeats); `gym-pipeline stage "
            "materialize` (8 string_match tasks), then `gym-pipeline stage collect` through the project's LocalLauncher "
            "against the simulated policy generating one request at a time (`--max-running 1 --latency-ms 1000`, "
            f"unbounded queue): {ended}; {len(failures)} failed attempts, "
            f"{len(rows_of(ctx.run / 'rollouts.jsonl'))} of 32 rollouts.")


if __name__ == "__main__":
    sys.exit(main("second_held_out", __file__, __doc__))
