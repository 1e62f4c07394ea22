"""eval.py: the weekly eval; settings from eval.ini, personal overrides from eval.local.ini (git-ignored)."""
import configparser
import subprocess
import sys

cfg = configparser.ConfigParser()
read = cfg.read(["eval.ini", "eval.local.ini"])
print("settings read from", read, flush=True)
s = cfg["weekly"]
GP = "/work/h106/.venv/bin/gym-pipeline"
steps = [
    f"{GP} materialize --input {s['data']} --num-repeats {s.getint('repeats')} --agent string_match_simple_agent "
    "--output rollouts_materialized_inputs.jsonl",
    f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {sys.argv[1]} "
    f"--env string_match --concurrency {s.getint('concurrency')}",
    f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl",
]
for step in steps:
    subprocess.run(step, shell=True, check=True)
print("eval done", flush=True)
