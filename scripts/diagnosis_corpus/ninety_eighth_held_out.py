"""Build the NINETY-EIGHTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/ninety_eighth_held_out.py --out tests/data/diagnosis_corpus/ninety_eighth_held_out [--only CASE ...]

This set was written after the ninety-seven earlier sets (first_held_out.py ... ninety_seventh_held_out.py), from the
guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`),
the real NeMo Gym 0.7.0 (`gym env start`, `gym eval run`, `gym eval profile`) with the users' own resources servers,
Slurm jobs (sbatch and its directives, job states), and the user's own shell and Python tooling, Makefiles, CI steps,
data-preparation scripts and verifiers. The output of every command is captured as a user would
(`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data, scripts,
settings, verifier code). Each case injects one cause, different in mechanism from those of the 97 earlier
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
import os
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
from ninety_sixth_held_out import NODELIST_SUBMIT  # noqa: E402
from recipes import GP, Ctx, case, main, replace_verify, rows_of, text_of  # noqa: E402
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
# cache_resume (built-in): this week's export is copied over the data folder with `cp -u`, which skips it
# =====================================================================================================


@case(
    "cache_resume_builtin_run_script_refreshes_data_with_cp_update_which_skips_corrected_export_older_than_the_working_copy",
    "cache_resume",
    ["cp -u", "data/string_match.jsonl", "exports/2026-W49", "run_eval.sh"],
    "the user's run_eval.sh refreshes the data with `cp -uv exports/2026-W49/string_match.jsonl data/`; the corrected "
    "export was unpacked from the labelling team's tarball with its file time of 2 December kept, older than the "
    "working copy data/string_match.jsonl last touched on 4 December, so cp -u silently skipped it and the eval read "
    "the old labels (Sydney, Zurich): the model's right answers Canberra and Bern scored 0 while every command exited 0",
)
def cache_resume_builtin_run_script_refreshes_data_with_cp_update_which_skips_corrected_export_older_than_the_working_copy(
        ctx: Ctx) -> str:
    run = ctx.run
    fixed = [(q, DL_FIXED.get(a, a)) for q, a in DL_PAIRS_OLD]
    (run / "data").mkdir()
    write_jsonl(run / "data" / "string_match.jsonl", [question_row(q, a) for q, a in DL_PAIRS_OLD])
    (run / "exports" / "2026-W49").mkdir(parents=True)
    write_jsonl(run / "exports" / "2026-W49" / "string_match.jsonl", [question_row(q, a) for q, a in fixed])
    ctx.sh(f"touch -d '2026-12-04 09:12' {run}/data/string_match.jsonl; "
           f"touch -d '2026-12-02 16:40' {run}/exports/2026-W49/string_match.jsonl")
    ctx.note("(RUN/data/string_match.jsonl: the working copy, last touched by the mid-week smoke run on 4 December; "
             "RUN/exports/2026-W49: this week's corrected export, unpacked from the labellers' tarball that keeps "
             "its 2 December file time)")
    _, better = truth_checkpoints(ctx, fixed)
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = run_eval(ctx, "# -u: only copy what changed (the full exports are 2 GB)\n"
                    "cp -uv exports/2026-W49/string_match.jsonl data/\nls -l --time-style=long-iso data exports/2026-W49\n"
                    + pipeline_lines(url, data="data/string_match.jsonl"),
                    "weekly eval: refresh data/ from this week's export, materialize, collect, profile")
    got = rows_of(run / "rollouts.jsonl")
    stale = labelled(got, *DL_FIXED)
    others = [r for r in got if r not in stale]
    if code or complete(ctx) != 18 or len(stale) != 6 or any(rewards(stale)) or not any(rewards(others)):
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {len(stale)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/data/string_match.jsonl (old labels, mtime 2026-12-04); RUN/exports/2026-W49/string_match.jsonl "
            f"(Canberra, Bern; mtime 2026-12-02); RUN/run_eval.sh (`cp -uv` export to data/, materialize 6 x 3, collect "
            f"against {url}, profile) exit {code}; nothing copied; stale-label rewards {rewards(stale)}, others mean "
            f"{mean_of(others):.2f}.")


# =====================================================================================================
# verifier_runtime (real NeMo Gym): the user's verify memoises grades by the answer text alone
# =====================================================================================================

MEMO_PAIRS = [
    ("What is the capital of Australia?", "Canberra"),
    ("What is the largest city in Australia?", "Sydney"),
    ("What is the capital of Canada?", "Ottawa"),
    ("What is the largest city in Canada?", "Toronto"),
    ("What is the capital of Ireland?", "Dublin"),
    ("What is the capital of Greece?", "Athens"),
]
# what the checkpoint learned: it mixes up the capitals of Australia and Canada with their largest cities
MEMO_TRUTH = [(q, {"Canberra": "Sydney", "Ottawa": "Toronto"}.get(a, a)) for q, a in MEMO_PAIRS]

MEMO_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        reward = 0.0
        if extracted is not None and body.expected_answer:
            # grading is the slow part on the 40k-row sets: grade every distinct answer once and reuse it
            key = extracted.strip().lower()
            if key not in _GRADES:
                _GRADES[key] = _answers_match(extracted, body.expected_answer, body.case_sensitive)
            reward = _GRADES[key]

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


@case(
    "verifier_runtime_gym_own_verify_memoises_grades_by_answer_text_alone_so_same_answer_to_another_question_reuses_its_grade",
    "verifier_runtime",
    ["_GRADES", "expected_answer", "app.py", "key"],
    "the user's own resources server quiz_memo memoises grades in a module dict `_GRADES` keyed by the answer text "
    "alone (not by the question or label), so the first grade of an answer is reused for every other question: "
    "'Sydney' and 'Toronto' are right for the largest-city questions and wrong for the capital questions, and "
    "whichever was graded first decided the reward of both, so wrong answers were rewarded or right ones scored 0 "
    "while every command exited 0",
    netns=True,
)
def verifier_runtime_gym_own_verify_memoises_grades_by_answer_text_alone_so_same_answer_to_another_question_reuses_its_grade(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in MEMO_PAIRS])
    _, better = truth_checkpoints(ctx, MEMO_TRUTH)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "quiz_memo", lambda app: with_import(replace_verify(app, MEMO_VERIFY),
                                                  "\n_GRADES: dict[str, float] = {}  # answer -> reward"), better,
        "(the user's quiz_memo server: Gym's string_match verify with grades memoised by answer text)")
    script = own_eval_script(ctx, search, overrides, "quiz_memo", comment="weekly eval")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)

    def right(r: dict) -> bool:
        return str(r.get("extracted_answer") or "").strip().lower() == str(r.get("expected_answer")).lower()

    wrong_grades = [r for r in got if float(r.get("reward") or 0) != float(right(r))]
    if code or len(keys_of(got)) != 18 or not wrong_grades:
        raise failed(ctx, f"exit {code}, {len(got)}, {len(wrong_grades)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/my_gym/resources_servers/quiz_memo/app.py (verify memoises grades in _GRADES keyed by the answer); "
            f"real `gym env start` (loopback-only namespace) with it; RUN/run_eval.sh (`gym eval run --no-serve` 6 x 3, "
            f"`gym eval profile`) exit {code}; {len(wrong_grades)} of {len(got)} rollouts graded against another "
            f"question's label; mean {mean_of(got):.2f}.")


# =====================================================================================================
# data_schema (built-in): the review tool now exports accepted answers as a list, prep.py writes its str()
# =====================================================================================================

REVIEW_PREP_PY = '''"""prep.py EXPORT OUT: the review tool's JSON export to our string_match task rows."""
import json
import sys

