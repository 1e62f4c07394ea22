"""drive_eval.py MODEL_URL: the weekly eval; collect on node-local scratch, resumable if CI preempts us."""
import shutil
import subprocess
import sys
from pathlib import Path

GP = "/work/h105/.venv/bin/gym-pipeline"
SCRATCH = Path("/tmp/eval_scratch")  # fast local disk; a preempted job resumes from what is there
url = sys.argv[1]
SCRATCH.mkdir(parents=True, exist_ok=True)
subprocess.run([GP, "materialize", "--input", "string_match.jsonl", "--num-repeats", "3", "--agent",
                "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
subprocess.run([GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output",
                str(SCRATCH / "rollouts.jsonl"), "--model-url", url, "--env", "string_match", "--concurrency", "4",
                "--resume"], check=True)
for path in SCRATCH.iterdir():
    shutil.copy(path, path.name)
    print(f"copied {path} -> {path.name}", flush=True)
subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
               check=True)
print("eval done", flush=True)
