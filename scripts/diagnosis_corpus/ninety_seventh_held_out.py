"""Build the NINETY-SEVENTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/ninety_seventh_held_out.py --out tests/data/diagnosis_corpus/ninety_seventh_held_out [--only CASE ...]

This set was written after the ninety-five earlier sets (first_held_out.py ... ninety_fifth_held_out.py; the
ninety-sixth was written beside it at the same time), from the guides alone (the NeMo Gym debugging guide, the
reward profiling guide, the task-folder troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without
reading the diagnosis rules, their tests or their results. It is meant to be measured once, by someone else, on
failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
Docker containers the user's scripts start, task-folder (Harbor-format) tasksets, and the user's own shell and Python
tooling, settings, data-preparation scripts and verifiers. The output of every command is captured as a user would
(`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data, scripts,
settings, verifier code). Each case injects one cause, different in mechanism from those of the 95 earlier sets, and
each recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not written).
About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), and PYTHONPATH set to this checkout. Run it from a
foreground shell. Containers it makes are named `h97-...` and removed at the end of their recipe.
"""
from __future__ import annotations

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
from ninety_first_held_out import write_task_file  # noqa: E402
from ninety_third_held_out import everything, labelled  # noqa: E402
from recipes import BIN, GP, Ctx, case, main, rows_of, text_of  # noqa: E402
from seventy_first_held_out import docker_collect_script, remove_container  # noqa: E402
from seventy_ninth_held_out import run_eval  # noqa: E402
from sixty_fourth_held_out import mean_of, pipeline_lines  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_sixth_held_out import free_port  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_builtin_run_script_banner_styled_with_tput_in_ci_without_term_so_tput_complains_on_every_run",
    "healthy",
    [],
    "nothing is wrong: run_eval.sh prints its banner in bold with `$(tput bold)` and `$(tput sgr0)`, copied from "
    "the user's interactive helper; the CI runner sets no TERM, so tput prints 'tput: No value for $TERM and no -T "
    "specified' twice and the banner comes out plain; materialize, collect and profile exited 0 and every rollout "
    "was collected and profiled",
)
def healthy_builtin_run_script_banner_styled_with_tput_in_ci_without_term_so_tput_complains_on_every_run(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 72)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text(f"#!/bin/bash\n# weekly eval (banner from my interactive helper)\ncd {run}\n"
                      "echo \"$(tput bold)== weekly eval $(date +%F)$(tput sgr0)\"\n" + pipeline_lines(url))
    (run / "logs").mkdir(exist_ok=True)
    env = {k: v for k, v in ctx.env.items() if k != "TERM"}
    ctx.note("(the CI runner: no TERM in the environment)")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300, env=env)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or "tput: No value for $TERM" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (banner with `tput bold`, no TERM in CI; materialize 6 x 3, collect, profile) exit "
            f"{code}; tput complained {log.count('No value for $TERM')} times; {complete(ctx)} of 18 rollouts, mean "
            f"reward {mean_of(got):.2f}.")


@case(
    "healthy_docker_run_script_records_package_count_of_eval_image_with_apt_list_which_warns_of_unstable_cli",
    "healthy",
    [],
    "nothing is wrong: after the collect container, run_eval.sh records how many packages the eval image holds "
    "(provenance for the weekly report) with `apt list --installed | wc -l` in a throwaway container; apt, whose "
    "output is piped, prints 'WARNING: apt does not have a stable CLI interface. Use with caution in scripts.', which "
    "is only about parsing its output; collect in its container exited 0 and every rollout was collected and "
    "profiled",
)
def healthy_docker_run_script_records_package_count_of_eval_image_with_apt_list_which_warns_of_unstable_cli(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 48)
    url, _ = ctx.policy(better, "--latency-ms 20")
    port = free_port()
    name, probe = f"h97-collect-{port}", f"h97-provenance-{port}"
    after = (f"echo \"eval image packages: $(docker run --rm --name {probe} --network none gym-pipeline/base:bookworm "
             "bash -c 'apt list --installed | wc -l')\"\n")
    script = docker_collect_script(ctx, url, name, "", "collect runs in the team's eval container; record the "
                                   "image's package count for the report", after=after)
    (run / "logs").mkdir(exist_ok=True)
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
        remove_container(probe)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or "does not have a stable CLI interface" not in log \
            or "collect container exit: 0" not in log or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run ... gym-pipeline/base:bookworm python -m "
            f"gym_pipeline.cli collect`, `apt list --installed | wc -l` in a second container, profile) exit {code}; "
            f"apt warned of its unstable CLI; {complete(ctx)} of 18 rollouts, mean reward {mean_of(got):.2f}.")


