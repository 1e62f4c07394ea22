"""Build the SIXTY-SIXTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/sixty_sixth_held_out.py --out tests/data/diagnosis_corpus/sixty_sixth_held_out [--only CASE ...]

This set was written after the sixty-five earlier sets (first_held_out.py ... sixty_fifth_held_out.py), from the guides
alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`,
`check-stale`), task folders in Harbor's format run in their Docker sandboxes, Docker containers and images the
user's scripts start and build, and the user's own shell and Python tooling, settings, deploy scripts,
data-preparation scripts and verifiers. The output of every command is captured as a user would
(`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data, scripts,
settings, verifier code). Each case injects one cause, different in mechanism from those of the sixty-five earlier
sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not
written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), and PYTHONPATH set to this checkout. Run it from a
foreground shell. Containers and images it makes are named `h66-...` and removed at the end of their recipe.
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


def remove_image(tag: str) -> None:
    subprocess.run(["docker", "rmi", "-f", tag], capture_output=True, check=False)


# =====================================================================================================
# healthy
# =====================================================================================================

LINT_STEP = """
# optional: lint /app/config.json when a task ships one (most do not); a failure here is not scored
python3 - <<'PY' || echo "lint: skipped (this task has no /app/config.json)"
import json
json.load(open("/app/config.json"))
print("lint: /app/config.json OK")
PY
"""


def lint_steps(tasks: Path) -> None:
    for test in tasks.glob("*/tests/test.sh"):
        test.write_text(test.read_text() + LINT_STEP)


@case(
    "healthy_taskfolder_test_sh_optional_config_lint_prints_caught_python_traceback_after_reward",
    "healthy",
    [],
    "nothing is wrong: the task author appended an optional, unscored lint of /app/config.json to every "
    "tests/test.sh (`python3 - <<'PY' ... PY || echo 'lint: skipped'`); none of these tasks ships a config.json, so "
    "each verifier log ends with a Python 'Traceback ... FileNotFoundError' and 'lint: skipped', but the reward was "
    "written before the lint and every episode was verified, scored and profiled",
)
def healthy_taskfolder_test_sh_optional_config_lint_prints_caught_python_traceback_after_reward(ctx: Ctx) -> str:
    code, got = week(ctx, ["create-greeting", "count-error-lines"], edit=lint_steps)
    text = everything(ctx)
    if code or complete(ctx) != 4 or "Traceback" not in text or "FileNotFoundError" not in text \
            or not any(rewards(got)) or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {rewards(got)}: {log_of(ctx, 'run_tasks.log')[-1200:]}")
    return (f"RUN/tasks/*/tests/test.sh (optional config lint after the reward, its traceback caught); "
            f"RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile of RUN/tasks x 2) exit {code}; "
            f"{complete(ctx)} of 4 episodes, rewards {rewards(got)}.")


DEDUPE_PREP_PY = '''"""prep.py: the labelling sheet (questions.csv) -> tasks.jsonl, one task per distinct (question, answer)."""
import csv
import json

with open("questions.csv", newline="") as handle:
    rows = list(csv.DictReader(handle))
seen, kept = set(), []
for row in rows:
    key = (row["question"].strip(), row["answer"].strip())
    if key in seen:
        continue
    seen.add(key)
    kept.append(row)
if len(kept) < len(rows):
    print(f"WARNING: dropped {len(rows) - len(kept)} duplicate rows (same question and answer) from questions.csv")
with open("tasks.jsonl", "w") as out:
    for row in kept:
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": row["answer"], "extraction_mode": "final_answer", "case_sensitive": False}) + "\\n")
print(f"prep: wrote {len(kept)} tasks to tasks.jsonl")
'''

DEDUPE_SHEET = [
    ("What is the capital of Kenya?", "Nairobi"),
    ("How many strings does a standard violin have?", "4"),
    ("Which planet has the most moons known in 2023?", "Saturn"),
    ("What is the freezing point of water in Fahrenheit?", "32"),
    ("Who developed the theory of general relativity?", "Albert Einstein"),
    ("What is the square root of 144?", "12"),
    ("Which metal is liquid at room temperature?", "Mercury"),
]


@case(
    "healthy_builtin_prep_drops_repeated_sheet_rows_and_warns_about_duplicates",
    "healthy",
    [],
    "nothing is wrong: two labellers pasted overlapping batches into this week's questions.csv, so three rows "
    "repeat another row exactly; the user's prep.py keeps one task per distinct (question, answer) and prints "
    "'WARNING: dropped 3 duplicate rows'; the seven distinct tasks were materialized x 3, all collected and profiled",
)
def healthy_builtin_prep_drops_repeated_sheet_rows_and_warns_about_duplicates(ctx: Ctx) -> str:
    run = ctx.run
    sheet = DEDUPE_SHEET[:4] + [DEDUPE_SHEET[1]] + DEDUPE_SHEET[4:] + [DEDUPE_SHEET[0], DEDUPE_SHEET[5]]
    write_sheet(run / "questions.csv", sheet)
    (run / "prep.py").write_text(DEDUPE_PREP_PY)
    _, better = truth_checkpoints(ctx, DEDUPE_SHEET)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval of the labelling sheet\n"
                      f"cd {run}\n{BIN}/python prep.py\n" + pipeline_lines(url, data="tasks.jsonl"))
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 21 or "dropped 3 duplicate rows" not in log or mean_of(got) < 0.3 \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {mean_of(got)}: {log[-1500:]}")
    return (f"RUN/questions.csv (10 rows, 3 exact repeats); RUN/prep.py (drops repeats with a warning); "
            f"RUN/run_eval.sh (prep, materialize 7 x 3, collect, profile) exit {code}; {complete(ctx)} of 21 "
            f"rollouts, mean reward {mean_of(got):.2f}.")


WAIT_LOOP = """echo "== waiting for the model server to finish loading"
until curl -sSf {url}/models > /dev/null; do sleep 1; done
echo "model server ready: $(curl -s {url}/models)"
"""


@case(
    "healthy_builtin_run_script_wait_loop_logs_curl_503_errors_while_model_server_loads",
    "healthy",
    [],
    "nothing is wrong: the model server answers 503 on every route while it loads (like vLLM loading weights), "
    "and the user's run_eval.sh waits with `until curl -sSf URL/models; do sleep 1; done`, so its log starts with a "
    "run of 'curl: (22) The requested URL returned error: 503' lines; the loop waited until the server answered 200, "
    "and every rollout was then collected and profiled",
)
def healthy_builtin_run_script_wait_loop_logs_curl_503_errors_while_model_server_loads(ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 70)
    url, _ = ctx.policy(better, "--latency-ms 20 --slow-start-s 8")
    script = run / "run_eval.sh"
    script.write_text(f"#!/bin/bash\n# weekly eval, started together with the model server\ncd {run}\n"
                      + WAIT_LOOP.format(url=url) + pipeline_lines(url))
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or log.count("error: 503") < 2 or not (run / "rollouts_reward_profiling.jsonl"
                                                                           ).exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"serve-policy --slow-start-s 8 (503 while loading); RUN/run_eval.sh (curl -sSf wait loop, materialize "
            f"6 x 3, collect, profile) exit {code}; {log.count('error: 503')} curl 503 lines, {complete(ctx)} of 18 "
            f"rollouts, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# model_serving
# =====================================================================================================

DEPLOY_SH = """#!/bin/bash
# deploy.sh STEP: copy checkpoint STEP from the training share to the serving disk; the server loads serving/current
cp -r {ckpts}/$1 {serving}/current
echo "deployed $1 to {serving}/current"
ls {serving}/current
"""

SERVED_RUN = """#!/bin/bash
# weekly eval against the model server on the serving disk (its URL is the first argument)
cd {run}
URL=$1
echo "served model: $(curl -s $URL/models)"
"""


@case(
    "model_serving_builtin_deploy_script_cp_r_nests_new_checkpoint_inside_served_folder_so_old_weights_are_served",
    "model_serving",
    ["cp -r", "serving/current", "checkpoint"],
    "the user's deploy.sh copies the checkpoint to the serving disk with `cp -r CKPTS/$STEP serving/current`; last "
    "week serving/current did not exist, so step_0100 became it; this week it existed, so cp put step_0200 inside it "
    "(serving/current/step_0200) and the model server, started on serving/current, loaded last week's step_0100 "
    "again: the whole eval scored the old checkpoint (every command exits 0)",
)
def model_serving_builtin_deploy_script_cp_r_nests_new_checkpoint_inside_served_folder_so_old_weights_are_served(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (weaker, better) = builtin_rows(ctx, 8, 30)
    serving = ctx.work / "serving"
    serving.mkdir()
    (run / "deploy.sh").write_text(DEPLOY_SH.format(ckpts=weaker.parent, serving=serving))
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
    served_step = json.loads((serving / "current" / "config.json").read_text()).get("step")
    check_url, _ = ctx.policy(better, "--latency-ms 20", log=str(ctx.work / "check_server.log"))
    ctx.commands.pop()
    fresh = scratch_collect(ctx, check_url)
    if code1 or code2 or code or len(got) != 24 or not (serving / "current" / "step_0200").is_dir() \
            or served_step == json.loads((better / "config.json").read_text()).get("step") \
            or not mean_of(fresh) > mean_of(got):
        raise failed(ctx, f"exit {code1}/{code2}/{code}, {len(got)}, step {served_step}, {mean_of(got)} vs "
                          f"{mean_of(fresh)}: {log_of(ctx, 'deploy.log')}")
    return (f"RUN/deploy.sh (`cp -r CKPTS/$STEP serving/current`); last week deploy step_0100 + RUN/run_eval.sh; this "
            f"week deploy step_0200 exit {code2} (nested as serving/current/step_0200), server on serving/current "
            f"(step {served_step}), RUN/run_eval.sh exit {code}; {len(got)} rollouts, mean reward {mean_of(got):.2f} "
            f"(step_0200 scores {mean_of(fresh):.2f} on the same inputs).")


# =====================================================================================================
# throughput_resources
# =====================================================================================================


@case(
    "throughput_builtin_collect_concurrency_one_from_ordering_debug_cannot_finish_within_ci_step_timeout",
    "throughput_resources",
    ["--concurrency", "CONCURRENCY"],
    "the user's eval_settings.sh still has CONCURRENCY=1 from last week's hunt for an ordering bug (it was 16); the "
    "model takes about 1.5 s per answer, so 30 rollouts one at a time need about 45 s, but the CI step gives the "
    "collect 25 s (`timeout 25`): the collect was killed part-way and the profile refused the incomplete rollouts",
)
def throughput_builtin_collect_concurrency_one_from_ordering_debug_cannot_finish_within_ci_step_timeout(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 10, 40)
    url, _ = ctx.policy(better, "--latency-ms 1500")
    (run / "eval_settings.sh").write_text(
        "# weekly eval settings\nREPEATS=3\nCONCURRENCY=1   # one request at a time while chasing the ordering bug "
        "(was 16)\n")
    script = run / "run_eval.sh"
    script.write_text(
        f"#!/bin/bash\n# weekly eval (CI job; each step has its own time budget)\ncd {run}\nsource eval_settings.sh\n"
        f"{GP} materialize --input string_match.jsonl --num-repeats $REPEATS --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"timeout 25 {GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
        f"--model-url {url} --env string_match --concurrency $CONCURRENCY\n"
        "echo \"collect step exit: $?\"\n"
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    log = log_of(ctx, "run_eval.log")
    done = len(unique_keys(run / "rollouts.jsonl")) if (run / "rollouts.jsonl").exists() else 0
    if "collect step exit: 124" not in log or not 0 < done < 30:
        raise failed(ctx, f"exit {code}, {done}: {log[-1500:]}")
    return (f"RUN/eval_settings.sh (CONCURRENCY=1); RUN/run_eval.sh (materialize 10 x 3, `timeout 25` collect "
            f"--concurrency 1 against a 1.5 s model, profile) exit {code}; the collect was killed (exit 124) after "
            f"{done} of 30 rollouts.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

IMAGE_PREP_PY = '''"""prep.py URL OUT: the labelling team's current sheet (CSV over HTTP) -> tasks.jsonl."""
import csv
import io
import json
import sys
import urllib.request

