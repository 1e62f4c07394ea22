"""Build the EIGHTY-FIRST HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/eighty_first_held_out.py --out tests/data/diagnosis_corpus/eighty_first_held_out [--only CASE ...]

This set was written after the eighty earlier sets (first_held_out.py ... eightieth_held_out.py), from the guides
alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
Docker containers the user's scripts start, task-folder (Harbor-format) tasksets, and the user's own shell and Python
tooling, settings, data-preparation scripts and verifiers. The output of every command is captured as a user would
(`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data, scripts,
settings, verifier code). Each case injects one cause, different in mechanism from those of the eighty earlier
sets, and each recipe checks that its fault really happened (it raises RecipeError otherwise, and the case is not
written). About half of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), and PYTHONPATH set to this checkout. Run it from a
foreground shell. Containers it makes are named `h81-...` and removed at the end of their recipe.
"""
from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import failed  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_seventh_held_out import everything, task_rewards, week  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from recipes import BIN, GP, Ctx, case, main, rows_of, text_of  # noqa: E402
from seventy_first_held_out import docker_collect_script, remove_container, write_rows  # noqa: E402
from seventy_ninth_held_out import run_eval  # noqa: E402
from sixty_fourth_held_out import mean_of, pipeline_lines, question_row  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_sixth_held_out import free_port  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def labelled(rows: list[dict], *labels: str) -> list[dict]:
    return [r for r in rows if str(r.get("expected_answer")) in labels]


def append_dockerfile(tasks: Path, name: str, lines: str) -> None:
    dockerfile = tasks / name / "environment" / "Dockerfile"
    dockerfile.write_text(dockerfile.read_text().rstrip("\n") + "\n" + lines.strip("\n") + "\n")


def listening_pids(port: int) -> list[int]:
    out = subprocess.run(["ss", "-ltnpH", f"sport = :{port}"], capture_output=True, text=True).stdout
    return sorted({int(pid) for pid in re.findall(r"pid=(\d+)", out)})


def kill_pids(pids: list[int]) -> None:
    for pid in pids:
        subprocess.run(["kill", "-9", str(pid)], capture_output=True, check=False)


# =====================================================================================================
# the answer key in SQLite (a healthy case and a data_schema case)
# =====================================================================================================

SQL_PAIRS = [
    ("What code number does James Bond go by?", "007"),
    ("Which Python version introduced the match statement?", "3.10"),
    ("What is the ZIP code of Harvard Square in Cambridge, Massachusetts?", "02138"),
    ("What is the capital of Peru?", "Lima"),
    ("What is the capital of Norway?", "Oslo"),
    ("Which planet is known as the Red Planet?", "Mars"),
    ("How many sides does a hexagon have?", "6"),
    ("What is the chemical symbol of gold?", "Au"),
]
SQL_CHANGED = {"007": "7", "3.10": "3.1", "02138": "2138"}

PREP_SQLITE_PY = '''"""prep.py: the quiz's answer key (quiz.db, table answer_key) -> string_match.jsonl."""
import json
import sqlite3

db = sqlite3.connect("quiz.db")
rows = db.execute("SELECT question, answer FROM answer_key ORDER BY rowid").fetchall()
with open("string_match.jsonl", "w") as out:
    for question, answer in rows:
        text = f"{question} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": str(answer), "extraction_mode": "final_answer", "case_sensitive": False}) + "\\n")
print(f"prep: {len(rows)} rows written")
'''


def answer_key_sql(path: Path, answer_type: str) -> None:
    lines = ["-- the weekly quiz's answer key (loaded with: sqlite3 quiz.db < answer_key.sql)",
             "DROP TABLE IF EXISTS answer_key;",
             f"CREATE TABLE answer_key (question TEXT NOT NULL, answer {answer_type} NOT NULL);"]
    for question, answer in SQL_PAIRS:
        q, a = question.replace("'", "''"), answer.replace("'", "''")
        lines.append(f"INSERT INTO answer_key VALUES ('{q}', '{a}');")
    path.write_text("\n".join(lines) + "\n")


