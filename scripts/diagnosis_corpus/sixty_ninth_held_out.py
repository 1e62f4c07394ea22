"""Build the SIXTY-NINTH HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/sixty_ninth_held_out.py --out tests/data/diagnosis_corpus/sixty_ninth_held_out [--only CASE ...]

This set was written after the sixty-eight earlier sets (first_held_out.py ... sixty_eighth_held_out.py), from the guides
alone (the NeMo Gym debugging guide, the reward profiling guide, the task-folder troubleshooting guide,
docs/nemo_gym.md and docs/real_components.md), without reading the diagnosis rules, their tests or their results. It
is meant to be measured once, by someone else, on failures the rules were never written against.

Every case is one recipe that makes its failure happen for real with the project's own parts: the simulated policy
(`gym-pipeline serve-policy`), the built-in engine (`gym-pipeline materialize`, `collect`, `profile`, `stage`),
task folders in Harbor's format run in their Docker sandboxes, Docker containers the user's scripts start, and the
user's own shell and Python tooling, settings, deploy scripts, data-preparation scripts and verifiers. The output of
every command is captured as a user would (`cmd 2>&1 | tee RUN/x.log`); nothing in a run folder is written by hand but
the user's own inputs (data, scripts, settings, verifier code). Each case injects one cause, different in mechanism
from those of the sixty-eight earlier sets, and each recipe checks that its fault really happened (it raises
RecipeError otherwise, and the case is not written). About half of the failures are silent: every command exits 0 and
only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root, Docker
(with the local base image gym-pipeline/base:bookworm), and PYTHONPATH set to this checkout. Run it from a
foreground shell. Containers it makes are named `h69-...` and removed at the end of their recipe.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tarfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import failed  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_seventh_held_out import everything, task_rewards, week  # noqa: E402
from fortieth_held_out import complete, truth_checkpoints  # noqa: E402
from fourteenth_held_out import rewards  # noqa: E402
from recipes import BIN, GP, ROOT, Ctx, case, main, rows_of, text_of, unique_keys, wait_for  # noqa: E402
from sixty_fourth_held_out import (  # noqa: E402
    mean_of,
    pipeline_lines,
    python_mounts,
    question_row,
    scratch_collect,
    write_sheet,
)
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_sixth_held_out import free_port  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


# =====================================================================================================
# helpers of this set
# =====================================================================================================


def write_rows(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def remove_container(name: str) -> None:
    subprocess.run(["docker", "rm", "-f", name], capture_output=True, check=False)


def container_python(run: Path) -> str:
    """`docker run` flags that give a container the eval's Python and the run folder (host networking)."""
    return f"--network host {python_mounts()} -v {run}:{run} -e PYTHONPATH={ROOT} -w {run}"


def agents_of(path: Path) -> list[str]:
    return sorted({(row.get("agent_ref") or {}).get("name") or "" for row in rows_of(path)})


FAN_OUT = '{"string_match_simple_agent": ["string_match_simple_agent", "string_match_cot_agent"]}'


def fan_out_script(ctx: Ctx, url: str, agent_flag: str) -> Path:
    script = ctx.run / "run_eval.sh"
    script.write_text(
        f"#!/bin/bash\n# weekly eval: every task on both agents (simple and chain-of-thought), 2 repeats each\n"
        f"cd {ctx.run}\nFAN_OUT='{FAN_OUT}'\n"
        f"{GP} materialize --input string_match.jsonl --num-repeats 2 {agent_flag}--fan-out \"$FAN_OUT\" "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {url} "
        "--env string_match --concurrency 4\n"
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    return script


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_builtin_materialize_fan_out_keyed_on_rows_own_agent_ref_runs_every_task_on_two_agents",
    "healthy",
    [],
    "nothing is wrong: the labelling export names each row's agent (agent_ref string_match_simple_agent) and the "
    "user's run_eval.sh materializes with `--fan-out` from that name to the simple and the chain-of-thought agent and "
    "`--num-repeats 2`; every task therefore has 4 rollouts (indices 0-3, two per agent) although the script says 2 "
    "repeats, and the profile holds 12 rows for 6 tasks (one per task and agent); every rollout was collected and "
    "profiled",
)
def healthy_builtin_materialize_fan_out_keyed_on_rows_own_agent_ref_runs_every_task_on_two_agents(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 6, 4)
    write_rows(data, [{**row, "agent_ref": {"name": "string_match_simple_agent"}} for row in rows_of(data)])
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = ctx.sh(f"bash {fan_out_script(ctx, url, '')}", "logs/run_eval.log", timeout=300)
    profiles = rows_of(run / "rollouts_reward_profiling.jsonl")
    agents = agents_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 24 or len(profiles) != 12 or any(p.get("num_rollouts") != 2 for p in profiles) \
            or len(agents) != 2:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {agents}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/string_match.jsonl (rows with agent_ref); RUN/run_eval.sh (materialize 6 x 2 --fan-out to two agents, "
            f"collect, profile) exit {code}; {complete(ctx)} of 24 rollouts (rollout indices 0-3 per task) on agents "
            f"{agents}, {len(profiles)} profile rows (task x agent) of num_rollouts 2.")


