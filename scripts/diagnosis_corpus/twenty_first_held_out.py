"""Build the TWENTY-FIRST HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/twenty_first_held_out.py --out tests/data/diagnosis_corpus/twenty_first_held_out [--only CASE ...]

This is the twenty-first held-out set, written from the guides alone (the NeMo Gym debugging guide, the reward
profiling guide, the task-folder troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without
reading the diagnosis rules, their tests or their results. It is meant to be measured once, by someone else, to see
how well `gym-pipeline diagnose` names root causes on failures its rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`: bounded queues, latency), the built-in engine (`gym-pipeline materialize`, `collect`,
`profile`, `stage`), workspace verifiers (`verifier: "MODULE:FUNCTION"`), task folders run in Docker sandboxes, the
Slurm launcher, the real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` / `gym eval profile` inside a loopback-only
network namespace, with a user's own resources server, balancer and scripts), and real node state (a stack-size
limit, a umask and a service account). The output of every command is captured as a user would (`cmd 2>&1 | tee
RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data, scripts, settings, verifier
code). Each case injects one cause, different from those of the twenty earlier sets, and each recipe checks that its
fault really happened (it raises RecipeError otherwise, and the case is not written). More than half of the failures
are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected, following the NeMo Gym debugging guide's classes: the class of
the root cause (what the user must change), not of its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; the helpers shared with the earlier sets are imported from them. Needs root
(unshare, setpriv), Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this checkout. Run it from a foreground
shell (SIGINT and SIGHUP at their defaults).
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighteenth_held_out import task_rewards  # noqa: E402
from eighth_held_out import (  # noqa: E402
    agent_args,
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
    stop_gym,
    task_checkpoints,
    user_taskset,
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
    launched,
    main,
    materialize,
    profile_argv,
    rows_of,
    text_of,
    unique_keys,
    wait_for,
)
from seventeenth_held_out import taskset_run  # noqa: E402
from tenth_held_out import in_log  # noqa: E402
from twentieth_held_out import builtin_rows, served_by_script  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def materialize_sh(ctx: Ctx, data: Path, repeats: int, wrap: str = "", log: str = "logs/materialize.log") -> int:
    argv = (f"{GP} materialize --input {data} --num-repeats {repeats} --agent string_match_simple_agent "
            f"--output {ctx.run}/rollouts_materialized_inputs.jsonl")
    return ctx.sh(f"( {wrap}; {argv} )" if wrap else argv, log)


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def bundled(env: str, start: int, n: int) -> list[dict]:
    lines = (recipes.DATA / f"{env}.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines[start:start + n]]


# =====================================================================================================
# the built-in engine, the stages and the launchers
# =====================================================================================================


@case(
    "healthy_builtin_nightly_script_checks_sums_of_retired_dataset",
    "healthy",
    [],
    "nothing is wrong: the user's run_nightly.sh starts with `sha256sum -c SHA256SUMS`, and that manifest still lists "
    "string_match_v1.jsonl, a dataset version deleted last month, so every night's log opens with 'No such file or "
    "directory', 'FAILED open or read' and 'WARNING: 1 listed file could not be read'; the dataset in use checks OK, "
    "and materialize, collect and profile completed every rollout",
)
def healthy_builtin_nightly_script_checks_sums_of_retired_dataset(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 6, 14)
    ctx.dataset("string_match", 6, start=60, folder=run, name="string_match_v1.jsonl")
    ctx.sh(f"cd {run} && sha256sum string_match_v1.jsonl string_match.jsonl > SHA256SUMS && rm string_match_v1.jsonl")
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_nightly.sh"
    script.write_text(
        "#!/bin/bash\n# nightly eval of the trivia set\n"
        f"cd {run}\necho \"== checking the datasets\"\nsha256sum -c SHA256SUMS\n"
        "echo \"== materialize\"\n"
        f"{GP} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        "echo \"== collect\"\n"
        f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {url} "
        "--env string_match --concurrency 4\n"
        "echo \"== profile\"\n"
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    code = ctx.sh(f"bash {script}", "logs/run_nightly.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code or got != 18 or not in_log(ctx, "could not be read", "logs/run_nightly.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/SHA256SUMS lists string_match_v1.jsonl (deleted) and string_match.jsonl; `bash run_nightly.sh` "
            f"(sha256sum -c, materialize 6 tasks x 3, collect, profile) exit {code}, {got} rollouts, mean reward "
            f"{mean(rewards(rows_of(run / 'rollouts.jsonl'))):.2f}.")


@case(
    "healthy_builtin_collect_from_cron_with_bare_environment",
    "healthy",
    [],
    "nothing is wrong: the user's cron_job.sh runs from cron with a bare environment (no TERM, a minimal PATH, a HOME "
    "without .bashrc), so its log starts with 'No such file or directory' for ~/.bashrc and 'tput: No value for $TERM'; "
    "the script calls every program by its full path, and materialize, collect and profile completed every rollout",
)
def healthy_builtin_collect_from_cron_with_bare_environment(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 7, 22)
    url, _ = ctx.policy(better, "--latency-ms 20")
    home = ctx.work / "home" / "evaluser"
    home.mkdir(parents=True)
    script = run / "cron_job.sh"
    script.write_text(
        "#!/bin/bash\n# crontab: 15 2 * * * bash cron_job.sh >> logs/cron.log 2>&1\n"
        "source ~/.bashrc\n"
        "echo \"$(date -u +%FT%TZ) nightly eval, terminal width $(tput cols)\"\n"
        f"cd {run}\n"
        f"{GP} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {url} "
        "--env string_match --concurrency 3\n"
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n"
        "echo \"done: $(wc -l < rollouts.jsonl) rollouts\"\n")
    code = ctx.sh(f"env -i HOME={home} PATH=/usr/bin:/bin SHELL=/bin/sh LOGNAME=evaluser bash {script}",
                  "logs/cron.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code or got != 21 or not in_log(ctx, "tput", "logs/cron.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/cron_job.sh run with `env -i` (cron's bare environment): materialize 7 tasks x 3, collect, profile; "
            f"exit {code}, {got} rollouts.")


@case(
    "infra_builtin_dashboard_account_cannot_read_files_written_under_umask_077",
    "infra",
    ["umask"],
    "the user's job_env.sh (sourced before the jobs) sets `umask 077` from the site's security baseline, so "
    "materialize and collect wrote their files readable by the user only (mode 600); the profile is run by the team's "
    "dashboard service account (uid 65534), which could not open the run's files ('Permission denied'), and no "
    "report was written",
)
def infra_builtin_dashboard_account_cannot_read_files_written_under_umask_077(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 6, 20)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "job_env.sh").write_text("# sourced by every job script\n# security baseline (cluster admins, November)\n"
                                    "umask 077\nexport OMP_NUM_THREADS=1\n")
    wrap = f"source {run}/job_env.sh"
    made = materialize_sh(ctx, data, 3, wrap)
    collected = collect_sh(ctx, url, "string_match", 4, wrap=wrap)
    ctx.sh(f"ls -l {run}", "logs/ls_run.log")
    report = run / "dashboard"
    ctx.sh(f"mkdir -p {report} && chmod 1777 {report}")
    argv = shlex.join(profile_argv(run, "--output-dir", str(report)))
    profiled = ctx.sh(f"setpriv --reuid 65534 --regid 65534 --clear-groups {argv}", "logs/profile_dashboard.log",
                      timeout=300)
    if made or collected or profiled == 0 or not in_log(ctx, "Permission denied", "logs/profile_dashboard.log"):
        raise failed(ctx, f"materialize {made}, collect {collected}, profile {profiled}")
    return (f"RUN/job_env.sh (umask 077) sourced before materialize (exit {made}, 6 tasks x 3) and collect (exit "
            f"{collected}); the profile run as the dashboard account uid 65534 (setpriv) into RUN/dashboard: exit "
            f"{profiled}.")


@case(
    "model_serving_builtin_baseline_server_overwrote_shared_ready_file",
    "model_serving",
    ["--ready-file"],
    "the user serves the candidate (step_0200) and, for a side-by-side comparison, the baseline (step_0100) from two "
    "scripts that both pass the same --ready-file (~/model_url); the baseline, started second, overwrote it, and "
    "collect.sh reads its model URL from that file: every rollout of 'the candidate' was generated by the baseline "
    "checkpoint (everything exits 0)",
)
def model_serving_builtin_baseline_server_overwrote_shared_ready_file(ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 30)
    ready = ctx.work / "model_url"
    for name, checkpoint in (("serve_candidate.sh", better), ("serve_baseline.sh", weaker)):
        (run / name).write_text(f"#!/bin/bash\n# {name[6:-3]}: {checkpoint.name}\n"
                                f"{GP} serve-policy --port 0 --ready-file {ready} --checkpoint {checkpoint} "
                                "--latency-ms 20\n")
    candidate = served_by_script(ctx, run / "serve_candidate.sh", "logs/model_server_candidate.log")
    baseline = served_by_script(ctx, run / "serve_baseline.sh", "logs/model_server_baseline.log")
    materialize(ctx, data, 3, "string_match")
    script = run / "collect.sh"
    script.write_text("#!/bin/bash\n# collect the candidate checkpoint\n"
                      f"MODEL_URL=$(cat {ready})\necho \"model server: $MODEL_URL\"\n"
                      f"{GP} collect --inputs {run}/rollouts_materialized_inputs.jsonl --output {run}/rollouts.jsonl "
                      "--model-url $MODEL_URL --env string_match --concurrency 4\n")
    collected = ctx.sh(f"bash {script}", "logs/collect.log", timeout=300)
    profiled = profile_sh(ctx)
    got = rows_of(run / "rollouts.jsonl")
    if collected or profiled or len(got) != 24 or baseline not in text_of(run / "logs" / "collect.log"):
        raise failed(ctx, f"collect {collected}, profile {profiled}, {len(got)}")
    return (f"RUN/serve_candidate.sh (step_0200, {candidate}) then RUN/serve_baseline.sh (step_0100, {baseline}), "
            f"both --ready-file ~/model_url; materialize (8 tasks x 3); RUN/collect.sh (URL from ~/model_url) exit "
            f"{collected}, {len(got)} rollouts, mean reward {mean(rewards(got)):.2f}; profile exit {profiled}.")


@case(
    "config_stage_sweep_yaml_dataset_path_with_shell_variable",
    "config",
    ["DATA_ROOT"],
    "the user's sweep.yaml gives the dataset as $DATA_ROOT/string_match.jsonl, expecting the variable exported by "
    "env.sh to be substituted; a YAML config is not a shell script, so the literal path '$DATA_ROOT/...' reached the "
    "materialize stage, which found no such file, and nothing was collected",
)
def config_stage_sweep_yaml_dataset_path_with_shell_variable(ctx: Ctx) -> str:
    import yaml

    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 6, 36)
    url, _ = ctx.policy(better, "--latency-ms 10")
    sweep = write_sweep(ctx, "string_match", data, better, num_repeats=3, concurrency=4)
    config = json.loads(sweep.read_text())
    sweep.unlink()
    config["environments"][0]["dataset"] = "$DATA_ROOT/string_match.jsonl"
    sweep = run / "sweep.yaml"
    sweep.write_text("# nightly sweep (DATA_ROOT comes from env.sh)\n" + yaml.safe_dump(config, sort_keys=False))
    (run / "env.sh").write_text(f"# team paths\nexport DATA_ROOT={run}\nexport RUNS_ROOT={ctx.work}/runs\n")
    wrap = f"source {run}/env.sh"
    codes = [stage(ctx, sweep, "materialize", better, "string_match", wrap=wrap),
             stage(ctx, sweep, "collect", better, "string_match", *served(url), wrap=wrap),
             stage(ctx, sweep, "profile", better, "string_match", wrap=wrap)]
    got = rows_of(run / "rollouts.jsonl")
    if codes[0] == 0 or got or not in_log(ctx, "$DATA_ROOT", "logs/materialize.log"):
        raise failed(ctx, f"exit {codes}, {len(got)}")
    return (f"RUN/sweep.yaml (dataset: $DATA_ROOT/string_match.jsonl), RUN/env.sh (export DATA_ROOT=RUN) sourced; "
            f"`gym-pipeline stage` materialize, collect, profile exit {codes}; {len(got)} rollouts.")


@case(
    "config_builtin_materialize_input_flag_given_twice_last_wins",
    "config",
    ["--input"],
    "the eval set is kept as two files (data/trivia.jsonl and data/arithmetic.jsonl) and the user's prepare.sh passes "
    "both as `--input data/trivia.jsonl --input data/arithmetic.jsonl`; the option takes one file and the last one "
    "given wins without a word, so only the arithmetic tasks were materialized, collected and profiled (everything "
    "exits 0) and the report covers 6 of the 14 tasks",
)
def config_builtin_materialize_input_flag_given_twice_last_wins(ctx: Ctx) -> str:
    run = ctx.run
    rows = bundled("string_match", 0, 40)
    numeric = [row for row in rows if str(row["expected_answer"]).lstrip("-").isdigit()][:6]
    words = [row for row in rows if not str(row["expected_answer"]).lstrip("-").isdigit()][:8]
    trivia = write_jsonl(run / "data" / "trivia.jsonl", words)
    arithmetic = write_jsonl(run / "data" / "arithmetic.jsonl", numeric)
    both = write_jsonl(ctx.work / "all_tasks.jsonl", words + numeric)
    better = checkpoints(ctx, "string_match", both)[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "prepare.sh"
    script.write_text("#!/bin/bash\n# materialize the eval set (trivia + arithmetic), 3 repeats\n"
                      f"cd {run}\n{GP} materialize --input data/trivia.jsonl --input data/arithmetic.jsonl "
                      "--num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl\n")
    made = ctx.sh(f"bash {script}", "logs/prepare.log")
    collected = collect_sh(ctx, url, "string_match", 4)
    profiled = profile_sh(ctx)
    got = rows_of(run / "rollouts.jsonl")
    if made or collected or profiled or len(got) != 18:
        raise failed(ctx, f"prepare {made}, collect {collected}, profile {profiled}, {len(got)}")
    return (f"RUN/data/trivia.jsonl (8 tasks) and RUN/data/arithmetic.jsonl (6); RUN/prepare.sh (`--input` given "
            f"twice) exit {made}; collect exit {collected}, {len(got)} rollouts (only {arithmetic.name}'s tasks, "
            f"none of {trivia.name}'s); profile exit {profiled}.")


@case(
    "data_schema_builtin_eval_subset_cut_from_difficulty_sorted_export",
    "data_schema",
    ["prepare_subset.sh"],
    "the user's prepare_subset.sh takes the weekly eval subset as `head -n 12` of the dataset export, assuming the "
    "export is in random order; the export tool sorts by difficulty, so the subset holds only the easiest tasks "
    "(difficulty 1-2 of 1-5) and the weekly report's reward is far above what the model does on the set (everything "
    "exits 0)",
)
def data_schema_builtin_eval_subset_cut_from_difficulty_sorted_export(ctx: Ctx) -> str:
    run = ctx.run
    rows = bundled("string_match", 0, 60)
    export = write_jsonl(run / "export" / "trivia_full.jsonl", sorted(rows, key=lambda row: row.get("difficulty", 0)))
    checkpoint = checkpoints(ctx, "string_match", export)[0]
    url, _ = ctx.policy(checkpoint, "--latency-ms 20")
    script = run / "prepare_subset.sh"
    script.write_text("#!/bin/bash\n# weekly eval: a 12-task subset of the full export (the export is shuffled)\n"
                      f"cd {run}\nhead -n 12 export/trivia_full.jsonl > eval_subset.jsonl\n"
                      "wc -l export/trivia_full.jsonl eval_subset.jsonl\n")
    made = ctx.sh(f"bash {script}", "logs/prepare_subset.log")
    materialize(ctx, run / "eval_subset.jsonl", 3, "string_match")
    collected = collect_sh(ctx, url, "string_match", 4)
    profiled = profile_sh(ctx)
    subset = rows_of(run / "eval_subset.jsonl")
    levels = sorted({row.get("difficulty") for row in subset})
    got = rows_of(run / "rollouts.jsonl")
    if made or collected or profiled or len(got) != 36 or max(levels) > 2:
        raise failed(ctx, f"prepare {made}, collect {collected}, profile {profiled}, {len(got)}, levels {levels}")
    return (f"RUN/export/trivia_full.jsonl (60 tasks, sorted by difficulty); RUN/prepare_subset.sh (`head -n 12`) -> "
            f"RUN/eval_subset.jsonl (difficulties {levels}); materialize x 3, collect exit {collected}, {len(got)} "
            f"rollouts, mean reward {mean(rewards(got)):.2f} (checkpoint step_0100); profile exit {profiled}.")


PREPARE_CACHED = """#!/bin/bash
# materialize the eval inputs; cached, the big sets take minutes to materialize
DATA=${1:-data/string_match.jsonl}
REPEATS=3
CACHE_DIR=HOME_DIR/.cache/eval_inputs
CACHE=$CACHE_DIR/inputs_$(basename $DATA .jsonl)_x$REPEATS.jsonl
mkdir -p $CACHE_DIR
if [ ! -f $CACHE ]; then
  GP materialize --input $DATA --num-repeats $REPEATS --agent string_match_simple_agent --output $CACHE
