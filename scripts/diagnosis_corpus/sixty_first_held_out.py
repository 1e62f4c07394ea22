"""Build the SIXTY-FIRST HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/sixty_first_held_out.py --out tests/data/diagnosis_corpus/sixty_first_held_out [--only CASE ...]

This set was written after the sixty earlier sets (first_held_out.py ... sixtieth_held_out.py), from the guides
alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`), the real NeMo
Gym 0.7.0 in a loopback-only network namespace (with a user's own resources server and settings), Slurm batch jobs,
job arrays, dependent and nested jobs on the single-node cluster, Docker containers the user's scripts start, and the
user's own shell tooling, sbatch scripts, submit wrappers, data-preparation scripts and verifiers. The output of
every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand
but the user's own inputs (data, scripts, settings, verifier code). Each case injects one cause, different in
mechanism from those of the sixty earlier sets, and each recipe checks that its fault really happened (it raises
RecipeError otherwise, and the case is not written). About half of the failures are silent: every command exits 0
and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare,
mount), Slurm (SLURM_CONF), Docker (with the local base image gym-pipeline/base:bookworm), NeMo Gym 0.7.0
(GYM_PIPELINE_NEMO_GYM), and PYTHONPATH set to this checkout. Run it from a foreground shell.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import checkpoints, failed, gym_start, stop_gym  # noqa: E402
from fiftieth_held_out import log_of, submit  # noqa: E402
from fifty_first_held_out import keys_of  # noqa: E402
from fifty_ninth_held_out import gym_own_server, own_eval_script, sbatch_file  # noqa: E402
from fifty_second_held_out import run_script  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from recipes import Ctx, case, gym_model_args, main, replace_verify, rows_of, text_of  # noqa: E402
from sixtieth_held_out import docker_script  # noqa: E402
from thirtieth_held_out import gym_rows  # noqa: E402
from thirty_fifth_held_out import pipeline  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_fifth_held_out import job_logs  # noqa: E402
from twenty_fourth_held_out import gym_eval_line, gym_profile_line  # noqa: E402
from twenty_second_held_out import question_row  # noqa: E402
from twenty_sixth_held_out import free_port, slurm_script  # noqa: E402
from twenty_third_held_out import write_jsonl  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def mean_of(rows: list[dict]) -> float:
    got = rewards(rows)
    return sum(got) / len(got) if got else 0.0


def gym_plain(ctx: Ctx, n: int, start: int, flags: str = "--latency-ms 30"):
    """RUN/tasks.jsonl (n string_match rows), the policy on step_0200, `gym env start`; (overrides, env, policy)."""
    data = ctx.dataset("string_match", n, start=start, folder=ctx.run, name="tasks.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, policy = ctx.policy(better, flags, log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    return overrides, env_start, policy


def gym_script(ctx: Ctx, comment: str, eval_line: str, after: list[str] | None = None) -> Path:
    script = ctx.run / "run_eval.sh"
    script.write_text(f"#!/bin/bash\n# {comment}\ncd {ctx.run}\n{eval_line}\n"
                      + "".join(line + "\n" for line in after or []) + gym_profile_line("results") + "\n")
    return script


def scancel_named(ctx: Ctx, name: str) -> list[str]:
    """The ids of this user's jobs named `name` still queued or running, cancelled (by id)."""
    done = subprocess.run(["squeue", "-h", "-n", name, "-o", "%i"], env=ctx.env, capture_output=True, text=True,
                          check=False)
    ids = done.stdout.split()
    for job in ids:
        subprocess.run(["scancel", job], env=ctx.env, capture_output=True, check=False)
    return ids


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_gym_eval_recorded_with_script_command_so_its_log_is_full_of_carriage_returns",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh records the eval with util-linux `script -q -e -c \"gym eval run ...\" "
    "logs/eval_typescript.log` (the team's habit, to keep a transcript of interactive sessions); without a terminal "
    "script notes '<not executed on terminal>' and the transcript and the captured log end every line with a carriage "
    "return (^M), but `gym eval run` collected and verified every rollout and `gym eval profile` completed",
    netns=True,
)
def healthy_gym_eval_recorded_with_script_command_so_its_log_is_full_of_carriage_returns(ctx: Ctx) -> str:
    run = ctx.run
    overrides, env_start, policy = gym_plain(ctx, 8, 60)
    (run / "logs").mkdir(exist_ok=True)
    line = gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 4)
    script = gym_script(ctx, "weekly eval, recorded with `script` like our interactive sessions",
                        f"script -q -e -c \"{line}\" logs/eval_typescript.log")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    log = log_of(ctx, "run_eval.log")
    if code or len(keys_of(got)) != 24 or b"\r" not in (run / "logs" / "run_eval.log").read_bytes() \
            or "not executed on terminal" not in \
            log_of(ctx, "eval_typescript.log") or not list(run.glob("results/*reward_profiling*")):
        raise failed(ctx, f"exit {code}, {len(got)}: {log[-1500:]}")
    return (f"real `gym env start` (loopback-only namespace) against step_0200; RUN/run_eval.sh (`script -q -e -c "
            f"\"gym eval run --no-serve ...\"` 8 x 3, `gym eval profile`) exit {code}; {len(keys_of(got))} of 24 "
            f"rollouts, mean reward {mean_of(got):.2f}; the logs' lines end in carriage returns.")


