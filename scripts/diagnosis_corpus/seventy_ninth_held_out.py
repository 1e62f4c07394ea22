"""Build the SEVENTY-NINTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/seventy_ninth_held_out.py --out tests/data/diagnosis_corpus/seventy_ninth_held_out [--only CASE ...]

This set was written after the seventy-eight earlier sets (first_held_out.py ... seventy_eighth_held_out.py), from the guides
alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
Docker containers the user's scripts start, task-folder (Harbor-format) tasksets, and the user's own shell and Python
tooling, settings, data-preparation scripts and verifiers. The output of every command is captured as a user would
(`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data, scripts,
settings, verifier code). Each case injects one cause, different in mechanism from those of the seventy-eight earlier
sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not
written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), and PYTHONPATH set to this checkout. Run it from a
foreground shell. Containers it makes are named `h79-...` and removed at the end of their recipe.
"""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from urllib.parse import urlparse

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import BUNDLED_TASKS, failed, served, stage, task_checkpoints, workspace_sweep  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_seventh_held_out import everything, task_rewards, tasks_script, week  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from recipes import BIN, GP, Ctx, case, main, rows_of, text_of  # noqa: E402
from seventy_first_held_out import docker_collect_script, remove_container, write_rows  # noqa: E402
from sixty_fourth_held_out import mean_of, pipeline_lines, question_row  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_sixth_held_out import free_port  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def run_eval(ctx: Ctx, body: str, comment: str, log: str = "logs/run_eval.log", timeout: float = 300) -> int:
    script = ctx.run / "run_eval.sh"
    script.write_text(f"#!/bin/bash\n# {comment}\ncd {ctx.run}\n" + body)
    return ctx.sh(f"bash {script}", log, timeout=timeout)


def labelled(rows: list[dict], *labels: str) -> list[dict]:
    return [r for r in rows if str(r.get("expected_answer")) in labels]


def tasks_in(rows: list[dict], task: str) -> list[dict]:
    return [r for r in rows if task in json.dumps(r)]


# =====================================================================================================
# healthy
# =====================================================================================================

LS_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
echo "== what the agent left in /app (debug.log only exists when the agent logged something)"
ls -l /app/hello.txt /app/debug.log
cd /app
if test "$(cat /app/hello.txt 2>/dev/null)" = "Hello, Gym!"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def listing_test(tasks: Path) -> None:
    (tasks / "create-greeting" / "tests" / "test.sh").write_text(LS_TEST_SH)


@case(
    "healthy_taskfolder_test_sh_lists_optional_debug_log_so_ls_reports_no_such_file_before_pass",
    "healthy",
    [],
    "nothing is wrong: create-greeting's tests/test.sh first lists what the agent left with `ls -l /app/hello.txt "
    "/app/debug.log`; debug.log is optional and the agent never writes it, so every verifier output says "
    "'ls: cannot access '/app/debug.log': No such file or directory' (and ls exits 2), but the script goes on, the "
    "check passed and wrote reward 1, and every episode of both tasks was collected, scored and profiled",
)
def healthy_taskfolder_test_sh_lists_optional_debug_log_so_ls_reports_no_such_file_before_pass(ctx: Ctx) -> str:
    code, got = week(ctx, ["create-greeting", "json-version"], edit=listing_test)
    greeting = task_rewards(ctx, "create-greeting")
    text = everything(ctx)
    if code or complete(ctx) != 4 or not greeting or not any(greeting) or "No such file or directory" not in text \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/create-greeting/tests/test.sh (`ls -l /app/hello.txt /app/debug.log` first); "
            f"RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile of RUN/tasks x 2) exit {code}; "
            f"{complete(ctx)} episodes, create-greeting rewards {greeting}.")


SMALL_SANDBOX = """
[environment]
build_timeout_sec = 120.0
cpus = 0.25
memory_mb = 128
allow_internet = false
"""


def small_sandboxes(tasks: Path) -> None:
    for name in ("create-greeting", "json-version"):
        toml = tasks / name / "task.toml"
        text = toml.read_text()
        toml.write_text(text[:text.index("[environment]")] + SMALL_SANDBOX.lstrip("\n"))