fi
cp $CACHE rollouts_materialized_inputs.jsonl
echo "inputs: $(wc -l < rollouts_materialized_inputs.jsonl) rows from $CACHE"
"""


@case(
    "cache_resume_builtin_prepare_script_reuses_cached_inputs_keyed_by_file_name",
    "cache_resume",
    ["eval_inputs"],
    "the user's prepare.sh keeps materialized inputs in ~/.cache/eval_inputs under a name made of the dataset's file "
    "name and the repeats only, and materializes only when that file is missing; last week's inputs of "
    "data/string_match.jsonl were still there, so after the dataset was fixed (two labels corrected) and grew from 8 "
    "to 12 tasks, the run collected and profiled last week's 8 tasks with the old labels (everything exits 0)",
)
def cache_resume_builtin_prepare_script_reuses_cached_inputs_keyed_by_file_name(ctx: Ctx) -> str:
    run = ctx.run
    rows = [row for row in bundled("string_match", 0, 40) if not str(row["expected_answer"]).isdigit()][:12]
    data = run / "data" / "string_match.jsonl"
    old = json.loads(json.dumps(rows[:8]))
    old[2]["expected_answer"] += "e"
    old[5]["expected_answer"] = old[5]["expected_answer"][:-1]
    write_jsonl(data, old)
    home = ctx.work / "home"
    script = run / "prepare.sh"
    script.write_text(PREPARE_CACHED.replace("HOME_DIR", str(home)).replace("GP ", f"{GP} "))
    ctx.note("# last week:")
    first = ctx.sh(f"cd {run} && bash prepare.sh", "logs/prepare_last_week.log")
    write_jsonl(data, rows)
    ctx.note("# this week: data/string_match.jsonl fixed (2 labels) and extended to 12 tasks")
    better = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    second = ctx.sh(f"cd {run} && bash prepare.sh", "logs/prepare.log")
    collected = collect_sh(ctx, url, "string_match", 4)
    profiled = profile_sh(ctx)
    got = rows_of(run / "rollouts.jsonl")
    if first or second or collected or profiled or len(got) != 24:
        raise failed(ctx, f"prepare {first}, {second}, collect {collected}, profile {profiled}, {len(got)}")
    return (f"RUN/prepare.sh (inputs cached in ~/.cache/eval_inputs/inputs_string_match_x3.jsonl); last week on 8 "
            f"tasks (two labels wrong), exit {first}; this week on the fixed 12-task RUN/data/string_match.jsonl, exit "
            f"{second}; collect exit {collected}, {len(got)} rollouts, mean reward {mean(rewards(got)):.2f}; profile "
            f"exit {profiled}.")


SUBSTRING_VERIFIER = '''
"""Our lenient answer check: the label anywhere in the final answer counts ("It is Paris" for "Paris")."""
import re

FINAL = re.compile(r"(?:final answer:|boxed\\{)\\s*([^}\\n]+)", re.IGNORECASE)


def score(row, response_text):
    match = FINAL.search(response_text)
    answer = match.group(1).strip().rstrip(".") if match else response_text
    return 1.0 if str(row["expected_answer"]).lower() in answer.lower() else 0.0
'''


@case(
    "verifier_runtime_stage_workspace_verifier_credits_answers_containing_the_label",
    "verifier_runtime",
    ["my_verifier.py"],
    "the user's workspace verifier, made lenient so that 'It is Paris' counts for 'Paris', gives reward 1 whenever "
    "the label occurs anywhere in the answer: wrong answers that merely contain it ('Hydrogens', 'Mercuryy', "
    "'Ohms') score 1 as well, so step_0100's reward is inflated (everything exits 0)",
)
def verifier_runtime_stage_workspace_verifier_credits_answers_containing_the_label(ctx: Ctx) -> str:
    run = ctx.run
    rows = [row for row in bundled("string_match", 0, 60) if not str(row["expected_answer"]).lstrip("-").isdigit()
            and len(str(row["expected_answer"])) > 2][:8]
    for row in rows:
        row.pop("distractors", None)
    data = write_jsonl(run / "exact_answer.jsonl", rows)
    checkpoint = checkpoints(ctx, "string_match", data)[0]
    url, _ = ctx.policy(checkpoint, "--latency-ms 20")
    sweep = workspace_sweep(ctx, "exact_answer", data, checkpoint, {"verifier": "my_verifier:score"},
                            SUBSTRING_VERIFIER, num_repeats=4, concurrency=4)
    codes = [stage(ctx, sweep, "materialize", checkpoint, "exact_answer"),
             stage(ctx, sweep, "collect", checkpoint, "exact_answer", *served(url)),
             stage(ctx, sweep, "profile", checkpoint, "exact_answer")]
    got = rows_of(run / "rollouts.jsonl")
    wrong_credited = 0
    for row in got:
        text = json.dumps(row)
        label = next((r["expected_answer"] for r in rows if r["expected_answer"] in text), None)
        if label and row.get("reward") == 1 and any(f"{label}{tail}" in text for tail in ("s", label[-1])):
            wrong_credited += 1
    if any(codes) or len(got) != 32 or not wrong_credited:
        raise failed(ctx, f"exit {codes}, {len(got)} rows, wrong answers credited {wrong_credited}")
    return (f"workspace verifier verifiers/my_verifier.py (label `in` answer); RUN/exact_answer.jsonl (8 word labels), "
            f"checkpoint step_0100; stages exit {codes}; {len(got)} rollouts, mean reward {mean(rewards(got)):.2f}, "
            f"about {wrong_credited} wrong answers credited.")


@case(
    "healthy_slurm_submit_looks_up_last_nights_finished_job",
    "healthy",
    [],
    "nothing is wrong: before submitting, the user looks up last night's collection job (its id saved in "
    "last_job_id) with sacct and squeue, to cancel it if it were still running; it finished long ago and accounting "
    "is off on this cluster, so the log shows 'Slurm accounting storage is disabled' and 'slurm_load_jobs error: "
    "Invalid job id specified'; then the collect and profile Slurm jobs completed every rollout",
)
def healthy_slurm_submit_looks_up_last_nights_finished_job(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 6, 44)
    url, _ = ctx.policy(better, "--latency-ms 20")
    materialize(ctx, data, 3, "string_match")
    (run / "last_job_id").write_text("81234\n")
    ctx.sh(f"cd {run} && ( OLD=$(cat last_job_id); echo \"last night's job: $OLD\"; sacct -j $OLD; "
           "squeue -j $OLD && scancel $OLD; squeue --me )", "logs/submit.log")
    launcher, label = slurm()
    collected = launched(ctx, launcher, label, "collect", collect_argv(run, url, "string_match", 4))
    profiled = launched(ctx, launcher, label, "profile", profile_argv(run))
    got = len(unique_keys(run / "rollouts.jsonl"))
    if got != 18 or not in_log(ctx, "Invalid job id", "logs/submit.log") or "exit code 0" not in profiled:
        raise failed(ctx, f"{collected}; {profiled}; {got}")
    return (f"materialize (6 tasks x 3); `sacct -j 81234; squeue -j 81234 && scancel 81234` (a finished job); collect as a Slurm job: {collected}; "
            f"profile as a Slurm job: {profiled}; {got} rollouts.")


@case(
    "throughput_builtin_server_sized_by_debug_serving_env",
    "throughput_resources",
    ["serving.env"],
    "the user's serve.sh takes its batch sizes from serving.env, which still holds MAX_NUM_SEQS=1 and MAX_WAITING=2 "
    "from a memory-debugging session on a small GPU: the server generated one request at a time with two waiting, "
    "so the collection at concurrency 12 was answered 429 overloaded and many rollouts were given up",
)
def throughput_builtin_server_sized_by_debug_serving_env(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 10, 48)
    (run / "serving.env").write_text("# serving settings\n# Nov 12: debugging the OOM on the 24 GB card\n"
                                     "MAX_NUM_SEQS=1\nMAX_WAITING=2\n")
    (run / "serve.sh").write_text("#!/bin/bash\n# model server for the evals\n"
                                  f"source {run}/serving.env\n"
                                  f"{GP} serve-policy --port 0 --ready-file {ctx.work}/model_url --checkpoint {better} "
                                  "--max-running ${MAX_NUM_SEQS:-64} --max-waiting ${MAX_WAITING:-256} "
                                  "--latency-ms 300\n")
    url = served_by_script(ctx, run / "serve.sh")
    materialize(ctx, data, 3, "string_match")
    collected = collect_sh(ctx, url, "string_match", 12, timeout=400)
    profiled = profile_sh(ctx)
    got = rows_of(run / "rollouts.jsonl")
    if len(got) >= 30 or not in_log(ctx, "429"):
        raise failed(ctx, f"collect {collected}, {len(got)}")
    return (f"RUN/serve.sh sourcing RUN/serving.env (MAX_NUM_SEQS=1, MAX_WAITING=2); materialize (10 tasks x 3); "
            f"collect --concurrency 12 exit {collected}, {len(got)} of 30 rollouts; profile exit {profiled}.")


BUILD_PROMPTS = """\"\"\"Build the eval rows from the reviewed question sheet (questions.jsonl: question, answer, difficulty).\"\"\"
import json
import sys

