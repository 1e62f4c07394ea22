"""Build the THIRTY-NINTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/thirty_ninth_held_out.py --out tests/data/diagnosis_corpus/thirty_ninth_held_out [--only CASE ...]

This set was written from the guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder
troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests
or their results. It is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
task folders run in Docker sandboxes, Slurm batch jobs, the real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` /
`gym eval profile` inside a loopback-only network namespace, with a user's own resources server), and the user's own
shell scripts, settings files, helper servers (gateways), task files, git checkouts and data-preparation scripts. The
output of every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written
by hand but the user's own inputs (data, scripts, settings, verifier code). Each case injects one cause, different in
mechanism from those of the thirty-eight earlier sets (first_held_out.py ... thirty_eighth_held_out.py), and each
recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not written). About
half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare,
mount), Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this checkout. Run it from a foreground shell.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import defaultdict
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import checkpoints, failed, gym_start, stop_gym, task_checkpoints, user_taskset  # noqa: E402
from fourteenth_held_out import mean, rewards  # noqa: E402
from recipes import Ctx, case, gym_model_args, main, rows_of, text_of, unique_keys  # noqa: E402
from tenth_held_out import in_log  # noqa: E402
from thirtieth_held_out import gateway_url, gym_rows  # noqa: E402
from thirty_eighth_held_out import git, texts_by_task  # noqa: E402
from thirty_fifth_held_out import SCI_PREP, mean_reward, pipeline  # noqa: E402
from thirty_sixth_held_out import fix_labels  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_fifth_held_out import job_logs, task_rows  # noqa: E402
from twenty_second_held_out import question_row, response_text  # noqa: E402
from twenty_seventh_held_out import (  # noqa: E402
    builtin_script,
    gateway_source,
    gym_eval_with_own_server,
    submit_and_wait,
)
from twenty_sixth_held_out import free_port, gym_run, slurm_script, start_helper  # noqa: E402
from twenty_third_held_out import final_answer, taskset_script, write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


def complete(ctx: Ctx) -> int:
    """How many distinct rollouts RUN/rollouts.jsonl holds (for the healthy cases)."""
    return len(unique_keys(ctx.run / "rollouts.jsonl"))


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_builtin_run_script_stats_dataset_with_bsd_flags_before_gnu_fallback",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh, shared with colleagues on Macs, prints the dataset's modification time "
    "with `stat -f %m string_match.jsonl || stat -c %Y string_match.jsonl`; GNU stat reads -f as --file-system and "
    "'%m' as a file, so the log opens with 'stat: cannot read file system information for '%m'' and a file-system "
    "table before the GNU form prints the time, but materialize, collect and profile completed every rollout",
)
def healthy_builtin_run_script_stats_dataset_with_bsd_flags_before_gnu_fallback(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 30)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["echo \"dataset modified: $(stat -f %m string_match.jsonl || stat -c %Y "
                                  "string_match.jsonl)\"", "echo '== weekly eval'"], "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = complete(ctx)
    if code or got != 24 or not in_log(ctx, "cannot read file system information", "logs/run_eval.log") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (`stat -f %m` on GNU stat, then `stat -c %Y`; materialize 8 x 3, collect, profile) exit "
            f"{code}; {got} rollouts, mean reward {mean_reward(run / 'rollouts.jsonl')}.")


LOCK_SCRIPT_LINES = [
    "exec 9>LOCK_FILE",
    "if ! flock -n 9; then echo \"node lock held by another job ($(cat LOCK_FILE.owner)): waiting\"; "
    "flock -w 120 9 || exit 1; fi",
    "echo '== weekly eval (node lock taken)'",
]


@case(
    "healthy_builtin_run_script_waits_on_node_lock_held_briefly_by_nightly_backup",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh takes the node's eval lock with flock before running; the nightly backup "
    "held it for a few seconds, so the log says 'node lock held by another job (nightly-backup): waiting', then the "
    "script took the lock and materialize, collect and profile completed every rollout",
)
def healthy_builtin_run_script_waits_on_node_lock_held_briefly_by_nightly_backup(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 40)
    url, _ = ctx.policy(better, "--latency-ms 20")
    lock = ctx.work / "node" / "eval.lock"
    lock.parent.mkdir()
    (ctx.work / "node" / "eval.lock.owner").write_text("nightly-backup\n")
    backup = ctx.bg(f"flock {lock} -c 'echo nightly backup running; sleep 6; echo nightly backup done'",
                    "logs/nightly_backup.log")
    recipes.wait_for(lambda: "backup running" in text_of(run / "logs" / "nightly_backup.log"), 20, "the backup")
    lines = [line.replace("LOCK_FILE", str(lock)) for line in LOCK_SCRIPT_LINES]
    script = builtin_script(ctx, lines, "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    backup.wait(timeout=30)
    got = complete(ctx)
    if code or got != 24 or not in_log(ctx, "waiting", "logs/run_eval.log") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (flock on the node's eval lock, held 6 s by the nightly backup; then materialize 8 x 3, "
            f"collect, profile) exit {code}; {got} rollouts, mean reward {mean_reward(run / 'rollouts.jsonl')}.")


@case(
    "healthy_taskfolder_run_script_snapshots_taskset_with_tar_of_absolute_path",
    "healthy",
    [],
    "nothing is wrong: the user's run_tasks.sh first keeps a snapshot of the taskset with `tar czf "
    "tasks_snapshot.tgz $PWD/tasks`; GNU tar warns 'Removing leading `/' from member names', but the snapshot is made "
    "and every episode ran in its Docker sandbox, was verified and profiled",
)
def healthy_taskfolder_run_script_snapshots_taskset_with_tar_of_absolute_path(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["replace-spelling", "create-greeting"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["tar czf tasks_snapshot.tgz $PWD/tasks",
                                                          "echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    if code or len(unique_keys(run / "rollouts.jsonl")) != 4 or not any(rewards(got)) \
            or not in_log(ctx, "Removing leading", "logs/run_tasks.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(got)}")
    return (f"RUN/run_tasks.sh (`tar czf` of an absolute path warns; `gym-pipeline stage` materialize, collect, "
            f"profile of RUN/tasks x 2) exit {code}; rewards {rewards(got)}.")


LOCALE_PREP = SCI_PREP.replace('import json\n', 'import json\nimport locale\n\nprint("prepared with locale", '
                               'locale.getdefaultlocale())\n', 1)


@case(
    "healthy_gym_prep_script_calls_deprecated_locale_getdefaultlocale",
    "healthy",
    [],
    "nothing is wrong: the user's prepare_data.py prints the machine's locale with locale.getdefaultlocale(), which "
    "Python 3.11 deprecates, so the log shows 'DeprecationWarning: Use setlocale(), getencoding() and getlocale() "
    "instead'; the tasks file is complete and the real NeMo Gym eval collected, verified and profiled every rollout",
    netns=True,
)
def healthy_gym_prep_script_calls_deprecated_locale_getdefaultlocale(ctx: Ctx) -> str:
    run = ctx.run
    pairs = [("What is the capital of Australia?", "Canberra"), ("What is the capital of Canada?", "Ottawa"),
             ("What is the capital of Kenya?", "Nairobi"), ("What is 9 times 7?", "63"),
             ("What is 15 times 4?", "60"), ("What is the capital of Norway?", "Oslo")]
    (run / "labels.csv").write_text("question,answer\n" + "".join(f"\"{q}\",{a}\n" for q, a in pairs))
    (run / "prepare_data.py").write_text(LOCALE_PREP)
    truth = write_jsonl(ctx.work / "truth.jsonl", [question_row(q, a) for q, a in pairs])
    better = checkpoints(ctx, "string_match", truth)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["echo '== weekly eval'", "python3 prepare_data.py"], overrides)
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if code or got != 18 or not in_log(ctx, "DeprecationWarning", "logs/run_eval.log") \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (prepare_data.py with a DeprecationWarning, "
            f"then `gym eval run --no-serve` 6 tasks x 3, `gym eval profile`) exit {code}, {got} rollouts, mean reward "
            f"{mean(rewards(gym_rows(ctx))):.2f}.")


# =====================================================================================================
# infra
# =====================================================================================================


NSSWITCH_NOTE = ("(last night's configuration-management run applied the hardened image profile to this node: "
                 "/etc/nsswitch.conf now says `hosts: dns`; the team's /etc/hosts maps policy-node to 127.0.0.1)")


@case(
    "infra_builtin_nsswitch_conf_from_hardened_profile_skips_hosts_file_so_model_hostname_unresolvable",
    "infra",
    ["nsswitch.conf", "hosts: files dns", "/etc/hosts"],
    "the team reaches the model server by the name policy-node, which the node's /etc/hosts maps to 127.0.0.1; a "
    "configuration-management run applied a hardened profile that rewrote /etc/nsswitch.conf to `hosts: dns`, so "
    "name lookups no longer read /etc/hosts and there is no DNS here: `getent hosts policy-node` finds nothing, and "
    "collect could not reach policy-node ('Cannot connect to host policy-node') though the server was up and healthy, "
    "so no rollout was collected",
    netns=True,
)
def infra_builtin_nsswitch_conf_from_hardened_profile_skips_hosts_file_so_model_hostname_unresolvable(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 12)
    url, _ = ctx.policy(better, "--latency-ms 20")
    etc = ctx.work / "etc"
    etc.mkdir()
    (etc / "hosts").write_text(Path("/etc/hosts").read_text() + "127.0.0.1 policy-node\n")
    nsswitch = Path("/etc/nsswitch.conf").read_text()
    (etc / "nsswitch.conf").write_text(re.sub(r"(?m)^hosts:.*$", "hosts:          dns   # hardened profile", nsswitch))
    for name in ("hosts", "nsswitch.conf"):  # private to this recipe's mount namespace
        subprocess.run(["mount", "--bind", str(etc / name), f"/etc/{name}"], check=True)
    ctx.note(NSSWITCH_NOTE)
    named = url.replace("127.0.0.1", "policy-node")
    script = builtin_script(ctx, ["echo \"== weekly eval; model server: $(grep policy-node /etc/hosts)\"",
                                  "getent hosts policy-node || echo 'policy-node: no address from getent'"],
                            "string_match.jsonl", named)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=600)
    got = rows_of(run / "rollouts.jsonl")
    log = text_of(run / "logs" / "run_eval.log") + "".join(text_of(p) for p in run.glob("*failures*"))
    if got or "Cannot connect to host policy-node" not in log or "no address from getent" not in log:
        raise failed(ctx, f"exit {code}, {len(got)}: {log[-800:]}")
    return (f"/etc/nsswitch.conf `hosts: dns` (hardened profile), /etc/hosts maps policy-node; RUN/run_eval.sh "
            f"(--model-url {named.replace(url.split('/')[2].split(':')[1], 'PORT')}) exit {code}; {len(got)} rollouts.")


# =====================================================================================================
# model_serving
# =====================================================================================================

DECIMALS = [("What is 7 divided by 2?", "3.5"), ("What is 1.5 plus 2.25?", "3.75"), ("What is 9 divided by 4?", "2.25"),
            ("What is 0.5 times 5?", "2.5"), ("What is 17 plus 25?", "42"), ("What is 9 times 7?", "63"),
            ("What is 10 divided by 8?", "1.25"), ("What is 100 minus 58?", "42")]

COMMA_HOOK = '''
import re

DECIMAL_POINT = re.compile(r"(\\d)\\.(\\d)")  # the German chat UI shows 3,5 for 3.5


def completion(handler, body):
    status, data = handler._upstream(body)
    if status != 200:
        return status, data
    reply = json.loads(data)
    for choice in reply.get("choices", []):
        message = choice.get("message") or {}
        if isinstance(message.get("content"), str):
            message["content"] = DECIMAL_POINT.sub(r"\\1,\\2", message["content"])
    return status, json.dumps(reply).encode()
'''


@case(
    "model_serving_builtin_gateway_localizes_decimal_points_in_replies_to_commas",
    "model_serving",
    ["gateway.py", "DECIMAL_POINT", "comma"],
    "the team's gateway.py, set up for the German chat UI, rewrites every decimal point in the model's replies to a "
    "comma (3.5 -> 3,5); the model answered the decimal tasks right, but their answers reached the verifier as '3,5' "
    "and never matched the labels, so every decimal task scored 0 while the integer tasks scored normally (every "
    "command exits 0)",
)
def model_serving_builtin_gateway_localizes_decimal_points_in_replies_to_commas(ctx: Ctx) -> str:
    run = ctx.run
    data = write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in DECIMALS])
    better = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    gateway = gateway_url(ctx, url, "Localized replies: decimal points become commas.", COMMA_HOOK)
    script = builtin_script(ctx, ["echo '== weekly eval through the team gateway'"], "string_match.jsonl", gateway)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    decimal = [row for row in got if "." in str(row.get("expected_answer"))]
    whole = [row for row in got if row not in decimal]
    if code or len(got) != 24 or not decimal or any(rewards(decimal)) or not any(rewards(whole)):
        raise failed(ctx, f"exit {code}, {len(got)}, decimal {rewards(decimal)}, whole {rewards(whole)}")
    return (f"RUN/gateway.py (decimal points -> commas in replies) in front of the simulated policy serving step_0200; "
            f"RUN/run_eval.sh exit {code}; decimal-task rewards {rewards(decimal)}, integer-task rewards "
            f"{rewards(whole)}.")


COALESCE_HOOK = '''
import hashlib
import threading

# Request coalescing (like our CDN): identical requests in flight share one upstream call and one reply.
IN_FLIGHT = {}
LOCK = threading.Lock()


def completion(handler, body):
    key = hashlib.sha256(body).hexdigest()
    with LOCK:
        entry = IN_FLIGHT.get(key)
        leader = entry is None
        if leader:
            entry = IN_FLIGHT[key] = {"done": threading.Event(), "reply": None, "waiters": 0}
        else:
            entry["waiters"] += 1
    if not leader:
        entry["done"].wait(130)
        print("coalesced one request into an identical one in flight", flush=True)
        return entry["reply"]
    try:
        entry["reply"] = handler._upstream(body)
    finally:
        entry["done"].set()
        with LOCK:
            IN_FLIGHT.pop(key, None)
    return entry["reply"]
'''


@case(
    "model_serving_gym_gateway_coalesces_identical_in_flight_requests_into_one_reply",
    "model_serving",
    ["gateway.py", "IN_FLIGHT", "coalesc"],
    "the team's gateway.py coalesces identical requests that are in flight at the same time into one upstream call "
    "(a CDN habit); the repeats of a task are identical requests sent together, so they all got the same sampled "
    "reply: in the real NeMo Gym eval every task's repeats are byte-identical, each task scores all 0 or all 1, the "
    "per-task variance is zero and the repeats measure one sample (every command exits 0)",
    netns=True,
)
def model_serving_gym_gateway_coalesces_identical_in_flight_requests_into_one_reply(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=56, folder=run, name="tasks.jsonl")
    weaker = checkpoints(ctx, "string_match", data)[0]
    url, policy = ctx.policy(weaker, "--latency-ms 400", log="policy_server.log")
    gateway = gateway_url(ctx, url, "Request coalescing: identical requests in flight share one reply.", COALESCE_HOOK)
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(gateway)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["echo '== weekly eval, through the team gateway'"], overrides, concurrency=6)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    texts = texts_by_task(got)
    per_task = defaultdict(set)
    for row in got:
        per_task[row["_ng_task_index"]].add(float(row.get("reward") or 0))
    if code or len(got) != 18 or any(len(t) != 1 for t in texts.values()) \
            or not in_log(ctx, "coalesced", "logs/gateway.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, {[len(t) for t in texts.values()]}")
    return (f"RUN/gateway.py (identical in-flight requests coalesced) in front of the simulated policy serving "
            f"step_0100; real NeMo Gym 0.7.0 (loopback-only namespace) RUN/run_eval.sh exit {code}; {len(got)} "
            f"rollouts, one distinct reply per task over its 3 repeats; per-task rewards "
            f"{[sorted(v) for _, v in sorted(per_task.items())]}.")


# =====================================================================================================
# config
# =====================================================================================================

SPLITS_SCRIPT = """#!/bin/bash
# weekly eval of both splits
cd RUN_DIR
SPLITS=(dev test)
DATA[dev]=string_match_dev.jsonl
DATA[test]=string_match_test.jsonl
for split in "${SPLITS[@]}"; do
  echo "== $split: ${DATA[$split]}"
  mkdir -p results_$split
  GP_BIN materialize --input ${DATA[$split]} --num-repeats 3 --agent string_match_simple_agent \\
    --output results_$split/rollouts_materialized_inputs.jsonl
  GP_BIN collect --inputs results_$split/rollouts_materialized_inputs.jsonl --output results_$split/rollouts.jsonl \\
    --model-url MODEL_URL --env string_match --concurrency 4
  GP_BIN profile --inputs results_$split/rollouts_materialized_inputs.jsonl --rollouts results_$split/rollouts.jsonl
