"""Build the FORTY-SIXTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/forty_sixth_held_out.py --out tests/data/diagnosis_corpus/forty_sixth_held_out [--only CASE ...]

This set was written after the forty-five earlier sets (first_held_out.py ... forty_fifth_held_out.py), from the guides
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
mechanism from those of the forty-five earlier sets, and each recipe checks that its fault really happened (it raises
RecipeError otherwise, and the case is not written). About half of the failures are silent: every command exits 0
and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare,
mount), Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this checkout. Run it from a foreground shell.
"""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import (  # noqa: E402
    checkpoints,
    failed,
    gym_start,
    stop_gym,
    task_checkpoints,
    user_taskset,
    workspace_sweep,
)
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from forty_fifth_held_out import MULTIWORD, log_of, submit  # noqa: E402
from forty_fourth_held_out import CAPITALS  # noqa: E402
from forty_second_held_out import workspace_script  # noqa: E402
from forty_third_held_out import CAPITALS_WRONG, PLAIN_SBATCH  # noqa: E402
from fourteenth_held_out import mean, rewards  # noqa: E402
from recipes import (  # noqa: E402
    PY,
    Ctx,
    case,
    gym_model_args,
    main,
    rows_of,
    text_of,
)
from tenth_held_out import in_log  # noqa: E402
from thirtieth_held_out import gym_rows  # noqa: E402
from thirty_fifth_held_out import mean_reward, pipeline  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_fifth_held_out import job_logs, task_rows  # noqa: E402
from twenty_fourth_held_out import gym_eval_line, gym_profile_line  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_seventh_held_out import builtin_script, gym_eval_with_own_server  # noqa: E402
from twenty_sixth_held_out import free_port, gym_run, slurm_script  # noqa: E402
from twenty_third_held_out import taskset_script, write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


def said_right(row: dict) -> bool:
    """Whether the model's reply ends on the label after 'Final answer:' (the model got it right)."""
    return f"final answer: {row['expected_answer']}".lower() in json.dumps(row.get("response")).lower()


# =====================================================================================================
# healthy
# =====================================================================================================

DIFF_LINES = [
    "echo '== weekly eval'",
    "# what changed in the tasks since last week (for the run notes)",
    "diff -q string_match.jsonl last_week/string_match.jsonl || echo '(new tasks this week, as planned)'",
]


