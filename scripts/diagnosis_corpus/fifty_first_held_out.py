"""Build the FIFTY-FIRST HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/fifty_first_held_out.py --out tests/data/diagnosis_corpus/fifty_first_held_out [--only CASE ...]

This set was written after the fifty earlier sets (first_held_out.py ... fiftieth_held_out.py), from the guides
alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
task folders run in Docker sandboxes, Slurm batch jobs, the real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` /
`gym eval profile` inside a loopback-only network namespace), and the user's own shell scripts, settings, serving
scripts, data-preparation scripts, workspace verifiers, resources servers, team packages and task files. The output
of every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand
but the user's own inputs (data, scripts, settings, verifier code). Each case injects one cause, different in
mechanism from those of the fifty earlier sets, and each recipe checks that its fault really happened (it raises
RecipeError otherwise, and the case is not written). About half of the failures are silent: every command exits 0
and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare,
mount), Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this checkout. Run it from a foreground shell.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import (  # noqa: E402
    checkpoints,
    failed,
    gym_start,
    gym_start_failing,
    stop_gym,
    task_checkpoints,
    user_taskset,
)
from fiftieth_held_out import log_of  # noqa: E402
from fortieth_held_out import complete  # noqa: E402
from fourteenth_held_out import mean, rewards  # noqa: E402
from recipes import (  # noqa: E402
    Ctx,
    case,
    gym_model_args,
    main,
    rows_of,
    text_of,
)
from thirtieth_held_out import gym_rows  # noqa: E402
from twenty_fourth_held_out import gym_eval_line, gym_profile_line  # noqa: E402
from twenty_third_held_out import taskset_script  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()

MODEL = "policy_model.responses_api_models.vllm_model"


def eval_script(ctx: Ctx, overrides: str, lines: list[str] | None = None, repeats: int = 3, concurrency: int = 4,
                eval_extra: str = "") -> Path:
    """RUN/run_eval.sh: `lines`, then `gym eval run --no-serve` on RUN/tasks.jsonl into RUN/results, and profile."""
    script = ctx.run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval\n" + f"cd {ctx.run}\n" + "".join(f"{line}\n" for line in lines or [])
                      + gym_eval_line(f"{eval_extra} {overrides}".strip(), "tasks.jsonl", "results/rollouts.jsonl",
                                      repeats, concurrency) + "\n" + gym_profile_line("results") + "\n")
    return script


def gym_week(ctx: Ctx, start: int, env_extra: str = "", lines: list[str] | None = None, weaker: bool = False,
             flags: str = "--latency-ms 30", eval_extra: str = "", n: int = 8) -> tuple[int, list[dict]]:
    """The user's tasks RUN/tasks.jsonl, a simulated policy, `gym env start` (+ `env_extra`), RUN/run_eval.sh."""
    run = ctx.run
    ctx.dataset("string_match", n, start=start, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", run / "tasks.jsonl")[0 if weaker else 1]
    url, policy = ctx.policy(checkpoint, flags, log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {env_extra} {overrides}".replace("  ", " "))
    script = eval_script(ctx, overrides, lines, eval_extra=eval_extra)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    return code, gym_rows(ctx)


def keys_of(rows: list[dict]) -> set:
    return {(r["_ng_task_index"], r["_ng_rollout_index"]) for r in rows}


# =====================================================================================================
# the real NeMo Gym 0.7.0: config
# =====================================================================================================

LOAD_TEST_OVERRIDES = """# team_overrides.txt: settings every eval of the team passes to `gym env start`
# (2024-05 load test of the serving stack: no verification cost, fixed reward)
++skip_verification=true
++skip_verification_reward=0.0
"""


def overrides_of(path: Path) -> str:
    return " ".join(line.strip() for line in path.read_text().splitlines() if line.strip() and not line.startswith("#"))


@case(
    "config_gym_team_overrides_keep_skip_verification_from_load_test_so_every_rollout_gets_the_placeholder_reward",
    "config",
    ["skip_verification"],
    "the team's team_overrides.txt, passed to `gym env start`, still holds `++skip_verification=true "
    "++skip_verification_reward=0.0` from a load test of the serving stack; Gym's agents then never call the "
    "resources server's /verify and give every rollout the fixed reward 0.0, so a good checkpoint's right answers "
    "all scored 0 (every command exits 0)",
    netns=True,
)
def config_gym_team_overrides_keep_skip_verification_from_load_test_so_every_rollout_gets_the_placeholder_reward(
        ctx: Ctx) -> str:
    run = ctx.run
    (run / "team_overrides.txt").write_text(LOAD_TEST_OVERRIDES)
    code, got = gym_week(ctx, 40, overrides_of(run / "team_overrides.txt"))
    right = [r for r in got if str(r.get("expected_answer", "")).lower() in
             str(r.get("response", {}).get("output", "")).lower()]
    if code or len(keys_of(got)) != 24 or any(rewards(got)) or not right \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)}, right {len(right)}, {rewards(got)}: "
                          f"{log_of(ctx, 'run_eval.log')[-800:]}")
    return (f"RUN/team_overrides.txt (`++skip_verification=true ++skip_verification_reward=0.0`) given to `gym env "
            f"start`; real NeMo Gym 0.7.0 (loopback-only namespace) RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, "
            f"`gym eval profile`) exit {code}; {len(got)} rollouts, {len(right)} answers containing the label, every "
            f"reward 0.0.")