done
"""


@case(
    "config_builtin_split_table_assigned_without_declare_a_maps_every_split_to_last_file",
    "config",
    ["run_eval.sh", "declare -A", "DATA"],
    "run_eval.sh keeps the dataset of each split in `DATA[dev]=...`, `DATA[test]=...` but never declares DATA as an "
    "associative array (`declare -A DATA`): bash treats it as an indexed array, where 'dev' and 'test' are arithmetic "
    "and both mean index 0, so the second assignment overwrote the first and both splits were evaluated on "
    "string_match_test.jsonl: results_dev holds the test split's tasks and the dev split was never evaluated (every "
    "command exits 0)",
)
def config_builtin_split_table_assigned_without_declare_a_maps_every_split_to_last_file(ctx: Ctx) -> str:
    run = ctx.run
    dev = ctx.dataset("string_match", 6, start=0, folder=run, name="string_match_dev.jsonl")
    test = ctx.dataset("string_match", 6, start=6, folder=run, name="string_match_test.jsonl")
    both = write_jsonl(ctx.work / "both.jsonl", rows_of(dev) + rows_of(test))
    better = checkpoints(ctx, "string_match", both)[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "run_eval.sh").write_text(slurm_script(SPLITS_SCRIPT, ctx, MODEL_URL=url))
    code = ctx.sh(f"bash {run}/run_eval.sh", "logs/run_eval.log", timeout=400)
    dev_rows = rows_of(run / "results_dev" / "rollouts.jsonl")
    test_labels = {r["expected_answer"] for r in rows_of(test)} - {r["expected_answer"] for r in rows_of(dev)}
    from_test = [r for r in dev_rows if r.get("expected_answer") in test_labels]
    if code or len(dev_rows) != 18 or not from_test or not in_log(ctx, "== dev: string_match_test", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, dev {len(dev_rows)}, from test {len(from_test)}")
    return (f"RUN/run_eval.sh (DATA[dev], DATA[test] without `declare -A`) exit {code}; results_dev: {len(dev_rows)} "
            f"rollouts, {len(from_test)} of them of tasks only the test split has; mean reward dev {mean(rewards(dev_rows)):.2f}, "
            f"test {mean_reward(run / 'results_test' / 'rollouts.jsonl')}.")


EXPR_SCRIPT_LINES = [
    "BASE_REPEATS=2",
    "REPEATS=$(expr $BASE_REPEATS * 2)   # pass@k study: twice the usual repeats",
    "echo \"== weekly eval with $REPEATS repeats\"",
]


@case(
    "config_builtin_run_script_expr_with_unquoted_asterisk_globs_run_folder_files",
    "config",
    ["run_eval.sh", "expr", "\\*"],
    "run_eval.sh computes the number of repeats with `REPEATS=$(expr $BASE_REPEATS * 2)`; the unquoted * is a shell "
    "glob and expands to the file names of the run folder, so expr failed ('expr: syntax error'), REPEATS was empty and "
    "materialize got `--num-repeats --agent ...` and refused it ('expected one argument'); collect and profile found "
    "no inputs",
)
def config_builtin_run_script_expr_with_unquoted_asterisk_globs_run_folder_files(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 16)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, EXPR_SCRIPT_LINES, "string_match.jsonl", url, repeats="$REPEATS")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    log = text_of(run / "logs" / "run_eval.log")
    if (run / "rollouts.jsonl").exists() and rows_of(run / "rollouts.jsonl") or "expr" not in log \
            or "expected one argument" not in log:
        raise failed(ctx, f"exit {code}: {log[-600:]}")
    return (f"RUN/run_eval.sh (`expr $BASE_REPEATS * 2` with the * globbed) exit {code}; materialize refused an empty "
            f"--num-repeats, nothing collected or profiled.")


READ_SCRIPT_LINES = [
    "read -r REPEATS CONCURRENCY < eval_settings.txt   # one line: repeats and concurrency",
    "echo \"== weekly eval: $REPEATS repeats, concurrency $CONCURRENCY\"",
]


@case(
    "config_builtin_run_script_reads_key_value_settings_line_into_plain_variables",
    "config",
    ["eval_settings.txt", "read", "num_repeats=3"],
    "run_eval.sh reads its settings with `read -r REPEATS CONCURRENCY < eval_settings.txt`, written for a line '3 4'; "
    "a teammate rewrote eval_settings.txt as 'num_repeats=3 concurrency=4', so REPEATS held the text "
    "'num_repeats=3' and CONCURRENCY 'concurrency=4': materialize refused the first ('must be an integer >= 1, got "
    "'num_repeats=3''), collect the second, and the profile found no rollouts",
)
def config_builtin_run_script_reads_key_value_settings_line_into_plain_variables(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 72)
    (run / "eval_settings.txt").write_text("num_repeats=3 concurrency=4\n")
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, READ_SCRIPT_LINES, "string_match.jsonl", url, repeats="$REPEATS",
                            concurrency="$CONCURRENCY")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    log = text_of(run / "logs" / "run_eval.log")
    if rows_of(run / "rollouts.jsonl") or "got 'num_repeats=3'" not in log:
        raise failed(ctx, f"exit {code}: {log[-600:]}")
    return (f"RUN/eval_settings.txt ('num_repeats=3 concurrency=4') read by RUN/run_eval.sh with `read -r REPEATS "
            f"CONCURRENCY` exit {code}; materialize refused --num-repeats num_repeats=3, nothing collected or profiled.")


CPUS_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
cd RUN_DIR
echo "weekly eval on $(hostname), concurrency = cpus of the job: '$SLURM_CPUS_PER_TASK'"
PIPELINE"""


