"""eval_service.py: the team's eval service; evaluates every checkpoint request dropped into queue/."""
import functools
import json
import subprocess
import time
from pathlib import Path

GP = "/work/h95/.venv/bin/gym-pipeline"


@functools.lru_cache(maxsize=None)
def load_rows(path):
    """The dataset's rows (parsed once: the service evaluates many checkpoints)."""
    return tuple(line for line in Path(path).read_text().splitlines() if line.strip())


def evaluate(request):
    rows = load_rows("string_match.jsonl")
    Path("eval_inputs.jsonl").write_text("\n".join(rows) + "\n")
    for name in ("rollouts.jsonl", "rollouts_failures.jsonl"):
        Path(name).unlink(missing_ok=True)
    subprocess.run([GP, "materialize", "--input", "eval_inputs.jsonl", "--num-repeats", "3",
                    "--agent", "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"],
                   check=True)
    subprocess.run([GP, "collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                    "--model-url", request["model_url"], "--env", "string_match", "--concurrency", "4"], check=True)
    subprocess.run([GP, "profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
                   check=True)


Path("done").mkdir(exist_ok=True)
print("eval service: watching queue/", flush=True)
while True:
    for path in sorted(Path("queue").glob("*.json")):
        request = json.loads(path.read_text())
        print(f"eval service: evaluating {request['checkpoint']} at {request['model_url']}", flush=True)
        evaluate(request)
        path.rename(Path("done") / path.name)
        print(f"eval service: done {request['checkpoint']}", flush=True)
    time.sleep(1)