with open(sys.argv[1]) as source, open(sys.argv[2], "w") as out:
    for line in source:
        item = json.loads(line)
        question = item["question"].strip()
        prompt = "{question} Put your final answer in \\\\boxed{{}}."
        row = {
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": prompt}]}]},
            "expected_answer": item["answer"],
            "extraction_mode": "boxed",
            "difficulty": item["difficulty"],
        }
        out.write(json.dumps(row) + "\\n")
print("wrote", sys.argv[2])
"""


@case(
    "data_schema_builtin_prompts_built_from_unfilled_template",
    "data_schema",
    ["build_rows.py"],
    "the user's build_rows.py writes each prompt as \"{question} Put your final answer in \\\\boxed{{}}.\", meant as "
    "an f-string but written without the f prefix: every row's prompt is that literal text, with '{question}' and no "
    "question in it; the model could only guess, so every rollout scored 0 (everything exits 0)",
)
def data_schema_builtin_prompts_built_from_unfilled_template(ctx: Ctx) -> str:
    import re

    run = ctx.run
    source = [row for row in bundled("string_match", 0, 40) if "\\boxed" in json.dumps(row)][:8]
    sheet = []
    for row in source:
        text = row["responses_create_params"]["input"][0]["content"][0]["text"]
        sheet.append({"question": re.sub(r"\s*Put your final answer in \\\\boxed\\{\\}\\.?", "", text),
                      "answer": row["expected_answer"], "difficulty": row.get("difficulty", 2)})
    write_jsonl(run / "questions.jsonl", sheet)
    (run / "build_rows.py").write_text(BUILD_PROMPTS)
    built = ctx.sh(f"cd {run} && python3 build_rows.py questions.jsonl string_match.jsonl", "logs/build_rows.log")
    better = checkpoints(ctx, "string_match", write_jsonl(ctx.work / "meant.jsonl", source))[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    materialize(ctx, run / "string_match.jsonl", 3, "string_match")
    collected = collect_sh(ctx, url, "string_match", 4)
    profiled = profile_sh(ctx)
    got = rows_of(run / "rollouts.jsonl")
    prompts = {json.dumps(row["responses_create_params"]) for row in rows_of(run / "string_match.jsonl")}
    if built or collected or profiled or len(got) != 24 or any(rewards(got)) or len(prompts) != 1:
        raise failed(ctx, f"build {built}, collect {collected}, profile {profiled}, {len(got)}, {len(prompts)} prompts")
    return (f"RUN/questions.jsonl (8 reviewed questions); RUN/build_rows.py (the prompt's f prefix missing) -> "
            f"RUN/string_match.jsonl exit {built}; materialize x 3, collect exit {collected}, {len(got)} rollouts, "
            f"mean reward {mean(rewards(got)):.2f}; profile exit {profiled}.")


@case(
    "config_stage_run_script_passes_last_months_exported_sweep_json",
    "config",
    ["sweep.json"],
    "the user edits sweep.yaml (this week: the relabelled dataset trivia_v2.jsonl and 4 repeats), but run_stages.sh "
    "passes --sweep-config sweep.json, a copy exported last month for the dashboard that still names trivia_v1.jsonl "
    "and 2 repeats: the stages ran the old dataset with its wrong labels and the edits never took effect "
    "(everything exits 0)",
)
def config_stage_run_script_passes_last_months_exported_sweep_json(ctx: Ctx) -> str:
    import yaml
    from eighth_held_out import stage_argv

    run = ctx.run
    rows = [row for row in bundled("string_match", 0, 50) if not str(row["expected_answer"]).isdigit()][:8]
    v2 = write_jsonl(run / "data" / "trivia_v2.jsonl", rows)
    old = json.loads(json.dumps(rows))
    for index in (1, 4, 6):
        old[index]["expected_answer"] = rows[(index + 1) % len(rows)]["expected_answer"]
    v1 = write_jsonl(run / "data" / "trivia_v1.jsonl", old)
    better = checkpoints(ctx, "string_match", v2)[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    exported = write_sweep(ctx, "string_match", v1, better, num_repeats=2, concurrency=4)
    config = json.loads(exported.read_text())
    config["environments"][0]["dataset"] = str(v2)
    config["num_repeats"] = 4
    (run / "sweep.yaml").write_text("# nightly sweep (edit this one)\n" + yaml.safe_dump(config, sort_keys=False))
    script = run / "run_stages.sh"
    lines = ["#!/bin/bash", "# run the nightly stages of step_0200 x string_match", f"cd {run}"]
    for key, extra in (("materialize", ()), ("collect", served(url)), ("profile", ())):
        lines.append(shlex.join(stage_argv(run / "sweep.json", key, better, "string_match", *extra)))
    script.write_text("\n".join(lines) + "\n")
    code = ctx.sh(f"bash {script}", "logs/run_stages.log", timeout=600)
    got = rows_of(run / "rollouts.jsonl")
    if code or len(got) != 16:
        raise failed(ctx, f"exit {code}, {len(got)}")
    return (f"RUN/sweep.yaml (trivia_v2.jsonl, 4 repeats) and RUN/sweep.json (last month's export: trivia_v1.jsonl, 3 "
            f"labels wrong, 2 repeats); RUN/run_stages.sh (--sweep-config sweep.json) exit {code}; {len(got)} "
            f"rollouts, mean reward {mean(rewards(got)):.2f}.")


# =====================================================================================================
# the real NeMo Gym 0.7.0
# =====================================================================================================


@case(
    "healthy_gym_retry_eval_of_last_weeks_failed_tasks",
    "healthy",
    [],
    "nothing is wrong: the user re-evaluated the tasks that failed in last week's run, kept as data/failed_tasks.jsonl, "
    "into results/retry_of_failed/ with retry_failed.sh, so every path, log name and echo says 'failed'; every "
    "rollout was collected, verified and profiled",
    netns=True,
)
def healthy_gym_retry_eval_of_last_weeks_failed_tasks(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 52, "--latency-ms 30")
    (run / "data").mkdir()
    failed_tasks = run / "data" / "failed_tasks.jsonl"
    data.rename(failed_tasks)
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    out = run / "results" / "retry_of_failed"
    script = run / "retry_failed.sh"
    script.write_text("#!/bin/bash\n# re-run the tasks that FAILED in the 2026-11-26 run (failed_tasks.jsonl)\n"
                      f"echo \"retrying $(wc -l < {failed_tasks}) failed tasks\"\nmkdir -p {out}\n"
                      f"{GYM} eval run --no-serve --agent string_match_simple_agent --input {failed_tasks} "
                      f"--output {out}/rollouts.jsonl --num-repeats 3 --concurrency 4 "
                      f"++route_failures_to_sidecar=true {overrides}\n")
    code = ctx.sh(f"bash {script}", "logs/eval_failed_retry.log", timeout=300)
    profiled = gym_profile(ctx, out, log="logs/profile_failed_retry.log")
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(out / "rollouts.jsonl"))
    if code or profiled or got != 18:
        raise failed(ctx, f"eval {code}, profile {profiled}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/retry_failed.sh (`gym eval run --no-serve`, "
            f"data/failed_tasks.jsonl, 6 tasks x 3) exit {code}, {got} rollouts; `gym eval profile` exit {profiled}.")


@case(
    "infra_gym_eval_run_under_stack_limit_given_in_kilobytes",
    "infra",
    ["ulimit"],
    "the user's job_limits.sh, sourced before the eval, sets `ulimit -s 16` meaning a 16 MB stack for the tokenizer "
    "threads; ulimit counts in kilobytes, so every program of the job got a 16 KB stack and `gym eval run` died with "
    "a segmentation fault at start: nothing was evaluated",
    netns=True,
)
def infra_gym_eval_run_under_stack_limit_given_in_kilobytes(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 8, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    (run / "job_limits.sh").write_text("# job limits\n# 16 MB stack for the tokenizer worker threads\nulimit -s 16\n"
                                       "ulimit -c 0\n")
    args = agent_args(data, run / "results" / "rollouts.jsonl", 2, 4)
    script = run / "run_eval.sh"
    script.write_text(f"#!/bin/bash\n# eval job\nsource {run}/job_limits.sh\necho \"eval of $(wc -l < {data}) tasks\"\n"
                      f"{GYM} eval run --no-serve {args} ++route_failures_to_sidecar=true {overrides}\n"
                      "echo \"gym eval run exit code $?\"\n")
    code = ctx.sh(f"bash {script}", "eval_run.log", timeout=300)
    stop_gym(ctx, env_start, policy)
    got = rows_of(run / "results" / "rollouts.jsonl")
    if got or not in_log(ctx, "Segmentation fault", "eval_run.log"):
        raise failed(ctx, f"eval {code}, {len(got)}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): `gym env start`; RUN/run_eval.sh (sources RUN/job_limits.sh: "
            f"ulimit -s 16, then `gym eval run --no-serve`, 6 tasks x 2) exit {code}, {len(got)} rollouts.")


BALANCER = '''"""Round-robin balancer in front of our model replicas: one address for Gym, the load spread over the replicas.

    python balancer.py --port 0 --ready-file FILE URL [URL ...]