@case(
    "healthy_builtin_run_script_compares_tasks_with_last_weeks_copy_and_diff_exits_one_on_the_new_set",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh notes whether the tasks changed with `diff -q` against last week's "
    "copy; this week's set is new on purpose, so diff prints 'Files ... differ' and exits 1, and the script goes on; "
    "materialize, collect and profile completed every rollout",
)
def healthy_builtin_run_script_compares_tasks_with_last_weeks_copy_and_diff_exits_one_on_the_new_set(
        ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 12)
    ctx.note("(last week's tasks, kept in RUN/last_week)")
    ctx.dataset("string_match", 8, start=4, folder=run / "last_week", name="string_match.jsonl")
    url, _ = ctx.policy(better, "--latency-ms 30")
    script = builtin_script(ctx, DIFF_LINES, "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = complete(ctx)
    if code or got != 24 or not in_log(ctx, "differ", "logs/run_eval.log") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {log_of(ctx, 'run_eval.log')[-600:]}")
    return (f"RUN/run_eval.sh (`diff -q` with last week's tasks exits 1, then materialize 8 x 3, collect, profile) "
            f"exit {code}; {got} rollouts, mean reward {mean_reward(run / 'rollouts.jsonl')}.")


LSOF_LINES = [
    "echo '== weekly eval'",
    "# two runs writing one results folder overwrite each other: check that nothing else has it open",
    "lsof +D results || echo '(no other process has results/ open)'",
]


@case(
    "healthy_gym_run_script_checks_results_folder_for_other_writers_with_lsof_before_it_exists",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh checks with `lsof +D results` that no other eval writes the results "
    "folder; on this fresh run the folder does not exist yet, so lsof prints a status error and exits 1, and the "
    "script goes on; the real NeMo Gym eval then collected, verified and profiled every rollout",
    netns=True,
)
def healthy_gym_run_script_checks_results_folder_for_other_writers_with_lsof_before_it_exists(ctx: Ctx) -> str:
    run = ctx.run
    ctx.dataset("string_match", 8, start=64, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", run / "tasks.jsonl")[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", LSOF_LINES, overrides)
    stop_gym(ctx, env_start, policy)
    got = len({(r["_ng_task_index"], r["_ng_rollout_index"]) for r in gym_rows(ctx)})
    if code or got != 24 or not in_log(ctx, "lsof:", "logs/run_eval.log") \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {log_of(ctx, 'run_eval.log')[-600:]}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (`lsof +D results` before results/ exists, "
            f"then `gym eval run --no-serve` 8 tasks x 3 and `gym eval profile`) exit {code}; {got} rollouts, mean "
            f"reward {mean(rewards(gym_rows(ctx))):.2f}.")


NETWORK_LINES = [
    "echo '== weekly taskset run'",
    "# on the old cluster the sandboxes used the team's eval-net network: show it when it is there",
    "docker network inspect eval-net --format '{{.Name}} {{.Driver}}' || echo '(no eval-net here: default settings)'",
]


@case(
    "healthy_taskfolder_run_script_inspects_team_docker_network_left_behind_on_the_old_cluster",
    "healthy",
    [],
    "nothing is wrong: the user's run_tasks.sh shows the Docker network eval-net the sandboxes used on the old "
    "cluster; it does not exist on this engine, so `docker network inspect` prints an error and the script goes on; "
    "every episode then ran in its Docker sandbox, was verified and profiled",
)
def healthy_taskfolder_run_script_inspects_team_docker_network_left_behind_on_the_old_cluster(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["count-error-lines", "json-version"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, NETWORK_LINES)
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    log = log_of(ctx, "run_tasks.log")
    if code or complete(ctx) != 4 or not any(rewards(got)) or "eval-net" not in log or "rror" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {rewards(got)}: {log[-600:]}")
    return (f"RUN/run_tasks.sh (`docker network inspect eval-net` fails, then `gym-pipeline stage` materialize, "
            f"collect, profile of RUN/tasks x 2) exit {code}; {complete(ctx)} of 4 episodes, rewards {rewards(got)}.")


SPRIO_SBATCH = PLAIN_SBATCH.replace(
    "PIPELINE",
    "# why did the job wait? its priority factors, for the run notes\n"
    "sprio -j $SLURM_JOB_ID || echo '(no priority factors on this cluster)'\n"
    "PIPELINE")


@case(
    "healthy_slurm_job_prints_its_priority_factors_with_sprio_under_basic_priority_plugin",
    "healthy",
    [],
    "nothing is wrong: the user's eval.sbatch prints its priority factors with `sprio -j $SLURM_JOB_ID`; this "
    "cluster runs the basic priority plugin, so sprio answers 'You are not running a supported priority plugin' and "
    "the job goes on; materialize, collect and profile completed every rollout",
)
def healthy_slurm_job_prints_its_priority_factors_with_sprio_under_basic_priority_plugin(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 58)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(SPRIO_SBATCH, ctx, PIPELINE=pipeline(url)))
    code = submit(ctx, "eval.sbatch")
    got = complete(ctx)
    job = job_logs(ctx, "eval_*.log")
    if code or got != 24 or "priority plugin" not in job or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {job[-600:]}")
    return (f"RUN/submit.sh (sbatch of RUN/eval.sbatch: `sprio` refused, then materialize 8 x 3, collect, profile) "
            f"exit {code}; {got} rollouts, mean reward {mean_reward(run / 'rollouts.jsonl')}.")


# =====================================================================================================
# infra
# =====================================================================================================

NOSYMFOLLOW_NOTE = ("(the eval nodes' /scratch, from the site's security baseline: a file system mounted "
                    "`nosymfollow`; here RUN/scratch, `mount -t tmpfs -o size=4m,nosymfollow tmpfs RUN/scratch`)")
SYMLINK_LINES = [
    "echo '== weekly eval'",
    "# the tasks from the team's shared datasets folder (a link, as on the workstations: no stale copies)",
    "ln -sfn SHARED/capitals/tasks.jsonl scratch/tasks.jsonl",
    "ls -l scratch/",
    "wc -l scratch/tasks.jsonl",
]


@case(
    "infra_gym_scratch_mounted_nosymfollow_so_dataset_link_to_shared_folder_cannot_be_opened",
    "infra",
    ["nosymfollow", "symlink"],
    "the eval node's scratch file system is mounted `nosymfollow` (a security baseline); run_eval.sh links the "
    "tasks from the team's shared datasets folder into scratch/ as it does on the workstations, and the kernel "
    "refuses to follow a symlink on that mount ('Too many levels of symbolic links'): `gym eval run` could not open "
    "its input and reported it as not found, nothing was collected and the profile failed, though the data, servers "
    "and model are fine",
    netns=True,
)
def infra_gym_scratch_mounted_nosymfollow_so_dataset_link_to_shared_folder_cannot_be_opened(ctx: Ctx) -> str:
    run = ctx.run
    shared = ctx.work / "shared" / "datasets"
    write_jsonl(shared / "capitals" / "tasks.jsonl", [question_row(q, a) for q, a in CAPITALS])
    better = truth_checkpoints(ctx, CAPITALS)[1]
    scratch = run / "scratch"
    scratch.mkdir()
    ctx.note(NOSYMFOLLOW_NOTE)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m,nosymfollow", "tmpfs", str(scratch)],
                          capture_output=True, text=True)
    if done.returncode:
        raise failed(ctx, f"mount: {done.stderr}")
    try:
        url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
        overrides = ctx.gym_overrides()
        env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
        lines = [line.replace("SHARED", str(shared)) for line in SYMLINK_LINES]
        code = gym_run(ctx, "scratch/tasks.jsonl", lines, overrides)
        stop_gym(ctx, env_start, policy)
    finally:
        kept = ctx.work / "scratch_kept"
        shutil.copytree(scratch, kept, symlinks=True)
        subprocess.run(["umount", str(scratch)], capture_output=True, check=False)
        shutil.rmtree(scratch, ignore_errors=True)
        shutil.copytree(kept, scratch, symlinks=True)
    log = log_of(ctx, "run_eval.log")
    if gym_rows(ctx) or "Too many levels of symbolic links" not in log:
        raise failed(ctx, f"exit {code}, {len(gym_rows(ctx))}: {log[-800:]}")
    return (f"RUN/scratch mounted nosymfollow, RUN/scratch/tasks.jsonl a link to the shared datasets folder; real NeMo "
            f"Gym 0.7.0 (loopback-only namespace) RUN/run_eval.sh (`gym eval run --no-serve`, `gym eval profile`) exit "
            f"{code}; 'Too many levels of symbolic links' (wc), 'Input file not found' (gym), no rollouts, no profile.")


HOME_NOTE = ("(the user's home on the eval nodes holds their dotfiles, synced from their laptop, Docker Desktop's "
             "~/.docker/config.json among them: `{\"credsStore\": \"desktop\"}`; here HOME=WORK/home)")


def refreshed_text(tasks: Path) -> None:
    path = tasks / "top-word" / "environment" / "text.txt"
    path.write_text(path.read_text() + "The end\n")