def sqlite_week(ctx: Ctx, answer_type: str) -> tuple[int, list[dict], list[str]]:
    run = ctx.run
    _, better = truth_checkpoints(ctx, SQL_PAIRS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    answer_key_sql(run / "answer_key.sql", answer_type)
    (run / "prep.py").write_text(PREP_SQLITE_PY)
    code = run_eval(ctx, f"rm -f quiz.db\nsqlite3 quiz.db < answer_key.sql\n{BIN}/python prep.py\n" + pipeline_lines(url),
                    "weekly eval of the quiz kept in SQLite")
    labels = [r["expected_answer"] for r in rows_of(run / "string_match.jsonl")]
    return code, rows_of(run / "rollouts.jsonl"), labels


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_builtin_sqlite_answer_key_column_declared_text_keeps_007_and_3_10_as_written",
    "healthy",
    [],
    "nothing is wrong: the quiz's answer key lives in an SQLite table (quiz.db, loaded from answer_key.sql) and "
    "holds answers that look like numbers (007, 3.10, the ZIP code 02138); the answer column is declared TEXT, so "
    "SQLite stores them as the same text, prep.py wrote them unchanged, the model's answers were scored against "
    "the right labels and every rollout was collected and profiled",
)
def healthy_builtin_sqlite_answer_key_column_declared_text_keeps_007_and_3_10_as_written(ctx: Ctx) -> str:
    code, got, labels = sqlite_week(ctx, "TEXT")
    tricky = labelled(got, *SQL_CHANGED)
    if code or complete(ctx) != 24 or labels != [a for _, a in SQL_PAIRS] or not any(rewards(tricky)) \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {labels}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/answer_key.sql (answer TEXT); RUN/prep.py (sqlite3, str() of each answer); RUN/run_eval.sh "
            f"(sqlite3 load, prep, materialize 8 x 3, collect, profile) exit {code}; labels {labels}; "
            f"{complete(ctx)} of 24 rollouts, mean reward {mean_of(got):.2f}.")


SALES_PARTS = {
    "north.csv": "region,product,amount\nnorth,tea,120\nnorth,cocoa,30\n",
    "south.csv": "region,product,amount\nsouth,coffee,75\n",
    "east.csv": "region,product,amount\neast,tea,210\n",
}


@case(
    "healthy_taskfolder_sales_csv_rebuilt_from_region_exports_repeats_header_line_that_awk_sums_as_zero",
    "healthy",
    [],
    "nothing is wrong: the user's run_tasks.sh rebuilds csv-column-total's environment/sales.csv by concatenating "
    "the per-region exports, each with its own `region,product,amount` header, so the file carries the header "
    "three times, twice in the middle of the data; awk reads the word 'amount' as 0, the total is still 435, and "
    "every episode of both tasks was collected, scored and profiled",
)
def healthy_taskfolder_sales_csv_rebuilt_from_region_exports_repeats_header_line_that_awk_sums_as_zero(
        ctx: Ctx) -> str:
    run = ctx.run
    (run / "exports").mkdir()
    for name, text in SALES_PARTS.items():
        (run / "exports" / name).write_text(text)
    build = "cat exports/north.csv exports/south.csv exports/east.csv > tasks/csv-column-total/environment/sales.csv"
    code, got = week(ctx, ["csv-column-total", "json-version"], repeats=4,
                     preamble=[build, "cat tasks/csv-column-total/environment/sales.csv"])
    total = task_rewards(ctx, "csv-column-total")
    sales = text_of(run / "tasks" / "csv-column-total" / "environment" / "sales.csv")
    if code or complete(ctx) != 8 or not total or not any(total) or sales.count("region,product,amount") != 3 \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {total}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/exports/*.csv (one per region, each with its header); RUN/run_tasks.sh (cat of the exports into "
            f"tasks/csv-column-total/environment/sales.csv, `gym-pipeline stage` materialize, collect, profile x 4) "
            f"exit {code}; {complete(ctx)} episodes, csv-column-total rewards {total}.")


TEAM_ENV_BANNER = """# team shell environment (BASH_ENV): every bash reads it first
if [ ! -S /run/lic/lic.sock ]; then
  echo "team-env: license daemon socket /run/lic/lic.sock not found; licensed tools disabled, running open tools only" >&2
fi
export TEAM_ENV_LOADED=1
"""

TEAM_ENV_LINES = """
COPY team_env.sh /etc/team_env.sh
ENV BASH_ENV=/etc/team_env.sh
"""


def team_env(script: str, names: list[str]):
    def edit(tasks: Path) -> None:
        for name in names:
            (tasks / name / "environment" / "team_env.sh").write_text(script)
            append_dockerfile(tasks, name, TEAM_ENV_LINES)
    return edit


@case(
    "healthy_taskfolder_dockerfiles_set_bash_env_team_script_that_warns_license_daemon_missing_on_every_command",
    "healthy",
    [],
    "nothing is wrong: both tasks' Dockerfiles install the team's shell environment as BASH_ENV, which prints "
    "'team-env: license daemon socket ... not found; licensed tools disabled' to stderr at the start of every bash, "
    "so every agent command's output and every verifier output carry that warning; the tasks use no licensed tool, "
    "so every episode of both tasks passed its test and was collected, scored and profiled",
)
def healthy_taskfolder_dockerfiles_set_bash_env_team_script_that_warns_license_daemon_missing_on_every_command(
        ctx: Ctx) -> str:
    names = ["count-error-lines", "create-greeting"]
    code, got = week(ctx, names, edit=team_env(TEAM_ENV_BANNER, names))
    counts, greeting = task_rewards(ctx, "count-error-lines"), task_rewards(ctx, "create-greeting")
    if code or complete(ctx) != 4 or not any(counts) or not any(greeting) \
            or "license daemon socket" not in everything(ctx) \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {counts} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/*/environment/team_env.sh (warning on stderr) and Dockerfile (ENV BASH_ENV=/etc/team_env.sh); "
            f"RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile x 2) exit {code}; "
            f"{complete(ctx)} episodes, rewards {counts} and {greeting}.")