ENDPOINT_YAML = """# team_model.yaml: the team's model server settings (from the RL training config)
# the shared serving job publishes its URL in ENDPOINT; Gym rebinds when it changes
policy_model:
  responses_api_models:
    vllm_model:
      endpoint_file: ENDPOINT
      endpoint_check_interval_s: 5.0
"""


@case(
    "config_gym_team_model_yaml_endpoint_file_rebinds_eval_to_training_jobs_served_checkpoint",
    "config",
    ["endpoint_file"],
    "the team's model config team_model.yaml (from the RL training setup), given to `gym env start` with "
    "+config_paths, sets the vllm_model's `endpoint_file` to the file the training job's serving step publishes; "
    "at the first call Gym read that file and rebound every client from the --model-url of step_0200 to the "
    "training job's server, still serving step_0100, so the eval measured the older checkpoint (every command exits "
    "0; env_start.log says 'backend endpoint changed ... rebinding clients')",
    netns=True,
)
def config_gym_team_model_yaml_endpoint_file_rebinds_eval_to_training_jobs_served_checkpoint(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=48, folder=run, name="tasks.jsonl")
    weaker, better = checkpoints(ctx, "string_match", data)
    old_url, old = ctx.policy(weaker, "--latency-ms 20", log="training_serving.log")
    shared = ctx.work / "shared" / "rl-run-17"
    shared.mkdir(parents=True)
    (shared / "endpoint.txt").write_text(old_url + "\n")
    ctx.note("(the RL training job's serving step, step_0100, publishes its URL in WORK/shared/rl-run-17/endpoint.txt)")
    (run / "team_model.yaml").write_text(ENDPOINT_YAML.replace("ENDPOINT", str(shared / "endpoint.txt")))
    url, policy = ctx.policy(better, "--latency-ms 20", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} '+config_paths=[{run / 'team_model.yaml'}]' {overrides}")
    code = ctx.sh(f"bash {eval_script(ctx, overrides)}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy, old)
    got = gym_rows(ctx)
    rebound = [line for line in text_of(run / "env_start.log").splitlines() if "rebinding clients" in line]
    if code or len(keys_of(got)) != 24 or not rebound or f"-> ['{old_url}']" not in rebound[0]:
        raise failed(ctx, f"exit {code}, {len(got)}, {rebound}: {text_of(run / 'env_start.log')[-1500:]}")
    return (f"RUN/team_model.yaml (vllm_model `endpoint_file` = the training job's published URL) given to `gym env "
            f"start --model-url <step_0200 server>` with +config_paths; real NeMo Gym 0.7.0 (loopback-only namespace) "
            f"RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, `gym eval profile`) exit {code}; {len(got)} rollouts, "
            f"mean reward {mean(rewards(got)):.2f}; RUN/env_start.log: clients rebound to the step_0100 server's URL.")


REGRESSION_YAML = """# team_model.yaml: model server settings of the nightly regression eval
# (deterministic decoding so two nightlies of one checkpoint compare line by line)
policy_model:
  responses_api_models:
    vllm_model:
      sampling_overrides:
        temperature: 0.0
"""


@case(
    "config_gym_regression_model_yaml_sampling_overrides_force_greedy_on_variance_profiling_eval",
    "config",
    ["sampling_overrides", "temperature"],
    "the user reused the nightly regression eval's team_model.yaml (given to `gym env start` with +config_paths) for "
    "a reward-variance profile: its vllm_model `sampling_overrides: {temperature: 0.0}` is forced onto every "
    "request over what the rows ask, so all 3 repeats of each task got the same greedy reply; every task scored "
    "all 0 or all 1, the per-task std is 0 and pass@3 equals pass@1 (every command exits 0)",
    netns=True,
)
def config_gym_regression_model_yaml_sampling_overrides_force_greedy_on_variance_profiling_eval(ctx: Ctx) -> str:
    run = ctx.run
    (run / "team_model.yaml").write_text(REGRESSION_YAML)
    code, got = gym_week(ctx, 24, f"'+config_paths=[{run / 'team_model.yaml'}]'", weaker=True)
    by_task: dict = {}
    for row in got:
        by_task.setdefault(row["_ng_task_index"], set()).add(float(row.get("reward") or 0))
    mixed = [t for t, values in by_task.items() if len(values) > 1]
    if code or len(keys_of(got)) != 24 or mixed or len({v for s in by_task.values() for v in s}) < 2 \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)}, mixed {mixed}, {by_task}")
    return (f"RUN/team_model.yaml (vllm_model `sampling_overrides: {{temperature: 0.0}}`) given to `gym env start` "
            f"with +config_paths; real NeMo Gym 0.7.0 (loopback-only namespace) RUN/run_eval.sh (`gym eval run "
            f"--no-serve` 8 x 3, `gym eval profile`) exit {code}; {len(got)} rollouts, per-task rewards "
            f"{[sorted(by_task[t]) for t in sorted(by_task)]} (no task with mixed rewards).")


