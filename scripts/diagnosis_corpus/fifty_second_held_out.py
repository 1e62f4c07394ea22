"""Build the FIFTY-SECOND HELD-OUT set of the diagnosis corpus: real failed and healthy run folders, labelled, written blind.

    PYTHONPATH=. .venv/bin/python scripts/diagnosis_corpus/fifty_second_held_out.py --out tests/data/diagnosis_corpus/fifty_second_held_out [--only CASE ...]

This set was written after the fifty-one earlier sets (first_held_out.py ... fifty_first_held_out.py), from the guides
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
mechanism from those of the fifty-one earlier sets, and each recipe checks that its fault really happened (it raises
RecipeError otherwise, and the case is not written). About half of the failures are silent: every command exits 0
and only the result is wrong.

Labels (`case.json`) come from what was injected: the class of the root cause (what the user must change), not of
its consequences. The recipes never run the diagnosis.

The framework is in recipes.py; helpers shared with the earlier sets are imported from them. Needs root (unshare,
mount), Docker, Slurm, NeMo Gym 0.7.0, and PYTHONPATH set to this checkout. Run it from a foreground shell.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import recipes  # noqa: E402
from eighth_held_out import checkpoints, failed  # noqa: E402
from fiftieth_held_out import log_of  # noqa: E402
from fifty_first_held_out import gym_week, keys_of  # noqa: E402
from fortieth_held_out import complete  # noqa: E402
from forty_first_held_out import scancel_all  # noqa: E402
from fourteenth_held_out import mean, rewards  # noqa: E402
from recipes import (  # noqa: E402
    GP,
    Ctx,
    case,
    main,
    rows_of,
    text_of,
    wait_for,
)
from thirtieth_held_out import gateway_url  # noqa: E402
from thirty_fifth_held_out import mean_reward, pipeline  # noqa: E402
from twentieth_held_out import builtin_rows  # noqa: E402
from twenty_fifth_held_out import job_logs  # noqa: E402
from twenty_sixth_held_out import slurm_script  # noqa: E402

# Importing the earlier sets registered their recipes too: this set runs only its own.
recipes.CASES.clear()


def run_script(ctx: Ctx, url: str, preamble: list[str], data: str = "string_match.jsonl", concurrency: str = "4",
               wrap: str = "", comment: str = "weekly eval") -> Path:
    """RUN/run_eval.sh: `preamble`, then materialize, collect (prefixed with `wrap`) and profile of RUN/DATA."""
    body = pipeline(url, data, concurrency=concurrency)
    if wrap:
        body = body.replace(f"{GP} collect", f"{wrap} {GP} collect")
    script = ctx.run / "run_eval.sh"
    script.write_text(f"#!/bin/bash\n# {comment}\ncd {ctx.run}\n" + "".join(line + "\n" for line in preamble) + body)
    return script


def serve_script(ctx: Ctx, checkpoint: Path | str, lines: list[str], flags: str = "--latency-ms 30") -> str:
    """RUN/serve.sh (the team's model server: `lines`, then `exec gym-pipeline serve-policy`), started; its URL."""
    ready = ctx.work / f"serve-ready-{len(ctx.background)}"
    script = ctx.run / "serve.sh"
    script.write_text("#!/bin/bash\n# serve.sh: the team's model server for the weekly eval\n"
                      + "".join(line + "\n" for line in lines)
                      + f"exec {GP} serve-policy --port 0 --ready-file {ready} --checkpoint {checkpoint} {flags}\n")
    ctx.bg(f"bash {script}", "logs/model_server.log")
    wait_for(lambda: ready.exists() and ready.read_text().strip() != "", 30, "serve.sh")
    return ready.read_text().strip()


def failures_text(ctx: Ctx) -> str:
    return "".join(text_of(p) for p in ctx.run.rglob("*") if p.is_file() and p.suffix in (".log", ".jsonl", ".out"))


# =====================================================================================================
# healthy
# =====================================================================================================


@case(
    "healthy_builtin_server_and_collect_started_under_nice_and_taskset_over_every_core",
    "healthy",
    [],
    "nothing is wrong: the team's serve.sh starts the model server under `nice -n 5` and the user's run_eval.sh runs "
    "collect under `nice -n 10 taskset -c 0,1` (the node's both cores), as the shared-node etiquette page asks; "
    "neither setting takes anything away on an otherwise idle node, and every rollout was collected and profiled",
)
def healthy_builtin_server_and_collect_started_under_nice_and_taskset_over_every_core(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 36)
    url = serve_script(ctx, better, ["# shared-node etiquette: background services at lower priority",
                                     "renice -n 5 -p $$ >/dev/null"])
    script = run_script(ctx, url, ["echo \"== weekly eval on $(nproc) cores\"", "taskset -pc $$"],
                        wrap="nice -n 10 taskset -c 0,1")
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = complete(ctx)
    if code or got != 24 or "affinity list" not in log_of(ctx, "run_eval.log") \
            or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {log_of(ctx, 'run_eval.log')[-800:]}")
    return (f"RUN/serve.sh (`renice -n 5`, serve-policy step_0200), RUN/run_eval.sh (materialize 8 x 3, `nice -n 10 "
            f"taskset -c 0,1 gym-pipeline collect`, profile) exit {code}; {got} rollouts, mean reward "
            f"{mean_reward(run / 'rollouts.jsonl')}.")


# =====================================================================================================
# throughput_resources
# =====================================================================================================


# =====================================================================================================
# model_serving
# =====================================================================================================


@case(
    "model_serving_builtin_server_started_on_latest_link_keeps_serving_old_checkpoint_after_promotion",
    "model_serving",
    ["restart"],
    "the team's model server was started on the `checkpoints/latest` link while it pointed at step_0100; the "
    "training job then promoted step_0200 (`ln -sfn step_0200 latest`) and the user ran the eval 'of latest' "
    "against the running server, which had loaded step_0100 at start and was never restarted, so the results "
    "recorded as step_0200 are step_0100's (every command exits 0; /v1/models still says checkpoint_step 100)",
)
def model_serving_builtin_server_started_on_latest_link_keeps_serving_old_checkpoint_after_promotion(ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 52)
    latest = weaker.parent / "latest"
    latest.symlink_to(weaker.name)
    ctx.note("(WORK/checkpoints/latest -> step_0100)")
    url = serve_script(ctx, latest, ["# serves whatever training last promoted"])
    code0 = ctx.sh(f"cd {latest.parent} && ln -sfn {better.name} latest && echo promoted $(readlink latest)",
                   "logs/promote.log")
    script = run_script(ctx, url, [f"CKPT=$(readlink -f {latest})", "echo \"== weekly eval of $CKPT\"",
                                   "echo \"$(basename $CKPT)\" > evaluated_checkpoint.txt",
                                   f"curl -s {url}/models; echo"])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = complete(ctx)
    log = log_of(ctx, "run_eval.log")
    if code0 or code or got != 24 or '"checkpoint_step": 100' not in log.replace('":1', '": 1') \
            or "step_0200" not in text_of(run / "evaluated_checkpoint.txt"):
        raise failed(ctx, f"exit {code0}/{code}, {got}: {log[-1500:]}")
    return (f"RUN/serve.sh started on WORK/checkpoints/latest (-> step_0100), then `ln -sfn step_0200 latest` "
            f"(logs/promote.log); RUN/run_eval.sh (records `readlink -f latest` = step_0200, curl /v1/models, "
            f"materialize 8 x 3, collect, profile) exit {code}; {got} rollouts, mean reward "
            f"{mean_reward(run / 'rollouts.jsonl')} (served: step_0100).")


STREAM_HOOK = '''
def completion(handler, body):
    # ask the backend to stream, so the dashboard can chart time to first token (OBS-88)
    request = json.loads(body)
    request["stream"] = True
    request["stream_options"] = {"include_usage": True}
    return handler._upstream(json.dumps(request).encode())
'''


@case(
    "model_serving_builtin_gateway_turns_on_streaming_for_time_to_first_token_metrics",
    "model_serving",
    ["gateway.py", "stream"],
    "the team's gateway.py in front of the model server sets `stream: true` on every chat completion it forwards "
    "(to chart time to first token); the model server does not stream and answers 400 'streaming is not supported', "
    "which the gateway passes back, so every collect request failed and no rollout was scored",
)
def model_serving_builtin_gateway_turns_on_streaming_for_time_to_first_token_metrics(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 24)
    url, _ = ctx.policy(better, "--latency-ms 20")
    gateway = gateway_url(ctx, url, "Streams every completion for the time-to-first-token dashboard.", STREAM_HOOK)
    script = run_script(ctx, gateway, ["echo '== weekly eval, through the team gateway'"])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    scored = [r for r in rows_of(run / "rollouts.jsonl") if r.get("reward") is not None]
    if scored or "streaming is not supported" not in failures_text(ctx):
        raise failed(ctx, f"exit {code}, {len(scored)}: {log_of(ctx, 'run_eval.log')[-1500:]}")
    return (f"RUN/gateway.py (sets `stream: true` on every completion) in front of the simulated policy serving "
            f"step_0200; RUN/run_eval.sh (materialize 8 x 3, collect through the gateway, profile) exit {code}; "
            f"{len(scored)} scored rollouts.")



STAGE_SERVE = """#!/bin/bash
# serve.sh: the team's model server for the weekly eval
# stage the checkpoint's small files on local scratch (the shared file system is slow to open many small files);
# from the serving wiki: "config and tokenizer files are *.json; the weights stay on the shared file system"
STAGE=STAGE_DIR/$(basename CKPT)
mkdir -p $STAGE
cp CKPT/*.json $STAGE/
echo "staged $(ls $STAGE | wc -l) file(s) in $STAGE"
exec GP_BIN serve-policy --port PORT --checkpoint $STAGE --latency-ms 30
"""

WAIT_LINES = ["echo '== weekly eval'",
              "for i in $(seq 20); do curl -sf MODEL_URL/models >/dev/null && break; sleep 1; done",
              "curl -sf MODEL_URL/models >/dev/null || echo 'model server not answering after 20 s, going on'"]


@case(
    "model_serving_builtin_serve_script_stages_only_json_files_of_checkpoint_on_local_scratch",
    "model_serving",
    ["knowledge.jsonl"],
    "the team's serve.sh stages the checkpoint on local scratch before serving it, copying only `CKPT/*.json` "
    "(the serving wiki says config files are *.json and the weights stay on the shared file system); the simulated "
    "checkpoint's weights are knowledge.jsonl, which was left behind, so the server refused the staged folder "
    "('knowledge.jsonl: missing') and exited; the run script went on, and every collect request was refused",
)
def model_serving_builtin_serve_script_stages_only_json_files_of_checkpoint_on_local_scratch(ctx: Ctx) -> str:
    from twenty_sixth_held_out import free_port

    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 64)
    port = free_port()
    url = f"http://127.0.0.1:{port}/v1"
    (run / "serve.sh").write_text(slurm_script(STAGE_SERVE, ctx, STAGE_DIR=str(ctx.work / "scratch"),
                                               CKPT=str(better), PORT=str(port)))
    ctx.bg(f"bash {run}/serve.sh", "logs/model_server.log")
    script = run_script(ctx, url, [line.replace("MODEL_URL", url) for line in WAIT_LINES])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    server = log_of(ctx, "model_server.log")
    if complete(ctx) or "knowledge.jsonl" not in server or "going on" not in log_of(ctx, "run_eval.log"):
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {server[-1500:]} {log_of(ctx, 'run_eval.log')[-800:]}")
    return (f"RUN/serve.sh (`cp CKPT/*.json $STAGE/`, then serve-policy on $STAGE) exited; RUN/run_eval.sh (waits "
            f"20 s for /v1/models, goes on; materialize 8 x 3, collect, profile) exit {code}; no rollouts.")


