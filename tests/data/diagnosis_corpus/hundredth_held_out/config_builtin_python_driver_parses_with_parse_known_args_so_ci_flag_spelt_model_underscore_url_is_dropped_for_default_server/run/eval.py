"""eval.py: the weekly eval (materialize, collect, profile).

CI passes one shared flag set to every tool of the eval repo; each tool takes what it knows and ignores the rest.
"""
import argparse
import subprocess

GP = "/work/h100/.venv/bin/gym-pipeline"
parser = argparse.ArgumentParser()
parser.add_argument("--data", default="string_match.jsonl")
parser.add_argument("--repeats", type=int, default=3)
parser.add_argument("--concurrency", type=int, default=4)
parser.add_argument("--model-url", default="http://127.0.0.1:43859/v1")  # the team's standing eval server
args, ignored = parser.parse_known_args()
print(f"eval of {args.data} x {args.repeats} against {args.model_url}", flush=True)
for step in (
    [GP, "materialize", "--input", args.data, "--num-repeats", str(args.repeats),
     "--agent", "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"],
    [GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
     "--model-url", args.model_url, "--env", "string_match", "--concurrency", str(args.concurrency)],
    [GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
):
    subprocess.run(step, check=True)