# =====================================================================================================
# data_schema
# =====================================================================================================


@case(
    "data_schema_builtin_sqlite_answer_column_declared_numeric_so_007_and_3_10_stored_as_numbers_7_and_3_1",
    "data_schema",
    ["answer_key.sql", "NUMERIC", "TEXT", "affinity"],
    "the quiz's answer key is an SQLite table whose answer column is declared NUMERIC in answer_key.sql; SQLite's "
    "type affinity turns every text that looks like a number into a number on insert, so '007' was stored as 7, "
    "'3.10' as 3.1 and the ZIP code '02138' as 2138, and prep.py wrote the labels '7', '3.1' and '2138': the "
    "model's right answers to those three questions scored 0 while the other questions scored (every command "
    "exits 0)",
)
def data_schema_builtin_sqlite_answer_column_declared_numeric_so_007_and_3_10_stored_as_numbers_7_and_3_1(
        ctx: Ctx) -> str:
    code, got, labels = sqlite_week(ctx, "NUMERIC")
    cut = labelled(got, *SQL_CHANGED.values())
    right = [r for r in cut if str(r.get("extracted_answer")) in SQL_CHANGED]
    others = [r for r in got if r not in cut]
    if code or len(got) != 24 or len(cut) != 9 or not right or any(rewards(right)) or not any(rewards(others)):
        raise failed(ctx, f"exit {code}, {len(got)}, {labels}, {rewards(cut)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/answer_key.sql (answer NUMERIC); RUN/prep.py (sqlite3, str() of each answer); RUN/run_eval.sh "
            f"(sqlite3 load, prep, materialize 8 x 3, collect, profile) exit {code}; labels {labels}; rewards of the "
            f"{len(right)} right answers (007, 3.10, 02138) to the retyped labels {rewards(right)}, of the others "
            f"mean {mean_of(others):.2f}.")


TEMPLATE_DOCKERIGNORE = """# team service template: keep build contexts small
.git
__pycache__/
*.pyc
*.log
tmp/
"""


def template_dockerignore(tasks: Path) -> None:
    for name in ("count-error-lines", "json-version"):
        (tasks / name / "environment" / ".dockerignore").write_text(TEMPLATE_DOCKERIGNORE)


