"""Build the FIFTY-EIGHTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/fifty_eighth_held_out.py --out tests/data/diagnosis_corpus/fifty_eighth_held_out [--only CASE ...]

This set was written after the fifty-seven earlier sets (first_held_out.py ... fifty_seventh_held_out.py), from the guides
alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`,
`reverify`), the real NeMo Gym 0.7.0 in a loopback-only network namespace (with a user's own resources server),
Docker containers the user's scripts start, and the user's own shell and Python tooling, settings, serving scripts,
watchers, data-preparation scripts and verifiers. The output of every command is captured as a user would
(`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data, scripts,
settings, verifier code). Each case injects one cause, different in mechanism from those
of the fifty-seven earlier sets, and each recipe checks that its fault really happened (it raises RecipeError
otherwise, and the case is not written). About half of the failures are silent: every command exits 0 and only the
result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), NeMo Gym 0.7.0 (GYM_PIPELINE_NEMO_GYM), and PYTHONPATH set
to this checkout. Run it from a foreground shell.
"""
from __future__ import annotations

import hashlib
import shlex
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import checkpoints, failed, workspace_sweep  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_fifth_held_out import CAPITALS  # noqa: E402
from fifty_first_held_out import gym_week, keys_of  # noqa: E402
from fifty_second_held_out import run_script  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from forty_second_held_out import workspace_script  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from recipes import BIN, GP, ROOT, Ctx, case, main, rows_of, text_of  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_second_held_out import question_row, write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def mean_of(rows: list[dict]) -> float:
    got = rewards(rows)
    return sum(got) / len(got) if got else 0.0


def weekly(ctx: Ctx, preamble: list[str], n: int = 6, start: int = 0, flags: str = "--latency-ms 20"
           ) -> tuple[int, list[dict]]:
    """RUN/string_match.jsonl (n rows), the better simulated checkpoint served, RUN/run_eval.sh (`preamble`, then
    materialize x 3, collect, profile) run; (exit code, rollouts)."""
    _, (_, better) = builtin_rows(ctx, n, start)
    url, _ = ctx.policy(better, flags)
    script = run_script(ctx, url, preamble)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    return code, rows_of(ctx.run / "rollouts.jsonl")


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_builtin_run_script_checks_data_with_sha256sum_list_still_naming_retired_split",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh first checks the dataset against the team's SHA256SUMS with `sha256sum "
    "-c`; the list still names last quarter's string_match_v1.jsonl, retired and deleted since, so the log carries "
    "'No such file or directory', 'FAILED open or read' and 'WARNING: 1 listed file could not be read', but this "
    "week's string_match.jsonl is 'OK' and materialize, collect and profile completed every rollout",
)
def healthy_builtin_run_script_checks_data_with_sha256sum_list_still_naming_retired_split(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=10, folder=run, name="string_match.jsonl")
    old = hashlib.sha256(ctx.dataset("string_match", 6, start=40, name="old.jsonl").read_bytes()).hexdigest()
    (run / "SHA256SUMS").write_text(f"{old}  string_match_v1.jsonl\n"
                                    f"{hashlib.sha256(data.read_bytes()).hexdigest()}  string_match.jsonl\n")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run_script(ctx, url, ["# the data must be the reviewed export", "sha256sum -c SHA256SUMS || echo "
                                   "'checksums: see above'", "echo '== weekly eval'"])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    got = rows_of(run / "rollouts.jsonl")
    log = log_of(ctx, "run_eval.log")
    if code or complete(ctx) != 18 or "could not be read" not in log or "string_match.jsonl: OK" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1200:]}")
    return (f"RUN/SHA256SUMS (names the deleted string_match_v1.jsonl); RUN/run_eval.sh (`sha256sum -c`, then "
            f"materialize 6 x 3, collect, profile) exit {code}; {complete(ctx)} of 18 rollouts, mean reward "
            f"{mean_of(got):.2f}.")


CGROUP_V2_LINES = [
    "# record the memory limit of the job for the weekly report (cgroup v2 path from the new cluster's docs)",
    "echo \"memory limit: $(cat /sys/fs/cgroup/memory.max)\"",
    "echo \"cpu quota: $(cat /sys/fs/cgroup/cpu.max)\"",
    "echo '== weekly eval'",
]


