"""eval.py: the weekly eval, settings from eval.toml ([eval] table)."""
import subprocess
import sys
import tomllib

with open("eval.toml", "rb") as f:
    cfg = tomllib.load(f)["eval"]
repeats = cfg.get("num_repeats", 1)
concurrency = cfg.get("concurrency", 4)
print(f"eval: data={cfg['data']} repeats={repeats} concurrency={concurrency}", flush=True)
GP = "/work/h108/.venv/bin/gym-pipeline"
steps = [
    f"{GP} materialize --input {cfg['data']} --num-repeats {repeats} --agent string_match_simple_agent "
    "--output rollouts_materialized_inputs.jsonl",
    f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {sys.argv[1]} "
    f"--env string_match --concurrency {concurrency}",
    f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl",
]
for step in steps:
    subprocess.run(step, shell=True, check=True)
print("eval done", flush=True)
