"""Build the HUNDRED-AND-SECOND HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/hundred_and_second_held_out.py --out tests/data/diagnosis_corpus/hundred_and_second_held_out [--only CASE ...]

This set was written after the a hundred and one earlier sets (first_held_out.py ... hundred_and_first_held_out.py; the
hundred-and-third was written beside it at the same time), from the
guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`),
the real NeMo Gym 0.7.0 (`gym env start`, `gym eval run`, `gym eval profile`) with the users' own resources servers,
Slurm jobs (sbatch and its directives, job states), and the user's own shell and Python tooling, Makefiles, CI steps,
data-preparation scripts and verifiers. The output of every command is captured as a user would
(`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data, scripts,
settings, verifier code). Each case injects one cause, different in mechanism from those of the 101 earlier
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
from hundredth_held_out import PLAIN_SBATCH, UID_SUBMIT  # noqa: E402
from ninetieth_held_out import CAPITALS, slurm_run  # noqa: E402
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
# config (built-in): the driver's hand-written .env loader uses os.environ.setdefault, the runner's export wins
# =====================================================================================================

DOTENV_EVAL_PY = '''"""eval.py: the weekly eval (materialize, collect, profile); settings come from .env next to it."""
import os
import subprocess

GP = "GP_BIN"


def load_dotenv(path=".env"):
    """A minimal .env reader (python-dotenv is not in the eval image): KEY=VALUE lines, # comments."""
    for line in open(path):
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            key, value = line.split("=", 1)
            os.environ.setdefault(key.strip(), value.strip())