@case(
    "healthy_builtin_run_script_reads_cgroup_v2_limit_files_on_cgroup_v1_node",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh records the job's memory and CPU limits from the cgroup v2 files "
    "/sys/fs/cgroup/memory.max and cpu.max (as the new cluster's docs say); this node still runs cgroup v1, so the "
    "log opens with 'cat: /sys/fs/cgroup/memory.max: No such file or directory' and empty limits, but nothing limits "
    "the run and materialize, collect and profile completed every rollout",
)
def healthy_builtin_run_script_reads_cgroup_v2_limit_files_on_cgroup_v1_node(ctx: Ctx) -> str:
    code, got = weekly(ctx, CGROUP_V2_LINES, n=8, start=20)
    log = log_of(ctx, "run_eval.log")
    if code or complete(ctx) != 24 or "memory.max: No such file" not in log \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1200:]}")
    return (f"RUN/run_eval.sh (`cat /sys/fs/cgroup/memory.max` and `cpu.max` on a cgroup v1 node, then materialize "
            f"8 x 3, collect, profile) exit {code}; {complete(ctx)} of 24 rollouts, mean reward {mean_of(got):.2f}.")


RAY_SIZE_LINES = [
    "# how big Ray's session logs grow (the team's disk-usage note asks for it)",
    "du -sh /tmp/ray/session_latest/logs || echo 'note: no Ray session under /tmp/ray'",
    "echo '== weekly eval'",
]


@case(
    "healthy_gym_run_script_sizes_ray_session_logs_under_default_tmp_ray_while_ray_tmpdir_points_elsewhere",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh records the size of Ray's session logs with `du -sh "
    "/tmp/ray/session_latest/logs`, Ray's default place; this node's RAY_TMPDIR puts Ray's sessions elsewhere, so the "
    "log opens with 'du: cannot access ... No such file or directory', but `gym env start` got every server ready "
    "and the real NeMo Gym eval and its profile completed every rollout",
    netns=True,
)
def healthy_gym_run_script_sizes_ray_session_logs_under_default_tmp_ray_while_ray_tmpdir_points_elsewhere(
        ctx: Ctx) -> str:
    run = ctx.run
    code, got = gym_week(ctx, 70, lines=RAY_SIZE_LINES)
    log = log_of(ctx, "run_eval.log")
    if code or len(keys_of(got)) != 24 or "du: cannot access" not in log \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)}: {log[-800:]}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): `gym env start`, RUN/run_eval.sh (`du -sh "
            f"/tmp/ray/session_latest/logs` fails, `gym eval run --no-serve` 8 x 3, `gym eval profile`) exit {code}; "
            f"{len(keys_of(got))} rollouts, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# model_serving
# =====================================================================================================

SPLITS_SCRIPT = """#!/bin/bash
# run_splits.sh: the weekly eval, split in two parts (part2 is the new hard questions)
cd {run}
# since this week the script starts its own model server (it used to run in another terminal)
{gp} serve-policy --port 0 --ready-file {run}/server_url.txt --checkpoint {checkpoint} --latency-ms 40 \\
  > logs/model_server.log 2>&1 &
for i in $(seq 60); do [ -s server_url.txt ] && break; sleep 0.5; done
URL=$(cat server_url.txt)
echo "model server at $URL"

# progress printer: rollouts so far, every 2 s
( while sleep 2; do echo "$(date +%T) $(cat part*/rollouts.jsonl 2>/dev/null | wc -l) rollouts"; done ) \\
  > logs/progress.log 2>&1 &

for part in part1 part2; do
  echo "== $part"
  mkdir -p $part
  {gp} materialize --input $part.jsonl --num-repeats 3 --agent string_match_simple_agent \\
    --output $part/rollouts_materialized_inputs.jsonl
  {gp} collect --inputs $part/rollouts_materialized_inputs.jsonl --output $part/rollouts.jsonl --model-url "$URL" \\
    --env string_match --concurrency 4
  {gp} profile --inputs $part/rollouts_materialized_inputs.jsonl --rollouts $part/rollouts.jsonl
  if [ $part = part1 ]; then
    kill %1   # part 1 done: stop the progress printer, it double-counts once part2 starts
  fi
done
kill %2   # stop the model server
"""


