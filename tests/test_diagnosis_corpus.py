"""The labelled corpus: run folders of real failures (and healthy runs), each with the class and fix words
its diagnosis must give.

Each case under tests/data/diagnosis_corpus/<set>/<case>/ was made by scripts/diagnosis_corpus/<set>.py
with the project's own parts (engines, launchers, the simulated policy's faults, real NeMo Gym 0.7.0);
`case.json` says how, the expected category and the words the top cause's fix must contain. The
`*_held_out` sets were written from the guides alone after the rules and measured once each
(benchmarks/README.md) before they were tuned on; a `held_out` set, when there is one, is not tuned on yet.

The cases the diagnosis still gets wrong are listed, with what it says, in `known_misses.json`: they
are expected failures (strict: a case that starts passing must leave the list), so the suite stays
green while the list says exactly what is left; benchmarks/diagnosis_accuracy.py measures them.
"""

import json
from collections import Counter
from pathlib import Path

import pytest

from gym_pipeline.diagnose import CATEGORIES, diagnose, render_text

CORPUS = Path(__file__).parent / "data" / "diagnosis_corpus"
CASES = sorted(CORPUS.glob("*/*/case.json"))
KNOWN_MISSES: dict[str, str] = json.loads((CORPUS / "known_misses.json").read_text())


def case_id(path: Path) -> str:
    return f"{path.parent.parent.name}/{path.parent.name}"


def with_known_misses(paths: list[Path]) -> list:
    return [pytest.param(path, id=case_id(path),
                         marks=[pytest.mark.xfail(strict=True, reason=KNOWN_MISSES[case_id(path)])]
                         if case_id(path) in KNOWN_MISSES else [])
            for path in paths]


def read_case(path: Path) -> dict:
    return json.loads(path.read_text())


def rule_failures(case_file: Path, caplog: pytest.LogCaptureFixture):
    """The case's report, and the rules that raised on it: a rule that raises is left out of the report with only a
    log line (one rule's bug must not cost the rest), so on the corpus none may, or its finding is silently lost."""
    with caplog.at_level("ERROR", logger="gym_pipeline.diagnose"):
        report = diagnose(case_file.parent / "run")
    return report, [record.getMessage() for record in caplog.records
                    if record.getMessage().startswith("diagnosis rule ")]


@pytest.mark.parametrize("case_file", with_known_misses(CASES))
def test_each_case_gets_its_category_and_fix(case_file: Path, caplog: pytest.LogCaptureFixture) -> None:
    case = read_case(case_file)
    report, failed = rule_failures(case_file, caplog)
    assert failed == []
    assert report.category == case["expected_category"], f"{case['root_cause']}\n\n{render_text(report)}"
    if case["fix_words"]:
        fix = report.causes[0].fix.lower()
        missing = [word for word in case["fix_words"] if word.lower() not in fix]
        assert not missing, f"the fix lacks {missing}:\n{report.causes[0].fix}"


# A known miss is an expected failure, which would hide a rule that raises on it: those cases are checked here.
@pytest.mark.parametrize("case_file", [path for path in CASES if case_id(path) in KNOWN_MISSES], ids=case_id)
def test_no_rule_fails_on_a_known_miss(case_file: Path, caplog: pytest.LogCaptureFixture) -> None:
    assert rule_failures(case_file, caplog)[1] == []


def test_the_corpus_covers_every_class_with_a_held_out_third() -> None:
    cases = [read_case(path) for path in CASES]
    categories = Counter(case["expected_category"] for case in cases)
    assert len(cases) >= 40
    assert set(categories) == {*CATEGORIES, "healthy"}
    assert categories["healthy"] >= 5
    # every set but the tuning one was written from the guides alone, after the rules, and measured once before
    # any tuning on it (benchmarks/README.md has each measurement)
    written_held_out = [case for case in cases if case["set"] != "tuning"]
    assert len(written_held_out) * 3 >= len(cases)
    assert set(KNOWN_MISSES) <= {case_id(path) for path in CASES}
