"""Build the FIFTEENTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/fifteenth_held_out.py --out tests/data/diagnosis_corpus/fifteenth_held_out [--only CASE ...]

Measured once on 2026-12-03 (top-1 96 %, see benchmarks/README.md), then tuned on: these cases now count as
tuning cases. The next held-out set is sixteenth_held_out.py.

This is the fifteenth held-out set, written from the guides alone (the NeMo Gym debugging guide, the reward
profiling guide, the task-folder troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without
reading the diagnosis rules, their tests or their results. It was measured once, by someone else, to see
how well `gym-pipeline diagnose` names root causes on failures its rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`: replaced by a new instance on another port, restarted mid-collection), the built-in
engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`), workspace verifiers (`verifier: "MODULE:FUNCTION"`),
task folders run in Docker sandboxes, the real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` / `gym eval profile`
inside a loopback-only network namespace, with users' own resources servers), the project's SlurmLauncher, real
limits (RLIMIT_CPU, a tmpfs without free inodes), and real bad command lines, paths,
config, data and verifier files. The output of every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`);
nothing in a run folder is written by hand but the user's own inputs. Each case injects one cause, different from
those of the fourteen earlier sets or reached by another path, and each recipe checks that its fault really happened
(it raises RecipeError otherwise, and the case is not written).

Labels (`case.json`) come from what was injected, following the NeMo Gym debugging guide's classes: the class of
the root cause (what the user must change), not of its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; the helpers shared with the earlier sets are imported from eighth_held_out.py,
ninth_held_out.py, tenth_held_out.py and fourteenth_held_out.py, and only this set's own are defined here. Needs
root (unshare, mount), Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this checkout. Run it from a foreground
shell (SIGINT and SIGHUP at their defaults).
"""

from __future__ import annotations

import json
import shlex
import shutil
import signal
import subprocess
import sys
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
    profile_sh,
    served,
    stage,
    stop_gym,
    task_checkpoints,
    user_taskset,
    wait_env_start,
    wait_or_interrupt,
    workspace_sweep,
    write_sweep,
)
from fourteenth_held_out import mean, rewards  # noqa: E402
from ninth_held_out import own_gym_server, taskset_stages, taskset_sweep  # noqa: E402
from recipes import (  # noqa: E402
    GP,
    GYM,
    Ctx,
    case,
    collect_argv,
    gym_eval,
    gym_model_args,
    main,
    materialize,
    rows_of,
    text_of,
    unique_keys,
    wait_for,
)
from tenth_held_out import gym_eval_bounded, in_log  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def policy_wrapped(ctx: Ctx, checkpoint: Path, flags: str, wrap: str, log: str = "logs/model_server.log"
                   ) -> tuple[str, subprocess.Popen]:
    """`gym-pipeline serve-policy` started by the user's launch script under a shell setting `wrap`."""
    ready = ctx.work / f"policy-ready-{len(ctx.background)}"
    process = ctx.bg(f"( {wrap}; {GP} serve-policy --port 0 --ready-file {ready} --checkpoint {checkpoint} {flags} )",
                     log)
    wait_for(lambda: ready.exists() and ready.read_text().strip() != "", 30, "the simulated policy")
    return ready.read_text().strip(), process


def gym_start_env(ctx: Ctx, args: str, env: dict, log: str = "env_start.log") -> subprocess.Popen:
    """`gym env start ARGS` with the shell environment `env`, waited for until every server is ready."""
    env_start = ctx.bg(f"{GYM} env start {args}", log, env=env)
    if not wait_env_start(ctx, env_start, 240, log):
        raise failed(ctx, f"gym env start did not get ready (exit {env_start.poll()}):\n{text_of(ctx.run / log)[-1500:]}")
    return env_start


# =====================================================================================================
# the real NeMo Gym 0.7.0
# =====================================================================================================


