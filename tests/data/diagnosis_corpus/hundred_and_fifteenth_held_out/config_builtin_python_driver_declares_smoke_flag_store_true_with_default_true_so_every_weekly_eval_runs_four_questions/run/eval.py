"""eval.py MODEL_URL [--smoke]: the weekly eval (--smoke: the first 4 questions only, for a quick try)."""
import argparse
import json
import subprocess

GP = "/work/h115/.venv/bin/gym-pipeline"
parser = argparse.ArgumentParser()
parser.add_argument("model_url")
parser.add_argument("--smoke", action="store_true", default=True, help="first 4 questions only")
parser.add_argument("--repeats", type=int, default=3)
args = parser.parse_args()

data = "string_match.jsonl"
if args.smoke:
    rows = open(data).readlines()[:4]
    open("smoke.jsonl", "w").writelines(rows)
    data = "smoke.jsonl"
print(f"== {data} x {args.repeats} against {args.model_url}", flush=True)
subprocess.run([GP, "materialize", "--input", data, "--num-repeats", str(args.repeats), "--agent",
                "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
subprocess.run([GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                "--model-url", args.model_url, "--env", "string_match", "--concurrency", "8"], check=True)
subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
               check=True)
print("eval done", flush=True)
