"""drive_eval.py MODEL_URL: the weekly eval, each step timed against the budget of the CI smoke set."""
import subprocess
import sys
import time

GP = "/work/h101/.venv/bin/gym-pipeline"
url = sys.argv[1]
# budgets (seconds) measured on the 4-row smoke set in CI
BUDGET_S = {"materialize": 5.0, "collect": 1.0, "profile": 5.0}
STEPS = {
    "materialize": [GP, "materialize", "--input", "string_match.jsonl", "--num-repeats", "3", "--agent",
                    "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"],
    "collect": [GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                "--model-url", url, "--env", "string_match", "--concurrency", "4"],
    "profile": [GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
}
for step, argv in STEPS.items():
    start = time.monotonic()
    subprocess.run(argv, check=True)
    took = time.monotonic() - start
    flag = "" if took <= BUDGET_S[step] else f"  !! SLOW: over budget of {BUDGET_S[step]:.1f} s"
    print(f"[timing] {step} took {took:.1f} s{flag}", flush=True)
print("eval done", flush=True)
