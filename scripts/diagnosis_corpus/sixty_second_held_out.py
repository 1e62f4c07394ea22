"""Build the SIXTY-SECOND HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/sixty_second_held_out.py --out tests/data/diagnosis_corpus/sixty_second_held_out [--only CASE ...]

This set was written after the sixty-one earlier sets (first_held_out.py ... sixty_first_held_out.py), from the guides
alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`,
`check-stale`), task folders in Harbor's format run in their Docker sandboxes, Docker containers the user's scripts
start, and the user's own shell and Python tooling, settings, serving scripts, data-preparation scripts, summary
scripts and verifiers. The output of every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing
in a run folder is written by hand but the user's own inputs (data, scripts, settings, verifier code). Each case
injects one cause, different in mechanism from those of the sixty-one earlier sets, and each recipe checks that its
fault really happened (it raises RecipeError otherwise, and the case is not written). About half of the failures are
silent: every command exits 0 and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), and PYTHONPATH set to this checkout. Run it from a
foreground shell.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import checkpoints, failed  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_seventh_held_out import everything, task_rewards, week  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from recipes import BIN, GP, ROOT, Ctx, case, main, rows_of, text_of  # noqa: E402
from sixtieth_held_out import docker_script, remove_container  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_sixth_held_out import free_port  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def mean_of(rows: list[dict]) -> float:
    got = rewards(rows)
    return sum(got) / len(got) if got else 0.0


def python_mounts() -> str:
    """Bind mounts that give a container the eval's Python (the host's venv and this checkout), read-only."""
    pyenv, venv = Path(sys.base_prefix), ROOT / ".venv"
    return " ".join(f"-v {p}:{p}:ro" for p in (pyenv, venv, venv.resolve(), ROOT))


def remove_volume(name: str) -> None:
    subprocess.run(["docker", "volume", "rm", "-f", name], capture_output=True, check=False)


# =====================================================================================================
# healthy
# =====================================================================================================

REPRO_CHECK = f"""echo '== reproducibility check: the same seeded inputs collected a second time'
mkdir -p repro
{GP} collect --inputs rollouts_materialized_inputs.jsonl --output repro/rollouts.jsonl --model-url $URL \\
  --env string_match --concurrency 4
cmp rollouts.jsonl repro/rollouts.jsonl && echo 'rollouts byte-identical' || echo 'WARNING: rollouts differ from the re-run'
{BIN}/python - <<'EOF'
import json
def keyed(path):
    rows = [json.loads(line) for line in open(path)]
    return sorted((r["_ng_task_index"], r["_ng_rollout_index"], r["reward"], r.get("extracted_answer")) for r in rows)
