"""Build the FORTY-EIGHTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/forty_eighth_held_out.py --out tests/data/diagnosis_corpus/forty_eighth_held_out [--only CASE ...]

This set was written after the forty-seven earlier sets (first_held_out.py ... forty_seventh_held_out.py), from the guides
alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
task folders run in Docker sandboxes, Slurm batch jobs, the real NeMo Gym 0.7.0 (`gym env start` / `gym eval run` /
`gym eval profile` inside a loopback-only network namespace), and the user's own shell scripts, settings, serving
scripts, data-preparation scripts, workspace verifiers, resources servers, team packages and task files. The output
of every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand
but the user's own inputs (data, scripts, settings, verifier code). Each case injects one cause, different in
mechanism from those of the forty-seven earlier sets, and each recipe checks that its fault really happened (it raises
RecipeError otherwise, and the case is not written). About half of the failures are silent: every command exits 0
and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare,
mount), Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this checkout. Run it from a foreground shell.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import (  # noqa: E402
    checkpoints,
    failed,
    gym_start,
    stop_gym,
    task_checkpoints,
    user_taskset,
    workspace_sweep,
)
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from forty_fifth_held_out import MULTIWORD, log_of, submit  # noqa: E402
from forty_second_held_out import workspace_script  # noqa: E402
from forty_seventh_held_out import said_right, stale_right  # noqa: E402
from forty_third_held_out import CAPITALS_WRONG, PLAIN_SBATCH  # noqa: E402
from fourteenth_held_out import mean, rewards  # noqa: E402
from recipes import (  # noqa: E402
    Ctx,
    case,
    gym_model_args,
    main,
    rows_of,
)
from tenth_held_out import in_log  # noqa: E402
from thirtieth_held_out import gym_rows  # noqa: E402
from thirty_fifth_held_out import mean_reward, pipeline  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_fifth_held_out import job_logs  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_seventh_held_out import builtin_script, gym_eval_with_own_server  # noqa: E402
from twenty_sixth_held_out import gym_run, slurm_script  # noqa: E402
from twenty_third_held_out import taskset_script, write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


def said(rows: list[dict], right: bool = True) -> list[dict]:
    """The rollouts whose reply gave the right answer (or, with right=False, another one)."""
    return [r for r in rows if said_right(r) == right]


def replied(row: dict, answer: str) -> bool:
    """Whether the model's reply ends on `answer` after 'Final answer:'."""
    return f"final answer: {answer}".lower() in json.dumps(row.get("response")).lower()


# =====================================================================================================
# healthy
# =====================================================================================================

LSCPU_LINES = [
    "echo '== weekly eval'",
    "# the node's CPU and its known hardware vulnerabilities, for the run notes (security asked for it)",
    "lscpu | grep -iE 'model name|vulnerab' | head -n 8",
]


