"""Build the FIFTY-FOURTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/fifty_fourth_held_out.py --out tests/data/diagnosis_corpus/fifty_fourth_held_out [--only CASE ...]

This set was written after the fifty-three earlier sets (first_held_out.py ... fifty_third_held_out.py), from the guides
alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
task folders run in Docker sandboxes, Docker containers the user's scripts start, and the user's own shell scripts,
settings, serving scripts, data-preparation scripts, workspace verifiers and task files. The output of every command
is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's
own inputs (data, scripts, settings, verifier code). Each case injects one cause, different in mechanism from those
of the fifty-three earlier sets, and each recipe checks that its fault really happened (it raises RecipeError
otherwise, and the case is not written). About half of the failures are silent: every command exits 0 and only the
result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), and PYTHONPATH set to this checkout. Run it from a
foreground shell.
"""
from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import checkpoints, failed, task_checkpoints, user_taskset, workspace_sweep  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_second_held_out import run_script  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from forty_second_held_out import workspace_script  # noqa: E402
from forty_seventh_held_out import said_right  # noqa: E402
from forty_third_held_out import CAPITALS_WRONG  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from recipes import (  # noqa: E402
    GP,
    PY,
    Ctx,
    case,
    main,
    rows_of,
    text_of,
    wait_for,
)
from thirty_fifth_held_out import mean_reward, pipeline  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_third_held_out import taskset_script, write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================

CAPITALS = [(q, a) for q, a, _ in CAPITALS_WRONG]


def everything(ctx: Ctx) -> str:
    return "".join(text_of(p) for p in ctx.run.rglob("*") if p.is_file()
                    and p.suffix in (".log", ".jsonl", ".json", ".txt", ".out"))


def task_rewards(ctx: Ctx, task: str) -> list[float]:
    return rewards([r for r in rows_of(ctx.run / "rollouts.jsonl") if task in json.dumps(r)])


def docker_client():
    from gym_pipeline.taskfolders.sandbox import docker_client as client

    return client()


def remove_dangling_volumes_holding(ctx: Ctx, before: set[str], marker: str) -> None:
    """Remove the anonymous volumes this recipe's sandboxes left (new since `before`, dangling, holding `marker`)."""
    client = docker_client()
    for volume in client.volumes.list(filters={"dangling": True}):
        if volume.name in before:
            continue
        if (Path(volume.attrs.get("Mountpoint", "/nonexistent")) / marker).exists():
            volume.remove(force=True)
    ctx.note(f"(the sandboxes' anonymous volumes holding {marker} removed afterwards)")


def serve_in_background(ctx: Ctx, script: Path, ready: Path, log: str = "logs/model_server.log",
                        prefix: str = "") -> str:
    ctx.bg(f"{prefix}bash {script}", log)
    wait_for(lambda: ready.exists() and ready.read_text().strip() != "", 30, script.name)
    return ready.read_text().strip()


# =====================================================================================================
# healthy
# =====================================================================================================

FLOCK_LINES = [
    "# one weekly eval at a time on this node: the lock file stays between runs, flock (not its existence) decides",
    "if [ -e eval.lock ]; then echo \"note: eval.lock is there (written by pid $(cat eval.lock) on "
    "$(date -r eval.lock +%F)); flock decides\"; fi",
    "exec 9>>eval.lock",
    "flock -n 9 || { echo 'another weekly eval holds eval.lock: not starting'; exit 1; }",
    "echo $$ > eval.lock",
    "echo '== weekly eval'",
]


@case(
    "healthy_builtin_run_script_takes_flock_on_lock_file_left_behind_by_last_weeks_killed_run",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh takes an flock on eval.lock so that two weekly evals never run at once; "
    "last week's run was killed and left eval.lock behind with its pid, so the log notes 'eval.lock is there (written "
    "by pid ...)', but a lock dies with its process and flock granted it at once; materialize, collect and profile "
    "completed every rollout",
)
def healthy_builtin_run_script_takes_flock_on_lock_file_left_behind_by_last_weeks_killed_run(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 28)
    ctx.sh(f"cd {run} && bash -c 'exec 9>>eval.lock; flock -n 9 && echo $$ > eval.lock && kill -9 $$'",
           "logs/last_week.log")
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run_script(ctx, url, FLOCK_LINES)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = complete(ctx)
    if code or got != 24 or "flock decides" not in log_of(ctx, "run_eval.log") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {log_of(ctx, 'run_eval.log')[-800:]}")
    return (f"(last week's run killed holding eval.lock: logs/last_week.log); RUN/run_eval.sh (`exec 9>>eval.lock; "
            f"flock -n 9`, materialize 8 x 3, collect, profile) exit {code}; {got} rollouts, mean reward "
            f"{mean_reward(run / 'rollouts.jsonl')}.")


def provenance_labels(tasks: Path) -> None:
    for dockerfile in tasks.glob("*/environment/Dockerfile"):
        dockerfile.write_text(dockerfile.read_text().rstrip("\n") + "\n# provenance and hygiene (data team's image "
                              "checklist)\nLABEL org.opencontainers.image.authors=\"data-team@example.org\" "
                              "org.opencontainers.image.version=\"2026.49\"\nENV PYTHONDONTWRITEBYTECODE=1 "
                              "LANG=C.UTF-8\n")