@case(
    "healthy_docker_collect_container_template_disables_oom_killer_without_memory_limit_so_docker_warns",
    "healthy",
    [],
    "nothing is wrong: the platform's container template the user's run_eval.sh copied starts the collect container "
    "with `--oom-kill-disable` but no `--memory`, so Docker prints 'WARNING: OOM killer is disabled for the "
    "container, but no memory limit is set'; the collect used a few tens of MB, the container exited 0 and every "
    "rollout was collected and profiled",
)
def healthy_docker_collect_container_template_disables_oom_killer_without_memory_limit_so_docker_warns(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 24)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h69-collect-{free_port()}"
    script = run / "run_eval.sh"
    script.write_text(
        f"#!/bin/bash\n# weekly eval; collect runs in the eval container (platform template flags)\ncd {run}\n"
        f"{GP} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"docker run --rm --name {name} --oom-kill-disable {container_python(run)} gym-pipeline/base:bookworm \\\n"
        f"  {BIN}/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output "
        f"rollouts.jsonl --model-url {url} --env string_match --concurrency 4\n"
        "echo \"collect container exit: $?\"\n"
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    got = rows_of(run / "rollouts.jsonl")
    if code or complete(ctx) != 18 or "OOM killer is disabled" not in log \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run --oom-kill-disable --network host ... collect`, profile) "
            f"exit {code}; Docker's OOM-killer warning; {complete(ctx)} of 18 rollouts, mean reward "
            f"{mean_of(got):.2f}.")


CLEANUP_LINES = """
# leave the sandbox clean for the next step (the reward above is already written)
rm -rfv /app/*
"""


def clean_after_reward(tasks: Path) -> None:
    for test in tasks.glob("*/tests/test.sh"):
        test.write_text(test.read_text() + CLEANUP_LINES)


@case(
    "healthy_taskfolder_test_sh_deletes_the_agents_files_in_app_with_rm_rv_after_writing_reward",
    "healthy",
    [],
    "nothing is wrong: the task author ends every tests/test.sh with `rm -rfv /app/*` to leave the sandbox clean, so "
    "every verifier log ends with \"removed '/app/version.txt'\" and similar lines about the agent's own output; the "
    "check and the reward came before the cleanup, and every episode was verified, scored and profiled",
)
def healthy_taskfolder_test_sh_deletes_the_agents_files_in_app_with_rm_rv_after_writing_reward(ctx: Ctx) -> str:
    code, got = week(ctx, ["json-version", "create-greeting"], edit=clean_after_reward)
    text = everything(ctx)
    if code or complete(ctx) != 4 or "removed '/app/" not in text or not any(rewards(got)) \
            or not (ctx.run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {rewards(got)}: {log_of(ctx, 'run_tasks.log')[-1200:]}")
    return (f"RUN/tasks/*/tests/test.sh (`rm -rfv /app/*` after the reward); RUN/run_tasks.sh (`gym-pipeline stage` "
            f"materialize, collect, profile of RUN/tasks x 2) exit {code}; {complete(ctx)} of 4 episodes, rewards "
            f"{rewards(got)}.")


# =====================================================================================================
# config
# =====================================================================================================


@case(
    "config_builtin_materialize_fan_out_keyed_on_agent_flag_name_is_ignored_for_rows_without_agent_ref",
    "config",
    ["--fan-out", "agent_ref", "--agent", "FAN_OUT"],
    "the user's run_eval.sh asks materialize for `--agent string_match_simple_agent --fan-out "
    "'{\"string_match_simple_agent\": [simple, cot]}'` to run every task on both agents; fan-out is keyed on the "
    "row's own agent_ref (or task_source), not on the agent --agent assigns, and this week's rows carry no agent_ref, "
    "so nothing fanned out: every task ran on the simple agent only, 12 rollouts instead of 24, and the comparison "
    "the eval was for has no chain-of-thought side (every command exits 0)",
)
def config_builtin_materialize_fan_out_keyed_on_agent_flag_name_is_ignored_for_rows_without_agent_ref(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 12)
    url, _ = ctx.policy(better, "--latency-ms 20")
    code = ctx.sh(f"bash {fan_out_script(ctx, url, '--agent string_match_simple_agent ')}", "logs/run_eval.log",
                  timeout=300)
    inputs = rows_of(run / "rollouts_materialized_inputs.jsonl")
    agents = agents_of(run / "rollouts.jsonl")
    if code or len(inputs) != 12 or complete(ctx) != 12 or agents != ["string_match_simple_agent"] \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(inputs)}, {agents}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 2 --agent string_match_simple_agent --fan-out to two agents, collect, "
            f"profile) exit {code}; {len(inputs)} materialized rows, {complete(ctx)} rollouts, agents {agents}.")