@case(
    "healthy_builtin_run_script_records_cpu_vulnerability_lines_of_lscpu_for_security_notes",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh records the node's CPU model and its hardware vulnerability lines "
    "(`lscpu | grep -i vulnerab`: 'Vulnerability Spectre v1: Mitigation ...', some 'Vulnerable' or 'Not affected') "
    "for the security team's notes; they say nothing about the eval, and materialize, collect and profile then "
    "completed every rollout",
)
def healthy_builtin_run_script_records_cpu_vulnerability_lines_of_lscpu_for_security_notes(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 60)
    url, _ = ctx.policy(better, "--latency-ms 30")
    script = builtin_script(ctx, LSCPU_LINES, "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = complete(ctx)
    if code or got != 24 or not in_log(ctx, "Vulnerab", "logs/run_eval.log") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {log_of(ctx, 'run_eval.log')[-600:]}")
    return (f"RUN/run_eval.sh (`lscpu | grep -iE 'model name|vulnerab'`, then materialize 8 x 3, collect, profile) "
            f"exit {code}; {got} rollouts, mean reward {mean_reward(run / 'rollouts.jsonl')}.")


PING_LINES = [
    "echo '== weekly eval'",
    "# can this node reach the package index? (when it cannot, the eval venv comes from the local mirror)",
    "ping -c 1 -W 2 pypi.org || echo '(no route to pypi.org: offline eval node, packages from the mirror)'",
]


@case(
    "healthy_gym_run_script_pings_package_index_from_offline_eval_node",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh pings pypi.org to note whether the node is online; the eval node is "
    "offline by design, so ping fails ('Temporary failure in name resolution' or 'Name or service not known') and "
    "the script goes on; the real NeMo Gym eval (model and servers on loopback) then collected, verified and "
    "profiled every rollout",
    netns=True,
)
def healthy_gym_run_script_pings_package_index_from_offline_eval_node(ctx: Ctx) -> str:
    run = ctx.run
    ctx.dataset("string_match", 8, start=68, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", run / "tasks.jsonl")[1]
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", PING_LINES, overrides)
    stop_gym(ctx, env_start, policy)
    got = len({(r["_ng_task_index"], r["_ng_rollout_index"]) for r in gym_rows(ctx)})
    if code or got != 24 or not in_log(ctx, "pypi.org", "logs/run_eval.log") \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {log_of(ctx, 'run_eval.log')[-600:]}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (`ping pypi.org` fails on the offline "
            f"node, then `gym eval run --no-serve` 8 tasks x 3 and `gym eval profile`) exit {code}; {got} rollouts, "
            f"mean reward {mean(rewards(gym_rows(ctx))):.2f}.")


DOCKER_LOGS_LINES = [
    "echo '== weekly taskset run'",
    "# last week's sandbox that hung: keep its last lines for the ticket (it may have been cleaned up already)",
    "docker logs --tail 5 sm-sandbox-last-week 2>&1 || echo '(last week sandbox already removed)'",
]


@case(
    "healthy_taskfolder_run_script_asks_docker_for_logs_of_last_weeks_sandbox_already_removed",
    "healthy",
    [],
    "nothing is wrong: the user's run_tasks.sh asks Docker for the last lines of last week's hung sandbox "
    "container for a ticket; the container was removed long ago, so `docker logs` answers 'Error response from "
    "daemon: No such container' and the script goes on; every episode of this week's run ran in its Docker sandbox, "
    "was verified and profiled",
)
def healthy_taskfolder_run_script_asks_docker_for_logs_of_last_weeks_sandbox_already_removed(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["create-greeting", "top-word"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    script = taskset_script(ctx, tasks, checkpoint, url, DOCKER_LOGS_LINES)
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = rows_of(run / "rollouts.jsonl")
    log = log_of(ctx, "run_tasks.log")
    if code or complete(ctx) != 4 or not any(rewards(got)) or "No such container" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {rewards(got)}: {log[-600:]}")
    return (f"RUN/run_tasks.sh (`docker logs` of a removed container, then `gym-pipeline stage` materialize, collect, "
            f"profile of RUN/tasks x 2) exit {code}; {complete(ctx)} of 4 episodes, rewards {rewards(got)}.")


QOS_SBATCH = PLAIN_SBATCH.replace(
    "PIPELINE",
    "# the QOS limits of the team's account, for the run notes (asked by the cluster admins)\n"
    "sacctmgr -n show qos format=name,maxwall 2>&1 | head -n 3 || echo '(no accounting database on this cluster)'\n"
    "PIPELINE")


@case(
    "healthy_slurm_job_lists_qos_limits_with_sacctmgr_on_cluster_without_accounting_database",
    "healthy",
    [],
    "nothing is wrong: the user's eval.sbatch lists the account's QOS limits with `sacctmgr show qos` for the run "
    "notes; this cluster runs without an accounting database, so sacctmgr prints 'You are not running a supported "
    "accounting_storage plugin' and the job goes on; materialize, collect and profile completed every rollout",
)
def healthy_slurm_job_lists_qos_limits_with_sacctmgr_on_cluster_without_accounting_database(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 76)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(QOS_SBATCH, ctx, PIPELINE=pipeline(url)))
    code = submit(ctx, "eval.sbatch")
    got = complete(ctx)
    job = job_logs(ctx, "eval_*.log")
    if code or got != 24 or "accounting_storage" not in job \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {job[-600:]}")
    return (f"RUN/submit.sh (sbatch of RUN/eval.sbatch: `sacctmgr show qos` without accounting, then materialize "
            f"8 x 3, collect, profile) exit {code}; {got} rollouts, mean reward {mean_reward(run / 'rollouts.jsonl')}.")


# =====================================================================================================
# data_schema
# =====================================================================================================

ARITHMETIC = [("What is 6 times 7?", "42", "=6*7"), ("What is 9 plus 10?", "19", "=9+10"),
              ("What is 12 times 12?", "144", "=12*12"), ("What is 100 minus 37?", "63", "=100-37"),
              ("What is the capital of France?", "Paris", None), ("What is the capital of Japan?", "Tokyo", None),
              ("What is the capital of Italy?", "Rome", None),
              ("Which planet is known as the Red Planet?", "Mars", None)]
FORMULA_NOTE = ("(the data team's answer sheet: the arithmetic answers are spreadsheet formulas; the sheet was "
                "exported to string_match.jsonl while 'Show formulas' was on, so those cells were written as their "
                "formula text)")


@case(
    "data_schema_builtin_answer_sheet_exported_with_show_formulas_on_so_arithmetic_labels_are_formula_text",
    "data_schema",
    ["expected_answer", "formula"],
    "the answer sheet behind string_match.jsonl computes its arithmetic answers with formulas, and was exported "
    "while the spreadsheet's 'Show formulas' view was on: the four arithmetic labels are '=6*7', '=9+10', ... instead "
    "of 42, 19, ...; the model's right answers to them scored 0 while the other tasks scored normally (every "
    "command exits 0)",
)
def data_schema_builtin_answer_sheet_exported_with_show_formulas_on_so_arithmetic_labels_are_formula_text(
        ctx: Ctx) -> str:
    run = ctx.run
    better = truth_checkpoints(ctx, [(q, a) for q, a, _ in ARITHMETIC])[1]
    write_jsonl(run / "string_match.jsonl", [question_row(q, formula or a) for q, a, formula in ARITHMETIC])
    ctx.note(FORMULA_NOTE)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, ["echo '== weekly eval'", "head -c 300 string_match.jsonl; echo"],
                            "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    formulas = {formula: a for _, a, formula in ARITHMETIC if formula}
    right = [r for r in got if r.get("expected_answer") in formulas and replied(r, formulas[r["expected_answer"]])]
    other = [r for r in got if r.get("expected_answer") not in formulas]
    if code or len(got) != 24 or not right or any(rewards(right)) or not any(rewards(other)):
        raise failed(ctx, f"exit {code}, {len(got)}, right {rewards(right)}, other {rewards(other)}")
    return (f"RUN/string_match.jsonl (labels '=6*7', '=9+10', '=12*12', '=100-37'); RUN/run_eval.sh (materialize "
            f"8 x 3, collect, profile) exit {code}; {len(right)} right arithmetic answers scored {rewards(right)}, "
            f"the other tasks mean {mean(rewards(other)):.2f}.")


SLUG_NOTE = ("(the tasks were exported from the team's question bank, whose answers table has two columns: "
             "'answer' and 'answer_slug' (for URLs); the export script took answer_slug)")


@case(
    "data_schema_gym_labels_exported_from_url_slug_column_join_multiword_answers_with_underscores",
    "data_schema",
    ["expected_answer", "slug", "underscore"],
    "the tasks were exported from the question bank's `answer_slug` column (meant for URLs) instead of `answer`: "
    "multi-word answers came out joined with underscores ('New_Delhi', 'Buenos_Aires', 'Kuala_Lumpur', 'Sri'... "
    "'New_York'); the real NeMo Gym string_match verifier compared 'New Delhi' with 'New_Delhi', so the model's "
    "right answers to every multi-word task scored 0 while one-word answers scored normally (every command exits 0)",
    netns=True,
)
def data_schema_gym_labels_exported_from_url_slug_column_join_multiword_answers_with_underscores(ctx: Ctx) -> str:
    run = ctx.run
    better = truth_checkpoints(ctx, MULTIWORD)[1]
    write_jsonl(run / "tasks.jsonl", [question_row(q, a.replace(" ", "_")) for q, a in MULTIWORD])
    ctx.note(SLUG_NOTE)
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_run(ctx, "tasks.jsonl", ["echo '== weekly eval'", "head -c 300 tasks.jsonl; echo"], overrides)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    multi = {a.replace(" ", "_"): a for _, a in MULTIWORD if " " in a}
    right = [r for r in got if r.get("expected_answer") in multi and replied(r, multi[r["expected_answer"]])]
    other = [r for r in got if r.get("expected_answer") not in multi]
    if code or len(got) != 24 or not right or any(rewards(right)) or not any(rewards(other)):
        raise failed(ctx, f"exit {code}, {len(got)}, right {rewards(right)}, other {rewards(other)}")
    return (f"RUN/tasks.jsonl (labels 'New_Delhi', 'Buenos_Aires', 'Kuala_Lumpur', 'New_York'); real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, `gym eval profile`) exit "
            f"{code}; {len(right)} right multi-word answers scored {rewards(right)}, one-word tasks mean "
            f"{mean(rewards(other)):.2f}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

LSTRIP_VERIFIER = '''"""my_verifier.py: the answer after the last 'Final answer:', compared with the label without regard to case."""

MARK = "Final answer:"


def score(row, response_text):
    tail = response_text[response_text.rfind(MARK):] if MARK in response_text else ""
    answer = tail.lstrip(MARK).strip().rstrip(".") or None  # drop the marker, keep the answer
    label = str(row["expected_answer"]).strip()
    reward = 1.0 if answer is not None and answer.lower() == label.lower() else 0.0
    return {"reward": reward, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
'''
F_WORDS = [("Which country has Paris as its capital?", "France"),
           ("Which country has Helsinki as its capital?", "Finland"),
           ("Which country has Suva as its capital?", "Fiji"), ("What is the capital of France?", "Paris"),
           ("What is the capital of Japan?", "Tokyo"), ("What is 6 times 7?", "42"),
           ("What is the capital of Italy?", "Rome"), ("What is the capital of Germany?", "Berlin")]


@case(
    "verifier_runtime_stage_workspace_verifier_removes_answer_marker_with_lstrip_which_strips_a_character_set",
    "verifier_runtime",
    ["my_verifier.py", "lstrip", "removeprefix"],
    "the workspace verifier my_verifier.py drops the 'Final answer:' marker with `tail.lstrip(MARK)`; lstrip removes "
    "any leading characters found in the set 'Final answer:', not the prefix, so it went on into answers starting "
    "with those letters: 'France' became 'ce', 'Finland' 'd', 'Fiji' 'ji', and the model's right answers to them "
    "scored 0 while the other tasks scored normally (every command exits 0)",
)
def verifier_runtime_stage_workspace_verifier_removes_answer_marker_with_lstrip_which_strips_a_character_set(
        ctx: Ctx) -> str:
    run = ctx.run
    better = truth_checkpoints(ctx, F_WORDS)[1]
    data = write_jsonl(run / "capitals.jsonl", [question_row(q, a) for q, a in F_WORDS])
    url, _ = ctx.policy(better, "--latency-ms 20")
    sweep = workspace_sweep(ctx, "capitals", data, better, {"verifier": "my_verifier:score"}, LSTRIP_VERIFIER,
                            num_repeats=3, concurrency=4)
    script = workspace_script(ctx, sweep, better, "capitals", url, ["echo '== weekly eval'"])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    f_right = [r for r in said(got) if str(r.get("expected_answer")).startswith("F")]
    other_right = [r for r in said(got) if not str(r.get("expected_answer")).startswith("F")]
    if code or len(got) != 24 or not f_right or any(rewards(f_right)) or not any(rewards(other_right)):
        raise failed(ctx, f"exit {code}, {len(got)}, F {rewards(f_right)}, other {rewards(other_right)}")
    return (f"RUN/verifiers/my_verifier.py (`tail.lstrip('Final answer:')`); RUN/run_eval.sh (stages materialize "
            f"8 x 3, collect, profile) exit {code}; {len(f_right)} right answers France/Finland/Fiji scored "
            f"{sorted(set(rewards(f_right)))}, the other right answers mean {mean(rewards(other_right)):.2f}.")


SHARED_LABEL_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        CURRENT["label"] = body.expected_answer  # the request being verified, for the audit line
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        await _audit(extracted)

        reward = 0.0
        if extracted is not None and CURRENT["label"]:
            reward = _answers_match(extracted, CURRENT["label"], body.case_sensitive)

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )


import asyncio  # noqa: E402

CURRENT: dict = {}  # what is being verified now (shown by the audit line)


async def _audit(extracted) -> None:
    """The team's audit line of every verification (async: the audit store is remote in production)."""
    await asyncio.sleep(0.3)
    print(f"audit: label={CURRENT.get('label')!r} answer={extracted!r}", flush=True)
'''


@case(
    "verifier_runtime_gym_own_verify_keeps_label_in_module_global_that_concurrent_verifications_overwrite",
    "verifier_runtime",
    ["app.py", "CURRENT", "body.expected_answer"],
    "the user's resources server (Gym's string_match with an audit line) stores the label of the request being "
    "verified in a module-level dict `CURRENT['label']`, awaits its async audit, then compares the answer with "
    "CURRENT['label']; verifications run concurrently on one event loop, so by then another request has overwritten "
    "it: answers were graded against other tasks' labels, and most right answers scored 0 (only those that happened "
    "to be compared with their own label scored 1), with no error (every command exits 0)",
    netns=True,
)
def verifier_runtime_gym_own_verify_keeps_label_in_module_global_that_concurrent_verifications_overwrite(
        ctx: Ctx) -> str:
    run = ctx.run
    pairs = [(q, a) for q, a, _ in CAPITALS_WRONG]
    better = truth_checkpoints(ctx, pairs)[1]
    data = write_jsonl(run / "capitals.jsonl", [question_row(q, a) for q, a in pairs])
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    ran, prof, env_start = gym_eval_with_own_server(ctx, "audited_match", SHARED_LABEL_VERIFY, data, url, overrides,
                                                    repeats=3, concurrency=8)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    right = said(got)
    if ran or prof or len(got) != 24 or not right or mean(rewards(right)) > 0.7:
        raise failed(ctx, f"eval {ran}, profile {prof}, {len(got)} rows, right {rewards(right)}")
    return (f"RUN/my_gym/resources_servers/audited_match/app.py (label kept in module-global `CURRENT` across "
            f"`await _audit(...)`); real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` 8 x 3 at "
            f"concurrency 8 exit {ran}, `gym eval profile` exit {prof}; {len(right)} right answers, mean reward "
            f"{mean(rewards(right)):.2f}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

GUNZIP_LINES = [
    "echo '== weekly eval'",
    "# this week's tasks from the data team (compressed); unpack them next to the archive",
    "gunzip -k string_match.jsonl.gz",
    "echo \"$(wc -l < string_match.jsonl) tasks\"",
]
GUNZIP_NOTE = ("(the data team's string_match.jsonl.gz of this week, three labels fixed, dropped into the run "
               "folder; last week's unpacked string_match.jsonl is still there)")


@case(
    "cache_resume_builtin_gunzip_keeps_last_weeks_unpacked_tasks_because_it_never_overwrites_without_force",
    "cache_resume",
    ["gunzip", "-f", "string_match.jsonl"],
    "run_eval.sh unpacks this week's tasks with `gunzip -k string_match.jsonl.gz`; last week's unpacked "
    "string_match.jsonl is still in the run folder, and gunzip without -f never overwrites an existing file when "
    "it cannot ask ('already exists; not overwritten'): the eval ran on last week's file, and the model's right "
    "answers to the three tasks whose labels were fixed scored 0 against the old labels (the eval commands exit 0)",
)
def cache_resume_builtin_gunzip_keeps_last_weeks_unpacked_tasks_because_it_never_overwrites_without_force(
        ctx: Ctx) -> str:
    run = ctx.run
    better = truth_checkpoints(ctx, [(q, a) for q, a, _ in CAPITALS_WRONG])[1]
    fixed = write_jsonl(ctx.work / "string_match.jsonl", [question_row(q, a) for q, a, _ in CAPITALS_WRONG])
    subprocess.run(["gzip", "-c", str(fixed)], stdout=(run / "string_match.jsonl.gz").open("wb"), check=True)
    write_jsonl(run / "string_match.jsonl", [question_row(q, wrong or a) for q, a, wrong in CAPITALS_WRONG])
    ctx.note(GUNZIP_NOTE)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = builtin_script(ctx, GUNZIP_LINES, "string_match.jsonl", url)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    stale, right = stale_right(got)
    if code or len(got) != 24 or not right or any(rewards(right)) \
            or "not overwritten" not in log_of(ctx, "run_eval.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, stale {len(stale)}, right {rewards(right)}: "
                          f"{log_of(ctx, 'run_eval.log')[-500:]}")
    return (f"RUN/run_eval.sh (`gunzip -k string_match.jsonl.gz`: 'already exists; not overwritten', then materialize "
            f"8 x 3, collect, profile) exit {code}; {len(stale)} rollouts on the old labels, {len(right)} right "
            f"answers scored {rewards(right)}; mean reward {mean(rewards(got)):.2f}.")


if __name__ == "__main__":
    sys.exit(main("forty_eighth_held_out", __file__, __doc__))
