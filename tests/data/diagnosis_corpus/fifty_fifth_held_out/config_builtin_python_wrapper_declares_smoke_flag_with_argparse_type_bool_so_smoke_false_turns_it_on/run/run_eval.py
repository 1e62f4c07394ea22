"""run_eval.py: the weekly eval (materialize, collect, profile); --smoke True for a quick check of 2 tasks."""
import argparse
import subprocess
import sys

parser = argparse.ArgumentParser()
parser.add_argument("--model-url", required=True)
parser.add_argument("--data", default="string_match.jsonl")
parser.add_argument("--smoke", type=bool, default=False, help="True: 2 tasks, 1 repeat (a quick check)")
args = parser.parse_args()

data, repeats = args.data, "3"
if args.smoke:
    with open(args.data) as full, open("smoke.jsonl", "w") as out:
        out.writelines(full.readlines()[:2])
    data, repeats = "smoke.jsonl", "1"
print(f"run_eval: data={data} repeats={repeats} (smoke={args.smoke})", flush=True)
GP = "/work/wt-h55/.venv/bin/gym-pipeline"
for argv in ([GP, "materialize", "--input", data, "--num-repeats", repeats, "--agent", "string_match_simple_agent",
              "--output", "rollouts_materialized_inputs.jsonl"],
             [GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
              "--model-url", args.model_url, "--env", "string_match", "--concurrency", "4"],
             [GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"]):
    code = subprocess.run(argv).returncode
    if code:
        sys.exit(code)