@case(
    "infra_taskfolder_dotfiles_synced_from_laptop_name_docker_desktop_credential_store_missing_on_node",
    "infra",
    ["config.json", "credsStore"],
    "the user's dotfiles, synced from their laptop, put Docker Desktop's ~/.docker/config.json on the eval node, with "
    "`\"credsStore\": \"desktop\"`; the Docker client sends its registry credentials with every image build and asks "
    "that store for them, but docker-credential-desktop does not exist on the node: the image of the task whose "
    "environment changed this week (top-word) could not be built, the taskset's collect refused to start with a task "
    "that does not load, and nothing ran, though the Dockerfile, the engine and the model are fine",
)
def infra_taskfolder_dotfiles_synced_from_laptop_name_docker_desktop_credential_store_missing_on_node(
        ctx: Ctx) -> str:
    tasks = user_taskset(ctx, ["top-word", "create-greeting"], refreshed_text)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    home = ctx.work / "home"
    (home / ".docker").mkdir(parents=True)
    (home / ".docker" / "config.json").write_text(json.dumps({"auths": {}, "credsStore": "desktop",
                                                              "currentContext": "desktop-linux"}, indent=2) + "\n")
    ctx.note(HOME_NOTE)
    ctx.env["HOME"] = str(home)
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'", "cat ~/.docker/config.json"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    top = task_rows(ctx, "top-word")
    other = task_rows(ctx, "create-greeting")
    if any(rewards(top)) or not in_log(ctx, "docker-credential-desktop"):
        raise failed(ctx, f"exit {code}, top-word {rewards(top)}, other {rewards(other)}: "
                          f"{log_of(ctx, 'run_tasks.log')[-800:]}")
    return (f"HOME with Docker Desktop's config.json (`credsStore: desktop`); RUN/run_tasks.sh (`gym-pipeline stage` "
            f"materialize, collect, profile of RUN/tasks x 2, top-word's environment changed) exit {code}; the build "
            f"asked docker-credential-desktop, which is missing (RUN/skipped.json); {len(top) + len(other)} rollouts.")


# =====================================================================================================
# model_serving
# =====================================================================================================

SERVE_STEP = """#!/bin/bash
# serve.sh STEP PORT: serve checkpoints/step_NNNN of the training run (the step zero-padded to four digits)
CKPT=TRAIN_DIR/checkpoints/$(printf 'step_%04d' "$1")
echo "serve.sh: serving $CKPT"
exec GP_BIN serve-policy --port $2 --checkpoint "$CKPT" --latency-ms 30
"""


@case(
    "model_serving_builtin_serve_script_pads_step_with_printf_which_reads_zero_padded_step_as_octal",
    "model_serving",
    ["serve.sh", "printf", "step_0200"],
    "serve.sh builds the checkpoint folder with `printf 'step_%04d' \"$1\"`; the user passed the step as the "
    "trainer names it, 0200, and printf reads a number with a leading zero as octal: 0200 became 128, the server was "
    "pointed at checkpoints/step_0128, which does not exist, and never started; collect found nothing listening on "
    "the model port and nothing was collected or profiled",
)
def model_serving_builtin_serve_script_pads_step_with_printf_which_reads_zero_padded_step_as_octal(ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 28)
    train = ctx.work / "training" / "exp21"
    shutil.copytree(weaker, train / "checkpoints" / "step_0100")
    shutil.copytree(better, train / "checkpoints" / "step_0200")
    (run / "serve.sh").write_text(slurm_script(SERVE_STEP, ctx, TRAIN_DIR=str(train)))
    port = free_port()
    url = f"http://127.0.0.1:{port}/v1"
    server = ctx.bg(f"bash {run}/serve.sh 0200 {port}", "logs/model_server.log")
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        pass
    script = builtin_script(ctx, ["echo '== weekly eval of exp21 step_0200'"], "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    server_log = log_of(ctx, "model_server.log")
    if complete(ctx) or "step_0128" not in server_log or server.poll() is None:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {server_log[-600:]}")
    return (f"RUN/serve.sh started as `serve.sh 0200 PORT`: `printf 'step_%04d' 0200` gave step_0128, the server "
            f"exited ({server.returncode}); RUN/run_eval.sh (materialize 8 x 3, collect, profile) exit {code}; no "
            f"rollouts.")


# =====================================================================================================
# config
# =====================================================================================================

EXPORT_HEADER = {"export": {"tool": "labelstudio", "project": "capitals-weekly", "rows": 8, "date": "2026-12-01"}}
TAIL_LINES = [
    "echo '== weekly eval'",
    "# the export's first line is its header record, not a task: drop it",
    "tail -n 2 tasks_export.jsonl > string_match.jsonl",
    "echo \"$(wc -l < string_match.jsonl) tasks\"",
]


@case(
    "config_builtin_run_script_drops_export_header_with_tail_n_2_instead_of_tail_n_plus_2",
    "config",
    ["run_eval.sh", "tail -n +2"],
    "the annotation tool's export starts with a header record, and run_eval.sh drops it with `tail -n 2`, meaning "
    "`tail -n +2` (everything from line 2); `tail -n 2` keeps only the last two lines, so the weekly eval ran 2 of "
    "the 8 tasks: 6 rollouts instead of 24, a profile of 2 tasks, and every command exits 0",
)
def config_builtin_run_script_drops_export_header_with_tail_n_2_instead_of_tail_n_plus_2(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 56)
    (run / "tasks_export.jsonl").write_text(json.dumps(EXPORT_HEADER) + "\n" + data.read_text())
    data.unlink()
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, TAIL_LINES, "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = complete(ctx)
    if code or got != 6 or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {log_of(ctx, 'run_eval.log')[-600:]}")
    return (f"RUN/run_eval.sh (`tail -n 2 tasks_export.jsonl` of a header and 8 tasks, then materialize x 3, collect, "
            f"profile) exit {code}; {got} rollouts instead of 24, mean reward {mean_reward(run / 'rollouts.jsonl')}.")


TEST_ONLY_SBATCH = PLAIN_SBATCH.replace(
    "#SBATCH --ntasks=1\n",
    "#SBATCH --ntasks=1\n# when would it start? (checked while the partition was busy)\n#SBATCH --test-only\n")


@case(
    "config_slurm_eval_sbatch_keeps_test_only_directive_from_a_start_time_check",
    "config",
    ["eval.sbatch", "--test-only"],
    "while the partition was busy the user added `#SBATCH --test-only` to eval.sbatch to see when the job would "
    "start, and left it in; with it sbatch only reports an estimated start time and submits nothing, so the weekly "
    "submit printed the estimate, waited on no job and ended: no job log, no rollouts, no profile, and every command "
    "exits 0",
)
def config_slurm_eval_sbatch_keeps_test_only_directive_from_a_start_time_check(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 42)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(TEST_ONLY_SBATCH, ctx, PIPELINE=pipeline(url)))
    code = submit(ctx, "eval.sbatch")
    if code or complete(ctx) or job_logs(ctx, "eval_*.log") or "to start at" not in log_of(ctx, "submit.log"):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log_of(ctx, 'submit.log')[-600:]}")
    return (f"RUN/eval.sbatch (`#SBATCH --test-only`); RUN/submit.sh (sbatch, wait) exit {code}; sbatch only estimated "
            f"a start time; no job log, no rollouts, no profile.")


