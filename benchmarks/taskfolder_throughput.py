"""Task-folder episodes per second at a few concurrencies, against the cost of starting a container.

Runs the bundled taskset's oracle (solution/solve.sh) on the real Docker engine, `--repeats` times per task at
each concurrency, and reports episodes/s with where an episode's time goes (sandbox start, agent, tests copied
and test.sh run, cleanup), measured around the same calls the episode runner makes. The baseline is a bare
`docker run --rm IMAGE true`: the floor of one container's start and removal.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/taskfolder_throughput.py [--repeats 2] [--concurrency 1 2 4 8]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from gym_pipeline.launchers.settings import DEFAULT_IMAGE
from gym_pipeline.taskfolders.agents import run_oracle
from gym_pipeline.taskfolders.episode import EpisodeSettings, run_episode
from gym_pipeline.taskfolders.loader import load_taskset
from gym_pipeline.taskfolders.sandbox import Sandbox, docker_client, ensure_image

TASKS = Path(__file__).resolve().parents[1] / "gym_pipeline" / "examples" / "tasks"


class _Timed:
    """Wraps the sandbox methods an episode calls and keeps each call's time under its phase."""

    def __init__(self):
        self.seconds = defaultdict(list)

    def install(self):
        timings = self.seconds

        def wrap(name, phase):
            original = getattr(Sandbox, name)

            def timed(self, *args, **kwargs):
                started = time.monotonic()
                try:
                    return original(self, *args, **kwargs)
                finally:
                    timings[phase].append(time.monotonic() - started)
            setattr(Sandbox, name, timed)
        wrap("start", "sandbox start")
        wrap("remove", "cleanup")
        wrap("put_folder", "copy in (tests, solution)")
        wrap("get_folder", "copy out (verifier logs)")
        wrap("run", "commands (solve.sh, test.sh, setup)")


def container_baseline(client, runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        started = time.monotonic()
        client.containers.run(DEFAULT_IMAGE, ["true"], network_mode="none", remove=True)
        times.append(time.monotonic() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 2, 4, 8])
    args = parser.parse_args()
    client = docker_client()
    tasks = load_taskset(TASKS).tasks
    images = {task.task_id: ensure_image(client, task)[0] for task in tasks}
    print(f"bare `docker run --rm {DEFAULT_IMAGE} true`: {container_baseline(client):.3f} s (median of 5)")
    timer = _Timed()
    timer.install()
    work = [task for task in tasks for _ in range(args.repeats)]
    for concurrency in args.concurrency:
        timer.seconds.clear()
        with tempfile.TemporaryDirectory() as scratch:
            def one(indexed):
                index, task = indexed
                return run_episode(client, task, images[task.task_id], run_oracle, Path(scratch) / str(index),
                                   EpisodeSettings())
            started = time.monotonic()
            with ThreadPoolExecutor(concurrency) as pool:
                outcomes = list(pool.map(one, enumerate(work)))
            wall = time.monotonic() - started
        passed = sum(outcome.reward == 1.0 for outcome in outcomes)
        per_episode = statistics.mean(outcome.elapsed_s for outcome in outcomes)
        phases = ", ".join(f"{phase} {sum(values) / len(outcomes):.3f}" for phase, values in timer.seconds.items())
        print(f"concurrency {concurrency}: {len(outcomes)} episodes in {wall:.1f} s = {len(outcomes) / wall:.2f} "
              f"episodes/s ({passed} passed); mean episode {per_episode:.3f} s: {phases} (s per episode)")


if __name__ == "__main__":
    main()