PROMPT = "{question} End your response with 'Final answer: <answer>'."

export = json.load(open(sys.argv[1]))
with open(sys.argv[2], "w") as out:
    for item in export["items"]:
        # the field was renamed answer -> answers in review tool 3.x; take whichever is there
        label = item.get("answer") or item.get("answers")
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text",
                                                                   "text": PROMPT.format(question=item["question"])}]}]},
               "expected_answer": str(label), "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
print(f"wrote {len(export['items'])} tasks to {sys.argv[2]}")
'''


@case(
    "data_schema_builtin_prep_writes_str_of_review_tools_new_answers_list_so_every_label_reads_bracketed_python_list",
    "data_schema",
    ["prep.py", "answers", "str(label)", "expected_answer"],
    "review tool 3.x exports each item's accepted answers as a list under 'answers' (['Dublin']) instead of a string "
    "under 'answer'; the user's prep.py takes `item.get('answer') or item.get('answers')` and writes "
    "`str(label)`, so every expected_answer became the Python list text \"['Dublin']\" and no answer could match: "
    "every reward was 0 while every command exited 0",
)
def data_schema_builtin_prep_writes_str_of_review_tools_new_answers_list_so_every_label_reads_bracketed_python_list(
        ctx: Ctx) -> str:
    run = ctx.run
    export = {"tool": "review 3.2.0", "exported": "2026-12-06T18:02:11Z",
              "items": [{"id": f"q{i:03d}", "question": q, "answers": [a], "reviewer": "lm"}
                        for i, (q, a) in enumerate(CAPITALS)]}
    (run / "review_export.json").write_text(json.dumps(export, indent=1) + "\n")
    (run / "prep.py").write_text(REVIEW_PREP_PY)
    _, better = truth_checkpoints(ctx, CAPITALS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = run_eval(ctx, f"{recipes.PY} prep.py review_export.json string_match.jsonl\nhead -c 300 string_match.jsonl; echo\n"
                    + pipeline_lines(url), "weekly eval: prep the review export, materialize, collect, profile")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or any(rewards(got)) or not all(str(r.get("expected_answer", "")).startswith("['")
                                                                      for r in got):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/review_export.json (items with 'answers': [..]); RUN/prep.py (`str(item.get('answer') or "
            f"item.get('answers'))`); RUN/run_eval.sh (prep, materialize 6 x 3, collect against {url}, profile) exit "
            f"{code}; labels like {got[0].get('expected_answer')!r}; {complete(ctx)} rollouts, rewards all 0.")


# =====================================================================================================
# throughput_resources (built-in): the sharded collect Makefile keeps .NOTPARALLEL, so make -j4 runs shards serially
# =====================================================================================================

NOTPARALLEL_MAKEFILE = """# Makefile: collect the four shards side by side (make -j4 collect); started from the data-prep Makefile
.NOTPARALLEL:  # prep steps share one scratch folder
SHARDS := $(sort $(wildcard shards/part_*))
URL ?= http://127.0.0.1:8000/v1

collect: $(SHARDS:shards/%=out/%.rollouts.jsonl)

out/%.rollouts.jsonl: shards/%
\t@mkdir -p out
\t@echo "[$$(date +%T)] collect $<"
\tGP_BIN collect --inputs $< --output $@ --model-url $(URL) --env string_match --concurrency 3
"""


@case(
    "throughput_builtin_shard_makefile_keeps_notparallel_of_the_data_prep_template_so_make_j4_collects_shards_one_by_one",
    "throughput_resources",
    [".NOTPARALLEL", "Makefile", "make -j4", "collect"],
    "the user's Makefile for the sharded collect was started from the data-prep Makefile and keeps its `.NOTPARALLEL:` "
    "line, so `make -j4 collect` ran the four shard collects one after the other instead of side by side; at 1.5 s a "
    "completion the serial run needed about 25 s and the CI step's `timeout 15` stopped it with shards never "
    "collected (rollouts missing), although the server, data and verifier were fine",
)
def throughput_builtin_shard_makefile_keeps_notparallel_of_the_data_prep_template_so_make_j4_collects_shards_one_by_one(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 1500")
    (run / "Makefile").write_text(NOTPARALLEL_MAKEFILE.replace("GP_BIN", str(GP)))
    lines = pipeline_lines(url).splitlines()
    code = run_eval(ctx, lines[0] + "\nmkdir -p shards && split -n l/4 -d rollouts_materialized_inputs.jsonl "
                    "shards/part_\n"
                    f"timeout 15 make -j4 collect URL={url} || echo \"collect step stopped (exit $?)\"\n"
                    "cat out/*.rollouts.jsonl > rollouts.jsonl\nwc -l out/*.rollouts.jsonl rollouts.jsonl\n" + lines[2]
                    + "\n", "CI step: weekly eval, collect sharded four ways within the step budget", timeout=300)
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) >= 27 or "collect step stopped" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/Makefile (`.NOTPARALLEL:` kept, a collect rule per shard, --concurrency 3); RUN/run_eval.sh (materialize "
            f"9 x 3, split into 4 shards, `timeout 15 make -j4 collect` against {url} at 1.5 s a completion, merge, "
            f"profile) exit {code}; {log.count('] collect shards/')} shard collects started, {complete(ctx)} of 27 "
            f"rollouts.")


# =====================================================================================================
# config (Slurm): strict mode added above the #SBATCH lines, so sbatch reads none of them
# =====================================================================================================

STRICT_SBATCH = """#!/bin/bash
set -euo pipefail  # CI lint (shellcheck policy 2026-11): every script starts in strict mode
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=20
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=4
echo "job $SLURM_JOB_ID on $(hostname) ($(date +%T))"
cd RUN_DIR
CONC=$SLURM_CPUS_PER_TASK  # one request in flight per CPU we asked for
echo "collect concurrency $CONC"
PIPELINE"""

STRICT_SUBMIT = """#!/bin/bash
# submit.sh: the weekly eval as one Slurm job, then its log
cd RUN_DIR
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
WAIT_LINES
cat logs/eval_$JOB.log
scontrol show job $JOB 2>/dev/null | grep -o 'JobState=[A-Z]*' || true
ls
"""


@case(
    "config_slurm_lint_fix_puts_set_euo_pipefail_above_sbatch_directives_so_none_are_read_and_cpus_per_task_is_unset",
    "config",
    ["set -euo pipefail", "#SBATCH", "eval.sbatch", "SLURM_CPUS_PER_TASK"],
    "a CI lint fix inserted `set -euo pipefail` as the second line of the user's eval.sbatch, above the #SBATCH "
    "lines; sbatch stops reading directives at the first command, so none applied (no --cpus-per-task, no --output: "
    "the log went to slurm-<job>.out, not logs/), SLURM_CPUS_PER_TASK was unset and `set -u` killed the job at "
    "`CONC=$SLURM_CPUS_PER_TASK` (unbound variable) before any eval step ran",
)
def config_slurm_lint_fix_puts_set_euo_pipefail_above_sbatch_directives_so_none_are_read_and_cpus_per_task_is_unset(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20", log="model_server.log")
    user_file(ctx, "eval.sbatch", STRICT_SBATCH,
              PIPELINE=pipeline_lines(url).replace("--concurrency 4", "--concurrency $CONC"))
    user_file(ctx, "submit.sh", STRICT_SUBMIT, WAIT_LINES=WAIT_LINES)
    code = slurm_run(ctx)
    log = log_of(ctx, "submit.log")
    outs = list(run.glob("slurm-*.out"))
    if (run / "rollouts.jsonl").exists() or not outs or "unbound variable" not in text_of(outs[0]):
        raise failed(ctx, f"exit {code}, {outs}: {log[-1500:]}")
    return (f"RUN/eval.sbatch (`set -euo pipefail` above the #SBATCH lines; CONC=$SLURM_CPUS_PER_TASK; materialize "
            f"9 x 3, collect against {url}, profile); RUN/submit.sh (sbatch, wait, cat log) exit {code}; job log in "
            f"{outs[0].name} ('SLURM_CPUS_PER_TASK: unbound variable'); no rollouts.")


# =====================================================================================================
# healthy (built-in): the Makefile's clean step ignores rm's error on a fresh folder, make prints 'Error 1 (ignored)'
# =====================================================================================================

FRESH_MAKEFILE = """# Makefile: the weekly eval (make eval URL=...)
URL ?= http://127.0.0.1:8000/v1

fresh:
\t-rm rollouts.jsonl rollouts_materialized_inputs.jsonl rollouts_reward_profiling.jsonl

eval: fresh
\tGP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
\tGP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $(URL) --env string_match --concurrency 4
\tGP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "healthy_builtin_makefile_fresh_target_ignores_rm_error_on_first_run_so_make_prints_error_1_ignored",
    "healthy",
    [],
    "nothing is wrong: the user's Makefile runs a `fresh` step `-rm rollouts.jsonl ...` before the eval; in a new run "
    "folder those files do not exist, so rm prints 'cannot remove ... No such file or directory' and make prints "
    "'make: [Makefile:5: fresh] Error 1 (ignored)' (the leading '-' tells make to go on), but materialize, collect and "
    "profile then completed every rollout",
)
def healthy_builtin_makefile_fresh_target_ignores_rm_error_on_first_run_so_make_prints_error_1_ignored(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in CAPITALS])
    _, better = truth_checkpoints(ctx, CAPITALS)
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "Makefile").write_text(FRESH_MAKEFILE.replace("GP_BIN", str(GP)))
    code = ctx.sh(f"make -C {run} eval URL={url}", "logs/make_eval.log", timeout=300)
    log = log_of(ctx, "make_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or "(ignored)" not in log or not profiled(ctx) or not any(rewards(got)):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/Makefile (`fresh: -rm rollouts.jsonl ...`, then materialize 6 x 3, collect, profile); `make eval "
            f"URL={url}` exit {code}; 'Error 1 (ignored)' in the log; {complete(ctx)} of 18 rollouts, mean reward "
            f"{mean_of(got):.2f}.")


# =====================================================================================================
# healthy (Slurm): the job's EXIT trap removes a scratch folder the eval already cleaned, rm complains
# =====================================================================================================

TRAP_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=20
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=2
echo "job $SLURM_JOB_ID on $(hostname) ($(date +%T))"
SCRATCH=/tmp/weekly-eval-$SLURM_JOB_ID
mkdir -p $SCRATCH
# whatever happens, leave no scratch behind on the node
trap 'rm -r "$SCRATCH" || echo "cleanup: nothing to remove"' EXIT
cd RUN_DIR
PIPELINE
cp rollouts.jsonl $SCRATCH/ && gzip -c $SCRATCH/rollouts.jsonl > logs/rollouts_$SLURM_JOB_ID.jsonl.gz
rm -rf $SCRATCH  # done with it
echo "eval finished ($(date +%T))"
"""


@case(
    "healthy_slurm_eval_job_exit_trap_removes_scratch_folder_the_job_already_removed_so_rm_prints_cannot_remove",
    "healthy",
    [],
    "nothing is wrong: the eval job's EXIT trap runs `rm -r \"$SCRATCH\"` to leave no scratch on the node, but the job "
    "had already removed its scratch folder after archiving the rollouts, so the last lines of the job log are "
    "'rm: cannot remove ... No such file or directory' and 'cleanup: nothing to remove'; materialize, collect and "
    "profile completed every rollout and the job COMPLETED",
)
def healthy_slurm_eval_job_exit_trap_removes_scratch_folder_the_job_already_removed_so_rm_prints_cannot_remove(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20", log="model_server.log")
    user_file(ctx, "eval.sbatch", TRAP_SBATCH, PIPELINE=pipeline_lines(url))
    user_file(ctx, "submit.sh", NODELIST_SUBMIT.replace(" (eval.sbatch started from the eval team's GPU template)", "")
              + "scontrol show job $JOB | grep -o 'JobState=[A-Z]*' || true\n", WAIT_LINES=WAIT_LINES)
    code = slurm_run(ctx)
    log = log_of(ctx, "submit.log")
    if code or complete(ctx) != 27 or "cannot remove" not in log or not profiled(ctx) \
            or "JobState=COMPLETED" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.sbatch (EXIT trap `rm -r $SCRATCH`, materialize 9 x 3, collect against {url}, profile, archive, "
            f"`rm -rf $SCRATCH`); RUN/submit.sh (sbatch, wait, cat log, job state) exit {code}; 'cannot remove' at the "
            f"end of the job log; {complete(ctx)} of 27 rollouts, mean reward "
            f"{mean_of(rows_of(run / 'rollouts.jsonl')):.2f}; JobState=COMPLETED.")


# =====================================================================================================
# healthy (real NeMo Gym): the user's own server warns at import that it found no CUDA device
# =====================================================================================================

NO_GPU_LINES = """import os
if not os.environ.get("CUDA_VISIBLE_DEVICES"):
    # the answer normaliser used to run a small embedding model; it is CPU-only since 2026-10
    print("WARNING: no CUDA device found (CUDA_VISIBLE_DEVICES is not set); quiz_cpu falls back to CPU", flush=True)"""


@case(
    "healthy_gym_own_server_warns_at_import_that_no_cuda_device_is_visible_though_its_string_grading_never_uses_one",
    "healthy",
    [],
    "nothing is wrong: the user's own resources server quiz_cpu prints 'WARNING: no CUDA device found "
    "(CUDA_VISIBLE_DEVICES is not set); quiz_cpu falls back to CPU' when it starts, a leftover of a normaliser that "
    "once used a GPU; its grading is plain string matching on the CPU, every rollout was graded and the profile "
    "completed",
    netns=True,
)
def healthy_gym_own_server_warns_at_import_that_no_cuda_device_is_visible_though_its_string_grading_never_uses_one(
        ctx: Ctx) -> str:
    run = ctx.run
    ctx.env.pop("CUDA_VISIBLE_DEVICES", None)
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in CAPITALS])
    _, better = truth_checkpoints(ctx, CAPITALS)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "quiz_cpu", lambda app: with_import(app, NO_GPU_LINES), better,
        "(the user's quiz_cpu server: Gym's string_match plus a no-CUDA warning at import)")
    script = own_eval_script(ctx, search, overrides, "quiz_cpu", comment="weekly eval")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    server_log = text_of(run / "env_start.log")
    if code or len(keys_of(got)) != 18 or "no CUDA device found" not in server_log or not any(rewards(got)) \
            or not list(run.glob("results/*reward_profiling*.jsonl")):
        raise failed(ctx, f"exit {code}, {len(got)}: {server_log[-1500:]}")
    return (f"RUN/my_gym/resources_servers/quiz_cpu/app.py (prints 'WARNING: no CUDA device found' at import); real "
            f"`gym env start` (loopback-only namespace) with it; RUN/run_eval.sh (`gym eval run --no-serve` 6 x 3, "
            f"`gym eval profile`) exit {code}; {len(keys_of(got))} of 18 rollouts, mean {mean_of(got):.2f}.")

# =====================================================================================================
# data_schema (built-in): the review UI's export is HTML-escaped and prep.py keeps the entities in the labels
# =====================================================================================================

AMP_PAIRS = [
    ("Which telecom company's name began as American Telephone and Telegraph? Give its short name.", "AT&T"),
    ("What is the capital of Ireland?", "Dublin"),
    ("Which consumer goods company was founded in 1837 by William Procter and James Gamble? Give its short name.",
     "P&G"),
    ("What is the capital of Greece?", "Athens"),
    ("Which Swedish clothing retailer, founded as Hennes, is known by two letters joined by an ampersand?", "H&M"),
    ("What is the capital of Sweden?", "Stockholm"),
]

HTML_PREP_PY = '''"""prep.py EXPORT OUT: the review UI's JSON export to our string_match task rows."""
import json
import sys

