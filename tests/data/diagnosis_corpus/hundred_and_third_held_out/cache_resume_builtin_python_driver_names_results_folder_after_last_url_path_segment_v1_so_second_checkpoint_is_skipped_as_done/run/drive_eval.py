"""drive_eval.py STEP=URL ...: evaluate several checkpoints; skip any endpoint already evaluated (CI reruns)."""
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse

GP = "/work/h103/.venv/bin/gym-pipeline"
subprocess.run([GP, "materialize", "--input", "string_match.jsonl", "--num-repeats", "3", "--agent",
                "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
for arg in sys.argv[1:]:
    step, url = arg.split("=", 1)
    folder = Path("results") / Path(urlparse(url).path).name  # one folder per endpoint
    print(f"== {step} at {url} -> {folder}", flush=True)
    if (folder / "rollouts.jsonl").exists():
        print(f"{folder} already evaluated, skipping (resume)", flush=True)
        continue
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run([GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output",
                    str(folder / "rollouts.jsonl"), "--model-url", url, "--env", "string_match", "--concurrency",
                    "4"], check=True)
    subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts",
                    str(folder / "rollouts.jsonl")], check=True)
print("all checkpoints done", flush=True)