SPINUP_OVERRIDES = """# fast_fail.txt: fail fast instead of hanging when a server does not come up (from the dev laptop)
++server_spinup_timeout_seconds=4
"""


@case(
    "config_gym_fast_fail_server_spinup_timeout_of_four_seconds_shorter_than_servers_take_to_start",
    "config",
    ["server_spinup_timeout_seconds"],
    "the user's run_eval.sh passes fast_fail.txt (from a dev laptop) to `gym env start`: "
    "`++server_spinup_timeout_seconds=4`; on the eval node Gym's resources server, agent and model proxy take longer "
    "than that to import and answer, so `gym env start` gave up on them and no rollout ran (default 600 s)",
    netns=True,
)
def config_gym_fast_fail_server_spinup_timeout_of_four_seconds_shorter_than_servers_take_to_start(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=32, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 20", log="policy_server.log")
    (run / "fast_fail.txt").write_text(SPINUP_OVERRIDES)
    overrides = ctx.gym_overrides()
    ready, exit_code = gym_start_failing(
        ctx, f"{gym_model_args(url)} {overrides_of(run / 'fast_fail.txt')} {overrides}", timeout_s=120)
    code = ctx.sh(f"bash {eval_script(ctx, overrides)}", "logs/run_eval.log", timeout=300)
    stop_gym(ctx, policy)
    log = text_of(run / "env_start.log")
    if ready or gym_rows(ctx) or "server_spinup_timeout_seconds" not in log:
        raise failed(ctx, f"ready {ready}, exit {exit_code}/{code}: {log[-1500:]}")
    return (f"RUN/fast_fail.txt (`++server_spinup_timeout_seconds=4`) given to `gym env start`: real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) exit {exit_code}; RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, `gym eval "
            f"profile`) exit {code}, no rollouts.")


# =====================================================================================================
# the real NeMo Gym 0.7.0: healthy
# =====================================================================================================

PORT_OVERRIDES = """# ports.txt: the node's firewall opens 30000-30999 for eval services (ticket NET-2211)
++port_range_low=30000
++port_range_high=30999
"""


@case(
    "healthy_gym_servers_placed_in_firewall_port_range_with_port_range_low_and_high",
    "healthy",
    [],
    "nothing is wrong: the user's run gives `gym env start` ports.txt (`++port_range_low=30000 "
    "++port_range_high=30999`), so Gym picks its servers' ports in the range the node's firewall opens; the "
    "servers started there and every rollout was collected, verified and profiled",
    netns=True,
)
def healthy_gym_servers_placed_in_firewall_port_range_with_port_range_low_and_high(ctx: Ctx) -> str:
    run = ctx.run
    (run / "ports.txt").write_text(PORT_OVERRIDES)
    code, got = gym_week(ctx, 8, overrides_of(run / "ports.txt"), weaker=True)
    log = text_of(run / "env_start.log")
    if code or len(keys_of(got)) != 24 or ":30" not in log \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)}: {log[-1500:]}")
    return (f"RUN/ports.txt (`++port_range_low=30000 ++port_range_high=30999`) given to `gym env start`; real NeMo "
            f"Gym 0.7.0 (loopback-only namespace) RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, `gym eval "
            f"profile`) exit {code}; {len(got)} rollouts, mean reward {mean(rewards(got)):.2f} (step_0100).")


