"""drive_eval.py MODEL_URL: the weekly eval; never silently overwrite the results of an earlier run."""
import shutil
import subprocess
import sys
from pathlib import Path

GP = "/work/h103/.venv/bin/gym-pipeline"
url = sys.argv[1]
for name in ("rollouts.jsonl", "rollouts_reward_profiling.jsonl"):
    if Path(name).exists():
        n = 1
        while Path(f"{name}.{n}").exists():
            n += 1
        shutil.move(name, f"{name}.{n}")
        print(f"WARNING: {name} already exists: results of an earlier run would be OVERWRITTEN; "
              f"moved to {name}.{n}", flush=True)
subprocess.run([GP, "materialize", "--input", "string_match.jsonl", "--num-repeats", "3", "--agent",
                "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
subprocess.run([GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                "--model-url", url, "--env", "string_match", "--concurrency", "4"], check=True)
subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
               check=True)
print("eval done", flush=True)