SHIFT_SCRIPT = """#!/bin/bash
# run_eval.sh [--smoke] [DATASET]: the weekly eval (DATASET defaults to tasks.jsonl)
cd RUN_DIR
[ "$1" = "--smoke" ] && SMOKE=1; shift
DATA=${1:-tasks.jsonl}
echo "== weekly eval of $DATA"
EVAL_LINE
PROFILE_LINE
"""


@case(
    "config_gym_run_script_shifts_its_arguments_even_without_the_optional_flag_so_dataset_falls_to_default",
    "config",
    ["run_eval.sh", "shift", "--smoke"],
    "run_eval.sh takes an optional --smoke flag with `[ \"$1\" = \"--smoke\" ] && SMOKE=1; shift`; the `shift` runs "
    "whether or not the flag was given, so `bash run_eval.sh tasks_v2.jsonl` lost its dataset argument and DATA fell "
    "to the default tasks.jsonl, last week's file: the real NeMo Gym eval ran on the old labels and the model's right "
    "answers to the three fixed tasks scored 0 (every command exits 0)",
    netns=True,
)
def config_gym_run_script_shifts_its_arguments_even_without_the_optional_flag_so_dataset_falls_to_default(
        ctx: Ctx) -> str:
    run = ctx.run
    better = truth_checkpoints(ctx, [(q, a) for q, a, _ in CAPITALS_WRONG])[1]
    write_jsonl(run / "tasks.jsonl", [question_row(q, wrong or a) for q, a, wrong in CAPITALS_WRONG])
    ctx.note("(this week: the data team's tasks_v2.jsonl with three labels fixed, beside last week's tasks.jsonl)")
    write_jsonl(run / "tasks_v2.jsonl", [question_row(q, a) for q, a, _ in CAPITALS_WRONG])
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    (run / "run_eval.sh").write_text(slurm_script(
        SHIFT_SCRIPT, ctx, EVAL_LINE=gym_eval_line(overrides, "$DATA", "results/rollouts.jsonl", 3, 4),
        PROFILE_LINE=gym_profile_line("results")))
    code = ctx.sh(f"bash {run}/run_eval.sh tasks_v2.jsonl", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    fixed = {wrong: a for _, a, wrong in CAPITALS_WRONG if wrong}
    stale = [r for r in got if r.get("expected_answer") in fixed]
    right = [r for r in stale if str(r.get("extracted_answer")).lower() == fixed[r["expected_answer"]].lower()]
    if code or len(got) != 24 or not right or any(rewards(right)) \
            or "weekly eval of tasks.jsonl" not in log_of(ctx, "run_eval.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, stale {len(stale)}, right {rewards(right)}")
    return (f"`bash RUN/run_eval.sh tasks_v2.jsonl` (`[ \"$1\" = \"--smoke\" ] && SMOKE=1; shift`) evaluated "
            f"tasks.jsonl; real NeMo Gym 0.7.0 (loopback-only namespace) exit {code}; {len(stale)} rollouts on the old "
            f"labels, {len(right)} right answers scored {rewards(right)}; mean reward {mean(rewards(got)):.2f}.")


NOGLOB_LINES = [
    "set -f  # from the team's script template: no globbing (the annotation tool's file names may hold '*' and '?')",
    "echo '== weekly eval'",
    "# this week's tasks come in parts from the annotation tool",
    "cat data/part_*.jsonl > string_match.jsonl",
    "echo \"$(wc -l < string_match.jsonl) tasks\"",
]


@case(
    "config_builtin_run_script_template_turns_globbing_off_with_set_f_so_dataset_parts_are_never_joined",
    "config",
    ["run_eval.sh", "set -f", "part_*"],
    "run_eval.sh starts with `set -f` from the team's script template (no globbing, for odd file names), and then "
    "joins the week's dataset parts with `cat data/part_*.jsonl`; with globbing off the pattern stays a literal file "
    "name that does not exist, cat fails and string_match.jsonl is empty; materialize, collect and profile then ran "
    "on 0 tasks and exited 0 (an empty profile, 0 of 0 rollouts), though the dataset parts, the model server and the "
    "engine are fine",
)
def config_builtin_run_script_template_turns_globbing_off_with_set_f_so_dataset_parts_are_never_joined(
        ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 20)
    lines = data.read_text().splitlines(keepends=True)
    (run / "data").mkdir()
    (run / "data" / "part_00.jsonl").write_text("".join(lines[:4]))
    (run / "data" / "part_01.jsonl").write_text("".join(lines[4:]))
    data.unlink()
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, NOGLOB_LINES, "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) or "part_*.jsonl" not in log or "No such file" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-800:]}")
    return (f"RUN/run_eval.sh (`set -f`, then `cat data/part_*.jsonl > string_match.jsonl`, materialize x 3, collect, "
            f"profile) exit {code}; cat found no file 'data/part_*.jsonl', 0 tasks materialized, no rollouts, profile "
            f"written: {(run / 'rollouts_reward_profiling.jsonl').exists()}.")


# =====================================================================================================
# data_schema
# =====================================================================================================