PROMPT = "{question} End your response with 'Final answer: <answer>'."

export = json.load(open(sys.argv[1]))
with open(sys.argv[2], "w") as out:
    for item in export["items"]:
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text",
                                                                   "text": PROMPT.format(question=item["question"])}]}]},
               "expected_answer": item["answer"].strip(), "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
print(f"wrote {len(export['items'])} tasks to {sys.argv[2]}")
'''


@case(
    "data_schema_builtin_review_ui_export_html_escapes_ampersands_and_prep_copies_them_so_labels_read_amp_entity",
    "data_schema",
    ["prep.py", "html.unescape", "&amp;", "answer"],
    "the review UI's JSON export keeps its fields HTML-escaped (the answer 'AT&T' is stored as 'AT&amp;T'); the "
    "user's prep.py copies item['answer'] into expected_answer without html.unescape, so the labels of the three "
    "answers with an ampersand read 'AT&amp;T', 'P&amp;G', 'H&amp;M' and the model's right answers to them always "
    "scored 0 while every command exited 0",
)
def data_schema_builtin_review_ui_export_html_escapes_ampersands_and_prep_copies_them_so_labels_read_amp_entity(
        ctx: Ctx) -> str:
    run = ctx.run
    export = {"source": "review-ui 2.14 (export JSON)", "items": [
        {"id": f"r{i:03d}", "question": q, "answer": a.replace("&", "&amp;"), "status": "accepted"}
        for i, (q, a) in enumerate(AMP_PAIRS)]}
    (run / "export.json").write_text(json.dumps(export, indent=1) + "\n")
    (run / "prep.py").write_text(HTML_PREP_PY)
    _, better = truth_checkpoints(ctx, AMP_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = run_eval(ctx, f"{recipes.PY} prep.py export.json string_match.jsonl\n" + pipeline_lines(url),
                    "weekly eval: prep the review UI export, materialize, collect, profile")
    got = rows_of(run / "rollouts.jsonl")
    amp = [r for r in got if "&amp;" in str(r.get("expected_answer"))]
    others = [r for r in got if r not in amp]
    if code or complete(ctx) != 18 or len(amp) != 9 or any(rewards(amp)) or not any(rewards(others)):
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {len(amp)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/export.json (answers HTML-escaped: AT&amp;T, P&amp;G, H&amp;M); RUN/prep.py (copies item['answer']); "
            f"RUN/run_eval.sh (prep, materialize 6 x 3, collect against {url}, profile) exit {code}; rewards of the "
            f"ampersand labels {rewards(amp)}, others mean {mean_of(others):.2f}.")


# =====================================================================================================
# config (built-in): settings.json names model_url twice, json.load keeps the last one (last week's server)
# =====================================================================================================

EVAL_PY = '''"""eval.py SETTINGS: the weekly eval (materialize, collect, profile) from a JSON settings file."""
import json
import subprocess
import sys