NEWEST_SERVE = """#!/bin/bash
# serve.sh: the team's model server for the weekly eval: serves the newest checkpoint of the training run
CKPT=$(ls -td CKPTS/step_* | head -n 1)
echo "serving $CKPT"
exec GP_BIN serve-policy --port 0 --ready-file READY --checkpoint $CKPT --latency-ms 30
"""


@case(
    "model_serving_builtin_serve_script_picks_checkpoint_by_modification_time_after_mirror_recopied_older_step",
    "model_serving",
    ["serve.sh", "step_0200"],
    "the team's serve.sh serves 'the newest checkpoint' as `ls -td checkpoints/step_* | head -n 1`, i.e. by "
    "modification time; the nightly mirror had just re-copied step_0100 from the archive, giving it the newest mtime, "
    "so the server loaded step_0100 while the week's report is of step_0200, the last step of the run (every command "
    "exits 0; model_server.log says 'serving .../step_0100')",
)
def model_serving_builtin_serve_script_picks_checkpoint_by_modification_time_after_mirror_recopied_older_step(
        ctx: Ctx) -> str:
    run = ctx.run
    data, (weaker, better) = builtin_rows(ctx, 8, 4)
    archive = ctx.work / "archive"
    archive.mkdir()
    ctx.sh(f"cp -r {weaker} {archive}/", None)
    code0 = ctx.sh(f"sleep 1; cd {weaker.parent} && rm -rf step_0100 && cp -r {archive}/step_0100 step_0100 && "
                   "echo '(nightly mirror) re-copied step_0100 from the archive' && ls -lt --time-style=+%T",
                   "logs/mirror.log")
    ready = ctx.work / "serve-ready"
    (run / "serve.sh").write_text(slurm_script(NEWEST_SERVE, ctx, CKPTS=str(weaker.parent), READY=str(ready)))
    ctx.bg(f"bash {run}/serve.sh", "logs/model_server.log")
    wait_for(lambda: ready.exists() and ready.read_text().strip() != "", 30, "serve.sh")
    url = ready.read_text().strip()
    script = run_script(ctx, url, ["echo '== weekly eval of step_0200 (last step of the run)'",
                                   "echo step_0200 > evaluated_checkpoint.txt"])
    code = ctx.sh(f"bash {script}", "logs/run_eval.log", timeout=400)
    got = complete(ctx)
    if code0 or code or got != 24 or "step_0100" not in log_of(ctx, "model_server.log").split("\n")[0]:
        raise failed(ctx, f"exit {code0}/{code}, {got}: {log_of(ctx, 'model_server.log')[:600]}")
    return (f"(nightly mirror re-copied step_0100, newest mtime: logs/mirror.log); RUN/serve.sh (`ls -td "
            f"checkpoints/step_* | head -n 1` -> step_0100); RUN/run_eval.sh (report of step_0200: materialize 8 x 3, "
            f"collect, profile) exit {code}; {got} rollouts, mean reward {mean_reward(run / 'rollouts.jsonl')}.")