def tab_separated_text(tasks: Path) -> None:
    path = tasks / "top-word" / "environment" / "text.txt"
    path.write_text("".join(f"{number}\t" + "\t".join(line.split(" ")) + "\n"
                            for number, line in enumerate(path.read_text().splitlines(), 1)))


@case(
    "data_schema_taskfolder_text_txt_regenerated_by_corpus_tool_with_tabs_between_words",
    "data_schema",
    ["text.txt", "tab"],
    "top-word's environment/text.txt was regenerated by the data team's corpus tool, which writes its token format: "
    "a sentence number, then the sentence's words, all separated by tabs; the task's instruction (and the agent's "
    "`tr -s ' ' '\\n'`) splits words on spaces and newlines only, so each whole line counted as one word and the "
    "agent's answer was never 'the': every episode of that task scored 0 while the other task scored normally "
    "(every command exits 0)",
)
def data_schema_taskfolder_text_txt_regenerated_by_corpus_tool_with_tabs_between_words(ctx: Ctx) -> str:
    tasks = user_taskset(ctx, ["top-word", "create-greeting"], tab_separated_text)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'",
                                                          "head -n 1 tasks/top-word/environment/text.txt | od -c"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    top = task_rows(ctx, "top-word")
    solved = [r for r in top if "uniq -c" in json.dumps(r)]
    other = task_rows(ctx, "create-greeting")
    if code or len(top) != 2 or not solved or any(rewards(top)) or not any(rewards(other)):
        raise failed(ctx, f"exit {code}, top-word {rewards(top)}, other {rewards(other)}")
    return (f"RUN/tasks/top-word/environment/text.txt with sentence numbers and tabs between words; RUN/run_tasks.sh (`gym-pipeline stage` "
            f"materialize, collect, profile of RUN/tasks x 2) exit {code}; top-word rewards {rewards(top)} "
            f"({len(solved)} episodes ran the task's word count), create-greeting rewards {rewards(other)}.")


TAGGED = {"What is the capital of Italy?", "What is the capital of Canada?", "What is the capital of Kenya?"}


@case(
    "data_schema_gym_new_export_writes_row_metadata_as_list_of_review_tags",
    "data_schema",
    ["metadata", "dict"],
    "the new review tool's export writes each reviewed row's `metadata` as a list of tags ([\"wiki\", \"reviewed\"]) "
    "where the string_match resources server expects a mapping (or nothing); Gym refused those three tasks' requests "
    "as invalid, so their rollouts were never collected, and the strict profile failed on the missing rollouts",
    netns=True,
)
def data_schema_gym_new_export_writes_row_metadata_as_list_of_review_tags(ctx: Ctx) -> str:
    run = ctx.run
    rows = []
    for q, a in CAPITALS:
        row = question_row(q, a)
        row["metadata"] = ["wiki", "reviewed"] if q in TAGGED else {"source": "wiki"}
        rows.append(row)
    write_jsonl(run / "tasks.jsonl", rows)
    better = truth_checkpoints(ctx, CAPITALS)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["echo '== weekly eval'"], overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    tagged = [r for r in got if isinstance(r.get("metadata"), list)]
    failures = rows_of(run / "results" / "rollouts_failures.jsonl")
    if tagged or not got or len(got) >= 24 or not failures \
            or (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)}, tagged {len(tagged)}, {len(failures)} failures")
    return (f"RUN/tasks.jsonl (3 of 8 rows with `metadata` as a list); real NeMo Gym 0.7.0 (loopback-only namespace) "
            f"RUN/run_eval.sh exit {code}; {len(got)} of 24 rollouts, {len(failures)} failed attempts, no profile.")


SOFT_PAIRS = [("What is the capital of Australia?", "Canberra"), ("What is the capital of Mongolia?", "Ulaanbaatar"),
              ("What is the capital of Venezuela?", "Caracas"), ("What is the capital of France?", "Paris"),
              ("What is the capital of Japan?", "Tokyo"), ("What is 6 times 7?", "42"),
              ("Which planet is known as the Red Planet?", "Mars"), ("What is the capital of Peru?", "Lima")]
HYPHENATED = {"Canberra": "Can\u00adberra", "Ulaanbaatar": "Ulaan\u00adbaa\u00adtar", "Caracas": "Cara\u00adcas"}


