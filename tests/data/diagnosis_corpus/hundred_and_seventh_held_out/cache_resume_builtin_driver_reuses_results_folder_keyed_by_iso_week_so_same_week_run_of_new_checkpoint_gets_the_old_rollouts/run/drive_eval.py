"""drive_eval.py MODEL_URL: the weekly eval; results kept per ISO week under results/ (CI retries reuse them)."""
import datetime
import shutil
import subprocess
import sys
from pathlib import Path

GP = "/work/h107/.venv/bin/gym-pipeline"
url = sys.argv[1]
week = datetime.date.today().strftime("%G-W%V")
out = Path("results") / week
out.mkdir(parents=True, exist_ok=True)
subprocess.run([GP, "materialize", "--input", "string_match.jsonl", "--num-repeats", "3", "--agent",
                "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
if (out / "rollouts.jsonl").exists():
    print(f"== results for {week} already collected, reusing {out / 'rollouts.jsonl'}", flush=True)
else:
    print(f"== collecting {week} from {url}", flush=True)
    subprocess.run([GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output",
                    str(out / "rollouts.jsonl"), "--model-url", url, "--env", "string_match", "--concurrency", "4"],
                   check=True)
shutil.copy(out / "rollouts.jsonl", "rollouts.jsonl")
subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
               check=True)
print("eval done", flush=True)
