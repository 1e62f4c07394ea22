"""`gym-pipeline`: the sweep and each NeMo Gym stage from the command line, without the UI.

Every command reports bad input as one clear line on stderr and exits 2.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path

import orjson
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from gym_pipeline import cli_args
from gym_pipeline.config import ConfigError, api_key_from_env
from gym_pipeline.core.redaction import redact
from gym_pipeline.fatal_signals import announce_fatal_signals
from gym_pipeline.taskfolders.cli import add_tasks_parser

# the parser's own text, not __doc__: Python run with -OO (PYTHONOPTIMIZE=2, a node setting) strips docstrings
DESCRIPTION = "`gym-pipeline`: the sweep and each NeMo Gym stage from the command line, without the UI."
EXIT_BAD_INPUT = 2
EXIT_DIAGNOSIS_INCOMPLETE = 3  # `diagnose`: no cause found, but a rule of the diagnosis failed on the folder
# soft_wrap: a message is one line however wide, so logs captured with `| tee` keep paths and sentences whole
stderr = Console(stderr=True, soft_wrap=True)


def _progress() -> Progress:
    return Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=stderr, transient=False,
    )


def _materialization_settings(args: argparse.Namespace):
    from gym_pipeline.core.materialize import MaterializationSettings

    return MaterializationSettings(
        num_repeats=args.num_repeats, agent=args.agent, interleave_repeats=args.interleave_repeats,
        responses_create_params=args.responses_create_params or {}, limit=args.limit,
        num_repeats_add_seed=args.num_repeats_add_seed,
        prompt_config=str(args.prompt_config) if args.prompt_config else None, agent_map=args.agent_map,
        fan_out=args.fan_out,
    )


def cmd_materialize(args: argparse.Namespace) -> int:
    from gym_pipeline.core.materialize import materialize_and_record

    settings = _materialization_settings(args)
    record = materialize_and_record(args.input, args.output, settings)
    stderr.print(f"wrote {record['output']['rows']} rows to {args.output} (source {record['source']['digest']})")
    return 0


def cmd_serve_policy(args: argparse.Namespace) -> int:
    from gym_pipeline.serving.capacity import CapacitySettings
    from gym_pipeline.serving.faults import FaultSettings, parse_fault_kinds
    from gym_pipeline.serving.simulated_policy import run_server

    faults = FaultSettings(rate=args.fault_rate, kinds=parse_fault_kinds(args.fault_kinds), seed=args.fault_seed,
                           slow_start_s=args.slow_start_s, retry_after_s=args.retry_after_s,
                           hold_s=args.timeout_hold_s)
    capacity = CapacitySettings(max_running=args.max_running, max_waiting=args.max_waiting)
    run_server(args.checkpoint, host=args.host, port=args.port, ready_file=args.ready_file, latency_ms=args.latency_ms,
               faults=faults, capacity=capacity)
    return 0


def cmd_collect(args: argparse.Namespace) -> int:
    from gym_pipeline.engines.builtin import CollectorSettings, collect
    from gym_pipeline.environments import get_environment

    environment = get_environment(args.env)
    settings = CollectorSettings(
        model_url=args.model_url,
        model_name=args.model,
        concurrency=args.concurrency,
        api_key=api_key_from_env(args.api_key_env, "--api-key-env"),
    )
    with _progress() as progress:
        bar = progress.add_task("collecting rollouts", total=None)

        def on_progress(update) -> None:
            progress.update(bar, total=update.total, completed=update.done,
                            description=f"collecting rollouts ({update.failed} failed)")

        summary = asyncio.run(collect(args.inputs, args.output, environment, settings, args.resume, on_progress))
    stderr.print(
        f"{summary.collected} collected, {summary.resumed} already done, {summary.failed} failed "
        f"of {summary.total} in {summary.elapsed_s:.1f}s -> {args.output}"
        + "".join(f"\n{escape(str(torn))}" for torn in summary.torn_lines_repaired)
        + (f"\n{summary.given_up_before} of the failed were given up by an earlier run (their attempts used up) and "
           "not retried: collect again without --resume to try them" if summary.given_up_before else "")
    )
    return 1 if summary.failed else 0


def cmd_profile(args: argparse.Namespace) -> int:
    from gym_pipeline.core.profile import profile_run, summary_lines, write_profile
    from gym_pipeline.core.reward_analysis import summary_lines as analysis_lines

    result = profile_run(args.inputs, args.rollouts, allow_partial=args.allow_partial)
    for warning in result.tolerated:
        stderr.print(f"[yellow]warning:[/yellow] {escape(warning)}", highlight=False, soft_wrap=True)
    paths = write_profile(result, args.rollouts, args.output_dir)
    for line in [*summary_lines(result, paths), *analysis_lines(result.analysis)]:
        print(line)
    return 0


def cmd_diagnose(args: argparse.Namespace) -> int:
    from gym_pipeline.diagnose import diagnose, render_text

    if not args.run_dir.is_dir():
        raise FileNotFoundError(f"{args.run_dir}: run directory not found")
    report = diagnose(args.run_dir, probe=args.probe, model_url=args.model_url)
    if args.json:
        sys.stdout.write(orjson.dumps(report.to_json_dict(), option=orjson.OPT_INDENT_2).decode() + "\n")
    else:
        print(render_text(report))
    if report.healthy:
        return EXIT_DIAGNOSIS_INCOMPLETE if report.rules_failed else 0
    return 1


def cmd_reverify(args: argparse.Namespace) -> int:
    from gym_pipeline.config import home_dir, workspace_config
    from gym_pipeline.stages import rescore_run_dir

    if not args.run_dir.is_dir():
        raise FileNotFoundError(f"{args.run_dir}: run directory not found")
    config = workspace_config(home_dir(args.home))
    if args.search_dir:  # searched before the sweep's own, as Gym searches its --search-dir folders in order
        config = config.model_copy(update={"nemo_gym": config.nemo_gym.model_copy(
            update={"search_dirs": [*args.search_dir, *config.nemo_gym.search_dirs]})})
    summary = rescore_run_dir(config, args.run_dir, args.env, repeats=args.repeat, through_gym=args.gym)
    if args.json:
        sys.stdout.write(orjson.dumps(summary.as_json(), option=orjson.OPT_INDENT_2).decode() + "\n")
    else:
        print(f"re-scored {summary.rescored} of {summary.rows} rows with {summary.verifier['name']} (version "
              f"{summary.verifier['version']}) in {summary.elapsed_s:.1f}s: {summary.changed} changed in "
              f"{len(summary.changed_tasks)} tasks" + (f", {len(summary.flaky)} flaky over {args.repeat} repeats"
                                                        if args.repeat > 1 else ""))
        if summary.changed_tasks:
            print("  changed tasks: " + ", ".join(map(str, summary.changed_tasks)))
        for row in summary.flaky:
            print(f"  flaky: task {row['_ng_task_index']} rollout {row['_ng_rollout_index']}: rewards {row['rewards']}")
    return 0


def cmd_check_stale(args: argparse.Namespace) -> int:
    from gym_pipeline.core.staleness import compare_materialized

    settings = _materialization_settings(args)
    report = compare_materialized(args.inputs, args.source, settings)
    if args.json:
        sys.stdout.write(orjson.dumps(report.as_dict(), option=orjson.OPT_INDENT_2).decode() + "\n")
    else:
        print(report.summary())
        for note in report.notes:
            print(f"  note: {note}")
        if report.stale:
            print(f"  rows: {report.rows_found} in the file, {report.rows_expected} expected")
            for row in report.differing_rows:
                print(f"  line {row['line']}: task {row['_ng_task_index']} rollout {row['_ng_rollout_index']}: "
                      f"{row['change']}")
            print(f"  rebuild: {report.rebuild_command}")
    return 1 if report.stale else 0


def cmd_status(args: argparse.Namespace) -> int:
    from gym_pipeline.config import home_dir
    from gym_pipeline.status import sweep_status

    home = home_dir(args.home)
    if not (home / "dagster").is_dir():
        raise FileNotFoundError(f"{home}: no workspace here (run `gym-pipeline demo --home {home}` first)")
    partitions = sweep_status(home, rehash=args.rehash)
    if args.json:
        payload = {"partitions": [partition.as_dict() for partition in partitions]}
        sys.stdout.write(orjson.dumps(payload, option=orjson.OPT_INDENT_2).decode() + "\n")
        return 0
    table = Table(title=f"sweep status in {home}")
    for column in ("checkpoint", "env", "inputs", "rollouts", "profile", "diagnosis"):
        table.add_column(column, no_wrap=True)
    colour = {"FRESH": "green", "STALE": "yellow", "MISSING": "red"}
    for partition in partitions:
        cells = [f"[{colour[status]}]{status}[/]" for status in partition.assets.values()]
        table.add_row(partition.checkpoint, partition.env, *cells)
    console = Console()
    console.print(table)
    for partition in partitions:
        if partition.stale_causes:
            console.print(f"{partition.checkpoint} x {partition.env}:", highlight=False)
        for cause in partition.stale_causes:
            console.print(f"  {escape(cause)}", highlight=False)
    return 0


def cmd_backfill(args: argparse.Namespace) -> int:
    import dagster as dg

    from gym_pipeline.backfill import WebserverBackfill, plan_backfill, run_in_process
    from gym_pipeline.config import home_dir
    from gym_pipeline.demo import QUIET_RUN_CONFIG, prepare_dagster_home
    from gym_pipeline.observation import observe_sources
    from gym_pipeline.sweep import build_definitions, workspace_config

    home = home_dir(args.home)
    if not (home / "dagster").is_dir():
        raise FileNotFoundError(f"{home}: no workspace here (run `gym-pipeline demo --home {home}` first)")
    config = workspace_config(home)
    with dg.DagsterInstance.from_config(str(prepare_dagster_home(home))) as instance:
        plan = plan_backfill(config, instance, args.job, args.checkpoint, args.env, args.batch_size)
        where = f"submitted to {args.ui_url}" if args.ui_url else "in this process"
        if args.ui_url:
            outcomes = WebserverBackfill(args.ui_url, plan.job_name, plan.ranges, plan.backfill_id).outcomes()
        else:
            defs = build_definitions(config)
            observe_sources(config, instance)  # staleness as the files are now
            outcomes = run_in_process(defs, instance, plan.job_name, plan.ranges, plan.backfill_id, QUIET_RUN_CONFIG)
        stderr.print(f"backfill {plan.backfill_id}: {plan.partition_count} partitions of {plan.job_name} "
                     f"in {len(plan.ranges)} runs, {where}", highlight=False)
        failed = 0
        with _progress() as progress:
            bar = progress.add_task("backfill", total=plan.partition_count)
            for outcome in outcomes:
                keys = outcome.partition_range.keys
                progress.console.print(f"run {outcome.run_id[:8]} {outcome.status.value:<8} {keys[0]} .. {keys[-1]} "
                                       f"({len(keys)} partitions)", highlight=False)
                failed += 0 if outcome.succeeded else len(keys)
                progress.advance(bar, len(keys))
    stderr.print(f"{plan.partition_count - failed} of {plan.partition_count} partitions materialized; "
                 f"runs tagged gym_pipeline/backfill={plan.backfill_id}")
    return 1 if failed else 0


def cmd_stage(args: argparse.Namespace) -> int:
    import logging

    from dagster_pipes import PipesEnvVarParamsLoader, open_dagster_pipes
    from pydantic import ValidationError

    from gym_pipeline import stages
    from gym_pipeline.config import SweepConfig, load_sweep_config, validation_problems
    from gym_pipeline.discovery import READY_MARKER, closest_checkpoint, discover_checkpoints
    from gym_pipeline.serving.checkpoints import checkpoint_digest
    from gym_pipeline.serving.servers import Endpoint

    # The launcher keeps stdout in the stage's log file; inside a sweep step, Pipes also streams it to Dagster.
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s", stream=sys.stdout)
    if args.sweep_config.suffix == ".json":  # what a launcher writes for the stage, checked by its Dagster step
        try:
            config = SweepConfig.validate_from_step(args.sweep_config.read_bytes())
        except ValidationError as error:
            raise ConfigError(f"{args.sweep_config}: not a valid sweep config: {validation_problems(error)}") from None
    else:
        config = load_sweep_config(args.sweep_config)
    # The checkpoint must be one the sweep would evaluate (a step's config is checked too where the checkpoints
    # folder is visible: on a node that does not mount it, the Dagster step that launched the stage checked it).
    if (args.sweep_config.suffix != ".json" or config.checkpoints_dir.is_dir()) \
            and args.checkpoint not in (known := discover_checkpoints(config)):
        raise ConfigError(f"checkpoint {args.checkpoint!r} is not in the sweep of {args.sweep_config} (known: "
                          f"{known}; a folder of {config.checkpoints_dir} counts once it holds {READY_MARKER})"
                          + closest_checkpoint(args.checkpoint, known))

    def run(log: logging.Logger) -> stages.PartitionOutcome:
        common = {"config": config, "checkpoint": args.checkpoint, "env": args.env, "code": args.code_version,
                  "log": log, "dagster_run_id": args.dagster_run_id}
        if args.key == "materialize":
            return stages.materialize_partition(**common)
        if args.key == "profile":
            return stages.profile_partition(**common)
        if not (args.model_url and args.model_name):
            raise ConfigError("stage collect needs --model-url and --model-name")
        digest = args.checkpoint_digest
        if digest is None and (folder := config.checkpoint_dir(args.checkpoint)).is_dir():
            digest = checkpoint_digest(folder)  # run by hand: what the sweep step would have passed
        endpoint = Endpoint(args.model_url, args.model_name, digest, args.server_pid,
                            api_key=api_key_from_env(config.model_server.api_key_env, "model_server.api_key_env"))
        return stages.collect_partition(endpoint=endpoint, **common)

    if not PipesEnvVarParamsLoader().is_dagster_pipes_process():  # run by hand: the files and log are the result
        run(logging.getLogger("gym_pipeline.stage"))
        return 0
    with open_dagster_pipes() as pipes:
        pipes.log.addHandler(logging.StreamHandler(sys.stdout))
        pipes.report_custom_message(stages.serialize_outcome(run(pipes.log)))
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from gym_pipeline.demo import print_summary, run_demo
    from gym_pipeline.launchers.settings import DockerLauncherSettings, LocalLauncherSettings, SlurmLauncherSettings

    kinds = {"local": LocalLauncherSettings, "docker": DockerLauncherSettings, "slurm": SlurmLauncherSettings}
    launcher = kinds[args.launcher]() if args.launcher else None
    result = run_demo(args.home, args.checkpoints, quiet=args.json, launcher=launcher, taskset=not args.no_tasks)
    if args.json:
        sys.stdout.write(orjson.dumps(result, option=orjson.OPT_INDENT_2).decode() + "\n")
    else:
        print_summary(result)
    return 0 if all(p["diagnosis"] is not None for p in result["partitions"]) else 1


def cmd_ui(args: argparse.Namespace) -> int:
    from gym_pipeline.demo import ui_command, ui_environment

    command = ui_command(args.port)
    stderr.print(f"Dagster UI on http://127.0.0.1:{args.port} for {args.home or 'the default workspace'}")
    # A shell starting us in the background ignores SIGINT, and an ignored signal stays ignored across exec:
    # dagster dev stops its webserver and daemon with SIGINT, so make it count again.
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, signal.SIG_DFL)
    os.execvpe(command[0], command, ui_environment(args.home))
    return 0  # not reached: exec replaced this process


def build_parser() -> argparse.ArgumentParser:
    parser = cli_args.ArgumentParser(prog="gym-pipeline", description=DESCRIPTION)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, handler: Callable[[argparse.Namespace], int], help_: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_, description=help_)
        sub.set_defaults(handler=handler)
        return sub

    demo = command("demo", cmd_demo, "Create a demo workspace and run the whole eval sweep through Dagster.")
    demo.add_argument("--home", type=cli_args.folder, default=None,
                      help="workspace folder (default ./gym-pipeline-home)")
    demo.add_argument("--checkpoints", type=cli_args.demo_checkpoints, default=3,
                      help="number of simulated checkpoints (default 3)")
    demo.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    demo.add_argument("--launcher", choices=("local", "docker", "slurm"), default=None,
                      help="run every stage and model server through this launcher (default: in the Dagster step)")
    demo.add_argument("--no-tasks", action="store_true",
                      help="leave out the bundled task folders (swept in Docker sandboxes when an engine answers)")

    backfill = command("backfill", cmd_backfill,
                       "Re-run sweep partitions in batched ranged runs that start at once (no backfill-daemon wait).")
    backfill.add_argument("--home", type=cli_args.folder, default=None)
    backfill.add_argument("--checkpoint", action="append", type=cli_args.safe_name("checkpoint name"), default=None,
                          help="a registered checkpoint (repeatable; default: all)")
    backfill.add_argument("--env", action="append", type=cli_args.safe_name("environment name"), default=None,
                          help="an environment (repeatable; default: all)")
    backfill.add_argument("--job", choices=("eval_sweep", "recollect", "reverify"), default="eval_sweep")
    backfill.add_argument("--batch-size", type=cli_args.positive_int, default=None,
                          help="partitions per run (default: the sweep config's backfill_batch_size)")
    backfill.add_argument("--ui-url", type=cli_args.http_url, default=None,
                          help="submit the runs to this running webserver (e.g. http://127.0.0.1:3000) "
                          "instead of running them in this process")

    stage = command("stage", cmd_stage, "Run one stage of one partition, as a launcher does for a sweep step "
                    "(which writes the sweep config and reads the outcome through Dagster Pipes).")
    stage.add_argument("key", choices=("materialize", "collect", "profile"))
    stage.add_argument("--sweep-config", type=Path, required=True,
                       help="the sweep config: the JSON a launcher writes for the stage, or a sweep.yaml")
    stage.add_argument("--checkpoint", type=cli_args.safe_name("checkpoint name"), required=True)
    stage.add_argument("--env", type=cli_args.safe_name("environment name"), required=True)
    stage.add_argument("--code-version", required=True, help="the asset's code version, recorded in the manifest")
    stage.add_argument("--dagster-run-id", default=None, help="named in the run directory's lock")
    stage.add_argument("--model-url", type=cli_args.http_url, default=None, help="collect: the checkpoint's server")
    stage.add_argument("--model-name", default=None, help="collect: the served model's name")
    stage.add_argument("--checkpoint-digest", default=None, help="collect: the served checkpoint's digest")
    stage.add_argument("--server-pid", type=cli_args.positive_int, default=None, help="collect: the server's pid")

    ui = command("ui", cmd_ui, "Start the Dagster UI on 127.0.0.1 for a workspace.")
    ui.add_argument("--home", type=cli_args.folder, default=None)
    ui.add_argument("--port", type=cli_args.port, default=3000)

    materialize = command("materialize", cmd_materialize, "Write Gym-compatible materialized inputs.")
    materialize.add_argument("--input", type=Path, required=True)
    materialize.add_argument("--output", type=cli_args.output_file, required=True)
    _materialization_arguments(materialize)

    serve = command("serve-policy", cmd_serve_policy, "Serve a checkpoint with the simulated policy.")
    serve.add_argument("--checkpoint", type=Path, required=True, help="checkpoint folder")
    serve.add_argument("--port", type=int, default=8000, help="0 picks a free port")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--ready-file", type=Path, default=None, help="write the base URL here once listening")
    serve.add_argument("--latency-ms", type=int, default=0, help="added to every completion")
    serve.add_argument("--max-running", type=int, default=0,
                       help="requests generated at once, the rest queue (like vLLM's --max-num-seqs); 0: unbounded")
    serve.add_argument("--max-waiting", type=int, default=0,
                       help="with --max-running: requests that may wait before 429 overloaded; 0: unbounded queue")
    serve.add_argument("--fault-rate", type=float, default=0.0,
                       help="probability (0-1) that a chat completion meets a fault (default 0)")
    serve.add_argument("--fault-kinds", default="5xx,429,timeout,drop",
                       help="comma-separated faults drawn uniformly: 5xx, 429, timeout, drop (default all)")
    serve.add_argument("--fault-seed", type=int, default=0, help="which requests meet faults (reproducible)")
    serve.add_argument("--slow-start-s", type=float, default=0.0,
                       help="answer 503 on every route for this long after start, like a loading vLLM")
    serve.add_argument("--retry-after-s", type=int, default=1, help="the Retry-After of a 429 fault (default 1)")
    serve.add_argument("--timeout-hold-s", type=float, default=300.0,
                       help="how long a timeout fault holds the request before answering (default 300)")

    collect = command("collect", cmd_collect, "Collect rollouts with the built-in engine.")
    collect.add_argument("--inputs", type=Path, required=True, help="materialized inputs JSONL")
    collect.add_argument("--output", type=cli_args.output_file, required=True,
                         help="rollouts JSONL (sidecar written beside it)")
    collect.add_argument("--model-url", type=cli_args.http_url, required=True,
                         help="OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1")
    collect.add_argument("--env", type=cli_args.safe_name("environment name"), required=True,
                         help="environment whose verifier scores the answers")
    collect.add_argument("--model", default=None, help="model name (default: the first the endpoint lists)")
    collect.add_argument("--concurrency", type=cli_args.concurrency, default=32)
    collect.add_argument("--api-key-env", type=cli_args.env_var_name, default=None,
                         help="environment variable holding the API key")
    collect.add_argument("--resume", action="store_true", help="skip (task, rollout) keys already settled")

    profile = command("profile", cmd_profile, "Profile rewards like `gym eval profile`.")
    profile.add_argument("--inputs", type=Path, required=True)
    profile.add_argument("--rollouts", type=Path, required=True)
    profile.add_argument("--allow-partial", action="store_true")
    profile.add_argument("--output-dir", type=cli_args.folder, default=None)

    reverify = command("reverify", cmd_reverify,
                       "Re-score a run's stored responses with its environment's current verifier (no model server); "
                       "a run the nemo_gym engine collected goes through Gym's own resources server (gym env start, "
                       "then /verify). The previous rollouts are kept as rollouts.before_reverify.jsonl.")
    reverify.add_argument("run_dir", type=Path)
    reverify.add_argument("--env", type=cli_args.safe_name("environment name"), required=True,
                          help="environment whose verifier re-scores the answers (from the workspace's sweep.yaml); "
                               "with --gym, Gym's resources server")
    reverify.add_argument("--gym", action="store_true",
                          help="re-score through NeMo Gym's own resources server ENV (gym env start, then /verify), "
                               "as for a run the nemo_gym engine collected: for a folder Gym wrote by hand")
    reverify.add_argument("--search-dir", type=cli_args.existing_folder, action="append", default=[],
                          help="a folder holding your own Gym resources servers (Gym's --search-dir); repeatable")
    reverify.add_argument("--home", type=cli_args.folder, default=None, help="workspace folder (its sweep.yaml)")
    reverify.add_argument("--repeat", type=cli_args.bounded_int(1, 100), default=1,
                          help="verify each response N times and list the rows whose rewards differ (flaky)")
    reverify.add_argument("--json", action="store_true")

    check_stale = command("check-stale", cmd_check_stale,
                          "Does a Gym materialized-inputs file still match its source data and settings? "
                          "Exit 0: it matches; 1: stale; 2: bad input.")
    check_stale.add_argument("--inputs", type=Path, required=True, help="the *_materialized_inputs.jsonl")
    check_stale.add_argument("--source", type=Path, required=True, help="the dataset JSONL it claims to come from")
    _materialization_arguments(check_stale)
    check_stale.add_argument("--json", action="store_true")

    status = command("status", cmd_status, "Observe the sources and show each partition's assets: FRESH, STALE, MISSING.")
    status.add_argument("--home", type=cli_args.folder, default=None)
    status.add_argument("--json", action="store_true")
    status.add_argument("--rehash", action="store_true",
                        help="hash every source file again, not only those whose size or modification time changed")

    add_tasks_parser(commands, cli_args.positive_int)

    diagnose = command("diagnose", cmd_diagnose, "Diagnose a run folder the way the debugging guide says.")
    diagnose.add_argument("run_dir", type=Path)
    diagnose.add_argument("--json", action="store_true")
    diagnose.add_argument("--probe", action="store_true",
                          help="also probe the live servers the run names (loopback or the run's own URLs, 2 s timeout)")
    diagnose.add_argument("--model-url", type=cli_args.http_url, default=None,
                          help="with --probe: the model endpoint to check")
    return parser


def _materialization_arguments(parser: argparse.ArgumentParser) -> None:
    """Gym 0.7.0's materialization settings (`gym eval run +num_repeats=... +agent_name=...`), with its meaning."""
    parser.add_argument("--num-repeats", type=cli_args.repeats, required=True,
                        help='repeats per task, or a JSON object per agent name: \'{"agent_a": 4, "_default": 1}\'')
    parser.add_argument("--agent", default=None,
                        help="the agent every row runs on: replaces each row's agent_ref (Gym 0.7.0's +agent_name)")
    parser.add_argument("--interleave-repeats", action="store_true", help="abcabc instead of aabbcc")
    parser.add_argument("--limit", type=cli_args.bounded_int(0), default=None, help="only the first N rows")
    parser.add_argument("--num-repeats-add-seed", action="store_true",
                        help="a seed per repeat in responses_create_params.metadata.extra_body")
    parser.add_argument("--prompt-config", type=Path, default=None,
                        help="prompt YAML (user, optional system) building responses_create_params.input")
    parser.add_argument("--agent-map", type=cli_args.json_object, default=None,
                        help='re-route rows by agent_ref.name or task_source: \'{"old": "new", "_default": "a"}\'')
    parser.add_argument("--fan-out", type=cli_args.json_object, default=None,
                        help='run matching rows once per agent: \'{"source_agent": ["agent_a", "agent_b"]}\'')
    parser.add_argument("--responses-create-params", type=cli_args.json_object, default=None,
                        help="overrides merged into every row's responses_create_params")