@case(
    "healthy_taskfolder_task_toml_sandboxes_sized_at_quarter_cpu_and_128_mb_from_the_shared_cluster_quota",
    "healthy",
    [],
    "nothing is wrong: the team shrank both tasks' [environment] to `cpus = 0.25` and `memory_mb = 128` to fit the "
    "shared cluster's quota, which looks like starving the sandboxes; the tasks are a file write and a one-line "
    "Python JSON read, well within a quarter CPU and 128 MB, so every episode finished in time, was scored and "
    "profiled",
)
def healthy_taskfolder_task_toml_sandboxes_sized_at_quarter_cpu_and_128_mb_from_the_shared_cluster_quota(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["create-greeting", "json-version"], edit=small_sandboxes)
    greeting, version = task_rewards(ctx, "create-greeting"), task_rewards(ctx, "json-version")
    if code or complete(ctx) != 4 or not any(greeting) or not any(version) \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {greeting} {version}: "
                          f"{log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/*/task.toml ([environment] cpus = 0.25, memory_mb = 128); RUN/run_tasks.sh (`gym-pipeline "
            f"stage` materialize, collect, profile x 2) exit {code}; {complete(ctx)} episodes, rewards {greeting} "
            f"and {version}.")


# the answer key, hand-written in YAML; the values that YAML 1.1 would read as other types
TRICKY_PAIRS = [
    ("Which ISO 3166 two-letter code does Norway have?", "NO"),
    ("What time is half past one, written as H:MM?", "1:30"),
    ("Write the permission bits rwxr-xr-x as a four-digit octal mode with a leading zero.", "0755"),
    ("Which position of a light switch turns the lamp off: on or off?", "off"),
    ("What is the capital of Chile?", "Santiago"),
    ("What is the capital of Kenya?", "Nairobi"),
    ("Who painted the Mona Lisa?", "Leonardo da Vinci"),
    ("How many legs does a spider have?", "8"),
]
CHANGED = {"NO": "False", "1:30": "90", "0755": "493", "off": "False"}

PREP_YAML_PY = '''"""prep.py: the answer key (answers.yaml, a list of question/answer entries) -> string_match.jsonl."""
import json

import yaml

with open("answers.yaml", encoding="utf-8") as handle:
    key = yaml.safe_load(handle)
with open("string_match.jsonl", "w") as out:
    for entry in key:
        text = f"{entry['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": str(entry["answer"]), "extraction_mode": "final_answer", "case_sensitive": False}) + "\\n")
print(f"prep: {len(key)} rows written")
'''


def answer_key(path: Path, quoted: bool) -> None:
    lines = ["# answer key of the weekly quiz (one entry per question)"]
    if quoted:
        lines.append("# every answer is quoted: bare no/off/yes, 1:30 or 0755 are not strings in YAML")
    for question, answer in TRICKY_PAIRS:
        lines += [f"- question: {json.dumps(question)}", f"  answer: {json.dumps(answer) if quoted else answer}"]
    path.write_text("\n".join(lines) + "\n")


