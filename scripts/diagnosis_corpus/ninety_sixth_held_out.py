"""Build the NINETY-SIXTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/ninety_sixth_held_out.py --out tests/data/diagnosis_corpus/ninety_sixth_held_out [--only CASE ...]

This set was written after the ninety-five earlier sets (first_held_out.py ... ninety_fifth_held_out.py), from the
guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`),
the real NeMo Gym 0.7.0 (`gym env start`, `gym eval run`, `gym eval profile`) with the users' own resources servers,
Slurm jobs (sbatch and its command-line rules, job states), and the user's own shell and Python tooling, CI steps,
data-preparation scripts and verifiers. The output of every command is captured as a user would
(`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data, scripts,
settings, verifier code). Each case injects one cause, different in mechanism from those of the 95 earlier
sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not
written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Slurm
(SLURM_CONF, the fourth single-node cluster), and PYTHONPATH set to this checkout. Run it from a foreground shell. It
makes no Docker containers.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import failed, stop_gym  # noqa: E402
from eighty_eighth_held_out import PLUS_PAIRS, WAIT_LINES, labelled, with_import  # noqa: E402
from eighty_sixth_held_out import user_file  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_first_held_out import keys_of  # noqa: E402
from fifty_ninth_held_out import gym_own_server, own_eval_script  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from ninetieth_held_out import CAPITALS, DL_FIXED, DL_PAIRS_OLD, slurm_run  # noqa: E402
from recipes import Ctx, case, main, replace_verify, rows_of, text_of, wait_for  # noqa: E402
from seventy_ninth_held_out import run_eval  # noqa: E402
from sixty_fourth_held_out import pipeline_lines  # noqa: E402
from sixty_third_held_out import mean_of  # noqa: E402
from thirtieth_held_out import gym_rows  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_third_held_out import write_jsonl  # noqa: E402

recipes.SERVICES_ENV["SLURM_CONF"] = "/tmp/gym-pipeline-services/slurm-4/slurm.conf"

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


def profiled(ctx: Ctx) -> bool:
    return (ctx.run / "rollouts_reward_profiling.jsonl").exists()


# =====================================================================================================
# cache_resume (built-in): this week's export folder is moved onto the existing data folder with mv, which nests it
# =====================================================================================================


@case(
    "cache_resume_builtin_run_script_moves_this_weeks_export_folder_onto_existing_data_folder_with_mv_which_nests_it_inside",
    "cache_resume",
    ["mv -T", "data", "export_2026-W49", "run_eval.sh"],
    "the user's run_eval.sh puts this week's export in place with `mv export_2026-W49 data`; last week's data folder "
    "still existed, so mv moved the export INTO it (data/export_2026-W49/) instead of replacing it, and the eval "
    "read last week's data/string_match.jsonl with the two labels this week's export corrected (Sydney, Zurich): "
    "the model's right answers to those questions scored 0 while every command exited 0",
)
def cache_resume_builtin_run_script_moves_this_weeks_export_folder_onto_existing_data_folder_with_mv_which_nests_it_inside(
        ctx: Ctx) -> str:
    run = ctx.run
    fixed = [(q, DL_FIXED.get(a, a)) for q, a in DL_PAIRS_OLD]
    (run / "data").mkdir()
    write_jsonl(run / "data" / "string_match.jsonl", [question_row(q, a) for q, a in DL_PAIRS_OLD])
    (run / "export_2026-W49").mkdir()
    write_jsonl(run / "export_2026-W49" / "string_match.jsonl", [question_row(q, a) for q, a in fixed])
    ctx.note("(RUN/data is last week's export, left by last week's run; RUN/export_2026-W49 is this week's, unpacked "
             "from the labelling team's drop)")
    _, better = truth_checkpoints(ctx, fixed)
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = run_eval(ctx, "# this week's export replaces the data folder\nmv export_2026-W49 data\n"
                    "echo \"data folder: $(ls data)\"\n" + pipeline_lines(url, data="data/string_match.jsonl"),
                    "weekly eval: put this week's export in place, materialize, collect, profile")
    got = rows_of(run / "rollouts.jsonl")
    stale = labelled(got, *DL_FIXED)
    others = [r for r in got if r not in stale]
    if code or complete(ctx) != 18 or len(stale) != 6 or any(rewards(stale)) or not any(rewards(others)) \
            or not (run / "data" / "export_2026-W49" / "string_match.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {len(stale)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/data/string_match.jsonl (last week's labels); RUN/export_2026-W49/string_match.jsonl (two labels "
            f"corrected); RUN/run_eval.sh (`mv export_2026-W49 data`, materialize data/string_match.jsonl 6 x 3, "
            f"collect against {url}, profile) exit {code}; export nested at data/export_2026-W49; stale-label rewards "
            f"{rewards(stale)}, others mean {mean_of(others):.2f}.")


# =====================================================================================================
# verifier_runtime (real NeMo Gym): the label is used as a regular expression with re.fullmatch
# =====================================================================================================

RE_PAIRS = [
    ("Give the point with x = 2 and y = 3 as (x, y).", "(2, 3)"),
    ("What is the capital of Ireland?", "Dublin"),
    ("A ticket costs $10 and the fee is $5. What is the total, written like $N?", "$15"),
    ("What is the capital of Greece?", "Athens"),
    ("Give the point with x = 4 and y = 1 as (x, y).", "(4, 1)"),
    ("What is the capital of Sweden?", "Stockholm"),
]
RE_SPECIAL = ("(2, 3)", "$15", "(4, 1)")

RE_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        reward = 0.0
        if extracted is not None and body.expected_answer:
            # labels may be patterns (e.g. 'colou?r', 'Stockholm|Stokholm'): the whole answer must match, any case
            reward = 1.0 if re.fullmatch(body.expected_answer, extracted.strip(), flags=re.IGNORECASE) else 0.0

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


@case(
    "verifier_runtime_gym_own_verify_uses_every_label_as_regex_pattern_in_re_fullmatch_so_labels_with_parentheses_and_dollar_never_match",
    "verifier_runtime",
    ["re.fullmatch", "re.escape", "app.py", "verify"],
    "the user's own resources server quiz_patterns grades with `re.fullmatch(body.expected_answer, extracted, "
    "flags=re.IGNORECASE)` so that labels can be patterns; plain labels holding regex syntax are then read as "
    "patterns: '(2, 3)' and '(4, 1)' become groups that only match '2, 3' / '4, 1', and '$15' holds an end anchor "
    "before the digits, so the model's right answers to those three questions always scored 0 while every command "
    "exited 0",
    netns=True,
)
def verifier_runtime_gym_own_verify_uses_every_label_as_regex_pattern_in_re_fullmatch_so_labels_with_parentheses_and_dollar_never_match(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in RE_PAIRS])
    _, better = truth_checkpoints(ctx, RE_PAIRS)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "quiz_patterns", lambda app: with_import(replace_verify(app, RE_VERIFY), "import re"), better,
        "(the user's quiz_patterns server: every label matched as a regular expression with re.fullmatch)")
    script = own_eval_script(ctx, search, overrides, "quiz_patterns", comment="weekly eval")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    special = labelled(got, *RE_SPECIAL)
    right = [r for r in special if str(r.get("extracted_answer")).strip() == str(r.get("expected_answer"))]
    others = [r for r in got if r not in special]
    if code or len(keys_of(got)) != 18 or any(rewards(special)) or not right or not any(rewards(others)):
        raise failed(ctx, f"exit {code}, {len(got)}, {rewards(special)}, {len(right)}: "
                          f"{log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/my_gym/resources_servers/quiz_patterns/app.py (verify: re.fullmatch(label, answer)); real `gym env "
            f"start` (loopback-only namespace) with it; RUN/run_eval.sh (`gym eval run --no-serve` 6 x 3, `gym eval "
            f"profile`) exit {code}; {len(right)} rollouts answering (2, 3)/$15/(4, 1) right, all rewarded 0; others "
            f"mean {mean_of(others):.2f}.")


# =====================================================================================================
# config (Slurm): the eval sbatch keeps the GPU team template's --nodelist of a node this cluster does not have
# =====================================================================================================

NODELIST_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=20
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=2
#SBATCH --nodelist=gpu-a100-07
echo "job $SLURM_JOB_ID on $(hostname) ($(date +%T))"
cd RUN_DIR
PIPELINE"""

