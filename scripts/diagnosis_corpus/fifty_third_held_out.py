"""Build the FIFTY-THIRD HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/fifty_third_held_out.py --out tests/data/diagnosis_corpus/fifty_third_held_out [--only CASE ...]

This set was written after the fifty-two earlier sets (first_held_out.py ... fifty_second_held_out.py), from the guides
alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`), Slurm batch
jobs, the real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` / `gym eval profile` inside a loopback-only network
namespace), and the user's own shell scripts, settings, environment files, Slurm scripts and task prologs. The output
of every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand
but the user's own inputs (data, scripts, settings, verifier code). Each case injects one cause, different in
mechanism from those of the fifty-two earlier sets, and each recipe checks that its fault really happened (it raises
RecipeError otherwise, and the case is not written). Some of the failures are silent: every command exits 0
and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare,
mount), Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this checkout. Run it from a foreground shell.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import checkpoints, failed, gym_start_failing, stop_gym  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_first_held_out import eval_script, gym_week, keys_of, overrides_of  # noqa: E402
from fifty_second_held_out import submit  # noqa: E402
from fortieth_held_out import complete  # noqa: E402
from forty_first_held_out import scancel_all  # noqa: E402
from fourteenth_held_out import mean, rewards  # noqa: E402
from recipes import (  # noqa: E402
    Ctx,
    case,
    gym_model_args,
    main,
    rows_of,
    text_of,
    wait_for,
)
from thirtieth_held_out import gym_rows  # noqa: E402
from thirty_fifth_held_out import mean_reward  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_fifth_held_out import job_logs  # noqa: E402
from twenty_sixth_held_out import slurm_script  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


def env_file_values(path: Path) -> dict[str, str]:
    """The `export NAME=value` lines of a user's environment file, as the shell that sources it would get them."""
    values = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line.startswith("export ") and "=" in line:
            name, value = line.removeprefix("export ").split("=", 1)
            values[name.strip()] = value.split("#", 1)[0].strip().strip("'\"")
    return values


def finished_job(ctx: Ctx, log: str, wrap: str = "true") -> str:
    """A small real job (`sbatch --wrap`) that has run and been purged from the controller; its id."""
    out = ctx.run / log
    code = ctx.sh(f"sbatch --parsable --job-name=earlier --output=/dev/null --wrap '{wrap}'", log)
    job = text_of(out).strip().splitlines()[-1].strip() if code == 0 else ""
    if not job.isdigit():
        raise failed(ctx, f"sbatch exit {code}: {text_of(out)[-800:]}")
    try:
        wait_for(lambda: subprocess.run(["squeue", "-h", "-j", job], env=ctx.env, capture_output=True, text=True
                                        ).returncode != 0, 60, f"job {job} to be purged", poll_s=1)
    finally:
        scancel_all(ctx, job)
    return job


# =====================================================================================================
# the real NeMo Gym 0.7.0: healthy
# =====================================================================================================

DEBUG_ENV = """# debug_env.sh: sourced before `gym env start` while chasing last week's 'inner server 500' (OBS-311)
# records every exact vLLM request and response of the model proxy
export NEMO_GYM_VLLM_TRANSPORT_LOG=RUN_DIR/logs/vllm_transport.jsonl
"""


@case(
    "healthy_gym_vllm_transport_log_left_exported_records_every_model_call",
    "healthy",
    [],
    "nothing is wrong: the user's shell still sources debug_env.sh from an earlier investigation, which exports "
    "`NEMO_GYM_VLLM_TRANSPORT_LOG`; Gym's vllm_model proxy then appends every exact request and response to "
    "logs/vllm_transport.jsonl, which only costs disk space, and every rollout was collected, verified and profiled",
    netns=True,
)
def healthy_gym_vllm_transport_log_left_exported_records_every_model_call(ctx: Ctx) -> str:
    run = ctx.run
    (run / "logs").mkdir(exist_ok=True)
    (run / "debug_env.sh").write_text(DEBUG_ENV.replace("RUN_DIR", str(run)))
    ctx.env.update(env_file_values(run / "debug_env.sh"))
    ctx.note("(the shell that runs everything below has sourced RUN/debug_env.sh)")
    code, got = gym_week(ctx, 12, weaker=True)
    calls = rows_of(run / "logs" / "vllm_transport.jsonl")
    if code or len(keys_of(got)) != 24 or not any(rewards(got)) or len(calls) < 24 \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)}, {len(calls)} calls: {log_of(ctx, 'run_eval.log')[-800:]}")
    return (f"RUN/debug_env.sh (`export NEMO_GYM_VLLM_TRANSPORT_LOG=RUN/logs/vllm_transport.jsonl`) sourced; real "
            f"NeMo Gym 0.7.0 (loopback-only namespace) `gym env start`, RUN/run_eval.sh (`gym eval run --no-serve` "
            f"8 x 3, `gym eval profile`) exit {code}; {len(got)} rollouts, mean reward {mean(rewards(got)):.2f} "
            f"(step_0100); {len(calls)} transport records.")


