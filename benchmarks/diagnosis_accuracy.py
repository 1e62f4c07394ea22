"""How often `gym-pipeline diagnose` names the right root cause, on the labelled corpus of real runs.

    .venv/bin/python benchmarks/diagnosis_accuracy.py [--set SET] [--cases]

SET: tuning, first_held_out ... fifty_fourth_held_out, held_out (default: all).

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
    parser.add_argument("--set", choices=("tuning", "first_held_out", "second_held_out", "third_held_out", "fourth_held_out",
                                                  "fifth_held_out", "sixth_held_out", "seventh_held_out", "eighth_held_out",
                                                  "ninth_held_out", "tenth_held_out", "eleventh_held_out", "twelfth_held_out",
                                                  "thirteenth_held_out", "fourteenth_held_out", "fifteenth_held_out",
                                                  "sixteenth_held_out", "seventeenth_held_out", "eighteenth_held_out",
                                                  "nineteenth_held_out", "twentieth_held_out", "twenty_first_held_out",
                                                  "twenty_second_held_out", "twenty_third_held_out",
                                                  "twenty_fourth_held_out", "twenty_fifth_held_out",
                                                  "twenty_sixth_held_out", "twenty_seventh_held_out",
                                                  "twenty_eighth_held_out", "twenty_ninth_held_out",
                                                  "thirtieth_held_out", "thirty_first_held_out",
                                                  "thirty_second_held_out", "thirty_third_held_out",
                                                  "thirty_fourth_held_out", "thirty_fifth_held_out",
                                                  "thirty_sixth_held_out", "thirty_seventh_held_out",
                                                  "thirty_eighth_held_out", "thirty_ninth_held_out",
                                                  "fortieth_held_out", "forty_first_held_out",
                                                  "forty_second_held_out", "forty_third_held_out", "forty_fourth_held_out",
                                                  "forty_fifth_held_out", "forty_sixth_held_out",
                                                  "forty_seventh_held_out", "forty_eighth_held_out",
                                                  "forty_ninth_held_out", "fiftieth_held_out",
                                                  "fifty_first_held_out", "fifty_second_held_out", "fifty_third_held_out",
                                                  "fifty_fourth_held_out", "held_out"),
                        default=None)
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
