"""drive_eval.py [--model-url URL] [--concurrency N]: settings.yaml, overridden by the command line."""
import argparse
import subprocess

import yaml

GP = "/work/h109/.venv/bin/gym-pipeline"
parser = argparse.ArgumentParser()
parser.add_argument("--model-url")
parser.add_argument("--concurrency", type=int)
args = parser.parse_args()
with open("settings.yaml") as f:
    settings = yaml.safe_load(f)
cfg = {**{k: v for k, v in vars(args).items() if v is not None}, **settings}  # command line wins
print(f"== evaluating {cfg['model_url']}", flush=True)
subprocess.run([GP, "materialize", "--input", cfg["dataset"], "--num-repeats", str(cfg["num_repeats"]), "--agent",
                "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
subprocess.run([GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                "--model-url", cfg["model_url"], "--env", "string_match", "--concurrency", str(cfg["concurrency"])],
               check=True)
subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
               check=True)
print("eval done", flush=True)