@case(
    "healthy_gym_eval_run_with_no_health_check_skips_quality_summary",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh passes `--no-health-check` to `gym eval run` (the post-run health "
    "checks took minutes on last month's large sets), so no quality_summary.json or rollout_verdicts.jsonl is "
    "written; every rollout was collected, verified and profiled",
    netns=True,
)
def healthy_gym_eval_run_with_no_health_check_skips_quality_summary(ctx: Ctx) -> str:
    run = ctx.run
    code, got = gym_week(ctx, 28, eval_extra="--no-health-check")
    if code or len(keys_of(got)) != 24 or not any(rewards(got)) \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)}: {log_of(ctx, 'run_eval.log')[-800:]}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace) `gym env start`, RUN/run_eval.sh (`gym eval run --no-serve "
            f"--no-health-check` 8 x 3, `gym eval profile`) exit {code}; {len(got)} rollouts, mean reward "
            f"{mean(rewards(got)):.2f} (step_0200); quality_summary.json "
            f"{'present' if (run / 'results' / 'quality_summary.json').exists() else 'absent'}.")


ADMISSION_OVERRIDES = """# admission.txt: admission limits of the team's sandboxed environment servers (from the agentic eval config)
++string_match_environment_server.environment_servers.legacy_agent.max_concurrent_episodes=2
++string_match_environment_server.environment_servers.legacy_agent.queue_timeout_seconds=30
"""


@case(
    "healthy_gym_admission_limits_copied_onto_legacy_relay_environment_server_have_no_effect",
    "healthy",
    [],
    "nothing is wrong: the user gives `gym env start` admission.txt, copied from an agentic eval, which sets "
    "`max_concurrent_episodes=2` and `queue_timeout_seconds=30` on the string_match environment server; that server "
    "is a legacy relay, which enforces neither and warns that the parameters have no effect, and every rollout was "
    "collected at concurrency 4, verified and profiled",
    netns=True,
)
def healthy_gym_admission_limits_copied_onto_legacy_relay_environment_server_have_no_effect(ctx: Ctx) -> str:
    run = ctx.run
    (run / "admission.txt").write_text(ADMISSION_OVERRIDES)
    code, got = gym_week(ctx, 4, overrides_of(run / "admission.txt"), weaker=True)
    if code or len(keys_of(got)) != 24 or "no effect" not in text_of(run / "env_start.log") \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)}: {text_of(run / 'env_start.log')[-1500:]}")
    return (f"RUN/admission.txt (legacy_agent `max_concurrent_episodes=2`, `queue_timeout_seconds=30`) given to `gym "
            f"env start`; real NeMo Gym 0.7.0 (loopback-only namespace) RUN/run_eval.sh (`gym eval run --no-serve` "
            f"8 x 3, `gym eval profile`) exit {code}; {len(got)} rollouts, mean reward {mean(rewards(got)):.2f} "
            f"(step_0100).")


# =====================================================================================================
# the real NeMo Gym 0.7.0: config
# =====================================================================================================

HARNESS_ENV = """# harness.env: environment of the agent-harness team's launcher (copied to share their proxy settings)
export NO_PROXY=127.0.0.1,localhost
# their OpenAI-compatible frontend rejects the reasoning fields: turn them off
export NEMO_GYM_REASONING_FIELD=none
"""


