"""eval.py: the eval driver. python eval.py --data FILE [--data FILE ...] --model-url URL"""
import argparse
import subprocess

parser = argparse.ArgumentParser()
parser.add_argument("--data", action="append", default=["smoke.jsonl"],
                    help="task file(s), repeatable (default: the smoke set)")
parser.add_argument("--repeats", type=int, default=3)
parser.add_argument("--model-url", required=True)
args = parser.parse_args()
print(f"eval: data={args.data} repeats={args.repeats}", flush=True)
with open("tasks.jsonl", "w") as out:
    for name in args.data:
        with open(name) as f:
            out.write(f.read())
GP = "/work/h110/.venv/bin/gym-pipeline"
for step in [
    f"{GP} materialize --input tasks.jsonl --num-repeats {args.repeats} --agent string_match_simple_agent "
    "--output rollouts_materialized_inputs.jsonl",
    f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {args.model_url} "
    "--env string_match --concurrency 8",
    f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl",
]:
    subprocess.run(step, shell=True, check=True)
print("eval done", flush=True)
