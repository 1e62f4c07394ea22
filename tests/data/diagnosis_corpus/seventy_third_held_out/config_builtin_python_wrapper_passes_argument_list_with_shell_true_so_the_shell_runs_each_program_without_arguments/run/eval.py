"""eval.py: the team's eval wrapper (materialize, collect, profile) for CI."""
import subprocess
import sys

GP = "/work/wt-h73/.venv/bin/gym-pipeline"
URL = sys.argv[1]


def step(*argv):
    print("+", " ".join(argv), flush=True)
    # shell=True so that CI's PATH tweaks and ~ in paths work like in the old shell script
    return subprocess.run(list(argv), shell=True).returncode


step(GP, "materialize", "--input", "string_match.jsonl", "--num-repeats", "3",
     "--agent", "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl")
step(GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
     "--model-url", URL, "--env", "string_match", "--concurrency", "4")
step(GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl")
print("eval.py: done")