@case(
    "healthy_taskfolder_dockerfiles_get_provenance_labels_and_run_script_lists_old_task_images",
    "healthy",
    [],
    "nothing is wrong: the data team's image checklist adds OCI provenance LABELs and `ENV PYTHONDONTWRITEBYTECODE=1 "
    "LANG=C.UTF-8` to every task Dockerfile, and the user's run_tasks.sh first lists the task images already on the "
    "host (many old tags of other tasks); the images were built anew, every episode ran in its sandbox and was "
    "verified and profiled",
)
def healthy_taskfolder_dockerfiles_get_provenance_labels_and_run_script_lists_old_task_images(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["sort-unique-words", "replace-spelling"], edit=provenance_labels)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, [
        "echo '== task images already on this host'",
        "docker image ls --format '{{.Repository}}:{{.Tag}}  {{.CreatedSince}}' | grep '^gym-pipeline-task/' "
        "| head -n 8",
        "echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 4 or not any(rewards(got)) or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {rewards(got)}: {log_of(ctx, 'run_tasks.log')[-800:]}")
    return (f"RUN/tasks/*/environment/Dockerfile (OCI LABELs, `ENV PYTHONDONTWRITEBYTECODE=1 LANG=C.UTF-8`); "
            f"RUN/run_tasks.sh (`docker image ls`, then `gym-pipeline stage` materialize, collect, profile of RUN/tasks "
            f"x 2) exit {code}; {complete(ctx)} of 4 episodes, rewards {rewards(got)}.")


# =====================================================================================================
# data_schema
# =====================================================================================================

DEDUP_PY = '''"""dedup.py: drop the duplicate rows of the labelling tool's export (rows edited twice are exported twice)."""
import sys

text = open(sys.argv[1], encoding="utf-8").read()
lines = [line for line in text.splitlines() if line.strip()]
unique = list(dict.fromkeys(lines))
with open(sys.argv[2], "w", encoding="utf-8") as out:
    out.write("\\n".join(unique) + "\\n")
print(f"dedup: {len(unique)} unique rows of {len(lines)}")
'''

LS = "\u2028"  # LINE SEPARATOR: how the reading passages pasted from the wiki keep their line breaks


@case(
    "data_schema_builtin_prep_dedup_with_str_splitlines_cuts_rows_at_unicode_line_separators_in_pasted_passages",
    "data_schema",
    ["splitlines"],
    "the user's dedup.py reads the labelling tool's export with `text.splitlines()`; two questions carry reading "
    "passages pasted from the wiki, whose line breaks are U+2028 LINE SEPARATOR characters, which the tool writes "
    "raw (ensure_ascii off) inside the JSON strings; str.splitlines() also splits at U+2028, so those rows were cut "
    "into pieces that are not JSON and materialize refused the dataset; nothing was collected",
)
def data_schema_builtin_prep_dedup_with_str_splitlines_cuts_rows_at_unicode_line_separators_in_pasted_passages(
        ctx: Ctx) -> str:
    run = ctx.run
    pairs = list(CAPITALS)
    pairs[1] = (f"Read the note first.{LS}Note: Canada's largest city is Toronto.{LS}What is the capital of Canada?",
                "Ottawa")
    pairs[2] = (f"Read the note first.{LS}Note: Zurich is Switzerland's largest city.{LS}What is the capital of "
                f"Switzerland?", "Bern")
    better = truth_checkpoints(ctx, pairs)[1]
    rows = [question_row(q, a) for q, a in pairs]
    export = rows[:5] + [rows[1], rows[3]] + rows[5:]  # two rows edited twice, exported twice
    (run / "export.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in export),
                                      encoding="utf-8")
    (run / "dedup.py").write_text(DEDUP_PY)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run_script(ctx, url, ["echo '== weekly eval: dedup the export'",
                                   "python3 dedup.py export.jsonl string_match.jsonl"])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) or "dedup:" not in log or (run / "string_match.jsonl").read_text().count("\n") <= 8:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/export.jsonl (two prompts with U+2028 inside, written raw), RUN/dedup.py (`text.splitlines()`); "
            f"RUN/run_eval.sh (dedup, materialize 8 x 3, collect, profile) exit {code}; no rollouts.")


JOIN_SH = """#!/bin/sh
# prep.sh: join this week's question files into one dataset, leaving out the rows marked retired
: > string_match.jsonl
for part in parts/*.jsonl; do
  while IFS= read -r line; do
    case "$line" in *'"retired": true'*) continue ;; esac
    echo "$line" >> string_match.jsonl
  done < "$part"
  echo "prep: $part joined"
done
echo "prep: $(wc -l < string_match.jsonl) rows"
"""