@case(
    "healthy_gym_eval_with_unused_proxy_variables_exported",
    "healthy",
    [],
    "nothing is wrong: the user's shell profile exports http_proxy/https_proxy for the corporate proxy (only used "
    "for downloads); Gym's servers talk to each other and to the model server directly, every rollout was "
    "collected and profiled",
    netns=True,
)
def healthy_gym_eval_with_unused_proxy_variables_exported(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 5, "--latency-ms 30")
    proxy = {"http_proxy": "http://proxy.corp.example:3128", "https_proxy": "http://proxy.corp.example:3128",
             "HTTP_PROXY": "http://proxy.corp.example:3128", "HTTPS_PROXY": "http://proxy.corp.example:3128",
             "no_proxy": "localhost,127.0.0.1", "NO_PROXY": "localhost,127.0.0.1"}
    ctx.env = {**ctx.env, **proxy}
    ctx.sh("env | grep -i _proxy | sort", "logs/env.log")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 3, 4))
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if code or profiled or got != 15:
        raise failed(ctx, f"eval {code}, profile {profiled}, {got}")
    return ("http_proxy/https_proxy exported (no_proxy=localhost,127.0.0.1); real NeMo Gym 0.7.0 (loopback-only "
            f"namespace) `gym eval run --no-serve` (5 tasks x 3) exit {code}, {got} rollouts; `gym eval profile` exit "
            f"{profiled}.")


@case(
    "healthy_gym_eval_under_c_locale",
    "healthy",
    [],
    "nothing is wrong: the batch node's shell has LANG=C and LC_ALL=C (no UTF-8 locale installed); Gym ran "
    "anyway, every rollout was collected and profiled",
    netns=True,
)
def healthy_gym_eval_under_c_locale(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 11, "--latency-ms 30")
    ctx.env = {**ctx.env, "LANG": "C", "LC_ALL": "C"}
    ctx.sh("locale", "logs/locale.log")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4))
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if code or profiled or got != 10:
        raise failed(ctx, f"eval {code}, profile {profiled}, {got}")
    return (f"LANG=C LC_ALL=C; real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (5 tasks x 2) "
            f"exit {code}, {got} rollouts; `gym eval profile` exit {profiled}.")


@case(
    "config_gym_eval_input_and_output_swapped",
    "config",
    ["--input"],
    "the user's eval command has --input and --output swapped (--input RUN/results/rollouts.jsonl --output "
    "RUN/tasks.jsonl): Gym was asked to read rollouts that do not exist yet, so nothing was evaluated",
    netns=True,
)
def config_gym_eval_input_and_output_swapped(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 17, "--latency-ms 30")
    before = data.read_text()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval_bounded(ctx, overrides, f"--agent string_match_simple_agent --input {run}/results/rollouts.jsonl "
                                            f"--output {data} --num-repeats 2 --concurrency 4", 120)
    stop_gym(ctx, env_start, policy)
    if code == 0 or rows_of(run / "results" / "rollouts.jsonl"):
        raise failed(ctx, f"eval {code}")
    if data.read_text() != before:
        ctx.note("(RUN/tasks.jsonl was changed by the run)")
    return (f"Real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve --input RUN/results/rollouts.jsonl "
            f"--output RUN/tasks.jsonl` (swapped): exit {code}.")


@case(
    "data_schema_gym_extraction_mode_boxed_on_final_answer_prompts",
    "data_schema",
    ["extraction_mode"],
    "a bulk edit of the dataset set \"extraction_mode\": \"boxed\" on every row, but half of the prompts ask the "
    "model to end with 'Final answer: <answer>' (their rows need extraction_mode \"final_answer\"): no answer can be "
    "extracted from those responses, so they all scored 0",
    netns=True,
)
def data_schema_gym_extraction_mode_boxed_on_final_answer_prompts(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(
        ctx, "string_match", 8, 21, "--latency-ms 30",
        edit=lambda i, row: row.__setitem__("extraction_mode", "boxed") is None,
    )
    modes = {json.loads(line).get("extraction_mode") for line in (recipes.DATA / "string_match.jsonl").read_text()
             .splitlines()[21:29]}
    if modes == {"boxed"}:
        raise failed(ctx, "every row was boxed already")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4))
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    if not rows or mean(rewards(rows)) > 0.7:
        raise failed(ctx, f"eval {code}, mean {mean(rewards(rows)):.2f}")
    return (f"RUN/tasks.jsonl with extraction_mode \"boxed\" on every row (source modes {sorted(modes)}); real NeMo Gym "
            f"0.7.0 (loopback-only namespace) `gym eval run --no-serve` (8 tasks x 2) exit {code}, {len(rows)} "
            f"rollouts, mean reward {mean(rewards(rows)):.2f}; `gym eval profile` exit {profiled}.")


AUDIT_LOG_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)
        # audit trail of every verification, for the data team (the folder exists on the author's workstation)
        with open("/var/log/gym_audit/verify.log", "a") as audit:
            audit.write(f"{body.expected_answer!r}\\t{extracted!r}\\t{reward}\\n")
        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""


