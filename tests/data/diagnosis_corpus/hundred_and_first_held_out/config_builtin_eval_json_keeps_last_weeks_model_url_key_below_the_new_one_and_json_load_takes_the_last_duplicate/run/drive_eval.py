"""drive_eval.py: the weekly eval, settings from eval.json."""
import json
import subprocess

GP = "/work/h101/.venv/bin/gym-pipeline"
with open("eval.json") as f:
    cfg = json.load(f)
url = cfg["model_url"]
print(f"== model at {url}, {cfg['num_repeats']} repeats", flush=True)
subprocess.run([GP, "materialize", "--input", cfg["dataset"], "--num-repeats", str(cfg["num_repeats"]), "--agent",
                "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
subprocess.run([GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                "--model-url", url, "--env", "string_match", "--concurrency", str(cfg["concurrency"])], check=True)
subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
               check=True)