url, out = sys.argv[1], sys.argv[2]
rows = list(csv.DictReader(io.StringIO(urllib.request.urlopen(url).read().decode())))
with open(out, "w") as handle:
    for row in rows:
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        handle.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": row["answer"], "extraction_mode": "final_answer", "case_sensitive": False}) + "\\n")
print(f"prep: {len(rows)} tasks from {url}")
'''

PREP_DOCKERFILE = """FROM gym-pipeline/base:bookworm
COPY prep.py /opt/prep/prep.py
# the eval's input is frozen into the image: fetch the labelling team's current sheet and build the tasks
RUN python3 /opt/prep/prep.py {url} /opt/prep/tasks.jsonl
"""

GOOD_SHEET = [
    ("What is the capital of Turkey?", "Ankara"),
    ("How many players are on a soccer team on the field?", "11"),
    ("Which gas makes up most of Earth's atmosphere?", "Nitrogen"),
    ("What is the chemical symbol of potassium?", "K"),
    ("How many days are in a leap year?", "366"),
    ("Who composed the Four Seasons?", "Antonio Vivaldi"),
    ("What is the smallest prime number?", "2"),
    ("What is the capital of Switzerland?", "Bern"),
    ("How many hearts does an octopus have?", "3"),
    ("Which organ produces insulin?", "Pancreas"),
]
OLD_SHEET = [("What is the capital of Turkey?", "Istanbul"), GOOD_SHEET[1], GOOD_SHEET[2],
             ("What is the chemical symbol of potassium?", "P"), GOOD_SHEET[4], GOOD_SHEET[5]]


@case(
    "cache_resume_docker_build_layer_cache_reuses_sheet_fetch_step_so_prep_image_keeps_last_weeks_labels",
    "cache_resume",
    ["docker build", "--no-cache", "cache"],
    "the user's prep image fetches the labelling team's sheet in a Dockerfile RUN step and run_eval.sh rebuilds it "
    "every week with `docker build`; the RUN line is the same text every week, so Docker reused last week's layer "
    "('Using cache') and the image still held last week's 6 tasks with two wrong labels (Istanbul, P): the sheet's "
    "fixes and its 4 new questions never reached the eval, and the model's right answers Ankara and K scored 0 "
    "(every command exits 0)",
)
def cache_resume_docker_build_layer_cache_reuses_sheet_fetch_step_so_prep_image_keeps_last_weeks_labels(
        ctx: Ctx) -> str:
    run = ctx.run
    share = ctx.work / "labels_share"
    share.mkdir()
    port = free_port()
    ctx.bg(f"{BIN}/python -m http.server {port} --bind 127.0.0.1 --directory {share}", "logs/labels_share.log")
    image_dir = run / "prep_image"
    image_dir.mkdir()
    (image_dir / "prep.py").write_text(IMAGE_PREP_PY)
    (image_dir / "Dockerfile").write_text(PREP_DOCKERFILE.format(url=f"http://127.0.0.1:{port}/questions.csv"))
    _, better = truth_checkpoints(ctx, GOOD_SHEET)
    url, _ = ctx.policy(better, "--latency-ms 20")
    tag = f"h66-weekly-prep-{port}:latest"
    script = run / "run_eval.sh"
    script.write_text(
        f"#!/bin/bash\n# weekly eval: rebuild the prep image (it fetches this week's sheet), then evaluate\ncd {run}\n"
        f"docker build --network host -t {tag} prep_image\n"
        f"docker run --rm --network none {tag} cat /opt/prep/tasks.jsonl > tasks.jsonl\n"
        "echo \"tasks: $(wc -l < tasks.jsonl)\"\n" + pipeline_lines(url, data="tasks.jsonl"))
    try:
        write_sheet(share / "questions.csv", OLD_SHEET)
        code1 = ctx.sh(f"bash {script}", "logs/run_eval_last_week.log", timeout=300)
        ctx.note("(a week later: the labelling team fixed two labels and added four questions to the shared sheet)")
        write_sheet(share / "questions.csv", GOOD_SHEET)
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_image(tag)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    tasks = {r["_ng_task_index"] for r in got}
    wrong = [r for r in got if r.get("expected_answer") in ("Istanbul", "P")]
    if code1 or code or "Using cache" not in log or len(tasks) != 6 or not wrong or any(rewards(wrong)) \
            or not any(rewards(got)):
        raise failed(ctx, f"exit {code1}/{code}, tasks {tasks}, {rewards(wrong)}: {log[-1500:]}")
    return (f"RUN/prep_image/Dockerfile (RUN step fetches the shared sheet); RUN/run_eval.sh (docker build, tasks out "
            f"of the image, materialize x 3, collect, profile) last week exit {code1}, this week (sheet: 10 questions, "
            f"2 labels fixed) exit {code}: the build used the cached layer; {len(got)} rollouts over {len(tasks)} "
            f"tasks, rewards {rewards(got)}.")


# =====================================================================================================
# infra
# =====================================================================================================


@case(
    "infra_docker_collect_container_left_on_engines_default_network_so_model_url_loopback_is_its_own",
    "infra",
    ["--network host", "network"],
    "the user moved the collect into a container with the platform's run template, which sets no network; on this "
    "node the Docker engine has no bridge, so the container got only its own loopback, and the model URL "
    "http://127.0.0.1:PORT/v1, where the model server listens on the node, was refused inside it: no rollout was "
    "collected and the profile found nothing to read",
)
def infra_docker_collect_container_left_on_engines_default_network_so_model_url_loopback_is_its_own(ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 50)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h66-collect-{free_port()}"
    script = run / "run_eval.sh"
    script.write_text(
        f"#!/bin/bash\n# weekly eval; the collect runs in the eval container (platform run template)\ncd {run}\n"
        f"echo \"model server on the node: $(curl -s {url}/models)\"\n"
        f"{GP} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"docker run --rm --name {name} {python_mounts()} -v {run}:{run} -e PYTHONPATH={ROOT} -w {run} "
        f"gym-pipeline/base:bookworm \\\n  {BIN}/python -m gym_pipeline.cli collect --inputs "
        f"rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {url} --env string_match "
        "--concurrency 4\n"
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    finally:
        subprocess.run(["docker", "rm", "-f", name], capture_output=True, check=False)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    text = log + text_of(run / "rollouts_failures.jsonl")
    if got or not any(word in text for word in ("Connection refused", "Cannot connect", "connect")) \
            or "sim-policy" not in log and '"data"' not in log:
        raise failed(ctx, f"exit {code}, {len(got)}: {log[-2000:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run` collect without --network host, model URL {url}, "
            f"profile) exit {code}; the model server answered on the node but not in the container; {len(got)} "
            f"rollouts.")


SHARD_PREP_PY = '''"""prep.py (runs in the prep container): questions.csv + every hard-set shard in /shards -> tasks.jsonl."""
import csv
import glob
import json