@case(
    "model_serving_builtin_run_script_kill_percent_one_meant_for_progress_printer_stops_model_server_started_first",
    "model_serving",
    ["kill"],
    "the user's run_splits.sh stops its progress printer after part 1 with `kill %1`; this week the user moved the "
    "model server's start into the same script, above the printer, so job %1 is now the model server: part 1 was "
    "collected and profiled, then the server was killed and every request of part 2 was refused (part 2 has no "
    "rollout, its profile failed), and the final `kill %2` stopped the printer instead",
)
def model_serving_builtin_run_script_kill_percent_one_meant_for_progress_printer_stops_model_server_started_first(
        ctx: Ctx) -> str:
    run = ctx.run
    part1 = ctx.dataset("string_match", 5, start=0, folder=run, name="part1.jsonl")
    ctx.dataset("string_match", 5, start=30, folder=run, name="part2.jsonl")
    both = ctx.dataset("string_match", 5, start=30, name="both.jsonl")
    both.write_text(part1.read_text() + both.read_text())
    _, better = checkpoints(ctx, "string_match", both)
    script = run / "run_splits.sh"
    script.write_text(SPLITS_SCRIPT.format(run=run, gp=GP, checkpoint=better))
    code = ctx.sh(f"bash {script}", "logs/run_splits.log", timeout=300)
    log = log_of(ctx, "run_splits.log")
    one, two = rows_of(run / "part1" / "rollouts.jsonl"), rows_of(run / "part2" / "rollouts.jsonl")
    if len(one) != 15 or two or not (run / "part1" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(one)}, {len(two)}: {log[-1500:]}")
    return (f"RUN/run_splits.sh (serve-policy &, progress printer &, materialize, collect, profile of part1 and part2 "
            f"with `kill %1` between them) exit {code}; part1 {len(one)} of 15 rollouts, part2 {len(two)} of 15.")


# =====================================================================================================
# infra
# =====================================================================================================


