"""run_shards.py: collect the shards side by side, one worker per four cores (our GPU nodes have 64)."""
import glob
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

URL = sys.argv[1]
shards = sorted(glob.glob("shard_*.jsonl"))
workers = os.cpu_count() // 4
print(f"{len(shards)} shards, {workers} workers", flush=True)


def collect(shard):
    out = shard.replace("shard_", "out_").replace(".jsonl", "")
    os.makedirs(out, exist_ok=True)
    return subprocess.run(["/work/wt-h88/.venv/bin/gym-pipeline", "collect", "--inputs", shard, "--output", f"{out}/rollouts.jsonl",
                           "--model-url", URL, "--env", "string_match", "--concurrency", "4"]).returncode


with ThreadPoolExecutor(max_workers=workers) as pool:
    codes = list(pool.map(collect, shards))
print("collect exit codes:", codes)
