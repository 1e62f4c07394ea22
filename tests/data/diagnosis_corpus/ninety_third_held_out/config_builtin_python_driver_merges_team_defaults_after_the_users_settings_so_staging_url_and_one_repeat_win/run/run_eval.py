"""run_eval.py: the weekly eval with this week's settings (eval_settings.json) over the team's defaults."""
import json
import subprocess

# the team's defaults (the staging server, a quick single-repeat check)
DEFAULTS = {"model_url": "http://127.0.0.1:45427/v1", "num_repeats": 1, "concurrency": 4, "dataset": "string_match.jsonl"}

with open("eval_settings.json") as f:
    settings = {**json.load(f), **DEFAULTS}
print(f"settings: {settings}", flush=True)

GP = "/work/h93/.venv/bin/gym-pipeline"
subprocess.run([GP, "materialize", "--input", settings["dataset"], "--num-repeats", str(settings["num_repeats"]),
                "--agent", "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
subprocess.run([GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                "--model-url", settings["model_url"], "--env", "string_match",
                "--concurrency", str(settings["concurrency"])], check=True)
subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
               check=True)
print("weekly eval done", flush=True)