def container_collect_script(ctx: Ctx, url: str, docker_flags: str) -> Path:
    """RUN/run_eval.sh: materialize, collect in a container (`docker_flags`), profile."""
    run, pyenv, venv = ctx.run, Path(sys.base_prefix), ROOT / ".venv"
    mounts = " ".join(f"-v {p}:{p}:ro" for p in (pyenv, venv, venv.resolve(), ROOT)) + f" -v {run}:{run}"
    script = run / "run_eval.sh"
    script.write_text(
        "#!/bin/bash\n# weekly eval; collect runs in a container (the node's Python is not the eval's)\n"
        f"cd {run}\n"
        f"{GP} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        "# container flags from the team's launcher template (written for the 8-core eval nodes)\n"
        f"DOCKER_FLAGS=\"{docker_flags}\"\n"
        f"docker run --rm $DOCKER_FLAGS --network host {mounts} -e PYTHONPATH={ROOT} -w {run} "
        f"gym-pipeline/base:bookworm \\\n"
        f"  {BIN}/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output "
        f"rollouts.jsonl --model-url {url} --env string_match --concurrency 4\n"
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    return script


@case(
    "infra_docker_collect_container_pinned_with_cpuset_cpus_of_eight_core_node_refused_on_two_core_node",
    "infra",
    ["cpuset-cpus"],
    "the user's run_eval.sh runs the collect in a container with the flags of the team's launcher template, written "
    "for the 8-core eval nodes, which pins it with `--cpuset-cpus 4-7`; this node has CPUs 0-1 only, so Docker "
    "refused to start the container ('Requested CPUs are not available'), nothing was collected and the profile "
    "found no rollout",
)
def infra_docker_collect_container_pinned_with_cpuset_cpus_of_eight_core_node_refused_on_two_core_node(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 50)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = container_collect_script(ctx, url, "--cpuset-cpus 4-7 --memory 2g")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    ctx.sh("docker ps -a --filter ancestor=gym-pipeline/base:bookworm --format '{{.Names}} {{.Status}}'",
           "logs/docker_ps.log")
    log = log_of(ctx, "run_eval.log")
    if rows_of(run / "rollouts.jsonl") or "Requested CPUs are not available" not in log:
        raise failed(ctx, f"exit {code}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run --cpuset-cpus 4-7 ... collect` on a 2-core node, "
            f"profile) exit {code}; 0 of 18 rollouts.")


@case(
    "infra_docker_collect_container_run_as_unprivileged_user_from_hardening_template_cannot_read_mounted_python",
    "infra",
    ["--user"],
    "the user's run_eval.sh runs the collect in a container with the flags of the security team's hardening "
    "template, `--user 65534:65534` (nobody); the eval's Python is bind-mounted from the host, where it lives under "
    "/root (mode 700), so the unprivileged container user could not even start the interpreter ('permission "
    "denied'): nothing was collected and the profile found no rollout",
)
def infra_docker_collect_container_run_as_unprivileged_user_from_hardening_template_cannot_read_mounted_python(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 66)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = container_collect_script(ctx, url, "--user 65534:65534 --cap-drop ALL --security-opt no-new-privileges")
    script.write_text(script.read_text().replace("written for the 8-core eval nodes", "security team's hardening"))
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    log = log_of(ctx, "run_eval.log")
    if rows_of(run / "rollouts.jsonl") or "ermission denied" not in log:
        raise failed(ctx, f"exit {code}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run --user 65534:65534 ... collect` with the host's Python "
            f"under /root bind-mounted, profile) exit {code}; 0 of 18 rollouts.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

SHARDS_SCRIPT = """#!/bin/bash
# run_shards.sh: the weekly eval in 4 shards collected side by side; CI gives the collect step 30 s
cd {run}
collect_shard() {{
  # from the GPU node template: one job per GPU at a time
  flock {lock} {gp} collect --inputs shard$1/rollouts_materialized_inputs.jsonl --output shard$1/rollouts.jsonl \\
    --model-url {url} --env string_match --concurrency 8
}}
for s in 1 2 3 4; do
  mkdir -p shard$s
  {gp} materialize --input shard$s.jsonl --num-repeats 2 --agent string_match_simple_agent \\
    --output shard$s/rollouts_materialized_inputs.jsonl
done
echo "== collect (4 shards at once, 30 s budget)"
export -f collect_shard
timeout 30 bash -c 'for s in 1 2 3 4; do collect_shard $s & done; wait'
echo "collect step exit $?"
for s in 1 2 3 4; do
  echo "== profile shard$s"
  {gp} profile --inputs shard$s/rollouts_materialized_inputs.jsonl --rollouts shard$s/rollouts.jsonl
done
"""


@case(
    "throughput_builtin_shard_collects_wrapped_in_flock_of_gpu_node_template_run_one_by_one_past_ci_budget",
    "throughput_resources",
    ["flock"],
    "the user's run_shards.sh collects four shards side by side within the CI step's 30 s, but each collect is "
    "wrapped in `flock` on one lock file, copied from the GPU node template (one job per GPU at a time): the four "
    "collects ran one after another against a server taking about 7 s a generation, so the step ran out of its 30 s "
    "budget before the last shard had collected anything (SIGTERM, exit 124); that shard's strict profile failed",
)
def throughput_builtin_shard_collects_wrapped_in_flock_of_gpu_node_template_run_one_by_one_past_ci_budget(
        ctx: Ctx) -> str:
    run = ctx.run
    everything = ctx.dataset("string_match", 16, start=60, name="all.jsonl")
    lines = everything.read_text().splitlines(keepends=True)
    for s in range(4):
        (run / f"shard{s + 1}.jsonl").write_text("".join(lines[4 * s:4 * s + 4]))
    _, better = checkpoints(ctx, "string_match", everything)
    url, _ = ctx.policy(better, "--latency-ms 7000")
    script = run / "run_shards.sh"
    script.write_text(SHARDS_SCRIPT.format(run=run, gp=GP, url=url, lock=ctx.work / "gpu0.lock"))
    code = ctx.sh(f"bash {script}", "logs/run_shards.log", timeout=300)
    counts = [len(rows_of(run / f"shard{s}" / "rollouts.jsonl")) for s in range(1, 5)]
    log = log_of(ctx, "run_shards.log")
    if counts.count(8) < 1 or sum(counts) >= 32 or "collect step exit 124" not in log:
        raise failed(ctx, f"exit {code}, {counts}: {log[-1500:]}")
    return (f"RUN/run_shards.sh (4 shards x 4 tasks x 2, each `flock LOCK gym-pipeline collect`, all under "
            f"`timeout 30`; simulated policy at 7 s a generation) exit {code}; rollouts per shard {counts}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================


@case(
    "cache_resume_builtin_inputs_restored_from_last_weeks_tarball_bring_back_its_rollouts_so_resume_skips_new_checkpoint",
    "cache_resume",
    ["resume"],
    "to skip materializing again, the user restored last week's materialized inputs by unpacking last week's archive "
    "of the run folder (`tar xzf eval_week1.tgz`), which also holds last week's rollouts.jsonl; this week's collect "
    "runs with `--resume` against the new checkpoint step_0200, found every (task, rollout) already settled and "
    "collected nothing: the profile reports step_0100's rewards as this week's (every command exits 0)",
)
def cache_resume_builtin_inputs_restored_from_last_weeks_tarball_bring_back_its_rollouts_so_resume_skips_new_checkpoint(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (weaker, better) = builtin_rows(ctx, 8, 0)
    url1, policy1 = ctx.policy(weaker, "--latency-ms 20", log="logs/model_server_week1.log")
    week1 = run_script(ctx, url1, ["echo '== last week (step_0100)'"])
    code1 = ctx.sh(f"bash {week1}", "logs/run_eval_week1.log", timeout=300)
    ctx.sh(f"cd {run} && tar czf eval_week1.tgz rollouts_materialized_inputs.jsonl rollouts.jsonl "
           "rollouts_reward_profiling.jsonl && rm -f rollouts*.json* && ls", "logs/archive_week1.log")
    ctx.stop(policy1)
    url2, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text(
        "#!/bin/bash\n# weekly eval (step_0200): the inputs did not change, reuse last week's materialized inputs\n"
        f"cd {run}\n"
        "tar xzf eval_week1.tgz\n"
        f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {url2} "
        "--env string_match --concurrency 4 --resume\n"
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    got = rows_of(run / "rollouts.jsonl")
    log = log_of(ctx, "run_eval.log")
    # what step_0200 would have scored on the same inputs
    check = ctx.work / "check"
    check.mkdir()
    ctx.sh(shlex.join(recipes.collect_argv(run, url2, "string_match", 4)).replace(
        f"{run}/rollouts.jsonl", f"{check}/rollouts.jsonl"), None)
    ctx.commands.pop()
    fresh = rows_of(check / "rollouts.jsonl")
    if code or code1 or len(got) != 24 or "0 collected" not in log or not mean_of(fresh) > mean_of(got):
        raise failed(ctx, f"exit {code1}/{code}, {len(got)}, {mean_of(got)} vs {mean_of(fresh)}: {log[-1200:]}")
    return (f"RUN/run_eval.sh last week (step_0100, materialize 8 x 3, collect, profile) exit {code1}, archived in "
            f"RUN/eval_week1.tgz; this week RUN/run_eval.sh (`tar xzf eval_week1.tgz`, `collect --resume` against "
            f"step_0200, profile) exit {code}; mean reward {mean_of(got):.2f} (step_0200 scores {mean_of(fresh):.2f} "
            f"on the same inputs).")


# =====================================================================================================
# config
# =====================================================================================================


@case(
    "config_builtin_run_script_derives_env_from_dataset_file_name_that_now_carries_version_suffix",
    "config",
    ["env"],
    "the user's run_eval.sh names the environment after the dataset file (`ENV=$(basename $DATA .jsonl)`), which "
    "worked while the export was string_match.jsonl; this week's export is string_match_v2.jsonl, so collect was "
    "given `--env string_match_v2`, which is no environment: it stopped before any request and the profile found "
    "no rollout",
)
def config_builtin_run_script_derives_env_from_dataset_file_name_that_now_carries_version_suffix(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 6, 12, name="string_match_v2.jsonl")
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text(
        "#!/bin/bash\n# weekly eval of the labelling team's latest export\n"
        f"cd {run}\n"
        f"DATA={data.name}\n"
        "ENV=$(basename $DATA .jsonl)   # the environment is named after its dataset\n"
        "echo \"== weekly eval of $DATA (env $ENV)\"\n"
        f"{GP} materialize --input $DATA --num-repeats 3 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {url} "
        "--env $ENV --concurrency 4\n"
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    log = log_of(ctx, "run_eval.log")
    if rows_of(run / "rollouts.jsonl") or "string_match_v2" not in log:
        raise failed(ctx, f"exit {code}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (`ENV=$(basename $DATA .jsonl)` with DATA=string_match_v2.jsonl; materialize 6 x 3, "
            f"collect --env $ENV, profile) exit {code}; 0 of 18 rollouts.")


# =====================================================================================================
# data_schema
# =====================================================================================================

COUNTRY_CODES = [("What is the two-letter ISO country code of Germany?", "DE"),
                 ("What is the two-letter ISO country code of Namibia?", "NA"),
                 ("What is the two-letter ISO country code of Japan?", "JP"),
                 ("What is the two-letter ISO country code of Kenya?", "KE"),
                 ("What is the two-letter ISO country code of Brazil?", "BR")]

PREP_PY = '''"""prep.py: the labelling team's codes.csv (question,answer) as string_match rows."""
import json

import pandas as pd

labels = pd.read_csv("codes.csv")
with open("codes.jsonl", "w") as out:
    for question, answer in zip(labels["question"], labels["answer"]):
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message", "content": [
                {"type": "input_text", "text": f"{question} End your response with 'Final answer: <answer>'."}]}]},
            "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}) + "\\n")
print(f"wrote {len(labels)} rows to codes.jsonl")
'''


@case(
    "data_schema_builtin_prep_reads_labels_csv_with_pandas_so_namibias_code_na_becomes_nan",
    "data_schema",
    ["keep_default_na", "na_values"],
    "the user's prep.py turns the labelling team's codes.csv into string_match rows with `pd.read_csv`, whose "
    "default missing-value markers include 'NA': Namibia's country code 'NA' was read as NaN and written as "
    "`\"expected_answer\": NaN` (json.dumps writes the bare token, which is not JSON): materialize refused "
    "codes.jsonl at line 2 as not valid JSON, and nothing was collected or profiled",
)
def data_schema_builtin_prep_reads_labels_csv_with_pandas_so_namibias_code_na_becomes_nan(ctx: Ctx) -> str:
    run = ctx.run
    (run / "codes.csv").write_text("question,answer\n" + "".join(f"{q},{a}\n" for q, a in COUNTRY_CODES))
    (run / "prep.py").write_text(PREP_PY)
    ctx.sh(f"cd {run} && {BIN}/python prep.py", "logs/prep.log")
    _, better = truth_checkpoints(ctx, COUNTRY_CODES)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run_script(ctx, url, ["echo '== weekly eval'"], data="codes.jsonl")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    log = log_of(ctx, "run_eval.log")
    if "NaN" not in text_of(run / "codes.jsonl") or "codes.jsonl:2: not valid JSON" not in log or complete(ctx):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/codes.csv (Namibia's code NA); RUN/prep.py (`pd.read_csv`) wrote RUN/codes.jsonl with "
            f"`\"expected_answer\": NaN`; RUN/run_eval.sh (materialize 5 x 3, collect, profile) exit {code}; "
            f"{complete(ctx)} of 15 rollouts.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

LOWER_VERIFIER = '''"""my_verifier.py: the answer after 'Final answer:', compared with the label without regard to case."""
MARK = "final answer:"


def score(row, response_text):
    text = response_text.strip()
    at = text.lower().rfind(MARK)
    answer = text[at + len(MARK):].strip().rstrip(".") if at >= 0 else ""
    label = str(row["expected_answer"]).strip()
    reward = 1.0 if answer.lower() == label.lower else 0.0
    return {"reward": reward, "extracted_answer": answer, "expected_answer": label}
'''


@case(
    "verifier_runtime_stage_workspace_verifier_compares_with_label_lower_method_not_its_result_so_nothing_matches",
    "verifier_runtime",
    ["lower()"],
    "the workspace verifier my_verifier.py compares `answer.lower() == label.lower` (the method itself, the call's "
    "parentheses missing), a string against a bound method, which is never equal: every answer scored 0, the right "
    "ones too, though the extracted answers match the labels (every command exits 0)",
)
def verifier_runtime_stage_workspace_verifier_compares_with_label_lower_method_not_its_result_so_nothing_matches(
        ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, CAPITALS)
    data = write_jsonl(run / "questions.jsonl", [question_row(q, a) for q, a in CAPITALS])
    url, _ = ctx.policy(better, "--latency-ms 20")
    sweep = workspace_sweep(ctx, "questions", data, better, {"verifier": "my_verifier:score"}, LOWER_VERIFIER,
                            num_repeats=3, concurrency=4)
    script = workspace_script(ctx, sweep, better, "questions", url, ["echo '== weekly eval'"])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    right = [r for r in got if str(r.get("extracted_answer", "")).lower() == str(r.get("expected_answer")).lower()]
    if code or len(got) != 3 * len(CAPITALS) or any(rewards(got)) or not right:
        raise failed(ctx, f"exit {code}, {len(got)}, right {len(right)}, {rewards(got)}: "
                          f"{log_of(ctx, 'run_eval.log')[-1200:]}")
    return (f"RUN/verifiers/my_verifier.py (`answer.lower() == label.lower`); RUN/run_eval.sh (stages materialize "
            f"{len(CAPITALS)} x 3, collect, profile) exit {code}; rewards {rewards(got)}, {len(right)} extracted "
            f"answers equal to their labels.")


if __name__ == "__main__":
    sys.exit(main("fifty_eighth_held_out", __file__, __doc__))