@case(
    "data_schema_builtin_prep_script_run_by_sh_whose_echo_turns_escaped_backslashes_of_prompts_into_control_codes",
    "data_schema",
    ["echo", "printf"],
    "the user's prep.sh (`#!/bin/sh`, run as `sh prep.sh`) copies the week's rows with `echo \"$line\"`; /bin/sh is "
    "dash, whose echo interprets backslash escapes, so every JSON `\\\\boxed{}` in a prompt lost a backslash and became "
    "`\\b` (a backspace) followed by 'oxed{}': those prompts asked for nothing the model knew, and every rollout of "
    "the boxed-answer tasks scored 0 while the other tasks scored as usual (every command exits 0)",
)
def data_schema_builtin_prep_script_run_by_sh_whose_echo_turns_escaped_backslashes_of_prompts_into_control_codes(
        ctx: Ctx) -> str:
    run = ctx.run
    source = ctx.dataset("string_match", 8, start=0, name="week.jsonl")
    better = checkpoints(ctx, "string_match", source)[1]
    lines = source.read_text().splitlines(keepends=True)
    boxed = [i for i, line in enumerate(lines) if "\\\\boxed" in line]
    (run / "parts").mkdir()
    (run / "parts" / "a_general.jsonl").write_text("".join(lines[:4]))
    (run / "parts" / "b_held_back.jsonl").write_text("".join(lines[4:]))
    (run / "prep.sh").write_text(JOIN_SH)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run_script(ctx, url, ["echo '== weekly eval: prepare'", "sh prep.sh"], data="string_match.jsonl")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    hit = [r for r in got if r.get("_ng_task_index") in boxed]
    other = [r for r in got if r.get("_ng_task_index") not in boxed]
    if code or complete(ctx) != 24 or len(boxed) < 2 or any(rewards(hit)) or not any(rewards(other)) \
            or "\\b" not in (run / "string_match.jsonl").read_text():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, boxed {boxed}: {rewards(hit)} {rewards(other)}")
    return (f"RUN/parts/*.jsonl, RUN/prep.sh (`#!/bin/sh`, `echo \"$line\" >> string_match.jsonl`) run with sh "
            f"(dash); RUN/run_eval.sh (prep, materialize 8 x 3, collect, profile) exit {code}; {complete(ctx)} "
            f"rollouts; the {len(boxed)} boxed-answer tasks' rewards {rewards(hit)}, the others' mean "
            f"{sum(rewards(other)) / max(len(other), 1):.2f}.")


PARQUET_PY = '''"""prep_parquet.py: the data team now ships questions.parquet; we still feed the eval JSONL."""
import json
import sys

import pandas as pd

frame = pd.read_parquet(sys.argv[1])
with open(sys.argv[2], "w") as out:
    for row in frame.to_dict("records"):
        out.write(json.dumps(row, default=str) + "\\n")  # default=str: numpy scalars and timestamps as text
print(f"prep: {len(frame)} rows, columns {list(frame.columns)}")
'''


@case(
    "data_schema_builtin_prep_converts_parquet_with_json_default_str_so_nested_input_lists_become_numpy_text",
    "data_schema",
    ["default=str", "tolist"],
    "the user's prep_parquet.py turns the data team's questions.parquet into JSONL with `frame.to_dict('records')` "
    "and `json.dumps(row, default=str)`; pandas gives the nested list columns as numpy arrays, which json cannot "
    "write, and default=str wrote them as their printed form, so every row's responses_create_params.input is the "
    "text \"[{'role': 'user', ... array([...], dtype=object)}]\" instead of a message list; no rollout got a "
    "reward",
)
def data_schema_builtin_prep_converts_parquet_with_json_default_str_so_nested_input_lists_become_numpy_text(
        ctx: Ctx) -> str:
    import pyarrow as pa
    import pyarrow.parquet as pq

    run = ctx.run
    source = ctx.dataset("string_match", 8, start=8, name="week.jsonl")
    better = checkpoints(ctx, "string_match", source)[1]
    pq.write_table(pa.Table.from_pylist(rows_of(source)), run / "questions.parquet")
    (run / "prep_parquet.py").write_text(PARQUET_PY)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run_script(ctx, url, ["echo '== weekly eval: parquet -> jsonl'",
                                   f"{PY} prep_parquet.py questions.parquet string_match.jsonl"])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    if any(rewards(got)) or "dtype=object" not in text_of(run / "string_match.jsonl"):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/questions.parquet, RUN/prep_parquet.py (`json.dumps(row, default=str)` of `to_dict('records')`); "
            f"RUN/run_eval.sh (prep, materialize 8 x 3, collect, profile) exit {code}; {len(got)} rollouts, rewards "
            f"{sorted(set(rewards(got)))}.")


VOLUME_DOCKERFILE = """FROM gym-pipeline/base:bookworm
WORKDIR /app
# task state lives on a volume, as in the team's service template (it survives container restarts)
VOLUME /app
# the word list is shipped compressed (it is large on the real task)
COPY words.txt.gz /app/words.txt.gz
RUN gunzip /app/words.txt.gz
"""


def words_on_volume(tasks: Path) -> None:
    env = tasks / "sort-unique-words" / "environment"
    (env / "words.txt.gz").write_bytes(gzip.compress((env / "words.txt").read_bytes(), mtime=0))
    (env / "words.txt").unlink()
    (env / "Dockerfile").write_text(VOLUME_DOCKERFILE)


def ran_command(ctx: Ctx, task: str, needle: str) -> int:
    """How many of `task`'s episodes ran a command containing `needle` (the agent did what solves the task)."""
    found = 0
    for path in ctx.run.rglob("transcript.json"):
        if f"/{task}/" in str(path) and any(needle in c.get("command", "")
                                            for c in json.loads(path.read_text()).get("commands", [])):
            found += 1
    return found


