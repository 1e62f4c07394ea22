"""Build the NINETY-FIRST HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/ninety_first_held_out.py --out tests/data/diagnosis_corpus/ninety_first_held_out [--only CASE ...]

This set was written after the ninety earlier sets (first_held_out.py ... ninetieth_held_out.py), from the
guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
Docker containers the user's scripts start, task-folder (Harbor-format) tasksets, and the user's own shell and Python
tooling, settings, data-preparation scripts and verifiers. The output of every command is captured as a user would
(`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data, scripts,
settings, verifier code). Each case injects one cause, different in mechanism from those of the ninety earlier
sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not
written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), and PYTHONPATH set to this checkout. Run it from a
foreground shell. Containers it makes are named `h91-...` and removed at the end of their recipe.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import failed  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_seventh_held_out import task_rewards, week  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from recipes import BIN, GP, Ctx, case, main, rows_of, text_of  # noqa: E402
from seventy_first_held_out import docker_collect_script, remove_container  # noqa: E402
from seventy_ninth_held_out import run_eval  # noqa: E402
from sixty_fourth_held_out import mean_of, pipeline_lines, question_row  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_first_held_out import write_jsonl  # noqa: E402
from twenty_sixth_held_out import free_port  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def write_task_file(tasks: Path, task: str, relative: str, text: str) -> None:
    path = tasks / task / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_outputs(ctx: Ctx) -> str:
    return "".join(text_of(p) for p in ctx.run.rglob("test-stdout.txt"))


def export_csv(path: Path, pairs: list[tuple[str, str]]) -> None:
    """The labelling tool's export: question,answer (every question quoted)."""
    path.write_text("question,answer\n" + "".join(f"\"{q}\",{a}\n" for q, a in pairs))


PREP_HEAD = '''"""prep.py: the labelling tool's export.csv -> string_match.jsonl."""
import csv
import json


def build_row(pair):
    question, answer = pair
    text = f"{question} End your response with 'Final answer: <answer>'."
    return {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                  "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}


with open("export.csv", newline="") as f:
    pairs = [(r["question"], r["answer"]) for r in csv.DictReader(f)]
'''


# =====================================================================================================
# healthy
# =====================================================================================================

IMAP_PAIRS = [
    ("What is the capital of Japan?", "Tokyo"),
    ("How many days are in a week?", "7"),
    ("What is the largest ocean on Earth?", "Pacific"),
    ("What is the capital of Egypt?", "Cairo"),
    ("What gas do plants absorb from the air?", "CO2"),
    ("What is the capital of Kenya?", "Nairobi"),
    ("How many strings does a standard violin have?", "4"),
    ("What is the capital of Peru?", "Lima"),
]

PREP_IMAP_PY = PREP_HEAD + '''
import multiprocessing
import time


def slow_build_row(pair):
    time.sleep(0.05 * (len(pair[0]) % 5))  # (the real tool calls the tokenizer service here)
    return build_row(pair)


if __name__ == "__main__":
    # imap_unordered: rows come back in whatever order the workers finish them
    with multiprocessing.Pool(4) as pool, open("string_match.jsonl", "w") as out:
        for row in pool.imap_unordered(slow_build_row, pairs):
            out.write(json.dumps(row) + "\\n")
    print(f"prep: {len(pairs)} rows written (order not kept)")
'''


