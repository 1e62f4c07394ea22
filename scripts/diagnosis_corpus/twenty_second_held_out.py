"""Build the TWENTY-SECOND HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/twenty_second_held_out.py --out tests/data/diagnosis_corpus/twenty_second_held_out [--only CASE ...]

This set was written from the guides alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder
troubleshooting guide, docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests
or their results. It is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
workspace verifiers, task folders run in Docker sandboxes, a Slurm job array, the real NeMo Gym 0.7.0 (`gym env
start` / `gym eval run` / `gym eval profile` inside a loopback-only network namespace, with a user's own resources
server), and the user's own shell scripts, Makefiles, settings files, data-preparation scripts and a small reverse
proxy in front of the model server. The output of every command is captured as a user would (`cmd 2>&1 | tee
RUN/x.log`); nothing in a run folder is written by hand but the user's own inputs (data, scripts, settings, verifier
code). Each case injects one cause, different in mechanism from those of the twenty-one earlier sets, and each recipe
checks that its fault really happened (it raises RecipeError otherwise, and the case is not written). More than half
of the failures are silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare,
mount), Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this checkout. Run it from a foreground shell.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighteenth_held_out import task_rewards  # noqa: E402
from eighth_held_out import (  # noqa: E402
    agent_args,
    checkpoints,
    collect_sh,
    failed,
    gym_profile,
    gym_setup,
    gym_start,
    profile_sh,
    served,
    stage,
    stage_argv,
    stop_gym,
    task_checkpoints,
    user_taskset,
    workspace_sweep,
    write_sweep,
)
from fourteenth_held_out import mean, rewards  # noqa: E402
from ninth_held_out import own_gym_server, taskset_sweep  # noqa: E402
from recipes import (  # noqa: E402
    GP,
    GYM,
    PY,
    Ctx,
    case,
    gym_eval,
    gym_model_args,
    main,
    materialize,
    rows_of,
    text_of,
    unique_keys,
    wait_for,
)
from seventeenth_held_out import taskset_run  # noqa: E402
from tenth_held_out import in_log  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def bundled(env: str, start: int, n: int) -> list[dict]:
    lines = (recipes.DATA / f"{env}.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines[start:start + n]]


def response_text(row: dict) -> str:
    parts = []
    for item in (row.get("response") or {}).get("output") or []:
        for content in item.get("content") or []:
            parts.append(str(content.get("text") or ""))
    return "\n".join(parts)


def pipeline_lines(data: str, repeats: int, url: str, concurrency: int) -> list[str]:
    """The three built-in commands a user's script runs from its run folder."""
    return [f"{GP} materialize --input {data} --num-repeats {repeats} --agent string_match_simple_agent "
            "--output rollouts_materialized_inputs.jsonl",
            f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {url} "
            f"--env string_match --concurrency {concurrency}",
            f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl"]


def question_row(question: str, answer) -> dict:
    text = f"{question} End your response with 'Final answer: <answer>'."
    return {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}


PROXY = '''"""A small reverse proxy in front of the model server (access log, timeouts and a cache, like our nginx)."""
import json
import sys
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, HTTPServer, ThreadingHTTPServer

settings = {}
for line in open(sys.argv[1]):
    line = line.split("#")[0].strip()
    if line:
        key, value = line.split(None, 1)
        settings[key] = value.strip()
UPSTREAM = settings["upstream"].rstrip("/")
READ_TIMEOUT = float(settings.get("proxy_read_timeout", "60"))
CACHE_METHODS = settings.get("proxy_cache_methods", "GET").split()
CACHE = {}
LOCK = threading.Lock()


class Proxy(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def _forward(self, method):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0)) if method == "POST" else None
        key = (method, self.path)  # proxy_cache_key $request_uri
        with LOCK:
            hit = CACHE.get(key) if method in CACHE_METHODS else None
        if hit is not None:
            status, payload, kind = hit
            self._send(status, payload, kind, "HIT")
            return
        request = urllib.request.Request(UPSTREAM + self.path, data=body, method=method,
                                         headers={"Content-Type": self.headers.get("Content-Type", "application/json"),
                                                  "Authorization": self.headers.get("Authorization", "")})
        try:
            with urllib.request.urlopen(request, timeout=READ_TIMEOUT) as answer:
                status, payload, kind = answer.status, answer.read(), answer.headers.get("Content-Type", "")
        except urllib.error.HTTPError as error:
            status, payload, kind = error.code, error.read(), error.headers.get("Content-Type", "")
        except (TimeoutError, OSError) as error:
            print(f"upstream timed out ({error}) while reading response header from upstream, request: "
                  f"\\"{method} {self.path}\\", upstream: \\"{UPSTREAM}{self.path}\\"", flush=True)
            status, kind = 504, "application/json"
            payload = json.dumps({"error": {"message": "504 Gateway Time-out", "code": 504}}).encode()
        if method in CACHE_METHODS and status == 200:
            with LOCK:
                CACHE[key] = (status, payload, kind)
        self._send(status, payload, kind, "MISS")

    def _send(self, status, payload, kind, cache):
        self.send_response(status)
        self.send_header("Content-Type", kind or "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("X-Cache-Status", cache)
        self.end_headers()
        self.wfile.write(payload)

    def do_GET(self):
        self._forward("GET")

    def do_POST(self):
        self._forward("POST")

    def log_message(self, fmt, *args):
        print("%s - %s" % (self.address_string(), fmt % args), flush=True)


# worker_connections 1: one client connection served at a time (like a single nginx worker with 1 connection)
server_class = HTTPServer if settings.get("worker_connections") == "1" else ThreadingHTTPServer
server = server_class(("127.0.0.1", int(settings.get("listen", "0"))), Proxy)
url = f"http://127.0.0.1:{server.server_address[1]}/v1"
print(f"proxy listening on {url} -> {UPSTREAM}", flush=True)
with open(sys.argv[2], "w") as ready:
    ready.write(url)
server.serve_forever()
'''


def start_proxy(ctx: Ctx, conf: str) -> str:
    (ctx.run / "proxy.py").write_text(PROXY)
    (ctx.run / "proxy.conf").write_text(conf)
    ready = ctx.work / "proxy_url"
    ctx.bg(f"cd {ctx.run} && python3 proxy.py proxy.conf {ready}", "logs/proxy.log")
    wait_for(lambda: ready.exists() and ready.read_text().strip() != "", 20, "the proxy")
    return ready.read_text().strip()


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_builtin_run_script_probes_gpus_on_cpu_only_node",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh, copied from the GPU cluster, starts with a hardware probe "
    "(`nvidia-smi` and `python3 -c 'import torch; torch.cuda.is_available()'`); this CPU-only eval node has neither, "
    "so the log opens with 'nvidia-smi: command not found' and a ModuleNotFoundError traceback; the model is served "
    "elsewhere, and materialize, collect and profile completed every rollout",
)
def healthy_builtin_run_script_probes_gpus_on_cpu_only_node(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 7, 3)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# eval of the trivia set (copied from the GPU cluster's scripts)\n"
                      f"cd {run}\necho \"== hardware on $(hostname)\"\n"
                      "nvidia-smi --query-gpu=name,memory.used,memory.total --format=csv\n"
                      "python3 -c 'import torch; print(\"cuda:\", torch.cuda.is_available())'\n"
                      "echo \"== eval\"\n" + "\n".join(pipeline_lines("string_match.jsonl", 3, url, 4)) + "\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code or got != 21 or not in_log(ctx, "nvidia-smi", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (nvidia-smi and a torch probe on a CPU-only node, then materialize 7 tasks x 3, collect, "
            f"profile) exit {code}, {got} rollouts, mean reward {mean(rewards(rows_of(run / 'rollouts.jsonl'))):.2f}.")