first, second = keyed("rollouts.jsonl"), keyed("repro/rollouts.jsonl")
same = sum(a == b for a, b in zip(first, second))
print(f"per-rollout (task, repeat, reward, answer) equal in {{same}} of {{len(first)}} rollouts")
EOF
"""


@case(
    "healthy_builtin_reproducibility_check_cmp_of_two_seeded_collects_reports_files_differ",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh materializes with a seed per repeat and, after the profile, collects "
    "the same inputs a second time into repro/ and compares the two rollouts files with `cmp`; the files differ "
    "byte for byte ('differ: byte ...', the script prints a WARNING) because rows are written in completion order "
    "and carry their own ids and timings, while every rollout's task, repeat, reward and answer are the same in both "
    "runs; materialize, collect and profile completed every rollout",
)
def healthy_builtin_reproducibility_check_cmp_of_two_seeded_collects_reports_files_differ(ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 8, 14)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text(
        "#!/bin/bash\n# weekly eval, with the reproducibility check the release process asks for\n"
        f"cd {run}\nURL={url}\n"
        f"{GP} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent "
        "--num-repeats-add-seed --output rollouts_materialized_inputs.jsonl\n"
        f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $URL "
        "--env string_match --concurrency 4\n"
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n" + REPRO_CHECK)
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 24 or "differ" not in log or "in 24 of 24 rollouts" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 8 x 3 --num-repeats-add-seed, collect, profile, collect again into "
            f"RUN/repro, `cmp` of the two files) exit {code}; {complete(ctx)} of 24 rollouts, mean reward "
            f"{mean_of(got):.2f}; cmp reports the files differ, every rollout's reward and answer agree.")


@case(
    "healthy_docker_collect_container_hardened_with_read_only_root_filesystem_and_all_capabilities_dropped",
    "healthy",
    [],
    "nothing is wrong: the user's run_eval.sh runs the collect in a container with the platform team's hardening "
    "flags, `--read-only --tmpfs /tmp --cap-drop ALL --security-opt no-new-privileges` (its root file system "
    "read-only, its Python mounted read-only); the collect writes only to the mounted run folder, so every rollout "
    "was collected and the profile completed",
)
def healthy_docker_collect_container_hardened_with_read_only_root_filesystem_and_all_capabilities_dropped(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 50)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = docker_script(ctx, url, "--rm --read-only --tmpfs /tmp --cap-drop ALL --security-opt no-new-privileges",
                           "hardening flags of the platform team's container baseline")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run --read-only --tmpfs /tmp --cap-drop ALL --security-opt "
            f"no-new-privileges ... collect`, profile) exit {code}; {complete(ctx)} of 18 rollouts, mean reward "
            f"{mean_of(got):.2f}.")


METRICS_PUSH = (
    "# report the verdict to the team's metrics gateway (best effort: the sandbox may have no network)\n"
    "python3 -c \"import urllib.request; urllib.request.urlopen('http://metrics-gw.eval.internal:9091/metrics/job/"
    "verifier', data=b'verifier_done 1\\\\n', timeout=3)\" || echo '(metrics push skipped)'\n")


def metrics_push(tasks: Path) -> None:
    for test in tasks.glob("*/tests/test.sh"):
        test.write_text(test.read_text() + METRICS_PUSH)


@case(
    "healthy_taskfolder_test_sh_pushes_verdict_to_metrics_gateway_from_sandbox_without_network",
    "healthy",
    [],
    "nothing is wrong: the user's task folders end their tests/test.sh with a best-effort push of the verdict to "
    "the team's metrics gateway (`python3 -c 'urllib.request.urlopen(...)' || echo ...`); the sandboxes have no "
    "network (allow_internet = false), so every verifier log carries a urllib traceback ('URLError ... name "
    "resolution'), but each test had written its reward first and every episode completed and was scored",
)
def healthy_taskfolder_test_sh_pushes_verdict_to_metrics_gateway_from_sandbox_without_network(ctx: Ctx) -> str:
    code, got = week(ctx, ["csv-column-total", "count-error-lines"], edit=metrics_push)
    text = everything(ctx)
    if code or complete(ctx) != 4 or "URLError" not in text or not any(rewards(got)):
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {rewards(got)}: {log_of(ctx, 'run_tasks.log')[-1200:]}")
    return (f"RUN/tasks/*/tests/test.sh (metrics push from the sandbox, `|| echo`); RUN/run_tasks.sh (`gym-pipeline "
            f"stage` materialize, collect, profile of RUN/tasks x 2) exit {code}; {complete(ctx)} of 4 episodes, "
            f"rewards {rewards(got)}.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================

DEDUP_PY = '''"""dedup_next_week.py: near-duplicate scan of next week's candidate questions (MinHash over shingles, 4 workers)."""
import hashlib
import time
from multiprocessing import Pool

BUDGET_S = 110  # the scan is cut off after this long; whatever it found is kept


def scan(worker: int) -> int:
    end, found, doc = time.time() + BUDGET_S, 0, 0
    while time.time() < end:
        text = f"candidate question {worker}-{doc} about the capital of a country in the atlas"
        shingles = {text[i:i + 5] for i in range(len(text) - 4)}
        signature = [min(int(hashlib.sha1(f"{seed}{s}".encode()).hexdigest()[:8], 16) for s in shingles)
                     for seed in range(16)]
        found += signature[0] % 97 == 0
        doc += 1
    return found