# =====================================================================================================
# Slurm batch jobs
# =====================================================================================================

SUBMIT = """#!/bin/bash
# submit.sh: submit the weekly eval and wait for it (CI gives it WAIT_S s)
cd RUN_DIR
PRE
JOB=$(sbatch --parsable SBATCH_ARGS eval.sbatch) || exit 1
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
START=$SECONDS
while squeue -h -j $JOB 2>/dev/null | grep -q .; do
  if (( SECONDS - START > WAIT_S )); then
    echo "job $JOB still queued or running after WAIT_S s: $(squeue -h -j $JOB -o '%i %T %r')"; echo "giving up"; exit 1
  fi
  (( (SECONDS - START) % 30 < 2 )) && squeue -h -j $JOB -o '%i %T %M %r'
  sleep 2
done
echo "job $JOB finished"
"""


def submit(ctx: Ctx, sbatch_args: str = "", pre: list[str] | None = None, wait_s: int = 300) -> int:
    (ctx.run / "submit.sh").write_text(slurm_script(SUBMIT, ctx, PRE="\n".join(pre or []), SBATCH_ARGS=sbatch_args,
                                                    WAIT_S=str(wait_s)))
    try:
        return ctx.sh(f"bash {ctx.run}/submit.sh", "logs/submit.log", timeout=wait_s + 120)
    finally:
        scancel_all(ctx, *text_of(ctx.run / "job_ids.txt").split())