NODELIST_SUBMIT = """#!/bin/bash
# submit.sh: the weekly eval as one Slurm job (eval.sbatch started from the eval team's GPU template), then its log
cd RUN_DIR
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
WAIT_LINES
cat logs/eval_$JOB.log
"""


@case(
    "config_slurm_eval_sbatch_copied_from_gpu_template_pins_nodelist_to_a_node_of_the_old_cluster_so_sbatch_rejects_the_job",
    "config",
    ["--nodelist", "gpu-a100-07", "eval.sbatch", "#SBATCH"],
    "the user's eval.sbatch, copied from the team's GPU template, keeps `#SBATCH --nodelist=gpu-a100-07`, a node of "
    "the old GPU cluster that this cluster does not have; sbatch rejected the job ('Invalid node name specified'), "
    "so no eval ran and no rollout or profile was written, although the model server and the data were fine",
)
def config_slurm_eval_sbatch_copied_from_gpu_template_pins_nodelist_to_a_node_of_the_old_cluster_so_sbatch_rejects_the_job(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20", log="model_server.log")
    user_file(ctx, "eval.sbatch", NODELIST_SBATCH, PIPELINE=pipeline_lines(url))
    user_file(ctx, "submit.sh", NODELIST_SUBMIT, WAIT_LINES=WAIT_LINES)
    code = slurm_run(ctx)
    log = log_of(ctx, "submit.log")
    if "node name" not in log.lower() or (run / "rollouts.jsonl").exists():
        raise failed(ctx, f"exit {code}: {log[-1500:]}")
    return (f"RUN/eval.sbatch (`#SBATCH --nodelist=gpu-a100-07`, materialize 9 x 3, collect against {url}, profile); "
            f"RUN/submit.sh (sbatch, wait, cat log) exit {code}; sbatch refused the job; no rollouts.")


# =====================================================================================================
# data_schema (built-in): the prep script writes each task's expected_answer from the sheet's "hint" column
# =====================================================================================================

SHEET_ROWS = [
    ("What is the capital of Ireland?", "Dublin", "starts with D"),
    ("How many sides does a hexagon have?", "6", "more than five"),
    ("What is the capital of Greece?", "Athens", "city of Pericles"),
    ("How many days are in a leap year?", "366", "one more than usual"),
    ("What is the capital of Sweden?", "Stockholm", "on fourteen islands"),
    ("How many continents are there on Earth?", "7", "count them"),
]

PREP_PY = '''"""prep.py SHEET OUT: this week's labelling sheet (a JSON export of the review tool) to our task rows."""
import json
import sys

PROMPT = "{question} End your response with 'Final answer: <answer>'."

sheet = json.load(open(sys.argv[1]))
# the review tool exports each row as a list: [question, answer, hint]; keep answer, drop the reviewer's hint
with open(sys.argv[2], "w") as out:
    for question, *rest, answer in sheet["rows"]:
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text",
                                                                   "text": PROMPT.format(question=question)}]}]},
               "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
print(f"wrote {len(sheet['rows'])} tasks to {sys.argv[2]}")
'''


@case(
    "data_schema_builtin_prep_unpacks_sheet_rows_with_star_rest_then_answer_so_the_hint_column_added_last_becomes_the_label",
    "data_schema",
    ["prep.py", "*rest, answer", "hint", "expected_answer"],
    "the user's prep.py unpacks each row of the review tool's export as `question, *rest, answer` (written when rows "
    "were [question, answer]); this week's export added a third 'hint' column, so the star unpacking put the real "
    "answer into rest and wrote the reviewer's hint ('starts with D', 'more than five', ...) as every task's "
    "expected_answer: every rollout scored 0 although the model answered right, and every command exited 0",
)
def data_schema_builtin_prep_unpacks_sheet_rows_with_star_rest_then_answer_so_the_hint_column_added_last_becomes_the_label(
        ctx: Ctx) -> str:
    run = ctx.run
    (run / "sheet_2026-W49.json").write_text(json.dumps(
        {"columns": ["question", "answer", "hint"], "rows": [list(r) for r in SHEET_ROWS]}, indent=1) + "\n")
    (run / "prep.py").write_text(PREP_PY)
    _, better = truth_checkpoints(ctx, [(q, a) for q, a, _ in SHEET_ROWS])
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = run_eval(ctx, f"{recipes.BIN / 'python'} prep.py sheet_2026-W49.json string_match.jsonl\n"
                    + pipeline_lines(url), "weekly eval: prep this week's sheet, materialize, collect, profile")
    got = rows_of(run / "rollouts.jsonl")
    hints = labelled(got, *(h for _, _, h in SHEET_ROWS))
    if code or complete(ctx) != 18 or len(hints) != 18 or any(rewards(got)) or not profiled(ctx):
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {len(hints)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/sheet_2026-W49.json (rows [question, answer, hint]); RUN/prep.py (`for question, *rest, answer in "
            f"rows`); RUN/run_eval.sh (prep, materialize 6 x 3, collect against {url}, profile) exit {code}; "
            f"{len(hints)} of 18 rollouts graded against a hint, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# infra (built-in): the whole eval is run through the team's data sandbox wrapper, which has no network at all
# =====================================================================================================

SANDBOX_SH = """#!/bin/bash
# sandbox.sh CMD...: run a data-preparation step without network access (the security team's rule for steps that
# open files from outside contributors): a fresh network namespace, with no interface up
exec unshare --net -- "$@"
"""


@case(
    "infra_builtin_eval_run_through_teams_data_sandbox_wrapper_whose_unshare_net_leaves_no_loopback_so_collect_cannot_reach_the_model",
    "infra",
    ["sandbox.sh", "unshare --net", "collect", "run_eval.sh"],
    "the user's run_eval.sh runs its steps through the security team's sandbox.sh, which execs `unshare --net` "
    "(a new network namespace with no interface up, meant for data-preparation steps); the collect inside it could "
    "not even reach the model server on 127.0.0.1 (connection errors on every request), so no rollout got a "
    "reward, although the model server was up and answering on the host",
)
def infra_builtin_eval_run_through_teams_data_sandbox_wrapper_whose_unshare_net_leaves_no_loopback_so_collect_cannot_reach_the_model(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in CAPITALS])
    _, better = truth_checkpoints(ctx, CAPITALS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "sandbox.sh").write_text(SANDBOX_SH)
    body = "".join(f"bash sandbox.sh {line}\n" for line in pipeline_lines(url).splitlines())
    code = run_eval(ctx, f"curl -s {url}/models >/dev/null && echo 'model server answers'\n" + body,
                    "weekly eval: every step through the team's sandbox (outside data)", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    log = log_of(ctx, "run_eval.log")
    if any(rewards(got)) or "model server answers" not in log:
        raise failed(ctx, f"exit {code}, {len(got)}: {log[-1500:]}")
    return (f"RUN/sandbox.sh (`exec unshare --net -- \"$@\"`); RUN/run_eval.sh (curl check on the host, then "
            f"materialize, collect against {url}, profile through sandbox.sh) exit {code}; {len(got)} rollout rows, "
            f"none rewarded.")


# =====================================================================================================
# healthy (built-in): the script's heartbeat loop is killed with kill -9 at the end, bash reports it 'Killed'
# =====================================================================================================


@case(
    "healthy_builtin_run_script_kills_its_own_heartbeat_loop_with_kill_9_so_bash_reports_the_background_job_killed",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh starts a background heartbeat loop (a line every 2 s for the CI "
    "dashboard) and stops it with `kill -9 $HB; wait $HB` after the profile; bash reports the background job as "
    "'Killed' in the log (the word an out-of-memory kill also leaves), but materialize, collect and profile had all completed every rollout before that",
)
def healthy_builtin_run_script_kills_its_own_heartbeat_loop_with_kill_9_so_bash_reports_the_background_job_killed(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in CAPITALS])
    _, better = truth_checkpoints(ctx, CAPITALS)
    url, _ = ctx.policy(better, "--latency-ms 400")
    code = run_eval(ctx, "( while sleep 2; do echo \"[heartbeat] $(date +%T) eval still running\"; done ) &\nHB=$!\n"
                    + pipeline_lines(url) + "kill -9 $HB\nwait $HB\necho \"weekly eval finished\"\n",
                    "weekly eval with a heartbeat for the CI dashboard: materialize, collect, profile")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or "Killed" not in log or not profiled(ctx) or not any(rewards(got)):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (heartbeat loop in the background, materialize 6 x 3, collect against {url}, profile, "
            f"`kill -9 $HB; wait $HB`) exit {code}; 'Killed' in the log; {complete(ctx)} of 18 rollouts, mean reward "
            f"{mean_of(got):.2f}.")


# =====================================================================================================
# healthy (Slurm): the GPU template's environment report tries `import torch`, which this CPU eval venv lacks
# =====================================================================================================

TORCH_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=20
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=2
echo "job $SLURM_JOB_ID on $(hostname) ($(date +%T))"
# environment report of the team template (kept for the log)
PY_BIN -c 'import torch; print("torch", torch.__version__, "cuda", torch.cuda.is_available())' || echo "(no torch here)"
cd RUN_DIR
PIPELINE"""


@case(
    "healthy_slurm_eval_job_environment_report_imports_torch_absent_from_cpu_eval_venv_and_prints_modulenotfounderror",
    "healthy",
    [],
    "nothing is wrong: the eval job keeps the team template's environment report, `python -c 'import torch; ...' || "
    "echo '(no torch here)'`; the CPU eval venv has no torch, so the job log starts with a Traceback and "
    "ModuleNotFoundError: No module named 'torch', but nothing in the eval needs torch: materialize, collect and "
    "profile completed every rollout and the job COMPLETED",
)
def healthy_slurm_eval_job_environment_report_imports_torch_absent_from_cpu_eval_venv_and_prints_modulenotfounderror(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20", log="model_server.log")
    user_file(ctx, "eval.sbatch", TORCH_SBATCH, PIPELINE=pipeline_lines(url), PY_BIN=str(recipes.BIN / "python"))
    user_file(ctx, "submit.sh", NODELIST_SUBMIT.replace(" (eval.sbatch started from the eval team's GPU template)", "")
              + "scontrol show job $JOB | grep -o 'JobState=[A-Z]*' || true\n", WAIT_LINES=WAIT_LINES)
    code = slurm_run(ctx)
    log = log_of(ctx, "submit.log")
    if code or complete(ctx) != 27 or "No module named 'torch'" not in log or not profiled(ctx):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.sbatch (environment report `import torch`, materialize 9 x 3, collect against {url}, profile); "
            f"RUN/submit.sh (sbatch, wait, cat log) exit {code}; ModuleNotFoundError in the job log; {complete(ctx)} "
            f"of 27 rollouts, mean reward {mean_of(rows_of(run / 'rollouts.jsonl')):.2f}.")


# =====================================================================================================
# model_serving (built-in): the serve script keeps the fault-injection flags of last month's resilience drill
# =====================================================================================================

SERVE_SH = """#!/bin/bash
# serve.sh CKPT: our model server for the weekly eval (flags as in the resilience drill of 2026-11-12)
exec GP_BIN serve-policy --checkpoint "$1" --port 0 --ready-file RUN_DIR/model_url.txt --latency-ms 20 \\
    --fault-rate 0.5 --fault-kinds 5xx --fault-seed 7
"""


@case(
    "model_serving_builtin_serve_script_keeps_fault_rate_flags_of_last_months_resilience_drill_so_half_the_completions_fail_with_5xx",
    "model_serving",
    ["serve.sh", "--fault-rate", "0.5", "5xx"],
    "the user's serve.sh still starts the model server with `--fault-rate 0.5 --fault-kinds 5xx`, kept from last "
    "month's resilience drill, so the server answers about half of the chat completions with a 5xx error; the "
    "collect's retries could not save all of them and rollouts are missing or failed, although the data, the "
    "checkpoint and the verifier were fine",
)
def model_serving_builtin_serve_script_keeps_fault_rate_flags_of_last_months_resilience_drill_so_half_the_completions_fail_with_5xx(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    user_file(ctx, "serve.sh", SERVE_SH)
    server = ctx.bg(f"bash {run}/serve.sh {better}", "logs/serve.log")
    try:
        wait_for(lambda: text_of(run / "model_url.txt").strip() != "", 60, "the model server's ready file")
        url = text_of(run / "model_url.txt").strip()
        code = run_eval(ctx, f"URL=$(cat model_url.txt)\necho \"model server at $URL\"\n"
                        + pipeline_lines("$URL"), "weekly eval against the server serve.sh started", timeout=400)
    finally:
        ctx.stop(server)
    got = rows_of(run / "rollouts.jsonl")
    serve_log = log_of(ctx, "serve.log")
    if complete(ctx) >= 27 and len(got) <= 27:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {len(got)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/serve.sh (`serve-policy ... --fault-rate 0.5 --fault-kinds 5xx`); RUN/run_eval.sh (materialize 9 x 3, "
            f"collect against {url}, profile) exit {code}; {complete(ctx)} of 27 rollouts settled, {len(got)} rows; "
            f"{serve_log.count(' 50')} 5xx lines in the server log.")


# =====================================================================================================
# healthy (real NeMo Gym): the user's own server prints every zero reward as a 'WARNING ... FAILED' line
# =====================================================================================================

WARN_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)
        if not reward:
            # the reviewers grep these lines to pick wrong answers for the error analysis sheet
            print(f"WARNING verification FAILED: got {extracted!r}, expected {body.expected_answer!r}", flush=True)

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""


@case(
    "healthy_gym_own_server_prints_every_wrong_answer_as_warning_verification_failed_line_for_the_error_analysis_sheet",
    "healthy",
    [],
    "nothing is wrong: the user's own resources server quiz_review prints 'WARNING verification FAILED: got ..., "
    "expected ...' for every rollout that scored 0, so the reviewers can grep the wrong answers for their error "
    "analysis; the lines only mean that the model answered those rollouts wrong: every rollout was graded, the "
    "rewards are right and the profile completed",
    netns=True,
)
def healthy_gym_own_server_prints_every_wrong_answer_as_warning_verification_failed_line_for_the_error_analysis_sheet(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in CAPITALS])
    _, better = truth_checkpoints(ctx, CAPITALS)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "quiz_review", lambda app: replace_verify(app, WARN_VERIFY), better,
        "(the user's quiz_review server: Gym's string_match verify plus a WARNING line for every zero reward)")
    script = own_eval_script(ctx, search, overrides, "quiz_review", comment="weekly eval")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    server_log = text_of(run / "env_start.log")
    zero = [r for r in got if not r.get("reward")]
    if code or len(keys_of(got)) != 18 or "verification FAILED" not in server_log or not zero \
            or not any(rewards(got)) or not list(run.glob("results/*reward_profiling*.jsonl")):
        raise failed(ctx, f"exit {code}, {len(got)}, {len(zero)}: {server_log[-1500:]}")
    return (f"RUN/my_gym/resources_servers/quiz_review/app.py (prints 'WARNING verification FAILED' for each zero "
            f"reward); real `gym env start` (loopback-only namespace) with it; RUN/run_eval.sh (`gym eval run "
            f"--no-serve` 6 x 3, `gym eval profile`) exit {code}; {server_log.count('verification FAILED')} warning "
            f"lines, {len(keys_of(got))} of 18 rollouts, mean {mean_of(got):.2f}.")


# =====================================================================================================
# throughput_resources (built-in): the run script's CONCURRENCY default is overridden by the CI runner's variable
# =====================================================================================================

RUNNER_ENV = """# ci/runner.env: exported into every step by the team's CI runner
# one docker build at a time on the shared runners (the build steps read CONCURRENCY)
CONCURRENCY=1
DOCKER_BUILDKIT=1
"""


@case(
    "throughput_builtin_run_script_collect_concurrency_defaults_from_generic_concurrency_variable_that_ci_runner_exports_as_one_for_docker_builds",
    "throughput_resources",
    ["CONCURRENCY", "run_eval.sh", "--concurrency", "runner.env"],
    "the user's run_eval.sh collects with `--concurrency ${CONCURRENCY:-4}`, but the team's CI runner exports "
    "CONCURRENCY=1 into every step (ci/runner.env, meant for one docker build at a time), so the collect sent one "
    "request at a time to the 2 s-per-completion server: 18 rollouts needed about 40 s and the step's `timeout 25` "
    "stopped the collect partway (rollouts missing, profile refused), although the server, data and verifier were fine",
)
def throughput_builtin_run_script_collect_concurrency_defaults_from_generic_concurrency_variable_that_ci_runner_exports_as_one_for_docker_builds(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in CAPITALS])
    _, better = truth_checkpoints(ctx, CAPITALS)
    url, _ = ctx.policy(better, "--latency-ms 2000")
    (run / "ci").mkdir(exist_ok=True)
    (run / "ci" / "runner.env").write_text(RUNNER_ENV)
    lines = pipeline_lines(url, concurrency="${CONCURRENCY:-4}").splitlines()
    lines[1] = "timeout 25 " + lines[1]
    run_eval(ctx, "echo \"collect concurrency: ${CONCURRENCY:-4}\"\n" + "\n".join(lines) + "\n",
             "CI step: weekly eval (materialize, collect within the step budget, profile)")
    ctx.note("(the CI runner starts each step with the variables of ci/runner.env exported)")
    code = ctx.sh(f"set -a; source {run}/ci/runner.env; set +a; bash {run}/run_eval.sh", "logs/ci_step.log",
                  timeout=300)
    got = rows_of(run / "rollouts.jsonl")
    if complete(ctx) >= 18 or "collect concurrency: 1" not in log_of(ctx, "ci_step.log"):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log_of(ctx, 'ci_step.log')[-1500:]}")
    return (f"RUN/ci/runner.env (CONCURRENCY=1 for docker builds); RUN/run_eval.sh (materialize 6 x 3, `timeout 25` "
            f"collect --concurrency ${{CONCURRENCY:-4}} against {url} at 2 s a completion, profile) run as the CI step, "
            f"exit {code}; {complete(ctx)} of 18 rollouts, {len(got)} rows.")


if __name__ == "__main__":
    sys.exit(main("ninety_sixth_held_out", __file__, __doc__))
