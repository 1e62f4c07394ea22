"""Build the SIXTY-SEVENTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/sixty_seventh_held_out.py --out tests/data/diagnosis_corpus/sixty_seventh_held_out [--only CASE ...]

This set was written after the sixty-six earlier sets (first_held_out.py ... sixty_sixth_held_out.py), from the guides
alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`,
`check-stale`), task folders in Harbor's format run in their Docker sandboxes, Docker containers the user's scripts
start, and the user's own shell and Python tooling, settings, deploy scripts, data-preparation scripts and verifiers.
The output of every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is
written by hand but the user's own inputs (data, scripts, settings, verifier code). Each case injects one cause,
different in mechanism from those of the sixty-six earlier sets, and each recipe checks that its fault really happened
(it raises RecipeError otherwise, and the case is not written). About half of the failures are silent: every command
exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), and PYTHONPATH set to this checkout. Run it from a
foreground shell. Containers it makes are named `h67-...` and removed at the end of their recipe.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import failed  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_seventh_held_out import everything, task_rewards, week  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from recipes import BIN, GP, ROOT, Ctx, case, main, rows_of, text_of, unique_keys  # noqa: E402
from sixty_fourth_held_out import (  # noqa: E402
    mean_of,
    pipeline_lines,
    python_mounts,
    question_row,
    scratch_collect,
    write_sheet,
)
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_sixth_held_out import free_port  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def write_tasks(path: Path, pairs: list[tuple[str, str]]) -> Path:
    path.write_text("".join(json.dumps(question_row(q, a)) + "\n" for q, a in pairs))
    return path


def remove_container(name: str) -> None:
    subprocess.run(["docker", "rm", "-f", name], capture_output=True, check=False)


def container_python(run: Path) -> str:
    """`docker run` flags that give a container the eval's Python and the run folder (host networking)."""
    return f"--network host {python_mounts()} -v {run}:{run} -e PYTHONPATH={ROOT} -w {run}"


# =====================================================================================================
# healthy
# =====================================================================================================

STALE_GUARD = """echo "== is last week's materialized input still this week's data?"
if {gp} check-stale --inputs rollouts_materialized_inputs.jsonl --source string_match.jsonl --num-repeats 3 \\
    --agent string_match_simple_agent; then
  echo 'inputs up to date: keeping them'
else
  echo 'inputs are stale: materializing again'
  {gp} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
    --output rollouts_materialized_inputs.jsonl
fi
rm -f rollouts.jsonl rollouts_failures.jsonl
{gp} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {url} \\
  --env string_match --concurrency 4
{gp} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "healthy_builtin_run_script_check_stale_flags_last_weeks_inputs_then_rematerializes_before_collect",
    "healthy",
    [],
    "nothing is wrong: the run folder is reused every week and the user's run_eval.sh first asks `gym-pipeline "
    "check-stale` whether last week's rollouts_materialized_inputs.jsonl still matches string_match.jsonl; this week "
    "the dataset changed, so check-stale reports the inputs stale (exit 1) and the script materializes them again "
    "before a fresh collect and profile: every rollout of this week's data was collected and profiled",
)
def healthy_builtin_run_script_check_stale_flags_last_weeks_inputs_then_rematerializes_before_collect(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 8, 10)
    ctx.dataset("string_match", 8, start=30, folder=ctx.work, name="last_week.jsonl")
    url, _ = ctx.policy(better, "--latency-ms 20")
    ctx.note("(last week: the same folder was materialized from last week's dataset)")
    ctx.sh(f"{GP} materialize --input {ctx.work}/last_week.jsonl --num-repeats 3 --agent string_match_simple_agent "
           f"--output {run}/rollouts_materialized_inputs.jsonl", "logs/materialize_last_week.log")
    script = run / "run_eval.sh"
    script.write_text(f"#!/bin/bash\n# weekly eval in the reused run folder\ncd {run}\n"
                      + STALE_GUARD.format(gp=GP, url=url))
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    prompts = {json.dumps(r["responses_create_params"]["input"]) for r in rows_of(run / "string_match.jsonl")}
    fresh = all(json.dumps(r["responses_create_params"]["input"]) in prompts
                for r in rows_of(run / "rollouts_materialized_inputs.jsonl"))
    if code or complete(ctx) != 24 or "materializing again" not in log or not fresh \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, fresh {fresh}: {log[-1500:]}")
    return (f"last week's inputs left in RUN; RUN/run_eval.sh (check-stale -> stale, materialize again 8 x 3, collect, "
            f"profile) exit {code}; {complete(ctx)} of 24 rollouts, mean reward {mean_of(got):.2f}.")


@case(
    "healthy_docker_collect_container_template_publishes_port_that_host_network_discards_with_warning",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh starts the collect container from the platform's run template, which "
    "publishes a metrics port (`-p 9400:9400`), together with `--network host`; Docker prints 'WARNING: Published "
    "ports are discarded when using host network mode', but the container reaches the model server on the node's "
    "loopback and every rollout was collected and profiled",
)
def healthy_docker_collect_container_template_publishes_port_that_host_network_discards_with_warning(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 66)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h67-collect-{free_port()}"
    script = run / "run_eval.sh"
    script.write_text(
        f"#!/bin/bash\n# weekly eval; collect runs in the eval container (platform run template: metrics port)\n"
        f"cd {run}\n"
        f"{GP} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"docker run --rm --name {name} -p 9400:9400 {container_python(run)} gym-pipeline/base:bookworm \\\n"
        f"  {BIN}/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output "
        f"rollouts.jsonl --model-url {url} --env string_match --concurrency 4\n"
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or "Published ports are discarded" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run -p 9400:9400 --network host ... collect`, profile) exit "
            f"{code}; Docker's published-ports warning; {complete(ctx)} of 18 rollouts, mean reward "
            f"{mean_of(got):.2f}.")


NEGATIVE_CONTROL = """
# negative control (not scored): the check above must reject an empty result, or it proves nothing
if test "$(printf '' | tr -d '[:space:]')" = "__never__"; then
  echo "negative control: PASS on an empty result - the check is broken!"
