"""run_eval.py: the weekly eval, from eval.toml (materialize, collect, profile)."""
import subprocess
import sys
import tomllib

with open("eval.toml", "rb") as handle:
    settings = tomllib.load(handle)
cfg = settings["eval"]
url = cfg.get("model_url", "http://127.0.0.1:8000/v1")  # the usual local vLLM
print(f"eval: model {url}, repeats {cfg['repeats']}, concurrency {cfg['concurrency']}", flush=True)
gp = '/work/wt-h79/.venv/bin/gym-pipeline'
steps = [
    [gp, "materialize", "--input", "string_match.jsonl", "--num-repeats", str(cfg["repeats"]),
     "--agent", "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"],
    [gp, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
     "--model-url", url, "--env", "string_match", "--concurrency", str(cfg["concurrency"])],
    [gp, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
]
codes = [subprocess.run(step).returncode for step in steps]
print(f"eval: exit codes {codes}")
sys.exit(max(codes))
