"""drive_eval.py STEP MODEL_URL: the weekly eval, with a cache so a re-run after preemption is free."""
import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

GP = "/work/h99/.venv/bin/gym-pipeline"
step, url = sys.argv[1], sys.argv[2]
print(f"== evaluating {step} at {url}", flush=True)
subprocess.run([GP, "materialize", "--input", "string_match.jsonl", "--num-repeats", "3", "--agent",
                "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
key = hashlib.sha256(Path("rollouts_materialized_inputs.jsonl").read_bytes()).hexdigest()[:16]
cached = Path(".eval_cache") / f"{key}.jsonl"
if cached.exists():
    print(f"cache hit {cached}: reusing rollouts", flush=True)
    shutil.copy(cached, "rollouts.jsonl")
else:
    subprocess.run([GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                    "--model-url", url, "--env", "string_match", "--concurrency", "4"], check=True)
    cached.parent.mkdir(exist_ok=True)
    shutil.copy("rollouts.jsonl", cached)
subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
               check=True)
print(f"{step}: done", flush=True)
