"""The cost of looking: `gym-pipeline status` and the sensors' ticks, with large checkpoints and many partitions.

    .venv/bin/python benchmarks/status_scale.py large [--gb 2]          # the demo with 2 checkpoints of N GB each
    .venv/bin/python benchmarks/status_scale.py scale --checkpoints 200 --envs 2 [--envs 20 ...]
    .venv/bin/python benchmarks/status_scale.py ui --checkpoints 1000 --envs 20     # after `scale` of those sizes

`large`: the demo workspace (2 checkpoints, swept) with a weights file of `--gb` GB in each checkpoint; `status`
the first time (every byte hashed) and the second (digests reused), against the same workspace without the
large files. Target (issue 16): the second within 1 s of the workspace without them.

`scale`: a workspace with `--checkpoints` small checkpoint folders registered as partitions and `--envs`
environments (copies of the mcqa dataset), nothing materialized; `status` first and second, a tick of the
`observe_sources` sensor with nothing changed, and a tick of `new_checkpoints` when 200 new folders appear at
once, and the plan of a backfill over every partition. Targets: `status` under 10 s at 1,000 x 20, a sensor
tick under 30 s.

Each measurement is a fresh process, as a user runs it; the machine is shared, so the 1-minute load average is
printed with each figure.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import yaml

OUT = Path(__file__).parent / "out" / "status_scale"
REPO = Path(__file__).resolve().parents[1]


def timed(argv: list[str], env: dict | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, cwd=REPO, env=env)
    return time.perf_counter() - start


def load() -> str:
    return f"load {os.getloadavg()[0]:.1f}"


def status(home: Path, *extra: str) -> float:
    return timed([sys.executable, "-m", "gym_pipeline.cli", "status", "--home", str(home), "--json", *extra])


def large(gb: float) -> None:
    from gym_pipeline.demo import run_demo

    plain = OUT / "large" / "plain"
    shutil.rmtree(OUT / "large", ignore_errors=True)
    run_demo(plain, checkpoint_count=2, quiet=True)
    status(plain)  # first observations of the plain workspace
    plain_second = status(plain)
    heavy = OUT / "large" / "heavy"
    shutil.copytree(plain, heavy)
    for checkpoint in sorted((heavy / "checkpoints").iterdir()):
        with (checkpoint / "model.safetensors").open("wb") as weights:
            block = os.urandom(1 << 20)
            for _ in range(int(gb * 1024)):
                weights.write(block)
    first = status(heavy)
    second = status(heavy)
    rehash = status(heavy, "--rehash")
    print(f"status, demo without large files, second time: {plain_second:.2f} s ({load()})")
    print(f"status, 2 checkpoints x {gb:g} GB: first {first:.2f} s, second {second:.2f} s, "
          f"--rehash {rehash:.2f} s ({load()})")


SCALE_SCRIPT = """
import sys, time
from pathlib import Path
import dagster as dg
from gym_pipeline.sweep import build_definitions, workspace_config
from gym_pipeline.observation import OBSERVE_SOURCES_SENSOR
from gym_pipeline.sensors import NEW_CHECKPOINTS_SENSOR
from gym_pipeline.resources.digest_cache import DigestCacheResource
from gym_pipeline.resources.model_server import ModelServerResource
home, which = Path(sys.argv[1]), sys.argv[2]
config = workspace_config(home)
if which == "plan":  # what `gym-pipeline backfill` plans over every partition, before it submits anything
    from gym_pipeline.backfill import plan_backfill
    from gym_pipeline.sweep import EVAL_SWEEP_JOB
    with dg.DagsterInstance.from_config(str(home / "dagster")) as instance:
        start = time.perf_counter()
        plan = plan_backfill(config, instance, EVAL_SWEEP_JOB, None, None, None)
        print(f"{time.perf_counter() - start:.2f} {len(plan.ranges)}")
    sys.exit(0)
defs = build_definitions(config)
name = OBSERVE_SOURCES_SENSOR if which == "observe" else NEW_CHECKPOINTS_SENSOR
sensor = defs.resolve_sensor_def(name)
resources = {"digest_cache": DigestCacheResource(store=str(config.digest_cache)),
             "model_server": ModelServerResource.from_config(config.model_server)}
with dg.DagsterInstance.from_config(str(home / "dagster")) as instance:
    start = time.perf_counter()  # the tick's own work; the daemon then records events and queues the runs
    result = sensor(dg.build_sensor_context(instance=instance, resources=resources))
    print(f"{time.perf_counter() - start:.2f} {len(getattr(result, 'run_requests', None) or [])}")