DMESG_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
# debugging aid: the last kernel messages, in case the agent's command was OOM-killed
dmesg | tail -n 5
if test "$(tr -d "[:space:]" < /app/count.txt 2>/dev/null)" = "3"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def dmesg_probe(tasks: Path) -> None:
    write_task_file(tasks, "count-error-lines", "tests/test.sh", DMESG_TEST_SH)


@case(
    "healthy_taskfolder_test_sh_dumps_kernel_log_with_dmesg_which_the_unprivileged_sandbox_may_not_read",
    "healthy",
    [],
    "nothing is wrong: the author of count-error-lines added `dmesg | tail -n 5` to tests/test.sh to see OOM kills "
    "of the agent's commands; the sandbox container may not read the kernel ring buffer, so every verification "
    "prints 'dmesg: read kernel buffer failed: Operation not permitted', and test.sh goes on to its real check, "
    "which does not depend on it: every episode in which the agent wrote the right count passed, and every episode "
    "was collected, scored and profiled",
)
def healthy_taskfolder_test_sh_dumps_kernel_log_with_dmesg_which_the_unprivileged_sandbox_may_not_read(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["count-error-lines", "create-greeting"], edit=dmesg_probe, repeats=4)
    counts, greeting = task_rewards(ctx, "count-error-lines"), task_rewards(ctx, "create-greeting")
    text = everything(ctx)
    if code or complete(ctx) != 8 or not any(counts) or not any(greeting) or "dmesg:" not in text \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {counts} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/count-error-lines/tests/test.sh (`dmesg | tail -n 5`, not permitted in the sandbox); "
            f"RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile x 2) exit {code}; {complete(ctx)} "
            f"episodes, rewards {counts} and {greeting}.")


# =====================================================================================================
# infra (Docker)
# =====================================================================================================

PINNED = "gym-pipeline/base:bookworm-2026.11"


@case(
    "infra_docker_collect_container_pinned_to_dated_image_tag_that_nightly_prune_removed_from_node_with_pull_never",
    "infra",
    ["docker", "image", "bookworm-2026.11", "tag"],
    "run_eval.sh starts the collect container from the pinned, dated image gym-pipeline/base:bookworm-2026.11 with "
    "`--pull never` (the eval nodes may not reach the registry); the node's nightly image prune removed that tag "
    "since last week's run, so docker refused ('No such image: gym-pipeline/base:bookworm-2026.11'), collect never "
    "ran and no rollout was collected although the policy server was up; the pinned image must be loaded/tagged "
    "on the node again",
)
def infra_docker_collect_container_pinned_to_dated_image_tag_that_nightly_prune_removed_from_node_with_pull_never(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 54)
    url, _ = ctx.policy(better, "--latency-ms 20")
    subprocess.run(["docker", "tag", "gym-pipeline/base:bookworm", PINNED], capture_output=True, check=False)
    ctx.note(f"(last week: {PINNED} was on the node)")
    ctx.sh(f"docker rmi {PINNED}", "logs/nightly_image_prune.log")
    ctx.note("(the node's nightly prune removed the tag)")
    name = f"h97-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, "--pull never", "collect runs in the pinned eval image "
                                   "(no registry access from the eval nodes)")
    script.write_text(script.read_text().replace("gym-pipeline/base:bookworm \\", f"{PINNED} \\"))
    (run / "logs").mkdir(exist_ok=True)
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
        subprocess.run(["docker", "rmi", PINNED], capture_output=True, check=False)
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) or "No such image" not in log or "collect container exit: 0" in log or PINNED not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run --pull never ... {PINNED} python -m gym_pipeline.cli "
            f"collect`, profile) exit {code}; the tag was pruned from the node; {complete(ctx)} rollouts collected.")