@case(
    "data_schema_taskfolder_dockerignore_from_service_template_excludes_log_files_so_server_log_never_reaches_the_build",
    "data_schema",
    [".dockerignore", "*.log", "server.log"],
    "the user added the team service template's .dockerignore to every task's environment/ folder; it excludes "
    "`*.log`, so count-error-lines' environment/server.log, the task's input, is left out of the build context "
    "and the Dockerfile's `COPY server.log /app/server.log` fails ('excluded by .dockerignore'): the task's image "
    "could not be built, so the collect stage stopped before any episode (the taskset had a task that could not "
    "load) and profile found no rollouts, although json-version's image built",
)
def data_schema_taskfolder_dockerignore_from_service_template_excludes_log_files_so_server_log_never_reaches_the_build(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["count-error-lines", "json-version"], edit=template_dockerignore)
    counts, version = task_rewards(ctx, "count-error-lines"), task_rewards(ctx, "json-version")
    text = everything(ctx)
    if complete(ctx) or "server.log" not in text or "dockerignore" not in text:
        raise failed(ctx, f"exit {code}, {counts} {version}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/*/environment/.dockerignore (`*.log` among the template's patterns); RUN/run_tasks.sh "
            f"(`gym-pipeline stage` materialize, collect, profile x 2) exit {code}; {complete(ctx)} episodes "
            f"(count-error-lines {counts}, json-version {version}).")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

JSON_TEST_SH = """#!/bin/bash
# Writes /logs/verifier/reward.json: the reward and the check's details, for the dashboard.
cd /app
got="$(tr -d "[:space:]" < /app/total.txt 2>/dev/null)"
if test "$got" = "435"; then
  echo "PASS"
  reward=1; passed=true
else
  echo "FAIL (got '$got')"
  reward=0; passed=false
fi
echo "{\\"reward\\": $reward, \\"passed\\": $passed, \\"expected_total\\": 435}" > /logs/verifier/reward.json
cat /logs/verifier/reward.json
"""


def json_reward_test(tasks: Path) -> None:
    (tasks / "csv-column-total" / "tests" / "test.sh").write_text(JSON_TEST_SH)