def files_in_image(tasks: Path, task_id: str, folder: str) -> str:
    """`ls folder` in a fresh container of the task's image, the one its sandboxes ran (the recipe's own check)."""
    from gym_pipeline.taskfolders.loader import load_taskset
    from gym_pipeline.taskfolders.sandbox import ensure_image

    client = docker_client()
    task = next(t for t in load_taskset(tasks).tasks if t.task_id == task_id)
    image, _ = ensure_image(client, task)
    container = client.containers.run(image, ["ls", folder], network_mode="none", detach=True)
    try:
        container.wait(timeout=60)
        return container.logs().decode()
    finally:
        container.remove(v=True, force=True)


@case(
    "data_schema_taskfolder_dockerfile_declares_volume_before_run_step_that_unpacks_the_task_file",
    "data_schema",
    ["VOLUME"],
    "the task author gave sort-unique-words' Dockerfile the team template's `VOLUME /app`, then `COPY words.txt.gz` "
    "and `RUN gunzip /app/words.txt.gz`; once a folder is declared a VOLUME, what a later RUN step changes in it is "
    "thrown away, so the image holds only words.txt.gz: the agent's `sort -u /app/words.txt` found no file and "
    "every sort-unique-words episode scored 0 while replace-spelling scored as usual (the build log shows gunzip "
    "succeeding)",
)
def data_schema_taskfolder_dockerfile_declares_volume_before_run_step_that_unpacks_the_task_file(ctx: Ctx) -> str:
    before = {v.name for v in docker_client().volumes.list()}
    tasks = user_taskset(ctx, ["sort-unique-words", "replace-spelling"], edit=words_on_volume)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    try:
        code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
        in_image = files_in_image(tasks, "sort-unique-words", "/app")
    finally:
        remove_dangling_volumes_holding(ctx, before, "words.txt.gz")
    words, other = task_rewards(ctx, "sort-unique-words"), task_rewards(ctx, "replace-spelling")
    if len(words) != 2 or any(words) or not any(other) or not ran_command(ctx, "sort-unique-words", "sort -u") \
            or in_image.split() != ["words.txt.gz"]:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {words} {other}, image /app: {in_image}: "
                          f"{log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/sort-unique-words/environment/Dockerfile (`VOLUME /app`, then `COPY words.txt.gz`, `RUN "
            f"gunzip`); RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile of RUN/tasks x 2) exit "
            f"{code}; sort-unique-words rewards {words}, replace-spelling rewards {other}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

RESUB_VERIFIER = '''"""my_verifier.py: the answer after the 'Final answer:' marker (any case), compared with the label."""
import re


def score(row, response_text):
    # drop the reasoning: everything up to and including the marker, whatever its case and the line breaks
    answer = re.sub(r"^.*final answer:", "", response_text, re.IGNORECASE | re.DOTALL)
    answer = answer.strip().rstrip(".").lower()
    label = str(row["expected_answer"]).strip().lower()
    return {"reward": 1.0 if answer == label else 0.0, "extracted_answer": answer[-80:],
            "expected_answer": row["expected_answer"]}
'''


@case(
    "verifier_runtime_stage_workspace_verifier_passes_regex_flags_to_re_sub_where_count_goes",
    "verifier_runtime",
    ["re.sub", "flags"],
    "the workspace verifier my_verifier.py strips the reasoning with `re.sub(r'^.*final answer:', '', text, "
    "re.IGNORECASE | re.DOTALL)`; re.sub's fourth positional argument is count, not flags, so the pattern ran "
    "case-sensitively without DOTALL, never matched 'Final answer:' across the reasoning lines, and the whole reply "
    "was compared with the label: every answer scored 0, right or wrong, with no error (every command exits 0)",
)
def verifier_runtime_stage_workspace_verifier_passes_regex_flags_to_re_sub_where_count_goes(ctx: Ctx) -> str:
    run = ctx.run
    better = truth_checkpoints(ctx, CAPITALS)[1]
    data = write_jsonl(run / "capitals.jsonl", [question_row(q, a) for q, a in CAPITALS])
    url, _ = ctx.policy(better, "--latency-ms 20")
    sweep = workspace_sweep(ctx, "capitals", data, better, {"verifier": "my_verifier:score"}, RESUB_VERIFIER,
                            num_repeats=3, concurrency=4)
    script = workspace_script(ctx, sweep, better, "capitals", url, ["echo '== weekly eval'"])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    right = [r for r in got if said_right(r)]
    if code or len(got) != 24 or len(right) < 12 or any(rewards(got)):
        raise failed(ctx, f"exit {code}, {len(got)}, right {len(right)}, rewards {rewards(got)}: "
                          f"{log_of(ctx, 'run_eval.log')[-800:]}")
    return (f"RUN/verifiers/my_verifier.py (`re.sub(pattern, '', text, re.IGNORECASE | re.DOTALL)`); RUN/run_eval.sh "
            f"(stages materialize 8 x 3, collect, profile) exit {code}; {len(right)} right answers, every reward "
            f"{sorted(set(rewards(got)))}.")