@case(
    "healthy_builtin_prep_builds_rows_with_pool_imap_unordered_so_dataset_order_differs_from_export_but_labels_stay_paired",
    "healthy",
    [],
    "nothing is wrong: the user's prep.py builds the dataset rows from the labelling export with "
    "`multiprocessing.Pool(4).imap_unordered(...)`, so string_match.jsonl lists the questions in a different order "
    "from export.csv (and from last week's run); but each row is built from its own (question, answer) pair, so "
    "every label stays with its question, and materialize, collect and profile completed every rollout with the "
    "usual rewards",
)
def healthy_builtin_prep_builds_rows_with_pool_imap_unordered_so_dataset_order_differs_from_export_but_labels_stay_paired(
        ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, IMAP_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    export_csv(run / "export.csv", IMAP_PAIRS)
    (run / "prep.py").write_text(PREP_IMAP_PY)
    code = run_eval(ctx, f"{BIN}/python prep.py\nhead -c 300 string_match.jsonl; echo\n" + pipeline_lines(url),
                    "weekly eval: prep the export, then run")
    prepared = rows_of(run / "string_match.jsonl")
    order = [r["expected_answer"] for r in prepared]
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 24 or order == [a for _, a in IMAP_PAIRS] or sorted(order) != sorted(
            a for _, a in IMAP_PAIRS) or mean_of(got) < 0.3 \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {order}, {mean_of(got)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/export.csv (8 questions); RUN/prep.py (Pool(4).imap_unordered); RUN/run_eval.sh (prep, materialize "
            f"8 x 3, collect, profile) exit {code}; dataset label order {order}; {complete(ctx)} of 24 rollouts, "
            f"mean reward {mean_of(got):.2f}.")


BLKIO_FLAGS = "--blkio-weight 300"


@case(
    "healthy_docker_collect_container_template_sets_blkio_weight_that_this_kernel_discards_with_a_warning",
    "healthy",
    [],
    "nothing is wrong: the team's container template starts the collect container with `--blkio-weight 300` (an I/O "
    "share meant for the shared storage nodes); this node's kernel has no block I/O weight controller, so Docker "
    "prints 'WARNING: Your kernel does not support Block I/O weight or the cgroup is not mounted. Weight discarded.' "
    "and starts the container without it; collect does almost no disk I/O, and every rollout was collected and "
    "profiled",
)
def healthy_docker_collect_container_template_sets_blkio_weight_that_this_kernel_discards_with_a_warning(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 66)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h91-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, BLKIO_FLAGS, "collect runs in the team's eval container (flags "
                                   "from the shared container template)")
    (run / "logs").mkdir(exist_ok=True)
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or "Weight discarded" not in log or "collect container exit: 0" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run --rm {BLKIO_FLAGS} --network host ... "
            f"gym-pipeline/base:bookworm python -m gym_pipeline.cli collect`, profile) exit {code}; Docker warned the "
            f"weight was discarded; {complete(ctx)} of 18 rollouts, mean reward {mean_of(got):.2f}.")


def owner_keys(tasks: Path) -> None:
    for toml in tasks.glob("*/task.toml"):
        toml.write_text(f"# owned by the eval-data team\nowner = \"eval-data\"\nticket = \"EVAL-{len(toml.parent.name)}"
                        f"42\"\n" + toml.read_text())


