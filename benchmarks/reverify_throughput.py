"""Re-scoring throughput: `gym-pipeline reverify` on 320,000 string_match rollouts (20,000 tasks x 16 repeats).

Target (issue 15): at least 50,000 rows per second on this machine's cores, with memory that does not hold the
rollouts file: the new file is written by workers range by range.

The run is profile_benchmark.py's synthetic Gym 0.7.0 run (868 MB of rollouts, rows shaped like the fixture's,
`\\boxed{}` answers, some masked rows and some rewards the string_match verifier would not give, so re-scoring
changes about 3% of the rows). Before each measurement the original rollouts are copied back in place and
synced to disk (not timed).
Each re-scoring runs in a fresh child process (`rescore_run` with the bundled string_match verifier, all cores):
its wall time (interpreter start and imports included) and the re-scoring's own time, the child's peak RSS, the
largest worker peak RSS and the peak PSS of all of them, as profile_benchmark.py measures them.

    .venv/bin/python benchmarks/reverify_throughput.py             # --repeat 1, then 3
    .venv/bin/python benchmarks/reverify_throughput.py --repeats 1 --runs 3
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from profile_benchmark import OUT, REPEATS, TASKS, generate_run, measure  # noqa: E402

TARGET_ROWS_PER_S = 50_000

_CHILD = """
import json, sys
from pathlib import Path
from gym_pipeline.engines.rescoring import rescore_run
from gym_pipeline.environments import get_environment
summary = rescore_run(Path(sys.argv[1]), get_environment("string_match"), {"name": "string_match", "version": "-"},
                      repeats=int(sys.argv[2]))
print(json.dumps({"rows": summary.rows, "rescored": summary.rescored, "changed": summary.changed,
                  "flaky": len(summary.flaky), "elapsed_s": summary.elapsed_s}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, nargs="+", default=[1, 3], help="verifications per row")
    parser.add_argument("--runs", type=int, default=2, help="measurements per setting (the best is reported too)")
    args = parser.parse_args()

    source = OUT / "profile_1x"
    inputs, rollouts = generate_run(source, TASKS, REPEATS)
    work = OUT / "reverify"
    work.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(inputs, work / inputs.name)
    size_mb = rollouts.stat().st_size / 1e6
    print(f"{TASKS * REPEATS:,} rollouts, {size_mb:.0f} MB, {os.cpu_count()} cores")
    results = []
    for repeats in args.repeats:
        for run in range(args.runs):
            shutil.copyfile(rollouts, work / rollouts.name)
            (work / "manifest.json").unlink(missing_ok=True)
            os.sync()  # the copy on disk before the clock starts: its writeback is not the re-scoring's cost
            measured = measure([sys.executable, "-c", _CHILD, str(work), str(repeats)])
            summary = json.loads(measured.pop("output")[-1])
            row = {
                "repeats": repeats, "run": run + 1, **summary,
                "rows_per_s": summary["rows"] / measured["wall_s"],
                "rows_per_s_rescoring": summary["rows"] / summary["elapsed_s"],
                **{key: round(value, 2) for key, value in measured.items()},
            }
            results.append(row)
            print(f"--repeat {repeats} run {run + 1}: {row['rows']:,} rows ({row['changed']:,} changed, "
                  f"{row['flaky']} flaky) in {measured['wall_s']:.2f} s wall ({summary['elapsed_s']:.2f} s "
                  f"re-scoring): {row['rows_per_s']:,.0f} rows/s ({row['rows_per_s_rescoring']:,.0f} re-scoring); "
                  f"peak RSS {measured['peak_rss_mb']:.0f} MB, worker peak {measured['worker_peak_rss_mb']:.0f} MB, "
                  f"all processes' peak PSS {measured['peak_tree_pss_mb']:.0f} MB, CPU {measured['cpu_s']:.1f} s")
    best = max(r["rows_per_s"] for r in results if r["repeats"] == 1) if 1 in args.repeats else None
    if best is not None:
        verdict = "meets" if best >= TARGET_ROWS_PER_S else "misses"
        print(f"best --repeat 1: {best:,.0f} rows/s ({verdict} the target of {TARGET_ROWS_PER_S:,})")
    (OUT / "reverify_throughput.json").write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
