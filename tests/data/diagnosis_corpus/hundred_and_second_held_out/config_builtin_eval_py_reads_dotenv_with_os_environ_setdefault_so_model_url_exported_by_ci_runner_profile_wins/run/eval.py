"""eval.py: the weekly eval (materialize, collect, profile); settings come from .env next to it."""
import os
import subprocess

GP = "/work/h102/.venv/bin/gym-pipeline"


def load_dotenv(path=".env"):
    """A minimal .env reader (python-dotenv is not in the eval image): KEY=VALUE lines, # comments."""
    for line in open(path):
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            key, value = line.split("=", 1)
            os.environ.setdefault(key.strip(), value.strip())


load_dotenv()
url = os.environ["MODEL_URL"]
repeats = os.environ.get("REPEATS", "3")
print(f"eval of {os.environ['DATA']} x {repeats} against {url}", flush=True)
for step in (
    [GP, "materialize", "--input", os.environ["DATA"], "--num-repeats", repeats,
     "--agent", "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"],
    [GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
     "--model-url", url, "--env", "string_match", "--concurrency", os.environ.get("CONCURRENCY", "4")],
    [GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
):
    subprocess.run(step, check=True)
