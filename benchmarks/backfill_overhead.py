"""Backfill orchestration overhead: 20 (checkpoint, env) partitions re-evaluated through the real Dagster
daemon and webserver (`gym-pipeline ui`), batched (backfill_batch_size 20) against one run per partition
(backfill_batch_size 1). Target (issue 7): batched adds < 1 s of orchestration per partition on top of
the work itself.

The work itself is measured in-process: the same 20 partitions materialized by one `execute_in_process`
run over their range (no run launch, no daemon, one run's bookkeeping). The backfill's own cost per partition is
(sum over its runs of launch-to-end time - work) / 20: run start-up and in-run orchestration, which is
what the backfill policy controls. Dagster's backfill daemon also polls every 30 s (a fixed constant of
dagster, not configurable): the wait from submission to the first launch and from the last run's end to
the backfill's completion is reported separately, as a fixed cost per backfill.

A third measurement, `direct`, submits the same 20 partitions the way `gym-pipeline backfill --ui-url` does:
ranged runs of up to backfill_batch_size partitions sent straight to the webserver's run queue (dequeued
every second), with no backfill daemon in between.

Run: .venv/bin/python benchmarks/backfill_overhead.py [--checkpoints 10]
"""

import argparse
import json
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import dagster as dg
import yaml

from gym_pipeline.assets import SWEEP_ASSET_NAMES
from gym_pipeline.assets.partitions import sweep_partition_key, sweep_partitions
from gym_pipeline.backfill import WebserverBackfill, plan_backfill
from gym_pipeline.demo import run_demo
from gym_pipeline.host import NotReadyInTime, free_loopback_port, stop_process_tree, wait_until_ready
from gym_pipeline.sweep import EVAL_SWEEP_JOB, build_definitions, workspace_config

OUT = Path(__file__).parent / "out" / "backfill"
QUIET = {"loggers": {"console": {"config": {"log_level": "ERROR"}}}}
LAUNCH = """mutation($params: LaunchBackfillParams!) { launchPartitionBackfill(backfillParams: $params) {
  __typename ... on LaunchBackfillSuccess { backfillId } ... on PythonError { message } } }"""
STATUS = """query($id: String!) { partitionBackfillOrError(backfillId: $id) {
  ... on PartitionBackfill { status runs(limit: 1000) { runId } } } }"""


def graphql(port: int, query: str, variables: dict) -> dict:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/graphql", headers={"Content-Type": "application/json"},
                                     data=json.dumps({"query": query, "variables": variables}).encode())
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())["data"]


def work_seconds(home: Path, partitions: list[tuple[str, str]]) -> float:
    """The partitions' work: one in-process run over their whole range."""
    config = workspace_config(home)
    job = build_definitions(config).resolve_job_def(EVAL_SWEEP_JOB)
    wanted = {str(sweep_partition_key(checkpoint, env)) for checkpoint, env in partitions}
    with dg.DagsterInstance.from_config(str(home / "dagster")) as instance:
        # A range runs from the first to the last key in the partitions definition's own order.
        keys = [key for key in sweep_partitions(config).get_partition_keys(dynamic_partitions_store=instance)
                if key in wanted]
        assert len(keys) == len(wanted), "the partitions must be all the registered ones"
        started = time.perf_counter()
        job.execute_in_process(instance=instance, run_config=QUIET, tags={
            "dagster/asset_partition_range_start": keys[0], "dagster/asset_partition_range_end": keys[-1]})
        return time.perf_counter() - started