GP = "GP_BIN"
cfg = json.load(open(sys.argv[1]))
print(f"eval of {cfg['dataset']} x {cfg['repeats']} against {cfg['model_url']}", flush=True)
steps = [
    [GP, "materialize", "--input", cfg["dataset"], "--num-repeats", str(cfg["repeats"]),
     "--agent", "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"],
    [GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
     "--model-url", cfg["model_url"], "--env", "string_match", "--concurrency", str(cfg["concurrency"])],
    [GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
]
for step in steps:
    subprocess.run(step, check=True)
'''


@case(
    "config_builtin_settings_json_names_model_url_twice_and_json_load_keeps_the_last_so_eval_hits_last_weeks_server",
    "config",
    ["settings.json", "model_url", "duplicate", "eval.py"],
    "this week the user added the new checkpoint's server as a first \"model_url\" line of settings.json but left "
    "last week's \"model_url\" at the bottom; json.load keeps the last of duplicate keys without a warning, so "
    "eval.py collected against last week's step_0100 server, and the weekly numbers are those of the old checkpoint "
    "while every command exited 0",
)
def config_builtin_settings_json_names_model_url_twice_and_json_load_keeps_the_last_so_eval_hits_last_weeks_server(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    worse, better = truth_checkpoints(ctx, PLUS_PAIRS)
    old_url, _ = ctx.policy(worse, "--latency-ms 20", log="logs/model_server_step_0100.log")
    new_url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server_step_0200.log")
    (run / "settings.json").write_text(
        "{\n"
        f'  "model_url": "{new_url}",\n'
        '  "dataset": "string_match.jsonl",\n'
        '  "repeats": 3,\n'
        '  "concurrency": 4,\n'
        '  "checkpoint": "step_0200",\n'
        f'  "model_url": "{old_url}"\n'
        "}\n")
    (run / "eval.py").write_text(EVAL_PY.replace("GP_BIN", str(GP)))
    ctx.note("(RUN/logs/model_server_step_0100.log: last week's server, still up; "
             "RUN/logs/model_server_step_0200.log: this week's)")
    code = run_eval(ctx, f"{recipes.PY} eval.py settings.json\n", "weekly eval of step_0200 (settings.json)")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 27 or f"against {old_url}" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/settings.json (\"model_url\" twice: {new_url} first, {old_url} last); RUN/eval.py (json.load, "
            f"materialize 9 x 3, collect, profile); RUN/run_eval.sh exit {code}; collected against {old_url} "
            f"(step_0100); {complete(ctx)} of 27 rollouts, mean reward {mean_of(got):.2f}.")



if __name__ == "__main__":
    sys.exit(main("ninety_eighth_held_out", __file__, __doc__))
