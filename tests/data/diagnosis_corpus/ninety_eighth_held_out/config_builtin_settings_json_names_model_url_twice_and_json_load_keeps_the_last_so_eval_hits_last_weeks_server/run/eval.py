"""eval.py SETTINGS: the weekly eval (materialize, collect, profile) from a JSON settings file."""
import json
import subprocess
import sys

GP = "/work/h98/.venv/bin/gym-pipeline"
cfg = json.load(open(sys.argv[1]))
print(f"eval of {cfg['dataset']} x {cfg['repeats']} against {cfg['model_url']}", flush=True)
steps = [
    [GP, "materialize", "--input", cfg["dataset"], "--num-repeats", str(cfg["repeats"]),
     "--agent", "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"],
    [GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
     "--model-url", cfg["model_url"], "--env", "string_match", "--concurrency", str(cfg["concurrency"])],
    [GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
]
for step in steps:
    subprocess.run(step, check=True)