@case(
    "verifier_runtime_taskfolder_test_sh_reward_json_carries_boolean_passed_entry_so_every_reward_file_is_invalid",
    "verifier_runtime",
    ["reward.json", "passed", "boolean", "test.sh"],
    "csv-column-total's tests/test.sh now writes /logs/verifier/reward.json with the check's details for the "
    "dashboard: {\"reward\": 1, \"passed\": true, \"expected_total\": 435}; every entry of reward.json must be a "
    "number, and the boolean `passed` makes each file an invalid reward, so every csv-column-total episode, right "
    "or wrong, scored 0, while create-greeting (reward.txt) scored (every command exits 0)",
)
def verifier_runtime_taskfolder_test_sh_reward_json_carries_boolean_passed_entry_so_every_reward_file_is_invalid(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["csv-column-total", "create-greeting"], edit=json_reward_test, repeats=4)
    total, greeting = task_rewards(ctx, "csv-column-total"), task_rewards(ctx, "create-greeting")
    text = everything(ctx)
    if code or not total or any(total) or not any(greeting) or '"passed": true' not in text \
            or "invalid_reward" not in text:
        raise failed(ctx, f"exit {code}, {total} {greeting}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/csv-column-total/tests/test.sh (reward.json with a boolean `passed` entry); RUN/run_tasks.sh "
            f"(`gym-pipeline stage` materialize, collect, profile x 4) exit {code}; csv-column-total rewards {total}, "
            f"create-greeting rewards {greeting}.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

TEAM_ENV_WAIT = """# team shell environment (BASH_ENV): every bash reads it first
# wait for the license daemon's socket, as on the build farm where it starts with the container (up to 12 s)
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
  [ -S /run/lic/lic.sock ] && break
  sleep 1
done
export TEAM_ENV_LOADED=1
"""


def waiting_env_and_quick_verifier(tasks: Path) -> None:
    team_env(TEAM_ENV_WAIT, ["count-error-lines"])(tasks)
    toml = tasks / "count-error-lines" / "task.toml"
    toml.write_text(toml.read_text().replace("[verifier]\ntimeout_sec = 30.0", "[verifier]\ntimeout_sec = 10.0"))


@case(
    "throughput_taskfolder_bash_env_script_waits_twelve_seconds_for_license_socket_on_every_bash_past_verifier_limit",
    "throughput_resources",
    ["BASH_ENV", "team_env.sh", "timeout_sec", "sleep"],
    "count-error-lines' Dockerfile installs the team's shell environment as BASH_ENV, and that script waits up to "
    "12 s for a license daemon's socket that never exists in the sandbox; every bash the episode starts (each "
    "agent command, the verifier's `bash /tests/test.sh`) pays those 12 s first, which is more than the task's "
    "[verifier] timeout_sec of 10, so every verification ran out of time and scored 0 although the agent's "
    "answer was right (every command exits 0)",
)
def throughput_taskfolder_bash_env_script_waits_twelve_seconds_for_license_socket_on_every_bash_past_verifier_limit(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["count-error-lines"], edit=waiting_env_and_quick_verifier)
    counts = task_rewards(ctx, "count-error-lines")
    text = everything(ctx)
    if not counts or any(counts) or "timeout" not in text.lower():
        raise failed(ctx, f"exit {code}, {counts}: {log_of(ctx, 'run_tasks.log')[-1500:]}")
    return (f"RUN/tasks/count-error-lines/environment/team_env.sh (waits up to 12 s for /run/lic/lic.sock), "
            f"Dockerfile (ENV BASH_ENV), task.toml ([verifier] timeout_sec = 10); RUN/run_tasks.sh (`gym-pipeline "
            f"stage` materialize, collect, profile x 2) exit {code}; rewards {counts}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

UNZIP_PAIRS_OLD = [
    ("What is the capital of Australia?", "Sydney"),
    ("How many bones does an adult human have?", "208"),
    ("What is the capital of Japan?", "Tokyo"),
    ("What is the capital of Italy?", "Rome"),
    ("Which element has the chemical symbol O?", "Oxygen"),
    ("How many continents are there?", "7"),
]
UNZIP_FIXED = {"Sydney": "Canberra", "208": "206"}


def quiz_zip(ctx: Ctx, path: Path, pairs: list[tuple[str, str]]) -> None:
    """The labelling team's weekly drop: a zip holding string_match.jsonl (made in WORK, not a command)."""
    staging = ctx.work / "drop_staging.jsonl"
    write_rows(staging, [question_row(q, a) for q, a in pairs])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    with zipfile.ZipFile(path, "w") as archive:
        archive.write(staging, "string_match.jsonl")


@case(
    "cache_resume_builtin_weekly_zip_unpacked_without_overwrite_flag_in_ci_where_unzip_reads_eof_as_none_keeping_old_labels",
    "cache_resume",
    ["unzip", "-o", "overwrite", "data"],
    "the user's run_eval.sh unpacks the labelling team's weekly drop with `unzip $DROP -d data` into the data "
    "folder kept from last week; unzip asks whether to replace the existing string_match.jsonl, the CI shell has no "
    "terminal and unzip reads end-of-file as '[N]one', so last week's file stayed: the two labels fixed in this "
    "week's drop (Canberra, 206) were never used and the model's right answers to those questions scored 0 (the "
    "eval itself exits 0)",
)
def cache_resume_builtin_weekly_zip_unpacked_without_overwrite_flag_in_ci_where_unzip_reads_eof_as_none_keeping_old_labels(
        ctx: Ctx) -> str:
    run = ctx.run
    fixed = [(q, UNZIP_FIXED.get(a, a)) for q, a in UNZIP_PAIRS_OLD]
    _, better = truth_checkpoints(ctx, fixed)
    drop = ctx.work / "share" / "drops" / "quiz_current.zip"
    ctx.note("(last week's drop: labels Sydney and 208)")
    quiz_zip(ctx, drop, UNZIP_PAIRS_OLD)
    code1 = ctx.sh(f"cd {run} && unzip {drop} -d data", "logs/unpack_last_week.log", timeout=60)
    ctx.note("(this week's drop: Canberra and 206)")
    quiz_zip(ctx, drop, fixed)
    url, _ = ctx.policy(better, "--latency-ms 20")
    body = f"unzip {drop} -d data\necho \"unzip exit $?\"\n" + pipeline_lines(url, data="data/string_match.jsonl")
    code = run_eval(ctx, body, "weekly eval: unpack this week's drop, then materialize, collect, profile")
    labels = [r["expected_answer"] for r in rows_of(run / "data" / "string_match.jsonl")]
    got = rows_of(run / "rollouts.jsonl")
    stale = labelled(got, *UNZIP_FIXED)
    others = [r for r in got if r not in stale]
    if code1 or code or "Sydney" not in labels or len(stale) != 6 or any(rewards(stale)) or not any(rewards(others)) \
            or "[N]one" not in log_of(ctx, "run_eval.log"):
        raise failed(ctx, f"exit {code1}/{code}, {labels}, {rewards(stale)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"WORK/share/drops/quiz_current.zip (last week: Sydney, 208; this week: Canberra, 206); last week's "
            f"unpack exit {code1}; RUN/run_eval.sh (`unzip $DROP -d data` without -o, materialize 6 x 3, collect, "
            f"profile) exit {code}; labels used {labels}; rewards of the two stale labels {rewards(stale)}, others "
            f"mean {mean_of(others):.2f}.")


# =====================================================================================================
# config
# =====================================================================================================

EVAL_ENV_IN = """# eval.env.in: settings of the weekly eval; run_eval.sh fills in this week's model server
MODEL_URL=@MODEL_URL@
REPEATS=3
CONCURRENCY=4
"""

SED_BODY = """URL="{url}"   # this week's policy server (from the serve step)
sed "s/@MODEL_URL@/$URL/" eval.env.in > eval.env
source eval.env
echo "eval: model ${{MODEL_URL:-http://127.0.0.1:8000/v1}}, repeats ${{REPEATS:-3}}, concurrency ${{CONCURRENCY:-4}}"
{gp} materialize --input string_match.jsonl --num-repeats ${{REPEATS:-3}} --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
{gp} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl \\
  --model-url "${{MODEL_URL:-http://127.0.0.1:8000/v1}}" --env string_match --concurrency ${{CONCURRENCY:-4}}
{gp} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "config_builtin_settings_rendered_with_sed_slash_delimiter_that_the_model_urls_slashes_break",
    "config",
    ["sed", "delimiter", "eval.env", "MODEL_URL"],
    "the user's run_eval.sh fills this week's model URL into its settings with `sed \"s/@MODEL_URL@/$URL/\" "
    "eval.env.in > eval.env`; the URL's own slashes end the s command early (sed: unknown option to `s'), so "
    "eval.env was left empty, MODEL_URL unset, and collect fell back to the script's default "
    "http://127.0.0.1:8000/v1 where nothing listens, although this week's policy server was up",
    netns=True,
)
def config_builtin_settings_rendered_with_sed_slash_delimiter_that_the_model_urls_slashes_break(ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 64)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "eval.env.in").write_text(EVAL_ENV_IN)
    code = run_eval(ctx, SED_BODY.format(url=url, gp=GP), "weekly eval, settings from eval.env.in")
    log = log_of(ctx, "run_eval.log")
    if "unknown option to `s'" not in log or "127.0.0.1:8000" not in log or complete(ctx) \
            or text_of(run / "eval.env").strip():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/eval.env.in (MODEL_URL=@MODEL_URL@); RUN/run_eval.sh (sed \"s/@MODEL_URL@/$URL/\" with URL "
            f"{url}, source eval.env, materialize, collect, profile) exit {code}; eval.env empty; collect used "
            f"http://127.0.0.1:8000/v1; {complete(ctx)} of 18 rollouts.")


# =====================================================================================================
# model_serving
# =====================================================================================================

TEE_BODY = """# compare the new checkpoint with the baseline, both served on the eval port {port}
PORT={port}
URL=http://127.0.0.1:$PORT/v1
wait_server() {{ for i in $(seq 1 40); do curl -sf $URL/models > /dev/null && return 0; sleep 0.5; done; return 1; }}
{gp} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl

echo "== baseline: step_0100"
{gp} serve-policy --port $PORT --checkpoint {ckpts}/step_0100 --latency-ms 20 2>&1 | tee -a logs/model_server_baseline.log &
SERVER=$!
wait_server
{gp} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts_baseline.jsonl --model-url $URL \\
  --env string_match --concurrency 4
kill $SERVER   # stop the baseline server
sleep 1

echo "== new checkpoint: step_0200"
{gp} serve-policy --port $PORT --checkpoint {ckpts}/step_0200 --latency-ms 20 2>&1 | tee -a logs/model_server.log &
SERVER=$!
wait_server
{gp} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $URL \\
  --env string_match --concurrency 4
{gp} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
kill $SERVER
"""


@case(
    "model_serving_builtin_baseline_server_stopped_with_kill_of_dollar_bang_which_is_tee_so_new_checkpoint_never_binds",
    "model_serving",
    ["kill", "$!", "tee", "port"],
    "the user's run_eval.sh serves the baseline step_0100 with `serve-policy ... | tee -a log &` and stops it with "
    "`kill $!`; in a pipeline $! is the PID of its last command, tee, so only tee was killed and the baseline "
    "server kept the eval port; the new step_0200 server could not bind it (address already in use) and exited, "
    "the readiness check was answered by the baseline server, and the 'new checkpoint' rollouts and profile "
    "are step_0100's (every eval command exits 0)",
)
def model_serving_builtin_baseline_server_stopped_with_kill_of_dollar_bang_which_is_tee_so_new_checkpoint_never_binds(
        ctx: Ctx) -> str:
    run = ctx.run
    (run / "logs").mkdir(exist_ok=True)
    _, (older, better) = builtin_rows(ctx, 6, 70)
    port = free_port()
    try:
        code = run_eval(ctx, TEE_BODY.format(port=port, gp=GP, ckpts=better.parent),
                        "weekly comparison: baseline checkpoint, then the new one", timeout=300)
    finally:
        left = listening_pids(port)
        kill_pids(left)
    new_log = text_of(run / "logs" / "model_server.log").lower()
    baseline_log = text_of(run / "logs" / "model_server_baseline.log")
    got = rows_of(run / "rollouts.jsonl")
    fingerprints = {r.get("response", {}).get("system_fingerprint") for r in got} if got else set()
    if "address already in use" not in new_log or complete(ctx) != 18 or not left or "step 100" not in baseline_log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {left}: {new_log[-800:]} {log_of(ctx, 'run_eval.log')[-800:]}")
    return (f"RUN/run_eval.sh (serve-policy step_0100 | tee &, collect, `kill $!`, serve-policy step_0200 | tee & on "
            f"the same port, collect, profile) exit {code}; the step_0200 server exited (address already in use); "
            f"the baseline server was still listening at the end (killed by the recipe); {complete(ctx)} rollouts "
            f"(fingerprints {sorted(str(f) for f in fingerprints)[:2]}), mean reward {mean_of(got):.2f}.")


# =====================================================================================================
# infra
# =====================================================================================================


@case(
    "infra_docker_collect_container_template_mounts_volumes_from_eval_cache_container_absent_on_this_node",
    "infra",
    ["--volumes-from", "container", "template"],
    "the user's run_eval.sh runs collect in a container from the team's `docker run` template, which adds "
    "`--volumes-from h81-eval-cache` to share the cache volumes of the data container kept on the old eval nodes; "
    "no container of that name exists on this node, so Docker refused to create the collect container ('No such "
    "container'), collect never ran and profile found no rollouts",
)
def infra_docker_collect_container_template_mounts_volumes_from_eval_cache_container_absent_on_this_node(
        ctx: Ctx) -> str:
    _, (_, better) = builtin_rows(ctx, 6, 76)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h81-collect-{free_port()}"
    remove_container("h81-eval-cache")
    script = docker_collect_script(ctx, url, name, "--volumes-from h81-eval-cache",
                                   "collect runs in the eval container (team template flags)")
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if "h81-eval-cache" not in log or "collect container exit: 0" in log or complete(ctx):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run --volumes-from h81-eval-cache ... "
            f"gym-pipeline/base:bookworm python -m gym_pipeline.cli collect`, profile) exit {code}; Docker found no "
            f"container h81-eval-cache; {complete(ctx)} rollouts.")


if __name__ == "__main__":
    sys.exit(main("eighty_first_held_out", __file__, __doc__))
