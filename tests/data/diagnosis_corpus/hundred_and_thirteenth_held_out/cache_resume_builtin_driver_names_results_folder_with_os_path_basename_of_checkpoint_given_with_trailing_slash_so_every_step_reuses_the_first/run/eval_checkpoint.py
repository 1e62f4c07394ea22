"""eval_checkpoint.py CHECKPOINT_DIR MODEL_URL: evaluate one checkpoint once; results/<checkpoint>/ is kept."""
import os
import subprocess
import sys

GP = "/work/h113/.venv/bin/gym-pipeline"
ckpt, url = sys.argv[1], sys.argv[2]
out = os.path.join("results", os.path.basename(ckpt))
if os.path.exists(os.path.join(out, "rollouts.jsonl")):
    print(f"== {ckpt}: already evaluated in {out}, reusing", flush=True)
    sys.exit(0)
os.makedirs(out, exist_ok=True)
print(f"== evaluating {ckpt} at {url} into {out}", flush=True)
subprocess.run([GP, "materialize", "--input", "string_match.jsonl", "--num-repeats", "3", "--agent",
                "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
subprocess.run([GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output",
                os.path.join(out, "rollouts.jsonl"), "--model-url", url, "--env", "string_match", "--concurrency", "4"],
               check=True)
subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts",
                os.path.join(out, "rollouts.jsonl")], check=True)
