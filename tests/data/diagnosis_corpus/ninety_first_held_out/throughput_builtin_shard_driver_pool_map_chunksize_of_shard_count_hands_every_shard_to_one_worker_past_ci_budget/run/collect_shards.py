"""collect_shards.py: collect every shard of the materialized inputs side by side, one process per shard."""
import multiprocessing
import subprocess
import sys
from pathlib import Path

URL = sys.argv[1]
SHARDS = sorted(Path("shards/in").glob("part_*"))


def collect(shard):
    print(f"collect {shard.name} starts", flush=True)
    code = subprocess.run(["/work/wt-h91/.venv/bin/gym-pipeline", "collect", "--inputs", str(shard), "--output", f"shards/out/{shard.name}.jsonl",
                           "--model-url", URL, "--env", "string_match", "--concurrency", "2"]).returncode
    print(f"collect {shard.name} exit {code}", flush=True)
    return code


if __name__ == "__main__":
    # one worker per shard; chunksize from the prep pipeline's pool settings (fewer round trips to the workers)
    with multiprocessing.Pool(len(SHARDS)) as pool:
        codes = pool.map(collect, SHARDS, chunksize=len(SHARDS))
    sys.exit(max(codes))