@case(
    "config_gym_harness_team_env_file_sets_reasoning_field_variable_to_unsupported_value",
    "config",
    ["NEMO_GYM_REASONING_FIELD"],
    "the user sources the agent-harness team's harness.env before `gym env start`; it exports "
    "`NEMO_GYM_REASONING_FIELD=none`, which Gym's vllm_model proxy reads as the default of its reasoning_field "
    "setting and refuses (it must be both, reasoning or reasoning_content), so the model server never started, "
    "`gym env start` never got ready and no rollout ran",
    netns=True,
)
def config_gym_harness_team_env_file_sets_reasoning_field_variable_to_unsupported_value(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=36, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 20", log="policy_server.log")
    (run / "harness.env").write_text(HARNESS_ENV)
    ctx.env.update(env_file_values(run / "harness.env"))
    ctx.note("(the shell that runs everything below has sourced RUN/harness.env)")
    overrides = ctx.gym_overrides()
    ready, exit_code = gym_start_failing(ctx, f"{gym_model_args(url)} {overrides}", timeout_s=120)
    code = ctx.sh(f"bash {eval_script(ctx, overrides)}", "logs/run_eval.log", timeout=300)
    stop_gym(ctx, policy)
    log = text_of(run / "env_start.log")
    if ready or gym_rows(ctx) or "NEMO_GYM_REASONING_FIELD" not in log:
        raise failed(ctx, f"ready {ready}, exit {exit_code}/{code}: {log[-2000:]}")
    return (f"RUN/harness.env (`export NEMO_GYM_REASONING_FIELD=none`) sourced; real NeMo Gym 0.7.0 (loopback-only "
            f"namespace) `gym env start` exit {exit_code}, not ready; RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, "
            f"`gym eval profile`) exit {code}, no rollouts.")


PREWARM_OVERRIDES = """# env_setup.txt: settings of the node's Gym setup (from the image build's venv prewarm step)
++skip_venv_if_present=true
++dry_run=true
"""


@case(
    "config_gym_env_setup_overrides_keep_dry_run_of_image_venv_prewarm_step",
    "config",
    ["dry_run"],
    "the user passes env_setup.txt to `gym env start`; it was copied from the image build's venv prewarm step and "
    "holds `++dry_run=true`, with which Gym only prepares each server's environment and exits ('NeMo Gym "
    "finished!') without serving anything, so `gym eval run` found no servers and no rollout ran",
    netns=True,
)
def config_gym_env_setup_overrides_keep_dry_run_of_image_venv_prewarm_step(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=60, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 20", log="policy_server.log")
    (run / "env_setup.txt").write_text(PREWARM_OVERRIDES)
    overrides = ctx.gym_overrides()
    ready, exit_code = gym_start_failing(ctx, f"{gym_model_args(url)} {overrides_of(run / 'env_setup.txt')} "
                                              f"{overrides}", timeout_s=120)
    code = ctx.sh(f"bash {eval_script(ctx, overrides)}", "logs/run_eval.log", timeout=300)
    stop_gym(ctx, policy)
    log = text_of(run / "env_start.log")
    if ready or gym_rows(ctx) or "DRY_RUN" not in log:
        raise failed(ctx, f"ready {ready}, exit {exit_code}/{code}: {log[-2000:]}")
    return (f"RUN/env_setup.txt (`++dry_run=true`) given to `gym env start`: real NeMo Gym 0.7.0 (loopback-only "
            f"namespace) exit {exit_code}; RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, `gym eval profile`) exit "
            f"{code}, no rollouts.")


NARROW_PORTS = """# ports.txt: the node's firewall opens 30000-30002 for the eval (ticket NET-2318: 'three ports, one per
# Gym server')
++port_range_low=30000
++port_range_high=30002
"""


@case(
    "config_gym_port_range_opened_for_three_servers_too_narrow_for_every_server_gym_starts",
    "config",
    ["port_range_high"],
    "the user gives `gym env start` ports.txt (`++port_range_low=30000 ++port_range_high=30002`), three ports asked "
    "for as 'one per Gym server'; Gym places every server it starts (resources server, agent, environment server, "
    "model proxy) on a distinct port of that range, and with more servers than ports its port search never ends, so "
    "`gym env start` hung before starting any server and no rollout ran",
    netns=True,
)
def config_gym_port_range_opened_for_three_servers_too_narrow_for_every_server_gym_starts(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=68, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 20", log="policy_server.log")
    (run / "ports.txt").write_text(NARROW_PORTS)
    overrides = ctx.gym_overrides()
    ready, exit_code = gym_start_failing(ctx, f"{gym_model_args(url)} {overrides_of(run / 'ports.txt')} {overrides}",
                                         timeout_s=90)
    code = ctx.sh(f"bash {eval_script(ctx, overrides)}", "logs/run_eval.log", timeout=300)
    stop_gym(ctx, policy)
    log = text_of(run / "env_start.log")
    if ready or gym_rows(ctx) or ":3000" in log:
        raise failed(ctx, f"ready {ready}, exit {exit_code}/{code}: {log[-2000:]}")
    return (f"RUN/ports.txt (`++port_range_low=30000 ++port_range_high=30002`) given to `gym env start`: real NeMo "
            f"Gym 0.7.0 (loopback-only namespace) not ready after 90 s, Ctrl-C (exit {exit_code}); RUN/run_eval.sh "
            f"(`gym eval run --no-serve` 8 x 3, `gym eval profile`) exit {code}, no rollouts.")


SERVING_TEAM_YAML = """# team_model.yaml: model server settings shared by the serving team (their launcher exports SERVED_MODEL_NAME
# to the name each deployment serves; the default is the production model)
policy_model:
  responses_api_models:
    vllm_model:
      model: ${oc.env:SERVED_MODEL_NAME,Qwen/Qwen3-8B}
"""


@case(
    "config_gym_team_model_yaml_takes_model_name_from_serving_launchers_variable_and_falls_back_to_production_name",
    "config",
    ["SERVED_MODEL_NAME"],
    "the user gives `gym env start` the serving team's team_model.yaml with +config_paths; its vllm_model sets "
    "`model: ${oc.env:SERVED_MODEL_NAME,Qwen/Qwen3-8B}`, meant for the serving team's launcher, which exports "
    "SERVED_MODEL_NAME; the user's shell does not, so OmegaConf fell back to the production name and every "
    "completion asked the model server (serving sim-policy) for Qwen/Qwen3-8B, which it refused (404 model not "
    "found): no rollout was scored",
    netns=True,
)
def config_gym_team_model_yaml_takes_model_name_from_serving_launchers_variable_and_falls_back_to_production_name(
        ctx: Ctx) -> str:
    run = ctx.run
    (run / "team_model.yaml").write_text(SERVING_TEAM_YAML)
    ctx.env.pop("SERVED_MODEL_NAME", None)
    code, got = gym_week(ctx, 44, f"'+config_paths=[{run / 'team_model.yaml'}]'")
    everything = "".join(text_of(p) for p in run.rglob("*") if p.is_file() and p.suffix in (".log", ".jsonl"))
    scored = [r for r in got if r.get("reward") is not None]
    if scored or "Qwen/Qwen3-8B" not in everything or "does not exist" not in everything:
        raise failed(ctx, f"exit {code}, {len(got)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/team_model.yaml (vllm_model `model: ${{oc.env:SERVED_MODEL_NAME,Qwen/Qwen3-8B}}`) given to `gym env "
            f"start --model sim-policy` with +config_paths, SERVED_MODEL_NAME unset; real NeMo Gym 0.7.0 (loopback-only "
            f"namespace) RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, `gym eval profile`) exit {code}; "
            f"{len(scored)} scored rollouts.")


START_ENV = """#!/bin/bash
# start_env.sh: start the Gym servers with every settings file of configs/ (team model settings, request debug)
cd RUN_DIR
CONFIGS=$(ls RUN_DIR/configs/*.yaml | paste -sd, -)
echo "== gym env start with $CONFIGS"
exec GYM_BIN env start ARGS "+config_paths=$CONFIGS"
"""

TEAM_YAMLS = {
    "team_model.yaml": "# team_model.yaml: the team's model server settings\npolicy_model:\n  responses_api_models:\n"
                       "    vllm_model:\n      endpoint_connection_retries: 10\n",
    "timeouts.yaml": "# timeouts.yaml: give slow servers time to come up\nserver_spinup_timeout_seconds: 900\n",
}


@case(
    "config_gym_start_script_joins_settings_files_with_commas_so_hydra_reads_config_paths_as_a_sweep",
    "config",
    ["config_paths"],
    "the user's start_env.sh gives `gym env start` every settings file of configs/ as "
    "`+config_paths=$(ls configs/*.yaml | paste -sd, -)`, i.e. `+config_paths=a.yaml,b.yaml` without brackets; "
    "Hydra reads a comma-separated value as a sweep and refuses it ('Ambiguous value for argument'), so no server "
    "started, and the eval that followed collected nothing",
    netns=True,
)
def config_gym_start_script_joins_settings_files_with_commas_so_hydra_reads_config_paths_as_a_sweep(ctx: Ctx) -> str:
    from recipes import GYM

    run = ctx.run
    data = ctx.dataset("string_match", 8, start=52, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 20", log="policy_server.log")
    (run / "configs").mkdir()
    for name, text in TEAM_YAMLS.items():
        (run / "configs" / name).write_text(text)
    overrides = ctx.gym_overrides()
    (run / "start_env.sh").write_text(slurm_script(START_ENV, ctx, GYM_BIN=str(GYM),
                                                   ARGS=f"{gym_model_args(url)} {overrides}"))
    env_start = ctx.bg(f"bash {run}/start_env.sh", "env_start.log")
    wait_for(lambda: env_start.poll() is not None or "servers ready" in text_of(run / "env_start.log"), 120,
             "start_env.sh")
    code = ctx.sh(f"bash {eval_script(ctx, overrides)}", "logs/run_eval.log", timeout=300)
    stop_gym(ctx, env_start, policy)
    log = text_of(run / "env_start.log")
    if gym_rows(ctx) or "Ambiguous value for argument" not in log:
        raise failed(ctx, f"exit {env_start.returncode}/{code}: {log[-2000:]}")
    return (f"RUN/start_env.sh (`gym env start ... \"+config_paths=$(ls configs/*.yaml | paste -sd, -)\"`) exit "
            f"{env_start.returncode}; real NeMo Gym 0.7.0 (loopback-only namespace) RUN/run_eval.sh (`gym eval run "
            f"--no-serve` 8 x 3, `gym eval profile`) exit {code}, no rollouts.")


CI_EVAL_OVERRIDES = """# ci_overrides.txt: settings of the CI eval step
# the CI step has 45 s for collection: stop starting new rollouts after that
++dispatch_budget_s=45
# one rollout at a time, so the model proxy's log lines do not interleave (debugging OBS-311)
++num_samples_in_parallel=1
"""


@case(
    "throughput_gym_eval_debug_override_num_samples_in_parallel_of_one_overrides_concurrency_flag",
    "throughput_resources",
    ["num_samples_in_parallel"],
    "the user's ci_overrides.txt, passed to `gym eval run`, still holds `++num_samples_in_parallel=1` from debugging "
    "(one rollout at a time, so log lines do not interleave); that setting caps Gym's concurrent requests whatever "
    "`--concurrency 4` says, so against a model server taking 4 s a reply the rollouts ran one by one, the CI step's "
    "45 s dispatch budget ran out with part of the 8 x 3 rollouts never dispatched, and `gym eval profile` refused "
    "the partial collection",
    netns=True,
)
def throughput_gym_eval_debug_override_num_samples_in_parallel_of_one_overrides_concurrency_flag(ctx: Ctx) -> str:
    run = ctx.run
    (run / "ci_overrides.txt").write_text(CI_EVAL_OVERRIDES)
    code, got = gym_week(ctx, 20, flags="--latency-ms 4000", eval_extra="$(grep -v '^#' ci_overrides.txt)")
    log = log_of(ctx, "run_eval.log")
    if len(keys_of(got)) >= 20 or len(keys_of(got)) < 3 or "Drained" not in log:
        raise failed(ctx, f"exit {code}, {len(got)}: {log[-1500:]}")
    return (f"RUN/ci_overrides.txt (`++dispatch_budget_s=45`, `++num_samples_in_parallel=1`) given to `gym eval run "
            f"--concurrency 4`; real NeMo Gym 0.7.0 (loopback-only namespace) RUN/run_eval.sh (`gym eval run "
            f"--no-serve` 8 x 3 against a server taking 4 s a reply, `gym eval profile`) exit {code}; "
            f"{len(keys_of(got))} of 24 rollouts.")


# =====================================================================================================
# Slurm batch jobs
# =====================================================================================================

TEAM_PROLOG = """#!/bin/bash
# team_prolog.sh: the team's srun task prolog (GPU cluster template): each `export`/`print` line applies to the task
echo "print [team prolog] task $SLURM_PROCID of job $SLURM_JOB_ID on $(hostname)"
if ! command -v nvidia-smi >/dev/null; then echo "print [team prolog] nvidia-smi not found: GPU clocks not pinned"; fi
echo "export OMP_NUM_THREADS=1"
echo "export TOKENIZERS_PARALLELISM=false"
"""

PROLOG_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=15
#SBATCH --ntasks=1
cd RUN_DIR
echo "== weekly eval, job $SLURM_JOB_ID"
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
srun --task-prolog=RUN_DIR/team_prolog.sh GP_BIN collect --inputs rollouts_materialized_inputs.jsonl \\
  --output rollouts.jsonl --model-url MODEL_URL --env string_match --concurrency 4
srun --task-prolog=RUN_DIR/team_prolog.sh GP_BIN profile --inputs rollouts_materialized_inputs.jsonl \\
  --rollouts rollouts.jsonl
"""


@case(
    "healthy_slurm_steps_run_under_gpu_teams_task_prolog_that_finds_no_nvidia_smi",
    "healthy",
    [],
    "nothing is wrong: the user's eval.sbatch runs collect and profile as srun steps with the team's "
    "`--task-prolog=team_prolog.sh`, which sets OMP_NUM_THREADS and TOKENIZERS_PARALLELISM and prints that "
    "nvidia-smi is missing on this CPU node; neither changes the eval, and the job collected and profiled every "
    "rollout",
)
def healthy_slurm_steps_run_under_gpu_teams_task_prolog_that_finds_no_nvidia_smi(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 70)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "team_prolog.sh").write_text(TEAM_PROLOG)
    (run / "team_prolog.sh").chmod(0o755)
    (run / "eval.sbatch").write_text(slurm_script(PROLOG_SBATCH, ctx, MODEL_URL=url))
    code = submit(ctx)
    got = complete(ctx)
    job = job_logs(ctx, "eval_*.log")
    if code or got != 24 or "nvidia-smi not found" not in job \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {job[-1500:]} {text_of(run / 'logs' / 'submit.log')[-600:]}")
    return (f"RUN/eval.sbatch (materialize 8 x 3; `srun --task-prolog=RUN/team_prolog.sh` collect, profile) via "
            f"RUN/submit.sh exit {code}; {got} rollouts, mean reward {mean_reward(run / 'rollouts.jsonl')}.")


COLLECT_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-collect
#SBATCH --output=RUN_DIR/logs/collect_%j.log
#SBATCH --time=15
#SBATCH --ntasks=1
cd RUN_DIR
echo "== weekly collect, job $SLURM_JOB_ID"
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 2
"""

PROFILE_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-profile
#SBATCH --output=RUN_DIR/logs/profile_%j.log
#SBATCH --time=5
#SBATCH --ntasks=1
cd RUN_DIR
echo "== weekly profile, job $SLURM_JOB_ID (after $AFTER)"
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""

CHAIN_SUBMIT = """#!/bin/bash
# submit.sh: collect job, then the profile job once collect has succeeded; every job id is kept in job_ids.txt
cd RUN_DIR
sbatch --parsable collect.sbatch >> job_ids.txt || exit 1
COLLECT=$(head -n 1 job_ids.txt)
echo "collect job: $COLLECT"
PROFILE=$(sbatch --parsable --dependency=afterok:$COLLECT --export=ALL,AFTER=$COLLECT profile.sbatch) || exit 1
echo $PROFILE >> job_ids.txt
echo "profile job: $PROFILE (afterok:$COLLECT)"
START=$SECONDS
while squeue -h -j $(paste -sd, job_ids.txt) 2>/dev/null | grep -q .; do
  (( SECONDS - START > 300 )) && { echo "jobs still queued or running after 300 s, giving up"; exit 1; }
  sleep 2
done
echo "jobs finished"
"""


@case(
    "cache_resume_slurm_profile_job_depends_on_first_id_of_appended_job_id_file_from_last_week",
    "cache_resume",
    ["dependency"],
    "the user's submit.sh appends each job id to job_ids.txt (`>>`, kept as history since last week) and makes the "
    "profile job wait for `afterok:$(head -n 1 job_ids.txt)`, which is last week's long-finished job, not this "
    "week's collect job; Slurm counts a dependency on a job it no longer knows as satisfied, so the profile job "
    "started at once, while collect was still running, and profiled incomplete rollouts (it refused them: rollouts "
    "missing); the collect job finished later and nothing profiled its complete output",
)
def cache_resume_slurm_profile_job_depends_on_first_id_of_appended_job_id_file_from_last_week(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 78)
    url, _ = ctx.policy(better, "--latency-ms 2500")
    (run / "logs").mkdir(exist_ok=True)
    old = finished_job(ctx, "logs/last_week_submit.log", "echo last week")
    ctx.sh(f"echo {old} >> {run}/job_ids.txt", None)
    ctx.note(f"(last week's submission appended its job id {old} to RUN/job_ids.txt; that job finished long ago)")
    (run / "collect.sbatch").write_text(slurm_script(COLLECT_SBATCH, ctx, MODEL_URL=url))
    (run / "profile.sbatch").write_text(slurm_script(PROFILE_SBATCH, ctx))
    (run / "submit.sh").write_text(slurm_script(CHAIN_SUBMIT, ctx))
    try:
        code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=420)
    finally:
        scancel_all(ctx, *text_of(run / "job_ids.txt").split())
    got = complete(ctx)
    profile = job_logs(ctx, "profile_*.log")
    if got != 24 or (run / "rollouts_reward_profiling.jsonl").exists() or f"after {old}" not in profile \
            or "weekly profile" not in profile:
        raise failed(ctx, f"exit {code}, {got}: {profile[-1500:]} {text_of(run / 'logs' / 'submit.log')[-800:]}")
    return (f"RUN/job_ids.txt (last week's job id {old}); RUN/submit.sh (`sbatch collect.sbatch >> job_ids.txt`, "
            f"`--dependency=afterok:$(head -n 1 job_ids.txt)` for profile.sbatch) exit {code}; the profile job ran "
            f"at once against the collect in progress; collect finished with {got} rollouts, no profile.")


TMUX_RUN = """#!/bin/bash
# run_eval.sh: the weekly eval, run from the eval tmux session; the steps go through srun so they show in sacct
cd RUN_DIR
echo "== weekly eval on $(hostname): $(env | grep -c '^SLURM_') SLURM_ variables, SLURM_JOB_ID=${SLURM_JOB_ID:-none}"
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
srun --ntasks=1 --time=15 GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl \\
  --model-url MODEL_URL --env string_match --concurrency 4
srun --ntasks=1 --time=5 GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "infra_slurm_run_script_started_from_tmux_pane_of_expired_allocation_so_srun_targets_a_finished_job",
    "infra",
    ["SLURM_JOB_ID"],
    "the user ran run_eval.sh from a tmux pane opened inside yesterday's `salloc` allocation, which has since ended; "
    "the pane still holds that allocation's SLURM_JOB_ID (and SLURM_JOBID, SLURM_NODELIST, ...), so every "
    "`srun` in the script tried to start a step in the finished job and was refused (invalid job id): materialize "
    "ran, but no rollout was collected and nothing was profiled",
)
def infra_slurm_run_script_started_from_tmux_pane_of_expired_allocation_so_srun_targets_a_finished_job(
        ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 2)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    old = finished_job(ctx, "logs/yesterday_allocation.log", "sleep 1")
    node = subprocess.run(["hostname", "-s"], capture_output=True, text=True).stdout.strip()
    stale = {"SLURM_JOB_ID": old, "SLURM_JOBID": old, "SLURM_JOB_NODELIST": node, "SLURM_NODELIST": node,
             "SLURM_JOB_NUM_NODES": "1", "SLURM_NNODES": "1", "SLURM_JOB_NAME": "interactive"}
    ctx.note(f"(yesterday's allocation, job {old}, has ended; the tmux pane opened inside it still has "
             f"{' '.join(f'{k}={v}' for k, v in stale.items())})")
    env = {**ctx.env, **stale}
    (run / "run_eval.sh").write_text(slurm_script(TMUX_RUN, ctx, MODEL_URL=url))
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=300, env=env)
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) or (run / "rollouts_reward_profiling.jsonl").exists() \
            or not (run / "rollouts_materialized_inputs.jsonl").exists() or "Invalid job id" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 8 x 3, `srun` collect, `srun` profile) run in a shell still holding "
            f"SLURM_JOB_ID={old} of an ended allocation: exit {code}; no rollouts.")


if __name__ == "__main__":
    sys.exit(main("fifty_third_held_out", __file__, __doc__))
