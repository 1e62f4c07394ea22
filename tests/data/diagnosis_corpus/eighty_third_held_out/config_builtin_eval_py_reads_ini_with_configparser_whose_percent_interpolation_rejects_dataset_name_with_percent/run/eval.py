"""eval.py: the weekly eval, its settings in eval.ini."""
import configparser
import subprocess
import sys

GP = "/work/wt-h83/.venv/bin/gym-pipeline"
cfg = configparser.ConfigParser()
cfg.read("eval.ini")
s = cfg["eval"]
print(f"eval: data {s['data']}, model {s['model_url']}, repeats {s['repeats']}, concurrency {s['concurrency']}",
      flush=True)
steps = [
    [GP, "materialize", "--input", s["data"], "--num-repeats", s["repeats"], "--agent", "string_match_simple_agent",
     "--output", "rollouts_materialized_inputs.jsonl"],
    [GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
     "--model-url", s["model_url"], "--env", "string_match", "--concurrency", s["concurrency"]],
    [GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
]
for step in steps:
    code = subprocess.run(step).returncode
    if code:
        sys.exit(code)