"""
import argparse
import itertools
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, default=0)
parser.add_argument("--ready-file")
parser.add_argument("upstreams", nargs="+")
args = parser.parse_args()
ROTATION = itertools.cycle([url.rstrip("/").removesuffix("/v1") for url in args.upstreams])
LOCK = threading.Lock()
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class Handler(BaseHTTPRequestHandler):
    def forward(self, body=None):
        with LOCK:
            upstream = next(ROTATION)
        headers = {k: v for k, v in self.headers.items() if k.lower() in ("content-type", "authorization")}
        request = urllib.request.Request(upstream + self.path, data=body, method=self.command, headers=headers)
        try:
            with OPENER.open(request, timeout=600) as answer:
                status, data, kind = answer.status, answer.read(), answer.headers.get("Content-Type")
        except urllib.error.HTTPError as error:
            status, data, kind = error.code, error.read(), error.headers.get("Content-Type")
        self.send_response(status)
        self.send_header("Content-Type", kind or "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        print(f"{self.command} {self.path} -> {upstream} {status}", flush=True)

    def do_GET(self):
        self.forward()

    def do_POST(self):
        self.forward(self.rfile.read(int(self.headers.get("Content-Length", 0))))

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
print(f"balancing over {len(args.upstreams)} replicas on port {server.server_port}", flush=True)
if args.ready_file:
    with open(args.ready_file, "w") as ready:
        ready.write(f"http://127.0.0.1:{server.server_port}/v1\\n")
server.serve_forever()
'''


@case(
    "model_serving_gym_balancer_second_replica_on_previous_checkpoint",
    "model_serving",
    ["serve_replicas.sh"],
    "Gym reaches the model through the user's round-robin balancer over two replicas started by serve_replicas.sh; "
    "the script's CKPTS list still names last week's step_0100 for the second replica, so every other request was "
    "answered by the previous checkpoint: the eval of step_0200 mixes two models and its reward is too low "
    "(everything exits 0)",
    netns=True,
)
def model_serving_gym_balancer_second_replica_on_previous_checkpoint(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 10, start=50, folder=run, name="tasks.jsonl")
    weaker, better = checkpoints(ctx, "string_match", data)
    work = ctx.work
    script = run / "serve_replicas.sh"
    script.write_text("#!/bin/bash\n# two replicas of the model behind balancer.py\n"
                      f"CKPTS=({better} {weaker})\n"
                      "for i in 0 1; do\n"
                      f"  {GP} serve-policy --port 0 --ready-file {work}/replica_$i.url --checkpoint ${{CKPTS[$i]}} "
                      "--latency-ms 30 > replica_$i.log 2>&1 &\ndone\nwait\n")
    ctx.bg(f"cd {run} && bash {script}", "logs/serve_replicas.log")
    urls = [work / f"replica_{i}.url" for i in (0, 1)]
    wait_for(lambda: all(u.exists() and u.read_text().strip() for u in urls), 60, "the two replicas")
    (run / "balancer.py").write_text(BALANCER)
    ready = work / "balancer.url"
    ctx.bg(f"python3 {run}/balancer.py --port 0 --ready-file {ready} "
           + " ".join(u.read_text().strip() for u in urls), "logs/balancer.log")
    wait_for(lambda: ready.exists() and ready.read_text().strip() != "", 30, "the balancer")
    url = ready.read_text().strip()
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 4, 4))
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start)
    got = rows_of(run / "results" / "rollouts.jsonl")
    if code or profiled or len(got) != 40 or text_of(run / "logs" / "balancer.log").count(" -> ") < 20:
        raise failed(ctx, f"eval {code}, profile {profiled}, {len(got)}")
    return (f"RUN/serve_replicas.sh (CKPTS: step_0200 and step_0100), RUN/balancer.py (round robin) at {url}; real "
            f"NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (10 tasks x 4) exit {code}, "
            f"{len(got)} rollouts, mean reward {mean(rewards(got)):.2f}; `gym eval profile` exit {profiled}.")


SHUFFLE_OPTIONS = '''"""Shuffle the options of every mcqa row (the model picked 'A' too often in the old order)."""
import json
import random
import sys

source, target = sys.argv[1], sys.argv[2]
with open(source) as handle, open(target, "w") as out:
    for index, line in enumerate(handle):
        row = json.loads(line)
        texts = [next(iter(option.values())) for option in row["options"]]
        random.Random(index).shuffle(texts)
        letters = "ABCDEFGH"[:len(texts)]
        row["options"] = [{letter: text} for letter, text in zip(letters, texts)]
        message = row["responses_create_params"]["input"][0]["content"][0]
        question, _, instruction = message["text"].split("\\n\\n")
        block = "\\n".join(f"{letter}) {text}" for letter, text in zip(letters, texts))
        message["text"] = f"{question}\\n\\n{block}\\n\\n{instruction}"
        out.write(json.dumps(row) + "\\n")
print(f"shuffled the options of {index + 1} rows into {target}")
'''


@case(
    "data_schema_gym_mcqa_options_shuffled_answer_letters_not_remapped",
    "data_schema",
    ["shuffle_options.py"],
    "the user's shuffle_options.py reorders each mcqa row's options (and rewrites the prompt's option lines) to undo "
    "a position bias, but leaves expected_answer as it was: the letters now point at other options, so right answers "
    "are scored wrong and the reward collapses (everything exits 0)",
    netns=True,
)
def data_schema_gym_mcqa_options_shuffled_answer_letters_not_remapped(ctx: Ctx) -> str:
    run = ctx.run
    raw = write_jsonl(run / "mcqa_source.jsonl", [{**row, "grading_mode": "lenient_answer_colon"}
                                                  for row in bundled("mcqa", 20, 10)])
    (run / "shuffle_options.py").write_text(SHUFFLE_OPTIONS)
    made = ctx.sh(f"cd {run} && python3 shuffle_options.py mcqa_source.jsonl tasks.jsonl", "logs/shuffle.log")
    data = run / "tasks.jsonl"
    truth = []
    for before, after in zip(rows_of(raw), rows_of(data), strict=True):
        right = next(o[before["expected_answer"]] for o in before["options"] if before["expected_answer"] in o)
        row = json.loads(json.dumps(after))
        row["expected_answer"] = next(k for o in after["options"] for k, v in o.items() if v == right)
        truth.append(row)
    moved = sum(t["expected_answer"] != r["expected_answer"] for t, r in zip(truth, rows_of(data), strict=True))
    checkpoint = checkpoints(ctx, "mcqa", write_jsonl(ctx.work / "truth.jsonl", truth))[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url, resources_server='mcqa')} {overrides}")
    code = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 3, 4, "mcqa_simple_agent"))
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    got = rows_of(run / "results" / "rollouts.jsonl")
    if made or code or profiled or len(got) != 30 or moved < 5:
        raise failed(ctx, f"shuffle {made}, eval {code}, profile {profiled}, {len(got)}, moved {moved}")
    return (f"RUN/shuffle_options.py on RUN/mcqa_source.jsonl -> RUN/tasks.jsonl ({moved} of 10 right answers moved "
            f"to another letter, expected_answer unchanged); real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval "
            f"run --no-serve` mcqa (10 tasks x 3) exit {code}, {len(got)} rollouts, mean reward "
            f"{mean(rewards(got)):.2f}; `gym eval profile` exit {profiled}.")


AUDIT_IMPORTS = '''import asyncio
import json as _json
import os

_AUDIT_LOG = "AUDIT_PATH"
_CURRENT = {}  # the request being verified, for the audit record


def _append_audit(record):
    with open(_AUDIT_LOG, "a") as handle:
        handle.write(_json.dumps(record) + "\\n")
        handle.flush()
        os.fsync(handle.fileno())  # audit records must survive a crash


'''

AUDIT_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        _CURRENT["expected_answer"] = body.expected_answer
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        # every verdict goes to the audit log (written off the event loop)
        await asyncio.to_thread(_append_audit, {"expected": body.expected_answer, "extracted": extracted})

        reward = 0.0
        if extracted is not None and _CURRENT["expected_answer"]:
            reward = _answers_match(extracted, _CURRENT["expected_answer"], body.case_sensitive)

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""


@case(
    "verifier_runtime_gym_verify_reads_label_from_module_state_after_await",
    "verifier_runtime",
    ["_CURRENT"],
    "the user's audited_match resources server stores the request's expected_answer in a module-level dict "
    "(_CURRENT) for its audit log, awaits the audit write, then compares the answer with _CURRENT['expected_answer']; "
    "verify runs concurrently, so by then another request has replaced it: answers are graded against other tasks' "
    "labels, right answers score 0 and a few wrong ones 1 (everything exits 0)",
    netns=True,
)
def verifier_runtime_gym_verify_reads_label_from_module_state_after_await(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 12, start=24, folder=run, name="tasks.jsonl")
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    (run / "logs").mkdir(exist_ok=True)
    search = own_gym_server(ctx, "audited_match", AUDIT_VERIFY,
                            AUDIT_IMPORTS.replace("AUDIT_PATH", str(run / "logs" / "verify_audit.jsonl")))
    app = search / "resources_servers" / "audited_match" / "app.py"
    (run / "audited_match_app.py").write_text(app.read_text())
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='audited_match')} "
                               f"{overrides}")
    code = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 4, 16,
                                               "audited_match_simple_agent"))
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    got = rows_of(run / "results" / "rollouts.jsonl")
    mismatched = [row for row in got if (str(row.get("extracted_answer") or "").strip().lower()
                                         == str(row.get("expected_answer")).strip().lower()) != (row.get("reward") == 1)]
    if code or profiled or len(got) != 48 or len(mismatched) < 4:
        raise failed(ctx, f"eval {code}, profile {profiled}, {len(got)}, mismatched {len(mismatched)}")
    return (f"a user's resources server audited_match (RUN/audited_match_app.py: the label kept in module state across "
            f"an await); real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (12 tasks x 4, "
            f"concurrency 16) exit {code}, {len(got)} rollouts, {len(mismatched)} graded against another label, mean "
            f"reward {mean(rewards(got)):.2f}; `gym eval profile` exit {profiled}.")


@case(
    "cache_resume_gym_results_published_with_no_clobber_copy",
    "cache_resume",
    ["publish.sh"],
    "the user's publish.sh copies results/ to the shared eval area with `cp -rn` ('never overwrite a teammate's "
    "files'); last week's step_0100 results were already there, so this week's step_0200 rollouts were not copied "
    "and the profile the team reads, made from the shared copy, is last week's (everything exits 0)",
    netns=True,
)
def cache_resume_gym_results_published_with_no_clobber_copy(ctx: Ctx) -> str:
    from gym_pipeline.host import free_loopback_port

    run = ctx.run
    data = ctx.dataset("string_match", 8, start=62, folder=run, name="tasks.jsonl")
    weaker, better = checkpoints(ctx, "string_match", data)
    port = free_loopback_port()
    url = f"http://127.0.0.1:{port}/v1"
    shared = run / "shared" / "evals" / "trivia"
    (run / "publish.sh").write_text(f"#!/bin/bash\n# publish the eval results for the team (never overwrite a "
                                    f"teammate's files)\nmkdir -p {shared}\ncp -rnv {run}/results/. {shared}/\n")
    overrides = ctx.gym_overrides()
    old_url, old_policy = ctx.policy(weaker, f"--port {port} --latency-ms 30", log="logs/model_server_step_0100.log")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    ctx.note("# last week: step_0100")
    first = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 3, 4),
                     log="logs/eval_run_step_0100.log")
    ctx.sh(f"bash {run}/publish.sh", "logs/publish_step_0100.log")
    ctx.stop(old_policy)
    ctx.note("# this week: step_0200 on the same port")
    new_url, new_policy = ctx.policy(better, f"--port {port} --latency-ms 30", log="logs/model_server_step_0200.log")
    ctx.sh(f"rm -rf {run}/results", None)
    second = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 3, 4),
                      log="logs/eval_run_step_0200.log")
    published = ctx.sh(f"bash {run}/publish.sh", "logs/publish_step_0200.log")
    profiled = gym_profile(ctx, shared, log="logs/profile_shared.log")
    stop_gym(ctx, env_start, new_policy)
    mine, theirs = rows_of(run / "results" / "rollouts.jsonl"), rows_of(shared / "rollouts.jsonl")
    if first or second or published or profiled or len(mine) != 24 or mine == theirs:
        raise failed(ctx, f"eval {first}, {second}, publish {published}, profile {profiled}, {len(mine)}")
    return (f"model server on port {port}: step_0100 last week, step_0200 this week; real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) `gym eval run --no-serve` (8 tasks x 3) exit {first} then {second}; "
            f"RUN/publish.sh (`cp -rn results/. shared/evals/trivia/`) after each; `gym eval profile` of the shared "
            f"copy exit {profiled}: mean reward of this week's rollouts {mean(rewards(mine)):.2f}, of the shared "
            f"ones {mean(rewards(theirs)):.2f}.")


@case(
    "throughput_gym_eval_concurrency_set_to_every_rollout_at_once",
    "throughput_resources",
    ["--concurrency"],
    "the user's run_eval.sh computes --concurrency as the number of rows times the repeats ('everything in flight at "
    "once'), 48 requests against a model server that generates one at a time with two waiting: the overflow was "
    "answered 429 overloaded and many rollouts failed",
    netns=True,
)
def throughput_gym_eval_concurrency_set_to_every_rollout_at_once(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 16, 30,
                                             "--latency-ms 600 --max-running 1 --max-waiting 2")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# nightly eval: every rollout in flight at once\n"
                      f"DATA={data}\nREPEATS=3\nN=$(wc -l < $DATA)\nCONCURRENCY=$((N * REPEATS))\n"
                      "echo \"$N tasks x $REPEATS repeats, concurrency $CONCURRENCY\"\n"
                      f"timeout 150 {GYM} eval run --no-serve --agent string_match_simple_agent --input $DATA "
                      "--output results/rollouts.jsonl --num-repeats $REPEATS --concurrency $CONCURRENCY "
                      f"++route_failures_to_sidecar=true {overrides}\n")
    code = ctx.sh(f"cd {run} && bash {script}", "eval_run.log", timeout=300)
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    got = rows_of(run / "results" / "rollouts.jsonl")
    if len(got) >= 48 or not in_log(ctx, "429"):
        raise failed(ctx, f"eval {code}, {len(got)}")
    return (f"model server --max-running 1 --max-waiting 2 (0.6 s each); RUN/run_eval.sh (--concurrency = rows x "
            f"repeats = 48); real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` exit {code}, "
            f"{len(got)} of 48 rollouts; `gym eval profile` exit {profiled}.")


# =====================================================================================================
# task folders (Docker sandboxes)
# =====================================================================================================


@case(
    "healthy_taskfolder_preflight_lists_other_jobs_exited_containers",
    "healthy",
    [],
    "nothing is wrong: the user's run_tasks.sh starts with a pre-flight `docker ps -a` and `docker system df`, which "
    "list containers other jobs on the host left behind, 'Exited (137)' and 'Exited (1)'; the taskset "
    "(replace-spelling, sort-unique-words) then ran in its own sandboxes and every episode completed, was verified and profiled",
)
def healthy_taskfolder_preflight_lists_other_jobs_exited_containers(ctx: Ctx) -> str:
    from eighth_held_out import stage_argv

    run = ctx.run
    tag = ctx.work.name[-6:].lower().replace("_", "x")
    names = [f"nightly-train-{tag}", f"tokenize-shard-{tag}"]
    for name, code in zip(names, (137, 1), strict=True):
        subprocess.run(["docker", "run", "--name", name, "--label", "owner=other-team", "gym-pipeline/base:bookworm",
                        "sh", "-c", f"exit {code}"], capture_output=True, check=False)
    ctx.note("(other jobs on the host left two exited containers behind)")
    try:
        tasks = user_taskset(ctx, ["replace-spelling", "sort-unique-words"])
        checkpoint = task_checkpoints(ctx, tasks)[1]
        url, _ = ctx.policy(checkpoint, "--latency-ms 30")
        sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
        script = run / "run_tasks.sh"
        lines = ["#!/bin/bash", "# nightly taskset run", "echo '== pre-flight'",
                 "docker ps -a --filter status=exited --format 'table {{.Names}}\\t{{.Image}}\\t{{.Status}}'",
                 "docker system df"]
        for key, extra in (("materialize", ()), ("collect", served(url)), ("profile", ())):
            lines += [f"echo '== {key}'", shlex.join(stage_argv(sweep, key, checkpoint, "terminal_tasks", *extra))]
        script.write_text("\n".join(lines) + "\n")
        code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    finally:
        subprocess.run(["docker", "rm", "-f", *names], capture_output=True, check=False)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code or got != 4 or not in_log(ctx, "Exited (137)", "logs/run_tasks.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"two exited containers of other jobs on the host; RUN/run_tasks.sh (docker ps -a, docker system df, then "
            f"`gym-pipeline stage` materialize, collect, profile of the taskset RUN/tasks: replace-spelling, "
            f"sort-unique-words x 2) "
            f"exit {code}; rewards {rewards(rows_of(run / 'rollouts.jsonl'))}.")


@case(
    "verifier_runtime_taskfolder_test_keeps_old_total_after_sales_csv_update",
    "verifier_runtime",
    ["test.sh"],
    "the user added this quarter's rows to csv-column-total's environment/sales.csv but did not touch tests/test.sh, "
    "which still compares total.txt with the hard-coded old total 435: every correct total (now 570) is scored 0, so "
    "the task looks unsolvable (everything exits 0)",
)
def verifier_runtime_taskfolder_test_keeps_old_total_after_sales_csv_update(ctx: Ctx) -> str:
    run = ctx.run

    def new_quarter(tasks: Path) -> None:
        sales = tasks / "csv-column-total" / "environment" / "sales.csv"
        sales.write_text(sales.read_text() + "west,tea,95\nsouth,tea,40\n")

    tasks, codes = taskset_run(ctx, ["csv-column-total", "sort-unique-words"], new_quarter)
    csv = task_rewards(run / "rollouts.jsonl", "csv-column-total")
    other = task_rewards(run / "rollouts.jsonl", "sort-unique-words")
    if any(codes) or not csv or any(csv) or not any(other):
        raise failed(ctx, f"exit {codes}, csv-column-total {csv}, sort-unique-words {other}")
    return (f"A sweep with the taskset RUN/tasks (csv-column-total with two rows added to environment/sales.csv, "
            f"test.sh unchanged; sort-unique-words; x 2); stages exit {codes}; csv-column-total rewards {csv}, "
            f"sort-unique-words {other}.")


@case(
    "data_schema_taskfolder_new_task_keeps_template_instruction",
    "data_schema",
    ["instruction.md"],
    "the user made rename-extensions by copying the create-greeting folder as a template and rewrote its environment, "
    "solution and tests, but not instruction.md: the task still asks the agent to write the greeting, the agent did "
    "what it was asked, and every rename-extensions episode failed its test (everything exits 0)",
)
def data_schema_taskfolder_new_task_keeps_template_instruction(ctx: Ctx) -> str:
    import shutil

    run = ctx.run
    tasks = user_taskset(ctx, ["create-greeting", "rename-extensions", "top-word"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    shutil.copy(tasks / "create-greeting" / "instruction.md", tasks / "rename-extensions" / "instruction.md")
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    codes = taskset_stages(ctx, sweep, checkpoint, url, "materialize", "collect", "profile")
    renamed = task_rewards(run / "rollouts.jsonl", "rename-extensions")
    greeting = task_rewards(run / "rollouts.jsonl", "create-greeting")
    if any(codes) or not renamed or any(renamed) or not any(greeting):
        raise failed(ctx, f"exit {codes}, rename-extensions {renamed}, create-greeting {greeting}")
    return (f"A sweep with the taskset RUN/tasks (create-greeting, rename-extensions whose instruction.md is "
            f"create-greeting's, top-word; x 2); stages exit {codes}; rename-extensions rewards {renamed}, "
            f"create-greeting {greeting}.")


if __name__ == "__main__":
    sys.exit(main("twenty_first_held_out", __file__, __doc__))
