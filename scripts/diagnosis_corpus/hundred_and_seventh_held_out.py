"""Build the HUNDRED-AND-SEVENTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/hundred_and_seventh_held_out.py --out tests/data/diagnosis_corpus/hundred_and_seventh_held_out [--only CASE ...]

This set was written after a hundred and five earlier sets (first_held_out.py ... hundred_and_fifth_held_out.py; the
hundred-and-sixth was written beside it at the same time), from the guides alone (the NeMo Gym debugging guide, the
reward profiling guide, the task-folder troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without
reading the diagnosis rules, their tests or their results. It is meant to be measured once, by someone else, on
failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
Docker containers the user's scripts start, task-folder (Harbor-format) tasksets, and the user's own shell and
Python tooling, settings, data-preparation scripts and verifiers. The output of every command is captured as a user
would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data,
scripts, settings, verifier code). Each case injects one cause, different in mechanism from those of the 105 earlier
sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not
written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), and PYTHONPATH set to this checkout. Run it from a
foreground shell. Containers it makes are named `h107-...` and removed at the end of their recipe.
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
from hundred_and_fifth_held_out import reference_mean  # noqa: E402
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
    "healthy_builtin_run_script_previews_dataset_bytes_with_hexdump_of_first_line_that_prints_cut_off_json",
    "healthy",
    [],
    "nothing is wrong: run_eval.sh starts by showing the first 160 bytes of string_match.jsonl with `head -c 160 | "
    "hexdump -C` (the team checks for a BOM and CR line ends that way), so the log shows a hex table of a JSON line "
    "cut off mid-string; materialize, collect and profile then ran as usual and every rollout was collected and "
    "profiled",
)
def healthy_builtin_run_script_previews_dataset_bytes_with_hexdump_of_first_line_that_prints_cut_off_json(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 12)
    url, _ = ctx.policy(better, "--latency-ms 20")
    body = ("echo '== first bytes of the dataset (BOM? CRLF?)'\nhead -c 160 string_match.jsonl | hexdump -C\n"
            + pipeline_lines(url))
    code = run_eval(ctx, body, "weekly eval; check the export's bytes first")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or "000000a0" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (`head -c 160 string_match.jsonl | hexdump -C`; materialize 6 x 3, collect, profile) "
            f"exit {code}; {complete(ctx)} of 18 rollouts, mean reward {mean_of(got):.2f}.")


@case(
    "healthy_docker_run_script_prunes_pip_cache_volume_of_an_older_image_that_was_never_created_on_this_node",
    "healthy",
    [],
    "nothing is wrong: run_eval.sh starts with `docker volume rm h107-pip-cache-py310` to free the pip cache of the "
    "retired Python 3.10 image; that volume never existed on this node, so docker prints 'Error response from "
    "daemon: ... no such volume' (exit 1, unchecked); the collect container then exited 0 and every rollout was "
    "collected and profiled",
)
def healthy_docker_run_script_prunes_pip_cache_volume_of_an_older_image_that_was_never_created_on_this_node(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 30)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h107-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, "", "collect runs in the eval container")
    text = script.read_text()
    prune = ("echo '== free the pip cache of the retired py310 image'\ndocker volume rm h107-pip-cache-py310\n")
    script.write_text(text.replace("docker run --rm", prune + "docker run --rm", 1))
    (run / "logs").mkdir(exist_ok=True)
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or "no such volume" not in log or "collect container exit: 0" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (`docker volume rm h107-pip-cache-py310`, absent; materialize 6 x 3, docker collect, "
            f"profile) exit {code}; {complete(ctx)} of 18 rollouts, mean reward {mean_of(got):.2f}.")


DASHBOARD_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
if test "$(cat /app/hello.txt 2>/dev/null)" = "Hello, Gym!"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
# best effort: tell the team dashboard (reachable from the CI runners only; sandboxes are offline)
python3 - <<'EOF' || echo "dashboard report skipped"
import urllib.request
urllib.request.urlopen("http://evals-dashboard.internal:8080/api/verdicts?task=create-greeting", timeout=3)
EOF
"""


def dashboard_report(tasks: Path) -> None:
    write_task_file(tasks, "create-greeting", "tests/test.sh", DASHBOARD_TEST_SH)