@case(
    "verifier_runtime_gym_verify_appends_to_audit_log_in_missing_folder",
    "verifier_runtime",
    ["audit"],
    "the user's audited_match resources server appends every verification to /var/log/gym_audit/verify.log, a "
    "folder that exists only on the author's workstation: every verify raised FileNotFoundError and no rollout "
    "got a reward",
    netns=True,
)
def verifier_runtime_gym_verify_appends_to_audit_log_in_missing_folder(ctx: Ctx) -> str:
    run = ctx.run
    if Path("/var/log/gym_audit").exists():
        raise RuntimeError("/var/log/gym_audit exists on this machine")
    data, url, policy, overrides = gym_setup(ctx, "string_match", 5, 30, "--latency-ms 30")
    search = own_gym_server(ctx, "audited_match", AUDIT_LOG_VERIFY)
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='audited_match')} "
                               f"{overrides}")
    code = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4,
                                                       "audited_match_simple_agent"), 150)
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    if (code == 0 and len(rows) == 10 and any(rewards(rows))) or not in_log(ctx, "gym_audit"):
        raise failed(ctx, f"eval {code}, {len(rows)} rows")
    return ("A user's resources server audited_match (verify appends to /var/log/gym_audit/verify.log, missing); real "
            f"NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (5 tasks x 2) exit {code}, "
            f"{len(rows)} rollouts.")


@case(
    "model_serving_gym_model_url_of_replaced_server_instance",
    "model_serving",
    ["--model-url"],
    "the model server was restarted (a new instance, which picked another free port) before the eval, but "
    "`gym env start` was given the URL the old instance had written: nothing listens there any more, so no "
    "rollout could be generated",
    netns=True,
)
def model_serving_gym_model_url_of_replaced_server_instance(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=36, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    old_url, old = ctx.policy(checkpoint, "--latency-ms 30", log="policy_server.log")
    (run / "model_url.txt").write_text(old_url + "\n")
    ctx.note("(the user restarts the model server; its launch script picks a free port again)")
    ctx.stop(old, signal.SIGINT, 20)
    new_url, policy = ctx.policy(checkpoint, "--latency-ms 30", log="policy_server.log")
    if new_url == old_url:
        raise failed(ctx, "same port")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(old_url)} {overrides}")
    code = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4), 150)
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    if code == 0 and len(rows) == 10 and any(rewards(rows)):
        raise failed(ctx, f"eval {code}, {len(rows)}")
    return (f"model server restarted ({old_url} -> {new_url}); real NeMo Gym 0.7.0 (loopback-only namespace) `gym env "
            f"start --model-url` of the old instance; `gym eval run --no-serve` (5 tasks x 2) exit {code}, {len(rows)} "
            "rollouts.")


@case(
    "throughput_gym_eval_run_under_cpu_time_limit",
    "throughput_resources",
    ["ulimit"],
    "the user's eval script starts with `ulimit -t 4` (CPU seconds, from a login-node profile): `gym eval run` "
    "used up its CPU time and was killed by SIGXCPU before it finished",
    netns=True,
)
def throughput_gym_eval_run_under_cpu_time_limit(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 20, 60, "--latency-ms 20")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    script = run / "eval.sh"
    script.write_text("#!/bin/bash\nulimit -t 4\necho \"ulimit -t: $(ulimit -t)\"\n"
                      f"{GYM} eval run --no-serve {agent_args(data, run / 'results' / 'rollouts.jsonl', 8, 8)} "
                      f"++route_failures_to_sidecar=true {overrides}\n")
    code = ctx.sh(f"bash {script}", "eval_run.log", timeout=400)
    stop_gym(ctx, env_start, policy)
    got = len(rows_of(run / "results" / "rollouts.jsonl"))
    if code == 0 and got == 160:
        raise failed(ctx, f"eval {code}, {got}")
    return (f"RUN/eval.sh: `ulimit -t 4`, then real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` "
            f"(20 tasks x 8): exit {code}, {got} of 160 rollouts.")


