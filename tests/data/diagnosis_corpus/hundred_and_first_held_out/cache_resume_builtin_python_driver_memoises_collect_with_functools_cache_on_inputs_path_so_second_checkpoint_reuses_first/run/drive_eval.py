"""drive_eval.py STEP=URL ...: evaluate several checkpoints in one go, into results/<step>/."""
import functools
import shutil
import subprocess
import sys
from pathlib import Path

GP = "/work/h101/.venv/bin/gym-pipeline"
URL = None  # the endpoint of the checkpoint being evaluated
subprocess.run([GP, "materialize", "--input", "string_match.jsonl", "--num-repeats", "3", "--agent",
                "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)


@functools.cache  # collect is the slow part: never collect the same inputs twice in one session
def collect(inputs: str) -> str:
    out = Path("results") / f"collect_{len(list(Path('results').glob('collect_*')))}.jsonl"
    subprocess.run([GP, "collect", "--inputs", inputs, "--output", str(out), "--model-url", URL, "--env",
                    "string_match", "--concurrency", "4"], check=True)
    return str(out)


Path("results").mkdir(exist_ok=True)
for arg in sys.argv[1:]:
    step, URL = arg.split("=", 1)
    print(f"== {step} at {URL}", flush=True)
    folder = Path("results") / step
    folder.mkdir(exist_ok=True)
    shutil.copy(collect("rollouts_materialized_inputs.jsonl"), folder / "rollouts.jsonl")
    subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts",
                    str(folder / "rollouts.jsonl")], check=True)
print("all checkpoints done", flush=True)