def _expected_errors() -> tuple[type[BaseException], ...]:
    from gym_pipeline.backfill_errors import BackfillError
    from gym_pipeline.core.formats import JsonlFormatError
    from gym_pipeline.core.materialize import MaterializationError
    from gym_pipeline.core.profile import MissingRolloutsError
    from gym_pipeline.core.run_lock import RunDirectoryError
    from gym_pipeline.core.staleness import StaleInputsError
    from gym_pipeline.engines.builtin import CollectionError
    from gym_pipeline.engines.nemo_gym import NemoGymError
    from gym_pipeline.engines.rescoring import RescoringError
    from gym_pipeline.environments import UnknownEnvironmentError, VerifierNotFoundError
    from gym_pipeline.serving.checkpoints import CheckpointError
    from gym_pipeline.serving.servers import ModelServerError

    return (ConfigError, JsonlFormatError, MaterializationError, MissingRolloutsError, UnknownEnvironmentError,
            CollectionError, ModelServerError, StaleInputsError, BackfillError, RunDirectoryError, RescoringError,
            VerifierNotFoundError, NemoGymError, CheckpointError,
            FileNotFoundError)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command != "ui":  # ui execs `dagster dev`, which handles its own signals
        subcommand = getattr(args, "key", None) or getattr(args, "tasks_command", None)  # stage KEY, tasks ACTION
        announce_fatal_signals(f"{args.command} {subcommand}" if subcommand else args.command)
    try:
        return args.handler(args)
    except _expected_errors() as error:
        # redacted: an error may quote a model URL with its credentials
        stderr.print(f"[red]error:[/red] {escape(redact(str(error)))}", highlight=False, soft_wrap=True)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        stderr.print("interrupted")
        return 130
    except BrokenPipeError:
        # the reader went away (`gym-pipeline diagnose RUN | head`): stop quietly, as Unix tools do; point stdout at
        # devnull so Python's own flush at exit does not raise again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
