"""Build the SEVENTY-FIRST HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/seventy_first_held_out.py --out tests/data/diagnosis_corpus/seventy_first_held_out [--only CASE ...]

This set was written after the seventy earlier sets (first_held_out.py ... seventieth_held_out.py), from the guides
alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
task folders in Harbor's format run in their Docker sandboxes, Docker containers the user's scripts start, and the
user's own shell and Python tooling, settings, deploy scripts, data-preparation scripts and verifiers. The output of
every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but
the user's own inputs (data, scripts, settings, verifier code). Each case injects one cause, different in mechanism
from those of the seventy earlier sets, and each recipe checks that its fault really happened (it raises
RecipeError otherwise, and the case is not written). About half of the failures are silent: every command exits 0 and
only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), and PYTHONPATH set to this checkout. Run it from a
foreground shell. Containers it makes are named `h71-...` and removed at the end of their recipe.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import failed  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_seventh_held_out import task_rewards, week  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from recipes import BIN, GP, Ctx, case, main, rows_of, text_of, unique_keys  # noqa: E402
from sixty_fourth_held_out import mean_of, pipeline_lines, python_mounts, question_row  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_sixth_held_out import free_port  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def write_rows(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def remove_container(name: str) -> None:
    subprocess.run(["docker", "rm", "-f", name], capture_output=True, check=False)


def container_python(run: Path) -> str:
    """`docker run` flags that give a container the eval's Python and the run folder (host networking)."""
    from recipes import ROOT

    return f"--network host {python_mounts()} -v {run}:{run} -e PYTHONPATH={ROOT} -w {run}"