@case(
    "config_slurm_job_concurrency_from_slurm_cpus_per_task_without_cpus_per_task_directive",
    "config",
    ["eval.sbatch", "--cpus-per-task", "SLURM_CPUS_PER_TASK"],
    "eval.sbatch passes `--concurrency $SLURM_CPUS_PER_TASK` to collect, but has no `#SBATCH --cpus-per-task` line, "
    "and Slurm sets SLURM_CPUS_PER_TASK only when that option is given: the variable was empty, collect refused "
    "`--concurrency` without a value ('expected one argument'), and the profile found no rollouts",
)
def config_slurm_job_concurrency_from_slurm_cpus_per_task_without_cpus_per_task_directive(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 20)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(CPUS_SBATCH, ctx,
                                                  PIPELINE=pipeline(url, concurrency="$SLURM_CPUS_PER_TASK")))
    code = submit_and_wait(ctx, "eval.sbatch", "logs/submit.log")
    logs = job_logs(ctx, "eval_*.log")
    if "expected one argument" not in logs or rows_of(run / "rollouts.jsonl") \
            or not (run / "rollouts_materialized_inputs.jsonl").exists():
        raise failed(ctx, f"exit {code}: {logs[-800:]}")
    return (f"RUN/submit.sh (sbatch of RUN/eval.sbatch: no --cpus-per-task, `--concurrency $SLURM_CPUS_PER_TASK`) exit "
            f"{code}; materialize ran, collect refused the empty concurrency, nothing collected or profiled.")