@case(
    "healthy_slurm_submit_shell_exports_login_node_tmpdir_so_slurmstepd_reports_errors_and_falls_back_to_tmp",
    "healthy",
    [],
    "nothing is wrong: the user's login shell exports TMPDIR=/scratch/login01/$USER (the login node's local scratch), "
    "and sbatch carries it into the job; that folder does not exist on the compute node, so the job log opens with "
    "'slurmstepd: error: Unable to create TMPDIR [...]: No such file or directory' and 'error: Setting TMPDIR to "
    "/tmp', but the job ran with TMPDIR=/tmp and materialize, collect and profile completed every rollout",
)
def healthy_slurm_submit_shell_exports_login_node_tmpdir_so_slurmstepd_reports_errors_and_falls_back_to_tmp(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=4, folder=run, name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20")
    sbatch_file(ctx, "#!/bin/bash\n#SBATCH --job-name=weekly-eval\n#SBATCH --output=RUN_DIR/logs/eval_%j.log\n"
                "#SBATCH --time=10\n#SBATCH --ntasks=1\ncd RUN_DIR\necho \"weekly eval against $MODEL_URL "
                "(TMPDIR=$TMPDIR)\"\nPIPELINE", PIPELINE=pipeline("$MODEL_URL"))
    ctx.note("(the user's login shell: export TMPDIR=/scratch/login01/$USER, the login node's local scratch)")
    code = submit(ctx, env={**ctx.env, "MODEL_URL": url, "TMPDIR": "/scratch/login01/evaluser"})
    job = job_logs(ctx, "eval_*.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or len(keys_of(got)) != 24 or "Setting TMPDIR to /tmp" not in job \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)}: {job[-1500:]}")
    return (f"RUN/eval.sbatch (materialize 8 x 3, collect, profile) submitted by RUN/submit.sh from a shell with "
            f"TMPDIR=/scratch/login01/evaluser, exit {code}; slurmstepd could not create it and set TMPDIR to /tmp; "
            f"{len(keys_of(got))} of 24 rollouts, mean reward {mean_of(got):.2f}.")


@case(
    "healthy_builtin_run_script_prints_served_model_with_jq_path_of_other_api_so_it_shows_null",
    "healthy",
    [],
    "nothing is wrong: before the eval the user's run_eval.sh prints the served model with `curl -s $URL/models | jq "
    "'.models[0].name'`, a jq path copied from another serving API's model list; the OpenAI-style list keeps its "
    "models under .data, so the log says 'served model: null' as if nothing were loaded, but the model server was "
    "serving the checkpoint and materialize, collect and profile completed every rollout",
)
def healthy_builtin_run_script_prints_served_model_with_jq_path_of_other_api_so_it_shows_null(ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 8, 12)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run_script(ctx, url, [f"echo \"served model: $(curl -s {url}/models | jq '.models[0].name')\"",
                                   "echo '== weekly eval'"])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 24 or "served model: null" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (`curl -s URL/models | jq '.models[0].name'` printed null, materialize 8 x 3, collect, "
            f"profile) exit {code}; {complete(ctx)} of 24 rollouts, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# config
# =====================================================================================================


@case(
    "config_gym_run_script_pipes_eval_output_through_head_so_the_closed_pipe_ends_the_eval_midway",
    "config",
    ["head", "pipe"],
    "the user's run_eval.sh keeps the console short with `gym eval run ... 2>&1 | head -n 25` (the first lines show "
    "the settings); once head has printed its 25 lines it exits and closes the pipe, and the eval's next write to it "
    "fails (broken pipe): `gym eval run` ended part way through the collection, and the profile that follows "
    "measured only the rollouts written before",
    netns=True,
)
def config_gym_run_script_pipes_eval_output_through_head_so_the_closed_pipe_ends_the_eval_midway(ctx: Ctx) -> str:
    overrides, env_start, policy = gym_plain(ctx, 10, 70, "--latency-ms 400")
    line = gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 2)
    script = gym_script(ctx, "weekly eval; only the first lines of the eval's output (the settings) on the console",
                        f"{line} 2>&1 | head -n 25")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    if len(keys_of(got)) >= 30:
        raise failed(ctx, f"exit {code}, {len(got)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"real `gym env start` (loopback-only namespace) against step_0200; RUN/run_eval.sh (`gym eval run "
            f"--no-serve ... 2>&1 | head -n 25` of 10 x 3, `gym eval profile`) exit {code}; {len(keys_of(got))} of 30 "
            f"rollouts written.")


SHARD_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-shards
#SBATCH --output=RUN_DIR/logs/shard_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
# one array task per shard of tasks.jsonl (shard_0.jsonl ... shard_3.jsonl, made by prep_shards.sh)
SHARD=shard_${SLURM_ARRAY_TASK_ID:-0}
echo "array task ${SLURM_ARRAY_TASK_ID:-0}: $SHARD (script arguments: $*)"
cd RUN_DIR && mkdir -p $SHARD && cd $SHARD
PIPELINE"""

ARRAY_SUBMIT = """#!/bin/bash
# submit.sh: the weekly sharded eval (the array size goes with the number of shards, so it is given here)
cd RUN_DIR
JOB=$(sbatch --parsable eval.sbatch --array=0-3)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
ls -d shard_*/
"""


@case(
    "config_slurm_submit_gives_array_option_after_script_name_so_sbatch_passes_it_to_the_script_and_one_job_runs",
    "config",
    ["--array", "before the script"],
    "the user's submit.sh runs `sbatch --parsable eval.sbatch --array=0-3`; sbatch reads its options only before "
    "the script's name and hands everything after it to the script as arguments, so no job array was made: one "
    "plain job ran, with no SLURM_ARRAY_TASK_ID, fell back to shard 0 and evaluated 4 of the 16 tasks; shards 1-3 "
    "were never evaluated, and every command exits 0",
)
def config_slurm_submit_gives_array_option_after_script_name_so_sbatch_passes_it_to_the_script_and_one_job_runs(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 16, start=24, folder=run, name="tasks.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "prep_shards.sh").write_text(f"#!/bin/bash\ncd {run}\nsplit -l 4 -d -a 1 --additional-suffix=.jsonl "
                                        "tasks.jsonl shard_\nwc -l shard_*.jsonl\n")
    ctx.sh(f"bash {run}/prep_shards.sh", "logs/prep_shards.log")
    sbatch_file(ctx, SHARD_SBATCH, PIPELINE=pipeline("$MODEL_URL", data="../$SHARD.jsonl"))
    (run / "submit.sh").write_text(slurm_script(ARRAY_SUBMIT, ctx))
    try:
        code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=400, env={**ctx.env, "MODEL_URL": url})
    finally:
        for job in text_of(run / "job_ids.txt").split():
            subprocess.run(["scancel", job], env=ctx.env, capture_output=True, check=False)
    logs = job_logs(ctx, "shard_*.log")
    got = rows_of(run / "shard_0" / "rollouts.jsonl")
    others = [p for p in run.glob("shard_[123]/rollouts.jsonl")]
    if code or len(keys_of(got)) != 12 or others or "--array=0-3" not in logs:
        raise failed(ctx, f"exit {code}, {len(got)}, {others}: {logs[-1500:]}")
    return (f"RUN/prep_shards.sh (16 tasks in 4 shards); RUN/submit.sh (`sbatch --parsable eval.sbatch --array=0-3`) "
            f"exit {code}; one plain job, its script got `--array=0-3` as an argument and evaluated shard_0 only; "
            f"{len(keys_of(got))} rollouts of 4 of 16 tasks, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

ALIAS_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        # a label may list accepted spellings separated by "|" (e.g. "Washington, D.C.|Washington")
        reward = 0.0
        if extracted is not None and body.expected_answer:
            for alias in body.expected_answer.split("|"):
                reward = _answers_match(extracted, alias, body.case_sensitive)

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""

ALIAS_TASKS = [("What is the capital of the United States?", "Washington, D.C.|Washington|DC"),
               ("Which country is known as the Land of the Rising Sun?", "Japan|Nippon"),
               ("What is the largest planet in the Solar System?", "Jupiter"),
               ("What is the chemical symbol for sodium?", "Na"),
               ("Which city was called Constantinople?", "Istanbul|Constantinople"),
               ("What is the capital of Italy?", "Rome"),
               ("How many continents are there?", "7|seven"),
               ("Which ocean lies between Africa and Australia?", "Indian Ocean|Indian")]


@case(
    "verifier_runtime_gym_own_verify_loops_over_label_aliases_without_break_so_only_the_last_alias_counts",
    "verifier_runtime",
    ["break", "alias", "any("],
    "the user's own resources server alias_match (Gym's string_match copied) accepts labels listing several "
    "spellings ('Washington, D.C.|Washington|DC') and loops `for alias in ...: reward = _answers_match(extracted, "
    "alias, ...)` without a break: each alias overwrites the reward of the one before, so only the last alias "
    "counts, and the model's answers equal to the first spelling (Washington, D.C., Japan, Istanbul, 7) scored 0 "
    "(every command exits 0)",
    netns=True,
)
def verifier_runtime_gym_own_verify_loops_over_label_aliases_without_break_so_only_the_last_alias_counts(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in ALIAS_TASKS])
    _, better = truth_checkpoints(ctx, [(q, a.split("|")[0]) for q, a in ALIAS_TASKS])
    search, overrides, env_start, policy = gym_own_server(
        ctx, "alias_match", lambda app: replace_verify(app, ALIAS_VERIFY), better,
        "(copied Gym's string_match to WORK/my_gym/resources_servers/alias_match, kept in RUN/my_gym; its verify "
        "accepts '|'-separated spellings in a loop)")
    code = ctx.sh(f"bash {own_eval_script(ctx, search, overrides, 'alias_match')}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    first = [r for r in got if "|" in str(r.get("expected_answer")) and r.get("extracted_answer") is not None
             and str(r["extracted_answer"]).strip().lower() == str(r["expected_answer"]).split("|")[0].lower()
             and not r.get("reward")]
    plain = [r for r in got if "|" not in str(r.get("expected_answer"))]
    if code or len(keys_of(got)) != 24 or not first or not any(rewards(plain)):
        raise failed(ctx, f"exit {code}, {len(got)}, first {len(first)}: {log_of(ctx, 'run_eval.log')[-800:]}")
    return (f"RUN/tasks.jsonl (labels with '|'-separated spellings); RUN/my_gym/resources_servers/alias_match/app.py "
            f"(alias loop without break) served by the real `gym env start` (loopback-only namespace); RUN/run_eval.sh "
            f"(`gym eval run --no-serve` 8 x 3, `gym eval profile`) exit {code}; {len(first)} rollouts answered the "
            f"first spelling and scored 0; mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# data_schema
# =====================================================================================================

WIKI_TASKS = [("Which country has Tbilisi as its capital?", "Georgia", "Georgia (country)"),
              ("Which planet is closest to the Sun?", "Mercury", "Mercury (planet)"),
              ("Which island nation lies south of India?", "Sri Lanka", "Sri Lanka"),
              ("Which Indonesian island is home to Jakarta?", "Java", "Java (island)"),
              ("What is the capital of Canada?", "Ottawa", "Ottawa"),
              ("Which Greek god is the messenger of the gods?", "Hermes", "Hermes (mythology)"),
              ("What is the capital of Australia?", "Canberra", "Canberra"),
              ("Which bird is the national symbol of the United States?", "Bald eagle", "Bald eagle")]

WIKI_PREP_PY = '''"""prep.py: our quiz questions (quiz.jsonl: question, wiki) as string_match tasks; the answer is the linked
Wikipedia article's title (the wiki field, e.g. https://en.wikipedia.org/wiki/Canberra)."""
import json
from urllib.parse import unquote

with open("quiz.jsonl") as src, open("tasks.jsonl", "w") as out:
    for line in src:
        q = json.loads(line)
        title = unquote(q["wiki"].rsplit("/wiki/", 1)[1]).replace("_", " ")
        text = f"{q['question']} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": title, "extraction_mode": "final_answer", "case_sensitive": False}) + "\\n")