def yaml_week(ctx: Ctx, quoted: bool) -> tuple[int, list[dict], list[str]]:
    run = ctx.run
    _, better = truth_checkpoints(ctx, TRICKY_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    answer_key(run / "answers.yaml", quoted)
    (run / "prep.py").write_text(PREP_YAML_PY)
    code = run_eval(ctx, f"{BIN}/python prep.py\n" + pipeline_lines(url), "weekly eval of the YAML answer key")
    labels = [r["expected_answer"] for r in rows_of(run / "string_match.jsonl")]
    return code, rows_of(run / "rollouts.jsonl"), labels


@case(
    "healthy_builtin_yaml_answer_key_quotes_country_code_no_and_clock_time_so_they_stay_text",
    "healthy",
    [],
    "nothing is wrong: the answer key is YAML and holds answers like NO (Norway's code), 1:30, 0755 and off, which "
    "YAML would read as a boolean or a number; the user quoted every answer, so prep.py wrote them as the same "
    "text, the model's answers were scored against the right labels and every rollout was collected and profiled",
)
def healthy_builtin_yaml_answer_key_quotes_country_code_no_and_clock_time_so_they_stay_text(ctx: Ctx) -> str:
    code, got, labels = yaml_week(ctx, quoted=True)
    tricky = labelled(got, *CHANGED)
    if code or complete(ctx) != 24 or labels != [a for _, a in TRICKY_PAIRS] or not any(rewards(tricky)) \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {labels}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/answers.yaml (every answer quoted); RUN/prep.py (yaml.safe_load); RUN/run_eval.sh (prep, "
            f"materialize 8 x 3, collect, profile) exit {code}; labels {labels}; {complete(ctx)} of 24 rollouts, "
            f"mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# data_schema
# =====================================================================================================


@case(
    "data_schema_builtin_yaml_answer_key_left_unquoted_so_no_and_off_load_as_false_and_1_30_as_sexagesimal_90",
    "data_schema",
    ["answers.yaml", "quote", "YAML", "string"],
    "the user's answer key answers.yaml leaves its answers unquoted, and YAML 1.1 (PyYAML's yaml.safe_load in "
    "prep.py) types bare scalars: NO and off became the boolean False, 1:30 the base-60 integer 90 and 0755 the octal "
    "493, so prep.py wrote the labels 'False', 'False', '90' and '493'; the model's right answers to those four "
    "questions scored 0 while the other four scored (every command exits 0)",
)
def data_schema_builtin_yaml_answer_key_left_unquoted_so_no_and_off_load_as_false_and_1_30_as_sexagesimal_90(
        ctx: Ctx) -> str:
    code, got, labels = yaml_week(ctx, quoted=False)
    cut = labelled(got, *CHANGED.values())
    others = [r for r in got if r not in cut]
    if code or len(got) != 24 or len(cut) != 12 or any(rewards(cut)) or not any(rewards(others)):
        raise failed(ctx, f"exit {code}, {len(got)}, {labels}, {rewards(cut)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/answers.yaml (answers unquoted); RUN/prep.py (yaml.safe_load, str() of each answer); "
            f"RUN/run_eval.sh (prep, materialize 8 x 3, collect, profile) exit {code}; labels {labels}; rewards of "
            f"the four retyped labels {rewards(cut)}, of the others mean {mean_of(others):.2f}.")


STAMP_PY = '''"""release_stamp.py FILE...: stamp generated files with where they come from (release tooling)."""
import sys

HEADER = "// generated by release.py from release.toml -- do not edit by hand\\n"

for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    if not text.startswith(HEADER):
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(HEADER + text)
        print(f"stamped {path}")
'''


@case(
    "data_schema_taskfolder_release_stamp_prepends_comment_line_to_package_json_so_it_is_no_longer_json",
    "data_schema",
    ["package.json", "comment", "release_stamp.py", "JSON"],
    "the user's run_tasks.sh now runs the release tooling's release_stamp.py over the taskset's generated files, "
    "which prepends a `// generated by release.py ... do not edit` line to json-version's environment/package.json: "
    "JSON has no comments, so in the sandbox the agent's `json.load(open('/app/package.json'))` failed "
    "(JSONDecodeError), version.txt stayed empty and every json-version episode scored 0, while create-greeting "
    "still scored (every command exits 0)",
)
def data_schema_taskfolder_release_stamp_prepends_comment_line_to_package_json_so_it_is_no_longer_json(
        ctx: Ctx) -> str:
    run = ctx.run
    (run / "release_stamp.py").write_text(STAMP_PY)
    stamp = f"{BIN}/python release_stamp.py tasks/json-version/environment/package.json"
    code, got = week(ctx, ["json-version", "create-greeting"], preamble=[stamp])
    version = task_rewards(ctx, "json-version")
    package = text_of(run / "tasks" / "json-version" / "environment" / "package.json")
    if code or complete(ctx) != 4 or not version or any(version) or not package.startswith("//") \
            or not any(task_rewards(ctx, "create-greeting")) or "JSONDecodeError" not in everything(ctx):
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {version}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/release_stamp.py (prepends a '//' header line); RUN/run_tasks.sh (release_stamp.py on "
            f"tasks/json-version/environment/package.json, `gym-pipeline stage` materialize, collect, profile x 2) "
            f"exit {code}; {complete(ctx)} episodes, json-version rewards {version}, create-greeting rewards "
            f"{task_rewards(ctx, 'create-greeting')}.")


# =====================================================================================================
# verifier_runtime (task folders)
# =====================================================================================================

DIFF_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# The expected file lives beside this script (tests/expected_hello.txt), so the greeting is kept in one place.
if diff /app/hello.txt /tests/expected_hello.txt; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def expected_file(tasks: Path) -> None:
    tests = tasks / "create-greeting" / "tests"
    (tests / "expected_hello.txt").write_text("Hello, Gym!")  # saved by an editor that adds no final newline
    (tests / "test.sh").write_text(DIFF_TEST_SH)


@case(
    "verifier_runtime_taskfolder_test_sh_diffs_output_against_expected_file_saved_without_final_newline",
    "verifier_runtime",
    ["expected_hello.txt", "newline", "diff", "test.sh"],
    "create-greeting's tests/test.sh now compares the agent's file with `diff /app/hello.txt "
    "/tests/expected_hello.txt`, but expected_hello.txt was saved without a final newline while `Hello, Gym!` written "
    "with echo ends with one; diff reports '\\ No newline at end of file', so every episode took the FAIL branch and "
    "scored 0 although the agent wrote the right greeting, while json-version still scored (every command exits 0)",
)
def verifier_runtime_taskfolder_test_sh_diffs_output_against_expected_file_saved_without_final_newline(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["create-greeting", "json-version"], edit=expected_file)
    greeting = task_rewards(ctx, "create-greeting")
    text = everything(ctx)
    if code or complete(ctx) != 4 or not greeting or any(greeting) or not any(task_rewards(ctx, "json-version")) \
            or "No newline at end of file" not in text or "< Hello, Gym!" not in text:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/create-greeting/tests/expected_hello.txt (no final newline); RUN/tasks/create-greeting/tests/"
            f"test.sh (`diff /app/hello.txt /tests/expected_hello.txt`); RUN/run_tasks.sh (`gym-pipeline stage` "
            f"materialize, collect, profile x 2) exit {code}; {complete(ctx)} episodes, create-greeting rewards "
            f"{greeting}, json-version rewards {task_rewards(ctx, 'json-version')}.")


COLON_PAIRS = [
    ("What time is half past one, written as H:MM?", "1:30"),
    ("Which aspect ratio do widescreen TVs use, written W:H?", "16:9"),
    ("Which verse begins 'For God so loved the world'? Give book chapter:verse.", "John 3:16"),
    ("What is the capital of Portugal?", "Lisbon"),
    ("What is the capital of Egypt?", "Cairo"),
    ("How many days are in a leap year?", "366"),
    ("Which gas do plants absorb from the air?", "Carbon dioxide"),
    ("What is the largest planet of the solar system?", "Jupiter"),
]
COLON_LABELS = ("1:30", "16:9", "John 3:16")

LAST_COLON_VERIFIER = '''
"""my_verifier.py: exact-answer scoring for the weekly quiz (the model ends with 'Final answer: <answer>')."""


def score(row, response_text):
    last = response_text.strip().splitlines()[-1]
    answer = last.rsplit(":", 1)[-1].strip()  # what follows "Final answer:"
    return {"reward": float(answer.lower() == str(row["expected_answer"]).lower()), "extracted_answer": answer}
'''


@case(
    "verifier_runtime_stage_workspace_verifier_takes_text_after_last_colon_so_time_ratio_and_verse_labels_never_match",
    "verifier_runtime",
    ["my_verifier.py", "rsplit", "colon", "Final answer:"],
    "the user's workspace verifier my_verifier.py extracts the answer as what follows the LAST colon of the "
    "response's last line (`last.rsplit(':', 1)[-1]`), meant to cut 'Final answer:' off; this week's quiz has "
    "answers that contain colons (1:30, 16:9, John 3:16), so 'Final answer: 1:30' was read as '30' and the model's "
    "right answers to those three questions all scored 0, while the other questions scored (every stage exits 0)",
)
def verifier_runtime_stage_workspace_verifier_takes_text_after_last_colon_so_time_ratio_and_verse_labels_never_match(
        ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, COLON_PAIRS)
    data = write_rows(run / "quiz.jsonl", [question_row(q, a) for q, a in COLON_PAIRS])
    url, _ = ctx.policy(better, "--latency-ms 20")
    sweep = workspace_sweep(ctx, "weekly_quiz", data, better, {"verifier": "my_verifier:score"}, LAST_COLON_VERIFIER,
                            num_repeats=3, concurrency=3)
    codes = [stage(ctx, sweep, "materialize", better, "weekly_quiz"),
             stage(ctx, sweep, "collect", better, "weekly_quiz", *served(url)),
             stage(ctx, sweep, "profile", better, "weekly_quiz")]
    got = rows_of(run / "rollouts.jsonl")
    colon_tasks = {index for index, (_, answer) in enumerate(COLON_PAIRS) if answer in COLON_LABELS}
    cut = [r for r in got if r.get("_ng_task_index") in colon_tasks]
    others = [r for r in got if r not in cut]
    extracted = sorted({str(r.get("extracted_answer")) for r in cut})
    if any(codes) or len(got) != 24 or len(cut) != 9 or any(rewards(cut)) or not any(rewards(others)) \
            or "30" not in extracted:
        raise failed(ctx, f"exit {codes}, {len(got)}, {rewards(cut)}, {extracted}")
    return (f"RUN/verifiers/my_verifier.py (answer = last line's text after its last colon); RUN/quiz.jsonl (8 "
            f"questions, 3 with colons in their answers); `gym-pipeline stage` materialize, collect, profile (x 3) "
            f"exit {codes}; extracted for the colon answers {extracted}, rewards {rewards(cut)}; others mean "
            f"{mean_of(others):.2f}.")


# =====================================================================================================
# cache_resume (task folders)
# =====================================================================================================


def tarball(ctx: Ctx, path: Path, names: list[str]) -> None:
    """The team's weekly taskset drop: a tar.gz of a `taskset/` folder with `names` (made in WORK, not a command)."""
    staging = ctx.work / "staging"
    shutil.rmtree(staging, ignore_errors=True)
    (staging / "taskset").mkdir(parents=True)
    shutil.copy(BUNDLED_TASKS / "dataset.toml", staging / "taskset" / "dataset.toml")
    for name in names:
        shutil.copytree(BUNDLED_TASKS / name, staging / "taskset" / name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    shutil.make_archive(str(path).removesuffix(".tar.gz"), "gztar", staging, "taskset")


@case(
    "cache_resume_taskfolder_run_script_unpacks_weekly_taskset_drop_only_when_tasks_folder_is_missing",
    "cache_resume",
    ["tasks", "tar", "unpack", "remove"],
    "the user's run_tasks.sh unpacks the team's weekly drop with `[ -d tasks ] || (mkdir tasks && tar xzf "
    "$DROP -C tasks --strip-components 1)`, to save the unpacking when the folder is there: last week's unpacked "
    "tasks/ is still there, so this week's drop (create-greeting retired, top-word added) was never unpacked and "
    "the run evaluated and profiled last week's taskset (every command exits 0)",
)
def cache_resume_taskfolder_run_script_unpacks_weekly_taskset_drop_only_when_tasks_folder_is_missing(
        ctx: Ctx) -> str:
    run = ctx.run
    drop = ctx.work / "share" / "drops" / "taskset_current.tar.gz"
    unpack = f"[ -d tasks ] || (mkdir tasks && tar xzf {drop} -C tasks --strip-components 1)"
    every = ctx.work / "every_task"
    every.mkdir()
    for name in ("json-version", "create-greeting", "top-word"):
        shutil.copytree(BUNDLED_TASKS / name, every / name)
    checkpoint = task_checkpoints(ctx, every)[1]
    ctx.note("(last week's drop: json-version, create-greeting)")
    tarball(ctx, drop, ["json-version", "create-greeting"])
    code1 = ctx.sh(f"cd {run} && {unpack} && ls tasks", "logs/unpack_last_week.log", timeout=60)
    ctx.note("(this week's drop: json-version, top-word; create-greeting retired)")
    tarball(ctx, drop, ["json-version", "top-word"])
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = tasks_script(ctx, run / "tasks", checkpoint, url, [unpack, "ls tasks"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    retired, new = tasks_in(got, "create-greeting"), tasks_in(got, "top-word")
    if code1 or code or not retired or new or complete(ctx) != 4:
        raise failed(ctx, f"exit {code1}/{code}, {complete(ctx)}, {len(retired)} {len(new)}: "
                          f"{log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"WORK/share/drops/taskset_current.tar.gz (last week: json-version, create-greeting; this week: "
            f"json-version, top-word); last week's unpack exit {code1}; RUN/run_tasks.sh (`[ -d tasks ] || tar xzf "
            f"...`, `gym-pipeline stage` materialize, collect, profile) exit {code}; {complete(ctx)} episodes, "
            f"{len(retired)} of the retired create-greeting, {len(new)} of the new top-word.")


# =====================================================================================================
# model_serving
# =====================================================================================================

LATEST_BODY = """# serve the trainer's newest checkpoint through its 'latest' link, then evaluate it
STEP=step_0200
(cd {ckpts}/.. && ln -sfn checkpoints/$STEP checkpoints/latest)
rm -f policy_url.txt
{gp} serve-policy --port 0 --ready-file policy_url.txt --checkpoint {ckpts}/latest --latency-ms 20 \\
  >> logs/model_server.log 2>&1 &
for i in $(seq 1 40); do [ -s policy_url.txt ] && break; sleep 0.5; done
URL=$(cat policy_url.txt 2>/dev/null)
echo "policy server at $URL"
{gp} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
{gp} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url "$URL" \\
  --env string_match --concurrency 4
{gp} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "model_serving_builtin_serve_script_latest_link_made_with_target_relative_to_wrong_folder_dangles",
    "model_serving",
    ["ln -s", "latest", "relative", "checkpoint"],
    "the user's run_eval.sh points the policy server at checkpoints/latest, made with `ln -sfn checkpoints/$STEP "
    "checkpoints/latest` from the checkpoints' parent folder: a symlink's relative target is resolved from the "
    "link's own folder, so latest points at checkpoints/checkpoints/step_0200, which does not exist; serve-policy "
    "could not load the checkpoint and exited, no server wrote its URL, and collect had no model server to ask",
)
def model_serving_builtin_serve_script_latest_link_made_with_target_relative_to_wrong_folder_dangles(
        ctx: Ctx) -> str:
    run = ctx.run
    (run / "logs").mkdir(exist_ok=True)
    _, (_, better) = builtin_rows(ctx, 6, 40)
    ckpts = better.parent
    code = run_eval(ctx, LATEST_BODY.format(gp=GP, ckpts=ckpts), "weekly eval: serve the newest checkpoint")
    link = ckpts / "latest"
    server_log = text_of(run / "logs" / "model_server.log")
    if not link.is_symlink() or link.exists() or complete(ctx) or not server_log.strip():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {link.is_symlink()} {link.exists()}: "
                          f"{server_log[-800:]} {log_of(ctx, 'run_eval.log')[-1000:]}")
    return (f"RUN/run_eval.sh (`ln -sfn checkpoints/$STEP checkpoints/latest`, serve-policy --checkpoint "
            f"WORK/checkpoints/latest &, wait for policy_url.txt, materialize, collect, profile) exit {code}; the "
            f"link points at {ctx._shown(str(link.readlink()))} (dangling); {complete(ctx)} of 18 rollouts.")


# =====================================================================================================
# config
# =====================================================================================================

EVAL_TOML = """# eval.toml: settings of the weekly eval (read by run_eval.py)
[eval]
repeats = 3
concurrency = 4

[notify]
channel = "#eval-results"
on_failure_only = false

# this week's policy server (the serve step writes its URL here)
model_url = "{url}"
"""

RUN_EVAL_PY = '''"""run_eval.py: the weekly eval, from eval.toml (materialize, collect, profile)."""
import subprocess
import sys
import tomllib

with open("eval.toml", "rb") as handle:
    settings = tomllib.load(handle)
cfg = settings["eval"]
url = cfg.get("model_url", "http://127.0.0.1:8000/v1")  # the usual local vLLM
print(f"eval: model {url}, repeats {cfg['repeats']}, concurrency {cfg['concurrency']}", flush=True)
gp = "GP"
steps = [
    [gp, "materialize", "--input", "string_match.jsonl", "--num-repeats", str(cfg["repeats"]),
     "--agent", "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"],
    [gp, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
     "--model-url", url, "--env", "string_match", "--concurrency", str(cfg["concurrency"])],
    [gp, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
]
codes = [subprocess.run(step).returncode for step in steps]
print(f"eval: exit codes {codes}")
sys.exit(max(codes))
'''


@case(
    "config_builtin_model_url_appended_at_end_of_eval_toml_lands_in_notify_table_so_eval_uses_default",
    "config",
    ["eval.toml", "model_url", "[eval]", "table"],
    "the user's serve step appends `model_url = \"...\"` at the end of eval.toml, under a comment, after the "
    "[notify] table: in TOML a key belongs to the last table header above it, so the URL became notify.model_url, "
    "and run_eval.py, which reads settings['eval'].get('model_url', ...), fell back to the usual local vLLM at "
    "http://127.0.0.1:8000/v1, where nothing listens: collect reached no model server, although this week's "
    "policy server was up at the URL written in the file",
    netns=True,
)
def config_builtin_model_url_appended_at_end_of_eval_toml_lands_in_notify_table_so_eval_uses_default(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 46)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "eval.toml").write_text(EVAL_TOML.format(url=url))
    (run / "run_eval.py").write_text(RUN_EVAL_PY.replace('"GP"', repr(str(GP))))
    code = ctx.sh(f"cd {run} && {BIN}/python run_eval.py", "logs/run_eval.log", timeout=300)
    log = log_of(ctx, "run_eval.log")
    if "127.0.0.1:8000" not in log or complete(ctx) or str(urlparse(url).port) in log.split("eval: model", 1)[-1][:60]:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.toml (model_url = \"{url}\" appended after the [notify] table); RUN/run_eval.py "
            f"(settings['eval'].get('model_url', 'http://127.0.0.1:8000/v1')) exit {code}; collect used "
            f"http://127.0.0.1:8000/v1; {complete(ctx)} of 18 rollouts.")


# =====================================================================================================
# infra
# =====================================================================================================


@case(
    "infra_docker_collect_container_template_entrypoint_is_team_init_script_absent_from_the_base_image",
    "infra",
    ["--entrypoint", "team-init.sh", "image"],
    "the user's run_eval.sh runs collect in a container from the team's `docker run` template, which sets "
    "`--entrypoint /usr/local/bin/team-init.sh` (the credentials set-up script baked into the team's own images); "
    "the eval uses the plain base image gym-pipeline/base:bookworm, which has no such script, so Docker could not "
    "start the container ('exec: ... no such file or directory', exit 127), collect never ran and profile found "
    "no rollouts",
)
def infra_docker_collect_container_template_entrypoint_is_team_init_script_absent_from_the_base_image(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 52)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h79-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, "--entrypoint /usr/local/bin/team-init.sh",
                                   "collect runs in the eval container (team template flags)")
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if "team-init.sh" not in log or "collect container exit: 0" in log or complete(ctx) \
            or (run / "rollouts_reward_profiling.jsonl").exists() and complete(ctx):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run --entrypoint /usr/local/bin/team-init.sh ... "
            f"gym-pipeline/base:bookworm python -m gym_pipeline.cli collect`, profile) exit {code}; Docker could not "
            f"exec the entrypoint; {complete(ctx)} rollouts.")


if __name__ == "__main__":
    sys.exit(main("seventy_ninth_held_out", __file__, __doc__))