"""


def scale(checkpoints: int, envs: int) -> None:
    from gym_pipeline.demo import prepare_dagster_home
    from gym_pipeline.serving.checkpoints import demo_checkpoints

    home = OUT / f"scale_{checkpoints}x{envs}"
    shutil.rmtree(home, ignore_errors=True)
    (home / "data").mkdir(parents=True)
    source = REPO / "gym_pipeline" / "examples" / "data" / "mcqa.jsonl"
    environments = []
    for index in range(envs):
        dataset = home / "data" / f"env_{index:02d}.jsonl"
        shutil.copyfile(source, dataset)
        environments.append({"name": f"env_{index:02d}", "dataset": str(dataset), "agent": "mcqa_simple_agent"})
    (home / "sweep.yaml").write_text(yaml.safe_dump({"environments": environments, "nightly_cron": None}))
    demo_checkpoints(home / "checkpoints", checkpoints, ["mcqa"])
    prepare_dagster_home(home)
    import dagster as dg

    from gym_pipeline.assets.partitions import CHECKPOINTS
    from gym_pipeline.discovery import discover_checkpoints
    from gym_pipeline.sweep import workspace_config

    with dg.DagsterInstance.from_config(str(home / "dagster")) as instance:
        instance.add_dynamic_partitions(CHECKPOINTS.name, discover_checkpoints(workspace_config(home)))
    first, second = status(home), status(home)
    tick = subprocess.run([sys.executable, "-c", SCALE_SCRIPT, str(home), "observe"], check=True, cwd=REPO,
                          capture_output=True, text=True).stdout.split()
    plan = subprocess.run([sys.executable, "-c", SCALE_SCRIPT, str(home), "plan"], check=True, cwd=REPO,
                          capture_output=True, text=True).stdout.split()
    demo_checkpoints(home / "checkpoints", checkpoints + 200, ["mcqa"])  # 200 new folders at once
    new = subprocess.run([sys.executable, "-c", SCALE_SCRIPT, str(home), "new"], check=True, cwd=REPO,
                         capture_output=True, text=True).stdout.split()
    print(f"{checkpoints} checkpoints x {envs} envs ({checkpoints * envs} partitions): status first {first:.2f} s, "
          f"second {second:.2f} s; observe_sources tick {float(tick[0]):.2f} s; new_checkpoints tick with 200 new "
          f"folders {float(new[0]):.2f} s, {new[1]} run requests; backfill plan of every partition "
          f"{float(plan[0]):.2f} s, {plan[1]} runs ({load()})")


UI_QUERIES = {  # what the asset's partitions page asks the webserver
    "partition stats": """{ assetNodeOrError(assetKey: {path: ["materialized_inputs"]}) { ... on AssetNode {
        partitionStats { numMaterialized numPartitions numFailed numMaterializing } } } }""",
    "partition keys by dimension": """{ assetNodeOrError(assetKey: {path: ["materialized_inputs"]}) {
        ... on AssetNode { partitionKeysByDimension { name partitionKeys } } } }""",
    "partition statuses": """{ assetNodeOrError(assetKey: {path: ["materialized_inputs"]}) { ... on AssetNode {
        assetPartitionStatuses { ... on MultiPartitionStatuses { primaryDimensionName ranges { primaryDimStartKey
        primaryDimEndKey secondaryDim { ... on DefaultPartitionStatuses { materializedPartitions } } } } } } } }""",
}


def ui(checkpoints: int, envs: int) -> None:
    """The UI's partitions page queries on a `scale` workspace (run `scale` with the same sizes first)."""
    import json
    import urllib.request

    import dagster as dg

    from gym_pipeline.host import free_loopback_port, stop_process_tree, wait_until_ready

    home = OUT / f"scale_{checkpoints}x{envs}"
    with dg.DagsterInstance.from_config(str(home / "dagster")) as instance:
        registered = set(instance.get_dynamic_partitions("checkpoints"))
    for folder in (home / "checkpoints").iterdir():  # the 200 `scale` added last: the sensor would sweep them
        if folder.name not in registered:
            shutil.rmtree(folder)
    port = free_loopback_port()
    process = subprocess.Popen([sys.executable, "-m", "gym_pipeline.cli", "ui", "--home", str(home), "--port",
                                str(port)], cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)

    def ask(query: str) -> dict | None:
        request = urllib.request.Request(f"http://127.0.0.1:{port}/graphql", headers={"Content-Type": "application/json"},
                                         data=json.dumps({"query": query}).encode())
        try:
            with urllib.request.urlopen(request, timeout=300) as answer:
                return json.loads(answer.read())
        except OSError:
            return None

    try:
        wait_until_ready(lambda: ask("{ version }"), 300, 1.0)
        for name, query in UI_QUERIES.items():
            for attempt in ("first", "second"):
                start = time.perf_counter()
                answer = ask(query)
                assert answer and "errors" not in answer, answer
                took = time.perf_counter() - start
                size = len(json.dumps(answer))
                print(f"{checkpoints} x {envs}: {name} ({attempt}) {took:.2f} s, {size} bytes ({load()})")
        print(json.dumps(ask(UI_QUERIES["partition stats"])["data"]))
    finally:
        stop_process_tree(process, __import__("signal").SIGTERM, grace_s=60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("large").add_argument("--gb", type=float, default=2.0)
    scaled = commands.add_parser("scale")
    scaled.add_argument("--checkpoints", type=int, nargs="+", default=[200])
    scaled.add_argument("--envs", type=int, nargs="+", default=[2])
    shown = commands.add_parser("ui")
    shown.add_argument("--checkpoints", type=int, default=1000)
    shown.add_argument("--envs", type=int, default=20)
    args = parser.parse_args()
    if args.command == "large":
        large(args.gb)
    elif args.command == "ui":
        ui(args.checkpoints, args.envs)
    else:
        for checkpoints in args.checkpoints:
            for envs in args.envs:
                scale(checkpoints, envs)


if __name__ == "__main__":
    main()
