"""drive_eval.py: the weekly eval, settings from settings.toml [eval]."""
import subprocess
import tomllib

GP = "/work/h111/.venv/bin/gym-pipeline"
BASELINE_URL = "http://127.0.0.1:39413/v1"  # the production baseline, when no candidate is given
with open("settings.toml", "rb") as f:
    cfg = tomllib.load(f)["eval"]
url = cfg.get("model_url", BASELINE_URL)
print(f"== evaluating {url}", flush=True)
subprocess.run([GP, "materialize", "--input", cfg["dataset"], "--num-repeats", str(cfg["num_repeats"]), "--agent",
                "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
subprocess.run([GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                "--model-url", url, "--env", "string_match", "--concurrency", str(cfg["concurrency"])], check=True)
subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
               check=True)
print("eval done", flush=True)
