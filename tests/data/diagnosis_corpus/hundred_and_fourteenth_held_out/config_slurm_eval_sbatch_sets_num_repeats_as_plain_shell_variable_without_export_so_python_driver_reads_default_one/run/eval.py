"""eval.py: the eval driver; settings come from the environment (NUM_REPEATS, CONCURRENCY).

    python eval.py --model-url URL
"""
import argparse
import os
import subprocess

parser = argparse.ArgumentParser()
parser.add_argument("--model-url", required=True)
args = parser.parse_args()
repeats = int(os.environ.get("NUM_REPEATS", "1"))
concurrency = int(os.environ.get("CONCURRENCY", "4"))
print(f"eval: data=string_match.jsonl repeats={repeats} concurrency={concurrency}", flush=True)
GP = "/work/h114/.venv/bin/gym-pipeline"
for step in [
    f"{GP} materialize --input string_match.jsonl --num-repeats {repeats} --agent string_match_simple_agent "
    "--output rollouts_materialized_inputs.jsonl",
    f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {args.model_url} "
    f"--env string_match --concurrency {concurrency}",
    f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl",
]:
    subprocess.run(step, shell=True, check=True)
print("eval done", flush=True)