@case(
    "healthy_taskfolder_test_sh_reports_verdict_to_team_dashboard_from_offline_sandbox_so_every_check_ends_in_urlerror_traceback",
    "healthy",
    [],
    "nothing is wrong: the author of create-greeting made tests/test.sh report each verdict to the team dashboard "
    "with a short python3 urllib call after writing reward.txt; sandboxes have no network, so every verification "
    "ends with a Python traceback (URLError, name resolution failed) and 'dashboard report skipped', but the reward "
    "was already written: every episode was collected, scored and profiled",
)
def healthy_taskfolder_test_sh_reports_verdict_to_team_dashboard_from_offline_sandbox_so_every_check_ends_in_urlerror_traceback(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["count-error-lines", "create-greeting"], edit=dashboard_report, repeats=4)
    counts, greeting = task_rewards(ctx, "count-error-lines"), task_rewards(ctx, "create-greeting")
    text = everything(ctx)
    if code or complete(ctx) != 8 or not any(counts) or not any(greeting) or "URLError" not in text \
            or "dashboard report skipped" not in text \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {counts} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/create-greeting/tests/test.sh (python3 urllib report to evals-dashboard.internal after the "
            f"reward); RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile x 2) exit {code}; "
            f"{complete(ctx)} episodes, rewards {counts} and {greeting}.")


# =====================================================================================================
# config
# =====================================================================================================

MAKEFILE = """# weekly eval of the candidate checkpoint (step_0200)
MODEL_URL := {new}
include eval_defaults.mk

eval:
\t{gp} materialize --input $(DATASET) --num-repeats $(NUM_REPEATS) --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
\t{gp} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $(MODEL_URL) --env string_match --concurrency $(CONCURRENCY)
\t{gp} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl

.PHONY: eval
"""

DEFAULTS_MK = """# eval_defaults.mk: the team's defaults for eval Makefiles (copied from evals-common, step_0100 review)
DATASET = string_match.jsonl
NUM_REPEATS = 3
CONCURRENCY = 4
MODEL_URL = {old}
"""