EVAL_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=15
#SBATCH --ntasks=1
DIRECTIVES
cd RUN_DIR
echo "== weekly eval, job $SLURM_JOB_ID on $(hostname)"
PIPELINE"""


def eval_sbatch(ctx: Ctx, url: str, directives: list[str] | None = None, concurrency: str = "4") -> None:
    (ctx.run / "logs").mkdir(exist_ok=True)
    (ctx.run / "eval.sbatch").write_text(slurm_script(EVAL_SBATCH, ctx, DIRECTIVES="\n".join(directives or []),
                                                      PIPELINE=pipeline(url, concurrency=concurrency)))


@case(
    "healthy_slurm_job_asks_for_nomultithread_hint_and_block_distribution_on_single_node",
    "healthy",
    [],
    "nothing is wrong: the user's eval.sbatch, from the HPC centre's template, asks for `--hint=nomultithread`, "
    "`--distribution=block` and `--cpus-per-task=2`; on this one-node cluster without hyper-threading they change "
    "nothing, and the job completed every rollout and profiled them",
)
def healthy_slurm_job_asks_for_nomultithread_hint_and_block_distribution_on_single_node(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 44)
    url, _ = ctx.policy(better, "--latency-ms 30")
    eval_sbatch(ctx, url, ["#SBATCH --hint=nomultithread", "#SBATCH --distribution=block",
                           "#SBATCH --cpus-per-task=2"])
    code = submit(ctx)
    got = complete(ctx)
    job = job_logs(ctx, "eval_*.log")
    if code or got != 24 or "weekly eval, job" not in job or not (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {job[-1500:]} {text_of(run / 'logs' / 'submit.log')[-600:]}")
    return (f"RUN/eval.sbatch (`--hint=nomultithread --distribution=block --cpus-per-task=2`, materialize 8 x 3, "
            f"collect, profile) via RUN/submit.sh exit {code}; {got} rollouts, mean reward "
            f"{mean_reward(run / 'rollouts.jsonl')}.")


MULTI_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=15
#SBATCH --ntasks=1
# evaluates every dataset of $DATASETS (comma-separated), each into results/<name>/
cd RUN_DIR
IFS=, read -ra SETS <<< "$DATASETS"
echo "== weekly eval of ${#SETS[@]} dataset(s): ${SETS[*]}"
for set in "${SETS[@]}"; do
  name=$(basename "$set" .jsonl)
  mkdir -p results/$name && cd results/$name
  GP_BIN materialize --input RUN_DIR/$set --num-repeats 3 --agent string_match_simple_agent \\
    --output rollouts_materialized_inputs.jsonl
  GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url MODEL_URL \\
    --env string_match --concurrency 4
  GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
  cd RUN_DIR
done
"""


