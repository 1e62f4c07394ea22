"""Fingerprinting throughput: `file_digest` on a 1 GB JSONL file already in the page cache.

Target (issue 3): at least 1 GB/s. Run: .venv/bin/python benchmarks/fingerprint_throughput.py [--size-gb 1]
The file is generated once under benchmarks/out/ (git-ignored) from rows shaped like Gym's materialized inputs.
"""

import argparse
import statistics
import time
from pathlib import Path

import orjson

from gym_pipeline.core.fingerprint import file_digest

OUT = Path(__file__).parent / "out"


def make_jsonl(path: Path, size_bytes: int) -> None:
    if path.exists() and path.stat().st_size >= size_bytes:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    written = 0
    with path.open("wb") as handle:
        task = 0
        while written < size_bytes:
            row = {
                "responses_create_params": {"input": [{"role": "user", "type": "message", "content": [
                    {"type": "input_text", "text": f"Question {task}: what is {task} + {task * 7}? "
                                                   "Put your final answer in \\boxed{}."}]}]},
                "expected_answer": str(task * 8), "extraction_mode": "boxed", "case_sensitive": False,
                "agent_ref": {"name": "string_match_simple_agent"}, "_ng_task_index": task, "_ng_rollout_index": 0,
            }
            line = orjson.dumps(row) + b"\n"
            handle.write(line)
            written += len(line)
            task += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-gb", type=float, default=1.0)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    path = OUT / f"fingerprint_{args.size_gb:g}gb.jsonl"
    make_jsonl(path, int(args.size_gb * 1e9))
    size = path.stat().st_size
    file_digest(path)  # warm the page cache
    seconds = []
    for _ in range(args.runs):
        started = time.perf_counter()
        file_digest(path)
        seconds.append(time.perf_counter() - started)
    best, median = min(seconds), statistics.median(seconds)
    print(f"file: {path.name}, {size / 1e9:.2f} GB, {args.runs} runs after a warm-up read")
    print(f"best {best:.3f} s = {size / best / 1e9:.2f} GB/s; median {median:.3f} s = {size / median / 1e9:.2f} GB/s")


if __name__ == "__main__":
    main()
