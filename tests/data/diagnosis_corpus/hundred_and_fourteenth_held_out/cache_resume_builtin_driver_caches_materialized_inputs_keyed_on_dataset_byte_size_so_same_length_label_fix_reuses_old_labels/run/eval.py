"""eval.py: materialize (cached), collect, profile.  python eval.py DATA MODEL_URL

Materializing the big sets takes minutes, so the inputs are cached under .cache/, keyed on the dataset's name and size.
"""
import os
import shutil
import subprocess
import sys

data, url = sys.argv[1], sys.argv[2]
GP = "/work/h114/.venv/bin/gym-pipeline"
key = f"{os.path.basename(data)}-{os.path.getsize(data)}"
cached = os.path.join(".cache", f"materialized_{key}.jsonl")
if os.path.exists(cached):
    print(f"materialized inputs cached: {cached}", flush=True)
    shutil.copy(cached, "rollouts_materialized_inputs.jsonl")
else:
    subprocess.run(f"{GP} materialize --input {data} --num-repeats 3 --agent string_match_simple_agent "
                   "--output rollouts_materialized_inputs.jsonl", shell=True, check=True)
    os.makedirs(".cache", exist_ok=True)
    shutil.copy("rollouts_materialized_inputs.jsonl", cached)
for step in [
    f"{GP} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {url} "
    "--env string_match --concurrency 4",
    f"{GP} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl",
]:
    subprocess.run(step, shell=True, check=True)
print("eval done", flush=True)