PY2_TOOL = '''#!/usr/bin/env python
# merge_old_exports.py (2019): merges the v0 exports; kept for reference
import json, sys
for name in sys.argv[1:]:
    for line in open(name):
        print json.dumps(json.loads(line))
'''


@case(
    "healthy_builtin_run_script_byte_compiles_legacy_python2_tools",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh byte-compiles the team's tools/ folder as a sanity check "
    "(`python3 -m compileall -q tools/`), and tools/merge_old_exports.py is a Python 2 script kept for reference, so "
    "every log shows 'SyntaxError: Missing parentheses in call to print'; that tool is never used, and materialize, "
    "collect and profile completed every rollout",
)
def healthy_builtin_run_script_byte_compiles_legacy_python2_tools(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 6, 70)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "tools").mkdir()
    (run / "tools" / "merge_old_exports.py").write_text(PY2_TOOL)
    (run / "tools" / "count_rows.py").write_text("import sys\n\nprint(sum(1 for _ in open(sys.argv[1])))\n")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval\n"
                      f"cd {run}\necho \"== checking tools\"\npython3 -m compileall -q tools/\n"
                      "python3 tools/count_rows.py string_match.jsonl\n"
                      + "\n".join(pipeline_lines("string_match.jsonl", 3, url, 4)) + "\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code or got != 18 or not in_log(ctx, "SyntaxError", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_eval.sh (compileall of RUN/tools with a Python 2 script, then materialize 6 tasks x 3, collect, "
            f"profile) exit {code}, {got} rollouts.")


@case(
    "healthy_gym_run_script_records_git_commit_outside_repository",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh records the code version with `git rev-parse HEAD` and `git status` "
    "before the eval, but the eval folder is not a git checkout, so the log starts with 'fatal: not a git repository'; "
    "the real NeMo Gym eval then collected, verified and profiled every rollout",
    netns=True,
)
def healthy_gym_run_script_records_git_commit_outside_repository(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 6, 20, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = ctx.work / "home" / "evaluser" / "trivia_eval"  # the eval code, copied over with scp (no .git)
    code.mkdir(parents=True)
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# eval with provenance\n"
                      f"cd {code}\necho \"code version: $(git rev-parse --short HEAD)\"\ngit status --short\n"
                      f"cd {run}\n"
                      f"{GYM} eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl "
                      f"--output results/rollouts.jsonl --num-repeats 3 --concurrency 4 "
                      f"++route_failures_to_sidecar=true {overrides}\n"
                      f"{GYM} eval profile --inputs results/rollouts_materialized_inputs.jsonl "
                      "--rollouts results/rollouts.jsonl\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    stop_gym(ctx, env_start, policy)
    got = len(unique_keys(run / "results" / "rollouts.jsonl"))
    if "code version: \n" not in text_of(run / "logs" / "run_eval.log"):
        raise failed(ctx, "git found a repository")
    if code or got != 18 or not in_log(ctx, "not a git repository", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): RUN/run_eval.sh (git rev-parse outside a repository, "
            f"`gym eval run --no-serve` 6 tasks x 3, `gym eval profile`) exit {code}, {got} rollouts.")


@case(
    "healthy_taskfolder_script_validates_task_toml_without_toml_module",
    "healthy",
    [],
    "nothing is wrong: the user's run_tasks.sh validates every task.toml with `python3 -c 'import toml; ...'` first; "
    "the toml package is not installed for the system Python, so each check prints a ModuleNotFoundError traceback "
    "and 'could not validate'; the taskset (csv-column-total, top-word) then ran in its sandboxes and every episode "
    "completed, was verified and profiled",
)
def healthy_taskfolder_script_validates_task_toml_without_toml_module(ctx: Ctx) -> str:
    run = ctx.run
    tasks = user_taskset(ctx, ["csv-column-total", "top-word"])
    checkpoint = task_checkpoints(ctx, tasks)[1]
    url, _ = ctx.policy(checkpoint, "--latency-ms 30")
    sweep = taskset_sweep(ctx, tasks, checkpoint, num_repeats=2, concurrency=2)
    lines = ["#!/bin/bash", "# nightly taskset run", f"cd {run}", "echo '== validating task.toml files'",
             "for f in tasks/*/task.toml; do",
             "  python3 -c 'import sys, toml; toml.load(sys.argv[1])' \"$f\" || echo \"could not validate $f\"",
             "done"]
    for key, extra in (("materialize", ()), ("collect", served(url)), ("profile", ())):
        lines += [f"echo '== {key}'", shlex.join(stage_argv(sweep, key, checkpoint, "terminal_tasks", *extra))]
    script = run / "run_tasks.sh"
    script.write_text("\n".join(lines) + "\n")
    code = ctx.sh(f"bash {script}", "logs/run_tasks.log", timeout=900)
    got = len(unique_keys(run / "rollouts.jsonl"))
    if code or got != 4 or not in_log(ctx, "ModuleNotFoundError", "logs/run_tasks.log"):
        raise failed(ctx, f"exit {code}, {got}")
    return (f"RUN/run_tasks.sh (toml checks without the toml module, then `gym-pipeline stage` materialize, collect, "
            f"profile of RUN/tasks: csv-column-total, top-word x 2) exit {code}; rewards "
            f"{rewards(rows_of(run / 'rollouts.jsonl'))}.")


THROTTLED_SBATCH = """#!/bin/bash
#SBATCH --job-name=collect-shards
#SBATCH --array=0-3%1
#SBATCH --output=RUN_DIR/logs/collect_shard_%a.log
#SBATCH --time=10
# one array task per shard, one at a time (the model server is small)
SHARD=$SLURM_ARRAY_TASK_ID
cd RUN_DIR/shards/$SHARD
echo "shard $SHARD on $(hostname)"
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 3
"""

WATCH = """#!/bin/bash
# submit the shard array and watch it until it is done
JOB=$(sbatch --parsable RUN_DIR/collect_shards.sbatch)
echo "submitted array job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do
  squeue -r -h -j $JOB -o "%i %T %r"
  sleep 2
done
sacct -j $JOB 2>&1 | head -3
echo "array job $JOB finished"
"""


@case(
    "healthy_slurm_shard_array_throttled_pending_on_task_limit",
    "healthy",
    [],
    "nothing is wrong: the user collects four shards as a Slurm job array throttled to one task at a time "
    "(`--array=0-3%1`, the model server is small) and watches it with squeue, so the log is full of PENDING tasks "
    "with the reason JobArrayTaskLimit (and sacct complains that accounting is disabled); each shard ran in turn and "
    "every rollout was collected and profiled",
)
def healthy_slurm_shard_array_throttled_pending_on_task_limit(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 12, 20)
    url, _ = ctx.policy(better, "--latency-ms 200 --max-running 2 --max-waiting 4")
    lines = data.read_text().splitlines(keepends=True)
    for shard in range(4):
        folder = run / "shards" / str(shard)
        folder.mkdir(parents=True)
        (folder / "tasks.jsonl").write_text("".join(lines[shard * 3:(shard + 1) * 3]))
        made = ctx.sh(f"cd {folder} && {GP} materialize --input tasks.jsonl --num-repeats 3 --agent "
                      "string_match_simple_agent --output rollouts_materialized_inputs.jsonl", "logs/prepare_shards.log")
        if made:
            raise failed(ctx, f"materialize {made}")
    (run / "collect_shards.sbatch").write_text(THROTTLED_SBATCH.replace("RUN_DIR", str(run)).replace(
        "GP_BIN", str(GP)).replace("MODEL_URL", url))
    (run / "submit_and_watch.sh").write_text(WATCH.replace("RUN_DIR", str(run)))
    watched = ctx.sh(f"bash {run}/submit_and_watch.sh", "logs/submit_and_watch.log", timeout=600)
    profiles = [ctx.sh(f"cd {run}/shards/{shard} && {GP} profile --inputs rollouts_materialized_inputs.jsonl "
                       "--rollouts rollouts.jsonl", f"logs/profile_shard_{shard}.log", timeout=300) for shard in range(4)]
    got = sum(len(unique_keys(run / "shards" / str(shard) / "rollouts.jsonl")) for shard in range(4))
    if watched or any(profiles) or got != 36 or not in_log(ctx, "JobArrayTaskLimit", "logs/submit_and_watch.log"):
        raise failed(ctx, f"watch {watched}, profiles {profiles}, {got}")
    return (f"4 shards x 3 tasks x 3 materialized; RUN/submit_and_watch.sh (sbatch of RUN/collect_shards.sbatch, "
            f"--array=0-3%1, watched with squeue -r) exit {watched}; {got} of 36 rollouts; profiles exit {profiles}.")


# =====================================================================================================
# config
# =====================================================================================================


@case(
    "config_builtin_settings_read_in_piped_while_loop_are_lost",
    "config",
    ["eval.conf"],
    "the user's run_eval.sh reads its settings from eval.conf with `grep -v '^#' eval.conf | while read key value; "
    "do declare ...; done`; the loop runs in a pipeline subshell, so REPEATS=5 and CONCURRENCY=4 are lost when it ends "
    "and the script's quick-check defaults (1 repeat, concurrency 1) are used: the report has one rollout per task "
    "and its pass@k and variance mean nothing (everything exits 0)",
)
def config_builtin_settings_read_in_piped_while_loop_are_lost(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 0)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "eval.conf").write_text("# eval settings (key value)\nREPEATS 5\nCONCURRENCY 4\n")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval; settings in eval.conf\n"
                      f"cd {run}\nREPEATS=1      # quick-check defaults\nCONCURRENCY=1\n"
                      "grep -v '^#' eval.conf | while read key value; do\n"
                      "  echo \"setting $key=$value\"\n  declare \"$key=$value\"\ndone\n"
                      "echo \"eval with $REPEATS repeat(s), concurrency $CONCURRENCY\"\n"
                      + "\n".join(pipeline_lines("string_match.jsonl", "$REPEATS", url, "$CONCURRENCY")) + "\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    if code or len(got) != 8 or not in_log(ctx, "setting REPEATS=5", "logs/run_eval.log"):
        raise failed(ctx, f"exit {code}, {len(got)}")
    return (f"RUN/eval.conf (REPEATS 5, CONCURRENCY 4) read by a piped `while read` loop in RUN/run_eval.sh; exit "
            f"{code}; {len(got)} rollouts for 8 tasks (1 repeat), mean reward {mean(rewards(got)):.2f}.")