if __name__ == "__main__":
    with Pool(4) as pool:  # the workstation's setting
        print("near-duplicates flagged:", sum(pool.map(scan, range(4))))
'''


@case(
    "throughput_builtin_collect_under_chrt_idle_starved_by_users_own_cpu_bound_prep_job_past_ci_step_budget",
    "throughput_resources",
    ["chrt", "idle"],
    "the user's run_eval.sh starts next week's near-duplicate scan (dedup_next_week.py, four CPU-bound workers) in "
    "the background and runs the collect through the team's low-priority wrapper `chrt --idle 0` (SCHED_IDLE, meant "
    "for background jobs); SCHED_IDLE runs only on otherwise idle CPUs, and the scan kept both cores of the node busy, "
    "so the collect hardly ran and the CI step's `timeout 45` killed it with most rollouts missing",
)
def throughput_builtin_collect_under_chrt_idle_starved_by_users_own_cpu_bound_prep_job_past_ci_step_budget(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 12, 22)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "dedup_next_week.py").write_text(DEDUP_PY)
    script = run / "run_eval.sh"
    script.write_text(
        "#!/bin/bash\n# weekly eval (CI step, 45 s budget); next week's dedup scan runs beside it\n"
        f"cd {run}\n"
        f"{BIN}/python dedup_next_week.py > logs/dedup_next_week.log 2>&1 &\nDEDUP=$!\n"
        f"{GP} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        "# the eval is a batch job: run it at the lowest priority (team wrapper: chrt --idle 0)\n"
        f"timeout 45 chrt --idle 0 {GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
        f"--model-url {url} --env string_match --concurrency 4\n"
        "echo \"collect exit $?\"\n"
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n"
        "wait $DEDUP\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if "collect exit 124" not in log or len(got) >= 36:
        raise failed(ctx, f"exit {code}, {len(got)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (dedup_next_week.py with 4 workers &, materialize 12 x 3, `timeout 45 chrt --idle 0 "
            f"gym-pipeline collect`, profile) exit {code}; collect killed by timeout (exit 124), {len(got)} of 36 "
            f"rollouts.")


# =====================================================================================================
# model_serving
# =====================================================================================================

SERVE_SH = """#!/bin/bash
# serve.sh: the model server in a container (port {port} on the node), as on the GPU nodes
docker run -d --rm --name {name} -p 127.0.0.1:{port}:8000 {mounts} -v {ckpts}:{ckpts}:ro -e PYTHONPATH={root} \\
  gym-pipeline/base:bookworm \\
  {bin}/python -m gym_pipeline.cli serve-policy --checkpoint {ckpts}/step_0200 --port 8000 --latency-ms 20
"""


@case(
    "model_serving_docker_serve_script_publishes_port_of_policy_server_listening_on_container_loopback",
    "model_serving",
    ["--host", "0.0.0.0"],
    "the user's serve.sh runs the model server in a container and publishes its port (`docker run -p "
    "127.0.0.1:PORT:8000`), but starts the server without --host, so it listens on 127.0.0.1 of the container's own "
    "network namespace; Docker forwards published ports to the container's bridge address, where nothing listens, "
    "so every connection to the published port was refused: the server said it was ready and the collect never "
    "reached it, nothing was collected",
)
def model_serving_docker_serve_script_publishes_port_of_policy_server_listening_on_container_loopback(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (weaker, _) = builtin_rows(ctx, 6, 28)
    port = free_port()
    name = f"policy-{port}"
    serve = run / "serve.sh"
    serve.write_text(SERVE_SH.format(port=port, name=name, mounts=python_mounts(), ckpts=weaker.parent, root=ROOT,
                                     bin=BIN))
    script = run / "run_eval.sh"
    script.write_text(
        f"#!/bin/bash\n# weekly eval against the containerized model server\ncd {run}\nbash serve.sh\n"
        "sleep 12   # the server needs a few seconds to load\n"
        f"docker logs {name} > logs/model_server.log 2>&1\ncat logs/model_server.log\n"
        f"{GP} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
        f"--model-url http://127.0.0.1:{port}/v1 --env string_match --concurrency 4\n"
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n"
        f"docker stop {name}\n")
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if rows_of(run / "rollouts.jsonl") or "SIMULATED_POLICY_READY" not in log:
        raise failed(ctx, f"exit {code}: {log[-2000:]}")
    return (f"RUN/serve.sh (`docker run -d -p 127.0.0.1:{port}:8000 ... serve-policy --port 8000`, no --host); "
            f"RUN/run_eval.sh (serve.sh, materialize 6 x 3, collect against the published port, profile) exit {code}; "
            "0 of 18 rollouts.")


# =====================================================================================================
# data_schema
# =====================================================================================================

SHEET = [("What is the capital of Australia?", "Canberra", ""), ("How many sides does a hexagon have?", "", "6"),
         ("What is the capital of Canada?", "Ottawa", ""), ("How many legs does a spider have?", "", "8"),
         ("Which planet is known as the Red Planet?", "Mars", ""), ("How many minutes are in an hour?", "", "60"),
         ("What is the chemical symbol for gold?", "Au", ""), ("How many days are in a leap year?", "", "366")]

PREP_SHEET_PY = '''"""prep.py: the labelling sheet (answers.csv: question, answer_text, answer_number) as string_match rows."""
import json