else
  echo "negative control: FAIL on an empty result (as it must)"
fi
"""


def negative_controls(tasks: Path) -> None:
    for test in tasks.glob("*/tests/test.sh"):
        test.write_text(test.read_text() + NEGATIVE_CONTROL)


@case(
    "healthy_taskfolder_test_sh_negative_control_prints_fail_on_empty_result_after_reward",
    "healthy",
    [],
    "nothing is wrong: the task author appended an unscored negative control to every tests/test.sh, which runs the "
    "check on an empty result and prints 'negative control: FAIL on an empty result (as it must)'; every verifier "
    "log therefore holds a FAIL line, but the reward was written before it, and every episode was verified, scored "
    "and profiled",
)
def healthy_taskfolder_test_sh_negative_control_prints_fail_on_empty_result_after_reward(ctx: Ctx) -> str:
    code, got = week(ctx, ["json-version", "create-greeting"], edit=negative_controls)
    text = everything(ctx)
    if code or complete(ctx) != 4 or "negative control: FAIL" not in text or not any(rewards(got)) \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {rewards(got)}: {log_of(ctx, 'run_tasks.log')[-1200:]}")
    return (f"RUN/tasks/*/tests/test.sh (unscored negative control after the reward); RUN/run_tasks.sh "
            f"(`gym-pipeline stage` materialize, collect, profile of RUN/tasks x 2) exit {code}; {complete(ctx)} of 4 "
            f"episodes, rewards {rewards(got)}.")


# =====================================================================================================
# model_serving
# =====================================================================================================

NOCLOBBER_DEPLOY = """#!/bin/bash
# deploy.sh STEP: copy checkpoint STEP onto the serving disk, where the model server loads serving/current.
# -n: never overwrite a file in place (a copy that dies half-way must not corrupt the served model)
mkdir -p {serving}/current
cp -rn {ckpts}/$1/. {serving}/current/
echo "deployed $1 to {serving}/current"
ls -l {serving}/current
"""

SERVED_RUN = """#!/bin/bash
# weekly eval against the model server on the serving disk (its URL is the first argument)
cd {run}
URL=$1
echo "served model: $(curl -s $URL/models)"
"""


@case(
    "model_serving_builtin_deploy_script_copies_checkpoint_with_cp_no_clobber_so_served_folder_keeps_last_weeks_files",
    "model_serving",
    ["cp -n", "deploy.sh", "serving/current", "checkpoint"],
    "the user's deploy.sh copies a checkpoint onto the serving disk with `cp -rn CKPTS/$STEP/. serving/current/` "
    "(no-clobber, meant to protect the served model from a half-finished copy); last week it filled the empty folder "
    "with step_0100, this week every file of step_0200 already existed there under the same name, so nothing was "
    "copied and the model server loaded step_0100 again: the whole eval scored last week's checkpoint (every "
    "command exits 0)",
)
def model_serving_builtin_deploy_script_copies_checkpoint_with_cp_no_clobber_so_served_folder_keeps_last_weeks_files(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (weaker, better) = builtin_rows(ctx, 8, 40)
    serving = ctx.work / "serving"
    (run / "deploy.sh").write_text(NOCLOBBER_DEPLOY.format(ckpts=weaker.parent, serving=serving))
    script = run / "run_eval.sh"
    script.write_text(SERVED_RUN.format(run=run) + pipeline_lines("$URL"))
    code1 = ctx.sh(f"bash {run}/deploy.sh step_0100", "logs/deploy_last_week.log")
    url, server = ctx.policy(serving / "current", "--latency-ms 20", log="logs/model_server_last_week.log")
    ctx.sh(f"bash {script} {url}", "logs/run_eval_last_week.log", timeout=300)
    ctx.stop(server)
    ctx.note("(a week later: step_0200 is the checkpoint to evaluate)")
    code2 = ctx.sh(f"bash {run}/deploy.sh step_0200", "logs/deploy.log")
    url, server = ctx.policy(serving / "current", "--latency-ms 20")
    code = ctx.sh(f"bash {script} {url}", "logs/run_eval.log", timeout=300)
    ctx.stop(server)
    got = rows_of(run / "rollouts.jsonl")
    served = (serving / "current" / "config.json").read_text()
    check_url, _ = ctx.policy(better, "--latency-ms 20", log=str(ctx.work / "check_server.log"))
    ctx.commands.pop()
    fresh = scratch_collect(ctx, check_url)
    if code1 or code2 or code or len(got) != 24 or served != (weaker / "config.json").read_text() \
            or not mean_of(fresh) > mean_of(got):
        raise failed(ctx, f"exit {code1}/{code2}/{code}, {len(got)}, {mean_of(got)} vs {mean_of(fresh)}: "
                          f"{log_of(ctx, 'deploy.log')}")
    return (f"RUN/deploy.sh (`cp -rn CKPTS/$STEP/. serving/current/`); last week deploy step_0100 + RUN/run_eval.sh; "
            f"this week deploy step_0200 exit {code2} (no file replaced: serving/current still step_0100), "
            f"RUN/run_eval.sh exit {code}; {len(got)} rollouts, mean reward {mean_of(got):.2f} (step_0200 scores "
            f"{mean_of(fresh):.2f} on the same inputs).")


# =====================================================================================================
# throughput_resources
# =====================================================================================================


@case(
    "throughput_builtin_collect_concurrency_raised_to_thirty_two_past_servers_eight_queue_places_so_429s_exhaust_retries",
    "throughput_resources",
    ["--concurrency", "CONCURRENCY", "max-waiting"],
    "the model server is sized for its GPU (4 requests generated at once, 4 more may wait, the rest are answered "
    "429 overloaded); to finish sooner the user raised the collect's CONCURRENCY in eval_settings.sh from 4 to 32, "
    "so most requests overflowed the server's queue, were retried after a short backoff into the still-full queue "
    "and used up their 3 attempts: most of the 48 rollouts were given up, and the strict profile refused the incomplete run",
)
def throughput_builtin_collect_concurrency_raised_to_thirty_two_past_servers_eight_queue_places_so_429s_exhaust_retries(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 16, 50)
    url, _ = ctx.policy(better, "--latency-ms 1500 --max-running 4 --max-waiting 4")
    (run / "eval_settings.sh").write_text(
        "# weekly eval settings\nREPEATS=3\nCONCURRENCY=32   # was 4; more in flight = done sooner\n")
    script = run / "run_eval.sh"
    script.write_text(
        f"#!/bin/bash\n# weekly eval\ncd {run}\nsource eval_settings.sh\n"
        f"{GP} materialize --input string_match.jsonl --num-repeats $REPEATS --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {url} "
        "--env string_match --concurrency $CONCURRENCY\n"
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    log = log_of(ctx, "run_eval.log")
    done = len(unique_keys(run / "rollouts.jsonl"))
    sidecar = text_of(run / "rollouts_failures.jsonl")
    if "overloaded" not in sidecar or not done < 40 or (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {done}, 429 {'429' in sidecar}: {log[-1500:]}")
    return (f"serve-policy --max-running 4 --max-waiting 4 --latency-ms 1500; RUN/eval_settings.sh "
            f"(CONCURRENCY=32); RUN/run_eval.sh (materialize 16 x 3, collect, profile) exit {code}; {done} of 48 "
            f"rollouts, {sidecar.count(chr(10))} failed attempts (429 overloaded) in the sidecar.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

DB_PREP_PY = '''"""prep.py: merge this week's labelling sheet (questions.csv) into the team's task store tasks.db, export tasks.jsonl."""
import csv
import json
import sqlite3

db = sqlite3.connect("tasks.db")
db.execute("CREATE TABLE IF NOT EXISTS tasks (question TEXT PRIMARY KEY, answer TEXT)")
with open("questions.csv", newline="") as handle:
    rows = list(csv.DictReader(handle))
before = db.execute("SELECT COUNT(*) FROM tasks").fetchone()[0]
# a question asked again must not become a second task
db.executemany("INSERT OR IGNORE INTO tasks VALUES (?, ?)", [(r["question"], r["answer"]) for r in rows])
db.commit()
after = db.execute("SELECT COUNT(*) FROM tasks").fetchone()[0]
print(f"prep: {len(rows)} sheet rows, {after - before} new tasks, {after} tasks in tasks.db")
with open("tasks.jsonl", "w") as out:
    for question, answer in db.execute("SELECT question, answer FROM tasks ORDER BY rowid"):
        text = f"{question} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}) + "\\n")
'''

FIXED_SHEET = [
    ("What is the capital of Australia?", "Canberra"),
    ("How many bones are in the adult human body?", "206"),
    ("Which element has the chemical symbol Fe?", "Iron"),
    ("What is the longest river in South America?", "Amazon"),
    ("Who painted The Starry Night?", "Vincent van Gogh"),
    ("What is 9 multiplied by 7?", "63"),
    ("Which ocean is the largest?", "Pacific"),
    ("What is the capital of Canada?", "Ottawa"),
]
OLD_LABELS = [("What is the capital of Australia?", "Sydney"), *FIXED_SHEET[1:5],
              ("What is 9 multiplied by 7?", "56")]


@case(
    "cache_resume_builtin_prep_task_store_insert_or_ignore_keeps_old_labels_of_questions_already_stored",
    "cache_resume",
    ["INSERT OR IGNORE", "tasks.db", "ON CONFLICT"],
    "the user's prep.py merges each week's labelling sheet into a persistent task store (tasks.db, `INSERT OR IGNORE` "
    "keyed by the question) and exports tasks.jsonl from it; this week's sheet fixed two labels (Sydney -> Canberra, "
    "56 -> 63) and added two questions, but the fixed rows' questions were already stored, so the insert ignored "
    "them: the new questions arrived, the old wrong labels stayed, and the model's right answers scored 0 (every "
    "command exits 0)",
)
def cache_resume_builtin_prep_task_store_insert_or_ignore_keeps_old_labels_of_questions_already_stored(
        ctx: Ctx) -> str:
    run = ctx.run
    (run / "prep.py").write_text(DB_PREP_PY)
    _, better = truth_checkpoints(ctx, FIXED_SHEET)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval of the labelling sheet\n"
                      f"cd {run}\nrm -f rollouts.jsonl rollouts_failures.jsonl\n{BIN}/python prep.py\n"
                      + pipeline_lines(url, data="tasks.jsonl"))
    write_sheet(run / "questions.csv", OLD_LABELS)
    code1 = ctx.sh(f"bash {script}", "logs/run_eval_last_week.log", timeout=300)
    ctx.note("(a week later: the labelling team fixed two labels and added two questions to questions.csv)")
    write_sheet(run / "questions.csv", FIXED_SHEET)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    tasks = {r["_ng_task_index"] for r in got}
    wrong = [r for r in got if r.get("expected_answer") in ("Sydney", "56")]
    if code1 or code or len(tasks) != 8 or not wrong or any(rewards(wrong)) or not any(rewards(got)) \
            or "2 new tasks" not in log:
        raise failed(ctx, f"exit {code1}/{code}, tasks {tasks}, {rewards(wrong)}: {log[-1500:]}")
    return (f"RUN/prep.py (sheet merged into RUN/tasks.db with INSERT OR IGNORE, tasks.jsonl exported); RUN/run_eval.sh "
            f"(prep, materialize x 3, collect, profile) last week exit {code1}, this week (2 labels fixed, 2 questions "
            f"added) exit {code}; {len(got)} rollouts over {len(tasks)} tasks, rewards of the still-wrong labels "
            f"{rewards(wrong)}.")


# =====================================================================================================
# infra
# =====================================================================================================


@case(
    "infra_docker_collect_container_bind_mount_of_results_folder_named_with_clock_time_colons_is_refused",
    "infra",
    ["-v", "--mount", "colon", "results folder"],
    "the user's run_eval.sh names each week's results folder with an ISO timestamp (`date +%Y-%m-%dT%H:%M`) and "
    "bind-mounts it into the collect container with `-v $PWD/results/$STAMP:/out`; `docker run -v` splits its "
    "argument at colons, so the clock time's colon turned the rest of the path into the mount's 'mode' and Docker "
    "refused the container ('invalid mode'): no rollout was collected and the profile had nothing to read",
)
def infra_docker_collect_container_bind_mount_of_results_folder_named_with_clock_time_colons_is_refused(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 72)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h67-collect-{free_port()}"
    script = run / "run_eval.sh"
    script.write_text(
        f"#!/bin/bash\n# weekly eval; one results folder per run, named by its start time; collect runs in the eval "
        f"container\ncd {run}\nSTAMP=$(date +%Y-%m-%dT%H:%M)\nOUT=$PWD/results/$STAMP\nmkdir -p \"$OUT\"\n"
        "echo \"results folder: $OUT\"\n"
        f"{GP} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent "
        "--output \"$OUT/rollouts_materialized_inputs.jsonl\"\n"
        f"docker run --rm --name {name} --network host {python_mounts()} -v \"$OUT:/out\" -e PYTHONPATH={ROOT} "
        "gym-pipeline/base:bookworm \\\n"
        f"  {BIN}/python -m gym_pipeline.cli collect --inputs /out/rollouts_materialized_inputs.jsonl --output "
        f"/out/rollouts.jsonl --model-url {url} --env string_match --concurrency 4\n"
        f"{GP} profile --inputs \"$OUT/rollouts_materialized_inputs.jsonl\" --rollouts \"$OUT/rollouts.jsonl\"\n")
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    outs = list((run / "results").glob("*"))
    got = [r for out in outs for r in rows_of(out / "rollouts.jsonl")]
    if not code or got or "invalid" not in log or not outs or not (outs[0] / "rollouts_materialized_inputs.jsonl"
                                                                    ).exists():
        raise failed(ctx, f"exit {code}, {len(got)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (results folder RUN/results/<date>T<HH:MM>, materialize 6 x 3 into it, `docker run -v "
            f"$OUT:/out ... collect`, profile) exit {code}; Docker refused the mount; {len(got)} rollouts.")


# =====================================================================================================
# config
# =====================================================================================================

EVAL_ENV = """# eval.env: the weekly eval's settings (sourced by run_eval.sh, passed to the collect container)
MODEL_URL="{url}"
EVAL_ENV_NAME="string_match"
CONCURRENCY=4
"""


@case(
    "config_docker_collect_container_env_file_keeps_double_quotes_of_shell_style_settings_in_model_url",
    "config",
    ["--env-file", "eval.env", "quotes", "MODEL_URL"],
    "the user's eval.env is written in shell style (`MODEL_URL=\"http://...\"`) and serves both `source eval.env` on "
    "the node and `docker run --env-file eval.env` for the collect container; Docker's --env-file takes every "
    "character after '=' literally, so inside the container MODEL_URL and EVAL_ENV_NAME carried their double quotes "
    "and the collect was given a model URL that starts with a quote: nothing was collected",
)
def config_docker_collect_container_env_file_keeps_double_quotes_of_shell_style_settings_in_model_url(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 78)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "eval.env").write_text(EVAL_ENV.format(url=url))
    name = f"h67-collect-{free_port()}"
    script = run / "run_eval.sh"
    script.write_text(
        f"#!/bin/bash\n# weekly eval; settings in eval.env, collect in the eval container\ncd {run}\n"
        "source eval.env\necho \"model server: $(curl -s $MODEL_URL/models)\"\n"
        f"{GP} materialize --input string_match.jsonl --num-repeats 3 --agent ${{EVAL_ENV_NAME}}_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"docker run --rm --name {name} --env-file eval.env {container_python(run)} gym-pipeline/base:bookworm \\\n"
        f"  sh -c 'exec {BIN}/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl "
        "--output rollouts.jsonl --model-url \"$MODEL_URL\" --env \"$EVAL_ENV_NAME\" --concurrency \"$CONCURRENCY\"'\n"
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    inputs = rows_of(run / "rollouts_materialized_inputs.jsonl")
    if got or len(inputs) != 18 or "sim-policy" not in log or "--model-url: must be an http" not in log:
        raise failed(ctx, f"exit {code}, {len(got)}, {len(inputs)}: {log[-2000:]}")
    return (f"RUN/eval.env (shell-style quoted values); RUN/run_eval.sh (source eval.env, materialize 6 x 3, `docker "
            f"run --env-file eval.env ... collect --model-url \"$MODEL_URL\"`, profile) exit {code}; {len(got)} "
            f"rollouts.")


PER_AGENT_SETTINGS = """# weekly eval settings
# repeats per agent (JSON, as `materialize --num-repeats` takes it): 5 for the variance study, 1 for anything else
REPEATS='{"string_match_agent": 5, "_default": 1}'
"""


@case(
    "config_builtin_per_agent_repeats_json_names_agent_without_simple_so_every_task_falls_back_to_default_one",
    "config",
    ["--num-repeats", "REPEATS", "string_match_simple_agent", "agent name"],
    "for this week's variance study the user's eval_settings.sh gives materialize per-agent repeats as JSON, "
    "'{\"string_match_agent\": 5, \"_default\": 1}'; the rows run on string_match_simple_agent, a name the object "
    "does not hold, so every task fell back to _default and was materialized, collected and profiled once: the "
    "study's per-task variance is empty (std of one rollout) although every command exits 0",
)
def config_builtin_per_agent_repeats_json_names_agent_without_simple_so_every_task_falls_back_to_default_one(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 10, 0)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "eval_settings.sh").write_text(PER_AGENT_SETTINGS)
    script = run / "run_eval.sh"
    script.write_text(
        f"#!/bin/bash\n# weekly eval: variance study (5 repeats per task)\ncd {run}\nsource eval_settings.sh\n"
        f"{GP} materialize --input string_match.jsonl --num-repeats \"$REPEATS\" --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {url} "
        "--env string_match --concurrency 4\n"
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    inputs = rows_of(run / "rollouts_materialized_inputs.jsonl")
    profiles = rows_of(run / "rollouts_reward_profiling.jsonl")
    if code or len(inputs) != 10 or len(profiles) != 10 or any(p.get("num_rollouts") != 1 for p in profiles):
        raise failed(ctx, f"exit {code}, {len(inputs)}, {len(profiles)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/eval_settings.sh (REPEATS='{{\"string_match_agent\": 5, \"_default\": 1}}'); RUN/run_eval.sh "
            f"(materialize --num-repeats \"$REPEATS\" --agent string_match_simple_agent, collect, profile) exit {code}; "
            f"{len(inputs)} materialized rows for 10 tasks, every profile row num_rollouts 1.")


# =====================================================================================================
# data_schema
# =====================================================================================================

MERGE_LINES = """echo "== this week's questions: the two labelling shards, merged"
cat exports/shard_a.jsonl exports/shard_b.jsonl > string_match.jsonl
echo "questions: $(wc -l < string_match.jsonl)"
"""


@case(
    "data_schema_builtin_two_shard_exports_each_number_ng_task_index_from_zero_so_merged_questions_share_tasks",
    "data_schema",
    ["_ng_task_index", "export", "shard"],
    "the labelling tool exports each shard with its own question ids as _ng_task_index, numbered from 0 in every "
    "shard; the user's run script concatenates the two shards, and materialize keeps an _ng_task_index already in a "
    "row, so shard B's four questions took the task indices of shard A's (as extra rollouts 3-5): the profile holds 4 "
    "tasks instead of 8, each mixing two different questions' rewards (every command exits 0)",
)
def data_schema_builtin_two_shard_exports_each_number_ng_task_index_from_zero_so_merged_questions_share_tasks(
        ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 20)
    rows = rows_of(data)
    data.unlink()
    (run / "exports").mkdir()
    for shard, part in (("a", rows[:4]), ("b", rows[4:])):
        (run / "exports" / f"shard_{shard}.jsonl").write_text(
            "".join(json.dumps({**row, "_ng_task_index": i}) + "\n" for i, row in enumerate(part)))
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval of the labelling team's shards\n"
                      f"cd {run}\n" + MERGE_LINES + pipeline_lines(url))
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    profiles = rows_of(run / "rollouts_reward_profiling.jsonl")
    got = rows_of(run / "rollouts.jsonl")
    mixed = {r["_ng_task_index"] for r in got
             if len({json.dumps(g["responses_create_params"]) for g in got
                     if g["_ng_task_index"] == r["_ng_task_index"]}) > 1}
    if code or len(got) != 24 or len(profiles) != 4 or len(mixed) != 4:
        raise failed(ctx, f"exit {code}, {len(got)}, {len(profiles)}, {mixed}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/exports/shard_a.jsonl, shard_b.jsonl (each numbers _ng_task_index 0-3); RUN/run_eval.sh (cat the "
            f"shards, materialize 8 x 3, collect, profile) exit {code}; {len(got)} rollouts, {len(profiles)} profile "
            f"rows, task indices {sorted(mixed)} each mixing two questions.")


def bom_package_json(tasks: Path) -> None:
    package = tasks / "json-version" / "environment" / "package.json"
    package.write_bytes(b"\xef\xbb\xbf" + package.read_bytes().replace(b"\n", b"\r\n"))


@case(
    "data_schema_taskfolder_package_json_resaved_by_windows_editor_with_utf8_byte_order_mark",
    "data_schema",
    ["package.json", "byte order mark", "BOM", "utf-8"],
    "a teammate bumped nothing but re-saved json-version's environment/package.json in a Windows editor, which wrote "
    "it as 'UTF-8 with BOM' (and CRLF); Python's json module refuses a text that starts with the byte order mark "
    "('Unexpected UTF-8 BOM'), so the task's own way of reading the version failed in every sandbox, version.txt "
    "stayed empty and every episode of the task scored 0 while create-greeting still scored (every command exits 0)",
)
def data_schema_taskfolder_package_json_resaved_by_windows_editor_with_utf8_byte_order_mark(ctx: Ctx) -> str:
    code, got = week(ctx, ["json-version", "create-greeting"], edit=bom_package_json)
    versioned = task_rewards(ctx, "json-version")
    text = everything(ctx)
    if code or complete(ctx) != 4 or not versioned or any(versioned) or "BOM" not in text \
            or not any(task_rewards(ctx, "create-greeting")):
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {versioned}: {log_of(ctx, 'run_tasks.log')[-1200:]}")
    return (f"RUN/tasks/json-version/environment/package.json (UTF-8 with BOM, CRLF); RUN/run_tasks.sh (`gym-pipeline "
            f"stage` materialize, collect, profile of RUN/tasks x 2) exit {code}; json-version rewards {versioned}, "
            f"create-greeting rewards {task_rewards(ctx, 'create-greeting')}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

PRESET_TEST_SH = """#!/bin/bash
# Scores 0 unless every check passes; the score goes to reward.json with the checks' detail (new in this revision).
mkdir -p /logs/verifier
echo 0 > /logs/verifier/reward.txt   # default score, so a crash below still leaves a reward
cd /app
if test "$(tr -d "[:space:]" < /app/version.txt 2>/dev/null)" = "2.7.1"; then
  echo "PASS"
  echo '{"reward": 1.0}' > /logs/verifier/reward.json
