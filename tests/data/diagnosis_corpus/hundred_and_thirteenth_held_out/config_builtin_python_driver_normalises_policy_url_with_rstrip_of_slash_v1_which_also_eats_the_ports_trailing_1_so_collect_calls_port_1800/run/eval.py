"""eval.py: the weekly eval; the server comes from eval_settings.json."""
import json
import subprocess

GP = "/work/h113/.venv/bin/gym-pipeline"
cfg = json.load(open("eval_settings.json"))
# accept the base URL with or without /v1 (people paste both)
url = cfg["policy_url"].rstrip("/v1") + "/v1"
print(f"== policy: {url}", flush=True)
subprocess.run([GP, "materialize", "--input", cfg["dataset"], "--num-repeats", str(cfg["num_repeats"]), "--agent",
                "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
subprocess.run([GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                "--model-url", url, "--env", "string_match", "--concurrency", str(cfg["concurrency"])], check=True)
subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
               check=True)
print("eval done", flush=True)
