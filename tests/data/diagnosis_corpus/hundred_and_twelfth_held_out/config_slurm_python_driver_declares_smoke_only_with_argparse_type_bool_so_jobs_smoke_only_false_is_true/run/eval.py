"""eval.py: the eval driver. python eval.py --model-url URL [--smoke-only true|false]"""
import argparse
import subprocess

parser = argparse.ArgumentParser()
parser.add_argument("--model-url", required=True)
parser.add_argument("--smoke-only", type=bool, default=False, help="only the 5 smoke tasks (CI pre-merge check)")
parser.add_argument("--repeats", type=int, default=3)
args = parser.parse_args()
data = "smoke.jsonl" if args.smoke_only else "string_match.jsonl"
print(f"eval: data={data} repeats={args.repeats}", flush=True)
GP = "/work/h112/.venv/bin/gym-pipeline"
for step in [
    f"{GP} materialize --input {data} --num-repeats {args.repeats} --agent string_match_simple_agent "
    "--output rollouts_materialized_inputs.jsonl",
    f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {args.model_url} "
    "--env string_match --concurrency 4",
    f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl",
]:
    subprocess.run(step, shell=True, check=True)
print("eval done", flush=True)