MAP_VERIFIER = '''"""my_verifier.py: the answer after 'Final answer:' must be the label or one of its aliases (aliases.json,
kept by the labelling team)."""
import json
from pathlib import Path

ALIASES = json.loads((Path(__file__).with_name("aliases.json")).read_text())
MARK = "final answer:"
_accepted = {}


def accepted(label):
    # normalise a label's accepted answers once, not again for every rollout
    if label not in _accepted:
        _accepted[label] = map(str.lower, [label, *ALIASES.get(label, [])])
    return _accepted[label]


def score(row, response_text):
    text = response_text.lower()
    answer = text.rsplit(MARK, 1)[-1].strip().rstrip(".") if MARK in text else None
    label = str(row["expected_answer"]).strip()
    reward = 1.0 if answer is not None and answer in accepted(label) else 0.0
    return {"reward": reward, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
'''

ALIASES = {"Canberra": ["canberra, act"], "Ottawa": ["ottawa, ontario"], "Bern": ["berne"],
           "Paris": ["paris, france"], "42": ["forty-two"], "Tokyo": ["tokyo-to"], "19": ["nineteen"],
           "Mars": ["planet mars"]}


@case(
    "verifier_runtime_stage_workspace_verifier_caches_accepted_answers_as_map_iterator_spent_by_first_rollout",
    "verifier_runtime",
    ["map", "list"],
    "the workspace verifier my_verifier.py caches each label's accepted answers (label and aliases, lower-cased) as "
    "`map(str.lower, [...])`, a one-pass iterator; `answer in` consumes it, so the first rollout of a task is "
    "scored against the full list and every later repeat against what is left of it (nothing, after a wrong "
    "answer): right answers of the second and third repeats scored 0, with no error (every command exits 0)",
)
def verifier_runtime_stage_workspace_verifier_caches_accepted_answers_as_map_iterator_spent_by_first_rollout(
        ctx: Ctx) -> str:
    run = ctx.run
    better = truth_checkpoints(ctx, CAPITALS)[1]
    data = write_jsonl(run / "capitals.jsonl", [question_row(q, a) for q, a in CAPITALS])
    url, _ = ctx.policy(better, "--latency-ms 20")
    sweep = workspace_sweep(ctx, "capitals", data, better, {"verifier": "my_verifier:score"}, MAP_VERIFIER,
                            num_repeats=3, concurrency=4)
    (run / "verifiers" / "aliases.json").write_text(json.dumps(ALIASES, indent=1) + "\n")
    script = workspace_script(ctx, sweep, better, "capitals", url, ["echo '== weekly eval'"])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    right = [r for r in got if said_right(r)]
    zero = [r for r in right if not r.get("reward")]
    if code or len(got) != 24 or len(zero) < 4 or len(zero) == len(right):
        raise failed(ctx, f"exit {code}, {len(got)}, right {len(right)}, zero {len(zero)}: "
                          f"{log_of(ctx, 'run_eval.log')[-800:]}")
    return (f"RUN/verifiers/my_verifier.py (`_accepted[label] = map(str.lower, [...])`), RUN/verifiers/aliases.json; "
            f"RUN/run_eval.sh (stages materialize 8 x 3, collect, profile) exit {code}; {len(right)} right answers, "
            f"{len(zero)} of them scored 0; mean reward {mean_reward(run / 'rollouts.jsonl')}.")


# =====================================================================================================
# config
# =====================================================================================================

CHECK_ROWS = '''"""check_rows.py: the release checklist's schema check of a dataset (run in the release image's python)."""
import json
import sys

rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
bad = [i for i, row in enumerate(rows) if "expected_answer" not in row or "responses_create_params" not in row]
print(f"check_rows: {sys.argv[1]}: {len(rows)} rows, {len(bad)} without label or prompt")
sys.exit(1 if bad else 0)
'''

LOOP_SCRIPT = """#!/bin/bash
# weekly eval of every dataset listed in datasets.txt, each into results/<name>/
cd RUN_DIR
while read -r ds; do
  name=$(basename "$ds" .jsonl)
  echo "== $name"
  # the release checklist: check the rows with the release image's python, not ours
  docker run -i --rm --network none -v "$PWD":/work:ro gym-pipeline/base:bookworm python3 /work/check_rows.py "/work/$ds" \\
    || { echo "$name: schema check failed, skipped"; continue; }
  mkdir -p "results/$name"
  (cd "results/$name" && PIPELINE)
done < datasets.txt
echo "== done: $(ls results | tr '\\n' ' ')"
"""