else
  echo "FAIL"
  echo '{"reward": 0.0}' > /logs/verifier/reward.json
fi
"""


def preset_default(tasks: Path) -> None:
    (tasks / "json-version" / "tests" / "test.sh").write_text(PRESET_TEST_SH)


@case(
    "verifier_runtime_taskfolder_test_sh_presets_reward_txt_zero_which_outranks_reward_json_written_on_pass",
    "verifier_runtime",
    ["reward.txt", "reward.json", "test.sh"],
    "json-version's tests/test.sh, revised to write its score to reward.json, first writes a default `echo 0 > "
    "reward.txt` 'so a crash still leaves a reward' and never removes it; the reward contract reads reward.txt "
    "before reward.json, so every episode of the task scored 0 although test.sh printed PASS and wrote "
    "{\"reward\": 1.0} to reward.json, while create-greeting still scored (every command exits 0)",
)
def verifier_runtime_taskfolder_test_sh_presets_reward_txt_zero_which_outranks_reward_json_written_on_pass(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["json-version", "create-greeting"], edit=preset_default)
    versioned = task_rewards(ctx, "json-version")
    passed = [p for p in ctx.run.glob("rollouts_episodes/json-version/*/*/verifier/reward.json")
              if json.loads(p.read_text()).get("reward") == 1.0]
    if code or complete(ctx) != 4 or not versioned or any(versioned) or not passed \
            or not any(task_rewards(ctx, "create-greeting")):
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {versioned}: {log_of(ctx, 'run_tasks.log')[-1200:]}")
    return (f"RUN/tasks/json-version/tests/test.sh (presets reward.txt to 0, writes the score to reward.json); "
            f"RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile of RUN/tasks x 2) exit {code}; "
            f"json-version rewards {versioned} (test.sh printed PASS), create-greeting rewards "
            f"{task_rewards(ctx, 'create-greeting')}.")


RENAMED_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# The expected sum comes from task.toml's [verifier.env] (one test.sh for every sales file).
set -u
cd /app
expected="$EXPECTED_SUM"
if test "$(tr -d "[:space:]" < /app/total.txt 2>/dev/null)" = "$expected"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL (expected $expected)"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def renamed_expected(tasks: Path) -> None:
    task = tasks / "csv-column-total"
    (task / "tests" / "test.sh").write_text(RENAMED_TEST_SH)
    toml = task / "task.toml"
    toml.write_text(toml.read_text().replace("[agent]", '[verifier.env]\nEXPECTED_TOTAL = "435"\n\n[agent]', 1))


@case(
    "verifier_runtime_taskfolder_test_sh_reads_renamed_expected_variable_that_task_toml_verifier_env_still_sets_old_name",
    "verifier_runtime",
    ["EXPECTED_SUM", "EXPECTED_TOTAL", "[verifier.env]", "test.sh"],
    "csv-column-total's tests/test.sh takes the expected total from task.toml's [verifier.env]; in this revision the "
    "author renamed the variable in test.sh to EXPECTED_SUM, but task.toml still sets EXPECTED_TOTAL, and test.sh "
    "runs with `set -u`: every verification stopped at 'EXPECTED_SUM: unbound variable' before writing a reward, so "
    "every episode of the task was scored 0 as harbor:missing_reward, while create-greeting still scored",
)
def verifier_runtime_taskfolder_test_sh_reads_renamed_expected_variable_that_task_toml_verifier_env_still_sets_old_name(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["csv-column-total", "create-greeting"], edit=renamed_expected)
    summed = task_rewards(ctx, "csv-column-total")
    missing = [r for r in got if r.get("failure_kind") == "harbor:missing_reward"]
    text = everything(ctx)
    if code or complete(ctx) != 4 or not summed or any(summed) or not missing \
            or "EXPECTED_SUM: unbound variable" not in text or not any(task_rewards(ctx, "create-greeting")):
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {summed}, {len(missing)}: "
                          f"{log_of(ctx, 'run_tasks.log')[-1200:]}")
    return (f"RUN/tasks/csv-column-total/tests/test.sh (`set -u`, reads $EXPECTED_SUM) and task.toml ([verifier.env] "
            f"EXPECTED_TOTAL); RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile of RUN/tasks x 2) "
            f"exit {code}; csv-column-total rewards {summed} ({len(missing)} harbor:missing_reward), create-greeting "
            f"rewards {task_rewards(ctx, 'create-greeting')}.")


if __name__ == "__main__":
    sys.exit(main("sixty_seventh_held_out", __file__, __doc__))