@case(
    "cache_resume_gym_rows_appended_then_resumed_on_old_inputs",
    "cache_resume",
    ["--resume"],
    "after a complete eval of 4 tasks the user appended 3 new tasks to RUN/tasks.jsonl and ran `gym eval run "
    "--resume` into the same output: resume kept the old materialized inputs, so the new tasks were never "
    "evaluated and the profile still covers 4 tasks",
    netns=True,
)
def cache_resume_gym_rows_appended_then_resumed_on_old_inputs(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 43, "--latency-ms 30")
    extra = ctx.dataset("string_match", 3, start=47, name="new_rows.jsonl")
    first_checkpoint_prompts = extra  # the policy knows only the first 4 prompts' answers; fine for this case
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    first = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4))
    ctx.note("(the user appends 3 new tasks to RUN/tasks.jsonl)")
    ctx.sh(f"cat {first_checkpoint_prompts} >> {data}; wc -l {data}", "logs/append.log")
    again = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4, extra="--resume"),
                     log="eval_run_resume.log")
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    tasks = {key[0] for key in unique_keys(run / "results" / "rollouts.jsonl")}
    if first or len(rows_of(data)) != 7 or len(tasks) != 4:
        raise failed(ctx, f"eval {first} {again}, tasks {sorted(tasks)}")
    return ("RUN/tasks.jsonl (4 tasks); real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (x 2) "
            f"exit {first}; 3 tasks appended; `gym eval run --resume` exit {again}; `gym eval profile` exit "
            f"{profiled}; rollouts cover tasks {sorted(tasks)} only.")


# =====================================================================================================
# the built-in engine, the stages and the launchers
# =====================================================================================================


@case(
    "healthy_builtin_collect_with_api_key_from_environment",
    "healthy",
    [],
    "nothing is wrong: the user passed their endpoint's key through --api-key-env EVAL_API_KEY (set in the job's "
    "environment, as their gateway needs); every rollout was collected and profiled",
)
def healthy_builtin_collect_with_api_key_from_environment(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 5, 51, 3, "--latency-ms 20")
    collected = collect_sh(ctx, url, "string_match", 3, "--api-key-env", "EVAL_API_KEY",
                           wrap="export EVAL_API_KEY=sk-team-eval-0000")
    profiled = profile_sh(ctx)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if collected or profiled or got != 15:
        raise failed(ctx, f"collect {collected}, profile {profiled}, {got}")
    return (f"`gym-pipeline collect --api-key-env EVAL_API_KEY` (set; 5 tasks x 3) exit {collected}, {got} rollouts; "
            f"`profile` exit {profiled}.")


@case(
    "config_builtin_collect_output_names_the_inputs_file",
    "config",
    ["--output"],
    "the collect command was given the materialized inputs file as its --output too (a copy-paste of the --inputs "
    "path), so the collector wrote its rollouts over the inputs it was reading",
)
def config_builtin_collect_output_names_the_inputs_file(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 5, 57, 2, "--latency-ms 20")
    inputs = run / "rollouts_materialized_inputs.jsonl"
    before = inputs.read_text()
    code = ctx.sh(f"{GP} collect --inputs {inputs} --output {inputs} --model-url {url} --env string_match "
                  "--concurrency 2", "logs/collect.log", timeout=200)
    profiled = profile_sh(ctx, "--allow-partial")
    if code == 0 and inputs.read_text() == before and not rows_of(run / "rollouts.jsonl"):
        ctx.note("(inputs unchanged)")
    if code == 0 and rows_of(run / "rollouts.jsonl"):
        raise failed(ctx, f"collect {code}")
    return (f"`gym-pipeline collect --inputs RUN/rollouts_materialized_inputs.jsonl --output` the same file: exit "
            f"{code}; `profile --allow-partial` exit {profiled}.")


@case(
    "infra_builtin_collect_output_on_tmpfs_without_free_inodes",
    "infra",
    ["inode"],
    "RUN/out is a small scratch tmpfs whose inodes are all used (a previous job left thousands of small files "
    "there): the space is free but no new file can be created, so the collector could not create its output",
)
def infra_builtin_collect_output_on_tmpfs_without_free_inodes(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 4, 66, 2, "--latency-ms 20")
    out = run / "out"
    out.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m,nr_inodes=64", "tmpfs", str(out)]).returncode:
        raise failed(ctx, "mount failed")
    try:
        ctx.sh(f"mkdir -p {out}/old_job && i=0; while touch {out}/old_job/shard_$i.tmp 2>/dev/null; do i=$((i+1)); "
               "done; echo \"$i files left by the previous job\"", "logs/previous_job.log")
        ctx.sh(f"df -h {out}; df -i {out}", "logs/df.log")
        code = ctx.sh(f"{GP} collect --inputs {run}/rollouts_materialized_inputs.jsonl --output {out}/rollouts.jsonl "
                      f"--model-url {url} --env string_match --concurrency 2", "logs/collect.log", timeout=200)
        got = len(rows_of(out / "rollouts.jsonl"))
    finally:
        shutil.rmtree(out / "old_job", ignore_errors=True)
        copy_out_of_mount(ctx, out)
    if code == 0 and got == 8:
        raise failed(ctx, f"collect {code}, {got}")
    return (f"RUN/out a tmpfs with every inode used; `gym-pipeline collect --output RUN/out/rollouts.jsonl` exit {code}, "
            f"{got} rows.")