# =====================================================================================================
# cache_resume
# =====================================================================================================

TRUE_LABELS = [
    ("What is the capital of Australia?", "Canberra"),
    ("How many bones are in the adult human body?", "206"),
    ("Which element has the chemical symbol Fe?", "Iron"),
    ("What is the longest river in South America?", "Amazon"),
    ("Who painted The Starry Night?", "Vincent van Gogh"),
    ("What is 9 multiplied by 7?", "63"),
]
LAST_WEEKS_LABELS = [("What is the capital of Australia?", "Sydney"), *TRUE_LABELS[1:5],
                     ("What is 9 multiplied by 7?", "56")]

TAR_RUN = """#!/bin/bash
# weekly eval of the labelling team's drop (drop/tasks_latest.tar.gz holds string_match.jsonl)
cd {run}
rm -f rollouts.jsonl rollouts_failures.jsonl
echo "== unpacking this week's drop: $(tar -tzvf drop/tasks_latest.tar.gz)"
# --skip-old-files: never clobber a file someone here edited by hand
tar --skip-old-files -xzf drop/tasks_latest.tar.gz
echo "questions: $(wc -l < string_match.jsonl)"
"""


def tar_drop(ctx: Ctx, pairs: list[tuple[str, str]], mtime: float) -> None:
    staging = ctx.work / "labelling_team"
    staging.mkdir(exist_ok=True)
    data = write_rows(staging / "string_match.jsonl", [question_row(q, a) for q, a in pairs])
    (ctx.run / "drop").mkdir(exist_ok=True)
    with tarfile.open(ctx.run / "drop" / "tasks_latest.tar.gz", "w:gz") as archive:
        info = archive.gettarinfo(str(data), arcname="string_match.jsonl")
        info.mtime = int(mtime)
        with data.open("rb") as handle:
            archive.addfile(info, handle)


