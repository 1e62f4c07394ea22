"""Backfill orchestration overhead: 20 (checkpoint, env) partitions re-evaluated through the real Dagster
daemon and webserver (`gym-pipeline ui`), batched (backfill_batch_size 20) against one run per partition
(backfill_batch_size 1). Target (issue 7): batched adds < 1 s of orchestration per partition on top of
the work itself.

The work itself is measured in-process: the same 20 partitions materialized one after the other by
`execute_in_process` (no run launch, no daemon). Overhead per partition = (backfill wall time - work) / 20.

Run: .venv/bin/python benchmarks/backfill_overhead.py [--checkpoints 10]
"""

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import dagster as dg
import yaml

from gym_pipeline.assets import SWEEP_ASSET_NAMES
from gym_pipeline.assets.partitions import sweep_partition_key
from gym_pipeline.demo import run_demo
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


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def work_seconds(home: Path, partitions: list[tuple[str, str]]) -> float:
    """The partitions' work, materialized in this process one after the other."""
    defs = build_definitions(workspace_config(home))
    job = defs.resolve_job_def(EVAL_SWEEP_JOB)
    with dg.DagsterInstance.from_config(str(home / "dagster")) as instance:
        started = time.perf_counter()
        for checkpoint, env in partitions:
            job.execute_in_process(instance=instance, partition_key=sweep_partition_key(checkpoint, env),
                                   run_config=QUIET)
        return time.perf_counter() - started


def backfill_seconds(home: Path, partitions: list[tuple[str, str]]) -> tuple[float, int]:
    """Wall time of a GraphQL-launched backfill through `gym-pipeline ui`, and how many runs it took."""
    port = free_port()
    log = (home / "ui.log").open("wb")
    process = subprocess.Popen([sys.executable, "-m", "gym_pipeline.cli", "ui", "--home", str(home), "--port",
                                str(port)], stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                if graphql(port, "{ assetNodes { id } }", {})["assetNodes"]:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the UI did not come up")
            time.sleep(1)
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
        return elapsed, len(status["runs"])
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=120)
        log.close()


def workspace(name: str, checkpoints: int, batch: int) -> Path:
    home = OUT / name
    shutil.rmtree(home, ignore_errors=True)
    run_demo(home, checkpoint_count=checkpoints, quiet=True)
    config_path = home / "sweep.yaml"
    config = yaml.safe_load(config_path.read_text())
    config["backfill_batch_size"] = batch
    config_path.write_text(yaml.safe_dump(config))
    return home


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoints", type=int, default=10, help="partitions = checkpoints x 2 environments")
    args = parser.parse_args()
    results = {}
    for name, batch in (("batched", 20), ("one_run_per_partition", 1)):
        home = workspace(name, args.checkpoints, batch)
        config = workspace_config(home)
        partitions = [(f"step_{100 * (i + 1):04d}", env.name) for i in range(args.checkpoints)
                      for env in config.environments]
        work = work_seconds(home, partitions)
        wall, runs = backfill_seconds(home, partitions)
        results[name] = {"partitions": len(partitions), "runs": runs, "backfill_s": round(wall, 1),
                         "work_s": round(work, 1),
                         "overhead_per_partition_s": round((wall - work) / len(partitions), 2)}
        print(name, results[name], flush=True)
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