print("wrote tasks.jsonl")
'''


@case(
    "data_schema_gym_labels_taken_from_wikipedia_article_titles_keep_disambiguation_suffixes",
    "data_schema",
    ["(country)", "disambiguation"],
    "the user's prep.py takes each task's label from the title of the Wikipedia article the quiz links to; titles of "
    "ambiguous names carry a disambiguation suffix, so four labels became 'Georgia (country)', 'Mercury (planet)', "
    "'Java (island)' and 'Hermes (mythology)': the model's right answers (Georgia, Mercury, Java, Hermes) scored 0 "
    "(every command exits 0)",
    netns=True,
)
def data_schema_gym_labels_taken_from_wikipedia_article_titles_keep_disambiguation_suffixes(ctx: Ctx) -> str:
    run = ctx.run
    (run / "quiz.jsonl").write_text("".join(json.dumps({"question": q, "wiki": "https://en.wikipedia.org/wiki/"
                                                        + t.replace(" ", "_").replace("(", "%28").replace(")", "%29")})
                                            + "\n" for q, _, t in WIKI_TASKS))
    (run / "prep.py").write_text(WIKI_PREP_PY)
    ctx.sh(f"cd {run} && {recipes.PY} prep.py", "logs/prep.log")
    _, better = truth_checkpoints(ctx, [(q, a) for q, a, _ in WIKI_TASKS])
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    script = gym_script(ctx, "weekly quiz eval",
                        gym_eval_line(overrides, "tasks.jsonl", "results/rollouts.jsonl", 3, 4))
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    labels = [r["expected_answer"] for r in rows_of(run / "tasks.jsonl")]
    suffixed = [r for r in got if "(" in str(r.get("expected_answer")) and not r.get("reward")
                and str(r.get("extracted_answer", "")).strip().lower()
                == str(r["expected_answer"]).split(" (")[0].lower()]
    if code or len(keys_of(got)) != 24 or "Georgia (country)" not in labels or not suffixed:
        raise failed(ctx, f"exit {code}, {len(got)}, {labels}, {len(suffixed)}: {log_of(ctx, 'run_eval.log')[-800:]}")
    return (f"RUN/quiz.jsonl; RUN/prep.py (labels from the linked Wikipedia titles) wrote labels {labels}; real `gym "
            f"env start` (loopback-only namespace) against step_0200; RUN/run_eval.sh (`gym eval run --no-serve` 8 x "
            f"3, `gym eval profile`) exit {code}; {len(suffixed)} rollouts answered the name without the suffix and "
            f"scored 0; mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# model_serving
# =====================================================================================================

SERVE_SBATCH = """#!/bin/bash
#SBATCH --job-name=serve-policy
#SBATCH --output=RUN_DIR/logs/serve_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
# the model server of the weekly eval, on the team's fixed port (loading the checkpoint takes a few minutes)
GP_BIN serve-policy --port PORT --checkpoint CKPT --latency-ms 20 --slow-start-s 300
"""

SERVE_EVAL_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
cd RUN_DIR
echo "weekly eval against $MODEL_URL"
PIPELINE"""

CHAIN_SUBMIT = """#!/bin/bash
# submit.sh: the model server job, then the eval job chained to it
cd RUN_DIR
SERVER=$(sbatch --parsable serve.sbatch)
echo $SERVER >> job_ids.txt
JOB=$(sbatch --parsable --dependency=after:$SERVER --export=ALL,MODEL_URL=SERVER_ADDRESS eval.sbatch)
echo $JOB >> job_ids.txt
echo "submitted server job $SERVER and eval job $JOB (--dependency=after:$SERVER)"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "eval job $JOB finished; server job: $(squeue -h -j $SERVER -o '%T %M' 2>/dev/null)"
scancel $SERVER
"""


@case(
    "model_serving_slurm_eval_job_chained_to_server_job_with_after_dependency_starts_while_the_model_still_loads",
    "model_serving",
    ["after:", "ready", "503"],
    "the user's submit.sh chains the eval job to the model server's job with `--dependency=after:SERVER`, which "
    "lets the eval start as soon as the server job has started, not once the server is ready; the server was still "
    "loading its checkpoint (503 on every route for its first minutes), so collect's attempts to reach /v1/models "
    "all got 503 and it gave up: nothing was collected and the profile found no rollout",
)
def model_serving_slurm_eval_job_chained_to_server_job_with_after_dependency_starts_while_the_model_still_loads(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=36, folder=run, name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    port = free_port()
    url = f"http://127.0.0.1:{port}/v1"
    (run / "serve.sbatch").write_text(slurm_script(SERVE_SBATCH, ctx, PORT=str(port), CKPT=str(better)))
    sbatch_file(ctx, SERVE_EVAL_SBATCH, PIPELINE=pipeline("$MODEL_URL"))
    (run / "submit.sh").write_text(slurm_script(CHAIN_SUBMIT, ctx, SERVER_ADDRESS=url))
    try:
        code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=400)
    finally:
        for job in text_of(run / "job_ids.txt").split():
            subprocess.run(["scancel", job], env=ctx.env, capture_output=True, check=False)
    job = job_logs(ctx, "eval_*.log")
    if rows_of(run / "rollouts.jsonl") or "503" not in job:
        raise failed(ctx, f"exit {code}: {job[-1500:]}")
    return (f"RUN/serve.sbatch (serve-policy on port {port}, minutes to load); RUN/eval.sbatch (materialize 8 x 3, "
            f"collect, profile); RUN/submit.sh (`sbatch --dependency=after:SERVER eval.sbatch`) exit {code}; the eval "
            f"job started while the server answered 503; 0 of 24 rollouts.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

DRIVER_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=1
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=2
# the weekly eval driver: materialize here, collect in its own job (collect.sbatch, the team's collect template),
# then profile here once the collect job is done
cd RUN_DIR
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
echo "== collect job (sbatch --wait)"
sbatch --wait --parsable collect.sbatch | tee -a job_ids.txt
echo "== profile"
GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""

COLLECT_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-collect
#SBATCH --output=RUN_DIR/logs/collect_%j.log
#SBATCH --time=10
#SBATCH --ntasks=1
cd RUN_DIR
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $MODEL_URL \\
  --env string_match --concurrency 4
"""

DRIVER_SUBMIT = """#!/bin/bash
# submit.sh: submit the weekly eval driver and wait for it
cd RUN_DIR
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do
  squeue -h -o '%i %j %T %r %M'   # our jobs, every 10 s
  sleep 10
done
echo "job $JOB finished"
"""


@case(
    "throughput_slurm_driver_job_holding_both_cores_waits_on_collect_job_with_sbatch_wait_that_cannot_start",
    "throughput_resources",
    ["cpus-per-task", "sbatch --wait"],
    "the user's eval.sbatch asks for both cores of the node (`--cpus-per-task=2`), materializes, then submits the "
    "collect as a job of its own with `sbatch --wait collect.sbatch` and waits for it; the collect job needs a core "
    "that the waiting driver holds, so it stayed pending (Resources) while the driver waited for it, until the "
    "driver's 1-minute time limit killed it; only then could the collect job start, and the profile never ran",
)
def throughput_slurm_driver_job_holding_both_cores_waits_on_collect_job_with_sbatch_wait_that_cannot_start(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=44, folder=run, name="string_match.jsonl")
    _, better = checkpoints(ctx, "string_match", data)
    url, _ = ctx.policy(better, "--latency-ms 20")
    sbatch_file(ctx, DRIVER_SBATCH)
    (run / "collect.sbatch").write_text(slurm_script(COLLECT_SBATCH, ctx))
    (run / "submit.sh").write_text(slurm_script(DRIVER_SUBMIT, ctx))
    try:
        code = ctx.sh(f"bash {run}/submit.sh", "logs/submit.log", timeout=400, env={**ctx.env, "MODEL_URL": url})
    finally:
        for job in text_of(run / "job_ids.txt").split():
            subprocess.run(["scancel", job], env=ctx.env, capture_output=True, check=False)
        scancel_named(ctx, "weekly-collect")
    job = job_logs(ctx, "eval_*.log")
    submitted = log_of(ctx, "submit.log")
    if "TIME LIMIT" not in job or (run / "rollouts_reward_profiling.jsonl").exists() or "PENDING Resources" not in submitted:
        raise failed(ctx, f"exit {code}: {job[-1500:]} {submitted[-500:]}")
    return (f"RUN/eval.sbatch (`--cpus-per-task=2 --time=1`: materialize 8 x 3, `sbatch --wait collect.sbatch`, "
            f"profile) submitted by RUN/submit.sh exit {code}; the collect job pending (Resources) until the driver "
            f"was killed at its time limit, then started; {len(rows_of(run / 'rollouts.jsonl'))} rollouts, no profile.")


# =====================================================================================================
# infra
# =====================================================================================================

SECCOMP = {"defaultAction": "SCMP_ACT_ALLOW",
           "syscalls": [{"names": ["connect"], "action": "SCMP_ACT_ERRNO",
                         "comment": "verifier sandboxes run untrusted code: no outbound connections"}]}


@case(
    "infra_docker_collect_container_run_with_verifier_sandbox_seccomp_profile_that_denies_connect",
    "infra",
    ["seccomp", "connect"],
    "the user's run_eval.sh runs the collect in a container with the hardening flags of the team's verifier-sandbox "
    "template, `--security-opt seccomp=sandbox-seccomp.json`, a profile that denies the connect system call (no "
    "outbound connections from untrusted code); inside that container collect could not open any connection to the "
    "model server (Operation not permitted): nothing was collected and the profile found no rollout",
)
def infra_docker_collect_container_run_with_verifier_sandbox_seccomp_profile_that_denies_connect(ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 52)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "sandbox-seccomp.json").write_text(json.dumps(SECCOMP, indent=2) + "\n")
    script = docker_script(ctx, url, f"--rm --security-opt seccomp={run}/sandbox-seccomp.json",
                           "container flags from the team's verifier-sandbox template")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    log = log_of(ctx, "run_eval.log")
    if rows_of(run / "rollouts.jsonl") or "not permitted" not in log.lower():
        raise failed(ctx, f"exit {code}: {log[-1500:]}")
    return (f"RUN/sandbox-seccomp.json (denies connect); RUN/run_eval.sh (materialize 6 x 3, `docker run "
            f"--security-opt seccomp=... collect`, profile) exit {code}; 0 of 18 rollouts.")


if __name__ == "__main__":
    sys.exit(main("sixty_first_held_out", __file__, __doc__))