import pandas as pd

sheet = pd.read_csv("answers.csv")
with open("tasks.jsonl", "w") as out:
    for row in sheet.itertuples():
        # numeric questions are labelled in answer_number, the others in answer_text
        answer = row.answer_text if isinstance(row.answer_text, str) else str(row.answer_number)
        text = f"{row.question} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": False}) + "\\n")
print(f"wrote {len(sheet)} tasks to tasks.jsonl")
'''


@case(
    "data_schema_builtin_prep_reads_sheet_with_pandas_whose_blank_cells_turn_numeric_answers_into_floats",
    "data_schema",
    ["answer_number", "float"],
    "the user's prep.py reads the labelling sheet with pandas and takes a numeric question's label from the "
    "answer_number column with str(); that column is blank for the text questions, and pandas stores a numeric "
    "column with blanks (NaN) as float64, so the labels became '6.0', '8.0', '60.0', '366.0': the model's right "
    "answers 6, 8, 60 and 366 scored 0 (every command exits 0)",
)
def data_schema_builtin_prep_reads_sheet_with_pandas_whose_blank_cells_turn_numeric_answers_into_floats(
        ctx: Ctx) -> str:
    run = ctx.run
    import csv
    with (run / "answers.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["question", "answer_text", "answer_number"])
        writer.writerows(SHEET)
    (run / "prep.py").write_text(PREP_SHEET_PY)
    ctx.sh(f"cd {run} && {BIN}/python prep.py", "logs/prep.log")
    labels = [json.loads(line)["expected_answer"] for line in text_of(run / "tasks.jsonl").splitlines()]
    _, better = truth_checkpoints(ctx, [(q, t or n) for q, t, n in SHEET])
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text(
        f"#!/bin/bash\n# weekly eval of the labelling sheet\ncd {run}\n"
        f"{GP} materialize --input tasks.jsonl --num-repeats 3 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {url} "
        "--env string_match --concurrency 4\n"
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    got = rows_of(run / "rollouts.jsonl")
    numeric = {1: "6", 3: "8", 5: "60", 7: "366"}
    right = [r for r in got if r["_ng_task_index"] in numeric
             and str(r.get("extracted_answer", "")).strip() == numeric[r["_ng_task_index"]]]
    if code or len(got) != 24 or labels[1] != "6.0" or not right or any(rewards(right)) \
            or not any(rewards([r for r in got if r["_ng_task_index"] not in numeric])):
        raise failed(ctx, f"exit {code}, {len(got)}, {labels}, {len(right)}: {log_of(ctx, 'run_eval.log')[-1200:]}")
    return (f"RUN/answers.csv (answer_number blank for text questions); RUN/prep.py (pandas, str(answer_number)) "
            f"wrote labels {labels}; RUN/run_eval.sh (materialize 8 x 3, collect, profile) exit {code}; rewards "
            f"{rewards(got)}; {len(right)} rollouts answered the right number and scored 0.")


# =====================================================================================================
# config
# =====================================================================================================


@case(
    "config_docker_eval_container_mounts_output_with_relative_path_so_results_go_to_named_volume",
    "config",
    ["-v", "path"],
    "the user's run_eval.sh runs materialize and collect in a container and mounts the output folder with `-v "
    "eval-out:/results`, meaning the folder ./eval-out; Docker reads a -v source without a slash as the name of a "
    "volume, so it created a named volume eval-out and the container wrote its 18 rollouts there: the run folder's "
    "eval-out/ stayed empty and the profile on the host found no inputs or rollouts",
)
def config_docker_eval_container_mounts_output_with_relative_path_so_results_go_to_named_volume(ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 56)
    url, _ = ctx.policy(better, "--latency-ms 20")
    remove_volume("eval-out")
    (run / "eval-out").mkdir()
    script = run / "run_eval.sh"
    script.write_text(
        "#!/bin/bash\n# weekly eval: data step and collect in the eval container, profile on the node\n"
        f"cd {run}\n"
        f"docker run --rm --network host {python_mounts()} -v {run}/string_match.jsonl:/data/tasks.jsonl:ro \\\n"
        f"  -v eval-out:/results -e PYTHONPATH={ROOT} gym-pipeline/base:bookworm bash -c \"\\\n"
        f"  {BIN}/python -m gym_pipeline.cli materialize --input /data/tasks.jsonl --num-repeats 3 "
        "--agent string_match_simple_agent --output /results/rollouts_materialized_inputs.jsonl && \\\n"
        f"  {BIN}/python -m gym_pipeline.cli collect --inputs /results/rollouts_materialized_inputs.jsonl "
        f"--output /results/rollouts.jsonl --model-url {url} --env string_match --concurrency 4\"\n"
        "ls -la eval-out/\n"
        f"{GP} profile --inputs eval-out/rollouts_materialized_inputs.jsonl --rollouts eval-out/rollouts.jsonl\n")
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
        ctx.sh("docker volume ls --filter name=eval-out", "logs/docker_volumes.log")
        inside = subprocess.run(["docker", "run", "--rm", "-v", "eval-out:/results", "gym-pipeline/base:bookworm",
                                 "sh", "-c", "wc -l < /results/rollouts.jsonl"], capture_output=True, text=True)
    finally:
        remove_volume("eval-out")
    log = log_of(ctx, "run_eval.log")
    if any((run / "eval-out").iterdir()) or inside.stdout.strip() != "18" or "18 collected" not in log:
        raise failed(ctx, f"exit {code}, volume rows {inside.stdout!r}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (`docker run ... -v eval-out:/results` materialize 6 x 3 and collect, then profile of "
            f"RUN/eval-out) exit {code}; the named volume eval-out held 18 rollouts, RUN/eval-out none.")


# =====================================================================================================
# infra
# =====================================================================================================

SECCOMP_OFFLINE = {
    "defaultAction": "SCMP_ACT_ALLOW",
    "architectures": ["SCMP_ARCH_X86_64", "SCMP_ARCH_X86", "SCMP_ARCH_AARCH64"],
    "syscalls": [{"names": ["connect", "sendto", "sendmsg"], "action": "SCMP_ACT_ERRNO",
                  "comment": "offline batch containers: no outgoing network connections"}],
}


@case(
    "infra_docker_collect_container_runs_under_seccomp_profile_of_offline_batch_template_that_denies_connect",
    "infra",
    ["seccomp"],
    "the user's run_eval.sh runs the collect in a container with the security flags of the platform team's "
    "template for offline batch jobs, `--security-opt seccomp=seccomp-offline.json`, a profile that denies the "
    "connect system call (no outgoing network); the collect could therefore not open a connection to the model "
    "server ('Operation not permitted') and nothing was collected",
)
def infra_docker_collect_container_runs_under_seccomp_profile_of_offline_batch_template_that_denies_connect(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 64)
    url, _ = ctx.policy(better, "--latency-ms 20")
    (run / "seccomp-offline.json").write_text(json.dumps(SECCOMP_OFFLINE, indent=2) + "\n")
    script = docker_script(ctx, url, f"--rm --security-opt seccomp={run}/seccomp-offline.json",
                           "security flags of the platform's batch-container template")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    log = log_of(ctx, "run_eval.log")
    if rows_of(run / "rollouts.jsonl") or "not permitted" not in log.lower():
        raise failed(ctx, f"exit {code}: {log[-2000:]}")
    return (f"RUN/seccomp-offline.json (connect denied); RUN/run_eval.sh (materialize 6 x 3, `docker run "
            f"--security-opt seccomp=... collect`, profile) exit {code}; 0 of 18 rollouts.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

CI_JOB = """#!/bin/bash
# ci_eval.sh CHECKPOINT_URL: the eval job of the team's CI pipeline. The CI cache (key: the branch) keeps
# results/ between pipelines so that a retried job resumes instead of starting over.
URL=$1
cd {run}
CACHE=ci_cache/eval-main.tar
mkdir -p ci_cache results
if [ -f $CACHE ]; then tar xf $CACHE && echo "restored cache $CACHE"; fi
if [ ! -f results/rollouts_materialized_inputs.jsonl ]; then
  {gp} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
    --output results/rollouts_materialized_inputs.jsonl
fi
{gp} collect --inputs results/rollouts_materialized_inputs.jsonl --output results/rollouts.jsonl --model-url $URL \\
  --env string_match --concurrency 4 --resume
{gp} profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
tar cf $CACHE results && echo "saved cache $CACHE"
"""


@case(
    "cache_resume_builtin_ci_cache_keeps_results_folder_between_pipelines_so_new_checkpoints_resume_collects_nothing",
    "cache_resume",
    ["cache", "--resume"],
    "the user's CI job ci_eval.sh caches the results folder between pipelines (the CI cache, keyed by branch) and "
    "collects with --resume so that a retried job picks up where it stopped; the pipeline of the new checkpoint "
    "(step_0200) restored the previous pipeline's results, step_0100's complete rollouts on the same inputs, so the "
    "resume found every rollout done, collected nothing and the profile reported step_0100's rewards (every command "
    "exits 0)",
)
def cache_resume_builtin_ci_cache_keeps_results_folder_between_pipelines_so_new_checkpoints_resume_collects_nothing(
        ctx: Ctx) -> str:
    run = ctx.run
    data = ctx.dataset("string_match", 8, start=40, folder=run, name="string_match.jsonl")
    weaker, better = checkpoints(ctx, "string_match", data)
    script = run / "ci_eval.sh"
    script.write_text(CI_JOB.format(run=run, gp=GP))
    url1, policy1 = ctx.policy(weaker, "--latency-ms 20", log="logs/model_server_pipeline_1.log")
    code1 = ctx.sh(f"bash {script} {url1}", "logs/ci_eval_pipeline_1.log", timeout=300)
    ctx.stop(policy1)
    first = rows_of(run / "results" / "rollouts.jsonl")
    ctx.note("(the CI runner cleans the workspace between pipelines; only ci_cache/ is kept)")
    for path in (run / "results").iterdir():
        path.unlink()
    url, _ = ctx.policy(better, "--latency-ms 20", log="logs/model_server_pipeline_2.log")
    code = ctx.sh(f"bash {script} {url}", "logs/ci_eval_pipeline_2.log", timeout=300)
    log = log_of(ctx, "ci_eval_pipeline_2.log")
    got = rows_of(run / "results" / "rollouts.jsonl")
    # what step_0200 scores on the same inputs
    check = ctx.work / "check"
    check.mkdir()
    ctx.sh(f"{GP} collect --inputs {run}/results/rollouts_materialized_inputs.jsonl --output {check}/rollouts.jsonl "
           f"--model-url {url} --env string_match --concurrency 4", None)
    ctx.commands.pop()
    fresh = rows_of(check / "rollouts.jsonl")
    if code1 or code or len(first) != 24 or len(got) != 24 or "restored cache" not in log \
            or rewards(got) != rewards(first) or not mean_of(fresh) > mean_of(got):
        raise failed(ctx, f"exit {code1}/{code}, {len(first)}, {len(got)}, {mean_of(got)} vs {mean_of(fresh)}: "
                          f"{log[-1500:]}")
    return (f"RUN/ci_eval.sh pipeline 1 (step_0100: materialize 8 x 3, collect --resume, profile, results/ saved to "
            f"the CI cache) exit {code1}; pipeline 2 (step_0200: cache restored, collect --resume, profile) exit "
            f"{code}; {len(got)} rollouts, all from step_0100, mean reward {mean_of(got):.2f} (step_0200 scores "
            f"{mean_of(fresh):.2f} on the same inputs).")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

RECOUNT_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# The expected count is recounted from the logs (the hard-coded 3 broke when server.log was refreshed).
cd /app
echo "check started $(date -u +%FT%TZ)" >> /app/verify.log
want="$(grep -c ERROR /app/*.log)"
got="$(tr -d "[:space:]" < /app/count.txt 2>/dev/null)"
echo "want=$want got=$got" | tee -a /app/verify.log
if test "$got" = "$want"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def recount_test(tasks: Path) -> None:
    (tasks / "count-error-lines" / "tests" / "test.sh").write_text(RECOUNT_TEST_SH)


@case(
    "verifier_runtime_taskfolder_test_sh_recounts_errors_over_log_glob_that_matches_its_own_log_so_grep_prefixes_names",
    "verifier_runtime",
    ["grep -c", "*.log"],
    "count-error-lines' tests/test.sh, made to recount the expected number instead of hard-coding 3, first appends "
    "to its own /app/verify.log and then counts with `grep -c ERROR /app/*.log`; the glob now matches two files, "
    "and grep -c over several files prints 'FILE:COUNT' per file, so the expected value was '/app/server.log:3 "
    "/app/verify.log:0' and every episode scored 0, also those that wrote the right 3 (every command exits 0)",
)
def verifier_runtime_taskfolder_test_sh_recounts_errors_over_log_glob_that_matches_its_own_log_so_grep_prefixes_names(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["count-error-lines", "create-greeting"], edit=recount_test)
    count = task_rewards(ctx, "count-error-lines")
    if code or complete(ctx) != 4 or not count or any(count) or not any(task_rewards(ctx, "create-greeting")):
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {count}: {log_of(ctx, 'run_tasks.log')[-1200:]}")
    shown = "server.log:3" in everything(ctx)
    return (f"RUN/tasks/count-error-lines/tests/test.sh (`grep -c ERROR /app/*.log` after writing /app/verify.log); "
            f"RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile of RUN/tasks x 2) exit {code}; "
            f"{complete(ctx)} of 4 episodes, count-error-lines rewards {count}, create-greeting rewards "
            f"{task_rewards(ctx, 'create-greeting')}" + ("; the verifier log shows want=/app/server.log:3 ..."
                                                         if shown else "") + ".")


if __name__ == "__main__":
    sys.exit(main("sixty_second_held_out", __file__, __doc__))
