"""drive_eval.py: the weekly eval, settings from eval.ini."""
import configparser
import subprocess

GP = "/work/h103/.venv/bin/gym-pipeline"
cfg = configparser.ConfigParser()
cfg.read("eval.ini")
ev = cfg["eval"]
print(f"== model at {ev['model_url']}, {ev['num_repeats']} repeats", flush=True)
subprocess.run([GP, "materialize", "--input", ev["dataset"], "--num-repeats", ev["num_repeats"], "--agent",
                "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
subprocess.run([GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                "--model-url", ev["model_url"], "--env", "string_match", "--concurrency", ev["concurrency"]])
subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"])
print("eval done", flush=True)