@case(
    "config_builtin_makefile_includes_team_defaults_after_its_own_model_url_so_the_defaults_older_url_overrides_it",
    "config",
    ["Makefile", "include", "eval_defaults.mk", "MODEL_URL"],
    "the Makefile sets the step_0200 candidate with `MODEL_URL := ...` and only then `include eval_defaults.mk`; the "
    "team defaults file also assigns MODEL_URL (the step_0100 server of last week's review), and the later "
    "assignment wins, so make ran collect against step_0100: the old checkpoint was evaluated under the step_0200 "
    "name, the step_0200 server got no request, and every command exits 0",
)
def config_builtin_makefile_includes_team_defaults_after_its_own_model_url_so_the_defaults_older_url_overrides_it(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (older, better) = builtin_rows(ctx, 6, 44)
    old, _ = ctx.policy(older, "--latency-ms 20", log="logs/model_server_step_0100.log")
    new, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server_step_0200.log")
    (run / "Makefile").write_text(MAKEFILE.format(new=new, gp=GP))
    (run / "eval_defaults.mk").write_text(DEFAULTS_MK.format(old=old))
    (run / "logs").mkdir(exist_ok=True)
    code = ctx.sh(f"cd {run} && make eval", "logs/make_eval.log", timeout=300)
    log = log_of(ctx, "make_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    old_mean, new_mean = reference_mean(ctx, old, "step_0100"), reference_mean(ctx, new, "step_0200")
    if code or complete(ctx) != 18 or f"--model-url {old}" not in log or new in log \
            or abs(mean_of(got) - old_mean) > 1e-9 or abs(new_mean - old_mean) < 0.1:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {mean_of(got)} {old_mean} {new_mean}: {log[-1500:]}")
    return (f"RUN/Makefile (`MODEL_URL := step_0200 URL`, then `include eval_defaults.mk`); RUN/eval_defaults.mk "
            f"(`MODEL_URL = step_0100 URL`); make eval exit {code}; {complete(ctx)} rollouts, all from step_0100 (mean "
            f"reward {mean_of(got):.2f}; step_0100 earns {old_mean:.2f} on these inputs, step_0200 {new_mean:.2f}).")


# =====================================================================================================
# data_schema
# =====================================================================================================

BIG_NUMBERS = [
    ("What is the speed of light in vacuum, in metres per second?", "299792458"),
    ("How many seconds are there in a non-leap year?", "31536000"),
    ("What is 1234 multiplied by 1000?", "1234000"),
    ("What is the capital of Canada?", "Ottawa"),
    ("What is the capital of Kenya?", "Nairobi"),
    ("How many metres are there in a kilometre?", "1000"),
]

PREP_G_PY = '''"""prep.py: answer_key.tsv (question<TAB>answer, from the labelling sheet) -> string_match.jsonl."""
import json


def norm(answer: str) -> str:
    """One spelling per number: '3.0', '3.00' and '3' all become '3'; words stay as they are."""
    try:
        return "%g" % float(answer)
    except ValueError:
        return answer.strip()


rows = []
with open("answer_key.tsv", encoding="utf-8") as f:
    next(f)  # header
    for line in f:
        question, answer = line.rstrip("\\n").split("\\t")
        text = f"{question} End your response with 'Final answer: <answer>'."
        rows.append({"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                            "content": [{"type": "input_text", "text": text}]}]},
                     "expected_answer": norm(answer), "extraction_mode": "final_answer"})
with open("string_match.jsonl", "w") as out:
    out.writelines(json.dumps(row) + "\\n" for row in rows)
print(f"prep: {len(rows)} rows written")
'''


@case(
    "data_schema_builtin_prep_normalises_numeric_answers_with_percent_g_which_writes_seven_digit_labels_in_exponent_notation",
    "data_schema",
    ["prep.py", "%g", "2.99792e+08", "expected_answer"],
    "prep.py normalises every numeric answer with `\"%g\" % float(answer)` (so 3.0 and 3 agree); %g keeps only six "
    "significant digits and switches to exponent notation, so the labels of 299792458, 31536000 and 1234000 became "
    "'2.99792e+08', '3.1536e+07' and '1.234e+06' and the string_match verifier scored 0 every right answer to those "
    "three questions while the other questions scored normally (every command exits 0)",
)
def data_schema_builtin_prep_normalises_numeric_answers_with_percent_g_which_writes_seven_digit_labels_in_exponent_notation(
        ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, BIG_NUMBERS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "answer_key.tsv").write_text("question\tanswer\n" + "".join(f"{q}\t{a}\n" for q, a in BIG_NUMBERS),
                                        encoding="utf-8")
    (run / "prep.py").write_text(PREP_G_PY)
    code = run_eval(ctx, f"{BIN}/python prep.py\n" + pipeline_lines(url), "weekly eval: prep the answer key, then run")
    labels = [r["expected_answer"] for r in rows_of(run / "string_match.jsonl")]
    got = rows_of(run / "rollouts.jsonl")
    broken, others = labelled(got, {"2.99792e+08", "3.1536e+07", "1.234e+06"})
    if code or labels[:3] != ["2.99792e+08", "3.1536e+07", "1.234e+06"] or len(broken) != 9 \
            or sum(rewards(broken)) > 1 or mean_of(others) < mean_of(broken) + 0.3:
        raise failed(ctx, f"exit {code}, {labels}, {rewards(broken)}: {got[:1]}")
    return (f"RUN/answer_key.tsv (299792458, 31536000, 1234000 among the answers); RUN/prep.py (`\"%g\" % float`); "
            f"RUN/run_eval.sh (prep, materialize 6 x 3, collect, profile) exit {code}; labels {labels}; rewards of the "
            f"three exponent labels {rewards(broken)}, others mean {mean_of(others):.2f}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

WEEK_DRIVER_PY = '''"""drive_eval.py MODEL_URL: the weekly eval; results kept per ISO week under results/ (CI retries reuse them)."""
import datetime
import shutil
import subprocess
import sys
from pathlib import Path

GP = "{gp}"
url = sys.argv[1]
week = datetime.date.today().strftime("%G-W%V")
out = Path("results") / week
out.mkdir(parents=True, exist_ok=True)
subprocess.run([GP, "materialize", "--input", "string_match.jsonl", "--num-repeats", "3", "--agent",
                "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
if (out / "rollouts.jsonl").exists():
    print(f"== results for {{week}} already collected, reusing {{out / 'rollouts.jsonl'}}", flush=True)
else:
    print(f"== collecting {{week}} from {{url}}", flush=True)
    subprocess.run([GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output",
                    str(out / "rollouts.jsonl"), "--model-url", url, "--env", "string_match", "--concurrency", "4"],
                   check=True)
shutil.copy(out / "rollouts.jsonl", "rollouts.jsonl")
subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
               check=True)
print("eval done", flush=True)
'''


@case(
    "cache_resume_builtin_driver_reuses_results_folder_keyed_by_iso_week_so_same_week_run_of_new_checkpoint_gets_the_old_rollouts",
    "cache_resume",
    ["drive_eval.py", "%G-W%V", "results", "rollouts.jsonl"],
    "the user's drive_eval.py keeps rollouts in results/<ISO week>/ and skips collect when that week's rollouts.jsonl "
    "exists (so CI retries reuse them); the key holds no checkpoint, so this afternoon's run of step_0200 found the "
    "folder the morning's step_0100 run filled, printed 'already collected, reusing' and profiled step_0100's "
    "rollouts: the step_0200 server got no request and every command exits 0",
)
def cache_resume_builtin_driver_reuses_results_folder_keyed_by_iso_week_so_same_week_run_of_new_checkpoint_gets_the_old_rollouts(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (older, better) = builtin_rows(ctx, 6, 62)
    old, _ = ctx.policy(older, "--latency-ms 20", log="logs/model_server_step_0100.log")
    new, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server_step_0200.log")
    (run / "drive_eval.py").write_text(WEEK_DRIVER_PY.format(gp=GP))
    (run / "logs").mkdir(exist_ok=True)
    before = ctx.sh(f"cd {run} && {BIN}/python drive_eval.py {old}", "logs/drive_eval_step_0100.log", timeout=300)
    code = ctx.sh(f"cd {run} && {BIN}/python drive_eval.py {new}", "logs/drive_eval_step_0200.log", timeout=300)
    log = log_of(ctx, "drive_eval_step_0200.log")
    got = rows_of(run / "rollouts.jsonl")
    old_mean, new_mean = reference_mean(ctx, old, "step_0100"), reference_mean(ctx, new, "step_0200")
    if before or code or complete(ctx) != 18 or "already collected, reusing" not in log \
            or abs(mean_of(got) - old_mean) > 1e-9 or abs(new_mean - old_mean) < 0.1:
        raise failed(ctx, f"exit {before}/{code}, {complete(ctx)}, {mean_of(got)} {old_mean} {new_mean}: {log[-1500:]}")
    return (f"RUN/drive_eval.py (skips collect when results/<%G-W%V>/rollouts.jsonl exists); the morning run of "
            f"step_0100 exit {before}, the afternoon run of step_0200 exit {code}; {complete(ctx)} rollouts (all "
            f"step_0100's), mean reward {mean_of(got):.2f} (step_0100 earns {old_mean:.2f}, step_0200 {new_mean:.2f}).")


# =====================================================================================================
# verifier_runtime (task folder)
# =====================================================================================================

TEE_TEST_SH = """#!/bin/bash
# Writes the reward to /logs/verifier/reward.txt (and shows it in the log for the reviewers).
cd /app
if test "$(cat /app/hello.txt 2>/dev/null)" = "Hello, Gym!"; then
  echo "PASS"
  echo "reward: 1" | tee /logs/verifier/reward.txt
else
  echo "FAIL"
  echo "reward: 0" | tee /logs/verifier/reward.txt
fi
"""


def tee_reward(tasks: Path) -> None:
    write_task_file(tasks, "create-greeting", "tests/test.sh", TEE_TEST_SH)


@case(
    "verifier_runtime_taskfolder_test_sh_tees_labelled_reward_line_into_reward_txt_so_it_holds_reward_colon_1_not_a_number",
    "verifier_runtime",
    ["test.sh", "reward.txt", "tee", "reward: 1"],
    "the author of create-greeting made tests/test.sh show the reward in the log with `echo \"reward: 1\" | tee "
    "/logs/verifier/reward.txt`; tee writes the whole labelled line into reward.txt, which must hold a bare number, "
    "so no verification of the task gave a reward (every create-greeting episode is an invalid reward, passing or "
    "not) while count-error-lines scored normally",
)
def verifier_runtime_taskfolder_test_sh_tees_labelled_reward_line_into_reward_txt_so_it_holds_reward_colon_1_not_a_number(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["count-error-lines", "create-greeting"], edit=tee_reward, repeats=4)
    counts, greeting = task_rewards(ctx, "count-error-lines"), task_rewards(ctx, "create-greeting")
    text = everything(ctx)
    if not any(counts) or any(greeting) or "reward: 1" not in text or "invalid_reward" not in text:
        raise failed(ctx, f"exit {code}, {counts} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/create-greeting/tests/test.sh (`echo \"reward: 1\" | tee /logs/verifier/reward.txt`); "
            f"RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile x 2) exit {code}; create-greeting "
            f"rewards {greeting}, count-error-lines {counts}.")


# =====================================================================================================
# infra (Docker)
# =====================================================================================================


@case(
    "infra_docker_collect_container_mounts_run_folder_with_ro_suffix_copied_from_dataset_mount_so_rollouts_cannot_be_written",
    "infra",
    ["run_eval.sh", "-v", ":ro", "run folder"],
    "run_eval.sh mounts the run folder into the collect container with a `:ro` suffix (copied from the read-only "
    "dataset mount of the team's template); collect could read the materialized inputs but not create rollouts.jsonl "
    "('Read-only file system'), the container exited non-zero, and profile found no rollouts although the policy "
    "server was up",
)
def infra_docker_collect_container_mounts_run_folder_with_ro_suffix_copied_from_dataset_mount_so_rollouts_cannot_be_written(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 80)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h107-collect-{free_port()}"
    script = docker_collect_script(ctx, url, name, "", "collect runs in the eval container (mounts as in the "
                                   "team template)")
    text = script.read_text()
    if f"-v {run}:{run} " not in text:
        raise recipes.RecipeError("run folder mount not found in the script")
    script.write_text(text.replace(f"-v {run}:{run} ", f"-v {run}:{run}:ro ", 1))
    (run / "logs").mkdir(exist_ok=True)
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) or "Read-only file system" not in log or "collect container exit: 0" in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run -v RUN:RUN:ro ... collect`, profile) exit {code}; "
            f"collect could not write rollouts.jsonl; {complete(ctx)} rollouts collected.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

SHARD_DRIVER_PY = '''"""drive_eval.py MODEL_URL: collect the materialized inputs in 4 shards at once, merge, profile."""
import subprocess
import sys
import time

GP = "{gp}"
SHARDS = 4
url = sys.argv[1]
t0 = time.monotonic()
subprocess.run([GP, "materialize", "--input", "string_match.jsonl", "--num-repeats", "3", "--agent",
                "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
lines = open("rollouts_materialized_inputs.jsonl").readlines()
for i in range(SHARDS):
    with open(f"shard_{{i}}.jsonl", "w") as f:
        f.writelines(lines[i::SHARDS])


def start(i):
    print(f"[{{time.monotonic() - t0:5.1f}} s] shard {{i}}: collect started", flush=True)
    return subprocess.Popen([GP, "collect", "--inputs", f"shard_{{i}}.jsonl", "--output", f"rollouts_shard_{{i}}.jsonl",
                             "--model-url", url, "--env", "string_match", "--concurrency", "2"])


# start the 4 shards and gather their exit codes
codes = [start(i).wait() for i in range(SHARDS)]
print(f"[{{time.monotonic() - t0:5.1f}} s] shards done: {{codes}}", flush=True)
with open("rollouts.jsonl", "w") as out:
    for i in range(SHARDS):
        out.write(open(f"rollouts_shard_{{i}}.jsonl").read())
subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
               check=True)
print("eval done", flush=True)
'''


@case(
    "throughput_resources_builtin_driver_waits_on_each_shard_inside_the_list_comprehension_that_starts_them_so_shards_run_serially_past_ci_budget",
    "throughput_resources",
    ["drive_eval.py", "Popen", "wait()", "shards"],
    "the user's drive_eval.py means to collect 4 shards at once but writes `codes = [start(i).wait() for i in "
    "range(SHARDS)]`, which waits for each shard before starting the next; against the served checkpoint (about 2.5 "
    "s a completion) the shards ran one after another (the log's start times are about 14 s apart), and the CI "
    "step's `timeout 35` stopped the driver during the third shard: no merged rollouts.jsonl, no profile",
)
def throughput_resources_builtin_driver_waits_on_each_shard_inside_the_list_comprehension_that_starts_them_so_shards_run_serially_past_ci_budget(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 12, 70)
    url, _ = ctx.policy(better, "--latency-ms 2500")
    (run / "drive_eval.py").write_text(SHARD_DRIVER_PY.format(gp=GP))
    body = (f"timeout 35 {BIN}/python drive_eval.py {url}\n"
            "echo \"eval step exit: $?\"\n")
    code = run_eval(ctx, body, "CI eval step (budget 35 s for the smoke eval)", timeout=200)
    log = log_of(ctx, "run_eval.log")
    shards = [len(rows_of(run / f"rollouts_shard_{i}.jsonl")) for i in range(4)]
    if complete(ctx) or "eval step exit: 124" not in log or "shard 1: collect started" not in log \
            or "shard 2: collect started" not in log or "shard 3: collect started" in log or shards[:2] != [9, 9]:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, shards {shards}: {log[-1500:]}")
    return (f"RUN/drive_eval.py (`[start(i).wait() for i in range(SHARDS)]`, 4 shards of 9 rollouts, concurrency 2 "
            f"each); RUN/run_eval.sh (`timeout 35`) exit {code}; shard rollouts {shards}, no merged rollouts.jsonl.")


if __name__ == "__main__":
    sys.exit(main("hundred_and_seventh_held_out", __file__, __doc__))