@case(
    "healthy_taskfolder_task_toml_carries_team_owner_and_ticket_keys_that_the_loader_reports_as_ignored",
    "healthy",
    [],
    "nothing is wrong: the task author added the team's bookkeeping keys `owner = ...` and `ticket = ...` at the top "
    "of every task.toml; they are not Harbor fields, so loading the taskset warns \"key 'task.toml.owner' is not a "
    "Harbor field: ignored\" (and the same for ticket) for each task, but the settings that matter (timeouts, cpus, "
    "memory) are read as before: the sandboxes were built, the agent's commands and the tests ran, and every episode "
    "was collected, scored and profiled",
)
def healthy_taskfolder_task_toml_carries_team_owner_and_ticket_keys_that_the_loader_reports_as_ignored(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["count-error-lines", "create-greeting"], edit=owner_keys, repeats=4)
    counts, greeting = task_rewards(ctx, "count-error-lines"), task_rewards(ctx, "create-greeting")
    log = "".join(text_of(p) for p in ctx.run.rglob("*.log"))
    if code or complete(ctx) != 8 or not any(counts) or not any(greeting) or "not a Harbor field" not in log \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {counts} {greeting}: {log[-1500:]}")
    return (f"RUN/tasks/*/task.toml (top-level owner and ticket keys); RUN/run_tasks.sh (`gym-pipeline stage` "
            f"materialize, collect, profile x 2) exit {code}; warnings for the ignored keys; {complete(ctx)} episodes, "
            f"rewards {counts} and {greeting}.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

SHARD_DRIVER_PY = '''"""collect_shards.py: collect every shard of the materialized inputs side by side, one process per shard."""
import multiprocessing
import subprocess
import sys
from pathlib import Path

URL = sys.argv[1]
SHARDS = sorted(Path("shards/in").glob("part_*"))


def collect(shard):
    print(f"collect {shard.name} starts", flush=True)
    code = subprocess.run(["{gp}", "collect", "--inputs", str(shard), "--output", f"shards/out/{shard.name}.jsonl",
                           "--model-url", URL, "--env", "string_match", "--concurrency", "2"]).returncode
    print(f"collect {shard.name} exit {code}", flush=True)
    return code


if __name__ == "__main__":
    # one worker per shard; chunksize from the prep pipeline's pool settings (fewer round trips to the workers)
    with multiprocessing.Pool(len(SHARDS)) as pool:
        codes = pool.map(collect, SHARDS, chunksize=len(SHARDS))
    sys.exit(max(codes))
'''

SHARD_SH = """{gp} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
rm -rf shards && mkdir -p shards/in shards/out
split -n l/4 -d rollouts_materialized_inputs.jsonl shards/in/part_
echo "$(ls shards/in | wc -l) shards"
# CI gives the collect step 20 s (ci.yaml)
timeout 20 {py} collect_shards.py {url}
echo "collect step exit: $?"
cat shards/out/*.jsonl > rollouts.jsonl
{gp} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "throughput_builtin_shard_driver_pool_map_chunksize_of_shard_count_hands_every_shard_to_one_worker_past_ci_budget",
    "throughput_resources",
    ["chunksize", "pool.map", "shards", "one worker"],
    "the user's collect_shards.py runs the four shards side by side with `multiprocessing.Pool(len(SHARDS))`, but "
    "calls `pool.map(collect, SHARDS, chunksize=len(SHARDS))` (chunksize copied from the prep pipeline): the whole "
    "list is one chunk, so one worker ran the four shard collects one after another while the other three sat idle; "
    "each shard takes several seconds against the 1.5 s server, so the CI step's `timeout 20` stopped the collect "
    "step (exit 124) partway through the shards, and profile refused the partial collection (it lacks the rollouts "
    "of the shards never collected)",
)
def throughput_builtin_shard_driver_pool_map_chunksize_of_shard_count_hands_every_shard_to_one_worker_past_ci_budget(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 8, 40)
    url, _ = ctx.policy(better, "--latency-ms 1500")
    (run / "collect_shards.py").write_text(SHARD_DRIVER_PY.replace("{gp}", str(GP)))
    code = run_eval(ctx, SHARD_SH.format(gp=GP, py=BIN / "python", url=url), "weekly eval, shards collected side by side",
                    timeout=300)
    log = log_of(ctx, "run_eval.log")
    got = complete(ctx)
    starts = log.count(" starts")
    events = [line.split()[1] + (" starts" if "starts" in line else " exit") for line in log.splitlines()
              if line.startswith("collect part_")]
    serial = events == [e for i in range(starts) for e in (f"part_0{i} starts", f"part_0{i} exit")][:len(events)]
    if not 0 < got < 24 or "collect step exit: 124" not in log or not serial or starts < 2:
        raise failed(ctx, f"exit {code}, {got}, {starts}: {log[-1500:]}")
    return (f"RUN/collect_shards.py (Pool(4).map(..., chunksize=4)); RUN/run_eval.sh (materialize 8 x 3, split into 4 "
            f"shards, `timeout 20` collect_shards.py against a server answering in 1.5 s, profile) exit {code}; "
            f"collect step exit 124; {starts} shard collects started, one after another; {got} of 24 rollouts.")


# =====================================================================================================
# config
# =====================================================================================================

SPLIT_QUESTIONS = {
    "geography": [("What is the capital of Japan?", "Tokyo"), ("What is the capital of Egypt?", "Cairo"),
                  ("What is the capital of Peru?", "Lima")],
    "science": [("What gas do plants absorb from the air?", "CO2"),
                ("What is the chemical symbol of sodium?", "Na"), ("How many legs does a spider have?", "8")],
    "arithmetic": [("How many days are in a week?", "7"), ("How many minutes are in an hour?", "60"),
                   ("How many strings does a standard violin have?", "4")],
}

RUN_SPLITS_PY = '''"""run_splits.py: the weekly eval, one run folder per split."""
import os
import subprocess
import sys

URL = sys.argv[1]
SPLITS = [
    "splits/geography.jsonl",
    "splits/science.jsonl"
    "splits/arithmetic.jsonl",   # added this week
]

for split in SPLITS:
    if not os.path.exists(split):
        print(f"warning: {split} not found, skipping")
        continue
    name = os.path.basename(split).removesuffix(".jsonl")
    out = f"runs/{name}"
    os.makedirs(out, exist_ok=True)
    print(f"== {name}", flush=True)
    for argv in (
        ["{gp}", "materialize", "--input", split, "--num-repeats", "3", "--agent", "string_match_simple_agent",
         "--output", f"{out}/rollouts_materialized_inputs.jsonl"],
        ["{gp}", "collect", "--inputs", f"{out}/rollouts_materialized_inputs.jsonl", "--output",
         f"{out}/rollouts.jsonl", "--model-url", URL, "--env", "string_match", "--concurrency", "4"],
        ["{gp}", "profile", "--inputs", f"{out}/rollouts_materialized_inputs.jsonl", "--rollouts",
         f"{out}/rollouts.jsonl"],
    ):
        subprocess.run(argv, check=True)
print("weekly eval done")
'''


@case(
    "config_builtin_split_list_in_python_driver_lacks_a_comma_so_two_file_names_join_and_both_splits_are_skipped",
    "config",
    ["SPLITS", "comma", "run_splits.py", "concatenation"],
    "the user's run_splits.py lists the splits to evaluate in a Python list; when arithmetic.jsonl was added this "
    "week, the line before it (\"splits/science.jsonl\") was left without its comma, so Python joined the two "
    "adjacent string literals into one name, 'splits/science.jsonlsplits/arithmetic.jsonl'; the driver's "
    "missing-file guard printed 'not found, skipping' and went on, so only geography was evaluated and the science "
    "and arithmetic splits have no rollouts although both files exist (every command exits 0)",
)
def config_builtin_split_list_in_python_driver_lacks_a_comma_so_two_file_names_join_and_both_splits_are_skipped(
        ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, [p for pairs in SPLIT_QUESTIONS.values() for p in pairs])
    url, _ = ctx.policy(better, "--latency-ms 20")
    for name, pairs in SPLIT_QUESTIONS.items():
        write_jsonl(run / "splits" / f"{name}.jsonl", [question_row(q, a) for q, a in pairs])
    (run / "run_splits.py").write_text(RUN_SPLITS_PY.replace("{gp}", str(GP)))
    code = run_eval(ctx, f"ls splits\n{BIN}/python run_splits.py {url}\n", "weekly eval of every split")
    log = log_of(ctx, "run_eval.log")
    done = sorted(p.parent.name for p in run.glob("runs/*/rollouts.jsonl"))
    if code or done != ["geography"] or "science.jsonlsplits/arithmetic.jsonl not found" not in log:
        raise failed(ctx, f"exit {code}, {done}: {log[-1500:]}")
    return (f"RUN/splits/ (geography, science, arithmetic); RUN/run_splits.py (SPLITS list missing a comma); "
            f"RUN/run_eval.sh exit {code}; splits evaluated: {done}.")


# =====================================================================================================
# data_schema (built-in)
# =====================================================================================================

DEDUPE_PAIRS = [
    ("What is the capital of Japan?", "Tokyo"),
    ("How many days are in a week?", "7"),
    ("What is the capital of Egypt?", "Cairo"),
    ("What gas do plants absorb from the air?", "CO2"),
    ("What is the capital of Kenya?", "Nairobi"),
    ("How many strings does a standard violin have?", "4"),
    ("What is the capital of Peru?", "Lima"),
    ("How many days are in a leap year?", "366"),
]

PREP_DEDUPE_PY = PREP_HEAD + '''
# drop near-duplicate questions (the scraper returns the same question with different trailing punctuation)
seen, rows = set(), []
for question, answer in pairs:
    key = question[:20].lower()
    if key in seen:
        continue
    seen.add(key)
    rows.append(build_row((question, answer)))
with open("string_match.jsonl", "w") as out:
    out.writelines(json.dumps(r) + "\\n" for r in rows)
print(f"prep: {len(pairs)} questions in the export, {len(rows)} rows written after de-duplication")
'''


@case(
    "data_schema_builtin_prep_dedupes_questions_on_first_twenty_characters_so_distinct_questions_sharing_a_stem_vanish",
    "data_schema",
    ["prep.py", "de-duplication", "key", "question[:20]"],
    "the user's prep.py drops near-duplicate questions of the scraped export by keying on `question[:20].lower()`; "
    "this week's questions share stems ('What is the capital ', 'How many days are i'), so distinct questions "
    "collapsed into their first occurrence: of 8 questions only 4 rows were written (Egypt, Kenya and Peru, and the "
    "leap-year question vanished), and the eval covered half the set while every command exits 0",
)
def data_schema_builtin_prep_dedupes_questions_on_first_twenty_characters_so_distinct_questions_sharing_a_stem_vanish(
        ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, DEDUPE_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    export_csv(run / "export.csv", DEDUPE_PAIRS)
    (run / "prep.py").write_text(PREP_DEDUPE_PY)
    code = run_eval(ctx, f"{BIN}/python prep.py\n" + pipeline_lines(url), "weekly eval: prep the export, then run")
    prepared = rows_of(run / "string_match.jsonl")
    if code or len(prepared) != 4 or complete(ctx) != 12:
        raise failed(ctx, f"exit {code}, {len(prepared)}, {complete(ctx)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/export.csv (8 questions); RUN/prep.py (dedupe key question[:20]); RUN/run_eval.sh (prep, "
            f"materialize, collect, profile) exit {code}; {len(prepared)} rows written, labels "
            f"{[r['expected_answer'] for r in prepared]}; {complete(ctx)} rollouts.")


# =====================================================================================================
# verifier_runtime (task folder)
# =====================================================================================================

APP_DIR_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd $APP_DIR   # the task's folder (APP_DIR comes from the team's CI image)
echo "checking in $(pwd)"
if test "$(tr -d "[:space:]" < count.txt 2>/dev/null)" = "3"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def app_dir_test(tasks: Path) -> None:
    write_task_file(tasks, "count-error-lines", "tests/test.sh", APP_DIR_TEST_SH)


@case(
    "verifier_runtime_taskfolder_test_sh_cds_to_unset_app_dir_so_bare_cd_goes_home_and_relative_count_file_is_missing",
    "verifier_runtime",
    ["test.sh", "APP_DIR", "cd", "/app"],
    "the task author rewrote count-error-lines' tests/test.sh to `cd $APP_DIR` (a variable the team's CI image "
    "sets) and read the answer by the relative name count.txt; the sandbox does not set APP_DIR, so the unquoted "
    "`cd $APP_DIR` became a bare `cd`, which goes to the home folder (/root), count.txt was not found there, and "
    "every episode of the task scored 0 although the agent wrote the right count to /app/count.txt, while "
    "create-greeting scored (every command exits 0)",
)
def verifier_runtime_taskfolder_test_sh_cds_to_unset_app_dir_so_bare_cd_goes_home_and_relative_count_file_is_missing(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["count-error-lines", "create-greeting"], edit=app_dir_test, repeats=4)
    counts, greeting = task_rewards(ctx, "count-error-lines"), task_rewards(ctx, "create-greeting")
    outputs = test_outputs(ctx)
    if code or not counts or any(counts) or not any(greeting) or "checking in /app" in outputs \
            or "checking in" not in outputs:
        raise failed(ctx, f"exit {code}, {counts} {greeting}: {outputs[-800:]} {log_of(ctx, 'run_tasks.log')[-1000:]}")
    return (f"RUN/tasks/count-error-lines/tests/test.sh (cd $APP_DIR, relative count.txt); RUN/run_tasks.sh "
            f"(`gym-pipeline stage` materialize, collect, profile x 2) exit {code}; count-error-lines rewards {counts}, "
            f"create-greeting {greeting}.")


# =====================================================================================================
# data_schema (task folder)
# =====================================================================================================

LEGEND_LOG = """# exported by logview 3.2 - levels: DEBUG INFO WARN ERROR
INFO start
ERROR disk full
INFO retry
ERROR disk full
WARN slow
ERROR timeout
INFO done
"""


def legend_log(tasks: Path) -> None:
    write_task_file(tasks, "count-error-lines", "environment/server.log", LEGEND_LOG)


@case(
    "data_schema_taskfolder_server_log_reexported_with_viewer_legend_line_naming_every_level_so_error_count_is_four",
    "data_schema",
    ["server.log", "legend", "header line", "remove"],
    "the task author re-exported count-error-lines' environment/server.log from the log viewer, which prepends the "
    "line '# exported by logview 3.2 - levels: DEBUG INFO WARN ERROR'; that legend line contains the word ERROR, so "
    "counting the lines with ERROR (what the instruction asks, what the agent and any correct solution do) gives 4, "
    "and tests/test.sh (still expecting the 3 real errors) failed every episode of the task, while create-greeting "
    "scored (every command exits 0)",
)
def data_schema_taskfolder_server_log_reexported_with_viewer_legend_line_naming_every_level_so_error_count_is_four(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["count-error-lines", "create-greeting"], edit=legend_log, repeats=4,
                     preamble=["echo '== input of count-error-lines'",
                               "head -3 tasks/count-error-lines/environment/server.log"])
    counts, greeting = task_rewards(ctx, "count-error-lines"), task_rewards(ctx, "create-greeting")
    if code or not counts or any(counts) or not any(greeting) or "logview" not in log_of(ctx, "run_tasks.log"):
        raise failed(ctx, f"exit {code}, {counts} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/count-error-lines/environment/server.log (legend line naming ERROR); RUN/run_tasks.sh (head "
            f"of the file, `gym-pipeline stage` materialize, collect, profile x 2) exit {code}; count-error-lines "
            f"rewards {counts}, create-greeting {greeting}.")


# =====================================================================================================
# model_serving
# =====================================================================================================

SERVE_WATCH_SH = """#!/bin/bash
# serve_latest.sh: keep the policy server on the trainer's newest checkpoint (restart it when a new one lands)
CKPTS={ckpts}
PORT={port}
newest() {{ ls -d $CKPTS/step_* | sort | tail -1; }}
start() {{
  rm -f ready.url
  {gp} serve-policy --port $PORT --ready-file ready.url --checkpoint $1 --latency-ms 1000 >> logs/model_server.log 2>&1 &
  SERVER=$!
  for i in $(seq 1 60); do test -s ready.url && break; sleep 0.25; done
  echo "$(date +%s.%N) serving $1 (pid $SERVER)"
}}
CURRENT=$(newest)
start $CURRENT
trap 'kill $SERVER; exit 0' TERM INT
while sleep 1; do
  NEW=$(newest)
  if [ "$NEW" != "$CURRENT" ]; then
    echo "$(date +%s.%N) new checkpoint $NEW: restarting the server"
    kill $SERVER; wait $SERVER
    CURRENT=$NEW
    start $CURRENT
  fi
done
"""


@case(
    "model_serving_builtin_serve_script_follows_newest_checkpoint_and_restarts_server_mid_eval_when_trainer_saves_a_step",
    "model_serving",
    ["serve_latest.sh", "restart", "pin", "checkpoint"],
    "the user's serve_latest.sh keeps the policy server on the trainer's newest checkpoint: it polls the trainer's "
    "folder every second and kills and restarts the server when a new step_* appears; the trainer (still running) "
    "saved step_0300 while the weekly eval of step_0200 was collecting, so the script killed the server mid-eval "
    "to load step_0300: the requests in flight and those sent while the new server was starting found nothing on "
    "the port (connection refused), most rollouts failed, and profile refused the partial collection (the run "
    "script's last command exits 0); the eval must be pinned to one checkpoint, not to whatever is newest",
)
def model_serving_builtin_serve_script_follows_newest_checkpoint_and_restarts_server_mid_eval_when_trainer_saves_a_step(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (older, better) = builtin_rows(ctx, 8, 70)
    ckpts = ctx.work / "trainer_out" / "run7"
    ckpts.mkdir(parents=True)
    shutil.copytree(better, ckpts / "step_0200")
    (run / "logs").mkdir(exist_ok=True)
    port = free_port()
    (run / "serve_latest.sh").write_text(SERVE_WATCH_SH.format(ckpts=ckpts, port=port, gp=GP))
    server = ctx.bg(f"cd {run} && bash serve_latest.sh", "logs/serve_latest.log")
    recipes.wait_for(lambda: "serving" in log_of(ctx, "serve_latest.log"), 40, "serve_latest.sh")
    url = f"http://127.0.0.1:{port}/v1"
    (run / "run_eval.sh").write_text(f"#!/bin/bash\n# weekly eval of the served checkpoint\ncd {run}\n"
                                     "echo \"$(date +%s.%N) eval starts\"\n" + pipeline_lines(url, concurrency=2)
                                     + "echo \"$(date +%s.%N) eval done\"\n")
    evaluation = ctx.bg(f"bash {run}/run_eval.sh", "logs/run_eval.log")
    def collecting() -> bool:
        listing = subprocess.run(["ps", "-o", "args=", "-g", str(evaluation.pid)], capture_output=True, text=True)
        return " collect --inputs" in listing.stdout

    recipes.wait_for(collecting, 60, "collect to start")
    time.sleep(5)
    shutil.copytree(older, ckpts / "step_0300")
    ctx.note("(the trainer, still running, saved WORK/trainer_out/run7/step_0300 during the eval)")
    evaluation.wait(timeout=300)
    ctx.stop(server)
    watch = log_of(ctx, "serve_latest.log")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    def stamp(text: str, word: str) -> float:
        return next((float(line.split()[0]) for line in text.splitlines() if word in line and line[:1].isdigit()), 0.0)

    began, restarted, ended = stamp(log, "eval starts"), stamp(watch, "restarting"), stamp(log, "eval done")
    stamps = [began, restarted, ended]
    if not (0 < began < restarted < ended) or not got:
        raise failed(ctx, f"{stamps}, {len(got)}: {watch[-800:]} {log[-1200:]}")
    return (f"WORK/trainer_out/run7 (step_0200, then step_0300 saved mid-eval); RUN/serve_latest.sh (polls the "
            f"folder, restarts serve-policy on port {port} on a new step); the eval (materialize 8 x 3, collect, "
            f"profile) exit {evaluation.returncode}; the server restarted mid-collect; {complete(ctx)} of 24 rollouts, "
            f"mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# infra
# =====================================================================================================

RT_FLAGS = "--cpu-rt-runtime 950000 --ulimit rtprio=99"


@case(
    "infra_docker_collect_container_template_asks_realtime_cpu_budget_that_this_nodes_docker_cgroup_does_not_have",
    "infra",
    ["--cpu-rt-runtime", "rt_runtime_us", "realtime", "template"],
    "the team's container template, copied from the low-latency inference nodes, starts the collect container with "
    "`--cpu-rt-runtime 950000 --ulimit rtprio=99`; on this node the docker cgroup has no real-time CPU budget "
    "(cpu.rt_runtime_us of the parent is 0), so runc cannot apply it ('failed to write \"950000\": write "
    ".../cpu.rt_runtime_us: invalid argument') and Docker refused to start the container: collect never ran and "
    "no rollout was collected although the policy server was up",
)
def infra_docker_collect_container_template_asks_realtime_cpu_budget_that_this_nodes_docker_cgroup_does_not_have(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 76)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h91-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, RT_FLAGS, "collect runs in the team's eval container (flags from "
                                   "the inference nodes' container template)")
    (run / "logs").mkdir(exist_ok=True)
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) or "rt_runtime_us" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run --rm {RT_FLAGS} --network host ... "
            f"gym-pipeline/base:bookworm python -m gym_pipeline.cli collect --model-url {url}`, profile) exit {code}; "
            f"{complete(ctx)} rollouts collected.")


if __name__ == "__main__":
    sys.exit(main("ninety_first_held_out", __file__, __doc__))