@case(
    "config_gym_eval_script_sources_defaults_after_parsing_arguments",
    "config",
    ["defaults.env"],
    "the user's run_eval.sh parses --repeats and --concurrency from its command line and only then sources "
    "defaults.env, which sets REPEATS=1 and CONCURRENCY=2 unconditionally: `bash run_eval.sh --repeats 4 "
    "--concurrency 8` ran `gym eval run --num-repeats 1`, so the profile's pass@4 and per-task variance come from a "
    "single rollout per task (everything exits 0)",
    netns=True,
)
def config_gym_eval_script_sources_defaults_after_parsing_arguments(ctx: Ctx) -> str:
    run = ctx.run
    data, url, policy, overrides = gym_setup(ctx, "string_match", 8, 30, "--latency-ms 30")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    (run / "defaults.env").write_text("# team defaults for evals\nREPEATS=1\nCONCURRENCY=2\nOUT=results\n")
    script = run / "run_eval.sh"
    script.write_text(
        "#!/bin/bash\n# usage: run_eval.sh [--repeats N] [--concurrency N]\n"
        f"cd {run}\nwhile [ $# -gt 0 ]; do\n  case $1 in\n    --repeats) REPEATS=$2; shift 2;;\n"
        "    --concurrency) CONCURRENCY=$2; shift 2;;\n    *) echo \"unknown option $1\"; exit 2;;\n  esac\ndone\n"
        "source defaults.env\necho \"eval: $REPEATS repeats, concurrency $CONCURRENCY -> $OUT\"\n"
        f"{GYM} eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output $OUT/rollouts.jsonl "
        f"--num-repeats $REPEATS --concurrency $CONCURRENCY ++route_failures_to_sidecar=true {overrides}\n"
        f"{GYM} eval profile --inputs $OUT/rollouts_materialized_inputs.jsonl --rollouts $OUT/rollouts.jsonl\n")
    code = ctx.sh(f"bash {script} --repeats 4 --concurrency 8", "logs/run_eval.log", timeout=400)
    stop_gym(ctx, env_start, policy)
    got = rows_of(run / "results" / "rollouts.jsonl")
    if code or len(got) != 8:
        raise failed(ctx, f"exit {code}, {len(got)}")
    return (f"real NeMo Gym 0.7.0 (loopback-only namespace): `bash RUN/run_eval.sh --repeats 4 --concurrency 8`, which "
            f"sources RUN/defaults.env (REPEATS=1) after parsing; exit {code}, {len(got)} rollouts for 8 tasks, mean "
            f"reward {mean(rewards(got)):.2f}.")


SAMPLE_SCRIPT = """#!/bin/bash
# weekly eval; big sets (over 100 tasks) are evaluated on a fixed 10-task sample to save time
cd RUN_DIR
DATA=data/trivia.jsonl
N=$(wc -l < $DATA)
if [ $N > 100 ]; then
  echo "$N tasks: large set, evaluating a fixed 10-task sample"
  shuf -n 10 --random-source=<(yes) $DATA > eval_tasks.jsonl
else
  echo "$N tasks: evaluating all of them"
  cp $DATA eval_tasks.jsonl
fi
"""