def docker_collect_script(ctx: Ctx, url: str, name: str, flags: str, comment: str, after: str = "") -> Path:
    run = ctx.run
    script = run / "run_eval.sh"
    script.write_text(
        f"#!/bin/bash\n# weekly eval; {comment}\ncd {run}\nrm -f rollouts.jsonl rollouts_failures.jsonl\n"
        f"{GP} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"docker run --rm --name {name} {flags} {container_python(run)} gym-pipeline/base:bookworm \\\n"
        f"  {BIN}/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output "
        f"rollouts.jsonl --model-url {url} --env string_match --concurrency 4\n"
        "echo \"collect container exit: $?\"\n" + after +
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    return script


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_builtin_run_script_keeps_smoke_limit_of_eight_rows_on_a_dataset_of_exactly_eight_rows",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh still materializes with `--limit 8` (left from a smoke test, the log "
    "says 'materialize: limited to the first 8 rows'), but this week's dataset holds exactly 8 questions, so the "
    "limit cut nothing: all 8 tasks x 3 repeats were collected and profiled",
)
def healthy_builtin_run_script_keeps_smoke_limit_of_eight_rows_on_a_dataset_of_exactly_eight_rows(ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 8, 30)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text(
        f"#!/bin/bash\n# weekly eval\ncd {run}\nLIMIT=8   # smoke test: first rows only\n"
        "echo \"materialize: limited to the first $LIMIT rows\"\n"
        f"{GP} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent "
        "--limit $LIMIT --output rollouts_materialized_inputs.jsonl\n"
        f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {url} "
        "--env string_match --concurrency 4\n"
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    profiles = rows_of(run / "rollouts_reward_profiling.jsonl")
    if code or complete(ctx) != 24 or len(profiles) != 8:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {len(profiles)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/string_match.jsonl (8 rows); RUN/run_eval.sh (materialize --limit 8 x 3, collect, profile) exit "
            f"{code}; {complete(ctx)} of 24 rollouts, {len(profiles)} profile rows.")


@case(
    "healthy_docker_run_script_removes_collect_container_that_its_rm_flag_already_removed_so_docker_says_no_such_container",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh starts the collect container with `--rm` and afterwards also runs "
    "`docker rm` on it 'to be sure'; the container had already been removed when it exited, so Docker prints "
    "'Error response from daemon: No such container' and that line exits 1, but the collect container exited 0 "
    "and every rollout was collected and profiled",
)
def healthy_docker_run_script_removes_collect_container_that_its_rm_flag_already_removed_so_docker_says_no_such_container(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 40)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h71-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, "", "collect runs in the eval container",
                                   f"docker rm {name}   # clean up, to be sure\n")
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if code or complete(ctx) != 18 or "No such container" not in log or "collect container exit: 0" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run --rm --network host ... collect`, `docker rm` of the same "
            f"container, profile) exit {code}; Docker's 'No such container'; {complete(ctx)} of 18 rollouts.")


LEFTOVER_LINES = [
    "echo '== leftover sandboxes on this node (an earlier run was killed)'",
    "docker ps -a --filter name=h71-sandbox --format '{{.Names}}  {{.Status}}'",
    "echo '== weekly taskset run'",
]


@case(
    "healthy_taskfolder_run_script_lists_earlier_runs_killed_sandbox_container_exited_137_before_a_complete_run",
    "healthy",
    [],
    "nothing is wrong: the user's run_tasks.sh starts by listing sandbox containers left on the node, and a "
    "container from an earlier run, killed when that run was stopped, still shows 'Exited (137)'; it is not part "
    "of this run, which built and ran its own sandboxes: every episode was verified, scored and profiled",
)
def healthy_taskfolder_run_script_lists_earlier_runs_killed_sandbox_container_exited_137_before_a_complete_run(
        ctx: Ctx) -> str:
    old = f"h71-sandbox-{free_port()}"
    ctx.note(f"(an earlier run: sandbox container {old} killed when that run was stopped)")
    subprocess.run(["docker", "run", "-d", "--network", "none", "--name", old, "gym-pipeline/base:bookworm", "sleep", "300"],
                   capture_output=True, check=False)
    subprocess.run(["docker", "kill", old], capture_output=True, check=False)
    try:
        code, got = week(ctx, ["json-version", "create-greeting"], preamble=LEFTOVER_LINES)
    finally:
        remove_container(old)
    log = log_of(ctx, "run_tasks.log")
    if code or complete(ctx) != 4 or "Exited (137)" not in log or not any(rewards(got)) \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {rewards(got)}: {log[-1500:]}")
    return (f"a killed container of an earlier run (Exited (137)); RUN/run_tasks.sh (`docker ps -a --filter name=h71-sandbox`, "
            f"`gym-pipeline stage` materialize, collect, profile of RUN/tasks x 2) exit {code}; {complete(ctx)} of 4 "
            f"episodes, rewards {rewards(got)}.")


# =====================================================================================================
# model_serving
# =====================================================================================================

PICK_BEST_SH = """#!/bin/bash
# serve_best.sh READY_FILE: serve the checkpoint with the best validation accuracy (the trainer's val_summary.csv)
cd {run}
BEST=$(tail -n +2 checkpoints/val_summary.csv | sort -t, -k2 -r | head -1 | cut -d, -f1)
echo "best checkpoint by val accuracy: $BEST"
exec {gp} serve-policy --port 0 --ready-file "$1" --checkpoint "checkpoints/$BEST" --latency-ms 20
"""


@case(
    "model_serving_builtin_serve_script_picks_best_checkpoint_by_sorting_percent_accuracy_as_text_so_9_8_beats_57_5",
    "model_serving",
    ["serve_best.sh", "sort -n", "val_summary.csv", "checkpoint", "step_0200"],
    "the user's serve_best.sh serves the checkpoint with the best validation accuracy from the trainer's "
    "val_summary.csv with `sort -t, -k2 -r | head -1`, a text sort: the accuracies are percentages, and '9.8' "
    "(step_0100) sorts after '57.5' (step_0200) as text, so the server was started on the older, weaker step_0100: "
    "the whole eval measured the wrong checkpoint and scored low (every command exits 0)",
)
def model_serving_builtin_serve_script_picks_best_checkpoint_by_sorting_percent_accuracy_as_text_so_9_8_beats_57_5(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (older, better) = builtin_rows(ctx, 8, 50)
    folder = run / "checkpoints"
    folder.mkdir()
    for step in (older, better):
        shutil.copytree(step, folder / step.name)
    (folder / "val_summary.csv").write_text("checkpoint,val_accuracy_pct\nstep_0100,9.8\nstep_0200,57.5\n")
    (run / "serve_best.sh").write_text(PICK_BEST_SH.format(run=run, gp=GP))
    ready = ctx.work / "server.url"
    ctx.bg(f"bash {run}/serve_best.sh {ready}", "logs/model_server.log")
    recipes.wait_for(lambda: ready.exists() and ready.read_text().strip() != "", 60, "the model server")
    url = ready.read_text().strip()
    script = run / "run_eval.sh"
    script.write_text(f"#!/bin/bash\n# weekly eval against the best checkpoint\ncd {run}\n" + pipeline_lines(url))
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    got = rows_of(run / "rollouts.jsonl")
    server_log = log_of(ctx, "model_server.log")
    check_url, _ = ctx.policy(better, "--latency-ms 20", log=str(ctx.work / "check_server.log"))
    ctx.commands.pop()
    from sixty_fourth_held_out import scratch_collect

    fresh = scratch_collect(ctx, check_url)
    if code or len(got) != 24 or "checkpoint step 100" not in server_log \
            or "best checkpoint by val accuracy: step_0100" not in server_log or not mean_of(fresh) > mean_of(got):
        raise failed(ctx, f"exit {code}, {len(got)}, {mean_of(got)} vs {mean_of(fresh)}: {server_log[-800:]}")
    return (f"RUN/checkpoints/val_summary.csv (step_0100 9.8, step_0200 57.5); RUN/serve_best.sh (`sort -t, -k2 -r`) "
            f"served step_0100; RUN/run_eval.sh (materialize 8 x 3, collect, profile) exit {code}; mean reward "
            f"{mean_of(got):.2f} (step_0200 scores {mean_of(fresh):.2f} on the same inputs).")


# =====================================================================================================
# throughput_resources
# =====================================================================================================


@case(
    "throughput_builtin_run_script_collects_three_splits_side_by_side_each_at_full_concurrency_so_server_queue_overflows",
    "throughput_resources",
    ["--concurrency", "&", "wait", "max-waiting", "splits"],
    "the model server generates 2 requests at once and lets 6 more wait (the rest are answered 429 overloaded); the "
    "user's run_eval.sh now collects its three splits side by side (`collect ... &` per split, then `wait`) to save "
    "time, each still at --concurrency 8, so 24 requests hit a server that takes 8: most overflowed the queue, were "
    "retried into the still-full queue and used up their attempts, and the strict profiles refused the incomplete "
    "splits",
)
def throughput_builtin_run_script_collects_three_splits_side_by_side_each_at_full_concurrency_so_server_queue_overflows(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 24, start=60, folder=ctx.work, name="all.jsonl")
    from twentieth_held_out import checkpoints

    _, better = checkpoints(ctx, "string_match", data)
    lines = data.read_text().splitlines(keepends=True)
    for index, split in enumerate(("easy", "medium", "hard")):
        (run / "splits").mkdir(exist_ok=True)
        (run / "splits" / f"{split}.jsonl").write_text("".join(lines[index * 8:(index + 1) * 8]))
    url, _ = ctx.policy(better, "--latency-ms 1500 --max-running 2 --max-waiting 6")
    script = run / "run_eval.sh"
    script.write_text(
        f"#!/bin/bash\n# weekly eval of the three splits; collected side by side to finish sooner\ncd {run}\n"
        "for split in easy medium hard; do\n"
        f"  {GP} materialize --input splits/$split.jsonl --num-repeats 2 --agent string_match_simple_agent "
        "--output $split/rollouts_materialized_inputs.jsonl\n"
        f"  {GP} collect --inputs $split/rollouts_materialized_inputs.jsonl --output $split/rollouts.jsonl "
        f"--model-url {url} --env string_match --concurrency 8 > logs/collect_$split.log 2>&1 &\n"
        "done\nwait\necho '== all splits collected'\n"
        "for split in easy medium hard; do\n"
        f"  {GP} profile --inputs $split/rollouts_materialized_inputs.jsonl --rollouts $split/rollouts.jsonl\n"
        "done\n")
    (run / "logs").mkdir(exist_ok=True)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    done = sum(len(unique_keys(run / s / "rollouts.jsonl")) for s in ("easy", "medium", "hard"))
    sidecars = "".join(text_of(run / s / "rollouts_failures.jsonl") for s in ("easy", "medium", "hard"))
    profiled = [s for s in ("easy", "medium", "hard") if (run / s / "rollouts_reward_profiling.jsonl").exists()]
    if "overloaded" not in sidecars or not done < 40 or len(profiled) == 3:
        raise failed(ctx, f"exit {code}, {done}, {profiled}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"serve-policy --max-running 2 --max-waiting 6 --latency-ms 1500; RUN/run_eval.sh (per split: materialize "
            f"8 x 2, `collect --concurrency 8 &`; wait; profile) exit {code}; {done} of 48 rollouts, "
            f"{sidecars.count(chr(10))} failed attempts (429 overloaded), profiled splits {profiled}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

TRUE_LABELS = [
    ("What is the capital of Australia?", "Canberra"),
    ("How many bones are in the adult human body?", "206"),
    ("Which element has the chemical symbol Fe?", "Iron"),
    ("What is the longest river in South America?", "Amazon"),
    ("Who painted The Starry Night?", "Vincent van Gogh"),
    ("What is 9 multiplied by 7?", "63"),
]
LAST_WEEKS_LABELS = [("What is the capital of Australia?", "Sydney"), *TRUE_LABELS[1:5],
                     ("What is 9 multiplied by 7?", "56")]

COUNT_GUARD_RUN = """#!/bin/bash
# weekly eval; materializing is skipped when the kept inputs already cover the dataset (rows x repeats)
cd {run}
rm -f rollouts.jsonl rollouts_failures.jsonl
REPEATS=3
want=$(( $(wc -l < string_match.jsonl) * REPEATS ))
have=$(wc -l < rollouts_materialized_inputs.jsonl 2>/dev/null || echo 0)
if [ "$have" -eq "$want" ]; then
  echo "inputs complete ($have rows): keeping them"
else
  echo "inputs incomplete ($have of $want rows): materializing"
  {gp} materialize --input string_match.jsonl --num-repeats $REPEATS --agent string_match_simple_agent \\
    --output rollouts_materialized_inputs.jsonl
fi
{gp} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {url} \\
  --env string_match --concurrency 4
{gp} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "cache_resume_builtin_materialize_skip_guard_compares_only_row_counts_so_relabelled_dataset_keeps_old_inputs",
    "cache_resume",
    ["rollouts_materialized_inputs.jsonl", "wc -l", "check-stale", "materialize"],
    "the user's run_eval.sh keeps the materialized inputs when their line count equals the dataset's rows x repeats "
    "(`wc -l`); this week the labelling team fixed two labels (Sydney -> Canberra, 56 -> 63) without adding rows, so "
    "the count still matched, the guard kept last week's inputs with the old labels, and the model's right answers "
    "to those two questions were collected and profiled as wrong (every command exits 0)",
)
def cache_resume_builtin_materialize_skip_guard_compares_only_row_counts_so_relabelled_dataset_keeps_old_inputs(
        ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, TRUE_LABELS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text(COUNT_GUARD_RUN.format(run=run, gp=GP, url=url))
    write_rows(run / "string_match.jsonl", [question_row(q, a) for q, a in LAST_WEEKS_LABELS])
    code1 = ctx.sh(f"bash {script}", "logs/run_eval_last_week.log", timeout=300)
    ctx.note("(a week later: the labelling team's export fixes two labels in RUN/string_match.jsonl)")
    write_rows(run / "string_match.jsonl", [question_row(q, a) for q, a in TRUE_LABELS])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    got = rows_of(run / "rollouts.jsonl")
    wrong = [r for r in got if r.get("expected_answer") in ("Sydney", "56")]
    log = log_of(ctx, "run_eval.log")
    if code1 or code or len(got) != 18 or not wrong or any(rewards(wrong)) or "keeping them" not in log:
        raise failed(ctx, f"exit {code1}/{code}, {len(got)}, {rewards(wrong)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (skip materialize when `wc -l` of the inputs = rows x 3; collect; profile) last week "
            f"exit {code1}; this week (two labels fixed in RUN/string_match.jsonl) exit {code}: inputs kept; "
            f"{len(got)} rollouts, rewards of the still-wrong labels {rewards(wrong)}.")


# =====================================================================================================
# config
# =====================================================================================================

SETTINGS_YAML = """# eval settings (the smoke job reads the smoke_ keys)
model: sim-policy
repeats: 3
concurrency: 4
smoke_repeats: 1
smoke_limit: 2
"""


@case(
    "config_builtin_run_script_greps_repeats_from_settings_yaml_which_also_matches_smoke_repeats_key",
    "config",
    ["grep", "eval_settings.yaml", "smoke_repeats", "--num-repeats", "REPEATS"],
    "the user's run_eval.sh reads its settings with `grep repeats eval_settings.yaml | cut -d: -f2`; since the smoke "
    "job's `smoke_repeats: 1` key was added to the same file the grep matches two lines, REPEATS is '3 1', and the "
    "unquoted `--num-repeats $REPEATS` passed an extra argument: materialize refused ('unrecognized arguments: 1'), "
    "and collect and profile had no inputs",
)
def config_builtin_run_script_greps_repeats_from_settings_yaml_which_also_matches_smoke_repeats_key(ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 70)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "eval_settings.yaml").write_text(SETTINGS_YAML)
    script = run / "run_eval.sh"
    script.write_text(
        f"#!/bin/bash\n# weekly eval, settings from eval_settings.yaml\ncd {run}\n"
        "REPEATS=$(grep repeats eval_settings.yaml | cut -d: -f2)\n"
        "CONCURRENCY=$(grep '^concurrency' eval_settings.yaml | cut -d: -f2)\n"
        "echo \"repeats: $REPEATS, concurrency: $CONCURRENCY\"\n"
        f"{GP} materialize --input string_match.jsonl --num-repeats $REPEATS --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {url} "
        "--env string_match --concurrency $CONCURRENCY\n"
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    log = log_of(ctx, "run_eval.log")
    if "unrecognized arguments: 1" not in log or (run / "rollouts_materialized_inputs.jsonl").exists() \
            or (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}: {log[-1500:]}")
    return (f"RUN/eval_settings.yaml (repeats: 3 and smoke_repeats: 1); RUN/run_eval.sh (`grep repeats | cut -d: -f2`, "
            f"materialize --num-repeats $REPEATS, collect, profile) exit {code}; materialize refused the extra '1'.")


# =====================================================================================================
# data_schema
# =====================================================================================================

PUNCTUATED = [
    ("What is pi rounded to two decimal places?", "3.14"),
    ("Which Australian band recorded Highway to Hell?", "AC/DC"),
    ("What is 2.5 multiplied by 3?", "7.5"),
    ("What is the capital of Canada?", "Ottawa"),
    ("Which element has the chemical symbol Fe?", "Iron"),
    ("Who painted The Starry Night?", "Vincent van Gogh"),
    ("What is the capital of Australia?", "Canberra"),
    ("Which gas do plants absorb from the air?", "Carbon dioxide"),
]

PREP_PY = '''"""prep.py: the labelling sheet (questions.csv: question,answer) -> string_match.jsonl."""
import csv
import json
import string

# reviewers leave stray full stops and quotes around answers: strip punctuation from every label
STRAY = str.maketrans("", "", string.punctuation)

with open("questions.csv", newline="", encoding="utf-8") as sheet, open("string_match.jsonl", "w") as out:
    for row in csv.DictReader(sheet):
        answer = row["answer"].translate(STRAY).strip()
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}) + "\\n")
print("prep: string_match.jsonl written")
'''


@case(
    "data_schema_builtin_prep_strips_all_punctuation_from_labels_so_decimal_points_and_slashes_vanish",
    "data_schema",
    ["prep.py", "string.punctuation", "expected_answer", "translate"],
    "the user's prep.py 'tidies' every label with `str.translate` over string.punctuation to drop the stray full "
    "stops and quotes reviewers leave, which also removes the decimal points and slashes that are part of answers: "
    "3.14 became 314, 7.5 became 75 and AC/DC became ACDC, so every rollout of those three tasks scored 0 although "
    "the model answered right, while the other tasks still scored (every command exits 0)",
)
def data_schema_builtin_prep_strips_all_punctuation_from_labels_so_decimal_points_and_slashes_vanish(ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, PUNCTUATED)
    url, _ = ctx.policy(better, "--latency-ms 20")
    from sixty_fourth_held_out import write_sheet

    write_sheet(run / "questions.csv", PUNCTUATED)
    (run / "prep.py").write_text(PREP_PY)
    script = run / "run_eval.sh"
    script.write_text(f"#!/bin/bash\n# weekly eval of the labelling sheet\ncd {run}\n{BIN}/python prep.py\n"
                      + pipeline_lines(url))
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    got = rows_of(run / "rollouts.jsonl")
    stripped = [r for r in got if r.get("expected_answer") in ("314", "75", "ACDC")]
    plain = [r for r in got if r not in stripped]
    if code or len(got) != 24 or len(stripped) != 9 or any(rewards(stripped)) or not any(rewards(plain)):
        raise failed(ctx, f"exit {code}, {len(got)}, {len(stripped)}, {rewards(stripped)}: "
                          f"{log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/questions.csv (labels 3.14, AC/DC, 7.5 ...); RUN/prep.py (labels through string.punctuation "
            f"removal); RUN/run_eval.sh (prep, materialize 8 x 3, collect, profile) exit {code}; rewards of the three "
            f"stripped tasks {rewards(stripped)}, of the others mean {mean_of(plain):.2f}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

STRICT_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
set -euo pipefail
cd /app
# house style: report leftover TODO markers (informational)
todos=$(grep -c 'TODO' /app/hello.txt)
echo "TODO markers: $todos"
if test "$(cat /app/hello.txt 2>/dev/null)" = "Hello, Gym!"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def strict_greeting(tasks: Path) -> None:
    (tasks / "create-greeting" / "tests" / "test.sh").write_text(STRICT_TEST_SH)


@case(
    "verifier_runtime_taskfolder_test_sh_under_set_e_counts_todo_markers_with_grep_c_which_exits_1_on_zero_before_reward",
    "verifier_runtime",
    ["set -e", "grep -c", "test.sh", "|| true", "reward.txt"],
    "create-greeting's tests/test.sh now starts with `set -euo pipefail` and counts leftover TODO markers with "
    "`todos=$(grep -c TODO /app/hello.txt)` before the check; grep -c prints 0 and exits 1 when it finds none, so "
    "set -e ended test.sh right there (exit 1) whenever the answer was right, before any reward was written: no "
    "episode of the task got a reward, not even the ones whose hello.txt was right, while json-version still scored",
)
def verifier_runtime_taskfolder_test_sh_under_set_e_counts_todo_markers_with_grep_c_which_exits_1_on_zero_before_reward(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["json-version", "create-greeting"], edit=strict_greeting)
    greeting = task_rewards(ctx, "create-greeting")
    from fifty_seventh_held_out import everything

    text = everything(ctx)
    reasons = [str(r.get("failure_reason")) for r in got if "create-greeting" in json.dumps(r)]
    if any(greeting) or not any(task_rewards(ctx, "json-version")) or "TODO markers" in text \
            or not any("neither reward.txt" in r and "exited 1" in r for r in reasons):
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/create-greeting/tests/test.sh (`set -euo pipefail`, `grep -c TODO` before the reward); "
            f"RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile of RUN/tasks x 2) exit {code}; "
            f"{complete(ctx)} episodes recorded, create-greeting rewards {greeting}, json-version rewards "
            f"{task_rewards(ctx, 'json-version')}.")


# =====================================================================================================
# infra
# =====================================================================================================


@case(
    "infra_docker_collect_container_mounts_cache_with_mount_flag_whose_bind_source_does_not_exist_on_this_node",
    "infra",
    ["--mount", "bind source", "mkdir", "-v"],
    "the platform's container template the user's run_eval.sh copied mounts a pip/model cache with `--mount "
    "type=bind,source=$PWD/.cache/eval,target=/cache` (the style guide prefers --mount to -v); unlike -v, --mount "
    "does not create a missing source folder, and this run folder has none, so Docker refused to create the "
    "collect container ('bind source path does not exist'): nothing was collected and the profile had no rollouts",
)
def infra_docker_collect_container_mounts_cache_with_mount_flag_whose_bind_source_does_not_exist_on_this_node(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 80)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h71-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, "--mount type=bind,source=$PWD/.cache/eval,target=/cache",
                                   "collect runs in the eval container (platform template: shared cache mount)")
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if (run / "rollouts.jsonl").exists() or "bind source path does not exist" not in log:
        raise failed(ctx, f"exit {code}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run --mount type=bind,source=$PWD/.cache/eval,...` collect, "
            f"profile) exit {code}; Docker refused the missing bind source; no rollouts.")


if __name__ == "__main__":
    sys.exit(main("seventy_first_held_out", __file__, __doc__))