@case(
    "config_slurm_export_option_splits_dataset_list_at_its_comma_so_second_dataset_never_evaluated",
    "config",
    ["--export", "DATASETS"],
    "the user's submit.sh passes the datasets to the job as `sbatch --export=ALL,DATASETS=general.jsonl,"
    "held_back.jsonl`; sbatch splits --export at every comma, so DATASETS was only 'general.jsonl' (and "
    "'held_back.jsonl' was taken as the name of a variable to export); the job evaluated one of the two datasets "
    "and exited 0, and the week's report has no held_back results",
)
def config_slurm_export_option_splits_dataset_list_at_its_comma_so_second_dataset_never_evaluated(ctx: Ctx) -> str:
    run = ctx.run
    both = ctx.dataset("string_match", 12, start=48, name="both.jsonl")
    better = checkpoints(ctx, "string_match", both)[1]
    lines = both.read_text().splitlines(keepends=True)
    (run / "general.jsonl").write_text("".join(lines[:6]))
    (run / "held_back.jsonl").write_text("".join(lines[6:]))
    url, _ = ctx.policy(better, "--latency-ms 30")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(MULTI_SBATCH, ctx, MODEL_URL=url))
    code = submit(ctx, "--export=ALL,DATASETS=general.jsonl,held_back.jsonl")
    general = len(keys_of(rows_of(run / "results" / "general" / "rollouts.jsonl")))
    job = job_logs(ctx, "eval_*.log")
    if code or general != 18 or (run / "results" / "held_back").exists() or "1 dataset(s)" not in job:
        raise failed(ctx, f"exit {code}, {general}: {job[-1500:]}")
    return (f"RUN/submit.sh (`sbatch --export=ALL,DATASETS=general.jsonl,held_back.jsonl eval.sbatch`), RUN/eval.sbatch "
            f"(materialize x 3, collect, profile of each dataset in $DATASETS) exit {code}; results/general: {general} "
            f"rollouts, no results/held_back.")


