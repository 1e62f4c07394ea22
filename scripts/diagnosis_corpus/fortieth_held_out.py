"""Build the FORTIETH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/fortieth_held_out.py --out tests/data/diagnosis_corpus/fortieth_held_out [--only CASE ...]

This set was written after the thirty-nine earlier sets (first_held_out.py ... thirty_ninth_held_out.py), from the
guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
task folders run in Docker sandboxes, Slurm batch jobs, the real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` /
`gym eval profile` inside a loopback-only network namespace, with a user's own resources server), and the user's own
shell scripts, settings files, helper servers (gateways), task files, release archives and data-preparation scripts.
The output of every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is
written by hand but the user's own inputs (data, scripts, settings, verifier code). Each case injects one cause,
different in mechanism from those of the thirty-nine earlier sets, and each recipe checks that its fault really
happened (it raises RecipeError otherwise, and the case is not written). About half of the failures are silent: every
command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare,
mount), Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this checkout. Run it from a foreground shell.
"""

from __future__ import annotations

import shlex
import signal
import subprocess
import sys
import time
import zipfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import (  # noqa: E402
    checkpoints,
    failed,
    gym_start,
    served,
    stage_argv,
    stop_gym,
    task_checkpoints,
    user_taskset,
    workspace_sweep,
)
from fourteenth_held_out import mean, rewards  # noqa: E402
from recipes import Ctx, case, gym_model_args, main, rows_of, text_of, unique_keys, wait_for  # noqa: E402
from tenth_held_out import in_log  # noqa: E402
from thirtieth_held_out import gym_rows  # noqa: E402
from thirty_fifth_held_out import mean_reward, pipeline  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_fifth_held_out import job_logs, task_rows  # noqa: E402
from twenty_fourth_held_out import gym_eval_line, gym_profile_line  # noqa: E402
from twenty_second_held_out import question_row, response_text  # noqa: E402
from twenty_seventh_held_out import (  # noqa: E402
    builtin_script,
    gateway_source,
    gym_eval_with_own_server,
    submit_and_wait,
)
from twenty_sixth_held_out import free_port, gym_run, slurm_script, start_helper  # noqa: E402
from twenty_third_held_out import taskset_script, write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


def complete(ctx: Ctx) -> int:
    """How many distinct rollouts RUN/rollouts.jsonl holds (for the healthy cases)."""
    return len(unique_keys(ctx.run / "rollouts.jsonl"))


def labels_csv(path: Path, pairs: list[tuple[str, str]]) -> Path:
    """The labelling team's export: question,answer (UTF-8)."""
    path.write_text("question,answer\n" + "".join(f"\"{q}\",{a}\n" for q, a in pairs), encoding="utf-8")
    return path


def truth_checkpoints(ctx: Ctx, pairs: list[tuple[str, object]]) -> list[Path]:
    """The two simulated checkpoints that learned the right answers of `pairs` (step_0100, step_0200)."""
    truth = write_jsonl(ctx.work / "truth.jsonl", [question_row(q, str(a)) for q, a in pairs])
    return checkpoints(ctx, "string_match", truth)


# =====================================================================================================
# healthy
# =====================================================================================================

ERR_TRAP_LINES = [
    "set -E",
    "trap 'echo \"ERROR: line $LINENO: \\`$BASH_COMMAND\\` exited $?\" >&2' ERR",
    "echo '== weekly eval'",
    "echo -n 'labels still marked TODO: '; grep -c '\"expected_answer\": \"TODO\"' string_match.jsonl",
]


@case(
    "healthy_builtin_run_script_err_trap_reports_todo_count_that_found_none",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh sets an ERR trap that prints 'ERROR: line N: `cmd` exited S' for any "
    "failing command, then counts labels still marked TODO with `grep -c`; grep exits 1 when it counts 0, so the log "
    "shows 'ERROR: line 7: `grep -c ...` exited 1', but there is no TODO label and materialize, collect and profile "
    "completed every rollout",
)
def healthy_builtin_run_script_err_trap_reports_todo_count_that_found_none(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 44)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ERR_TRAP_LINES, "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = complete(ctx)
    if code or got != 24 or not in_log(ctx, "ERROR: line", "logs/run_eval.log") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (ERR trap, `grep -c` counting 0 TODO labels exits 1; materialize 8 x 3, collect, profile) "
            f"exit {code}; {got} rollouts, mean reward {mean_reward(run / 'rollouts.jsonl')}.")


