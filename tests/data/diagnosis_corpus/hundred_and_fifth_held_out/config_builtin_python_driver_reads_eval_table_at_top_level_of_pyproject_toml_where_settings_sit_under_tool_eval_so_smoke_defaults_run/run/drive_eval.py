"""drive_eval.py MODEL_URL: the weekly eval; settings from pyproject.toml (defaults = the smoke test)."""
import subprocess
import sys
import tomllib

GP = "/work/h105/.venv/bin/gym-pipeline"
url = sys.argv[1]
with open("pyproject.toml", "rb") as f:
    settings = tomllib.load(f).get("eval", {})
dataset = settings.get("dataset", "smoke.jsonl")
repeats = settings.get("num_repeats", 1)
concurrency = settings.get("concurrency", 2)
print(f"== eval of {dataset}, {repeats} repeats, concurrency {concurrency}", flush=True)
subprocess.run([GP, "materialize", "--input", dataset, "--num-repeats", str(repeats), "--agent",
                "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
subprocess.run([GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                "--model-url", url, "--env", "string_match", "--concurrency", str(concurrency)], check=True)
subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
               check=True)
print("eval done", flush=True)