@case(
    "data_schema_builtin_rows_keys_in_camel_case",
    "data_schema",
    ["expected_answer"],
    "the dataset was exported by a JavaScript tool that renamed every key to camelCase (responsesCreateParams, "
    "expectedAnswer, extractionMode), so no row has the fields the string_match environment reads",
)
def data_schema_builtin_rows_keys_in_camel_case(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 4, start=70, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]

    def camel(key: str) -> str:
        head, *rest = key.split("_")
        return head + "".join(part.title() for part in rest)

    data.write_text("".join(json.dumps({camel(k): v for k, v in row.items()}) + "\n" for row in rows_of(data)))
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    code = ctx.sh(f"{GP} materialize --input {data} --num-repeats 2 --agent string_match_simple_agent --output "
                  f"{run}/rollouts_materialized_inputs.jsonl", "logs/materialize.log")
    collected = collect_sh(ctx, url, "string_match", 2, timeout=120) if code == 0 else None
    rows = rows_of(run / "rollouts.jsonl")
    if code == 0 and collected == 0 and len(rows) == 8 and any(rewards(rows)):
        raise failed(ctx, "collected fine")
    return (f"RUN/string_match.jsonl with camelCase keys; `gym-pipeline materialize` exit {code}; collect {collected}, "
            f"{len(rows)} rows.")


@case(
    "data_schema_stage_dataset_starts_with_schema_row",
    "data_schema",
    ["schema"],
    "the dataset export put a schema description as its first line ({\"schema\": ..., \"version\": 2}) before the "
    "task rows: that line is not a task (no responses_create_params, no expected_answer)",
)
def data_schema_stage_dataset_starts_with_schema_row(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=74, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    header = {"schema": {"responses_create_params": "object", "expected_answer": "string",
                         "extraction_mode": "string", "case_sensitive": "bool"}, "version": 2, "rows": 5}
    data.write_text(json.dumps(header) + "\n" + data.read_text())
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=2, concurrency=2)
    codes = [stage(ctx, sweep, "materialize", checkpoint, "string_match")]
    if codes[0] == 0:
        codes += [stage(ctx, sweep, "collect", checkpoint, "string_match", *served(url)),
                  stage(ctx, sweep, "profile", checkpoint, "string_match")]
    rows = rows_of(run / "rollouts.jsonl")
    if not any(codes) and len(rows) == 12 and sum(1 for r in rows if r.get("reward")) >= 10:
        raise failed(ctx, "scored fine")
    return f"sweep stages on a dataset whose first line is a schema row: exit {codes}, {len(rows)} rows."


FIRST_LABEL_VERIFIER = '''
"""Exact-answer scoring; the label is parsed once and kept, as parsing it is slow for our long labels."""
import re

FINAL = re.compile(r"(?:final answer:|boxed\\{)\\s*([^}\\n]+)", re.IGNORECASE)
_LABEL = None


def score(row, response_text):
    global _LABEL
    if _LABEL is None:
        _LABEL = str(row["expected_answer"]).strip().lower()
    match = FINAL.search(response_text)
    answer = match.group(1).strip() if match else response_text.strip().splitlines()[-1].strip()
    return {"reward": float(answer.lower() == _LABEL), "extracted_answer": answer}
'''


@case(
    "verifier_runtime_stage_workspace_verifier_caches_first_label",
    "verifier_runtime",
    ["cache"],
    "the user's workspace verifier caches the parsed label in a module global on its first call and never "
    "refreshes it, so every later rollout is compared with the first task's label and scores 0",
)
def verifier_runtime_stage_workspace_verifier_caches_first_label(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=79, folder=run, name="exact_answer.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    sweep = workspace_sweep(ctx, "exact_answer", data, checkpoint, {"verifier": "my_verifier:score"},
                            FIRST_LABEL_VERIFIER, num_repeats=2, concurrency=3)
    codes = [stage(ctx, sweep, "materialize", checkpoint, "exact_answer"),
             stage(ctx, sweep, "collect", checkpoint, "exact_answer", *served(url)),
             stage(ctx, sweep, "profile", checkpoint, "exact_answer")]
    rows = rows_of(run / "rollouts.jsonl")
    if not rows or mean(rewards(rows)) > 0.4:
        raise failed(ctx, f"exit {codes}, rewards {rewards(rows)}")
    return (f"workspace verifier keeping the first label in a module global; stages exit {codes}, {len(rows)} rows, "
            f"mean reward {mean(rewards(rows)):.2f}.")