def read(path):
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))

base = read("questions.csv")
shards = sorted(glob.glob("/shards/*.csv"))
hard = [row for shard in shards for row in read(shard)]
print(f"prep: {len(base)} base rows, {len(hard)} hard-set rows from {len(shards)} shard files")
with open("tasks.jsonl", "w") as out:
    for row in base + hard:
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": row["answer"], "extraction_mode": "final_answer", "case_sensitive": False}) + "\\n")
print(f"prep: wrote {len(base) + len(hard)} tasks to tasks.jsonl")
'''

BASE_ROWS = GOOD_SHEET[:6]
HARD_ROWS = [
    ("What is the capital of Burkina Faso?", "Ouagadougou"),
    ("Which element has atomic number 74?", "Tungsten"),
    ("In which year was the Treaty of Westphalia signed?", "1648"),
    ("What is the largest moon of Neptune?", "Triton"),
]


@case(
    "infra_docker_prep_container_bind_mounts_lab_share_path_not_mounted_on_node_so_docker_creates_it_empty",
    "infra",
    ["mount", "--mount type=bind", "lab share"],
    "the user's run_eval.sh runs prep in a container with the hard-set shards bind-mounted from the lab share "
    "(`-v .../mnt/lab-share/labels/hard-set:/shards:ro`); the lab share is not mounted on this node, and `docker run -v` "
    "silently creates a missing host path as an empty folder, so prep read 0 hard-set rows from 0 shard files and "
    "the eval ran on the 6 base questions only: the week's hard set was never evaluated (every command exits 0)",
)
def infra_docker_prep_container_bind_mounts_lab_share_path_not_mounted_on_node_so_docker_creates_it_empty(
        ctx: Ctx) -> str:
    run = ctx.run
    share = ctx.work / "mnt" / "lab-share" / "labels" / "hard-set"  # where the lab share is mounted on other nodes
    write_sheet(run / "questions.csv", BASE_ROWS)
    (run / "prep.py").write_text(SHARD_PREP_PY)
    _, better = truth_checkpoints(ctx, BASE_ROWS + HARD_ROWS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text(
        f"#!/bin/bash\n# weekly eval: base questions + this week's hard-set shards from the lab share\ncd {run}\n"
        f"docker run --rm --network none -v {run}:/eval -v {share}:/shards:ro -w /eval gym-pipeline/base:bookworm "
        "python3 prep.py\n" + pipeline_lines(url, data="tasks.jsonl"))
    ctx.note("(on other nodes the lab share is mounted at WORK/mnt/lab-share; on this node it is not)")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    tasks = {r["_ng_task_index"] for r in got}
    if code or "0 hard-set rows from 0 shard files" not in log or len(tasks) != 6 or not share.is_dir() \
            or any(share.iterdir()):
        raise failed(ctx, f"exit {code}, tasks {tasks}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (`docker run -v RUN:/eval -v WORK/mnt/lab-share/labels/hard-set:/shards:ro ... prep.py`, "
            f"materialize x 3, collect, profile) exit {code}; the share path did not exist and was created empty; "
            f"prep read 0 shard files; {len(got)} rollouts over {len(tasks)} tasks (the 4 hard-set questions missing).")


# =====================================================================================================
# config
# =====================================================================================================

ENV_SETTINGS = """# weekly eval settings (any of them can be set in the environment to override)
ENV=${ENV:-string_match}          # which environment (dataset and verifier)
REPEATS=${REPEATS:-3}
CONCURRENCY=${CONCURRENCY:-4}
"""


@case(
    "config_builtin_settings_variable_named_env_defaults_only_when_unset_so_login_shells_env_startup_file_wins",
    "config",
    ["ENV", "eval_settings.sh"],
    "the user's eval_settings.sh names the environment setting ENV with a default (`ENV=${ENV:-string_match}`); on "
    "this node the login profile exports ENV=/root/.shrc (the startup file of POSIX sh), so the default never applied "
    "and the run script materialized for agent '/root/.shrc_simple_agent' and collected with --env /root/.shrc, "
    "which the collect refused: nothing was evaluated",
)
def config_builtin_settings_variable_named_env_defaults_only_when_unset_so_login_shells_env_startup_file_wins(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 60)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "eval_settings.sh").write_text(ENV_SETTINGS)
    script = run / "run_eval.sh"
    script.write_text(
        f"#!/bin/bash\n# weekly eval\ncd {run}\nsource eval_settings.sh\necho \"== env $ENV, repeats $REPEATS\"\n"
        f"{GP} materialize --input string_match.jsonl --num-repeats $REPEATS --agent ${{ENV}}_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {url} "
        "--env $ENV --concurrency $CONCURRENCY\n"
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    ctx.note("(the node's login profile exports ENV=/root/.shrc)")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300, env={**ctx.env, "ENV": "/root/.shrc"})
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if got or "env /root/.shrc" not in log or "/root/.shrc" not in log.split("== env", 1)[-1].split("\n", 1)[-1]:
        raise failed(ctx, f"exit {code}, {len(got)}: {log[-1500:]}")
    return (f"RUN/eval_settings.sh (ENV=${{ENV:-string_match}}); RUN/run_eval.sh (materialize with agent "
            f"${{ENV}}_simple_agent, collect --env $ENV, profile) with ENV=/root/.shrc exported by the login profile, "
            f"exit {code}; {len(got)} rollouts.")


# =====================================================================================================
# data_schema
# =====================================================================================================

SENTENCE_LABELS = [
    ("What is the capital of Egypt?", "Cairo"),
    ("How many sides does an octagon have?", "8"),
    ("Which planet is closest to the Sun?", "Mercury"),
    ("What is 15 multiplied by 4?", "60"),
    ("Who wrote the novel 1984?", "George Orwell"),
    ("How many centimetres are in a metre?", "100"),
    ("What is the hardest natural substance?", "Diamond"),
    ("What is the capital of Norway?", "Oslo"),
]


@case(
    "data_schema_builtin_text_labels_end_with_full_stop_under_labelling_style_guide_v2",
    "data_schema",
    ["expected_answer", "full stop", "period"],
    "the labelling team's style guide v2 says written answers end with a full stop, so this week's export labels read "
    "'Cairo.', 'Mercury.', 'George Orwell.' (numbers stay bare); the verifier takes the model's final answer without "
    "its trailing period and compares it with the label as written, so every text question scored 0 although the "
    "model answered Cairo, Mercury and George Orwell, while the numeric ones still scored (every command exits 0)",
)
def data_schema_builtin_text_labels_end_with_full_stop_under_labelling_style_guide_v2(ctx: Ctx) -> str:
    run = ctx.run
    export = [(q, a if a.isdigit() else a + ".") for q, a in SENTENCE_LABELS]
    write_tasks(run / "string_match.jsonl", export)
    _, better = truth_checkpoints(ctx, SENTENCE_LABELS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval of the labelling team's export\n"
                      f"cd {run}\n" + pipeline_lines(url))
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    got = rows_of(run / "rollouts.jsonl")
    text = [r for r in got if str(r.get("expected_answer", "")).endswith(".")]
    answered = [r for r in text if f"{r.get('extracted_answer')}." == r.get("expected_answer")]
    numeric = [r for r in got if not str(r.get("expected_answer", "")).endswith(".")]
    if code or len(got) != 24 or not answered or any(rewards(text)) or not any(rewards(numeric)):
        raise failed(ctx, f"exit {code}, {len(got)}, {len(answered)}, {rewards(got)}: "
                          f"{log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/string_match.jsonl (text labels ending with a full stop); RUN/run_eval.sh (materialize 8 x 3, "
            f"collect, profile) exit {code}; text-label rewards {rewards(text)} ({len(answered)} answered right), "
            f"numeric-label rewards {rewards(numeric)}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

FRACTION_TEST_SH = """#!/bin/bash
# Partial credit (new in this revision): one point per check passed, written as passed/total.
cd /app
passed=0
total=2
[ -s /app/count.txt ] && passed=$((passed + 1))
if test "$(tr -d "[:space:]" < /app/count.txt 2>/dev/null)" = "3"; then passed=$((passed + 1)); fi
echo "checks passed: $passed of $total"
echo "$passed/$total" > /logs/verifier/reward.txt
"""


def fraction_reward(tasks: Path) -> None:
    (tasks / "count-error-lines" / "tests" / "test.sh").write_text(FRACTION_TEST_SH)


@case(
    "verifier_runtime_taskfolder_test_sh_partial_credit_written_as_passed_over_total_fraction_text",
    "verifier_runtime",
    ["reward.txt", "passed/total"],
    "count-error-lines' tests/test.sh, revised for partial credit, writes the score to reward.txt as the text "
    "'passed/total' ('2/2'); reward.txt must hold one number, so every episode of the task was scored 0 as "
    "harbor:invalid_reward although its checks passed, while create-greeting still scored (every command exits 0)",
)
def verifier_runtime_taskfolder_test_sh_partial_credit_written_as_passed_over_total_fraction_text(ctx: Ctx) -> str:
    code, got = week(ctx, ["count-error-lines", "create-greeting"], edit=fraction_reward)
    counted = task_rewards(ctx, "count-error-lines")
    invalid = [r for r in got if r.get("failure_kind") == "harbor:invalid_reward"]
    text = everything(ctx)
    if code or complete(ctx) != 4 or not counted or any(counted) or not invalid \
            or "checks passed: 2 of 2" not in text or not any(task_rewards(ctx, "create-greeting")):
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {counted}, {len(invalid)}: "
                          f"{log_of(ctx, 'run_tasks.log')[-1200:]}")
    return (f"RUN/tasks/count-error-lines/tests/test.sh (reward.txt holds 'passed/total'); RUN/run_tasks.sh "
            f"(`gym-pipeline stage` materialize, collect, profile of RUN/tasks x 2) exit {code}; count-error-lines "
            f"rewards {counted} ({len(invalid)} harbor:invalid_reward, checks passed 2 of 2), create-greeting rewards "
            f"{task_rewards(ctx, 'create-greeting')}.")


if __name__ == "__main__":
    sys.exit(main("sixty_sixth_held_out", __file__, __doc__))
