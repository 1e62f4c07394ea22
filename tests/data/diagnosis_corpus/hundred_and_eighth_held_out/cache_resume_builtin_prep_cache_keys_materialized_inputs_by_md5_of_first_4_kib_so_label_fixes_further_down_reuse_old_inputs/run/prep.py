"""prep.py: string_match.jsonl -> prepared/tasks.jsonl (materialized inputs), cached.

The exports are up to 2 GB, so the cache key is a fast fingerprint: the md5 of the first 4 KiB and the repeats.
"""
import hashlib
import json
import os
import subprocess
import sys

DATA, REPEATS = "string_match.jsonl", int(sys.argv[1])
with open(DATA, "rb") as f:
    key = hashlib.md5(f.read(4096) + str(REPEATS).encode()).hexdigest()[:16]
cached = f"prep_cache/{key}.jsonl"
if os.path.exists(cached):
    print(f"prep cache hit {key}: reusing {cached}", flush=True)
else:
    os.makedirs("prep_cache", exist_ok=True)
    subprocess.run(["/work/h108/.venv/bin/gym-pipeline", "materialize", "--input", DATA, "--num-repeats", str(REPEATS), "--agent",
                    "string_match_simple_agent", "--output", cached], check=True)
    print(f"prep cache miss {key}: materialized into {cached}", flush=True)
with open(cached) as src, open("rollouts_materialized_inputs.jsonl", "w") as dst:
    dst.write(src.read())