@case(
    "config_slurm_submit_script_keeps_hold_flag_from_batch_release_template",
    "config",
    ["--hold"],
    "the user's submit.sh comes from a template of the team that submits jobs held (`sbatch --hold`) and lets a "
    "release script start them together; nothing releases this one, so the job sat PENDING with reason JobHeldUser "
    "until submit.sh gave up after its CI wait, and no rollout was collected",
)
def config_slurm_submit_script_keeps_hold_flag_from_batch_release_template(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 56)
    url, _ = ctx.policy(better, "--latency-ms 30")
    eval_sbatch(ctx, url)
    code = submit(ctx, "--hold", pre=["# team template: jobs go in held; release_batch.sh starts a batch together"],
                  wait_s=75)
    log = text_of(run / "logs" / "submit.log")
    if not code or complete(ctx) or "JobHeldUser" not in log:
        raise failed(ctx, f"exit {code}, {complete(ctx)}: {log[-1500:]}")
    return (f"RUN/submit.sh (`sbatch --parsable --hold eval.sbatch`, waits up to 75 s) exit {code}; the job pending "
            f"with reason JobHeldUser; no rollouts.")


@case(
    "config_slurm_tmp_disk_request_from_gpu_cluster_template_exceeds_every_nodes_tmp_disk",
    "config",
    ["--tmp"],
    "the user's eval.sbatch was copied from the GPU cluster's template, which asks for `#SBATCH --tmp=200G` of local "
    "scratch to stage checkpoints; no node of this cluster declares that much TmpDisk, so sbatch refused the job "
    "('Temporary disk specification can not be satisfied') and nothing ran",
)
def config_slurm_tmp_disk_request_from_gpu_cluster_template_exceeds_every_nodes_tmp_disk(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 60)
    url, _ = ctx.policy(better, "--latency-ms 30")
    eval_sbatch(ctx, url, ["#SBATCH --tmp=200G  # local NVMe to stage the checkpoint"])
    code = submit(ctx)
    log = text_of(run / "logs" / "submit.log")
    if not code or complete(ctx) or "Temporary disk" not in log:
        raise failed(ctx, f"exit {code}: {log[-1500:]}")
    return f"RUN/eval.sbatch (`#SBATCH --tmp=200G`) via RUN/submit.sh exit {code}; sbatch refused it, no rollouts."