@case(
    "data_schema_builtin_labels_copied_from_hyphenated_web_page_carry_invisible_soft_hyphens",
    "data_schema",
    ["expected_answer", "soft hyphen", "string_match.jsonl"],
    "three labels were copied from an online encyclopedia's country pages, whose text carries soft hyphens (U+00AD, "
    "invisible break hints: 'Can\\u00adberra'); the labels look right in every editor, but no normalisation removes the "
    "soft hyphen, so the model's right answers to those tasks never matched and scored 0 while the other tasks "
    "scored normally (every command exits 0)",
)
def data_schema_builtin_labels_copied_from_hyphenated_web_page_carry_invisible_soft_hyphens(ctx: Ctx) -> str:
    run = ctx.run
    better = truth_checkpoints(ctx, SOFT_PAIRS)[1]
    write_jsonl(run / "string_match.jsonl", [question_row(q, HYPHENATED.get(a, a)) for q, a in SOFT_PAIRS])
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["echo '== weekly eval'", "echo \"$(wc -l < string_match.jsonl) tasks\""],
                            "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    soft = [r for r in got if "\u00ad" in r.get("expected_answer", "")]
    right = [r for r in soft if str(r.get("extracted_answer")).lower() == r["expected_answer"].replace("\u00ad", "").lower()]
    plain = [r for r in got if r not in soft]
    if code or len(got) != 24 or not right or any(rewards(right)) or not any(rewards(plain)):
        raise failed(ctx, f"exit {code}, {len(got)}, right {rewards(right)}, plain {rewards(plain)}")
    return (f"RUN/string_match.jsonl (3 of 8 labels with soft hyphens); RUN/run_eval.sh (materialize 8 x 3, collect, "
            f"profile) exit {code}; {len(right)} right answers to those tasks scored {rewards(right)}, other tasks "
            f"{rewards(plain)}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

OFFSET_VERIFIER = '''"""my_verifier.py: the answer after the prompt's 'Final answer:' marker, compared with the label."""
MARKER = "Final answer:"


def score(row, response_text):
    at = response_text.lower().rfind("answer:")  # models write 'Final answer:', 'Final Answer:' or 'Answer:'
    answer = response_text[at + len(MARKER):].strip().rstrip(".") if at >= 0 else None
    reward = 1.0 if answer is not None and answer.lower() == str(row["expected_answer"]).strip().lower() else 0.0
    return {"reward": reward, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
'''


@case(
    "verifier_runtime_stage_workspace_verifier_finds_short_marker_but_skips_length_of_long_marker",
    "verifier_runtime",
    ["my_verifier.py", "rfind", "len("],
    "the workspace verifier my_verifier.py finds the answer with `rfind('answer:')` (to accept 'Answer:' too) but "
    "then skips `len('Final answer:')` characters from there, six more than it found: the first six characters of "
    "every answer were cut off ('New Delhi' became 'elhi', 'Paris' became ''), so every answer, right or wrong, "
    "scored 0 without any error (every command exits 0)",
)
def verifier_runtime_stage_workspace_verifier_finds_short_marker_but_skips_length_of_long_marker(ctx: Ctx) -> str:
    run = ctx.run
    data = write_jsonl(run / "capitals.jsonl", [question_row(q, a) for q, a in MULTIWORD])
    better = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    sweep = workspace_sweep(ctx, "capitals", data, better, {"verifier": "my_verifier:score"}, OFFSET_VERIFIER,
                            num_repeats=3, concurrency=4)
    script = workspace_script(ctx, sweep, better, "capitals", url, ["echo '== weekly eval'"])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    said = [r for r in got if said_right(r)]
    if code or len(got) != 24 or not said or any(rewards(got)):
        raise failed(ctx, f"exit {code}, {len(got)}, said {len(said)}, {rewards(got)}")
    return (f"RUN/verifiers/my_verifier.py (`rfind('answer:')` + `len('Final answer:')`); RUN/run_eval.sh (stages "
            f"materialize 8 x 3, collect, profile) exit {code}; {len(said)} replies with the right answer, every reward "
            f"{sorted(set(rewards(got)))}.")


COPY_CHECK_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)
            if reward and _echoed(extracted):
                reward = 0.0  # an answer another agent of the debate already gave is not credited

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )


def _echoed(answer: str, seen: set = set()) -> bool:
    """Whether this answer was already given in the same debate (the debate harness passes each debate's own set)."""
    key = " ".join(answer.split()).lower()
    if key in seen:
        return True
    seen.add(key)
    return False
'''


@case(
    "verifier_runtime_gym_own_verify_copy_check_keeps_seen_replies_in_mutable_default_set_across_requests",
    "verifier_runtime",
    ["app.py", "seen", "set()"],
    "the user's resources server (copied from Gym's string_match for a debate eval) refuses credit to an answer "
    "another agent already gave, with a helper `_echoed(answer, seen=set())` whose set the debate harness passes per "
    "debate; the plain eval passes none, so the default set, created once, collected every answer of the whole run: "
    "after the first right answer to a task, every repeat that gave the same right answer scored 0 (every command "
    "exits 0)",
    netns=True,
)
def verifier_runtime_gym_own_verify_copy_check_keeps_seen_replies_in_mutable_default_set_across_requests(
        ctx: Ctx) -> str:
    run = ctx.run
    better = truth_checkpoints(ctx, CAPITALS)[1]
    data = write_jsonl(run / "capitals.jsonl", [question_row(q, a) for q, a in CAPITALS])
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    ran, prof, env_start = gym_eval_with_own_server(ctx, "debate_match", COPY_CHECK_VERIFY, data, url, overrides,
                                                    repeats=4)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    right = [r for r in got if str(r.get("extracted_answer", "")).lower() == r["expected_answer"].lower()]
    zeroed = [r for r in right if not r.get("reward")]
    credited_per_task = {}
    for r in right:
        credited_per_task[r["_ng_task_index"]] = credited_per_task.get(r["_ng_task_index"], 0) + bool(r.get("reward"))
    if ran or prof or len(got) != 32 or not zeroed or max(credited_per_task.values(), default=0) > 1:
        raise failed(ctx, f"eval {ran}, profile {prof}, {len(got)}, right {len(right)}, zeroed {len(zeroed)}, "
                          f"{credited_per_task}")
    return (f"RUN/my_gym/resources_servers/debate_match/app.py (`_echoed(answer, seen=set())`); real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) `gym eval run --no-serve` 8 x 4 exit {ran}, `gym eval profile` exit {prof}; "
            f"{len(right)} right answers, {len(zeroed)} of them scored 0; mean reward {mean(rewards(got)):.2f}.")


def python_in_test(tasks: Path) -> None:
    path = tasks / "json-version" / "tests" / "test.sh"
    path.write_text(path.read_text().replace(
        'if test "$(tr -d "[:space:]" < /app/version.txt 2>/dev/null)" = "2.7.1"; then',
        "if test \"$(python -c 'print(open(\"/app/version.txt\").read().strip())')\" = \"2.7.1\"; then"))


@case(
    "verifier_runtime_taskfolder_test_sh_rewritten_on_workstation_calls_python_which_the_image_lacks",
    "verifier_runtime",
    ["test.sh", "python3"],
    "json-version's tests/test.sh was rewritten on a workstation where `python` is Python 3, to read version.txt "
    "with `python -c`; the task's Debian image has only python3, so in the sandbox the check printed 'python: "
    "command not found', compared an empty string and wrote reward 0: every episode of that task scored 0, those in "
    "which the agent wrote the right version too, while the other task scored normally (every command exits 0)",
)
def verifier_runtime_taskfolder_test_sh_rewritten_on_workstation_calls_python_which_the_image_lacks(ctx: Ctx) -> str:
    tasks = user_taskset(ctx, ["json-version", "create-greeting"], python_in_test)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    version = task_rows(ctx, "json-version")
    solved = [r for r in version if "json.load" in json.dumps(r)]
    other = task_rows(ctx, "create-greeting")
    if code or len(version) != 2 or not solved or any(rewards(version)) or not any(rewards(other)) \
            or not in_log(ctx, "python: command not found"):
        raise failed(ctx, f"exit {code}, json-version {rewards(version)}, other {rewards(other)}")
    return (f"RUN/tasks/json-version/tests/test.sh (`python -c`, image has python3 only); RUN/run_tasks.sh "
            f"(`gym-pipeline stage` materialize, collect, profile of RUN/tasks x 2) exit {code}; json-version rewards "
            f"{rewards(version)} ({len(solved)} episodes ran the right command), create-greeting rewards "
            f"{rewards(other)}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

GRADING_SOURCE = '''"""team_grading: the team's shared answer grading."""
import re