load_dotenv()
url = os.environ["MODEL_URL"]
repeats = os.environ.get("REPEATS", "3")
print(f"eval of {os.environ['DATA']} x {repeats} against {url}", flush=True)
for step in (
    [GP, "materialize", "--input", os.environ["DATA"], "--num-repeats", repeats,
     "--agent", "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"],
    [GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
     "--model-url", url, "--env", "string_match", "--concurrency", os.environ.get("CONCURRENCY", "4")],
    [GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
):
    subprocess.run(step, check=True)
'''


@case(
    "config_builtin_eval_py_reads_dotenv_with_os_environ_setdefault_so_model_url_exported_by_ci_runner_profile_wins",
    "config",
    ["eval.py", "setdefault", "MODEL_URL", "ci/runner_env.sh"],
    "the user's eval.py loads its settings from .env with a hand-written reader that calls os.environ.setdefault, "
    "so a variable already in the environment is never replaced; the CI step sources ci/runner_env.sh, which exports "
    "MODEL_URL of the team's standing step_0100 server for the nightly jobs, and the MODEL_URL of this week's "
    "step_0200 server written in .env was silently ignored: collect ran against the old checkpoint while every "
    "command exited 0",
)
def config_builtin_eval_py_reads_dotenv_with_os_environ_setdefault_so_model_url_exported_by_ci_runner_profile_wins(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    worse, better = truth_checkpoints(ctx, PLUS_PAIRS)
    old_url, _ = ctx.policy(worse, "--latency-ms 20", log="logs/model_server_standing_step_0100.log")
    new_url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server_step_0200.log")
    (run / "eval.py").write_text(DOTENV_EVAL_PY.replace("GP_BIN", str(GP)))
    (run / ".env").write_text(f"# weekly eval of step_0200\nMODEL_URL={new_url}\nDATA=string_match.jsonl\n"
                              "REPEATS=3\nCONCURRENCY=4\n")
    (run / "ci").mkdir(exist_ok=True)
    (run / "ci" / "runner_env.sh").write_text(
        "# eval runner profile (sourced by every CI step): the team's standing endpoints\n"
        f"export MODEL_URL={old_url}\nexport HF_HOME=/tmp/hf-cache\nexport PYTHONUNBUFFERED=1\n")
    ctx.note("(RUN/logs/model_server_standing_step_0100.log: the team's standing eval server; "
             "RUN/logs/model_server_step_0200.log: this week's checkpoint, started for this eval)")
    code = run_eval(ctx, f"source ci/runner_env.sh\n{recipes.PY} eval.py\n",
                    "CI step: weekly eval of step_0200 (settings in .env)")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 27 or f"against {old_url}" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.py (.env read with os.environ.setdefault); RUN/.env (MODEL_URL={new_url}); "
            f"RUN/ci/runner_env.sh (export MODEL_URL={old_url}); RUN/run_eval.sh exit {code}; collected against "
            f"{old_url} (step_0100); {complete(ctx)} of 27 rollouts, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# model_serving (built-in): the serve script keeps the smoke test's `timeout 20` around the model server
# =====================================================================================================

SERVE_SH = """#!/bin/bash
# serve.sh: start the model server for an eval (taken from the smoke-test CI job)
# usage: serve.sh CHECKPOINT PORT
nohup timeout 20 GP_BIN serve-policy --checkpoint $1 --port $2 --latency-ms 3000 \\
  > logs/model_server.log 2>&1 &
for i in $(seq 60); do curl -sf http://127.0.0.1:$2/v1/models > /dev/null && break; sleep 0.5; done
echo "model server up on port $2 (pid $!)"
"""


@case(
    "model_serving_builtin_serve_script_keeps_timeout_20_of_smoke_test_job_so_model_server_exits_in_the_middle_of_collect",
    "model_serving",
    ["serve.sh", "timeout 20", "serve-policy", "model_server.log"],
    "the user's serve.sh, copied from the smoke-test CI job, starts the model server as `timeout 20 gym-pipeline "
    "serve-policy ...`; the smoke test needed a few seconds, but the full eval's 27 completions at about 3 s each, "
    "4 at a time, need about 21 s, so timeout killed the model server 20 s after it started and the rest of "
    "collect's requests were refused, leaving rollouts missing",
)
def model_serving_builtin_serve_script_keeps_timeout_20_of_smoke_test_job_so_model_server_exits_in_the_middle_of_collect(
        ctx: Ctx) -> str:
    from gym_pipeline.host import free_loopback_port
    run = ctx.run
    (run / "logs").mkdir(exist_ok=True)
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    ckpt = run / "checkpoints" / "step_0200"
    ckpt.parent.mkdir(exist_ok=True)
    ctx.sh(f"cp -r {better} {ckpt}")
    ctx.commands.pop()
    port = free_loopback_port()
    (run / "serve.sh").write_text(SERVE_SH.replace("GP_BIN", str(GP)))
    url = f"http://127.0.0.1:{port}/v1"
    code = run_eval(ctx, f"bash serve.sh checkpoints/step_0200 {port}\n" + pipeline_lines(url)
                    + "wc -l rollouts.jsonl\n", "weekly eval: serve step_0200, materialize, collect, profile",
                    timeout=300)
    log = log_of(ctx, "run_eval.log")
    if complete(ctx) >= 27 or "model server up" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/serve.sh (`timeout 20 gym-pipeline serve-policy`, 3 s a completion); RUN/run_eval.sh (serve.sh, "
            f"materialize 9 x 3, collect against {url}, profile) exit {code}; {complete(ctx)} of 27 rollouts.")


# =====================================================================================================
# data_schema (built-in): the answer key's second batch came from the gazetteer's official (local-language) names
# =====================================================================================================

PERIOD_PAIRS = [
    ("What is the capital of Ireland?", "Dublin"),
    ("What is the capital of Portugal?", "Lisbon"),
    ("What is the capital of Greece?", "Athens"),
    ("What is the capital of Norway?", "Oslo"),
    ("What is the capital of Sweden?", "Stockholm"),
    ("What is the capital of Austria?", "Vienna"),
]
NATIVE = {"Lisbon": "Lisboa", "Athens": "Athína", "Vienna": "Wien"}  # the batch filled from the gazetteer

KEY_PREP_PY = '''"""prep.py: the answer key answer_key.json (a JSON array) -> string_match.jsonl."""
import json

PROMPT = "{question} End your response with 'Final answer: <answer>'."
with open("answer_key.json", encoding="utf-8") as f, open("string_match.jsonl", "w") as out:
    for item in json.load(f):
        out.write(json.dumps({"responses_create_params": {"input": [{"role": "user", "type": "message", "content": [
            {"type": "input_text", "text": PROMPT.format(question=item["question"])}]}]},
            "expected_answer": item["answer"].strip(), "extraction_mode": "final_answer",
            "case_sensitive": False}) + "\\n")
print("wrote string_match.jsonl")
'''


@case(
    "data_schema_builtin_answer_key_batch_filled_from_gazetteer_official_names_labels_capitals_in_local_language",
    "data_schema",
    ["answer_key.json", "Lisboa", "Wien", "English"],
    "the second batch of answer_key.json was filled from the gazetteer's official-name field, which gives each "
    "capital in its country's language ('Lisboa', 'Athína', 'Wien'); the questions ask in English, prep.py copies "
    "the names into expected_answer, and the model's right English answers Lisbon, Athens and Vienna always scored 0 "
    "while every command exited 0",
)
def data_schema_builtin_answer_key_batch_filled_from_gazetteer_official_names_labels_capitals_in_local_language(
        ctx: Ctx) -> str:
    run = ctx.run
    key = [{"id": f"geo-{i:03d}", "question": q, "answer": NATIVE.get(a, a),
            "source": "gazetteer:official_name" if a in NATIVE else "annotator:ann-1"}
           for i, (q, a) in enumerate(PERIOD_PAIRS, 1)]
    (run / "answer_key.json").write_text(json.dumps(key, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    ctx.note("(RUN/answer_key.json: the geo set's answer key; the second batch was filled from the team's gazetteer)")
    (run / "prep.py").write_text(KEY_PREP_PY)
    _, better = truth_checkpoints(ctx, PERIOD_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = run_eval(ctx, f"{recipes.PY} prep.py\n" + pipeline_lines(url),
                    "weekly eval (geo set): prep the answer key, materialize, collect, profile")
    got = rows_of(run / "rollouts.jsonl")
    native = labelled(got, *NATIVE.values())
    others = [r for r in got if r not in native]
    if code or complete(ctx) != 18 or len(native) != 9 or any(rewards(native)) or not any(rewards(others)):
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {len(native)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/answer_key.json ('Lisboa', 'Athína', 'Wien'); RUN/prep.py; RUN/run_eval.sh (prep, materialize "
            f"6 x 3, collect against {url}, profile) exit {code}; rewards of the local-language labels "
            f"{rewards(native)}, others mean {mean_of(others):.2f}.")


# =====================================================================================================
# verifier_runtime (real NeMo Gym): the user's verify folds accents with encode("ascii") and crashes on them
# =====================================================================================================

ACCENT_PAIRS = [
    ("What is the capital of Colombia?", "Bogotá"),
    ("What is the capital of France?", "Paris"),
    ("What is the capital of Iceland?", "Reykjavík"),
    ("What is the capital of Japan?", "Tokyo"),
    ("What is the capital of Cameroon?", "Yaoundé"),
    ("What is the capital of Kenya?", "Nairobi"),
]

FOLD_VERIFY = '''
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)

        def fold(s: str) -> str:
            # accent-insensitive: 'Bogota' and 'Bogotá' agree
            return unicodedata.normalize("NFKD", s).encode("ascii").decode().strip().lower()

        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = float(fold(extracted) == fold(body.expected_answer))

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
'''


@case(
    "verifier_runtime_gym_own_verify_folds_accents_with_nfkd_then_strict_ascii_encode_which_raises_on_every_accented_answer",
    "verifier_runtime",
    ["app.py", "encode(\"ascii\")", "fold", "UnicodeEncodeError"],
    "the user's own resources server quiz_fold makes answers accent-insensitive with "
    "`unicodedata.normalize(\"NFKD\", s).encode(\"ascii\")` but without errors=\"ignore\"; NFKD keeps the combining "
    "accent, so the strict ascii encode raises UnicodeEncodeError in verify for Bogotá, Reykjavík and Yaoundé and "
    "those rollouts could not be graded",
    netns=True,
)
def verifier_runtime_gym_own_verify_folds_accents_with_nfkd_then_strict_ascii_encode_which_raises_on_every_accented_answer(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in ACCENT_PAIRS])
    _, better = truth_checkpoints(ctx, ACCENT_PAIRS)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "quiz_fold", lambda app: with_import(replace_verify(app, FOLD_VERIFY), "import unicodedata"), better,
        "(the user's quiz_fold server: Gym's string_match verify with accent folding)")
    script = own_eval_script(ctx, search, overrides, "quiz_fold", comment="weekly eval")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    server_log = text_of(run / "env_start.log") + log_of(ctx, "run_eval.log")
    graded_accented = labelled(got, "Bogotá", "Reykjavík", "Yaoundé")
    if (not code and len(keys_of(got)) == 18) or graded_accented or "UnicodeEncodeError" not in server_log:
        raise failed(ctx, f"exit {code}, {len(got)}, {len(graded_accented)}: {server_log[-2000:]}")
    return (f"RUN/my_gym/resources_servers/quiz_fold/app.py (verify folds with NFKD + strict ascii encode); real `gym "
            f"env start` (loopback-only namespace) with it; RUN/run_eval.sh (`gym eval run --no-serve` 6 x 3, `gym "
            f"eval profile`) exit {code}; {len(keys_of(got))} of 18 rollouts written; UnicodeEncodeError in the "
            f"server log.")


# =====================================================================================================
# cache_resume (built-in): the results database's summary table is made with CREATE TABLE IF NOT EXISTS ... AS SELECT
# =====================================================================================================

RESULTS_DB_PY = '''"""results_db.py: load rollouts.jsonl into the team's results.db and print the weekly summary.

usage: results_db.py ROLLOUTS CHECKPOINT
"""
import json
import sqlite3
import sys