@case(
    "cache_resume_builtin_weekly_drop_unpacked_with_tar_skip_old_files_keeps_last_weeks_dataset_file",
    "cache_resume",
    ["--skip-old-files", "tar", "string_match.jsonl"],
    "the user's run_eval.sh unpacks the labelling team's weekly drop with `tar --skip-old-files -xzf "
    "drop/tasks_latest.tar.gz` so a hand-edited file is never clobbered; last week's string_match.jsonl was still in "
    "the run folder, so this week tar silently kept it and the drop's fixed labels (Sydney -> Canberra, 56 -> 63) "
    "never reached the eval: the same wrong labels were materialized, collected and profiled again and the model's "
    "right answers scored 0 (every command exits 0)",
)
def cache_resume_builtin_weekly_drop_unpacked_with_tar_skip_old_files_keeps_last_weeks_dataset_file(ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, TRUE_LABELS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    script = run / "run_eval.sh"
    script.write_text(TAR_RUN.format(run=run) + pipeline_lines(url))
    tar_drop(ctx, LAST_WEEKS_LABELS, time.time() - 7 * 86400)
    code1 = ctx.sh(f"bash {script}", "logs/run_eval_last_week.log", timeout=300)
    ctx.note("(a week later: the labelling team's new drop fixes two labels)")
    tar_drop(ctx, TRUE_LABELS, time.time())
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    got = rows_of(run / "rollouts.jsonl")
    wrong = [r for r in got if r.get("expected_answer") in ("Sydney", "56")]
    with tarfile.open(run / "drop" / "tasks_latest.tar.gz") as archive:
        shipped = archive.extractfile("string_match.jsonl").read().decode()
    if code1 or code or len(got) != 18 or not wrong or any(rewards(wrong)) or "Canberra" not in shipped \
            or "Sydney" not in (run / "string_match.jsonl").read_text():
        raise failed(ctx, f"exit {code1}/{code}, {len(got)}, {rewards(wrong)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/run_eval.sh (`tar --skip-old-files -xzf drop/tasks_latest.tar.gz`, materialize 6 x 3, collect, "
            f"profile) last week exit {code1}; this week (drop with two labels fixed) exit {code}; RUN/string_match.jsonl "
            f"still last week's; {len(got)} rollouts, rewards of the still-wrong labels {rewards(wrong)}.")


GUARD_RUN = """#!/bin/bash
# weekly eval; the materialized inputs are kept while they still match the data (check-stale)
cd {run}
rm -f rollouts.jsonl rollouts_failures.jsonl
echo "== are the materialized inputs still this week's data?"
if {gp} check-stale --inputs rollouts_materialized_inputs.jsonl --source string_match.jsonl --num-repeats 3 \\
    --agent string_match_simple_agent; then
  echo 'inputs up to date: keeping them'
else
  echo 'inputs are stale: materializing again'
  {gp} materialize --input {source} --num-repeats 3 --agent string_match_simple_agent \\
    --output rollouts_materialized_inputs.jsonl
fi
{gp} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {url} \\
  --env string_match --concurrency 4
{gp} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""
MORE_LABELS = [*TRUE_LABELS, ("What is the capital of Canada?", "Ottawa"), ("Which ocean is the largest?", "Pacific")]


@case(
    "cache_resume_builtin_check_stale_guard_still_compares_inputs_with_dataset_at_old_path_after_export_moved_to_data_folder",
    "cache_resume",
    ["check-stale", "--source", "data/string_match.jsonl", "materialize"],
    "the labelling export now lands in data/string_match.jsonl and the user pointed run_eval.sh's materialize at "
    "it, but the check-stale guard before it still compares the kept materialized inputs with string_match.jsonl at "
    "the old path, which nobody updates any more; the guard found them up to date and kept last week's inputs, so "
    "this week's two new questions were never materialized: 6 tasks were collected and profiled instead of 8 "
    "(every command exits 0)",
)
def cache_resume_builtin_check_stale_guard_still_compares_inputs_with_dataset_at_old_path_after_export_moved_to_data_folder(
        ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, MORE_LABELS)
    url, _ = ctx.policy(better, "--latency-ms 20")
    write_rows(run / "string_match.jsonl", [question_row(q, a) for q, a in TRUE_LABELS])
    ctx.note("(last week: the export wrote RUN/string_match.jsonl and the inputs were materialized from it)")
    ctx.sh(f"{GP} materialize --input {run}/string_match.jsonl --num-repeats 3 --agent string_match_simple_agent "
           f"--output {run}/rollouts_materialized_inputs.jsonl", "logs/materialize_last_week.log")
    ctx.note("(this week: the export writes RUN/data/string_match.jsonl, two questions added)")
    (run / "data").mkdir()
    write_rows(run / "data" / "string_match.jsonl", [question_row(q, a) for q, a in MORE_LABELS])
    script = run / "run_eval.sh"
    script.write_text(GUARD_RUN.format(run=run, gp=GP, url=url, source="data/string_match.jsonl"))
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    log = log_of(ctx, "run_eval.log")
    profiles = rows_of(run / "rollouts_reward_profiling.jsonl")
    if code or complete(ctx) != 18 or len(profiles) != 6 or "inputs up to date" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {len(profiles)}: {log[-1500:]}")
    return (f"last week's inputs (6 tasks x 3) left in RUN; RUN/data/string_match.jsonl (8 questions); RUN/run_eval.sh "
            f"(check-stale --source string_match.jsonl -> up to date, collect, profile) exit {code}; {complete(ctx)} "
            f"rollouts, {len(profiles)} profile rows for the 8 questions of this week.")


# =====================================================================================================
# model_serving
# =====================================================================================================

EXPORT_PY = '''"""export_checkpoint.py SRC DEST: copy a checkpoint onto the serving disk, throttled so the shared filesystem
is not flooded (JSONL files go line by line)."""
import os
import shutil
import sys
import time

src, dest = sys.argv[1], sys.argv[2]
os.makedirs(dest, exist_ok=True)
for name in sorted(os.listdir(src)):
    if name.endswith(".jsonl"):
        with open(os.path.join(src, name)) as inp, open(os.path.join(dest, name), "w") as out:
            for line in inp:
                out.write(line)
                out.flush()
                time.sleep(0.6)
    else:
        shutil.copy(os.path.join(src, name), os.path.join(dest, name))
    print(f"copied {name}", flush=True)
print(f"export of {src} done", flush=True)
'''

SERVE_SH = """#!/bin/bash
# serve.sh DEST READY_FILE: start the model server on DEST as soon as the checkpoint is on the serving disk
DEST=$1
until [ -f "$DEST/config.json" ] && [ -f "$DEST/knowledge.jsonl" ]; do sleep 0.2; done
echo "checkpoint files present in $DEST: starting the server"
exec {gp} serve-policy --port 0 --ready-file "$2" --checkpoint "$DEST" --latency-ms 20
"""


@case(
    "model_serving_builtin_serve_script_starts_server_once_checkpoint_files_exist_while_throttled_export_still_writes_them",
    "model_serving",
    ["serve.sh", "export", "knowledge.jsonl", "checkpoint", "wait"],
    "the user's serve.sh starts the model server as soon as config.json and knowledge.jsonl exist on the serving "
    "disk; the export script copies the checkpoint there throttled, line by line, so when the server started and "
    "loaded the checkpoint the knowledge file held only its first lines: the server ran on a partial step_0200 and "
    "answered 'unknown' to most questions for the whole eval, although the copy finished seconds later (every "
    "command exits 0)",
)
def model_serving_builtin_serve_script_starts_server_once_checkpoint_files_exist_while_throttled_export_still_writes_them(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 8, 44)
    (run / "export_checkpoint.py").write_text(EXPORT_PY)
    (run / "serve.sh").write_text(SERVE_SH.format(gp=GP))
    dest = ctx.work / "serving" / "step_0200"
    ready = ctx.work / "server.url"
    export = ctx.bg(f"{BIN}/python {run}/export_checkpoint.py {better} {dest}", "logs/export.log")
    ctx.bg(f"bash {run}/serve.sh {dest} {ready}", "logs/model_server.log")
    wait_for(lambda: ready.exists() and ready.read_text().strip() != "", 60, "the model server")
    url = ready.read_text().strip()
    script = run / "run_eval.sh"
    script.write_text(f"#!/bin/bash\n# weekly eval against the served checkpoint\ncd {run}\n"
                      "rm -f rollouts.jsonl rollouts_failures.jsonl\n"
                      f"echo \"served model: $(curl -s {url}/models)\"\n" + pipeline_lines(url))
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    export.wait(timeout=60)
    got = rows_of(run / "rollouts.jsonl")
    unknown = [r for r in got if "unknown" in json.dumps(r.get("response", "")).lower()]
    copied = len((dest / "knowledge.jsonl").read_text().splitlines())
    check_url, _ = ctx.policy(better, "--latency-ms 20", log=str(ctx.work / "check_server.log"))
    ctx.commands.pop()
    fresh = scratch_collect(ctx, check_url)
    if code or len(got) != 24 or copied != 8 or not unknown or not mean_of(fresh) > mean_of(got) \
            or "export of" not in log_of(ctx, "export.log"):
        raise failed(ctx, f"exit {code}, {len(got)}, copied {copied}, unknown {len(unknown)}, {mean_of(got)} vs "
                          f"{mean_of(fresh)}: {log_of(ctx, 'model_server.log')[-800:]}")
    return (f"RUN/export_checkpoint.py (throttled copy of step_0200 to the serving disk) and RUN/serve.sh (starts the "
            f"server once both files exist) in the background; RUN/run_eval.sh (materialize 8 x 3, collect, profile) "
            f"exit {code}; {len(got)} rollouts, {len(unknown)} answered 'unknown', mean reward {mean_of(got):.2f} "
            f"(the complete step_0200 scores {mean_of(fresh):.2f} on the same inputs).")


# =====================================================================================================
# throughput_resources
# =====================================================================================================


@case(
    "throughput_builtin_run_script_sets_collect_concurrency_to_rollout_count_from_wc_l_so_server_queue_overflows",
    "throughput_resources",
    ["--concurrency", "CONCURRENCY", "wc -l", "max-waiting"],
    "the model server generates 4 requests at once and lets 4 more wait (the rest are answered 429 overloaded); the "
    "user's run_eval.sh sets the collect's concurrency to the number of materialized rows (`CONCURRENCY=$(wc -l < "
    "rollouts_materialized_inputs.jsonl)`, 'one in flight per rollout'), so all 48 requests were sent at once, most "
    "overflowed the queue, were retried into the still-full queue and used up their attempts: most rollouts were "
    "given up and the strict profile refused the incomplete run",
)
def throughput_builtin_run_script_sets_collect_concurrency_to_rollout_count_from_wc_l_so_server_queue_overflows(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 16, 60)
    url, _ = ctx.policy(better, "--latency-ms 1500 --max-running 4 --max-waiting 4")
    script = run / "run_eval.sh"
    script.write_text(
        f"#!/bin/bash\n# weekly eval\ncd {run}\n"
        f"{GP} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        "# one request in flight per rollout: the server queues what it cannot run yet\n"
        "CONCURRENCY=$(wc -l < rollouts_materialized_inputs.jsonl)\necho \"concurrency: $CONCURRENCY\"\n"
        f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {url} "
        "--env string_match --concurrency $CONCURRENCY\n"
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    log = log_of(ctx, "run_eval.log")
    done = len(unique_keys(run / "rollouts.jsonl"))
    sidecar = text_of(run / "rollouts_failures.jsonl")
    if "overloaded" not in sidecar or not done < 40 or (run / "rollouts_reward_profiling.jsonl").exists() \
            or "concurrency: 48" not in log:
        raise failed(ctx, f"exit {code}, {done}, 429 {'429' in sidecar}: {log[-1500:]}")
    return (f"serve-policy --max-running 4 --max-waiting 4 --latency-ms 1500; RUN/run_eval.sh (materialize 16 x 3, "
            f"CONCURRENCY=$(wc -l < inputs) = 48, collect, profile) exit {code}; {done} of 48 rollouts, "
            f"{sidecar.count(chr(10))} failed attempts (429 overloaded) in the sidecar.")


# =====================================================================================================
# data_schema
# =====================================================================================================

ACCENTED = [
    ("What is the largest city in Brazil?", "São Paulo"),
    ("What is the capital of Iceland?", "Reykjavík"),
    ("Which Czech composer wrote the New World Symphony?", "Antonín Dvořák"),
    ("In which Swiss city is the ETH technical university?", "Zürich"),
    ("What is the capital of Canada?", "Ottawa"),
    ("How many bones are in the adult human body?", "206"),
    ("Which element has the chemical symbol Fe?", "Iron"),
    ("What is the capital of Australia?", "Canberra"),
]

SHEET_TO_JSONL = '''"""sheet_to_jsonl.py SHEET.csv: the labelling sheet (question,answer) as string_match rows on stdout."""
import csv
import json
import sys

with open(sys.argv[1], newline="", encoding="utf-8") as handle:
    for row in csv.DictReader(handle):
        text = f"{row['question']} End your response with 'Final answer: <answer>'."
        print(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": text}]}]},
            "expected_answer": row["answer"], "extraction_mode": "final_answer", "case_sensitive": False}))
'''

PREP_SH = """#!/bin/bash
# prep.sh: this week's labelling sheet -> string_match.jsonl
cd {run}
# the team's old dedup tool mangles multi-byte characters: make the sheet plain ASCII first
iconv -f utf-8 -t ascii//TRANSLIT questions.csv > questions_ascii.csv
{py} sheet_to_jsonl.py questions_ascii.csv > string_match.jsonl
echo "prep: $(wc -l < string_match.jsonl) questions"
"""


@case(
    "data_schema_builtin_prep_transliterates_labelling_sheet_to_ascii_with_iconv_so_accented_labels_lose_accents",
    "data_schema",
    ["iconv", "TRANSLIT", "prep.sh", "expected_answer", "accents"],
    "the user's prep.sh runs the UTF-8 labelling sheet through `iconv -t ascii//TRANSLIT` before building the rows "
    "(for an old dedup step that mangles multi-byte characters), which turns São Paulo into Sao Paulo, Reykjavík "
    "into Reykjavik, Zürich into Zurich and Antonín Dvořák into Antonin Dvorak; the model answered with the accents, "
    "so every rollout of those four tasks scored 0 while the ASCII-only tasks still scored (every command exits 0)",
)
def data_schema_builtin_prep_transliterates_labelling_sheet_to_ascii_with_iconv_so_accented_labels_lose_accents(
        ctx: Ctx) -> str:
    run = ctx.run
    _, better = truth_checkpoints(ctx, ACCENTED)
    url, _ = ctx.policy(better, "--latency-ms 20")
    write_sheet(run / "questions.csv", ACCENTED)
    (run / "sheet_to_jsonl.py").write_text(SHEET_TO_JSONL)
    (run / "prep.sh").write_text(PREP_SH.format(run=run, py=f"{BIN}/python"))
    script = run / "run_eval.sh"
    script.write_text(f"#!/bin/bash\n# weekly eval of the labelling sheet\ncd {run}\nbash prep.sh\n"
                      + pipeline_lines(url))
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    got = rows_of(run / "rollouts.jsonl")
    stripped = [r for r in got if r.get("expected_answer") in ("Sao Paulo", "Reykjavik", "Zurich", "Antonin Dvorak")]
    plain = [r for r in got if r not in stripped]
    if code or len(got) != 24 or len(stripped) != 12 or any(rewards(stripped)) or not any(rewards(plain)):
        raise failed(ctx, f"exit {code}, {len(got)}, {len(stripped)}, {rewards(stripped)}: "
                          f"{log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/questions.csv (UTF-8, accented labels); RUN/prep.sh (`iconv -t ascii//TRANSLIT`, sheet_to_jsonl.py); "
            f"RUN/run_eval.sh (prep, materialize 8 x 3, collect, profile) exit {code}; rewards of the four "
            f"transliterated tasks {rewards(stripped)}, of the others mean {mean_of(plain):.2f}.")


# =====================================================================================================
# verifier_runtime
# =====================================================================================================

CHECK_PY = """#!/usr/bin/env python3 -u
# check_version.py FILE EXPECTED: exit 0 when FILE holds the version EXPECTED (shared by the JSON tasks).
# -u: unbuffered, so its lines interleave with test.sh's in test-stdout.txt
import sys

got = open(sys.argv[1]).read().strip()
print(f"version.txt holds {got!r}, expected {sys.argv[2]!r}")
sys.exit(0 if got == sys.argv[2] else 1)
"""

CHECKER_TEST_SH = """#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# The check itself lives in check_version.py, shared with the other JSON tasks.
cd /app
if /tests/check_version.py /app/version.txt 2.7.1; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
"""


def env_flag_checker(tasks: Path) -> None:
    tests = tasks / "json-version" / "tests"
    (tests / "test.sh").write_text(CHECKER_TEST_SH)
    (tests / "check_version.py").write_text(CHECK_PY)
    (tests / "check_version.py").chmod(0o755)


@case(
    "verifier_runtime_taskfolder_checker_shebang_passes_flag_through_env_so_linux_looks_for_program_named_python3_u",
    "verifier_runtime",
    ["shebang", "#!/usr/bin/env", "env -S", "check_version.py"],
    "json-version's tests/test.sh now runs a shared checker, tests/check_version.py, whose first line is "
    "`#!/usr/bin/env python3 -u`; Linux hands everything after the interpreter path to env as ONE argument, so env "
    "looked for a program named 'python3 -u' ('No such file or directory', exit 127) and test.sh took its FAIL branch: "
    "every episode of the task scored 0 although version.txt was right, while create-greeting still scored (every "
    "command exits 0)",
)
def verifier_runtime_taskfolder_checker_shebang_passes_flag_through_env_so_linux_looks_for_program_named_python3_u(
        ctx: Ctx) -> str:
    code, got = week(ctx, ["json-version", "create-greeting"], edit=env_flag_checker)
    versioned = task_rewards(ctx, "json-version")
    text = everything(ctx)
    if code or complete(ctx) != 4 or not versioned or any(versioned) or "python3 -u" not in text \
            or not any(task_rewards(ctx, "create-greeting")):
        raise failed(ctx, f"exit {code}, {complete(ctx)}, {versioned}: {log_of(ctx, 'run_tasks.log')[-1200:]}")
    return (f"RUN/tasks/json-version/tests/check_version.py (`#!/usr/bin/env python3 -u`) run by test.sh; "
            f"RUN/run_tasks.sh (`gym-pipeline stage` materialize, collect, profile of RUN/tasks x 2) exit {code}; "
            f"json-version rewards {versioned}, create-greeting rewards {task_rewards(ctx, 'create-greeting')}.")


# =====================================================================================================
# infra
# =====================================================================================================


@case(
    "infra_docker_collect_container_fixed_name_still_held_by_last_weeks_exited_container_so_docker_run_conflicts",
    "infra",
    ["docker rm", "--rm", "--name", "container name"],
    "the user's run_eval.sh starts the collect container under a fixed --name and without --rm (to read `docker "
    "logs` afterwards) and never removes it; last week's exited container still holds the name, so this week Docker "
    "refused the new one ('Conflict. The container name ... is already in use'): nothing was collected and the "
    "profile had no rollouts to read",
)
def infra_docker_collect_container_fixed_name_still_held_by_last_weeks_exited_container_so_docker_run_conflicts(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 36)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h69-weekly-collect-{free_port()}"
    script = run / "run_eval.sh"
    script.write_text(
        f"#!/bin/bash\n# weekly eval; collect runs in the eval container (kept afterwards for `docker logs`)\n"
        f"cd {run}\nrm -f rollouts.jsonl rollouts_failures.jsonl\n"
        f"{GP} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"docker run --name {name} {container_python(run)} gym-pipeline/base:bookworm \\\n"
        f"  {BIN}/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output "
        f"rollouts.jsonl --model-url {url} --env string_match --concurrency 4\n"
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    try:
        code1 = ctx.sh(f"bash {script}", "logs/run_eval_last_week.log", timeout=300)
        ctx.note("(a week later: the same script again)")
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if code1 or not code or (run / "rollouts.jsonl").exists() or "is already in use" not in log:
        raise failed(ctx, f"exit {code1}/{code}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run --name {name.rsplit('-', 1)[0]}-PORT` without --rm ... "
            f"collect, profile) last week exit {code1}; this week exit {code}: Docker refused the name; no rollouts.")


@case(
    "infra_docker_collect_container_template_caps_writable_layer_with_storage_opt_size_that_overlay_on_ext4_refuses",
    "infra",
    ["--storage-opt", "xfs", "pquota", "storage driver"],
    "the user's run_eval.sh starts the collect container with the platform template's disk quota, `--storage-opt "
    "size=2G`; Docker supports that only for overlay over xfs with the pquota mount option, and this node's Docker "
    "keeps its layers on ext4, so the daemon refused to create the container: nothing was collected and the "
    "profile had no rollouts to read",
)
def infra_docker_collect_container_template_caps_writable_layer_with_storage_opt_size_that_overlay_on_ext4_refuses(
        ctx: Ctx) -> str:
    run = ctx.run
    _, (_, better) = builtin_rows(ctx, 6, 48)
    url, _ = ctx.policy(better, "--latency-ms 20")
    name = f"h69-collect-{free_port()}"
    script = run / "run_eval.sh"
    script.write_text(
        f"#!/bin/bash\n# weekly eval; collect runs in the eval container (platform template: 2 GB disk quota)\n"
        f"cd {run}\nrm -f rollouts.jsonl rollouts_failures.jsonl\n"
        f"{GP} materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"docker run --rm --name {name} --storage-opt size=2G {container_python(run)} gym-pipeline/base:bookworm \\\n"
        f"  {BIN}/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output "
        f"rollouts.jsonl --model-url {url} --env string_match --concurrency 4\n"
        f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    try:
        code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=300)
    finally:
        remove_container(name)
    log = log_of(ctx, "run_eval.log")
    if not code or (run / "rollouts.jsonl").exists() or "--storage-opt is supported only" not in log:
        raise failed(ctx, f"exit {code}: {log[-1500:]}")
    return (f"RUN/run_eval.sh (materialize 6 x 3, `docker run --storage-opt size=2G --network host ... collect`, "
            f"profile) exit {code}; the daemon refused the container (overlay on ext4); no rollouts.")


if __name__ == "__main__":
    sys.exit(main("sixty_ninth_held_out", __file__, __doc__))