__version__ = "VERSION"
FINAL = re.compile(r"final answer:\\s*PATTERN", re.IGNORECASE)


def extract(text):
    found = FINAL.findall(text)
    return found[-1].strip().rstrip(".") if found else None


def same(answer, label):
    return answer is not None and answer.strip().lower() == str(label).strip().lower()
'''

VENDOR_VERIFIER = '''"""my_verifier.py: graded with the team's shared team_grading package (run_eval.sh installs it into vendor/)."""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "vendor"))
from team_grading import extract, same  # noqa: E402


def score(row, response_text):
    answer = extract(response_text)
    reward = 1.0 if same(answer, row["expected_answer"]) else 0.0
    return {"reward": reward, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
'''


def wheel(folder: Path, version: str, pattern: str) -> Path:
    """The team's team_grading wheel (what its release job publishes to the team's wheel folder)."""
    files = {
        "team_grading/__init__.py": GRADING_SOURCE.replace("VERSION", version).replace("PATTERN", pattern),
        f"team_grading-{version}.dist-info/METADATA": f"Metadata-Version: 2.1\nName: team-grading\nVersion: {version}\n"
                                                      "Summary: the team's shared answer grading\n",
        f"team_grading-{version}.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: team-release\nRoot-Is-Purelib: "
                                                   "true\nTag: py3-none-any\n",
    }
    record = []
    for name, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(text.encode())}")
    record.append(f"team_grading-{version}.dist-info/RECORD,,")
    files[f"team_grading-{version}.dist-info/RECORD"] = "\n".join(record) + "\n"
    path = folder / f"team_grading-{version}-py3-none-any.whl"
    folder.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return path


@case(
    "cache_resume_stage_pip_install_target_into_existing_vendor_folder_keeps_last_weeks_grading_package",
    "cache_resume",
    ["pip install", "--upgrade", "vendor"],
    "run_eval.sh installs the team's grading package into vendor/ with `pip install --target vendor` before every "
    "eval; this week's team_grading 1.0.1 fixes extract(), which kept only the first word of an answer, but vendor/ "
    "still held last week's 1.0.0, and pip --target does not replace a package folder that exists without --upgrade "
    "(it only warns 'Target directory ... already exists'): the verifier graded with the old code and the model's "
    "right multi-word answers scored 0 (every command exits 0)",
)
def cache_resume_stage_pip_install_target_into_existing_vendor_folder_keeps_last_weeks_grading_package(
        ctx: Ctx) -> str:
    run = ctx.run
    data = write_jsonl(run / "capitals.jsonl", [question_row(q, a) for q, a in MULTIWORD])
    better = checkpoints(ctx, "string_match", data)[1]
    old = wheel(run / "wheels", "1.0.0", "(\\w+)")
    new = wheel(run / "wheels", "1.0.1", r"(.+)")
    ctx.note("(last week: team_grading 1.0.0 installed into RUN/vendor)")
    ctx.sh(f"{PY} -m pip install --no-index --target vendor {old}", "logs/last_week_install.log", cwd=run)
    ctx.note("(this week: the team released team_grading 1.0.1, 'extract() keeps the whole answer, not its first "
             "word')")
    url, _ = ctx.policy(better, "--latency-ms 20")
    sweep = workspace_sweep(ctx, "capitals", data, better, {"verifier": "my_verifier:score"}, VENDOR_VERIFIER,
                            num_repeats=3, concurrency=4)
    script = workspace_script(ctx, sweep, better, "capitals", url, [
        "echo '== weekly eval'", f"{PY} -m pip install --no-index --target vendor wheels/{new.name}",
        f"{PY} -c 'import sys; sys.path.insert(0, \"vendor\"); import team_grading; "
        "print(\"team_grading\", team_grading.__version__)'"])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    multi = [r for r in got if " " in r["expected_answer"] and said_right(r)]
    plain = [r for r in got if " " not in r["expected_answer"]]
    installed = text_of(run / "vendor" / "team_grading" / "__init__.py")
    if code or len(got) != 24 or not multi or any(rewards(multi)) or not any(rewards(plain)) \
            or '"1.0.0"' not in installed or "already exists" not in log_of(ctx, "run_eval.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, multi {rewards(multi)}, plain {rewards(plain)}, "
                          f"{installed[:120]}: {log_of(ctx, 'run_eval.log')[-500:]}")
    return (f"RUN/vendor held team_grading 1.0.0; RUN/run_eval.sh (`pip install --target vendor` of 1.0.1: 'already "
            f"exists', then stages materialize 8 x 3, collect, profile) exit {code}; {len(multi)} right multi-word "
            f"answers scored {rewards(multi)}, one-word tasks {rewards(plain)}.")


SBCAST_SBATCH = """#!/bin/bash
#SBATCH --job-name=sm-weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
cd RUN_DIR
echo "weekly eval on $(hostname), job $SLURM_JOB_ID"
# stage the tasks on the node's local disk (the shared file system is slow while training jobs checkpoint)
LOCAL=NODE_LOCAL/sm-weekly-eval
mkdir -p $LOCAL
sbcast tasks.jsonl $LOCAL/tasks.jsonl
PIPELINE"""


@case(
    "cache_resume_slurm_job_stages_tasks_with_sbcast_which_will_not_replace_last_weeks_node_local_copy",
    "cache_resume",
    ["sbcast", "--force"],
    "eval.sbatch stages tasks.jsonl on the node's local disk with `sbcast tasks.jsonl $LOCAL/tasks.jsonl` and reads "
    "it from there; last week's job left its copy at that path, and sbcast without --force refuses to replace an "
    "existing file ('File exists'), the job went on with last week's copy: the three labels fixed this week were not "
    "used and the model's right answers to them scored 0 against the old labels",
)
def cache_resume_slurm_job_stages_tasks_with_sbcast_which_will_not_replace_last_weeks_node_local_copy(
        ctx: Ctx) -> str:
    run = ctx.run
    better = truth_checkpoints(ctx, [(q, a) for q, a, _ in CAPITALS_WRONG])[1]
    local = ctx.work / "node_local"
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(SBCAST_SBATCH, ctx, NODE_LOCAL=str(local),
                                                  PIPELINE=pipeline(url, data="$LOCAL/tasks.jsonl")))
    ctx.note("(last week: the same job, on last week's tasks)")
    write_jsonl(run / "tasks.jsonl", [question_row(q, wrong or a) for q, a, wrong in CAPITALS_WRONG])
    submit(ctx, "eval.sbatch")
    last_week = run / "last_week"
    last_week.mkdir()
    for path in run.glob("rollouts*"):
        path.rename(last_week / path.name)
    ctx.note("(last week's results moved to RUN/last_week; this week: the data team fixed three labels)")
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a, _ in CAPITALS_WRONG])
    code = submit(ctx, "eval.sbatch")
    got = rows_of(run / "rollouts.jsonl")
    fixed = {wrong: a for _, a, wrong in CAPITALS_WRONG if wrong}
    stale = [r for r in got if r.get("expected_answer") in fixed]
    right = [r for r in stale if str(r.get("extracted_answer")).lower() == fixed[r["expected_answer"]].lower()]
    job = job_logs(ctx, "eval_*.log")
    if code or len(got) != 24 or not right or any(rewards(right)) or "File exists" not in job:
        raise failed(ctx, f"exit {code}, {len(got)}, stale {len(stale)}, right {rewards(right)}: {job[-600:]}")
    return (f"RUN/eval.sbatch (`sbcast tasks.jsonl $LOCAL/tasks.jsonl`, last week's copy there: 'File exists'); "
            f"RUN/submit.sh exit {code}; {len(stale)} rollouts on the old labels, {len(right)} right answers scored "
            f"{rewards(right)}; mean reward {mean(rewards(got)):.2f}.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

PER_SHARD_SBATCH = """#!/bin/bash
#SBATCH --job-name=sm-weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=1
#SBATCH --ntasks=1
cd RUN_DIR
echo "weekly eval on $(hostname), job $SLURM_JOB_ID, started $(date +%T)"
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
rm -rf shards && mkdir shards && split -n l/4 -d rollouts_materialized_inputs.jsonl shards/part_
for shard in shards/part_0?; do
  # a fresh model server for every shard, so a crash in one shard cannot spoil the next (from the vLLM runbook)
  GP_BIN serve-policy --port 0 --ready-file $shard.url --checkpoint CKPT --latency-ms 30 --slow-start-s 25 > logs/server_$(basename $shard).log 2>&1 &
  SERVER=$!; echo $SERVER > $shard.pid
  until [ -s $shard.url ] && curl -sf $(cat $shard.url)/models > /dev/null; do sleep 1; done
  echo "$(date +%T) model server up for $shard"
  GP_BIN collect --inputs $shard --output $shard.rollouts.jsonl --model-url $(cat $shard.url) --env string_match --concurrency 4
  kill $SERVER; wait $SERVER
done
cat shards/part_0?.rollouts.jsonl > rollouts.jsonl
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "throughput_slurm_one_minute_job_starts_a_fresh_slow_loading_model_server_for_every_shard",
    "throughput_resources",
    ["eval.sbatch", "serve-policy", "shard"],
    "the user's one-minute eval.sbatch starts a fresh model server for each of its 4 shards (a runbook habit, so a "
    "crash in one shard cannot spoil the next) and waits each time for it to load, 25 s; the loads alone need more "
    "than the job's time limit, so Slurm killed the job (TIME LIMIT) during the later shards: rollouts missing and no "
    "profile, though each shard's collect took only a few seconds",
)
def throughput_slurm_one_minute_job_starts_a_fresh_slow_loading_model_server_for_every_shard(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 66)
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(PER_SHARD_SBATCH, ctx, CKPT=str(better)))
    try:
        code = submit(ctx, "eval.sbatch", timeout=600)
    finally:
        for pid_file in (run / "shards").glob("*.pid"):  # a server the killed job left behind
            subprocess.run(["kill", text_of(pid_file).strip()], capture_output=True, check=False)
    job = job_logs(ctx, "eval_*.log")
    done = sum(len(rows_of(p)) for p in (run / "shards").glob("*.rollouts.jsonl"))
    if done >= 24 or (run / "rollouts_reward_profiling.jsonl").exists() or job.count("model server up") < 2 \
            or "TIME LIMIT" not in job.upper():
        raise failed(ctx, f"exit {code}, {done}: {job[-800:]}")
    return (f"RUN/eval.sbatch (`--time=1`, materialize 8 x 3 in 4 shards, a fresh model server with a 25 s load per "
            f"shard); RUN/submit.sh exit {code}; {job.count('model server up')} servers came up, the job hit its time "
            f"limit, {done} of 24 rollouts, no profile.")


if __name__ == "__main__":
    sys.exit(main("forty_sixth_held_out", __file__, __doc__))