# =====================================================================================================
# data_schema
# =====================================================================================================

POWERS = [("What is 2 to the power of 60?", 2**60), ("What is 3 to the power of 40?", 3**40),
          ("What is 7 to the power of 22?", 7**22), ("What is 17 plus 25?", 42), ("What is 12 times 12?", 144),
          ("What is 2 to the power of 10?", 1024), ("What is 5 to the power of 30?", 5**30),
          ("What is 200 minus 77?", 123)]


def javascript_number(value: int) -> int:
    """What a JavaScript export writes for an integer: the shortest double that round-trips, as digits."""
    return int(Decimal(repr(float(value))))


BIG_PREP = '''"""prepare_data.py: the annotation tool's export (export.json) -> string_match.jsonl"""
import json

with open("export.json") as f:
    items = json.load(f)["items"]
with open("string_match.jsonl", "w") as out:
    for item in items:
        text = item["question"] + " End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": str(item["answer"]), "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
print(f"wrote {len(items)} tasks")
'''


@case(
    "data_schema_builtin_big_integer_labels_rounded_by_javascript_export_tool",
    "data_schema",
    ["export.json", "string", "1152921504606846976"],
    "the annotation tool (a JavaScript web app) exported the answers as JSON numbers, and integers above 2^53 lost "
    "their last digits in the export (2^60 = 1152921504606846976 became 1152921504606847000); prepare_data.py copied "
    "them as they were, so the model's exact answers to the large-power tasks never matched their labels and scored "
    "0 while the small-number tasks scored normally (every command exits 0)",
)
def data_schema_builtin_big_integer_labels_rounded_by_javascript_export_tool(ctx: Ctx) -> str:
    run = ctx.run
    export = {"tool": "annotate-web 3.2", "items": [{"question": q, "answer": javascript_number(a)} for q, a in POWERS]}
    (run / "export.json").write_text(json.dumps(export, indent=1) + "\n")
    (run / "prepare_data.py").write_text(BIG_PREP)
    truth = write_jsonl(ctx.work / "truth.jsonl", [question_row(q, str(a)) for q, a in POWERS])
    better = checkpoints(ctx, "string_match", truth)[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["echo '== weekly eval'", "python3 prepare_data.py"], "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    rounded = {str(javascript_number(a)) for _, a in POWERS if javascript_number(a) != a}
    big = [row for row in got if row.get("expected_answer") in rounded]
    small = [row for row in got if row not in big]
    if code or len(got) != 24 or not big or any(rewards(big)) or not any(rewards(small)):
        raise failed(ctx, f"exit {code}, {len(got)}, big {rewards(big)}, small {rewards(small)}")
    return (f"RUN/export.json (big integers rounded by the JavaScript export) -> RUN/prepare_data.py; RUN/run_eval.sh "
            f"exit {code}; rounded-label rewards {rewards(big)}, others {rewards(small)}.")


ACCENTED = [("What is the capital of Colombia?", "Bogotá"), ("What is the capital of Brazil?", "Brasília"),
            ("What is the capital of Iceland?", "Reykjavík"), ("What is the capital of Paraguay?", "Asunción"),
            ("What is the capital of Peru?", "Lima"), ("What is the capital of Norway?", "Oslo")]

LATIN1_PREP = SCI_PREP.replace('import json\n', 'import json\n\n# the export tool writes Windows text (latin-1)\n', 1
                               ).replace('open("labels.csv", newline="")', 'open("labels.csv", newline="", encoding="latin-1")')


@case(
    "data_schema_gym_prep_reads_utf8_labels_csv_as_latin1_so_accented_labels_are_mojibake",
    "data_schema",
    ["prepare_data.py", "encoding", "utf-8"],
    "labels.csv is UTF-8 (the new export tool), but prepare_data.py still opens it with encoding='latin-1' (right for "
    "the old Windows export): every accented label became mojibake (Bogotá -> BogotÃ¡, Reykjavík -> ReykjavÃ\xadk), "
    "so the model's correct answers never matched them and those tasks scored 0 in the real NeMo Gym eval while the "
    "unaccented ones scored normally (every command exits 0)",
    netns=True,
)
def data_schema_gym_prep_reads_utf8_labels_csv_as_latin1_so_accented_labels_are_mojibake(ctx: Ctx) -> str:
    run = ctx.run
    (run / "labels.csv").write_text("question,answer\n" + "".join(f"\"{q}\",{a}\n" for q, a in ACCENTED),
                                    encoding="utf-8")
    (run / "prepare_data.py").write_text(LATIN1_PREP)
    truth = write_jsonl(ctx.work / "truth.jsonl", [question_row(q, a) for q, a in ACCENTED])
    better = checkpoints(ctx, "string_match", truth)[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["echo '== weekly eval'", "python3 prepare_data.py"], overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    garbled = [row for row in got if "Ã" in str(row.get("expected_answer", ""))]
    plain = [row for row in got if row not in garbled]
    if code or len(got) != 18 or not garbled or any(rewards(garbled)) or not any(rewards(plain)):
        raise failed(ctx, f"exit {code}, {len(got)}, garbled {rewards(garbled)}, plain {rewards(plain)}")
    return (f"RUN/labels.csv (UTF-8) -> RUN/prepare_data.py (reads it as latin-1) -> RUN/tasks.jsonl; real NeMo Gym "
            f"0.7.0 (loopback-only namespace) RUN/run_eval.sh exit {code}; mojibake-label rewards {rewards(garbled)}, "
            f"others {rewards(plain)}.")


def release_script_appended_version(tasks: Path) -> None:
    package = tasks / "json-version" / "environment" / "package.json"
    text = package.read_text()
    if '"private": true\n}' not in text:
        raise recipes.RecipeError("json-version's package.json changed")
    # what the team's bump_version.sh did to it: a new "version" line appended instead of the old one replaced
    package.write_text(text.replace('"private": true\n}', '"private": true,\n  "version": "3.0.0-rc1"\n}'))


@case(
    "data_schema_taskfolder_package_json_gets_second_version_key_from_release_script",
    "data_schema",
    ["package.json", "version", "duplicate"],
    "json-version's environment/package.json was touched by the team's release script, which appended a second "
    "`\"version\": \"3.0.0-rc1\"` key instead of replacing the first; JSON readers keep the last duplicate key, so the "
    "agent's (right) command wrote 3.0.0-rc1 while the task's test still expects 2.7.1, and every episode of that task "
    "scored 0 while the other task scored normally (every command exits 0)",
)
def data_schema_taskfolder_package_json_gets_second_version_key_from_release_script(ctx: Ctx) -> str:
    tasks = user_taskset(ctx, ["json-version", "create-greeting"], release_script_appended_version)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    versions = task_rows(ctx, "json-version")
    other = task_rows(ctx, "create-greeting")
    if code or not versions or any(rewards(versions)) or not any(rewards(other)):
        raise failed(ctx, f"exit {code}, versions {rewards(versions)}, other {rewards(other)}")
    return (f"RUN/tasks/json-version/environment/package.json (a second \"version\" key, 3.0.0-rc1); RUN/run_tasks.sh "
            f"exit {code}; json-version rewards {rewards(versions)}, create-greeting rewards {rewards(other)}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

PLURAL_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        found = re.findall(r"Final answer:\\s*(.+)", text)
        extracted = found[-1].strip().rstrip(".") if found else None

        def singular(word):
            # plural-insensitive: 'Diamonds' counts as 'Diamond'
            return word.strip().lower().rstrip("s")

        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = 1.0 if singular(extracted) == singular(body.expected_answer) else 0.0

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""

WORDS = [("What is the hardest naturally occurring mineral?", "Diamond"), ("What is the capital of Japan?", "Tokyo"),
         ("Which planet is known as the Red Planet?", "Mars"), ("What is the currency of Japan?", "Yen"),
         ("Which gas do plants absorb from the air?", "Carbon dioxide"), ("What is the largest ocean?", "Pacific"),
         ("Which planet has the shortest orbital period around the Sun?", "Mercury"),
         ("What is the capital of Peru?", "Lima"), ("What is the chemical symbol for gold?", "Au"),
         ("Which noble gas has the lowest boiling point?", "Helium")]


@case(
    "verifier_runtime_gym_verify_singularizes_with_rstrip_s_so_plural_near_misses_match",
    "verifier_runtime",
    ["app.py", "rstrip(\"s\")", "singular"],
    "the user's resources server plural_match makes the comparison 'plural-insensitive' with `.rstrip(\"s\")` on both "
    "sides; rstrip removes every trailing s (and 'Mars' becomes 'mar'), so wrong answers such as 'Marss' or 'Mar' for "
    "Mars were graded correct, and the real NeMo Gym eval reported a reward above the checkpoint's true accuracy "
    "(every command exits 0)",
    netns=True,
)
def verifier_runtime_gym_verify_singularizes_with_rstrip_s_so_plural_near_misses_match(ctx: Ctx) -> str:
    run = ctx.run
    data = write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in WORDS])
    weaker = checkpoints(ctx, "string_match", data)[0]
    url, policy = ctx.policy(weaker, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    ran, prof, env_start = gym_eval_with_own_server(ctx, "plural_match", PLURAL_VERIFY, data, url, overrides)
    stop_gym(ctx, env_start, policy)
    got = rows_of(run / "results" / "rollouts.jsonl")
    wrong = [row for row in got if final_answer(response_text(row)).lower() != str(row.get("expected_answer")).lower()]
    credited = [row for row in wrong if float(row.get("reward") or 0) > 0]
    if ran or len(got) != 30 or not credited:
        raise failed(ctx, f"exit {ran}/{prof}, {len(got)}, wrong {len(wrong)}, credited {len(credited)}")
    return (f"A user's resources server plural_match (rstrip('s') on both sides); real NeMo Gym 0.7.0 (loopback-only "
            f"namespace) `gym eval run --no-serve` (10 tasks x 3, step_0100) exit {ran}, profile exit {prof}; "
            f"{len(credited)} of {len(wrong)} wrong answers credited "
            f"({sorted({final_answer(response_text(r)) for r in credited})}); mean reward {mean(rewards(got)):.2f}.")


def misspelled_reward_variable(tasks: Path) -> None:
    test = tasks / "create-greeting" / "tests" / "test.sh"
    text = test.read_text()
    text = text.replace("cd /app\n", "REWARD_FILE=/logs/verifier/reward.txt\ncd /app\n", 1)
    text = text.replace("echo 1 > /logs/verifier/reward.txt", "echo 1 > $REWARD_FLIE")
    text = text.replace("echo 0 > /logs/verifier/reward.txt", "echo 0 > $REWARD_FLIE")
    if "REWARD_FLIE" not in text:
        raise recipes.RecipeError("create-greeting's test.sh changed")
    test.write_text(text)


@case(
    "verifier_runtime_taskfolder_test_sh_redirects_reward_to_misspelled_variable",
    "verifier_runtime",
    ["test.sh", "REWARD_FILE", "REWARD_FLIE"],
    "create-greeting's tests/test.sh was tidied to keep the reward path in a variable, REWARD_FILE, but both branches "
    "write to `$REWARD_FLIE` (misspelled, unset): bash refuses the redirection ('ambiguous redirect'), no "
    "/logs/verifier/reward.txt was written, and no episode of that task got a reward though the agent had done the "
    "task; the other task scored normally",
)
def verifier_runtime_taskfolder_test_sh_redirects_reward_to_misspelled_variable(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["create-greeting", "sort-unique-words"], misspelled_reward_variable)
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, ["echo '== weekly taskset run'"])
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    greet = task_rows(ctx, "create-greeting")
    other = task_rows(ctx, "sort-unique-words")
    mentioned = "create-greeting" in "".join(text_of(p) for p in run.rglob("*failures*"))
    if any(rewards(greet)) or not (greet or mentioned) or not any(rewards(other)):
        raise failed(ctx, f"exit {code}, greet {rewards(greet)}, other {rewards(other)}")
    return (f"RUN/tasks/create-greeting/tests/test.sh (reward written to `$REWARD_FLIE`); RUN/run_tasks.sh exit {code}; "
            f"create-greeting rewards {rewards(greet)}, sort-unique-words rewards {rewards(other)}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================


@case(
    "cache_resume_builtin_run_script_updates_eval_checkout_with_git_fetch_only",
    "cache_resume",
    ["git pull", "git fetch", "run_eval.sh"],
    "the labelling team fixed three labels of data/string_match.jsonl on the eval repository's main branch; the "
    "user's run_eval.sh 'updates' its checkout with `git fetch` only, which downloads the new commit but never merges "
    "it into the working tree, so the eval read the old file and the three fixed tasks still scored 0 against their "
    "old wrong labels (every command exits 0)",
)
def cache_resume_builtin_run_script_updates_eval_checkout_with_git_fetch_only(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 66)
    good = data.read_text()
    data.unlink()
    origin = ctx.work / "shared" / "evals"
    (origin / "data").mkdir(parents=True)
    (origin / "data" / "string_match.jsonl").write_text(good)
    fix_labels(origin / "data" / "string_match.jsonl", {1: "Avalon", 3: "Shangri-La", 6: "El Dorado"})
    git(ctx, origin, "init", "-q", "-b", "main")
    git(ctx, origin, "add", ".")
    git(ctx, origin, "commit", "-q", "-m", "weekly eval data")
    clone = ctx.work / "home" / "evals"
    clone.parent.mkdir(parents=True)
    ctx.sh(f"git clone -q {origin} {clone}", "logs/clone_last_month.log")
    (origin / "data" / "string_match.jsonl").write_text(good)
    git(ctx, origin, "commit", "-q", "-am", "fix three wrong labels")
    ctx.note("(the labelling team committed the fix of three labels to the eval repository's main branch)")
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, [f"(cd {clone} && git fetch && git log --oneline -1 origin/main)",
                                  "echo '== weekly eval'"], f"{clone}/data/string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    stale = [row for row in got if row.get("expected_answer") in ("Avalon", "Shangri-La", "El Dorado")]
    if code or len(got) != 24 or not stale or any(rewards(stale)) or not in_log(ctx, "fix three", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, stale {rewards(stale)}")
    return (f"WORK/home/evals (origin/main has the label fix, the working tree not); RUN/run_eval.sh (`git fetch`, then "
            f"materialize, collect, profile) exit {code}; {len(stale)} rollouts graded against the old labels, rewards "
            f"{rewards(stale)}; mean reward {mean(rewards(got)):.2f}.")


MULTIWORD = [("What is the capital of India?", "New Delhi"), ("What is the capital of Argentina?", "Buenos Aires"),
             ("What is the capital of Malaysia?", "Kuala Lumpur"), ("What is the capital of Japan?", "Tokyo"),
             ("What is the capital of Kenya?", "Nairobi"), ("What is the capital of Mexico?", "Mexico City"),
             ("What is the capital of Peru?", "Lima"), ("What is the capital of Norway?", "Oslo")]

FIRST_WORD_PREP = SCI_PREP.replace('"expected_answer": item["answer"]',
                                   '"expected_answer": item["answer"].split()[0]')

CACHED_PREP = """#!/bin/bash
# prepare.sh: labels.csv -> tasks.jsonl, cached by the content of labels.csv (the prep is slow on the full set)
cd RUN_DIR
KEY=$(sha256sum labels.csv | cut -c1-16)
CACHE=CACHE_DIR/$KEY.jsonl
if [ -f "$CACHE" ]; then
  echo "labels.csv unchanged: using the cached tasks $CACHE"
  cp "$CACHE" string_match.jsonl
else
  python3 prepare_data.py
  mv tasks.jsonl string_match.jsonl
  mkdir -p CACHE_DIR && cp string_match.jsonl "$CACHE"
fi
"""


@case(
    "cache_resume_builtin_prep_output_cached_by_hash_of_labels_csv_ignores_fixed_prep_script",
    "cache_resume",
    ["prepare.sh", "cache", "prepare_data.py"],
    "prepare_data.py kept only the first word of every label ('New Delhi' -> 'New'); the user fixed it and ran the "
    "eval again, but prepare.sh caches the prepared tasks under a key made from labels.csv alone, so the rerun found "
    "the cache of the buggy first run, copied it, and the multi-word tasks scored 0 again against the cut labels "
    "(every command exits 0)",
)
def cache_resume_builtin_prep_output_cached_by_hash_of_labels_csv_ignores_fixed_prep_script(ctx: Ctx) -> str:
    run = ctx.run
    (run / "labels.csv").write_text("question,answer\n" + "".join(f"\"{q}\",{a}\n" for q, a in MULTIWORD))
    (run / "prepare_data.py").write_text(FIRST_WORD_PREP)
    cache = ctx.work / "home" / ".cache" / "evalprep"
    (run / "prepare.sh").write_text(slurm_script(CACHED_PREP, ctx, CACHE_DIR=str(cache)))
    truth = write_jsonl(ctx.work / "truth.jsonl", [question_row(q, a) for q, a in MULTIWORD])
    better = checkpoints(ctx, "string_match", truth)[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["echo '== weekly eval'", f"bash {run}/prepare.sh"], "string_match.jsonl", url)
    first = ctx.sh(f"bash {script}", "logs/run_eval_first.log", timeout=400)
    (run / "prepare_data.py").write_text(SCI_PREP)
    ctx.note("(the user saw the cut labels and fixed prepare_data.py: the whole answer is kept)")
    ctx.sh(f"rm -f {run}/rollouts*.jsonl", "logs/cleanup.log")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    cut = [row for row in got if row.get("expected_answer") in ("New", "Buenos", "Kuala", "Mexico")]
    if first or code or len(got) != 24 or not cut or any(rewards(cut)) \
            or not in_log(ctx, "using the cached tasks", "logs/run_eval.log"):
        raise failed(ctx, f"exit {first}/{code}, {len(got)}, cut {rewards(cut)}")
    return (f"RUN/prepare.sh (tasks cached by sha256 of labels.csv); first run exit {first}; RUN/prepare_data.py fixed; "
            f"RUN/run_eval.sh again exit {code}: cache hit, {len(cut)} rollouts still graded against cut labels, "
            f"rewards {rewards(cut)}; mean reward {mean(rewards(got)):.2f}.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================


@case(
    "throughput_builtin_pythontracemalloc_left_in_settings_from_leak_hunt_slows_collect_past_ci_budget",
    "throughput_resources",
    ["PYTHONTRACEMALLOC", "settings.env", "unset"],
    "the user's settings.env still exports PYTHONTRACEMALLOC=25 from last week's memory-leak hunt; every Python "
    "process of the eval then records a 25-frame traceback for each allocation, which made the collect dozens of "
    "times slower (the model server answered in 20 ms), and the CI's 45 s budget for run_eval.sh killed the collect "
    "with most rollouts missing; the profile never ran",
)
def throughput_builtin_pythontracemalloc_left_in_settings_from_leak_hunt_slows_collect_past_ci_budget(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 8)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "settings.env").write_text("# eval settings\nexport EVAL_SPLIT=weekly\n"
                                      "export PYTHONTRACEMALLOC=25   # leak hunt (issue #212)\n")
    script = builtin_script(ctx, [f"source {run}/settings.env", "echo \"== weekly eval ($EVAL_SPLIT)\""],
                            "string_match.jsonl", url)
    code = ctx.sh(f"timeout 45 bash {script}", "logs/run_eval.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code == 0 or got >= 24 or (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/settings.env (PYTHONTRACEMALLOC=25) sourced by RUN/run_eval.sh; `timeout 45 bash RUN/run_eval.sh` "
            f"exit {code}; {got} of 24 rollouts collected, no profile.")


AUDIT_SERVICE = '''"""audit_service.py: the compliance team's audit log (one record per model call)."""
import sys
import time
from http.server import BaseHTTPRequestHandler, HTTPServer


class Audit(BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        time.sleep(2.0)  # the record is written to the archive database before the answer
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    print(f"audit_service.py on 127.0.0.1:{sys.argv[1]}", flush=True)
    HTTPServer(("127.0.0.1", int(sys.argv[1])), Audit).serve_forever()
'''

AUDIT_HOOK = '''
AUDIT_URL = sys.argv[3]  # every model call is recorded before it is answered (compliance)


def completion(handler, body):
    record = json.dumps({"path": handler.path, "bytes": len(body)}).encode()
    urllib.request.urlopen(urllib.request.Request(AUDIT_URL, data=record, method="POST"), timeout=60).read()
    return handler._upstream(body)
'''


@case(
    "throughput_builtin_gateway_waits_for_single_threaded_audit_service_on_every_request",
    "throughput_resources",
    ["gateway.py", "audit", "AUDIT_URL"],
    "the team's gateway.py writes an audit record to the compliance team's audit service before forwarding each "
    "model call and waits for it; the audit service takes 2 s per record and handles one at a time, so the 24 calls of "
    "the eval went through one by one at about 2 s each whatever the concurrency (the model answered in 20 ms), and "
    "the CI's 40 s budget for run_eval.sh killed the collect with rollouts missing; the profile never ran",
)
def throughput_builtin_gateway_waits_for_single_threaded_audit_service_on_every_request(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 24)
    url, _ = ctx.policy(better, "--latency-ms 20")
    audit_port = free_port()
    start_helper(ctx, "audit_service.py", AUDIT_SERVICE, str(audit_port), "audit_service.py on")
    port = free_port()
    start_helper(ctx, "gateway.py", gateway_source("Audit: every model call is recorded first.", AUDIT_HOOK),
                 f"{port} {url.removesuffix('/v1')} http://127.0.0.1:{audit_port}/audit", "gateway.py on")
    gateway = f"http://127.0.0.1:{port}/v1"
    script = builtin_script(ctx, ["echo '== weekly eval through the team gateway'"], "string_match.jsonl", gateway)
    code = ctx.sh(f"timeout 40 bash {script}", "logs/run_eval.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code == 0 or got >= 24 or (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/gateway.py (waits for RUN/audit_service.py, 2 s per record, one at a time) in front of the simulated "
            f"policy; `timeout 40 bash RUN/run_eval.sh` exit {code}; {got} of 24 rollouts collected, no profile.")


if __name__ == "__main__":
    sys.exit(main("thirty_ninth_held_out", __file__, __doc__))