# =====================================================================================================
# task folders (Harbor format) in Docker sandboxes
# =====================================================================================================

INIT_SH = """#!/bin/bash
# init.sh: warm the word-frequency cache the refreshed text needs (from the data team's image template)
mkdir -p /app/cache
tr -s '[:space:]' '\\n' < /app/text.txt | sort > /app/cache/words.sorted
echo "init: cache ready ($(wc -l < /app/cache/words.sorted) words)"
"""


def add_init_entrypoint(tasks: Path) -> None:
    env = tasks / "top-word" / "environment"
    (env / "init.sh").write_text(INIT_SH)
    with (env / "Dockerfile").open("a") as dockerfile:
        dockerfile.write("COPY init.sh /usr/local/bin/init.sh\nRUN chmod +x /usr/local/bin/init.sh\n"
                         'ENTRYPOINT ["/usr/local/bin/init.sh"]\n')


@case(
    "data_schema_taskfolder_dockerfile_entrypoint_script_from_image_template_returns_instead_of_exec_of_its_arguments",
    "data_schema",
    ["ENTRYPOINT", "exec"],
    "the data team gave top-word's environment/Dockerfile an `ENTRYPOINT [\"/usr/local/bin/init.sh\"]` that warms a "
    "cache and ends; a sandbox is started with a keep-alive command that Docker hands to the entrypoint as its "
    "arguments, and init.sh never runs them (no `exec \"$@\"`), so every top-word container exited as soon as it "
    "started and its episodes failed before the agent ran; create-greeting was unaffected",
)
def data_schema_taskfolder_dockerfile_entrypoint_script_from_image_template_returns_instead_of_exec_of_its_arguments(
        ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["top-word", "create-greeting"], edit=add_init_entrypoint)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    everything = "".join(text_of(p) for p in run.rglob("*") if p.is_file() and p.suffix in (".log", ".jsonl", ".json"))
    top = [r for r in got if "top-word" in json.dumps(r.get("task_id", r.get("metadata", "")))]
    if "entrypoint exited" not in everything or complete(ctx) >= 4 or top:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {rewards(got)}: {log_of(ctx, 'run_tasks.log')[-800:]}")
    return (f"RUN/tasks/top-word/environment/Dockerfile (`ENTRYPOINT [\"/usr/local/bin/init.sh\"]`, init.sh ends "
            f"without `exec \"$@\"`); RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile of RUN/tasks "
            f"x 2) exit {code}; {complete(ctx)} of 4 episodes, rewards {rewards(got)}.")