@case(
    "config_builtin_run_script_size_test_written_with_redirect",
    "config",
    ["run_eval.sh"],
    "the user's run_eval.sh samples 10 tasks when the set has over 100 with `if [ $N > 100 ]`; inside [ ], `>` is a "
    "redirection (it creates an empty file named 100) and the test is always true, so the 24-task trivia set was cut "
    "to a 10-task sample and the report covers 10 of the 24 tasks (everything exits 0)",
)
def config_builtin_run_script_size_test_written_with_redirect(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 24, start=30, folder=run / "data", name="trivia.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text(SAMPLE_SCRIPT.replace("RUN_DIR", str(run))
                      + "\n".join(pipeline_lines("eval_tasks.jsonl", 3, url, 4)) + "\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = rows_of(run / "rollouts.jsonl")
    if code or len(got) != 30 or not (run / "100").exists():
        raise failed(ctx, f"exit {code}, {len(got)}")
    return (f"RUN/data/trivia.jsonl (24 tasks); RUN/run_eval.sh (`if [ $N > 100 ]`, then materialize x 3, collect, "
            f"profile) exit {code}; {len(got)} rollouts (10 tasks), mean reward {mean(rewards(got)):.2f}; an empty file "
            f"RUN/100 was created.")


# =====================================================================================================
# data_schema
# =====================================================================================================

QUESTIONS_YAML = """# reviewed QA set (edit here, then: python convert_yaml.py questions.yaml qa.jsonl)
- question: Is 91 a prime number? Answer yes or no.
  answer: no
- question: Is the Pacific the largest ocean on Earth? Answer yes or no.
  answer: yes
- question: What is the two-letter ISO 3166 country code of Norway?
  answer: NO
- question: A light switch that closes the circuit is in which position, on or off?
  answer: on
- question: What is the capital of France?
  answer: Paris
- question: What is the chemical symbol of gold?
  answer: Au
- question: Which planet is known as the Red Planet?
  answer: Mars
- question: What is the largest planet of the solar system?
  answer: Jupiter
"""

CONVERT_YAML = '''"""Convert the reviewed QA set (YAML) to the JSONL rows of the eval."""
import json
import sys

import yaml

items = yaml.safe_load(open(sys.argv[1]))
with open(sys.argv[2], "w") as out:
    for item in items:
        text = f"{item['question']} End your response with 'Final answer: <answer>'."
        row = {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                      "content": [{"type": "input_text", "text": text}]}]},
               "expected_answer": item["answer"], "extraction_mode": "final_answer", "case_sensitive": False}
        out.write(json.dumps(row) + "\\n")
print(f"wrote {len(items)} rows to {sys.argv[2]}")
'''


@case(
    "data_schema_builtin_labels_converted_from_yaml_become_booleans",
    "data_schema",
    ["questions.yaml"],
    "the QA set is kept in questions.yaml and converted to JSONL by convert_yaml.py (yaml.safe_load); YAML 1.1 reads "
    "the unquoted answers no, yes, NO (Norway's country code) and on as booleans, so qa.jsonl has expected_answer "
    "false/true for those four tasks; their rollouts cannot be scored (the verifier expects a string label) and count "
    "as reward 0, though the model answered them (every command exits 0)",
)
def data_schema_builtin_labels_converted_from_yaml_become_booleans(ctx: Ctx) -> str:
    import yaml

    run = ctx.run
    (run / "questions.yaml").write_text(QUESTIONS_YAML)
    (run / "convert_yaml.py").write_text(CONVERT_YAML)
    meant = [question_row(item["question"], answer) for item, answer in zip(
        yaml.safe_load(QUESTIONS_YAML), ["no", "yes", "NO", "on", "Paris", "Au", "Mars", "Jupiter"], strict=True)]
    better = checkpoints(ctx, "string_match", write_jsonl(ctx.work / "meant.jsonl", meant))[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    converted = ctx.sh(f"cd {run} && {PY} convert_yaml.py questions.yaml qa.jsonl", "logs/convert.log")
    made = ctx.sh(f"cd {run} && {GP} materialize --input qa.jsonl --num-repeats 3 --agent string_match_simple_agent "
                  "--output rollouts_materialized_inputs.jsonl", "logs/materialize.log")
    collected = collect_sh(ctx, url, "string_match", 4)
    profiled = profile_sh(ctx)
    labels = [row["expected_answer"] for row in rows_of(run / "qa.jsonl")]
    got = rows_of(run / "rollouts.jsonl")
    booleans = [row for row in got if row.get("_ng_task_index", 9) < 4]
    if converted or sum(isinstance(label, bool) for label in labels) != 4 or made or any(rewards(booleans)):
        raise failed(ctx, f"convert {converted}, materialize {made}, collect {collected}, labels {labels}")
    return (f"RUN/questions.yaml (8 QA items, 4 unquoted yes/no/NO/on answers); RUN/convert_yaml.py -> RUN/qa.jsonl "
            f"(labels {labels}); materialize x 3 exit {made}; collect exit {collected}, {len(got)} rollouts, mean reward "
            f"{mean(rewards(got)):.2f}, rewards of the boolean-labelled tasks {rewards(booleans)}; profile exit "
            f"{profiled}.")


FIX_LABELS = """#!/bin/bash
# apply the reviewers' label corrections (corrections.tsv: line number, corrected label) to tasks.jsonl
cd RUN_DIR
while IFS=$'\\t' read -r line label; do
  sed -i "${line}s/^{/{\\"expected_answer\\": \\"${label}\\", /" tasks.jsonl
  echo "line $line: expected_answer -> $label"
done < corrections.tsv
echo "checking: $(jq -c . tasks.jsonl | wc -l) valid rows"
"""


@case(
    "data_schema_gym_relabel_script_prepends_key_shadowed_by_original",
    "data_schema",
    ["fix_labels.sh"],
    "the user's fix_labels.sh applies the reviewers' label corrections by inserting a new \"expected_answer\" key at "
    "the start of each corrected row with sed, without removing the old one; every row stays valid JSON (jq agrees), "
    "but a JSON object's later duplicate key wins, so the three corrected tasks are still scored against their old "
    "wrong labels and the model's right answers score 0 (everything exits 0)",
    netns=True,
)
def data_schema_gym_relabel_script_prepends_key_shadowed_by_original(ctx: Ctx) -> str:
    run = ctx.run
    rows = [row for row in bundled("string_match", 0, 60) if not str(row["expected_answer"]).isdigit()][:10]
    right = write_jsonl(ctx.work / "right.jsonl", rows)
    better = checkpoints(ctx, "string_match", right)[1]
    wrong = json.loads(json.dumps(rows))
    fixes = {2: "x", 5: "x", 8: "x"}
    for index in fixes:
        fixes[index] = rows[index]["expected_answer"]
        wrong[index]["expected_answer"] = rows[(index + 3) % len(rows)]["expected_answer"]
    data = write_jsonl(run / "tasks.jsonl", wrong)
    (run / "corrections.tsv").write_text("".join(f"{index + 1}\t{label}\n" for index, label in fixes.items()))
    (run / "fix_labels.sh").write_text(FIX_LABELS.replace("RUN_DIR", str(run)))
    fixed = ctx.sh(f"bash {run}/fix_labels.sh", "logs/fix_labels.log")
    url, policy = ctx.policy(better, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    code = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 3, 4))
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    got = rows_of(run / "results" / "rollouts.jsonl")
    corrected = [row for row in got if row.get("_ng_task_index") in fixes]
    if fixed or code or profiled or len(got) != 30 or any(rewards(corrected)):
        raise failed(ctx, f"fix {fixed}, eval {code}, profile {profiled}, {len(got)}, corrected {rewards(corrected)}")
    return (f"RUN/tasks.jsonl (10 tasks, 3 wrong labels), RUN/corrections.tsv, RUN/fix_labels.sh (sed prepends a "
            f"second expected_answer key) exit {fixed}; real NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run "
            f"--no-serve` x 3 exit {code}, {len(got)} rollouts, mean reward {mean(rewards(got)):.2f}, corrected tasks' "
            f"rewards {rewards(corrected)}; `gym eval profile` exit {profiled}.")


@case(
    "data_schema_taskfolder_sales_csv_resaved_with_semicolon_separators",
    "data_schema",
    ["sales.csv"],
    "the user opened csv-column-total's environment/sales.csv in a spreadsheet with a German locale to check it and "
    "saved it back: the file is now separated by semicolons, so the task's comma-separated column cannot be summed "
    "(the agent's awk -F, finds no third field), total.txt is empty and every csv-column-total episode fails its test "
    "(everything exits 0)",
)
def data_schema_taskfolder_sales_csv_resaved_with_semicolon_separators(ctx: Ctx) -> str:
    run = ctx.run

    def resaved(tasks: Path) -> None:
        sales = tasks / "csv-column-total" / "environment" / "sales.csv"
        sales.write_text(sales.read_text().replace(",", ";"))

    tasks, codes = taskset_run(ctx, ["csv-column-total", "sort-unique-words"], resaved)
    csv = task_rewards(run / "rollouts.jsonl", "csv-column-total")
    other = task_rewards(run / "rollouts.jsonl", "sort-unique-words")
    if any(codes) or not csv or any(csv) or not any(other):
        raise failed(ctx, f"exit {codes}, csv-column-total {csv}, sort-unique-words {other}")
    return (f"A sweep with the taskset RUN/tasks (csv-column-total whose environment/sales.csv was re-saved with ';' "
            f"separators; sort-unique-words; x 2); stages exit {codes}; csv-column-total rewards {csv}, "
            f"sort-unique-words {other}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

LETTERS_VERIFIER = '''
"""Our answer check: compare letters only, so 'New-York', 'new york' and 'New York.' all match."""
import re

FINAL = re.compile(r"(?:final answer:|boxed\\{)\\s*([^}\\n]+)", re.IGNORECASE)


def normalise(text):
    return "".join(ch for ch in str(text).lower() if ch.isalpha())


def score(row, response_text):
    match = FINAL.search(response_text)
    answer = match.group(1) if match else response_text.strip().splitlines()[-1]
    return 1.0 if normalise(answer) == normalise(row["expected_answer"]) else 0.0
'''


@case(
    "verifier_runtime_stage_workspace_verifier_keeps_only_letters_so_numbers_always_match",
    "verifier_runtime",
    ["my_verifier.py"],
    "the user's workspace verifier normalises answer and label by keeping letters only (to forgive spaces, hyphens "
    "and punctuation); numeric labels and numeric answers both normalise to the empty string, so every numeric task "
    "scores 1 whatever number the model gives, and step_0100's reward on the arithmetic tasks is 1.0 (everything "
    "exits 0)",
)
def verifier_runtime_stage_workspace_verifier_keeps_only_letters_so_numbers_always_match(ctx: Ctx) -> str:
    run = ctx.run
    rows = bundled("string_match", 0, 60)
    numeric = [row for row in rows if str(row["expected_answer"]).isdigit()][:6]
    words = [row for row in rows if not str(row["expected_answer"]).lstrip("-").isdigit()][:4]
    data = write_jsonl(run / "exact_answer.jsonl", numeric + words)
    checkpoint = checkpoints(ctx, "string_match", data)[0]
    url, _ = ctx.policy(checkpoint, "--latency-ms 20")
    sweep = workspace_sweep(ctx, "exact_answer", data, checkpoint, {"verifier": "my_verifier:score"},
                            LETTERS_VERIFIER, num_repeats=4, concurrency=4)
    codes = [stage(ctx, sweep, "materialize", checkpoint, "exact_answer"),
             stage(ctx, sweep, "collect", checkpoint, "exact_answer", *served(url)),
             stage(ctx, sweep, "profile", checkpoint, "exact_answer")]
    got = rows_of(run / "rollouts.jsonl")
    labels = [str(row["expected_answer"]) for row in numeric + words]
    numeric_rows = [row for row in got if labels[row["_ng_task_index"]].isdigit()]
    wrong_credited = [row for row in numeric_rows if row.get("reward") == 1
                      and labels[row["_ng_task_index"]] not in response_text(row)]
    if any(codes) or len(got) != 40 or not wrong_credited:
        raise failed(ctx, f"exit {codes}, {len(got)} rows, wrong credited {len(wrong_credited)}")
    return (f"workspace verifier RUN/verifiers/my_verifier.py (letters only); RUN/exact_answer.jsonl (6 numeric, 4 word "
            f"labels), checkpoint step_0100; stages exit {codes}; {len(got)} rollouts, mean reward "
            f"{mean(rewards(got)):.2f}, numeric tasks' mean {mean(rewards(numeric_rows)):.2f}, {len(wrong_credited)} "
            f"wrong numbers credited.")


RSTRIP_VERIFY = """
    async def verify(self, body: StringMatchVerifyRequest) -> StringMatchVerifyResponse:
        text = _extract_last_assistant_text(body)
        extracted = _extract_answer(text, body.extraction_mode)
        if extracted is not None:
            # some models write numbers as "120.0" or "120.": drop the trailing ".0"
            extracted = extracted.strip().rstrip(".0")

        reward = 0.0
        if extracted is not None and body.expected_answer:
            reward = _answers_match(extracted, body.expected_answer, body.case_sensitive)

        return StringMatchVerifyResponse(
            **body.model_dump(exclude={"expected_answer", "extracted_answer"}),
            reward=reward,
            expected_answer=body.expected_answer,
            extracted_answer=extracted,
        )
"""


@case(
    "verifier_runtime_gym_verify_rstrip_of_dot_zero_eats_trailing_zeros",
    "verifier_runtime",
    ["rstrip"],
    "the user's numeric_match resources server cleans the extracted answer with `.rstrip(\".0\")` to turn '120.0' "
    "into '120'; rstrip removes any trailing '.' and '0' characters, so a right answer 120 becomes '12' and 5050 "
    "becomes '505': no task whose answer ends in 0 can get full credit whatever the model says (everything exits 0)",
    netns=True,
)
def verifier_runtime_gym_verify_rstrip_of_dot_zero_eats_trailing_zeros(ctx: Ctx) -> str:
    run = ctx.run
    rows = bundled("string_match", 0, 87)
    zeros = [row for row in rows if str(row["expected_answer"]).endswith("0")][:8]
    others = [row for row in rows if str(row["expected_answer"]).isdigit()
              and not str(row["expected_answer"]).endswith("0")][:4]
    data = write_jsonl(run / "tasks.jsonl", zeros + others)
    checkpoint = checkpoints(ctx, "string_match", data)[1]
    url, policy = ctx.policy(checkpoint, "--latency-ms 30", log="policy_server.log")
    overrides = ctx.gym_overrides()
    search = own_gym_server(ctx, "numeric_match", RSTRIP_VERIFY)
    app = search / "resources_servers" / "numeric_match" / "app.py"
    (run / "numeric_match_app.py").write_text(app.read_text())
    env_start = gym_start(ctx, f"--search-dir {search} {gym_model_args(url, resources_server='numeric_match')} "
                               f"{overrides}")
    code = gym_eval(ctx, overrides, agent_args(data, run / "results" / "rollouts.jsonl", 3, 4,
                                               "numeric_match_simple_agent"))
    profiled = gym_profile(ctx, run / "results")
    stop_gym(ctx, env_start, policy)
    got = rows_of(run / "results" / "rollouts.jsonl")
    ending = [row for row in got if str(row.get("expected_answer")).endswith("0")]
    rest = [row for row in got if not str(row.get("expected_answer")).endswith("0")]
    if code or profiled or len(got) != 36 or max(rewards(ending)) >= 1 or mean(rewards(ending)) > 0.2 or not any(
            rewards(rest)):
        raise failed(ctx, f"eval {code}, profile {profiled}, {len(got)}, ending {rewards(ending)}")
    return (f"a user's resources server numeric_match (RUN/numeric_match_app.py: `.rstrip('.0')` on the answer); real "
            f"NeMo Gym 0.7.0 (loopback-only namespace) `gym eval run --no-serve` (12 numeric tasks, 8 ending in 0, x 3) "
            f"exit {code}, {len(got)} rollouts; mean reward of tasks ending in 0 {mean(rewards(ending)):.2f}, of the "
            f"others {mean(rewards(rest)):.2f}; `gym eval profile` exit {profiled}.")


TIDY_TEST = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
cp /app/sorted.txt /logs/verifier/got.txt 2>/dev/null   # kept for debugging failed episodes
printf "apple\\nbanana\\ncherry\\nfig\\npear" > /logs/verifier/want.txt
if test "$(cat /app/sorted.txt 2>/dev/null)" = "$(cat /logs/verifier/want.txt)"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
# tidy up the scratch copies
rm -f /logs/verifier/*.txt
"""


@case(
    "verifier_runtime_taskfolder_test_cleanup_glob_deletes_reward_file",
    "verifier_runtime",
    ["test.sh"],
    "the user's reworked tests/test.sh of sort-unique-words keeps scratch copies (got.txt, want.txt) in "
    "/logs/verifier and ends with `rm -f /logs/verifier/*.txt` to tidy them up; the glob also deletes the reward.txt "
    "it has just written, so no sort-unique-words episode has a reward, whatever the agent did",
)
def verifier_runtime_taskfolder_test_cleanup_glob_deletes_reward_file(ctx: Ctx) -> str:
    run = ctx.run

    def reworked(tasks: Path) -> None:
        (tasks / "sort-unique-words" / "tests" / "test.sh").write_text(TIDY_TEST)

    tasks, codes = taskset_run(ctx, ["sort-unique-words", "top-word"], reworked)
    words = task_rewards(run / "rollouts.jsonl", "sort-unique-words")
    other = task_rewards(run / "rollouts.jsonl", "top-word")
    if any(codes[:1]) or any(words) or not any(other):
        raise failed(ctx, f"exit {codes}, sort-unique-words {words}, top-word {other}")
    return (f"A sweep with the taskset RUN/tasks (sort-unique-words whose tests/test.sh ends with `rm -f "
            f"/logs/verifier/*.txt`; top-word; x 2); stages exit {codes}; sort-unique-words rewards {words}, top-word "
            f"{other}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

MAKEFILE = """# weekly trivia eval: `make report`
GP = GP_BIN
DATA = data/trivia.jsonl
MODEL_URL ?= http://127.0.0.1:8000/v1

rollouts_materialized_inputs.jsonl: $(DATA)
\t$(GP) materialize --input $(DATA) --num-repeats 3 --agent string_match_simple_agent --output $@

rollouts.jsonl: rollouts_materialized_inputs.jsonl
\trm -f rollouts.jsonl
\t$(GP) collect --inputs $< --output $@ --model-url $(MODEL_URL) --env string_match --concurrency 4

.PHONY: report
report: rollouts.jsonl
\t$(GP) profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "cache_resume_builtin_make_skips_rebuild_after_dataset_copied_with_preserved_mtime",
    "cache_resume",
    ["cp -p"],
    "the user's Makefile rebuilds the inputs and rollouts when data/trivia.jsonl is newer than them; the data team's "
    "corrected dataset (three labels fixed on Monday) was copied in with update_data.sh's `cp -p`, which keeps the "
    "file's Monday mtime, older than Tuesday's outputs, so `make report` only re-ran the profile of the old rollouts "
    "scored against the old labels (everything exits 0)",
)
def cache_resume_builtin_make_skips_rebuild_after_dataset_copied_with_preserved_mtime(ctx: Ctx) -> str:
    run = ctx.run
    rows = [row for row in bundled("string_match", 0, 60) if not str(row["expected_answer"]).isdigit()][:8]
    shared = write_jsonl(ctx.work / "shared" / "datasets" / "trivia.jsonl", rows)
    old = json.loads(json.dumps(rows))
    for index in (1, 4, 6):
        old[index]["expected_answer"] = rows[(index + 2) % len(rows)]["expected_answer"]
    better = checkpoints(ctx, "string_match", shared)[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    write_jsonl(run / "data" / "trivia.jsonl", old)
    (run / "Makefile").write_text(MAKEFILE.replace("GP_BIN", str(GP)))
    (run / "update_data.sh").write_text(f"#!/bin/bash\n# fetch the data team's current trivia set\n"
                                        f"cp -p -v {ctx.work}/shared/datasets/trivia.jsonl {run}/data/trivia.jsonl\n")
    ctx.note("# Monday: the data team fixed three labels in the shared dataset")
    ctx.sh(f"touch -d '2 days ago' {shared}")
    ctx.note("# Tuesday: the weekly eval, with the old copy")
    first = ctx.sh(f"make -C {run} report MODEL_URL={url}", "logs/make_tuesday.log", timeout=400)
    before = rows_of(run / "rollouts.jsonl")
    ctx.note("# Thursday: fetch the corrected dataset and re-run")
    copied = ctx.sh(f"bash {run}/update_data.sh", "logs/update_data.log")
    second = ctx.sh(f"make -C {run} report MODEL_URL={url}", "logs/make.log", timeout=400)
    after = rows_of(run / "rollouts.jsonl")
    stale = [row for row in after if row.get("_ng_task_index") in (1, 4, 6)]
    if first or copied or second or before != after or any(rewards(stale)) or "collect" in text_of(
            run / "logs" / "make.log"):
        raise failed(ctx, f"make {first}, copy {copied}, make {second}, stale {rewards(stale)}")
    return (f"RUN/Makefile (rollouts rebuilt when data/trivia.jsonl is newer); Tuesday `make report` on the old copy "
            f"(3 wrong labels) exit {first}; RUN/update_data.sh (`cp -p` of the dataset fixed on Monday) exit "
            f"{copied}; `make report` exit {second}: only the profile re-ran, {len(after)} rollouts, mean reward "
            f"{mean(rewards(after)):.2f}, the relabelled tasks' rewards {rewards(stale)}.")


RUN_EVAL_GUARDED = """#!/bin/bash
# weekly eval of the checkpoint the model server runs; one results folder per checkpoint, never evaluated twice
CKPT=CKPT_LINK
CKPT_NAME=$(basename "$CKPT")
OUT=RUN_DIR/results/$CKPT_NAME
if [ -s "$OUT/rollouts.jsonl" ]; then
  echo "$CKPT_NAME already evaluated ($OUT), skipping the eval"
else
  mkdir -p "$OUT"
  GYM_BIN eval run --no-serve --agent string_match_simple_agent --input RUN_DIR/tasks.jsonl \\
    --output "$OUT/rollouts.jsonl" --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true OVERRIDES
fi
GYM_BIN eval profile --inputs "$OUT/rollouts_materialized_inputs.jsonl" --rollouts "$OUT/rollouts.jsonl"
"""


@case(
    "cache_resume_gym_skip_guard_keyed_on_latest_symlink_name",
    "cache_resume",
    ["run_eval.sh"],
    "the user's run_eval.sh skips checkpoints already evaluated, naming the results folder after `basename $CKPT`; "
    "CKPT is the checkpoints/latest symlink, so the folder is always results/latest: after the link moved from "
    "step_0100 to step_0200 and the server was restarted on it, the eval was skipped and the profile shows last "
    "week's step_0100 rollouts (everything exits 0)",
    netns=True,
)
def cache_resume_gym_skip_guard_keyed_on_latest_symlink_name(ctx: Ctx) -> str:
    from gym_pipeline.host import free_loopback_port

    run = ctx.run
    data = ctx.dataset("string_match", 8, start=40, folder=run, name="tasks.jsonl")
    weaker, better = checkpoints(ctx, "string_match", data)
    latest = weaker.parent / "latest"
    latest.symlink_to(weaker.name)
    port = free_loopback_port()
    url = f"http://127.0.0.1:{port}/v1"
    overrides = ctx.gym_overrides()
    script = run / "run_eval.sh"
    script.write_text(RUN_EVAL_GUARDED.replace("CKPT_LINK", str(latest)).replace("RUN_DIR", str(run))
                      .replace("GYM_BIN", str(GYM)).replace("OVERRIDES", overrides))
    _, old_policy = ctx.policy(latest, f"--port {port} --latency-ms 30", log="logs/model_server_last_week.log")
    env_start = gym_start(ctx, f"{gym_model_args(url)} {overrides}")
    ctx.note("# last week: checkpoints/latest -> step_0100")
    first = ctx.sh(f"bash {script}", "logs/run_eval_last_week.log", timeout=400)
    before = rows_of(run / "results" / "latest" / "rollouts.jsonl")
    ctx.stop(old_policy)
    ctx.note("# this week: checkpoints/latest -> step_0200, server restarted on it")
    ctx.sh(f"ln -sfn {better.name} {latest} && ls -l {latest.parent}", "logs/checkpoints.log")
    _, new_policy = ctx.policy(latest, f"--port {port} --latency-ms 30", log="logs/model_server.log")
    second = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    stop_gym(ctx, env_start, new_policy)
    after = rows_of(run / "results" / "latest" / "rollouts.jsonl")
    if first or second or len(after) != 24 or before != after or not in_log(ctx, "skipping", "logs/run_eval.log"):
        raise failed(ctx, f"first {first}, second {second}, {len(after)}")
    return (f"RUN/run_eval.sh (results folder named `basename checkpoints/latest`, skipped when it has rollouts); real "
            f"NeMo Gym 0.7.0 (loopback-only namespace): last week (latest -> step_0100) exit {first}, mean reward "
            f"{mean(rewards(before)):.2f}; this week (latest -> step_0200, server restarted on port {port}) exit "
            f"{second}, eval skipped, profile of the same {len(after)} rollouts.")


# =====================================================================================================
# model_serving
# =====================================================================================================


@case(
    "model_serving_builtin_reverse_proxy_read_timeout_below_generation_time",
    "model_serving",
    ["proxy_read_timeout"],
    "the model server is reached through the team's reverse proxy (proxy.py, proxy.conf), whose proxy_read_timeout "
    "is 1 s, copied from the dashboard's config; generations take about 1.5 s, so the proxy gave up on every chat "
    "completion and answered 504 Gateway Time-out, and the rollouts failed",
)
def model_serving_builtin_reverse_proxy_read_timeout_below_generation_time(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 6, 50)
    upstream, _ = ctx.policy(better, "--latency-ms 1500")
    url = start_proxy(ctx, f"# the team's model gateway (settings copied from the dashboard's)\nlisten 0\n"
                           f"upstream {upstream.rsplit('/v1', 1)[0]}\nproxy_read_timeout 1.0\n"
                           "proxy_cache_methods GET\n")
    materialize(ctx, data, 2, "string_match")
    collected = collect_sh(ctx, url, "string_match", 4, timeout=500)
    profiled = profile_sh(ctx)
    got = rows_of(run / "rollouts.jsonl")
    if len(got) >= 12 or not in_log(ctx, "504"):
        raise failed(ctx, f"collect {collected}, {len(got)}")
    return (f"model server (1.5 s per generation) behind RUN/proxy.py with RUN/proxy.conf (proxy_read_timeout 1.0); "
            f"materialize 6 tasks x 2; collect through the proxy exit {collected}, {len(got)} of 12 rollouts; profile "
            f"exit {profiled}.")


@case(
    "model_serving_builtin_reverse_proxy_caches_chat_completions_by_uri",
    "model_serving",
    ["proxy_cache_methods"],
    "the team's reverse proxy in front of the model server (proxy.py, proxy.conf) caches responses keyed by the "
    "request URI; the user added POST to proxy_cache_methods to 'speed up repeated evals', so every chat completion "
    "after the first was answered from the cache with the first task's answer: the rollouts look normal but nearly "
    "all score 0 (everything exits 0)",
)
def model_serving_builtin_reverse_proxy_caches_chat_completions_by_uri(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 56)
    upstream, _ = ctx.policy(better, "--latency-ms 20")
    url = start_proxy(ctx, f"# the team's model gateway\nlisten 0\nupstream {upstream.rsplit('/v1', 1)[0]}\n"
                           "proxy_read_timeout 120\nproxy_cache_methods GET POST   # cache repeated requests\n")
    materialize(ctx, data, 3, "string_match")
    collected = collect_sh(ctx, url, "string_match", 4)
    profiled = profile_sh(ctx)
    got = rows_of(run / "rollouts.jsonl")
    from collections import Counter

    answers = Counter(response_text(row) for row in got)
    if collected or profiled or len(got) != 24 or answers.most_common(1)[0][1] < 12:
        raise failed(ctx, f"collect {collected}, profile {profiled}, {len(got)}, {len(answers)} distinct answers")
    return (f"model server behind RUN/proxy.py with RUN/proxy.conf (proxy_cache_methods GET POST); materialize 8 tasks "
            f"x 3; collect through the proxy exit {collected}, {len(got)} rollouts, {answers.most_common(1)[0][1]} of them "
            f"with the same answer text, "
            f"mean reward {mean(rewards(got)):.2f}; profile exit {profiled}.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

ARRAY_SBATCH = """#!/bin/bash
#SBATCH --job-name=collect-shards
#SBATCH --array=0-3
#SBATCH --output=RUN_DIR/logs/collect_shard_%a.log
#SBATCH --time=10
# one array task per shard, all against the team's model server
SHARD=$SLURM_ARRAY_TASK_ID
cd RUN_DIR/shards/$SHARD
echo "shard $SHARD on $(hostname)"
GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
  --env string_match --concurrency 3
"""


@case(
    "throughput_slurm_shard_job_array_without_concurrency_throttle",
    "throughput_resources",
    ["--array"],
    "the user collects four shards as a Slurm job array (collect_shards.sbatch, `#SBATCH --array=0-3`, concurrency 3 "
    "each, which one server that generates 2 requests at a time with 2 waiting can take); without a `%` throttle on "
    "--array the array tasks ran at once (two per node), their requests together overflowed the server's queue (429 "
    "overloaded) and many rollouts were given up",
)
def throughput_slurm_shard_job_array_without_concurrency_throttle(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 16, 0)
    url, _ = ctx.policy(better, "--latency-ms 500 --max-running 2 --max-waiting 2")
    lines = data.read_text().splitlines(keepends=True)
    for shard in range(4):
        folder = run / "shards" / str(shard)
        folder.mkdir(parents=True)
        (folder / "tasks.jsonl").write_text("".join(lines[shard * 4:(shard + 1) * 4]))
    prepare = run / "prepare_shards.sh"
    prepare.write_text(f"#!/bin/bash\nfor s in 0 1 2 3; do\n  cd {run}/shards/$s\n"
                       f"  {GP} materialize --input tasks.jsonl --num-repeats 3 --agent string_match_simple_agent "
                       "--output rollouts_materialized_inputs.jsonl\ndone\n")
    made = ctx.sh(f"bash {prepare}", "logs/prepare_shards.log")
    sbatch = run / "collect_shards.sbatch"
    sbatch.write_text(ARRAY_SBATCH.replace("RUN_DIR", str(run)).replace("GP_BIN", str(GP)).replace("MODEL_URL", url))
    submitted = ctx.sh(f"sbatch --wait {sbatch}", "logs/sbatch.log", timeout=600)
    profiles = []
    for shard in range(4):
        folder = run / "shards" / str(shard)
        profiles.append(ctx.sh(f"cd {folder} && {GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts "
                               "rollouts.jsonl", f"logs/profile_shard_{shard}.log", timeout=300))
    got = sum(len(rows_of(run / "shards" / str(shard) / "rollouts.jsonl")) for shard in range(4))
    if made or got >= 48 or not in_log(ctx, "429"):
        raise failed(ctx, f"prepare {made}, sbatch {submitted}, {got}")
    return (f"model server --max-running 2 --max-waiting 2 (0.5 s each); RUN/prepare_shards.sh (4 shards x 4 tasks x 3) "
            f"exit {made}; `sbatch --wait collect_shards.sbatch` (--array=0-3, concurrency 3 each) exit {submitted}; "
            f"{got} of 48 rollouts; profiles exit {profiles}.")


@case(
    "throughput_stage_collect_through_proxy_serving_one_connection_at_a_time",
    "throughput_resources",
    ["worker_connections"],
    "the model server is reached through the team's reverse proxy (proxy.py, proxy.conf), configured with "
    "worker_connections 1 on the small gateway VM: it serves one client connection at a time, so the collection's 6 "
    "concurrent requests queued behind each other at the proxy, most waited past the sweep's 10 s request timeout, "
    "and many rollouts were given up though the model server itself was idle most of the time",
)
def throughput_stage_collect_through_proxy_serving_one_connection_at_a_time(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 10, 62)
    upstream, _ = ctx.policy(better, "--latency-ms 400")
    url = start_proxy(ctx, f"# the team's model gateway (small VM)\nlisten 0\nupstream {upstream.rsplit('/v1', 1)[0]}\n"
                           "worker_connections 1\nproxy_read_timeout 60\n")
    sweep = write_sweep(ctx, "string_match", data, better, num_repeats=3, concurrency=6, request_timeout_s=10)
    codes = [stage(ctx, sweep, "materialize", better, "string_match"),
             stage(ctx, sweep, "collect", better, "string_match", *served(url)),
             stage(ctx, sweep, "profile", better, "string_match", "--allow-partial")]
    got = rows_of(run / "rollouts.jsonl")
    failures = rows_of(run / "rollouts_failures.jsonl")
    if len(got) >= 30 and not failures:
        raise failed(ctx, f"exit {codes}, {len(got)}, {len(failures)} failures")
    return (f"model server (0.4 s per generation) behind RUN/proxy.py with RUN/proxy.conf (worker_connections 1); "
            f"RUN/sweep.json (10 tasks x 3, concurrency 6, request_timeout_s 10); `gym-pipeline stage` materialize, "
            f"collect through the proxy, profile exit {codes}; {len(got)} rollouts, {len(failures)} failure rows.")


# =====================================================================================================
# infra
# =====================================================================================================


@case(
    "infra_builtin_prepare_sort_spills_to_full_node_tmpdir",
    "infra",
    ["TMPDIR"],
    "the user's prepare.sh deduplicates the overlapping dataset shards with `sort -u` (small buffer, the login node "
    "is shared), which spills its temporary files to $TMPDIR; job_env.sh points TMPDIR at the node-local /local/tmp "
    "tmpfs, which is nearly full, so sort failed with 'No space left on device', the deduplicated dataset is empty and "
    "nothing could be materialized or collected",
)
def infra_builtin_prepare_sort_spills_to_full_node_tmpdir(ctx: Ctx) -> str:
    run = ctx.run
    rows = bundled("string_match", 0, 87)
    (run / "data").mkdir()
    for shard in range(4):
        write_jsonl(run / "data" / f"shard_{shard}.jsonl", rows[shard * 15:shard * 15 + 40])
    better = checkpoints(ctx, "string_match", write_jsonl(ctx.work / "all.jsonl", rows))[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    tmp = ctx.work / "local_tmp"
    tmp.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=24k", "tmpfs", str(tmp)], check=True)
    try:
        ctx.sh(f"dd if=/dev/zero of={tmp}/other_job_scratch.bin bs=4k count=5", "logs/other_job.log")
        (run / "job_env.sh").write_text(f"# sourced by every job (node-local scratch)\nexport TMPDIR={tmp}\n"
                                        "export OMP_NUM_THREADS=1\n")
        (run / "prepare.sh").write_text(
            "#!/bin/bash\n# merge the overlapping shards into one deduplicated dataset\n"
            f"source {run}/job_env.sh\ncd {run}\necho \"TMPDIR=$TMPDIR\"; df -h $TMPDIR\n"
            "sort -u --buffer-size=16K data/shard_*.jsonl > data/string_match.jsonl\n"
            "echo \"$(wc -l < data/string_match.jsonl) unique rows\"\n")
        prepared = ctx.sh(f"bash {run}/prepare.sh", "logs/prepare.log")
        made = ctx.sh(f"{GP} materialize --input {run}/data/string_match.jsonl --num-repeats 3 --agent "
                      f"string_match_simple_agent --output {run}/rollouts_materialized_inputs.jsonl",
                      "logs/materialize.log")
        collected = collect_sh(ctx, url, "string_match", 4)
        profiled = profile_sh(ctx)
    finally:
        subprocess.run(["umount", str(tmp)], check=False)
    got = rows_of(run / "rollouts.jsonl")
    if got or not in_log(ctx, "No space left", "logs/prepare.log"):
        raise failed(ctx, f"prepare {prepared}, materialize {made}, collect {collected}, {len(got)}")
    return (f"RUN/job_env.sh (TMPDIR on a 24 KB node-local tmpfs, 20 KB used by another job); RUN/prepare.sh (`sort -u "
            f"--buffer-size=16K` of 4 shards) exit {prepared}; materialize exit {made}; collect exit {collected}; "
            f"profile exit {profiled}; {len(got)} rollouts.")


@case(
    "infra_gym_cli_venv_moved_so_entry_script_shebang_points_at_old_path",
    "infra",
    ["venv"],
    "the admins moved the team's NeMo Gym virtual environment from opt/gym-0.7 to shared/venvs/gym-0.7 with `mv` "
    "to free the local disk; a virtual environment is not relocatable: its bin/gym entry script still starts with "
    "the old interpreter path in its shebang, so run_eval.sh's `gym env start` failed with 'bad interpreter: No such "
    "file or directory' and nothing was evaluated",
)
def infra_gym_cli_venv_moved_so_entry_script_shebang_points_at_old_path(ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 6, start=8, folder=run, name="tasks.jsonl")
    better = checkpoints(ctx, "string_match", data)[1]
    url, _ = ctx.policy(better, "--latency-ms 20")
    old = ctx.work / "opt" / "gym-0.7"
    ctx.note("# the admins' NeMo Gym venv, installed in opt/gym-0.7")
    ctx.sh(f"python3 -m venv --without-pip {old}")
    entry = GYM.read_text().split("\n", 1)[1]
    (old / "bin" / "gym").write_text(f"#!{old}/bin/python\n{entry}")
    (old / "bin" / "gym").chmod(0o755)
    (ctx.work / "shared" / "venvs").mkdir(parents=True)
    ctx.note("# moved to the shared disk")
    moved = ctx.sh(f"mv {old} {ctx.work}/shared/venvs/gym-0.7 && ls -l {ctx.work}/shared/venvs", "logs/admin_move.log")
    script = run / "run_eval.sh"
    script.write_text("#!/bin/bash\n# weekly eval with the team's NeMo Gym install\n"
                      f"GYM_VENV={ctx.work}/shared/venvs/gym-0.7\nexport PATH=$GYM_VENV/bin:$PATH\ncd {run}\n"
                      "echo \"gym: $(command -v gym)\"\n"
                      f"gym env start {gym_model_args(url)} > logs/env_start.log 2>&1 &\nENV_PID=$!\nsleep 5\n"
                      "gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl "
                      "--output results/rollouts.jsonl --num-repeats 3 --concurrency 4\n"
                      "gym eval profile --inputs results/rollouts_materialized_inputs.jsonl "
                      "--rollouts results/rollouts.jsonl\nkill $ENV_PID 2>/dev/null\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=120)
    got = rows_of(run / "results" / "rollouts.jsonl")
    if moved or got or not in_log(ctx, "required file not found", "logs/run_eval.log", "logs/env_start.log"):
        raise failed(ctx, f"move {moved}, exit {code}, {len(got)}")
    return (f"NeMo Gym venv made in WORK/opt/gym-0.7 then `mv` to WORK/shared/venvs/gym-0.7; RUN/run_eval.sh (that "
            f"venv's bin first on PATH: gym env start, gym eval run, gym eval profile) exit {code}; {len(got)} rollouts.")


if __name__ == "__main__":
    sys.exit(main("twenty_second_held_out", __file__, __doc__))