@case(
    "config_builtin_run_script_loop_reads_dataset_list_on_stdin_that_docker_run_dash_i_swallows",
    "config",
    ["docker run", "-i"],
    "the user's run_eval.sh loops `while read -r ds; do ... done < datasets.txt` over three datasets and checks "
    "each one first with `docker run -i --rm ... python3 check_rows.py`; with -i the docker client forwards its "
    "standard input, the rest of datasets.txt, to the container, so the loop found nothing more to read after the "
    "first dataset: only general was evaluated, capitals and held_back never were, and the script exited 0",
)
def config_builtin_run_script_loop_reads_dataset_list_on_stdin_that_docker_run_dash_i_swallows(ctx: Ctx) -> str:
    run = ctx.run
    both = ctx.dataset("string_match", 12, start=40, name="both.jsonl")
    better = checkpoints(ctx, "string_match", both)[1]
    lines = both.read_text().splitlines(keepends=True)
    (run / "data").mkdir()
    (run / "data" / "general.jsonl").write_text("".join(lines[:6]))
    (run / "data" / "held_back.jsonl").write_text("".join(lines[6:]))
    write_jsonl(run / "data" / "capitals.jsonl", [question_row(q, a) for q, a in CAPITALS[:4]])
    (run / "datasets.txt").write_text("data/general.jsonl\ndata/capitals.jsonl\ndata/held_back.jsonl\n")
    (run / "check_rows.py").write_text(CHECK_ROWS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    body = pipeline(url, data='"../../$ds"').strip().replace("\n", " && ")
    (run / "run_eval.sh").write_text(LOOP_SCRIPT.replace("RUN_DIR", str(run)).replace("PIPELINE", body))
    code = ctx.sh(f"bash {run / 'run_eval.sh'}", "logs/run_eval.log", timeout=400)
    general = len({(r["_ng_task_index"], r["_ng_rollout_index"])
                   for r in rows_of(run / "results" / "general" / "rollouts.jsonl")})
    log = log_of(ctx, "run_eval.log")
    if code or general != 18 or (run / "results" / "held_back").exists() or "== capitals" in log \
            or "check_rows:" not in log:
        raise failed(ctx, f"exit {code}, {general}: {log[-1500:]}")
    return (f"RUN/datasets.txt (3 datasets), RUN/run_eval.sh (`while read -r ds ... done < datasets.txt`, `docker run "
            f"-i --rm ... check_rows.py` then materialize x 3, collect, profile per dataset) exit {code}; "
            f"results/general: {general} rollouts, no results for capitals and held_back.")


# =====================================================================================================
# model_serving
# =====================================================================================================

CKPT_SERVE = """#!/bin/bash
# serve.sh: the team's model server; serves $CKPT (a step folder name), by default the run's release step
CKPT=${CKPT:-step_0200}
echo "serving $CKPT"
exec GP_BIN serve-policy --port 0 --ready-file READY --checkpoint CKPTS/$CKPT --latency-ms 20
"""


@case(
    "model_serving_builtin_run_script_exports_baseline_ckpt_variable_that_serve_script_reads_as_its_checkpoint",
    "model_serving",
    ["CKPT", "serve.sh"],
    "the user's run_eval.sh exports `CKPT=step_0100` (the baseline its report compares against) before starting the "
    "team's serve.sh, which serves `${CKPT:-step_0200}`; the exported variable reached serve.sh, so the server "
    "loaded the baseline step_0100 while the report records the eval as step_0200's (every command exits 0; "
    "model_server.log says 'serving step_0100')",
)
def model_serving_builtin_run_script_exports_baseline_ckpt_variable_that_serve_script_reads_as_its_checkpoint(
        ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 16)
    ready = ctx.work / "serve-ready"
    (run / "serve.sh").write_text(CKPT_SERVE.replace("GP_BIN", str(GP)).replace("READY", str(ready))
                                  .replace("CKPTS", str(weaker.parent)))
    (run / "run_eval.sh").write_text(
        "#!/bin/bash\n# weekly eval of the release step; the report compares it with the baseline $CKPT\n"
        f"cd {run}\nexport CKPT=step_0100   # baseline for the report's comparison column\n"
        "echo \"== weekly eval of step_0200 (baseline $CKPT)\"\necho step_0200 > evaluated_checkpoint.txt\n"
        "bash serve.sh > logs/model_server.log 2>&1 &\nSERVER=$!\n"
        f"for i in $(seq 30); do [ -s {ready} ] && break; sleep 1; done\n"
        f"URL=$(cat {ready})\n"
        + pipeline("$URL")
        + "kill $SERVER\n")
    code = ctx.sh(f"bash {run / 'run_eval.sh'}", "logs/run_eval.log", timeout=400)
    got = complete(ctx)
    server = log_of(ctx, "model_server.log")
    if code or got != 24 or "serving step_0100" not in server:
        raise failed(ctx, f"exit {code}, {got}: {server[:600]} {log_of(ctx, 'run_eval.log')[-800:]}")
    return (f"RUN/run_eval.sh (`export CKPT=step_0100` for the report, then `bash serve.sh &`, materialize 8 x 3, "
            f"collect, profile) exit {code}; RUN/serve.sh (`CKPT=${{CKPT:-step_0200}}`) served step_0100; {got} "
            f"rollouts, mean reward {mean_reward(run / 'rollouts.jsonl')}.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================


TOP_WORD_COMMAND = "tr 'A-Z' 'a-z' < /app/text.txt | tr -s ' ' '\\n' | sort | uniq -c | sort -rn | head -1"


def pipe_statuses_under_limit(tasks: Path, task_id: str, command: str, memory: str) -> str:
    """The exit statuses of `command`'s pipeline in a fresh container of the task's image (the one its sandboxes
    ran), limited to `memory` (the recipe's own check that the sandbox's limit kills it; not in the run folder)."""
    from gym_pipeline.taskfolders.loader import load_taskset
    from gym_pipeline.taskfolders.sandbox import ensure_image

    client = docker_client()
    task = next(t for t in load_taskset(tasks).tasks if t.task_id == task_id)
    image, _ = ensure_image(client, task)
    out = client.containers.run(image, ["bash", "-c", f"{command} >/dev/null; echo ${{PIPESTATUS[*]}}"],
                                mem_limit=memory, memswap_limit=memory, network_mode="none", remove=True)
    return out.decode().strip()


def memory_in_gigabytes(tasks: Path) -> None:
    env = tasks / "top-word" / "environment"
    text = (env / "text.txt").read_text()
    corpus = (text * (12_000_000 // len(text))).encode()  # the week's whole corpus, about 12 MB, shipped gzipped
    (env / "text.txt.gz").write_bytes(gzip.compress(corpus, mtime=0))
    (env / "text.txt").unlink()
    (env / "Dockerfile").write_text((env / "Dockerfile").read_text().replace(
        "COPY text.txt /app/text.txt", "COPY text.txt.gz /app/text.txt.gz\nRUN gunzip /app/text.txt.gz"))
    toml = tasks / "top-word" / "task.toml"
    toml.write_text(toml.read_text().replace("memory_mb = 256", "memory_mb = 8  # GB, as on the GPU cluster's "
                                             "sandboxes: the corpus is large now"))


@case(
    "throughput_taskfolder_task_toml_memory_mb_given_in_gigabytes_so_sort_of_refreshed_corpus_is_oom_killed",
    "throughput_resources",
    ["memory_mb"],
    "the task author refreshed top-word with the week's whole corpus (about 12 MB of text) and set its "
    "`[environment] memory_mb = 8`, meaning 8 GB as on the GPU cluster; the field is in megabytes, so each top-word "
    "sandbox got 8 MB, in which the agent's `sort` of the corpus's words was killed by the out-of-memory killer "
    "before top.txt held the answer, and every top-word episode scored 0; create-greeting, whose commands fit, "
    "scored as usual",
)
def throughput_taskfolder_task_toml_memory_mb_given_in_gigabytes_so_sort_of_refreshed_corpus_is_oom_killed(
        ctx: Ctx) -> str:
    tasks = user_taskset(ctx, ["top-word", "create-greeting"], edit=memory_in_gigabytes)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    top, greeting = task_rewards(ctx, "top-word"), task_rewards(ctx, "create-greeting")
    statuses = pipe_statuses_under_limit(tasks, "top-word", TOP_WORD_COMMAND, "8m")
    if len(top) != 2 or any(top) or not any(greeting) or "137" not in statuses \
            or not ran_command(ctx, "top-word", "| sort |"):
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {top} {greeting}, {statuses}: "
                          f"{log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/top-word/environment/text.txt.gz (12 MB unpacked at build), RUN/tasks/top-word/task.toml (`memory_mb = 8`); "
            f"RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile of RUN/tasks x 2) exit {code}; "
            f"top-word rewards {top}, create-greeting rewards {greeting}.")


# =====================================================================================================
# infra
# =====================================================================================================

CI_ENV = """# ci.env: the CI runners' Python settings (platform ticket CI-731: "make deprecations fail fast")
export PYTHONWARNINGS=error
export PYTHONDONTWRITEBYTECODE=1
export PIP_DISABLE_PIP_VERSION_CHECK=1
"""


@case(
    "infra_builtin_ci_env_file_turns_every_python_warning_into_an_error_so_profile_dies_on_its_own_warning",
    "infra",
    ["PYTHONWARNINGS"],
    "the user's run_eval.sh sources the CI runners' ci.env, which exports `PYTHONWARNINGS=error` (to make "
    "deprecations fail CI early); that turns every Python warning of every tool into an exception, and profile's "
    "own UserWarning ('Standard error is 0 ... confidence interval collapses') became a traceback: materialize and "
    "collect completed, but profile died and no reward profile was written",
)
def infra_builtin_ci_env_file_turns_every_python_warning_into_an_error_so_profile_dies_on_its_own_warning(
        ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 36)
    (run / "ci.env").write_text(CI_ENV)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run_script(ctx, url, ["# same Python settings as the CI runners", "source ci.env",
                                   "echo '== weekly eval'"])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) != 24 or (run / "rollouts_reward_profiling.jsonl").exists() or "Traceback" not in log \
            or "UserWarning" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/ci.env (`export PYTHONWARNINGS=error`) sourced by RUN/run_eval.sh (materialize 8 x 3, collect, "
            f"profile) exit {code}; {complete(ctx)} rollouts, profile died on a UserWarning, no reward profile.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

DATA_IMAGE_DOCKERFILE = """# the data team's export image: this week's word list at /data/words.txt
FROM gym-pipeline/base:bookworm
COPY words.txt /data/words.txt
"""

FROM_DATA_DOCKERFILE = """FROM gym-pipeline/base:bookworm
WORKDIR /app
# the word list comes from the data team's export image, rebuilt when they fix the export
COPY --from=DATA_IMAGE /data/words.txt /app/words.txt
"""

DATA_IMAGE = "datateam/words-export:weekly"


def forget_cached_task_image(ctx: Ctx, tasks: Path, task_id: str) -> None:
    """A fresh engine for this task: its image, cached under its folder's digest by an earlier run of this recipe,
    is removed first."""
    from gym_pipeline.taskfolders.loader import load_taskset
    from gym_pipeline.taskfolders.sandbox import image_tag

    task = next(t for t in load_taskset(tasks).tasks if t.task_id == task_id)
    try:
        docker_client().images.remove(image_tag(task), force=True)
    except Exception:  # noqa: BLE001 - not cached
        pass
    ctx.note(f"(no cached image of {task_id} on the engine yet)")


def words_from_data_image(tasks: Path) -> None:
    env = tasks / "sort-unique-words" / "environment"
    (env / "words.txt").unlink()
    (env / "Dockerfile").write_text(FROM_DATA_DOCKERFILE.replace("DATA_IMAGE", DATA_IMAGE))


@case(
    "cache_resume_taskfolder_task_image_copies_word_list_from_data_image_so_fixed_export_never_reaches_cached_task_image",
    "cache_resume",
    ["rebuild", "COPY --from"],
    "sort-unique-words' Dockerfile takes words.txt from the data team's image (`COPY --from=datateam/words-export:"
    "weekly`); last week's export had a typo ('bananna'), the data team fixed it and rebuilt their image, and the "
    "user ran the taskset again; task images are cached under a tag made of the task folder's digest (and rebuilt "
    "only when the image they are FROM changed), and neither changed, so the sandboxes kept last week's image with "
    "the misspelt word list: every sort-unique-words episode sorted it, wrote 'bananna' and scored 0 again (no image "
    "was built this week)",
)
def cache_resume_taskfolder_task_image_copies_word_list_from_data_image_so_fixed_export_never_reaches_cached_task_image(
        ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["sort-unique-words", "replace-spelling"], edit=words_from_data_image)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    good = (Path(__file__).resolve().parents[2] / "gym_pipeline" / "examples" / "tasks" / "sort-unique-words"
            / "environment" / "words.txt").read_text()
    export = run / "datateam_export"
    export.mkdir()
    (export / "Dockerfile").write_text(DATA_IMAGE_DOCKERFILE)
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    forget_cached_task_image(ctx, tasks, "sort-unique-words")
    client, built = docker_client(), set()
    try:
        (export / "words.txt").write_text(good.replace("banana", "bananna"))
        ctx.sh(f"docker build --network none -q -t {DATA_IMAGE} {export} && echo 'last week: export image built'",
               "logs/last_week_export.log")
        built.add(client.images.get(DATA_IMAGE).id)
        script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"],
                                name="run_tasks_last_week.sh")
        ctx.sh(f"bash {script}", "logs/run_tasks_last_week.log", timeout=900)
        last_week = task_rewards(ctx, "sort-unique-words")
        ctx.sh(f"cd {run} && mkdir -p last_week && mv rollouts* last_week/ && echo \"last week's results kept in "
               "last_week/\"", "logs/last_week_kept.log")
        (export / "words.txt").write_text(good)
        ctx.sh(f"docker build --network none -q -t {DATA_IMAGE} {export} && echo 'data team: export fixed, image "
               f"rebuilt' && docker run --rm --network none {DATA_IMAGE} cat /data/words.txt",
               "logs/export_fixed.log")
        built.add(client.images.get(DATA_IMAGE).id)
        script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run (export fixed)'"])
        code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
        in_image = words_in_task_image(tasks)
    finally:
        for image in built:
            try:
                client.images.remove(image, force=True)
            except Exception:  # noqa: BLE001 - already gone
                pass
    words, other = task_rewards(ctx, "sort-unique-words"), task_rewards(ctx, "replace-spelling")
    if len(words) != 2 or any(words) or any(last_week) or not any(other) \
            or "0 images built" not in log_of(ctx, "run_tasks.log") or "bananna" not in in_image \
            or not ran_command(ctx, "sort-unique-words", "sort -u") or "banana\n" not in log_of(ctx, "export_fixed.log"):
        raise failed(ctx, f"exit {code}, {words} (last week {last_week}) {other}, image: {in_image}: "
                          f"{log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/sort-unique-words/environment/Dockerfile (`COPY --from={DATA_IMAGE} /data/words.txt`); last "
            f"week's export image (typo 'bananna') built and RUN/run_tasks_last_week.sh run (sort-unique-words rewards "
            f"{last_week}); the export fixed and its image rebuilt (logs/export_fixed.log); RUN/run_tasks.sh "
            f"(`gym-pipeline stage` materialize, collect, profile of RUN/tasks x 2) exit {code}, 0 images built; "
            f"sort-unique-words rewards {words}, replace-spelling rewards {other}.")


def words_in_task_image(tasks: Path) -> str:
    from gym_pipeline.taskfolders.loader import load_taskset
    from gym_pipeline.taskfolders.sandbox import image_tag

    task = next(t for t in load_taskset(tasks).tasks if t.task_id == "sort-unique-words")
    return docker_client().containers.run(image_tag(task), ["cat", "/app/words.txt"], network_mode="none",
                                          remove=True).decode()


if __name__ == "__main__":
    sys.exit(main("fifty_fourth_held_out", __file__, __doc__))
