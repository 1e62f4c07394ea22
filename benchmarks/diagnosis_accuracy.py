"""How often `gym-pipeline diagnose` names the right root cause, on the labelled corpus of real runs.

    .venv/bin/python benchmarks/diagnosis_accuracy.py [--set SET] [--cases]

SET: a folder of tests/data/diagnosis_corpus/: tuning, first_held_out ... fifty_fifth_held_out (default: all).

For each set of tests/data/diagnosis_corpus/ (the tuning cases the rules were written against, the first,
second, third, fourth and fifth held-out sets, each tuned on since it was measured once, and a held-out set written after
the rules from the guides alone, when there is one): top-1 category accuracy, the share of fixes
holding every word the case asks for, failed runs called healthy (the worst answer), healthy runs
called failed, and the diagnosis time. `--cases` lists every case with what the diagnosis said.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from pathlib import Path

from gym_pipeline.diagnose import HEALTHY, diagnose

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "diagnosis_corpus"


def judge(case_file: Path) -> dict:
    case = json.loads(case_file.read_text())
    started = time.perf_counter()
    report = diagnose(case_file.parent / "run")
    elapsed = time.perf_counter() - started
    top = report.causes[0] if report.causes else None
    fix = (top.fix if top else "").lower()
    missing = [word for word in case["fix_words"] if word.lower() not in fix]
    return {
        "set": case["set"], "name": case["name"], "expected": case["expected_category"], "got": report.category,
        "right": report.category == case["expected_category"], "fix_ok": not missing, "missing_words": missing,
        "title": top.title if top else "", "seconds": elapsed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # the sets are the corpus's folders: a new set needs no change here
    parser.add_argument("--set", choices=sorted(p.name for p in CORPUS.iterdir() if p.is_dir()), default=None)
    parser.add_argument("--cases", action="store_true", help="list every case")
    args = parser.parse_args()
    results = [judge(path) for path in sorted(CORPUS.glob(f"{args.set or '*'}/*/case.json"))]
    by_set: dict[str, list[dict]] = defaultdict(list)
    for result in results:
        by_set[result["set"]].append(result)
    print(f"{'set':15} {'cases':>5} {'top-1':>7} {'fix words':>9} {'failed->healthy':>15} {'healthy->failed':>15} "
          f"{'median s':>8}")
    for name, rows in sorted(by_set.items()):
        failed = [r for r in rows if r["expected"] != HEALTHY]
        healthy = [r for r in rows if r["expected"] == HEALTHY]
        times = sorted(r["seconds"] for r in rows)
        print(f"{name:15} {len(rows):5} {sum(r['right'] for r in rows) / len(rows):7.0%} "
              f"{sum(r['right'] and r['fix_ok'] for r in rows) / len(rows):9.0%} "
              f"{sum(r['got'] == HEALTHY for r in failed):>8} of {len(failed):<4} "
              f"{sum(r['got'] != HEALTHY for r in healthy):>8} of {len(healthy):<4} {times[len(times) // 2]:8.3f}")
    for result in results:
        if args.cases or not (result["right"] and result["fix_ok"]):
            mark = "ok " if result["right"] and result["fix_ok"] else "BAD"
            words = f" (fix lacks {result['missing_words']})" if result["missing_words"] and result["right"] else ""
            print(f"{mark} {result['set']}/{result['name']}: expected {result['expected']}, got {result['got']}"
                  f"{words}: {result['title'][:110]}")


if __name__ == "__main__":
    main()