path, checkpoint = sys.argv[1], sys.argv[2]
db = sqlite3.connect("results.db")
db.execute("CREATE TABLE IF NOT EXISTS rollouts (checkpoint TEXT, question TEXT, reward REAL)")
db.execute("DELETE FROM rollouts WHERE checkpoint = ?", (checkpoint,))  # re-loading a run replaces it
rows = [json.loads(line) for line in open(path) if line.strip()]
db.executemany("INSERT INTO rollouts VALUES (?, ?, ?)", [
    (checkpoint, r["responses_create_params"]["input"][0]["content"][0]["text"], float(r.get("reward") or 0))
    for r in rows])
print(f"results.db: loaded {len(rows)} rollouts of {checkpoint}")
# the dashboard reads this small table, not the rollouts: the newest checkpoint's summary
db.execute("CREATE TABLE IF NOT EXISTS summary AS SELECT checkpoint, COUNT(*) AS n, AVG(reward) AS mean "
           "FROM rollouts WHERE checkpoint = (SELECT MAX(checkpoint) FROM rollouts) GROUP BY checkpoint")
db.commit()
name, n, mean = db.execute("SELECT checkpoint, n, mean FROM summary").fetchone()
print(f"weekly summary: {name}: mean reward {mean:.2f} over {n} rollouts")
'''


@case(
    "cache_resume_builtin_results_db_summary_table_made_with_create_table_if_not_exists_as_select_keeps_last_weeks_numbers",
    "cache_resume",
    ["results_db.py", "CREATE TABLE IF NOT EXISTS summary", "DROP TABLE", "step_0100"],
    "the user's results_db.py loads each week's rollouts into results.db correctly, but builds the dashboard's "
    "summary table with `CREATE TABLE IF NOT EXISTS summary AS SELECT ...`; the table was made last week from "
    "step_0100's rows and is never rebuilt, so this week's run printed and published 'weekly summary: step_0100' "
    "with last week's mean although step_0200's rollouts were loaded and every command exited 0",
)
def cache_resume_builtin_results_db_summary_table_made_with_create_table_if_not_exists_as_select_keeps_last_weeks_numbers(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in CAPITALS])
    worse, better = truth_checkpoints(ctx, CAPITALS)
    (run / "results_db.py").write_text(RESULTS_DB_PY)
    old_url, old_policy = ctx.policy(worse, "--latency-ms 20", log="logs/model_server_step_0100.log")
    body = pipeline_lines("URL") + f"{recipes.PY} results_db.py rollouts.jsonl STEP\n"
    last = run / "run_eval_last_week.sh"
    last.write_text(f"#!/bin/bash\n# last week's run (step_0100), same script\ncd {run}\n"
                    + body.replace("URL", old_url).replace("STEP", "step_0100"))
    ctx.sh(f"bash {last}", "logs/run_eval_last_week.log", timeout=300)
    old_rows = rows_of(run / "rollouts.jsonl")
    ctx.sh(f"mv {run}/rollouts.jsonl {run}/rollouts_step_0100.jsonl")
    ctx.stop(old_policy)
    url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server_step_0200.log")
    code = run_eval(ctx, body.replace("URL", url).replace("STEP", "step_0200"),
                    "weekly eval of step_0200: materialize, collect, profile, load into results.db")
    log = log_of(ctx, "run_eval.log")
    new_rows = rows_of(run / "rollouts.jsonl")
    if code or len(new_rows) != 18 or len(old_rows) != 18 or "weekly summary: step_0100" not in log \
            or "loaded 18 rollouts of step_0200" not in log or abs(mean_of(new_rows) - mean_of(old_rows)) < 0.1:
        raise failed(ctx, f"exit {code}, {len(new_rows)}: {log[-1500:]}")
    return (f"RUN/results_db.py (summary made with CREATE TABLE IF NOT EXISTS ... AS SELECT); last week's run of "
            f"step_0100 (mean {mean_of(old_rows):.2f}) in results.db; RUN/run_eval.sh (materialize 6 x 3, collect "
            f"against {url}, profile, results_db.py) exit {code}; this week's mean {mean_of(new_rows):.2f}; the summary "
            f"names step_0100.")


# =====================================================================================================
# healthy (Slurm): the job runs `make eval`, whose clean step removes a cache folder that is not there
# =====================================================================================================

CLEAN_MAKEFILE = """# Makefile: the weekly eval
.PHONY: eval clean

eval: clean
\tMATERIALIZE
\tCOLLECT
\tPROFILE

clean:
\t-rm -r .cache/collect rollouts.jsonl rollouts_reward_profiling.jsonl
"""


@case(
    "healthy_slurm_eval_job_runs_make_whose_clean_prerequisite_removes_absent_cache_folder_so_make_prints_error_1_ignored",
    "healthy",
    [],
    "nothing is wrong: the Slurm job runs `make eval`, whose clean prerequisite runs `-rm -r .cache/collect "
    "rollouts.jsonl ...`; on a fresh run folder none of them exists, so rm prints 'cannot remove ... No such file or "
    "directory' and make prints 'make: [Makefile:...: clean] Error 1 (ignored)', but the leading '-' makes make go "
    "on: materialize, collect and profile completed every rollout and the job COMPLETED",
)
def healthy_slurm_eval_job_runs_make_whose_clean_prerequisite_removes_absent_cache_folder_so_make_prints_error_1_ignored(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20", log="model_server.log")
    steps = pipeline_lines(url).splitlines()
    (run / "Makefile").write_text(CLEAN_MAKEFILE.replace("MATERIALIZE", steps[0]).replace("COLLECT", steps[1])
                                  .replace("PROFILE", steps[2]))
    user_file(ctx, "eval.sbatch", PLAIN_SBATCH, PIPELINE="make eval")
    user_file(ctx, "submit.sh", UID_SUBMIT.replace(" --uid=nobody --gid=nogroup", "").replace(
        "# CI policy 2026-11: batch jobs run unprivileged (nobody) unless the repo configures a service account\n", "")
        .replace("ls -ld . logs\n", ""), WAIT_LINES=WAIT_LINES)
    code = slurm_run(ctx)
    log = log_of(ctx, "submit.log")
    if code or complete(ctx) != 27 or "(ignored)" not in log or not profiled(ctx) \
            or "JobState=COMPLETED" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/Makefile (eval: clean, then materialize 9 x 3, collect against {url}, profile; clean: `-rm -r`); "
            f"RUN/eval.sbatch (`make eval`); RUN/submit.sh (sbatch, wait, cat log, job state) exit {code}; "
            f"'Error 1 (ignored)' in the job log; {complete(ctx)} of 27 rollouts, mean reward "
            f"{mean_of(rows_of(run / 'rollouts.jsonl')):.2f}; JobState=COMPLETED.")


# =====================================================================================================
# healthy (real NeMo Gym): the user's own server finds no redis for its optional verify cache
# =====================================================================================================

REDIS_LINES = """import socket
_VERIFY_CACHE = None
try:
    socket.create_connection(("127.0.0.1", 6379), timeout=1).close()
    _VERIFY_CACHE = "redis://127.0.0.1:6379/3"
except OSError as exc:
    # the cache only saves grading time on the big nightly sets
    print(f"WARNING: verify cache disabled: redis at 127.0.0.1:6379 unreachable ({exc}); grading every request",
          flush=True)"""


@case(
    "healthy_gym_own_server_finds_no_redis_for_its_optional_verify_cache_and_prints_connection_refused_at_start",
    "healthy",
    [],
    "nothing is wrong: the user's own resources server quiz_cache tries the team's optional redis verify cache at "
    "import and prints 'WARNING: verify cache disabled: redis at 127.0.0.1:6379 unreachable ([Errno 111] Connection "
    "refused); grading every request'; the cache only saves time, every rollout was graded and the profile completed",
    netns=True,
)
def healthy_gym_own_server_finds_no_redis_for_its_optional_verify_cache_and_prints_connection_refused_at_start(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "tasks.jsonl", [question_row(q, a) for q, a in CAPITALS])
    _, better = truth_checkpoints(ctx, CAPITALS)
    search, overrides, env_start, policy = gym_own_server(
        ctx, "quiz_cache", lambda app: with_import(app, REDIS_LINES), better,
        "(the user's quiz_cache server: Gym's string_match plus an optional redis verify cache probed at import)")
    script = own_eval_script(ctx, search, overrides, "quiz_cache", comment="weekly eval")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=500)
    stop_gym(ctx, env_start, policy)
    got = gym_rows(ctx)
    server_log = text_of(run / "env_start.log")
    if code or len(keys_of(got)) != 18 or "Connection refused" not in server_log or not any(rewards(got)) \
            or not list(run.glob("results/*reward_profiling*.jsonl")):
        raise failed(ctx, f"exit {code}, {len(got)}: {server_log[-1500:]}")
    return (f"RUN/my_gym/resources_servers/quiz_cache/app.py (prints 'WARNING: verify cache disabled ... Connection "
            f"refused' at import); real `gym env start` (loopback-only namespace) with it; RUN/run_eval.sh (`gym eval "
            f"run --no-serve` 6 x 3, `gym eval profile`) exit {code}; {len(keys_of(got))} of 18 rollouts, mean "
            f"{mean_of(got):.2f}.")


# =====================================================================================================
# healthy (built-in): the driver's atexit hook removes a lock file its own finally-block already removed
# =====================================================================================================

ATEXIT_EVAL_PY = '''"""eval.py: the weekly eval under a lock so that two CI pipelines never collect into one folder."""
import atexit
import os
import subprocess
import sys