@case(
    "cache_resume_builtin_rows_appended_without_rematerialize",
    "cache_resume",
    ["materialize"],
    "the user appended 4 new tasks to string_match.jsonl after materializing, then collected and profiled without "
    "re-running materialize: the materialized inputs are stale, so the new tasks were never collected",
)
def cache_resume_builtin_rows_appended_without_rematerialize(ctx: Ctx) -> str:
    run = ctx.run
    data, _, url, policy = builtin_setup(ctx, "string_match", 4, 1, 2, "--latency-ms 20", in_run=True)
    extra = ctx.dataset("string_match", 4, start=5, name="new_rows.jsonl")
    ctx.note("(the user appends 4 new tasks to RUN/string_match.jsonl)")
    ctx.sh(f"cat {extra} >> {data}; wc -l {data}; ls -la --time-style=full-iso {run}", "logs/append.log")
    collected = collect_sh(ctx, url, "string_match", 2)
    profiled = profile_sh(ctx)
    tasks = {key[0] for key in unique_keys(run / "rollouts.jsonl")}
    if collected or len(rows_of(data)) != 8 or len(tasks) != 4:
        raise failed(ctx, f"collect {collected}, tasks {sorted(tasks)}")
    return (f"`gym-pipeline materialize` (4 tasks x 2); 4 tasks appended to the dataset; `collect` exit {collected}, "
            f"`profile` exit {profiled}: rollouts cover {len(tasks)} of 8 tasks.")


# =====================================================================================================
# task folders (Docker sandboxes)
# =====================================================================================================