@case(
    "healthy_taskfolder_run_script_checks_sandbox_image_is_offline_with_apt_get_update",
    "healthy",
    [],
    "nothing is wrong: the user's run_tasks.sh first checks that the sandbox image has no way out, by running `apt-get "
    "update` in it with `docker run --network none`; the log shows 'Temporary failure resolving deb.debian.org' and "
    "'W: Failed to fetch ...' (the check passing), then every episode ran in its Docker sandbox, was verified and "
    "profiled",
)
def healthy_taskfolder_run_script_checks_sandbox_image_is_offline_with_apt_get_update(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["replace-spelling", "sort-unique-words"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, [
        "echo '== egress check: the sandbox image must not reach the internet (apt-get update has to fail)'",
        "docker run --rm --network none gym-pipeline/base:bookworm apt-get update",
        "echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    if code or len(unique_keys(run / "rollouts.jsonl")) != 4 or not any(rewards(got)) \
            or not in_log(ctx, "Failed to fetch", "logs/run_tasks.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/run_tasks.sh (`docker run --network none ... apt-get update` fails to resolve, as meant; "
            f"`gym-pipeline stage` materialize, collect, profile of RUN/tasks x 2) exit {code}; rewards {rewards(got)}.")


RETRY_ENV = """# weekly eval settings, one KEY=VALUE per line (read by run_eval.sh)
NEMO_GYM_MAX_ROLLOUT_ATTEMPTS=3   # Gym's default, written out for the record
EVAL_SPLIT=weekly
"""

RETRY_ENV_LINES = [
    "while IFS= read -r line; do case \"$line\" in ''|'#'*) ;; *) export \"$line\" ;; esac; done < eval.env",
    "echo \"== $EVAL_SPLIT eval\"",
]


RESUME_LINES = ["while IFS= read -r line; do case \"$line\" in ''|'#'*) ;; *) export \"$line\" ;; esac; done < eval.env",
                "echo \"== $EVAL_SPLIT eval (resumes where an earlier attempt stopped)\""]


def resumable_run_script(ctx: Ctx, lines: list[str], overrides: str, repeats: int = 3, concurrency: int = 2) -> Path:
    """RUN/run_eval.sh: `lines`, then `gym eval run --no-serve ... ++resume_from_cache=true` and `gym eval profile`."""
    script = ctx.run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval\n" + f"cd {ctx.run}\n" + "".join(line + "\n" for line in lines)
                      + f"{gym_eval_line(overrides, 'tasks.jsonl', 'results/rollouts.jsonl', repeats, concurrency)} "
                        "++resume_from_cache=true\n"
                      + f"{gym_profile_line('results')}\n")
    return script


def interrupted_after(ctx: Ctx, script: Path, log: str, count: int, total: int, then) -> None:
    """`bash script` in the background until `count` rollouts finished, then `then(process)`."""
    process = ctx.bg(f"bash {script}", log)
    wait_for(lambda: f"Finished {count} / {total}" in text_of(ctx.run / log) or process.poll() is not None, 120,
             f"{count} finished rollouts")
    then(process)


@case(
    "healthy_gym_retry_attempts_setting_with_inline_comment_falls_back_to_the_same_default",
    "healthy",
    [],
    "nothing is wrong: the user's eval.env writes out Gym's default NEMO_GYM_MAX_ROLLOUT_ATTEMPTS=3 with an inline "
    "comment, and run_eval.sh exports each line as it is, comment included; Gym's eval run prints 'WARNING: could not "
    "parse NEMO_GYM_MAX_ROLLOUT_ATTEMPTS=... falling back to default 3' when it resumes the run the user had stopped "
    "with Ctrl-C; 3 is the value meant, and the resumed real NeMo Gym eval collected, verified and profiled every "
    "rollout",
    netns=True,
)
def healthy_gym_retry_attempts_setting_with_inline_comment_falls_back_to_the_same_default(ctx: Ctx) -> str:
    run = ctx.run
    ctx.dataset("string_match", 6, start=34, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", run / "tasks.jsonl")[1]
    url, policy = ctx.policy(better, "--latency-ms 600", log="policy_server.log")
    (run / "eval.env").write_text(RETRY_ENV)
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    script = resumable_run_script(ctx, RESUME_LINES, overrides)

    def interrupt(process) -> None:
        ctx.note("(the user stopped the first attempt with Ctrl-C to lend the node to a colleague for a few minutes)")
        ctx.stop(process)

    interrupted_after(ctx, script, "logs/run_eval_first.log", 5, 18, interrupt)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if code or got != 18 or not in_log(ctx, "could not parse NEMO_GYM_MAX_ROLLOUT_ATTEMPTS", "logs/run_eval.log") \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/eval.env (NEMO_GYM_MAX_ROLLOUT_ATTEMPTS with an inline "
            f"comment) exported line by line by RUN/run_eval.sh (`gym eval run --no-serve ... ++resume_from_cache=true` "
            f"6 tasks x 3, `gym eval profile`); a first attempt stopped with Ctrl-C, the second resumed it: exit {code}, "
            f"{got} rollouts, mean reward {mean(rewards(gym_rows(ctx))):.2f}.")


MONITOR_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
cd RUN_DIR
echo "weekly eval on $(hostname), job $SLURM_JOB_ID"
# the load monitor runs as its own job step beside the eval, and is stopped at the end
srun --overlap --ntasks=1 bash -c 'while true; do echo "[monitor] $(date +%T) load $(cut -d" " -f1 /proc/loadavg)"; sleep 3; done' &
MONITOR=$!
sleep 1
PIPELINE
echo "eval done: stopping the monitor step"
scancel ${SLURM_JOB_ID}.0
wait $MONITOR
echo "job finished"
"""


@case(
    "healthy_slurm_job_cancels_its_background_monitor_step_at_the_end",
    "healthy",
    [],
    "nothing is wrong: the user's eval.sbatch runs a load monitor as a background job step (`srun --overlap ... &`) "
    "and, once the eval is done, stops it with `scancel $SLURM_JOB_ID.0`; the job log ends with Slurm's "
    "'*** STEP ... CANCELLED ***' and srun's error lines for that monitor step, but materialize, collect and profile "
    "had completed every rollout",
)
def healthy_slurm_job_cancels_its_background_monitor_step_at_the_end(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 48)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(MONITOR_SBATCH, ctx, PIPELINE=pipeline(url).rstrip("\n")))
    code = submit_and_wait(ctx, "eval.sbatch", "logs/submit.log")
    logs = job_logs(ctx, "eval_*.log")
    got = complete(ctx)
    if code or got != 24 or "CANCELLED" not in logs or "[monitor]" not in logs \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {logs[-800:]}")
    return (f"RUN/submit.sh (sbatch of RUN/eval.sbatch: a monitor step `srun --overlap ... &`, materialize 8 x 3, collect, "
            f"profile, then `scancel $SLURM_JOB_ID.0`) exit {code}; {got} rollouts, mean reward "
            f"{mean_reward(run / 'rollouts.jsonl')}.")


# =====================================================================================================
# infra
# =====================================================================================================

ACCENTED = [("What is the capital of Costa Rica?", "San José"), ("What is the capital of Cameroon?", "Yaoundé"),
            ("What is the capital of the Maldives?", "Malé"), ("What is the capital of Togo?", "Lomé"),
            ("What is the capital of Peru?", "Lima"), ("What is the capital of Norway?", "Oslo"),
            ("What is the capital of Kenya?", "Nairobi"), ("What is the capital of Australia?", "Canberra")]

STDOUT_PREP = '''"""prepare_data.py: the labelling team's export (labels.csv) -> JSONL rows on stdout
usage: python3 prepare_data.py > string_match.jsonl"""
import csv
import json

with open("labels.csv", newline="", encoding="utf-8") as f:
    for item in csv.DictReader(f):
        text = item["question"] + " End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": item["answer"], "extraction_mode": "final_answer", "case_sensitive": False}
        print(json.dumps(row, ensure_ascii=False))  # labels stay readable in the file
'''

NODE_ENV = """# node_env.sh: environment of the eval nodes; source it in job and eval scripts
export OMP_NUM_THREADS=1
export TZ=UTC
# the old reporting cron jobs crashed on non-ASCII output in their mails (INC-2291)
export PYTHONIOENCODING=ascii:replace
"""


@case(
    "infra_builtin_node_env_exports_pythonioencoding_ascii_replace_so_prep_output_loses_accents",
    "infra",
    ["node_env.sh", "PYTHONIOENCODING", "unset"],
    "the eval nodes' node_env.sh, which run_eval.sh sources, exports PYTHONIOENCODING=ascii:replace (a fix for old "
    "cron mails); it makes every Python program write its standard output as ASCII, replacing other characters with "
    "'?'; prepare_data.py writes the tasks to stdout (`> string_match.jsonl`), so the labels San José, Yaoundé, Malé "
    "and Lomé became 'San Jos?', 'Yaound?', 'Mal?', 'Lom?', and the model's right answers to those tasks scored 0 "
    "(every command exits 0)",
)
def infra_builtin_node_env_exports_pythonioencoding_ascii_replace_so_prep_output_loses_accents(ctx: Ctx) -> str:
    run = ctx.run
    labels_csv(run / "labels.csv", ACCENTED)
    (run / "prepare_data.py").write_text(STDOUT_PREP)
    (run / "node_env.sh").write_text(NODE_ENV)
    better = truth_checkpoints(ctx, ACCENTED)[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["source node_env.sh", "echo '== weekly eval'",
                                  "python3 prepare_data.py > string_match.jsonl"], "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    broken = [row for row in got if "?" in str(row.get("expected_answer"))]
    plain = [row for row in got if row not in broken]
    if code or len(got) != 24 or not broken or any(rewards(broken)) or not any(rewards(plain)):
        raise failed(ctx, f"exit {code}, {len(got)}, broken {rewards(broken)}, plain {rewards(plain)}")
    return (f"RUN/node_env.sh (PYTHONIOENCODING=ascii:replace) sourced by RUN/run_eval.sh, then `python3 "
            f"prepare_data.py > string_match.jsonl`, materialize, collect, profile: exit {code}; labels "
            f"{sorted({r['expected_answer'] for r in broken})} scored {rewards(broken)}, the others {rewards(plain)}.")


POOL_PREP = '''"""prepare_data.py: the annotation export (export.jsonl) -> string_match.jsonl, in parallel (the full export
is large: one worker per core)"""
import json
import multiprocessing
import os


def to_row(item):
    text = item["question"].strip() + " End your response with 'Final answer: <answer>'."
    return {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": str(item["answer"]).strip(), "extraction_mode": "final_answer", "case_sensitive": False}


if __name__ == "__main__":
    with open("export.jsonl") as f:
        items = [json.loads(line) for line in f if line.strip()]
    with multiprocessing.Pool(os.cpu_count()) as pool:
        rows = pool.map(to_row, items, chunksize=64)
    with open("string_match.jsonl", "w") as out:
        out.writelines(json.dumps(row) + "\\n" for row in rows)
    print(f"wrote {len(rows)} tasks")
'''

SHM_NOTE = ("(this eval container's /dev/shm is Docker's default 64 MB tmpfs, filled by the torch_* shared-memory "
            "segments a crashed training job's data-loader workers left behind)")


@case(
    "infra_builtin_dev_shm_filled_by_crashed_training_job_breaks_prep_multiprocessing_pool",
    "infra",
    ["/dev/shm", "torch_", "rm"],
    "the node's /dev/shm is full: a crashed training job's data-loader workers left their torch_* shared-memory "
    "segments there; prepare_data.py converts the export with a multiprocessing.Pool, whose semaphores live in "
    "/dev/shm, so creating the pool failed ('OSError: [Errno 28] No space left on device') and no tasks file was "
    "written; materialize found no input and nothing was collected or profiled (the run folder's disk had space)",
    netns=True,
)
def infra_builtin_dev_shm_filled_by_crashed_training_job_breaks_prep_multiprocessing_pool(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=2, folder=ctx.work)
    better = checkpoints(ctx, "string_match", data)[1]
    export = [{"id": f"q{index:04d}", "question": row["responses_create_params"]["input"][0]["content"][0]["text"]
               .split(" End your response")[0], "answer": row["expected_answer"]}
              for index, row in enumerate(rows_of(data))]
    write_jsonl(run / "export.jsonl", export)
    (run / "prepare_data.py").write_text(POOL_PREP)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m,mode=1777", "tmpfs", "/dev/shm"], check=True)
    for index in range(12):  # what the crashed job left: private to this recipe's mount namespace
        with open(f"/dev/shm/torch_{48213 + index}_{1800 + 7 * index}", "wb") as segment:
            try:
                segment.write(b"\0" * 6_000_000)
                segment.flush()
            except OSError:
                break
    ctx.note(SHM_NOTE)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["echo \"== weekly eval ($(df -h --output=avail . | tail -1) free here)\"",
                                  "python3 prepare_data.py"], "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    log = text_of(run / "logs" / "run_eval.log")
    if rows_of(run / "rollouts.jsonl") or "No space left on device" not in log or "SemLock" not in log:
        raise failed(ctx, f"exit {code}: {log[-800:]}")
    return (f"/dev/shm full (64 MB tmpfs, torch_* segments of a crashed job); RUN/run_eval.sh (prepare_data.py with a "
            f"multiprocessing.Pool, then materialize, collect, profile) exit {code}; the pool could not be created, "
            f"nothing collected.")


# =====================================================================================================
# model_serving
# =====================================================================================================

UTF8_HOOK = '''
REQUEST_LOG = "requests.log"  # what went through, readable (UTF-8, not \\u escapes)


def completion(handler, body):
    status, data = handler._upstream(body)
    text = json.dumps(json.loads(data), ensure_ascii=False)
    with open(REQUEST_LOG, "a", encoding="utf-8") as log:
        log.write(text[:300] + "\\n")
    return status, text
'''

TEXT_SEND = '''    def _send(self, status, data):
        if isinstance(data, str):  # a hook's text reply
            length, data = len(data), data.encode("utf-8")
        else:
            length = len(data)
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(length))
        self.end_headers()
        self.wfile.write(data)
'''


def text_gateway_source(doc: str, hook: str) -> str:
    source = gateway_source(doc, hook)
    start = source.index("    def _send(self, status, data):")
    end = source.index("    def _upstream(self, body=None):")
    return source[:start] + TEXT_SEND + "\n" + source[end:]


@case(
    "model_serving_gym_gateway_counts_content_length_in_characters_so_non_ascii_replies_are_cut",
    "model_serving",
    ["gateway.py", "Content-Length", "encode"],
    "the team's gateway.py re-serializes every completion as readable UTF-8 text (for its request log) and sets "
    "Content-Length to the length of that text in characters, not in bytes; a reply with a non-ASCII character (San "
    "José, Yaoundé, Malé, Lomé) is longer in bytes, so clients read it cut short: in the real NeMo Gym eval many of "
    "those tasks' rollouts failed (agent /run answered 500) and the others came back with the answer's last letters "
    "missing ('San Jos', 'Yaound') and scored 0, while the ASCII answers scored normally; the strict profile refused "
    "the missing rollouts",
    netns=True,
)
def model_serving_gym_gateway_counts_content_length_in_characters_so_non_ascii_replies_are_cut(ctx: Ctx) -> str:
    run = ctx.run
    data = write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in ACCENTED[:6]])
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    port = free_port()
    start_helper(ctx, "gateway.py", text_gateway_source("Readable UTF-8 request log.", UTF8_HOOK),
                 f"{port} {url.removesuffix('/v1')}", "gateway.py on")
    gateway = f"http://127.0.0.1:{port}/v1"
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(gateway)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["echo '== weekly eval, through the team gateway'"], overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    accented = [row for row in got if not str(row.get("expected_answer")).isascii()]
    plain = [row for row in got if row not in accented]
    failures = rows_of(run / "results" / "rollouts_failures.jsonl")
    cut = sorted({str(row.get("extracted_answer")) for row in accented})
    if not failures or any(rewards(accented)) or not any(rewards(plain)) \
            or any(row.get("extracted_answer") == row.get("expected_answer") for row in accented):
        raise failed(ctx, f"exit {code}, accented {rewards(accented)} {cut}, plain {rewards(plain)}, "
                          f"{len(failures)} failures")
    return (f"RUN/gateway.py (Content-Length counted in characters of its UTF-8 text) in front of the simulated policy; "
            f"real NeMo Gym 0.7.0 (loopback-only namespace) RUN/run_eval.sh exit {code}; {len(failures)} failed "
            f"attempts in results/rollouts_failures.jsonl, {len(accented)} rollouts of accented answers came back cut "
            f"({cut}) and scored {rewards(accented)}, the ASCII answers {rewards(plain)}.")


def serve_on(ctx: Ctx, checkpoint: Path, host: str, port: int, log: str, latency_ms: int = 20, extra: str = ""):
    """`gym-pipeline serve-policy` of `checkpoint` on HOST:PORT, waited for: (its base URL, the process)."""
    ready = ctx.work / f"ready-{host.replace(':', '_')}-{port}"
    ready.unlink(missing_ok=True)
    process = ctx.bg(f"{recipes.GP} serve-policy --host {host} --port {port} --ready-file {ready} --checkpoint "
                     f"{checkpoint} --latency-ms {latency_ms} {extra}".strip(), log)
    wait_for(lambda: ready.exists() and ready.read_text().strip() != "", 30, f"the model server on {host}")
    return ready.read_text().strip(), process


HOSTS_NOTE = ("(this node's /etc/hosts is Debian's standard one: localhost is 127.0.0.1 and ::1; last week's model "
              "server, started from the old launch template with --host ::1 on port PORT for the math run, is still "
              "running)")


@case(
    "model_serving_builtin_localhost_url_also_reaches_last_weeks_server_on_ipv6_loopback",
    "model_serving",
    ["localhost", "::1", "127.0.0.1"],
    "the eval uses --model-url http://localhost:PORT/v1; localhost names both 127.0.0.1 and ::1, and last week's model "
    "server (another run's checkpoint, started with --host ::1 on the same port number) is still running on the IPv6 "
    "loopback, while this week's server listens on 127.0.0.1:PORT; the collector's connections went to both, so part "
    "of the rollouts were answered by the old model, which does not know these tasks, and scored 0 (every command "
    "exits 0)",
    netns=True,
)
def model_serving_builtin_localhost_url_also_reaches_last_weeks_server_on_ipv6_loopback(ctx: Ctx) -> str:
    run = ctx.run
    etc_hosts = ctx.work / "hosts"
    etc_hosts.write_text("127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n"
                         "ff02::1\tip6-allnodes\nff02::2\tip6-allrouters\n")
    subprocess.run(["mount", "--bind", str(etc_hosts), "/etc/hosts"], check=True)  # this namespace only
    data, (_, better) = builtin_rows(ctx, 8, 52)
    other = ctx.dataset("string_match", 12, start=70, folder=ctx.work / "math_run", name="math.jsonl")
    from gym_pipeline.environments import StringMatchEnvironment
    from gym_pipeline.serving.checkpoints import demo_checkpoints

    old = demo_checkpoints(ctx.work / "math_run" / "checkpoints", 2, [StringMatchEnvironment(other)])[1]
    port = free_port()
    ctx.note(HOSTS_NOTE.replace("PORT", str(port)))
    serve_on(ctx, old, "::1", port, str(ctx.work / "math_run" / "server.log"))
    serve_on(ctx, better, "127.0.0.1", port, "logs/model_server.log")
    script = builtin_script(ctx, ["echo '== weekly eval'"], "string_match.jsonl", f"http://localhost:{port}/v1")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    confused = [row for row in got if "not sure what this question" in response_text(row)
                or "do not recognise this problem" in response_text(row)]
    if code or len(got) != 24 or not confused or len(confused) == len(got):
        raise failed(ctx, f"exit {code}, {len(got)}, confused {len(confused)}")
    return (f"last week's server on [::1]:{port}, this week's on 127.0.0.1:{port}; RUN/run_eval.sh (--model-url "
            f"http://localhost:PORT/v1) exit {code}; {len(confused)} of {len(got)} rollouts answered by the old model "
            f"('I am not sure ...'), mean reward {mean(rewards(got)):.2f}.")


# =====================================================================================================
# config
# =====================================================================================================

LORA_FRONT = '''"""A vLLM-compatible server with one LoRA adapter (`vllm serve BASE --enable-lora --lora-modules NAME=...`):
/v1/models lists the base model first, then the adapter; a request runs on the model its `model` field names."""
import json
import sys
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT, BASE_URL, ADAPTER_URL = int(sys.argv[1]), sys.argv[2], sys.argv[3]
MODELS = {"base-7b": BASE_URL, "sft-agent": ADAPTER_URL}


class Server(BaseHTTPRequestHandler):
    def _send(self, status, data):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path.rstrip("/") != "/v1/models":
            return self._send(404, b'{"detail": "Not Found"}')
        listing = {"object": "list", "data": [
            {"id": "base-7b", "object": "model", "owned_by": "vllm", "root": "/models/base-7b", "parent": None},
            {"id": "sft-agent", "object": "model", "owned_by": "vllm", "root": "/adapters/sft-agent",
             "parent": "base-7b"}]}
        self._send(200, json.dumps(listing).encode())

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        name = body.get("model")
        if name not in MODELS:
            return self._send(404, json.dumps({"object": "error", "message": f"The model `{name}` does not exist.",
                                               "type": "NotFoundError", "code": 404}).encode())
        print(f"INFO:     POST /v1/chat/completions model={name}", flush=True)
        request = urllib.request.Request(MODELS[name] + "/chat/completions", method="POST",
                                         data=json.dumps({**body, "model": "sim-policy"}).encode(),
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=120) as answer:
                reply = json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return self._send(error.code, error.read())
        reply["model"] = name
        self._send(200, json.dumps(reply).encode())

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    print(f"INFO:     vLLM API server on http://127.0.0.1:{PORT}/v1: base model base-7b, LoRA adapters: sft-agent",
          flush=True)
    ThreadingHTTPServer(("127.0.0.1", PORT), Server).serve_forever()
'''


@case(
    "config_builtin_collect_without_model_flag_evaluates_base_model_listed_before_the_adapter",
    "config",
    ["--model", "sft-agent", "run_eval.sh"],
    "the SFT adapter sft-agent is served with vLLM's LoRA support, whose /v1/models lists the base model base-7b "
    "first and the adapter second; run_eval.sh runs `gym-pipeline collect` without --model, which then uses the first "
    "model the endpoint lists, so every rollout was generated by the base model and the eval reported the base "
    "model's (lower) reward as the adapter's (every command exits 0)",
)
def config_builtin_collect_without_model_flag_evaluates_base_model_listed_before_the_adapter(ctx: Ctx) -> str:
    run = ctx.run
    data, (base, adapter) = builtin_rows(ctx, 8, 58)
    base_url, _ = ctx.policy(base, "--latency-ms 20", log=str(ctx.work / "base_policy.log"))
    adapter_url, _ = ctx.policy(adapter, "--latency-ms 20", log=str(ctx.work / "adapter_policy.log"))
    port = free_port()
    front = ctx.work / "vllm_lora_server.py"
    front.write_text(LORA_FRONT)
    ctx.bg(f"python3 {front} {port} {base_url} {adapter_url}", "logs/model_server.log")
    wait_for(lambda: "vLLM API server on" in text_of(run / "logs" / "model_server.log"), 20, "the vLLM server")
    ctx.note("(the model server: vLLM serving base-7b with the LoRA adapter sft-agent, simulated by "
             "WORK/vllm_lora_server.py over two simulated policies: step_0100 as base-7b, step_0200 as sft-agent)")
    script = builtin_script(ctx, ["# eval of the SFT adapter sft-agent (vLLM, --enable-lora)",
                                  "echo '== weekly eval of sft-agent'"], "string_match.jsonl",
                            f"http://127.0.0.1:{port}/v1")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    served_by = Counter((row.get("response") or {}).get("model") for row in got)
    if code or len(got) != 24 or served_by.get("sft-agent") or served_by.get("base-7b") != 24:
        raise failed(ctx, f"exit {code}, {len(got)}, {served_by}")
    return (f"vLLM-like server listing [base-7b, sft-agent]; RUN/run_eval.sh (collect without --model) exit {code}; "
            f"{served_by['base-7b']} completions by base-7b, none by sft-agent; mean reward "
            f"{mean(rewards(got)):.2f}.")


TEAM_SETTINGS = """# team-tools defaults, read by run-smoke (one repeat of the dev split)
DATA=string_match_dev.jsonl
REPEATS=1
"""

USER_SETTINGS = """# weekly eval settings
DATA=string_match_test.jsonl
REPEATS=3
"""

TEAM_NOTIFY = """#!/bin/bash
# team-notify: post a line to the team channel
echo "[team-notify] #eval-results: $*"
"""

SOURCE_SCRIPT = """#!/bin/bash
# weekly eval of the test split
cd RUN_DIR
export PATH=TEAM_TOOLS/bin:$PATH   # team-notify, run-smoke
source settings.env
echo "== weekly eval: $DATA, $REPEATS repeats"
GP_BIN materialize --input $DATA --num-repeats $REPEATS --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 4
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
team-notify "weekly eval done: $(wc -l < rollouts.jsonl) rollouts"
"""


@case(
    "config_builtin_run_script_sources_settings_by_bare_name_and_bash_finds_team_tools_copy_on_path",
    "config",
    ["./settings.env", "source", "PATH"],
    "run_eval.sh puts the team's tools folder first on PATH, then runs `source settings.env`; bash looks a bare file "
    "name up on PATH before the current folder, and the team tools folder has its own settings.env (run-smoke's "
    "defaults: the dev split, one repeat), so the eval ran on string_match_dev.jsonl with 1 repeat instead of the "
    "user's settings (the test split, 3 repeats) (every command exits 0)",
)
def config_builtin_run_script_sources_settings_by_bare_name_and_bash_finds_team_tools_copy_on_path(ctx: Ctx) -> str:
    run = ctx.run
    ctx.dataset("string_match", 4, start=60, folder=run, name="string_match_dev.jsonl")
    test = ctx.dataset("string_match", 8, start=64, folder=run, name="string_match_test.jsonl")
    both = write_jsonl(ctx.work / "both.jsonl", rows_of(run / "string_match_dev.jsonl") + rows_of(test))
    better = checkpoints(ctx, "string_match", both)[1]
    tools = ctx.work / "opt" / "team-tools"
    (tools / "bin").mkdir(parents=True)
    (tools / "bin" / "settings.env").write_text(TEAM_SETTINGS)
    (tools / "bin" / "team-notify").write_text(TEAM_NOTIFY)
    (tools / "bin" / "team-notify").chmod(0o755)
    ctx.note("(the team's tools folder WORK/opt/team-tools/bin holds team-notify, run-smoke and run-smoke's "
             "settings.env)")
    (run / "settings.env").write_text(USER_SETTINGS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "run_eval.sh").write_text(slurm_script(SOURCE_SCRIPT, ctx, MODEL_URL=url, TEAM_TOOLS=str(tools)))
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=400)
    materialized = rows_of(run / "rollouts_materialized_inputs.jsonl")
    got = rows_of(run / "rollouts.jsonl")
    if code or len(materialized) != 4 or len(got) != 4 or not in_log(ctx, "string_match_dev.jsonl, 1 repeats",
                                                                      "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {len(materialized)}, {len(got)}")
    return (f"RUN/run_eval.sh (team tools first on PATH, `source settings.env`) exit {code}; evaluated "
            f"string_match_dev.jsonl x 1: {len(got)} rollouts instead of 8 x 3 of the test split, mean reward "
            f"{mean(rewards(got)):.2f}.")


DEBUG_ENV = """# debug.env: while debugging the verifier, fail fast (a failed rollout is not tried again)
export NEMO_GYM_MAX_ROLLOUT_ATTEMPTS=1
export PYTHONFAULTHANDLER=1
"""

OUTAGE_NOTE = ("(a few rollouts into the first attempt, the serving team redeployed the model server: stopped, then "
               "started again on the same port, answering 503 while it loaded; the eval run went on and recorded the "
               "rollouts that failed meanwhile; the user then ran run_eval.sh again to resume)")


@case(
    "config_gym_max_rollout_attempts_of_one_left_in_debug_env_so_resume_never_retries_outage_failures",
    "config",
    ["NEMO_GYM_MAX_ROLLOUT_ATTEMPTS", "debug.env", "unset"],
    "run_eval.sh still sources debug.env from last week's verifier debugging, which exports "
    "NEMO_GYM_MAX_ROLLOUT_ATTEMPTS=1; the model server was redeployed during the first attempt (503 while it loaded), "
    "so part of the rollouts failed and went to the failures sidecar, and once it was back the user resumed the run "
    "(++resume_from_cache=true); with one attempt allowed, Gym counted every rollout that had failed once as done "
    "trying ('hit max_attempts=1 -> not retried') and did not run them again, so the resumed real NeMo Gym eval still "
    "missed them and the strict profile refused the run (Gym's default of 3 attempts would have retried them)",
    netns=True,
)
def config_gym_max_rollout_attempts_of_one_left_in_debug_env_so_resume_never_retries_outage_failures(ctx: Ctx) -> str:
    run = ctx.run
    ctx.dataset("string_match", 6, start=28, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", run / "tasks.jsonl")[1]
    port = free_port()
    url, server = serve_on(ctx, better, "127.0.0.1", port, "logs/model_server.log", latency_ms=500)
    (run / "debug.env").write_text(DEBUG_ENV)
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    script = resumable_run_script(ctx, ["source debug.env", "echo '== weekly eval'"], overrides)

    servers = [server]

    def outage(process) -> None:
        ctx.note(OUTAGE_NOTE)
        ctx.stop(servers[0], signal.SIGTERM, 10)
        servers[0] = serve_on(ctx, better, "127.0.0.1", port, "logs/model_server.log", 500, "--slow-start-s 10")[1]
        process.wait(timeout=300)

    interrupted_after(ctx, script, "logs/run_eval_first.log", 4, 18, outage)
    first_failures = len(rows_of(run / "results" / "rollouts_failures.jsonl"))
    server = servers[0]
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, server)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    log = text_of(run / "logs" / "run_eval.log")
    if not first_failures or got >= 18 or "max_attempts=1" not in log or "Missing rollout" not in log:
        raise failed(ctx, f"exit {code}, {first_failures} failures, {got} rollouts: {log[-800:]}")
    return (f"RUN/debug.env (NEMO_GYM_MAX_ROLLOUT_ATTEMPTS=1) sourced by RUN/run_eval.sh (`gym eval run --no-serve ... "
            f"++resume_from_cache=true`, 6 tasks x 3, then `gym eval profile`); real NeMo Gym 0.7.0 (loopback-only "
            f"namespace); the model server redeployed during the first attempt ({first_failures} failed rollouts), "
            f"then the resume: exit {code}, still {got} of 18 rollouts, profile refused the missing ones.")


LIMIT_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
cd RUN_DIR
echo "weekly eval on $(hostname), job $SLURM_JOB_ID"
PIPELINE"""

LIMIT_SUBMIT = """#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd RUN_DIR
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
scontrol show job $JOB | grep -E -o '(JobState|TimeLimit)=[^ ]+'
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
"""


@case(
    "config_slurm_sbatch_timelimit_left_exported_in_shell_overrides_time_directive",
    "config",
    ["SBATCH_TIMELIMIT", "unset", "--time"],
    "the user's shell still exports SBATCH_TIMELIMIT=1 (set in ~/.bashrc for last week's quick interactive tests); "
    "sbatch's input environment variables override the options in the script, so the job ran with a 1-minute limit "
    "instead of eval.sbatch's `#SBATCH --time=10` (`scontrol show job` shows TimeLimit=00:01:00), and Slurm cancelled "
    "it 'DUE TO TIME LIMIT' during the collect: rollouts were missing and the profile never ran",
)
def config_slurm_sbatch_timelimit_left_exported_in_shell_overrides_time_directive(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 36)
    url, _ = ctx.policy(better, "--latency-ms 9000")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(LIMIT_SBATCH, ctx, PIPELINE=pipeline(url, concurrency="2")))
    (run / "submit.sh").write_text(slurm_script(LIMIT_SUBMIT, ctx))
    ctx.env["SBATCH_TIMELIMIT"] = "1"
    ctx.note("(the user's shell: `export SBATCH_TIMELIMIT=1` from ~/.bashrc, added for last week's quick tests)")
    code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=400)
    logs = job_logs(ctx, "eval_*.log")
    got = len(unique_keys(run / "rollouts.jsonl"))
    if "TIME LIMIT" not in logs or got >= 24 or (run / "rollouts_reward_profiling.jsonl").exists() \
            or not in_log(ctx, "TimeLimit=00:01:00", "logs/submit.log"):
        raise failed(ctx, f"exit {code}, {got}: {logs[-800:]}")
    return (f"SBATCH_TIMELIMIT=1 in the user's environment; RUN/submit.sh (sbatch of RUN/eval.sbatch with `#SBATCH "
            f"--time=10`; materialize 8 x 3, collect at 9 s per completion, profile) exit {code}; the job was cancelled "
            f"at its 1-minute limit with {got} of 24 rollouts collected, no profile.")


# =====================================================================================================
# data_schema
# =====================================================================================================

DECIMAL_PROBLEMS = [(0.1, "plus", 0.2, "0.3"), (1.1, "times", 3, "3.3"), (0.7, "plus", 0.1, "0.8"),
                    (2.5, "plus", 1.25, "3.75"), (1.2, "minus", 1.0, "0.2"), (4.35, "times", 100, "435"),
                    (0.5, "times", 0.5, "0.25"), (3.75, "minus", 1.5, "2.25")]

MAKE_TASKS = '''"""make_tasks.py: the synthetic decimal-arithmetic set -> string_match.jsonl"""
import json
import operator

OPS = {"plus": operator.add, "minus": operator.sub, "times": operator.mul}
PROBLEMS = PROBLEM_LIST

with open("string_match.jsonl", "w") as out:
    for a, op, b in PROBLEMS:
        text = f"What is {a} {op} {b}? End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": str(OPS[op](a, b)), "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
print(f"wrote {len(PROBLEMS)} tasks")
'''


@case(
    "data_schema_builtin_generated_decimal_labels_carry_binary_float_rounding_noise",
    "data_schema",
    ["make_tasks.py", "float", "round"],
    "make_tasks.py computes the labels of the synthetic decimal-arithmetic set with Python floats and writes "
    "str(a + b): binary floating point makes 0.1 + 0.2 '0.30000000000000004', 1.1 * 3 '3.3000000000000003', 0.7 + "
    "0.1 '0.7999999999999999', 1.2 - 1.0 '0.19999999999999996' and 4.35 * 100 '434.99999999999994'; the model's "
    "exact answers (0.3, 3.3, ...) never matched those labels and scored 0, while the tasks whose results are exact in "
    "binary scored normally (every command exits 0)",
)
def data_schema_builtin_generated_decimal_labels_carry_binary_float_rounding_noise(ctx: Ctx) -> str:
    run = ctx.run
    problems = "[" + ", ".join(f"({a!r}, {op!r}, {b!r})" for a, op, b, _ in DECIMAL_PROBLEMS) + "]"
    (run / "make_tasks.py").write_text(MAKE_TASKS.replace("PROBLEM_LIST", problems))
    better = truth_checkpoints(ctx, [(f"What is {a} {op} {b}?", answer) for a, op, b, answer in DECIMAL_PROBLEMS])[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["echo '== weekly eval'", "python3 make_tasks.py"], "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    noisy = [row for row in got if len(str(row.get("expected_answer"))) > 12]
    exact = [row for row in got if row not in noisy]
    if code or len(got) != 24 or not noisy or any(rewards(noisy)) or not any(rewards(exact)):
        raise failed(ctx, f"exit {code}, {len(got)}, noisy {rewards(noisy)}, exact {rewards(exact)}")
    return (f"RUN/make_tasks.py (labels str(float arithmetic)); RUN/run_eval.sh exit {code}; labels "
            f"{sorted({r['expected_answer'] for r in noisy})} scored {rewards(noisy)}, exact labels {rewards(exact)}.")


REFRESH_INPUTS = """#!/bin/bash
# refresh_inputs.sh: this week's task inputs go to shared-data/ (one copy), linked from the task folders
cd "$(dirname "$0")"
mkdir -p shared-data
printf 'pear\\napple\\nfig\\napple\\nbanana\\nfig\\ncherry\\nbanana\\npear\\n' > shared-data/words.txt
ln -sfn ../../../shared-data/words.txt tasks/sort-unique-words/environment/words.txt
ls -l tasks/sort-unique-words/environment/
"""


@case(
    "data_schema_taskfolder_environment_input_replaced_by_symlink_outside_build_context",
    "data_schema",
    ["words.txt", "symlink", "environment/"],
    "the team's refresh_inputs.sh now keeps one copy of the task inputs: it writes this week's word list to the "
    "taskset's shared-data/ folder and replaces sort-unique-words/environment/words.txt by a symbolic link to it; an "
    "image build sends only the environment/ folder as "
    "its context, where the link points outside and leads nowhere, so `COPY words.txt` failed ('file not found in "
    "build context') and the task could not load: the collect stage refused the taskset and nothing was collected "
    "or profiled",
)
def data_schema_taskfolder_environment_input_replaced_by_symlink_outside_build_context(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["sort-unique-words", "replace-spelling"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    (run / "refresh_inputs.sh").write_text(REFRESH_INPUTS)
    ctx.sh(f"bash {run}/refresh_inputs.sh", "logs/refresh_inputs.log")
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    everything = "".join(text_of(p) for p in run.rglob("*") if p.is_file() and p.suffix in (".log", ".json", ".jsonl"))
    sorted_rows = task_rows(ctx, "sort-unique-words")
    if sorted_rows or "build context" not in everything:
        raise failed(ctx, f"exit {code}, {len(sorted_rows)}: {everything[-800:]}")
    return (f"RUN/refresh_inputs.sh: RUN/tasks/sort-unique-words/environment/words.txt -> "
            f"../../../shared-data/words.txt (this week's list); RUN/run_tasks.sh "
            f"exit {code}; the image build failed (file not found in build context), "
            f"{len(rows_of(run / 'rollouts.jsonl'))} rollouts.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

HEREDOC_TEST = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
expected() {
    cat <<-EOF
    apple
    banana
    cherry
    fig
    pear
    EOF
}
if test "$(cat /app/sorted.txt 2>/dev/null)" = "$(expected)"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def heredoc_expected_list(tasks: Path) -> None:
    (tasks / "sort-unique-words" / "tests" / "test.sh").write_text(HEREDOC_TEST)


@case(
    "verifier_runtime_taskfolder_test_sh_indented_heredoc_terminator_uses_spaces_not_tabs",
    "verifier_runtime",
    ["test.sh", "<<-EOF", "tab"],
    "sort-unique-words' tests/test.sh keeps the expected list in an indented here-document (`cat <<-EOF`), which only "
    "strips leading tabs; the file was re-indented with spaces, so the indented `    EOF` no longer ends the "
    "here-document, bash reads to the end of the file ('here-document ... delimited by end-of-file', 'syntax error: "
    "unexpected end of file') and test.sh never writes /logs/verifier/reward.txt: every episode of that task got no "
    "reward though the agent sorted the words, while the other task scored normally",
)
def verifier_runtime_taskfolder_test_sh_indented_heredoc_terminator_uses_spaces_not_tabs(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["sort-unique-words", "create-greeting"], heredoc_expected_list)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    words = task_rows(ctx, "sort-unique-words")
    other = task_rows(ctx, "create-greeting")
    stdout = "".join(text_of(p) for p in run.rglob("test-stdout.txt"))
    if any(rewards(words)) or not words or not any(rewards(other)) or "here-document" not in stdout:
        raise failed(ctx, f"exit {code}, words {rewards(words)}, other {rewards(other)}: {stdout[-400:]}")
    kinds = sorted({str(r.get("failure_kind")) for r in words})
    return (f"RUN/tasks/sort-unique-words/tests/test.sh (`<<-EOF` re-indented with spaces); RUN/run_tasks.sh exit "
            f"{code}; sort-unique-words rewards {rewards(words)} ({kinds}), create-greeting rewards {rewards(other)}.")


PLACEHOLDER_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        # the model's ways of not answering ("N/A", "None", "unknown", "TBD") never earn a reward
        placeholders = {"na", "none", "null", "unknown", "tbd"}
        bare = re.sub(r"[^a-z]", "", (extracted or "").lower())

        reward = 0.0
        if extracted is not None and body.expected_answer and bare not in placeholders:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""

SYMBOLS = [("What is the chemical symbol for sodium?", "Na"), ("What is the chemical symbol for iron?", "Fe"),
           ("What is the chemical symbol for gold?", "Au"), ("What is the chemical symbol for potassium?", "K"),
           ("What is the chemical symbol for silver?", "Ag"), ("What is the chemical symbol for lead?", "Pb"),
           ("Which element has the atomic number 11? Give its chemical symbol.", "Na"),
           ("What is the chemical symbol for tin?", "Sn")]


@case(
    "verifier_runtime_gym_placeholder_answer_filter_rejects_sodium_symbol_na",
    "verifier_runtime",
    ["app.py", "placeholders", "N/A"],
    "the user's resources server symbol_match refuses placeholder answers: it strips everything but letters from the "
    "extracted answer and gives 0 when what is left is 'na', 'none', 'null', 'unknown' or 'tbd' (meant for 'N/A'); "
    "'Na', the chemical symbol of sodium, is left as 'na', so the model's right answers to the two sodium tasks "
    "scored 0 in the real NeMo Gym eval while the other symbols scored normally (every command exits 0)",
    netns=True,
)
def verifier_runtime_gym_placeholder_answer_filter_rejects_sodium_symbol_na(ctx: Ctx) -> str:
    run = ctx.run
    data = write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in SYMBOLS])
    better = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    ran, prof, env_start = gym_eval_with_own_server(ctx, "symbol_match", PLACEHOLDER_VERIFY, data, url, overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    sodium = [row for row in got if row.get("expected_answer") == "Na" and row.get("extracted_answer") == "Na"]
    right = [row for row in got if row.get("expected_answer") != "Na"
             and row.get("extracted_answer") == row.get("expected_answer")]
    if ran or prof or len(got) != 24 or not sodium or any(rewards(sodium)) or not right or not all(rewards(right)):
        raise failed(ctx, f"exit {ran}/{prof}, {len(got)}, sodium {rewards(sodium)}, right {rewards(right)}")
    return (f"A user's resources server symbol_match (placeholder filter on letters only); real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) `gym eval run --no-serve` (8 tasks x 3, step_0200) exit {ran}, profile exit "
            f"{prof}; {len(sodium)} right answers 'Na' scored {rewards(sodium)}, other right answers "
            f"{rewards(right)}; mean reward {mean(rewards(got)):.2f}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

EVALUTILS_INIT = '''"""evalutils: answer normalization shared by the team's verifiers."""
__version__ = "VERSION"
'''

EVALUTILS_NORMALIZE = '''"""evalutils.normalize: numeric answers compared with a relative tolerance (42 == 42.0 == 4.2e1)."""
REL_TOL = TOLERANCE  # relative tolerance of numbers_match


def as_number(text):
    try:
        return float(str(text).replace(",", "").strip())
    except ValueError:
        return None


def numbers_match(answer, expected):
    a, b = as_number(answer), as_number(expected)
    if a is None or b is None:
        return str(answer).strip().lower() == str(expected).strip().lower()
    return abs(a - b) <= REL_TOL * max(abs(b), 1e-12)
'''

EVALUTILS_CHANGES = {"1.4.0": "1.4.0: numbers_match compares numbers with a relative tolerance.\n",
                     "1.4.1": "1.4.1: fix REL_TOL, 1e-1 (10 %) was a typo for 1e-6: numeric answers up to 10 % off "
                              "were accepted.\n1.4.0: numbers_match compares numbers with a relative tolerance.\n"}

NUMERIC_VERIFIER = '''"""my_verifier.py: numeric answers, compared with the team's evalutils (42 == 42.0)."""
import re

from evalutils.normalize import numbers_match

FINAL = re.compile(r"final answer:\\s*(.+)", re.IGNORECASE)


def score(row, response_text):
    found = FINAL.findall(response_text)
    answer = found[-1].strip().rstrip(".") if found else None
    correct = answer is not None and numbers_match(answer, row["expected_answer"])
    return {"reward": 1.0 if correct else 0.0, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
'''

NUMBERS = [("What is 17 plus 25?", "42"), ("What is 12 times 12?", "144"), ("What is 9 times 7?", "63"),
           ("What is 15 times 4?", "60"), ("What is 81 divided by 3?", "27"), ("What is 13 times 11?", "143"),
           ("What is 250 minus 125?", "125"), ("What is 19 plus 38?", "57")]


def evalutils_release(path: Path, version: str, tolerance: str) -> None:
    """The team's release archive: built reproducibly, so every entry carries the same fixed time stamp."""
    files = {"evalutils/__init__.py": EVALUTILS_INIT.replace("VERSION", version),
             "evalutils/normalize.py": EVALUTILS_NORMALIZE.replace("TOLERANCE", tolerance),
             "evalutils/CHANGES.txt": EVALUTILS_CHANGES[version]}
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in files.items():
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            archive.writestr(info, text)


@case(
    "cache_resume_stage_team_lib_hotfix_unzipped_with_fixed_timestamps_keeps_stale_pycache",
    "cache_resume",
    ["__pycache__", "evalutils", "team-libs"],
    "the workspace verifier compares numbers with the team's evalutils, vendored in team-libs/ from release archives; "
    "1.4.0 accepted answers 10 % off (REL_TOL = 1e-1), so last week's eval credited the model's near misses; the "
    "1.4.1 hotfix (1e-6) was unzipped over it, but the archives are built with one fixed time stamp and the fix kept "
    "every file's size, so the compiled files last week's run left in team-libs/evalutils/__pycache__ still matched "
    "their sources' time and size and Python kept running 1.4.0: the rerun credited the same wrong answers and "
    "`evalutils.__version__` still printed 1.4.0 (every command exits 0)",
)
def cache_resume_stage_team_lib_hotfix_unzipped_with_fixed_timestamps_keeps_stale_pycache(ctx: Ctx) -> str:
    run = ctx.run
    if ctx.env.pop("PYTHONDONTWRITEBYTECODE", None) is not None:  # set where this corpus is built, not by users
        ctx.note("(the user's shell does not set PYTHONDONTWRITEBYTECODE: Python keeps compiled modules in "
                 "__pycache__ folders)")
    data = write_jsonl(run / "numbers.jsonl", [question_row(q, a) for q, a in NUMBERS])
    weaker = checkpoints(ctx, "string_match", data)[0]
    (run / "releases").mkdir()
    evalutils_release(run / "releases" / "evalutils-1.4.0.zip", "1.4.0", "1e-1")
    evalutils_release(run / "releases" / "evalutils-1.4.1.zip", "1.4.1", "1e-6")
    url, _ = ctx.policy(weaker, "--latency-ms 20")
    sweep = workspace_sweep(ctx, "exact_answer", data, weaker, {"verifier": "my_verifier:score"}, NUMERIC_VERIFIER,
                            num_repeats=3, concurrency=4)
    lines = ["#!/bin/bash", "# weekly eval of the numeric set (verifier: verifiers/my_verifier.py)", f"cd {run}",
             "export PYTHONPATH=$PWD/team-libs${PYTHONPATH:+:$PYTHONPATH}",
             "python3 -c 'import evalutils; print(\"evalutils\", evalutils.__version__)'"]
    for key, extra in (("materialize", ()), ("collect", served(url)), ("profile", ())):
        lines += [f"echo '== {key}'", shlex.join(stage_argv(sweep, key, weaker, "exact_answer", *extra))]
    (run / "run_eval.sh").write_text("\n".join(lines) + "\n")
    ctx.sh("unzip -o releases/evalutils-1.4.0.zip -d team-libs", "logs/install_evalutils.log", cwd=run)
    first = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval_last_week.log", timeout=400)
    ctx.note("(a week later the team released evalutils 1.4.1, the REL_TOL fix)")
    ctx.sh("unzip -o releases/evalutils-1.4.1.zip -d team-libs", "logs/install_evalutils.log", cwd=run)
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    credited = [row for row in got if row.get("reward") and row.get("extracted_answer") != row.get("expected_answer")]
    fixed = "1e-6" in text_of(run / "team-libs" / "evalutils" / "normalize.py")
    if first or code or len(got) != 24 or not credited or not fixed \
            or not in_log(ctx, "evalutils 1.4.0", "logs/run_eval.log"):
        raise failed(ctx, f"exit {first}/{code}, {len(got)}, credited {len(credited)}, fixed {fixed}")
    pairs = sorted({(r["extracted_answer"], r["expected_answer"]) for r in credited})
    return (f"RUN/team-libs/evalutils 1.4.0 (REL_TOL 1e-1) from RUN/releases, first RUN/run_eval.sh (stages "
            f"materialize, collect, profile with RUN/verifiers/my_verifier.py) exit {first}; then `unzip -o` of 1.4.1 "
            f"(REL_TOL 1e-6, same sizes, same fixed time stamps) and RUN/run_eval.sh again exit {code}: "
            f"{len(credited)} wrong answers still credited (answer, label: {pairs}), mean reward "
            f"{mean(rewards(got)):.2f}.")


SPLIT_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
cd RUN_DIR
DATA=string_match_dev.jsonl
echo "== eval of $DATA on $(hostname), job $SLURM_JOB_ID, restart ${SLURM_RESTART_COUNT:-0}"
GP_BIN materialize --input $DATA --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 2
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""

FIX_SPLIT = "sed -i 's/^DATA=string_match_dev.jsonl/DATA=string_match_test.jsonl/' eval.sbatch && grep '^DATA=' eval.sbatch"


@case(
    "cache_resume_slurm_requeue_reruns_the_stored_batch_script_not_the_fixed_file",
    "cache_resume",
    ["scontrol requeue", "sbatch", "eval.sbatch"],
    "the weekly job started on the dev split (DATA=string_match_dev.jsonl in eval.sbatch); the user saw it in the log, "
    "fixed eval.sbatch to the test split and ran `scontrol requeue` on the running job to pick up the fix; but Slurm "
    "keeps the batch script it was given at submission and a requeued job runs that stored copy again, so the rerun "
    "evaluated the dev split once more and the run folder holds dev results though eval.sbatch now names the test "
    "split (every command exits 0)",
)
def cache_resume_slurm_requeue_reruns_the_stored_batch_script_not_the_fixed_file(ctx: Ctx) -> str:
    run = ctx.run
    ctx.dataset("string_match", 4, start=40, folder=run, name="string_match_dev.jsonl")
    test = ctx.dataset("string_match", 8, start=44, folder=run, name="string_match_test.jsonl")
    both = write_jsonl(ctx.work / "both.jsonl", rows_of(run / "string_match_dev.jsonl") + rows_of(test))
    better = checkpoints(ctx, "string_match", both)[1]
    url, _ = ctx.policy(better, "--latency-ms 1500")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(SPLIT_SBATCH, ctx, MODEL_URL=url))
    ctx.sh("sbatch --parsable eval.sbatch > job_id.txt && echo \"submitted job $(cat job_id.txt)\"", "logs/submit.log",
           cwd=run)
    job = text_of(run / "job_id.txt").strip()
    wait_for(lambda: "== eval of" in job_logs(ctx, "eval_*.log"), 120, "the job's start")
    ctx.note("(the user reads the job log, sees the dev split, fixes eval.sbatch and requeues the job)")
    ctx.sh(FIX_SPLIT, "logs/fix.log", cwd=run)
    ctx.sh(f"scontrol requeue {job} && echo 'requeued job {job}'", "logs/submit.log", cwd=run)
    ctx.sh(f"while squeue -h -j {job} 2>/dev/null | grep -q .; do sleep 2; done; echo 'job {job} finished'",
           "logs/submit.log", cwd=run, timeout=600)
    logs = job_logs(ctx, "eval_*.log")
    materialized = rows_of(run / "rollouts_materialized_inputs.jsonl")
    test_labels = {row["expected_answer"] for row in rows_of(test)}
    if "restart 1" not in logs or "string_match_test" in logs or len(materialized) != 12 \
            or any(row.get("expected_answer") in test_labels for row in materialized) \
            or "DATA=string_match_test.jsonl" not in text_of(run / "eval.sbatch") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"{len(materialized)}: {logs[-800:]}")
    return (f"RUN/eval.sbatch submitted with DATA=string_match_dev.jsonl, fixed in place to the test split while the "
            f"job ran, then `scontrol requeue {job}`: the requeued job (restart 1) ran the stored script again; "
            f"{len(materialized)} materialized rows, all of the dev split; mean reward "
            f"{mean_reward(run / 'rollouts.jsonl')}.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

BATCH_HOOK = """
import threading
import time

# Micro-batching for the GPU: a request waits until BATCH_SIZE requests have arrived or its batch has been open
# MAX_WAIT_S seconds; then the whole batch goes upstream together.
BATCH_SIZE = 32
MAX_WAIT_S = 5.0
LOCK = threading.Lock()
CURRENT = [None]


def completion(handler, body):
    with LOCK:
        batch = CURRENT[0]
        if batch is None or batch["closed"].is_set():
            batch = CURRENT[0] = {"opened": time.monotonic(), "count": 0, "closed": threading.Event()}
        batch["count"] += 1
        if batch["count"] >= BATCH_SIZE:
            batch["closed"].set()
    remaining = MAX_WAIT_S - (time.monotonic() - batch["opened"])
    if not batch["closed"].wait(max(remaining, 0)):
        with LOCK:
            if not batch["closed"].is_set():
                batch["closed"].set()
                print(f"batch of {batch['count']} sent after the {MAX_WAIT_S:g} s window", flush=True)
    return handler._upstream(body)
"""


@case(
    "throughput_builtin_gateway_micro_batch_window_waits_for_batches_the_eval_never_fills",
    "throughput_resources",
    ["gateway.py", "BATCH_SIZE", "MAX_WAIT_S"],
    "the team's gateway.py batches requests for the GPU: each waits until 32 requests have arrived or its batch has "
    "been open 5 s; the eval sends 4 at a time (--concurrency 4), so no batch ever filled and every request waited the "
    "full 5 s window (the model answers in 20 ms): the 24 rollouts needed over 30 s and the CI's 25 s budget for "
    "run_eval.sh killed the collect with rollouts missing; the profile never ran",
)
def throughput_builtin_gateway_micro_batch_window_waits_for_batches_the_eval_never_fills(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 76)
    url, _ = ctx.policy(better, "--latency-ms 20")
    port = free_port()
    start_helper(ctx, "gateway.py", gateway_source("Micro-batching: requests go upstream in batches.", BATCH_HOOK),
                 f"{port} {url.removesuffix('/v1')}", "gateway.py on")
    script = builtin_script(ctx, ["echo '== weekly eval through the team gateway'"], "string_match.jsonl",
                            f"http://127.0.0.1:{port}/v1")
    code = ctx.sh(f"timeout 25 bash {script}", "logs/run_eval.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code == 0 or got >= 24 or (run / "rollouts_reward_profiling.jsonl").exists() \
            or not in_log(ctx, "sent after the 5 s window", "logs/gateway.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/gateway.py (batches of 32 or a 5 s window) in front of the simulated policy (20 ms); `timeout 25 bash "
            f"RUN/run_eval.sh` (collect --concurrency 4) exit {code}; {got} of 24 rollouts collected, no profile.")


POOL_SETTINGS = """# from the hosted-API setup: the provider allows one connection per key
++global_aiohttp_connector_limit_per_host=1
"""


@case(
    "throughput_gym_connector_limit_per_host_of_one_from_hosted_api_settings_serializes_model_calls",
    "throughput_resources",
    ["global_aiohttp_connector_limit_per_host", "gym_settings.txt", "concurrency"],
    "the user's gym_settings.txt, copied from the team's hosted-API setup (one connection per key), sets "
    "++global_aiohttp_connector_limit_per_host=1 for `gym env start`; every Gym server's HTTP client then opens one "
    "connection per host, so the model calls of the real NeMo Gym eval went to the model server one at a time "
    "whatever --concurrency said (8), each taking its 2 s, and the CI's 30 s budget for run_eval.sh killed the eval "
    "with rollouts missing; the profile never ran",
    netns=True,
)
def throughput_gym_connector_limit_per_host_of_one_from_hosted_api_settings_serializes_model_calls(ctx: Ctx) -> str:
    run = ctx.run
    ctx.dataset("string_match", 8, start=22, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", run / "tasks.jsonl")[1]
    url, policy = ctx.policy(better, "--latency-ms 2000", log="policy_server.log")
    (run / "gym_settings.txt").write_text(POOL_SETTINGS)
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides} $(grep -v '^#' {run}/gym_settings.txt)")
    script = run / "run_eval.sh"
    script.write_text(f"#!/bin/bash\n# weekly eval\ncd {run}\necho '== weekly eval'\n"
                      f"{gym_eval_line(overrides, 'tasks.jsonl', 'results/rollouts.jsonl', 3, 8)}\n"
                      f"{gym_profile_line('results')}\n")
    began = time.monotonic()
    code = ctx.sh(f"timeout 30 bash {script}", "logs/run_eval.log", timeout=400)
    took = time.monotonic() - began
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if code == 0 or got >= 24 or (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got} in {took:.0f} s")
    return (f"`gym env start ... ++global_aiohttp_connector_limit_per_host=1` (RUN/gym_settings.txt); simulated policy "
            f"at 2 s per completion; real NeMo Gym 0.7.0 (loopback-only namespace) `timeout 30 bash RUN/run_eval.sh` "
            f"(--concurrency 8) exit {code} after {took:.0f} s; {got} of 24 rollouts collected, no profile.")


if __name__ == "__main__":
    sys.exit(main("fortieth_held_out", __file__, __doc__))
