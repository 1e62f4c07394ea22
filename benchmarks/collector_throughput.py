"""Collector throughput: the built-in engine at concurrency 256 against the simulated policy with latency.

Target (issue 8): at least 90% of the latency bound, i.e. elapsed <= (rows x latency / concurrency) / 0.9.
The policy runs as `gym-pipeline serve-policy --latency-ms L` in its own process; each run collects every
row into a fresh temporary folder (nothing is left behind). Elapsed is the wall time of `collect()`, from
reading the inputs to the last row written, model discovery included. Each run is paired with a bare aiohttp
client posting the same requests at the same concurrency (no verifying, no writing): the difference is the
collector's own cost; what the bare client misses of the bound is the machine's and aiohttp's.

Run: .venv/bin/python benchmarks/collector_throughput.py [--rows 8192] [--latency-ms 250] [--concurrency 256]
     [--runs 3] [--profile]   (--profile: one run under cProfile, the top functions of the collector process)
"""

import argparse
import asyncio
import cProfile
import os
import pstats
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp
import orjson

from gym_pipeline.core.formats import count_lines
from gym_pipeline.core.materialize import MaterializationSettings, materialize_file
from gym_pipeline.engines.builtin import CollectorSettings, collect
from gym_pipeline.engines.responses import chat_request
from gym_pipeline.environments import get_environment
from gym_pipeline.host import stop_process_tree
from gym_pipeline.serving.checkpoints import demo_checkpoints

ENV = "string_match"
MODEL = "sim-policy"  # the demo checkpoint's model id
TARGET = 0.9


def cpu_seconds_of(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def make_inputs(path: Path, rows: int) -> None:
    environment = get_environment(ENV)
    tasks = count_lines(environment.dataset_path)
    materialize_file(environment.dataset_path, path, MaterializationSettings(-(-rows // tasks), environment.agent_name))
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:rows]))


def start_policy(checkpoint: Path, folder: Path, latency_ms: int) -> tuple[subprocess.Popen, str]:
    ready = folder / "policy.url"
    command = [sys.executable, "-m", "gym_pipeline.cli", "serve-policy", "--checkpoint", str(checkpoint),
               "--port", "0", "--ready-file", str(ready), "--latency-ms", str(latency_ms)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, start_new_session=True)
    while not ready.exists():
        if process.poll() is not None:
            raise SystemExit(f"serve-policy exited with code {process.returncode}")
        time.sleep(0.05)
    return process, ready.read_text().strip()


def collect_once(inputs: Path, folder: Path, settings: CollectorSettings) -> tuple[float, int]:
    output = folder / "rollouts.jsonl"
    started = time.perf_counter()
    summary = asyncio.run(collect(inputs, output, get_environment(ENV), settings))
    elapsed = time.perf_counter() - started
    if summary.failed or summary.collected != summary.total:
        raise SystemExit(f"collection incomplete: {summary}")
    return elapsed, summary.collected


async def bare_client(inputs: Path, url: str, model: str, concurrency: int) -> float:
    """The same chat completions with nothing but aiohttp: the floor the collector is measured against."""
    rows = [orjson.loads(line) for line in inputs.read_bytes().splitlines()]
    bodies = [orjson.dumps(chat_request(row["responses_create_params"], model, row["_ng_rollout_index"]))
              for row in rows]
    slots = asyncio.Semaphore(concurrency)
    headers = {"Content-Type": "application/json"}
    started = time.perf_counter()
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=concurrency)) as session:

        async def post(body: bytes) -> None:
            async with slots, session.post(url + "/chat/completions", data=body, headers=headers) as answer:
                answer.raise_for_status()
                await answer.read()

        await asyncio.gather(*(post(body) for body in bodies))
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=8192)
    parser.add_argument("--latency-ms", type=int, default=250)
    parser.add_argument("--concurrency", type=int, default=256)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="collector_throughput_") as scratch:
        folder = Path(scratch)
        checkpoint = demo_checkpoints(folder / "checkpoints", 1, [ENV])[0]
        inputs = folder / "rollouts_materialized_inputs.jsonl"
        make_inputs(inputs, args.rows)
        process, url = start_policy(checkpoint, folder, args.latency_ms)
        try:
            settings = CollectorSettings(model_url=url, concurrency=args.concurrency)
            bound = args.rows * args.latency_ms / 1000 / args.concurrency
            print(f"{args.rows} rows, latency {args.latency_ms} ms, concurrency {args.concurrency}: "
                  f"latency bound {bound:.2f} s, target <= {bound / TARGET:.2f} s; "
                  f"load average {os.getloadavg()[0]:.1f}")
            if args.profile:
                profiler = cProfile.Profile()
                profiler.runcall(collect_once, inputs, folder, settings)
                pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
                return
            collect_once(inputs, folder, settings)  # warm-up: imports, the server's first connections
            results, floors = [], []
            for run in range(args.runs):
                server_cpu, client_cpu = cpu_seconds_of(process.pid), own_cpu_seconds()
                elapsed, rows = collect_once(inputs, folder, settings)
                server_cpu = cpu_seconds_of(process.pid) - server_cpu
                client_cpu = own_cpu_seconds() - client_cpu
                floor = asyncio.run(bare_client(inputs, url, MODEL, args.concurrency))
                results.append(elapsed)
                floors.append(floor)
                print(f"run {run + 1}: {elapsed:.2f} s = {rows / elapsed:.0f} rows/s, {bound / elapsed:.1%} of the "
                      f"bound; cpu: collector {client_cpu:.2f} s, policy server {server_cpu:.2f} s; "
                      f"bare aiohttp client {floor:.2f} s ({bound / floor:.1%}); load {os.getloadavg()[0]:.1f}")
            best, median = min(results), statistics.median(results)
            verdict = "meets" if median <= bound / TARGET else "MISSES"
            print(f"collector: best {best:.2f} s ({bound / best:.1%}), median {median:.2f} s ({bound / median:.1%}): "
                  f"{verdict} the {TARGET:.0%} target; bare aiohttp client median {statistics.median(floors):.2f} s "
                  f"({bound / statistics.median(floors):.1%})")
        finally:
            stop_process_tree(process, signal.SIGTERM)


if __name__ == "__main__":
    main()