@case(
    "healthy_taskfolder_spelling_and_extension_tasks_complete",
    "healthy",
    [],
    "nothing is wrong: the user's taskset (replace-spelling, rename-extensions) ran in Docker sandboxes at two "
    "repeats; every episode completed, was verified and profiled",
)
def healthy_taskfolder_spelling_and_extension_tasks_complete(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["replace-spelling", "rename-extensions"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    codes = taskset_stages(ctx, sweep, checkpoint, url, "materialize", "collect", "profile")
    if any(codes) or len(unique_keys(run / "rollouts.jsonl")) != 4:
        raise failed(ctx, f"exit {codes}")
    return (f"A sweep with the taskset RUN/tasks (2 bundled tasks x 2); stages materialize, collect (Docker sandboxes), "
            f"profile exit {codes}; rewards {rewards(rows_of(run / 'rollouts.jsonl'))}.")


@case(
    "data_schema_taskfolder_instruction_renamed_to_readme",
    "data_schema",
    ["instruction.md"],
    "the user renamed top-word's instruction.md to README.md so it shows on their git host: the task folder no "
    "longer has the instruction file a task needs, so the task could not be loaded",
)
def data_schema_taskfolder_instruction_renamed_to_readme(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["top-word", "create-greeting"],
                         lambda tasks: (tasks / "top-word" / "instruction.md").rename(tasks / "top-word" / "README.md"))
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    codes = taskset_stages(ctx, sweep, checkpoint, url, "materialize", "collect", "profile")
    rows = rows_of(run / "rollouts.jsonl")
    if not any(codes) and len(rows) == 4:
        raise failed(ctx, f"exit {codes}, {len(rows)} rows")
    return (f"A sweep with the taskset RUN/tasks (top-word's instruction.md renamed README.md, create-greeting; x 2); "
            f"stages exit {codes}; {len(rows)} rows.")


@case(
    "healthy_builtin_dataset_with_windows_line_endings",
    "healthy",
    [],
    "nothing is wrong: the dataset was last saved on Windows, so its lines end with CRLF; JSON allows the carriage "
    "return as whitespace, and every rollout was collected and profiled",
)
def healthy_builtin_dataset_with_windows_line_endings(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 5, start=25, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    data.write_bytes(data.read_bytes().replace(b"\n", b"\r\n"))
    ctx.sh(f"file {data}", "logs/inspect_dataset.log")
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    materialize(ctx, data, 3, "string_match")
    collected = collect_sh(ctx, url, "string_match", 3)
    profiled = profile_sh(ctx)
    rows = rows_of(run / "rollouts.jsonl")
    if collected or profiled or len(unique_keys(run / "rollouts.jsonl")) != 15 or mean(rewards(rows)) < 0.5:
        raise failed(ctx, f"collect {collected}, profile {profiled}, {len(rows)} rows")
    return (f"RUN/string_match.jsonl with CRLF line endings; materialize (5 tasks x 3), `collect` exit {collected}, "
            f"{len(rows)} rows; `profile` exit {profiled}.")


@case(
    "healthy_stage_sweep_on_read_only_shared_dataset",
    "healthy",
    [],
    "nothing is wrong: the sweep reads its dataset from a read-only team share (file mode 0444 in a 0555 folder); "
    "materialize, collect and profile ran and every rollout was collected",
)
def healthy_stage_sweep_on_read_only_shared_dataset(ctx: Ctx) -> str:
    run = ctx.run
    share = run / "team_share"
    data = ctx.dataset("string_match", 5, start=31, folder=share, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    data.chmod(0o444)
    share.chmod(0o555)
    ctx.sh(f"ls -la {share}", "logs/ls_share.log")
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=2, concurrency=2)
    codes = [stage(ctx, sweep, "materialize", checkpoint, "string_match"),
             stage(ctx, sweep, "collect", checkpoint, "string_match", *served(url)),
             stage(ctx, sweep, "profile", checkpoint, "string_match")]
    share.chmod(0o755)
    data.chmod(0o644)
    if any(codes) or len(unique_keys(run / "rollouts.jsonl")) != 10:
        raise failed(ctx, f"exit {codes}")
    return f"sweep stages on a read-only shared dataset (5 tasks x 2): exit {codes}."


@case(
    "config_sweep_num_repeats_fractional",
    "config",
    ["num_repeats"],
    "the sweep config says num_repeats: 2.5 (the user meant an average of two to three samples per task), but the "
    "number of repeats must be a whole number, so the stage refused the config",
)
def config_sweep_num_repeats_fractional(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 4, start=37, folder=run, name="string_match.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 20")
    sweep = write_sweep(ctx, "string_match", data, checkpoint, num_repeats=2.5, concurrency=2)
    codes = [stage(ctx, sweep, "materialize", checkpoint, "string_match")]
    if codes[0] == 0:
        codes.append(stage(ctx, sweep, "collect", checkpoint, "string_match", *served(url)))
    if not any(codes):
        raise failed(ctx, f"exit {codes}")
    return f"sweep config with num_repeats: 2.5; stages exit {codes}."


SET_E_TEST = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
set -euo pipefail
cd /app
grep -q "Hello" /app/hello.txt   # quick sanity check first
if test "$(cat /app/hello.txt 2>/dev/null)" = "Hello, Gym!"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


@case(
    "verifier_runtime_taskfolder_test_sh_set_e_exits_before_reward",
    "verifier_runtime",
    ["set -e"],
    "the user's tests/test.sh of create-greeting starts with `set -euo pipefail` and runs a `grep -q` sanity check "
    "before writing the reward: when the file is missing or wrong, grep fails, the script exits at once and no "
    "reward file is written for that episode",
)
def verifier_runtime_taskfolder_test_sh_set_e_exits_before_reward(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["create-greeting", "top-word"],
                         lambda tasks: (tasks / "create-greeting" / "tests" / "test.sh").write_text(SET_E_TEST))
    checkpoint = task_checkpoints(ctx, tasks)[0]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=3, concurrency=2)
    codes = taskset_stages(ctx, sweep, checkpoint, url, "materialize", "collect", "profile")
    if not in_log(ctx, "missing_reward"):
        raise failed(ctx, f"exit {codes}, rewards {rewards(rows_of(run / 'rollouts.jsonl'))}")
    return (f"A sweep with the taskset RUN/tasks (create-greeting's test.sh under set -e with a grep check first, "
            f"top-word; x 3, weaker checkpoint); stages exit {codes}; rewards {rewards(rows_of(run / 'rollouts.jsonl'))}.")


@case(
    "config_gym_eval_agent_of_other_environment",
    "config",
    ["--agent"],
    "`gym env start` was started with the string_match resources server, but the eval command (copied from the "
    "multiple-choice run's script) asks for --agent mcqa_simple_agent, an agent that this server set does not run",
    netns=True,
)
def config_gym_eval_agent_of_other_environment(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 4, 50, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval_bounded(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 2, 4,
                                                       "mcqa_simple_agent"), 120)
    stop_gym(ctx, env_start, policy)
    rows = rows_of(run / "results" / "rollouts.jsonl")
    if code == 0 and len(rows) == 8 and any(rewards(rows)):
        raise failed(ctx, f"eval {code}, {len(rows)}")
    return (f"Real NeMo Gym 0.7.0 (loopback-only namespace) `gym env start --resources-server string_match`, then "
            f"`gym eval run --no-serve --agent mcqa_simple_agent`: exit {code}, {len(rows)} rollouts.")


@case(
    "throughput_builtin_collect_under_cpu_time_limit",
    "throughput_resources",
    ["ulimit"],
    "the job wrapper runs `ulimit -t 1` (one CPU second, a login-node limit copied into the batch profile) before "
    "the collection, so the collector was killed for exceeding its CPU time before it finished",
)
def throughput_builtin_collect_under_cpu_time_limit(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 6, 55, 3, "--latency-ms 20")
    collected = collect_sh(ctx, url, "string_match", 3, wrap="ulimit -t 1; echo \"ulimit -t: $(ulimit -t)\"",
                           timeout=200)
    got = len(rows_of(run / "rollouts.jsonl"))
    if collected == 0 and got == 18:
        raise failed(ctx, "collect completed")
    return f"`ulimit -t 1; gym-pipeline collect` (6 tasks x 3): exit {collected}, {got} rows."


@case(
    "config_builtin_model_url_with_doubled_v1",
    "config",
    ["--model-url"],
    "the user's script appends /v1 to a MODEL_URL that already ends in /v1, so the collector was given "
    "http://HOST:PORT/v1/v1, a path the model server does not serve",
)
def config_builtin_model_url_with_doubled_v1(ctx: Ctx) -> str:
    run = ctx.run
    _, _, url, policy = builtin_setup(ctx, "string_match", 4, 61, 2, "--latency-ms 20")
    script = run / "collect.sh"
    script.write_text("#!/bin/bash\n# MODEL_URL comes from the serving job's ready file\n"
                      f"MODEL_URL={url}\n"
                      f"{GP} collect --inputs {run}/rollouts_materialized_inputs.jsonl --output {run}/rollouts.jsonl "
                      "--model-url \"$MODEL_URL/v1\" --env string_match --concurrency 2\n")
    code = ctx.sh(f"bash {script}", "logs/collect.log", timeout=200)
    rows = rows_of(run / "rollouts.jsonl")
    if code == 0 and len(rows) == 8 and any(rewards(rows)):
        raise failed(ctx, f"collect {code}")
    return f"RUN/collect.sh: --model-url \"$MODEL_URL/v1\" with MODEL_URL ending in /v1: exit {code}, {len(rows)} rows."


@case(
    "model_serving_builtin_server_restarted_mid_collect_on_new_port",
    "model_serving",
    [],
    "the model server was restarted mid-collection (to pick up a config change) and its launch script chose a new "
    "free port: the running collection kept sending to the old URL, where nothing listens any more, so the "
    "remaining rollouts failed",
)
def model_serving_builtin_server_restarted_mid_collect_on_new_port(ctx: Ctx) -> str:
    run = ctx.run
    _, checkpoint, url, policy = builtin_setup(ctx, "string_match", 8, 67, 3, "--latency-ms 400")
    collect = ctx.bg(shlex.join(collect_argv(run, url, "string_match", 2)), "logs/collect.log")
    wait_for(lambda: len(rows_of(run / "rollouts.jsonl")) >= 3 or collect.poll() is not None, 120,
             "the first rollouts", poll_s=0.3)
    ctx.note("(the user restarts the model server)")
    ctx.stop(policy, signal.SIGINT, 20)
    new_url, _ = ctx.policy(checkpoint, "--latency-ms 400")
    wait_or_interrupt(ctx, collect, 240, "`gym-pipeline collect`")
    got = len(rows_of(run / "rollouts.jsonl"))
    if new_url == url or (collect.returncode == 0 and got == 24):
        raise failed(ctx, f"collect {collect.returncode}, {got}")
    return (f"`gym-pipeline collect` (8 tasks x 3) against {url}; after the first rollouts the model server restarted "
            f"on {new_url}: collect exit {collect.returncode}, {got} of 24 rows.")


if __name__ == "__main__":
    sys.exit(main("fifteenth_held_out", __file__, __doc__))