# =====================================================================================================
# config
# =====================================================================================================

LOOP_SH = """while read -r step url; do
  echo "== $step at $url"
  mkdir -p results/$step
  {gp} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
    --output results/$step/rollouts_materialized_inputs.jsonl
  {gp} collect --inputs results/$step/rollouts_materialized_inputs.jsonl --output results/$step/rollouts.jsonl \\
    --model-url "$url" --env string_match --concurrency 4
  {gp} profile --inputs results/$step/rollouts_materialized_inputs.jsonl --rollouts results/$step/rollouts.jsonl
done < checkpoints.txt
echo "evaluated: $(ls results | tr '\\n' ' ')"
"""


@case(
    "config_builtin_checkpoint_list_saved_without_final_newline_so_while_read_loop_skips_newest_step",
    "config",
    ["checkpoints.txt", "newline", "while read", "step_0200"],
    "run_eval.sh evaluates every checkpoint of checkpoints.txt with `while read -r step url; do ... done < "
    "checkpoints.txt`; the user's editor saved the list without a final newline, so `read` returns non-zero on its "
    "last line (step_0200, the newest checkpoint) and the loop ends before evaluating it: only step_0100 was "
    "evaluated and results/step_0200 does not exist, while every command exits 0",
)
def config_builtin_checkpoint_list_saved_without_final_newline_so_while_read_loop_skips_newest_step(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (older, better) = builtin_rows(ctx, 6, 60)
    url_old, _ = ctx.policy(older, "--latency-ms 20", log="logs/model_server_step_0100.log")
    url_new, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server_step_0200.log")
    (run / "checkpoints.txt").write_text(f"step_0100 {url_old}\nstep_0200 {url_new}")
    code = run_eval(ctx, LOOP_SH.format(gp=GP), "weekly eval of every checkpoint in checkpoints.txt")
    log = log_of(ctx, "run_eval.log")
    first = rows_of(run / "results" / "step_0100" / "rollouts.jsonl")
    if code or len(first) != 18 or (run / "results" / "step_0200").exists() or "== step_0200" in log:
        raise failed(ctx, f"exit {code}, {len(first)}: {log[-1500:]}")
    return (f"RUN/checkpoints.txt (two lines, no final newline); RUN/run_eval.sh (`while read -r step url` over it: "
            f"materialize 6 x 3, collect, profile) exit {code}; results/step_0100 {len(first)} rollouts, "
            f"results/step_0200 never made.")


# =====================================================================================================
# data_schema
# =====================================================================================================

HALF_PAIRS = [
    ("What is 5 divided by 2?", "2.5", "2.5"),
    ("What is 7 divided by 2?", "3.5", "3.5"),
    ("What is one half written as a decimal number?", "0.5", "0.5"),
    ("How many legs does a spider have?", "8.0", "8"),
    ("How many hours are in a day?", "24.0", "24"),
    ("What is the capital of Norway?", "Oslo", "Oslo"),
    ("What is the capital of Portugal?", "Lisbon", "Lisbon"),
    ("How many sides does a hexagon have?", "6.0", "6"),
]

PREP_ROUND_PY = '''"""prep.py: the review sheet's export (answers.tsv) -> string_match.jsonl."""
import json


def clean(answer):
    # the sheet exports whole numbers as 8.0 and 24.0: make them plain integers
    try:
        return str(round(float(answer)))
    except ValueError:
        return answer.strip()


with open("answers.tsv", encoding="utf-8") as f:
    records = [line.rstrip("\\n").split("\\t") for line in f if line.strip()][1:]
with open("string_match.jsonl", "w") as out:
    for question, answer in records:
        text = f"{question} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": clean(answer), "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
print(f"prep: {len(records)} rows written")
'''


@case(
    "data_schema_builtin_prep_rounds_numeric_labels_to_drop_spreadsheet_dot_zero_so_half_values_lose_their_fraction",
    "data_schema",
    ["prep.py", "round", "float", "2.5"],
    "the user's prep.py turns every numeric answer of the review sheet into an integer with `str(round(float("
    "answer)))`, meant to turn the sheet's '8.0' and '24.0' into '8' and '24'; it also rounds the real decimal "
    "answers, so 2.5, 3.5 and 0.5 became the labels '2', '4' and '0' (round half to even), and every rollout of "
    "those three questions in which the model answered right scored 0, while every command exits 0",
)
def data_schema_builtin_prep_rounds_numeric_labels_to_drop_spreadsheet_dot_zero_so_half_values_lose_their_fraction(
        ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, [(q, right) for q, _, right in HALF_PAIRS])
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "answers.tsv").write_text("question\tanswer\n" + "".join(f"{q}\t{a}\n" for q, a, _ in HALF_PAIRS),
                                     encoding="utf-8")
    (run / "prep.py").write_text(PREP_ROUND_PY)
    code = run_eval(ctx, f"{BIN}/python prep.py\n" + pipeline_lines(url), "weekly eval: prep the sheet, then run")
    labels = [r["expected_answer"] for r in rows_of(run / "string_match.jsonl")]
    got = rows_of(run / "rollouts.jsonl")
    broken, others = labelled(got, {"2", "4", "0"})
    if code or labels[:3] != ["2", "4", "0"] or len(broken) != 9 or sum(rewards(broken)) > 1 or mean_of(others) < mean_of(broken) + 0.3:
        raise failed(ctx, f"exit {code}, {labels}, {rewards(broken)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/answers.tsv (8 questions, three decimal answers, whole numbers as 8.0); RUN/prep.py "
            f"(`str(round(float(answer)))`); RUN/run_eval.sh (prep, materialize 8 x 3, collect, profile) exit {code}; "
            f"labels {labels}; rewards of the three rounded labels {rewards(broken)}, others mean "
            f"{mean_of(others):.2f}.")


