"""drive_eval.py MODEL_URL: the nightly eval, bounded by the CI step budget."""
import json
import subprocess
import sys

GP = "/work/h103/.venv/bin/gym-pipeline"
url = sys.argv[1]
subprocess.run([GP, "materialize", "--input", "string_match.jsonl", "--num-repeats", "3", "--agent",
                "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
with open("rollouts_materialized_inputs.jsonl") as f:
    n_rows = sum(1 for _ in f)
concurrency = max(1, n_rows // 64)  # one worker per 64 rows, as tuned on the 4k-row train split
print(f"== {n_rows} rows, collect concurrency {concurrency}", flush=True)
# the CI step allows 30 s for collect on the nightly set
code = subprocess.run(["timeout", "30", GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output",
                       "rollouts.jsonl", "--model-url", url, "--env", "string_match", "--concurrency",
                       str(concurrency)]).returncode
print(f"collect exit {code}", flush=True)
subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"])