@contextmanager
def running_ui(home: Path) -> Iterator[int]:
    """`gym-pipeline ui` on a free port until the block ends; yields the port once the assets load."""
    port = free_loopback_port()
    log = (home / "ui.log").open("wb")
    process = subprocess.Popen([sys.executable, "-m", "gym_pipeline.cli", "ui", "--home", str(home), "--port",
                                str(port)], stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    def assets_load() -> bool:
        try:
            return bool(graphql(port, "{ assetNodes { id } }", {})["assetNodes"])
        except OSError:
            return False

    try:
        try:
            wait_until_ready(assets_load, 180, 1.0)
        except NotReadyInTime:
            raise RuntimeError("the UI did not come up") from None
        yield port
    finally:
        stop_process_tree(process, signal.SIGTERM, grace_s=120)
        log.close()


def run_timings(home: Path, run_ids: list[str], submitted: float, completed: float, elapsed: float) -> dict:
    with dg.DagsterInstance.from_config(str(home / "dagster")) as instance:
        stats = [instance.get_run_stats(run_id) for run_id in run_ids]
    launches, ends = [s.launch_time for s in stats], [s.end_time for s in stats]
    return {
        "runs": len(stats),
        "backfill_s": round(elapsed, 1),
        "queue_wait_s": round((min(launches) - submitted) + (completed - max(ends)), 1),
        "run_time_s": round(sum(end - launch for launch, end in zip(launches, ends, strict=True)), 1),
    }


def daemon_backfill_timings(home: Path, partitions: list[tuple[str, str]]) -> dict:
    """A GraphQL-launched backfill (what the UI's backfill button does): the backfill daemon plans the runs."""
    with running_ui(home) as port:
        names = [str(sweep_partition_key(checkpoint, env)) for checkpoint, env in partitions]
        assets = [{"path": [name]} for name in SWEEP_ASSET_NAMES]
        started = time.perf_counter()
        backfill = graphql(port, LAUNCH, {"params": {"partitionNames": names, "assetSelection": assets}})
        backfill_id = backfill["launchPartitionBackfill"]["backfillId"]
        while True:
            status = graphql(port, STATUS, {"id": backfill_id})["partitionBackfillOrError"]
            if status["status"] != "REQUESTED":
                break
            time.sleep(1)
        elapsed = time.perf_counter() - started
        if status["status"] != "COMPLETED_SUCCESS":
            raise RuntimeError(f"backfill ended {status['status']}; see {home / 'ui.log'}")
        return run_timings(home, [run["runId"] for run in status["runs"]], time.time() - elapsed, time.time(),
                           elapsed)


def direct_backfill_timings(home: Path) -> dict:
    """`gym-pipeline backfill --ui-url`: the same ranged runs submitted straight to the run queue."""
    config = workspace_config(home)
    with dg.DagsterInstance.from_config(str(home / "dagster")) as instance:
        plan = plan_backfill(config, instance, EVAL_SWEEP_JOB, None, None, None)
    with running_ui(home) as port:
        started = time.perf_counter()
        outcomes = list(WebserverBackfill(f"http://127.0.0.1:{port}", plan.job_name, plan.ranges,
                                          plan.backfill_id).outcomes())
        elapsed = time.perf_counter() - started
        if not all(outcome.succeeded for outcome in outcomes):
            raise RuntimeError(f"a backfill run failed; see {home / 'ui.log'}")
        return run_timings(home, [outcome.run_id for outcome in outcomes], time.time() - elapsed, time.time(),
                           elapsed)


def workspace(name: str, checkpoints: int, batch: int) -> Path:
    home = OUT / name
    shutil.rmtree(home, ignore_errors=True)
    run_demo(home, checkpoint_count=checkpoints, quiet=True)
    config_path = home / "sweep.yaml"
    config = yaml.safe_load(config_path.read_text())
    config["backfill_batch_size"] = batch
    config_path.write_text(yaml.safe_dump(config))
    return home


MODES = {  # name: (backfill_batch_size, how the backfill is launched)
    "batched": (20, "daemon"),
    "one_run_per_partition": (1, "daemon"),
    "direct": (20, "direct"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoints", type=int, default=10, help="partitions = checkpoints x 2 environments")
    parser.add_argument("--modes", nargs="+", choices=sorted(MODES), default=list(MODES))
    args = parser.parse_args()
    results = {}
    for name in args.modes:
        batch, launch = MODES[name]
        home = workspace(name, args.checkpoints, batch)
        config = workspace_config(home)
        partitions = [(f"step_{100 * (i + 1):04d}", env.name) for i in range(args.checkpoints)
                      for env in config.environments]
        work = work_seconds(home, partitions)
        timings = daemon_backfill_timings(home, partitions) if launch == "daemon" else direct_backfill_timings(home)
        results[name] = {"partitions": len(partitions), "work_s": round(work, 1), **timings,
                         "overhead_per_partition_s": round((timings["run_time_s"] - work) / len(partitions), 2),
                         "end_to_end_overhead_per_partition_s": round((timings["backfill_s"] - work)
                                                                      / len(partitions), 2)}
        print(name, results[name], flush=True)
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