# =====================================================================================================
# verifier_runtime (task folder)
# =====================================================================================================

DEBUG_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
set -e
# debug output only when VERIFIER_DEBUG is set
debug() { [ -n "${VERIFIER_DEBUG:-}" ] && echo "debug: $*"; }
cd /app
debug "count.txt holds: $(cat /app/count.txt 2>/dev/null)"
if test "$(tr -d "[:space:]" < /app/count.txt 2>/dev/null)" = "3"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def debug_helper(tasks: Path) -> None:
    write_task_file(tasks, "count-error-lines", "tests/test.sh", DEBUG_TEST_SH)


@case(
    "verifier_runtime_taskfolder_test_sh_debug_helper_ends_in_and_list_so_under_set_e_its_first_call_exits_before_reward",
    "verifier_runtime",
    ["test.sh", "debug", "set -e", "VERIFIER_DEBUG"],
    "the author of count-error-lines added to tests/test.sh (which runs under `set -e`) a helper `debug() { [ -n "
    "\"${VERIFIER_DEBUG:-}\" ] && echo ...; }`; without VERIFIER_DEBUG the helper's last command fails, so it "
    "returns 1, and its first call (before the check) ends test.sh under set -e with no output and no "
    "reward.txt: every episode of the task got no reward although the agent wrote the right count, while "
    "create-greeting scored (every command exits 0)",
)
def verifier_runtime_taskfolder_test_sh_debug_helper_ends_in_and_list_so_under_set_e_its_first_call_exits_before_reward(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["count-error-lines", "create-greeting"], edit=debug_helper, repeats=4)
    counts, greeting = task_rewards(ctx, "count-error-lines"), task_rewards(ctx, "create-greeting")
    text = everything(ctx)
    if code or not counts or any(counts) or not any(greeting) or "debug: count.txt" in text:
        raise failed(ctx, f"exit {code}, {counts} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/count-error-lines/tests/test.sh (`set -e`, `debug() {{ [ -n \"${{VERIFIER_DEBUG:-}}\" ] && "
            f"echo ...; }}` called before the check); RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, "
            f"profile x 2) exit {code}; count-error-lines rewards {counts}, create-greeting {greeting}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

RESUME_SH = """#!/bin/bash
# weekly eval: bash run_eval.sh STEP MODEL_URL
# --resume: the eval nodes are preemptible, a restarted job goes on where it stopped
cd {run}
STEP=$1
MODEL_URL=$2
OUT=string_match_rollouts.jsonl
echo "== evaluating $STEP at $MODEL_URL"
{gp} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
{gp} collect --inputs rollouts_materialized_inputs.jsonl --output $OUT --model-url $MODEL_URL \\
  --env string_match --concurrency 4 --resume
{gp} profile --inputs rollouts_materialized_inputs.jsonl --rollouts $OUT
echo "$STEP: $(wc -l < $OUT) rollouts in $OUT"
"""


@case(
    "cache_resume_builtin_run_script_always_resumes_into_output_named_after_dataset_so_new_checkpoint_keeps_last_steps_rollouts",
    "cache_resume",
    ["run_eval.sh", "--resume", "string_match_rollouts.jsonl", "STEP"],
    "run_eval.sh always passes --resume to collect (the eval nodes are preemptible) and writes to "
    "string_match_rollouts.jsonl, a name made from the dataset only, not from the checkpoint; this week's run of "
    "step_0200 found every (task, rollout) key already settled by last week's step_0100 run in the same folder, "
    "collected nothing new, and profiled step_0100's rollouts as step_0200's (every command exits 0)",
)
def cache_resume_builtin_run_script_always_resumes_into_output_named_after_dataset_so_new_checkpoint_keeps_last_steps_rollouts(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (older, better) = builtin_rows(ctx, 6, 66)
    url_old, old_server = ctx.policy(older, "--latency-ms 20", log="logs/model_server_step_0100.log")
    script = run / "run_eval.sh"
    script.write_text(RESUME_SH.format(run=run, gp=GP))
    (run / "logs").mkdir(exist_ok=True)
    ctx.note("(last week:)")
    first = ctx.sh(f"bash {script} step_0100 {url_old}", "logs/run_eval_step_0100.log", timeout=300)
    ctx.stop(old_server)
    before = text_of(run / "string_match_rollouts.jsonl")
    url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server_step_0200.log")
    ctx.note("(this week:)")
    code = ctx.sh(f"bash {script} step_0200 {url}", "logs/run_eval_step_0200.log", timeout=300)
    after = text_of(run / "string_match_rollouts.jsonl")
    got = rows_of(run / "string_match_rollouts.jsonl")
    if first or code or len(got) != 18 or before != after:
        raise failed(ctx, f"exit {first}/{code}, {len(got)}: {log_of(ctx, 'run_eval_step_0200.log')[-1500:]}")
    return (f"RUN/run_eval.sh (collect --resume --output string_match_rollouts.jsonl, same name for every step); "
            f"last week's step_0100 run exit {first}; this week's step_0200 run exit {code}; the output is "
            f"unchanged ({len(got)} rollouts of step_0100, mean reward {mean_of(got):.2f}).")


if __name__ == "__main__":
    sys.exit(main("ninety_seventh_held_out", __file__, __doc__))