@case(
    "config_slurm_time_directive_meant_as_hours_and_minutes_read_as_minutes_and_seconds",
    "config",
    ["--time"],
    "the user's eval.sbatch asks for `#SBATCH --time=1:30`, meant as an hour and a half; Slurm reads 'MM:SS', so the "
    "job's limit was 1 minute 30 seconds, rounded up to whole minutes (TimeLimit=00:02:00 in the job's own record), "
    "and Slurm killed the job "
    "(DUE TO TIME LIMIT) while collect was still running against the slow model server; no profile was written",
)
def config_slurm_time_directive_meant_as_hours_and_minutes_read_as_minutes_and_seconds(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 20)
    url, _ = ctx.policy(better, "--latency-ms 9000")
    eval_sbatch(ctx, url, ["#SBATCH --time=1:30  # 1 h 30 min, plenty for the slow server",
                           "scontrol show job $SLURM_JOB_ID | grep -o 'TimeLimit=[^ ]*'"], concurrency="1")
    text = (run / "eval.sbatch").read_text().replace("#SBATCH --time=15\n", "")
    (run / "eval.sbatch").write_text(text)
    code = submit(ctx)
    got = complete(ctx)
    job = job_logs(ctx, "eval_*.log")
    if got >= 24 or "TIME LIMIT" not in job or "TimeLimit=00:02:00" not in job \
            or (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {job[-1500:]}")
    return (f"RUN/eval.sbatch (`#SBATCH --time=1:30`; materialize 8 x 3, collect --concurrency 1 against a server "
            f"taking 9 s a reply, profile) via RUN/submit.sh exit {code}; {got} of 24 rollouts, job killed at its "
            f"limit (TimeLimit=00:02:00).")


SMOKE_STEP_SBATCH = """#!/bin/bash
#SBATCH --job-name=weekly-eval
#SBATCH --output=RUN_DIR/logs/eval_%j.log
#SBATCH --time=15
#SBATCH --ntasks=1
cd RUN_DIR
echo "== weekly eval, job $SLURM_JOB_ID"
GP_BIN materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
# each step as its own srun step, so sacct shows their times (step options from the smoke-test template)
srun --ntasks=1 --time=1 GP_BIN collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl \\
  --model-url MODEL_URL --env string_match --concurrency 2
srun --ntasks=1 --time=1 GP_BIN profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@case(
    "throughput_slurm_collect_step_keeps_one_minute_srun_time_limit_from_smoke_test_template",
    "throughput_resources",
    ["srun", "--time"],
    "the user's eval.sbatch runs collect and profile as srun steps with the options of the team's smoke-test "
    "template, `srun --ntasks=1 --time=1`; a step's own time limit applies inside the job's 15 minutes, so the "
    "collect step was cancelled after one minute (STEP ... CANCELLED ... DUE TO TIME LIMIT) while the slow model "
    "server was still answering, and profile then refused the incomplete rollouts",
)
def throughput_slurm_collect_step_keeps_one_minute_srun_time_limit_from_smoke_test_template(ctx: Ctx) -> str:
    run = ctx.run
    data, (_, better) = builtin_rows(ctx, 8, 72)
    url, _ = ctx.policy(better, "--latency-ms 9000")
    (run / "logs").mkdir(exist_ok=True)
    (run / "eval.sbatch").write_text(slurm_script(SMOKE_STEP_SBATCH, ctx, MODEL_URL=url))
    code = submit(ctx)
    got = complete(ctx)
    job = job_logs(ctx, "eval_*.log")
    if got >= 24 or "TIME LIMIT" not in job or "STEP" not in job or (run / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {got}: {job[-1500:]}")
    return (f"RUN/eval.sbatch (`#SBATCH --time=15`; `srun --ntasks=1 --time=1` collect --concurrency 2 against a "
            f"server taking 9 s a reply, then profile) via RUN/submit.sh exit {code}; {got} of 24 rollouts.")


# =====================================================================================================
# the real NeMo Gym 0.7.0
# =====================================================================================================

RETRY_YAML = """# team_model.yaml: the team's model server settings (reviewed in INFRA-512: be patient with a flaky network)
policy_model:
  responses_api_models:
    vllm_model:
      endpoint_connection_retries: 12
      endpoint_check_interval_s: 30.0
      endpoint_stale_grace_s: 600.0
"""


@case(
    "healthy_gym_team_model_yaml_tunes_endpoint_file_retries_without_an_endpoint_file",
    "healthy",
    [],
    "nothing is wrong: the team's team_model.yaml, given to `gym env start` with +config_paths, raises the vllm_model's "
    "`endpoint_connection_retries`, `endpoint_check_interval_s` and `endpoint_stale_grace_s`; they only matter with an "
    "`endpoint_file`, which this run does not use, and every rollout was collected, verified and profiled against "
    "--model-url",
    netns=True,
)
def healthy_gym_team_model_yaml_tunes_endpoint_file_retries_without_an_endpoint_file(ctx: Ctx) -> str:
    run = ctx.run
    (run / "team_model.yaml").write_text(RETRY_YAML)
    code, got = gym_week(ctx, 16, f"'+config_paths=[{run / 'team_model.yaml'}]'", weaker=True)
    if code or len(keys_of(got)) != 24 or not any(rewards(got)) \
            or not (run / "results" / "rollouts_reward_profiling.jsonl").exists():
        raise failed(ctx, f"exit {code}, {len(got)}: {log_of(ctx, 'run_eval.log')[-800:]}")
    return (f"RUN/team_model.yaml (vllm_model endpoint_connection_retries 12, endpoint_check_interval_s 30, "
            f"endpoint_stale_grace_s 600) given to `gym env start` with +config_paths; real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3, `gym eval profile`) exit "
            f"{code}; {len(got)} rollouts, mean reward {mean(rewards(got)):.2f} (step_0100).")


BENCH_YAML = """# team_model.yaml: model server settings (from the serving latency benchmark: fixed, short generations so
# the timings compare across checkpoints)
policy_model:
  responses_api_models:
    vllm_model:
      extra_body:
        max_tokens: 6
        ignore_eos: true
"""


@case(
    "config_gym_team_model_yaml_extra_body_from_latency_benchmark_caps_every_generation_at_six_tokens",
    "config",
    ["extra_body", "max_tokens"],
    "the user's eval reuses team_model.yaml from the serving latency benchmark (given to `gym env start` with "
    "+config_paths): its vllm_model `extra_body: {max_tokens: 6, ignore_eos: true}` is merged into every chat "
    "completion the eval's rows do not size themselves, so every reply was cut after 6 tokens (finish_reason "
    "length), before the answer, and a good checkpoint scored near 0 (every command exits 0)",
    netns=True,
)
def config_gym_team_model_yaml_extra_body_from_latency_benchmark_caps_every_generation_at_six_tokens(ctx: Ctx) -> str:
    run = ctx.run
    (run / "team_model.yaml").write_text(BENCH_YAML)
    code, got = gym_week(ctx, 24, f"'+config_paths=[{run / 'team_model.yaml'}]'")
    cut = [r for r in got if "incomplete" in json.dumps(r.get("response", {})) or "length" in
           json.dumps(r.get("response", {}))]
    if code or len(keys_of(got)) != 24 or mean(rewards(got)) > 0.2 or len(cut) < 12:
        raise failed(ctx, f"exit {code}, {len(got)}, cut {len(cut)}, {rewards(got)}: "
                          f"{json.dumps(got[:1])[:1500] if got else log_of(ctx, 'run_eval.log')[-800:]}")
    return (f"RUN/team_model.yaml (vllm_model `extra_body: {{max_tokens: 6, ignore_eos: true}}`) given to `gym env "
            f"start` with +config_paths; real NeMo Gym 0.7.0 (loopback-only namespace) RUN/run_eval.sh (`gym eval run "
            f"--no-serve` 8 x 3, `gym eval profile`) exit {code}; {len(got)} rollouts, {len(cut)} cut at the length "
            f"limit, mean reward {mean(rewards(got)):.2f} (step_0200).")


CI_OVERRIDES = """# ci_overrides.txt: from the team's Slurm eval template
# "the allocation has 20 min of usable walltime: stop starting new rollouts after that"
++dispatch_budget_s=20
"""


@case(
    "throughput_gym_eval_dispatch_budget_meant_as_twenty_minutes_given_in_seconds_leaves_rows_undispatched",
    "throughput_resources",
    ["dispatch_budget_s"],
    "the user's run_eval.sh passes ci_overrides.txt to `gym eval run`: `++dispatch_budget_s=20`, meant as the 20 "
    "minutes of usable walltime, but Gym reads seconds; against a model server taking 6 s a reply at concurrency 4, "
    "Gym stopped starting new rollouts after 20 s and left the rest undispatched (its log says 'Dispatch budget: 0 "
    "min' and 'Drained (not dispatched, no time left in the budget)'), so the eval holds only part of the 8 x 3 "
    "rollouts and `gym eval profile` refused the partial collection",
    netns=True,
)
def throughput_gym_eval_dispatch_budget_meant_as_twenty_minutes_given_in_seconds_leaves_rows_undispatched(
        ctx: Ctx) -> str:
    run = ctx.run
    (run / "ci_overrides.txt").write_text(CI_OVERRIDES)
    code, got = gym_week(ctx, 56, flags="--latency-ms 6000",
                         eval_extra="$(grep -v '^#' ci_overrides.txt)")
    log = log_of(ctx, "run_eval.log")
    if len(keys_of(got)) >= 24 or "Dispatch budget: 0 min" not in log or "Drained" not in log:
        raise failed(ctx, f"exit {code}, {len(got)}: {log[-1500:]}")
    return (f"RUN/ci_overrides.txt (`++dispatch_budget_s=20`) given to `gym eval run`; real NeMo Gym 0.7.0 "
            f"(loopback-only namespace) RUN/run_eval.sh (`gym eval run --no-serve` 8 x 3 at concurrency 4 against a "
            f"server taking 6 s a reply, `gym eval profile`) exit {code}; {len(keys_of(got))} of 24 rollouts.")

if __name__ == "__main__":
    sys.exit(main("fifty_second_held_out", __file__, __doc__))
