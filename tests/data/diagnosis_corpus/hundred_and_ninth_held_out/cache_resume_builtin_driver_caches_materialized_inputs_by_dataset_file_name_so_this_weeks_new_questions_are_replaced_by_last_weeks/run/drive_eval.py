"""drive_eval.py MODEL_URL: materialize once per dataset (cached under ~/.cache/evals), collect, profile."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

GP = "/work/h109/.venv/bin/gym-pipeline"
DATASET = "string_match.jsonl"
url = sys.argv[1]
cache = Path(os.environ.get("EVAL_CACHE", Path.home() / ".cache" / "evals")) / "materialized"
cache.mkdir(parents=True, exist_ok=True)
cached = cache / Path(DATASET).name
if cached.exists():
    print(f"== reusing cached materialized inputs {cached}", flush=True)
    shutil.copy(cached, "rollouts_materialized_inputs.jsonl")
else:
    subprocess.run([GP, "materialize", "--input", DATASET, "--num-repeats", "3", "--agent",
                    "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
    shutil.copy("rollouts_materialized_inputs.jsonl", cached)
subprocess.run([GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                "--model-url", url, "--env", "string_match", "--concurrency", "4"], check=True)
subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
               check=True)
print("eval done", flush=True)