LOCK = ".eval.lock"
open(LOCK, "x").write(str(os.getpid()))
atexit.register(os.remove, LOCK)  # also on crashes
try:
    for step in sys.stdin.read().splitlines():
        subprocess.run(step, shell=True, check=True)
finally:
    os.remove(LOCK)
print("eval done", flush=True)
'''


@case(
    "healthy_builtin_eval_driver_atexit_hook_removes_lock_file_already_removed_so_python_prints_exception_ignored_traceback",
    "healthy",
    [],
    "nothing is wrong: the user's eval.py takes a lock file and removes it both in a finally block and in an atexit "
    "hook; at exit the hook finds it gone and Python prints 'Exception ignored in atexit callback' with a "
    "FileNotFoundError traceback after 'eval done'; materialize, collect and profile completed every rollout",
)
def healthy_builtin_eval_driver_atexit_hook_removes_lock_file_already_removed_so_python_prints_exception_ignored_traceback(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "eval.py").write_text(ATEXIT_EVAL_PY)
    (run / "steps.txt").write_text(pipeline_lines(url))
    code = run_eval(ctx, f"{recipes.PY} eval.py < steps.txt\n", "CI step: weekly eval under the folder lock")
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 27 or "Exception ignored" not in log or "FileNotFoundError" not in log \
            or not profiled(ctx) or not any(rewards(got)):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.py (lock removed in finally and by atexit); RUN/steps.txt (materialize 9 x 3, collect against "
            f"{url}, profile); RUN/run_eval.sh exit {code}; 'Exception ignored in atexit callback' + FileNotFoundError "
            f"printed; {complete(ctx)} of 27 rollouts, mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# infra (built-in): the team's results share was left mounted read-only after the storage maintenance
# =====================================================================================================

@case(
    "infra_builtin_results_share_left_mounted_read_only_after_storage_maintenance_so_collect_cannot_write_rollouts",
    "infra",
    ["results", "Read-only file system", "mount", "rw"],
    "the eval writes into results/, the team's results share, which the storage team's maintenance left mounted "
    "read-only (`mount -o remount,ro`); every write in results/ "
    "fails with '[Errno 30] Read-only file system', so collect could not write rollouts.jsonl and nothing was "
    "collected or profiled although the model server, data and scripts were fine",
)
def infra_builtin_results_share_left_mounted_read_only_after_storage_maintenance_so_collect_cannot_write_rollouts(
        ctx: Ctx) -> str:
    run = ctx.run
    write_jsonl(run / "string_match.jsonl", [question_row(q, a) for q, a in PLUS_PAIRS])
    _, better = truth_checkpoints(ctx, PLUS_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    results = run / "results"
    results.mkdir()
    (results / "README").write_text("weekly eval results (team share)\n")
    ctx.sh(f"mount --bind {results} {results} && mount -o remount,bind,ro {results}")
    ctx.commands.pop()
    ctx.note("(RUN/results: the team's results share, remounted read-only by the storage maintenance of the weekend)")
    try:
        code = run_eval(ctx, "cd results\n" + pipeline_lines(url, data="../string_match.jsonl") + "ls -la\n",
                        "weekly eval: results into the team share")
    finally:
        ctx.sh(f"umount {results}")
        ctx.commands.pop()
    log = log_of(ctx, "run_eval.log")
    if "Read-only file system" not in log or list(results.rglob("rollouts.jsonl")):
        raise failed(ctx, f"exit {code}: {log[-1500:]}")
    return (f"RUN/results (read-only mount); RUN/run_eval.sh (materialize 9 x 3, collect against {url}, profile, "
            f"in results/) exit {code}; 'Read-only file system' in the log; no rollouts.")


if __name__ == "__main__":
    sys.exit(main("hundred_and_second_held_out", __file__, __doc__))
