"""run_splits.py: the weekly eval, one run folder per split."""
import os
import subprocess
import sys

URL = sys.argv[1]
SPLITS = [
    "splits/geography.jsonl",
    "splits/science.jsonl"
    "splits/arithmetic.jsonl",   # added this week
]

for split in SPLITS:
    if not os.path.exists(split):
        print(f"warning: {split} not found, skipping")
        continue
    name = os.path.basename(split).removesuffix(".jsonl")
    out = f"runs/{name}"
    os.makedirs(out, exist_ok=True)
    print(f"== {name}", flush=True)
    for argv in (
        ["/work/wt-h91/.venv/bin/gym-pipeline", "materialize", "--input", split, "--num-repeats", "3", "--agent", "string_match_simple_agent",
         "--output", f"{out}/rollouts_materialized_inputs.jsonl"],
        ["/work/wt-h91/.venv/bin/gym-pipeline", "collect", "--inputs", f"{out}/rollouts_materialized_inputs.jsonl", "--output",
         f"{out}/rollouts.jsonl", "--model-url", URL, "--env", "string_match", "--concurrency", "4"],
        ["/work/wt-h91/.venv/bin/gym-pipeline", "profile", "--inputs", f"{out}/rollouts_materialized_inputs.jsonl", "--rollouts",
         f"{out}/rollouts.jsonl"],
    ):
        subprocess.run(argv, check=True)
print("weekly eval done")