VERIFIER_ENV_TEST = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# The expected word comes from task.toml, so the refreshed text only needs a task.toml edit.
cd /app
if test "$(tr -d "[:space:]" < /app/top.txt 2>/dev/null)" = "$EXPECTED_WORD"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL (got '$(cat /app/top.txt 2>/dev/null)', expected '$EXPECTED_WORD')"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def verifier_environment_table(tasks: Path) -> None:
    task = tasks / "top-word"
    (task / "tests" / "test.sh").write_text(VERIFIER_ENV_TEST)
    with (task / "task.toml").open("a") as toml:
        toml.write('\n[verifier.environment]\nEXPECTED_WORD = "the"\n')


@case(
    "data_schema_taskfolder_task_toml_verifier_variables_under_environment_table_instead_of_env",
    "data_schema",
    ["verifier.env"],
    "the task author moved top-word's expected word out of tests/test.sh into task.toml, under "
    "`[verifier.environment]`; Harbor's table for the verifier's variables is `[verifier.env]`, so the key was "
    "ignored (the loader warned it is not a Harbor field), test.sh compared the agent's answer with an empty "
    "$EXPECTED_WORD: the episode that answered 'the' scored 0 and one that wrote no answer file scored 1 (empty equals "
    "empty), so top-word's rewards are inverted (every command exits 0)",
)
def data_schema_taskfolder_task_toml_verifier_variables_under_environment_table_instead_of_env(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["top-word", "create-greeting"], edit=verifier_environment_table)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    everything = "".join(text_of(p) for p in run.rglob("*") if p.is_file())
    top = [r for r in got if "top-word" in json.dumps(r)]
    if code or complete(ctx) != 4 or not top or "FAIL (got 'the', expected '')" not in everything \
            or "not a Harbor field" not in everything:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {rewards(got)}: {log_of(ctx, 'run_tasks.log')[-800:]}")
    return (f"RUN/tasks/top-word/task.toml (`[verifier.environment] EXPECTED_WORD = \"the\"`) and tests/test.sh "
            f"(compares with $EXPECTED_WORD); RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile of "
            f"RUN/tasks x 2) exit {code}; {complete(ctx)} of 4 episodes, rewards {rewards(got)}.")


def longer_budgets(tasks: Path) -> None:
    text = (tasks / "dataset.toml").read_text().replace("timeout_multiplier = 1.0", "timeout_multiplier = 2.0  # "
                                                        "shared nodes are slower this quarter")
    (tasks / "dataset.toml").write_text(text)
    with (tasks / "top-word" / "task.toml").open("a") as toml:
        toml.write('\n[verifier.env]\nLC_ALL = "C.UTF-8"\n')


@case(
    "healthy_taskfolder_dataset_doubles_timeouts_and_verifier_gets_locale_variable_through_verifier_env",
    "healthy",
    [],
    "nothing is wrong: the user's dataset.toml doubles every agent and verifier budget (`timeout_multiplier = 2.0`) "
    "and top-word's task.toml hands its verifier `LC_ALL=C.UTF-8` through `[verifier.env]`; both are valid Harbor "
    "settings that change nothing here, and every episode ran in its sandbox, was verified and profiled",
)
def healthy_taskfolder_dataset_doubles_timeouts_and_verifier_gets_locale_variable_through_verifier_env(
        ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["top-word", "create-greeting"], edit=longer_budgets)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 4 or not any(rewards(got)) or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {rewards(got)}: {log_of(ctx, 'run_tasks.log')[-800:]}")
    return (f"RUN/tasks/dataset.toml (`timeout_multiplier = 2.0`), RUN/tasks/top-word/task.toml (`[verifier.env] "
            f"LC_ALL`); RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile of RUN/tasks x 2) exit "
            f"{code}; {complete(ctx)} of 4 episodes, rewards {rewards(got)}.")


if __name__ == "__main__":
    sys.exit(main("fifty_first_held_out", __file__, __doc__))
