"""drive_eval.py MODEL_URL: collect the materialized inputs in 4 shards at once, merge, profile."""
import subprocess
import sys
import time

GP = "/work/h107/.venv/bin/gym-pipeline"
SHARDS = 4
url = sys.argv[1]
t0 = time.monotonic()
subprocess.run([GP, "materialize", "--input", "string_match.jsonl", "--num-repeats", "3", "--agent",
                "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
lines = open("rollouts_materialized_inputs.jsonl").readlines()
for i in range(SHARDS):
    with open(f"shard_{i}.jsonl", "w") as f:
        f.writelines(lines[i::SHARDS])


def start(i):
    print(f"[{time.monotonic() - t0:5.1f} s] shard {i}: collect started", flush=True)
    return subprocess.Popen([GP, "collect", "--inputs", f"shard_{i}.jsonl", "--output", f"rollouts_shard_{i}.jsonl",
                             "--model-url", url, "--env", "string_match", "--concurrency", "2"])


# start the 4 shards and gather their exit codes
codes = [start(i).wait() for i in range(SHARDS)]
print(f"[{time.monotonic() - t0:5.1f} s] shards done: {codes}", flush=True)
with open("rollouts.jsonl", "w") as out:
    for i in range(SHARDS):
        out.write(open(f"rollouts_shard_{i}.jsonl").read())
subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
               check=True)
print("eval done", flush=True)
