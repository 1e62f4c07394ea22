"""drive_eval.py MODEL_URL: the nightly eval; every step is bounded so a hung server cannot block CI."""
import subprocess
import sys

GP = "/work/h101/.venv/bin/gym-pipeline"
url = sys.argv[1]
# step timeouts (s), sized on the 4-row smoke set
TIMEOUT_S = {"materialize": 60, "collect": 20, "profile": 60}
STEPS = {
    "materialize": [GP, "materialize", "--input", "string_match.jsonl", "--num-repeats", "3", "--agent",
                    "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"],
    "collect": [GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                "--model-url", url, "--env", "string_match", "--concurrency", "4"],
    "profile": [GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
}
for step, argv in STEPS.items():
    try:
        subprocess.run(argv, check=True, timeout=TIMEOUT_S[step])
    except subprocess.TimeoutExpired:
        print(f"warning: {step} exceeded {TIMEOUT_S[step]} s, continuing with what it wrote", flush=True)
print("nightly eval done", flush=True)
